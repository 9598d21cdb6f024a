//! Issue 13 on the parse side: Java that tree-sitter-java 0.23.5 misreads must not become a
//! wrong outline, a false syntax error or a lost reference. Each case goes through every
//! consumer of the parse: the outline (full and skeleton), get_problems' syntax source, the
//! xref declarations and find_references.

use crate::common;

use std::path::PathBuf;

use mcp_java_index::config::{Config, Flags};
use mcp_java_index::model::{FileOutline, MethodDecl, TypeDecl};
use mcp_java_index::parser;
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::tool::find_references::{FindReferencesArgs, FindReferencesResult};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)).expect("fixture")
}

fn all_methods(o: &FileOutline) -> Vec<&MethodDecl> {
    fn walk<'a>(t: &'a TypeDecl, out: &mut Vec<&'a MethodDecl>) {
        out.extend(t.methods.iter());
        t.inner_classes.iter().for_each(|i| walk(i, out));
    }
    let mut out = Vec::new();
    o.classes.iter().for_each(|t| walk(t, &mut out));
    out
}

/// The outline (full and skeleton parse) has no errors and the same rendering; the syntax
/// source of get_problems finds nothing.
#[track_caller]
fn clean_everywhere(name: &str, bytes: &[u8]) -> FileOutline {
    let full = parser::outline(name, bytes);
    assert!(full.errors.is_empty(), "{name}: {:?}", full.errors);
    let skel = parser::outline_declarations(name, bytes);
    assert!(skel.errors.is_empty(), "{name} (skeleton): {:?}", skel.errors);
    assert_eq!(common::render(&full), common::render(&skel), "{name}: skeleton and full parse differ");
    // The workspace index's variant differs only by leaving the hash out.
    let unhashed = parser::outline_declarations_unhashed(name, bytes);
    assert!(unhashed.hash.is_empty() && !skel.hash.is_empty(), "{name}");
    assert_eq!(FileOutline { hash: skel.hash.clone(), ..unhashed }, skel, "{name}: the index's outline differs");
    // Hints (an unused import) are not errors.
    let mut problems = mcp_java_index::problems::syntax::check(name, bytes);
    problems.retain(|p| p.severity != mcp_java_index::problems::Severity::Hint);
    assert!(problems.is_empty(), "{name}: false syntax problems {problems:?}");
    full
}

#[test]
fn type_annotations_before_varargs_keep_the_parameter() {
    let bytes = fixture("type_annotations.java");
    let o = clean_everywhere("type_annotations.java", &bytes);
    let sig = |m: &MethodDecl| -> String {
        format!("{}({})", m.name, m.params.iter().map(|p| p.type_text.as_str()).collect::<Vec<_>>().join(", "))
    };
    let sigs: Vec<String> = all_methods(&o).iter().map(|m| sig(m)).collect();
    for want in [
        "getBean(String)",
        "getBean(String, Object @Nullable ...)",
        "getBean(Class<?>, Object @A @B(value = 1) ...)",
        "first(T @fixtures.annotations.A ...)",
        "arr(String @Nullable [])",
        "arr2(int @A [] @B [])",
        "mixed(String @A [] @B ...)",
        "last()",
    ] {
        assert!(sigs.iter().any(|s| s == want), "{want} not in {sigs:?}");
    }
    let ids: Vec<&str> = all_methods(&o).iter().map(|m| m.symbol_id.as_str()).collect();
    let mut distinct = ids.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(ids.len(), distinct.len(), "overloads share a symbolId: {ids:?}");
    // The cross-reference declarations see both parameters too.
    let d = mcp_java_index::xref::decls::file_decls(&bytes);
    let t = d.types.iter().find(|t| &*t.simple == "TypeAnnotations").expect("type");
    let arities: Vec<(String, usize, bool)> = t
        .methods
        .iter()
        .filter(|m| &*m.name == "getBean")
        .map(|m| (m.name.to_string(), m.params.len(), m.varargs))
        .collect();
    assert_eq!(arities.len(), 3, "{arities:?}");
    assert!(arities.contains(&("getBean".into(), 2, true)), "{arities:?}");
}

/// A varargs type annotation's values may hold array braces and comments (the text the parse
/// blanks and the signature shows as written): the skeleton keeps its braces (they are no
/// member body) and the signature leaves its comments out, on both paths alike. Found by the
/// `parse` fuzz target (`fuzz/regressions/parse/crash-425b67-annotation-splice.java`).
#[test]
fn varargs_annotation_values_keep_braces_and_drop_comments() {
    let bytes = fixture("varargs_annotation_values.java");
    let o = clean_everywhere("varargs_annotation_values.java", &bytes);
    let params: Vec<String> =
        all_methods(&o).iter().flat_map(|m| m.params.iter().map(|p| p.type_text.clone())).collect();
    assert_eq!(
        params,
        [
            r#"Object @Tags({"a", "b"}) ..."#,
            r#"Object @Tags( value = "c") ..."#,
            "Object @Tags(n = 2) ...",
            r#"Object @Tags(value = {"x", "y"}) ..."#,
            r#"Object @Tags(value = {"{", "}"}) ..."#,
            "int @Tags({}) ...",
        ],
        "{params:?}"
    );
}

