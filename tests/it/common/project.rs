//! A build fixture copied to a temporary directory, with a cache directory of its own, opened
//! as a workspace on Debian's Maven repository (the tests' offline local repository). The
//! build and problems tests add their own methods beside theirs.

use std::path::PathBuf;

use mcp_java_index::config::{Config, Flags};
use mcp_java_index::tools::host::Host;

/// Debian's Maven repository, the local repository every build test resolves from.
pub const MAVEN_REPO: &str = "/usr/share/maven-repo";

pub struct Project {
    pub root: tempfile::TempDir,
    pub cache: tempfile::TempDir,
}

impl Project {
    /// A copy of `tests/<fixtures>/<name>`.
    pub fn of(fixtures: &str, name: &str) -> Project {
        let root = tempfile::tempdir().expect("tempdir");
        let from = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests").join(fixtures).join(name);
        super::copy_dir(&from, root.path());
        Project { root, cache: tempfile::tempdir().expect("tempdir") }
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.root.path().join(rel)
    }

    /// The workspace with these environment variables over the project's cache directory and
    /// the Maven repository.
    pub fn workspace(&self, env: &[(&str, &str)]) -> Host {
        let cache = self.cache.path().to_string_lossy().into_owned();
        let lookup = |k: &str| -> Option<String> {
            let given = env.iter().find(|(n, _)| *n == k).map(|(_, v)| (*v).to_owned());
            given.or_else(|| match k {
                "MCP_JAVA_INDEX_CACHE_DIR" => Some(cache.clone()),
                "MCP_JAVA_INDEX_MAVEN_REPO_LOCAL" => Some(MAVEN_REPO.to_owned()),
                _ => None,
            })
        };
        let flags = Flags::roots([self.root.path()]);
        Host::open(Config::load(&flags, &lookup).expect("config")).expect("workspace")
    }
}
