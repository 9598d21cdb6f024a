//! What the working tree changed against git's `HEAD`: each changed `.java` file's changed
//! line ranges, and the untracked files (new files: wholly changed) — found without letting the
//! repository run anything.
//!
//! A repository chooses commands git runs while it diffs: `core.fsmonitor` (run whenever the
//! index is read), `filter.<f>.clean`/`process` and `diff.<d>.textconv` named by
//! `.gitattributes` (run on work-tree contents). A `-c` cannot switch off a filter whose name it
//! does not know, so no porcelain that converts contents is ever run. Instead:
//! - the repository is the `.git` *directory* found by walking up from the root with `lstat`
//!   (a linked worktree's `.git` file only when it points back and forth as `git worktree` made
//!   it), named to git by `GIT_DIR`/`GIT_WORK_TREE`, so git never discovers a bare repository
//!   committed as plain files (its `config` never read), and anything else is refused;
//! - the files at `HEAD` come from `git ls-tree` (tree objects only), the work tree's bytes are
//!   read here (no link followed, size-bounded) and hashed as git blobs: a file whose id differs
//!   is changed (one a filter would normalise counts as changed, then its lines are compared);
//! - the old contents come from `git cat-file --batch` (raw objects: no `--filters`, no
//!   `--textconv`), and the changed lines from a line diff computed here;
//! - the untracked files from `git ls-files --others` (names only, never contents);
//! - every git run with the flags of [`SAFE_CONFIG`] and the environment of [`git`].

use std::collections::HashSet;
use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A changed file and its changed line ranges in the working tree (1-based, inclusive); no
/// ranges: the whole file (new, untracked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Changed {
    pub path: PathBuf,
    pub lines: Vec<(u32, u32)>,
}

/// Settings given on every git command line (command-line settings win over every config
/// file): no fsmonitor hook, no hooks, no external diff, no untracked cache, no automatic gc,
/// no bare repository unless named, no transport at all (a partial clone's lazy fetch would
/// run the repository's `core.sshCommand` or a remote helper).
pub const SAFE_CONFIG: &[&str] = &[
    "core.fsmonitor=false",
    "core.hooksPath=/dev/null",
    "diff.external=",
    "core.untrackedCache=false",
    "gc.auto=0",
    "maintenance.auto=false",
    "safe.bareRepository=explicit",
    "protocol.allow=never",
];

/// Environment variables removed from every git run: a caller's (a hook's, an alias's) choice
/// of repository, index or objects would point git elsewhere than the repository found here.
const CLEARED_ENV: &[&str] = &[
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_COMMON_DIR",
    "GIT_NAMESPACE",
    "GIT_CONFIG",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
    "GIT_EXTERNAL_DIFF",
    "GIT_PAGER",
    "GIT_ASKPASS",
    "GIT_SSH",
    "GIT_SSH_COMMAND",
];

/// How long one git run may take.
const GIT_TIMEOUT: Duration = Duration::from_secs(60);
/// The most bytes of output read from one git run.
const MAX_GIT_OUTPUT: u64 = 1 << 30;
/// How long the line diff of one file may search for the smallest diff (past it, a coarser
/// one: still every changed line, maybe a few more).
const DIFF_DEADLINE: Duration = Duration::from_secs(2);

/// The git repository that holds a root: the directory git is told is the repository, and its
/// work tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repo {
    pub git_dir: PathBuf,
    pub work_tree: PathBuf,
}

fn refused(root: &Path, why: impl std::fmt::Display) -> String {
    format!("{} is not inside a git work tree this can read without running its configuration: {why}", root.display())
}

/// The repository whose work tree holds `root` (absolute): the nearest `.git` above it, looked
/// at with `lstat`. A real `.git` directory (with a `HEAD` file) is the repository; a `.git`
/// file is accepted only as a linked worktree's (`gitdir: <main>/.git/worktrees/<name>`, the
/// main `.git` a real directory, its `gitdir` file naming this `.git` back); a symbolic link,
/// anything else, or no `.git` at all is refused. A bare repository on the way (committed as
/// plain files) is never looked at.
pub fn find_repo(root: &Path) -> Result<Repo, String> {
    if !root.is_absolute() {
        return Err(refused(root, "not an absolute path"));
    }
    for dir in root.ancestors() {
        let dot = dir.join(".git");
        let meta = match std::fs::symlink_metadata(&dot) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(refused(root, format!("{}: {e}", dot.display()))),
        };
        let ft = meta.file_type();
        if ft.is_symlink() {
            return Err(refused(root, format!("{} is a symbolic link", dot.display())));
        }
        if ft.is_dir() {
            let head = std::fs::symlink_metadata(dot.join("HEAD"));
            if !head.is_ok_and(|m| m.is_file()) {
                return Err(refused(root, format!("{} has no HEAD file", dot.display())));
            }
            return Ok(Repo { git_dir: dot, work_tree: dir.to_path_buf() });
        }
        if ft.is_file() {
            return linked_worktree(&dot, dir).map_err(|why| refused(root, why));
        }
        return Err(refused(root, format!("{} is neither a directory nor a file", dot.display())));
    }
    Err(refused(root, "no .git directory in it or above it"))
}

