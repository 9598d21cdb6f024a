//! Issue 51's speed proof: outline, search and references on a Lombok project beside the same
//! calls on its delomboked copy (plain Java: the members Lombok generates written out), both
//! open in one process, the steps alternated round by round so the machine's load falls on both
//! alike. The targets are the members Lombok generates (as `java_index` of the original lists
//! them), the searched names theirs.
//!
//! `LOMBOK_CORPUS=DIR cargo bench --bench lombok` (`LOMBOK_CLASSPATH`: the project's jars for
//! delombok; `LOMBOK_BENCH_ROUNDS`, default 5; `LOMBOK_BENCH_TARGETS`, default 300). Without
//! `LOMBOK_CORPUS` it says so and measures nothing. Needs `java` and Debian's `liblombok-java`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use mcp_java_index::config::{Config, Flags};
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::tool::find_references::FindReferencesArgs;
use mcp_java_index::tools::xref::TargetKind;

const LOMBOK_JAR: &str = "/usr/share/java/lombok.jar";

fn env_num(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn open(dir: &Path) -> (Host, Duration) {
    let flags = Flags::roots([dir]).set("watch", false).set("cache", false);
    let start = Instant::now();
    let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    ws.build_index();
    (ws, start.elapsed())
}

/// A type's text erased for a `find_references` target: `List<String>` → `List`.
fn erased(text: &str) -> String {
    let mut out = String::new();
    let mut depth = 0u32;
    for c in text.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth = depth.saturating_sub(1),
            _ if depth == 0 && !c.is_whitespace() => out.push(c),
            _ => {}
        }
    }
    out.rsplit('.').next().unwrap_or(&out).to_owned()
}

