//! One warm server per workspace for many clients. A shared server (`serve --shared`)
//! registers itself in an owner-only file named after the workspace's roots, in the user's
//! runtime directory (its TCP and HTTP addresses, the token, a key of its own, its pid), and
//! stops by itself after `shared_idle_secs` with no client. `bridge` finds it there (starting
//! one in the background when none answers) and pipes stdio to it over the token-authenticated
//! TCP transport; the command line's query commands send it their call (`src/cli/remote.rs`).
//!
//! The server proves itself before the token leaves. A server killed with `-9` (or aborted)
//! leaves its registration behind, and its loopback port is free for any local process to bind:
//! a client that connected and sent `Bearer <token>` would hand the user's one token — the one
//! that guards every HTTP, TCP and shared server of the user — to whoever bound it, and print
//! its answer as the tool's. So a client first sends `Challenge <nonce>` (32 random bytes in
//! hex), and the server must answer `Proof <HMAC-SHA256(key, label ‖ nonce)>` under the random
//! key it wrote into its registration; only then does the client send the token line. The key
//! is readable only by the user (the registration is 0600, owned by the user, in a directory
//! the user owns that no one else may write; any other registration is ignored with a
//! warning), so a process that merely holds the port cannot answer, and the nonce is fresh,
//! so no answer it overheard helps. A registration whose pid is gone is not even tried.
//!
//! Why a challenge over the TCP line rather than a Unix socket in the 0700 runtime directory:
//! the socket would close the same hole on Unix, but the TCP transport has to stay (the
//! Eclipse seed's clients, Windows, where the bridge runs too), so the socket would be a
//! second transport with its own edge cases (the 108-byte `sun_path` limit a long `$HOME`
//! exceeds in the state-directory fallback, home directories on file systems without
//! sockets), and the port would still need this check for every client that uses it. The
//! challenge costs one round trip on a local connection, and a server that does not prove
//! itself is treated as no server at all: the bridge starts a new one (which replaces the
//! registration), the command line answers in its own process.

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
    /// The key this server proves it holds before a client sends the token (32 random bytes in
    /// hex, new at each start). A registration without one (an older server's) is not used.
    pub proof_key: String,
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

/// The registration at `path`: `Ok(None)` when there is none, an error saying why when one is
/// there but must not be used — a link, not owned by this user, open to other users, in a
/// directory this user does not own or others may write, or malformed.
pub fn read_registration(path: &Path) -> Result<Option<Registration>, String> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        _ => {}
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    secret::check_private_dir(dir).map_err(|e| format!("the shared server's registration is not used: {e}"))?;
    let text = secret::read_private(path).map_err(|e| format!("the shared server's registration is not used: {e}"))?;
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| format!("the shared server's registration {} is not used: {e}", path.display()))
}

/// Whether the process `pid` is known to have ended (Linux: no `/proc/<pid>`, or a zombie);
/// false where that cannot be told (the challenge decides there).
fn pid_gone(pid: u32) -> bool {
    if !Path::new("/proc/self").exists() {
        return false;
    }
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command's closing parenthesis: `Z` is a zombie, `X` dead.
        Ok(stat) => {
            stat.rsplit_once(')').is_some_and(|(_, rest)| matches!(rest.trim_start().chars().next(), Some('Z' | 'X')))
        }
        Err(_) => true,
    }
}

/// How long a server has to accept and to answer the challenge.
const PROOF_WAIT: Duration = Duration::from_secs(2);

/// Connects to the registered server and has it prove that it holds the registration's key
/// (see the module's doc); the connection, ready for the token line, or why not. Nothing but
/// the random challenge is written to the connection before the proof is checked.
pub fn connect_proven(reg: &Registration) -> std::io::Result<std::net::TcpStream> {
    use std::io::{Error, ErrorKind, Read, Write};
    let nonce = secret::random_hex().map_err(Error::other)?;
    let mut s = std::net::TcpStream::connect_timeout(&reg.tcp, PROOF_WAIT)?;
    s.set_nodelay(true)?;
    s.set_read_timeout(Some(PROOF_WAIT))?;
    s.write_all(format!("{}{nonce}\n", crate::tcp::CHALLENGE_PREFIX).as_bytes())?;
    // Byte by byte up to the newline: nothing past the proof line is consumed (the server
    // sends nothing more before the token line anyway).
    let mut line = Vec::new();
    let mut byte = [0u8; 1];
    while line.len() < 256 {
        if s.read(&mut byte)? == 0 {
            break;
        }
        if byte[0] == b'\n' {
            break;
        }
        line.push(byte[0]);
    }
    let expected = secret::proof(&reg.proof_key, &nonce);
    let proven = std::str::from_utf8(&line)
        .ok()
        .and_then(|l| l.trim().strip_prefix(crate::tcp::PROOF_PREFIX))
        .is_some_and(|p| secret::same_secret(p.trim().as_bytes(), expected.as_bytes()));
    if !proven {
        return Err(Error::new(
            ErrorKind::PermissionDenied,
            format!("the process listening at {} did not prove it is the registered shared server", reg.tcp),
        ));
    }
    s.set_read_timeout(None)?;
    Ok(s)
}

