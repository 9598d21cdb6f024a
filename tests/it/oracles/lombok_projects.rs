//! Lombok on code nobody here wrote, against Lombok's own output. `LOMBOK_TESTS=<dir>` (Lombok's
//! `test/transform/resource`, with `before/` and `after-delombok/`) compares the members we
//! generate for every `before/X.java` with those its expected `after-delombok/X.java` has beyond
//! the source's, and tallies the agreement by annotation. `LOMBOK_CORPUS=<dir>` (a real
//! project's sources, `LOMBOK_CLASSPATH` its dependencies) delomboks the project with
//! `lombok.jar` and compares the members, then `find_references` of every generated member file
//! by file against the delomboked copy, and times outline, search and references on both. Each
//! prints its figures (run with `--nocapture`) and says it skipped when its variable is unset:
//! CI cannot fetch the corpora, so neither asserts agreement; the figures are in
//! docs/limitations.md with the commands that reproduce them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_java_index::config::{Config, Flags};
use mcp_java_index::parser;
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::tool::find_references::FindReferencesArgs;
use mcp_java_index::tools::xref::TargetKind;

use crate::tools::lombok_oracle::{Member, lombok_jar, members};

/// Lombok's annotations (and nested ones) this project generates members for, or that change
/// no declaration.
const SUPPORTED: &[&str] = &[
    "CustomLog",
    "Getter",
    "Setter",
    "Data",
    "Value",
    "ToString",
    "ToString.Include",
    "ToString.Exclude",
    "EqualsAndHashCode",
    "EqualsAndHashCode.Include",
    "EqualsAndHashCode.Exclude",
    "NoArgsConstructor",
    "RequiredArgsConstructor",
    "AllArgsConstructor",
    "Builder",
    "Builder.Default",
    "Builder.ObtainVia",
    "Singular",
    "SuperBuilder",
    "With",
    "Accessors",
    "Slf4j",
    "XSlf4j",
    "Log",
    "Log4j",
    "Log4j2",
    "CommonsLog",
    "JBossLog",
    "Flogger",
    "NonNull",
    "SneakyThrows",
    "Cleanup",
    "Generated",
];

/// Every annotation of Lombok's, to recognise a simple name under `import lombok.*`.
const ALL: &[&str] = &[
    "CustomLog",
    "Synchronized",
    "Locked",
    "Delegate",
    "ExtensionMethod",
    "FieldDefaults",
    "FieldNameConstants",
    "Helper",
    "Tolerate",
    "UtilityClass",
    "StandardException",
    "Jacksonized",
    "WithBy",
    "Wither",
    "PackagePrivate",
    "NonFinal",
];

/// The Lombok annotations a source names (`Builder.Default` for a nested one), and `val`/`var`.
fn lombok_annotations(src: &str) -> BTreeSet<String> {
    let mut single: BTreeSet<&str> = BTreeSet::new();
    let mut wildcard = false;
    for line in src.lines() {
        let Some(path) = line.trim().strip_prefix("import lombok.") else { continue };
        let path = path.trim_end_matches(';').trim();
        match path.rsplit('.').next() {
            Some("*") => wildcard = true,
            Some(last) => {
                single.insert(last);
            }
            None => {}
        }
    }
    let known = |s: &str| SUPPORTED.contains(&s) || ALL.contains(&s);
    let mut out = BTreeSet::new();
    let bytes = src.as_bytes();
    for (i, _) in src.match_indices('@') {
        let rest = &src[i + 1..];
        let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.')).unwrap_or(rest.len());
        let path = rest[..end].trim_end_matches('.');
        let segs: Vec<&str> = path.split('.').collect();
        let upper = |s: &&str| s.starts_with(|c: char| c.is_ascii_uppercase());
        let name: Vec<&str> = if segs.first() == Some(&"lombok") {
            segs.iter().copied().skip_while(|s| !upper(s)).take(2).collect()
        } else if segs.first().is_some_and(|s| single.contains(s) || (wildcard && known(s))) {
            segs.iter().copied().take_while(upper).take(2).collect()
        } else {
            continue;
        };
        if !name.is_empty() && (i == 0 || bytes[i - 1] != b'"') {
            out.insert(name.join("."));
        }
    }
    for v in ["val", "var"] {
        if single.contains(v) || src.contains(&format!("lombok.{v} ")) || src.contains(&format!("experimental.{v} ")) {
            out.insert(v.to_owned());
        }
    }
    out
}

