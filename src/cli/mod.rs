//! The command line: `index`, `range`, `javadoc` for humans and scripts, JSON on stdout,
//! messages on stderr, non-zero exit on bad input.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use rayon::prelude::*;

use crate::config::{Config, Flags};
use crate::model::OutlineOptions;
use crate::tools::find::{FindResourceArgs, FindTypeArgs};
use crate::tools::java_index::{IndexOptions, apply_options};
use crate::tools::read_javadoc::{JavadocOptions, read_javadoc};
use crate::tools::read_range::{RangeOptions, read_range};
use crate::tools::workspace::Workspace;
use crate::tools::xref::ShowDefinitionArgs;
use crate::tools::{ToolError, require_java};

pub mod completions;
pub mod doctor;
pub mod setup;

#[derive(Debug, Parser)]
#[command(
    name = "mcp-java-index",
    version,
    propagate_version = true,
    about = "IDE-grade navigation of Java code for LLM agents: an MCP server and CLI"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve MCP over stdio (for Claude Code, VS Code, Cursor, any MCP client), or over the
    /// network for many clients (--http, --tcp, --shared).
    Serve(ServeArgs),
    /// Index a project as `serve` does, or outline Java files (exact line ranges).
    ///
    /// A directory is indexed as a workspace root (as `serve --root DIR`): its declarations are
    /// kept in its cache, so a server or CLI query on it starts warm; prints a JSON summary.
    /// One file prints its java_index JSON; several files, or --outlines, print JSON Lines,
    /// one outline per file, in path order.
    Index(IndexArgs),
    /// Print lines START..=END of a file (java_read_range).
    Range(RangeArgs),
    /// Print the javadoc block of a symbol (java_read_javadoc).
    Javadoc(JavadocArgs),
    /// Find types, methods and fields by name across the workspace (java_find_symbol).
    Find(FindArgs),
    /// Find types by name, camelCase, wildcard or package pattern (find_type).
    Types(TypesArgs),
    /// Find any workspace file by name, camelCase or glob (find_resource).
    Resources(ResourcesArgs),
    /// Every reference to a type, method, constructor or field (find_references).
    Refs(RefsArgs),
    /// The types a type depends on, by package, with violations and cycles (analyze_type_dependencies).
    Deps(DepsArgs),
    /// Where a name is defined (show_definition).
    Def(DefArgs),
    /// Syntax and javac problems of Java files or directories (get_problems).
    ///
    /// Prints the get_problems JSON; waits until every file is checked. Exits 1 when an
    /// Error-severity problem is listed.
    Problems(ProblemsCliArgs),
    /// Call any tool by name with JSON arguments, as an MCP client would; prints its text.
    ///
    /// `mcp-java-index tools` lists the names. Exits 1 on a tool error.
    Call(CallArgs),
    /// List every tool with its title and annotations (the registry the server serves).
    Tools,
    /// Print the effective configuration and where each value came from.
    Config(ConfigArgs),
    /// Inspect or clear the outline cache.
    Cache {
        #[command(subcommand)]
        action: CacheAction,
        #[command(flatten)]
        ws: WorkspaceFlags,
    },
    /// Print tree-sitter's syntax tree of a file with 1-based lines (for debugging the parser).
    #[command(hide = true)]
    Tree {
        file: PathBuf,
        /// Deepest level printed
        #[arg(long, default_value_t = 6)]
        depth: usize,
    },
    /// Run tests through the project's build (run_tests) and wait for the result.
    ///
    /// Prints the counts and each failure; exits 1 when a test failed, compiling failed, or
    /// nothing ran (an untrusted workspace: pass --trust).
    Test(TestCliArgs),
    /// Run allowlisted Maven goals (maven_goal) and wait; exits 1 when Maven failed.
    Mvn(MvnCliArgs),
    /// MCP on stdio, relayed to this workspace's shared server (started in the background when
    /// none runs; it stops after `shared_idle_secs` without clients). Register it like `serve`.
    Bridge(BridgeArgs),
    /// Register the server with an MCP client for this project (claude-code, vscode, cursor,
    /// codex, gemini): writes the client's project file, merged with what is there.
    ///
    /// `--print` prints the file instead; `--uninstall` removes our entry. An entry of the same
    /// name that is not ours is never replaced or removed.
    Setup(setup::SetupArgs),
    /// What this installation finds (JDK, Maven, Gradle, editors, cache, trust, clients) and
    /// what each finding means; exits 1 when the server cannot serve here.
    Doctor(doctor::DoctorArgs),
    /// Print a shell completion script.
    ///
    /// bash: `mcp-java-index completions bash > ~/.local/share/bash-completion/completions/mcp-java-index`;
    /// zsh: into a directory on $fpath as `_mcp-java-index`; fish: `~/.config/fish/completions/mcp-java-index.fish`;
    /// PowerShell: `mcp-java-index completions powershell | Out-String | Invoke-Expression` in $PROFILE.
    Completions(completions::CompletionsArgs),
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
    /// Print the JSON answer instead of the text
    #[arg(long)]
    pub json: bool,
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
    /// Print the JSON answer instead of the text
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

fn defines(d: &[String]) -> anyhow::Result<std::collections::BTreeMap<String, String>> {
    d.iter()
        .map(|kv| {
            kv.split_once('=')
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .ok_or_else(|| anyhow::anyhow!("-D {kv}: give KEY=VALUE"))
        })
        .collect()
}

