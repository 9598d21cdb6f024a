//! Descriptors and generic signatures (JVMS §4.3, §4.7.9.1) rendered as Java source text:
//! `Ljava/util/Map<TK;TV;>;` is `java.util.Map<K, V>`, `<T::Ljava/lang/Comparable<-TT;>;>`
//! is `<T extends java.lang.Comparable<? super T>>`, as `javap` prints them (with `.` for a
//! nested class's `$`). Malformed input gives `None`; nesting is bounded.

/// Type arguments nested deeper than this are refused.
const MAX_DEPTH: usize = 64;

/// A method's generic signature, rendered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MethodSig {
    pub type_params: Option<String>,
    pub params: Vec<String>,
    pub ret: String,
    pub throws: Vec<String>,
}

/// A class's generic signature, rendered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassSig {
    pub type_params: Option<String>,
    pub superclass: String,
    pub interfaces: Vec<String>,
}

/// An internal name (`java/util/Map$Entry`) as source text (`java.util.Map.Entry`).
pub fn internal_to_source(name: &str) -> String {
    name.replace(['/', '$'], ".")
}

struct P<'a> {
    s: &'a [u8],
    pos: usize,
    depth: usize,
    /// The resolution engine's table form instead of javap's (see [`table_field_type`]).
    table: bool,
}

impl P<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn done(&self) -> bool {
        self.pos == self.s.len()
    }
    /// An identifier up to one of `stops`.
    fn ident(&mut self, stops: &[u8]) -> Option<String> {
        let start = self.pos;
        while let Some(c) = self.peek() {
            if stops.contains(&c) {
                break;
            }
            self.pos += 1;
        }
        if self.pos == start {
            return None;
        }
        std::str::from_utf8(&self.s[start..self.pos]).ok().map(str::to_owned)
    }

    /// JavaTypeSignature: a base type or a reference type.
    fn java_type(&mut self) -> Option<String> {
        let base = match self.peek()? {
            b'B' => "byte",
            b'C' => "char",
            b'D' => "double",
            b'F' => "float",
            b'I' => "int",
            b'J' => "long",
            b'S' => "short",
            b'Z' => "boolean",
            b'V' => "void",
            _ => return self.reference(),
        };
        self.pos += 1;
        Some(base.to_owned())
    }

    /// ReferenceTypeSignature: class, type variable or array.
    fn reference(&mut self) -> Option<String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        let r = match self.peek()? {
            b'L' => {
                self.pos += 1;
                self.class_type()
            }
            b'T' => {
                self.pos += 1;
                let n = self.ident(b";")?;
                self.eat(b';').then_some(n)
            }
            b'[' => {
                self.pos += 1;
                self.java_type().map(|t| t + "[]")
            }
            _ => None,
        };
        self.depth -= 1;
        r
    }

    /// The rest of a ClassTypeSignature after its `L`.
    fn class_type(&mut self) -> Option<String> {
        let mut out = internal_to_source(&self.ident(b"<;.")?);
        loop {
            let args_at = out.len();
            if self.eat(b'<') {
                out.push('<');
                let mut first = true;
                while !self.eat(b'>') {
                    if !first {
                        out.push_str(if self.table { "," } else { ", " });
                    }
                    first = false;
                    match self.peek()? {
                        b'*' => {
                            self.pos += 1;
                            out.push_str(if self.table { OBJECT } else { "?" });
                        }
                        b'+' => {
                            self.pos += 1;
                            if !self.table {
                                out.push_str("? extends ");
                            }
                            out.push_str(&self.reference()?);
                        }
                        b'-' => {
                            self.pos += 1;
                            let bound = self.reference()?;
                            if self.table {
                                // `java.lang.Object<X>`: the resolution engine's `? super X`.
                                out.push_str(OBJECT);
                                out.push('<');
                                out.push_str(&bound);
                                out.push('>');
                            } else {
                                out.push_str("? super ");
                                out.push_str(&bound);
                            }
                        }
                        _ => out.push_str(&self.reference()?),
                    }
                }
                out.push('>');
            }
            if self.eat(b'.') {
                if self.table {
                    // The table names only the innermost class's arguments.
                    out.truncate(args_at);
                }
                out.push('.');
                out.push_str(&self.ident(b"<;.")?);
                continue;
            }
            return self.eat(b';').then_some(out);
        }
    }

    /// TypeParameters, if present: `<T:Ljava/lang/Object;U::Ljava/lang/Comparable<TU;>;>`.
    fn type_params(&mut self) -> Option<Option<String>> {
        if !self.eat(b'<') {
            return Some(None);
        }
        let mut out = String::from(if self.table { "" } else { "<" });
        let mut first = true;
        while !self.eat(b'>') {
            if !first {
                out.push_str(if self.table { "," } else { ", " });
            }
            first = false;
            out.push_str(&self.ident(b":")?);
            let mut bounds = Vec::new();
            while self.eat(b':') {
                if matches!(self.peek(), Some(b':')) {
                    continue; // an empty class bound: only interface bounds follow
                }
                bounds.push(self.reference()?);
            }
            if !(bounds.is_empty() || bounds.len() == 1 && bounds[0] == OBJECT) {
                out.push_str(if self.table { ":" } else { " extends " });
                out.push_str(&bounds.join(if self.table { "&" } else { " & " }));
            }
        }
        if !self.table {
            out.push('>');
        }
        Some(Some(out))
    }
}

