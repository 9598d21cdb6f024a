//! Installing and registering, through the real binary: `setup CLIENT` (each client's file,
//! merged with an existing one, `--print`, `--uninstall`, another server's entry left alone),
//! `doctor` (with and without a JDK on PATH, a root it cannot serve), `completions`,
//! `--version`, and the package manifests' versions kept equal to Cargo.toml's.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mcp-java-index"))
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A project and a home of its own, so no user file is read or written.
struct Sandbox {
    project: tempfile::TempDir,
    home: tempfile::TempDir,
}

impl Sandbox {
    fn new() -> Sandbox {
        Sandbox { project: tempfile::tempdir().expect("tempdir"), home: tempfile::tempdir().expect("tempdir") }
    }

    fn project(&self) -> PathBuf {
        std::fs::canonicalize(self.project.path()).expect("canonical")
    }

    fn run(&self, args: &[&str]) -> Output {
        self.run_with(args, |_| {})
    }

    fn run_with(&self, args: &[&str], env: impl FnOnce(&mut Command)) -> Output {
        let mut c = bin();
        c.args(args)
            .current_dir(self.project.path())
            .env("HOME", self.home.path())
            .env("XDG_CACHE_HOME", self.home.path().join("cache"))
            .env_remove("CODEX_HOME")
            .env_remove("MCP_JAVA_INDEX_CACHE_DIR");
        env(&mut c);
        c.output().expect("running the binary")
    }

    fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.project.path().join(rel)).unwrap_or_else(|e| panic!("reading {rel}: {e}"))
    }

    /// A file's text with the project's path as `[PROJECT]`.
    fn redacted(&self, rel: &str) -> String {
        self.read(rel).replace(&self.project().to_string_lossy().into_owned(), "[PROJECT]")
    }
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const CLIENTS: [(&str, &str); 5] = [
    ("claude-code", ".mcp.json"),
    ("vscode", ".vscode/mcp.json"),
    ("cursor", ".cursor/mcp.json"),
    ("codex", ".codex/config.toml"),
    ("gemini", ".gemini/settings.json"),
];

/// The entry named `name` in a client's file, as JSON (Codex's TOML converted).
fn entry(file: &str, text: &str, name: &str) -> Option<serde_json::Value> {
    let doc: serde_json::Value = if file.ends_with(".toml") {
        serde_json::to_value(text.parse::<toml::Table>().expect("TOML")).expect("as JSON")
    } else {
        serde_json::from_str(text).expect("JSON")
    };
    let key = if file.ends_with(".toml") {
        "mcp_servers"
    } else if file.starts_with(".vscode") {
        "servers"
    } else {
        "mcpServers"
    };
    doc.get(key)?.get(name).cloned()
}