/// A linked worktree's repository, from its `.git` file `dot` in `dir` (see [`find_repo`]).
fn linked_worktree(dot: &Path, dir: &Path) -> Result<Repo, String> {
    let text = mji_fs::read_regular(dot, 4096).map_err(|e| format!("{}: {e}", dot.display()))?;
    let text = String::from_utf8_lossy(&text);
    let named = text
        .trim()
        .strip_prefix("gitdir:")
        .map(str::trim)
        .ok_or_else(|| format!("{} is a file but not a worktree's `gitdir:` pointer", dot.display()))?;
    let git_dir = mji_fs::lexical_normalize(&dir.join(named));
    let not_worktree =
        || format!("{} points to {}, not a worktree of a .git directory", dot.display(), git_dir.display());
    let worktrees = git_dir.parent().ok_or_else(not_worktree)?;
    let main = worktrees.parent().ok_or_else(not_worktree)?;
    if worktrees.file_name() != Some("worktrees".as_ref()) || main.file_name() != Some(".git".as_ref()) {
        return Err(not_worktree());
    }
    // Every directory from the main `.git` down is real (no link on the way).
    for d in [main, worktrees, git_dir.as_path()] {
        match std::fs::symlink_metadata(d) {
            Ok(m) if m.file_type().is_dir() => {}
            _ => return Err(not_worktree()),
        }
    }
    let back = mji_fs::read_regular(&git_dir.join("gitdir"), 4096).map_err(|_| not_worktree())?;
    let back = PathBuf::from(String::from_utf8_lossy(&back).trim());
    let same = |a: &Path, b: &Path| match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if !same(&back, dot) {
        return Err(format!("{} does not name {} back", git_dir.join("gitdir").display(), dot.display()));
    }
    Ok(Repo { git_dir, work_tree: dir.to_path_buf() })
}

/// Runs git on `repo` with `args` (and `input` on its standard input) and answers its standard
/// output. Only the repository found by [`find_repo`] is named to it; nothing from the system
/// config is read (the user's own global config is kept: it is the user's); no prompt, no
/// optional lock, no lazy fetch, no replace refs, pathspecs literal.
fn git(repo: &Repo, args: &[OsString], input: Option<Vec<u8>>) -> Result<Vec<u8>, String> {
    let mut cmd = Command::new("git");
    for c in SAFE_CONFIG {
        cmd.args(["-c", c]);
    }
    cmd.arg("--no-pager").args(args).current_dir(&repo.work_tree);
    for k in CLEARED_ENV {
        cmd.env_remove(k);
    }
    cmd.env("GIT_DIR", &repo.git_dir)
        .env("GIT_WORK_TREE", &repo.work_tree)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .env("GIT_NO_LAZY_FETCH", "1")
        .env("GIT_NO_REPLACE_OBJECTS", "1")
        .env("GIT_LITERAL_PATHSPECS", "1")
        .stdin(if input.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let shown = format!("git {}", args.iter().map(|a| a.to_string_lossy()).collect::<Vec<_>>().join(" "));
    let mut child = cmd.spawn().map_err(|e| format!("running `{shown}`: {e}"))?;
    let writer = match (input, child.stdin.take()) {
        (Some(bytes), Some(mut stdin)) => Some(std::thread::spawn(move || {
            // A write error means git stopped reading: its exit says why.
            let _ = stdin.write_all(&bytes);
        })),
        _ => None,
    };
    let read_all = |r: Option<Box<dyn Read + Send>>, cap: u64| {
        std::thread::spawn(move || {
            let mut out = Vec::new();
            if let Some(r) = r {
                let _ = r.take(cap + 1).read_to_end(&mut out);
            }
            out
        })
    };
    let stdout = read_all(child.stdout.take().map(|s| Box::new(s) as Box<dyn Read + Send>), MAX_GIT_OUTPUT);
    let stderr = read_all(child.stderr.take().map(|s| Box::new(s) as Box<dyn Read + Send>), 64 * 1024);
    let deadline = Instant::now() + GIT_TIMEOUT;
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(5)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("`{shown}` took over {} s", GIT_TIMEOUT.as_secs()));
            }
            Err(e) => return Err(format!("waiting for `{shown}`: {e}")),
        }
    };
    if let Some(w) = writer {
        let _ = w.join();
    }
    let out = stdout.join().map_err(|_| format!("reading the output of `{shown}`"))?;
    let err = stderr.join().unwrap_or_default();
    if !status.success() {
        return Err(format!("`{shown}` failed: {}", String::from_utf8_lossy(&err).trim()));
    }
    if out.len() as u64 > MAX_GIT_OUTPUT {
        return Err(format!("`{shown}` wrote over {MAX_GIT_OUTPUT} bytes"));
    }
    Ok(out)
}

