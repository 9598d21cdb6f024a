//! `move` of a static method or field to another class: its declaration (javadoc and
//! annotations with it) cut from its class and added at the end of the destination's body,
//! re-indented; inside it, the old class's members it names unqualified get qualified and the
//! types and static imports it needs are imported in the destination's file; every use
//! elsewhere is rewritten (`Old.m()` and `Old::m` to `New.m()`/`New::m`, static imports,
//! unqualified uses qualified, javadoc `Old#m`), `New` imported where needed and an import of
//! `Old` nothing else uses removed. Refused, before anything is written, for an instance
//! member, a clash in the destination, and access the move would break (found on the binder's
//! references): the member's code using private or package-private code the destination cannot
//! reach, or uses of the member that could not reach it in its new class.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::Path;
use std::sync::Arc;

use mji_model::TypeKind;
use mji_parser::kind;
use mji_xref::world::{TypeId, World};
use mji_xref::{Category, RefKind};

use crate::ctx::Ctx;
use crate::delete::{DeclKind, Removal, TYPE_KINDS};
use crate::{Doc, TextEdit, WorkspaceEdit};

/// A planned move, or why not.
#[derive(Debug, Default)]
pub struct MemberMove {
    pub edit: WorkspaceEdit,
    /// Files other than the two classes' whose uses were rewritten.
    pub files: usize,
    /// Uses rewritten.
    pub uses: usize,
    pub unbound: Vec<(Arc<Path>, mji_xref::bind::DepthCut)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Access {
    Private,
    Package,
    Protected,
    Public,
}

pub(crate) fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

pub(crate) fn package_of(w: &World, id: TypeId) -> &str {
    &w.files[w.file_of(id) as usize].decls().package
}

pub(crate) fn top_of(w: &World, id: TypeId) -> TypeId {
    *w.chain(id).last().unwrap_or(&id)
}

/// `a.b.Outer.Inner` of `a.b.Outer$Inner`.
pub(crate) fn dotted(fqn: &str) -> String {
    fqn.replace('$', ".")
}

/// The words of the modifiers of the innermost declaration of `kinds` named `name` whose code
/// holds `line` (a field's: its declaration's).
fn modifiers(text: &str, line: u32, name: &str, kinds: &[&str]) -> Option<String> {
    let tree = mji_parser::parse_tree(text)?;
    let bytes = text.as_bytes();
    let mut found = None;
    crate::syntax::walk(tree.root_node(), &mut |n| {
        let holds = (n.start_position().row as u32) < line && line <= n.end_position().row as u32 + 1;
        if holds && kinds.contains(&n.kind()) {
            let named = if n.kind() == kind::FIELD_DECLARATION || n.kind() == kind::CONSTANT_DECLARATION {
                let mut c = n.walk();
                n.children_by_field_name("declarator", &mut c)
                    .any(|d| d.child_by_field_name("name").and_then(|x| x.utf8_text(bytes).ok()) == Some(name))
            } else {
                n.child_by_field_name("name").and_then(|x| x.utf8_text(bytes).ok()) == Some(name)
            };
            if named {
                found = Some(n);
            }
        }
    });
    let n = found?;
    let mut c = n.walk();
    let m = n.children(&mut c).find(|m| m.kind() == kind::MODIFIERS);
    Some(m.and_then(|m| m.utf8_text(bytes).ok()).unwrap_or("").to_owned())
}

const MEMBER_KINDS: &[&str] =
    &[kind::METHOD_DECLARATION, kind::CONSTRUCTOR_DECLARATION, kind::FIELD_DECLARATION, kind::CONSTANT_DECLARATION];

/// Whether the field `name` declared on `line` is `final` without an initializer (a static
/// initializer of its class assigns it, which another class cannot).
fn blank_final(text: &str, line: u32, name: &str) -> bool {
    let final_ = modifiers(text, line, name, MEMBER_KINDS).is_some_and(|m| m.split_whitespace().any(|w| w == "final"));
    let Some(tree) = mji_parser::parse_tree(text) else { return false };
    let bytes = text.as_bytes();
    let mut valueless = false;
    crate::syntax::walk(tree.root_node(), &mut |n| {
        let holds = (n.start_position().row as u32) < line && line <= n.end_position().row as u32 + 1;
        if holds
            && n.kind() == kind::VARIABLE_DECLARATOR
            && n.parent().is_some_and(|p| p.kind() == kind::FIELD_DECLARATION)
            && n.child_by_field_name("name").and_then(|x| x.utf8_text(bytes).ok()) == Some(name)
        {
            valueless = n.child_by_field_name("value").is_none();
        }
    });
    final_ && valueless
}

/// Reads the files declarations are in, once each.
#[derive(Default)]
pub(crate) struct Texts(BTreeMap<Arc<Path>, Option<String>>);

impl Texts {
    fn get(&mut self, p: &Arc<Path>) -> Option<&str> {
        self.0.entry(p.clone()).or_insert_with(|| Doc::read(p, "").ok().map(|d| d.text().to_owned())).as_deref()
    }
}

/// The access of a workspace type or member a reference key names (`None` outside the
/// workspace, or when its declaration is not found).
pub(crate) fn access_of(w: &World, key: &str, texts: &mut Texts) -> Option<Access> {
    let (owner, member) = match key.split_once('#') {
        Some((o, m)) => (o, Some(m)),
        None => (key, None),
    };
    let id = w.workspace_type(owner)?;
    let d = w.decl(id);
    let in_interface = |id: TypeId| matches!(w.decl(id).kind, TypeKind::Interface | TypeKind::Annotation);
    let (line, name, kinds, implicit_public) = match member {
        None => match d.outer {
            None => return Some(if d.is_public_api { Access::Public } else { Access::Package }),
            Some(_) => {
                (d.start_line, d.simple.to_string(), TYPE_KINDS, w.chain(id).get(1).is_some_and(|o| in_interface(*o)))
            }
        },
        Some(m) if m.contains('(') => {
            let x = d.methods.iter().chain(&d.ctors).find(|x| w.method_key(id, x) == key)?;
            if x.is_private {
                return Some(Access::Private);
            }
            (x.line, x.name.to_string(), MEMBER_KINDS, in_interface(id))
        }
        Some(f) => {
            let x = d.fields.iter().find(|x| &*x.name == f)?;
            (x.line, x.name.to_string(), MEMBER_KINDS, in_interface(id))
        }
    };
    let path = w.files[w.file_of(id) as usize].path.clone();
    let mods = modifiers(texts.get(&path)?, line, &name, kinds)?;
    let has = |m: &str| mods.split_whitespace().any(|w| w == m);
    Some(if has("private") {
        Access::Private
    } else if has("public") || implicit_public {
        Access::Public
    } else if has("protected") {
        Access::Protected
    } else {
        Access::Package
    })
}

/// The qualifier written before byte `at` (the name of a use): `Some((start, end))` of the
/// identifiers and dots before a `.` or `::` (empty for an expression ending in `)` or `]`),
/// `None` when the use is unqualified.
pub(crate) fn qualifier(text: &str, at: usize, sep: &str) -> Option<(usize, usize)> {
    let before = text[..at].trim_end();
    let before = before.strip_suffix(sep)?;
    let end = before.trim_end().len();
    let start = before[..end].rfind(|c: char| !(is_ident(c) || c == '.')).map_or(0, |i| i + 1);
    Some((start, end))
}

/// How a type is written in a file: its dotted name after its package when the file sees its
/// top-level type by its simple name (an import added to `imports` if needed), else in full.
pub(crate) struct Speller<'a> {
    pub w: &'a World,
    pub fqn: String,
}

