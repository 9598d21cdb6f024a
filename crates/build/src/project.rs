//! The project model: for any file, its build system (a Maven reactor from `<modules>`, a
//! Gradle build from its settings, or plain sources), the build's modules, and each module's
//! main and test source roots and declared dependencies. Read from the build files (the XML
//! of the poms, the text of Gradle's scripts), never by running the build.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::bounds::{Bounds, Kind};
use crate::gradle;
use crate::pom::{Effective, Pom};

/// Which build a project uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum BuildSystem {
    Maven,
    Gradle,
    Plain,
}

/// One module of a build.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Module {
    /// Maven: the artifactId; Gradle: the project path (`:app`); plain: the directory name.
    pub name: String,
    pub dir: PathBuf,
    /// Main source roots that exist.
    pub source_roots: Vec<PathBuf>,
    /// Test source roots that exist.
    pub test_roots: Vec<PathBuf>,
    /// Declared dependencies, `group:artifact:version` (`:scope` when not compile), Maven only.
    pub dependencies: Vec<String>,
    /// Types its build generates that no source root holds until the build runs (Modello's,
    /// ANTLR's): simple names, Maven only ([`crate::generated`]).
    pub generated: Vec<String>,
}

/// A build: its system, its root (the reactor's top pom, the settings file's directory, or
/// the plain source root), its modules, and what could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Project {
    pub system: BuildSystem,
    pub root: PathBuf,
    pub modules: Vec<Module>,
    /// Build files that could not be read or parsed, and what was left out, with why.
    pub problems: Vec<String>,
    /// Which build-file statement named a module's directory or a source directory
    /// ([`crate::bounds::Origins`]), for the notes on what is left out.
    pub origins: Vec<(PathBuf, String)>,
}

impl Project {
    /// The module a file belongs to (the deepest module directory holding it).
    pub fn module_of(&self, file: &Path) -> Option<&Module> {
        self.modules.iter().filter(|m| file.starts_with(&m.dir)).max_by_key(|m| m.dir.components().count())
    }

    /// Every source root, main then test, of every module.
    pub fn all_roots(&self) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = Vec::new();
        for m in &self.modules {
            v.extend(m.source_roots.iter().cloned());
            v.extend(m.test_roots.iter().cloned());
        }
        v
    }
}

/// The build whose files stand in `dir` itself: a `pom.xml`, a Gradle script or settings
/// file, else plain (nothing is parsed: a cheap look for `tools/list`).
pub fn system_at(dir: &Path) -> BuildSystem {
    if dir.join("pom.xml").is_file() {
        BuildSystem::Maven
    } else if gradle::BUILD_FILES.iter().chain(gradle::SETTINGS_FILES.iter()).any(|g| dir.join(g).is_file()) {
        BuildSystem::Gradle
    } else {
        BuildSystem::Plain
    }
}

/// The most modules a reactor is followed to (a bound against module cycles and huge trees).
const MAX_MODULES: usize = 5000;

/// The project `path` (a file or directory) belongs to, inside the workspace root holding it
/// (the deepest of `roots`): the Maven reactor, the Gradle build, or plain sources. Modules and
/// source directories outside every root are left out, each with a note in `problems`
/// ([`crate::bounds`]).
pub fn project_for(path: &Path, roots: &[PathBuf], repo: Option<&Path>, profiles: &[String]) -> Project {
    let root =
        roots.iter().filter(|r| path.starts_with(r)).max_by_key(|r| r.components().count()).cloned().unwrap_or_else(
            || if path.is_dir() { path.to_path_buf() } else { path.parent().unwrap_or(path).to_path_buf() },
        );
    let bounds = Bounds::of_roots(roots);
    let mut project = read_project(path, &root, repo, profiles, &bounds);
    confine(&mut project, &bounds);
    project
}

