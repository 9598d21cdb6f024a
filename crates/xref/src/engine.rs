//! Keeps the [`World`] in step with the workspace's files and answers reference queries.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

use mji_model::cancel::Cancel;
use rayon::prelude::*;

use crate::decls::{FileDecls, file_decls};
use crate::resolve::{DepthCut, bind_file, file_refs};
use crate::world::World;
use crate::{Ref, RefKind};

/// A Java file of the workspace and its stamp when last seen.
#[derive(Debug, Clone)]
pub struct FileStamp {
    pub path: Arc<Path>,
    pub size: u64,
    pub mtime_ns: i128,
}

struct StampedDecls {
    size: u64,
    mtime_ns: i128,
    decls: Arc<FileDecls>,
}

#[derive(Default)]
struct WorldState {
    entries: HashMap<Arc<Path>, StampedDecls>,
    world: Option<Arc<World>>,
    generation: u64,
    /// Bumped when a file is added or removed, or its declarations change other than in their
    /// lines: the only changes that can change how *other* files bind.
    shape: u64,
}

/// The world of one workspace, rebuilt when its files change, and the references of each
/// file bound under it, kept while neither the file nor the world's shape changes.
#[derive(Default)]
pub struct XrefEngine {
    state: Mutex<WorldState>,
    refs: Mutex<HashMap<Arc<Path>, Arc<FileRefs>>>,
    /// References held in `refs`, bounded by [`MAX_CACHED_REFS`].
    cached: std::sync::atomic::AtomicUsize,
}

/// The most references kept bound in memory (about 20 bytes each, plus each file's distinct
/// targets); past it, further files are bound per query as before.
const MAX_CACHED_REFS: usize = 12_000_000;

/// One reference, packed: its targets are `ids[first..first + count]`, indexes into the file's
/// distinct target keys.
#[derive(Debug, Clone, Copy)]
struct PackedRef {
    line: u32,
    column: u32,
    first: u32,
    count: u16,
    kind: RefKind,
    category: crate::Category,
    confidence: crate::Confidence,
}

/// A file's references as bound under a world of shape `shape`, for its stamp.
#[derive(Debug)]
pub struct FileRefs {
    shape: u64,
    size: u64,
    mtime_ns: i128,
    keys: Box<[Box<str>]>,
    ids: Box<[u32]>,
    refs: Box<[PackedRef]>,
    /// Hashes of the identifiers in `keys`, sorted: a query whose names are not among them
    /// skips the file without looking at its references.
    tokens: Box<[u64]>,
    /// Where the binder's depth limit cut the file short: its references are incomplete.
    cut: Option<DepthCut>,
}

/// A reference search's answer: the files with references, and the files that mention a
/// searched name but could not be bound fully (their references may be missing).
#[derive(Debug, Default)]
pub struct Found {
    pub files: Vec<(Arc<Path>, Vec<Ref>)>,
    pub unbound: Vec<(Arc<Path>, DepthCut)>,
}

fn token_hash(t: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    t.hash(&mut h);
    h.finish()
}

/// The identifiers of a key (`java.util.Map.Entry`, `a.B#m(int,java.lang.String)`).
fn key_tokens(k: &str) -> impl Iterator<Item = &str> {
    k.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|t| !t.is_empty())
}

impl FileRefs {
    fn pack((refs, cut): (Vec<Ref>, Option<DepthCut>), shape: u64, size: u64, mtime_ns: i128) -> FileRefs {
        let mut index: HashMap<String, u32> = HashMap::new();
        let mut keys: Vec<Box<str>> = Vec::new();
        let mut ids: Vec<u32> = Vec::new();
        let mut packed = Vec::with_capacity(refs.len());
        for r in refs {
            let first = ids.len() as u32;
            for k in &r.targets {
                let id = *index.entry(k.clone()).or_insert_with(|| {
                    keys.push(k.as_str().into());
                    (keys.len() - 1) as u32
                });
                ids.push(id);
            }
            packed.push(PackedRef {
                line: r.line,
                column: r.column,
                first,
                count: r.targets.len().min(u16::MAX as usize) as u16,
                kind: r.kind,
                category: r.category,
                confidence: r.confidence,
            });
        }
        let mut tokens: Vec<u64> = keys.iter().flat_map(|k| key_tokens(k)).map(token_hash).collect();
        tokens.sort_unstable();
        tokens.dedup();
        FileRefs {
            shape,
            size,
            mtime_ns,
            keys: keys.into(),
            ids: ids.into(),
            refs: packed.into(),
            tokens: tokens.into(),
            cut,
        }
    }

