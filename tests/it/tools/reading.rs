//! `java_read_range` and `java_read_javadoc` on the fixtures: boundaries, caps, line
//! terminators, stale and short symbolIds.

use std::path::PathBuf;

use mcp_java_index::model::OutlineOptions;
use mcp_java_index::tools::ToolError;
use mcp_java_index::tools::tool::java_index::index_file;
use mcp_java_index::tools::tool::java_read_javadoc::{JavadocOptions, read_javadoc};
use mcp_java_index::tools::tool::java_read_range::{RangeOptions, read_range};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
}

fn range(
    name: &str,
    s: u32,
    e: u32,
    opts: RangeOptions,
) -> Result<mcp_java_index::tools::tool::java_read_range::RangeResult, ToolError> {
    read_range(&fixture(name), name, s, e, &opts)
}

#[test]
fn range_returns_exact_lines_including_both_boundaries() {
    let r = range("javadoc_styles.java", 7, 11, RangeOptions::default()).expect("read");
    assert_eq!(
        r.content,
        "7: /** Single-line javadoc on the class. */\n8: class DocStyles {\n9: \n10:     /** x */\n11:     int x;"
    );
    assert_eq!((r.start_line, r.end_line, r.truncated, r.next_start_line), (7, 11, false, None));
    let first = range("javadoc_styles.java", 1, 1, RangeOptions { include_line_numbers: false, ..Default::default() })
        .expect("read");
    assert_eq!(first.content, "/** Copyright (c) Example Corp. This header doc comment belongs to no type. */");
}

#[test]
fn range_reads_the_last_line_and_clamps_past_the_end_with_a_note() {
    let whole = std::fs::read_to_string(fixture("javadoc_styles.java")).expect("fixture");
    let count = whole.lines().count() as u32;
    let r = range("javadoc_styles.java", count, count + 50, RangeOptions::default()).expect("read");
    assert_eq!(r.end_line, count);
    assert_eq!(r.content, format!("{count}: {}", whole.lines().last().expect("last line")));
    assert!(r.note.as_deref().is_some_and(|n| n.contains("past the last line")), "{:?}", r.note);
}

#[test]
fn crlf_lines_come_without_carriage_returns() {
    let r = range("crlf_endings.java", 13, 14, RangeOptions { include_line_numbers: false, ..Default::default() })
        .expect("read");
    assert!(!r.content.contains('\r'), "{:?}", r.content);
    assert_eq!(r.content.lines().count(), 2);
    assert!(r.content.starts_with("    /** Backing storage. */"), "{:?}", r.content);
}

#[test]
fn bad_bounds_are_errors_that_name_the_file_range() {
    let count = std::fs::read_to_string(fixture("javadoc_styles.java")).expect("fixture").lines().count();
    for (s, e, want) in [
        (0, 5, "startLine must be 1 or more".to_owned()),
        (9, 3, "endLine 3 is before startLine 9".to_owned()),
        (5000, 5001, format!("which has lines 1-{count}")),
    ] {
        let err = range("javadoc_styles.java", s, e, RangeOptions::default()).expect_err("bad bounds");
        assert!(matches!(err, ToolError::InvalidArgument(_)), "{err}");
        assert!(err.to_string().contains(&want), "{err} does not say {want}");
    }
    let err = range("empty.java", 1, 1, RangeOptions::default()).expect_err("empty file");
    assert!(err.to_string().contains("empty"), "{err}");
    let err = range("no_such_file.java", 1, 1, RangeOptions::default()).expect_err("missing");
    assert!(matches!(err, ToolError::NotFound(_)), "{err}");
}