fn read_project(path: &Path, root: &Path, repo: Option<&Path>, profiles: &[String], bounds: &Bounds) -> Project {
    let start = if path.is_dir() { Some(path) } else { path.parent() };
    let mut dir = start;
    while let Some(d) = dir.filter(|d| d.starts_with(root)) {
        if d.join("pom.xml").is_file() {
            return maven_reactor(&reactor_top(d, root, profiles), root, repo, profiles, bounds);
        }
        if gradle::BUILD_FILES.iter().chain(gradle::SETTINGS_FILES.iter()).any(|g| d.join(g).is_file()) {
            let probe = if path.is_dir() { path.join("x") } else { path.to_path_buf() };
            let build_root = gradle::settings_dir(&probe, root).unwrap_or_else(|| d.to_path_buf());
            return gradle_project(&build_root);
        }
        dir = d.parent();
    }
    // No build file: plain sources laid out from the workspace root.
    plain(root)
}

/// Leaves out the modules and source directories of `p` that lie outside `bounds`, with notes.
fn confine(p: &mut Project, bounds: &Bounds) {
    let mut notes = Vec::new();
    let (base, origins) = (p.root.clone(), p.origins.clone());
    p.modules.retain(|m| match bounds.admits(&m.dir, Kind::Sources) {
        Some(false) => {
            notes.push(bounds.note(&m.dir, Kind::Sources, &base, &origins));
            false
        }
        _ => true,
    });
    for m in &mut p.modules {
        bounds.retain(&mut m.source_roots, Kind::Sources, &base, &origins, &mut notes);
        bounds.retain(&mut m.test_roots, Kind::Sources, &base, &origins, &mut notes);
    }
    p.problems.extend(notes);
}

/// The top of the reactor holding the module at `dir`: the highest pom above it whose
/// modules lead down to it.
fn reactor_top(dir: &Path, root: &Path, profiles: &[String]) -> PathBuf {
    let mut top = dir.to_path_buf();
    while let Some(up) = top.parent().filter(|u| u.starts_with(root)) {
        let Ok(pom) = Pom::read(&up.join("pom.xml")) else { break };
        let lists = pom.all_modules(profiles).iter().any(|m| {
            let p = lexical(&up.join(m));
            let p = if p.file_name().is_some_and(|n| n == "pom.xml") {
                p.parent().map(Path::to_path_buf).unwrap_or(p)
            } else {
                p
            };
            p == top
        });
        if !lists {
            break;
        }
        top = up.to_path_buf();
    }
    top
}

fn lexical(p: &Path) -> PathBuf {
    mji_fs::lexical_normalize(p)
}

/// A Maven reactor from its top pom: every module `<modules>` (and active profiles) lead to,
/// inside the workspace root.
fn maven_reactor(top: &Path, root: &Path, repo: Option<&Path>, profiles: &[String], bounds: &Bounds) -> Project {
    let mut p = Project {
        system: BuildSystem::Maven,
        root: top.to_path_buf(),
        modules: Vec::new(),
        problems: Vec::new(),
        origins: Vec::new(),
    };
    let mut queue = vec![top.to_path_buf()];
    let mut seen: BTreeSet<PathBuf> = BTreeSet::new();
    while let Some(dir) = queue.pop() {
        if !seen.insert(dir.clone()) || p.modules.len() >= MAX_MODULES {
            continue;
        }
        let file = dir.join("pom.xml");
        let pom = match Effective::load(&file, repo, profiles, bounds) {
            Ok(e) => e,
            Err(why) => {
                p.problems.push(why);
                continue;
            }
        };
        p.problems.extend(pom.left_out.iter().cloned());
        let rel = |v: &Option<String>, default: &str| {
            let v = v.as_ref().map(|s| pom.expand(s)).unwrap_or_else(|| default.to_owned());
            let v = v.replace("${project.basedir}", "").replace("${basedir}", "");
            lexical(&dir.join(v.trim_start_matches('/')))
        };
        let main = rel(&pom.pom().source_directory, "src/main/java");
        let test = rel(&pom.pom().test_source_directory, "src/test/java");
        let shown = crate::bounds::relative(&file, top);
        for (declared, dir, key) in [
            (&pom.pom().source_directory, &main, "sourceDirectory"),
            (&pom.pom().test_source_directory, &test, "testSourceDirectory"),
        ] {
            if declared.is_some() {
                p.origins.push((dir.clone(), format!("{shown} {key}")));
            }
        }
        // Templates, what the build generated already, and build-helper's added directories.
        let extra = crate::generated::extra_source_roots(&dir, pom.pom(), &|v| pom.expand(v));
        for (d, why) in &extra {
            p.origins.push((d.clone(), format!("{shown} {why}")));
        }
        let generated = crate::generated::generated_types(&dir, pom.pom());
        let dependencies = pom
            .dependencies()
            .iter()
            .map(|d| {
                let mut s = format!("{}:{}", d.key(), d.version.as_deref().unwrap_or("?"));
                if let Some(scope) = d.scope.as_deref().filter(|s| *s != "compile") {
                    s.push(':');
                    s.push_str(scope);
                }
                s
            })
            .collect();
        // Kotlin's: kotlin-maven-plugin's default `sourceDirs` beside Java's.
        let mut source_roots: Vec<PathBuf> =
            std::iter::once(main).chain(extra.into_iter().map(|e| e.0)).filter(|d| d.is_dir()).collect();
        let mut test_roots: Vec<PathBuf> = [test].into_iter().filter(|d| d.is_dir()).collect();
        for (roots, kotlin) in [(&mut source_roots, "src/main/kotlin"), (&mut test_roots, "src/test/kotlin")] {
            let k = dir.join(kotlin);
            if k.is_dir() && !roots.contains(&k) {
                roots.push(k);
            }
        }
        p.modules.push(Module {
            name: pom.pom().artifact_id.clone(),
            dir: dir.clone(),
            source_roots,
            test_roots,
            dependencies,
            generated,
        });
        let mut subs = pom.pom().all_modules(profiles);
        subs.reverse();
        for m in subs {
            let d = lexical(&dir.join(&m));
            let d = if d.file_name().is_some_and(|n| n == "pom.xml") {
                d.parent().map(Path::to_path_buf).unwrap_or(d)
            } else {
                d
            };
            if !d.starts_with(root) {
                p.problems
                    .push(format!("{}: module `{m}` is outside the workspace root, not followed", file.display()));
            } else if d.join("pom.xml").is_file() {
                queue.push(d);
            } else {
                p.problems.push(format!("{}: module `{m}` has no pom.xml", file.display()));
            }
        }
    }
    p
}

