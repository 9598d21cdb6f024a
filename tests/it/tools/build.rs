//! run_tests, get_test_results, maven_goal and maven_update_project for real: Maven offline
//! against Debian's repository (`/usr/share/maven-repo`) on a reactor of a JUnit 5 and a
//! JUnit 4 module (tests/build_fixtures/maven-multi, copied into temp directories): passing,
//! failing with expected/actual, erroring, skipped and parameterized tests, one past the wait
//! budget (a runId, then cancelled: its process tree is gone), one cancelled by the client, a
//! compile error; the trust gate; the goal allowlist; a changed build model; a plain
//! project on javac and the JUnit console launcher; and Debian's Gradle offline on a JUnit 4
//! build (tests/build_fixtures/gradle-junit4): a class, a method, a compile error.

use crate::common;
use common::project::{MAVEN_REPO, Project};

use std::path::Path;
use std::time::{Duration, Instant};

use mcp_java_index::build::runs::Status;
use mcp_java_index::config::{Config, Flags};
use mcp_java_index::model::cancel::Cancel;
use mcp_java_index::tools::build::RunResult;
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::tool::get_test_results::TestResultsArgs;
use mcp_java_index::tools::tool::gradle_task::GradleTaskArgs;
use mcp_java_index::tools::tool::maven_goal::MavenGoalArgs;
use mcp_java_index::tools::tool::maven_update_project::UpdateProjectArgs;
use mcp_java_index::tools::tool::run_tests::RunTestsArgs;

impl Project {
    /// The workspace without a watcher (a run's files change under it).
    fn unwatched(&self, env: &[(&str, &str)]) -> Host {
        self.workspace(&[env, &[("MCP_JAVA_INDEX_WATCH", "false")]].concat())
    }

    /// A trusted workspace that waits long enough for any run of the fixture.
    fn trusted(&self) -> Host {
        self.unwatched(&[("MCP_JAVA_INDEX_TRUST", "1"), ("MCP_JAVA_INDEX_BUILD_WAIT_MS", "600000")])
    }
}

fn tests(target: &str) -> RunTestsArgs {
    RunTestsArgs { target: target.to_owned(), offline: true, ..Default::default() }
}

fn failure<'a>(r: &'a RunResult, test: &str) -> &'a mcp_java_index::build::runs::Failure {
    r.failures.iter().find(|f| f.test == test).unwrap_or_else(|| panic!("no failure {test} in {r:#?}"))
}

/// Processes whose working directory is inside `dir` (Maven, the forked test JVM).
fn processes_in(dir: &Path) -> Vec<i32> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").expect("proc").flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<i32>().ok()) else { continue };
        let zombie = std::fs::read_to_string(e.path().join("stat"))
            .map(|s| s.rsplit(')').next().unwrap_or("").trim_start().starts_with('Z'))
            .unwrap_or(true);
        if !zombie && std::fs::read_link(e.path().join("cwd")).is_ok_and(|c| c.starts_with(dir)) {
            out.push(pid);
        }
    }
    out
}

#[test]
fn an_untrusted_workspace_says_what_would_run_and_runs_nothing() {
    let p = Project::of("build_fixtures", "maven-multi");
    let ws = p.unwatched(&[]);
    let r = mcp_java_index::tools::tool::run_tests::run(&ws, &tests("com.example.core.CalcTest#adds")).expect("answer");
    assert!(!r.ran);
    assert!(r.command.contains("-Dtest=com.example.core.CalcTest#adds"), "{}", r.command);
    assert!(r.command.contains("-pl core -am"), "{}", r.command);
    assert!(r.note.contains("not trusted") && r.note.contains("--trust"), "{}", r.note);
    let g = mcp_java_index::tools::tool::maven_goal::run(
        &ws,
        &MavenGoalArgs { goals: vec!["compile".into()], ..Default::default() },
    )
    .expect("answer");
    assert!(!g.ran && g.command.ends_with(" compile"), "{}", g.command);
    assert!(!p.path("core/target").exists(), "Maven ran in an untrusted workspace");
    // Names Maven would take as options, and targets that name nothing, are refused.
    let bad = mcp_java_index::tools::tool::run_tests::run(
        &ws,
        &RunTestsArgs { properties: [("-X".to_owned(), "1".to_owned())].into_iter().collect(), ..tests("") },
    );
    assert!(bad.is_err());
    let none =
        mcp_java_index::tools::tool::run_tests::run(&ws, &tests("com.example.NoSuchTest")).expect_err("no such test");
    assert!(none.to_string().contains("no test class or package"), "{none}");
}

