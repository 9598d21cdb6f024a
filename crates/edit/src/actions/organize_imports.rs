//! `organize_imports`: the file's imports sorted and grouped as it groups them, unused ones
//! removed, missing ones added where one type of the name is importable (the world's and the
//! JDK's types), the rest listed as ambiguous unless `choose` picks. The syntax half is
//! [`crate::imports::organize`]; this is what the world knows: which types a simple name may
//! import, and which member types the file's types inherit (in scope without an import).

use crate::Doc;
use crate::actions::ActionError;
use crate::ctx::{Ctx, Outcome};

/// Organizes the imports of `doc`; `choose` picks among the types a name may import.
pub fn run(ctx: &dyn Ctx, doc: &Doc, choose: &[String]) -> Result<Outcome, ActionError> {
    let (w, _) = ctx.world();
    let lookup = |simple: &str| -> Vec<String> { crate::imports::candidates(&w, simple) };
    // Member types the file's types inherit need no import.
    let file = w.files.iter().position(|f| *f.path == *doc.path);
    let inherited = |simple: &str| -> bool {
        file.is_some_and(|fi| {
            (0..w.files[fi].decls().types.len() as u32)
                .any(|i| w.inherited_member_type(w.type_in_file(fi as u32, i), simple).is_some())
        })
    };
    let o = crate::imports::organize(doc, &lookup, choose, &inherited);
    let summary = format!("organize imports of {}: {} removed, {} added", doc.display, o.removed.len(), o.added.len());
    let mut warnings = Vec::new();
    if !o.removed.is_empty() {
        warnings.push(format!("removed: {}", o.removed.join(", ")));
    }
    if !o.added.is_empty() {
        warnings.push(format!("added: {}", o.added.join(", ")));
    }
    Ok(Outcome { warnings, ambiguous: o.ambiguous, ..Outcome::in_doc(doc, o.edits, summary) })
}

#[cfg(test)]
mod cases {
    use crate::actions::organize_imports::run;
    use crate::tests::check;
    use expect_test::expect;

    #[test]
    fn unused_imports_go_and_missing_ones_come() {
        check(
            |ctx, doc, _, _| run(ctx, doc, &[]),
            "$0package p;\n\nimport java.util.Map;\nimport java.util.ArrayList;\n\nclass A {\n    ArrayList<String> xs = new ArrayList<>();\n    HashSet<String> seen;\n}\n",
            expect![[r#"
                package p;

                import java.util.ArrayList;
                import java.util.HashSet;

                class A {
                    ArrayList<String> xs = new ArrayList<>();
                    HashSet<String> seen;
                }
            "#]],
        );
    }

    #[test]
    fn a_choice_among_several_types_of_a_name_is_the_caller_s() {
        check(
            |ctx, doc, _, _| run(ctx, doc, &["java.awt.List".to_owned()]),
            "$0package p;\n\nclass A {\n    List xs;\n}\n",
            expect![[r#"
                package p;

                import java.awt.List;

                class A {
                    List xs;
                }
            "#]],
        );
    }

    /// Member types a class inherits (`Map.Entry` through `HashMap`, a workspace interface's
    /// `Kind`) are in scope: no import of the top-level `other.Entry`, `other.Kind`, and no
    /// choice asked between them.
    #[test]
    fn inherited_member_types_need_no_import() {
        let ctx = crate::tests::TestCtx::new(&[
            ("money/Registry.java", include_str!("../../../../tests/edit_fixtures/inherit/money/Registry.java")),
            ("money/Ledgered.java", include_str!("../../../../tests/edit_fixtures/inherit/money/Ledgered.java")),
            ("other/Entry.java", include_str!("../../../../tests/edit_fixtures/inherit/other/Entry.java")),
            ("other/Kind.java", include_str!("../../../../tests/edit_fixtures/inherit/other/Kind.java")),
        ]);
        let doc = crate::ctx::Ctx::read(&ctx, &ctx.root.join("money/Registry.java")).expect("read");
        let o = run(&ctx, &doc, &[]).expect("organized");
        assert_eq!(o.warnings, ["added: java.util.ArrayList"]);
        assert!(o.ambiguous.is_empty(), "{:?}", o.ambiguous);
        let plan = o.edit.plan().expect("plan");
        expect![[r#"
            package money;

            import java.util.ArrayList;
            import java.util.HashMap;

            /** Entry and Kind are member types it inherits: organize_imports adds no import for them. */
            public class Registry extends HashMap<String, Integer> implements Ledgered {
                private final ArrayList<Entry<String, Integer>> log = new ArrayList<>();

                @Override
                public Kind kind() {
                    return Kind.CASH;
                }

                public Entry<String, Integer> first() {
                    return entrySet().iterator().next();
                }
            }
        "#]]
        .assert_eq(&String::from_utf8_lossy(&plan.files[0].new));
    }
}
