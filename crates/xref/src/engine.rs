//! Keeps the [`World`] in step with the workspace's files and answers reference queries.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::{Arc, LockResult, Mutex, MutexGuard, RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::time::{Duration, Instant};

use mji_model::cancel::Cancel;
use mji_model::progress::{self, Progress};
use rayon::prelude::*;

use crate::bind::{DepthCut, bind_file};
use crate::decls::{FileDecls, file_decls_with};
use crate::index::lazy::Decls;
use crate::index::refindex::{RefIndex, word_hash, words_of};
use crate::scope::{Epoch, Known, ScopeMemo};
use crate::world::World;
use crate::world::jdk_api::JdkApi;
use crate::{Ref, RefKind};

pub use mji_fs::stamp::Stamp;

/// A Java file of the workspace and its stamp when last seen.
#[derive(Debug, Clone)]
pub struct FileStamp {
    pub path: Arc<Path>,
    pub stamp: Stamp,
}

pub(crate) struct StampedDecls {
    pub stamp: Stamp,
    pub decls: Decls,
}

/// Every file's declarations and the stamp they were read at, by path (foldhash: a restart
/// inserts them all), with an [`Epoch`] that every change renews: a search's scope keeps the
/// stamps it looked up under it ([`crate::scope`]).
#[derive(Default)]
pub(crate) struct Entries {
    map: foldhash::HashMap<Arc<Path>, StampedDecls>,
    epoch: Epoch,
    /// Every entry in the order a load read the store, until an entry changes.
    in_order: Option<Order>,
}

/// The entries as a load read them from the store, in its order (the walk's, as written),
/// and the paths a caller's files came as.
///
/// A restart's first calls bring every file, in that same order: compared with it one by
/// one, no path is hashed and looked up (on the JDK 15,132 of them, three times in a fresh
/// `refs`: a sixth of its time). The calls' scopes are the caller's own `Arc`s (its listing,
/// sorted otherwise), so once the caller's files matched, a scope's file is found by its
/// address: a hash of a word in a table of 15,132, no path read.
struct Order {
    /// The load's own: a reference index restored from the same read has it too
    /// ([`RefIndex::read_from`]), and gave the i-th path here slot i.
    from: Epoch,
    files: Vec<(Arc<Path>, Stamp)>,
    /// The caller's paths, each the same bytes as the one at its place in `files`, and their
    /// addresses' places. Holding them, no address here can be freed and given to another path.
    named: Option<Named>,
}

/// The caller's paths, and each one's place by its address.
type Named = (Vec<Arc<Path>>, foldhash::HashMap<usize, u32>);

/// An `Arc`'s address, as a key.
fn address(p: &Arc<Path>) -> usize {
    Arc::as_ptr(p) as *const u8 as usize
}

/// Whether two paths are the same bytes (then the same `Path`; the converse does not hold:
/// `a//b` is `a/b`, so `false` says nothing).
fn same_bytes(a: &Path, b: &Path) -> bool {
    std::ptr::eq(a, b) || a.as_os_str().as_encoded_bytes() == b.as_os_str().as_encoded_bytes()
}

impl Entries {
    pub fn with_capacity(n: usize) -> Entries {
        Entries { map: foldhash::HashMapExt::with_capacity(n), epoch: Epoch::new(), in_order: None }
    }

    pub fn epoch(&self) -> Epoch {
        self.epoch
    }

    pub fn get(&self, p: &Path) -> Option<&StampedDecls> {
        self.map.get(p)
    }

    /// Keeps the order a load read the entries in (`from`: the load's own epoch): `files`
    /// lists every entry once.
    pub fn set_order(&mut self, from: Epoch, files: Vec<(Arc<Path>, Stamp)>) {
        self.in_order = (files.len() == self.map.len()).then_some(Order { from, files, named: None });
    }

    /// Whether `files` are every entry in the order a load read them, each at its stamp:
    /// then nothing changed (they are distinct, none is missing). Their paths are kept as the
    /// caller's names for the entries ([`Entries::known`]).
    pub fn same_as_read(&mut self, files: &[FileStamp]) -> bool {
        let Some(order) = self.in_order.as_mut().filter(|o| o.files.len() == files.len()) else { return false };
        let same = order.files.iter().zip(files).all(|((p, s), f)| *s == f.stamp && same_bytes(p, &f.path));
        let named_so = |n: &Named| n.0.iter().zip(files).all(|(a, f)| Arc::ptr_eq(a, &f.path));
        if same && !order.named.as_ref().is_some_and(named_so) {
            let at = files.iter().enumerate().map(|(i, f)| (address(&f.path), i as u32)).collect();
            order.named = Some((files.iter().map(|f| f.path.clone()).collect(), at));
        }
        same
    }

    /// A file's stamp, and its place in the order a load read the entries when the file is
    /// one of the caller's names for them ([`Entries::same_as_read`]); else looked up by path.
    pub fn known(&self, p: &Arc<Path>) -> Known {
        if let Some(order) = &self.in_order
            && let Some((_, at)) = &order.named
            && let Some(&i) = at.get(&address(p))
        {
            return Known { stamp: Some(order.files[i as usize].1), place: Some((order.from, i)) };
        }
        Known { stamp: self.map.get(&**p).map(|e| e.stamp), place: None }
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&Arc<Path>, &StampedDecls)> {
        self.map.iter()
    }

    pub fn keys(&self) -> impl Iterator<Item = &Arc<Path>> {
        self.map.keys()
    }

    pub fn insert(&mut self, p: Arc<Path>, e: StampedDecls) -> Option<StampedDecls> {
        self.epoch = Epoch::new();
        self.in_order = None;
        self.map.insert(p, e)
    }

    pub fn remove(&mut self, p: &Path) -> Option<StampedDecls> {
        self.epoch = Epoch::new();
        self.in_order = None;
        self.map.remove(p)
    }
}

