//! `refactor_actions`' convert of an anonymous class to a lambda on a temp copy of
//! tests/edit_fixtures/lambda: a functional interface of the workspace or the JDK, in a
//! declaration, a field, a `return` or an unambiguous call's argument, becomes a lambda (diff
//! snapshots; javac compiles the fixture after each apply); everything that could change
//! meaning is refused with the reason and writes nothing.

use super::refactor::{applied, call, compiles, setup_of};
use crate::common::java_files_under;
use serde_json::json;

fn convert(line: u32) -> serde_json::Value {
    json!({"action": "convert", "filePath": "lm/Lambdas.java", "line": line})
}

#[test]
fn an_anonymous_class_becomes_a_lambda_only_where_equivalent() {
    let (p, ws) = setup_of("lambda");
    compiles(&p);
    let before: Vec<String> =
        java_files_under(p.root.path()).iter().map(|f| std::fs::read_to_string(f).expect("read")).collect();
    for (line, why) in [
        (58, "its method uses `this` (line 60)"),
        (63, "its body declares 2 members; a lambda is one method"),
        (72, "its target type would be Object, not Runnable"),
        (
            75,
            "`submit` has another overload (lm.Lambdas#submit(java.util.concurrent.Callable)) that could take a lambda there",
        ),
        (78, "`x` (line 80) would redeclare a variable of the enclosing code"),
        (84, "`LIMIT` in its body is a member it inherits; in a lambda it would mean another"),
        (89, "lm.Task is a class, not an interface"),
    ] {
        let e = call(&ws, convert(line)).expect_err("refused");
        assert!(e.contains(why), "line {line}: {e}");
    }
    let after: Vec<String> =
        java_files_under(p.root.path()).iter().map(|f| std::fs::read_to_string(f).expect("read")).collect();
    assert_eq!(after, before, "a refusal writes nothing");
    // Bottom up, so the lines above stay where they are.
    let argument = applied(&p, &ws, convert(47));
    let local = applied(&p, &ws, convert(40));
    let returned = applied(&p, &ws, convert(31));
    let field = applied(&p, &ws, convert(10));
    insta::assert_snapshot!("convert_anonymous_to_lambda", [argument, local, returned, field].join("\n\n"));
}
