//! The language server shell: LSP 3.17 over stdio through rust-analyzer's `lsp-server`, a
//! client of the tool registry like the MCP server and the CLI. Every request is one or more
//! registry calls (`dispatch_within`) whose structured answers are converted to LSP's types:
//! no query is implemented here.

mod actions;
mod cancel;
mod diagnostics;
mod docs;
mod hierarchy;
mod lens;
mod nav;
mod progress;
mod rename;
mod shadow;
mod typedef;
mod uri;

use std::path::PathBuf;
use std::sync::Arc;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types as lsp;
use mji_tools::host::Host;
use serde_json::{Value, json};

use docs::Docs;

/// Opens the workspace of the roots the client named (empty: it named none), as `serve` opens
/// it; the error is said to the client and ends the session.
pub type Open<'a> = &'a dyn Fn(Vec<PathBuf>) -> Result<Arc<Host>, String>;

/// One session's state: the workspace and the documents the client has open.
struct Server {
    host: Arc<Host>,
    docs: Docs,
    /// The client resolves a code action's edit (`codeAction/resolve`) when it is chosen.
    resolves_actions: bool,
    /// javac's diagnostics of each file checked after a save, in the text it checked.
    javac: std::collections::HashMap<PathBuf, Checked>,
    /// The javac checks run after a save report here, to the message loop.
    checks: (crossbeam_channel::Sender<Checked>, crossbeam_channel::Receiver<Checked>),
    /// The number of the last javac check started (a late answer of an older one is dropped).
    started: u64,
    /// The files javac is checking now, and whether one was saved again meanwhile (checked
    /// again when the running check ends: one check a file at a time).
    checking: std::collections::HashMap<PathBuf, bool>,
    /// Notifications a request sends the client on its way (`window/showMessage`).
    sender: crossbeam_channel::Sender<Message>,
    /// Each open buffer's syntax diagnostics, by URI, with its last parse (the next change
    /// reparses only what it edited).
    syntax: std::collections::HashMap<String, Syntax>,
}

/// An open buffer's syntax check: its diagnostics and the parse they came from.
struct Syntax {
    diagnostics: Vec<lsp::Diagnostic>,
    last: Option<mji_problems::syntax::Incremental>,
}

/// javac's diagnostics of a file (get_problems' `javac` source), the text they are positioned
/// in, and which check found them.
struct Checked {
    path: PathBuf,
    text: String,
    diagnostics: Vec<lsp::Diagnostic>,
    seq: u64,
}

/// What a request handler answers: a result, or an LSP error (code and message).
type Reply = Result<Value, (ErrorCode, String)>;

/// Serves one client on `conn` until `shutdown` and `exit` (or the client leaves).
pub fn run(conn: &Connection, open: Open) -> Result<(), String> {
    let (id, params) = conn.initialize_start().map_err(|e| format!("waiting for initialize: {e}"))?;
    let init: lsp::InitializeParams = match serde_json::from_value(params) {
        Ok(p) => p,
        Err(e) => {
            let message = format!("invalid initialize params: {e}");
            send(conn, Message::Response(Response::new_err(id, ErrorCode::InvalidParams as i32, message.clone())));
            return Err(message);
        }
    };
    let host = match open(client_roots(&init)) {
        Ok(h) => h,
        Err(e) => {
            send(conn, Message::Response(Response::new_err(id, ErrorCode::RequestFailed as i32, e.clone())));
            return Err(e);
        }
    };
    let result = json!({
        "capabilities": capabilities(),
        "serverInfo": {"name": "mcp-java-index", "version": env!("CARGO_PKG_VERSION")},
    });
    conn.initialize_finish(id, result).map_err(|e| format!("finishing initialize: {e}"))?;
    tracing::info!(roots = ?host.roots().paths(), "serving LSP on stdio");
    // The first indexing pass as work-done progress, for a client that shows it.
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let shows_progress = init.capabilities.window.as_ref().and_then(|w| w.work_done_progress) == Some(true);
    let reporter = (shows_progress && !host.index().progress().complete).then(|| {
        let (host, stop, sender) = (host.clone(), stop.clone(), conn.sender.clone());
        std::thread::Builder::new()
            .name("lsp-progress".to_owned())
            .spawn(move || progress::report(host, stop, |m| sender.send(m).is_ok()))
    });
    let resolves_actions = init
        .capabilities
        .text_document
        .as_ref()
        .and_then(|t| t.code_action.as_ref())
        .and_then(|c| c.resolve_support.as_ref())
        .is_some_and(|r| r.properties.iter().any(|p| p == "edit"));
    let mut server = Server {
        host,
        docs: Docs::default(),
        resolves_actions,
        javac: Default::default(),
        checks: crossbeam_channel::unbounded(),
        started: 0,
        checking: Default::default(),
        sender: conn.sender.clone(),
        syntax: Default::default(),
    };
    let served = server.serve(conn);
    stop.store(true, std::sync::atomic::Ordering::Release);
    if let Some(Ok(r)) = reporter
        && r.join().is_err()
    {
        tracing::warn!("the progress reporter panicked");
    }
    // What the reference keeper bound since its last write is kept for the next start.
    server.host.persist_references();
    served
}