#[derive(Default)]
pub(crate) struct WorldState {
    /// Every file's declarations (every call looks up every file's path: see [`Entries`]).
    pub entries: Entries,
    pub world: Option<Arc<World>>,
    /// Bumped whenever the world is relinked; kept in [`World::shape`]. A binding made under
    /// generation `g` is kept only if nothing invalidated its file after `g`.
    pub generation: u64,
    /// Whether the persisted index was read (once, on the first call).
    pub(crate) loaded: bool,
}

/// The world of one workspace, kept in step with its files, and the reference index: every
/// file's references bound under it, kept while the file and the declarations it mentions
/// are unchanged (see [`crate::invalidate`]), and persisted beside the cache when a store is
/// set.
#[derive(Default)]
pub struct XrefEngine {
    pub(crate) state: Mutex<WorldState>,
    /// Use it through [`XrefEngine::refs`], which restores it first from a store just read.
    pub(crate) refs: RwLock<RefIndex>,
    /// The keys part of the store the last load read, until the index is first used.
    pub(crate) pending: Mutex<Option<crate::index::store::PendingRefs>>,
    pub(crate) store: Option<PathBuf>,
    /// Something changed since the store was written.
    pub(crate) dirty: AtomicBool,
    /// The JDK API with the classpath's library types (`set_libraries`); `None`: the JDK's.
    pub(crate) libraries: RwLock<Option<Arc<JdkApi>>>,
    /// The most bytes the references read back from the store may keep in memory (0: no
    /// bound); see [`XrefEngine::set_memory_budget`].
    pub(crate) budget: AtomicUsize,
    /// Bytes of source bound since [`XrefEngine::take_bytes_bound`] last asked: binding a large
    /// file frees hundreds of megabytes that the allocator keeps unless given back.
    pub(crate) bytes_bound: AtomicUsize,
    /// Each file's `lombok.config` (`set_lombok`); `None`: Lombok's defaults everywhere.
    pub(crate) lombok: RwLock<Option<Arc<mji_parser::lombok::config::Resolver>>>,
    /// The stamps and index slots the last searches looked up for their scopes' files.
    scopes: ScopeMemo,
}

/// A reference search's answer: the files with references, and the files that mention a
/// searched name but could not be bound fully (their references may be missing).
#[derive(Debug, Default)]
pub struct Found {
    pub files: Vec<(Arc<Path>, Vec<Ref>)>,
    pub unbound: Vec<(Arc<Path>, DepthCut)>,
}

/// What [`XrefEngine::preload`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preload {
    /// The world; the reference index's key table and postings are left to its first use (a
    /// command answering `show_definition` never reads them).
    World,
    /// The world, then the reference index, the state's lock released: a server, whose first
    /// index pass has the other cores meanwhile (read beside the world, the first answer
    /// after a restart of the JDK came 20-30 ms later).
    ThenReferences,
    /// The world and, on a thread of its own beside it, the reference index: a command line,
    /// whose call waits for both once its walk is done (on the JDK, ~20 ms sooner).
    WithReferences,
}

/// What an edit of the world cost the reference index, for status and tests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Invalidation {
    /// Files whose own text or stamp changed (added, removed, edited).
    pub changed: usize,
    /// Other files dropped because they mention a name the edit touched.
    pub mentioning: usize,
}

/// A wait for one of the engine's locks at least this long is said at debug level.
const SLOW_WAIT: Duration = Duration::from_millis(20);

/// Says at debug level, naming the lock and the thread, when a lock taken at `since` was
/// waited for [`SLOW_WAIT`] or longer: what a call waits on while the background pass holds it.
pub(crate) fn note_wait(lock: &'static str, since: Instant) {
    let waited = since.elapsed();
    if waited >= SLOW_WAIT {
        let thread = std::thread::current();
        tracing::debug!(
            lock,
            ms = waited.as_millis() as u64,
            thread = thread.name().unwrap_or("?"),
            "waited for the reference engine's lock"
        );
    }
}

impl XrefEngine {
    /// The world's state, locked (a long wait said: [`note_wait`]).
    pub(crate) fn lock_state(&self) -> LockResult<MutexGuard<'_, WorldState>> {
        let t = Instant::now();
        let g = self.state.lock();
        note_wait("state", t);
        g
    }

    /// The reference index, read-locked ([`XrefEngine::refs`]; a long wait said).
    pub(crate) fn refs_read(&self) -> LockResult<RwLockReadGuard<'_, RefIndex>> {
        let ix = self.refs();
        let t = Instant::now();
        let g = ix.read();
        note_wait("refs read", t);
        g
    }

    /// The reference index, write-locked ([`XrefEngine::refs`]; a long wait said).
    pub(crate) fn refs_write(&self) -> LockResult<RwLockWriteGuard<'_, RefIndex>> {
        let ix = self.refs();
        let t = Instant::now();
        let g = ix.write();
        note_wait("refs write", t);
        g
    }
}

impl XrefEngine {
    pub fn new() -> XrefEngine {
        XrefEngine::default()
    }

    /// An engine whose world and reference index are persisted in `path` (read on the first
    /// call, written by [`XrefEngine::save`]).
    pub fn with_store(path: PathBuf) -> XrefEngine {
        XrefEngine { store: Some(path), ..XrefEngine::default() }
    }

    /// Reads each file's declarations under the `lombok.config` `resolver` finds for it. The
    /// caller folds [`mji_parser::lombok::config::Resolver::salt`] into the files' stamps, so a
    /// file whose configuration changed is read (and bound) again like an edited one.
    pub fn set_lombok(&self, resolver: Arc<mji_parser::lombok::config::Resolver>) {
        if let Ok(mut l) = self.lombok.write() {
            *l = Some(resolver);
        }
    }

    /// The `lombok.config` in effect for the file at `path`.
    pub fn lombok_config(&self, path: &Path) -> Arc<mji_parser::lombok::Config> {
        match self.lombok.read().ok().and_then(|l| l.clone()) {
            Some(r) => r.for_file(path),
            None => mji_parser::lombok::config::default_config(),
        }
    }

