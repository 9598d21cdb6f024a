//! Lombok's own `delombok` as the oracle of the members we generate: every fixture of
//! `tests/fixtures/lombok` (one small file per annotation) is delomboked, and the members
//! `delombok` writes beyond those the source declares must equal the members our outline marks
//! `generated: "lombok"`, by type, kind, name, parameter types and return type.
//!
//! The jar is Debian's `liblombok-java` (`/usr/share/java/lombok.jar`, or `$LOMBOK_JAR`); the
//! test fails, saying so, when it is missing.

use std::collections::BTreeMap;

use mcp_java_index::config::{Config, Flags};
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::tool::find_references::FindReferencesArgs;
use mcp_java_index::tools::xref::TargetKind;
use std::path::{Path, PathBuf};
use std::process::Command;

use mcp_java_index::model::{FileOutline, TypeDecl};
use mcp_java_index::parser;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/lombok/src")
}

/// The Lombok jar, or a failure that says how to install it.
pub(crate) fn lombok_jar() -> PathBuf {
    let jar = std::env::var_os("LOMBOK_JAR").map_or_else(|| PathBuf::from("/usr/share/java/lombok.jar"), PathBuf::from);
    assert!(
        jar.is_file(),
        "{} is missing: install Debian's liblombok-java (apt-get install -y liblombok-java), or set LOMBOK_JAR",
        jar.display()
    );
    jar
}

/// Runs `delombok` on `src` into `out`.
pub(crate) fn delombok(src: &Path, out: &Path) {
    let run = Command::new("java")
        .arg("-jar")
        .arg(lombok_jar())
        .arg("delombok")
        .arg(src)
        .arg("-d")
        .arg(out)
        .output()
        .expect("running java -jar lombok.jar delombok (is a JDK on PATH?)");
    assert!(run.status.success(), "delombok failed: {}", String::from_utf8_lossy(&run.stderr));
}

/// A type as compared: no whitespace, `java.lang.` dropped (delombok writes `java.lang.String`).
fn norm(t: &str) -> String {
    let t: String = t.chars().filter(|c| !c.is_whitespace()).collect();
    t.replace("java.lang.", "")
}

/// One member of an outline, as compared.
pub(crate) struct Member {
    /// `Type kind name(params):ret`.
    pub(crate) key: String,
    pub(crate) generated: bool,
    /// `find_references`' target for it (None for a type).
    pub(crate) target: Option<String>,
    pub(crate) lines: (u32, u32),
}

/// A type's type variables with their erasures: `K -> Comparable` of `<K extends Comparable<K>, V>`.
fn type_vars(t: &TypeDecl) -> Vec<(String, String)> {
    let Some(tp) = &t.type_params_text else { return Vec::new() };
    let inner = tp.trim().strip_prefix('<').and_then(|x| x.strip_suffix('>')).unwrap_or("");
    let (mut parts, mut depth, mut cur) = (Vec::new(), 0, String::new());
    for c in inner.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    parts.push(cur);
    parts
        .iter()
        .map(|p| {
            let mut words = p.split_whitespace();
            let name = words.next().unwrap_or("").to_owned();
            let bound = p.split_once(" extends ").map_or("Object", |(_, b)| b.split('&').next().unwrap_or("Object"));
            (name, bound.split('<').next().unwrap_or("Object").trim().to_owned())
        })
        .collect()
}

/// A parameter list erased for a `find_references` target: `(String,List)`.
fn erased(ps: &[mcp_java_index::model::Param], vars: &[(String, String)]) -> String {
    let mut out = Vec::new();
    for p in ps {
        let mut t = String::new();
        let mut depth = 0;
        for c in p.type_text.chars() {
            match c {
                '<' => depth += 1,
                '>' => depth -= 1,
                c if depth == 0 && !c.is_whitespace() => t.push(c),
                _ => {}
            }
        }
        let dims = t.find('[').map_or("", |i| &t[i..]).to_owned();
        let base = t.trim_end_matches("[]").to_owned();
        match vars.iter().find(|(v, _)| *v == base) {
            Some((_, erasure)) => out.push(format!("{erasure}{dims}")),
            None => out.push(t),
        }
    }
    out.join(",")
}

