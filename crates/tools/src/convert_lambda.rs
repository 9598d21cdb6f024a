//! `convert` chooses by what is on the line: an anonymous class becomes a lambda (this file),
//! anything else is the indexed `for` of [`crate::signature::convert`]. The syntax half is
//! [`mji_edit::convert_lambda`]; this adds what the binder and the libraries know: the type is
//! a functional interface (one abstract method, through its supertypes, the JDK's and jars'
//! class files included), no name in the body meant one of its inherited members, and the
//! lambda gets the same target type where it stands (a call whose other overloads could take a
//! lambda there is refused).

use mji_edit::convert_lambda::{Anonymous, Context};
use mji_edit::{Doc, WorkspaceEdit};
use mji_xref::ty::Ty;
use mji_xref::world::{TypeId, World};

use mji_edit::ctx::Outcome;

use crate::ToolError;
use crate::edit::RefactorArgs;
use crate::host::Host;

/// `convert`: an anonymous class on `line` to a lambda, else an indexed `for`.
pub(crate) fn convert(ws: &Host, args: &RefactorArgs) -> Result<Outcome, ToolError> {
    if args.file_path.trim().is_empty() || args.line == 0 {
        return crate::signature::convert(ws, args);
    }
    let r = ws.resolve(&args.file_path)?;
    ws.check_file(&r.path, &r.display)?;
    crate::require_java(&r.path, &r.display)?;
    let doc = Doc::read(&r.path, &r.display)?;
    if !mji_edit::convert_lambda::is_anonymous_at(&doc, args.line) {
        return crate::signature::convert(ws, args);
    }
    let bad = |why: String| ToolError::InvalidArgument(format!("not converted: {why}"));
    let at = if args.column > 0 { doc.offset(args.line, args.column) } else { None };
    let a = mji_edit::convert_lambda::anonymous_at(&doc, args.line, at).map_err(bad)?;
    let (w, _) = ws.xref_world();
    let fi = w.files.iter().position(|f| *f.path == *r.path).ok_or_else(|| bad("the file is not indexed".into()))?;
    let line = doc.line_of(a.start);
    let no = |why: String| bad(format!("the anonymous class at line {line} stays: {why}"));
    let here = {
        let decls = &w.files[fi].decls().types;
        let ti = decls.iter().enumerate().rev().find(|(_, t)| t.start_line <= line && line <= t.end_line);
        ti.map(|(i, _)| w.type_in_file(fi as u32, i as u32))
    }
    .ok_or_else(|| no("the class around it is not known to the engine".into()))?;
    let fqn = w
        .qualify_in(here, &a.type_name)
        .ok_or_else(|| no(format!("the engine does not know the type `{}`", a.type_name)))?;
    let f = functional(ws, &w, &fqn);
    if !f.is_interface {
        return Err(no(format!("{fqn} is not an interface the engine can read")));
    }
    if let Some(m) = f.missing.first() {
        return Err(no(format!("{m}, a supertype of {fqn}, is not in the workspace or its libraries")));
    }
    let [sam] = f.abstract_methods.as_slice() else {
        return Err(no(format!(
            "{fqn} has {} abstract methods; a functional interface has one",
            f.abstract_methods.len()
        )));
    };
    if sam.name != a.method || sam.params.len() != a.arity {
        return Err(no(format!("its method is not {fqn}'s abstract method {}", sam.name)));
    }
    if sam.type_params_text.is_some() {
        return Err(no(format!("{fqn}.{} is generic (a lambda cannot implement it)", sam.name)));
    }
    if let Some(n) = a.names.iter().find(|n| f.members.contains(n.as_str())) {
        return Err(no(format!("`{n}` in its body is a member it inherits; in a lambda it would mean another")));
    }
    target(&w, fi, here, &doc, &a, &fqn).map_err(no)?;
    let mut edit = WorkspaceEdit::default();
    let mut fe = doc.edit();
    fe.edits = vec![mji_edit::convert_lambda::to_lambda(&a)];
    edit.add(fe);
    let summary = format!("convert the anonymous {} at line {line} to a lambda", a.type_text);
    Ok(Outcome::new(edit, summary))
}

/// [`mji_edit::inherit::functional`] with types loaded from the world's files (their texts
/// qualified) or the libraries' class files.
fn functional(ws: &Host, w: &World, fqn: &str) -> mji_edit::inherit::Functional {
    let visible = |_: &str| None;
    let lookup = mji_edit::inherit::Lookup { types: mji_edit::ctx::TypeCache::new(ws, w), visible: &visible };
    mji_edit::inherit::functional(fqn, &lookup)
}