/// Why a `before` file is not compared, if it is not: the first reason found.
fn unsupported(src: &str, anns: &BTreeSet<String>) -> Option<String> {
    if let Some(a) = anns.iter().find(|a| !SUPPORTED.contains(&a.as_str())) {
        return Some(format!("@{a}"));
    }
    let flat: String = src.chars().filter(|c| !c.is_whitespace()).collect();
    if ["onMethod", "onConstructor", "onParam", "onX"].iter().any(|o| flat.contains(&format!("{o}="))) {
        return Some("onX".into());
    }
    if flat.contains("lazy=true") {
        return Some("@Getter(lazy)".into());
    }
    if anns.is_empty() {
        return Some("no Lombok annotation".into());
    }
    None
}

/// What delombok wrote beyond what the source declares, and what we list as generated.
fn compare(ours: Vec<Member>, theirs: Vec<Member>) -> (Vec<String>, Vec<String>) {
    let mut expected: Vec<String> = theirs.into_iter().map(|m| m.key).collect();
    for m in ours.iter().filter(|m| !m.generated) {
        if let Some(i) = expected.iter().position(|e| *e == m.key) {
            expected.remove(i);
        }
    }
    let mut listed: Vec<String> = ours.into_iter().filter(|m| m.generated).map(|m| m.key).collect();
    expected.sort();
    listed.sort();
    (expected, listed)
}

/// `(in both, only expected, only listed)` of two sorted lists, as multisets.
fn split(expected: &[String], listed: &[String]) -> (usize, Vec<String>, Vec<String>) {
    let mut rest = listed.to_vec();
    let (mut both, mut missing) = (0, Vec::new());
    for e in expected {
        match rest.iter().position(|l| l == e) {
            Some(i) => {
                rest.remove(i);
                both += 1;
            }
            None => missing.push(e.clone()),
        }
    }
    (both, missing, rest)
}

/// The files of `dir` javac's parser rejects (one parse-only run over all of them).
fn unparsable(dir: &Path, files: &[PathBuf]) -> BTreeSet<PathBuf> {
    let classes = tempfile::tempdir().expect("tempdir");
    let run = Command::new("javac")
        .args(["-proc:none", "-XDshould-stop.ifNoError=PARSE", "-XDshould-stop.ifError=PARSE", "-Xmaxerrs", "100000"])
        .arg("-d")
        .arg(classes.path())
        .args(files.iter().map(|f| dir.join(f)))
        .output()
        .expect("running javac (is a JDK on PATH?)");
    let err = String::from_utf8_lossy(&run.stderr);
    files
        .iter()
        .filter(|f| {
            err.lines().any(|l| l.starts_with(&format!("{}:", dir.join(f).display())) && l.contains(": error:"))
        })
        .cloned()
        .collect()
}