#[test]
fn maven_tests_answer_counts_failures_expected_actual_and_workspace_frames() {
    let p = Project::of("build_fixtures", "maven-multi");
    let ws = p.trusted();
    let r = mcp_java_index::tools::tool::run_tests::run(&ws, &tests("")).expect("run");
    assert_eq!(r.status, Some(Status::Finished), "{r:#?}");
    let c = r.counts;
    // core: CalcTest (adds, multiplies, dividesByZero, later, addsZero x3) and SlowTest
    // (skipped by its assumption); app: GreeterTest on JUnit 4.
    assert_eq!((c.run, c.passed, c.failed, c.errored, c.skipped), (10, 4, 3, 1, 2), "{r:#?}");
    let m = failure(&r, "com.example.core.CalcTest#multiplies");
    assert_eq!((m.expected.as_deref(), m.actual.as_deref()), (Some("42"), Some("43")));
    assert!(m.output.contains("multiplying 6 by 7"), "{m:?}");
    assert_eq!(m.stack[0].file.as_deref(), Some("core/src/test/java/com/example/core/CalcTest.java"));
    assert_eq!(m.stack[0].line, 21);
    let param = failure(&r, "com.example.core.CalcTest#addsZero{int}[3]");
    assert_eq!((param.expected.as_deref(), param.actual.as_deref()), (Some("4"), Some("3")));
    // The error's first frame is in main code: file and line that java_read_range can open.
    let e = failure(&r, "com.example.core.CalcTest#dividesByZero");
    assert_eq!(e.exception, "java.lang.IllegalStateException");
    assert_eq!(e.stack[0].file.as_deref(), Some("core/src/main/java/com/example/core/Calc.java"));
    assert_eq!(e.stack[0].line, 16);
    assert!(e.frames_omitted > 0, "JUnit's own frames are left out: {e:?}");
    let j4 = failure(&r, "com.example.app.GreeterTest#greetsLoudly");
    assert_eq!(j4.expected.as_deref(), Some("H[ELLO, ADA]"));
    assert!(r.skipped.iter().any(|s| s.ends_with("#later")), "{:?}", r.skipped);
    assert!(Path::new(&r.log).is_file());

    // One method through Maven: only it runs (Surefire's -Dtest with -pl core -am).
    let maven = RunTestsArgs { fast: false, ..tests("com.example.core.CalcTest#adds") };
    let one = mcp_java_index::tools::tool::run_tests::run(&ws, &maven).expect("run");
    assert_eq!((one.path.as_str(), one.counts.run, one.counts.passed), ("maven", 1, 1), "{one:#?}");
    assert!(one.failures.is_empty() && one.command.contains("-Dtest=com.example.core.CalcTest#adds"));

    // The fast path, now that Maven compiled the module: nothing changed, so no javac, only
    // the launcher on the resolved test classpath.
    let fast = mcp_java_index::tools::tool::run_tests::run(&ws, &tests("com.example.core.CalcTest#adds")).expect("run");
    assert_eq!((fast.path.as_str(), fast.counts.run, fast.counts.passed), ("fast", 1, 1), "{fast:#?}");
    assert!(!fast.command.contains("javac"), "{}", fast.command);
    assert!(fast.command.contains("java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC"), "{}", fast.command);
    // After an edit, javac recompiles the changed file and the edit is what runs.
    let test = p.path("core/src/test/java/com/example/core/CalcTest.java");
    let text = std::fs::read_to_string(&test).expect("read");
    std::thread::sleep(Duration::from_millis(20));
    std::fs::write(&test, text.replace("assertEquals(5, calc.add(2, 3));", "assertEquals(6, calc.add(2, 3));"))
        .expect("write");
    let edited =
        mcp_java_index::tools::tool::run_tests::run(&ws, &tests("com.example.core.CalcTest#adds")).expect("run");
    assert_eq!(edited.path, "fast", "{edited:#?}");
    assert!(edited.command.contains("javac (warm") && edited.command.contains("CalcTest.java"), "{}", edited.command);
    let f = failure(&edited, "com.example.core.CalcTest#adds()");
    assert_eq!((f.expected.as_deref(), f.actual.as_deref()), (Some("6"), Some("5")), "{f:?}");
    assert_eq!(f.stack[0].file.as_deref(), Some("core/src/test/java/com/example/core/CalcTest.java"));
    // A compile error on the fast path is javac's, with file and line; nothing runs.
    std::thread::sleep(Duration::from_millis(20));
    std::fs::write(&test, text.replace("assertEquals(5, calc.add(2, 3));", "assertEquals(5, calc.ad(2, 3));"))
        .expect("write");
    let broken =
        mcp_java_index::tools::tool::run_tests::run(&ws, &tests("com.example.core.CalcTest#adds")).expect("run");
    assert_eq!((broken.path.as_str(), broken.counts.run), ("fast", 0), "{broken:#?}");
    let e = &broken.compile_errors[0];
    assert_eq!((e.file.as_str(), e.line), ("core/src/test/java/com/example/core/CalcTest.java", 15), "{broken:#?}");
    assert!(broken.note.contains("compilation failed"), "{}", broken.note);
}

