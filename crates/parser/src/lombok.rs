//! The members Lombok's annotation processor generates, read from a type's syntax tree: the one
//! generator both the outline (`java_index`, the live index) and the reference engine's
//! declarations (mji-xref's `decls`) turn into their own shapes, so every tool sees the same
//! generated accessors, constructors, builders and loggers.
//!
//! An annotation is Lombok's when written `@lombok.Getter` (or the logger's package), or written
//! `@Getter` with `lombok.Getter` or `lombok.*` imported and no other `Getter` imported. What is
//! generated follows Lombok's handlers: a hand-written method of the same name (case-insensitive)
//! and parameter count (a varargs one takes any more) wins; `AccessLevel.NONE` generates
//! nothing; a `boolean` field `x` has `isX`; `@Data` and `@Value` imply a constructor only when
//! none is written or annotated; fields named `$x` are left out unless annotated themselves;
//! `@Accessors` (`fluent`, `chain`, `prefix`) on the field, else on its type or the nearest
//! enclosing one, names accessors and builder methods. `@Builder` on a type, constructor or
//! static method, with `@Builder.Default` (`$default$x()`), `@Singular` (Lombok's own table of
//! singulars) and `@SuperBuilder`'s self-typed builders, are generated as `delombok` writes them,
//! a nested type named from its outermost one (`Outer.Inner.InnerBuilder`); a record's
//! components are its fields, and Lombok's refusals there (constructors, `@Data`, `@Value`,
//! `@ToString`, `@EqualsAndHashCode`, accessors) are kept. [`renamed_accessors`] tells what a
//! field's generated members become when it is renamed. The keys of `lombok.config` that
//! change members ([`config::READ`]: the logger's name, staticness and `@CustomLog`'s type,
//! accessor naming, the extra private constructor, the builder's class name, `@Singular`'s
//! auto-singularizing, `defaultFinal`) apply through [`Scope::with_config`]; the caller finds the
//! files ([`config::Resolver`]). Not read: `onX`; `@Delegate` and `@ExtensionMethod` are said
//! ([`unsupported`]) but not generated here, and so is a `@CustomLog` no configuration declares
//! (`@Delegate`'s methods need the delegate type's members: [`delegate`] reads the annotation,
//! mji-xref's world generates them). The proof on Lombok's own tests and a real project is
//! `tests/it/oracles/lombok_projects.rs`.

use std::sync::Arc;

use tree_sitter::Node;

use crate::kind;

pub mod config;
pub use config::Config;

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
    ("Singular", "lombok"),
    ("SuperBuilder", "lombok.experimental"),
    ("Delegate", "lombok.experimental"),
    ("Delegate", "lombok"),
    ("ExtensionMethod", "lombok.experimental"),
    ("CustomLog", "lombok"),
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
    /// The `lombok.config` in effect for the file (Lombok's defaults unless given).
    config: Arc<Config>,
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
        // memmem: a window loop over every file's text was 0.4% of a cold index of the JDK.
        let qualified = memchr::memmem::find(src, b"lombok.").is_some();
        Scope { simple, qualified, config: config::default_config() }
    }

    /// This scope under the `lombok.config` in effect for its file's directory.
    pub fn with_config(mut self, config: Arc<Config>) -> Scope {
        self.config = config;
        self
    }

    /// Whether nothing of Lombok's can be generated here.
    fn inactive(&self) -> bool {
        (self.simple.is_empty() && !self.qualified) || self.config.flag(config::DISABLE) == Some(true)
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

/// What a generated member does for the field it is made from: a rename of the field renames
/// it with it (`getName` → `getFullName`), and a field's references may include its uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    Getter,
    Setter,
    /// `withX`.
    With,
    /// A builder's method named after the field (`name(…)`, or with its `setterPrefix`).
    BuilderSetter,
    /// `@Singular`'s one-element adder (`item(…)`).
    SingularOne,
    /// `@Singular`'s all-elements adder (`items(…)`).
    SingularAll,
    /// `@Singular`'s `clearItems()`.
    SingularClear,
}

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
    /// Type parameters Lombok writes itself (`<C extends Sup, B extends Sup.SupBuilder<C, B>>`
    /// of a `@SuperBuilder`'s class): when set, instead of `type_params`.
    pub type_params_text: Option<String>,
    /// The superclass of a generated type, as Lombok writes it.
    pub extends: Option<String>,
    /// The field of the annotated type it is made from, and what it does for it.
    pub field: Option<(String, Role)>,
}

impl<'t> Generated<'t> {
    fn new(
        kind: GenKind,
        name: String,
        ty: GenTy<'t>,
        modifiers: Vec<&'static str>,
        by: &'static str,
        at: Node<'t>,
    ) -> Self {
        Generated {
            kind,
            name,
            params: Vec::new(),
            ty,
            modifiers,
            by,
            at,
            members: Vec::new(),
            type_params: None,
            type_params_text: None,
            extends: None,
            field: None,
        }
    }

    fn with_params(self, params: Params<'t>) -> Self {
        Generated { params, ..self }
    }

    fn for_field(self, field: &str, role: Role) -> Self {
        Generated { field: Some((field.to_owned(), role)), ..self }
    }
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
                } else if name.strip_suffix(".Default").is_some_and(|b| scope.lombok(b) == Some("Builder")) {
                    anns.push(Ann { name: "Builder.Default", node: m });
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

/// How accessors are named, from `@Accessors` on the field, else on its type; what it does not
/// set explicitly, from `lombok.config`.
#[derive(Default)]
struct Style {
    fluent: bool,
    chain: bool,
    prefix: Vec<String>,
    /// `lombok.accessors.capitalization = beanspec`: `uName` keeps its case (`getuName`).
    beanspec: bool,
    /// `lombok.getter.noIsPrefix`: a `boolean` is named as any other type (`getX`).
    no_is_prefix: bool,
}

impl Style {
    fn of(a: Option<&Ann>, src: &[u8], cfg: &Config) -> Style {
        let flag = |k: &str| a.and_then(|a| a.arg(k, src)).map(|v| v.trim() == "true");
        let fluent = flag("fluent").or(cfg.flag(config::ACCESSORS_FLUENT)).unwrap_or(false);
        let chain = flag("chain").or(cfg.flag(config::ACCESSORS_CHAIN)).unwrap_or(fluent);
        let prefix = match a.and_then(|a| a.arg("prefix", src)) {
            Some(v) => v
                .trim()
                .trim_start_matches('{')
                .trim_end_matches('}')
                .split(',')
                .map(|p| p.trim().trim_matches('"').to_owned())
                .filter(|p| !p.chars().any(char::is_whitespace))
                .collect::<Vec<_>>(),
            None => cfg.prefix().to_vec(),
        };
        // `prefix = {}` (or `""` alone) removes nothing.
        let prefix = if prefix.iter().all(String::is_empty) { Vec::new() } else { prefix };
        let beanspec = is_beanspec(cfg);
        let no_is_prefix = cfg.flag(config::GETTER_NO_IS_PREFIX) == Some(true);
        Style { fluent, chain, prefix, beanspec, no_is_prefix }
    }

    /// A name capitalized after an accessor's prefix, as the configured strategy does.
    fn cap(&self, s: &str) -> String {
        let mut c = s.chars();
        if self.beanspec && c.next().is_some_and(char::is_lowercase) && c.next().is_some_and(char::is_uppercase) {
            return s.to_owned();
        }
        capitalized(s)
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

/// The text of the annotation named `simple` (any package) in a declaration's modifiers.
fn annotated<'s>(decl: Node, simple: &str, src: &'s [u8]) -> Option<&'s str> {
    let mut c = decl.walk();
    let mods = decl.children(&mut c).find(|k| k.kind() == kind::MODIFIERS)?;
    let mut c2 = mods.walk();
    let found = mods.children(&mut c2).find(|m| {
        matches!(m.kind(), kind::ANNOTATION | kind::MARKER_ANNOTATION)
            && m.child_by_field_name("name").is_some_and(|n| text(n, src).rsplit('.').next() == Some(simple))
    });
    found.map(|m| text(m, src))
}

/// `lombok.accessors.capitalization = beanspec`.
fn is_beanspec(cfg: &Config) -> bool {
    cfg.get(config::ACCESSORS_CAPITALIZATION).is_some_and(|v| v.trim().eq_ignore_ascii_case("beanspec"))
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

/// The names of the type variables a `type_parameters` node declares.
fn type_var_names<'s>(tp: Node, src: &'s [u8]) -> Vec<&'s str> {
    let mut c = tp.walk();
    let params: Vec<Node> = tp.named_children(&mut c).filter(|p| p.kind() == kind::TYPE_PARAMETER).collect();
    params
        .iter()
        .filter_map(|p| {
            let mut c2 = p.walk();
            let name = p.named_children(&mut c2).find(|k| matches!(k.kind(), kind::IDENTIFIER | kind::TYPE_IDENTIFIER));
            name.map(|n| text(n, src))
        })
        .collect()
}

