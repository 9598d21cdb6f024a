//! The "create class" quick fix's glue: the binder types the use for
//! [`mji_edit::create_class`] (its arguments, and what a constant is assigned to), and the world
//! finds the outer type of `Outer.Inner`; the new file, or the edit of the outer type's file,
//! becomes the edit.

use mji_edit::create_class::{NewClass, Typer};
use mji_edit::{Doc, FileEdit, TextEdit, WorkspaceEdit};
use mji_xref::ty::Ty;
use mji_xref::world::{Origin, World};

use mji_edit::ctx::Outcome;

use crate::ToolError;
use crate::host::Host;

/// A type as a parameter may declare it, qualified (`None` for what code cannot name): a type
/// variable reads as its bound; a type argument it cannot write exactly (a type variable, or
/// `Object`, which is also how the binder reads `?`) leaves the raw type, which accepts any.
fn java_type(t: &Ty) -> Option<String> {
    Some(match t {
        Ty::Prim(p) => p.to_string(),
        Ty::Array(e) => format!("{}[]", java_type(e)?),
        Ty::Var(_, bound) => java_type(bound)?,
        Ty::Null => "java.lang.Object".to_owned(),
        Ty::Class(fqn, args) => {
            let fqn = fqn.replace('$', ".");
            if !fqn.split('.').all(mji_edit::is_identifier) {
                return None;
            }
            match args.iter().map(exact_argument).collect::<Option<Vec<_>>>() {
                Some(a) if !a.is_empty() => format!("{fqn}<{}>", a.join(", ")),
                _ => fqn,
            }
        }
    })
}

/// A type argument written exactly: no type variable, no `Object` (maybe a wildcard).
fn exact_argument(t: &Ty) -> Option<String> {
    match t {
        Ty::Var(..) | Ty::Null => None,
        Ty::Class(fqn, _) if &**fqn == "java.lang.Object" => None,
        Ty::Array(e) => Some(format!("{}[]", exact_argument(e).or_else(|| java_type(e))?)),
        _ => java_type(t),
    }
}

/// A type a value must have exactly, qualified: `None` for a type variable or a class the world
/// does not know; type arguments it cannot write exactly leave the raw type (assignable to any
/// parameterization, with an unchecked warning at most).
fn exact_type(w: &World, t: &Ty) -> Option<String> {
    match t {
        Ty::Var(..) | Ty::Null => None,
        Ty::Array(e) => Some(format!("{}[]", exact_type(w, e)?)),
        Ty::Class(fqn, _) if w.origin(fqn) == Origin::Unresolved => None,
        _ => java_type(t),
    }
}

/// The binder's types of one file of the world.
struct Binder<'w> {
    w: &'w World,
    file: Option<u32>,
    doc: &'w Doc,
    bytes: &'w [u8],
}

impl Typer for Binder<'_> {
    fn param(&self, s: usize, e: usize) -> Option<String> {
        java_type(&mji_xref::resolve::expr_type(self.w, self.file?, self.bytes, s, e)?)
    }

    fn exact(&self, s: usize, e: usize) -> Option<String> {
        exact_type(self.w, &mji_xref::resolve::expr_type(self.w, self.file?, self.bytes, s, e)?)
    }

    fn argument(
        &self,
        receiver: Option<(usize, usize)>,
        method: &str,
        index: usize,
        count: usize,
        at: usize,
    ) -> Option<String> {
        // The receiver's type, else the named type around the call (whose methods of the name,
        // if any, are the only ones an unqualified call can mean: JLS 15.12.1).
        let ty = match receiver {
            Some((s, e)) => mji_xref::resolve::expr_type(self.w, self.file?, self.bytes, s, e)?,
            None => {
                let id = type_around(self.w, self.file?, self.doc.line_of(at))?;
                Ty::class(&self.w.decl(id).fqn)
            }
        };
        let (hits, complete) = self.w.find_methods(&ty, method);
        if !complete {
            return None;
        }
        // One method of the name could take `count` arguments, not varargs nor generic: an
        // argument of its parameter's exact type makes the call mean it.
        let fits: Vec<_> = hits
            .iter()
            .filter(|h| h.decl.params.len() == count || (h.decl.varargs && count + 1 >= h.decl.params.len()))
            .collect();
        let [hit] = fits[..] else { return None };
        if hit.decl.varargs || !hit.decl.tparams.is_empty() {
            return None;
        }
        exact_type(self.w, self.w.hit_params(hit).get(index)?.as_ref()?)
    }
}

