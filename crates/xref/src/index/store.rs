//! The persisted world and reference index: one file beside the cache, so a restart (or a
//! CLI call) starts from the declarations and bound references of last time instead of
//! reading and binding every file again.
//!
//! It is an accelerator, never a source of truth: it is read only when it ends in a MAC of its
//! path and bytes under the user's key (`mji_fs::provenance`: a repository cannot ship one) and its
//! fingerprint (the format, this build of the binder, the JDK table, the library types) matches; each file's entry is used only
//! while its stamp does, and the files that changed since are taken through the same
//! invalidation as an edit while serving (see [`crate::invalidate`]). Written atomically
//! (temp + rename); a file whose modification time is too close to the write is saved with a
//! stamp that never matches and no references (a same-size rewrite within the clock's
//! granularity would go unnoticed), so it is read again and compared.

use std::io::Write;
use std::path::Path;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, RwLock};

use serde::{Deserialize, Serialize};

use crate::bind::DepthCut;
use crate::engine::{StampedDecls, WorldState, XrefEngine};
use crate::index::keypart::{self, KeyPart};
use crate::index::lazy::{Block, Decls};
use crate::index::refindex::{BasePostings, FileRefs, Keys, MAGIC, OnDisk, RefIndex, Replaced, blob_mac};
use crate::name::{self, NameTable};
use crate::world::World;
use mji_fs::provenance::same_mac;

// The format: `MAGIC` (`crate::index::refindex::MAGIC`), each file's references (a postcard `crate::index::refindex::RefsBody`),
// the keys part (the key table and the postings: `crate::index::keypart`), every file's declarations (their names as
// indexes into the header's table of names), the world's link (`World::link`), the `Header`, the lengths of the keys part, the
// declarations with the link, and the header (u64, little-endian), the keys part's MAC (of it and the main
// MAC) and the main MAC (of the declarations and the header). A restart reads the
// declarations (kept as bytes, each file's decoded when first used: `crate::index::lazy`) and the
// header (the world's link, where each file's references lie and their MACs); the keys part
// when the reference index is first used (a `def` or `hierarchy` that needs no references
// never reads it), and a file's references when a query needs them.

// Files modified this close to the time of writing are left out (by the modification time in
// a stamp's low 64 bits; see `mji_fs::stamp`).
use mji_fs::stamp::Stamp;

#[derive(Serialize, Deserialize)]
struct Header {
    fingerprint: String,
    generation: u64,
    /// The names the declarations spell, each once (they hold indexes into it): every name's
    /// text and where each ends (see [`NameTable`]).
    name_text: String,
    name_ends: Vec<u32>,
    /// How many keys the keys part's table holds (the files' references index into it).
    nkeys: u32,
    files: Vec<HeaderFile>,
    /// The length of what linking the world of these files' declarations computed
    /// (`World::link`), which follows the declarations, when the world saved was linked from
    /// exactly them; a restart restores it without decoding any.
    link: Option<u32>,
}

/// The reference index of a loaded store: its keys part still to read on the index's first use
/// (see [`XrefEngine::refs`]), or read already, beside the world, by a load that was asked for
/// the references too ([`XrefEngine::preload`]).
pub(crate) enum PendingRefs {
    Stored(StoredKeys),
    /// `None` when the keys part's table did not read, check or fit.
    Restored(Option<Box<RefIndex>>),
}

impl PendingRefs {
    /// The reference index, or `None` if the keys part's table does not read, check or fit.
    fn restore(self) -> Option<RefIndex> {
        match self {
            PendingRefs::Stored(keys) => keys.restore(),
            PendingRefs::Restored(ix) => ix.map(|ix| *ix),
        }
    }
}

/// Where a loaded store's keys part lies, and what the reference index is restored with once
/// it is read.
pub(crate) struct StoredKeys {
    path: std::path::PathBuf,
    file: Arc<std::fs::File>,
    at: KeysAt,
    nkeys: u32,
    slots: Vec<(Arc<Path>, Option<FileRefs>)>,
    /// The read's own epoch, which the entries read with it keep their order under.
    from: crate::scope::Epoch,
}

/// The keys part's place and MAC, and the main MAC it is bound to.
#[derive(Clone, Copy)]
struct KeysAt {
    offset: u64,
    len: u64,
    mac: [u8; 32],
    main: [u8; 32],
}

impl StoredKeys {
    /// The reference index, or `None` if the keys part's table does not read, check or fit.
    /// Only the table is read (see [`crate::index::keypart`]): the key text a query needs is read
    /// and checked chunk by chunk.
    fn restore(self) -> Option<RefIndex> {
        let files = u32::try_from(self.slots.len()).ok()?;
        let (path, at) = (&self.path, self.at);
        let checks = |table: &[u8]| keys_mac(path, &at.main, table).is_some_and(|m| same_mac(&at.mac, &m));
        let part = KeyPart::open(self.file.clone(), path.clone(), at.offset, at.len, self.nkeys, files, checks)?;
        let part = Arc::new(part);
        let base = BasePostings { stored: Some(part.clone()), ..BasePostings::default() };
        RefIndex::restore(Keys::stored(part), self.slots, base, self.from)
    }
}

#[derive(Serialize, Deserialize)]
struct HeaderFile {
    path: String,
    size: u64,
    mtime_ns: i128,
    /// The length of the file's declarations (a postcard `FileDecls`) in the declarations
    /// part, which holds every file's in the header's order.
    decls_len: u32,
    /// The file's references, bound for this stamp, when kept.
    refs: Option<HeaderRefs>,
}

#[derive(Serialize, Deserialize)]
struct HeaderRefs {
    cut: Option<DepthCut>,
    nrefs: u32,
    nkeys: u32,
    offset: u64,
    len: u32,
    mac: [u8; 32],
}

/// What a persisted index must have been written by: the format, this build (the binder's
/// rules are in the code), and the JDK API table.
fn fingerprint(libraries: u64) -> String {
    let exe = std::env::current_exe()
        .and_then(std::fs::metadata)
        .map(|m| {
            let mtime = m.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok());
            format!("{}:{}", m.len(), mtime.map(|d| d.as_nanos()).unwrap_or(0))
        })
        .unwrap_or_default();
    format!("{}:{}:{libraries}:{exe}", env!("CARGO_PKG_VERSION"), crate::world::jdk_api::table_hash())
}

/// One file as a save sees it, taken under the locks.
struct ToSave {
    path: Arc<Path>,
    stamp: Stamp,
    decls: Decls,
    /// Its slot in the index and its references, when they are valid for the stamp.
    refs: Option<(u32, Arc<FileRefs>)>,
}

impl XrefEngine {
    /// Reads the persisted world and index into an empty state; anything unusable is ignored.
    /// Only the header is read: each file's references stay on disk until a query reads them,
    /// and each file's declarations stay encoded until a query reads them; the world is
    /// restored from the link the store keeps (linked anew, every file's declarations decoded,
    /// when it has none).
    /// With `references`, the reference index's key table and postings are read too, on a
    /// thread of their own while the world is restored (on the JDK, a fresh `refs` command
    /// waited ~20 ms more for them after the world).
    pub(crate) fn load(&self, st: &mut WorldState, references: bool) {
        if let Some((fresh, pending)) = self.read_state(references) {
            *st = WorldState { loaded: st.loaded, ..fresh };
            if let Ok(mut slot) = self.pending.lock() {
                *slot = Some(pending);
            }
        }
    }

