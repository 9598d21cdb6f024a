//! The "create class" quick fix's glue: the binder types the use's arguments for
//! [`mji_edit::create_class`], whose new file becomes the edit.

use mji_edit::create_class::NewClass;
use mji_edit::{Doc, FileEdit, WorkspaceEdit};
use mji_xref::ty::Ty;
use mji_xref::world::World;

use crate::ToolError;
use crate::edit::{EditResult, empty_result};

/// A type as code writes it, qualified (`None` for what code cannot name).
fn java_type(t: &Ty) -> Option<String> {
    Some(match t {
        Ty::Prim(p) => p.to_string(),
        Ty::Array(e) => format!("{}[]", java_type(e)?),
        Ty::Var(_, bound) => java_type(bound)?,
        Ty::Null => "java.lang.Object".to_owned(),
        Ty::Class(fqn, args) => {
            let fqn = fqn.replace('$', ".");
            if !fqn.split('.').all(mji_edit::is_identifier) {
                return None;
            }
            // Type arguments it cannot write are left out (the raw type).
            match args.iter().map(java_type).collect::<Option<Vec<_>>>() {
                Some(a) if !a.is_empty() => format!("{fqn}<{}>", a.join(", ")),
                _ => fqn,
            }
        }
    })
}

/// The class the use of `name` at byte `at` of `doc` needs, its arguments typed by the binder.
pub(crate) fn new_class(w: &World, doc: &Doc, at: usize, name: &str) -> Result<NewClass, String> {
    let fi = w.files.iter().position(|f| *f.path == *doc.path);
    let type_of = |s: usize, e: usize| {
        let t = mji_xref::resolve::expr_type(w, fi? as u32, &doc.bytes, s, e)?;
        java_type(&t)
    };
    mji_edit::create_class::create_class(doc, at, name, &type_of)
}

/// The quick fix: the new file as an edit.
pub(crate) fn create(w: &World, doc: &Doc, at: usize, name: &str) -> Result<(WorkspaceEdit, EditResult), ToolError> {
    let c =
        new_class(w, doc, at, name).map_err(|why| ToolError::InvalidArgument(format!("fix class refused: {why}")))?;
    let mut edit = WorkspaceEdit::default();
    edit.add(FileEdit::create(&c.path, &c.display, c.text));
    Ok((edit, empty_result(format!("create class {name} ({})", c.display), Vec::new(), Vec::new(), Vec::new())))
}
