//! Quick fix "create class" from a use javac cannot resolve (`cannot find symbol … class Foo`,
//! or `variable Foo` before a call or a field): a new file `Foo.java` beside the using file, in
//! its package, with what the file's uses need — the constructors `new Foo(a, b)` calls, the
//! static methods `Foo.bar(a)` calls and the constants `Foo.MAX` reads (their types from the
//! uses' contexts), type parameters as many as `Foo<A, B>` gives, `implements I` for
//! `I x = new Foo()` (the caller writes I's methods); or, for `Outer.Inner`, a static member
//! class in Outer's file. Types come from the binder ([`Binder`], over the world the context
//! gives; the unit tests type through the same [`Typer`] seam by hand); what the uses do not
//! say exactly is refused, never guessed.

use std::path::PathBuf;

use mji_parser::kind;
use tree_sitter::Node;

use mji_xref::ty::Ty;
use mji_xref::world::{Origin, World};

use crate::actions::ActionError;
use crate::ctx::{Ctx, Outcome, TypeCache};
use crate::syntax::line_indent;
use crate::{Doc, FileEdit, TextEdit, WorkspaceEdit};

/// A class file to create: where, and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewClass {
    pub path: PathBuf,
    /// How answers name it (beside the using file's display name).
    pub display: String,
    pub text: String,
}

/// The qualified types a new file names, written by simple name with their imports (a second
/// type of one simple name stays qualified).
#[derive(Default)]
struct Imports {
    by_simple: std::collections::BTreeMap<String, String>,
}

impl Imports {
    fn spell(&mut self, ty: &str) -> String {
        map_names(ty, |word, out| {
            if let Some((pkg, simple)) = word.rsplit_once('.') {
                let known = self.by_simple.entry(simple.to_owned()).or_insert_with(|| word.to_owned());
                if *known == *word {
                    out.push_str(simple);
                    if pkg == "java.lang" {
                        self.by_simple.insert(simple.to_owned(), word.to_owned());
                    }
                } else {
                    out.push_str(word);
                }
            } else {
                out.push_str(word);
            }
        })
    }

    fn lines(&self, own_package: &str, eol: &str) -> String {
        let mut v: Vec<&String> = self
            .by_simple
            .values()
            .filter(|q| {
                let pkg = q.rsplit_once('.').map_or("", |x| x.0);
                pkg != "java.lang" && pkg != own_package
            })
            .collect();
        v.sort();
        v.iter().map(|q| format!("import {q};{eol}")).collect()
    }
}

/// How the binder types what a new class declares, by byte range in the using file; types are
/// qualified, as code writes them (`java.util.List<java.lang.String>`).
pub(crate) trait Typer {
    /// The argument expression's type as a parameter may declare it (`None`: unknown).
    fn param(&self, start: usize, end: usize) -> Option<String>;
    /// The exact type of a type node, or of an expression a value is assigned to (`None`: it
    /// cannot be written exactly, such as a type variable).
    fn exact(&self, start: usize, end: usize) -> Option<String>;
    /// The exact type of parameter `index` of the one method named `method` a call with `count`
    /// arguments can mean, on the receiver at those bytes (`None`: unqualified, in the named
    /// type around byte `at`); `None` when more than one could, or the type is not exact.
    fn argument(
        &self,
        receiver: Option<(usize, usize)>,
        method: &str,
        index: usize,
        count: usize,
        at: usize,
    ) -> Option<String>;
}

/// Whether code at `n` is in a named member or top-level type's body (not an anonymous or
/// local class's, which the world does not hold).
fn in_named_type(n: Node) -> bool {
    let mut at = n.parent();
    while let Some(p) = at {
        match p.kind() {
            kind::OBJECT_CREATION_EXPRESSION if p.child_by_field_name("body").is_some() => return false,
            kind::CLASS_BODY | kind::ENUM_BODY | kind::INTERFACE_BODY => {
                // The body's type must be a member of a body or top-level, up to the file.
                let mut q = p.parent();
                while let Some(d) = q {
                    match d.kind() {
                        kind::PROGRAM => return true,
                        kind::BLOCK | kind::OBJECT_CREATION_EXPRESSION | kind::ENUM_CONSTANT => return false,
                        _ => q = d.parent(),
                    }
                }
                return false;
            }
            _ => at = p.parent(),
        }
    }
    false
}

/// The node of the name javac points at: the identifier `name` at byte `at`, or after the `.`
/// javac points at in `Outer.Inner`.
fn name_at<'t>(root: Node<'t>, text: &str, at: usize, name: &str) -> Result<Node<'t>, String> {
    let mut at = at;
    if text[at.min(text.len())..].starts_with('.') {
        at += 1;
        at += text[at..].len() - text[at..].trim_start().len();
    }
    let bytes = text.as_bytes();
    let n = root.descendant_for_byte_range(at, at).ok_or("no code at the position")?;
    let is_name =
        |n: Node| matches!(n.kind(), kind::IDENTIFIER | kind::TYPE_IDENTIFIER) && n.utf8_text(bytes) == Ok(name);
    if is_name(n) {
        return Ok(n);
    }
    // At the qualifier of `Outer.Inner`: the first enclosing dotted name ending in the name.
    let mut p = n.parent();
    while let Some(q) =
        p.filter(|q| matches!(q.kind(), kind::SCOPED_TYPE_IDENTIFIER | kind::FIELD_ACCESS | kind::SCOPED_IDENTIFIER))
    {
        if let Some(last) = q.named_child((q.named_child_count() as u32).saturating_sub(1))
            && is_name(last)
        {
            return Ok(last);
        }
        p = q.parent();
    }
    Err(format!("`{name}` is not at the position"))
}

/// A dotted name without its spaces (`Outer . Inner` is `Outer.Inner`).
fn dotted(n: Node, bytes: &[u8]) -> String {
    n.utf8_text(bytes).unwrap_or("").split_whitespace().collect()
}

