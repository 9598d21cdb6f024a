//! A Gradle build read as text, never run (a build script is repository code): the modules
//! from `settings.gradle(.kts)` (`include`, `includeFlat`, `projectDir`, `buildFileName`) and
//! the directories that hold a build script; each module's `src/*/java` source roots; and
//! the declared dependencies of a module's scripts and the build's shared scripts
//! (`implementation`, `api`, `compileOnly`, `testImplementation`, … as `"g:a:v"`, `group:`
//! maps, version-catalog accessors `libs.x.y` and bundles, `project(':x')`, `files`,
//! `fileTree`), found in Gradle's cache (`caches/modules-2/files-2.1`) or the Maven local
//! repository with the compile-scope dependencies their POMs declare. What is not found, or
//! cannot be read without running Gradle, is named and makes the classpath incomplete.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use crate::Settings;
use crate::files::{Context, read_text};

pub(crate) const SETTINGS_FILES: [&str; 2] = ["settings.gradle", "settings.gradle.kts"];
pub(crate) const BUILD_FILES: [&str; 2] = ["build.gradle", "build.gradle.kts"];

/// How deep dependencies of dependencies are followed through their POMs.
const MAX_TRANSITIVE_DEPTH: usize = 6;
/// Bound on nested parentheses when reading a call's arguments.
const MAX_PAREN_DEPTH: usize = 64;

/// One Gradle project of a build.
#[derive(Debug, Clone)]
pub(crate) struct Module {
    /// `:` for the root, `:a:b` for others.
    pub path: String,
    pub dir: PathBuf,
    /// An explicit `buildFileName` from the settings.
    pub build_file: Option<String>,
    /// The settings statement that placed its directory (`include`, `includeFlat`,
    /// `projectDir`), for notes on what is left out.
    pub named_by: Option<String>,
}

/// A build: its root (the settings file's directory) and modules.
#[derive(Debug)]
pub(crate) struct Build {
    pub root: PathBuf,
    pub modules: Vec<Module>,
}

/// The nearest directory at or above `file` (inside `limit`) holding a settings file.
pub(crate) fn settings_dir(file: &Path, limit: &Path) -> Option<PathBuf> {
    let mut dir = file.parent();
    while let Some(d) = dir.filter(|d| d.starts_with(limit)) {
        if SETTINGS_FILES.iter().any(|s| d.join(s).is_file()) {
            return Some(d.to_path_buf());
        }
        dir = d.parent();
    }
    None
}

/// A cheap stamp of files (path, size, modification time): reading a build anew when any of
/// them changes.
fn stamp(files: &[PathBuf]) -> String {
    let mut s = String::new();
    for f in files {
        let (len, mtime) = std::fs::metadata(f)
            .map(|m| {
                let t = m.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok());
                (m.len(), t.map(|d| d.as_nanos()).unwrap_or(0))
            })
            .unwrap_or((0, 0));
        s.push_str(&format!("{}\t{len}\t{mtime}\n", f.display()));
    }
    s
}

/// The build at `root`, read once per settings-file content.
pub(crate) fn build(root: &Path) -> Arc<Build> {
    type Builds = Mutex<HashMap<PathBuf, (String, Arc<Build>)>>;
    static BUILDS: OnceLock<Builds> = OnceLock::new();
    let settings: Vec<PathBuf> = SETTINGS_FILES.iter().map(|s| root.join(s)).collect();
    let key = stamp(&settings);
    let map = BUILDS.get_or_init(Default::default);
    if let Some((k, b)) = map.lock().unwrap_or_else(|e| e.into_inner()).get(root)
        && *k == key
    {
        return b.clone();
    }
    let b = Arc::new(read_build(root));
    map.lock().unwrap_or_else(|e| e.into_inner()).insert(root.to_path_buf(), (key, b.clone()));
    b
}