impl Speller<'_> {
    pub(crate) fn spell(&self, doc: &Doc, file: Option<usize>, imports: &mut Vec<TextEdit>) -> String {
        let w = self.w;
        let top_fqn = self.fqn.split('$').next().unwrap_or(&self.fqn).to_owned();
        let pkg = match w.workspace_type(&self.fqn) {
            Some(id) => package_of(w, id).to_owned(),
            None => top_fqn.rsplit_once('.').map_or(String::new(), |(p, _)| p.to_owned()),
        };
        let full = dotted(&self.fqn);
        let local = full.strip_prefix(&format!("{pkg}.")).unwrap_or(&full).to_owned();
        let top_simple = top_fqn.rsplit('.').next().unwrap_or(&top_fqn).to_owned();
        if let Some(fi) = file {
            let decls = &w.files[fi].decls();
            // The file declares (or its package has) another type of that simple name.
            if decls.types.iter().any(|t| *t.simple == *top_simple && *t.fqn != *top_fqn)
                || (*decls.package != *pkg
                    && w.by_fqn(&format!(
                        "{}{}{top_simple}",
                        decls.package,
                        if decls.package.is_empty() { "" } else { "." }
                    ))
                    .is_some())
            {
                return full;
            }
            if decls.types.iter().any(|t| *t.fqn == *top_fqn) {
                return local;
            }
        }
        match crate::imports::ensure_import_sorted(doc, &top_fqn) {
            Ok(None) => local,
            Ok(Some(e)) => {
                if !imports.contains(&e) {
                    imports.push(e);
                }
                local
            }
            Err(()) => full,
        }
    }
}

