//! Newline-delimited JSON-RPC over TCP (the Eclipse seed's transport, and what `bridge`
//! speaks): several connections at once, each served like stdio (the same line transport:
//! parse errors answered, the server keeps serving). A loopback port is open to every local
//! user, so a connection's first line must be `Bearer <token>`, the token only the user can
//! read (an owner-only file); otherwise it gets one JSON-RPC error and is closed. A shared
//! server's clients first have it prove itself (see `shared.rs`): their first line is
//! `Challenge <nonce>`, answered `Proof <hmac>` under the key of its registration, and the token
//! line follows; a server without such a key (plain `--tcp`) refuses a challenge.

use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio_util::sync::CancellationToken;

use crate::JavaIndexServer;
use crate::secret::same_secret;
use crate::shared::Activity;
use crate::transport::MessageLog;

/// What the first line of a connection starts with, before the token.
pub const AUTH_PREFIX: &str = "Bearer ";

/// What a shared server's client sends first, before its nonce, for the server to prove itself.
pub const CHALLENGE_PREFIX: &str = "Challenge ";

/// What a shared server answers a challenge with, before the proof.
pub const PROOF_PREFIX: &str = "Proof ";

/// How long a connection may take to send its token line.
const AUTH_WAIT: Duration = Duration::from_secs(10);

/// How a connection's opening went.
enum Auth {
    /// The token line carried the token.
    Token,
    /// A token line with another token.
    Wrong,
    /// A shared server's client had the server prove itself and closed (it checked that the
    /// server lives).
    Checked,
}

/// Serves every connection accepted on `listener` until `ct` is cancelled.
pub(crate) async fn serve_tcp(
    server: JavaIndexServer,
    listener: tokio::net::TcpListener,
    token: Arc<str>,
    proof_key: Option<Arc<str>>,
    activity: Arc<Activity>,
    log: MessageLog,
    ct: CancellationToken,
) {
    let slots = Arc::new(tokio::sync::Semaphore::new(crate::MAX_CONNECTIONS));
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    tracing::warn!("accepting a TCP connection: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            _ = ct.cancelled() => break,
        };
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            tracing::warn!(%peer, "TCP connection refused: {} already open", crate::MAX_CONNECTIONS);
            drop(stream);
            continue;
        };
        let (server, token, activity, log) = (server.clone(), token.clone(), activity.clone(), log.clone());
        let proof_key = proof_key.clone();
        tokio::spawn(async move {
            let _slot = slot;
            let _active = activity.enter();
            let _ = stream.set_nodelay(true);
            let (read, mut write) = stream.into_split();
            let mut reader = BufReader::new(read);
            let auth = async {
                let mut first = Vec::new();
                (&mut reader).take(4096).read_until(b'\n', &mut first).await.ok()?;
                let line = String::from_utf8_lossy(&first).trim().to_owned();
                if let Some(nonce) = line.strip_prefix(CHALLENGE_PREFIX) {
                    // A shared server's client checking it before it sends the token.
                    let key = proof_key.as_deref()?;
                    let nonce = nonce.trim();
                    if nonce.is_empty() || nonce.len() > 128 {
                        return None;
                    }
                    let answer = format!("{PROOF_PREFIX}{}\n", crate::secret::proof(key, nonce));
                    write.write_all(answer.as_bytes()).await.ok()?;
                    first.clear();
                    if (&mut reader).take(4096).read_until(b'\n', &mut first).await.ok()? == 0 {
                        return Some(Auth::Checked);
                    }
                }
                let line = String::from_utf8_lossy(&first);
                let given = line.trim().strip_prefix(AUTH_PREFIX)?;
                Some(if same_secret(given.trim().as_bytes(), token.as_bytes()) { Auth::Token } else { Auth::Wrong })
            };
            let got = tokio::time::timeout(AUTH_WAIT, auth).await;
            if matches!(got, Ok(Some(Auth::Checked))) {
                tracing::debug!(%peer, "TCP client checked that the shared server lives");
                return;
            }
            let ok = matches!(got, Ok(Some(Auth::Token)));
            if !ok {
                tracing::warn!(%peer, "TCP connection refused: no valid token on its first line");
                let refusal = serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32001,
                    "message": "Unauthorized: the first line must be `Bearer <token>` (the token of the server's owner-only token file)"}});
                let _ = write.write_all(format!("{refusal}\n").as_bytes()).await;
                let _ = write.shutdown().await;
                return;
            }
            tracing::info!(%peer, "TCP client connected");
            crate::serve_connection(server, reader, write, log).await;
            tracing::info!(%peer, "TCP client disconnected");
        });
    }
}
