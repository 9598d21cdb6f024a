//! The reference index: every bound file's references, packed against one table of target
//! keys, with postings from each key to the files that reference it (a query reads only the
//! files of its target's keys) and each file's identifier words (an edit that changes a
//! declaration drops only the files that mention one of the names it touched).

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};

use crate::bind::DepthCut;
use crate::index::keypart::KeyPart;
use crate::{Caller, CallerKind, Category, Confidence, Ref, RefKind};
use mji_fs::stamp::Stamp;

/// The most references kept bound (about 16 bytes each, plus 4 per target); past it, further
/// files are bound per query and not kept.
pub(crate) const MAX_KEPT_REFS: usize = 12_000_000;

/// One reference, packed: its targets are `ids[first..first + count]`, indexes into the key
/// table.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub(crate) struct PackedRef {
    pub line: u32,
    pub column: u32,
    pub first: u32,
    pub count: u16,
    pub kind: RefKind,
    pub category: Category,
    pub confidence: Confidence,
    /// [`Ref::via_override`].
    pub via_override: bool,
}

/// What a file's references are, apart from their stamp: the part a restart reads only when
/// a query needs the file.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct RefsBody {
    /// Key ids, `refs[i]` owning `ids[first..first + count]`.
    pub ids: Box<[u32]>,
    pub refs: Box<[PackedRef]>,
    /// [`word_hash`]es of every identifier in the file's text, sorted, distinct.
    pub words: Box<[u32]>,
    /// Each run of references written in one member: `refs[first..]` up to the next span's
    /// `first` have that caller, sorted by `first`.
    pub callers: Box<[CallerSpan]>,
}

/// A run of references with one caller ([`Ref::caller`], [`Ref::within`]).
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub(crate) struct CallerSpan {
    pub first: u32,
    /// The caller's key id, [`NO_CALLER`] when none.
    pub key: u32,
    pub kind: CallerKind,
    pub within: u8,
}

pub(crate) const NO_CALLER: u32 = u32::MAX;

impl RefsBody {
    fn targets(&self, p: &PackedRef) -> &[u32] {
        &self.ids[p.first as usize..p.first as usize + p.count as usize]
    }

    fn heap_bytes(&self) -> usize {
        self.ids.len() * 4
            + self.refs.len() * std::mem::size_of::<PackedRef>()
            + self.words.len() * 4
            + self.callers.len() * std::mem::size_of::<CallerSpan>()
    }

    /// The index in `callers` of the span of the reference at `i`, if any.
    fn span_of(&self, i: usize) -> Option<usize> {
        self.callers.partition_point(|s| s.first as usize <= i).checked_sub(1)
    }

    /// The distinct key ids the file references, sorted.
    fn distinct_keys(&self) -> Vec<u32> {
        let mut d: Vec<u32> = self.ids.to_vec();
        d.sort_unstable();
        d.dedup();
        d
    }

    /// Whether it is what the writer packed: targets inside `ids`, ids inside a key table of
    /// `keys` entries, words sorted.
    fn well_formed(&self, keys: u32) -> bool {
        self.ids.iter().all(|i| *i < keys)
            && self.refs.iter().all(|r| r.first as usize + r.count as usize <= self.ids.len())
            && self.words.windows(2).all(|w| w[0] < w[1])
            && self.callers.windows(2).all(|w| w[0].first < w[1].first)
            && self.callers.iter().all(|c| c.key == NO_CALLER || c.key < keys)
    }
}

/// Where a file's [`RefsBody`] lies in a store file: read (and checked against its MAC, which
/// the store's MAC-checked table holds) on first use.
pub(crate) struct OnDisk {
    pub file: Arc<std::fs::File>,
    pub offset: u64,
    pub len: u32,
    pub mac: [u8; 32],
    /// The size of the key table the body's ids index.
    pub keys: u32,
    cell: OnceLock<Option<RefsBody>>,
    /// When the body was last used ([`USE_CLOCK`]'s tick): the least recently used bodies are
    /// the first dropped when the kept bodies are over the memory budget.
    used: std::sync::atomic::AtomicU64,
}

/// A tick per use of a body read back from a store, for least-recently-used eviction.
static USE_CLOCK: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

impl OnDisk {
    pub fn new(file: Arc<std::fs::File>, offset: u64, len: u32, mac: [u8; 32], keys: u32) -> OnDisk {
        OnDisk { file, offset, len, mac, keys, cell: OnceLock::new(), used: Default::default() }
    }

    /// The same place on disk, its body not read (what eviction leaves).
    fn unread(&self) -> OnDisk {
        OnDisk::new(self.file.clone(), self.offset, self.len, self.mac, self.keys)
    }

    /// The body's bytes as stored, when they read whole and their MAC holds.
    pub fn bytes(&self) -> Option<Vec<u8>> {
        let mut b = vec![0u8; self.len as usize];
        mji_fs::read_exact_at(&self.file, &mut b, self.offset).ok()?;
        mji_fs::provenance::same_mac(&self.mac, &blob_mac(&b)?).then_some(b)
    }

    fn read(&self) -> Option<RefsBody> {
        let body: RefsBody = postcard::from_bytes(&self.bytes()?).ok()?;
        body.well_formed(self.keys).then_some(body)
    }
}