/// Adds `import static {what};` to `doc` unless it is there (after the last import, or the
/// package).
pub(crate) fn static_import(doc: &Doc, what: &str) -> Option<TextEdit> {
    let text = doc.text();
    let tree = mji_parser::parse_tree(text)?;
    let root = tree.root_node();
    let mut c = root.walk();
    let mut after = None;
    let owner = what.rsplit_once('.').map_or("", |x| x.0);
    for n in root.children(&mut c) {
        let t: String = n.utf8_text(text.as_bytes()).unwrap_or("").split_whitespace().collect::<Vec<_>>().join(" ");
        match n.kind() {
            kind::PACKAGE_DECLARATION => after = after.or(Some(n.end_byte())),
            kind::IMPORT_DECLARATION => {
                if t == format!("import static {what};") || t == format!("import static {owner}.*;") {
                    return None;
                }
                after = Some(n.end_byte());
            }
            _ => {}
        }
    }
    let eol = doc.eol();
    Some(match after {
        Some(e) => TextEdit { start: e, end: e, text: format!("{eol}import static {what};") },
        None => TextEdit { start: 0, end: 0, text: format!("import static {what};{eol}") },
    })
}

/// The whole-line removal of `import {fqn};` in `doc`, if it has one.
pub(crate) fn import_of(doc: &Doc, fqn: &str) -> Option<TextEdit> {
    let line = format!("import {fqn};");
    crate::delete::import_where(doc, |_, t| t == line)
}

/// `text[start..end]` with `edits` (inside it, sorted, not overlapping) applied.
fn splice(text: &str, start: usize, end: usize, edits: &mut [TextEdit]) -> String {
    edits.sort_by_key(|e| (e.start, e.end));
    let mut out = String::new();
    let mut at = start;
    for e in edits.iter() {
        if e.start < at || e.end > end {
            continue;
        }
        out.push_str(&text[at..e.start]);
        out.push_str(&e.text);
        at = e.end;
    }
    out.push_str(&text[at..end]);
    out
}

/// The workspace class `dest` (dotted) names.
pub(crate) fn destination(w: &World, dest: &str) -> Result<TypeId, String> {
    w.workspace_type(dest)
        .or_else(|| {
            w.files
                .iter()
                .flat_map(|f| f.decls().types.iter())
                .find(|t| dotted(&t.fqn) == dest)
                .and_then(|t| w.workspace_type(&t.fqn))
        })
        .ok_or_else(|| {
            format!("`{dest}` is not a class of the workspace (give the destination class's qualified name)")
        })
}

