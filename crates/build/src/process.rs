//! A build's child process: argv only (never a shell), its own process group, stdout and
//! stderr into one log file, waited for by a thread of its own, and killed with its whole
//! tree (the group: Maven and the JVMs it forks) on request. On Windows, which has no process
//! groups, the tree is ended with `taskkill /T /F`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// How a process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exit {
    /// The exit code; None when a signal ended it.
    pub code: Option<i32>,
    /// Whether we killed it.
    pub killed: bool,
    pub duration: Duration,
}

#[derive(Debug, Default)]
struct State {
    exit: Option<Exit>,
    killed: bool,
}

/// A running (or finished) child process.
#[derive(Debug)]
pub struct Process {
    pid: i32,
    pub log: PathBuf,
    pub started: Instant,
    state: Mutex<State>,
    ended: Condvar,
}

/// What to run.
#[derive(Debug, Clone, Default)]
pub struct Spec {
    pub argv: Vec<OsString>,
    pub cwd: PathBuf,
    pub env: Vec<(OsString, OsString)>,
}

impl Spec {
    /// The command line as text, for answers (each argument quoted when it needs it).
    pub fn shown(&self) -> String {
        self.argv
            .iter()
            .map(|a| {
                let a = a.to_string_lossy();
                if a.is_empty() || a.contains(|c: char| c.is_whitespace() || "'\"$`\\;&|<>*?()".contains(c)) {
                    format!("'{}'", a.replace('\'', "'\\''"))
                } else {
                    a.into_owned()
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl Process {
    /// Starts `spec` in a process group of its own, its output into `log`.
    pub fn start(spec: &Spec, log: &Path) -> Result<Arc<Process>, String> {
        let (program, args) = spec.argv.split_first().ok_or("nothing to run")?;
        if let Some(dir) = log.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
        }
        // Never through a link planted where the log goes.
        let mut o = std::fs::OpenOptions::new();
        o.write(true).create(true).truncate(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::custom_flags(&mut o, nix::libc::O_NOFOLLOW);
        let out = o.open(log).map_err(|e| format!("creating {}: {e}", log.display()))?;
        let err = out.try_clone().map_err(|e| format!("opening {}: {e}", log.display()))?;
        let mut cmd = Command::new(program);
        cmd.args(args).current_dir(&spec.cwd).stdin(Stdio::null()).stdout(out).stderr(err);
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        for (k, v) in &spec.env {
            cmd.env(k, v);
        }
        let started = Instant::now();
        let mut child = cmd.spawn().map_err(|e| format!("starting {}: {e}", program.to_string_lossy()))?;
        let pid = i32::try_from(child.id()).map_err(|_| "process id out of range".to_owned())?;
        let p = Arc::new(Process {
            pid,
            log: log.to_path_buf(),
            started,
            state: Mutex::new(State::default()),
            ended: Condvar::new(),
        });
        let waiter = p.clone();
        std::thread::Builder::new()
            .name(format!("build-{pid}"))
            .spawn(move || {
                let status = child.wait();
                // The group may outlive its leader (a forked JVM): end it with it.
                let _ = kill_group(waiter.pid);
                let mut s = waiter.state.lock().unwrap_or_else(|e| e.into_inner());
                s.exit = Some(Exit {
                    code: status.ok().and_then(|s| s.code()),
                    killed: s.killed,
                    duration: waiter.started.elapsed(),
                });
                drop(s);
                waiter.ended.notify_all();
            })
            .map_err(|e| format!("starting the waiter thread: {e}"))?;
        Ok(p)
    }

    /// The exit, once it ended.
    pub fn exit(&self) -> Option<Exit> {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).exit
    }

    /// Waits up to `d` for the end.
    pub fn wait_for(&self, d: Duration) -> Option<Exit> {
        let s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let (s, _) = self.ended.wait_timeout_while(s, d, |s| s.exit.is_none()).unwrap_or_else(|e| e.into_inner());
        s.exit
    }

    /// Kills the whole process group and waits (briefly) for the end.
    pub fn kill(&self) -> Option<Exit> {
        {
            let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
            if s.exit.is_some() {
                return s.exit;
            }
            s.killed = true;
        }
        let _ = kill_group(self.pid);
        self.wait_for(Duration::from_secs(5))
    }

    pub fn pid(&self) -> i32 {
        self.pid
    }
}

/// SIGKILL to the process group `pgid` (the leader's pid).
#[cfg(unix)]
fn kill_group(pgid: i32) -> Result<(), String> {
    nix::sys::signal::killpg(nix::unistd::Pid::from_raw(pgid), nix::sys::signal::Signal::SIGKILL)
        .map_err(|e| e.to_string())
}

/// Windows: the process and every process it started (`taskkill /T`), forcibly (`/F`).
#[cfg(windows)]
fn kill_group(pid: i32) -> Result<(), String> {
    let status = Command::new("taskkill")
        .args(["/T", "/F", "/PID", &pid.to_string()])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("running taskkill: {e}"))?;
    if status.success() { Ok(()) } else { Err(format!("taskkill ended with {status}")) }
}

#[cfg(not(any(unix, windows)))]
fn kill_group(_pid: i32) -> Result<(), String> {
    Err("ending a build's process tree is not supported on this platform".to_owned())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_killed_process_takes_its_children_with_it() {
        let t = tempfile::tempdir().expect("tmp");
        let marker = t.path().join("child.pid");
        // A shell here is the test's own program, standing in for Maven forking a JVM.
        let spec = Spec {
            argv: vec![
                "sh".into(),
                "-c".into(),
                format!("sleep 30 & echo $! > {}; echo started; wait", marker.display()).into(),
            ],
            cwd: t.path().to_path_buf(),
            env: Vec::new(),
        };
        let p = Process::start(&spec, &t.path().join("log.txt")).expect("start");
        let deadline = Instant::now() + Duration::from_secs(5);
        while !marker.is_file() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(50));
        let child: i32 = std::fs::read_to_string(&marker).expect("pid").trim().parse().expect("number");
        assert!(p.wait_for(Duration::from_millis(100)).is_none(), "still running");
        let exit = p.kill().expect("ended");
        assert!(exit.killed && exit.code.is_none(), "{exit:?}");
        // The grandchild is gone too (kill -0 fails once it is reaped or a zombie of init).
        let deadline = Instant::now() + Duration::from_secs(5);
        let alive = |pid: i32| {
            std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .is_ok_and(|s| !s.rsplit(')').next().unwrap_or("").trim_start().starts_with('Z'))
        };
        while alive(child) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(!alive(child), "the child {child} survived");
        assert!(std::fs::read_to_string(t.path().join("log.txt")).expect("log").contains("started"));
        assert_eq!(spec.shown().split(' ').next(), Some("sh"));
    }
}
