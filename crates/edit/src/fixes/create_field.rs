//! Create the missing field a use names, its type from the use's context.

use super::site::{expected_type, is_static, member_of, parse, use_at};
use crate::ctx::Outcome;
use crate::syntax::line_indent;
use crate::{Doc, TextEdit};

/// Creates `private [static] T name;` after the member whose code uses the variable at byte
/// `at`, its type from the use's context.
pub fn create_field(doc: &Doc, at: usize, name: &str) -> Result<Outcome, String> {
    let text = doc.text();
    let bytes = text.as_bytes();
    let tree = parse(doc)?;
    let n = use_at(tree.root_node(), at, bytes, name)?;
    let ty = expected_type(n, bytes)?;
    let (member, _) = member_of(n, bytes)?;
    let indent = line_indent(text, member.start_byte());
    let stat = if is_static(member, bytes) { "static " } else { "" };
    let eol = doc.eol();
    let new = format!("{eol}{eol}{indent}private {stat}{ty} {name};");
    Ok(Outcome::in_doc(
        doc,
        vec![TextEdit { start: member.end_byte(), end: member.end_byte(), text: new }],
        format!("create field {name}"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::{check_fix, check_fix_refused};
    use expect_test::expect;

    #[test]
    fn creates_a_field_typed_by_the_return() {
        let body = "package p;\nclass A {\n  int f() {\n    return $0count;\n  }\n}\n";
        check_fix(
            |d: &Doc, at| create_field(d, at, "count"),
            body,
            expect![[r#"
            package p;
            class A {
              int f() {
                return count;
              }

              private int count;
            }
        "#]],
        );
    }

    #[test]
    fn refuses_a_name_that_is_not_used_there() {
        let body = "package p;\nclass A {\n  int f() {\n    return $0count;\n  }\n}\n";
        check_fix_refused(|d: &Doc, at| create_field(d, at, "total"), body, "`total` is not at the position");
    }
}
