//! The persistent outline cache: per-file outlines keyed by content hash and format version,
//! stored in `.mcp-java-index-cache/` (SQLite, WAL) with a stamp shortcut per path
//! ([`mji_fs::stamp::Stamp`], the one the index and the reference engine use).
//!
//! Lookups never serve a wrong entry: a path's recorded stamp is trusted only if the file has
//! not changed for [`RACY_WINDOW`] (git's "racy clean" rule), entries are checked against the
//! content hash they are filed under, and damaged entries are re-parsed and overwritten. The
//! cache degrades instead of failing: an unusable directory gives an in-memory cache, a write
//! that fails later switches new entries to memory, and each such event leaves one warning.
//!
//! New entries are buffered and written in transactions of [`BATCH_ROWS`] rows by a writer
//! thread, so lookups never wait on the disk: when the buffer fills, when nothing was written
//! for a second, on [`Cache::flush`] and on drop. A crash loses only the buffer.
//!
//! Layout: `codec` (stamps, stored form, model fingerprint), `disk` (the SQLite database),
//! `store` (buffer + disk + memory layers, writer thread, fallbacks), this file (lookups).

mod codec;
mod disk;
mod provenance;
mod store;

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use serde::Serialize;

use codec::StoredOutline;
use disk::Disk;
pub use disk::{CHECKPOINT_LOG_BYTES, DB_FILE};
use mji_fs::stamp::Stamp;
use mji_model::FileOutline;
use mji_parser::SourceText;
pub use provenance::MARK_FILE;
pub use store::{BATCH_ROWS, WriteErrorHook};
use store::{DISK_OK, Store};

/// Bump when the outline model or the parser's output changes. Entries are also keyed by a
/// fingerprint of the model and the crate version, so a forgotten bump misses rather than
/// serves an old shape.
pub const FORMAT_VERSION: u32 = 2;

/// The cache directory's name under a workspace root.
pub const DIR_NAME: &str = ".mcp-java-index-cache";

/// A file changed less than this long ago is re-hashed on every lookup instead of being
/// trusted by its stamp ([`mji_fs::stamp::RACY_WINDOW`]).
pub const RACY_WINDOW: Duration = mji_fs::stamp::RACY_WINDOW;

/// The default cache directory of a workspace root.
pub fn default_dir(root: &Path) -> PathBuf {
    root.join(DIR_NAME)
}

/// Whether a lookup was answered from the cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Hit,
    Miss,
}

/// An outline and whether it came from the cache.
#[derive(Debug, Clone)]
pub struct Cached {
    pub outline: FileOutline,
    pub outcome: Outcome,
}

/// Lookups answered from the cache and lookups that parsed, since the cache was opened.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Counters {
    pub hits: u64,
    pub misses: u64,
}

/// What the cache is and holds.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CacheInfo {
    /// `"disk"`, `"memory"` (also after a disk cache degraded) or `"disabled"`.
    pub mode: String,
    /// The directory, when the mode is `"disk"`.
    pub dir: Option<PathBuf>,
    /// Outlines stored for this format.
    pub entries: u64,
    /// Paths with a recorded stamp.
    pub files: u64,
    /// Bytes used: the database and its WAL on disk, the stored JSON in memory.
    pub bytes: u64,
    pub format_version: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Disk,
    Memory,
    Disabled,
}

/// The outline cache. `Send + Sync`: share it between threads by reference or `Arc`.
pub struct Cache {
    /// The database (or the memory) it keeps its entries in: opened by [`Cache::open`], or on
    /// first use for [`Cache::open_on_first_use`].
    opened: OnceLock<Opened>,
    /// The directory a cache opened on first use opens.
    pending: Option<PathBuf>,
    /// The pending directory once claimed (made this user's): what [`Cache::dir`] answers
    /// before the database is opened.
    claimed: OnceLock<Claim>,
    format: u32,
    racy_window_ns: AtomicI64,
    hits: AtomicU64,
    misses: AtomicU64,
    reads: AtomicU64,
    max_file_bytes: AtomicU64,
    /// Each file's `lombok.config` ([`Cache::set_lombok`]); `None`: Lombok's defaults.
    lombok: std::sync::RwLock<Option<Arc<mji_parser::lombok::config::Resolver>>>,
}

