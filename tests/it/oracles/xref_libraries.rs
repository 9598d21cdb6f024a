//! Receivers typed through library signatures (issue 20): with the classpath's jars given to
//! the resolution engine (`XrefEngine::set_libraries`, the class files' signatures as API
//! table lines), a call on a library method's result binds exactly; a library that is not on
//! the classpath stays `likely`. Then the javac agreement on commons-lang3's tests, which use
//! JUnit 5 from Debian's /usr/share/java, with and without the classpath's types; and the
//! same through the real binary with `classpath` configured.

use super::score::{Score, total};
use crate::common;

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use mcp_java_index::xref::bind::file_refs;
use mcp_java_index::xref::engine::{FileStamp, Stamp, XrefEngine, file_index};
use mcp_java_index::xref::world::jdk_api::JdkApi;
use mcp_java_index::xref::world::{Origin, World};
use mcp_java_index::xref::{Confidence, RefKind};

const JAVA: &str = "/usr/share/java";

fn jar(name: &str) -> PathBuf {
    Path::new(JAVA).join(format!("{name}.jar"))
}

/// The engine's API with the types of `jars`.
pub(super) fn api(jars: &[PathBuf]) -> Arc<JdkApi> {
    let (table, stats) = mcp_java_index::classfile::api::table(jars);
    assert!(stats.skipped.is_empty(), "{:?}", stats.skipped);
    Arc::new(JdkApi::with_libraries(&table))
}

pub(super) fn world(files: &[PathBuf], libs: Option<Arc<JdkApi>>) -> Arc<World> {
    let stamps: Vec<FileStamp> = files
        .iter()
        .map(|p| {
            let m = std::fs::metadata(p).expect("metadata");
            FileStamp { path: Arc::from(p.as_path()), stamp: Stamp { size: m.len(), mtime_ns: 0 } }
        })
        .collect();
    let engine = XrefEngine::new();
    engine.set_libraries(libs);
    engine.world(&stamps).0
}

const USE: &str = r#"package app;

import org.apache.commons.lang3.StringUtils;
import org.junit.jupiter.api.Assertions;
import org.easymock.EasyMock;

class Use {
    static void take(String s) {}
    static void take(Integer i) {}

    int len(String[] a) {
        return StringUtils.join(a, ",").length();
    }

    void pick(String[] a) {
        take(StringUtils.join(a, ","));
    }

    String message() {
        return Assertions.assertThrows(IllegalStateException.class, () -> { throw new IllegalStateException(); }).getMessage();
    }

    void absent() {
        take(EasyMock.createMock(String.class));
    }
}
"#;

/// (line, target) -> confidence of every call (of a method, `this(…)` or `super(…)`) in a file.
fn calls(w: &World, path: &Path) -> BTreeMap<(u32, String), Confidence> {
    let bytes = std::fs::read(path).expect("read");
    file_refs(w, file_index(w, path), &bytes)
        .into_iter()
        .filter(|r| matches!(r.kind, RefKind::Call | RefKind::ThisCall | RefKind::SuperCall))
        .flat_map(|r| r.targets.iter().map(|t| ((r.line, t.clone()), r.confidence)).collect::<Vec<_>>())
        .collect()
}

#[test]
fn a_call_on_a_library_methods_result_binds_exactly() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("app/Use.java");
    common::write(dir.path(), "app/Use.java", USE);
    let files = vec![path.clone()];
    let classpath = [jar("commons-lang3"), jar("junit-jupiter-api"), jar("opentest4j"), jar("apiguardian-api")];

    let jdk_only = calls(&world(&files, None), &path);
    let with = calls(&world(&files, Some(api(&classpath))), &path);
    let at = |m: &BTreeMap<(u32, String), Confidence>, line: u32, key: &str| m.get(&(line, key.to_string())).copied();

    // `StringUtils.join(a, ",").length()`: the receiver is join's String.
    assert_eq!(at(&jdk_only, 12, "java.lang.String#length()"), None, "{jdk_only:?}");
    assert_eq!(
        at(&with, 12, "org.apache.commons.lang3.StringUtils#join(java.lang.Object[],java.lang.String)"),
        Some(Confidence::Exact),
        "{with:?}"
    );
    assert_eq!(at(&with, 12, "java.lang.String#length()"), Some(Confidence::Exact), "{with:?}");
    // `take(StringUtils.join(…))`: the argument's type picks the overload.
    assert_eq!(at(&jdk_only, 16, "app.Use#take(java.lang.String)"), Some(Confidence::Likely), "{jdk_only:?}");
    assert_eq!(at(&with, 16, "app.Use#take(java.lang.String)"), Some(Confidence::Exact), "{with:?}");
    assert_eq!(at(&with, 16, "app.Use#take(java.lang.Integer)"), None, "{with:?}");
    // JUnit's `assertThrows(Class<T>, Executable)` returns a T: a Throwable.
    assert_eq!(at(&with, 20, "java.lang.Throwable#getMessage()"), Some(Confidence::Exact), "{with:?}");
    // EasyMock is not on the classpath: its result stays unknown, the overload `likely`.
    for m in [&jdk_only, &with] {
        assert_eq!(at(m, 24, "app.Use#take(java.lang.String)"), Some(Confidence::Likely), "{m:?}");
        assert_eq!(at(m, 24, "app.Use#take(java.lang.Integer)"), Some(Confidence::Likely), "{m:?}");
    }
}

