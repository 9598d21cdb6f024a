//! `refactor_actions`' `move` of static members on a temp copy of
//! tests/edit_fixtures/move_member: every preview's diff is a snapshot, every refusal says why
//! and writes nothing, and after each apply javac compiles the whole fixture.

use crate::common;
use common::java_files_under;
use common::project::Project;

use super::refactor::{applied, call, compiles, setup_of};
use serde_json::json;

fn snapshot_of(p: &Project) -> Vec<String> {
    java_files_under(p.root.path()).iter().map(|f| std::fs::read_to_string(f).expect("read")).collect()
}

#[test]
fn move_a_static_member_or_say_what_would_break() {
    let (p, ws) = setup_of("move_member");
    compiles(&p);
    let before = snapshot_of(&p);
    let refused = |target: &str, dest: &str| {
        call(&ws, json!({"action": "move", "target": target, "destination": dest})).expect_err("refused")
    };
    for (target, dest, reason) in [
        ("mm.a.Util#instance()", "mm.b.Maths", "it is an instance member"),
        ("mm.a.Util#peek()", "mm.b.Maths", "it uses `mm.a.Util#secret`, package-private in `mm.a.Util`"),
        ("mm.a.Util#usesHidden()", "mm.b.Maths", "it uses `mm.a.Util#hidden()`, private"),
        ("mm.a.Util#clamp(int)", "mm.b.Maths", "mm.b.Maths already has a method clamp(int)"),
        (
            "mm.a.Util#helper()",
            "mm.b.Maths",
            "mm/a/Other.java:5 uses it, which is package-private and would be in mm.b.Maths",
        ),
        ("mm.a.Util#SEED", "mm.b.Maths", "it is a blank final field, assigned by its class's initializer"),
        ("mm.a.Util#bump(int)", "mm.b.Maths.Part", "mm.b.Maths.Part is an inner (non-static) class"),
        ("mm.a.Util#bump(int)", "mm.b.Maths", "mm/c/Wild.java:10 reaches it through an expression (`…`)"),
        ("mm.a.Util#sum(java.util.List)", "mm.a.Util", "it is in mm.a.Util already"),
    ] {
        let e = refused(target, dest);
        assert!(e.contains(reason), "{target} to {dest}: {e}");
    }
    assert_eq!(snapshot_of(&p), before);
    // sum to another package: its javadoc and annotation go along, what it names of Util is
    // qualified, List imported; `Util.sum`, `mm.a.Util.sum`, `Util::sum`, the static import
    // and Util's own unqualified calls follow (Wild's, seen through `import static Util.*`,
    // are qualified), Client's unused import of Util goes.
    let moved = applied(
        &p,
        &ws,
        json!({"action": "move", "target": "mm.a.Util#sum(java.util.List)", "destination": "mm.b.Maths"}),
    );
    insta::assert_snapshot!("move_static_method", moved);
    // Limits is package-private: Maths could no longer reach LIMIT.
    let before = snapshot_of(&p);
    let e = refused("mm.a.Util#LIMIT", "mm.a.Limits");
    assert!(e.contains("(1): mm/b/Maths.java:26 uses it, and mm.a.Limits is package-private there"), "{e}");
    assert_eq!(snapshot_of(&p), before);
    // A field: `Util.LIMIT`, the unqualified uses and the javadoc's link become `Maths.LIMIT`.
    let moved = applied(&p, &ws, json!({"action": "move", "target": "mm.a.Util#LIMIT", "destination": "mm.b.Maths"}));
    insta::assert_snapshot!("move_static_field", moved);
}

#[test]
fn move_a_static_nested_type_or_say_what_would_break() {
    let (p, ws) = setup_of("move_nested");
    compiles(&p);
    let before = snapshot_of(&p);
    let refused = |target: &str, dest: &str| {
        call(&ws, json!({"action": "move", "target": target, "destination": dest})).expect_err("refused")
    };
    for (target, dest, reason) in [
        ("mn.a.Shapes.Inner", "mn.b.Tools", "it is an inner (non-static) class"),
        ("mn.a.Shapes.Spy", "mn.b.Tools", "it uses `mn.a.Shapes#secret`, private"),
        ("mn.a.Shapes.Hidden", "mn.b.Tools", "mn/a/Other.java:4 uses it, which is package-private"),
        ("mn.a.Shapes.Corner", "mn.b.Tools", "mn.b.Tools already has a member type Corner"),
        ("mn.a.Shapes.Entry", "mn.b.Tools", "the file of mn.b.Tools imports another Entry (`java.util.Map.Entry`)"),
        ("mn.a.Shapes.Box", "mn.a.Shapes.Box.Lid", "mn.a.Shapes.Box.Lid is Box or nested in it"),
        ("mn.a.Shapes.Box", "mn.a.Shapes.Box", "mn.a.Shapes.Box is Box or nested in it"),
        ("mn.a.Shapes.Box", "mn.a.Shapes", "it is in mn.a.Shapes already"),
        ("mn.a.Shapes.Box", "mn.b.Tools.Part", "mn.b.Tools.Part is an inner (non-static) class"),
        ("mn.a.Shapes.Peek", "mn.b.Tools", "it uses `mn.a.Base#size()`, protected in `mn.a.Base`"),
        ("mn.a.Shapes.Shape", "mn.a.Other", "mn/c/Client.java:18 uses it, and mn.a.Other is package-private there"),
    ] {
        let e = refused(target, dest);
        assert!(e.contains(reason), "{target} to {dest}: {e}");
    }
    assert_eq!(snapshot_of(&p), before);
    // Box to another package: its javadoc and annotation go along, what it names of Shapes
    // is qualified (SIDES, Corner), List imported; `Shapes.Box`, `mn.a.Shapes.Box`, the
    // imports (static ones too), the javadoc links and the simple names seen through Shapes
    // (its own, Sub's inherited one, Statics' `import static Shapes.*`) follow; Tools' own
    // `Shapes.Box` becomes `Box`; Only's import of Shapes, unused then, becomes Tools'.
    let moved = applied(&p, &ws, json!({"action": "move", "target": "mn.a.Shapes.Box", "destination": "mn.b.Tools"}));
    insta::assert_snapshot!("move_nested_type", moved);
    // An interface (implicitly static): Shapes' simple use gets an import, Client's qualified
    // one follows.
    let moved = applied(&p, &ws, json!({"action": "move", "target": "mn.a.Shapes.Shape", "destination": "mn.b.Tools"}));
    insta::assert_snapshot!("move_nested_interface", moved);
    // Base's protected members, reached through inheritance, from another package.
    let moved = applied(&p, &ws, json!({"action": "move", "target": "mn.a.Shapes.Sized", "destination": "mn.b.Tools"}));
    insta::assert_snapshot!("move_nested_subclass", moved);
    // Within one file: Lid out of Box into Tools, `Tools.Box.Lid` and `Box.Lid` following.
    let moved =
        applied(&p, &ws, json!({"action": "move", "target": "mn.b.Tools.Box.Lid", "destination": "mn.b.Tools"}));
    insta::assert_snapshot!("move_nested_same_file", moved);
}
