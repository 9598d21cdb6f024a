//! What one file declares, as far as name resolution needs it: package, imports, types with
//! their type parameters, supertypes and members, types as written. Read from the file's
//! skeleton (member bodies blanked), like the workspace index.

use mji_parser::kind;
use tree_sitter::Node;

use crate::name::Name;
use crate::ty::{TyText, count_dims, dotted};
use mji_model::TypeKind;
use mji_parser::{Prepared, SourceText, lombok, parse_tree, skeleton};

/// One import declaration.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Import {
    /// `a.b.C` of `import a.b.C;`, `a.b` of `import a.b.*;`, `a.b.C.m` of a static import.
    pub path: Name,
    pub is_static: bool,
    pub on_demand: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TParam {
    pub name: Name,
    pub bounds: Vec<TyText>,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FieldSym {
    pub name: Name,
    pub ty: TyText,
    pub is_static: bool,
    pub line: u32,
    /// Visible outside its package: `public`, `protected`, or implicitly public.
    pub is_public_api: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MethodSym {
    pub name: Name,
    pub tparams: Vec<TParam>,
    pub params: Vec<TyText>,
    pub varargs: bool,
    /// `Unknown` for constructors.
    pub ret: TyText,
    pub is_static: bool,
    pub line: u32,
    /// Not written in the source (default constructor, enum `values`, record accessors).
    pub implicit: bool,
    /// Visible outside its package: `public`, `protected`, or implicitly public.
    pub is_public_api: bool,
    /// Annotated `@Override`: it overrides a method of a supertype, which may be one the world
    /// cannot see (a library's), so that supertype declares methods of this name.
    pub marked_override: bool,
    /// Declared without a body and not `native`: abstract (false for the JDK API table's).
    #[serde(default)]
    pub is_abstract: bool,
    /// `private`: a member of its own class only, not inherited (JLS 8.2).
    #[serde(default)]
    pub is_private: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TypeSym {
    pub fqn: Box<str>,
    pub simple: Box<str>,
    pub kind: TypeKind,
    /// Index of the enclosing type in the file's `types`.
    pub outer: Option<u32>,
    pub is_static: bool,
    pub tparams: Vec<TParam>,
    pub superclass: Option<TyText>,
    pub interfaces: Vec<TyText>,
    pub fields: Vec<FieldSym>,
    pub methods: Vec<MethodSym>,
    pub ctors: Vec<MethodSym>,
    /// Indexes of member types in the file's `types`.
    pub members: Vec<u32>,
    pub start_line: u32,
    pub end_line: u32,
    /// Visible outside its package (`public`/`protected`, or a member of an interface).
    pub is_public_api: bool,
    pub is_final: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FileDecls {
    pub package: Name,
    pub imports: Vec<Import>,
    /// Every type of the file (members too, after their outer type); local and anonymous
    /// classes are not here.
    pub types: Vec<TypeSym>,
}

/// Reads the declarations of a file from its raw bytes. Never fails.
pub fn file_decls(bytes: &[u8]) -> FileDecls {
    let src = SourceText::decode(bytes);
    let prep = Prepared::new(&src.text);
    let terminators = |t: &str| t.bytes().filter(|&b| b == b'\n' || b == b'\r').count();
    let same_lines =
        matches!(prep.text, std::borrow::Cow::Borrowed(_)) || terminators(&prep.text) == terminators(&src.text);
    let text: std::borrow::Cow<str> = match skeleton::skeleton(&prep.text).filter(|_| same_lines) {
        Some(t) => t.into(),
        None => prep.text.clone(),
    };
    let Some(tree) = parse_tree(&text) else { return FileDecls::default() };
    let mut out = FileDecls::default();
    let b = text.as_bytes();
    let root = tree.root_node();
    let lombok = lombok::Scope::of(root, b);
    let mut c = root.walk();
    for n in root.named_children(&mut c) {
        match n.kind() {
            kind::PACKAGE_DECLARATION => {
                if let Some(p) = package_name(n, b) {
                    out.package = p.into();
                }
            }
            kind::IMPORT_DECLARATION => out.imports.push(import_of(n, b)),
            k if is_type_decl(k) => declare_type(n, b, &lombok, None, &mut out),
            _ => {}
        }
    }
    out
}

pub(crate) use mji_parser::kind::is_type_declaration as is_type_decl;

pub(crate) fn import_of(n: Node, b: &[u8]) -> Import {
    let mut c = n.walk();
    let mut imp = Import { path: "".into(), is_static: false, on_demand: false };
    for k in n.children(&mut c) {
        match k.kind() {
            "static" => imp.is_static = true,
            kind::ASTERISK => imp.on_demand = true,
            kind::IDENTIFIER | kind::SCOPED_IDENTIFIER => imp.path = dotted(k, b).into(),
            _ => {}
        }
    }
    imp
}

#[derive(Debug, Clone, Copy, Default)]
struct Mods {
    is_static: bool,
    is_final: bool,
    is_public: bool,
    is_protected: bool,
    is_private: bool,
    /// `@Override` or `@java.lang.Override`.
    is_override: bool,
    is_native: bool,
}

fn modifiers_of(n: Node, b: &[u8]) -> Mods {
    let mut c = n.walk();
    let mut m = Mods::default();
    let Some(mods) = n.children(&mut c).find(|k| k.kind() == kind::MODIFIERS) else { return m };
    let mut c2 = mods.walk();
    for k in mods.children(&mut c2) {
        match k.kind() {
            "static" => m.is_static = true,
            "final" => m.is_final = true,
            "public" => m.is_public = true,
            "protected" => m.is_protected = true,
            "private" => m.is_private = true,
            "native" => m.is_native = true,
            kind::MARKER_ANNOTATION => {
                let name = k.child_by_field_name("name").and_then(|x| x.utf8_text(b).ok()).unwrap_or("");
                m.is_override |= matches!(name, "Override" | "java.lang.Override");
            }
            _ => {}
        }
    }
    m
}

impl Mods {
    /// Visible outside the package; members of interfaces are implicitly public.
    fn api(&self, in_interface: bool) -> bool {
        self.is_public || self.is_protected || (in_interface && !self.is_private)
    }
}

pub(crate) fn tparams_of(n: Option<Node>, b: &[u8]) -> Vec<TParam> {
    let Some(n) = n else { return Vec::new() };
    let mut c = n.walk();
    n.named_children(&mut c)
        .filter(|p| p.kind() == kind::TYPE_PARAMETER)
        .map(|p| {
            let mut c2 = p.walk();
            let mut name: Box<str> = "".into();
            let mut bounds = Vec::new();
            for k in p.named_children(&mut c2) {
                match k.kind() {
                    kind::TYPE_IDENTIFIER | kind::IDENTIFIER => name = k.utf8_text(b).unwrap_or("").into(),
                    kind::TYPE_BOUND => {
                        let mut c3 = k.walk();
                        bounds = k.named_children(&mut c3).map(|t| TyText::from_node(t, b)).collect();
                    }
                    _ => {}
                }
            }
            TParam { name: Name::new(&name), bounds }
        })
        .collect()
}

fn type_list(n: Option<Node>, b: &[u8]) -> Vec<TyText> {
    let Some(n) = n else { return Vec::new() };
    let mut out = Vec::new();
    let mut c = n.walk();
    for k in n.named_children(&mut c) {
        if k.kind() == kind::TYPE_LIST {
            let mut c2 = k.walk();
            out.extend(k.named_children(&mut c2).map(|t| TyText::from_node(t, b)));
        } else {
            out.push(TyText::from_node(k, b));
        }
    }
    out
}

/// Parameter types of a `formal_parameters` node and whether the last is varargs.
pub(crate) fn params_of(n: Option<Node>, b: &[u8]) -> (Vec<TyText>, bool) {
    let Some(n) = n else { return (Vec::new(), false) };
    let mut out = Vec::new();
    let mut varargs = false;
    let mut c = n.walk();
    for p in n.named_children(&mut c) {
        match p.kind() {
            kind::FORMAL_PARAMETER if mji_parser::is_receiver(p, b) => {}
            kind::FORMAL_PARAMETER => {
                let t = p.child_by_field_name("type").map(|t| TyText::from_node(t, b)).unwrap_or_default();
                let dims = p.child_by_field_name("dimensions").map(|d| count_dims(d, b)).unwrap_or(0);
                out.push(t.with_dims(dims));
            }
            kind::SPREAD_PARAMETER => {
                let mut c2 = p.walk();
                let t = p
                    .named_children(&mut c2)
                    .find(|k| k.kind() != kind::MODIFIERS && k.kind() != kind::VARIABLE_DECLARATOR)
                    .map(|t| TyText::from_node(t, b))
                    .unwrap_or_default();
                out.push(t.with_dims(1));
                varargs = true;
            }
            _ => {}
        }
    }
    (out, varargs)
}

fn line_of(n: Node) -> u32 {
    n.start_position().row as u32 + 1
}

fn declare_type(n: Node, b: &[u8], scope: &lombok::Scope, outer: Option<u32>, out: &mut FileDecls) {
    let kind = match n.kind() {
        kind::CLASS_DECLARATION => TypeKind::Class,
        kind::INTERFACE_DECLARATION => TypeKind::Interface,
        kind::ENUM_DECLARATION => TypeKind::Enum,
        kind::RECORD_DECLARATION => TypeKind::Record,
        _ => TypeKind::Annotation,
    };
    let simple: Box<str> = n.child_by_field_name("name").and_then(|x| x.utf8_text(b).ok()).unwrap_or("").into();
    if simple.is_empty() {
        return;
    }
    let fqn: Box<str> = match outer {
        Some(o) => format!("{}.{}", out.types[o as usize].fqn, simple).into(),
        None if out.package.is_empty() => simple.clone(),
        None => format!("{}.{}", out.package, simple).into(),
    };
    let mods = modifiers_of(n, b);
    let is_static = mods.is_static;
    let outer_is_interface =
        outer.is_some_and(|o| matches!(out.types[o as usize].kind, TypeKind::Interface | TypeKind::Annotation));
    let outer_api = outer.is_none_or(|o| out.types[o as usize].is_public_api);
    let type_api = outer_api && mods.api(outer_is_interface);
    let mut c = n.walk();
    let super_interfaces =
        n.children(&mut c).find(|k| matches!(k.kind(), kind::SUPER_INTERFACES | kind::EXTENDS_INTERFACES));
    let superclass = n.child_by_field_name("superclass").and_then(|s| {
        let mut c2 = s.walk();
        s.named_children(&mut c2).next().map(|t| TyText::from_node(t, b))
    });
    let mut t = TypeSym {
        fqn,
        simple: simple.clone(),
        kind,
        outer,
        is_static: is_static || kind != TypeKind::Class || outer_is_interface || outer.is_none(),
        tparams: tparams_of(n.child_by_field_name("type_parameters"), b),
        superclass,
        interfaces: type_list(super_interfaces, b),
        fields: Vec::new(),
        methods: Vec::new(),
        ctors: Vec::new(),
        members: Vec::new(),
        start_line: line_of(n),
        end_line: n.end_position().row as u32 + 1,
        is_public_api: type_api,
        is_final: mods.is_final || matches!(kind, TypeKind::Record | TypeKind::Enum),
    };
    let is_interface = matches!(kind, TypeKind::Interface | TypeKind::Annotation);
    if kind == TypeKind::Record
        && let Some(ps) = n.child_by_field_name("parameters")
    {
        let mut c2 = ps.walk();
        for p in ps.named_children(&mut c2) {
            if p.kind() != kind::FORMAL_PARAMETER {
                continue;
            }
            let ty = p.child_by_field_name("type").map(|x| TyText::from_node(x, b)).unwrap_or_default();
            let name = Name::new(p.child_by_field_name("name").and_then(|x| x.utf8_text(b).ok()).unwrap_or(""));
            t.fields.push(FieldSym {
                name: name.clone(),
                ty: ty.clone(),
                is_static: false,
                line: line_of(p),
                is_public_api: false,
            });
            t.methods.push(MethodSym {
                name,
                tparams: Vec::new(),
                params: Vec::new(),
                varargs: false,
                ret: ty,
                is_static: false,
                line: line_of(p),
                implicit: true,
                is_public_api: true,
                marked_override: false,
                is_abstract: false,
                is_private: false,
            });
        }
    }
    let me = out.types.len() as u32;
    out.types.push(t);
    let Some(body) = n.child_by_field_name("body") else { return };
    let mut members = Vec::new();
    let mut fields = Vec::new();
    let mut methods = Vec::new();
    let mut ctors = Vec::new();
    let self_ty = TyText::Named { name: Name::new(&simple), args: Vec::new() };
    let mut visit = |m: Node| match m.kind() {
        kind::ENUM_CONSTANT => {
            let name = m.child_by_field_name("name").and_then(|x| x.utf8_text(b).ok()).unwrap_or("");
            fields.push(FieldSym {
                name: name.into(),
                ty: self_ty.clone(),
                is_static: true,
                line: line_of(m),
                is_public_api: true,
            });
        }
        kind::FIELD_DECLARATION | kind::CONSTANT_DECLARATION => {
            let md = modifiers_of(m, b);
            let st = md.is_static;
            let ty = m.child_by_field_name("type").map(|x| TyText::from_node(x, b)).unwrap_or_default();
            let mut c3 = m.walk();
            for d in m.children_by_field_name("declarator", &mut c3) {
                let name = d.child_by_field_name("name").and_then(|x| x.utf8_text(b).ok()).unwrap_or("");
                let dims = d.child_by_field_name("dimensions").map(|x| count_dims(x, b)).unwrap_or(0);
                fields.push(FieldSym {
                    name: name.into(),
                    ty: ty.clone().with_dims(dims),
                    is_static: st || is_interface,
                    line: line_of(d),
                    is_public_api: md.api(is_interface),
                });
            }
        }
        kind::METHOD_DECLARATION | kind::ANNOTATION_TYPE_ELEMENT_DECLARATION => {
            let md = modifiers_of(m, b);
            let st = md.is_static;
            let name = m.child_by_field_name("name").and_then(|x| x.utf8_text(b).ok()).unwrap_or("");
            let (params, varargs) = params_of(m.child_by_field_name("parameters"), b);
            let dims = m.child_by_field_name("dimensions").map(|x| count_dims(x, b)).unwrap_or(0);
            let ret =
                m.child_by_field_name("type").map(|x| TyText::from_node(x, b)).unwrap_or_default().with_dims(dims);
            methods.push(MethodSym {
                name: name.into(),
                tparams: tparams_of(m.child_by_field_name("type_parameters"), b),
                params,
                varargs,
                ret,
                is_static: st,
                line: line_of(m),
                implicit: false,
                is_public_api: md.api(is_interface),
                marked_override: md.is_override,
                is_abstract: m.child_by_field_name("body").is_none() && !md.is_native,
                is_private: md.is_private,
            });
        }
        kind::CONSTRUCTOR_DECLARATION | kind::COMPACT_CONSTRUCTOR_DECLARATION => {
            let (params, varargs) = params_of(m.child_by_field_name("parameters"), b);
            let compact = m.kind() == kind::COMPACT_CONSTRUCTOR_DECLARATION;
            let md = modifiers_of(m, b);
            ctors.push(MethodSym {
                name: Name::new(&simple),
                tparams: tparams_of(m.child_by_field_name("type_parameters"), b),
                params,
                varargs,
                ret: TyText::Unknown,
                is_static: false,
                line: line_of(m),
                // A compact constructor's parameters are the record's components (filled below).
                implicit: compact,
                is_public_api: md.api(false),
                marked_override: false,
                is_abstract: false,
                is_private: md.is_private,
            });
        }
        k if is_type_decl(k) => {}
        _ => {}
    };
    let mut c2 = body.walk();
    for m in body.named_children(&mut c2) {
        if m.kind() == kind::ENUM_BODY_DECLARATIONS {
            let mut c3 = m.walk();
            for mm in m.named_children(&mut c3) {
                visit(mm);
                if is_type_decl(mm.kind()) {
                    members.push(mm);
                }
            }
        } else {
            visit(m);
            if is_type_decl(m.kind()) {
                members.push(m);
            }
        }
    }
    // What Lombok generates, beside what is written (its constructors before the default one).
    let mut builders = Vec::new();
    for g in lombok::generate(scope, n, b) {
        match g.kind {
            lombok::GenKind::Field => fields.push(generated_field(&g, b)),
            lombok::GenKind::Method => methods.push(generated_method(&g, b)),
            lombok::GenKind::Ctor => ctors.push(MethodSym { name: Name::new(&simple), ..generated_method(&g, b) }),
            lombok::GenKind::Type => builders.push(g),
        }
    }
    let t = &mut out.types[me as usize];
    t.fields = std::mem::take(&mut t.fields).into_iter().chain(fields).collect();
    // Record accessors written by hand replace the implicit ones.
    t.methods.retain(|im| !methods.iter().any(|m| m.name == im.name && m.params.is_empty()));
    t.methods.extend(methods);
    let components: Vec<TyText> = if kind == TypeKind::Record {
        t.fields.iter().filter(|f| !f.is_static).map(|f| f.ty.clone()).collect()
    } else {
        Vec::new()
    };
    for c in &mut ctors {
        if c.implicit {
            c.params = components.clone();
            c.implicit = false;
        }
    }
    if kind == TypeKind::Record && !ctors.iter().any(|c| c.params == components) {
        ctors.push(implicit_ctor(&simple, components, t.start_line, t.is_public_api));
    } else if ctors.is_empty() && matches!(kind, TypeKind::Class | TypeKind::Enum) {
        // A default constructor has its class's access; an enum's is private.
        ctors.push(implicit_ctor(&simple, Vec::new(), t.start_line, t.is_public_api && kind == TypeKind::Class));
    }
    t.ctors = ctors;
    if kind == TypeKind::Record {
        // A record's `equals`, `hashCode` and `toString` are its own unless written (JLS 8.10.3).
        let named = |n: &str| TyText::Named { name: n.into(), args: Vec::new() };
        for (name, params, ret) in [
            ("equals", vec![named("java.lang.Object")], TyText::Prim("boolean".into())),
            ("hashCode", vec![], TyText::Prim("int".into())),
            ("toString", vec![], named("java.lang.String")),
        ] {
            if t.methods.iter().any(|m| &*m.name == name && m.params.len() == params.len()) {
                continue;
            }
            t.methods.push(MethodSym {
                name: name.into(),
                tparams: Vec::new(),
                params,
                varargs: false,
                ret,
                is_static: false,
                line: t.start_line,
                implicit: true,
                is_public_api: true,
                marked_override: true,
                is_abstract: false,
                is_private: false,
            });
        }
    }
    if kind == TypeKind::Enum {
        let arr = TyText::Array(Box::new(self_ty.clone()), 1);
        let string = TyText::Named { name: "String".into(), args: Vec::new() };
        for (name, params, ret) in [("values", vec![], arr), ("valueOf", vec![string], self_ty.clone())] {
            t.methods.push(MethodSym {
                name: name.into(),
                tparams: Vec::new(),
                params,
                varargs: false,
                ret,
                is_static: true,
                line: t.start_line,
                implicit: true,
                is_public_api: true,
                marked_override: false,
                is_abstract: false,
                is_private: false,
            });
        }
    }
    // As in the outline, types nested deeper than the parser's limit are left out, which
    // also bounds this recursion.
    let mut level = 1;
    let mut o = outer;
    while let Some(i) = o {
        level += 1;
        o = out.types[i as usize].outer;
    }
    if level >= mji_parser::MAX_TYPE_NESTING {
        return;
    }
    for m in members {
        let idx = out.types.len() as u32;
        declare_type(m, b, scope, Some(me), out);
        if out.types.len() as u32 > idx {
            out.types[me as usize].members.push(idx);
        }
    }
    for g in builders {
        let idx = out.types.len() as u32;
        let owner = &out.types[me as usize];
        let mut t = TypeSym {
            fqn: format!("{}.{}", owner.fqn, g.name).into(),
            simple: g.name.as_str().into(),
            kind: TypeKind::Class,
            outer: Some(me),
            is_static: true,
            tparams: Vec::new(),
            superclass: None,
            interfaces: Vec::new(),
            fields: Vec::new(),
            methods: Vec::new(),
            ctors: Vec::new(),
            members: Vec::new(),
            start_line: line_of(g.at),
            end_line: g.at.end_position().row as u32 + 1,
            is_public_api: owner.is_public_api,
            is_final: false,
        };
        for m in &g.members {
            match m.kind {
                lombok::GenKind::Field => t.fields.push(generated_field(m, b)),
                lombok::GenKind::Method => t.methods.push(generated_method(m, b)),
                lombok::GenKind::Ctor => t.ctors.push(MethodSym { name: Name::new(&g.name), ..generated_method(m, b) }),
                lombok::GenKind::Type => {}
            }
        }
        out.types.push(t);
        out.types[me as usize].members.push(idx);
    }
}

/// A type Lombok names or copies from a field, as written.
fn generated_ty(g: &lombok::GenTy, b: &[u8]) -> TyText {
    match g {
        lombok::GenTy::Node { ty, dims } => {
            TyText::from_node(*ty, b).with_dims(dims.map(|d| count_dims(d, b)).unwrap_or(0))
        }
        lombok::GenTy::Text(t) => match t.as_str() {
            "void" | "boolean" | "byte" | "short" | "char" | "int" | "long" | "float" | "double" => {
                TyText::Prim(t.as_str().into())
            }
            _ => TyText::Named { name: t.as_str().into(), args: Vec::new() },
        },
    }
}

/// A field Lombok generates (a logger, a builder's field).
fn generated_field(g: &lombok::Generated, b: &[u8]) -> FieldSym {
    FieldSym {
        name: g.name.as_str().into(),
        ty: generated_ty(&g.ty, b),
        is_static: g.modifiers.contains(&"static"),
        line: line_of(g.at),
        is_public_api: g.modifiers.iter().any(|m| matches!(*m, "public" | "protected")),
    }
}

/// A method or constructor Lombok generates: not implicit, since its uses and its name are as
/// any written member's.
fn generated_method(g: &lombok::Generated, b: &[u8]) -> MethodSym {
    MethodSym {
        name: g.name.as_str().into(),
        tparams: Vec::new(),
        params: g.params.iter().map(|(_, t)| generated_ty(t, b)).collect(),
        varargs: false,
        ret: if g.kind == lombok::GenKind::Ctor { TyText::Unknown } else { generated_ty(&g.ty, b) },
        is_static: g.modifiers.contains(&"static"),
        line: line_of(g.at),
        implicit: false,
        is_public_api: g.modifiers.iter().any(|m| matches!(*m, "public" | "protected")),
        marked_override: matches!(g.name.as_str(), "toString" | "equals" | "hashCode"),
        is_abstract: false,
        is_private: g.modifiers.contains(&"private"),
    }
}

fn implicit_ctor(simple: &str, params: Vec<TyText>, line: u32, is_public_api: bool) -> MethodSym {
    MethodSym {
        name: simple.into(),
        tparams: Vec::new(),
        params,
        varargs: false,
        ret: TyText::Unknown,
        is_static: false,
        line,
        implicit: true,
        is_public_api,
        marked_override: false,
        is_abstract: false,
        is_private: false,
    }
}

/// The dotted name a `package_declaration` node declares.
pub(crate) fn package_name(n: Node, b: &[u8]) -> Option<String> {
    let mut c = n.walk();
    let id = n.named_children(&mut c).find(|k| matches!(k.kind(), kind::IDENTIFIER | kind::SCOPED_IDENTIFIER))?;
    Some(dotted(id, b))
}
