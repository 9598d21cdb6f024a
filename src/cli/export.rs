//! `export scip`: the workspace's reference index written as a SCIP index.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};

use super::flags::WorkspaceFlags;
use super::index::build_index;
use super::{flushed, init_logging};
use crate::tools::host::Host;

#[derive(Debug, Subcommand)]
pub enum ExportFormat {
    /// Write a SCIP index (Sourcegraph's format) with scip-java's symbols: upload it with
    /// `src code-intel upload -file=index.scip`. Prints a JSON summary.
    Scip(ScipArgs),
}

#[derive(Debug, Args)]
pub struct ScipArgs {
    /// Where to write the index
    #[arg(long, short, default_value = "index.scip")]
    pub output: PathBuf,
    /// Workspace roots to export (default: the configured roots, the current directory)
    pub dirs: Vec<PathBuf>,
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

pub fn export(format: ExportFormat) -> anyhow::Result<ExitCode> {
    let ExportFormat::Scip(mut a) = format;
    if !a.dirs.is_empty() {
        if a.ws.0.has("roots") {
            anyhow::bail!("pass the roots as DIR arguments or as --root, not both");
        }
        a.ws.0.give("roots", a.dirs.iter().map(|d| d.to_string_lossy().into_owned()).collect());
    }
    let config = a.ws.config()?;
    init_logging(&config.log_level);
    let ws = Host::open(config)?;
    for w in ws.warnings() {
        eprintln!("warning: {w}");
    }
    build_index(&ws);
    // The user chose the output path on the command line: it may be outside the roots.
    // Its directory is taken as named; the file itself is never written through a link.
    let (anchor, rel) = mji_fs::write::user_anchor(&a.output)?;
    // In a terminal, past a second: the documents encoded so far on stderr.
    let summary = super::progress::with_progress("exporting SCIP", &|| None, || {
        crate::tools::tool::export_scip::export(&ws, &anchor, &rel)
    })?;
    println!("{}", serde_json::to_string_pretty(&summary)?);
    Ok(flushed(&ws))
}