    /// The persisted world, as [`XrefEngine::load`] reads it, and the reference index's keys
    /// part to restore on its first use (restored already with `references`); `None` when the
    /// store is missing or unusable. Takes no lock of the engine's.
    pub(crate) fn read_state(&self, references: bool) -> Option<(WorldState, PendingRefs)> {
        let path = self.store.as_ref()?;
        let (file, mut h, mut decls, keys_at) = read(path, self.libraries_hash())?;
        let link_at = decls.len().checked_sub(h.link.unwrap_or(0) as usize)?;
        // The link is read from the bytes before they are cut to the declarations.
        let link = h.link.map(|_| decls.split_off(link_at));
        let mut at = 0u32;
        let mut spans: Vec<(u32, u32)> = Vec::with_capacity(h.files.len());
        for f in &h.files {
            let end = at.checked_add(f.decls_len)?;
            spans.push((at, end));
            at = end;
        }
        if at as usize != decls.len() {
            return None;
        }
        let names = NameTable::restore(std::mem::take(&mut h.name_text), std::mem::take(&mut h.name_ends))?;
        let block = Block::new(decls, names, path.clone());
        let nkeys = h.nkeys;
        let file = Arc::new(file);
        let mut entries = crate::engine::Entries::with_capacity(h.files.len());
        let mut slots = Vec::with_capacity(h.files.len());
        let mut list: Vec<(Arc<Path>, Decls)> = Vec::with_capacity(h.files.len());
        let mut order: Vec<(Arc<Path>, Stamp)> = Vec::with_capacity(h.files.len());
        for (f, (a, b)) in h.files.into_iter().zip(spans) {
            let p: Arc<Path> = Path::new(&f.path).into();
            let d = Decls::stored(&block, a, b);
            let refs = f.refs.map(|r| {
                let at = OnDisk::new(file.clone(), r.offset, r.len, r.mac, nkeys);
                FileRefs::on_disk(Stamp { size: f.size, mtime_ns: f.mtime_ns }, r.cut, r.nrefs, r.nkeys, at)
            });
            slots.push((p.clone(), refs));
            list.push((p.clone(), d.clone()));
            let stamp = Stamp { size: f.size, mtime_ns: f.mtime_ns };
            order.push((p.clone(), stamp));
            entries.insert(p, StampedDecls { stamp, decls: d });
        }
        let from = crate::scope::Epoch::new();
        entries.set_order(from, order);
        let keys = StoredKeys { path: path.clone(), file, at: keys_at, nkeys, slots, from };
        let world = || {
            // The link lists the files in the world's order (by path), as they were written.
            let in_order = list.is_sorted_by(|a, b| a.0 <= b.0);
            let restored =
                link.filter(|_| in_order).and_then(|link| World::restore(list.clone(), &link, Some(self.api())));
            restored.unwrap_or_else(|| {
                list.sort_by(|a, b| a.0.cmp(&b.0));
                self.new_world(list)
            })
        };
        // With `references`, the keys part is read on a thread of its own meanwhile (taken from
        // here by that thread; left here when no thread could be made, to be read on first use).
        let mut keys = Some(keys);
        let (mut w, restored) = if references {
            std::thread::scope(|s| {
                let index = std::thread::Builder::new()
                    .name("xref-keys".to_owned())
                    .spawn_scoped(s, || keys.take().and_then(StoredKeys::restore).map(Box::new));
                let w = world();
                (w, index.ok().map(|index| index.join().ok().flatten()))
            })
        } else {
            (world(), None)
        };
        let pending = match restored {
            Some(index) => PendingRefs::Restored(index),
            None => PendingRefs::Stored(keys.take()?),
        };
        if block.is_damaged() {
            return None;
        }
        let generation = h.generation.max(1);
        w.shape = generation;
        Some((WorldState { entries, world: Some(Arc::new(w)), generation, loaded: true }, pending))
    }

    /// The reference index, restored first from the keys part of the store the last load read
    /// if that is not done yet. Every use of the index goes through here. A keys part that
    /// does not read or check leaves the index empty: every file is bound again when a query
    /// needs it (the index is an accelerator); so does a stored table found damaged since
    /// (see [`crate::index::keypart`]).
    pub(crate) fn refs(&self) -> &RwLock<RefIndex> {
        if let Ok(mut pending) = self.pending.lock()
            && let Some(p) = pending.take()
            && let Ok(mut ix) = self.refs.write()
        {
            let t = std::time::Instant::now();
            let old = std::mem::replace(&mut *ix, p.restore().unwrap_or_default());
            // What the index held before (after a pass, every file's slot and key table)
            // freed once the lock is released.
            drop(ix);
            drop(pending);
            drop(old);
            tracing::debug!(
                ms = t.elapsed().as_millis() as u64,
                "store: the key table and postings restored under the index's lock"
            );
        }
        // Neither lock waited for: a caller may hold one (the next call drops it then).
        if self.refs.try_read().is_ok_and(|ix| ix.is_damaged())
            && let Ok(mut ix) = self.refs.try_write()
            && ix.is_damaged()
        {
            ix.reset();
        }
        &self.refs
    }

    /// Writes the world and the reference index to the store if anything changed since the
    /// last write. Returns the files written, or `None` when there was nothing to do.
    pub fn save(&self) -> Option<std::io::Result<usize>> {
        self.save_pausing(&|| {})
    }

    /// [`XrefEngine::save`], calling `pause` between files and parts of the write (which holds
    /// no lock then): the background pass waits there while a call waits or runs.
    pub fn save_pausing(&self, pause: &dyn Fn()) -> Option<std::io::Result<usize>> {
        let path = self.store.as_ref()?;
        if !self.dirty.swap(false, Relaxed) {
            return None;
        }
        // One consistent view, taken under the state's lock and then the index's (the order
        // every path takes), shared rather than copied; the locks are released before encoding.
        let t = std::time::Instant::now();
        let (generation, files, key_text, key_ends, pairs, world, edits) = {
            let st = self.lock_state().ok()?;
            let ix = self.refs_read().ok()?;
            let now = mji_fs::stamp::now_ns();
            let files: Vec<ToSave> = st
                .entries
                .iter()
                .map(|(p, e)| {
                    // A file modified just now keeps its declarations (the next start compares
                    // against them) under a stamp that never matches, so it is read again.
                    let racy = e.stamp.is_racy_at(now);
                    let refs = ix
                        .id_of(p)
                        .and_then(|id| Some((id, ix.get(id)?.clone())))
                        .filter(|(_, f)| !racy && f.stamp == e.stamp);
                    ToSave {
                        path: p.clone(),
                        stamp: if racy { e.stamp.never() } else { e.stamp },
                        decls: e.decls.clone(),
                        refs,
                    }
                })
                .collect();
            let (generation, world) = (st.generation, st.world.clone());
            // Released before the key table and the postings are copied (on the JDK most of the
            // time taken here): every call takes the state's lock, and the index's read lock
            // alone keeps this view whole (a relink waits for it before it drops anything).
            drop(st);
            let parts = ix.key_table().parts();
            let pairs = ix.posting_pairs();
            let Some((text, ends)) = parts.filter(|_| !ix.is_damaged()) else {
                // A stored key table or postings that do not read: nothing is written (the
                // index is dropped at its next use).
                self.dirty.store(true, Relaxed);
                return None;
            };
            (generation, files, text, ends, pairs, world, ix.edits())
        };
        let mut files = files;
        files.sort_by(|a, b| a.path.cmp(&b.path));
        tracing::debug!(
            ms = t.elapsed().as_millis() as u64,
            "store: the view to write taken under the index's read lock (the state's for the files)"
        );
        // The world's link, when it was linked from exactly the declarations written (the
        // same files, each the same declarations) with the library types the store is for.
        let libraries = self.libraries_hash();
        let link = world
            .filter(|w| {
                w.libraries_hash() == libraries
                    && w.files.len() == files.len()
                    && w.files.iter().zip(&files).all(|(f, s)| f.path == s.path && f.cell().same(&s.decls))
            })
            .and_then(|w| w.link());
        if files.iter().any(|f| f.decls.block().is_some_and(|b| b.is_damaged())) {
            // Declarations of the store read did not decode (see `crate::index::lazy`): nothing is
            // written until the world is read again from the files.
            self.dirty.store(true, Relaxed);
            return None;
        }
        let n = files.len();
        let nkeys = key_ends.len() as u32;
        let t = std::time::Instant::now();
        // The postings as the index holds them after the save (by slot), made here holding no
        // lock; the write takes its own (by the header's file order) from them.
        let base = BasePostings::of_pairs(nkeys, pairs);
        let result = write(path, generation, files, link, key_text, key_ends, &base, libraries, pause);
        tracing::debug!(ms = t.elapsed().as_millis() as u64, "store: written (no lock held)");
        match result {
            Ok((written, sorted)) => {
                #[cfg(test)]
                tests::before_adopt(self);
                let t = std::time::Instant::now();
                let replaced = self.adopt(path, written, nkeys, sorted, base, edits);
                let held = t.elapsed().as_millis() as u64;
                drop(replaced);
                tracing::debug!(
                    ms = held,
                    freed_ms = t.elapsed().as_millis() as u64 - held,
                    "store: the written bodies adopted under the index's lock (what they replaced freed after it)"
                );
                Some(Ok(n))
            }
            Err(e) => {
                self.dirty.store(true, Relaxed);
                Some(Err(e))
            }
        }
    }
}