fn read_build(root: &Path) -> Build {
    let mut modules = vec![Module { path: ":".to_owned(), dir: root.to_path_buf(), build_file: None, named_by: None }];
    let text = SETTINGS_FILES.iter().filter_map(|s| read_text(&root.join(s)).ok()).collect::<Vec<_>>().join("\n");
    let text = strip_comments(&text);
    let settings = SETTINGS_FILES.iter().find(|s| root.join(s).is_file()).copied().unwrap_or(SETTINGS_FILES[0]);
    for (flat, args) in
        calls(&text, "include").map(|a| (false, a)).chain(calls(&text, "includeFlat").map(|a| (true, a)))
    {
        for lit in literals(args) {
            let path = format!(":{}", lit.trim_start_matches(':'));
            let rel = lit.trim_start_matches(':').replace(':', "/");
            if !safe_relative(&rel) {
                continue;
            }
            let dir = if flat { root.parent().unwrap_or(root).join(&rel) } else { root.join(&rel) };
            let named_by = format!("{settings} {} '{lit}'", if flat { "includeFlat" } else { "include" });
            if !modules.iter().any(|m| m.path == path) {
                modules.push(Module { path, dir, build_file: None, named_by: Some(named_by) });
            }
        }
    }
    // project(':x').projectDir = file('dir') / new File(settingsDir, 'dir'); .buildFileName = 'x.gradle'
    for line in text.lines() {
        for (prop, is_dir) in [(".projectDir", true), (".buildFileName", false)] {
            let Some(at) = line.find(prop) else { continue };
            let (lhs, rhs) = line.split_at(at);
            let Some(eq) = rhs.find('=') else { continue };
            let (Some(target), Some(value)) = (literals(lhs).last().cloned(), literals(&rhs[eq + 1..]).last().cloned())
            else {
                continue;
            };
            let path = format!(":{}", target.trim_start_matches(':'));
            let Some(m) = modules.iter_mut().find(|m| m.path == path) else { continue };
            if is_dir {
                if safe_relative(&value) {
                    m.dir = root.join(&value);
                    m.named_by = Some(format!("{settings} projectDir '{value}'"));
                }
            } else if !value.contains(['/', '\\']) {
                m.build_file = Some(value);
            }
        }
    }
    // Directories holding a build script are modules too (includes computed at build time).
    for script in mji_fs::walk::walk(root, |f| f.file_name().and_then(|n| n.to_str()).is_some_and(is_script)).files {
        let Some(dir) = script.parent() else { continue };
        if in_build_logic(root, dir) || modules.iter().any(|m| m.dir == dir) {
            continue;
        }
        let is_module_script = script.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
            BUILD_FILES.contains(&n) || dir.file_name().and_then(|d| d.to_str()).is_some_and(|d| own_script(n, d))
        });
        if is_module_script && let Ok(rel) = dir.strip_prefix(root) {
            let path = format!(":{}", rel.to_string_lossy().replace(['/', '\\'], ":"));
            modules.push(Module { path, dir: dir.to_path_buf(), build_file: None, named_by: None });
        }
    }
    Build { root: root.to_path_buf(), modules }
}

fn is_script(name: &str) -> bool {
    name.ends_with(".gradle") || name.ends_with(".gradle.kts")
}

/// `name` is `<dir>.gradle` or `<dir>.gradle.kts`.
fn own_script(name: &str, dir: &str) -> bool {
    name.strip_prefix(dir).is_some_and(|r| r == ".gradle" || r == ".gradle.kts")
}

/// Scripts under `buildSrc`, `build-logic` and `gradle/` are shared logic, not modules.
fn in_build_logic(root: &Path, dir: &Path) -> bool {
    dir.strip_prefix(root).ok().and_then(|r| r.components().next()).is_some_and(|c| {
        matches!(c.as_os_str().to_str(), Some("buildSrc" | "build-logic" | "gradle" | ".gradle" | "buildscripts"))
    })
}

/// A relative path that stays below its base.
fn safe_relative(rel: &str) -> bool {
    let p = Path::new(rel);
    !rel.is_empty()
        && p.components().all(|c| matches!(c, std::path::Component::Normal(_) | std::path::Component::CurDir))
}

impl Build {
    /// The module a file belongs to: the one whose directory is the longest prefix of it.
    pub(crate) fn module_of(&self, file: &Path) -> &Module {
        self.modules
            .iter()
            .filter(|m| file.starts_with(&m.dir))
            .max_by_key(|m| m.dir.components().count())
            .unwrap_or(&self.modules[0])
    }

    /// The directories the settings placed, with the statement that did
    /// ([`crate::bounds::Origins`]).
    pub(crate) fn origins(&self) -> Vec<(PathBuf, String)> {
        self.modules.iter().filter_map(|m| Some((m.dir.clone(), m.named_by.clone()?))).collect()
    }

    /// The module's own build scripts that exist.
    fn scripts_of(&self, m: &Module) -> Vec<PathBuf> {
        let name = m.dir.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let mut names: Vec<String> = BUILD_FILES.iter().map(|s| (*s).to_owned()).collect();
        names.push(format!("{name}.gradle"));
        names.push(format!("{name}.gradle.kts"));
        names.extend(m.build_file.clone());
        let mut out: Vec<PathBuf> = names.iter().map(|n| m.dir.join(n)).filter(|p| p.is_file()).collect();
        out.dedup();
        out
    }

    /// Scripts every module may apply: the root's, `gradle/*.gradle(.kts)`, and convention
    /// plugins under `buildSrc` and `build-logic`.
    fn shared_scripts(&self) -> Vec<PathBuf> {
        let mut out = self.scripts_of(&self.modules[0]);
        for sub in ["gradle", "buildSrc", "build-logic"] {
            let dir = self.root.join(sub);
            if dir.is_dir() {
                let mut found = mji_fs::walk::walk(&dir, |f| {
                    f.file_name().and_then(|n| n.to_str()).is_some_and(|n| is_script(n) && !n.starts_with("settings."))
                })
                .files;
                found.sort();
                out.extend(found);
            }
        }
        out
    }

    /// Every file whose change can change a module's context.
    pub(crate) fn inputs(&self) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = SETTINGS_FILES.iter().map(|s| self.root.join(s)).collect();
        v.push(self.root.join("gradle.properties"));
        v.extend(catalog_files(&self.root));
        v.extend(self.shared_scripts());
        for m in &self.modules {
            v.extend(self.scripts_of(m));
        }
        v
    }

    /// Every module's `src/*/java` and `src/*/kotlin` directory (and the annotation processors'
    /// output).
    fn source_roots(&self) -> Vec<PathBuf> {
        let mut out = Vec::new();
        for m in &self.modules {
            out.extend(module_source_roots(&m.dir));
        }
        out
    }
}

