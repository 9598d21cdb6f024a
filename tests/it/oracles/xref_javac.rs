//! The self-check of issue 5: every reference our resolver binds, against javac's attributed
//! trees (tests/javac/RefDump.java), on the resolution fixtures and on commons-lang3.

use super::score::Score;
use crate::common;

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use mcp_java_index::xref::bind::file_refs;
use mcp_java_index::xref::engine::{FileStamp, Stamp, XrefEngine, file_index};
use mcp_java_index::xref::world::World;

type Key = (String, u32, u32, String, String);

fn world_of(root: &Path) -> (Arc<World>, Vec<PathBuf>) {
    world_without(root, &HashSet::new())
}

/// The world of the files under `root` but those in `unseen` (paths relative to `root`).
fn world_without(root: &Path, unseen: &HashSet<String>) -> (Arc<World>, Vec<PathBuf>) {
    let files: Vec<PathBuf> =
        common::java_files_under(root).into_iter().filter(|p| !unseen.contains(&rel_of(root, p))).collect();
    let stamps: Vec<FileStamp> = files
        .iter()
        .map(|p| {
            let m = std::fs::metadata(p).expect("metadata");
            FileStamp { path: Arc::from(p.as_path()), stamp: Stamp { size: m.len(), mtime_ns: 0 } }
        })
        .collect();
    let (w, _) = XrefEngine::new().world(&stamps);
    (w, files)
}

fn rel_of(root: &Path, p: &Path) -> String {
    p.strip_prefix(root).expect("under root").to_string_lossy().replace('\\', "/")
}

/// Our references under `root`, one entry per (reference, candidate target).
fn ours(root: &Path) -> (Vec<(Key, bool)>, Arc<World>) {
    ours_without(root, &HashSet::new())
}

/// Our references in the files under `root` but `unseen`, bound in a world without them.
fn ours_without(root: &Path, unseen: &HashSet<String>) -> (Vec<(Key, bool)>, Arc<World>) {
    let (w, files) = world_without(root, unseen);
    let mut out = Vec::new();
    for p in &files {
        let rel = rel_of(root, p);
        let bytes = std::fs::read(p).expect("read");
        for r in file_refs(&w, file_index(&w, p), &bytes) {
            // Javadoc references are compared on their own (javadoc_references_agree_with_doctrees).
            // Override declarations of keyless classes are no references javac reports.
            if matches!(
                r.kind,
                mcp_java_index::xref::RefKind::Javadoc
                    | mcp_java_index::xref::RefKind::Override
                    | mcp_java_index::xref::RefKind::Lambda
            ) {
                continue;
            }
            for t in &r.targets {
                let exact = r.confidence == mcp_java_index::xref::Confidence::Exact;
                out.push(((rel.clone(), r.line, r.column, r.category.as_str().to_string(), t.clone()), exact));
            }
        }
    }
    (out, w)
}

fn javac(tsv: &str) -> Vec<(Key, bool)> {
    tsv.lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            if f.len() < 7 || f[3] == "javadoc" {
                return None;
            }
            let key = (f[0].to_string(), f[1].parse().ok()?, f[2].parse().ok()?, f[4].to_string(), f[5].to_string());
            Some((key, f[6] == "source"))
        })
        .collect()
}

