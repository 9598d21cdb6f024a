//! Plain data of the outline: what a Java file declares, with 1-based line spans (0 when
//! unknown: an outline read from a class file, which has no lines; written `null`).
//!
//! These types are the `java_index` output contract of the spec (§5.1) plus the fields the
//! product adds (`annotations`, `enumConstants`, `recordComponents`, `typeParamsText` on
//! types). Field names are the wire names; nothing here does I/O.

use serde::{Deserialize, Serialize};

pub mod cancel;
pub mod foreground;
pub mod progress;
pub mod symbol_id;

pub use symbol_id::{SymbolId, SymbolKind};

/// A declaration's line on the wire: 1-based, and 0 — which only an outline read from a class
/// file has (no source lines, issue 20: "null and said so") — written `null` (read back as 0).
mod line {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(line: &u32, s: S) -> Result<S::Ok, S::Error> {
        if *line == 0 { s.serialize_none() } else { s.serialize_u32(*line) }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        Option::<u32>::deserialize(d).map(Option::unwrap_or_default)
    }
}

/// The outline of one Java file: every top-level type with its members, and the parse errors.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FileOutline {
    pub file_path: String,
    pub language: String,
    /// SHA-1 of the file's bytes, lowercase hex.
    pub hash: String,
    pub line_count: u32,
    /// The package declared by the file, `null` for the default package.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package: Option<String>,
    pub classes: Vec<TypeDecl>,
    pub errors: Vec<Diagnostic>,
}

/// The kind of a type declaration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum TypeKind {
    Class,
    Interface,
    Enum,
    Record,
    Annotation,
}

impl TypeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            TypeKind::Class => "class",
            TypeKind::Interface => "interface",
            TypeKind::Enum => "enum",
            TypeKind::Record => "record",
            TypeKind::Annotation => "annotation",
        }
    }
}

/// A class, interface, enum, record or annotation type, with its members.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TypeDecl {
    pub symbol_id: String,
    pub kind: TypeKind,
    pub name: String,
    pub qualified_name: String,
    pub modifiers: Vec<String>,
    pub annotations: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub type_params_text: Option<String>,
    /// The superclass of a class; `null` for every other kind (javac's model: an interface's
    /// super-interfaces are in `implements`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extends: Option<String>,
    pub implements: Vec<String>,
    pub permits: Vec<String>,
    #[serde(with = "line")]
    #[schemars(with = "Option<u32>")]
    pub start_line: u32,
    #[serde(with = "line")]
    #[schemars(with = "Option<u32>")]
    pub end_line: u32,
    pub javadoc: Javadoc,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record_components: Option<Vec<RecordComponent>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enum_constants: Option<Vec<EnumConstant>>,
    pub fields: Vec<FieldDecl>,
    pub constructors: Vec<CtorDecl>,
    pub methods: Vec<MethodDecl>,
    pub inner_classes: Vec<TypeDecl>,
    /// `"lombok"` for a member an annotation processor generates (not written in the source; its
    /// lines are those of the annotation or field that makes it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generated: Option<String>,
    /// What generates it, as `@Getter`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generated_by: Option<String>,
}

impl TypeDecl {
    /// A type with its header read and no supertypes, type parameters or members yet.
    pub fn header(
        kind: TypeKind,
        name: String,
        qualified_name: String,
        (modifiers, annotations): (Vec<String>, Vec<String>),
        (start_line, end_line): (u32, u32),
        javadoc: Javadoc,
    ) -> TypeDecl {
        TypeDecl {
            symbol_id: SymbolId::class(&qualified_name, start_line, end_line).to_string(),
            kind,
            name,
            qualified_name,
            modifiers,
            annotations,
            type_params_text: None,
            extends: None,
            implements: Vec::new(),
            permits: Vec::new(),
            start_line,
            end_line,
            javadoc,
            record_components: None,
            enum_constants: None,
            fields: Vec::new(),
            constructors: Vec::new(),
            methods: Vec::new(),
            inner_classes: Vec::new(),
            generated: None,
            generated_by: None,
        }
    }
}