/// A type as a parameter's type reads in an outline: without its leading type-use annotations.
fn unannotated(t: &str) -> String {
    let mut t = t.trim_start();
    while let Some(rest) = t.strip_prefix('@') {
        let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.')).unwrap_or(rest.len());
        let mut after = rest[end..].trim_start();
        if after.starts_with('(') {
            let mut depth = 0;
            let close = after.char_indices().find_map(|(i, c)| {
                depth += match c {
                    '(' => 1,
                    ')' => -1,
                    _ => 0,
                };
                (depth == 0).then_some(i)
            });
            after = close.map_or("", |i| &after[i + 1..]);
        }
        t = after.trim_start();
    }
    t.to_owned()
}

/// Whether a method's last parameter is varargs.
fn varargs(m: Node) -> bool {
    m.child_by_field_name("parameters").is_some_and(|p| {
        let mut c = p.walk();
        p.named_children(&mut c).any(|x| x.kind() == kind::SPREAD_PARAMETER)
    })
}

/// The parameters of a `formal_parameters` node, as a builder's fields.
fn callable_params<'t>(scope: &Scope, p: Node<'t>, src: &[u8]) -> Vec<BuilderParam<'t>> {
    let mut out = Vec::new();
    let mut c = p.walk();
    for x in p.named_children(&mut c).filter(|x| x.kind() == kind::FORMAL_PARAMETER) {
        let (Some(name), Some(ty)) = (x.child_by_field_name("name"), x.child_by_field_name("type")) else {
            continue;
        };
        let singular = modifiers(scope, x, src).0.into_iter().find(|a| a.name == "Singular");
        out.push(BuilderParam {
            name: text(name, src).to_owned(),
            field_name: text(name, src).to_owned(),
            ty: GenTy::Node { ty, dims: x.child_by_field_name("dimensions") },
            node: Some(ty),
            singular,
            field: false,
            default: false,
            auto: scope.config.flag(config::SINGULAR_AUTO) != Some(false),
            guava: scope.config.flag(config::SINGULAR_USE_GUAVA) == Some(true),
            beanspec: is_beanspec(&scope.config),
        });
    }
    out
}

/// A type's name qualified by the types it is nested in (`Outer.Nested`), as Lombok writes it; a
/// local or anonymous class's enclosing types are not named.
fn nested_path(ty: Node, src: &[u8]) -> String {
    let mut names: Vec<&str> = Vec::new();
    let mut at = Some(ty);
    while let Some(n) = at {
        match n.kind() {
            k if kind::is_type_declaration(k) => match n.child_by_field_name("name") {
                Some(name) => names.push(text(name, src)),
                None => break,
            },
            kind::CLASS_BODY
            | kind::INTERFACE_BODY
            | kind::ENUM_BODY
            | kind::ENUM_BODY_DECLARATIONS
            | kind::ANNOTATION_TYPE_BODY => {}
            _ => break,
        }
        at = n.parent();
    }
    names.reverse();
    names.join(".")
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
    generate_renamed(scope, ty, src, None)
}

/// What the members generated for field `field` of `ty` become when the field is renamed
/// `to`: each of today's (its role, name and parameter count) with the name it would have, or
/// None when Lombok would no longer generate it (a written member now has its name, or a
/// configured prefix no longer matches). Empty when no generated member is made from the field.
pub fn renamed_accessors(scope: &Scope, ty: Node, src: &[u8], field: &str, to: &str) -> Vec<RenamedAccessor> {
    let flat = |gs: Vec<Generated>, name: &str| -> Vec<(Role, String, usize, Option<String>)> {
        let mut out = Vec::new();
        for g in gs {
            if let Some((f, role)) = &g.field
                && f == name
            {
                out.push((*role, g.name.clone(), g.params.len(), None));
            }
            for m in &g.members {
                if let Some((f, role)) = &m.field
                    && f == name
                {
                    out.push((*role, m.name.clone(), m.params.len(), Some(g.name.clone())));
                }
            }
        }
        out
    };
    let before = flat(generate_renamed(scope, ty, src, None), field);
    let after = flat(generate_renamed(scope, ty, src, Some((field, to))), to);
    before
        .into_iter()
        .map(|(role, name, arity, class)| {
            let new = after.iter().find(|(r, _, n, c)| *r == role && *n == arity && *c == class).map(|x| x.1.clone());
            RenamedAccessor { role, name, arity, builder: class, new_name: new }
        })
        .collect()
}

/// Lombok's `@Delegate` on a field or a method (`member`): the type nodes of its `types=` and
/// `excludes=` class literals. What it delegates is read from the delegate's type, which only
/// the reference engine's world knows (mji-xref's `World::delegated_methods`).
pub struct Delegate<'t> {
    pub types: Vec<Node<'t>>,
    pub excludes: Vec<Node<'t>>,
}

/// The `@Delegate` of a field or method declaration, if it has Lombok's.
pub fn delegate<'t>(scope: &Scope, member: Node<'t>, src: &[u8]) -> Option<Delegate<'t>> {
    if scope.inactive() {
        return None;
    }
    let a = modifiers(scope, member, src).0.into_iter().find(|a| a.name == "Delegate")?;
    let mut out = Delegate { types: Vec::new(), excludes: Vec::new() };
    let Some(args) = a.node.child_by_field_name("arguments") else { return Some(out) };
    let mut c = args.walk();
    for p in args.named_children(&mut c).filter(|p| p.kind() == kind::ELEMENT_VALUE_PAIR) {
        let list = match p.child_by_field_name("key").map(|k| text(k, src)) {
            Some("types") => &mut out.types,
            Some("excludes") => &mut out.excludes,
            _ => continue,
        };
        let Some(v) = p.child_by_field_name("value") else { continue };
        let mut c2 = v.walk();
        let literals: Vec<Node> = if v.kind() == kind::ELEMENT_VALUE_ARRAY_INITIALIZER {
            v.named_children(&mut c2).filter(|x| x.kind() == kind::CLASS_LITERAL).collect()
        } else {
            vec![v]
        };
        list.extend(literals.into_iter().filter(|l| l.kind() == kind::CLASS_LITERAL).filter_map(|l| l.named_child(0)));
    }
    Some(out)
}

/// How the note on a `@Delegate` member begins (see [`unsupported`]): an outline that has one
/// has methods only the reference engine's world can list (`java_index`, `java_find_symbol`).
pub const DELEGATE_NOTE: &str = "Lombok's @Delegate on ";

/// Whether an outline has a member annotated with Lombok's `@Delegate` (its note).
pub fn has_delegate(outline: &mji_model::FileOutline) -> bool {
    outline.errors.iter().any(|e| e.message.starts_with(DELEGATE_NOTE))
}