fn run_refdump(root: &Path) -> String {
    let out = std::process::Command::new("java")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/javac/RefDump.java"))
        .arg(root)
        .output()
        .expect("running java tests/javac/RefDump.java");
    assert!(out.status.success(), "RefDump failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("utf-8")
}

struct Report {
    by_cat: BTreeMap<String, Score>,
    false_pos: Vec<Key>,
    false_neg: Vec<Key>,
}

/// Types: every reference. Members: references to workspace declarations (javac: `source`).
fn compare(ours: &[(Key, bool)], theirs: &[(Key, bool)], w: &World) -> Report {
    let in_ws = |k: &Key| {
        k.3 == "type"
            || k.4.split_once('#').is_some_and(|(owner, _)| w.by_fqn(owner).is_some_and(|id| w.is_workspace(id)))
    };
    let a: HashSet<&Key> = ours.iter().map(|(k, _)| k).filter(|k| in_ws(k)).collect();
    let exact: HashSet<&Key> = ours.iter().filter(|(_, e)| *e).map(|(k, _)| k).collect();
    let b: HashSet<&Key> = theirs.iter().filter(|(k, src)| k.3 == "type" || *src).map(|(k, _)| k).collect();
    let mut by_cat: BTreeMap<String, Score> = BTreeMap::new();
    let mut false_pos = Vec::new();
    let mut false_neg = Vec::new();
    for k in &a {
        let s = by_cat.entry(k.3.clone()).or_default();
        if b.contains(k) {
            s.tp += 1;
            if !exact.contains(k) {
                s.tp_likely += 1;
                if std::env::var_os("XREF_LIKELY").is_some() {
                    eprintln!("  likely {k:?}");
                }
            }
        } else {
            s.fp += 1;
            if exact.contains(k) {
                s.fp_exact += 1;
                if std::env::var_os("XREF_EXACT_FP").is_some() {
                    eprintln!("  FP exact {k:?}");
                }
            }
            false_pos.push((*k).clone());
        }
    }
    for k in &b {
        if !a.contains(k) {
            by_cat.entry(k.3.clone()).or_default().fn_ += 1;
            false_neg.push((*k).clone());
        }
    }
    false_pos.sort();
    false_neg.sort();
    Report { by_cat, false_pos, false_neg }
}

fn print(name: &str, r: &Report) {
    eprintln!("== {name}");
    for (cat, s) in &r.by_cat {
        eprintln!(
            "{cat:6} tp {:6} fp {:5} (exact {:4}) fn {:5}  precision {:.2}%  recall {:.2}%  likely {:.2}% of tp",
            s.tp,
            s.fp,
            s.fp_exact,
            s.fn_,
            100.0 * s.precision(),
            100.0 * s.recall(),
            100.0 * s.tp_likely as f64 / s.tp.max(1) as f64
        );
    }
    let (tp, likely) = r.by_cat.values().fold((0, 0), |(a, b), s| (a + s.tp, b + s.tp_likely));
    eprintln!("all    likely {likely} of {tp} correct references ({:.2}%)", 100.0 * likely as f64 / tp.max(1) as f64);
    if std::env::var_os("XREF_ALL").is_some() {
        for k in &r.false_pos {
            eprintln!("  FPALL {k:?}");
        }
    }
    for k in r.false_pos.iter().take(40) {
        eprintln!("  FP {k:?}");
    }
    for k in r.false_neg.iter().take(40) {
        eprintln!("  FN {k:?}");
    }
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/xref/src")
}

/// Every reference in the resolution fixtures binds as javac binds it.
#[test]
fn fixtures_match_javac() {
    let tsv = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/xref/javac-refs.tsv"))
        .expect("oracle");
    let (o, w) = ours(&fixtures());
    let r = compare(&o, &javac(&tsv), &w);
    print("fixtures", &r);
    for (cat, s) in &r.by_cat {
        assert!(s.precision() >= 0.99 && s.recall() >= 0.99, "{cat}: {s:?}");
    }
}

/// The committed oracle is what RefDump prints for the fixtures today.
#[test]
fn fixture_oracle_is_current() {
    let fresh = run_refdump(&fixtures());
    let committed =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/xref/javac-refs.tsv"))
            .expect("oracle");
    assert_eq!(fresh, committed, "regenerate tests/fixtures/xref/javac-refs.tsv with RefDump");
}

fn anon_fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/edit_fixtures/anon")
}

/// Issue 53, item 1: inside an anonymous class, a call on the result of the class's own method
/// (`delegate().read(in)`, generic and diamond), of an enclosing class's method
/// (`sources().findAny().isEmpty()`) and of an enclosing anonymous class's own method binds
/// every reference as javac does, each exact, and nothing else (no workspace `isEmpty()`).
#[test]
fn calls_on_anonymous_classes_own_methods_results_match_javac() {
    let root = anon_fixtures();
    let tsv = std::fs::read_to_string(root.join("javac-refs.tsv")).expect("oracle");
    let (o, w) = ours(&root);
    let r = compare(&o, &javac(&tsv), &w);
    print("anonymous classes", &r);
    assert_eq!(r.false_pos, Vec::<Key>::new(), "bound where javac binds nothing");
    assert_eq!(r.false_neg, Vec::<Key>::new(), "javac binds, we do not");
    let likely: Vec<&Key> = o.iter().filter(|(k, e)| !e && k.4.starts_with("anon.")).map(|(k, _)| k).collect();
    assert_eq!(likely, Vec::<&Key>::new(), "workspace references only `likely`");
}