#[test]
fn max_chars_truncates_at_a_line_and_says_where_to_continue() {
    let r = range("javadoc_styles.java", 13, 24, RangeOptions { include_line_numbers: true, max_chars: 100 })
        .expect("read");
    assert!(r.truncated);
    assert!(r.content.chars().count() <= 100, "{}", r.content.len());
    let next = r.next_start_line.expect("next line");
    assert_eq!(next, r.end_line + 1);
    assert!(r.note.as_deref().is_some_and(|n| n.contains(&format!("continue with startLine {next}"))), "{:?}", r.note);
    // Reading on from there gives the rest, without gaps.
    let rest = range("javadoc_styles.java", next, 24, RangeOptions::default()).expect("read");
    assert!(rest.content.starts_with(&format!("{next}: ")));
    // One line longer than the cap is cut, not dropped.
    let cut =
        range("javadoc_styles.java", 1, 1, RangeOptions { include_line_numbers: false, max_chars: 10 }).expect("read");
    assert_eq!(cut.content, "/** Copyri");
    assert!(cut.truncated);
}

fn jd(name: &str, id: &str) -> mcp_java_index::tools::tool::java_read_javadoc::JavadocResult {
    read_javadoc(&fixture(name), name, id, &JavadocOptions::default()).expect("javadoc")
}

#[test]
fn javadoc_of_every_fixture_symbol_matches_its_lines() {
    let name = "javadoc_styles.java";
    let o = index_file(&fixture(name), name, &OutlineOptions::default()).expect("outline");
    let add = o.classes[0].methods.iter().find(|m| m.name == "add").expect("add");
    let r = jd(name, &add.symbol_id);
    assert!(r.found);
    assert_eq!((r.start_line, r.end_line, r.line_count), (Some(13), Some(21), 9));
    assert!(r.content.starts_with("13:     /**\n14:      * Multi-line javadoc with tags."), "{}", r.content);
    assert!(r.content.ends_with("21:      */"), "{}", r.content);
    assert_eq!(r.resolved_symbol_id, None);
}

#[test]
fn symbol_without_javadoc_and_unknown_symbols_are_not_found() {
    let name = "comments_trap.java";
    let o = index_file(&fixture(name), name, &OutlineOptions::default()).expect("outline");
    let plain = o.classes[0].methods.iter().find(|m| m.name == "tripleSlash").expect("method");
    let r = jd(name, &plain.symbol_id);
    assert!(!r.found);
    assert_eq!(r.content, "");
    assert!(r.note.as_deref().is_some_and(|n| n.contains("no javadoc")));
    let r = jd(name, "Method#nope.Nope#x():void|start:1|end:2");
    assert!(!r.found);
    assert!(r.note.as_deref().is_some_and(|n| n.contains("call java_index")), "{:?}", r.note);
}

#[test]
fn stale_ids_are_re_resolved_by_kind_and_signature() {
    let name = "javadoc_styles.java";
    let o = index_file(&fixture(name), name, &OutlineOptions::default()).expect("outline");
    let add = o.classes[0].methods.iter().find(|m| m.name == "add").expect("add");
    let stale = add.symbol_id.replace("|start:22|end:24", "|start:30|end:32");
    assert_ne!(stale, add.symbol_id);
    let r = jd(name, &stale);
    assert!(r.found);
    assert_eq!(r.resolved_symbol_id.as_deref(), Some(add.symbol_id.as_str()));
    assert!(r.note.as_deref().is_some_and(|n| n.contains("re-resolved")));
}

#[test]
fn short_ids_resolve_like_stable_ones() {
    let name = "enums.java";
    let short =
        index_file(&fixture(name), name, &OutlineOptions { stable_ids: false, ..Default::default() }).expect("outline");
    let long = index_file(&fixture(name), name, &OutlineOptions::default()).expect("outline");
    let first_constant = |o: &mcp_java_index::model::FileOutline| {
        let mut found = None;
        o.for_each_type(&mut |t| {
            if found.is_none() {
                found = t.enum_constants.as_ref().and_then(|c| c.first()).map(|c| c.symbol_id.clone());
            }
        });
        found.expect("an enum constant")
    };
    let (constant_short, constant_long) = (first_constant(&short), first_constant(&long));
    assert!(constant_short.starts_with('@'), "{constant_short}");
    let a = jd(name, &constant_short);
    let b = jd(name, &constant_long);
    assert!(a.found);
    assert_eq!((a.start_line, a.content.clone()), (b.start_line, b.content));
}