/// `test` and `mvn`: a command line has no client timeout, so it waits for the run's end.
fn build_run(
    ws_flags: &WorkspaceFlags,
    json: bool,
    start: impl FnOnce(&Workspace) -> Result<crate::tools::build::RunResult, ToolError>,
) -> anyhow::Result<ExitCode> {
    use crate::build::runs::Status;
    use crate::tools::build::{TestResultsArgs, render_run};
    let config = ws_flags.config()?;
    init_logging(&config.log_level);
    let ws = Workspace::open(config)?;
    let mut r = start(&ws)?;
    while r.status == Some(Status::Running) {
        r = crate::tools::tool::get_test_results::run(
            &ws,
            &TestResultsArgs { run_id: r.run_id.clone(), cancel: false },
        )?;
    }
    if json {
        print_json(&r, false)?;
    } else {
        write!(std::io::stdout().lock(), "{}", render_run(&r))?;
    }
    let bad = !r.ran
        || r.exit_code != Some(0)
        || !r.failures.is_empty()
        || !r.compile_errors.is_empty()
        || r.status != Some(Status::Finished);
    Ok(if bad { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// What `cache` does.
#[derive(Debug, Subcommand)]
pub enum CacheAction {
    /// Entries, size and location of each root's cache.
    Stats,
    /// Remove every cached outline.
    Clear,
}

/// Settings shared by every command that opens a workspace: a flag for each configuration key
/// (`mji_config::KEYS`; see `config --reference`), and `-v`.
#[derive(Debug, Clone, Default)]
pub struct WorkspaceFlags(Flags);

impl clap::Args for WorkspaceFlags {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        const HEADING: &str = "Configuration (see `mcp-java-index config --reference`)";
        let verbose = clap::Arg::new("verbose")
            .short('v')
            .long("verbose")
            .action(clap::ArgAction::Count)
            .help("More logs on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides");
        let args = crate::config::KEYS.iter().map(|key| {
            let flag = key.flag();
            let arg = clap::Arg::new(key.name()).long(flag.long).help(flag.help);
            match flag.value_name {
                None => arg.action(clap::ArgAction::SetTrue),
                Some(v) if flag.repeatable => arg.value_name(v).action(clap::ArgAction::Append),
                Some(v) => arg.value_name(v),
            }
        });
        cmd.args(args.chain([verbose]).map(|a| a.global(true).help_heading(HEADING)))
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

impl clap::FromArgMatches for WorkspaceFlags {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let mut flags = Self::default();
        flags.update_from_arg_matches(m)?;
        Ok(flags)
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        let level = match m.get_count("verbose") {
            0 => None,
            1 => Some("info"),
            2 => Some("debug"),
            _ => Some("trace"),
        };
        if let Some(level) = level {
            self.0.give("log_level", vec![level.to_owned()]);
        }
        for key in crate::config::KEYS {
            if key.flag().value_name.is_none() {
                if m.get_flag(key.name()) {
                    self.0.give(key.name(), vec![key.switch_value()]);
                }
            } else if let Some(values) = m.get_many::<String>(key.name()) {
                self.0.give(key.name(), values.cloned().collect());
            }
        }
        Ok(())
    }
}

impl WorkspaceFlags {
    fn config(&self) -> anyhow::Result<Config> {
        let c = Config::load(&self.0, &|k| std::env::var(k).ok())?;
        // Settings the repository tried to set but may not: said on stderr, never stdout.
        for w in &c.ignored {
            eprintln!("warning: {w}");
        }
        Ok(c)
    }
}

#[derive(Debug, Args)]
pub struct ConfigArgs {
    /// Print the reference table of every key (README's) instead
    #[arg(long)]
    pub reference: bool,
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
    /// Print the structured JSON instead of the tool's text
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

/// Which page of a search's results to print.
#[derive(Debug, Args)]
pub struct ResultPage {
    #[arg(long, default_value_t = 50)]
    pub max_results: u32,
    #[arg(long, default_value_t = 0)]
    pub offset: u32,
}

#[derive(Debug, Args)]
pub struct FindArgs {
    /// Name, prefix, camelCase initials (gSV), substring, wildcard, or Type#member
    #[arg(long)]
    pub query: String,
    /// Directory to search under (default: the root)
    #[arg(long, default_value = ".")]
    pub root_dir: String,
    /// class, method, field or any
    #[arg(long, default_value = "any")]
    pub match_kind: String,
    #[arg(long)]
    pub case_sensitive: bool,
    #[command(flatten)]
    pub page: ResultPage,
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

#[derive(Debug, Args)]
pub struct TypesArgs {
    /// Type name, prefix, camelCase (NPE), wildcard (*Map) or package pattern (java.util.*Map)
    pub pattern: String,
    /// class, interface, enum, record, annotation or any
    #[arg(long, default_value = "any")]
    pub kind: String,
    #[command(flatten)]
    pub page: ResultPage,
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
    /// Only files matching these globs (repeatable)
    #[arg(long = "path")]
    pub paths: Vec<String>,
    #[arg(long, default_value_t = 100)]
    pub limit: u32,
    #[arg(long, default_value_t = 0)]
    pub offset: u32,
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

#[derive(Debug, Args)]
pub struct ProblemsCliArgs {
    /// .java files or directories (default: the whole workspace)
    pub paths: Vec<String>,
    /// Severities to list: Error, Warning, Information, Hint (repeatable or comma-separated)
    #[arg(long = "severity", value_delimiter = ',')]
    pub severity: Vec<String>,
    /// Sources to run: syntax, javac (repeatable or comma-separated; default both)
    #[arg(long = "source", value_delimiter = ',')]
    pub source: Vec<String>,
    /// Only problems starting on lines START-END (1-based, inclusive)
    #[arg(long, value_name = "START-END")]
    pub lines: Option<String>,
    #[arg(long, default_value_t = 100)]
    pub limit: u32,
    #[arg(long, default_value_t = 0)]
    pub offset: u32,
    /// Print one-line JSON
    #[arg(long)]
    pub compact: bool,
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
    #[arg(long, default_value_t = 3)]
    pub max_depth: u32,
    #[arg(long, default_value_t = 200)]
    pub limit: u32,
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

#[derive(Debug, Args)]
pub struct DefArgs {
    /// Bar, doThing, Bar.doThing, com.foo.Bar#count
    pub symbol: String,
    /// The file where the name is used (ranks candidates; with --line resolves exactly)
    #[arg(long)]
    pub file: Option<String>,
    #[arg(long)]
    pub line: Option<u32>,
    #[arg(long)]
    pub column: Option<u32>,
    #[arg(long, default_value_t = 20)]
    pub limit: u32,
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

/// Splits `FILE:LINE[:COLUMN]` (a position) from a target name.
/// `problems`: get_problems on the command line; exits 1 when an error is listed.
fn problems(a: ProblemsCliArgs) -> anyhow::Result<ExitCode> {
    use crate::tools::problems::{LineRange, ProblemsArgs};
    let config = a.ws.config()?;
    init_logging(&config.log_level);
    let ws = Workspace::open(config)?;
    for w in ws.warnings() {
        eprintln!("warning: {w}");
    }
    let line_range = match &a.lines {
        None => LineRange::default(),
        Some(r) => {
            let (s, e) = r.split_once('-').unwrap_or((r, r));
            let n =
                |x: &str| x.trim().parse::<u32>().map_err(|_| anyhow::anyhow!("invalid --lines `{r}`; use START-END"));
            LineRange { start: n(s)?, end: n(e)? }
        }
    };
    let args = ProblemsArgs {
        paths: a.paths.clone(),
        severity_filter: a.severity.iter().map(|s| parse_enum("severity", s)).collect::<anyhow::Result<_>>()?,
        line_range,
        source_filter: a.source.iter().map(|s| parse_enum("source", s)).collect::<anyhow::Result<_>>()?,
        limit: a.limit,
        offset: a.offset,
        open: false,
    };
    // A command line has no client timeout: ask again until the background work is done.
    let mut result = crate::tools::tool::get_problems::run(&ws, &args)?;
    while !result.complete {
        result = crate::tools::tool::get_problems::run(&ws, &args)?;
    }
    print_json(&result, a.compact)?;
    let errors = result.diagnostics.iter().any(|d| d.severity == crate::problems::Severity::Error);
    let cache_written = flushed(&ws) == ExitCode::SUCCESS;
    Ok(if errors || !cache_written { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// `call TOOL JSON`: one registry call, the way the server makes it.
fn call(a: CallArgs) -> anyhow::Result<ExitCode> {
    let Some(entry) = crate::tools::registry::find(&a.tool) else {
        let names: Vec<&str> = crate::tools::registry::registry().iter().map(|e| e.spec.name).collect();
        anyhow::bail!("unknown tool `{}`; the tools are: {}", a.tool, names.join(", "));
    };
    let args = match serde_json::from_str::<serde_json::Value>(&a.arguments) {
        Ok(serde_json::Value::Object(m)) => m,
        Ok(_) => anyhow::bail!("the arguments must be a JSON object, e.g. '{{\"filePath\": \"A.java\"}}'"),
        Err(e) => anyhow::bail!("the arguments are not valid JSON: {e}"),
    };
    let ws = if entry.needs_index {
        indexed_workspace(&a.ws)?
    } else {
        let config = a.ws.config()?;
        init_logging(&config.log_level);
        Workspace::open(config)?
    };
    let answer = entry.call(&ws, args);
    let cache_code = flushed(&ws);
    match answer {
        Ok(answer) => {
            let mut out = std::io::stdout().lock();
            if a.json {
                serde_json::to_writer_pretty(&mut out, &answer.value)?;
                writeln!(out)?;
            } else {
                writeln!(out, "{}", answer.text())?;
            }
            Ok(cache_code)
        }
        Err(e) => {
            eprintln!("error: {e}");
            Ok(ExitCode::from(1))
        }
    }
}

/// Opens the workspace and indexes it on this thread.
fn indexed_workspace(flags: &WorkspaceFlags) -> anyhow::Result<Workspace> {
    let config = flags.config()?;
    init_logging(&config.log_level);
    let ws = Workspace::open(config)?;
    for w in ws.warnings() {
        eprintln!("warning: {w}");
    }
    ws.build_index();
    ws.flush();
    let problems = ws.index().problems();
    if problems.count > 0 {
        eprintln!("warning: {} file(s) could not be indexed, e.g. {}", problems.count, problems.samples.join("; "));
    }
    Ok(ws)
}

fn parse_enum<T: serde::de::DeserializeOwned>(what: &str, value: &str) -> anyhow::Result<T> {
    serde_json::from_value(serde_json::Value::String(value.to_owned()))
        .map_err(|_| anyhow::anyhow!("invalid {what} `{value}`; see --help for the accepted values"))
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Serve MCP Streamable HTTP at PORT (on 127.0.0.1) or ADDR:PORT; 0 picks a free port
    #[arg(long, value_name = "[ADDR:]PORT", value_parser = socket_addr)]
    pub http: Option<std::net::SocketAddr>,
    /// Serve newline-delimited JSON-RPC over TCP at PORT (on 127.0.0.1) or ADDR:PORT; each
    /// connection's first line is `Bearer <token>`
    #[arg(long, value_name = "[ADDR:]PORT", value_parser = socket_addr)]
    pub tcp: Option<std::net::SocketAddr>,
    /// Serve as this workspace's shared server for `bridge` clients (TCP on a free loopback port
    /// unless --tcp), stopping after `shared_idle_secs` without clients
    #[arg(long)]
    pub shared: bool,
    /// Allow --http or --tcp on an address other than loopback (needs --token-file)
    #[arg(long)]
    pub allow_remote: bool,
    /// A host name HTTP clients may use besides loopback and the bound address (repeatable;
    /// for --allow-remote, e.g. the machine's DNS name)
    #[arg(long, value_name = "NAME")]
    pub allowed_host: Vec<String>,
    /// The token clients must send (an owner-only file); default created once in
    /// $XDG_STATE_HOME/mcp-java-index/token (else ~/.local/state/…)
    #[arg(long, value_name = "PATH")]
    pub token_file: Option<PathBuf>,
    /// Write this server's own logs to PATH instead of stderr, capped (past 8 MiB the older
    /// part moves to PATH.1); a network server with `log_file` logs there too
    #[arg(long, value_name = "PATH")]
    pub server_log: Option<PathBuf>,
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

#[derive(Debug, Args)]
pub struct BridgeArgs {
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

/// `8080` (on 127.0.0.1) or `ADDR:PORT`.
fn socket_addr(s: &str) -> Result<std::net::SocketAddr, String> {
    if let Ok(port) = s.parse::<u16>() {
        return Ok(std::net::SocketAddr::from(([127, 0, 0, 1], port)));
    }
    s.parse().map_err(|_| format!("`{s}` is neither a port nor ADDR:PORT (127.0.0.1:8080, [::1]:8080)"))
}

#[derive(Debug, Args)]
pub struct IndexArgs {
    /// .java files or directories (walked recursively, skipping ignored and build directories)
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub options: IndexFlags,
    /// Print one-line JSON even for a single file
    #[arg(long)]
    pub compact: bool,
    /// Print a JSON summary (files, parsed, cacheHits, cacheMisses, errors, elapsedMs) as the
    /// last line on stderr
    #[arg(long)]
    pub stats: bool,
    /// Print every file's outline (JSON Lines) for directories too, instead of indexing them
    /// (a full parse of every file: slower than the index)
    #[arg(long)]
    pub outlines: bool,
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

#[derive(Debug, Args)]
pub struct IndexFlags {
    /// Include private members and nested types
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, value_name = "BOOL")]
    pub include_private: bool,
    /// Include fields
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, value_name = "BOOL")]
    pub include_fields: bool,
    /// Include nested types
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, value_name = "BOOL")]
    pub include_inner_classes: bool,
    /// Include constructors
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, value_name = "BOOL")]
    pub include_constructors: bool,
    /// Add javadoc previews cut to this many characters (0: none)
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub max_javadoc_preview_chars: u32,
    /// Stable symbolIds (false: short positional ids such as @3)
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, value_name = "BOOL")]
    pub stable_ids: bool,
}

impl From<&IndexFlags> for IndexOptions {
    fn from(f: &IndexFlags) -> Self {
        IndexOptions {
            include_private: f.include_private,
            include_fields: f.include_fields,
            include_inner_classes: f.include_inner_classes,
            include_constructors: f.include_constructors,
            max_javadoc_preview_chars: f.max_javadoc_preview_chars,
            stable_ids: f.stable_ids,
            ..IndexOptions::default()
        }
    }
}

#[derive(Debug, Args)]
pub struct RangeArgs {
    pub file: PathBuf,
    /// First line, 1-based, inclusive
    pub start: u32,
    /// Last line, 1-based, inclusive
    pub end: u32,
    /// Prefix lines with their numbers
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, value_name = "BOOL")]
    pub include_line_numbers: bool,
    /// Hard cap on output characters
    #[arg(long, default_value_t = crate::tools::read_range::DEFAULT_MAX_CHARS, value_name = "N")]
    pub max_chars: u32,
}

#[derive(Debug, Args)]
pub struct JavadocArgs {
    pub file: PathBuf,
    /// A symbolId from `index` (e.g. 'Method#com.foo.Bar#doThing(int):void|start:70|end:120')
    pub symbol_id: String,
    /// Prefix lines with their numbers
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, value_name = "BOOL")]
    pub include_line_numbers: bool,
    /// Hard cap on output characters
    #[arg(long, default_value_t = 8000, value_name = "N")]
    pub max_chars: u32,
}

