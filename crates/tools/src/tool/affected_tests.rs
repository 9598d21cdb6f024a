//! `affected_tests`: the test methods whose calls reach some code (a target, or what the
//! working tree changed against git's `HEAD`), each with its module and one path of calls
//! (the walk is [`mji_xref::calls::affected_tests`]). `run_tests` `affected: true` runs them.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::ToolError;
use crate::host::Host;
use crate::page::Page;
use crate::registry::{Start, Tool};
use crate::xref;
use mji_build::project::Project;
use mji_xref::calls;

pub(crate) struct AffectedTests;

// The most levels of callers walked up from the code.
const MAX_LEVELS: u32 = 12;

fn default_limit() -> u32 {
    100
}

// `true`: the working tree against git's HEAD; a list: those files' changes.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum ChangedArg {
    All(bool),
    Files(Vec<String>),
}

impl Default for ChangedArg {
    fn default() -> Self {
        ChangedArg::All(false)
    }
}

impl ChangedArg {
    fn wanted(&self) -> bool {
        match self {
            ChangedArg::All(b) => *b,
            ChangedArg::Files(f) => !f.is_empty(),
        }
    }
}

/// Arguments of `affected_tests`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AffectedTestsArgs {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub target: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<String>,
    #[serde(default)]
    pub changed: ChangedArg,
    #[serde(default = "default_limit")]
    pub limit: u32,
    #[serde(default)]
    pub offset: u32,
}

/// One test the code reaches (the walk's answer, before it is grouped for the client).
#[derive(Debug, Clone)]
pub struct AffectedTest {
    // pkg.Class#method, as run_tests takes it.
    pub test: String,
    pub module: String,
    pub file: String,
    pub line: u32,
    // Calls from the test down to the code: member keys.
    pub path: Vec<String>,
}

/// The tests of one class the code reaches.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TestClass {
    // pkg.Class (a nested class by its binary name, pkg.Outer$Inner): a test is `class#name`, as run_tests takes it.
    pub class: String,
    pub module: String,
    pub file: String,
    // Its tests by the calls between them and the code.
    pub groups: Vec<TestGroup>,
}

/// Tests of a class that reach the code through the same calls.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TestGroup {
    // The members called between the tests and the code, in short names (`Calc#add(List,int)`); the code itself left out when it is one member; empty: the tests call the code.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub via: Vec<String>,
    pub tests: Vec<TestAt>,
}

/// A test method: its name and the line of its declaration.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TestAt {
    pub name: String,
    pub line: u32,
}

/// The answer of `affected_tests`.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AffectedTestsResult {
    // The members the walk started from.
    pub code: Vec<String>,
    #[serde(flatten)]
    pub page: Page,
    // The page's tests by class, in the order of their modules and names.
    pub classes: Vec<TestClass>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub incomplete: Vec<String>,
    // The languages searched when not Java alone (as find_references says them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub languages: Vec<String>,
    // The page's tests as the walk found them, which `cut` keeps a prefix of.
    #[serde(skip)]
    #[schemars(skip)]
    found: Vec<AffectedTest>,
}

impl Tool for AffectedTests {
    const NAME: &'static str = "affected_tests";
    const TITLE: &'static str = "Affected tests";
    const DESCRIPTION: &'static str = "Tests whose calls reach `target`(s) or what `changed` (true: vs git HEAD; or files), with module and call path.";
    const WAITS_FOR_INDEX: bool = true;
    const START: Start = Start::World { references: true };

    type Args = AffectedTestsArgs;
    type Output = AffectedTestsResult;

    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError> {
        let Affected { tests, code, incomplete } = affected(ws, &args)?;
        let total = tests.len();
        let offset = args.offset as usize;
        let found: Vec<AffectedTest> = tests.into_iter().skip(offset).take(args.limit.max(1) as usize).collect();
        Ok(AffectedTestsResult {
            page: Page::of(offset as u64, found.len(), total),
            classes: by_class(&found, code.len()),
            code,
            incomplete,
            languages: super::find_references::languages(ws),
            found,
        })
    }