/// The qualifier javac names a missing member type's location by: `Outer` of `Outer.Inner` at
/// byte `at` (`None`: a simple name), with its byte range.
pub fn qualifier_at(doc: &Doc, at: usize, name: &str) -> Result<Option<(String, usize, usize)>, String> {
    let text = doc.text();
    let tree = mji_parser::parse_tree(text).ok_or("the file could not be parsed")?;
    let n = name_at(tree.root_node(), text, at, name)?;
    let Some(p) = n.parent() else { return Ok(None) };
    if !matches!(p.kind(), kind::SCOPED_TYPE_IDENTIFIER | kind::FIELD_ACCESS | kind::SCOPED_IDENTIFIER)
        || p.named_child(0) == Some(n)
    {
        return Ok(None);
    }
    let q = p.named_child(0).ok_or("no qualifier")?;
    let written = dotted(q, text.as_bytes());
    if !written.split('.').all(crate::is_identifier) {
        return Err(format!("`{written}` is not a plain type name"));
    }
    Ok(Some((written, q.start_byte(), q.end_byte())))
}

/// What names the class in the using file: its simple name, or `Outer.Inner` as written.
struct Named<'a> {
    name: &'a str,
    qualifier: Option<&'a str>,
}

impl Named<'_> {
    /// Whether `n` (a type or an expression, its type arguments aside) names the class.
    fn names(&self, n: Node, bytes: &[u8]) -> bool {
        let base = base_of(n);
        match self.qualifier {
            None => {
                matches!(base.kind(), kind::IDENTIFIER | kind::TYPE_IDENTIFIER)
                    && base.utf8_text(bytes) == Ok(self.name)
            }
            Some(q) => {
                matches!(base.kind(), kind::SCOPED_TYPE_IDENTIFIER | kind::FIELD_ACCESS | kind::SCOPED_IDENTIFIER)
                    && dotted(base, bytes) == format!("{q}.{}", self.name)
            }
        }
    }
}

/// A generic type's name (its type arguments aside); any other node itself.
fn base_of(n: Node) -> Node {
    if n.kind() == kind::GENERIC_TYPE {
        let mut c = n.walk();
        if let Some(b) = n.named_children(&mut c).find(|k| k.kind() != kind::TYPE_ARGUMENTS) {
            return b;
        }
    }
    n
}

/// How many type arguments a use gives (`Some(0)`: the diamond), `None` when none.
fn type_argument_count(n: Node) -> Option<usize> {
    if n.kind() != kind::GENERIC_TYPE {
        return None;
    }
    let mut c = n.walk();
    let args = n.named_children(&mut c).find(|k| k.kind() == kind::TYPE_ARGUMENTS)?;
    let mut c = args.walk();
    Some(args.named_children(&mut c).filter(|a| !a.kind().ends_with("comment")).count())
}

/// The members a class needs from every use of it in a file, and its type parameters.
struct Body {
    /// Each member's key (`<init>(int)`, `m(int)`, `field X`) and its text.
    members: Vec<(String, String)>,
    /// How many type parameters the uses give it.
    tparams: usize,
}

/// The value a constant of type `ty` starts with (a compile-time constant where one exists).
fn zero_of(ty: &str) -> &'static str {
    match ty {
        "boolean" => "false",
        "byte" | "short" | "char" | "int" | "long" | "float" | "double" => "0",
        "java.lang.String" => "\"\"",
        _ => "null",
    }
}

