//! Types as written in source ([`TyText`]) and as resolved ([`Ty`]).

use mji_parser::kind;
use tree_sitter::Node;

use crate::name::Name;

/// A type as written: names are not yet resolved (that needs the file's imports and scope).
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum TyText {
    /// `int`, `boolean`, `void`…
    Prim(Name),
    /// `Foo`, `a.b.Foo`, `Map.Entry<K, V>`: the dotted name and the last segment's arguments.
    Named { name: Name, args: Vec<TyText> },
    /// An element type with array dimensions.
    Array(Box<TyText>, u8),
    /// `var`, a missing or broken type.
    #[default]
    Unknown,
}

/// How deeply a type read from source may nest (`List<List<…>>`, wildcards, arrays): deeper
/// parts read as [`TyText::Unknown`], so every walk over a type (resolution, substitution,
/// drop) stays shallow whatever the source holds.
pub const MAX_TYPE_NESTING: u32 = 32;

impl TyText {
    /// Reads a type node (`type_identifier`, `generic_type`, `array_type`…).
    pub(crate) fn from_node(n: Node, src: &[u8]) -> TyText {
        TyText::read(n, src, 0)
    }

    fn read(n: Node, src: &[u8], depth: u32) -> TyText {
        if depth >= MAX_TYPE_NESTING {
            return TyText::Unknown;
        }
        let next = depth + 1;
        let text = |n: Node| n.utf8_text(src).unwrap_or("");
        match n.kind() {
            kind::INTEGRAL_TYPE | kind::FLOATING_POINT_TYPE | kind::BOOLEAN_TYPE | kind::VOID_TYPE => {
                TyText::Prim(text(n).trim().into())
            }
            kind::TYPE_IDENTIFIER => {
                let t = text(n);
                if t == "var" { TyText::Unknown } else { TyText::Named { name: t.into(), args: Vec::new() } }
            }
            kind::SCOPED_TYPE_IDENTIFIER => TyText::Named { name: dotted(n, src).into(), args: Vec::new() },
            kind::GENERIC_TYPE => {
                let mut name = String::new();
                let mut args = Vec::new();
                let mut c = n.walk();
                for ch in n.named_children(&mut c) {
                    match ch.kind() {
                        kind::TYPE_IDENTIFIER => name = text(ch).to_string(),
                        kind::SCOPED_TYPE_IDENTIFIER => name = dotted(ch, src),
                        kind::TYPE_ARGUMENTS => {
                            let mut c2 = ch.walk();
                            args = ch.named_children(&mut c2).map(|a| TyText::read(a, src, next)).collect();
                        }
                        _ => {}
                    }
                }
                TyText::Named { name: name.into(), args }
            }
            kind::ARRAY_TYPE => {
                let elem = n.child_by_field_name("element").map(|e| TyText::read(e, src, next)).unwrap_or_default();
                let dims = n.child_by_field_name("dimensions").map(|d| count_dims(d, src)).unwrap_or(1);
                elem.with_dims(dims)
            }
            kind::WILDCARD => {
                // `? extends X` is X for lookups; `?` is `? extends Object`, and `? super X` is
                // Object, with X as its one argument (`Object<X>`, which no source can write):
                // lookups see Object, and a method reference's target reads X from it (JLS 9.9).
                let mut c = n.walk();
                let kids: Vec<Node> = n.children(&mut c).collect();
                let extends = kids.iter().any(|k| k.kind() == "extends");
                let sup = kids.iter().any(|k| k.kind() == kind::SUPER);
                match kids.iter().rev().find(|k| k.is_named() && k.kind() != kind::ANNOTATION) {
                    // `? extends X` is a variable `?` bounded by X: lookups see X, and it is
                    // never spelled as X (`List<? extends Number>` is no `List<Number>`).
                    Some(t) if extends => {
                        TyText::Named { name: WILDCARD.into(), args: vec![TyText::read(*t, src, next)] }
                    }
                    Some(t) if sup => {
                        TyText::Named { name: "java.lang.Object".into(), args: vec![TyText::read(*t, src, next)] }
                    }
                    // `?`: a variable `?` bounded by Object, spelled `?` (`Token<?>` is no
                    // `Token<Object>`).
                    _ => TyText::Named { name: WILDCARD.into(), args: Vec::new() },
                }
            }
            kind::ANNOTATED_TYPE => {
                let mut c = n.walk();
                let last = n.named_children(&mut c).filter(|k| !k.kind().ends_with(kind::ANNOTATION)).last();
                last.map(|t| TyText::read(t, src, next)).unwrap_or_default()
            }
            _ => TyText::Unknown,
        }
    }