/// Where a declaration's javadoc is, and optionally a preview of its text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Javadoc {
    pub present: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_line: Option<u32>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub line_count: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preview: Option<String>,
    /// Byte span of the comment in the file; internal, used to cut previews and reads.
    #[serde(skip)]
    pub span: Option<(usize, usize)>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Javadoc {
    pub fn absent() -> Self {
        Javadoc { present: false, start_line: None, end_line: None, line_count: 0, preview: None, span: None }
    }
}

/// A field (one per declarator: `int a, b;` gives two, each spanning the whole declaration).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FieldDecl {
    pub symbol_id: String,
    pub kind: String,
    pub name: String,
    pub type_text: String,
    pub modifiers: Vec<String>,
    pub annotations: Vec<String>,
    #[serde(with = "line")]
    #[schemars(with = "Option<u32>")]
    pub start_line: u32,
    #[serde(with = "line")]
    #[schemars(with = "Option<u32>")]
    pub end_line: u32,
    pub javadoc: Javadoc,
    /// `"lombok"` for a member an annotation processor generates (not written in the source; its
    /// lines are those of the annotation or field that makes it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generated: Option<String>,
    /// What generates it, as `@Getter`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generated_by: Option<String>,
}

/// A formal parameter: its name and its type as written (`String...` for varargs).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Param {
    pub name: String,
    pub type_text: String,
}

/// What a method and a constructor both declare, read before their symbolId and signature
/// (which depend on it) are made; [`MethodDecl::new`] and [`CtorDecl::new`] complete it.
#[derive(Debug, Clone)]
pub struct Callable {
    pub name: String,
    pub modifiers: Vec<String>,
    pub annotations: Vec<String>,
    pub type_params_text: Option<String>,
    pub params: Vec<Param>,
    pub throws: Vec<String>,
    pub start_line: u32,
    pub end_line: u32,
    pub javadoc: Javadoc,
}

impl Callable {
    /// Its signature as written: `public static <T> T max(Collection<? extends T> coll) throws
    /// X`; `ret` is a method's return type (none for a constructor).
    pub fn signature(&self, ret: Option<&str>) -> String {
        signature_text(&self.modifiers, self.type_params_text.as_deref(), ret, &self.name, &self.params, &self.throws)
    }
}

/// A method's or constructor's signature as written, from its parts (see [`Callable::signature`]).
pub fn signature_text(
    modifiers: &[String],
    type_params: Option<&str>,
    ret: Option<&str>,
    name: &str,
    params: &[Param],
    throws: &[String],
) -> String {
    let mut s = String::new();
    for m in modifiers.iter().map(String::as_str).chain(type_params).chain(ret) {
        s.push_str(m);
        s.push(' ');
    }
    s.push_str(name);
    s.push('(');
    for (i, p) in params.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        s.push_str(&p.type_text);
        s.push(' ');
        s.push_str(&p.name);
    }
    s.push(')');
    if !throws.is_empty() {
        s.push_str(" throws ");
        s.push_str(&throws.join(", "));
    }
    s
}