/// Serves LSP on stdin and stdout until `exit` or the end of stdin.
pub fn serve_stdio(open: Open) -> Result<(), String> {
    let (conn, io) = Connection::stdio();
    let served = run(&conn, open);
    // The writer thread ends when the connection's sender is dropped.
    drop(conn);
    if let Err(e) = io.join() {
        tracing::debug!("closing stdio: {e}");
    }
    served
}

impl Server {
    fn serve(&mut self, conn: &Connection) -> Result<(), String> {
        let checks = self.checks.1.clone();
        let inbox = cancel::Inbox::start(conn.receiver.clone())?;
        let mut shut_down = false;
        loop {
            let msg = crossbeam_channel::select! {
                recv(inbox.messages) -> msg => match msg {
                    Ok(msg) => msg,
                    Err(_) => return Ok(()),
                },
                recv(checks) -> done => {
                    if let Ok(done) = done {
                        self.checked(conn, done);
                    }
                    continue;
                }
            };
            match msg {
                Message::Request(req) => {
                    let id = req.id.clone();
                    if shut_down {
                        let e = (ErrorCode::InvalidRequest, "the server is shut down: exit is expected".to_owned());
                        send(conn, Message::Response(respond(id, Err(e))));
                        continue;
                    }
                    if req.method == "shutdown" {
                        // Then only `exit` (or the end of the input) ends the loop.
                        shut_down = true;
                        send(conn, Message::Response(respond(id, Ok(Value::Null))));
                        continue;
                    }
                    let Some(cancel) = inbox.begin(&id) else {
                        let e = (ErrorCode::RequestCanceled, "cancelled before it started".to_owned());
                        send(conn, Message::Response(respond(id, Err(e))));
                        continue;
                    };
                    // Until it is answered the request is in the foreground: the background binding
                    // pass yields to it, as to an MCP call.
                    let _in_foreground = self.host.foreground().enter();
                    let reply = cancel.scope(|| {
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.request(req))).unwrap_or_else(
                            |_| Err((ErrorCode::InternalError, "internal error: the request panicked".into())),
                        )
                    });
                    inbox.end();
                    // A stopped call answers nothing partial.
                    let reply = match cancel.is_cancelled() {
                        true => Err((ErrorCode::RequestCanceled, "cancelled".to_owned())),
                        false => reply,
                    };
                    send(conn, Message::Response(respond(id, reply)));
                }
                Message::Notification(n) => {
                    if n.method == "exit" {
                        return Ok(());
                    }
                    self.notification(n, conn);
                }
                Message::Response(_) => {}
            }
        }
    }

    /// Starts javac's check of a saved Java file (get_problems' `javac` source) on a thread of
    /// its own; its diagnostics reach the loop, which publishes them.
    fn check_javac(&mut self, path: &std::path::Path) {
        let Ok(r) = self.host.resolve(&path.to_string_lossy()) else { return };
        if r.path.extension().is_none_or(|e| e != "java") {
            return;
        }
        if let Some(again) = self.checking.get_mut(&r.path) {
            *again = true;
            return;
        }
        self.checking.insert(r.path.clone(), false);
        let path = r.path.clone();
        self.started += 1;
        let (seq, host, tx) = (self.started, self.host.clone(), self.checks.0.clone());
        let spawned = std::thread::Builder::new().name("lsp-javac".to_owned()).spawn(move || {
            let Some(text) = host.roots().read(&r.path, &r.display).ok().and_then(|b| String::from_utf8(b).ok()) else {
                // Unreadable now: the check ends with nothing found.
                let _ = tx.send(Checked { path: r.path, text: String::new(), diagnostics: Vec::new(), seq: 0 });
                return;
            };
            let args = json!({"filePath": r.path.to_string_lossy(), "sourceFilter": ["javac"]});
            match call_tool(&host, "get_problems", args) {
                Ok(v) => {
                    let diagnostics = diagnostics::of_answer(&v);
                    // The loop is gone when the session ended: nothing to publish to.
                    let _ = tx.send(Checked { path: r.path, text, diagnostics, seq });
                }
                Err(e) => {
                    tracing::debug!(file = r.display, "javac's check failed: {e}");
                    let _ = tx.send(Checked { path: r.path, text, diagnostics: Vec::new(), seq: 0 });
                }
            }
        });
        if let Err(e) = spawned {
            tracing::warn!("internal error: starting javac's check: {e}");
            self.checking.remove(&path);
        }
    }

    /// A javac check is done: its diagnostics replace the file's older ones and are published
    /// with each open buffer of the file.
    fn checked(&mut self, conn: &Connection, done: Checked) {
        // Saved again while it ran: checked again.
        if self.checking.remove(&done.path) == Some(true) {
            self.check_javac(&done.path.clone());
        }
        // A failed check (seq 0) or a late answer of an older one changes nothing.
        if done.seq == 0 || self.javac.get(&done.path).is_some_and(|c| c.seq > done.seq) {
            return;
        }
        let path = done.path.clone();
        self.javac.insert(done.path.clone(), done);
        for uri in self.docs.uris_of(&path) {
            if let Ok(uri) = uri.parse() {
                self.publish(conn, uri);
            }
        }
    }

    /// The diagnostics of an open buffer: its syntax problems, and javac's of the file's last
    /// check moved to the lines the buffer shows them at (those on lines changed since left out).
    fn diagnostics_of(&self, uri: &str) -> Vec<lsp::Diagnostic> {
        let Some(doc) = self.docs.get(uri) else { return Vec::new() };
        let mut out = match self.syntax.get(uri) {
            Some(s) => s.diagnostics.clone(),
            None => diagnostics::of_text(&display_of(uri), &doc.text),
        };
        if let Some(checked) = doc.path.as_ref().and_then(|p| self.javac.get(p)) {
            let map = shadow::LineMap::between(&checked.text, &doc.text);
            out.extend(checked.diagnostics.iter().filter_map(|d| {
                let range = map.range_to_buffer(d.range)?;
                Some(lsp::Diagnostic { range, ..d.clone() })
            }));
        }
        out
    }
}

