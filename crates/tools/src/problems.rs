//! `get_problems`: the wire arguments and result (snake_case, as the issue and the Emacs
//! `get-diagnostics-filtered` proposal name them) around [`mji_problems`].

use serde::{Deserialize, Serialize};

use mji_problems::{FileReport, FileState, JavacStatus, Problem, ProblemSource, Severity};

/// Lines to keep, inclusive; `end` 0 means to the end of the file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LineRange {
    /// First line, 1-based.
    #[serde(default)]
    pub start: u32,
    /// Last line, inclusive (0: to the end).
    #[serde(default)]
    pub end: u32,
}

fn default_limit() -> u32 {
    100
}

/// Arguments of `get_problems`.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProblemsArgs {
    /// Files or directories; none: the whole workspace.
    #[serde(default)]
    pub paths: Vec<String>,
    #[serde(default)]
    pub severity_filter: Vec<Severity>,
    #[serde(default)]
    pub line_range: LineRange,
    #[serde(default)]
    pub source_filter: Vec<ProblemSource>,
    #[serde(default = "default_limit")]
    pub limit: u32,
    #[serde(default)]
    pub offset: u32,
    /// Also show the first problem in the user's editor.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub open: bool,
}

impl Default for ProblemsArgs {
    fn default() -> Self {
        ProblemsArgs {
            paths: Vec::new(),
            severity_filter: Vec::new(),
            line_range: LineRange::default(),
            source_filter: Vec::new(),
            limit: default_limit(),
            offset: 0,
            open: false,
        }
    }
}

/// How many files ended in each state.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct FileCounts {
    pub analysed: u32,
    pub syntax_only: u32,
    pub skipped: u32,
    pub timed_out: u32,
}

/// The answer of `get_problems`.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ProblemsResult {
    /// One page of problems: errors first, then warnings, information, hints; within a
    /// severity by file, line and column.
    pub diagnostics: Vec<Problem>,
    /// Problems found in the checked files before filtering.
    pub total_count: u32,
    /// Problems left after the severity, line and source filters (before paging).
    pub filtered_count: u32,
    /// More filtered problems after this page (pass `nextOffset` as the next offset).
    pub has_more: bool,
    /// Where the next page starts, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_offset: Option<u32>,
    /// False when some file's javac check outlasted the time budget: it continues in the
    /// background; call again for the rest.
    pub complete: bool,
    /// How many files were checked, by state.
    pub file_counts: FileCounts,
    /// Every checked file and its state when 200 files or fewer were checked; otherwise only
    /// the files that were not fully analysed. A file with status `analysed` and no
    /// diagnostics is clean.
    pub files: Vec<FileReport>,
    /// Whether javac ran, its version, and how sure the classpath is.
    pub javac: JavacStatus,
    /// Wall-clock time of this call in milliseconds.
    pub elapsed_ms: u64,
    /// `open: true`: what the editor did with the first problem.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opened: Option<crate::editor::Opened>,
}

/// Files listed one by one up to this many.
pub(crate) const MAX_LISTED_FILES: usize = 200;

/// Counts file states and keeps the listing bounded.
pub(crate) fn summarize(files: Vec<FileReport>) -> (FileCounts, Vec<FileReport>) {
    let mut c = FileCounts::default();
    for f in &files {
        match f.status {
            FileState::Analysed => c.analysed += 1,
            FileState::SyntaxOnly => c.syntax_only += 1,
            FileState::Skipped => c.skipped += 1,
            FileState::TimedOut => c.timed_out += 1,
        }
    }
    let listed = if files.len() <= MAX_LISTED_FILES {
        files
    } else {
        files.into_iter().filter(|f| f.status != FileState::Analysed).take(MAX_LISTED_FILES).collect()
    };
    (c, listed)
}