/// What maven-core's comparison with javac found bound wrongly, in JDK terms (issue 20).
const MAVEN_CORE_CASES: &str = r#"package app;

import java.util.*;

class Pick {
    static Set<String> ids(Collection<? extends Number> numbers) { return null; }
    static Set<String> ids(Iterable<String> names) { return null; }

    void overloads(Set<String> names, List<Integer> numbers) {
        ids(names);
        ids(numbers);
    }

    static class Failed extends Exception {
        @Override public String getMessage() { return "failed"; }
    }
    static class Other extends Exception {}
    static void risky() throws Failed, Other {}

    void multiCatch() {
        try {
            risky();
        } catch (Failed | Other e) {
            e.getMessage();
        }
        try {
            risky();
        } catch (Failed e) {
            e.getMessage();
        } catch (Other e) {
        }
    }

    static <T> T lookup(Class<T> role) { return null; }
    static <T> T first(List<T> list) { return null; }
    Pick(String s) {}
    Pick(Integer i) {}
    Pick() {
        this(lookup(String.class));
    }
    Pick(List<Integer> numbers) {
        this(first(numbers));
    }
}
"#;

/// maven-core's wrong answers, fixed: a type argument rules out an overload (a `Set<String>`
/// is no `Collection<? extends Number>`), a multi-catch parameter has its alternatives' common
/// supertype, and a generic method's type variable is the argument's (`lookup(Class<T>)`
/// given `String.class` returns a `String`).
#[test]
fn type_arguments_multi_catch_and_inferred_results_bind_as_javac() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("app/Pick.java");
    common::write(dir.path(), "app/Pick.java", MAVEN_CORE_CASES);
    let got = calls(&world(std::slice::from_ref(&path), None), &path);
    let at = |line: u32, key: &str| got.get(&(line, key.to_string())).copied();
    assert_eq!(at(10, "app.Pick#ids(java.lang.Iterable)"), Some(Confidence::Exact), "{got:?}");
    assert_eq!(at(10, "app.Pick#ids(java.util.Collection)"), None, "{got:?}");
    assert_eq!(at(11, "app.Pick#ids(java.util.Collection)"), Some(Confidence::Exact), "{got:?}");
    assert_eq!(at(11, "app.Pick#ids(java.lang.Iterable)"), None, "{got:?}");
    assert_eq!(at(24, "java.lang.Throwable#getMessage()"), Some(Confidence::Exact), "{got:?}");
    assert_eq!(at(24, "app.Pick.Failed#getMessage()"), None, "{got:?}");
    assert_eq!(at(29, "app.Pick.Failed#getMessage()"), Some(Confidence::Exact), "{got:?}");
    assert_eq!(at(39, "app.Pick#Pick(java.lang.String)"), Some(Confidence::Exact), "{got:?}");
    assert_eq!(at(39, "app.Pick#Pick(java.lang.Integer)"), None, "{got:?}");
    assert_eq!(at(42, "app.Pick#Pick(java.lang.Integer)"), Some(Confidence::Exact), "{got:?}");
    assert_eq!(at(42, "app.Pick#Pick(java.lang.String)"), None, "{got:?}");
}

#[test]
fn library_types_have_the_library_origin_and_generic_signatures() {
    let w = world(&[], Some(api(&[jar("junit-jupiter-api"), jar("opentest4j"), jar("apiguardian-api")])));
    assert_eq!(w.origin("org.junit.jupiter.api.Assertions"), Origin::Library);
    assert_eq!(w.origin("java.util.List"), Origin::Jdk);
    let id = w.by_fqn("org.junit.jupiter.api.Assertions").expect("Assertions is in the world");
    let d = w.decl(id);
    let throws = d.methods.iter().find(|m| &*m.name == "assertThrows").expect("assertThrows");
    assert_eq!(throws.tparams.len(), 1, "{throws:?}");
    assert!(d.methods.iter().filter(|m| &*m.name == "assertEquals").count() > 20);
    // A member type, linked to its outer type.
    assert!(w.by_fqn("org.junit.jupiter.api.DynamicTest").is_some());
    assert!(w.by_fqn("org.junit.jupiter.api.MethodOrderer.OrderAnnotation").is_some());
}

