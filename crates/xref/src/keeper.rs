//! The reference keeper: the [`XrefEngine`] of one workspace, the world it last answered with
//! (reused while a watcher reports no change), the loop that binds every file in a server's
//! background and persists the reference index, and the last failed write. The host owns one
//! and drives it through [`Files`], its view of the workspace's Java files.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use mji_model::foreground::Foreground;

use crate::engine::{FileStamp, Preload, XrefEngine};
use crate::world::World;

/// The workspace's Java files with their display paths, sorted by them.
pub type ShownFiles = Arc<Vec<(Arc<Path>, String)>>;

/// Files a first binding pass binds at least between two writes of the reference index: a
/// pass over a big workspace then never holds every file's references in memory at once (the
/// JDK's are ~130 MB, which the allocator keeps mapped after they move to disk).
pub const BIND_CHUNK: usize = 2_000;

/// The least time between two writes of the reference index by a binding pass (from its start
/// or its last write), beside [`BIND_CHUNK`] files: a server stopped mid-pass leaves a store
/// holding every file bound up to `WRITE_EVERY` (plus the chunk under way) before it stopped,
/// which a restart binds no more. Each write stops the binding threads (on the JDK a cold
/// pass wrote seven times, 1.9–2.6 s of its 16.6–17.9 s, each write copying every body bound
/// so far): a pass shorter than this writes once, at its end (issue 56).
pub const WRITE_EVERY: Duration = Duration::from_secs(30);

/// Files the background pass binds between two looks at the world (a file event, a relink).
/// It looks whether a call waits before every file.
pub const BIND_STEP: usize = 256;

/// Source bytes bound (by the loop or by searches) after which the loop gives freed memory
/// back even when it bound few files: a file just under the parser's node bound (about 1 MB)
/// takes some 300 MB to parse and bind, which glibc kept resident after it was freed.
pub const TRIM_AFTER_BYTES: usize = 512 << 10;

/// What the keeper needs of the workspace: its Java files, when they change, and the library
/// types the engine links with (the host's live index and library index).
pub trait Files: Sync {
    /// Called first by every [`Keeper::world`]: waits for the first listing (up to a call's
    /// wait) and refreshes what the world depends on besides the files (the host forgets its
    /// library types, and [`Keeper::forget_world`], when the stored classpaths moved).
    fn settle(&self);
    /// Waits up to `up_to` for the first listing; whether it is complete.
    fn listed(&self, up_to: Duration) -> bool;
    /// The listing's version (bumped by every file event) and whether a watcher keeps it current.
    fn version(&self) -> (u64, bool);
    /// Gives the engine its library types, once, before its first world.
    fn give_libraries(&self, engine: &XrefEngine);
    /// Every Java file with its stamp now and its display path, and whether the stamps came
    /// from a watcher that has applied every event.
    fn stamped_now(&self) -> (Vec<(FileStamp, String)>, bool);
    /// After a pass, prepares what the workspace's first calls would otherwise make (the host:
    /// the view and configuration files' word filters), calling `pause` between pieces of
    /// work, which waits while a call waits or runs and says whether to go on (not once the
    /// workspace closes).
    fn prepare_calls(&self, _pause: &dyn Fn() -> bool) {}
}

/// The reference engine of one workspace and what keeps it current.
pub struct Keeper {
    engine: XrefEngine,
    /// The world and files of the last cross-reference call and the listing version they were
    /// taken at, reused while a watcher reports no change.
    seen: Mutex<Option<(u64, Arc<World>, ShownFiles)>>,
    /// The last failed write of the reference index.
    write_error: Mutex<Option<String>>,
    /// Set when the workspace closes: the loop and a binding pass stop.
    stop: Arc<AtomicBool>,
    /// The calls waiting or running, which the background pass yields to.
    foreground: Foreground,
    /// The background pass's own threads for the world's link, made on first use (`None`:
    /// they could not be), at the process's priority: a call that needs the world waits for
    /// a link under way, which must not lose its cores.
    pool: OnceLock<Option<rayon::ThreadPool>>,
    /// The threads the pass binds files on, at the least OS priority ([`BACKGROUND_NICE`]):
    /// a call arriving mid-step takes the cores at once, not after the files in hand.
    bind_pool: OnceLock<Option<rayon::ThreadPool>>,
    /// The least time between two writes of a binding pass ([`WRITE_EVERY`]; tests shorten it).
    write_every: Duration,
    /// The index's writes so far (for the tests).
    writes: std::sync::atomic::AtomicUsize,
}

