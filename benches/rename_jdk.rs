//! The rename proof on the JDK's java.base: N methods picked at random (seeded) among the
//! methods java.base's sources declare, each renamed through `refactor_actions` with
//! `apply: true` on a scratch copy of `target/jdk-src/java.base`, after which the whole module
//! is compiled with `javac --patch-module java.base=COPY -proc:none` (every file of the copy,
//! as the JDK's build compiles it). The count of renames after which java.base still compiles
//! is the figure; the edited files are put back from the pristine copy before the next pick.
//!
//! Each pick's check compiles the edited files and every file of the module that mentions the
//! old name or a type the edited files declare, against the classes of the unchanged module
//! (`--patch-module java.base=CLASSES:COPY`, `-implicit:none`): a file that mentions neither
//! compiles as before, since nothing it names changed. More than 600 such files, or
//! `RENAME_JDK_FULL=1`, compile the whole module instead.
//!
//! `cargo bench --bench rename_jdk` (`RENAME_JDK_N`, default 20; `RENAME_JDK_SEED`, default 32;
//! `RENAME_JDK_ONLY='key;key'`: these methods instead of seeded picks; `RENAME_JDK_CLASSES=DIR`:
//! the unchanged module's classes from an earlier compile, instead of compiling it first).

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

use mcp_java_index::config::{Config, Flags};
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::tool::refactor_actions::{RefactorAction, RefactorArgs};

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

/// Puts the pristine file back with its modification time: a source newer than its class file
/// is what javac reads instead of the class (`-Xprefer:newer`), and a module's part compiled
/// against its classes with more and more sources read beside them made javac 17 crash
/// (an `AssertionError` in most picks after the first ten, fixed by this).
fn restore(pristine: &Path, to: &Path) {
    std::fs::copy(pristine, to).expect("restore");
    let when = std::fs::metadata(pristine).and_then(|m| m.modified()).expect("pristine's time");
    std::fs::File::options().write(true).open(to).and_then(|f| f.set_modified(when)).expect("restore the time");
}

/// Compiles java.base from `src` into `scratch/classes`; the first error lines when it does not.
fn javac(src: &Path, scratch: &Path) -> Result<(), Vec<String>> {
    let files = scratch.join("files.txt");
    argfile(src, &files);
    compile(src, scratch, &files, "classes", None)
}

/// Compiles `files` (an argument file) of java.base from `src` into `scratch/out`, with the
/// classes of an earlier whole compile in front of the sources when given.
fn compile(src: &Path, scratch: &Path, files: &Path, out: &str, classes: Option<&Path>) -> Result<(), Vec<String>> {
    let out = scratch.join(out);
    let _ = std::fs::remove_dir_all(&out);
    let patch = match classes {
        Some(c) => format!("java.base={}:{}", c.display(), src.display()),
        None => format!("java.base={}", src.display()),
    };
    // In the scratch directory: a javac that crashes writes its arguments (javac.DATE.args) there.
    let r = std::process::Command::new("javac")
        .current_dir(scratch)
        .args(["-J-Xmx2g", "-nowarn", "-XDsuppressNotes", "-proc:none", "-encoding", "UTF-8"])
        .args(if classes.is_some() { &["-implicit:none"][..] } else { &[][..] })
        .arg("--patch-module")
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
    let errors: Vec<String> =
        text.lines().filter(|l| l.contains("error:")).take(3).map(|l| l.replace(&*src.to_string_lossy(), "")).collect();
    // No error line: javac failed otherwise (an exception, out of memory); its first lines say how.
    Err(if errors.is_empty() { text.lines().take(3).map(str::to_owned).collect() } else { errors })
}

/// The identifiers of a text.
fn words(text: &str) -> BTreeSet<&str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$')).filter(|w| !w.is_empty()).collect()
}