/// A path git printed (bytes, relative to the work tree).
fn git_path(bytes: &[u8]) -> PathBuf {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
    }
    #[cfg(not(unix))]
    {
        PathBuf::from(String::from_utf8_lossy(bytes).into_owned())
    }
}

/// A path as git takes it on its command line (relative to the work tree, `/`-separated).
fn arg_of(rel: &Path) -> OsString {
    let mut s = OsString::new();
    for (i, c) in rel.components().enumerate() {
        if i > 0 {
            s.push("/");
        }
        s.push(c.as_os_str());
    }
    s
}

/// The git blob id (SHA-1) of `bytes`.
pub fn blob_id(bytes: &[u8]) -> String {
    use sha1::Digest;
    let mut h = sha1::Sha1::new();
    h.update(format!("blob {}\0", bytes.len()).as_bytes());
    h.update(bytes);
    mji_fs::provenance::hex(&h.finalize())
}

/// The bytes of the work-tree file `rel` of `repo`: None when it is absent, or is (or is
/// reached through) a symbolic link, or is not a regular file, or is over `cap` bytes.
fn read_in_tree(work_tree: &Path, real_top: Option<&Path>, rel: &Path, cap: u64) -> Option<Vec<u8>> {
    let mut at = work_tree.to_path_buf();
    let parts: Vec<_> = rel.components().collect();
    let (last, dirs) = parts.split_last()?;
    for c in dirs {
        let std::path::Component::Normal(c) = c else { return None };
        at.push(c);
        if !std::fs::symlink_metadata(&at).ok()?.file_type().is_dir() {
            return None;
        }
    }
    at.push(last.as_os_str());
    let (file, meta) = mji_fs::open_regular(&at, cap).ok()?;
    // Opened where it was meant to be (a link swapped in on the way would lead elsewhere).
    if let (Some(top), Some(real)) = (real_top, mji_fs::real_path(&file))
        && !real.starts_with(top)
    {
        return None;
    }
    mji_fs::read_opened(file, &meta, cap).ok()
}

/// One `.java` blob of `HEAD`'s tree: its id, size and path (relative to the work tree).
struct Entry {
    id: String,
    size: u64,
    rel: PathBuf,
}

/// The regular-file `.java` blobs of `git ls-tree -r -z -l` output under `prefix`, kept by
/// `keep`.
fn parse_ls_tree(out: &[u8], keep: &dyn Fn(&Path) -> bool) -> Vec<Entry> {
    let mut entries = Vec::new();
    for rec in out.split(|&b| b == 0).filter(|r| !r.is_empty()) {
        let Some(tab) = rec.iter().position(|&b| b == b'\t') else { continue };
        let (meta, path) = (&rec[..tab], &rec[tab + 1..]);
        let meta = String::from_utf8_lossy(meta);
        let f: Vec<&str> = meta.split_whitespace().collect();
        // Symbolic links (120000) and submodules (160000) are no files of this tree.
        let [mode, "blob", id, size] = f.as_slice() else { continue };
        if !matches!(*mode, "100644" | "100755") || !path.ends_with(b".java") {
            continue;
        }
        let rel = git_path(path);
        if keep(&rel) {
            entries.push(Entry { id: (*id).to_owned(), size: size.parse().unwrap_or(u64::MAX), rel });
        }
    }
    entries
}

/// The contents of the blobs `ids` from `git cat-file --batch` output, in order (None: missing).
fn parse_batch(out: &[u8], ids: &[&str]) -> Vec<Option<Vec<u8>>> {
    let mut got = Vec::with_capacity(ids.len());
    let mut at = 0;
    for _ in ids {
        let Some(nl) = out[at..].iter().position(|&b| b == b'\n') else { break };
        let header = String::from_utf8_lossy(&out[at..at + nl]).into_owned();
        at += nl + 1;
        let f: Vec<&str> = header.split(' ').collect();
        match f.as_slice() {
            [_, "blob", size] => {
                let Ok(n) = size.parse::<usize>() else { break };
                let Some(body) = out.get(at..at + n) else { break };
                got.push(Some(body.to_vec()));
                at += n + 1;
            }
            [_, _, size] => {
                // Not a blob: skip its contents.
                at += size.parse::<usize>().unwrap_or(0) + 1;
                got.push(None);
            }
            _ => got.push(None),
        }
    }
    got.resize(ids.len(), None);
    got
}

