//! The members Lombok's annotation processor generates, read from a type's syntax tree: the one
//! generator both the outline (`java_index`, the live index) and the reference engine's
//! declarations (mji-xref's `decls`) turn into their own shapes, so every tool sees the same
//! generated accessors, constructors, builders and loggers.
//!
//! An annotation is Lombok's when written `@lombok.Getter` (or the logger's package), or written
//! `@Getter` with `lombok.Getter` or `lombok.*` imported and no other `Getter` imported. What is
//! generated follows Lombok's handlers: a hand-written method of the same name (case-insensitive)
//! and parameter count wins; `AccessLevel.NONE` generates nothing; a `boolean` field `x` has
//! `isX`; `@Data` and `@Value` imply a constructor only when none is written or annotated;
//! `@Accessors` (`fluent`, `chain`, `prefix`) on the field, else on its type, names accessors.
//! Not yet read: `lombok.config`, `@Accessors` of an enclosing type, `@Builder` on a
//! constructor or method, `@Singular`, `@SuperBuilder`, `staticConstructor`, `@Delegate`,
//! `@Getter(lazy = true)`.

use tree_sitter::Node;

use crate::kind;

/// The annotations this generator knows, with the package each is in.
const KNOWN: &[(&str, &str)] = &[
    ("Getter", "lombok"),
    ("Setter", "lombok"),
    ("Data", "lombok"),
    ("Value", "lombok"),
    ("ToString", "lombok"),
    ("EqualsAndHashCode", "lombok"),
    ("NoArgsConstructor", "lombok"),
    ("RequiredArgsConstructor", "lombok"),
    ("AllArgsConstructor", "lombok"),
    ("Builder", "lombok"),
    ("With", "lombok"),
    ("Accessors", "lombok.experimental"),
    ("Slf4j", "lombok.extern.slf4j"),
    ("XSlf4j", "lombok.extern.slf4j"),
    ("Log", "lombok.extern.java"),
    ("Log4j", "lombok.extern.log4j"),
    ("Log4j2", "lombok.extern.log4j"),
    ("CommonsLog", "lombok.extern.apachecommons"),
    ("JBossLog", "lombok.extern.jbosslog"),
    ("Flogger", "lombok.extern.flogger"),
];

/// Each logger annotation and the type of the `log` field it generates.
const LOGGERS: &[(&str, &str)] = &[
    ("Slf4j", "org.slf4j.Logger"),
    ("XSlf4j", "org.slf4j.ext.XLogger"),
    ("Log", "java.util.logging.Logger"),
    ("Log4j", "org.apache.log4j.Logger"),
    ("Log4j2", "org.apache.logging.log4j.Logger"),
    ("CommonsLog", "org.apache.commons.logging.Log"),
    ("JBossLog", "org.jboss.logging.Logger"),
    ("Flogger", "com.google.common.flogger.FluentLogger"),
];

/// Which of [`KNOWN`]'s simple names mean Lombok's annotation in one file, from its imports.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    /// Indexes into [`KNOWN`] whose simple name is Lombok's here.
    simple: Vec<usize>,
    /// The file names `lombok.` somewhere (a qualified annotation may be in it).
    qualified: bool,
}

impl Scope {
    /// The scope of a compilation unit (`program` node).
    pub fn of(root: Node, src: &[u8]) -> Scope {
        let mut single: Vec<String> = Vec::new();
        let mut demand: Vec<String> = Vec::new();
        let mut c = root.walk();
        for n in root.named_children(&mut c) {
            if n.kind() != kind::IMPORT_DECLARATION {
                continue;
            }
            let mut c2 = n.walk();
            let kids: Vec<Node> = n.children(&mut c2).collect();
            if kids.iter().any(|k| k.kind() == "static") {
                continue;
            }
            let on_demand = kids.iter().any(|k| k.kind() == kind::ASTERISK);
            let Some(path) = kids.iter().find(|k| matches!(k.kind(), kind::IDENTIFIER | kind::SCOPED_IDENTIFIER))
            else {
                continue;
            };
            let path: String = text(*path, src).chars().filter(|c| !c.is_whitespace()).collect();
            if on_demand { demand.push(path) } else { single.push(path) }
        }
        let mut simple = Vec::new();
        for (i, (name, pkg)) in KNOWN.iter().enumerate() {
            let mine = format!("{pkg}.{name}");
            let other = single.iter().any(|s| s.rsplit('.').next() == Some(name) && *s != mine);
            if !other && (single.contains(&mine) || demand.iter().any(|d| d == pkg)) {
                simple.push(i);
            }
        }
        let qualified = src.windows(7).any(|w| w == b"lombok.");
        Scope { simple, qualified }
    }

