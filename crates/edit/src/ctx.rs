//! What an action runs in and what it answers: [`Ctx`], the one context trait the host
//! implements (the world, the references of a key, library types, reading a file as a
//! [`Doc`], how answers name a file), and [`Outcome`], the one result of an action (the edit,
//! its summary, conflicts and warnings).

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use mji_model::TypeDecl;
use mji_xref::bind::DepthCut;
use mji_xref::engine::XrefEngine;
use mji_xref::target::{Search, Target};
use mji_xref::world::{TypeId, World};

use crate::{Doc, EditError, TextEdit, WorkspaceEdit};

/// The workspace as an action sees it. The host (`mji_tools::host::Host`) implements it; the
/// unit tests implement it over a few sources.
pub trait Ctx {
    /// The linked world of the workspace's sources, and the files a search reads.
    fn world(&self) -> (Arc<World>, Vec<Arc<Path>>);
    /// The cross-reference engine: every file's bound references.
    fn xref(&self) -> &XrefEngine;
    /// How answers name a file (relative to its root).
    fn display(&self, path: &Path) -> String;
    /// A library type's declaration (the JDK's, a jar's), every type text qualified; `None`
    /// when no library declares it.
    fn library_type(&self, fqn: &str) -> Option<TypeDecl>;
    /// The lines of the workspace's view and configuration files (not Java) naming `target`'s
    /// words: how many, and the first `max` as `file:line`.
    fn text_uses(&self, target: &Target, max: usize) -> (u64, Vec<String>);
    /// The source and test roots the build declares for the module holding the directory
    /// `base` (a pom's `sourceDirectory`, Gradle source sets), those that exist; none outside
    /// the workspace.
    fn module_roots(&self, base: &Path) -> Vec<PathBuf>;
    /// The file a tool's argument or an answer names (`file` as answers show it), when it
    /// is one of the workspace's.
    fn path_of(&self, file: &str) -> Option<PathBuf>;
    /// Where the workspace's checks report the hint `code` in `doc` (`hint.unused.import`,
    /// `hint.unused.local`, `hint.missing.override`): each (line, UTF-16 column).
    fn hints(&self, doc: &Doc, code: &str) -> Vec<(u32, u32)>;

    /// The file at `path` as a [`Doc`], named as answers name it.
    fn read(&self, path: &Path) -> Result<Doc, EditError> {
        Doc::read(path, &self.display(path))
    }

    /// The references of `target`'s keys in `files`.
    fn references(&self, w: &World, files: &[Arc<Path>], target: &Target) -> Search {
        mji_xref::target::search(self.xref(), w, files, target)
    }

    /// The files a search could not bind fully, each once, in path order, with the reason.
    fn incomplete(&self, mut unbound: Vec<(Arc<Path>, DepthCut)>) -> Vec<String> {
        unbound.sort_by(|a, b| a.0.cmp(&b.0));
        unbound.dedup_by(|a, b| a.0 == b.0);
        unbound.into_iter().map(|(p, cut)| format!("{}: {cut}", self.display(&p))).collect()
    }

    /// The conflict a refactoring reports for the files its search could not bind fully (at
    /// most `shown` named), or none.
    /// The conflict an edit of `name` says when files that mention it could not be bound fully:
    /// its `what` (uses, references) there may be missed; the first five named.
    fn unbound_mentions(&self, unbound: Vec<(Arc<Path>, DepthCut)>, name: &str, what: &str) -> Option<String> {
        let incomplete = self.incomplete(unbound);
        (!incomplete.is_empty()).then(|| {
            format!(
                "{} file(s) mention {name} but could not be bound fully, so {what} there may be missed: {}",
                incomplete.len(),
                incomplete.iter().take(5).cloned().collect::<Vec<_>>().join(", ")
            )
        })
    }

    fn unbound_conflict(&self, unbound: Vec<(Arc<Path>, DepthCut)>, shown: usize) -> Option<String> {
        let incomplete = self.incomplete(unbound);
        if incomplete.is_empty() {
            return None;
        }
        let mut names = incomplete.iter().take(shown).cloned().collect::<Vec<_>>().join(", ");
        if incomplete.len() > shown {
            names.push_str(&format!(", … ({} in all)", incomplete.len()));
        }
        Some(format!(
            "{} file(s) could not be bound fully, so references there may be missed: {names}",
            incomplete.len()
        ))
    }

    /// `doc`'s outline as the tools see it: Lombok's members generated under the
    /// `lombok.config` in effect for its file.
    fn outline(&self, doc: &Doc) -> mji_model::FileOutline {
        mji_parser::outline_with(&doc.display, &doc.bytes, &self.xref().lombok_config(&doc.path))
    }

    /// The declaration of `fqn` with its type texts qualified: a workspace type's from its
    /// file, a library's from its class file.
    fn type_decl(&self, w: &World, fqn: &str) -> Option<TypeDecl> {
        match w.workspace_type(fqn) {
            Some(id) => {
                let path = &w.files[w.file_of(id) as usize].path;
                let d = self.read(path).ok()?;
                let o = self.outline(&d);
                by_qualified_name(&o.classes, fqn).map(|t| qualify_decl(w, id, t))
            }
            None => self.library_type(fqn),
        }
    }
}

/// [`Ctx::type_decl`], each type read once.
pub struct TypeCache<'a> {
    ctx: &'a dyn Ctx,
    w: &'a World,
    loaded: RefCell<HashMap<String, Option<TypeDecl>>>,
}