const OBJECT: &str = "java.lang.Object";

fn parser(s: &str) -> P<'_> {
    P { s: s.as_bytes(), pos: 0, depth: 0, table: false }
}

fn table_parser(s: &str) -> P<'_> {
    P { table: true, ..parser(s) }
}

/// A field descriptor or field signature as a type.
pub fn field_type(sig: &str) -> Option<String> {
    let mut p = parser(sig);
    let t = p.java_type()?;
    p.done().then_some(t)
}

/// A field descriptor or signature in the form of the resolution engine's API table
/// (`mji_xref`'s `jdk_api.txt`): no spaces, `? extends X` as `X`, `?` as `java.lang.Object`,
/// `? super X` as `java.lang.Object<X>` (the resolution engine's lower bound), only the innermost class's type arguments (`p.Outer.Inner<T>`).
pub fn table_field_type(sig: &str) -> Option<String> {
    let mut p = table_parser(sig);
    let t = p.java_type()?;
    p.done().then_some(t)
}

/// A method descriptor or signature in the table form ([`table_field_type`]); type
/// parameters as `T:B1&B2,U` without angle brackets.
pub fn table_method(sig: &str) -> Option<MethodSig> {
    method_with(table_parser(sig))
}

/// A class signature in the table form ([`table_method`]).
pub fn table_class(sig: &str) -> Option<ClassSig> {
    class_with(table_parser(sig))
}

/// A field descriptor (`Ljava/lang/Deprecated;`) as a type (`java.lang.Deprecated`).
pub fn descriptor_type(desc: &str) -> Option<String> {
    field_type(desc)
}

/// A method descriptor or signature.
pub fn method(sig: &str) -> Option<MethodSig> {
    method_with(parser(sig))
}

fn method_with(mut p: P<'_>) -> Option<MethodSig> {
    let type_params = p.type_params()?;
    if !p.eat(b'(') {
        return None;
    }
    let mut params = Vec::new();
    while !p.eat(b')') {
        params.push(p.java_type()?);
    }
    let ret = p.java_type()?;
    let mut throws = Vec::new();
    while p.eat(b'^') {
        throws.push(p.reference()?);
    }
    p.done().then_some(MethodSig { type_params, params, ret, throws })
}

/// A class signature.
pub fn class(sig: &str) -> Option<ClassSig> {
    class_with(parser(sig))
}

