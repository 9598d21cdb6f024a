//! The JUnit XML reports every build writes (Surefire's `target/surefire-reports/TEST-*.xml`,
//! Gradle's `build/test-results/*/TEST-*.xml`, the console launcher's
//! `TEST-junit-jupiter.xml`): test cases with their outcome, failure message, `expected` and
//! `actual` when the assertion says them, the stack with the workspace's frames first (file and
//! line), and the captured output, capped.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde::Serialize;

/// How one test ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Passed,
    Failed,
    Errored,
    Skipped,
}

/// One `<testcase>`.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    pub class: String,
    pub name: String,
    pub time_s: f64,
    pub outcome: Outcome,
    /// The failure's message (or the skip reason).
    pub message: String,
    /// The exception type.
    pub kind: String,
    /// The stack trace text as written.
    pub stack: String,
    /// Captured stdout and stderr of the test.
    pub output: String,
}

/// Counts over cases.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Counts {
    pub run: u32,
    pub passed: u32,
    pub failed: u32,
    pub errored: u32,
    pub skipped: u32,
    /// Seconds, summed over the test cases.
    #[serde(rename = "seconds")]
    pub time_s: f64,
}

impl Counts {
    pub fn of(cases: &[Case]) -> Counts {
        let mut c = Counts::default();
        for t in cases {
            c.run += 1;
            c.time_s += t.time_s;
            match t.outcome {
                Outcome::Passed => c.passed += 1,
                Outcome::Failed => c.failed += 1,
                Outcome::Errored => c.errored += 1,
                Outcome::Skipped => c.skipped += 1,
            }
        }
        c.time_s = (c.time_s * 1000.0).round() / 1000.0;
        c
    }
}

fn attr(n: roxmltree::Node<'_, '_>, name: &str) -> String {
    n.attribute(name).unwrap_or("").to_owned()
}

/// The test cases of one report's text (a `<testsuite>` or a `<testsuites>` of them).
pub fn parse(xml: &str) -> Result<Vec<Case>, String> {
    let doc = roxmltree::Document::parse(xml).map_err(|e| format!("not well-formed XML: {e}"))?;
    let mut out = Vec::new();
    for tc in doc.descendants().filter(|n| n.is_element() && n.tag_name().name() == "testcase") {
        let mut case = Case {
            class: attr(tc, "classname"),
            name: attr(tc, "name"),
            time_s: attr(tc, "time").replace(',', "").parse().unwrap_or(0.0),
            outcome: Outcome::Passed,
            message: String::new(),
            kind: String::new(),
            stack: String::new(),
            output: String::new(),
        };
        for c in tc.children().filter(|c| c.is_element()) {
            let body = c.text().unwrap_or("").trim().to_owned();
            match c.tag_name().name() {
                // The first failure wins (rerun reports add flaky* elements).
                n @ ("failure" | "error") if case.outcome == Outcome::Passed => {
                    case.outcome = if n == "failure" { Outcome::Failed } else { Outcome::Errored };
                    case.message = attr(c, "message");
                    case.kind = attr(c, "type");
                    case.stack = body;
                }
                "skipped" => {
                    case.outcome = Outcome::Skipped;
                    case.message = attr(c, "message");
                }
                "system-out" | "system-err" if !body.is_empty() => {
                    // The console launcher's report entries name the test again: not output.
                    let body: Vec<&str> = body
                        .lines()
                        .filter(|l| !l.starts_with("unique-id: ") && !l.starts_with("display-name: "))
                        .collect();
                    if body.is_empty() {
                        continue;
                    }
                    if !case.output.is_empty() {
                        case.output.push('\n');
                    }
                    case.output.push_str(&body.join("\n"));
                }
                _ => {}
            }
        }
        // A JUnit 5 failure may leave the message attribute empty: its first stack line says it.
        if case.message.is_empty() && matches!(case.outcome, Outcome::Failed | Outcome::Errored) {
            let first = case.stack.lines().next().unwrap_or("");
            case.message = first.split_once(": ").map(|(_, m)| m.to_owned()).unwrap_or_default();
        }
        out.push(case);
    }
    Ok(out)
}

