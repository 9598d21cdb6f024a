//! The check after an applied edit: javac (the problems engine's warm helper, its trust rules)
//! on the Java files the edit wrote and the files of their modules that mention what changed,
//! once before the write and once after, so the answer says plainly whether the code still
//! compiles and tells the errors the edit brought from those that were there before.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use mji_problems::{CheckFile, Compiled, Severity};
use serde::Serialize;

use crate::host::Host;

/// Files of the modules beyond the edited ones compiled at most (the rest are counted).
const MAX_DEPENDENTS: usize = 300;

/// New errors listed at most (the rest are counted).
const MAX_LISTED: usize = 10;

/// How long the check waits for a module's classpath (Maven resolving it in a trusted
/// workspace) before leaving its files out.
const CLASSPATH_WAIT: Duration = Duration::from_secs(5);

/// What javac said of the edited files and their dependents after the edit.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CompileCheck {
    /// Whether they compile after the edit; absent when javac did not run (`note` says why).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compiles: Option<bool>,
    /// Files compiled: those the edit wrote and those of their modules that mention what
    /// changed.
    pub files: u32,
    /// Errors the edit brought (`file:line:column: message`), the first few.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub new_errors: Vec<String>,
    /// How many errors the edit brought in all.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub new_error_count: u32,
    /// Errors there before the edit and still there.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub errors_before: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl CompileCheck {
    /// The answer's line (and the new errors, indented).
    pub(crate) fn render(&self) -> String {
        let files = format!("{} file{} checked", self.files, if self.files == 1 { "" } else { "s" });
        let note = self.note.as_ref().map(|n| format!("; {n}")).unwrap_or_default();
        let mut out = match self.compiles {
            None => format!("javac after the edit: not run{note}\n"),
            Some(true) => format!("javac after the edit: compiles ({files}{note})\n"),
            Some(false) if self.new_error_count == 0 => format!(
                "javac after the edit: no new error; {} error(s) there before the edit remain ({files}{note})\n",
                self.errors_before
            ),
            Some(false) => format!(
                "javac after the edit: DOES NOT COMPILE: {} new error(s){} ({files}{note}):\n",
                self.new_error_count,
                if self.errors_before > 0 { format!(", {} there before", self.errors_before) } else { String::new() }
            ),
        };
        for e in &self.new_errors {
            out.push_str(&format!("  {e}\n"));
        }
        if self.new_error_count as usize > self.new_errors.len() {
            out.push_str(&format!("  … {} more\n", self.new_error_count as usize - self.new_errors.len()));
        }
        out
    }
}

/// The files compiled before and after an edit.
pub(crate) struct Scope {
    before: Vec<CheckFile>,
    after: Vec<CheckFile>,
    /// How the files' names before the edit read after it (moved files).
    renamed: HashMap<String, String>,
    left_out: usize,
}

/// Every identifier of a text (letters, digits, `_`, `$`, non-ASCII; not starting with a digit).
fn words(text: &[u8]) -> Vec<&[u8]> {
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80;
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        if ident(text[i]) {
            let s = i;
            while i < text.len() && ident(text[i]) {
                i += 1;
            }
            if !text[s].is_ascii_digit() {
                out.push(&text[s..i]);
            }
        } else {
            i += 1;
        }
    }
    out
}

/// What an edit of `old` into `new` can break elsewhere: the names the new text has fewer of
/// than the old one (a renamed or removed member, one overload of several renamed, a moved
/// type). The names of the types the file declares are added by the caller, from the index.
fn changed_words(old: &[u8], new: &[u8], into: &mut HashSet<Vec<u8>>) {
    let mut count: HashMap<&[u8], i64> = HashMap::new();
    for w in words(old) {
        *count.entry(w).or_default() += 1;
    }
    for w in words(new) {
        *count.entry(w).or_default() -= 1;
    }
    into.extend(count.into_iter().filter(|(_, n)| *n > 0).map(|(w, _)| w.to_vec()));
}

fn is_java(p: &Path) -> bool {
    p.extension().is_some_and(|x| x == "java")
}

