//! The one JDK finder every layer uses: from the `JAVA_HOME` and `PATH` the configuration read
//! once from the environment (`mji_config::Config::jdk_env`), the JDK that runs javac (its
//! `java` and `javac` launchers) and the JDK whose library the user runs.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

/// The environment a JDK is found from, read once (`JAVA_HOME`, `PATH`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JdkEnv {
    pub java_home: Option<PathBuf>,
    pub path: Option<OsString>,
}

impl JdkEnv {
    /// This process's `JAVA_HOME` and `PATH`.
    pub fn from_process() -> JdkEnv {
        JdkEnv {
            java_home: std::env::var_os("JAVA_HOME").filter(|h| !h.is_empty()).map(PathBuf::from),
            path: std::env::var_os("PATH"),
        }
    }
}

/// A JDK: its `java` and `javac` launchers.
#[derive(Debug, Clone)]
pub struct JdkInstall {
    pub home: PathBuf,
    pub java: PathBuf,
    pub javac: PathBuf,
}

fn exe(dir: &Path, name: &str) -> Option<PathBuf> {
    let p = dir.join(if cfg!(windows) { format!("{name}.exe") } else { name.to_owned() });
    p.is_file().then_some(p)
}

/// Each `javac` on `path_env`, its links followed (`/usr/bin/javac` ->
/// `/usr/lib/jvm/…/bin/javac`).
fn javacs_on(path_env: Option<&OsStr>) -> impl Iterator<Item = PathBuf> + '_ {
    path_env
        .map(std::env::split_paths)
        .into_iter()
        .flatten()
        .filter_map(|dir| exe(&dir, "javac"))
        .map(|javac| std::fs::canonicalize(&javac).unwrap_or(javac))
}

impl JdkEnv {
    /// The JDK that runs javac ([`find_jdk`]).
    pub fn jdk(&self) -> Result<JdkInstall, String> {
        find_jdk(self.java_home.as_deref(), self.path.as_deref())
    }

    /// The JDK whose library the user runs ([`find_jdk_home`]).
    pub fn jdk_home(&self) -> Option<PathBuf> {
        find_jdk_home(self.java_home.as_deref(), self.path.as_deref())
    }
}

/// Finds a JDK: `java_home` (JAVA_HOME) first, then `javac` on `path_env` (PATH).
pub fn find_jdk(java_home: Option<&Path>, path_env: Option<&OsStr>) -> Result<JdkInstall, String> {
    let from_bin = |bin: &Path| -> Option<JdkInstall> {
        Some(JdkInstall {
            home: bin.parent().unwrap_or(bin).to_path_buf(),
            java: exe(bin, "java")?,
            javac: exe(bin, "javac")?,
        })
    };
    if let Some(home) = java_home.filter(|h| !h.as_os_str().is_empty()) {
        return from_bin(&home.join("bin")).ok_or_else(|| {
            format!("JAVA_HOME is {} but it has no bin/javac and bin/java (a JRE, not a JDK?)", home.display())
        });
    }
    javacs_on(path_env).find_map(|javac| javac.parent().and_then(from_bin)).ok_or_else(|| {
        "no JDK found: JAVA_HOME is not set and no `javac` is on PATH (install a JDK, e.g. openjdk-17-jdk-headless, or set JAVA_HOME)".to_owned()
    })
}

/// The JDK whose library the user runs: `java_home` (JAVA_HOME) when it has `lib/` (a
/// runtime image or jmods to read, even without javac), else the installation `javac` on
/// `path_env` (PATH) resolves to.
pub fn find_jdk_home(java_home: Option<&Path>, path_env: Option<&OsStr>) -> Option<PathBuf> {
    if let Some(h) = java_home.filter(|h| h.join("lib").is_dir()) {
        return Some(h.to_owned());
    }
    javacs_on(path_env).next().and_then(|p| Some(p.parent()?.parent()?.to_owned()))
}