/// Each archive's API table is kept in the cache by content hash: a warm call reads no class
/// file and gives the same table, the first archive holding a class still winning.
#[test]
fn the_api_table_is_cached_per_archive() {
    let cache = tempfile::tempdir().expect("tempdir");
    let jars = [jar("junit-jupiter-api"), jar("opentest4j"), jar("junit-jupiter-api")];
    let (plain, _) = mcp_java_index::classfile::api::table(&jars);
    let (cold, s) = mcp_java_index::classfile::api::table_cached(&jars, Some(cache.path()));
    assert!(s.skipped.is_empty(), "{s:?}");
    let cached: Vec<_> = std::fs::read_dir(cache.path())
        .expect("cache dir")
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "api"))
        .collect();
    assert_eq!(cached.len(), 2, "one table per distinct archive");
    let (warm, _) = mcp_java_index::classfile::api::table_cached(&jars, Some(cache.path()));
    assert_eq!(cold, plain);
    assert_eq!(warm, plain);
    assert!(plain.contains(" org.junit.jupiter.api.Assertions "), "Assertions is in the table");
}

// ---- commons-lang3's tests against javac -------------------------------------------------------

pub(super) type Key = (String, u32, u32, String, String);

/// The classpath commons-lang3's tests compile against, as Debian ships it (EasyMock, JMH and
/// junit-pioneer are not packaged: references through them stay unknown on both sides).
pub(super) fn lang3_classpath() -> Vec<PathBuf> {
    ["junit-jupiter-api", "junit-jupiter-params", "opentest4j", "apiguardian-api", "junit-platform-commons", "hamcrest"]
        .iter()
        .map(|n| jar(n))
        .collect()
}

/// Ours in the files under `scored`, one entry per (reference, target), with whether it is exact.
fn ours(w: &World, scored: &Path) -> Vec<(Key, bool)> {
    let mut out = Vec::new();
    for p in common::java_files_under(scored) {
        let rel = p.strip_prefix(scored).expect("under root").to_string_lossy().replace('\\', "/");
        let bytes = std::fs::read(&p).expect("read");
        for r in file_refs(w, file_index(w, &p), &bytes) {
            if matches!(r.kind, RefKind::Javadoc | RefKind::Override | RefKind::Lambda) {
                continue;
            }
            for t in &r.targets {
                let k = (rel.clone(), r.line, r.column, r.category.as_str().to_string(), t.clone());
                out.push((k, r.confidence == Confidence::Exact));
            }
        }
    }
    out
}

/// Scores by category. Compared: every type reference, and member references whose owner is a
/// workspace or a classpath library type (`scope` is the world with the libraries). With
/// `XREF_DIFF` set, every reference only one side has is printed (`XREF_EXACT_FP`: ours that
/// are wrong and `exact`).
fn score(ours: &[(Key, bool)], theirs: &[Key], scope: &World) -> BTreeMap<String, Score> {
    let counted = |k: &Key| {
        k.3 == "type"
            || k.4.split_once('#').is_some_and(|(owner, _)| {
                scope.by_fqn(owner).is_some() && matches!(scope.origin(owner), Origin::Workspace | Origin::Library)
            })
    };
    let a: HashSet<&Key> = ours.iter().map(|(k, _)| k).filter(|k| counted(k)).collect();
    let exact: HashSet<&Key> = ours.iter().filter(|(_, e)| *e).map(|(k, _)| k).collect();
    let b: HashSet<&Key> = theirs.iter().filter(|k| counted(k)).collect();
    let mut by: BTreeMap<String, Score> = BTreeMap::new();
    for k in &a {
        let s = by.entry(k.3.clone()).or_default();
        if b.contains(k) {
            s.tp += 1;
            if !exact.contains(k) {
                s.tp_likely += 1;
            }
        } else {
            s.fp += 1;
            if std::env::var_os("XREF_DIFF").is_some() {
                eprintln!("  FP {k:?} exact {}", exact.contains(k));
            }
            if exact.contains(k) {
                s.fp_exact += 1;
                if std::env::var_os("XREF_EXACT_FP").is_some() {
                    eprintln!("  FP exact {k:?}");
                }
            }
        }
    }
    for k in &b {
        if !a.contains(k) {
            if std::env::var_os("XREF_DIFF").is_some() {
                eprintln!("  FN {k:?}");
            }
            by.entry(k.3.clone()).or_default().fn_ += 1;
        }
    }
    by
}

fn print(name: &str, by: &BTreeMap<String, Score>) {
    eprintln!("== {name}");
    for (cat, s) in by {
        eprintln!(
            "{cat:6} tp {:6} fp {:5} (exact {:4}) fn {:5}  precision {:.2}%  recall {:.2}%  likely {:.2}% of tp",
            s.tp,
            s.fp,
            s.fp_exact,
            s.fn_,
            100.0 * s.precision(),
            100.0 * s.recall(),
            100.0 * s.likely()
        );
    }
    let all = total(by);
    eprintln!("all    likely {} of {} correct references ({:.2}%)", all.tp_likely, all.tp, 100.0 * all.likely());
}

