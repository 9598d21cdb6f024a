//! `get_problems`: syntax and javac diagnostics, as an IDE's Problems view.

use crate::ToolError;
use crate::problems::{ProblemsArgs, ProblemsResult};
use crate::registry::Tool;
use crate::require_java;
use crate::problems::{LineRange, summarize};
use mji_problems::{CheckFile, FileReport, FileState, Filter, ProblemSource, Sources};
use crate::host::Host;

pub(crate) struct GetProblems;

impl Tool for GetProblems {
    const NAME: &'static str = "get_problems";
    const TITLE: &'static str = "Get compile problems";
    const DESCRIPTION: &'static str = "Compile errors and warnings (syntax and javac) of files or the whole workspace: call it after editing code. complete=false: the check goes on in the background, call again.";

    const GROUP: &'static str = "problems";
    // The reference engine tells javac's complaints about Lombok's members from real ones.
    const NEEDS_INDEX: bool = true;
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
            for f in
                mji_fs::walk::java_files(&r.path).files.into_iter().filter(|f| ws.roots().refusal(f).is_none())
            {
                let root = ws.roots().root_of(&f).unwrap_or(r.root);
                targets.push(CheckFile { display: ws.roots().display(&f, root), path: f });
            }
        } else if require_java(&r.path, &r.display).is_err() {
            skipped.push(FileReport {
                file: r.display.clone(),
                status: FileState::Skipped,
                reason: Some("not a .java file".to_owned()),
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
    let missing_dependencies = crate::problems::MissingSummary::new(missing_dependencies, ws.config().trusted);
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