/// Every `TEST-*.xml` in `dirs` written at or after `since` (an older report is a previous
/// run's), parsed; reports that do not parse are named in the second list.
pub fn read_reports(dirs: &[PathBuf], since: Option<SystemTime>) -> (Vec<Case>, Vec<String>) {
    let (mut cases, mut bad) = (Vec::new(), Vec::new());
    for d in dirs {
        let Ok(rd) = std::fs::read_dir(d) else { continue };
        let mut files: Vec<PathBuf> = rd
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("TEST-") && n.ends_with(".xml"))
            })
            .filter(|p| since.is_none_or(|s| std::fs::metadata(p).and_then(|m| m.modified()).is_ok_and(|m| m >= s)))
            .collect();
        files.sort();
        for f in files {
            match mji_fs::read_regular(&f, 64 << 20) {
                Ok(bytes) => match parse(&String::from_utf8_lossy(&bytes)) {
                    Ok(c) => cases.extend(c),
                    Err(e) => bad.push(format!("{}: {e}", f.display())),
                },
                Err(e) => bad.push(format!("{}: {e}", f.display())),
            }
        }
    }
    (cases, bad)
}

/// `expected` and `actual` as an assertion message states them: JUnit 5 (`expected: <a> but
/// was: <b>`), JUnit 4 (`expected:<a> but was:<b>`), TestNG (`expected [a] but found [b]`).
pub fn expected_actual(message: &str) -> Option<(String, String)> {
    let pairs: [(&str, &str, &str, &str); 3] = [
        ("expected: <", "> but was: <", ">", ""),
        ("expected:<", "> but was:<", ">", ""),
        ("expected [", "] but found [", "]", ""),
    ];
    for (open, mid, close, _) in pairs {
        let Some(a) = message.find(open) else { continue };
        let rest = &message[a + open.len()..];
        let Some(b) = rest.rfind(mid) else { continue };
        let expected = &rest[..b];
        let after = &rest[b + mid.len()..];
        let actual = after.strip_suffix(close).or_else(|| after.rfind(close).map(|e| &after[..e])).unwrap_or(after);
        return Some((expected.to_owned(), actual.to_owned()));
    }
    None
}

/// One stack frame: `at pkg.Class.method(File.java:12)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Frame {
    /// `pkg.Class.method`.
    pub at: String,
    /// The source file, relative to its workspace root, when it is in the workspace.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    pub line: u32,
}

/// The frames of a stack trace (the `at` lines, `Caused by` sections included).
pub fn frames(stack: &str) -> Vec<(String, String, u32)> {
    let mut out = Vec::new();
    for l in stack.lines() {
        let Some(rest) = l.trim().strip_prefix("at ") else { continue };
        let Some((at, loc)) = rest.split_once('(') else { continue };
        let loc = loc.trim_end_matches(')');
        // `app//com.x.A.m(A.java:3)` (class loader and module prefixes) is `com.x.A.m`.
        let at = at.rsplit('/').next().unwrap_or(at).to_owned();
        let (file, line) = match loc.rsplit_once(':') {
            Some((f, n)) => (f.to_owned(), n.parse().unwrap_or(0)),
            None => (loc.to_owned(), 0),
        };
        out.push((at, file, line));
    }
    out
}

/// The workspace file of a frame: the frame's class's package as directories under one of
/// `roots`, with the file name the frame gives.
pub fn frame_file(at: &str, file: &str, roots: &[PathBuf]) -> Option<PathBuf> {
    if !file.ends_with(".java") {
        return None;
    }
    let class = at.rsplit_once('.').map(|(c, _)| c).unwrap_or(at);
    let package = class.rsplit_once('.').map(|(p, _)| p).unwrap_or("");
    let rel: PathBuf = package.split('.').filter(|p| !p.is_empty()).chain(std::iter::once(file)).collect();
    roots.iter().map(|r| r.join(&rel)).find(|p| p.is_file())
}