/// The innermost type of file `fi` whose lines hold `line`.
fn type_around(w: &World, fi: u32, line: u32) -> Option<mji_xref::world::TypeId> {
    let decls = &w.files[fi as usize].decls();
    let i = (0..decls.types.len() as u32)
        .filter(|i| {
            let t = &decls.types[*i as usize];
            t.start_line <= line && line <= t.end_line
        })
        .max_by_key(|i| decls.types[*i as usize].start_line)?;
    Some(w.type_in_file(fi, i))
}

/// Where the class goes: a new file, or a member class of a workspace type.
pub(crate) enum Planned {
    File(NewClass),
    Nested(Doc, Vec<TextEdit>),
}

impl Planned {
    /// The file it is created in, as answers name it.
    pub(crate) fn display(&self) -> &str {
        match self {
            Planned::File(c) => &c.display,
            Planned::Nested(d, _) => &d.display,
        }
    }
}

/// The class the use of `name` at byte `at` of `doc` needs, typed by the binder.
pub(crate) fn new_class(ws: &Host, w: &World, doc: &Doc, at: usize, name: &str) -> Result<Planned, String> {
    let fi = w.files.iter().position(|f| *f.path == *doc.path).map(|i| i as u32);
    let typer = Binder { w, file: fi, doc, bytes: &doc.bytes };
    let Some((qualifier, ..)) = mji_edit::create_class::qualifier_at(doc, at, name)? else {
        // `I x = new Foo()`: Foo must be an I.
        let plain = || mji_edit::create_class::create_class(doc, at, name, &typer).map(Planned::File);
        let Some((s, e, written)) = mji_edit::create_class::created_into(doc, at, name) else { return plain() };
        if written.split('<').next().map(str::trim) == Some(name) {
            return plain();
        }
        let t = fi.and_then(|fi| mji_xref::resolve::expr_type(w, fi, &doc.bytes, s, e));
        if matches!(&t, Some(Ty::Class(f, _)) if &**f == "java.lang.Object") {
            return plain();
        }
        return match t.filter(|_| !written.contains('?')).and_then(|t| implemented(ws, w, &t)) {
            Some(i) => implementing(ws, w, doc, at, name, &typer, &i).map(Planned::File),
            None => {
                Err(format!("`new {name}(…)` is assigned to a {written}, which {name} cannot be made to implement"))
            }
        };
    };
    // `Outer.Inner`: `Outer` as the innermost type around the use reads it.
    let fi = fi.ok_or("the file is not indexed")?;
    let around = type_around(w, fi, doc.line_of(at)).ok_or("the use is outside any type")?;
    let outer = w.qualify_in(around, &qualifier).ok_or_else(|| format!("`{qualifier}` is not a type"))?;
    let id = w.workspace_type(&outer).ok_or_else(|| format!("{outer} is not a type of the workspace"))?;
    let d = w.decl(id);
    if d.outer.is_some() && !d.is_static && d.kind == mji_model::TypeKind::Class {
        return Err(format!("{outer} is an inner class: it cannot declare a static member class"));
    }
    let path = &w.files[w.file_of(id) as usize].path;
    let outer_doc = Doc::read(path, &ws.display_of(path)).map_err(|e| e.to_string())?;
    mji_edit::create_class::create_nested(doc, at, name, &qualifier, &outer_doc, &outer, &typer)
        .map(|edits| Planned::Nested(outer_doc, edits))
}