    /// Types the world with the library types of `api` (`JdkApi::with_libraries`: the
    /// classpath's class files) besides the JDK's; `None` goes back to the JDK's alone. A
    /// change relinks the world and drops every kept reference (a library type can change
    /// any binding); the same libraries again change nothing.
    pub fn set_libraries(&self, api: Option<Arc<JdkApi>>) {
        let hash = |a: &Option<Arc<JdkApi>>| a.as_ref().map_or(0, |a| a.libraries_hash);
        let Ok(mut libs) = self.libraries.write() else { return };
        if hash(&libs) == hash(&api) {
            return;
        }
        *libs = api;
        drop(libs);
        if let Ok(mut st) = self.lock_state() {
            // No world: the next call relinks and clears the reference index.
            st.world = None;
        }
    }

    /// A hash of the library types the engine's worlds hold (0: none).
    pub fn libraries_hash(&self) -> u64 {
        self.libraries.read().ok().and_then(|l| l.as_ref().map(|a| a.libraries_hash)).unwrap_or(0)
    }

    /// The JDK API the engine's worlds link with: with the classpath's libraries when set.
    pub(crate) fn api(&self) -> Arc<JdkApi> {
        self.libraries.read().ok().and_then(|l| l.clone()).unwrap_or_else(|| JdkApi::shared().clone())
    }

    pub(crate) fn new_world(&self, list: Vec<(Arc<Path>, Decls)>) -> World {
        World::build(list, Some(self.api()))
    }

    /// Reads the persisted world and index now (once), rather than on the first call: a
    /// server does it while its first index pass runs, so the first answer after a restart
    /// finds the world linked. Call it after [`XrefEngine::set_libraries`] (a store written
    /// with other library types is not read, and the first call would then link anew).
    pub fn preload(&self, what: Preload) {
        if let Ok(mut st) = self.lock_state()
            && !st.loaded
        {
            st.loaded = true;
            self.load(&mut st, what == Preload::WithReferences);
        }
        if what != Preload::World {
            let _ = self.refs();
        }
    }

    /// Replaces the world by [`World::without_memos`], so what a whole binding pass derived
    /// is freed (on the JDK about a fifth of the server's memory); the next queries derive
    /// again what they need. References kept stay valid: the world's shape is the same.
    pub fn shed_memos(&self) {
        if let Ok(mut st) = self.lock_state()
            && let Some(w) = &st.world
        {
            st.world = Some(Arc::new(w.without_memos()));
        }
    }

    /// Reads the store just written in place of the world and reference index in memory:
    /// the same declarations and references, laid out as a restart has them, where a pass
    /// that bound every file left them scattered between what it freed (each file's
    /// temporaries, the references it moved to disk, the memos it derived), which keeps that
    /// freed memory resident. Returns whether it did: not when anything changed since the
    /// save, or the store does not read back (the state in memory then stays as it was).
    ///
    /// The store is read holding no lock (on the JDK a second or more: calls go on answering
    /// with the state in memory meanwhile); what was read takes its place only if nothing
    /// changed since the save, checked under the state's lock when swapping.
    pub fn reload(&self) -> bool {
        let generation = {
            let Ok(st) = self.lock_state() else { return false };
            if self.store.is_none() || self.dirty.load(Relaxed) || st.world.is_none() {
                return false;
            }
            st.generation
        };
        // On a thread of its own, so what it keeps is laid out in an allocator arena of its
        // own rather than in the holes the pass left in this thread's, where it would keep
        // those pages resident.
        let fresh = std::thread::scope(|s| {
            let loader =
                std::thread::Builder::new().name("xref-reload".to_owned()).spawn_scoped(s, || self.read_state(false));
            loader.ok()?.join().ok()?
        });
        let Some((fresh, pending)) = fresh else { return false };
        let Ok(mut st) = self.lock_state() else { return false };
        // A file bound, read or relinked since the save: what was read is not the state now.
        if self.dirty.load(Relaxed) || st.generation != generation || fresh.world.is_none() {
            return false;
        }
        let old = std::mem::replace(&mut *st, fresh);
        if let Ok(mut slot) = self.pending.lock() {
            *slot = Some(pending);
        }
        // The state a whole pass left (every file's declarations, the world and its memos)
        // freed once the lock is released: calls take it.
        drop(st);
        drop(old);
        true
    }

    /// The world for exactly these files: files whose stamp changed are read again (in
    /// parallel), the world is relinked when anything changed, and the kept references of the
    /// files the change can affect are dropped. Returns the world and its generation.
    pub fn world(&self, files: &[FileStamp]) -> (Arc<World>, u64) {
        self.world_with(files).0
    }

