//! The one file stamp of the outline cache, the workspace index and the reference engine: what
//! says a file is unchanged without reading it, the racy window within which a stamp is not
//! trusted, and the one sentinel a racy stamp is recorded as.

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

    /// This stamp made one that never matches (same size).
    pub fn never(self) -> Stamp {
        Stamp { mtime_ns: Stamp::NEVER, ..self }
    }

    /// Whether the modification time in the stamp (its low 64 bits) lies within the racy
    /// window before `now_ns`, or the stamp never matches: such a stamp is not kept on disk.
    pub fn is_racy_at(&self, now_ns: i128) -> bool {
        self.is_racy_within(now_ns, RACY_WINDOW_NS)
    }

    /// [`Stamp::is_racy_at`] with another window (the outline cache's tests shorten it). A
    /// modification time in the future is racy too.
    pub fn is_racy_within(&self, now_ns: i128, window_ns: i128) -> bool {
        self.is_never() || now_ns.saturating_sub(self.mtime_ns & 0xFFFF_FFFF_FFFF_FFFF) < window_ns
    }

    /// The stamp as two 64-bit integers (its low and high halves), as a database stores it.
    pub fn halves(&self) -> (i64, i64) {
        (self.mtime_ns as i64, (self.mtime_ns >> 64) as i64)
    }

    /// The stamp of a size and the [`Stamp::halves`] of its time.
    pub fn from_halves(size: u64, low: i64, high: i64) -> Stamp {
        Stamp { size, mtime_ns: (i128::from(high) << 64) | i128::from(low as u64) }
    }
}

/// What one `stat` of a file tells the walk: its stamp, size and modification time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileStat {
    pub stamp: Stamp,
    pub size: u64,
    pub modified: Option<SystemTime>,
}

impl FileStat {
    pub fn of(meta: &std::fs::Metadata) -> FileStat {
        FileStat { stamp: Stamp::of(meta), size: meta.len(), modified: meta.modified().ok() }
    }
}

/// Stats files (following links, as [`std::fs::metadata`]) relative to a descriptor of their
/// directory, kept while consecutive files share it: the kernel then looks up one name, not
/// every component of the full path (on the JDK's java.base, a sixth of a one-shot query's
/// CPU went to those lookups). Feed it paths in walk order.
#[derive(Default)]
pub struct DirStat {
    #[cfg(unix)]
    dir: Option<(std::path::PathBuf, Option<rustix::fd::OwnedFd>)>,
}

impl DirStat {
    /// The file's stat, or None when it cannot be stat-ed (gone, no permission).
    pub fn stat(&mut self, path: &std::path::Path) -> Option<FileStat> {
        #[cfg(unix)]
        {
            use rustix::fs::{AtFlags, CWD, Mode, OFlags, openat, statat};
            let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
                return std::fs::metadata(path).ok().map(|m| FileStat::of(&m));
            };
            if self.dir.as_ref().is_none_or(|(d, _)| d != parent) {
                let fd = openat(CWD, parent, OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC, Mode::empty()).ok();
                self.dir = Some((parent.to_path_buf(), fd));
            }
            let Some((_, Some(fd))) = &self.dir else {
                return std::fs::metadata(path).ok().map(|m| FileStat::of(&m));
            };
            let st = statat(fd, name, AtFlags::empty()).ok()?;
            Some(file_stat(&st))
        }
        #[cfg(not(unix))]
        {
            std::fs::metadata(path).ok().map(|m| FileStat::of(&m))
        }
    }
}

/// [`FileStat`] of a raw `stat`, computed as [`Stamp::of`] computes it from a `Metadata`.
// The fields' types differ between targets: the casts are needed on some.
#[cfg(unix)]
#[allow(clippy::unnecessary_cast)]
fn file_stat(st: &rustix::fs::Stat) -> FileStat {
    let (mtime_s, mtime_ns) = (st.st_mtime as i64, st.st_mtime_nsec as i64);
    let modified = match mtime_s >= 0 {
        true => UNIX_EPOCH.checked_add(Duration::new(mtime_s as u64, mtime_ns as u32)),
        false => UNIX_EPOCH
            .checked_sub(Duration::from_secs(mtime_s.unsigned_abs()))
            .and_then(|t| t.checked_add(Duration::from_nanos(mtime_ns as u64))),
    };
    let mtime = modified.and_then(|t| t.duration_since(UNIX_EPOCH).ok()).map(|d| d.as_nanos() as i128).unwrap_or(-1);
    let ctime = (st.st_ctime as u64).wrapping_mul(1_000_000_000).wrapping_add(st.st_ctime_nsec as u64);
    let high = ctime ^ (st.st_ino as u64).rotate_left(32);
    let size = st.st_size as u64;
    FileStat {
        stamp: Stamp { size, mtime_ns: (mtime & 0xFFFF_FFFF_FFFF_FFFF) | (i128::from(high) << 64) },
        size,
        modified,
    }
}

/// Nanoseconds since the Unix epoch now (0 on a clock before it), as stamps count time.
pub fn now_ns() -> i128 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos() as i128).unwrap_or(0)
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

    /// The racy rule: recent or in the future is racy, a never-matching stamp always is, and
    /// a zero window trusts everything but the future.
    #[test]
    fn racy_stamps_are_recent_or_in_the_future() {
        let s = Stamp { size: 1, mtime_ns: 10_000_000_000 | (7 << 64) };
        let w = 2_000_000_000;
        assert!(s.is_racy_within(11_000_000_000, w));
        assert!(s.is_racy_within(9_000_000_000, w), "in the future");
        assert!(!s.is_racy_within(12_500_000_000, w));
        assert!(s.never().is_racy_within(i128::MAX, 0));
        assert!(!s.is_racy_within(10_000_000_000, 0));
    }

    /// A stat relative to the directory's descriptor gives what `metadata` of the full path
    /// gives: the same stamp, size and time (files of two directories, in and out of order, a
    /// link followed, a missing file).
    #[test]
    fn a_stat_in_the_directory_is_the_full_paths() {
        let dir = tempfile::tempdir().expect("tempdir");
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).expect("mkdir");
        let a = dir.path().join("A.java");
        let b = sub.join("B.java");
        std::fs::write(&a, b"class A {}").expect("write");
        std::fs::write(&b, b"class B { int x; }").expect("write");
        let mut paths = vec![a.clone(), b.clone(), a.clone(), b.clone()];
        #[cfg(unix)]
        {
            let link = dir.path().join("L.java");
            std::os::unix::fs::symlink(&b, &link).expect("symlink");
            paths.push(link);
        }
        let mut st = DirStat::default();
        for p in &paths {
            let want = FileStat::of(&std::fs::metadata(p).expect("meta"));
            assert_eq!(st.stat(p), Some(want), "{}", p.display());
        }
        assert_eq!(st.stat(&sub.join("gone.java")), None);
        assert_eq!(st.stat(&dir.path().join("nodir").join("X.java")), None);
    }

    /// Two halves give the stamp back, the sentinel and a time before the epoch included.
    #[test]
    fn halves_round_trip() {
        for mtime_ns in [0, 0xFFFF_FFFF_FFFF_FFFF, Stamp::NEVER, 10_000_000_000 | (-5i128 << 64), i128::MAX] {
            let s = Stamp { size: 42, mtime_ns };
            let (lo, hi) = s.halves();
            assert_eq!(Stamp::from_halves(42, lo, hi), s, "{mtime_ns:x}");
        }
    }
}