#[test]
fn setup_writes_each_clients_file() {
    for (client, file) in CLIENTS {
        let s = Sandbox::new();
        let o = s.run(&["setup", client, "--via", "npx"]);
        assert!(o.status.success(), "{client}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!("added `java-index` in {}", s.project().join(file).display())),
            "{}",
            stderr(&o)
        );
        let text = s.read(file);
        let e = entry(file, &text, "java-index").unwrap_or_else(|| panic!("{client}: no entry in {text}"));
        assert_eq!(e["command"], "npx", "{client}");
        let args: Vec<&str> = e["args"].as_array().expect("args").iter().filter_map(|a| a.as_str()).collect();
        assert_eq!(&args[..3], ["-y", "mcp-java-index", "serve"], "{client}");
        insta::assert_snapshot!(format!("setup_{}", client.replace('-', "_")), s.redacted(file));
    }
    // --bridge registers the shared server, and the binary's own path is the default command.
    let s = Sandbox::new();
    let o = s.run(&["setup", "cursor", "--bridge"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let e = entry(".cursor/mcp.json", &s.read(".cursor/mcp.json"), "java-index").expect("entry");
    assert_eq!(e["args"][0], "bridge");
    let cmd = e["command"].as_str().expect("command");
    assert!(cmd == "mcp-java-index" || Path::new(cmd).is_absolute(), "{cmd}");
}

/// Started by the npm launcher that is on PATH, `setup` registers `mcp-java-index` (the
/// launcher), not the platform package's binary inside node_modules.
#[test]
fn setup_registers_the_npm_launcher_on_path_by_name() {
    let s = Sandbox::new();
    let bin_dir = tempfile::tempdir().expect("tempdir");
    let launcher = bin_dir.path().join("launcher.js");
    std::fs::write(&launcher, "// the npm launcher\n").expect("write");
    std::os::unix::fs::symlink(&launcher, bin_dir.path().join("mcp-java-index")).expect("symlink");
    let o = s.run_with(&["setup", "cursor", "--print"], |c| {
        c.env("PATH", bin_dir.path()).env("MCP_JAVA_INDEX_LAUNCHER", &launcher);
    });
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(entry(".cursor/mcp.json", &stdout(&o), "java-index").expect("entry")["command"], "mcp-java-index");
    // Without the launcher, the binary itself (not on that PATH) is named by its path.
    let o = s.run_with(&["setup", "cursor", "--print"], |c| {
        c.env("PATH", bin_dir.path()).env_remove("MCP_JAVA_INDEX_LAUNCHER");
    });
    let e = entry(".cursor/mcp.json", &stdout(&o), "java-index").expect("entry");
    assert!(e["command"].as_str().is_some_and(|c| Path::new(c).is_absolute()), "{e}");
}

#[test]
fn setup_merges_with_an_existing_file_and_leaves_another_servers_entry_alone() {
    let s = Sandbox::new();
    std::fs::create_dir_all(s.project.path().join(".cursor")).expect("mkdir");
    let before = "{\n  \"theme\": \"dark\",\n  \"mcpServers\": {\n    \"github\": {\"command\": \"gh-mcp\", \"args\": []}\n  },\n  \"zzz\": [1, 2]\n}\n";
    std::fs::write(s.project.path().join(".cursor/mcp.json"), before).expect("write");
    let o = s.run(&["setup", "cursor", "--via", "uvx"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let after = s.read(".cursor/mcp.json");
    let doc: serde_json::Value = serde_json::from_str(&after).expect("JSON");
    assert_eq!(doc["theme"], "dark");
    assert_eq!(doc["zzz"], serde_json::json!([1, 2]));
    assert_eq!(doc["mcpServers"]["github"]["command"], "gh-mcp");
    assert_eq!(doc["mcpServers"]["java-index"]["command"], "uvx");
    // The keys keep their order: ours comes after the servers already there.
    let at = |k: &str| after.find(k).unwrap_or_else(|| panic!("{k} in {after}"));
    assert!(
        at("\"theme\"") < at("\"github\"")
            && at("\"github\"") < at("\"java-index\"")
            && at("\"java-index\"") < at("\"zzz\"")
    );
    insta::assert_snapshot!("setup_cursor_merged", s.redacted(".cursor/mcp.json"));
    // Again: our entry is updated in place, the file unchanged.
    let o = s.run(&["setup", "cursor", "--via", "uvx"]);
    assert!(o.status.success() && stderr(&o).contains("updated"), "{}", stderr(&o));
    assert_eq!(s.read(".cursor/mcp.json"), after);
    // A server of that name that is not ours: refused, nothing written, the entry to add shown.
    let o = s.run(&["setup", "cursor", "--name", "github"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("another server's entry") && stderr(&o).contains("Add this entry by hand"),
        "{}",
        stderr(&o)
    );
    assert_eq!(s.read(".cursor/mcp.json"), after);
    // A file it cannot merge into (comments): refused, untouched.
    let commented = "{\n  // mine\n  \"servers\": {}\n}\n";
    std::fs::create_dir_all(s.project.path().join(".vscode")).expect("mkdir");
    std::fs::write(s.project.path().join(".vscode/mcp.json"), commented).expect("write");
    let o = s.run(&["setup", "vscode"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(s.read(".vscode/mcp.json"), commented);
    // Codex's TOML keeps its comments and other tables.
    std::fs::create_dir_all(s.project.path().join(".codex")).expect("mkdir");
    let toml_before = "# my settings\nmodel = \"o3\"\n\n[mcp_servers.docs]\ncommand = \"docs-mcp\"\n";
    std::fs::write(s.project.path().join(".codex/config.toml"), toml_before).expect("write");
    let o = s.run(&["setup", "codex", "--via", "npx"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let toml_after = s.read(".codex/config.toml");
    assert!(toml_after.starts_with(toml_before), "{toml_after}");
    assert_eq!(entry(".codex/config.toml", &toml_after, "java-index").expect("ours")["command"], "npx");
}

#[test]
fn setup_print_writes_nothing() {
    let s = Sandbox::new();
    let o = s.run(&["setup", "vscode", "--print", "--via", "npx"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let e = entry(".vscode/mcp.json", &stdout(&o), "java-index").expect("the entry on stdout");
    assert_eq!(e["type"], "stdio");
    assert_eq!(e["args"].as_array().and_then(|a| a.last()), Some(&serde_json::json!("${workspaceFolder}")));
    assert!(!s.project.path().join(".vscode").exists(), "--print wrote something");
    assert!(stderr(&o).contains("not written"), "{}", stderr(&o));
}

#[test]
fn setup_uninstall_removes_only_our_entry() {
    let s = Sandbox::new();
    std::fs::write(s.project.path().join(".mcp.json"), "{\"mcpServers\": {\"other\": {\"command\": \"x\"}}}\n")
        .expect("write");
    assert!(s.run(&["setup", "claude-code", "--via", "npx"]).status.success());
    assert!(entry(".mcp.json", &s.read(".mcp.json"), "java-index").is_some());
    let o = s.run(&["setup", "claude-code", "--uninstall"]);
    assert!(o.status.success() && stderr(&o).contains("removed"), "{}", stderr(&o));
    let after = s.read(".mcp.json");
    assert!(entry(".mcp.json", &after, "java-index").is_none(), "{after}");
    assert_eq!(entry(".mcp.json", &after, "other").expect("kept")["command"], "x");
    // Nothing of ours left: says so, changes nothing.
    let o = s.run(&["setup", "claude-code", "--uninstall"]);
    assert!(o.status.success() && stderr(&o).contains("nothing to remove"), "{}", stderr(&o));
    assert_eq!(s.read(".mcp.json"), after);
    // Another server's entry under our name is not removed.
    let o = s.run(&["setup", "claude-code", "--uninstall", "--name", "other"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(s.read(".mcp.json"), after);
    // Codex: the table and its subtables go, the rest stays.
    std::fs::create_dir_all(s.project.path().join(".codex")).expect("mkdir");
    std::fs::write(s.project.path().join(".codex/config.toml"), "model = \"o3\"\n").expect("write");
    assert!(s.run(&["setup", "codex", "--via", "npx"]).status.success());
    let mut t = s.read(".codex/config.toml");
    t.push_str("\n[mcp_servers.java-index.env]\nJAVA_HOME = \"/opt/jdk\"\n");
    std::fs::write(s.project.path().join(".codex/config.toml"), &t).expect("write");
    assert!(s.run(&["setup", "codex", "--uninstall"]).status.success());
    assert_eq!(s.read(".codex/config.toml").trim(), "model = \"o3\"");
}

/// `doctor --json` with `PATH` set to `path` and no JAVA_HOME.
fn doctor(s: &Sandbox, path: &str, extra: &[&str]) -> (Option<i32>, serde_json::Value) {
    let mut args = vec!["doctor", "--json"];
    args.extend_from_slice(extra);
    let o = s.run_with(&args, |c| {
        c.env("PATH", path).env_remove("JAVA_HOME");
    });
    let v = serde_json::from_str(&stdout(&o)).unwrap_or_else(|e| panic!("{e}: {}{}", stdout(&o), stderr(&o)));
    (o.status.code(), v)
}

fn find<'a>(v: &'a serde_json::Value, check: &str) -> &'a serde_json::Value {
    v["findings"]
        .as_array()
        .and_then(|f| f.iter().find(|f| f["check"] == check))
        .unwrap_or_else(|| panic!("no {check} finding in {v}"))
}

#[test]
fn doctor_with_and_without_a_jdk_on_path() {
    let s = Sandbox::new();
    // The JDK the tests use (.ci/run installs openjdk-17-jdk-headless): its javac's directory.
    let javac = std::env::var_os("PATH")
        .and_then(|p| std::env::split_paths(&p).map(|d| d.join("javac")).find(|j| j.is_file()))
        .expect("the tests need javac on PATH (.ci/run installs a JDK)");
    let with = javac.parent().expect("dir").to_string_lossy().into_owned();
    let (code, v) = doctor(&s, &with, &[]);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["canServe"], true);
    let jdk = find(&v, "jdk");
    assert_eq!(jdk["status"], "ok", "{jdk}");
    assert!(jdk["found"].as_str().is_some_and(|f| f.starts_with("javac ")), "{jdk}");
    assert!(jdk["means"].as_str().is_some_and(|m| m.contains("get_problems compiles with javac")), "{jdk}");
    assert_eq!(find(&v, "version")["found"].as_str().map(|f| f.contains(env!("CARGO_PKG_VERSION"))), Some(true));
    assert_eq!(find(&v, "trust")["status"], "warn");
    assert_eq!(find(&v, "cache")["status"], "ok");

    // No JDK: still serves; the finding says what that costs.
    let empty = tempfile::tempdir().expect("tempdir");
    let (code, v) = doctor(&s, &empty.path().to_string_lossy(), &[]);
    assert_eq!(code, Some(0), "{v}");
    let jdk = find(&v, "jdk");
    assert_eq!(jdk["status"], "warn", "{jdk}");
    assert!(jdk["found"].as_str().is_some_and(|f| f.contains("no JDK found")), "{jdk}");
    assert!(jdk["means"].as_str().is_some_and(|m| m.contains("syntax errors only")), "{jdk}");
    assert_eq!(find(&v, "maven")["status"], "warn");

    // The text form says the same.
    let o = s.run_with(&["doctor"], |c| {
        c.env("PATH", empty.path()).env_remove("JAVA_HOME");
    });
    assert!(stdout(&o).contains("warn  jdk") && stdout(&o).ends_with("the server can serve here\n"), "{}", stdout(&o));
}

#[test]
fn doctor_fails_where_the_server_cannot_serve_and_sees_configured_clients() {
    let s = Sandbox::new();
    let missing = s.project().join("no-such-dir");
    let (code, v) = doctor(&s, "/usr/bin:/bin", &["--root", &missing.to_string_lossy()]);
    assert_eq!(code, Some(1), "{v}");
    assert_eq!(v["canServe"], false);
    let fail: Vec<&serde_json::Value> =
        v["findings"].as_array().expect("findings").iter().filter(|f| f["status"] == "fail").collect();
    assert!(
        !fail.is_empty() && fail.iter().any(|f| f["found"].as_str().is_some_and(|t| t.contains("no-such-dir"))),
        "{v}"
    );

    let (_, v) = doctor(&s, "/usr/bin:/bin", &[]);
    assert_eq!(find(&v, "client")["status"], "warn", "{v}");
    assert!(s.run(&["setup", "gemini", "--via", "npx"]).status.success());
    let (_, v) = doctor(&s, "/usr/bin:/bin", &[]);
    let c = find(&v, "client");
    assert_eq!(c["status"], "ok", "{c}");
    assert!(c["found"].as_str().is_some_and(|f| f.starts_with("gemini in ") && f.ends_with("as java-index")), "{c}");
}

#[test]
fn completions_and_version_everywhere() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let o = bin().args(["completions", shell]).output().expect("run");
        assert!(o.status.success(), "{shell}: {}", stderr(&o));
        let script = stdout(&o);
        for word in ["mcp-java-index", "serve", "setup", "doctor", "uninstall", "claude-code"] {
            assert!(script.contains(word), "{shell} completions lack {word}");
        }
    }
    for args in [&["--version"][..], &["setup", "--version"], &["doctor", "--version"], &["serve", "--version"]] {
        let o = bin().args(args).output().expect("run");
        assert!(o.status.success(), "{args:?}");
        assert!(stdout(&o).trim_end().ends_with(env!("CARGO_PKG_VERSION")), "{args:?}: {}", stdout(&o));
    }
}

fn json_file(rel: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(repo().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// server.json (the MCP registry), the npm launcher and the Python package carry Cargo.toml's
/// version, repository and registry name: a release bumps Cargo.toml and these together.
#[test]
fn package_manifests_keep_cargo_tomls_version() {
    let cargo: toml::Table =
        std::fs::read_to_string(repo().join("Cargo.toml")).expect("Cargo.toml").parse().expect("TOML");
    let ws = &cargo["workspace"]["package"];
    let version = ws["version"].as_str().expect("version");
    assert_eq!(version, env!("CARGO_PKG_VERSION"));
    let repository = ws["repository"].as_str().expect("repository");

    let server = json_file("server.json");
    assert_eq!(server["version"], version, "server.json's version");
    assert_eq!(server["repository"]["url"], repository);
    let name = server["name"].as_str().expect("name");
    assert!(server["description"].as_str().is_some_and(|d| d.len() <= 100), "the registry caps descriptions at 100");
    let packages = server["packages"].as_array().expect("packages");
    let kinds: Vec<&str> = packages.iter().filter_map(|p| p["registryType"].as_str()).collect();
    assert_eq!(kinds, ["npm", "pypi"]);
    for p in packages {
        assert_eq!(p["version"], version, "{p}");
        assert_eq!(p["identifier"], "mcp-java-index", "{p}");
        assert_eq!(p["transport"]["type"], "stdio", "{p}");
        assert_eq!(p["packageArguments"][0]["value"], "serve", "{p}");
    }

    let npm = json_file("packaging/npm/mcp-java-index/package.json");
    assert_eq!(npm["version"], version, "the npm launcher's version");
    assert_eq!(npm["mcpName"], name, "npm's mcpName is the registry's name");
    let deps = npm["optionalDependencies"].as_object().expect("optionalDependencies");
    let platforms: Vec<&str> = deps.keys().map(String::as_str).collect();
    assert_eq!(
        platforms,
        [
            "@mcp-java-index/darwin-arm64",
            "@mcp-java-index/darwin-x64",
            "@mcp-java-index/linux-arm64",
            "@mcp-java-index/linux-x64",
            "@mcp-java-index/win32-x64"
        ]
    );
    assert!(deps.values().all(|v| v == version), "{deps:?}");

    // The wheel takes its version from Cargo.toml; PyPI's ownership marker names the server.
    let py: toml::Table =
        std::fs::read_to_string(repo().join("pyproject.toml")).expect("pyproject").parse().expect("TOML");
    assert!(py["project"].get("version").is_none(), "pyproject.toml must not pin a version of its own");
    assert_eq!(
        py["project"]["dynamic"].as_array().map(|d| d.iter().any(|x| x.as_str() == Some("version"))),
        Some(true)
    );
    assert_eq!(py["tool"]["maturin"]["bindings"].as_str(), Some("bin"));
    let readme = std::fs::read_to_string(repo().join("packaging/python/README.md")).expect("readme");
    assert!(readme.contains(&format!("mcp-name: {name}")), "the PyPI README names the server for the registry");
}

/// Issue 51: `doctor` says when the project uses Lombok and which version its build names
/// (the pom's property resolved), and says nothing of Lombok where the build does not use it.
#[test]
fn doctor_says_which_lombok_the_build_names() {
    let s = Sandbox::new();
    let (_, v) = doctor(&s, "/usr/bin:/bin", &[]);
    assert!(v["findings"].as_array().expect("findings").iter().all(|f| f["check"] != "lombok"), "{v}");
    let pom = "<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>a</artifactId><version>1</version>\
        <properties><lombok.version>1.18.30</lombok.version></properties><dependencies><dependency>\
        <groupId>org.projectlombok</groupId><artifactId>lombok</artifactId><version>${lombok.version}</version>\
        <scope>provided</scope></dependency></dependencies></project>";
    std::fs::write(s.project().join("pom.xml"), pom).expect("write");
    let (_, v) = doctor(&s, "/usr/bin:/bin", &[]);
    let l = find(&v, "lombok");
    assert_eq!(l["found"], "Lombok 1.18.30 (pom.xml)", "{l}");
    assert!(l["means"].as_str().is_some_and(|m| m.contains("untrusted")), "{l}");
}