/// Plans the members of the class `named` from every use in the file; the use at `at` (the
/// name's node) must be one of them or a type use, and a use that cannot be typed is refused
/// only there. Members are indented by `ind` (statements by one `unit` more).
fn plan(
    doc: &Doc,
    root: Node,
    at: Node,
    named: &Named,
    typer: &dyn Typer,
    imports: &mut Imports,
    ind: &str,
) -> Result<Body, String> {
    let text = doc.text();
    let bytes = text.as_bytes();
    let eol = doc.eol();
    let unit = "    ";
    let name = named.name;
    let at_start = at.start_byte();
    let params = |args: Option<Node>, imports: &mut Imports| -> Result<(String, String), String> {
        let Some(args) = args else { return Ok((String::new(), String::new())) };
        let mut c = args.walk();
        let mut out = Vec::new();
        let mut taken = std::collections::HashSet::new();
        let mut types = Vec::new();
        for (i, a) in args.named_children(&mut c).filter(|a| !a.kind().ends_with("comment")).enumerate() {
            let src = a.utf8_text(bytes).unwrap_or("");
            let ty = typer
                .param(a.start_byte(), a.end_byte())
                .ok_or_else(|| format!("the type of the argument `{src}` is unknown"))?;
            // The binder reads a wildcard argument as its bound (`List<? extends Number>` as
            // `List<Number>`, no supertype of it): type arguments are kept only from a local
            // declared without one, else the raw type, which takes any.
            let ty = if ty.contains('<') && !declared_exactly(a, bytes) { raw(&ty) } else { ty };
            let own = (a.kind() == kind::IDENTIFIER).then(|| src.to_owned());
            let pname = match own {
                Some(o) if !taken.contains(&o) => o,
                _ => (i + 1..).map(|k| format!("p{k}")).find(|p| !taken.contains(p)).unwrap_or_default(),
            };
            taken.insert(pname.clone());
            out.push(format!("{} {pname}", imports.spell(&ty)));
            types.push(ty);
        }
        Ok((out.join(", "), types.join(",")))
    };
    // The type a constant read by `u` must have, from the use's context.
    // Its type as the new code spells it, and the value it starts with.
    let constant_type = |u: Node, imports: &mut Imports| -> Result<(String, &'static str), String> {
        let p = u.parent().ok_or("no context")?;
        let exact = |n: Node, imports: &mut Imports| -> Result<(String, &'static str), String> {
            // The class itself (`Foo x = Foo.EMPTY`), else the binder's type.
            if named.names(n, bytes) && n.kind() != kind::GENERIC_TYPE {
                return Ok((name.to_owned(), "null"));
            }
            // A local assigned to: its declared type.
            let declared = if n.kind() == kind::IDENTIFIER { declared_type(n, bytes) } else { None };
            let n = declared.unwrap_or(n);
            let src = n.utf8_text(bytes).unwrap_or("");
            let ty = typer
                .exact(n.start_byte(), n.end_byte())
                .ok_or_else(|| format!("the type `{src}` cannot be named exactly"))?;
            // The binder reads a wildcard as its bound: `Map<K, List<? extends N>>` is no
            // supertype of `Map<K, List<N>>`, so type arguments only from a type written
            // without one (an expression's type: the raw type).
            let exact = (is_type(n) && !src.contains('?')) || !ty.contains('<');
            let ty = if exact { ty } else { raw(&ty) };
            Ok((imports.spell(&ty), zero_of(&ty)))
        };
        match p.kind() {
            kind::VARIABLE_DECLARATOR if p.child_by_field_name("value") == Some(u) => {
                if p.child_by_field_name("dimensions").is_some() {
                    return Err("the declaration has array dimensions on its name".into());
                }
                let ty = p.parent().and_then(|d| d.child_by_field_name("type")).ok_or("no declared type")?;
                if ty.utf8_text(bytes) == Ok("var") {
                    return Err("the declaration's type is `var`".into());
                }
                exact(ty, imports)
            }
            kind::ASSIGNMENT_EXPRESSION if p.child_by_field_name("right") == Some(u) => {
                if p.child_by_field_name("operator").map(|o| o.kind()) != Some("=") {
                    return Err("a compound assignment does not say the type".into());
                }
                exact(p.child_by_field_name("left").ok_or("no assigned variable")?, imports)
            }
            kind::ASSIGNMENT_EXPRESSION | kind::UPDATE_EXPRESSION => Err("the field is written, not a constant".into()),
            // An argument of a call only one method can mean: its parameter's type.
            kind::ARGUMENT_LIST => {
                let call =
                    p.parent().filter(|c| c.kind() == kind::METHOD_INVOCATION).ok_or("an argument of a constructor")?;
                if call.child_by_field_name("type_arguments").is_some() {
                    return Err("the call gives type arguments".into());
                }
                let mut c = p.walk();
                let args: Vec<Node> = p.named_children(&mut c).filter(|a| !a.kind().ends_with("comment")).collect();
                let index = args.iter().position(|a| *a == u).ok_or("not an argument")?;
                let method = call.child_by_field_name("name").and_then(|m| m.utf8_text(bytes).ok()).unwrap_or("");
                let receiver = call.child_by_field_name("object").map(|o| (o.start_byte(), o.end_byte()));
                if receiver.is_none() && !in_named_type(call) {
                    return Err("a call in an anonymous or local class".into());
                }
                let ty = typer
                    .argument(receiver, method, index, args.len(), call.start_byte())
                    .ok_or_else(|| format!("`{method}` is not one method whose parameter's type is exact"))?;
                // Its wildcards are read as bounds too: the raw type.
                let ty = raw(&ty);
                Ok((imports.spell(&ty), zero_of(&ty)))
            }
            kind::RETURN_STATEMENT => {
                let mut q = p;
                while let Some(up) = q.parent() {
                    match up.kind() {
                        kind::LAMBDA_EXPRESSION => return Err("returned from a lambda".into()),
                        kind::METHOD_DECLARATION => {
                            return exact(up.child_by_field_name("type").ok_or("no return type")?, imports);
                        }
                        kind::CLASS_BODY => break,
                        _ => q = up,
                    }
                }
                Err("not returned from a method".into())
            }
            _ => Err("the type the use expects is unknown".into()),
        }
    };
    let mut members: Vec<(String, String)> = Vec::new();
    let mut refusal: Option<String> = None;
    let mut conflict: Option<String> = None;
    // A type use (`Foo x`, `Foo<String> x`, `Outer.Inner x`), not `new Foo()`'s type.
    let use_node = if named.qualifier.is_some() { at.parent().unwrap_or(at) } else { at };
    let typed = if use_node.parent().is_some_and(|p| p.kind() == kind::GENERIC_TYPE) {
        use_node.parent().unwrap_or(use_node)
    } else {
        use_node
    };
    let mut fits = matches!(use_node.kind(), kind::TYPE_IDENTIFIER | kind::SCOPED_TYPE_IDENTIFIER)
        && typed.parent().is_none_or(|p| p.kind() != kind::OBJECT_CREATION_EXPRESSION);
    let mut counts: Vec<usize> = Vec::new();
    crate::syntax::walk(root, &mut |u| {
        let named_by = |x: Option<Node>| x.is_some_and(|x| named.names(x, bytes));
        if matches!(u.kind(), kind::GENERIC_TYPE) && named.names(u, bytes) {
            counts.extend(type_argument_count(u));
        }
        let member = match u.kind() {
            kind::OBJECT_CREATION_EXPRESSION if named_by(u.child_by_field_name("type")) => {
                if u.child_by_field_name("object").is_some() || u.child_by_field_name("body").is_some() {
                    Err("an inner class instance or an anonymous class is not created".to_owned())
                } else {
                    params(u.child_by_field_name("arguments"), imports).map(|(p, types)| {
                        (format!("<init>({types})"), format!("{eol}{ind}public {name}({p}) {{{eol}{ind}}}{eol}"))
                    })
                }
            }
            kind::METHOD_INVOCATION
                if named_by(u.child_by_field_name("object"))
                    && u.child_by_field_name("object")
                        .is_some_and(|o| matches!(o.kind(), kind::IDENTIFIER | kind::FIELD_ACCESS)) =>
            {
                let method = u.child_by_field_name("name").and_then(|m| m.utf8_text(bytes).ok()).unwrap_or("");
                // `void` for a statement of its own, else the type its context expects, as a
                // constant's (the binder's, exact).
                let ret = if u.parent().is_some_and(|p| p.kind() == kind::EXPRESSION_STATEMENT) {
                    Ok("void".to_owned())
                } else {
                    constant_type(u, imports).map(|(t, _)| t)
                };
                match (ret, u.child_by_field_name("type_arguments")) {
                    (_, Some(_)) => Err("the call gives type arguments".to_owned()),
                    (Err(e), _) => Err(e),
                    (Ok(ret), None) => params(u.child_by_field_name("arguments"), imports).map(|(p, types)| {
                        (
                            format!("{method}({types})"),
                            format!(
                                "{eol}{ind}public static {ret} {method}({p}) {{{eol}{ind}{unit}throw new UnsupportedOperationException(\"not implemented\");{eol}{ind}}}{eol}"
                            ),
                        )
                    }),
                }
            }
            // `Foo.CONST`: a constant typed by what the use assigns it to.
            kind::FIELD_ACCESS
                if named_by(u.child_by_field_name("object"))
                    && u.child_by_field_name("object")
                        .is_some_and(|o| matches!(o.kind(), kind::IDENTIFIER | kind::FIELD_ACCESS)) =>
            {
                let field = u.child_by_field_name("field").and_then(|m| m.utf8_text(bytes).ok()).unwrap_or("");
                if !crate::is_identifier(field) {
                    return;
                }
                constant_type(u, imports).map(|(ty, zero)| {
                    (format!("field {field}"), format!("{eol}{ind}public static final {ty} {field} = {zero};{eol}"))
                })
            }
            _ => return,
        };
        let within = |c: Option<Node>| c.is_some_and(|t| t.start_byte() <= at_start && at_start < t.end_byte());
        let here = within(u.child_by_field_name("type")) || within(u.child_by_field_name("object"));
        let here = here && u.start_byte() <= at_start && at_start < u.end_byte();
        match member {
            Ok((key, text)) => {
                fits |= here;
                match members.iter().find(|(k, _)| *k == key) {
                    None => members.push((key, text)),
                    Some((_, t)) if *t != text => conflict = Some(format!("{key} is used with two types")),
                    Some(_) => {}
                }
            }
            Err(e) if here => refusal = Some(e),
            Err(_) => {}
        }
    });
    if let Some(e) = refusal.or(conflict) {
        return Err(e);
    }
    if !fits {
        return Err("only `new Foo(…)`, `Foo.method(…)`, `Foo.CONSTANT` and a type use create a class".into());
    }
    let mut known: Vec<usize> = counts.iter().copied().filter(|c| *c > 0).collect();
    known.sort_unstable();
    known.dedup();
    let tparams = match known[..] {
        [] if counts.contains(&0) => {
            return Err(format!("`{name}<>` does not say how many type parameters {name} has"));
        }
        [] => 0,
        [n] => n,
        _ => {
            return Err(format!(
                "{name} is used with {} type arguments",
                known.iter().map(usize::to_string).collect::<Vec<_>>().join(" and ")
            ));
        }
    };
    Ok(Body { members, tparams })
}