/// What opening a cache chose: where entries go (the store starts its writer thread on its
/// first write).
struct Opened {
    kind: Kind,
    store: Arc<Store>,
}

/// A cache directory made this user's ([`provenance::claim`]), with the warning of claiming
/// it; or why it cannot be used.
enum Claim {
    Dir(PathBuf, Vec<String>),
    Refused(String),
}

impl Claim {
    fn of(dir: &Path) -> Claim {
        let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
        // A directory this user did not make here (a repository may ship one) is not read.
        match provenance::claim(&dir) {
            Ok(w) => Claim::Dir(dir, w.into_iter().collect()),
            Err(why) => Claim::Refused(format!("{why}; caching in memory for this run")),
        }
    }

    fn warnings(&self) -> Vec<String> {
        match self {
            Claim::Dir(_, w) => w.clone(),
            Claim::Refused(why) => vec![why.clone()],
        }
    }
}

impl Opened {
    fn new(kind: Kind, disk: Option<Disk>, warnings: Vec<String>) -> Opened {
        Opened { kind, store: Store::new(disk, warnings) }
    }

    /// Opens or creates the database in a claimed directory (see [`Cache::open`]), with the
    /// warnings of both steps.
    fn open(claim: &Claim, format: u32) -> (Opened, Vec<String>) {
        let Claim::Dir(dir, claimed) = claim else {
            let warnings = claim.warnings();
            return (Opened::new(Kind::Memory, None, warnings.clone()), warnings);
        };
        match Disk::open(dir, format, codec::model_fingerprint()) {
            Ok((disk, mut warnings)) => {
                warnings.splice(0..0, claimed.iter().cloned());
                (Opened::new(Kind::Disk, Some(disk), warnings.clone()), warnings)
            }
            Err(why) => {
                let warnings = vec![format!("{why}; caching in memory for this run")];
                (Opened::new(Kind::Memory, None, warnings.clone()), warnings)
            }
        }
    }
}

fn context(e: io::Error, display: &str) -> io::Error {
    io::Error::new(e.kind(), format!("reading {display}: {e}"))
}

impl Cache {
    fn new(opened: Option<Opened>, pending: Option<PathBuf>, format: u32) -> Cache {
        Cache {
            opened: opened.map(OnceLock::from).unwrap_or_default(),
            pending,
            claimed: OnceLock::new(),
            format,
            racy_window_ns: AtomicI64::new(RACY_WINDOW.as_nanos() as i64),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
            reads: AtomicU64::new(0),
            max_file_bytes: AtomicU64::new(mji_fs::DEFAULT_MAX_FILE_BYTES),
            lombok: Default::default(),
        }
    }

    /// Outlines each file under the `lombok.config` `resolver` finds for it. A file whose
    /// configuration is not Lombok's defaults is read on every lookup and keyed by its content
    /// and its configuration (its stamp alone would not see a changed `lombok.config`).
    pub fn set_lombok(&self, resolver: Arc<mji_parser::lombok::config::Resolver>) {
        if let Ok(mut l) = self.lombok.write() {
            *l = Some(resolver);
        }
    }

    /// The configuration of the file at `abs`, when it is not Lombok's defaults.
    fn lombok_config(&self, abs: &Path) -> Option<Arc<mji_parser::lombok::Config>> {
        let r = self.lombok.read().ok()?.clone()?;
        Some(r.for_file(abs)).filter(|c| !c.is_default())
    }

