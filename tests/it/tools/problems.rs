//! get_problems with the real JDK: syntax and javac problems of the fixtures in
//! tests/problem_fixtures (copied into temp directories), an edit seen at once, answers from
//! the cache, a Maven classpath resolved for real from the Debian offline repository, a
//! classpath known to be incomplete, the time budget with background continuation, no JDK,
//! and the command line.

use crate::common;
use common::project::{MAVEN_REPO, Project};

use std::path::{Path, PathBuf};
use std::process::Command;

use mcp_java_index::config::{Config, Flags};
use mcp_java_index::problems::{
    CheckFile, FileState, Problem, ProblemSource, ProblemsEngine, Settings, Severity, Sources,
};
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::tool::get_problems::{LineRange, ProblemsArgs, ProblemsResult};

/// A temp copy of a fixture project and a temp cache directory.
impl Project {
    /// Engine settings for a test that drives `ProblemsEngine` itself: no JDK, no Maven,
    /// untrusted; callers set what they need.
    fn engine_settings(&self) -> Settings {
        Settings {
            cache_dir: self.cache.path().to_path_buf(),
            budget: std::time::Duration::from_secs(60),
            lint: String::new(),
            javac_options: Vec::new(),
            classpath: Vec::new(),
            maven_repo_local: None,
            gradle_user_home: None,
            java_home: None,
            path_env: None,
            max_file_bytes: mji_fs::DEFAULT_MAX_FILE_BYTES,
            trusted: false,
            annotation_processing: false,
            helper_dir: self.cache.path().join("javac-helper"),
        }
    }
}

fn args(paths: &[&str]) -> ProblemsArgs {
    ProblemsArgs { paths: paths.iter().map(|p| (*p).to_owned()).collect(), ..Default::default() }
}

fn of<'a>(r: &'a ProblemsResult, file: &str) -> Vec<&'a Problem> {
    r.diagnostics.iter().filter(|d| d.file.ends_with(file)).collect()
}

fn codes(r: &ProblemsResult, file: &str) -> Vec<String> {
    of(r, file).iter().map(|d| d.code.clone()).collect()
}

#[test]
fn syntax_type_errors_unresolved_symbols_and_warnings() {
    let p = Project::of("problem_fixtures", "plain");
    let ws = p.workspace(&[]);
    let r = mcp_java_index::tools::tool::get_problems::run(&ws, &args(&["src"])).expect("get_problems");
    assert!(r.complete, "{r:?}");
    assert!(r.javac.available, "{:?}", r.javac);
    assert_eq!(r.file_counts.analysed, 5, "{:?}", r.files);
    assert!(r.files.iter().all(|f| f.status == FileState::Analysed));

    // Clean files: analysed, nothing listed. UsesClean resolves Clean through -sourcepath.
    assert!(of(&r, "Clean.java").is_empty(), "{:?}", of(&r, "Clean.java"));

    // Syntax: our parser and javac agree on where the `;` is missing.
    let in_syntax = of(&r, "Syntax.java");
    let syntax: Vec<&&Problem> = in_syntax.iter().filter(|d| d.source == ProblemSource::Syntax).collect();
    assert_eq!(syntax.len(), 1, "{syntax:?}");
    assert_eq!(syntax[0].message, "missing `;` after `int total = a + b`");
    assert_eq!((syntax[0].line, syntax[0].column), (5, 26));
    let javac: Vec<&&Problem> = in_syntax.iter().filter(|d| d.source == ProblemSource::Javac).collect();
    assert_eq!((javac[0].code.as_str(), javac[0].line, javac[0].column), ("compiler.err.expected", 5, 26));

    // Type errors and unresolved symbols, each at its own line with a range.
    let types = codes(&r, "Types.java");
    assert_eq!(
        types,
        [
            "compiler.err.prob.found.req",
            "compiler.err.cant.resolve.location.args",
            "compiler.err.cant.resolve.location"
        ]
    );
    let wrong = of(&r, "Types.java")[0];
    assert_eq!((wrong.line, wrong.range.start.column, wrong.range.end.column), (5, 17, 31));
    assert!(of(&r, "Types.java")[2].message.contains("missingVariable"));

    // Warnings an IDE shows: deprecation, removal, rawtypes, unchecked.
    let warnings = codes(&r, "Warnings.java");
    for code in [
        "compiler.warn.has.been.deprecated",
        "compiler.warn.has.been.deprecated.for.removal",
        "compiler.warn.raw.class.use",
        "compiler.warn.prob.found.req",
    ] {
        assert!(warnings.iter().any(|c| c == code), "{code} not in {warnings:?}");
    }
    assert!(of(&r, "Warnings.java").iter().all(|d| matches!(d.severity, Severity::Warning | Severity::Hint)));

    // Errors sort before warnings.
    let first_warning = r.diagnostics.iter().position(|d| d.severity == Severity::Warning).expect("warnings");
    assert!(r.diagnostics[first_warning..].iter().all(|d| d.severity != Severity::Error));
    assert_eq!(r.total_count as usize, r.diagnostics.len());

    // Filters and paging.
    let only_errors = mcp_java_index::tools::tool::get_problems::run(
        &ws,
        &ProblemsArgs { severity_filter: vec![Severity::Error], ..args(&["src"]) },
    )
    .expect("errors");
    assert!(only_errors.diagnostics.iter().all(|d| d.severity == Severity::Error));
    assert_eq!(only_errors.total_count, r.total_count);
    assert_eq!(only_errors.filtered_count, 5);
    let syntax_only = mcp_java_index::tools::tool::get_problems::run(
        &ws,
        &ProblemsArgs { source_filter: vec![ProblemSource::Syntax], ..args(&["src"]) },
    )
    .expect("syntax");
    // The syntax error, and the hints (unused imports).
    assert_eq!(syntax_only.diagnostics.iter().filter(|d| d.severity != Severity::Hint).count(), 1);
    let lines = mcp_java_index::tools::tool::get_problems::run(
        &ws,
        &ProblemsArgs { line_range: LineRange { start: 11, end: 11 }, ..args(&["src/com/acme/Types.java"]) },
    )
    .expect("lines");
    assert_eq!(lines.filtered_count, 2);
    let page =
        mcp_java_index::tools::tool::get_problems::run(&ws, &ProblemsArgs { limit: 2, offset: 2, ..args(&["src"]) })
            .expect("page");
    assert_eq!(page.diagnostics, r.diagnostics[2..4]);
    assert!(page.has_more);
    let bad = mcp_java_index::tools::tool::get_problems::run(
        &ws,
        &ProblemsArgs { line_range: LineRange { start: 9, end: 3 }, ..args(&["src"]) },
    );
    assert!(bad.expect_err("start after end").to_string().contains("lineRange"));
    let outside = mcp_java_index::tools::tool::get_problems::run(&ws, &args(&["../../etc"])).expect_err("outside");
    assert!(outside.to_string().contains("outside"), "{outside}");
}

