//! The one file stamp of the workspace index and the reference engine: what says a file is
//! unchanged without reading it, the racy window within which a stamp is not trusted, and the
//! one sentinel a racy stamp is recorded as. (The outline cache keeps its own columns, in its
//! database.)

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A stamp recorded for a file changed within this long of being read is not trusted: the
/// timestamps' granularity could hide a second write in the same tick ("racy clean").
pub const RACY_WINDOW: Duration = Duration::from_secs(2);

/// [`RACY_WINDOW`] in nanoseconds, as stamps count time.
pub const RACY_WINDOW_NS: i128 = RACY_WINDOW.as_nanos() as i128;

/// A file's size and one number standing for its modification time (low 64 bits), its
/// status-change time and inode (high 64 bits). A file rewritten with the same size and its
/// mtime set back still changes ctime (no user-level tool can set it), and a file replaced by
/// another (`mv`) changes inode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Stamp {
    pub size: u64,
    pub mtime_ns: i128,
}

impl Stamp {
    /// The `mtime_ns` of a stamp that never matches a file: recorded for a file read within
    /// the racy window, so the next check reads it again.
    pub const NEVER: i128 = i128::MIN;

    /// The stamp of a file now.
    pub fn of(meta: &std::fs::Metadata) -> Stamp {
        let mtime = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
            .map(|d| d.as_nanos() as i128)
            .unwrap_or(-1);
        #[cfg(unix)]
        let high = {
            use std::os::unix::fs::MetadataExt;
            let ctime = (meta.ctime() as u64).wrapping_mul(1_000_000_000).wrapping_add(meta.ctime_nsec() as u64);
            ctime ^ meta.ino().rotate_left(32)
        };
        #[cfg(not(unix))]
        let high = 0u64;
        Stamp { size: meta.len(), mtime_ns: (mtime & 0xFFFF_FFFF_FFFF_FFFF) | (i128::from(high) << 64) }
    }

    /// The stamp to record for a file read now: [`Stamp::of`], or one that never matches
    /// ([`Stamp::NEVER`]) when the file changed within [`RACY_WINDOW`].
    pub fn recorded(meta: &std::fs::Metadata) -> Stamp {
        let stamp = Stamp::of(meta);
        let changed = meta.modified().ok().and_then(|m| SystemTime::now().duration_since(m).ok());
        match changed {
            Some(age) if age >= RACY_WINDOW => stamp,
            _ => Stamp { mtime_ns: Stamp::NEVER, ..stamp },
        }
    }

    /// Whether this stamp never matches (recorded within the racy window).
    pub fn is_never(&self) -> bool {
        self.mtime_ns == Stamp::NEVER
    }

    /// Whether the modification time in the stamp (its low 64 bits) lies within the racy
    /// window before `now_ns`, or the stamp never matches: such a stamp is not kept on disk.
    pub fn is_racy_at(&self, now_ns: i128) -> bool {
        self.is_never() || now_ns.saturating_sub(self.mtime_ns & 0xFFFF_FFFF_FFFF_FFFF) < RACY_WINDOW_NS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file written just now is recorded as never matching; its stamp now is its size.
    #[test]
    fn a_file_written_now_is_racy() {
        let dir = tempfile::tempdir().expect("tempdir");
        let p = dir.path().join("A.java");
        std::fs::write(&p, b"class A {}").expect("write");
        let meta = std::fs::metadata(&p).expect("meta");
        let now = Stamp::of(&meta);
        assert_eq!(now.size, 10);
        assert!(!now.is_never());
        assert!(Stamp::recorded(&meta).is_never());
        let now_ns = SystemTime::now().duration_since(UNIX_EPOCH).expect("time").as_nanos() as i128;
        assert!(now.is_racy_at(now_ns));
        assert!(!now.is_racy_at(now_ns + 2 * RACY_WINDOW_NS));
    }
}
