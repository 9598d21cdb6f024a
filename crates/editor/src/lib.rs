//! Drives the user's editor: Emacs through `emacsclient`, VS Code through `code`, or any
//! editor through a command template. Processes are started from an argv, never through a
//! shell, and every call has a timeout.
//!
//! Paths reach this crate already admitted by the workspace's path policy (`mji-index`'s
//! roots, applied in `mji-tools`): it only ever names canonical files inside the roots.
//! `run_elisp`'s safety (off, allowlist, confirm, dry_run) is decided here: the allowlist is
//! checked in Rust on the read form ([`sexp`]) and Emacs evaluates our printing of it.

mod emacs;
mod process;
pub mod sexp;

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;
use serde_json::Value;

use emacs::{Emacs, boolean, file_literal, opt_num};
use process::{RunError, run};
use sexp::elisp_string;

/// How to enable an editor, for every "no editor" error.
pub const ENABLE: &str = "Enable one: start the Emacs server (M-x server-start, or (server-start) in init.el; \
     set emacs_socket if it is not the default), or set editor = \"vscode\", or editor_command = \
     [\"subl\", \"{file}:{line}:{column}\"] in the user config (~/.config/mcp-java-index/config.toml) \
     or MCP_JAVA_INDEX_EDITOR";

/// The most characters of a `run_elisp` result or output sent back.
pub const MAX_RESULT_CHARS: usize = 20_000;

/// Why an editor call failed.
#[derive(Debug, thiserror::Error)]
pub enum EditorError {
    /// No editor is configured, or the configured one is not running.
    #[error("no editor reachable: {0}")]
    Unreachable(String),
    /// The editor did not answer in time.
    #[error("editor timeout: {0}")]
    Timeout(String),
    /// The editor answered with an error, or the command failed.
    #[error("editor call failed: {0}")]
    Failed(String),
    /// The call does not apply to this editor or is turned off (the message says why).
    #[error("{0}")]
    NotApplicable(String),
    /// Bad settings (the message names the key).
    #[error("editor settings: {0}")]
    Settings(String),
}

/// The editor settings (see `mji-config`'s `settings!` for their documentation).
#[derive(Debug, Clone)]
pub struct Settings {
    pub editor: String,
    pub emacs_socket: String,
    pub editor_command: Vec<String>,
    pub timeout: Duration,
    pub auto_reload: bool,
    pub run_elisp: String,
    pub elisp_allowlist: Vec<String>,
    pub confirm_timeout: Duration,
}

impl Settings {
    /// The settings of a configuration.
    pub fn from_config(c: &mji_config::Config) -> Settings {
        Settings {
            editor: c.editor.clone(),
            emacs_socket: c.emacs_socket.clone(),
            editor_command: c.editor_command.clone(),
            timeout: Duration::from_millis(c.editor_timeout_ms),
            auto_reload: c.editor_auto_reload,
            run_elisp: c.run_elisp.clone(),
            elisp_allowlist: c.elisp_allowlist.clone(),
            confirm_timeout: Duration::from_millis(c.elisp_confirm_ms),
        }
    }
}

/// The editor a call goes to.
#[derive(Debug, Clone)]
enum Backend {
    Emacs(Emacs),
    VsCode,
    Command(Vec<String>),
}

impl Backend {
    fn name(&self) -> &'static str {
        match self {
            Backend::Emacs(_) => "emacs",
            Backend::VsCode => "vscode",
            Backend::Command(_) => "command",
        }
    }
}

/// Where to go in a file: 1-based line, 0-based column in characters.
#[derive(Debug, Clone, Copy, Default)]
pub struct Place {
    pub line: Option<u32>,
    pub column: Option<u32>,
}

/// What showing a file did.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Shown {
    /// emacs, vscode or command.
    pub editor: String,
    /// The buffer visiting the file (Emacs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub buffer_name: Option<String>,
    /// The line and column the editor is at (Emacs: as it reports them, clamped to the file);
    /// else as asked.
    pub line: u32,
    pub column: u32,
    /// Emacs: the buffer was unmodified and out of date, and was reverted first.
    pub reloaded: bool,
    /// Emacs: the buffer has unsaved changes.
    pub modified: bool,
}

/// One file of a reload.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct ReloadedFile {
    pub file: String,
    /// reloaded; modified (unsaved changes: not reloaded without force); not-visited; deleted
    /// (gone from disk: the buffer is left alone).
    pub status: String,
}