/// Whether the lambda gets `fqn` as its target type where the anonymous class stands.
fn target(w: &World, fi: usize, here: TypeId, doc: &Doc, a: &Anonymous, fqn: &str) -> Result<(), String> {
    let same = |t: &str| {
        let base = t.split('<').next().unwrap_or(t).trim();
        base == a.type_name || w.qualify_in(here, base).is_some_and(|q| q == fqn)
    };
    match &a.context {
        Context::Declared(t) if same(t) => Ok(()),
        Context::Declared(t) => Err(format!("its target type would be {t}, not {}", a.type_name)),
        Context::Returned(t) if same(t) => Ok(()),
        Context::Returned(t) => Err(format!("its method returns {t}, not {}", a.type_name)),
        Context::Assigned(s, e) => match mji_xref::resolve::expr_type(w, fi as u32, &doc.bytes, *s, *e) {
            Some(Ty::Class(f, _)) if &*f == fqn => Ok(()),
            Some(t) => Err(format!("it is assigned to a {}, not a {}", t.erasure(), a.type_name)),
            None => Err("the engine cannot type what it is assigned to".into()),
        },
        Context::Argument { name, index, ctor } => argument(w, fi, here, doc, (name.0, name.1), *index, *ctor, fqn),
    }
}

/// An argument: the call binds to one method whose parameter there is `fqn`, and no other
/// overload of the name could take a lambda there.
#[allow(clippy::too_many_arguments)]
fn argument(
    w: &World,
    fi: usize,
    here: TypeId,
    doc: &Doc,
    name: (usize, usize),
    index: usize,
    ctor: bool,
    fqn: &str,
) -> Result<(), String> {
    let called = &doc.text()[name.0..name.1];
    let refs = mji_xref::resolve::file_refs(w, fi as u32, &doc.bytes);
    let cat = if ctor { mji_xref::Category::Ctor } else { mji_xref::Category::Method };
    let key = refs
        .iter()
        .filter(|r| r.category == cat && r.targets.len() == 1)
        .find(|r| doc.offset(r.line, r.column).is_some_and(|o| name.0 <= o && o < name.1.max(name.0 + 1)))
        .map(|r| r.targets[0].clone())
        .ok_or_else(|| format!("the engine could not bind the call `{called}` it is passed to"))?;
    let (owner, params) = split_key(&key).ok_or_else(|| format!("the engine's binding of `{called}` is unreadable"))?;
    if params.get(index).map(String::as_str) != Some(fqn) {
        return Err(format!(
            "`{called}` takes {} there, not {fqn}",
            params.get(index).map_or("varargs", |p| p.as_str())
        ));
    }
    let owner_id = w.by_fqn(&owner).ok_or_else(|| format!("the engine does not know {owner}"))?;
    let mut others: Vec<(String, bool)> = Vec::new();
    if ctor {
        others.extend(w.decl(owner_id).ctors.iter().map(|c| (w.method_key(owner_id, c), c.varargs)));
    } else {
        let method = key.split_once('#').and_then(|(_, r)| r.split_once('(')).map(|(n, _)| n).unwrap_or("");
        let mut tys = vec![Ty::class(&owner)];
        tys.push(Ty::Class(w.decl(here).fqn.clone(), Vec::new()));
        for ty in tys {
            let (hits, complete) = w.find_methods(&ty, method);
            if !complete {
                return Err(format!("not every supertype with methods `{method}` is known to the engine"));
            }
            others.extend(hits.iter().map(|h| (w.method_key(h.owner, h.decl), h.decl.varargs)));
        }
    }
    for (k, varargs) in others {
        if k == key {
            continue;
        }
        let Some((_, ps)) = split_key(&k) else { continue };
        // Applicable by arity: as many arguments, or a varargs method's fixed ones at least.
        if (!varargs && ps.len() != params.len()) || (varargs && params.len() + 1 < ps.len()) {
            continue;
        }
        let p = if varargs && index + 1 >= ps.len() {
            ps.last().map(|l| l.trim_end_matches("[]").to_owned())
        } else {
            ps.get(index).cloned()
        };
        let Some(p) = p else { continue };
        let lambda_ok = match w.by_fqn(&p) {
            Some(id) => w.decl(id).kind == mji_model::TypeKind::Interface,
            None => !PRIMITIVES.contains(&p.as_str()) && !p.ends_with("[]"),
        };
        if lambda_ok {
            return Err(format!("`{called}` has another overload ({k}) that could take a lambda there"));
        }
    }
    Ok(())
}

const PRIMITIVES: &[&str] = &["byte", "short", "char", "int", "long", "float", "double", "boolean"];

/// `Owner#name(p1,p2)`: the owner and the parameter erasures.
fn split_key(key: &str) -> Option<(String, Vec<String>)> {
    let (owner, rest) = key.split_once('#')?;
    let inner = rest.split_once('(')?.1.strip_suffix(')')?;
    let params = if inner.is_empty() { Vec::new() } else { inner.split(',').map(str::to_owned).collect() };
    Some((owner.to_owned(), params))
}