/// Plans moving the static member `key` (`Owner#m(T)` or `Owner#f`) into type `dest`. Errors
/// are refusals, with the reason.
pub fn move_member(ctx: &dyn Ctx, w: &World, scope: &[Arc<Path>], key: &str, dest: &str) -> Result<MemberMove, String> {
    let (owner, member) = key.split_once('#').ok_or_else(|| format!("{key} is not a member"))?;
    let old_id = w.workspace_type(owner).ok_or_else(|| format!("{owner} is not a type of the workspace"))?;
    let is_method = member.contains('(');
    let name = member.split('(').next().unwrap_or(member).to_owned();
    let od = w.decl(old_id);
    let (line, is_static) = if is_method {
        let m = od
            .methods
            .iter()
            .find(|m| w.method_key(old_id, m) == key)
            .ok_or_else(|| format!("{key} is not a method of {owner}"))?;
        if m.implicit {
            return Err("it is not written in the source".into());
        }
        (m.line, m.is_static)
    } else {
        let f =
            od.fields.iter().find(|f| *f.name == *name).ok_or_else(|| format!("{key} is not a field of {owner}"))?;
        (f.line, f.is_static)
    };
    if !is_static {
        return Err(format!(
            "it is an instance member: it uses the instance state of {}; only static members move",
            od.simple
        ));
    }
    let dest = dest.trim().replace('$', ".");
    let new_id = destination(w, &dest)?;
    if new_id == old_id {
        return Err(format!("it is in {dest} already"));
    }
    let nd = w.decl(new_id);
    if matches!(nd.kind, TypeKind::Interface | TypeKind::Annotation) {
        return Err(format!("{dest} is an {}; members move to a class, enum or record", nd.kind.as_str()));
    }
    if nd.kind == TypeKind::Class && nd.outer.is_some() && !nd.is_static {
        return Err(format!("{dest} is an inner (non-static) class, which declares no static members before Java 16"));
    }
    if matches!(w.decl(old_id).kind, TypeKind::Interface | TypeKind::Annotation) {
        return Err("it is an interface's member (implicitly public, and inherited by its implementations)".into());
    }
    let new_fqn = nd.fqn.to_string();
    // A clash: the destination declares a member of the same signature (or name, for a field).
    let clash = if is_method {
        let sig = &member[name.len()..];
        nd.methods.iter().any(|m| w.method_key(new_id, m) == format!("{new_fqn}#{name}{sig}"))
    } else {
        nd.fields.iter().any(|f| *f.name == *name)
    };
    if clash {
        return Err(format!(
            "{dest} already has a {} {name}{}",
            if is_method { "method" } else { "field" },
            if is_method { &member[name.len()..] } else { "" }
        ));
    }
    let old_fi = w.file_of(old_id) as usize;
    let new_fi = w.file_of(new_id) as usize;
    let old_path = w.files[old_fi].path.clone();
    let new_path = w.files[new_fi].path.clone();
    let new_pkg = package_of(w, new_id).to_owned();
    let new_top = top_of(w, new_id);
    let (doc, new_doc) = read_sides(ctx, &old_path, &new_path)?;
    let ndoc = new_doc.as_ref().unwrap_or(&doc);
    let kind = if is_method { DeclKind::Method } else { DeclKind::Field };
    let removal = crate::delete::declaration(&doc, kind, &name, line)?;
    if !is_method && blank_final(doc.text(), line, &name) {
        return Err("it is a blank final field, assigned by its class's initializer".into());
    }
    let mut texts = Texts::default();
    let my_access = access_of(w, key, &mut texts).unwrap_or(Access::Package);
    let class_access = access_of(w, &new_fqn, &mut texts).unwrap_or(Access::Package);
    let mut broken: BTreeSet<String> = BTreeSet::new();
    let at_of = |d: &Doc, r: &mji_xref::Ref| d.offset(r.line, r.column);
    let inside = |o: usize| removal.start <= o && o < removal.end;

    // 1. The member's own code: what it names must stay reachable from the destination, and
    // what it names unqualified through its old class gets qualified.
    let old_refs = ctx.xref().refs_of(w, &old_path).map_err(|e| format!("{}: {e}", doc.display))?;
    let own = |k: &str| k == key;
    let carry_of =
        Carry { w, doc: &doc, ndoc, old_id, new_id, removal: &removal, own: &own, member: Some(key), inherits: &[] };
    let (mut body_edits, new_imports) = carry(&carry_of, &old_refs, &mut texts, &mut broken);
    let spell_new = Speller { w, fqn: new_fqn.clone() };
    // 2. The uses of the member.
    let target = mji_xref::target::resolve_target(w, key).map_err(|e| e.to_string())?;
    let found = ctx.references(w, scope, &target);
    let mut out = MemberMove { unbound: found.unbound, ..Default::default() };
    let others_named = od.methods.iter().filter(|m| *m.name == *name).count()
        + od.fields.iter().filter(|f| *f.name == *name).count()
        > 1;
    let old_dotted = dotted(owner);
    let mut per_file: BTreeMap<Arc<Path>, Vec<TextEdit>> = BTreeMap::new();
    for (p, refs) in found.hits {
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
        let decls = w.files[fi].decls().clone();
        let t = d.text();
        let file_refs = ctx.xref().refs_of(w, &p).map_err(|e| format!("{}: {e}", d.display))?;
        let types_at: HashSet<usize> =
            file_refs.iter().filter(|r| r.category == Category::Type).filter_map(|r| at_of(d, r)).collect();
        let mut edits: Vec<TextEdit> = Vec::new();
        let mut imports: Vec<TextEdit> = Vec::new();
        let mut rewritten: Vec<(usize, usize)> = Vec::new();
        // A single static import of it, rewritten: its unqualified uses stay so.
        let mut statically = false;
        let in_new = |line: u32| {
            let nd = w.decl(new_id);
            *p == *new_path && nd.start_line <= line && line <= nd.end_line
        };
        for (r, _) in &refs {
            let Some(at) = at_of(d, r) else { continue };
            if *p == *old_path && inside(at) {
                continue;
            }
            let where_ = format!("{}:{}", d.display, r.line);
            // Can the use reach the member in its new class?
            let user_top = decls
                .types
                .iter()
                .enumerate()
                .filter(|(_, t)| t.outer.is_none() && t.start_line <= r.line && r.line <= t.end_line)
                .map(|(i, _)| w.type_in_file(fi as u32, i as u32))
                .next();
            let ok = match my_access {
                Access::Public => true,
                Access::Private => user_top == Some(new_top),
                Access::Package | Access::Protected => *decls.package == *new_pkg,
            };
            if !ok && r.kind != RefKind::Javadoc {
                broken.insert(format!("{where_} uses it, which is {} and would be in {dest}", access_word(my_access)));
                continue;
            }
            let sees_class = match class_access {
                Access::Public => true,
                Access::Private => user_top == Some(new_top),
                Access::Package | Access::Protected => *decls.package == *new_pkg,
            };
            if !sees_class && r.kind != RefKind::Javadoc {
                broken.insert(format!("{where_} uses it, and {dest} is {} there", access_word(class_access)));
                continue;
            }
            out.uses += 1;
            if r.kind == RefKind::Import {
                let Some((qs, qe)) = qualifier(t, at, ".") else { continue };
                if others_named {
                    // `import static old.m;` still imports the other members of that name.
                    if let Some(e) = static_import(d, &format!("{}.{name}", dotted(&new_fqn))) {
                        imports.push(e);
                    }
                } else {
                    edits.push(TextEdit { start: qs, end: qe, text: dotted(&new_fqn) });
                }
                statically = true;
                continue;
            }
            if r.kind == RefKind::Javadoc {
                if let Some(b) = t[..at].strip_suffix('#') {
                    let qs = b.rfind(|c: char| !(is_ident(c) || c == '.')).map_or(0, |i| i + 1);
                    let new_name = if *decls.package == *new_pkg { spell_local(w, new_id) } else { dotted(&new_fqn) };
                    edits.push(TextEdit { start: qs, end: at - 1, text: new_name });
                    rewritten.push((qs, at - 1));
                }
                continue;
            }
            let q = qualifier(t, at, ".").or_else(|| qualifier(t, at, "::"));
            match q {
                Some((qs, qe)) => {
                    let chain = &t[qs..qe];
                    let last = chain.rsplit('.').next().unwrap_or(chain);
                    let is_type = types_at.contains(&(qe - last.len()));
                    if qs == qe || !(is_type || chain == "this" || chain == "super") {
                        broken.insert(format!(
                            "{where_} reaches it through an expression (`{}`), which would not have it",
                            if qs == qe { "…" } else { chain }
                        ));
                        continue;
                    }
                    let spelled = spell_new.spell(d, Some(fi), &mut imports);
                    edits.push(TextEdit { start: qs, end: qe, text: spelled });
                    rewritten.push((qs, qe));
                }
                None => {
                    if in_new(r.line) {
                        continue;
                    }
                    let spelled = spell_new.spell(d, Some(fi), &mut imports);
                    edits.push(TextEdit { start: at, end: at, text: format!("{spelled}.") });
                }
            }
        }
        if statically {
            // Its unqualified uses stay unqualified.
            edits.retain(|e| !(e.start == e.end && e.text.ends_with('.')));
        }
        // The import of the old class, when nothing else of the file names it.
        {
            let names_old = file_refs.iter().any(|r| {
                r.kind != RefKind::Import
                    && r.targets.iter().any(|k| *k == *owner)
                    && at_of(d, r).is_some_and(|o| {
                        !(rewritten.iter().any(|(s, e)| *s <= o && o < *e) || (*p == *old_path && inside(o)))
                    })
            });
            if !names_old
                && !rewritten.is_empty()
                && let Some(e) = import_of(d, &old_dotted)
            {
                edits.push(in_place_of(d, e, &mut imports));
            }
        }
        edits.extend(merge_imports(imports, d.eol()));
        if !edits.is_empty() {
            per_file.entry(p.clone()).or_default().extend(edits);
        }
    }
    access_holds(broken)?;

    // 3. The declaration: cut, re-indented, added at the end of the destination's body.
    let insert = placed(&carry_of, &mut body_edits, &dest)?;
    let sides = Sides { doc: &doc, ndoc, old_path: &old_path, new_path: &new_path };
    assemble(&mut out, &sides, (removal.start, removal.end), insert, new_imports, per_file, ctx)?;
    Ok(out)
}

