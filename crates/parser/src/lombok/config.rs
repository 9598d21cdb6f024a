//! `lombok.config`, read as Lombok reads it: the files from a source file's directory upward
//! (nearer files win; `config.stopBubbling = true` ends the walk after its file), `clear`, and
//! `+=`/`-=` for a list key, of the keys that change which members Lombok generates or their
//! names and types ([`READ`]). The files are given (nearest first) by the caller, which reads
//! them inside the workspace roots only: this module does no I/O. Not read: `import` lines
//! (their keys are left out) and every key outside [`READ`] (docs/limitations.md).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

/// The keys read: each changes a generated member's existence, name, type or modifiers.
pub const READ: &[&str] = &[
    DISABLE,
    LOG_FIELD_NAME,
    LOG_FIELD_IS_STATIC,
    LOG_CUSTOM_DECLARATION,
    ACCESSORS_FLUENT,
    ACCESSORS_CHAIN,
    ACCESSORS_PREFIX,
    ACCESSORS_CAPITALIZATION,
    GETTER_NO_IS_PREFIX,
    NO_ARGS_EXTRA_PRIVATE,
    BUILDER_CLASS_NAME,
    SINGULAR_AUTO,
    SINGULAR_USE_GUAVA,
    FIELD_DEFAULTS_FINAL,
];

pub const DISABLE: &str = "dangerousconfig.lombok.disable";
pub const LOG_FIELD_NAME: &str = "lombok.log.fieldName";
pub const LOG_FIELD_IS_STATIC: &str = "lombok.log.fieldIsStatic";
pub const LOG_CUSTOM_DECLARATION: &str = "lombok.log.custom.declaration";
pub const ACCESSORS_FLUENT: &str = "lombok.accessors.fluent";
pub const ACCESSORS_CHAIN: &str = "lombok.accessors.chain";
pub const ACCESSORS_PREFIX: &str = "lombok.accessors.prefix";
pub const ACCESSORS_CAPITALIZATION: &str = "lombok.accessors.capitalization";
pub const GETTER_NO_IS_PREFIX: &str = "lombok.getter.noIsPrefix";
pub const NO_ARGS_EXTRA_PRIVATE: &str = "lombok.noArgsConstructor.extraPrivate";
pub const BUILDER_CLASS_NAME: &str = "lombok.builder.className";
pub const SINGULAR_AUTO: &str = "lombok.singular.auto";
pub const SINGULAR_USE_GUAVA: &str = "lombok.singular.useGuava";
pub const FIELD_DEFAULTS_FINAL: &str = "lombok.fieldDefaults.defaultFinal";
const STOP_BUBBLING: &str = "config.stopBubbling";
const LISTS: &[&str] = &[ACCESSORS_PREFIX];

/// The file name Lombok looks for in each directory.
pub const FILE_NAME: &str = "lombok.config";

/// One line's operation on a key.
#[derive(Debug, Clone)]
enum Op {
    Set(String),
    Clear,
    Add(String),
    Remove(String),
}

/// One parsed `lombok.config`: each read key's operations in order, and whether it stops bubbling.
#[derive(Debug, Clone, Default)]
pub struct ConfigFile {
    ops: Vec<(&'static str, Op)>,
    stop: bool,
}

impl ConfigFile {
    /// Parses a file's text as Lombok's `ConfigurationParser` does; a line it would report
    /// (unknown key, `=` on a list, `+=` on a scalar, a bad value) changes nothing.
    pub fn parse(text: &str) -> ConfigFile {
        let mut out = ConfigFile::default();
        for line in text.lines() {
            let line = line.trim_matches(|c| c == ' ' || c == '\t' || c == '\r');
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, op) = if let Some(rest) = line.strip_prefix("clear").filter(|r| r.starts_with([' ', '\t'])) {
                if rest.contains('=') {
                    continue;
                }
                (rest.trim(), Op::Clear)
            } else {
                let Some(eq) = line.find('=') else { continue };
                let (mut key, value) = (&line[..eq], line[eq + 1..].trim_start_matches([' ', '\t']).to_owned());
                let op = if let Some(k) = key.strip_suffix('+') {
                    key = k;
                    Op::Add(value)
                } else if let Some(k) = key.strip_suffix('-') {
                    key = k;
                    Op::Remove(value)
                } else {
                    Op::Set(value)
                };
                let key = key.trim_end_matches([' ', '\t']);
                if key.chars().any(char::is_whitespace) {
                    continue;
                }
                (key, op)
            };
            // Lombok's keys are matched whatever their case.
            if key.eq_ignore_ascii_case(STOP_BUBBLING) {
                if let Op::Set(v) = &op {
                    out.stop = v.eq_ignore_ascii_case("true");
                } else if let Op::Clear = op {
                    out.stop = false;
                }
                continue;
            }
            let Some(key) = READ.iter().copied().find(|k| k.eq_ignore_ascii_case(key)) else { continue };
            let list = LISTS.contains(&key);
            match (&op, list) {
                (Op::Add(_) | Op::Remove(_), false) | (Op::Set(_), true) => continue,
                _ => {}
            }
            out.ops.push((key, op));
        }
        out
    }

