//! The outline cache: hits and misses, freshness after edits, sharing between caches and
//! threads, recovery from damaged entries, corrupt databases and unusable directories.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use mji_cache::{CHECKPOINT_LOG_BYTES, Cache, Counters, DB_FILE, FORMAT_VERSION, Outcome};
use mji_model::FileOutline;
use mji_parser as parser;

const A: &str = "package p;\n\n/** The A. */\npublic class A {\n    /** Counts. */\n    int count;\n\n    /** Runs. */\n    void run(String s) {}\n}\n";

fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).expect("creating dirs");
    }
    fs::write(path, text).expect("writing file");
}

fn set_mtime(path: &Path, t: SystemTime) {
    fs::File::options()
        .write(true)
        .open(path)
        .expect("opening for set_modified")
        .set_modified(t)
        .expect("set_modified");
}

fn fresh(path: &Path, display: &str) -> FileOutline {
    parser::outline(display, &fs::read(path).expect("reading"))
}

fn raw_db(cache_dir: &Path) -> rusqlite::Connection {
    let c = rusqlite::Connection::open(cache_dir.join(DB_FILE)).expect("opening raw db");
    c.busy_timeout(Duration::from_secs(5)).expect("busy timeout");
    c
}

/// Distinct small Java files.
fn java_files(dir: &Path, n: usize) -> Vec<PathBuf> {
    (0..n)
        .map(|i| {
            let p = dir.join(format!("src/p/C{i}.java"));
            write(
                &p,
                &format!(
                    "package p;\n/** Class {i}. */\nclass C{i} {{\n  int f{i};\n  /** m. */ void m{i}(int a) {{}}\n}}\n"
                ),
            );
            p
        })
        .collect()
}

/// A workspace with `A.java` whose outline is already in a closed cache at `ws/cache`.
fn seeded(ws: &Path) -> (PathBuf, PathBuf) {
    let file = ws.join("A.java");
    write(&file, A);
    let dir = ws.join("cache");
    let (cache, _) = Cache::open(&dir);
    cache.outline(&file, "A.java").expect("cold");
    drop(cache);
    (file, dir)
}

#[test]
fn the_second_lookup_is_a_hit_equal_to_a_fresh_parse() {
    let ws = tempfile::tempdir().expect("tempdir");
    let file = ws.path().join("A.java");
    write(&file, A);
    let dir = ws.path().join(".mcp-java-index-cache");
    let (cache, warnings) = Cache::open(&dir);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(fs::read_to_string(dir.join(".gitignore")).expect(".gitignore"), "*\n");

    let first = cache.outline(&file, "A.java").expect("first");
    let second = cache.outline(&file, "A.java").expect("second");
    assert_eq!(first.outcome, Outcome::Miss);
    assert_eq!(second.outcome, Outcome::Hit);
    assert_eq!(cache.counters(), Counters { hits: 1, misses: 1 });
    let expected = fresh(&file, "A.java");
    assert_eq!(first.outline, expected);
    // Equal including the javadoc byte spans, which are not part of the JSON.
    assert_eq!(second.outline, expected);
    assert!(second.outline.classes[0].javadoc.span.is_some());

    // Another display path for the same file is the same entry, reported under that path.
    let other = cache.outline(&file, "elsewhere/A.java").expect("third");
    assert_eq!(other.outcome, Outcome::Hit);
    assert_eq!(other.outline.file_path, "elsewhere/A.java");

    // The source comes back with it, and it persists across opens.
    drop(cache);
    let (cache, _) = Cache::open(&dir);
    let (cached, src) = cache.outline_with_source(&file, "A.java").expect("with source");
    assert_eq!(cached.outcome, Outcome::Hit);
    assert_eq!(cached.outline, expected);
    assert_eq!(src.text, A);
    assert_eq!(cache.info().entries, 1);
}

