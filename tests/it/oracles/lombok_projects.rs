//! Lombok on code nobody here wrote, against Lombok's own output. `LOMBOK_TESTS=<dir>` (Lombok's
//! `test/transform/resource`, with `before/` and `after-delombok/`) compares the members we
//! generate for every `before/X.java` with those its expected `after-delombok/X.java` has beyond
//! the source's, and tallies the agreement by annotation. `LOMBOK_CORPUS=<dir>` (a real
//! project's sources, `LOMBOK_CLASSPATH` its dependencies) delomboks the project with
//! `lombok.jar` and compares the members, then `find_references` of every generated member file
//! by file against the delomboked copy, and times outline, search and references on both; under
//! the same variables, renames 20 seeded Lombok fields through `refactor_actions` (each on a
//! fresh copy, compiled by javac with Lombok: none may break) and runs `get_problems` untrusted
//! (no error the 0-error build with Lombok does not have, but the logger's name
//! `lombok.config` sets, counted apart). Each prints its figures (run with `--nocapture`) and
//! says it skipped when its variable is unset: CI cannot fetch the corpora, so the first two do
//! not assert agreement; the figures are in docs/limitations.md with the commands that
//! reproduce them.

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

    // References: both copies open in one run (their speed: `benches/lombok.rs`).
    let (original, _) = open(&src);
    let (expanded, _) = open(&copy);
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
}

/// javac with Lombok as its processor over every `.java` file under `dir` (classes into a
/// tempdir, `LOMBOK_CLASSPATH` beside Lombok): its error lines, empty when it compiles.
fn javac_with_lombok(dir: &Path) -> Vec<String> {
    let classes = tempfile::tempdir().expect("tempdir");
    let jar = lombok_jar();
    let mut cp = jar.clone().into_os_string();
    if let Some(extra) = std::env::var_os("LOMBOK_CLASSPATH") {
        cp.push(":");
        cp.push(extra);
    }
    let list = classes.path().join("sources.txt");
    let files: Vec<String> =
        crate::common::java_files_under(dir).iter().map(|f| f.to_string_lossy().into_owned()).collect();
    std::fs::write(&list, files.join("\n")).expect("writing the source list");
    let run = Command::new("javac")
        .arg("-cp")
        .arg(&cp)
        .arg("-processorpath")
        .arg(&jar)
        .args(["-Xmaxerrs", "100000", "-nowarn", "-d"])
        .arg(classes.path())
        .arg(format!("@{}", list.display()))
        .output()
        .expect("running javac (is a JDK on PATH?)");
    let err = String::from_utf8_lossy(&run.stderr);
    let mut errors: Vec<String> = err.lines().filter(|l| l.contains(": error: ")).map(str::to_owned).collect();
    if !run.status.success() && errors.is_empty() {
        errors.push(err.lines().next().unwrap_or("javac failed").to_owned());
    }
    errors
}

/// A workspace on `dir` with neither cache nor watcher, untrusted, Lombok's jar and
/// `LOMBOK_CLASSPATH` its classpath (as the build's), indexed.
fn open_with_classpath(dir: &Path) -> Host {
    let mut cp = vec![lombok_jar().display().to_string()];
    if let Some(extra) = std::env::var_os("LOMBOK_CLASSPATH") {
        cp.extend(std::env::split_paths(&extra).map(|p| p.display().to_string()));
    }
    let mut flags = Flags::roots([dir]).set("watch", false).set("cache", false);
    flags.give("classpath", cp);
    let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    ws.build_index();
    ws
}

fn dispatch(ws: &Host, tool: &str, args: serde_json::Value) -> Result<serde_json::Value, String> {
    let serde_json::Value::Object(m) = args else { panic!("arguments must be an object") };
    mcp_java_index::tools::registry::dispatch(ws, tool, m).map(|a| a.value)
}

/// A Lombok field a rename is tried on: its target, its accessors' uses, and how many of them
/// are in other files than the field's.
struct Candidate {
    target: String,
    uses: usize,
    elsewhere: usize,
}

