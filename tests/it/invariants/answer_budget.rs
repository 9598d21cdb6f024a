//! Every answer fits the answer budget on real code, and paging loses nothing: `java_index` of
//! every file of the JDK sources fits 20,000 tokens in both renderings (the text a model reads
//! and the structured JSON); following `nextOffset` through the largest outlines yields every
//! declaration exactly once, in source order; reading the 50 largest files whole by following
//! `nextStartLine` yields every line exactly once.
//!
//! The JDK corpus is `$JDK_SRC_DIR`, else `target/jdk-src` (`.ci/run` unzips it there).

use crate::common;

use std::path::{Path, PathBuf};

use mcp_java_index::config::{Config, Flags};
use mcp_java_index::tools::budget;
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::registry::{Answer, dispatch};
use rayon::prelude::*;
use serde_json::{Value, json};

fn jdk() -> Option<PathBuf> {
    let dir = std::env::var_os("JDK_SRC_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/jdk-src"));
    dir.join("java.base").is_dir().then_some(dir)
}

fn java_files(root: &Path) -> Vec<(String, u64)> {
    common::java_files_under(root)
        .into_iter()
        .map(|p| {
            let size = std::fs::metadata(&p).expect("metadata").len();
            (p.strip_prefix(root).expect("under root").to_string_lossy().into_owned(), size)
        })
        .collect()
}

fn call(ws: &Host, tool: &str, args: Value) -> Answer {
    let Value::Object(m) = args else { unreachable!("object arguments") };
    dispatch(ws, tool, m).unwrap_or_else(|e| panic!("{tool}: {e}"))
}

fn fits(a: &Answer, budget: usize) -> bool {
    budget::fits(&a.text(), budget) && budget::fits(&a.value.to_string(), budget)
}

/// Every symbolId of an outline value (or page), in the order the text lists them: source order.
fn ids_in_source_order(v: &Value) -> Vec<(u64, String)> {
    let mut out = Vec::new();
    let mut stack: Vec<&Value> = v["classes"].as_array().map(|a| a.iter().collect()).unwrap_or_default();
    while let Some(t) = stack.pop() {
        let mut push = |x: &Value| out.push((x["startLine"].as_u64().unwrap_or(0), x["symbolId"].to_string()));
        push(t);
        for list in ["enumConstants", "fields", "constructors", "methods"] {
            t[list].as_array().into_iter().flatten().for_each(&mut push);
        }
        stack.extend(t["innerClasses"].as_array().into_iter().flatten());
    }
    out.sort();
    out
}

/// A workspace on the JDK sources (no cache, no watcher), or `None` when they are absent.
fn jdk_workspace() -> Option<(PathBuf, Host)> {
    let Some(root) = jdk() else {
        eprintln!("skipped: no JDK sources (run .ci/run, or set JDK_SRC_DIR)");
        return None;
    };
    let flags = Flags::roots([root.as_path()]).set("watch", false).set("cache", false);
    let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    Some((root, ws))
}

#[test]
fn every_jdk_outline_fits_and_pages_lose_nothing() {
    let Some((root, ws)) = jdk_workspace() else { return };
    let budget = ws.answer_tokens();
    assert_eq!(budget, 20_000, "the default budget");
    let files = java_files(&root);
    assert!(files.len() > 10_000, "the whole JDK: {}", files.len());

    // Every file's default outline fits; the paged ones are remembered.
    let paged: Vec<(String, u64)> = files
        .par_iter()
        .filter_map(|(rel, size)| {
            let a = call(&ws, "java_index", json!({ "filePath": rel }));
            assert!(fits(&a, budget), "{rel}: java_index over the budget");
            (a.value["truncated"] == true).then(|| (rel.clone(), *size))
        })
        .collect();
    assert!(!paged.is_empty(), "the JDK has outlines too big for one answer");

    // The largest paged outlines, followed to the end: every declaration once, in order.
    let mut largest = paged.clone();
    largest.sort_by_key(|(_, size)| std::cmp::Reverse(*size));
    largest.truncate(12);
    largest.par_iter().for_each(|(rel, _)| {
        let whole = mcp_java_index::tools::tool::java_index::run(
            &ws,
            &serde_json::from_value(json!({ "filePath": rel })).expect("args"),
        )
        .expect("outline");
        let expected = ids_in_source_order(&serde_json::to_value(&whole.outline).expect("json"));
        let mut seen: Vec<(u64, String)> = Vec::new();
        let mut offset = 0u64;
        let mut pages = 0;
        loop {
            let a = call(&ws, "java_index", json!({ "filePath": rel, "options": { "offset": offset } }));
            assert!(fits(&a, budget), "{rel} page {pages}: over the budget");
            let page = ids_in_source_order(&a.value);
            let shown = a.value["shownDeclarations"].as_u64().expect("paged answers count");
            // Context types (already listed on an earlier page) repeat; the rest is new.
            let new: Vec<_> = page.into_iter().filter(|x| !seen.contains(x)).collect();
            assert_eq!(new.len() as u64, shown, "{rel} page {pages}: shown declarations");
            seen.extend(new);
            pages += 1;
            match a.value["nextOffset"].as_u64() {
                Some(n) => {
                    assert!(n > offset, "{rel}: no progress at offset {offset}");
                    assert!(a.text().ends_with(&format!("options.offset={n}\n")), "{rel}: the text says how to go on");
                    offset = n;
                }
                None => break,
            }
        }
        seen.sort();
        assert_eq!(seen, expected, "{rel}: the pages together are the whole outline");
        assert!(pages > 1, "{rel}");
    });
}

