//! `inline`: a local variable ([`local`]: its uses take its initializer, from the syntax
//! alone), a method ([`method`]: every call, or one, takes the body) or a constant (every use
//! the reference index found takes its initializer). The syntax halves are the submodules; the
//! binder halves here (the override family, the call sites, the types visible at each).

pub mod local;
pub mod method;

use std::path::PathBuf;

use mji_xref::target::{Target, name_of_key};
use mji_xref::ty::Ty;
use mji_xref::world::{TypeId, World};
use mji_xref::{Category, Confidence, RefKind};

use crate::actions::ActionError;
use crate::ctx::{Ctx, Outcome};
use crate::delete::DeclKind;
use crate::{Doc, TextEdit, WorkspaceEdit};

/// `inline` of the local variable at `line` (at `column`, or the first identifier of the line
/// that is one): `None` when no local is there.
pub fn local(doc: &Doc, line: u32, column: u32) -> Result<Option<Outcome>, ActionError> {
    let mut why = None;
    for at in identifier_starts(doc, line, column) {
        match local::inline_local(doc, at) {
            Ok(done) => return Ok(Some(done)),
            Err(e) if e.starts_with("no local") || e.contains("is not a local variable here") => {}
            Err(e) => {
                why.get_or_insert(e);
            }
        }
    }
    match why {
        Some(e) => Err(ActionError::Refused(format!("not inlined: {e}"))),
        None => Ok(None),
    }
}

/// The byte offsets to try on `line`: the column's, or each identifier's start.
fn identifier_starts(doc: &Doc, line: u32, column: u32) -> Vec<usize> {
    if column > 0 {
        return doc.offset(line, column).into_iter().collect();
    }
    let Some(start) = doc.offset(line, 1) else { return Vec::new() };
    let text = doc.src.lines.line_text(doc.text(), line);
    let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    text.char_indices()
        .filter(|(i, c)| is_ident(*c) && !c.is_ascii_digit() && !text[..*i].chars().last().is_some_and(is_ident))
        .map(|(i, _)| start + i)
        .collect()
}

/// `inline` of the constant `target`: every use takes its initializer; the declaration goes
/// unless javadoc links to it.
pub fn constant(ctx: &dyn Ctx, target: &Target) -> Result<Outcome, ActionError> {
    let (w, scope) = ctx.world();
    let refuse = |why: String| Err(ActionError::Refused(format!("{} not inlined: {why}", target.label)));
    if target.category != Category::Field || target.keys.len() != 1 || target.decls.len() != 1 {
        return refuse("not a local variable or a constant of the workspace".into());
    }
    let name = name_of_key(&target.keys[0]);
    let (path, line) = target.decls[0].clone();
    let doc = ctx.read(&path)?;
    let (init, ty) = match local::constant_decl(&doc, &name, line) {
        Ok(x) => x,
        Err(e) => return refuse(e),
    };
    let found = ctx.references(&w, &scope, target);
    let mut conflicts = Vec::new();
    conflicts.extend(ctx.unbound_mentions(found.unbound, &name, "uses"));
    let mut edit = WorkspaceEdit::default();
    let (mut uses, mut javadoc, mut likely) = (0, Vec::new(), Vec::new());
    let mut imports = Vec::new();
    for (p, refs) in found.hits {
        let d = ctx.read(&p)?;
        let mut f = d.edit();
        for (r, _) in refs {
            let at = format!("{}:{}:{}", d.display, r.line, r.column);
            match r.kind {
                RefKind::Javadoc => javadoc.push(at),
                RefKind::Import => imports.push((p.clone(), r.line)),
                _ if r.confidence == Confidence::Likely => likely.push(at),
                _ => match d.offset(r.line, r.column).and_then(|o| local::constant_use(&d, o, &init, &ty)) {
                    Some(e) => {
                        f.edits.push(e);
                        uses += 1;
                    }
                    None => return refuse(format!("the use at {at} could not be read")),
                },
            }
        }
        edit.add(f);
    }
    if !likely.is_empty() {
        return refuse(format!("uses the binder is not sure of: {}", likely.join(", ")));
    }
    let mut warnings = Vec::new();
    if javadoc.is_empty() {
        let removal = crate::delete::declaration(&doc, DeclKind::Field, &name, line).map_err(ActionError::Refused)?;
        let mut f = doc.edit();
        f.edits.push(TextEdit { start: removal.start, end: removal.end, text: String::new() });
        edit.add(f);
        for (p, line) in &imports {
            let d = ctx.read(p)?;
            if let Some(e) = crate::delete::import_line(&d, *line) {
                let mut f = d.edit();
                f.edits.push(e);
                edit.add(f);
            }
        }
    } else {
        warnings.push(format!("the declaration stays: javadoc links to it at {}", javadoc.join(", ")));
    }
    let summary = format!("inline constant {} = {init}: {uses} use{}", target.label, if uses == 1 { "" } else { "s" });
    Ok(Outcome { edit, summary, conflicts, warnings, ..Outcome::default() })
}