    /// The outline of a file under a configuration that is not Lombok's defaults, with its
    /// decoded source: stored under its content hash and the configuration's.
    fn configured(
        &self,
        bytes: &[u8],
        display: &str,
        config: &Arc<mji_parser::lombok::Config>,
    ) -> (FileOutline, Outcome, SourceText) {
        let salt = mji_parser::content_hash(config.digest().as_bytes());
        let hash = format!("{}+{}", mji_parser::content_hash(bytes), salt.get(..12).unwrap_or(&salt));
        let src = SourceText::decode(bytes);
        if self.kind() != Kind::Disabled
            && let Some(entry) = self.store().find_by_hash(&hash, true)
            && let Some(outline) = entry.decode(display, &hash)
        {
            return (outline, Outcome::Hit, src);
        }
        let mut outline = mji_parser::outline_source_with(display, hash.clone(), &src, config);
        if self.kind() != Kind::Disabled
            && let Some(entry) = StoredOutline::of(&mut outline)
        {
            self.store().store(hash, entry);
        }
        (outline, Outcome::Miss, src)
    }

    /// Opens or creates the cache in `dir`. Never fails: if the directory cannot be created,
    /// opened or written, the cache is in memory and a warning says why. A corrupt database is
    /// moved aside (`outlines.sqlite3.corrupt`) and recreated, with a warning. The warnings are
    /// also kept in [`Cache::warnings`].
    pub fn open(dir: &Path) -> (Cache, Vec<String>) {
        Self::open_with_format(dir, FORMAT_VERSION)
    }

    /// [`Cache::open`] with another format version (for tests of version keying).
    #[doc(hidden)]
    pub fn open_with_format(dir: &Path, format: u32) -> (Cache, Vec<String>) {
        let (opened, warnings) = Opened::open(&Claim::of(dir), format);
        (Cache::new(Some(opened), None, format), warnings)
    }

    /// [`Cache::open`], but the database is opened when first used (a lookup,
    /// [`Cache::warnings`], [`Cache::info`], …): a command that never reads an outline never
    /// opens it nor fingerprints the parser (a fifth of a `range` command's time, a
    /// twentieth of a warm `types` on commons-lang3; issue 38). The directory is claimed at
    /// once, and [`Cache::dir`] answers from the claim (the index snapshot beside the
    /// database needs no database); [`Cache::flush`] and [`Cache::write_error`] of a
    /// database not yet opened have nothing to do.
    pub fn open_on_first_use(dir: &Path) -> Cache {
        let cache = Cache::new(None, Some(dir.to_path_buf()), FORMAT_VERSION);
        // Claimed now, as [`Cache::open`] does: before anything else (a build's classpaths,
        // the problems engine) writes into the directory, which would make it look foreign.
        cache.claim();
        cache
    }

    /// [`Cache::warnings`] of what was opened so far: the claim's while the database is not
    /// opened.
    pub fn warnings_so_far(&self) -> Vec<String> {
        match (self.opened.get(), self.claimed.get()) {
            (Some(o), _) => o.store.warnings(),
            (None, Some(c)) => c.warnings(),
            (None, None) => Vec::new(),
        }
    }

    /// The pending directory, claimed once.
    fn claim(&self) -> Option<&Claim> {
        let dir = self.pending.as_ref()?;
        Some(self.claimed.get_or_init(|| Claim::of(dir)))
    }

    fn opened(&self) -> &Opened {
        self.opened.get_or_init(|| match self.claim() {
            Some(claim) => Opened::open(claim, self.format).0,
            None => Opened::new(Kind::Memory, None, Vec::new()),
        })
    }

    fn kind(&self) -> Kind {
        self.opened().kind
    }

    fn store(&self) -> &Store {
        &self.opened().store
    }

    /// A cache in memory only, lost at exit.
    pub fn in_memory() -> Cache {
        Cache::new(Some(Opened::new(Kind::Memory, None, Vec::new())), None, FORMAT_VERSION)
    }

    /// A cache that stores nothing: every lookup reads and parses (outcome `Miss`).
    pub fn disabled() -> Cache {
        Cache::new(Some(Opened::new(Kind::Disabled, None, Vec::new())), None, FORMAT_VERSION)
    }

