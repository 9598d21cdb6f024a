//! `doctor`: what this installation finds around it and what each finding means for the
//! tools: its version, the JDK, Maven, Gradle, Emacs, VS Code, the cache directory, the
//! current workspace's trust and the MCP clients configured for it. Exits 0 when the server
//! can serve, 1 with the reasons otherwise.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use super::WorkspaceFlags;
use super::setup;

#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// Print the findings as JSON
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

/// How a finding bears on serving.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Ok,
    /// The server serves; some tools do less.
    Warn,
    /// The server cannot serve.
    Fail,
}

#[derive(Debug, serde::Serialize)]
pub struct Finding {
    pub check: &'static str,
    pub status: Status,
    /// What was found.
    pub found: String,
    /// What it means for the tools.
    pub means: String,
}

fn finding(check: &'static str, status: Status, found: impl Into<String>, means: impl Into<String>) -> Finding {
    Finding { check, status, found: found.into(), means: means.into() }
}

pub fn run(args: DoctorArgs) -> anyhow::Result<ExitCode> {
    let findings = findings(&args.ws);
    let failed = findings.iter().any(|f| f.status == Status::Fail);
    let mut out = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &serde_json::json!({ "canServe": !failed, "findings": findings }))?;
        writeln!(out)?;
    } else {
        for f in &findings {
            let mark = match f.status {
                Status::Ok => "ok  ",
                Status::Warn => "warn",
                Status::Fail => "FAIL",
            };
            writeln!(out, "{mark}  {:<10} {}", f.check, f.found)?;
            if !f.means.is_empty() {
                writeln!(out, "      {:<10} {}", "", f.means)?;
            }
        }
        let verdict = if failed { "the server cannot serve here: see FAIL above" } else { "the server can serve here" };
        writeln!(out, "{verdict}")?;
    }
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// Every finding, in the order printed.
pub fn findings(flags: &WorkspaceFlags) -> Vec<Finding> {
    let mut f = vec![finding(
        "version",
        Status::Ok,
        format!("mcp-java-index {} ({} {})", env!("CARGO_PKG_VERSION"), std::env::consts::OS, std::env::consts::ARCH),
        "",
    )];
    let loaded = crate::config::Config::load(&flags.0, &|k| std::env::var(k).ok());
    // The JDK the configuration found (its `jdk_env`, read once), else this process's.
    let jdk_env = loaded.as_ref().map_or_else(|_| crate::fs::jdk::JdkEnv::from_process(), |c| c.jdk_env.clone());
    f.push(jdk(&jdk_env));
    f.extend(build_tools());
    f.push(on_path_finding(
        "emacs",
        "emacsclient",
        "the editor tools can drive a running Emacs (`M-x server-start`)",
        "the editor tools cannot use Emacs (install it and start its server to use them)",
    ));
    f.push(on_path_finding(
        "vscode",
        "code",
        "the editor tools can open files in VS Code",
        "the editor tools cannot open VS Code (its `code` command is not on PATH)",
    ));
    let config = match loaded {
        Ok(c) => c,
        Err(e) => {
            f.push(finding("config", Status::Fail, e.to_string(), "`serve` stops on this error; fix the setting"));
            return f;
        }
    };
    for w in &config.ignored {
        f.push(finding("config", Status::Warn, w.clone(), "this setting from the repository is ignored"));
    }
    let mut roots_ok = Vec::new();
    for r in &config.roots {
        match std::fs::read_dir(r) {
            Ok(_) => roots_ok.push(std::fs::canonicalize(r).unwrap_or_else(|_| r.clone())),
            Err(e) => f.push(finding(
                "root",
                Status::Fail,
                format!("{}: {e}", r.display()),
                "a workspace root must be a readable directory",
            )),
        }
    }
    for r in &roots_ok {
        f.push(cache(&config.cache_dir_for(r)));
    }
    f.push(if config.trusted {
        finding(
            "trust",
            Status::Ok,
            format!("trusted ({})", config.describe("trusted")),
            "run_tests and maven_goal may run this project's build",
        )
    } else {
        finding(
            "trust",
            Status::Warn,
            "not trusted",
            "run_tests and maven_goal refuse to run the build (it executes the repository's plugins): pass --trust, or list the project under trusted_roots in the user config",
        )
    });
    if let Some((root, u)) = roots_ok.iter().find_map(|r| crate::build::lombok::lombok_use(r).map(|u| (r, u))) {
        let runs = if config.trusted {
            "get_problems runs it as javac's annotation processor when its jar is on the classpath"
        } else {
            "get_problems leaves out javac's complaints about its members (no processor runs in an untrusted workspace)"
        };
        f.push(finding(
            "lombok",
            Status::Ok,
            u.describe(root),
            format!("the members Lombok generates are in every tool's answers; {runs}"),
        ));
    }
    if let Some(project) = roots_ok.first() {
        f.extend(clients(project));
    }
    f
}