/// Every field written in a type of `files` that has members Lombok generates, whose generated
/// accessors, builder methods or `withX` something calls (as `find_references` with
/// `includeAccessors` lists them), sorted by target.
fn lombok_fields(ws: &Host, src: &Path, files: &[PathBuf]) -> Vec<Candidate> {
    fn walk(t: &mcp_java_index::model::TypeDecl, out: &mut Vec<String>) {
        if t.methods.iter().any(|m| m.generated.is_some()) {
            for f in t.fields.iter().filter(|f| f.generated.is_none() && !f.modifiers.iter().any(|m| m == "static")) {
                out.push(format!("{}#{}", t.qualified_name, f.name));
            }
        }
        for i in &t.inner_classes {
            walk(i, out);
        }
    }
    let mut fields: Vec<(String, String)> = Vec::new();
    for f in files {
        let rel = f.strip_prefix(src).unwrap_or(f).to_string_lossy().replace('\\', "/");
        let o = parser::outline(&rel, &std::fs::read(f).expect("reading a source"));
        let mut here = Vec::new();
        for t in &o.classes {
            walk(t, &mut here);
        }
        fields.extend(here.into_iter().map(|k| (k, rel.clone())));
    }
    fields.sort();
    let mut out = Vec::new();
    for (target, rel) in fields {
        let args = FindReferencesArgs {
            target: target.clone(),
            target_kind: Some(TargetKind::Field),
            include_accessors: true,
            limit: 100_000,
            ..Default::default()
        };
        let Ok(r) = mcp_java_index::tools::tool::find_references::run(ws, &args) else { continue };
        let (mut uses, mut elsewhere) = (0, 0);
        for f in &r.files {
            let n = f.references.iter().filter(|x| x.accessor.is_some()).count();
            uses += n;
            if !f.file.replace('\\', "/").ends_with(&rel) {
                elsewhere += n;
            }
        }
        if uses > 0 {
            out.push(Candidate { target, uses, elsewhere });
        }
    }
    out
}

/// `n` of `items` picked by a fixed seed (xorshift over the sorted list: the same picks on every
/// run of the same corpus).
fn seeded<T>(mut items: Vec<T>, n: usize, mut seed: u64) -> Vec<T> {
    let mut out = Vec::new();
    while out.len() < n && !items.is_empty() {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        out.push(items.remove((seed % items.len() as u64) as usize));
    }
    out
}

/// Issue 51's proof on a real project: 20 seeded Lombok fields whose generated accessors are
/// used (those used from other files first), each renamed through `refactor_actions` as an
/// agent does (preview, then apply its `editId`) on a fresh copy of the project, and the whole
/// copy compiled by javac with Lombok as the processor. Each is applied, refused (with the
/// reason) or broken (javac's errors); none may be broken.
#[test]
fn renames_of_seeded_lombok_fields_compile_with_lombok() {
    let Some(src) = std::env::var_os("LOMBOK_CORPUS").map(PathBuf::from) else {
        eprintln!("skipped: set LOMBOK_CORPUS to a Lombok project's source folder (LOMBOK_CLASSPATH: its jars)");
        return;
    };
    let baseline = javac_with_lombok(&src);
    assert!(
        baseline.is_empty(),
        "the project itself does not compile with Lombok: {:#?}",
        &baseline[..baseline.len().min(20)]
    );
    let files = crate::common::java_files_under(&src);
    let t0 = Instant::now();
    let (original, _) = open(&src);
    let all = lombok_fields(&original, &src, &files);
    drop(original);
    let (elsewhere, local): (Vec<Candidate>, Vec<Candidate>) = all.into_iter().partition(|c| c.elsewhere > 0);
    println!(
        "## renames: {} Lombok fields with used accessors ({} used from other files) in {:.1?}",
        elsewhere.len() + local.len(),
        elsewhere.len(),
        t0.elapsed()
    );
    let (n_elsewhere, n_local) = (elsewhere.len(), local.len());
    let mut picks = seeded(elsewhere, 20, 0x5eed_0051);
    picks.extend(seeded(local, 20 - picks.len().min(20), 0x5eed_0051));
    assert!(picks.len() == 20 || picks.len() == n_elsewhere + n_local);
    let (mut applied, mut refused, mut broken) = (Vec::new(), Vec::new(), Vec::new());
    for c in &picks {
        let name = c.target.rsplit('#').next().unwrap_or("");
        let new_name = format!("{name}Renamed");
        let tmp = tempfile::tempdir().expect("tempdir");
        let copy = tmp.path().join("src");
        crate::common::copy_dir(&src, &copy);
        let ws = open_with_classpath(&copy);
        let ask = serde_json::json!({"action": "rename", "target": c.target, "newName": new_name});
        let preview = match dispatch(&ws, "refactor_actions", ask.clone()) {
            Ok(p) => p,
            Err(e) => {
                refused.push(format!("{} → {new_name}: {}", c.target, e.lines().next().unwrap_or("")));
                continue;
            }
        };
        let mut apply = ask;
        apply["apply"] = true.into();
        apply["editId"] = preview["editId"].clone();
        let files_changed = preview["files"].as_array().map_or(0, Vec::len);
        // The uses the engine could not tell for sure, which a rename leaves as they are.
        let likely = preview["likely"].as_array().map_or(0, Vec::len);
        if let Err(e) = dispatch(&ws, "refactor_actions", apply) {
            refused.push(format!("{} → {new_name}: {}", c.target, e.lines().next().unwrap_or("")));
            continue;
        }
        drop(ws);
        let errors = javac_with_lombok(&copy);
        let what = format!(
            "{} → {new_name} ({} accessor uses, {} elsewhere; {files_changed} files, {likely} likely left)",
            c.target, c.uses, c.elsewhere
        );
        if errors.is_empty() {
            applied.push(what);
        } else {
            let shown: Vec<String> = errors
                .iter()
                .take(5)
                .map(|e| e.strip_prefix(&*copy.to_string_lossy()).unwrap_or(e).to_owned())
                .collect();
            broken.push(format!("{what}: {} javac error(s): {shown:#?}", errors.len()));
        }
    }
    println!("{} picked: {} applied, {} refused, {} broken", picks.len(), applied.len(), refused.len(), broken.len());
    for (label, list) in [("applied", &applied), ("refused", &refused), ("broken", &broken)] {
        for x in list {
            println!("- {label}: {x}");
        }
    }
    assert!(broken.is_empty(), "renames that no longer compile: {broken:#?}");
}

