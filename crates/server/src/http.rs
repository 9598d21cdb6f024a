//! MCP Streamable HTTP: rmcp's `StreamableHttpService` (sessions for the legacy era, stateless
//! requests for 2026-07-28, progress over SSE) on a hyper HTTP/1.1 listener, behind a bearer
//! token (missing or wrong: 401). rmcp checks `Host` against the loopback names (and the bound
//! address) and `Origin` against this server's own origins: a DNS-rebinding page gets 403.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use bytes::Bytes;
use http::{Request, Response, StatusCode};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio_util::sync::CancellationToken;

use crate::JavaIndexServer;
use crate::secret::same_secret;
use crate::shared::Activity;

type Service = StreamableHttpService<JavaIndexServer, LocalSessionManager>;

/// Whether a network transport may listen at `addr`: loopback always; any other address only
/// when the user asked for it (`allow_remote`) and chose the token (`token_configured`), so a
/// server reachable from other machines never runs on a token nobody decided to share.
pub fn check_bind(addr: SocketAddr, allow_remote: bool, token_configured: bool) -> Result<(), String> {
    if addr.ip().is_loopback() {
        return Ok(());
    }
    if !allow_remote {
        return Err(format!(
            "{addr} is not a loopback address: other machines could reach the server; \
             bind 127.0.0.1, or pass --allow-remote with --token-file"
        ));
    }
    if !token_configured {
        return Err(format!(
            "serving on {addr} (not loopback) needs a token you chose: pass --token-file PATH (an owner-only file)"
        ));
    }
    Ok(())
}

/// The `Host` values a request may carry: the loopback names, the bound address itself, and
/// the names the user added.
fn allowed_hosts(addr: SocketAddr, extra: &[String]) -> Vec<String> {
    let mut hosts = vec!["localhost".to_owned(), "127.0.0.1".to_owned(), "::1".to_owned()];
    if !addr.ip().is_loopback() && !addr.ip().is_unspecified() {
        hosts.push(addr.ip().to_string());
    }
    hosts.extend(extra.iter().cloned());
    hosts
}

/// The browser origins allowed (a request without `Origin`, as every non-browser client
/// sends, passes): this server's own, so a page from elsewhere cannot drive it.
fn allowed_origins(addr: SocketAddr, extra: &[String]) -> Vec<String> {
    let port = addr.port();
    let mut origins =
        vec![format!("http://127.0.0.1:{port}"), format!("http://localhost:{port}"), format!("http://[::1]:{port}")];
    if !addr.ip().is_loopback() && !addr.ip().is_unspecified() {
        origins.push(format!("http://{addr}"));
    }
    origins.extend(extra.iter().map(|h| format!("http://{h}:{port}")));
    origins
}

/// Serves MCP over HTTP on `listener` until `ct` is cancelled.
pub(crate) async fn serve_http(
    server: JavaIndexServer,
    listener: tokio::net::TcpListener,
    extra_hosts: Vec<String>,
    token: Arc<str>,
    activity: Arc<Activity>,
    ct: CancellationToken,
) {
    let addr = match listener.local_addr() {
        Ok(a) => a,
        Err(e) => {
            tracing::error!("HTTP listener without an address: {e}");
            return;
        }
    };
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(allowed_hosts(addr, &extra_hosts))
        .with_allowed_origins(allowed_origins(addr, &extra_hosts))
        .with_cancellation_token(ct.child_token());
    // One handler value per session; they share the workspace and the call pool.
    let service: Service =
        StreamableHttpService::new(move || Ok(server.clone()), Arc::new(LocalSessionManager::default()), config);
    let slots = Arc::new(tokio::sync::Semaphore::new(crate::MAX_CONNECTIONS));
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of descriptors, say: wait a moment rather than spin.
                    tracing::warn!("accepting an HTTP connection: {e}");
                    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                    continue;
                }
            },
            _ = ct.cancelled() => break,
        };
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            tracing::warn!(%peer, "HTTP connection refused: {} already open", crate::MAX_CONNECTIONS);
            drop(stream);
            continue;
        };
        // An answer is several small writes (the SSE priming event, then the message): with
        // Nagle's algorithm each waits for the client's delayed ACK, 40 ms per call on a
        // keep-alive connection.
        let _ = stream.set_nodelay(true);
        let (service, token, activity) = (service.clone(), token.clone(), activity.clone());
        tokio::spawn(async move {
            let _slot = slot;
            let svc = hyper::service::service_fn(move |req: Request<Incoming>| {
                let (service, token, activity) = (service.clone(), token.clone(), activity.clone());
                async move { Ok::<_, Infallible>(handle(&service, &token, &activity, req).await) }
            });
            // A client that never finishes its headers is dropped (with the timer hyper needs).
            let conn = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(std::time::Duration::from_secs(30))
                .serve_connection(TokioIo::new(stream), svc);
            if let Err(e) = conn.await {
                tracing::debug!(%peer, "HTTP connection ended: {e}");
            }
        });
    }
}

