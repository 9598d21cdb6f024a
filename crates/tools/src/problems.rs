//! `get_problems`: the wire arguments and result around [`mji_problems`], in the words every
//! tool uses (`filePath`, `offset`/`limit` → `truncated`/`nextOffset`, camelCase); the Emacs
//! `get-diagnostics-filtered` proposal's snake_case names are still taken (the tool's aliases).

use serde::{Deserialize, Serialize};

use mji_problems::{FileReport, FileState, JavacStatus, MissingDependencies, Problem, ProblemSource, Severity};

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

/// One path or a list of them, as `filePath` takes them (the schema shows the list: a string
/// alone is taken too, and costs no tokens in `tools/list`).
#[derive(Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    Ok(match OneOrMany::deserialize(d)? {
        OneOrMany::One(s) => vec![s],
        OneOrMany::Many(v) => v,
    })
}

/// Arguments of `get_problems`.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProblemsArgs {
    /// Files or directories; none: the whole workspace.
    #[serde(rename = "filePath", default, deserialize_with = "one_or_many")]
    #[schemars(with = "Vec<String>")]
    pub paths: Vec<String>,
    #[serde(default)]
    pub severity_filter: Vec<Severity>,
    #[serde(default)]
    pub line_range: LineRange,
    #[serde(default)]
    pub source_filter: Vec<ProblemSource>,
    // (The category of an incomplete classpath's errors: the values say it; no doc, which
    // every client would pay for in tools/list.)
    #[serde(default)]
    pub missing_dependencies: MissingDependencies,
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
            missing_dependencies: MissingDependencies::Include,
            limit: default_limit(),
            offset: 0,
            open: false,
        }
    }
}

/// How many files ended in each state.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FileCounts {
    pub analysed: u32,
    pub syntax_only: u32,
    pub skipped: u32,
    pub timed_out: u32,
}

/// The answer of `get_problems`.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProblemsResult {
    /// One page of problems: errors first, then warnings, information, hints; within a
    /// severity by file, line and column.
    pub diagnostics: Vec<Problem>,
    /// Problems found in the checked files before filtering.
    #[serde(rename = "total")]
    pub total_count: u32,
    /// Problems left after the severity, line and source filters (before paging).
    pub filtered_count: u32,
    /// More filtered problems after this page (pass `nextOffset` as the next offset).
    #[serde(rename = "truncated")]
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
    /// diagnostics is clean. Of files sharing one status and reason, the first few are listed
    /// and the rest counted in `unlisted_files`.
    pub files: Vec<FileReport>,
    /// Files not in `files` because more files share their status and reason, by status and
    /// reason.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unlisted_files: Vec<UnlistedFiles>,
    /// Problems reported only because the classpath is incomplete (`cause:
    /// "missing-dependency"`): how many, why, and what to do. Absent when there are none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missing_dependencies: Option<MissingSummary>,
    /// Whether javac ran, its version, and how sure the classpath is.
    pub javac: JavacStatus,
    /// Wall-clock time of this call in milliseconds.
    pub elapsed_ms: u64,
    /// `open: true`: what the editor did with the first problem.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opened: Option<crate::editor::Opened>,
}

/// The `missing-dependency` category of an answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct MissingSummary {
    /// Problems of the category the other filters keep (shown or not).
    pub count: u32,
    /// Why, in one line.
    pub reason: String,
    /// What makes them go, and how to see the files' own problems meanwhile.
    pub remedy: String,
}

impl MissingSummary {
    /// The summary of `count` such problems, given whether the build may run (trust).
    pub(crate) fn new(count: usize, trusted: bool) -> Option<MissingSummary> {
        if count == 0 {
            return None;
        }
        let reason =
            "javac cannot see some libraries: the classpath is incomplete (javac.classpathNotes says what is missing)"
                .to_owned();
        let fix = if trusted {
            "make the build resolve (mvn/gradle offline needs the dependencies in the local repository), then call maven_update_project"
        } else {
            "trust the workspace so its build resolves the classpath (--trust, MCP_JAVA_INDEX_TRUST=1, or trusted_roots in the user config), then call maven_update_project"
        };
        Some(MissingSummary {
            count: count as u32,
            reason,
            remedy: format!("{fix}; meanwhile missingDependencies: \"exclude\" shows the files' own problems"),
        })
    }
}