#[test]
fn an_edit_is_seen_and_an_unchanged_project_answers_from_the_cache() {
    let p = Project::of("problem_fixtures", "plain");
    let ws = p.workspace(&[]);
    let file = ["src/com/acme/Types.java"];
    let before = mcp_java_index::tools::tool::get_problems::run(&ws, &args(&file)).expect("before");
    assert_eq!(before.diagnostics.len(), 3, "{:?}", before.diagnostics);
    let sent = ws.problems_engine().javac_requests();
    let again = mcp_java_index::tools::tool::get_problems::run(&ws, &args(&file)).expect("again");
    assert_eq!(again.diagnostics, before.diagnostics);
    assert_eq!(ws.problems_engine().javac_requests(), sent, "an unchanged project is answered from the cache");

    // The edit: fix the type error, keep one unresolved symbol.
    let text = std::fs::read_to_string(p.path(file[0])).expect("read");
    let fixed = text.replace("\"not a number\"", "42").replace("c.size()", "c.count()");
    std::fs::write(p.path(file[0]), fixed).expect("write");
    let after = mcp_java_index::tools::tool::get_problems::run(&ws, &args(&file)).expect("after");
    assert_eq!(codes(&after, "Types.java"), ["compiler.err.cant.resolve.location"]);

    // An edit of a file it depends on is seen too: Clean loses count().
    let clean = std::fs::read_to_string(p.path("src/com/acme/Clean.java")).expect("read");
    std::fs::write(p.path("src/com/acme/Clean.java"), clean.replace("public int count()", "public int total()"))
        .expect("write");
    let broken = mcp_java_index::tools::tool::get_problems::run(&ws, &args(&file)).expect("dependency edit");
    assert!(broken.diagnostics.iter().any(|d| d.message.contains("count()")), "{:?}", broken.diagnostics);
}

/// Asks until the answer is complete (Maven resolves the classpath in the background).
fn until_complete(ws: &Host, a: &ProblemsArgs) -> ProblemsResult {
    for _ in 0..60 {
        let r = mcp_java_index::tools::tool::get_problems::run(ws, a).expect("get_problems");
        if r.complete {
            return r;
        }
        for f in r.files.iter().filter(|f| f.status == FileState::TimedOut) {
            let why = f.reason.as_deref().unwrap_or("");
            assert!(why.contains("background"), "{f:?}");
        }
    }
    panic!("get_problems never completed");
}

#[test]
fn a_slow_maven_does_not_hold_the_first_answer() {
    let p = Project::of("problem_fixtures", "maven-app");
    let root = std::fs::canonicalize(p.root.path()).expect("canonical");
    // A stand-in for Maven offline on a cold repository: it takes seconds, then fails. (The
    // real one's timing cannot be reproduced; its resolution is tested above.)
    let bin = tempfile::tempdir().expect("tempdir");
    let mvn = bin.path().join("mvn");
    common::write_executable(&mvn, "#!/bin/sh\nsleep 6\necho '[ERROR] offline: cannot resolve' >&2\nexit 1\n");
    let path = format!("{}:{}", bin.path().display(), std::env::var("PATH").unwrap_or_default());
    let names = root.join("src/main/java/com/example/app/Names.java");
    let text = std::fs::read_to_string(&names).expect("read");
    std::fs::write(&names, text.replacen("{", "{ int broken = ;", 1)).expect("write");
    let settings = Settings {
        maven_repo_local: Some(MAVEN_REPO.into()),
        java_home: std::env::var_os("JAVA_HOME").map(PathBuf::from),
        path_env: Some(path.into()),
        trusted: true,
        ..p.engine_settings()
    };
    let engine = std::sync::Arc::new(ProblemsEngine::new(settings, vec![root.clone()]));
    let target = CheckFile { path: names, display: "Names.java".to_owned() };
    let sources = Sources { syntax: true, javac: true };
    // The first answer: syntax problems at once, javac's later, said so.
    let first = engine.check(std::slice::from_ref(&target), sources, None);
    assert!(!first.complete, "{:?} {:?}", first.files, first.javac);
    assert_eq!(first.files[0].status, FileState::TimedOut, "{:?}", first.files);
    assert!(first.files[0].reason.as_deref().is_some_and(|r| r.contains("classpath is being resolved")));
    assert!(first.problems.iter().any(|d| d.source == ProblemSource::Syntax), "{:?}", first.problems);
    // Once Maven has failed, the pom's dependencies serve, marked incomplete.
    let mut last = first;
    for _ in 0..30 {
        if last.complete {
            break;
        }
        last = engine.check(std::slice::from_ref(&target), sources, None);
    }
    assert!(last.complete, "{:?}", last.files);
    assert!(!last.javac.classpath_complete);
    assert!(last.javac.classpath_notes.iter().any(|n| n.contains("offline: cannot resolve")), "{:?}", last.javac);
    assert!(last.problems.iter().any(|d| d.source == ProblemSource::Javac), "{:?}", last.problems);
}

#[test]
fn maven_classpath_is_resolved_for_real() {
    let p = Project::of("problem_fixtures", "maven-app");
    // Running Maven needs a trusted workspace.
    let ws = p.workspace(&[("MCP_JAVA_INDEX_TRUST", "1")]);
    let r = until_complete(&ws, &args(&[]));
    assert!(r.javac.classpath_complete, "{:?}", r.javac);
    assert!(r.javac.classpath_notes.iter().any(|n| n.contains("from Maven")), "{:?}", r.javac);
    // commons-lang3 (compile scope) and junit-jupiter (test scope) resolve: no problems.
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    assert_eq!(r.file_counts.analysed, 2);

    let names = p.path("src/main/java/com/example/app/Names.java");
    let text = std::fs::read_to_string(&names).expect("read");
    std::fs::write(&names, text.replace("StringUtils.upperCase(", "StringUtils.upperCse(")).expect("write");
    let r = mcp_java_index::tools::tool::get_problems::run(&ws, &args(&["src/main/java"])).expect("typo");
    assert_eq!(codes(&r, "Names.java"), ["compiler.err.cant.resolve.location.args"]);
    assert!(r.diagnostics[0].message.contains("upperCse"));
    assert_eq!(r.diagnostics[0].cause, None, "a real error, not a missing library");
}

/// A main file is checked against the main classpath, as `mvn compile` compiles it: a
/// test-scoped library (JUnit) and the test sources are not on it, while a test file sees
/// both. With Maven (`-DincludeScope=compile` and `test`), and from the pom's scopes when
/// Maven does not run (an untrusted workspace).
#[test]
fn main_sources_see_neither_test_scoped_libraries_nor_test_sources() {
    let p = Project::of("problem_fixtures", "maven-app");
    std::fs::write(
        p.path("src/main/java/com/example/app/UsesJUnit.java"),
        "package com.example.app;\n\nimport org.junit.jupiter.api.Test;\n\nclass UsesJUnit {\n    NamesTest test;\n}\n",
    )
    .expect("write");
    for trusted in [true, false] {
        let ws = p.workspace(if trusted { &[("MCP_JAVA_INDEX_TRUST", "1")] } else { &[] });
        let r = until_complete(&ws, &args(&[]));
        assert_eq!(r.javac.classpath_complete, trusted, "{:?}", r.javac);
        let found: Vec<(String, u32)> = of(&r, "UsesJUnit.java")
            .iter()
            .filter(|d| d.severity != Severity::Hint)
            .map(|d| (d.code.clone(), d.line))
            .collect();
        assert_eq!(
            found,
            [("compiler.err.doesnt.exist".to_owned(), 3), ("compiler.err.cant.resolve.location".to_owned(), 6)],
            "trusted: {trusted}; {:?}",
            r.diagnostics
        );
        assert!(of(&r, "UsesJUnit.java")[0].message.contains("org.junit.jupiter.api"), "{:?}", r.diagnostics);
        // The test file still compiles against JUnit and the main sources.
        let in_test: Vec<_> = of(&r, "NamesTest.java").into_iter().filter(|d| d.severity == Severity::Error).collect();
        assert!(in_test.is_empty(), "trusted: {trusted}; {in_test:?}");
        if trusted {
            let notes = &r.javac.classpath_notes;
            assert!(notes.iter().any(|n| n.contains("main (compile scope) classpath from Maven")), "{notes:?}");
            assert!(notes.iter().any(|n| n.contains("test classpath from Maven")), "{notes:?}");
        }
    }
}