/// `dir/src/<set>/java` and `dir/src/<set>/kotlin` (the Kotlin plugin's) for every source set,
/// sorted.
pub(crate) fn module_source_roots(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(rd) = std::fs::read_dir(dir.join("src")) {
        let mut sets: Vec<PathBuf> = rd
            .flatten()
            .flat_map(|e| [e.path().join("java"), e.path().join("kotlin")])
            .filter(|p| p.is_dir())
            .collect();
        sets.sort();
        out.extend(sets);
    }
    let generated = dir.join("build/generated/sources/annotationProcessor/java/main");
    if generated.is_dir() {
        out.push(generated);
    }
    // `sourceSets { main { java { srcDir 'src/gen/java' } } }`: the extra directories a
    // module's script names (existing, inside the module; the bounds judge them again).
    for script in ["build.gradle", "build.gradle.kts"] {
        let Ok(text) = read_text(&dir.join(script)) else { continue };
        for extra in src_dirs(&text) {
            let p = mji_fs::lexical_normalize(&dir.join(&extra));
            if p.starts_with(dir) && p.is_dir() && !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}

/// The directories a script's `srcDir`/`srcDirs` name, as written (quoted strings on the line).
fn src_dirs(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines().filter(|l| l.contains("srcDir")) {
        let after = &line[line.find("srcDir").unwrap_or(0)..];
        let mut rest = after;
        while let Some(start) = rest.find(['\'', '"']) {
            let quote = rest[start..].chars().next().unwrap_or('"');
            let body = &rest[start + 1..];
            let Some(end) = body.find(quote) else { break };
            let dir = &body[..end];
            if !dir.is_empty() && !dir.contains('$') {
                out.push(dir.to_owned());
            }
            rest = &body[end + 1..];
        }
    }
    out
}

/// The fingerprint of a module's context.
pub(crate) fn fingerprint(b: &Build) -> String {
    mji_parser::content_hash(stamp(&b.inputs()).as_bytes())
}

fn catalog_files(root: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root.join("gradle"))
        .map(|rd| {
            rd.flatten()
                .map(|e| e.path())
                .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(".versions.toml")))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// A dependency as declared.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Dep {
    /// `group:name[:version]` (no version: managed by a platform; any cached version serves).
    Module { group: String, name: String, version: Option<String> },
    /// Another module of the build, by path (`:core`) or typesafe accessor (`projects.core`).
    Project(String),
    /// Local jars (`files`, `fileTree`), relative to the module.
    Files(String),
    /// Something only running Gradle can tell (`gradleApi()`, an unknown catalog entry, …).
    Unknown(String),
}

/// Version catalogs: `libs` from `gradle/libs.versions.toml`, others by file name.
#[derive(Default)]
struct Catalogs {
    /// (catalog, normalized alias) -> coordinates.
    libraries: HashMap<(String, String), (String, String, Option<String>)>,
    /// (catalog, normalized bundle) -> normalized aliases.
    bundles: HashMap<(String, String), Vec<String>>,
}

fn normalize_alias(a: &str) -> String {
    a.replace(['-', '_'], ".").to_ascii_lowercase()
}

impl Catalogs {
    fn read(root: &Path) -> Catalogs {
        let mut c = Catalogs::default();
        for file in catalog_files(root) {
            let Some(name) = file.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_suffix(".versions.toml"))
            else {
                continue;
            };
            let Ok(text) = read_text(&file) else { continue };
            let Ok(doc) = text.parse::<toml::Table>() else { continue };
            let versions = doc.get("versions").and_then(|v| v.as_table()).cloned().unwrap_or_default();
            let version_of = |v: &toml::Value| -> Option<String> {
                match v {
                    toml::Value::String(s) => Some(s.clone()),
                    toml::Value::Table(t) => {
                        if let Some(r) = t.get("ref").and_then(|r| r.as_str()) {
                            return versions.get(r).and_then(|v| match v {
                                toml::Value::String(s) => Some(s.clone()),
                                toml::Value::Table(t) => ["strictly", "require", "prefer"]
                                    .iter()
                                    .find_map(|k| t.get(*k).and_then(|s| s.as_str()).map(str::to_owned)),
                                _ => None,
                            });
                        }
                        ["strictly", "require", "prefer"]
                            .iter()
                            .find_map(|k| t.get(*k).and_then(|s| s.as_str()).map(str::to_owned))
                    }
                    _ => None,
                }
            };
            if let Some(libs) = doc.get("libraries").and_then(|v| v.as_table()) {
                for (alias, v) in libs {
                    let coords = match v {
                        toml::Value::String(s) => parse_coordinates(s),
                        toml::Value::Table(t) => {
                            let (g, n) = match t.get("module").and_then(|m| m.as_str()) {
                                Some(m) => match m.split_once(':') {
                                    Some((g, n)) => (g.to_owned(), n.to_owned()),
                                    None => continue,
                                },
                                None => match (
                                    t.get("group").and_then(|g| g.as_str()),
                                    t.get("name").and_then(|n| n.as_str()),
                                ) {
                                    (Some(g), Some(n)) => (g.to_owned(), n.to_owned()),
                                    _ => continue,
                                },
                            };
                            let version = t.get("version").and_then(&version_of).or_else(|| {
                                t.get("version.ref")
                                    .and_then(|r| r.as_str())
                                    .and_then(|r| versions.get(r))
                                    .and_then(&version_of)
                            });
                            Some((g, n, version))
                        }
                        _ => None,
                    };
                    if let Some(coords) = coords {
                        c.libraries.insert((name.to_owned(), normalize_alias(alias)), coords);
                    }
                }
            }
            if let Some(bundles) = doc.get("bundles").and_then(|v| v.as_table()) {
                for (b, list) in bundles {
                    let members = list
                        .as_array()
                        .map(|a| a.iter().filter_map(|x| x.as_str()).map(normalize_alias).collect())
                        .unwrap_or_default();
                    c.bundles.insert((name.to_owned(), normalize_alias(b)), members);
                }
            }
        }
        c
    }

    /// `libs.commons.lang3`, `libs.bundles.testing`: the coordinates, or None when unknown.
    fn lookup(&self, accessor: &str) -> Option<Vec<(String, String, Option<String>)>> {
        let (catalog, rest) = accessor.split_once('.')?;
        let rest = rest.trim_end_matches(".get()").to_ascii_lowercase();
        if let Some(bundle) = rest.strip_prefix("bundles.") {
            let members = self.bundles.get(&(catalog.to_owned(), bundle.to_owned()))?;
            return Some(
                members.iter().filter_map(|m| self.libraries.get(&(catalog.to_owned(), m.clone())).cloned()).collect(),
            );
        }
        self.libraries.get(&(catalog.to_owned(), rest)).map(|c| vec![c.clone()])
    }

    fn names(&self) -> BTreeSet<String> {
        self.libraries.keys().map(|(c, _)| c.clone()).collect()
    }
}