/// The members Lombok generates in `file` (per `java_index`), as `find_references` targets.
fn generated_targets(ws: &Host, file: &Path, out: &mut Vec<String>) {
    let args = serde_json::from_value(serde_json::json!({ "filePath": file.to_string_lossy() })).expect("args");
    let Ok(outline) = mcp_java_index::tools::tool::java_index::run(ws, &args) else { return };
    fn walk(t: &mcp_java_index::model::TypeDecl, out: &mut Vec<String>) {
        let q = &t.qualified_name;
        for m in t.methods.iter().filter(|m| m.generated.is_some()) {
            let params: Vec<String> = m.params.iter().map(|p| erased(&p.type_text)).collect();
            out.push(format!("{q}#{}({})", m.name, params.join(",")));
        }
        for f in t.fields.iter().filter(|f| f.generated.is_some()) {
            out.push(format!("{q}#{}", f.name));
        }
        for i in &t.inner_classes {
            walk(i, out);
        }
    }
    for t in &outline.outline.classes {
        walk(t, out);
    }
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let Some(src) = std::env::var_os("LOMBOK_CORPUS").map(PathBuf::from) else {
        eprintln!("skipped: set LOMBOK_CORPUS to a Lombok project's source folder (LOMBOK_CLASSPATH: its jars)");
        return;
    };
    let out = tempfile::tempdir().expect("tempdir");
    let copy = out.path().join("delomboked");
    let mut cmd = Command::new("java");
    cmd.arg("-jar").arg(LOMBOK_JAR).arg("delombok").arg(&src).arg("-d").arg(&copy);
    if let Some(cp) = std::env::var_os("LOMBOK_CLASSPATH") {
        cmd.arg("-c").arg(cp);
    }
    // delombok reports what it cannot resolve and still writes every file: not its status.
    let _ = cmd.output().expect("running java -jar lombok.jar delombok");
    let mut files: Vec<PathBuf> =
        mcp_java_index::fs::walk::walk(&src, |p| p.extension().is_some_and(|x| x == "java")).files;
    files.sort();
    let rels: Vec<PathBuf> = files.iter().map(|f| f.strip_prefix(&src).unwrap_or(f).to_path_buf()).collect();
    let (original, index_a) = open(&src);
    let (expanded, index_b) = open(&copy);
    let mut targets = Vec::new();
    for f in &files {
        generated_targets(&original, f, &mut targets);
    }
    let n = env_num("LOMBOK_BENCH_TARGETS", 300);
    // Every k-th, so the sample spans the project.
    let step = (targets.len() / n.max(1)).max(1);
    let targets: Vec<String> = targets.into_iter().step_by(step).take(n).collect();
    let names: BTreeSet<String> = targets
        .iter()
        .filter_map(|t| t.split('#').nth(1))
        .map(|n| n.split('(').next().unwrap_or(n).to_owned())
        .collect();

    let outline_all = |ws: &Host, root: &Path| {
        let start = Instant::now();
        for rel in &rels {
            let args = serde_json::from_value(serde_json::json!({ "filePath": root.join(rel).to_string_lossy() }))
                .expect("args");
            let _ = mcp_java_index::tools::tool::java_index::run(ws, &args);
        }
        start.elapsed()
    };
    let search = |ws: &Host| {
        let start = Instant::now();
        let mut hits = 0;
        for n in &names {
            let args = serde_json::from_value(serde_json::json!({ "query": n })).expect("args");
            hits +=
                mcp_java_index::tools::tool::java_find_symbol::run(ws, &args).map(|r| r.page.total).unwrap_or_default();
        }
        (start.elapsed(), hits)
    };
    let references = |ws: &Host| {
        let start = Instant::now();
        let (mut found, mut errors) = (0usize, 0usize);
        for t in &targets {
            let kind = (!t.contains('(')).then_some(TargetKind::Field);
            let args =
                FindReferencesArgs { target: t.clone(), target_kind: kind, limit: 100_000, ..Default::default() };
            match mcp_java_index::tools::tool::find_references::run(ws, &args) {
                Ok(r) => found += r.files.iter().map(|f| f.references.len()).sum::<usize>(),
                Err(_) => errors += 1,
            }
        }
        (start.elapsed(), found, errors)
    };
    // A first round binds every file of both (not timed).
    let (_, refs_a, err_a) = references(&original);
    let (_, refs_b, err_b) = references(&expanded);
    let (_, hits_a) = search(&original);
    let (_, hits_b) = search(&expanded);
    let rounds = env_num("LOMBOK_BENCH_ROUNDS", 5).max(1);
    // Per round: [Lombok sources, delomboked copy].
    type Row = [Duration; 2];
    let (mut o, mut s, mut r): (Vec<Row>, Vec<Row>, Vec<Row>) = Default::default();
    for round in 0..rounds {
        // Alternate which copy goes first.
        let order = if round % 2 == 0 { [true, false] } else { [false, true] };
        let row = |f: &dyn Fn(bool) -> Duration| {
            let mut x = [Duration::ZERO; 2];
            for first in order {
                x[usize::from(!first)] = f(first);
            }
            x
        };
        o.push(row(&|a| if a { outline_all(&original, &src) } else { outline_all(&expanded, &copy) }));
        s.push(row(&|a| search(if a { &original } else { &expanded }).0));
        r.push(row(&|a| references(if a { &original } else { &expanded }).0));
    }
    let med = |v: &[Row], i: usize| median(v.iter().map(|x| x[i]).collect());
    let ratio = |v: &[Row]| med(v, 0).as_secs_f64() / med(v, 1).as_secs_f64().max(1e-9);
    println!(
        "## {}: {} files; {} generated members sampled, {} names",
        src.display(),
        files.len(),
        targets.len(),
        names.len()
    );
    println!("(median of {rounds} rounds, the two copies alternated)\n");
    println!("| step | Lombok sources | delomboked copy | ratio |\n| --- | --- | --- | --- |");
    println!("| open + index | {index_a:.2?} | {index_b:.2?} | {:.2} |", index_a.as_secs_f64() / index_b.as_secs_f64());
    println!("| java_index × {} files | {:.2?} | {:.2?} | {:.2} |", files.len(), med(&o, 0), med(&o, 1), ratio(&o));
    println!(
        "| java_find_symbol × {} ({hits_a} / {hits_b} hits) | {:.2?} | {:.2?} | {:.2} |",
        names.len(),
        med(&s, 0),
        med(&s, 1),
        ratio(&s)
    );
    println!(
        "| find_references × {} ({refs_a} / {refs_b} references, {err_a} / {err_b} errors) | {:.2?} | {:.2?} | {:.2} |",
        targets.len(),
        med(&r, 0),
        med(&r, 1),
        ratio(&r)
    );
}
