//! Rename, measured and proved.
//!
//! 1. Proof on real code (commons-lang3 3.12.0, `target/corpus/commons-lang3`): 20 methods and
//!    10 types chosen at random (seeded), each renamed on a fresh copy through
//!    `refactor_actions` with `apply: true`; after each, the copy is compiled with javac, and
//!    the positions changed are compared with the references javac attributes to the renamed
//!    declarations (`tests/javac/RefDump.java --javadoc`): every javac reference changed, and
//!    nothing changed but those, the declarations' names, and `{@link Old#member}` qualifiers
//!    (which javadoc's own resolution does not report separately).
//! 2. Speed on the JDK sources: the preview of renaming a method with at least 1,000
//!    references (the fewest among a few widely used ones), with a warm reference index
//!    (goal < 1 s).
//!
//! `cargo bench --bench rename` (`RENAME_PROOF_ONLY=1` skips the JDK part,
//! `RENAME_PREVIEW_ONLY=1` runs it alone).

mod common;

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mcp_java_index::config::{Config, Flags};
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::tool::refactor_actions::{RefactorAction, RefactorArgs};

fn open(root: &Path, watch: bool) -> Host {
    let flags = Flags::roots([root]).set("watch", watch).set("cache", false);
    let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    ws.build_index();
    ws
}

fn rename_args(target: &str, new: &str, apply: bool) -> RefactorArgs {
    RefactorArgs {
        action: RefactorAction::Rename,
        target: target.to_owned(),
        new_name: new.to_owned(),
        apply,
        edit_id: String::new(),
        ..Default::default()
    }
}

/// (file relative to the root, line, column).
type Pos = (String, u32, u32);

/// The Java files under `dir`, through the index's own walker.
fn java_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> =
        mcp_java_index::fs::walk::walk(dir, |p| p.extension().is_some_and(|x| x == "java")).files;
    files.sort();
    files
}

fn compiles(root: &Path) -> bool {
    let out = tempfile::tempdir().expect("out");
    std::process::Command::new("javac")
        .args(["-nowarn", "-proc:none", "-encoding", "UTF-8", "-d"])
        .arg(out.path())
        .args(java_files(root))
        .output()
        .is_ok_and(|o| o.status.success())
}

/// javac's references, by target key.
fn javac_refs(root: &Path) -> HashMap<String, Vec<Pos>> {
    let out = std::process::Command::new("java")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/javac/RefDump.java"))
        .arg("--javadoc")
        .arg(root)
        .output()
        .expect("running tests/javac/RefDump.java");
    assert!(out.status.success(), "RefDump: {}", String::from_utf8_lossy(&out.stderr));
    let mut map: HashMap<String, Vec<Pos>> = HashMap::new();
    for l in String::from_utf8_lossy(&out.stdout).lines() {
        let f: Vec<&str> = l.split('\t').collect();
        if f.len() < 7 {
            continue;
        }
        let (Ok(line), Ok(col)) = (f[1].parse(), f[2].parse()) else { continue };
        map.entry(f[5].to_owned()).or_default().push((f[0].to_owned(), line, col));
    }
    map
}

/// The old-file positions of every `new` identifier in the new file (each replaced `old`).
fn changed_positions(rel: &str, text: &str, old: &str, new: &str) -> Vec<Pos> {
    let delta = new.encode_utf16().count() as i64 - old.encode_utf16().count() as i64;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut k = 0i64;
        for (at, _) in line.match_indices(new) {
            let before = line[..at].chars().last();
            let after = line[at + new.len()..].chars().next();
            let ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$');
            if ident(before) || ident(after) {
                continue;
            }
            let col = line[..at].encode_utf16().count() as i64 + 1 - k * delta;
            out.push((rel.to_owned(), i as u32 + 1, col as u32));
            k += 1;
        }
    }
    out
}

/// Whether the name at a position is a declaration's name, or the type part of a javadoc
/// member link (`{@link Old#m}`).
fn declaration_or_qualifier(root: &Path, p: &Pos, old: &str) -> bool {
    let Ok(text) = std::fs::read_to_string(root.join(&p.0)) else { return false };
    let Some(line) = text.lines().nth(p.1 as usize - 1) else { return false };
    let units: Vec<u16> = line.encode_utf16().collect();
    let before = String::from_utf16_lossy(&units[..(p.2 as usize - 1).min(units.len())]);
    let after = String::from_utf16_lossy(&units[(p.2 as usize - 1 + old.encode_utf16().count()).min(units.len())..]);
    if after.starts_with('#')
        && (before.ends_with("@link ") || before.ends_with("@linkplain ") || before.ends_with("@see "))
    {
        return true;
    }
    let offset = text.lines().take(p.1 as usize - 1).map(|l| l.len() + 1).sum::<usize>() + before.len();
    let Some(tree) = mcp_java_index::parser::parse_tree(&text) else { return false };
    let Some(node) = tree.root_node().descendant_for_byte_range(offset, offset + old.len()) else { return false };
    node.parent().is_some_and(|parent| {
        parent.child_by_field_name("name") == Some(node)
            && matches!(
                parent.kind(),
                "method_declaration"
                    | "constructor_declaration"
                    | "class_declaration"
                    | "interface_declaration"
                    | "enum_declaration"
                    | "record_declaration"
                    | "annotation_type_declaration"
                    | "variable_declarator"
            )
    })
}