/// What Lombok generates in `ty` that this generator does not: each with the node it is on and
/// what is missing, so an answer says so instead of leaving it out silently.
pub fn unsupported<'t>(scope: &Scope, ty: Node<'t>, src: &[u8]) -> Vec<(Node<'t>, String)> {
    if scope.inactive() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let (anns, _, _, _) = modifiers(scope, ty, src);
    for a in &anns {
        match a.name {
            "CustomLog" if scope.config.custom_log().is_none() => out.push((
                a.node,
                "Lombok's @CustomLog: no lombok.log.custom.declaration in lombok.config, so Lombok generates no logger"
                    .to_owned(),
            )),
            "ExtensionMethod" => out.push((
                a.node,
                "Lombok's @ExtensionMethod: calls of its extension methods are not bound to them".to_owned(),
            )),
            _ => {}
        }
    }
    let Some(body) = ty.child_by_field_name("body") else { return out };
    let mut c = body.walk();
    for m in
        body.named_children(&mut c).filter(|m| matches!(m.kind(), kind::FIELD_DECLARATION | kind::METHOD_DECLARATION))
    {
        if let Some(a) = modifiers(scope, m, src).0.into_iter().find(|a| a.name == "Delegate") {
            let names: Vec<String> = if m.kind() == kind::METHOD_DECLARATION {
                m.child_by_field_name("name").map(|n| text(n, src).to_owned()).into_iter().collect()
            } else {
                let mut c2 = m.walk();
                m.children_by_field_name("declarator", &mut c2)
                    .filter_map(|d| d.child_by_field_name("name"))
                    .map(|n| text(n, src).to_owned())
                    .collect()
            };
            out.push((
                a.node,
                format!(
                    "{DELEGATE_NOTE}{}: the methods it delegates are not listed here; calls bind to them (find_references, refactor_actions) when the delegate's type is a workspace, JDK or classpath type the reference engine knows",
                    names.join(", ")
                ),
            ));
        }
    }
    out
}

/// One generated member of a field, as a rename of the field changes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenamedAccessor {
    pub role: Role,
    pub name: String,
    pub arity: usize,
    /// The generated builder class it is a member of, if not of the annotated type itself.
    pub builder: Option<String>,
    /// Its name after the rename; None when it would no longer be generated.
    pub new_name: Option<String>,
}