    /// What this file says of `key`: (authoritative, value or list modifications), as Lombok's
    /// `SingleConfigurationSource` keeps it; None when it does not name the key.
    fn resolve(&self, key: &str) -> Option<(bool, Resolved)> {
        let mut out: Option<(bool, Resolved)> = None;
        for (k, op) in self.ops.iter().filter(|(k, _)| *k == key) {
            let _ = k;
            out = Some(match op {
                Op::Set(v) => (true, Resolved::Value(Some(v.clone()))),
                Op::Clear => (true, Resolved::Value(None)),
                Op::Add(v) | Op::Remove(v) => {
                    let add = matches!(op, Op::Add(_));
                    match out.take() {
                        Some((auth, Resolved::List(mut l))) => {
                            l.push((v.clone(), add));
                            (auth, Resolved::List(l))
                        }
                        // After a `clear`: a new list, authoritative.
                        Some((_, Resolved::Value(_))) => (true, Resolved::List(vec![(v.clone(), add)])),
                        None => (false, Resolved::List(vec![(v.clone(), add)])),
                    }
                }
            });
        }
        out
    }
}

#[derive(Debug, Clone)]
enum Resolved {
    Value(Option<String>),
    List(Vec<(String, bool)>),
}

/// The effective configuration of one directory: each read key's value, resolved from its
/// `lombok.config` files. The default (no file, or none naming a read key) changes nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Config {
    values: BTreeMap<&'static str, String>,
    prefix: Vec<String>,
}

impl Config {
    /// Resolves the read keys from a directory's files, nearest first (the file of the
    /// directory itself, then its parent's…), as Lombok's `BubblingConfigurationResolver`:
    /// the nearest authoritative value wins; list modifications apply farthest first; a file
    /// with `config.stopBubbling = true` is the last one read.
    pub fn resolve(files: &[&ConfigFile]) -> Config {
        let mut files: Vec<&ConfigFile> = files.to_vec();
        if let Some(stop) = files.iter().position(|f| f.stop) {
            files.truncate(stop + 1);
        }
        let mut out = Config::default();
        for key in READ {
            let mut mods: Vec<Vec<(String, bool)>> = Vec::new();
            for f in &files {
                let Some((auth, r)) = f.resolve(key) else { continue };
                match r {
                    Resolved::Value(v) => {
                        if let Some(v) = v {
                            out.values.insert(key, v);
                        }
                        break;
                    }
                    Resolved::List(l) => {
                        mods.push(l);
                        if auth {
                            break;
                        }
                    }
                }
            }
            if LISTS.contains(key) {
                let mut list: Vec<String> = Vec::new();
                for (v, add) in mods.into_iter().rev().flatten() {
                    list.retain(|x| *x != v);
                    if add {
                        list.push(v);
                    }
                }
                if *key == ACCESSORS_PREFIX {
                    out.prefix = list;
                }
            }
        }
        out
    }

    /// The configuration of a directory given its files' texts, nearest first.
    pub fn of_texts(texts: &[&str]) -> Config {
        let files: Vec<ConfigFile> = texts.iter().map(|t| ConfigFile::parse(t)).collect();
        Config::resolve(&files.iter().collect::<Vec<_>>())
    }