    fn render(output: &Self::Output) -> Option<String> {
        let mut s = if output.code.is_empty() {
            "no method, constructor or initializer changed: no test to list\n".to_owned()
        } else {
            let searched = if output.languages.is_empty() { "" } else { " (Java and Kotlin searched)" };
            format!("{} test(s) reach {}{searched}\n", output.page.total, output.code.join(", "))
        };
        render_classes(&mut s, &output.classes);
        if let Some(o) = output.page.next_offset {
            let _ = writeln!(s, "truncated: next offset {o}");
        }
        for i in &output.incomplete {
            let _ = writeln!(s, "incomplete: {i}");
        }
        Some(s)
    }

    fn page_len(output: &Self::Output) -> Option<usize> {
        Some(output.found.len())
    }

    fn cut(output: &mut Self::Output, args: &Self::Args, n: usize) {
        output.found.truncate(n);
        output.classes = by_class(&output.found, output.code.len());
        output.page.kept(u64::from(args.offset), output.found.len());
    }
}

/// The tests grouped by class (its module and file said once), each test's name and line, and
/// the calls between it and the code in short names (`via CharUtils#isAsciiAlpha(char)`),
/// said once for the tests of a class that share them; the code itself is left out of the
/// paths when it is one member (the answer's `code` names it). Tests keep their order; a
/// class's groups are in the order their first tests come.
fn by_class(tests: &[AffectedTest], codes: usize) -> Vec<TestClass> {
    let class = |t: &AffectedTest| t.test.split_once('#').map_or(t.test.as_str(), |(c, _)| c).to_owned();
    let mut out: Vec<TestClass> = Vec::new();
    for t in tests {
        let c = class(t);
        let same = out.last().is_some_and(|l| l.class == c && l.file == t.file && l.module == t.module);
        if !same {
            out.push(TestClass { class: c, module: t.module.clone(), file: t.file.clone(), groups: Vec::new() });
        }
        let Some(last) = out.last_mut() else { continue };
        let inner = t.path.get(1..t.path.len().saturating_sub(usize::from(codes == 1))).unwrap_or_default();
        let via: Vec<String> = inner.iter().map(|k| short_key(k)).collect();
        let at = TestAt { name: t.test.split_once('#').map_or(t.test.as_str(), |(_, m)| m).to_owned(), line: t.line };
        match last.groups.iter_mut().find(|g| g.via == via) {
            Some(g) => g.tests.push(at),
            None => last.groups.push(TestGroup { via, tests: vec![at] }),
        }
    }
    out
}

/// The classes as text: a line per class, then a line per group of its tests.
fn render_classes(s: &mut String, classes: &[TestClass]) {
    for c in classes {
        let _ = writeln!(s, "{} [{}] {}", c.class, c.module, c.file);
        for g in &c.groups {
            let names: Vec<String> = g.tests.iter().map(|t| format!("{}:{}", t.name, t.line)).collect();
            let _ = write!(s, "  {}", names.join(", "));
            if !g.via.is_empty() {
                let _ = write!(s, "  via {}", g.via.join(" -> "));
            }
            s.push('\n');
        }
    }
}

/// A member key without packages: `org.acme.Calc#add(java.util.List,int)` is `Calc#add(List,int)`.
fn short_key(key: &str) -> String {
    let short_type = |t: &str| -> String {
        let (base, dims) = t.find('[').map_or((t, ""), |i| (&t[..i], &t[i..]));
        let segs: Vec<&str> = base.split('.').collect();
        let first_type = segs.iter().position(|x| x.starts_with(|c: char| c.is_uppercase())).unwrap_or(segs.len() - 1);
        format!("{}{dims}", segs[first_type..].join("."))
    };
    let Some((owner, member)) = key.split_once('#') else { return short_type(key) };
    let member = match member.split_once('(') {
        Some((name, params)) => {
            let params = params.trim_end_matches(')');
            let ps: Vec<String> = if params.is_empty() { Vec::new() } else { params.split(',').map(short_type).collect() };
            format!("{name}({})", ps.join(","))
        }
        None => member.to_owned(),
    };
    format!("{}#{member}", short_type(owner))
}

