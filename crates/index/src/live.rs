//! The live workspace index: every root walked and every `.java` file's symbols indexed in
//! parallel (from the cache where it can), then kept fresh by a file watcher and by
//! re-checking the files an answer returns. Queries may run while indexing is under way; they
//! are told how far it got.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, RwLock};
use std::time::{Duration, Instant, SystemTime};

use rayon::prelude::*;

use crate::matcher::Pattern;
use crate::symbols::{FileSymbols, Hit, SymView, Symbol, SymbolTable, file_symbols, is_java, stamp};
use mji_cache::Cache;
use mji_fs::roots::Roots;
use mji_fs::stamp::FileStat;
use mji_fs::walk::{self, SkippedDirs, is_skipped_dir, skip_reason};

/// A non-Java (or any) workspace file, for `find_resource`.
#[derive(Debug, Clone)]
pub struct Resource {
    pub root: usize,
    pub size: u64,
    pub modified: Option<SystemTime>,
}

/// How far indexing got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    pub indexed: usize,
    pub total: usize,
    pub complete: bool,
    /// Java files not indexed because they are over the size cap or not regular files.
    pub skipped: usize,
}

#[derive(Default)]
struct IndexState {
    table: SymbolTable,
    resources: BTreeMap<Arc<Path>, Resource>,
}

/// A symbol found by a query, copied out of the index.
#[derive(Debug, Clone)]
pub struct Found {
    pub path: Arc<Path>,
    pub root: usize,
    pub symbol: Symbol,
    pub tier: crate::matcher::Tier,
}

/// The answer to a symbol query: one page, the total, and the index's progress.
#[derive(Debug, Clone)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub total: usize,
    pub progress: Progress,
}

/// Problems met while indexing (unreadable files and directories), kept for reporting.
#[derive(Debug, Default, Clone)]
pub struct Problems {
    pub count: usize,
    pub samples: Vec<String>,
}

/// What a full pass did with the Java files it found.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct PassStats {
    /// Java files the walk found.
    pub files: usize,
    /// Taken from the snapshot: their stamp matched, nothing was read.
    pub from_snapshot: usize,
    /// Read and parsed (a skeleton parse), because the snapshot had no current entry.
    pub parsed: usize,
}

/// The index of every root.
pub struct LiveIndex {
    roots: Roots,
    /// Each directory's `lombok.config`, read inside the roots only (shared with the caches
    /// and, through the host, the reference engine).
    lombok: Arc<mji_parser::lombok::config::Resolver>,
    caches: Vec<Arc<Cache>>,
    state: RwLock<IndexState>,
    indexed: AtomicUsize,
    total: AtomicUsize,
    complete: AtomicBool,
    /// A first pass was started or announced ([`LiveIndex::expect_pass`]): only then is there
    /// anything to wait for.
    started: AtomicBool,
    done: (Mutex<bool>, Condvar),
    problems: Mutex<Problems>,
    /// Directories the last full walk skipped as build output, per reason.
    skipped_dirs: Mutex<SkippedDirs>,
    /// Java files not indexed (over the size cap, not regular), with the reason.
    skipped: Mutex<BTreeMap<Arc<Path>, String>>,
    /// Moves on with every pass and every batch of file events (changed or not): while a
    /// watcher runs, an unchanged version means no file under the roots changed.
    version: std::sync::atomic::AtomicU64,
    /// A watcher is registered on every root and running.
    watching: AtomicBool,
    /// The watcher holds events not applied yet (a batch waiting for its quiet period).
    pending: AtomicBool,
    /// Set by a process that answers one command right after its own pass (the CLI): the
    /// stamps the pass took serve as the files' stamps now ([`LiveIndex::java_file_stamps_now`]).
    one_shot: AtomicBool,
    /// Set when other work of the process runs beside the first pass on every core (the CLI's
    /// reference preload): the pass then takes one thread ([`LiveIndex::sequential_start`]).
    sequential: AtomicBool,
    /// Set by a process whose answer may never read the symbol table (the CLI's commands that
    /// link the world): the first pass then walks and stats, and leaves the rest for the first
    /// reader of the table ([`LiveIndex::defer_table`]).
    defer: AtomicBool,
    /// The walk of a first pass whose table was put off, until the first reader of the table
    /// takes it (and holds this lock while it builds the table, so that the file list is read
    /// from the walk or from the table, never from one half-made).
    put_off: Mutex<Option<Walk>>,
}

/// What a first pass left for [`LiveIndex::settle`]: the walk's Java files, in order, with the
/// stamps its `stat`s took (None for a file gone by then).
struct Walk {
    java: Vec<(PathBuf, usize)>,
    stamps: Vec<Option<mji_fs::stamp::Stamp>>,
}

/// Ends a [`StatShare`]'s sharing when the walk's thread leaves its scope, even by unwinding.
struct CloseShare<'a>(&'a StatShare);

impl Drop for CloseShare<'_> {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// The `stat` of every file the walk kept, shared by the thread that walked and the thread
/// that read the snapshots, once that one is done (on the JDK's java.base it is done first
/// and would otherwise wait): each takes the next run of consecutive files in turn, and a run
/// is stat-ed relative to its directory (`DirStat`), in the walk's order.
#[derive(Default)]
struct StatShare {
    state: Mutex<ShareState>,
    changed: Condvar,
}

#[derive(Default)]
struct ShareState {
    /// The files, once the walk is done.
    files: Option<Arc<Vec<PathBuf>>>,
    /// No run is handed out any more (all taken, or the walk never ended).
    closed: bool,
    next: usize,
    runs: Vec<Option<Vec<Option<FileStat>>>>,
    /// Runs the helpers hold and have not given back yet.
    helping: usize,
}

/// Files per run: a few directories' worth, so that two threads finish close together.
const STAT_RUN: usize = 64;

fn stat_run(files: &[PathBuf], k: usize) -> Vec<Option<FileStat>> {
    let mut dirs = mji_fs::stamp::DirStat::default();
    files.iter().skip(k * STAT_RUN).take(STAT_RUN).map(|f| dirs.stat(f)).collect()
}

impl StatShare {
    fn lock(&self) -> std::sync::MutexGuard<'_, ShareState> {
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Ends the sharing: no run is handed out from now on (the walk's thread calls it when it
    /// has taken the last run, or when it unwinds, so that the helper never waits for it).
    fn close(&self) {
        self.lock().closed = true;
        self.changed.notify_all();
    }

    /// The helper's part: waits for the walk's files, then stats runs until none is left.
    fn help(&self) {
        /// Gives the helper's run up even if it unwinds, so that the walk's thread stops
        /// waiting for it (and stats that run itself).
        struct Leave<'a>(&'a StatShare);
        impl Drop for Leave<'_> {
            fn drop(&mut self) {
                let mut st = self.0.lock();
                st.helping = st.helping.saturating_sub(1);
                drop(st);
                self.0.changed.notify_all();
            }
        }
        let mut st = self.lock();
        while st.files.is_none() && !st.closed {
            st = self.changed.wait(st).unwrap_or_else(std::sync::PoisonError::into_inner);
        }
        loop {
            if st.closed || st.next >= st.runs.len() {
                return;
            }
            let Some(files) = st.files.clone() else { return };
            let k = st.next;
            st.next += 1;
            st.helping += 1;
            drop(st);
            let leave = Leave(self);
            let run = stat_run(&files, k);
            drop(files);
            st = self.lock();
            if let Some(slot) = st.runs.get_mut(k) {
                *slot = Some(run);
            }
            drop(st);
            drop(leave);
            st = self.lock();
        }
    }

    /// The walk's thread's part: publishes the files, stats runs in turn with the helper, then
    /// gives every file's stat in order (any run the helper dropped is stat-ed here).
    fn stat_all(&self, files: Vec<PathBuf>) -> (Vec<PathBuf>, Vec<Option<FileStat>>) {
        let files = Arc::new(files);
        let n = files.len().div_ceil(STAT_RUN);
        {
            let mut st = self.lock();
            st.files = Some(files.clone());
            st.runs = vec![None; n];
        }
        self.changed.notify_all();
        loop {
            let mut st = self.lock();
            if st.next >= n {
                st.closed = true;
                // Waits for the run the helper holds.
                while st.helping > 0 {
                    st = self.changed.wait(st).unwrap_or_else(std::sync::PoisonError::into_inner);
                }
                break;
            }
            let k = st.next;
            st.next += 1;
            drop(st);
            let run = stat_run(&files, k);
            if let Some(slot) = self.lock().runs.get_mut(k) {
                *slot = Some(run);
            }
        }
        self.changed.notify_all();
        let runs = std::mem::take(&mut self.lock().runs);
        let stats = runs.into_iter().enumerate().flat_map(|(k, r)| r.unwrap_or_else(|| stat_run(&files, k))).collect();
        // The helper let its handle go before it gave its last run back.
        let files = Arc::try_unwrap(files).unwrap_or_else(|shared| shared.as_ref().clone());
        (files, stats)
    }
}