/// The declared type of the local variable or parameter `a` names (not `var`).
fn declared_type<'t>(a: Node<'t>, bytes: &[u8]) -> Option<Node<'t>> {
    if a.kind() != kind::IDENTIFIER {
        return None;
    }
    let (name, ..) = crate::locals::declaration_of(a, a.utf8_text(bytes).unwrap_or(""), bytes)?;
    let holder = name.parent().and_then(|d| if d.kind() == kind::VARIABLE_DECLARATOR { d.parent() } else { Some(d) });
    holder
        .filter(|h| matches!(h.kind(), kind::LOCAL_VARIABLE_DECLARATION | kind::FORMAL_PARAMETER))
        .and_then(|h| h.child_by_field_name("type"))
        .filter(|t| t.utf8_text(bytes) != Ok("var"))
}

/// Whether `a` is a local variable or parameter whose declared type has no wildcard.
fn declared_exactly(a: Node, bytes: &[u8]) -> bool {
    declared_type(a, bytes).is_some_and(|t| t.utf8_text(bytes).is_ok_and(|t| !t.contains('?')))
}

/// Whether `n` is a type as written (not an expression).
fn is_type(n: Node) -> bool {
    matches!(
        n.kind(),
        kind::TYPE_IDENTIFIER
            | kind::SCOPED_TYPE_IDENTIFIER
            | kind::GENERIC_TYPE
            | kind::ARRAY_TYPE
            | kind::INTEGRAL_TYPE
            | kind::FLOATING_POINT_TYPE
            | kind::BOOLEAN_TYPE
    )
}

/// A type without its type arguments (`java.util.List<X>[]` is `java.util.List[]`).
fn raw(ty: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for ch in ty.chars() {
        match ch {
            '<' => depth += 1,
            '>' => depth -= 1,
            _ if depth == 0 => out.push(ch),
            _ => {}
        }
    }
    out
}

/// `<T, U>` for `n` type parameters, named apart from every word of `around`.
fn type_params(n: usize, around: &str) -> String {
    if n == 0 {
        return String::new();
    }
    let words: std::collections::HashSet<&str> =
        around.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$')).collect();
    let names: Vec<String> = ["T", "U", "V", "W", "X", "Y", "Z"]
        .iter()
        .map(|s| (*s).to_owned())
        .chain((1..).map(|k| format!("T{k}")))
        .filter(|t| !words.contains(t.as_str()))
        .take(n)
        .collect();
    format!("<{}>", names.join(", "))
}

/// What the `new Foo(…)` at byte `at` is assigned to, its bytes and text: the declared type it
/// initializes, the local it is assigned to (its declared type) or another variable, or its
/// method's return type (`None` for any other use, or a generic, qualified, inner or anonymous
/// creation).
pub fn created_into(doc: &Doc, at: usize, name: &str) -> Option<(usize, usize, String)> {
    let text = doc.text();
    let bytes = text.as_bytes();
    let tree = mji_parser::parse_tree(text)?;
    let n = name_at(tree.root_node(), text, at, name).ok()?;
    let c = n.parent().filter(|c| c.kind() == kind::OBJECT_CREATION_EXPRESSION)?;
    if c.child_by_field_name("type") != Some(n)
        || c.child_by_field_name("body").is_some()
        || c.child_by_field_name("object").is_some()
    {
        return None;
    }
    let p = c.parent()?;
    let target = match p.kind() {
        kind::VARIABLE_DECLARATOR if p.child_by_field_name("value") == Some(c) => {
            if p.child_by_field_name("dimensions").is_some() {
                return None;
            }
            p.parent()?.child_by_field_name("type").filter(|t| t.utf8_text(bytes) != Ok("var"))?
        }
        kind::ASSIGNMENT_EXPRESSION if p.child_by_field_name("right") == Some(c) => {
            (p.child_by_field_name("operator")?.kind() == "=").then_some(())?;
            let left = p.child_by_field_name("left")?;
            declared_type(left, bytes).unwrap_or(left)
        }
        kind::RETURN_STATEMENT => {
            let mut q = p;
            loop {
                q = q.parent()?;
                match q.kind() {
                    kind::LAMBDA_EXPRESSION | kind::CLASS_BODY => return None,
                    kind::METHOD_DECLARATION => break q.child_by_field_name("type")?,
                    _ => {}
                }
            }
        }
        _ => return None,
    };
    let written = target.utf8_text(bytes).ok()?.split_whitespace().collect::<Vec<_>>().join(" ");
    Some((target.start_byte(), target.end_byte(), written))
}