/// What [`affected`] finds.
pub struct Affected {
    /// Sorted by module, then test.
    pub tests: Vec<AffectedTest>,
    /// The members the walk started from.
    pub code: Vec<String>,
    /// The files that could not be bound fully.
    pub incomplete: Vec<String>,
}

/// The tests the code `args` names reaches.
pub fn affected(ws: &Host, args: &AffectedTestsArgs) -> Result<Affected, ToolError> {
    let (w, files) = ws.xref_world();
    let scope = xref::select_files(&files, &[]);
    let (project, root, _) = crate::build::project_at(ws, "")?;
    let mut code: Vec<String> = Vec::new();
    let given = !args.target.trim().is_empty() || !args.targets.is_empty();
    if given == args.changed.wanted() {
        return Err(ToolError::InvalidArgument(
            "give either target/targets or changed (true, or a list of files)".into(),
        ));
    }
    let specs: Vec<&String> = std::iter::once(&args.target).filter(|t| !t.trim().is_empty()).chain(&args.targets).collect();
    for spec in specs {
        let t = crate::targets::target_of_spec(ws, &w, spec)?;
        match t.category {
            mji_xref::Category::Method | mji_xref::Category::Ctor => code.extend(t.keys),
            // A type: every member it declares.
            mji_xref::Category::Type => {
                for (p, _) in &t.decls {
                    let bytes = ws.roots().read(p, &ws.display_of(p)).map_err(crate::read_error)?;
                    code.extend(
                        calls::members_at(&w, p, &bytes, &[])
                            .into_iter()
                            .filter(|k| k.split('#').next().is_some_and(|o| t.keys.iter().any(|x| x == o))),
                    );
                }
            }
            mji_xref::Category::Field => {
                return Err(ToolError::InvalidArgument(format!(
                    "{} is a field: give a method, constructor or type (find_references lists a field's uses)",
                    t.label
                )));
            }
        }
    }
    if let ChangedArg::All(true) | ChangedArg::Files(_) = &args.changed
        && args.changed.wanted()
    {
        let named: Vec<PathBuf> = match &args.changed {
            ChangedArg::Files(f) => {
                f.iter().map(|f| ws.resolve(f).map(|r| r.path)).collect::<Result<Vec<_>, _>>()?
            }
            ChangedArg::All(_) => Vec::new(),
        };
        let changed = mji_build::changes::changed_since_head(&root, &named, ws.roots().max_file_bytes())
            .map_err(|e| ToolError::InvalidArgument(format!("reading the changes against git HEAD: {e}")))?;
        for c in changed {
            let Ok(r) = ws.resolve(&c.path.to_string_lossy()) else { continue };
            let Ok(bytes) = ws.roots().read(&r.path, &r.display) else { continue };
            code.extend(calls::members_at(&w, &r.path, &bytes, &c.lines));
        }
    }
    code.sort();
    code.dedup();
    let tests_at = TestsAt { ws, w: &w, project: &project, outlines: RefCell::new(HashMap::new()) };
    let reach = |p: &Path, key: &str| tests_at.reach(p, key);
    let (found, unbound) = calls::affected_tests(ws.xref(), &w, &scope, &code, &reach, MAX_LEVELS);
    let mut tests: Vec<AffectedTest> = found
        .into_iter()
        .map(|t| AffectedTest {
            test: test_name(&t.key, &t.file),
            module: project.module_of(&t.file).map(|m| m.name.clone()).unwrap_or_default(),
            file: ws.display_of(&t.file),
            line: t.line,
            path: t.path,
        })
        .collect();
    tests.sort_by(|a, b| (&a.module, &a.test).cmp(&(&b.module, &b.test)));
    let mut incomplete = ws.incomplete(unbound);
    incomplete.truncate(xref::MAX_INCOMPLETE);
    Ok(Affected { tests, code, incomplete })
}