fn is_lombok_config(p: &Path) -> bool {
    p.file_name().is_some_and(|n| n == mji_parser::lombok::config::FILE_NAME)
}

/// A source the symbol index holds: Java, or Kotlin (`.kt`, outlined by `mji_parser::kotlin`;
/// only its declarations: the reference engine reads Java files alone, [`LiveIndex::java_files`]).
fn is_source(p: &Path) -> bool {
    is_java(p) || p.extension().is_some_and(|e| e == "kt")
}

impl LiveIndex {
    /// An empty index over the roots; `caches[i]` serves root `i` (the last one serves the
    /// rest when there are fewer caches than roots).
    pub fn new(roots: Roots, caches: Vec<Arc<Cache>>) -> Arc<LiveIndex> {
        let reader = roots.clone();
        let lombok = Arc::new(mji_parser::lombok::config::Resolver::new(
            roots.paths().to_vec(),
            Box::new(move |p| reader.read(p, mji_parser::lombok::config::FILE_NAME).ok()),
        ));
        for c in &caches {
            c.set_lombok(lombok.clone());
        }
        Arc::new(LiveIndex {
            roots,
            lombok,
            caches,
            state: RwLock::new(IndexState::default()),
            indexed: AtomicUsize::new(0),
            total: AtomicUsize::new(0),
            complete: AtomicBool::new(false),
            started: AtomicBool::new(false),
            done: (Mutex::new(false), Condvar::new()),
            problems: Mutex::new(Problems::default()),
            skipped_dirs: Mutex::new(SkippedDirs::default()),
            skipped: Mutex::new(BTreeMap::new()),
            version: std::sync::atomic::AtomicU64::new(0),
            watching: AtomicBool::new(false),
            pending: AtomicBool::new(false),
            one_shot: AtomicBool::new(false),
            sequential: AtomicBool::new(false),
            defer: AtomicBool::new(false),
            put_off: Mutex::new(None),
        })
    }

    /// The fingerprint of a root's snapshot: the cache's, and the root's own `lombok.config`
    /// when it configures anything (a `lombok.config` below the root is not in it).
    fn snapshot_fingerprint(&self, root: &Path) -> String {
        match self.lombok.salt(&root.join(mji_parser::lombok::config::FILE_NAME)) {
            0 => Cache::fingerprint().to_owned(),
            salt => format!("{}+lombok{salt:x}", Cache::fingerprint()),
        }
    }

    /// Each directory's `lombok.config` in effect.
    pub fn lombok(&self) -> &Arc<mji_parser::lombok::config::Resolver> {
        &self.lombok
    }

    /// Whether the walk found a `lombok.config` in any root. Without one every file's
    /// configuration is Lombok's defaults (salt 0), and looking each directory's up would only
    /// fail to open a file in every directory up to its root.
    pub fn has_lombok_config(&self) -> bool {
        let named = |k: &Path| k.as_os_str().as_encoded_bytes().ends_with(b"lombok.config") && is_lombok_config(k);
        self.state.read().is_ok_and(|st| st.resources.keys().any(|k| named(k)))
    }

    /// See [`LiveIndex`]'s `version`: read it before looking at the files, and while
    /// [`LiveIndex::is_watching`], the same version later means no file changed in between.
    pub fn version(&self) -> u64 {
        self.version.load(Ordering::Acquire)
    }

    /// Whether a watcher reports every change under the roots and has applied every change
    /// it heard of: then an unchanged [`LiveIndex::version`] means unchanged files.
    pub fn is_watching(&self) -> bool {
        self.watching.load(Ordering::Acquire) && !self.pending.load(Ordering::Acquire)
    }

    /// Says that this process answers one command right after its own pass, with no watcher:
    /// the stamps the pass took (one `stat` of each file) are the ones
    /// [`LiveIndex::java_file_stamps_now`] gives, rather than a second `stat` of every file
    /// a moment later — a file changed in between is no different from one changed just
    /// after the answer.
    pub fn set_one_shot(&self) {
        self.one_shot.store(true, Ordering::Release);
    }

    /// Says that other work of this process runs beside the first pass and keeps the cores
    /// busy: the pass then walks, stats and reads the snapshots on its own thread, one after
    /// another (spread over threads, it slowed that work more than it gained: `refs` on
    /// java.base lost 20-30 ms).
    pub fn sequential_start(&self) {
        self.sequential.store(true, Ordering::Release);
    }

    /// Says that this process's answer may never read the symbol table (a CLI command that
    /// links the world: its files and stamps are the walk's, see
    /// [`LiveIndex::java_file_stamps_now`]): the first pass then walks and stats every file and
    /// stops there; the snapshots are read, checked and the changed files parsed when a query
    /// first needs the table ([`LiveIndex::settle`]). On the JDK's java.base, a fifth of a
    /// one-shot `def`'s CPU went to that table. Call before [`LiveIndex::build`]; a process with
    /// a watcher never calls it.
    pub fn defer_table(&self) {
        self.defer.store(true, Ordering::Release);
    }

    /// Whether a watcher is registered on every root (events may still be pending).
    pub fn watcher_registered(&self) -> bool {
        self.watching.load(Ordering::Acquire)
    }

    fn bump(&self) {
        self.version.fetch_add(1, Ordering::AcqRel);
    }

    pub fn roots(&self) -> &Roots {
        &self.roots
    }

    fn cache(&self, root: usize) -> &Cache {
        &self.caches[root.min(self.caches.len().saturating_sub(1))]
    }

    pub fn progress(&self) -> Progress {
        Progress {
            indexed: self.indexed.load(Ordering::Acquire),
            total: self.total.load(Ordering::Acquire),
            complete: self.complete.load(Ordering::Acquire),
            skipped: self.skipped.lock().map(|s| s.len()).unwrap_or(0),
        }
    }

    /// The Java files skipped (over the size cap, not regular), with the reason, up to `max`.
    pub fn skipped(&self, max: usize) -> Vec<String> {
        self.skipped
            .lock()
            .map(|s| s.iter().take(max).map(|(p, why)| format!("{}: {why}", self.show(p))).collect())
            .unwrap_or_default()
    }

    fn show(&self, p: &Path) -> String {
        self.roots.root_of(p).map_or_else(|| p.display().to_string(), |r| self.roots.display(p, r))
    }

    fn set_skipped(&self, p: &Path, why: Option<String>) {
        if let Ok(mut s) = self.skipped.lock() {
            match why {
                Some(w) => {
                    s.insert(Arc::from(p), w);
                }
                None => {
                    s.remove(p);
                }
            }
        }
    }