/// How a buffer's problems name its file: its path.
fn display_of(uri: &str) -> String {
    uri::to_path(uri).map(|p| p.to_string_lossy().into_owned()).unwrap_or_default()
}

fn send(conn: &Connection, msg: Message) {
    if let Err(e) = conn.sender.send(msg) {
        tracing::warn!("the client is gone: {e}");
    }
}

fn notify(conn: &Connection, method: &str, params: impl serde::Serialize) {
    match serde_json::to_value(params) {
        Ok(params) => send(conn, Message::Notification(Notification { method: method.to_owned(), params })),
        Err(e) => tracing::warn!("internal error: serializing {method}: {e}"),
    }
}

fn respond(id: RequestId, reply: Reply) -> Response {
    match reply {
        Ok(v) => Response::new_ok(id, v),
        Err((code, message)) => Response::new_err(id, code as i32, message),
    }
}

/// The roots the client names: its workspace folders, else its root URI (`rootUri`, deprecated
/// but still what many clients send alone).
#[allow(deprecated)]
fn client_roots(init: &lsp::InitializeParams) -> Vec<PathBuf> {
    let folders: Vec<PathBuf> =
        init.workspace_folders.iter().flatten().filter_map(|f| uri::to_path(f.uri.as_str())).collect();
    if !folders.is_empty() {
        return folders;
    }
    init.root_uri.iter().filter_map(|u| uri::to_path(u.as_str())).collect()
}

