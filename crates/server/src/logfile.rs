//! A log file that cannot fill the disk: appended to, owner-only, and when a write would take
//! it past its cap it is renamed to `<name>.1` (replacing the older one) and started afresh, so
//! a long-running server keeps at most about twice the cap. A network server's own logs
//! (tracing) and the message records share one.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The size at which a log file is rotated (the default cap).
pub const LOG_CAP_BYTES: u64 = 8 * 1024 * 1024;

/// A capped, rotated log file; clones write to the same file.
#[derive(Clone)]
pub struct LogFile(Arc<Mutex<State>>);

struct State {
    path: PathBuf,
    file: File,
    len: u64,
    cap: u64,
    /// The roots a repository-chosen path must stay inside, for every (re)open.
    confine: Option<Vec<PathBuf>>,
}

/// `path` opened for appending, created owner-only (also a child's stderr, beside a [`LogFile`]).
pub fn open_append(path: &Path) -> io::Result<File> {
    mji_fs::confine::open_append(path, None)
}

impl LogFile {
    /// Opens (or creates) `path` for appending, capped at [`LOG_CAP_BYTES`].
    pub fn open(path: &Path) -> io::Result<LogFile> {
        LogFile::with_cap(path, LOG_CAP_BYTES, None)
    }

    /// Opens `path`, which with `confine` (a repository file chose it) must lead inside those
    /// roots and is opened following no link (see [`mji_fs::confine`]).
    pub fn open_confined(path: &Path, confine: Option<&[PathBuf]>) -> io::Result<LogFile> {
        LogFile::with_cap(path, LOG_CAP_BYTES, confine)
    }

    /// Opens `path` capped at `cap` bytes.
    pub fn with_cap(path: &Path, cap: u64, confine: Option<&[PathBuf]>) -> io::Result<LogFile> {
        let file = mji_fs::confine::open_append(path, confine)?;
        let len = file.metadata()?.len();
        let state =
            State { path: path.to_path_buf(), file, len, cap: cap.max(1), confine: confine.map(<[PathBuf]>::to_vec) };
        Ok(LogFile(Arc::new(Mutex::new(state))))
    }

    /// Where the older lines go once the file passed its cap.
    pub fn rotated_path(path: &Path) -> PathBuf {
        let mut name = path.as_os_str().to_owned();
        name.push(".1");
        PathBuf::from(name)
    }

    /// Appends `bytes` whole (a line or a formatted event), rotating first if they would take
    /// the file past its cap. A failed write is dropped: logging never stops the server.
    pub fn append(&self, bytes: &[u8]) {
        let mut st = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if st.len > 0 && st.len + bytes.len() as u64 > st.cap {
            st.rotate();
        }
        if st.file.write_all(bytes).is_ok() {
            st.len += bytes.len() as u64;
        }
    }
}

impl State {
    fn rotate(&mut self) {
        let old = LogFile::rotated_path(&self.path);
        let reopened = std::fs::rename(&self.path, &old)
            .and_then(|()| mji_fs::confine::open_append(&self.path, self.confine.as_deref()));
        match reopened {
            Ok(f) => self.file = f,
            // Cannot rename (or reopen): start the same file afresh rather than grow past the cap.
            Err(_) => {
                let _ = self.file.set_len(0);
            }
        }
        self.len = 0;
    }
}

impl Write for LogFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.append(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_past_its_cap_is_rotated_once_and_keeps_the_newest_lines() {
        let dir = std::env::temp_dir().join(format!("mji-logfile-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("server.log");
        let log = LogFile::with_cap(&path, 100, None).expect("open");
        for i in 0..30 {
            log.clone().append(format!("line {i:02} of the log\n").as_bytes()); // 19 bytes each
        }
        let now = std::fs::read_to_string(&path).expect("log");
        let old = std::fs::read_to_string(LogFile::rotated_path(&path)).expect("rotated");
        assert!(now.len() <= 100 && old.len() <= 100, "{} and {} bytes", now.len(), old.len());
        assert!(now.ends_with("line 29 of the log\n"), "{now}");
        // Each file holds whole lines, the older file the lines just before.
        let first_now: u32 = now[5..7].parse().expect("n");
        assert!(old.ends_with(&format!("line {:02} of the log\n", first_now - 1)), "{old}");
        // Reopened, it appends to what is there (a restarted server keeps the earlier lines).
        drop(log);
        LogFile::with_cap(&path, 1000, None).expect("reopen").append(b"again\n");
        assert!(std::fs::read_to_string(&path).expect("log").starts_with(&now));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).expect("meta").permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