    /// The simple name of Lombok's annotation `name` (as written: simple or qualified), if it is one.
    fn lombok(&self, name: &str) -> Option<&'static str> {
        KNOWN.iter().enumerate().find_map(|(i, (simple, pkg))| {
            let qualified = name.strip_suffix(simple).and_then(|p| p.strip_suffix('.')) == Some(pkg);
            (qualified || (name == *simple && self.simple.contains(&i))).then_some(*simple)
        })
    }
}

/// What a generated member is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GenKind {
    Field,
    Method,
    Ctor,
    /// A nested class (a builder), with its own members.
    Type,
}

/// A generated member's type: a type node of the source (with a declarator's extra
/// dimensions), or a type Lombok names.
#[derive(Debug, Clone)]
pub enum GenTy<'t> {
    Node { ty: Node<'t>, dims: Option<Node<'t>> },
    Text(String),
}

/// Named parameters with their types.
type Params<'t> = Vec<(String, GenTy<'t>)>;

/// One member Lombok generates.
#[derive(Debug, Clone)]
pub struct Generated<'t> {
    pub kind: GenKind,
    pub name: String,
    pub params: Vec<(String, GenTy<'t>)>,
    /// The return type of a method, the type of a field; `void` for a constructor or a type.
    pub ty: GenTy<'t>,
    /// `public`, `static`… in Java's order.
    pub modifiers: Vec<&'static str>,
    /// The annotation that generates it, as `@Getter`.
    pub by: &'static str,
    /// The node it is generated from (the annotation, or the field it is for): its line.
    pub at: Node<'t>,
    /// A generated type's members.
    pub members: Vec<Generated<'t>>,
    /// The type parameters it declares (the annotated type's, on a generated builder class and
    /// on a static method that makes or builds the type).
    pub type_params: Option<Node<'t>>,
}

/// A field of the annotated type, as the handlers see it.
struct Field<'t> {
    name: String,
    ty: Node<'t>,
    dims: Option<Node<'t>>,
    is_static: bool,
    is_final: bool,
    initialized: bool,
    non_null: bool,
    decl: Node<'t>,
    /// The field's own Lombok annotations.
    anns: Vec<Ann<'t>>,
}

impl<'t> Field<'t> {
    fn ty(&self) -> GenTy<'t> {
        GenTy::Node { ty: self.ty, dims: self.dims }
    }

    fn is_boolean(&self, src: &[u8]) -> bool {
        self.dims.is_none() && text(self.ty, src) == "boolean"
    }

    fn ann(&self, name: &str) -> Option<&Ann<'t>> {
        self.anns.iter().find(|a| a.name == name)
    }
}

/// One Lombok annotation.
#[derive(Clone, Copy)]
struct Ann<'t> {
    name: &'static str,
    node: Node<'t>,
}

impl<'t> Ann<'t> {
    /// The text of element `key` (`value` is also the one unnamed argument).
    fn arg<'s>(&self, key: &str, src: &'s [u8]) -> Option<&'s str> {
        let args = self.node.child_by_field_name("arguments")?;
        let mut c = args.walk();
        for a in args.named_children(&mut c) {
            if a.kind() == kind::ELEMENT_VALUE_PAIR {
                let k = a.child_by_field_name("key").map(|k| text(k, src));
                if k == Some(key) {
                    return a.child_by_field_name("value").map(|v| text(v, src));
                }
            } else if key == "value" && a.is_named() && !a.kind().ends_with("comment") {
                return Some(text(a, src));
            }
        }
        None
    }

    /// The access an `AccessLevel` argument asks for: None for `NONE`.
    fn access(&self, src: &[u8]) -> Option<&'static str> {
        let level = self.arg("value", src).or_else(|| self.arg("access", src)).unwrap_or("PUBLIC");
        match level.rsplit('.').next().unwrap_or(level).trim() {
            "NONE" => None,
            "PROTECTED" => Some("protected"),
            "PACKAGE" | "MODULE" => Some(""),
            "PRIVATE" => Some("private"),
            _ => Some("public"),
        }
    }
}