    /// Counts the FIFOs, sockets and devices named like Java files that a walk found as
    /// skipped, with what they are; they are never opened.
    fn skip_special(&self, special: &[PathBuf]) {
        for p in special.iter().filter(|p| is_source(p)) {
            if let Ok(m) = std::fs::symlink_metadata(p) {
                self.set_skipped(p, Some(mji_fs::not_regular(&m).to_string()));
            }
        }
    }

    pub fn problems(&self) -> Problems {
        self.problems.lock().map(|p| p.clone()).unwrap_or_default()
    }

    /// Directories the last full walk skipped as build output, per reason.
    pub fn skipped_dirs(&self) -> SkippedDirs {
        self.skipped_dirs.lock().map(|s| *s).unwrap_or_default()
    }

    fn note_problem(&self, msg: String) {
        if let Ok(mut p) = self.problems.lock() {
            p.count += 1;
            if p.samples.len() < 20 {
                p.samples.push(msg);
            }
        }
    }

    /// Says a first pass is about to run on another thread, before that thread starts, so
    /// that whoever asks meanwhile waits for it ([`LiveIndex::wait_complete`]).
    pub fn expect_pass(&self) {
        self.started.store(true, Ordering::Release);
    }

    /// Blocks until the first full indexing pass is done, or `timeout` passes; returns
    /// whether it is done. With no pass started or announced there is nothing to wait for:
    /// whether it is done is said at once (an embedding that never indexes — a test's
    /// workspace, a caller that lists files itself — would otherwise wait out every
    /// `timeout`).
    pub fn wait_complete(&self, timeout: Duration) -> bool {
        if !self.started.load(Ordering::Acquire) {
            return self.complete.load(Ordering::Acquire);
        }
        self.wait_pass(timeout)
    }

    /// [`LiveIndex::wait_complete`] whether or not a pass was started: for a loop that must
    /// wait for the first listing however it comes (the reference keeper's), and would spin
    /// if told at once that no pass runs yet.
    pub fn wait_pass(&self, timeout: Duration) -> bool {
        let (lock, cv) = &self.done;
        let Ok(guard) = lock.lock() else { return self.progress().complete };
        match cv.wait_timeout_while(guard, timeout, |done| !*done) {
            Ok((g, _)) => *g,
            Err(_) => self.progress().complete,
        }
    }

    /// Indexes one file: its symbols, or None if it cannot be read (the problem is recorded;
    /// a file over the size cap or not regular is counted as skipped, with the reason).
    fn load(&self, path: &Path, root: usize) -> Option<FileSymbols> {
        let meta = match std::fs::symlink_metadata(path) {
            Ok(m) => m,
            Err(e) => {
                self.note_problem(format!("{}: {e}", path.display()));
                return None;
            }
        };
        let display = self.roots.display(path, root);
        let cap = self.roots.max_file_bytes();
        if !meta.is_file() {
            self.set_skipped(path, Some(mji_fs::not_regular(&meta).to_string()));
            return None;
        }
        if meta.len() > cap {
            self.set_skipped(path, Some(mji_fs::too_large(meta.len(), cap).to_string()));
            return None;
        }
        // Declarations only, from the file's skeleton: the index needs no body errors, and the
        // skeleton parses about three times faster. (The outline cache keeps full outlines
        // for java_index; the index has its own snapshot.)
        match self.roots.read(path, &display) {
            Ok(bytes) => {
                self.set_skipped(path, None);
                Some(file_symbols(
                    path.to_path_buf(),
                    root,
                    &meta,
                    &mji_parser::outline_declarations_unhashed_with(&display, &bytes, &self.lombok.for_file(path)),
                    self.lombok.salt(path),
                ))
            }
            Err(mji_fs::roots::ReadError::Io(_, e))
                if matches!(e.kind(), std::io::ErrorKind::InvalidInput | std::io::ErrorKind::FileTooLarge) =>
            {
                self.set_skipped(path, Some(e.to_string()));
                None
            }
            Err(e) => {
                self.note_problem(e.to_string());
                None
            }
        }
    }

    /// Walks every root: its Java files in order with their stamps (as the walk's `stat` saw
    /// them), every file as a resource, and the directories skipped. The `stat`s are shared
    /// with whoever [`StatShare::help`]s.
    #[allow(clippy::type_complexity)]
    fn walk_roots(
        &self,
        share: &StatShare,
    ) -> (Vec<(PathBuf, usize)>, Vec<Option<mji_fs::stamp::Stamp>>, Vec<(Arc<Path>, Resource)>, SkippedDirs) {
        let mut kept: Vec<PathBuf> = Vec::new();
        let mut kept_roots: Vec<(usize, usize)> = Vec::new();
        let mut skipped = SkippedDirs::default();
        for (i, root) in self.roots.paths().iter().enumerate() {
            // From the listing kept beside the snapshot while every directory is as it was
            // (`mji_fs::listing`: on the JDK, the walk was ~45 ms of a one-shot `refs`).
            let listing = self.cache(i).dir().map(|d| mji_fs::listing::path_for(&d, root));
            let (walked, listed) = mji_fs::listing::walk(root, listing.as_deref());
            match listed {
                mji_fs::listing::Listed::Failed(e) => {
                    tracing::debug!(root = %root.display(), "writing the walk's listing: {e}")
                }
                how => tracing::debug!(root = %root.display(), ?how, "walked"),
            }
            skipped.add(&walked.skipped);
            for p in walked.problems {
                self.note_problem(p);
            }
            self.skip_special(&walked.special);
            let from = kept.len();
            // With nested roots, a file belongs to the deepest one (with none nested in this
            // one, to this one: no look at every root for each file); a secret (a private key,
            // a credentials file) is never listed or searched.
            let nests = self.roots.paths().iter().enumerate().any(|(j, r)| j != i && r.starts_with(root));
            kept.extend(
                walked
                    .files
                    .into_iter()
                    .filter(|f| (!nests || self.roots.root_of(f) == Some(i)) && self.roots.refusal_in(f, i).is_none()),
            );
            kept_roots.push((i, kept.len() - from));
        }
        tracing::debug!(files = kept.len(), "walked every root");
        // One `stat` per file, each relative to its directory, in the walk's order.
        let (files, stats) = share.stat_all(kept);
        tracing::debug!("stat-ed every file");
        let mut java: Vec<(PathBuf, usize)> = Vec::new();
        // Each Java file's stamp as the walk saw it, beside `java`: its snapshot entry is
        // checked against it rather than by a second stat of every file (on the JDK, a tenth
        // of a warm start).
        let mut java_stamps: Vec<Option<mji_fs::stamp::Stamp>> = Vec::new();
        // Collected, then made a map in one go: the walk yields paths in order, so the map is
        // built without a path comparison per level of the tree for each file (on the JDK, a
        // tenth of a warm start went to inserting them one by one).
        let mut resources: Vec<(Arc<Path>, Resource)> = Vec::with_capacity(files.len());
        let mut files = files.into_iter().zip(stats);
        for (i, count) in kept_roots {
            for (f, meta) in files.by_ref().take(count) {
                resources.push((
                    Arc::from(f.as_path()),
                    Resource { root: i, size: meta.map_or(0, |m| m.size), modified: meta.and_then(|m| m.modified) },
                ));
                if is_source(&f) {
                    java_stamps.push(meta.map(|m| m.stamp));
                    java.push((f, i));
                }
            }
        }
        (java, java_stamps, resources, skipped)
    }

