//! The live workspace index on a generated multi-module workspace: ranking, patterns,
//! filters, pagination; and freshness while files are created, edited, renamed and deleted,
//! including a branch switch of thousands of files.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::common;
use common::{open, types, wait_for, write};
use mcp_java_index::config::{Config, Flags};

use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::tool::find_resource::FindResourceArgs;
use mcp_java_index::tools::tool::find_type::{FindTypeArgs, TypeFilter};
use mcp_java_index::tools::tool::java_find_symbol::{FindSymbolArgs, FindSymbolOptions, MatchKind};

/// Three Maven modules with packages, resources, build output and an ignored folder.
fn generate(root: &Path) {
    write(root, "pom.xml", "<project/>\n");
    write(root, ".gitignore", "ignored/\n");
    write(root, "ignored/Hidden.java", "package x; class Hidden { void getSomeValue() {} }\n");
    for m in ["core", "api", "web"] {
        write(root, &format!("{m}/pom.xml"), "<project/>\n");
        write(root, &format!("{m}/src/main/resources/application-{m}.properties"), "a=b\n");
        write(root, &format!("{m}/target/classes/Generated.java"), "class Generated { void getSomeValue() {} }\n");
        for i in 0..10 {
            write(
                root,
                &format!("{m}/src/main/java/com/acme/{m}/Service{i}.java"),
                &format!(
                    "package com.acme.{m};\n\n/** Service number {i}. Does things. */\npublic class Service{i} {{\n    private int count{i};\n\n    /** Gets it. */\n    public int getSomeValue() {{ return {i}; }}\n\n    void doThing(int a) {{}}\n    void doThing(String s) {{}}\n}}\n"
                ),
            );
        }
    }
    write(
        root,
        "core/src/main/java/com/acme/core/NullPointerExceptionHandler.java",
        "package com.acme.core;\npublic interface NullPointerExceptionHandler { void handle(); }\n",
    );
    write(
        root,
        "core/src/main/java/com/acme/core/HashMapper.java",
        "package com.acme.core;\npublic final class HashMapper { }\n",
    );
    write(
        root,
        "api/src/main/java/com/acme/api/ServiceMap.java",
        "package com.acme.api;\npublic enum ServiceMap { ONE, TWO }\n",
    );
    write(
        root,
        "api/src/main/java/com/acme/api/Getter.java",
        "package com.acme.api;\npublic record Getter(int get) { public int getSomeValue() { return get; } }\n",
    );
    write(root, "web/src/main/java/com/acme/web/DoThing.java", "package com.acme.web;\n@interface DoThing { }\n");
}

fn indexed(root: &Path) -> Host {
    let ws = open(root, false);
    ws.build_index();
    ws
}

fn sym(query: &str, kind: MatchKind, max: u32, offset: u32) -> FindSymbolArgs {
    FindSymbolArgs {
        root_dir: ".".to_owned(),
        query: query.to_owned(),
        options: FindSymbolOptions { match_kind: kind, max_results: max, offset, ..Default::default() },
    }
}