    /// Whether a key of this file has one of the names (hashed) as an identifier.
    fn may_mention(&self, names: &[u64]) -> bool {
        names.is_empty() || names.iter().any(|n| self.tokens.binary_search(n).is_ok())
    }

    fn len(&self) -> usize {
        self.refs.len()
    }

    /// Heap bytes held, roughly (allocator overhead not counted).
    fn heap_bytes(&self) -> usize {
        self.keys.iter().map(|k| k.len() + 16).sum::<usize>()
            + self.ids.len() * 4
            + self.refs.len() * std::mem::size_of::<PackedRef>()
            + self.tokens.len() * 8
    }

    /// The references with a target whose key passes `wanted`, unpacked.
    fn matching(&self, wanted: &dyn Fn(&str) -> bool) -> Vec<Ref> {
        let hit: Vec<bool> = self.keys.iter().map(|k| wanted(k)).collect();
        if !hit.iter().any(|h| *h) {
            return Vec::new();
        }
        self.refs
            .iter()
            .filter(|p| {
                let ids = &self.ids[p.first as usize..p.first as usize + p.count as usize];
                ids.iter().any(|i| hit[*i as usize])
            })
            .map(|p| Ref {
                line: p.line,
                column: p.column,
                kind: p.kind,
                category: p.category,
                targets: self.ids[p.first as usize..p.first as usize + p.count as usize]
                    .iter()
                    .map(|i| self.keys[*i as usize].to_string())
                    .collect(),
                confidence: p.confidence,
            })
            .collect()
    }
}