    /// Whether nothing is configured (Lombok's defaults).
    pub fn is_default(&self) -> bool {
        self.values.is_empty() && self.prefix.is_empty()
    }

    /// The value of a scalar key, as written (None when unset or cleared).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.values.get(key).map(String::as_str)
    }

    /// A boolean key: Java's `Boolean.parseBoolean` of its value; None when unset.
    pub fn flag(&self, key: &str) -> Option<bool> {
        self.get(key).map(|v| v.trim().eq_ignore_ascii_case("true"))
    }

    /// `lombok.accessors.prefix`.
    pub fn prefix(&self) -> &[String] {
        &self.prefix
    }

    /// A stable text of what is configured, empty for the default: what a cache key folds in.
    pub fn digest(&self) -> String {
        if self.is_default() {
            return String::new();
        }
        let mut s = String::new();
        for (k, v) in &self.values {
            s.push_str(k);
            s.push('=');
            s.push_str(v);
            s.push('\n');
        }
        for p in &self.prefix {
            s.push_str(ACCESSORS_PREFIX);
            s.push_str("+=");
            s.push_str(p);
            s.push('\n');
        }
        s
    }

    /// The logger type of `lombok.log.custom.declaration` (`[LoggerType ]FactoryType.method(PARAMS)…`),
    /// and whether it has a parameter list with TOPIC and one without; None when unset or malformed.
    pub fn custom_log(&self) -> Option<CustomLog> {
        let d = self.get(LOG_CUSTOM_DECLARATION)?.trim();
        let open = d.find('(')?;
        let (head, params) = d.split_at(open);
        let (logger, factory) = match head.split_once(' ') {
            Some((l, f)) => (l.trim(), f.trim()),
            None => ("", head.trim()),
        };
        let (factory_type, _method) = factory.rsplit_once('.')?;
        let mut with_topic = None;
        let mut without_topic = None;
        let mut rest = params;
        while !rest.is_empty() {
            let inner = rest.strip_prefix('(')?;
            let close = inner.find(')')?;
            let list = &inner[..close];
            if !list.chars().all(|c| c.is_ascii_uppercase() || c == ',') {
                return None;
            }
            let ps: Vec<&str> = if list.is_empty() { Vec::new() } else { list.split(',').collect() };
            if ps.iter().any(|p| !matches!(*p, "TYPE" | "NAME" | "TOPIC" | "NULL")) {
                return None;
            }
            let slot = if ps.contains(&"TOPIC") { &mut with_topic } else { &mut without_topic };
            if slot.is_some() {
                return None;
            }
            *slot = Some(ps.len());
            rest = &inner[close + 1..];
        }
        let ty = if logger.is_empty() { factory_type } else { logger };
        Some(CustomLog { ty: ty.to_owned(), with_topic: with_topic.is_some(), without_topic: without_topic.is_some() })
    }
}

/// A configured `@CustomLog`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomLog {
    /// The logger field's type.
    pub ty: String,
    pub with_topic: bool,
    pub without_topic: bool,
}

/// The shared default configuration.
pub fn default_config() -> Arc<Config> {
    static DEFAULT: std::sync::OnceLock<Arc<Config>> = std::sync::OnceLock::new();
    DEFAULT.get_or_init(|| Arc::new(Config::default())).clone()
}

/// Reads a `lombok.config` at a path (inside the workspace roots only; None when there is
/// none or it may not be read). Given by the caller: this crate does no I/O.
pub type Reader = dyn Fn(&Path) -> Option<Vec<u8>> + Send + Sync;

/// The effective configuration of each directory of a workspace, from the `lombok.config`
/// files between it and its root (files outside the roots are never asked for), kept until
/// [`Resolver::forget`] says a `lombok.config` changed.
pub struct Resolver {
    roots: Vec<PathBuf>,
    read: Box<Reader>,
    dirs: RwLock<HashMap<PathBuf, Arc<Config>>>,
    /// Each directory's own `lombok.config`, parsed (None: there is none), read once for every
    /// directory below it: resolving each directory read every file up to its root again (on
    /// the JDK, ~5,000 failed opens for 1,235 directories, a tenth of a one-shot `refs`).
    own: RwLock<HashMap<PathBuf, Option<Arc<ConfigFile>>>>,
}

