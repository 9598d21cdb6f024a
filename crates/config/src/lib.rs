//! Layered configuration, later layers winning: built-in defaults < the user's config file
//! (`$XDG_CONFIG_HOME/mcp-java-index/config.toml`, else `~/.config/…`) < `mcp-java-index.toml`
//! at the first root < `mcp-java-index.local.toml` beside it < `MCP_JAVA_INDEX_*` environment
//! variables < command-line flags. Built and validated once; immutable afterwards.
//!
//! Trust: the repository's own files are not trusted. A setting that executes code (javac
//! options, annotation processing, which workspaces are trusted) or writes or reads outside the
//! project (`log_file`, `cache_dir` outside the root, Maven's local repository, the size cap)
//! is taken only from the user — the user file, the environment, flags — and ignored with a
//! warning when a repository file sets it. Running the build needs a trusted workspace.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The project configuration file, meant to be committed.
pub const PROJECT_FILE: &str = "mcp-java-index.toml";
/// Uncommitted local overrides.
pub const LOCAL_FILE: &str = "mcp-java-index.local.toml";
/// The user's configuration file, under `$XDG_CONFIG_HOME` (or `~/.config`).
pub const USER_FILE: &str = "mcp-java-index/config.toml";
/// Default cache directory name under a root.
pub const CACHE_DIR_NAME: &str = ".mcp-java-index-cache";

/// Where a setting's value came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Source {
    Default,
    File(PathBuf),
    Env(String),
    Flag(String),
}

/// The effective configuration.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Config {
    pub roots: Vec<PathBuf>,
    /// Persist outlines in a cache directory.
    pub cache: bool,
    /// Cache directory; default `.mcp-java-index-cache` under each root.
    pub cache_dir: Option<PathBuf>,
    /// Record every protocol message received and sent, with timestamps.
    pub log_file: Option<PathBuf>,
    /// Level of the logs on stderr: error, warn, info, debug or trace.
    pub log_level: String,
    /// How long a workspace search waits for the first indexing pass before answering with
    /// `complete: false`.
    pub index_wait_ms: u64,
    /// Watch the roots for changes (otherwise answers re-check only the files they return).
    pub watch: bool,
    /// How long `get_problems` waits for javac before answering with what it has
    /// (`complete: false`); the rest finishes in the background.
    pub problems_budget_ms: u64,
    /// javac's `-Xlint:` categories for `get_problems` (empty: errors only, no lint warnings).
    pub javac_lint: String,
    /// More javac options for `get_problems`, added after ours.
    pub javac_options: Vec<String>,
    /// Classpath entries added to every project's (jars or class directories).
    pub classpath: Vec<PathBuf>,
    /// Maven's local repository (`-Dmaven.repo.local`); default Maven's own (~/.m2/repository).
    pub maven_repo_local: Option<PathBuf>,
    /// The most bytes read from one file; larger files are refused or skipped with a reason.
    pub max_file_bytes: u64,
    /// Run annotation processors in `get_problems` (user-level; needs a trusted workspace).
    pub annotation_processing: bool,
    /// Workspace roots the user trusts to run their build (user-level).
    pub trusted_roots: Vec<PathBuf>,
    /// Whether the workspace is trusted: every root is under a trusted root, or `--trust` /
    /// `MCP_JAVA_INDEX_TRUST=1` was given.
    pub trusted: bool,
    /// Settings a repository file tried to set and that were ignored, with the reason.
    pub ignored: Vec<String>,
    #[serde(skip)]
    pub sources: BTreeMap<&'static str, Source>,
}

/// Values given on the command line (None: not given).
#[derive(Debug, Clone, Default)]
pub struct Flags {
    pub roots: Vec<PathBuf>,
    pub no_cache: bool,
    pub cache_dir: Option<PathBuf>,
    pub log_file: Option<PathBuf>,
    pub log_level: Option<String>,
    pub index_wait_ms: Option<u64>,
    pub no_watch: bool,
    /// `--trust`: the user trusts this workspace to run its build.
    pub trust: bool,
}