/// The committed oracles of the strict fixtures are what RefDump prints for them.
#[test]
fn anon_fixture_oracle_is_current() {
    for root in [anon_fixtures(), capture_fixtures(), bounds_fixtures()] {
        let committed = std::fs::read_to_string(root.join("javac-refs.tsv")).expect("oracle");
        assert_eq!(run_refdump(&root), committed, "regenerate {}/javac-refs.tsv with RefDump", root.display());
    }
}

fn capture_fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/edit_fixtures/capture")
}

/// Issue 51 (`@SuperBuilder`'s self-typed builders): a call on `Builder<?, ?>` whose method
/// returns the type variable `B extends Builder<C, B>` returns the captured bound, so a chain
/// `builder().size(1).weight(2L).size(3)…build()` binds every call exactly, as javac does.
#[test]
fn calls_through_captured_wildcards_match_javac() {
    let root = capture_fixtures();
    let tsv = std::fs::read_to_string(root.join("javac-refs.tsv")).expect("oracle");
    let (o, w) = ours(&root);
    let r = compare(&o, &javac(&tsv), &w);
    print("captured wildcards", &r);
    assert_eq!(r.false_pos, Vec::<Key>::new(), "bound where javac binds nothing");
    assert_eq!(r.false_neg, Vec::<Key>::new(), "javac binds, we do not");
    let likely: Vec<&Key> = o.iter().filter(|(k, e)| !e && k.4.starts_with("capture.")).map(|(k, _)| k).collect();
    assert_eq!(likely, Vec::<&Key>::new(), "workspace references only `likely`");
}

fn bounds_fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/edit_fixtures/bounds")
}

/// Issue 53, found by the java.base rename proof at 100 picks: a call on a type variable of
/// several bounds (`T extends Object & Cmp<? super T>`, a class's `V extends Object & Cmp<V>`)
/// binds to the bound that declares the method (it was not bound at all, and a rename of
/// `Comparable#compareTo`'s family left `Collections.min`'s call); in an anonymous class that
/// declares an overload of an inherited name, the call only its own method can take is its own
/// (it was bound to the inherited `reduce(B, BinaryOperator)`), and the call on its result binds.
#[test]
fn calls_on_intersection_bounds_and_anonymous_overloads_match_javac() {
    let root = bounds_fixtures();
    let tsv = std::fs::read_to_string(root.join("javac-refs.tsv")).expect("oracle");
    let (o, w) = ours(&root);
    let r = compare(&o, &javac(&tsv), &w);
    print("intersection bounds", &r);
    assert_eq!(r.false_pos, Vec::<Key>::new(), "bound where javac binds nothing");
    assert_eq!(r.false_neg, Vec::<Key>::new(), "javac binds, we do not");
    let likely: Vec<&Key> = o.iter().filter(|(k, e)| !e && k.4.starts_with("bounds.")).map(|(k, _)| k).collect();
    assert_eq!(likely, Vec::<&Key>::new(), "workspace references only `likely`");
}