/// What this server answers, and nothing it does not (with `typeHierarchyProvider`, which
/// lsp-types 0.97's struct lacks).
pub fn capabilities() -> Value {
    let mut caps = serde_json::to_value(typed_capabilities()).unwrap_or_else(|_| json!({}));
    caps["typeHierarchyProvider"] = json!(true);
    caps
}

fn typed_capabilities() -> lsp::ServerCapabilities {
    use lsp::{OneOf, TextDocumentSyncKind, TextDocumentSyncOptions, TextDocumentSyncSaveOptions};
    lsp::ServerCapabilities {
        position_encoding: Some(lsp::PositionEncodingKind::UTF16),
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(TextDocumentSyncKind::INCREMENTAL),
            save: Some(TextDocumentSyncSaveOptions::SaveOptions(lsp::SaveOptions { include_text: Some(false) })),
            ..Default::default()
        })),
        definition_provider: Some(OneOf::Left(true)),
        // A Java name's declaration is its definition.
        declaration_provider: Some(lsp::DeclarationCapability::Simple(true)),
        type_definition_provider: Some(lsp::TypeDefinitionProviderCapability::Simple(true)),
        document_highlight_provider: Some(OneOf::Left(true)),
        signature_help_provider: Some(lsp::SignatureHelpOptions {
            trigger_characters: Some(vec!["(".to_owned(), ",".to_owned()]),
            retrigger_characters: None,
            work_done_progress_options: Default::default(),
        }),
        folding_range_provider: Some(lsp::FoldingRangeProviderCapability::Simple(true)),
        selection_range_provider: Some(lsp::SelectionRangeProviderCapability::Simple(true)),
        references_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        workspace_symbol_provider: Some(OneOf::Left(true)),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        implementation_provider: Some(lsp::ImplementationProviderCapability::Simple(true)),
        call_hierarchy_provider: Some(lsp::CallHierarchyServerCapability::Simple(true)),
        code_action_provider: Some(lsp::CodeActionProviderCapability::Options(lsp::CodeActionOptions {
            code_action_kinds: Some(vec![
                lsp::CodeActionKind::QUICKFIX,
                lsp::CodeActionKind::REFACTOR_EXTRACT,
                lsp::CodeActionKind::REFACTOR_INLINE,
                lsp::CodeActionKind::REFACTOR_REWRITE,
                lsp::CodeActionKind::REFACTOR,
                lsp::CodeActionKind::SOURCE_ORGANIZE_IMPORTS,
                lsp::CodeActionKind::from("source.generate"),
            ]),
            work_done_progress_options: Default::default(),
            resolve_provider: Some(true),
        })),
        code_lens_provider: Some(lsp::CodeLensOptions { resolve_provider: Some(false) }),
        execute_command_provider: Some(lsp::ExecuteCommandOptions {
            commands: vec![lens::RUN_TESTS.to_owned(), actions::REFACTOR.to_owned()],
            work_done_progress_options: Default::default(),
        }),
        diagnostic_provider: Some(lsp::DiagnosticServerCapabilities::Options(lsp::DiagnosticOptions {
            identifier: Some("mcp-java-index".to_owned()),
            inter_file_dependencies: true,
            workspace_diagnostics: false,
            work_done_progress_options: Default::default(),
        })),
        rename_provider: Some(OneOf::Right(lsp::RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        ..Default::default()
    }
}