enum Body {
    Mem(RefsBody),
    Disk(OnDisk),
}

/// A file's references for its stamp: the stamp, counts and depth cut always in memory, the
/// references and words in memory or, read back from a store, on disk until first used.
pub(crate) struct FileRefs {
    pub stamp: Stamp,
    /// Where the binder's depth limit cut the file short: its references are incomplete.
    pub cut: Option<DepthCut>,
    /// How many references, and how many distinct keys they target.
    pub nrefs: u32,
    pub nkeys: u32,
    body: Body,
}

impl FileRefs {
    pub fn in_memory(stamp: Stamp, cut: Option<DepthCut>, body: RefsBody) -> FileRefs {
        let nkeys = body.distinct_keys().len() as u32;
        FileRefs { stamp, cut, nrefs: body.refs.len() as u32, nkeys, body: Body::Mem(body) }
    }

    /// A file whose body stays in a store file until used.
    pub fn on_disk(stamp: Stamp, cut: Option<DepthCut>, nrefs: u32, nkeys: u32, at: OnDisk) -> FileRefs {
        FileRefs { stamp, cut, nrefs, nkeys, body: Body::Disk(at) }
    }

    /// The references, read from the store on first use (and kept); `None` when the store's
    /// bytes are unreadable or not what was written (the file is then bound again).
    pub fn body(&self) -> Option<&RefsBody> {
        match &self.body {
            Body::Mem(b) => Some(b),
            Body::Disk(d) => {
                d.used.store(USE_CLOCK.fetch_add(1, Relaxed) + 1, Relaxed);
                d.cell.get_or_init(|| d.read()).as_ref()
            }
        }
    }

    /// `f` of the body, without keeping a body read from disk for it.
    fn peek<R>(&self, f: impl FnOnce(&RefsBody) -> R) -> Option<R> {
        match &self.body {
            Body::Mem(b) => Some(f(b)),
            Body::Disk(d) => match d.cell.get() {
                Some(b) => b.as_ref().map(f),
                None => d.read().as_ref().map(f),
            },
        }
    }

    /// Where the body lies on disk, for a store writer that copies it unread.
    pub fn on_disk_at(&self) -> Option<&OnDisk> {
        match &self.body {
            Body::Disk(d) => Some(d),
            Body::Mem(_) => None,
        }
    }

    /// The body when it is in memory (bound here or already read back).
    pub fn loaded(&self) -> Option<&RefsBody> {
        match &self.body {
            Body::Mem(b) => Some(b),
            Body::Disk(d) => d.cell.get().and_then(|b| b.as_ref()),
        }
    }

    fn heap_bytes(&self) -> usize {
        self.loaded().map_or(0, RefsBody::heap_bytes)
    }

    /// Whether the file's text has one of these words as an identifier (yes when its body
    /// cannot be read: invalidation and the cut-short report then err on the safe side).
    pub fn mentions(&self, words: &[u32]) -> bool {
        self.peek(|b| words.iter().any(|w| b.words.binary_search(w).is_ok())).unwrap_or(true)
    }
}

/// The hash of an identifier as [`words_of`] records it.
pub(crate) fn word_hash(w: &[u8]) -> u32 {
    // FNV-1a: stable across runs (the index is persisted).
    let mut h: u32 = 0x811c_9dc5;
    for b in w {
        h = (h ^ u32::from(*b)).wrapping_mul(0x0100_0193);
    }
    h
}

/// Every identifier of a Java text (bytes that are ASCII letters, digits, `_`, `$` or
/// non-ASCII, starting with a non-digit), hashed, sorted and distinct. A superset of the
/// names the text can mention, which is what invalidation needs.
pub(crate) fn words_of(bytes: &[u8]) -> Box<[u32]> {
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80;
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if ident(bytes[i]) {
            let start = i;
            while i < bytes.len() && ident(bytes[i]) {
                i += 1;
            }
            if !bytes[start].is_ascii_digit() {
                out.push(word_hash(&bytes[start..i]));
            }
        } else {
            i += 1;
        }
    }
    out.sort_unstable();
    out.dedup();
    out.into()
}

/// The key table: every key's text in one string (no allocation per key), found through a
/// sorted permutation for the keys read back or last saved and a map for those added since;
/// or, read back from a store, the store's table read in place (see [`crate::index::keypart`]) until
/// a key is added.
#[derive(Default)]
pub(crate) struct Keys {
    /// The table as a store holds it; the fields below are then empty.
    stored: Option<Arc<KeyPart>>,
    text: String,
    /// Key `i` is `text[ends[i - 1]..ends[i]]` (from 0 for the first).
    ends: Vec<u32>,
    /// Ids of the first `sorted.len()` keys, ordered by their text.
    sorted: Vec<u32>,
    added: HashMap<Box<str>, u32>,
}

impl Keys {
    /// A table read back: `None` unless the parts fit together.
    pub fn restore(text: String, ends: Vec<u32>, sorted: Vec<u32>) -> Option<Keys> {
        Keys::fits(&text, &ends, &sorted).then_some(Keys { stored: None, text, ends, sorted, added: HashMap::new() })
    }