    /// Files changed less than `window` ago are not trusted by their stamp (for tests; the
    /// default is [`RACY_WINDOW`]).
    #[doc(hidden)]
    pub fn set_racy_window(&self, window: Duration) {
        let ns = i64::try_from(window.as_nanos()).unwrap_or(i64::MAX);
        self.racy_window_ns.store(ns, Ordering::Relaxed);
    }

    /// The cap on the bytes read from one file (default [`mji_fs::DEFAULT_MAX_FILE_BYTES`]);
    /// larger files are refused with an error naming the cap.
    pub fn set_max_file_bytes(&self, cap: u64) {
        self.max_file_bytes.store(cap, Ordering::Relaxed);
    }

    /// How many times a lookup read a file (for tests: a warm lookup reads none).
    #[doc(hidden)]
    pub fn file_reads(&self) -> u64 {
        self.reads.load(Ordering::Relaxed)
    }

    /// The outline of the file at `path` (absolute; a relative one is made absolute against
    /// the current directory), with `file_path` set to `display`.
    ///
    /// A hit without reading the file when its stamp matches the recorded one;
    /// a hit without parsing when its content hash has an entry; otherwise parse, store, miss.
    pub fn outline(&self, path: &Path, display: &str) -> io::Result<Cached> {
        if let Some(config) = self.lombok_config(&absolute(path)) {
            let _ = self.stat(&absolute(path), display)?;
            let bytes = self.read(path, display)?;
            let (outline, outcome, _) = self.configured(&bytes, display, &config);
            return Ok(self.counted(outline, outcome));
        }
        if self.kind() == Kind::Disabled {
            let bytes = self.read(path, display)?;
            let outline = mji_parser::outline(display, &bytes);
            return Ok(self.counted(outline, Outcome::Miss));
        }
        let abs = absolute(path);
        let stamp = self.stat(&abs, display)?;
        if let Some((hash, entry)) = self.store().find_by_path(&abs, stamp, true)
            && let Some(outline) = entry.decode(display, &hash)
        {
            return Ok(self.counted(outline, Outcome::Hit));
        }
        let bytes = self.read(&abs, display)?;
        let (outline, outcome, _) = self.resolve(&abs, stamp, &bytes, display, false);
        Ok(self.counted(outline, outcome))
    }

    /// The outline of `bytes`, a text of the file at `path` that is not (or not yet) on disk (an
    /// editor's unsaved buffer), parsed as [`Cache::outline`] parses the file (its directory's
    /// `lombok.config` applied) and neither looked up nor stored.
    pub fn outline_text(&self, path: &Path, display: &str, bytes: &[u8]) -> FileOutline {
        match self.lombok_config(&absolute(path)) {
            Some(config) => mji_parser::outline_with(display, bytes, &config),
            None => mji_parser::outline(display, bytes),
        }
    }

    /// Like [`Cache::outline`], but the file is always read (and hashed, so the outline is
    /// that of exactly the returned text), and its decoded source returned too.
    pub fn outline_with_source(&self, path: &Path, display: &str) -> io::Result<(Cached, SourceText)> {
        if let Some(config) = self.lombok_config(&absolute(path)) {
            let _ = self.stat(&absolute(path), display)?;
            let bytes = self.read(path, display)?;
            let (outline, outcome, src) = self.configured(&bytes, display, &config);
            return Ok((self.counted(outline, outcome), src));
        }
        if self.kind() == Kind::Disabled {
            let bytes = self.read(path, display)?;
            let src = SourceText::decode(&bytes);
            let outline = mji_parser::outline_source(display, mji_parser::content_hash(&bytes), &src);
            return Ok((self.counted(outline, Outcome::Miss), src));
        }
        let abs = absolute(path);
        let stamp = self.stat(&abs, display)?;
        let bytes = self.read(&abs, display)?;
        let (outline, outcome, src) = self.resolve(&abs, stamp, &bytes, display, true);
        let src = src.unwrap_or_else(|| SourceText::decode(&bytes));
        Ok((self.counted(outline, outcome), src))
    }