/// `generate`, with one field's name replaced (`rename`: from, to) as if the source said so.
fn generate_renamed<'t>(scope: &Scope, ty: Node<'t>, src: &[u8], rename: Option<(&str, &str)>) -> Vec<Generated<'t>> {
    if scope.inactive() {
        return Vec::new();
    }
    let (anns, _, type_final, _) = modifiers(scope, ty, src);
    let cfg = &scope.config;
    let Some(body) = ty.child_by_field_name("body") else { return Vec::new() };
    let Some(simple) = ty.child_by_field_name("name").map(|n| text(n, src).to_owned()) else { return Vec::new() };
    // As Lombok writes the type in what it generates: qualified by its enclosing types.
    let path = nested_path(ty, src);
    let is_abstract = {
        let mut c = ty.walk();
        ty.children(&mut c).find(|k| k.kind() == kind::MODIFIERS).is_some_and(|m| {
            let mut c2 = m.walk();
            m.children(&mut c2).any(|k| k.kind() == "abstract")
        })
    };
    // What the type declares: fields, methods (name, parameter count, whether varargs),
    // constructors, classes.
    let mut fields: Vec<Field> = Vec::new();
    let mut methods: Vec<(String, usize, bool)> = Vec::new();
    let mut ctors = 0usize;
    let mut no_args_written = false;
    let mut classes: Vec<String> = Vec::new();
    // `@Builder` on a constructor or a static method: its annotation, parameters and what
    // `build()` returns (None: the type itself).
    // (and a static method's own type parameters).
    let mut built_by: Vec<BuiltBy> = Vec::new();
    let mut c = body.walk();
    let mut nodes: Vec<Node> = body.named_children(&mut c).collect();
    if let Some(i) = nodes.iter().position(|n| n.kind() == kind::ENUM_BODY_DECLARATIONS) {
        let inner = nodes.remove(i);
        let mut c2 = inner.walk();
        nodes.extend(inner.named_children(&mut c2));
    }
    // A record's components are its fields (final, set by its canonical constructor).
    let is_record = ty.kind() == kind::RECORD_DECLARATION;
    if is_record && let Some(ps) = ty.child_by_field_name("parameters") {
        let mut c2 = ps.walk();
        for x in ps.named_children(&mut c2).filter(|x| x.kind() == kind::FORMAL_PARAMETER) {
            let (Some(name), Some(fty)) = (x.child_by_field_name("name"), x.child_by_field_name("type")) else {
                continue;
            };
            let (fanns, _, _, non_null) = modifiers(scope, x, src);
            fields.push(Field {
                name: text(name, src).to_owned(),
                ty: fty,
                dims: x.child_by_field_name("dimensions"),
                is_static: false,
                is_final: true,
                initialized: false,
                non_null,
                decl: x,
                anns: fanns,
            });
        }
    }
    for m in nodes {
        match m.kind() {
            kind::FIELD_DECLARATION => {
                let (fanns, is_static, is_final, non_null) = modifiers(scope, m, src);
                let Some(fty) = m.child_by_field_name("type") else { continue };
                let mut c3 = m.walk();
                for d in m.children_by_field_name("declarator", &mut c3) {
                    let Some(name) = d.child_by_field_name("name") else { continue };
                    let name = match rename {
                        Some((from, to)) if text(name, src) == from => to.to_owned(),
                        _ => text(name, src).to_owned(),
                    };
                    fields.push(Field {
                        name,
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
                let params =
                    m.child_by_field_name("parameters").map(|p| callable_params(scope, p, src)).unwrap_or_default();
                let ret = if m.kind() == kind::METHOD_DECLARATION { m.child_by_field_name("type") } else { None };
                let own = if ret.is_some() { m.child_by_field_name("type_parameters") } else { None };
                built_by.push((a, params, ret, own));
                if m.kind() == kind::METHOD_DECLARATION {
                    methods.push((text_of_name(m, src), params_count(m), varargs(m)));
                } else {
                    ctors += 1;
                    no_args_written |= params_count(m) == 0;
                }
            }
            kind::METHOD_DECLARATION => methods.push((text_of_name(m, src), params_count(m), varargs(m))),
            kind::CONSTRUCTOR_DECLARATION | kind::COMPACT_CONSTRUCTOR_DECLARATION => {
                ctors += 1;
                no_args_written |= m.kind() == kind::CONSTRUCTOR_DECLARATION && params_count(m) == 0;
            }
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
    // `lombok.fieldDefaults.defaultFinal` makes every instance field of a class or enum final
    // (but `@NonFinal` ones, and all when `@FieldDefaults` says `makeFinal` itself).
    let default_final = cfg.flag(config::FIELD_DEFAULTS_FINAL) == Some(true)
        && matches!(ty.kind(), kind::CLASS_DECLARATION | kind::ENUM_DECLARATION)
        && !annotated(ty, "FieldDefaults", src).is_some_and(|a| a.contains("makeFinal"));
    for f in fields.iter_mut().filter(|f| default_final && !f.is_static && !f.name.starts_with('$')) {
        f.is_final |= annotated(f.decl, "NonFinal", src).is_none();
    }
    let is_final_class = type_final || value.is_some();
    // `@Builder.Default` of a type with `@Builder` or `@SuperBuilder` moves the field's
    // initializer into a static `$default$x()`: the field is no longer initialized.
    let builds = type_ann("Builder").or(type_ann("SuperBuilder"));
    let mut defaults: Vec<usize> = Vec::new();
    for (i, f) in fields.iter_mut().enumerate() {
        if builds.is_some() && !f.is_static && f.initialized && f.ann("Builder.Default").is_some() {
            f.initialized = false;
            defaults.push(i);
        }
    }
    // As Lombok matches: by name whatever its case, and parameter count (a varargs method takes
    // one fewer and any more).
    let exists = |name: &str, n: usize| {
        methods.iter().any(|(m, count, va)| (*count == n || (*va && n + 1 >= *count)) && m.eq_ignore_ascii_case(name))
    };
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
    let self_ty = || text_ty(&format!("{path}{generic}"));
    let mut out: Vec<Generated> = Vec::new();
    let method = |name: String, params: Params<'t>, ty, modifiers, by, at| {
        Generated::new(GenKind::Method, name, ty, modifiers, by, at).with_params(params)
    };
    // Loggers first: Lombok puts the field at the top of the type.
    let interface = matches!(ty.kind(), kind::INTERFACE_DECLARATION | kind::ANNOTATION_TYPE_DECLARATION);
    let log_name = cfg.get(config::LOG_FIELD_NAME).map(str::trim).filter(|n| !n.is_empty()).unwrap_or("log");
    for a in anns.iter().filter(|_| !interface && !fields.iter().any(|f| f.name == log_name)) {
        let logger = match LOGGERS.iter().find(|(n, _)| *n == a.name) {
            Some((_, logger)) => (*logger).to_owned(),
            None if a.name == "CustomLog" => match cfg.custom_log() {
                Some(custom) => custom.ty,
                None => continue,
            },
            None => continue,
        };
        // `lombok.log.fieldIsStatic = false` makes an instance field (a record's must be static).
        let is_static = cfg.flag(config::LOG_FIELD_IS_STATIC) != Some(false);
        if !is_static && is_record {
            continue;
        }
        let mods = if is_static { vec!["private", "static", "final"] } else { vec!["private", "final"] };
        out.push(Generated::new(GenKind::Field, log_name.to_owned(), text_ty(&logger), mods, a.name_at(), a.node));
    }
    // Accessors, per field: the field's own annotation wins over the type's.
    let type_getter = type_ann("Getter").or(data).or(value);
    let type_setter = type_ann("Setter").or(data);
    let type_with = type_ann("With");
    // `@Accessors` of the type, else of the nearest enclosing type that has one.
    let type_accessors = type_ann("Accessors").or_else(|| {
        let mut at = ty.parent();
        while let Some(n) = at {
            if kind::is_type_declaration(n.kind())
                && let Some(a) = modifiers(scope, n, src).0.into_iter().find(|a| a.name == "Accessors")
            {
                return Some(a);
            }
            at = n.parent();
        }
        None
    });
    for f in &fields {
        // A static field, or one named `$x`, has accessors only from its own annotation.
        let pick = |own: &'static str, typed: Option<Ann<'t>>| match f.ann(own) {
            Some(a) => Some(*a),
            None if !f.is_static && !f.name.starts_with('$') => typed,
            None => None,
        };
        let style = Style::of(f.ann("Accessors").or(type_accessors.as_ref()), src, cfg);
        let Some(stripped) = style.strip(&f.name) else { continue };
        let boolean = f.is_boolean(src) && !style.no_is_prefix;
        let base = style.cap(base(&stripped, boolean));
        if let Some(a) = pick("Getter", type_getter)
            && !is_record
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
                let g = method(name, Vec::new(), f.ty(), mods(access, rest), a.name_at(), at);
                out.push(g.for_field(&f.name, Role::Getter));
            }
        }
        if let Some(a) = pick("Setter", type_setter)
            && !f.is_final
            && !is_record
            && let Some(access) = a.access(src)
        {
            let name = if style.fluent { stripped.clone() } else { format!("set{base}") };
            // A boolean `isFoo`'s setter is also taken by a written `setIsFoo`.
            let also = (boolean && base != style.cap(&stripped)).then(|| format!("set{}", style.cap(&stripped)));
            if !exists(&name, 1) && !also.is_some_and(|n| !style.fluent && exists(&n, 1)) {
                let rest: &[&str] = if f.is_static { &["static"] } else { &[] };
                let at = if f.ann("Setter").is_some() { a.node } else { f.decl };
                let params = vec![(f.name.clone(), f.ty())];
                // A chained setter returns its object (a static one stays void).
                let ret = if style.chain && !f.is_static { self_ty() } else { text_ty("void") };
                let g = method(name, params, ret, mods(access, rest), a.name_at(), at);
                out.push(g.for_field(&f.name, Role::Setter));
            }
        }
        if let Some(a) = pick("With", type_with)
            && !f.is_static
            && !f.name.starts_with('$')
            && !(f.is_final && f.initialized)
            && let Some(access) = a.access(src)
        {
            let name = format!("with{base}");
            // A boolean `isFoo`'s is also taken by a written `withIsFoo`.
            let also = (boolean && base != style.cap(&stripped)).then(|| format!("with{}", style.cap(&stripped)));
            if !exists(&name, 1) && !also.is_some_and(|n| exists(&n, 1)) {
                let at = if f.ann("With").is_some() { a.node } else { f.decl };
                let params = vec![(f.name.clone(), f.ty())];
                let g = method(name, params, self_ty(), mods(access, &[]), a.name_at(), at);
                out.push(g.for_field(&f.name, Role::With));
            }
        }
    }
    // Constructors.
    // Constructors and builders leave out the fields named `$x`.
    let instance: Vec<&Field> = fields.iter().filter(|f| !f.is_static && !f.name.starts_with('$')).collect();
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
        let void = || text_ty("void");
        match static_name {
            Some(factory) => {
                let k = Generated::new(GenKind::Ctor, simple.clone(), void(), vec!["private"], by, a.node);
                out.push(k.with_params(params.clone()));
                let factory = method(factory, params, self_ty(), mods(access, &["static"]), by, a.node);
                out.push(Generated { type_params: tparams, ..factory });
            }
            None => {
                let k = Generated::new(GenKind::Ctor, simple.clone(), void(), mods(access, &[]), by, a.node);
                out.push(k.with_params(params));
            }
        }
    };
    let builder = type_ann("Builder");
    let super_builder = type_ann("SuperBuilder");
    for (name, params) in [
        ("NoArgsConstructor", Vec::new()),
        ("RequiredArgsConstructor", required.clone()),
        ("AllArgsConstructor", all.clone()),
    ] {
        if let Some(a) = type_ann(name).filter(|_| !is_record)
            && let Some(access) = a.access(src)
        {
            ctor(a, access, &params, &mut out);
        }
    }
    if !annotated_ctor && ctors == 0 && super_builder.is_none() && !is_record {
        if let Some(a) = builder {
            ctor(a, "", &all, &mut out);
        } else if let Some(a) = value {
            ctor(a, "public", &all, &mut out);
        } else if let Some(a) = data {
            ctor(a, "public", &required, &mut out);
        }
    }
    // `lombok.noArgsConstructor.extraPrivate`: `@Data` and `@Value` add a private no-arguments
    // constructor to a type that extends nothing and has none.
    if let Some(a) = data.or(value)
        && cfg.flag(config::NO_ARGS_EXTRA_PRIVATE) == Some(true)
        && !is_record
        && !is_enum
        && ty.child_by_field_name("superclass").is_none()
        && !no_args_written
        && !out.iter().any(|g| g.kind == GenKind::Ctor && g.params.is_empty())
    {
        out.push(Generated::new(GenKind::Ctor, simple.clone(), text_ty("void"), vec!["private"], a.name_at(), a.node));
    }
    if let Some(a) = builds {
        for f in defaults.iter().filter_map(|i| fields.get(*i)) {
            let style = Style::of(f.ann("Accessors").or(type_accessors.as_ref()), src, cfg);
            let name = format!("$default${}", style.strip(&f.name).unwrap_or_else(|| f.name.clone()));
            let g = method(name, Vec::new(), f.ty(), vec!["private", "static"], a.name_at(), f.decl);
            out.push(Generated { type_params: tparams, ..g });
        }
    }
    // toString, equals, hashCode, canEqual.
    if let Some(a) = type_ann("ToString").or(data).or(value)
        && !is_record
        && !exists("toString", 0)
    {
        out.push(method("toString".into(), Vec::new(), text_ty("String"), mods("public", &[]), a.name_at(), a.node));
    }
    if let Some(a) = type_ann("EqualsAndHashCode").or(data).or(value)
        && !is_record
        && !exists("equals", 1)
        && !exists("hashCode", 0)
    {
        // `cacheStrategy = LAZY` keeps the hash code in a field.
        if a.name == "EqualsAndHashCode" && a.arg("cacheStrategy", src).is_some_and(|v| v.ends_with("LAZY")) {
            let mods = vec!["private", "transient"];
            let cache =
                Generated::new(GenKind::Field, "$hashCodeCache".into(), text_ty("int"), mods, a.name_at(), a.node);
            out.push(cache);
        }
        let object = || vec![("o".to_owned(), text_ty("Object"))];
        out.push(method("equals".into(), object(), text_ty("boolean"), mods("public", &[]), a.name_at(), a.node));
        let extends = ty.child_by_field_name("superclass").is_some();
        if (!is_final_class || extends) && !exists("canEqual", 1) {
            let p = vec![("other".to_owned(), text_ty("Object"))];
            out.push(method("canEqual".into(), p, text_ty("boolean"), mods("protected", &[]), a.name_at(), a.node));
        }
        out.push(method("hashCode".into(), Vec::new(), text_ty("int"), mods("public", &[]), a.name_at(), a.node));
    }
    let field_params = || -> Vec<BuilderParam> {
        all.iter()
            .map(|f| BuilderParam {
                name: Style::of(f.ann("Accessors").or(type_accessors.as_ref()), src, cfg)
                    .strip(&f.name)
                    .unwrap_or_else(|| f.name.clone()),
                field_name: f.name.clone(),
                ty: f.ty(),
                node: Some(f.ty),
                singular: f.ann("Singular").copied(),
                field: true,
                default: defaults.iter().any(|i| fields.get(*i).is_some_and(|d| d.name == f.name)),
                auto: cfg.flag(config::SINGULAR_AUTO) != Some(false),
                guava: cfg.flag(config::SINGULAR_USE_GUAVA) == Some(true),
                beanspec: is_beanspec(cfg),
            })
            .collect()
    };
    // `lombok.builder.className`, a pattern where `*` is the built type's name.
    let builder_pattern =
        cfg.get(config::BUILDER_CLASS_NAME).map(str::trim).filter(|p| !p.is_empty()).unwrap_or("*Builder");
    if let Some(a) = super_builder {
        let sup = Super {
            simple: &simple,
            path: &path,
            names: &names,
            is_abstract,
            superclass: ty.child_by_field_name("superclass"),
            pattern: builder_pattern,
        };
        super_builder_of(a, &sup, field_params(), &classes, &exists, src, &mut out);
        return out;
    }
    // The builders: `builder()` and the nested `XBuilder` with a method per field or parameter
    // and `build()`; of the type (its fields), and of each annotated constructor or method.
    // (annotation, parameters, what build() returns, the builder's base name, type arguments)
    let mut builders: Vec<BuilderSpec> = Vec::new();
    if let Some(a) = builder {
        builders.push((a, field_params(), self_ty(), simple.clone(), generic.clone(), tparams));
    }
    for (a, params, ret, own) in built_by {
        let (built, named) = match ret {
            Some(r) => {
                let name = text(r, src);
                let base = name.split('<').next().unwrap_or(name).rsplit('.').next().unwrap_or(name).to_owned();
                (GenTy::Node { ty: r, dims: None }, base)
            }
            None => (self_ty(), simple.clone()),
        };
        // A static method's builder is generic in the method's own type variables.
        let (generic, tp) = match (ret, own) {
            (None, _) => (generic.clone(), tparams),
            (Some(_), Some(tp)) => (format!("<{}>", type_var_names(tp, src).join(", ")), Some(tp)),
            (Some(_), None) => (String::new(), None),
        };
        builders.push((a, params, built, named, generic, tp));
    }
    for (a, params, built, named, generic, tparams) in builders {
        let unquoted = |k: &str| a.arg(k, src).map(|s| s.trim_matches('"').to_owned()).filter(|s| !s.is_empty());
        // A static method returning a primitive (or `void`) names its builder title-cased (`VoidBuilder`).
        const PRIMITIVES: &[&str] = &["void", "boolean", "byte", "char", "short", "int", "long", "float", "double"];
        let named = if PRIMITIVES.contains(&named.as_str()) { capitalized(&named) } else { named };
        let class = unquoted("builderClassName").unwrap_or_else(|| builder_pattern.replace('*', &named));
        // As Lombok writes it: qualified by the annotated type.
        let class_ref = format!("{path}.{class}{generic}");
        let tparams = if generic.is_empty() { None } else { tparams };
        let by = a.name_at();
        // `builderMethodName = ""`: no `builder()`.
        let bmethod = a.arg("builderMethodName", src).map_or("builder", |v| v.trim().trim_matches('"')).to_owned();
        let made = out.iter().any(|g| g.kind == GenKind::Method && g.name == bmethod && g.params.is_empty());
        if !bmethod.is_empty() && !exists(&bmethod, 0) && !made {
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
        let mut members: Vec<Generated> = builder_fields(&params, by, a.node, src);
        members.push(Generated::new(GenKind::Ctor, class.clone(), text_ty("void"), Vec::new(), by, a.node));
        members.extend(builder_setters(&params, &prefix, &text_ty(&class_ref), by, a.node, src));
        let build = unquoted("buildMethodName").unwrap_or_else(|| "build".to_owned());
        members.push(method(build, Vec::new(), built, mods("public", &[]), by, a.node));
        members.push(method("toString".into(), Vec::new(), text_ty("String"), mods("public", &[]), by, a.node));
        classes.push(class.clone());
        let mut t = Generated::new(GenKind::Type, class, text_ty("void"), vec!["public", "static"], by, a.node);
        t.members = members;
        t.type_params = tparams;
        out.push(t);
    }
    out
}

/// `@Builder` on a constructor or static method: the annotation, its parameters, the method's
/// return type and its own type parameters.
type BuiltBy<'t> = (Ann<'t>, Vec<BuilderParam<'t>>, Option<Node<'t>>, Option<Node<'t>>);

/// One builder to generate: the annotation, its parameters, what `build()` returns, the
/// builder's base name, its type arguments as written (`<T>`) and the type parameters it declares.
type BuilderSpec<'t> = (Ann<'t>, Vec<BuilderParam<'t>>, GenTy<'t>, String, String, Option<Node<'t>>);

/// One parameter of a builder: a field of the type (`@Builder` on the type) or a parameter of
/// the constructor or method it is on.
struct BuilderParam<'t> {
    /// Its name in the builder (a field's without its `@Accessors` prefix).
    name: String,
    /// The field's or parameter's own name.
    field_name: String,
    ty: GenTy<'t>,
    /// Its type as written (None for a type Lombok names).
    node: Option<Node<'t>>,
    /// Its `@Singular`.
    singular: Option<Ann<'t>>,
    /// A field of the annotated type (its builder methods are the field's accessors).
    field: bool,
    /// A `@Builder.Default` field: the builder keeps `x$value` and `x$set`.
    default: bool,
    /// `lombok.singular.auto` (default true): a `@Singular` without a name singularizes its
    /// plural; when false, the plural itself is the singular name.
    auto: bool,
    /// `lombok.singular.useGuava`: a `java.util` collection's builder keeps a Guava builder.
    guava: bool,
    /// `lombok.accessors.capitalization = beanspec`, for a `setterPrefix`'s names.
    beanspec: bool,
}