/// `g:a[:v[:classifier]][@ext]`.
fn parse_coordinates(s: &str) -> Option<(String, String, Option<String>)> {
    let s = s.split('@').next().unwrap_or(s);
    let mut parts = s.split(':');
    let (g, a) = (parts.next()?.trim(), parts.next()?.trim());
    if g.is_empty() || a.is_empty() {
        return None;
    }
    let v = parts.next().map(str::trim).filter(|v| !v.is_empty()).map(str::to_owned);
    Some((g.to_owned(), a.to_owned(), v))
}

/// The text without `//` and `/* */` comments (string literals kept), newlines kept.
fn strip_comments(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut start = 0;
    while i < b.len() {
        match b[i] {
            q @ (b'\'' | b'"') => {
                i += 1;
                while i < b.len() && b[i] != q && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                out.push_str(&text[start..i]);
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                start = i;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                out.push_str(&text[start..i]);
                let end = text[i + 2..].find("*/").map(|e| i + 2 + e + 2).unwrap_or(b.len());
                out.extend(text[i..end].chars().filter(|c| *c == '\n'));
                i = end;
                start = i;
            }
            _ => i += 1,
        }
    }
    if start < b.len() {
        out.push_str(&text[start.min(b.len())..]);
    }
    out
}

/// The contents of the `'…'` and `"…"` literals in `s`, in order.
fn literals(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\'' || c == '"' {
            let mut lit = String::new();
            for d in chars.by_ref() {
                if d == c {
                    break;
                }
                lit.push(d);
            }
            out.push(lit);
        }
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$'
}

/// The arguments of every call of `name` as a statement word: the balanced `( … )` after it,
/// or the rest of the line (continued while a line ends with `,`).
fn calls<'a>(text: &'a str, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    text.match_indices(name).filter_map(move |(at, _)| {
        let before = text[..at].chars().next_back();
        let after_at = at + name.len();
        let next = text[after_at..].chars().next();
        if before.is_some_and(|c| is_ident(c) || c == '.' || c == '"' || c == '\'' || c == '-')
            || next.is_some_and(|c| is_ident(c) || c == '.' || c == '=' || c == '-')
        {
            return None;
        }
        Some(arguments(text, after_at))
    })
}

/// The argument text starting at `from` (see [`calls`]).
fn arguments(text: &str, from: usize) -> &str {
    let rest = &text[from..];
    let trimmed = rest.trim_start_matches([' ', '\t']);
    let offset = rest.len() - trimmed.len();
    if let Some(inside) = trimmed.strip_prefix('(') {
        let mut depth = 0usize;
        let mut quote: Option<char> = None;
        for (i, c) in trimmed.char_indices() {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '\'' | '"') => quote = Some(c),
                (None, '(') => {
                    depth += 1;
                    if depth > MAX_PAREN_DEPTH {
                        return &trimmed[1..i];
                    }
                }
                (None, ')') => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return &trimmed[1..i];
                    }
                }
                _ => {}
            }
        }
        return inside;
    }
    let mut end = 0;
    for line in trimmed.split_inclusive('\n') {
        end += line.len();
        if !line.trim_end().ends_with(',') {
            break;
        }
    }
    &text[from + offset..from + offset + end]
}

/// A compile configuration of the main source set (not `testImplementation`,
/// `integrationTestCompileOnly`, …).
fn main_configuration(name: &str) -> bool {
    matches!(
        name,
        "implementation" | "api" | "compileOnly" | "compileOnlyApi" | "compile" | "provided" | "optional" | "shadow"
    )
}