#[test]
fn ranking_is_exact_then_prefix_then_camel_case_then_substring() {
    let tmp = tempfile::tempdir().expect("tempdir");
    generate(tmp.path());
    write(
        tmp.path(),
        "core/src/main/java/com/acme/core/Rank.java",
        "package com.acme.core;\nclass Rank { void gSV() {} void getSomeValueLater() {} void forgetSomeValue() {} void gsvx() {} }\n",
    );
    let ws = indexed(tmp.path());
    let r =
        mcp_java_index::tools::tool::java_find_symbol::run(&ws, &sym("gSV", MatchKind::Method, 100, 0)).expect("find");
    let names: Vec<&str> = r.results.iter().map(|x| x.qualified_name.rsplit('#').next().unwrap_or("")).collect();
    // exact (gSV), prefix (gsvx), camelCase (getSomeValue x 31, getSomeValueLater), no substring.
    assert_eq!(names[0], "gSV", "{names:?}");
    assert_eq!(names[1], "gsvx", "{names:?}");
    assert!(names[2..].iter().all(|n| n.starts_with("getSomeValue")), "{names:?}");
    assert_eq!(r.page.total, 2 + 31 + 1, "30 services + the record + Rank's own: {names:?}");
    assert!(!names.contains(&"forgetSomeValue"));
    let sub = mcp_java_index::tools::tool::java_find_symbol::run(&ws, &sym("SomeValue", MatchKind::Method, 100, 0))
        .expect("find");
    assert!(sub.results.iter().any(|x| x.qualified_name.ends_with("#forgetSomeValue")));
    // Build output and ignored folders are not indexed.
    assert!(
        r.results.iter().all(|x| !x.file_path.contains("target/") && !x.file_path.contains("ignored/")),
        "{:?}",
        r.results
    );
    // Deterministic.
    let again =
        mcp_java_index::tools::tool::java_find_symbol::run(&ws, &sym("gSV", MatchKind::Method, 100, 0)).expect("find");
    assert_eq!(serde_json::to_value(&r).expect("json"), serde_json::to_value(&again).expect("json"));
}

#[test]
fn find_symbol_results_have_the_spec_fields_and_filters() {
    let tmp = tempfile::tempdir().expect("tempdir");
    generate(tmp.path());
    let ws = indexed(tmp.path());
    let r =
        mcp_java_index::tools::tool::java_find_symbol::run(&ws, &sym("doThing", MatchKind::Any, 50, 0)).expect("find");
    let first = &r.results[0];
    assert_eq!(first.kind, "class", "the annotation type DoThing is an exact match and a type: {:?}", r.results);
    assert_eq!(first.type_kind.as_deref(), Some("annotation"));
    let methods = mcp_java_index::tools::tool::java_find_symbol::run(&ws, &sym("doThing", MatchKind::Method, 50, 0))
        .expect("find");
    assert_eq!(methods.page.total, 60, "two overloads in 30 services");
    let m = &methods.results[0];
    assert_eq!(m.qualified_name, "com.acme.api.Service0#doThing");
    assert_eq!(m.file_path, "api/src/main/java/com/acme/api/Service0.java");
    assert_eq!((m.start_line, m.end_line), (10, 10));
    assert!(m.symbol_id.starts_with("Method#com.acme.api.Service0#doThing(int):void|start:10"), "{}", m.symbol_id);
    assert_eq!(m.signature_text, "void doThing(int a)");
    let fields =
        mcp_java_index::tools::tool::java_find_symbol::run(&ws, &sym("count", MatchKind::Field, 50, 0)).expect("find");
    assert_eq!(fields.page.total, 30);
    let enum_constants =
        mcp_java_index::tools::tool::java_find_symbol::run(&ws, &sym("TWO", MatchKind::Field, 50, 0)).expect("find");
    assert_eq!(enum_constants.results[0].qualified_name, "com.acme.api.ServiceMap#TWO");
    // Qualified queries and rootDir.
    let q = mcp_java_index::tools::tool::java_find_symbol::run(&ws, &sym("Service3#doThing", MatchKind::Any, 50, 0))
        .expect("find");
    assert_eq!(q.page.total, 6, "Service3 in each of three modules, two overloads each");
    let under = FindSymbolArgs { root_dir: "web".to_owned(), ..sym("doThing", MatchKind::Method, 50, 0) };
    let r = mcp_java_index::tools::tool::java_find_symbol::run(&ws, &under).expect("find");
    assert_eq!(r.page.total, 20);
    assert!(r.results.iter().all(|x| x.file_path.starts_with("web/")));
    // Errors.
    let bad = FindSymbolArgs { root_dir: "../..".to_owned(), ..sym("x", MatchKind::Any, 5, 0) };
    assert!(
        mcp_java_index::tools::tool::java_find_symbol::run(&ws, &bad)
            .expect_err("outside")
            .to_string()
            .contains("outside the workspace roots")
    );
    assert!(
        mcp_java_index::tools::tool::java_find_symbol::run(&ws, &sym(" ", MatchKind::Any, 5, 0))
            .expect_err("empty")
            .to_string()
            .contains("query is empty")
    );
    assert!(
        mcp_java_index::tools::tool::java_find_symbol::run(&ws, &sym("x", MatchKind::Any, 0, 0))
            .expect_err("zero")
            .to_string()
            .contains("limit")
    );
}

