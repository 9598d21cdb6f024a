//! What one configuration key is — its value's kind, who may set it, how a repository's value
//! meets the user's, its environment variable and flag — and what is derived from that: parsing
//! text from the environment or a flag, the command line's flag shape, a repository value's merge
//! and the reference tables of docs/configuration.md and docs/trust.md.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

/// The prefix of every environment variable.
const ENV_PREFIX: &str = "MCP_JAVA_INDEX_";

/// The shape of a key's value, which decides how text becomes a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Bool,
    Number,
    Text,
    Path,
    Texts,
    Paths,
}

/// Who may set a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    /// Any layer, the repository's files included.
    Project,
    /// Any layer; a repository file only when the path is inside the workspace roots.
    InsideRoots,
    /// The user only (user file, environment, flags), for the reason given.
    User(&'static str),
    /// The environment and flags only, never a file.
    NoFile,
}

/// How a repository file's value meets the value the layers below it give (the defaults and
/// the user's file): a repository may only narrow. The environment and flags, the user's own,
/// replace whatever they set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Merge {
    /// Replaces it: no value of it can widen what is read, written, run or sent, for the reason
    /// given.
    Replace(&'static str),
    /// Replaces it only when it is lower: a smaller number, a switch turned off; with
    /// `zero_unbounded`, 0 means no limit and is the highest. A higher value is ignored with a
    /// warning.
    Lower { zero_unbounded: bool },
    /// Its items are added to the list below, whose items all stay.
    Add,
    /// Keeps only those of its items the list below has: it can only remove.
    Fewer,
}

/// A key's declaration apart from its name, type and default: see [`project`] and the others.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Meta {
    pub(crate) scope: Scope,
    pub(crate) merge: Merge,
    key: Option<&'static str>,
    env: Option<&'static str>,
    flag: Option<&'static str>,
}

/// Settable from every layer, a repository's value replacing the user's: `why` says why no
/// value can widen what is read, written, run or sent.
pub const fn project(why: &'static str) -> Meta {
    Meta { scope: Scope::Project, merge: Merge::Replace(why), key: None, env: None, flag: None }
}
/// A limit: a repository may only lower it (a smaller number, a switch off).
pub const fn lower() -> Meta {
    Meta { merge: Merge::Lower { zero_unbounded: false }, ..project("") }
}
/// A limit where 0 means none: a repository may only lower it, and its 0 counts as the highest.
pub const fn lower_but_zero_is_none() -> Meta {
    Meta { merge: Merge::Lower { zero_unbounded: true }, ..project("") }
}
/// A list of things refused: a repository's items are added to the user's.
pub const fn narrow_list() -> Meta {
    Meta { merge: Merge::Add, ..project("") }
}
/// A list of things enabled: a repository may only leave some of the user's out.
pub const fn fewer() -> Meta {
    Meta { merge: Merge::Fewer, ..project("") }
}
/// Settable from every layer; a repository file only inside the roots, never inside a `.git`
/// directory, its value replacing the user's for the reason given.
pub const fn inside_roots(why: &'static str) -> Meta {
    Meta { scope: Scope::InsideRoots, ..project(why) }
}
/// Settable only by the user; `why` says why a repository may not.
pub const fn user(why: &'static str) -> Meta {
    Meta { scope: Scope::User(why), ..project("") }
}
/// Settable only from the environment and flags.
pub const fn no_file() -> Meta {
    Meta { scope: Scope::NoFile, ..project("") }
}

impl Meta {
    /// The key's name in files when it is not the `Config` field's.
    pub const fn key(self, key: &'static str) -> Meta {
        Meta { key: Some(key), ..self }
    }
    /// The environment variable's suffix when it is not the key's name.
    pub const fn env(self, env: &'static str) -> Meta {
        Meta { env: Some(env), ..self }
    }
    /// The flag's name when it is not the key's.
    pub const fn flag(self, flag: &'static str) -> Meta {
        Meta { flag: Some(flag), ..self }
    }
    /// A repository's items are added to the user's (with [`inside_roots`]: entries inside the
    /// roots added to the user's own).
    pub const fn adding(self) -> Meta {
        Meta { merge: Merge::Add, ..self }
    }
}

