//! `rename`: a local variable or parameter (from the syntax of its method alone), a type,
//! method or field with its override family and every reference the index finds (a public
//! top-level type's file with it), or a package (its files' declarations, qualified names and
//! imports, its directories in every source and resource root of the module). The syntax
//! halves are [`syntax`] (the edits at declarations and occurrences) and [`package`].

mod kotlin;
pub mod package;
pub mod syntax;
mod unbound;

use std::path::PathBuf;

use mji_xref::target::{Target, kind_name, name_of_key};
use mji_xref::world::World;
use mji_xref::{Category, Confidence, RefKind};

use crate::actions::ActionError;
use crate::ctx::{Ctx, Outcome};
use crate::{Doc, WorkspaceEdit};
use syntax::Occurrence;

/// The most `likely` references an answer lists.
const MAX_LIKELY: usize = 50;

/// Renames the type, method or field `target` to `new` at every declaration of its family
/// (overriders, a record component's accessor and constructor parameter) and every reference
/// (`likely` ones too with `include_likely`); a public top-level type's file moves with it.
pub fn member(ctx: &dyn Ctx, target: &Target, new: &str, include_likely: bool) -> Result<Outcome, ActionError> {
    // A name given without parameter types that several overloads have: which one is meant is
    // asked, as safe_delete asks (renaming them all was silent).
    if target.category == Category::Method && target.keys.len() > 1 {
        let shown: Vec<&str> = target.keys.iter().take(10).map(String::as_str).collect();
        return Err(ActionError::Refused(format!(
            "{} names {} overloads: {}{}; name one with its parameter types (`Owner#name(int,String)`)",
            target.keys[0].split('(').next().unwrap_or(&target.label),
            target.keys.len(),
            shown.join(", "),
            if target.keys.len() > 10 { ", …" } else { "" }
        )));
    }
    let (w, scope) = ctx.world();
    let family = mji_xref::rename::rename_family(&w, target).map_err(ActionError::Refused)?;
    let old = match target.category {
        Category::Type => target.keys[0].rsplit('.').next().unwrap_or_default().to_owned(),
        _ => name_of_key(&target.keys[0]),
    };
    if old == new {
        return Err(ActionError::Refused(format!("{} is already named {new}", target.label)));
    }
    let mut conflicts = mji_xref::rename::rename_conflicts(&w, &family, new);
    // A type's references are type uses and constructor calls (`new T()`, `T::new`).
    let mut searches = vec![family.target.clone()];
    if target.category == Category::Type {
        let mut ctors = family.target.clone();
        ctors.category = Category::Ctor;
        ctors.keys.retain(|k| k.contains('#'));
        searches[0].keys.retain(|k| !k.contains('#'));
        if !ctors.keys.is_empty() {
            searches.push(ctors);
        }
    }
    // A record component's accessor calls are method references.
    if target.category == Category::Field && family.target.keys.iter().any(|k| k.contains('(')) {
        let mut accessor = family.target.clone();
        accessor.category = Category::Method;
        accessor.keys.retain(|k| k.contains('('));
        searches[0].keys.retain(|k| !k.contains('('));
        searches.push(accessor);
    }
    let mut occurrences = Vec::new();
    let mut likely = Vec::new();
    let mut unbound = Vec::new();
    // An unqualified call (its receiver is `this`, known) left likely between overloads that
    // are all in the family renames with it: whichever javac picks gets the new name
    // (`copyInto(boxed, 0)` in java.base's Node.OfPrimitive, whose copyInto(T[],int) and
    // copyInto(T_ARR,int) one family holds since EmptyNode's copyInto(T_ARR,int) implements
    // both).
    let in_family = |r: &mji_xref::Ref| {
        if r.category != Category::Method
            || r.targets.is_empty()
            || !r.targets.iter().all(|k| family.target.keys.contains(k))
            || r.within & mji_xref::WITHIN_CLASS != 0
        {
            return false;
        }
        // Every method of the name the caller's class has (declared or inherited) is in the
        // family, so javac's pick is too.
        let Some(owner) = r.caller.as_ref().and_then(|c| c.key.split_once('#')).map(|(o, _)| o) else {
            return false;
        };
        if w.workspace_type(owner).is_none() {
            return false;
        }
        let (hits, complete) = w.find_methods(&mji_xref::ty::Ty::class(owner), &old);
        complete && !hits.is_empty() && hits.iter().all(|h| family.target.keys.contains(&w.method_key(h.owner, h.decl)))
    };
    for t in &searches {
        let found = ctx.references(&w, &scope, t);
        unbound.extend(found.unbound);
        for (p, refs) in found.hits {
            let doc = if refs.iter().any(|(r, _)| r.confidence == Confidence::Likely && in_family(r)) {
                ctx.read(&p).ok()
            } else {
                None
            };
            let unqualified = |r: &mji_xref::Ref| {
                doc.as_ref().and_then(|d| d.offset(r.line, r.column)).is_some_and(|o| {
                    let before = d_text(doc.as_ref(), o);
                    !before.trim_end().ends_with('.')
                })
            };
            for (r, _) in refs {
                if r.confidence == Confidence::Likely && !include_likely && !(in_family(&r) && unqualified(&r)) {
                    likely.push(format!("{}:{}:{}", ctx.display(&p), r.line, r.column));
                    continue;
                }
                occurrences.push(Occurrence {
                    path: p.clone(),
                    line: r.line,
                    column: r.column,
                    nameless: matches!(r.kind, RefKind::ThisCall | RefKind::SuperCall),
                });
            }
        }
    }
    conflicts.extend(ctx.unbound_mentions(unbound, &old, "references"));
    // Kotlin: renamed where it writes the name, refused where it writes another.
    conflicts.extend(kotlin::check(ctx, &target.label, &family.decls, &occurrences, &scope, &old, target.category)?);
    if target.category == Category::Method {
        conflicts.extend(unbound::conflict(&unbound::unbound_calls(ctx, &w, &scope, &old), &old));
    }
    let mut r = syntax::rename_edits(&family.decls, &occurrences, &old, new, target.category == Category::Field, ctx)?;
    conflicts.extend(r.conflicts);
    // A record component: the canonical constructor's parameter too.
    if target.category == Category::Field
        && family.target.keys.iter().any(|k| k.contains('('))
        && let Some(d) = family.decls.first()
    {
        let doc = ctx.read(&d.path)?;
        let edits = syntax::record_constructor_params(&doc, d.line, &old, new);
        if !edits.is_empty() {
            let mut f = doc.edit();
            f.edits = edits;
            r.edit.add(f);
        }
    }
    let mut warnings = family.warnings;
    warnings.extend(r.skipped);
    // A Lombok field: the calls of its generated accessors, builder methods and `withX` take
    // the names Lombok gives them for the new field (`getName()` → `getFullName()`); refused
    // when one would no longer be generated.
    let mut carried = Vec::new();
    if target.category == Category::Field {
        let renames = mji_xref::rename::lombok_renames(&w, &|p| ctx.xref().lombok_config(p), &target.keys[0], new)
            .map_err(ActionError::Refused)?;
        for a in renames {
            let found = ctx.references(&w, &scope, &a.target);
            conflicts.extend(ctx.unbound_mentions(found.unbound, &a.old, "references"));
            let mut occ = Vec::new();
            for (p, refs) in found.hits {
                for (ref_, _) in refs {
                    if ref_.confidence == Confidence::Likely && !include_likely {
                        likely.push(format!("{}:{}:{}", ctx.display(&p), ref_.line, ref_.column));
                        continue;
                    }
                    occ.push(Occurrence { path: p.clone(), line: ref_.line, column: ref_.column, nameless: false });
                }
            }
            if occ.is_empty() {
                continue;
            }
            let done = syntax::rename_edits(&[], &occ, &a.old, &a.new, false, ctx)?;
            r.references += done.references;
            warnings.extend(done.skipped);
            conflicts.extend(done.conflicts);
            r.edit.merge(done.edit);
            carried.push(format!("{} → {} ({})", a.old, a.new, done.references));
        }
    }
    // A public top-level type named like its file moves to the new name's file.
    if target.category == Category::Type
        && let Some(id) = w.by_fqn(&target.keys[0])
        && w.decl(id).outer.is_none()
    {
        let path = w.files[w.file_of(id) as usize].path.clone();
        // A Kotlin file is not named by its class (its facade `FooKt` is by the file).
        if path.file_stem().and_then(|s| s.to_str()) == Some(old.as_str()) && !kotlin::is_kotlin(&path) {
            let to = path.with_file_name(format!("{new}.java"));
            if to.exists() {
                conflicts.push(format!("{} already exists", ctx.display(&to)));
            } else {
                let doc = ctx.read(&path)?;
                let mut f = doc.edit();
                f.move_to = Some((to.clone(), display_moved(&ctx.display(&path), new)));
                r.edit.add(f);
            }
        }
    }
    // A view or configuration file that names the type by its qualified name (Spring XML's
    // `<bean class="…">`) loads it by that name: it gets the new one.
    if target.category == Category::Type
        && let Some(prefix) = target.keys[0].strip_suffix(old.as_str())
    {
        let new_fqn = format!("{prefix}{new}");
        warnings.extend(requalify_in_text(ctx, target, &target.keys[0], &new_fqn, &mut r.edit)?);
    }
    let more = likely.len().saturating_sub(MAX_LIKELY);
    likely.truncate(MAX_LIKELY);
    if more > 0 {
        likely.push(format!("… and {more} more"));
    }
    let mut summary = format!(
        "rename {} ({}) to {new}: {} declaration{}, {} reference{}",
        target.label,
        kind_name(target.category),
        r.declarations,
        if r.declarations == 1 { "" } else { "s" },
        r.references,
        if r.references == 1 { "" } else { "s" },
    );
    if !carried.is_empty() {
        summary.push_str(&format!("; Lombok's accessors' calls renamed with it: {}", carried.join(", ")));
    }
    Ok(Outcome { edit: r.edit, summary, conflicts, warnings, likely, ambiguous: Vec::new() })
}