#[test]
fn pagination_covers_every_result_once() {
    let tmp = tempfile::tempdir().expect("tempdir");
    generate(tmp.path());
    let ws = indexed(tmp.path());
    let all = mcp_java_index::tools::tool::java_find_symbol::run(&ws, &sym("doThing", MatchKind::Method, 500, 0))
        .expect("find");
    assert!(!all.page.truncated && all.page.next_offset.is_none());
    let mut seen = Vec::new();
    let mut offset = 0;
    loop {
        let page =
            mcp_java_index::tools::tool::java_find_symbol::run(&ws, &sym("doThing", MatchKind::Method, 7, offset))
                .expect("find");
        assert_eq!(page.page.total, all.page.total);
        assert!(page.results.len() <= 7);
        seen.extend(page.results.iter().map(|r| r.symbol_id.clone()));
        match page.page.next_offset {
            Some(n) => {
                assert!(page.page.truncated);
                offset = n as u32;
            }
            None => break,
        }
    }
    let want: Vec<String> = all.results.iter().map(|r| r.symbol_id.clone()).collect();
    assert_eq!(seen, want);
}

#[test]
fn find_type_understands_camel_case_wildcards_packages_and_kinds() {
    let tmp = tempfile::tempdir().expect("tempdir");
    generate(tmp.path());
    let ws = indexed(tmp.path());
    let fqns = |p: &str| -> Vec<String> {
        mcp_java_index::tools::tool::find_type::run(&ws, &types(p))
            .expect("find")
            .results
            .into_iter()
            .map(|r| r.fqn)
            .collect()
    };
    assert_eq!(fqns("NPE"), ["com.acme.core.NullPointerExceptionHandler"]);
    assert_eq!(fqns("HMap"), ["com.acme.core.HashMapper"]);
    assert_eq!(fqns("*Map"), ["com.acme.api.ServiceMap"]);
    assert_eq!(fqns("com.acme.api.*Map"), ["com.acme.api.ServiceMap"]);
    assert!(fqns("com.acme.core.*Map").is_empty());
    assert_eq!(fqns("com.acme.web.Service1"), ["com.acme.web.Service1"]);
    assert_eq!(fqns("com.acme.*.Service1").len(), 3);
    assert_eq!(fqns("Service?").len(), 30);
    let r = mcp_java_index::tools::tool::find_type::run(&ws, &FindTypeArgs { kind: TypeFilter::Record, ..types("*") })
        .expect("find");
    assert_eq!(r.results.iter().map(|t| t.fqn.as_str()).collect::<Vec<_>>(), ["com.acme.api.Getter"]);
    let r = mcp_java_index::tools::tool::find_type::run(&ws, &types("Service1")).expect("find");
    let t = &r.results[0];
    assert_eq!((t.kind.as_str(), t.start_line, t.end_line), ("class", 4, 12));
    assert_eq!(t.modifiers, ["public"]);
    assert_eq!(t.summary.as_deref(), Some("Service number 1."));
    assert_eq!(r.page.total, 3, "Service1 in three modules; nothing else starts with Service1");
}