/// Every member of an outline.
pub(crate) fn members(o: &FileOutline) -> Vec<Member> {
    fn walk(t: &TypeDecl, out: &mut Vec<Member>) {
        let q = &t.qualified_name;
        let vars = type_vars(t);
        for f in &t.fields {
            out.push(Member {
                key: format!("{q} field {}:{}", f.name, norm(&f.type_text)),
                generated: f.generated.is_some(),
                target: Some(format!("{q}#{}", f.name)),
                lines: (f.start_line, f.end_line),
            });
        }
        for c in &t.constructors {
            let ps: Vec<String> = c.params.iter().map(|p| norm(&p.type_text)).collect();
            out.push(Member {
                key: format!("{q} constructor {}({})", c.name, ps.join(",")),
                generated: c.generated.is_some(),
                target: Some(format!("{q}#{}({})", c.name, erased(&c.params, &vars))),
                lines: (c.start_line, c.end_line),
            });
        }
        for m in &t.methods {
            let ps: Vec<String> = m.params.iter().map(|p| norm(&p.type_text)).collect();
            out.push(Member {
                key: format!("{q} method {}({}):{}", m.name, ps.join(","), norm(&m.return_type_text)),
                generated: m.generated.is_some(),
                target: Some(format!("{q}#{}({})", m.name, erased(&m.params, &vars))),
                lines: (m.start_line, m.end_line),
            });
        }
        for i in &t.inner_classes {
            out.push(Member {
                key: format!("{q} type {}", i.name),
                generated: i.generated.is_some(),
                target: None,
                lines: (i.start_line, i.end_line),
            });
            walk(i, out);
        }
    }
    let mut out = Vec::new();
    for t in &o.classes {
        walk(t, &mut out);
    }
    out
}

fn java_files(dir: &Path, rel: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir.join(rel)).expect("reading fixtures").flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let r = rel.join(e.file_name());
        if e.path().is_dir() {
            java_files(dir, &r, out);
        } else if r.extension().is_some_and(|x| x == "java") {
            out.push(r);
        }
    }
}

#[test]
fn generated_members_equal_what_delombok_writes_per_fixture() {
    let out = tempfile::tempdir().expect("tempdir");
    delombok(&fixtures(), out.path());
    let mut files = Vec::new();
    java_files(&fixtures(), Path::new(""), &mut files);
    assert!(files.len() >= 15, "{files:?}");
    let mut mismatches: BTreeMap<String, (Vec<String>, Vec<String>)> = BTreeMap::new();
    let mut generated_total = 0;
    for rel in &files {
        let original = std::fs::read(fixtures().join(rel)).expect("reading fixture");
        let expanded = std::fs::read(out.path().join(rel)).expect("delombok wrote the file");
        let ours = members(&parser::outline(&rel.to_string_lossy(), &original));
        let theirs = members(&parser::outline(&rel.to_string_lossy(), &expanded));
        // What delombok writes beyond what the source declares.
        // `@Getter(lazy = true)` retypes its written field as Lombok's cache
        // (`AtomicReference<Object>`): that field is the written one, not a generated one.
        let lazy = |key: &str| {
            key.contains(" field ") && key.ends_with(":java.util.concurrent.atomic.AtomicReference<Object>")
        };
        let mut expected: Vec<String> = theirs.into_iter().map(|m| m.key).filter(|k| !lazy(k)).collect();
        for m in ours.iter().filter(|m| !m.generated) {
            if let Some(i) = expected.iter().position(|e| *e == m.key) {
                expected.remove(i);
            }
        }
        let mut listed: Vec<String> = ours.into_iter().filter(|m| m.generated).map(|m| m.key).collect();
        expected.sort();
        listed.sort();
        generated_total += listed.len();
        if expected != listed {
            mismatches.insert(rel.to_string_lossy().into_owned(), (expected, listed));
        }
    }
    assert!(mismatches.is_empty(), "delombok (left) and our generated members (right) differ: {mismatches:#?}");
    // Every annotation of the fixtures generated something.
    assert!(generated_total >= 60, "{generated_total} generated members");
}

