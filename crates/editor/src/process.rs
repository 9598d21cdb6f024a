//! Runs an editor's command: an argv (never a shell), stdin closed, bounded by a timeout
//! after which the child is killed, so a busy or hung editor costs a call its timeout and
//! never hangs the server.

use std::ffi::OsString;
use std::io::Read;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The most bytes kept of a child's stdout or stderr.
const MAX_OUTPUT: u64 = 4 * 1024 * 1024;

/// What a finished command printed.
#[derive(Debug)]
pub(crate) struct Output {
    pub(crate) status: ExitStatus,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

/// Why a command did not finish.
#[derive(Debug)]
pub(crate) enum RunError {
    /// The program could not be started (not installed, not executable).
    Spawn(std::io::Error),
    /// It ran past the timeout and was killed.
    Timeout,
    /// Waiting for it failed.
    Wait(std::io::Error),
}

/// Runs `program args` with the environment variables `unset` removed, waiting at most
/// `timeout`.
pub(crate) fn run(
    program: &OsString,
    args: &[OsString],
    unset: &[&str],
    timeout: Duration,
) -> Result<Output, RunError> {
    let mut cmd = Command::new(program);
    cmd.args(args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    for v in unset {
        cmd.env_remove(v);
    }
    let mut child = cmd.spawn().map_err(RunError::Spawn)?;
    // Readers on their own threads, so a full pipe never blocks the child; a grandchild that
    // keeps the pipe open (an editor launching itself) must not block us either, so they are
    // awaited with a bound below, never joined.
    let reader = |pipe: Option<Box<dyn Read + Send>>| {
        let (tx, rx) = mpsc::channel();
        if let Some(pipe) = pipe {
            std::thread::spawn(move || {
                let mut buf = Vec::new();
                let _ = pipe.take(MAX_OUTPUT).read_to_end(&mut buf);
                let _ = tx.send(buf);
            });
        }
        rx
    };
    let out = reader(child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let err = reader(child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if start.elapsed() >= timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(RunError::Timeout);
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(e) => {
                let _ = child.kill();
                return Err(RunError::Wait(e));
            }
        }
    };
    let take = |rx: mpsc::Receiver<Vec<u8>>| {
        String::from_utf8_lossy(&rx.recv_timeout(Duration::from_millis(500)).unwrap_or_default()).into_owned()
    };
    Ok(Output { status, stdout: take(out), stderr: take(err) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hung_command_is_killed_at_its_timeout() {
        let t = Instant::now();
        let r = run(&"sleep".into(), &["5".into()], &[], Duration::from_millis(200));
        assert!(matches!(r, Err(RunError::Timeout)), "{r:?}");
        assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    }

    #[test]
    fn arguments_are_passed_as_they_are() {
        let hostile = "a\"; rm -rf / #$(x)\n'b";
        let r = run(&"printf".into(), &["%s".into(), hostile.into()], &[], Duration::from_secs(5)).expect("printf");
        assert_eq!(r.stdout, hostile);
        assert!(r.status.success());
    }
}