#[test]
fn find_resource_finds_any_file() {
    let tmp = tempfile::tempdir().expect("tempdir");
    generate(tmp.path());
    let ws = indexed(tmp.path());
    let paths = |p: &str| -> Vec<String> {
        mcp_java_index::tools::tool::find_resource::run(
            &ws,
            &FindResourceArgs {
                pattern: p.to_owned(),
                max_results: 50,
                offset: 0,
                root: String::new(),
                include_index: false,
            },
        )
        .expect("find")
        .results
        .into_iter()
        .map(|r| r.file_path)
        .collect()
    };
    assert_eq!(paths("pom.xml"), ["pom.xml", "api/pom.xml", "web/pom.xml", "core/pom.xml"]);
    assert_eq!(paths("*.properties").len(), 3);
    assert_eq!(paths("core/src/main/resources/*.properties"), ["core/src/main/resources/application-core.properties"]);
    assert_eq!(paths("NPEH"), ["core/src/main/java/com/acme/core/NullPointerExceptionHandler.java"]);
    assert!(paths("Generated").is_empty(), "build output is not a resource");
    let r = mcp_java_index::tools::tool::find_resource::run(
        &ws,
        &FindResourceArgs {
            pattern: "pom".to_owned(),
            max_results: 2,
            offset: 0,
            root: String::new(),
            include_index: false,
        },
    )
    .expect("find");
    assert_eq!((r.page.total, r.page.truncated, r.page.next_offset), (4, true, Some(2)));
    assert!(r.results[0].size > 0 && r.results[0].modified.as_deref().is_some_and(|m| m.ends_with('Z')));
}

fn method_files(ws: &Host, name: &str) -> Vec<String> {
    let mut v: Vec<String> =
        mcp_java_index::tools::tool::java_find_symbol::run(ws, &sym(name, MatchKind::Method, 500, 0))
            .expect("find")
            .results
            .into_iter()
            .filter(|r| r.qualified_name.ends_with(&format!("#{name}")))
            .map(|r| r.file_path)
            .collect();
    v.sort();
    v
}

#[test]
fn the_watcher_sees_creations_edits_renames_and_deletions() {
    let tmp = tempfile::tempdir().expect("tempdir");
    generate(tmp.path());
    let ws = open(tmp.path(), true);
    ws.start_index();
    assert!(ws.wait_index());
    let root = tmp.path();
    write(
        root,
        "core/src/main/java/com/acme/core/Fresh.java",
        "package com.acme.core;\nclass Fresh { void brandNewMethod() {} }\n",
    );
    wait_for("a created file", || {
        method_files(&ws, "brandNewMethod") == ["core/src/main/java/com/acme/core/Fresh.java"]
    });
    write(
        root,
        "core/src/main/java/com/acme/core/Fresh.java",
        "package com.acme.core;\nclass Fresh { void editedMethod() {} }\n",
    );
    wait_for("an edited file", || {
        method_files(&ws, "editedMethod").len() == 1 && method_files(&ws, "brandNewMethod").is_empty()
    });
    std::fs::rename(
        root.join("core/src/main/java/com/acme/core/Fresh.java"),
        root.join("core/src/main/java/com/acme/core/Renamed.java"),
    )
    .expect("rename");
    wait_for("a renamed file", || {
        method_files(&ws, "editedMethod") == ["core/src/main/java/com/acme/core/Renamed.java"]
    });
    std::fs::remove_file(root.join("core/src/main/java/com/acme/core/Renamed.java")).expect("rm");
    wait_for("a deleted file", || method_files(&ws, "editedMethod").is_empty());
    // A whole directory moved in and out.
    std::fs::rename(root.join("web"), root.join("moved-web")).expect("rename dir");
    wait_for("a moved directory", || {
        let f = method_files(&ws, "getSomeValue");
        f.iter().all(|p| !p.starts_with("web/")) && f.iter().filter(|p| p.starts_with("moved-web/")).count() == 10
    });
}

