//! `serve` (MCP on stdio, or HTTP/TCP for many clients) and `bridge` (stdio relayed to a
//! workspace's shared server).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::{WorkspaceFlags, init_logging, init_logging_to};
use crate::config::Config;
use crate::tools::host::Host;

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Serve MCP Streamable HTTP at PORT (on 127.0.0.1) or ADDR:PORT; 0 picks a free port
    #[arg(long, value_name = "[ADDR:]PORT", value_parser = socket_addr)]
    pub http: Option<std::net::SocketAddr>,
    /// Serve newline-delimited JSON-RPC over TCP at PORT (on 127.0.0.1) or ADDR:PORT; each
    /// connection's first line is `Bearer <token>`
    #[arg(long, value_name = "[ADDR:]PORT", value_parser = socket_addr)]
    pub tcp: Option<std::net::SocketAddr>,
    /// Serve as this workspace's shared server for `bridge` clients (TCP on a free loopback port
    /// unless --tcp), stopping after `shared_idle_secs` without clients
    #[arg(long)]
    pub shared: bool,
    /// Allow --http or --tcp on an address other than loopback (needs --token-file)
    #[arg(long)]
    pub allow_remote: bool,
    /// A host name HTTP clients may use besides loopback and the bound address (repeatable;
    /// for --allow-remote, e.g. the machine's DNS name)
    #[arg(long, value_name = "NAME")]
    pub allowed_host: Vec<String>,
    /// The token clients must send (an owner-only file); default created once in
    /// $XDG_STATE_HOME/mcp-java-index/token (else ~/.local/state/…)
    #[arg(long, value_name = "PATH")]
    pub token_file: Option<PathBuf>,
    /// Write this server's own logs to PATH instead of stderr, capped (past 8 MiB the older
    /// part moves to PATH.1); a network server with `log_file` logs there too
    #[arg(long, value_name = "PATH")]
    pub server_log: Option<PathBuf>,
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