    /// Whether the parts of a table fit together.
    pub fn fits(text: &str, ends: &[u32], sorted: &[u32]) -> bool {
        let n = ends.len() as u32;
        ends.windows(2).all(|w| w[0] <= w[1])
            && ends.last().is_none_or(|e| *e as usize == text.len())
            && ends.iter().all(|e| text.is_char_boundary(*e as usize))
            && sorted.len() == ends.len()
            && sorted.iter().all(|i| *i < n)
    }

    /// The table a store holds, read in place.
    pub fn stored(part: Arc<KeyPart>) -> Keys {
        Keys { stored: Some(part), ..Keys::default() }
    }

    /// Whether a read of the stored table failed (the index is then dropped).
    fn is_damaged(&self) -> bool {
        self.stored.as_ref().is_some_and(|p| p.is_damaged())
    }

    /// The table in memory, so keys can be added: a stored table is read whole (every chunk of
    /// its text). `false` when it does not read (the index is then dropped).
    fn own(&mut self) -> bool {
        let Some(part) = &self.stored else { return true };
        let Some(keys) = part.owned().and_then(|(text, ends, sorted)| Keys::restore(text, ends, sorted)) else {
            part.damage("the key table does not fit");
            return false;
        };
        *self = keys;
        true
    }

    pub fn len(&self) -> u32 {
        match &self.stored {
            Some(p) => p.len(),
            None => self.ends.len() as u32,
        }
    }

    /// Key `id`'s text; empty for an id past the table or a stored table that does not read
    /// (which marks it damaged: the answer is then not used).
    pub fn get(&self, id: u32) -> &str {
        if let Some(p) = &self.stored {
            return p.get(id).unwrap_or_default();
        }
        let i = id as usize;
        let start = if i == 0 { Some(0) } else { self.ends.get(i - 1).map(|e| *e as usize) };
        let end = self.ends.get(i).map(|e| *e as usize);
        start.zip(end).and_then(|(a, b)| self.text.get(a..b)).unwrap_or_default()
    }

    pub fn find(&self, k: &str) -> Option<u32> {
        if let Some(p) = &self.stored {
            return p.find(k);
        }
        match self.sorted.binary_search_by(|i| self.get(*i).cmp(k)) {
            Ok(i) => Some(self.sorted[i]),
            Err(_) => self.added.get(k).copied(),
        }
    }

    /// The id of `k`, added when new; the table must be in memory ([`Keys::own`]).
    fn intern(&mut self, k: &str) -> u32 {
        if let Some(id) = self.find(k) {
            return id;
        }
        let id = self.len();
        self.text.push_str(k);
        self.ends.push(self.text.len() as u32);
        self.added.insert(k.into(), id);
        id
    }

    /// Takes `sorted`, the ids of the first `sorted.len()` keys ordered by text, as the sorted
    /// part; the map keeps only the keys added after those (ignored unless it is a
    /// permutation of a prefix of the table).
    /// Returns what it replaced (the old permutation and map), for the caller to drop once it
    /// released the index's lock: after a cold pass the map holds every key, each a boxed
    /// string, and freeing them took part of the 272 ms a call waited for the index (issue 56).
    fn compact(&mut self, sorted: Vec<u32>) -> (Vec<u32>, HashMap<Box<str>, u32>) {
        if self.stored.is_some() {
            return Default::default(); // as compact as it gets
        }
        let n = sorted.len() as u32;
        if n < self.sorted.len() as u32 || n > self.len() || sorted.iter().any(|i| *i >= n) {
            return Default::default();
        }
        let old_sorted = std::mem::replace(&mut self.sorted, sorted);
        // The keys added after the first `n`: the map made again of just those (the ids past
        // `n` are the last ones of the table), rather than the old one filtered in place.
        let mut added = HashMap::with_capacity((self.len() - n) as usize);
        for id in n..self.len() {
            added.insert(self.get(id).into(), id);
        }
        (old_sorted, std::mem::replace(&mut self.added, added))
    }

    /// The parts to save: the text and the ends (`None` when a stored table does not read).
    pub fn parts(&self) -> Option<(String, Vec<u32>)> {
        match &self.stored {
            Some(p) => p.owned().map(|(text, ends, _)| (text, ends)),
            None => Some((self.text.clone(), self.ends.clone())),
        }
    }

    /// Every id of a table of these parts, ordered by key text.
    pub fn sorted_ids(text: &str, ends: &[u32]) -> Vec<u32> {
        let get = |i: u32| {
            let i = i as usize;
            &text[if i == 0 { 0 } else { ends[i - 1] as usize }..ends[i] as usize]
        };
        let mut ids: Vec<u32> = (0..ends.len() as u32).collect();
        ids.sort_unstable_by(|a, b| get(*a).cmp(get(*b)));
        ids
    }

    fn heap_bytes(&self) -> usize {
        self.stored.as_ref().map_or(0, |p| p.heap_bytes())
            + self.text.capacity()
            + self.ends.capacity() * 4
            + self.sorted.capacity() * 4
            + self.added.len() * 48
    }
}

/// Postings last compacted, as one table: key `k`'s files are `files[off[k]..off[k + 1]]`;
/// or those a store holds, read in place.
#[derive(Default)]
pub(crate) struct BasePostings {
    pub off: Vec<u32>,
    pub files: Vec<u32>,
    pub stored: Option<Arc<KeyPart>>,
}