/// Precision and recall on commons-lang3 (88k lines), against javac's attribution. The corpus
/// is fetched by .ci/run; without it the test says so and fails in CI.
#[test]
fn commons_lang3_precision_and_recall() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/corpus/commons-lang3/src/main/java");
    if !root.is_dir() {
        assert!(std::env::var_os("CI").is_none(), "corpus missing: run .ci/run");
        eprintln!("skipped: {} missing (run .ci/run)", root.display());
        return;
    }
    let tsv = run_refdump(&root);
    let t = std::time::Instant::now();
    mcp_java_index::xref::world::jdk_api::JdkApi::get();
    let load = t.elapsed();
    let (o, w) = ours(&root);
    let r = compare(&o, &javac(&tsv), &w);
    print("commons-lang3", &r);
    // Issue 13's goal: under 5% of the references javac binds are answered `likely`.
    let (tp, likely) = r.by_cat.values().fold((0, 0), |(a, b), s| (a + s.tp, b + s.tp_likely));
    assert!(likely * 20 < tp, "{likely} of {tp} correct references are only `likely`");
    eprintln!("JDK API table load (once per process): {load:?}");
    // Relinking cost, with and without the JDK API table (loaded once per process).
    let list: Vec<_> = w.files.iter().map(|f| (f.path.clone(), f.decls().clone())).collect();
    for (name, with) in [("with JDK API", true), ("without JDK API", false), ("with JDK API", true)] {
        let t = std::time::Instant::now();
        let n = 5;
        for _ in 0..n {
            let w2 = if with { World::new(list.clone()) } else { World::new_without_jdk_api(list.clone()) };
            std::hint::black_box(w2.type_count());
        }
        eprintln!("World::new {name}: {:?}", t.elapsed() / n);
    }
    let goal = |cat: &str, p: f64, rc: f64| {
        let s = r.by_cat.get(cat).expect("category present");
        assert!(
            s.precision() >= p && s.recall() >= rc,
            "{cat}: precision {:.4} recall {:.4}",
            s.precision(),
            s.recall()
        );
    };
    goal("type", 0.99, 0.98);
    goal("method", 0.97, 0.95);
    goal("ctor", 0.97, 0.95);
    goal("field", 0.97, 0.95);

    // Supertypes the world cannot see, as a library's are in a real project: the files that
    // declare the types most extended or implemented from other files are left out of the
    // world, and the references of the other files to the other types are compared.
    let (theirs, unseen) = unseen_supertypes(&root, &tsv, 12);
    let (o, w) = ours_without(&root, &unseen.files);
    let kept = |k: &Key| !unseen.files.contains(&k.0) && !unseen.declares(&k.4);
    let o: Vec<(Key, bool)> = o.into_iter().filter(|(k, _)| kept(k)).collect();
    let r = compare(&o, &theirs, &w);
    print(&format!("commons-lang3 without {} files declaring supertypes", unseen.files.len()), &r);
    let (tp, likely) = r.by_cat.values().fold((0, 0), |(a, b), s| (a + s.tp, b + s.tp_likely));
    assert!(likely * 20 < tp, "{likely} of {tp} correct references are only `likely`");
    let method = r.by_cat.get("method").expect("methods");
    assert!(method.precision() >= 0.97, "method precision with unseen supertypes: {method:?}");
}

/// The files left out of the world and the types they declare.
struct Unseen {
    files: HashSet<String>,
    types: HashSet<String>,
}

impl Unseen {
    /// Whether `target` (a type, or a member `Owner#m`) is one of the unseen types or inside one.
    fn declares(&self, target: &str) -> bool {
        let owner = target.split('#').next().unwrap_or(target);
        let mut t = owner;
        loop {
            if self.types.contains(t) {
                return true;
            }
            match t.rsplit_once('.') {
                Some((outer, _)) => t = outer,
                None => return false,
            }
        }
    }
}

/// The `n` files whose types javac sees extended or implemented most from other files, and
/// javac's references without those in them or to their types.
fn unseen_supertypes(root: &Path, tsv: &str, n: usize) -> (Vec<(Key, bool)>, Unseen) {
    let (w, _) = world_of(root);
    let mut file_of: BTreeMap<String, String> = BTreeMap::new();
    for f in &w.files {
        let rel = rel_of(root, &f.path);
        for t in &f.decls().types {
            file_of.insert(t.fqn.to_string(), rel.clone());
        }
    }
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for l in tsv.lines() {
        let f: Vec<&str> = l.split('\t').collect();
        if f.len() >= 7
            && matches!(f[3], "extends" | "implements")
            && let Some(decl) = file_of.get(f[5])
            && decl != f[0]
        {
            *counts.entry(decl.clone()).or_default() += 1;
        }
    }
    let mut ranked: Vec<(usize, String)> = counts.into_iter().map(|(f, c)| (c, f)).collect();
    ranked.sort_by(|a, b| b.cmp(a));
    let files: HashSet<String> = ranked.into_iter().take(n).map(|(_, f)| f).collect();
    let types: HashSet<String> = file_of.iter().filter(|(_, f)| files.contains(*f)).map(|(t, _)| t.clone()).collect();
    let unseen = Unseen { files, types };
    let kept: Vec<(Key, bool)> =
        javac(tsv).into_iter().filter(|(k, _)| !unseen.files.contains(&k.0) && !unseen.declares(&k.4)).collect();
    (kept, unseen)
}