#[test]
fn an_incomplete_classpath_is_said_and_missing_libraries_kept_apart() {
    let p = Project::of("problem_fixtures", "maven-app");
    // A dependency the offline repository does not have: Maven fails, the pom's direct
    // dependencies are used, and the classpath is marked incomplete.
    let pom = std::fs::read_to_string(p.path("pom.xml")).expect("pom");
    let extra = "<dependency><groupId>com.example.absent</groupId><artifactId>absent</artifactId><version>9.9</version></dependency>\n    <dependency>";
    std::fs::write(p.path("pom.xml"), pom.replacen("<dependency>", extra, 1)).expect("write pom");
    let user = p.path("src/main/java/com/example/app/UsesAbsent.java");
    std::fs::write(
        &user,
        "package com.example.app;\n\nimport com.example.absent.Thing;\n\nclass UsesAbsent {\n    Thing t;\n    int n = \"x\";\n}\n",
    )
    .expect("write");
    let ws = p.workspace(&[("MCP_JAVA_INDEX_TRUST", "1")]);
    let r = until_complete(&ws, &args(&["src/main/java"]));
    assert!(!r.javac.classpath_complete, "{:?}", r.javac);
    assert!(r.javac.classpath_notes.iter().any(|n| n.contains("com.example.absent:absent")), "{:?}", r.javac);
    let found = of(&r, "UsesAbsent.java");
    let missing: Vec<_> = found.iter().filter(|d| d.cause.as_deref() == Some("missing-dependency")).collect();
    assert_eq!(missing.len(), 2, "package and type: {found:?}");
    let real: Vec<_> = found.iter().filter(|d| d.cause.is_none()).collect();
    assert_eq!(real.len(), 1, "{found:?}");
    assert_eq!(real[0].code, "compiler.err.prob.found.req");
    // Names.java still compiles: commons-lang3 was found in the repository.
    assert!(of(&r, "Names.java").is_empty(), "{:?}", of(&r, "Names.java"));
    // The category is counted, with why and what to do (issue 32, item 7)...
    let summary = r.missing_dependencies.clone().expect("a summary of the category");
    assert_eq!(summary.count, 2, "{summary:?}");
    assert!(
        summary.reason.contains("classpath is incomplete") && summary.reason.contains("classpathNotes"),
        "{summary:?}"
    );
    assert!(summary.remedy.contains("maven_update_project") && summary.remedy.contains("\"exclude\""), "{summary:?}");
    // ... and filtered: the file's own problems alone, or the category alone.
    use mcp_java_index::problems::MissingDependencies;
    let own = mcp_java_index::tools::tool::get_problems::run(
        &ws,
        &ProblemsArgs { missing_dependencies: MissingDependencies::Exclude, ..args(&["src/main/java"]) },
    )
    .expect("own problems");
    assert_eq!(codes(&own, "UsesAbsent.java"), ["compiler.err.prob.found.req"], "{:?}", own.diagnostics);
    assert_eq!((own.filtered_count, own.missing_dependencies.map(|m| m.count)), (1, Some(2)));
    let only = mcp_java_index::tools::tool::get_problems::run(
        &ws,
        &ProblemsArgs { missing_dependencies: MissingDependencies::Only, ..args(&["src/main/java"]) },
    )
    .expect("the category");
    assert_eq!(only.diagnostics.len(), 2, "{:?}", only.diagnostics);
    assert!(only.diagnostics.iter().all(|d| d.is_missing_dependency()), "{:?}", only.diagnostics);
}

/// A Gradle multi-project as issue 13 met it: modules without scripts of their own, one root
/// script configuring them all, a `<name>.gradle` script, a `projectDir` moved elsewhere, a
/// version catalog, and a Gradle cache (here fake: real jars from the Debian repository in
/// `caches/modules-2/files-2.1` layout) whose POMs name further libraries found in the Maven
/// local repository.
fn gradle_project() -> (tempfile::TempDir, tempfile::TempDir) {
    let root = tempfile::tempdir().expect("tempdir");
    let home = tempfile::tempdir().expect("tempdir");
    let r = root.path();
    let w = |rel: &str, text: &str| common::write(r, rel, text);
    w(
        "settings.gradle",
        "rootProject.name = 'demo'\n// include 'ghost'\ninclude 'core', 'app'\ninclude(\n  ':libs:util'\n)\ninclude ':legacy'\nproject(':legacy').projectDir = file('old/legacy-code')\n",
    );
    w(
        "build.gradle",
        "plugins { id 'java-library' }\nsubprojects {\n  apply plugin: 'java-library'\n  description = \"the api of a module\"\n  dependencies {\n    implementation libs.commons.lang3\n    testImplementation(libs.junit.api)\n    runtimeOnly 'org.example:runtime-only:1.0'\n  }\n}\n",
    );
    w(
        "gradle/libs.versions.toml",
        "[versions]\ncommons = \"3.12.0\"\njunit = \"5.9.2\"\n\n[libraries]\ncommons-lang3 = { module = \"org.apache.commons:commons-lang3\", version.ref = \"commons\" }\njunit-api = { group = \"org.junit.jupiter\", name = \"junit-jupiter-api\", version.ref = \"junit\" }\n",
    );
    w("app/app.gradle", "dependencies {\n  implementation project(':core')\n}\n");
    w(
        "core/src/main/java/demo/core/Strings.java",
        "package demo.core;\n\nimport org.apache.commons.lang3.StringUtils;\n\npublic final class Strings {\n    public static String shout(String s) {\n        return StringUtils.upperCase(s);\n    }\n}\n",
    );
    w(
        "app/src/main/java/demo/app/App.java",
        "package demo.app;\n\nimport demo.core.Strings;\nimport demo.util.Util;\nimport org.apache.commons.lang3.StringUtils;\n\npublic class App {\n    public String run(String s) {\n        return Strings.shout(StringUtils.trim(s)) + Util.twice(1);\n    }\n}\n",
    );
    w(
        "app/src/main/java/demo/app/Broken.java",
        "package demo.app;\n\nimport demo.core.Strings;\n\nclass Broken {\n    int n = \"not a number\";\n    String s = Strings.whisper(\"x\");\n}\n",
    );
    w(
        "app/src/test/java/demo/app/AppTest.java",
        "package demo.app;\n\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\nimport org.junit.jupiter.api.Test;\n\nclass AppTest {\n    @Test\n    void runs() {\n        assertEquals(\"A2\", new App().run(\" a \"));\n    }\n}\n",
    );
    w(
        "libs/util/src/main/java/demo/util/Util.java",
        "package demo.util;\n\npublic final class Util {\n    public static int twice(int n) {\n        return 2 * n;\n    }\n}\n",
    );
    w(
        "old/legacy-code/src/main/java/demo/legacy/Legacy.java",
        "package demo.legacy;\n\nimport demo.util.Util;\nimport org.apache.commons.lang3.math.NumberUtils;\n\nclass Legacy {\n    int four = Util.twice(NumberUtils.toInt(\"2\"));\n}\n",
    );
    // The fake Gradle cache: commons-lang3 and junit-jupiter-api (with its POM, whose
    // dependencies come from the Maven repository).
    for (group, name, version) in
        [("org.apache.commons", "commons-lang3", "3.12.0"), ("org.junit.jupiter", "junit-jupiter-api", "5.9.2")]
    {
        let dir = home.path().join("caches/modules-2/files-2.1").join(group).join(name).join(version);
        let from = Path::new(MAVEN_REPO).join(group.replace('.', "/")).join(name).join(version);
        for (ext, hash) in [("jar", "0a1b2c"), ("pom", "3d4e5f")] {
            let file = format!("{name}-{version}.{ext}");
            std::fs::create_dir_all(dir.join(hash)).expect("mkdir");
            std::fs::copy(from.join(&file), dir.join(hash).join(&file)).expect("copying a Debian jar");
        }
    }
    (root, home)
}