/// Logs go to stderr (stdout is the protocol/data channel); RUST_LOG overrides the level.
fn init_logging(level: &str) {
    init_logging_to(level, None);
}

/// Logs go to `file` when given (a network server's capped log), else to stderr.
fn init_logging_to(level: &str, file: Option<crate::mcp_server::logfile::LogFile>) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(level));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_target(false);
    let _ = match file {
        Some(f) => builder.with_writer(move || f.clone()).with_ansi(false).try_init(),
        None => {
            // Colour only for a terminal: a client's log file or pipe gets plain text.
            let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
            builder.with_writer(std::io::stderr).with_ansi(ansi).try_init()
        }
    };
}

/// Entry point of the binary.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}

/// `range` and `javadoc` read the file they are given under the server's secrets policy
/// (`mji_fs::secrets`, with the `read_allow` and `read_deny` of the configuration here; the
/// built-in patterns alone when it does not load): judged on the path relative to the current
/// directory, or the whole path outside it, as named and as its link target.
fn refuse_secret(file: &Path) -> anyhow::Result<()> {
    let (allow, deny) = match Config::load(&Flags::default(), &|k| std::env::var(k).ok()) {
        Ok(c) => (c.read_allow, c.read_deny),
        Err(_) => (Vec::new(), Vec::new()),
    };
    let (policy, _) = mji_fs::secrets::ReadPolicy::new(&allow, &deny);
    let cwd = std::env::current_dir()?;
    let named = mji_fs::lexical_normalize(&cwd.join(file));
    let real = std::fs::canonicalize(file).ok();
    let real_cwd = std::fs::canonicalize(&cwd).unwrap_or_else(|_| cwd.clone());
    for (path, base) in std::iter::once((named, &cwd)).chain(real.map(|r| (r, &real_cwd))) {
        let rel = path.strip_prefix(base).unwrap_or(&path);
        if let Some(refusal) = policy.refusal(rel) {
            anyhow::bail!("{} {refusal}", mji_fs::clip(&file.to_string_lossy()));
        }
    }
    Ok(())
}

