//! The query commands (`range`, `javadoc`, `find`, `types`, `resources`, `refs`, `callers`,
//! `callees`, `affected`, `hierarchy`, `impls`, `deps`, `def`, `problems`, `test`, `mvn`) and
//! `call`. Each command is a line of the `commands!` table: its tool and which of the tool's
//! properties are positional or spelled otherwise; the flags' names, defaults, enum values and
//! help are the tool's schema's ([`super::derived`]). A command calls its tool through the
//! registry, the same entry an MCP client reaches ([`crate::tools::registry::dispatch`]), so
//! the argument limits, the answer budget, the path policy and the errors are the server's. It
//! prints the tool's text (pretty JSON for a tool whose text is its JSON), or its structured
//! answer with `--json`; a tool error is `error: …` on stderr and exit code 1.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use clap::Args;
use serde_json::{Map, Value, json};

use super::derived::{Arg, Cmd, Own, Query, Spec};
use super::flags;
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

/// The positional target of the navigation commands, which may also be a position.
const TARGET: &str = "com.foo.Bar, com.foo.Bar#doThing(int,String), com.foo.Bar#Bar(int), com.foo.Bar#count; \
     or FILE:LINE[:COLUMN] of an occurrence";

/// `--limit` and `--offset`, as every paged tool names them.
const PAGE: [Arg; 2] = [Arg::flag("limit"), Arg::flag("offset")];
/// A search's page: `--max-results` sets `limit`.
const RESULTS: [Arg; 2] = [Arg::long("limit", "max-results"), Arg::flag("offset")];

/// `callers` and `callees`: call_hierarchy one way.
const CALLS: &[Arg] = &[
    Arg::positional("target", "TARGET").required().special().help(TARGET),
    Arg::flag("depth"),
    Arg::flag("includeOverriders"),
    PAGE[0],
    PAGE[1],
];

