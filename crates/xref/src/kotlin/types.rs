//! Kotlin types as written (`Int?`, `List<String>`, `(Int) -> Unit`, `Array<out T>`) mapped to
//! the JVM types javac sees in Kotlin's class files ([`TyText`]): `Int` → `int`, `Int?` and a
//! type argument `Int` → `java.lang.Integer`, `String` → `java.lang.String`, `List<T>` →
//! `java.util.List<T>`, `Unit` → `void` (a return), `Any` → `Object`, `IntArray` → `int[]`,
//! `Array<T>` → `T[]`, function types → `kotlin.jvm.functions.FunctionN`.

use std::collections::HashMap;

use crate::decls::TParam;
use crate::name::Name;
use crate::ty::{TyText, WILDCARD};

/// Where a type is written: a return type maps `Unit` to `void`; a type argument boxes
/// primitives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pos {
    Param,
    Ret,
    Arg,
}

/// How a file's names map: its import aliases (`import a.B as C`) and the simple names it
/// imports explicitly (which a Kotlin type of that name does not shadow: `import java.awt.List`).
#[derive(Debug, Default)]
pub struct Names {
    pub aliases: HashMap<String, String>,
    pub imported: std::collections::HashSet<String>,
}

/// The primitive a Kotlin type names, with its box.
fn primitive(name: &str) -> Option<(&'static str, &'static str)> {
    Some(match name {
        "Int" => ("int", "java.lang.Integer"),
        "Long" => ("long", "java.lang.Long"),
        "Short" => ("short", "java.lang.Short"),
        "Byte" => ("byte", "java.lang.Byte"),
        "Char" => ("char", "java.lang.Character"),
        "Boolean" => ("boolean", "java.lang.Boolean"),
        "Float" => ("float", "java.lang.Float"),
        "Double" => ("double", "java.lang.Double"),
        _ => return None,
    })
}

/// The Java class a Kotlin built-in maps to (kotlin.*, kotlin.collections.*).
fn mapped(name: &str) -> Option<&'static str> {
    Some(match name {
        "Any" => "java.lang.Object",
        "String" => "java.lang.String",
        "CharSequence" => "java.lang.CharSequence",
        "Number" => "java.lang.Number",
        "Comparable" => "java.lang.Comparable",
        "Throwable" => "java.lang.Throwable",
        "Enum" => "java.lang.Enum",
        "Annotation" => "java.lang.annotation.Annotation",
        "Cloneable" => "java.lang.Cloneable",
        "Iterable" | "MutableIterable" => "java.lang.Iterable",
        "Collection" | "MutableCollection" => "java.util.Collection",
        "List" | "MutableList" => "java.util.List",
        "Set" | "MutableSet" => "java.util.Set",
        "Map" | "MutableMap" => "java.util.Map",
        "Map.Entry" | "MutableMap.MutableEntry" => "java.util.Map.Entry",
        "Iterator" | "MutableIterator" => "java.util.Iterator",
        "ListIterator" | "MutableListIterator" => "java.util.ListIterator",
        _ => return None,
    })
}

/// The element of a primitive array type (`IntArray` → `int`).
fn primitive_array(name: &str) -> Option<&'static str> {
    Some(match name {
        "IntArray" => "int",
        "LongArray" => "long",
        "ShortArray" => "short",
        "ByteArray" => "byte",
        "CharArray" => "char",
        "BooleanArray" => "boolean",
        "FloatArray" => "float",
        "DoubleArray" => "double",
        _ => return None,
    })
}

