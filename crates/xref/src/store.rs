//! The persisted world and reference index: one file beside the cache, so a restart (or a
//! CLI call) starts from the declarations and bound references of last time instead of
//! reading and binding every file again.
//!
//! It is an accelerator, never a source of truth: it is read only when it ends in a MAC of its
//! path and bytes under the user's key (`mji_fs::trust`: a repository cannot ship one) and its
//! fingerprint (the format, this build of the binder, the JDK table, the library types) matches; each file's entry is used only
//! while its stamp does, and the files that changed since are taken through the same
//! invalidation as an edit while serving (see [`crate::invalidate`]). Written atomically
//! (temp + rename); a file whose modification time is too close to the write is saved with a
//! stamp that never matches and no references (a same-size rewrite within the clock's
//! granularity would go unnoticed), so it is read again and compared.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;

use serde::{Deserialize, Serialize};

use crate::decls::FileDecls;
use crate::engine::{StampedDecls, WorldState, XrefEngine};
use crate::refindex::{FileRefs, RefIndex};

const MAGIC: &[u8; 8] = b"MJIXREF2";

/// Files modified this close to the time of writing are left out (by the modification time in
/// a stamp's low 64 bits; see `mji_index::symbols::stamp`).
const RACY_WINDOW_NS: i128 = 2_000_000_000;

/// The file's form; [`SavedOut`] writes the same fields from shared references.
#[derive(Deserialize)]
struct Saved {
    fingerprint: String,
    generation: u64,
    keys: Vec<String>,
    files: Vec<SavedFile>,
}

#[derive(Deserialize)]
struct SavedFile {
    path: String,
    size: u64,
    mtime_ns: i128,
    decls: FileDecls,
    refs: Option<FileRefs>,
}

#[derive(Serialize)]
struct SavedOut {
    fingerprint: String,
    generation: u64,
    keys: Vec<Arc<str>>,
    files: Vec<SavedFileOut>,
}

#[derive(Serialize)]
struct SavedFileOut {
    path: String,
    size: u64,
    mtime_ns: i128,
    decls: Arc<FileDecls>,
    refs: Option<Arc<FileRefs>>,
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

fn now_ns() -> i128 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as i128).unwrap_or(0)
}

impl XrefEngine {
    /// Reads the persisted world and index into an empty state; anything unusable is ignored.
    pub(crate) fn load(&self, st: &mut WorldState) {
        let Some(path) = &self.store else { return };
        let Some(saved) = read(path, self.libraries_hash()) else { return };
        let mut entries = std::collections::HashMap::with_capacity(saved.files.len());
        let mut kept = Vec::new();
        for f in saved.files {
            let p: Arc<Path> = Path::new(&f.path).into();
            if let Some(r) = f.refs {
                kept.push((p.clone(), r));
            }
            entries.insert(p, StampedDecls { size: f.size, mtime_ns: f.mtime_ns, decls: Arc::new(f.decls) });
        }
        let mut list: Vec<(Arc<Path>, Arc<FileDecls>)> =
            entries.iter().map(|(p, e)| (p.clone(), e.decls.clone())).collect();
        list.sort_by(|a, b| a.0.cmp(&b.0));
        let mut w = self.new_world(list);
        st.generation = saved.generation.max(1);
        w.shape = st.generation;
        st.entries = entries;
        st.world = Some(Arc::new(w));
        if let Ok(mut ix) = self.refs.write() {
            *ix = RefIndex::restore(saved.keys, kept);
        }
    }

    /// Writes the world and the reference index to the store if anything changed since the
    /// last write. Returns the files written, or `None` when there was nothing to do.
    pub fn save(&self) -> Option<std::io::Result<usize>> {
        let path = self.store.as_ref()?;
        if !self.dirty.swap(false, Relaxed) {
            return None;
        }
        // One consistent view, taken under the state's lock and then the index's (the order
        // every path takes), shared rather than copied; the locks are released before encoding.
        let saved = {
            let st = self.state.lock().ok()?;
            let ix = self.refs.read().ok()?;
            let racy = now_ns() - RACY_WINDOW_NS;
            let mut refs: std::collections::HashMap<&Path, &Arc<FileRefs>> =
                ix.files().map(|(p, f)| (&**p, f)).collect();
            let files: Vec<SavedFileOut> = st
                .entries
                .iter()
                .map(|(p, e)| {
                    // A file modified just now keeps its declarations (the next start compares
                    // against them) under a stamp that never matches, so it is read again.
                    let racy = i128::from(e.mtime_ns as u64) >= racy;
                    SavedFileOut {
                        path: p.to_string_lossy().into_owned(),
                        size: e.size,
                        mtime_ns: if racy { i128::MIN } else { e.mtime_ns },
                        decls: e.decls.clone(),
                        refs: refs
                            .remove(&**p)
                            .filter(|f| !racy && f.size == e.size && f.mtime_ns == e.mtime_ns)
                            .cloned(),
                    }
                })
                .collect();
            SavedOut {
                fingerprint: fingerprint(self.libraries_hash()),
                generation: st.generation,
                keys: ix.key_table().to_vec(),
                files,
            }
        };
        let n = saved.files.len();
        let result = write(path, &saved).map(|()| n);
        if result.is_err() {
            self.dirty.store(true, Relaxed);
        }
        Some(result)
    }
}

/// The MAC that ends the file: of its path and body, under the user's key, so a file this
/// user's runs did not write here (a repository can ship one) is never read.
fn mac(path: &Path, body: &[u8]) -> Option<[u8; 32]> {
    let key = mji_fs::trust::Key::user().ok()?;
    Some(key.mac_of(&[MAGIC.as_slice(), path.as_os_str().as_encoded_bytes(), body]))
}

fn read(path: &Path, libraries: u64) -> Option<Saved> {
    let bytes = std::fs::read(path).ok()?;
    let rest = bytes.strip_prefix(MAGIC.as_slice())?;
    let (body, found) = rest.split_at_checked(rest.len().checked_sub(32)?)?;
    if !mji_fs::trust::same_mac(found, &mac(path, body)?) {
        return None;
    }
    let saved: Saved = postcard::from_bytes(body).ok()?;
    (saved.fingerprint == fingerprint(libraries)).then_some(saved)
}

fn write(path: &Path, saved: &SavedOut) -> std::io::Result<()> {
    let body = postcard::to_stdvec(saved).map_err(std::io::Error::other)?;
    let sum = mac(path, &body).ok_or_else(|| std::io::Error::other("no user key to sign the reference index"))?;
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    let mut f = std::fs::File::create(&tmp)?;
    let written = f
        .write_all(MAGIC)
        .and_then(|()| f.write_all(&body))
        .and_then(|()| f.write_all(&sum))
        .and_then(|()| f.sync_all());
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    std::fs::rename(&tmp, path)
}