#[test]
fn a_compile_error_is_its_own_answer_for_tests_and_goals() {
    let p = Project::of("build_fixtures", "maven-multi");
    let ws = p.trusted();
    let calc = p.path("core/src/main/java/com/example/core/Calc.java");
    let text = std::fs::read_to_string(&calc).expect("read");
    std::fs::write(&calc, text.replace("return a + b;", "return a + c;")).expect("write");
    let r = mcp_java_index::tools::tool::run_tests::run(&ws, &tests("CalcTest")).expect("run");
    assert_eq!(r.counts.run, 0, "{r:#?}");
    let e = &r.compile_errors[0];
    assert_eq!((e.file.as_str(), e.line), ("core/src/main/java/com/example/core/Calc.java", 6), "{r:#?}");
    assert!(e.message.contains("cannot find symbol"), "{e:?}");
    assert!(r.note.contains("compilation failed"), "{}", r.note);
    assert_ne!(r.exit_code, Some(0));

    // maven_goal: goals off the allowlist are refused with the list; compile gives the same error.
    let refused = mcp_java_index::tools::tool::maven_goal::run(
        &ws,
        &MavenGoalArgs { goals: vec!["exec:java".into()], ..Default::default() },
    );
    let why = refused.expect_err("refused").to_string();
    assert!(why.contains("not allowed") && why.contains("dependency:tree"), "{why}");
    let g = mcp_java_index::tools::tool::maven_goal::run(
        &ws,
        &MavenGoalArgs { goals: vec!["compile".into()], offline: true, module: "core".into(), ..Default::default() },
    )
    .expect("goal");
    assert_eq!(g.exit_code, Some(1), "{g:#?}");
    assert_eq!(g.compile_errors.len(), 1, "{g:#?}");
    assert!(g.errors.iter().any(|e| e.contains("COMPILATION ERROR") || e.contains("Failed to execute goal")), "{g:#?}");
    assert!(!g.log_excerpt.is_empty() && g.command.contains("-pl core -am"), "{g:#?}");
}