    /// [`XrefEngine::world`], also saying what the change dropped from the reference index.
    pub fn world_with(&self, files: &[FileStamp]) -> ((Arc<World>, u64), Invalidation) {
        let Ok(mut st) = self.lock_state() else {
            return ((Arc::new(World::new(Vec::new())), 0), Invalidation::default());
        };
        if !st.loaded {
            st.loaded = true;
            self.load(&mut st, false);
        }
        if st.world.as_ref().is_some_and(|w| w.damaged()) {
            // Declarations read from the store did not decode (see `crate::index::lazy`): nothing
            // read from it is trusted; every file is read again.
            // With no world, the reference index is cleared below.
            let generation = st.generation;
            *st = WorldState { loaded: true, generation, ..WorldState::default() };
        }
        // Every entry in the order a load read them, each at its stamp: nothing changed.
        if let Some(w) = st.world.clone()
            && st.entries.same_as_read(files)
        {
            return ((w, st.generation), Invalidation::default());
        }
        let mut found = 0usize;
        let changed: Vec<&FileStamp> = files
            .iter()
            .filter(|f| match st.entries.get(&f.path) {
                Some(e) => {
                    found += 1;
                    e.stamp != f.stamp
                }
                None => true,
            })
            .collect();
        // Distinct files that found every entry removed none: the set of the files (a second
        // hash of every path, and a third for each entry, a tenth of a one-shot `refs` on the
        // JDK) is made only when a file may be gone.
        let removed: Vec<Arc<Path>> = if found == st.entries.len() && distinct(files) {
            Vec::new()
        } else {
            let keep: foldhash::HashSet<&Arc<Path>> = files.iter().map(|f| &f.path).collect();
            st.entries.keys().filter(|p| !keep.contains(*p)).cloned().collect()
        };
        if changed.is_empty()
            && removed.is_empty()
            && let Some(w) = &st.world
        {
            return ((w.clone(), st.generation), Invalidation::default());
        }
        let t = Instant::now();
        let counter = Progress::counter(changed.len(), "reading declarations");
        let fresh: Vec<(Arc<Path>, StampedDecls)> = changed
            .par_iter()
            .map(|f| {
                progress::tick(&counter);
                let decls = mji_fs::read_regular(&f.path, mji_fs::DEFAULT_MAX_FILE_BYTES)
                    .map(|b| match crate::kotlin::is_kotlin(&f.path) {
                        true => crate::kotlin::decls::file_decls(&f.path, &b),
                        false => file_decls_with(&b, &self.lombok_config(&f.path)),
                    })
                    .unwrap_or_default();
                (f.path.clone(), StampedDecls { stamp: f.stamp, decls: Decls::ready(Arc::new(decls)) })
            })
            .collect();
        // Files whose declarations changed other than in their lines.
        let mut reshaped: Vec<Arc<Path>> = removed.clone();
        let mut touched: Vec<Arc<Path>> = removed.clone();
        for (p, e) in fresh {
            touched.push(p.clone());
            if let Some(old) = st.entries.insert(p.clone(), e.clone_ref())
                && same_shape(old.decls.get(), e.decls.get())
            {
                continue;
            }
            reshaped.push(p);
        }
        for p in &removed {
            st.entries.remove(p);
        }
        // Edits of members only relink the old world in place of the edited files; anything
        // else (a file added or removed, a type or import changed) links a new one.
        let relinked = match &st.world {
            Some(old) if removed.is_empty() => touched
                .iter()
                .map(|p| {
                    let i = old.files.binary_search_by(|f| (*f.path).cmp(p)).ok()?;
                    Some((i, st.entries.get(p)?.decls.get().clone()))
                })
                .collect::<Option<Vec<_>>>()
                .and_then(|edits| old.relinked(&edits)),
            _ => None,
        };
        st.generation += 1;
        let mut w = relinked.unwrap_or_else(|| {
            let mut list: Vec<(Arc<Path>, Decls)> =
                st.entries.iter().map(|(p, e)| (p.clone(), e.decls.clone())).collect();
            list.sort_by(|a, b| a.0.cmp(&b.0));
            self.new_world(list)
        });
        w.shape = st.generation;
        let w = Arc::new(w);
        let names = match &st.world {
            Some(old) if !reshaped.is_empty() => crate::invalidate::affected_names(old, &w, &reshaped),
            _ => Default::default(),
        };
        let mut inv = Invalidation { changed: touched.len(), mentioning: 0 };
        if let Ok(mut ix) = self.refs_write() {
            for p in &touched {
                ix.invalidate(p, st.generation);
            }
            if st.world.is_none() {
                // No world to compare with: nothing kept can be trusted.
                ix.clear(st.generation);
            } else {
                let words: Vec<u32> = names.iter().map(|n| word_hash(n.as_bytes())).collect();
                inv.mentioning = ix.invalidate_mentioning(&words, st.generation);
            }
        }
        self.dirty.store(true, Relaxed);
        st.world = Some(w.clone());
        let thread = std::thread::current();
        tracing::debug!(
            files = inv.changed,
            ms = t.elapsed().as_millis() as u64,
            thread = thread.name().unwrap_or("?"),
            "world read and linked under the state's lock"
        );
        ((w, st.generation), inv)
    }
}

/// Whether two files' declarations differ only in their lines.
/// Whether two declarations of a file declare the same (lines aside): a world relinked for
/// such an edit binds every other file as before.
pub fn same_shape(a: &FileDecls, b: &FileDecls) -> bool {
    fn unlined(d: &FileDecls) -> FileDecls {
        let mut d = d.clone();
        for t in &mut d.types {
            (t.start_line, t.end_line) = (0, 0);
            t.fields.iter_mut().for_each(|f| f.line = 0);
            t.methods.iter_mut().chain(t.ctors.iter_mut()).for_each(|m| m.line = 0);
        }
        d
    }
    a == b || unlined(a) == unlined(b)
}

impl StampedDecls {
    fn clone_ref(&self) -> StampedDecls {
        StampedDecls { stamp: self.stamp, decls: self.decls.clone() }
    }
}

impl XrefEngine {
    /// Bounds the memory of the references kept: after a search, the bodies read back from
    /// the store are dropped, least recently used first, until the kept bodies take at most
    /// `bytes` (0: no bound). A dropped body is read again from the store when next used.
    pub fn set_memory_budget(&self, bytes: usize) {
        self.budget.store(bytes, Relaxed);
    }

    /// Bytes of source bound since the last call (by any pass or search).
    pub fn take_bytes_bound(&self) -> usize {
        self.bytes_bound.swap(0, Relaxed)
    }

    /// Drops the least recently used bodies over the memory budget; returns how many.
    pub fn enforce_memory_budget(&self) -> usize {
        let budget = self.budget.load(Relaxed);
        if budget == 0 {
            return 0;
        }
        // Most searches are under the budget: seen under the read lock, which searches share.
        if self.refs_read().is_ok_and(|ix| ix.bodies_bytes() <= budget) {
            return 0;
        }
        match self.refs_write() {
            Ok(mut ix) => ix.evict_to(budget),
            Err(_) => 0,
        }
    }

    /// Heap bytes of the reference index, roughly.
    pub fn bound_bytes(&self) -> usize {
        self.refs_read().map(|r| r.heap_bytes()).unwrap_or(0)
    }