/// A configuration file's contents.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileLayer {
    cache: Option<bool>,
    cache_dir: Option<PathBuf>,
    log_file: Option<PathBuf>,
    log_level: Option<String>,
    index_wait_ms: Option<u64>,
    watch: Option<bool>,
    problems_budget_ms: Option<u64>,
    javac_lint: Option<String>,
    javac_options: Option<Vec<String>>,
    classpath: Option<Vec<PathBuf>>,
    maven_repo_local: Option<PathBuf>,
    max_file_bytes: Option<u64>,
    annotation_processing: Option<bool>,
    trusted_roots: Option<Vec<PathBuf>>,
}

/// A configuration that could not be built; says which layer and what.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("reading {path}: {reason}")]
    File { path: PathBuf, reason: String },
    #[error("environment variable {var}: {reason}")]
    Env { var: String, reason: String },
    #[error("{setting}: {reason} (set by {source_desc})")]
    Invalid { setting: &'static str, reason: String, source_desc: String },
}

/// The lint warnings an IDE shows by default.
pub const DEFAULT_LINT: &str =
    "deprecation,removal,unchecked,rawtypes,cast,dep-ann,divzero,empty,fallthrough,finally,overrides,varargs";

const LEVELS: &[&str] = &["error", "warn", "info", "debug", "trace"];

impl Config {
    /// Builds the configuration from all layers. `env` is the process environment (a
    /// parameter so tests can give their own).
    pub fn load(flags: &Flags, env: &dyn Fn(&str) -> Option<String>) -> Result<Config, ConfigError> {
        let mut c = Config {
            roots: Vec::new(),
            cache: true,
            cache_dir: None,
            log_file: None,
            log_level: "warn".to_owned(),
            index_wait_ms: 5000,
            watch: true,
            problems_budget_ms: 25_000,
            javac_lint: DEFAULT_LINT.to_owned(),
            javac_options: Vec::new(),
            classpath: Vec::new(),
            maven_repo_local: None,
            max_file_bytes: mji_fs::DEFAULT_MAX_FILE_BYTES,
            annotation_processing: false,
            trusted_roots: Vec::new(),
            trusted: false,
            ignored: Vec::new(),
            sources: BTreeMap::new(),
        };
        for k in [
            "roots",
            "cache",
            "cacheDir",
            "logFile",
            "logLevel",
            "indexWaitMs",
            "watch",
            "problemsBudgetMs",
            "javacLint",
            "javacOptions",
            "classpath",
            "mavenRepoLocal",
            "maxFileBytes",
            "annotationProcessing",
            "trustedRoots",
            "trusted",
        ] {
            c.sources.insert(k, Source::Default);
        }
        // Roots first: the files live at the first root.
        if !flags.roots.is_empty() {
            c.roots = flags.roots.clone();
            c.sources.insert("roots", Source::Flag("--root".to_owned()));
        } else if let Some(v) = env("MCP_JAVA_INDEX_ROOTS") {
            c.roots = std::env::split_paths(&v).filter(|p| !p.as_os_str().is_empty()).collect();
            c.sources.insert("roots", Source::Env("MCP_JAVA_INDEX_ROOTS".to_owned()));
        }
        if c.roots.is_empty() {
            c.roots.push(PathBuf::from("."));
        }
        let base = c.roots[0].clone();
        if let Some(user) = user_file(env)
            && user.is_file()
        {
            c.apply_file(&user, None)?;
        }
        let canon_roots: Vec<PathBuf> =
            c.roots.iter().map(|r| std::fs::canonicalize(r).unwrap_or_else(|_| r.clone())).collect();
        for name in [PROJECT_FILE, LOCAL_FILE] {
            let path = base.join(name);
            if path.is_file() {
                c.apply_file(&path, Some(&canon_roots))?;
            }
        }
        c.apply_env(env)?;
        if let Some(v) = env("MCP_JAVA_INDEX_TRUST").filter(|v| !v.trim().is_empty()) {
            c.trusted = parse_bool("MCP_JAVA_INDEX_TRUST", &v)?;
            c.sources.insert("trusted", Source::Env("MCP_JAVA_INDEX_TRUST".to_owned()));
        }
        if flags.trust {
            c.trusted = true;
            c.sources.insert("trusted", Source::Flag("--trust".to_owned()));
        }
        if !c.trusted && !c.trusted_roots.is_empty() {
            let trusted: Vec<PathBuf> =
                c.trusted_roots.iter().map(|t| std::fs::canonicalize(t).unwrap_or_else(|_| t.clone())).collect();
            if canon_roots.iter().all(|r| trusted.iter().any(|t| r.starts_with(t))) {
                c.trusted = true;
                let src = c.sources.get("trustedRoots").cloned().unwrap_or(Source::Default);
                c.sources.insert("trusted", src);
            }
        }

        if flags.no_cache {
            c.cache = false;
            c.sources.insert("cache", Source::Flag("--no-cache".to_owned()));
        }
        if let Some(d) = &flags.cache_dir {
            c.cache_dir = Some(d.clone());
            c.sources.insert("cacheDir", Source::Flag("--cache-dir".to_owned()));
        }
        if let Some(f) = &flags.log_file {
            c.log_file = Some(f.clone());
            c.sources.insert("logFile", Source::Flag("--log-file".to_owned()));
        }
        if let Some(l) = &flags.log_level {
            c.log_level = l.clone();
            c.sources.insert("logLevel", Source::Flag("-v/--log-level".to_owned()));
        }
        if let Some(w) = flags.index_wait_ms {
            c.index_wait_ms = w;
            c.sources.insert("indexWaitMs", Source::Flag("--index-wait-ms".to_owned()));
        }
        if flags.no_watch {
            c.watch = false;
            c.sources.insert("watch", Source::Flag("--no-watch".to_owned()));
        }
        c.validate()?;
        Ok(c)
    }