#[test]
fn a_run_past_the_budget_answers_a_run_id_and_cancelling_kills_its_process_tree() {
    let p = Project::of("build_fixtures", "maven-multi");
    let ws = p.unwatched(&[("MCP_JAVA_INDEX_TRUST", "1"), ("MCP_JAVA_INDEX_BUILD_WAIT_MS", "1500")]);
    let slow = RunTestsArgs {
        properties: [("fixture.slow".to_owned(), "true".to_owned())].into_iter().collect(),
        ..tests("com.example.core.SlowTest")
    };
    let r = mcp_java_index::tools::tool::run_tests::run(&ws, &slow).expect("run");
    assert_eq!(r.status, Some(Status::Running), "{r:#?}");
    assert!(r.note.contains(&r.run_id) && r.note.contains("get_test_results"), "{}", r.note);
    // Wait until the test JVM sleeps (Maven forked it), then cancel.
    let deadline = Instant::now() + Duration::from_secs(120);
    while !std::fs::read_to_string(&r.log).unwrap_or_default().contains("Running com.example.core.SlowTest") {
        assert!(Instant::now() < deadline, "the slow test never started");
        let again = mcp_java_index::tools::tool::get_test_results::run(
            &ws,
            &TestResultsArgs { run_id: r.run_id.clone(), cancel: false },
        )
        .expect("wait");
        assert_eq!(again.status, Some(Status::Running), "{again:#?}");
    }
    assert!(!processes_in(p.root.path()).is_empty(), "no build process seen");
    let c = mcp_java_index::tools::tool::get_test_results::run(
        &ws,
        &TestResultsArgs { run_id: r.run_id.clone(), cancel: true },
    )
    .expect("cancel");
    assert_eq!(c.status, Some(Status::Cancelled), "{c:#?}");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(processes_in(p.root.path()), Vec::<i32>::new(), "processes survived the cancel");
    assert!(
        mcp_java_index::tools::tool::get_test_results::run(
            &ws,
            &TestResultsArgs { run_id: "test-999".into(), cancel: false }
        )
        .is_err()
    );

    // The client's cancellation (notifications/cancelled sets the call's flag) kills it too.
    let ws = p.trusted();
    let cancel = Cancel::new();
    let flag = cancel.clone();
    let root = p.root.path().to_path_buf();
    let canceller = std::thread::spawn(move || {
        let deadline = Instant::now() + Duration::from_secs(120);
        while processes_in(&root).is_empty() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(100));
        }
        std::thread::sleep(Duration::from_millis(500));
        flag.cancel();
    });
    let r = cancel.scope(|| mcp_java_index::tools::tool::run_tests::run(&ws, &slow)).expect("run");
    canceller.join().expect("thread");
    assert_eq!(r.status, Some(Status::Cancelled), "{r:#?}");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(processes_in(p.root.path()), Vec::<i32>::new(), "processes survived the cancellation");
}