/// What `@Singular` makes of a collection parameter: the singular name and the element types
/// (one for a collection, key and value for a map), with the builder field's type.
struct Singular {
    one: String,
    /// The element type (a collection) or the key and value types (a map), as written.
    elems: Vec<String>,
    /// `java.util.Collection`, `java.util.Map` or (Guava's collections) `java.lang.Iterable`:
    /// what the all-elements adder takes.
    all: &'static str,
    /// The all-elements adder's type arguments: `? extends E`, or `?` of a raw type or `<?>`.
    bounds: Vec<String>,
    /// The builder field's type, or each of a map's two fields' (key, value).
    store: Vec<String>,
}

/// The collection types `@Singular` knows: simple name, whether a map, and the builder field's
/// type of Guava's (None: java.util's `ArrayList`).
const SINGULAR_TYPES: &[(&str, bool, Option<&str>)] = &[
    ("Iterable", false, None),
    ("Collection", false, None),
    ("List", false, None),
    ("Set", false, None),
    ("SortedSet", false, None),
    ("NavigableSet", false, None),
    ("Map", true, None),
    ("SortedMap", true, None),
    ("NavigableMap", true, None),
    ("ImmutableCollection", false, Some("com.google.common.collect.ImmutableList.Builder")),
    ("ImmutableList", false, Some("com.google.common.collect.ImmutableList.Builder")),
    ("ImmutableSet", false, Some("com.google.common.collect.ImmutableSet.Builder")),
    ("ImmutableSortedSet", false, Some("com.google.common.collect.ImmutableSortedSet.Builder")),
    ("ImmutableMap", true, Some("com.google.common.collect.ImmutableMap.Builder")),
    ("ImmutableBiMap", true, Some("com.google.common.collect.ImmutableBiMap.Builder")),
    ("ImmutableSortedMap", true, Some("com.google.common.collect.ImmutableSortedMap.Builder")),
];