    /// How many files and references are kept bound (for status and benchmarks).
    pub fn bound(&self) -> (usize, usize) {
        self.refs_read().map(|r| (r.file_count(), r.refs)).unwrap_or_default()
    }

    /// Whether the reference index has room for more files.
    pub fn has_room(&self) -> bool {
        self.refs_read().is_ok_and(|ix| ix.room_for(0))
    }

    /// The generation of the world last linked: a world whose [`World::shape`] differs is
    /// outdated.
    pub fn generation(&self) -> u64 {
        self.lock_state().map(|st| st.generation).unwrap_or(u64::MAX)
    }

    /// The stamps the world was built from, for `files`, with each file's place in the order
    /// the store was read in when known (kept for the scope: [`crate::scope`]).
    pub(crate) fn stamps(&self, files: &[Arc<Path>]) -> Arc<[Known]> {
        let Ok(st) = self.lock_state() else { return vec![Known::default(); files.len()].into() };
        self.scopes.stamps(files, st.entries.epoch(), || files.iter().map(|p| st.entries.known(p)).collect())
    }

    /// The stamp the world was built from, for one file.
    fn stamp_of(&self, p: &Path) -> Option<Stamp> {
        self.lock_state().ok()?.entries.get(p).map(|e| e.stamp)
    }

    /// Each file's slot in the reference index (kept for the scope: [`crate::scope`]): its
    /// place in the order the store was read in when the index was restored from that read
    /// (it gave the i-th path slot i), else looked up by path.
    pub(crate) fn slots(&self, ix: &RefIndex, files: &[Arc<Path>], known: &[Known]) -> Arc<[Option<u32>]> {
        self.scopes.slots(files, ix.slots_key(), || {
            let read = ix.read_from();
            files
                .iter()
                .zip(known)
                .map(|(p, k)| match k.place {
                    Some((from, i)) if read == Some(from) => Some(i),
                    _ => ix.id_of(p),
                })
                .collect()
        })
    }

    /// Binds a file's bytes and keeps the result when there is room and no later world has
    /// invalidated it. Returns every reference of the file.
    fn bind_and_keep(
        &self,
        world: &World,
        p: &Arc<Path>,
        bytes: &[u8],
        stamp: Option<Stamp>,
    ) -> (Vec<Ref>, Option<DepthCut>) {
        let (all, cut) = bind_file(world, file_index(world, p), bytes);
        self.bytes_bound.fetch_add(bytes.len(), Relaxed);
        if let Some(stamp) = stamp
            && let Ok(mut ix) = self.refs_write()
            && ix.insert(p, &all, cut, words_of(bytes), stamp, world.shape)
        {
            self.dirty.store(true, Relaxed);
        }
        (all, cut)
    }