#[test]
fn update_project_says_which_modules_roots_and_dependencies_changed() {
    let t = tempfile::tempdir().expect("tmp");
    let r = t.path();
    let write = |rel: &str, text: &str| {
        let p = r.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    };
    let plugins = "<build><pluginManagement><plugins><plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-dependency-plugin</artifactId><version>3.5.0</version></plugin></plugins></pluginManagement></build>";
    write(
        "pom.xml",
        &format!(
            "<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>top</artifactId><version>1</version><packaging>pom</packaging><modules><module>a</module></modules>{plugins}</project>"
        ),
    );
    let module = |name: &str, deps: &str| {
        format!(
            "<project><modelVersion>4.0.0</modelVersion><parent><groupId>g</groupId><artifactId>top</artifactId><version>1</version></parent><artifactId>{name}</artifactId><dependencies>{deps}</dependencies></project>"
        )
    };
    write("a/pom.xml", &module("a", ""));
    write("a/src/main/java/a/A.java", "package a; public class A {}");
    let p = Project { root: tempfile::tempdir().expect("unused"), cache: tempfile::tempdir().expect("cache") };
    let lookup_cache = p.cache.path().to_string_lossy().into_owned();
    let lookup = |k: &str| -> Option<String> {
        match k {
            "MCP_JAVA_INDEX_CACHE_DIR" => Some(lookup_cache.clone()),
            "MCP_JAVA_INDEX_MAVEN_REPO_LOCAL" => Some(MAVEN_REPO.to_owned()),
            "MCP_JAVA_INDEX_TRUST" => Some("1".to_owned()),
            "MCP_JAVA_INDEX_WATCH" => Some("false".to_owned()),
            _ => None,
        }
    };
    let ws = Host::open(Config::load(&Flags::roots([r]), &lookup).expect("config")).expect("workspace");
    let first =
        mcp_java_index::tools::tool::maven_update_project::run(&ws, &UpdateProjectArgs::default()).expect("update");
    assert!(!first.compared);
    assert_eq!(first.modules, ["top", "a"]);
    assert!(first.unresolved.is_empty(), "{first:#?}");

    // A new module with a source root and a library the repository does not have.
    write(
        "pom.xml",
        &format!(
            "<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>top</artifactId><version>1</version><packaging>pom</packaging><modules><module>a</module><module>b</module></modules>{plugins}</project>"
        ),
    );
    write(
        "b/pom.xml",
        &module(
            "b",
            "<dependency><groupId>org.nowhere</groupId><artifactId>ghost</artifactId><version>1.0</version></dependency>",
        ),
    );
    write("b/src/main/java/b/B.java", "package b; public class B {}");
    let second =
        mcp_java_index::tools::tool::maven_update_project::run(&ws, &UpdateProjectArgs::default()).expect("update");
    assert!(second.compared);
    assert_eq!(second.modules_added, ["b"]);
    assert_eq!(second.source_roots_added, ["b/src/main/java"]);
    assert_eq!(second.dependencies_added, ["b: org.nowhere:ghost:1.0"]);
    assert!(second.modules_removed.is_empty() && second.dependencies_removed.is_empty(), "{second:#?}");
    assert_eq!(second.unresolved.len(), 1, "{second:#?}");
    assert!(
        second.unresolved[0].starts_with("b:") && second.unresolved[0].contains("org.nowhere:ghost"),
        "{second:#?}"
    );
    assert!(second.indexed_changes >= 1, "{second:#?}");
}

#[test]
fn a_plain_project_runs_on_javac_and_the_junit_console_launcher() {
    let p = Project::of("build_fixtures", "plain");
    let ws = p.trusted();
    let r = mcp_java_index::tools::tool::run_tests::run(&ws, &tests("")).expect("run");
    assert_eq!(r.path, "plain");
    assert_eq!(r.status, Some(Status::Finished), "{r:#?}");
    assert_eq!((r.counts.run, r.counts.passed, r.counts.failed), (2, 1, 1), "{r:#?}");
    let f = failure(&r, "com.example.text.WordsTest#initialsAreUpperCase()");
    assert_eq!((f.expected.as_deref(), f.actual.as_deref()), (Some("AL"), Some("al")));
    assert_eq!(f.stack[0].file.as_deref(), Some("test/com/example/text/WordsTest.java"));
    assert!(f.output.is_empty(), "the launcher's report entries are not output: {f:?}");
    assert!(r.note.is_empty(), "failed tests are not a failed build: {}", r.note);
    // One method, by name.
    let one =
        mcp_java_index::tools::tool::run_tests::run(&ws, &tests("com.example.text.WordsTest#counts")).expect("run");
    assert_eq!((one.counts.run, one.counts.passed), (1, 1), "{one:#?}");
    // A compile error: javac's, with file and line.
    let words = p.path("src/com/example/text/Words.java");
    let text = std::fs::read_to_string(&words).expect("read");
    std::fs::write(&words, text.replace("return b.toString();", "return b.toStrin();")).expect("write");
    let broken = mcp_java_index::tools::tool::run_tests::run(&ws, &tests("")).expect("run");
    assert_eq!(broken.counts.run, 0, "{broken:#?}");
    assert_eq!(broken.compile_errors[0].file, "src/com/example/text/Words.java", "{broken:#?}");
    assert_eq!(broken.compile_errors[0].line, 17);
    std::fs::write(&words, text).expect("write");

    // Past the wait, javac's end starts the launcher with nobody waiting: its report appears.
    let ws = p.unwatched(&[("MCP_JAVA_INDEX_TRUST", "1"), ("MCP_JAVA_INDEX_BUILD_WAIT_MS", "1")]);
    let r = mcp_java_index::tools::tool::run_tests::run(&ws, &tests("")).expect("run");
    assert_eq!(r.status, Some(Status::Running), "{r:#?}");
    let reports = p.cache.path().join("runs");
    let report_written = || {
        let mut stack = vec![reports.clone()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
                let path = e.path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.file_name().is_some_and(|n| n.to_string_lossy().starts_with("TEST-")) {
                    return true;
                }
            }
        }
        false
    };
    let deadline = Instant::now() + Duration::from_secs(120);
    while !report_written() {
        assert!(Instant::now() < deadline, "the launcher never ran");
        std::thread::sleep(Duration::from_millis(100));
    }
    let mut done = r;
    while done.status == Some(Status::Running) {
        assert!(Instant::now() < deadline, "the run never ended");
        std::thread::sleep(Duration::from_millis(100));
        done = mcp_java_index::tools::tool::get_test_results::run(
            &ws,
            &TestResultsArgs { run_id: done.run_id.clone(), cancel: false },
        )
        .expect("results");
    }
    assert_eq!(done.counts.run, 2, "{done:#?}");
}