impl Resolver {
    pub fn new(roots: Vec<PathBuf>, read: Box<Reader>) -> Resolver {
        Resolver { roots, read, dirs: RwLock::new(HashMap::new()), own: RwLock::new(HashMap::new()) }
    }

    /// The directory's own `lombok.config`, parsed, read on first use.
    fn own(&self, dir: &Path) -> Option<Arc<ConfigFile>> {
        if let Ok(own) = self.own.read()
            && let Some(f) = own.get(dir)
        {
            return f.clone();
        }
        let f = (self.read)(&dir.join(FILE_NAME))
            .map(|bytes| Arc::new(ConfigFile::parse(&String::from_utf8_lossy(&bytes))));
        if let Ok(mut own) = self.own.write() {
            own.insert(dir.to_owned(), f.clone());
        }
        f
    }

    /// The configuration in effect for the source file at `file`.
    pub fn for_file(&self, file: &Path) -> Arc<Config> {
        match file.parent() {
            Some(dir) => self.for_dir(dir),
            None => default_config(),
        }
    }

    fn for_dir(&self, dir: &Path) -> Arc<Config> {
        if let Ok(dirs) = self.dirs.read()
            && let Some(c) = dirs.get(dir)
        {
            return c.clone();
        }
        let Some(root) = self.roots.iter().filter(|r| dir.starts_with(r)).max_by_key(|r| r.as_os_str().len()) else {
            return default_config();
        };
        let mut files = Vec::new();
        let mut at = Some(dir);
        while let Some(d) = at.filter(|d| d.starts_with(root)) {
            if let Some(f) = self.own(d) {
                let stop = f.stop;
                files.push(f);
                if stop {
                    break;
                }
            }
            at = d.parent();
        }
        let c = Config::resolve(&files.iter().map(|f| f.as_ref()).collect::<Vec<_>>());
        let c = if c.is_default() { default_config() } else { Arc::new(c) };
        if let Ok(mut dirs) = self.dirs.write() {
            dirs.insert(dir.to_owned(), c.clone());
        }
        c
    }

    /// A `lombok.config` at `path` was added, changed or removed: the directories below its
    /// own are resolved again when next asked.
    pub fn forget(&self, path: &Path) {
        let Some(dir) = path.parent() else { return };
        if let Ok(mut own) = self.own.write() {
            own.remove(dir);
        }
        if let Ok(mut dirs) = self.dirs.write() {
            dirs.retain(|d, _| !d.starts_with(dir));
        }
    }