impl<'t> BuilderParam<'t> {
    /// Its `@Singular` shape: None without the annotation, for a type `@Singular` does not know,
    /// or a name Lombok cannot singularize (it then reports an error and generates no adder).
    fn singular(&self, src: &[u8]) -> Option<Singular> {
        let a = self.singular?;
        let node = self.node?;
        let written = text(node, src);
        let base = written.split('<').next().unwrap_or(written).trim();
        let simple = base.rsplit('.').next().unwrap_or(base);
        let (_, map, guava) = SINGULAR_TYPES.iter().find(|(n, _, _)| *n == simple)?;
        // `lombok.singular.useGuava`: `java.util`'s collections are built with Guava's builders.
        let guava = &guava.or_else(|| {
            let to = match simple {
                "Iterable" | "Collection" | "List" => "ImmutableList",
                "Set" => "ImmutableSet",
                "SortedSet" | "NavigableSet" => "ImmutableSortedSet",
                "Map" => "ImmutableMap",
                "SortedMap" | "NavigableMap" => "ImmutableSortedMap",
                _ => return None,
            };
            let found = SINGULAR_TYPES.iter().find(|(n, _, _)| *n == to);
            found.and_then(|(_, _, g)| *g).filter(|_| self.guava)
        });
        let mut elems = type_args(node, src);
        let want = if *map { 2 } else { 1 };
        let raw = elems.len() != want;
        if raw {
            elems = vec!["java.lang.Object".to_owned(); want];
        }
        let open = unbounded_args(node);
        let bounds = (elems.iter().enumerate())
            .map(|(i, e)| if raw || open.get(i) == Some(&true) { "?".to_owned() } else { format!("? extends {e}") })
            .collect();
        let one = match a.arg("value", src).map(|v| v.trim().trim_matches('"').to_owned()).filter(|v| !v.is_empty()) {
            Some(v) => v,
            None if !self.auto => self.name.clone(),
            None => singularize(&self.name)?,
        };
        let store = match (guava, map) {
            (Some(g), _) => vec![format!("{g}<{}>", elems.join(", "))],
            (None, true) => elems.iter().map(|e| format!("java.util.ArrayList<{e}>")).collect(),
            (None, false) => vec![format!("java.util.ArrayList<{}>", elems[0])],
        };
        let all = match (map, guava) {
            (true, _) => "java.util.Map",
            (false, Some(_)) => "java.lang.Iterable",
            (false, None) => "java.util.Collection",
        };
        Some(Singular { one, elems, all, bounds, store })
    }
}

/// The type arguments of a generic type node as written, a wildcard's bound for `? extends X`.
fn type_args(n: Node, src: &[u8]) -> Vec<String> {
    let mut c = n.walk();
    let Some(args) = n.named_children(&mut c).find(|k| k.kind() == kind::TYPE_ARGUMENTS) else { return Vec::new() };
    let mut c2 = args.walk();
    args.named_children(&mut c2)
        .map(|a| {
            if a.kind() == kind::WILDCARD {
                let mut c3 = a.walk();
                let kids: Vec<Node> = a.children(&mut c3).collect();
                let extends = kids.iter().any(|k| k.kind() == "extends");
                match kids.iter().rev().find(|k| k.is_named() && k.kind() != kind::ANNOTATION) {
                    Some(t) if extends => clean_text(*t, src),
                    _ => "java.lang.Object".to_owned(),
                }
            } else {
                clean_text(a, src)
            }
        })
        .collect()
}

/// Which type arguments of a generic type node are the unbounded wildcard `?`.
fn unbounded_args(n: Node) -> Vec<bool> {
    let mut c = n.walk();
    let Some(args) = n.named_children(&mut c).find(|k| k.kind() == kind::TYPE_ARGUMENTS) else { return Vec::new() };
    let mut c2 = args.walk();
    args.named_children(&mut c2)
        .map(|a| {
            let mut c3 = a.walk();
            a.kind() == kind::WILDCARD
                && !a.named_children(&mut c3).any(|k| !matches!(k.kind(), kind::ANNOTATION | kind::MARKER_ANNOTATION))
        })
        .collect()
}

/// A node's text with its whitespace collapsed to single spaces.
fn clean_text(n: Node, src: &[u8]) -> String {
    text(n, src).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Lombok's singular of a plural name (its `singulars.txt`, Rails' inflections): None where
/// Lombok asks for the singular to be written.
pub fn singularize(plural: &str) -> Option<String> {
    /// (ending, singular): `-` an ending of any word, a capital a whole (camel-case) word, else
    /// an ending too; `!` cannot be singularized.
    const RULES: &[(&str, &str)] = &[
        ("quizzes", "quiz"),
        ("matrices", "matrix"),
        ("indices", "index"),
        ("vertices", "vertex"),
        ("statuses", "status"),
        ("aliases", "alias"),
        ("alias", "!"),
        ("species", "!"),
        ("Axes", "!"),
        ("-axes", "axe"),
        ("sexes", "sex"),
        ("Testes", "testis"),
        ("movies", "movie"),
        ("octopodes", "octopus"),
        ("buses", "bus"),
        ("Mice", "mouse"),
        ("Lice", "louse"),
        ("News", "!"),
        ("Men", "man"),
        ("Women", "woman"),
        ("minutiae", "minutia"),
        ("shoes", "shoe"),
        ("synopses", "synopsis"),
        ("prognoses", "prognosis"),
        ("theses", "thesis"),
        ("diagnoses", "diagnosis"),
        ("bases", "base"),
        ("analyses", "analysis"),
        ("Crises", "crisis"),
        ("children", "child"),
        ("moves", "move"),
        ("zombies", "zombie"),
        ("-quies", "quy"),
        ("-us", "!"),
        ("-is", "!"),
        ("series", "!"),
        ("-ies", "y"),
        ("-oes", "o"),
        ("hives", "hive"),
        ("-tives", "tive"),
        ("-sses", "ss"),
        ("-ches", "ch"),
        ("-xes", "x"),
        ("-shes", "sh"),
        ("-lves", "lf"),
        ("-rves", "rf"),
        ("saves", "save"),
        ("Leaves", "leaf"),
        ("-ves", "!"),
        ("-ss", "!"),
        ("-us", "!"),
        ("-s", ""),
    ];
    let input = plural.as_bytes();
    for (last, replacement) in RULES {
        let whole = last.starts_with(|c: char| c.is_ascii_uppercase());
        let ending = usize::from(last.starts_with('-'));
        let len = last.len();
        if input.len() < len {
            continue;
        }
        let at = input.len() - len + ending;
        if !input[at..].eq_ignore_ascii_case(&last.as_bytes()[ending..]) {
            continue;
        }
        if whole && input.len() != len && !input[input.len() - len].is_ascii_uppercase() {
            continue;
        }
        if *replacement == "!" {
            return None;
        }
        let capital = !replacement.is_empty() && input[at].is_ascii_uppercase();
        let post = if capital { capitalized(replacement) } else { (*replacement).to_owned() };
        return Some(format!("{}{post}", &plural[..at]));
    }
    None
}