#[test]
fn the_command_line_runs_tests_and_goals_and_waits_for_them() {
    let p = Project::of("build_fixtures", "plain");
    let cache = p.cache.path().to_string_lossy().into_owned();
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-java-index"))
            .args(args)
            .arg("--root")
            .arg(p.root.path())
            .env("MCP_JAVA_INDEX_CACHE_DIR", &cache)
            .env("MCP_JAVA_INDEX_BUILD_WAIT_MS", "500")
            .output()
            .expect("run the binary");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    // Past its 500 ms wait the command line keeps waiting (a CLI has no client timeout).
    let (code, out, _) = run(&["test", "--trust"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("Finished") && out.contains("2 run, 1 passed, 1 failed"), "{out}");
    assert!(out.contains("expected: AL"), "{out}");
    let (code, out, _) = run(&["test", "com.example.text.WordsTest#counts", "--trust", "--json", "--maven"]);
    assert_eq!(code, Some(0), "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!((v["counts"]["run"].as_u64(), v["counts"]["passed"].as_u64()), (Some(1), Some(1)), "{v}");
    let (code, out, _) = run(&["test"]);
    assert_eq!(code, Some(1));
    assert!(out.contains("would run: javac"), "{out}");
    let (code, _, err) = run(&["mvn", "exec:java", "--trust"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("not allowed"), "{err}");
}

/// Over MCP: a `run_tests` call with a `progressToken` hears `notifications/progress` while the
/// run goes on (the server maps the core's progress reports), then gets its answer.
#[test]
fn a_long_call_sends_progress_notifications_to_a_client_that_asked() {
    use std::io::{BufRead, Write};
    let p = Project::of("build_fixtures", "plain");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-java-index"))
        .args(["serve", "--trust", "--no-watch", "--root"])
        .arg(p.root.path())
        .env("MCP_JAVA_INDEX_CACHE_DIR", p.cache.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let lines = [
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}}),
        serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"_meta": {"progressToken": "run"}, "name": "run_tests", "arguments": {"target": ""}}}),
    ];
    for l in &lines {
        writeln!(stdin, "{l}").expect("write");
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().expect("stdout");
    std::thread::spawn(move || {
        for l in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(l).is_err() {
                break;
            }
        }
    });
    let mut seen: Vec<serde_json::Value> = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    while !seen.iter().any(|v| v["id"] == 2) {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = rx.recv_timeout(left).expect("the answer came in time");
        seen.push(serde_json::from_str(&line).expect("json"));
    }
    drop(stdin);
    let _ = child.wait();
    let progress: Vec<&serde_json::Value> = seen.iter().filter(|v| v["method"] == "notifications/progress").collect();
    assert!(!progress.is_empty(), "no progress: {seen:?}");
    assert!(progress.iter().all(|p| p["params"]["progressToken"] == "run"), "{progress:?}");
    assert!(progress[0]["params"]["message"].as_str().is_some_and(|m| m.contains("plain running")), "{progress:?}");
    let answer = seen.iter().find(|v| v["id"] == 2).expect("answer");
    assert_eq!(answer["result"]["structuredContent"]["counts"]["run"], 2, "{answer}");
}