/// Whether `file` is in a source set other than `main` of the module at `dir`
/// (`src/test/java/…`); a file elsewhere counts as main.
pub(crate) fn in_other_source_set(file: &Path, dir: &Path) -> bool {
    let mut parts = file.strip_prefix(dir).map(|r| r.components()).into_iter().flatten();
    parts.next().is_some_and(|c| c.as_os_str() == "src") && parts.next().is_some_and(|c| c.as_os_str() != "main")
}

/// A configuration whose dependencies are on a compile classpath.
fn compile_configuration(name: &str) -> bool {
    const EXACT: [&str; 10] = [
        "implementation",
        "api",
        "compileOnly",
        "compileOnlyApi",
        "compile",
        "testCompile",
        "provided",
        "optional",
        "testCompileOnly",
        "shadow",
    ];
    const SUFFIXES: [&str; 3] = ["Implementation", "Api", "CompileOnly"];
    EXACT.contains(&name)
        || SUFFIXES.iter().any(|s| {
            name.strip_suffix(s).is_some_and(|p| !p.is_empty() && p.chars().next().is_some_and(|c| c.is_lowercase()))
        })
}

/// Properties a script can use in versions: `gradle.properties`, `ext`/`def`/`val` assignments.
fn properties(root: &Path, scripts: &[String]) -> HashMap<String, String> {
    let mut props = HashMap::new();
    if let Ok(t) = read_text(&root.join("gradle.properties")) {
        for line in t.lines() {
            if let Some((k, v)) = line.split_once('=')
                && !line.trim_start().starts_with('#')
            {
                props.insert(k.trim().to_owned(), v.trim().to_owned());
            }
        }
    }
    for text in scripts {
        for line in text.lines() {
            let mut l = line.trim();
            for p in ["project.ext.", "ext.", "def ", "val ", "var ", "extra[\"", "set(\""] {
                l = l.strip_prefix(p).unwrap_or(l);
            }
            let Some((k, v)) = l.split_once(['=', ',']) else { continue };
            let k = k.trim().trim_end_matches(['"', ']']).trim_end_matches(":String").trim();
            let lits = literals(v);
            if !k.is_empty() && k.chars().all(|c| is_ident(c) || c == '.') && lits.len() == 1 {
                props.insert(k.to_owned(), lits[0].clone());
            }
        }
    }
    props
}

/// `$x`, `${x}` and `${versions.x}` replaced from `props`; None when one is unknown.
fn expand(s: &str, props: &HashMap<String, String>) -> Option<String> {
    let mut out = String::new();
    let mut rest = s;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let (name, len) = if let Some(inner) = after.strip_prefix('{') {
            let end = inner.find('}')?;
            (&inner[..end], end + 2)
        } else {
            let end = after.find(|c: char| !(is_ident(c) || c == '.')).unwrap_or(after.len());
            (&after[..end], end)
        };
        let value = props.get(name).or_else(|| props.get(name.rsplit('.').next().unwrap_or(name)))?;
        out.push_str(value);
        rest = &after[len..];
    }
    out.push_str(rest);
    Some(out)
}

/// The dependencies declared in one script, on compile classpaths: of the main source set
/// only when `main_only`, else of every source set (a test's classpath has main's and its own).
fn declared(text: &str, catalogs: &Catalogs, props: &HashMap<String, String>, main_only: bool) -> Vec<Dep> {
    let mut out = Vec::new();
    let catalog_names = catalogs.names();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if let q @ (b'\'' | b'"') = bytes[i] {
            // Words inside a string are not configurations.
            i += 1;
            while i < bytes.len() && bytes[i] != q && bytes[i] != b'\n' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            continue;
        }
        if !(bytes[i] as char).is_ascii_alphabetic()
            || (i > 0 && (is_ident(bytes[i - 1] as char) || bytes[i - 1] == b'.'))
        {
            i += 1;
            continue;
        }
        let end = text[i..].find(|c: char| !is_ident(c)).map(|e| i + e).unwrap_or(bytes.len());
        let word = &text[i..end];
        i = end;
        if !compile_configuration(word) || (main_only && !main_configuration(word)) {
            continue;
        }
        let next = text[end..].trim_start_matches([' ', '\t']);
        if !next.starts_with(['(', '\'', '"']) && !next.starts_with(|c: char| c.is_ascii_alphabetic()) {
            continue;
        }
        let args = arguments(text, end);
        out.extend(dependency_of(args.trim(), catalogs, &catalog_names, props));
    }
    out
}