    /// Each root's snapshot path (None without a cache directory) with its entry count, and
    /// a table of every root's records (slot k the k-th, root by root) with their search
    /// buffers joined: each ends with the `\n` the next one starts with.
    fn read_snapshots(&self) -> (Vec<Option<(PathBuf, usize)>>, SymbolTable) {
        // Warm start: symbols from each root's snapshot, for files whose stamp still matches.
        let mut snapshot_paths: Vec<Option<(PathBuf, usize)>> = Vec::new();
        let mut records: Vec<FileSymbols> = Vec::new();
        let mut names: Option<(String, String)> = Some(Default::default());
        for (i, r) in self.roots.paths().iter().enumerate() {
            let Some(dir) = self.cache(i).dir() else {
                snapshot_paths.push(None);
                continue;
            };
            let path = crate::snapshot::path_for(&dir, r);
            let snap = match crate::snapshot::read(&path, r, i, &self.snapshot_fingerprint(r)) {
                Ok(m) => m,
                Err(crate::snapshot::Unusable::Stale) => Default::default(),
                Err(crate::snapshot::Unusable::Untrusted) => {
                    tracing::warn!(
                        "the index snapshot {} was not written here by this user (its MAC does not hold): not used; it is rebuilt",
                        path.display()
                    );
                    Default::default()
                }
            };
            snapshot_paths.push(Some((path, snap.files.len())));
            if snap.files.is_empty() {
                continue;
            }
            match (&mut names, snap.names) {
                (Some((n, i)), Some((sn, si))) if n.is_empty() => (*n, *i) = (sn, si),
                (Some((n, i)), Some((sn, si))) => {
                    n.push_str(sn.get(1..).unwrap_or(""));
                    i.push_str(si.get(1..).unwrap_or(""));
                }
                _ => names = None,
            }
            records.extend(snap.files);
        }
        let names = names.filter(|(n, _)| !n.is_empty());
        (snapshot_paths, SymbolTable::from_snapshot(records, names))
    }

    /// The first full pass: walks every root, then indexes the Java files in parallel,
    /// publishing them in batches so queries see progress. Call once, on any thread.
    pub fn build(&self) -> PassStats {
        self.expect_pass();
        let started = Instant::now();
        // The walk (with a stat of every file) and the snapshots' reads do not depend on each
        // other: done at once (on the JDK, a fifth of a one-shot `types` off the wall time). On
        // threads of their own, not rayon's pool, which a process may have busy with other work
        // (the CLI reads the reference store meanwhile): queued behind it, they waited.
        // The walk's `stat`s are shared with the snapshots' reader once it is done, and with
        // the cores beyond two.
        let share = StatShare::default();
        if self.defer.load(Ordering::Acquire) {
            // The `stat`s shared with a second thread: the reference store's reader beside the
            // walk is done before the walk is (on the JDK, at 48 ms against 44 ms for the walk
            // and 27 ms more for the stats on one thread).
            let (java, stamps, resources, skipped) = std::thread::scope(|s| {
                let _close = CloseShare(&share);
                let share = &share;
                s.spawn(move || share.help());
                self.walk_roots(share)
            });
            tracing::debug!(files = java.len(), ms = started.elapsed().as_millis() as u64, "walked the roots");
            self.publish_walk(java.len(), resources, skipped);
            // What `load` would say of the files over the size cap, which the table never holds.
            let cap = self.roots.max_file_bytes();
            for ((p, _), st) in java.iter().zip(&stamps) {
                if let Some(st) = st.filter(|st| st.size > cap) {
                    self.set_skipped(p, Some(mji_fs::too_large(st.size, cap).to_string()));
                }
            }
            let files = java.len();
            self.indexed.store(files, Ordering::Release);
            *self.put_off.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(Walk { java, stamps });
            self.pass_done();
            return PassStats { files, from_snapshot: 0, parsed: 0 };
        }
        let ((java, java_stamps, resources, skipped), (snapshot_paths, table)) = std::thread::scope(|s| {
            if self.sequential.load(Ordering::Acquire) {
                let walked = self.walk_roots(&share);
                return (walked, self.read_snapshots());
            }
            let _close = CloseShare(&share);
            let share = &share;
            let snapshots = s.spawn(move || {
                let read = self.read_snapshots();
                tracing::debug!(ms = started.elapsed().as_secs_f64() * 1e3, "read the snapshots");
                share.help();
                read
            });
            let more = std::thread::available_parallelism().map_or(1, |n| n.get()).saturating_sub(2).min(2);
            for _ in 0..more {
                s.spawn(move || share.help());
            }
            let walked = self.walk_roots(share);
            // Without the snapshots (their reader panicked), every file is parsed again.
            (walked, snapshots.join().unwrap_or_default())
        });
        tracing::debug!(files = java.len(), ms = started.elapsed().as_millis() as u64, "walked the roots");
        self.publish_walk(java.len(), resources, skipped);
        let stats = self.index_walked(&java, &java_stamps, &snapshot_paths, table, started);
        self.pass_done();
        stats
    }

    /// What a walk found, for the readers that need no symbol table: the count of Java files,
    /// every file as a resource, the directories skipped.
    fn publish_walk(&self, java: usize, resources: Vec<(Arc<Path>, Resource)>, skipped: SkippedDirs) {
        if let Ok(mut s) = self.skipped_dirs.lock() {
            *s = skipped;
        }
        self.total.store(java, Ordering::Release);
        if let Ok(mut st) = self.state.write() {
            st.resources = resources.into_iter().collect();
        }
    }

    /// Marks the first pass done (its table made or put off) and wakes whoever waits for it.
    fn pass_done(&self) {
        self.bump();
        self.complete.store(true, Ordering::Release);
        let (lock, cv) = &self.done;
        if let Ok(mut d) = lock.lock() {
            *d = true;
        }
        cv.notify_all();
    }

    /// Builds the table a first pass put off ([`LiveIndex::defer_table`]) if it did, before
    /// anything reads it: the snapshots are read (their MAC checked) and matched with the
    /// walk's stamps, the changed files parsed and the snapshots rewritten, as the pass would
    /// have. Whoever calls first does it; the others wait for it.
    fn settle(&self) {
        let mut put_off = self.put_off.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let Some(walk) = put_off.take() else { return };
        let started = Instant::now();
        let (snapshot_paths, table) = self.read_snapshots();
        self.indexed.store(0, Ordering::Release);
        self.index_walked(&walk.java, &walk.stamps, &snapshot_paths, table, started);
        drop(put_off);
        self.bump();
    }

    /// The walk's Java files and their stamps while the table is put off (files gone by their
    /// `stat` or over the size cap left out, as the table would leave them out).
    fn walk_listing(&self) -> Option<Vec<(Arc<Path>, usize, mji_fs::stamp::Stamp)>> {
        let put_off = self.put_off.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let walk = put_off.as_ref()?;
        let cap = self.roots.max_file_bytes();
        Some(
            walk.java
                .iter()
                .zip(&walk.stamps)
                .filter(|((p, _), _)| is_java(p))
                .filter_map(|((p, root), st)| {
                    st.filter(|st| st.size <= cap).map(|st| (Arc::from(p.as_path()), *root, st))
                })
                .collect(),
        )
    }

    /// The walk's Kotlin files while the table is put off, filtered as [`LiveIndex::walk_listing`]
    /// filters its Java files; in path order (the walk's).
    fn walk_kotlin(&self) -> Option<Vec<(Arc<Path>, usize)>> {
        let put_off = self.put_off.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let walk = put_off.as_ref()?;
        let cap = self.roots.max_file_bytes();
        let mut out: Vec<(Arc<Path>, usize)> = walk
            .java
            .iter()
            .zip(&walk.stamps)
            // The walk lists Java and Kotlin sources: a name not ending `.kt` is Java's, told
            // by its bytes (a path's extension parses its components: 2 ms on the JDK).
            .filter(|((p, _), st)| {
                p.as_os_str().as_encoded_bytes().ends_with(b".kt") && !is_java(p) && st.is_some_and(|st| st.size <= cap)
            })
            .map(|((p, root), _)| (Arc::from(p.as_path()), *root))
            .collect();
        out.sort();
        Some(out)
    }