/// `inline` of the method `target`: every call (or the one at `at`, a file's line and column)
/// takes the body; the declaration goes when every call was inlined and it is not public API.
pub fn method(ctx: &dyn Ctx, target: &Target, at: Option<(PathBuf, u32, u32)>) -> Result<Outcome, ActionError> {
    let (w, scope) = ctx.world();
    let w = &w;
    let refuse = |why: String| Err(ActionError::Refused(format!("{} not inlined: {why}", target.label)));
    if target.keys.len() != 1 || target.decls.len() != 1 {
        return refuse(format!(
            "it names {} methods of the workspace; name one",
            target.decls.len().max(target.keys.len())
        ));
    }
    match mji_xref::rename::rename_family(w, target) {
        Ok(f) if f.decls.len() > 1 => {
            return refuse(format!(
                "it overrides or is overridden by {} other method(s); a call may run another body",
                f.decls.len() - 1
            ));
        }
        Ok(_) => {}
        Err(_) => return refuse("it overrides a method outside the workspace".into()),
    }
    let key = target.keys[0].clone();
    let name = name_of_key(&key);
    let (path, line) = target.decls[0].clone();
    let decl_doc = ctx.read(&path)?;
    let m = match method::method_at(&decl_doc, &name, line) {
        Ok(m) => m,
        Err(e) => return refuse(e),
    };
    let owner = w.workspace_type(key.split_once('#').map_or("", |x| x.0));
    let Some(owner) = owner else { return refuse("its class is not in the workspace".into()) };
    let decl_fi = w.files.iter().position(|f| *f.path == *path);
    // Cast the value where its type is not exactly the return type (overloads, arithmetic).
    let cast = m.expr.is_none_or(|(s, e)| {
        let t = decl_fi.and_then(|fi| mji_xref::bind::expr_type(w, fi as u32, &decl_doc.bytes, s, e));
        !match t {
            Some(Ty::Prim(p)) => *p == *m.ret,
            Some(Ty::Class(f, a)) => {
                a.is_empty() && !m.ret.contains('<') && w.qualify_in(owner, &m.ret).as_deref() == Some(&*f)
            }
            _ => false,
        }
    });
    // One call, by position: a position that is not the declaration's.
    let one = at.filter(|(p, l, _)| !(**p == *path && (line..=m.name_line).contains(l)));
    let found = ctx.references(w, &scope, target);
    let incomplete = ctx.incomplete(found.unbound);
    let mut edit = WorkspaceEdit::default();
    let (mut inlined, mut other, mut refused) = (0, Vec::new(), Vec::new());
    for (p, refs) in found.hits {
        let d = if *p == *path { Doc::read(&path, &decl_doc.display)? } else { ctx.read(&p)? };
        let fi = w.files.iter().position(|f| *f.path == *p);
        let mut f = d.edit();
        let introduced = std::cell::RefCell::new(Vec::new());
        for (r, _) in refs {
            let at = format!("{}:{}:{}", d.display, r.line, r.column);
            if let Some((op, ol, oc)) = &one
                && (**op != *p || *ol != r.line || (*oc > 0 && *oc != r.column))
            {
                other.push(at);
                continue;
            }
            if r.kind != mji_xref::RefKind::Call || r.confidence != mji_xref::Confidence::Exact {
                other.push(at);
                continue;
            }
            let here = fi.and_then(|fi| type_at(w, fi, r.line));
            let types_visible = here.is_some_and(|h| {
                m.type_names
                    .iter()
                    .all(|n| w.qualify_in(owner, n).is_some() && w.qualify_in(owner, n) == w.qualify_in(h, n))
            });
            let Some(o) = d.offset(r.line, r.column) else {
                refused.push(format!("{at}: the call could not be read"));
                continue;
            };
            let site =
                method::Site { doc: &d, at: o, same_file: *p == *path, types_visible, cast, introduced: &introduced };
            match method::inline_call(&m, decl_doc.text(), &site) {
                Ok(e) => {
                    f.edits.extend(e);
                    inlined += 1;
                }
                Err(e) => refused.push(format!("{}: {e}", d.display)),
            }
        }
        edit.add(f);
    }
    if !refused.is_empty() {
        let n = refused.len();
        refused.truncate(10);
        return refuse(format!("{n} call(s) cannot take the body: {}", refused.join("; ")));
    }
    if inlined == 0 {
        return refuse(if one.is_some() { "no call of it at that position".into() } else { "it has no calls".into() });
    }
    let public = w.decl(owner).methods.iter().any(|x| w.method_key(owner, x) == key && x.is_public_api);
    // What a framework or the JVM calls by name or annotation has a caller no reference shows.
    let by_name = crate::delete::called_by_name(
        &decl_doc,
        crate::delete::DeclKind::Method,
        &name,
        line,
        w.may_be_serializable(owner),
    );
    let mut warnings = Vec::new();
    let kept = if one.is_some() {
        Some("the other calls remain".to_owned())
    } else if let Some(why) = by_name {
        Some(why)
    } else if public {
        Some("it is public API (code outside the workspace may call it)".to_owned())
    } else if !other.is_empty() {
        Some(format!("other uses remain: {}", other.iter().take(5).cloned().collect::<Vec<_>>().join(", ")))
    } else if !incomplete.is_empty() {
        Some(format!("files that could not be bound fully may call it: {}", incomplete.join(", ")))
    } else {
        None
    };
    match &kept {
        Some(why) => warnings.push(format!("the declaration stays: {why}")),
        None => {
            let removal = crate::delete::declaration(&decl_doc, crate::delete::DeclKind::Method, &name, line)
                .map_err(ActionError::Refused)?;
            let mut f = decl_doc.edit();
            f.edits.push(TextEdit { start: removal.start, end: removal.end, text: String::new() });
            edit.add(f);
        }
    }
    let summary = format!(
        "inline method {}: {inlined} call{}{}",
        target.label,
        if inlined == 1 { "" } else { "s" },
        if kept.is_none() { ", declaration removed" } else { "" }
    );
    Ok(Outcome { edit, summary, warnings, ..Outcome::default() })
}

