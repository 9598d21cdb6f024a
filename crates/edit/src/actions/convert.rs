//! `convert`, chosen by what is on the line: an anonymous class becomes a lambda, anything else
//! is an indexed `for` that becomes an enhanced `for`. Both halves are here: the syntax (what
//! the code shows) and the binder's checks (what the world knows).
//!
//! An anonymous class → lambda: `new I() { R m(P p) { … } }` becomes `(P p) -> …` only where
//! the syntax shows nothing that would change meaning — no arguments, one method and no other
//! member, no `this`/`super`, a method that is not generic or synchronized, no name the lambda
//! declares that a local of the enclosing code already has (a lambda shares its enclosing
//! scope), and a context that gives the lambda the same target type (a declaration or cast of
//! the same type, a `return` of a method declaring it, a call's argument or an assignment). The
//! parameters keep their declared types, so a target type other than the anonymous class's
//! fails to compile rather than changing meaning. The binder and the libraries add: the type is
//! a functional interface (one abstract method, through its supertypes, the JDK's and jars'
//! class files included), no name in the body meant one of its inherited members, and the
//! lambda gets the same target type where it stands (a call whose other overloads could take a
//! lambda there is refused).
//!
//! An indexed `for` over an array or a `List` → an enhanced `for`, only where the index is used
//! for nothing but reading the element (`a[i]`, `list.get(i)`) and neither the index, the array
//! or list variable, nor an element is written in the body; the element typed by the binder (an
//! array's element, a `java.util.List`'s argument).

use mji_parser::kind;
use mji_xref::ty::Ty;
use mji_xref::world::{TypeId, World};
use tree_sitter::Node;

use crate::actions::ActionError;
use crate::ctx::{Ctx, Outcome, TypeCache};
use crate::locals::{declaration_of, in_nested_code, is_member_name};
use crate::syntax::{indent_before, text, walk};
use crate::{Doc, TextEdit, WorkspaceEdit};

/// `convert` at `line` of `doc`: the anonymous class there (at `column`, when given and more
/// than one starts on the line) to a lambda, else the indexed `for` starting there.
pub fn run(ctx: &dyn Ctx, doc: &Doc, line: u32, column: u32) -> Result<Outcome, ActionError> {
    if is_anonymous_at(doc, line) { lambda(ctx, doc, line, column) } else { enhanced(ctx, doc, line) }
}

/// The anonymous class on `line` to a lambda.
fn lambda(ctx: &dyn Ctx, doc: &Doc, line: u32, column: u32) -> Result<Outcome, ActionError> {
    let bad = |why: String| ActionError::Refused(format!("not converted: {why}"));
    let at = if column > 0 { doc.offset(line, column) } else { None };
    let a = anonymous_at(doc, line, at).map_err(bad)?;
    let (w, _) = ctx.world();
    let fi = w.files.iter().position(|f| *f.path == *doc.path).ok_or_else(|| bad("the file is not indexed".into()))?;
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
    let f = functional(ctx, &w, &fqn);

    if !f.is_interface && f.known {
        // JLS 15.27.3: a lambda's target is a functional interface.
        return Err(no(format!("{fqn} is a class, not an interface: only an interface's instance can be a lambda")));
    }
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
    for n in a.names.iter().filter(|n| f.members.contains(n.as_str())) {
        // A member type the lambda names as well (imported, or inherited by the enclosing
        // class) means the same there; any other inherited member would mean another.
        let Some(member) = f.member_types.get(n) else {
            return Err(no(format!("`{n}` in its body is a member it inherits; in a lambda it would mean another")));
        };
        match w.qualify_in(here, n) {
            Some(there) if there == *member => {}
            there => {
                let there = there.unwrap_or_else(|| "nothing the engine knows".into());
                return Err(no(format!(
                    "`{n}` in its body is a member it inherits ({member}); in a lambda it would mean {there}"
                )));
            }
        }
    }
    target(&w, fi, here, doc, &a, &fqn).map_err(no)?;
    let mut edit = WorkspaceEdit::default();
    let mut fe = doc.edit();
    fe.edits = vec![to_lambda(&a)];
    edit.add(fe);
    let summary = format!("convert the anonymous {} at line {line} to a lambda", a.type_text);
    Ok(Outcome::new(edit, summary))
}