#[test]
fn a_warm_lookup_does_not_read_the_file_once_its_stamp_is_trusted() {
    let ws = tempfile::tempdir().expect("tempdir");
    let file = ws.path().join("A.java");
    write(&file, A);
    let (cache, _) = Cache::open(&ws.path().join("cache"));

    // Just written: the stamp is racy, so lookups hash the file every time.
    cache.outline(&file, "A.java").expect("cold");
    let reads = cache.file_reads();
    assert_eq!(cache.outline(&file, "A.java").expect("warm").outcome, Outcome::Hit);
    assert_eq!(cache.file_reads(), reads + 1, "a racy stamp must not be trusted");
    assert_eq!(cache.info().files, 0, "a racy stamp is not recorded");

    // As if the file had been written long ago.
    cache.set_racy_window(Duration::ZERO);
    cache.outline(&file, "A.java").expect("records the stamp");
    assert_eq!(cache.info().files, 1);
    let reads = cache.file_reads();
    for _ in 0..3 {
        assert_eq!(cache.outline(&file, "A.java").expect("warm").outcome, Outcome::Hit);
        let (_, outcome) = cache.outline_json(&file, "A.java").expect("warm json");
        assert_eq!(outcome, Outcome::Hit);
    }
    assert_eq!(cache.file_reads(), reads, "a warm lookup read the file");
}

#[test]
fn a_same_size_edit_with_the_old_mtime_is_a_miss_and_restoring_it_is_a_hit() {
    let ws = tempfile::tempdir().expect("tempdir");
    let file = ws.path().join("A.java");
    let (cache, _) = Cache::open(&ws.path().join("cache"));
    // Trust stamps at once, so the racy-timestamp guard is not what notices the edits below:
    // size and mtime are the same each time, only the content (and the ctime) differ.
    cache.set_racy_window(Duration::ZERO);
    let old = SystemTime::now() - Duration::from_secs(3600);

    write(&file, A);
    set_mtime(&file, old);
    let v1 = cache.outline(&file, "A.java").expect("v1");
    assert_eq!(v1.outcome, Outcome::Miss);
    assert_eq!(cache.outline(&file, "A.java").expect("v1 again").outcome, Outcome::Hit);

    // Same size, one letter changed, mtime put back. Wait out the timestamp tick first: with
    // the guard off, an edit within the same tick as the recorded stamp is what it is for.
    std::thread::sleep(Duration::from_millis(50));
    let edited = A.replace("void run", "void ran");
    assert_eq!(edited.len(), A.len());
    write(&file, &edited);
    set_mtime(&file, old);
    let v2 = cache.outline(&file, "A.java").expect("v2");
    assert_eq!(v2.outcome, Outcome::Miss, "served the outline of the old content");
    assert_eq!(v2.outline, fresh(&file, "A.java"));
    assert_eq!(v2.outline.classes[0].methods[0].name, "ran");

    // The old content again: its entry is still there.
    std::thread::sleep(Duration::from_millis(50));
    write(&file, A);
    set_mtime(&file, old);
    let v3 = cache.outline(&file, "A.java").expect("v3");
    assert_eq!(v3.outcome, Outcome::Hit);
    assert_eq!(v3.outline, v1.outline);
    assert_eq!(v3.outline.classes[0].methods[0].name, "run");
}

#[test]
fn a_rewrite_right_after_caching_is_caught_by_the_racy_guard() {
    let ws = tempfile::tempdir().expect("tempdir");
    let file = ws.path().join("A.java");
    let (cache, _) = Cache::open(&ws.path().join("cache"));
    write(&file, A);
    let mtime = fs::metadata(&file).expect("meta").modified().expect("mtime");
    assert_eq!(cache.outline(&file, "A.java").expect("v1").outcome, Outcome::Miss);
    // Rewritten at once with the same size and (forced) the same mtime. Where ctime is coarse
    // (one kernel tick) the stamp cannot tell, and only not trusting fresh stamps saves us;
    // where ctime is fine-grained the stamp catches it too. (That the guard is on is shown by
    // `a_warm_lookup_does_not_read_the_file_once_its_stamp_is_trusted`.)
    write(&file, &A.replace("count", "total"));
    set_mtime(&file, mtime);
    let v2 = cache.outline(&file, "A.java").expect("v2");
    assert_eq!(v2.outcome, Outcome::Miss);
    assert_eq!(v2.outline.classes[0].fields[0].name, "total");
}

