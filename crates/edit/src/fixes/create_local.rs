//! Turn an assignment to a missing name into the local variable's declaration.

use mji_parser::kind;

use super::site::{expected_type, parse, use_at};
use crate::ctx::Outcome;
use crate::{Doc, TextEdit};

/// Turns the statement `name = literal;` at byte `at` into the declaration `T name = literal;`.
pub fn create_local(doc: &Doc, at: usize, name: &str) -> Result<Outcome, String> {
    let text = doc.text();
    let bytes = text.as_bytes();
    let tree = parse(doc)?;
    let n = use_at(tree.root_node(), at, bytes, name)?;
    let assign = n.parent().filter(|p| p.kind() == kind::ASSIGNMENT_EXPRESSION).ok_or("not assigned here")?;
    let stmt = assign
        .parent()
        .filter(|s| {
            s.kind() == kind::EXPRESSION_STATEMENT
                && s.parent().is_some_and(|b| matches!(b.kind(), kind::BLOCK | kind::CONSTRUCTOR_BODY))
        })
        .ok_or("the assignment is not a statement of a block")?;
    let ty = expected_type(n, bytes)?;
    Ok(Outcome::in_doc(
        doc,
        vec![TextEdit { start: stmt.start_byte(), end: stmt.start_byte(), text: format!("{ty} ") }],
        format!("create local variable {name}"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::{check_fix, check_fix_refused};
    use expect_test::expect;

    #[test]
    fn declares_the_assigned_local() {
        let body = "class A {\n  void f() {\n    $0total = 5;\n  }\n}\n";
        check_fix(
            |d: &Doc, at| create_local(d, at, "total"),
            body,
            expect![[r#"
            class A {
              void f() {
                int total = 5;
              }
            }
        "#]],
        );
    }

    #[test]
    fn refuses_a_read() {
        let body = "class A {\n  int f() {\n    return $0total;\n  }\n}\n";
        check_fix_refused(|d: &Doc, at| create_local(d, at, "total"), body, "not assigned here");
    }
}
