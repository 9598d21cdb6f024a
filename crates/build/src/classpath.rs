//! The build context javac needs for a file: the project's source roots (`-sourcepath`) and
//! classpath, a module's main and test sources apart (a main file sees neither the test roots
//! nor test-scoped libraries, as `mvn compile`). Maven: `mvn -o dependency:build-classpath`
//! with `-DincludeScope=compile` (main) or `test`, run once per pom content and scope and
//! kept in the cache directory; without Maven, the pom's direct dependencies of that scope
//! found in the local repository (marked incomplete). Gradle: the build's files read as text (`gradle.rs`). Plain
//! directories: the root the package declaration implies, jars under `lib/` and
//! `target/dependency`, and `target/classes`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::Settings;
use crate::bounds::{Bounds, Kind};
use crate::pom::Effective;

pub use crate::files::{Context, jars_in, read_text, repo_local};

fn root_of<'a>(file: &Path, roots: &'a [PathBuf]) -> Option<&'a PathBuf> {
    roots.iter().filter(|r| file.starts_with(r)).max_by_key(|r| r.components().count())
}

use crate::gradle::{self, BUILD_FILES as GRADLE_FILES};

/// The project directory of a file and a fingerprint of what its context depends on (its
/// build files), so a context is resolved again only when they change.
pub fn project_of(file: &Path, roots: &[PathBuf]) -> (PathBuf, String) {
    let root = root_of(file, roots).cloned().unwrap_or_else(|| file.parent().unwrap_or(file).to_path_buf());
    let mut dir = file.parent();
    while let Some(d) = dir {
        if !d.starts_with(&root) {
            break;
        }
        if d.join("pom.xml").is_file() {
            let mut text = String::new();
            let mut p = Some(d);
            while let Some(a) = p.filter(|a| a.starts_with(&root)) {
                if let Ok(t) = read_text(&a.join("pom.xml")) {
                    text.push_str(&t);
                }
                p = a.parent();
            }
            // Main and test files of a module have classpaths of their own.
            let set = if Scope::of(file, d) == Scope::Test { "test" } else { "main" };
            return (d.to_path_buf(), format!("{}:{set}", mji_parser::content_hash(text.as_bytes())));
        }
        if GRADLE_FILES.iter().any(|g| d.join(g).is_file())
            || gradle::SETTINGS_FILES.iter().any(|g| d.join(g).is_file())
        {
            // A Gradle build: the module of the file, in the build of the nearest settings
            // file (a module without a script of its own is still a module).
            let build_root = gradle::settings_dir(file, &root).unwrap_or_else(|| d.to_path_buf());
            let b = gradle::build(&build_root);
            // Main and test files of a module have classpaths of their own.
            let dir = &b.module_of(file).dir;
            let set = if gradle::in_other_source_set(file, dir) { "test" } else { "main" };
            return (dir.clone(), format!("{}:{set}", gradle::fingerprint(&b)));
        }
        dir = d.parent();
    }
    let sr = package_root(file).unwrap_or_else(|| file.parent().unwrap_or(&root).to_path_buf());
    (sr, String::new())
}

/// Which of a Maven module's classpaths a file is checked against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Main sources: compile, provided and system dependencies (`-DincludeScope=compile`).
    Main,
    /// Test sources: every dependency (`-DincludeScope=test`) and the main sources.
    Test,
}

impl Scope {
    /// The scope of `file` in the Maven module at `dir`: test when it lies under the pom's
    /// `testSourceDirectory` (default `src/test/java`) or anywhere under `src/test`.
    pub fn of(file: &Path, dir: &Path) -> Scope {
        let declared = crate::pom::Pom::read(&dir.join("pom.xml")).ok().and_then(|p| p.test_source_directory);
        let declared = declared.map(|t| {
            let t = t.replace("${project.basedir}", "").replace("${basedir}", "");
            mji_fs::lexical_normalize(&dir.join(t.trim_start_matches('/')))
        });
        let under = |r: &Path| file.starts_with(r);
        if under(&dir.join("src/test")) || declared.as_deref().is_some_and(under) { Scope::Test } else { Scope::Main }
    }

