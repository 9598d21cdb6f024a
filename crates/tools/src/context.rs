//! The host as [`mji_edit`]'s context: what an action reads of the workspace (the world, the
//! reference engine, display names, the libraries' types).

use std::path::Path;
use std::sync::Arc;

use mji_xref::engine::XrefEngine;
use mji_xref::world::World;

use crate::host::Host;

/// What an action of [`mji_edit`] reads of the workspace.
impl mji_edit::ctx::Ctx for Host {
    fn world(&self) -> (Arc<World>, Vec<Arc<Path>>) {
        let (w, files) = self.xref_world();
        (w, files.iter().map(|(p, _)| p.clone()).collect())
    }

    fn xref(&self) -> &XrefEngine {
        Host::xref(self)
    }

    fn display(&self, path: &Path) -> String {
        self.display_of(path)
    }

    fn library_type(&self, fqn: &str) -> Option<mji_model::TypeDecl> {
        crate::libraries::qualified_decl(self, fqn)
    }

    fn text_uses(&self, target: &mji_xref::target::Target, max: usize) -> (u64, Vec<String>) {
        let m = crate::xref::non_java_matches(self, target, &[]);
        (m.total, m.matches.iter().take(max).map(|m| format!("{}:{}", m.file, m.line)).collect())
    }

    fn module_roots(&self, base: &Path) -> Vec<std::path::PathBuf> {
        if self.roots().root_of(base).is_none() {
            return Vec::new();
        }
        let project = mji_build::project::project_for(base, self.roots().paths(), None, &[]);
        match project.module_of(base) {
            Some(m) => m.source_roots.iter().chain(&m.test_roots).filter(|r| r.is_dir()).cloned().collect(),
            None => Vec::new(),
        }
    }

    fn path_of(&self, file: &str) -> Option<std::path::PathBuf> {
        self.resolve(file).ok().map(|r| r.path)
    }

    fn hints(&self, doc: &mji_edit::Doc, code: &str) -> Vec<(u32, u32)> {
        let found = if code == crate::quick_fix::MISSING_OVERRIDE {
            crate::quick_fix::override_hints(self, &[(doc.path.clone(), doc.display.clone())])
        } else {
            mji_problems::syntax::check(&doc.display, &doc.bytes)
        };
        found.iter().filter(|p| p.code == code).map(|p| (p.line, p.column)).collect()
    }
}