/// A Gradle build from its settings' includes.
fn gradle_project(build_root: &Path) -> Project {
    let b = gradle::build(build_root);
    let origins = b.origins();
    let modules = b
        .modules
        .iter()
        .map(|m| {
            let (mut main, mut test) = (Vec::new(), Vec::new());
            for r in gradle::module_source_roots(&m.dir) {
                let set = r.parent().and_then(|s| s.file_name()).and_then(|n| n.to_str()).unwrap_or("");
                if set.to_ascii_lowercase().contains("test") { test.push(r) } else { main.push(r) }
            }
            Module {
                name: m.path.clone(),
                dir: m.dir.clone(),
                source_roots: main,
                test_roots: test,
                dependencies: Vec::new(),
                generated: Vec::new(),
            }
        })
        .collect();
    Project { system: BuildSystem::Gradle, root: build_root.to_path_buf(), modules, problems: Vec::new(), origins }
}

/// Plain sources at `base`: the main root is `src/main/java` or `src` (else `base` itself),
/// the test root `src/test/java`, `test` or `tests`.
fn plain(base: &Path) -> Project {
    let first = |c: &[&str]| c.iter().map(|d| base.join(d)).find(|d| d.is_dir());
    let main = first(&["src/main/java", "src"]).unwrap_or_else(|| base.to_path_buf());
    let test_roots: Vec<PathBuf> = first(&["src/test/java", "test", "tests"]).into_iter().collect();
    let name = base.file_name().and_then(|n| n.to_str()).unwrap_or(".").to_owned();
    Project {
        system: BuildSystem::Plain,
        root: base.to_path_buf(),
        modules: vec![Module {
            name,
            dir: base.to_path_buf(),
            source_roots: vec![main],
            test_roots,
            dependencies: Vec::new(),
            generated: Vec::new(),
        }],
        problems: Vec::new(),
        origins: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(root: &Path, rel: &str, text: &str) {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }

    #[test]
    fn a_reactor_is_followed_through_modules_and_profiles() {
        let t = tempfile::tempdir().expect("tmp");
        let r = t.path();
        write(
            r,
            "pom.xml",
            "<project><groupId>g</groupId><artifactId>top</artifactId><version>1</version><modules><module>a</module></modules><profiles><profile><id>p</id><activation><activeByDefault>true</activeByDefault></activation><modules><module>b/pom.xml</module></modules></profile></profiles></project>",
        );
        write(
            r,
            "a/pom.xml",
            "<project><parent><groupId>g</groupId><artifactId>top</artifactId><version>1</version></parent><artifactId>a</artifactId><dependencies><dependency><groupId>org.x</groupId><artifactId>y</artifactId><version>${project.version}</version><scope>test</scope></dependency></dependencies></project>",
        );
        write(r, "a/src/main/java/A.java", "class A {}");
        write(r, "a/src/test/java/ATest.java", "class ATest {}");
        write(
            r,
            "b/pom.xml",
            "<project><parent><groupId>g</groupId><artifactId>top</artifactId><version>1</version></parent><artifactId>b</artifactId><build><sourceDirectory>java</sourceDirectory></build></project>",
        );
        write(r, "b/java/B.java", "class B {}");
        write(r, "stray/pom.xml", "<project><artifactId>stray</artifactId></project>");
        let p = project_for(&r.join("a/src/main/java/A.java"), &[r.to_path_buf()], None, &[]);
        assert_eq!(p.system, BuildSystem::Maven);
        assert_eq!(p.root, r);
        let names: Vec<&str> = p.modules.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["top", "a", "b"]);
        let a = p.module_of(&r.join("a/src/test/java/ATest.java")).expect("module");
        assert_eq!(a.source_roots, [r.join("a/src/main/java")]);
        assert_eq!(a.test_roots, [r.join("a/src/test/java")]);
        assert_eq!(a.dependencies, ["org.x:y:1:test"]);
        assert_eq!(p.modules[2].source_roots, [r.join("b/java")]);
        // A pom no reactor lists is a project of its own.
        let s = project_for(&r.join("stray/pom.xml"), &[r.to_path_buf()], None, &[]);
        assert_eq!(s.root, r.join("stray"));
        // A broken pom is a problem named, not a failure.
        write(r, "a/pom.xml", "<project>");
        let p = project_for(&r.join("b/java/B.java"), &[r.to_path_buf()], None, &[]);
        assert_eq!(p.modules.len(), 2);
        assert!(p.problems[0].contains("not well-formed"), "{:?}", p.problems);
    }

    /// Issue 55: Kotlin's source directories are source and test roots of Maven and Gradle
    /// modules (kotlin-maven-plugin's and the Kotlin Gradle plugin's defaults), so a JUnit test
    /// written in Kotlin is a test of the build (runs.rs tests that `run_tests` selects it by class).
    #[test]
    fn kotlin_source_directories_are_roots_of_maven_and_gradle_modules() {
        let t = tempfile::tempdir().expect("tmp");
        let r = t.path();
        write(r, "m/pom.xml", "<project><groupId>g</groupId><artifactId>m</artifactId><version>1</version></project>");
        write(r, "m/src/main/java/p/Util.java", "package p; public class Util {}");
        write(r, "m/src/main/kotlin/p/calls.kt", "package p\nfun f() = 1\n");
        write(r, "m/src/test/kotlin/p/UtilTest.kt", "package p\nclass UtilTest\n");
        let p = project_for(&r.join("m/pom.xml"), &[r.to_path_buf()], None, &[]);
        let m = &p.modules[0];
        assert_eq!(m.source_roots, [r.join("m/src/main/java"), r.join("m/src/main/kotlin")]);
        assert_eq!(m.test_roots, [r.join("m/src/test/kotlin")]);
        write(r, "g/build.gradle", "plugins { id 'org.jetbrains.kotlin.jvm' }\n");
        write(r, "g/src/main/kotlin/p/A.kt", "package p\nclass A\n");
        write(r, "g/src/test/java/p/JTest.java", "package p; class JTest {}");
        write(r, "g/src/test/kotlin/p/ATest.kt", "package p\nclass ATest\n");
        let g = project_for(&r.join("g/build.gradle"), &[r.to_path_buf()], None, &[]);
        assert_eq!(g.system, BuildSystem::Gradle);
        assert_eq!(g.modules[0].source_roots, [r.join("g/src/main/kotlin")]);
        assert_eq!(g.modules[0].test_roots, [r.join("g/src/test/java"), r.join("g/src/test/kotlin")]);
    }
}
