//! `refactor_actions`' method refactorings (extract_method, inline of a method) on a temp copy
//! of tests/edit_fixtures/refactor_method: every preview's diff is a snapshot, every refusal
//! says why, and after each apply javac compiles the whole fixture.

use crate::common;
use common::project::Project;

use super::refactor::{applied, call, compiles, setup_of};
use mcp_java_index::tools::host::Host;
use serde_json::{Value, json};

fn setup() -> (Project, Host) {
    setup_of("refactor_method")
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
    // A JDK call's exceptions come from its class file (println declares none; issue 53 item 9:
    // refused before as unknown), so only the workspace call's IOException goes to `throws`.
    let (v, _) = call(&ws, em(39, 41)).expect("the JDK call's throws are known");
    assert!(v["summary"].as_str().unwrap_or_default().contains("-> String tagged throws IOException"), "{v}");
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

#[test]
fn inline_a_method_at_every_call_or_one_or_say_why_not() {
    let (p, ws) = setup();
    let inline = |target: &str| json!({"action": "inline", "target": target});
    // The refusals (recursive, overridden, an argument that must become a local inside a
    // larger expression) and what the `scaled` and `half` inlines edit are mji-edit's inline
    // cases; here the snapshots and javac after each apply.
    // One call, by position: its argument, used twice, is evaluated once into a local; the
    // declaration stays for the other call.
    let one = applied(&p, &ws, json!({"action": "inline", "filePath": "rm/Pricing.java", "line": 28, "column": 17}));
    insta::assert_snapshot!("inline_method_one_call", one);
    // A body that reads a field, inlined in its class; the private declaration goes.
    applied(&p, &ws, inline("rm.Pricing#scaled(int)"));
    // A statement body at a statement call: an argument with a side-effect-free value, but a
    // body with effects, is evaluated first.
    let log = applied(&p, &ws, inline("rm.Pricing#log(String)"));
    insta::assert_snapshot!("inline_method_statements", log);
    // Public API: every call inlined, the declaration kept (and said so).
    applied(&p, &ws, inline("rm.Pricing#half(int)"));
}