fn text<'s>(n: Node, src: &'s [u8]) -> &'s str {
    n.utf8_text(src).unwrap_or("")
}

/// The Lombok annotations in a declaration's `modifiers`, and whether it is static and final.
fn modifiers<'t>(scope: &Scope, decl: Node<'t>, src: &[u8]) -> (Vec<Ann<'t>>, bool, bool, bool) {
    let mut anns = Vec::new();
    let (mut is_static, mut is_final, mut non_null) = (false, false, false);
    let mut c = decl.walk();
    let Some(mods) = decl.children(&mut c).find(|k| k.kind() == kind::MODIFIERS) else {
        return (anns, false, false, false);
    };
    let mut c2 = mods.walk();
    for m in mods.children(&mut c2) {
        match m.kind() {
            "static" => is_static = true,
            "final" => is_final = true,
            kind::ANNOTATION | kind::MARKER_ANNOTATION => {
                let name: String = m
                    .child_by_field_name("name")
                    .map(|n| text(n, src).chars().filter(|c| !c.is_whitespace()).collect())
                    .unwrap_or_default();
                let last = name.rsplit('.').next().unwrap_or(&name);
                non_null |= last.eq_ignore_ascii_case("nonnull");
                if let Some(simple) = scope.lombok(&name) {
                    anns.push(Ann { name: simple, node: m });
                }
            }
            _ => {}
        }
    }
    (anns, is_static, is_final, non_null)
}

/// The name the accessors of a field named `name` (its prefix removed) use: `foo` of a
/// `boolean isFoo`.
fn base(name: &str, boolean: bool) -> &str {
    match name.strip_prefix("is") {
        Some(rest) if boolean && rest.chars().next().is_some_and(char::is_uppercase) => rest,
        _ => name,
    }
}

/// How accessors are named, from `@Accessors` on the field, else on its type.
#[derive(Default)]
struct Style {
    fluent: bool,
    chain: bool,
    prefix: Vec<String>,
}

impl Style {
    fn of(a: Option<&Ann>, src: &[u8]) -> Style {
        let Some(a) = a else { return Style::default() };
        let flag = |k: &str| a.arg(k, src).map(|v| v.trim() == "true");
        let fluent = flag("fluent").unwrap_or(false);
        let chain = flag("chain").unwrap_or(fluent);
        let prefix = a
            .arg("prefix", src)
            .map(|v| {
                v.trim()
                    .trim_start_matches('{')
                    .trim_end_matches('}')
                    .split(',')
                    .map(|p| p.trim().trim_matches('"').to_owned())
                    .filter(|p| !p.chars().any(char::is_whitespace))
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default();
        // `prefix = {}` (or `""` alone) removes nothing.
        let prefix = if prefix.iter().all(String::is_empty) { Vec::new() } else { prefix };
        Style { fluent, chain, prefix }
    }

    /// The field's name without its prefix (`name` of `mName`), or None when prefixes are
    /// configured and none matches (Lombok then generates no accessor).
    fn strip(&self, name: &str) -> Option<String> {
        if self.prefix.is_empty() {
            return Some(name.to_owned());
        }
        for p in &self.prefix {
            if p.is_empty() {
                return Some(name.to_owned());
            }
            let Some(rest) = name.strip_prefix(p.as_str()) else { continue };
            let Some(next) = rest.chars().next() else { continue };
            if !p.chars().last().is_some_and(char::is_alphabetic) || next.is_uppercase() {
                let mut out: String = next.to_lowercase().collect();
                out.push_str(&rest[next.len_utf8()..]);
                return Some(out);
            }
        }
        None
    }
}

/// The name of a declaration.
fn text_of_name(m: Node, src: &[u8]) -> String {
    m.child_by_field_name("name").map(|n| text(n, src).to_owned()).unwrap_or_default()
}

/// How many parameters a method or constructor declares.
fn params_count(m: Node) -> usize {
    m.child_by_field_name("parameters").map_or(0, |p| {
        let mut c = p.walk();
        p.named_children(&mut c).filter(|x| matches!(x.kind(), kind::FORMAL_PARAMETER | kind::SPREAD_PARAMETER)).count()
    })
}

/// The parameters of a `formal_parameters` node, as a builder's fields.
fn callable_params<'t>(p: Node<'t>, src: &[u8]) -> Vec<(String, GenTy<'t>)> {
    let mut out = Vec::new();
    let mut c = p.walk();
    for x in p.named_children(&mut c).filter(|x| x.kind() == kind::FORMAL_PARAMETER) {
        let (Some(name), Some(ty)) = (x.child_by_field_name("name"), x.child_by_field_name("type")) else {
            continue;
        };
        out.push((text(name, src).to_owned(), GenTy::Node { ty, dims: x.child_by_field_name("dimensions") }));
    }
    out
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn mods(access: &'static str, rest: &[&'static str]) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = Vec::new();
    if !access.is_empty() {
        v.push(access);
    }
    v.extend_from_slice(rest);
    v
}