#[test]
fn two_caches_on_one_dir_work_together_from_many_threads() {
    let ws = tempfile::tempdir().expect("tempdir");
    let files = java_files(ws.path(), 40);
    let dir = ws.path().join("cache");
    let (c1, w1) = Cache::open(&dir);
    let (c2, w2) = Cache::open(&dir);
    assert!(w1.is_empty() && w2.is_empty(), "{w1:?} {w2:?}");
    for c in [&c1, &c2] {
        c.set_racy_window(Duration::ZERO);
    }
    let expected: Vec<FileOutline> = files.iter().map(|f| fresh(f, "x")).collect();
    std::thread::scope(|s| {
        for t in 0..6 {
            let (c1, c2, files, expected) = (&c1, &c2, &files, &expected);
            s.spawn(move || {
                for round in 0..5 {
                    for (i, f) in files.iter().enumerate() {
                        let c = if (i + t + round) % 2 == 0 { c1 } else { c2 };
                        let got = c.outline(f, "x").expect("outline");
                        assert_eq!(got.outline, expected[i]);
                        let (json, _) = c.outline_json(f, "x").expect("json");
                        assert_eq!(json, serde_json::to_string(&expected[i]).expect("json"));
                    }
                    c1.flush();
                    c2.flush();
                }
            });
        }
    });
    let total = c1.counters().hits + c1.counters().misses + c2.counters().hits + c2.counters().misses;
    assert_eq!(total, 6 * 5 * 40 * 2);
    assert!(c1.warnings().is_empty() && c2.warnings().is_empty());
    drop((c1, c2));
    let (c3, _) = Cache::open(&dir);
    assert_eq!(c3.info().entries, 40);
    assert_eq!(c3.info().files, 40);
    for (i, f) in files.iter().enumerate() {
        let got = c3.outline(f, "x").expect("outline");
        assert_eq!(got.outcome, Outcome::Hit);
        assert_eq!(got.outline, expected[i]);
    }
}

#[test]
fn a_damaged_entry_is_rebuilt() {
    let ws = tempfile::tempdir().expect("tempdir");
    let file = ws.path().join("A.java");
    write(&file, A);
    let dir = ws.path().join("cache");
    let (cache, _) = Cache::open(&dir);
    cache.set_racy_window(Duration::ZERO);
    cache.outline(&file, "A.java").expect("cold");
    cache.flush();
    let raw = raw_db(&dir);

    for damage in ["garbage", "{\"filePath\":\"\"}", "{\"filePath\":\"\",\"language\":\"java\""] {
        raw.execute("UPDATE outlines SET json = ?1", [damage]).expect("damaging");
        let got = cache.outline(&file, "A.java").expect("after damage");
        assert_eq!(got.outcome, Outcome::Miss, "{damage}");
        assert_eq!(got.outline, fresh(&file, "A.java"));
        cache.flush();
        let json: String = raw.query_row("SELECT json FROM outlines", [], |r| r.get(0)).expect("row");
        let stored: FileOutline = serde_json::from_str(&json).expect("the row was fixed");
        assert_eq!(stored.file_path, "");
        assert_eq!(cache.outline(&file, "A.java").expect("fixed").outcome, Outcome::Hit);

        // The JSON path checks too.
        raw.execute("UPDATE outlines SET json = ?1", [damage]).expect("damaging");
        let (json, outcome) = cache.outline_json(&file, "A.java").expect("json");
        assert_eq!(outcome, Outcome::Miss);
        assert_eq!(json, serde_json::to_string(&fresh(&file, "A.java")).expect("json"));
        cache.flush();
    }
    // Spans that do not fit the outline are damage too.
    raw.execute("UPDATE outlines SET spans = x'05'", []).expect("damaging spans");
    assert_eq!(cache.outline(&file, "A.java").expect("spans").outcome, Outcome::Miss);
    assert!(cache.warnings().is_empty());
}

/// Deterministic noise.
fn noise(n: usize) -> Vec<u8> {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

#[test]
fn a_corrupt_database_is_moved_aside_and_rebuilt() {
    let ws = tempfile::tempdir().expect("tempdir");
    let (file, dir) = seeded(ws.path());
    let db = dir.join(DB_FILE);
    let garbage = noise(64 * 1024);
    fs::write(&db, &garbage).expect("overwriting the db");

    let (cache, warnings) = Cache::open(&dir);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("corrupt"), "{warnings:?}");
    assert_eq!(cache.warnings(), warnings);
    let aside = dir.join(format!("{DB_FILE}.corrupt"));
    assert_eq!(fs::read(&aside).expect("kept aside"), garbage);
    assert_eq!(cache.info().mode, "disk");
    assert_eq!(cache.outline(&file, "A.java").expect("1").outcome, Outcome::Miss);
    assert_eq!(cache.outline(&file, "A.java").expect("2").outcome, Outcome::Hit);
    drop(cache);
    let (cache, warnings) = Cache::open(&dir);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(cache.outline(&file, "A.java").expect("3").outcome, Outcome::Hit);
}