/// Plans the class `name` a use at byte `at` of `doc` needs, as a new file beside it.
pub(crate) fn create_class(doc: &Doc, at: usize, name: &str, typer: &dyn Typer) -> Result<NewClass, String> {
    create_class_implementing(doc, at, name, typer, None)
}

/// [`create_class`], the class implementing the interface `implements` (qualified) when given;
/// its methods are the caller's to add.
pub(crate) fn create_class_implementing(
    doc: &Doc,
    at: usize,
    name: &str,
    typer: &dyn Typer,
    implements: Option<&str>,
) -> Result<NewClass, String> {
    if !crate::is_identifier(name) || !name.starts_with(char::is_uppercase) {
        return Err(format!("`{name}` is not a class name"));
    }
    let text = doc.text();
    let bytes = text.as_bytes();
    let tree = mji_parser::parse_tree(text).ok_or("the file could not be parsed")?;
    let root = tree.root_node();
    let n = name_at(root, text, at, name)?;
    let dir = doc.path.parent().ok_or("the file has no directory")?;
    let path = dir.join(format!("{name}.java"));
    if path.exists() {
        return Err(format!("{name}.java already exists beside it"));
    }
    let display = match doc.display.rsplit_once('/') {
        Some((d, _)) => format!("{d}/{name}.java"),
        None => format!("{name}.java"),
    };
    let package = package_of(root, bytes);
    let eol = doc.eol();
    // The class's own name is its own: a type of that simple name stays qualified.
    let mut imports = Imports::default();
    let own = if package.is_empty() { name.to_owned() } else { format!("{package}.{name}") };
    imports.by_simple.insert(name.to_owned(), own);
    let named = Named { name, qualifier: None };
    let b = plan(doc, root, n, &named, typer, &mut imports, "    ")?;
    let body: String = b.members.into_iter().map(|(_, t)| t).collect();
    let tparams = type_params(b.tparams, &format!("{body} {}", implements.unwrap_or("")));
    let tparams = match implements {
        Some(i) => format!("{tparams} implements {}", imports.spell(i)),
        None => tparams,
    };
    let head = if package.is_empty() { String::new() } else { format!("package {package};{eol}{eol}") };
    let imports = imports.lines(&package, eol);
    let imports = if imports.is_empty() { imports } else { format!("{imports}{eol}") };
    let text = format!("{head}{imports}public class {name}{tparams} {{{body}}}{eol}");
    Ok(NewClass { path, display, text })
}

/// The package a file declares (`""`: none).
fn package_of(root: Node, bytes: &[u8]) -> String {
    let mut c = root.walk();
    root.children(&mut c)
        .find(|p| p.kind() == kind::PACKAGE_DECLARATION)
        .and_then(|p| p.utf8_text(bytes).ok())
        .map(|t| t.trim_start_matches("package").trim_end_matches(';').split_whitespace().collect::<String>())
        .unwrap_or_default()
}

/// The declaration of the type `fqn` (nested types with dots) in a file of `package`.
fn declaration<'t>(root: Node<'t>, bytes: &[u8], package: &str, fqn: &str) -> Option<Node<'t>> {
    let decl = kind::is_type_declaration;
    let mut found = None;
    crate::syntax::walk(root, &mut |n| {
        if found.is_some() || !decl(n.kind()) {
            return;
        }
        let mut names = Vec::new();
        let mut at = Some(n);
        while let Some(d) = at {
            if decl(d.kind()) {
                names.push(d.child_by_field_name("name").and_then(|x| x.utf8_text(bytes).ok()).unwrap_or(""));
            } else if !matches!(
                d.kind(),
                kind::CLASS_BODY
                    | kind::INTERFACE_BODY
                    | kind::ENUM_BODY
                    | kind::ENUM_BODY_DECLARATIONS
                    | kind::ANNOTATION_TYPE_BODY
                    | kind::PROGRAM
            ) {
                return; // a local or anonymous class
            }
            at = d.parent();
        }
        names.extend(package.split('.').filter(|p| !p.is_empty()).rev());
        names.reverse();
        if names.join(".") == fqn {
            found = Some(n);
        }
    });
    found
}