#[derive(Debug, Args)]
pub struct BridgeArgs {
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

/// What `serve` on stdio says on stderr when its stdin is a terminal (someone started it by
/// hand, not an MCP client): that it waits for a client, and how to register one.
pub(crate) fn stdio_note(in_terminal: bool, roots: &[PathBuf]) -> Option<String> {
    let roots: Vec<String> = roots.iter().map(|r| r.display().to_string()).collect();
    in_terminal.then(|| {
        format!(
            "mcp-java-index: serving {} over MCP on stdio, waiting for an MCP client (JSON-RPC on stdin); \
             an MCP client starts this itself (`mcp-java-index setup claude-code` registers it); Ctrl-D or Ctrl-C ends",
            roots.join(", ")
        )
    })
}

/// `8080` (on 127.0.0.1) or `ADDR:PORT`.
fn socket_addr(s: &str) -> Result<std::net::SocketAddr, String> {
    if let Ok(port) = s.parse::<u16>() {
        return Ok(std::net::SocketAddr::from(([127, 0, 0, 1], port)));
    }
    s.parse().map_err(|_| format!("`{s}` is neither a port nor ADDR:PORT (127.0.0.1:8080, [::1]:8080)"))
}

pub fn serve(args: ServeArgs) -> anyhow::Result<ExitCode> {
    use crate::mcp_server::{logfile::LogFile, transport::MessageLog};
    let config = args.ws.config()?;
    let network = args.http.is_some() || args.tcp.is_some() || args.shared;
    // A network server outlives its terminal (a daemon's stderr goes nowhere): its logs go to
    // `--server-log`, else `log_file`, capped and rotated.
    let log_path = args.server_log.clone().or_else(|| config.log_file.clone().filter(|_| network));
    // A path the repository chose stays inside the roots, and failing to open it never stops
    // the server; the user's own path may point anywhere and fails fast.
    let repo_log = config.confinement("log_file");
    let confine = if args.server_log.is_some() { None } else { repo_log };
    let server_log = match &log_path {
        Some(p) => match LogFile::open_confined(p, confine) {
            Ok(l) => Some(l),
            Err(e) if confine.is_some() => {
                eprintln!("warning: not logging to {} (set by the repository): {e}", p.display());
                None
            }
            Err(e) => anyhow::bail!("opening log file {}: {e}", p.display()),
        },
        None => None,
    };
    init_logging_to(&config.log_level, server_log.clone());
    if let Some(p) = &log_path {
        eprintln!("log: {} (past 8 MiB the older part moves to {})", p.display(), LogFile::rotated_path(p).display());
    }
    // The listeners are bound before the workspace opens: a refused address fails at once.
    let net = if network {
        // TCP messages are recorded only where `log_file` says, in the same file when it is that.
        let messages = match (&config.log_file, &server_log) {
            (Some(f), Some(l)) if log_path.as_ref() == Some(f) => MessageLog::to(l.clone()),
            (f, _) => match MessageLog::open(f.as_deref(), repo_log) {
                Ok(m) => m,
                Err(e) if repo_log.is_some() => {
                    eprintln!("warning: not recording messages (log_file set by the repository): {e}");
                    MessageLog::default()
                }
                Err(e) => anyhow::bail!("opening log file: {e}"),
            },
        };
        Some(bind_network(&args, &config, messages)?)
    } else {
        None
    };
    if let Some(crate::mcp_server::Network { shared: Some((path, _)), .. }) = &net
        && let Some(other) = crate::mcp_server::shared::running(path)
    {
        eprintln!("a shared server (pid {}) already serves this workspace at {}", other.pid, other.tcp);
        return Ok(ExitCode::SUCCESS);
    }
    let ws = open_workspace(config)?;
    if !network {
        tracing::info!(roots = ?ws.roots().paths(), "serving MCP on stdio");
        // Started by hand in a terminal, a stdio server would look hung: say what it waits for.
        if let Some(note) = stdio_note(std::io::IsTerminal::is_terminal(&std::io::stdin()), ws.roots().paths()) {
            eprintln!("{note}");
        }
    }
    // Calls run on blocking threads, bounded by the call pool; stdin and stdout take one each.
    // The cap keeps a loaded machine (slow blocking threads) from growing the pool further.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(crate::mcp_server::max_running_calls() + 8)
        .build()?;
    match net {
        Some(net) => runtime.block_on(crate::mcp_server::serve_network(ws.clone(), net))?,
        None => runtime.block_on(crate::mcp_server::serve_stdio(ws.clone()))?,
    }
    // Blocking tasks still running (a long call whose client left) are not waited for.
    runtime.shutdown_timeout(std::time::Duration::from_millis(200));
    // What the reference keeper bound since its last write is kept for the next start.
    ws.persist_references();
    Ok(ExitCode::SUCCESS)
}

/// Opens a long-lived server's workspace, as `serve` and `lsp` both do: the host, its warnings
/// logged, the index started, and the reference keeper binding in the background (with
/// `warm_references`).
pub(crate) fn open_workspace(config: Config) -> anyhow::Result<std::sync::Arc<Host>> {
    let ws = Host::open(config)?;
    for w in ws.warnings() {
        tracing::warn!("{w}");
    }
    ws.start_index();
    let ws = std::sync::Arc::new(ws);
    if ws.config().warm_references {
        let warm = ws.clone();
        let spawned = std::thread::Builder::new().name("xref-warm".to_owned()).spawn(move || {
            warm.keep_references(std::time::Duration::from_secs(5), &release_freed_memory);
        });
        if let Err(e) = spawned {
            tracing::warn!("references are bound on demand: cannot start a thread ({e})");
        }
    }
    Ok(ws)
}

/// Gives the pages the allocator holds free back to the system. glibc's malloc returns only
/// the top of each arena by itself: what a binding pass frees (each file's temporaries, the
/// references it moved to disk, the memos it derived) stays resident between the allocations
/// that live on (on the JDK: 500 MB after the pass, 310 MB of it in use).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
fn release_freed_memory() {
    // SAFETY: `malloc_trim` takes no pointer and has no precondition; glibc serializes it
    // with every other allocator call.
    let t = std::time::Instant::now();
    let released = unsafe { libc::malloc_trim(0) } == 1;
    tracing::debug!(released, ms = t.elapsed().as_millis() as u64, "gave freed memory back to the system");
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn release_freed_memory() {}

/// Binds the network listeners `serve` was asked for and loads (or creates) the token. Where
/// each listens and where the token is are said on stderr.
fn bind_network(
    args: &ServeArgs,
    config: &Config,
    log: crate::mcp_server::transport::MessageLog,
) -> anyhow::Result<crate::mcp_server::Network> {
    use crate::mcp_server::{http::check_bind, secret, shared};
    let token_path = match &args.token_file {
        Some(p) => p.clone(),
        None => secret::default_token_path()
            .ok_or_else(|| anyhow::anyhow!("no state directory (set XDG_STATE_HOME or HOME), or pass --token-file"))?,
    };
    let (token, created) = secret::load_or_create_token(&token_path).map_err(|e| anyhow::anyhow!(e))?;
    let bind = |addr: std::net::SocketAddr, what: &str| -> anyhow::Result<std::net::TcpListener> {
        check_bind(addr, args.allow_remote, args.token_file.is_some()).map_err(|e| anyhow::anyhow!("--{what}: {e}"))?;
        std::net::TcpListener::bind(addr).map_err(|e| anyhow::anyhow!("--{what}: binding {addr}: {e}"))
    };
    let http = args.http.map(|a| bind(a, "http")).transpose()?;
    let tcp = match args.tcp {
        Some(a) => Some(bind(a, "tcp")?),
        None if args.shared => Some(bind(std::net::SocketAddr::from(([127, 0, 0, 1], 0)), "tcp")?),
        None => None,
    };
    let shared = if args.shared {
        let roots = shared::canonical_roots(&config.roots);
        let path = shared::registration_path(&roots)
            .ok_or_else(|| anyhow::anyhow!("no runtime directory (set XDG_RUNTIME_DIR or HOME)"))?;
        let idle = (config.shared_idle_secs > 0).then(|| std::time::Duration::from_secs(config.shared_idle_secs));
        Some((path, idle))
    } else {
        None
    };
    let made = if created { "created" } else { "read" };
    eprintln!("token: {made} {} (clients send `Authorization: Bearer <token>`)", token_path.display());
    if let Some(l) = &http {
        eprintln!("listening: MCP Streamable HTTP at http://{}/mcp", l.local_addr()?);
    }
    if let Some(l) = &tcp {
        eprintln!("listening: JSON-RPC lines over TCP at {} (first line `Bearer <token>`)", l.local_addr()?);
    }
    if let Some((path, _)) = &shared {
        eprintln!("shared: registered in {}", path.display());
    }
    Ok(crate::mcp_server::Network { http, tcp, token, shared, allowed_hosts: args.allowed_host.clone(), log })
}

/// `bridge`: stdio relayed to the workspace's shared server, started if none answers.
pub fn bridge(args: BridgeArgs) -> anyhow::Result<ExitCode> {
    use crate::mcp_server::shared;
    let config = args.ws.config()?;
    init_logging(&config.log_level);
    let roots = shared::canonical_roots(&config.roots);
    let path = shared::registration_path(&roots)
        .ok_or_else(|| anyhow::anyhow!("no runtime directory (set XDG_RUNTIME_DIR or HOME)"))?;
    let log = shared::log_path(&roots);
    let log_for_start = log.clone();
    let start = move || {
        // The server gets the bridge's own arguments (the same workspace and settings).
        let mut passed: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
        if let Some(i) = passed.iter().position(|a| a == "bridge") {
            passed.remove(i);
        }
        start_shared(log_for_start.as_deref(), passed)
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    let result = runtime.block_on(shared::bridge(&path, log.as_deref(), start, std::time::Duration::from_secs(60)));
    // The stdin reader may still be blocked in a read: not waited for.
    runtime.shutdown_timeout(std::time::Duration::from_millis(100));
    result?;
    Ok(ExitCode::SUCCESS)
}

/// Starts `serve --shared ARGS` in the background, in its own process group (a client's
/// Ctrl-C or exit does not stop it), its logs (`--server-log`, capped and rotated) and its
/// stderr (what it says before logging starts, a panic) in one owner-only file, `log`, kept
/// across restarts: `bridge`'s server, and the one a query command with `--daemon` starts.
pub(crate) fn start_shared(
    log: Option<&std::path::Path>,
    args: Vec<std::ffi::OsString>,
) -> anyhow::Result<std::process::Child> {
    let stderr = match log {
        Some(p) => {
            if let Some(dir) = p.parent() {
                crate::mcp_server::secret::private_dir(dir)?;
            }
            std::process::Stdio::from(crate::mcp_server::logfile::open_append(p)?)
        }
        None => std::process::Stdio::null(),
    };
    let mut cmd = std::process::Command::new(std::env::current_exe()?);
    cmd.args(["serve", "--shared"]);
    if let Some(p) = log {
        cmd.arg("--server-log").arg(p);
    }
    cmd.args(args).stdin(std::process::Stdio::null()).stdout(std::process::Stdio::null()).stderr(stderr);
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    cmd.spawn().map_err(|e| anyhow::anyhow!("starting the shared server: {e}"))
}

#[cfg(test)]
mod tests {
    /// In a terminal `serve` says it waits for an MCP client on stdio; for a client (a pipe) it
    /// says nothing, since stderr may be the client's log.
    #[test]
    fn serve_in_a_terminal_says_it_waits_for_a_client() {
        let roots = [std::path::PathBuf::from("/w")];
        let note = super::stdio_note(true, &roots).unwrap_or_default();
        assert!(note.contains("waiting for an MCP client") && note.contains("stdio") && note.contains("/w"), "{note}");
        assert_eq!(super::stdio_note(false, &roots), None);
    }
}