impl BasePostings {
    /// The postings of a table of `nkeys` keys made of (key, file) pairs (any order, repeats
    /// allowed).
    pub fn of_pairs(nkeys: u32, mut pairs: Vec<(u32, u32)>) -> BasePostings {
        pairs.sort_unstable();
        pairs.dedup();
        let mut off = Vec::with_capacity(nkeys as usize + 1);
        let mut files = Vec::with_capacity(pairs.len());
        let mut at = 0;
        for k in 0..nkeys {
            off.push(files.len() as u32);
            while at < pairs.len() && pairs[at].0 == k {
                files.push(pairs[at].1);
                at += 1;
            }
        }
        off.push(files.len() as u32);
        BasePostings { off, files, stored: None }
    }

    /// Key `k`'s files, when held in memory ([`BasePostings::of_pairs`]); `None` for a
    /// stored table's.
    pub fn files_of(&self, k: u32) -> Option<&[u32]> {
        let k = k as usize;
        self.files.get(*self.off.get(k)? as usize..*self.off.get(k + 1)? as usize)
    }

    /// Appends key `k`'s files to `out`.
    fn of(&self, k: u32, out: &mut Vec<u32>) {
        if let Some(p) = &self.stored {
            return p.postings(k, out);
        }
        let k = k as usize;
        if let (Some(a), Some(b)) = (self.off.get(k), self.off.get(k + 1))
            && let Some(files) = self.files.get(*a as usize..*b as usize)
        {
            out.extend_from_slice(files);
        }
    }

    /// How many (key, file) pairs they hold.
    fn len(&self) -> usize {
        self.stored.as_ref().map_or(self.files.len(), |p| p.posting_count())
    }

    /// Whether they fit a table of `keys` keys and `files` files (a stored table's postings
    /// are checked as they are read).
    fn fits(&self, keys: u32, files: u32) -> bool {
        if let Some(p) = &self.stored {
            return p.len() == keys && p.file_count() == files;
        }
        (self.off.is_empty() || self.off.len() == keys as usize + 1)
            && self.off.first().is_none_or(|o| *o == 0)
            && self.off.windows(2).all(|w| w[0] <= w[1])
            && self.off.last().is_none_or(|o| *o as usize == self.files.len())
            && self.files.iter().all(|f| *f < files)
    }
}

/// The index itself. File and key ids are positions in `paths` and `keys`; neither table
/// shrinks (a removed file's slot is empty).
#[derive(Default)]
pub(crate) struct RefIndex {
    keys: Keys,
    paths: Vec<Arc<Path>>,
    // foldhash: a restart inserts every file's path, and each call looks paths up.
    path_ids: foldhash::HashMap<Arc<Path>, u32>,
    files: Vec<Option<Arc<FileRefs>>>,
    /// The world generation that last invalidated each file: a binding made under an older
    /// world is not kept.
    invalidated_at: Vec<u64>,
    /// Key id to the files that reference it: `base`, plus `postings` for the files bound
    /// since. A file's ids are added when it is bound and left when it is dropped (a query
    /// checks the file), so the lists are compacted when they hold twice what the files do.
    base: BasePostings,
    postings: HashMap<u32, Vec<u32>>,
    postings_len: usize,
    live_postings: usize,
    /// References held.
    pub refs: usize,
    /// Bumped by every change of the files, keys or postings but a body moving to disk
    /// ([`RefIndex::replace_same`], [`RefIndex::evict_to`]): postings made from a view taken
    /// at the same count are the postings now ([`RefIndex::compact_prepared`]).
    edits: u64,
    /// This index's own (a new one for each made): with the length of `paths`, what a path's
    /// slot was looked up under ([`RefIndex::slots_key`]).
    epoch: crate::scope::Epoch,
    /// The store read this index was restored from ([`RefIndex::read_from`]).
    read_from: Option<crate::scope::Epoch>,
}

/// What a compaction replaced under the index's lock, dropped by its caller after releasing
/// it: freeing millions of small allocations is no work for a lock a call waits on.
#[derive(Default)]
pub(crate) struct Replaced {
    _keys: (Vec<u32>, HashMap<Box<str>, u32>),
    _base: Option<BasePostings>,
    _postings: HashMap<u32, Vec<u32>>,
}

impl RefIndex {
    fn file_id(&mut self, p: &Arc<Path>) -> u32 {
        if let Some(id) = self.path_ids.get(p) {
            return *id;
        }
        let id = self.paths.len() as u32;
        self.paths.push(p.clone());
        self.path_ids.insert(p.clone(), id);
        self.files.push(None);
        self.invalidated_at.push(0);
        id
    }

    /// The id of a key some kept file references.
    pub fn find_key(&self, k: &str) -> Option<u32> {
        self.keys.find(k)
    }

    pub fn id_of(&self, p: &Path) -> Option<u32> {
        self.path_ids.get(p).copied()
    }

    /// The load this index was restored from ([`RefIndex::restore`]): it gave the i-th path of
    /// that read slot i, and a slot never changes once given.
    pub fn read_from(&self) -> Option<crate::scope::Epoch> {
        self.read_from
    }

