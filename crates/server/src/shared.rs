//! One warm server per workspace for many clients. A shared server (`serve --shared`)
//! registers itself in an owner-only file named after the workspace's roots, in the user's
//! runtime directory (its TCP and HTTP addresses, the token, its pid), and stops by itself after
//! `shared_idle_secs` with no client. `bridge` finds it there (starting one in the background
//! when none answers) and pipes stdio to it over the token-authenticated TCP transport.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use sha2::Digest;
use tokio::io::AsyncWriteExt;

use crate::secret;

/// What a shared server counts to know it has been idle: open connections (TCP clients, HTTP
/// requests in flight) and the time of the last one's end.
pub struct Activity {
    open: AtomicUsize,
    last_ms: AtomicU64,
    start: Instant,
}

impl Activity {
    pub fn new() -> Arc<Activity> {
        Arc::new(Activity { open: AtomicUsize::new(0), last_ms: AtomicU64::new(0), start: Instant::now() })
    }

    fn touch(&self) {
        let now = self.start.elapsed().as_millis() as u64;
        self.last_ms.fetch_max(now, Ordering::SeqCst);
    }

    /// Counts a connection or request as open until the guard drops.
    pub fn enter(self: &Arc<Self>) -> ActiveGuard {
        self.open.fetch_add(1, Ordering::SeqCst);
        self.touch();
        ActiveGuard(self.clone())
    }

    /// How long nothing has been open (`None` while something is).
    pub fn idle_for(&self) -> Option<Duration> {
        if self.open.load(Ordering::SeqCst) > 0 {
            return None;
        }
        let last = Duration::from_millis(self.last_ms.load(Ordering::SeqCst));
        Some(self.start.elapsed().saturating_sub(last))
    }
}

/// An open connection or request (see [`Activity::enter`]).
pub struct ActiveGuard(Arc<Activity>);

impl Drop for ActiveGuard {
    fn drop(&mut self) {
        self.0.touch();
        self.0.open.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A shared server's registration file: where it listens and the token to use.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Registration {
    pub pid: u32,
    pub tcp: SocketAddr,
    #[serde(default)]
    pub http: Option<SocketAddr>,
    pub token: String,
    pub roots: Vec<PathBuf>,
    pub version: String,
}

/// The workspace's identity: its roots, canonical where they exist.
pub fn canonical_roots(roots: &[PathBuf]) -> Vec<PathBuf> {
    roots.iter().map(|r| std::fs::canonicalize(r).unwrap_or_else(|_| r.clone())).collect()
}

/// The registration file of the shared server for these (canonical) roots.
pub fn registration_path(roots: &[PathBuf]) -> Option<PathBuf> {
    Some(secret::runtime_dir()?.join(format!("server-{}.json", workspace_key(roots))))
}

/// Where a shared server started by `bridge` writes its logs.
pub fn log_path(roots: &[PathBuf]) -> Option<PathBuf> {
    Some(secret::state_dir()?.join(format!("server-{}.log", workspace_key(roots))))
}

fn workspace_key(roots: &[PathBuf]) -> String {
    let mut h = sha2::Sha256::new();
    for r in roots {
        h.update(r.as_os_str().as_encoded_bytes());
        h.update([0]);
    }
    h.finalize().iter().take(12).map(|b| format!("{b:02x}")).collect()
}

/// The registration at `path`, if it is readable, owner-only and well-formed.
pub fn read_registration(path: &Path) -> Option<Registration> {
    serde_json::from_str(&secret::read_private(path).ok()?).ok()
}

/// Whether a registered server still accepts connections.
fn answers(reg: &Registration) -> bool {
    std::net::TcpStream::connect_timeout(&reg.tcp, Duration::from_secs(1)).is_ok()
}

/// A live shared server for this registration file, if one answers.
pub fn running(path: &Path) -> Option<Registration> {
    read_registration(path).filter(answers)
}

/// Registers this server. `Ok(Some(other))` when another live server already serves the
/// workspace (this one should stop); a stale registration is replaced.
pub fn register(path: &Path, reg: &Registration) -> Result<Option<Registration>, String> {
    let text = serde_json::to_string_pretty(reg).map_err(|e| e.to_string())?;
    for _ in 0..3 {
        match secret::create_private(path, &text) {
            Ok(()) => return Ok(None),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                if let Some(other) = running(path) {
                    return Ok(Some(other));
                }
                // A server that died without cleaning up.
                let _ = std::fs::remove_file(path);
            }
            Err(e) => return Err(format!("registering the shared server in {}: {e}", path.display())),
        }
    }
    Err(format!("registering the shared server in {}: another server keeps replacing it", path.display()))
}

/// Removes the registration if it is still this process's.
pub fn unregister(path: &Path) {
    if read_registration(path).is_some_and(|r| r.pid == std::process::id()) {
        let _ = std::fs::remove_file(path);
    }
}

