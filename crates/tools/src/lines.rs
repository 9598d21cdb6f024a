//! The text the search and navigation tools answer a model with: lines, like `java_index`'s
//! table of contents, not their JSON. One result a line (`com.acme.Foo  src/…/Foo.java:12-80
//! public abstract class Foo — first sentence`), references grouped by file (the path, then
//! `line:col kind  code`), a header line with the totals and the next page's offset, and the
//! index status only when an answer carries it. The structured answers keep every field.

use std::fmt::Write;

use crate::find::IndexStatus;
use mji_xref::world::Origin;

/// `N things` with the plural when N is not 1.
pub(crate) fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `path:12-80`, `path:12`, or the path alone when there are no lines (a library's class).
pub(crate) fn at(path: &str, start: u32, end: u32) -> String {
    match (start, end) {
        (0, _) => path.to_owned(),
        (s, e) if s == e || e == 0 => format!("{path}:{s}"),
        (s, e) => format!("{path}:{s}-{e}"),
    }
}

/// The header's paging: `; N shown, next offset M` on a page that is not the last.
pub(crate) fn paging(shown: usize, next: Option<u64>) -> String {
    match next {
        Some(n) => format!("; {shown} shown, next page: offset={n}"),
        None => String::new(),
    }
}

pub(crate) fn origin_word(o: Origin) -> &'static str {
    match o {
        Origin::Workspace => "workspace",
        Origin::Jdk => "jdk",
        Origin::Library => "library",
        Origin::Unresolved => "unresolved",
    }
}

/// The index status line, when the answer carries one (see [`IndexStatus::shown`]).
pub(crate) fn index_line(out: &mut String, index: Option<&IndexStatus>) {
    let Some(s) = index else { return };
    let _ = write!(
        out,
        "index: {} ({} of {} files indexed",
        if s.complete { "complete" } else { "incomplete, results may be missing" },
        s.indexed_files,
        s.total_files
    );
    if let Some(b) = s.bound_files {
        let _ = write!(out, ", {b} bound");
    }
    let d = &s.skipped_dirs;
    let dirs = d.maven + d.gradle + d.ide + d.markers;
    if dirs > 0 {
        let _ = write!(out, ", {} skipped", count(dirs, "build-output directory", "build-output directories"));
    }
    out.push(')');
    if s.skipped_files > 0 {
        let _ = write!(out, "; {} not indexed", count(s.skipped_files, "file", "files"));
        if !s.skipped.is_empty() {
            let _ = write!(out, ": {}", s.skipped.join("; "));
        }
    }
    if !s.library_notes.is_empty() {
        let _ = write!(out, "; libraries: {}", s.library_notes.join("; "));
    }
    out.push('\n');
}