fn class_with(mut p: P<'_>) -> Option<ClassSig> {
    let type_params = p.type_params()?;
    let superclass = p.reference()?;
    let mut interfaces = Vec::new();
    while !p.done() {
        interfaces.push(p.reference()?);
    }
    Some(ClassSig { type_params, superclass, interfaces })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_like_javap() {
        let m = method("<T::Ljava/lang/Comparable<-TT;>;>(Ljava/util/List<TT;>;)V").expect("parses");
        assert_eq!(m.type_params.as_deref(), Some("<T extends java.lang.Comparable<? super T>>"));
        assert_eq!(m.params, ["java.util.List<T>"]);
        let m = method("<T:Ljava/lang/Object;:Ljava/lang/Comparable<-TT;>;>(Ljava/util/Collection<+TT;>;)TT;")
            .expect("parses");
        assert_eq!(m.type_params.as_deref(), Some("<T extends java.lang.Object & java.lang.Comparable<? super T>>"));
        assert_eq!(m.params, ["java.util.Collection<? extends T>"]);
        assert_eq!(m.ret, "T");
        assert_eq!(
            field_type("Ljava/util/Set<Ljava/util/Map$Entry<TK;TV;>;>;").as_deref(),
            Some("java.util.Set<java.util.Map.Entry<K, V>>")
        );
        assert_eq!(field_type("Lp/Outer<TT;>.Inner<*>;").as_deref(), Some("p.Outer<T>.Inner<?>"));
        assert_eq!(field_type("[[I").as_deref(), Some("int[][]"));
        let m = method("<X:Ljava/lang/Throwable;>(I)V^TX;^Ljava/io/IOException;").expect("parses");
        assert_eq!(m.throws, ["X", "java.io.IOException"]);
        let c =
            class("<K:Ljava/lang/Object;V:Ljava/lang/Object;>Ljava/util/AbstractMap<TK;TV;>;Ljava/util/Map<TK;TV;>;")
                .expect("parses");
        assert_eq!(c.type_params.as_deref(), Some("<K, V>"));
        assert_eq!(c.superclass, "java.util.AbstractMap<K, V>");
        assert_eq!(c.interfaces, ["java.util.Map<K, V>"]);
    }

    #[test]
    fn table_form_has_no_spaces_and_no_wildcards() {
        let m = table_method(
            "<T:Ljava/lang/Object;:Ljava/lang/Comparable<-TT;>;>(Ljava/util/Collection<+TT;>;Ljava/util/Map<*TT;>;)TT;",
        )
        .expect("parses");
        assert_eq!(m.type_params.as_deref(), Some("T:java.lang.Object&java.lang.Comparable<java.lang.Object<T>>"));
        assert_eq!(m.params, ["java.util.Collection<T>", "java.util.Map<java.lang.Object,T>"]);
        assert_eq!(table_field_type("Lp/Outer<TT;>.Inner<*>;").as_deref(), Some("p.Outer.Inner<java.lang.Object>"));
        // `? super E` keeps its bound: a lambda given to `removeIf` takes E as its parameter's type.
        assert_eq!(
            table_method("(Ljava/util/function/Predicate<-TE;>;)Z").map(|m| m.params),
            Some(vec!["java.util.function.Predicate<java.lang.Object<E>>".to_owned()])
        );
        let c = table_class("<K:Ljava/lang/Object;V::Ljava/lang/Runnable;>Ljava/util/AbstractMap<TK;TV;>;")
            .expect("parses");
        assert_eq!(c.type_params.as_deref(), Some("K,V:java.lang.Runnable"));
        assert_eq!(c.superclass, "java.util.AbstractMap<K,V>");
    }

    #[test]
    fn malformed_is_none_not_a_panic() {
        for bad in ["", "L", "Ljava/util/List<", "(", "()", "<T>()V", "[", "TT", "Lx<+>;", "(I)VV"] {
            assert!(method(bad).is_none() || field_type(bad).is_none(), "{bad}");
        }
        let deep = "[".repeat(10_000) + "I";
        assert!(field_type(&deep).is_none());
        let nested = "Ljava/util/List<".repeat(5_000);
        assert!(field_type(&nested).is_none());
    }
}
