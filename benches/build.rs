//! run_tests benchmarks: time to a result for one test method through our tool beside the raw
//! `mvn -o test -Dtest=…` it runs, in the same run and interleaved (so both see the same
//! machine load), on the maven-multi fixture (a reactor of two small modules); the fast path
//! (the launcher on the resolved test classpath; after a one-file edit, javac first); and the
//! plain path (javac + the JUnit console launcher) on the plain fixture. Median of five of each.
//! The times are the build's and the JVMs': `--profile dev` measures the same.
//!
//! `cargo bench --bench build` (needs Maven with Debian's repository in /usr/share/maven-repo,
//! a JDK, and the junit5 package's console launcher).

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use mcp_java_index::build::runs::Status;
use mcp_java_index::config::{Config, Flags};
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::tool::run_tests::RunTestsArgs;

const MAVEN_REPO: &str = "/usr/share/maven-repo";
const RUNS: usize = 5;

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read_dir").flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).expect("copy");
        }
    }
}

/// A 1,000-file Maven project (20 packages of 50 classes calling across packages) with one
/// JUnit 5 test class, on the fixture's plugin versions.
fn generate(root: &Path) {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/build_fixtures/maven-multi");
    let parent = std::fs::read_to_string(fixture.join("pom.xml")).expect("pom");
    let pom = parent
        .replace("<artifactId>multi</artifactId>", "<artifactId>big</artifactId>")
        .replace("<packaging>pom</packaging>", "<packaging>jar</packaging>")
        .replace("<modules>\n    <module>core</module>\n    <module>app</module>\n  </modules>", "")
        .replace(
            "<dependencyManagement>",
            "<dependencies><dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter-engine</artifactId><version>5.9.2</version><scope>test</scope></dependency></dependencies>\n  <dependencyManagement>",
        );
    std::fs::create_dir_all(root).expect("mkdir");
    std::fs::write(root.join("pom.xml"), pom).expect("pom");
    for p in 0..20 {
        let dir = root.join(format!("src/main/java/com/big/p{p}"));
        std::fs::create_dir_all(&dir).expect("mkdir");
        for c in 0..50 {
            let other = (p + 1) % 20;
            let body = format!(
                "package com.big.p{p};\n\nimport com.big.p{other}.C{other}_{c};\n\npublic class C{p}_{c} {{\n    public int size() {{\n        return {c};\n    }}\n\n    public int plus(C{other}_{c} peer) {{\n        return size() + peer.size();\n    }}\n}}\n"
            );
            std::fs::write(dir.join(format!("C{p}_{c}.java")), body).expect("write");
        }
    }
    let test = root.join("src/test/java/com/big/p0");
    std::fs::create_dir_all(&test).expect("mkdir");
    std::fs::write(
        test.join("C0Test.java"),
        "package com.big.p0;\n\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\nimport org.junit.jupiter.api.Test;\n\nclass C0Test {\n    @Test\n    void sizes() {\n        assertEquals(7, new C0_7().size());\n    }\n\n    @Test\n    void plus() {\n        assertEquals(14, new C0_7().plus(new com.big.p1.C1_7()));\n    }\n}\n",
    )
    .expect("write");
}

fn workspace(root: &Path, cache: &Path) -> Host {
    let flags = Flags::roots([root]).set("cache_dir", cache.display());
    let env = |k: &str| match k {
        "MCP_JAVA_INDEX_TRUST" => Some("1".to_owned()),
        "MCP_JAVA_INDEX_MAVEN_REPO_LOCAL" => Some(MAVEN_REPO.to_owned()),
        "MCP_JAVA_INDEX_BUILD_WAIT_MS" => Some("600000".to_owned()),
        "MCP_JAVA_INDEX_WATCH" => Some("false".to_owned()),
        _ => None,
    };
    Host::open(Config::load(&flags, &env).expect("config")).expect("workspace")
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.0} ms", d.as_secs_f64() * 1e3)
}

fn tool_run(ws: &Host, target: &str, path: &str) -> Duration {
    let fast = path != "maven";
    let t = Instant::now();
    let r = mcp_java_index::tools::tool::run_tests::run(
        ws,
        &RunTestsArgs { target: target.to_owned(), offline: true, fast, ..Default::default() },
    )
    .expect("run_tests");
    let d = t.elapsed();
    assert_eq!(r.status, Some(Status::Finished), "{r:?}");
    assert_eq!(r.path, path, "{r:?}");
    assert_eq!((r.counts.run, r.counts.passed), (1, 1), "{r:?}");
    d
}