#[test]
fn the_largest_jdk_files_read_whole_page_by_page() {
    let Some((root, ws)) = jdk_workspace() else { return };
    let budget = ws.answer_tokens();
    let mut files = java_files(&root);
    files.sort_by_key(|(_, size)| std::cmp::Reverse(*size));
    files.truncate(50);
    files.par_iter().for_each(|(rel, _)| {
        let text = String::from_utf8_lossy(&std::fs::read(root.join(rel)).expect("read")).into_owned();
        let lines: Vec<&str> = text.lines().collect();
        let mut got: Vec<String> = Vec::new();
        let mut start = 1u64;
        loop {
            let args = json!({ "filePath": rel, "startLine": start, "endLine": lines.len(), "options": { "maxChars": 200_000 } });
            let a = call(&ws, "java_read_range", args);
            assert!(fits(&a, budget), "{rel} from {start}: over the budget");
            let content = a.value["content"].as_str().expect("content");
            got.extend(content.split('\n').map(str::to_owned));
            match a.value["nextStartLine"].as_u64() {
                Some(n) => {
                    assert!(n > start && a.value["truncated"] == true, "{rel}: no progress at {start}");
                    start = n;
                }
                None => break,
            }
        }
        let want: Vec<String> = lines.iter().enumerate().map(|(i, l)| format!("{}: {l}", i + 1)).collect();
        assert_eq!(got.len(), want.len(), "{rel}: every line once");
        assert!(got == want, "{rel}: the pages together are the file");
    });
}

/// A text-only client (`structured_content = false`) is sent the text alone, so only the text
/// counts against the budget: the same outline shows more declarations per page than for a
/// client that also gets the structured JSON, and each rendering that is sent fits.
#[test]
fn text_only_clients_are_paged_by_the_text_they_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    let methods: String = (0..400)
        .map(|i| format!("    /** Does thing {i}. */\n    public int thing{i}(int a, String b) {{ return a; }}\n"))
        .collect();
    common::write(dir.path(), "p/Big.java", &format!("package p;\n\npublic class Big {{\n{methods}}}\n"));
    let shown = |structured: bool| {
        let flags = Flags::roots([dir.path()])
            .set("watch", false)
            .set("cache", false)
            .set("answer_tokens", 2_000)
            .set("structured_content", structured);
        let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
        let a = call(&ws, "java_index", json!({"filePath": "p/Big.java"}));
        assert!(budget::fits(&a.text(), 2_000));
        if structured {
            assert!(budget::fits(&a.value.to_string(), 2_000));
        }
        assert_eq!(a.value["truncated"], json!(true));
        a.value["shownDeclarations"].as_u64().expect("shownDeclarations")
    };
    let (with_json, text_only) = (shown(true), shown(false));
    assert!(text_only > with_json * 2, "text-only {text_only} vs with JSON {with_json}");
}