/// `pkg.Class#method` of a method key `pkg.Class#method(params)`.
fn test_name(key: &str, file: &Path) -> String {
    let name = key.split('(').next().unwrap_or(key);
    // A nested test class by its binary name (`pkg.Outer$Inner#m`), as the test runners select
    // and report it: the names after the file's top-level class.
    let (owner, method) = name.split_once('#').unwrap_or((name, ""));
    let top = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let at = owner.match_indices('.').map(|(i, _)| i + 1).chain([0]).find(|&i| {
        owner[i..].strip_prefix(top).is_some_and(|rest| rest.starts_with('.'))
    });
    match at {
        Some(i) => {
            let (head, nested) = owner.split_at(i + top.len());
            format!("{head}{}#{method}", nested.replace('.', "$"))
        }
        None => name.to_owned(),
    }
}

/// Which members of the test sources are tests, read from their files' outlines (once each).
struct TestsAt<'a> {
    ws: &'a Host,
    w: &'a mji_xref::world::World,
    project: &'a Project,
    outlines: RefCell<HashMap<Arc<Path>, Option<mji_model::FileOutline>>>,
}

// How deep the subclasses of a test class are followed for the tests its setup runs for.
const MAX_TEST_SUBCLASSING: usize = 16;

impl TestsAt<'_> {
    fn in_tests(&self, p: &Path) -> bool {
        self.project.modules.iter().flat_map(|m| &m.test_roots).any(|r| p.starts_with(r))
    }

    /// The outline type `fqn` declared in `p`, handed to `f`.
    fn with_type<R>(&self, p: &Path, fqn: &str, f: impl FnOnce(&mji_model::TypeDecl) -> R) -> Option<R> {
        let mut cache = self.outlines.borrow_mut();
        let outline = cache.entry(Arc::from(p)).or_insert_with(|| {
            let bytes = self.ws.roots().read(p, &self.ws.display_of(p)).ok()?;
            Some(mji_parser::outline_declarations(&p.to_string_lossy(), &bytes))
        });
        fn find<'a>(types: &'a [mji_model::TypeDecl], fqn: &str) -> Option<&'a mji_model::TypeDecl> {
            types.iter().find_map(|t| if t.qualified_name == fqn { Some(t) } else { find(&t.inner_classes, fqn) })
        }
        find(&outline.as_ref()?.classes, fqn).map(f)
    }

    /// What the member `key` declared in `p` is to the walk: a test method (in a test source
    /// root of the build, annotated as JUnit 4/5 or TestNG run it), a method the runner calls
    /// around the tests of its class (a lifecycle annotation, a constructor, an initializer),
    /// or other code.
    fn reach(&self, p: &Path, key: &str) -> calls::Reach {
        if !self.in_tests(p) {
            return calls::Reach::Code;
        }
        let Some((owner, rest)) = key.split_once('#') else { return calls::Reach::Code };
        if calls::is_creation_key(key) {
            // A test class's constructor or initializer; a helper's is code its callers reach.
            let tests = self.tests_of(owner);
            return if tests.is_empty() { calls::Reach::Code } else { calls::Reach::Runs(tests) };
        }
        let name = rest.split('(').next().unwrap_or(rest);
        let Some((_, line)) = calls::decl_of(self.w, key) else { return calls::Reach::Code };
        let annotations = self.with_type(p, owner, |t| {
            t.methods
                .iter()
                .find(|m| m.name == name && m.start_line.saturating_sub(1) <= line && line <= m.end_line)
                .map(|m| (m.start_line, m.annotations.iter().map(|a| annotation_name(a).to_owned()).collect::<Vec<_>>()))
        });
        match annotations.flatten() {
            Some((line, a)) if a.iter().any(|a| calls::is_test_annotation(a)) => calls::Reach::Test(line),
            Some((_, a)) if a.iter().any(|a| calls::is_lifecycle_annotation(a)) => {
                calls::Reach::Runs(self.tests_of(owner))
            }
            _ => calls::Reach::Code,
        }
    }

    /// The test methods the runner runs with an instance of `fqn` or of a class that extends
    /// it (in the test sources), and of its `@Nested` classes: (key, file, line).
    fn tests_of(&self, fqn: &str) -> Vec<(String, Arc<Path>, u32)> {
        let w = self.w;
        let mut out = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut level = vec![fqn.to_owned()];
        for _ in 0..MAX_TEST_SUBCLASSING {
            let mut next = Vec::new();
            for f in &level {
                if !seen.insert(f.clone()) {
                    continue;
                }
                let Some(id) = w.workspace_type(f).filter(|id| w.is_workspace(*id)) else { continue };
                let Some(p) = w.files.get(w.file_of(id) as usize).map(|f| f.path.clone()) else { continue };
                if !self.in_tests(&p) {
                    continue;
                }
                let found = self.with_type(&p, f, |t| {
                    let tests: Vec<(String, u32, u32)> = t
                        .methods
                        .iter()
                        .filter(|m| m.annotations.iter().any(|a| calls::is_test_annotation(annotation_name(a))))
                        .map(|m| (m.name.clone(), m.start_line, m.end_line))
                        .collect();
                    let nested: Vec<String> = t
                        .inner_classes
                        .iter()
                        .filter(|c| c.annotations.iter().any(|a| annotation_name(a).rsplit('.').next() == Some("Nested")))
                        .map(|c| c.qualified_name.clone())
                        .collect();
                    (tests, nested)
                });
                let Some((tests, nested)) = found else { continue };
                let d = w.decl(id);
                for (name, s, e) in tests {
                    if let Some(m) = d.methods.iter().find(|m| *m.name == *name && s.saturating_sub(1) <= m.line && m.line <= e) {
                        out.push((w.method_key(id, m), p.clone(), s));
                    }
                }
                next.extend(nested);
                next.extend(w.direct_subtypes(f).iter().map(|&sub| w.decl(sub).fqn.to_string()));
            }
            if next.is_empty() {
                break;
            }
            level = next;
        }
        out
    }
}

