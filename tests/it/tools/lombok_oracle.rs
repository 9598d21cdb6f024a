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

/// One directory per `lombok.config` key (with its own `lombok.config`), and a user of what
/// each generates: written to a temporary directory, so that delombok reads the same files.
const CONFIGURED: &[(&str, &str, &str)] = &[
    (
        "logname",
        "lombok.log.fieldName = LOGGER",
        "package logname;\n@lombok.extern.java.Log\npublic class A {\n  void m() { LOGGER.info(\"x\"); }\n}\n",
    ),
    (
        "logname/inner",
        "clear lombok.log.fieldName\nlombok.log.fieldIsStatic = false",
        "package logname.inner;\n@lombok.extern.java.Log\npublic class B {\n  void m() { log.info(\"x\"); }\n}\n",
    ),
    (
        "custom",
        "lombok.log.custom.declaration = java.util.logging.Logger java.util.logging.Logger.getLogger(NAME)",
        "package custom;\n@lombok.CustomLog\npublic class C {\n  void m() { log.info(\"x\"); }\n}\n",
    ),
    (
        "prefix",
        "lombok.accessors.prefix += m\nlombok.accessors.prefix += f",
        "package prefix;\n@lombok.Getter @lombok.Setter\npublic class P {\n  private String mName;\n  private int fAge;\n  private int other;\n  static String use(P p) { p.setName(\"x\"); return p.getName() + p.getAge(); }\n}\n",
    ),
    (
        "fluent",
        "lombok.accessors.fluent = true",
        "package fluent;\n@lombok.Getter @lombok.Setter\npublic class F {\n  private String name;\n  private boolean on;\n  static String use(F f) { return f.name(\"x\").name() + f.on(); }\n}\n",
    ),
    (
        "chain",
        "lombok.accessors.chain = true",
        "package chain;\n@lombok.Setter\npublic class Ch {\n  private String name;\n  private int age;\n  static Ch use(Ch c) { return c.setName(\"x\").setAge(1); }\n}\n",
    ),
    (
        "beanspec",
        "lombok.accessors.capitalization = beanspec",
        "package beanspec;\n@lombok.Getter\npublic class Bs {\n  private String uName;\n  static String use(Bs b) { return b.getuName(); }\n}\n",
    ),
    (
        "noisprefix",
        "lombok.getter.noIsPrefix = true",
        "package noisprefix;\n@lombok.Getter\npublic class N {\n  private boolean on;\n  static boolean use(N n) { return n.getOn(); }\n}\n",
    ),
    (
        "extraprivate",
        "lombok.noArgsConstructor.extraPrivate = true",
        "package extraprivate;\n@lombok.Data\npublic class D {\n  private final int x;\n  static D use() { return new D(1); }\n}\n",
    ),
    (
        "buildername",
        "lombok.builder.className = Make*",
        "package buildername;\n@lombok.Builder\npublic class Bn {\n  private int x;\n  static Bn use() { Bn.MakeBn b = Bn.builder(); return b.x(1).build(); }\n}\n",
    ),
    (
        "defaultfinal",
        "lombok.fieldDefaults.defaultFinal = true",
        "package defaultfinal;\n@lombok.RequiredArgsConstructor @lombok.Getter\npublic class Df {\n  private int x;\n  static Df use() { return new Df(1); }\n}\n",
    ),
];

fn write_configured(dir: &Path) {
    for (sub, conf, java) in CONFIGURED {
        let d = dir.join(sub);
        std::fs::create_dir_all(&d).expect("mkdir");
        std::fs::write(d.join("lombok.config"), conf).expect("write lombok.config");
        let class = java.split("public class ").nth(1).and_then(|r| r.split([' ', '<']).next()).expect("a class");
        std::fs::write(d.join(format!("{class}.java")), java).expect("write java");
    }
}