/// Whether two files' declarations differ only in their lines.
fn same_shape(a: &FileDecls, b: &FileDecls) -> bool {
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

impl XrefEngine {
    pub fn new() -> XrefEngine {
        XrefEngine::default()
    }

    /// The world for exactly these files: files whose stamp changed are read again (in
    /// parallel), and the world is relinked when anything changed.
    pub fn world(&self, files: &[FileStamp]) -> (Arc<World>, u64) {
        let Ok(mut st) = self.state.lock() else {
            return (Arc::new(World::new(Vec::new())), 0);
        };
        let changed: Vec<&FileStamp> = files
            .iter()
            .filter(|f| st.entries.get(&f.path).is_none_or(|e| e.size != f.size || e.mtime_ns != f.mtime_ns))
            .collect();
        let removed =
            st.entries.len() + changed.iter().filter(|f| !st.entries.contains_key(&f.path)).count() != files.len();
        let mut reshaped = removed;
        if !changed.is_empty() {
            let fresh: Vec<(Arc<Path>, StampedDecls)> = changed
                .par_iter()
                .map(|f| {
                    let decls = mji_fs::read_regular(&f.path, mji_fs::DEFAULT_MAX_FILE_BYTES)
                        .map(|b| file_decls(&b))
                        .unwrap_or_default();
                    (f.path.clone(), StampedDecls { size: f.size, mtime_ns: f.mtime_ns, decls: Arc::new(decls) })
                })
                .collect();
            for (p, e) in fresh {
                if let Some(old) = st.entries.insert(p, e.clone_ref())
                    && same_shape(&old.decls, &e.decls)
                {
                    continue;
                }
                reshaped = true;
            }
        }
        if reshaped {
            st.shape += 1;
            // Every file's references may bind differently now.
            self.drop_refs();
        }
        if removed {
            let keep: std::collections::HashSet<&Arc<Path>> = files.iter().map(|f| &f.path).collect();
            st.entries.retain(|p, _| keep.contains(p));
        }
        if changed.is_empty()
            && !removed
            && let Some(w) = &st.world
        {
            return (w.clone(), st.generation);
        }
        let mut list: Vec<(Arc<Path>, Arc<FileDecls>)> =
            st.entries.iter().map(|(p, e)| (p.clone(), e.decls.clone())).collect();
        list.sort_by(|a, b| a.0.cmp(&b.0));
        let mut w = World::new(list);
        w.shape = st.shape;
        let w = Arc::new(w);
        st.world = Some(w.clone());
        st.generation += 1;
        (w, st.generation)
    }
}

impl StampedDecls {
    fn clone_ref(&self) -> StampedDecls {
        StampedDecls { size: self.size, mtime_ns: self.mtime_ns, decls: self.decls.clone() }
    }
}

impl XrefEngine {
    fn drop_refs(&self) {
        if let Ok(mut refs) = self.refs.lock() {
            refs.clear();
        }
        self.cached.store(0, std::sync::atomic::Ordering::Relaxed);
    }

    /// Heap bytes of the kept references, roughly.
    pub fn bound_bytes(&self) -> usize {
        self.refs.lock().map(|r| r.values().map(|f| f.heap_bytes()).sum()).unwrap_or(0)
    }

    /// How many files and references are kept bound (for status and benchmarks).
    pub fn bound(&self) -> (usize, usize) {
        let files = self.refs.lock().map(|r| r.len()).unwrap_or(0);
        (files, self.cached.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// The stamps the world was built from, for `files`.
    fn stamps(&self, files: &[Arc<Path>]) -> Vec<Option<(u64, i128)>> {
        let Ok(st) = self.state.lock() else { return vec![None; files.len()] };
        files.iter().map(|p| st.entries.get(p).map(|e| (e.size, e.mtime_ns))).collect()
    }

    /// References to any of `targets` in `files`: each file's references come from the ones
    /// kept bound when its stamp and the world's shape are those they were bound under;
    /// otherwise the file is read and, if its bytes contain one of `names` as a word, bound
    /// (in parallel) and kept. Under a cancelled [`Cancel`] the answer is partial; the caller
    /// checks the flag.
    pub fn find_in_files(
        &self,
        world: &World,
        files: &[Arc<Path>],
        names: &[String],
        keep: &(dyn Fn(&Ref) -> bool + Sync),
    ) -> Found {
        let finders: Vec<memchr::memmem::Finder> =
            names.iter().map(|n| memchr::memmem::Finder::new(n.as_bytes())).collect();
        let mentions = |bytes: &[u8]| finders.is_empty() || finders.iter().any(|f| has_identifier(f, bytes));
        // A key can only be the target's if it holds one of its names.
        let wanted = |k: &str| names.is_empty() || names.iter().any(|n| k.contains(n.as_str()));
        let stamps = self.stamps(files);
        // A kept key the target's can be has one of its names as an identifier (the keys of
        // a target and of its overriders end in its simple name).
        let hashed: Vec<u64> = names.iter().flat_map(|n| key_tokens(n)).map(token_hash).collect();
        let cancel = Cancel::current();
        let mut out: Vec<(Arc<Path>, Vec<Ref>, Option<DepthCut>)> = files
            .par_iter()
            .zip(stamps.par_iter())
            .filter_map(|(p, stamp)| {
                if cancel.is_cancelled() {
                    return None;
                }
                let kept = self.refs.lock().ok().and_then(|r| r.get(p).cloned());
                let (refs, cut): (Vec<Ref>, Option<DepthCut>) = match (kept, stamp) {
                    (Some(f), Some((size, mtime)))
                        if f.shape == world.shape && f.size == *size && f.mtime_ns == *mtime =>
                    {
                        // A file cut short may mention the names in the part not bound.
                        let cut = f.cut.filter(|_| {
                            mji_fs::read_regular(p, mji_fs::DEFAULT_MAX_FILE_BYTES).is_ok_and(|b| mentions(&b))
                        });
                        if cut.is_none() && !f.may_mention(&hashed) {
                            return None;
                        }
                        (f.matching(&wanted), cut)
                    }
                    _ => {
                        let bytes = mji_fs::read_regular(p, mji_fs::DEFAULT_MAX_FILE_BYTES).ok()?;
                        if !mentions(&bytes) {
                            return None;
                        }
                        let all = bind_file(world, file_index(world, p), &bytes);
                        let cut = all.1;
                        match stamp {
                            Some((size, mtime)) if self.room_for(all.0.len()) => {
                                let packed = Arc::new(FileRefs::pack(all, world.shape, *size, *mtime));
                                let found = packed.matching(&wanted);
                                self.keep_bound(p, packed, world.shape);
                                (found, cut)
                            }
                            _ => (all.0, cut),
                        }
                    }
                };
                let refs: Vec<Ref> = refs.into_iter().filter(|r| keep(r)).collect();
                (!refs.is_empty() || cut.is_some()).then(|| (p.clone(), refs, cut))
            })
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        let mut found = Found::default();
        for (p, refs, cut) in out {
            if let Some(c) = cut {
                found.unbound.push((p.clone(), c));
            }
            if !refs.is_empty() {
                found.files.push((p, refs));
            }
        }
        found
    }

    /// Binds, one file at a time, every file of `files` whose references are not kept yet,
    /// so later queries read no file; stops when the world's shape moves on, the cap is
    /// reached, or `stop` says so. Returns how many files it bound.
    pub fn bind_all(&self, world: &World, files: &[Arc<Path>], stop: &dyn Fn() -> bool) -> usize {
        let stamps = self.stamps(files);
        let mut bound = 0;
        for (p, stamp) in files.iter().zip(stamps) {
            let Some((size, mtime)) = stamp else { continue };
            if stop() || self.state.lock().map(|st| st.shape).unwrap_or(u64::MAX) != world.shape {
                break;
            }
            let kept = self.refs.lock().ok().and_then(|r| r.get(p).cloned());
            if kept.is_some_and(|f| f.shape == world.shape && f.size == size && f.mtime_ns == mtime) {
                continue;
            }
            let Ok(bytes) = mji_fs::read_regular(p, mji_fs::DEFAULT_MAX_FILE_BYTES) else { continue };
            let all = bind_file(world, file_index(world, p), &bytes);
            if !self.room_for(all.0.len()) {
                break;
            }
            self.keep_bound(p, Arc::new(FileRefs::pack(all, world.shape, size, mtime)), world.shape);
            bound += 1;
        }
        bound
    }

    fn room_for(&self, n: usize) -> bool {
        self.cached.load(std::sync::atomic::Ordering::Relaxed) + n <= MAX_CACHED_REFS
    }

    /// Keeps a file's bound references, unless the world's shape moved on meanwhile.
    fn keep_bound(&self, p: &Arc<Path>, f: Arc<FileRefs>, shape: u64) {
        let current = self.state.lock().map(|st| st.shape).unwrap_or(u64::MAX);
        if current != shape {
            return;
        }
        let n = f.len();
        if let Ok(mut refs) = self.refs.lock() {
            let old = refs.insert(p.clone(), f).map_or(0, |o| o.len());
            let relaxed = std::sync::atomic::Ordering::Relaxed;
            let _ = self.cached.fetch_update(relaxed, relaxed, |c| Some((c + n).saturating_sub(old)));
        }
    }
}

/// The index of a file in the world, `u32::MAX` when absent.
pub fn file_index(world: &World, path: &Path) -> u32 {
    world.files.binary_search_by(|f| (*f.path).cmp(path)).map(|i| i as u32).unwrap_or(u32::MAX)
}

/// All references of a file on disk.
pub fn refs_of_file(world: &World, path: &Path) -> std::io::Result<Vec<Ref>> {
    let bytes = mji_fs::read_regular(path, mji_fs::DEFAULT_MAX_FILE_BYTES)?;
    Ok(file_refs(world, file_index(world, path), &bytes))
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
