//! `get_problems`: syntax and javac diagnostics, as an IDE's Problems view. The wire arguments
//! and result around [`mji_problems`], in the words every tool uses (`filePath`,
//! `offset`/`limit` → `truncated`/`nextOffset`, camelCase); the Emacs
//! `get-diagnostics-filtered` proposal's snake_case names are still taken (the tool's aliases).

use serde::{Deserialize, Serialize};
use crate::ToolError;
use crate::registry::Tool;
use mji_problems::{
    CheckFile, FileReport, FileState, Filter, JavacStatus, MissingDependencies, Problem, ProblemSource, Severity, Sources,
};
use crate::host::Host;

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


pub(crate) struct GetProblems;

impl Tool for GetProblems {
    const NAME: &'static str = "get_problems";
    const TITLE: &'static str = "Get compile problems";
    const DESCRIPTION: &'static str = "Compile errors and warnings (syntax and javac) of files or the whole workspace: call it after editing code. complete=false: the check goes on in the background, call again.";

    const GROUP: &'static str = "problems";
    // The reference engine tells javac's complaints about Lombok's members from real ones.
    const WAITS_FOR_INDEX: bool = true;
    const ALIASES: &'static [(&'static str, &'static str)] = &[
        ("paths", "filePath"),
        ("severity_filter", "severityFilter"),
        ("line_range", "lineRange"),
        ("source_filter", "sourceFilter"),
    ];

    type Args = ProblemsArgs;
    type Output = ProblemsResult;

    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError> {
        let mut result = run(ws, &args)?;
        if args.open
            && let Some(p) = result.diagnostics.first()
        {
            // Problems count columns from 1 in UTF-16 units; the editor from 0 in characters.
            let column = crate::editor::char_column(ws, &p.file, p.line, p.column);
            result.opened = Some(crate::editor::open_in_editor(ws, &p.file, p.line, column));
        }
        tracing::info!(
            files = result.file_counts.analysed,
            problems = result.total_count,
            complete = result.complete,
            ms = result.elapsed_ms,
            "get_problems"
        );
        Ok(result)
    }

    fn page_len(output: &Self::Output) -> Option<usize> {
        Some(output.diagnostics.len())
    }

    fn cut(output: &mut Self::Output, args: &Self::Args, n: usize) {
        if n < output.diagnostics.len() {
            output.diagnostics.truncate(n);
            output.has_more = true;
            output.next_offset = Some(args.offset.saturating_add(n as u32));
        }
    }
}

/// `get_problems`.
pub fn run(ws: &Host, args: &ProblemsArgs) -> Result<ProblemsResult, ToolError> {
    let t = std::time::Instant::now();
    let LineRange { start, end } = args.line_range;
    if end != 0 && start > end {
        return Err(ToolError::InvalidArgument(format!(
            "lineRange start {start} is after its end {end}; give {{\"start\": N, \"end\": M}} with N <= M (end 0: to the end of the file)"
        )));
    }
    let lines = (start > 1 || end != 0).then_some((start, if end == 0 { u32::MAX } else { end }));
    let mut targets: Vec<CheckFile> = Vec::new();
    let mut skipped: Vec<FileReport> = Vec::new();
    let given: Vec<String> = if args.paths.is_empty() {
        ws.roots().paths().iter().map(|p| p.to_string_lossy().into_owned()).collect()
    } else {
        args.paths.clone()
    };
    for g in &given {
        let r = ws.resolve(g)?;
        if r.path.is_dir() {
            // Java and Kotlin sources (a Kotlin file's syntax alone).
            let sources = mji_fs::walk::walk(&r.path, |p| {
                p.extension().is_some_and(|e| e.eq_ignore_ascii_case("java") || e == "kt")
            });
            for f in sources.files.into_iter().filter(|f| ws.roots().refusal(f).is_none()) {
                let root = ws.roots().root_of(&f).unwrap_or(r.root);
                targets.push(CheckFile { display: ws.roots().display(&f, root), path: f });
            }
        } else if crate::require_source(&r.path, &r.display).is_err() {
            skipped.push(FileReport {
                file: r.display.clone(),
                status: FileState::Skipped,
                reason: Some("not a .java or .kt file".to_owned()),
            });
        } else {
            ws.check_file(&r.path, &r.display)?;
            targets.push(CheckFile { path: r.path, display: r.display });
        }
    }
    let mut seen = std::collections::HashSet::new();
    targets.retain(|t| seen.insert(t.path.clone()));
    let wanted = |s| args.source_filter.is_empty() || args.source_filter.contains(&s);
    let sources = Sources { syntax: wanted(ProblemSource::Syntax), javac: wanted(ProblemSource::Javac) };
    // Without a JDK the type errors cannot be known: an error that says how to fix it,
    // never an answer whose empty list reads as "no problems".
    if sources.javac
        && !targets.is_empty()
        && let Err(why) = ws.problems_engine().jdk()
    {
        return Err(ToolError::InvalidArgument(format!(
            "{why}; get_problems needs javac for type errors. Without a JDK, ask for syntax problems alone: sourceFilter [\"syntax\"] (the CLI's --source syntax)"
        )));
    }
    let mut checked = ws.problems_engine().check(&targets, sources, None);
    // Lombok did not run: its members' absence is no problem of the code.
    if checked.javac.annotation_processing.is_none() {
        let hidden = crate::lombok::hide_generated_member_problems(ws, &targets, &mut checked.problems);
        if hidden > 0 {
            checked.javac.annotation_processing = Some(crate::lombok::not_run_note(hidden, ws.config().trusted));
        }
    }
    if sources.syntax {
        let files: Vec<_> = targets.iter().map(|t| (t.path.clone(), t.display.clone())).collect();
        checked.problems.extend(crate::quick_fix::override_hints(ws, &files));
    }
    let filter = Filter {
        severities: args.severity_filter.clone(),
        sources: args.source_filter.clone(),
        lines,
        missing: args.missing_dependencies,
    };
    let mji_problems::Page { problems: mut diagnostics, total, filtered, has_more, missing_dependencies } =
        mji_problems::page(checked.problems, &filter, args.offset as usize, args.limit as usize);
    crate::quick_fix::attach(ws, &mut diagnostics);
    let missing_dependencies = MissingSummary::new(missing_dependencies, ws.config().trusted);
    skipped.extend(checked.files);
    let (file_counts, files, unlisted_files) = summarize(skipped);
    let next_offset = has_more.then(|| args.offset.saturating_add(diagnostics.len() as u32));
    Ok(ProblemsResult {
        diagnostics,
        total_count: total as u32,
        filtered_count: filtered as u32,
        has_more,
        next_offset,
        complete: checked.complete,
        file_counts,
        files,
        unlisted_files,
        missing_dependencies,
        javac: checked.javac,
        elapsed_ms: t.elapsed().as_millis() as u64,
        opened: None,
    })
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