    /// Maven's name, as `-DincludeScope` takes it.
    fn maven(self) -> &'static str {
        match self {
            Scope::Main => "compile",
            Scope::Test => "test",
        }
    }
}

/// The source root a file's package declaration implies (`src/com/x/A.java` in package
/// `com.x` gives `src`).
pub fn package_root(file: &Path) -> Option<PathBuf> {
    let bytes = mji_fs::read_regular(file, mji_fs::DEFAULT_MAX_FILE_BYTES).ok()?;
    let package = mji_parser::outline_declarations("", &bytes).package.unwrap_or_default();
    let mut dir = file.parent()?.to_path_buf();
    for part in package.split('.').filter(|p| !p.is_empty()).rev() {
        if dir.file_name().and_then(|n| n.to_str()) != Some(part) {
            return None;
        }
        dir = dir.parent()?.to_path_buf();
    }
    Some(dir)
}

/// Resolves the context of the project at `dir` (from [`project_of`]) for `file`. Source
/// roots outside the workspace roots, and classpath entries outside them and the user's Maven
/// and Gradle homes, are left out with a note ([`crate::bounds`]).
pub fn resolve(dir: &Path, file: &Path, roots: &[PathBuf], settings: &Settings) -> Context {
    let root = root_of(file, roots).cloned().unwrap_or_else(|| dir.to_path_buf());
    let mut c = Context { dir: dir.to_path_buf(), complete: true, ..Default::default() };
    let shown = match dir.strip_prefix(&root) {
        Ok(rel) if rel.as_os_str().is_empty() => ".".to_owned(),
        Ok(rel) => rel.to_string_lossy().replace('\\', "/"),
        Err(_) => dir.display().to_string(),
    };
    let mut origins: Vec<(PathBuf, String)> = Vec::new();
    if dir.join("pom.xml").is_file() {
        maven(&mut c, &root, roots, settings, &shown, Scope::of(file, dir));
    } else if let Some(build_root) = gradle::settings_dir(file, &root)
        .or_else(|| GRADLE_FILES.iter().any(|g| dir.join(g).is_file()).then(|| dir.to_path_buf()))
    {
        c = gradle::resolve(&build_root, file, &root, settings, &shown);
        origins = gradle::build(&build_root).origins();
    } else {
        c.source_roots.push(dir.to_path_buf());
        for base in [dir.to_path_buf(), root.clone()] {
            jars_in(&base.join("lib"), &mut c.classpath);
            jars_in(&base.join("target/dependency"), &mut c.classpath);
            if base.join("target/classes").is_dir() {
                c.classpath.push(base.join("target/classes"));
            }
            if base == root {
                break;
            }
        }
        c.classpath.dedup();
        c.notes.push(format!(
            "{shown}: no build file; classpath from lib/, target/dependency, target/classes and `classpath`"
        ));
    }
    // A file outside the usual layout still sees its own package's root.
    if !c.source_roots.iter().any(|r| file.starts_with(r))
        && let Some(r) = package_root(file)
    {
        origins.push((r.clone(), "the root the file's package declaration implies".to_owned()));
        c.source_roots.push(r);
    }
    let bounds = Bounds::new(roots, settings);
    let mut notes = Vec::new();
    bounds.retain(&mut c.source_roots, Kind::Sources, &root, &origins, &mut notes);
    bounds.retain(&mut c.classpath, Kind::Classpath, &root, &origins, &mut notes);
    c.notes.extend(notes.into_iter().map(|n| format!("{shown}: {n}")));
    c
}

