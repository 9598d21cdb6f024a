//! Library benchmarks: indexing the JDK's `jmods/` and a 100-jar classpath (Debian's
//! `/usr/share/java`), cold (empty cache) and warm (the per-archive cache); outlining every
//! public class of `java.util` from `java.base.jmod` (or `lib/modules` for a JDK without
//! jmods) beside `javap -p` on the same classes;
//! `find_type`'s library search latency over both; the resolution engine's API table of the
//! classpath and of the JDK's image, and cached by the image's content with its type names; the
//! member table (`java_find_symbol`'s library members) cold and warm, and scans of its names.
//! First: a generated jar of 200,000 classes on a workspace's classpath, through the real
//! binary (wall time and peak RSS of each call, the JDK's part of the cache warm): its first
//! `find_type`, `java_find_symbol` and `find_references` under the default
//! `max_archive_entries`, then read whole (the cap raised to 200,000).
//!
//! `cargo bench --bench libraries` (needs a JDK on PATH or in JAVA_HOME);
//! `cargo bench --bench libraries -- big-jar` runs the first part alone.

use std::path::{Path, PathBuf};
use std::time::Instant;

#[path = "../tests/it/common/jar.rs"]
mod jar;

use mcp_java_index::classfile::archive::DEFAULT_MAX_ENTRIES;
use mcp_java_index::classfile::library::{self, LibraryIndex, Origin};
use mcp_java_index::classfile::{Archive, outline_class, reader::acc};
use mcp_java_index::tools::find::Scope;
use mcp_java_index::tools::tool::find_type::{FindTypeArgs, TypeFilter, find_library_types};

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

fn index_twice(name: &str, archives: &[(PathBuf, Origin)]) -> LibraryIndex {
    let cache = tempfile::tempdir().expect("tempdir");
    let t = Instant::now();
    let cold = LibraryIndex::build(archives, Some(cache.path()), DEFAULT_MAX_ENTRIES);
    let cold_ms = ms(t);
    let t = Instant::now();
    let warm = LibraryIndex::build(archives, Some(cache.path()), DEFAULT_MAX_ENTRIES);
    let warm_ms = ms(t);
    assert_eq!(cold.classes.len(), warm.classes.len());
    assert!(warm.archives.iter().all(|a| a.cached));
    println!(
        "{name}: {} archives, {} classes: cold {cold_ms:.0} ms, warm {warm_ms:.0} ms ({} skipped)",
        warm.archives.len(),
        warm.classes.len(),
        warm.skipped.len()
    );
    warm
}

/// Wall time (s) and peak resident memory (MB) of the binary answering one tool call in
/// `root`, with the user cache directory `cache` and `max_archive_entries` = `cap` (None: the
/// default); through Python's getrusage on its child.
fn timed_call(root: &Path, cache: &Path, tool: &str, args: &str, cap: Option<usize>) -> (f64, f64) {
    let argv = [env!("CARGO_BIN_EXE_mcp-java-index"), "call", tool, args];
    let cap = cap.map(|c| c.to_string()).unwrap_or_default();
    let script = format!(
        "import os,resource,subprocess,time\nenv=dict(os.environ, XDG_CACHE_HOME={cache:?})\nenv.pop('MCP_JAVA_INDEX_MAX_ARCHIVE_ENTRIES', None)\nif {cap:?}: env['MCP_JAVA_INDEX_MAX_ARCHIVE_ENTRIES']={cap:?}\nt=time.time()\nsubprocess.run({argv:?}, cwd={root:?}, env=env, stdout=subprocess.DEVNULL, check=True)\nprint(time.time()-t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)",
        cache = cache.to_string_lossy(),
        root = root.to_string_lossy(),
    );
    let out = std::process::Command::new("python3").args(["-c", &script]).output().expect("python3");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let mut it = text.split_whitespace().map(|v| v.parse::<f64>().unwrap_or(f64::NAN));
    let (secs, kb) = (it.next().unwrap_or(f64::NAN), it.next().unwrap_or(f64::NAN));
    (secs, kb / 1024.0)
}

