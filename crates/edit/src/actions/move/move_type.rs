//! `move` of a top-level type to another package: its file moved into the package's directory
//! under the same source root, its package declaration, the imports it now needs (the old
//! package's types it names), and in every other file the qualified names and imports of it
//! rewritten, or an import added where the old package made it visible. Package-private access
//! the move would break — the type using its old package's package-private types and members,
//! or that package using its — is found on the binder's references and refused before
//! anything is written.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::Arc;

use mji_xref::world::{TypeId, World};

use crate::ctx::Ctx;
use crate::{Doc, WorkspaceEdit};

/// A planned move, or why not.
#[derive(Debug, Default)]
pub struct TypeMove {
    pub edit: WorkspaceEdit,
    /// Files whose references were rewritten or given an import.
    pub files: usize,
    pub unbound: Vec<(Arc<Path>, mji_xref::bind::DepthCut)>,
    pub warnings: Vec<String>,
}

/// Whether the member (or type) a reference key names is visible outside its package, and the
/// type declaring it: `None` when the key names nothing of the workspace.
fn visible(w: &World, key: &str) -> Option<(TypeId, bool)> {
    let (owner, member) = match key.split_once('#') {
        Some((o, m)) => (o, Some(m)),
        None => (key, None),
    };
    let id = w.workspace_type(owner)?;
    let d = w.decl(id);
    let public = match member {
        None => d.is_public_api,
        Some(m) if m.contains('(') => {
            d.methods.iter().chain(&d.ctors).find(|x| w.method_key(id, x) == key).is_none_or(|x| x.is_public_api)
        }
        Some(f) => d.fields.iter().find(|x| &*x.name == f).is_none_or(|x| x.is_public_api),
    };
    Some((id, public))
}

/// Whether the member a key names is declared `protected` (visible to its package and to
/// subclasses elsewhere, through inheritance only): read from its declaration's modifiers.
fn protected(w: &World, key: &str, files: &mut BTreeMap<Arc<Path>, Option<Doc>>) -> bool {
    let Some((owner, member)) = key.split_once('#') else { return false };
    let Some(id) = w.workspace_type(owner) else { return false };
    let d = w.decl(id);
    let line = if member.contains('(') {
        d.methods.iter().chain(&d.ctors).find(|x| w.method_key(id, x) == key).map(|x| x.line)
    } else {
        d.fields.iter().find(|x| *x.name == *member).map(|x| x.line)
    };
    let Some(line) = line else { return false };
    let path = w.files[w.file_of(id) as usize].path.clone();
    let doc = files.entry(path.clone()).or_insert_with(|| Doc::read(&path, "").ok());
    let Some(doc) = doc.as_ref() else { return true };
    let Some(tree) = mji_parser::parse_tree(doc.text()) else { return true };
    let row = line.saturating_sub(1) as usize;
    let mut hit = false;
    crate::syntax::walk(tree.root_node(), &mut |n| {
        if n.start_position().row == row
            && matches!(
                n.kind(),
                mji_parser::kind::METHOD_DECLARATION
                    | mji_parser::kind::CONSTRUCTOR_DECLARATION
                    | mji_parser::kind::FIELD_DECLARATION
            )
            && let Some(m) = n.named_child(0).filter(|m| m.kind() == mji_parser::kind::MODIFIERS)
        {
            hit |= m.utf8_text(doc.text().as_bytes()).unwrap_or("").split_whitespace().any(|w| w == "protected");
        }
    });
    hit
}

/// Whether a use of a protected member still compiles from another package: inherited, so
/// written unqualified or through `this.`/`super.` (never `new`).
pub(crate) fn through_inheritance(doc: &Doc, r: &mji_xref::Ref) -> bool {
    let Some(at) = doc.offset(r.line, r.column) else { return false };
    let before = doc.text()[..at].trim_end();
    r.kind != mji_xref::RefKind::New
        && (!before.ends_with('.') || before.ends_with("this.") || before.ends_with("super."))
}