/// The removal `e` of an old import, or, when an import to add is at its line, that import
/// written in its place (and taken from `imports`).
pub(crate) fn in_place_of(d: &Doc, mut e: TextEdit, imports: &mut Vec<TextEdit>) -> TextEdit {
    if let Some(i) = imports.iter().position(|x| e.start <= x.start && x.start <= e.end) {
        let added = imports.remove(i);
        e.text = format!("{}{}", added.text.trim(), d.eol());
    }
    e
}

/// A move whose access would break (`broken`: each use that would lose access, described) is
/// refused, naming the first ten.
pub(crate) fn access_holds(broken: BTreeSet<String>) -> Result<(), String> {
    if broken.is_empty() {
        return Ok(());
    }
    let n = broken.len();
    let list: Vec<String> = broken.into_iter().take(10).collect();
    Err(format!("access would break ({n}): {}{}", list.join("; "), if n > 10 { "; …" } else { "" }))
}

/// The two classes' documents of a move (one when the destination shares the file).
pub(crate) struct Sides<'a> {
    pub doc: &'a Doc,
    pub ndoc: &'a Doc,
    pub old_path: &'a Path,
    pub new_path: &'a Path,
}

/// Reads the old class's file and, when it is another, the destination's.
pub(crate) fn read_sides(ctx: &dyn Ctx, old_path: &Path, new_path: &Path) -> Result<(Doc, Option<Doc>), String> {
    let doc = ctx.read(old_path).map_err(|e| e.to_string())?;
    let new_doc = if new_path == old_path { None } else { Some(ctx.read(new_path).map_err(|e| e.to_string())?) };
    Ok((doc, new_doc))
}