/// `text` cut to at most `max` characters, keeping its head and tail, with how much went.
pub fn cap(text: &str, max: usize) -> String {
    let n = text.chars().count();
    if n <= max {
        return text.to_owned();
    }
    let head: String = text.chars().take(max / 2).collect();
    let tail: String = text.chars().skip(n - max / 2).collect();
    format!("{head}\n… {} characters left out …\n{tail}", n - max)
}

/// The shown path of `p` (relative to the root holding it).
pub fn shown(p: &Path, roots: &[PathBuf]) -> String {
    roots
        .iter()
        .find_map(|r| p.strip_prefix(r).ok())
        .map(|r| r.to_string_lossy().replace('\\', "/"))
        .unwrap_or_else(|| p.display().to_string())
}

/// The JUnit console launcher's file name, as Debian's `junit5` package and the Maven Central
/// artifact's standalone jar (without its version) name it.
pub const CONSOLE_LAUNCHER: &str = "junit-platform-console-standalone.jar";

/// The JUnit console launcher a plain project's tests run on: `share/java/` beside each
/// directory of `PATH` (`/usr/bin` gives Debian's `/usr/share/java`, a Homebrew or a prefix
/// install its own), else `/usr/share/java`. `Err` names where it was looked for.
pub fn console_launcher(path_env: Option<&std::ffi::OsStr>) -> Result<PathBuf, String> {
    find_jar(&share_java_dirs(path_env), CONSOLE_LAUNCHER)
}

/// The fast path's sources to compile: each Java file under a pair's source roots that is
/// newer than its class file in the pair's class directory (Maven's) and in `out` (an earlier
/// fast run's), or has neither.
pub fn stale_sources(pairs: &[(&[PathBuf], &Path)], out: &Path) -> Vec<PathBuf> {
    let mut changed = Vec::new();
    for (roots, target) in pairs {
        for r in roots.iter() {
            for f in mji_fs::walk::java_files(r).files {
                let Ok(rel) = f.strip_prefix(r) else { continue };
                let class_file = rel.with_extension("class");
                let newest = [target.join(&class_file), out.join(&class_file)]
                    .iter()
                    .filter_map(|c| std::fs::metadata(c).and_then(|m| m.modified()).ok())
                    .max();
                let src = std::fs::metadata(&f).and_then(|m| m.modified()).ok();
                if newest.is_none() || src > newest {
                    changed.push(f);
                }
            }
        }
    }
    changed
}

/// The JUnit console launcher (not the standalone one) and its report writer, which the fast
/// path runs beside a project's own JUnit jars, then opentest4j's reporting jars when there;
/// found where [`console_launcher`] looks (Debian's package `junit5`). `Err` names where.
pub fn fast_launcher(path_env: Option<&std::ffi::OsStr>) -> Result<Vec<PathBuf>, String> {
    let dirs = share_java_dirs(path_env);
    let mut jars = vec![find_jar(&dirs, FAST_CONSOLE)?, find_jar(&dirs, FAST_REPORTING)?];
    jars.extend(FAST_OPTIONAL.iter().filter_map(|j| find_jar(&dirs, j).ok()));
    Ok(jars)
}

/// The fast path's launcher jars, and the optional ones.
const FAST_CONSOLE: &str = "junit-platform-console.jar";
const FAST_REPORTING: &str = "junit-platform-reporting.jar";
const FAST_OPTIONAL: &[&str] = &["opentest4j-reporting-events.jar", "opentest4j-reporting-schema.jar"];

/// `share/java/` beside each directory of `PATH` (`/usr/bin` gives Debian's `/usr/share/java`,
/// a Homebrew or a prefix install its own), then `/usr/share/java`.
fn share_java_dirs(path_env: Option<&std::ffi::OsStr>) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = path_env
        .map(std::env::split_paths)
        .into_iter()
        .flatten()
        .filter_map(|d| d.parent().map(|p| p.join("share/java")))
        .collect();
    dirs.push(PathBuf::from("/usr/share/java"));
    dirs.dedup();
    dirs
}