#[test]
fn lombok_config_keys_generate_what_delombok_writes_and_their_references_agree() {
    let src = tempfile::tempdir().expect("tempdir");
    write_configured(src.path());
    let out = tempfile::tempdir().expect("tempdir");
    delombok(src.path(), out.path());
    let lombok =
        parser::lombok::config::Resolver::new(vec![src.path().to_owned()], Box::new(|p| std::fs::read(p).ok()));
    let mut files = Vec::new();
    java_files(src.path(), Path::new(""), &mut files);
    assert_eq!(files.len(), CONFIGURED.len());
    let mut mismatches: BTreeMap<String, (Vec<String>, Vec<String>)> = BTreeMap::new();
    let mut written: BTreeMap<String, Vec<(u32, u32)>> = BTreeMap::new();
    let mut targets = Vec::new();
    for rel in &files {
        let name = rel.to_string_lossy().replace('\\', "/");
        let original = std::fs::read(src.path().join(rel)).expect("read");
        let ours = members(&parser::outline_with(&name, &original, &lombok.for_file(&src.path().join(rel))));
        let theirs = members(&parser::outline(&name, &std::fs::read(out.path().join(rel)).expect("delombok wrote it")));
        let declared: Vec<String> = ours.iter().filter(|m| !m.generated).map(|m| m.key.clone()).collect();
        let mut expected: Vec<String> =
            theirs.iter().map(|m| m.key.clone()).filter(|k| !declared.contains(k)).collect();
        written.insert(name.clone(), theirs.iter().filter(|m| !declared.contains(&m.key)).map(|m| m.lines).collect());
        let mut listed: Vec<String> = ours.iter().filter(|m| m.generated).map(|m| m.key.clone()).collect();
        targets.extend(ours.into_iter().filter(|m| m.generated).filter_map(|m| m.target));
        expected.sort();
        listed.sort();
        if expected != listed {
            mismatches.insert(name, (expected, listed));
        }
    }
    assert!(mismatches.is_empty(), "delombok (left) and our generated members (right) differ: {mismatches:#?}");
    // References, file by file, against the delomboked copy (plain Java).
    let (_a, original) = workspace_of(src.path());
    let (_b, expanded) = workspace_of(out.path());
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
    assert!(differ.is_empty(), "{} of {} differ:\n{}", differ.len(), targets.len(), differ.join("\n"));
    assert!(targets.len() >= 25 && total >= 15, "{} targets, {total} references", targets.len());
}

#[test]
fn a_changed_lombok_config_changes_the_outline_and_the_references_without_a_restart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    std::fs::create_dir_all(root.join("p")).expect("mkdir");
    std::fs::write(root.join("lombok.config"), "lombok.log.fieldName = LOGGER\n").expect("write");
    std::fs::write(
        root.join("p/A.java"),
        "package p;\n@lombok.extern.java.Log\npublic class A {\n  void m() { LOGGER.info(\"x\"); }\n}\n",
    )
    .expect("write");
    // A lombok.config linked to a file outside the roots is not read (the roots' path policy).
    let outside = tempfile::tempdir().expect("tempdir");
    std::fs::write(outside.path().join("lombok.config"), "lombok.log.fieldName = OUTSIDE\n").expect("write");
    std::fs::create_dir_all(root.join("q")).expect("mkdir");
    std::fs::write(root.join("q/B.java"), "package q;\n@lombok.extern.java.Log\npublic class B { }\n").expect("write");
    #[cfg(unix)]
    std::os::unix::fs::symlink(outside.path().join("lombok.config"), root.join("q/lombok.config")).expect("symlink");
    let flags = Flags::roots([root]).set("watch", false);
    let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    ws.build_index();
    let fields_of = |ws: &Host, rel: &str| -> Vec<String> {
        let o = ws.cache(0).outline(&root.join(rel), rel).expect("outline").outline;
        o.classes[0].fields.iter().map(|f| f.name.clone()).collect()
    };
    let fields = |ws: &Host| fields_of(ws, "p/A.java");
    assert_eq!(fields(&ws), ["LOGGER"]);
    assert_eq!(fields_of(&ws, "q/B.java"), ["LOGGER"], "the linked lombok.config outside the root is not read");
    assert_eq!(refs_by_file(&ws, "p.A#LOGGER", &|_, _| false).values().map(Vec::len).sum::<usize>(), 1);
    // The configuration changes (as the watcher reports it): no restart.
    std::fs::write(root.join("lombok.config"), "lombok.log.fieldName = log\n").expect("write");
    ws.index().changed(&[root.join("lombok.config")]);
    assert_eq!(fields(&ws), ["log"]);
    let args =
        FindReferencesArgs { target: "p.A#LOGGER".into(), target_kind: Some(TargetKind::Field), ..Default::default() };
    assert!(mcp_java_index::tools::tool::find_references::run(&ws, &args).is_err(), "LOGGER is gone");
    assert!(refs_by_file(&ws, "p.A#log", &|_, _| false).is_empty(), "the use of LOGGER does not bind to log");
}