/// Our javadoc references under `root` and javac's (`RefDump --javadoc`), one entry per
/// (reference, target): what DocTrees resolves in `{@link}`, `@see`, `{@value}`, `@throws`.
fn javadoc_pairs(root: &Path) -> (HashSet<Key>, HashSet<Key>, HashSet<Key>) {
    let (w, files) = world_of(root);
    let (mut ours, mut exact) = (HashSet::new(), HashSet::new());
    for p in &files {
        let rel = p.strip_prefix(root).expect("under root").to_string_lossy().replace('\\', "/");
        // RefDump reads the comments of declarations, not a package's (package-info.java).
        if rel.ends_with("package-info.java") {
            continue;
        }
        let bytes = std::fs::read(p).expect("read");
        for r in file_refs(&w, file_index(&w, p), &bytes) {
            if r.kind != mcp_java_index::xref::RefKind::Javadoc {
                continue;
            }
            for t in &r.targets {
                let k = (rel.clone(), r.line, r.column, r.category.as_str().to_string(), t.clone());
                if r.confidence == mcp_java_index::xref::Confidence::Exact {
                    exact.insert(k.clone());
                }
                ours.insert(k);
            }
        }
    }
    let out = std::process::Command::new("java")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/javac/RefDump.java"))
        .arg("--javadoc")
        .arg(root)
        .output()
        .expect("running java tests/javac/RefDump.java --javadoc");
    assert!(out.status.success(), "RefDump failed: {}", String::from_utf8_lossy(&out.stderr));
    let theirs: HashSet<Key> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f.len() >= 7 && f[3] == "javadoc")
                .then(|| {
                    Some((f[0].to_string(), f[1].parse().ok()?, f[2].parse().ok()?, f[4].to_string(), f[5].to_string()))
                })
                .flatten()
        })
        .collect();
    (ours, exact, theirs)
}

/// Javadoc references (`kind: "javadoc"`) against javadoc's own resolution (DocTrees) on the
/// fixtures and on commons-lang3, whose javadoc is full of `{@link}`s.
#[test]
fn javadoc_references_agree_with_doctrees() {
    let mut roots = vec![("fixtures", fixtures())];
    let lang = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/corpus/commons-lang3/src/main/java");
    if lang.is_dir() {
        roots.push(("commons-lang3", lang));
    } else {
        assert!(std::env::var_os("CI").is_none(), "corpus missing: run .ci/run");
    }
    for (name, root) in roots {
        let (ours, exact, theirs) = javadoc_pairs(&root);
        let tp = ours.intersection(&theirs).count();
        let likely = ours.intersection(&theirs).filter(|k| !exact.contains(*k)).count();
        let precision = tp as f64 / ours.len().max(1) as f64;
        let recall = tp as f64 / theirs.len().max(1) as f64;
        eprintln!(
            "== javadoc {name}: ours {} javac {} tp {tp} precision {:.2}% recall {:.2}% likely {likely}",
            ours.len(),
            theirs.len(),
            100.0 * precision,
            100.0 * recall
        );
        let mut fp: Vec<_> = ours.difference(&theirs).collect();
        fp.sort();
        let mut fn_: Vec<_> = theirs.difference(&ours).collect();
        fn_.sort();
        let shown: usize = std::env::var("XREF_SHOW").ok().and_then(|v| v.parse().ok()).unwrap_or(15);
        for k in fp.iter().take(shown) {
            eprintln!("  FP {k:?}");
        }
        for k in fn_.iter().take(shown) {
            eprintln!("  FN {k:?}");
        }
        assert!(precision >= 0.97 && recall >= 0.95, "{name}: precision {precision:.4} recall {recall:.4}");
    }
}

/// Prints our references of one file: `XREF_DUMP=path/rel/to/fixtures cargo test dump -- --nocapture`.
#[test]
fn dump() {
    let Ok(rel) = std::env::var("XREF_DUMP") else { return };
    let root = std::env::var("XREF_ROOT").map(PathBuf::from).unwrap_or_else(|_| fixtures());
    let (w, _) = world_of(&root);
    let p = root.join(rel);
    let bytes = std::fs::read(&p).expect("read");
    for r in file_refs(&w, file_index(&w, &p), &bytes) {
        let via = if r.via_override { " (via override)" } else { "" };
        eprintln!("{}:{} {:?} {:?} {:?} {:?}{via}", r.line, r.column, r.kind, r.category, r.confidence, r.targets);
    }
}

// ---- kinds of reference and direct subtypes (issue 33) ---------------------------------------

/// A reference with its kind in `find_references`' vocabulary: (file, line, column, target,
/// kind).
type KindKey = (String, u32, u32, String, &'static str);

/// javac's kind in `find_references`' vocabulary (`this-call`/`super-call` are calls,
/// `field-read`/`field-write` reads and writes).
fn kind_word(javac: &str) -> Option<&'static str> {
    Some(match javac {
        "call" | "this-call" | "super-call" => "call",
        "new" => "new",
        "field-read" => "read",
        "field-write" => "write",
        "type" => "type",
        "import" => "import",
        "extends" => "extends",
        "implements" => "implements",
        "annotation" => "annotation",
        "method-ref" => "method-ref",
        _ => return None,
    })
}