fn dependency_of(
    args: &str,
    catalogs: &Catalogs,
    catalog_names: &BTreeSet<String>,
    props: &HashMap<String, String>,
) -> Vec<Dep> {
    let head = args.trim_start_matches('(').trim();
    if head.starts_with("platform(") || head.starts_with("enforcedPlatform(") {
        return Vec::new();
    }
    if let Some(inner) = head.strip_prefix("project(") {
        let lits = literals(inner);
        return lits.first().map(|p| vec![Dep::Project(p.clone())]).unwrap_or_default();
    }
    if let Some(acc) = head.strip_prefix("projects.") {
        let acc: String = acc.chars().take_while(|c| is_ident(*c) || *c == '.').collect();
        return vec![Dep::Project(acc)];
    }
    if head.starts_with("files(") || head.starts_with("fileTree(") {
        return literals(head)
            .into_iter()
            .filter(|l| !l.starts_with('*') && l != "dir" && l != "include")
            .take(1)
            .map(Dep::Files)
            .collect();
    }
    let first_word: String = head.chars().take_while(|c| is_ident(*c) || *c == '.').collect();
    if let Some((catalog, _)) = first_word.split_once('.')
        && catalog_names.contains(catalog)
    {
        return match catalogs.lookup(&first_word) {
            Some(found) => {
                found.into_iter().map(|(group, name, version)| Dep::Module { group, name, version }).collect()
            }
            None => vec![Dep::Unknown(format!("{first_word} (not in the version catalog)"))],
        };
    }
    if head.starts_with("group") {
        let field = |key: &str| -> Option<String> {
            let at = head.find(key)?;
            literals(&head[at + key.len()..]).first().cloned()
        };
        if let (Some(group), Some(name)) = (field("group"), field("name")) {
            let version = field("version").and_then(|v| expand(&v, props));
            return vec![Dep::Module { group, name, version }];
        }
    }
    if head.starts_with(['\'', '"']) {
        let lits = literals(head);
        let Some(first) = lits.first() else { return Vec::new() };
        return match parse_coordinates(first) {
            Some((group, name, version)) => {
                let version = version.and_then(|v| expand(&v, props));
                match (expand(&group, props), expand(&name, props)) {
                    (Some(group), Some(name)) => vec![Dep::Module { group, name, version }],
                    _ => vec![Dep::Unknown(first.clone())],
                }
            }
            None => Vec::new(),
        };
    }
    if first_word.is_empty() {
        return Vec::new();
    }
    vec![Dep::Unknown(head.lines().next().unwrap_or(head).chars().take(80).collect())]
}

/// A coordinate part safe to join into a cache path: no separators, no `..`.
fn safe_part(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with('.')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '+'))
}

/// Versions present in a directory, newest first (numeric parts compared as numbers).
fn versions_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| rd.flatten().filter_map(|e| e.file_name().to_str().map(str::to_owned)).collect())
        .unwrap_or_default();
    let key = |s: &String| -> Vec<(u64, String)> {
        s.split(['.', '-'])
            .map(|p| {
                (p.parse::<u64>().unwrap_or(0), if p.parse::<u64>().is_ok() { String::new() } else { p.to_owned() })
            })
            .collect()
    };
    v.retain(|s| safe_part(s));
    v.sort_by_key(|s| std::cmp::Reverse(key(s)));
    v
}

/// Where a library's jar (and POM) are: Gradle's cache first, then the Maven local repository.
fn locate(group: &str, name: &str, version: Option<&str>, settings: &Settings) -> Option<(PathBuf, Option<PathBuf>)> {
    if !safe_part(group) || !safe_part(name) || version.is_some_and(|v| !safe_part(v)) {
        return None;
    }
    if let Some(home) = &settings.gradle_user_home {
        let base = home.join("caches/modules-2/files-2.1").join(group).join(name);
        let versions = match version {
            Some(v) => vec![v.to_owned()],
            None => versions_in(&base),
        };
        for v in &versions {
            let (mut jar, mut pom) = (None, None);
            for hash in std::fs::read_dir(base.join(v)).into_iter().flatten().flatten() {
                let j = hash.path().join(format!("{name}-{v}.jar"));
                let p = hash.path().join(format!("{name}-{v}.pom"));
                if j.is_file() {
                    jar = Some(j);
                }
                if p.is_file() {
                    pom = Some(p);
                }
            }
            if let Some(jar) = jar {
                return Some((jar, pom));
            }
        }
    }
    let base = crate::files::repo_local(settings).join(group.replace('.', "/")).join(name);
    let versions = match version {
        Some(v) => vec![v.to_owned()],
        None => versions_in(&base),
    };
    versions.iter().find_map(|v| {
        let jar = base.join(v).join(format!("{name}-{v}.jar"));
        let pom = base.join(v).join(format!("{name}-{v}.pom"));
        jar.is_file().then(|| (jar, pom.is_file().then_some(pom)))
    })
}

/// The compile-scope, non-optional dependencies a POM declares.
fn pom_dependencies(pom: &Path) -> Vec<(String, String, Option<String>)> {
    let Ok(pom) = crate::pom::Pom::read(pom) else { return Vec::new() };
    let pom = crate::pom::Effective::single(pom);
    pom.pom()
        .dependencies
        .iter()
        .filter(|d| matches!(d.scope.as_deref(), None | Some("compile")) && !d.optional)
        .filter(|d| d.group_id != "${project.groupId}")
        .map(|d| (d.group_id.clone(), pom.expand(&d.artifact_id), d.version.as_ref().map(|v| pom.expand(v))))
        .filter(|(_, _, v)| v.as_ref().is_none_or(|v| !v.contains("${")))
        .collect()
}