#[test]
fn control_bytes_in_literals_do_not_end_the_file() {
    let bytes = fixture("control_bytes_in_literals.java");
    assert!(bytes.contains(&0), "the fixture holds a raw NUL");
    let o = clean_everywhere("control_bytes_in_literals.java", &bytes);
    let lines: Vec<(String, u32, u32)> =
        all_methods(&o).iter().map(|m| (m.name.clone(), m.start_line, m.end_line)).collect();
    assert_eq!(
        lines,
        [("a".into(), 5, 5), ("c".into(), 7, 7), ("b".into(), 10, 10), ("d".into(), 12, 12)],
        "{lines:?}"
    );
    assert_eq!((o.classes[0].start_line, o.classes[0].end_line), (4, 13));
}

#[test]
fn java21_patterns_parse_without_false_errors() {
    let bytes = fixture("java21_patterns.java");
    let o = clean_everywhere("java21_patterns.java", &bytes);
    // Lines checked with javac 25's parser (javac 17 rejects the file).
    let lines: Vec<(String, u32, u32)> =
        all_methods(&o).iter().map(|m| (m.name.clone(), m.start_line, m.end_line)).collect();
    assert_eq!(
        lines,
        [
            ("area".into(), 18, 26),
            ("some".into(), 28, 39),
            ("nulls".into(), 41, 45),
            ("yields".into(), 47, 60),
            ("unnamed".into(), 63, 76),
            ("last".into(), 78, 78)
        ]
    );
    let t = &o.classes[0];
    assert_eq!((t.start_line, t.end_line), (6, 79));
    assert_eq!(t.inner_classes[0].permits, ["Circle", "Square", "Rect"]);
    assert_eq!(t.inner_classes[4].modifiers, ["non-sealed", "static"]);
}

fn workspace_with(files: &[(&str, &[u8])]) -> (tempfile::TempDir, Host) {
    let dir = tempfile::tempdir().expect("tempdir");
    for (rel, bytes) in files {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, bytes).expect("write");
    }
    let flags = Flags::roots([dir.path()]).set("watch", false).set("cache", false);
    let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    ws.build_index();
    (dir, ws)
}

fn refs(ws: &Host, target: &str) -> Vec<(u32, u32, String)> {
    let r: FindReferencesResult = mcp_java_index::tools::tool::find_references::run(
        ws,
        &FindReferencesArgs { target: target.into(), limit: 1000, ..Default::default() },
    )
    .expect("find_references");
    r.files.iter().flat_map(|f| f.references.iter().map(|x| (x.line, x.column, x.kind.clone()))).collect()
}

#[test]
fn find_references_sees_record_patterns_simple_and_qualified() {
    let bytes = fixture("java21_patterns.java");
    let (_d, ws) = workspace_with(&[("src/fixtures/java21/Java21Patterns.java", &bytes)]);
    let q = "fixtures.java21.Java21Patterns";
    // `Cache.Some(int n)` at line 29: `Cache` at column 26, `Some` at 32.
    assert_eq!(refs(&ws, &format!("{q}.Cache.Some")), [(29, 32, "type".to_owned())]);
    assert!(refs(&ws, &format!("{q}.Cache")).contains(&(29, 26, "type".to_owned())));
    // Circle: declared at 9, in `permits` (7), qualified pattern (20), simple pattern (21),
    // qualified nested in a generic record pattern (35), `case Circle(_, var r)` (72).
    let circle: Vec<(u32, u32)> = refs(&ws, &format!("{q}.Circle")).into_iter().map(|(l, c, _)| (l, c)).collect();
    assert_eq!(circle, [(7, 36), (20, 33), (21, 18), (35, 48), (72, 18)], "{circle:?}");
    let point: Vec<u32> = refs(&ws, &format!("{q}.Point")).into_iter().map(|(l, _, _)| l).collect();
    assert_eq!(point, [9, 10, 20, 21, 35, 64, 73], "{point:?}");
}

