//! The project model and the build's own runs: for any file its build system (Maven, Gradle or
//! plain), modules, source and test roots and classpaths (`project`, `classpath`, `pom`,
//! `gradle`); running tests and goals through the build as argv-only child processes in their
//! own process group (`process`, `runs`), and reading the JUnit XML reports (`junit`).
//! Synchronous; nothing here prints.

pub mod bounds;
pub mod changes;
pub mod classpath;
mod files;
pub mod generated;
mod gradle;
pub mod junit;
pub mod lombok;
pub mod pom;
pub mod process;
pub mod project;
pub mod runs;

use std::path::PathBuf;

pub use bounds::Bounds;
pub use classpath::Context;
pub use gradle::coordinates as gradle_coordinates;

/// What the build needs from the configuration.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// Where resolved classpaths are kept (`classpaths/` below it).
    pub cache_dir: PathBuf,
    /// Maven's local repository (`-Dmaven.repo.local`); None: Maven's default.
    pub maven_repo_local: Option<PathBuf>,
    /// Gradle's user home, whose dependency cache holds a Gradle build's libraries.
    pub gradle_user_home: Option<PathBuf>,
    /// Environment lookups (JAVA_HOME, PATH), a parameter so tests can give their own.
    pub java_home: Option<PathBuf>,
    pub path_env: Option<std::ffi::OsString>,
    /// Whether the workspace is trusted to run its build.
    pub trusted: bool,
}
