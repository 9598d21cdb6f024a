//! Keeps the [`World`] in step with the workspace's files and answers reference queries.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

use mji_model::cancel::Cancel;
use rayon::prelude::*;

use crate::decls::{FileDecls, file_decls};
use crate::resolve::file_refs;
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
}

/// The world of one workspace, rebuilt when its files change.
#[derive(Default)]
pub struct XrefEngine {
    state: Mutex<WorldState>,
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
                st.entries.insert(p, e);
            }
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
        let w = Arc::new(World::new(list));
        st.world = Some(w.clone());
        st.generation += 1;
        (w, st.generation)
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

/// References to any of `targets` in `files`: files are read in parallel and only those whose
/// bytes contain one of `names` are resolved. Under a cancelled [`Cancel`] the answer is
/// partial; the caller checks the flag.
pub(crate) fn find_in_files(
    world: &World,
    files: &[Arc<Path>],
    names: &[String],
    keep: &(dyn Fn(&Ref) -> bool + Sync),
) -> Vec<(Arc<Path>, Vec<Ref>)> {
    let finders: Vec<memchr::memmem::Finder> =
        names.iter().map(|n| memchr::memmem::Finder::new(n.as_bytes())).collect();
    // A cancelled call stops reading and binding files at once (checked per file).
    let cancel = Cancel::current();
    let mut out: Vec<(Arc<Path>, Vec<Ref>)> = files
        .par_iter()
        .filter_map(|p| {
            if cancel.is_cancelled() {
                return None;
            }
            let bytes = mji_fs::read_regular(p, mji_fs::DEFAULT_MAX_FILE_BYTES).ok()?;
            if !finders.is_empty() && !finders.iter().any(|f| has_identifier(f, &bytes)) {
                return None;
            }
            let refs: Vec<Ref> =
                file_refs(world, file_index(world, p), &bytes).into_iter().filter(|r| keep(r)).collect();
            (!refs.is_empty()).then(|| (p.clone(), refs))
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
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
