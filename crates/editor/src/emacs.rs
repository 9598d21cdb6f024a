//! The Emacs backend: `emacsclient --eval` with one self-contained form per call. Every value
//! is spliced in as a literal printed by [`crate::sexp::elisp_string`] (printable ASCII, so a
//! file name can never become code), the form catches every error into its answer, and the
//! answer comes back as base64 of its JSON so nothing depends on how Lisp prints a string.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use base64::Engine as _;
use serde_json::Value;

use crate::process::{RunError, run};
use crate::sexp::elisp_string;
use crate::{ENABLE, EditorError};

/// The longest `--eval` argument sent (the kernel's limit on one argument is 131,072 bytes).
const MAX_FORM_BYTES: usize = 120_000;

/// How emacsclient finds the server.
#[derive(Debug, Clone)]
pub(crate) struct Emacs {
    /// `-s`: a server name or a socket path; `None` leaves it to emacsclient
    /// (`EMACS_SOCKET_NAME`, else its default `server`).
    pub(crate) socket: Option<String>,
}

/// The socket of a running Emacs server, found as emacsclient would: `name` (the setting,
/// else `EMACS_SOCKET_NAME`, else `server`) is a path when it holds a `/`, else a file in
/// `$XDG_RUNTIME_DIR/emacs/` or `${TMPDIR:-/tmp}/emacs$UID/`. Only a socket counts.
pub(crate) fn find_socket(setting: &str, env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let name = Some(setting.to_owned())
        .filter(|s| !s.is_empty())
        .or_else(|| env("EMACS_SOCKET_NAME").filter(|s| !s.is_empty()))
        .unwrap_or_else(|| "server".to_owned());
    let candidates: Vec<PathBuf> = if name.contains('/') {
        vec![PathBuf::from(&name)]
    } else {
        let mut c = Vec::new();
        if let Some(x) = env("XDG_RUNTIME_DIR").filter(|s| !s.is_empty()) {
            c.push(Path::new(&x).join("emacs").join(&name));
        }
        let tmp = env("TMPDIR").filter(|s| !s.is_empty()).unwrap_or_else(|| "/tmp".to_owned());
        if let Some(uid) = uid() {
            c.push(Path::new(&tmp).join(format!("emacs{uid}")).join(&name));
        }
        c
    };
    candidates.into_iter().find(|p| is_socket(p))
}

#[cfg(unix)]
fn is_socket(p: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::metadata(p).is_ok_and(|m| m.file_type().is_socket())
}

/// Not supported here: Emacs on Windows serves over TCP (a server file, not a socket), so
/// `editor = "auto"` does not see it; `editor = "emacs"` leaves finding it to emacsclient.
#[cfg(not(unix))]
fn is_socket(_: &Path) -> bool {
    false
}

/// This process's user id (the owner of `/proc/self`), without `unsafe`.
#[cfg(unix)]
fn uid() -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").ok().map(|m| m.uid())
}

#[cfg(not(unix))]
fn uid() -> Option<u32> {
    None
}