/// Files listed one by one up to this many.
pub(crate) const MAX_LISTED_FILES: usize = 200;

/// Files listed of those sharing one status and reason; the rest are counted.
pub(crate) const LISTED_PER_REASON: usize = 3;

/// Files left out of the listing because many share their status and reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UnlistedFiles {
    pub status: FileState,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// How many more files than those listed have this status and reason.
    pub count: u32,
}

/// Counts file states and keeps the listing bounded: files sharing one status and reason are
/// listed a few at a time and the rest counted (200 files timed out for one reason once made
/// an answer of 36 KB around two diagnostics).
pub(crate) fn summarize(files: Vec<FileReport>) -> (FileCounts, Vec<FileReport>, Vec<UnlistedFiles>) {
    let mut c = FileCounts::default();
    for f in &files {
        match f.status {
            FileState::Analysed => c.analysed += 1,
            FileState::SyntaxOnly => c.syntax_only += 1,
            FileState::Skipped => c.skipped += 1,
            FileState::TimedOut => c.timed_out += 1,
        }
    }
    let many = files.len() > MAX_LISTED_FILES;
    let mut listed = Vec::new();
    let mut unlisted: Vec<UnlistedFiles> = Vec::new();
    let mut seen: std::collections::HashMap<(FileState, Option<String>), usize> = std::collections::HashMap::new();
    for f in files {
        if many && f.status == FileState::Analysed {
            continue;
        }
        let n = seen.entry((f.status, f.reason.clone())).or_default();
        *n += 1;
        if *n <= LISTED_PER_REASON && listed.len() < MAX_LISTED_FILES {
            listed.push(f);
        } else {
            match unlisted.iter_mut().find(|u| u.status == f.status && u.reason == f.reason) {
                Some(u) => u.count += 1,
                None => unlisted.push(UnlistedFiles { status: f.status, reason: f.reason, count: 1 }),
            }
        }
    }
    (c, listed, unlisted)
}

#[cfg(test)]
mod summary_tests {
    use super::*;

    fn report(file: &str, status: FileState, reason: Option<&str>) -> FileReport {
        FileReport { file: file.to_owned(), status, reason: reason.map(str::to_owned) }
    }

    /// Files sharing a status and a reason are listed a few at a time and the rest counted,
    /// every file still counted by state; with more than 200 files, analysed ones are not listed.
    #[test]
    fn repeated_statuses_are_counted_with_a_few_examples() {
        let mut files: Vec<FileReport> = (0..200)
            .map(|i| report(&format!("T{i}.java"), FileState::TimedOut, Some("javac is still running")))
            .collect();
        files.push(report("a.txt", FileState::Skipped, Some("not a .java file")));
        files.push(report("B.java", FileState::Skipped, Some("over the cap")));
        files.push(report("Ok.java", FileState::Analysed, None));
        let (counts, listed, unlisted) = summarize(files);
        assert_eq!((counts.timed_out, counts.skipped, counts.analysed), (200, 2, 1));
        let names: Vec<&str> = listed.iter().map(|f| f.file.as_str()).collect();
        assert_eq!(names, ["T0.java", "T1.java", "T2.java", "a.txt", "B.java"]);
        assert_eq!(
            unlisted,
            [UnlistedFiles {
                status: FileState::TimedOut,
                reason: Some("javac is still running".to_owned()),
                count: 197
            }]
        );
        // A few files are listed whole.
        let few = vec![report("A.java", FileState::Analysed, None), report("B.java", FileState::Analysed, None)];
        let (_, listed, unlisted) = summarize(few);
        assert_eq!((listed.len(), unlisted.len()), (2, 0));
    }
}
