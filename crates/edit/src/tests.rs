//! The unit tests' workspace: [`TestCtx`], a [`Ctx`] over a few sources written to a temp
//! directory (linked into a world with the JDK's types) and library types given as outlines.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use mji_model::TypeDecl;
use mji_xref::engine::XrefEngine;
use mji_xref::world::World;

use crate::ctx::Ctx;

/// A workspace of sources on disk (`p/A.java` → its text) and library types.
pub(crate) struct TestCtx {
    _dir: tempfile::TempDir,
    pub root: PathBuf,
    world: Arc<World>,
    files: Vec<Arc<Path>>,
    xref: XrefEngine,
    libraries: HashMap<String, TypeDecl>,
    /// The hints the workspace's checks report: (code, display path, line, column).
    hints: Vec<(String, String, u32, u32)>,
    /// The lines of view and configuration files that name a target: (target label, `file:line`).
    text_uses: Vec<(String, String)>,
}

impl TestCtx {
    /// The workspace of `sources` (relative path, text); its one library type is
    /// `java.lang.Object` (the JDK's other types are known by name only).
    pub(crate) fn new(sources: &[(&str, &str)]) -> TestCtx {
        TestCtx::bare(sources).with_library(object())
    }

    /// The workspace of `sources` without any library type, not even `java.lang.Object`.
    pub(crate) fn bare(sources: &[(&str, &str)]) -> TestCtx {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"));
        let root = dir.path().to_path_buf();
        let mut decls = Vec::new();
        let mut files = Vec::new();
        for (rel, text) in sources {
            let path = root.join(rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).unwrap_or_else(|e| panic!("{rel}: {e}"));
            }
            std::fs::write(&path, text).unwrap_or_else(|e| panic!("{rel}: {e}"));
            let path: Arc<Path> = path.into();
            decls.push((path.clone(), Arc::new(mji_xref::decls::file_decls(text.as_bytes()))));
            files.push(path);
        }
        TestCtx {
            _dir: dir,
            root,
            world: Arc::new(World::new(decls)),
            files,
            xref: XrefEngine::new(),
            libraries: HashMap::new(),
            hints: Vec::new(),
            text_uses: Vec::new(),
        }
    }

    /// The same workspace with `decl` a library type (its texts qualified as written).
    pub(crate) fn with_library(mut self, decl: TypeDecl) -> TestCtx {
        self.libraries.insert(decl.qualified_name.clone(), decl);
        self
    }

    /// The same workspace with `at` (`file:line` of a view or configuration file) naming the
    /// target labelled `label`.
    pub(crate) fn with_text_use(mut self, label: &str, at: &str) -> TestCtx {
        self.text_uses.push((label.to_owned(), at.to_owned()));
        self
    }

    /// The same workspace with the hint `code` reported at `file`'s `line`:`column`.
    pub(crate) fn with_hint(mut self, code: &str, file: &str, line: u32, column: u32) -> TestCtx {
        self.hints.push((code.to_owned(), file.to_owned(), line, column));
        self
    }
}

/// `java.lang.Object` as the libraries declare it (every type's supertype), texts qualified.
fn object() -> TypeDecl {
    let src = "package java.lang;\npublic class Object {\n    public Object() {}\n    public final native java.lang.Class<?> getClass();\n    public native int hashCode();\n    public boolean equals(java.lang.Object obj) { return false; }\n    protected native java.lang.Object clone() throws java.lang.CloneNotSupportedException;\n    public java.lang.String toString() { return null; }\n    public final native void notify();\n    public final native void notifyAll();\n    public final void wait() throws java.lang.InterruptedException {}\n    protected void finalize() throws java.lang.Throwable {}\n}\n";
    mji_parser::outline("Object.java", src.as_bytes()).classes.remove(0)
}

impl Ctx for TestCtx {
    fn world(&self) -> (Arc<World>, Vec<Arc<Path>>) {
        (self.world.clone(), self.files.clone())
    }

    fn xref(&self) -> &XrefEngine {
        &self.xref
    }

    fn display(&self, path: &Path) -> String {
        path.strip_prefix(&self.root).unwrap_or(path).display().to_string()
    }

    fn library_type(&self, fqn: &str) -> Option<TypeDecl> {
        self.libraries.get(fqn).cloned()
    }

    fn text_uses(&self, target: &mji_xref::target::Target, max: usize) -> (u64, Vec<String>) {
        let at: Vec<String> =
            self.text_uses.iter().filter(|(l, _)| *l == target.label).map(|(_, a)| a.clone()).collect();
        (at.len() as u64, at.into_iter().take(max).collect())
    }

    fn module_roots(&self, _: &Path) -> Vec<PathBuf> {
        Vec::new()
    }

    fn path_of(&self, file: &str) -> Option<PathBuf> {
        let path = self.root.join(file);
        path.is_file().then_some(path)
    }

    fn hints(&self, doc: &crate::Doc, code: &str) -> Vec<(u32, u32)> {
        self.hints.iter().filter(|h| h.0 == code && h.1 == doc.display).map(|h| (h.2, h.3)).collect()
    }
}

/// An action at a position: the workspace, the file, the line and column the call names.
pub(crate) type Action =
    fn(&dyn Ctx, &crate::Doc, u32, u32) -> Result<crate::ctx::Outcome, crate::actions::ActionError>;

