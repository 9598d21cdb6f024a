//! Cast an expression to the type javac names (a lossy conversion, or `Object` to it).

use mji_parser::kind;
use tree_sitter::Node;

use super::site::{literal, parse};
use crate::ctx::Outcome;
use crate::{Doc, TextEdit};

/// The expression a diagnostic at byte `at` names: the largest expression that starts there
/// (climbing while the parent expression starts at the same byte).
pub fn expression_at(doc: &Doc, at: usize) -> Option<(usize, usize)> {
    let tree = parse(doc).ok()?;
    let n = expression_node(tree.root_node(), at)?;
    Some((n.start_byte(), n.end_byte()))
}

fn expression_node(root: Node, at: usize) -> Option<Node> {
    let mut n = root.descendant_for_byte_range(at, at)?;
    if n.start_byte() != at {
        return None;
    }
    while let Some(p) = n.parent() {
        if p.start_byte() != at || !is_expression(p.kind()) {
            break;
        }
        n = p;
    }
    is_expression(n.kind()).then_some(n)
}

fn is_expression(k: &str) -> bool {
    k.ends_with("_expression")
        || k.ends_with("_literal")
        || matches!(
            k,
            kind::IDENTIFIER
                | kind::METHOD_INVOCATION
                | kind::FIELD_ACCESS
                | kind::ARRAY_ACCESS
                | kind::THIS
                | kind::TRUE
                | kind::FALSE
                | kind::CLASS_LITERAL
        )
}

/// Casts the expression starting at byte `at` to `ty` (as javac names it: a primitive or a
/// qualified type, imported when it can be).
pub fn add_cast(doc: &Doc, at: usize, ty: &str) -> Result<Outcome, String> {
    if !super::castable_name(ty) {
        return Err(format!("`{ty}` is not a type a cast can name here"));
    }
    let tree = parse(doc)?;
    let e = expression_node(tree.root_node(), at).ok_or("no expression at the position")?;
    let (name, import) = super::type_name(doc, ty);
    let tight = matches!(
        e.kind(),
        kind::IDENTIFIER
            | kind::METHOD_INVOCATION
            | kind::FIELD_ACCESS
            | kind::ARRAY_ACCESS
            | kind::PARENTHESIZED_EXPRESSION
            | kind::THIS
    ) || literal(e);
    let mut edits: Vec<TextEdit> = import.into_iter().collect();
    if tight {
        edits.push(TextEdit { start: e.start_byte(), end: e.start_byte(), text: format!("({name}) ") });
    } else {
        edits.push(TextEdit { start: e.start_byte(), end: e.start_byte(), text: format!("({name}) (") });
        edits.push(TextEdit { start: e.end_byte(), end: e.end_byte(), text: ")".into() });
    }
    Ok(Outcome::in_doc(doc, edits, format!("cast to {ty}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::{check_fix, check_fix_refused};
    use expect_test::expect;

    const BODY: &str = "package p;\nclass A {\n  int f(double d, Object o) {\n    int x = d * 2;\n    String s = o;\n    return 0;\n  }\n}\n";

    #[test]
    fn casts_a_lossy_conversion_in_parentheses() {
        check_fix(
            |d: &crate::Doc, at| add_cast(d, at, "int"),
            &BODY.replacen("d * 2", "$0d * 2", 1),
            expect![[r#"
            package p;
            class A {
              int f(double d, Object o) {
                int x = (int) (d * 2);
                String s = o;
                return 0;
              }
            }
        "#]],
        );
    }

    #[test]
    fn casts_an_object_to_the_type_javac_names() {
        check_fix(
            |d: &crate::Doc, at| add_cast(d, at, "java.lang.String"),
            &BODY.replacen("o;", "$0o;", 1),
            expect![[r#"
            package p;
            class A {
              int f(double d, Object o) {
                int x = d * 2;
                String s = (String) o;
                return 0;
              }
            }
        "#]],
        );
    }

    #[test]
    fn refuses_a_type_with_arguments() {
        check_fix_refused(
            |d: &crate::Doc, at| add_cast(d, at, "java.util.List<java.lang.String>"),
            &BODY.replacen("o;", "$0o;", 1),
            "`java.util.List<java.lang.String>` is not a type a cast can name here",
        );
    }
}
