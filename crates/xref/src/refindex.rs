//! The reference index: every bound file's references, packed against one table of target
//! keys, with postings from each key to the files that reference it (a query reads only the
//! files of its target's keys) and each file's identifier words (an edit that changes a
//! declaration drops only the files that mention one of the names it touched).

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::resolve::DepthCut;
use crate::{Category, Confidence, Ref, RefKind};

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
}

/// A file's references for its stamp, and the identifiers of its text.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct FileRefs {
    pub size: u64,
    pub mtime_ns: i128,
    /// Key ids, `refs[i]` owning `ids[first..first + count]`.
    pub ids: Box<[u32]>,
    pub refs: Box<[PackedRef]>,
    /// [`word_hash`]es of every identifier in the file's text, sorted, distinct.
    pub words: Box<[u32]>,
    /// Where the binder's depth limit cut the file short: its references are incomplete.
    pub cut: Option<DepthCut>,
}

impl FileRefs {
    fn targets(&self, p: &PackedRef) -> &[u32] {
        &self.ids[p.first as usize..p.first as usize + p.count as usize]
    }

    fn heap_bytes(&self) -> usize {
        self.ids.len() * 4 + self.refs.len() * std::mem::size_of::<PackedRef>() + self.words.len() * 4
    }

    /// Whether the file's text has one of these words as an identifier.
    pub fn mentions(&self, words: &[u32]) -> bool {
        words.iter().any(|w| self.words.binary_search(w).is_ok())
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

/// The index itself. File and key ids are positions in `paths` and `keys`; neither table
/// shrinks (a removed file's slot is empty).
#[derive(Default)]
pub(crate) struct RefIndex {
    keys: Vec<Arc<str>>,
    key_ids: HashMap<Arc<str>, u32>,
    paths: Vec<Arc<Path>>,
    path_ids: HashMap<Arc<Path>, u32>,
    files: Vec<Option<Arc<FileRefs>>>,
    /// The world generation that last invalidated each file: a binding made under an older
    /// world is not kept.
    invalidated_at: Vec<u64>,
    /// Key id to the files that reference it. A file's ids are added when it is bound and
    /// left when it is dropped (a query checks the file), so the lists are compacted when
    /// they hold twice what the files do.
    postings: HashMap<u32, Vec<u32>>,
    postings_len: usize,
    live_postings: usize,
    /// References held.
    pub refs: usize,
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

    fn key_id(&mut self, k: &str) -> u32 {
        if let Some(id) = self.key_ids.get(k) {
            return *id;
        }
        let id = self.keys.len() as u32;
        let k: Arc<str> = k.into();
        self.keys.push(k.clone());
        self.key_ids.insert(k, id);
        id
    }

    /// The id of a key some kept file references.
    pub fn find_key(&self, k: &str) -> Option<u32> {
        self.key_ids.get(k).copied()
    }

    pub fn id_of(&self, p: &Path) -> Option<u32> {
        self.path_ids.get(p).copied()
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

    pub fn files(&self) -> impl Iterator<Item = (&Arc<Path>, &Arc<FileRefs>)> {
        self.paths.iter().zip(&self.files).filter_map(|(p, f)| Some((p, f.as_ref()?)))
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
        stamp: (u64, i128),
        generation: u64,
    ) -> bool {
        let id = self.file_id(p);
        if self.invalidated_at[id as usize] > generation || !self.room_for(refs.len()) {
            return false;
        }
        let mut ids = Vec::with_capacity(refs.len());
        let mut packed = Vec::with_capacity(refs.len());
        for r in refs {
            let first = ids.len() as u32;
            let count = r.targets.len().min(u16::MAX as usize);
            for k in &r.targets[..count] {
                let kid = self.key_id(k);
                ids.push(kid);
            }
            packed.push(PackedRef {
                line: r.line,
                column: r.column,
                first,
                count: count as u16,
                kind: r.kind,
                category: r.category,
                confidence: r.confidence,
            });
        }
        let f = FileRefs { size: stamp.0, mtime_ns: stamp.1, ids: ids.into(), refs: packed.into(), words, cut };
        self.put(id, Arc::new(f));
        true
    }

    /// Keeps already packed references (read back from disk) in slot `id`.
    fn put(&mut self, id: u32, f: Arc<FileRefs>) {
        self.drop_file(id);
        let mut distinct: Vec<u32> = f.ids.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        for k in &distinct {
            self.postings.entry(*k).or_default().push(id);
        }
        self.postings_len += distinct.len();
        self.live_postings += distinct.len();
        self.refs += f.refs.len();
        self.files[id as usize] = Some(f);
        self.compact_if_sparse();
    }

    fn drop_file(&mut self, id: u32) {
        if let Some(old) = self.files[id as usize].take() {
            self.refs -= old.refs.len();
            let mut distinct: Vec<u32> = old.ids.to_vec();
            distinct.sort_unstable();
            distinct.dedup();
            self.live_postings -= distinct.len();
        }
    }

    /// Drops a file's references as of world generation `generation`.
    pub fn invalidate(&mut self, p: &Arc<Path>, generation: u64) {
        let id = self.file_id(p);
        self.drop_file(id);
        self.invalidated_at[id as usize] = generation;
    }

    /// Drops every file whose text mentions one of `words`; returns how many.
    pub fn invalidate_mentioning(&mut self, words: &[u32], generation: u64) -> usize {
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

    /// Drops everything (a new world that shares nothing with the kept bindings).
    pub fn clear(&mut self, generation: u64) {
        for id in 0..self.files.len() as u32 {
            self.drop_file(id);
            self.invalidated_at[id as usize] = generation;
        }
        self.postings.clear();
        self.postings_len = 0;
    }

    fn compact_if_sparse(&mut self) {
        if self.postings_len < 1_000_000 || self.postings_len < 2 * self.live_postings {
            return;
        }
        self.postings.clear();
        for (id, f) in self.files.iter().enumerate() {
            let Some(f) = f else { continue };
            let mut distinct: Vec<u32> = f.ids.to_vec();
            distinct.sort_unstable();
            distinct.dedup();
            for k in distinct {
                self.postings.entry(k).or_default().push(id as u32);
            }
        }
        self.postings_len = self.live_postings;
    }

    /// The files that may reference one of `keys` (ids), sorted and distinct; each still has
    /// to be checked (its slot may have been dropped or re-bound).
    pub fn candidates(&self, keys: &[u32]) -> Vec<u32> {
        let mut out: Vec<u32> = keys.iter().filter_map(|k| self.postings.get(k)).flatten().copied().collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// A file's references with a target among `keys` (ids, sorted), unpacked.
    pub fn matching(&self, f: &FileRefs, keys: &[u32]) -> Vec<Ref> {
        f.refs
            .iter()
            .filter(|p| f.targets(p).iter().any(|i| keys.binary_search(i).is_ok()))
            .map(|p| self.unpack(f, p))
            .collect()
    }

    /// Every reference of a file, unpacked.
    pub fn all(&self, f: &FileRefs) -> Vec<Ref> {
        f.refs.iter().map(|p| self.unpack(f, p)).collect()
    }

    fn unpack(&self, f: &FileRefs, p: &PackedRef) -> Ref {
        Ref {
            line: p.line,
            column: p.column,
            kind: p.kind,
            category: p.category,
            targets: f.targets(p).iter().map(|i| self.keys[*i as usize].to_string()).collect(),
            confidence: p.confidence,
        }
    }

    /// Heap bytes held, roughly (allocator overhead not counted).
    pub fn heap_bytes(&self) -> usize {
        self.files.iter().flatten().map(|f| f.heap_bytes()).sum::<usize>()
            + self.keys.iter().map(|k| k.len() + 40).sum::<usize>()
            + self.postings_len * 4
            + self.postings.len() * 40
            + self.paths.len() * 48
    }

    /// The key table, for saving.
    pub fn key_table(&self) -> &[Arc<str>] {
        &self.keys
    }

    /// An index read back from disk: its key table and files.
    pub fn restore(keys: Vec<String>, files: Vec<(Arc<Path>, FileRefs)>) -> RefIndex {
        let mut ix = RefIndex::default();
        for k in keys {
            ix.key_id(&k);
        }
        let n = ix.keys.len() as u32;
        for (p, f) in files {
            if f.ids.iter().any(|i| *i >= n) || f.refs.iter().any(|r| r.first as usize + r.count as usize > f.ids.len())
            {
                continue; // not what we wrote: leave the file to be bound again
            }
            let id = ix.file_id(&p);
            ix.put(id, Arc::new(f));
        }
        ix
    }
}