fn main() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/build_fixtures");
    let scratch = tempfile::tempdir().expect("tempdir");
    let maven = scratch.path().join("maven");
    copy_dir(&fixtures.join("maven-multi"), &maven);
    let ws = workspace(&maven, &scratch.path().join("cache-maven"));
    let method = "com.example.core.CalcTest#adds";
    let raw = || {
        let t = Instant::now();
        let out = Command::new("mvn")
            .current_dir(&maven)
            .args(["-B", "-q", "-o", &format!("-Dmaven.repo.local={MAVEN_REPO}")])
            .args(["-Dtest=com.example.core.CalcTest#adds", "-Dsurefire.failIfNoSpecifiedTests=false"])
            .args(["-DfailIfNoTests=false", "-pl", "core", "-am", "test"])
            .output()
            .expect("mvn");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
        t.elapsed()
    };
    // One of each first: Maven's first start in a fresh tree compiles it.
    let _ = raw();
    let _ = tool_run(&ws, method, "maven");
    let (mut ours, mut theirs, mut fast, mut edited) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let test = maven.join("core/src/test/java/com/example/core/CalcTest.java");
    let text = std::fs::read_to_string(&test).expect("read");
    // Both on the same unchanged tree, alternating.
    for _ in 0..RUNS {
        theirs.push(raw());
        ours.push(tool_run(&ws, method, "maven"));
    }
    for i in 0..RUNS {
        fast.push(tool_run(&ws, method, "fast"));
        // A one-file edit (a comment), then the same method: the warm javac + the launcher.
        std::fs::write(&test, format!("{text}\n// edit {i}\n")).expect("write");
        edited.push(tool_run(&ws, method, "fast"));
    }
    let (o, t) = (median(ours), median(theirs));
    println!("raw mvn -o -q -Dtest={method} -pl core -am test (median of {RUNS}): {}", ms(t));
    println!("run_tests {method}, Maven path (median of {RUNS}): {}", ms(o));
    println!("overhead of the tool over raw mvn: {:+.0} ms", (o.as_secs_f64() - t.as_secs_f64()) * 1e3);
    println!("run_tests {method}, fast path, nothing changed (median of {RUNS}): {}", ms(median(fast)));
    println!("run_tests {method}, fast path after a one-file edit (median of {RUNS}): {}", ms(median(edited)));

    // The edit-test loop on a 1,000-file project: one method after a one-file edit.
    let big = scratch.path().join("big");
    generate(&big);
    let ws = workspace(&big, &scratch.path().join("cache-big"));
    let method = "com.big.p0.C0Test#sizes";
    let t = Instant::now();
    let first = mcp_java_index::tools::tool::run_tests::run(
        &ws,
        &RunTestsArgs { target: method.to_owned(), offline: true, fast: false, ..Default::default() },
    )
    .expect("run_tests");
    assert_eq!(first.counts.passed, 1, "{first:?}");
    println!("1,000-file project: run_tests {method} through Maven, first (compiles everything): {}", ms(t.elapsed()));
    let raw_big = || {
        let t = Instant::now();
        let out = Command::new("mvn")
            .current_dir(&big)
            .args(["-B", "-q", "-o", &format!("-Dmaven.repo.local={MAVEN_REPO}"), &format!("-Dtest={method}"), "test"])
            .output()
            .expect("mvn");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
        t.elapsed()
    };
    let edited_file = big.join("src/main/java/com/big/p0/C0_7.java");
    let text = std::fs::read_to_string(&edited_file).expect("read");
    let (mut raw_runs, mut fast_runs) = (Vec::new(), Vec::new());
    let _ = tool_run(&ws, method, "fast");
    for i in 0..RUNS {
        std::fs::write(&edited_file, format!("{text}\n// edit {i}\n")).expect("write");
        fast_runs.push(tool_run(&ws, method, "fast"));
        std::fs::write(&edited_file, format!("{text}\n// edit {i}b\n")).expect("write");
        raw_runs.push(raw_big());
    }
    println!(
        "1,000-file project: one method after a one-file edit, fast path (median of {RUNS}): {}",
        ms(median(fast_runs))
    );
    println!(
        "1,000-file project: the same, raw mvn -o -q -Dtest={method} test (median of {RUNS}): {}",
        ms(median(raw_runs))
    );

    let plain = scratch.path().join("plain");
    copy_dir(&fixtures.join("plain"), &plain);
    let ws = workspace(&plain, &scratch.path().join("cache-plain"));
    let target = "com.example.text.WordsTest#counts";
    let _ = tool_run(&ws, target, "plain");
    let runs: Vec<Duration> = (0..RUNS).map(|_| tool_run(&ws, target, "plain")).collect();
    println!(
        "run_tests {target} on a plain project, javac + console launcher (median of {RUNS}): {}",
        ms(median(runs))
    );
}
