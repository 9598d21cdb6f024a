//! Issue 33's proof of `call_hierarchy`: incoming callers at depth 1 against javac's
//! attribution (`RefDump --callers`: each reference with the member it is written in), on the
//! xref fixtures, commons-lang3 and the JDK's java.base. An edge is (callee, caller) for the
//! workspace's methods and constructors, from references of kind `call`, `new` and
//! `method-ref`; a site is an edge with its file, line and column. The call hierarchy's own
//! answer (the reference index, grouped by caller) is checked against the same edges for a
//! sample of callees.

use super::score::Score;
use crate::common;

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use mcp_java_index::xref::bind::file_refs;
use mcp_java_index::xref::calls::{self, Direction, Query};
use mcp_java_index::xref::engine::{FileStamp, XrefEngine, file_index};
use mcp_java_index::xref::world::World;
use mcp_java_index::xref::{Category, RefKind};

/// (file, line, column, callee, caller).
type Site = (String, u32, u32, String, String);

const KINDS: [&str; 3] = ["call", "new", "method-ref"];

fn engine_of(files: &[PathBuf]) -> (XrefEngine, Arc<World>, Vec<Arc<Path>>) {
    let stamps: Vec<FileStamp> = files
        .iter()
        .map(|p| {
            let m = std::fs::metadata(p).expect("metadata");
            FileStamp { path: Arc::from(p.as_path()), stamp: mji_fs::stamp::Stamp { size: m.len(), mtime_ns: 1 } }
        })
        .collect();
    let engine = XrefEngine::new();
    let (w, _) = engine.world(&stamps);
    let paths = stamps.into_iter().map(|s| s.path).collect();
    (engine, w, paths)
}

fn rel(root: &Path, p: &Path) -> String {
    p.strip_prefix(root).map(|r| r.to_string_lossy().replace('\\', "/")).unwrap_or_default()
}

/// Our call sites to workspace methods and constructors, one per (reference, candidate).
fn ours(w: &World, roots: &[PathBuf], files: &[Arc<Path>]) -> HashSet<Site> {
    let mut out = HashSet::new();
    for p in files {
        let Some(root) = roots.iter().find(|r| p.starts_with(r)) else { continue };
        let bytes = std::fs::read(p).expect("read");
        for r in file_refs(w, file_index(w, p), &bytes) {
            if !matches!(r.kind, RefKind::Call | RefKind::New | RefKind::MethodRef)
                || !matches!(r.category, Category::Method | Category::Ctor)
            {
                continue;
            }
            let caller = r.caller.as_ref().map_or("-".to_owned(), |c| c.key.clone());
            for t in &r.targets {
                if in_workspace(w, t) {
                    out.insert((rel(root, p), r.line, r.column, t.clone(), caller.clone()));
                }
            }
        }
    }
    out
}

fn in_workspace(w: &World, key: &str) -> bool {
    key.split_once('#').is_some_and(|(o, _)| w.workspace_type(o).is_some_and(|id| w.is_workspace(id)))
}

/// javac's call sites to the compiled sources' methods and constructors.
fn javac(args: &[String], roots: &[PathBuf], w: &World) -> HashSet<Site> {
    let out = std::process::Command::new("java")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/javac/RefDump.java"))
        .arg("--callers")
        .args(args)
        .args(roots)
        .output()
        .expect("running java tests/javac/RefDump.java --callers");
    assert!(out.status.success(), "RefDump failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let wanted = f.len() >= 8
                && KINDS.contains(&f[3])
                && matches!(f[4], "method" | "ctor")
                && f[6] == "source"
                && in_workspace(w, f[5]);
            wanted
                .then(|| Some((f[0].to_string(), f[1].parse().ok()?, f[2].parse().ok()?, f[5].into(), f[7].into())))?
        })
        .collect()
}

fn score<T: Ord + Clone + std::fmt::Debug>(name: &str, a: &BTreeSet<T>, b: &BTreeSet<T>) -> Score {
    let s = Score {
        tp: a.intersection(b).count(),
        tp_likely: 0,
        fp: a.difference(b).count(),
        fp_exact: 0,
        fn_: b.difference(a).count(),
    };
    eprintln!(
        "{name:6} tp {:7} fp {:5} fn {:5}  precision {:.3}%  recall {:.3}%",
        s.tp,
        s.fp,
        s.fn_,
        100.0 * s.precision(),
        100.0 * s.recall()
    );
    let shown: usize = std::env::var("CALLS_SHOW").ok().and_then(|v| v.parse().ok()).unwrap_or(10);
    for k in a.difference(b).take(shown) {
        eprintln!("  FP {k:?}");
    }
    for k in b.difference(a).take(shown) {
        eprintln!("  FN {k:?}");
    }
    s
}

