//! Newline-delimited JSON-RPC over a byte stream (stdio), with what rmcp's own stdio transport
//! leaves out: invalid JSON is answered with a JSON-RPC parse error (the server keeps
//! serving), a message that is JSON but not JSON-RPC gets an invalid-request error, and every
//! message received and sent can be recorded with a timestamp in a log file.

use std::sync::{Arc, Mutex};

use rmcp::RoleServer;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// Lines longer than this are refused with an error rather than buffered without bound. A
/// request is a few hundred bytes; every string argument is capped far lower by the registry.
pub const MAX_LINE_BYTES: usize = 8 * 1024 * 1024;

/// A message log shared by the reader and writer tasks.
#[derive(Clone, Default)]
pub struct MessageLog {
    file: Option<Arc<Mutex<std::fs::File>>>,
}

impl MessageLog {
    pub fn open(path: Option<&std::path::Path>) -> std::io::Result<MessageLog> {
        let Some(path) = path else {
            return Ok(MessageLog::default());
        };
        let f = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
        Ok(MessageLog { file: Some(Arc::new(Mutex::new(f))) })
    }

    /// Records one message line with a UTC timestamp and its direction (`<-` in, `->` out).
    pub fn record(&self, direction: &str, line: &str) {
        use std::io::Write;
        if let Some(f) = &self.file
            && let Ok(mut f) = f.lock()
        {
            let _ = writeln!(f, "{} {direction} {}", timestamp(), line.trim_end());
        }
    }
}

/// RFC 3339 UTC timestamp with milliseconds, from the system clock.
pub fn timestamp() -> String {
    mji_tools::rfc3339(std::time::SystemTime::now())
}

/// The server side of a line-delimited JSON-RPC connection.
pub struct LineTransport {
    incoming: mpsc::Receiver<ClientJsonRpcMessage>,
    outgoing: mpsc::UnboundedSender<String>,
}

/// Handles to wait for the writer to drain after the service ends.
pub struct Pump {
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
        tokio::spawn(async move {
            let mut reader = BufReader::new(input);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                let n = match (&mut reader).take(MAX_LINE_BYTES as u64 + 1).read_until(b'\n', &mut buf).await {
                    Ok(n) => n,
                    Err(e) => {
                        tracing::error!("reading stdin: {e}");
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
                match serde_json::from_str::<ClientJsonRpcMessage>(line) {
                    Ok(msg) => {
                        if in_tx.send(msg).await.is_err() {
                            break;
                        }
                    }
                    Err(e) if e.is_syntax() || e.is_eof() => {
                        tracing::warn!("invalid JSON on stdin: {e}");
                        let _ = errors.send(error_line(-32700, &format!("Parse error: {e}")));
                    }
                    Err(e) => {
                        tracing::warn!("not a JSON-RPC message: {e}");
                        let id = serde_json::from_str::<serde_json::Value>(line)
                            .ok()
                            .and_then(|v| v.get("id").cloned())
                            .unwrap_or(serde_json::Value::Null);
                        let _ = errors.send(
                            serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32600, "message": format!("Invalid request: {e}")}})
                                .to_string(),
                        );
                    }
                }
            }
        });
        let writer = tokio::spawn(async move {
            let mut output = output;
            while let Some(line) = out_rx.recv().await {
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

fn error_line(code: i64, message: &str) -> String {
    serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": message}}).to_string()
}

/// The transport could not send: the writer is gone.
#[derive(Debug, thiserror::Error)]
#[error("the connection's writer has stopped")]
pub struct Closed;

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
