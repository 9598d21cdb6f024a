//! The command line: a client of the tool registry for queries (`query`), `index` and the
//! cache (`index`), `serve` and `bridge` (`serve`), `lsp` (`lsp`), `setup`, `doctor` and `completions`, and the
//! flags they share (`flags`). Answers on stdout, messages and progress on stderr, exit code 1
//! on bad input or a tool error; a closed stdout (`| head -1`) ends the command quietly.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub mod completions;
pub mod derived;
pub mod doctor;
pub mod export;
pub mod flags;
pub mod index;
pub mod lsp;
pub mod progress;
pub mod query;
pub mod remote;
pub mod serve;
pub mod setup;

use crate::tools::host::Host;
use derived::Query;
pub use flags::{ConfigArgs, WorkspaceFlags};
use index::{CacheAction, IndexArgs};
use query::{
    Affected, CallArgs, Callees, Callers, Def, Deps, Find, Hierarchy, Impls, Javadoc, Mvn, Problems, Range, Refs,
    Resources, Test, Types,
};
use serve::{BridgeArgs, ServeArgs};

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
    /// Serve the Language Server Protocol over stdio (for editors and agents' LSP tools): the
    /// same answers as the MCP tools; the roots are --root, else the client's workspace folders.
    Lsp(lsp::LspArgs),
    /// Index a project as `serve` does, or outline Java files (exact line ranges).
    ///
    /// A directory is indexed as a workspace root (as `serve --root DIR`): its declarations are
    /// kept in its cache and its references bound, so a server or CLI query on it starts
    /// warm; prints a JSON summary.
    /// One file prints its java_index JSON; several files, or --outlines, print JSON Lines,
    /// one outline per file, in path order.
    Index(IndexArgs),
    /// Print lines START..=END of a file (java_read_range; --json for its JSON).
    Range(Query<Range>),
    /// Print the javadoc block of a symbol (java_read_javadoc).
    Javadoc(Query<Javadoc>),
    /// Find types, methods and fields by name across the workspace (java_find_symbol).
    Find(Query<Find>),
    /// Find types by name, camelCase, wildcard or package pattern (find_type).
    Types(Query<Types>),
    /// Find any workspace file by name, camelCase or glob (find_resource).
    Resources(Query<Resources>),
    /// Every reference to a type, method, constructor or field (find_references).
    Refs(Query<Refs>),
    /// Who calls a method or constructor, as a tree (call_hierarchy, incoming).
    Callers(Query<Callers>),
    /// Whom a method or constructor calls, as a tree (call_hierarchy, outgoing).
    Callees(Query<Callees>),
    /// The test methods whose calls reach methods, or the changes since git HEAD (affected_tests).
    Affected(Query<Affected>),
    /// A type's supertypes and subtypes as a tree (type_hierarchy).
    Hierarchy(Query<Hierarchy>),
    /// The types implementing a type, or the methods overriding a method (find_implementations).
    Impls(Query<Impls>),
    /// The types a type depends on, by package, with violations and cycles (analyze_type_dependencies).
    Deps(Query<Deps>),
    /// Where a name is defined (show_definition).
    Def(Query<Def>),
    /// Syntax and javac problems of Java files or directories (get_problems).
    ///
    /// Prints the get_problems JSON; waits until every file is checked. Exits 1 when an
    /// Error-severity problem is listed.
    Problems(Query<Problems>),
    /// Call any tool by name with JSON arguments, as an MCP client would; prints its text.
    ///
    /// `mcp-java-index tools` lists the names. Exits 1 on a tool error.
    Call(CallArgs),
    /// List every tool with its title and annotations (the registry the server serves).
    Tools,
    /// Export the workspace's index in another tool's format (scip: for Sourcegraph).
    Export {
        #[command(subcommand)]
        format: export::ExportFormat,
    },
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
    Tree(index::TreeArgs),
    /// Run tests through the project's build (run_tests) and wait for the result.
    ///
    /// Prints the counts and each failure; exits 1 when a test failed, compiling failed, or
    /// nothing ran (an untrusted workspace: pass --trust).
    Test(Query<Test>),
    /// Run allowlisted Maven goals (maven_goal) and wait; exits 1 when Maven failed.
    Mvn(Query<Mvn>),
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