#[test]
fn answers_recheck_their_files_even_without_a_watcher() {
    let tmp = tempfile::tempdir().expect("tempdir");
    generate(tmp.path());
    let ws = indexed(tmp.path());
    let path = tmp.path().join("api/src/main/java/com/acme/api/Getter.java");
    assert_eq!(method_files(&ws, "getSomeValue").iter().filter(|p| p.ends_with("Getter.java")).count(), 1);
    // Same query, file edited behind the index's back (no watcher): the stale entry is
    // re-checked before the answer goes out.
    std::fs::write(
        &path,
        "package com.acme.api;\npublic record Getter(int get) {\n\n  public int getSomeValue() { return get; }\n}\n",
    )
    .expect("edit");
    let r = mcp_java_index::tools::tool::java_find_symbol::run(&ws, &sym("getSomeValue", MatchKind::Method, 500, 0))
        .expect("find");
    let g = r.results.iter().find(|x| x.file_path.ends_with("Getter.java")).expect("still there");
    assert_eq!(g.start_line, 4, "the answer reflects the edit");
    std::fs::remove_file(&path).expect("rm");
    let r = mcp_java_index::tools::tool::java_find_symbol::run(&ws, &sym("getSomeValue", MatchKind::Method, 500, 0))
        .expect("find");
    assert!(r.results.iter().all(|x| !x.file_path.ends_with("Getter.java")), "a deleted file is not returned");
}

#[test]
fn a_branch_switch_of_thousands_of_files_converges() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path();
    let generate_branch = |branch: &str, n: usize| {
        for i in 0..n {
            write(
                root,
                &format!("src/pkg{}/C{i}.java", i % 50),
                &format!("package pkg{};\nclass C{i} {{ void on_{branch}_{i}() {{}} }}\n", i % 50),
            );
        }
    };
    generate_branch("main", 3000);
    let ws = open(root, true);
    ws.start_index();
    assert!(ws.wait_index());
    assert_eq!(ws.index().counts().0, 3000);
    // "git checkout other": every file rewritten, 500 deleted, 500 new ones in new folders.
    let started = Instant::now();
    for i in 0..2500 {
        write(
            root,
            &format!("src/pkg{}/C{i}.java", i % 50),
            &format!("package pkg{};\nclass C{i} {{ void on_other_{i}() {{}} }}\n", i % 50),
        );
    }
    for i in 2500..3000 {
        std::fs::remove_file(root.join(format!("src/pkg{}/C{i}.java", i % 50))).expect("rm");
    }
    for i in 0..500 {
        write(
            root,
            &format!("src/newpkg{}/N{i}.java", i % 10),
            &format!("package newpkg{};\nclass N{i} {{ void on_other_new_{i}() {{}} }}\n", i % 10),
        );
    }
    let count = |q: &str| {
        mcp_java_index::tools::tool::java_find_symbol::run(&ws, &sym(q, MatchKind::Method, 1, 0))
            .expect("find")
            .page
            .total
    };
    wait_for("the branch switch", || count("on_main_") == 0 && count("on_other_") == 3000);
    eprintln!("branch switch of 3,500 changed files converged in {:?}", started.elapsed());
    assert_eq!(ws.index().counts().0, 3000);
}

/// The index stores symbols compactly and derives qualified names and symbolIds; they must be
/// exactly the outline's.
#[test]
fn compact_symbols_keep_the_outline_ids() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut checked = 0;
    for f in mcp_java_index::fs::walk::java_files(&dir).files {
        let bytes = std::fs::read(&f).expect("read");
        let outline = mcp_java_index::parser::outline("x", &bytes);
        let want: Vec<&str> =
            mcp_java_index::tools::tool::java_read_javadoc::symbols(&outline).into_iter().map(|(id, _)| id).collect();
        let got = mcp_java_index::index::symbols::symbols_of(&outline);
        let ids: Vec<&str> = got.iter().map(|s| s.symbol_id.as_str()).collect();
        assert_eq!(ids, want, "{}", f.display());
        for s in &got {
            assert!(s.qualified_name.ends_with(&s.name), "{} {}", s.qualified_name, s.name);
        }
        checked += ids.len();
    }
    assert!(checked > 300, "{checked}");
}