/// Source roots of every Maven module in the reactor above `dir` (main roots only for a main
/// file), and the module's classpath of `scope` from `mvn` (or from its pom, incomplete).
fn maven(c: &mut Context, root: &Path, roots: &[PathBuf], settings: &Settings, shown: &str, scope: Scope) {
    let dir = c.dir.clone();
    let project = crate::project::project_for(&dir.join("pom.xml"), roots, Some(&repo_local(settings)), &[]);
    c.source_roots = match scope {
        Scope::Main => project.modules.iter().flat_map(|m| m.source_roots.iter().cloned()).collect(),
        Scope::Test => project.all_roots(),
    };
    c.notes.extend(project.problems.iter().map(|p| format!("{shown}: {p}")));
    c.generated = project.modules.iter().flat_map(|m| m.generated.iter().cloned()).collect();
    let (store, cached) = stored_path(&dir, root, settings, scope);
    // Maven runs the pom's plugins and extensions, repository code: only for a trusted
    // workspace. (A classpath cached in the repository's cache directory is not read either.)
    let resolved = if settings.trusted {
        read_stored(&cached).or_else(|_| run_mvn(&dir, settings, &store, &cached, scope))
    } else {
        Err(format!(
            "the workspace is not trusted, so `mvn -o -q -B -f {} dependency:build-classpath -DincludeScope={}` was not run (it executes the pom's plugins and extensions); to allow it, pass --trust, set MCP_JAVA_INDEX_TRUST=1, or add the root to trusted_roots in the user config ~/.config/{}",
            dir.join("pom.xml").display(),
            scope.maven(),
            mji_config::USER_FILE
        ))
    };
    match resolved {
        Ok(cp) => {
            c.classpath = std::env::split_paths(cp.trim()).filter(|p| !p.as_os_str().is_empty()).collect();
            c.notes.push(format!(
                "{shown}: {} classpath from Maven ({} entries)",
                if scope == Scope::Main { "main (compile scope)" } else { "test" },
                c.classpath.len()
            ));
        }
        Err(why) => {
            c.complete = false;
            let (cp, missing) = pom_dependencies(&dir, roots, settings, scope);
            c.classpath = cp;
            let mut note = format!(
                "{shown}: Maven could not resolve the classpath ({why}); using the pom's direct dependencies found in the local repository, without their dependencies"
            );
            if !missing.is_empty() {
                note.push_str(&format!("; not found: {}", missing.join(", ")));
            }
            c.notes.push(note);
        }
    }
}

/// Where Maven's classpath of the module at `dir` for `scope` is kept: the store directory
/// and the file, named by the pom's content, the local repository, the module and the scope.
fn stored_path(dir: &Path, root: &Path, settings: &Settings, scope: Scope) -> (PathBuf, PathBuf) {
    let fingerprint = project_of(&dir.join("pom.xml"), &[root.to_path_buf()]).1;
    let key = mji_parser::content_hash(
        format!("{fingerprint}\n{:?}\n{}\n{}", settings.maven_repo_local, dir.display(), scope.maven()).as_bytes(),
    );
    let store = settings.cache_dir.join("classpaths");
    let cached = store.join(format!("{key}.txt"));
    (store, cached)
}

/// The classpath Maven resolved for the module at `dir` (in root `root`) and `scope`, when
/// a run stored it (`get_problems`, `maven_update_project`) and the workspace is trusted;
/// nothing is run. `None` otherwise, and for a classpath this user did not store. Entries
/// outside the root and the user's Maven and Gradle homes (a `systemPath` jar) are left out.
pub fn maven_stored(dir: &Path, root: &Path, settings: &Settings, scope: Scope) -> Option<Vec<PathBuf>> {
    if !settings.trusted || !dir.join("pom.xml").is_file() {
        return None;
    }
    let cp = read_stored(&stored_path(dir, root, settings, scope).1).ok()?;
    let mut cp: Vec<PathBuf> = std::env::split_paths(cp.trim()).filter(|p| !p.as_os_str().is_empty()).collect();
    Bounds::new(&[root.to_path_buf()], settings).retain(&mut cp, Kind::Classpath, root, &[], &mut Vec::new());
    Some(cp)
}