fn copy(from: &Path, to: &Path) {
    let ok = std::process::Command::new("cp").arg("-a").arg(from).arg(to).status();
    assert!(ok.is_ok_and(|s| s.success()), "cp -a {}", from.display());
}

#[derive(Default)]
struct Tally {
    renamed: usize,
    compiled: usize,
    javac_refs: usize,
    missed: usize,
    extra: usize,
    refused: Vec<String>,
}

fn proof() {
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/corpus/commons-lang3/src/main/java");
    if !corpus.join("org").is_dir() {
        eprintln!("no commons-lang3 corpus at {} (run .ci/run)", corpus.display());
        return;
    }
    let scratch = tempfile::tempdir().expect("tmp");
    let pristine = scratch.path().join("pristine");
    copy(&corpus.canonicalize().expect("corpus"), &pristine);
    let t = Instant::now();
    let javac = javac_refs(&pristine);
    println!("javac references of the corpus: {} keys ({:.1} s)", javac.len(), t.elapsed().as_secs_f64());
    // Candidates, in a fixed order, picked by a seeded generator.
    let ws = open(&pristine, false);
    let (w, _) = ws.xref_world();
    let mut methods: Vec<String> = Vec::new();
    let mut types: Vec<String> = Vec::new();
    for (fi, f) in w.files.iter().enumerate() {
        for (i, t) in f.decls().types.iter().enumerate() {
            let id = w.type_in_file(fi as u32, i as u32);
            types.push(t.fqn.to_string());
            for m in t.methods.iter().filter(|m| !m.implicit) {
                methods.push(w.method_key(id, m));
            }
        }
    }
    methods.sort();
    methods.dedup();
    types.sort();
    drop(ws);
    let mut seed: u64 = 0x5eed_1234;
    let mut next = |n: usize| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    };
    let mut tally = Tally::default();
    let mut times = Vec::new();
    for (kind, pool, want) in [("method", &methods, 20usize), ("type", &types, 10usize)] {
        let mut done = 0;
        let mut tries = 0;
        let mut seen = BTreeSet::new();
        while done < want && tries < 200 {
            tries += 1;
            let key = pool[next(pool.len())].clone();
            if !seen.insert(key.clone()) {
                continue;
            }
            let work = scratch.path().join(format!("work-{kind}-{done}"));
            copy(&pristine, &work);
            let ws = open(&work, false);
            let (w, _) = ws.xref_world();
            let target = match mcp_java_index::xref::target::resolve_target(&w, &key) {
                Ok(t) => t,
                Err(e) => {
                    tally.refused.push(format!("{key}: {e}"));
                    continue;
                }
            };
            let family = match mcp_java_index::xref::rename::rename_family(&w, &target) {
                Ok(f) => f,
                Err(e) => {
                    tally.refused.push(format!("{key}: {e}"));
                    let _ = std::fs::remove_dir_all(&work);
                    continue;
                }
            };
            let old = if kind == "type" {
                key.rsplit('.').next().unwrap_or_default().to_owned()
            } else {
                mcp_java_index::xref::target::name_of_key(&key)
            };
            let new = format!("{old}Zq{done}");
            let t = Instant::now();
            let result = mcp_java_index::tools::tool::refactor_actions::run(&ws, &rename_args(&key, &new, true));
            times.push(t.elapsed());
            let result = match result {
                Ok(r) => r,
                Err(e) => {
                    tally.refused.push(format!("{key}: {e}"));
                    let _ = std::fs::remove_dir_all(&work);
                    continue;
                }
            };
            done += 1;
            tally.renamed += 1;
            let ok = compiles(&work);
            tally.compiled += usize::from(ok);
            // What changed, in old positions, against what javac attributes to the family.
            let mut ours: BTreeSet<Pos> = BTreeSet::new();
            for f in &result.files {
                let path = work.join(f.moved_to.as_deref().unwrap_or(&f.file));
                let text = std::fs::read_to_string(&path).expect("read");
                ours.extend(changed_positions(&f.file, &text, &old, &new));
            }
            let mut expected: BTreeSet<Pos> = BTreeSet::new();
            for k in &family.target.keys {
                for p in javac.get(k).into_iter().flatten() {
                    // `this(…)`, `super(…)`, `T::new`: constructor references that do not spell the name.
                    let text = std::fs::read_to_string(pristine.join(&p.0)).unwrap_or_default();
                    let line: Vec<u16> = text.lines().nth(p.1 as usize - 1).unwrap_or("").encode_utf16().collect();
                    let at = p.2 as usize - 1;
                    let spelled = String::from_utf16_lossy(&line[at.min(line.len())..]).starts_with(&old);
                    if spelled {
                        expected.insert(p.clone());
                    }
                }
            }
            let missed: Vec<&Pos> = expected.difference(&ours).collect();
            let extra: Vec<&Pos> =
                ours.difference(&expected).filter(|p| !declaration_or_qualifier(&pristine, p, &old)).collect();
            tally.javac_refs += expected.len();
            tally.missed += missed.len();
            tally.extra += extra.len();
            println!(
                "{kind} {key} -> {new}: {} files, javac refs {}, missed {}, extra {}, compiles {}",
                result.files.len(),
                expected.len(),
                missed.len(),
                extra.len(),
                if ok { "yes" } else { "NO" }
            );
            for p in missed.iter().take(3) {
                println!("    missed {}:{}:{}", p.0, p.1, p.2);
            }
            for p in extra.iter().take(3) {
                println!("    extra {}:{}:{}", p.0, p.1, p.2);
            }
            drop(ws);
            let _ = std::fs::remove_dir_all(&work);
        }
    }
    times.sort();
    println!(
        "rename proof: {} renamed ({} refused on the way), {} compile, javac references {}, missed {}, changed beyond them {}; apply median {:.0} ms",
        tally.renamed,
        tally.refused.len(),
        tally.compiled,
        tally.javac_refs,
        tally.missed,
        tally.extra,
        times.get(times.len() / 2).map_or(0.0, |d| d.as_secs_f64() * 1e3)
    );
    for r in tally.refused.iter().take(10) {
        println!("    refused: {r}");
    }
}