/// The file `before` with its `$0` marker taken out, and the marker's 1-based line and UTF-16
/// column; written as `p/A.java` under a workspace of that one file.
fn marked(before: &str) -> (TestCtx, crate::Doc, u32, u32) {
    let at = before.find("$0").unwrap_or_else(|| panic!("no $0 marker in {before}"));
    let text = format!("{}{}", &before[..at], &before[at + 2..]);
    let line = before[..at].matches('\n').count() as u32 + 1;
    let column = before[..at].rsplit('\n').next().unwrap_or("").encode_utf16().count() as u32 + 1;
    let rel = match text.lines().find_map(|l| l.trim().strip_prefix("package ")?.strip_suffix(';')) {
        Some(pkg) => format!("{}/A.java", pkg.trim().replace('.', "/")),
        None => "A.java".to_owned(),
    };
    let ctx = TestCtx::new(&[(&rel, &text)]);
    let path = ctx.root.join(&rel);
    let doc = ctx.read(&path).unwrap_or_else(|e| panic!("{rel}: {e}"));
    (ctx, doc, line, column)
}

/// Runs `action` at the `$0` of `before` and compares the edited file with `after`.
pub(crate) fn check(action: Action, before: &str, after: expect_test::Expect) {
    let (ctx, doc, line, column) = marked(before);
    let outcome = action(&ctx, &doc, line, column).unwrap_or_else(|e| panic!("refused: {e}"));
    let plan = outcome.edit.plan().unwrap_or_else(|e| panic!("plan: {e}"));
    let file = plan.files.iter().find(|f| f.path == doc.path).unwrap_or_else(|| panic!("{} not edited", doc.display));
    after.assert_eq(&String::from_utf8_lossy(&file.new));
}

/// Runs `action` at the `$0` of `before` and checks it refuses, saying `reason`.
pub(crate) fn check_refused(action: Action, before: &str, reason: &str) {
    let (ctx, doc, line, column) = marked(before);
    match action(&ctx, &doc, line, column) {
        Ok(o) => panic!("not refused: {}", o.summary),
        Err(e) => assert_eq!(e.to_string(), reason),
    }
}

/// Runs `action` over a workspace of `sources` and compares every file it edits, each as
/// `--- path` (`-> new path` when moved) and its new text, with `after`.
pub(crate) fn check_workspace(
    sources: &[(&str, &str)],
    action: impl FnOnce(&dyn Ctx, &World) -> Result<crate::ctx::Outcome, crate::actions::ActionError>,
    after: expect_test::Expect,
) {
    let ctx = TestCtx::new(sources);
    let (w, _) = ctx.world();
    let outcome = action(&ctx, &w).unwrap_or_else(|e| panic!("refused: {e}"));
    let plan = outcome.edit.plan().unwrap_or_else(|e| panic!("plan: {e}"));
    let mut out = String::new();
    for f in &plan.files {
        out.push_str(&format!("--- {}", f.display));
        if let Some((_, to)) = &f.move_to {
            out.push_str(&format!(" -> {to}"));
        }
        out.push('\n');
        out.push_str(&String::from_utf8_lossy(&f.new));
    }
    for c in &outcome.conflicts {
        out.push_str(&format!("conflict: {c}\n"));
    }
    after.assert_eq(&out);
}

/// Runs `action` over a workspace of `sources` and checks it refuses, saying `reason`.
pub(crate) fn check_workspace_refused(
    sources: &[(&str, &str)],
    action: impl FnOnce(&dyn Ctx, &World) -> Result<crate::ctx::Outcome, crate::actions::ActionError>,
    reason: &str,
) {
    let ctx = TestCtx::new(sources);
    let (w, _) = ctx.world();
    match action(&ctx, &w) {
        Ok(o) => panic!("not refused: {}", o.summary),
        Err(e) => assert_eq!(e.to_string(), reason),
    }
}

/// `before` with its `$0` marker taken out, as `A.java`, and the marker's byte offset.
fn marked_doc(before: &str) -> (crate::Doc, usize) {
    let at = before.find("$0").unwrap_or_else(|| panic!("no $0 marker in {before}"));
    let text = format!("{}{}", &before[..at], &before[at + 2..]);
    let doc = crate::Doc::new(Path::new("/x/A.java"), "A.java", text.into_bytes()).unwrap_or_else(|e| panic!("{e}"));
    (doc, at)
}

/// Runs the quick fix `fix` at the `$0` of `before` and compares the edited file with `after`.
pub(crate) fn check_fix(
    fix: impl Fn(&crate::Doc, usize) -> Result<crate::ctx::Outcome, String>,
    before: &str,
    after: expect_test::Expect,
) {
    let (doc, at) = marked_doc(before);
    let outcome = fix(&doc, at).unwrap_or_else(|e| panic!("refused: {e}"));
    let plan = outcome.edit.plan().unwrap_or_else(|e| panic!("plan: {e}"));
    after.assert_eq(&String::from_utf8_lossy(&plan.files[0].new));
}

/// Runs the quick fix `fix` at the `$0` of `before` and checks it refuses, saying `reason`.
pub(crate) fn check_fix_refused(
    fix: impl Fn(&crate::Doc, usize) -> Result<crate::ctx::Outcome, String>,
    before: &str,
    reason: &str,
) {
    let (doc, at) = marked_doc(before);
    match fix(&doc, at) {
        Ok(done) => panic!("not refused: {}", done.summary),
        Err(e) => assert_eq!(e, reason),
    }
}
