//! Layered configuration, later layers winning: built-in defaults < the user's config file
//! (`$XDG_CONFIG_HOME/mcp-java-index/config.toml`, else `~/.config/…`) < `mcp-java-index.toml`
//! at the first root < `mcp-java-index.local.toml` beside it < `MCP_JAVA_INDEX_*` environment
//! variables < command-line flags. Built and validated once; immutable afterwards.
//!
//! Every key is declared once, in `settings!` below: its `Config` field, type, default,
//! documentation and who may set it. File loading, environment names, flags (the CLI builds
//! them from [`KEYS`]), `config`'s report and docs/configuration.md's table ([`reference`]) derive from it.
//!
//! Trust: the repository's own files are not trusted, and only narrow what the layers below
//! them give. A setting that executes code (javac options, annotation processing, which
//! workspaces are trusted) or writes or reads outside the project (`log_file`, `cache_dir`
//! outside the root or inside `.git`, Maven's local repository) is taken only from the user —
//! the user file, the environment, flags — and ignored with a warning when a repository file
//! sets it. The rest meet the user's value by meaning, declared per key ([`Merge`]): a
//! repository's `read_deny` adds to the user's, its `tools` only leave groups out, its limits
//! only lower; a key it replaces freely says why no value of it can widen what is read,
//! written, run or sent. docs/trust.md's table ([`trust_reference`]) lists every key's rule.
//! Running the build needs a trusted workspace.

mod key;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub use key::{Flag, Key, Merge};
use key::{Scope, Setting, fewer, inside_roots, lower, lower_but_zero_is_none, narrow_list, no_file, project, user};
use serde::Serialize;

/// The project configuration file, meant to be committed.
pub(crate) const PROJECT_FILE: &str = "mcp-java-index.toml";
/// Uncommitted local overrides.
pub(crate) const LOCAL_FILE: &str = "mcp-java-index.local.toml";
/// The user's configuration file, under `$XDG_CONFIG_HOME` (or `~/.config`).
pub const USER_FILE: &str = "mcp-java-index/config.toml";
/// Default cache directory name under a root.
pub(crate) const CACHE_DIR_NAME: &str = ".mcp-java-index-cache";

/// The lint warnings an IDE shows by default.
pub(crate) const DEFAULT_LINT: &str =
    "deprecation,removal,unchecked,rawtypes,cast,dep-ann,divzero,empty,fallthrough,finally,overrides,varargs";

/// The smallest answer budget: every answer's envelope and a few items fit in it.
pub(crate) const MIN_ANSWER_TOKENS: u64 = 500;
/// The largest answer budget: a whole model context (200,000 tokens, about 800 KB of text);
/// an answer longer than any model reads in one turn is paged, never sent.
pub const MAX_ANSWER_TOKENS: u64 = 200_000;

/// The groups of tools the server may list.
pub const TOOL_GROUPS: &[&str] = &["navigation", "problems", "build", "edit", "export", "editor"];

const LEVELS: &[&str] = &["error", "warn", "info", "debug", "trace"];
const RUNS: &str = "it can run code the repository chose";
const EDITS: &str = "it drives a program outside the project";

/// What `run_elisp` may call in allowlist mode unless the user lists otherwise: control
/// structure and queries that change nothing.
pub const DEFAULT_ELISP_ALLOWLIST: &[&str] = &[
    "progn",
    "prog1",
    "let",
    "let*",
    "if",
    "when",
    "unless",
    "and",
    "or",
    "not",
    "cond",
    "quote",
    "function",
    "lambda",
    "message",
    "format",
    "concat",
    "list",
    "length",
    "car",
    "cdr",
    "nth",
    "equal",
    "eq",
    "null",
    "+",
    "-",
    "=",
    "<",
    ">",
    "mapcar",
    "buffer-name",
    "buffer-list",
    "current-buffer",
    "buffer-file-name",
    "buffer-modified-p",
    "get-buffer",
    "find-buffer-visiting",
    "with-current-buffer",
    "point",
    "line-number-at-pos",
    "current-column",
    "emacs-version",
];

/// Where a setting's value came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Source {
    Default,
    File(PathBuf),
    Env(String),
    Flag(String),
}