    /// This type with `dims` more array dimensions.
    pub(crate) fn with_dims(self, dims: u8) -> TyText {
        if dims == 0 {
            return self;
        }
        match self {
            TyText::Array(e, d) => TyText::Array(e, d.saturating_add(dims)),
            TyText::Unknown => TyText::Unknown,
            other => TyText::Array(Box::new(other), dims),
        }
    }
}

/// `a.b.C` of a `scoped_type_identifier` / `scoped_identifier`, whitespace and annotations dropped.
pub(crate) fn dotted(n: Node, src: &[u8]) -> String {
    let mut parts = Vec::new();
    collect_dotted(n, src, &mut parts);
    parts.join(".")
}

fn collect_dotted<'a>(n: Node, src: &'a [u8], out: &mut Vec<&'a str>) {
    match n.kind() {
        kind::IDENTIFIER | kind::TYPE_IDENTIFIER => out.push(n.utf8_text(src).unwrap_or("")),
        _ => {
            let mut c = n.walk();
            // An outer type's arguments are no part of the name (`Outer<A, B>.Inner` is
            // `Outer.Inner`; their names were read as segments of it).
            for ch in n.named_children(&mut c) {
                if !ch.kind().ends_with(kind::ANNOTATION) && ch.kind() != kind::TYPE_ARGUMENTS {
                    collect_dotted(ch, src, out);
                }
            }
        }
    }
}

/// The number of `[]` pairs in a `dimensions` node.
pub(crate) fn count_dims(d: Node, src: &[u8]) -> u8 {
    let t = d.utf8_text(src).unwrap_or("");
    t.bytes().filter(|&b| b == b'[').count().min(255) as u8
}

/// A resolved type.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Ty {
    Prim(Box<str>),
    /// A class or interface by qualified name (nested types with dots), with type arguments.
    Class(Box<str>, Vec<Ty>),
    Array(Box<Ty>),
    /// A type variable and its erasure's bound.
    Var(Box<str>, Box<Ty>),
    Null,
}

pub(crate) const OBJECT: &str = "java.lang.Object";
/// The name of a `? extends X` wildcard, read as a type variable bounded by X.
pub const WILDCARD: &str = "?";
pub(crate) const STRING: &str = "java.lang.String";

impl Ty {
    pub fn class(fqn: &str) -> Ty {
        Ty::Class(fqn.into(), Vec::new())
    }

    pub fn object() -> Ty {
        Ty::class(OBJECT)
    }

    /// The erasure as javac prints it in signatures: `java.util.List`, `int[]`, `java.lang.Object`.
    pub fn erasure(&self) -> String {
        match self {
            Ty::Prim(p) => p.to_string(),
            Ty::Class(f, _) => f.to_string(),
            Ty::Array(e) => format!("{}[]", e.erasure()),
            Ty::Var(_, b) => b.erasure(),
            Ty::Null => OBJECT.to_string(),
        }
    }

    /// The class a member lookup on a value of this type searches (type variables by bound).
    pub(crate) fn lookup_class(&self) -> Option<(&str, &[Ty])> {
        match self {
            Ty::Class(f, a) => Some((f, a)),
            Ty::Var(_, b) => b.lookup_class(),
            _ => None,
        }
    }

    pub(crate) fn is_prim(&self) -> bool {
        matches!(self, Ty::Prim(_))
    }
}

/// The wrapper class of a primitive, for boxing.
pub(crate) fn boxed(prim: &str) -> Option<&'static str> {
    Some(match prim {
        "int" => "java.lang.Integer",
        "long" => "java.lang.Long",
        "short" => "java.lang.Short",
        "byte" => "java.lang.Byte",
        "char" => "java.lang.Character",
        "boolean" => "java.lang.Boolean",
        "float" => "java.lang.Float",
        "double" => "java.lang.Double",
        _ => return None,
    })
}

/// The primitive of a wrapper class, for unboxing.
pub(crate) fn unboxed(fqn: &str) -> Option<&'static str> {
    ["int", "long", "short", "byte", "char", "boolean", "float", "double"].into_iter().find(|p| boxed(p) == Some(fqn))
}

/// Primitive widening (JLS 5.1.2), identity included.
pub(crate) fn prim_widens(from: &str, to: &str) -> bool {
    if from == to {
        return true;
    }
    let targets: &[&str] = match from {
        "byte" => &["short", "int", "long", "float", "double"],
        "short" | "char" => &["int", "long", "float", "double"],
        "int" => &["long", "float", "double"],
        "long" => &["float", "double"],
        "float" => &["double"],
        _ => &[],
    };
    targets.contains(&to)
}

/// Binary numeric promotion of two primitive operand types.
pub(crate) fn promote(a: &str, b: &str) -> &'static str {
    for t in ["double", "float", "long"] {
        if a == t || b == t {
            return t;
        }
    }
    "int"
}