/// Connects to the registered server, has it prove itself, then sends the token line.
pub fn connect_authenticated(reg: &Registration) -> std::io::Result<std::net::TcpStream> {
    use std::io::Write;
    let mut s = connect_proven(reg)?;
    s.write_all(format!("{}{}\n", crate::tcp::AUTH_PREFIX, reg.token).as_bytes())?;
    Ok(s)
}

/// The live shared server registered at `path`: `Ok(None)` when none is registered or the one
/// registered has ended; an error saying why a registration is not used (see
/// [`read_registration`]) or why the server registered there is not trusted (it did not prove
/// that it holds the registration's key: another process holds its port).
pub fn live(path: &Path) -> Result<Option<Registration>, String> {
    Ok(proven(path)?.map(|(reg, _)| reg))
}

/// [`live`], with the proven connection (ready for the token line).
fn proven(path: &Path) -> Result<Option<(Registration, std::net::TcpStream)>, String> {
    let Some(reg) = read_registration(path)? else { return Ok(None) };
    if pid_gone(reg.pid) {
        return Ok(None);
    }
    match connect_proven(&reg) {
        Ok(s) => Ok(Some((reg, s))),
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
            Err(format!("the shared server registered in {} is not used: {e}", path.display()))
        }
        // Not listening (it stopped, or has not started listening yet).
        Err(_) => Ok(None),
    }
}

/// A live shared server for this registration file, if one answers and proves itself (a
/// registration or server that is not used is logged).
pub fn running(path: &Path) -> Option<Registration> {
    live(path).unwrap_or_else(|e| {
        tracing::warn!("{e}");
        None
    })
}

/// Registers this server. `Ok(Some(other))` when another live server already serves the
/// workspace (this one should stop); a stale registration, or one that is not used (see
/// [`live`]), is replaced. The directory must be this user's alone.
pub fn register(path: &Path, reg: &Registration) -> Result<Option<Registration>, String> {
    let text = serde_json::to_string_pretty(reg).map_err(|e| e.to_string())?;
    let dir = path.parent().unwrap_or(Path::new("."));
    secret::private_dir(dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    secret::check_private_dir(dir).map_err(|e| format!("registering the shared server: {e}"))?;
    for _ in 0..3 {
        match secret::create_private(path, &text) {
            Ok(()) => return Ok(None),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                if let Some(other) = running(path) {
                    return Ok(Some(other));
                }
                // A server that died without cleaning up, or a registration not to be used.
                let _ = std::fs::remove_file(path);
            }
            Err(e) => return Err(format!("registering the shared server in {}: {e}", path.display())),
        }
    }
    Err(format!("registering the shared server in {}: another server keeps replacing it", path.display()))
}

/// Removes the registration if it is still this process's.
pub fn unregister(path: &Path) {
    if read_registration(path).ok().flatten().is_some_and(|r| r.pid == std::process::id()) {
        let _ = std::fs::remove_file(path);
    }
}

