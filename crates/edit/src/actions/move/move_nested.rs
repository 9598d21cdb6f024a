//! `move` of a static nested type (declared `static`, or implicitly: an interface, enum or
//! record) to another class: its declaration (javadoc and annotations with it) cut from its
//! class and added at the end of the destination's body, its own code carried as a static
//! member's is ([`crate::move_member::carry`]); every use follows: `Old.Nested` and
//! `a.Old.Nested` become `New.Nested` and `b.New.Nested`, imports (static ones and those of
//! its members or member types too) are rewritten, a simple name that saw it through the old
//! class (inside it, a subclass, `import a.Old.*`) gets an import, and inside the new class
//! the qualifier goes. Refused, before anything is written, for an inner class, a name clash
//! in the destination, and access the move would break.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::Arc;

use mji_model::TypeKind;
use mji_parser::kind;
use mji_xref::world::{TypeId, World};
use mji_xref::{Category, RefKind};

use super::move_member::{
    Access, Carry, Sides, Speller, Texts, access_holds, access_of, access_word, assemble, carry, destination, dotted,
    import_of, in_place_of, merge_imports, package_of, placed, qualifier, read_sides, top_of,
};
use crate::ctx::Ctx;
use crate::delete::DeclKind;
use crate::{Doc, TextEdit};

/// A planned move, or why not: the same account as a static member's.
pub type NestedMove = super::move_member::MemberMove;

/// The innermost workspace type of file `fi` whose lines hold `line`.
fn type_at(w: &World, fi: usize, line: u32) -> Option<TypeId> {
    let types = &w.files[fi].decls().types;
    let (i, _) = types
        .iter()
        .enumerate()
        .filter(|(_, t)| t.start_line <= line && line <= t.end_line)
        .min_by_key(|(_, t)| t.end_line - t.start_line)?;
    Some(w.type_in_file(fi as u32, i as u32))
}

/// Whether code at the top-level type `user_top` of package `pkg` reaches what has access
/// `acc` and is declared under the top-level type `top` of package `decl_pkg`.
fn reaches(acc: Access, user_top: Option<TypeId>, pkg: &str, top: TypeId, decl_pkg: &str) -> bool {
    match acc {
        Access::Public => true,
        Access::Private => user_top == Some(top),
        Access::Package | Access::Protected => pkg == decl_pkg,
    }
}

/// The import declarations of `doc` naming `old` (dotted) or what is inside it, rewritten to
/// `new`.
fn imports_of(doc: &Doc, old: &str, new: &str) -> Vec<TextEdit> {
    let text = doc.text();
    let Some(tree) = mji_parser::parse_tree(text) else { return Vec::new() };
    let root = tree.root_node();
    let mut c = root.walk();
    let mut out = Vec::new();
    for n in root.children(&mut c).filter(|n| n.kind() == kind::IMPORT_DECLARATION) {
        let t = n.utf8_text(text.as_bytes()).unwrap_or("");
        let Some(i) = t.find(old) else { continue };
        let after = &t[i + old.len()..];
        let before = &t[..i];
        if (before.ends_with(' ') || before.ends_with('\t')) && (after.starts_with(';') || after.starts_with('.')) {
            let start = n.start_byte() + i;
            out.push(TextEdit { start, end: start + old.len(), text: new.to_owned() });
        }
    }
    out
}