/// javac's references in the files under `scored` (RefDump on `scored`, the other `roots` as
/// its source path, compiled against `cp`), and whether javac compiled them without an error.
pub(super) fn javac_refs(roots: &[PathBuf], scored: &Path, cp: &[PathBuf]) -> (Vec<Key>, bool) {
    let join =
        |ps: &mut dyn Iterator<Item = &PathBuf>| ps.map(|p| p.display().to_string()).collect::<Vec<_>>().join(":");
    let mut cmd = std::process::Command::new("java");
    cmd.arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/javac/RefDump.java"));
    cmd.args(["--classpath", &join(&mut cp.iter())]);
    let others = join(&mut roots.iter().filter(|r| r.as_path() != scored));
    if !others.is_empty() {
        cmd.args(["--sourcepath", &others]);
    }
    let out = cmd.arg(scored).output().expect("running java tests/javac/RefDump.java");
    let tsv = String::from_utf8(out.stdout).expect("utf-8");
    let keys = tsv
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            if f.len() < 7 || f[3] == "javadoc" {
                return None;
            }
            Some((f[0].to_string(), f[1].parse().ok()?, f[2].parse().ok()?, f[4].to_string(), f[5].to_string()))
        })
        .collect();
    (keys, out.status.success())
}

/// Scores ours on the files under `scored` against javac's `theirs`, with the JDK's types only
/// and with the types of the classpath `cp`: (without, with).
fn with_and_without(
    name: &str,
    roots: &[PathBuf],
    scored: &Path,
    cp: &[PathBuf],
    theirs: &[Key],
) -> (BTreeMap<String, Score>, BTreeMap<String, Score>) {
    let files: Vec<PathBuf> = roots.iter().flat_map(|r| common::java_files_under(r)).collect();
    let t = std::time::Instant::now();
    let libs = api(cp);
    eprintln!("the classpath's API table: {} jars, {:?}", cp.len(), t.elapsed());
    let with = world(&files, Some(libs));
    let without = world(&files, None);
    let before = score(&ours(&without, scored), theirs, &with);
    let after = score(&ours(&with, scored), theirs, &with);
    print(&format!("{name}, the JDK's types only"), &before);
    print(&format!("{name}, with the classpath's types"), &after);
    (before, after)
}

fn method(s: &BTreeMap<String, Score>) -> Score {
    s.get("method").copied().unwrap_or_default()
}

/// The corpus under target/corpus/`name`/src with `roots` (relative to it), or `None` (the test
/// skips, outside CI) when .ci/run has not unpacked it.
pub(super) fn corpus(name: &str, roots: &[&str]) -> Option<Vec<PathBuf>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/corpus").join(name).join("src");
    let roots: Vec<PathBuf> = roots.iter().map(|r| src.join(r)).collect();
    if let Some(missing) = roots.iter().find(|r| !r.is_dir()) {
        assert!(std::env::var_os("CI").is_none(), "corpus {name} missing: run .ci/run");
        eprintln!("skipped: {} missing (run .ci/run)", missing.display());
        return None;
    }
    Some(roots)
}

/// commons-lang3's tests (src/test/java, JUnit 5) against javac's attribution with Debian's
/// jars: with the classpath's types, fewer correct references are only `likely` and method
/// precision does not drop. The corpus's tests are unpacked by .ci/run.
#[test]
fn commons_lang3_tests_with_their_classpath() {
    let Some(roots) = corpus("commons-lang3", &["main/java", "test/java"]) else { return };
    let cp = lang3_classpath();
    let (theirs, _) = javac_refs(&roots, &roots[1], &cp);
    assert!(theirs.len() > 50_000, "javac's references in the tests: {}", theirs.len());
    let (before, after) = with_and_without("commons-lang3 tests", &roots, &roots[1], &cp, &theirs);
    let (b, a) = (total(&before), total(&after));
    assert!(a.likely() < b.likely(), "likely share {:.4} -> {:.4}", b.likely(), a.likely());
    assert!(method(&after).precision() >= method(&before).precision(), "{:?} -> {:?}", method(&before), method(&after));
    assert!(method(&after).recall() > method(&before).recall(), "{:?} -> {:?}", method(&before), method(&after));
    // Measured: methods 99.69% precise, 99.94% recalled (98.72%, 99.91% before issue 37).
    assert!(method(&after).precision() >= 0.98, "{:?}", method(&after));
    assert!(method(&after).recall() >= 0.99, "{:?}", method(&after));
}

/// The classpath Apache Maven 3.8.7's maven-core compiles against as Debian ships it: Maven's
/// runtime (/usr/share/maven/lib, links into /usr/share/java, and plexus-classworlds from
/// boot/), maven-core's own jar last: its classes generated from src/main/mdo (the toolchains
/// model) are not in src/main/java; the rest are the workspace's, which come first.
fn maven_core_classpath() -> Vec<PathBuf> {
    let lib = Path::new("/usr/share/maven/lib");
    let mut jars: Vec<PathBuf> = std::fs::read_dir(lib)
        .map(|d| d.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "jar")).collect())
        .unwrap_or_default();
    jars.sort();
    jars.retain(|p| !p.ends_with("maven-core-3.x.jar"));
    jars.push(PathBuf::from("/usr/share/maven/boot/plexus-classworlds-2.x.jar"));
    jars.push(lib.join("maven-core-3.x.jar"));
    jars
}