/// [`crate::inherit::functional`] with types loaded from the world's files (their texts
/// qualified) or the libraries' class files.
fn functional(ctx: &dyn Ctx, w: &World, fqn: &str) -> crate::inherit::Functional {
    let visible = |_: &str| None;
    let lookup = crate::inherit::Lookup { types: TypeCache::new(ctx, w), visible: &visible };
    crate::inherit::functional(fqn, &lookup)
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
        Context::Assigned(s, e) => match mji_xref::bind::expr_type(w, fi as u32, &doc.bytes, *s, *e) {
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
    let refs = mji_xref::bind::file_refs(w, fi as u32, &doc.bytes);
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

/// The indexed `for` starting on `line` to an enhanced `for`, its element typed by the binder
/// (an array's element, a `java.util.List`'s argument).
fn enhanced(ctx: &dyn Ctx, doc: &Doc, line: u32) -> Result<Outcome, ActionError> {
    let bad = |why: String| ActionError::Refused(format!("not converted: {why}"));
    let f = indexed_for(doc, line).map_err(bad)?;
    let (w, _) = ctx.world();
    let mut imports = Vec::new();
    let element = w.files.iter().position(|x| *x.path == *doc.path).and_then(|fi| {
        let line = doc.line_of(f.start);
        let decls = &w.files[fi].decls().types;
        let ti = decls.iter().enumerate().rev().find(|(_, t)| t.start_line <= line && line <= t.end_line)?.0;
        let id = w.type_in_file(fi as u32, ti as u32);
        let t = mji_xref::bind::expr_type(&w, fi as u32, &doc.bytes, f.over.0, f.over.1)?;
        let e = match (&t, f.list) {
            (Ty::Array(e), false) => (**e).clone(),
            (Ty::Class(fqn, a), true) if matches!(&**fqn, "java.util.List" | "java.util.ArrayList") && a.len() == 1 => {
                a[0].clone()
            }
            _ => return None,
        };
        crate::imports::type_text(&w, id, &e, doc, &mut imports)
    });
    let Some(element) = element else {
        return Err(bad(format!(
            "the binder does not type `{}` as an array or a java.util.List<E> whose element type can be written here",
            &doc.text()[f.over.0..f.over.1]
        )));
    };
    let mut edit = WorkspaceEdit::default();
    let mut fe = doc.edit();
    fe.edits = enhanced_for(doc, &f, &element);
    fe.edits.extend(imports);
    edit.add(fe);
    let summary = format!(
        "convert the indexed for at line {} to for ({element} {} : {}): {} element read{}",
        line,
        f.name,
        &doc.text()[f.over.0..f.over.1],
        f.reads.len(),
        if f.reads.len() == 1 { "" } else { "s" }
    );
    Ok(Outcome::new(edit, summary))
}

/// Where the anonymous class stands, as its target type depends on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Context {
    /// A variable or field declared, or a cast, to this type text.
    Declared(String),
    /// The value a method declaring this return type returns.
    Returned(String),
    /// Argument `index` of a call whose name (a method's, or the class a `new` creates) is at
    /// `name` bytes.
    Argument { name: (usize, usize), index: usize, ctor: bool },
    /// The value assigned to the expression at these bytes.
    Assigned(usize, usize),
}

/// An anonymous class that can become a lambda, as far as the syntax tells.
#[derive(Debug, Clone)]
pub struct Anonymous {
    /// The creation expression's bytes.
    pub start: usize,
    pub end: usize,
    /// The created type as written, without type arguments (`Comparator`, `Map.Entry`).
    pub type_name: String,
    /// As written, with its type arguments (`Comparator<String>`).
    pub type_text: String,
    pub method: String,
    pub arity: usize,
    /// Simple names the body uses that are not its own locals: unqualified calls, variables and
    /// type names — each meant the anonymous class's inherited member if it has one.
    pub names: Vec<String>,
    pub context: Context,
    lambda: String,
}

/// The anonymous class created on `line` (the first whose `new` is there; at `column` when
/// given, the innermost around it), judged.
pub fn anonymous_at(doc: &Doc, line: u32, at: Option<usize>) -> Result<Anonymous, String> {
    let src = doc.text();
    let tree = mji_parser::parse_tree(src).ok_or("the file does not parse")?;
    let row = line.saturating_sub(1) as usize;
    let mut found: Option<Node> = None;
    walk(tree.root_node(), &mut |n| {
        let anonymous =
            n.kind() == kind::OBJECT_CREATION_EXPRESSION && last(n).is_some_and(|b| b.kind() == kind::CLASS_BODY);
        if !anonymous {
            return;
        }
        let fits = match at {
            Some(o) => n.start_byte() <= o && o < n.end_byte(),
            None => n.start_position().row == row && found.is_none(),
        };
        if fits {
            found = Some(n);
        }
    });
    let new = found.ok_or_else(|| format!("no anonymous class is created on line {line}"))?;
    judge(new, src)
}

/// Whether an anonymous class is created on `line`.
pub fn is_anonymous_at(doc: &Doc, line: u32) -> bool {
    let Some(tree) = mji_parser::parse_tree(doc.text()) else { return false };
    let mut found = false;
    walk(tree.root_node(), &mut |n| {
        found |= n.kind() == kind::OBJECT_CREATION_EXPRESSION
            && n.start_position().row + 1 == line as usize
            && last(n).is_some_and(|b| b.kind() == kind::CLASS_BODY);
    });
    found
}

fn last(n: Node) -> Option<Node> {
    n.named_child((n.named_child_count() as u32).saturating_sub(1))
}

fn judge(new: Node, src: &str) -> Result<Anonymous, String> {
    let bytes = src.as_bytes();
    let line = new.start_position().row + 1;
    let no = |why: String| format!("the anonymous class at line {line} stays: {why}");
    let ty = new.child_by_field_name("type").ok_or_else(|| no("no type".into()))?;
    let body = last(new).ok_or_else(|| no("no body".into()))?;
    if new.child_by_field_name("arguments").is_some_and(|a| a.named_child_count() > 0) {
        return Err(no("it passes constructor arguments (a class, not an interface)".into()));
    }
    if new.named_child(0).is_some_and(|x| x != ty && x.kind() != kind::TYPE_ARGUMENTS) {
        return Err(no("it is created on an outer instance".into()));
    }
    let type_text = text(ty, src).to_owned();
    let type_name = match ty.kind() {
        kind::GENERIC_TYPE => ty.named_child(0).map(|t| text(t, src)).unwrap_or("").to_owned(),
        _ => type_text.clone(),
    };
    // One method, nothing else.
    let mut c = body.walk();
    let members: Vec<Node> =
        body.named_children(&mut c).filter(|m| !matches!(m.kind(), kind::LINE_COMMENT | kind::BLOCK_COMMENT)).collect();
    let [m] = members.as_slice() else {
        return Err(no(format!("its body declares {} members; a lambda is one method", members.len())));
    };
    if m.kind() != kind::METHOD_DECLARATION {
        return Err(no("its body declares a field, an initializer or a class, not one method".into()));
    }
    if m.child_by_field_name("type_parameters").is_some() {
        return Err(no("its method is generic".into()));
    }
    let mods = {
        let mut c = m.walk();
        m.named_children(&mut c).find(|x| x.kind() == kind::MODIFIERS).map(|x| text(x, src)).unwrap_or("")
    };
    if mods.split_whitespace().any(|w| w == "synchronized" || w == "strictfp") {
        return Err(no("its method is synchronized or strictfp".into()));
    }
    let m_body = m.child_by_field_name("body").ok_or_else(|| no("its method has no body".into()))?;
    let method = m.child_by_field_name("name").map(|n| text(n, src)).unwrap_or("").to_owned();
    let ps = m.child_by_field_name("parameters").ok_or_else(|| no("no parameters".into()))?;
    let mut c = ps.walk();
    let params: Vec<Node> = ps
        .named_children(&mut c)
        .filter(|p| matches!(p.kind(), kind::FORMAL_PARAMETER | kind::SPREAD_PARAMETER | kind::RECEIVER_PARAMETER))
        .collect();
    if params.iter().any(|p| p.kind() == kind::RECEIVER_PARAMETER) {
        return Err(no("its method declares a receiver parameter".into()));
    }
    // `this`, `super`; the names the method declares; the names it uses.
    let mut why: Option<String> = None;
    let mut declared: Vec<(String, usize)> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    walk(*m, &mut |n| {
        if why.is_some() {
            return;
        }
        let nested = in_nested_code(n, m_body) && in_class(n, m_body);
        match n.kind() {
            kind::THIS | kind::SUPER if !nested => {
                why = Some(format!("its method uses `{}` (line {})", n.kind(), n.start_position().row + 1));
            }
            // `Outer.Inner`'s `Inner` is qualified: only its first segment is a simple name.
            kind::TYPE_IDENTIFIER
                if !n.parent().is_some_and(|p| {
                    p.kind() == kind::SCOPED_TYPE_IDENTIFIER && p.named_child(0).is_some_and(|f| f != n)
                }) =>
            {
                names.push(text(n, src).to_owned())
            }
            kind::IDENTIFIER => {
                let t = text(n, src);
                let p = n.parent();
                let declares = p.is_some_and(|p| {
                    (p.child_by_field_name("name") == Some(n)
                        && matches!(
                            p.kind(),
                            kind::VARIABLE_DECLARATOR
                                | kind::FORMAL_PARAMETER
                                | kind::CATCH_FORMAL_PARAMETER
                                | kind::RESOURCE
                                | kind::ENHANCED_FOR_STATEMENT
                        ))
                        || p.kind() == kind::INFERRED_PARAMETERS
                        || (p.kind() == kind::LAMBDA_EXPRESSION && p.child_by_field_name("parameters") == Some(n))
                });
                if declares {
                    if !nested {
                        declared.push((t.to_owned(), n.start_position().row + 1));
                    }
                    return;
                }
                let call = p.is_some_and(|p| {
                    p.kind() == kind::METHOD_INVOCATION
                        && p.child_by_field_name("name") == Some(n)
                        && p.child_by_field_name("object").is_none()
                });
                if call
                    || (!is_member_name(n)
                        && declaration_of(n, t, bytes).is_none_or(|d| d.0.start_byte() < m.start_byte()))
                {
                    names.push(t.to_owned());
                }
            }
            _ => {}
        }
    });
    if let Some(w) = why {
        return Err(no(w));
    }
    if m.child_by_field_name("name").is_some_and(|n| names.iter().any(|x| x == text(n, src))) {
        return Err(no("its method calls itself".into()));
    }
    // A lambda's names are in the enclosing scope: none may be a local there.
    for (d, at) in &declared {
        if declaration_of(new, d, bytes).is_some() {
            return Err(no(format!("`{d}` (line {at}) would redeclare a variable of the enclosing code")));
        }
    }
    names.sort();
    names.dedup();
    let context = context(new, src).map_err(no)?;
    // The lambda.
    let plist: Vec<&str> = params.iter().map(|p| text(*p, src)).collect();
    let head = format!("({}) -> ", plist.join(", "));
    let mut c = m_body.walk();
    let stmts: Vec<Node> = m_body.named_children(&mut c).collect();
    let void = m.child_by_field_name("type").is_some_and(|t| t.kind() == kind::VOID_TYPE);
    let lambda = match stmts.as_slice() {
        [s] if s.kind() == kind::RETURN_STATEMENT && s.named_child(0).is_some() => {
            format!("{head}{}", s.named_child(0).map(|e| text(e, src)).unwrap_or(""))
        }
        [s] if void
            && s.kind() == kind::EXPRESSION_STATEMENT
            && s.named_child(0).is_some_and(|e| {
                matches!(
                    e.kind(),
                    kind::METHOD_INVOCATION
                        | kind::OBJECT_CREATION_EXPRESSION
                        | kind::ASSIGNMENT_EXPRESSION
                        | kind::UPDATE_EXPRESSION
                )
            }) =>
        {
            format!("{head}{}", s.named_child(0).map(|e| text(e, src)).unwrap_or(""))
        }
        _ => format!(
            "{head}{}",
            dedent(src, m_body, indent_before(src, m.start_byte()).len(), indent_before(src, new.start_byte()).len())
        ),
    };
    Ok(Anonymous {
        start: new.start_byte(),
        end: new.end_byte(),
        type_name,
        type_text,
        method,
        arity: params.len(),
        names,
        context,
        lambda,
    })
}

/// Whether `n` is inside a class body below `top` (not merely a lambda).
fn in_class(n: Node, top: Node) -> bool {
    let mut x = n;
    while x != top {
        if x.kind() == kind::CLASS_BODY {
            return true;
        }
        match x.parent() {
            Some(p) => x = p,
            None => return false,
        }
    }
    false
}

fn context(new: Node, src: &str) -> Result<Context, String> {
    let p = new.parent().ok_or("it stands nowhere")?;
    match p.kind() {
        kind::VARIABLE_DECLARATOR if p.child_by_field_name("value") == Some(new) => {
            let holder = p.parent().ok_or("no declaration")?;
            let ty = holder.child_by_field_name("type").map(|t| text(t, src)).unwrap_or("");
            if p.child_by_field_name("dimensions").is_some() || ty.is_empty() {
                return Err("its variable's type is not written in one place".into());
            }
            if ty == "var" {
                return Err("it initializes a `var` (a lambda needs a target type)".into());
            }
            Ok(Context::Declared(ty.to_owned()))
        }
        kind::CAST_EXPRESSION => {
            let ty = p.child_by_field_name("type").map(|t| text(t, src)).unwrap_or("");
            let mut c = p.walk();
            if p.children_by_field_name("type", &mut c).count() != 1 {
                return Err("it is cast to an intersection type".into());
            }
            Ok(Context::Declared(ty.to_owned()))
        }
        kind::RETURN_STATEMENT => {
            let mut x = p;
            while let Some(up) = x.parent() {
                match up.kind() {
                    kind::METHOD_DECLARATION => {
                        let ty = up.child_by_field_name("type").map(|t| text(t, src)).unwrap_or("");
                        if up.child_by_field_name("dimensions").is_some() {
                            return Err("its method's return type has dimensions after the parameters".into());
                        }
                        return Ok(Context::Returned(ty.to_owned()));
                    }
                    kind::LAMBDA_EXPRESSION | kind::CLASS_BODY => break,
                    _ => x = up,
                }
            }
            Err("it is returned from a lambda (its target type is inferred)".into())
        }
        kind::ARGUMENT_LIST => {
            let call = p.parent().ok_or("no call")?;
            let mut c = p.walk();
            let index = p.named_children(&mut c).position(|a| a == new).ok_or("not an argument")?;
            let (name, ctor) = match call.kind() {
                kind::METHOD_INVOCATION => (call.child_by_field_name("name"), false),
                kind::OBJECT_CREATION_EXPRESSION if last(call).is_some_and(|b| b.kind() != kind::CLASS_BODY) => {
                    (call.child_by_field_name("type"), true)
                }
                _ => (None, false),
            };
            let name = name.ok_or("it is an argument of a this(…)/super(…) call or an anonymous class's")?;
            Ok(Context::Argument { name: (name.start_byte(), name.end_byte()), index, ctor })
        }
        kind::ASSIGNMENT_EXPRESSION
            if p.child_by_field_name("right") == Some(new)
                && p.child_by_field_name("operator").is_some_and(|o| text(o, src) == "=") =>
        {
            let l = p.child_by_field_name("left").ok_or("no left side")?;
            Ok(Context::Assigned(l.start_byte(), l.end_byte()))
        }
        other => Err(format!("it is used as {} (a lambda there would lose its target type)", other.replace('_', " "))),
    }
}

/// The block's text with its lines after the first moved left by the method's indentation
/// over the `new`'s (a text block's lines as they are).
fn dedent(src: &str, block: Node, method: usize, new: usize) -> String {
    let t = text(block, src);
    let by = method.saturating_sub(new);
    if by == 0 || t.contains("\"\"\"") {
        return t.to_owned();
    }
    let mut out = String::new();
    for (i, l) in t.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
            let ws = l.chars().take(by).take_while(|c| *c == ' ' || *c == '\t').count();
            out.push_str(&l[ws..]);
        } else {
            out.push_str(l);
        }
    }
    out
}

