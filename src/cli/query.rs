//! The query commands (`range`, `javadoc`, `find`, `types`, `resources`, `refs`, `deps`,
//! `def`, `problems`, `test`, `mvn`) and `call`: each builds a tool's JSON arguments from its
//! flags and calls the tool through the registry, the same entry an MCP client reaches
//! ([`crate::tools::registry::dispatch`]), so the argument limits, the answer budget, the path
//! policy and the errors are the server's. It prints the tool's text (pretty JSON for a tool
//! whose text is its JSON), or its structured answer with `--json`; a tool error is `error: …`
//! on stderr and exit code 1.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use serde_json::{Map, Value, json};

use super::flags::{self, tool_default, tool_default_bool, tool_values};
use super::progress::with_progress;
use super::{WorkspaceFlags, flushed, init_logging};
use crate::tools::host::Host;
use crate::tools::registry::{self, Answer};

/// How an answer is printed.
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct Output {
    /// Print the tool's structured answer (JSON) instead of its text
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct RangeArgs {
    pub file: PathBuf,
    /// First line, 1-based, inclusive
    pub start: u32,
    /// Last line, 1-based, inclusive
    pub end: u32,
    /// Prefix lines with their numbers
    #[arg(long, default_value_t = tool_default_bool("java_read_range", "includeLineNumbers"), action = clap::ArgAction::Set, value_name = "BOOL")]
    pub include_line_numbers: bool,
    /// Hard cap on output characters
    #[arg(long, default_value_t = tool_default("java_read_range", "maxChars"), value_name = "N")]
    pub max_chars: u32,
    #[command(flatten)]
    pub out: Output,
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

#[derive(Debug, Args)]
pub struct JavadocArgs {
    pub file: PathBuf,
    /// A symbolId from `index` (e.g. 'Method#com.foo.Bar#doThing(int):void|start:70|end:120')
    pub symbol_id: String,
    /// Prefix lines with their numbers
    #[arg(long, default_value_t = tool_default_bool("java_read_javadoc", "includeLineNumbers"), action = clap::ArgAction::Set, value_name = "BOOL")]
    pub include_line_numbers: bool,
    /// Hard cap on output characters
    #[arg(long, default_value_t = tool_default("java_read_javadoc", "maxChars"), value_name = "N")]
    pub max_chars: u32,
    #[command(flatten)]
    pub out: Output,
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

/// Which page of a search's results to print.
#[derive(Debug, Args)]
pub struct ResultPage {
    #[arg(long, default_value_t = tool_default("java_find_symbol", "limit"))]
    pub max_results: u32,
    #[arg(long, default_value_t = 0)]
    pub offset: u32,
}

#[derive(Debug, Args)]
pub struct FindArgs {
    /// Name, prefix, camelCase initials (gSV), substring, wildcard, or Type#member
    #[arg(required_unless_present = "query_flag", conflicts_with = "query_flag")]
    pub query: Option<String>,
    /// The query as a flag (as before it was positional)
    #[arg(long = "query", hide = true, value_name = "QUERY")]
    pub query_flag: Option<String>,
    /// Directory to search under (default: the root)
    #[arg(long, default_value = ".")]
    pub root_dir: String,
    #[arg(long, ignore_case = true, value_parser = tool_values("java_find_symbol", "matchKind"))]
    pub match_kind: Option<String>,
    #[arg(long)]
    pub case_sensitive: bool,
    #[command(flatten)]
    pub page: ResultPage,
    #[command(flatten)]
    pub out: Output,
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

#[derive(Debug, Args)]
pub struct TypesArgs {
    /// Type name, prefix, camelCase (NPE), wildcard (*Map) or package pattern (java.util.*Map)
    pub pattern: String,
    #[arg(long, ignore_case = true, value_parser = tool_values("find_type", "kind"))]
    pub kind: Option<String>,
    #[command(flatten)]
    pub page: ResultPage,
    #[command(flatten)]
    pub out: Output,
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

#[derive(Debug, Args)]
pub struct ResourcesArgs {
    /// File name, prefix, camelCase, glob (*.xml) or path glob (src/*/pom.xml)
    pub pattern: String,
    #[command(flatten)]
    pub page: ResultPage,
    #[command(flatten)]
    pub out: Output,
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

#[derive(Debug, Args)]
pub struct RefsArgs {
    /// com.foo.Bar, com.foo.Bar#doThing(int,String), com.foo.Bar#Bar(int), com.foo.Bar#count;
    /// or FILE:LINE[:COLUMN] of an occurrence. Several targets with --count-only give counts.
    #[arg(required = true)]
    pub targets: Vec<String>,
    /// Only count, per target
    #[arg(long)]
    pub count_only: bool,
    /// Also list the declaration
    #[arg(long)]
    pub include_declaration: bool,
    /// Also references to overriding methods
    #[arg(long)]
    pub include_overriders: bool,
    /// A Lombok field: also the uses of its generated accessors, builder methods and withX
    #[arg(long)]
    pub include_accessors: bool,
    /// Only files matching these globs (repeatable)
    #[arg(long = "path")]
    pub paths: Vec<String>,
    /// Only these kinds: call, new, read, write, type, import, extends, implements, annotation,
    /// method-ref, javadoc, override (repeatable or comma-separated)
    #[arg(long = "kind", value_delimiter = ',')]
    pub kinds: Vec<String>,
    #[arg(long, default_value_t = tool_default("find_references", "limit"))]
    pub limit: u32,
    #[arg(long, default_value_t = 0)]
    pub offset: u32,
    #[command(flatten)]
    pub out: Output,
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

#[derive(Debug, Args)]
pub struct CallsArgs {
    /// com.foo.Bar#doThing(int,String), com.foo.Bar#Bar(int); or FILE:LINE[:COLUMN]
    pub target: String,
    /// Levels (1-5)
    #[arg(long, default_value_t = tool_default("call_hierarchy", "depth"))]
    pub depth: u32,
    /// Also calls bound to overriding methods
    #[arg(long)]
    pub include_overriders: bool,
    #[arg(long, default_value_t = tool_default("call_hierarchy", "limit"))]
    pub limit: u32,
    #[arg(long, default_value_t = 0)]
    pub offset: u32,
    #[command(flatten)]
    pub out: Output,
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

#[derive(Debug, Args)]
pub struct HierarchyArgs {
    /// com.foo.Bar, or FILE:LINE[:COLUMN] of an occurrence (a member's type)
    pub target: String,
    /// Which way (the tool's default: both)
    #[arg(long, ignore_case = true, value_parser = tool_values("type_hierarchy", "direction"))]
    pub direction: Option<String>,
    /// Levels (0: all)
    #[arg(long, default_value_t = tool_default("type_hierarchy", "depth"))]
    pub depth: u32,
    /// Expand JDK and library supertypes; list the JDK's subtypes of a JDK type
    #[arg(long)]
    pub include_libraries: bool,
    #[arg(long, default_value_t = tool_default("type_hierarchy", "limit"))]
    pub limit: u32,
    #[arg(long, default_value_t = 0)]
    pub offset: u32,
    #[command(flatten)]
    pub out: Output,
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

/// `callers` and `callees`: call_hierarchy incoming or outgoing.
pub fn calls(a: CallsArgs, direction: &str) -> anyhow::Result<ExitCode> {
    let args = json!({
        "direction": direction,
        "depth": a.depth,
        "includeOverriders": a.include_overriders,
        "limit": a.limit,
        "offset": a.offset,
    });
    on_target(&a.ws, "call_hierarchy", &a.target, args, a.out)
}

#[derive(Debug, Args)]
pub struct AffectedArgs {
    /// Methods, constructors or types (as `callers` takes them); none: what the working tree
    /// changed against git's HEAD
    pub targets: Vec<String>,
    /// Only these changed files (repeatable)
    #[arg(long = "file")]
    pub files: Vec<String>,
    #[arg(long, default_value_t = tool_default("affected_tests", "limit"))]
    pub limit: u32,
    #[arg(long, default_value_t = 0)]
    pub offset: u32,
    #[command(flatten)]
    pub out: Output,
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

#[derive(Debug, Args)]
pub struct ImplsArgs {
    /// com.foo.Bar, com.foo.Bar#doThing(int), or FILE:LINE[:COLUMN] of an occurrence
    pub target: String,
    /// A type's: the JDK's subtypes of a JDK type too
    #[arg(long)]
    pub include_libraries: bool,
    #[arg(long, default_value_t = tool_default("find_implementations", "limit"))]
    pub limit: u32,
    #[arg(long, default_value_t = 0)]
    pub offset: u32,
    #[command(flatten)]
    pub out: Output,
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

/// `affected`: affected_tests of targets, or of the changes since HEAD.
pub fn affected(a: AffectedArgs) -> anyhow::Result<ExitCode> {
    let ws = Session::open(&a.ws, "affected_tests")?;
    let mut args = object(json!({"limit": a.limit, "offset": a.offset}));
    if !a.targets.is_empty() {
        args.insert("targets".into(), json!(a.targets));
    } else if !a.files.is_empty() {
        let files: Vec<String> = a.files.iter().map(|f| file_arg(ws.roots(), Path::new(f))).collect();
        args.insert("changed".into(), json!(files));
    } else {
        args.insert("changed".into(), true.into());
    }
    let answer = ws.call("affected_tests", args);
    finish(&ws, answer, a.out, false, |_| false)
}

#[derive(Debug, Args)]
pub struct ProblemsCliArgs {
    /// .java files or directories (default: the whole workspace)
    pub paths: Vec<String>,
    /// Severities to list (repeatable or comma-separated; any case)
    #[arg(long = "severity", value_delimiter = ',', ignore_case = true, value_parser = tool_values("get_problems", "severityFilter"))]
    pub severity: Vec<String>,
    /// Sources to run (repeatable or comma-separated; default both)
    #[arg(long = "source", value_delimiter = ',', ignore_case = true, value_parser = tool_values("get_problems", "sourceFilter"))]
    pub source: Vec<String>,
    /// Only problems starting on lines START-END (1-based, inclusive)
    #[arg(long, value_name = "START-END")]
    pub lines: Option<String>,
    /// Errors of an incomplete classpath: include, exclude (the files' own problems) or only
    #[arg(long, ignore_case = true, value_parser = tool_values("get_problems", "missingDependencies"))]
    pub missing_dependencies: Option<String>,
    #[arg(long, default_value_t = tool_default("get_problems", "limit"))]
    pub limit: u32,
    #[arg(long, default_value_t = 0)]
    pub offset: u32,
    /// Print one-line JSON
    #[arg(long)]
    pub compact: bool,
    #[command(flatten)]
    pub out: Output,
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

#[derive(Debug, Args)]
pub struct DepsArgs {
    /// A qualified type name, or a .java file
    pub target: String,
    /// Forbidden package patterns (repeatable)
    #[arg(long = "exclude")]
    pub excluded_packages: Vec<String>,
    /// Follow workspace dependencies transitively
    #[arg(long)]
    pub transitive: bool,
    #[arg(long, default_value_t = tool_default("analyze_type_dependencies", "maxDepth"))]
    pub max_depth: u32,
    #[arg(long, default_value_t = tool_default("analyze_type_dependencies", "limit"))]
    pub limit: u32,
    #[command(flatten)]
    pub out: Output,
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

#[derive(Debug, Args)]
pub struct DefArgs {
    /// Bar, doThing, Bar.doThing, com.foo.Bar#count
    pub symbol: String,
    /// The file where the name is used (ranks candidates; with --line resolves exactly)
    #[arg(long)]
    pub file: Option<PathBuf>,
    #[arg(long)]
    pub line: Option<u32>,
    #[arg(long)]
    pub column: Option<u32>,
    #[arg(long, default_value_t = tool_default("show_definition", "limit"))]
    pub limit: u32,
    #[command(flatten)]
    pub out: Output,
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

#[derive(Debug, Args)]
pub struct TestCliArgs {
    /// pkg.Class#method, a class, package, module or test file (default: every test)
    #[arg(default_value = "")]
    pub target: String,
    /// Maven's -o: no downloads
    #[arg(long)]
    pub offline: bool,
    /// A system property for the build, KEY=VALUE (repeatable)
    #[arg(short = 'D', value_name = "KEY=VALUE")]
    pub define: Vec<String>,
    /// Always through Maven, never the fast path
    #[arg(long)]
    pub maven: bool,
    #[command(flatten)]
    pub out: Output,
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

#[derive(Debug, Args)]
pub struct MvnCliArgs {
    /// Goals or phases (each in the `maven_goals` allowlist)
    #[arg(required = true)]
    pub goals: Vec<String>,
    /// Profiles (repeatable or comma-separated)
    #[arg(short = 'P', value_delimiter = ',')]
    pub profiles: Vec<String>,
    /// A property, KEY=VALUE (repeatable)
    #[arg(short = 'D', value_name = "KEY=VALUE")]
    pub define: Vec<String>,
    #[arg(long)]
    pub offline: bool,
    /// A module (artifactId or directory), built with what it needs
    #[arg(long = "module", short = 'm', default_value = "")]
    pub module: String,
    #[command(flatten)]
    pub out: Output,
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

#[derive(Debug, Args)]
pub struct CallArgs {
    /// The tool's name (see `mcp-java-index tools`)
    pub tool: String,
    /// Its arguments as a JSON object
    #[arg(default_value = "{}")]
    pub arguments: String,
    #[command(flatten)]
    pub out: Output,
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

/// A JSON object from `json!` (every literal this file builds is one), without the flags
/// not given (`null`): the tool's own defaults apply to those.
fn object(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(mut m) => {
            m.retain(|_, v| !v.is_null());
            m
        }
        _ => Map::new(),
    }
}

/// A file the command line names, as a tool argument. Relative paths on the command line are
/// relative to the current directory and a tool's to the roots: the same when the current
/// directory is a root (the default root is `.`), so the path is passed as typed and the
/// tool's messages name it as typed; from elsewhere, a path that exists here is passed whole.
/// Either way the tool's path policy judges it.
pub(crate) fn file_arg(roots: &[std::path::PathBuf], p: &Path) -> String {
    let typed = p.to_string_lossy().into_owned();
    if p.is_absolute() || !p.exists() {
        return typed;
    }
    let Ok(cwd) = std::env::current_dir() else { return typed };
    let real_cwd = std::fs::canonicalize(&cwd).unwrap_or_else(|_| cwd.clone());
    if roots.contains(&real_cwd) {
        return typed;
    }
    mji_fs::lexical_normalize(&cwd.join(p)).to_string_lossy().into_owned()
}

/// Opens the workspace of `flags`, as it is on disk: each call readies what it needs first
/// ([`prepare`]).
fn open(flags: &WorkspaceFlags) -> anyhow::Result<Host> {
    let config = flags.config()?;
    init_logging(&config.log_level);
    Ok(Host::open(config)?)
}

/// Readies `ws` for one call of `tool` with `args` as the tool says it needs
/// ([`registry::Start`]: the index built, with progress; the world read beside it), so the
/// call answers what a server's would.
fn prepare(ws: &Host, tool: &str, args: &Map<String, Value>) {
    let start = registry::find(tool).map_or(registry::Start::Nothing, |e| e.start(args));
    if start == registry::Start::Nothing {
        return;
    }
    ws.prepare(start, || {
        super::index::build_index(ws);
    });
    let problems = ws.index().problems();
    if problems.count > 0 {
        eprintln!("warning: {} file(s) could not be indexed, e.g. {}", problems.count, problems.samples.join("; "));
    }
}

/// Where a command's call is answered: this process's workspace, or the workspace's running
/// shared server (see [`super::remote`]).
///
/// A local workspace is never freed: a command's process ends right after its answer is
/// printed and the caches are flushed (`finish` waits for their writes), and freeing a
/// JDK-sized index and world took a tenth of a `refs` command's time (issue 38).
pub(crate) enum Session {
    Local(std::mem::ManuallyDrop<Box<Host>>),
    Shared(crate::mcp_server::shared::Registration),
}

impl Session {
    /// `ws`, answered in this process (and not freed: see [`Session`]).
    fn local(ws: Host) -> Session {
        Session::Local(std::mem::ManuallyDrop::new(Box::new(ws)))
    }

    /// The shared server when `tool`'s call may go there, else the workspace opened here
    /// (after starting a shared server in the background, with `--daemon`).
    fn open(flags: &WorkspaceFlags, tool: &str) -> anyhow::Result<Session> {
        use super::remote::Route;
        match super::remote::route(flags, tool) {
            Route::Shared(reg) => Ok(Session::Shared(reg)),
            Route::StartThenLocal(roots) => {
                super::remote::start_server(&roots);
                Ok(Session::local(open(flags)?))
            }
            Route::Local => Ok(Session::local(open(flags)?)),
        }
    }

    /// The workspace's roots (canonical).
    fn roots(&self) -> &[std::path::PathBuf] {
        match self {
            Session::Local(ws) => ws.roots().paths(),
            Session::Shared(reg) => super::remote::roots(reg),
        }
    }

    /// One call: with progress on stderr in a terminal and stopped by Ctrl-C here; sent to
    /// the shared server there.
    fn call(&self, tool: &str, args: Map<String, Value>) -> Result<Answer, String> {
        match self {
            Session::Local(ws) => dispatch(ws, tool, args),
            Session::Shared(reg) => super::remote::call(reg, tool, args),
        }
    }
}

/// One registry call, the workspace readied for it first, with progress on stderr in a
/// terminal, stopped by Ctrl-C.
fn dispatch(ws: &Host, tool: &str, args: Map<String, Value>) -> Result<Answer, String> {
    prepare(ws, tool, &args);
    guarded(tool, &|| None, || registry::dispatch(ws, tool, args))
}

/// Runs a command's calls as a server runs a client's: under a cancellation flag, which
/// Ctrl-C sets (the work stops between files, a build run is killed with its whole process
/// tree, and the call answers that it was cancelled), and with progress on stderr in a
/// terminal (`poll`'s value, or the calls' reports).
fn guarded<R>(label: &str, poll: &(dyn Fn() -> Option<String> + Sync), work: impl FnOnce() -> R) -> R {
    interrupt().scope(|| with_progress(label, poll, work))
}

/// The cancellation flag Ctrl-C sets, for every call of this process.
fn interrupt() -> &'static mji_model::cancel::Cancel {
    static CANCEL: std::sync::OnceLock<mji_model::cancel::Cancel> = std::sync::OnceLock::new();
    CANCEL.get_or_init(|| {
        let cancel = mji_model::cancel::Cancel::new();
        let set = cancel.clone();
        let listen = move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build();
            if let Ok(rt) = runtime
                && rt.block_on(tokio::signal::ctrl_c()).is_ok()
            {
                eprintln!("interrupted: stopping");
                set.cancel();
            }
        };
        // Without the thread, Ctrl-C ends the process as it always did.
        let _ = std::thread::Builder::new().name("ctrl-c".to_owned()).spawn(listen);
        cancel
    })
}

/// Prints an answer: its structured JSON with `--json` (`compact`: on one line), else its
/// text — as pretty JSON when the text is the JSON (a tool without a rendering of its own).
fn print_answer(answer: &Answer, out: Output, compact: bool) -> anyhow::Result<()> {
    let (text, json) = (answer.text(), answer.value.to_string());
    if out.json || text == json {
        return super::print_json(&answer.value, compact);
    }
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    if !text.ends_with('\n') {
        stdout.write_all(b"\n")?;
    }
    stdout.flush()?;
    Ok(())
}

/// Calls `tool` on the workspace of `flags` and prints its answer; a tool error exits 1.
fn run_tool(flags: &WorkspaceFlags, tool: &str, args: Map<String, Value>, out: Output) -> anyhow::Result<ExitCode> {
    let s = Session::open(flags, tool)?;
    finish(&s, s.call(tool, args), out, false, |_| false)
}

/// Prints `answer` (or its error) and flushes the caches: exit 1 on a tool error, a failed
/// cache write, or when `failed` says the answer is a failure (a test failed).
fn finish(
    session: &Session,
    answer: Result<Answer, String>,
    out: Output,
    compact: bool,
    failed: impl FnOnce(&Value) -> bool,
) -> anyhow::Result<ExitCode> {
    let cache = match session {
        Session::Local(ws) => {
            // The caches are opened when first used (a `range` opens none): what opening
            // those it used had to say.
            for w in ws.warnings_so_far() {
                eprintln!("warning: {w}");
            }
            flushed(ws)
        }
        Session::Shared(_) => ExitCode::SUCCESS,
    };
    match answer {
        Ok(a) => {
            print_answer(&a, out, compact)?;
            Ok(if failed(&a.value) { ExitCode::from(1) } else { cache })
        }
        Err(e) => {
            eprintln!("error: {e}");
            Ok(ExitCode::from(1))
        }
    }
}

/// `call TOOL JSON`: one registry call, the way the server makes it.
pub fn call(a: CallArgs) -> anyhow::Result<ExitCode> {
    if registry::find(&a.tool).is_none() {
        let names: Vec<&str> = registry::registry().iter().map(|e| e.spec.name).collect();
        anyhow::bail!("unknown tool `{}`; the tools are: {}", mji_fs::clip(&a.tool), names.join(", "));
    }
    let args = match serde_json::from_str::<Value>(&a.arguments) {
        Ok(Value::Object(m)) => m,
        Ok(_) => anyhow::bail!("the arguments must be a JSON object, e.g. '{{\"filePath\": \"A.java\"}}'"),
        Err(e) => anyhow::bail!("the arguments are not valid JSON: {e}"),
    };
    run_tool(&a.ws, &a.tool, args, a.out)
}

/// `tools`: every registered tool, its title and whether it writes.
pub fn tools() -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    for e in registry::registry() {
        let s = &e.spec;
        let hint = if s.read_only {
            "read-only"
        } else if s.destructive {
            "destructive"
        } else {
            "writes"
        };
        writeln!(out, "{}\t{}\t{hint}", s.name, s.title)?;
    }
    Ok(ExitCode::SUCCESS)
}

pub fn range(a: RangeArgs) -> anyhow::Result<ExitCode> {
    let ws = Session::open(&a.ws, "java_read_range")?;
    let args = json!({
        "filePath": file_arg(ws.roots(), &a.file),
        "startLine": a.start,
        "endLine": a.end,
        "options": {"includeLineNumbers": a.include_line_numbers, "maxChars": a.max_chars},
    });
    finish(&ws, ws.call("java_read_range", object(args)), a.out, false, |_| false)
}

pub fn javadoc(a: JavadocArgs) -> anyhow::Result<ExitCode> {
    let ws = Session::open(&a.ws, "java_read_javadoc")?;
    let args = json!({
        "filePath": file_arg(ws.roots(), &a.file),
        "symbolId": a.symbol_id,
        "options": {"includeLineNumbers": a.include_line_numbers, "maxChars": a.max_chars},
    });
    finish(&ws, ws.call("java_read_javadoc", object(args)), a.out, false, |_| false)
}

pub fn find(a: FindArgs) -> anyhow::Result<ExitCode> {
    let query = a.query.or(a.query_flag).unwrap_or_default();
    let args = json!({
        "root": a.root_dir,
        "query": query,
        "matchKind": a.match_kind,
        "limit": a.page.max_results,
        "caseSensitive": a.case_sensitive,
        "offset": a.page.offset,
        "scope": "workspace",
    });
    run_tool(&a.ws, "java_find_symbol", object(args), a.out)
}

pub fn types(a: TypesArgs) -> anyhow::Result<ExitCode> {
    let args = json!({
        "query": a.pattern,
        "kind": a.kind,
        "limit": a.page.max_results,
        "offset": a.page.offset,
    });
    run_tool(&a.ws, "find_type", object(args), a.out)
}

pub fn resources(a: ResourcesArgs) -> anyhow::Result<ExitCode> {
    let args = json!({"query": a.pattern, "limit": a.page.max_results, "offset": a.page.offset});
    run_tool(&a.ws, "find_resource", object(args), a.out)
}

pub fn refs(a: RefsArgs) -> anyhow::Result<ExitCode> {
    let ws = Session::open(&a.ws, "find_references")?;
    let mut args = object(json!({
        "countOnly": a.count_only,
        "includeDeclaration": a.include_declaration,
        "includeOverriders": a.include_overriders,
        "includeAccessors": a.include_accessors,
        "paths": a.paths,
        "kinds": a.kinds,
        "limit": a.limit,
        "offset": a.offset,
    }));
    // One target goes the one way the tool resolves it, counted or listed: a count and the
    // full answer never disagree, and a target that resolves to nothing is an error.
    if a.targets.len() > 1 {
        args.insert("targets".into(), json!(a.targets));
        args.insert("countOnly".into(), true.into());
    } else {
        add_target(&ws, &mut args, &a.targets[0]);
    }
    let answer = ws.call("find_references", args);
    // Files the binder could not bind fully: their references may be missing.
    if let Ok(a) = &answer {
        for f in a.value["incomplete"].as_array().into_iter().flatten().filter_map(Value::as_str) {
            eprintln!("warning: {f}");
        }
    }
    finish(&ws, answer, a.out, false, |_| false)
}

/// `target` as the navigation tools take it: a position `FILE:LINE[:COLUMN]` as `filePath` +
/// `line` (+ `column`), anything else as `target`.
fn add_target(ws: &Session, args: &mut serde_json::Map<String, Value>, target: &str) {
    match crate::tools::xref::position_of(target) {
        Some((file, line, column)) => {
            args.insert("filePath".into(), file_arg(ws.roots(), Path::new(&file)).into());
            args.insert("line".into(), line.into());
            if let Some(c) = column {
                args.insert("column".into(), c.into());
            }
        }
        None => {
            args.insert("target".into(), target.into());
        }
    }
}

pub fn hierarchy(a: HierarchyArgs) -> anyhow::Result<ExitCode> {
    let args = json!({
        "direction": a.direction,
        "depth": a.depth,
        "includeLibraries": a.include_libraries,
        "limit": a.limit,
        "offset": a.offset,
    });
    on_target(&a.ws, "type_hierarchy", &a.target, args, a.out)
}

pub fn impls(a: ImplsArgs) -> anyhow::Result<ExitCode> {
    let args = json!({"includeLibraries": a.include_libraries, "limit": a.limit, "offset": a.offset});
    on_target(&a.ws, "find_implementations", &a.target, args, a.out)
}

/// A navigation command on `target` ([`add_target`]), with the rest of its arguments.
fn on_target(flags: &WorkspaceFlags, tool: &str, target: &str, args: Value, out: Output) -> anyhow::Result<ExitCode> {
    let ws = Session::open(flags, tool)?;
    let mut args = object(args);
    add_target(&ws, &mut args, target);
    finish(&ws, ws.call(tool, args), out, false, |_| false)
}

pub fn deps(a: DepsArgs) -> anyhow::Result<ExitCode> {
    let ws = Session::open(&a.ws, "analyze_type_dependencies")?;
    let mut args = object(json!({
        "excludedPackages": a.excluded_packages,
        "transitive": a.transitive,
        "maxDepth": a.max_depth,
        "limit": a.limit,
    }));
    if a.target.ends_with(".java") {
        args.insert("filePath".into(), file_arg(ws.roots(), Path::new(&a.target)).into());
    } else {
        args.insert("type".into(), a.target.into());
    }
    finish(&ws, ws.call("analyze_type_dependencies", args), a.out, false, |_| false)
}

pub fn def(a: DefArgs) -> anyhow::Result<ExitCode> {
    let ws = Session::open(&a.ws, "show_definition")?;
    let mut args = object(json!({"symbol": a.symbol, "limit": a.limit}));
    if let Some(f) = &a.file {
        args.insert("filePath".into(), file_arg(ws.roots(), f).into());
    }
    for (key, v) in [("line", a.line), ("column", a.column)] {
        if let Some(v) = v {
            args.insert(key.into(), v.into());
        }
    }
    finish(&ws, ws.call("show_definition", args), a.out, false, |_| false)
}

/// `problems`: get_problems until every file is checked; exits 1 when an error is listed.
pub fn problems(a: ProblemsCliArgs) -> anyhow::Result<ExitCode> {
    let ws = open(&a.ws)?;
    let (start, end) = match &a.lines {
        None => (0, 0),
        Some(r) => {
            let (s, e) = r.split_once('-').unwrap_or((r, r));
            let n =
                |x: &str| x.trim().parse::<u32>().map_err(|_| anyhow::anyhow!("invalid --lines `{r}`; use START-END"));
            (n(s)?, n(e)?)
        }
    };
    let paths: Vec<String> = a.paths.iter().map(|p| file_arg(ws.roots().paths(), Path::new(p))).collect();
    let args = object(json!({
        "filePath": paths,
        "severityFilter": a.severity,
        "sourceFilter": a.source,
        "lineRange": {"start": start, "end": end},
        "missingDependencies": a.missing_dependencies,
        "limit": a.limit,
        "offset": a.offset,
    }));
    prepare(&ws, "get_problems", &args);
    // A command line has no client timeout: ask again until the background work is done.
    let checked = std::sync::Mutex::new(None::<String>);
    let poll = || checked.lock().ok().and_then(|c| c.clone());
    let answer = guarded("checking problems", &poll, || {
        loop {
            let answer = registry::dispatch(&ws, "get_problems", args.clone());
            match &answer {
                Ok(a) if a.value["complete"] == false => {
                    let analysed = a.value["fileCounts"]["analysed"].as_u64().unwrap_or(0);
                    if let Ok(mut c) = checked.lock() {
                        *c = Some(format!("{analysed} files checked"));
                    }
                }
                _ => return answer,
            }
        }
    });
    let errors = |v: &Value| v["diagnostics"].as_array().into_iter().flatten().any(|d| d["severity"] == "Error");
    finish(&Session::local(ws), answer, a.out, a.compact, errors)
}

/// `test` and `mvn`: a command line has no client timeout, so it asks `get_test_results`
/// again until the run ends; exits 1 when it did not run, failed, or did not finish.
fn build_run(flags: &WorkspaceFlags, tool: &str, args: Map<String, Value>, out: Output) -> anyhow::Result<ExitCode> {
    let ws = open(flags)?;
    prepare(&ws, tool, &args);
    let label = if tool == "run_tests" { "running tests" } else { "running Maven" };
    let answer = guarded(label, &|| None, || {
        let mut answer = registry::dispatch(&ws, tool, args);
        while let Ok(a) = &answer
            && a.value["status"] == "running"
        {
            let run_id = a.value["runId"].clone();
            answer = registry::dispatch(&ws, "get_test_results", object(json!({"runId": run_id})));
        }
        answer
    });
    let failed = |v: &Value| {
        let empty = |k: &str| v[k].as_array().is_none_or(Vec::is_empty);
        v["ran"] != true
            || v["exitCode"] != 0
            || !empty("failures")
            || !empty("compileErrors")
            || v["status"] != "finished"
    };
    finish(&Session::local(ws), answer, out, false, failed)
}

pub fn test(a: TestCliArgs) -> anyhow::Result<ExitCode> {
    let args = json!({
        "target": a.target,
        "offline": a.offline,
        "properties": flags::defines(&a.define)?,
        "fast": !a.maven,
    });
    build_run(&a.ws, "run_tests", object(args), a.out)
}

pub fn mvn(a: MvnCliArgs) -> anyhow::Result<ExitCode> {
    let args = json!({
        "goals": a.goals,
        "profiles": a.profiles,
        "properties": flags::defines(&a.define)?,
        "offline": a.offline,
        "module": a.module,
    });
    build_run(&a.ws, "maven_goal", object(args), a.out)
}