/// One request: the token first, then rmcp (which checks `Host` and `Origin`).
async fn handle(
    service: &Service,
    token: &str,
    activity: &Arc<Activity>,
    req: Request<Incoming>,
) -> Response<BoxBody<Bytes, Infallible>> {
    let _active = activity.enter();
    if !authorized(req.headers(), token) {
        return Response::builder()
            .status(StatusCode::UNAUTHORIZED)
            .header(http::header::WWW_AUTHENTICATE, "Bearer realm=\"mcp-java-index\"")
            .header(http::header::CONTENT_TYPE, "text/plain; charset=utf-8")
            .body(
                Full::new(Bytes::from_static(
                    b"Unauthorized: send `Authorization: Bearer <token>`; the server printed its token file's path at start\n",
                ))
                .boxed(),
            )
            .unwrap_or_else(|_| Response::new(Full::new(Bytes::new()).boxed()));
    }
    if req.method() != http::Method::POST {
        return service.handle(req).await;
    }
    // rmcp reads the body itself and would echo an id JSON-RPC does not allow or an overlong
    // method: read it here first (within rmcp's own cap), answer such a request (see
    // `transport::early`), hand rmcp the rest.
    let (parts, body) = req.into_parts();
    let bytes = match http_body_util::Limited::new(body, MAX_BODY_BYTES).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(e) => {
            return Response::builder()
                .status(StatusCode::PAYLOAD_TOO_LARGE)
                .header(http::header::CONTENT_TYPE, "text/plain; charset=utf-8")
                .body(Full::new(Bytes::from(format!("Payload Too Large: {}", mji_fs::clip(&e.to_string())))).boxed())
                .unwrap_or_else(|_| Response::new(Full::new(Bytes::new()).boxed()));
        }
    };
    let early = std::str::from_utf8(&bytes).map_or(crate::transport::Early::Pass, crate::transport::early);
    if let crate::transport::Early::Answer(err) = early {
        return Response::builder()
            .status(StatusCode::BAD_REQUEST)
            .header(http::header::CONTENT_TYPE, "application/json")
            .body(Full::new(Bytes::from(err)).boxed())
            .unwrap_or_else(|_| Response::new(Full::new(Bytes::new()).boxed()));
    }
    if early == crate::transport::Early::Drop {
        return Response::builder()
            .status(StatusCode::ACCEPTED)
            .body(Full::new(Bytes::new()).boxed())
            .unwrap_or_else(|_| Response::new(Full::new(Bytes::new()).boxed()));
    }
    service.handle(Request::from_parts(parts, Full::new(bytes))).await
}

/// The largest request body, as rmcp caps it (`StreamableHttpServerConfig`'s default).
const MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

/// Whether the request carries `Authorization: Bearer <token>`.
fn authorized(headers: &http::HeaderMap, token: &str) -> bool {
    headers.get_all(http::header::AUTHORIZATION).iter().any(|v| {
        let v = v.as_bytes();
        v.len() > 7 && v[..7].eq_ignore_ascii_case(b"bearer ") && same_secret(v[7..].trim_ascii(), token.as_bytes())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_binds_without_asking() {
        let local: SocketAddr = "127.0.0.1:0".parse().expect("addr");
        let v6: SocketAddr = "[::1]:0".parse().expect("addr");
        let any: SocketAddr = "0.0.0.0:8080".parse().expect("addr");
        assert!(check_bind(local, false, false).is_ok());
        assert!(check_bind(v6, false, false).is_ok());
        assert!(check_bind(any, false, true).expect_err("refused").contains("--allow-remote"));
        assert!(check_bind(any, true, false).expect_err("refused").contains("--token-file"));
        assert!(check_bind(any, true, true).is_ok());
    }

    #[test]
    fn hosts_and_origins_are_this_servers_own_and_the_names_added() {
        let any: SocketAddr = "0.0.0.0:8080".parse().expect("addr");
        let one: SocketAddr = "10.0.0.5:8080".parse().expect("addr");
        let extra = vec!["build.example".to_owned()];
        assert_eq!(allowed_hosts(any, &[]), ["localhost", "127.0.0.1", "::1"]);
        assert!(allowed_hosts(one, &extra).iter().any(|h| h == "10.0.0.5"));
        assert!(allowed_hosts(one, &extra).iter().any(|h| h == "build.example"));
        let origins = allowed_origins(one, &extra);
        assert!(origins.contains(&"http://10.0.0.5:8080".to_owned()), "{origins:?}");
        assert!(origins.contains(&"http://build.example:8080".to_owned()), "{origins:?}");
        assert!(!origins.iter().any(|o| o.contains(":*")), "no wildcard port: {origins:?}");
    }

    #[test]
    fn the_bearer_token_must_match_exactly() {
        let mut h = http::HeaderMap::new();
        assert!(!authorized(&h, "secret-token"));
        h.insert(http::header::AUTHORIZATION, "Bearer secret-tokeN".parse().expect("header"));
        assert!(!authorized(&h, "secret-token"));
        h.insert(http::header::AUTHORIZATION, "Basic secret-token".parse().expect("header"));
        assert!(!authorized(&h, "secret-token"));
        h.insert(http::header::AUTHORIZATION, "bearer secret-token".parse().expect("header"));
        assert!(authorized(&h, "secret-token"));
    }
}