/// A move's edit: the declaration (`removal`) cut from the old class, `insert` and the imports it
/// needs (once each, sorted) in the destination, and every other file's rewritten uses.
pub(crate) fn assemble(
    out: &mut MemberMove,
    s: &Sides,
    removal: (usize, usize),
    insert: TextEdit,
    mut new_imports: Vec<TextEdit>,
    per_file: BTreeMap<Arc<Path>, Vec<TextEdit>>,
    ctx: &dyn Ctx,
) -> Result<(), String> {
    let eol = s.ndoc.eol();
    let mut fe_old = s.doc.edit();
    fe_old.edits.push(TextEdit { start: removal.0, end: removal.1, text: String::new() });
    let mut fe_new = s.ndoc.edit();
    fe_new.edits.push(insert);
    let mut seen = BTreeSet::new();
    new_imports.retain(|e| seen.insert((e.start, e.end, e.text.clone())));
    fe_new.edits.extend(merge_imports(new_imports, eol));
    out.edit.add(fe_old);
    out.edit.add(fe_new);
    for (p, edits) in per_file {
        let d_own;
        let d = if *p == *s.old_path {
            s.doc
        } else if *p == *s.new_path {
            s.ndoc
        } else {
            out.files += 1;
            d_own = ctx.read(&p).map_err(|e| e.to_string())?;
            &d_own
        };
        let mut fe = d.edit();
        fe.edits = edits;
        out.edit.add(fe);
    }
    Ok(())
}

/// Imports added at one place become one sorted insertion (two edits at one byte would land
/// in the order they were found).
pub(crate) fn merge_imports(edits: Vec<TextEdit>, eol: &str) -> Vec<TextEdit> {
    let mut by_at: BTreeMap<usize, Vec<TextEdit>> = BTreeMap::new();
    for e in edits {
        by_at.entry(e.start).or_default().push(e);
    }
    let mut out = Vec::new();
    for (_, mut group) in by_at {
        if group.len() == 1 || group.iter().any(|e| e.start != e.end) {
            out.append(&mut group);
            continue;
        }
        let first = &group[0].text;
        let head = &first[..first.len() - first.trim_start().len()];
        let tail = &first[first.trim_end().len()..];
        let mut lines: Vec<&str> = group.iter().map(|e| e.text.trim()).collect();
        // Static imports first, then by name.
        lines.sort_by_key(|l| (!l.starts_with("import static"), l.trim_end_matches(';').to_string()));
        lines.dedup();
        out.push(TextEdit {
            start: group[0].start,
            end: group[0].end,
            text: format!("{head}{}{tail}", lines.join(eol)),
        });
    }
    out
}

pub(crate) fn access_word(a: Access) -> &'static str {
    match a {
        Access::Private => "private",
        Access::Package => "package-private",
        Access::Protected => "protected",
        Access::Public => "public",
    }
}

/// A type's name after its package (`Outer.Inner`).
pub(crate) fn spell_local(w: &World, id: TypeId) -> String {
    let full = dotted(&w.decl(id).fqn);
    let pkg = package_of(w, id);
    full.strip_prefix(&format!("{pkg}.")).unwrap_or(&full).to_owned()
}

/// The byte of the `}` closing the body of the type declared from `start` to `end` (lines).
fn closing_brace(doc: &Doc, start: u32, end: u32) -> Option<usize> {
    let tree = mji_parser::parse_tree(doc.text())?;
    let mut best: Option<usize> = None;
    crate::syntax::walk(tree.root_node(), &mut |n| {
        if TYPE_KINDS.contains(&n.kind())
            && (n.start_position().row as u32) < start
            && n.end_position().row as u32 + 1 == end
            && let Some(body) = n.child_by_field_name("body")
        {
            // An enum's members come after its constants' `;`.
            let mut c = body.walk();
            let members = n.kind() != kind::ENUM_DECLARATION
                || body.children(&mut c).any(|x| x.kind() == kind::ENUM_BODY_DECLARATIONS);
            best = members.then(|| body.end_byte().saturating_sub(1));
        }
    });
    best.filter(|b| doc.text().as_bytes().get(*b) == Some(&b'}'))
}

/// The moved declaration's own code, carried to the destination.
pub(crate) struct Carry<'a> {
    pub w: &'a World,
    pub doc: &'a Doc,
    pub ndoc: &'a Doc,
    pub old_id: TypeId,
    pub new_id: TypeId,
    pub removal: &'a Removal,
    /// Whether a reference key is the moved declaration's own (its uses stay as written).
    pub own: &'a dyn Fn(&str) -> bool,
    /// The member moved (`Old.m()` in its own code becomes `New.m()`).
    pub member: Option<&'a str>,
    /// The supertypes of the type moved, whose protected members its code still reaches
    /// through inheritance (unqualified, `this.`, `super.`, `super(…)`) from any package.
    pub inherits: &'a [String],
}

