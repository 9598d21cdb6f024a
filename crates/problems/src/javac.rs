//! The warm compiler: finds the JDK (`JAVA_HOME`, else `javac` on `PATH`), compiles the
//! embedded `JavacHelper.java` once into the cache directory (keyed by its content hash),
//! runs it as a child process and talks to it over stdin/stdout. javac in the helper reads no
//! source file over `max_file_bytes`, none that is not a regular file, and none reached
//! through a link below its source path entry, nor such a class file under a class directory
//! inside the workspace roots (its file manager refuses them). The helper
//! halts the moment its stdin closes, busy or not, so it dies with the server however the
//! server ends (`kill -9` included: the kernel closes the pipe); dropping [`Helper`] also
//! kills it.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use crate::{Position, Problem, ProblemSource, Range, Severity};

/// The helper's source, shipped inside the binary.
pub(crate) const HELPER_SOURCE: &str = include_str!("JavacHelper.java");

pub use mji_fs::jdk::{JdkInstall, find_jdk};

/// Where the helper is compiled: `$XDG_CACHE_HOME/mcp-java-index/javac-helper`, else
/// `~/.cache/mcp-java-index/javac-helper`, else a directory of this process under the system's
/// temporary directory. Never under a workspace root, where a repository could have planted a
/// class file of the same name.
pub fn user_helper_dir() -> PathBuf {
    match mji_fs::provenance::user_cache_dir() {
        Some(b) => b.join("javac-helper"),
        None => std::env::temp_dir().join(format!("mcp-java-index-javac-helper-{}", std::process::id())),
    }
}

/// One diagnostic as the helper reported it.
#[derive(Debug, Clone)]
pub struct RawDiag {
    pub kind: String,
    pub path: PathBuf,
    pub start: Position,
    pub end: Position,
    pub code: String,
    pub message: String,
}

impl RawDiag {
    pub(crate) fn into_problem(self, display: &str) -> Problem {
        let severity = match self.kind.as_str() {
            "ERROR" => Severity::Error,
            "WARNING" | "MANDATORY_WARNING" => Severity::Warning,
            _ => Severity::Information,
        };
        Problem {
            file: display.to_owned(),
            line: self.start.line,
            column: self.start.column,
            severity,
            source: ProblemSource::Javac,
            code: self.code,
            message: self.message,
            range: Range { start: self.start, end: self.end },
            cause: None,
            fixes: Vec::new(),
        }
    }
}

/// Why a compile request gave no diagnostics.
#[derive(Debug, Clone)]
pub enum Failure {
    /// javac threw on these files (a compiler bug, a stack overflow on deeply nested code);
    /// the helper itself answered.
    Crashed(String),
    /// The helper could not be started, died or spoke nonsense.
    Helper(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Crashed(why) | Failure::Helper(why) => f.write_str(why),
        }
    }
}

/// javac's own words when it swallowed an exception (`JavacTaskImpl.handleExceptions`).
const JAVAC_BUG: &str = "An exception has occurred in the compiler";

/// The running helper process.
pub struct Helper {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    version: String,
}

fn hex_hash(s: &str) -> String {
    mji_parser::content_hash(s.as_bytes())[..16].to_owned()
}

/// Compiles the helper into `dir/<hash>/` unless already there; returns that directory.
fn compiled_helper(jdk: &JdkInstall, dir: &Path) -> Result<PathBuf, String> {
    let out = dir.join(hex_hash(HELPER_SOURCE));
    if out.join("JavacHelper.class").is_file() {
        return Ok(out);
    }
    let tmp =
        dir.join(format!("tmp-{}-{}", std::process::id(), hex_hash(&format!("{:?}", std::time::SystemTime::now()))));
    let io = |what: &str, e: std::io::Error| format!("{what} {}: {e}", tmp.display());
    std::fs::create_dir_all(&tmp).map_err(|e| io("creating", e))?;
    let src = tmp.join("JavacHelper.java");
    let opts = mji_fs::write::Options { create_dirs: false, ..Default::default() };
    mji_fs::write::write_below(&tmp, Path::new("JavacHelper.java"), HELPER_SOURCE.as_bytes(), opts)
        .map_err(|e| io("writing into", e))?;
    let result = Command::new(&jdk.javac)
        .arg("-d")
        .arg(&tmp)
        .arg("-nowarn")
        .arg(&src)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("running {}: {e}", jdk.javac.display()));
    let result = result.and_then(|o| {
        if o.status.success() {
            Ok(())
        } else {
            Err(format!("compiling the javac helper failed: {}", String::from_utf8_lossy(&o.stderr).trim()))
        }
    });
    if let Err(e) = result {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e);
    }
    // Atomic publish; another process may have won the race, which is fine.
    if std::fs::rename(&tmp, &out).is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    if out.join("JavacHelper.class").is_file() {
        Ok(out)
    } else {
        Err(format!("the javac helper did not appear in {}", out.display()))
    }
}