fn gradle_workspace(root: &Path, home: &Path, cache: &Path) -> Host {
    let (cache, home) = (cache.to_string_lossy().into_owned(), home.to_string_lossy().into_owned());
    let lookup = |k: &str| -> Option<String> {
        match k {
            "MCP_JAVA_INDEX_CACHE_DIR" => Some(cache.clone()),
            "MCP_JAVA_INDEX_MAVEN_REPO_LOCAL" => Some(MAVEN_REPO.to_owned()),
            "MCP_JAVA_INDEX_GRADLE_USER_HOME" => Some(home.clone()),
            _ => None,
        }
    };
    Host::open(Config::load(&Flags::roots([root]), &lookup).expect("config")).expect("workspace")
}

#[test]
fn gradle_multi_project_is_read_from_its_files() {
    let (root, home) = gradle_project();
    let cache = tempfile::tempdir().expect("tempdir");
    let ws = gradle_workspace(root.path(), home.path(), cache.path());
    let r = mcp_java_index::tools::tool::get_problems::run(&ws, &args(&[])).expect("whole build");
    assert!(r.javac.available, "{:?}", r.javac);
    assert_eq!(r.file_counts.analysed, 6, "{:?}", r.files);
    // Every file that compiles upstream is clean; the planted errors are found exactly.
    let found: Vec<(String, u32, String)> = r
        .diagnostics
        .iter()
        .map(|d| (d.file.rsplit('/').next().unwrap_or("").to_owned(), d.line, d.code.clone()))
        .collect();
    assert_eq!(
        found,
        [
            ("Broken.java".to_owned(), 6, "compiler.err.prob.found.req".to_owned()),
            ("Broken.java".to_owned(), 7, "compiler.err.cant.resolve.location.args".to_owned()),
        ],
        "{:?}",
        r.diagnostics
    );
    assert!(r.javac.classpath_complete, "{:?}", r.javac);
    let notes = r.javac.classpath_notes.join("\n");
    assert!(notes.contains("Gradle build read from its files, not run (5 modules"), "{notes}");
    assert!(!notes.contains("runtime-only"), "runtimeOnly is not on a compile classpath: {notes}");

    // The same question gives the same answer whatever was asked before (a fresh server
    // asked in the other order).
    let legacy = ["old/legacy-code/src/main/java/demo/legacy/Legacy.java"];
    let test = ["app/src/test/java/demo/app/AppTest.java"];
    let cache2 = tempfile::tempdir().expect("tempdir");
    let other = gradle_workspace(root.path(), home.path(), cache2.path());
    let a = (
        mcp_java_index::tools::tool::get_problems::run(&ws, &args(&legacy)).expect("a"),
        mcp_java_index::tools::tool::get_problems::run(&ws, &args(&test)).expect("b"),
    );
    let b = (
        mcp_java_index::tools::tool::get_problems::run(&other, &args(&test)).expect("b"),
        mcp_java_index::tools::tool::get_problems::run(&other, &args(&legacy)).expect("a"),
    );
    assert_eq!((&a.0.diagnostics, &a.1.diagnostics), (&b.1.diagnostics, &b.0.diagnostics));
    assert!(a.0.diagnostics.is_empty() && a.1.diagnostics.is_empty(), "{:?} {:?}", a.0.diagnostics, a.1.diagnostics);
}

#[test]
fn gradle_libraries_not_found_are_named_and_marked() {
    let (root, home) = gradle_project();
    common::write(
        root.path(),
        "app/app.gradle",
        "dependencies {\n  implementation project(':core')\n  api 'com.example.absent:absent:9.9'\n  implementation gradleApi()\n  implementation files('../../../../etc')\n}\n",
    );
    common::write(
        root.path(),
        "app/src/main/java/demo/app/UsesAbsent.java",
        "package demo.app;\n\nimport com.example.absent.Thing;\n\nclass UsesAbsent {\n    Thing t;\n}\n",
    );
    let cache = tempfile::tempdir().expect("tempdir");
    let ws = gradle_workspace(root.path(), home.path(), cache.path());
    let r = mcp_java_index::tools::tool::get_problems::run(&ws, &args(&["app/src/main/java/demo/app/UsesAbsent.java"]))
        .expect("check");
    assert!(!r.javac.classpath_complete, "{:?}", r.javac);
    let notes = r.javac.classpath_notes.join("\n");
    assert!(notes.contains("not found: com.example.absent:absent:9.9"), "{notes}");
    assert!(notes.contains("gradleApi()"), "{notes}");
    assert!(notes.contains("files('../../../../etc') (outside the module)"), "{notes}");
    assert!(r.diagnostics.iter().all(|d| d.cause.as_deref() == Some("missing-dependency")), "{:?}", r.diagnostics);
    assert_eq!(r.diagnostics.len(), 2, "{:?}", r.diagnostics);
}