/// Ours and javac's references under `root` with their kinds, each side's as `compare` keeps
/// them (every type reference; member references to the workspace's declarations), and the
/// direct subtype pairs (file, subtype, supertype): ours from the world's supertypes as written
/// (`mji_xref::hierarchy::direct_supertypes` without the implicit ones), javac's from its
/// `extends`/`implements` references, each at the innermost type declared around it.
///
/// The world holds every file under `world_root` (a real user indexes all of it), the scores
/// count the references written in the files under `root` (inside `world_root`) and, for
/// members, those to declarations in those files (what javac calls `source`).
fn kinds_and_subtypes(world_root: &Path, root: &Path, tsv: &str) -> (BTreeMap<String, Score>, Score, Vec<String>) {
    use mcp_java_index::xref::hierarchy::direct_supertypes;
    use mcp_java_index::xref::{Confidence, RefKind};
    let (w, all) = world_of(world_root);
    let files: Vec<PathBuf> = all.into_iter().filter(|p| p.starts_with(root)).collect();
    let scored = |id| w.is_workspace(id) && w.files[w.file_of(id) as usize].path.starts_with(root);
    let in_ws = |cat: &str, target: &str| {
        cat == "type" || target.split_once('#').is_some_and(|(owner, _)| w.by_fqn(owner).is_some_and(scored))
    };
    let mut ours: HashSet<KindKey> = HashSet::new();
    let mut exact: HashSet<KindKey> = HashSet::new();
    // Calls javac binds to the override a keyless class declares (RefDump names no member of
    // an anonymous or local class: no row), which we bind to the method it overrides.
    let mut via_override: HashSet<KindKey> = HashSet::new();
    // Local classes `type_hierarchy` lists (the named ones come from the world below): (file,
    // line, target).
    let mut locals: Vec<(String, u32, String)> = Vec::new();
    for p in &files {
        let rel = rel_of(root, p);
        let bytes = std::fs::read(p).expect("read");
        let src = mcp_java_index::parser::SourceText::decode(&bytes);
        let local_names = local_class_names(&w, file_index(&w, p), &src.text);
        for r in file_refs(&w, file_index(&w, p), &bytes) {
            if matches!(r.kind, RefKind::Extends | RefKind::Implements)
                && mcp_java_index::xref::hierarchy::local_class(&w, file_index(&w, p), &src, r.line, r.column).is_some()
            {
                locals.extend(r.targets.iter().map(|t| (rel.clone(), r.line, t.clone())));
            }
            let word = match r.kind {
                RefKind::Javadoc | RefKind::Override | RefKind::Lambda => continue,
                RefKind::Call | RefKind::ThisCall | RefKind::SuperCall => "call",
                RefKind::New => "new",
                RefKind::FieldRead => "read",
                RefKind::FieldWrite => "write",
                RefKind::Type => "type",
                RefKind::Import => "import",
                RefKind::Extends => "extends",
                RefKind::Implements => "implements",
                RefKind::Annotation => "annotation",
                RefKind::MethodRef => "method-ref",
            };
            // RefDump names no local class (it has no qualified name): our references to one
            // (by its simple name) are not scored.
            for t in r.targets.iter().filter(|t| in_ws(r.category.as_str(), t) && !local_names.contains(t.as_str())) {
                let k = (rel.clone(), r.line, r.column, t.clone(), word);
                if r.via_override {
                    via_override.insert(k);
                    continue;
                }
                if r.confidence == Confidence::Exact {
                    exact.insert(k.clone());
                }
                ours.insert(k);
            }
        }
    }
    let mut theirs: HashSet<KindKey> = HashSet::new();
    let mut their_pairs: HashSet<(String, String, String)> = HashSet::new();
    // The innermost type of our world declared around a line of a file.
    let by_rel: BTreeMap<String, usize> = w
        .files
        .iter()
        .enumerate()
        .filter(|(_, f)| f.path.starts_with(root))
        .map(|(i, f)| (rel_of(root, &f.path), i))
        .collect();
    let around = |rel: &str, line: u32| -> Option<String> {
        let f = &w.files[*by_rel.get(rel)?];
        f.decls()
            .types
            .iter()
            .filter(|t| t.start_line <= line && line <= t.end_line)
            .max_by_key(|t| t.start_line)
            .map(|t| t.fqn.to_string())
    };
    for l in tsv.lines() {
        let f: Vec<&str> = l.split('\t').collect();
        if f.len() < 7 {
            continue;
        }
        let Some(word) = kind_word(f[3]) else { continue };
        let (Ok(line), Ok(col)) = (f[1].parse::<u32>(), f[2].parse::<u32>()) else { continue };
        if f[4] != "type" && f[6] != "source" {
            continue;
        }
        theirs.insert((f[0].to_string(), line, col, f[5].to_string(), word));
        if matches!(word, "extends" | "implements")
            && let Some(sub) = around(f[0], line)
        {
            their_pairs.insert((f[0].to_string(), sub, f[5].to_string()));
        }
    }
    let mut by_kind: BTreeMap<String, Score> = BTreeMap::new();
    let mut wrong = Vec::new();
    for k in &ours {
        let s = by_kind.entry(k.4.to_string()).or_default();
        if theirs.contains(k) {
            s.tp += 1;
            s.tp_likely += usize::from(!exact.contains(k));
        } else {
            s.fp += 1;
            s.fp_exact += usize::from(exact.contains(k));
            wrong.push(format!("ours only:  {k:?}"));
        }
    }
    for k in theirs.iter().filter(|k| !ours.contains(*k)) {
        by_kind.entry(k.4.to_string()).or_default().fn_ += 1;
        wrong.push(format!("javac only: {k:?}"));
    }
    // A call marked as reaching its target through a keyless override is right where javac
    // reports no call at that position (it binds the override), wrong where it reports one.
    let calls_at: HashSet<(&str, u32, u32)> =
        theirs.iter().filter(|k| k.4 == "call").map(|k| (k.0.as_str(), k.1, k.2)).collect();
    for k in &via_override {
        let s = by_kind.entry("call via override".to_string()).or_default();
        if calls_at.contains(&(k.0.as_str(), k.1, k.2)) {
            s.fp += 1;
            wrong.push(format!("via override, javac binds a call: {k:?}"));
        } else {
            s.tp += 1;
        }
    }
    let mut our_pairs: HashSet<(String, String, String)> = HashSet::new();
    for (fi, f) in w.files.iter().enumerate().filter(|(_, f)| f.path.starts_with(root)) {
        let rel = rel_of(root, &f.path);
        for ti in 0..f.decls().types.len() {
            let id = w.type_in_file(fi as u32, ti as u32);
            for s in direct_supertypes(&w, id).into_iter().filter(|s| !s.implicit) {
                our_pairs.insert((rel.clone(), w.decl(id).fqn.to_string(), s.fqn));
            }
        }
    }
    for (rel, line, t) in locals {
        if let Some(sub) = around(&rel, line) {
            our_pairs.insert((rel, sub, t));
        }
    }
    let mut subtypes = Score::default();
    for p in &our_pairs {
        if their_pairs.contains(p) {
            subtypes.tp += 1;
        } else {
            subtypes.fp += 1;
            wrong.push(format!("subtype ours only:  {p:?}"));
        }
    }
    for p in their_pairs.iter().filter(|p| !our_pairs.contains(*p)) {
        subtypes.fn_ += 1;
        wrong.push(format!("subtype javac only: {p:?}"));
    }
    wrong.sort();
    (by_kind, subtypes, wrong)
}