/// A builder's private fields, one per parameter (a `@Singular` map's two).
fn builder_fields<'t>(params: &[BuilderParam<'t>], by: &'static str, at: Node<'t>, src: &[u8]) -> Vec<Generated<'t>> {
    let mut out = Vec::new();
    for p in params {
        let field = |name: String, ty: GenTy<'t>| Generated::new(GenKind::Field, name, ty, vec!["private"], by, at);
        match p.singular(src) {
            Some(s) if s.store.len() == 2 => {
                out.push(field(format!("{}$key", p.name), text_ty(&s.store[0])));
                out.push(field(format!("{}$value", p.name), text_ty(&s.store[1])));
            }
            Some(s) => out.push(field(p.name.clone(), text_ty(&s.store[0]))),
            None if p.default => {
                out.push(field(format!("{}$set", p.name), text_ty("boolean")));
                out.push(field(format!("{}$value", p.name), p.ty.clone()));
            }
            None => out.push(field(p.name.clone(), p.ty.clone())),
        }
    }
    out
}

/// A builder's methods of its parameters: one each, or a `@Singular` one's three; each returns
/// `ret` (the builder, or its `B` of a `@SuperBuilder`).
fn builder_setters<'t>(
    params: &[BuilderParam<'t>],
    prefix: &str,
    ret: &GenTy<'t>,
    by: &'static str,
    at: Node<'t>,
    src: &[u8],
) -> Vec<Generated<'t>> {
    let mut out = Vec::new();
    for p in params {
        let cap = |name: &str| {
            let mut c = name.chars();
            let keep =
                p.beanspec && c.next().is_some_and(char::is_lowercase) && c.next().is_some_and(char::is_uppercase);
            if keep { name.to_owned() } else { capitalized(name) }
        };
        let named = |name: &str| if prefix.is_empty() { name.to_owned() } else { format!("{prefix}{}", cap(name)) };
        let method = |name: String, params: Params<'t>, role: Role| {
            let g = Generated::new(GenKind::Method, name, ret.clone(), vec!["public"], by, at).with_params(params);
            if p.field { g.for_field(&p.field_name, role) } else { g }
        };
        match p.singular(src) {
            Some(s) => {
                let one: Params = if s.elems.len() == 2 {
                    vec![
                        (format!("{}Key", s.one), text_ty(&unannotated(&s.elems[0]))),
                        (format!("{}Value", s.one), text_ty(&unannotated(&s.elems[1]))),
                    ]
                } else {
                    vec![(s.one.clone(), text_ty(&unannotated(&s.elems[0])))]
                };
                out.push(method(named(&s.one), one, Role::SingularOne));
                let all = vec![(p.name.clone(), text_ty(&format!("{}<{}>", s.all, s.bounds.join(", "))))];
                out.push(method(named(&p.name), all, Role::SingularAll));
                out.push(method(format!("clear{}", cap(&p.name)), Vec::new(), Role::SingularClear));
            }
            None => out.push(method(named(&p.name), vec![(p.name.clone(), p.ty.clone())], Role::BuilderSetter)),
        }
    }
    out
}

/// The annotated type as `@SuperBuilder` reads it.
struct Super<'a, 't> {
    simple: &'a str,
    /// Its name qualified by its enclosing types (`Outer.Nested`).
    path: &'a str,
    /// Its type variables' names.
    names: &'a [&'a str],
    is_abstract: bool,
    /// Its `superclass` node (`extends Sup<T>`).
    superclass: Option<Node<'t>>,
    /// The builder class's name, `*` standing for the type's (`lombok.builder.className`).
    pattern: &'a str,
}

