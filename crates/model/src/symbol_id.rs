//! `SymbolId`: the one spelling of a declaration's id, built and parsed here only.
//!
//! `Class#pkg.Outer.Inner|start:S|end:E`, `Field#pkg.Type#name|…`,
//! `Ctor#pkg.Type#Type(int,String)|…`, `Method#pkg.Type#name(int,String):Ret|…`,
//! `EnumConstant#pkg.E#RED|…`. The part before `|start:` (the key) names the declaration by
//! kind and signature, so overloads are distinct; the lines place it in the file.

use std::fmt;
use std::str::FromStr;

/// What a symbolId names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    Class,
    Field,
    Ctor,
    Method,
    EnumConstant,
}

impl SymbolKind {
    /// The id's prefix.
    pub fn prefix(self) -> &'static str {
        match self {
            SymbolKind::Class => "Class",
            SymbolKind::Field => "Field",
            SymbolKind::Ctor => "Ctor",
            SymbolKind::Method => "Method",
            SymbolKind::EnumConstant => "EnumConstant",
        }
    }

    fn from_prefix(s: &str) -> Option<SymbolKind> {
        Some(match s {
            "Class" => SymbolKind::Class,
            "Field" => SymbolKind::Field,
            "Ctor" => SymbolKind::Ctor,
            "Method" => SymbolKind::Method,
            "EnumConstant" => SymbolKind::EnumConstant,
            _ => return None,
        })
    }
}

/// A declaration's id, parsed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SymbolId {
    pub kind: SymbolKind,
    /// The qualified name of the type itself (`Class`) or of the member's owner.
    pub owner: String,
    /// The member's name and signature as the id spells it: `name` (field, enum constant),
    /// `name(int,String)` (constructor), `name(int,String):Ret` (method); empty for a type.
    pub member: String,
    pub start: u32,
    pub end: u32,
}

impl SymbolId {
    pub fn class(qualified: &str, start: u32, end: u32) -> SymbolId {
        SymbolId { kind: SymbolKind::Class, owner: qualified.to_owned(), member: String::new(), start, end }
    }

    /// A member's id; `member` as the id spells it (see [`SymbolId::member`]).
    pub fn member(kind: SymbolKind, owner: &str, member: String, start: u32, end: u32) -> SymbolId {
        SymbolId { kind, owner: owner.to_owned(), member, start, end }
    }

    /// A method's member part: `name(types):ret`.
    pub fn method_member(name: &str, param_types: &str, return_type: &str) -> String {
        format!("{name}({param_types}):{return_type}")
    }

    /// A constructor's member part: `Name(types)`.
    pub fn ctor_member(name: &str, param_types: &str) -> String {
        format!("{name}({param_types})")
    }

    /// The id without its lines: kind, owner and signature.
    pub fn key(&self) -> String {
        let mut s = format!("{}#{}", self.kind.prefix(), self.owner);
        if self.kind != SymbolKind::Class {
            s.push('#');
            s.push_str(&self.member);
        }
        s
    }
}

impl fmt::Display for SymbolId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}|start:{}|end:{}", self.key(), self.start, self.end)
    }
}

/// Why a string is not a symbolId.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{id}` is not a symbolId ({reason}); take one from java_index, e.g. `Method#com.foo.Bar#run(int):void|start:10|end:20`"
)]
pub struct SymbolIdError {
    pub id: String,
    pub reason: &'static str,
}

impl FromStr for SymbolId {
    type Err = SymbolIdError;

    fn from_str(id: &str) -> Result<SymbolId, SymbolIdError> {
        let err = |reason| SymbolIdError { id: id.to_owned(), reason };
        let (key, start, end) = split_lines(id).ok_or_else(|| err("no `|start:N|end:M` lines"))?;
        let (prefix, rest) = key.split_once('#').ok_or_else(|| err("no `Kind#` prefix"))?;
        let kind = SymbolKind::from_prefix(prefix).ok_or_else(|| err("unknown kind"))?;
        let (owner, member) = match kind {
            SymbolKind::Class => (rest, ""),
            _ => rest.split_once('#').ok_or_else(|| err("no `#member` after the owner type"))?,
        };
        if owner.is_empty() || (kind != SymbolKind::Class && member.is_empty()) {
            return Err(err("empty name"));
        }
        Ok(SymbolId { kind, owner: owner.to_owned(), member: member.to_owned(), start, end })
    }
}

/// Splits `key|start:N|end:M` into the key and the lines (the last `|start:` wins, so a key
/// may hold any text).
fn split_lines(id: &str) -> Option<(&str, u32, u32)> {
    let i = id.rfind("|start:")?;
    let (start, end) = id[i + 7..].split_once("|end:")?;
    Some((&id[..i], start.parse().ok()?, end.parse().ok()?))
}

/// Splits an id into its key and start line, tolerating ids without lines (a key alone).
pub fn split_key(id: &str) -> (&str, Option<u32>) {
    match split_lines(id) {
        Some((key, start, _)) => (key, Some(start)),
        None => match id.rfind("|start:") {
            Some(i) => (&id[..i], id[i + 7..].split('|').next().and_then(|s| s.parse().ok())),
            None => (id, None),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_round_trips() {
        for id in [
            "Class#com.example.Greeter.Style|start:44|end:44",
            "Field#com.example.Greeter#suffix|start:10|end:10",
            "Ctor#com.example.Greeter#Greeter(String)|start:23|end:25",
            "Method#com.example.Greeter#greet(String):String|start:33|end:35",
            "Method#p.C#m(java.util.Map<K,V>,int...):java.util.List<? extends T>|start:1|end:9",
            "EnumConstant#com.example.Greeter.Style#QUIET|start:44|end:44",
            "Class#Default|start:1|end:2",
        ] {
            let parsed: SymbolId = id.parse().expect(id);
            assert_eq!(parsed.to_string(), id);
        }
    }

    #[test]
    fn parts_are_named() {
        let id: SymbolId = "Method#p.C#m(int):void|start:3|end:4".parse().expect("id");
        assert_eq!(id.kind, SymbolKind::Method);
        assert_eq!((id.owner.as_str(), id.member.as_str(), id.start, id.end), ("p.C", "m(int):void", 3, 4));
        assert_eq!(id.key(), "Method#p.C#m(int):void");
        let built = SymbolId::member(SymbolKind::Method, "p.C", SymbolId::method_member("m", "int", "void"), 3, 4);
        assert_eq!(built, id);
    }

    #[test]
    fn bad_ids_say_why() {
        for (id, why) in [
            ("Method#p.C#m(int):void", "no `|start:N|end:M` lines"),
            ("Thing#p.C|start:1|end:2", "unknown kind"),
            ("Method#p.C|start:1|end:2", "no `#member` after the owner type"),
            ("p.C|start:1|end:2", "no `Kind#` prefix"),
            ("Class#p.C|start:x|end:2", "no `|start:N|end:M` lines"),
        ] {
            assert_eq!(id.parse::<SymbolId>().map_err(|e| e.reason), Err(why), "{id}");
        }
    }

    #[test]
    fn split_key_tolerates_partial_ids() {
        assert_eq!(split_key("Field#p.C#x|start:5|end:5"), ("Field#p.C#x", Some(5)));
        assert_eq!(split_key("Field#p.C#x"), ("Field#p.C#x", None));
        assert_eq!(split_key("Field#p.C#x|start:7"), ("Field#p.C#x", Some(7)));
    }
}