/// The lines of view and configuration files (`ctx.text_uses`: Spring XML, properties, JSP…)
/// that spell the type `target` by its qualified name `old` take `new` there, as a nested
/// type's name after it (`old.Inner`, `old$Inner`) does: the framework loads the class by that
/// name, and javac does not see it (spring-framework-petclinic's tools-config.xml names
/// `….util.CallMonitoringAspect`; a rename left it, and the application no longer starts).
/// Says what it changed, and that lines past the listed ones were not.
pub(crate) fn requalify_in_text(
    ctx: &dyn Ctx,
    target: &Target,
    old: &str,
    new: &str,
    edit: &mut WorkspaceEdit,
) -> Result<Vec<String>, ActionError> {
    let (total, at) = ctx.text_uses(target, usize::MAX);
    let mut files: Vec<String> = at.iter().filter_map(|a| a.rsplit_once(':').map(|x| x.0.to_owned())).collect();
    files.sort();
    files.dedup();
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut changed = Vec::new();
    for f in &files {
        let Some(path) = ctx.path_of(f) else { continue };
        let doc = ctx.read(&path)?;
        let text = doc.text();
        let mut fe = doc.edit();
        for (i, _) in text.match_indices(old) {
            let before = text[..i].chars().next_back();
            let after = text[i + old.len()..].chars().next();
            if before.is_some_and(|c| ident(c) || c == '.' || c == '$') || after.is_some_and(ident) {
                continue;
            }
            fe.edits.push(crate::TextEdit { start: i, end: i + old.len(), text: new.to_owned() });
            changed.push(format!("{f}:{}", doc.line_of(i)));
        }
        if !fe.edits.is_empty() {
            edit.add(fe);
        }
    }
    let mut warnings = Vec::new();
    if !changed.is_empty() {
        warnings.push(format!(
            "{} qualified name(s) in view or configuration files changed with it: {}",
            changed.len(),
            changed.join(", ")
        ));
    }
    if total as usize > at.len() {
        warnings.push(format!(
            "{} more line(s) of view or configuration files name it and were not changed (check them)",
            total as usize - at.len()
        ));
    }
    Ok(warnings)
}