/// The edit replacing the anonymous class by its lambda.
pub fn to_lambda(a: &Anonymous) -> TextEdit {
    TextEdit { start: a.start, end: a.end, text: a.lambda.clone() }
}

/// An indexed loop that can become an enhanced `for`, before its element type is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexedFor {
    /// The loop statement's byte range.
    pub start: usize,
    pub end: usize,
    /// The array or list expression's range (a variable's name).
    pub over: (usize, usize),
    pub list: bool,
    /// The element reads (`a[i]`, `list.get(i)`) the element variable replaces.
    pub reads: Vec<(usize, usize)>,
    /// The header `(…)`'s range.
    pub header: (usize, usize),
    /// The name chosen for the element variable.
    pub name: String,
}

/// The indexed `for` whose line is `line` (its first `for` statement starting there), judged.
pub fn indexed_for(doc: &Doc, line: u32) -> Result<IndexedFor, String> {
    let src = doc.text();
    let tree = mji_parser::parse_tree(src).ok_or("the file does not parse")?;
    let row = line.saturating_sub(1) as usize;
    let mut found = None;
    walk(tree.root_node(), &mut |n| {
        if found.is_none() && n.kind() == kind::FOR_STATEMENT && n.start_position().row == row {
            found = Some(n);
        }
    });
    let f = found.ok_or_else(|| format!("no `for` statement starts on line {line}"))?;
    let no = |why: &str| format!("not an indexed loop over an array or list: {why}");
    // `int i = 0`
    let init = f.child_by_field_name("init").ok_or("no initializer").map_err(no)?;
    let mut c = init.walk();
    let decls: Vec<Node> = init.named_children(&mut c).filter(|d| d.kind() == kind::VARIABLE_DECLARATOR).collect();
    let ty = init.child_by_field_name("type").map(|t| text(t, src));
    let [decl] = decls.as_slice() else { return Err(no("the initializer is not one `int i = 0`")) };
    let i = decl.child_by_field_name("name").map(|n| text(n, src)).unwrap_or("");
    if init.kind() != kind::LOCAL_VARIABLE_DECLARATION
        || ty != Some("int")
        || decl.child_by_field_name("value").map(|v| text(v, src)) != Some("0")
    {
        return Err(no("the initializer is not `int i = 0`"));
    }
    // `i < a.length` / `i < list.size()`
    let cond = f.child_by_field_name("condition").ok_or("no condition").map_err(no)?;
    let (l, r) = (cond.child_by_field_name("left"), cond.child_by_field_name("right"));
    let op = cond.child_by_field_name("operator").map(|o| text(o, src));
    let (Some(l), Some(r)) = (l, r) else { return Err(no("the condition is not `i < a.length` or `i < list.size()`")) };
    if cond.kind() != kind::BINARY_EXPRESSION || op != Some("<") || text(l, src) != i {
        return Err(no("the condition is not `i < a.length` or `i < list.size()`"));
    }
    let (over, list) = match r.kind() {
        kind::FIELD_ACCESS if r.child_by_field_name("field").map(|x| text(x, src)) == Some("length") => {
            (r.child_by_field_name("object"), false)
        }
        kind::METHOD_INVOCATION
            if r.child_by_field_name("name").map(|x| text(x, src)) == Some("size")
                && r.child_by_field_name("arguments").is_some_and(|a| a.named_child_count() == 0) =>
        {
            (r.child_by_field_name("object"), true)
        }
        _ => (None, false),
    };
    let Some(over) = over.filter(|o| o.kind() == kind::IDENTIFIER) else {
        return Err(no("the bound is not a variable's `.length` or `.size()`"));
    };
    let var = text(over, src);
    // `i++`, `++i`, `i += 1`
    let update: Vec<String> = {
        let mut c = f.walk();
        f.children_by_field_name("update", &mut c).map(|u| text(u, src).split_whitespace().collect()).collect()
    };
    if update.len() != 1 || ![format!("{i}++"), format!("++{i}"), format!("{i}+=1")].contains(&update[0]) {
        return Err(no("the update is not `i++`"));
    }
    let body = f.child_by_field_name("body").ok_or("no body").map_err(no)?;
    // Every use of `i` reads the element; `a` / `list` appears only there; nothing is written.
    let mut reads = Vec::new();
    let mut why: Option<String> = None;
    let mut names = std::collections::HashSet::new();
    walk(body, &mut |n| {
        if why.is_some() || n.kind() != kind::IDENTIFIER {
            return;
        }
        let t = text(n, src);
        names.insert(t.to_owned());
        if t != i && t != var {
            return;
        }
        let p = n.parent();
        let member = p.is_some_and(|p| {
            (p.kind() == kind::FIELD_ACCESS && p.child_by_field_name("field") == Some(n))
                || (p.kind() == kind::METHOD_INVOCATION && p.child_by_field_name("name") == Some(n))
        });
        if member {
            return;
        }
        // The element read this use belongs to.
        let read = p.and_then(|p| {
            if !list && p.kind() == kind::ARRAY_ACCESS {
                let (a, x) = (p.child_by_field_name("array")?, p.child_by_field_name("index")?);
                (text(a, src) == var && text(x, src) == i).then_some(p)
            } else if list && p.kind() == kind::ARGUMENT_LIST {
                let call = p.parent()?;
                let ok = call.kind() == kind::METHOD_INVOCATION
                    && call.child_by_field_name("name").map(|x| text(x, src)) == Some("get")
                    && call.child_by_field_name("object").map(|x| text(x, src)) == Some(var)
                    && p.named_child_count() == 1
                    && text(n, src) == i;
                ok.then_some(call)
            } else if list && p.kind() == kind::METHOD_INVOCATION && p.child_by_field_name("object") == Some(n) {
                let ok = p.child_by_field_name("name").map(|x| text(x, src)) == Some("get")
                    && p.child_by_field_name("arguments").is_some_and(|a| {
                        a.named_child_count() == 1 && a.named_child(0).is_some_and(|x| text(x, src) == i)
                    });
                ok.then_some(p)
            } else {
                None
            }
        });
        let Some(read) = read else {
            why = Some(format!("`{t}` is used at line {} other than to read the element", n.start_position().row + 1));
            return;
        };
        // An element written (`a[i] = …`, `a[i]++`).
        if let Some(up) = read.parent()
            && ((up.kind() == kind::ASSIGNMENT_EXPRESSION && up.child_by_field_name("left") == Some(read))
                || up.kind() == kind::UPDATE_EXPRESSION)
        {
            why = Some(format!("the element is written at line {}", n.start_position().row + 1));
            return;
        }
        if !reads.contains(&(read.start_byte(), read.end_byte())) {
            reads.push((read.start_byte(), read.end_byte()));
        }
    });
    if let Some(w) = why {
        return Err(no(&w));
    }
    if reads.is_empty() {
        return Err(no("the body does not read the element"));
    }
    // The element's name: the variable's singular, else `element`, free in the method.
    let method_names: std::collections::HashSet<String> = {
        let mut s = std::collections::HashSet::new();
        let mut top = f;
        while let Some(p) = top.parent() {
            top = p;
            if matches!(p.kind(), kind::METHOD_DECLARATION | kind::CONSTRUCTOR_DECLARATION | kind::LAMBDA_EXPRESSION) {
                break;
            }
        }
        walk(top, &mut |n| {
            if n.kind() == kind::IDENTIFIER {
                s.insert(text(n, src).to_owned());
            }
        });
        s
    };
    let singular = var.strip_suffix('s').filter(|s| s.len() > 1 && crate::is_identifier(s)).unwrap_or("element");
    let mut name = singular.to_owned();
    let mut k = 2;
    while method_names.contains(&name) || names.contains(&name) {
        name = format!("{singular}{k}");
        k += 1;
    }
    let lp = f.child(1).filter(|x| text(*x, src) == "(").ok_or("no `(`").map_err(no)?;
    let rp = body.prev_sibling().filter(|x| text(*x, src) == ")").ok_or("no `)`").map_err(no)?;
    Ok(IndexedFor {
        start: f.start_byte(),
        end: f.end_byte(),
        over: (over.start_byte(), over.end_byte()),
        list,
        reads,
        header: (lp.start_byte(), rp.end_byte()),
        name,
    })
}