/// The MAC that ends the file: of its path, declarations and header, under the user's key, so
/// a file this user's runs did not write here (a repository can ship one) is never read.
fn mac(path: &Path, decls_and_header: &[u8]) -> Option<[u8; 32]> {
    let key = mji_fs::provenance::Key::user().ok()?;
    Some(key.fast_mac_of(MAGIC, &[path.as_os_str().as_encoded_bytes(), decls_and_header]))
}

/// The keys part's MAC: of the path, the main MAC (binding it to the rest of this store) and
/// its table (which holds the MACs of its text's chunks).
fn keys_mac(path: &Path, main: &[u8; 32], keys: &[u8]) -> Option<[u8; 32]> {
    let key = mji_fs::provenance::Key::user().ok()?;
    Some(key.fast_mac_of(MAGIC, &[path.as_os_str().as_encoded_bytes(), b"keys", main, keys]))
}

/// The store's header and declarations, checked, the open file its bodies are read from, and
/// where its keys part lies. The file ends in the lengths of the keys part, the declarations
/// and the header (u64, little-endian), the keys part's MAC and the main MAC.
fn read(path: &Path, libraries: u64) -> Option<(std::fs::File, Header, Vec<u8>, KeysAt)> {
    let (file, meta) = mji_fs::open_regular(path, u64::MAX).ok()?;
    let len = meta.len();
    let mut magic = [0u8; 8];
    mji_fs::read_exact_at(&file, &mut magic, 0).ok()?;
    if &magic != MAGIC {
        return None;
    }
    let mut tail = [0u8; TAIL];
    let end = len.checked_sub(TAIL as u64)?;
    mji_fs::read_exact_at(&file, &mut tail, end).ok()?;
    let klen = u64::from_le_bytes(tail[..8].try_into().ok()?);
    let dlen = u64::from_le_bytes(tail[8..16].try_into().ok()?);
    let hlen = u64::from_le_bytes(tail[16..24].try_into().ok()?);
    let kmac: [u8; 32] = tail[24..56].try_into().ok()?;
    let main: [u8; 32] = tail[56..].try_into().ok()?;
    let start = end.checked_sub(hlen)?.checked_sub(dlen)?;
    let keys_at = KeysAt { offset: start.checked_sub(klen)?, len: klen, mac: kmac, main };
    if keys_at.offset < MAGIC.len() as u64 {
        return None;
    }
    // Read into spare capacity: a zeroed buffer cost a memset of its megabytes first.
    let want = usize::try_from(dlen.checked_add(hlen)?).ok()?;
    let mut block = Vec::with_capacity(want);
    {
        use std::io::{Read, Seek};
        let mut f = &file;
        f.seek(std::io::SeekFrom::Start(start)).ok()?;
        f.take(want as u64).read_to_end(&mut block).ok()?;
    }
    if block.len() != want {
        return None;
    }
    if !same_mac(&main, &mac(path, &block)?) {
        return None;
    }
    // Decoded in place: splitting the header off copied it (5 MB on java.base, its pages
    // faulted in a second time).
    let dlen = usize::try_from(dlen).ok()?;
    let h: Header = postcard::from_bytes(block.get(dlen..)?).ok()?;
    block.truncate(dlen);
    let bodies_fit =
        h.files.iter().flat_map(|f| &f.refs).all(|r| r.offset >= 8 && r.offset + u64::from(r.len) <= keys_at.offset);
    (h.fingerprint == fingerprint(libraries) && bodies_fit).then_some((file, h, block, keys_at))
}

/// Files a save writes between two looks at its `pause` ([`XrefEngine::save_pausing`]): on
/// the four roots a write encodes 27,115 files in about a second.
const PAUSE_EVERY: usize = 64;

/// The tail's length: the keys part's, the declarations' and the header's lengths, and the
/// two MACs.
const TAIL: usize = 8 + 8 + 8 + 32 + 32;

/// A file's references as written: its slot, what was in it, where the body went.
struct Written {
    slot: u32,
    refs: Arc<FileRefs>,
    offset: u64,
    len: u32,
    mac: [u8; 32],
}

impl XrefEngine {
    /// Lets the bodies just written live on disk instead of in memory: each slot that still
    /// holds what was written reads its references from the new file when a query needs
    /// them (the memory of a fully bound index goes back to the allocator).
    /// Moves the written bodies to disk, and compacts the key table and postings (`sorted`:
    /// the first `nkeys` keys' ids ordered by text, as written) into the form a restart reads:
    /// after a first pass, a map entry per key and a list per key otherwise stay live,
    /// scattered through the heap between what the pass freed (on the JDK, 70 MB of them).
    ///
    /// Under the index's lock only pointers move: the postings were made beforehand (`base`,
    /// from the view taken after `edits` changes: [`RefIndex::compact_prepared`]), and what is
    /// replaced (every body bound in memory, the old tables) is returned, to be freed once the
    /// lock is released (a call waited 220 ms for it after a four-roots pass, issue 56).
    fn adopt(
        &self,
        path: &Path,
        written: Vec<Written>,
        nkeys: u32,
        sorted: Vec<u32>,
        base: BasePostings,
        edits: u64,
    ) -> Option<(Vec<Written>, Vec<Arc<FileRefs>>, Replaced)> {
        let (file, _) = mji_fs::open_regular(path, u64::MAX).ok()?;
        let file = Arc::new(file);
        let mut old = Vec::with_capacity(written.len());
        let mut ix = self.refs_write().ok()?;
        for w in &written {
            let at = OnDisk::new(file.clone(), w.offset, w.len, w.mac, nkeys);
            let r = &w.refs;
            old.extend(ix.replace_same(w.slot, &w.refs, FileRefs::on_disk(r.stamp, r.cut, r.nrefs, r.nkeys, at)));
        }
        let replaced = ix.compact_prepared(sorted, base, edits);
        #[cfg(test)]
        tests::under_adopt(&written);
        drop(ix);
        Some((written, old, replaced))
    }
}