/// The interface `I x = new Foo()` assigns the new class to (`t`, the binder's type of `I`),
/// qualified as the class may implement it: one the world knows and the libraries declare,
/// not sealed.
fn implemented(ws: &Host, w: &World, t: &Ty) -> Option<String> {
    let Ty::Class(fqn, _) = t else { return None };
    let id = w.by_fqn(fqn)?;
    if w.decl(id).kind != mji_model::TypeKind::Interface {
        return None;
    }
    let decl = mji_edit::ctx::Ctx::type_decl(ws, w, fqn)?;
    if decl.modifiers.iter().any(|m| m == "sealed") || !decl.permits.is_empty() {
        return None;
    }
    exact_type(w, t)
}

/// The new class implementing `iface`, every abstract method it inherits written as the
/// implement quick fix writes them; refused when a supertype's methods are unknown.
fn implementing(
    ws: &Host,
    w: &World,
    doc: &Doc,
    at: usize,
    name: &str,
    typer: &Binder,
    iface: &str,
) -> Result<NewClass, String> {
    let mut c = mji_edit::create_class::create_class_implementing(doc, at, name, typer, Some(iface))?;
    let outline = mji_parser::outline(&c.display, c.text.as_bytes());
    let ty = outline.classes.first().ok_or("the new class does not parse")?;
    let mut qualified = ty.clone();
    qualified.implements = vec![iface.to_owned()];
    let new_doc = Doc::new(&c.path, &c.display, c.text.clone().into_bytes()).map_err(|e| e.to_string())?;
    // What a simple name means in the new file: its imports, its package, java.lang.
    let package = qualified.qualified_name.rsplit_once('.').map_or("", |x| x.0).to_owned();
    let imported: Vec<String> = c
        .text
        .lines()
        .filter_map(|l| Some(l.trim().strip_prefix("import ")?.strip_suffix(';')?.trim().to_owned()))
        .collect();
    let visible = |simple: &str| -> Option<String> {
        if let Some(q) = imported.iter().find(|q| q.rsplit('.').next() == Some(simple)) {
            return Some(q.clone());
        }
        if simple == name {
            return Some(qualified.qualified_name.clone());
        }
        let own = if package.is_empty() { simple.to_owned() } else { format!("{package}.{simple}") };
        [own, format!("java.lang.{simple}")]
            .into_iter()
            .find(|q| w.origin(q) != Origin::Unresolved && w.by_fqn(q).is_some())
    };
    let lookup = mji_edit::inherit::Lookup { types: mji_edit::ctx::TypeCache::new(ws, w), visible: &visible };
    let opts = mji_edit::generate::Options::default();
    let g = mji_edit::inherit::generate(
        &new_doc,
        ty,
        &qualified,
        mji_edit::generate::Action::ImplementMethods,
        &opts,
        &lookup,
    )?;
    if let Some(warning) = g.warnings.first() {
        return Err(warning.clone());
    }
    // From the end back; edits at one offset keep their order.
    let mut edits = g.edits;
    edits.sort_by_key(|e| (e.start, e.end));
    for e in edits.into_iter().rev() {
        if e.start > e.end || e.end > c.text.len() {
            return Err("a generated edit is outside the new class".into());
        }
        c.text.replace_range(e.start..e.end, &e.text);
    }
    Ok(c)
}

/// The quick fix: the new file, or the edit of the outer type's file.
pub(crate) fn create(ws: &Host, doc: &Doc, at: usize, name: &str) -> Result<Outcome, ToolError> {
    let planned = new_class(ws, &ws.xref_world().0, doc, at, name)
        .map_err(|why| ToolError::InvalidArgument(format!("fix class refused: {why}")))?;
    let summary = format!("create class {name} ({})", planned.display());
    let mut edit = WorkspaceEdit::default();
    match planned {
        Planned::File(c) => edit.add(FileEdit::create(&c.path, &c.display, c.text)),
        Planned::Nested(d, edits) => {
            let mut f = d.edit();
            f.edits = edits;
            edit.add(f);
        }
    }
    Ok(Outcome::new(edit, summary))
}
