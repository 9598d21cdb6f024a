//! Remove an unused import (the hint `hint.unused.import`).

use mji_parser::kind;

use super::site::{parse, whole_lines};
use crate::ctx::Outcome;
use crate::{Doc, TextEdit};

/// Removes the import declaration at byte `at` (the caller checks it is unused).
pub fn remove_import(doc: &Doc, at: usize) -> Result<Outcome, String> {
    let tree = parse(doc)?;
    let root = tree.root_node();
    let mut c = root.walk();
    let n = root
        .children(&mut c)
        .find(|n| n.kind() == kind::IMPORT_DECLARATION && n.start_byte() == at)
        .ok_or("no import declaration at the position")?;
    let (start, end) = whole_lines(doc.text(), n.start_byte(), n.end_byte());
    Ok(Outcome::in_doc(
        doc,
        vec![TextEdit { start, end, text: String::new() }],
        format!("remove an unused import of {}", doc.display),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::{check_fix, check_fix_refused};
    use expect_test::expect;

    #[test]
    fn removes_the_import_s_whole_line() {
        check_fix(
            remove_import,
            "package p;\n\n$0import java.util.List;\nimport java.util.Map;\n\nclass A {}\n",
            expect![[r#"
            package p;

            import java.util.Map;

            class A {}
        "#]],
        );
    }

    #[test]
    fn refuses_where_no_import_starts() {
        check_fix_refused(
            remove_import,
            "package p;\n\nimport java.util.List;\n\nclass $0A {}\n",
            "no import declaration at the position",
        );
    }
}