#[test]
fn a_javac_crash_names_its_file_and_the_others_are_still_checked() {
    let p = Project::of("problem_fixtures", "plain");
    // 20,000 nested parentheses: javac 17 throws StackOverflowError on this file.
    let deep =
        format!("package com.acme;\n\nclass Deep {{\n    int x = {}1{};\n}}\n", "(".repeat(20_000), ")".repeat(20_000));
    std::fs::write(p.path("src/com/acme/Deep.java"), deep).expect("write");
    let ws = p.workspace(&[]);
    let r = mcp_java_index::tools::tool::get_problems::run(&ws, &args(&["src"])).expect("get_problems");
    assert!(r.javac.available, "{:?}", r.javac);
    let deep = r.files.iter().find(|f| f.file.ends_with("Deep.java")).expect("Deep.java reported");
    assert_eq!(deep.status, FileState::SyntaxOnly, "{deep:?}");
    let why = deep.reason.as_deref().unwrap_or("");
    assert!(why.contains("javac crashed on this file") && why.contains("StackOverflowError"), "{why}");
    assert!(r.javac.reason.as_deref().is_some_and(|w| w.contains("Deep.java")), "{:?}", r.javac);
    // The other files were checked, in the same call, with their usual answers.
    assert_eq!(r.file_counts.analysed, 5, "{:?}", r.files);
    assert_eq!(codes(&r, "Types.java").len(), 3, "{:?}", r.diagnostics);
    // And the helper serves the next request.
    let again =
        mcp_java_index::tools::tool::get_problems::run(&ws, &args(&["src/com/acme/Clean.java"])).expect("again");
    assert_eq!(again.file_counts.analysed, 1, "{:?}", again.files);
}

#[test]
fn a_check_past_its_budget_finishes_in_the_background() {
    let p = Project::of("problem_fixtures", "plain");
    let ws = p.workspace(&[("MCP_JAVA_INDEX_PROBLEMS_BUDGET_MS", "0")]);
    let first = mcp_java_index::tools::tool::get_problems::run(&ws, &args(&[])).expect("first");
    assert!(!first.complete, "a zero budget cannot wait for a cold JVM");
    assert!(first.file_counts.timed_out > 0);
    let timed_out = first.files.iter().find(|f| f.status == FileState::TimedOut).expect("timed-out file");
    assert!(timed_out.reason.as_deref().is_some_and(|r| r.contains("background")));
    // Syntax problems are there at once.
    assert!(first.diagnostics.iter().any(|d| d.source == ProblemSource::Syntax));
    let mut last = first;
    for _ in 0..1200 {
        if last.complete {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
        last = mcp_java_index::tools::tool::get_problems::run(&ws, &args(&[])).expect("again");
    }
    assert!(last.complete, "the background check never finished");
    let full = mcp_java_index::tools::tool::get_problems::run(&p.workspace(&[]), &args(&[])).expect("full");
    assert_eq!(last.diagnostics, full.diagnostics);
}

#[test]
fn without_a_jdk_javac_is_unavailable_and_syntax_still_works() {
    let p = Project::of("problem_fixtures", "plain");
    let root = std::fs::canonicalize(p.root.path()).expect("canonical");
    let settings = Settings { path_env: Some("/nonexistent".into()), ..p.engine_settings() };
    let engine = std::sync::Arc::new(ProblemsEngine::new(settings, vec![root.clone()]));
    let target = CheckFile { path: root.join("src/com/acme/Syntax.java"), display: "Syntax.java".to_owned() };
    let r = engine.check(&[target], Sources { syntax: true, javac: true }, None);
    assert!(!r.javac.available);
    assert!(r.javac.reason.as_deref().is_some_and(|w| w.contains("no JDK found")), "{:?}", r.javac);
    assert_eq!(r.files[0].status, FileState::SyntaxOnly);
    assert_eq!(r.problems.len(), 1);
    assert_eq!(r.problems[0].source, ProblemSource::Syntax);
}

fn cli(root: &Path, cache: &Path, args: &[&str], path_env: Option<&str>) -> (i32, serde_json::Value, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mcp-java-index"));
    cmd.arg("problems").args(args).current_dir(root).env("MCP_JAVA_INDEX_CACHE_DIR", cache);
    if let Some(p) = path_env {
        cmd.env("PATH", p).env_remove("JAVA_HOME");
    }
    let o = cmd.output().expect("running the binary");
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    let v = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("stdout is JSON ({e}): {stderr}"));
    (o.status.code().unwrap_or(-1), v, stderr)
}

#[test]
fn command_line_problems_with_filters_and_without_a_jdk() {
    let p = Project::of("problem_fixtures", "plain");
    let (code, v, err) = cli(p.root.path(), p.cache.path(), &["src/com/acme/Types.java", "--severity", "Error"], None);
    assert_eq!(code, 1, "errors exit 1: {err}");
    assert_eq!(v["filteredCount"], 3, "{v}");
    assert_eq!(v["complete"], true);
    assert_eq!(v["diagnostics"][0]["code"], "compiler.err.prob.found.req");
    let (code, v, _) = cli(p.root.path(), p.cache.path(), &["src/com/acme/Clean.java"], None);
    assert_eq!(code, 0);
    assert_eq!(v["diagnostics"], serde_json::json!([]));
    assert_eq!(v["files"][0]["status"], "analysed");
    // The missing-dependency category as a flag (any case): this project's classpath is
    // complete, so the category alone is empty and leaving it out changes nothing.
    let only = ["src/com/acme/Types.java", "--severity", "Error", "--missing-dependencies", "ONLY"];
    let (code, v, err) = cli(p.root.path(), p.cache.path(), &only, None);
    assert_eq!((code, v["filteredCount"].as_u64()), (0, Some(0)), "{err} {v}");
    let exclude = ["src/com/acme/Types.java", "--severity", "Error", "--missing-dependencies", "exclude"];
    let (_, v, _) = cli(p.root.path(), p.cache.path(), &exclude, None);
    assert_eq!(v["filteredCount"], 3, "{v}");

    // Without a JDK, asking for javac's problems is an error that says how to fix it (an empty
    // list once read as "no problems"); syntax problems alone still answer.
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mcp-java-index"));
    let o = cmd
        .args(["problems", "src", "--source", "syntax,javac"])
        .current_dir(p.root.path())
        .env("MCP_JAVA_INDEX_CACHE_DIR", p.cache.path())
        .env("PATH", "/nonexistent")
        .env_remove("JAVA_HOME")
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && o.stdout.is_empty(), "{err}");
    assert!(err.contains("no JDK found") && err.contains("--source syntax"), "{err}");
    let (code, v, err) = cli(p.root.path(), p.cache.path(), &["src", "--source", "syntax"], Some("/nonexistent"));
    assert_eq!(code, 1, "the syntax error exits 1: {err}");
    assert_eq!(v["fileCounts"]["analysed"], 5, "{v}");
    // The one syntax error, and hints (unused imports) after it.
    let errors = v["diagnostics"].as_array().map(|d| d.iter().filter(|d| d["severity"] != "Hint").count());
    assert_eq!(errors, Some(1), "{v}");
    assert_eq!(v["diagnostics"][0]["source"], "syntax");
}