impl Emacs {
    /// Evaluates `body` (a form whose value is a plist or vector for `json-serialize`) and
    /// returns that value as JSON. An error inside becomes `{"error": message}`.
    pub(crate) fn eval(&self, body: &str, timeout: Duration) -> Result<Value, EditorError> {
        // Evaluated with lexical binding (the server's own `eval` binds dynamically, which
        // would expose our local names to the user's hooks), so it travels as a string.
        let inner = format!(
            "(base64-encode-string (encode-coding-string (json-serialize \
             (condition-case mji--err (let ((file-name-handler-alist nil)) {body}) \
             (error (list :error (error-message-string mji--err))))) 'utf-8) t)"
        );
        let form = format!("(eval (car (read-from-string {})) t)", elisp_string(&inner));
        // Linux refuses one argument over 128 KiB (MAX_ARG_STRLEN): say so, not "no Emacs".
        if form.len() > MAX_FORM_BYTES {
            return Err(EditorError::Failed(format!(
                "the form for emacsclient is {} bytes once escaped, over the {MAX_FORM_BYTES} one argument may hold; shorten the code",
                form.len()
            )));
        }
        let mut args: Vec<OsString> = Vec::new();
        if let Some(s) = &self.socket {
            args.push("-s".into());
            args.push(s.into());
        }
        args.push("--eval".into());
        args.push(form.into());
        // ALTERNATE_EDITOR would make emacsclient start an editor of its own when no server
        // answers; this server only ever talks to one that runs.
        let out = run(&"emacsclient".into(), &args, &["ALTERNATE_EDITOR"], timeout).map_err(|e| match e {
            RunError::Spawn(e) => EditorError::Unreachable(format!(
                "emacsclient could not be started ({e}); install Emacs or put emacsclient on PATH. {ENABLE}"
            )),
            RunError::Timeout => EditorError::Timeout(format!(
                "Emacs did not answer within {} ms (busy, or waiting for input in a prompt); the call was abandoned",
                timeout.as_millis()
            )),
            RunError::Wait(e) => EditorError::Failed(format!("waiting for emacsclient: {e}")),
        })?;
        if !out.status.success() {
            let msg = out.stderr.trim();
            let lower = msg.to_ascii_lowercase();
            if lower.contains("socket") || lower.contains("server") || lower.contains("connect") {
                return Err(EditorError::Unreachable(format!(
                    "no Emacs server answers{}: {msg}. {ENABLE}",
                    self.socket.as_deref().map(|s| format!(" at `{s}`")).unwrap_or_default()
                )));
            }
            return Err(EditorError::Failed(format!("emacsclient failed: {msg}")));
        }
        let printed = out.stdout.trim();
        let b64 = printed.strip_prefix('"').and_then(|s| s.strip_suffix('"')).unwrap_or(printed);
        let bytes = base64::engine::general_purpose::STANDARD.decode(b64).map_err(|e| {
            EditorError::Failed(format!("emacsclient's answer is not what was asked for ({e}): {printed:.200}"))
        })?;
        let v: Value = serde_json::from_slice(&bytes)
            .map_err(|e| EditorError::Failed(format!("emacsclient's answer is not JSON ({e})")))?;
        match v.get("error").and_then(Value::as_str) {
            Some(e) => Err(EditorError::Failed(format!("Emacs: {e}"))),
            None => Ok(v),
        }
    }
}

/// A file name as an Elisp string; names that are not UTF-8 are refused.
pub(crate) fn file_literal(p: &Path) -> Result<String, EditorError> {
    p.to_str()
        .map(elisp_string)
        .ok_or_else(|| EditorError::Failed(format!("{} is not valid UTF-8; Emacs is not given it", p.display())))
}

/// An optional number as Elisp (`nil` when absent).
pub(crate) fn opt_num(n: Option<u32>) -> String {
    n.map_or_else(|| "nil".to_owned(), |n| n.to_string())
}

/// A boolean as Elisp.
pub(crate) fn boolean(b: bool) -> &'static str {
    if b { "t" } else { "nil" }
}

