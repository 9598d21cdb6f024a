//! Workspace edits an agent can trust: every action (rename, organize imports, generated
//! members) computes a [`WorkspaceEdit`] — text edits per file against the bytes they were
//! computed from — which is previewed as a unified diff and applied only when asked, all files
//! or none, and never over a file that changed since the preview.
//!
//! Positions come from the layers below as (line, UTF-16 column) and are turned into byte
//! offsets of the file's own bytes here, so an edit never re-encodes a file: files that are not
//! UTF-8 are refused rather than rewritten.

pub mod actions;
pub mod ctx;
pub mod delete;
pub mod fixes;
pub mod generate;
pub mod imports;
pub mod inherit;
pub mod locals;
pub mod syntax;
#[cfg(test)]
mod tests;

pub use syntax::is_identifier;

use std::collections::BTreeMap;

use std::path::{Path, PathBuf};

use mji_parser::SourceText;

/// Why an edit could not be planned or applied. Every message names the file.
#[derive(Debug, thiserror::Error)]
pub enum EditError {
    #[error("{0}: cannot read it: {1}")]
    Read(String, std::io::Error),
    #[error("{0}: not UTF-8 text; edits are refused rather than re-encoding the file")]
    NotUtf8(String),
    #[error("{0}: two edits overlap at byte {1}; nothing was changed")]
    Overlap(String, usize),
    #[error(
        "stale preview: {0} changed on disk since the preview; nothing was written. Preview again (call without `apply`) and apply the new `editId`"
    )]
    Stale(String),
    #[error("{0}: outside the workspace roots; edits never touch files outside them")]
    Outside(String),
    #[error("{0}: already exists; a move never overwrites a file")]
    Exists(String),
    #[error("{0}: could not be written ({1}); every file was restored to its content before the edit")]
    Write(String, std::io::Error),
}

/// One replacement: bytes `start..end` of the file as read become `text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextEdit {
    pub start: usize,
    pub end: usize,
    pub text: String,
}

/// The edits of one file, against the bytes they were computed from; `move_to` moves the file
/// (a renamed public type's file).
#[derive(Debug, Clone)]
pub struct FileEdit {
    pub path: PathBuf,
    /// How answers name the file (relative to its root).
    pub display: String,
    pub original: Vec<u8>,
    pub edits: Vec<TextEdit>,
    pub move_to: Option<(PathBuf, String)>,
}

impl FileEdit {
    /// A new file of `text` (applied only where no file is; its diff adds every line).
    pub fn create(path: &Path, display: &str, text: String) -> FileEdit {
        FileEdit {
            path: path.to_owned(),
            display: display.to_owned(),
            original: Vec::new(),
            edits: vec![TextEdit { start: 0, end: 0, text }],
            move_to: None,
        }
    }
}

/// A file's text with its line index, for turning positions into byte offsets.
pub struct Doc {
    pub path: PathBuf,
    pub display: String,
    pub bytes: Vec<u8>,
    pub src: SourceText,
}

impl Doc {
    /// Reads a file for editing: UTF-8 only (a byte-order mark is kept).
    pub fn read(path: &Path, display: &str) -> Result<Doc, EditError> {
        let bytes = mji_fs::read_regular(path, mji_fs::DEFAULT_MAX_FILE_BYTES)
            .map_err(|e| EditError::Read(display.to_owned(), e))?;
        Doc::new(path, display, bytes)
    }

    pub fn new(path: &Path, display: &str, bytes: Vec<u8>) -> Result<Doc, EditError> {
        if std::str::from_utf8(&bytes).is_err() {
            return Err(EditError::NotUtf8(display.to_owned()));
        }
        // The decoded text has the same byte offsets as the file (a BOM becomes three spaces).
        let src = SourceText::decode(&bytes);
        Ok(Doc { path: path.to_owned(), display: display.to_owned(), bytes, src })
    }

    pub fn text(&self) -> &str {
        &self.src.text
    }

    /// The byte offset of a 1-based line and 1-based UTF-16 column.
    pub fn offset(&self, line: u32, column: u32) -> Option<usize> {
        if line == 0 || line > self.src.lines.line_count() {
            return None;
        }
        let start = self.src.lines.line_start(line);
        let text = self.src.lines.line_text(&self.src.text, line);
        let mut units = 1u32;
        for (i, ch) in text.char_indices() {
            if units >= column {
                return Some(start + i);
            }
            units += ch.len_utf16() as u32;
        }
        (units == column).then_some(start + text.len())
    }

    /// The 1-based line of a byte offset.
    pub fn line_of(&self, offset: usize) -> u32 {
        self.src.lines.line_of(offset)
    }