/// A workspace over a copy of `src`, indexed.
fn workspace_of(src: &Path) -> (tempfile::TempDir, Host) {
    let dir = tempfile::tempdir().expect("tempdir");
    crate::common::copy_dir(src, dir.path());
    let flags = Flags::roots([dir.path()]).set("watch", false).set("cache", false);
    let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    ws.build_index();
    (dir, ws)
}

/// `file -> lines` of the references `find_references` answers for `target`, leaving out those
/// `inside` says are in code Lombok writes (delombok's `toString` calls the getters).
fn refs_by_file(ws: &Host, target: &str, inside: &dyn Fn(&str, u32) -> bool) -> BTreeMap<String, Vec<u32>> {
    let kind = (!target.contains('(')).then_some(TargetKind::Field);
    let args = FindReferencesArgs { target: target.into(), target_kind: kind, limit: 10_000, ..Default::default() };
    let r = mcp_java_index::tools::tool::find_references::run(ws, &args)
        .unwrap_or_else(|e| panic!("find_references {target}: {e}"));
    let mut out: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    for f in &r.files {
        for x in f.references.iter().filter(|x| !inside(&f.file, x.line)) {
            out.entry(f.file.clone()).or_default().push(x.line);
        }
    }
    out
}

#[test]
fn references_to_generated_members_equal_those_on_the_delomboked_copy_file_by_file() {
    let out = tempfile::tempdir().expect("tempdir");
    delombok(&fixtures(), out.path());
    let (_a, original) = workspace_of(&fixtures());
    let (_b, expanded) = workspace_of(out.path());
    let mut files = Vec::new();
    java_files(&fixtures(), Path::new(""), &mut files);
    // Per file of the copy: the lines of the members delombok wrote (not in the original).
    let mut written: BTreeMap<String, Vec<(u32, u32)>> = BTreeMap::new();
    let mut targets = Vec::new();
    for rel in &files {
        let name = rel.to_string_lossy().replace('\\', "/");
        let ours = members(&parser::outline(&name, &std::fs::read(fixtures().join(rel)).expect("read")));
        let theirs = members(&parser::outline(&name, &std::fs::read(out.path().join(rel)).expect("read")));
        let declared: Vec<&str> = ours.iter().filter(|m| !m.generated).map(|m| m.key.as_str()).collect();
        written.insert(name, theirs.iter().filter(|m| !declared.contains(&m.key.as_str())).map(|m| m.lines).collect());
        targets.extend(ours.into_iter().filter(|m| m.generated).filter_map(|m| m.target));
    }
    let inside = |file: &str, line: u32| {
        written.get(file).is_some_and(|spans| spans.iter().any(|(s, e)| *s <= line && line <= *e))
    };
    let mut differ = Vec::new();
    let mut total = 0;
    for t in &targets {
        let ours: BTreeMap<String, usize> =
            refs_by_file(&original, t, &|_, _| false).into_iter().map(|(f, l)| (f, l.len())).collect();
        let theirs: BTreeMap<String, usize> =
            refs_by_file(&expanded, t, &inside).into_iter().map(|(f, l)| (f, l.len())).collect();
        total += ours.values().sum::<usize>();
        if ours != theirs {
            differ.push(format!("{t}: original {ours:?}, delomboked {theirs:?}"));
        }
    }
    assert!(
        differ.is_empty(),
        "{} of {} generated members differ:\n{}",
        differ.len(),
        targets.len(),
        differ.join("\n")
    );
    assert!(targets.len() >= 80 && total >= 40, "{} targets, {total} references", targets.len());
}