/// The lines of `bytes`, each without its line ending (`\n`, `\r\n`: a change of line endings
/// alone, as a repository's `autocrlf` makes, is no change of code).
fn lines_of(bytes: &[u8]) -> Vec<&[u8]> {
    if bytes.is_empty() {
        return Vec::new();
    }
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    body.split(|&b| b == b'\n').map(|l| l.strip_suffix(b"\r").unwrap_or(l)).collect()
}

/// The line ranges of `new` (1-based, inclusive) that differ from `old`; a deletion marks both
/// lines around it.
pub fn changed_lines(old: &[u8], new: &[u8]) -> Vec<(u32, u32)> {
    let (o, n) = (lines_of(old), lines_of(new));
    let ops =
        similar::capture_diff_slices_deadline(similar::Algorithm::Myers, &o, &n, Some(Instant::now() + DIFF_DEADLINE));
    let mut out = Vec::new();
    for op in ops {
        let (tag, _, new) = op.as_tag_tuple();
        if tag == similar::DiffTag::Equal {
            continue;
        }
        let (s, e) = (new.start as u32, new.end as u32);
        // A deletion sits between new lines s and s + 1: both are its neighbours.
        out.push(if s == e { (s.max(1), s + 1) } else { (s + 1, e) });
    }
    out
}

/// The `.java` files of `root`'s git work tree that differ from `HEAD` (only `files`, when
/// given), with their changed lines; work-tree files over `max_file_bytes` are not read (and not
/// listed). Runs nothing the repository chose (see the module's comment).
pub fn changed_since_head(root: &Path, files: &[PathBuf], max_file_bytes: u64) -> Result<Vec<Changed>, String> {
    let repo = find_repo(root)?;
    let prefix = root.strip_prefix(&repo.work_tree).map_err(|e| refused(root, e))?.to_path_buf();
    let named: HashSet<PathBuf> = files
        .iter()
        .filter_map(|f| f.strip_prefix(&repo.work_tree).ok())
        .filter(|r| r.starts_with(&prefix))
        .map(Path::to_path_buf)
        .collect();
    if !files.is_empty() && named.is_empty() {
        return Ok(Vec::new());
    }
    let keep = |rel: &Path| rel.starts_with(&prefix) && (named.is_empty() || named.contains(rel));
    let scope: Vec<OsString> = if named.is_empty() {
        if prefix.as_os_str().is_empty() { Vec::new() } else { vec![arg_of(&prefix)] }
    } else {
        named.iter().map(|r| arg_of(r)).collect()
    };
    let argv =
        |fixed: &[&str]| -> Vec<OsString> { fixed.iter().map(OsString::from).chain(scope.iter().cloned()).collect() };

    let args = argv(&["ls-tree", "-r", "-z", "-l", "--full-tree", "HEAD", "--"]);
    let tree = git(&repo, &args, None)?;
    let real_top = std::fs::canonicalize(&repo.work_tree).ok();
    let mut candidates: Vec<(Entry, Vec<u8>)> = Vec::new();
    for e in parse_ls_tree(&tree, &keep) {
        let Some(bytes) = read_in_tree(&repo.work_tree, real_top.as_deref(), &e.rel, max_file_bytes) else { continue };
        if e.id.len() == 40 && blob_id(&bytes) == e.id {
            continue;
        }
        // Another object format (SHA-256): no quick check; the lines tell.
        if e.size <= max_file_bytes {
            candidates.push((e, bytes));
        }
    }
    let mut out = Vec::new();
    if !candidates.is_empty() {
        let ids: Vec<&str> = candidates.iter().map(|(e, _)| e.id.as_str()).collect();
        let input: Vec<u8> = ids.iter().flat_map(|id| format!("{id}\n").into_bytes()).collect();
        let batch = git(&repo, &["cat-file".into(), "--batch".into()], Some(input))?;
        for ((e, new), old) in candidates.iter().zip(parse_batch(&batch, &ids)) {
            let Some(old) = old else { continue };
            let lines = changed_lines(&old, new);
            if !lines.is_empty() {
                out.push(Changed { path: repo.work_tree.join(&e.rel), lines });
            }
        }
    }

    let args = argv(&["ls-files", "-z", "--others", "--exclude-standard", "--"]);
    let others = git(&repo, &args, None)?;
    for l in others.split(|&b| b == 0).filter(|l| l.ends_with(b".java")) {
        let rel = git_path(l);
        if keep(&rel) {
            out.push(Changed { path: repo.work_tree.join(rel), lines: Vec::new() });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
