//! Kotlin in a mixed project, first cut (issue 55): a `.kt` file is outlined (`java_index`,
//! `java_read_range` by name), its declarations are searched beside Java's (`java_find_symbol`,
//! `find_type`, marked `language: kotlin`, top-level functions in the file's facade class as Java
//! sees them), and `find_references` of a Java member lists the Kotlin files that mention it as
//! not bound, never a silent partial answer. Written to a temporary directory.

use std::path::Path;

use mcp_java_index::config::{Config, Flags};
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::registry::dispatch;
use serde_json::{Value, json};

const FILES: &[(&str, &str)] = &[
    ("p/User.java", "package p;\n\npublic class User {\n    public String getName() { return \"a\"; }\n}\n"),
    ("p/Caller.java", "package p;\n\nclass Caller {\n    String f(User u) { return u.getName(); }\n}\n"),
    (
        "p/show.kt",
        "package p\n\n/** Shows a user. */\nfun show(u: User): String {\n    return u.name\n}\n\ndata class Badge(val label: String, var count: Int) {\n    fun bump() {\n        count += 1\n    }\n}\n",
    ),
    ("p/Other.kt", "package p\n\nobject Registry {\n    fun all(): Int = 1\n}\n"),
];

fn workspace(dir: &Path) -> Host {
    for (rel, text) in FILES {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().expect("a parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }
    let flags = Flags::roots([dir]).set("watch", false).set("cache", false);
    let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    ws.build_index();
    ws
}

fn call(ws: &Host, tool: &str, args: Value) -> Result<(Value, String), String> {
    let Value::Object(args) = args else { panic!("an object") };
    dispatch(ws, tool, args).map(|a| (a.value.clone(), a.text())).map_err(|e| e.to_string())
}

#[test]
fn a_kotlin_file_is_outlined_and_read_by_name() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ws = workspace(dir.path());
    let (v, text) = call(&ws, "java_index", json!({"filePath": "p/show.kt"})).expect("java_index");
    assert_eq!(v["language"], "kotlin", "{v:#}");
    let names: Vec<&str> =
        v["classes"].as_array().expect("classes").iter().map(|c| c["qualifiedName"].as_str().unwrap_or("")).collect();
    assert_eq!(names, ["p.Badge", "p.ShowKt"], "{text}");
    let badge = &v["classes"][0];
    assert_eq!((badge["startLine"].as_u64(), badge["endLine"].as_u64()), (Some(8), Some(12)));
    let methods: Vec<&str> =
        badge["methods"].as_array().expect("methods").iter().map(|m| m["name"].as_str().unwrap_or("")).collect();
    assert_eq!(methods, ["getLabel", "getCount", "setCount", "bump"]);
    assert_eq!(badge["methods"][0]["generated"], "kotlin");
    // The text reads as Kotlin writes it.
    assert!(text.contains("8-12 public data class Badge\n") && text.contains("8 public val label: String\n"), "{text}");
    assert!(text.contains("8 public String getLabel()  [kotlin val label]"), "{text}");
    let show = &v["classes"][1]["methods"][0];
    assert_eq!(
        (show["name"].as_str(), show["startLine"].as_u64(), show["endLine"].as_u64()),
        (Some("show"), Some(4), Some(6))
    );
    assert_eq!(show["javadoc"]["startLine"], 3);
    let (range, _) =
        call(&ws, "java_read_range", json!({"filePath": "p/show.kt", "symbol": "bump"})).expect("java_read_range");
    assert!(range.to_string().contains("count += 1"), "{range:#}");
    // A file neither Java nor Kotlin is still refused.
    std::fs::write(dir.path().join("p/notes.txt"), "x").expect("write");
    let err = call(&ws, "java_index", json!({"filePath": "p/notes.txt"})).expect_err("refused");
    assert!(err.contains("is not a .java or .kt file"), "{err}");
}

#[test]
fn kotlin_declarations_are_searched_beside_java_and_marked() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ws = workspace(dir.path());
    let (v, _) = call(&ws, "java_find_symbol", json!({"query": "show"})).expect("java_find_symbol");
    let first = &v["results"][0];
    assert_eq!(
        (first["qualifiedName"].as_str(), first["language"].as_str()),
        (Some("p.ShowKt#show"), Some("kotlin")),
        "{v:#}"
    );
    let (t, _) = call(&ws, "find_type", json!({"pattern": "Registry"})).expect("find_type");
    assert_eq!(
        (t["results"][0]["filePath"].as_str(), t["results"][0]["language"].as_str()),
        (Some("p/Other.kt"), Some("kotlin"))
    );
    // Java's results are as before: no language.
    let (j, _) = call(&ws, "find_type", json!({"pattern": "User"})).expect("find_type");
    assert!(j["results"][0].get("language").is_none(), "{j:#}");
}