impl Server {
    fn request(&mut self, req: Request) -> Reply {
        let p = req.params;
        match req.method.as_str() {
            "textDocument/definition" | "textDocument/declaration" => nav::definition(self, params(p)?),
            "textDocument/typeDefinition" => typedef::type_definition(self, params(p)?),
            "textDocument/documentHighlight" => nav::highlights(self, params(p)?),
            "textDocument/signatureHelp" => nav::signature_help(self, params(p)?),
            "textDocument/foldingRange" => nav::folding_ranges(self, params(p)?),
            "textDocument/selectionRange" => nav::selection_ranges(self, params(p)?),
            "textDocument/references" => nav::references(self, params(p)?),
            "textDocument/documentSymbol" => nav::document_symbols(self, params(p)?),
            "workspace/symbol" => nav::workspace_symbols(self, params(p)?),
            "textDocument/hover" => nav::hover(self, params(p)?),
            "textDocument/implementation" => hierarchy::implementation(self, params(p)?),
            "textDocument/prepareTypeHierarchy" => hierarchy::prepare_type_hierarchy(self, params(p)?),
            "typeHierarchy/supertypes" => {
                let p: lsp::TypeHierarchySupertypesParams = params(p)?;
                hierarchy::type_relatives(self, &p.item, "supertypes")
            }
            "typeHierarchy/subtypes" => {
                let p: lsp::TypeHierarchySubtypesParams = params(p)?;
                hierarchy::type_relatives(self, &p.item, "subtypes")
            }
            "textDocument/prepareCallHierarchy" => hierarchy::prepare_call_hierarchy(self, params(p)?),
            "callHierarchy/incomingCalls" => hierarchy::incoming_calls(self, params(p)?),
            "callHierarchy/outgoingCalls" => hierarchy::outgoing_calls(self, params(p)?),
            "textDocument/prepareRename" => rename::prepare(self, params(p)?),
            "textDocument/rename" => rename::rename(self, params(p)?),
            "textDocument/codeAction" => {
                let resolves = self.resolves_actions;
                actions::code_actions(self, params(p)?, resolves)
            }
            "codeAction/resolve" => actions::resolve(self, params(p)?),
            "textDocument/diagnostic" => self.pull_diagnostics(params(p)?),
            "textDocument/codeLens" => lens::code_lenses(self, params(p)?),
            "workspace/executeCommand" => lens::execute(self, params(p)?),
            other => Err((ErrorCode::MethodNotFound, format!("unhandled method {other}"))),
        }
    }