/// Connects to the registered server and sends the token line.
async fn connect(path: &Path) -> Option<tokio::net::TcpStream> {
    let reg = read_registration(path)?;
    if reg.version != env!("CARGO_PKG_VERSION") {
        tracing::warn!(
            pid = reg.pid,
            "the shared server is version {}, this bridge {}: stop it to start the new one",
            reg.version,
            env!("CARGO_PKG_VERSION")
        );
    }
    let mut s = tokio::net::TcpStream::connect(reg.tcp).await.ok()?;
    let _ = s.set_nodelay(true);
    s.write_all(format!("{}{}\n", crate::tcp::AUTH_PREFIX, reg.token).as_bytes()).await.ok()?;
    Some(s)
}

/// The bridge: connects stdio to the workspace's shared server, calling `start` to launch one
/// in the background when none answers and waiting up to `wait` for it to register (a server
/// that fails first is reported at once, with its log). Returns when either side closes.
pub async fn bridge(
    path: &Path,
    log: Option<&Path>,
    start: impl FnOnce() -> anyhow::Result<std::process::Child>,
    wait: Duration,
) -> anyhow::Result<()> {
    let log_path = log;
    let log = log.map_or_else(|| "its stderr".to_owned(), |l| l.display().to_string());
    let stream = match connect(path).await {
        Some(s) => s,
        None => {
            let mut child = Some(start()?);
            let deadline = Instant::now() + wait;
            let stream = loop {
                if let Some(s) = connect(path).await {
                    break s;
                }
                // A server that stopped: failed (said at once), or found another one serving
                // the workspace (which registers in a moment).
                if let Some(mut c) = child.take() {
                    match c.try_wait() {
                        Ok(Some(status)) if !status.success() => {
                            let why = log_path.map(last_lines).unwrap_or_default();
                            anyhow::bail!("the shared server stopped ({status}) before serving; see {log}{why}")
                        }
                        Ok(Some(_)) => {}
                        _ => child = Some(c),
                    }
                }
                if Instant::now() >= deadline {
                    anyhow::bail!(
                        "the shared server did not register in {} within {} s; see {log}",
                        path.display(),
                        wait.as_secs()
                    );
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            };
            // Reaped while this bridge runs (the server normally outlives it).
            if let Some(mut c) = child {
                let _ = std::thread::Builder::new().name("shared-server".to_owned()).spawn(move || c.wait());
            }
            stream
        }
    };
    let (mut from_server, mut to_server) = stream.into_split();
    let upstream = tokio::spawn(async move {
        let mut stdin = tokio::io::stdin();
        let _ = tokio::io::copy(&mut stdin, &mut to_server).await;
        // The client is done: the server answers what is in flight, then closes.
        let _ = to_server.shutdown().await;
    });
    let mut stdout = tokio::io::stdout();
    let copied = tokio::io::copy(&mut from_server, &mut stdout).await;
    let _ = stdout.flush().await;
    upstream.abort();
    copied.map(|_| ()).map_err(|e| anyhow::anyhow!("relaying the shared server's answers: {e}"))
}

/// The last lines of a server log (what a server that failed to start said last), for the
/// bridge's error: `":\n<lines>"`, or nothing when the log is unreadable or empty.
fn last_lines(log: &Path) -> String {
    let Ok(text) = std::fs::read_to_string(log) else { return String::new() };
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let tail = &lines[lines.len().saturating_sub(3)..];
    if tail.is_empty() { String::new() } else { format!(":\n{}", tail.join("\n")) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_time_counts_only_when_nothing_is_open() {
        let a = Activity::new();
        let g = a.enter();
        assert!(a.idle_for().is_none());
        drop(g);
        assert!(a.idle_for().is_some_and(|d| d < Duration::from_secs(5)));
    }

    #[test]
    fn a_registration_is_kept_while_its_server_answers_and_replaced_when_stale() {
        let dir = std::env::temp_dir().join(format!("mji-shared-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("server-x.json");
        let live = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let mine = Registration {
            pid: std::process::id(),
            tcp: live.local_addr().expect("addr"),
            http: None,
            token: "t".repeat(32),
            roots: vec![dir.clone()],
            version: "0".into(),
        };
        assert!(register(&path, &mine).expect("registered").is_none());
        let other = Registration { pid: 1, ..mine.clone() };
        // The first server answers: the second is told to stop.
        assert_eq!(register(&path, &other).expect("checked").map(|r| r.pid), Some(mine.pid));
        // It goes away: its registration is stale and replaced.
        drop(live);
        assert!(register(&path, &other).expect("replaced").is_none());
        assert_eq!(read_registration(&path).map(|r| r.pid), Some(1));
        unregister(&path); // not ours: kept
        assert!(path.exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