    /// What [`RefIndex::id_of`] answers under: a path's slot, once given, is never taken back
    /// or changed (no table shrinks, [`RefIndex::reset`] and [`RefIndex::clear`] keep the
    /// slots), and a path without one gets one only by adding to `paths`; an index made anew
    /// has an epoch of its own. The same key, the same answer for every path.
    pub fn slots_key(&self) -> crate::scope::SlotsKey {
        (self.epoch, self.paths.len())
    }

    pub fn path(&self, id: u32) -> &Arc<Path> {
        &self.paths[id as usize]
    }

    pub fn slots(&self) -> usize {
        self.paths.len()
    }

    /// The kept references of a file, whatever their stamp.
    pub fn get(&self, id: u32) -> Option<&Arc<FileRefs>> {
        self.files.get(id as usize)?.as_ref()
    }

    pub fn file_count(&self) -> usize {
        self.files.iter().filter(|f| f.is_some()).count()
    }

    /// Whether `n` more references fit under [`MAX_KEPT_REFS`].
    pub fn room_for(&self, n: usize) -> bool {
        self.refs + n <= MAX_KEPT_REFS
    }

    /// Packs and keeps a file's references bound under world generation `generation`, unless
    /// a later world invalidated the file meanwhile. Returns whether it was kept.
    pub fn insert(
        &mut self,
        p: &Arc<Path>,
        refs: &[Ref],
        cut: Option<DepthCut>,
        words: Box<[u32]>,
        stamp: Stamp,
        generation: u64,
    ) -> bool {
        if self.is_damaged() || !self.keys.own() {
            self.reset();
        }
        self.edits += 1;
        let id = self.file_id(p);
        if self.invalidated_at[id as usize] > generation || !self.room_for(refs.len()) {
            return false;
        }
        let mut ids = Vec::with_capacity(refs.len());
        let mut packed = Vec::with_capacity(refs.len());
        let mut callers: Vec<CallerSpan> = Vec::new();
        let mut last: Option<(Option<&Arc<Caller>>, u8)> = None;
        for (i, r) in refs.iter().enumerate() {
            let this = (r.caller.as_ref(), r.within);
            if last != Some(this) {
                let (key, kind) = match r.caller.as_deref() {
                    Some(c) => (self.keys.intern(&c.key), c.kind),
                    None => (NO_CALLER, CallerKind::Method),
                };
                callers.push(CallerSpan { first: i as u32, key, kind, within: r.within });
                last = Some(this);
            }
            let first = ids.len() as u32;
            let count = r.targets.len().min(u16::MAX as usize);
            for k in &r.targets[..count] {
                ids.push(self.keys.intern(k));
            }
            packed.push(PackedRef {
                line: r.line,
                column: r.column,
                first,
                count: count as u16,
                kind: r.kind,
                category: r.category,
                confidence: r.confidence,
                via_override: r.via_override,
            });
        }
        let body = RefsBody { ids: ids.into(), refs: packed.into(), words, callers: callers.into() };
        let distinct = body.distinct_keys();
        let f = FileRefs::in_memory(stamp, cut, body);
        self.drop_file(id);
        for k in &distinct {
            self.postings.entry(*k).or_default().push(id);
        }
        self.postings_len += distinct.len();
        self.live_postings += distinct.len();
        self.refs += f.nrefs as usize;
        self.files[id as usize] = Some(Arc::new(f));
        self.compact_if_sparse();
        true
    }

    fn drop_file(&mut self, id: u32) {
        if let Some(old) = self.files[id as usize].take() {
            self.refs -= old.nrefs as usize;
            self.live_postings -= old.nkeys as usize;
        }
    }

    /// Puts `new` in slot `id` if it still holds `old` (the same references, now on disk);
    /// returns what it replaced, for the caller to drop outside the index's lock.
    pub fn replace_same(&mut self, id: u32, old: &Arc<FileRefs>, new: FileRefs) -> Option<Arc<FileRefs>> {
        if let Some(Some(slot)) = self.files.get_mut(id as usize)
            && Arc::ptr_eq(slot, old)
        {
            return Some(std::mem::replace(slot, Arc::new(new)));
        }
        None
    }

    /// Drops the bodies read back from the store, least recently used first, until the
    /// bodies kept in memory take at most `budget` bytes; returns how many were dropped. They
    /// are read again when next used. Bodies bound since the store was written are not
    /// dropped (the store does not hold them yet).
    pub fn evict_to(&mut self, budget: usize) -> usize {
        let mut total = 0usize;
        let mut loaded: Vec<(u64, usize, u32)> = Vec::new();
        for (id, f) in self.files.iter().enumerate() {
            let Some(f) = f else { continue };
            let bytes = f.heap_bytes();
            total += bytes;
            if let Body::Disk(d) = &f.body
                && bytes > 0
            {
                loaded.push((d.used.load(Relaxed), bytes, id as u32));
            }
        }
        if total <= budget {
            return 0;
        }
        loaded.sort_unstable();
        let mut dropped = 0;
        for (_, bytes, id) in loaded {
            if total <= budget {
                break;
            }
            let Some(Some(slot)) = self.files.get_mut(id as usize) else { continue };
            let Body::Disk(d) = &slot.body else { continue };
            let fresh = FileRefs::on_disk(slot.stamp, slot.cut, slot.nrefs, slot.nkeys, d.unread());
            *slot = Arc::new(fresh);
            total -= bytes;
            dropped += 1;
        }
        dropped
    }