    /// The rest of a first pass once the snapshots are read: the records still current are
    /// kept, the other files parsed, the table installed and the stale snapshots rewritten.
    fn index_walked(
        &self,
        java: &[(PathBuf, usize)],
        java_stamps: &[Option<mji_fs::stamp::Stamp>],
        snapshot_paths: &[Option<(PathBuf, usize)>],
        mut table: SymbolTable,
        started: Instant,
    ) -> PassStats {
        // A record is current when the walk found its file, in its root, with the stamp it was
        // indexed at; the others are dropped from the table.
        let mut current = vec![false; table.slots()];
        let mut to_load: Vec<(PathBuf, usize)> = Vec::new();
        // A record's size is salted by its file's `lombok.config` (see `FileSymbols`): with no
        // `lombok.config` in any root every salt is 0, and none is looked up.
        let configs = self.has_lombok_config();
        for (k, ((p, r), now)) in java.iter().zip(java_stamps).enumerate() {
            let Some(now) = *now else {
                to_load.push((p.clone(), *r));
                continue;
            };
            match table.slot_of(k, p) {
                Some(slot) if !current[slot as usize] && table.file_at(slot).is_some_and(|f| f.root == *r) => {
                    let salt = if configs { self.lombok.salt(p) } else { 0 };
                    let recorded = table.file_at(slot).map(|f| f.stamp());
                    if recorded == Some(mji_fs::stamp::Stamp { size: now.size ^ salt, ..now }) {
                        current[slot as usize] = true;
                        table.make_current(slot, now, salt);
                    } else {
                        to_load.push((p.clone(), *r));
                    }
                }
                _ => to_load.push((p.clone(), *r)),
            }
        }
        for (slot, _) in current.iter().enumerate().filter(|(_, c)| !**c) {
            table.retire(slot as u32);
        }
        let reused_count = current.iter().filter(|c| **c).count();
        let stats = PassStats { files: java.len(), from_snapshot: reused_count, parsed: to_load.len() };
        if let Ok(mut st) = self.state.write() {
            match st.table.slots() {
                0 => st.table = table,
                // Changes applied while the pass ran (never so far): the records join them.
                _ => table.into_files().for_each(|f| st.table.upsert(f)),
            }
        }
        self.indexed.fetch_add(reused_count, Ordering::AcqRel);
        // Fault injection for tests of progress and incomplete answers: slow every batch down.
        let delay = std::env::var("MCP_JAVA_INDEX_TEST_BATCH_DELAY_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .map(Duration::from_millis);
        for chunk in to_load.chunks(512) {
            if let Some(d) = delay {
                std::thread::sleep(d);
            }
            let loaded: Vec<FileSymbols> = chunk.par_iter().filter_map(|(p, r)| self.load(p, *r)).collect();
            if let Ok(mut st) = self.state.write() {
                for f in loaded {
                    st.table.upsert(f);
                }
            }
            self.indexed.fetch_add(chunk.len(), Ordering::AcqRel);
        }
        tracing::debug!(ms = started.elapsed().as_millis() as u64, reused = reused_count, "indexed the Java files");
        // Rewrite a snapshot that was missing or stale.
        for (i, snap) in snapshot_paths.iter().enumerate() {
            let Some((path, entries)) = snap else { continue };
            let in_root = java.iter().filter(|(_, r)| *r == i).count();
            if *entries == in_root && reused_count == java.len() {
                continue; // every file came from an up-to-date snapshot
            }
            if let Ok(st) = self.state.read() {
                let root = &self.roots.paths()[i];
                match crate::snapshot::write(
                    path,
                    root,
                    &self.snapshot_fingerprint(root),
                    st.table.files().filter(|f| f.root == i),
                ) {
                    Ok(n) => tracing::debug!(files = n, path = %path.display(), "wrote the index snapshot"),
                    Err(e) => tracing::warn!("writing the index snapshot {}: {e}", path.display()),
                }
            }
        }
        for c in &self.caches {
            c.flush();
        }
        stats
    }

    /// Applies a batch of changed paths (created, modified, removed or renamed; files or
    /// directories). Returns how many Java files were re-indexed or removed.
    pub(crate) fn apply_changes(&self, paths: &[PathBuf]) -> usize {
        self.settle();
        let n = self.apply_changes_now(paths);
        // Whatever the batch changed (even nothing), readers that kept what they saw before it
        // look again; bumped after the tables are updated, never before.
        self.bump();
        n
    }

    fn apply_changes_now(&self, paths: &[PathBuf]) -> usize {
        // A `lombok.config` added, changed or removed: the Java files below it are outlined again.
        let mut paths = paths.to_vec();
        let configs: Vec<PathBuf> = paths.iter().filter(|p| is_lombok_config(p)).cloned().collect();
        for c in &configs {
            self.lombok.forget(c);
            let Some(dir) = c.parent() else { continue };
            if let Ok(st) = self.state.read() {
                paths.extend(st.resources.keys().filter(|k| is_java(k) && k.starts_with(dir)).map(|k| k.to_path_buf()));
            }
        }
        let paths = &paths;
        let mut files: Vec<(PathBuf, usize)> = Vec::new();
        let mut gone: Vec<PathBuf> = Vec::new();
        let mut seen = HashSet::new();
        for p in paths {
            if !seen.insert(p.clone()) || self.in_skipped_dir(p) {
                continue;
            }
            // The same policy as the walker and the tools: judged by the canonical target,
            // which must lie inside a root. A link made while serving that points out of the
            // workspace is never indexed (and whatever the index had at its path is dropped).
            let (canon, root) = match self.roots.admit(p) {
                Ok(a) => a,
                Err(e) => {
                    if matches!(e, mji_fs::roots::PathError::Outside { .. }) {
                        tracing::warn!("not indexing {}: it resolves outside the workspace roots", p.display());
                    }
                    gone.push(p.clone());
                    self.set_skipped(p, None);
                    continue;
                }
            };
            if canon != *p {
                // A link inside the workspace: its target is indexed under its own path.
                gone.push(p.clone());
            }
            match std::fs::symlink_metadata(&canon) {
                Ok(m) if m.is_dir() => {
                    let walked = walk::walk(&canon, |_| true);
                    self.skip_special(&walked.special);
                    for f in walked.files.into_iter().filter(|f| self.roots.refusal(f).is_none()) {
                        files.push((f, root));
                    }
                }
                Ok(m) if m.is_file() => files.push((canon, root)),
                Ok(m) => {
                    // A FIFO, socket or device named like a source file: never opened.
                    if is_source(&canon) {
                        self.set_skipped(&canon, Some(mji_fs::not_regular(&m).to_string()));
                    }
                    gone.push(canon);
                }
                Err(_) => gone.push(canon),
            }
        }
        let loaded: Vec<(PathBuf, usize, Option<FileSymbols>, Option<std::fs::Metadata>)> = files
            .par_iter()
            .map(|(p, r)| {
                let meta = std::fs::metadata(p).ok();
                let syms = if is_source(p) { self.load(p, *r) } else { None };
                (p.clone(), *r, syms, meta)
            })
            .collect();
        let mut changed = 0;
        let Ok(mut st) = self.state.write() else { return 0 };
        for g in &gone {
            changed += usize::from(st.table.remove(g)) + st.table.remove_under(g);
            st.resources.retain(|k, _| !k.starts_with(g));
        }
        for (p, root, syms, meta) in loaded {
            let Some(meta) = meta else {
                changed += usize::from(st.table.remove(&p));
                st.resources.remove(p.as_path());
                continue;
            };
            st.resources
                .insert(Arc::from(p.as_path()), Resource { root, size: meta.len(), modified: meta.modified().ok() });
            if let Some(s) = syms {
                st.table.upsert(s);
                changed += 1;
            }
        }
        changed
    }

    /// Whether a path lies in a directory the walk skips (build output, VCS data, caches),
    /// judged below its root (a root may itself sit under, say, `target/`) and by the same
    /// rules as the walk: `target`, `build` and `out` only where they are build output.
    fn in_skipped_dir(&self, p: &Path) -> bool {
        let Some(root) = self.roots.root_of(p) else { return true };
        let root_path = &self.roots.paths()[root];
        let rel = p.strip_prefix(root_path).unwrap_or(p);
        let comps: Vec<_> = rel.components().collect();
        let skipped = |dir: &Path, n: &str| is_skipped_dir(n) || skip_reason(root_path, dir, n).is_some();
        let mut dir = root_path.to_path_buf();
        for (i, c) in comps.iter().enumerate() {
            let Some(n) = c.as_os_str().to_str() else { continue };
            dir.push(n);
            // The entry itself may be a file named like a skipped directory.
            let last = i + 1 == comps.len();
            if last && !p.is_dir() {
                break;
            }
            if (!last && n.starts_with('.') && n.len() > 1) || skipped(&dir, n) {
                return true;
            }
        }
        false
    }

    /// Every file the index knows whose stamp no longer matches the disk, or that is gone.
    fn stale(&self, paths: &[Arc<Path>]) -> Vec<PathBuf> {
        let Ok(st) = self.state.read() else { return Vec::new() };
        paths
            .iter()
            .filter(|p| match (st.table.file(p), std::fs::metadata(p)) {
                (Some(f), Ok(m)) => stamp(&m) != f.stamp,
                (Some(_), Err(_)) => true,
                (None, _) => false,
            })
            .map(|p| p.to_path_buf())
            .collect()
    }

    /// Applies files this process changed itself (an applied edit), at once rather than when
    /// the watcher reports them, so the next answer sees them. Returns the Java files re-indexed.
    pub fn changed(&self, paths: &[PathBuf]) -> usize {
        self.apply_changes(paths)
    }

    /// Re-walks every root and applies what differs from the index (after a watcher overflow).
    pub fn rescan(&self) -> usize {
        self.settle();
        let mut changed: Vec<PathBuf> = Vec::new();
        let known: Vec<Arc<Path>> =
            self.state.read().map(|st| st.resources.keys().cloned().collect()).unwrap_or_default();
        let mut on_disk = HashSet::new();
        let mut skipped = SkippedDirs::default();
        for root in self.roots.paths() {
            let walked = walk::walk(root, |_| true);
            skipped.add(&walked.skipped);
            for f in walked.files {
                on_disk.insert(f.clone());
                changed.push(f);
            }
        }
        if let Ok(mut s) = self.skipped_dirs.lock() {
            *s = skipped;
        }
        changed.retain(|f| {
            let Ok(st) = self.state.read() else { return true };
            match (st.table.file(f), std::fs::metadata(f)) {
                (Some(e), Ok(m)) => stamp(&m) != e.stamp,
                (None, _) => is_source(f) || is_lombok_config(f) || !st.resources.contains_key(f.as_path()),
                _ => true,
            }
        });
        changed.extend(known.iter().filter(|k| !on_disk.contains(k.as_ref())).map(|k| k.to_path_buf()));
        self.apply_changes(&changed)
    }

    /// Runs a symbol query, re-checking the files of the returned page: a file changed since
    /// it was indexed is re-indexed and the query run again, so answers are never stale.
    pub fn find_symbols(
        &self,
        pattern: &Pattern,
        keep: &(dyn Fn(&Path, &SymView) -> bool + Sync),
        offset: usize,
        limit: usize,
    ) -> Page<Found> {
        self.settle();
        let query = || {
            let progress = self.progress();
            // The search structures are rebuilt lazily under the write lock.
            let Ok(mut st) = self.state.write() else { return Page { items: Vec::new(), total: 0, progress } };
            let mut hits: Vec<Hit> = st.table.find(pattern, &|f: &FileSymbols, s: &SymView| keep(&f.path, s));
            let total = hits.len();
            st.table.rank(&mut hits, offset.saturating_add(limit));
            let items = hits
                .iter()
                .skip(offset)
                .take(limit)
                .filter_map(|h| {
                    st.table.symbol(h.sym).map(|(f, s)| Found {
                        path: f.path.clone(),
                        root: f.root,
                        symbol: s.to_owned(),
                        tier: h.tier,
                    })
                })
                .collect();
            Page { items, total, progress }
        };
        for _ in 0..2 {
            let page = query();
            let paths: Vec<Arc<Path>> =
                page.items.iter().map(|f| f.path.clone()).collect::<HashSet<_>>().into_iter().collect();
            let stale = self.stale(&paths);
            if stale.is_empty() {
                return page;
            }
            self.apply_changes(&stale);
        }
        query()
    }

    /// Files (any kind) whose file name `keep` accepts, in path order: one pass, no pattern.
    pub fn resources_named(&self, keep: impl Fn(&str) -> bool) -> Vec<(Arc<Path>, Resource)> {
        let Ok(st) = self.state.read() else { return Vec::new() };
        st.resources
            .iter()
            .filter(|(p, _)| p.file_name().is_some_and(|n| keep(&n.to_string_lossy())))
            .map(|(p, r)| (p.clone(), r.clone()))
            .collect()
    }

    /// Files (any kind) whose name or path matches, best first.
    pub fn find_resources(
        &self,
        pattern: &Pattern,
        path_pattern: bool,
        under: Option<&Path>,
        offset: usize,
        limit: usize,
    ) -> Page<(Arc<Path>, Resource, crate::matcher::Tier)> {
        let progress = self.progress();
        let Ok(st) = self.state.read() else { return Page { items: Vec::new(), total: 0, progress } };
        let mut hits: Vec<(crate::matcher::Tier, &Arc<Path>, &Resource)> = st
            .resources
            .iter()
            .filter(|(p, _)| under.is_none_or(|u| p.starts_with(u)))
            .filter_map(|(p, r)| {
                let subject = if path_pattern {
                    p.strip_prefix(&self.roots.paths()[r.root])
                        .map(|x| x.to_string_lossy().replace('\\', "/"))
                        .unwrap_or_default()
                } else {
                    p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
                };
                let tier = pattern.tier(&subject).or_else(|| {
                    // `Greeter` finds Greeter.java: match the name without its extension too.
                    (!path_pattern).then(|| subject.rsplit_once('.').and_then(|(stem, _)| pattern.tier(stem))).flatten()
                })?;
                Some((tier, p, r))
            })
            .collect();
        let total = hits.len();
        hits.sort_by(|a, b| (a.0, a.1.as_os_str().len(), a.1).cmp(&(b.0, b.1.as_os_str().len(), b.1)));
        let items = hits.into_iter().skip(offset).take(limit).map(|(t, p, r)| (p.clone(), r.clone(), t)).collect();
        Page { items, total, progress }
    }

    /// The indexed files with a member annotated with Lombok's `@Delegate`, whose generated
    /// methods the reference engine's world lists; in path order.
    pub fn delegating_files(&self) -> Vec<Arc<Path>> {
        self.settle();
        let mut out: Vec<Arc<Path>> = self
            .state
            .read()
            .map(|st| st.table.files().filter(|f| f.has_delegate()).map(|f| f.path.clone()).collect())
            .unwrap_or_default();
        out.sort();
        out
    }

    /// Every indexed Java file with its root.
    pub fn java_files(&self) -> Vec<(Arc<Path>, usize)> {
        if let Some(walked) = self.walk_listing() {
            return walked.into_iter().map(|(p, root, _)| (p, root)).collect();
        }
        self.state
            .read()
            .map(|st| st.table.files().filter(|f| is_java(&f.path)).map(|f| (f.path.clone(), f.root)).collect())
            .unwrap_or_default()
    }

    /// The Kotlin files the index holds, with their roots, in path order (their declarations
    /// only: no reference of theirs is bound, which answers about references say). While the
    /// table is put off ([`LiveIndex::defer_table`]), the walk's Kotlin files, as
    /// [`LiveIndex::java_files`] lists the walk's Java files: a reference command asks whether
    /// there are any, and building the table to answer "none" took a fifth of a one-shot
    /// `refs --count-only` on the JDK.
    pub fn kotlin_files(&self) -> Vec<(Arc<Path>, usize)> {
        if let Some(walked) = self.walk_kotlin() {
            return walked;
        }
        self.settle();
        let mut out: Vec<(Arc<Path>, usize)> = self
            .state
            .read()
            .map(|st| st.table.other_files().map(|f| (f.path.clone(), f.root)).collect())
            .unwrap_or_default();
        out.sort();
        out
    }

    /// Every indexed Java file with its root and the stamp it was indexed at (while
    /// [`LiveIndex::is_watching`], the stamp a `stat` would give now).
    /// While the table is put off ([`LiveIndex::defer_table`]), the walk's files and stamps.
    pub fn java_file_stamps(&self) -> Vec<(Arc<Path>, usize, mji_fs::stamp::Stamp)> {
        if let Some(walked) = self.walk_listing() {
            return walked;
        }
        self.state
            .read()
            .map(|st| {
                st.table.files().filter(|f| is_java(&f.path)).map(|f| (f.path.clone(), f.root, f.stamp())).collect()
            })
            .unwrap_or_default()
    }

    /// Every indexed Java file with its stamp now, and whether the stamps came from a watcher
    /// that has applied every event. Then the index's stamps are the files' own: no stat of
    /// every file (tens of milliseconds on the JDK) after an edit; a file the index read within
    /// the racy window has a stamp that never matches (two same-size writes would look alike),
    /// and only those are stat-ed. Without a watcher every file is stat-ed (in parallel),
    /// unless the process is one-shot ([`LiveIndex::set_one_shot`]) and its pass is done.
    pub fn java_file_stamps_now(&self) -> (Vec<(Arc<Path>, usize, mji_fs::stamp::Stamp)>, bool) {
        use mji_fs::stamp::Stamp;
        let watching = self.is_watching();
        if watching || (self.one_shot.load(Ordering::Acquire) && self.progress().complete) {
            let stamps = self
                .java_file_stamps()
                .into_iter()
                .filter_map(|(p, root, stamp)| {
                    let stamp = match stamp.is_never() {
                        true => Stamp::of(&std::fs::metadata(&p).ok()?),
                        false => stamp,
                    };
                    Some((p, root, stamp))
                })
                .collect();
            return (stamps, watching);
        }
        let stamps = self
            .java_files()
            .par_iter()
            .filter_map(|(p, root)| Some((p.clone(), *root, Stamp::of(&std::fs::metadata(p).ok()?))))
            .collect();
        (stamps, false)
    }

    /// Every indexed Kotlin file with its root and its stamp now (stat-ed: a mixed project's
    /// Kotlin files are few), in path order: the reference engine reads their declarations as
    /// Java sees them. Empty, and no stat, in a project without Kotlin.
    pub fn kotlin_file_stamps_now(&self) -> Vec<(Arc<Path>, usize, mji_fs::stamp::Stamp)> {
        let is_kotlin = |p: &Path| p.extension().is_some_and(|e| e == "kt");
        let listed: Vec<(Arc<Path>, usize)> = {
            let put_off = self.put_off.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            match put_off.as_ref() {
                Some(walk) => {
                    walk.java.iter().filter(|(p, _)| is_kotlin(p)).map(|(p, r)| (Arc::from(p.as_path()), *r)).collect()
                }
                None => self
                    .state
                    .read()
                    .map(|st| {
                        st.table
                            .other_files()
                            .filter(|f| is_kotlin(&f.path))
                            .map(|f| (f.path.clone(), f.root))
                            .collect()
                    })
                    .unwrap_or_default(),
            }
        };
        let mut out: Vec<(Arc<Path>, usize, mji_fs::stamp::Stamp)> = listed
            .into_iter()
            .filter_map(|(p, root)| {
                let st = mji_fs::stamp::Stamp::of(&std::fs::metadata(&p).ok()?);
                Some((p, root, st))
            })
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    pub fn counts(&self) -> (usize, usize, usize) {
        self.settle();
        self.state
            .read()
            .map(|st| (st.table.file_count(), st.table.symbol_count(), st.resources.len()))
            .unwrap_or_default()
    }
}

/// Watches the roots and applies changes in debounced batches until `stop` is set. Runs on
/// the calling thread; returns an error if the watcher cannot start (the index then relies on
/// re-checking the files each answer returns).
pub fn watch(index: Arc<LiveIndex>, stop: Arc<AtomicBool>) -> notify::Result<()> {
    use notify::{RecursiveMode, Watcher};
    let (tx, rx) = std::sync::mpsc::channel::<notify::Result<notify::Event>>();
    let mut watcher = notify::recommended_watcher(move |res| {
        let _ = tx.send(res);
    })?;
    for root in index.roots().paths() {
        watcher.watch(root, RecursiveMode::Recursive)?;
        tracing::debug!(root = %root.display(), "watching");
    }
    index.watching.store(true, Ordering::Release);
    // Whatever ends the loop (stop, a closed channel), the index no longer hears of changes.
    struct Unwatch<'a>(&'a LiveIndex);
    impl Drop for Unwatch<'_> {
        fn drop(&mut self) {
            self.0.watching.store(false, Ordering::Release);
            self.0.bump();
        }
    }
    let _unwatch = Unwatch(&index);
    // Quiet period before a batch is applied, and the longest a batch may wait.
    const QUIET: Duration = Duration::from_millis(30);
    const MAX_WAIT: Duration = Duration::from_millis(500);
    while !stop.load(Ordering::Acquire) {
        let first = match rx.recv_timeout(Duration::from_millis(200)) {
            Ok(e) => e,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => continue,
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
        };
        if let Ok(ev) = &first
            && matches!(ev.kind, notify::EventKind::Access(_))
        {
            continue;
        }
        index.pending.store(true, Ordering::Release);
        let started = Instant::now();
        let mut paths: Vec<PathBuf> = Vec::new();
        let mut rescan = false;
        let mut take = |e: notify::Result<notify::Event>| match e {
            // Reads (our own indexing opens every file) change nothing.
            Ok(ev) if matches!(ev.kind, notify::EventKind::Access(_)) => {}
            Ok(ev) => {
                rescan |= ev.need_rescan();
                paths.extend(ev.paths);
            }
            Err(_) => rescan = true,
        };
        take(first);
        while started.elapsed() < MAX_WAIT {
            match rx.recv_timeout(QUIET) {
                Ok(e) => take(e),
                Err(_) => break,
            }
        }
        let changed = if rescan { index.rescan() } else { index.apply_changes(&paths) };
        index.pending.store(false, Ordering::Release);
        tracing::debug!(
            events = paths.len(),
            changed,
            rescan,
            ms = started.elapsed().as_millis() as u64,
            "applied file changes"
        );
    }
    drop(watcher);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Files of several directories (some gone), enough for many runs, stat-ed with no helper,
    /// with one and with three: every answer is a lone `DirStat`'s, in the walk's order, and
    /// the files come back as given.
    #[test]
    fn shared_stats_are_the_walks_in_order() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut files = Vec::new();
        for d in 0..7 {
            let sub = dir.path().join(format!("d{d}"));
            std::fs::create_dir(&sub).expect("mkdir");
            for f in 0..41 {
                let p = sub.join(format!("F{f}.java"));
                if (d + f) % 5 != 0 {
                    std::fs::write(&p, "x".repeat(d * 41 + f)).expect("write");
                }
                files.push(p);
            }
        }
        let mut lone = mji_fs::stamp::DirStat::default();
        let want: Vec<Option<FileStat>> = files.iter().map(|f| lone.stat(f)).collect();
        assert!(want.iter().any(Option::is_none) && want.iter().flatten().count() > 200);
        for helpers in [0, 1, 3] {
            let share = StatShare::default();
            let (back, got) = std::thread::scope(|s| {
                for _ in 0..helpers {
                    s.spawn(|| share.help());
                }
                share.stat_all(files.clone())
            });
            assert_eq!(back, files, "{helpers} helpers");
            assert_eq!(got, want, "{helpers} helpers");
        }
    }

    /// A pass that puts its table off lists the walk's files with their stamps (a file over the
    /// size cap skipped, as the table would skip it) and reads no snapshot; the first query
    /// builds the table from the snapshot, whose records of changed files are not used and
    /// whose MAC is checked then: an altered snapshot is refused, and rewritten.
    #[test]
    fn a_table_put_off_is_built_on_first_use_from_a_checked_snapshot() {
        let ws = tempfile::tempdir().expect("tempdir");
        let cache_dir = tempfile::tempdir().expect("tempdir");
        let root = std::fs::canonicalize(ws.path()).expect("canonical");
        let old = SystemTime::now() - Duration::from_secs(3600);
        let put = |rel: &str, text: &str| {
            let p = root.join(rel);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(&p, text).expect("write");
            std::fs::File::options().write(true).open(&p).expect("open").set_modified(old).expect("mtime");
        };
        for i in 0..5 {
            put(&format!("p/F{i}.java"), &format!("package p;\nclass F{i} {{ void fill{i}() {{}} }}\n"));
        }
        put("p/Big.java", &format!("package p;\nclass Big {{}}\n{}", " ".repeat(400)));
        let index = |defer: bool| {
            let roots = Roots::new([root.clone()]).expect("roots").with_max_file_bytes(300);
            let (cache, _) = Cache::open(cache_dir.path());
            let index = LiveIndex::new(roots, vec![Arc::new(cache)]);
            if defer {
                index.defer_table();
            }
            index
        };
        let names = |index: &LiveIndex, q: &str| -> Vec<String> {
            let page = index.find_symbols(&Pattern::new(q, false), &|_, _| true, 0, 100);
            page.items.iter().map(|f| f.symbol.qualified_name.clone()).collect()
        };
        let eager = index(false);
        assert_eq!(eager.build().from_snapshot, 0);
        let listed = eager.java_file_stamps();
        assert_eq!(listed.len(), 5, "the file over the cap is not indexed");

        // Put off: the walk's list, the same as the table's; the table is built on first use.
        put("p/F1.java", "package p;\nclass F1 { void renamed() {} }\n");
        let lazy = index(true);
        assert_eq!(lazy.build(), PassStats { files: 6, from_snapshot: 0, parsed: 0 });
        assert!(lazy.progress().complete && lazy.progress().skipped == 1, "{:?}", lazy.progress());
        let mut walked = lazy.java_file_stamps();
        assert!(lazy.put_off.lock().expect("lock").is_some(), "nothing read the table yet");
        let f1 = root.join("p/F1.java");
        let now = |p: &Path| mji_fs::stamp::Stamp::of(&std::fs::metadata(p).expect("stat"));
        for (p, _, stamp) in &walked {
            assert_eq!(*stamp, now(p), "{}", p.display());
        }
        assert_ne!(listed.iter().find(|(p, ..)| **p == *f1).map(|l| l.2), Some(now(&f1)));
        assert_eq!(names(&lazy, "renamed"), ["p.F1#renamed"]);
        assert!(names(&lazy, "fill1").is_empty(), "a changed file's record was used");
        assert!(lazy.put_off.lock().expect("lock").is_none());
        let mut tabled = lazy.java_file_stamps();
        walked.sort_by(|a, b| a.0.cmp(&b.0));
        tabled.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(walked, tabled);

        // An altered snapshot is refused when the table is first used, and rewritten.
        let snapshot = crate::snapshot::path_for(cache_dir.path(), &root);
        let mut bytes = std::fs::read(&snapshot).expect("the pass wrote a snapshot");
        let at = bytes.windows(5).position(|w| w == b"fill3").expect("the name is in the snapshot");
        bytes[at..at + 5].copy_from_slice(b"pwned");
        std::fs::write(&snapshot, &bytes).expect("alter");
        let lazy = index(true);
        lazy.build();
        assert!(names(&lazy, "pwned").is_empty(), "an altered snapshot was used");
        assert_eq!(names(&lazy, "fill3"), ["p.F3#fill3"]);
        assert_ne!(std::fs::read(&snapshot).expect("read"), bytes, "the snapshot was rewritten");
    }

    /// A pass that puts its table off answers the Kotlin files from its walk (the one over
    /// the size cap left out, as the table leaves it out) without building the table, and the
    /// same list as the table once it is built.
    #[test]
    fn kotlin_files_are_the_walks_while_the_table_is_put_off() {
        let ws = tempfile::tempdir().expect("tempdir");
        let cache_dir = tempfile::tempdir().expect("tempdir");
        let root = std::fs::canonicalize(ws.path()).expect("canonical");
        let put = |rel: &str, text: &str| {
            let p = root.join(rel);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(&p, text).expect("write");
        };
        put("p/A.java", "package p;\nclass A {}\n");
        put("p/K.kt", "package p\nclass K\n");
        put("q/L.kt", "package q\nfun l() = 1\n");
        put("q/Big.kt", &format!("package q\nclass Big\n{}", " ".repeat(400)));
        let roots = Roots::new([root.clone()]).expect("roots").with_max_file_bytes(300);
        let (cache, _) = Cache::open(cache_dir.path());
        let index = LiveIndex::new(roots, vec![Arc::new(cache)]);
        index.defer_table();
        index.build();
        let walked = index.kotlin_files();
        assert!(index.put_off.lock().expect("lock").is_some(), "the table was built for the Kotlin files");
        let want: Vec<(Arc<Path>, usize)> =
            ["p/K.kt", "q/L.kt"].iter().map(|r| (Arc::from(root.join(r).as_path()), 0)).collect();
        assert_eq!(walked, want);
        assert_eq!(index.counts().0, 3, "the table is built now");
        assert!(index.put_off.lock().expect("lock").is_none());
        assert_eq!(index.kotlin_files(), walked);
    }

    /// A helper waiting for the walk's files is let go when the walk ends without them.
    #[test]
    fn a_helper_is_let_go_when_no_files_come() {
        let share = StatShare::default();
        std::thread::scope(|s| {
            let h = s.spawn(|| share.help());
            share.close();
            h.join().expect("the helper returns");
        });
    }

    /// Nobody waits out the whole timeout for a pass no one started; an announced pass is
    /// waited for until it is done.
    #[test]
    fn only_a_started_or_announced_pass_is_waited_for() {
        let ws = tempfile::tempdir().expect("tempdir");
        let root = std::fs::canonicalize(ws.path()).expect("canonical");
        std::fs::write(root.join("A.java"), "class A {}\n").expect("write");
        let cache_dir = tempfile::tempdir().expect("tempdir");
        let (cache, _) = Cache::open(cache_dir.path());
        let index = LiveIndex::new(Roots::new([root]).expect("roots"), vec![Arc::new(cache)]);
        let t = Instant::now();
        assert!(!index.wait_complete(Duration::from_secs(30)), "no pass: not complete");
        assert!(t.elapsed() < Duration::from_secs(10), "no pass was started: nothing to wait for");
        // The keeper's loop waits for the listing whoever starts it: its waits are real.
        let t = Instant::now();
        assert!(!index.wait_pass(Duration::from_millis(200)));
        assert!(t.elapsed() >= Duration::from_millis(200), "wait_pass waits however no pass runs");

        index.expect_pass();
        assert!(!index.wait_complete(Duration::from_millis(50)), "announced, not run: waited and not complete");
        let pass = {
            let index = index.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(100));
                index.build();
            })
        };
        assert!(index.wait_complete(Duration::from_secs(60)), "the announced pass is waited for");
        pass.join().expect("pass");
        assert_eq!(index.counts().0, 1);
    }
}