/// Gradle cannot run offline on this machine: a stand-in wrapper (`gradlew`, which a Gradle
/// build carries and `run_tests` prefers) records its arguments and writes the JUnit XML report
/// Gradle writes, so the command and the report reading are checked, not Gradle itself.
#[test]
fn a_gradle_build_runs_its_wrapper_with_the_test_filter_and_its_reports_are_read() {
    let t = tempfile::tempdir().expect("tmp");
    let r = t.path();
    let write = |rel: &str, text: &str| {
        let p = r.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    };
    write("settings.gradle", "rootProject.name = 'g'\ninclude 'app'\n");
    write("app/build.gradle", "plugins { id 'java' }\n");
    write("app/src/test/java/com/x/ATest.java", "package com.x;\nclass ATest {}\n");
    let report = r#"<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="com.x.ATest" tests="1" skipped="0" failures="1" errors="0" time="0.1">
  <testcase name="fails()" classname="com.x.ATest" time="0.1">
    <failure message="org.opentest4j.AssertionFailedError: expected: &lt;1&gt; but was: &lt;2&gt;" type="org.opentest4j.AssertionFailedError">org.opentest4j.AssertionFailedError: expected: &lt;1&gt; but was: &lt;2&gt;
	at app//com.x.ATest.fails(ATest.java:2)
</failure>
  </testcase>
</testsuite>"#;
    write("report.xml", report);
    common::write_executable(
        &r.join("gradlew"),
        "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$(dirname \"$0\")/argv.txt\"\nmkdir -p \"$(dirname \"$0\")/app/build/test-results/test\"\ncp \"$(dirname \"$0\")/report.xml\" \"$(dirname \"$0\")/app/build/test-results/test/TEST-com.x.ATest.xml\"\nexit 1\n",
    );
    let cache = tempfile::tempdir().expect("cache");
    let cache_dir = cache.path().to_string_lossy().into_owned();
    let lookup = |k: &str| -> Option<String> {
        match k {
            "MCP_JAVA_INDEX_CACHE_DIR" => Some(cache_dir.clone()),
            "MCP_JAVA_INDEX_TRUST" => Some("1".to_owned()),
            "MCP_JAVA_INDEX_WATCH" => Some("false".to_owned()),
            "MCP_JAVA_INDEX_BUILD_WAIT_MS" => Some("60000".to_owned()),
            _ => None,
        }
    };
    let ws = Host::open(Config::load(&Flags::roots([r]), &lookup).expect("config")).expect("workspace");
    let res =
        mcp_java_index::tools::tool::run_tests::run(&ws, &RunTestsArgs { offline: true, ..tests("com.x.ATest#fails") })
            .expect("run");
    let argv = std::fs::read_to_string(r.join("argv.txt")).expect("the wrapper ran");
    let argv: Vec<&str> = argv.lines().collect();
    assert_eq!(
        argv,
        [
            "--console=plain",
            "--no-daemon",
            "-p",
            &r.to_string_lossy(),
            "--offline",
            "--continue",
            ":app:test",
            "--tests",
            "com.x.ATest.fails"
        ]
    );
    assert_eq!(res.path, "gradle");
    assert_eq!((res.counts.run, res.counts.failed), (1, 1), "{res:#?}");
    let f = failure(&res, "com.x.ATest#fails()");
    assert_eq!((f.expected.as_deref(), f.actual.as_deref()), (Some("1"), Some("2")));
    assert_eq!(f.stack[0].file.as_deref(), Some("app/src/test/java/com/x/ATest.java"));
    assert!(res.note.is_empty(), "failed tests are not a failed build: {}", res.note);
}