/// One configuration key, as declared in `settings!`.
#[derive(Debug)]
pub struct Key {
    pub(crate) field: &'static str,
    pub(crate) doc: &'static str,
    pub(crate) kind: Kind,
    pub(crate) meta: Meta,
    pub(crate) default: fn() -> serde_json::Value,
}

/// A key's command-line flag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flag {
    /// The long name, without `--`.
    pub long: String,
    /// The value's placeholder; None for a switch, which sets the opposite of the default.
    pub value_name: Option<&'static str>,
    /// Given several times, each occurrence one item of the list.
    pub repeatable: bool,
    /// The help line, naming the environment variable.
    pub help: String,
}

impl Key {
    /// The key's name, as written in files.
    pub fn name(&self) -> &'static str {
        self.meta.key.unwrap_or(self.field)
    }

    /// Whether files may name the key.
    pub(crate) fn in_files(&self) -> bool {
        self.meta.scope != Scope::NoFile
    }

    /// Why a repository file may not set the key at all, or None when it may (narrowing).
    pub fn refused(&self) -> Option<&'static str> {
        match self.meta.scope {
            Scope::User(why) => Some(why),
            Scope::NoFile => Some("it is set by the environment or a flag only, never a file"),
            Scope::Project | Scope::InsideRoots => None,
        }
    }

    /// How a repository file's value meets the user's, when [`Key::refused`] is None.
    pub fn merge(&self) -> Merge {
        self.meta.merge
    }

    /// Whether a repository's value is a path that must stay inside the roots (and out of `.git`).
    pub fn confined(&self) -> bool {
        self.meta.scope == Scope::InsideRoots
    }

    /// How a repository file may change the key, in words: docs/trust.md's table.
    pub fn repository_rule(&self) -> String {
        if let Some(why) = self.refused() {
            return match self.meta.scope {
                Scope::NoFile => "never (environment and flags only)".to_owned(),
                _ => format!("never: {why}"),
            };
        }
        let inside = if self.confined() { "paths inside the roots and outside `.git` only; " } else { "" };
        match self.meta.merge {
            Merge::Replace(why) => format!("{inside}replaces yours: {why}"),
            Merge::Lower { .. } if self.kind == Kind::Bool => "may only turn it off".to_owned(),
            Merge::Lower { zero_unbounded } => {
                format!("may only lower it{}", if zero_unbounded { " (its 0 counts as the highest)" } else { "" })
            }
            Merge::Add => format!("{inside}adds to yours; yours all stay"),
            Merge::Fewer => "may only leave out some of yours".to_owned(),
        }
    }

    /// The key's documentation on one line.
    pub fn doc(&self) -> String {
        self.doc.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// The default value, as `config` prints it.
    pub fn default_value(&self) -> serde_json::Value {
        (self.default)()
    }

    /// `MCP_JAVA_INDEX_` and the key's name in capitals.
    pub(crate) fn env_var(&self) -> String {
        format!("{ENV_PREFIX}{}", self.meta.env.unwrap_or(self.name()).to_ascii_uppercase())
    }

    /// The key's name in kebab case; a boolean that defaults to true gets `no-` before it.
    pub fn flag(&self) -> Flag {
        let base = self.meta.flag.unwrap_or(self.name()).replace('_', "-");
        let switch = self.kind == Kind::Bool;
        let long =
            if switch && self.default_value() == serde_json::Value::Bool(true) { format!("no-{base}") } else { base };
        let set = if switch { format!("Sets {} = {}: ", self.name(), self.switch_value()) } else { String::new() };
        Flag {
            long,
            value_name: (!switch).then(|| self.kind.words().0),
            repeatable: matches!(self.kind, Kind::Paths | Kind::Texts),
            help: format!("{set}{} [env: {}]", self.doc(), self.env_var()),
        }
    }

    /// The value a switch sets, as text.
    pub fn switch_value(&self) -> String {
        (self.default_value() != serde_json::Value::Bool(true)).to_string()
    }
}

impl Kind {
    /// The flag's placeholder and the reference table's word for the type.
    fn words(self) -> (&'static str, &'static str) {
        match self {
            Kind::Bool => ("BOOL", "boolean"),
            Kind::Number => ("N", "integer"),
            Kind::Text => ("TEXT", "string"),
            Kind::Path => ("PATH", "path"),
            Kind::Texts => ("TEXT", "list of strings"),
            Kind::Paths => ("PATH", "list of paths"),
        }
    }