fn type_at(w: &World, fi: usize, line: u32) -> Option<TypeId> {
    let decls = &w.files[fi].decls().types;
    let ti = decls.iter().enumerate().rev().find(|(_, t)| t.start_line <= line && line <= t.end_line)?.0;
    Some(w.type_in_file(fi as u32, ti as u32))
}

#[cfg(test)]
mod cases {
    use super::{ActionError, Ctx, Doc, Outcome, constant, local, method};
    use crate::tests::{check, check_refused, check_workspace};
    use expect_test::expect;
    use mji_xref::target::resolve_target;

    fn at_position(_: &dyn Ctx, doc: &Doc, line: u32, column: u32) -> Result<Outcome, ActionError> {
        local(doc, line, column)?.ok_or_else(|| ActionError::Refused("no local".into()))
    }

    #[test]
    fn a_local_takes_its_uses_place() {
        check(
            at_position,
            "class A {\n    int f(int a) {\n        int $0x = a + 1;\n        return x * 2;\n    }\n}\n",
            expect![[r#"
                class A {
                    int f(int a) {
                        return (a + 1) * 2;
                    }
                }
            "#]],
        );
    }

    #[test]
    fn a_local_written_after_its_declaration_stays() {
        check_refused(
            at_position,
            "class A {\n    int f(int a) {\n        int $0x = a + 1;\n        x++;\n        return x;\n    }\n}\n",
            "not inlined: `x` is written at line 4; only a variable assigned once is inlined",
        );
    }

    #[test]
    fn a_constant_takes_its_uses_place_and_goes() {
        let a = "package p;\n\nclass A {\n    static final int MAX = 10;\n\n    int f(int n) {\n        return n * MAX;\n    }\n}\n";
        check_workspace(
            &[("p/A.java", a)],
            |ctx, w| constant(ctx, &resolve_target(w, "p.A#MAX").expect("target")),
            expect![[r#"
                --- p/A.java
                package p;

                class A {
                    int f(int n) {
                        return n * 10;
                    }
                }
            "#]],
        );
    }

    #[test]
    fn a_private_method_takes_its_calls_place_and_goes() {
        let a = "package p;\n\nclass A {\n    private int twice(int x) {\n        return 2 * x;\n    }\n\n    int f(int n) {\n        return twice(n + 1);\n    }\n}\n";
        check_workspace(
            &[("p/A.java", a)],
            |ctx, w| method(ctx, &resolve_target(w, "p.A#twice(int)").expect("target"), None),
            expect![[r#"
                --- p/A.java
                package p;

                class A {
                    int f(int n) {
                        return 2 * (n + 1);
                    }
                }
            "#]],
        );
    }

    /// A call's value used more than once is not copied: each copy would call it again.
    #[test]
    fn a_local_initialized_by_a_call_and_used_more_than_once_stays() {
        check_refused(
            at_position,
            "class A {\n    int f(int a) {\n        int $0n = twice(a);\n        return n + n * n;\n    }\n\n    static int twice(int a) {\n        return 2 * a;\n    }\n}\n",
            "not inlined: the initializer of `n` has side effects (a call, `new` or an assignment) and 3 uses; it would run 3 times",
        );
    }

    /// Parenthesized where an operator binds around it, cast where the declared type decides.
    #[test]
    fn a_local_is_parenthesized_and_cast_as_its_declaration_says() {
        check(
            at_position,
            "class A {\n    String f(int count) {\n        long $0big = count * 1000;\n        return \"\" + big;\n    }\n}\n",
            expect![[r#"
                class A {
                    String f(int count) {
                        return "" + ((long) (count * 1000));
                    }
                }
            "#]],
        );
    }

    /// tests/edit_fixtures/access: a package-private `pa.Base#run()`, overridden by `pa.Near`;
    /// `pb.Far` (private `run()`) and `pb.Other` (its own `run()`) are in another package.
    const ACCESS: &[(&str, &str)] = &[
        ("pa/Base.java", include_str!("../../../../../tests/edit_fixtures/access/pa/Base.java")),
        ("pa/Near.java", include_str!("../../../../../tests/edit_fixtures/access/pa/Near.java")),
        ("pb/Far.java", include_str!("../../../../../tests/edit_fixtures/access/pb/Far.java")),
        ("pb/Other.java", include_str!("../../../../../tests/edit_fixtures/access/pb/Other.java")),
    ];

    /// A private method is in no override family: it inlines into its one call.
    #[test]
    fn a_private_method_of_a_package_private_one_s_name_inlines() {
        check_workspace(
            ACCESS,
            |ctx, w| method(ctx, &resolve_target(w, "pb.Far#run()").expect("target"), None),
            expect![[r#"
                --- pb/Far.java
                package pb;

                import pa.Base;

                /** In another package: its private run() overrides nothing (JLS 8.4.8.1). */
                public class Far extends Base {
                    public void use() {
                        System.out.println("far");
                    }
                }
            "#]],
        );
    }

    /// tests/edit_fixtures/refactor_method: methods to inline at every call or at one.
    const METHODS: &[(&str, &str)] = &[
        ("rm/Orders.java", include_str!("../../../../../tests/edit_fixtures/refactor_method/rm/Orders.java")),
        ("rm/Pricing.java", include_str!("../../../../../tests/edit_fixtures/refactor_method/rm/Pricing.java")),
        ("rm/Shapes.java", include_str!("../../../../../tests/edit_fixtures/refactor_method/rm/Shapes.java")),
        ("rm/Store.java", include_str!("../../../../../tests/edit_fixtures/refactor_method/rm/Store.java")),
    ];

    /// The inline of the method `target` in [`METHODS`]: refused with a reason holding `why`.
    fn method_refused(target: &str, why: &str) {
        let ctx = crate::tests::TestCtx::new(METHODS);
        let (w, _) = ctx.world();
        match method(&ctx, &resolve_target(&w, target).expect("target"), None) {
            Ok(o) => panic!("{target} not refused: {}", o.summary),
            Err(e) => assert!(e.to_string().contains(why), "{target}: {e}"),
        }
    }

    /// The inline of the method `target` in [`METHODS`]: what it says (summary, warnings) and
    /// `rm/Pricing.java` after.
    fn method_inlined(target: &str) -> (String, String) {
        let ctx = crate::tests::TestCtx::new(METHODS);
        let (w, _) = ctx.world();
        let o = method(&ctx, &resolve_target(&w, target).expect("target"), None).unwrap_or_else(|e| panic!("{e}"));
        let plan = o.edit.plan().expect("plan");
        let pricing = plan.files.iter().find(|f| f.display == "rm/Pricing.java").expect("Pricing edited");
        (format!("{}\n{}", o.summary, o.warnings.join("\n")), String::from_utf8_lossy(&pricing.new).into_owned())
    }

    #[test]
    fn a_recursive_method_is_not_inlined() {
        method_refused("rm.Pricing#fact(int)", "not inlined: it is recursive");
    }

    #[test]
    fn an_overridden_method_is_not_inlined() {
        method_refused("rm.Square#sides()", "overrides or is overridden by 1 other method");
    }

    #[test]
    fn an_argument_that_must_become_a_local_inside_an_expression_is_refused() {
        method_refused(
            "rm.Pricing#square(int)",
            "rm/Pricing.java: line 29: an argument must be evaluated once into a local",
        );
    }

    /// A body that reads a field, inlined in its class; the private declaration goes.
    #[test]
    fn a_private_method_reading_a_field_inlines_and_goes() {
        let (_, after) = method_inlined("rm.Pricing#scaled(int)");
        assert!(after.contains("int t = square(next()) + (base * rate);"), "{after}");
        assert!(!after.contains("private int scaled(int x) {"), "{after}");
    }

    /// petclinic's `PetController#populatePetTypes()`: a `@ModelAttribute` method Spring calls
    /// for every request keeps its declaration when its one call in code takes its body.
    #[test]
    fn a_method_a_framework_calls_by_its_annotation_stays() {
        let visits = include_str!("../../../../../tests/edit_fixtures/jvm_names/jv/Visits.java");
        let ctx = crate::tests::TestCtx::new(&[("jv/Visits.java", visits)]);
        let (w, _) = ctx.world();
        let o = method(&ctx, &resolve_target(&w, "jv.Visits#populateTypes()").expect("target"), None)
            .unwrap_or_else(|e| panic!("{e}"));
        let plan = o.edit.plan().expect("plan");
        let after = String::from_utf8_lossy(&plan.files[0].new).into_owned();
        assert!(!after.contains("populateTypes());") && after.contains("List.of(\"cat\", \"dog\")));"), "{after}");
        assert!(after.contains("List<String> populateTypes() {"), "{after}");
        let said = o.warnings.join("\n");
        assert!(said.contains("the declaration stays: populateTypes is annotated @ModelAttribute"), "{said}");
    }

    /// Public API: every call inlined, the declaration kept, and said so.
    #[test]
    fn a_public_method_inlines_at_every_call_and_stays() {
        let (said, after) = method_inlined("rm.Pricing#half(int)");
        assert!(after.contains("double h = (base / 2.0) * 2;"), "{after}");
        assert!(said.contains("the declaration stays: it is public API"), "{said}");
    }

    /// commons-collections' `MapUtils#printIndent`, called three times in one method: each
    /// call's argument local gets its own name (all three were `int indent`: javac refused).
    #[test]
    fn calls_in_one_method_declare_their_argument_locals_once() {
        let a = "package p;\n\nclass A {\n    private static void indent(StringBuilder out, int n) {\n        for (int i = 0; i < n; i++) {\n            out.append(' ');\n        }\n    }\n\n    void f(StringBuilder out, java.util.List<String> l) {\n        indent(out, l.size());\n        out.append('{');\n        indent(out, l.size());\n    }\n\n    void g(StringBuilder out, java.util.List<String> l) {\n        indent(out, l.size());\n    }\n}\n";
        check_workspace(
            &[("p/A.java", a)],
            |ctx, w| method(ctx, &resolve_target(w, "p.A#indent(java.lang.StringBuilder,int)").expect("target"), None),
            expect![[r#"
                --- p/A.java
                package p;

                class A {
                    void f(StringBuilder out, java.util.List<String> l) {
                        int n = l.size();
                        for (int i = 0; i < n; i++) {
                            out.append(' ');
                        }
                        out.append('{');
                        int n2 = l.size();
                        for (int i = 0; i < n2; i++) {
                            out.append(' ');
                        }
                    }

                    void g(StringBuilder out, java.util.List<String> l) {
                        int n = l.size();
                        for (int i = 0; i < n; i++) {
                            out.append(' ');
                        }
                    }
                }
            "#]],
        );
    }

    /// A body's own local, inlined twice into one block, would be declared twice.
    #[test]
    fn a_body_local_inlined_twice_into_one_method_is_refused() {
        let a = "package p;\n\nclass A {\n    private static void log(StringBuilder out, String s) {\n        String t = s.trim();\n        out.append(t);\n    }\n\n    void f(StringBuilder out) {\n        log(out, \" a \");\n        log(out, \" b \");\n    }\n}\n";
        crate::tests::check_workspace_refused(
            &[("p/A.java", a)],
            |ctx, w| {
                method(
                    ctx,
                    &resolve_target(w, "p.A#log(java.lang.StringBuilder,java.lang.String)").expect("target"),
                    None,
                )
            },
            "p.A#log(java.lang.StringBuilder,java.lang.String) not inlined: 1 call(s) cannot take the body: p/A.java: line 11: the body declares `t`, a name the calling code already uses",
        );
    }
}
