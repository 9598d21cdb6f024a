//! Newline-delimited JSON-RPC over a byte stream (stdio), with what rmcp's own stdio transport
//! leaves out: invalid JSON is answered with a JSON-RPC parse error (the server keeps
//! serving), a message that is JSON but not JSON-RPC gets an invalid-request error, and every
//! message received and sent can be recorded with a timestamp in a log file. Two repairs of
//! rmcp's reading: a request id that is a JSON number outside i64 (rmcp's id type) is carried
//! through as a placeholder and written back with its exact original text, and a `tools/call`
//! whose params are not `{name: string, arguments?: object}` is answered `-32602` (rmcp would
//! answer `-32601`, method not found). A request whose id is an object, an array or a boolean
//! is answered `-32600` with `id: null` (rmcp would echo it), one whose method name is longer
//! than any method `-32601` with the name clipped, and no error quotes more than a short prefix
//! of what it could not read.

use std::sync::{Arc, Mutex};

use crate::logfile::LogFile;

use rmcp::RoleServer;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// Lines longer than this are refused with an error rather than buffered without bound. A
/// request is a few hundred bytes; every string argument is capped far lower by the registry.
pub(crate) const MAX_LINE_BYTES: usize = 8 * 1024 * 1024;

/// A message log shared by the reader and writer tasks (a capped, rotated [`LogFile`]).
#[derive(Clone, Default)]
pub struct MessageLog {
    file: Option<LogFile>,
}

impl MessageLog {
    /// `path` opened for appending (none: nothing is recorded); with `confine` (a repository
    /// chose the path) it must lead inside those roots and is opened following no link.
    pub fn open(path: Option<&std::path::Path>, confine: Option<&[std::path::PathBuf]>) -> std::io::Result<MessageLog> {
        let Some(path) = path else {
            return Ok(MessageLog::default());
        };
        Ok(MessageLog { file: Some(LogFile::open_confined(path, confine)?) })
    }

    /// Records into a log file already open (the one a network server also logs to).
    pub fn to(file: LogFile) -> MessageLog {
        MessageLog { file: Some(file) }
    }

    /// Records one message line with a UTC timestamp and its direction (`<-` in, `->` out).
    pub fn record(&self, direction: &str, line: &str) {
        if let Some(f) = &self.file {
            f.append(format!("{} {direction} {}\n", timestamp(), line.trim_end()).as_bytes());
        }
    }
}

/// RFC 3339 UTC timestamp with milliseconds, from the system clock.
pub fn timestamp() -> String {
    mji_tools::rfc3339(std::time::SystemTime::now())
}

/// The server side of a line-delimited JSON-RPC connection.
pub(crate) struct LineTransport {
    incoming: mpsc::Receiver<ClientJsonRpcMessage>,
    outgoing: mpsc::UnboundedSender<String>,
}

/// Handles to wait for the writer to drain after the service ends.
pub(crate) struct Pump {
    pub writer: tokio::task::JoinHandle<()>,
}

