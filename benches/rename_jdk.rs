//! The rename proof on the JDK's java.base: N methods picked at random (seeded) among the
//! methods java.base's sources declare, each renamed through `refactor_actions` with
//! `apply: true` on a scratch copy of `target/jdk-src/java.base`, after which the whole module
//! is compiled with `javac --patch-module java.base=COPY -proc:none` (every file of the copy,
//! as the JDK's build compiles it). The count of renames after which java.base still compiles
//! is the figure; the edited files are put back from the pristine copy before the next pick.
//!
//! `cargo bench --bench rename_jdk` (`RENAME_JDK_N`, default 20; `RENAME_JDK_SEED`, default 32).

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

use mcp_java_index::config::{Config, Flags};
use mcp_java_index::tools::edit::{RefactorAction, RefactorArgs};
use mcp_java_index::tools::host::Host;

fn rename_args(target: &str, new: &str) -> RefactorArgs {
    RefactorArgs {
        action: RefactorAction::Rename,
        target: target.to_owned(),
        new_name: new.to_owned(),
        apply: true,
        edit_id: String::new(),
        ..Default::default()
    }
}

fn copy(from: &Path, to: &Path) {
    let ok = std::process::Command::new("cp").arg("-a").arg(from).arg(to).status();
    assert!(ok.is_ok_and(|s| s.success()), "cp -a {}", from.display());
}

/// The Java files of `dir`, as an argument file for javac.
fn argfile(dir: &Path, at: &Path) {
    let mut files: Vec<PathBuf> =
        mcp_java_index::fs::walk::walk(dir, |p| p.extension().is_some_and(|x| x == "java")).files;
    files.sort();
    let text: String = files.iter().map(|p| format!("{}\n", p.display())).collect();
    std::fs::write(at, text).expect("argfile");
}

/// Compiles java.base from `src`; the first error lines when it does not.
fn javac(src: &Path, scratch: &Path) -> Result<(), Vec<String>> {
    let out = scratch.join("classes");
    let _ = std::fs::remove_dir_all(&out);
    let files = scratch.join("files.txt");
    argfile(src, &files);
    let patch = format!("java.base={}", src.display());
    let r = std::process::Command::new("javac")
        .args(["-J-Xmx2g", "-nowarn", "-XDsuppressNotes", "-proc:none", "-encoding", "UTF-8", "--patch-module"])
        .arg(&patch)
        .arg("-d")
        .arg(&out)
        .arg(format!("@{}", files.display()))
        .output()
        .expect("javac runs");
    if r.status.success() {
        return Ok(());
    }
    let text = String::from_utf8_lossy(&r.stderr).into_owned() + &String::from_utf8_lossy(&r.stdout);
    Err(text.lines().filter(|l| l.contains("error:")).take(3).map(|l| l.replace(&*src.to_string_lossy(), "")).collect())
}

fn main() {
    let Some(jdk) = common::jdk_sources() else { return };
    let n: usize = std::env::var("RENAME_JDK_N").ok().and_then(|v| v.parse().ok()).unwrap_or(20);
    let seed0: u64 = std::env::var("RENAME_JDK_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(32);
    let scratch = tempfile::tempdir().expect("tmp");
    let pristine = scratch.path().join("pristine");
    let work = scratch.path().join("java.base");
    copy(&jdk.join("java.base").canonicalize().expect("java.base"), &pristine);
    copy(&pristine, &work);
    let start = Instant::now();
    let t = Instant::now();
    if let Err(e) = javac(&work, scratch.path()) {
        println!("java.base does not compile as it is here ({}); no proof: {e:?}", javac_version());
        return;
    }
    println!("java.base compiles unchanged: {:.1} s ({})", t.elapsed().as_secs_f64(), javac_version());
    let flags = Flags::roots([&work]).set("watch", false).set("cache", false);
    let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    let t = Instant::now();
    ws.build_index();
    let (w, _) = ws.xref_world();
    let mut methods: Vec<String> = Vec::new();
    for (fi, f) in w.files.iter().enumerate() {
        for (i, t) in f.decls().types.iter().enumerate() {
            let id = w.type_in_file(fi as u32, i as u32);
            methods.extend(t.methods.iter().filter(|m| !m.implicit).map(|m| w.method_key(id, m)));
        }
    }
    drop(w);
    methods.sort();
    methods.dedup();
    println!("{} methods declared in java.base; indexed in {:.1} s", methods.len(), t.elapsed().as_secs_f64());
    let mut seed = seed0;
    let mut next = |len: usize| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) as usize % len
    };
    let (mut renamed, mut compiled, mut refused, mut tries) = (0usize, 0usize, Vec::new(), 0);
    let mut failed = Vec::new();
    let mut seen = BTreeSet::new();
    while renamed < n && tries < n * 20 {
        tries += 1;
        let key = methods[next(methods.len())].clone();
        if !seen.insert(key.clone()) {
            continue;
        }
        let old = mcp_java_index::xref::target::name_of_key(&key);
        let new = format!("{old}Zq{renamed}");
        let t = Instant::now();
        let r = match mcp_java_index::tools::tool::refactor_actions::run(&ws, &rename_args(&key, &new)) {
            Ok(r) => r,
            Err(e) => {
                refused.push(format!("{key}: {e}"));
                continue;
            }
        };
        let rename_ms = t.elapsed().as_secs_f64() * 1e3;
        if r.files.is_empty() {
            refused.push(format!("{key}: nothing written ({})", r.conflicts.join("; ")));
            continue;
        }
        renamed += 1;
        let t = Instant::now();
        let ok = javac(&work, scratch.path());
        compiled += usize::from(ok.is_ok());
        println!(
            "{key} -> {new}: {} files, {} likely left, rename {rename_ms:.0} ms, javac {:.0} s: {}",
            r.files.len(),
            r.likely.len(),
            t.elapsed().as_secs_f64(),
            if ok.is_ok() { "compiles" } else { "DOES NOT COMPILE" }
        );
        if let Err(e) = &ok {
            for l in e {
                println!("    {l}");
            }
            failed.push(key.clone());
        }
        // Back to the pristine tree for the next pick.
        for f in &r.files {
            for rel in [Some(f.file.as_str()), f.moved_to.as_deref()].into_iter().flatten() {
                let _ = std::fs::remove_file(work.join(rel));
            }
            std::fs::copy(pristine.join(&f.file), work.join(&f.file)).expect("restore");
        }
    }
    println!(
        "rename proof on java.base: seed {seed0}, {renamed} renamed ({} refused on the way), {compiled} of {renamed} compile; {:.0} s in all",
        refused.len(),
        start.elapsed().as_secs_f64()
    );
    for r in refused.iter().take(10) {
        println!("    refused: {}", mcp_java_index::fs::clip(r));
    }
    for f in &failed {
        println!("    does not compile after renaming {f}");
    }
}

fn javac_version() -> String {
    std::process::Command::new("javac")
        .arg("-version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default()
}