    /// Applies a configuration file. `repository` is None for the user's own file, else the
    /// canonical roots: a repository file may not set what executes or reaches outside them.
    fn apply_file(&mut self, path: &Path, repository: Option<&[PathBuf]>) -> Result<(), ConfigError> {
        let err = |reason: String| ConfigError::File { path: path.to_path_buf(), reason };
        let bytes = mji_fs::read_regular(path, 1024 * 1024).map_err(|e| err(e.to_string()))?;
        let text = String::from_utf8(bytes).map_err(|_| err("is not UTF-8".to_owned()))?;
        let mut layer: FileLayer = toml::from_str(&text).map_err(|e| err(e.message().to_owned()))?;
        let dir = path.parent().unwrap_or(Path::new("."));
        if let Some(roots) = repository {
            self.drop_untrusted(&mut layer, path, dir, roots);
        }
        let src = Source::File(path.to_path_buf());
        if let Some(v) = layer.cache {
            self.cache = v;
            self.sources.insert("cache", src.clone());
        }
        if let Some(v) = layer.cache_dir {
            self.cache_dir = Some(dir.join(v));
            self.sources.insert("cacheDir", src.clone());
        }
        if let Some(v) = layer.log_file {
            self.log_file = Some(dir.join(v));
            self.sources.insert("logFile", src.clone());
        }
        if let Some(v) = layer.log_level {
            self.log_level = v;
            self.sources.insert("logLevel", src.clone());
        }
        if let Some(v) = layer.index_wait_ms {
            self.index_wait_ms = v;
            self.sources.insert("indexWaitMs", src.clone());
        }
        if let Some(v) = layer.watch {
            self.watch = v;
            self.sources.insert("watch", src.clone());
        }
        if let Some(v) = layer.problems_budget_ms {
            self.problems_budget_ms = v;
            self.sources.insert("problemsBudgetMs", src.clone());
        }
        if let Some(v) = layer.javac_lint {
            self.javac_lint = v;
            self.sources.insert("javacLint", src.clone());
        }
        if let Some(v) = layer.javac_options {
            self.javac_options = v;
            self.sources.insert("javacOptions", src.clone());
        }
        if let Some(v) = layer.classpath {
            self.classpath = v.into_iter().map(|p| dir.join(p)).collect();
            self.sources.insert("classpath", src.clone());
        }
        if let Some(v) = layer.maven_repo_local {
            self.maven_repo_local = Some(dir.join(v));
            self.sources.insert("mavenRepoLocal", src.clone());
        }
        if let Some(v) = layer.max_file_bytes {
            self.max_file_bytes = v;
            self.sources.insert("maxFileBytes", src.clone());
        }
        if let Some(v) = layer.annotation_processing {
            self.annotation_processing = v;
            self.sources.insert("annotationProcessing", src.clone());
        }
        if let Some(v) = layer.trusted_roots {
            self.trusted_roots = v.into_iter().map(|p| dir.join(p)).collect();
            self.sources.insert("trustedRoots", src);
        }
        Ok(())
    }

