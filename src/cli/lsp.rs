//! `lsp`: the Language Server Protocol on stdio (`mji_lsp`), its workspace opened as `serve`
//! opens it; the roots are `--root`, else the client's workspace folders, else the defaults.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::{WorkspaceFlags, init_logging};

#[derive(Debug, Args)]
pub struct LspArgs {
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

pub fn run(args: LspArgs) -> anyhow::Result<ExitCode> {
    // Logs go to stderr, which editors keep as the server's log; stdout is the protocol.
    let level = args.ws.config().map(|c| c.log_level).unwrap_or_else(|_| "warn".to_owned());
    init_logging(&level);
    let flags = args.ws;
    let open = move |client_roots: Vec<PathBuf>| {
        let mut flags = flags.clone();
        if flags.0.get("roots").is_none() && !client_roots.is_empty() {
            flags.0.give("roots", client_roots.iter().map(|r| r.to_string_lossy().into_owned()).collect());
        }
        let config = flags.config().map_err(|e| format!("{e:#}"))?;
        super::serve::open_workspace(config).map_err(|e| format!("{e:#}"))
    };
    crate::lsp::serve_stdio(&open).map_err(|e| anyhow::anyhow!(e))?;
    Ok(ExitCode::SUCCESS)
}