/// Plans the `public static` member class `Outer.Inner` a use at byte `at` of `doc` needs,
/// `qualifier` (`Outer` as the use writes it) being the workspace type `outer_fqn` declared in
/// `outer`: the edits of `outer`, the class before its body's closing brace and the imports its
/// members need.
pub(crate) fn create_nested(
    doc: &Doc,
    at: usize,
    name: &str,
    qualifier: &str,
    outer: &Doc,
    outer_fqn: &str,
    typer: &dyn Typer,
) -> Result<Vec<TextEdit>, String> {
    if !crate::is_identifier(name) || !name.starts_with(char::is_uppercase) {
        return Err(format!("`{name}` is not a class name"));
    }
    let text = doc.text();
    let tree = mji_parser::parse_tree(text).ok_or("the file could not be parsed")?;
    let n = name_at(tree.root_node(), text, at, name)?;
    let otext = outer.text();
    let obytes = otext.as_bytes();
    let otree = mji_parser::parse_tree(otext).ok_or_else(|| format!("{} could not be parsed", outer.display))?;
    let oroot = otree.root_node();
    let package = package_of(oroot, obytes);
    let decl = declaration(oroot, obytes, &package, outer_fqn)
        .ok_or_else(|| format!("{outer_fqn} is not declared in {}", outer.display))?;
    let body = decl.child_by_field_name("body").ok_or("the type has no body")?;
    match body.kind() {
        kind::CLASS_BODY | kind::INTERFACE_BODY => {}
        kind::ENUM_BODY => {
            let mut c = body.walk();
            if !body.named_children(&mut c).any(|k| k.kind() == kind::ENUM_BODY_DECLARATIONS) {
                return Err(format!("the enum {outer_fqn} has no `;` after its constants"));
            }
        }
        _ => return Err(format!("{outer_fqn} is not a class, an interface or an enum")),
    }
    let close = body.end_byte() - 1;
    if obytes.get(close) != Some(&b'}') {
        return Err(format!("{outer_fqn}'s body is not closed"));
    }
    let eol = outer.eol();
    let unit = "    ";
    let outer_ind = line_indent(otext, decl.start_byte());
    let ind = format!("{outer_ind}{unit}");
    let mut imports = Imports::default();
    let own = format!("{outer_fqn}.{name}");
    imports.by_simple.insert(name.to_owned(), own.clone());
    let b = plan(
        doc,
        tree.root_node(),
        n,
        &Named { name, qualifier: Some(qualifier) },
        typer,
        &mut imports,
        &format!("{ind}{unit}"),
    )?;
    let members: String = b.members.into_iter().map(|(_, t)| t).collect();
    let tparams = type_params(b.tparams, &members);
    let class = if members.is_empty() {
        format!("{ind}public static class {name}{tparams} {{}}{eol}")
    } else {
        format!("{ind}public static class {name}{tparams} {{{members}{ind}}}{eol}")
    };
    // Before the closing brace: on its own line, after a blank line unless the body is empty.
    let line_start = crate::syntax::line_start(otext, close);
    let alone = otext[line_start..close].trim().is_empty();
    let empty = otext[body.start_byte() + 1..close].trim().is_empty();
    let edit = match (alone, empty) {
        (true, true) => TextEdit { start: line_start, end: line_start, text: class },
        (true, false) => TextEdit { start: line_start, end: line_start, text: format!("{eol}{class}") },
        (false, _) => TextEdit { start: close, end: close, text: format!("{eol}{class}{}", line_indent(otext, close)) },
    };
    let mut edits: Vec<TextEdit> = Vec::new();
    for q in imports.by_simple.values() {
        let pkg = q.rsplit_once('.').map_or("", |x| x.0);
        if pkg == "java.lang" || pkg == package || *q == own {
            continue;
        }
        match crate::imports::ensure_import(outer, q) {
            Ok(Some(e)) => match edits.iter_mut().find(|x| (x.start, x.end) == (e.start, e.end)) {
                Some(x) => x.text.push_str(&e.text),
                None => edits.push(e),
            },
            Ok(None) => {}
            Err(()) => return Err(format!("{} imports another type named like {q}", outer.display)),
        }
    }
    edits.push(edit);
    Ok(edits)
}