/// The context of `file` in the build at `root`.
pub(crate) fn resolve(root: &Path, file: &Path, workspace_root: &Path, settings: &Settings, shown: &str) -> Context {
    let b = build(root);
    let module = b.module_of(file).clone();
    let mut c = Context { dir: module.dir.clone(), complete: true, ..Default::default() };
    c.source_roots = b.source_roots();
    let catalogs = Catalogs::read(root);
    let shared: Vec<String> =
        b.shared_scripts().iter().filter_map(|s| read_text(s).ok()).map(|t| strip_comments(&t)).collect();
    let props = properties(root, &shared);
    // A module outside the workspace root (`includeFlat`) is not read: its sources are left out
    // of the context (`crate::bounds`), and its scripts would name what lies outside.
    let inside = crate::bounds::Bounds::of_roots(&[workspace_root.to_path_buf()]);
    let script_texts = |m: &Module| -> Vec<String> {
        if inside.admits(&m.dir, crate::bounds::Kind::Sources) == Some(false) {
            return Vec::new();
        }
        b.scripts_of(m).iter().filter_map(|s| read_text(s).ok()).map(|t| strip_comments(&t)).collect()
    };
    // The module's declarations, the shared scripts', and those of the modules it depends on
    // (their `api` types reach this module's compilation through the source path).
    let mut deps: BTreeSet<Dep> = BTreeSet::new();
    // A main file does not see the test source sets' libraries (nor do the modules it uses).
    let main_only = !in_other_source_set(file, &module.dir);
    for t in &shared {
        deps.extend(declared(t, &catalogs, &props, main_only));
    }
    let mut seen_modules: Vec<String> = Vec::new();
    let mut queue = vec![module.clone()];
    while let Some(m) = queue.pop() {
        if seen_modules.contains(&m.path) || seen_modules.len() > b.modules.len() {
            continue;
        }
        seen_modules.push(m.path.clone());
        for t in script_texts(&m) {
            for d in declared(&t, &catalogs, &props, main_only || m.path != module.path) {
                if let Dep::Project(p) = &d {
                    let want = normalize_project(p);
                    if let Some(other) = b.modules.iter().find(|o| normalize_project(&o.path) == want) {
                        queue.push(other.clone());
                    }
                }
                deps.insert(d);
            }
        }
    }
    let mut missing: Vec<String> = Vec::new();
    let mut unknown: Vec<String> = Vec::new();
    let mut found = 0usize;
    let mut wanted: Vec<(String, String, Option<String>, usize)> = Vec::new();
    for d in &deps {
        match d {
            Dep::Module { group, name, version } => wanted.push((group.clone(), name.clone(), version.clone(), 0)),
            Dep::Project(_) => {}
            Dep::Files(rel) => {
                if !safe_relative(rel) {
                    unknown.push(format!("files('{rel}') (outside the module)"));
                    continue;
                }
                let p = module.dir.join(rel);
                if !p.starts_with(workspace_root) {
                    continue;
                }
                if p.is_dir() {
                    crate::files::jars_in(&p, &mut c.classpath);
                } else if p.is_file() {
                    c.classpath.push(p);
                }
            }
            Dep::Unknown(what) => unknown.push(what.clone()),
        }
    }
    let mut done: BTreeSet<(String, String)> = BTreeSet::new();
    let direct = wanted.len();
    while let Some((g, a, v, depth)) = wanted.pop() {
        if !done.insert((g.clone(), a.clone())) {
            continue;
        }
        match locate(&g, &a, v.as_deref(), settings).or_else(|| v.as_ref().and_then(|_| locate(&g, &a, None, settings)))
        {
            Some((jar, pom)) => {
                found += 1;
                c.classpath.push(jar);
                if let Some(pom) = pom.filter(|_| depth < MAX_TRANSITIVE_DEPTH) {
                    for (g2, a2, v2) in pom_dependencies(&pom) {
                        wanted.push((g2, a2, v2, depth + 1));
                    }
                }
            }
            None => missing.push(match v {
                Some(v) => format!("{g}:{a}:{v}"),
                None => format!("{g}:{a}"),
            }),
        }
    }
    c.complete = missing.is_empty() && unknown.is_empty();
    let mut note = format!(
        "{shown}: Gradle build read from its files, not run ({} modules; {direct} declared libraries, {found} jars with their dependencies from the Gradle cache and the Maven local repository)",
        b.modules.len()
    );
    if !missing.is_empty() {
        missing.sort();
        note.push_str(&format!("; not found: {}", missing.join(", ")));
    }
    if !unknown.is_empty() {
        unknown.sort();
        unknown.dedup();
        note.push_str(&format!("; not read without running Gradle: {}", unknown.join(", ")));
    }
    c.notes.push(note);
    c
}

