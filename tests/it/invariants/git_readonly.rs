//! git as a read-only tool (issue 50, item 3): `affected` (the CLI) and `affected_tests
//! {"changed": true}` (the tool) on a repository whose `.git/config` names commands — an
//! fsmonitor hook, a textconv and a clean filter chosen by `.gitattributes` — and on a served
//! directory that is a bare repository committed as plain files: none of them runs, and the
//! tests the change reaches are still listed.

use std::path::Path;
use std::process::Command;

use serde_json::json;

use crate::common::project::{MAVEN_REPO, Project};
use mcp_java_index::tools::registry::dispatch;

const BIN: &str = env!("CARGO_BIN_EXE_mcp-java-index");

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "core.hooksPath=/dev/null",
        ])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("git");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// An executable at `dir/hook.sh` that creates `marker`, then copies its input.
fn hook(dir: &Path, marker: &Path) -> std::path::PathBuf {
    let hook = dir.join("hook.sh");
    crate::common::write_executable(
        &hook,
        &format!("#!/bin/sh\ntouch '{}'\nif [ -f \"$1\" ]; then cat \"$1\"; else cat; fi\n", marker.display()),
    );
    hook
}

/// The Maven reactor of `maven-affected` committed under git (at `top`), then `Calc#add`
/// changed.
fn change_calc(p: &Project, top: &Path) {
    git(top, &["init", "-q"]);
    git(top, &["add", "-A"]);
    git(top, &["commit", "-qm", "fixture"]);
    let calc = p.path("core/src/main/java/com/example/core/Calc.java");
    let text = std::fs::read_to_string(&calc).expect("read");
    std::fs::write(&calc, text.replace("return a + b;", "int sum = a + b;\n        return sum;")).expect("write");
}

/// Every route at once in `git_dir/config`, `.gitattributes` naming them for Java files.
fn arm(git_dir: &Path, work: &Path, hook: &Path) {
    let h = hook.display();
    let mut config = std::fs::read_to_string(git_dir.join("config")).expect("config");
    config.push_str(&format!(
        "[core]\n\tfsmonitor = {h}\n[diff \"evil\"]\n\ttextconv = {h}\n[filter \"evil\"]\n\tclean = {h}\n\tprocess = {h}\n"
    ));
    std::fs::write(git_dir.join("config"), config).expect("config");
    std::fs::write(work.join(".gitattributes"), "*.java diff=evil filter=evil\n").expect("attributes");
}

#[test]
fn the_cli_affected_runs_no_command_of_the_repository_config() {
    let p = Project::of("build_fixtures", "maven-affected");
    let outside = tempfile::tempdir().expect("tempdir");
    let marker = outside.path().join("ran");
    change_calc(&p, p.root.path());
    arm(&p.path(".git"), p.root.path(), &hook(outside.path(), &marker));
    let home = tempfile::tempdir().expect("tempdir");
    let o = Command::new(BIN)
        .args(["affected"])
        .current_dir(p.root.path())
        .env("HOME", home.path())
        .env("XDG_CACHE_HOME", home.path().join(".cache"))
        .env("MCP_JAVA_INDEX_CACHE_DIR", p.cache.path())
        .env("MCP_JAVA_INDEX_MAVEN_REPO_LOCAL", MAVEN_REPO)
        .env("MCP_JAVA_INDEX_WATCH", "false")
        .output()
        .expect("run the CLI");
    let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(!marker.exists(), "the repository's command ran\n{out}\n{err}");
    assert!(o.status.success(), "{out}\n{err}");
    assert!(out.contains("com.example.core.CalcTest [core]") && out.contains("  adds:8"), "{out}\n{err}");
    assert!(out.contains("com.example.app.TotalsTest [app]") && out.contains("  sums:13"), "{out}\n{err}");
}

/// The served directory is a bare repository committed as plain files of the clone around it
/// (`HEAD`, `config` with `core.worktree` and the routes, `objects/`, `refs/`): the clone's
/// `.git` is the one read, and nothing runs.
#[test]
fn the_affected_tests_tool_never_reads_an_embedded_bare_repository() {
    let top = tempfile::tempdir().expect("tempdir");
    let p = Project::of("build_fixtures", "maven-affected");
    let served = top.path().join("served");
    crate::common::copy_dir(p.root.path(), &served);
    let outside = tempfile::tempdir().expect("tempdir");
    let marker = outside.path().join("ran");
    let h = hook(outside.path(), &marker);
    git(top.path(), &["init", "-q"]);
    // The embedded repository: a copy of the clone's own, as plain files.
    let from = top.path().join(".git");
    std::fs::copy(from.join("HEAD"), served.join("HEAD")).expect("copy");
    crate::common::copy_dir(&from.join("objects"), &served.join("objects"));
    crate::common::copy_dir(&from.join("refs"), &served.join("refs"));
    std::fs::write(served.join("config"), "[core]\n\tbare = false\n\tworktree = ..\n").expect("config");
    arm(&served, &served, &h);
    git(top.path(), &["add", "-A"]);
    git(top.path(), &["commit", "-qm", "fixture"]);
    let calc = served.join("core/src/main/java/com/example/core/Calc.java");
    let text = std::fs::read_to_string(&calc).expect("read");
    std::fs::write(&calc, text.replace("return a + b;", "int sum = a + b;\n        return sum;")).expect("write");
    let cache = p.cache.path().to_string_lossy().into_owned();
    drop(p.root);
    let lookup = |k: &str| match k {
        "MCP_JAVA_INDEX_CACHE_DIR" => Some(cache.clone()),
        "MCP_JAVA_INDEX_MAVEN_REPO_LOCAL" => Some(MAVEN_REPO.to_owned()),
        "MCP_JAVA_INDEX_WATCH" => Some("false".to_owned()),
        _ => None,
    };
    let flags = mcp_java_index::config::Flags::roots([served.as_path()]);
    let ws =
        mcp_java_index::tools::host::Host::open(mcp_java_index::config::Config::load(&flags, &lookup).expect("config"))
            .expect("workspace");
    ws.build_index();
    let serde_json::Value::Object(args) = json!({"changed": true}) else { unreachable!("object") };
    let answer = dispatch(&ws, "affected_tests", args);
    assert!(!marker.exists(), "the repository's command ran");
    let v = answer.expect("affected").value;
    let tests: Vec<String> = v["classes"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|c| {
            let class = c["class"].as_str().unwrap_or("").to_owned();
            let names: Vec<String> = c["groups"]
                .as_array()
                .into_iter()
                .flatten()
                .flat_map(|g| {
                    g["tests"].as_array().into_iter().flatten().map(|t| t["name"].as_str().unwrap_or("").to_owned())
                })
                .collect();
            names.into_iter().map(move |n| format!("{class}#{n}"))
        })
        .collect();
    assert_eq!(tests, ["com.example.app.TotalsTest#sums", "com.example.core.CalcTest#adds"], "{v}");
}