/// Renames (moves) a package as an IDE does: its files' package declarations, every
/// qualified reference to its types and `import old.*`; its directory in every source and
/// resource root of the module (Maven/Gradle `src/*/java` and `src/*/resources`), other
/// files with it; with `subpackages`, each subpackage the same way.
pub fn package(ctx: &dyn Ctx, old: &str, new: &str, subpackages: bool) -> Result<Outcome, ActionError> {
    let (w, scope) = ctx.world();
    let mut acc = package::rename_package(ctx, &w, &scope, old, new, subpackages)?;
    let packages = std::mem::take(&mut acc.packages);
    // What names the packages outside Java code: module-info.java and service files changed,
    // the rest listed (before the resources move, so their files are still where they are).
    let renames: Vec<(String, String)> =
        packages.iter().map(|p| (p.clone(), format!("{new}{}", &p[old.len()..]))).collect();
    let elsewhere = package::named_elsewhere(ctx, &mut acc.edit, &acc.bases, &renames)?;
    if !elsewhere.not_changed.is_empty() {
        let n = elsewhere.not_changed.len();
        let shown: Vec<String> = elsewhere.not_changed.iter().take(20).cloned().collect();
        acc.warnings.push(format!(
            "{n} line(s) of non-Java files name the package and were not changed (check them): {}{}",
            shown.join(", "),
            if n > 20 { ", …" } else { "" }
        ));
    }
    let others = move_package_files(ctx, old, new, subpackages, &mut acc)?;
    acc.conflicts.extend(ctx.unbound_conflict(std::mem::take(&mut acc.unbound), 5));
    let mut summary = format!(
        "rename package {old} to {new}: {} files moved, {} qualified names and imports",
        acc.moved, acc.references
    );
    if packages.len() > 1 {
        summary.push_str(&format!(", {} packages", packages.len()));
    }
    if others > 0 {
        summary.push_str(&format!(", {others} other files (resources) moved"));
    }
    if elsewhere.changed > 0 {
        summary.push_str(&format!(", {} module-info/service file(s) updated", elsewhere.changed));
    }
    Ok(Outcome { edit: acc.edit, summary, conflicts: acc.conflicts, warnings: acc.warnings, ..Outcome::default() })
}

