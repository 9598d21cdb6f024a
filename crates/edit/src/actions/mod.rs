//! The refactorings `refactor_actions` runs, one file each holding its syntax half (what the
//! code shows), its binder half (what the world knows, through [`crate::ctx::Ctx`]) and its
//! tests; each answers an [`crate::ctx::Outcome`] or says why not. To add one: its file here,
//! its line below, its `RefactorAction` in the tool's arguments.

pub mod change_signature;
pub mod convert;
pub mod extract;
pub mod extract_method;
pub mod generate;
pub mod inline;
pub mod r#move;
pub mod organize_imports;
pub mod rename;
pub mod safe_delete;

/// Why an action did nothing.
#[derive(Debug, thiserror::Error)]
pub enum ActionError {
    /// The code does not allow it (or the arguments do not name something it applies to): the
    /// message says why, for the caller to act on.
    #[error("{0}")]
    Refused(String),
    /// What the call names is not there (yet): a type the world does not hold.
    #[error("{0}")]
    NotFound(String),
    /// A file could not be read or is not text.
    #[error(transparent)]
    Edit(#[from] crate::EditError),
}