    /// The line ending the file uses (its first one; `\n` when it has none).
    pub fn eol(&self) -> &'static str {
        match self.src.text.find('\n') {
            Some(i) if i > 0 && self.src.text.as_bytes()[i - 1] == b'\r' => "\r\n",
            _ => "\n",
        }
    }

    /// An empty edit of this file, to add text edits to.
    pub fn edit(&self) -> FileEdit {
        FileEdit {
            path: self.path.clone(),
            display: self.display.clone(),
            original: self.bytes.clone(),
            edits: Vec::new(),
            move_to: None,
        }
    }
}

/// The edits of several files, previewed and applied as one.
#[derive(Debug, Clone, Default)]
pub struct WorkspaceEdit {
    files: BTreeMap<PathBuf, FileEdit>,
    /// Files added twice from different contents (two previews of different moments).
    diverged: Vec<String>,
}

impl WorkspaceEdit {
    /// Adds a file's edits (merged with edits already there for the same file).
    pub fn add(&mut self, file: FileEdit) {
        match self.files.get_mut(&file.path) {
            Some(f) if f.original != file.original => self.diverged.push(file.display),
            Some(f) => {
                f.edits.extend(file.edits);
                if file.move_to.is_some() {
                    f.move_to = file.move_to;
                }
            }
            None => {
                self.files.insert(file.path.clone(), file);
            }
        }
    }

    /// Adds every file edit of `other` (two previews become one edit; overlapping edits of
    /// one file are refused when planned).
    pub fn merge(&mut self, other: WorkspaceEdit) {
        for (_, f) in other.files {
            self.add(f);
        }
    }

    /// Each file's edits, by path.
    pub fn files(&self) -> impl Iterator<Item = &FileEdit> {
        self.files.values()
    }

    /// Whether the edit holds the file at `path` already.
    pub fn contains(&self, path: &Path) -> bool {
        self.files.contains_key(path)
    }

    pub fn is_empty(&self) -> bool {
        self.files.values().all(|f| f.edits.is_empty() && f.move_to.is_none())
    }

    /// The new content of every file, and the edit's id.
    pub fn plan(self) -> Result<Plan, EditError> {
        if let Some(d) = self.diverged.first() {
            return Err(EditError::Stale(d.clone()));
        }
        let mut files = Vec::new();
        for (_, mut f) in self.files {
            if f.edits.is_empty() && f.move_to.is_none() {
                continue;
            }
            f.edits.sort_by_key(|e| (e.start, e.end));
            f.edits.dedup();
            let mut new = Vec::with_capacity(f.original.len());
            let mut at = 0;
            for e in &f.edits {
                if e.start < at || e.end > f.original.len() || e.start > e.end {
                    return Err(EditError::Overlap(f.display.clone(), e.start));
                }
                new.extend_from_slice(&f.original[at..e.start]);
                new.extend_from_slice(e.text.as_bytes());
                at = e.end;
            }
            new.extend_from_slice(&f.original[at..]);
            files.push(Planned {
                path: f.path,
                display: f.display,
                move_to: f.move_to,
                edits: f.edits.len(),
                old: f.original,
                new,
            });
        }
        let mut id = String::new();
        for f in &files {
            id.push_str(&f.path.to_string_lossy());
            id.push('\0');
            id.push_str(&mji_parser::content_hash(&f.old));
            id.push_str(&mji_parser::content_hash(&f.new));
            if let Some((p, _)) = &f.move_to {
                id.push_str(&p.to_string_lossy());
            }
            id.push('\n');
        }
        let edit_id = mji_parser::content_hash(id.as_bytes())[..16].to_owned();
        Ok(Plan { files, edit_id })
    }
}

/// One file of a planned edit: its bytes before and after.
#[derive(Debug, Clone)]
pub struct Planned {
    pub path: PathBuf,
    pub display: String,
    pub move_to: Option<(PathBuf, String)>,
    pub edits: usize,
    pub old: Vec<u8>,
    pub new: Vec<u8>,
}

impl Planned {
    /// The unified diff of the file (3 lines of context), `a/` and `b/` headers as git writes.
    pub fn diff(&self) -> String {
        let old = String::from_utf8_lossy(&self.old);
        let new = String::from_utf8_lossy(&self.new);
        let to = self.move_to.as_ref().map_or(self.display.as_str(), |(_, d)| d.as_str());
        similar::TextDiff::from_lines(old.as_ref(), new.as_ref())
            .unified_diff()
            .context_radius(3)
            .header(&format!("a/{}", self.display), &format!("b/{to}"))
            .to_string()
    }
}

