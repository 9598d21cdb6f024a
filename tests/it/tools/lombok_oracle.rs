//! Lombok's own `delombok` as the oracle of the members we generate: every fixture of
//! `tests/fixtures/lombok` (one small file per annotation) is delomboked, and the members
//! `delombok` writes beyond those the source declares must equal the members our outline marks
//! `generated: "lombok"`, by type, kind, name, parameter types and return type.
//!
//! The jar is Debian's `liblombok-java` (`/usr/share/java/lombok.jar`, or `$LOMBOK_JAR`); the
//! test fails, saying so, when it is missing.

use std::collections::BTreeMap;
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

/// Every member of an outline as `Type kind name(params):ret`, with whether it is generated.
fn members(o: &FileOutline) -> Vec<(String, bool)> {
    fn walk(t: &TypeDecl, out: &mut Vec<(String, bool)>) {
        let q = &t.qualified_name;
        for f in &t.fields {
            out.push((format!("{q} field {}:{}", f.name, norm(&f.type_text)), f.generated.is_some()));
        }
        for c in &t.constructors {
            let ps: Vec<String> = c.params.iter().map(|p| norm(&p.type_text)).collect();
            out.push((format!("{q} constructor {}({})", c.name, ps.join(",")), c.generated.is_some()));
        }
        for m in &t.methods {
            let ps: Vec<String> = m.params.iter().map(|p| norm(&p.type_text)).collect();
            let key = format!("{q} method {}({}):{}", m.name, ps.join(","), norm(&m.return_type_text));
            out.push((key, m.generated.is_some()));
        }
        for i in &t.inner_classes {
            out.push((format!("{q} type {}", i.name), i.generated.is_some()));
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
        let mut expected: Vec<String> = theirs.into_iter().map(|(k, _)| k).collect();
        for (k, generated) in &ours {
            if !generated && let Some(i) = expected.iter().position(|e| e == k) {
                expected.remove(i);
            }
        }
        let mut listed: Vec<String> = ours.into_iter().filter(|(_, g)| *g).map(|(k, _)| k).collect();
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