#[test]
fn lombok_s_own_transform_tests_against_their_expected_delombok() {
    let Some(root) = std::env::var_os("LOMBOK_TESTS").map(PathBuf::from) else {
        eprintln!("skipped: set LOMBOK_TESTS to Lombok's test/transform/resource (before/, after-delombok/)");
        return;
    };
    let (before, after) = (root.join("before"), root.join("after-delombok"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(&before)
        .expect("reading before/")
        .flatten()
        .map(|e| PathBuf::from(e.file_name()))
        .filter(|f| f.extension().is_some_and(|x| x == "java"))
        .collect();
    files.sort();
    let rejected = unparsable(&before, &files);
    let mut skipped: BTreeMap<String, Vec<String>> = BTreeMap::new();
    // Per annotation: (files compared, files that agree).
    let mut by_ann: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let (mut compared, mut agreed, mut expected_total, mut both_total, mut extra_total) = (0, 0, 0, 0, 0);
    let mut differ = Vec::new();
    // Files with `//CONF` lines: (compared, agree, would agree without reading them).
    let mut configured = (0, 0, 0);
    for f in &files {
        let name = f.to_string_lossy().into_owned();
        let src = std::fs::read_to_string(before.join(f)).unwrap_or_default();
        let anns = lombok_annotations(&src);
        let reason = if !after.join(f).is_file() {
            Some("no after-delombok file".to_owned())
        } else if rejected.contains(f) {
            Some("javac cannot parse it".to_owned())
        } else if src.lines().any(|l| l.starts_with("//skip")) {
            Some("//skip".to_owned())
        } else {
            unsupported(&src, &anns)
        };
        if let Some(r) = reason {
            skipped.entry(r).or_default().push(name);
            continue;
        }
        let expanded = std::fs::read(after.join(f)).expect("reading after-delombok");
        // `//CONF: key = value` lines are the test's lombok.config, as Lombok's harness reads them.
        let conf: Vec<&str> = src.lines().filter_map(|l| l.strip_prefix("//CONF:")).map(str::trim).collect();
        let lombok = Arc::new(parser::lombok::Config::of_texts(&[&conf.join("\n")]));
        let theirs = members(&parser::outline(&name, &expanded));
        let (expected, listed) = compare(
            members(&parser::outline_with(&name, src.as_bytes(), &lombok)),
            members(&parser::outline(&name, &expanded)),
        );
        if !conf.is_empty() {
            // The same file without reading its configuration: what was listed before it was read.
            let (e, l) = compare(members(&parser::outline(&name, src.as_bytes())), theirs);
            let (_, m, x) = split(&e, &l);
            configured.0 += 1;
            configured.2 += usize::from(m.is_empty() && x.is_empty());
        }
        let (both, missing, extra) = split(&expected, &listed);
        compared += 1;
        expected_total += expected.len();
        both_total += both;
        extra_total += extra.len();
        let agree = missing.is_empty() && extra.is_empty();
        agreed += usize::from(agree);
        configured.1 += usize::from(agree && !conf.is_empty());
        for a in &anns {
            let e = by_ann.entry(a.clone()).or_default();
            e.0 += 1;
            e.1 += usize::from(agree);
        }
        if !agree {
            differ.push(format!("{name}:\n  delombok only: {missing:?}\n  ours only: {extra:?}"));
        }
    }
    println!("## Lombok's transform tests: {} before files, {compared} compared, {agreed} agree", files.len());
    println!(
        "members delombok writes: {expected_total}; we list {both_total} of them and {extra_total} it does not write"
    );
    let (n, ok, unread) = configured;
    println!("files with //CONF lines: {n} compared, {ok} agree ({unread} without reading the configuration)");
    println!("\n| annotation | files | agree |\n| --- | --- | --- |");
    for (a, (n, ok)) in &by_ann {
        println!("| @{a} | {n} | {ok} |");
    }
    println!("\n## not compared");
    let mut reasons: Vec<_> = skipped.iter().collect();
    reasons.sort_by_key(|(r, fs)| (std::cmp::Reverse(fs.len()), r.to_string()));
    for (r, fs) in reasons {
        println!("- {r}: {} ({})", fs.len(), fs.join(", "));
    }
    println!("\n## differ\n{}", differ.join("\n"));
}

/// `file -> count` of the references `find_references` answers for `target`, leaving out those
/// `inside` says are in code Lombok writes; an error (the target unknown there) as `Err`.
fn refs(ws: &Host, target: &str, inside: &dyn Fn(&str, u32) -> bool) -> Result<BTreeMap<String, usize>, String> {
    let kind = (!target.contains('(')).then_some(TargetKind::Field);
    let args = FindReferencesArgs { target: target.into(), target_kind: kind, limit: 100_000, ..Default::default() };
    let r = mcp_java_index::tools::tool::find_references::run(ws, &args).map_err(|e| e.to_string())?;
    let mut out: BTreeMap<String, usize> = BTreeMap::new();
    for f in &r.files {
        let n = f.references.iter().filter(|x| !inside(&f.file, x.line)).count();
        if n > 0 {
            *out.entry(f.file.clone()).or_default() += n;
        }
    }
    Ok(out)
}

fn open(dir: &Path) -> (Host, Duration) {
    let flags = Flags::roots([dir]).set("watch", false).set("cache", false);
    let start = Instant::now();
    let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    ws.build_index();
    (ws, start.elapsed())
}

#[test]
fn a_lombok_project_against_its_delomboked_copy() {
    let Some(src) = std::env::var_os("LOMBOK_CORPUS").map(PathBuf::from) else {
        eprintln!("skipped: set LOMBOK_CORPUS to a Lombok project's source folder (LOMBOK_CLASSPATH: its jars)");
        return;
    };
    let out = tempfile::tempdir().expect("tempdir");
    let copy = out.path().join("delomboked");
    let mut cmd = Command::new("java");
    cmd.arg("-jar").arg(lombok_jar()).arg("delombok").arg(&src).arg("-d").arg(&copy);
    if let Some(cp) = std::env::var_os("LOMBOK_CLASSPATH") {
        cmd.arg("-c").arg(cp);
    }
    // delombok reports what it cannot resolve and still writes every file: not its status.
    let _ = cmd.output().expect("running java -jar lombok.jar delombok");
    let files = crate::common::java_files_under(&src);
    // Each file under the project's lombok.config files, as delombok reads them.
    let lombok = parser::lombok::config::Resolver::new(vec![src.clone()], Box::new(|p| std::fs::read(p).ok()));
    let t0 = Instant::now();
    let (mut expected_total, mut both_total, mut agreed, mut types) = (0, 0, 0, 0);
    let (mut missing_all, mut extra_all): (BTreeMap<String, usize>, BTreeMap<String, usize>) = Default::default();
    let mut written: BTreeMap<String, Vec<(u32, u32)>> = BTreeMap::new();
    let mut targets: Vec<String> = Vec::new();
    let mut listed_total = 0;
    for f in &files {
        let rel = f.strip_prefix(&src).unwrap_or(f).to_string_lossy().replace('\\', "/");
        let original = std::fs::read(f).expect("reading a source");
        let expanded = std::fs::read(copy.join(&rel)).unwrap_or_else(|_| panic!("delombok wrote no {rel}"));
        let ours = members(&parser::outline_with(&rel, &original, &lombok.for_file(f)));
        let theirs = members(&parser::outline(&rel, &expanded));
        let declared: Vec<&str> = ours.iter().filter(|m| !m.generated).map(|m| m.key.as_str()).collect();
        written.insert(
            rel.clone(),
            theirs.iter().filter(|m| !declared.contains(&m.key.as_str())).map(|m| m.lines).collect(),
        );
        let mut owners: BTreeSet<String> = BTreeSet::new();
        for m in ours.iter().filter(|m| m.generated) {
            owners.insert(m.key.split(' ').next().unwrap_or("").to_owned());
        }
        types += owners.len();
        let targets_here: Vec<(String, Option<String>)> =
            ours.iter().filter(|m| m.generated).map(|m| (m.key.clone(), m.target.clone())).collect();
        let (expected, listed) = compare(ours, theirs);
        let (both, missing, extra) = split(&expected, &listed);
        listed_total += listed.len();
        expected_total += expected.len();
        both_total += both;
        agreed += usize::from(missing.is_empty() && extra.is_empty());
        // The kind of member that differs: `method getX`, `field log`…, counted.
        let shape = |k: &String| {
            let mut w = k.split(' ').skip(1);
            let kind = w.next().unwrap_or("");
            let name: String =
                w.next().unwrap_or("").chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            format!("{kind} {name}")
        };
        for m in &missing {
            *missing_all.entry(shape(m)).or_default() += 1;
        }
        for m in &extra {
            *extra_all.entry(shape(m)).or_default() += 1;
        }
        // References are compared for the generated members delombok writes too.
        for (key, target) in targets_here {
            if expected.contains(&key) {
                targets.extend(target);
            }
        }
    }
    let compare_time = t0.elapsed();
    println!("## {}: {} files, {types} types with generated members", src.display(), files.len());
    println!(
        "members: delombok writes {expected_total}, we list {listed_total}, {both_total} in both; {agreed} of {} files agree ({compare_time:.1?})",
        files.len()
    );
    println!("delombok only (by kind and name): {missing_all:?}");
    println!("ours only (by kind and name): {extra_all:?}");

    // Speed and references: both copies open in one run.
    let (original, index_a) = open(&src);
    let (expanded, index_b) = open(&copy);
    let outline_all = |ws: &Host, root: &Path| {
        let start = Instant::now();
        for f in &files {
            let rel = f.strip_prefix(&src).unwrap_or(f);
            let args = serde_json::from_value(serde_json::json!({ "filePath": root.join(rel).to_string_lossy() }))
                .expect("args");
            mcp_java_index::tools::tool::java_index::run(ws, &args).expect("java_index");
        }
        start.elapsed()
    };
    // Each step three times, the two copies in turn; the best of each (the machine is shared).
    let best = |f: &dyn Fn(bool) -> Duration| {
        let (mut a, mut b) = (Duration::MAX, Duration::MAX);
        for _ in 0..3 {
            a = a.min(f(true));
            b = b.min(f(false));
        }
        (a, b)
    };
    let (outline_a, outline_b) =
        best(&|first| if first { outline_all(&original, &src) } else { outline_all(&expanded, &copy) });
    let names: BTreeSet<String> = targets
        .iter()
        .filter_map(|t| t.split('#').nth(1))
        .map(|n| n.split('(').next().unwrap_or(n).to_owned())
        .take(300)
        .collect();
    let search = |ws: &Host| {
        let start = Instant::now();
        let mut hits = 0;
        for n in &names {
            let args = serde_json::from_value(serde_json::json!({ "query": n })).expect("args");
            hits += mcp_java_index::tools::tool::java_find_symbol::run(ws, &args).expect("java_find_symbol").page.total;
        }
        (start.elapsed(), hits)
    };
    let ((_, hits_a), (_, hits_b)) = (search(&original), search(&expanded));
    let (search_a, search_b) = best(&|first| search(if first { &original } else { &expanded }).0);
    let inside = |file: &str, line: u32| {
        let rel = file.replace('\\', "/");
        written
            .iter()
            .any(|(f, spans)| rel.ends_with(f.as_str()) && spans.iter().any(|(s, e)| *s <= line && line <= *e))
    };
    let (mut same, mut differ, mut errors, mut refs_total) = (0, Vec::new(), Vec::new(), 0);
    let strip = |m: BTreeMap<String, usize>, root: &Path| -> BTreeMap<String, usize> {
        m.into_iter()
            .map(|(f, n)| {
                (f.strip_prefix(&*root.to_string_lossy()).unwrap_or(&f).trim_start_matches('/').to_owned(), n)
            })
            .collect()
    };
    for t in &targets {
        match (refs(&original, t, &|_, _| false), refs(&expanded, t, &inside)) {
            (Ok(a), Ok(b)) => {
                let (a, b) = (strip(a, &src), strip(b, &copy));
                refs_total += a.values().sum::<usize>();
                if a == b {
                    same += 1;
                } else {
                    differ.push(format!("{t}: original {a:?}, delomboked {b:?}"));
                }
            }
            (a, b) => errors.push(format!("{t}: original {:?}, delomboked {:?}", a.err(), b.err())),
        }
    }
    println!(
        "references: {} generated members (those delombok writes too), {same} equal file by file, {} differ, {} errors; {refs_total} references on the original",
        targets.len(),
        differ.len(),
        errors.len()
    );
    for d in differ.iter().chain(&errors).take(40) {
        println!("  {d}");
    }
    let (refs_a, refs_b) = best(&|first| {
        let start = Instant::now();
        for t in &targets {
            let _ = refs(if first { &original } else { &expanded }, t, &|_, _| false);
        }
        start.elapsed()
    });
    println!("\n| step (best of 3) | Lombok sources | delomboked copy |\n| --- | --- | --- |");
    println!("| open + index | {index_a:.2?} | {index_b:.2?} |");
    println!("| java_index of {} files | {outline_a:.2?} | {outline_b:.2?} |", files.len());
    println!(
        "| java_find_symbol × {} | {search_a:.2?} ({hits_a} hits) | {search_b:.2?} ({hits_b} hits) |",
        names.len()
    );
    println!("| find_references × {} | {refs_a:.2?} | {refs_b:.2?} |", targets.len());
}
