//! What the working tree changed against git's `HEAD`: each changed file's changed line
//! ranges, from `git diff --unified=0` (run as argv through [`crate::process`], never a shell),
//! and the untracked files (new files: wholly changed).

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::process::{Process, Spec};

/// A changed file and its changed line ranges in the working tree (1-based, inclusive); no
/// ranges: the whole file (new, untracked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Changed {
    pub path: PathBuf,
    pub lines: Vec<(u32, u32)>,
}

/// A log file of its own under `scratch` for one git run (calls may run at once).
fn log_in(scratch: &Path, what: &str) -> PathBuf {
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    scratch.join(format!("git-{what}-{}-{n}.log", std::process::id()))
}

/// Runs git in `root` with `args` and answers its output (`log` holds it).
fn git(root: &Path, args: &[&str], log: &Path) -> Result<String, String> {
    let mut argv: Vec<std::ffi::OsString> = vec!["git".into()];
    argv.extend(args.iter().map(Into::into));
    let spec = Spec { argv, cwd: root.to_path_buf(), env: Vec::new() };
    let p = Process::start(&spec, log)?;
    let exit = match p.wait_for(Duration::from_secs(60)) {
        Some(e) => e,
        None => {
            p.kill();
            return Err(format!("`{}` took over 60 s", spec.shown()));
        }
    };
    let out = std::fs::read_to_string(log).map_err(|e| format!("reading {}: {e}", log.display()))?;
    let _ = std::fs::remove_file(log);
    if exit.code != Some(0) {
        return Err(format!("`{}` failed: {}", spec.shown(), out.trim()));
    }
    Ok(out)
}

/// The `.java` files of `root`'s git work tree that differ from `HEAD` (only `files`, when
/// given), with their changed lines. `scratch` is a directory for git's output.
pub fn changed_since_head(root: &Path, files: &[PathBuf], scratch: &Path) -> Result<Vec<Changed>, String> {
    let mut args = vec!["diff", "--no-color", "--no-ext-diff", "--unified=0", "--relative", "HEAD", "--"];
    let named: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    args.extend(named.iter().map(String::as_str));
    if named.is_empty() {
        args.push("*.java");
    }
    let diff = git(root, &args, &log_in(scratch, "diff"))?;
    let mut out = parse_diff(&diff, root);
    let mut others = vec!["ls-files", "--others", "--exclude-standard", "--"];
    others.extend(named.iter().map(String::as_str));
    if named.is_empty() {
        others.push("*.java");
    }
    for l in git(root, &others, &log_in(scratch, "others"))?.lines() {
        if l.ends_with(".java") {
            out.push(Changed { path: root.join(l), lines: Vec::new() });
        }
    }
    Ok(out)
}

/// The changed line ranges of a `--unified=0` diff, paths relative to `root`.
pub fn parse_diff(diff: &str, root: &Path) -> Vec<Changed> {
    let mut out: Vec<Changed> = Vec::new();
    for l in diff.lines() {
        if let Some(p) = l.strip_prefix("+++ ") {
            match p.strip_prefix("b/") {
                Some(rel) if rel.ends_with(".java") => out.push(Changed { path: root.join(rel), lines: Vec::new() }),
                // Deleted (`/dev/null`) or not Java: its hunks belong to no file kept.
                _ => out.push(Changed { path: PathBuf::new(), lines: Vec::new() }),
            }
        } else if let Some(h) = l.strip_prefix("@@ ")
            && let Some(c) = out.last_mut()
            && let Some(new) = h.split(' ').find_map(|w| w.strip_prefix('+'))
        {
            let (start, count) = match new.split_once(',') {
                Some((s, n)) => (s.parse::<u32>().unwrap_or(0), n.parse::<u32>().unwrap_or(1)),
                None => (new.parse::<u32>().unwrap_or(0), 1),
            };
            // A deletion (`+c,0`) is between line c and c + 1: both are its neighbours.
            let range = if count == 0 { (start.max(1), start + 1) } else { (start, start + count - 1) };
            c.lines.push(range);
        }
    }
    out.retain(|c| !c.path.as_os_str().is_empty() && !c.lines.is_empty());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hunks_give_the_changed_lines_of_each_java_file() {
        let diff = "diff --git a/m/src/A.java b/m/src/A.java\n--- a/m/src/A.java\n+++ b/m/src/A.java\n@@ -3 +3 @@ class A {\n-x\n+y\n@@ -10,2 +10,0 @@\n-a\n-b\n@@ -20,0 +19,3 @@\n+c\n+d\n+e\ndiff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-a\n+b\n--- a/Gone.java\n+++ /dev/null\n@@ -1,3 +0,0 @@\n";
        let got = parse_diff(diff, Path::new("/w"));
        assert_eq!(
            got,
            vec![Changed { path: PathBuf::from("/w/m/src/A.java"), lines: vec![(3, 3), (10, 11), (19, 21)] }]
        );
    }
}