#[test]
fn a_malformed_database_is_moved_aside_and_rebuilt() {
    let ws = tempfile::tempdir().expect("tempdir");
    let (file, dir) = seeded(ws.path());
    // A valid header, but the schema page (the rest of page 1) is noise.
    let db = dir.join(DB_FILE);
    let mut bytes = fs::read(&db).expect("db");
    bytes[100..4096].copy_from_slice(&noise(3996));
    fs::write(&db, &bytes).expect("damaging the db");

    let (cache, warnings) = Cache::open(&dir);
    assert!(warnings.iter().any(|w| w.contains("corrupt") && w.contains("malformed")), "{warnings:?}");
    assert!(dir.join(format!("{DB_FILE}.corrupt")).exists());
    assert_eq!(cache.info().mode, "disk");
    assert_eq!(cache.outline(&file, "A.java").expect("1").outcome, Outcome::Miss);
    assert_eq!(cache.outline(&file, "A.java").expect("2").outcome, Outcome::Hit);
}

#[test]
fn an_unusable_dir_gives_a_memory_cache_with_a_warning() {
    let ws = tempfile::tempdir().expect("tempdir");
    let file = ws.path().join("A.java");
    write(&file, A);
    let blocker = ws.path().join("plain-file");
    write(&blocker, "not a directory");
    // Tests run as root, so permissions would not stop writes: use a path under a regular
    // file, and one under /proc (read-only for everyone).
    for dir in [blocker.join("cache"), PathBuf::from("/proc/mcp-java-index-test-cache")] {
        let (cache, warnings) = Cache::open(&dir);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains(&dir.display().to_string()), "{warnings:?}");
        assert!(warnings[0].contains("memory"), "{warnings:?}");
        assert_eq!(cache.info().mode, "memory");
        assert_eq!(cache.info().dir, None);
        assert_eq!(cache.outline(&file, "A.java").expect("1").outcome, Outcome::Miss);
        assert_eq!(cache.outline(&file, "A.java").expect("2").outcome, Outcome::Hit);
        assert_eq!(cache.outline(&file, "A.java").expect("3").outline, fresh(&file, "A.java"));
    }
}

#[test]
fn a_cache_dir_deleted_while_open_is_created_again() {
    let ws = tempfile::tempdir().expect("tempdir");
    let files = java_files(ws.path(), 3);
    let dir = ws.path().join("cache");
    let (cache, _) = Cache::open(&dir);
    cache.outline(&files[0], "0").expect("cold");
    cache.flush();

    fs::remove_dir_all(&dir).expect("deleting the cache dir");
    let got = cache.outline(&files[1], "1").expect("after delete");
    assert_eq!(got.outline, fresh(&files[1], "1"));
    assert_eq!(cache.outline(&files[0], "0").expect("again").outline, fresh(&files[0], "0"));
    cache.flush();
    let warnings = cache.warnings();
    assert!(warnings.iter().any(|w| w.contains("deleted")), "{warnings:?}");
    assert!(dir.join(DB_FILE).exists(), "not created again");
    assert_eq!(cache.info().mode, "disk");
    let info = cache.info();
    assert!(info.entries >= 1, "{info:?}");

    // A second cache sees what the first wrote after re-creating.
    let (other, w) = Cache::open(&dir);
    assert!(w.is_empty(), "{w:?}");
    assert_eq!(other.outline(&files[1], "1").expect("shared").outcome, Outcome::Hit);
}

#[test]
fn a_cache_dir_that_cannot_be_created_again_degrades_to_memory() {
    let ws = tempfile::tempdir().expect("tempdir");
    let files = java_files(ws.path(), 2);
    let dir = ws.path().join("cache");
    let (cache, _) = Cache::open(&dir);
    cache.outline(&files[0], "0").expect("cold");
    cache.flush();

    fs::remove_dir_all(&dir).expect("deleting the cache dir");
    write(&dir, "a file where the cache dir was");
    cache.outline(&files[1], "1").expect("after delete");
    cache.flush();
    let warnings = cache.warnings();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("memory"), "{warnings:?}");
    assert_eq!(cache.info().mode, "memory");
    for (i, f) in files.iter().enumerate() {
        let got = cache.outline(f, "x").expect("still serving");
        assert_eq!(got.outcome, Outcome::Hit, "file {i}");
        assert_eq!(got.outline, fresh(f, "x"));
    }
    // More writes do not add warnings.
    write(&files[0], "class Changed {}");
    cache.outline(&files[0], "x").expect("changed");
    cache.flush();
    assert_eq!(cache.warnings().len(), 1);
}

