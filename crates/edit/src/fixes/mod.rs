//! Quick fixes for javac's diagnostics (an IDE's light bulb): what a diagnostic offers, read
//! from javac's key and message ([`offer`]), the fix ids `get_problems` lists and
//! `refactor_actions` takes back, and one file per fix with its before/after cases:
//!
//! | diagnostic | [`Offer`] | fix id kinds: files |
//! |---|---|---|
//! | `compiler.err.cant.resolve[.location]`, a type's name | `Import` | `import` ([`crate::imports`]), `class`: `create_class.rs` |
//! | `compiler.err.cant.resolve[.location]`, a variable | `CreateVariable` | `field`: `create_field.rs`, `local`: `create_local.rs` |
//! | `compiler.err.cant.resolve.location.args` | `CreateMethod` | `method`: `create_method.rs` |
//! | `compiler.err.prob.found.req` (lossy, or from `Object`) | `Cast` | `cast`: `add_cast.rs` |
//! | `compiler.err.unreported.exception.*` | `Exception` | `throws`: `add_throws.rs`, `try`: `surround_with_try.rs` |
//! | `compiler.err.does.not.override.abstract` | `Implement` | `implement` ([`crate::inherit`]) |
//! | `hint.unused.import` | `RemoveImport` | `unimport`: `remove_import.rs` |
//! | `hint.unused.local` | `RemoveLocal` | `unlocal`: `remove_local.rs` |
//! | `hint.missing.override` | `AddOverride` | `override`: `add_override.rs` |
//!
//! `site.rs` holds what the fixes share: the code around a diagnostic's position.
//!
//! A fix id names the file, the diagnostic's position, the fix and a stamp of the file's
//! content: the same diagnostic of the same text always gets the same id, and an id whose file
//! has changed since is refused as stale rather than applied to other code.

mod add_cast;
mod add_override;
mod add_throws;
pub mod create_class;
mod create_field;
mod create_local;
mod create_method;
mod remove_import;
mod remove_local;
mod site;
mod surround_with_try;

pub use add_cast::{add_cast, expression_at};
pub use add_override::add_override;
pub use add_throws::add_throws;
pub use create_field::create_field;
pub use create_local::create_local;
pub use create_method::create_method;
pub use remove_import::remove_import;
pub use remove_local::remove_local;
pub use surround_with_try::surround_with_try;

use crate::{Doc, TextEdit};

/// One fix of one diagnostic, as a fix id spells it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixId {
    /// The file as answers show it.
    pub file: String,
    pub line: u32,
    pub column: u32,
    /// One of [`KINDS`].
    pub kind: String,
    /// The import's qualified name, the exception's, the class's simple name.
    pub arg: String,
    /// The first 8 hex digits of the file's content hash when the id was made.
    pub stamp: String,
}

impl FixId {
    pub fn new(file: &str, line: u32, column: u32, kind: &str, arg: &str, content: &[u8]) -> FixId {
        FixId { file: file.to_owned(), line, column, kind: kind.to_owned(), arg: arg.to_owned(), stamp: stamp(content) }
    }

    /// `file:line:column:kind=arg@stamp`.
    pub fn encode(&self) -> String {
        format!("{}:{}:{}:{}={}@{}", self.file, self.line, self.column, self.kind, self.arg, self.stamp)
    }

    /// Reads an id [`FixId::encode`] wrote.
    pub fn parse(s: &str) -> Result<FixId, String> {
        let bad = || format!("`{s}` is not a fixId (get_problems lists each diagnostic's fixes with their fixId)");
        let (rest, stamp) = s.trim().rsplit_once('@').ok_or_else(bad)?;
        let (rest, fix) = rest.rsplit_once(':').ok_or_else(bad)?;
        let (kind, arg) = fix.split_once('=').ok_or_else(bad)?;
        let (rest, column) = rest.rsplit_once(':').ok_or_else(bad)?;
        let (file, line) = rest.rsplit_once(':').ok_or_else(bad)?;
        let (Ok(line), Ok(column)) = (line.parse(), column.parse()) else { return Err(bad()) };
        if file.is_empty() || stamp.len() != 8 || !KINDS.contains(&kind) {
            return Err(bad());
        }
        Ok(FixId {
            file: file.to_owned(),
            line,
            column,
            kind: kind.to_owned(),
            arg: arg.to_owned(),
            stamp: stamp.to_owned(),
        })
    }