fn display(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

fn print_json<T: serde::Serialize>(value: &T, compact: bool) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    if compact {
        serde_json::to_writer(&mut out, value)?;
    } else {
        serde_json::to_writer_pretty(&mut out, value)?;
    }
    writeln!(out)?;
    Ok(())
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Serve(args) => serve(args),
        Command::Bridge(args) => bridge(args),
        Command::Setup(a) => setup::run(a),
        Command::Doctor(a) => doctor::run(a),
        Command::Completions(a) => completions::run(a),
        Command::Call(a) => call(a),
        Command::Tools => {
            let mut out = std::io::stdout().lock();
            for e in crate::tools::registry::registry() {
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
        Command::Config(ConfigArgs { reference: true, .. }) => {
            write!(std::io::stdout().lock(), "{}", crate::config::reference())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Config(a) => {
            let config = a.ws.config()?;
            print_json(&config.report(), false)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Cache { action, ws } => {
            let config = ws.config()?;
            let workspace = Workspace::open(config)?;
            for w in workspace.warnings() {
                eprintln!("warning: {w}");
            }
            let infos: Vec<_> = (0..workspace.roots().paths().len()).map(|i| workspace.cache(i).info()).collect();
            match action {
                CacheAction::Stats => print_json(&infos, false)?,
                CacheAction::Clear => {
                    for i in 0..workspace.roots().paths().len() {
                        workspace.cache(i).clear()?;
                    }
                    eprintln!("cleared {} cache(s)", infos.len());
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Index(args) => index(args),
        Command::Problems(args) => problems(args),
        Command::Find(a) => {
            let args = crate::tools::find::FindSymbolArgs {
                root_dir: a.root_dir.clone(),
                query: a.query.clone(),
                options: crate::tools::find::FindSymbolOptions {
                    match_kind: parse_enum("match kind", &a.match_kind)?,
                    max_results: a.page.max_results,
                    case_sensitive: a.case_sensitive,
                    offset: a.page.offset,
                    scope: crate::tools::find::Scope::Workspace,
                },
            };
            query(&a.ws, &args, crate::tools::tool::java_find_symbol::run)
        }
        Command::Types(a) => {
            let kind = parse_enum("kind", &a.kind)?;
            let (max_results, offset) = (a.page.max_results, a.page.offset);
            let args = FindTypeArgs {
                pattern: a.pattern.clone(),
                kind,
                max_results,
                offset,
                case_sensitive: false,
                scope: Default::default(),
                root: String::new(),
            };
            query(&a.ws, &args, crate::tools::tool::find_type::run)
        }
        Command::Resources(a) => {
            let (max_results, offset) = (a.page.max_results, a.page.offset);
            let args = FindResourceArgs { pattern: a.pattern.clone(), max_results, offset, root: String::new() };
            query(&a.ws, &args, crate::tools::tool::find_resource::run)
        }
        Command::Refs(a) => {
            let mut args = crate::tools::xref::FindReferencesArgs {
                count_only: a.count_only,
                include_declaration: a.include_declaration,
                include_overriders: a.include_overriders,
                paths: a.paths.clone(),
                limit: a.limit,
                offset: a.offset,
                ..Default::default()
            };
            // One target goes the one way the tool resolves it, counted or listed: a count and
            // the full answer never disagree, and a target that resolves to nothing is an error.
            if a.targets.len() > 1 {
                args.targets = a.targets.clone();
                args.count_only = true;
            } else if let Some((file, line, column)) = crate::tools::xref::position_of(&a.targets[0]) {
                args.file_path = file;
                args.line = line;
                args.column = column.unwrap_or(0);
            } else {
                args.target = a.targets[0].clone();
            }
            query(&a.ws, &args, |ws, args| {
                let answer = crate::tools::tool::find_references::run(ws, args);
                // Files the binder could not bind fully: their references may be missing.
                for f in answer.iter().flat_map(|r| &r.incomplete) {
                    eprintln!("warning: {f}");
                }
                answer
            })
        }
        Command::Deps(a) => {
            let is_file = a.target.ends_with(".java");
            let (type_name, file_path) =
                if is_file { (String::new(), a.target.clone()) } else { (a.target.clone(), String::new()) };
            let args = crate::tools::xref::DependenciesArgs {
                type_name,
                file_path,
                excluded_packages: a.excluded_packages.clone(),
                transitive: a.transitive,
                max_depth: a.max_depth,
                limit: a.limit,
            };
            query(&a.ws, &args, crate::tools::tool::analyze_type_dependencies::run)
        }
        Command::Def(a) => {
            let (file_path, line, column) =
                (a.file.clone().unwrap_or_default(), a.line.unwrap_or(0), a.column.unwrap_or(0));
            let args = ShowDefinitionArgs {
                symbol: a.symbol.clone(),
                file_path,
                line,
                column,
                limit: a.limit,
                ..Default::default()
            };
            query(&a.ws, &args, crate::tools::tool::show_definition::run)
        }
        Command::Range(a) => {
            let opts = RangeOptions { include_line_numbers: a.include_line_numbers, max_chars: a.max_chars };
            refuse_secret(&a.file)?;
            let r = read_range(&a.file, &display(&a.file), a.start, a.end, &opts)?;
            print_json(&r, false)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Tree { file, depth } => {
            let bytes = crate::tools::read_file(&file, &display(&file))?;
            let src = crate::parser::SourceText::decode(&bytes);
            let prep = crate::parser::Prepared::new(&src.text);
            let tree = crate::parser::parse_tree(&prep.text).ok_or_else(|| anyhow::anyhow!("the parser gave up"))?;
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            let mut stack = vec![(tree.root_node(), 0usize)];
            while let Some((n, d)) = stack.pop() {
                let (s, e) = (
                    src.lines.line_of(prep.to_original(n.start_byte())),
                    src.lines.line_of(prep.to_original(n.end_byte().saturating_sub(1))),
                );
                let flag = if n.is_missing() { " MISSING" } else { "" };
                writeln!(out, "{}{} {s}-{e}{flag}", "  ".repeat(d), n.kind())?;
                if d < depth {
                    let mut c = n.walk();
                    let kids: Vec<_> = n.children(&mut c).collect();
                    stack.extend(kids.into_iter().rev().map(|k| (k, d + 1)));
                }
            }
            out.flush()?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Javadoc(a) => {
            let opts = JavadocOptions { include_line_numbers: a.include_line_numbers, max_chars: a.max_chars };
            refuse_secret(&a.file)?;
            let r = read_javadoc(&a.file, &display(&a.file), &a.symbol_id, &opts)?;
            print_json(&r, false)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Test(a) => {
            let args = crate::tools::build::RunTestsArgs {
                target: a.target.clone(),
                offline: a.offline,
                properties: defines(&a.define)?,
                fast: !a.maven,
            };
            build_run(&a.ws, a.json, |ws| crate::tools::tool::run_tests::run(ws, &args))
        }
        Command::Mvn(a) => {
            let args = crate::tools::build::MavenGoalArgs {
                goals: a.goals.clone(),
                profiles: a.profiles.clone(),
                properties: defines(&a.define)?,
                offline: a.offline,
                module: a.module.clone(),
            };
            build_run(&a.ws, a.json, |ws| crate::tools::tool::maven_goal::run(ws, &args))
        }
    }
}

fn serve(args: ServeArgs) -> anyhow::Result<ExitCode> {
    use crate::mcp_server::{logfile::LogFile, transport::MessageLog};
    let config = args.ws.config()?;
    let network = args.http.is_some() || args.tcp.is_some() || args.shared;
    // A network server outlives its terminal (a daemon's stderr goes nowhere): its logs go to
    // `--server-log`, else `log_file`, capped and rotated.
    let log_path = args.server_log.clone().or_else(|| config.log_file.clone().filter(|_| network));
    // A path the repository chose stays inside the roots, and failing to open it never stops
    // the server; the user's own path may point anywhere and fails fast.
    let repo_log = config.confinement("log_file");
    let confine = if args.server_log.is_some() { None } else { repo_log };
    let server_log = match &log_path {
        Some(p) => match LogFile::open_confined(p, confine) {
            Ok(l) => Some(l),
            Err(e) if confine.is_some() => {
                eprintln!("warning: not logging to {} (set by the repository): {e}", p.display());
                None
            }
            Err(e) => anyhow::bail!("opening log file {}: {e}", p.display()),
        },
        None => None,
    };
    init_logging_to(&config.log_level, server_log.clone());
    if let Some(p) = &log_path {
        eprintln!("log: {} (past 8 MiB the older part moves to {})", p.display(), LogFile::rotated_path(p).display());
    }
    // The listeners are bound before the workspace opens: a refused address fails at once.
    let net = if network {
        // TCP messages are recorded only where `log_file` says, in the same file when it is that.
        let messages = match (&config.log_file, &server_log) {
            (Some(f), Some(l)) if log_path.as_ref() == Some(f) => MessageLog::to(l.clone()),
            (f, _) => match MessageLog::open(f.as_deref(), repo_log) {
                Ok(m) => m,
                Err(e) if repo_log.is_some() => {
                    eprintln!("warning: not recording messages (log_file set by the repository): {e}");
                    MessageLog::default()
                }
                Err(e) => anyhow::bail!("opening log file: {e}"),
            },
        };
        Some(bind_network(&args, &config, messages)?)
    } else {
        None
    };
    if let Some(crate::mcp_server::Network { shared: Some((path, _)), .. }) = &net
        && let Some(other) = crate::mcp_server::shared::running(path)
    {
        eprintln!("a shared server (pid {}) already serves this workspace at {}", other.pid, other.tcp);
        return Ok(ExitCode::SUCCESS);
    }
    let ws = Workspace::open(config)?;
    for w in ws.warnings() {
        tracing::warn!("{w}");
    }
    ws.start_index();
    if !network {
        tracing::info!(roots = ?ws.roots().paths(), "serving MCP on stdio");
    }
    // Calls run on blocking threads, bounded by the call pool; stdin and stdout take one each.
    // The cap keeps a loaded machine (slow blocking threads) from growing the pool further.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(crate::mcp_server::max_running_calls() + 8)
        .build()?;
    let ws = std::sync::Arc::new(ws);
    if ws.config().warm_references {
        let warm = ws.clone();
        let spawned = std::thread::Builder::new().name("xref-warm".to_owned()).spawn(move || {
            warm.keep_references(std::time::Duration::from_secs(5), &release_freed_memory);
        });
        if let Err(e) = spawned {
            tracing::warn!("references are bound on demand: cannot start a thread ({e})");
        }
    }
    match net {
        Some(net) => runtime.block_on(crate::mcp_server::serve_network(ws.clone(), net))?,
        None => runtime.block_on(crate::mcp_server::serve_stdio(ws.clone()))?,
    }
    // Blocking tasks still running (a long call whose client left) are not waited for.
    runtime.shutdown_timeout(std::time::Duration::from_millis(200));
    // What the reference keeper bound since its last write is kept for the next start.
    ws.persist_references();
    Ok(ExitCode::SUCCESS)
}

/// Gives the pages the allocator holds free back to the system. glibc's malloc returns only
/// the top of each arena by itself: what a binding pass frees (each file's temporaries, the
/// references it moved to disk, the memos it derived) stays resident between the allocations
/// that live on (on the JDK: 500 MB after the pass, 310 MB of it in use).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
fn release_freed_memory() {
    // SAFETY: `malloc_trim` takes no pointer and has no precondition; glibc serializes it
    // with every other allocator call.
    let released = unsafe { libc::malloc_trim(0) } == 1;
    tracing::debug!(released, "gave freed memory back to the system");
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn release_freed_memory() {}

/// Binds the network listeners `serve` was asked for and loads (or creates) the token. Where
/// each listens and where the token is are said on stderr.
fn bind_network(
    args: &ServeArgs,
    config: &Config,
    log: crate::mcp_server::transport::MessageLog,
) -> anyhow::Result<crate::mcp_server::Network> {
    use crate::mcp_server::{http::check_bind, secret, shared};
    let token_path = match &args.token_file {
        Some(p) => p.clone(),
        None => secret::default_token_path()
            .ok_or_else(|| anyhow::anyhow!("no state directory (set XDG_STATE_HOME or HOME), or pass --token-file"))?,
    };
    let (token, created) = secret::load_or_create_token(&token_path).map_err(|e| anyhow::anyhow!(e))?;
    let bind = |addr: std::net::SocketAddr, what: &str| -> anyhow::Result<std::net::TcpListener> {
        check_bind(addr, args.allow_remote, args.token_file.is_some()).map_err(|e| anyhow::anyhow!("--{what}: {e}"))?;
        std::net::TcpListener::bind(addr).map_err(|e| anyhow::anyhow!("--{what}: binding {addr}: {e}"))
    };
    let http = args.http.map(|a| bind(a, "http")).transpose()?;
    let tcp = match args.tcp {
        Some(a) => Some(bind(a, "tcp")?),
        None if args.shared => Some(bind(std::net::SocketAddr::from(([127, 0, 0, 1], 0)), "tcp")?),
        None => None,
    };
    let shared = if args.shared {
        let roots = shared::canonical_roots(&config.roots);
        let path = shared::registration_path(&roots)
            .ok_or_else(|| anyhow::anyhow!("no runtime directory (set XDG_RUNTIME_DIR or HOME)"))?;
        let idle = (config.shared_idle_secs > 0).then(|| std::time::Duration::from_secs(config.shared_idle_secs));
        Some((path, idle))
    } else {
        None
    };
    let made = if created { "created" } else { "read" };
    eprintln!("token: {made} {} (clients send `Authorization: Bearer <token>`)", token_path.display());
    if let Some(l) = &http {
        eprintln!("listening: MCP Streamable HTTP at http://{}/mcp", l.local_addr()?);
    }
    if let Some(l) = &tcp {
        eprintln!("listening: JSON-RPC lines over TCP at {} (first line `Bearer <token>`)", l.local_addr()?);
    }
    if let Some((path, _)) = &shared {
        eprintln!("shared: registered in {}", path.display());
    }
    Ok(crate::mcp_server::Network { http, tcp, token, shared, allowed_hosts: args.allowed_host.clone(), log })
}

/// `bridge`: stdio relayed to the workspace's shared server, started if none answers.
fn bridge(args: BridgeArgs) -> anyhow::Result<ExitCode> {
    use crate::mcp_server::shared;
    let config = args.ws.config()?;
    init_logging(&config.log_level);
    let roots = shared::canonical_roots(&config.roots);
    let path = shared::registration_path(&roots)
        .ok_or_else(|| anyhow::anyhow!("no runtime directory (set XDG_RUNTIME_DIR or HOME)"))?;
    let log = shared::log_path(&roots);
    let log_for_start = log.clone();
    let start = move || -> anyhow::Result<std::process::Child> {
        let log = log_for_start;
        // The server gets the bridge's own arguments (the same workspace and settings).
        let mut passed: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
        if let Some(i) = passed.iter().position(|a| a == "bridge") {
            passed.remove(i);
        }
        // Its logs (`--server-log`, capped and rotated) and its stderr (what it says before
        // logging starts, a panic) go to one owner-only file, kept across restarts.
        let stderr = match &log {
            Some(p) => {
                if let Some(dir) = p.parent() {
                    crate::mcp_server::secret::private_dir(dir)?;
                }
                std::process::Stdio::from(crate::mcp_server::logfile::open_append(p)?)
            }
            None => std::process::Stdio::null(),
        };
        let mut cmd = std::process::Command::new(std::env::current_exe()?);
        cmd.args(["serve", "--shared"]);
        if let Some(p) = &log {
            cmd.arg("--server-log").arg(p);
        }
        cmd.args(passed).stdin(std::process::Stdio::null()).stdout(std::process::Stdio::null()).stderr(stderr);
        // Its own process group: the client's Ctrl-C or exit does not stop the shared server.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        cmd.spawn().map_err(|e| anyhow::anyhow!("starting the shared server: {e}"))
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    let result = runtime.block_on(shared::bridge(&path, log.as_deref(), start, std::time::Duration::from_secs(60)));
    // The stdin reader may still be blocked in a read: not waited for.
    runtime.shutdown_timeout(std::time::Duration::from_millis(100));
    result?;
    Ok(ExitCode::SUCCESS)
}

/// Counts for `index --stats`.
#[derive(Debug, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct IndexStats {
    files: u64,
    parsed: u64,
    cache_hits: u64,
    cache_misses: u64,
    errors: u64,
    files_with_syntax_errors: u64,
    /// Directories named `target`, `build` or `out` left out as build output, per reason.
    skipped_dirs: crate::tools::find::SkippedDirsStatus,
    elapsed_ms: u64,
}

/// `index DIR...`: what the directories' workspace index holds and how it was built.
#[derive(Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct WorkspaceSummary {
    /// The roots indexed (canonical).
    roots: Vec<PathBuf>,
    /// Java files indexed.
    files: u64,
    /// Types, methods, constructors and fields the index holds (what java_find_symbol searches).
    declarations: u64,
    /// Every file under the roots (what find_resource searches).
    resources: u64,
    /// Java files read and parsed: the snapshot had no entry for their stamp.
    parsed: u64,
    /// Java files taken from the snapshot without reading them.
    cache_hits: u64,
    cache_misses: u64,
    /// Files and directories that could not be read.
    errors: u64,
    /// Java files not indexed: over the size cap or not regular files.
    skipped_files: u64,
    /// Directories left out as build output, per reason.
    skipped_dirs: crate::tools::find::SkippedDirsStatus,
    /// Where the index is kept (none with --no-cache).
    cache_dirs: Vec<PathBuf>,
    elapsed_ms: u64,
}

/// Builds (or refreshes) the workspace index of `dirs` as `serve --root DIR...` would, writing
/// its snapshot to the roots' cache, and prints a summary.
fn index_workspace(mut args: IndexArgs, dirs: Vec<PathBuf>, started: std::time::Instant) -> anyhow::Result<ExitCode> {
    if args.ws.0.has("roots") {
        anyhow::bail!("`index DIR` indexes each DIR as a workspace root: drop --root (or pass --outlines)");
    }
    if OutlineOptions::from(&IndexOptions::from(&args.options)) != OutlineOptions::default() {
        anyhow::bail!("the outline options apply to outlines: pass --outlines to print a directory's outlines");
    }
    args.ws.0.give("roots", dirs.iter().map(|d| d.to_string_lossy().into_owned()).collect());
    let config = args.ws.config()?;
    init_logging(&config.log_level);
    let ws = Workspace::open(config)?;
    for w in ws.warnings() {
        eprintln!("warning: {w}");
    }
    let pass = ws.build_index();
    let code = flushed(&ws);
    let index = ws.index();
    let problems = index.problems();
    for p in &problems.samples {
        eprintln!("warning: {p}");
    }
    if problems.count > problems.samples.len() {
        eprintln!("warning: {} more file(s) or directories could not be read", problems.count - problems.samples.len());
    }
    let status = crate::tools::find::IndexStatus::of(index);
    let (files, declarations, resources) = index.counts();
    let roots = ws.roots().paths().to_vec();
    let summary = WorkspaceSummary {
        cache_dirs: (0..roots.len()).filter_map(|i| ws.cache(i).dir()).collect(),
        roots,
        files: files as u64,
        declarations: declarations as u64,
        resources: resources as u64,
        parsed: pass.parsed as u64,
        cache_hits: pass.from_snapshot as u64,
        cache_misses: pass.parsed as u64,
        errors: problems.count as u64,
        skipped_files: status.skipped_files,
        skipped_dirs: status.skipped_dirs,
        elapsed_ms: started.elapsed().as_millis() as u64,
    };
    print_json(&summary, args.compact)?;
    if args.stats {
        eprintln!("{}", serde_json::to_string(&summary)?);
    }
    Ok(code)
}

fn index(args: IndexArgs) -> anyhow::Result<ExitCode> {
    let started = std::time::Instant::now();
    // A path that is not there is said so (a missing directory was "is not a .java file").
    if let Some(missing) = args.paths.iter().find(|p| std::fs::symlink_metadata(p).is_err()) {
        return Err(ToolError::NotFound(display(missing)).into());
    }
    // Directories are indexed as roots unless outlines are asked for.
    let dirs: Vec<PathBuf> = args.paths.iter().filter(|p| p.is_dir()).cloned().collect();
    if !args.outlines && !dirs.is_empty() {
        if let Some(file) = args.paths.iter().find(|p| !p.is_dir()) {
            anyhow::bail!(
                "{} is not a directory: `index DIR` indexes directories; pass --outlines to print the outlines of files and directories together",
                display(file)
            );
        }
        return index_workspace(args, dirs, started);
    }
    let config = args.ws.config()?;
    init_logging(&config.log_level);
    let ws = Workspace::open(config)?;
    for w in ws.warnings() {
        eprintln!("warning: {w}");
    }
    let cache = ws.cache(0);
    let opts = OutlineOptions::from(&IndexOptions::from(&args.options));
    let defaults = opts == OutlineOptions::default();
    // One outline as JSON: the cached JSON itself when the options are the defaults.
    let one = |path: &Path, d: &str| -> Result<(String, crate::cache::Outcome), ToolError> {
        let io = |e: std::io::Error| ToolError::Io { path: d.to_owned(), source: e };
        if defaults {
            return cache.outline_json(path, d).map_err(io);
        }
        let (outline, outcome) = if opts.max_javadoc_preview_chars > 0 {
            let (c, src) = cache.outline_with_source(path, d).map_err(io)?;
            (apply_options(c.outline, &opts, Some(&src)), c.outcome)
        } else {
            let c = cache.outline(path, d).map_err(io)?;
            (apply_options(c.outline, &opts, None), c.outcome)
        };
        let json =
            serde_json::to_string(&outline).map_err(|e| ToolError::InvalidArgument(format!("serializing: {e}")))?;
        Ok((json, outcome))
    };
    let mut stats = IndexStats::default();
    let count = |outcome: crate::cache::Outcome, json: &str, stats: &mut IndexStats| {
        stats.files += 1;
        match outcome {
            crate::cache::Outcome::Hit => stats.cache_hits += 1,
            crate::cache::Outcome::Miss => {
                stats.cache_misses += 1;
                stats.parsed += 1;
            }
        }
        if json.contains("\"level\":\"error\"") {
            stats.files_with_syntax_errors += 1;
        }
    };
    let finish = |stats: &mut IndexStats| {
        let code = flushed(&ws);
        if args.stats {
            stats.elapsed_ms = started.elapsed().as_millis() as u64;
            eprintln!("{}", serde_json::to_string(stats).unwrap_or_default());
        }
        code
    };
    // A single file argument prints one JSON document.
    if let [single] = args.paths.as_slice()
        && !single.is_dir()
    {
        let d = display(single);
        require_java(single, &d)?;
        crate::tools::read_file_checked(single, &d)?;
        let (json, outcome) = one(single, &d)?;
        count(outcome, &json, &mut stats);
        if args.compact {
            println!("{json}");
        } else {
            let v: serde_json::Value = serde_json::from_str(&json)?;
            print_json(&v, false)?;
        }
        return Ok(finish(&mut stats));
    }
    let mut files = Vec::new();
    for p in &args.paths {
        if !p.exists() {
            return Err(ToolError::NotFound(display(p)).into());
        }
        let walked = crate::index::walk::java_files(p);
        for msg in &walked.problems {
            eprintln!("warning: {msg}");
        }
        stats.errors += walked.problems.len() as u64;
        let s = walked.skipped;
        if s.total() > 0 {
            eprintln!(
                "note: {} build-output director{} not indexed under {} (maven {}, gradle {}, ide {}, output markers {})",
                s.total(),
                if s.total() == 1 { "y" } else { "ies" },
                p.display(),
                s.maven,
                s.gradle,
                s.ide,
                s.markers
            );
        }
        let k = &mut stats.skipped_dirs;
        k.maven += s.maven as u64;
        k.gradle += s.gradle as u64;
        k.ide += s.ide as u64;
        k.markers += s.markers as u64;
        files.extend(walked.files);
    }
    files.sort();
    files.dedup();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for chunk in files.chunks(512) {
        let results: Vec<_> = chunk.par_iter().map(|f| one(f, &display(f))).collect();
        for r in results {
            match r {
                Ok((json, outcome)) => {
                    count(outcome, &json, &mut stats);
                    out.write_all(json.as_bytes())?;
                    out.write_all(b"\n")?;
                }
                Err(e) => {
                    stats.errors += 1;
                    eprintln!("warning: skipped {e}");
                }
            }
        }
    }
    out.flush()?;
    if stats.errors > 0 {
        eprintln!("warning: {} file(s) or directories could not be read; see above", stats.errors);
    }
    Ok(finish(&mut stats))
}

/// Flushes the caches; a write that failed (a full disk) is an error naming the cache and
/// the cause, and the exit code is 1 — the answer printed is right, but the cache is not.
/// Prints a tool's answer as JSON; then a cache write that failed still fails the command.
/// Indexes the workspace of `flags`, runs one query on it and prints the answer.
fn query<A, T: serde::Serialize>(
    flags: &WorkspaceFlags,
    args: &A,
    call: impl FnOnce(&Workspace, &A) -> Result<T, ToolError>,
) -> anyhow::Result<ExitCode> {
    let ws = indexed_workspace(flags)?;
    printed(&ws, call(&ws, args))
}

fn printed<T: serde::Serialize>(ws: &Workspace, answer: Result<T, ToolError>) -> anyhow::Result<ExitCode> {
    print_json(&answer?, false)?;
    Ok(flushed(ws))
}

fn flushed(ws: &Workspace) -> ExitCode {
    ws.flush();
    let errors = ws.write_errors();
    for e in &errors {
        eprintln!("error: {e}");
    }
    if errors.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) }
}