    /// Heap bytes of the references bodies in memory (what [`RefIndex::evict_to`] bounds).
    pub fn bodies_bytes(&self) -> usize {
        self.files.iter().flatten().map(|f| f.heap_bytes()).sum()
    }

    /// How many bodies read back from the store are in memory.
    #[cfg(test)]
    pub fn loaded_from_disk(&self) -> usize {
        self.files.iter().flatten().filter(|f| matches!(&f.body, Body::Disk(d) if d.cell.get().is_some())).count()
    }

    /// Drops a file's references as of world generation `generation`.
    pub fn invalidate(&mut self, p: &Arc<Path>, generation: u64) {
        self.edits += 1;
        let id = self.file_id(p);
        self.drop_file(id);
        self.invalidated_at[id as usize] = generation;
    }

    /// Drops every file whose text mentions one of `words`; returns how many.
    pub fn invalidate_mentioning(&mut self, words: &[u32], generation: u64) -> usize {
        self.edits += 1;
        if words.is_empty() {
            return 0;
        }
        let hit: Vec<u32> = (0..self.files.len() as u32)
            .filter(|id| self.files[*id as usize].as_ref().is_some_and(|f| f.mentions(words)))
            .collect();
        for id in &hit {
            self.drop_file(*id);
            self.invalidated_at[*id as usize] = generation;
        }
        hit.len()
    }

    /// Whether a read of the table a store holds failed: the index is then not to be used
    /// ([`RefIndex::reset`]: every file is bound again).
    pub fn is_damaged(&self) -> bool {
        self.keys.is_damaged()
    }

    /// Drops every file's references, the key table and the postings (the slots and their
    /// generations stay).
    pub fn reset(&mut self) {
        self.edits += 1;
        for f in &mut self.files {
            *f = None;
        }
        self.keys = Keys::default();
        self.base = BasePostings::default();
        self.postings.clear();
        (self.postings_len, self.live_postings, self.refs) = (0, 0, 0);
    }

    /// Drops everything (a new world that shares nothing with the kept bindings).
    pub fn clear(&mut self, generation: u64) {
        self.edits += 1;
        for id in 0..self.files.len() as u32 {
            self.drop_file(id);
            self.invalidated_at[id as usize] = generation;
        }
        self.postings.clear();
        self.base = BasePostings::default();
        self.postings_len = 0;
    }

    fn compact_if_sparse(&mut self) {
        if self.postings_len < 1_000_000 || self.postings_len < 2 * self.live_postings {
            return;
        }
        let mut lists: Vec<(u32, u32)> = Vec::with_capacity(self.live_postings);
        for (id, f) in self.files.iter().enumerate() {
            let Some(f) = f else { continue };
            // A body that cannot be read any more: its file is bound again when asked.
            for k in f.peek(RefsBody::distinct_keys).unwrap_or_default() {
                lists.push((k, id as u32));
            }
        }
        self.set_base(lists);
        self.postings.clear();
        self.postings_len = self.live_postings;
    }

    /// The key table and postings in the form a restart reads them (see [`Keys::compact`];
    /// the postings in one table), after a save moved the bodies to disk.
    pub fn compact(&mut self, sorted: Vec<u32>) -> Replaced {
        let keys = self.keys.compact(sorted);
        let mut out = Replaced { _keys: keys, ..Replaced::default() };
        if !self.postings.is_empty() {
            let pairs = self.posting_pairs();
            out._base = Some(std::mem::replace(&mut self.base, BasePostings::of_pairs(self.keys.len(), pairs)));
            out._postings = std::mem::take(&mut self.postings);
            self.postings_len = self.base.files.len();
        }
        out
    }

    /// [`RefIndex::compact`] with the postings made beforehand, holding no lock, from a view
    /// taken when the index had made `edits` changes ([`RefIndex::edits`],
    /// [`BasePostings::of_pairs`]): under the index's lock only pointers move (on the four
    /// roots the postings' sort and the old tables' frees held it 272 ms while a call
    /// waited, issue 56). When the index changed since the view, as [`RefIndex::compact`].
    pub fn compact_prepared(&mut self, sorted: Vec<u32>, base: BasePostings, edits: u64) -> Replaced {
        if edits != self.edits || base.off.len() != self.keys.len() as usize + 1 {
            let mut out = self.compact(sorted);
            out._base.get_or_insert(base);
            return out;
        }
        let keys = self.keys.compact(sorted);
        let mut out = Replaced { _keys: keys, ..Replaced::default() };
        if self.postings.is_empty() {
            out._base = Some(base);
        } else {
            self.postings_len = base.files.len();
            out._base = Some(std::mem::replace(&mut self.base, base));
            out._postings = std::mem::take(&mut self.postings);
        }
        out
    }

    /// Changes made to the index so far ([`RefIndex::compact_prepared`]).
    pub fn edits(&self) -> u64 {
        self.edits
    }

    /// `base` made of (key, file) pairs.
    fn set_base(&mut self, pairs: Vec<(u32, u32)>) {
        self.base = BasePostings::of_pairs(self.keys.len(), pairs);
    }