/// Declares the query commands: a marker type for each (what `Command`'s variants hold, as
/// [`Query`]`<Marker>`) and its [`Cmd`]. Everything else an argument has is its tool's schema's.
macro_rules! commands {
    ($($(#[$doc:meta])* $name:ident = $tool:literal, $args:expr $(, $fixed:expr)?;)*) => {$(
        $(#[$doc])*
        #[derive(Debug)]
        pub struct $name;
        impl Spec for $name {
            const CMD: &'static Cmd = &Cmd { tool: $tool, args: $args, fixed: commands!(@fixed $($fixed)?) };
        }
    )*
        /// The command named `name` (`range`: [`Range`]).
        #[cfg(test)]
        pub(crate) fn spec_of(name: &str) -> Option<&'static Cmd> {
            $(if name.eq_ignore_ascii_case(stringify!($name)) {
                return Some($name::CMD);
            })*
            None
        }
    };
    (@fixed) => { &[] };
    (@fixed $f:expr) => { $f };
}

commands! {
    /// `range FILE START END`.
    Range = "java_read_range", &[
        Arg::positional("filePath", "FILE").path().required(),
        Arg::positional("startLine", "START").required(),
        Arg::positional("endLine", "END").required(),
        Arg::flag("includeLineNumbers"),
        Arg::flag("maxChars"),
    ];
    /// `javadoc FILE SYMBOL_ID`.
    Javadoc = "java_read_javadoc", &[
        Arg::positional("filePath", "FILE").path().required(),
        Arg::positional("symbolId", "SYMBOL_ID").required(),
        Arg::flag("includeLineNumbers"),
        Arg::flag("maxChars"),
    ];
    /// `find QUERY`: the workspace's symbols.
    Find = "java_find_symbol", &[
        Arg::positional("query", "QUERY").required_unless("queryFlag")
            .help("Name, prefix, camelCase initials (gSV), substring, wildcard, or Type#member"),
        Arg::long("queryFlag", "query").own(Own::Value("QUERY"), "The query as a flag (as before it was positional)").hidden(),
        Arg::long("root", "root-dir"),
        Arg::flag("matchKind"),
        Arg::flag("caseSensitive"),
        RESULTS[0], RESULTS[1],
    ], &[("scope", "workspace")];
    /// `types PATTERN`.
    Types = "find_type", &[
        Arg::positional("query", "PATTERN").required()
            .help("Type name, prefix, camelCase (NPE), wildcard (*Map) or package pattern (java.util.*Map)"),
        Arg::flag("kind"),
        RESULTS[0], RESULTS[1],
    ];
    /// `resources PATTERN`.
    Resources = "find_resource", &[
        Arg::positional("query", "PATTERN").required()
            .help("File name, prefix, camelCase, glob (*.xml) or path glob (src/*/pom.xml)"),
        RESULTS[0], RESULTS[1],
    ];
    /// `refs TARGET...`: one target listed, several counted.
    Refs = "find_references", &[
        Arg::positional("targets", "TARGETS").required().special()
            .help("As `target` (or FILE:LINE[:COLUMN] of an occurrence); several: counts per target"),
        Arg::flag("countOnly"),
        Arg::flag("includeDeclaration"),
        Arg::flag("includeOverriders"),
        Arg::flag("includeAccessors"),
        Arg::long("paths", "path"),
        Arg::long("kinds", "kind").comma(),
        PAGE[0], PAGE[1],
    ];
    /// `callers TARGET`.
    Callers = "call_hierarchy", CALLS, &[("direction", "incoming")];
    /// `callees TARGET`.
    Callees = "call_hierarchy", CALLS, &[("direction", "outgoing")];
    /// `hierarchy TARGET`.
    Hierarchy = "type_hierarchy", &[
        Arg::positional("target", "TARGET").required().special().help(TARGET),
        Arg::flag("direction"),
        Arg::flag("depth"),
        Arg::flag("includeLibraries"),
        PAGE[0], PAGE[1],
    ];
    /// `impls TARGET`.
    Impls = "find_implementations", &[
        Arg::positional("target", "TARGET").required().special().help(TARGET),
        Arg::flag("includeLibraries"),
        PAGE[0], PAGE[1],
    ];
    /// `affected [TARGET...]`: none, the changes since HEAD.
    Affected = "affected_tests", &[
        Arg::positional("targets", "TARGETS")
            .help("Methods, constructors or types (as `callers` takes them); none: what the working tree changed against git's HEAD"),
        Arg::long("changed", "file").own(Own::Many("FILE"), "Only these changed files (repeatable)").path(),
        PAGE[0], PAGE[1],
    ];
    /// `deps TARGET`.
    Deps = "analyze_type_dependencies", &[
        Arg::positional("target", "TARGET").own(Own::Value("TARGET"), "A qualified type name, or a .java file").required(),
        Arg::long("excludedPackages", "exclude"),
        Arg::flag("transitive"),
        Arg::flag("maxDepth"),
        Arg::flag("limit"),
    ];
    /// `def SYMBOL`.
    Def = "show_definition", &[
        Arg::positional("symbol", "SYMBOL").required().help("Bar, doThing, Bar.doThing, com.foo.Bar#count"),
        Arg::long("filePath", "file").path(),
        Arg::flag("line"),
        Arg::flag("column"),
        Arg::flag("limit"),
    ];
    /// `problems [PATH...]`.
    Problems = "get_problems", &[
        Arg::positional("filePath", "PATHS").path(),
        Arg::long("severityFilter", "severity").comma(),
        Arg::long("sourceFilter", "source").comma(),
        Arg::flag("lines").own(Own::Value("START-END"), "Only problems starting on lines START-END (1-based, inclusive)"),
        Arg::flag("missingDependencies"),
        PAGE[0], PAGE[1],
        Arg::flag("compact").own(Own::Switch, "Print one-line JSON"),
    ];
    /// `test [TARGET]`.
    Test = "run_tests", &[
        Arg::positional("target", "TARGET"),
        Arg::flag("offline"),
        Arg::long("define", "").short('D').own(Own::Many("KEY=VALUE"), "A system property for the build, KEY=VALUE (repeatable)"),
        Arg::flag("maven").own(Own::Switch, "Always through Maven, never the fast path"),
    ];
    /// `mvn GOAL...`.
    Mvn = "maven_goal", &[
        Arg::positional("goals", "GOALS").required(),
        Arg::long("profiles", "").short('P').comma(),
        Arg::long("define", "").short('D').own(Own::Many("KEY=VALUE"), "A property, KEY=VALUE (repeatable)"),
        Arg::flag("offline"),
        Arg::flag("module").short('m'),
    ];
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

/// A command whose arguments all go to its tool as given: `range`, `javadoc`, `find`, `types`,
/// `resources`, `def`.
pub fn plain<S: Spec>(q: Query<S>) -> anyhow::Result<ExitCode> {
    let ws = Session::open(&q.ws, q.tool())?;
    let mut args = q.arguments(&|p| file_arg(ws.roots(), Path::new(p)));
    // `find --query Q`, as before the query was positional.
    if let Some(query) = q.strings("queryFlag").pop() {
        args.insert("query".into(), query.into());
    }
    finish(&ws, ws.call(q.tool(), args), q.out, false, |_| false)
}

pub fn refs(q: Query<Refs>) -> anyhow::Result<ExitCode> {
    let ws = Session::open(&q.ws, q.tool())?;
    let mut args = q.arguments(&|p| file_arg(ws.roots(), Path::new(p)));
    let targets = q.strings("targets");
    // One target goes the one way the tool resolves it, counted or listed: a count and the
    // full answer never disagree, and a target that resolves to nothing is an error.
    if targets.len() > 1 {
        args.insert("targets".into(), json!(targets));
        args.insert("countOnly".into(), true.into());
    } else if let Some(t) = targets.first() {
        add_target(&ws, &mut args, t);
    }
    let answer = ws.call(q.tool(), args);
    // Files the binder could not bind fully: their references may be missing.
    if let Ok(a) = &answer {
        for f in a.value["incomplete"].as_array().into_iter().flatten().filter_map(Value::as_str) {
            eprintln!("warning: {f}");
        }
    }
    finish(&ws, answer, q.out, false, |_| false)
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

/// A navigation command on its `target` ([`add_target`]): `callers`, `callees`, `hierarchy`,
/// `impls`.
pub fn on_target<S: Spec>(q: Query<S>) -> anyhow::Result<ExitCode> {
    let ws = Session::open(&q.ws, q.tool())?;
    let mut args = q.arguments(&|p| file_arg(ws.roots(), Path::new(p)));
    if let Some(t) = q.strings("target").first() {
        add_target(&ws, &mut args, t);
    }
    finish(&ws, ws.call(q.tool(), args), q.out, false, |_| false)
}

/// `affected`: affected_tests of targets, or of the changes since HEAD.
pub fn affected(q: Query<Affected>) -> anyhow::Result<ExitCode> {
    let ws = Session::open(&q.ws, q.tool())?;
    let mut args = q.arguments(&|p| file_arg(ws.roots(), Path::new(p)));
    if !args.contains_key("targets") {
        let files: Vec<String> = q.strings("changed").iter().map(|f| file_arg(ws.roots(), Path::new(f))).collect();
        args.insert("changed".into(), if files.is_empty() { true.into() } else { json!(files) });
    }
    let answer = ws.call(q.tool(), args);
    finish(&ws, answer, q.out, false, |_| false)
}

/// `deps`: a type by name, or a `.java` file's.
pub fn deps(q: Query<Deps>) -> anyhow::Result<ExitCode> {
    let ws = Session::open(&q.ws, q.tool())?;
    let mut args = q.arguments(&|p| file_arg(ws.roots(), Path::new(p)));
    let target = q.strings("target").pop().unwrap_or_default();
    if target.ends_with(".java") {
        args.insert("filePath".into(), file_arg(ws.roots(), Path::new(&target)).into());
    } else {
        args.insert("type".into(), target.into());
    }
    finish(&ws, ws.call(q.tool(), args), q.out, false, |_| false)
}

/// `problems`: get_problems until every file is checked; exits 1 when an error is listed.
pub fn problems(q: Query<Problems>) -> anyhow::Result<ExitCode> {
    let ws = open(&q.ws)?;
    let mut args = q.arguments(&|p| file_arg(ws.roots().paths(), Path::new(p)));
    if let Some(r) = q.strings("lines").pop() {
        let (s, e) = r.split_once('-').unwrap_or((&r, &r));
        let n = |x: &str| x.trim().parse::<u32>().map_err(|_| anyhow::anyhow!("invalid --lines `{r}`; use START-END"));
        args.insert("lineRange".into(), json!({"start": n(s)?, "end": n(e)?}));
    }
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
    finish(&Session::local(ws), answer, q.out, q.switch("compact"), errors)
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
            answer = registry::dispatch(&ws, "get_test_results", Map::from_iter([("runId".to_owned(), run_id)]));
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

/// `test`: run_tests, waited for.
pub fn test(q: Query<Test>) -> anyhow::Result<ExitCode> {
    let mut args = q.arguments(&|p| p.to_owned());
    args.insert("properties".into(), flags::defines(&q.strings("define"))?.into());
    args.insert("fast".into(), (!q.switch("maven")).into());
    build_run(&q.ws, q.tool(), args, q.out)
}

/// `mvn`: maven_goal, waited for.
pub fn mvn(q: Query<Mvn>) -> anyhow::Result<ExitCode> {
    let mut args = q.arguments(&|p| p.to_owned());
    args.insert("properties".into(), flags::defines(&q.strings("define"))?.into());
    build_run(&q.ws, q.tool(), args, q.out)
}