/// The nice value of the threads that bind files in the background (Linux; elsewhere they keep
/// the process's priority). A call that arrives while they bind stops the pass between files
/// ([`Keeper::foreground`]), but the files in hand (one per core, some of them hundreds of
/// milliseconds of work) ran at the call's own priority until then: on the JDK a
/// `java_find_symbol` 10 ms alone took 30 ms at p50 and 150 ms at p95 during the pass. At the
/// least priority they hold no core a call wants; they hold no lock a call waits for longer
/// than one file's insertion into the index.
pub const BACKGROUND_NICE: i32 = 19;

/// What a binding pass bound since it last wrote the index, and when that was.
struct Unwritten {
    files: usize,
    since: Instant,
}

/// Lowers the calling thread to [`BACKGROUND_NICE`] (Linux: `setpriority` of the thread).
#[cfg(target_os = "linux")]
fn lower_this_thread() {
    if let Err(e) = rustix::process::setpriority_process(Some(rustix::thread::gettid()), BACKGROUND_NICE) {
        tracing::debug!("the binding threads keep the process's priority: {e}");
    }
}

#[cfg(not(target_os = "linux"))]
fn lower_this_thread() {}

/// A pool of one thread per core named `{name}-{i}`, each lowered first when `lowered`.
fn new_pool(name: &'static str, lowered: bool) -> Option<rayon::ThreadPool> {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(move |i| format!("{name}-{i}"))
        .start_handler(move |_| {
            if lowered {
                lower_this_thread();
            }
        })
        .build()
        .map_err(|e| tracing::warn!("binding on the calls' pool: cannot start the pass's own ({e})"))
        .ok()
}

impl Keeper {
    /// A keeper of `engine` that stops once `stop` is set.
    pub fn new(engine: XrefEngine, stop: Arc<AtomicBool>) -> Keeper {
        Keeper {
            engine,
            seen: Mutex::default(),
            write_error: Mutex::default(),
            stop,
            foreground: Foreground::default(),
            pool: OnceLock::new(),
            bind_pool: OnceLock::new(),
            write_every: WRITE_EVERY,
            writes: Default::default(),
        }
    }

