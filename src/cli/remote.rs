//! The command line as a client of the workspace's warm shared server (issue 38): a query
//! command whose workspace has a running `serve --shared` (as `bridge` finds it) sends its one
//! tool call there over the token-authenticated TCP transport — a handshake, the call, the
//! answer — instead of opening the workspace, indexing and binding in this process. The answer
//! is the tool's, so it prints the same bytes. The server first proves that it is the one
//! registered (`shared::connect_proven`: an answer to a fresh challenge under the key in the
//! owner-only registration), and only then is the token sent: whoever holds the port of a
//! server that died gets nothing of the user's, and its answers are never printed; the command
//! answers in its own process instead, saying why on stderr.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::time::Duration;

use serde_json::{Map, Value, json};

use crate::mcp_server::shared::{self, Registration};
use crate::tools::registry::{self, Answer};

use super::flags::WorkspaceFlags;

/// The configuration keys a command line may give and still be answered by the shared server
/// (which answers with its own configuration): any other flag means "answer with these
/// settings", so in process.
const SHAREABLE_KEYS: &[&str] = &["roots", "daemon", "daemon_start", "log_level"];

/// How long a shared server may take to answer the handshake or a call before the command
/// gives up on it (a call's own time is the tool's: the server answers within its budgets).
const TIMEOUT: Duration = Duration::from_secs(300);

/// Where a query command's call is answered.
pub(crate) enum Route {
    /// The workspace's running shared server.
    Shared(Registration),
    /// In this process, after starting a shared server in the background for the next
    /// commands (`daemon_start`, `--daemon`): the server's roots.
    StartThenLocal(Vec<PathBuf>),
    /// In this process.
    Local,
}

/// Where `tool`'s call goes: to a running shared server of this workspace when the call may go
/// there — the `daemon` setting on, no setting but the roots on the command line, a read-only
/// navigation tool (whose answer does not depend on trust or on a build), and a server of this
/// version that answers; else in process, first starting a server when `daemon_start` is on
/// and none is registered.
pub(crate) fn route(flags: &WorkspaceFlags, tool: &str) -> Route {
    // `--no-daemon`: in process, decided before the configuration is loaded (the workspace
    // loads it again) or the tool looked up — a start cost of every command (issue 38).
    if flags.0.get("daemon").is_some_and(|v| v.last().is_some_and(|s| s == "false")) {
        return Route::Local;
    }
    let Some(entry) = registry::find(tool) else { return Route::Local };
    if entry.spec.group != "navigation" || !entry.spec.read_only {
        return Route::Local;
    }
    if flags.0.keys().any(|k| !SHAREABLE_KEYS.contains(&k)) {
        return Route::Local;
    }
    let Ok(config) = crate::config::Config::load(&flags.0, &|k| std::env::var(k).ok()) else { return Route::Local };
    if !config.daemon {
        return Route::Local;
    }
    let roots = shared::canonical_roots(&config.roots);
    let Some(path) = shared::registration_path(&roots) else { return Route::Local };
    let live = shared::live(&path).unwrap_or_else(|e| {
        eprintln!("warning: {e}");
        None
    });
    match live {
        Some(reg) if reg.version == env!("CARGO_PKG_VERSION") => Route::Shared(reg),
        // A server of another version answers: none is started beside it.
        Some(_) => Route::Local,
        // None, a stale registration or one not used (which the new server replaces).
        None if config.daemon_start => Route::StartThenLocal(roots),
        None => Route::Local,
    }
}

/// Starts the shared server of `roots` in the background, as `bridge` does, not waiting for it:
/// this command answers in its own process. A failure to start is said on stderr, not fatal.
pub(crate) fn start_server(roots: &[PathBuf]) {
    let mut args: Vec<std::ffi::OsString> = Vec::new();
    for r in roots {
        args.push("--root".into());
        args.push(r.into());
    }
    match super::serve::start_shared(shared::log_path(roots).as_deref(), args) {
        // Not waited for: the server outlives this command (its parent becomes init).
        Ok(child) => drop(child),
        Err(e) => eprintln!("warning: {e}"),
    }
}

/// The server's roots, for the paths the command line names.
pub(crate) fn roots(reg: &Registration) -> &[PathBuf] {
    &reg.roots
}

/// Calls `tool` with `args` on the shared server: the tool's answer, or its error's text.
pub(crate) fn call(reg: &Registration, tool: &str, args: Map<String, Value>) -> Result<Answer, String> {
    exchange(reg, tool, args).map_err(|e| format!("the shared server (pid {}) did not answer: {e}", reg.pid))?
}

/// One connection: the server's proof, the token line, `initialize`, `notifications/initialized`, the call; the
/// call's result (skipping notifications such as progress).
fn exchange(reg: &Registration, tool: &str, args: Map<String, Value>) -> std::io::Result<Result<Answer, String>> {
    // The token is written only once the server has proven itself.
    let stream = shared::connect_authenticated(reg)?;
    stream.set_read_timeout(Some(TIMEOUT))?;
    let mut out = stream.try_clone()?;
    let mut lines = BufReader::new(stream).lines();
    let mut send = |v: Value| writeln!(out, "{v}").and_then(|()| out.flush());
    let client = json!({"name": "mcp-java-index-cli", "version": env!("CARGO_PKG_VERSION")});
    let init = json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": client});
    send(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init}))?;
    response(&mut lines, 1)?;
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
    let params = json!({"name": tool, "arguments": args});
    send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": params}))?;
    let reply = response(&mut lines, 2)?;
    Ok(answer_of(reply))
}

/// The response to request `id`, skipping what else the server sends (notifications).
fn response(lines: &mut impl Iterator<Item = std::io::Result<String>>, id: u64) -> std::io::Result<Value> {
    for line in lines {
        let v: Value = serde_json::from_str(&line?).map_err(std::io::Error::other)?;
        if v["id"] == id {
            return Ok(v);
        }
    }
    Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "the connection closed"))
}

/// A `tools/call` response as the answer the registry would have given: the structured value
/// and the text, or the tool error's text (a JSON-RPC error too).
fn answer_of(reply: Value) -> Result<Answer, String> {
    if let Some(e) = reply.get("error") {
        return Err(e["message"].as_str().unwrap_or("the server refused the call").to_owned());
    }
    let result = &reply["result"];
    let text: String = result["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n");
    if result["isError"] == true {
        return Err(text);
    }
    let value = result
        .get("structuredContent")
        .cloned()
        .unwrap_or_else(|| serde_json::from_str(&text).unwrap_or(Value::String(text.clone())));
    Ok(Answer { value, text: Some(text), meta: None })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_becomes_the_answer_or_the_tool_error() {
        let ok = json!({"id": 2, "result": {"content": [{"type": "text", "text": "a\\nb"}], "structuredContent": {"total": 1}}});
        let a = answer_of(ok).expect("an answer");
        assert_eq!((a.value, a.text.as_deref()), (json!({"total": 1}), Some("a\\nb")));
        let tool_error =
            json!({"id": 2, "result": {"content": [{"type": "text", "text": "no type x"}], "isError": true}});
        assert_eq!(answer_of(tool_error).err().as_deref(), Some("no type x"));
        let refused = json!({"id": 2, "error": {"code": -32602, "message": "unknown tool"}});
        assert_eq!(answer_of(refused).err().as_deref(), Some("unknown tool"));
    }
}