    /// References to any of `keys` in `files`. A file whose references are kept for its
    /// stamp is answered from the index, found through the keys' postings without reading
    /// anything; any other file is read and, if its bytes hold one of `names` as a word,
    /// bound (in parallel) and kept. Under a cancelled [`Cancel`] the answer is partial; the
    /// caller checks the flag.
    pub fn find_in_files(
        &self,
        world: &World,
        files: &[Arc<Path>],
        names: &[String],
        keys: &[&str],
        keep: &(dyn Fn(&Ref) -> bool + Sync),
    ) -> Found {
        let stamps = self.stamps(files);
        let cancel = Cancel::current();
        let mut out: Vec<(Arc<Path>, Vec<Ref>)> = Vec::new();
        let mut cut_short: Vec<(Arc<Path>, DepthCut)> = Vec::new();
        let name_words: Vec<u32> = names.iter().map(|n| word_hash(n.as_bytes())).collect();
        let mut unbound: Vec<(&Arc<Path>, Option<Stamp>)> = Vec::new();
        if let Ok(ix) = self.refs_read() {
            let mut ids: Vec<u32> = keys.iter().filter_map(|k| ix.find_key(k)).collect();
            ids.sort_unstable();
            // Which files of the scope are answered by the index.
            let mut kept = vec![false; ix.slots()];
            let slots = self.slots(&ix, files, &stamps);
            for ((p, known), id) in files.iter().zip(stamps.iter()).zip(slots.iter()) {
                match (*id, known.stamp) {
                    (Some(id), Some(stamp)) if ix.get(id).is_some_and(|f| f.stamp == stamp) => {
                        kept[id as usize] = true;
                        // A file cut short may mention the names in the part not bound.
                        if let Some(f) = ix.get(id)
                            && let Some(c) = f.cut
                            && (name_words.is_empty() || f.mentions(&name_words))
                        {
                            cut_short.push((p.clone(), c));
                        }
                    }
                    _ => unbound.push((p, known.stamp)),
                }
            }
            let candidates: Vec<u32> = ix.candidates(&ids).into_iter().filter(|id| kept[*id as usize]).collect();
            // Bodies still in the store (after a restart) are read in parallel first.
            candidates.par_iter().for_each(|id| {
                if let Some(f) = ix.get(*id) {
                    f.body();
                }
            });
            for id in candidates {
                let Some(f) = ix.get(id) else { continue };
                let Some(body) = f.body() else {
                    // Its stored references did not read back: bound again below.
                    let p = ix.path(id);
                    if let Some(i) = files.iter().position(|x| x == p) {
                        unbound.push((&files[i], stamps[i].stamp));
                    }
                    continue;
                };
                let refs: Vec<Ref> = ix.matching(body, &ids).into_iter().filter(|r| keep(r)).collect();
                if !refs.is_empty() {
                    out.push((ix.path(id).clone(), refs));
                }
            }
            if ix.is_damaged() {
                // A stored key table that did not read: the answer is not used; the index is
                // dropped and every file bound again.
                drop(ix);
                if let Ok(mut ix) = self.refs.write() {
                    ix.reset();
                }
                return self.find_in_files(world, files, names, keys, keep);
            }
        } else {
            unbound = files.iter().zip(stamps.iter().map(|k| k.stamp)).collect();
        }
        let finders: Vec<memchr::memmem::Finder> =
            names.iter().map(|n| memchr::memmem::Finder::new(n.as_bytes())).collect();
        let properties: Vec<String> = names.iter().filter_map(|n| crate::kotlin::property_of_accessor(n)).collect();
        let kt_finders: Vec<memchr::memmem::Finder> =
            properties.iter().map(|n| memchr::memmem::Finder::new(n.as_bytes())).collect();
        let counter = Progress::counter(unbound.len(), "binding references");
        let more: Vec<(Arc<Path>, Vec<Ref>, Option<DepthCut>)> = unbound
            .par_iter()
            .filter_map(|(p, stamp)| {
                progress::tick(&counter);
                if cancel.is_cancelled() {
                    return None;
                }
                let bytes = mji_fs::read_regular(p, mji_fs::DEFAULT_MAX_FILE_BYTES).ok()?;
                // Kotlin calls a getter or setter by its property's name (`bean.name`).
                let kotlin = crate::kotlin::is_kotlin(p) && kt_finders.iter().any(|f| has_identifier(f, &bytes));
                if !finders.is_empty() && !kotlin && !finders.iter().any(|f| has_identifier(f, &bytes)) {
                    return None;
                }
                let (all, cut) = self.bind_and_keep(world, p, &bytes, *stamp);
                let refs: Vec<Ref> = all.into_iter().filter(|r| keep(r)).collect();
                (!refs.is_empty() || cut.is_some()).then(|| ((*p).clone(), refs, cut))
            })
            .collect();
        for (p, refs, cut) in more {
            if let Some(c) = cut {
                cut_short.push((p.clone(), c));
            }
            if !refs.is_empty() {
                out.push((p, refs));
            }
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        cut_short.sort_by(|a, b| a.0.cmp(&b.0));
        self.enforce_memory_budget();
        Found { files: out, unbound: cut_short }
    }

    /// The files of `files` whose text has `name` as an identifier: the kept words of the
    /// files the index holds for their stamps, else the file read (a file that does not read
    /// is left out).
    pub fn files_mentioning(&self, files: &[Arc<Path>], name: &str) -> Vec<Arc<Path>> {
        let stamps = self.stamps(files);
        let word = [word_hash(name.as_bytes())];
        let mut out = Vec::new();
        let mut read: Vec<&Arc<Path>> = Vec::new();
        match self.refs_read() {
            Ok(ix) => {
                let slots = self.slots(&ix, files, &stamps);
                for ((p, known), id) in files.iter().zip(stamps.iter()).zip(slots.iter()) {
                    match (*id, known.stamp) {
                        (Some(id), Some(stamp)) if ix.get(id).is_some_and(|f| f.stamp == stamp) => {
                            if ix.get(id).is_some_and(|f| f.mentions(&word)) {
                                out.push(p.clone());
                            }
                        }
                        _ => read.push(p),
                    }
                }
            }
            Err(_) => read.extend(files.iter()),
        }
        let finder = memchr::memmem::Finder::new(name.as_bytes());
        let more: Vec<Arc<Path>> = read
            .par_iter()
            .filter(|p| {
                mji_fs::read_regular(p, mji_fs::DEFAULT_MAX_FILE_BYTES).is_ok_and(|b| has_identifier(&finder, &b))
            })
            .map(|p| (*p).clone())
            .collect();
        out.extend(more);
        out.sort();
        out
    }

    /// Every reference of one file: kept ones when valid for the file's stamp in the world,
    /// otherwise bound now (and kept).
    pub fn refs_of(&self, world: &World, p: &Arc<Path>) -> std::io::Result<Vec<Ref>> {
        if let Some(kept) = self.kept_refs(p) {
            return Ok(kept);
        }
        let bytes = mji_fs::read_regular(p, mji_fs::DEFAULT_MAX_FILE_BYTES)?;
        Ok(self.refs_in(world, p, &bytes))
    }

    /// [`XrefEngine::refs_of`] for a file whose bytes the caller has read.
    pub fn refs_in(&self, world: &World, p: &Arc<Path>, bytes: &[u8]) -> Vec<Ref> {
        if let Some(kept) = self.kept_refs(p) {
            return kept;
        }
        let stamp = self.stamp_of(p);
        self.bind_and_keep(world, p, bytes, stamp).0
    }

    /// A file's kept references, when they are valid for its stamp in the world.
    fn kept_refs(&self, p: &Arc<Path>) -> Option<Vec<Ref>> {
        let stamp = self.stamp_of(p)?;
        let ix = self.refs_read().ok()?;
        let f = ix.get(ix.id_of(p)?)?;
        let refs = (f.stamp == stamp).then(|| f.body().map(|b| ix.all(b))).flatten();
        // Read from a stored key table that did not read: bound again.
        refs.filter(|_| !ix.is_damaged())
    }

    /// Binds the first `max` files of `files` whose references are not kept, in parallel on
    /// the current rayon pool, so later queries read no file; stops when the world moves on,
    /// the index is full, or `stop` says so (`index DIR`, tests). Returns how many files it
    /// bound.
    pub fn bind_all_parallel(
        &self,
        world: &World,
        files: &[Arc<Path>],
        max: usize,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> usize {
        let mut todo = self.unbound_files(files);
        todo.truncate(max);
        let counter = Progress::counter(todo.len(), "binding references");
        self.bind_these(world, &todo, &|| {
            progress::tick(&counter);
            stop()
        })
        .0
    }

    /// The files of `files` whose references are not kept for their stamp in the world, in
    /// their order, with that stamp (a file the world does not hold is left out).
    pub fn unbound_files(&self, files: &[Arc<Path>]) -> Vec<(Arc<Path>, Stamp)> {
        let stamps = self.stamps(files);
        let Ok(ix) = self.refs_read() else { return Vec::new() };
        let slots = self.slots(&ix, files, &stamps);
        files
            .iter()
            .zip(stamps.iter())
            .zip(slots.iter())
            .filter_map(|((p, k), id)| Some((p.clone(), k.stamp?, *id)))
            .filter(|(_, s, id)| id.and_then(|id| ix.get(id)).is_none_or(|f| f.stamp != *s))
            .map(|(p, s, _)| (p, s))
            .collect()
    }

    /// Binds `todo` (from [`XrefEngine::unbound_files`]) in parallel on the current rayon
    /// pool, each file under no lock but the index's while its references go in. Before each
    /// file `stop` is asked, and a file is skipped once it says so, once the world moves on,
    /// when the index is full, or when a search bound the file meanwhile: a pass that must
    /// yield stops after the files in hand. Returns how many files it bound, and whether it
    /// stopped before the end.
    pub fn bind_these(
        &self,
        world: &World,
        todo: &[(Arc<Path>, Stamp)],
        stop: &(dyn Fn() -> bool + Sync),
    ) -> (usize, bool) {
        let bound = AtomicUsize::new(0);
        let halted = AtomicBool::new(false);
        todo.par_iter().with_max_len(1).for_each(|(p, stamp)| {
            if halted.load(Relaxed) {
                return;
            }
            let moved_on = self.lock_state().map(|st| st.generation).unwrap_or(u64::MAX) != world.shape;
            if stop() || moved_on || !self.refs_read().is_ok_and(|ix| ix.room_for(0)) {
                halted.store(true, Relaxed);
                return;
            }
            let kept = self.refs_read().ok().and_then(|ix| Some(ix.get(ix.id_of(p)?)?.stamp == *stamp));
            if kept == Some(true) {
                return;
            }
            let Ok(bytes) = mji_fs::read_regular(p, mji_fs::DEFAULT_MAX_FILE_BYTES) else { return };
            self.bind_and_keep(world, p, &bytes, Some(*stamp));
            bound.fetch_add(1, Relaxed);
        });
        (bound.into_inner(), halted.into_inner())
    }
}

/// The index of a file in the world, `u32::MAX` when absent.
pub fn file_index(world: &World, path: &Path) -> u32 {
    world.files.binary_search_by(|f| (*f.path).cmp(path)).map(|i| i as u32).unwrap_or(u32::MAX)
}

/// Whether `bytes` contain the finder's needle as a whole Java identifier: the bytes around it
/// are not ASCII identifier characters (non-ASCII neighbours count as boundaries, so the test
/// never drops a file that could mention the name).
fn has_identifier(f: &memchr::memmem::Finder, bytes: &[u8]) -> bool {
    let n = f.needle().len();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
    f.find_iter(bytes).any(|i| (i == 0 || !ident(bytes[i - 1])) && bytes.get(i + n).is_none_or(|b| !ident(*b)))
}

/// Whether a reference is a write.
pub fn is_write(r: &Ref) -> bool {
    r.kind == RefKind::FieldWrite
}

/// Whether the files are distinct paths, as the listings come (in path order, each path as the
/// walk makes it: no empty or `.` component, no trailing `/`): bytes strictly increasing and
/// every path plain, so that no two name one file. False says nothing.
fn distinct(files: &[FileStamp]) -> bool {
    if !cfg!(unix) {
        return false;
    }
    fn bytes(f: &FileStamp) -> &[u8] {
        f.path.as_os_str().as_encoded_bytes()
    }
    let plain = |b: &[u8]| {
        !b.ends_with(b"/")
            && !b.ends_with(b"/.")
            && memchr::memmem::find(b, b"//").is_none()
            && memchr::memmem::find(b, b"/./").is_none()
    };
    // Ascending in the walk's order (`mji_fs::walk::sort_paths`: `/` the lowest byte, as
    // `Path` orders plain paths), or all in the bytes' own: either says no path comes twice. The
    // bytes' order alone missed the JDK's (`java.management/…` walks before
    // `java.management.rmi/…`), and the set was made on every call.
    let walk_key = |b: &u8| if *b == b'/' { 0 } else { *b };
    files.iter().all(|f| plain(bytes(f)))
        && (files.windows(2).all(|w| bytes(&w[0]) < bytes(&w[1]))
            || files.windows(2).all(|w| bytes(&w[0]).iter().map(walk_key).lt(bytes(&w[1]).iter().map(walk_key))))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A search reports how many of the files it reads it has read, to the call's progress
    /// sink (the last report: all of them), and nothing when no sink is installed.
    #[test]
    fn a_search_reports_the_files_it_reads_to_the_progress_sink() {
        let dir = std::env::temp_dir().join(format!("mji-xref-progress-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("mkdir");
        let n = 16 * 2 + 5;
        let mut stamps = Vec::new();
        for i in 0..n {
            let p = dir.join(format!("C{i}.java"));
            std::fs::write(&p, format!("class C{i} {{ int f() {{ return Util.twice({i}); }} }}\n")).expect("write");
            stamps.push(FileStamp { path: Arc::from(p.as_path()), stamp: Stamp { size: 0, mtime_ns: 0 } });
        }
        let util = dir.join("Util.java");
        std::fs::write(&util, "class Util { static int twice(int x) { return 2 * x; } }\n").expect("write");
        stamps.push(FileStamp { path: Arc::from(util.as_path()), stamp: Stamp { size: 0, mtime_ns: 0 } });
        let engine = XrefEngine::new();
        let (world, _) = engine.world(&stamps);
        let files: Vec<Arc<Path>> = stamps.iter().map(|s| s.path.clone()).collect();
        let names = vec!["twice".to_owned()];
        let search = || engine.find_in_files(&world, &files, &names, &["Util#twice(int)"], &|_| true);
        let sink = mji_model::progress::Progress::new();
        let found = sink.scope(search);
        let last = sink.newer_than(0).expect("a report");
        assert_eq!((last.done, last.total), (files.len() as f64, Some(files.len() as f64)), "{last:?}");
        assert!(last.message.contains("binding references"), "{last:?}");
        assert!(last.seq >= 3, "reported as it went: {last:?}");
        assert_eq!(found.files.len(), n, "every caller found");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The same scope searched again after a file of it changed, and after a file of it was
    /// bound, is answered from the files as they are now, and keeps what it binds under the
    /// file's stamp now: the stamps and slots kept for the scope ([`crate::scope`]) are not
    /// used once the entries or the index's slots moved on.
    #[test]
    fn a_scope_searched_again_sees_an_edit_and_a_new_binding() {
        let dir = tempfile::tempdir().expect("tempdir");
        let put = |name: &str, text: &str, n: i128| {
            let p = dir.path().join(name);
            std::fs::write(&p, text).expect("write");
            FileStamp { path: Arc::from(p.as_path()), stamp: Stamp { size: text.len() as u64, mtime_ns: n } }
        };
        let util = put("Util.java", "class Util { static int twice(int x) { return 2 * x; } }\n", 1);
        let a = put("A.java", "class A { int f() { return Util.twice(1); } }\n", 1);
        let b = put("B.java", "class B { int g() { return Util.twice(3); } }\n", 1);
        let engine = XrefEngine::new();
        // B is not in the world yet (a file the listing will add): no stamp, no slot.
        let (world, _) = engine.world(&[a.clone(), util.clone()]);
        // One list of paths, as the keeper hands every call the same listing.
        let files: Vec<Arc<Path>> = [&a, &b, &util].iter().map(|s| s.path.clone()).collect();
        let names = vec!["twice".to_owned()];
        // The files with calls of `twice`, and how many files the search read to bind.
        let count = |w: &World| -> (Vec<(String, usize)>, f64) {
            let calls = |r: &Ref| r.kind == RefKind::Call;
            let sink = mji_model::progress::Progress::new();
            let found = sink.scope(|| engine.find_in_files(w, &files, &names, &["Util#twice(int)"], &calls));
            let read = sink.newer_than(0).and_then(|p| p.total).unwrap_or(0.0);
            let hits = found
                .files
                .iter()
                .map(|(p, r)| (p.file_name().expect("a name").to_string_lossy().into_owned(), r.len()));
            (hits.collect(), read)
        };
        let calls = |a: usize| vec![("A.java".to_owned(), a), ("B.java".to_owned(), 1)];
        assert_eq!(count(&world), (calls(1), 3.0), "A and Util bound, B read (not kept: no stamp)");
        assert_eq!(count(&world), (calls(1), 1.0), "A and Util answered from the index");
        // A edited: two calls now, a new stamp; the paths' allocations are the same.
        let a2 = put("A.java", "class A { int f() { return Util.twice(1) + Util.twice(2); } }\n", 2);
        let a2 = FileStamp { path: a.path.clone(), stamp: a2.stamp };
        let (world, _) = engine.world(&[a2.clone(), util.clone()]);
        assert_eq!(count(&world).0, calls(2));
        assert!(engine.kept_refs(&a.path).is_some(), "A's references kept under its stamp now");
        // B listed: given a slot, bound and kept by the next search, read by none after it.
        let (world, _) = engine.world(&[a2, b.clone(), util]);
        assert_eq!(count(&world), (calls(2), 1.0));
        assert!(engine.kept_refs(&b.path).is_some());
        assert_eq!(count(&world), (calls(2), 0.0), "every file answered from the index");
    }

    /// A file the listing no longer names leaves the world, whether the listing is distinct and
    /// in order (the entries counted) or not (a duplicate, out of order: the set of the files);
    /// `distinct` says false for what it cannot tell.
    #[test]
    fn a_file_missing_from_the_listing_leaves_the_world() {
        let dir = tempfile::tempdir().expect("tempdir");
        let stamp = |name: &str| {
            let p = dir.path().join(name);
            std::fs::write(&p, format!("class {} {{}}\n", name.trim_end_matches(".java"))).expect("write");
            FileStamp { path: Arc::from(p.as_path()), stamp: Stamp { size: 1, mtime_ns: 1 } }
        };
        let (a, b, c) = (stamp("A.java"), stamp("B.java"), stamp("C.java"));
        let files = |w: &World| -> Vec<String> {
            w.files
                .iter()
                .map(|f| f.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default())
                .collect()
        };
        let engine = XrefEngine::new();
        assert_eq!(files(&engine.world(&[a.clone(), b.clone(), c.clone()]).0), ["A.java", "B.java", "C.java"]);
        assert!(distinct(&[a.clone(), b.clone(), c.clone()]));
        assert_eq!(files(&engine.world(&[a.clone(), c.clone()]).0), ["A.java", "C.java"]);
        assert_eq!(files(&engine.world(&[a.clone(), b.clone(), c.clone()]).0), ["A.java", "B.java", "C.java"]);
        // Three files that name two, the entries' count met: B is still gone.
        let twice = [a.clone(), c.clone(), a.clone()];
        assert!(!distinct(&twice));
        assert_eq!(files(&engine.world(&twice).0), ["A.java", "C.java"]);
        let odd = FileStamp { path: Arc::from(Path::new(&format!("{}//A.java", dir.path().display()))), ..a.clone() };
        assert!(!distinct(&[odd, c.clone()]), "a path with an empty component");
        assert!(!distinct(&[c, a]), "out of order");
        // The walk's order: `x/A.java` before `x.y/A.java` (`/` lowest), which the bytes'
        // order puts the other way round.
        let at = |rel: &str| FileStamp { path: Arc::from(dir.path().join(rel).as_path()), stamp: b.stamp };
        let (xa, xya) = (at("x/A.java"), at("x.y/A.java"));
        assert!(distinct(&[xa.clone(), xya.clone()]));
        assert!(distinct(&[xya.clone(), xa.clone()]), "the bytes' order");
        assert!(!distinct(&[xa.clone(), xya.clone(), xa]), "twice, apart");
    }
}
