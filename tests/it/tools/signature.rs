//! `refactor_actions`' change_signature and move on temp copies of tests/edit_fixtures/signature
//! and tests/edit_fixtures/move: every preview's diff is a snapshot, every refusal says why and
//! writes nothing, and after each apply javac compiles the whole fixture.

use crate::common;
use common::java_files_under;
use common::project::Project;

use super::refactor::{applied, call, compiles, setup_of};
use mcp_java_index::tools::host::Host;
use serde_json::{Value, json};

fn setup() -> (Project, Host) {
    setup_of("signature")
}

fn snapshot_of(p: &Project) -> Vec<String> {
    java_files_under(p.root.path()).iter().map(|f| std::fs::read_to_string(f).expect("read")).collect()
}

#[test]
fn change_signature_across_overriders_anonymous_classes_and_calls() {
    let (p, ws) = setup();
    compiles(&p);
    // Remove `label` (unused everywhere), rename `scale` (Square names it `s`: kept there), add
    // `offset` with a default for the calls; the interface, Square, the anonymous class, the
    // javadoc's @param tags and both calls follow.
    let shape = applied(
        &p,
        &ws,
        json!({"action": "change_signature", "target": "sg.Shape#area(double,String)", "newName": "scaledArea",
               "parameters": [{"from": 0, "name": "factor"}, {"from": null, "name": "offset", "type": "int", "defaultValue": "0"}]}),
    );
    insta::assert_snapshot!("change_signature_family", shape);
    // Reorder with nested calls (the inner call's arguments move inside the outer's).
    let clamp = applied(
        &p,
        &ws,
        json!({"action": "change_signature", "target": "sg.Util#clamp(int,int,int)",
               "parameters": [{"from": 1, "name": "low"}, {"from": 2, "name": "high"}, {"from": 0, "name": "value"}]}),
    );
    insta::assert_snapshot!("change_signature_nested", clamp);
    // A constructor: `new` and `super(…)` both.
    let point = applied(
        &p,
        &ws,
        json!({"action": "change_signature", "target": "sg.Point#Point(int,int)",
               "parameters": [{"from": 1}, {"from": 0}]}),
    );
    assert!(point.contains("+    public Point(int y, int x) {") && point.contains("+        super(y, x);"), "{point}");
    assert!(point.contains("+        Point p = new Point(2, 1);"), "{point}");
}

#[test]
fn change_signature_refuses_what_would_break_and_writes_nothing() {
    let (p, ws) = setup();
    let before = snapshot_of(&p);
    let refused = |args: Value| call(&ws, args).expect_err("refused");
    // A used parameter, in an overrider.
    let e = refused(
        json!({"action": "change_signature", "target": "sg.Shape#area(double,String)", "parameters": [{"from": 1}]}),
    );
    assert!(e.contains("parameter `s` is used at sg/Square.java:12"), "{e}");
    // `parameters: []` removes them all: used ones refuse it.
    let e = refused(json!({"action": "change_signature", "target": "sg.Util#clamp(int,int,int)", "parameters": []}));
    assert!(e.contains("parameter `value` is used at sg/Util.java:20"), "{e}");
    // The reordered signature is another overload's.
    let e = refused(
        json!({"action": "change_signature", "target": "sg.Util#join(String,int)", "parameters": [{"from": 1}, {"from": 0}]}),
    );
    assert!(e.contains("clashes: sg.Util#join(int,java.lang.String) has the same parameters"), "{e}");
    // A method reference, and a lambda, would no longer fit.
    let e = refused(json!({"action": "change_signature", "target": "sg.Util#twice(int)",
                           "parameters": [{"from": 0}, {"from": null, "name": "y", "type": "int", "defaultValue": "1"}]}));
    assert!(e.contains("the method reference `Util::twice` at sg/Util.java:23"), "{e}");
    let e = refused(
        json!({"action": "change_signature", "target": "sg.Util.Op#apply(int,int)", "parameters": [{"from": 1}, {"from": 0}]}),
    );
    assert!(e.contains("lambdas or method references implement it") && e.contains("sg/Util.java:29"), "{e}");
    // A new parameter without a default, where there are calls.
    let e = refused(json!({"action": "change_signature", "target": "sg.Util#clamp(int,int,int)",
                           "parameters": [{"from": 0}, {"from": 1}, {"from": 2}, {"from": null, "name": "step", "type": "int"}]}));
    assert!(e.contains("new parameter `step` has no defaultValue"), "{e}");
    // A new parameter's name already used in a body (it would capture it).
    let e = refused(json!({"action": "change_signature", "target": "sg.Shape#area(double,String)",
                           "parameters": [{"from": 0}, {"from": 1}, {"from": null, "name": "side", "type": "int", "defaultValue": "1"}]}));
    assert!(e.contains("`side` is already used at sg/Square.java:12"), "{e}");
    assert_eq!(snapshot_of(&p), before);
}

