//! The check after an applied edit (`compileCheck`): javac on the files the edit wrote and the
//! files of their module that mention what changed, before and after the write, so the answer
//! says whether the code still compiles and which errors the edit brought.

use serde_json::{Value, json};

use mcp_java_index::config::{Config, Flags};
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::registry::find;

fn workspace(files: &[(&str, &str)]) -> (tempfile::TempDir, Host) {
    let dir = tempfile::tempdir().expect("tempdir");
    for (rel, text) in files {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }
    let flags = Flags::roots([dir.path()]).set("watch", false).set("cache", false);
    let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    ws.build_index();
    (dir, ws)
}

fn call(ws: &Host, args: Value) -> (Value, String) {
    let Value::Object(map) = args else { panic!("args are an object") };
    let a = find("refactor_actions").expect("registered").call(ws, map).unwrap_or_else(|e| panic!("{e}"));
    let text = a.text();
    (a.value, text)
}

const SHAPES: &[(&str, &str)] = &[
    (
        "geo/Shape.java",
        "package geo;\n\npublic class Shape {\n    public int area() { return 1; }\n    public int size() { return 2; }\n}\n",
    ),
    ("geo/Use.java", "package geo;\n\nclass Use {\n    int twice(Shape s) { return s.area() * 2; }\n}\n"),
    // Broken before any edit, and mentions Shape: its error is an old one.
    ("geo/Old.java", "package geo;\n\nclass Old {\n    Shape s;\n    int n = \"text\";\n}\n"),
    // Does not mention Shape nor area: not compiled.
    ("geo/Other.java", "package geo;\n\nclass Other {\n    int n = 3;\n}\n"),
];

#[test]
fn an_applied_rename_says_the_code_compiles_and_counts_the_old_errors() {
    let (_dir, ws) = workspace(SHAPES);
    let (done, text) =
        call(&ws, json!({"action": "rename", "target": "geo.Shape#area()", "newName": "surface", "apply": true}));
    assert_eq!(done["applied"], json!(true), "{done}");
    let check = &done["compileCheck"];
    // Shape and Use written; Old mentions Shape; Other is left alone.
    assert_eq!(check["files"], json!(3), "{done}");
    assert_eq!(check["compiles"], json!(false), "{done}");
    assert_eq!(check["errorsBefore"], json!(1), "{done}");
    assert_eq!(check.get("newErrors"), None, "{done}");
    assert!(
        text.contains("javac after the edit: no new error; 1 error(s) there before the edit remain (3 files checked)"),
        "{text}"
    );
}

#[test]
fn a_forced_edit_that_breaks_the_build_lists_the_new_error() {
    let (_dir, ws) = workspace(&SHAPES[..2]);
    // size() -> area(): a clash, applied anyway.
    let (done, text) = call(
        &ws,
        json!({"action": "rename", "target": "geo.Shape#size()", "newName": "area", "apply": true, "force": true}),
    );
    assert_eq!(done["applied"], json!(true), "{done}");
    let check = &done["compileCheck"];
    assert_eq!(check["compiles"], json!(false), "{done}");
    assert_eq!(check["newErrorCount"], json!(1), "{done}");
    let first = check["newErrors"][0].as_str().unwrap_or_default();
    assert!(first.starts_with("geo/Shape.java:5:") && first.contains("already defined"), "{done}");
    assert!(text.contains("javac after the edit: DOES NOT COMPILE: 1 new error(s) (2 files checked):"), "{text}");
    // Use's rename checks Use alone (Shape mentions neither Use nor twice): it compiles.
    let (done, _) = call(
        &ws,
        json!({"action": "rename", "target": "geo.Use#twice(geo.Shape)", "newName": "doubled", "apply": true}),
    );
    assert_eq!(done["compileCheck"], json!({"compiles": true, "files": 1}), "{done}");
}

#[test]
fn a_clean_edit_compiles() {
    let (_dir, ws) = workspace(&SHAPES[..2]);
    let (done, text) =
        call(&ws, json!({"action": "rename", "target": "geo.Shape#area()", "newName": "surface", "apply": true}));
    assert_eq!(done["compileCheck"], json!({"compiles": true, "files": 2}), "{done}");
    assert!(text.contains("javac after the edit: compiles (2 files checked)"), "{text}");
    // A preview runs no javac.
    let (preview, _) = call(&ws, json!({"action": "rename", "target": "geo.Shape#size()", "newName": "count"}));
    assert_eq!(preview.get("compileCheck"), None, "{preview}");
}
