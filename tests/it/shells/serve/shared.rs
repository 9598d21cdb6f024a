//! The shared server proves itself before the token leaves (issue 50, item 7): a process that
//! binds the port of a shared server killed with `-9` receives no token from the command line
//! or `bridge`, and its answers are never printed; a registration another user owns, or that
//! others may read or write, or that lies in a directory others may write, is not used.

use super::*;

use std::net::TcpListener;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// A process that took over a dead server's port: it answers every connection at once as a
/// server would (a made-up proof, an `initialize` result, a tool answer marked `FAKE-ANSWER`)
/// and keeps every byte it receives.
struct Fake {
    received: Arc<Mutex<Vec<u8>>>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Fake {
    fn bind(addr: SocketAddr) -> Fake {
        let l = TcpListener::bind(addr).expect("the fake binds the dead server's port");
        l.set_nonblocking(true).expect("nonblocking");
        let received = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (r, st) = (received.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            while !st.load(Ordering::SeqCst) {
                let Ok((mut s, _)) = l.accept() else {
                    std::thread::sleep(Duration::from_millis(20));
                    continue;
                };
                let r = r.clone();
                std::thread::spawn(move || {
                    let _ = s.set_nonblocking(false);
                    let _ = s.write_all(
                        concat!(
                            "Proof 00000000000000000000000000000000\n",
                            r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"fake","version":"1"}}}"#,
                            "\n",
                            r#"{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"FAKE-ANSWER"}],"structuredContent":{"fake":"FAKE-ANSWER"}}}"#,
                            "\n"
                        )
                        .as_bytes(),
                    );
                    let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
                    let mut buf = [0u8; 4096];
                    while let Ok(n) = s.read(&mut buf) {
                        if n == 0 {
                            break;
                        }
                        r.lock().expect("lock").extend_from_slice(&buf[..n]);
                    }
                });
            }
        });
        Fake { received, stop, thread: Some(thread) }
    }

    fn received(&self) -> String {
        String::from_utf8_lossy(&self.received.lock().expect("lock")).into_owned()
    }
}

impl Drop for Fake {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn run(env: &Env, args: &[&str]) -> (Option<i32>, String, String) {
    let o = env.cmd(args).output().expect("cli");
    (o.status.code(), String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

#[test]
fn a_process_holding_a_killed_shared_servers_port_receives_no_token() {
    let env = Env::new();
    let server = start(&env, &["serve", "--shared"]);
    wait_until("the shared server to register", 30, || env.registration().is_some());
    let (path, reg) = env.registration().expect("registration");
    let addr: SocketAddr = reg["tcp"].as_str().expect("tcp").parse().expect("addr");
    // Killed with -9: it cannot unregister.
    drop(server);
    assert!(path.exists(), "the killed server's registration is left behind");
    let fake = Fake::bind(addr);
    let token = env.token();
    let local = run(&env, &["types", "Color*", "--no-daemon"]);
    assert_eq!(local.0, Some(0), "{local:?}");

    // The registration as the killed server left it (its pid gone).
    let (code, out, err) = run(&env, &["types", "Color*"]);
    assert_eq!((code, out.as_str()), (local.0, local.1.as_str()), "answered in process, not by the fake: {err}");

    // The same with a pid that lives (a reused pid): the fake is asked to prove itself and fails.
    let mut alive = Command::new("sleep").arg("60").spawn().expect("sleep");
    let mut forged = reg.clone();
    forged["pid"] = json!(alive.id());
    // Written in place: the file keeps its owner and its 0600 mode.
    std::fs::write(&path, forged.to_string()).expect("rewrite");
    let (code, out, err) = run(&env, &["types", "Color*"]);
    assert_eq!((code, out.as_str()), (local.0, local.1.as_str()), "answered in process, not by the fake: {err}");
    assert!(err.contains("did not prove"), "{err}");

    // A bridge starts a server of its own and answers through it.
    let mut bridge = Bridge::start(&env, &["--shared-idle-secs", "2"]);
    bridge.session();
    bridge.close();
    let (_, new_reg) = env.registration().expect("the bridge's server registered");
    assert_ne!(new_reg["tcp"], reg["tcp"], "a new server on a port of its own");

    let got = fake.received();
    assert!(got.contains("Challenge "), "the fake was asked to prove itself: {got:?}");
    assert!(!got.contains(&token) && !got.contains("Bearer"), "the fake received the token: {got:?}");
    assert!(!got.contains("tools/call") && !got.contains("initialize"), "the fake was sent a request: {got:?}");
    drop(fake);
    let _ = alive.kill();
    let _ = alive.wait();
    let _ = Command::new("kill").arg(pid_of(&new_reg).to_string()).status();
}

#[test]
#[cfg(unix)]
fn a_registration_another_user_owns_or_others_may_open_is_not_used() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let env = Env::new();
    let log = env.user.path().join("server.log");
    let log_arg = log.to_string_lossy().into_owned();
    let _server = start(&env, &["serve", "--shared", "--log-file", &log_arg]);
    wait_until("the shared server to register", 30, || env.registration().is_some());
    let (path, _) = env.registration().expect("registration");
    let dir = path.parent().expect("dir").to_owned();
    let calls = || std::fs::read_to_string(&log).unwrap_or_default().matches("\"method\":\"tools/call\"").count();
    let chmod =
        |p: &Path, mode: u32| std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).expect("chmod");
    // As it was written: the call goes to the server.
    let (code, _, err) = run(&env, &["types", "Color*"]);
    assert_eq!((code, calls()), (Some(0), 1), "{err}");

    chmod(&path, 0o644);
    let (code, _, err) = run(&env, &["types", "Color*"]);
    assert_eq!((code, calls()), (Some(0), 1), "a registration others may read is not used: {err}");
    assert!(err.contains("other users"), "{err}");
    chmod(&path, 0o600);

    chmod(&dir, 0o777);
    let (code, _, err) = run(&env, &["types", "Color*"]);
    assert_eq!((code, calls()), (Some(0), 1), "a registration in a directory others may write is not used: {err}");
    assert!(err.contains("other users"), "{err}");
    chmod(&dir, 0o700);

    // Root can give the file away (the test runs as root here; elsewhere this part is skipped).
    let me = std::fs::metadata("/proc/self").map(|m| m.uid()).ok();
    if me == Some(0) {
        std::os::unix::fs::chown(&path, Some(65534), Some(65534)).expect("chown");
        let (code, _, err) = run(&env, &["types", "Color*"]);
        assert_eq!((code, calls()), (Some(0), 1), "a registration another user owns is not used: {err}");
        assert!(err.contains("another user"), "{err}");
        std::os::unix::fs::chown(&path, Some(0), Some(0)).expect("chown back");
    }
    let (code, _, err) = run(&env, &["types", "Color*"]);
    assert_eq!((code, calls()), (Some(0), 2), "used again once it is the user's alone: {err}");
}