/// The moved code's edits (names qualified or kept reachable) and the imports its new file
/// needs; what it names that the destination cannot reach goes to `broken`.
pub(crate) fn carry(
    c: &Carry,
    old_refs: &[mji_xref::Ref],
    texts: &mut Texts,
    broken: &mut BTreeSet<String>,
) -> (Vec<TextEdit>, Vec<TextEdit>) {
    let Carry { w, doc, ndoc, old_id, new_id, removal, own, .. } = *c;
    let text = doc.text();
    let new_fi = w.file_of(new_id) as usize;
    let new_fqn = w.decl(new_id).fqn.to_string();
    let new_pkg = package_of(w, new_id).to_owned();
    let old_top = top_of(w, old_id);
    let new_top = top_of(w, new_id);
    let same_top = old_top == new_top;
    let at_of = |d: &Doc, r: &mji_xref::Ref| d.offset(r.line, r.column);
    let inside = |o: usize| removal.start <= o && o < removal.end;
    let reaches = |acc: Access, target_owner: Option<TypeId>| -> bool {
        let Some(o) = target_owner else { return true };
        match acc {
            Access::Public => true,
            Access::Private => top_of(w, o) == new_top,
            Access::Package | Access::Protected => package_of(w, o) == new_pkg,
        }
    };
    let type_ref_at: HashSet<usize> =
        old_refs.iter().filter(|r| r.category == Category::Type).filter_map(|r| at_of(doc, r)).collect();
    let mut body_edits: Vec<TextEdit> = Vec::new();
    let mut new_imports: Vec<TextEdit> = Vec::new();
    let mut skip_types: HashSet<usize> = HashSet::new();
    let old_chain: Vec<String> = w.chain(old_id).iter().map(|t| w.decl(*t).fqn.to_string()).collect();
    let old_supers = w.supertype_names(old_id);
    let new_chain: Vec<String> = w.chain(new_id).iter().map(|t| w.decl(*t).fqn.to_string()).collect();
    let new_supers = w.supertype_names(new_id);
    let old_decls = &w.files[w.file_of(old_id) as usize].decls();
    let spell_new = Speller { w, fqn: new_fqn.clone() };
    let body_refs: Vec<&mji_xref::Ref> = old_refs.iter().filter(|r| at_of(doc, r).is_some_and(inside)).collect();
    // Members first: a qualifier rewritten from `Old` to `New` is no use of `Old` left.
    for r in &body_refs {
        let Some(at) = at_of(doc, r) else { continue };
        if r.category == Category::Type || r.kind == RefKind::Lambda {
            continue;
        }
        let Some(k) = r.targets.first() else { continue };
        let qualifiable = matches!(r.kind, RefKind::Call | RefKind::FieldRead | RefKind::FieldWrite | RefKind::Javadoc);
        let k_owner = k.split('#').next().unwrap_or(k);
        let oid = w.workspace_type(k_owner);
        if !own(k)
            && let Some(acc) = access_of(w, k, texts)
            && !reaches(acc, oid)
            && !(acc == Access::Protected
                && c.inherits.iter().any(|s| s == k_owner)
                && super::move_type::through_inheritance(doc, r))
        {
            broken.insert(format!("it uses `{k}`, {} in `{k_owner}`", access_word(acc)));
        }
        if r.kind == RefKind::Javadoc {
            if !own(k)
                && text[..at].ends_with('#')
                && !text[..at - 1].ends_with(is_ident)
                && !new_chain.iter().any(|c| c == k_owner)
            {
                body_edits.push(TextEdit { start: at - 1, end: at - 1, text: dotted(k_owner) });
            }
            continue;
        }
        if let Some((qs, qe)) = qualifier(text, at, ".").or_else(|| qualifier(text, at, "::")) {
            // `Old.m()` in its own code: `New.m()` (or unqualified would do; keep the form).
            if c.member == Some(k.as_str())
                && qs < qe
                && type_ref_at.contains(&(qe - text[qs..qe].rsplit('.').next().unwrap_or("").len()))
            {
                let spelled = spell_new.spell(ndoc, Some(new_fi), &mut new_imports);
                body_edits.push(TextEdit { start: qs, end: qe, text: spelled });
                skip_types.extend(qs..qe);
            }
            continue;
        }
        if own(k) || !qualifiable || r.within & mji_xref::WITHIN_CLASS != 0 {
            continue;
        }
        // Unqualified: through the old class (its outer types, its supertypes) it is qualified
        // by its owner; through a static import, the import goes along.
        let through_old = old_chain.iter().any(|c| c == k_owner) || old_supers.iter().any(|s| s == k_owner);
        let seen_in_new = new_chain.iter().any(|c| c == k_owner) || new_supers.iter().any(|s| s == k_owner);
        if seen_in_new {
            continue;
        }
        if through_old {
            let spelled = Speller { w, fqn: k_owner.to_owned() }.spell(ndoc, Some(new_fi), &mut new_imports);
            body_edits.push(TextEdit { start: at, end: at, text: format!("{spelled}.") });
        } else if let Some(i) = old_decls.imports.iter().find(|i| {
            i.is_static
                && (*i.path == format!("{}.{name_k}", dotted(k_owner), name_k = mji_xref::target::name_of_key(k))
                    || (i.on_demand && *i.path == dotted(k_owner)))
        }) {
            let what = if i.on_demand {
                format!("{}.{}", i.path, mji_xref::target::name_of_key(k))
            } else {
                i.path.to_string()
            };
            if let Some(e) = static_import(ndoc, &what)
                && !new_imports.contains(&e)
            {
                new_imports.push(e);
            }
        }
    }
    // Types: unqualified names the destination's file does not see get imported (or
    // qualified); the old class's own member types are named through it.
    for r in &body_refs {
        let Some(at) = at_of(doc, r) else { continue };
        if r.category != Category::Type || skip_types.contains(&at) || r.kind == RefKind::Lambda {
            continue;
        }
        let Some(k) = r.targets.first() else { continue };
        if own(k) {
            continue;
        }
        let oid = w.workspace_type(k);
        if let Some(acc) = access_of(w, k, texts)
            && !reaches(acc, oid)
        {
            broken.insert(format!("it uses `{k}`, {} in `{}`", access_word(acc), oid.map_or("", |o| package_of(w, o))));
        }
        if qualifier(text, at, ".").is_some() || r.kind == RefKind::Javadoc && text[..at].ends_with('#') {
            continue;
        }
        let Some(id) = w.by_fqn(k) else { continue };
        if same_top && w.is_workspace(id) && top_of(w, id) == old_top {
            continue;
        }
        if w.is_workspace(id)
            && top_of(w, id) == old_top
            && w.decl(id).outer.is_some()
            && !w.chain(new_id).contains(&id)
        {
            // A member type of the old class: named through it.
            let outer = w.decl(id).outer.map(|o| w.type_in_file(w.file_of(id), o)).unwrap_or(id);
            let spelled = Speller { w, fqn: w.decl(outer).fqn.to_string() }.spell(ndoc, Some(new_fi), &mut new_imports);
            body_edits.push(TextEdit { start: at, end: at, text: format!("{spelled}.") });
            continue;
        }
        if w.decl(id).outer.is_some() {
            // A nested type named by its simple name: imported as the old file did, if it did.
            let d = dotted(k);
            if old_decls.imports.iter().any(|i| !i.is_static && *i.path == *d) {
                match crate::imports::ensure_import_sorted(ndoc, &d) {
                    Ok(Some(e)) if !new_imports.contains(&e) => new_imports.push(e),
                    Ok(_) => {}
                    Err(()) => body_edits.push(TextEdit { start: at, end: at + w.decl(id).simple.len(), text: d }),
                }
            } else {
                let spelled = Speller { w, fqn: k.clone() }.spell(ndoc, Some(new_fi), &mut new_imports);
                body_edits.push(TextEdit { start: at, end: at + w.decl(id).simple.len(), text: spelled });
            }
            continue;
        }
        let spelled = Speller { w, fqn: k.clone() }.spell(ndoc, Some(new_fi), &mut new_imports);
        if spelled != *w.decl(id).simple {
            body_edits.push(TextEdit { start: at, end: at + w.decl(id).simple.len(), text: spelled });
        }
    }
    (body_edits, new_imports)
}