/// The files to compile after renaming `old` in `edited`: those and every Java file of `src`
/// that mentions `old` or a type an edited file declares; None when they are over 600 (the
/// whole module is compiled then).
fn affected(
    src: &Path,
    all: &[PathBuf],
    edited: &[PathBuf],
    old: &str,
    declared: &std::collections::HashMap<PathBuf, Vec<String>>,
) -> Option<Vec<PathBuf>> {
    let mut names: BTreeSet<String> = BTreeSet::from([old.to_owned()]);
    for f in edited {
        names.extend(declared.get(&src.join(f)).into_iter().flatten().cloned());
    }
    let mut out: Vec<PathBuf> = edited.iter().map(|f| src.join(f)).collect();
    for f in all {
        if out.contains(f) {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap_or_default();
        if words(&text).iter().any(|w| names.contains(*w)) {
            out.push(f.clone());
            if out.len() > 600 {
                return None;
            }
        }
    }
    Some(out)
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
    let classes = scratch.path().join("classes0");
    if let Some(given) = std::env::var_os("RENAME_JDK_CLASSES") {
        // The unchanged module compiled by an earlier run (`javac --patch-module … -d DIR`).
        copy(Path::new(&given), &classes);
    } else {
        if let Err(e) = javac(&work, scratch.path()) {
            println!("java.base does not compile as it is here ({}); no proof: {e:?}", javac_version());
            return;
        }
        println!("java.base compiles unchanged: {:.1} s ({})", t.elapsed().as_secs_f64(), javac_version());
        std::fs::rename(scratch.path().join("classes"), &classes).expect("keep the classes");
    }
    let full = std::env::var_os("RENAME_JDK_FULL").is_some();
    let only: Vec<String> = std::env::var("RENAME_JDK_ONLY")
        .map(|v| v.split(';').map(str::trim).filter(|k| !k.is_empty()).map(str::to_owned).collect())
        .unwrap_or_default();
    let mut all: Vec<PathBuf> =
        mcp_java_index::fs::walk::walk(&work, |p| p.extension().is_some_and(|x| x == "java")).files;
    all.sort();
    // javac after each apply (compileCheck) would compile java.base's files without
    // --patch-module: the compile below is the check here.
    let flags = Flags::roots([&work]).set("watch", false).set("cache", false).set("compile_after_apply", false);
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
    // The simple names of the types each file declares (the world's, as indexed).
    let declared: std::collections::HashMap<PathBuf, Vec<String>> = w
        .files
        .iter()
        .map(|f| (f.path.to_path_buf(), f.decls().types.iter().map(|t| t.simple.to_string()).collect()))
        .collect();
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
    let n = if only.is_empty() { n } else { only.len() };
    while renamed < n && tries < if only.is_empty() { n * 20 } else { only.len() } {
        tries += 1;
        let key = if only.is_empty() { methods[next(methods.len())].clone() } else { only[tries - 1].clone() };
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
        let edited: Vec<PathBuf> =
            r.files.iter().map(|f| PathBuf::from(f.moved_to.as_deref().unwrap_or(f.file.as_str()))).collect();
        let some = if full { None } else { affected(&work, &all, &edited, &old, &declared) };
        let (mut ok, mut what) = match &some {
            Some(files) => {
                let list = scratch.path().join("some.txt");
                let text: String = files.iter().map(|p| format!("{}\n", p.display())).collect();
                std::fs::write(&list, text).expect("argfile");
                (compile(&work, scratch.path(), &list, "some", Some(&classes)), format!("{} files", files.len()))
            }
            None => (javac(&work, scratch.path()), "the module".to_owned()),
        };
        // javac 17 sometimes crashes (an AssertionError, no error line) on a part of the module
        // compiled against the module's classes, and not when the same files are compiled
        // again: once more, then the whole module, compiled as the JDK's build does, decide.
        let crashed =
            |ok: &Result<(), Vec<String>>| ok.as_ref().is_err_and(|e| !e.iter().any(|l| l.contains("error:")));
        if let Some(files) = some.as_ref().filter(|_| crashed(&ok)) {
            let list = scratch.path().join("some.txt");
            ok = compile(&work, scratch.path(), &list, "some", Some(&classes));
            what = format!("{} files (again: javac crashed)", files.len());
            if crashed(&ok) {
                ok = javac(&work, scratch.path());
                what = format!("the module (javac crashed twice on {} files)", files.len());
            }
        }
        compiled += usize::from(ok.is_ok());
        println!(
            "{key} -> {new}: {} files, {} likely left, rename {rename_ms:.0} ms, javac of {what} {:.0} s: {}",
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
            restore(&pristine.join(&f.file), &work.join(&f.file));
        }
    }
    println!(
        "rename proof on java.base ({}): seed {seed0}, {renamed} renamed ({} refused on the way), {compiled} of {renamed} compile; {:.0} s in all",
        if full {
            "each pick: the whole module compiled"
        } else {
            "each pick: the files that mention what changed compiled"
        },
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
