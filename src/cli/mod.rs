//! The command line: `index`, `range`, `javadoc` for humans and scripts, JSON on stdout,
//! messages on stderr, non-zero exit on bad input.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use rayon::prelude::*;

use crate::model::{FileOutline, OutlineOptions};
use crate::tools::java_index::{IndexOptions, index_file};
use crate::tools::read_javadoc::{JavadocOptions, read_javadoc};
use crate::tools::read_range::{RangeOptions, read_range};
use crate::tools::{ToolError, require_java};

#[derive(Debug, Parser)]
#[command(
    name = "mcp-java-index",
    version,
    about = "IDE-grade navigation of Java code for LLM agents: an MCP server and CLI"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Outline Java files: classes, methods, constructors, fields with exact line ranges.
    ///
    /// One file prints its java_index JSON; several files or a directory print JSON Lines,
    /// one outline per file, in path order.
    Index(IndexArgs),
    /// Print lines START..=END of a file (java_read_range).
    Range(RangeArgs),
    /// Print the javadoc block of a symbol (java_read_javadoc).
    Javadoc(JavadocArgs),
    /// Print tree-sitter's syntax tree of a file with 1-based lines (for debugging the parser).
    #[command(hide = true)]
    Tree {
        file: PathBuf,
        /// Deepest level printed
        #[arg(long, default_value_t = 6)]
        depth: usize,
    },
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
        Command::Index(args) => index(args),
        Command::Range(a) => {
            let opts = RangeOptions {
                include_line_numbers: a.include_line_numbers,
                max_chars: a.max_chars,
            };
            let r = read_range(&a.file, &display(&a.file), a.start, a.end, &opts)?;
            print_json(&r, false)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Tree { file, depth } => {
            let bytes = crate::tools::read_file(&file, &display(&file))?;
            let src = crate::parser::SourceText::decode(&bytes);
            let prep = crate::parser::Prepared::new(&src.text);
            let tree = crate::parser::parse_tree(&prep.text)
                .ok_or_else(|| anyhow::anyhow!("the parser gave up"))?;
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            let mut stack = vec![(tree.root_node(), 0usize)];
            while let Some((n, d)) = stack.pop() {
                let (s, e) = (
                    src.lines.line_of(prep.to_original(n.start_byte())),
                    src.lines
                        .line_of(prep.to_original(n.end_byte().saturating_sub(1))),
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
            let opts = JavadocOptions {
                include_line_numbers: a.include_line_numbers,
                max_chars: a.max_chars,
            };
            let r = read_javadoc(&a.file, &display(&a.file), &a.symbol_id, &opts)?;
            print_json(&r, false)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn index(args: IndexArgs) -> anyhow::Result<ExitCode> {
    let opts: OutlineOptions = IndexOptions::from(&args.options).into();
    // A single file argument prints one JSON document.
    if let [one] = args.paths.as_slice()
        && !one.is_dir()
    {
        let d = display(one);
        require_java(one, &d)?;
        let outline = index_file(one, &d, &opts)?;
        print_json(&outline, args.compact)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut files = Vec::new();
    let mut problems = 0usize;
    for p in &args.paths {
        if !p.exists() {
            return Err(ToolError::NotFound(display(p)).into());
        }
        let walked = crate::index::walk::java_files(p);
        for msg in &walked.problems {
            eprintln!("warning: {msg}");
        }
        problems += walked.problems.len();
        files.extend(walked.files);
    }
    files.sort();
    files.dedup();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for chunk in files.chunks(512) {
        let results: Vec<Result<FileOutline, ToolError>> = chunk
            .par_iter()
            .map(|f| index_file(f, &display(f), &opts))
            .collect();
        for r in results {
            match r {
                Ok(o) => {
                    serde_json::to_writer(&mut out, &o)?;
                    out.write_all(b"\n")?;
                }
                Err(e) => {
                    problems += 1;
                    eprintln!("warning: skipped {e}");
                }
            }
        }
    }
    out.flush()?;
    if problems > 0 {
        eprintln!("warning: {problems} file(s) or directories could not be read; see above");
    }
    Ok(ExitCode::SUCCESS)
}