/// The first `dirs/name` that is a file; `Err` names where it was looked for.
fn find_jar(dirs: &[PathBuf], name: &str) -> Result<PathBuf, String> {
    dirs.iter().map(|d| d.join(name)).find(|p| p.is_file()).ok_or_else(|| {
        let shown: Vec<String> = dirs.iter().take(4).map(|d| d.display().to_string()).collect();
        format!("{name} is not in {}", shown.join(", "))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A source newer than its class file, or without one, is stale; one older than the class
    /// file Maven or an earlier fast run wrote is not.
    #[test]
    fn stale_sources_are_those_newer_than_every_class_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (src, classes, out) = (dir.path().join("src"), dir.path().join("classes"), dir.path().join("out"));
        for d in [&src.join("p"), &classes.join("p"), &out.join("p")] {
            std::fs::create_dir_all(d).expect("mkdir");
        }
        let at = |p: &Path, secs: u64| {
            std::fs::write(p, "x").expect("write");
            let t = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(secs);
            std::fs::File::options().write(true).open(p).and_then(|f| f.set_modified(t)).expect("mtime");
        };
        at(&src.join("p/Edited.java"), 2_000);
        at(&classes.join("p/Edited.class"), 1_000);
        at(&src.join("p/Same.java"), 1_000);
        at(&classes.join("p/Same.class"), 2_000);
        at(&src.join("p/Fast.java"), 2_000);
        at(&classes.join("p/Fast.class"), 1_000);
        at(&out.join("p/Fast.class"), 3_000);
        at(&src.join("p/New.java"), 1_000);
        let roots = [src.clone()];
        let mut stale: Vec<String> = stale_sources(&[(&roots, &classes)], &out)
            .iter()
            .filter_map(|f| Some(f.file_name()?.to_string_lossy().into_owned()))
            .collect();
        stale.sort();
        assert_eq!(stale, ["Edited.java", "New.java"]);
    }

    /// The launchers are found in `share/java` beside a `PATH` directory, the optional
    /// reporting jars only when there; a missing one says where it was looked for.
    #[test]
    fn launchers_are_found_beside_path() {
        let t = tempfile::tempdir().expect("tempdir");
        let (bin, share) = (t.path().join("bin"), t.path().join("share/java"));
        std::fs::create_dir_all(&bin).expect("mkdir");
        std::fs::create_dir_all(&share).expect("mkdir");
        let path = std::env::join_paths([&bin]).expect("path");
        for j in [CONSOLE_LAUNCHER, FAST_CONSOLE, FAST_REPORTING, FAST_OPTIONAL[0]] {
            std::fs::write(share.join(j), b"PK").expect("jar");
        }
        assert_eq!(console_launcher(Some(&path)), Ok(share.join(CONSOLE_LAUNCHER)));
        let fast = fast_launcher(Some(&path)).expect("fast launcher");
        assert_eq!(fast[..3], [share.join(FAST_CONSOLE), share.join(FAST_REPORTING), share.join(FAST_OPTIONAL[0])]);
        assert!(fast.iter().all(|j| j.starts_with(&share) || j.starts_with("/usr/share/java")), "{fast:?}");
        std::fs::remove_file(share.join(FAST_REPORTING)).expect("rm");
        if !Path::new("/usr/share/java").join(FAST_REPORTING).is_file() {
            let e = fast_launcher(Some(&path)).expect_err("missing");
            assert!(e.starts_with(FAST_REPORTING) && e.contains("share/java"), "{e}");
        }
    }

    #[test]
    fn junit5_junit4_testng_messages_give_expected_and_actual() {
        let e = |m: &str| expected_actual(m).map(|(a, b)| format!("{a}|{b}"));
        assert_eq!(e("sum ==> expected: <3> but was: <4>").as_deref(), Some("3|4"));
        assert_eq!(e("expected:<[hello]> but was:<[world]>").as_deref(), Some("[hello]|[world]"));
        assert_eq!(e("lists differ expected [a, b] but found [a]").as_deref(), Some("a, b|a"));
        assert_eq!(e("boom"), None);
    }

    #[test]
    fn a_gradle_report_parses_like_surefire() {
        // Gradle's layout: a suite with properties-less cases, output at suite level ignored.
        let xml = r#"<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="com.x.ATest" tests="4" skipped="1" failures="1" errors="1" timestamp="2026-01-01T00:00:00" hostname="h" time="0.5">
  <properties/>
  <testcase name="ok()" classname="com.x.ATest" time="0.1"/>
  <testcase name="fails()" classname="com.x.ATest" time="0.2">
    <failure message="org.opentest4j.AssertionFailedError: expected: &lt;1&gt; but was: &lt;2&gt;" type="org.opentest4j.AssertionFailedError">org.opentest4j.AssertionFailedError: expected: &lt;1&gt; but was: &lt;2&gt;
	at app//org.junit.jupiter.api.AssertionUtils.fail(AssertionUtils.java:55)
	at app//com.x.ATest.fails(ATest.java:12)
</failure>
  </testcase>
  <testcase name="throws()" classname="com.x.ATest" time="0.1"><error message="" type="java.lang.IllegalStateException">java.lang.IllegalStateException: bad state
	at com.x.ATest.throws(ATest.java:20)</error><system-out>unique-id: [engine:junit-jupiter]
display-name: throws()
hello from the test</system-out></testcase>
  <testcase name="later()" classname="com.x.ATest" time="0.0"><skipped message="not today"/></testcase>
  <system-out><![CDATA[]]></system-out>
</testsuite>"#;
        let cases = parse(xml).expect("parses");
        let c = Counts::of(&cases);
        assert_eq!((c.run, c.passed, c.failed, c.errored, c.skipped), (4, 1, 1, 1, 1));
        assert_eq!(expected_actual(&cases[1].message), Some(("1".into(), "2".into())));
        assert_eq!(cases[2].message, "bad state");
        assert_eq!(cases[2].output, "hello from the test");
        assert_eq!(cases[3].message, "not today");
        let f = frames(&cases[1].stack);
        assert_eq!(f[1], ("com.x.ATest.fails".to_owned(), "ATest.java".to_owned(), 12));
        let t = tempfile::tempdir().expect("tmp");
        std::fs::create_dir_all(t.path().join("src/com/x")).expect("mkdir");
        std::fs::write(t.path().join("src/com/x/ATest.java"), "").expect("write");
        let roots = [t.path().join("src")];
        assert_eq!(frame_file("com.x.ATest.fails", "ATest.java", &roots), Some(roots[0].join("com/x/ATest.java")));
        assert_eq!(frame_file("org.junit.X.y", "X.java", &roots), None);
        assert!(parse("<testsuite>").is_err());
        assert_eq!(cap("abcdefghij", 4), "ab\n… 6 characters left out …\nij");
    }

    /// The launcher is found in `share/java` beside a `PATH` directory, before the system's.
    #[test]
    fn the_console_launcher_is_found_beside_path() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (bin, share) = (dir.path().join("bin"), dir.path().join("share/java"));
        std::fs::create_dir_all(&bin).expect("mkdir");
        std::fs::create_dir_all(&share).expect("mkdir");
        let path = std::env::join_paths([&bin]).expect("path");
        let missing = console_launcher(Some(&path));
        if let Err(e) = &missing {
            assert!(e.contains(&share.display().to_string()), "{e}");
        }
        std::fs::write(share.join(CONSOLE_LAUNCHER), b"PK").expect("write");
        assert_eq!(console_launcher(Some(&path)), Ok(share.join(CONSOLE_LAUNCHER)));
    }
}