#[allow(clippy::too_many_arguments)]
fn write(
    path: &Path,
    generation: u64,
    files: Vec<ToSave>,
    link: Option<Vec<u8>>,
    key_text: String,
    key_ends: Vec<u32>,
    base: &BasePostings,
    libraries: u64,
    pause: &dyn Fn(),
) -> std::io::Result<(Vec<Written>, Vec<u32>)> {
    // Written as every file is (mji_fs::write): a new temporary file, never through a link.
    let opts = mji_fs::write::Options { create_dirs: false, ..mji_fs::write::Options::private() };
    let mut pending = mji_fs::write::pending_user(path, opts)?;
    let written = (|| {
        let mut out = std::io::BufWriter::new(pending.file());
        out.write_all(MAGIC)?;
        let mut at = MAGIC.len() as u64;
        // Slot in the index to index in the header, for the files written with references.
        let mut index_of: std::collections::HashMap<u32, u32> = std::collections::HashMap::new();
        let mut header_files = Vec::with_capacity(files.len());
        let mut written = Vec::new();
        // Declarations still encoded as a store read them are copied as they are: the names
        // table starts as that store's, so their indexes hold.
        let mut names = NameTable::default();
        // The block most files are in (the store read, or the declarations the last save
        // encoded: see `Decls::keep_encoded`).
        let seed = {
            let mut count: foldhash::HashMap<*const Block, (usize, &Arc<Block>)> = Default::default();
            for f in &files {
                if let Some((b, _)) = f.decls.encoded() {
                    count.entry(Arc::as_ptr(b)).or_insert((0, b)).0 += 1;
                }
            }
            count.into_values().max_by_key(|(n, _)| *n).map(|(_, b)| b.clone())
        }
        .and_then(|b| {
            names = NameTable::seeded(b.names())?;
            Some(b)
        });
        // First the bodies, each encoded and written in turn, then the keys part, written and
        // dropped, and only then the declarations are encoded: the write's big buffers (the
        // key table's copy and its encoding, the declarations) are never all in memory at
        // once (issue 56: the RSS rose 150-200 MB during the write after a four-roots pass).
        let mut refs_of: Vec<Option<HeaderRefs>> = Vec::with_capacity(files.len());
        for (i, f) in files.iter().enumerate() {
            if i % PAUSE_EVERY == 0 {
                pause();
            }
            let refs = match &f.refs {
                Some((slot, r)) => {
                    // A body still on disk is copied as stored (its MAC holds for the bytes).
                    let body = match (r.on_disk_at(), r.loaded()) {
                        (_, Some(b)) => postcard::to_stdvec(b).ok().and_then(|v| Some((blob_mac(&v)?, v))),
                        (Some(d), None) => d.bytes().map(|v| (d.mac, v)),
                        (None, None) => None,
                    };
                    match body {
                        Some((mac, bytes)) => {
                            out.write_all(&bytes)?;
                            let h = HeaderRefs {
                                cut: r.cut,
                                nrefs: r.nrefs,
                                nkeys: r.nkeys,
                                offset: at,
                                len: bytes.len() as u32,
                                mac,
                            };
                            at += bytes.len() as u64;
                            index_of.insert(*slot, i as u32);
                            written.push(Written { slot: *slot, refs: r.clone(), offset: h.offset, len: h.len, mac });
                            Some(h)
                        }
                        None => None,
                    }
                }
                None => None,
            };
            refs_of.push(refs);
        }
        pause();
        let nkeys = key_ends.len() as u32;
        // Each key's files by their index in the header, from the postings by slot (no list of
        // every pair: on the four roots that was tens of megabytes more during the write).
        let mut post_off = Vec::with_capacity(nkeys as usize + 1);
        let mut post_files = Vec::with_capacity(base.files.len());
        let mut one: Vec<u32> = Vec::new();
        for k in 0..nkeys {
            post_off.push(post_files.len() as u32);
            one.clear();
            one.extend(base.files_of(k).unwrap_or_default().iter().filter_map(|slot| index_of.get(slot).copied()));
            one.sort_unstable();
            one.dedup();
            post_files.extend_from_slice(&one);
        }
        post_off.push(post_files.len() as u32);
        drop(index_of);
        let key_sorted = Keys::sorted_ids(&key_text, &key_ends);
        let parts = keypart::Parts {
            text: &key_text,
            ends: &key_ends,
            sorted: &key_sorted,
            post_off: &post_off,
            post_files: &post_files,
        };
        pause();
        let (keys, table) = keypart::encode(&parts)
            .ok_or_else(|| std::io::Error::other("the key table does not fit its format, or no user key"))?;
        out.write_all(&keys)?;
        let klen = keys.len() as u64;
        // Its table is what its MAC covers, made once the main MAC is known.
        let key_table = keys[..table].to_vec();
        tracing::debug!(
            keys = klen,
            key_text = key_text.len(),
            key_ends = key_ends.len() * 4,
            postings = post_files.len() * 4,
            base = base.files.len() * 4,
            "store: the keys part written (bytes)"
        );
        drop((keys, key_text, key_ends, post_off, post_files));
        pause();
        let sorted = key_sorted;
        let mut decls: Vec<u8> = Vec::new();
        // The declarations encoded here, and where in `decls`: kept for the next save to copy.
        let mut fresh: Vec<(Decls, u32, u32)> = Vec::new();
        for (i, (f, refs)) in files.into_iter().zip(refs_of).enumerate() {
            if i % PAUSE_EVERY == 0 {
                pause();
            }
            let len = match f.decls.encoded().filter(|(b, _)| seed.as_ref().is_some_and(|s| Arc::ptr_eq(s, b))) {
                Some((_, bytes)) => {
                    decls.extend_from_slice(bytes);
                    bytes.len()
                }
                None => {
                    let d = name::encoding(&mut names, || postcard::to_stdvec(&**f.decls.get()))
                        .map_err(std::io::Error::other)?;
                    let a = u32::try_from(decls.len()).map_err(std::io::Error::other)?;
                    decls.extend_from_slice(&d);
                    let b = u32::try_from(decls.len()).map_err(std::io::Error::other)?;
                    fresh.push((f.decls.clone(), a, b));
                    d.len()
                }
            };
            header_files.push(HeaderFile {
                path: f.path.to_string_lossy().into_owned(),
                size: f.stamp.size,
                mtime_ns: f.stamp.mtime_ns,
                decls_len: u32::try_from(len).map_err(std::io::Error::other)?,
                refs,
            });
        }
        pause();
        let (name_text, name_ends) = names.parts();
        let link_len = match link {
            Some(l) => {
                decls.extend_from_slice(&l);
                Some(u32::try_from(l.len()).map_err(std::io::Error::other)?)
            }
            None => None,
        };
        let header = Header {
            fingerprint: fingerprint(libraries),
            generation,
            name_text,
            name_ends,
            nkeys,
            files: header_files,
            link: link_len,
        };
        let encoded = postcard::to_stdvec(&header).map_err(std::io::Error::other)?;
        let Header { name_text, name_ends, .. } = header;
        let (dlen, hlen) = (decls.len() as u64, encoded.len() as u64);
        tracing::debug!(
            decls = dlen - link_len.unwrap_or(0) as u64,
            link = link_len.unwrap_or(0),
            header = hlen,
            "store: the declarations and header encoded (bytes)"
        );
        decls.extend_from_slice(&encoded);
        drop(encoded);
        let unsigned = || std::io::Error::other("no user key to sign the reference index");
        let sum = mac(path, &decls).ok_or_else(unsigned)?;
        let ksum = keys_mac(path, &sum, &key_table).ok_or_else(unsigned)?;
        out.write_all(&decls)?;
        out.write_all(&klen.to_le_bytes())?;
        out.write_all(&dlen.to_le_bytes())?;
        out.write_all(&hlen.to_le_bytes())?;
        out.write_all(&ksum)?;
        out.write_all(&sum)?;
        out.flush()?;
        drop(out);
        let fresh_at = dlen as usize - link_len.unwrap_or(0) as usize;
        Ok((written, sorted, (decls, fresh_at, fresh, name_text, name_ends)))
    })();
    // A failure drops the pending file, which removes it; `commit` syncs and renames.
    let (written, sorted, (mut bytes, end, mut fresh, text, ends)) =
        written.and_then(|w| pending.commit().map(|()| w))?;
    // What was encoded here is kept (the buffer itself when most of it is, else a copy of
    // those parts), so the next save copies it: on a cold pass the JDK's declarations were
    // encoded again at every intermediate write, a quarter of each (issue 56).
    if !fresh.is_empty()
        && let Some(names) = NameTable::restore(text, ends)
    {
        let total: usize = fresh.iter().map(|(_, a, b)| (b - a) as usize).sum();
        if total * 2 >= end {
            bytes.truncate(end);
            bytes.shrink_to_fit();
        } else {
            let mut small = Vec::with_capacity(total);
            for (_, a, b) in &mut fresh {
                let at = small.len() as u32;
                small.extend_from_slice(&bytes[*a as usize..*b as usize]);
                (*a, *b) = (at, small.len() as u32);
            }
            bytes = small;
        }
        let block = Block::saved(bytes, names, path.to_path_buf());
        for (d, a, b) in &fresh {
            d.keep_encoded(&block, *a, *b);
        }
    }
    Ok((written, sorted))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::FileStamp;
    use crate::world::TypeId;

    type Hook<T> = std::cell::RefCell<Option<Box<dyn Fn(&T)>>>;

    thread_local! {
        static BEFORE_ADOPT: Hook<XrefEngine> = const { std::cell::RefCell::new(None) };
        static UNDER_ADOPT: Hook<[Written]> = const { std::cell::RefCell::new(None) };
    }

    /// Runs this thread's test hook between a save's write and its adoption (no lock held).
    pub(super) fn before_adopt(e: &XrefEngine) {
        BEFORE_ADOPT.with(|h| h.borrow().as_ref().map(|f| f(e)));
    }

    /// Runs this thread's test hook while the adoption holds the index's lock.
    pub(super) fn under_adopt(w: &[Written]) {
        UNDER_ADOPT.with(|h| h.borrow().as_ref().map(|f| f(w)));
    }

    /// Every key's text and the files its postings name that reference it (a posting may be
    /// stale: a query checks the file's references).
    fn postings_by_text(e: &XrefEngine) -> std::collections::BTreeMap<String, Vec<String>> {
        let ix = e.refs_read().expect("lock");
        let mut out = std::collections::BTreeMap::new();
        for k in 0..ix.key_table().len() {
            let mut files: Vec<String> = ix
                .candidates(&[k])
                .into_iter()
                .filter(|id| ix.get(*id).and_then(|f| f.body()).is_some_and(|b| !ix.matching(b, &[k]).is_empty()))
                .map(|id| ix.path(id).to_string_lossy().into_owned())
                .collect();
            files.sort();
            if !files.is_empty() {
                out.insert(ix.key_table().get(k).to_owned(), files);
            }
        }
        out
    }

    /// The bodies a save moves to disk are freed after the index's lock is released, not
    /// under it (after a four-roots pass freeing 4 million references there held the lock
    /// 272 ms while a call waited for it, issue 56): while the adoption holds the lock, every
    /// body written is still alive; once the save returns, none is.
    #[test]
    fn a_save_frees_the_bodies_it_moved_to_disk_after_releasing_the_index() {
        let dir = tempfile::tempdir().expect("tempdir");
        let stamps = put(dir.path(), FILES);
        let e = XrefEngine::with_store(dir.path().join("xref.bin"));
        let (linked, _) = e.world(&stamps);
        let paths: Vec<Arc<Path>> = stamps.iter().map(|s| s.path.clone()).collect();
        assert_eq!(e.bind_all_parallel(&linked, &paths, 100, &|| false), 3);
        let bodies: Vec<std::sync::Weak<FileRefs>> = {
            let ix = e.refs_read().expect("lock");
            paths.iter().map(|p| Arc::downgrade(ix.get(ix.id_of(p).expect("id")).expect("bound"))).collect()
        };
        let alive = Arc::new(std::sync::atomic::AtomicUsize::new(usize::MAX));
        let seen = alive.clone();
        let weak = bodies.clone();
        UNDER_ADOPT.with(|h| {
            *h.borrow_mut() = Some(Box::new(move |_: &[Written]| {
                seen.store(weak.iter().filter(|b| b.upgrade().is_some()).count(), Relaxed);
            }))
        });
        assert!(matches!(e.save(), Some(Ok(3))));
        UNDER_ADOPT.with(|h| h.borrow_mut().take());
        assert_eq!(alive.load(Relaxed), 3, "bodies freed while the adoption held the index's lock");
        assert!(bodies.iter().all(|b| b.upgrade().is_none()), "a body moved to disk is still in memory");
        assert!(!e.refs_of(&linked, &paths[1]).expect("read back").is_empty());
    }

    /// The postings a save compacts are made before it takes the index's lock, from its view;
    /// a file bound between the view and the adoption keeps its postings (the compaction is
    /// then made under the lock, as before): every key names the same files as when all were
    /// bound before the save. The file bound meanwhile adds no key, only postings: an edit
    /// that makes it extend `a.Sub`, a key the others made.
    #[test]
    fn a_file_bound_during_a_save_keeps_its_postings_through_the_compaction() {
        let dir = tempfile::tempdir().expect("tempdir");
        let stamps = put(dir.path(), FILES);
        let mut files: Vec<(&str, &str)> = FILES.to_vec();
        files[2].1 = "package b; public class Other extends a.Sub { void run(Integer i) { } void other() { } }";
        let edited = {
            let mut e = put(&dir.path().join("x"), &files);
            for (s, o) in e.iter_mut().zip(&stamps) {
                s.path = o.path.clone();
            }
            e[2].stamp.mtime_ns += 100;
            e
        };
        let paths: Vec<Arc<Path>> = stamps.iter().map(|s| s.path.clone()).collect();
        std::fs::write(&paths[2], files[2].1).expect("write");

        let all = XrefEngine::with_store(dir.path().join("all.bin"));
        let (w, _) = all.world(&edited);
        assert_eq!(all.bind_all_parallel(&w, &paths, 100, &|| false), 3);
        assert!(matches!(all.save(), Some(Ok(3))));
        let want = postings_by_text(&all);
        assert!(want.get("a.Sub").is_some_and(|f| f.iter().any(|p| p.ends_with("Other.java"))), "{want:?}");

        let e = XrefEngine::with_store(dir.path().join("xref.bin"));
        std::fs::write(&paths[2], FILES[2].1).expect("write");
        let (first, _) = e.world(&stamps);
        assert_eq!(e.bind_all_parallel(&first, &paths, 100, &|| false), 3);
        std::fs::write(&paths[2], files[2].1).expect("write");
        let (linked, _) = e.world(&edited);
        // The edit dropped the files that mention what it changed: bound again, all but it.
        e.bind_all_parallel(&linked, &paths[..2], 100, &|| false);
        let keys = e.refs_read().expect("lock").key_table().len();
        let last = paths[2].clone();
        BEFORE_ADOPT.with(|h| {
            *h.borrow_mut() = Some(Box::new(move |e: &XrefEngine| {
                assert_eq!(e.bind_all_parallel(&linked, std::slice::from_ref(&last), 100, &|| false), 1);
            }))
        });
        assert!(matches!(e.save(), Some(Ok(3))));
        BEFORE_ADOPT.with(|h| h.borrow_mut().take());
        assert_eq!(e.refs_read().expect("lock").key_table().len(), keys, "the file bound meanwhile added a key");
        assert_eq!(postings_by_text(&e), want);
        // And with nothing bound meanwhile, the prepared postings are the same.
        assert!(matches!(e.save(), Some(Ok(3))));
        assert_eq!(postings_by_text(&e), want);
    }

    const FILES: &[(&str, &str)] = &[
        ("a/Base.java", "package a; public class Base<T> { void run(T t) { } int size; }"),
        (
            "a/Sub.java",
            "package a; import java.util.List; public class Sub extends Base<String> implements Runnable { public void run() { } List<String> all; class In extends Sub { } }",
        ),
        (
            "b/Other.java",
            "package b; public class Other extends a.Base<Integer> { void run(Integer i) { } void other() { } }",
        ),
    ];

    fn put(dir: &Path, files: &[(&str, &str)]) -> Vec<FileStamp> {
        files
            .iter()
            .enumerate()
            .map(|(i, (rel, text))| {
                let p = dir.join(rel);
                std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
                std::fs::write(&p, text).expect("write");
                // Stamps long past, so the save keeps every file.
                FileStamp {
                    path: Arc::from(p.as_path()),
                    stamp: Stamp { size: text.len() as u64, mtime_ns: 1 + i as i128 },
                }
            })
            .collect()
    }

    /// What the answers read from a world, type by type, in a comparable form.
    /// [`FILES`] in a new directory, every one bound and saved to its `xref.bin`.
    struct Saved {
        stamps: Vec<FileStamp>,
        store: std::path::PathBuf,
        /// The engine that wrote the store, and its world.
        first: XrefEngine,
        linked: Arc<World>,
        paths: Vec<Arc<Path>>,
    }

    fn saved() -> (tempfile::TempDir, Saved) {
        let dir = tempfile::tempdir().expect("tempdir");
        let stamps = put(dir.path(), FILES);
        let store = dir.path().join("xref.bin");
        let first = XrefEngine::with_store(store.clone());
        let (linked, _) = first.world(&stamps);
        let paths: Vec<Arc<Path>> = stamps.iter().map(|s| s.path.clone()).collect();
        assert_eq!(first.bind_all_parallel(&linked, &paths, 100, &|| false), 3);
        assert!(matches!(first.save(), Some(Ok(3))));
        (dir, Saved { stamps, store, first, linked, paths })
    }

    fn answers(w: &World) -> String {
        let mut out = String::new();
        for i in 0..w.type_count() as u32 {
            let d = w.decl(TypeId(i));
            let methods: Vec<&[TypeId]> = d.methods.iter().map(|m| w.types_with_method(&m.name)).collect();
            out += &format!(
                "{} {:?} {:?} {:?} {methods:?} {:?}\n",
                d.fqn,
                w.by_fqn(&d.fqn),
                w.supers(TypeId(i)),
                w.direct_subtypes(&d.fqn),
                w.types_named(&d.simple)
            );
        }
        out
    }

    /// The compaction after a pass reads the store just written holding no lock: calls take
    /// the state meanwhile (on the JDK the read takes a second or more, which a call arriving
    /// then waited for). What was read replaces the state only when nothing changed since the
    /// save; the answers after it are the same.
    #[test]
    fn a_reload_reads_the_store_holding_no_lock_and_keeps_a_state_changed_meanwhile() {
        let dir = tempfile::tempdir().expect("tempdir");
        let stamps = put(dir.path(), FILES);
        let e = XrefEngine::with_store(dir.path().join("xref.bin"));
        let (linked, _) = e.world(&stamps);
        let paths: Vec<Arc<Path>> = stamps.iter().map(|s| s.path.clone()).collect();
        assert_eq!(e.bind_all_parallel(&linked, &paths, 100, &|| false), 3);
        assert!(matches!(e.save(), Some(Ok(3))));
        let before = e.bound();
        // The read waits on the library types (its first step) while the test holds them.
        let libraries = e.libraries.write().expect("lock");
        std::thread::scope(|s| {
            let reload = s.spawn(|| e.reload());
            std::thread::sleep(std::time::Duration::from_millis(200));
            let free = (0..200).any(|_| {
                let got = e.state.try_lock().is_ok();
                if !got {
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
                got
            });
            // A file bound meanwhile: what the reload reads is no longer the state.
            e.dirty.store(true, Relaxed);
            drop(libraries);
            assert!(!reload.join().expect("reload"), "a state changed during the read is kept");
            assert!(free, "the state's lock was held while the store was read");
        });
        assert!(Arc::ptr_eq(&e.world(&stamps).0, &linked), "the world in memory kept");
        assert!(matches!(e.save(), Some(Ok(3))));
        assert!(e.reload(), "nothing changed since the save: read back");
        let (w, _) = e.world(&stamps);
        assert!(!Arc::ptr_eq(&w, &linked), "the world read back");
        assert_eq!(answers(&w), answers(&linked));
        assert_eq!(e.bound(), before, "every file's references, read back");
    }

    /// The declarations a save encoded are kept encoded, and the next save copies them: on a
    /// cold pass the intermediate writes encoded every file's declarations again (issue 56).
    /// What a restart reads is the same, after an edit too.
    #[test]
    fn declarations_a_save_encoded_are_copied_by_the_next_and_read_back_alike() {
        let dir = tempfile::tempdir().expect("tempdir");
        let stamps = put(dir.path(), FILES);
        let store = dir.path().join("xref.bin");
        let e = XrefEngine::with_store(store.clone());
        let (linked, _) = e.world(&stamps);
        let kept = |w: &World| w.files.iter().filter(|f| f.cell().encoded().is_some()).count();
        assert_eq!(kept(&linked), 0, "read from the files: nothing encoded yet");
        let paths: Vec<Arc<Path>> = stamps.iter().map(|s| s.path.clone()).collect();
        assert_eq!(e.bind_all_parallel(&linked, &paths, 100, &|| false), 3);
        assert!(matches!(e.save(), Some(Ok(3))));
        assert_eq!(kept(&linked), 3, "kept as the save encoded them");
        assert!(linked.files.iter().all(|f| f.cell().block().is_none()), "never decoded from");
        let first = std::fs::read(&store).expect("read");
        e.dirty.store(true, Relaxed);
        assert!(matches!(e.save(), Some(Ok(3))));
        assert_eq!(std::fs::read(&store).expect("read"), first, "the copy writes the same store");

        // A file edited between two saves: its new declarations encoded, the others copied.
        let mut files: Vec<(&str, &str)> = FILES.to_vec();
        files[2].1 = "package b; public class Other extends a.Sub { void other() { } String added; }";
        let mut edited = put(dir.path(), &files);
        edited[2].stamp.mtime_ns += 100;
        let (w, _) = e.world(&edited);
        assert_eq!(kept(&w), 2, "the edited file's declarations are new");
        assert!(matches!(e.save(), Some(Ok(3))));
        assert_eq!(kept(&w), 3);
        let restart = XrefEngine::with_store(store.clone());
        let (back, _) = restart.world(&edited);
        let fresh = XrefEngine::new().world(&edited).0;
        assert_eq!(answers(&back), answers(&fresh));
        assert_eq!(back.direct_subtypes("a.Sub").len(), 2);
    }

    /// A preload that is asked for the references reads the keys part on a thread of its own
    /// while the world is restored: the index is in place before its first use, and holds
    /// what one read on first use holds.
    #[test]
    fn a_preload_with_the_references_reads_the_keys_part_beside_the_world() {
        let (_dir, Saved { stamps, store, first, paths, .. }) = saved();

        let (_, eager) = XrefEngine::with_store(store.clone()).read_state(true).expect("the store reads");
        assert!(matches!(eager, PendingRefs::Restored(Some(_))), "the keys part read with the world");
        let (_, lazy) = XrefEngine::with_store(store.clone()).read_state(false).expect("the store reads");
        assert!(matches!(lazy, PendingRefs::Stored(_)), "the keys part left to the index's first use");

        let [eager, lazy] =
            [crate::engine::Preload::WithReferences, crate::engine::Preload::ThenReferences].map(|what| {
                let e = XrefEngine::with_store(store.clone());
                e.preload(what);
                e
            });
        assert_eq!(eager.bound(), first.bound());
        assert_eq!(eager.bound(), lazy.bound());
        let found = |e: &XrefEngine| {
            let (w, _) = e.world(&stamps);
            let found = e.find_in_files(&w, &paths, &["Base".to_owned()], &["a.Base"], &|_| true);
            let refs: Vec<String> = found
                .files
                .iter()
                .flat_map(|(p, refs)| refs.iter().map(move |r| format!("{}:{}:{}", p.display(), r.line, r.column)))
                .collect();
            assert!(!refs.is_empty());
            refs
        };
        assert_eq!(found(&eager), found(&first));
        assert_eq!(found(&eager), found(&lazy));
    }

    #[test]
    fn a_restart_restores_the_linked_world_and_decodes_only_what_a_query_reads() {
        let (dir, Saved { stamps, store, first, linked, .. }) = saved();

        let restart = XrefEngine::with_store(store.clone());
        let (w, _) = restart.world(&stamps);
        assert_eq!(w.decoded_files(), 0, "no file's declarations decoded to link the world");
        assert!(restart.pending.lock().expect("lock").is_some(), "the key table and postings not read yet");
        assert_eq!(restart.bound(), first.bound(), "every file's references, once the index is used");
        assert!(restart.pending.lock().expect("lock").is_none());
        let keys = |w: &World| {
            crate::query::definition::candidates(w, "other", None).into_iter().map(|c| c.key).collect::<Vec<_>>()
        };
        assert_eq!(w.types_named("Sub"), ["a.Sub"]);
        assert_eq!(w.decoded_files(), 1, "a search by type name reads the files of that name");
        assert_eq!(keys(&w), ["b.Other#other()"]);
        // The file declaring `other`, and its supertype's, where the types its methods' parameters
        // name are looked up.
        assert_eq!(w.decoded_files(), 3);
        assert_eq!(answers(&w), answers(&linked), "the world linked anew answers alike");

        // A method renamed (a member edit: relinked in place) and a type added (linked anew)
        // after a restart: the answers are those of a world linked from the files.
        let edits: &[(&str, &str)] = &[
            (
                "b/Other.java",
                "package b; public class Other extends a.Base<Integer> { void run(Integer i) { } void renamed() { } }",
            ),
            ("b/Added.java", "package b; class Added extends a.Sub { void other() { } }"),
        ];
        for n in 1..=edits.len() {
            let mut files: Vec<(&str, &str)> =
                FILES.iter().filter(|f| !edits[..n].iter().any(|e| e.0 == f.0)).copied().collect();
            files.extend_from_slice(&edits[..n]);
            let restart = XrefEngine::with_store(store.clone());
            let mut stamps = put(dir.path(), &files);
            stamps
                .iter_mut()
                .filter(|s| edits[..n].iter().any(|e| s.path.ends_with(e.0)))
                .for_each(|s| s.stamp.mtime_ns += 100);
            let (w, _) = restart.world(&stamps);
            let fresh = XrefEngine::new().world(&stamps).0;
            assert_eq!(answers(&w), answers(&fresh), "after {n} edit(s)");
            assert_eq!(keys(&w), keys(&fresh));
            assert_eq!(w.direct_subtypes("a.Sub").len(), 1 + (n > 1) as usize);
        }
    }

    /// A restart given the files in the order it stored them compares them one by one (no
    /// lookup by path), and a scope of the same `Arc`s finds each file's stamp and slot by its
    /// address; a stamp that differs, a path written another way, another order or a file
    /// added is seen as a lookup would see it.
    #[test]
    fn a_restart_compares_the_files_in_the_stored_order_and_sees_every_difference() {
        let (dir, Saved { stamps, store, linked, paths, .. }) = saved();
        let restart = XrefEngine::with_store(store.clone());
        let (w, inv) = restart.world_with(&stamps);
        assert_eq!((inv.changed, answers(&w.0)), (0, answers(&linked)));
        let known = restart.stamps(&paths);
        assert_eq!(
            known.iter().map(|k| k.stamp).collect::<Vec<_>>(),
            stamps.iter().map(|s| Some(s.stamp)).collect::<Vec<_>>()
        );
        assert!(known.iter().enumerate().all(|(i, k)| k.place.is_some_and(|(_, at)| at as usize == i)), "{known:?}");
        let ix = restart.refs().read().expect("index");
        assert_eq!(restart.slots(&ix, &paths, &known).to_vec(), [Some(0), Some(1), Some(2)]);
        // Paths of the same text in other allocations: looked up, the same answers.
        let copies: Vec<Arc<Path>> = paths.iter().map(|p| Arc::from(&**p)).collect();
        let looked_up = restart.stamps(&copies);
        assert!(looked_up.iter().all(|k| k.place.is_none()));
        assert_eq!(
            looked_up.iter().map(|k| k.stamp).collect::<Vec<_>>(),
            known.iter().map(|k| k.stamp).collect::<Vec<_>>()
        );
        assert_eq!(restart.slots(&ix, &copies, &looked_up).to_vec(), [Some(0), Some(1), Some(2)]);
        drop(ix);
        // The second file's stamp changed: it is read again, and the order forgotten.
        let mut changed = stamps.clone();
        changed[1].stamp.mtime_ns += 100;
        let restart = XrefEngine::with_store(store.clone());
        let (_, inv) = restart.world_with(&changed);
        assert_eq!(inv.changed, 1);
        let paths_now: Vec<Arc<Path>> = changed.iter().map(|s| s.path.clone()).collect();
        assert!(restart.stamps(&paths_now).iter().all(|k| k.place.is_none()));
        assert_eq!(restart.stamps(&paths_now)[1].stamp, Some(changed[1].stamp));
        // A file written `a/./Sub.java`, or the files in another order: looked up, the same.
        let restart = XrefEngine::with_store(store.clone());
        let mut other = stamps.clone();
        other[1].path = Arc::from(dir.path().join("a/./Sub.java").as_path());
        let (w, inv) = restart.world_with(&other);
        assert_eq!((inv.changed, answers(&w.0)), (0, answers(&linked)));
        other.reverse();
        let (w, inv) = restart.world_with(&other);
        assert_eq!((inv.changed, answers(&w.0)), (0, answers(&linked)));
        // A file more: added.
        let mut more = stamps.clone();
        more.extend(put(dir.path(), &[("c/More.java", "package c; class More { }")]));
        let restart = XrefEngine::with_store(store);
        let (w, inv) = restart.world_with(&more);
        assert_eq!((inv.changed, w.0.by_fqn("c.More").is_some()), (1, true));
    }

    /// Under a memory budget, the bodies a search read back from the store are dropped again,
    /// least recently used first, and the next search reads them anew with the same answer.
    #[test]
    fn bodies_read_back_are_dropped_over_the_memory_budget() {
        let (_dir, Saved { stamps, store, paths, .. }) = saved();
        let search = |e: &XrefEngine, w: &World| {
            let found = e.find_in_files(w, &paths, &["Base".to_owned()], &["a.Base"], &|_| true);
            let loaded = e.refs().read().expect("lock").loaded_from_disk();
            (found.files.iter().map(|(p, r)| (p.clone(), r.len())).collect::<Vec<_>>(), loaded)
        };
        let unbounded = XrefEngine::with_store(store.clone());
        let (w, _) = unbounded.world(&stamps);
        let (answer, loaded) = search(&unbounded, &w);
        assert_eq!(answer.len(), 2, "{answer:?}");
        assert_eq!(loaded, 2, "the bodies read are kept without a budget");

        let bounded = XrefEngine::with_store(store.clone());
        bounded.set_memory_budget(1);
        let (w, _) = bounded.world(&stamps);
        for round in 0..2 {
            assert_eq!(search(&bounded, &w), (answer.clone(), 0), "round {round}");
        }
    }

    /// A key table that does not read as written, its text altered (its chunk's MAC fails) or
    /// its table garbled behind a valid MAC (a bug of the writer): the answer is that of the
    /// files bound again, never a panic or an empty answer, and the store is removed.
    #[test]
    fn a_damaged_key_table_is_dropped_and_every_file_bound_again() {
        let dir = tempfile::tempdir().expect("tempdir");
        let stamps = put(dir.path(), FILES);
        let store = dir.path().join("xref.bin");
        let paths: Vec<Arc<Path>> = stamps.iter().map(|s| s.path.clone()).collect();
        let first = XrefEngine::with_store(store.clone());
        let (w, _) = first.world(&stamps);
        assert_eq!(first.bind_all_parallel(&w, &paths, 100, &|| false), 3);
        let keys: Vec<String> = {
            let ix = first.refs().read().expect("lock");
            (0..ix.key_table().len()).map(|i| ix.key_table().get(i).to_owned()).collect()
        };
        let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
        let answer = |e: &XrefEngine| {
            let (w, _) = e.world(&stamps);
            e.find_in_files(&w, &paths, &[], &keys, &|_| true).files
        };
        let want = answer(&first);
        assert_eq!(want.len(), 2, "Sub and Other reference keys: {want:?}");
        assert!(matches!(first.save(), Some(Ok(3))));
        let bytes = std::fs::read(&store).expect("read");
        // Where the keys part and its table lie, from the tail.
        let word = |b: &[u8], at: usize| u64::from_le_bytes(b[at..at + 8].try_into().expect("8"));
        let end = bytes.len() - TAIL;
        let (klen, dlen, hlen) = (word(&bytes, end), word(&bytes, end + 8), word(&bytes, end + 16));
        let start = end - (klen + dlen + hlen) as usize;
        let u32_at = |at: usize| u32::from_le_bytes(bytes[start + at..start + at + 4].try_into().expect("4")) as usize;
        let (n, m, c) = (u32_at(0), u32_at(4), u32_at(8));
        let table = 16 + 4 * (3 * n + 1 + m + c) + 32 * c;
        let resign = |b: &mut Vec<u8>| {
            let main: [u8; 32] = b[b.len() - 32..].try_into().expect("32");
            let ksum = keys_mac(&store, &main, &b[start..start + table]).expect("mac");
            let at = b.len() - 64;
            b[at..at + 32].copy_from_slice(&ksum);
        };
        let garblings = [
            "its text altered",
            "every end past the text",
            "every id in key order out of range",
            "every posting past the files",
        ];
        for (i, what) in garblings.into_iter().enumerate() {
            let mut altered = bytes.clone();
            match i {
                0 => altered[start + table + 2] ^= 0x20,
                1 => altered[start + 16..start + 16 + 4 * n].fill(0xff),
                2 => altered[start + 16 + 4 * n..start + 16 + 8 * n].fill(0xff),
                _ => altered[start + 16 + 4 * (3 * n + 1)..start + 16 + 4 * (3 * n + 1 + m)].fill(0xff),
            }
            if i > 0 {
                resign(&mut altered);
            }
            std::fs::write(&store, &altered).expect("write");
            let restart = XrefEngine::with_store(store.clone());
            assert_eq!(answer(&restart), want, "{what}");
            assert!(!restart.refs().read().expect("lock").is_damaged(), "{what}: the index was dropped");
            assert!(!store.exists(), "{what}: the store is removed");
            // The files bound again are written whole, and read back alike.
            assert!(matches!(restart.save(), Some(Ok(3))), "{what}");
            assert_eq!(answer(&XrefEngine::with_store(store.clone())), want, "{what}: the store rewritten");
        }
    }

    /// Rewrites the store's link with `f` and signs the store again as this user's runs do: a
    /// test-only writer, leaving what a bug of this build's encoding would.
    fn rewrite_link(store: &Path, f: impl FnOnce(&mut Vec<u8>)) {
        let bytes = std::fs::read(store).expect("read");
        let end = bytes.len() - TAIL;
        let len = |i: usize| u64::from_le_bytes(bytes[end + 8 * i..end + 8 * i + 8].try_into().expect("8")) as usize;
        let (klen, dlen, hlen) = (len(0), len(1), len(2));
        let start = end - hlen - dlen;
        let mut h: Header = postcard::from_bytes(&bytes[end - hlen..end]).expect("header");
        let link_at = start + dlen - h.link.expect("a link") as usize;
        let mut link = bytes[link_at..start + dlen].to_vec();
        f(&mut link);
        h.link = Some(link.len() as u32);
        let header = postcard::to_stdvec(&h).expect("header");
        let mut block = bytes[start..link_at].to_vec();
        block.extend_from_slice(&link);
        let dlen = block.len() as u64;
        block.extend_from_slice(&header);
        let sum = mac(store, &block).expect("key");
        let ksum = keys_mac(store, &sum, &bytes[start - klen..start]).expect("key");
        let mut out = bytes[..start].to_vec();
        out.extend_from_slice(&block);
        for n in [klen as u64, dlen, header.len() as u64] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        out.extend_from_slice(&ksum);
        out.extend_from_slice(&sum);
        std::fs::write(store, out).expect("write");
    }

    #[test]
    fn a_link_that_does_not_read_behind_a_valid_mac_is_linked_anew() {
        let dir = tempfile::tempdir().expect("tempdir");
        let stamps = put(dir.path(), FILES);
        let store = dir.path().join("xref.bin");
        let first = XrefEngine::with_store(store.clone());
        let (linked, _) = first.world(&stamps);
        assert!(matches!(first.save(), Some(Ok(3))));
        let saved = std::fs::read(&store).expect("read");
        // The files' number of types (4 bytes and one u32 per file), then the simple names'
        // text (its length, then its first byte).
        let first_name = 4 + 4 * FILES.len() + 4;
        type Damage = Box<dyn Fn(&mut Vec<u8>)>;
        let damage: [(&str, Damage); 4] = [
            ("none", Box::new(|_| {})),
            ("truncated", Box::new(|l| l.truncate(l.len() - 3))),
            ("a name not UTF-8", Box::new(move |l| l[first_name] = 0xff)),
            ("a count past the end", Box::new(|l| l[..4].copy_from_slice(&u32::MAX.to_le_bytes()))),
        ];
        for (what, f) in damage {
            std::fs::write(&store, &saved).expect("write");
            rewrite_link(&store, f);
            let restart = XrefEngine::with_store(store.clone());
            let (w, _) = restart.world(&stamps);
            let decoded = if what == "none" { 0 } else { 3 };
            assert_eq!(w.decoded_files(), decoded, "{what}: restored, or linked from every file's declarations");
            assert_eq!(answers(&w), answers(&linked), "{what}");
        }
    }

    #[test]
    fn a_store_without_a_link_or_with_one_that_does_not_fit_is_linked_anew() {
        let dir = tempfile::tempdir().expect("tempdir");
        let stamps = put(dir.path(), FILES);
        let store = dir.path().join("xref.bin");
        let first = XrefEngine::with_store(store.clone());
        let (linked, _) = first.world(&stamps);
        // A link of other files than those the world holds is not written.
        let mut other = (*first.state.lock().expect("lock").world.clone().expect("world")).without_memos();
        other.files.pop();
        first.state.lock().expect("lock").world = Some(Arc::new(other));
        assert!(matches!(first.save(), Some(Ok(3))));
        let restart = XrefEngine::with_store(store);
        let (w, _) = restart.world(&stamps);
        assert_eq!(w.decoded_files(), 3, "linked from every file's declarations");
        assert_eq!(answers(&w), answers(&linked));
    }
}