#[test]
fn references_of_a_java_member_say_which_kotlin_files_are_not_bound() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ws = workspace(dir.path());
    let (v, text) = call(&ws, "find_references", json!({"target": "p.User#getName()"})).expect("find_references");
    assert_eq!(v["total"], 1, "{v:#}");
    assert_eq!(v["incompleteFiles"], 1, "{v:#}");
    assert_eq!(v["incomplete"][0], "p/show.kt: a Kotlin file (outlined, its references not bound)");
    assert!(text.contains("p/show.kt: a Kotlin file"), "{text}");
    // A name no Kotlin file mentions: nothing said.
    let (v, _) = call(&ws, "find_references", json!({"target": "p.Caller#f(User)"})).expect("find_references");
    assert!(v.get("incompleteFiles").is_none_or(|n| n == 0), "{v:#}");
}

/// A real Kotlin project (`KOTLIN_CORPUS=DIR`, e.g. square/moshi's snapshot): every `.kt` file
/// outlined, each declaration's lines inside its file and inside its type's; prints the files
/// with syntax errors. Says it skipped without `KOTLIN_CORPUS`.
#[test]
fn a_kotlin_project_is_outlined() {
    let Some(dir) = std::env::var_os("KOTLIN_CORPUS").map(std::path::PathBuf::from) else {
        eprintln!("skipped: set KOTLIN_CORPUS to a Kotlin project's folder");
        return;
    };
    let files = mcp_java_index::fs::walk::walk(&dir, |p| p.extension().is_some_and(|x| x == "kt")).files;
    let (mut with_errors, mut decls) = (Vec::new(), 0usize);
    for f in &files {
        let bytes = std::fs::read(f).expect("read");
        let o = mcp_java_index::parser::outline(&f.to_string_lossy(), &bytes);
        assert_eq!(o.language, "kotlin");
        fn walk(t: &mcp_java_index::model::TypeDecl, lines: u32, outer: (u32, u32), n: &mut usize) {
            assert!(t.start_line >= 1 && t.start_line <= t.end_line && t.end_line <= lines, "{}", t.qualified_name);
            assert!(outer.0 <= t.start_line && t.end_line <= outer.1, "{} outside its type", t.qualified_name);
            let own = (t.start_line, t.end_line);
            for (s, e) in t
                .methods
                .iter()
                .map(|m| (m.start_line, m.end_line))
                .chain(t.fields.iter().map(|f| (f.start_line, f.end_line)))
            {
                assert!(own.0 <= s && s <= e && e <= own.1, "{}: {s}-{e} outside {own:?}", t.qualified_name);
                *n += 1;
            }
            for i in &t.inner_classes {
                walk(i, lines, own, n);
            }
        }
        for t in &o.classes {
            walk(t, o.line_count, (1, o.line_count.max(1)), &mut decls);
        }
        if !o.errors.is_empty() {
            with_errors.push(format!("{}: {:?}", f.display(), o.errors.first()));
        }
    }
    println!("{} .kt files, {decls} members, {} with syntax errors", files.len(), with_errors.len());
    for e in &with_errors {
        println!("  {e}");
    }
    assert!(!files.is_empty(), "no .kt file under {}", dir.display());
}