#[test]
fn options_filter_and_preview() {
    let name = "javadoc_styles.java";
    let opts = OutlineOptions {
        include_private: false,
        include_fields: false,
        max_javadoc_preview_chars: 20,
        ..Default::default()
    };
    let o = index_file(&fixture(name), name, &opts).expect("outline");
    let t = &o.classes[0];
    assert!(t.fields.is_empty());
    let add = t.methods.iter().find(|m| m.name == "add").expect("add");
    assert_eq!(add.javadoc.preview.as_deref(), Some("Multi-line javadoc w…"));
    let none = index_file(
        &fixture("static_init_and_misc.java"),
        "m",
        &OutlineOptions {
            include_private: false,
            include_constructors: false,
            include_inner_classes: false,
            ..Default::default()
        },
    )
    .expect("outline");
    for t in &none.classes {
        assert!(t.constructors.is_empty() && t.inner_classes.is_empty());
        assert!(t.methods.iter().all(|m| !m.modifiers.iter().any(|x| x == "private")));
    }
}

/// `java_read_range` with `symbol` reads one declaration's lines in one call: an overload by
/// its parameter types (varargs and arrays as written), a unique name alone; a name shared by
/// overloads is an error listing each with its lines and how to pick; a name nothing declares
/// (a substring does not count) is an error too; lines and a symbol together are refused.
#[test]
fn a_symbol_reads_exactly_one_declaration_or_says_which() {
    use mcp_java_index::config::{Config, Flags};
    use mcp_java_index::tools::host::Host;
    use mcp_java_index::tools::registry::dispatch;
    use serde_json::{Value, json};
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let flags = Flags::roots([root.as_path()]).set("watch", false).set("cache", false);
    let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    let read = |args: Value| {
        let Value::Object(m) = args else { unreachable!("object arguments") };
        dispatch(&ws, "java_read_range", m)
    };
    let ok = |args: Value| read(args).unwrap_or_else(|e| panic!("{e}")).value;
    let v = ok(json!({"filePath": "overloads.java", "symbol": "add(int[])"}));
    assert_eq!((v["startLine"].as_u64(), v["endLine"].as_u64()), (Some(56), Some(62)), "{v}");
    assert!(v["content"].as_str().is_some_and(|c| c.starts_with("56:     int add(int... values) {")), "{v}");
    let v = ok(json!({"filePath": "overloads.java", "symbol": "add(long, long)"}));
    assert_eq!((v["startLine"].as_u64(), v["endLine"].as_u64()), (Some(46), Some(48)), "{v}");
    let v = ok(json!({"filePath": "overloads.java", "symbol": "toString"}));
    assert!(v["content"].as_str().is_some_and(|c| c.contains("public String toString()")), "{v}");
    let e = read(json!({"filePath": "overloads.java", "symbol": "add"})).expect_err("ambiguous");
    assert!(e.contains("names 7 declarations") && e.contains("add(long a, long b) (lines 46-48)"), "{e}");
    assert!(e.contains("name(Type,…)"), "{e}");
    let e = read(json!({"filePath": "overloads.java", "symbol": "ad"})).expect_err("substring");
    assert!(e.contains("declares nothing named `ad`"), "{e}");
    let e = read(json!({"filePath": "overloads.java", "symbol": "add", "startLine": 1})).expect_err("both");
    assert!(e.contains("not both"), "{e}");
    let e = read(json!({"filePath": "overloads.java"})).expect_err("neither");
    assert!(e.contains("give startLine and endLine, or symbol"), "{e}");
}

/// The text a model reads: `N line`, blank lines empty, and lines of brackets alone (`}`,
/// `});`) unnumbered, since their neighbours number them and a number costs as much as they do.
#[test]
fn the_text_rendering_numbers_lines_that_say_something() {
    use mcp_java_index::tools::tool::java_read_range::render;
    let r = range("overloads.java", 40, 44, RangeOptions::default()).expect("read");
    assert_eq!(
        render(&r),
        "40     /** Adds three ints. */\n41     int add(int a, int b, int c) {\n42         return a + b + c;\n    }\n\n"
    );
}