fn text_ty<'t>(s: &str) -> GenTy<'t> {
    GenTy::Text(s.to_owned())
}

/// The members Lombok generates for the type declaration `ty` (a class, enum or record; not its
/// nested types, which are declarations of their own). Empty when it has no Lombok annotation.
pub fn generate<'t>(scope: &Scope, ty: Node<'t>, src: &[u8]) -> Vec<Generated<'t>> {
    if scope.simple.is_empty() && !scope.qualified {
        return Vec::new();
    }
    let (anns, _, type_final, _) = modifiers(scope, ty, src);
    let Some(body) = ty.child_by_field_name("body") else { return Vec::new() };
    let Some(simple) = ty.child_by_field_name("name").map(|n| text(n, src).to_owned()) else { return Vec::new() };
    // What the type declares: fields, methods (name, parameter count), constructors, classes.
    let mut fields: Vec<Field> = Vec::new();
    let mut methods: Vec<(String, usize)> = Vec::new();
    let mut ctors = 0usize;
    let mut classes: Vec<String> = Vec::new();
    // `@Builder` on a constructor or a static method: its annotation, parameters and what
    // `build()` returns (None: the type itself).
    let mut built_by: Vec<(Ann, Params, Option<Node>)> = Vec::new();
    let mut c = body.walk();
    let mut nodes: Vec<Node> = body.named_children(&mut c).collect();
    if let Some(i) = nodes.iter().position(|n| n.kind() == kind::ENUM_BODY_DECLARATIONS) {
        let inner = nodes.remove(i);
        let mut c2 = inner.walk();
        nodes.extend(inner.named_children(&mut c2));
    }
    for m in nodes {
        match m.kind() {
            kind::FIELD_DECLARATION => {
                let (fanns, is_static, is_final, non_null) = modifiers(scope, m, src);
                let Some(fty) = m.child_by_field_name("type") else { continue };
                let mut c3 = m.walk();
                for d in m.children_by_field_name("declarator", &mut c3) {
                    let Some(name) = d.child_by_field_name("name") else { continue };
                    fields.push(Field {
                        name: text(name, src).to_owned(),
                        ty: fty,
                        dims: d.child_by_field_name("dimensions"),
                        is_static,
                        is_final,
                        initialized: d.child_by_field_name("value").is_some(),
                        non_null,
                        decl: m,
                        anns: fanns.clone(),
                    });
                }
            }
            kind::METHOD_DECLARATION | kind::CONSTRUCTOR_DECLARATION
                if let Some(a) = modifiers(scope, m, src).0.into_iter().find(|a| a.name == "Builder") =>
            {
                let params = m.child_by_field_name("parameters").map(|p| callable_params(p, src)).unwrap_or_default();
                let ret = if m.kind() == kind::METHOD_DECLARATION { m.child_by_field_name("type") } else { None };
                built_by.push((a, params, ret));
                if m.kind() == kind::METHOD_DECLARATION {
                    methods.push((text_of_name(m, src), params_count(m)));
                } else {
                    ctors += 1;
                }
            }
            kind::METHOD_DECLARATION => {
                let name = m.child_by_field_name("name").map(|n| text(n, src).to_owned()).unwrap_or_default();
                let count = m.child_by_field_name("parameters").map_or(0, |p| {
                    let mut c3 = p.walk();
                    p.named_children(&mut c3)
                        .filter(|x| matches!(x.kind(), kind::FORMAL_PARAMETER | kind::SPREAD_PARAMETER))
                        .count()
                });
                methods.push((name, count));
            }
            kind::CONSTRUCTOR_DECLARATION | kind::COMPACT_CONSTRUCTOR_DECLARATION => ctors += 1,
            k if kind::is_type_declaration(k) => {
                if let Some(n) = m.child_by_field_name("name") {
                    classes.push(text(n, src).to_owned());
                }
            }
            _ => {}
        }
    }
    let type_ann = |name: &str| anns.iter().find(|a| a.name == name).copied();
    let data = type_ann("Data");
    let value = type_ann("Value");
    // `@Value` makes every instance field final (and the class final).
    for f in fields.iter_mut().filter(|f| !f.is_static) {
        f.is_final |= value.is_some();
    }
    let is_final_class = type_final || value.is_some();
    let exists = |name: &str, n: usize| methods.iter().any(|(m, count)| *count == n && m.eq_ignore_ascii_case(name));
    // A generic type's own type as Lombok writes it: `Box<K, V>`.
    let tparams = ty.child_by_field_name("type_parameters");
    let mut names: Vec<&str> = Vec::new();
    if let Some(tp) = tparams {
        let mut c4 = tp.walk();
        for p in tp.named_children(&mut c4).filter(|p| p.kind() == kind::TYPE_PARAMETER) {
            let mut c5 = p.walk();
            let name = p.named_children(&mut c5).find(|k| matches!(k.kind(), kind::IDENTIFIER | kind::TYPE_IDENTIFIER));
            names.extend(name.map(|n| text(n, src)));
        }
    }
    let generic = if names.is_empty() { String::new() } else { format!("<{}>", names.join(", ")) };
    let self_ty = || text_ty(&format!("{simple}{generic}"));
    let mut out: Vec<Generated> = Vec::new();
    let method = |name: String, params, ty, modifiers, by, at| Generated {
        kind: GenKind::Method,
        name,
        params,
        ty,
        modifiers,
        by,
        at,
        members: Vec::new(),
        type_params: None,
    };
    // Loggers first: Lombok puts the field at the top of the type.
    for a in &anns {
        if let Some((_, logger)) = LOGGERS.iter().find(|(n, _)| *n == a.name) {
            out.push(Generated {
                kind: GenKind::Field,
                name: "log".to_owned(),
                params: Vec::new(),
                ty: text_ty(logger),
                modifiers: vec!["private", "static", "final"],
                by: a.name_at(),
                at: a.node,
                members: Vec::new(),
                type_params: None,
            });
        }
    }
    // Accessors, per field: the field's own annotation wins over the type's.
    let type_getter = type_ann("Getter").or(data).or(value);
    let type_setter = type_ann("Setter").or(data);
    let type_with = type_ann("With");
    let type_accessors = type_ann("Accessors");
    for f in fields.iter().filter(|f| !f.name.starts_with('$')) {
        // A static field has accessors only from its own annotation.
        let pick = |own: &'static str, typed: Option<Ann<'t>>| match f.ann(own) {
            Some(a) => Some(*a),
            None if !f.is_static => typed,
            None => None,
        };
        let style = Style::of(f.ann("Accessors").or(type_accessors.as_ref()), src);
        let Some(stripped) = style.strip(&f.name) else { continue };
        let boolean = f.is_boolean(src);
        let base = capitalized(base(&stripped, boolean));
        if let Some(a) = pick("Getter", type_getter)
            && let Some(access) = a.access(src)
        {
            let name = match (style.fluent, boolean) {
                (true, _) => stripped.clone(),
                (false, true) => format!("is{base}"),
                (false, false) => format!("get{base}"),
            };
            let taken = exists(&name, 0) || (boolean && !style.fluent && exists(&format!("get{base}"), 0));
            if !taken {
                let rest: &[&str] = if f.is_static { &["static"] } else { &[] };
                let at = if f.ann("Getter").is_some() { a.node } else { f.decl };
                out.push(method(name, Vec::new(), f.ty(), mods(access, rest), a.name_at(), at));
            }
        }
        if let Some(a) = pick("Setter", type_setter)
            && !f.is_final
            && let Some(access) = a.access(src)
        {
            let name = if style.fluent { stripped.clone() } else { format!("set{base}") };
            if !exists(&name, 1) {
                let rest: &[&str] = if f.is_static { &["static"] } else { &[] };
                let at = if f.ann("Setter").is_some() { a.node } else { f.decl };
                let params = vec![(f.name.clone(), f.ty())];
                // A chained setter returns its object (a static one stays void).
                let ret = if style.chain && !f.is_static { self_ty() } else { text_ty("void") };
                out.push(method(name, params, ret, mods(access, rest), a.name_at(), at));
            }
        }
        if let Some(a) = pick("With", type_with)
            && !f.is_static
            && !(f.is_final && f.initialized)
            && let Some(access) = a.access(src)
        {
            let name = format!("with{base}");
            if !exists(&name, 1) {
                let at = if f.ann("With").is_some() { a.node } else { f.decl };
                let params = vec![(f.name.clone(), f.ty())];
                out.push(method(name, params, self_ty(), mods(access, &[]), a.name_at(), at));
            }
        }
    }
    // Constructors.
    let instance: Vec<&Field> = fields.iter().filter(|f| !f.is_static).collect();
    let all: Vec<&Field> = instance.iter().copied().filter(|f| !(f.is_final && f.initialized)).collect();
    let required: Vec<&Field> =
        instance.iter().copied().filter(|f| (f.is_final || f.non_null) && !f.initialized).collect();
    let annotated_ctor =
        ["NoArgsConstructor", "RequiredArgsConstructor", "AllArgsConstructor"].iter().any(|n| type_ann(n).is_some());
    let is_enum = ty.kind() == kind::ENUM_DECLARATION;
    let ctor = |a: Ann<'t>, access: &'static str, params: &[&Field<'t>], out: &mut Vec<Generated<'t>>| {
        // An enum's constructors are private.
        let access = if is_enum { "private" } else { access };
        let params: Vec<(String, GenTy)> = params.iter().map(|f| (f.name.clone(), f.ty())).collect();
        let static_name = a
            .arg("staticName", src)
            .or_else(|| a.arg("staticConstructor", src))
            .map(|s| s.trim_matches('"').to_owned())
            .filter(|s| !s.is_empty());
        let by = a.name_at();
        match static_name {
            Some(factory) => {
                out.push(Generated {
                    kind: GenKind::Ctor,
                    name: simple.clone(),
                    params: params.clone(),
                    ty: text_ty("void"),
                    modifiers: vec!["private"],
                    by,
                    at: a.node,
                    members: Vec::new(),
                    type_params: None,
                });
                let factory = method(factory, params, self_ty(), mods(access, &["static"]), by, a.node);
                out.push(Generated { type_params: tparams, ..factory });
            }
            None => out.push(Generated {
                kind: GenKind::Ctor,
                name: simple.clone(),
                params,
                ty: text_ty("void"),
                modifiers: mods(access, &[]),
                by,
                at: a.node,
                members: Vec::new(),
                type_params: None,
            }),
        }
    };
    let builder = type_ann("Builder");
    for (name, params) in [
        ("NoArgsConstructor", Vec::new()),
        ("RequiredArgsConstructor", required.clone()),
        ("AllArgsConstructor", all.clone()),
    ] {
        if let Some(a) = type_ann(name)
            && let Some(access) = a.access(src)
        {
            ctor(a, access, &params, &mut out);
        }
    }
    if !annotated_ctor && ctors == 0 {
        if let Some(a) = builder {
            ctor(a, "", &all, &mut out);
        } else if let Some(a) = value {
            ctor(a, "public", &all, &mut out);
        } else if let Some(a) = data {
            ctor(a, "public", &required, &mut out);
        }
    }
    // toString, equals, hashCode, canEqual.
    if let Some(a) = type_ann("ToString").or(data).or(value)
        && !exists("toString", 0)
    {
        out.push(method("toString".into(), Vec::new(), text_ty("String"), mods("public", &[]), a.name_at(), a.node));
    }
    if let Some(a) = type_ann("EqualsAndHashCode").or(data).or(value)
        && !exists("equals", 1)
        && !exists("hashCode", 0)
    {
        let object = || vec![("o".to_owned(), text_ty("Object"))];
        out.push(method("equals".into(), object(), text_ty("boolean"), mods("public", &[]), a.name_at(), a.node));
        let extends = ty.child_by_field_name("superclass").is_some();
        if !is_final_class || extends {
            let p = vec![("other".to_owned(), text_ty("Object"))];
            out.push(method("canEqual".into(), p, text_ty("boolean"), mods("protected", &[]), a.name_at(), a.node));
        }
        out.push(method("hashCode".into(), Vec::new(), text_ty("int"), mods("public", &[]), a.name_at(), a.node));
    }
    // The builders: `builder()` and the nested `XBuilder` with a method per field or parameter
    // and `build()`; of the type (its fields), and of each annotated constructor or method.
    // (annotation, parameters, what build() returns, the builder's base name, type arguments)
    let mut builders: Vec<(Ann, Params, GenTy, String, String)> = Vec::new();
    if let Some(a) = builder {
        let params = all.iter().map(|f| (f.name.clone(), f.ty())).collect();
        builders.push((a, params, self_ty(), simple.clone(), generic.clone()));
    }
    for (a, params, ret) in built_by {
        let (built, named) = match ret {
            Some(r) => {
                let name = text(r, src);
                let base = name.split('<').next().unwrap_or(name).rsplit('.').next().unwrap_or(name).to_owned();
                (GenTy::Node { ty: r, dims: None }, base)
            }
            None => (self_ty(), simple.clone()),
        };
        let generic = if ret.is_none() { generic.clone() } else { String::new() };
        builders.push((a, params, built, named, generic));
    }
    for (a, params, built, named, generic) in builders {
        let unquoted = |k: &str| a.arg(k, src).map(|s| s.trim_matches('"').to_owned()).filter(|s| !s.is_empty());
        let class = unquoted("builderClassName").unwrap_or_else(|| format!("{named}Builder"));
        // As Lombok writes it: qualified by the annotated type.
        let class_ref = format!("{simple}.{class}{generic}");
        let tparams = if generic.is_empty() { None } else { tparams };
        let by = a.name_at();
        let bmethod = unquoted("builderMethodName").unwrap_or_else(|| "builder".to_owned());
        if !exists(&bmethod, 0) {
            let make = method(bmethod, Vec::new(), text_ty(&class_ref), mods("public", &["static"]), by, a.node);
            out.push(Generated { type_params: tparams, ..make });
        }
        if a.arg("toBuilder", src).is_some_and(|v| v.trim() == "true") && !exists("toBuilder", 0) {
            out.push(method("toBuilder".into(), Vec::new(), text_ty(&class_ref), mods("public", &[]), by, a.node));
        }
        let prefix = unquoted("setterPrefix").unwrap_or_default();
        if classes.contains(&class) {
            continue;
        }
        let mut members: Vec<Generated> = Vec::new();
        for (name, ty) in &params {
            members.push(Generated {
                kind: GenKind::Field,
                name: name.clone(),
                params: Vec::new(),
                ty: ty.clone(),
                modifiers: vec!["private"],
                by,
                at: a.node,
                members: Vec::new(),
                type_params: None,
            });
        }
        members.push(Generated {
            kind: GenKind::Ctor,
            name: class.clone(),
            params: Vec::new(),
            ty: text_ty("void"),
            modifiers: Vec::new(),
            by,
            at: a.node,
            members: Vec::new(),
            type_params: None,
        });
        for (name, ty) in &params {
            let setter = if prefix.is_empty() { name.clone() } else { format!("{prefix}{}", capitalized(name)) };
            let p = vec![(name.clone(), ty.clone())];
            members.push(method(setter, p, text_ty(&class_ref), mods("public", &[]), by, a.node));
        }
        let build = unquoted("buildMethodName").unwrap_or_else(|| "build".to_owned());
        members.push(method(build, Vec::new(), built, mods("public", &[]), by, a.node));
        members.push(method("toString".into(), Vec::new(), text_ty("String"), mods("public", &[]), by, a.node));
        classes.push(class.clone());
        out.push(Generated {
            kind: GenKind::Type,
            name: class,
            params: Vec::new(),
            ty: text_ty("void"),
            modifiers: vec!["public", "static"],
            by,
            at: a.node,
            members,
            type_params: tparams,
        });
    }
    out
}