#[test]
fn entries_of_another_format_version_are_not_served() {
    let ws = tempfile::tempdir().expect("tempdir");
    let file = ws.path().join("A.java");
    write(&file, A);
    let dir = ws.path().join("cache");
    let newer = FORMAT_VERSION + 1;
    {
        let (v2, _) = Cache::open_with_format(&dir, newer);
        assert_eq!(v2.outline(&file, "A.java").expect("v2").outcome, Outcome::Miss);
        assert_eq!(v2.info().format_version, newer);
    }
    let (v1, _) = Cache::open(&dir);
    assert_eq!(v1.outline(&file, "A.java").expect("v1").outcome, Outcome::Miss);
    assert_eq!(v1.outline(&file, "A.java").expect("v1 again").outcome, Outcome::Hit);
    drop(v1);
    // The newer version's entry was left alone by the older binary.
    let (v2, _) = Cache::open_with_format(&dir, newer);
    assert_eq!(v2.outline(&file, "A.java").expect("v2 again").outcome, Outcome::Hit);
    drop(v2);
    // An older version's entries are pruned when a newer one opens.
    let n: i64 = raw_db(&dir)
        .query_row("SELECT count(*) FROM outlines WHERE format = ?1", [FORMAT_VERSION], |r| r.get(0))
        .expect("count");
    assert_eq!(n, 0);
}

#[test]
fn outline_json_is_exactly_the_serialized_outline() {
    let ws = tempfile::tempdir().expect("tempdir");
    let file = ws.path().join("A.java");
    write(&file, A);
    let dir = ws.path().join("cache");
    let displays =
        ["A.java", "src/\"quoted\"/back\\slash/A.java", "ünïcødé/𝄞/tab\there/A.java", "C:\\Users\\x\\A.java", ""];
    let check = |cache: &Cache| -> Vec<Outcome> {
        displays
            .iter()
            .map(|d| {
                let (json, outcome) = cache.outline_json(&file, d).expect("json");
                let want = serde_json::to_string(&fresh(&file, d)).expect("serialize");
                assert_eq!(json, want, "{d}");
                outcome
            })
            .collect()
    };
    use Outcome::{Hit, Miss};
    let (cache, _) = Cache::open(&dir);
    assert_eq!(check(&cache), [Miss, Hit, Hit, Hit, Hit]);
    assert_eq!(check(&cache), [Hit; 5]);
    drop(cache);
    let (cache, _) = Cache::open(&dir);
    cache.set_racy_window(Duration::ZERO);
    assert_eq!(check(&cache), [Hit; 5]); // by content hash; records the stamp
    let reads = cache.file_reads();
    assert_eq!(check(&cache), [Hit; 5]); // by stamp
    assert_eq!(cache.file_reads(), reads);
    assert_eq!(check(&Cache::in_memory()), [Miss, Hit, Hit, Hit, Hit]);
    assert_eq!(check(&Cache::disabled()), [Miss; 5]);
}

#[test]
fn clear_empties_the_cache_and_info_counts_it() {
    let ws = tempfile::tempdir().expect("tempdir");
    let files = java_files(ws.path(), 3);
    let dir = ws.path().join("cache");
    let (cache, _) = Cache::open(&dir);
    cache.set_racy_window(Duration::ZERO);
    for f in &files {
        cache.outline(f, "x").expect("cold");
    }
    let info = cache.info();
    assert_eq!(info.mode, "disk");
    assert_eq!(info.dir.as_deref(), Some(dir.as_path()));
    assert_eq!((info.entries, info.files), (3, 3));
    assert!(info.bytes > 0);
    assert_eq!(info.format_version, mji_cache::FORMAT_VERSION);

    cache.clear().expect("clear");
    let info = cache.info();
    assert_eq!((info.entries, info.files), (0, 0));
    assert_eq!(cache.outline(&files[0], "x").expect("after clear").outcome, Outcome::Miss);
    assert_eq!(cache.info().entries, 1);

    let mem = Cache::in_memory();
    mem.outline(&files[0], "x").expect("mem");
    assert_eq!(mem.info().entries, 1);
    mem.clear().expect("clear mem");
    assert_eq!(mem.info().entries, 0);
    assert_eq!(mem.outline(&files[0], "x").expect("mem again").outcome, Outcome::Miss);
}