    /// The outline as JSON with default options: exactly `serde_json::to_string(&outline)`
    /// with `file_path` = `display`. On a hit the stored JSON is returned with the path
    /// spliced in, without deserializing.
    pub fn outline_json(&self, path: &Path, display: &str) -> io::Result<(String, Outcome)> {
        if let Some(config) = self.lombok_config(&absolute(path)) {
            let _ = self.stat(&absolute(path), display)?;
            let bytes = self.read(path, display)?;
            let (outline, outcome, _) = self.configured(&bytes, display, &config);
            let json = serde_json::to_string(&outline).map_err(io::Error::other)?;
            return Ok(self.counted_json(json, outcome));
        }
        if self.kind() == Kind::Disabled {
            let bytes = self.read(path, display)?;
            let outline = mji_parser::outline(display, &bytes);
            let json = serde_json::to_string(&outline).map_err(io::Error::other)?;
            return Ok(self.counted_json(json, Outcome::Miss));
        }
        let abs = absolute(path);
        let stamp = self.stat(&abs, display)?;
        if let Some((hash, entry)) = self.store().find_by_path(&abs, stamp, false)
            && let Some(json) = entry.json_for(display, &hash)
        {
            return Ok(self.counted_json(json, Outcome::Hit));
        }
        let bytes = self.read(&abs, display)?;
        let hash = mji_parser::content_hash(&bytes);
        if let Some(entry) = self.store().find_by_hash(&hash, false)
            && let Some(json) = entry.json_for(display, &hash)
        {
            self.record_file(&abs, stamp, &hash);
            return Ok(self.counted_json(json, Outcome::Hit));
        }
        let src = SourceText::decode(&bytes);
        let mut outline = mji_parser::outline_source(display, hash.clone(), &src);
        let json = match StoredOutline::of(&mut outline) {
            Some(entry) if entry.json.starts_with(codec::EMPTY_PATH_PREFIX) => {
                let json = codec::splice_file_path(&entry.json, display);
                self.store().store(hash.clone(), entry);
                self.record_file(&abs, stamp, &hash);
                json
            }
            _ => serde_json::to_string(&outline).map_err(io::Error::other)?,
        };
        Ok(self.counted_json(json, Outcome::Miss))
    }

    /// Hits and misses so far.
    pub fn counters(&self) -> Counters {
        Counters { hits: self.hits.load(Ordering::Relaxed), misses: self.misses.load(Ordering::Relaxed) }
    }

    /// The mode, location and size of the cache (buffered entries are written first).
    pub fn info(&self) -> CacheInfo {
        self.flush();
        let mut info = CacheInfo {
            mode: self.mode().to_owned(),
            dir: None,
            entries: 0,
            files: 0,
            bytes: 0,
            format_version: self.format,
        };
        let counts = match self.kind() {
            Kind::Disabled => None,
            Kind::Memory => Some(self.store().memory_counts()),
            Kind::Disk => match self.store().disk_counts() {
                Some(c) => {
                    info.dir = self.store().disk().map(|d| d.dir().to_path_buf());
                    Some(c)
                }
                None => Some(self.store().memory_counts()),
            },
        };
        if let Some((entries, files, bytes)) = counts {
            info.entries = entries;
            info.files = files;
            info.bytes = bytes;
        }
        info.mode = self.mode().to_owned();
        info
    }

    /// The directory of an on-disk cache (None in memory or disabled mode), for companion
    /// files such as the workspace index snapshot.
    pub fn dir(&self) -> Option<PathBuf> {
        if self.opened.get().is_none()
            && let Some(claim) = self.claim()
        {
            return match claim {
                Claim::Dir(dir, _) => Some(dir.clone()),
                Claim::Refused(_) => None,
            };
        }
        match self.kind() {
            Kind::Disk => self.store().disk().map(|d| d.dir().to_path_buf()),
            _ => None,
        }
    }

