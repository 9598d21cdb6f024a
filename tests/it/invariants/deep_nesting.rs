//! Deeply nested sources (issue 12, item 4): 1,000 nested classes, 65 nested classes through
//! the cache, 20,000 nested generic type arguments. No crash on a 2 MB stack (what rayon and
//! tokio workers get), a diagnostic where the outline is cut, and JSON that reads back with
//! serde_json's default recursion limit of 128.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use mji_cache::{Cache, Outcome};

const TOO_DEEP: &str = "nested types deeper than 32 levels are not outlined";
const SMALL_STACK: usize = 2 * 1024 * 1024;

fn nested_classes(n: usize) -> String {
    let mut s = String::from("package p;\n");
    for i in 0..n {
        s.push_str(&format!("class C{i} {{\n"));
    }
    s.push_str("int x;\n");
    for _ in 0..n {
        s.push_str("}\n");
    }
    s
}

fn nested_generics(n: usize) -> String {
    let t = format!("{}Foo{}", "List<".repeat(n), ">".repeat(n));
    format!(
        "package p;\nimport java.util.List;\nclass Foo {{}}\nclass Gen {{\n  {t} f;\n  void m() {{ {t} x = null; Foo y = new Foo(); }}\n}}\n"
    )
}

/// Runs `f` on a thread with a 2 MB stack; a stack overflow aborts the test binary.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(SMALL_STACK).spawn(f).expect("spawn").join().expect("no panic")
}

/// Runs the CLI in `dir` with its main thread's stack at 2 MB too.
fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new("bash")
        .arg("-c")
        .arg("ulimit -s 2048; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_mcp-java-index"))
        .args(args)
        .current_dir(dir)
        .env_remove("MCP_JAVA_INDEX_ROOTS")
        .env_remove("MCP_JAVA_INDEX_CACHE_DIR")
        .output()
        .expect("run the CLI")
}

fn ok_json(o: &Output) -> serde_json::Value {
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "exit {:?}: {err}", o.status);
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("stdout is JSON serde_json reads back: {e}"))
}

fn has_too_deep(outline: &serde_json::Value) -> bool {
    outline["errors"].as_array().is_some_and(|es| es.iter().any(|e| e["message"] == TOO_DEEP))
}

/// The depth of the deepest `innerClasses` chain, top-level types being 1.
fn type_depth(types: &serde_json::Value) -> usize {
    let mut depth = 0;
    let mut level = types.as_array().cloned().unwrap_or_default();
    while !level.is_empty() {
        depth += 1;
        level = level.iter().flat_map(|t| t["innerClasses"].as_array().cloned().unwrap_or_default()).collect();
    }
    depth
}

#[test]
fn a_thousand_nested_classes_outline_to_32_levels_with_a_diagnostic() {
    let src = nested_classes(1000);
    let (full, decls) = on_small_stack(move || {
        let full = mji_parser::outline("Deep.java", src.as_bytes());
        let decls = mji_parser::outline_declarations("Deep.java", src.as_bytes());
        let types = mji_xref::decls::file_decls(src.as_bytes()).types.len();
        assert_eq!(types, 32, "xref declares the types the outline keeps");
        (serde_json::to_string(&full).expect("json"), serde_json::to_string(&decls).expect("json"))
    });
    for json in [full, decls] {
        let v: serde_json::Value = serde_json::from_str(&json).expect("reads back with the default limit");
        assert!(has_too_deep(&v), "{}", &json[..json.len().min(300)]);
        assert_eq!(type_depth(&v["classes"]), 32);
        let outline: mji_model::FileOutline = serde_json::from_str(&json).expect("typed read back");
        assert_eq!(outline.classes[0].qualified_name, "p.C0");
    }
}

#[test]
fn a_thousand_nested_classes_through_the_cli_and_the_workspace_index() {
    let ws = tempfile::tempdir().expect("tempdir");
    fs::write(ws.path().join("Deep.java"), nested_classes(1000)).expect("write");
    fs::write(ws.path().join("Other.java"), "package p;\nclass Other { C0 c; }\n").expect("write");

    let v = ok_json(&run(ws.path(), &["index", "Deep.java"]));
    assert!(has_too_deep(&v), "{v}");
    assert_eq!(type_depth(&v["classes"]), 32);
    // Again, from the cache the first run wrote.
    let again = ok_json(&run(ws.path(), &["index", "Deep.java"]));
    assert_eq!(again, v);

    let tool = run(ws.path(), &["call", "java_index", r#"{"filePath":"Deep.java"}"#]);
    let text = String::from_utf8_lossy(&tool.stdout);
    assert!(tool.status.success(), "{}", String::from_utf8_lossy(&tool.stderr));
    assert!(text.contains(TOO_DEEP), "{text}");

    // The workspace index over the directory: searches and references answer.
    let found = ok_json(&run(ws.path(), &["types", "C31", "--json"]));
    assert!(found.to_string().contains("C0.C1"), "{found}");
    let refs = ok_json(&run(ws.path(), &["refs", "p.C0", "--json"]));
    assert!(refs["total"].as_u64().is_some_and(|t| t >= 1), "{refs}");
}

#[test]
fn sixty_five_nested_classes_round_trip_through_the_cache() {
    let ws = tempfile::tempdir().expect("tempdir");
    let file = ws.path().join("Deep65.java");
    fs::write(&file, nested_classes(65)).expect("write");
    let dir = ws.path().join("cache");
    let (first, outcome) = {
        let (cache, _) = Cache::open(&dir);
        let r = cache.outline_json(&file, "Deep65.java").expect("first");
        cache.flush();
        r
    };
    assert_eq!(outcome, Outcome::Miss);
    let (cache, _) = Cache::open(&dir);
    let (second, outcome) = cache.outline_json(&file, "Deep65.java").expect("second");
    assert_eq!(outcome, Outcome::Hit);
    assert_eq!(second, first);
    let typed = cache.outline(&file, "Deep65.java").expect("typed");
    assert_eq!(typed.outcome, Outcome::Hit);
    let v: serde_json::Value = serde_json::from_str(&second).expect("reads back");
    assert!(has_too_deep(&v));

    let cli = ok_json(&run(ws.path(), &["index", "Deep65.java"]));
    assert!(has_too_deep(&cli));
    assert_eq!(ok_json(&run(ws.path(), &["index", "Deep65.java"])), cli);
}

#[test]
fn twenty_thousand_nested_type_arguments_do_not_crash_find_references() {
    let ws = tempfile::tempdir().expect("tempdir");
    let src = nested_generics(20_000);
    fs::write(ws.path().join("Gen.java"), &src).expect("write");

    let bytes = src.clone();
    on_small_stack(move || {
        let o = mji_parser::outline("Gen.java", bytes.as_bytes());
        assert_eq!(o.classes.len(), 2);
        let d = mji_xref::decls::file_decls(bytes.as_bytes());
        assert!(d.types.iter().any(|t| &*t.fqn == "p.Gen"));
    });

    let v = ok_json(&run(ws.path(), &["index", "Gen.java"]));
    assert_eq!(v["classes"].as_array().map(Vec::len), Some(2));
    let refs = ok_json(&run(ws.path(), &["refs", "p.Foo", "--json"]));
    // At least `new Foo()` in the body; the type arguments beyond the cut-off are not searched.
    assert!(refs["total"].as_u64().is_some_and(|t| t >= 1), "{refs}");
}