#[test]
fn errors_name_the_file() {
    let ws = tempfile::tempdir().expect("tempdir");
    let (cache, _) = Cache::open(&ws.path().join("cache"));
    let missing = ws.path().join("Missing.java");
    let e = cache.outline(&missing, "Missing.java").expect_err("missing file");
    assert_eq!(e.kind(), std::io::ErrorKind::NotFound);
    assert!(e.to_string().contains("Missing.java"), "{e}");
    assert!(cache.outline_json(&missing, "Missing.java").is_err());
    assert!(cache.outline_with_source(&missing, "Missing.java").is_err());
    assert_eq!(cache.counters(), Counters::default());
}

const CHILD_DIR: &str = "MCP_JAVA_INDEX_TEST_CACHE_DIR";
const CHILD_FILES: &str = "MCP_JAVA_INDEX_TEST_FILES_DIR";

/// Looks up every file of `files_dir` a few times, checking each answer against a fresh parse.
fn work_on_shared_cache(cache_dir: &Path, files_dir: &Path) {
    let (cache, warnings) = Cache::open(cache_dir);
    assert!(warnings.is_empty(), "{warnings:?}");
    cache.set_racy_window(Duration::ZERO);
    let mut files: Vec<PathBuf> =
        fs::read_dir(files_dir).expect("listing files").map(|e| e.expect("entry").path()).collect();
    files.sort();
    for round in 0..4 {
        for f in &files {
            let want = fresh(f, "shared");
            assert_eq!(cache.outline(f, "shared").expect("outline").outline, want);
            let (json, _) = cache.outline_json(f, "shared").expect("json");
            assert_eq!(json, serde_json::to_string(&want).expect("json"));
        }
        if round % 2 == 0 {
            cache.flush();
        }
    }
    drop(cache);
}

/// The name the test binary knows this file's test `name` by (its module path without the
/// binary's own name), as `--exact` wants it when a test starts the binary again as a child.
fn test_name(name: &str) -> String {
    match module_path!().split_once("::") {
        Some((_, module)) => format!("{module}::{name}"),
        None => name.to_owned(),
    }
}

/// The body of the child processes of `two_processes_share_one_cache`; does nothing when run
/// as a test of its own.
#[test]
fn child_process_of_the_shared_cache_test() {
    if let (Some(dir), Some(files)) = (std::env::var_os(CHILD_DIR), std::env::var_os(CHILD_FILES)) {
        work_on_shared_cache(Path::new(&dir), Path::new(&files));
    }
}

