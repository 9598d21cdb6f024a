//! Add `throws X` for an unreported checked exception.

use mji_parser::kind;

use crate::ctx::Outcome;
use crate::{Doc, TextEdit};

/// Adds `throws X` to the method or constructor around byte `at` (`X` imported when it can
/// be). Refused inside a lambda or an initializer, and for a method marked `@Override` (the
/// method it overrides does not declare it).
pub fn add_throws(doc: &Doc, at: usize, exception: &str) -> Result<Outcome, String> {
    let text = doc.text();
    let tree = mji_parser::parse_tree(text).ok_or("the file could not be parsed")?;
    let mut n = tree.root_node().descendant_for_byte_range(at, at).ok_or("no code at the position")?;
    let method = loop {
        match n.kind() {
            kind::METHOD_DECLARATION | kind::CONSTRUCTOR_DECLARATION => break n,
            kind::LAMBDA_EXPRESSION => return Err("inside a lambda, whose interface method cannot throw it".into()),
            kind::CLASS_BODY | kind::ENUM_BODY | kind::INTERFACE_BODY | kind::PROGRAM => {
                return Err("not inside a method or constructor".into());
            }
            _ => n = n.parent().ok_or("not inside a method or constructor")?,
        }
    };
    let head =
        &text[method.start_byte()..method.child_by_field_name("body").map_or(method.end_byte(), |b| b.start_byte())];
    if head.contains("@Override") {
        return Err("the method overrides one that does not declare it".into());
    }
    let (name, import) = super::type_name(doc, exception);
    let mut edits: Vec<TextEdit> = import.into_iter().collect();
    let mut c = method.walk();
    if let Some(throws) = method.children(&mut c).find(|c| c.kind() == kind::THROWS) {
        edits.push(TextEdit { start: throws.end_byte(), end: throws.end_byte(), text: format!(", {name}") });
    } else {
        let body = method.child_by_field_name("body").ok_or("the method has no body")?;
        let at = body.start_byte();
        let spaced = text[..at].ends_with(char::is_whitespace);
        let insert = if spaced { format!("throws {name} ") } else { format!(" throws {name} ") };
        edits.push(TextEdit { start: at, end: at, text: insert });
    }
    Ok(Outcome::in_doc(doc, edits, format!("add throws {exception}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::{check_fix, check_fix_refused};
    use expect_test::expect;

    const BODY: &str = "package p;\n\nclass A {\n    void f() {\n        read();\n    }\n    void g() throws X {\n        read();\n    }\n    Runnable r = () -> read();\n}\n";

    fn io(d: &Doc, at: usize) -> Result<Outcome, String> {
        add_throws(d, at, "java.io.IOException")
    }

    #[test]
    fn adds_a_throws_clause_and_its_import() {
        check_fix(
            io,
            &BODY.replacen("read", "$0read", 1),
            expect![[r#"
            package p;

            import java.io.IOException;

            class A {
                void f() throws IOException {
                    read();
                }
                void g() throws X {
                    read();
                }
                Runnable r = () -> read();
            }
        "#]],
        );
    }

    #[test]
    fn extends_a_throws_clause() {
        let at = BODY.match_indices("read").nth(1).map_or(0, |(i, _)| i);
        check_fix(
            io,
            &format!("{}$0{}", &BODY[..at], &BODY[at..]),
            expect![[r#"
            package p;

            import java.io.IOException;

            class A {
                void f() {
                    read();
                }
                void g() throws X, IOException {
                    read();
                }
                Runnable r = () -> read();
            }
        "#]],
        );
    }

    #[test]
    fn refuses_inside_a_lambda() {
        check_fix_refused(
            io,
            &BODY.replacen("-> read", "-> $0read", 1),
            "inside a lambda, whose interface method cannot throw it",
        );
    }
}