    /// An environment variable's text as a value; empty text sets nothing, except for a string.
    pub(crate) fn parse_env(self, text: &str) -> Result<Option<toml::Value>, String> {
        if self != Kind::Text && text.trim().is_empty() {
            return Ok(None);
        }
        Ok(Some(match self {
            Kind::Texts => strings(text.split_whitespace().map(str::to_owned)),
            Kind::Paths => strings(
                std::env::split_paths(text).filter(|p| !p.as_os_str().is_empty()).map(|p| p.to_string_lossy().into()),
            ),
            _ => self.parse_flag(&[text.to_owned()])?,
        }))
    }

    /// A flag's values (one per occurrence) as a value.
    pub(crate) fn parse_flag(self, items: &[String]) -> Result<toml::Value, String> {
        let last = items.last().map(String::as_str).unwrap_or_default();
        Ok(match self {
            Kind::Bool => toml::Value::Boolean(match last.trim().to_ascii_lowercase().as_str() {
                "1" | "true" | "yes" | "on" => true,
                "0" | "false" | "no" | "off" => false,
                _ => return Err(format!("`{last}` is not a boolean (use true or false)")),
            }),
            Kind::Number => {
                let n = last.trim().parse::<u64>().ok().and_then(|n| i64::try_from(n).ok());
                toml::Value::Integer(n.ok_or_else(|| format!("`{last}` is not a whole number"))?)
            }
            Kind::Text | Kind::Path => toml::Value::String(last.to_owned()),
            Kind::Texts => strings(items.iter().flat_map(|i| i.split_whitespace()).map(str::to_owned)),
            Kind::Paths => strings(items.iter().cloned()),
        })
    }

    fn env_note(self) -> &'static str {
        match self {
            Kind::Texts => " (space-separated)",
            Kind::Paths => " (path list)",
            _ => "",
        }
    }
}

fn strings(items: impl Iterator<Item = String>) -> toml::Value {
    toml::Value::Array(items.map(toml::Value::String).collect())
}

/// A type a key may have: how it reads from a TOML value, relative paths resolved against
/// the directory of the file that set them.
pub(crate) trait Setting: Sized + Serialize + DeserializeOwned {
    const KIND: Kind;

    fn rebase(&mut self, _dir: &Path) {}

    fn parse(value: toml::Value, dir: Option<&Path>) -> Result<Self, String> {
        let mut v: Self = value.try_into().map_err(|e: toml::de::Error| e.message().to_owned())?;
        if let Some(dir) = dir {
            v.rebase(dir);
        }
        Ok(v)
    }

    /// This value, a repository's, met with `below`'s (what the defaults and the user's file
    /// give) under `how`: Err(why) when it may not apply at all, Ok(Some(what was left out))
    /// when it applies in part.
    fn merge(&mut self, below: &Self, how: Merge) -> Result<Option<String>, String> {
        match how {
            Merge::Replace(_) => Ok(None),
            Merge::Lower { .. } => match (self.rank(how), below.rank(how)) {
                (Some(new), Some(old)) if new <= old => Ok(None),
                (Some(_), Some(_)) => Err(format!(
                    "its {} is above the {} kept; a repository may only lower this setting",
                    self.shown(),
                    below.shown()
                )),
                _ => Err(format!("its {} cannot be compared with the {} kept", self.shown(), below.shown())),
            },
            Merge::Add => self.add_to(below).map(|()| None),
            Merge::Fewer => self.keep_common(below),
        }
    }

    /// Where the value stands for [`Merge::Lower`], higher meaning more; None when it has no place.
    fn rank(&self, _how: Merge) -> Option<u64> {
        None
    }

    /// Puts `below`'s items first and keeps this value's items that are new.
    fn add_to(&mut self, _below: &Self) -> Result<(), String> {
        Err("is no list".to_owned())
    }

    /// Keeps only the items `below` has; says which were left out, if any.
    fn keep_common(&mut self, _below: &Self) -> Result<Option<String>, String> {
        Err("is no list".to_owned())
    }

    /// The value as a warning quotes it (clipped).
    fn shown(&self) -> String {
        serde_json::to_string(self).map(|s| mji_fs::clip(&s).to_string()).unwrap_or_default()
    }
}