/// `:a:b`, `a:b` and the accessor `projects.a.b` / `projects.aB` compare equal.
fn normalize_project(p: &str) -> String {
    p.trim_start_matches("projects.")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_declarations_in_both_dialects() {
        let mut catalogs = Catalogs::default();
        catalogs.libraries.insert(
            ("libs".to_owned(), "commons.lang3".to_owned()),
            ("org.apache.commons".to_owned(), "commons-lang3".to_owned(), Some("3.12.0".to_owned())),
        );
        let props: HashMap<String, String> = [("junitVersion".to_owned(), "5.9.2".to_owned())].into();
        let text = strip_comments(
            "dependencies {\n  implementation libs.commons.lang3 // a comment 'x:y:z'\n  api(\"g.h:i:1.0\")\n  testImplementation \"org.junit.jupiter:junit-jupiter-api:$junitVersion\"\n  compileOnly group: 'a.b', name: 'c', version: '2'\n  implementation(project(\":core\"))\n  runtimeOnly 'x:runtime:1'\n  implementation platform('x:bom:1')\n  /* api 'x:commented:1' */\n  tasks.withType(JavaCompile) { }\n}\n",
        );
        let deps = declared(&text, &catalogs, &props, false);
        let m = |g: &str, n: &str, v: &str| Dep::Module { group: g.into(), name: n.into(), version: Some(v.into()) };
        assert_eq!(
            deps,
            vec![
                m("org.apache.commons", "commons-lang3", "3.12.0"),
                m("g.h", "i", "1.0"),
                m("org.junit.jupiter", "junit-jupiter-api", "5.9.2"),
                m("a.b", "c", "2"),
                Dep::Project(":core".into()),
            ]
        );
    }

    #[test]
    fn coordinates_cannot_leave_the_cache() {
        assert!(!safe_part(".."));
        assert!(!safe_part("a/b"));
        assert!(!safe_part("..%2f"));
        assert!(safe_part("commons-lang3"));
        assert!(!safe_relative("../x"));
        assert!(!safe_relative("/etc"));
        assert!(safe_relative("libs/a.jar"));
    }
}

/// The coordinates a Gradle build at `root` gives its own code, as `(group, name, version)`:
/// `group` and `version` assigned in `build.gradle(.kts)` (or set in `gradle.properties`),
/// the name from `rootProject.name` in `settings.gradle(.kts)`, else the directory's. None
/// without a build script, or when the group or version is not a literal (or `unspecified`).
pub fn coordinates(root: &Path) -> Option<(String, String, String)> {
    let script = ["build.gradle", "build.gradle.kts"].iter().find_map(|n| read_text(&root.join(n)).ok())?;
    let script = strip_comments(&script);
    let props = properties(root, std::slice::from_ref(&script));
    let assigned = |key: &str| -> Option<String> {
        let from_script = script.lines().find_map(|line| {
            let l = line.trim();
            let l = l.strip_prefix("project.").unwrap_or(l);
            let rest = l.strip_prefix(key)?.trim_start();
            let rest = rest.strip_prefix('=').unwrap_or(rest).trim_start();
            if !rest.starts_with(['"', '\'']) {
                return None;
            }
            literals(rest).into_iter().next()
        });
        from_script.or_else(|| props.get(key).cloned()).and_then(|v| expand(&v, &props))
    };
    let group = assigned("group").filter(|g| !g.is_empty())?;
    let version = assigned("version").filter(|v| !v.is_empty() && v != "unspecified")?;
    let name = SETTINGS_FILES
        .iter()
        .filter_map(|n| read_text(&root.join(n)).ok())
        .find_map(|t| {
            strip_comments(&t).lines().find_map(|line| {
                let rest = line.trim().strip_prefix("rootProject.name")?.trim_start().strip_prefix('=')?;
                literals(rest).into_iter().next()
            })
        })
        .or_else(|| root.file_name().map(|n| n.to_string_lossy().into_owned()))?;
    let ok = |s: &str| !s.is_empty() && !s.contains(char::is_whitespace);
    (ok(&group) && ok(&name) && ok(&version)).then_some((group, name, version))
}

#[cfg(test)]
mod coordinates_tests {
    use super::*;

    #[test]
    fn a_gradle_builds_own_coordinates() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().join("shop");
        std::fs::create_dir_all(&root).expect("mkdir");
        std::fs::write(root.join("build.gradle"), "plugins { id 'java' }\ngroup = 'com.acme'\nversion '1.4'\n")
            .expect("write");
        assert_eq!(coordinates(&root), Some(("com.acme".into(), "shop".into(), "1.4".into())));
        std::fs::write(root.join("settings.gradle.kts"), "rootProject.name = \"store\"\n").expect("write");
        std::fs::remove_file(root.join("build.gradle")).expect("rm");
        std::fs::write(root.join("build.gradle.kts"), "group = \"com.acme\"\nversion = \"${v}\"\n").expect("write");
        std::fs::write(root.join("gradle.properties"), "v=2.0.1\n").expect("write");
        assert_eq!(coordinates(&root), Some(("com.acme".into(), "store".into(), "2.0.1".into())));
        std::fs::write(root.join("build.gradle.kts"), "group = \"com.acme\"\n").expect("write");
        assert_eq!(coordinates(&root), None, "no version");
    }

    #[test]
    fn a_script_s_extra_source_directories() {
        let script = "sourceSets {\n  main {\n    java { srcDir 'generated/java' }\n    java.srcDirs(\"src/main/java\", \"build/x\")\n  }\n}\n";
        assert_eq!(src_dirs(script), ["generated/java", "src/main/java", "build/x"]);
        let dir = tempfile::tempdir().expect("tempdir");
        for d in ["src/main/java", "generated/java"] {
            std::fs::create_dir_all(dir.path().join(d)).expect("mkdir");
        }
        std::fs::write(dir.path().join("build.gradle"), script).expect("write");
        assert_eq!(
            module_source_roots(dir.path()),
            [dir.path().join("src/main/java"), dir.path().join("generated/java")]
        );
    }
}