/// What a reload did.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct ReloadReport {
    pub editor: String,
    pub files: Vec<ReloadedFile>,
    /// Said when the editor needs no reload (VS Code watches its files).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// What `run_elisp` did, and which mode decided.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ElispOutcome {
    /// allowlist, confirm or dry_run.
    pub mode: String,
    /// The mode that decided: allowlist (its check, including Emacs's refusal of a special
    /// binding), confirmation (the user's answer, or no answer in time), dry_run (nothing ran).
    pub decided_by: String,
    pub ran: bool,
    /// ran, refused, no, timeout, dry-run.
    pub decision: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The form Emacs evaluates or would evaluate: our printing of the checked form
    /// (allowlist), or the code as given (confirm).
    pub code: String,
    /// Allowlist: the functions the form names.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub functions: Vec<String>,
    /// The value, as Emacs prints it (`%S`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// What the code printed to standard-output (capture_output).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
}

/// The user's editor, as configured. Cheap to make; each call finds the editor anew, so an
/// Emacs started after the server is found.
#[derive(Debug, Clone)]
pub struct Editor {
    settings: Settings,
}

impl Editor {
    pub fn new(settings: Settings) -> Editor {
        Editor { settings }
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Whether an editor is configured or, with `auto`, found running: `tools/list` shows the
    /// editor tools only then (they stay callable, and say how to set one up).
    pub fn reachable(&self) -> bool {
        self.backend().is_ok()
    }

    /// Which editor a call goes to: `editor` as set, or `auto`: a running Emacs server, else
    /// `editor_command` when set, else VS Code when the server runs in its terminal.
    fn backend(&self) -> Result<Backend, EditorError> {
        self.backend_with(&|k| std::env::var(k).ok())
    }

    fn backend_with(&self, env: &dyn Fn(&str) -> Option<String>) -> Result<Backend, EditorError> {
        let s = &self.settings;
        let socket = Some(s.emacs_socket.clone()).filter(|x| !x.is_empty());
        match s.editor.as_str() {
            "emacs" => Ok(Backend::Emacs(Emacs { socket })),
            "vscode" => Ok(Backend::VsCode),
            "command" if s.editor_command.is_empty() => Err(EditorError::Settings(
                "editor = \"command\" needs editor_command, e.g. [\"subl\", \"{file}:{line}:{column}\"]".into(),
            )),
            "command" => Ok(Backend::Command(s.editor_command.clone())),
            "none" => Err(EditorError::Unreachable(format!("editor = \"none\" turns the editor tools off. {ENABLE}"))),
            "auto" | "" => {
                if emacs::find_socket(&s.emacs_socket, env).is_some() {
                    Ok(Backend::Emacs(Emacs { socket }))
                } else if !s.editor_command.is_empty() {
                    Ok(Backend::Command(s.editor_command.clone()))
                } else if env("TERM_PROGRAM").as_deref() == Some("vscode") {
                    Ok(Backend::VsCode)
                } else {
                    Err(EditorError::Unreachable(format!(
                        "no editor is configured and no Emacs server is running (looked for the socket \
                         `{}` as emacsclient does). {ENABLE}",
                        if s.emacs_socket.is_empty() {
                            env("EMACS_SOCKET_NAME").unwrap_or_else(|| "server".into())
                        } else {
                            s.emacs_socket.clone()
                        }
                    )))
                }
            }
            other => Err(EditorError::Settings(format!(
                "editor = \"{other}\" is not one of auto, emacs, vscode, command, none"
            ))),
        }
    }

    /// Shows `file` at `place`: `focus` selects its window, `highlight` pulses the line
    /// (Emacs). With `editor_auto_reload`, Emacs first reverts a buffer of the file that has no
    /// unsaved changes and is out of date.
    pub fn show(&self, file: &Path, place: Place, focus: bool, highlight: bool) -> Result<Shown, EditorError> {
        let backend = self.backend()?;
        match &backend {
            Backend::Emacs(e) => {
                let body = format!(
                    "(let ((mji-file {}) (mji-line {}) (mji-column {}) (mji-focus {}) (mji-highlight {}) (mji-reload {})) {})",
                    file_literal(file)?,
                    opt_num(place.line.filter(|&l| l > 0)),
                    opt_num(place.column),
                    boolean(focus),
                    boolean(highlight),
                    boolean(self.settings.auto_reload),
                    emacs::VISIT
                );
                let v = e.eval(&body, self.settings.timeout)?;
                let num = |k: &str| v.get(k).and_then(Value::as_u64).unwrap_or(0) as u32;
                let flag = |k: &str| v.get(k).and_then(Value::as_bool).unwrap_or(false);
                Ok(Shown {
                    editor: backend.name().into(),
                    buffer_name: v.get("buffer_name").and_then(Value::as_str).map(str::to_owned),
                    line: num("line"),
                    column: num("column"),
                    reloaded: flag("reloaded"),
                    modified: flag("modified"),
                })
            }
            Backend::VsCode | Backend::Command(_) => {
                let line = place.line.filter(|&l| l > 0).unwrap_or(1);
                let column = place.column.unwrap_or(0);
                self.run_template(&backend, file, line, column)?;
                Ok(Shown {
                    editor: backend.name().into(),
                    buffer_name: None,
                    line,
                    column,
                    reloaded: false,
                    modified: false,
                })
            }
        }
    }

    /// Runs VS Code's `code --reuse-window --goto FILE:LINE:COL` or the command template, with
    /// `{file}`, `{line}` and `{column}` (1-based) replaced in each argument.
    fn run_template(&self, backend: &Backend, file: &Path, line: u32, column: u32) -> Result<(), EditorError> {
        let template: Vec<String> = match backend {
            Backend::VsCode => {
                ["code", "--reuse-window", "--goto", "{file}:{line}:{column}"].map(str::to_owned).to_vec()
            }
            Backend::Command(t) => t.clone(),
            Backend::Emacs(_) => return Err(EditorError::Failed("not a command editor".into())),
        };
        let Some(file_s) = file.to_str() else {
            return Err(EditorError::Failed(format!("{} is not valid UTF-8", file.display())));
        };
        let fill = |a: &str| {
            a.replace("{line}", &line.to_string())
                .replace("{column}", &(column + 1).to_string())
                .replace("{file}", file_s)
        };
        let (program, args) =
            template.split_first().ok_or_else(|| EditorError::Settings("editor_command is empty".into()))?;
        // The file name is put in last: a name holding `{line}` stays a name.
        let args: Vec<OsString> = args.iter().map(|a| OsString::from(fill(a))).collect();
        let program = OsString::from(program);
        match run(&program, &args, &[], self.settings.timeout) {
            Ok(o) if o.status.success() => Ok(()),
            Ok(o) => Err(EditorError::Failed(format!(
                "`{}` exited with {}: {}",
                program.to_string_lossy(),
                o.status,
                o.stderr.trim()
            ))),
            Err(RunError::Spawn(e)) => Err(EditorError::Unreachable(format!(
                "`{}` could not be started ({e}). {ENABLE}",
                program.to_string_lossy()
            ))),
            Err(RunError::Timeout) => Err(EditorError::Timeout(format!(
                "`{}` did not finish within {} ms",
                program.to_string_lossy(),
                self.settings.timeout.as_millis()
            ))),
            Err(RunError::Wait(e)) => Err(EditorError::Failed(format!("waiting for the editor: {e}"))),
        }
    }

    /// Reverts the buffers visiting `files`: one with unsaved changes only when `force`.
    pub fn reload(&self, files: &[PathBuf], force: bool) -> Result<ReloadReport, EditorError> {
        let backend = self.backend()?;
        let Backend::Emacs(e) = &backend else {
            return Ok(ReloadReport {
                editor: backend.name().into(),
                files: Vec::new(),
                note: Some(match backend {
                    Backend::VsCode => "VS Code reloads changed files by itself; nothing to do".to_owned(),
                    _ => "a command editor cannot be asked to reload; nothing was done (most editors reload \
                          unmodified files by themselves)"
                        .to_owned(),
                }),
            });
        };
        if files.is_empty() {
            return Ok(ReloadReport { editor: "emacs".into(), files: Vec::new(), note: None });
        }
        let list = files.iter().map(|f| file_literal(f)).collect::<Result<Vec<_>, _>>()?.join(" ");
        let body = format!("(let ((mji-files (list {list})) (mji-force {})) {})", boolean(force), emacs::RELOAD);
        let v = e.eval(&body, self.settings.timeout)?;
        let files = v
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|x| ReloadedFile {
                        file: x.get("file").and_then(Value::as_str).unwrap_or_default().to_owned(),
                        status: x.get("status").and_then(Value::as_str).unwrap_or_default().to_owned(),
                    })
                    .collect()
            })
            .unwrap_or_default();
        Ok(ReloadReport { editor: "emacs".into(), files, note: None })
    }

    /// The files whose visiting buffers are out of date with the disk (their true names; the
    /// caller keeps those inside the workspace). Not applicable to editors that watch files.
    pub fn stale_files(&self) -> Result<Option<Vec<PathBuf>>, EditorError> {
        let Backend::Emacs(e) = self.backend()? else { return Ok(None) };
        let v = e.eval(emacs::STALE, self.settings.timeout)?;
        Ok(Some(
            v.get("files")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).map(PathBuf::from).collect())
                .unwrap_or_default(),
        ))
    }

    /// After the server's own edits: reverts the buffers visiting `files` that have no unsaved
    /// changes. `None` when `editor_auto_reload` is off or no editor is reachable (an edit
    /// never fails for want of an editor).
    pub fn reload_files(&self, files: &[PathBuf]) -> Option<Result<ReloadReport, EditorError>> {
        if !self.settings.auto_reload {
            return None;
        }
        match self.reload(files, false) {
            Err(EditorError::Unreachable(_)) => None,
            r => Some(r),
        }
    }

    /// `run_elisp`: off, or decided by the configured mode; `dry_run` (or mode dry_run) says
    /// what would run without running it.
    pub fn run_elisp(&self, code: &str, capture_output: bool, dry_run: bool) -> Result<ElispOutcome, EditorError> {
        let mode = self.settings.run_elisp.as_str();
        let dry = dry_run || mode == "dry_run";
        let outcome = |decided_by: &str, decision: &str, reason: Option<String>, code: String| ElispOutcome {
            mode: mode.to_owned(),
            decided_by: decided_by.to_owned(),
            ran: false,
            decision: decision.to_owned(),
            reason,
            code,
            functions: Vec::new(),
            result: None,
            output: None,
        };
        let (to_run, bound, functions, confirm) = match mode {
            "off" | "" => {
                return Err(EditorError::NotApplicable(
                    "run_elisp is off: the user turns it on with run_elisp = \"allowlist\" (elisp_allowlist names \
                     what may be called), \"confirm\" (asked in Emacs) or \"dry_run\" in the user config"
                        .into(),
                ));
            }
            "allowlist" | "dry_run" => {
                let allow: BTreeSet<String> = self.settings.elisp_allowlist.iter().cloned().collect();
                let checked = sexp::read(code).and_then(|f| sexp::check(&f, &allow).map(|c| (f.print(), c)));
                match checked {
                    Ok((printed, c)) => (printed, c.bound.into_iter().collect::<Vec<_>>(), c.functions, false),
                    Err(reason) if mode == "allowlist" => {
                        return Ok(outcome("allowlist", "refused", Some(reason), code.to_owned()));
                    }
                    // dry_run mode: report what the allowlist would say, run nothing.
                    Err(reason) => {
                        return Ok(outcome(
                            "dry_run",
                            "dry-run",
                            Some(format!("the allowlist would refuse: {reason}")),
                            code.to_owned(),
                        ));
                    }
                }
            }
            "confirm" => (code.to_owned(), Vec::new(), BTreeSet::new(), true),
            other => {
                return Err(EditorError::Settings(format!(
                    "run_elisp = \"{other}\" is not one of off, allowlist, confirm, dry_run"
                )));
            }
        };
        let backend = match self.backend() {
            // A dry run needs no running Emacs.
            Err(EditorError::Unreachable(_)) if dry => None,
            b => Some(b?),
        };
        if let Some(b) = backend.as_ref().filter(|b| !matches!(b, Backend::Emacs(_))) {
            return Err(EditorError::NotApplicable(format!(
                "run_elisp needs Emacs; the editor is {} (VS Code and command editors run no Elisp)",
                b.name()
            )));
        }
        let Some(Backend::Emacs(e)) = backend.filter(|_| !dry) else {
            let what = if confirm { "the user would be asked first" } else { "the allowlist allows it" };
            let mut o = outcome("dry_run", "dry-run", Some(format!("nothing ran; {what}")), to_run);
            o.functions = functions.into_iter().collect();
            return Ok(o);
        };
        let secs = self.settings.confirm_timeout.as_secs_f64().max(0.1);
        let bound = bound.iter().map(|b| elisp_string(b)).collect::<Vec<_>>().join(" ");
        let body = format!(
            "(let ((mji-code {}) (mji-bound (list {bound})) (mji-confirm {}) (mji-secs {secs}) (mji-capture {}) (mji-max {MAX_RESULT_CHARS})) {})",
            elisp_string(&to_run),
            boolean(confirm),
            boolean(capture_output),
            emacs::RUN
        );
        let wait = self.settings.timeout + if confirm { self.settings.confirm_timeout } else { Duration::ZERO };
        let v = e.eval(&body, wait)?;
        let text = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
        let ran = v.get("ran").and_then(Value::as_bool).unwrap_or(false);
        let decision = text("decision").unwrap_or_default();
        // Emacs refusing a special binding is the allowlist's own check, made where the
        // variables are known; trailing forms are refused in either mode.
        let decided_by = if confirm { "confirmation" } else { "allowlist" };
        Ok(ElispOutcome {
            mode: mode.to_owned(),
            decided_by: decided_by.to_owned(),
            ran,
            decision,
            reason: text("reason"),
            code: to_run,
            functions: functions.into_iter().collect(),
            result: text("result"),
            output: text("output").filter(|_| capture_output),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(editor: &str) -> Settings {
        Settings {
            editor: editor.into(),
            emacs_socket: String::new(),
            editor_command: Vec::new(),
            timeout: Duration::from_secs(2),
            auto_reload: true,
            run_elisp: "off".into(),
            elisp_allowlist: Vec::new(),
            confirm_timeout: Duration::from_secs(1),
        }
    }

    #[cfg(unix)]
    #[test]
    fn auto_finds_emacs_by_its_socket_as_emacsclient_does() {
        let dir = tempfile::tempdir().expect("tempdir");
        let sock = dir.path().join("emacs0").join("work");
        std::fs::create_dir_all(sock.parent().expect("parent")).expect("mkdir");
        let _listener = std::os::unix::net::UnixListener::bind(&sock).expect("bind");
        let tmp = dir.path().to_string_lossy().into_owned();
        let ed = Editor::new(settings("auto"));
        // The name from EMACS_SOCKET_NAME, under TMPDIR/emacs$UID (this process's uid is 0
        // only as root; the directory is made for whoever runs the test).
        let uid = {
            use std::os::unix::fs::MetadataExt;
            std::fs::metadata("/proc/self").expect("proc").uid()
        };
        std::fs::rename(dir.path().join("emacs0"), dir.path().join(format!("emacs{uid}"))).expect("rename");
        let env = |k: &str| match k {
            "TMPDIR" => Some(tmp.clone()),
            "EMACS_SOCKET_NAME" => Some("work".to_owned()),
            _ => None,
        };
        assert_eq!(ed.backend_with(&env).expect("found").name(), "emacs");
        let none = |k: &str| (k == "TMPDIR").then(|| tmp.clone());
        let e = ed.backend_with(&none).expect_err("no server named `server`").to_string();
        assert!(e.contains("server-start") && e.contains("editor_command"), "{e}");
        let vscode = |k: &str| match k {
            "TMPDIR" => Some(tmp.clone()),
            "TERM_PROGRAM" => Some("vscode".to_owned()),
            _ => None,
        };
        assert_eq!(ed.backend_with(&vscode).expect("vscode").name(), "vscode");
    }

    #[test]
    fn run_elisp_is_off_by_default_and_a_refusal_names_the_mode() {
        let ed = Editor::new(settings("none"));
        let e = ed.run_elisp("(message \"hi\")", false, false).expect_err("off").to_string();
        assert!(e.contains("run_elisp is off"), "{e}");
        let mut s = settings("none");
        s.run_elisp = "allowlist".into();
        s.elisp_allowlist = vec!["progn".into(), "message".into()];
        let o = Editor::new(s).run_elisp("(progn (message \"a\") (delete-file \"x\"))", false, false).expect("decided");
        assert_eq!((o.decided_by.as_str(), o.ran, o.decision.as_str()), ("allowlist", false, "refused"));
        assert!(o.reason.as_deref().is_some_and(|r| r.contains("delete-file")), "{o:?}");
        // A dry run needs no running editor and shows the form Emacs would evaluate.
        let mut s = settings("none");
        s.run_elisp = "allowlist".into();
        s.elisp_allowlist = vec!["message".into()];
        let o = Editor::new(s).run_elisp("(message  'message) ; hi", false, true).expect("dry");
        assert_eq!((o.decided_by.as_str(), o.ran, o.code.as_str()), ("dry_run", false, "(message (quote message))"));
        let mut s = settings("vscode");
        s.run_elisp = "confirm".into();
        let e = Editor::new(s).run_elisp("(message \"x\")", false, true).expect_err("not emacs").to_string();
        assert!(e.contains("needs Emacs"), "{e}");
    }
}