    /// Removes from a repository file's layer what only the user may set, recording each.
    fn drop_untrusted(&mut self, layer: &mut FileLayer, path: &Path, dir: &Path, roots: &[PathBuf]) {
        let mut ignore = |key: &str, why: &str| {
            self.ignored.push(format!(
                "ignored `{key}` from {}: the workspace's own files are untrusted and {why}; set it in the user config ({}), the environment or a flag instead",
                path.display(),
                USER_FILE
            ));
        };
        const RUNS: &str = "it can run code the repository chose";
        if layer.javac_options.take().is_some() {
            ignore("javac_options", RUNS);
        }
        if layer.annotation_processing.take().is_some() {
            ignore("annotation_processing", RUNS);
        }
        if layer.trusted_roots.take().is_some() {
            ignore("trusted_roots", "a workspace cannot trust itself");
        }
        if layer.maven_repo_local.take().is_some() {
            ignore("maven_repo_local", "Maven writes into it, outside the project");
        }
        if layer.max_file_bytes.take().is_some() {
            ignore("max_file_bytes", "it bounds the memory the server spends on one file");
        }
        let inside = |p: &Path| {
            let abs = mji_fs::lexical_normalize(&dir.join(p));
            // Judge the nearest existing ancestor by its real path (links may point out).
            let mut probe = abs.clone();
            let mut rest = Vec::new();
            let real = loop {
                match std::fs::canonicalize(&probe) {
                    Ok(c) => break rest.into_iter().rev().fold(c, |acc: PathBuf, n: std::ffi::OsString| acc.join(n)),
                    Err(_) => match (probe.file_name().map(|n| n.to_os_string()), probe.parent()) {
                        (Some(n), Some(parent)) => {
                            rest.push(n);
                            probe = parent.to_path_buf();
                        }
                        _ => break abs.clone(),
                    },
                }
            };
            roots.iter().any(|r| real.starts_with(r))
        };
        const OUTSIDE: &str = "it points outside the workspace roots";
        if layer.log_file.as_deref().is_some_and(|p| !inside(p)) {
            layer.log_file = None;
            ignore("log_file", OUTSIDE);
        }
        if layer.cache_dir.as_deref().is_some_and(|p| !inside(p)) {
            layer.cache_dir = None;
            ignore("cache_dir", OUTSIDE);
        }
    }