/// The edits turning the loop into `for (T name : over)`, each read replaced by the name.
pub fn enhanced_for(doc: &Doc, f: &IndexedFor, element_type: &str) -> Vec<TextEdit> {
    let over = &doc.text()[f.over.0..f.over.1];
    let mut out =
        vec![TextEdit { start: f.header.0, end: f.header.1, text: format!("({element_type} {} : {over})", f.name) }];
    out.extend(f.reads.iter().map(|(s, e)| TextEdit { start: *s, end: *e, text: f.name.clone() }));
    out
}

#[cfg(test)]
mod indexed_for_tests {
    use super::*;
    use std::path::Path;

    fn doc(s: &str) -> Doc {
        Doc::new(Path::new("A.java"), "A.java", s.as_bytes().to_vec()).expect("utf8")
    }

    #[test]
    fn only_reads_of_the_element_convert() {
        let src = "class A {\n int f(int[] items, java.util.List<String> names) {\n  int s = 0;\n  for (int i = 0; i < items.length; i++) { s += items[i] * items[i]; }\n  for (int i = 0; i < names.size(); ++i) System.out.println(names.get(i));\n  for (int i = 0; i < items.length; i++) { items[i] = 0; }\n  for (int i = 0; i < items.length; i++) { s += i; }\n  for (int i = 0; i < names.size(); i++) { names.remove(0); }\n  return s;\n }\n}\n";
        let d = doc(src);
        let f = indexed_for(&d, 4).expect("array");
        let mut edits = enhanced_for(&d, &f, "int");
        edits.sort_by_key(|e| std::cmp::Reverse(e.start));
        let mut out = src.to_owned();
        for e in edits {
            out.replace_range(e.start..e.end, &e.text);
        }
        assert!(out.contains("for (int item : items) { s += item * item; }"), "{out}");
        let f = indexed_for(&d, 5).expect("list");
        assert!(f.list && f.name == "name");
        assert!(indexed_for(&d, 6).expect_err("written").contains("the element is written at line 6"));
        assert!(indexed_for(&d, 7).expect_err("index").contains("`i` is used at line 7"));
        assert!(indexed_for(&d, 8).expect_err("list").contains("`names` is used at line 8"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn doc(s: &str) -> Doc {
        Doc::new(Path::new("A.java"), "A.java", s.as_bytes().to_vec()).expect("utf8")
    }

    fn convert(src: &str, line: u32) -> Result<(String, Anonymous), String> {
        let d = doc(src);
        let a = anonymous_at(&d, line, None)?;
        let e = to_lambda(&a);
        let mut out = src.to_owned();
        out.replace_range(e.start..e.end, &e.text);
        Ok((out, a))
    }

    #[test]
    fn one_method_without_this_becomes_a_lambda() {
        let src = "class A {\n  void f(java.util.List<String> xs) {\n    java.util.Comparator<String> c = new java.util.Comparator<String>() {\n      @Override\n      public int compare(String a, String b) {\n        return a.length() - b.length();\n      }\n    };\n    Runnable r = new Runnable() {\n      public void run() {\n        int n = xs.size();\n        System.out.println(n);\n      }\n    };\n  }\n}\n";
        let (out, a) = convert(src, 3).expect("comparator");
        assert!(out.contains("c = (String a, String b) -> a.length() - b.length();"), "{out}");
        assert_eq!(a.type_name, "java.util.Comparator");
        assert_eq!(a.context, Context::Declared("java.util.Comparator<String>".into()));
        let (out, a) = convert(src, 9).expect("runnable");
        assert!(
            out.contains("Runnable r = () -> {\n      int n = xs.size();\n      System.out.println(n);\n    };"),
            "{out}"
        );
        assert!(a.names.contains(&"xs".to_owned()) && a.names.contains(&"System".to_owned()), "{:?}", a.names);
    }

    #[test]
    fn refusals_say_why() {
        let src = "class A {\n  int k;\n  void f(int n) {\n    Runnable a = new Runnable() { public void run() { System.out.println(this); } };\n    Runnable b = new Runnable() { int x; public void run() {} };\n    Runnable c = new Runnable() { public void run() { int n = 1; } };\n    var d = new Runnable() { public void run() {} };\n    Object e = new Runnable() { public void run() {} }.hashCode();\n    Runnable g = new Runnable() { public void run() { run(); } };\n  }\n}\n";
        let e = convert(src, 4).expect_err("this");
        assert!(e.contains("uses `this`"), "{e}");
        assert!(convert(src, 5).expect_err("field").contains("2 members"));
        assert!(convert(src, 6).expect_err("shadow").contains("`n` (line 6) would redeclare"));
        assert!(convert(src, 7).expect_err("var").contains("`var`"));
        assert!(convert(src, 8).expect_err("receiver").contains("used as method invocation"));
        assert!(convert(src, 9).expect_err("recursive").contains("calls itself"));
    }
}

#[cfg(test)]
mod cases {
    use super::run;
    use crate::tests::{check, check_refused};
    use expect_test::expect;

    #[test]
    fn an_indexed_for_over_an_array_becomes_an_enhanced_for() {
        check(
            run,
            "package p;\n\nclass A {\n    int sum(int[] xs) {\n        int s = 0;\n        $0for (int i = 0; i < xs.length; i++) {\n            s += xs[i];\n        }\n        return s;\n    }\n}\n",
            expect![[r#"
                package p;

                class A {
                    int sum(int[] xs) {
                        int s = 0;
                        for (int element : xs) {
                            s += element;
                        }
                        return s;
                    }
                }
            "#]],
        );
    }

    #[test]
    fn an_indexed_for_over_a_list_takes_its_element_type() {
        check(
            run,
            "package p;\n\nimport java.util.List;\n\nclass A {\n    void print(List<String> names) {\n        $0for (int i = 0; i < names.size(); i++) {\n            System.out.println(names.get(i));\n        }\n    }\n}\n",
            expect![[r#"
                package p;

                import java.util.List;

                class A {
                    void print(List<String> names) {
                        for (String name : names) {
                            System.out.println(name);
                        }
                    }
                }
            "#]],
        );
    }

    #[test]
    fn an_index_used_for_more_than_the_element_is_refused() {
        check_refused(
            run,
            "class A {\n    int f(int[] xs) {\n        int s = 0;\n        $0for (int i = 0; i < xs.length; i++) {\n            s += xs[i] * i;\n        }\n        return s;\n    }\n}\n",
            "not converted: not an indexed loop over an array or list: `i` is used at line 5 other than to read the element",
        );
    }

    #[test]
    fn an_anonymous_class_of_a_functional_interface_becomes_a_lambda() {
        check(
            run,
            "package p;\n\ninterface Task {\n    void run(String why);\n}\n\nclass A {\n    Task t = $0new Task() {\n        @Override\n        public void run(String why) {\n            System.out.println(why);\n        }\n    };\n}\n",
            expect![[r#"
                package p;

                interface Task {
                    void run(String why);
                }

                class A {
                    Task t = (String why) -> System.out.println(why);
                }
            "#]],
        );
    }

    /// petclinic's `new BeanPropertyRowMapper<Integer>() {…}` was refused as if the engine could
    /// not read the type: a class is no lambda's target, which is the reason to give.
    #[test]
    fn an_anonymous_subclass_of_a_class_stays_for_that_reason() {
        check_refused(
            run,
            "package p;\n\nabstract class Mapper {\n    abstract int map(String s);\n}\n\nclass A {\n    Mapper m = $0new Mapper() {\n        int map(String s) {\n            return s.length();\n        }\n    };\n}\n",
            "not converted: the anonymous class at line 8 stays: p.Mapper is a class, not an interface: only an interface's instance can be a lambda",
        );
    }

    #[test]
    fn an_anonymous_class_of_an_interface_with_two_methods_stays() {
        check_refused(
            run,
            "package p;\n\ninterface Two {\n    void a();\n    void b();\n}\n\nclass A {\n    Two t = $0new Two() {\n        public void a() {}\n    };\n}\n",
            "not converted: the anonymous class at line 9 stays: p.Two has 2 abstract methods; a functional interface has one",
        );
    }
}

#[cfg(test)]
mod member_type_cases {
    use super::run;
    use crate::tests::{check, check_refused};
    use expect_test::expect;

    const FILTER: &str =
        "package p;\n\ninterface Filter {\n    enum Result { GO, STOP }\n    Result head(String s);\n}\n\n";

    #[test]
    fn an_imported_member_type_that_means_the_same_type_converts() {
        check(
            run,
            &format!(
                "{FILTER}class A {{\n    Filter f = $0new Filter() {{\n        public Result head(String s) {{\n            return s.isEmpty() ? Result.STOP : Result.GO;\n        }}\n    }};\n}}\n"
            )
            .replace("package p;\n\n", "package p;\n\nimport p.Filter.Result;\n\n"),
            expect![[r#"
                package p;

                import p.Filter.Result;

                interface Filter {
                    enum Result { GO, STOP }
                    Result head(String s);
                }

                class A {
                    Filter f = (String s) -> s.isEmpty() ? Result.STOP : Result.GO;
                }
            "#]],
        );
    }

    #[test]
    fn a_qualified_member_type_converts() {
        check(
            run,
            &format!(
                "{FILTER}class A {{\n    Filter f = $0new Filter() {{\n        public Filter.Result head(String s) {{\n            return Filter.Result.GO;\n        }}\n    }};\n}}\n"
            ),
            expect![[r#"
                package p;

                interface Filter {
                    enum Result { GO, STOP }
                    Result head(String s);
                }

                class A {
                    Filter f = (String s) -> Filter.Result.GO;
                }
            "#]],
        );
    }

    #[test]
    fn a_member_type_that_would_mean_another_type_stays() {
        check_refused(
            run,
            &format!(
                "{FILTER}class A {{\n    static class Result {{}}\n    Filter f = $0new Filter() {{\n        public Result head(String s) {{\n            return Result.GO;\n        }}\n    }};\n}}\n"
            ),
            "not converted: the anonymous class at line 10 stays: `Result` in its body is a member it inherits (p.Filter.Result); in a lambda it would mean p.A.Result",
        );
    }

    #[test]
    fn a_member_type_the_lambda_cannot_name_stays() {
        check_refused(
            run,
            &format!(
                "{FILTER}class A {{\n    Filter f = $0new Filter() {{\n        public Result head(String s) {{\n            return Result.GO;\n        }}\n    }};\n}}\n"
            ),
            "not converted: the anonymous class at line 9 stays: `Result` in its body is a member it inherits (p.Filter.Result); in a lambda it would mean nothing the engine knows",
        );
    }
}
