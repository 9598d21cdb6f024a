//! The committed JDK API table (crates/xref/src/jdk_api.txt, generated from JDK 17's sources)
//! against the running JDK's own image, `lib/modules` read as jimage: the types, methods,
//! constructors and fields of the table's packages that one has and the other has not are
//! reported. On the table's JDK version they must agree; another version's differences are
//! what the user's JDK changes (printed, and the image is read whole either way).

use std::collections::{BTreeSet, HashSet};
use std::path::Path;
use std::sync::Arc;

use mcp_java_index::classfile::{api, library};
use mcp_java_index::xref::world::World;
use mcp_java_index::xref::world::jdk_api::{JdkApi, TABLE_JDK_VERSION};

/// `fqn`, `fqn#method(erased)`, `fqn#field` of every type of `api`.
fn members(api: JdkApi) -> BTreeSet<String> {
    let fqns: Vec<String> = api.by_fqn.keys().map(|k| k.to_string()).collect();
    let w = World::with_api(Vec::new(), Arc::new(api));
    let mut out = BTreeSet::new();
    for fqn in fqns {
        let Some(id) = w.by_fqn(&fqn) else { continue };
        let d = w.decl(id);
        for m in d.methods.iter().chain(&d.ctors) {
            out.insert(w.method_key(id, m));
        }
        for f in &d.fields {
            out.insert(format!("{fqn}#{}", f.name));
        }
        out.insert(fqn);
    }
    out
}

/// The major version in a JDK's `release` file (`JAVA_VERSION="17.0.21.1"`).
fn major(home: &Path) -> Option<u32> {
    let text = std::fs::read_to_string(home.join("release")).ok()?;
    let v = text.lines().find_map(|l| l.strip_prefix("JAVA_VERSION="))?.trim_matches('"');
    v.split('.').next()?.parse().ok()
}

#[test]
fn the_committed_jdk_table_agrees_with_the_running_jdks_image() {
    let home = library::find_jdk_home(
        std::env::var_os("JAVA_HOME").as_deref().map(Path::new),
        std::env::var_os("PATH").as_deref(),
    )
    .expect("a JDK (javac on PATH or JAVA_HOME)");
    let modules = home.join("lib/modules");
    let version = major(&home).expect("the JDK's release file names its version");
    let committed = JdkApi::get();
    let packages: HashSet<String> = committed.files.iter().map(|(f, _)| f.package.replace('.', "/")).collect();
    let t = std::time::Instant::now();
    let (text, stats) = api::table_where(std::slice::from_ref(&modules), &|internal| {
        internal.rsplit_once('/').is_some_and(|(p, _)| packages.contains(p))
    });
    assert!(stats.skipped.is_empty(), "{:?}", stats.skipped);
    eprintln!(
        "JDK {version} at {}: {} classes of the table's {} packages read from lib/modules in {:?}",
        home.display(),
        stats.classes,
        packages.len(),
        t.elapsed()
    );
    let image = members(JdkApi::parse(&text));
    let table = members(JdkApi::parse(&committed_text()));
    let only_table: Vec<&String> = table.difference(&image).collect();
    let only_image: Vec<&String> = image.difference(&table).filter(|k| table.contains(owner(k))).collect();
    eprintln!(
        "table {} entries, image {}: {} only in the table, {} only in the image (of the table's types)",
        table.len(),
        image.len(),
        only_table.len(),
        only_image.len()
    );
    for k in only_table.iter().take(25) {
        eprintln!("  only in the table: {k}");
    }
    for k in only_image.iter().take(25) {
        eprintln!("  only in the image: {k}");
    }
    // The comparison sees one method taken out of the table.
    let cut = committed_text().replacen("\nM - length - int -\n", "\n", 1);
    let lost: Vec<String> = table.difference(&members(JdkApi::parse(&cut))).cloned().collect();
    assert_eq!(lost.len(), 1, "{lost:?}");
    assert!(image.contains(&lost[0]), "{lost:?}");
    if version == TABLE_JDK_VERSION {
        // The same JDK: what the sources declare is what the class files hold.
        let missing_types = only_table.iter().filter(|k| !k.contains('#')).count();
        assert_eq!(missing_types, 0, "types of the table missing from the image");
        assert!(
            only_table.len() * 200 < table.len(),
            "{} of {} entries only in the table",
            only_table.len(),
            table.len()
        );
        assert!(only_image.len() * 200 < table.len(), "{} entries only in the image", only_image.len());
    }
}

fn owner(key: &str) -> &str {
    key.split('#').next().unwrap_or(key)
}

fn committed_text() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/xref/src/jdk_api.txt")).expect("table")
}

/// A JDK on this machine whose version is not the table's, if any (`/usr/lib/jvm/*`).
fn other_jdk() -> Option<std::path::PathBuf> {
    let mut homes: Vec<_> = std::fs::read_dir("/usr/lib/jvm").ok()?.flatten().map(|e| e.path()).collect();
    homes.sort();
    homes.into_iter().find(|h| h.join("lib/modules").is_file() && major(h).is_some_and(|v| v != TABLE_JDK_VERSION))
}

const USE: &str = r#"package app;

class Use {
    static void take(String s) {}
    static void take(Integer i) {}

    void f() {
        take(java.io.Reader.of("x").readAllAsString());
    }
}
"#;

/// With the user's JDK another version than the table's, the engine describes that JDK: a
/// call on the result of a method JDK 17 does not have (`Reader.of`, `readAllAsString`, JDK
/// 24+) picks its overload exactly; under JDK 17's table it stays `likely`.
#[test]
fn the_users_jdk_of_another_version_is_read_from_its_image() {
    let Some(home) = other_jdk() else {
        eprintln!("skipped: no JDK other than {TABLE_JDK_VERSION} under /usr/lib/jvm");
        return;
    };
    let ws = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(ws.path().join("app")).expect("mkdir");
    std::fs::write(ws.path().join("app/Use.java"), USE).expect("write");
    let confidence = |java_home: &Path| {
        let cache = tempfile::tempdir().expect("tempdir");
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-java-index"))
            .args(["call", "find_references", r#"{"target":"app.Use#take(java.lang.String)"}"#, "--json"])
            .current_dir(ws.path())
            .env("JAVA_HOME", java_home)
            .env("XDG_CACHE_HOME", cache.path())
            .output()
            .expect("runs");
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
        v["files"][0]["references"][0]["confidence"].as_str().unwrap_or_default().to_owned()
    };
    let jdk17 = library::find_jdk_home(None, std::env::var_os("PATH").as_deref())
        .filter(|h| major(h) == Some(TABLE_JDK_VERSION))
        .unwrap_or_else(|| Path::new("/usr/lib/jvm/java-17-openjdk-amd64").to_owned());
    assert_eq!(confidence(&jdk17), "likely");
    assert_eq!(confidence(&home), "exact", "{}", home.display());
}