    /// Whether the file's content is no longer what the id was made from.
    pub fn is_stale(&self, content: &[u8]) -> bool {
        stamp(content) != self.stamp
    }
}

/// The fix kinds a fix id may name.
pub const KINDS: &[&str] = &[
    "import",
    "throws",
    "try",
    "implement",
    "unimport",
    "unlocal",
    "cast",
    "method",
    "field",
    "local",
    "override",
    "class",
];

fn stamp(content: &[u8]) -> String {
    mji_parser::content_hash(content)[..8].to_owned()
}

/// What a javac diagnostic offers to fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Offer {
    /// An unresolved type name (its simple name): import one of the types of that name.
    Import(String),
    /// An unreported checked exception (as javac names it, qualified): `throws` or try/catch.
    Exception(String),
    /// A class that does not implement an abstract method (its simple name).
    Implement(String),
    /// An unused import (the hint `hint.unused.import`): remove it.
    RemoveImport,
    /// An unused local variable (`hint.unused.local`): remove its declaration.
    RemoveLocal,
    /// A cast to the type javac names (lossy conversion, or `Object` to it).
    Cast(String),
    /// A missing method called by its simple name: its name and javac's argument types.
    CreateMethod(String, Vec<String>),
    /// A missing variable read or assigned by its simple name: a field or a local.
    CreateVariable(String),
    /// A method overriding a supertype's without `@Override` (`hint.missing.override`).
    AddOverride,
}

/// The fix a diagnostic offers, from javac's key and message.
pub fn offer(code: &str, message: &str) -> Option<Offer> {
    match code {
        "compiler.err.cant.resolve.location" | "compiler.err.cant.resolve" => {
            let symbol = message.lines().find_map(|l| l.trim().strip_prefix("symbol:"))?;
            let mut words = symbol.split_whitespace();
            let (kind, name) = (words.next()?, words.next()?);
            // `Collections.emptyList()` unresolved is javac's `variable Collections`.
            let type_like = kind == "class" || (kind == "variable" && name.starts_with(char::is_uppercase));
            if !crate::is_identifier(name) {
                return None;
            }
            if type_like {
                Some(Offer::Import(name.to_owned()))
            } else {
                (kind == "variable").then(|| Offer::CreateVariable(name.to_owned()))
            }
        }
        "compiler.err.cant.resolve.location.args" => {
            let symbol = message.lines().find_map(|l| l.trim().strip_prefix("symbol:"))?.trim();
            let (name, args) = symbol.strip_prefix("method ")?.strip_suffix(')')?.split_once('(')?;
            crate::is_identifier(name).then(|| Offer::CreateMethod(name.to_owned(), split_types(args)))
        }
        "compiler.err.prob.found.req" => {
            let rest = message.lines().next()?.strip_prefix("incompatible types: ")?;
            let target = match rest.strip_prefix("possible lossy conversion from ") {
                Some(r) => r.split_once(" to ")?.1,
                None => rest.strip_prefix("java.lang.Object cannot be converted to ")?,
            };
            let target = target.trim();
            castable_name(target).then(|| Offer::Cast(target.to_owned()))
        }
        "hint.unused.import" => Some(Offer::RemoveImport),
        "hint.unused.local" => Some(Offer::RemoveLocal),
        "hint.missing.override" => Some(Offer::AddOverride),
        // Also a try-with-resources' implicit close().
        "compiler.err.unreported.exception.need.to.catch.or.throw"
        | "compiler.err.unreported.exception.implicit.close" => {
            let rest = message.strip_prefix("unreported exception ")?;
            let name = rest.split(';').next()?.trim();
            (!name.is_empty() && name.split('.').all(crate::is_identifier)).then(|| Offer::Exception(name.to_owned()))
        }
        "compiler.err.does.not.override.abstract" => {
            // `qf.Task is not abstract …` (javac qualifies it).
            let name = message.split_whitespace().next()?.rsplit('.').next()?;
            crate::is_identifier(name).then(|| Offer::Implement(name.to_owned()))
        }
        _ => None,
    }
}

