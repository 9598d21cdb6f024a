//! The library index of one workspace over its lifetime: built on first use from the archives
//! the caller lists (the JDK's, then the classpath's), kept, and forgotten when what it was
//! read from changes (a listing's stamp moved) or when asked (`maven_update_project`).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use crate::library::{LibraryIndex, Origin};

/// One workspace's library index, shared by its calls.
#[derive(Default)]
pub struct Libraries {
    held: RwLock<Option<Arc<LibraryIndex>>>,
    /// The stamp of the listing the index was read under (0: none taken yet).
    stamp: AtomicU64,
}

impl Libraries {
    /// The index, built on first use from `archives()` (each archive's list cached under
    /// `cache_dir`, at most `max_entries` entries read from one). Concurrent first calls build
    /// it once.
    pub fn get_or_build(
        &self,
        archives: impl FnOnce() -> Vec<(PathBuf, Origin)>,
        cache_dir: Option<&Path>,
        max_entries: usize,
    ) -> Arc<LibraryIndex> {
        if let Ok(held) = self.held.read()
            && let Some(ix) = &*held
        {
            return ix.clone();
        }
        let mut held = match self.held.write() {
            Ok(h) => h,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Some(ix) = &*held {
            return ix.clone();
        }
        let ix = Arc::new(LibraryIndex::build(&archives(), cache_dir, max_entries));
        *held = Some(ix.clone());
        ix
    }

    /// Forgets the index: the next call reads the archives again.
    pub fn forget(&self) {
        if let Ok(mut held) = self.held.write() {
            *held = None;
        }
    }

    /// Takes the stamp of `dir`'s listing (names, sizes, modification times) and forgets the
    /// index when it moved since the last stamp; true when it did.
    pub fn forget_if_changed(&self, dir: &Path) -> bool {
        let stamp = listing_stamp(dir);
        let before = self.stamp.swap(stamp, Ordering::AcqRel);
        let changed = before != 0 && before != stamp;
        if changed {
            self.forget();
        }
        changed
    }
}

/// A hash of one directory's listing (never 0).
fn listing_stamp(dir: &Path) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut names: Vec<(std::ffi::OsString, u64, Option<std::time::SystemTime>)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let m = e.metadata().ok()?;
            Some((e.file_name(), m.len(), m.modified().ok()))
        })
        .collect();
    names.sort();
    let mut h = std::collections::hash_map::DefaultHasher::new();
    names.hash(&mut h);
    h.finish() | 1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Built once, kept, forgotten when the listing moves (not on the first stamp).
    #[test]
    fn the_index_is_kept_until_the_listing_changes() {
        let dir = tempfile::tempdir().expect("tempdir");
        let libs = Libraries::default();
        let builds = std::cell::Cell::new(0);
        let get = || {
            libs.get_or_build(
                || {
                    builds.set(builds.get() + 1);
                    Vec::new()
                },
                None,
                10,
            )
        };
        get();
        get();
        assert_eq!(builds.get(), 1);
        assert!(!libs.forget_if_changed(dir.path()));
        assert!(!libs.forget_if_changed(dir.path()));
        get();
        assert_eq!(builds.get(), 1);
        std::fs::write(dir.path().join("a.classpath"), "x").expect("write");
        assert!(libs.forget_if_changed(dir.path()));
        get();
        assert_eq!(builds.get(), 2);
        libs.forget();
        get();
        assert_eq!(builds.get(), 3);
    }
}