impl Scope {
    /// The files to compile for `plan`: its Java files (at their old paths before, their new
    /// ones after) and, in the same modules, the files that mention a name the edit removed or
    /// a type an edited file declares. None when the edit wrote no Java file.
    pub(crate) fn of(ws: &Host, plan: &mji_edit::Plan) -> Option<Scope> {
        let roots: Vec<PathBuf> = ws.roots().paths().to_vec();
        let mut project_by_dir: HashMap<PathBuf, PathBuf> = HashMap::new();
        let mut project = |f: &Path| -> PathBuf {
            let dir = f.parent().unwrap_or(f).to_path_buf();
            project_by_dir.entry(dir).or_insert_with(|| mji_problems::classpath::project_of(f, &roots).0).clone()
        };
        let (mut before, mut after) = (Vec::new(), Vec::new());
        let mut renamed = HashMap::new();
        let mut touched: HashSet<PathBuf> = HashSet::new();
        let mut projects: HashSet<PathBuf> = HashSet::new();
        let mut changed: HashSet<Vec<u8>> = HashSet::new();
        for f in &plan.files {
            let (to, to_display) = f.move_to.as_ref().map_or((&f.path, &f.display), |(p, d)| (p, d));
            if !is_java(&f.path) && !is_java(to) {
                continue;
            }
            touched.insert(f.path.clone());
            touched.insert(to.clone());
            projects.insert(project(&f.path));
            changed_words(&f.old, &f.new, &mut changed);
            if !f.old.is_empty() && is_java(&f.path) {
                before.push(CheckFile { path: f.path.clone(), display: f.display.clone() });
            }
            if !f.new.is_empty() && is_java(to) {
                after.push(CheckFile { path: to.clone(), display: to_display.clone() });
            }
            if to_display != &f.display {
                renamed.insert(f.display.clone(), to_display.clone());
            }
        }
        if touched.is_empty() {
            return None;
        }
        let (w, _) = ws.xref_world();
        // Their users see a changed signature, a new abstract method: the types the edited
        // files declare (as indexed, before the edit).
        for file in w.files.iter().filter(|f| touched.contains(&*f.path)) {
            changed.extend(file.decls().types.iter().map(|t| t.simple.as_bytes().to_vec()));
        }
        let mut dependents = Vec::new();
        let mut left_out = 0;
        for file in &w.files {
            let path: &Path = &file.path;
            if touched.contains(path) || !is_java(path) || ws.roots().refusal(path).is_some() {
                continue;
            }
            if !projects.contains(&project(path)) {
                continue;
            }
            let Ok(text) = mji_fs::read_regular(path, ws.roots().max_file_bytes()) else { continue };
            if !words(&text).iter().any(|w| changed.contains(*w)) {
                continue;
            }
            if dependents.len() >= MAX_DEPENDENTS {
                left_out += 1;
                continue;
            }
            dependents.push(CheckFile { path: path.to_path_buf(), display: ws.display_of(path) });
        }
        before.extend(dependents.iter().cloned());
        after.extend(dependents);
        Some(Scope { before, after, renamed, left_out })
    }

    /// javac on the files before the edit is written.
    pub(crate) fn compile_before(&self, ws: &Host) -> Result<Compiled, String> {
        ws.problems_engine().compile_now(&self.before, CLASSPATH_WAIT)
    }

    /// javac on the files after the edit, compared with `before`.
    pub(crate) fn check_after(&self, ws: &Host, before: Result<Compiled, String>) -> CompileCheck {
        let before = match before {
            Ok(b) => b,
            Err(why) => return CompileCheck { note: Some(format!("javac unavailable: {why}")), ..Default::default() },
        };
        let after = match ws.problems_engine().compile_now(&self.after, CLASSPATH_WAIT) {
            Ok(a) => a,
            Err(why) => return CompileCheck { note: Some(format!("javac failed: {why}")), ..Default::default() },
        };
        let (new, old, unknown) = new_errors(&before, &after, &self.renamed);
        let mut notes = Vec::new();
        if unknown > 0 {
            notes.push(format!("{unknown} error(s) of missing libraries or generated sources not counted"));
        }
        if self.left_out > 0 {
            notes.push(format!(
                "{} more file(s) of the module mention what changed and were not checked",
                self.left_out
            ));
        }
        if after.unresolved > 0 {
            notes.push(format!("{} file(s) not checked: their classpath is still being resolved", after.unresolved));
        }
        CompileCheck {
            compiles: Some(new.is_empty() && old == 0),
            files: after.files as u32,
            new_error_count: new.len() as u32,
            new_errors: new.into_iter().take(MAX_LISTED).collect(),
            errors_before: old as u32,
            note: (!notes.is_empty()).then(|| notes.join("; ")),
        }
    }
}

/// The errors of `after` that `before` did not have (as `file:line:column: message`, the
/// message's first line), how many it had already, and how many errors of missing libraries
/// or generated sources were left out of both counts. An error is the same before and after
/// when its file (as named after the edit), its code and its message are.
fn new_errors(before: &Compiled, after: &Compiled, renamed: &HashMap<String, String>) -> (Vec<String>, usize, usize) {
    let real = |p: &&mji_problems::Problem| {
        p.severity == Severity::Error && !p.is_missing_dependency() && !p.is_generated_source()
    };
    let unknown = after
        .problems
        .iter()
        .filter(|p| p.severity == Severity::Error && (p.is_missing_dependency() || p.is_generated_source()))
        .count();
    let mut was: HashMap<(String, &str, &str), usize> = HashMap::new();
    for p in before.problems.iter().filter(real) {
        let file = renamed.get(&p.file).cloned().unwrap_or_else(|| p.file.clone());
        *was.entry((file, p.code.as_str(), p.message.as_str())).or_default() += 1;
    }
    let (mut new, mut old) = (Vec::new(), 0);
    for p in after.problems.iter().filter(real) {
        match was.get_mut(&(p.file.clone(), p.code.as_str(), p.message.as_str())) {
            Some(n) if *n > 0 => {
                *n -= 1;
                old += 1;
            }
            _ => new.push(format!(
                "{}:{}:{}: {}",
                p.file,
                p.line,
                p.column,
                mji_fs::clip(p.message.lines().next().unwrap_or(""))
            )),
        }
    }
    (new, old, unknown)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_changed_words_are_the_names_the_edit_has_fewer_of() {
        let mut w = HashSet::new();
        changed_words(
            b"class A { void size() { x.size(); } int n; }",
            b"class A { void length() { x.length(); } int n; }",
            &mut w,
        );
        // One overload of two renamed: `size` is still there, once less.
        changed_words(
            b"class B { void size(int a) {} void size() {} }",
            b"class B { void size(int a) {} void count() {} }",
            &mut w,
        );
        let mut got: Vec<String> = w.into_iter().map(|v| String::from_utf8(v).unwrap_or_default()).collect();
        got.sort();
        assert_eq!(got, ["size"]);
    }
}