/// `@SuperBuilder`'s members: the protected constructor from a builder, `builder()` and
/// `toBuilder()`, the abstract `XBuilder<C, B>` (extending the superclass's builder) and, for
/// a concrete type, the private `XBuilderImpl`.
fn super_builder_of<'t>(
    a: Ann<'t>,
    sup: &Super<'_, 't>,
    params: Vec<BuilderParam<'t>>,
    classes: &[String],
    exists: &dyn Fn(&str, usize) -> bool,
    src: &[u8],
    out: &mut Vec<Generated<'t>>,
) {
    let by = a.name_at();
    let at = a.node;
    let simple = sup.simple;
    let unquoted = |k: &str| a.arg(k, src).map(|s| s.trim_matches('"').to_owned()).filter(|s| !s.is_empty());
    let class = sup.pattern.replace('*', simple);
    let imp = format!("{class}Impl");
    let vars = sup.names.join(", ");
    let pre = if vars.is_empty() { String::new() } else { format!("{vars}, ") };
    let path = sup.path;
    let me = if vars.is_empty() { path.to_owned() } else { format!("{path}<{vars}>") };
    let wild = format!("{path}.{class}<{pre}?, ?>");
    let method = |name: String, params: Params<'t>, ty: GenTy<'t>, mods: Vec<&'static str>| {
        Generated::new(GenKind::Method, name, ty, mods, by, at).with_params(params)
    };
    let k = Generated::new(GenKind::Ctor, simple.to_owned(), text_ty("void"), vec!["protected"], by, at);
    out.push(k.with_params(vec![("b".to_owned(), text_ty(&wild))]));
    let generic = |g: Generated<'t>| {
        if vars.is_empty() { g } else { Generated { type_params_text: Some(format!("<{vars}>")), ..g } }
    };
    let bmethod = unquoted("builderMethodName").unwrap_or_else(|| "builder".to_owned());
    if !sup.is_abstract && !exists(&bmethod, 0) {
        out.push(generic(method(bmethod, Vec::new(), text_ty(&wild), vec!["public", "static"])));
    }
    let to_builder = a.arg("toBuilder", src).is_some_and(|v| v.trim() == "true");
    if to_builder && !sup.is_abstract && !exists("toBuilder", 0) {
        out.push(method("toBuilder".into(), Vec::new(), text_ty(&wild), vec!["public"]));
    }
    if classes.contains(&class) {
        return;
    }
    // The superclass's builder: `Sup.SupBuilder<T, C, B>` of `extends Sup<T>`.
    let extends = sup.superclass.and_then(|s| {
        let mut c = s.walk();
        let t = s.named_children(&mut c).find(|k| !k.kind().ends_with("comment"))?;
        let written = clean_text(t, src);
        let base = written.split('<').next().unwrap_or(&written).trim().to_owned();
        let last = base.rsplit('.').next().unwrap_or(&base).to_owned();
        let args = type_args(t, src);
        let pre = if args.is_empty() { String::new() } else { format!("{}, ", args.join(", ")) };
        Some(format!("{base}.{}<{pre}C, B>", sup.pattern.replace('*', &last)))
    });
    let b = || text_ty("B");
    let mut members = builder_fields(&params, by, at, src);
    if to_builder {
        members.push(method("$fillValuesFrom".into(), vec![("instance".into(), text_ty("C"))], b(), vec!["protected"]));
        let fill = vec![("instance".to_owned(), text_ty(&me)), ("b".to_owned(), text_ty(&wild))];
        members.push(method(
            "$fillValuesFromInstanceIntoBuilder".into(),
            fill,
            text_ty("void"),
            vec!["private", "static"],
        ));
    }
    members.push(method("self".into(), Vec::new(), b(), vec!["protected", "abstract"]));
    let build = unquoted("buildMethodName").unwrap_or_else(|| "build".to_owned());
    members.push(method(build.clone(), Vec::new(), text_ty("C"), vec!["public", "abstract"]));
    let prefix = unquoted("setterPrefix").unwrap_or_default();
    members.extend(builder_setters(&params, &prefix, &b(), by, at, src));
    members.push(method("toString".into(), Vec::new(), text_ty("String"), vec!["public"]));
    let mut t =
        Generated::new(GenKind::Type, class.clone(), text_ty("void"), vec!["public", "static", "abstract"], by, at);
    t.members = members;
    t.type_params_text = Some(format!("<{pre}C extends {me}, B extends {path}.{class}<{pre}C, B>>"));
    t.extends = extends;
    out.push(t);
    if sup.is_abstract || classes.contains(&imp) {
        return;
    }
    let imp_ref = format!("{path}.{imp}{}", if vars.is_empty() { String::new() } else { format!("<{vars}>") });
    let mut i = Generated::new(GenKind::Type, imp.clone(), text_ty("void"), vec!["private", "static", "final"], by, at);
    i.members = vec![
        Generated::new(GenKind::Ctor, imp.clone(), text_ty("void"), vec!["private"], by, at),
        method("self".into(), Vec::new(), text_ty(&imp_ref), vec!["protected"]),
        method(build, Vec::new(), text_ty(&me), vec!["public"]),
    ];
    if !vars.is_empty() {
        i.type_params_text = Some(format!("<{vars}>"));
    }
    i.extends = Some(format!("{path}.{class}<{pre}{me}, {imp_ref}>"));
    out.push(i);
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
    ("Singular", "@Singular"),
    ("SuperBuilder", "@SuperBuilder"),
    ("Delegate", "@Delegate"),
    ("ExtensionMethod", "@ExtensionMethod"),
    ("CustomLog", "@CustomLog"),
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

    fn configured(conf: &str, src: &str) -> Vec<String> {
        let tree = crate::parse_tree(src).expect("parses");
        let root = tree.root_node();
        let scope = Scope::of(root, src.as_bytes()).with_config(Arc::new(Config::of_texts(&[conf])));
        let mut c = root.walk();
        let ty = root.named_children(&mut c).find(|n| kind::is_type_declaration(n.kind())).expect("a type");
        generate(&scope, ty, src.as_bytes()).into_iter().map(|g| g.name).collect()
    }

    #[test]
    fn lombok_config_keys_rename_and_add_members() {
        let log = "import lombok.extern.slf4j.Slf4j; @Slf4j class A { }";
        assert_eq!(configured("lombok.log.fieldName = LOGGER", log), ["LOGGER"]);
        let custom = "import lombok.CustomLog; @CustomLog class A { }";
        assert!(configured("", custom).is_empty());
        assert_eq!(configured("lombok.log.custom.declaration = my.Log my.Factory.get(TYPE)", custom), ["log"]);
        let acc = "import lombok.*; @Getter @Setter class A { String mName; boolean on; }";
        assert_eq!(configured("lombok.accessors.prefix += m", acc), ["getName", "setName"]);
        assert_eq!(configured("lombok.accessors.fluent = true", acc), ["mName", "mName", "on", "on"]);
        assert_eq!(configured("lombok.getter.noIsPrefix = true", acc), ["getMName", "setMName", "getOn", "setOn"]);
        assert_eq!(configured("lombok.accessors.capitalization = beanspec", acc)[0], "getmName");
        let data = "import lombok.Data; @Data class A { final int x; }";
        assert_eq!(
            configured("lombok.noArgsConstructor.extraPrivate = true", data).iter().filter(|n| *n == "A").count(),
            2
        );
        let fin = "import lombok.RequiredArgsConstructor; @RequiredArgsConstructor class A { int x; }";
        assert_eq!(configured("lombok.fieldDefaults.defaultFinal = true", fin), ["A"]);
        let b = "import lombok.Builder; @Builder class A { int x; }";
        assert!(configured("lombok.builder.className = Make*", b).contains(&"MakeA".to_owned()));
        assert!(configured("dangerousconfig.lombok.disable = true", b).is_empty());
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

    #[test]
    fn singular_names_follow_lombok_s_table() {
        let cases = [
            ("names", Some("name")),
            ("categories", Some("category")),
            ("boxes", Some("box")),
            ("classes", Some("class")),
            ("matrices", Some("matrix")),
            ("userAliases", Some("userAlias")),
            ("children", Some("child")),
            ("bigMen", Some("bigMan")),
            ("series", None),
            ("status", None),
            ("data", None),
            ("leaves", Some("leaf")),
            ("knives", None),
        ];
        for (plural, want) in cases {
            assert_eq!(singularize(plural).as_deref(), want, "{plural}");
        }
    }

    /// What a field's generated members become when it is renamed: every accessor, `withX`
    /// and builder method with its new name; a getter a written method now takes is None.
    #[test]
    fn a_field_rename_renames_its_accessors_and_says_which_would_vanish() {
        let src = "import lombok.*;\n@Data @Builder @With class A { String name; @Singular java.util.List<String> items; int getTitle() { return 0; } }";
        let tree = crate::parse_tree(src).expect("parses");
        let root = tree.root_node();
        let scope = Scope::of(root, src.as_bytes());
        let mut c = root.walk();
        let ty = root.named_children(&mut c).find(|n| kind::is_type_declaration(n.kind())).expect("a type");
        let renamed = |from: &str, to: &str| -> Vec<(String, Option<String>)> {
            renamed_accessors(&scope, ty, src.as_bytes(), from, to).into_iter().map(|r| (r.name, r.new_name)).collect()
        };
        let some = |a: &str, b: &str| (a.to_owned(), Some(b.to_owned()));
        assert_eq!(
            renamed("name", "fullName"),
            [
                some("getName", "getFullName"),
                some("setName", "setFullName"),
                some("withName", "withFullName"),
                some("name", "fullName")
            ]
        );
        // `getTitle()` is written: Lombok generates no getter for a field named `title`.
        assert_eq!(renamed("name", "title")[0], ("getName".to_owned(), None));
        assert_eq!(
            renamed("items", "entries"),
            [
                some("getItems", "getEntries"),
                some("setItems", "setEntries"),
                some("withItems", "withEntries"),
                some("item", "entry"),
                some("items", "entries"),
                some("clearItems", "clearEntries")
            ]
        );
    }

    /// What is not generated is said: `@Delegate`'s methods, `@CustomLog`'s field and
    /// `@ExtensionMethod`'s calls are warnings of the outline at their annotation's line.
    #[test]
    fn what_is_not_generated_is_said_in_the_outline() {
        let src = "import lombok.CustomLog;\nimport lombok.experimental.*;\n\n@CustomLog\nclass A {\n    @Delegate\n    private java.util.List<String> items;\n}\n";
        let o = crate::outline("A.java", src.as_bytes());
        let notes: Vec<(Option<u32>, &str)> = o.errors.iter().map(|d| (d.line, d.message.as_str())).collect();
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes[0].0 == Some(4) && notes[0].1.starts_with("Lombok's @CustomLog"), "{notes:?}");
        assert!(notes[1].0 == Some(6) && notes[1].1.starts_with("Lombok's @Delegate on items"), "{notes:?}");
        assert!(crate::outline("B.java", b"class B { @Delegate java.util.List<String> x; }").errors.is_empty());
    }
}