/// The files of the package's directories that are not its Java sources — resources beside
/// them, the same package path under the module's other source and resource roots — moved
/// with it (every level below with `subpackages`). Returns how many.
fn move_package_files(
    ctx: &dyn Ctx,
    old: &str,
    new: &str,
    subpackages: bool,
    acc: &mut package::PackageMove,
) -> Result<usize, ActionError> {
    let mut roots: std::collections::BTreeSet<PathBuf> = acc.bases.clone();
    // The build's own roots of the module (a pom's `sourceDirectory`, Gradle source sets).
    for base in &acc.bases {
        roots.extend(ctx.module_roots(base));
    }
    roots.extend(package::module_source_dirs(&acc.bases));
    let found = package::move_package_files(&mut acc.edit, &roots, old, new, subpackages, ctx)?;
    acc.warnings.extend(found.warnings);
    acc.conflicts.extend(found.conflicts);
    Ok(found.moved)
}

/// Whether `line` of `doc` declares a type, method, constructor or field.
pub fn declares_member_on(ctx: &dyn Ctx, doc: &Doc, line: u32) -> bool {
    let (w, _) = ctx.world();
    mji_xref::target::target_at(ctx.xref(), &w, &doc.path, line, None)
        .is_ok_and(|t| t.decls.iter().any(|(p, l)| *l == line && **p == *doc.path))
}

/// Renames the local variable or parameter at `line` (`column`) of `doc`, if one is named
/// there (with a column: the name at it; without: the first local declared on the line).
pub fn local(doc: &Doc, line: u32, column: u32, new: &str) -> Option<Outcome> {
    let starts: Vec<usize> = if column > 0 {
        doc.offset(line, column).into_iter().collect()
    } else {
        // Each identifier's start on the line.
        let start = doc.offset(line, 1)?;
        let text = doc.src.lines.line_text(doc.text(), line);
        let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
        text.char_indices()
            .filter(|(i, c)| is_ident(*c) && !text[..*i].chars().last().is_some_and(is_ident))
            .map(|(i, _)| start + i)
            .collect()
    };
    for at in starts {
        let Some(l) = crate::locals::rename_local(doc, at, new) else { continue };
        if column == 0 && !l.edits.iter().any(|e| doc.line_of(e.start) == line) {
            continue;
        }
        let n = l.edits.len();
        let summary = format!("rename {} {} to {new}: {n} occurrence{}", l.what, l.old, if n == 1 { "" } else { "s" });
        let mut edit = WorkspaceEdit::default();
        let mut f = doc.edit();
        f.edits = l.edits;
        edit.add(f);
        return Some(Outcome { edit, summary, conflicts: l.conflicts, ..Outcome::default() });
    }
    None
}

/// Whether `spec` names a package of the workspace (and no type): a package of its files, or
/// with `subpackages` a prefix of one.
pub fn names_package(w: &World, spec: &str, subpackages: bool) -> bool {
    let sub = format!("{spec}.");
    !spec.is_empty()
        && w.by_fqn(spec).is_none()
        && w.files.iter().any(|f| &*f.decls().package == spec || (subpackages && f.decls().package.starts_with(&sub)))
}

/// A moved file's display path: the same directory, the new name.
fn display_moved(display: &str, new: &str) -> String {
    match display.rsplit_once('/') {
        Some((dir, _)) => format!("{dir}/{new}.java"),
        None => format!("{new}.java"),
    }
}

/// The text of `doc` before byte `at` (empty without a document).
fn d_text(doc: Option<&crate::Doc>, at: usize) -> &str {
    doc.map_or("", |d| d.text().get(..at).unwrap_or(""))
}

#[cfg(test)]
mod cases {
    use super::{local, member, package};
    use crate::ctx::Ctx;
    use crate::tests::{check, check_refused, check_workspace, check_workspace_refused};
    use expect_test::expect;
    use mji_xref::target::resolve_target;

    const A: &str =
        "package p;\n\npublic class A {\n    int count;\n\n    int next() {\n        return count + 1;\n    }\n}\n";
    const USER: &str =
        "package q;\n\nimport p.A;\n\nclass User {\n    int f(A a) {\n        return a.next() + a.count;\n    }\n}\n";