/// Main and test source sets have classpaths of their own: a main file does not see a
/// `testImplementation` library (javac under Gradle would refuse it), a test file does; an
/// `api` library from the version catalog reaches the modules that use its module; and the
/// answers do not depend on which file was asked first.
#[test]
fn gradle_main_files_do_not_see_test_libraries() {
    let (root, home) = gradle_project();
    let r = root.path();
    common::write(
        r,
        "gradle/libs.versions.toml",
        "[versions]\ncommons = \"3.12.0\"\njunit = \"5.9.2\"\n\n[libraries]\ncommons-lang3 = { module = \"org.apache.commons:commons-lang3\", version.ref = \"commons\" }\njunit-api = { group = \"org.junit.jupiter\", name = \"junit-jupiter-api\", version.ref = \"junit\" }\ncommons-io = \"commons-io:commons-io:2.11.0\"\n",
    );
    common::write(r, "core/core.gradle", "dependencies {\n  api libs.commons.io\n}\n");
    let dir = home.path().join("caches/modules-2/files-2.1/commons-io/commons-io/2.11.0/77aa1b");
    std::fs::create_dir_all(&dir).expect("mkdir");
    for ext in ["jar", "pom"] {
        let file = format!("commons-io-2.11.0.{ext}");
        std::fs::copy(Path::new(MAVEN_REPO).join("commons-io/commons-io/2.11.0").join(&file), dir.join(&file))
            .expect("copying a Debian jar");
    }
    common::write(
        r,
        "app/src/main/java/demo/app/Names.java",
        "package demo.app;\n\nimport org.apache.commons.io.FilenameUtils;\n\nclass Names {\n    String base(String p) {\n        return FilenameUtils.getBaseName(p);\n    }\n}\n",
    );
    common::write(
        r,
        "app/src/main/java/demo/app/UsesJunit.java",
        "package demo.app;\n\nimport org.junit.jupiter.api.Assertions;\n\nclass UsesJunit {\n    void check() {\n        Assertions.fail(\"main code\");\n    }\n}\n",
    );
    let main = ["app/src/main/java/demo/app/UsesJunit.java", "app/src/main/java/demo/app/Names.java"];
    let test = ["app/src/test/java/demo/app/AppTest.java"];
    let diagnostics = |r: &ProblemsResult| -> Vec<(String, u32, String)> {
        r.diagnostics
            .iter()
            .map(|d| (d.file.rsplit('/').next().unwrap_or("").to_owned(), d.line, d.code.clone()))
            .collect()
    };
    let (c1, c2) = (tempfile::tempdir().expect("tempdir"), tempfile::tempdir().expect("tempdir"));
    let first = gradle_workspace(r, home.path(), c1.path());
    let (a_main, a_test) = (
        mcp_java_index::tools::tool::get_problems::run(&first, &args(&main)).expect("main"),
        mcp_java_index::tools::tool::get_problems::run(&first, &args(&test)).expect("test"),
    );
    let other = gradle_workspace(r, home.path(), c2.path());
    let (b_test, b_main) = (
        mcp_java_index::tools::tool::get_problems::run(&other, &args(&test)).expect("test"),
        mcp_java_index::tools::tool::get_problems::run(&other, &args(&main)).expect("main"),
    );
    for (m, t) in [(&a_main, &a_test), (&b_main, &b_test)] {
        assert!(m.javac.available && m.javac.classpath_complete, "{:?}", m.javac);
        assert_eq!(
            diagnostics(m),
            [
                ("UsesJunit.java".to_owned(), 3, "compiler.err.doesnt.exist".to_owned()),
                ("UsesJunit.java".to_owned(), 7, "compiler.err.cant.resolve.location".to_owned()),
            ],
            "{:?}",
            m.diagnostics
        );
        assert!(t.diagnostics.is_empty(), "the test source set sees junit: {:?}", t.diagnostics);
    }
}

/// A class outside the workspace whose constant a build file would leak through javac:
/// `1/(sec.Secret.K-42)` warns `division by zero` exactly when K is 42 and Secret is compiled.
const SECRET: &str = "package sec;\n\npublic final class Secret {\n    public static final int K = 42;\n}\n";
const PROBE: &str = "package app;\n\nclass Probe {\n    int x = 1 / (sec.Secret.K - 42);\n}\n";

/// Whether javac saw the outside class: its constant folded into a division by zero.
fn leaked(r: &ProblemsResult) -> bool {
    r.diagnostics.iter().any(|d| d.code.contains("div.zero"))
}

#[test]
fn a_pom_source_directory_outside_the_workspace_is_left_out_and_said() {
    let t = tempfile::tempdir().expect("tempdir");
    let (root, secret) = (t.path().join("a/ws"), t.path().join("secret"));
    common::write(&secret, "sec/Secret.java", SECRET);
    // A parent outside, whose property would name a library the notes then show missing.
    common::write(
        &secret,
        "pom.xml",
        "<project><groupId>g</groupId><artifactId>outside</artifactId><version>1</version><properties><k>42</k></properties></project>",
    );
    common::write(
        &root,
        "pom.xml",
        "<project><modelVersion>4.0.0</modelVersion><parent><groupId>g</groupId><artifactId>outside</artifactId><version>1</version><relativePath>../../secret/pom.xml</relativePath></parent><artifactId>app</artifactId><dependencies><dependency><groupId>leak</groupId><artifactId>k-is-${k}</artifactId><version>1</version></dependency></dependencies><build><sourceDirectory>../../secret</sourceDirectory></build></project>",
    );
    common::write(&root, "src/test/java/app/Probe.java", PROBE);
    let cache = tempfile::tempdir().expect("tempdir");
    let lookup = |k: &str| match k {
        "MCP_JAVA_INDEX_CACHE_DIR" => Some(cache.path().to_string_lossy().into_owned()),
        "MCP_JAVA_INDEX_MAVEN_REPO_LOCAL" => Some(MAVEN_REPO.to_owned()),
        _ => None,
    };
    let ws = Host::open(Config::load(&Flags::roots([&root]), &lookup).expect("config")).expect("workspace");
    let r = until_complete(&ws, &args(&["src/test/java/app/Probe.java"]));
    assert!(r.javac.available, "{:?}", r.javac);
    assert!(!leaked(&r), "the outside source root was compiled: {:?}", r.diagnostics);
    assert!(r.diagnostics.iter().any(|d| d.code.starts_with("compiler.err")), "{:?}", r.diagnostics);
    let notes = r.javac.classpath_notes.join("\n");
    assert!(
        notes.contains("left out `../../secret` (pom.xml sourceDirectory): it is outside the workspace roots"),
        "{notes}"
    );
    assert!(
        notes.contains(
            "left out `../../secret/pom.xml` (pom.xml parent relativePath): it is outside the workspace roots"
        ),
        "{notes}"
    );
    assert!(!notes.contains("k-is-42"), "{notes}");
}

#[test]
fn a_gradle_include_flat_outside_the_workspace_is_left_out_and_said() {
    let t = tempfile::tempdir().expect("tempdir");
    let (root, secret) = (t.path().join("ws"), t.path().join("secret"));
    common::write(&secret, "src/main/java/sec/Secret.java", SECRET);
    // Its script is not read either: a library it names would show in the notes.
    common::write(&secret, "build.gradle", "dependencies {\n  implementation 'leak.secret:k-is-42:1'\n}\n");
    common::write(&root, "settings.gradle", "rootProject.name = 'ws'\nincludeFlat 'secret'\n");
    common::write(
        &root,
        "build.gradle",
        "plugins { id 'java' }\ndependencies {\n  implementation project(':secret')\n}\n",
    );
    common::write(&root, "src/main/java/app/Probe.java", PROBE);
    let (home, cache) = (tempfile::tempdir().expect("tempdir"), tempfile::tempdir().expect("tempdir"));
    let ws = gradle_workspace(&root, home.path(), cache.path());
    let r = until_complete(&ws, &args(&["src/main/java/app/Probe.java"]));
    assert!(r.javac.available, "{:?}", r.javac);
    assert!(!leaked(&r), "the outside module was compiled: {:?}", r.diagnostics);
    let notes = r.javac.classpath_notes.join("\n");
    assert!(
        notes.contains(
            "left out `../secret/src/main/java` (settings.gradle includeFlat 'secret'): it is outside the workspace roots"
        ),
        "{notes}"
    );
    assert!(!notes.contains("leak.secret"), "{notes}");
}