/// The names of the classes declared in a file that are none of the world's types: local
/// classes (`class Name` inside a method body).
fn local_class_names(w: &World, fi: u32, text: &str) -> HashSet<String> {
    let named: HashSet<&str> =
        w.files.get(fi as usize).map(|f| f.decls().types.iter().map(|t| &*t.simple).collect()).unwrap_or_default();
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let mut out = HashSet::new();
    for kw in ["class ", "interface ", "enum ", "record "] {
        for (i, _) in text.match_indices(kw) {
            if text[..i].chars().next_back().is_some_and(word) {
                continue;
            }
            let name: String = text[i + kw.len()..].trim_start().chars().take_while(|c| word(*c)).collect();
            if !name.is_empty() && !named.contains(name.as_str()) {
                out.insert(name);
            }
        }
    }
    out
}

/// Prints the scores by kind and of direct subtypes, and asserts each at precision and recall
/// of at least `floor(kind)` (issue 33's goal: 99.5%).
fn kinds_goal(
    name: &str,
    by_kind: &BTreeMap<String, Score>,
    subtypes: &Score,
    wrong: &[String],
    floor: &dyn Fn(&str) -> (f64, f64),
) {
    eprintln!("== {name}: reference kinds and direct subtypes against javac");
    let row = |what: &str, s: &Score| {
        eprintln!(
            "{what:17} tp {:7} fp {:5} fn {:5}  precision {:.3}%  recall {:.3}%",
            s.tp,
            s.fp,
            s.fn_,
            100.0 * s.precision(),
            100.0 * s.recall()
        )
    };
    for (k, s) in by_kind {
        row(k, s);
    }
    row("subtypes", subtypes);
    let shown: usize = std::env::var("XREF_SHOW").ok().and_then(|v| v.parse().ok()).unwrap_or(20);
    for w in wrong.iter().take(shown) {
        eprintln!("  {w}");
    }
    for (k, s) in by_kind.iter().map(|(k, s)| (k.as_str(), s)).chain([("subtypes", subtypes)]) {
        let (p, r) = floor(k);
        assert!(s.precision() >= p && s.recall() >= r, "{name} {k}: {s:?}");
    }
    for k in ["call", "new", "read", "write", "type", "import", "extends", "implements", "annotation", "method-ref"] {
        assert!(by_kind.get(k).is_some_and(|s| s.tp > 0), "{name}: no {k} reference scored");
    }
}