/// Connects to the registered server, once it has proven itself, and sends the token line.
/// Why a registration or its server is not used is logged unless `quiet` (said once already).
async fn connect(path: &Path, quiet: bool) -> Option<tokio::net::TcpStream> {
    let path = path.to_owned();
    let found = tokio::task::spawn_blocking(move || proven(&path)).await.ok()?;
    let (reg, mut s) = match found {
        Ok(found) => found?,
        Err(e) => {
            if !quiet {
                tracing::warn!("{e}");
            }
            return None;
        }
    };
    if reg.version != env!("CARGO_PKG_VERSION") {
        tracing::warn!(
            pid = reg.pid,
            "the shared server is version {}, this bridge {}: stop it to start the new one",
            reg.version,
            env!("CARGO_PKG_VERSION")
        );
    }
    // Only now, to a server that proved itself: the token.
    std::io::Write::write_all(&mut s, format!("{}{}\n", crate::tcp::AUTH_PREFIX, reg.token).as_bytes()).ok()?;
    s.set_nonblocking(true).ok()?;
    tokio::net::TcpStream::from_std(s).ok()
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
    let stream = match connect(path, false).await {
        Some(s) => s,
        None => {
            let mut child = Some(start()?);
            let deadline = Instant::now() + wait;
            let stream = loop {
                if let Some(s) = connect(path, true).await {
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

    /// A stand-in for a shared server's TCP side: answers the challenge of each of two
    /// connections with the proof under `key`, and returns the line each client sent next.
    fn serve_proofs(l: std::net::TcpListener, key: String) -> std::thread::JoinHandle<Vec<String>> {
        use std::io::{BufRead, Write};
        std::thread::spawn(move || {
            let mut after = Vec::new();
            l.set_nonblocking(false).expect("blocking");
            for s in l.incoming().take(2) {
                let Ok(mut s) = s else { break };
                let mut r = std::io::BufReader::new(s.try_clone().expect("clone"));
                let mut line = String::new();
                let _ = r.read_line(&mut line);
                let nonce = line.trim().strip_prefix(crate::tcp::CHALLENGE_PREFIX).unwrap_or("").to_owned();
                let _ = writeln!(s, "{}{}", crate::tcp::PROOF_PREFIX, secret::proof(&key, &nonce));
                line.clear();
                let _ = r.read_line(&mut line);
                after.push(line);
            }
            after
        })
    }

    fn registration(dir: &Path, tcp: SocketAddr, key: &str) -> Registration {
        Registration {
            pid: std::process::id(),
            tcp,
            http: None,
            token: "t".repeat(32),
            proof_key: key.to_owned(),
            roots: vec![dir.to_owned()],
            version: "0".into(),
        }
    }

    #[test]
    fn a_registration_is_kept_while_its_server_answers_and_replaced_when_stale() {
        let dir = std::env::temp_dir().join(format!("mji-shared-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("server-x.json");
        let live = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let mine = registration(&dir, live.local_addr().expect("addr"), "k");
        assert!(register(&path, &mine).expect("registered").is_none());
        let server = serve_proofs(live, "k".to_owned());
        let other = Registration { pid: 1, ..mine.clone() };
        // The first server answers and proves itself: the second is told to stop.
        assert_eq!(register(&path, &other).expect("checked").map(|r| r.pid), Some(mine.pid));
        // A client that proved the server sends the token line.
        let mut s = connect_authenticated(&mine).expect("proven");
        std::io::Write::flush(&mut s).expect("flush");
        drop(s);
        let after = server.join().expect("server");
        assert_eq!(after, vec![String::new(), format!("Bearer {}\n", mine.token)]);
        // It goes away: its registration is stale and replaced.
        assert!(register(&path, &other).expect("replaced").is_none());
        assert_eq!(read_registration(&path).ok().flatten().map(|r| r.pid), Some(1));
        unregister(&path); // not ours: kept
        assert!(path.exists());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The port of a server that died is bound by another process: it answers the challenge
    /// wrongly (or not at all) and never receives the token; the registration is not used.
    #[test]
    fn a_process_holding_a_dead_servers_port_never_receives_the_token() {
        use std::io::{Read, Write};
        let dir = std::env::temp_dir().join(format!("mji-shared-fake-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("server-x.json");
        let fake = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let reg = registration(&dir, fake.local_addr().expect("addr"), "the-real-servers-key");
        assert!(register(&path, &reg).expect("registered").is_none());
        let received = std::thread::spawn(move || {
            let mut all = Vec::new();
            for s in fake.incoming().take(3) {
                let Ok(mut s) = s else { break };
                // It answers as a server would, and claims any proof.
                let _ = s.write_all(b"Proof 0000\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n");
                let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
                let mut got = Vec::new();
                let _ = s.read_to_end(&mut got);
                all.extend(got);
            }
            all
        });
        let err = live(&path).expect_err("not proven");
        assert!(err.contains("did not prove"), "{err}");
        assert!(running(&path).is_none());
        let err = connect_authenticated(&reg).expect_err("not proven");
        assert_eq!(err.kind(), std::io::ErrorKind::PermissionDenied);
        let got = String::from_utf8_lossy(&received.join().expect("fake")).into_owned();
        assert!(!got.contains(&reg.token) && !got.contains("Bearer"), "the fake received {got:?}");
        assert_eq!(got.matches("Challenge ").count(), 3, "{got:?}");
        // A new server replaces the registration.
        let other = Registration { pid: 1, ..reg.clone() };
        assert!(register(&path, &other).expect("replaced").is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A registration another user could have written or read, or that another user owns, is
    /// not used (and not trusted to tell where the server is).
    #[test]
    #[cfg(unix)]
    fn a_registration_open_to_others_or_owned_by_another_user_is_not_used() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("mji-shared-mode-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("server-x.json");
        let reg = registration(&dir, "127.0.0.1:9".parse().expect("addr"), "k");
        assert!(register(&path, &reg).expect("registered").is_none());
        assert!(read_registration(&path).expect("read").is_some());
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        assert!(read_registration(&path).expect_err("0644").contains("other users"));
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).expect("chmod");
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).expect("chmod");
        assert!(read_registration(&path).expect_err("open directory").contains("other users"));
        assert!(register(&path, &reg).expect_err("not registered in an open directory").contains("other users"));
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).expect("chmod");
        if secret::current_uid() == Some(0) {
            std::os::unix::fs::chown(&path, Some(65534), Some(65534)).expect("chown");
            assert!(read_registration(&path).expect_err("another user's").contains("another user"));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