fn package_of(w: &World, id: TypeId) -> &str {
    &w.files[w.file_of(id) as usize].decls().package
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// Plans moving top-level type `fqn` to package `dest`. Errors are refusals, with the reason.
pub fn move_type(ctx: &dyn Ctx, w: &World, scope: &[Arc<Path>], fqn: &str, dest: &str) -> Result<TypeMove, String> {
    let id = w.workspace_type(fqn).ok_or_else(|| format!("{fqn} is not a type of the workspace"))?;
    let d = w.decl(id);
    if d.outer.is_some() {
        return Err("only a top-level type is moved to another package".into());
    }
    if !dest.split('.').all(crate::is_identifier) {
        return Err(format!("`{dest}` is not a package name"));
    }
    let fi = w.file_of(id) as usize;
    let file = &w.files[fi];
    let old = file.decls().package.to_string();
    if old == dest {
        return Err(format!("it is in package {dest} already"));
    }
    if old.is_empty() {
        return Err("it is in the unnamed package, which no other package can import from".into());
    }
    let simple = d.simple.to_string();
    if file.decls().types.iter().filter(|t| t.outer.is_none()).count() > 1 {
        return Err(format!("{} declares other top-level types, which would move with it", ctx.display(&file.path)));
    }
    if w.by_fqn(&format!("{dest}.{simple}")).is_some() {
        return Err(format!("package {dest} already has a type {simple}"));
    }
    let path = file.path.clone();
    let old_dir = old.replace('.', "/");
    let dir = path.parent().unwrap_or(Path::new("/"));
    let Some(base) = dir.to_str().and_then(|d| d.strip_suffix(&old_dir)).filter(|b| b.ends_with('/')) else {
        return Err(format!("{} is not in a directory named like its package", ctx.display(&path)));
    };
    let to = Path::new(base).join(dest.replace('.', "/")).join(path.file_name().unwrap_or_default());
    if to.exists() {
        return Err(format!("{} already exists", ctx.display(&to)));
    }
    // The moved file's own types (nested ones too) and the old package's other files.
    let own =
        |owner: &str| owner == fqn || owner.starts_with(&format!("{fqn}.")) || owner.starts_with(&format!("{fqn}$"));
    let owner_of = |k: &str| k.split('#').next().unwrap_or(k).to_owned();
    let mut broken: BTreeSet<String> = BTreeSet::new();
    let mut needs: BTreeSet<String> = BTreeSet::new();
    let mut out = TypeMove::default();
    let doc = ctx.read(&path).map_err(|e| e.to_string())?;
    let mut decl_docs: BTreeMap<Arc<Path>, Option<Doc>> = BTreeMap::new();
    let refs = ctx.xref().refs_of(w, &path).map_err(|e| format!("{}: {e}", ctx.display(&path)))?;
    for r in &refs {
        for k in &r.targets {
            let owner = owner_of(k);
            if own(&owner) {
                continue;
            }
            let Some((oid, public)) = visible(w, k) else { continue };
            if package_of(w, oid) != old {
                continue;
            }
            if !public {
                broken.insert(format!("{}:{} uses {k}, package-private in {old}", doc.display, r.line));
            } else if protected(w, k, &mut decl_docs) && !through_inheritance(&doc, r) {
                broken.insert(format!("{}:{} uses {k}, protected in {old}", doc.display, r.line));
            }
            // A top-level type of the old package named by its simple name needs an import.
            if !k.contains('#') && w.decl(oid).outer.is_none() {
                let at = doc.offset(r.line, r.column).unwrap_or(0);
                if !doc.text()[..at].ends_with('.') {
                    needs.insert(k.clone());
                }
            }
        }
    }
    // The old package's uses of the moved type's package-private members.
    let same_package: Vec<Arc<Path>> =
        w.files.iter().filter(|f| *f.decls().package == *old && f.path != path).map(|f| f.path.clone()).collect();
    for p in &same_package {
        let Ok(refs) = ctx.xref().refs_of(w, p) else { continue };
        let mut user: Option<Doc> = None;
        for r in refs {
            for k in &r.targets {
                if !own(&owner_of(k)) {
                    continue;
                }
                if visible(w, k).is_some_and(|(_, public)| !public) {
                    broken.insert(format!("{}:{} uses {k}, package-private", ctx.display(p), r.line));
                } else if protected(w, k, &mut decl_docs) {
                    if user.is_none() {
                        user = ctx.read(p).ok();
                    }
                    if !user.as_ref().is_some_and(|d| through_inheritance(d, &r)) {
                        broken.insert(format!("{}:{} uses {k}, protected", ctx.display(p), r.line));
                    }
                }
            }
        }
    }
    // Overriding across the packages: a package-private method overrides only in its package.
    for t in file.decls().types.iter() {
        let Some(tid) = w.workspace_type(&t.fqn) else { continue };
        for m in w.decl(tid).methods.iter().filter(|m| !m.is_static) {
            for k in w.overridden_keys(tid, m) {
                if let Some((oid, public)) = visible(w, &k)
                    && !public
                    && package_of(w, oid) == old
                {
                    broken.insert(format!("{} overrides {k}, package-private in {old}", w.method_key(tid, m)));
                }
            }
            if !m.is_public_api
                && let Ok(mut target) = mji_xref::target::resolve_target(w, &w.method_key(tid, m))
            {
                mji_xref::target::add_overriders(w, &mut target);
                for k in target.overriders.keys() {
                    if let Some(oid) = w.workspace_type(&owner_of(k))
                        && package_of(w, oid) == old
                        && !own(&owner_of(k))
                    {
                        broken.insert(format!("{k} overrides {}, package-private", w.method_key(tid, m)));
                    }
                }
            }
        }
    }
    if !broken.is_empty() {
        let n = broken.len();
        let list: Vec<String> = broken.into_iter().take(10).collect();
        return Err(format!(
            "package-private access would break ({n}): {}{}",
            list.join("; "),
            if n > 10 { "; …" } else { "" }
        ));
    }

    // The moved file: its package, the imports it now needs, its new place.
    let mut fe = doc.edit();
    for (s, e) in crate::actions::rename::syntax::package_name_ranges(&doc, &old) {
        fe.edits.push(crate::TextEdit { start: s, end: e, text: dest.to_owned() });
    }
    // The imports are placed as in a file of another package: the package's name blanked to
    // one of the same length (`mv.a` -> `zz.z`), so every offset stays the file's.
    let mut blanked = doc.text().to_owned();
    for (s, e) in crate::actions::rename::syntax::package_name_ranges(&doc, &old) {
        let z: String = blanked[s..e].chars().map(|c| if c == '.' { '.' } else { 'z' }).collect();
        blanked.replace_range(s..e, &z);
    }
    let elsewhere = Doc::new(&doc.path, &doc.display, blanked.into_bytes()).map_err(|e| e.to_string())?;
    for k in &needs {
        if let Ok(Some(e)) = crate::imports::ensure_import_sorted(&elsewhere, k) {
            fe.edits.push(e);
        }
    }
    let display = ctx.display(&path);
    let to_display = match display.rsplit_once('/') {
        Some((dd, name)) => format!("{}{}/{name}", dd.strip_suffix(&old_dir).unwrap_or(""), dest.replace('.', "/")),
        None => format!("{}/{display}", dest.replace('.', "/")),
    };
    fe.move_to = Some((to, to_display));
    out.edit.add(fe);

    // Every other file: `old.T` becomes `dest.T`; a simple use that saw it through the old
    // package (its own, or `import old.*`) gets an import.
    let qualifier = format!("{old}.");
    let mut per_file: BTreeMap<Arc<Path>, Vec<mji_xref::Ref>> = BTreeMap::new();
    let mut types = vec![fqn.to_owned()];
    types.extend(file.decls().types.iter().filter(|t| t.outer.is_some()).map(|t| t.fqn.to_string()));
    for t in &types {
        let Ok(target) = mji_xref::target::resolve_target(w, t) else { continue };
        let found = ctx.references(w, scope, &target);
        out.unbound.extend(found.unbound);
        for (p, refs) in found.hits {
            if p == path {
                continue;
            }
            per_file.entry(p.clone()).or_default().extend(refs.into_iter().map(|(r, _)| r));
        }
    }
    let dotted = fqn.replace('$', ".");
    for (p, refs) in per_file {
        let doc = ctx.read(&p).map_err(|e| e.to_string())?;
        let Some(fi) = w.files.iter().position(|f| f.path == p) else { continue };
        let decls = &w.files[fi].decls();
        let mut fe = doc.edit();
        let mut import = false;
        for r in refs {
            let Some(at) = doc.offset(r.line, r.column) else { continue };
            let before = &doc.text()[..at];
            // `old.T`, or `old.T.Inner` for a nested type.
            let q = before
                .strip_suffix(&format!("{simple}."))
                .filter(|_| r.targets.iter().any(|k| k != fqn))
                .and_then(|b| b.strip_suffix(&qualifier).map(|b| (b, at - simple.len() - 1)))
                .or_else(|| before.strip_suffix(&qualifier).map(|b| (b, at)));
            match q {
                Some((b, end)) if !b.ends_with(|c: char| is_ident(c) || c == '.') => {
                    let start = end - qualifier.len();
                    fe.edits.push(crate::TextEdit { start, end: start + old.len(), text: dest.to_owned() });
                }
                Some(_) => {}
                None if before.ends_with('.') => {}
                None => {
                    let imported = decls.imports.iter().any(|i| !i.is_static && !i.on_demand && *i.path == *dotted);
                    if *decls.package != *dest && !imported {
                        import = true;
                    }
                }
            }
        }
        if import && let Ok(Some(e)) = crate::imports::ensure_import_sorted(&doc, &format!("{dest}.{simple}")) {
            fe.edits.push(e);
        }
        if !fe.edits.is_empty() {
            out.files += 1;
            out.edit.add(fe);
        }
    }
    Ok(out)
}