fn open_cached(root: &Path, cache: &Path) -> Host {
    let flags = Flags::roots([root]).set("cache_dir", cache.display()).set("watch", false);
    Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace")
}

/// The warm-start snapshot never serves a changed file, and a damaged snapshot is ignored.
#[test]
fn the_snapshot_is_only_an_accelerator() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let cache = tempfile::tempdir().expect("tempdir");
    let root = tmp.path();
    generate(root);
    // Old mtimes, so the snapshot (which leaves out files modified in the last seconds) has them.
    let old = std::time::SystemTime::now() - Duration::from_secs(3600);
    for f in mcp_java_index::fs::walk::java_files(root).files {
        std::fs::File::options().write(true).open(&f).expect("open").set_modified(old).expect("mtime");
    }
    let first = open_cached(root, cache.path());
    first.build_index();
    let want = method_files(&first, "getSomeValue");
    drop(first);
    let snap = std::fs::read_dir(cache.path())
        .expect("cache dir")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .find(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("symbols-")));
    let snap = snap.expect("a snapshot was written");
    // Same size, new content, and an mtime that is old too but different.
    let edited = root.join("api/src/main/java/com/acme/api/Service4.java");
    let text = std::fs::read_to_string(&edited).expect("read").replace("getSomeValue", "getOtherValue");
    std::fs::write(&edited, text).expect("write");
    std::fs::File::options()
        .write(true)
        .open(&edited)
        .expect("open")
        .set_modified(old + Duration::from_secs(5))
        .expect("mtime");
    let second = open_cached(root, cache.path());
    second.build_index();
    assert_eq!(method_files(&second, "getOtherValue"), ["api/src/main/java/com/acme/api/Service4.java"]);
    assert_eq!(method_files(&second, "getSomeValue").len(), want.len() - 1);
    drop(second);
    // A damaged snapshot: ignored, answers unchanged.
    let mut bytes = std::fs::read(&snap).expect("snapshot");
    let mid = bytes.len() / 2;
    bytes.truncate(mid);
    std::fs::write(&snap, bytes).expect("truncate");
    let third = open_cached(root, cache.path());
    third.build_index();
    assert_eq!(method_files(&third, "getOtherValue"), ["api/src/main/java/com/acme/api/Service4.java"]);
    assert_eq!(method_files(&third, "getSomeValue").len(), want.len() - 1);
}

/// A `lombok.config` below a root changed, added or removed while no server ran: the files
/// below it are outlined again on the next start (their snapshot records are salted by their
/// configuration), so the accessors the index lists are those of the configuration now; the
/// other files still come from the snapshot.
#[test]
fn a_lombok_config_changed_while_down_is_seen_after_a_restart() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let cache = tempfile::tempdir().expect("tempdir");
    let root = tmp.path();
    let bean = "package a.b;\n\n@lombok.Getter\npublic class Bean {\n    private int mSize;\n}\n";
    write(root, "a/b/Bean.java", bean);
    write(root, "c/Other.java", "package c;\n\n@lombok.Getter\npublic class Other {\n    private int mCount;\n}\n");
    let old = std::time::SystemTime::now() - Duration::from_secs(3600);
    let config = root.join("a/lombok.config");
    let age = |p: &Path, t: std::time::SystemTime| {
        std::fs::File::options().write(true).open(p).expect("open").set_modified(t).expect("mtime")
    };
    for f in ["a/b/Bean.java", "c/Other.java"] {
        age(&root.join(f), old);
    }
    // The files declaring a method `name` (none: an empty list, not the typo error).
    let files_of = |ws: &Host, name: &str| -> Vec<String> {
        mcp_java_index::tools::tool::java_find_symbol::run(ws, &sym(name, MatchKind::Method, 500, 0))
            .map(|r| {
                r.results
                    .into_iter()
                    .filter(|r| r.qualified_name.ends_with(&format!("#{name}")))
                    .map(|r| r.file_path)
                    .collect()
            })
            .unwrap_or_default()
    };
    // (what the config says, the getter Bean's index has)
    let steps: [(Option<&str>, &str); 3] = [
        (None, "getMSize"),
        (Some("lombok.accessors.prefix += m\n"), "getSize"),
        (Some("lombok.accessors.fluent = true\n"), "mSize"),
    ];
    for (k, (text, want)) in steps.iter().chain([(None, "getMSize")].iter()).enumerate() {
        match text {
            Some(t) => {
                std::fs::write(&config, t).expect("write");
                age(&config, old + Duration::from_secs(k as u64));
            }
            None => {
                let _ = std::fs::remove_file(&config);
            }
        }
        let ws = open_cached(root, cache.path());
        ws.build_index();
        assert_eq!(files_of(&ws, "getMCount"), ["c/Other.java"], "step {k}: {text:?}");
        assert_eq!(files_of(&ws, want), ["a/b/Bean.java"], "step {k}: {text:?}");
    }
}