/// Plans moving the static nested type `fqn` (`a.Old$Nested`) into class `dest`. Errors are
/// refusals, with the reason.
pub fn move_nested(ctx: &dyn Ctx, w: &World, scope: &[Arc<Path>], fqn: &str, dest: &str) -> Result<NestedMove, String> {
    let id = w.workspace_type(fqn).ok_or_else(|| format!("{fqn} is not a type of the workspace"))?;
    let d = w.decl(id);
    let simple = d.simple.to_string();
    let old_id = *w.chain(id).get(1).ok_or("it is a top-level type: give a package as the destination")?;
    let od = w.decl(old_id);
    if !d.is_static {
        return Err(format!(
            "it is an inner (non-static) class: its instances belong to an instance of {}; only static nested types move",
            od.simple
        ));
    }
    if matches!(od.kind, TypeKind::Interface | TypeKind::Annotation) {
        return Err("it is an interface's member type (implicitly public and static)".into());
    }
    let dest = dest.trim().replace('$', ".");
    let new_id = destination(w, &dest)?;
    if new_id == old_id {
        return Err(format!("it is in {dest} already"));
    }
    if w.chain(new_id).contains(&id) {
        return Err(format!("{dest} is {simple} or nested in it"));
    }
    let nd = w.decl(new_id);
    if matches!(nd.kind, TypeKind::Interface | TypeKind::Annotation) {
        return Err(format!("{dest} is an {}; nested types move to a class, enum or record", nd.kind.as_str()));
    }
    if nd.kind == TypeKind::Class && nd.outer.is_some() && !nd.is_static {
        return Err(format!("{dest} is an inner (non-static) class, which declares no static types before Java 16"));
    }
    let new_fi = w.file_of(new_id) as usize;
    let old_fi = w.file_of(old_id) as usize;
    let new_decls = &w.files[new_fi].decls();
    let old_dotted = dotted(fqn);
    let new_fqn = nd.fqn.to_string();
    let new_dotted = format!("{}.{simple}", dotted(&new_fqn));
    // Clashes: a member type of that name, an enclosing or inherited one, or a type of that
    // name the destination's file declares or imports.
    if new_decls
        .types
        .iter()
        .any(|t| *t.simple == *simple && t.outer.is_some_and(|o| w.type_in_file(new_fi as u32, o) == new_id))
    {
        return Err(format!("{dest} already has a member type {simple}"));
    }
    if w.chain(new_id).iter().any(|t| *w.decl(*t).simple == *simple) {
        return Err(format!("{dest} is in a type named {simple}, which a member type cannot be named"));
    }
    if let Some(f) = w.inherited_member_type(new_id, &simple) {
        return Err(format!("{dest} inherits a member type {simple} ({})", dotted(&f)));
    }
    if new_decls.types.iter().any(|t| t.outer.is_none() && *t.simple == *simple) {
        return Err(format!("the file of {dest} declares another type {simple}"));
    }
    if let Some(i) = new_decls
        .imports
        .iter()
        .find(|i| !i.on_demand && *i.path != *old_dotted && i.path.rsplit('.').next() == Some(simple.as_str()))
    {
        return Err(format!("the file of {dest} imports another {simple} (`{}`)", i.path));
    }

    let old_path = w.files[old_fi].path.clone();
    let new_path = w.files[new_fi].path.clone();
    let old_pkg = package_of(w, old_id).to_owned();
    let new_pkg = package_of(w, new_id).to_owned();
    let old_top = top_of(w, old_id);
    let new_top = top_of(w, new_id);
    let (doc, new_doc) = read_sides(ctx, &old_path, &new_path)?;
    let ndoc = new_doc.as_ref().unwrap_or(&doc);
    let removal = crate::delete::declaration(&doc, DeclKind::Type, &simple, d.start_line)?;
    let inside = |o: usize| removal.start <= o && o < removal.end;
    let at_of = |d: &Doc, r: &mji_xref::Ref| d.offset(r.line, r.column);
    let own = |k: &str| {
        k.strip_prefix(fqn).is_some_and(|rest| rest.is_empty() || rest.starts_with('#') || rest.starts_with('$'))
    };
    let mut texts = Texts::default();
    let mut broken: BTreeSet<String> = BTreeSet::new();

    // 1. Its own code, carried as a static member's.
    let old_refs = ctx.xref().refs_of(w, &old_path).map_err(|e| format!("{}: {e}", doc.display))?;
    let inherits = w.supertype_names(id);
    let carry_of =
        Carry { w, doc: &doc, ndoc, old_id, new_id, removal: &removal, own: &own, member: None, inherits: &inherits };
    let (mut body_edits, mut new_imports) = carry(&carry_of, &old_refs, &mut texts, &mut broken);
    // `Old.Nested` in its own code: `New.Nested`.
    let spell_new = Speller { w, fqn: new_fqn.clone() };
    for r in old_refs.iter().filter(|r| r.category == Category::Type && r.targets.first().is_some_and(|k| k == fqn)) {
        let Some(at) = at_of(&doc, r).filter(|o| inside(*o)) else { continue };
        if let Some((qs, qe)) = qualifier(doc.text(), at, ".").filter(|(s, e)| s < e) {
            let text = if doc.text()[qs..qe] == *dotted(&w.decl(old_id).fqn) {
                dotted(&new_fqn)
            } else {
                spell_new.spell(ndoc, Some(new_fi), &mut new_imports)
            };
            body_edits.retain(|e| e.end <= qs || e.start >= qe);
            body_edits.push(TextEdit { start: qs, end: qe, text });
        }
    }

    // 2. What the old class's package and top-level type use of its members: they must still
    // reach them.
    let my_access = access_of(w, fqn, &mut texts).unwrap_or(Access::Package);
    let mut class_access = Access::Public;
    for t in w.chain(new_id) {
        class_access = class_access.min(access_of(w, &w.decl(t).fqn, &mut texts).unwrap_or(Access::Package));
    }
    for f in w.files.iter().filter(|f| {
        (*f.decls().package == *old_pkg && old_pkg != new_pkg) || (f.path == old_path && old_top != new_top)
    }) {
        let refs = if f.path == old_path {
            old_refs.clone()
        } else {
            ctx.xref().refs_of(w, &f.path).map_err(|e| format!("{}: {e}", ctx.display(&f.path)))?
        };
        for r in refs {
            let Some(k) = r.targets.first() else { continue };
            if !own(k) || k == fqn || (f.path == old_path && at_of(&doc, &r).is_some_and(inside)) {
                continue;
            }
            let Some(acc) = access_of(w, k, &mut texts) else { continue };
            let lost = match acc {
                Access::Private => f.path == old_path && old_top != new_top,
                Access::Package | Access::Protected => old_pkg != new_pkg,
                Access::Public => false,
            };
            if lost {
                broken.insert(format!("{}:{} uses {k}, {}", ctx.display(&f.path), r.line, access_word(acc)));
            }
        }
    }

    // 3. Its uses.
    let mut targets = vec![fqn.to_owned()];
    targets.extend(
        w.files[old_fi]
            .decls()
            .types
            .iter()
            .filter(|t| t.fqn.starts_with(&format!("{fqn}$")))
            .map(|t| t.fqn.to_string()),
    );
    let mut out = NestedMove::default();
    let mut hits: BTreeMap<Arc<Path>, Vec<mji_xref::Ref>> = BTreeMap::new();
    for t in &targets {
        let target = mji_xref::target::resolve_target(w, t).map_err(|e| e.to_string())?;
        let found = ctx.references(w, scope, &target);
        out.unbound.extend(found.unbound);
        for (p, refs) in found.hits {
            hits.entry(p)
                .or_default()
                .extend(refs.into_iter().map(|(r, _)| r).filter(|r| r.targets.iter().any(|k| k == fqn)));
        }
    }
    let old_owner = w.decl(old_id).fqn.to_string();
    let old_owner_dotted = dotted(&old_owner);
    let mut per_file: BTreeMap<Arc<Path>, Vec<TextEdit>> = BTreeMap::new();
    for (p, refs) in hits {
        let d_own;
        let d: &Doc = if *p == *old_path {
            &doc
        } else if *p == *new_path {
            ndoc
        } else {
            d_own = ctx.read(&p).map_err(|e| e.to_string())?;
            &d_own
        };
        let Some(fi) = w.files.iter().position(|f| f.path == p) else { continue };
        let decls = &w.files[fi].decls();
        let t = d.text();
        let mut edits: Vec<TextEdit> = imports_of(d, &old_dotted, &new_dotted);
        let mut imports: Vec<TextEdit> = Vec::new();
        let mut rewritten: Vec<(usize, usize)> = edits.iter().map(|e| (e.start, e.end)).collect();
        let imported = decls.imports.iter().any(|i| !i.on_demand && *i.path == *old_dotted);
        let mut needs_import = false;
        for r in &refs {
            let Some(at) = at_of(d, r) else { continue };
            if *p == *old_path && inside(at) || r.kind == RefKind::Import {
                continue;
            }
            let where_ = format!("{}:{}", d.display, r.line);
            let user = type_at(w, fi, r.line);
            let user_top = user.map(|u| top_of(w, u));
            if r.kind != RefKind::Javadoc {
                if !reaches(my_access, user_top, &decls.package, new_top, &new_pkg) {
                    broken.insert(format!(
                        "{where_} uses it, which is {} and would be in {dest}",
                        access_word(my_access)
                    ));
                    continue;
                }
                if !reaches(class_access, user_top, &decls.package, new_top, &new_pkg) {
                    broken.insert(format!("{where_} uses it, and {dest} is {} there", access_word(class_access)));
                    continue;
                }
            }
            out.uses += 1;
            let in_new = user.is_some_and(|u| w.chain(u).contains(&new_id));
            match qualifier(t, at, ".").filter(|(s, e)| s < e) {
                Some((qs, qe)) => {
                    if in_new {
                        edits.push(TextEdit { start: qs, end: at, text: String::new() });
                    } else if t[qs..qe] == *old_owner_dotted {
                        edits.push(TextEdit { start: qs, end: qe, text: dotted(&new_fqn) });
                    } else {
                        let spelled = spell_new.spell(d, Some(fi), &mut imports);
                        edits.push(TextEdit { start: qs, end: qe, text: spelled });
                    }
                    rewritten.push((qs, qe));
                }
                None if in_new || imported => {}
                None => needs_import = true,
            }
        }
        if needs_import {
            match crate::imports::ensure_import_sorted(d, &new_dotted) {
                Ok(Some(e)) => imports.push(e),
                Ok(None) => {}
                Err(()) => return Err(format!("{} cannot import {new_dotted}", d.display)),
            }
        }
        // The import of the old class, when nothing else of another file names it.
        if *p != *old_path && *p != *new_path && !rewritten.is_empty() {
            let file_refs = ctx.xref().refs_of(w, &p).map_err(|e| format!("{}: {e}", d.display))?;
            let names_old = file_refs.iter().any(|r| {
                r.kind != RefKind::Import
                    && r.targets.iter().any(|k| *k == *old_owner)
                    && at_of(d, r).is_some_and(|o| !rewritten.iter().any(|(s, e)| *s <= o && o < *e))
            });
            if !names_old && let Some(e) = import_of(d, &old_owner_dotted) {
                edits.push(in_place_of(d, e, &mut imports));
            }
        }
        if *p == *new_path {
            new_imports.extend(imports);
        } else {
            edits.extend(merge_imports(imports, d.eol()));
        }
        if !edits.is_empty() {
            per_file.entry(p.clone()).or_default().extend(edits);
        }
    }
    access_holds(broken)?;

    // 4. The declaration, in the destination.
    let insert = placed(&carry_of, &mut body_edits, &dest)?;
    let sides = Sides { doc: &doc, ndoc, old_path: &old_path, new_path: &new_path };
    assemble(&mut out, &sides, (removal.start, removal.end), insert, new_imports, per_file, ctx)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imports_of_the_type_and_what_is_in_it_are_rewritten() {
        let src = "package c;\n\nimport a.Old.Nested;\nimport static a.Old.Nested.of;\nimport a.Old.Nested.*;\nimport a.Old.NestedToo;\nimport a.Old;\nimport static a.Old.*;\n";
        let doc = Doc::new(Path::new("/x/C.java"), "C.java", src.as_bytes().to_vec()).expect("utf-8");
        let mut out = src.to_owned();
        let mut edits = imports_of(&doc, "a.Old.Nested", "b.New.Nested");
        edits.sort_by_key(|e| std::cmp::Reverse(e.start));
        for e in edits {
            out.replace_range(e.start..e.end, &e.text);
        }
        assert_eq!(
            out,
            "package c;\n\nimport b.New.Nested;\nimport static b.New.Nested.of;\nimport b.New.Nested.*;\nimport a.Old.NestedToo;\nimport a.Old;\nimport static a.Old.*;\n"
        );
    }
}