/// The preview of renaming a method with at least 1,000 call sites in the JDK sources
/// (`RENAME_PREVIEW_ONLY=1`: this alone).
fn jdk_preview() {
    let Some(jdk) = common::jdk_sources() else { return };
    let jdk = jdk.canonicalize().expect("the JDK tree");
    let ws = open(&jdk, false);
    let t = Instant::now();
    let bound = ws.warm_references();
    println!("JDK: {bound} files bound in {:.1} s", t.elapsed().as_secs_f64());
    let candidates = [
        "java.util.Objects#requireNonNull(java.lang.Object,java.lang.String)",
        "java.util.Objects#requireNonNull(java.lang.Object)",
        "jdk.internal.misc.Unsafe#getUnsafe()",
        "java.lang.Math#min(int,int)",
        "java.lang.Math#max(int,int)",
        "java.lang.System#arraycopy(java.lang.Object,int,java.lang.Object,int,int)",
    ];
    let count = |k: &str| {
        mcp_java_index::tools::tool::find_references::run(
            &ws,
            &mcp_java_index::tools::tool::find_references::FindReferencesArgs {
                target: k.into(),
                count_only: true,
                ..Default::default()
            },
        )
        .map(|r| r.page.total)
        .unwrap_or(0)
    };
    // The candidate with the fewest references at or above 1,000 that rename does not refuse
    // (`requireNonNull(Object)` is: javac's own code calls it).
    let mut counted: Vec<(&str, u64)> = candidates.iter().map(|k| (*k, count(k))).collect();
    for (k, c) in &counted {
        println!("  {k}: {c} references");
    }
    counted.sort_by_key(|(_, n)| if *n >= 1000 { (false, *n) } else { (true, u64::MAX - *n) });
    let Some(&(key, n)) = counted.iter().find(|(k, _)| {
        mcp_java_index::tools::tool::refactor_actions::run(&ws, &rename_args(k, "renamedForBench", false))
            .map_err(|e| println!("  {k}: refused: {e}"))
            .is_ok()
    }) else {
        println!("every candidate refused");
        return;
    };
    let mut runs: Vec<Duration> = Vec::new();
    let mut files = 0;
    for _ in 0..5 {
        let t = Instant::now();
        let r = mcp_java_index::tools::tool::refactor_actions::run(&ws, &rename_args(key, "renamedForBench", false))
            .expect("preview");
        runs.push(t.elapsed());
        files = r.files.len();
    }
    runs.sort();
    println!(
        "rename preview on the JDK: {key} ({n} references, {files} files): median {:.0} ms, min {:.0} ms (goal < 1000 ms)",
        runs[2].as_secs_f64() * 1e3,
        runs[0].as_secs_f64() * 1e3
    );
}

fn main() {
    if std::env::var_os("RENAME_PREVIEW_ONLY").is_some() {
        jdk_preview();
        return;
    }
    proof();
    if std::env::var_os("RENAME_PROOF_ONLY").is_none() {
        jdk_preview();
    }
}