    /// A stamp's worth of the configuration of `file`: 0 for Lombok's defaults, else a hash of
    /// what is configured, so a file's identity (its stamp, its size XOR this) changes when its
    /// configuration does, and only then.
    pub fn salt(&self, file: &Path) -> u64 {
        let c = self.for_file(file);
        if c.is_default() {
            return 0;
        }
        let hex = crate::content_hash(c.digest().as_bytes());
        u64::from_str_radix(hex.get(..16).unwrap_or("1"), 16).unwrap_or(1) | 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearer_files_win_and_lists_accumulate_from_the_farthest() {
        let near = "lombok.log.fieldName = LOGGER\nlombok.accessors.prefix += m\nlombok.accessors.prefix -= f\n";
        let far = "lombok.log.fieldName = far\nlombok.accessors.fluent = true\nlombok.accessors.prefix += f\nlombok.accessors.prefix += _\n";
        let c = Config::of_texts(&[near, far]);
        assert_eq!(c.get(LOG_FIELD_NAME), Some("LOGGER"));
        assert_eq!(c.flag(ACCESSORS_FLUENT), Some(true));
        assert_eq!(c.prefix(), ["_", "m"]);
    }

    #[test]
    fn clear_and_stop_bubbling_end_the_walk_upward() {
        let c = Config::of_texts(&[
            "clear lombok.accessors.prefix\nlombok.accessors.prefix += x",
            "lombok.accessors.prefix += f",
        ]);
        assert_eq!(c.prefix(), ["x"]);
        let c = Config::of_texts(&["clear lombok.log.fieldname", "lombok.Log.FieldName = far"]);
        assert_eq!(c.get(LOG_FIELD_NAME), None);
        let c = Config::of_texts(&["config.stopBubbling = true\n# a comment\n", "lombok.log.fieldName = far"]);
        assert!(c.is_default());
        // `=` on a list and `+=` on a scalar are refused, as Lombok reports them.
        let c = Config::of_texts(&["lombok.accessors.prefix = m\nlombok.log.fieldName += x"]);
        assert!(c.is_default());
    }

    #[test]
    fn a_resolver_reads_upward_to_the_root_only_and_forgets_a_changed_file() {
        let files: Arc<RwLock<HashMap<PathBuf, String>>> = Arc::default();
        let put = |p: &str, t: &str| files.write().expect("lock").insert(PathBuf::from(p), t.to_owned());
        put("/lombok.config", "lombok.log.fieldName = outside");
        put("/w/lombok.config", "lombok.accessors.fluent = true");
        put("/w/a/lombok.config", "lombok.log.fieldName = LOGGER");
        let seen = files.clone();
        let reads: Arc<std::sync::Mutex<Vec<PathBuf>>> = Arc::default();
        let log = reads.clone();
        let r = Resolver::new(
            vec![PathBuf::from("/w")],
            Box::new(move |p| {
                log.lock().expect("lock").push(p.to_owned());
                seen.read().expect("lock").get(p).map(|t| t.clone().into_bytes())
            }),
        );
        let c = r.for_file(Path::new("/w/a/b/X.java"));
        assert_eq!((c.get(LOG_FIELD_NAME), c.flag(ACCESSORS_FLUENT)), (Some("LOGGER"), Some(true)));
        assert_eq!(r.for_file(Path::new("/w/Y.java")).get(LOG_FIELD_NAME), None, "/lombok.config is outside the root");
        assert!(r.for_file(Path::new("/elsewhere/Z.java")).is_default());
        // Each directory's own file is read once, whatever the directories below it.
        r.for_file(Path::new("/w/a/c/V.java"));
        r.for_file(Path::new("/w/a/b/d/U.java"));
        let mut read = reads.lock().expect("lock").clone();
        read.sort();
        let want: Vec<PathBuf> = [
            "/w/a/b/d/lombok.config",
            "/w/a/b/lombok.config",
            "/w/a/c/lombok.config",
            "/w/a/lombok.config",
            "/w/lombok.config",
        ]
        .iter()
        .map(PathBuf::from)
        .collect();
        assert_eq!(read, want);
        let salt = r.salt(Path::new("/w/a/b/X.java"));
        assert_ne!(salt, 0);
        put("/w/a/lombok.config", "lombok.log.fieldName = L");
        assert_eq!(r.salt(Path::new("/w/a/b/X.java")), salt, "kept until forgotten");
        r.forget(Path::new("/w/a/lombok.config"));
        assert_eq!(r.for_file(Path::new("/w/a/b/X.java")).get(LOG_FIELD_NAME), Some("L"));
        assert_ne!(r.salt(Path::new("/w/a/b/X.java")), salt);
    }

    #[test]
    fn a_custom_log_declaration_names_its_logger_type() {
        let c = Config::of_texts(&["lombok.log.custom.declaration = my.Logger my.Factory.create(TYPE)(TOPIC,TYPE)"]);
        let log = c.custom_log().expect("declared");
        assert_eq!((log.ty.as_str(), log.with_topic, log.without_topic), ("my.Logger", true, true));
        let c = Config::of_texts(&["lombok.log.custom.declaration = my.Factory.create(NAME)"]);
        assert_eq!(c.custom_log().map(|l| l.ty), Some("my.Factory".to_owned()));
        let c = Config::of_texts(&["lombok.log.custom.declaration = my.Factory.create"]);
        assert_eq!(c.custom_log(), None);
    }
}