#[test]
fn several_processes_share_one_cache() {
    let ws = tempfile::tempdir().expect("tempdir");
    let files = java_files(ws.path(), 60);
    let files_dir = files[0].parent().expect("dir").to_path_buf();
    let cache_dir = ws.path().join("cache");
    let exe = std::env::current_exe().expect("test binary");
    let children: Vec<_> = (0..2)
        .map(|_| {
            std::process::Command::new(&exe)
                .args(["--exact", test_name("child_process_of_the_shared_cache_test").as_str(), "--nocapture"])
                .env(CHILD_DIR, &cache_dir)
                .env(CHILD_FILES, &files_dir)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("spawning a child")
        })
        .collect();
    work_on_shared_cache(&cache_dir, &files_dir);
    for child in children {
        let out = child.wait_with_output().expect("waiting for a child");
        assert!(
            out.status.success(),
            "child failed:\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(String::from_utf8_lossy(&out.stdout).contains("1 passed"));
    }
    let (cache, _) = Cache::open(&cache_dir);
    let info = cache.info();
    assert_eq!((info.entries, info.files), (60, 60), "{info:?}");
    for f in &files {
        assert_eq!(cache.outline(f, "x").expect("outline").outcome, Outcome::Hit);
    }
}

#[test]
fn a_flush_empties_a_write_ahead_log_past_its_bound() {
    let ws = tempfile::tempdir().expect("tempdir");
    let dir = ws.path().join("cache");
    let wal = dir.join(format!("{DB_FILE}-wal"));
    let log_len = || fs::metadata(&wal).map_or(0, |m| m.len());
    let (cache, _) = Cache::open(&dir);
    cache.set_racy_window(Duration::ZERO);
    // One small outline: the log is left as it is.
    let one = ws.path().join("One.java");
    write(&one, "class One { void m() {} }");
    assert_eq!(cache.outline(&one, "One.java").expect("outline").outcome, Outcome::Miss);
    cache.flush();
    let small = log_len();
    assert!(small > 0 && small <= CHECKPOINT_LOG_BYTES, "{small}");
    // Outlines enough to pass the bound: written to the log, then emptied into the database.
    let methods: String =
        (0..60).map(|m| format!("  /** Method {m}. */ public int method{m}(int a) {{ return a; }}\n")).collect();
    let mut files = vec![one];
    for i in 0..40 {
        let f = ws.path().join(format!("C{i}.java"));
        write(&f, &format!("class C{i} {{\n{methods}}}\n"));
        assert_eq!(cache.outline(&f, "C.java").expect("outline").outcome, Outcome::Miss);
        files.push(f);
    }
    cache.flush_keeping_log();
    assert!(log_len() > CHECKPOINT_LOG_BYTES, "{}", log_len());
    cache.flush();
    assert_eq!(log_len(), 0, "emptied into the database");
    drop(cache);
    let in_db: i64 = raw_db(&dir).query_row("SELECT count(*) FROM outlines", [], |r| r.get(0)).expect("count");
    assert_eq!(in_db, 41);
    let (cache, _) = Cache::open(&dir);
    for f in &files {
        assert_eq!(cache.outline(f, "C.java").expect("outline").outcome, Outcome::Hit);
    }
}

#[test]
fn unreferenced_entries_are_collected_when_they_pile_up() {
    let ws = tempfile::tempdir().expect("tempdir");
    let file = ws.path().join("A.java");
    let dir = ws.path().join("cache");
    {
        let (cache, _) = Cache::open(&dir);
        cache.set_racy_window(Duration::ZERO);
        // 1,200 versions of one file: only the last is referenced by its path.
        for i in 0..1200 {
            write(&file, &format!("class A{i} {{}}"));
            cache.outline(&file, "A.java").expect("outline");
        }
        assert_eq!(cache.info().entries, 1200);
    }
    // Collection runs on the writer thread before its first batch: a process that only reads
    // never starts it. Each open below writes one outline, of a new version of another file.
    let other = ws.path().join("B.java");
    let collected = |version: u32| {
        write(&other, &format!("class B{version} {{}}"));
        let (cache, _) = Cache::open(&dir);
        cache.set_racy_window(Duration::ZERO);
        assert_eq!(cache.outline(&other, "B.java").expect("outline").outcome, Outcome::Miss);
        cache.flush();
        cache
    };
    // Recent entries are kept (a file written just now has no recorded path yet).
    let cache = collected(1);
    assert_eq!(cache.info().entries, 1201);
    drop(cache);
    raw_db(&dir).execute("UPDATE outlines SET created = created - 7200", []).expect("ageing entries");
    // B1 is still B.java's when collection runs, before B2 is written.
    let cache = collected(2);
    let info = cache.info();
    assert_eq!((info.entries, info.files), (3, 2), "{info:?}");
    assert_eq!(cache.outline(&file, "A.java").expect("last").outcome, Outcome::Hit);
}

const KILL_DIR: &str = "MCP_JAVA_INDEX_TEST_KILLED_CACHE_DIR";

/// The body of the child process of `a_killed_writer_leaves_a_sound_database`: writes new
/// entries until it is killed (or 20 s pass). Does nothing when run as a test of its own.
#[test]
fn child_process_killed_while_writing() {
    let Some(dir) = std::env::var_os(KILL_DIR) else {
        return;
    };
    let dir = PathBuf::from(dir);
    let (cache, _) = Cache::open(&dir.join("cache"));
    let file = dir.join("K.java");
    let start = std::time::Instant::now();
    let mut i = 0u64;
    while start.elapsed() < Duration::from_secs(20) {
        write(&file, &format!("class K{i} {{ /** v{i} */ void m{i}() {{}} }}"));
        cache.outline(&file, "K.java").expect("outline");
        i += 1;
    }
}

#[test]
fn a_killed_writer_leaves_a_sound_database() {
    let ws = tempfile::tempdir().expect("tempdir");
    let exe = std::env::current_exe().expect("test binary");
    for _ in 0..3 {
        let mut child = std::process::Command::new(&exe)
            .args(["--exact", test_name("child_process_killed_while_writing").as_str(), "--nocapture"])
            .env(KILL_DIR, ws.path())
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("spawning a child");
        // Kill it once it has committed something (a loaded machine may take a while to
        // start it), in the middle of further writes.
        let db = ws.path().join("cache").join(DB_FILE);
        let start = std::time::Instant::now();
        while start.elapsed() < Duration::from_secs(30) {
            let written = db.exists()
                && rusqlite::Connection::open(&db)
                    .and_then(|c| c.query_row("SELECT count(*) FROM outlines", [], |r| r.get::<_, i64>(0)))
                    .is_ok_and(|n| n > 0);
            if written {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(150));
        child.kill().expect("SIGKILL");
        child.wait().expect("reaping");
    }
    let dir = ws.path().join("cache");
    let raw = raw_db(&dir);
    let check: String = raw.query_row("PRAGMA integrity_check", [], |r| r.get(0)).expect("integrity check");
    assert_eq!(check, "ok");
    // Counted before opening: the many unreferenced versions are collected at open.
    let written: i64 = raw.query_row("SELECT count(*) FROM outlines", [], |r| r.get(0)).expect("count");
    assert!(written > 0, "nothing was written before the kills");
    let (cache, warnings) = Cache::open(&dir);
    assert!(warnings.is_empty(), "{warnings:?}");
    let file = ws.path().join("K.java");
    assert_eq!(cache.outline(&file, "K.java").expect("outline").outline, fresh(&file, "K.java"));
}

#[test]
fn a_database_of_another_schema_is_rebuilt() {
    let ws = tempfile::tempdir().expect("tempdir");
    let (file, dir) = seeded(ws.path());
    {
        let raw = raw_db(&dir);
        raw.execute("UPDATE meta SET value = 'old' WHERE key = 'schema'", []).expect("faking an old schema");
        raw.execute("ALTER TABLE outlines RENAME COLUMN json TO old_json", []).expect("changing a table");
    }
    let (cache, warnings) = Cache::open(&dir);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(cache.info().entries, 0);
    assert_eq!(cache.outline(&file, "A.java").expect("1").outcome, Outcome::Miss);
    assert_eq!(cache.outline(&file, "A.java").expect("2").outcome, Outcome::Hit);
}

/// A cache written before the stamp became `mji_fs::stamp::Stamp` (schema 2: size, mtime and
/// ctime columns) is emptied and rebuilt on open, quietly: no row of it is read as a stamp of
/// the new shape, the first lookup parses and the second is a hit.
#[test]
fn a_cache_of_the_old_stamp_columns_is_rebuilt() {
    let ws = tempfile::tempdir().expect("tempdir");
    let (file, dir) = seeded(ws.path());
    set_mtime(&file, SystemTime::now() - Duration::from_secs(3600));
    {
        let raw = raw_db(&dir);
        raw.execute_batch(
            "DROP TABLE outlines; DROP TABLE files;
             CREATE TABLE outlines (hash TEXT NOT NULL, format INTEGER NOT NULL, model TEXT NOT NULL,
                 json TEXT NOT NULL, spans BLOB NOT NULL, created INTEGER NOT NULL,
                 PRIMARY KEY (hash, format, model));
             CREATE TABLE files (path BLOB PRIMARY KEY, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,
                 ctime_ns INTEGER NOT NULL, hash TEXT NOT NULL) WITHOUT ROWID;
             UPDATE meta SET value = '2' WHERE key = 'schema';",
        )
        .expect("the schema 2 layout");
        let meta = fs::metadata(&file).expect("meta");
        let mtime = meta.modified().expect("mtime").duration_since(std::time::UNIX_EPOCH).expect("epoch");
        raw.execute(
            "INSERT INTO files VALUES (?1, ?2, ?3, ?3, 'old')",
            rusqlite::params![file.as_os_str().as_encoded_bytes(), meta.len() as i64, mtime.as_nanos() as i64],
        )
        .expect("an old row");
        raw.execute("INSERT INTO outlines VALUES ('old', ?1, 'm', '{}', x'', 0)", [FORMAT_VERSION])
            .expect("an old entry");
    }
    let (cache, warnings) = Cache::open(&dir);
    assert!(warnings.is_empty(), "{warnings:?}");
    let info = cache.info();
    assert_eq!((info.entries, info.files), (0, 0), "the old rows are gone");
    let columns: Vec<String> = raw_db(&dir)
        .prepare("SELECT name FROM pragma_table_info('files')")
        .expect("prepare")
        .query_map([], |r| r.get(0))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("columns");
    assert_eq!(columns, ["path", "size", "stamp_lo", "stamp_hi", "hash"]);
    let first = cache.outline(&file, "A.java").expect("1");
    assert_eq!(first.outcome, Outcome::Miss);
    assert_eq!(first.outline, fresh(&file, "A.java"));
    let reads = cache.file_reads();
    assert_eq!(cache.outline(&file, "A.java").expect("2").outcome, Outcome::Hit);
    assert_eq!(cache.file_reads(), reads, "the new row's stamp is trusted: no read");
}