/// Each kind of reference `find_references` names, and the direct subtypes `type_hierarchy`
/// lists, against javac's attribution on commons-lang3: precision and recall of at least 99.5%
/// each. `cargo test --test it -- oracles::xref_javac::kinds --nocapture` prints the figures.
#[test]
fn kinds_and_direct_subtypes_on_commons_lang3() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/corpus/commons-lang3/src/main/java");
    if !root.is_dir() {
        assert!(std::env::var_os("CI").is_none(), "corpus missing: run .ci/run");
        eprintln!("skipped: {} missing (run .ci/run)", root.display());
        return;
    }
    let tsv = run_refdump(&root);
    let (by_kind, subtypes, wrong) = kinds_and_subtypes(&root, &root, &tsv);
    // Measured: every kind and the direct subtypes at 100%, but calls (P 99.95%, R 100%).
    kinds_goal("commons-lang3", &by_kind, &subtypes, &wrong, &|_| (0.995, 0.995));
}

/// The same on java.base's java.util (every subpackage: collections, concurrency, streams,
/// regex, functions, zip, jar), compiled by javac as java.base's own sources
/// (`--patch-module`); `XREF_JAVA_BASE=java/lang,java/io` picks other packages. The world holds
/// the whole java.base source root, as a user indexing the JDK's sources has it (javac sees all
/// of it too); only the references written in the package, and to its declarations, are scored.
#[test]
fn kinds_and_direct_subtypes_on_java_base() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/jdk-src/java.base");
    if !src.join("java/util").is_dir() {
        assert!(std::env::var_os("CI").is_none(), "JDK sources missing: run .ci/run");
        eprintln!("skipped: no JDK sources at {}", src.display());
        return;
    }
    let packages = std::env::var("XREF_JAVA_BASE").unwrap_or_else(|_| "java/util".into());
    for package in packages.split(',') {
        let root = src.join(package);
        let out = std::process::Command::new("java")
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/javac/RefDump.java"))
            .arg("--patch-module")
            .arg(format!("java.base={}", src.display()))
            .arg(&root)
            .output()
            .expect("running java tests/javac/RefDump.java");
        assert!(out.status.success(), "javac: {}", String::from_utf8_lossy(&out.stderr));
        let tsv = String::from_utf8(out.stdout).expect("utf-8");
        let (by_kind, subtypes, wrong) = kinds_and_subtypes(&src, &root, &tsv);
        // Measured on java/util (about 70 s here): direct subtypes P and R 99.85% (two
        // supertypes named by a member type inherited from the outer class's superclass, which
        // the world does not resolve), every kind at 99.65% or more, calls P 99.71% R 99.85%
        // (left: calls of an anonymous or local class's override, which we bind to the method it
        // overrides, as a rename needs, and javac to the keyless override; lambda parameters
        // whose type needs wildcard inference, `likely`); method references P and R 100% (115;
        // a `Function<? super T, …>` target searches with T, JLS 9.9).
        kinds_goal(&format!("java.base {package}"), &by_kind, &subtypes, &wrong, &|k| match k {
            "call" => (0.997, 0.998),
            _ => (0.995, 0.995),
        });
    }
}
