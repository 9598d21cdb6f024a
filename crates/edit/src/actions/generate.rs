//! `source_actions`: generate members in a type — getters, setters, a constructor, `toString`,
//! `equals`/`hashCode`, `serialVersionUID` from its own fields ([`crate::generate`]), and
//! override, implement or delegate methods from its supertypes' or a field type's declarations
//! in the world and the libraries ([`crate::inherit`], through [`Ctx`]).

use mji_model::TypeDecl;

use super::ActionError;
use crate::Doc;
use crate::ctx::{Ctx, Outcome, TypeCache, qualify_decl};
use crate::generate::{Action, Generated, Options};

/// The members `action` generates in `ty` (declared in `doc`), as an outcome.
pub fn run(ctx: &dyn Ctx, doc: &Doc, ty: &TypeDecl, action: Action, opts: &Options) -> Result<Outcome, ActionError> {
    let g = match action {
        Action::OverrideMethods | Action::ImplementMethods | Action::Delegates => {
            inherited(ctx, doc, ty, action, opts)?
        }
        _ => crate::generate::generate(doc, ty, action, opts).map_err(ActionError::Refused)?,
    };
    let summary = if g.members.is_empty() {
        format!("nothing to generate in {}", ty.qualified_name)
    } else {
        format!("generate {} in {}", g.members.join(", "), ty.qualified_name)
    };
    Ok(Outcome { warnings: g.warnings, ..Outcome::in_doc(doc, g.edits, summary) })
}

/// override_methods, implement_methods, delegates: the supertypes' (or a field type's)
/// declarations from the world (workspace types) and the libraries (the JDK's and jars' class
/// files), every type text qualified for [`crate::inherit`].
pub fn inherited(
    ctx: &dyn Ctx,
    doc: &Doc,
    ty: &TypeDecl,
    action: Action,
    opts: &Options,
) -> Result<Generated, ActionError> {
    let (w, _) = ctx.world();
    let id = w
        .workspace_type(&ty.qualified_name)
        .ok_or_else(|| ActionError::NotFound(format!("{} is not in the index yet; try again", ty.qualified_name)))?;
    let qualified = qualify_decl(&w, id, ty);
    let visible = |simple: &str| w.qualify_in(id, simple);
    let lookup = crate::inherit::Lookup { types: TypeCache::new(ctx, &w), visible: &visible };
    crate::inherit::generate(doc, ty, &qualified, action, opts, &lookup).map_err(ActionError::Refused)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::{check, check_refused};
    use expect_test::expect;

    /// `action` on the type declared on the marker's line.
    fn on_type(ctx: &dyn Ctx, doc: &Doc, line: u32, action: Action) -> Result<Outcome, ActionError> {
        let outline = mji_parser::outline(&doc.display, &doc.bytes);
        let ty = outline.classes.iter().find(|t| t.start_line <= line && line <= t.end_line).expect("a type");
        run(ctx, doc, ty, action, &Options::default())
    }

    #[test]
    fn getters_of_every_instance_field() {
        check(
            |ctx, doc, line, _| on_type(ctx, doc, line, Action::Getters),
            "package p;\n\nclass $0A {\n    private int n;\n    private String s;\n}\n",
            expect![[r#"
                package p;

                class A {
                    private int n;
                    private String s;

                    public int getN() {
                        return n;
                    }

                    public String getS() {
                        return s;
                    }
                }
            "#]],
        );
    }

    #[test]
    fn implements_an_interface_s_abstract_methods() {
        check(
            |ctx, doc, line, _| on_type(ctx, doc, line, Action::ImplementMethods),
            "package p;\n\ninterface I {\n    int size();\n}\n\nclass $0A implements I {\n}\n",
            expect![[r#"
                package p;

                interface I {
                    int size();
                }

                class A implements I {

                    @Override
                    public int size() {
                        throw new UnsupportedOperationException("not implemented yet");
                    }
                }
            "#]],
        );
    }

    #[test]
    fn refuses_override_methods_without_a_choice() {
        check_refused(
            |ctx, doc, line, _| on_type(ctx, doc, line, Action::OverrideMethods),
            "package p;\n\nclass $0A {\n}\n",
            "override_methods needs `methods` (names, or name(Type, …)); A can override: hashCode(), equals(Object), clone(), toString(), finalize()",
        );
    }

    /// `action` with `opts` on the type declared on the `$0` line of `src` (as `p/A.java`):
    /// its summary and warnings, or its refusal.
    fn said(src: &str, action: Action, opts: Options) -> Result<(String, Vec<String>), String> {
        let at = src.find("$0").expect("marker");
        let line = src[..at].matches('\n').count() as u32 + 1;
        let text = src.replace("$0", "");
        let ctx = crate::tests::TestCtx::new(&[("p/A.java", &text)]);
        let doc = ctx.read(&ctx.root.join("p/A.java")).expect("read");
        let outline = mji_parser::outline(&doc.display, &doc.bytes);
        let ty = outline.classes.iter().find(|t| t.start_line <= line && line <= t.end_line).expect("a type");
        run(&ctx, &doc, ty, action, &opts).map(|o| (o.summary, o.warnings)).map_err(|e| e.to_string())
    }

    /// Existing members are respected, with a warning.
    #[test]
    fn an_existing_getter_is_kept_with_a_warning() {
        let src =
            "package p;\n\nclass $0A {\n    private int x;\n\n    public int getX() {\n        return x;\n    }\n}\n";
        let opts = Options { fields: vec!["x".into()], ..Options::default() };
        let (summary, warnings) = said(src, Action::Getters, opts).expect("said");
        assert_eq!(summary, "nothing to generate in p.A");
        assert!(warnings.iter().any(|w| w.contains("getX() already exists")), "{warnings:?}");
    }

    /// A record's `toString` is implicit.
    #[test]
    fn a_record_s_to_string_is_implicit() {
        let (_, warnings) =
            said("package p;\n\n$0record A(int a) {\n}\n", Action::ToString, Options::default()).expect("said");
        assert!(warnings.iter().any(|w| w.contains("is a record")), "{warnings:?}");
    }

    /// A field the type does not have is refused, naming the fields it has.
    #[test]
    fn an_unknown_field_is_refused_naming_the_fields() {
        let src = "package p;\n\nclass $0A {\n    private int x;\n    private int[] weights;\n}\n";
        let opts = Options { fields: vec!["z".into()], ..Options::default() };
        let e = said(src, Action::Getters, opts).expect_err("refused");
        assert!(e.contains("has no field z") && e.contains("weights"), "{e}");
    }

    /// override_methods asks which, listing neither a final method nor one already overridden.
    #[test]
    fn override_methods_lists_neither_final_nor_overridden_methods() {
        let src = "package p;\n\nclass Base {\n    public String describe() {\n        return \"\";\n    }\n\n    public final int id() {\n        return 0;\n    }\n\n    public int weight() {\n        return 0;\n    }\n}\n\nclass $0Ledger extends Base {\n    @Override\n    public int weight() {\n        return 1;\n    }\n}\n";
        let e = said(src, Action::OverrideMethods, Options::default()).expect_err("needs methods");
        assert!(e.contains("describe()") && e.contains("toString()"), "{e}");
        assert!(!e.contains("id()") && !e.contains("weight()") && !e.contains("wait("), "{e}");
    }
}
