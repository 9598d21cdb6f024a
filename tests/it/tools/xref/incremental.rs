//! The references kept bound between queries (issue 15) stay exact through edits: after each
//! step of a scripted series — an edit inside a method body, a method renamed, an overload
//! added, a class deleted, a type moved to another package, a branch switch rewriting
//! hundreds of files — every answer of the long-lived workspace equals the answer of a
//! workspace opened from scratch on the same files. A body-only edit keeps the other files'
//! bound references; a declaration change drops them.

use crate::common;

use std::path::Path;

use mcp_java_index::config::{Config, Flags};
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::tool::find_references::FindReferencesArgs;
use serde_json::Value;

/// A workspace on `root`; `watch` for the long-lived one, which learns of added and removed
/// files from its watcher (edits of known files are seen by their stamps on every call).
fn open(root: &Path, watch: bool) -> Host {
    let flags = Flags::roots([root]).set("watch", watch).set("cache", false);
    let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    if watch {
        ws.start_index();
        assert!(ws.wait_index(), "the first index pass");
    } else {
        ws.build_index();
    }
    ws
}

fn files_of(ws: &Host) -> Vec<std::sync::Arc<Path>> {
    let mut v: Vec<_> = ws.index().java_files().into_iter().map(|(p, _)| p).collect();
    v.sort();
    v
}

const TARGETS: &[&str] = &[
    "a.Base",
    "a.Base#m(int)",
    "a.Base#m(String)",
    "a.Base#m(long)",
    "a.Base#n(String)",
    "a.Base#m",
    "a.Base#count",
    "a.Base#Base()",
    "a.Sub",
    "a.Sub#m(int)",
    "c.Moved",
    "b.Moved",
    "b.User",
    "g.Gen7",
];

/// Every target's answer (with and without overriders), or its error, as JSON without the
/// index status.
fn answers(ws: &Host) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for t in TARGETS {
        for over in [false, true] {
            let args = FindReferencesArgs {
                target: (*t).to_owned(),
                include_overriders: over,
                limit: 1000,
                ..Default::default()
            };
            let v = match mcp_java_index::tools::tool::find_references::run(ws, &args) {
                Ok(r) => {
                    let mut v = serde_json::to_value(&r).expect("json");
                    let o = v.as_object_mut().expect("object");
                    o.remove("index");
                    v
                }
                Err(e) => Value::String(e.to_string()),
            };
            out.push((format!("{t} overriders={over}"), v));
        }
    }
    out
}

fn write(root: &Path, rel: &str, text: &str) {
    common::write(root, rel, text);
    // A distinct modification time even on a coarse clock.
    let f = std::fs::File::options().write(true).open(root.join(rel)).expect("open");
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(STEP.fetch_add(1, SEQ) + 1);
    f.set_modified(later).expect("mtime");
}

static STEP: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
const SEQ: std::sync::atomic::Ordering = std::sync::atomic::Ordering::SeqCst;