/// Declares `Config` and [`KEYS`] from one entry per key:
/// `/// doc` `field: Type = default => who may set it (and renames);`.
macro_rules! settings {
    ($($(#[doc = $doc:literal])* $field:ident: $ty:ty = $default:expr => $meta:expr;)*) => {
        /// The effective configuration.
        #[derive(Debug, Clone, Serialize)]
        #[serde(rename_all = "camelCase")]
        pub struct Config {
            $($(#[doc = $doc])* pub $field: $ty,)*
            /// Settings a repository file tried to set and that were ignored, with the reason.
            pub ignored: Vec<String>,
            /// Where each value came from, by key name.
            #[serde(skip)]
            pub sources: BTreeMap<&'static str, Source>,
            /// The path keys a repository file set, which must stay inside [`Config::confinement`].
            #[serde(skip)]
            from_repository: std::collections::BTreeSet<&'static str>,
            /// The roots' real paths, which a repository's paths must stay inside.
            #[serde(skip)]
            real_roots: Vec<PathBuf>,
            /// `JAVA_HOME` and `PATH` as the environment gave them when the configuration was
            /// loaded: every JDK lookup reads them here (`mji_fs::jdk`), never the process again.
            #[serde(skip)]
            pub jdk_env: mji_fs::jdk::JdkEnv,
        }

        /// Every configuration key, in the order `config` and docs/configuration.md list them.
        pub const KEYS: &[Key] = &[$(Key {
            field: stringify!($field),
            doc: concat!($($doc, "\n"),*),
            kind: <$ty as Setting>::KIND,
            meta: $meta,
            default: || serde_json::to_value::<$ty>($default).unwrap_or_default(),
        }),*];

        impl Config {
            fn defaults() -> Config {
                let sources = KEYS.iter().map(|k| (k.name(), Source::Default)).collect();
                Config {
                    $($field: $default,)*
                    ignored: Vec::new(),
                    sources,
                    from_repository: Default::default(),
                    real_roots: Vec::new(),
                    jdk_env: Default::default(),
                }
            }

            fn set_field(&mut self, field: &str, value: toml::Value, dir: Option<&Path>) -> Result<(), String> {
                match field {
                    $(stringify!($field) => self.$field = Setting::parse(value, dir)?,)*
                    _ => return Err(format!("no setting `{field}`")),
                }
                Ok(())
            }

            /// Meets a repository's value of `field` (already in `self`) with `below`'s, by
            /// the key's [`Merge`].
            fn merge_field(&mut self, field: &str, below: &Config, how: Merge) -> Result<Option<String>, String> {
                match field {
                    $(stringify!($field) => Setting::merge(&mut self.$field, &below.$field, how),)*
                    _ => Err(format!("no setting `{field}`")),
                }
            }

            fn value_of(&self, field: &str) -> serde_json::Value {
                match field {
                    $(stringify!($field) => serde_json::json!(self.$field),)*
                    _ => serde_json::Value::Null,
                }
            }
        }
    };
}

settings! {
    /// Workspace roots; a relative path resolves against the root that holds it (under several:
    /// ambiguous, prefix the root's name). Default: the current directory.
    roots: Vec<PathBuf> = vec![PathBuf::from(".")] => no_file().flag("root");
    /// Persist outlines in a cache directory.
    cache: bool = true => lower();
    /// Cache directory; default `.mcp-java-index-cache` under each root.
    cache_dir: Option<PathBuf> = None
        => inside_roots("inside the roots it writes what the default cache directory would, only elsewhere");
    /// Record every protocol message received and sent, with timestamps.
    log_file: Option<PathBuf> = None
        => inside_roots("inside the roots it records only what the client and the server already exchanged");
    /// Level of the logs on stderr: error, warn, info, debug or trace (also `-v`, `-vv`,
    /// `-vvv`; `RUST_LOG` overrides).
    log_level: String = "warn".to_owned()
        => project("it chooses how much the server says about its own work on stderr, which only your client reads");
    /// How long a workspace search waits for the first indexing pass before answering with
    /// `complete: false` (ms).
    index_wait_ms: u64 = 5000 => lower();
    /// Watch the roots for changes (otherwise answers re-check only the files they return).
    watch: bool = true => lower();
    /// How long `get_problems` waits for javac before answering with what it has
    /// (`complete: false`, ms); the rest finishes in the background.
    problems_budget_ms: u64 = 25_000 => lower();
    /// After an applied edit, compile the edited files and the files of their modules that
    /// mention what changed with javac (before and after the write), and say whether they
    /// still compile (`compileCheck`).
    compile_after_apply: bool = true => lower();
    /// javac's `-Xlint:` categories for `get_problems` (empty: errors only, no lint warnings).
    javac_lint: String = DEFAULT_LINT.to_owned()
        => project("it is one `-Xlint:` argument, choosing which warnings javac reports on what it compiles anyway");
    /// More javac options for `get_problems`, added after ours.
    javac_options: Vec<String> = Vec::new() => user(RUNS);
    /// Classpath entries added to every project's (jars or class directories); a repository
    /// file may name only entries inside the roots.
    classpath: Vec<PathBuf> = Vec::new() => inside_roots("").adding();
    /// Maven's local repository (`-Dmaven.repo.local`); default Maven's own (~/.m2/repository).
    maven_repo_local: Option<PathBuf> = None => user("Maven writes into it, outside the project");
    /// Bind every file's references in the background once the server has indexed, so
    /// `find_references` answers from memory (off: files are bound by the queries that need them).
    warm_references: bool = true => lower();
    /// Gradle's user home, whose dependency cache `get_problems` reads for a Gradle build's
    /// libraries; default `$GRADLE_USER_HOME`, else `~/.gradle`.
    gradle_user_home: Option<PathBuf> = None => user("it is outside the project");
    /// The most bytes read from one file; larger files are refused or skipped with a reason.
    max_file_bytes: u64 = mji_fs::DEFAULT_MAX_FILE_BYTES => lower();
    /// The most memory, in MB, the references read back from the reference index's store may
    /// keep; the least recently used are dropped first and read again when needed (0: no bound).
    memory_budget_mb: u64 = 256 => user("it bounds the memory the server spends");
    /// Run annotation processors in `get_problems` (needs a trusted workspace; off: `-proc:none`).
    annotation_processing: bool = false => user(RUNS);
    /// Workspace roots the user trusts to run their build.
    trusted_roots: Vec<PathBuf> = Vec::new() => user("a workspace cannot trust itself");
    /// Whether the workspace is trusted to run its build (Maven, which executes the
    /// repository's plugins): given for this run, or every root is under a trusted root.
    trusted: bool = false => no_file().env("TRUST").flag("trust");
    /// The token budget of one tool answer (at least 500, at most 200,000: a whole model
    /// context): a longer answer is paged.
    answer_tokens: u64 = 20_000 => lower();
    /// Send each answer's JSON as `structuredContent` (and declare `outputSchema`) beside the
    /// compact text. false sends the text only, which costs a fraction of the tokens for
    /// clients that pass the JSON to the model instead of the text. Unset, Claude Code, Codex
    /// and opencode (which do) get the text only and every other client both; set, it holds
    /// for every client.
    structured_content: bool = true
        => project("it chooses the form of the answers, not what they hold or what is read to make them");
    /// The tool groups the server lists, of navigation, problems, build, edit, export, editor
    /// (commas separate them too).
    tool_groups: Vec<String> = TOOL_GROUPS.iter().map(|g| (*g).to_owned()).collect() => fewer().key("tools");
    /// The editor the editor tools drive: auto (a running Emacs server, else editor_command,
    /// else VS Code when the server runs in its terminal), emacs, vscode, command or none.
    editor: String = "auto".to_owned() => user(EDITS);
    /// The Emacs server, as `emacsclient -s` takes it: a name or a socket path (unset:
    /// `EMACS_SOCKET_NAME`, else `server`).
    emacs_socket: String = String::new() => user(EDITS);
    /// Another editor's command line, an argv run without a shell: `{file}`, `{line}` and
    /// `{column}` (1-based) are replaced, e.g. ["subl", "{file}:{line}:{column}"].
    editor_command: Vec<String> = Vec::new() => user(RUNS);
    /// The longest one editor call may take (ms); a busy editor is an error, never a hang.
    editor_timeout_ms: u64 = 5000 => lower();
    /// Reload the editor's buffers of the files the server's own edits change (buffers with
    /// unsaved changes are left alone).
    editor_auto_reload: bool = true => lower();
    /// run_elisp's safety mode: off, allowlist (every function the form names must be in
    /// elisp_allowlist), confirm (the user answers y-or-n-p in Emacs) or dry_run.
    run_elisp: String = "off".to_owned() => user("it runs code in the user's editor");
    /// The functions, macros and special forms run_elisp may name in allowlist mode.
    elisp_allowlist: Vec<String> = DEFAULT_ELISP_ALLOWLIST.iter().map(|s| (*s).to_owned()).collect()
        => user("it runs code in the user's editor");
    /// How long run_elisp's confirm mode waits for the user's answer (ms); no answer refuses.
    elisp_confirm_ms: u64 = 30_000 => lower();
    /// How long `run_tests` and `maven_goal` wait for the build before answering with a
    /// `runId` (ms); the run goes on, `get_test_results` waits again.
    build_wait_ms: u64 = 25_000 => lower();
    /// The Maven goals `maven_goal` may run (`help:*`: every goal of that plugin).
    maven_goals: Vec<String> = DEFAULT_MAVEN_GOALS.iter().map(|g| (*g).to_owned()).collect() => user(RUNS);
    /// How long the shared server (`serve --shared`, started by `bridge`) keeps running with no
    /// client connected and no request (seconds; 0: until stopped).
    shared_idle_secs: u64 = 900 => lower_but_zero_is_none();
    /// The command line's query commands (`find`, `types`, `refs`, `range`, …) send their call to
    /// the workspace's running shared server when there is one and no other setting is given on
    /// the command line (off, `--no-daemon`: always answer in this process).
    daemon: bool = true => lower();
    /// A query command that finds no running shared server starts one in the background (as
    /// `bridge` does) and answers in its own process, so the next command is answered warm.
    daemon_start: bool = false => user("it starts a background process").flag("daemon");
    /// The Gradle tasks `gradle_task` may run (also as `:project:task`).
    gradle_tasks: Vec<String> = DEFAULT_GRADLE_TASKS.iter().map(|g| (*g).to_owned()).collect() => user(RUNS);
    /// Globs of files inside the roots to serve although they look like secrets (`.git/`
    /// internals, `.env`, private keys and keystores, credential files are never read, listed or
    /// searched otherwise), matched against the path relative to its root as in `.gitignore`:
    /// e.g. ["src/test/resources/*.jks", "/.env.example"].
    read_allow: Vec<String> = Vec::new() => user("it would let a repository unlock its own secrets for the agent");
    /// More globs of files inside the roots never to read, list or search (as `read_allow`; wins
    /// over it).
    read_deny: Vec<String> = Vec::new() => narrow_list();
    /// The most entries read from one library archive (a jar, zip or jmod); an archive with
    /// more is read in part, and the answers that list library types say so.
    max_archive_entries: u64 = 100_000 => lower_but_zero_is_none();
}

/// The goals `maven_goal` runs unless the user lists others.
pub const DEFAULT_MAVEN_GOALS: &[&str] = &[
    "validate",
    "compile",
    "test-compile",
    "test",
    "package",
    "verify",
    "dependency:tree",
    "dependency:build-classpath",
    "clean",
    "help:*",
];

/// The tasks `gradle_task` runs unless the user lists others.
pub const DEFAULT_GRADLE_TASKS: &[&str] = &[
    "help",
    "tasks",
    "projects",
    "dependencies",
    "properties",
    "compileJava",
    "compileTestJava",
    "classes",
    "testClasses",
    "jar",
    "assemble",
    "test",
    "check",
    "build",
    "clean",
];

/// Values given on the command line, by key name, as text: one item per occurrence.
#[derive(Debug, Clone, Default)]
pub struct Flags {
    given: Vec<(String, Vec<String>)>,
}

impl Flags {
    /// Flags giving the workspace roots (`--root`).
    pub fn roots<P: AsRef<Path>>(roots: impl IntoIterator<Item = P>) -> Flags {
        let mut f = Flags::default();
        f.give("roots", roots.into_iter().map(|r| r.as_ref().to_string_lossy().into_owned()).collect());
        f
    }

    /// These flags and one setting, as its flag would give it (`set("watch", false)`).
    pub fn set(mut self, key: &str, value: impl ToString) -> Flags {
        self.give(key, vec![value.to_string()]);
        self
    }

    /// Records a flag's values; a later one for the same key wins.
    pub fn give(&mut self, key: &str, values: Vec<String>) {
        self.given.push((key.to_owned(), values));
    }

    /// The values the last flag for this key gave.
    pub fn get(&self, key: &str) -> Option<&[String]> {
        self.given.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.as_slice())
    }

    /// Whether a flag gave this key.
    pub fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// The keys the flags gave.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.given.iter().map(|(k, _)| k.as_str())
    }
}

/// A configuration that could not be built; says which layer and what.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("reading {path}: {reason}")]
    File { path: PathBuf, reason: String },
    #[error("environment variable {var}: {reason}")]
    Env { var: String, reason: String },
    #[error("flag {flag}: {reason}")]
    Flag { flag: String, reason: String },
    #[error("{setting}: {reason} (set by {source_desc})")]
    Invalid { setting: &'static str, reason: String, source_desc: String },
}

impl Config {
    /// Builds the configuration from all layers. `env` is the process environment (a
    /// parameter so tests can give their own).
    pub fn load(flags: &Flags, env: &dyn Fn(&str) -> Option<String>) -> Result<Config, ConfigError> {
        if let Some((k, _)) = flags.given.iter().find(|(k, _)| key_named(k).is_none()) {
            return Err(ConfigError::Flag { flag: k.clone(), reason: "is no configuration key".to_owned() });
        }
        let mut c = Config::defaults();
        // Read here, once, from the process (not through `env`, which is the settings'
        // variables); a caller that needs another JDK sets `jdk_env`.
        c.jdk_env = mji_fs::jdk::JdkEnv::from_process();
        // What no file sets comes first: the files live at the first root.
        for key in KEYS.iter().filter(|k| !k.in_files()) {
            c.apply_outer(key, flags, env)?;
        }
        if c.roots.is_empty() {
            c.roots.push(PathBuf::from("."));
        }
        let base = c.roots[0].clone();
        if let Some(user) = user_file(env)
            && user.is_file()
        {
            c.apply_file(&user)?;
        }
        c.real_roots = c.roots.iter().map(|r| std::fs::canonicalize(r).unwrap_or_else(|_| r.clone())).collect();
        for name in [PROJECT_FILE, LOCAL_FILE] {
            let path = base.join(name);
            if path.is_file() {
                c.apply_repository_file(&path);
            }
        }
        for key in KEYS.iter().filter(|k| k.in_files()) {
            c.apply_outer(key, flags, env)?;
        }
        if !c.trusted && !c.trusted_roots.is_empty() {
            let trusted: Vec<PathBuf> =
                c.trusted_roots.iter().map(|t| std::fs::canonicalize(t).unwrap_or_else(|_| t.clone())).collect();
            if c.real_roots.iter().all(|r| trusted.iter().any(|t| r.starts_with(t))) {
                c.trusted = true;
                let src = c.sources.get("trusted_roots").cloned().unwrap_or(Source::Default);
                c.sources.insert("trusted", src);
            }
        }
        c.validate()?;
        Ok(c)
    }

    /// Applies a key's environment variable, then its flag.
    fn apply_outer(
        &mut self,
        key: &Key,
        flags: &Flags,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<(), ConfigError> {
        let var = key.env_var();
        let env_err = |reason| ConfigError::Env { var: var.clone(), reason };
        if let Some(text) = env(&var)
            && let Some(value) = key.kind.parse_env(&text).map_err(env_err)?
        {
            self.assign(key, value, None, Source::Env(var.clone())).map_err(env_err)?;
        }
        if let Some(items) = flags.get(key.name()) {
            let flag = format!("--{}", key.flag().long);
            let flag_err = |reason| ConfigError::Flag { flag: flag.clone(), reason };
            let value = key.kind.parse_flag(items).map_err(flag_err)?;
            self.assign(key, value, None, Source::Flag(flag.clone())).map_err(flag_err)?;
        }
        Ok(())
    }

    fn assign(&mut self, key: &Key, value: toml::Value, dir: Option<&Path>, src: Source) -> Result<(), String> {
        self.set_field(key.field, value, dir)?;
        self.sources.insert(key.name(), src);
        self.from_repository.remove(key.name());
        Ok(())
    }

    /// Applies the user's own configuration file: any error in it stops the load, naming it.
    fn apply_file(&mut self, path: &Path) -> Result<(), ConfigError> {
        let err = |reason: String| ConfigError::File { path: path.to_path_buf(), reason };
        let table = read_table(path).map_err(err)?;
        let dir = path.parent().unwrap_or(Path::new("."));
        for (name, value) in table {
            let Some(key) = key_named(&name).filter(|k| k.in_files()) else {
                return Err(err(unknown_key(&name)));
            };
            self.assign(key, value, Some(dir), Source::File(path.to_path_buf()))
                .map_err(|e| err(format!("`{name}`: {e}")))?;
        }
        Ok(())
    }

    /// Applies a repository's configuration file, which never stops the server: a file that
    /// does not parse is ignored whole, and each key that is unknown, has a wrong or invalid
    /// value, or may not be set by a repository is ignored, with the reason in [`Config::ignored`];
    /// the file's other keys still apply.
    fn apply_repository_file(&mut self, path: &Path) {
        let table = match read_table(path) {
            Ok(t) => t,
            Err(why) => {
                self.ignored.push(format!("ignored {} whole: {why}; fix it to apply its settings", path.display()));
                return;
            }
        };
        let dir = path.parent().unwrap_or(Path::new("."));
        for (name, value) in table {
            let why = match key_named(&name).filter(|k| k.in_files()) {
                None => Err(unknown_key(&name)),
                Some(key) => match untrusted(key, &value, dir, &self.real_roots) {
                    Some(why) => Err(format!(
                        "the workspace's own files are untrusted and {why}; set it in the user config ({USER_FILE}), the environment or a flag instead"
                    )),
                    None => self.try_assign(key, value, dir, path),
                },
            };
            match why {
                Ok(None) => {}
                Ok(Some(why)) | Err(why) => {
                    self.ignored.push(format!("ignored `{}` from {}: {why}", mji_fs::clip(&name), path.display()))
                }
            }
        }
    }

    /// Sets a repository file's value if it is valid, met with the value below it by the key's
    /// [`Merge`] (a repository only narrows), else leaves the setting as it was. Ok(Some(why))
    /// when part of the value was left out.
    fn try_assign(
        &mut self,
        key: &'static Key,
        value: toml::Value,
        dir: &Path,
        path: &Path,
    ) -> Result<Option<String>, String> {
        self.normalize();
        let mut trial = self.clone();
        trial.assign(key, value, Some(dir), Source::File(path.to_path_buf()))?;
        trial.normalize();
        // A limit's own check comes after the merge, so a value above it names the one kept.
        if let (Merge::Replace(_) | Merge::Add | Merge::Fewer, Some(why)) = (key.meta.merge, trial.problem(key.name()))
        {
            return Err(why);
        }
        let note = trial.merge_field(key.field, self, key.meta.merge)?;
        if let Some(why) = trial.problem(key.name()) {
            return Err(why);
        }
        if key.meta.scope == Scope::InsideRoots {
            trial.from_repository.insert(key.name());
        }
        *self = trial;
        Ok(note)
    }

    /// The roots that a path setting must stay inside because a repository file set it (their
    /// real paths), or None when the value is the user's own choice, which may point anywhere.
    pub fn confinement(&self, key: &str) -> Option<&[PathBuf]> {
        self.from_repository.contains(key).then_some(self.real_roots.as_slice())
    }

    fn validate(&mut self) -> Result<(), ConfigError> {
        self.normalize();
        match KEYS.iter().find_map(|k| Some(k.name()).zip(self.problem(k.name()))) {
            Some((setting, reason)) => {
                Err(ConfigError::Invalid { setting, reason, source_desc: self.describe(setting) })
            }
            None => Ok(()),
        }
    }

    /// Puts the free-form values in their one spelling (lowercase modes, one group a name).
    fn normalize(&mut self) {
        self.log_level = self.log_level.trim().to_ascii_lowercase();
        self.editor = self.editor.trim().to_ascii_lowercase();
        self.run_elisp = self.run_elisp.trim().to_ascii_lowercase();
        self.tool_groups = self.tool_groups.iter().flat_map(|g| g.split(',')).map(|g| g.trim().to_owned()).collect();
        self.tool_groups.retain(|g| !g.is_empty());
    }

    /// What is wrong with one setting's (normalized) value, by key name.
    fn problem(&self, name: &str) -> Option<String> {
        match name {
            "log_level" if !LEVELS.contains(&self.log_level.as_str()) => {
                Some(format!("`{}` is not one of {}", mji_fs::clip(&self.log_level), LEVELS.join(", ")))
            }
            "max_file_bytes" if self.max_file_bytes == 0 => {
                Some("is 0; give the most bytes to read from one file (default 8388608)".to_owned())
            }
            "cache_dir" if self.cache_dir.as_ref().is_some_and(|d| d.as_os_str().is_empty()) => {
                Some("is empty".to_owned())
            }
            "tools" => match self.tool_groups.iter().find(|g| !TOOL_GROUPS.contains(&g.as_str())) {
                Some(g) => Some(format!(
                    "`{}` is not a tool group; the groups are {}",
                    mji_fs::clip(g),
                    TOOL_GROUPS.join(", ")
                )),
                None if self.tool_groups.is_empty() => {
                    Some(format!("lists no tool group; give some of {}", TOOL_GROUPS.join(", ")))
                }
                None => None,
            },
            "answer_tokens" if self.answer_tokens < MIN_ANSWER_TOKENS => {
                Some(format!("is {}, below the least useful budget of {MIN_ANSWER_TOKENS} tokens", self.answer_tokens))
            }
            "answer_tokens" if self.answer_tokens > MAX_ANSWER_TOKENS => Some(format!(
                "is {}, above the most any model reads in one answer ({MAX_ANSWER_TOKENS} tokens); longer answers are paged",
                self.answer_tokens
            )),
            "editor" if !["auto", "emacs", "vscode", "command", "none"].contains(&self.editor.as_str()) => {
                Some(format!("`{}` is not one of auto, emacs, vscode, command, none", mji_fs::clip(&self.editor)))
            }
            "run_elisp" if !["off", "allowlist", "confirm", "dry_run"].contains(&self.run_elisp.as_str()) => {
                Some(format!("`{}` is not one of off, allowlist, confirm, dry_run", mji_fs::clip(&self.run_elisp)))
            }
            _ => None,
        }
    }

    /// Where a setting came from, in words; `key` is its name (`log_level`) or the report's
    /// (`logLevel`).
    pub fn describe(&self, key: &str) -> String {
        match self.sources.get(snake(key).as_str()) {
            Some(Source::Default) | None => "default".to_owned(),
            Some(Source::File(p)) => p.display().to_string(),
            Some(Source::Env(v)) => format!("environment {v}"),
            Some(Source::Flag(f)) => format!("flag {f}"),
        }
    }

    /// The cache directory for a root (the configured one, or `.mcp-java-index-cache` in it).
    pub fn cache_dir_for(&self, root: &Path) -> PathBuf {
        self.cache_dir.clone().unwrap_or_else(|| root.join(CACHE_DIR_NAME))
    }

    /// The effective settings with their sources, for `mcp-java-index config`: each key
    /// spelled as the configuration file spells it (`log_level`).
    pub fn report(&self) -> serde_json::Value {
        let mut out = serde_json::Map::new();
        for k in KEYS {
            let entry = serde_json::json!({ "value": self.value_of(k.field), "source": self.describe(k.name()) });
            out.insert(k.name().to_owned(), entry);
        }
        out.insert("ignored".to_owned(), serde_json::json!(self.ignored));
        serde_json::Value::Object(out)
    }
}

/// The table of every key in docs/configuration.md.
pub fn reference() -> String {
    key::reference(KEYS)
}

/// The table of every key with how a repository file may change it, in docs/trust.md.
pub fn trust_reference() -> String {
    key::trust_reference(KEYS)
}

/// What a repository's files widened, if anything, one line a key: `below` is the
/// configuration loaded without them, `merged` with them (the same user file, environment and
/// flags). It judges the values only, by each key's rule, never how they were merged: the
/// property test below and the `settings_merge` fuzz target (fuzz/harness.rs) assert it is empty.
#[doc(hidden)]
pub fn widened(below: &Config, merged: &Config) -> Vec<String> {
    use serde_json::Value;
    let (b, m) = (below.report(), merged.report());
    let strings = |v: &Value| -> Vec<String> {
        v.as_array().map(|a| a.iter().map(|i| i.to_string()).collect()).unwrap_or_default()
    };
    let mut out = Vec::new();
    for k in KEYS {
        let (bv, mv) = (&b[k.name()]["value"], &m[k.name()]["value"]);
        let bad = match (k.refused(), k.merge()) {
            (Some(_), _) => bv != mv,
            (None, Merge::Replace(_)) => false,
            (None, Merge::Lower { zero_unbounded }) => match (bv, mv) {
                (Value::Bool(b), Value::Bool(m)) => *m && !*b,
                (Value::Number(b), Value::Number(m)) => {
                    let rank = |n: &serde_json::Number| match n.as_u64() {
                        Some(0) if zero_unbounded => u64::MAX,
                        n => n.unwrap_or(u64::MAX),
                    };
                    rank(m) > rank(b)
                }
                _ => true,
            },
            (None, Merge::Add) => {
                let m = strings(mv);
                strings(bv).iter().any(|i| !m.contains(i))
            }
            (None, Merge::Fewer) => {
                let b = strings(bv);
                strings(mv).iter().any(|i| !b.contains(i))
            }
        };
        if bad {
            out.push(format!("`{}`: {bv} became {mv}", k.name()));
        }
        if k.confined() && bv != mv {
            let paths = match mv {
                Value::Array(a) => a.iter().filter(|p| !strings(bv).contains(&p.to_string())).collect(),
                v => vec![v],
            };
            for p in paths.into_iter().filter_map(Value::as_str) {
                let p = Path::new(p);
                if mji_fs::confine::inside(p, &merged.real_roots).is_err() || in_git(p, p, &merged.real_roots) {
                    out.push(format!("`{}`: {} is outside the roots or inside `.git`", k.name(), p.display()));
                }
            }
        }
    }
    if merged.answer_tokens > MAX_ANSWER_TOKENS {
        out.push(format!("`answer_tokens`: {} is above {MAX_ANSWER_TOKENS}", merged.answer_tokens));
    }
    out
}

fn key_named(name: &str) -> Option<&'static Key> {
    KEYS.iter().find(|k| k.name() == name)
}

/// Why a repository file may not set this value, if it may not.
fn untrusted(key: &Key, value: &toml::Value, dir: &Path, roots: &[PathBuf]) -> Option<&'static str> {
    match key.meta.scope {
        Scope::User(why) => Some(why),
        Scope::InsideRoots => {
            let paths = match value {
                toml::Value::Array(a) => a.iter().filter_map(toml::Value::as_str).collect(),
                v => v.as_str().into_iter().collect::<Vec<_>>(),
            };
            if paths.iter().any(|p| !inside(dir, Path::new(p), roots)) {
                return Some("it points outside the workspace roots");
            }
            paths
                .iter()
                .any(|p| in_git(dir, Path::new(p), roots))
                .then_some("it points into a `.git` directory, whose files git reads and runs")
        }
        Scope::Project | Scope::NoFile => None,
    }
}

/// Whether `p`, relative to `dir`, leads inside a root: judged without following a link whose
/// target is missing (see [`mji_fs::confine`]).
fn inside(dir: &Path, p: &Path, roots: &[PathBuf]) -> bool {
    mji_fs::confine::inside(&dir.join(p), roots).is_ok()
}

/// Whether `p`, relative to `dir`, names or leads into a directory named `.git` (in any case),
/// as written or once its links are resolved.
fn in_git(dir: &Path, p: &Path, roots: &[PathBuf]) -> bool {
    let git = |path: &Path| path.components().any(|c| c.as_os_str().to_string_lossy().eq_ignore_ascii_case(".git"));
    let lexical = mji_fs::lexical_normalize(&dir.join(p));
    let below_root = |path: &Path| {
        roots.iter().filter_map(|r| path.strip_prefix(r).ok()).min_by_key(|r| r.as_os_str().len()).map(git)
    };
    let written = below_root(&lexical).unwrap_or_else(|| git(p));
    let real = match mji_fs::confine::inside(&dir.join(p), roots) {
        Ok((root, real)) => real.strip_prefix(&root).map(git).unwrap_or(true),
        Err(_) => true,
    };
    written || real
}

/// A configuration file's table, or why it cannot be read.
fn read_table(path: &Path) -> Result<toml::Table, String> {
    let bytes = mji_fs::read_regular(path, 1024 * 1024).map_err(|e| e.to_string())?;
    let text = String::from_utf8(bytes).map_err(|_| "is not UTF-8".to_owned())?;
    toml::from_str(&text).map_err(|e| e.message().to_owned())
}

fn unknown_key(name: &str) -> String {
    let known: Vec<&str> = KEYS.iter().filter(|k| k.in_files()).map(Key::name).collect();
    format!("unknown key `{}`, expected one of {}", mji_fs::clip(name), known.join(", "))
}

fn snake(camel: &str) -> String {
    camel.chars().fold(String::new(), |mut acc, c| {
        if c.is_ascii_uppercase() {
            acc.push('_');
        }
        acc.push(c.to_ascii_lowercase());
        acc
    })
}

/// The user's configuration file: `$XDG_CONFIG_HOME/mcp-java-index/config.toml`, else
/// `$HOME/.config/mcp-java-index/config.toml`.
pub(crate) fn user_file(env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let base = env("XDG_CONFIG_HOME")
        .filter(|v| Path::new(v).is_absolute())
        .map(PathBuf::from)
        .or_else(|| env("HOME").filter(|h| !h.is_empty()).map(|h| PathBuf::from(h).join(".config")))?;
    Some(base.join(USER_FILE))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_env(_: &str) -> Option<String> {
        None
    }

    #[test]
    fn layers_apply_in_order() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join(PROJECT_FILE), "cache = false\nlog_level = \"info\"\ncache_dir = \"c1\"\n")
            .expect("write");
        std::fs::write(dir.path().join(LOCAL_FILE), "log_level = \"debug\"\n").expect("write");
        let flags = Flags::roots([dir.path()]);
        let c = Config::load(&flags, &no_env).expect("config");
        assert!(!c.cache);
        assert_eq!(c.log_level, "debug");
        assert_eq!(c.cache_dir, Some(dir.path().join("c1")));
        assert!(c.describe("logLevel").ends_with(LOCAL_FILE));
        let env = |k: &str| (k == "MCP_JAVA_INDEX_LOG_LEVEL").then(|| "trace".to_owned());
        let c = Config::load(&flags, &env).expect("config");
        assert_eq!(c.log_level, "trace");
        assert_eq!(c.describe("logLevel"), "environment MCP_JAVA_INDEX_LOG_LEVEL");
        let flags = flags.set("log_level", "error");
        let c = Config::load(&flags, &env).expect("config");
        assert_eq!(c.log_level, "error");
    }

    #[test]
    fn problems_settings_layer_like_the_rest() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join(PROJECT_FILE), "javac_lint = \"deprecation\"\nclasspath = [\"lib/a.jar\"]\n")
            .expect("write");
        let home = tempfile::tempdir().expect("tempdir");
        let user = home.path().join(".config").join(USER_FILE);
        std::fs::create_dir_all(user.parent().expect("parent")).expect("mkdir");
        std::fs::write(&user, "javac_options = [\"--release\", \"11\"]\nmaven_repo_local = \"/repo\"\n")
            .expect("write");
        let flags = Flags::roots([dir.path()]);
        let home_s = home.path().to_string_lossy().into_owned();
        let with_home = |k: &str| (k == "HOME").then(|| home_s.clone());
        let c = Config::load(&flags, &with_home).expect("config");
        assert_eq!(c.javac_lint, "deprecation");
        assert_eq!(c.classpath, [dir.path().join("lib/a.jar")]);
        assert_eq!(c.javac_options, ["--release", "11"]);
        assert_eq!(c.maven_repo_local, Some(PathBuf::from("/repo")));
        assert_eq!(c.describe("javacOptions"), user.display().to_string());
        assert_eq!(c.problems_budget_ms, 25_000);
        let env = |k: &str| match k {
            "MCP_JAVA_INDEX_PROBLEMS_BUDGET_MS" => Some("7".to_owned()),
            "MCP_JAVA_INDEX_MAVEN_REPO_LOCAL" => Some("/m2".to_owned()),
            _ => None,
        };
        let c = Config::load(&flags, &env).expect("config");
        assert_eq!((c.problems_budget_ms, c.maven_repo_local.clone()), (7, Some(PathBuf::from("/m2"))));
        assert_eq!(c.describe("problemsBudgetMs"), "environment MCP_JAVA_INDEX_PROBLEMS_BUDGET_MS");
        let bad = |k: &str| (k == "MCP_JAVA_INDEX_PROBLEMS_BUDGET_MS").then(|| "soon".to_owned());
        assert!(Config::load(&flags, &bad).expect_err("bad budget").to_string().contains("soon"));
    }

    #[test]
    fn bad_values_name_the_layer() {
        let dir = tempfile::tempdir().expect("tempdir");
        let home = tempfile::tempdir().expect("tempdir");
        let user = home.path().join(".config").join(USER_FILE);
        std::fs::create_dir_all(user.parent().expect("parent")).expect("mkdir");
        let home_s = home.path().to_string_lossy().into_owned();
        let with_home = |k: &str| (k == "HOME").then(|| home_s.clone());
        let flags = Flags::roots([dir.path()]);
        // The user's own file fails fast, naming itself and the key.
        std::fs::write(&user, "colour = 3\n").expect("write");
        let e = Config::load(&flags, &with_home).expect_err("unknown key").to_string();
        assert!(e.contains(USER_FILE) && e.contains("colour"), "{e}");
        std::fs::write(&user, "log_level = \"loud\"\n").expect("write");
        let e = Config::load(&flags, &with_home).expect_err("bad level").to_string();
        assert!(e.contains("loud") && e.contains(USER_FILE), "{e}");
        std::fs::write(&user, "watch = \n").expect("write");
        let e = Config::load(&flags, &with_home).expect_err("bad toml").to_string();
        assert!(e.contains(USER_FILE), "{e}");
        std::fs::remove_file(&user).expect("rm");
        let env = |k: &str| (k == "MCP_JAVA_INDEX_CACHE").then(|| "maybe".to_owned());
        let e = Config::load(&flags, &env).expect_err("bad bool").to_string();
        assert!(e.contains("MCP_JAVA_INDEX_CACHE") && e.contains("maybe"), "{e}");
    }

    /// A repository's file never stops the load: each bad key or value is ignored with the
    /// reason, the file's valid keys still apply, and a file that does not parse is ignored whole.
    #[test]
    fn a_repository_file_never_stops_the_load() {
        let dir = tempfile::tempdir().expect("tempdir");
        let flags = Flags::roots([dir.path()]);
        let cases: &[(&str, &str)] = &[
            ("trusted = true\n", "unknown key `trusted`"),
            ("watch = \"yes\"\n", "`watch`"),
            ("log_level = \"loud\"\n", "`loud` is not one of"),
            ("tools = [\"navigation\", \"refactor\"]\n", "`refactor` is not a tool group"),
            ("answer_tokens = 3\n", "below the least useful budget"),
            ("editor_timeout_ms = -1\n", "`editor_timeout_ms`"),
        ];
        for (line, why) in cases {
            std::fs::write(dir.path().join(PROJECT_FILE), format!("{line}cache = false\n")).expect("write");
            let c = Config::load(&flags, &no_env).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert!(!c.cache, "{line}: the file's valid key still applies");
            assert!(c.ignored.iter().any(|i| i.contains(why) && i.contains(PROJECT_FILE)), "{line}: {:?}", c.ignored);
            assert!(c.watch && c.log_level == "warn" && c.answer_tokens == 20_000, "{line}: the default holds");
            assert_eq!(c.tool_groups.len(), TOOL_GROUPS.len(), "{line}");
        }
        std::fs::write(dir.path().join(PROJECT_FILE), "cache = false\nwatch = [\n").expect("write");
        let c = Config::load(&flags, &no_env).expect("a file that does not parse");
        assert!(c.cache, "ignored whole");
        assert!(c.ignored.iter().any(|i| i.contains("whole")), "{:?}", c.ignored);
        std::fs::write(dir.path().join(PROJECT_FILE), [0xff, 0xfe, b'\n']).expect("write");
        let c = Config::load(&flags, &no_env).expect("not UTF-8");
        assert!(c.ignored.iter().any(|i| i.contains("UTF-8")), "{:?}", c.ignored);
        // A long key is quoted by its prefix only.
        std::fs::write(dir.path().join(PROJECT_FILE), format!("{} = 1\n", "k".repeat(10_000))).expect("write");
        let c = Config::load(&flags, &no_env).expect("long key");
        assert!(c.ignored.iter().all(|i| i.len() < 1_000), "{:?}", c.ignored);
    }

    /// A repository's path keys stay inside the roots, judged without following a link whose
    /// target is missing; the user's may point anywhere.
    #[cfg(unix)]
    #[test]
    fn a_repository_path_stays_inside() {
        let dir = tempfile::tempdir().expect("tempdir");
        let outside = tempfile::tempdir().expect("tempdir");
        let flags = Flags::roots([dir.path()]);
        std::os::unix::fs::symlink(outside.path().join(".bash_profile"), dir.path().join("notes.log")).expect("link");
        std::os::unix::fs::symlink(outside.path().join("gone"), dir.path().join("c")).expect("link");
        std::fs::write(outside.path().join("secret.jar"), b"PK").expect("write");
        std::fs::create_dir(dir.path().join("logs")).expect("mkdir");
        std::fs::write(
            dir.path().join(PROJECT_FILE),
            format!(
                "log_file = \"notes.log\"\ncache_dir = \"c/cache\"\nclasspath = [\"lib/a.jar\", \"{}\"]\n",
                outside.path().join("secret.jar").display()
            ),
        )
        .expect("write");
        let c = Config::load(&flags, &no_env).expect("config");
        assert_eq!((c.log_file.clone(), c.cache_dir.clone()), (None, None), "{:?}", c.ignored);
        assert!(c.classpath.is_empty(), "{:?}", c.classpath);
        for key in ["log_file", "cache_dir", "classpath"] {
            assert!(c.ignored.iter().any(|i| i.contains(&format!("`{key}`"))), "{key}: {:?}", c.ignored);
        }
        std::fs::write(dir.path().join(PROJECT_FILE), "log_file = \"logs/notes.log\"\nclasspath = [\"lib/a.jar\"]\n")
            .expect("write");
        let c = Config::load(&flags, &no_env).expect("config");
        assert_eq!(c.log_file, Some(dir.path().join("logs/notes.log")));
        assert_eq!(c.classpath, [dir.path().join("lib/a.jar")]);
        let real = std::fs::canonicalize(dir.path()).expect("canon");
        assert_eq!(c.confinement("log_file"), Some(std::slice::from_ref(&real)));
        // The user's own choice (here a flag) is not confined.
        let c = Config::load(&flags.clone().set("log_file", outside.path().join("x.log").display()), &no_env)
            .expect("config");
        assert_eq!(c.confinement("log_file"), None);
    }

    #[test]
    fn names_derive_from_the_declaration() {
        let key = |n: &str| key_named(n).expect("key");
        let flag = |n: &str| key(n).flag();
        assert_eq!(key("index_wait_ms").env_var(), "MCP_JAVA_INDEX_INDEX_WAIT_MS");
        assert_eq!(
            (key("trusted").env_var(), flag("trusted").long),
            ("MCP_JAVA_INDEX_TRUST".to_owned(), "trust".to_owned())
        );
        assert_eq!((flag("cache").long, flag("cache").value_name), ("no-cache".to_owned(), None));
        assert_eq!(flag("annotation_processing").long, "annotation-processing");
        assert_eq!((flag("roots").long, flag("roots").repeatable), ("root".to_owned(), true));
        assert_eq!((flag("cache_dir").long, flag("cache_dir").value_name), ("cache-dir".to_owned(), Some("PATH")));
        assert!(flag("cache_dir").help.contains("[env: MCP_JAVA_INDEX_CACHE_DIR]"));
        assert_eq!(key("tools").field, "tool_groups");
        assert_eq!(
            (key("cache").switch_value(), key("trusted").switch_value()),
            ("false".to_owned(), "true".to_owned())
        );
        let mut names: Vec<&str> = KEYS.iter().map(Key::name).collect();
        names.dedup();
        assert_eq!(names.len(), KEYS.len(), "two keys share a name");
    }

    #[test]
    fn new_keys_layer_and_validate() {
        let dir = tempfile::tempdir().expect("tempdir");
        let flags = Flags::roots([dir.path()]);
        let c = Config::load(&flags, &no_env).expect("config");
        assert_eq!((c.answer_tokens, c.tool_groups.len()), (20_000, TOOL_GROUPS.len()));
        std::fs::write(dir.path().join(PROJECT_FILE), "answer_tokens = 900\ntools = [\"navigation\"]\n")
            .expect("write");
        let c = Config::load(&flags, &no_env).expect("config");
        assert_eq!((c.answer_tokens, c.tool_groups.clone()), (900, vec!["navigation".to_owned()]));
        assert!(c.ignored.is_empty(), "{:?}", c.ignored);
        assert_eq!(c.report()["tools"]["value"], serde_json::json!(["navigation"]));
        let env = |k: &str| (k == "MCP_JAVA_INDEX_TOOLS").then(|| "problems,edit".to_owned());
        let c = Config::load(&flags, &env).expect("config");
        assert_eq!(c.tool_groups, ["problems", "edit"]);
        assert_eq!(c.describe("tools"), "environment MCP_JAVA_INDEX_TOOLS");
        let env = |k: &str| (k == "MCP_JAVA_INDEX_TOOLS").then(|| "navigation refactor".to_owned());
        let e = Config::load(&flags, &env).expect_err("bad group").to_string();
        assert!(e.contains("`refactor`") && e.contains("editor") && e.contains("MCP_JAVA_INDEX_TOOLS"), "{e}");
        let e = Config::load(&flags.clone().set("answer_tokens", "many"), &no_env).expect_err("bad flag").to_string();
        assert!(e.contains("--answer-tokens") && e.contains("many"), "{e}");
    }

    #[test]
    fn flags_switch_and_override() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join(PROJECT_FILE), "watch = true\n").expect("write");
        let flags = Flags::roots([dir.path()]).set("watch", false).set("cache_dir", "/c");
        let env = |k: &str| (k == "MCP_JAVA_INDEX_WATCH").then(|| "1".to_owned());
        let c = Config::load(&flags, &env).expect("config");
        assert!(!c.watch);
        assert_eq!(c.describe("watch"), "flag --no-watch");
        assert_eq!(c.cache_dir, Some(PathBuf::from("/c")));
        assert_eq!(c.describe("roots"), "flag --root");
        let e = Config::load(&flags.set("colour", 3), &no_env).expect_err("unknown").to_string();
        assert!(e.contains("colour"), "{e}");
    }

    /// A home whose user file holds `toml`, and the environment that finds it.
    fn home_with(toml: &str) -> (tempfile::TempDir, impl Fn(&str) -> Option<String>) {
        let home = tempfile::tempdir().expect("tempdir");
        let user = home.path().join(".config").join(USER_FILE);
        std::fs::create_dir_all(user.parent().expect("parent")).expect("mkdir");
        std::fs::write(&user, toml).expect("write");
        let home_s = home.path().to_string_lossy().into_owned();
        (home, move |k: &str| (k == "HOME").then(|| home_s.clone()))
    }

    /// A repository's file once replaced the user's values: its `read_deny = ["nothing-here"]`
    /// wiped out the user's own (and the files were served), its `tools` turned groups back on,
    /// its `answer_tokens = 10000000` was taken. Now each only narrows what lies below it.
    #[test]
    fn a_repository_only_narrows_what_the_user_set() {
        let dir = tempfile::tempdir().expect("tempdir");
        let flags = Flags::roots([dir.path()]);
        let (_home, env) = home_with(
            "read_deny = [\"secret/**\"]\ntools = [\"navigation\", \"problems\"]\nanswer_tokens = 900\ncache = false\nshared_idle_secs = 0\n",
        );
        std::fs::write(
            dir.path().join(PROJECT_FILE),
            "read_deny = [\"nothing-here\"]\ntools = [\"navigation\", \"edit\", \"build\"]\nanswer_tokens = 10000000\n\
             cache = true\nshared_idle_secs = 60\nmax_file_bytes = 1000\n",
        )
        .expect("write");
        let c = Config::load(&flags, &env).expect("config");
        assert_eq!(c.read_deny, ["secret/**", "nothing-here"], "the user's deny stays, the repository's adds");
        assert_eq!(c.tool_groups, ["navigation"], "groups off for the user stay off");
        assert_eq!((c.answer_tokens, c.cache), (900, false));
        assert_eq!(c.shared_idle_secs, 60, "60 s is lower than the user's 0 (no limit)");
        assert_eq!(c.max_file_bytes, 1000, "a repository may lower the cap");
        let ignored = c.ignored.join("\n");
        assert!(ignored.contains("`tools`") && ignored.contains("`edit`") && ignored.contains("`build`"), "{ignored}");
        assert!(
            ignored.contains("`answer_tokens`") && ignored.contains("10000000") && ignored.contains("900"),
            "{ignored}"
        );
        assert!(ignored.contains("`cache`") && ignored.contains("only lower"), "{ignored}");
        assert!(!ignored.contains("`read_deny`") && !ignored.contains("`max_file_bytes`"), "{ignored}");
        // Without a user file: the defaults are what lies below.
        std::fs::write(
            dir.path().join(PROJECT_FILE),
            "answer_tokens = 10000000\nshared_idle_secs = 0\nmax_file_bytes = 99999999999\ntools = [\"edit\"]\n",
        )
        .expect("write");
        let c = Config::load(&flags, &no_env).expect("config");
        assert_eq!((c.answer_tokens, c.shared_idle_secs), (20_000, 900));
        assert_eq!(c.max_file_bytes, mji_fs::DEFAULT_MAX_FILE_BYTES);
        assert_eq!(c.tool_groups, ["edit"], "the default enables every group; a repository may keep one");
        for key in ["answer_tokens", "shared_idle_secs", "max_file_bytes"] {
            assert!(c.ignored.iter().any(|i| i.contains(&format!("`{key}`"))), "{key}: {:?}", c.ignored);
        }
        // The local file narrows what the committed one left.
        std::fs::write(dir.path().join(PROJECT_FILE), "tools = [\"navigation\", \"edit\"]\n").expect("write");
        std::fs::write(dir.path().join(LOCAL_FILE), "tools = [\"build\"]\nanswer_tokens = 1000\n").expect("write");
        let c = Config::load(&flags, &no_env).expect("config");
        assert_eq!((c.tool_groups.clone(), c.answer_tokens), (vec!["navigation".to_owned(), "edit".to_owned()], 1000));
        // The user's own environment and flags still replace.
        let env = |k: &str| (k == "MCP_JAVA_INDEX_TOOLS").then(|| "build".to_owned());
        assert_eq!(Config::load(&flags, &env).expect("config").tool_groups, ["build"]);
    }

    /// A repository's `log_file = ".git/config"` appended the log to git's configuration and
    /// broke the clone's git; no repository path may lead into a `.git` directory, in any case
    /// or through a link.
    #[cfg(unix)]
    #[test]
    fn a_repository_log_or_cache_never_goes_into_git() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join(".git/hooks")).expect("mkdir");
        std::fs::create_dir_all(dir.path().join("sub/.Git")).expect("mkdir");
        std::os::unix::fs::symlink(".git", dir.path().join("logs")).expect("link");
        let flags = Flags::roots([dir.path()]);
        for (key, value) in [
            ("log_file", ".git/config"),
            ("log_file", "./.GIT/config"),
            ("log_file", "logs/config"),
            ("log_file", "sub/.Git/x.log"),
            ("log_file", "sub/../.git/hooks/post-checkout"),
            ("cache_dir", ".git"),
            ("cache_dir", ".git/cache"),
            ("classpath", "[\".git/objects\"]"),
        ] {
            let line =
                if value.starts_with('[') { format!("{key} = {value}\n") } else { format!("{key} = {value:?}\n") };
            std::fs::write(dir.path().join(PROJECT_FILE), &line).expect("write");
            let c = Config::load(&flags, &no_env).expect("config");
            assert!(c.log_file.is_none() && c.cache_dir.is_none() && c.classpath.is_empty(), "{line}");
            assert!(
                c.ignored.iter().any(|i| i.contains(&format!("`{key}`")) && i.contains("`.git`")),
                "{line}: {:?}",
                c.ignored
            );
        }
        std::fs::write(dir.path().join(PROJECT_FILE), "log_file = \"git.log\"\ncache_dir = \".gitcache\"\n")
            .expect("write");
        let c = Config::load(&flags, &no_env).expect("config");
        assert_eq!(c.log_file, Some(dir.path().join("git.log")), "{:?}", c.ignored);
        assert_eq!(c.cache_dir, Some(dir.path().join(".gitcache")), "{:?}", c.ignored);
    }

    /// An answer budget no model reads in one turn is refused from anyone (a repository's is
    /// ignored, the user's stops the load), and the ceiling itself is accepted.
    #[test]
    fn answer_tokens_has_a_ceiling() {
        let dir = tempfile::tempdir().expect("tempdir");
        let flags = Flags::roots([dir.path()]);
        let e = Config::load(&flags.clone().set("answer_tokens", 10_000_000), &no_env).expect_err("too many");
        assert!(e.to_string().contains("200000") && e.to_string().contains("--answer-tokens"), "{e}");
        let c = Config::load(&flags.set("answer_tokens", MAX_ANSWER_TOKENS), &no_env).expect("the ceiling");
        assert_eq!(c.answer_tokens, MAX_ANSWER_TOKENS);
    }

    /// Property: for a grid of user × repository values of every key a file may name, the
    /// repository's file never widens what the user's configuration (or the default) gives, by
    /// each key's rule ([`widened`]); and a repository that asks for less gets it.
    #[test]
    fn a_repository_never_widens_a_grid_of_values() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join(".git")).expect("mkdir");
        let flags = Flags::roots([dir.path()]);
        let numbers = ["0", "1", "499", "500", "900", "20000", "200000", "10000000"];
        let bools = ["true", "false"];
        let lists = [
            "[]",
            "[\"navigation\"]",
            "[\"navigation\", \"edit\"]",
            "[\"build\", \"problems\", \"export\", \"editor\"]",
            "[\"*.txt\", \"secret/**\"]",
            "[\"lib/a.jar\", \"/elsewhere/b.jar\"]",
            "[\".git/x\"]",
        ];
        let texts = ["\"warn\"", "\"debug\"", "\"x\"", "\"\""];
        let paths = ["\"logs/a.log\"", "\".git/config\"", "\"/elsewhere/x\"", "\"\""];
        let (home, _) = home_with("");
        let user_file = home.path().join(".config").join(USER_FILE);
        let home_s = home.path().to_string_lossy().into_owned();
        let env = |k: &str| (k == "HOME").then(|| home_s.clone());
        let mut checked = 0;
        let mut narrowed = 0;
        for key in KEYS.iter().filter(|k| k.in_files()) {
            let values: &[&str] = match key.kind {
                key::Kind::Bool => &bools,
                key::Kind::Number => &numbers,
                key::Kind::Text => &texts,
                key::Kind::Path => &paths,
                key::Kind::Texts | key::Kind::Paths => &lists,
            };
            for user in values.iter().map(Some).chain([None]) {
                let user_toml = user.map(|u| format!("{} = {u}\n", key.name())).unwrap_or_default();
                std::fs::write(&user_file, &user_toml).expect("write");
                let _ = std::fs::remove_file(dir.path().join(PROJECT_FILE));
                let Ok(below) = Config::load(&flags, &env) else { continue };
                for repo in values {
                    std::fs::write(dir.path().join(PROJECT_FILE), format!("{} = {repo}\n", key.name())).expect("write");
                    let merged = Config::load(&flags, &env)
                        .unwrap_or_else(|e| panic!("user {user_toml:?}, repository {repo}: the load failed: {e}"));
                    let wide = widened(&below, &merged);
                    assert!(wide.is_empty(), "user {user_toml:?}, repository {} = {repo}: {wide:?}", key.name());
                    checked += 1;
                    if merged.value_of(key.field) != below.value_of(key.field) {
                        narrowed += 1;
                    }
                }
            }
        }
        assert!(checked > 500 && narrowed > 50, "the grid ran {checked} pairs, {narrowed} changed a value");
    }

    /// docs/trust.md's table is [`trust_reference`]'s; `UPDATE_DOCS=1` rewrites it.
    #[test]
    fn the_trust_page_lists_every_key_with_its_rule() {
        const START: &str = "<!-- trust-reference: generated from crates/config, do not edit -->\n";
        const END: &str = "<!-- end trust-reference -->";
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/trust.md");
        let page = std::fs::read_to_string(&path).expect("docs/trust.md");
        let start = page.find(START).expect("docs/trust.md has the start marker") + START.len();
        let end = start + page[start..].find(END).expect("docs/trust.md has the end marker");
        let want = trust_reference();
        for k in KEYS {
            assert!(want.contains(&format!("| `{}` |", k.name())), "{}", k.name());
            if let (None, Merge::Replace(why)) = (k.refused(), k.merge()) {
                assert!(!why.is_empty(), "`{}`: a key a repository replaces says why it cannot widen", k.name());
            }
        }
        if page[start..end] != want {
            if std::env::var_os("UPDATE_DOCS").is_some() {
                std::fs::write(&path, format!("{}{want}{}", &page[..start], &page[end..]))
                    .expect("write docs/trust.md");
            } else {
                panic!("docs/trust.md's table is stale: run `UPDATE_DOCS=1 cargo test -p mji-config`");
            }
        }
    }

    /// docs/configuration.md's table is [`reference`]'s; `UPDATE_DOCS=1` rewrites it.
    #[test]
    fn the_configuration_page_lists_every_key() {
        const START: &str = "<!-- config-reference: generated from crates/config, do not edit -->\n";
        const END: &str = "<!-- end config-reference -->";
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/configuration.md");
        let page = std::fs::read_to_string(&path).expect("docs/configuration.md");
        let start = page.find(START).expect("docs/configuration.md has the start marker") + START.len();
        let end = start + page[start..].find(END).expect("docs/configuration.md has the end marker");
        let want = reference();
        for k in KEYS {
            assert!(want.contains(&format!("| `{}` |", k.name())), "{}", k.name());
        }
        if page[start..end] != want {
            if std::env::var_os("UPDATE_DOCS").is_some() {
                std::fs::write(&path, format!("{}{want}{}", &page[..start], &page[end..]))
                    .expect("write docs/configuration.md");
            } else {
                panic!(
                    "docs/configuration.md's table is stale: run `UPDATE_DOCS=1 cargo test -p mji-config` or paste `mcp-java-index config --reference`"
                );
            }
        }
    }

    /// A repository cannot turn run_elisp on, widen its allowlist or choose the command the
    /// editor tools run; the user can. Bad modes name the key.
    #[test]
    fn the_editor_settings_are_the_users() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(
            dir.path().join(PROJECT_FILE),
            "run_elisp = \"allowlist\"\nelisp_allowlist = [\"delete-file\"]\neditor_command = [\"sh\", \"-c\", \"x\"]\n\
             editor = \"command\"\nemacs_socket = \"/tmp/x\"\neditor_auto_reload = false\n",
        )
        .expect("write");
        let flags = Flags::roots([dir.path()]);
        let c = Config::load(&flags, &no_env).expect("config");
        assert_eq!((c.run_elisp.as_str(), c.editor.as_str(), c.emacs_socket.as_str()), ("off", "auto", ""));
        assert!(c.editor_command.is_empty() && !c.elisp_allowlist.contains(&"delete-file".to_owned()));
        assert!(!c.editor_auto_reload, "a project may turn auto reload off");
        for key in ["run_elisp", "elisp_allowlist", "editor_command", "editor", "emacs_socket"] {
            assert!(c.ignored.iter().any(|i| i.contains(&format!("`{key}`"))), "{key}: {:?}", c.ignored);
        }
        let env = |k: &str| (k == "MCP_JAVA_INDEX_RUN_ELISP").then(|| "Confirm".to_owned());
        assert_eq!(Config::load(&flags, &env).expect("config").run_elisp, "confirm");
        let env = |k: &str| (k == "MCP_JAVA_INDEX_RUN_ELISP").then(|| "always".to_owned());
        let e = Config::load(&flags, &env).expect_err("bad mode").to_string();
        assert!(e.contains("always") && e.contains("MCP_JAVA_INDEX_RUN_ELISP"), "{e}");
        let e = Config::load(&flags.set("editor", "vim"), &no_env).expect_err("bad editor").to_string();
        assert!(e.contains("vim") && e.contains("--editor"), "{e}");
    }
}