/// Splits `s` at `sep` where no bracket is open.
fn split_top(s: &str, sep: char) -> Vec<&str> {
    let (mut depth, mut start, mut out) = (0i32, 0, Vec::new());
    let mut prev = ' ';
    for (i, c) in s.char_indices() {
        let after_dash = std::mem::replace(&mut prev, c) == '-';
        match c {
            '>' if after_dash => {}
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            _ if c == sep && depth == 0 => {
                out.push(&s[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

/// The index of a top-level `->` in `s`.
fn arrow(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut depth = 0i32;
    for i in 0..b.len() {
        match b[i] {
            b'<' | b'(' | b'[' => depth += 1,
            b'>' if i > 0 && b[i - 1] == b'-' => {}
            b'>' | b')' | b']' => depth -= 1,
            b'-' if depth == 0 && b.get(i + 1) == Some(&b'>') => return Some(i),
            _ => {}
        }
    }
    None
}

/// Whether `s` is one bracket group `(…)` from its first to its last character.
fn one_group(s: &str) -> bool {
    if !s.starts_with('(') || !s.ends_with(')') {
        return false;
    }
    let mut depth = 0i32;
    let mut prev = ' ';
    for (i, c) in s.char_indices() {
        let after_dash = std::mem::replace(&mut prev, c) == '-';
        match c {
            '>' if after_dash => {}
            '(' | '<' | '[' => depth += 1,
            ')' | '>' | ']' => depth -= 1,
            _ => {}
        }
        if depth == 0 && i + 1 < s.len() {
            return false;
        }
    }
    true
}

/// Drops leading annotations (`@A`, `@A(…)`) and modifiers (`suspend`) from a type's text.
fn strip_prefixes(mut s: &str) -> (&str, bool) {
    let mut suspend = false;
    loop {
        s = s.trim();
        if let Some(rest) = s.strip_prefix('@') {
            // The annotation's name, then its arguments if any.
            let end =
                rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == ':')).unwrap_or(rest.len());
            let mut r = &rest[end..];
            if r.starts_with('(') {
                let mut depth = 0i32;
                let mut cut = r.len();
                for (i, c) in r.char_indices() {
                    match c {
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                cut = i + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                r = &r[cut..];
            }
            s = r;
        } else if let Some(rest) = s.strip_prefix("suspend ") {
            suspend = true;
            s = rest;
        } else {
            return (s, suspend);
        }
    }
}

impl Names {
    /// The JVM type of a Kotlin type written `text` at `pos`. An empty text (a type Kotlin
    /// infers) is [`TyText::Unknown`].
    pub fn ty(&self, text: &str, pos: Pos) -> TyText {
        self.read(text, pos, 0)
    }

    fn read(&self, text: &str, pos: Pos, depth: u32) -> TyText {
        if depth > crate::ty::MAX_TYPE_NESTING {
            return TyText::Unknown;
        }
        let (mut s, suspend) = strip_prefixes(text);
        let mut nullable = false;
        while let Some(rest) = s.strip_suffix('?').or_else(|| s.strip_suffix('!')) {
            nullable = true;
            s = rest.trim_end();
        }
        if s.is_empty() {
            return TyText::Unknown;
        }
        if one_group(s) && arrow(s).is_none() {
            let inner = self.read(&s[1..s.len() - 1], if nullable { Pos::Arg } else { pos }, depth + 1);
            return inner;
        }
        if let Some(at) = arrow(s) {
            // `(A, B) -> R`, `R.(A) -> R`: a FunctionN of the parameters (receiver first), the
            // result last; a `suspend` one takes a continuation too.
            let (left, right) = (s[..at].trim(), s[at + 2..].trim());
            let (receiver, list) = match left.rfind(".(") {
                Some(i) if left.ends_with(')') && !one_group(left) => (Some(&left[..i]), &left[i + 1..]),
                _ => (None, left),
            };
            let inner = list.strip_prefix('(').and_then(|l| l.strip_suffix(')')).unwrap_or(list).trim();
            let mut args: Vec<TyText> = receiver.map(|r| self.read(r, Pos::Arg, depth + 1)).into_iter().collect();
            if !inner.is_empty() {
                for p in split_top(inner, ',') {
                    // A parameter may be named: `(name: String) -> Unit`.
                    let p = match split_top(p, ':').as_slice() {
                        [_, t] => *t,
                        _ => p,
                    };
                    args.push(self.read(p, Pos::Arg, depth + 1));
                }
            }
            if suspend {
                args.push(named("kotlin.coroutines.Continuation", Vec::new()));
            }
            args.push(self.read(right, Pos::Arg, depth + 1));
            let n = args.len() - 1;
            return named(&format!("kotlin.jvm.functions.Function{n}"), args);
        }
        // A user type: `a.b.C<X>`, `Outer<T>.Inner<U>` (the last segment's arguments kept).
        let mut name = String::new();
        let mut args_text = None;
        let mut rest = s;
        while !rest.is_empty() {
            let end = rest.find('<').unwrap_or(rest.len());
            name.push_str(&rest[..end]);
            rest = &rest[end..];
            if rest.is_empty() {
                break;
            }
            // The matching `>`.
            let mut d = 0i32;
            let mut close = rest.len();
            let mut prev = ' ';
            for (i, c) in rest.char_indices() {
                let after_dash = std::mem::replace(&mut prev, c) == '-';
                match c {
                    '>' if after_dash => {}
                    '<' => d += 1,
                    '>' => {
                        d -= 1;
                        if d == 0 {
                            close = i;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            args_text = Some(&rest[1..close.max(1)]);
            rest = rest.get(close + 1..).unwrap_or("");
        }
        let name: String = name.split_whitespace().collect();
        let args: Vec<&str> = match args_text {
            Some(a) if !rest.contains('<') => split_top(a, ','),
            _ => Vec::new(),
        };
        let simple = name.strip_prefix("kotlin.collections.").or_else(|| name.strip_prefix("kotlin.")).unwrap_or(&name);
        let own = self.imported.contains(simple.split('.').next().unwrap_or(simple)) && !name.starts_with("kotlin.");
        if !own {
            if let Some((prim, boxed)) = primitive(simple) {
                return match pos != Pos::Arg && !nullable {
                    true => TyText::Prim(prim.into()),
                    false => named(boxed, Vec::new()),
                };
            }
            match simple {
                "Unit" if pos == Pos::Ret => return TyText::Prim("void".into()),
                "Unit" => return named("kotlin.Unit", Vec::new()),
                "Nothing" => return named("java.lang.Void", Vec::new()),
                "Array" => {
                    let elem = args.first().map_or(TyText::Unknown, |a| self.arg(a, depth, true));
                    return elem.with_dims(1);
                }
                _ => {}
            }
            if let Some(p) = primitive_array(simple) {
                return TyText::Array(Box::new(TyText::Prim(p.into())), 1);
            }
            if let Some(j) = mapped(simple) {
                return named(j, args.iter().map(|a| self.arg(a, depth, false)).collect());
            }
        }
        // An alias's first segment stands for what it imports.
        let mut parts = name.splitn(2, '.');
        let first = parts.next().unwrap_or("");
        let name = match (self.aliases.get(first), parts.next()) {
            (Some(full), Some(rest)) => format!("{full}.{rest}"),
            (Some(full), None) => full.clone(),
            _ => name.clone(),
        };
        named(&name, args.iter().map(|a| self.arg(a, depth, false)).collect())
    }

    /// A type argument: `*` is a wildcard, `out X` a wildcard bounded by X, `in X` Object with
    /// X as its argument (as [`TyText`] reads `? super X`). An array's element drops the
    /// variance (`Array<out T>` is `T[]`).
    fn arg(&self, a: &str, depth: u32, array: bool) -> TyText {
        let a = a.trim();
        if a == "*" {
            return named(WILDCARD, Vec::new());
        }
        if let Some(x) = a.strip_prefix("out ") {
            let t = self.read(x, Pos::Arg, depth + 1);
            return if array { t } else { named(WILDCARD, vec![t]) };
        }
        if let Some(x) = a.strip_prefix("in ") {
            let t = self.read(x, Pos::Arg, depth + 1);
            return if array { t } else { named(crate::ty::OBJECT, vec![t]) };
        }
        self.read(a, Pos::Arg, depth + 1)
    }

    /// Type parameters written `<T : Any, reified R, out E : Comparable<E>>`.
    pub fn tparams(&self, text: Option<&str>) -> Vec<TParam> {
        let Some(text) = text else { return Vec::new() };
        let inner = text.trim().strip_prefix('<').and_then(|t| t.strip_suffix('>')).unwrap_or(text);
        split_top(inner, ',')
            .into_iter()
            .filter_map(|p| {
                let (p, _) = strip_prefixes(p);
                let mut words = p.split(':');
                let head = words.next()?.trim();
                let name = head.split_whitespace().last()?;
                let bounds = words.next().map(|b| vec![self.read(b, Pos::Arg, 1)]).unwrap_or_default();
                Some(TParam { name: Name::new(name), bounds })
            })
            .collect()
    }
}

fn named(name: &str, args: Vec<TyText>) -> TyText {
    TyText::Named { name: Name::new(name), args }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(t: &TyText) -> String {
        match t {
            TyText::Prim(p) => p.to_string(),
            TyText::Named { name, args } if args.is_empty() => name.to_string(),
            TyText::Named { name, args } => {
                format!("{name}<{}>", args.iter().map(show).collect::<Vec<_>>().join(","))
            }
            TyText::Array(e, d) => format!("{}{}", show(e), "[]".repeat(*d as usize)),
            TyText::Unknown => "?unknown".to_owned(),
        }
    }

    #[test]
    fn kotlin_types_map_to_what_javac_sees() {
        let mut n = Names::default();
        n.aliases.insert("Fmt".to_owned(), "java.text.Format".to_owned());
        let cases = [
            ("Int", Pos::Param, "int"),
            ("Int?", Pos::Param, "java.lang.Integer"),
            ("kotlin.Int", Pos::Ret, "int"),
            ("String", Pos::Param, "java.lang.String"),
            ("List<Int>", Pos::Param, "java.util.List<java.lang.Integer>"),
            ("MutableMap<String, List<User>>?", Pos::Param, "java.util.Map<java.lang.String,java.util.List<User>>"),
            ("List<out Number>", Pos::Param, "java.util.List<?<java.lang.Number>>"),
            ("Unit", Pos::Ret, "void"),
            ("Unit", Pos::Arg, "kotlin.Unit"),
            ("Any", Pos::Param, "java.lang.Object"),
            ("Array<String>", Pos::Param, "java.lang.String[]"),
            ("Array<Int>", Pos::Param, "java.lang.Integer[]"),
            ("Array<out T>", Pos::Param, "T[]"),
            ("IntArray", Pos::Param, "int[]"),
            ("(Int) -> String", Pos::Param, "kotlin.jvm.functions.Function1<java.lang.Integer,java.lang.String>"),
            ("() -> Unit", Pos::Param, "kotlin.jvm.functions.Function0<kotlin.Unit>"),
            (
                "String.(Int) -> Unit",
                Pos::Param,
                "kotlin.jvm.functions.Function2<java.lang.String,java.lang.Integer,kotlin.Unit>",
            ),
            (
                "((a: Int, b: Int) -> Boolean)?",
                Pos::Param,
                "kotlin.jvm.functions.Function2<java.lang.Integer,java.lang.Integer,java.lang.Boolean>",
            ),
            (
                "suspend () -> Unit",
                Pos::Param,
                "kotlin.jvm.functions.Function1<kotlin.coroutines.Continuation,kotlin.Unit>",
            ),
            ("@Nullable Foo.Bar<T>", Pos::Param, "Foo.Bar<T>"),
            ("Fmt", Pos::Param, "java.text.Format"),
            ("", Pos::Param, "?unknown"),
            (
                "Map<String, (Int) -> Unit>",
                Pos::Param,
                "java.util.Map<java.lang.String,kotlin.jvm.functions.Function1<java.lang.Integer,kotlin.Unit>>",
            ),
            ("Map.Entry<K, V>", Pos::Param, "java.util.Map.Entry<K,V>"),
        ];
        for (text, pos, want) in cases {
            assert_eq!(show(&n.ty(text, pos)), want, "{text}");
        }
        n.imported.insert("List".to_owned());
        assert_eq!(show(&n.ty("List", Pos::Param)), "List", "an explicit import wins");
        let tp = n.tparams(Some("<T : Any, reified R, out E : Comparable<E>>"));
        let names: Vec<String> =
            tp.iter().map(|p| format!("{}:{}", p.name, p.bounds.iter().map(show).collect::<String>())).collect();
        assert_eq!(names, ["T:java.lang.Object", "R:", "E:java.lang.Comparable<E>"]);
    }
}