    /// What keys the entries besides content: crate version and a fingerprint of the parser's
    /// output. Companion files use it to invalidate themselves the same way.
    pub fn fingerprint() -> &'static str {
        codec::model_fingerprint()
    }

    /// Removes every entry (the database stays).
    pub fn clear(&self) -> io::Result<()> {
        self.store().clear().map_err(io::Error::other)
    }

    /// Writes buffered entries to disk, and waits until they are; then, if anything was
    /// written, empties the database's write-ahead log into it (see `Store::checkpoint`).
    /// Writing is also done when the buffer fills (then without waiting) and on drop.
    pub fn flush(&self) {
        if let Some(o) = self.opened.get() {
            o.store.flush();
            o.store.checkpoint();
        }
    }

    /// [`Cache::flush`] without emptying the write-ahead log (for tests).
    #[doc(hidden)]
    pub fn flush_keeping_log(&self) {
        if let Some(o) = self.opened.get() {
            o.store.flush();
        }
    }

    /// Warnings recorded since the cache was opened, those of [`Cache::open`] included: the
    /// directory was unusable, the database was corrupt, deleted, or stopped taking writes.
    pub fn warnings(&self) -> Vec<String> {
        self.store().warnings()
    }

    /// The first write that failed (disk full, file-size limit, I/O error), naming the cache
    /// directory and the error; since then new entries stay in memory. Call after
    /// [`Cache::flush`] to know whether everything reached the disk.
    pub fn write_error(&self) -> Option<String> {
        self.opened.get()?.store.write_error()
    }

    /// Calls `hook` with the first failed write, once: at once if a write already failed,
    /// else when one does. The server logs it; the CLI asks [`Cache::write_error`] instead.
    pub fn on_write_error(&self, hook: WriteErrorHook) {
        self.store().on_write_error(hook);
    }

    fn mode(&self) -> &'static str {
        match self.kind() {
            Kind::Disabled => "disabled",
            Kind::Memory => "memory",
            Kind::Disk if self.store().disk_state() == DISK_OK => "disk",
            Kind::Disk => "memory",
        }
    }

    fn counted(&self, outline: FileOutline, outcome: Outcome) -> Cached {
        self.count(outcome);
        Cached { outline, outcome }
    }

    fn counted_json(&self, json: String, outcome: Outcome) -> (String, Outcome) {
        self.count(outcome);
        (json, outcome)
    }

    fn count(&self, outcome: Outcome) {
        let c = match outcome {
            Outcome::Hit => &self.hits,
            Outcome::Miss => &self.misses,
        };
        c.fetch_add(1, Ordering::Relaxed);
    }

    fn read(&self, path: &Path, display: &str) -> io::Result<Vec<u8>> {
        self.reads.fetch_add(1, Ordering::Relaxed);
        mji_fs::read_regular(path, self.max_file_bytes.load(Ordering::Relaxed)).map_err(|e| context(e, display))
    }

    /// The stamp of a file about to be looked up, from its own entry (a symbolic link is not
    /// followed): refused unless it is a regular file within the cap, so a FIFO or a device is
    /// never opened and a link swapped in never matches a recorded stamp.
    fn stat(&self, abs: &Path, display: &str) -> io::Result<Stamp> {
        let meta = fs::symlink_metadata(abs).map_err(|e| context(e, display))?;
        if !meta.is_file() {
            return Err(context(mji_fs::not_regular(&meta), display));
        }
        let cap = self.max_file_bytes.load(Ordering::Relaxed);
        if meta.len() > cap {
            return Err(context(mji_fs::too_large(meta.len(), cap), display));
        }
        Ok(Stamp::of(&meta))
    }

    fn record_file(&self, abs: &Path, stamp: Stamp, hash: &str) {
        let window = self.racy_window_ns.load(Ordering::Relaxed);
        self.store().record_file(abs, stamp, hash, window);
    }

    /// The outline of `bytes` (read from `abs`, whose stamp was `stamp`): from the entry of
    /// its hash, else parsed and stored. Returns the decoded source when it was parsed and
    /// `want_source` is set.
    fn resolve(
        &self,
        abs: &Path,
        stamp: Stamp,
        bytes: &[u8],
        display: &str,
        want_source: bool,
    ) -> (FileOutline, Outcome, Option<SourceText>) {
        let hash = mji_parser::content_hash(bytes);
        if let Some(entry) = self.store().find_by_hash(&hash, true)
            && let Some(outline) = entry.decode(display, &hash)
        {
            self.record_file(abs, stamp, &hash);
            return (outline, Outcome::Hit, None);
        }
        let src = SourceText::decode(bytes);
        let mut outline = mji_parser::outline_source(display, hash.clone(), &src);
        if let Some(entry) = StoredOutline::of(&mut outline) {
            self.store().store(hash.clone(), entry);
            self.record_file(abs, stamp, &hash);
        }
        (outline, Outcome::Miss, want_source.then_some(src))
    }
}

