//! `refactor_actions`' method refactorings (extract_method, inline of a method) on a temp copy
//! of tests/edit_fixtures/refactor_method: every preview's diff is a snapshot, every refusal
//! says why, and after each apply javac compiles the whole fixture.

use crate::common;
use common::java_files_under;
use common::project::Project;

use mcp_java_index::tools::registry::find;
use mcp_java_index::tools::workspace::Workspace;
use serde_json::{Value, json};

fn call(ws: &Workspace, args: Value) -> Result<(Value, String), String> {
    let Value::Object(map) = args else { panic!("args are an object") };
    let a = find("refactor_actions").expect("registered").call(ws, map)?;
    let text = a.text();
    Ok((a.value, text))
}

fn setup() -> (Project, Workspace) {
    let p = Project::of("edit_fixtures", "refactor_method");
    let ws = p.workspace(&[]);
    ws.build_index();
    (p, ws)
}

/// Compiles every Java file of the fixture with javac; panics with its output on failure.
fn compiles(p: &Project) {
    let out = tempfile::tempdir().expect("out");
    let files = java_files_under(p.root.path());
    let r = std::process::Command::new("javac").arg("-d").arg(out.path()).args(&files).output().expect("javac runs");
    assert!(r.status.success(), "javac failed:\n{}", String::from_utf8_lossy(&r.stderr));
}

/// Previews, applies the preview's editId, checks javac compiles the result, and returns the
/// preview's text without its editId.
fn applied(p: &Project, ws: &Workspace, args: Value) -> String {
    let (preview, text) = call(ws, args.clone()).unwrap_or_else(|e| panic!("preview of {args}: {e}"));
    let mut apply = args;
    apply["apply"] = json!(true);
    apply["editId"] = preview["editId"].clone();
    let (done, _) = call(ws, apply).expect("apply");
    assert_eq!(done["applied"], json!(true), "{done}");
    compiles(p);
    text.lines().filter(|l| !l.starts_with("editId:")).collect::<Vec<_>>().join("\n")
}

#[test]
fn extract_method_takes_its_signature_from_the_data_flow() {
    let (p, ws) = setup();
    compiles(&p);
    let em = |line: u32, end: u32| json!({"action": "extract_method", "filePath": "rm/Orders.java", "startLine": line, "endLine": end});
    // Refused first (the line numbers are the fixture's as written).
    let e = call(&ws, em(48, 51)).expect_err("break");
    assert!(e.contains("not extracted: a `break` at line 50 leaves the statements"), "{e}");
    let e = call(&ws, em(57, 58)).expect_err("two results");
    assert!(e.contains("2 variables written in the statements are used after them (`lo`, `hi`)"), "{e}");
    let e = call(
        &ws,
        em(12, 17)
            .as_object()
            .map(|o| {
                let mut o = o.clone();
                o.insert("newName".into(), json!("total"));
                Value::Object(o)
            })
            .expect("object"),
    )
    .expect_err("clash");
    assert!(e.contains("already declares a method `total`"), "{e}");
    // In a method that declares `throws`, a JDK call's exceptions are not known: refused.
    let e = call(&ws, em(39, 41)).expect_err("unknown throws");
    assert!(e.contains("`println` (line 41) is declared outside the workspace"), "{e}");
    // A checked exception of a workspace method goes to `throws`; one result, declared at the call.
    let load = applied(
        &p,
        &ws,
        json!({"action": "extract_method", "filePath": "rm/Orders.java", "startLine": 39, "endLine": 40, "newName": "readTagged"}),
    );
    assert!(load.contains("throws IOException"), "{load}");
    insta::assert_snapshot!("extract_method_throws", load);
    // Type parameters of the method come along; the variable written is returned.
    let max = applied(&p, &ws, em(29, 34));
    insta::assert_snapshot!("extract_method_generic", max);
    // Instance state: not static. Reads become parameters.
    let add = applied(
        &p,
        &ws,
        json!({"action": "extract_method", "filePath": "rm/Orders.java", "startLine": 22, "endLine": 24, "newName": "addLine"}),
    );
    assert!(add.contains("+    private void addLine(String item, int qty) {"), "{add}");
    // In a static method, static; the loop's sum is the result.
    let total = applied(
        &p,
        &ws,
        json!({"action": "extract_method", "filePath": "rm/Orders.java", "startLine": 12, "endLine": 15, "newName": "sumOf"}),
    );
    insta::assert_snapshot!("extract_method_static", total);
}