impl Helper {
    /// Compiles (if needed) and starts the helper, whose javac reads no source file over
    /// `max_file_bytes` or through a link, nor a class file so under a class directory inside
    /// `roots`; waits for its `ready` line.
    pub fn start(jdk: &JdkInstall, dir: &Path, max_file_bytes: u64, roots: &[PathBuf]) -> Result<Helper, String> {
        let classes = compiled_helper(jdk, dir)?;
        let mut child = Command::new(&jdk.java)
            .args(["-XX:+UseSerialGC", "-Xshare:auto", "-cp"])
            .arg(&classes)
            .arg("JavacHelper")
            .arg(max_file_bytes.to_string())
            .args(roots)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("starting {}: {e}", jdk.java.display()))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err("the javac helper has no pipes".to_owned());
        };
        let mut h = Helper { child, stdin, stdout: BufReader::new(stdout), version: String::new() };
        let line = h.read_line()?;
        if let Some(v) = line.strip_prefix("ready ") {
            h.version = v.trim().to_owned();
            Ok(h)
        } else {
            Err(line.strip_prefix("fatal ").unwrap_or(&line).trim().to_owned())
        }
    }

    pub fn version(&self) -> &str {
        &self.version
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    fn read_line(&mut self) -> Result<String, String> {
        let mut line = String::new();
        match self.stdout.read_line(&mut line) {
            Ok(0) => Err("the javac helper exited".to_owned()),
            Ok(_) => Ok(line.trim_end_matches(['\n', '\r']).to_owned()),
            Err(e) => Err(format!("reading from the javac helper: {e}")),
        }
    }

    /// Compiles `files` together with `options`; every diagnostic javac gave (callers keep
    /// those of the files they asked about).
    pub fn compile(&mut self, options: &[String], files: &[&Path]) -> Result<Vec<RawDiag>, Failure> {
        self.request("compile", options, files).map_err(Failure::Helper)?
    }

    /// Compiles `files` and writes their class files into the `-d` directory of `options`.
    pub fn generate(&mut self, options: &[String], files: &[&Path]) -> Result<Vec<RawDiag>, Failure> {
        self.request("generate", options, files).map_err(Failure::Helper)?
    }

    fn request(
        &mut self,
        kind: &str,
        options: &[String],
        files: &[&Path],
    ) -> Result<Result<Vec<RawDiag>, Failure>, String> {
        let mut req = format!("{kind}\n");
        for o in options {
            req.push_str("option ");
            req.push_str(&o.replace(['\n', '\r'], " "));
            req.push('\n');
        }
        for f in files {
            req.push_str("file ");
            req.push_str(&f.to_string_lossy());
            req.push('\n');
        }
        req.push_str("end\n");
        self.stdin
            .write_all(req.as_bytes())
            .and_then(|_| self.stdin.flush())
            .map_err(|e| format!("writing to the javac helper: {e}"))?;
        let mut out = Vec::new();
        let mut failure = None;
        loop {
            let line = self.read_line()?;
            if line.starts_with("done") {
                break;
            } else if let Some(rest) = line.strip_prefix("diag ") {
                if let Some(d) = parse_diag(rest) {
                    out.push(d);
                }
            } else if let Some(rest) = line.strip_prefix("fail ") {
                failure = Some(unescape(rest));
            }
        }
        if failure.is_none()
            && let Some(d) = out.iter().find(|d| d.code == "compiler.misc.output" && d.message.contains(JAVAC_BUG))
        {
            failure = Some(
                d.message
                    .lines()
                    .find(|l| l.contains("Error") || l.contains("Exception"))
                    .unwrap_or(JAVAC_BUG)
                    .to_owned(),
            );
        }
        Ok(match failure {
            Some(f) => Err(Failure::Crashed(f.lines().next().unwrap_or("").trim().to_owned())),
            None => Ok(out),
        })
    }
}

impl Drop for Helper {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn parse_diag(rest: &str) -> Option<RawDiag> {
    let f: Vec<&str> = rest.splitn(8, '\t').collect();
    if f.len() < 8 {
        return None;
    }
    let n = |s: &str| s.parse::<u32>().unwrap_or(0);
    Some(RawDiag {
        kind: f[0].to_owned(),
        path: PathBuf::from(unescape(f[1])),
        start: Position { line: n(f[2]), column: n(f[3]) },
        end: Position { line: n(f[4]), column: n(f[5]) },
        code: f[6].to_owned(),
        message: unescape(f[7]),
    })
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_helper_lines() {
        let d =
            parse_diag("ERROR\t/a/B.java\t3\t5\t3\t9\tcompiler.err.x\tcannot find symbol\\n  symbol: x").expect("diag");
        assert_eq!((d.start.line, d.start.column, d.end.column), (3, 5, 9));
        assert_eq!(d.message, "cannot find symbol\n  symbol: x");
        assert_eq!(d.into_problem("B.java").severity, Severity::Error);
    }

    #[test]
    fn no_jdk_says_why() {
        let e = find_jdk(None, Some(std::ffi::OsStr::new("/nonexistent"))).expect_err("no jdk");
        assert!(e.contains("no JDK found"), "{e}");
        let e = find_jdk(Some(Path::new("/nonexistent")), None).expect_err("bad home");
        assert!(e.contains("JAVA_HOME"), "{e}");
    }
}