/// Issue 51's proof on a real project: `get_problems` of the whole project in an untrusted
/// workspace (Lombok does not run; its jar and `LOMBOK_CLASSPATH` are the classpath, as the
/// build's) reports no error a build with Lombok would not: the build has none (checked first),
/// so every error listed is a false one. Those naming a logger field are counted apart (the
/// field name `lombok.config` sets), the rest listed; none may be left.
#[test]
fn get_problems_untrusted_on_a_lombok_project_reports_no_error_its_build_does_not() {
    let Some(src) = std::env::var_os("LOMBOK_CORPUS").map(PathBuf::from) else {
        eprintln!("skipped: set LOMBOK_CORPUS to a Lombok project's source folder (LOMBOK_CLASSPATH: its jars)");
        return;
    };
    let baseline = javac_with_lombok(&src);
    assert!(
        baseline.is_empty(),
        "the project itself does not compile with Lombok: {:#?}",
        &baseline[..baseline.len().min(20)]
    );
    let ws = open_with_classpath(&src);
    let t0 = Instant::now();
    let mut diagnostics: Vec<serde_json::Value> = Vec::new();
    let mut last;
    let mut offset = 0;
    loop {
        let a = dispatch(
            &ws,
            "get_problems",
            serde_json::json!({"severityFilter": ["Error"], "limit": 100_000, "offset": offset}),
        )
        .expect("get_problems");
        if a["complete"] == false {
            std::thread::sleep(Duration::from_millis(200));
            continue;
        }
        let page = a["diagnostics"].as_array().cloned().unwrap_or_default();
        offset += page.len();
        diagnostics.extend(page);
        let next = a["nextOffset"].as_u64();
        last = a;
        if next.is_none() {
            break;
        }
    }
    let errors: Vec<String> = diagnostics
        .iter()
        .filter(|d| d["severity"] == "Error")
        .map(|d| {
            let m = d["message"].as_str().unwrap_or("").lines().map(str::trim).collect::<Vec<_>>().join(" ");
            format!("{}:{} {m}", d["file"].as_str().unwrap_or(""), d["line"])
        })
        .collect();
    let logger = |e: &String| e.contains("symbol:   variable LOGGER") || e.contains("symbol: variable LOGGER");
    let (loggers, others): (Vec<&String>, Vec<&String>) = errors.iter().partition(|e| logger(e));
    println!(
        "## get_problems, untrusted: {} errors ({} about the logger field lombok.config names, {} others) in {:.1?}; {}",
        errors.len(),
        loggers.len(),
        others.len(),
        t0.elapsed(),
        last["javac"]["annotationProcessing"].as_str().unwrap_or("")
    );
    for e in others.iter().take(40) {
        println!("  {e}");
    }
    assert!(others.is_empty(), "errors the build with Lombok does not have: {others:#?}");
}