/// `below`'s items, then `mine`'s that are new.
fn union<T: PartialEq + Clone>(mine: &mut Vec<T>, below: &[T]) {
    let mut all = below.to_vec();
    for x in mine.drain(..) {
        if !all.contains(&x) {
            all.push(x);
        }
    }
    *mine = all;
}

impl Setting for bool {
    const KIND: Kind = Kind::Bool;
    fn rank(&self, _how: Merge) -> Option<u64> {
        Some(u64::from(*self))
    }
}
impl Setting for u64 {
    const KIND: Kind = Kind::Number;
    fn rank(&self, how: Merge) -> Option<u64> {
        Some(match how {
            Merge::Lower { zero_unbounded: true } if *self == 0 => u64::MAX,
            _ => *self,
        })
    }
}
impl Setting for String {
    const KIND: Kind = Kind::Text;
}
impl Setting for Vec<String> {
    const KIND: Kind = Kind::Texts;
    fn add_to(&mut self, below: &Self) -> Result<(), String> {
        union(self, below);
        Ok(())
    }
    fn keep_common(&mut self, below: &Self) -> Result<Option<String>, String> {
        let (kept, left): (Vec<String>, Vec<String>) = self.drain(..).partition(|g| below.contains(g));
        let quote = |v: &[String]| v.iter().map(|g| format!("`{}`", mji_fs::clip(g))).collect::<Vec<_>>().join(", ");
        if kept.is_empty() {
            return Err(format!(
                "it lists only {}, which are off below it (your configuration or the default), and a repository may only leave some out; kept {}",
                quote(&left),
                quote(below)
            ));
        }
        *self = kept;
        Ok((!left.is_empty()).then(|| {
            format!(
                "its {} are off below it (your configuration or the default), and a repository may only leave some out; kept {}",
                quote(&left),
                quote(self)
            )
        }))
    }
}
impl Setting for Option<PathBuf> {
    const KIND: Kind = Kind::Path;
    fn rebase(&mut self, dir: &Path) {
        if let Some(p) = self {
            *p = dir.join(&*p);
        }
    }
}
impl Setting for Vec<PathBuf> {
    const KIND: Kind = Kind::Paths;
    fn rebase(&mut self, dir: &Path) {
        for p in self {
            *p = dir.join(&*p);
        }
    }
    fn add_to(&mut self, below: &Self) -> Result<(), String> {
        union(self, below);
        Ok(())
    }
}

/// docs/configuration.md's configuration reference: one row per key.
pub fn reference(keys: &[Key]) -> String {
    let mut out = String::from(
        "| key | meaning | type | default | environment | flag | set by |\n| --- | --- | --- | --- | --- | --- | --- |\n",
    );
    for k in keys {
        let default = match k.default_value() {
            serde_json::Value::Null => "none".to_owned(),
            serde_json::Value::Array(a) if a.is_empty() => "none".to_owned(),
            v => format!("`{v}`"),
        };
        let flag = k.flag();
        let flag = match (flag.value_name, flag.repeatable) {
            (None, _) => format!("`--{}`", flag.long),
            (Some(v), false) => format!("`--{} {v}`", flag.long),
            (Some(v), true) => format!("`--{} {v}` (repeatable)", flag.long),
        };
        let who = match k.meta.scope {
            Scope::Project => match k.meta.merge {
                Merge::Replace(_) => "user, project".to_owned(),
                Merge::Lower { .. } => "user; project only lower".to_owned(),
                Merge::Add => "user; project adds".to_owned(),
                Merge::Fewer => "user; project only fewer".to_owned(),
            },
            Scope::InsideRoots => "user; project only inside the roots".to_owned(),
            Scope::User(why) => format!("*user* ({why})"),
            Scope::NoFile => "environment, flag".to_owned(),
        };
        out += &format!(
            "| `{}` | {} | {} | {default} | `{}`{} | {flag} | {who} |\n",
            k.name(),
            k.doc(),
            k.kind.words().1,
            k.env_var(),
            k.kind.env_note()
        );
    }
    out
}

/// docs/trust.md's table: every key with how a repository file may change it.
pub fn trust_reference(keys: &[Key]) -> String {
    let mut out = String::from("| key | a repository's `mcp-java-index.toml` / `.local.toml` |\n| --- | --- |\n");
    for k in keys {
        out += &format!("| `{}` | {} |\n", k.name(), k.repository_rule());
    }
    out
}