    fn notification(&mut self, n: Notification, conn: &Connection) {
        let p = n.params;
        match n.method.as_str() {
            "textDocument/didOpen" => {
                if let Ok(p) = serde_json::from_value::<lsp::DidOpenTextDocumentParams>(p) {
                    let d = p.text_document;
                    let on_disk = self.disk_text(d.uri.as_str());
                    let path = uri::to_path(d.uri.as_str())
                        .and_then(|p| self.host.resolve(&p.to_string_lossy()).ok())
                        .map(|r| r.path);
                    self.docs.open(d.uri.as_str(), path, d.text, d.version, on_disk.as_deref());
                    self.syntax.remove(d.uri.as_str());
                    self.recheck(d.uri.as_str());
                    self.publish(conn, d.uri);
                }
            }
            "textDocument/didChange" => {
                if let Ok(p) = serde_json::from_value::<lsp::DidChangeTextDocumentParams>(p) {
                    self.docs.change(p.text_document.uri.as_str(), p.text_document.version, p.content_changes);
                    self.recheck(p.text_document.uri.as_str());
                    self.publish(conn, p.text_document.uri);
                }
            }
            "textDocument/didSave" => {
                if let Ok(p) = serde_json::from_value::<lsp::DidSaveTextDocumentParams>(p) {
                    let uri = p.text_document.uri.as_str();
                    let on_disk = self.disk_text(uri);
                    self.docs.saved(uri, p.text, on_disk.as_deref());
                    self.recheck(uri);
                    let path = uri::to_path(uri);
                    self.changed(path.clone().into_iter().collect());
                    self.publish(conn, p.text_document.uri);
                    if let Some(path) = path {
                        self.check_javac(&path);
                    }
                }
            }
            "textDocument/didClose" => {
                if let Ok(p) = serde_json::from_value::<lsp::DidCloseTextDocumentParams>(p) {
                    self.docs.close(p.text_document.uri.as_str());
                    self.syntax.remove(p.text_document.uri.as_str());
                    // A closed buffer's problems are no longer shown.
                    let cleared = lsp::PublishDiagnosticsParams::new(p.text_document.uri, Vec::new(), None);
                    notify(conn, "textDocument/publishDiagnostics", cleared);
                }
            }
            "workspace/didChangeWatchedFiles" => {
                if let Ok(p) = serde_json::from_value::<lsp::DidChangeWatchedFilesParams>(p) {
                    self.changed(p.changes.iter().filter_map(|c| uri::to_path(c.uri.as_str())).collect());
                }
            }
            "$/cancelRequest" | "initialized" | "$/setTrace" => {}
            other => tracing::debug!(method = other, "notification ignored"),
        }
    }

    /// Checks an open Java buffer's syntax after it opened or changed: only what changed since
    /// its last check is parsed again.
    fn recheck(&mut self, uri: &str) {
        let Some(doc) = self.docs.get(uri) else { return };
        if !uri.ends_with(".java") {
            return;
        }
        let mut last = self.syntax.remove(uri).and_then(|s| s.last);
        let diagnostics = diagnostics::of_edited(&display_of(uri), &doc.text, &mut last);
        self.syntax.insert(uri.to_owned(), Syntax { diagnostics, last });
    }

    /// Publishes the problems of an open Java buffer, as the client shows it: its syntax
    /// problems, and javac's of the file's last check.
    fn publish(&self, conn: &Connection, uri: lsp::Uri) {
        let Some(doc) = self.docs.get(uri.as_str()) else { return };
        if !uri.as_str().ends_with(".java") {
            return;
        }
        let diagnostics = self.diagnostics_of(uri.as_str());
        let version = Some(doc.version);
        notify(conn, "textDocument/publishDiagnostics", lsp::PublishDiagnosticsParams::new(uri, diagnostics, version));
    }

    /// Files the client says changed on disk: re-indexed now rather than when the watcher
    /// reports them, so the next answer sees them.
    fn changed(&self, paths: Vec<PathBuf>) {
        let inside: Vec<PathBuf> =
            paths.into_iter().filter_map(|p| self.host.resolve(&p.to_string_lossy()).ok().map(|r| r.path)).collect();
        if !inside.is_empty() {
            self.host.index().changed(&inside);
        }
    }

    /// The text of the file a URI names, read through the path policy; None outside the roots.
    fn disk_text(&self, uri: &str) -> Option<String> {
        let path = uri::to_path(uri)?;
        let r = self.host.resolve(&path.to_string_lossy()).ok()?;
        let bytes = self.host.roots().read(&r.path, &r.display).ok()?;
        String::from_utf8(bytes).ok()
    }

    /// The text a file's answers are positioned in: the file as saved (the tools read files).
    fn saved_text(&self, path: &std::path::Path) -> Option<String> {
        let r = self.host.resolve(&path.to_string_lossy()).ok()?;
        let bytes = self.host.roots().read(&r.path, &r.display).ok()?;
        String::from_utf8(bytes).ok()
    }