    /// The reference engine.
    pub fn engine(&self) -> &XrefEngine {
        &self.engine
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The world of the workspace's Java files, re-read where a file changed since last time
    /// (stamps taken now, so answers are fresh even without a watcher), and the files with
    /// their display paths.
    pub fn world(&self, files: &dyn Files) -> (Arc<World>, ShownFiles) {
        files.settle();
        // With a watcher running and no file event since the last call, nothing changed: no
        // stat of every file (tens of milliseconds on the JDK).
        let (version, watching) = files.version();
        if watching
            && let Ok(seen) = self.seen.lock()
            && let Some((v, w, shown)) = &*seen
            && *v == version
        {
            return (w.clone(), shown.clone());
        }
        files.give_libraries(&self.engine);
        let (stamps, watching) = files.stamped_now();
        let (w, _) = self.engine.world(&stamps.iter().map(|(s, _)| s.clone()).collect::<Vec<_>>());
        let mut shown: Vec<(Arc<Path>, String)> = stamps.into_iter().map(|(s, d)| (s.path, d)).collect();
        shown.sort_by(|a, b| a.1.cmp(&b.1));
        let shown = Arc::new(shown);
        let old = self
            .seen
            .lock()
            .ok()
            .map(|mut seen| std::mem::replace(&mut *seen, watching.then(|| (version, w.clone(), shown.clone()))));
        drop(old);
        (w, shown)
    }

    /// Forgets the world last answered with: the next call takes a new one.
    pub fn forget_world(&self) {
        // Freed after the lock is released: after a compaction this is the last reference to
        // the world a whole pass left (hundreds of milliseconds of frees on the four roots),
        // and every call takes this lock first.
        let old = self.seen.lock().ok().and_then(|mut seen| seen.take());
        drop(old);
    }

    /// Binds every file's references, after which `find_references` reads no file; returns
    /// the files bound. Foreground first: the pass binds on every core (its own pool, so a
    /// call's parallel work never queues behind it) while no call waits or runs, and when one
    /// does ([`Keeper::foreground`]) it stops after the files in hand, holding no lock, and
    /// goes on once the foreground is quiet. Once [`BIND_CHUNK`] files are bound and
    /// [`WRITE_EVERY`] has passed since the pass began or last wrote, the index is written (when
    /// no call waits), so the references just bound live on disk from then on; the last write
    /// is the caller's ([`Keeper::keep`] writes after the pass).
    pub fn warm(&self, files: &dyn Files) -> usize {
        let mut total = 0;
        // Files bound since the last write, and when it was (the pass's start at first).
        let mut due = Unwritten { files: 0, since: Instant::now() };
        loop {
            self.yield_to_calls();
            if self.stopped() {
                return total;
            }
            let t = Instant::now();
            let (w, shown) = self.in_pool(|| self.world(files));
            tracing::debug!(ms = t.elapsed().as_millis() as u64, "background pass: world taken");
            let paths: Vec<Arc<Path>> = shown.iter().map(|(p, _)| p.clone()).collect();
            let todo = self.engine.unbound_files(&paths);
            let (bound, through) = self.bind_round(&w, &todo, &due);
            total += bound;
            due.files += bound;
            if self.write_due(&due, 0) {
                self.yield_to_calls();
                self.persist_in_background();
                due = Unwritten { files: 0, since: Instant::now() };
            }
            // A round through every file: what is left unbound does not read (or the index
            // is full).
            if through {
                return total;
            }
        }
    }

    /// Binds `todo` under `w`, [`BIND_STEP`] files at a time, pausing (no lock held) while a
    /// call waits or runs and going on where it stopped: a call costs the pass no new look at
    /// the world. Returns the files bound and whether it went through `todo`: not when a write
    /// is due (`due` and the files bound here: [`Keeper::write_due`]; the index is written and
    /// the world taken again), the world moved on, or the workspace closed.
    fn bind_round(&self, w: &World, todo: &[(Arc<Path>, crate::engine::Stamp)], due: &Unwritten) -> (usize, bool) {
        let (fg, stop) = (&self.foreground, &self.stop);
        let mut bound = 0;
        let mut at = 0;
        while at < todo.len() {
            self.yield_to_calls();
            if self.stopped() || self.engine.generation() != w.shape || self.write_due(due, bound) {
                return (bound, false);
            }
            let step = &todo[at..(at + BIND_STEP).min(todo.len())];
            let t = Instant::now();
            let (n, halted) =
                self.in_bind_pool(|| self.engine.bind_these(w, step, &|| stop.load(Ordering::Relaxed) || fg.busy()));
            tracing::debug!(files = n, halted, ms = t.elapsed().as_millis() as u64, "background pass: step bound");
            bound += n;
            if halted && !self.engine.has_room() {
                return (bound, true);
            }
            // Halted: the step again (its files bound meanwhile are skipped).
            if !halted {
                at += step.len();
            }
        }
        (bound, true)
    }

    /// Whether a binding pass writes the index now: [`BIND_CHUNK`] files bound since its last
    /// write (`due`'s and `more`) and [`WRITE_EVERY`] passed since then.
    fn write_due(&self, due: &Unwritten, more: usize) -> bool {
        due.files + more >= BIND_CHUNK && due.since.elapsed() >= self.write_every
    }

    /// Waits, holding no lock, while a call waits or runs (or until the workspace closes).
    fn yield_to_calls(&self) {
        let stop = &self.stop;
        self.foreground.wait_quiet(&|| stop.load(Ordering::Relaxed));
    }

    /// Runs `f` on the pass's own pool (all cores, the process's priority), or here when it
    /// could not be made.
    fn in_pool<T: Send>(&self, f: impl FnOnce() -> T + Send) -> T {
        match self.pool.get_or_init(|| new_pool("xref-link", false)) {
            Some(p) => p.install(f),
            None => f(),
        }
    }

    /// Runs `f` on the pass's binding threads (all cores, the least priority), or here when
    /// they could not be made.
    fn in_bind_pool<T: Send>(&self, f: impl FnOnce() -> T + Send) -> T {
        match self.bind_pool.get_or_init(|| new_pool("xref-bind", true)) {
            Some(p) => p.install(f),
            None => f(),
        }
    }

    /// The calls the background pass yields to: the shell raises it around each call.
    pub fn foreground(&self) -> &Foreground {
        &self.foreground
    }

    /// [`Keeper::warm`] on every core, for a command that binds and exits (`index DIR`, so
    /// that the next commands find every file bound); written at the end, and between chunks of
    /// [`BIND_CHUNK`] files once [`WRITE_EVERY`] has passed since the last write, as the
    /// server's pass is (each write encodes every file bound so far: written after every chunk,
    /// the JDK's were eight writes of 0.4–0.7 s each, the binding waiting). A command stopped
    /// midway loses at most the last `WRITE_EVERY` of binding. Returns the files bound.
    pub fn warm_now(&self, files: &dyn Files) -> usize {
        let mut total = 0;
        let mut since = Instant::now();
        loop {
            let (w, shown) = self.world(files);
            let paths: Vec<Arc<Path>> = shown.iter().map(|(p, _)| p.clone()).collect();
            let stop = self.stop.clone();
            let bound = self.engine.bind_all_parallel(&w, &paths, BIND_CHUNK, &move || stop.load(Ordering::Relaxed));
            total += bound;
            // Unreadable files are never bound: done when a round binds nothing more.
            let done = bound == 0 || self.stopped();
            if done || since.elapsed() >= self.write_every {
                self.persist();
                since = Instant::now();
            }
            if done {
                return total;
            }
        }
    }

    /// Reads the persisted world and reference index (with the library types first, which the
    /// store must match), without waiting for the first listing: the loop does it at start, so
    /// that a restart's first cross-reference answer finds the world linked.
    /// What is read with the world: see [`Preload`].
    pub fn preload(&self, files: &dyn Files, what: Preload) {
        files.give_libraries(&self.engine);
        self.engine.preload(what);
    }

    /// The server's loop: binds every file, persists the index, then every `every` re-binds
    /// what edits dropped and persists again (at most once a minute), until the workspace
    /// closes. After a pass over many files it compacts what it keeps ([`Keeper::compact`])
    /// and calls `after_pass`, where the server gives the memory the pass freed back to the
    /// system; after binding many bytes (a few large files, by the loop or by searches:
    /// [`TRIM_AFTER_BYTES`]) it calls `after_pass` alone. Runs on the calling thread.
    pub fn keep(&self, files: &dyn Files, every: Duration, after_pass: &dyn Fn()) {
        self.preload(files, Preload::ThenReferences);
        // However long the first listing takes (calls wait at most their wait for it; this
        // thread waits for all of it).
        while !self.stopped() && !files.listed(Duration::from_millis(200)) {}
        let mut last_save: Option<Instant> = None;
        while !self.stopped() {
            let t = Instant::now();
            let bound = self.warm(files);
            if bound > 0 {
                let (_, refs) = self.engine.bound();
                tracing::info!(files = bound, refs, ms = t.elapsed().as_millis() as u64, "references bound");
            }
            if last_save.is_none_or(|s| s.elapsed() >= Duration::from_secs(60)) {
                self.yield_to_calls();
                self.persist_in_background();
                last_save = Some(Instant::now());
            }
            let heavy = self.engine.take_bytes_bound() >= TRIM_AFTER_BYTES;
            if bound >= BIND_CHUNK {
                self.yield_to_calls();
                self.compact();
                // The allocator's trim locks each of its arenas in turn: not while a call runs.
                self.yield_to_calls();
                after_pass();
                self.yield_to_calls();
                self.prepare_calls(files);
            } else if heavy {
                after_pass();
            }
            let until = Instant::now() + every;
            while !self.stopped() && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(100));
            }
        }
    }

    /// What the next call would do first, done here: the world taken again (the compaction
    /// forgot it; on the four roots the listing's stamps, display paths and lookups are ~100 ms),
    /// every file's stamp and index slot looked up for the whole workspace's scope (kept for
    /// the calls: [`crate::scope`]), and the workspace's own ([`Files::prepare_calls`]).
    /// Issue 56: the first call after a pass was the slowest.
    fn prepare_calls(&self, files: &dyn Files) {
        let t = Instant::now();
        let (_, shown) = self.in_pool(|| self.world(files));
        let paths: Vec<Arc<Path>> = shown.iter().map(|(p, _)| p.clone()).collect();
        let _ = self.engine.unbound_files(&paths);
        tracing::debug!(ms = t.elapsed().as_millis() as u64, "the calls' world taken after the pass");
        files.prepare_calls(&|| {
            self.yield_to_calls();
            !self.stopped()
        });
    }

    /// Writes the world and the reference index if they changed since the last write; a
    /// failure is logged once (the index is an accelerator) and returned. A call's own write
    /// (`export_scip`, a flush): it never waits for the foreground, which counts that call.
    pub fn persist(&self) -> Option<String> {
        self.persist_with(&|| {})
    }

    /// [`Keeper::persist`] for the background pass: foreground first, between files of the
    /// write (which holds no lock then) it waits while a call waits or runs
    /// ([`XrefEngine::save_pausing`]), as the pass does between files.
    fn persist_in_background(&self) -> Option<String> {
        self.persist_with(&|| self.yield_to_calls())
    }

    fn persist_with(&self, pause: &dyn Fn()) -> Option<String> {
        let t = Instant::now();
        match self.engine.save_pausing(pause)? {
            Ok(files) => {
                self.writes.fetch_add(1, Ordering::Relaxed);
                tracing::debug!(files, ms = t.elapsed().as_millis() as u64, "wrote the reference index");
                None
            }
            Err(e) => {
                let msg = format!("writing the reference index: {e}");
                // Said once: the server keeps answering from memory and tries again later.
                if let Ok(mut last) = self.write_error.lock()
                    && last.replace(msg.clone()).is_none()
                {
                    tracing::warn!("{msg}");
                }
                Some(msg)
            }
        }
    }

    /// The last failed write of the reference index, if any.
    pub fn write_error(&self) -> Option<String> {
        self.write_error.lock().ok().and_then(|e| e.clone())
    }

    /// Frees what a pass over many files left behind: the world and reference index are read
    /// back from the store just written, laid out as a restart has them
    /// ([`XrefEngine::reload`]), or else the memos the pass derived for every type are shed
    /// ([`XrefEngine::shed_memos`]); the world the last answer used is forgotten too. Returns
    /// whether it read the store back.
    pub fn compact(&self) -> bool {
        let t = Instant::now();
        let reloaded = self.engine.reload();
        if !reloaded {
            self.engine.shed_memos();
        } else {
            // The key table and postings of the store read back restored here rather than by
            // the next call (tens of milliseconds on the four roots, under the index's lock).
            let _ = self.engine.refs();
        }
        self.forget_world();
        tracing::debug!(reloaded, ms = t.elapsed().as_millis() as u64, "compacted the reference index");
        reloaded
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;

    /// A workspace of files on disk, with a listing version the test bumps as a watcher would.
    struct Dir {
        files: Vec<Arc<Path>>,
        version: AtomicU64,
        watching: bool,
        stamped: AtomicU64,
    }

    impl Files for Dir {
        fn settle(&self) {}
        fn listed(&self, _: Duration) -> bool {
            true
        }
        fn version(&self) -> (u64, bool) {
            (self.version.load(Ordering::Relaxed), self.watching)
        }
        fn give_libraries(&self, _: &XrefEngine) {}
        fn stamped_now(&self) -> (Vec<(FileStamp, String)>, bool) {
            self.stamped.fetch_add(1, Ordering::Relaxed);
            let stamps = self
                .files
                .iter()
                .filter_map(|p| {
                    let st = crate::engine::Stamp::of(&std::fs::metadata(p).ok()?);
                    let shown = p.file_name()?.to_string_lossy().into_owned();
                    Some((FileStamp { path: p.clone(), stamp: st }, shown))
                })
                .collect();
            (stamps, self.watching)
        }
    }

    fn dir(watching: bool) -> (tempfile::TempDir, Dir) {
        let tmp = tempfile::tempdir().expect("tempdir");
        let mut files = Vec::new();
        for (name, text) in [("B.java", "class B { A a; }"), ("A.java", "class A { void f() {} }")] {
            let p = tmp.path().join(name);
            std::fs::write(&p, text).expect("write");
            files.push(Arc::from(p.as_path()));
        }
        let d = Dir { files, version: AtomicU64::new(1), watching, stamped: AtomicU64::new(0) };
        (tmp, d)
    }

    /// A watched listing that did not change answers with the world last taken, without
    /// stamping the files again; a new version (a file event) takes a new one.
    #[test]
    fn a_watched_unchanged_listing_reuses_the_world() {
        let (_tmp, files) = dir(true);
        let keeper = Keeper::new(XrefEngine::new(), Arc::default());
        let (w1, shown) = keeper.world(&files);
        assert_eq!(shown.iter().map(|(_, s)| s.as_str()).collect::<Vec<_>>(), ["A.java", "B.java"]);
        let (w2, _) = keeper.world(&files);
        assert!(Arc::ptr_eq(&w1, &w2));
        assert_eq!(files.stamped.load(Ordering::Relaxed), 1);
        files.version.fetch_add(1, Ordering::Relaxed);
        keeper.world(&files);
        assert_eq!(files.stamped.load(Ordering::Relaxed), 2);
        keeper.forget_world();
        keeper.world(&files);
        assert_eq!(files.stamped.load(Ordering::Relaxed), 3);
    }

    /// Without a watcher every call stamps the files; a warm pass binds every file once.
    #[test]
    fn unwatched_calls_stamp_and_warm_binds_every_file() {
        let (_tmp, files) = dir(false);
        let keeper = Keeper::new(XrefEngine::new(), Arc::default());
        keeper.world(&files);
        keeper.world(&files);
        assert_eq!(files.stamped.load(Ordering::Relaxed), 2);
        assert_eq!(keeper.warm(&files), 2);
        assert_eq!(keeper.engine().bound().0, 2);
        assert_eq!(keeper.warm(&files), 0, "nothing changed: nothing to bind");
        assert_eq!(keeper.persist(), None, "no store: nothing written, no error");
    }

    /// Binding on every core binds every file once, as the one-thread pass does.
    #[test]
    fn warm_now_binds_every_file_once() {
        let (_tmp, files) = dir(false);
        let keeper = Keeper::new(XrefEngine::new(), Arc::default());
        assert_eq!(keeper.warm_now(&files), 2);
        assert_eq!(keeper.engine().bound().0, 2);
        assert_eq!(keeper.warm_now(&files), 0, "nothing changed: nothing to bind");
        assert_eq!(keeper.warm(&files), 0, "the background pass finds them bound too");
    }

    /// Foreground first: while a call is flagged waiting or running, the background pass
    /// binds nothing (it stops between files, holding no lock: the call's own search binds
    /// what it needs meanwhile), and once the call ends the pass binds every file. Before
    /// the signal, the pass bound on regardless of the call.
    #[test]
    fn the_background_pass_yields_while_a_call_is_flagged() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let mut paths = Vec::new();
        for i in 0..40 {
            let p = tmp.path().join(format!("C{i}.java"));
            std::fs::write(&p, format!("class C{i} {{ C{} next; int f() {{ return {i}; }} }}", (i + 1) % 40))
                .expect("write");
            paths.push(Arc::from(p.as_path()));
        }
        let files = Dir { files: paths, version: AtomicU64::new(1), watching: true, stamped: AtomicU64::new(0) };
        let keeper = Keeper::new(XrefEngine::new(), Arc::default());
        let call = keeper.foreground().enter();
        let (w, shown) = keeper.world(&files);
        let (bound, during) = std::thread::scope(|s| {
            let pass = s.spawn(|| keeper.warm(&files));
            // Long enough for the pass to bind every file many times over were it not waiting.
            std::thread::sleep(Duration::from_millis(300));
            let during = keeper.engine().bound().0;
            // The call binds the one file it needs while the pass waits.
            let one = shown[0].0.clone();
            assert!(!keeper.engine().refs_of(&w, &one).expect("bound").is_empty());
            let after_call = keeper.engine().bound().0;
            assert_eq!(after_call, during + 1, "the call bound its file");
            drop(call);
            (pass.join().expect("the pass"), during)
        });
        assert_eq!(during, 0, "the pass bound files while a call was flagged");
        assert_eq!(bound, 39, "every other file bound once the call ended");
        assert_eq!(keeper.engine().bound().0, 40);
    }

    /// The pass binds files on threads of the least priority (Linux), and links the world on
    /// threads of the process's: a call outranks the files in hand, and never waits for a
    /// link that lost its cores.
    #[cfg(target_os = "linux")]
    #[test]
    fn the_pass_binds_at_the_least_priority_and_links_at_the_process_s() {
        let keeper = Keeper::new(XrefEngine::new(), Arc::default());
        let own = rustix::process::getpriority_process(None).expect("priority");
        let nice_of = |tid: rustix::process::Pid| rustix::process::getpriority_process(Some(tid)).expect("priority");
        let binding = keeper.in_bind_pool(|| nice_of(rustix::thread::gettid()));
        let linking = keeper.in_pool(|| nice_of(rustix::thread::gettid()));
        assert_eq!(binding, BACKGROUND_NICE.max(own), "the binding threads are lowered");
        assert_eq!(linking, own, "the linking threads keep the process's priority");
    }

    /// A binding pass writes the index between chunks only once [`WRITE_EVERY`] has passed:
    /// a pass shorter than that leaves its one write to the caller (before, every
    /// [`BIND_CHUNK`] files were written, the binding waiting); one that lasts writes, so a
    /// restart finds the files bound up to then.
    #[test]
    fn a_pass_writes_between_chunks_only_once_write_every_has_passed() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let long_ago = std::time::SystemTime::now() - Duration::from_secs(3600);
        let mut paths = Vec::new();
        for i in 0..BIND_CHUNK + 10 {
            let p = tmp.path().join(format!("E{i:04}.java"));
            std::fs::write(&p, format!("class E{i} {{ int f() {{ return {i}; }} }}")).expect("write");
            // Outside the racy window: a save keeps the file's references.
            std::fs::File::options().write(true).open(&p).and_then(|f| f.set_modified(long_ago)).expect("mtime");
            paths.push(Arc::from(p.as_path()));
        }
        let files =
            Dir { files: paths.clone(), version: AtomicU64::new(1), watching: true, stamped: AtomicU64::new(0) };
        let short = tmp.path().join("short.bin");
        let keeper = Keeper::new(XrefEngine::with_store(short.clone()), Arc::default());
        assert_eq!(keeper.warm(&files), BIND_CHUNK + 10);
        assert!(!short.exists(), "a pass shorter than WRITE_EVERY wrote the index while binding");
        let long = tmp.path().join("long.bin");
        let mut keeper = Keeper::new(XrefEngine::with_store(long.clone()), Arc::default());
        keeper.write_every = Duration::ZERO;
        assert_eq!(keeper.warm(&files), BIND_CHUNK + 10);
        assert_eq!(keeper.write_error(), None);
        let restart = Keeper::new(XrefEngine::with_store(long), Arc::default());
        restart.world(&files);
        let left = restart.engine().unbound_files(&paths).len();
        assert_eq!(left, 0, "{left} files unbound after a restart: the pass's write was lost");
    }

    /// `index DIR` (`warm_now`) writes the index once at its end unless [`WRITE_EVERY`] has
    /// passed between chunks (before, after every [`BIND_CHUNK`] files: twice here); with
    /// writes due at once it writes between chunks, and a restart finds every file bound.
    #[test]
    fn warm_now_writes_between_chunks_only_once_write_every_has_passed() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let long_ago = std::time::SystemTime::now() - Duration::from_secs(3600);
        let mut paths = Vec::new();
        for i in 0..BIND_CHUNK + 10 {
            let p = tmp.path().join(format!("W{i:04}.java"));
            std::fs::write(&p, format!("class W{i} {{ int f() {{ return {i}; }} }}")).expect("write");
            // Outside the racy window: a save keeps the file's references.
            std::fs::File::options().write(true).open(&p).and_then(|f| f.set_modified(long_ago)).expect("mtime");
            paths.push(Arc::from(p.as_path()));
        }
        let files =
            Dir { files: paths.clone(), version: AtomicU64::new(1), watching: true, stamped: AtomicU64::new(0) };
        let once = Keeper::new(XrefEngine::with_store(tmp.path().join("once.bin")), Arc::default());
        assert_eq!(once.warm_now(&files), BIND_CHUNK + 10);
        assert_eq!(once.writes.load(Ordering::Relaxed), 1, "written between chunks before WRITE_EVERY passed");
        let every = tmp.path().join("every.bin");
        let mut keeper = Keeper::new(XrefEngine::with_store(every.clone()), Arc::default());
        keeper.write_every = Duration::ZERO;
        assert_eq!(keeper.warm_now(&files), BIND_CHUNK + 10);
        assert!(keeper.writes.load(Ordering::Relaxed) >= 2, "no write between chunks once they were due");
        let restart = Keeper::new(XrefEngine::with_store(every), Arc::default());
        restart.world(&files);
        assert_eq!(restart.engine().unbound_files(&paths).len(), 0, "files unbound after a restart");
    }

    /// Foreground first in the write after a pass: while a call is flagged the write waits
    /// between files (holding no lock: the call answers meanwhile), and finishes once the call
    /// ends; it looks at the foreground every few files (before, the write after a four-roots
    /// pass ran its 1.5 s through the calls that arrived, issue 56). A call's own write does
    /// not wait for itself.
    #[test]
    fn the_write_waits_between_files_while_a_call_is_flagged() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let long_ago = std::time::SystemTime::now() - Duration::from_secs(3600);
        let mut paths = Vec::new();
        for i in 0..300 {
            let p = tmp.path().join(format!("W{i:03}.java"));
            std::fs::write(&p, format!("class W{i} {{ W{} next; int f() {{ return {i}; }} }}", (i + 1) % 300))
                .expect("write");
            std::fs::File::options().write(true).open(&p).and_then(|f| f.set_modified(long_ago)).expect("mtime");
            paths.push(Arc::from(p.as_path()));
        }
        let files = Dir { files: paths, version: AtomicU64::new(1), watching: true, stamped: AtomicU64::new(0) };
        let store = tmp.path().join("xref.bin");
        let keeper = Keeper::new(XrefEngine::with_store(store.clone()), Arc::default());
        assert_eq!(keeper.warm(&files), 300);
        let (w, shown) = keeper.world(&files);
        let call = keeper.foreground().enter();
        std::thread::scope(|s| {
            let write = s.spawn(|| keeper.persist_in_background());
            std::thread::sleep(Duration::from_millis(300));
            assert!(!store.exists(), "the store was written while a call was flagged");
            // The call answers meanwhile: the write holds no lock while it waits.
            assert!(!keeper.engine().refs_of(&w, &shown[0].0).expect("bound").is_empty());
            drop(call);
            assert_eq!(write.join().expect("the write"), None);
        });
        assert!(store.exists(), "the write finished once the call ended");
        // A call's own write (`export_scip` persists from inside its call) never waits for
        // the foreground, which counts that call.
        let call = keeper.foreground().enter();
        keeper.engine().dirty.store(true, Ordering::Relaxed);
        let waited = std::thread::scope(|s| {
            let write = s.spawn(|| keeper.persist());
            let t = Instant::now();
            while !write.is_finished() && t.elapsed() < Duration::from_secs(10) {
                std::thread::sleep(Duration::from_millis(10));
            }
            // Waiting for itself: the workspace closed so the test ends.
            let waited = !write.is_finished();
            keeper.stop.store(true, Ordering::Relaxed);
            assert_eq!(write.join().expect("the write"), None);
            keeper.stop.store(false, Ordering::Relaxed);
            waited
        });
        assert!(!waited, "a call's own write waited for the foreground, which counts that call");
        drop(call);
        // Between files: a pause every few files of the write, and between its parts.
        let pauses = AtomicU64::new(0);
        keeper.engine().dirty.store(true, Ordering::Relaxed);
        let wrote = keeper.engine().save_pausing(&|| {
            pauses.fetch_add(1, Ordering::Relaxed);
        });
        assert!(matches!(wrote, Some(Ok(300))));
        assert!(pauses.load(Ordering::Relaxed) >= 300 / 64, "{pauses:?} pauses in a write of 300 files");
    }

    /// A pass under way stops between files as soon as a call is flagged: it binds at most
    /// the files its threads have in hand, then nothing until the call ends.
    #[test]
    fn a_pass_under_way_stops_between_files_when_a_call_arrives() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let mut paths = Vec::new();
        for i in 0..400 {
            let p = tmp.path().join(format!("D{i:03}.java"));
            std::fs::write(&p, format!("class D{i} {{ int f() {{ return {i}; }} }}")).expect("write");
            paths.push(Arc::from(p.as_path()));
        }
        let files = Dir { files: paths, version: AtomicU64::new(1), watching: true, stamped: AtomicU64::new(0) };
        let keeper = Keeper::new(XrefEngine::new(), Arc::default());
        keeper.world(&files);
        std::thread::scope(|s| {
            let pass = s.spawn(|| keeper.warm(&files));
            while keeper.engine().bound().0 == 0 {
                std::thread::yield_now();
            }
            let call = keeper.foreground().enter();
            let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
            let at_call = keeper.engine().bound().0;
            std::thread::sleep(Duration::from_millis(300));
            let later = keeper.engine().bound().0;
            if at_call < 400 {
                assert!(later <= at_call + threads, "bound {at_call} when the call came, {later} after it");
            }
            drop(call);
            pass.join().expect("the pass");
        });
        assert_eq!(keeper.engine().bound().0, 400);
    }
}
