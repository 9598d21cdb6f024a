//! The build context javac needs for a file: the project's source roots (`-sourcepath`) and
//! classpath. Maven: `mvn -o dependency:build-classpath`, run once per pom content and kept in
//! the cache directory; without Maven, the pom's direct dependencies found in the local
//! repository (marked incomplete). Gradle: the build's files read as text (`gradle.rs`). Plain
//! directories: the root the package declaration implies, jars under `lib/` and
//! `target/dependency`, and `target/classes`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::{Problem, Settings};

/// Source roots and classpath of one project, and how sure we are of them.
#[derive(Debug, Clone, Default)]
pub struct Context {
    /// The project (Maven module, Gradle project, or plain source root).
    pub dir: PathBuf,
    pub source_roots: Vec<PathBuf>,
    pub classpath: Vec<PathBuf>,
    /// False when dependencies may be missing from `classpath`.
    pub complete: bool,
    /// How the classpath was found, and what is missing, in words.
    pub notes: Vec<String>,
}

/// A build or source file as text: a regular file within the default cap, never blocking.
pub(crate) fn read_text(path: &Path) -> std::io::Result<String> {
    let bytes = mji_fs::read_regular(path, mji_fs::DEFAULT_MAX_FILE_BYTES)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

fn root_of<'a>(file: &Path, roots: &'a [PathBuf]) -> Option<&'a PathBuf> {
    roots.iter().filter(|r| file.starts_with(r)).max_by_key(|r| r.components().count())
}

use crate::gradle::{self, BUILD_FILES as GRADLE_FILES};

/// The project directory of a file and a fingerprint of what its context depends on (its
/// build files), so a context is resolved again only when they change.
pub(crate) fn project_of(file: &Path, roots: &[PathBuf]) -> (PathBuf, String) {
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
            return (d.to_path_buf(), mji_parser::content_hash(text.as_bytes()));
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

/// The source root a file's package declaration implies (`src/com/x/A.java` in package
/// `com.x` gives `src`).
pub(crate) fn package_root(file: &Path) -> Option<PathBuf> {
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

pub(crate) fn jars_in(dir: &Path, out: &mut Vec<PathBuf>) {
    if let Ok(rd) = std::fs::read_dir(dir) {
        let mut jars: Vec<PathBuf> = rd
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("jar")))
            .collect();
        jars.sort();
        out.extend(jars);
    }
}

/// Resolves the context of the project at `dir` (from [`project_of`]) for `file`.
pub fn resolve(dir: &Path, file: &Path, roots: &[PathBuf], settings: &Settings) -> Context {
    let root = root_of(file, roots).cloned().unwrap_or_else(|| dir.to_path_buf());
    let mut c = Context { dir: dir.to_path_buf(), complete: true, ..Default::default() };
    let shown = match dir.strip_prefix(&root) {
        Ok(rel) if rel.as_os_str().is_empty() => ".".to_owned(),
        Ok(rel) => rel.to_string_lossy().replace('\\', "/"),
        Err(_) => dir.display().to_string(),
    };
    if dir.join("pom.xml").is_file() {
        maven(&mut c, &root, settings, &shown);
    } else if let Some(build_root) = gradle::settings_dir(file, &root)
        .or_else(|| GRADLE_FILES.iter().any(|g| dir.join(g).is_file()).then(|| dir.to_path_buf()))
    {
        c = gradle::resolve(&build_root, file, &root, settings, &shown);
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
        c.source_roots.push(r);
    }
    c
}

