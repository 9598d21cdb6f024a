//! What one configuration key is — its value's kind, who may set it, its environment variable
//! and flag — and what is derived from that: parsing text from the environment or a flag, the
//! command line's flag shape and docs/configuration.md's reference table.

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

/// A key's declaration apart from its name, type and default: see [`project`] and the others.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Meta {
    pub(crate) scope: Scope,
    key: Option<&'static str>,
    env: Option<&'static str>,
    flag: Option<&'static str>,
}

/// Settable from every layer.
pub const fn project() -> Meta {
    Meta { scope: Scope::Project, key: None, env: None, flag: None }
}
/// Settable from every layer; a repository file only inside the roots.
pub const fn inside_roots() -> Meta {
    Meta { scope: Scope::InsideRoots, ..project() }
}
/// Settable only by the user; `why` says why a repository may not.
pub const fn user(why: &'static str) -> Meta {
    Meta { scope: Scope::User(why), ..project() }
}
/// Settable only from the environment and flags.
pub const fn no_file() -> Meta {
    Meta { scope: Scope::NoFile, ..project() }
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
}

impl Setting for bool {
    const KIND: Kind = Kind::Bool;
}
impl Setting for u64 {
    const KIND: Kind = Kind::Number;
}
impl Setting for String {
    const KIND: Kind = Kind::Text;
}
impl Setting for Vec<String> {
    const KIND: Kind = Kind::Texts;
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
            Scope::Project => "user, project".to_owned(),
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
