//! The user's JDK as the tools read it: its home and version, and, when its version is not the
//! committed table's, its API and type names read from its class archives.

use std::path::PathBuf;
use std::sync::Arc;

use mji_classfile::library;
use mji_fs::jdk::JdkEnv;

/// The user's JDK (`JAVA_HOME`, else `javac` on `PATH`, as the configuration read them) and
/// its major version, from its `release` file.
pub fn user_jdk(env: &JdkEnv) -> Option<(PathBuf, u32)> {
    let home = env.jdk_home()?;
    let text = std::fs::read_to_string(home.join("release")).ok()?;
    let v = text.lines().find_map(|l| l.strip_prefix("JAVA_VERSION="))?.trim_matches('"');
    let major = v.split(['.', '-', '+']).next()?.parse().ok()?;
    Some((home, major))
}

/// The user's JDK as the resolution engine reads it, when its version is not the committed
/// table's (`None` otherwise): the API table of the committed table's packages and the
/// public type names of its standard packages, both read from its class archives.
pub struct UserJdkTables {
    pub home: PathBuf,
    pub api: Option<String>,
    pub names: Option<String>,
}

/// The [`UserJdkTables`] of the user's JDK: kept per process, and in the user cache dir by
/// the archives' content hashes (found through their stamps: path, size, mtime), so a
/// process after the first reads no class file of the image.
pub fn user_jdk_tables(env: &JdkEnv) -> Option<Arc<UserJdkTables>> {
    use mji_xref::world::jdk_api::{JdkApi, TABLE_JDK_VERSION};
    static TABLES: std::sync::Mutex<Vec<Arc<UserJdkTables>>> = std::sync::Mutex::new(Vec::new());
    let (home, major) = user_jdk(env)?;
    if major == TABLE_JDK_VERSION {
        return None;
    }
    let mut tables = TABLES.lock().ok()?;
    if let Some(t) = tables.iter().find(|t| t.home == home) {
        return Some(t.clone());
    }
    let cache = mji_fs::provenance::user_cache_dir().map(|d| d.join("libraries"));
    let archives = library::jdk_jmods(&home);
    let mut packages: Vec<String> = JdkApi::get().jdk_packages().map(|p| p.replace('.', "/")).collect();
    packages.sort();
    packages.dedup();
    // The cached part's name changes with the packages kept.
    let filter_name =
        format!("jdk{TABLE_JDK_VERSION}-{}", &mji_classfile::sha1_hex(packages.join(" ").as_bytes())[..12]);
    let keep =
        |internal: &str| internal.rsplit_once('/').is_some_and(|(p, _)| packages.binary_search(&p.to_owned()).is_ok());
    // The JDK's own archives are the user's: read whole.
    let (api, stats) =
        mji_classfile::api::table_cached_where(&archives, cache.as_deref(), Some((&filter_name, &keep)), usize::MAX);
    let t = Arc::new(UserJdkTables {
        api: (stats.archives > 0).then_some(api),
        names: library::jdk_type_names(&home, cache.as_deref()),
        home,
    });
    tables.push(t.clone());
    Some(t)
}