impl LineTransport {
    /// Starts the reader and writer tasks over `input`/`output`.
    pub fn start<R, W>(input: R, output: W, log: MessageLog) -> (LineTransport, Pump)
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let (in_tx, in_rx) = mpsc::channel::<ClientJsonRpcMessage>(64);
        let (out_tx, mut out_rx) = mpsc::unbounded_channel::<String>();
        let errors = out_tx.clone();
        let read_log = log.clone();
        let wide_ids: WideIds = Arc::default();
        let write_ids = wide_ids.clone();
        tokio::spawn(async move {
            let mut reader = BufReader::new(input);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                let n = match (&mut reader).take(MAX_LINE_BYTES as u64 + 1).read_until(b'\n', &mut buf).await {
                    Ok(n) => n,
                    Err(e) => {
                        tracing::error!("reading from the client: {e}");
                        break;
                    }
                };
                if n == 0 {
                    break; // end of input: the service ends, in-flight answers still go out
                }
                if buf.len() > MAX_LINE_BYTES {
                    let _ = errors.send(error_line(
                        -32600,
                        "message too large (over the 8 MiB limit of one JSON-RPC message); not processed",
                    ));
                    // Skip the rest of the oversized line.
                    loop {
                        buf.clear();
                        match (&mut reader).take(1 << 20).read_until(b'\n', &mut buf).await {
                            Ok(0) => break,
                            Ok(_) if buf.ends_with(b"\n") => break,
                            Ok(_) => continue,
                            Err(_) => break,
                        }
                    }
                    continue;
                }
                let line = String::from_utf8_lossy(&buf);
                let line = line.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
                if line.is_empty() {
                    continue;
                }
                read_log.record("<-", line);
                match early(line) {
                    Early::Pass => {}
                    Early::Answer(err) => {
                        let _ = errors.send(err);
                        continue;
                    }
                    Early::Drop => continue,
                }
                if let Some(err) = invalid_tool_call(line) {
                    let _ = errors.send(err);
                    continue;
                }
                let rewritten = carry_wide_id(line, &wide_ids);
                let line = rewritten.as_deref().unwrap_or(line);
                match serde_json::from_str::<ClientJsonRpcMessage>(line) {
                    Ok(msg) => {
                        if in_tx.send(msg).await.is_err() {
                            break;
                        }
                    }
                    Err(e) if e.is_syntax() || e.is_eof() => {
                        tracing::warn!("invalid JSON from the client: {e}");
                        let _ = errors.send(error_line(-32700, &format!("Parse error: {}", quoted_error(&e))));
                    }
                    Err(e) => {
                        tracing::warn!("not a JSON-RPC message: {e}");
                        // Only an id JSON-RPC allows is answered to (`early` took the others).
                        let id = serde_json::from_str::<serde_json::Value>(line)
                            .ok()
                            .and_then(|v| v.get("id").cloned())
                            .filter(|id| id.is_string() || id.is_number())
                            .unwrap_or(serde_json::Value::Null);
                        let message = format!("Invalid request: {}", quoted_error(&e));
                        let _ = errors.send(
                            serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32600, "message": message}})
                                .to_string(),
                        );
                    }
                }
            }
        });
        let writer = tokio::spawn(async move {
            let mut output = output;
            while let Some(mut line) = out_rx.recv().await {
                restore_wide_id(&mut line, &write_ids);
                log.record("->", &line);
                let ok = output.write_all(line.as_bytes()).await.is_ok()
                    && output.write_all(b"\n").await.is_ok()
                    && output.flush().await.is_ok();
                if !ok {
                    break;
                }
            }
        });
        (LineTransport { incoming: in_rx, outgoing: out_tx }, Pump { writer })
    }
}

/// Placeholders standing for request ids rmcp cannot hold, with the ids' exact JSON text.
type WideIds = Arc<Mutex<std::collections::HashMap<String, String>>>;

/// The head of a message: its method, its id's exact text, and its params.
#[derive(serde::Deserialize)]
struct Head<'a> {
    #[serde(default, borrow)]
    id: Option<&'a serde_json::value::RawValue>,
    #[serde(default)]
    method: Option<String>,
    #[serde(default, borrow)]
    params: Option<&'a serde_json::value::RawValue>,
}

/// A serde error as an answer quotes it: short (serde quotes the values it could not read).
fn quoted_error(e: &serde_json::Error) -> String {
    mji_fs::clip_to(&e.to_string(), 300).into_owned()
}

/// The longest method name passed on: MCP's are short, and rmcp answers an unknown method
/// with its whole name.
const MAX_METHOD_CHARS: usize = 256;

/// What the server does with a message before rmcp reads it.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Early {
    /// Passed on to rmcp.
    Pass,
    /// Answered with this line, not passed on.
    Answer(String),
    /// Dropped unanswered (a notification no one can serve).
    Drop,
}

/// A message rmcp would answer by echoing it: one whose `id` is neither a string, a number
/// nor null (an object, an array, a boolean: JSON-RPC 2.0's invalid request, answered with
/// `id: null`), or whose method name is longer than any method (method not found, the name
/// clipped; a notification is dropped).
pub(crate) fn early(message: &str) -> Early {
    let Ok(head) = serde_json::from_str::<Head>(message) else { return Early::Pass };
    let id = head.id.map(|raw| raw.get().trim_start());
    if let Some(id) = id
        && !(id.starts_with(['"', '-']) || id.starts_with(|c: char| c.is_ascii_digit()) || id == "null")
    {
        return Early::Answer(error_line(-32600, "Invalid request: id must be a string, a number or null"));
    }
    match head.method {
        Some(m) if m.chars().count() > MAX_METHOD_CHARS => match id {
            Some(id) => {
                let message = serde_json::Value::String(format!("Method not found: {}", mji_fs::clip(&m)));
                Early::Answer(format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32601,"message":{message}}}}}"#))
            }
            None => Early::Drop,
        },
        _ => Early::Pass,
    }
}