impl<'a> TypeCache<'a> {
    pub fn new(ctx: &'a dyn Ctx, w: &'a World) -> TypeCache<'a> {
        TypeCache { ctx, w, loaded: RefCell::default() }
    }

    /// The qualified declaration of `fqn`, or `None` when neither the workspace nor a library
    /// declares it.
    pub fn get(&self, fqn: &str) -> Option<TypeDecl> {
        if let Some(d) = self.loaded.borrow().get(fqn) {
            return d.clone();
        }
        let d = self.ctx.type_decl(self.w, fqn);
        self.loaded.borrow_mut().insert(fqn.to_owned(), d.clone());
        d
    }

    pub fn world(&self) -> &World {
        self.w
    }
}

/// What an action answers: the edit (previewed, applied when asked), a one-line summary, the
/// conflicts that refuse an apply without `force`, and warnings.
#[derive(Debug, Default)]
pub struct Outcome {
    pub edit: WorkspaceEdit,
    pub summary: String,
    pub conflicts: Vec<String>,
    pub warnings: Vec<String>,
    /// References that may be the target's, not changed (`file:line:column`).
    pub likely: Vec<String>,
    /// Names with more than one meaning (organize imports' choices).
    pub ambiguous: Vec<String>,
}

impl Outcome {
    /// An outcome of `edit` said as `summary`, with no conflict or warning.
    pub fn new(edit: WorkspaceEdit, summary: String) -> Outcome {
        Outcome { edit, summary, ..Outcome::default() }
    }

    /// An outcome of `edits` in the one file `doc`, said as `summary`.
    pub fn in_doc(doc: &Doc, edits: Vec<TextEdit>, summary: String) -> Outcome {
        let mut edit = WorkspaceEdit::default();
        let mut f = doc.edit();
        f.edits = edits;
        edit.add(f);
        Outcome::new(edit, summary)
    }
}

/// The innermost type whose lines hold `line`.
pub fn innermost_at(types: &[TypeDecl], line: u32) -> Option<&TypeDecl> {
    let t = types.iter().find(|t| t.start_line <= line && line <= t.end_line)?;
    Some(innermost_at(&t.inner_classes, line).unwrap_or(t))
}

/// The type of a qualified name among a file's types (nested ones too).
pub fn by_qualified_name<'a>(types: &'a [TypeDecl], fqn: &str) -> Option<&'a TypeDecl> {
    types.iter().find_map(|t| if t.qualified_name == fqn { Some(t) } else { by_qualified_name(&t.inner_classes, fqn) })
}

/// `t` with every type text qualified as the world resolves it inside the type `id` (type
/// variables and unknown names as written).
pub fn qualify_decl(w: &World, id: TypeId, t: &TypeDecl) -> TypeDecl {
    let q = |text: &str, tvars: &[String]| {
        crate::syntax::map_names(text, |n| {
            if tvars.iter().any(|v| v == n.split('.').next().unwrap_or(n)) { None } else { w.qualify_in(id, n) }
        })
    };
    let names = |tps: &Option<String>| -> Vec<String> {
        let inner = tps.as_deref().unwrap_or("").trim().trim_start_matches('<').trim_end_matches('>').to_owned();
        let mut depth = 0;
        let mut out = vec![String::new()];
        for c in inner.chars() {
            match c {
                '<' => depth += 1,
                '>' => depth -= 1,
                ',' if depth == 0 => out.push(String::new()),
                _ => {}
            }
            if let Some(last) = out.last_mut() {
                last.push(c);
            }
        }
        out.iter().filter_map(|p| p.trim_start_matches(',').split_whitespace().next().map(str::to_owned)).collect()
    };
    let mut d = t.clone();
    let own = names(&d.type_params_text);
    d.type_params_text = d.type_params_text.as_deref().map(|x| q(x, &own));
    d.extends = d.extends.as_deref().map(|x| q(x, &own));
    d.implements = d.implements.iter().map(|x| q(x, &own)).collect();
    for f in &mut d.fields {
        f.type_text = q(&f.type_text, &own);
    }
    for m in &mut d.methods {
        let mut tv = names(&m.type_params_text);
        tv.extend(own.iter().cloned());
        m.type_params_text = m.type_params_text.as_deref().map(|x| q(x, &tv));
        m.return_type_text = q(&m.return_type_text, &tv);
        for p in &mut m.params {
            p.type_text = q(&p.type_text, &tv);
        }
        for x in &mut m.throws {
            *x = q(x, &tv);
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// A document's outline is generated under its file's `lombok.config`, as the tools' are:
    /// with `lombok.accessors.prefix += m_` the field `m_title`'s getter is `getTitle()` (under
    /// Lombok's defaults, which the actions' outlines used, `getM_title()`).
    #[test]
    fn a_document_s_outline_follows_its_lombok_config() {
        let src = "package p;\nimport lombok.Getter;\n@Getter\nclass Book {\n  private String m_title;\n}\n";
        let ctx = crate::tests::TestCtx::new(&[("p/Book.java", src)]);
        let doc = ctx.read(&ctx.root.join("p/Book.java")).expect("read");
        let getters = |ctx: &crate::tests::TestCtx| -> Vec<String> {
            ctx.outline(&doc).classes[0].methods.iter().map(|m| m.name.clone()).collect()
        };
        assert_eq!(getters(&ctx), ["getM_title"]);
        let config = ctx.root.join("lombok.config");
        let resolver = mji_parser::lombok::config::Resolver::new(
            vec![ctx.root.clone()],
            Box::new(move |p: &std::path::Path| (p == config).then(|| b"lombok.accessors.prefix += m_\n".to_vec())),
        );
        ctx.xref().set_lombok(Arc::new(resolver));
        assert_eq!(getters(&ctx), ["getTitle"]);
    }
}