/// A planned workspace edit: what every file becomes, and the id that names exactly this edit
/// against exactly these file contents.
#[derive(Debug, Clone)]
pub struct Plan {
    pub files: Vec<Planned>,
    pub edit_id: String,
}

impl Plan {
    /// Writes every file, or none: each is first checked unchanged since it was read (and inside
    /// `roots`), then written to a temporary file beside it and renamed over it; if any write
    /// fails, the files already written are restored. Returns the paths changed (old and new
    /// paths of moved files).
    pub fn apply(&self, roots: &[PathBuf]) -> Result<Vec<PathBuf>, EditError> {
        for f in &self.files {
            inside(roots, &f.path, &f.display)?;
            let now = match std::fs::read(&f.path) {
                Ok(b) => b,
                // A file the edit creates.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound && f.old.is_empty() && f.move_to.is_none() => {
                    Vec::new()
                }
                // Moved or deleted since the preview.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(EditError::Stale(f.display.clone())),
                Err(e) => return Err(EditError::Read(f.display.clone(), e)),
            };
            if now != f.old {
                return Err(EditError::Stale(f.display.clone()));
            }
            if let Some((to, disp)) = &f.move_to {
                inside(roots, to, disp)?;
                if to.exists() {
                    return Err(EditError::Exists(disp.clone()));
                }
            }
        }
        let mut done: Vec<(&Planned, bool)> = Vec::new();
        for f in &self.files {
            let created = f.old.is_empty() && f.move_to.is_none() && !f.path.exists();
            // A new file takes the permissions of another file of the edit (not the temporary
            // file's private ones).
            let perms = || self.files.iter().find_map(|o| std::fs::metadata(&o.path).ok()).map(|m| mode_of(&m));
            let written =
                if created { write_atomic(roots, &f.path, &f.new, perms(), true) } else { write_one(roots, f) };
            if let Err(e) = written {
                for (d, created) in done.iter().rev() {
                    if *created {
                        let _ = std::fs::remove_file(&d.path);
                    } else {
                        undo_one(roots, d);
                    }
                }
                return Err(EditError::Write(f.display.clone(), e));
            }
            done.push((f, created));
        }
        let mut changed = Vec::new();
        for f in &self.files {
            changed.push(f.path.clone());
            if let Some((to, _)) = &f.move_to {
                changed.push(to.clone());
            }
        }
        Ok(changed)
    }
}

/// Refuses a path whose directory is not under a root (after resolving links; a package
/// directory a move creates by its nearest existing ancestor): the path policy's
/// [`mji_fs::roots::writable_under`].
fn inside(roots: &[PathBuf], path: &Path, display: &str) -> Result<(), EditError> {
    match mji_fs::roots::writable_under(roots, path) {
        true => Ok(()),
        false => Err(EditError::Outside(display.to_owned())),
    }
}

/// A file's permission bits.
fn mode_of(m: &std::fs::Metadata) -> u32 {
    #[cfg(unix)]
    {
        std::os::unix::fs::PermissionsExt::mode(&m.permissions()) & 0o7777
    }
    #[cfg(not(unix))]
    {
        let _ = m;
        0o644
    }
}

/// Writes `bytes` to `path` as every file is written ([`mji_fs::write`]): where `path` leads
/// is resolved (a link inside the roots may lead to the file), and from the root that holds
/// that place down nothing is followed, the temporary file is new and random, an existing file
/// keeps its mode (`mode` is a new file's); `no_clobber` refuses an existing file.
fn write_atomic(
    roots: &[PathBuf],
    path: &Path,
    bytes: &[u8],
    mode: Option<u32>,
    no_clobber: bool,
) -> std::io::Result<()> {
    let real = mji_fs::confine::resolve(path)?;
    let opts = mji_fs::write::Options { mode: mode.unwrap_or(0o644), create_dirs: true, no_clobber };
    mji_fs::write::write_within(&real, roots, bytes, opts)
}

fn write_one(roots: &[PathBuf], f: &Planned) -> std::io::Result<()> {
    let perms = std::fs::metadata(&f.path).ok().map(|m| mode_of(&m));
    match &f.move_to {
        None => write_atomic(roots, &f.path, &f.new, perms, false),
        Some((to, _)) => {
            write_atomic(roots, to, &f.new, perms, true)?;
            if let Err(e) = std::fs::remove_file(&f.path) {
                let _ = std::fs::remove_file(to);
                return Err(e);
            }
            Ok(())
        }
    }
}