/// Contextual keywords as names, pattern switch statements with guards, and `case` labels
/// listing several patterns (Java 22), which tree-sitter-java 0.23.5 does not parse: no false
/// error anywhere, javac's lines (checked by hand: javac 17 rejects the file), and the types of
/// a label listing type patterns are still references.
#[test]
fn several_patterns_in_a_case_label_parse_without_false_errors() {
    let bytes = fixture("java21_more.java");
    let o = clean_everywhere("java21_more.java", &bytes);
    let lines: Vec<(String, u32, u32)> =
        all_methods(&o).iter().map(|m| (m.name.clone(), m.start_line, m.end_line)).collect();
    assert_eq!(
        lines,
        [
            ("when".into(), 15, 15),
            ("describe".into(), 18, 37),
            ("kind".into(), 40, 57),
            ("text".into(), 60, 66),
            ("dir".into(), 70, 76),
            ("boxes".into(), 79, 84),
            ("last".into(), 86, 86)
        ]
    );
    assert_eq!((o.classes[0].start_line, o.classes[0].end_line), (6, 87));
    let names: Vec<&str> = o.classes[0].fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["record", "sealed", "permits", "yield", "when", "var"]);
    let (_d, ws) = workspace_with(&[("src/fixtures/java21/More.java", &bytes)]);
    // Square: in `permits` (7), `case Circle _, Square _` (42), the record patterns of line 49
    // and `case Circle(_), More.Square(var _)` (81); not the second pattern of line 48, whose
    // type arguments the rewrite cannot keep (`case Pair<..>(..), Pair<..>(Square _, ..)`).
    let square: Vec<(u32, u32)> =
        refs(&ws, "fixtures.java21.More.Square").into_iter().map(|(l, c, _)| (l, c)).collect();
    assert_eq!(square, [(7, 44), (27, 44), (42, 28), (49, 44), (81, 34)], "{square:?}");
    let circle: Vec<u32> = refs(&ws, "fixtures.java21.More.Circle").into_iter().map(|(l, _, _)| l).collect();
    assert!(circle.contains(&42) && circle.contains(&81), "{circle:?}");
}

/// The JSpecify-style corpus (also in the javac agreement test): no false syntax error in any
/// consumer, and an annotated receiver parameter (`@NonNull Registry<K, V> this`, which
/// tree-sitter-java reads as a parameter named `this`) is not a parameter, in the outline and
/// in the cross-reference declarations.
#[test]
fn jspecify_corpus_is_clean_and_receivers_are_not_parameters() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/javac_corpus/jspecify/org/example/nullness");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("corpus")
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .filter(|n| n.ends_with(".java"))
        .collect();
    names.sort();
    assert!(names.len() >= 8, "{names:?}");
    for n in &names {
        clean_everywhere(n, &std::fs::read(dir.join(n)).expect("read"));
    }
    let bytes = std::fs::read(dir.join("Registry.java")).expect("read");
    let o = clean_everywhere("Registry.java", &bytes);
    let sigs: Vec<String> = all_methods(&o)
        .iter()
        .map(|m| {
            format!("{}({})", m.name, m.params.iter().map(|p| p.type_text.as_str()).collect::<Vec<_>>().join(", "))
        })
        .collect();
    for want in ["size()", "get(Object)", "put(K, V)", "value()", "iterator()", "both()"] {
        assert!(sigs.iter().any(|s| s == want), "{want} not in {sigs:?}");
    }
    let d = mcp_java_index::xref::decls::file_decls(&bytes);
    let reg = d.types.iter().find(|t| &*t.simple == "Registry").expect("type");
    let arity = |name: &str| reg.methods.iter().find(|m| &*m.name == name).map(|m| m.params.len());
    assert_eq!((arity("size"), arity("get"), arity("put")), (Some(0), Some(1), Some(2)));
}

/// The overload with an annotated varargs parameter is a target of its own: its calls, not
/// those of `getBean(String)`.
#[test]
fn an_annotated_varargs_overload_is_a_target_of_its_own() {
    let bytes = fixture("type_annotations.java");
    let user = b"package fixtures.annotations;\n\nclass User {\n    void run(TypeAnnotations t) {\n        t.getBean(\"a\");\n        t.getBean(\"b\", 1, 2);\n        t.getBean(\"c\", (Object[]) null);\n    }\n}\n";
    let (_d, ws) = workspace_with(&[
        ("src/fixtures/annotations/TypeAnnotations.java", &bytes),
        ("src/fixtures/annotations/User.java", user),
    ]);
    let lines = |t: &str| -> Vec<u32> { refs(&ws, t).into_iter().map(|(l, _, _)| l).collect() };
    let q = "fixtures.annotations.TypeAnnotations";
    assert_eq!(lines(&format!("{q}#getBean(String,Object[])")), [6, 7]);
    assert_eq!(lines(&format!("{q}#getBean(String)")), [5]);
}