impl Ann<'_> {
    /// `@Getter` of an annotation named `Getter`.
    fn name_at(&self) -> &'static str {
        KNOWN_AT.iter().find(|(n, _)| *n == self.name).map_or("@lombok", |(_, at)| at)
    }
}

/// Each known annotation's name with its `@`, as a generated member names its cause.
const KNOWN_AT: &[(&str, &str)] = &[
    ("Getter", "@Getter"),
    ("Setter", "@Setter"),
    ("Data", "@Data"),
    ("Value", "@Value"),
    ("ToString", "@ToString"),
    ("EqualsAndHashCode", "@EqualsAndHashCode"),
    ("NoArgsConstructor", "@NoArgsConstructor"),
    ("RequiredArgsConstructor", "@RequiredArgsConstructor"),
    ("AllArgsConstructor", "@AllArgsConstructor"),
    ("Builder", "@Builder"),
    ("With", "@With"),
    ("Accessors", "@Accessors"),
    ("Slf4j", "@Slf4j"),
    ("XSlf4j", "@XSlf4j"),
    ("Log", "@Log"),
    ("Log4j", "@Log4j"),
    ("Log4j2", "@Log4j2"),
    ("CommonsLog", "@CommonsLog"),
    ("JBossLog", "@JBossLog"),
    ("Flogger", "@Flogger"),
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The names of the members generated for the first type of `src`.
    fn generated(src: &str) -> Vec<String> {
        let tree = crate::parse_tree(src).expect("parses");
        let root = tree.root_node();
        let scope = Scope::of(root, src.as_bytes());
        let mut c = root.walk();
        let ty = root.named_children(&mut c).find(|n| kind::is_type_declaration(n.kind())).expect("a type");
        generate(&scope, ty, src.as_bytes()).into_iter().map(|g| g.name).collect()
    }

    #[test]
    fn an_annotation_is_lombok_s_by_its_import_or_its_qualified_name() {
        let body = "@Getter class A { int x; }";
        assert_eq!(generated(&format!("import lombok.Getter;\n{body}")), ["getX"]);
        assert_eq!(generated(&format!("import lombok.*;\n{body}")), ["getX"]);
        assert_eq!(generated("@lombok.Getter class A { int x; }"), ["getX"]);
        // Not imported, or another package's `Getter` imported by name (it hides `lombok.*`).
        assert!(generated(body).is_empty());
        assert!(generated(&format!("import lombok.*;\nimport a.b.Getter;\n{body}")).is_empty());
        assert!(generated(&format!("import a.b.Getter;\n{body}")).is_empty());
    }

    #[test]
    fn a_written_member_of_the_same_name_and_arity_wins_whatever_its_case() {
        let src = "import lombok.*;\n@Getter @Setter class A { int x; boolean on; int getx() { return 0; } void setOn(int a, int b) {} }";
        assert_eq!(generated(src), ["setX", "isOn", "setOn"]);
    }
}