    #[test]
    fn a_local_and_its_uses() {
        check(
            |_, doc, line, column| {
                local(doc, line, column, "total").ok_or_else(|| crate::actions::ActionError::Refused("no local".into()))
            },
            "class A {\n    int f(int a) {\n        int $0sum = a + 1;\n        return sum * sum;\n    }\n}\n",
            expect![[r#"
                class A {
                    int f(int a) {
                        int total = a + 1;
                        return total * total;
                    }
                }
            "#]],
        );
    }

    #[test]
    fn a_field_and_its_references_in_other_files() {
        check_workspace(
            &[("p/A.java", A), ("q/User.java", USER)],
            |ctx, w| member(ctx, &resolve_target(w, "p.A#count").expect("target"), "size", false),
            expect![[r#"
                --- p/A.java
                package p;

                public class A {
                    int size;

                    int next() {
                        return size + 1;
                    }
                }
                --- q/User.java
                package q;

                import p.A;

                class User {
                    int f(A a) {
                        return a.next() + a.size;
                    }
                }
            "#]],
        );
    }

    /// spring-framework-petclinic's tools-config.xml creates `<bean class="….CallMonitoringAspect"/>`:
    /// a rename of the class left it, and the application no longer started. The qualified
    /// name there (a nested type's after it too) follows; a longer name it begins is not it.
    #[test]
    fn a_qualified_name_in_a_configuration_file_follows_a_type_s_rename_and_move() {
        let aspect = "package p.util;\n\npublic class Aspect {\n}\n";
        let xml = "<beans>\n    <bean class=\"p.util.Aspect\"/>\n    <bean class=\"p.util.Aspect$Inner\"/>\n    <bean class=\"p.util.AspectFactory\"/>\n</beans>\n";
        let ctx = crate::tests::TestCtx::new(&[("p/util/Aspect.java", aspect), ("spring/tools.xml", xml)])
            .with_text_use("p.util.Aspect", "spring/tools.xml:2")
            .with_text_use("p.util.Aspect", "spring/tools.xml:3");
        let (w, _) = ctx.world();
        let target = resolve_target(&w, "p.util.Aspect").expect("target");
        let xml_after = |o: &crate::ctx::Outcome| {
            let plan = o.edit.clone().plan().expect("plan");
            let f = plan.files.iter().find(|f| f.display == "spring/tools.xml").expect("the XML is edited");
            String::from_utf8_lossy(&f.new).into_owned()
        };
        let o = member(&ctx, &target, "Monitor", false).expect("renamed");
        assert_eq!(
            xml_after(&o),
            "<beans>\n    <bean class=\"p.util.Monitor\"/>\n    <bean class=\"p.util.Monitor$Inner\"/>\n    <bean class=\"p.util.AspectFactory\"/>\n</beans>\n"
        );
        assert!(
            o.warnings.iter().any(|x| x.contains("2 qualified name(s)") && x.contains("spring/tools.xml:2")),
            "{:?}",
            o.warnings
        );
        let o = crate::actions::r#move::run(&ctx, &target, "p.moved").expect("moved");
        assert!(xml_after(&o).contains("<bean class=\"p.moved.Aspect\"/>"), "{}", xml_after(&o));
    }

    #[test]
    fn a_public_type_moves_its_file_and_its_imports_follow() {
        check_workspace(
            &[("p/A.java", A), ("q/User.java", USER)],
            |ctx, w| member(ctx, &resolve_target(w, "p.A").expect("target"), "Counter", false),
            expect![[r#"
                --- p/A.java -> p/Counter.java
                package p;

                public class Counter {
                    int count;

                    int next() {
                        return count + 1;
                    }
                }
                --- q/User.java
                package q;

                import p.Counter;

                class User {
                    int f(Counter a) {
                        return a.next() + a.count;
                    }
                }
            "#]],
        );
    }

    #[test]
    fn a_package_moves_its_files_and_requalifies_its_names() {
        check_workspace(
            &[("p/A.java", A), ("q/User.java", USER)],
            |ctx, _| package(ctx, "p", "counting", false),
            expect![[r#"
                --- p/A.java -> counting/A.java
                package counting;

                public class A {
                    int count;

                    int next() {
                        return count + 1;
                    }
                }
                --- q/User.java
                package q;

                import counting.A;

                class User {
                    int f(A a) {
                        return a.next() + a.count;
                    }
                }
            "#]],
        );
    }

    #[test]
    fn the_same_name_is_refused() {
        check_refused(
            |ctx, _, _, _| {
                let (w, _) = ctx.world();
                member(ctx, &resolve_target(&w, "A#f(int)").expect("target"), "f", false)
            },
            "class A {\n    $0int f(int a) {\n        return a;\n    }\n}\n",
            "A#f(int) is already named f",
        );
    }

    /// Issue 53, item 10: a method named without parameter types that several overloads have is
    /// refused, naming them (every overload was renamed silently).
    #[test]
    fn an_overloaded_name_without_parameter_types_is_asked_which() {
        check_refused(
            |ctx, _, _, _| {
                let (w, _) = ctx.world();
                member(ctx, &resolve_target(&w, "A#f").expect("target"), "g", false)
            },
            "class A {\n    $0int f(int a) {\n        return a;\n    }\n\n    int f() {\n        return 0;\n    }\n}\n",
            "A#f names 2 overloads: A#f(int), A#f(); name one with its parameter types (`Owner#name(int,String)`)",
        );
    }

    const SQUARE: &str = "package s;\n\npublic class Square {\n    double side;\n\n    public void grow(double by) {\n        double size = side + by;\n        side = size;\n    }\n\n    public double area() {\n        return side * side;\n    }\n\n    public double edge() {\n        return side;\n    }\n\n    @Override\n    public String toString() {\n        return \"Square(\" + side + \")\";\n    }\n}\n";

    /// A field renamed to the name of a local that reads it would capture its uses there.
    #[test]
    fn a_field_renamed_to_a_local_s_name_is_a_conflict() {
        check_workspace(
            &[("s/Square.java", SQUARE)],
            |ctx, w| member(ctx, &resolve_target(w, "s.Square#side").expect("target"), "size", false),
            expect![[r#"
                --- s/Square.java
                package s;

                public class Square {
                    double size;

                    public void grow(double by) {
                        double size = size + by;
                        size = size;
                    }

                    public double area() {
                        return size * size;
                    }

                    public double edge() {
                        return size;
                    }

                    @Override
                    public String toString() {
                        return "Square(" + size + ")";
                    }
                }
                conflict: s/Square.java:7: the local `size` declared at line 7 would capture this reference
                conflict: s/Square.java:8: the local `size` declared at line 7 would capture this reference
            "#]],
        );
    }

    /// A method renamed to the name of a method of the same parameters clashes with it.
    #[test]
    fn a_method_renamed_to_a_sibling_s_signature_is_a_conflict() {
        check_workspace(
            &[("s/Square.java", SQUARE)],
            |ctx, w| member(ctx, &resolve_target(w, "s.Square#edge()").expect("target"), "area", false),
            expect![[r#"
                --- s/Square.java
                package s;

                public class Square {
                    double side;

                    public void grow(double by) {
                        double size = side + by;
                        side = size;
                    }

                    public double area() {
                        return side * side;
                    }

                    public double area() {
                        return side;
                    }

                    @Override
                    public String toString() {
                        return "Square(" + side + ")";
                    }
                }
                conflict: s.Square#edge() would clash with s.Square#area(), which has the same parameters
            "#]],
        );
    }

    /// Renaming an override of a library method (here `Object#toString()`) would break it.
    #[test]
    fn an_override_of_a_library_method_is_refused() {
        check_workspace_refused(
            &[("s/Square.java", SQUARE)],
            |ctx, w| member(ctx, &resolve_target(w, "s.Square#toString()").expect("target"), "show", false),
            "s.Square#toString() overrides java.lang.Object#toString(), which is outside the workspace and cannot be renamed; renaming it would break the override",
        );
    }

    /// A package-private method is overridden only from its own package (JLS 8.4.8.1): the
    /// rename of `pa.Base#run()` reaches `pa.Near`'s, not `pb`'s methods of that name.
    #[test]
    fn a_package_private_method_s_family_stays_in_its_package() {
        let access: &[(&str, &str)] = &[
            ("pa/Base.java", include_str!("../../../../../tests/edit_fixtures/access/pa/Base.java")),
            ("pa/Near.java", include_str!("../../../../../tests/edit_fixtures/access/pa/Near.java")),
            ("pb/Far.java", include_str!("../../../../../tests/edit_fixtures/access/pb/Far.java")),
            ("pb/Other.java", include_str!("../../../../../tests/edit_fixtures/access/pb/Other.java")),
        ];
        check_workspace(
            access,
            |ctx, w| member(ctx, &resolve_target(w, "pa.Base#run()").expect("target"), "start", false),
            expect![[r#"
                --- pa/Base.java
                package pa;

                /** A class with a package-private method: only classes of package pa can override it. */
                public class Base {
                    void start() {
                        System.out.println("base");
                    }

                    public void go() {
                        start();
                    }
                }
                --- pa/Near.java
                package pa;

                /** In Base's package: its run() overrides Base's. */
                public class Near extends Base {
                    @Override
                    void start() {
                        System.out.println("near");
                    }
                }
            "#]],
        );
    }

    /// tests/edit_fixtures/families: override families through anonymous, local and enum
    /// constant classes, and type variables substituted by subtypes.
    const FAMILIES: &[(&str, &str)] = &[
        ("fam/Appender.java", include_str!("../../../../../tests/edit_fixtures/families/fam/Appender.java")),
        ("fam/Out.java", include_str!("../../../../../tests/edit_fixtures/families/fam/Out.java")),
        ("fam/StringOut.java", include_str!("../../../../../tests/edit_fixtures/families/fam/StringOut.java")),
        ("fam/Attrs.java", include_str!("../../../../../tests/edit_fixtures/families/fam/Attrs.java")),
        ("fam/Conc.java", include_str!("../../../../../tests/edit_fixtures/families/fam/Conc.java")),
        ("fam/Files.java", include_str!("../../../../../tests/edit_fixtures/families/fam/Files.java")),
        ("fam/IntNode.java", include_str!("../../../../../tests/edit_fixtures/families/fam/IntNode.java")),
        ("fam/Node.java", include_str!("../../../../../tests/edit_fixtures/families/fam/Node.java")),
        ("fam/Op.java", include_str!("../../../../../tests/edit_fixtures/families/fam/Op.java")),
        ("fam/Sink.java", include_str!("../../../../../tests/edit_fixtures/families/fam/Sink.java")),
        ("fam/Sized.java", include_str!("../../../../../tests/edit_fixtures/families/fam/Sized.java")),
    ];

    /// tests/edit_fixtures/anon: calls on the results of an anonymous class's own methods.
    const ANON: &[(&str, &str)] = &[
        ("anon/Adapter.java", include_str!("../../../../../tests/edit_fixtures/anon/anon/Adapter.java")),
        ("anon/Factory.java", include_str!("../../../../../tests/edit_fixtures/anon/anon/Factory.java")),
        ("anon/Source.java", include_str!("../../../../../tests/edit_fixtures/anon/anon/Source.java")),
        ("anon/Unrelated.java", include_str!("../../../../../tests/edit_fixtures/anon/anon/Unrelated.java")),
    ];

    /// The files of `sources` after the rename of `target` to `new` (unrefused, with no
    /// conflict and no likely reference), by path.
    fn renamed(sources: &[(&str, &str)], target: &str, new: &str) -> std::collections::HashMap<String, String> {
        let ctx = crate::tests::TestCtx::new(sources);
        let (w, _) = crate::ctx::Ctx::world(&ctx);
        let o = member(&ctx, &resolve_target(&w, target).expect("target"), new, false)
            .unwrap_or_else(|e| panic!("{target}: {e}"));
        assert!(o.conflicts.is_empty() && o.likely.is_empty(), "{target}: {:?} {:?}", o.conflicts, o.likely);
        let plan = o.edit.plan().expect("plan");
        let mut out: std::collections::HashMap<String, String> =
            sources.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect();
        for f in &plan.files {
            out.insert(f.display.clone(), String::from_utf8_lossy(&f.new).into_owned());
        }
        out
    }

    /// The anonymous Attrs and the local class Sized implement size(): both renamed.
    #[test]
    fn a_rename_reaches_overriders_in_anonymous_and_local_classes() {
        let files = &renamed(FAMILIES, "fam.Attrs#size()", "length")["fam/Files.java"];
        assert!(!files.contains("size()"), "{files}");
    }

    /// Issue 53 (java.base's `StringWriter#append(CharSequence,int,int)`, 100-pick proof): the
    /// anonymous class in `Out.nullOut()` overrides the method `Out` and `Appender` both
    /// declare; its reference names both, and is exact (it was `likely`, left unrenamed, and
    /// the build broke on its `@Override`).
    #[test]
    fn a_rename_reaches_an_anonymous_override_of_two_family_members() {
        let out = renamed(FAMILIES, "fam.StringOut#append(java.lang.CharSequence,int,int)", "add");
        assert!(!out["fam/Out.java"].contains("public Out append(CharSequence"), "{}", out["fam/Out.java"]);
        assert!(out["fam/Appender.java"].contains("Appender add(CharSequence c, int start, int end)"));
        assert!(out["fam/StringOut.java"].contains("s.add(\"x\", 0, 1).append('y')"), "{}", out["fam/StringOut.java"]);
    }

    /// Issue 53 (java.base's `AbstractCollection#toArray(Object[])`, 100-pick proof): a call of
    /// the name the binder bound to nothing (a receiver it cannot type, among more methods of
    /// the name than it guesses between) is a conflict naming it, never left in silence.
    #[test]
    fn a_call_of_the_name_bound_to_nothing_is_a_conflict() {
        let mut files: Vec<(String, String)> = (1..=9)
            .map(|i| (format!("u/A{i}.java"), format!("package u;\npublic class A{i} {{\n    public Object[] toArr(Object[] a) {{\n        return a;\n    }}\n}}\n")))
            .collect();
        files.push((
            "u/Use.java".into(),
            "package u;\nclass Use {\n    Object[] f(A1 a) {\n        return a.toArr(new Object[0]);\n    }\n    Object[] g() {\n        return Missing.get().toArr(new Object[0]);\n    }\n}\n".into(),
        ));
        let sources: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
        let ctx = crate::tests::TestCtx::new(&sources);
        let (w, _) = crate::ctx::Ctx::world(&ctx);
        let o = member(&ctx, &resolve_target(&w, "u.A1#toArr(java.lang.Object[])").expect("target"), "toArray", false)
            .expect("rename");
        assert_eq!(o.conflicts.len(), 1, "{:?}", o.conflicts);
        assert!(o.conflicts[0].starts_with("1 call of toArr could not be bound"), "{:?}", o.conflicts);
        assert!(o.conflicts[0].ends_with("u/Use.java:7:30"), "{:?}", o.conflicts);
    }

    /// Enum constant bodies override their enum's abstract method.
    #[test]
    fn a_rename_reaches_enum_constant_bodies() {
        let op = &renamed(FAMILIES, "fam.Op#apply(int,int)", "eval")["fam/Op.java"];
        assert!(!op.contains("apply("), "{op}");
    }

    /// A superclass's method that implements the interface only in a subclass (Impl extends
    /// Base implements Sized): Base#estimate() moves with Sized#estimate().
    #[test]
    fn a_rename_reaches_a_superclass_method_a_subclass_makes_an_implementation() {
        let sized = &renamed(FAMILIES, "fam.Sized#estimate()", "guess")["fam/Sized.java"];
        assert!(sized.contains("public long guess()") && sized.contains("s.guess() + i.guess()"), "{sized}");
    }

    /// An anonymous class of a parameterized supertype: accept(String) overrides accept(T).
    #[test]
    fn a_rename_reaches_an_anonymous_override_of_a_substituted_method() {
        let files = &renamed(FAMILIES, "fam.Sink#accept(java.lang.Object)", "take")["fam/Files.java"];
        assert!(
            files.contains("public void take(String s)") && files.contains("accept(String s, int times)"),
            "{files}"
        );
    }

    /// copyInto(T_ARR,int) of OfPrimitive is overridden by copyInto(int[],int) and by
    /// Conc.OfPrimitive's; Node's copyInto(T[],int) (overridden by OfInt's
    /// copyInto(Integer[],int)) keeps its name.
    #[test]
    fn a_rename_of_a_substituted_override_leaves_the_other_overload_family() {
        let out = renamed(FAMILIES, "fam.Node.OfPrimitive#copyInto(java.lang.Object,int)", "copyPrimitive");
        let uses = &out["fam/IntNode.java"];
        assert!(uses.contains("boxed.copyInto(new Integer[4], 0)"), "{uses}");
        assert!(
            uses.contains("n.copyPrimitive(new int[4], 0)") && uses.contains("n.copyInto(new Integer[4], 0)"),
            "{uses}"
        );
        assert!(out["fam/Conc.java"].contains("left.copyPrimitive(array, offset)"));
    }

    /// And the other way: Node's family moves, OfPrimitive's stays.
    #[test]
    fn a_rename_of_the_boxed_overload_leaves_the_primitive_family() {
        let node = &renamed(FAMILIES, "fam.Node#copyInto(java.lang.Object[],int)", "copyBoxed")["fam/Node.java"];
        assert!(node.contains("void copyInto(T_ARR array, int offset)") && node.contains("copyInto(a, 0)"), "{node}");
        assert!(node.contains("default void copyBoxed(Integer[] boxed, int offset)"), "{node}");
    }

    /// Issue 53, item 1: the calls on the results of an anonymous class's own methods
    /// (`delegate().write(out, value)`, in generic, diamond and nested anonymous classes).
    #[test]
    fn a_rename_reaches_calls_on_an_anonymous_class_s_own_method_results() {
        let factory = &renamed(ANON, "anon.Adapter#write(Writer, Object)", "put")["anon/Factory.java"];
        for call in ["delegate().put(out, value)", "delegate().nullSafe().put(out, value)", "inner().put(out, pick())"]
        {
            assert!(factory.contains(call), "{call} missing:\n{factory}");
        }
        assert!(!factory.contains("().write("), "a call left unrenamed:\n{factory}");
        // The `Writer`'s own `write` stays.
        assert!(factory.contains("out.write(value.name())"), "{factory}");
    }

    /// tests/edit_fixtures/src: `shapes` and the `app` that uses it, qualified and imported.
    const SHAPES: &[(&str, &str)] = &[
        ("app/Main.java", include_str!("../../../../../tests/edit_fixtures/src/app/Main.java")),
        ("shapes/Circle.java", include_str!("../../../../../tests/edit_fixtures/src/shapes/Circle.java")),
        ("shapes/Point.java", include_str!("../../../../../tests/edit_fixtures/src/shapes/Point.java")),
        ("shapes/Shape.java", include_str!("../../../../../tests/edit_fixtures/src/shapes/Shape.java")),
        ("shapes/Square.java", include_str!("../../../../../tests/edit_fixtures/src/shapes/Square.java")),
    ];

    /// A package renamed to a nested name: its four files move, their `package` lines, the
    /// imports and the qualified names of its types follow.
    #[test]
    fn a_package_renamed_to_a_nested_name_moves_and_requalifies() {
        let ctx = crate::tests::TestCtx::new(SHAPES);
        let o = package(&ctx, "shapes", "geo.plane", false).expect("renamed");
        assert!(o.summary.starts_with("rename package shapes to geo.plane: 4 files moved"), "{}", o.summary);
        let plan = o.edit.plan().expect("plan");
        let moved: Vec<String> =
            plan.files.iter().filter_map(|f| f.move_to.as_ref().map(|(_, to)| to.clone())).collect();
        assert_eq!(
            moved,
            ["geo/plane/Circle.java", "geo/plane/Point.java", "geo/plane/Shape.java", "geo/plane/Square.java"]
        );
        let text = |display: &str| {
            let f = plan.files.iter().find(|f| f.display == display).unwrap_or_else(|| panic!("{display} not edited"));
            String::from_utf8_lossy(&f.new).into_owned()
        };
        let main = text("app/Main.java");
        assert!(main.contains("import geo.plane.Circle;"), "{main}");
        assert!(main.contains("new geo.plane.Point.Tag(\"top\", 1)"), "{main}");
        assert!(text("shapes/Circle.java").starts_with("package geo.plane;"));
    }
}