/// An annotation's name as written (`@org.junit.Test(timeout = 1)` -> `org.junit.Test`).
fn annotation_name(a: &str) -> &str {
    let a = a.trim_start_matches('@');
    a.split(['(', ' ']).next().unwrap_or(a)
}

#[cfg(test)]
mod tests {
    use super::{AffectedTest, by_class, render_classes, short_key};

    #[test]
    fn keys_are_shortened_to_their_types_simple_names() {
        assert_eq!(short_key("org.acme.Calc#add(java.util.List,int)"), "Calc#add(List,int)");
        assert_eq!(short_key("org.acme.Outer.Inner#f(java.lang.Integer[],T)"), "Outer.Inner#f(Integer[],T)");
        assert_eq!(short_key("org.acme.Calc#<init>()"), "Calc#<init>()");
        assert_eq!(short_key("Plain#f()"), "Plain#f()");
    }

    #[test]
    fn tests_of_a_class_sharing_a_path_are_one_line() {
        let t = |name: &str, line: u32, via: &[&str]| AffectedTest {
            test: format!("org.acme.CalcTest#{name}"),
            module: "core".into(),
            file: "src/test/java/org/acme/CalcTest.java".into(),
            line,
            path: std::iter::once(format!("org.acme.CalcTest#{name}()"))
                .chain(via.iter().map(|s| s.to_string()))
                .chain(std::iter::once("org.acme.Calc#add(int,int)".to_string()))
                .collect(),
        };
        let tests = [t("a", 3, &["org.acme.Sum#of(int[])"]), t("b", 9, &[]), t("c", 12, &["org.acme.Sum#of(int[])"])];
        let mut s = String::new();
        render_classes(&mut s, &by_class(&tests, 1));
        assert_eq!(
            s,
            "org.acme.CalcTest [core] src/test/java/org/acme/CalcTest.java\n  a:3, c:12  via Sum#of(int[])\n  b:9\n"
        );
        // With several codes, the path says which one it reaches.
        let mut s = String::new();
        render_classes(&mut s, &by_class(&tests[1..2], 2));
        assert!(s.ends_with("  b:9  via Calc#add(int,int)\n"), "{s}");
    }
}