#[test]
fn move_a_type_to_another_package_or_say_what_access_breaks() {
    let p = Project::of("edit_fixtures", "move");
    let ws = p.workspace(&[]);
    ws.build_index();
    compiles(&p);
    let before = snapshot_of(&p);
    // Gadget uses Helper.hidden(); User uses Tool.level(): both package-private in mv.a.
    let e = call(&ws, json!({"action": "move", "target": "mv.a.Gadget", "destination": "mv.b"})).expect_err("hidden");
    assert!(e.contains("package-private access would break (1): mv/a/Gadget.java:5 uses mv.a.Helper#hidden()"), "{e}");
    let e = call(&ws, json!({"action": "move", "target": "mv.a.Tool", "destination": "mv.c"})).expect_err("level");
    assert!(e.contains("mv/a/User.java:8 uses mv.a.Tool#level(), package-private"), "{e}");
    // Protected: Printer's inherited `nullText()` would still compile, `new Style().nullText()` not.
    let e = call(&ws, json!({"action": "move", "target": "mv.a.Style", "destination": "mv.b"})).expect_err("protected");
    assert!(e.contains("(1): mv/a/Printer.java:5 uses mv.a.Style#nullText(), protected"), "{e}");
    let e = call(&ws, json!({"action": "move", "target": "mv.a.Widget", "destination": "mv.a"})).expect_err("same");
    assert!(e.contains("in package mv.a already"), "{e}");
    assert_eq!(snapshot_of(&p), before);
    // Widget to mv.b: its file and package, the import of Helper it now needs, the import
    // and qualified name in Client, and an import where mv.a's package or `import mv.a.*`
    // made it visible.
    let moved = applied(&p, &ws, json!({"action": "move", "target": "mv.a.Widget", "destination": "mv.b"}));
    insta::assert_snapshot!("move_type", moved);
    assert!(p.path("mv/b/Widget.java").is_file() && !p.path("mv/a/Widget.java").exists());
}

#[test]
fn convert_an_indexed_for_only_where_the_index_just_reads_the_element() {
    let (p, ws) = setup();
    let before = snapshot_of(&p);
    let e = call(&ws, json!({"action": "convert", "filePath": "sg/Loops.java", "line": 23})).expect_err("written");
    assert!(e.contains("the element is written at line 24"), "{e}");
    let e = call(&ws, json!({"action": "convert", "filePath": "sg/Loops.java", "line": 30})).expect_err("index");
    assert!(e.contains("`i` is used at line 31 other than to read the element"), "{e}");
    assert_eq!(snapshot_of(&p), before);
    let array = applied(&p, &ws, json!({"action": "convert", "filePath": "sg/Loops.java", "line": 9}));
    insta::assert_snapshot!("convert_array_for", array);
    let list = applied(&p, &ws, json!({"action": "convert", "filePath": "sg/Loops.java", "line": 17}));
    assert!(
        list.contains("+        for (String word : words)")
            && list.contains("+            out.add(word.toUpperCase());"),
        "{list}"
    );
}