/// Source roots of every Maven module in the reactor above `dir`, and the module's
/// classpath from `mvn` (or from its pom, incomplete).
fn maven(c: &mut Context, root: &Path, settings: &Settings, shown: &str) {
    let dir = c.dir.clone();
    let mut top = dir.clone();
    let mut p = dir.parent();
    while let Some(a) = p.filter(|a| a.starts_with(root)) {
        if a.join("pom.xml").is_file() {
            top = a.to_path_buf();
        }
        p = a.parent();
    }
    let poms = mji_index::walk::walk(&top, |f| f.file_name().is_some_and(|n| n == "pom.xml"));
    for pom in poms.files {
        let m = pom.parent().unwrap_or(&top);
        for s in ["src/main/java", "src/test/java", "target/generated-sources/annotations"] {
            if m.join(s).is_dir() {
                c.source_roots.push(m.join(s));
            }
        }
    }
    let fingerprint = project_of(&dir.join("pom.xml"), &[root.to_path_buf()]).1;
    let key = mji_parser::content_hash(
        format!("{fingerprint}\n{:?}\n{}", settings.maven_repo_local, dir.display()).as_bytes(),
    );
    let store = settings.cache_dir.join("classpaths");
    let cached = store.join(format!("{key}.txt"));
    // Maven runs the pom's plugins and extensions, repository code: only for a trusted
    // workspace. (A classpath cached in the repository's cache directory is not read either.)
    let resolved = if settings.trusted {
        read_stored(&cached).or_else(|_| run_mvn(&dir, settings, &store, &cached))
    } else {
        Err(format!(
            "the workspace is not trusted, so `mvn -o -q -B -f {} dependency:build-classpath` was not run (it executes the pom's plugins and extensions); to allow it, pass --trust, set MCP_JAVA_INDEX_TRUST=1, or add the root to trusted_roots in the user config ~/.config/{}",
            dir.join("pom.xml").display(),
            mji_config::USER_FILE
        ))
    };
    match resolved {
        Ok(cp) => {
            c.classpath = std::env::split_paths(cp.trim()).filter(|p| !p.as_os_str().is_empty()).collect();
            c.notes.push(format!("{shown}: classpath from Maven ({} entries)", c.classpath.len()));
        }
        Err(why) => {
            c.complete = false;
            let (cp, missing) = pom_dependencies(&dir, settings);
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

pub(crate) fn repo_local(settings: &Settings) -> PathBuf {
    settings
        .maven_repo_local
        .clone()
        .unwrap_or_else(|| std::env::var_os("HOME").map(PathBuf::from).unwrap_or_default().join(".m2/repository"))
}

/// `mvn -o -q dependency:build-classpath` into the cache; the classpath text.
fn run_mvn(dir: &Path, settings: &Settings, store: &Path, cached: &Path) -> Result<String, String> {
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
    let tmp = cached.with_extension(format!("tmp{}", std::process::id()));
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
    cmd.arg("dependency:build-classpath").arg(format!("-Dmdep.outputFile={}", tmp.display()));
    let out = cmd.stdin(Stdio::null()).output().map_err(|e| format!("running mvn: {e}"))?;
    if !out.status.success() {
        let text =
            strip_ansi(&(String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr)));
        let first = text.lines().map(str::trim).find(|l| l.contains("ERROR")).unwrap_or("mvn failed").to_owned();
        let _ = std::fs::remove_file(&tmp);
        return Err(first.chars().take(300).collect());
    }
    let cp = std::fs::read_to_string(&tmp).unwrap_or_default();
    let stored = mji_fs::trust::Key::user().map(|k| format!("{}\n{cp}", stored_mac(k, cached, &cp)));
    let written = stored.map_err(|e| e.to_string()).and_then(|text| {
        std::fs::write(&tmp, text)
            .and_then(|()| std::fs::rename(&tmp, cached))
            .map_err(|e| format!("storing the classpath: {e}"))
    });
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written.map(|()| cp)
}

/// The MAC a stored classpath carries on its first line: under the user's key, of its path
/// and text, so a classpath file a repository shipped in its cache directory is not used.
fn stored_mac(key: &mji_fs::trust::Key, path: &Path, cp: &str) -> String {
    mji_fs::trust::hex(&key.mac_of(&[
        b"mcp-java-index classpath 1",
        path.as_os_str().as_encoded_bytes(),
        cp.as_bytes(),
    ]))
}

/// A classpath stored by [`run_mvn`] of this user at this path; an error for any other file.
fn read_stored(path: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let (mac, cp) = text.split_once('\n').ok_or("no MAC line")?;
    let key = mji_fs::trust::Key::user()?;
    if mji_fs::trust::same_mac(mac.as_bytes(), stored_mac(key, path, cp).as_bytes()) {
        Ok(cp.to_owned())
    } else {
        Err(format!("{} was not stored by this user here (its MAC does not hold)", path.display()))
    }
}

/// Text of the first `<name>…</name>` in `xml`.
pub(crate) fn tag<'a>(xml: &'a str, name: &str) -> Option<&'a str> {
    let open = format!("<{name}>");
    let close = format!("</{name}>");
    let a = xml.find(&open)? + open.len();
    let b = xml[a..].find(&close)? + a;
    Some(xml[a..b].trim())
}

/// `xml` without every `<name>…</name>` section.
pub(crate) fn without(xml: &str, name: &str) -> String {
    let (open, close) = (format!("<{name}>"), format!("</{name}>"));
    let mut s = xml.to_owned();
    while let Some(a) = s.find(&open) {
        match s[a..].find(&close) {
            Some(b) => s.replace_range(a..a + b + close.len(), ""),
            None => break,
        }
    }
    s
}