    fn apply_env(&mut self, env: &dyn Fn(&str) -> Option<String>) -> Result<(), ConfigError> {
        if let Some(v) = env("MCP_JAVA_INDEX_CACHE") {
            self.cache = parse_bool("MCP_JAVA_INDEX_CACHE", &v)?;
            self.sources.insert("cache", Source::Env("MCP_JAVA_INDEX_CACHE".to_owned()));
        }
        for (var, key) in [("MCP_JAVA_INDEX_CACHE_DIR", "cacheDir"), ("MCP_JAVA_INDEX_LOG_FILE", "logFile")] {
            if let Some(v) = env(var).filter(|v| !v.is_empty()) {
                let p = Some(PathBuf::from(v));
                if key == "cacheDir" {
                    self.cache_dir = p;
                } else {
                    self.log_file = p;
                }
                self.sources.insert(key, Source::Env(var.to_owned()));
            }
        }
        if let Some(v) = env("MCP_JAVA_INDEX_INDEX_WAIT_MS") {
            self.index_wait_ms = v.trim().parse().map_err(|_| ConfigError::Env {
                var: "MCP_JAVA_INDEX_INDEX_WAIT_MS".to_owned(),
                reason: format!("`{v}` is not a number of milliseconds"),
            })?;
            self.sources.insert("indexWaitMs", Source::Env("MCP_JAVA_INDEX_INDEX_WAIT_MS".to_owned()));
        }
        if let Some(v) = env("MCP_JAVA_INDEX_PROBLEMS_BUDGET_MS") {
            self.problems_budget_ms = v.trim().parse().map_err(|_| ConfigError::Env {
                var: "MCP_JAVA_INDEX_PROBLEMS_BUDGET_MS".to_owned(),
                reason: format!("`{v}` is not a number of milliseconds"),
            })?;
            self.sources.insert("problemsBudgetMs", Source::Env("MCP_JAVA_INDEX_PROBLEMS_BUDGET_MS".to_owned()));
        }
        if let Some(v) = env("MCP_JAVA_INDEX_JAVAC_LINT") {
            self.javac_lint = v;
            self.sources.insert("javacLint", Source::Env("MCP_JAVA_INDEX_JAVAC_LINT".to_owned()));
        }
        if let Some(v) = env("MCP_JAVA_INDEX_CLASSPATH").filter(|v| !v.is_empty()) {
            self.classpath = std::env::split_paths(&v).filter(|p| !p.as_os_str().is_empty()).collect();
            self.sources.insert("classpath", Source::Env("MCP_JAVA_INDEX_CLASSPATH".to_owned()));
        }
        if let Some(v) = env("MCP_JAVA_INDEX_MAVEN_REPO_LOCAL").filter(|v| !v.is_empty()) {
            self.maven_repo_local = Some(PathBuf::from(v));
            self.sources.insert("mavenRepoLocal", Source::Env("MCP_JAVA_INDEX_MAVEN_REPO_LOCAL".to_owned()));
        }
        if let Some(v) = env("MCP_JAVA_INDEX_MAX_FILE_BYTES") {
            self.max_file_bytes = v.trim().parse().map_err(|_| ConfigError::Env {
                var: "MCP_JAVA_INDEX_MAX_FILE_BYTES".to_owned(),
                reason: format!("`{v}` is not a number of bytes"),
            })?;
            self.sources.insert("maxFileBytes", Source::Env("MCP_JAVA_INDEX_MAX_FILE_BYTES".to_owned()));
        }
        if let Some(v) = env("MCP_JAVA_INDEX_JAVAC_OPTIONS").filter(|v| !v.trim().is_empty()) {
            self.javac_options = v.split_whitespace().map(str::to_owned).collect();
            self.sources.insert("javacOptions", Source::Env("MCP_JAVA_INDEX_JAVAC_OPTIONS".to_owned()));
        }
        if let Some(v) = env("MCP_JAVA_INDEX_ANNOTATION_PROCESSING").filter(|v| !v.trim().is_empty()) {
            self.annotation_processing = parse_bool("MCP_JAVA_INDEX_ANNOTATION_PROCESSING", &v)?;
            self.sources.insert("annotationProcessing", Source::Env("MCP_JAVA_INDEX_ANNOTATION_PROCESSING".to_owned()));
        }
        if let Some(v) = env("MCP_JAVA_INDEX_LOG_LEVEL") {
            self.log_level = v;
            self.sources.insert("logLevel", Source::Env("MCP_JAVA_INDEX_LOG_LEVEL".to_owned()));
        }
        Ok(())
    }

    fn validate(&mut self) -> Result<(), ConfigError> {
        self.log_level = self.log_level.trim().to_ascii_lowercase();
        if !LEVELS.contains(&self.log_level.as_str()) {
            return Err(ConfigError::Invalid {
                setting: "logLevel",
                reason: format!("`{}` is not one of {}", self.log_level, LEVELS.join(", ")),
                source_desc: self.describe("logLevel"),
            });
        }
        if self.max_file_bytes == 0 {
            return Err(ConfigError::Invalid {
                setting: "maxFileBytes",
                reason: "is 0; give the most bytes to read from one file (default 8388608)".to_owned(),
                source_desc: self.describe("maxFileBytes"),
            });
        }
        if self.cache_dir.as_ref().is_some_and(|d| d.as_os_str().is_empty()) {
            return Err(ConfigError::Invalid {
                setting: "cacheDir",
                reason: "is empty".to_owned(),
                source_desc: self.describe("cacheDir"),
            });
        }
        Ok(())
    }

