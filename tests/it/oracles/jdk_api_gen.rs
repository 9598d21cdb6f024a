//! The JDK API table `crates/xref/src/world/jdk_api.txt`: checked against the JDK 17 sources unpacked in
//! `target/jdk-src` (by .ci/run), and rewritten from them with
//! `UPDATE_JDK_API=1 cargo test --test it -- oracles::jdk_api_gen`; another test checks a few of its entries.

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use mcp_java_index::xref::decls::{FileDecls, file_decls};
use mcp_java_index::xref::ty::Ty;
use mcp_java_index::xref::world::World;
use mcp_java_index::xref::world::jdk_api::{JdkApi, write_table};

/// The packages whose public API the table holds.
const PACKAGES: &[&str] = &[
    "java.io",
    "java.lang",
    "java.lang.annotation",
    "java.lang.ref",
    "java.lang.reflect",
    "java.math",
    "java.net",
    "java.nio",
    "java.nio.channels",
    "java.nio.charset",
    "java.nio.file",
    "java.nio.file.attribute",
    "java.sql",
    "java.text",
    "java.time",
    "java.time.chrono",
    "java.time.format",
    "java.time.temporal",
    "java.time.zone",
    "java.util",
    "java.util.concurrent",
    "java.util.concurrent.atomic",
    "java.util.concurrent.locks",
    "java.util.function",
    "java.util.regex",
    "java.util.stream",
];

fn table_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/xref/src/world/jdk_api.txt")
}

#[test]
fn committed_table_is_what_the_jdk_sources_give() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/jdk-src");
    if !src.join("java.base").is_dir() {
        assert!(std::env::var_os("CI").is_none(), "JDK sources missing: run .ci/run");
        eprintln!("skipped: {} missing (run .ci/run)", src.display());
        return;
    }
    let mut files = common::java_files_under(&src.join("java.base/java"));
    files.extend(common::java_files_under(&src.join("java.sql/java")));
    files.retain(|p| !p.ends_with("package-info.java"));
    files.sort();
    let decls: Vec<(Arc<Path>, Arc<FileDecls>)> = files
        .par_iter()
        .map(|p| (Arc::from(p.as_path()), Arc::new(file_decls(&std::fs::read(p).expect("read")))))
        .collect();
    let w = World::new_without_jdk_api(decls);
    let table = write_table(&w, &|p| PACKAGES.contains(&p));
    if std::env::var_os("UPDATE_JDK_API").is_some() {
        std::fs::write(table_path(), &table).expect("write table");
        eprintln!("{} types, {} bytes", table.lines().filter(|l| l.starts_with("T ")).count(), table.len());
        return;
    }
    let committed = std::fs::read_to_string(table_path()).expect("committed table");
    assert!(
        committed == table,
        "crates/xref/src/world/jdk_api.txt is stale: UPDATE_JDK_API=1 cargo test --test it -- oracles::jdk_api_gen"
    );
}

#[test]
fn table_has_the_common_api() {
    let api = JdkApi::get();
    let w = World::new(Vec::new());
    let string = w.by_fqn("java.lang.String").expect("String");
    assert!(!w.is_workspace(string));
    let d = w.decl(string);
    assert!(d.is_final);
    let is_empty = d.methods.iter().find(|m| &*m.name == "isEmpty").expect("isEmpty");
    assert_eq!(w.method_key(string, is_empty), "java.lang.String#isEmpty()");
    let keys: Vec<String> =
        d.methods.iter().filter(|m| &*m.name == "valueOf").map(|m| w.method_key(string, m)).collect();
    assert!(keys.contains(&"java.lang.String#valueOf(char[])".to_string()), "{keys:?}");
    assert!(keys.contains(&"java.lang.String#valueOf(java.lang.Object)".to_string()), "{keys:?}");
    // Hierarchy through the table.
    let list = Ty::Class("java.util.ArrayList".into(), vec![Ty::class("java.lang.String")]);
    assert_eq!(w.is_subtype(&list, &Ty::class("java.util.Collection")), Some(true));
    assert_eq!(w.is_subtype(&Ty::class("java.net.URLClassLoader"), &Ty::class("java.lang.ClassLoader")), Some(true));
    assert_eq!(w.is_subtype(&Ty::class("java.lang.Integer"), &Ty::class("java.lang.String")), Some(false));
    let (ms, complete) = w.find_methods(&list, "get");
    assert!(complete);
    assert_eq!(w.method_key(ms[0].owner, ms[0].decl), "java.util.ArrayList#get(int)");
    // Generic varargs and nested types keep javac's erasure.
    let arrays = w.by_fqn("java.util.Arrays").expect("Arrays");
    let as_list = w.decl(arrays).methods.iter().find(|m| &*m.name == "asList").expect("asList");
    assert_eq!(w.method_key(arrays, as_list), "java.util.Arrays#asList(java.lang.Object[])");
    assert!(w.by_fqn("java.util.Map.Entry").is_some());
    assert!(api.len() > 900);
}