/// `mvn -o -q dependency:build-classpath` of `scope` into the cache; the classpath text.
fn run_mvn(dir: &Path, settings: &Settings, store: &Path, cached: &Path, scope: Scope) -> Result<String, String> {
    let mvn = settings
        .path_env
        .as_deref()
        .map(std::env::split_paths)
        .into_iter()
        .flatten()
        .map(|d| d.join("mvn"))
        .find(|p| p.is_file())
        .ok_or("mvn is not on PATH")?;
    std::fs::create_dir_all(store).map_err(|e| format!("creating {}: {e}", store.display()))?;
    // Maven writes into a new file of ours (random name, made without following a link), which
    // goes away with `reserved`; the stored classpath is then written as every file is.
    let reserved =
        mji_fs::write::pending_user(cached, mji_fs::write::Options { create_dirs: false, ..Default::default() })
            .map_err(|e| format!("storing the classpath: {e}"))?;
    let tmp = reserved.path();
    let mut cmd = Command::new(mvn);
    cmd.current_dir(dir).args(["-o", "-q", "-B", "-f"]).arg(dir.join("pom.xml"));
    if let Some(r) = &settings.maven_repo_local {
        cmd.arg(format!("-Dmaven.repo.local={}", r.display()));
    }
    if let Some(p) = &settings.path_env {
        cmd.env("PATH", p);
    }
    if let Some(h) = &settings.java_home {
        cmd.env("JAVA_HOME", h);
    }
    cmd.arg("-Dstyle.color=never");
    cmd.arg("dependency:build-classpath")
        .arg(format!("-DincludeScope={}", scope.maven()))
        .arg(format!("-Dmdep.outputFile={}", tmp.display()));
    let out = cmd.stdin(Stdio::null()).output().map_err(|e| format!("running mvn: {e}"))?;
    if !out.status.success() {
        let text =
            strip_ansi(&(String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr)));
        let first = text.lines().map(str::trim).find(|l| l.contains("ERROR")).unwrap_or("mvn failed").to_owned();
        return Err(first.chars().take(300).collect());
    }
    let cp = mji_fs::read_regular(&tmp, 64 * 1024 * 1024)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    drop(reserved);
    let stored = mji_fs::provenance::Key::user().map(|k| format!("{}\n{cp}", stored_mac(k, cached, &cp)));
    let written = stored.map_err(|e| e.to_string()).and_then(|text| {
        mji_fs::write::write_user(
            cached,
            text.as_bytes(),
            mji_fs::write::Options { create_dirs: false, ..Default::default() },
        )
        .map_err(|e| format!("storing the classpath: {e}"))
    });
    written.map(|()| cp)
}

/// The MAC a stored classpath carries on its first line: under the user's key, of its path
/// and text, so a classpath file a repository shipped in its cache directory is not used.
fn stored_mac(key: &mji_fs::provenance::Key, path: &Path, cp: &str) -> String {
    mji_fs::provenance::hex(&key.mac_of(&[
        b"mcp-java-index classpath 1",
        path.as_os_str().as_encoded_bytes(),
        cp.as_bytes(),
    ]))
}

/// A classpath stored by [`run_mvn`] of this user at this path; an error for any other file.
fn read_stored(path: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let (mac, cp) = text.split_once('\n').ok_or("no MAC line")?;
    let key = mji_fs::provenance::Key::user()?;
    if mji_fs::provenance::same_mac(mac.as_bytes(), stored_mac(key, path, cp).as_bytes()) {
        Ok(cp.to_owned())
    } else {
        Err(format!("{} was not stored by this user here (its MAC does not hold)", path.display()))
    }
}

/// `text` without terminal colour and cursor sequences (`ESC [ … letter`).
pub fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            if chars.peek() == Some(&'[') {
                chars.next();
                for d in chars.by_ref() {
                    if d.is_ascii_alphabetic() {
                        break;
                    }
                }
            }
            continue;
        }
        out.push(c);
    }
    out
}

/// The pom's direct dependencies of `scope` (its own, its active profiles' and its parents',
/// versions and scopes from dependency management) found in the local repository, and those
/// not found. Main: compile and provided scope; test: every scope but import and system.
fn pom_dependencies(dir: &Path, roots: &[PathBuf], settings: &Settings, scope: Scope) -> (Vec<PathBuf>, Vec<String>) {
    let repo = repo_local(settings);
    let bounds = Bounds::of_roots(roots);
    let Ok(pom) = Effective::load(&dir.join("pom.xml"), Some(&repo), &[], &bounds) else {
        return (Vec::new(), Vec::new());
    };
    let (mut found, mut missing) = (Vec::new(), Vec::new());
    for d in pom.dependencies() {
        if matches!(d.scope.as_deref(), Some("import" | "system")) || d.kind.as_deref().is_some_and(|k| k != "jar") {
            continue;
        }
        if scope == Scope::Main && matches!(d.scope.as_deref(), Some("test" | "runtime")) {
            continue;
        }
        let (g, a) = (d.group_id.as_str(), d.artifact_id.as_str());
        let base = repo.join(g.replace('.', "/")).join(a);
        let mut versions: Vec<String> = d.version.clone().into_iter().collect();
        if let Ok(rd) = std::fs::read_dir(&base) {
            let mut other: Vec<String> =
                rd.flatten().filter_map(|e| e.file_name().to_str().map(str::to_owned)).collect();
            other.sort();
            versions.extend(other.into_iter().rev());
        }
        match versions.iter().map(|v| base.join(v).join(format!("{a}-{v}.jar"))).find(|j| j.is_file()) {
            Some(jar) => found.push(jar),
            None => missing.push(format!("{g}:{a}")),
        }
    }
    (found, missing)
}