/// Waits until the watcher has applied the events of a step: it receives an event within
/// microseconds and marks a batch pending until it is applied (answers then come without a
/// stat of every file, trusting the watcher).
fn settle(step: &str, live: &Host) {
    std::thread::sleep(std::time::Duration::from_millis(150));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !live.index().is_watching() {
        assert!(std::time::Instant::now() < deadline, "the watcher after {step}");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

fn assert_same(step: &str, root: &Path, live: &Host) {
    settle(step, live);
    let fresh = open(root, false);
    // The watcher has seen every added and removed file.
    let want = files_of(&fresh);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while files_of(live) != want {
        let have = files_of(live);
        let extra: Vec<_> = have.iter().filter(|p| !want.contains(p)).collect();
        let missing: Vec<_> = want.iter().filter(|p| !have.contains(p)).collect();
        assert!(std::time::Instant::now() < deadline, "the watcher after {step}: extra {extra:?}, missing {missing:?}");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let (a, b) = (answers(live), answers(&fresh));
    for ((name, x), (_, y)) in a.iter().zip(&b) {
        // On a difference, name the target and both totals (the answers can be long).
        assert!(x == y, "after {step}: {name} differs from a fresh workspace: {} vs {}", x["total"], y["total"]);
    }
    // The answers are not all empty: the comparison means something.
    assert!(a.iter().any(|(_, v)| v["total"].as_u64().unwrap_or(0) > 0), "after {step}: nothing found");
}

/// Waits until the watcher has indexed `rel`.
fn wait_for_file(ws: &Host, rel: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !files_of(ws).iter().any(|p| p.ends_with(rel)) {
        assert!(std::time::Instant::now() < deadline, "the watcher never saw {rel}");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

fn generated(i: usize, call: &str) -> String {
    format!(
        "package g;\n\nimport a.Base;\n\npublic class Gen{i} {{\n    void go(Base b) {{\n        {call}\n    }}\n}}\n"
    )
}

#[test]
fn kept_references_equal_a_fresh_index_through_edits() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(
        root,
        "a/Base.java",
        "package a;\n\npublic class Base {\n    public static int count;\n    public Base() { }\n    public void m(int x) { count += x; }\n    public void m(String s) { }\n}\n",
    );
    write(
        root,
        "a/Sub.java",
        "package a;\n\npublic class Sub extends Base {\n    @Override\n    public void m(int x) { super.m(x); }\n}\n",
    );
    write(
        root,
        "b/User.java",
        "package b;\n\nimport a.Base;\nimport a.Sub;\n\npublic class User {\n    void run(Base b, Sub s) {\n        b.m(1);\n        b.m(\"s\");\n        s.m(2);\n        new Sub().m(Base.count);\n        Moved.go();\n    }\n}\n",
    );
    write(root, "b/Moved.java", "package b;\n\npublic class Moved {\n    public static void go() { }\n}\n");
    write(
        root,
        "b/Gone.java",
        "package b;\n\nimport a.Base;\n\nclass Gone extends Base {\n    void run() { m(3); m(\"t\"); }\n}\n",
    );
    for i in 0..200 {
        write(root, &format!("g/Gen{i}.java"), &generated(i, "b.m(1);"));
    }
    let live = open(root, true);
    assert_same("the start", root, &live);
    let (files, refs) = live.xref_bound();
    assert!(files > 200 && refs > 0, "references are kept bound: {files} files, {refs} refs");

    // 0. What binding every file derived per type is shed (as the server's keeper does after
    // a pass): the references stay kept and every answer stays the same.
    assert!(live.xref_world().0.derived_memos() > 0, "binding derives memos");
    assert!(!live.compact_references(), "no store to read back without a cache");
    assert_eq!(live.xref_world().0.derived_memos(), 0, "no memo is left after shedding");
    assert_eq!(live.xref_bound(), (files, refs), "shedding keeps the bound references");
    assert_same("the memos shed", root, &live);
    assert!(live.xref_world().0.derived_memos() > 0, "answers derive again what they need");

    // 1. An edit inside a method body: the world's shape is unchanged, so only that file is
    // bound again; its new call is found.
    write(
        root,
        "b/User.java",
        "package b;\n\nimport a.Base;\nimport a.Sub;\n\npublic class User {\n    void run(Base b, Sub s) {\n        b.m(1);\n        b.m(\"s\");\n        s.m(2);\n        b.m(4);\n        new Sub().m(Base.count);\n        Moved.go();\n    }\n}\n",
    );
    assert_same("a body edit", root, &live);
    assert!(live.xref_bound().0 > 200, "a body edit keeps the other files' references");

    // 1b. A class added that no other file mentions: the declarations changed, but only the
    // files that mention one of its names are bound again (none here).
    write(root, "z/Other.java", "package z;\n\npublic class Other {\n    public void zz() { }\n}\n");
    wait_for_file(&live, "z/Other.java");
    settle("an unrelated class added", &live);
    let _ = live.xref_world();
    let kept = live.xref_bound().0;
    assert!(kept > 200, "a class no file mentions keeps the other files' references: {kept} files kept");
    assert_same("an unrelated class added", root, &live);

    // 2. A method renamed (one caller updated, the other left calling the old name).
    write(
        root,
        "a/Base.java",
        "package a;\n\npublic class Base {\n    public static int count;\n    public Base() { }\n    public void m(int x) { count += x; }\n    public void n(String s) { }\n}\n",
    );
    write(
        root,
        "b/Gone.java",
        "package b;\n\nimport a.Base;\n\nclass Gone extends Base {\n    void run() { m(3); n(\"t\"); }\n}\n",
    );
    settle("a rename", &live);
    let _ = live.xref_world();
    let kept = live.xref_bound().0;
    assert!(kept < 10, "a renamed method drops the files that mention its names: {kept} files kept");
    assert_same("a rename", root, &live);

    // 3. An overload added: calls with a long argument now bind to it.
    write(
        root,
        "a/Base.java",
        "package a;\n\npublic class Base {\n    public static int count;\n    public Base() { }\n    public void m(int x) { count += x; }\n    public void m(long x) { }\n    public void n(String s) { }\n}\n",
    );
    write(root, "g/Gen7.java", &generated(7, "b.m(7L); b.m(7);"));
    assert_same("an overload added", root, &live);

    // 4. A class deleted.
    std::fs::remove_file(root.join("b/Gone.java")).expect("delete");
    assert_same("a class deleted", root, &live);

    // 5. A type moved to another package, its user updated.
    std::fs::remove_file(root.join("b/Moved.java")).expect("move");
    write(root, "c/Moved.java", "package c;\n\npublic class Moved {\n    public static void go() { }\n}\n");
    write(
        root,
        "b/User.java",
        "package b;\n\nimport a.Base;\nimport a.Sub;\nimport c.Moved;\n\npublic class User {\n    void run(Base b, Sub s) {\n        b.m(1);\n        b.n(\"s\");\n        s.m(2);\n        b.m(4);\n        new Sub().m(Base.count);\n        Moved.go();\n    }\n}\n",
    );
    assert_same("a type moved", root, &live);

    // 6. A branch switch: every generated file rewritten, some removed, new ones added.
    for i in 0..200 {
        if i % 10 == 9 {
            std::fs::remove_file(root.join(format!("g/Gen{i}.java"))).expect("remove");
        } else {
            write(root, &format!("g/Gen{i}.java"), &generated(i, "b.n(\"x\"); new a.Sub().m(Base.count);"));
        }
    }
    for i in 200..260 {
        write(root, &format!("g/Gen{i}.java"), &generated(i, "b.m(1L);"));
    }
    assert_same("a branch switch", root, &live);
}

/// Writes a file with a modification time well in the past (so the persisted index keeps it:
/// files modified within two seconds of a write are left out), distinct for every call.
fn write_old(root: &Path, rel: &str, text: &str) {
    common::write(root, rel, text);
    let f = std::fs::File::options().write(true).open(root.join(rel)).expect("open");
    let t = std::time::SystemTime::now() - std::time::Duration::from_secs(100_000 - STEP.fetch_add(1, SEQ));
    f.set_modified(t).expect("mtime");
}

/// A workspace whose cache (and so its persisted reference index) is on, without a watcher.
fn open_cached(root: &Path) -> Host {
    let flags = Flags::roots([root]).set("watch", false);
    let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    ws.build_index();
    ws
}

#[test]
fn the_reference_index_is_persisted_and_stays_exact_after_a_restart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write_old(
        root,
        "a/Base.java",
        "package a;\n\npublic class Base {\n    public static int count;\n    public void m(int x) { count += x; }\n    public void m(String s) { }\n}\n",
    );
    write_old(
        root,
        "a/Sub.java",
        "package a;\n\npublic class Sub extends Base {\n    @Override\n    public void m(int x) { }\n}\n",
    );
    write_old(root, "b/Moved.java", "package b;\n\npublic class Moved {\n    public static void go() { }\n}\n");
    for i in 0..50 {
        write_old(root, &format!("g/Gen{i}.java"), &generated(i, "b.m(1);"));
    }
    for i in 0..50 {
        write_old(
            root,
            &format!("h/Go{i}.java"),
            &format!("package h;\n\nclass Go{i} {{\n    void go() {{ b.Moved.go(); }}\n}}\n"),
        );
    }
    {
        let first = open_cached(root);
        assert!(first.warm_references() >= 100, "every file bound");
        first.flush();
        assert!(first.write_errors().is_empty());
        // What the pass left is compacted as a server's keeper does after it: the store just
        // written is read back, with every reference kept and the same answers.
        let kept = first.xref_bound();
        assert!(first.compact_references(), "the store just written is read back");
        assert_eq!(first.xref_bound(), kept, "compacting keeps every bound file");
        assert_eq!(answers(&first), answers(&open(root, false)), "answers after compacting");
    }
    // A restart with nothing changed: every file's references come from disk.
    let second = open_cached(root);
    let _ = second.xref_world();
    assert!(second.xref_bound().0 >= 100, "a restart reads the bound references back: {:?}", second.xref_bound());
    // Only the store's table is read at the start; a file's references when a query needs them.
    let lazy = second.xref_bound_bytes();
    assert_eq!(answers(&second), answers(&open(root, false)), "answers after a restart");
    assert!(second.xref_bound_bytes() > lazy, "the queries read references from the store: {lazy} bytes before");
    drop(second);
    // A server's reference keeper reads the store while the first index pass runs: the
    // world and the table are in memory before the first call, and answer as a fresh bind.
    let early = Host::open(Config::load(&Flags::roots([root]).set("watch", false), &|_| None).expect("config"))
        .expect("workspace");
    early.preload_references();
    assert!(early.xref_bound().0 >= 100, "read back before the index pass: {:?}", early.xref_bound());
    early.build_index();
    assert_eq!(answers(&early), answers(&open(root, false)), "answers after a preload");
    drop(early);

    // Edited while no server ran: an overload of m added. The files that mention m are bound
    // again; the ones that only call Moved.go() are still read from disk.
    write_old(
        root,
        "a/Base.java",
        "package a;\n\npublic class Base {\n    public static int count;\n    public void m(int x) { count += x; }\n    public void m(long x) { }\n    public void m(String s) { }\n}\n",
    );
    write_old(root, "g/Gen3.java", &generated(3, "b.m(3L);"));
    let third = open_cached(root);
    let _ = third.xref_world();
    let (files, _) = third.xref_bound();
    assert!((50..100).contains(&files), "the Go files are kept and the Gen files dropped: {files} files kept");
    assert_eq!(answers(&third), answers(&open(root, false)), "answers after an edit between runs");
    // A file written just before the index is: kept with a stamp that never matches, so the
    // next start reads it again and compares its declarations (nothing else is dropped).
    third.warm_references();
    common::write(root, "g/Gen4.java", &generated(4, "b.m(4L);"));
    let _ = third.xref_world();
    third.flush();
    drop(third);
    let fourth = open_cached(root);
    let _ = fourth.xref_world();
    let (files, _) = fourth.xref_bound();
    assert!(files >= 95, "a file saved racy drops only itself: {files} files kept");
    assert_eq!(answers(&fourth), answers(&open(root, false)), "answers after a racy save");
}

/// A persisted reference index that this user's runs did not write as it is (altered, or
/// shipped by a repository) is not read: its MAC does not hold.
#[test]
fn an_altered_reference_index_is_not_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write_old(root, "a/Base.java", "package a;\n\npublic class Base {\n    public void m(int x) { }\n}\n");
    for i in 0..20 {
        write_old(root, &format!("g/Gen{i}.java"), &generated(i, "b.m(1);"));
    }
    {
        let first = open_cached(root);
        assert!(first.warm_references() > 20);
        first.flush();
    }
    let store = std::fs::read_dir(root.join(".mcp-java-index-cache"))
        .expect("cache dir")
        .flatten()
        .map(|e| e.path())
        .find(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("xref-")))
        .expect("the persisted index");
    // Unaltered, a restart reads it back.
    let second = open_cached(root);
    let _ = second.xref_world();
    assert!(second.xref_bound().0 > 20, "read back: {:?}", second.xref_bound());
    drop(second);
    // One bit of the first file's stored references (the table's MAC still holds): that file
    // is bound again when a query needs it, and the answers stay exact.
    let mut bytes = std::fs::read(&store).expect("read");
    bytes[9] ^= 1;
    std::fs::write(&store, &bytes).expect("write");
    let altered = open_cached(root);
    let _ = altered.xref_world();
    assert!(altered.xref_bound().0 > 20, "the table is read back: {:?}", altered.xref_bound());
    assert_eq!(answers(&altered), answers(&open(root, false)), "answers with one file's references altered");
    drop(altered);
    bytes[9] ^= 1;
    // One bit of the MAC that ends the file: the table still decodes, but it is not read.
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&store, bytes).expect("write");
    let third = open_cached(root);
    let _ = third.xref_world();
    assert_eq!(third.xref_bound().0, 0, "an altered index is not read");
    assert_eq!(answers(&third), answers(&open(root, false)), "answers from the files");
}