/// A plain project (the `plain` fixture) whose `max_file_bytes` is `cap`, when given.
fn plain_with_cap(p: &Project, cap: Option<&str>) -> Host {
    match cap {
        Some(c) => p.workspace(&[("MCP_JAVA_INDEX_MAX_FILE_BYTES", c)]),
        None => p.workspace(&[]),
    }
}

/// Issue 50 (6): a source file over `max_file_bytes`, refused by every tool, was still compiled
/// through javac's `-sourcepath` (a 50 MB one took gigabytes and minutes). javac must not read
/// it: a type it declares is not found, and its constant is not folded into a division by zero.
#[test]
fn javac_does_not_read_a_source_file_over_the_size_cap() {
    let p = Project::of("problem_fixtures", "plain");
    // Some 220 KB, over a cap of 100 KB; its class a probe beside it uses.
    let big = format!(
        "package com.acme;\n\npublic final class Big {{\n    public static final int K = 42;\n}}\n{}",
        "// padding padding padding padding padding\n".repeat(5_000)
    );
    std::fs::write(p.path("src/com/acme/Big.java"), big).expect("write");
    let probe = "package com.acme;\n\nclass Probe {\n    int x = 1 / (Big.K - 42);\n}\n";
    std::fs::write(p.path("src/com/acme/Probe.java"), probe).expect("write");
    let ws = plain_with_cap(&p, Some("100000"));
    let r = until_complete(&ws, &args(&["src/com/acme/Probe.java"]));
    assert!(r.javac.available, "{:?}", r.javac);
    assert!(!leaked(&r), "javac read the file over the cap: {:?}", r.diagnostics);
    let unresolved = of(&r, "Probe.java").iter().any(|d| d.code.starts_with("compiler.err.cant.resolve"));
    assert!(unresolved, "Big is not there for javac: {:?}", r.diagnostics);
    // The file itself is refused, as by every tool.
    let e =
        mcp_java_index::tools::tool::get_problems::run(&ws, &args(&["src/com/acme/Big.java"])).expect_err("refused");
    assert!(e.to_string().contains("max_file_bytes"), "{e}");
    // Under the default cap the same project compiles Big, which the probe then sees.
    let r = until_complete(&plain_with_cap(&p, None), &args(&["src/com/acme/Probe.java"]));
    assert!(leaked(&r), "the control: under the cap javac folds Big.K: {:?}", r.diagnostics);
}

/// Issue 50 (8): a committed symlinked source directory (`src/sec -> /outside/sec`) let javac
/// compile code outside the roots: `1/(sec.Secret.K-42)` answered "division by zero", which
/// proves K = 42. Every other tool refuses the link; javac must not see through it either.
#[test]
fn javac_does_not_follow_a_symlinked_source_directory_out_of_the_roots() {
    let p = Project::of("problem_fixtures", "plain");
    let outside = tempfile::tempdir().expect("tempdir");
    common::write(outside.path(), "sec/Secret.java", SECRET);
    std::os::unix::fs::symlink(outside.path().join("sec"), p.path("src/sec")).expect("symlink");
    let probe = "package com.acme;\n\nclass Probe {\n    int x = 1 / (sec.Secret.K - 42);\n}\n";
    std::fs::write(p.path("src/com/acme/Probe.java"), probe).expect("write");
    let r = until_complete(&p.workspace(&[]), &args(&["src/com/acme/Probe.java"]));
    assert!(r.javac.available, "{:?}", r.javac);
    assert!(!leaked(&r), "the linked outside directory was compiled: {:?}", r.diagnostics);
    assert!(!format!("{r:?}").contains("division by zero"), "{:?}", r.diagnostics);
    assert!(r.diagnostics.iter().any(|d| d.code == "compiler.err.doesnt.exist"), "{:?}", r.diagnostics);
    // A file linked into the tree is refused as well, even one pointing inside the roots.
    std::fs::remove_file(p.path("src/sec")).expect("unlink");
    std::fs::create_dir(p.path("src/sec")).expect("mkdir");
    std::os::unix::fs::symlink(outside.path().join("sec/Secret.java"), p.path("src/sec/Secret.java")).expect("link");
    let r = until_complete(&p.workspace(&[]), &args(&["src/com/acme/Probe.java"]));
    assert!(!leaked(&r), "the linked outside file was compiled: {:?}", r.diagnostics);
}