#[test]
fn several_roots_are_searched_together_with_absolute_paths() {
    let (a, b) = (tempfile::tempdir().expect("tempdir"), tempfile::tempdir().expect("tempdir"));
    write(a.path(), "src/A.java", "class A { void shared() {} }\n");
    write(b.path(), "src/B.java", "class B { void shared() {} }\n");
    let flags = Flags::roots([a.path(), b.path()]).set("watch", false);
    let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    ws.build_index();
    let files = method_files(&ws, "shared");
    let canon = |p: &Path| std::fs::canonicalize(p).expect("canonical").to_string_lossy().into_owned();
    assert_eq!(files.len(), 2, "{files:?}");
    assert!(files.contains(&format!("{}/src/A.java", canon(a.path()))), "{files:?}");
    assert!(files.contains(&format!("{}/src/B.java", canon(b.path()))), "{files:?}");
    // A rootDir inside the second root restricts to it.
    let only_b =
        FindSymbolArgs { root_dir: format!("{}/src", canon(b.path())), ..sym("shared", MatchKind::Method, 10, 0) };
    let r = mcp_java_index::tools::tool::java_find_symbol::run(&ws, &only_b).expect("find");
    assert_eq!(r.page.total, 1);
}

/// A search that matches nothing where a name a few edits away is declared is a typo: an error
/// saying what it may have meant, as `find_references` says it (issue 53) — never "0 types
/// match" (exit 0 on the command line). A name near nothing, or a pattern, still answers 0.
#[test]
fn a_typo_matching_nothing_suggests_the_names_near_it() {
    let tmp = tempfile::tempdir().expect("tempdir");
    generate(tmp.path());
    let ws = indexed(tmp.path());
    let e = mcp_java_index::tools::tool::find_type::run(&ws, &types("HashMpaper")).expect_err("a typo");
    assert_eq!(e.to_string(), "not found: no type matches `HashMpaper`; did you mean com.acme.core.HashMapper?");
    let e = mcp_java_index::tools::tool::java_find_symbol::run(&ws, &sym("getSomeVlaue", MatchKind::Method, 10, 0))
        .expect_err("a typo");
    assert!(e.to_string().starts_with("not found: no symbol matches `getSomeVlaue`; did you mean "), "{e}");
    assert!(e.to_string().contains("#getSomeValue"), "{e}");
    let none = mcp_java_index::tools::tool::find_type::run(&ws, &types("Xyzzy")).expect("near nothing");
    assert_eq!(none.page.total, 0);
    let none = mcp_java_index::tools::tool::find_type::run(&ws, &types("HashMpaper*")).expect("a pattern");
    assert_eq!(none.page.total, 0);
}