/// Compares the edges and sites of a tree of sources; checks `call_hierarchy` on a sample of
/// callees; returns the edges' and sites' scores and the share of the sites both bind alike
/// whose caller agrees.
fn check(name: &str, roots: &[PathBuf], javac_args: &[String]) -> (Score, Score, f64) {
    let files: Vec<PathBuf> = roots.iter().flat_map(|r| common::java_files_under(r)).collect();
    let (engine, w, paths) = engine_of(&files);
    let theirs = javac(javac_args, roots, &w);
    let mine = ours(&w, roots, &paths);
    eprintln!("== {name}: call sites to the workspace's methods and constructors, by enclosing member");
    let edges = |s: &HashSet<Site>| s.iter().map(|k| (k.3.clone(), k.4.clone())).collect::<BTreeSet<_>>();
    let e = score("edges", &edges(&mine), &edges(&theirs));
    let s = score("sites", &mine.iter().cloned().collect(), &theirs.iter().cloned().collect());
    // The attribution alone: of the sites both bind to the same callee, the share whose caller
    // agrees.
    let at = |s: &HashSet<Site>| {
        s.iter().map(|k| ((k.0.clone(), k.1, k.2, k.3.clone()), k.4.clone())).collect::<BTreeMap<_, _>>()
    };
    let (a, b) = (at(&mine), at(&theirs));
    let both = a.keys().filter(|k| b.contains_key(*k)).count();
    let same = a.iter().filter(|(k, c)| b.get(*k) == Some(*c)).count();
    let agree = same as f64 / both.max(1) as f64;
    eprintln!("caller of the sites both bind alike: {same} of {both} agree ({:.3}%)", 100.0 * agree);
    // The tool's path: the reference index, grouped by caller, for a sample of callees.
    let callees: BTreeSet<&String> = mine.iter().map(|k| &k.3).collect();
    let step = (callees.len() / 150).max(1);
    for callee in callees.iter().step_by(step) {
        let target = mcp_java_index::xref::target::resolve_target(&w, callee).expect("a declared callee");
        let q = Query {
            direction: Direction::Incoming,
            depth: 1,
            include_overriders: false,
            offset: 0,
            limit: usize::MAX,
            max_nodes: usize::MAX,
        };
        let h = calls::call_hierarchy(&engine, &w, &paths, &target, &q);
        let got: BTreeSet<String> = h.roots.iter().map(|n| n.member.key.clone()).collect();
        let want: BTreeSet<String> =
            mine.iter().filter(|k| &&k.3 == callee && k.4 != "-").map(|k| k.4.clone()).collect();
        // An overload target also counts the calls of its other keys; the callers of this one
        // are all there.
        assert!(want.is_subset(&got), "{callee}: binder {want:?}, call_hierarchy {got:?}");
    }
    (e, s, agree)
}

#[test]
fn fixtures_callers_match_javac() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/xref/src");
    let (e, s, agree) = check("fixtures", &[root], &[]);
    assert!(e.precision() >= 0.99 && e.recall() >= 0.99, "{e:?}");
    assert!(s.precision() >= 0.99 && s.recall() >= 0.99, "{s:?}");
    assert_eq!(agree, 1.0);
}

/// commons-lang3 (88k lines). Measured: see CHANGELOG (issue 33).
#[test]
fn commons_lang3_callers_match_javac() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/corpus/commons-lang3/src/main/java");
    if !root.is_dir() {
        assert!(std::env::var_os("CI").is_none(), "corpus missing: run .ci/run");
        eprintln!("skipped: {} missing (run .ci/run)", root.display());
        return;
    }
    // Measured: edges P 99.944% R 99.972%, sites P 99.929% R 99.976%, callers 100%.
    let (e, s, agree) = check("commons-lang3", &[root], &[]);
    assert!(e.precision() >= 0.995 && e.recall() >= 0.995, "{e:?}");
    assert!(s.precision() >= 0.995 && s.recall() >= 0.995, "{s:?}");
    assert!(agree >= 0.999, "{agree}");
}

/// The JDK's java.base as a workspace (every package: its callers' keys name sun.* and jdk.*
/// types), compiled by javac as its own sources. Measured: edges P 99.589% R 99.760%, sites
/// P 99.543% R 99.726%; the caller of 99.915% of the sites both bind alike agrees. What is left
/// is the binder's (overloads and receivers it answers `likely` with several candidates; calls
/// of an anonymous class's override, bound to the method it overrides as a rename needs, which
/// javac binds to the keyless override), not the attribution to callers.
#[test]
fn java_base_callers_match_javac() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/jdk-src/java.base");
    if !src.join("java/lang").is_dir() {
        assert!(std::env::var_os("CI").is_none(), "JDK sources missing: run .ci/run");
        eprintln!("skipped: no JDK sources at {}", src.display());
        return;
    }
    let parts = std::env::var("CALLS_JAVA_BASE").unwrap_or_else(|_| "java,javax,jdk,sun,com".to_owned());
    let roots: Vec<PathBuf> = parts.split(',').map(|r| src.join(r)).collect();
    let (e, s, agree) = check("java.base", &roots, &["--patch-module".into(), format!("java.base={}", src.display())]);
    assert!(e.precision() >= 0.995 && e.recall() >= 0.997, "{e:?}");
    assert!(s.precision() >= 0.995 && s.recall() >= 0.997, "{s:?}");
    assert!(agree >= 0.999, "{agree}");
}