/// Puts a written file back as it was (best effort: the original bytes are in memory).
fn undo_one(roots: &[PathBuf], f: &Planned) {
    let perms = f.move_to.as_ref().and_then(|(to, _)| std::fs::metadata(to).ok()).map(|m| mode_of(&m));
    let _ = write_atomic(roots, &f.path, &f.old, perms, false);
    if let Some((to, _)) = &f.move_to {
        let _ = std::fs::remove_file(to);
    }
}

#[cfg(test)]
mod kernel_tests {
    use super::*;

    fn doc(text: &str) -> Doc {
        Doc::new(Path::new("/x/A.java"), "A.java", text.as_bytes().to_vec()).expect("utf-8")
    }

    #[test]
    fn offsets_count_utf16_units() {
        let d = doc("a\n\u{1F600}x y\n");
        assert_eq!(d.offset(1, 1), Some(0));
        // The emoji is two UTF-16 units: `x` is column 3.
        assert_eq!(d.offset(2, 3), Some(2 + 4));
        assert_eq!(d.offset(2, 5), Some(2 + 6));
        assert_eq!(d.offset(3, 1), None);
    }

    #[test]
    fn overlapping_edits_are_refused_and_ids_name_contents() {
        let d = doc("class A {}\n");
        let mut e = WorkspaceEdit::default();
        let mut f = d.edit();
        f.edits.push(TextEdit { start: 6, end: 7, text: "B".into() });
        f.edits.push(TextEdit { start: 6, end: 8, text: "C".into() });
        e.add(f);
        assert!(matches!(e.plan(), Err(EditError::Overlap(..))));
        let plan = |text: &str| {
            let mut e = WorkspaceEdit::default();
            let mut f = doc(text).edit();
            f.edits.push(TextEdit { start: 6, end: 7, text: "B".into() });
            e.add(f);
            e.plan().expect("plan")
        };
        let p = plan("class A {}\n");
        assert_eq!(p.files[0].new, b"class B {}\n");
        assert_ne!(p.edit_id, plan("class A { }\n").edit_id);
        assert!(p.files[0].diff().contains("-class A {}\n+class B {}\n"), "{}", p.files[0].diff());
    }

    #[test]
    fn apply_writes_all_or_refuses_a_stale_file() {
        let dir = tempfile::tempdir().expect("tmp");
        let root = std::fs::canonicalize(dir.path()).expect("canon");
        let a = root.join("A.java");
        let b = root.join("B.java");
        std::fs::write(&a, "class A {}\n").expect("w");
        std::fs::write(&b, "class B {}\n").expect("w");
        let plan = || {
            let mut e = WorkspaceEdit::default();
            for p in [&a, &b] {
                let d = Doc::read(p, &p.display().to_string()).expect("read");
                let mut f = d.edit();
                f.edits.push(TextEdit { start: 0, end: 5, text: "final class".into() });
                e.add(f);
            }
            e.plan().expect("plan")
        };
        let p = plan();
        // B changes after the preview: nothing is written.
        std::fs::write(&b, "class B { }\n").expect("w");
        assert!(matches!(p.apply(std::slice::from_ref(&root)), Err(EditError::Stale(_))));
        assert_eq!(std::fs::read_to_string(&a).expect("r"), "class A {}\n");
        let p = plan();
        assert!(matches!(p.apply(&[PathBuf::from("/elsewhere")]), Err(EditError::Outside(_))));
        p.apply(std::slice::from_ref(&root)).expect("apply");
        assert_eq!(std::fs::read_to_string(&a).expect("r"), "final class A {}\n");
        assert_eq!(std::fs::read_to_string(&b).expect("r"), "final class B { }\n");
        // Applying the same plan again is stale: the files are no longer what it was computed from.
        assert!(matches!(p.apply(std::slice::from_ref(&root)), Err(EditError::Stale(_))));
    }

    #[test]
    fn a_created_file_is_written_once_and_never_over_a_file() {
        let dir = tempfile::tempdir().expect("tmp");
        let root = std::fs::canonicalize(dir.path()).expect("canon");
        let new = root.join("p/N.java");
        let plan = || {
            let mut e = WorkspaceEdit::default();
            e.add(FileEdit::create(&new, "p/N.java", "class N {}\n".into()));
            e.plan().expect("plan")
        };
        let p = plan();
        assert!(p.files[0].diff().contains("+class N {}"), "{}", p.files[0].diff());
        p.apply(std::slice::from_ref(&root)).expect("apply");
        assert_eq!(std::fs::read_to_string(&new).expect("r"), "class N {}\n");
        // Once there, the same creation is stale: nothing is overwritten.
        assert!(matches!(plan().apply(std::slice::from_ref(&root)), Err(EditError::Stale(_))));
    }
}