/// Issue 50 (8), the class files' side: a class directory inside the roots (a plain
/// project's `target/classes`) holding a link to compiled code elsewhere (`target/classes/sec
/// -> /outside/classes/sec`) let javac fold the outside constant just the same. Below a class
/// directory inside the roots, javac reads no file through a link.
#[test]
fn javac_does_not_follow_a_link_in_a_class_directory_out_of_the_roots() {
    let p = Project::of("problem_fixtures", "plain");
    let outside = tempfile::tempdir().expect("tempdir");
    common::write(outside.path(), "src/sec/Secret.java", SECRET);
    let classes = outside.path().join("classes");
    let o = Command::new("javac")
        .arg("-d")
        .arg(&classes)
        .arg(outside.path().join("src/sec/Secret.java"))
        .output()
        .expect("javac runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::create_dir_all(p.path("target/classes")).expect("mkdir");
    std::os::unix::fs::symlink(classes.join("sec"), p.path("target/classes/sec")).expect("symlink");
    let probe = "package com.acme;\n\nclass Probe {\n    int x = 1 / (sec.Secret.K - 42);\n}\n";
    std::fs::write(p.path("src/com/acme/Probe.java"), probe).expect("write");
    let r = until_complete(&p.workspace(&[]), &args(&["src/com/acme/Probe.java"]));
    assert!(r.javac.available, "{:?}", r.javac);
    assert!(!leaked(&r), "the linked outside classes were read: {:?}", r.diagnostics);
    // The control: the same class file copied in (no link) is the project's own, and seen.
    std::fs::remove_file(p.path("target/classes/sec")).expect("unlink");
    std::fs::create_dir(p.path("target/classes/sec")).expect("mkdir");
    std::fs::copy(classes.join("sec/Secret.class"), p.path("target/classes/sec/Secret.class")).expect("copy");
    let r = until_complete(&p.workspace(&[]), &args(&["src/com/acme/Probe.java"]));
    assert!(leaked(&r), "a class file of the project's own is read: {:?}", r.diagnostics);
}

/// Issue 50 (small): a dangling `Foo.java` link made javac crash (a NullPointerException in
/// its class reader) for every file of its package that named `Foo`. It is skipped: the files
/// are checked, and `Foo` is simply not found.
#[test]
fn a_dangling_source_link_is_skipped_and_its_package_still_checked() {
    let p = Project::of("problem_fixtures", "plain");
    std::os::unix::fs::symlink(p.path("nowhere/Foo.java"), p.path("src/com/acme/Foo.java")).expect("symlink");
    let uses = "package com.acme;\n\nclass UsesFoo {\n    Foo f;\n    int x = \"s\";\n}\n";
    std::fs::write(p.path("src/com/acme/UsesFoo.java"), uses).expect("write");
    let r = until_complete(&p.workspace(&[]), &args(&["src"]));
    assert!(r.javac.available, "{:?}", r.javac);
    // Every file javac was given was analysed (the listing shows a few per state).
    assert_eq!((r.file_counts.analysed, r.file_counts.syntax_only), (6, 0), "{:?} {:?}", r.files, r.javac);
    assert!(r.javac.reason.is_none(), "{:?}", r.javac);
    let found = codes(&r, "UsesFoo.java");
    assert!(found.iter().any(|c| c == "compiler.err.cant.resolve.location"), "{found:?}");
    assert!(found.iter().any(|c| c == "compiler.err.prob.found.req"), "{found:?}");
    assert_eq!(codes(&r, "Types.java").len(), 3, "{:?}", r.diagnostics);
}

/// A javac plugin (`-Xplugin:Sleep`, from `-processorpath`) that makes javac busy for ten
/// minutes, after writing `sleeping` beside its class; the directory to pass.
fn sleeping_plugin(dir: &Path) -> PathBuf {
    let src = "import com.sun.source.util.*;\n\
        public class Sleep implements Plugin {\n\
          public String getName() { return \"Sleep\"; }\n\
          public void init(JavacTask task, String... args) {\n\
            try {\n\
              java.nio.file.Path here = java.nio.file.Path.of(Sleep.class.getProtectionDomain().getCodeSource().getLocation().toURI());\n\
              java.nio.file.Files.writeString(here.resolve(\"sleeping\"), \"\" + ProcessHandle.current().pid());\n\
              Thread.sleep(600_000);\n\
            } catch (Exception e) { throw new RuntimeException(e); }\n\
          }\n\
        }\n";
    common::write(dir, "src/Sleep.java", src);
    let out = dir.join("plugin");
    common::write(&out, "META-INF/services/com.sun.source.util.Plugin", "Sleep\n");
    let o = Command::new("javac").arg("-d").arg(&out).arg(dir.join("src/Sleep.java")).output().expect("javac runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    out
}

/// Whether a process is gone (or a zombie no one has reaped yet).
fn gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat.rsplit_once(')').is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

/// Issue 50 (6): when the client closed stdin, the server exited and the busy helper JVM kept
/// running, orphaned. The helper dies with the server however it ends: its stdin closed (the
/// server exits) or the server killed with `kill -9`, while javac is busy in a request.
#[test]
fn the_javac_helper_dies_with_the_server_even_while_busy() {
    let p = Project::of("problem_fixtures", "plain");
    let user = tempfile::tempdir().expect("tempdir");
    let plugin = sleeping_plugin(user.path());
    let marker = plugin.join("sleeping");
    let send = |input: &mut std::process::ChildStdin, msg: serde_json::Value| {
        use std::io::Write;
        writeln!(input, "{msg}").and_then(|_| input.flush()).expect("write to the server");
    };
    for kill in [true, false] {
        let _ = std::fs::remove_file(&marker);
        let mut server = Command::new(env!("CARGO_BIN_EXE_mcp-java-index"))
            .arg("serve")
            .arg("--root")
            .arg(p.root.path())
            .env("MCP_JAVA_INDEX_CACHE_DIR", p.cache.path())
            .env("MCP_JAVA_INDEX_JAVAC_OPTIONS", format!("-processorpath {} -Xplugin:Sleep", plugin.display()))
            .env("MCP_JAVA_INDEX_PROBLEMS_BUDGET_MS", "100")
            .env("XDG_STATE_HOME", user.path().join("state"))
            .env("XDG_RUNTIME_DIR", user.path().join("run"))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("serve");
        let mut input = server.stdin.take().expect("stdin");
        send(
            &mut input,
            serde_json::json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
        );
        send(&mut input, serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        // The first calls may answer before the classpath is resolved; asked again, javac
        // starts, and is busy in the plugin once the helper wrote its pid.
        let started = std::time::Instant::now();
        for id in 1.. {
            send(
                &mut input,
                serde_json::json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
                    "name": "get_problems", "arguments": {"filePath": "src/com/acme/Clean.java"}}}),
            );
            std::thread::sleep(std::time::Duration::from_millis(500));
            if std::fs::read_to_string(&marker).is_ok_and(|s| !s.trim().is_empty()) {
                break;
            }
            assert!(started.elapsed().as_secs() < 60, "the javac helper never got busy");
        }
        let helper: u32 = std::fs::read_to_string(&marker).expect("marker").trim().parse().expect("a pid");
        assert!(!gone(helper), "the helper runs");
        if kill {
            server.kill().expect("kill -9");
        } else {
            drop(input);
        }
        let exited = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while server.try_wait().ok().flatten().is_none() && std::time::Instant::now() < exited {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let _ = server.kill();
        let _ = server.wait();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while !gone(helper) && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let alive = !gone(helper);
        if alive {
            // Do not leave it behind for ten minutes.
            let _ = Command::new("kill").arg("-9").arg(helper.to_string()).status();
        }
        let how = if kill { "kill -9" } else { "stdin closed" };
        assert!(!alive, "the javac helper {helper} outlived the server ({how})");
    }
}

/// Issue 53, item 6: what a Maven build generates is no error of the code. A type from
/// `src/main/java-templates` resolves (the templates are source roots: the plugin only filters
/// `${…}`); a grammar's parser and a Modello model's class, not generated yet, are errors with
/// the cause `generated-source`, which `missingDependencies: "exclude"` leaves out; a real error
/// beside them stays, with no cause.
#[test]
fn what_the_build_generates_is_a_cause_not_an_error_of_the_code() {
    let p = Project::of("problem_fixtures", "maven-generated");
    let ws = p.workspace(&[]);
    let r = until_complete(&ws, &args(&["src/main/java"]));
    let found = of(&r, "App.java");
    let by_line = |line: u32| found.iter().filter(|d| d.line == line).map(|d| d.cause.clone()).collect::<Vec<_>>();
    assert!(by_line(6).is_empty(), "Version from the templates resolves: {found:#?}");
    assert_eq!(by_line(9), [Some("generated-source".to_owned())], "{found:#?}");
    assert!(
        by_line(13).iter().all(|c| c.as_deref() == Some("generated-source")) && !by_line(13).is_empty(),
        "{found:#?}"
    );
    assert_eq!(by_line(17), [None], "{found:#?}");
    use mcp_java_index::problems::MissingDependencies;
    let own = mcp_java_index::tools::tool::get_problems::run(
        &ws,
        &ProblemsArgs { missing_dependencies: MissingDependencies::Exclude, ..args(&["src/main/java"]) },
    )
    .expect("own problems");
    let lines: Vec<u32> = of(&own, "App.java").iter().map(|d| d.line).collect();
    assert_eq!(lines, [17], "{:#?}", own.diagnostics);
}