/// Visits FILE (the buffer already visiting it, else a new one; an unmodified buffer whose
/// file changed on disk is reverted first when RELOAD), moves to LINE (1-based) and COLUMN (0-based
/// characters, clamped to the line), shows it in the selected window when FOCUS, recenters,
/// and pulses the line when HIGHLIGHT.
pub(crate) const VISIT: &str = r#"
(let* ((buf (or (find-buffer-visiting mji-file) (find-file-noselect mji-file)))
       (reloaded :false) pt win)
  (with-current-buffer buf
    (when (and mji-reload (not (buffer-modified-p)) (file-exists-p mji-file)
               (not (verify-visited-file-modtime buf)))
      (revert-buffer t t t)
      (setq reloaded t))
    (save-restriction
      (widen)
      (setq pt (if mji-line
                   (save-excursion
                     (goto-char (point-min))
                     (forward-line (1- mji-line))
                     (when mji-column (forward-char (min mji-column (- (line-end-position) (point)))))
                     (point))
                 (point)))
      (goto-char pt)))
  (when mji-focus
    (pop-to-buffer-same-window buf)
    (ignore-errors (select-frame-set-input-focus (selected-frame))))
  (setq win (get-buffer-window buf t))
  (dolist (w (get-buffer-window-list buf nil t)) (set-window-point w pt))
  (when win
    (with-selected-window win (goto-char pt) (ignore-errors (recenter))))
  (when mji-highlight
    (require 'pulse)
    (with-current-buffer buf (save-excursion (goto-char pt) (pulse-momentary-highlight-one-line pt))))
  (with-current-buffer buf
    (save-excursion
      (goto-char pt)
      (list :buffer_name (buffer-name buf)
            :line (line-number-at-pos pt t)
            :column (- pt (line-beginning-position))
            :modified (if (buffer-modified-p) t :false)
            :reloaded reloaded
            :shown (if win t :false)))))
"#;

/// For each file of MJI-FILES: reverts the buffer visiting it, unless it has unsaved changes
/// and MJI-FORCE is nil. A vector of (:file :status) with status reloaded, modified,
/// not-visited or deleted.
pub(crate) const RELOAD: &str = r#"
(vconcat
 (mapcar
  (lambda (f)
    (let ((buf (find-buffer-visiting f)))
      (list :file f
            :status (cond ((not buf) "not-visited")
                          ((not (file-exists-p f)) "deleted")
                          ((and (buffer-modified-p buf) (not mji-force)) "modified")
                          (t (with-current-buffer buf (revert-buffer t t t)) "reloaded")))))
  mji-files))
"#;

/// The true names of the files whose visiting buffers are out of date with the disk.
pub(crate) const STALE: &str = r#"
(let (out)
  (dolist (b (buffer-list))
    (let ((f (buffer-file-name b)))
      (when (and f (not (verify-visited-file-modtime b)))
        (push (file-truename f) out))))
  (list :files (vconcat (nreverse out))))
"#;

/// Runs MJI-CODE: read by Emacs (confirm mode, where the user reads the same text) or
/// printed by our reader (allowlist mode, checked). MJI-BOUND: variables the form binds,
/// refused when special (a dynamic binding changes what allowed functions do). MJI-CONFIRM:
/// ask with y-or-n-p, no answer within MJI-SECS seconds being a refusal.
pub(crate) const RUN: &str = r#"
(let* ((read (read-from-string mji-code))
       (form (car read))
       (special nil))
  (dolist (v mji-bound)
    (when (and (not special) (special-variable-p (intern v))) (setq special v)))
  (cond
   ((string-match-p "[^ \t\n\r]" (substring mji-code (cdr read)))
    (list :ran :false :decision "refused" :reason "more than one form; wrap the forms in (progn ...)"))
   (special
    (list :ran :false :decision "refused"
          :reason (format "the form binds `%s', a special variable: a dynamic binding would change what the allowed functions do" special)))
   (t
    (let ((answer (if mji-confirm
                      (condition-case nil
                          (with-timeout (mji-secs 'timeout)
                            (if (y-or-n-p (format "Run this Elisp from the agent? %s " mji-code)) 'yes 'no))
                        (error 'no-input))
                    'yes)))
      (if (not (eq answer 'yes))
          (list :ran :false :decision (symbol-name answer)
                :reason (pcase answer
                          ('timeout (format "the user did not answer within %s s" mji-secs))
                          ('no "the user answered no")
                          (_ "Emacs could not ask the user")))
        (let* (result
               (output (with-output-to-string (setq result (eval form t)))))
          (list :ran t :decision "ran"
                :result (let ((s (format "%S" result))) (if (> (length s) mji-max) (substring s 0 mji-max) s))
                :output (if mji-capture (if (> (length output) mji-max) (substring output 0 mji-max) output) ""))))))))
"#;