/// The declaration cut from the old file (with `body_edits` applied), re-indented, as an
/// insertion at the end of the destination's body.
pub(crate) fn placed(c: &Carry, body_edits: &mut [TextEdit], dest: &str) -> Result<TextEdit, String> {
    let Carry { w, doc, ndoc, old_id, new_id, removal, .. } = *c;
    let text = doc.text();
    let mut moved = splice(text, removal.start, removal.end, body_edits);
    let from_indent = crate::syntax::line_indent(
        text,
        removal.start + (text[removal.start..].len() - text[removal.start..].trim_start().len()),
    )
    .to_owned();
    let nd = w.decl(new_id);
    let to_indent = format!(
        "{}{}",
        crate::syntax::indent_of_line(ndoc, nd.start_line.max(1)),
        from_indent
            .strip_prefix(crate::syntax::indent_of_line(doc, w.decl(old_id).start_line.max(1)).as_str())
            .unwrap_or("    ")
    );
    let eol = ndoc.eol();
    moved = moved
        .lines()
        .map(|l| match l.strip_prefix(from_indent.as_str()) {
            Some(rest) => format!("{to_indent}{rest}"),
            None => l.to_owned(),
        })
        .collect::<Vec<_>>()
        .join(eol);
    let moved = moved.trim_matches(['\n', '\r']).to_owned();
    let close = closing_brace(ndoc, nd.start_line, nd.end_line)
        .ok_or_else(|| format!("the body of {dest} was not found (an enum needs the `;` after its constants)"))?;
    let nt = ndoc.text();
    let ls = crate::syntax::line_start(nt, close);
    let insert = if nt[ls..close].trim().is_empty() {
        let empty_body = nt[..ls].trim_end().ends_with('{');
        TextEdit { start: ls, end: ls, text: format!("{}{moved}{eol}", if empty_body { "" } else { eol }) }
    } else {
        TextEdit {
            start: close,
            end: close,
            text: format!("{eol}{moved}{eol}{}", crate::syntax::indent_of_line(ndoc, nd.end_line)),
        }
    };
    Ok(insert)
}