/// `${…}` in a pom value replaced: `project.groupId`/`version`/`artifactId` (the parent's when
/// the pom has none), `project.parent.*`, and `<properties>`; unknown ones are kept.
pub(crate) fn expand_pom(pom: &str, v: &str) -> String {
    let own = without(pom, "parent");
    let own = without(&without(&without(&own, "dependencies"), "dependencyManagement"), "build");
    let parent = tag(pom, "parent").unwrap_or("");
    let props = tag(&own, "properties").unwrap_or("");
    let mut out = String::new();
    let mut rest = v.trim();
    for _ in 0..16 {
        let Some(at) = rest.find("${") else { break };
        let Some(end) = rest[at..].find('}') else { break };
        let name = &rest[at + 2..at + end];
        let field = |n: &str| tag(&own, n).or_else(|| tag(parent, n));
        let value = match name {
            "project.groupId" | "pom.groupId" | "groupId" => field("groupId"),
            "project.version" | "pom.version" | "version" => field("version"),
            "project.artifactId" | "pom.artifactId" | "artifactId" => tag(&own, "artifactId"),
            "project.parent.groupId" => tag(parent, "groupId"),
            "project.parent.version" => tag(parent, "version"),
            p => tag(props, p),
        };
        out.push_str(&rest[..at]);
        out.push_str(value.unwrap_or(&rest[at..at + end + 1]));
        rest = &rest[at + end + 1..];
    }
    out.push_str(rest);
    out
}

/// `text` without terminal colour and cursor sequences (`ESC [ … letter`).
pub(crate) fn strip_ansi(text: &str) -> String {
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

/// The pom's direct dependencies found in the local repository, and those not found.
fn pom_dependencies(dir: &Path, settings: &Settings) -> (Vec<PathBuf>, Vec<String>) {
    let Ok(full) = read_text(&dir.join("pom.xml")) else { return (Vec::new(), Vec::new()) };
    let pom = &full;
    let pom = without(&without(&without(pom, "dependencyManagement"), "build"), "parent");
    let expand = |v: &str| expand_pom(&full, v);
    let repo = repo_local(settings);
    let (mut found, mut missing) = (Vec::new(), Vec::new());
    let deps = tag(&pom, "dependencies").unwrap_or("");
    for block in deps.split("</dependency>") {
        let (Some(g), Some(a)) = (tag(block, "groupId"), tag(block, "artifactId")) else { continue };
        if matches!(tag(block, "scope"), Some("import" | "system")) {
            continue;
        }
        let (g, a) = (expand(g), expand(a));
        let (g, a) = (g.as_str(), a.as_str());
        let base = repo.join(g.replace('.', "/")).join(a);
        let mut versions: Vec<String> = tag(block, "version").map(expand).into_iter().collect();
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
pub(crate) fn sources_fingerprint(source_roots: &[PathBuf]) -> String {
    let mut s = String::new();
    for r in source_roots {
        for f in mji_index::walk::java_files(r).files {
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

/// With an incomplete classpath, marks javac's complaints about packages and types that a
/// missing library would provide: `package x does not exist`, and `cannot find symbol` for a
/// name imported from such a package.
pub(crate) fn mark_missing_dependencies(file: &Path, problems: &mut [Problem]) {
    let mut packages: Vec<String> = Vec::new();
    for p in problems.iter_mut() {
        if p.code == "compiler.err.doesnt.exist" {
            if let Some(pkg) = p.message.strip_prefix("package ").and_then(|r| r.strip_suffix(" does not exist")) {
                packages.push(pkg.to_owned());
            }
            p.cause = Some("missing-dependency".to_owned());
        }
    }
    if packages.is_empty() {
        return;
    }
    let text = read_text(file).unwrap_or_default();
    let mut names: Vec<String> = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.trim().strip_prefix("import ") else { continue };
        let rest = rest.trim_start_matches("static ").trim().trim_end_matches(';').trim();
        if packages.iter().any(|p| rest.starts_with(&format!("{p}."))) {
            let parts: Vec<&str> = rest.split('.').collect();
            names.extend(parts.iter().rev().take(2).filter(|n| **n != "*").map(|n| (*n).to_owned()));
        }
    }
    for p in problems.iter_mut() {
        if p.cause.is_none() && p.code.starts_with("compiler.err.cant.resolve") {
            let symbol = p.message.lines().find_map(|l| l.trim().strip_prefix("symbol:")).unwrap_or("");
            let name = symbol.split_whitespace().nth(1).unwrap_or("");
            let name = name.split('(').next().unwrap_or(name);
            if names.iter().any(|n| n == name) {
                p.cause = Some("missing-dependency".to_owned());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pom_placeholders_and_colours_do_not_reach_notes() {
        let pom = "<project><parent><groupId>org.p</groupId><version>7</version></parent><artifactId>me</artifactId>\n<properties><lib.version>1.2</lib.version></properties><dependencies><dependency><groupId>${project.groupId}</groupId><artifactId>${project.artifactId}-core</artifactId><version>${lib.version}</version></dependency></dependencies></project>";
        assert_eq!(expand_pom(pom, "${project.groupId}"), "org.p");
        assert_eq!(expand_pom(pom, "${project.artifactId}-core"), "me-core");
        assert_eq!(expand_pom(pom, "${lib.version}"), "1.2");
        assert_eq!(expand_pom(pom, "${project.version}"), "7");
        assert_eq!(expand_pom(pom, "${unknown}"), "${unknown}");
        assert_eq!(strip_ansi("\u{1b}[1;31mERROR\u{1b}[m Failed"), "ERROR Failed");
    }
}
