//! Remove an unused local variable (`hint.unused.local`) whose initializer has no side effect.

use mji_parser::kind;
use tree_sitter::Node;

use super::site::{literal, parse, whole_lines};
use crate::ctx::Outcome;
use crate::{Doc, TextEdit};

/// Removes the declaration of the local variable named at byte `at` (the caller checks it is
/// unused), said with its name. Refused when the statement declares several variables, or
/// when its initializer could have a side effect (anything but literals, lambdas, `this`, and
/// the method's own parameters and earlier locals; a binary operation only over literals,
/// without `/` or `%`).
pub fn remove_local(doc: &Doc, at: usize) -> Result<Outcome, String> {
    let text = doc.text();
    let bytes = text.as_bytes();
    let tree = parse(doc)?;
    let name = tree.root_node().descendant_for_byte_range(at, at).ok_or("no code at the position")?;
    let decl = name
        .parent()
        .filter(|d| d.kind() == kind::VARIABLE_DECLARATOR && d.child_by_field_name("name") == Some(name))
        .ok_or("no local variable declared at the position")?;
    let stmt = decl
        .parent()
        .filter(|s| s.kind() == kind::LOCAL_VARIABLE_DECLARATION)
        .ok_or("no local variable declared at the position")?;
    let mut c = stmt.walk();
    if stmt.children_by_field_name("declarator", &mut c).count() != 1 {
        return Err("the statement declares several variables".into());
    }
    if let Some(value) = decl.child_by_field_name("value") {
        let locals = names_before(stmt, bytes);
        if !pure(value, bytes, &locals) {
            return Err(format!(
                "its initializer `{}` may have side effects",
                value.utf8_text(bytes).unwrap_or("").split_whitespace().collect::<Vec<_>>().join(" ")
            ));
        }
    }
    let (start, end) = whole_lines(text, stmt.start_byte(), stmt.end_byte());
    Ok(Outcome::in_doc(
        doc,
        vec![TextEdit { start, end, text: String::new() }],
        format!("remove the unused variable {}", name.utf8_text(bytes).unwrap_or_default()),
    ))
}

/// The parameters of the method, constructor or lambda around `n` and the locals declared
/// before `n` in the blocks around it: names whose reading has no side effect.
fn names_before(n: Node, bytes: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let mut owner = n;
    while let Some(p) = owner.parent() {
        owner = p;
        if matches!(p.kind(), kind::METHOD_DECLARATION | kind::CONSTRUCTOR_DECLARATION | kind::LAMBDA_EXPRESSION) {
            break;
        }
        if p.kind() == kind::CLASS_BODY {
            return out;
        }
    }
    let name = |x: Node| x.child_by_field_name("name").and_then(|k| k.utf8_text(bytes).ok()).map(str::to_owned);
    crate::syntax::walk(owner, &mut |x| {
        let param = x.kind() == kind::FORMAL_PARAMETER && x.parent().and_then(|q| q.parent()) == Some(owner);
        let local = x.kind() == kind::VARIABLE_DECLARATOR
            && x.end_byte() <= n.start_byte()
            && x.parent().is_some_and(|d| {
                d.kind() == kind::LOCAL_VARIABLE_DECLARATION
                    && d.parent().is_some_and(|b| b.start_byte() <= n.start_byte() && n.end_byte() <= b.end_byte())
            });
        if (param || local)
            && let Some(t) = name(x)
        {
            out.push(t);
        }
    });
    out
}

/// Whether evaluating `e` cannot have a side effect (nor throw).
fn pure(e: Node, bytes: &[u8], locals: &[String]) -> bool {
    if literal(e) {
        return true;
    }
    match e.kind() {
        kind::NULL_LITERAL | kind::THIS | kind::LAMBDA_EXPRESSION => true,
        kind::IDENTIFIER => e.utf8_text(bytes).is_ok_and(|t| locals.iter().any(|l| l == t)),
        kind::PARENTHESIZED_EXPRESSION => e.named_child(0).is_some_and(|x| pure(x, bytes, locals)),
        kind::UNARY_EXPRESSION => e.child_by_field_name("operand").is_some_and(|x| literal(x)),
        kind::BINARY_EXPRESSION => {
            let op = e.child_by_field_name("operator").map(|o| o.kind());
            !matches!(op, Some("/") | Some("%"))
                && e.child_by_field_name("left").is_some_and(literal)
                && e.child_by_field_name("right").is_some_and(literal)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::{check_fix, check_fix_refused};
    use expect_test::expect;

    const BODY: &str = "class A {\n  void f(int p) {\n    int a = 1;\n    int b = p;\n    int c = g();\n    int d = -1, e = 2;\n    String s = \"x\" + 1;\n    int q = 1 / 0;\n  }\n}\n";

    fn at(word: &str) -> String {
        BODY.replacen(word, &format!("$0{word}"), 1)
    }

    #[test]
    fn removes_a_literal_s_local() {
        check_fix(
            remove_local,
            &at("a ="),
            expect![[r#"
            class A {
              void f(int p) {
                int b = p;
                int c = g();
                int d = -1, e = 2;
                String s = "x" + 1;
                int q = 1 / 0;
              }
            }
        "#]],
        );
    }

    #[test]
    fn removes_a_parameter_s_copy_and_a_constant_concatenation() {
        check_fix(
            remove_local,
            &at("b ="),
            expect![[r#"
            class A {
              void f(int p) {
                int a = 1;
                int c = g();
                int d = -1, e = 2;
                String s = "x" + 1;
                int q = 1 / 0;
              }
            }
        "#]],
        );
        check_fix(
            remove_local,
            &at("s ="),
            expect![[r#"
            class A {
              void f(int p) {
                int a = 1;
                int b = p;
                int c = g();
                int d = -1, e = 2;
                int q = 1 / 0;
              }
            }
        "#]],
        );
    }

    #[test]
    fn refuses_a_call_several_variables_and_a_division() {
        check_fix_refused(remove_local, &at("c ="), "its initializer `g()` may have side effects");
        check_fix_refused(remove_local, &at("d ="), "the statement declares several variables");
        check_fix_refused(remove_local, &at("q ="), "its initializer `1 / 0` may have side effects");
    }
}