/// Debian's Gradle (4.4.1, patched to run on JDK 17) for real, offline, on a JUnit 4 build
/// whose `flatDir` repository is `/usr/share/java`: one class (expected/actual and the
/// workspace frame of its failure), one method, and `gradle_task` with its allowlist and a
/// compile error (javac's file and line, Gradle's "what went wrong").
#[test]
fn gradle_runs_a_class_a_method_and_a_task_for_real() {
    let p = Project::of("build_fixtures", "gradle-junit4");
    // Gradle's own caches go to a directory of the test, not the user's ~/.gradle.
    let home = tempfile::tempdir().expect("tmp");
    let home_dir = home.path().to_string_lossy().into_owned();
    let ws = p.unwatched(&[
        ("MCP_JAVA_INDEX_TRUST", "1"),
        ("MCP_JAVA_INDEX_BUILD_WAIT_MS", "600000"),
        ("MCP_JAVA_INDEX_GRADLE_USER_HOME", &home_dir),
    ]);
    let class = mcp_java_index::tools::tool::run_tests::run(&ws, &tests("com.example.shapes.SquareTest")).expect("run");
    assert_eq!((class.path.as_str(), class.status), ("gradle", Some(Status::Finished)), "{class:#?}");
    assert!(
        class.command.contains("--no-daemon")
            && class.command.contains(":app:test --tests com.example.shapes.SquareTest"),
        "{}",
        class.command
    );
    let c = class.counts;
    assert_eq!((c.run, c.passed, c.failed), (2, 1, 1), "{class:#?}");
    let f = failure(&class, "com.example.shapes.SquareTest#perimeter");
    assert_eq!((f.expected.as_deref(), f.actual.as_deref()), (Some("8"), Some("6")), "{f:?}");
    assert_eq!(f.stack[0].file.as_deref(), Some("app/src/test/java/com/example/shapes/SquareTest.java"), "{f:?}");
    assert_eq!(f.stack[0].line, 15);
    assert!(class.note.is_empty(), "failed tests are not a failed build: {}", class.note);

    let one =
        mcp_java_index::tools::tool::run_tests::run(&ws, &tests("com.example.shapes.SquareTest#area")).expect("run");
    assert_eq!((one.counts.run, one.counts.passed), (1, 1), "{one:#?}");
    assert!(one.command.ends_with("--tests com.example.shapes.SquareTest.area"), "{}", one.command);

    let refused = mcp_java_index::tools::tool::gradle_task::run(
        &ws,
        &GradleTaskArgs { tasks: vec![":app:run".into()], ..Default::default() },
    );
    let why = refused.expect_err("refused").to_string();
    assert!(why.contains("not allowed") && why.contains("compileJava"), "{why}");
    let square = p.path("app/src/main/java/com/example/shapes/Square.java");
    let text = std::fs::read_to_string(&square).expect("read");
    std::fs::write(&square, text.replace("return side * side;", "return side * sid;")).expect("write");
    let task = GradleTaskArgs { tasks: vec![":app:compileJava".into()], offline: true, ..Default::default() };
    let g = mcp_java_index::tools::tool::gradle_task::run(&ws, &task).expect("task");
    assert_eq!((g.path.as_str(), g.exit_code), ("gradle", Some(1)), "{g:#?}");
    let e = &g.compile_errors[0];
    assert_eq!((e.file.as_str(), e.line), ("app/src/main/java/com/example/shapes/Square.java", 12), "{g:#?}");
    assert!(e.message.contains("cannot find symbol"), "{e:?}");
    assert!(g.errors.iter().any(|l| l.contains("Execution failed for task ':app:compileJava'")), "{g:#?}");
    assert!(!g.log_excerpt.is_empty() && Path::new(&g.log).is_file(), "{g:#?}");
    assert_eq!(processes_in(p.root.path()), Vec::<i32>::new(), "Gradle left processes behind");
}
