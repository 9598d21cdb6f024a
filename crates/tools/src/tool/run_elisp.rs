//! `run_elisp`: evaluates Elisp in the user's Emacs, under the mode the user configured.

use crate::ToolError;
use crate::registry::{Annotations, Tool, Needs};
use crate::host::Host;
use serde::{Deserialize, Serialize};
use mji_editor::ElispOutcome;

pub(crate) struct RunElisp;

impl Tool for RunElisp {
    const NAME: &'static str = "run_elisp";
    const TITLE: &'static str = "Run Elisp in Emacs";
    const DESCRIPTION: &'static str = "Evaluate one Elisp form in the user's Emacs, if the user enabled it: an allowlist of functions, or the user confirms in Emacs. dryRun shows what would run. The answer says which mode decided.";
    const ANNOTATIONS: Annotations =
        Annotations { read_only: false, destructive: true, idempotent: false, open_world: false };
    const GROUP: &'static str = "editor";
    const ALIASES: &'static [(&'static str, &'static str)] = &[("capture_output", "captureOutput"), ("dry_run", "dryRun")];
    const SHOWN_WHEN: Needs = Needs::Editor;

    type Args = RunElispArgs;
    type Output = RunElispResult;

    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError> {
        run(ws, &args)
    }
}

/// `run_elisp`.
pub fn run(ws: &Host, args: &RunElispArgs) -> Result<RunElispResult, ToolError> {
    let outcome = ws.editor().run_elisp(&args.code, args.capture_output, args.dry_run)?;
    Ok(RunElispResult { success: outcome.ran, outcome })
}

/// Arguments of `run_elisp`.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RunElispArgs {
    /// One form; several go in (progn …).
    pub code: String,
    /// Return what it printed to standard-output.
    #[serde(default)]
    pub capture_output: bool,
    /// Say what would run, run nothing.
    #[serde(default)]
    pub dry_run: bool,
}

/// The answer of `run_elisp`.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct RunElispResult {
    /// The code ran.
    pub success: bool,
    #[serde(flatten)]
    pub outcome: ElispOutcome,
}
