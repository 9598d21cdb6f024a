//! The committed JDK API table (crates/xref/src/world/jdk_api.txt, generated from JDK 17's sources)
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
    let fqns: Vec<String> = api.fqns().map(str::to_owned).collect();
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
    let packages: HashSet<String> = committed.jdk_packages().map(|p| p.replace('.', "/")).collect();
    let t = std::time::Instant::now();
    let (text, stats) = api::table_where(
        std::slice::from_ref(&modules),
        &|internal| internal.rsplit_once('/').is_some_and(|(p, _)| packages.contains(p)),
        usize::MAX,
    );
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
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/xref/src/world/jdk_api.txt"))
        .expect("table")
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

/// The origin `analyze_type_dependencies` gives each simple type name of `app/Use.java`, run
/// with `java_home` as the user's JDK and `cache` as the user cache directory.
fn origins(ws: &Path, java_home: &Path, cache: &Path) -> std::collections::BTreeMap<String, String> {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-java-index"))
        .args(["call", "analyze_type_dependencies", r#"{"filePath":"app/Use.java"}"#, "--json"])
        .current_dir(ws)
        .env("JAVA_HOME", java_home)
        .env("XDG_CACHE_HOME", cache)
        .output()
        .expect("runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    v["dependencies"]
        .as_array()
        .expect("dependencies")
        .iter()
        .map(|d| {
            let fqn = d["fqn"].as_str().unwrap_or_default();
            (
                fqn.rsplit('.').next().unwrap_or(fqn).to_owned(),
                format!("{} {}", d["origin"].as_str().unwrap_or(""), fqn),
            )
        })
        .collect()
}

fn workspace(java: &str) -> tempfile::TempDir {
    let ws = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(ws.path().join("app")).expect("mkdir");
    std::fs::write(ws.path().join("app/Use.java"), java).expect("write");
    ws
}

const IMPORTS: &str = r#"package app;

import java.util.concurrent.*;
import javax.fresh.*;
import javax.swing.*;
import org.other.*;

class Use {
    Executor executor;
    Novel novel;
    JFrame frame;
}
"#;

/// The user's JDK described by its image when its version is not the committed table's: a
/// `jlink` image of JDK 17's `java.base` plus a module exporting a package the table does not
/// know (`javax.fresh`), its `release` saying another version. An on-demand import of the
/// new package then finds its type as the JDK's, and a type the image lacks (`javax.swing`,
/// not linked in) no longer resolves — under the committed table it is the reverse. The
/// image's tables are kept in the user cache by content: a second process resolves alike
/// with the image's bytes garbled (same size and mtime), so it read none of them.
#[test]
fn an_image_of_another_version_decides_what_imports_resolve_to() {
    let Some(jdk) = library::find_jdk_home(None, std::env::var_os("PATH").as_deref())
        .filter(|h| major(h) == Some(TABLE_JDK_VERSION) && h.join("jmods").is_dir())
    else {
        eprintln!("skipped: no JDK {TABLE_JDK_VERSION} with jmods on PATH");
        return;
    };
    let tmp = tempfile::tempdir().expect("tempdir");
    let src = tmp.path().join("src");
    std::fs::create_dir_all(src.join("javax/fresh")).expect("mkdir");
    std::fs::write(src.join("module-info.java"), "module fresh { exports javax.fresh; }\n").expect("write");
    std::fs::write(src.join("javax/fresh/Novel.java"), "package javax.fresh;\n\npublic class Novel {}\n")
        .expect("write");
    let mods = tmp.path().join("mods/fresh");
    let run = |c: &mut std::process::Command| {
        let o = c.output().expect("runs");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    run(std::process::Command::new(jdk.join("bin/javac"))
        .arg("-d")
        .arg(&mods)
        .arg(src.join("module-info.java"))
        .arg(src.join("javax/fresh/Novel.java")));
    let image = tmp.path().join("jdk");
    let module_path = std::env::join_paths([jdk.join("jmods"), tmp.path().join("mods")]).expect("path");
    run(std::process::Command::new(jdk.join("bin/jlink"))
        .arg("--module-path")
        .arg(&module_path)
        .args(["--add-modules", "java.base,fresh", "--output"])
        .arg(&image));
    let release = std::fs::read_to_string(image.join("release")).expect("release");
    let other = TABLE_JDK_VERSION + 82;
    let release: String = release
        .lines()
        .map(|l| if l.starts_with("JAVA_VERSION=") { format!("JAVA_VERSION=\"{other}\"\n") } else { format!("{l}\n") })
        .collect();
    std::fs::write(image.join("release"), release).expect("write");

    // The names, read from the image: its public types of the standard packages.
    let names = library::jdk_type_names(&image, None).expect("the image is read");
    let qualified = |table: &str| -> Vec<String> {
        table
            .lines()
            .flat_map(|l| {
                let mut it = l.split(' ');
                let p = it.next().unwrap_or_default().to_owned();
                it.map(move |n| format!("{p}.{n}")).collect::<Vec<_>>()
            })
            .collect()
    };
    let committed: HashSet<String> = qualified(
        &std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/xref/src/world/jdk_types.txt"))
            .expect("table"),
    )
    .into_iter()
    .collect();
    let image_names = qualified(&names);
    assert!(
        image_names.contains(&"java.lang.String".to_owned()) && image_names.contains(&"javax.fresh.Novel".to_owned())
    );
    assert!(
        !image_names.iter().any(|n| n.starts_with("javax.swing.") || n.starts_with("jdk.") || n.starts_with("sun."))
    );
    // JDK 17's own java.base: every public type is in the committed table.
    let unknown: Vec<&String> =
        image_names.iter().filter(|n| !n.starts_with("javax.fresh.") && !committed.contains(*n)).collect();
    assert!(unknown.is_empty(), "{unknown:?}");

    let ws = workspace(IMPORTS);
    let cache = tempfile::tempdir().expect("tempdir");
    let under_17 = origins(ws.path(), &jdk, cache.path());
    assert_eq!(under_17["Executor"], "jdk java.util.concurrent.Executor");
    assert_eq!(under_17["JFrame"], "jdk javax.swing.JFrame");
    assert_eq!(under_17["Novel"], "unresolved Novel");
    let under_image = origins(ws.path(), &image, cache.path());
    assert_eq!(under_image["Executor"], "jdk java.util.concurrent.Executor");
    assert_eq!(under_image["Novel"], "jdk javax.fresh.Novel");
    assert_eq!(under_image["JFrame"], "unresolved JFrame");

    // A second process reads the image's tables from the cache, not the image.
    let modules = image.join("lib/modules");
    let mtime = std::fs::metadata(&modules).and_then(|m| m.modified()).expect("mtime");
    {
        use std::io::{Seek, Write};
        let mut f = std::fs::OpenOptions::new().write(true).open(&modules).expect("open");
        let len = f.metadata().expect("len").len();
        f.seek(std::io::SeekFrom::Start(0)).expect("seek");
        f.write_all(&vec![0u8; len as usize]).expect("garble");
        f.set_modified(mtime).expect("mtime back");
    }
    assert!(library::jdk_type_names(&image, None).is_none(), "the image is unreadable now");
    assert_eq!(origins(ws.path(), &image, cache.path()), under_image);
}

const JDK25: &str = r#"package app;

import java.util.concurrent.*;

class Use {
    ScopedValue<String> value;
    StructuredTaskScope<String, Void> scope;
    Compiler compiler;
    Executor executor;
}
"#;

/// A real JDK 25 (installed on the developers' machine, not in CI: skipped without one): a
/// type only JDK 25 has resolves through `java.lang` (`ScopedValue`) and an on-demand import
/// (`StructuredTaskScope`); `java.lang.Compiler`, removed in JDK 21, does not. Under JDK 17
/// it is the reverse.
#[test]
fn a_jdk_25_resolves_its_own_types_and_not_the_removed_ones() {
    let Some(home) = other_jdk().filter(|h| major(h).is_some_and(|v| v >= 25)) else {
        eprintln!("skipped: no JDK 25 or later under /usr/lib/jvm");
        return;
    };
    let jdk17 = library::find_jdk_home(None, std::env::var_os("PATH").as_deref())
        .filter(|h| major(h) == Some(TABLE_JDK_VERSION))
        .unwrap_or_else(|| Path::new("/usr/lib/jvm/java-17-openjdk-amd64").to_owned());
    let ws = workspace(JDK25);
    let cache = tempfile::tempdir().expect("tempdir");
    let new = origins(ws.path(), &home, cache.path());
    assert_eq!(new["ScopedValue"], "jdk java.lang.ScopedValue", "{new:?}");
    assert_eq!(new["StructuredTaskScope"], "jdk java.util.concurrent.StructuredTaskScope", "{new:?}");
    assert_eq!(new["Compiler"], "unresolved Compiler", "{new:?}");
    let old = origins(ws.path(), &jdk17, cache.path());
    assert_eq!(old["ScopedValue"], "unresolved ScopedValue", "{old:?}");
    assert_eq!(old["Compiler"], "jdk java.lang.Compiler", "{old:?}");
}

/// A SCIP export names the JDK's symbols by the version the engine binds against: the user's
/// JDK of another version when its image was read (issue 35: `jdk <version>`).
#[test]
fn a_scip_export_names_the_jdk_the_engine_binds_against() {
    let Some(home) = other_jdk() else {
        eprintln!("skipped: no JDK other than {TABLE_JDK_VERSION} under /usr/lib/jvm");
        return;
    };
    let ws = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(ws.path().join("app")).expect("mkdir");
    std::fs::write(ws.path().join("app/Use.java"), USE).expect("write");
    let cache = tempfile::tempdir().expect("tempdir");
    let out = ws.path().join("index.scip");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-java-index"))
        .args(["export", "scip", "--no-cache", "--output"])
        .arg(&out)
        .current_dir(ws.path())
        .env("JAVA_HOME", &home)
        .env("XDG_CACHE_HOME", cache.path())
        .output()
        .expect("runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let index = mcp_java_index::scip::from_bytes(&std::fs::read(&out).expect("written")).expect("reads back");
    let want = format!("scip-java maven jdk {} java/lang/String#", major(&home).expect("a major version"));
    let symbols: Vec<&str> = index.documents.iter().flat_map(|d| &d.occurrences).map(|o| o.symbol.as_str()).collect();
    assert!(symbols.contains(&want.as_str()), "{want} not in {symbols:?}");
}