/// A primitive type or a (qualified) type name without type arguments.
pub(crate) fn castable_name(ty: &str) -> bool {
    const PRIMITIVES: &[&str] = &["byte", "short", "char", "int", "long", "float", "double", "boolean"];
    PRIMITIVES.contains(&ty) || ty.split('.').all(crate::is_identifier)
}

/// javac's comma-separated types, split at the commas outside `<…>`.
pub fn split_types(s: &str) -> Vec<String> {
    let (mut out, mut depth, mut cur) = (Vec::new(), 0i32, String::new());
    for c in s.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out.into_iter().map(|t| t.trim().to_owned()).collect()
}

/// How the code names `qualified`: its simple name, with the import that makes it usable when
/// one is needed, or the qualified name when another type of that name is imported.
pub(crate) fn type_name(doc: &Doc, qualified: &str) -> (String, Option<TextEdit>) {
    let simple = qualified.rsplit('.').next().unwrap_or(qualified).to_owned();
    if !qualified.contains('.') {
        return (simple, None);
    }
    match crate::imports::ensure_import_sorted(doc, qualified) {
        Ok(edit) => (simple, edit),
        Err(()) => (qualified.to_owned(), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fix_ids_round_trip_and_name_their_content() {
        let id = FixId::new("src/p/A.java", 3, 9, "import", "java.util.List", b"class A {}");
        let s = id.encode();
        assert_eq!(FixId::parse(&s), Ok(id.clone()));
        assert!(!id.is_stale(b"class A {}"));
        assert!(id.is_stale(b"class A { }"));
        for bad in ["", "x", "a:1:2:import=x", "a:1:2:nope=x@12345678", "a:x:2:import=x@12345678"] {
            assert!(FixId::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn offers_from_javac_messages() {
        let m = "cannot find symbol\n  symbol:   class List\n  location: class A";
        assert_eq!(offer("compiler.err.cant.resolve.location", m), Some(Offer::Import("List".into())));
        let m = "cannot find symbol\n  symbol:   variable count\n  location: class A";
        assert_eq!(offer("compiler.err.cant.resolve.location", m), Some(Offer::CreateVariable("count".into())));
        let m = "cannot find symbol\n  symbol:   method f(int,java.util.Map<java.lang.String,java.lang.Integer>)\n  location: class A";
        assert_eq!(
            offer("compiler.err.cant.resolve.location.args", m),
            Some(Offer::CreateMethod(
                "f".into(),
                vec!["int".into(), "java.util.Map<java.lang.String,java.lang.Integer>".into()]
            ))
        );
        let m = "incompatible types: possible lossy conversion from double to int";
        assert_eq!(offer("compiler.err.prob.found.req", m), Some(Offer::Cast("int".into())));
        let m = "incompatible types: java.lang.Object cannot be converted to java.lang.String";
        assert_eq!(offer("compiler.err.prob.found.req", m), Some(Offer::Cast("java.lang.String".into())));
        let m = "incompatible types: java.lang.String cannot be converted to java.lang.Integer";
        assert_eq!(offer("compiler.err.prob.found.req", m), None);
        let m = "unreported exception java.io.IOException; must be caught or declared to be thrown";
        assert_eq!(
            offer("compiler.err.unreported.exception.need.to.catch.or.throw", m),
            Some(Offer::Exception("java.io.IOException".into()))
        );
        let m = "unreported exception java.io.IOException; must be caught or declared to be thrown\n  exception thrown from implicit call to close() on resource variable r";
        assert_eq!(
            offer("compiler.err.unreported.exception.implicit.close", m),
            Some(Offer::Exception("java.io.IOException".into()))
        );
        let m = "p.A.B is not abstract and does not override abstract method run() in java.lang.Runnable";
        assert_eq!(offer("compiler.err.does.not.override.abstract", m), Some(Offer::Implement("B".into())));
    }
}