/// Declares a method-like wire type with the fields of [`Callable`], in wire order: `symbolId`,
/// `kind`, `name`, the type's `head` fields, the rest of `Callable`, `signatureText`, then its
/// `tail` fields; and `new`, which completes a `Callable`.
macro_rules! callable_decl {
    (
        $(#[$meta:meta])*
        pub struct $name:ident (kind $kind:literal) {
            head { $($(#[$hm:meta])* $hf:ident: $ht:ty,)* }
            tail { $($(#[$tm:meta])* $tf:ident: $tt:ty,)* }
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
        #[serde(rename_all = "camelCase")]
        pub struct $name {
            pub symbol_id: String,
            pub kind: String,
            pub name: String,
            $($(#[$hm])* pub $hf: $ht,)*
            pub modifiers: Vec<String>,
            pub annotations: Vec<String>,
            #[serde(skip_serializing_if = "Option::is_none")]
            pub type_params_text: Option<String>,
            pub params: Vec<Param>,
            pub throws: Vec<String>,
            #[serde(with = "line")]
            #[schemars(with = "Option<u32>")]
            pub start_line: u32,
            #[serde(with = "line")]
            #[schemars(with = "Option<u32>")]
            pub end_line: u32,
            pub javadoc: Javadoc,
            pub signature_text: String,
            $($(#[$tm])* pub $tf: $tt,)*
            /// `"lombok"` for a member an annotation processor generates (not written in the source; its
            /// lines are those of the annotation or field that makes it).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub generated: Option<String>,
            /// What generates it, as `@Getter`.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub generated_by: Option<String>,
}

        impl $name {
            /// The declaration of `c`, with its symbolId, signature and own fields.
            pub fn new(c: Callable, symbol_id: String, signature_text: String, $($hf: $ht,)* $($tf: $tt,)*) -> Self {
                $name {
                    symbol_id,
                    kind: $kind.to_owned(),
                    name: c.name,
                    $($hf,)*
                    modifiers: c.modifiers,
                    annotations: c.annotations,
                    type_params_text: c.type_params_text,
                    params: c.params,
                    throws: c.throws,
                    start_line: c.start_line,
                    end_line: c.end_line,
                    javadoc: c.javadoc,
                    signature_text,
                    $($tf,)*
                    generated: None,
                    generated_by: None,
                }
            }
        }
    };
}

callable_decl! {
    /// A constructor, including the compact constructor of a record.
    pub struct CtorDecl (kind "constructor") {
        head {}
        tail {
            /// True for a record's compact constructor (`Point { ... }`).
            #[serde(default, skip_serializing_if = "std::ops::Not::not")]
            compact: bool,
        }
    }
}

callable_decl! {
    /// A method, including an annotation type's elements.
    pub struct MethodDecl (kind "method") {
        head {
            return_type_text: String,
        }
        tail {}
    }
}

/// A record component (`record Point(int x, int y)`); not a field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecordComponent {
    pub name: String,
    pub type_text: String,
}

/// An enum constant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EnumConstant {
    pub symbol_id: String,
    pub name: String,
    #[serde(with = "line")]
    #[schemars(with = "Option<u32>")]
    pub start_line: u32,
    #[serde(with = "line")]
    #[schemars(with = "Option<u32>")]
    pub end_line: u32,
    pub javadoc: Javadoc,
}

/// Severity of a parse diagnostic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Warning,
    Error,
}

/// A problem found while reading or parsing a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Diagnostic {
    pub level: Level,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
}

/// What `java_index` includes (spec §5.1 options).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutlineOptions {
    pub include_private: bool,
    pub include_fields: bool,
    pub include_inner_classes: bool,
    pub include_constructors: bool,
    pub max_javadoc_preview_chars: usize,
    pub stable_ids: bool,
}

impl Default for OutlineOptions {
    fn default() -> Self {
        OutlineOptions {
            include_private: true,
            include_fields: true,
            include_inner_classes: true,
            include_constructors: true,
            max_javadoc_preview_chars: 0,
            stable_ids: true,
        }
    }
}

impl FileOutline {
    /// Visits every type declaration, depth first, in source order.
    pub fn for_each_type<'a>(&'a self, f: &mut impl FnMut(&'a TypeDecl)) {
        fn walk<'a>(t: &'a TypeDecl, f: &mut impl FnMut(&'a TypeDecl)) {
            f(t);
            for inner in &t.inner_classes {
                walk(inner, f);
            }
        }
        for t in &self.classes {
            walk(t, f);
        }
    }
}

/// One declaration of an outline, borrowed: what an outline walk visits.
#[derive(Debug, Clone, Copy)]
pub enum DeclRef<'a> {
    Type(&'a TypeDecl),
    EnumConstant(&'a EnumConstant),
    Field(&'a FieldDecl),
    Ctor(&'a CtorDecl),
    Method(&'a MethodDecl),
}

impl<'a> DeclRef<'a> {
    pub fn symbol_id(self) -> &'a str {
        match self {
            DeclRef::Type(x) => &x.symbol_id,
            DeclRef::EnumConstant(x) => &x.symbol_id,
            DeclRef::Field(x) => &x.symbol_id,
            DeclRef::Ctor(x) => &x.symbol_id,
            DeclRef::Method(x) => &x.symbol_id,
        }
    }

    pub fn javadoc(self) -> &'a Javadoc {
        match self {
            DeclRef::Type(x) => &x.javadoc,
            DeclRef::EnumConstant(x) => &x.javadoc,
            DeclRef::Field(x) => &x.javadoc,
            DeclRef::Ctor(x) => &x.javadoc,
            DeclRef::Method(x) => &x.javadoc,
        }
    }
}

impl FileOutline {
    /// Every declaration in the one order all walks share (short `@N` ids count in it, the
    /// cache stores javadoc spans in it): each type, then its enum constants, fields,
    /// constructors and methods, then its nested types, depth first. Iterative, so no nesting
    /// depth can overflow the stack.
    pub fn decls(&self) -> Vec<DeclRef<'_>> {
        let mut out = Vec::new();
        let mut stack: Vec<&TypeDecl> = self.classes.iter().rev().collect();
        while let Some(t) = stack.pop() {
            out.push(DeclRef::Type(t));
            if let Some(cs) = &t.enum_constants {
                out.extend(cs.iter().map(DeclRef::EnumConstant));
            }
            out.extend(t.fields.iter().map(DeclRef::Field));
            out.extend(t.constructors.iter().map(DeclRef::Ctor));
            out.extend(t.methods.iter().map(DeclRef::Method));
            stack.extend(t.inner_classes.iter().rev());
        }
        out
    }

    /// Visits every declaration's symbolId and javadoc, mutably, in [`FileOutline::decls`]
    /// order.
    pub fn for_each_decl_mut(&mut self, mut f: impl FnMut(&mut String, &mut Javadoc)) {
        let mut stack: Vec<&mut TypeDecl> = self.classes.iter_mut().rev().collect();
        while let Some(t) = stack.pop() {
            f(&mut t.symbol_id, &mut t.javadoc);
            if let Some(cs) = &mut t.enum_constants {
                cs.iter_mut().for_each(|x| f(&mut x.symbol_id, &mut x.javadoc));
            }
            t.fields.iter_mut().for_each(|x| f(&mut x.symbol_id, &mut x.javadoc));
            t.constructors.iter_mut().for_each(|x| f(&mut x.symbol_id, &mut x.javadoc));
            t.methods.iter_mut().for_each(|x| f(&mut x.symbol_id, &mut x.javadoc));
            stack.extend(t.inner_classes.iter_mut().rev());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(line: u32) -> FieldDecl {
        FieldDecl {
            symbol_id: "Field#a.B#c".to_owned(),
            kind: "field".to_owned(),
            name: "c".to_owned(),
            type_text: "int".to_owned(),
            modifiers: Vec::new(),
            annotations: Vec::new(),
            start_line: line,
            end_line: line,
            javadoc: Javadoc::absent(),
            generated: None,
            generated_by: None,
        }
    }

    #[test]
    fn unknown_lines_are_null_on_the_wire_and_source_lines_numbers() {
        let unknown = serde_json::to_value(field(0)).expect("serializes");
        assert_eq!((&unknown["startLine"], &unknown["endLine"]), (&serde_json::Value::Null, &serde_json::Value::Null));
        let known = serde_json::to_value(field(7)).expect("serializes");
        assert_eq!((&known["startLine"], &known["endLine"]), (&7.into(), &7.into()));
        for f in [field(0), field(7)] {
            let back: FieldDecl = serde_json::from_str(&serde_json::to_string(&f).expect("serializes")).expect("reads");
            assert_eq!(back, f);
        }
    }
}
