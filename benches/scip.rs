//! The SCIP export (issue 35): commons-lang3 (`target/corpus`) and the JDK sources
//! (`target/jdk-src` or `$JDK_SRC_DIR`), each exported cold (every reference bound, then
//! encoded), again unchanged (every document kept), and after a one-file body edit (one
//! document encoded); the index's size on disk.
//!
//! `cargo bench --bench scip`.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use mcp_java_index::config::{Config, Flags};
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::tool::export_scip;

fn open(root: &Path) -> Host {
    let flags = Flags::roots([root]).set("cache", false).set("watch", false);
    Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace")
}

fn bench(name: &str, tree: &Path) {
    // A copy (not hard links: a file whose other name is outside the roots is not served).
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("src");
    let copied = std::process::Command::new("cp").arg("-a").arg(tree).arg(&root).status();
    assert!(copied.is_ok_and(|s| s.success()), "cp -a {}", tree.display());
    let t = Instant::now();
    let ws = open(&root);
    ws.build_index();
    println!("{name}: index first pass {:.2} s", t.elapsed().as_secs_f64());
    let t = Instant::now();
    let cold = export_scip::export(&ws, tmp.path(), std::path::Path::new("index.scip")).expect("export");
    println!(
        "{name}: export cold (binds every file): {:.2} s, {} documents, {} occurrences, {} symbols, {:.1} MB",
        t.elapsed().as_secs_f64(),
        cold.documents,
        cold.occurrences,
        cold.symbols,
        cold.bytes as f64 / 1e6
    );
    let t = Instant::now();
    let again = export_scip::export(&ws, tmp.path(), std::path::Path::new("index.scip")).expect("export");
    println!(
        "{name}: export unchanged (every document kept): {:.0} ms ({} encoded)",
        t.elapsed().as_secs_f64() * 1e3,
        again.encoded
    );
    assert_eq!(again.occurrences, cold.occurrences);
    // A one-file body edit: the biggest file's first `return` gets a space more (a method
    // body changed, no line moved).
    let mut times = Vec::new();
    let victim = biggest_java_file(&root);
    for i in 0..3 {
        let text = std::fs::read_to_string(&victim).expect("read");
        let edited = text.replacen("return ", &format!("return {}", " ".repeat(i + 1)), 1);
        let tmpf = victim.with_extension("java.tmp");
        std::fs::write(&tmpf, edited).expect("write");
        std::fs::rename(&tmpf, &victim).expect("rename");
        std::thread::sleep(Duration::from_millis(20));
        let t = Instant::now();
        let r = export_scip::export(&ws, tmp.path(), std::path::Path::new("index.scip")).expect("export");
        times.push(t.elapsed());
        assert_eq!(r.encoded, 1, "a body edit re-encodes one document");
    }
    times.sort();
    println!(
        "{name}: export after a one-file body edit ({}): median {:.0} ms (1 document encoded)",
        victim.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
        times[1].as_secs_f64() * 1e3
    );
}

fn biggest_java_file(root: &Path) -> std::path::PathBuf {
    let mut best = (0, root.to_path_buf());
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("dir").flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "java")
                && let Ok(m) = p.metadata()
                && m.len() > best.0
            {
                best = (m.len(), p);
            }
        }
    }
    best.1
}

fn main() {
    let lang3 = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/corpus/commons-lang3");
    if lang3.is_dir() {
        bench("commons-lang3", &lang3.canonicalize().expect("corpus"));
    }
    if let Some(jdk) = common::jdk_sources() {
        bench("JDK", &jdk.canonicalize().expect("the JDK tree"));
    }
}