    /// The files that may reference one of `keys` (ids), sorted and distinct; each still has
    /// to be checked (its slot may have been dropped or re-bound).
    pub fn candidates(&self, keys: &[u32]) -> Vec<u32> {
        let mut out: Vec<u32> = Vec::new();
        for k in keys {
            self.base.of(*k, &mut out);
            out.extend(self.postings.get(k).into_iter().flatten());
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// A file's references with a target among `keys` (ids, sorted), unpacked.
    pub fn matching(&self, f: &RefsBody, keys: &[u32]) -> Vec<Ref> {
        let mut callers = Callers::new(self, f);
        f.refs
            .iter()
            .enumerate()
            .filter(|(_, p)| f.targets(p).iter().any(|i| keys.binary_search(i).is_ok()))
            .map(|(i, p)| self.unpack(f, p, callers.of(i)))
            .collect()
    }

    /// Every reference of a file, unpacked.
    pub fn all(&self, f: &RefsBody) -> Vec<Ref> {
        let mut callers = Callers::new(self, f);
        f.refs.iter().enumerate().map(|(i, p)| self.unpack(f, p, callers.of(i))).collect()
    }

    fn unpack(&self, f: &RefsBody, p: &PackedRef, caller: (Option<Arc<Caller>>, u8)) -> Ref {
        Ref {
            line: p.line,
            column: p.column,
            kind: p.kind,
            category: p.category,
            targets: f.targets(p).iter().map(|i| self.keys.get(*i).to_string()).collect(),
            confidence: p.confidence,
            caller: caller.0,
            within: caller.1,
            via_override: p.via_override,
        }
    }

    /// Heap bytes held, roughly (allocator overhead not counted; bodies still on disk not
    /// counted).
    pub fn heap_bytes(&self) -> usize {
        self.files.iter().flatten().map(|f| f.heap_bytes() + 64).sum::<usize>()
            + self.keys.heap_bytes()
            + self.base.off.capacity() * 4
            + self.base.stored.as_ref().filter(|_| self.keys.stored.is_none()).map_or(0, |p| p.heap_bytes())
            + self.base.files.capacity() * 4
            + self.postings.values().map(|v| v.capacity() * 4 + 40).sum::<usize>()
            + self.paths.len() * 48
    }

    /// The key table, for saving.
    pub fn key_table(&self) -> &Keys {
        &self.keys
    }

    /// Every key's files (slot ids, possibly stale: a dropped or re-bound slot may remain),
    /// as (key, slot) pairs, for saving.
    pub fn posting_pairs(&self) -> Vec<(u32, u32)> {
        let mut out = Vec::with_capacity(self.postings_len);
        let mut files = Vec::new();
        for k in 0..self.keys.len() {
            files.clear();
            self.base.of(k, &mut files);
            out.extend(files.iter().map(|f| (k, *f)));
        }
        for (k, files) in &self.postings {
            out.extend(files.iter().map(|f| (*k, *f)));
        }
        out
    }

    /// An index read back from disk: its key table, its files by slot (each body left on disk
    /// until a query reads it) and the postings over those slots. `None` when they do not fit
    /// together.
    pub fn restore(
        keys: Keys,
        files: Vec<(Arc<Path>, Option<FileRefs>)>,
        base: BasePostings,
        from: crate::scope::Epoch,
    ) -> Option<RefIndex> {
        if !base.fits(keys.len(), files.len() as u32) {
            return None;
        }
        let mut ix = RefIndex { keys, ..RefIndex::default() };
        ix.path_ids.reserve(files.len());
        ix.paths.reserve(files.len());
        ix.files.reserve(files.len());
        ix.invalidated_at.reserve(files.len());
        for (i, (p, f)) in files.into_iter().enumerate() {
            let id = ix.file_id(&p);
            if id as usize != i {
                return None; // a path twice: not what we wrote
            }
            if let Some(f) = f {
                ix.refs += f.nrefs as usize;
                ix.live_postings += f.nkeys as usize;
                ix.files[id as usize] = Some(Arc::new(f));
            }
        }
        ix.postings_len = base.len();
        ix.base = base;
        ix.read_from = Some(from);
        Some(ix)
    }
}

/// The callers of one file's references, unpacked once per span.
struct Callers<'a> {
    ix: &'a RefIndex,
    f: &'a RefsBody,
    last: Option<(usize, Option<Arc<Caller>>)>,
}

impl<'a> Callers<'a> {
    fn new(ix: &'a RefIndex, f: &'a RefsBody) -> Callers<'a> {
        Callers { ix, f, last: None }
    }

    fn of(&mut self, i: usize) -> (Option<Arc<Caller>>, u8) {
        let Some(at) = self.f.span_of(i) else { return (None, 0) };
        let span = &self.f.callers[at];
        if let Some((a, c)) = &self.last
            && *a == at
        {
            return (c.clone(), span.within);
        }
        let c = (span.key != NO_CALLER)
            .then(|| Arc::new(Caller { key: self.ix.keys.get(span.key).to_string(), kind: span.kind }));
        self.last = Some((at, c.clone()));
        (c, span.within)
    }
}

