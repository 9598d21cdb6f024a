//! Add `@Override` to a method overriding a supertype's (`hint.missing.override`).

use mji_parser::kind;

use super::site::parse;
use crate::ctx::Outcome;
use crate::syntax::line_indent;
use crate::{Doc, TextEdit};

/// Adds `@Override` before the method whose name is at byte `at` (after its javadoc, before
/// its other modifiers; the caller checks it overrides).
pub fn add_override(doc: &Doc, at: usize) -> Result<Outcome, String> {
    let text = doc.text();
    let tree = parse(doc)?;
    let name = tree.root_node().descendant_for_byte_range(at, at).ok_or("no code at the position")?;
    let m = name
        .parent()
        .filter(|m| m.kind() == kind::METHOD_DECLARATION && m.child_by_field_name("name") == Some(name))
        .ok_or("no method declared at the position")?;
    let indent = line_indent(text, m.start_byte());
    if text[..m.start_byte()].len() - text[..m.start_byte()].trim_end_matches([' ', '\t']).len() != indent.len() {
        return Err("the method does not start its line".into());
    }
    Ok(Outcome::in_doc(
        doc,
        vec![TextEdit { start: m.start_byte(), end: m.start_byte(), text: format!("@Override{}{indent}", doc.eol()) }],
        "add @Override".to_owned(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::{check_fix, check_fix_refused};
    use expect_test::expect;

    #[test]
    fn adds_override_after_the_javadoc() {
        check_fix(
            add_override,
            "class A implements Runnable {\n    /** Runs. */\n    public void $0run() {}\n}\n",
            expect![[r#"
            class A implements Runnable {
                /** Runs. */
                @Override
                public void run() {}
            }
        "#]],
        );
    }

    #[test]
    fn refuses_where_no_method_is_declared() {
        check_fix_refused(add_override, "class A {\n    int $0x;\n}\n", "no method declared at the position");
    }
}