/// `ty` with each (possibly qualified) name written by `name` into the output, everything
/// between names kept as it is.
fn map_names(ty: &str, mut name: impl FnMut(&str, &mut String)) -> String {
    let mut out = String::new();
    let mut word = String::new();
    for ch in ty.chars() {
        if ch.is_alphanumeric() || ch == '_' || ch == '.' {
            word.push(ch);
        } else {
            name(&word, &mut out);
            word.clear();
            out.push(ch);
        }
    }
    name(&word, &mut out);
    out
}

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
            if !fqn.split('.').all(crate::is_identifier) {
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
        java_type(&mji_xref::bind::expr_type(self.w, self.file?, self.bytes, s, e)?)
    }

    fn exact(&self, s: usize, e: usize) -> Option<String> {
        exact_type(self.w, &mji_xref::bind::expr_type(self.w, self.file?, self.bytes, s, e)?)
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
            Some((s, e)) => mji_xref::bind::expr_type(self.w, self.file?, self.bytes, s, e)?,
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
pub enum Planned {
    File(NewClass),
    Nested(Doc, Vec<TextEdit>),
}

impl Planned {
    /// The file it is created in, as answers name it.
    pub fn display(&self) -> &str {
        match self {
            Planned::File(c) => &c.display,
            Planned::Nested(d, _) => &d.display,
        }
    }
}

/// The class the use of `name` at byte `at` of `doc` needs, typed by the binder.
pub fn new_class(ctx: &dyn Ctx, w: &World, doc: &Doc, at: usize, name: &str) -> Result<Planned, String> {
    let fi = w.files.iter().position(|f| *f.path == *doc.path).map(|i| i as u32);
    let typer = Binder { w, file: fi, doc, bytes: &doc.bytes };
    let Some((qualifier, ..)) = qualifier_at(doc, at, name)? else {
        // `I x = new Foo()`: Foo must be an I.
        let plain = || create_class(doc, at, name, &typer).map(Planned::File);
        let Some((s, e, written)) = created_into(doc, at, name) else { return plain() };
        if written.split('<').next().map(str::trim) == Some(name) {
            return plain();
        }
        let t = fi.and_then(|fi| mji_xref::bind::expr_type(w, fi, &doc.bytes, s, e));
        if matches!(&t, Some(Ty::Class(f, _)) if &**f == "java.lang.Object") {
            return plain();
        }
        return match t.filter(|_| !written.contains('?')).and_then(|t| implemented(ctx, w, &t)) {
            Some(i) => implementing(ctx, w, doc, at, name, &typer, &i).map(Planned::File),
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
    let outer_doc = ctx.read(path).map_err(|e| e.to_string())?;
    create_nested(doc, at, name, &qualifier, &outer_doc, &outer, &typer).map(|edits| Planned::Nested(outer_doc, edits))
}

/// The interface `I x = new Foo()` assigns the new class to (`t`, the binder's type of `I`),
/// qualified as the class may implement it: one the world knows and the libraries declare,
/// not sealed.
fn implemented(ctx: &dyn Ctx, w: &World, t: &Ty) -> Option<String> {
    let Ty::Class(fqn, _) = t else { return None };
    let id = w.by_fqn(fqn)?;
    if w.decl(id).kind != mji_model::TypeKind::Interface {
        return None;
    }
    let decl = ctx.type_decl(w, fqn)?;
    if decl.modifiers.iter().any(|m| m == "sealed") || !decl.permits.is_empty() {
        return None;
    }
    exact_type(w, t)
}

/// The new class implementing `iface`, every abstract method it inherits written as the
/// implement quick fix writes them; refused when a supertype's methods are unknown.
fn implementing(
    ctx: &dyn Ctx,
    w: &World,
    doc: &Doc,
    at: usize,
    name: &str,
    typer: &Binder,
    iface: &str,
) -> Result<NewClass, String> {
    let mut c = create_class_implementing(doc, at, name, typer, Some(iface))?;
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
    let lookup = crate::inherit::Lookup { types: TypeCache::new(ctx, w), visible: &visible };
    let opts = crate::generate::Options::default();
    let g =
        crate::inherit::generate(&new_doc, ty, &qualified, crate::generate::Action::ImplementMethods, &opts, &lookup)?;
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
pub fn create(ctx: &dyn Ctx, doc: &Doc, at: usize, name: &str) -> Result<Outcome, ActionError> {
    let planned = new_class(ctx, &ctx.world().0, doc, at, name)
        .map_err(|why| ActionError::Refused(format!("fix class refused: {why}")))?;
    let summary = format!("create class {name} ({})", planned.display());
    Ok(match planned {
        Planned::File(c) => {
            let mut edit = WorkspaceEdit::default();
            edit.add(FileEdit::create(&c.path, &c.display, c.text));
            Outcome::new(edit, summary)
        }
        Planned::Nested(d, edits) => Outcome::in_doc(&d, edits, summary),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// The types of a few expressions and type nodes, by their text.
    struct Known(&'static str);

    impl Typer for Known {
        fn argument(&self, _: Option<(usize, usize)>, m: &str, i: usize, n: usize, _: usize) -> Option<String> {
            (m == "take" && (i, n) == (0, 1)).then(|| "java.util.List<java.lang.String>".to_owned())
        }

        fn param(&self, s: usize, e: usize) -> Option<String> {
            Some(
                match &self.0[s..e] {
                    "1" => "int",
                    "xs" => "java.util.List<java.lang.String>",
                    "\"s\"" => "java.lang.String",
                    _ => return None,
                }
                .to_owned(),
            )
        }

        fn exact(&self, s: usize, e: usize) -> Option<String> {
            Some(
                match &self.0[s..e] {
                    "int" => "int",
                    "String" => "java.lang.String",
                    "List<String>" => "java.util.List<java.lang.String>",
                    _ => return None,
                }
                .to_owned(),
            )
        }
    }

    #[test]
    fn a_class_from_new_a_static_call_or_a_type_use() {
        let src = "package p;\n\nimport java.util.List;\n\nclass A {\n    void f(List<String> xs) {\n        Foo foo = new Foo(1, xs);\n        List<String> ys = Bar.make(xs, \"s\");\n        Baz baz = null;\n    }\n}\n";
        let doc = Doc::new(Path::new("/nowhere/p/A.java"), "p/A.java", src.as_bytes().to_vec()).expect("utf-8");
        let ty = Known(src);
        let at = |needle: &str| src.find(needle).expect("present");
        let foo = create_class(&doc, at("Foo(1"), "Foo", &ty).expect("foo");
        assert_eq!(foo.display, "p/Foo.java");
        assert_eq!(
            foo.text,
            "package p;\n\nimport java.util.List;\n\npublic class Foo {\n    public Foo(int p1, List<String> xs) {\n    }\n}\n"
        );
        let bar = create_class(&doc, at("Bar"), "Bar", &ty).expect("bar");
        assert!(
            bar.text.contains("    public static List<String> make(List<String> xs, String p2) {\n"),
            "{}",
            bar.text
        );
        let baz = create_class(&doc, at("Baz"), "Baz", &ty).expect("baz");
        assert_eq!(baz.text, "package p;\n\npublic class Baz {}\n");
        assert!(create_class(&doc, at("foo ="), "foo", &ty).is_err());
        // A parameterized argument not read from a local's declaration is written raw.
        assert_eq!(raw("java.util.Map<K, java.util.List<V>>[]"), "java.util.Map[]");
        let src2 = "class A {\n    java.util.List<String> xs;\n    void f() {\n        new Keep(xs);\n    }\n}\n";
        let doc2 = Doc::new(Path::new("/nowhere/A.java"), "A.java", src2.as_bytes().to_vec()).expect("utf-8");
        let keep = create_class(&doc2, src2.find("Keep").expect("new"), "Keep", &Known(src2)).expect("keep");
        assert!(keep.text.contains("public Keep(List xs)"), "{}", keep.text);
        // A type named like the new class stays qualified in it.
        let src = "class A {\n    void f(java.util.List<String> xs) {\n        Object o = new List(xs);\n    }\n}\n";
        let doc = Doc::new(Path::new("/nowhere/A.java"), "A.java", src.as_bytes().to_vec()).expect("utf-8");
        let list = create_class(&doc, src.find("List(xs)").expect("new"), "List", &Known(src)).expect("list");
        assert_eq!(list.text, "public class List {\n    public List(java.util.List<String> xs) {\n    }\n}\n");
    }

    #[test]
    fn constants_typed_by_their_use_and_refused_when_it_does_not_say() {
        let src = "package p;\n\nclass A {\n    String name = Names.FIRST;\n    int f(int k) {\n        int n = Names.COUNT;\n        k = Names.COUNT;\n        return Names.MAX;\n    }\n    void g() {\n        System.out.println(Names.LAST);\n        take(Names.TAKEN);\n    }\n}\n";
        let doc = Doc::new(Path::new("/nowhere/p/A.java"), "p/A.java", src.as_bytes().to_vec()).expect("utf-8");
        let ty = Known(src);
        let at = |needle: &str| src.find(needle).expect("present");
        let names = create_class(&doc, at("Names.COUNT"), "Names", &ty).expect("names");
        assert_eq!(
            names.text,
            "package p;\n\nimport java.util.List;\n\npublic class Names {\n    public static final String FIRST = \"\";\n\n    public static final int COUNT = 0;\n\n    public static final int MAX = 0;\n\n    public static final List TAKEN = null;\n}\n"
        );
        // An argument of `println` (overloaded, as the typer says): the type is not guessed.
        let e = create_class(&doc, at("Names.LAST"), "Names", &ty).expect_err("last");
        assert!(e.contains("`println` is not one method"), "{e}");
        // The same constant read as two types, or written, is refused.
        let src = "class A {\n    int a = K.X;\n    String b = K.X;\n    void f() { K.Y = 1; }\n}\n";
        let doc = Doc::new(Path::new("/nowhere/A.java"), "A.java", src.as_bytes().to_vec()).expect("utf-8");
        let e = create_class(&doc, src.find("K.X").expect("x"), "K", &Known(src)).expect_err("two types");
        assert!(e.contains("two types"), "{e}");
        let e = create_class(&doc, src.find("K.Y").expect("y"), "K", &Known(src)).expect_err("written");
        assert!(e.contains("written"), "{e}");
    }

    #[test]
    fn generic_classes_take_their_type_parameter_count_from_the_uses() {
        let src = "class A {\n    Box<String> b = new Box<>(1);\n    Pair<String, String> p = null;\n    Object o = new Bag<>();\n    Two<String> t = new Two<String, String>();\n}\n";
        let doc = Doc::new(Path::new("/nowhere/A.java"), "A.java", src.as_bytes().to_vec()).expect("utf-8");
        let ty = Known(src);
        let at = |needle: &str| src.find(needle).expect("present");
        let b = create_class(&doc, at("Box<>"), "Box", &ty).expect("box");
        assert_eq!(b.text, "public class Box<T> {\n    public Box(int p1) {\n    }\n}\n");
        let p = create_class(&doc, at("Pair"), "Pair", &ty).expect("pair");
        assert_eq!(p.text, "public class Pair<T, U> {}\n");
        let e = create_class(&doc, at("Bag"), "Bag", &ty).expect_err("diamond alone");
        assert!(e.contains("how many type parameters"), "{e}");
        let e = create_class(&doc, at("Two"), "Two", &ty).expect_err("1 and 2");
        assert!(e.contains("1 and 2 type arguments"), "{e}");
        // A type parameter is named apart from the types the class spells.
        assert_eq!(type_params(2, "T x; V y"), "<U, W>");
    }

    #[test]
    fn a_nested_class_goes_into_its_outer_class() {
        let src =
            "package p;\n\nclass A {\n    Outer.Inner i = new Outer.Inner(1);\n    int k = Outer.Inner.LIMIT;\n}\n";
        let doc = Doc::new(Path::new("/nowhere/p/A.java"), "p/A.java", src.as_bytes().to_vec()).expect("utf-8");
        let outer_src = "package p;\n\npublic class Outer {\n    int x;\n}\n";
        let outer =
            Doc::new(Path::new("/nowhere/p/Outer.java"), "p/Outer.java", outer_src.as_bytes().to_vec()).expect("utf-8");
        let ty = Known(src);
        // javac points at the dot, get_problems at the qualifier.
        let at = src.find(".Inner i").expect("dot");
        assert_eq!(qualifier_at(&doc, at, "Inner"), Ok(Some(("Outer".to_owned(), at - 5, at))));
        assert_eq!(qualifier_at(&doc, at - 5, "Inner"), Ok(Some(("Outer".to_owned(), at - 5, at))));
        let edits = create_nested(&doc, at, "Inner", "Outer", &outer, "p.Outer", &ty).expect("nested");
        let mut out = outer_src.to_owned();
        for e in edits.iter().rev() {
            out.replace_range(e.start..e.end, &e.text);
        }
        assert_eq!(
            out,
            "package p;\n\npublic class Outer {\n    int x;\n\n    public static class Inner {\n        public Inner(int p1) {\n        }\n\n        public static final int LIMIT = 0;\n    }\n}\n"
        );
        let e = create_nested(&doc, at, "Inner", "Outer", &outer, "p.Other", &ty).expect_err("not there");
        assert!(e.contains("not declared"), "{e}");
        let plain = src.find("A {").expect("a");
        assert_eq!(qualifier_at(&doc, plain, "A"), Ok(None));
    }
}

#[cfg(test)]
mod cases {
    use super::create;
    use crate::ctx::Ctx;
    use crate::tests::{check_workspace, check_workspace_refused};
    use expect_test::expect;

    /// `create` at the first `name` of `p/A.java`.
    fn at_use(ctx: &dyn Ctx, name: &str) -> Result<crate::ctx::Outcome, crate::actions::ActionError> {
        let (w, _) = ctx.world();
        let path = w.files.iter().find(|f| f.path.ends_with("p/A.java")).map(|f| f.path.clone()).expect("A.java");
        let doc = ctx.read(&path)?;
        let at = doc.text().find(name).expect("a use");
        create(ctx, &doc, at, name)
    }

    #[test]
    fn a_class_typed_by_the_binder_from_its_constructor_call() {
        let a = "package p;\n\nimport java.util.List;\n\nclass A {\n    Object f(List<String> xs) {\n        return new Foo(xs.size(), xs);\n    }\n}\n";
        check_workspace(
            &[("p/A.java", a)],
            |ctx, _| at_use(ctx, "Foo"),
            expect![[r#"
            --- p/Foo.java
            package p;

            import java.util.List;

            public class Foo {
                public Foo(int p1, List<String> xs) {
                }
            }
        "#]],
        );
    }

    #[test]
    fn a_member_class_of_an_inner_class_is_refused() {
        let a = "package p;\n\nclass A {\n    class Inner {}\n\n    Object f() {\n        return new Inner.Deep();\n    }\n}\n";
        check_workspace_refused(
            &[("p/A.java", a)],
            |ctx, _| at_use(ctx, "Deep"),
            "fix class refused: p.A.Inner is an inner class: it cannot declare a static member class",
        );
    }
}