/// A fingerprint of every Java file under the source roots (path, size, modification time):
/// any edit, addition or removal in the project changes it.
pub fn sources_fingerprint(source_roots: &[PathBuf]) -> String {
    let mut s = String::new();
    for r in source_roots {
        for f in mji_fs::walk::java_files(r).files {
            let (len, mtime) = std::fs::metadata(&f)
                .map(|m| {
                    let t = m.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok());
                    (m.len(), t.map(|d| d.as_nanos()).unwrap_or(0))
                })
                .unwrap_or((0, 0));
            s.push_str(&format!("{}\t{len}\t{mtime}\n", f.display()));
        }
    }
    mji_parser::content_hash(s.as_bytes())
}

/// A workspace's library entries (jars and class directories) for navigation, in order: the configured `classpath`'s, then what the
/// project model resolves for each module of each root's build (this module: a
/// Maven module's dependencies from the local repository, a Gradle build's from its caches,
/// a plain project's `lib/`). Navigation never runs the build. In a trusted workspace, a
/// Maven module's classpath is the one Maven resolved when a run stored it (`get_problems`,
/// `maven_update_project`: the test scope, else the compile scope); otherwise its pom's
/// dependencies found in the local repository, without their own dependencies — a type
/// whose supertypes are missing then stays `likely`, never guessed.
///
/// Class directories are entries too (read like a jar): a configured one wherever it is; a
/// resolved one (a reactor module's `target/classes`, a plain project's) only outside the
/// roots, since inside them it is the workspace's own code compiled, whose sources are indexed.
pub fn library_entries(roots: &[PathBuf], configured: &[PathBuf], trusted: &Settings) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    let add = |p: &Path, configured: bool, out: &mut Vec<PathBuf>| {
        let entry = if p.extension().is_some_and(|x| x == "jar") && p.is_file() {
            true
        } else if p.is_dir() {
            configured
                || std::fs::canonicalize(p).is_ok_and(|c| !roots.iter().any(|r| c.starts_with(r) || p.starts_with(r)))
        } else {
            false
        };
        if entry && !out.iter().any(|o| o == p) {
            out.push(p.to_path_buf());
        }
    };
    for p in configured {
        add(p, true, &mut out);
    }
    let mut settings = trusted.clone();
    settings.trusted = false;
    let repo = repo_local(&settings);
    for root in roots {
        let probe = if root.join("pom.xml").is_file() { root.join("pom.xml") } else { root.clone() };
        let project = crate::project::project_for(&probe, roots, Some(&repo), &[]);
        for m in &project.modules {
            if let Some(cp) = maven_stored(&m.dir, root, trusted, Scope::Test)
                .or_else(|| maven_stored(&m.dir, root, trusted, Scope::Main))
            {
                for p in &cp {
                    add(p, false, &mut out);
                }
                continue;
            }
            // Any file of the module stands for it; the pom, else its first source root.
            let file = match m.dir.join("pom.xml") {
                pom if pom.is_file() => pom,
                _ => m.source_roots.first().or(m.test_roots.first()).cloned().unwrap_or_else(|| m.dir.clone()),
            };
            let c = resolve(&m.dir, &file, roots, &settings);
            for p in &c.classpath {
                add(p, false, &mut out);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_do_not_reach_notes() {
        assert_eq!(strip_ansi("\u{1b}[1;31mERROR\u{1b}[m Failed"), "ERROR Failed");
    }
}