/// A jar of 200,000 classes on a workspace's classpath: the first calls that read it, and
/// the same warm.
fn big_jar() {
    const ENTRIES: usize = 200_000;
    let scratch = tempfile::tempdir().expect("tempdir");
    let (root, cache) = (scratch.path().join("ws"), scratch.path().join("cache"));
    jar::write_jar(&scratch.path().join("big.jar"), ENTRIES);
    std::fs::create_dir_all(root.join("lib")).expect("mkdir");
    std::fs::create_dir_all(root.join("src/app")).expect("mkdir");
    std::fs::write(root.join("src/app/A.java"), "package app;\n\nclass A {\n    p0.C1 c;\n}\n").expect("write");
    std::fs::write(root.join("mcp-java-index.toml"), "classpath = [\"lib/big.jar\"]\n").expect("write");
    // The JDK's part of the library cache, warm: what follows pays for the big jar alone.
    let empty = scratch.path().join("empty");
    std::fs::create_dir_all(&empty).expect("mkdir");
    let (s, mb) = timed_call(&empty, &cache, "find_type", r#"{"pattern":"HashMap","scope":"libraries"}"#, None);
    println!("JDK library index, cold (the cache's JDK part): {s:.2} s, peak RSS {mb:.0} MB");
    let last = jar::class_name(ENTRIES - 1).replace('/', ".");
    let calls = [
        ("find_type", format!(r#"{{"pattern":"{last}","scope":"libraries"}}"#)),
        ("java_find_symbol", r#"{"rootDir":".","query":"C1","options":{"scope":"libraries"}}"#.to_owned()),
        ("find_references", r#"{"target":"app.A"}"#.to_owned()),
    ];
    for cap in [None, Some(ENTRIES)] {
        let shown = cap.map_or("the default max_archive_entries".to_owned(), |c| format!("max_archive_entries {c}"));
        std::fs::copy(scratch.path().join("big.jar"), root.join("lib/big.jar")).expect("copy");
        for round in ["first use", "warm"] {
            for (tool, args) in &calls {
                let (s, mb) = timed_call(&root, &cache, tool, args, cap);
                println!("{ENTRIES}-entry jar, {shown}, {round}: {tool} {s:.2} s, peak RSS {mb:.0} MB");
            }
        }
        // The next round copies it anew: a new stamp, hashed again as a new jar would be.
        std::fs::remove_file(root.join("lib/big.jar")).expect("remove");
    }
}

fn main() {
    big_jar();
    if std::env::args().any(|a| a == "big-jar") {
        return;
    }
    let home = library::find_jdk_home(
        std::env::var_os("JAVA_HOME").as_deref().map(std::path::Path::new),
        std::env::var_os("PATH").as_deref(),
    )
    .expect("a JDK");
    let jmods: Vec<_> = library::jdk_jmods(&home).into_iter().map(|p| (p, Origin::Jdk)).collect();
    let jdk = index_twice("JDK jmods (or lib/modules)", &jmods);

    let mut jars: Vec<PathBuf> = std::fs::read_dir("/usr/share/java")
        .expect("/usr/share/java")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "jar"))
        .filter_map(|p| std::fs::canonicalize(p).ok())
        .collect();
    jars.sort();
    jars.dedup();
    jars.truncate(100);
    let classpath: Vec<_> = jars.into_iter().map(|p| (p, Origin::Classpath)).collect();
    let cp = index_twice("100-jar classpath (/usr/share/java)", &classpath);

    // Outlines of java.util's public top-level classes, beside javap on the same classes.
    let names: Vec<String> = jdk
        .classes
        .iter()
        .filter(|c| c.access & acc::PUBLIC != 0 && !c.internal.contains('$'))
        .filter(|c| c.internal.rsplit_once('/').is_some_and(|(p, _)| p == "java/util"))
        .map(|c| c.internal.clone())
        .collect();
    // java.base's archive as the index found it: `jmods/java.base.jmod`, or the runtime image
    // `lib/modules` of a JDK without jmods (JDK 24+, a jlink image).
    let base = jdk
        .get("java.util.ArrayList")
        .map(|c| jdk.archive_of(c).path.clone())
        .expect("java.base in the JDK's jmods or lib/modules");
    let t = Instant::now();
    let mut a = Archive::open(&base, DEFAULT_MAX_ENTRIES).expect("java.base");
    let mut methods = 0;
    for n in &names {
        let o = outline_class(&mut a, n).expect("outline");
        o.for_each_type(&mut |t| methods += t.methods.len() + t.constructors.len());
    }
    let ours = ms(t);
    // A jlink image may have no javap (jdk.jdeps left out).
    let javap = home.join("bin/javap");
    let javap = if javap.is_file() {
        let t = Instant::now();
        let out = std::process::Command::new(javap).arg("-p").args(names.iter().map(|n| n.replace('/', "."))).output();
        assert!(out.is_ok_and(|o| o.status.success()), "javap -p");
        format!("{:.0} ms", ms(t))
    } else {
        "not in this JDK".to_owned()
    };
    println!(
        "outline {} java.util classes (member classes included, {methods} methods and constructors) from {}: {ours:.0} ms; javap -p on the same top-level classes: {javap}",
        names.len(),
        base.display()
    );

    // find_type's library search over the JDK and the classpath together.
    let mut all = jmods.clone();
    all.extend(classpath);
    let cache = tempfile::tempdir().expect("tempdir");
    let both = LibraryIndex::build(&all, Some(cache.path()), DEFAULT_MAX_ENTRIES);
    for pattern in ["HashMap", "CHM", "java.util.*Map", "StringUtils", "*Factory"] {
        let args = FindTypeArgs {
            pattern: pattern.to_owned(),
            kind: TypeFilter::Any,
            max_results: 50,
            offset: 0,
            case_sensitive: false,
            scope: Scope::Libraries,
            root: String::new(),
            include_index: false,
        };
        let mut times: Vec<f64> = (0..20)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(find_library_types(&both, &args));
                ms(t)
            })
            .collect();
        times.sort_by(f64::total_cmp);
        let n = find_library_types(&both, &args).len();
        println!(
            "find_type {pattern:?} over {} library classes: {n} matches, median {:.1} ms",
            both.classes.len(),
            times[10]
        );
    }
    let _ = cp;

    // The resolution engine's library types (issue 20): the API table of the 100-jar
    // classpath from its class files, linked after the JDK's (`XrefEngine::set_libraries`),
    // and the JDK's own image (lib/modules) read for the committed table's packages.
    let jars: Vec<PathBuf> = all.iter().filter(|(_, o)| *o == Origin::Classpath).map(|(p, _)| p.clone()).collect();
    let t = Instant::now();
    let (table, stats) = mcp_java_index::classfile::api::table(&jars);
    let table_ms = ms(t);
    let t = Instant::now();
    let api = mcp_java_index::xref::world::jdk_api::JdkApi::with_libraries(&table);
    println!(
        "API table of the 100-jar classpath: {} archives, {} classes, {} lines in {table_ms:.0} ms; linked after the JDK's table in {:.0} ms ({} types)",
        stats.archives,
        stats.classes,
        table.lines().count(),
        ms(t),
        api.len()
    );
    let cache = tempfile::tempdir().expect("tempdir");
    let t = Instant::now();
    let (cold, _) = mcp_java_index::classfile::api::table_cached(&jars, Some(cache.path()));
    let cold_ms = ms(t);
    let t = Instant::now();
    let (warm, _) = mcp_java_index::classfile::api::table_cached(&jars, Some(cache.path()));
    assert_eq!(cold, warm);
    println!("the same table cached per archive: cold {cold_ms:.0} ms, warm {:.0} ms", ms(t));
    let modules = home.join("lib/modules");
    if modules.is_file() {
        let packages: std::collections::HashSet<String> =
            mcp_java_index::xref::world::jdk_api::JdkApi::get().jdk_packages().map(|p| p.replace('.', "/")).collect();
        let t = Instant::now();
        let (_, s) = mcp_java_index::classfile::api::table_where(
            std::slice::from_ref(&modules),
            &|i| i.rsplit_once('/').is_some_and(|(p, _)| packages.contains(p)),
            usize::MAX,
        );
        println!(
            "the JDK image's table (lib/modules, {} packages): {} classes in {:.0} ms",
            packages.len(),
            s.classes,
            ms(t)
        );
        // What a process pays for the user's JDK of another version: the table and the type
        // names, cached by the image's content (a warm process reads neither from the image).
        let cache = tempfile::tempdir().expect("tempdir");
        let keep = |i: &str| i.rsplit_once('/').is_some_and(|(p, _)| packages.contains(p));
        for round in ["cold", "warm"] {
            let t = Instant::now();
            let (table, _) = mcp_java_index::classfile::api::table_cached_where(
                std::slice::from_ref(&modules),
                Some(cache.path()),
                Some(("bench", &keep)),
                usize::MAX,
            );
            let table_ms = ms(t);
            let t = Instant::now();
            let names = library::jdk_type_names(&home, Some(cache.path())).expect("names");
            println!(
                "the JDK's tables cached, {round}: API table {} lines in {table_ms:.0} ms; type names of {} packages in {:.0} ms",
                table.lines().count(),
                names.lines().count(),
                ms(t)
            );
        }
    }

    // Library members by name (java_find_symbol's scope): the member table of the JDK and the
    // classpath, cold and warm, and a scan of its names for a few queries.
    let cache = tempfile::tempdir().expect("tempdir");
    for round in ["cold", "warm"] {
        let ix = LibraryIndex::build(&all, Some(cache.path()), DEFAULT_MAX_ENTRIES);
        let t = Instant::now();
        let table = ix.members();
        println!("member table, {round}: {} names, {} members in {:.0} ms", table.names.len(), table.len(), ms(t));
        if round == "warm" {
            let bytes: u64 = std::fs::read_dir(cache.path())
                .expect("cache")
                .flatten()
                .filter(|e| e.path().extension().is_some_and(|x| x == "members"))
                .filter_map(|e| e.metadata().ok().map(|m| m.len()))
                .sum();
            println!("member tables on disk: {:.1} MB", bytes as f64 / 1e6);
            for q in ["put", "gSV", "toString", "*Listener"] {
                let pattern = mcp_java_index::index::matcher::Pattern::new(q, false);
                let matching = || -> usize {
                    table
                        .names
                        .iter()
                        .zip(&table.members)
                        .filter(|(n, _)| pattern.tier(n).is_some())
                        .map(|(_, m)| m.len())
                        .sum()
                };
                let mut times: Vec<f64> = (0..20)
                    .map(|_| {
                        let t = Instant::now();
                        std::hint::black_box(matching());
                        ms(t)
                    })
                    .collect();
                times.sort_by(f64::total_cmp);
                let n = matching();
                println!("member names matching {q:?}: {n} members, median {:.1} ms", times[10]);
            }
        }
    }
}