impl Drop for Cache {
    fn drop(&mut self) {
        if let Some(o) = self.opened.get_mut() {
            o.store.stop_writer();
        }
    }
}

fn absolute(path: &Path) -> PathBuf {
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn the_cache_is_send_and_sync() {
        assert_send_sync::<Cache>();
    }

    #[test]
    fn memory_mode_hits_on_the_second_lookup() {
        let dir = tempfile::tempdir().expect("tempdir");
        let f = dir.path().join("A.java");
        fs::write(&f, "class A { void m() {} }").expect("write");
        let c = Cache::in_memory();
        assert_eq!(c.outline(&f, "A.java").expect("1").outcome, Outcome::Miss);
        assert_eq!(c.outline(&f, "A.java").expect("2").outcome, Outcome::Hit);
        assert_eq!(c.info().mode, "memory");
        assert_eq!(c.info().entries, 1);
    }

    #[test]
    fn disabled_never_hits() {
        let dir = tempfile::tempdir().expect("tempdir");
        let f = dir.path().join("A.java");
        fs::write(&f, "class A {}").expect("write");
        let c = Cache::disabled();
        for _ in 0..2 {
            assert_eq!(c.outline(&f, "A.java").expect("outline").outcome, Outcome::Miss);
        }
        assert_eq!(c.counters(), Counters { hits: 0, misses: 2 });
        assert_eq!(c.info().mode, "disabled");
    }

    /// A cache opened on first use claims its directory at once but opens no database until a
    /// lookup (flushing it before is a no-op), then answers and persists as one opened at once.
    #[test]
    fn a_cache_opened_on_first_use_opens_at_its_first_lookup() {
        let dir = tempfile::tempdir().expect("tempdir");
        let f = dir.path().join("A.java");
        fs::write(&f, "class A { void m() {} }").expect("write");
        let cache_dir = dir.path().join("cache");
        let c = Cache::open_on_first_use(&cache_dir);
        c.flush();
        assert!(c.warnings_so_far().is_empty() && c.write_error().is_none());
        // The directory is claimed at once, for companion files; the database waits.
        assert_eq!(c.dir(), Some(cache_dir.clone()));
        assert!(cache_dir.join(MARK_FILE).exists() && !cache_dir.join(DB_FILE).exists());
        assert_eq!(c.outline(&f, "A.java").expect("1").outcome, Outcome::Miss);
        assert!(cache_dir.join(DB_FILE).exists());
        assert_eq!(c.dir(), Some(cache_dir.clone()));
        assert_eq!(c.info().mode, "disk");
        drop(c);
        let (again, warnings) = Cache::open(&cache_dir);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(again.outline(&f, "A.java").expect("2").outcome, Outcome::Hit);
    }
}