    /// Where a setting came from, in words.
    pub fn describe(&self, key: &str) -> String {
        match self.sources.get(key) {
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

    /// The effective settings with their sources, for `mcp-java-index config`.
    pub fn report(&self) -> serde_json::Value {
        let entry =
            |key: &str, value: serde_json::Value| serde_json::json!({ "value": value, "source": self.describe(key) });
        serde_json::json!({
            "roots": entry("roots", serde_json::json!(self.roots)),
            "cache": entry("cache", serde_json::json!(self.cache)),
            "cacheDir": entry("cacheDir", serde_json::json!(self.cache_dir)),
            "logFile": entry("logFile", serde_json::json!(self.log_file)),
            "logLevel": entry("logLevel", serde_json::json!(self.log_level)),
            "indexWaitMs": entry("indexWaitMs", serde_json::json!(self.index_wait_ms)),
            "watch": entry("watch", serde_json::json!(self.watch)),
            "problemsBudgetMs": entry("problemsBudgetMs", serde_json::json!(self.problems_budget_ms)),
            "javacLint": entry("javacLint", serde_json::json!(self.javac_lint)),
            "javacOptions": entry("javacOptions", serde_json::json!(self.javac_options)),
            "classpath": entry("classpath", serde_json::json!(self.classpath)),
            "mavenRepoLocal": entry("mavenRepoLocal", serde_json::json!(self.maven_repo_local)),
            "maxFileBytes": entry("maxFileBytes", serde_json::json!(self.max_file_bytes)),
            "annotationProcessing": entry("annotationProcessing", serde_json::json!(self.annotation_processing)),
            "trustedRoots": entry("trustedRoots", serde_json::json!(self.trusted_roots)),
            "trusted": entry("trusted", serde_json::json!(self.trusted)),
            "ignored": self.ignored,
        })
    }
}

/// The user's configuration file: `$XDG_CONFIG_HOME/mcp-java-index/config.toml`, else
/// `$HOME/.config/mcp-java-index/config.toml`.
pub fn user_file(env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let base = env("XDG_CONFIG_HOME")
        .filter(|v| Path::new(v).is_absolute())
        .map(PathBuf::from)
        .or_else(|| env("HOME").filter(|h| !h.is_empty()).map(|h| PathBuf::from(h).join(".config")))?;
    Some(base.join(USER_FILE))
}

fn parse_bool(var: &str, v: &str) -> Result<bool, ConfigError> {
    match v.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" => Ok(false),
        _ => {
            Err(ConfigError::Env { var: var.to_owned(), reason: format!("`{v}` is not a boolean (use true or false)") })
        }
    }
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
        let flags = Flags { roots: vec![dir.path().to_path_buf()], ..Default::default() };
        let c = Config::load(&flags, &no_env).expect("config");
        assert!(!c.cache);
        assert_eq!(c.log_level, "debug");
        assert_eq!(c.cache_dir, Some(dir.path().join("c1")));
        assert!(c.describe("logLevel").ends_with(LOCAL_FILE));
        let env = |k: &str| (k == "MCP_JAVA_INDEX_LOG_LEVEL").then(|| "trace".to_owned());
        let c = Config::load(&flags, &env).expect("config");
        assert_eq!(c.log_level, "trace");
        assert_eq!(c.describe("logLevel"), "environment MCP_JAVA_INDEX_LOG_LEVEL");
        let flags = Flags { log_level: Some("error".to_owned()), ..flags };
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
        let flags = Flags { roots: vec![dir.path().to_path_buf()], ..Default::default() };
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
        std::fs::write(dir.path().join(PROJECT_FILE), "colour = 3\n").expect("write");
        let flags = Flags { roots: vec![dir.path().to_path_buf()], ..Default::default() };
        let e = Config::load(&flags, &no_env).expect_err("unknown key").to_string();
        assert!(e.contains(PROJECT_FILE) && e.contains("colour"), "{e}");
        std::fs::write(dir.path().join(PROJECT_FILE), "log_level = \"loud\"\n").expect("write");
        let e = Config::load(&flags, &no_env).expect_err("bad level").to_string();
        assert!(e.contains("loud") && e.contains(PROJECT_FILE), "{e}");
        std::fs::remove_file(dir.path().join(PROJECT_FILE)).expect("rm");
        let env = |k: &str| (k == "MCP_JAVA_INDEX_CACHE").then(|| "maybe".to_owned());
        let e = Config::load(&flags, &env).expect_err("bad bool").to_string();
        assert!(e.contains("MCP_JAVA_INDEX_CACHE") && e.contains("maybe"), "{e}");
    }
}