/// maven-core's main sources, which call plexus, sisu, guice, maven-resolver, the Maven model
/// and slf4j, against javac's attribution with Debian's Maven jars: javac compiles the module
/// cleanly; with the classpath's types, fewer correct references are only `likely`, and method
/// precision and recall stay above what was measured (less a margin).
#[test]
fn maven_core_with_its_classpath() {
    let Some(roots) = corpus("maven-core", &["main/java"]) else { return };
    let cp = maven_core_classpath();
    let missing: Vec<&PathBuf> = cp.iter().filter(|p| !p.is_file()).collect();
    assert!(missing.is_empty() && cp.len() > 30, "Debian's maven package: {missing:?} of {cp:?}");
    let (theirs, clean) = javac_refs(&roots, &roots[0], &cp);
    assert!(clean, "javac did not compile maven-core against {cp:?}");
    assert!(theirs.len() > 20_000, "javac's references in maven-core: {}", theirs.len());
    let (before, after) = with_and_without("maven-core", &roots, &roots[0], &cp, &theirs);
    let (b, a) = (total(&before), total(&after));
    assert!(a.likely() < b.likely(), "likely share {:.4} -> {:.4}", b.likely(), a.likely());
    assert!(method(&after).recall() > method(&before).recall(), "{:?} -> {:?}", method(&before), method(&after));
    // Measured: methods 99.93% precise, 100% recalled (4 `likely` guesses at `values()` on
    // an untyped receiver); constructors and fields 100%, types 99.99%; `likely` 0.42% of the
    // correct references without the classpath, none of 25,036 with.
    assert!(method(&after).precision() >= 0.99, "{:?}", method(&after));
    assert!(method(&after).recall() >= 0.99, "{:?}", method(&after));
    for (cat, s) in &after {
        assert!(s.precision() >= 0.99 && s.recall() >= 0.99, "{cat}: {s:?}");
    }
    assert!(a.likely() < 0.001, "likely share with the classpath: {:.4}", a.likely());
}

// ---- the project model's classpath, through the real binary -----------------------------------