/// The JDK the server would use (`JAVA_HOME`, else `javac` on PATH: the one finder,
/// [`crate::fs::jdk`]) and its version.
fn jdk(env: &crate::fs::jdk::JdkEnv) -> Finding {
    match env.jdk() {
        Ok(jdk) => {
            let version = std::process::Command::new(&jdk.javac)
                .arg("-version")
                .stdin(std::process::Stdio::null())
                .output()
                .ok()
                .map(|o| {
                    let mut s = String::from_utf8_lossy(&o.stdout).into_owned();
                    s.push_str(&String::from_utf8_lossy(&o.stderr));
                    s.lines().next().unwrap_or("").trim().to_owned()
                })
                .filter(|s| !s.is_empty());
            match version {
                Some(v) => finding(
                    "jdk",
                    Status::Ok,
                    format!("{v} at {}", jdk.home.display()),
                    "get_problems compiles with javac; run_tests can run JUnit",
                ),
                None => finding(
                    "jdk",
                    Status::Warn,
                    format!("{} does not run (`javac -version` failed)", jdk.javac.display()),
                    "get_problems reports syntax errors only; run_tests cannot run tests",
                ),
            }
        }
        Err(e) => {
            finding("jdk", Status::Warn, e, "get_problems reports syntax errors only; run_tests cannot run tests")
        }
    }
}

/// `name` on PATH.
pub(crate) fn which(name: &str) -> Option<PathBuf> {
    let names: Vec<String> = if cfg!(windows) {
        ["exe", "cmd", "bat"].iter().map(|e| format!("{name}.{e}")).collect()
    } else {
        vec![name.to_owned()]
    };
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).flat_map(|d| names.iter().map(move |n| d.join(n))).find(|p| p.is_file())
}

fn on_path_finding(check: &'static str, program: &str, yes: &str, no: &str) -> Finding {
    match which(program) {
        Some(p) => finding(check, Status::Ok, format!("{program} at {}", p.display()), yes),
        None => finding(check, Status::Warn, format!("no `{program}` on PATH"), no),
    }
}

/// Maven and Gradle: on PATH, or the project's wrapper.
fn build_tools() -> Vec<Finding> {
    let cwd = std::env::current_dir().unwrap_or_default();
    let tool = |check: &'static str, program: &str, wrapper: &str, yes: &str, no: &str| {
        let w = cwd.join(wrapper);
        match (which(program), w.is_file()) {
            (Some(p), _) => finding(check, Status::Ok, format!("{program} at {}", p.display()), yes),
            (None, true) => finding(check, Status::Ok, format!("the project's {wrapper}"), yes),
            (None, false) => finding(check, Status::Warn, format!("no `{program}` on PATH, no ./{wrapper}"), no),
        }
    };
    vec![
        tool(
            "maven",
            "mvn",
            "mvnw",
            "Maven projects' classpaths resolve through Maven; run_tests and maven_goal can run it",
            "Maven projects use the jars already in ~/.m2; run_tests takes the JUnit launcher path only",
        ),
        tool(
            "gradle",
            "gradle",
            "gradlew",
            "Gradle projects' classpaths resolve and their tests run through Gradle",
            "Gradle projects use the jars already in Gradle's cache; their tests cannot run",
        ),
    ]
}

/// The cache directory: writable (a file created and removed there) and its size.
fn cache(dir: &Path) -> Finding {
    let existed = dir.is_dir();
    let probe = dir.join(format!(".doctor-{}", std::process::id()));
    // Written as every file is (a new file only, never through a link a repository planted in
    // the cache directory), then removed.
    let writable = std::fs::create_dir_all(dir)
        .and_then(|_| mji_fs::write::write_user(&probe, b"", mji_fs::write::Options::private().new_only()))
        .and_then(|_| std::fs::remove_file(&probe));
    if !existed {
        // Looking must not leave a directory behind.
        let _ = std::fs::remove_dir(dir);
    }
    match writable {
        Ok(()) => {
            let (files, bytes) = if existed { size(dir) } else { (0, 0) };
            let found = if existed {
                format!("{} (writable, {files} files, {:.1} MB)", dir.display(), bytes as f64 / 1e6)
            } else {
                format!("{} (writable, created on the first start)", dir.display())
            };
            finding("cache", Status::Ok, found, "restarts start warm from it")
        }
        Err(e) => finding(
            "cache",
            Status::Warn,
            format!("{} is not writable ({e})", dir.display()),
            "the server indexes from scratch at every start (set cache_dir)",
        ),
    }
}

/// Files and bytes under `dir` (links not followed).
fn size(dir: &Path) -> (u64, u64) {
    let (mut files, mut bytes) = (0u64, 0u64);
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let Ok(m) = e.path().symlink_metadata() else { continue };
            if m.is_dir() {
                stack.push(e.path());
            } else if m.is_file() {
                files += 1;
                bytes += m.len();
            }
        }
    }
    (files, bytes)
}

/// The MCP clients configured with this server for the project.
fn clients(project: &Path) -> Vec<Finding> {
    let found = setup::configured(project);
    let mut out: Vec<Finding> = found
        .iter()
        .filter(|(_, _, names)| !names.is_empty())
        .map(|(c, file, names)| {
            finding("client", Status::Ok, format!("{} in {} as {}", c.name(), file.display(), names.join(", ")), "")
        })
        .collect();
    if out.is_empty() {
        out.push(finding(
            "client",
            Status::Warn,
            "no MCP client configuration of this project names mcp-java-index",
            "register it: `mcp-java-index setup claude-code` (or vscode, cursor, codex, gemini)",
        ));
    }
    out
}
