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
}

impl TestCtx {
    /// The workspace of `sources` (relative path, text), no library beyond the JDK's names.
    pub(crate) fn new(sources: &[(&str, &str)]) -> TestCtx {
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
        }
    }

    /// The same workspace with `decl` a library type (its texts qualified as written).
    pub(crate) fn with_library(mut self, decl: TypeDecl) -> TestCtx {
        self.libraries.insert(decl.qualified_name.clone(), decl);
        self
    }
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
}