/// `java_index`'s `name` and `kinds` together: an exact name wins over names that contain it
/// (`name(Type,Type)` picks one overload), and a type found by name brings its members only
/// when types are among the kinds asked for. The text shows the types around a narrowed page
/// as context only (kind, name, lines).
#[test]
fn name_and_kinds_select_declarations() {
    let dir = tempfile::tempdir().expect("tempdir");
    common::write(
        dir.path(),
        "p/Formatter.java",
        "package p;\n\nimport java.util.Locale;\n\n/** Formats. */\npublic final class Formatter implements java.io.Closeable {\n    int formatCount;\n    public String format(String s) { return s; }\n    public String format(Locale l, java.util.List<String> s) { return null; }\n    public void formatTo(StringBuilder b) { }\n    public int parse(String s) { return 0; }\n    public void close() { }\n    static class Spec {\n        int width;\n        void formatWidth() { }\n    }\n}\n",
    );
    let flags = Flags::roots([dir.path()]).set("watch", false).set("cache", false);
    let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    let answer = |options: Value| call(&ws, "java_index", json!({"filePath": "p/Formatter.java", "options": options}));
    let names = |options: Value| -> Vec<String> {
        let a = answer(options);
        let mut out = Vec::new();
        let mut stack: Vec<Value> = a.value["classes"].as_array().cloned().unwrap_or_default();
        while let Some(t) = stack.pop() {
            for list in ["fields", "methods"] {
                for m in t[list].as_array().into_iter().flatten() {
                    let params: Vec<&str> =
                        m["params"].as_array().into_iter().flatten().filter_map(|p| p["typeText"].as_str()).collect();
                    let name = format!("{}.{}", t["name"].as_str().unwrap_or(""), m["name"].as_str().unwrap_or(""));
                    out.push(if list == "methods" { format!("{name}({})", params.join(",")) } else { name });
                }
            }
            stack.extend(t["innerClasses"].as_array().cloned().unwrap_or_default());
        }
        out.sort();
        out
    };
    let both = ["Formatter.format(Locale,java.util.List<String>)", "Formatter.format(String)"];
    // The methods named exactly `format` (both overloads), not those that contain it.
    assert_eq!(names(json!({"kinds": ["method"], "name": "format"})), both);
    assert_eq!(names(json!({"name": "format"})), both);
    // One overload by its parameter types, simple or qualified, type arguments left out.
    let one = ["Formatter.format(Locale,java.util.List<String>)"];
    assert_eq!(names(json!({"name": "format(Locale,List)"})), one);
    assert_eq!(names(json!({"name": "format(java.util.Locale, java.util.List<String>)"})), one);
    assert_eq!(names(json!({"name": "format(String)"})), ["Formatter.format(String)"]);
    // No such overload: every overload of that name, to choose from.
    assert_eq!(names(json!({"name": "format(int)"})), both);
    // No exact name: the names that contain it, case-insensitively.
    assert_eq!(
        names(json!({"kinds": ["method"], "name": "FORM"})),
        [&both[..], &["Formatter.formatTo(StringBuilder)", "Spec.formatWidth()"]].concat()
    );
    // A type named exactly comes whole; a nested type found by substring too.
    assert_eq!(names(json!({"name": "Formatter"})).len(), 8);
    assert_eq!(names(json!({"name": "spec"})), ["Spec.formatWidth()", "Spec.width"]);
    // The text of a narrowed page: the class is context (no modifiers, supertypes, javadoc).
    let text = answer(json!({"name": "format(String)"})).text();
    assert_eq!(
        text,
        "p/Formatter.java (17 lines, package p)\n6-17 class Formatter\n  8 public String format(String s)\n"
    );
    let whole = answer(json!({"name": "Formatter"})).text();
    assert!(whole.contains("6-17 public final class Formatter implements java.io.Closeable  /**5*/\n"), "{whole}");
}

/// An answer that cannot be paged and does not fit says how to narrow it with the tool's own
/// arguments: `analyze_type_dependencies` once said "page with offset", an argument it lacks.
#[test]
fn a_refusal_names_only_arguments_the_tool_has() {
    let dir = tempfile::tempdir().expect("tempdir");
    let fields: String = (0..300).map(|i| format!("    q{i}.T{i} f{i};\n")).collect();
    common::write(dir.path(), "p/Big.java", &format!("package p;\n\npublic class Big {{\n{fields}}}\n"));
    for i in 0..300 {
        common::write(dir.path(), &format!("q{i}/T{i}.java"), &format!("package q{i};\npublic class T{i} {{}}\n"));
    }
    let flags = Flags::roots([dir.path()]).set("watch", false).set("cache", false).set("answer_tokens", 500);
    let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    ws.build_index();
    let entry = mcp_java_index::tools::registry::find("analyze_type_dependencies").expect("registered");
    let Value::Object(args) = json!({"type": "p.Big", "transitive": true, "limit": 500}) else { unreachable!() };
    let e = entry.call(&ws, args).expect_err("too large for 500 tokens");
    assert!(e.starts_with("answer too large"), "{e}");
    assert!(!e.contains("offset"), "names an argument the tool lacks: {e}");
    assert!(e.contains("`limit`") && e.contains("`maxDepth`") && e.contains("`transitive: false`"), "{e}");
}