fn call(root: &Path, env: &[(&str, &Path)], tool: &str, args: &str) -> serde_json::Value {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-java-index"));
    cmd.args(["call", tool, args, "--json"]).current_dir(root);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let o = cmd.output().expect("runs");
    assert!(o.status.success(), "{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stdout)))
}

const POM: &str = r#"<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>app</groupId>
  <artifactId>app</artifactId>
  <version>1</version>
  <dependencies>
    <dependency>
      <groupId>org.apache.commons</groupId>
      <artifactId>commons-lang3</artifactId>
      <version>3.12.0</version>
    </dependency>
  </dependencies>
</project>
"#;

const PICK: &str = r#"package app;

import org.apache.commons.lang3.StringUtils;

class Use {
    static void take(String s) {}
    static void take(Integer i) {}

    void pick(String[] a) {
        take(StringUtils.join(a, ","));
    }
}
"#;

/// A Maven module whose dependency jar is in a local repository: the library index and the
/// resolution engine see it from the project model (nothing configured, Maven not run), so
/// `find_type` finds its types and the overload taking its method's result binds exactly; the
/// same module without the dependency leaves it `likely`.
#[test]
fn a_maven_modules_dependency_from_the_local_repository_types_receivers() {
    let repo = tempfile::tempdir().expect("tempdir");
    let dir = repo.path().join("org/apache/commons/commons-lang3/3.12.0");
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::copy(jar("commons-lang3"), dir.join("commons-lang3-3.12.0.jar")).expect("copy the jar");
    let cache = tempfile::tempdir().expect("tempdir");
    let env = [("MCP_JAVA_INDEX_MAVEN_REPO_LOCAL", repo.path()), ("XDG_CACHE_HOME", cache.path())];
    let confidence = |pom: &str| {
        let ws = tempfile::tempdir().expect("tempdir");
        common::write(ws.path(), "pom.xml", pom);
        common::write(ws.path(), "src/main/java/app/Use.java", PICK);
        let found = call(ws.path(), &env, "find_references", r#"{"target":"app.Use#take(java.lang.String)"}"#);
        let refs = references_in(&found);
        assert_eq!(refs.len(), 1, "{found}");
        let types = call(ws.path(), &env, "find_type", r#"{"pattern":"StringUtils","scope":"libraries"}"#);
        (refs[0]["confidence"].as_str().unwrap_or_default().to_owned(), types)
    };
    let (with, types) = confidence(POM);
    assert_eq!(with, "exact");
    assert!(types.to_string().contains("org.apache.commons.lang3.StringUtils"), "{types}");
    let without =
        POM.replace("<artifactId>commons-lang3</artifactId>", "<artifactId>not-in-the-repository</artifactId>");
    let (without, types) = confidence(&without);
    assert_eq!(without, "likely");
    assert!(!types.to_string().contains("org.apache.commons.lang3.StringUtils"), "{types}");
}

/// Every reference of a `find_references` answer, across its files.
fn references_in(found: &serde_json::Value) -> Vec<serde_json::Value> {
    let files = found["files"].as_array().into_iter().flatten();
    files.flat_map(|f| f["references"].as_array().cloned().unwrap_or_default()).collect()
}

/// The other classpaths the project model resolves without running a build: a plain project's
/// `lib/` jars, and a Gradle build's dependencies from Gradle's cache (`gradle_user_home`). Each
/// reaches `find_type` with scope libraries and types the receiver exactly; the same workspace
/// without the jar leaves the call `likely`.
#[test]
fn lib_jars_and_the_gradle_cache_reach_navigation() {
    let cache = tempfile::tempdir().expect("tempdir");
    let home = tempfile::tempdir().expect("tempdir");
    let env = [("XDG_CACHE_HOME", cache.path()), ("MCP_JAVA_INDEX_GRADLE_USER_HOME", home.path())];
    let check = |ws: &Path, file: &str| {
        let found = call(ws, &env, "find_references", r#"{"target":"app.Use#take(java.lang.String)"}"#);
        let refs = references_in(&found);
        assert_eq!(refs.len(), 1, "{found}");
        assert!(found.to_string().contains(file), "{found}");
        let types = call(ws, &env, "find_type", r#"{"pattern":"StringUtils","scope":"libraries"}"#);
        let archive = types["results"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|t| t["fqn"] == "org.apache.commons.lang3.StringUtils")
            .map(|t| t["archive"].as_str().unwrap_or_default().to_owned());
        (refs[0]["confidence"].as_str().unwrap_or_default().to_owned(), archive, types)
    };

    // A plain project (no build file) with the jar in lib/.
    let plain = tempfile::tempdir().expect("tempdir");
    common::write(plain.path(), "src/app/Use.java", PICK);
    let (before, archive, _) = check(plain.path(), "Use.java");
    assert_eq!((before.as_str(), archive), ("likely", None), "without lib/ the type is unknown");
    std::fs::create_dir_all(plain.path().join("lib")).expect("mkdir");
    std::fs::copy(jar("commons-lang3"), plain.path().join("lib/commons-lang3.jar")).expect("copy the jar");
    let plain2 = tempfile::tempdir().expect("tempdir");
    common::copy_dir(plain.path(), plain2.path());
    let (with, archive, types) = check(plain2.path(), "Use.java");
    assert_eq!(with, "exact");
    assert!(archive.as_deref().is_some_and(|a| a.ends_with("lib/commons-lang3.jar")), "{types}");

    // A Gradle build whose dependency is in Gradle's cache.
    let gradle = tempfile::tempdir().expect("tempdir");
    common::write(gradle.path(), "settings.gradle", "rootProject.name = 'app'\n");
    common::write(
        gradle.path(),
        "build.gradle",
        "plugins { id 'java' }\ndependencies {\n    implementation 'org.apache.commons:commons-lang3:3.12.0'\n}\n",
    );
    common::write(gradle.path(), "src/main/java/app/Use.java", PICK);
    let (before, archive, _) = check(gradle.path(), "Use.java");
    assert_eq!((before.as_str(), archive), ("likely", None), "an empty Gradle cache has no commons-lang3");
    let dir = home.path().join("caches/modules-2/files-2.1/org.apache.commons/commons-lang3/3.12.0/0a1b2c");
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::copy(jar("commons-lang3"), dir.join("commons-lang3-3.12.0.jar")).expect("copy the jar");
    let gradle2 = tempfile::tempdir().expect("tempdir");
    common::copy_dir(gradle.path(), gradle2.path());
    let (with, archive, types) = check(gradle2.path(), "Use.java");
    assert_eq!(with, "exact");
    assert!(archive.as_deref().is_some_and(|a| a.ends_with("0a1b2c/commons-lang3-3.12.0.jar")), "{types}");
}

/// `show_definition` at a call of a library method answers with the library's location: the
/// class file's outline in its jar (no sources beside it), or the JDK's `src.zip` entry with
/// exact lines.
#[test]
fn show_definition_of_library_methods_opens_the_library() {
    let ws = tempfile::tempdir().expect("tempdir");
    let cache = tempfile::tempdir().expect("tempdir");
    // A jar outside the workspace is the user's to name (a repository file may not).
    let env = [
        ("XDG_CACHE_HOME", cache.path()),
        ("MCP_JAVA_INDEX_CLASSPATH", Path::new("/usr/share/java/commons-lang3.jar")),
    ];
    common::write(ws.path(), "app/Use.java", USE);
    // The symbol is the name at that position (another name there is an error).
    let def = |symbol: &str, column: u32| {
        let args = format!(r#"{{"symbol":"{symbol}","filePath":"app/Use.java","line":12,"column":{column}}}"#);
        let v = call(ws.path(), &env, "show_definition", &args);
        assert_eq!(v["resolution"], "exact", "{v}");
        v["definitions"][0].clone()
    };
    // `StringUtils.join(a, ",")`: commons-lang3's class file.
    let join = def("join", 28);
    assert_eq!(join["qualifiedName"], "org.apache.commons.lang3.StringUtils#join(java.lang.Object[],java.lang.String)");
    assert_eq!(join["origin"], "library");
    assert!(join["archive"].as_str().is_some_and(|a| a.ends_with("commons-lang3.jar")), "{join}");
    assert!(
        join["file"]
            .as_str()
            .is_some_and(|f| f.starts_with("jar:") && f.ends_with("!/org/apache/commons/lang3/StringUtils.class")),
        "{join}"
    );
    assert!(join["signature"].as_str().is_some_and(|s| s.contains("join(")), "{join}");
    // `.length()`: the JDK's String, from src.zip when the JDK has it.
    let length = def("length", 41);
    assert_eq!(length["qualifiedName"], "java.lang.String#length()");
    assert_eq!(length["origin"], "jdk");
    let file = length["file"].as_str().unwrap_or_default();
    if file.contains("src.zip") {
        assert!(file.ends_with("!/java.base/java/lang/String.java"), "{length}");
        assert!(length["startLine"].as_u64().is_some_and(|l| l > 100), "{length}");
    } else {
        assert!(file.ends_with("java/lang/String.class"), "{length}");
    }

    // `scope`: `workspace` leaves the library's definition at that position out, and says so.
    let refused = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-java-index"))
        .args([
            "call",
            "show_definition",
            r#"{"symbol":"join","filePath":"app/Use.java","line":12,"column":28,"scope":"workspace"}"#,
        ])
        .current_dir(ws.path())
        .envs(env)
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success() && text.contains("outside scope workspace"), "{text}");
    // By name: the workspace's when it has the name; `libraries` (and `all`, when the
    // workspace has none) finds the libraries' by exact name: every public `join` of
    // StringUtils as javap lists them, the first described from the class file.
    let take = call(ws.path(), &env, "show_definition", r#"{"symbol":"take","scope":"workspace"}"#);
    assert_eq!(take["total"], 2, "{take}");
    let javap = std::process::Command::new("javap")
        .args(["-public", "-cp", "/usr/share/java/commons-lang3.jar", "org.apache.commons.lang3.StringUtils"])
        .output()
        .expect("javap runs");
    let overloads = String::from_utf8_lossy(&javap.stdout).lines().filter(|l| l.contains(" join(")).count();
    for scope in ["all", "libraries"] {
        let args = format!(r#"{{"symbol":"StringUtils#join","scope":"{scope}","limit":200}}"#);
        let joins = call(ws.path(), &env, "show_definition", &args);
        assert_eq!(joins["total"].as_u64(), Some(overloads as u64), "{joins}");
        let defs = joins["definitions"].as_array().expect("definitions");
        assert_eq!(defs.len(), overloads);
        for d in defs {
            assert_eq!((d["kind"].as_str(), d["origin"].as_str()), (Some("method"), Some("library")), "{d}");
            assert!(d["archive"].as_str().is_some_and(|a| a.ends_with("commons-lang3.jar")), "{d}");
            assert!(d["signature"].as_str().is_some_and(|s| s.contains("join(")), "{d}");
        }
        assert!(defs.iter().any(|d| d["qualifiedName"] == join["qualifiedName"]), "{joins}");
    }
    let jdk = call(ws.path(), &env, "show_definition", r#"{"symbol":"java.lang.String#length","scope":"libraries"}"#);
    assert_eq!(jdk["definitions"][0]["qualifiedName"], "java.lang.String#length()", "{jdk}");
    assert_eq!(jdk["definitions"][0]["origin"], "jdk", "{jdk}");
}

const RESOLVED_POM: &str = r#"<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>app</groupId>
  <artifactId>app</artifactId>
  <version>1</version>
  <dependencies>
    <dependency>
      <groupId>org.junit.jupiter</groupId>
      <artifactId>junit-jupiter-api</artifactId>
      <version>5.9.2</version>
    </dependency>
  </dependencies>
  <build>
    <pluginManagement>
      <plugins>
        <plugin>
          <groupId>org.apache.maven.plugins</groupId>
          <artifactId>maven-dependency-plugin</artifactId>
          <version>3.5.0</version>
        </plugin>
      </plugins>
    </pluginManagement>
  </build>
</project>
"#;

const FAILED: &str = r#"package app;

import org.opentest4j.AssertionFailedError;

class Use {
    static void take(String s) {}
    static void take(Integer i) {}

    void fail() {
        take(new AssertionFailedError("m").getMessage());
    }
}
"#;

/// A trusted workspace's classpath as Maven resolved it (`maven_update_project` ran
/// `dependency:build-classpath`, offline on Debian's repository) is the one navigation uses:
/// `opentest4j`, which JUnit's API brings in and the pom does not name, is searched by
/// `find_type` and types the receiver of `getMessage()`. An untrusted workspace runs nothing
/// (a recording `mvn` first on PATH stays unrun) and keeps the pom's direct dependencies.
#[test]
fn a_trusted_workspaces_maven_classpath_is_the_one_navigation_uses() {
    if std::process::Command::new("mvn").arg("-v").output().is_err() {
        eprintln!("skipped: no mvn");
        return;
    }
    let ws = tempfile::tempdir().expect("tempdir");
    common::write(ws.path(), "pom.xml", RESOLVED_POM);
    common::write(ws.path(), "src/main/java/app/Use.java", FAILED);
    let cache = tempfile::tempdir().expect("tempdir");
    let fake = tempfile::tempdir().expect("tempdir");
    let marker = fake.path().join("mvn-ran");
    common::write_executable(&fake.path().join("mvn"), &format!("#!/bin/sh\ntouch '{}'\nexit 1\n", marker.display()));
    let path = std::env::join_paths(
        std::iter::once(fake.path().to_path_buf())
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .expect("PATH");
    let repo = Path::new("/usr/share/maven-repo");
    let look = |env: &[(&str, &Path)]| {
        let types = call(ws.path(), env, "find_type", r#"{"pattern":"AssertionFailedError","scope":"libraries"}"#);
        let refs = call(ws.path(), env, "find_references", r#"{"target":"app.Use#take(java.lang.String)"}"#);
        let confidence = refs["files"][0]["references"][0]["confidence"].as_str().unwrap_or_default().to_owned();
        (types, confidence)
    };

    let untrusted =
        [("MCP_JAVA_INDEX_MAVEN_REPO_LOCAL", repo), ("XDG_CACHE_HOME", cache.path()), ("PATH", Path::new(&path))];
    call(ws.path(), &untrusted, "maven_update_project", "{}");
    let (types, confidence) = look(&untrusted);
    assert!(!marker.exists(), "mvn ran in an untrusted workspace");
    assert_eq!(types["total"], 0, "{types}");
    assert_eq!(confidence, "likely");

    // A trusted workspace that is served: the classpath `get_problems` has Maven resolve is
    // the library index's from the next call on (no restart, no maven_update_project).
    {
        use mcp_java_index::config::{Config, Flags};
        use mcp_java_index::tools::find::Scope;
        use mcp_java_index::tools::host::Host;
        use mcp_java_index::tools::tool::find_type::FindTypeArgs;
        use mcp_java_index::tools::tool::get_problems::ProblemsArgs;
        let served = tempfile::tempdir().expect("tempdir");
        let served_cache = served.path().to_string_lossy().into_owned();
        let lookup = |k: &str| -> Option<String> {
            match k {
                "MCP_JAVA_INDEX_CACHE_DIR" => Some(served_cache.clone()),
                "MCP_JAVA_INDEX_MAVEN_REPO_LOCAL" => Some(repo.display().to_string()),
                "MCP_JAVA_INDEX_WATCH" => Some("false".to_owned()),
                "MCP_JAVA_INDEX_TRUST" => Some("1".to_owned()),
                _ => None,
            }
        };
        let w = Host::open(Config::load(&Flags::roots([ws.path()]), &lookup).expect("config")).expect("workspace");
        w.build_index();
        let find = || {
            let args = FindTypeArgs { scope: Scope::Libraries, ..common::types("AssertionFailedError") };
            mcp_java_index::tools::tool::find_type::run(&w, &args).expect("find_type").page.total
        };
        assert_eq!(find(), 0, "the pom's guess has no opentest4j");
        let args = ProblemsArgs { paths: vec!["src/main/java/app/Use.java".to_owned()], ..Default::default() };
        mcp_java_index::tools::tool::get_problems::run(&w, &args).expect("get_problems");
        // Under load the check may outlast its budget and finish in the background.
        common::wait_for("Maven's classpath, stored by get_problems", || find() == 1);
    }

    let trusted = [
        ("MCP_JAVA_INDEX_MAVEN_REPO_LOCAL", repo),
        ("XDG_CACHE_HOME", cache.path()),
        ("MCP_JAVA_INDEX_TRUST", Path::new("1")),
    ];
    let update = call(ws.path(), &trusted, "maven_update_project", "{}");
    assert!(update["classpathNotes"].to_string().contains("classpath from Maven"), "{update}");
    let (types, confidence) = look(&trusted);
    let hit = &types["results"][0];
    assert_eq!(hit["fqn"], "org.opentest4j.AssertionFailedError", "{types}");
    assert!(hit["archive"].as_str().is_some_and(|a| a.contains("opentest4j")), "{types}");
    assert_eq!(confidence, "exact");
}