    /// `textDocument/diagnostic`: the buffer's (else the file's) syntax problems and javac's,
    /// checked now through get_problems on the saved file and moved to the buffer's lines.
    fn pull_diagnostics(&mut self, p: lsp::DocumentDiagnosticParams) -> Reply {
        let u = p.text_document.uri.as_str();
        let Some(path) = uri::to_path(u) else {
            return Err((ErrorCode::InvalidParams, format!("not a file URI: {u}")));
        };
        let r = self.host.resolve(&path.to_string_lossy()).map_err(|e| (ErrorCode::RequestFailed, e.to_string()))?;
        let text = self.saved_text(&r.path).unwrap_or_default();
        let args = json!({"filePath": r.path.to_string_lossy(), "sourceFilter": ["javac"]});
        let v = self.call("get_problems", args).map_err(|e| (ErrorCode::RequestFailed, e))?;
        self.started += 1;
        let checked = Checked {
            path: r.path.clone(),
            text: text.clone(),
            diagnostics: diagnostics::of_answer(&v),
            seq: self.started,
        };
        self.javac.insert(r.path.clone(), checked);
        let items = match self.docs.get(u) {
            Some(_) => self.diagnostics_of(u),
            None => {
                let mut out = diagnostics::of_text(&r.display, &text);
                out.extend(self.javac.get(&r.path).map(|c| c.diagnostics.clone()).unwrap_or_default());
                out
            }
        };
        Ok(json!({"kind": "full", "items": items}))
    }

    /// The open buffer of a file (a canonical path, as the host resolves it), if the client has
    /// one open.
    pub(crate) fn buffer_of(&self, path: &std::path::Path) -> Option<&docs::Doc> {
        self.docs.of_path(path)
    }

    /// The lines between a file as saved and its open buffer (the identity when it is not open
    /// or has no unsaved change): how an answer's positions reach the text the editor shows.
    pub(crate) fn line_map(&self, path: &std::path::Path) -> shadow::LineMap {
        // The file is read only when the client has it open.
        let Some(doc) = self.buffer_of(path) else { return shadow::LineMap::default() };
        match self.saved_text(path) {
            Some(saved) => shadow::LineMap::between(&saved, &doc.text),
            None => shadow::LineMap::nothing(),
        }
    }

    /// Calls a tool through the registry, with the whole answer wanted (an editor pages
    /// nothing): the answer's structured value, or the tool error.
    fn call(&self, tool: &str, args: Value) -> Result<Value, String> {
        call_tool(&self.host, tool, args)
    }
}

/// Calls a tool through the registry, with the whole answer wanted (an editor pages nothing):
/// the answer's structured value, or the tool error.
fn call_tool(host: &Host, tool: &str, args: Value) -> Result<Value, String> {
    let Value::Object(args) = args else { return Err("internal error: arguments are not an object".into()) };
    wait_index_for(host, tool);
    let budget = mji_tools::budget::Budget { tokens: ANSWER_TOKENS, structured: true };
    mji_tools::registry::dispatch_within(host, tool, args, budget).map(|a| a.value)
}

/// An editor has no partial answer to show: a query on the index waits for its first pass
/// (up to `index_wait_ms`), as the CLI does.
pub(crate) fn wait_index_for(host: &Host, tool: &str) {
    if mji_tools::registry::find(tool).is_some_and(|e| e.waits_for_index) && !host.index().progress().complete {
        host.wait_index();
    }
}

/// The answer budget of a call made for the editor: its answers go to a program, not a model,
/// so they are cut only where the registry's byte limit cuts every answer.
const ANSWER_TOKENS: usize = 1_000_000;

fn params<T: serde::de::DeserializeOwned>(v: Value) -> Result<T, (ErrorCode, String)> {
    serde_json::from_value(v).map_err(|e| (ErrorCode::InvalidParams, format!("invalid params: {e}")))
}