/// The reference store's format tag (`crate::index::store` writes it first), which every MAC of the
/// store covers.
pub(crate) const MAGIC: &[u8; 8] = b"MJIXRF10";

/// The MAC of one file's stored references; the header (under its own MAC) holds it, so a
/// body is used only as written for its slot.
pub(crate) fn blob_mac(body: &[u8]) -> Option<[u8; 32]> {
    let key = mji_fs::provenance::Key::user().ok()?;
    Some(key.fast_mac_of(MAGIC, &[b"refs", body]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(line: u32, targets: &[&str]) -> Ref {
        Ref {
            line,
            column: 1,
            kind: RefKind::Call,
            category: Category::Method,
            targets: targets.iter().map(|t| t.to_string()).collect(),
            confidence: Confidence::Exact,
            caller: None,
            within: 0,
            via_override: false,
        }
    }

    fn keep(ix: &mut RefIndex, path: &str, refs: &[Ref]) -> Arc<Path> {
        let p: Arc<Path> = Arc::from(Path::new(path));
        assert!(ix.insert(&p, refs, None, Box::new([]), Stamp { size: 1, mtime_ns: 1 }, 0), "kept");
        p
    }

    #[test]
    fn each_reference_keeps_its_caller_through_packing_and_the_store_format() {
        let caller = |key: &str, kind| Some(Arc::new(Caller { key: key.into(), kind }));
        let mut refs = vec![call(1, &["a.A#f()"]), call(2, &["a.A#g()"]), call(3, &["a.A#f()"]), call(4, &["a.A#f()"])];
        refs[0].caller = caller("a.B#<clinit>", CallerKind::StaticInit);
        refs[1].caller = caller("a.B#run()", CallerKind::Method);
        refs[2].caller = caller("a.B#run()", CallerKind::Method);
        refs[2].within = crate::WITHIN_LAMBDA;
        let mut ix = RefIndex::default();
        let p = keep(&mut ix, "/w/B.java", &refs);
        let id = ix.id_of(&p).expect("kept");
        let body = ix.get(id).and_then(|f| f.body()).expect("body");
        assert_eq!(body.callers.len(), 4, "one run per change of caller or place");
        assert_eq!(ix.all(body), refs);
        let f = ix.find_key("a.A#f()").expect("key");
        assert_eq!(ix.matching(body, &[f]), [refs[0].clone(), refs[2].clone(), refs[3].clone()]);
        // What a store writes and reads back.
        let bytes = postcard::to_stdvec(body).expect("encode");
        let back: RefsBody = postcard::from_bytes(&bytes).expect("decode");
        assert!(back.well_formed(ix.key_table().len()));
        assert_eq!(ix.all(&back), refs);
    }

    /// Every key's id and candidate files, as a query finds them.
    fn lookups(ix: &RefIndex, keys: &[&str]) -> Vec<(Option<u32>, Vec<u32>)> {
        keys.iter()
            .map(|k| ix.find_key(k))
            .map(|id| (id, id.map(|i| ix.candidates(&[i])).unwrap_or_default()))
            .collect()
    }

    #[test]
    fn compacting_keeps_every_key_and_posting_and_keys_added_later() {
        let mut ix = RefIndex::default();
        let keys = ["b.B#m()", "a.A", "c.C#f", "a.A#A()"];
        keep(&mut ix, "/w/One.java", &[call(1, &["b.B#m()", "a.A"]), call(2, &["c.C#f"])]);
        let two = keep(&mut ix, "/w/Two.java", &[call(3, &["a.A"]), call(4, &["a.A#A()"])]);
        let before = lookups(&ix, &keys);
        assert!(before.iter().all(|(id, files)| id.is_some() && !files.is_empty()), "{before:?}");
        // What a save computes: the ids of the keys it wrote, ordered by their text.
        let (text, ends) = ix.key_table().parts().expect("in memory");
        let sorted = Keys::sorted_ids(&text, &ends);
        // A key bound after the snapshot the save took stays findable through the map.
        keep(&mut ix, "/w/Three.java", &[call(5, &["d.D"]), call(6, &["a.A"])]);
        let before = lookups(&ix, &[&keys[..], &["d.D"]].concat());
        ix.compact(sorted);
        assert!(ix.postings.is_empty(), "the postings are in one table");
        assert_eq!(ix.keys.added.len(), 1, "only the key added after the save stays in the map");
        assert_eq!(lookups(&ix, &[&keys[..], &["d.D"]].concat()), before);
        // A file bound again after compaction: found under its new keys, and its old ones.
        ix.insert(&two, &[call(7, &["e.E"]), call(8, &["a.A"])], None, Box::new([]), Stamp { size: 2, mtime_ns: 2 }, 0);
        let e = ix.find_key("e.E").expect("a key added after compaction");
        assert_eq!(ix.candidates(&[e]), [1]);
        assert_eq!(ix.find_key("zz"), None);
        // A table that is no permutation of a prefix is not taken.
        let mut broken = RefIndex::default();
        keep(&mut broken, "/w/One.java", &[call(1, &["x.X", "y.Y"])]);
        broken.compact(vec![0, 7]);
        assert!(broken.keys.sorted.is_empty() && broken.find_key("y.Y").is_some());
    }
}