/// A `tools/call` request whose params are not an object with a string `name` and an object
/// (or absent) `arguments`: the `-32602` answer, with the request's id as it was written.
fn invalid_tool_call(line: &str) -> Option<String> {
    let head: Head = serde_json::from_str(line).ok()?;
    if head.method.as_deref() != Some("tools/call") {
        return None;
    }
    let id = head.id?.get();
    let params: Option<serde_json::Value> = head.params.and_then(|p| serde_json::from_str(p.get()).ok());
    let problem = match params.as_ref().and_then(|p| p.as_object()) {
        None => "params must be an object with `name` (the tool's name) and `arguments` (an object)".to_owned(),
        Some(o) => match (o.get("name"), o.get("arguments")) {
            (
                Some(serde_json::Value::String(_)),
                None | Some(serde_json::Value::Object(_) | serde_json::Value::Null),
            ) => {
                return None;
            }
            (Some(serde_json::Value::String(_)), Some(other)) => format!(
                "params.arguments must be an object of the tool's arguments, not {}",
                mji_fs::clip(&other.to_string())
            ),
            (None, _) => "params.name is missing: give the tool's name (see tools/list)".to_owned(),
            (Some(other), _) => format!("params.name must be a string, not {}", mji_fs::clip(&other.to_string())),
        },
    };
    let message = serde_json::Value::String(format!("Invalid params: {problem}"));
    Some(format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32602,"message":{message}}}}}"#))
}

/// A request whose id is a number rmcp cannot hold (beyond i64, or not an integer): the
/// message with a placeholder string id, remembered to be swapped back on the way out.
fn carry_wide_id(line: &str, ids: &WideIds) -> Option<String> {
    let head: Head = serde_json::from_str(line).ok()?;
    let raw = head.id?.get();
    if !raw.starts_with(|c: char| c == '-' || c.is_ascii_digit()) || raw.parse::<i64>().is_ok() {
        return None;
    }
    let mut v: serde_json::Value = serde_json::from_str(line).ok()?;
    let mut map = ids.lock().ok()?;
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let placeholder = format!("mcp-java-index-wide-id-{n}");
    v.as_object_mut()?.insert("id".to_owned(), serde_json::Value::String(placeholder.clone()));
    map.insert(placeholder, raw.to_owned());
    Some(v.to_string())
}

/// Puts a wide id's exact text back into an outgoing answer.
fn restore_wide_id(line: &mut String, ids: &WideIds) {
    let Ok(mut map) = ids.lock() else { return };
    if map.is_empty() {
        return;
    }
    let found = map.keys().find(|k| line.contains(&format!("\"id\":\"{k}\""))).cloned();
    if let Some(k) = found
        && let Some(raw) = map.remove(&k)
    {
        *line = line.replacen(&format!("\"id\":\"{k}\""), &format!("\"id\":{raw}"), 1);
    }
}

fn error_line(code: i64, message: &str) -> String {
    serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": message}}).to_string()
}

/// The transport could not send: the writer is gone.
#[derive(Debug, thiserror::Error)]
#[error("the connection's writer has stopped")]
pub(crate) struct Closed;

impl Transport<RoleServer> for LineTransport {
    type Error = Closed;

    fn send(&mut self, item: ServerJsonRpcMessage) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let result = match serde_json::to_string(&item) {
            Ok(line) => self.outgoing.send(line).map_err(|_| Closed),
            Err(e) => {
                tracing::error!("serializing a response: {e}");
                Ok(())
            }
        };
        std::future::ready(result)
    }

    fn receive(&mut self) -> impl Future<Output = Option<ClientJsonRpcMessage>> + Send {
        self.incoming.recv()
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.incoming.close();
        Ok(())
    }
}