/// Logs go to stderr (stdout is the protocol/data channel); RUST_LOG overrides the level.
pub(crate) fn init_logging(level: &str) {
    init_logging_to(level, None);
}

/// Logs go to `file` when given (a network server's capped log), else to stderr.
pub(crate) fn init_logging_to(level: &str, file: Option<crate::mcp_server::logfile::LogFile>) {
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
    if !matches!(cli.command, Command::Serve(_) | Command::Bridge(_) | Command::Lsp(_)) {
        grow_heap_in_large_steps();
    }
    match run(cli) {
        Ok(code) => code,
        // The reader went away (`| head -1`): what it wanted was printed; end quietly.
        Err(e) if closed_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}

/// A command that ends after its answer asks glibc for memory in steps of 64 MiB (the size of
/// a thread's heap): each thread's heap is then made writable once instead of on each growth,
/// and the main heap grows with fewer `brk` calls — a twelfth of a `def` command's CPU on the
/// JDK (issue 38). Address space only: pages are still taken when first written. Not for
/// `serve`, whose heaps live on (glibc also keeps the pad when it trims).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
fn grow_heap_in_large_steps() {
    // SAFETY: `mallopt` takes two integers and no pointer, and glibc serializes it with every
    // other allocator call; a value it refuses leaves the default.
    unsafe {
        libc::mallopt(libc::M_TOP_PAD, 64 << 20);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn grow_heap_in_large_steps() {}

/// Whether `e` is a write to a closed pipe.
fn closed_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            || c.downcast_ref::<serde_json::Error>().and_then(|j| j.io_error_kind())
                == Some(std::io::ErrorKind::BrokenPipe)
    })
}

pub(crate) fn display(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

pub(crate) fn print_json<T: serde::Serialize>(value: &T, compact: bool) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    if compact {
        serde_json::to_writer(&mut out, value)?;
    } else {
        serde_json::to_writer_pretty(&mut out, value)?;
    }
    writeln!(out)?;
    out.flush()?;
    Ok(())
}

/// Flushes the caches; a write that failed (a full disk) is an error naming the cache and
/// the cause, and the exit code is 1 — the answer printed is right, but the cache is not.
pub(crate) fn flushed(ws: &Host) -> ExitCode {
    ws.flush();
    let errors = ws.write_errors();
    for e in &errors {
        eprintln!("error: {e}");
    }
    if errors.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) }
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Serve(a) => serve::serve(a),
        Command::Lsp(a) => lsp::run(a),
        Command::Bridge(a) => serve::bridge(a),
        Command::Setup(a) => setup::run(a),
        Command::Doctor(a) => doctor::run(a),
        Command::Completions(a) => completions::run(a),
        Command::Config(a) => flags::config(a),
        Command::Cache { action, ws } => index::cache(action, ws),
        Command::Index(a) => index::index(a),
        Command::Tree(a) => index::tree(a),
        Command::Call(a) => query::call(a),
        Command::Tools => query::tools(),
        Command::Problems(a) => query::problems(a),
        Command::Find(a) => query::plain(a),
        Command::Types(a) => query::plain(a),
        Command::Resources(a) => query::plain(a),
        Command::Refs(a) => query::refs(a),
        Command::Callers(a) => query::on_target(a),
        Command::Callees(a) => query::on_target(a),
        Command::Affected(a) => query::affected(a),
        Command::Hierarchy(a) => query::on_target(a),
        Command::Impls(a) => query::on_target(a),
        Command::Deps(a) => query::deps(a),
        Command::Def(a) => query::plain(a),
        Command::Range(a) => query::plain(a),
        Command::Javadoc(a) => query::plain(a),
        Command::Test(a) => query::test(a),
        Command::Export { format } => export::export(format),
        Command::Mvn(a) => query::mvn(a),
    }
}
