//! What a search learned of its scope's files by their paths, kept for the next search of the
//! same scope while nothing it was read from changed.
//!
//! Every reference search looks each file of its scope up twice by path: its stamp in the
//! world's entries and its slot in the reference index. On the four roots of issue 56 (27,115
//! files) those lookups — a path hash and compare each, a cache miss or two each — were a
//! third of a warm `find_references` (~12 of ~35 ms), whatever the target. A scope is the same
//! list of the same paths call after call (the keeper's listing, unchanged while no file
//! changes), so the answers of the lookups are kept with the scope and read back by position.
//!
//! Why a kept answer is the lookup's answer:
//! - **The same scope.** A scope is recognised by its paths' allocations, compared one by one
//!   ([`Arc::ptr_eq`]), never by their text: the memo holds a clone of each `Arc`, so no kept
//!   address can be freed and reused by another path while it is kept. The same addresses in
//!   the same order are the same paths in the same order.
//! - **The same entries.** The stamps are kept with the [`Epoch`] of the entries they were
//!   read from. Every change of the entries takes a new epoch from a process-wide counter
//!   ([`Entries`] gives no other way to change them), and entries made anew (a store read
//!   back, a damaged world dropped) start at a new one, so equal epochs are the same contents.
//! - **The same slots.** The reference index's slot of a path never changes once given (its
//!   tables never shrink; a reset drops references, not slots), and a path without one gets one
//!   only by growing the table. So the slots are kept with the index's [`Epoch`] (a new one
//!   for each index made: a restore, a new engine) and its table's length: the same index at
//!   the same length gives every path the slot it gave, `None` included.
//! - **A place for a slot.** A file's place in the order a load read the store (kept with its
//!   stamp, [`Known`]) is its slot only in an index restored from that same read (it gave the
//!   i-th path slot i, and a slot never changes), which [`crate::index::refindex::RefIndex::read_from`]
//!   says by the read's own epoch; any other index looks the path up.

use std::path::Path;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex};

use mji_fs::stamp::Stamp;

/// A value no other [`Epoch`] of this process had: each one made takes the next count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Epoch(u64);

impl Epoch {
    pub(crate) fn new() -> Epoch {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        Epoch(NEXT.fetch_add(1, Relaxed))
    }
}

impl Default for Epoch {
    fn default() -> Epoch {
        Epoch::new()
    }
}

/// A scope's file as the world's entries know it: the stamp its declarations were read at,
/// and its place in the order a load read the store, with that load's epoch (see
/// [`crate::engine::Entries::known`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Known {
    pub stamp: Option<Stamp>,
    pub place: Option<(Epoch, u32)>,
}

/// What each file's slot lookup was read under: the index's epoch and its table's length.
pub(crate) type SlotsKey = (Epoch, usize);

/// One lookup's answers for a scope, by position, with what they were read under.
type Part<K, V> = Option<(K, Arc<[V]>)>;

/// One scope's lookups.
struct Remembered {
    files: Arc<[Arc<Path>]>,
    stamps: Part<Epoch, Known>,
    slots: Part<SlotsKey, Option<u32>>,
}

/// The scopes searched last, the latest last.
#[derive(Default)]
pub(crate) struct ScopeMemo {
    kept: Mutex<Vec<Remembered>>,
}

/// The most scopes kept (a scope of the four roots holds ~1 MB): the whole workspace, and a
/// few narrowed by `paths` globs or a module.
const KEPT: usize = 4;

impl ScopeMemo {
    fn with<T>(&self, files: &[Arc<Path>], f: impl FnOnce(Option<&mut Remembered>) -> T) -> T {
        let Ok(mut kept) = self.kept.lock() else { return f(None) };
        match kept.iter().position(|r| same_files(&r.files, files)) {
            Some(i) => {
                // Used now: the latest.
                let r = kept.remove(i);
                kept.push(r);
                f(kept.last_mut())
            }
            None => f(None),
        }
    }

    /// Each file's stamp in entries of epoch `epoch`: kept ones, else `read()`'s (kept).
    pub(crate) fn stamps(&self, files: &[Arc<Path>], epoch: Epoch, read: impl FnOnce() -> Vec<Known>) -> Arc<[Known]> {
        self.part(files, epoch, read, |r| &mut r.stamps)
    }

    /// Each file's slot in an index read under `key`: kept ones, else `read()`'s (kept).
    pub(crate) fn slots(
        &self,
        files: &[Arc<Path>],
        key: SlotsKey,
        read: impl FnOnce() -> Vec<Option<u32>>,
    ) -> Arc<[Option<u32>]> {
        self.part(files, key, read, |r| &mut r.slots)
    }

    /// The answers of `which` lookup kept for `files` under `key`, else `read()`'s (kept).
    fn part<K: PartialEq + Copy, V>(
        &self,
        files: &[Arc<Path>],
        key: K,
        read: impl FnOnce() -> Vec<V>,
        which: fn(&mut Remembered) -> &mut Part<K, V>,
    ) -> Arc<[V]> {
        let kept =
            |r: Option<&mut Remembered>| r.and_then(|r| which(r).as_ref().filter(|p| p.0 == key).map(|p| p.1.clone()));
        if let Some(hit) = self.with(files, kept) {
            return hit;
        }
        let fresh: Arc<[V]> = read().into();
        self.put(files, |r| *which(r) = Some((key, fresh.clone())));
        fresh
    }

    /// Sets a part of `files`' memo, made (the oldest scope forgotten) when there is none.
    fn put(&self, files: &[Arc<Path>], set: impl FnOnce(&mut Remembered)) {
        let Ok(mut kept) = self.kept.lock() else { return };
        let i = match kept.iter().position(|r| same_files(&r.files, files)) {
            Some(i) => i,
            None => {
                if kept.len() >= KEPT {
                    kept.remove(0);
                }
                kept.push(Remembered { files: files.into(), stamps: None, slots: None });
                kept.len() - 1
            }
        };
        set(&mut kept[i]);
        // The latest last: the one forgotten next is the one unused longest.
        let r = kept.remove(i);
        kept.push(r);
    }
}

/// The same allocations in the same order (see the module's comment).
fn same_files(kept: &[Arc<Path>], files: &[Arc<Path>]) -> bool {
    kept.len() == files.len() && kept.iter().zip(files).all(|(a, b)| Arc::ptr_eq(a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    const N: usize = 300;

    fn scope(n: usize) -> Vec<Arc<Path>> {
        (0..n).map(|i| Arc::from(Path::new(&format!("/w/F{i}.java")))).collect()
    }

    fn stamp(n: i128) -> Known {
        Known { stamp: Some(Stamp { size: 1, mtime_ns: n }), place: None }
    }

    /// A kept answer is given back only for the same allocations under the same epoch: equal
    /// paths in other allocations, another epoch, another slots key each read again.
    #[test]
    fn a_kept_lookup_is_used_only_for_the_same_paths_under_the_same_epoch() {
        let memo = ScopeMemo::default();
        let files = scope(N);
        let e = Epoch::new();
        let reads = std::cell::Cell::new(0);
        let read = |n: i128| {
            reads.set(reads.get() + 1);
            vec![stamp(n); N]
        };
        assert_eq!(memo.stamps(&files, e, || read(1))[0], stamp(1));
        assert_eq!(memo.stamps(&files, e, || read(2))[0], stamp(1), "kept");
        assert_eq!(reads.get(), 1);
        // The same text in other allocations is another scope.
        let copy = scope(N);
        assert_eq!(memo.stamps(&copy, e, || read(3))[0], stamp(3));
        // Another epoch of the entries.
        let e2 = Epoch::new();
        assert_ne!(e, e2);
        assert_eq!(memo.stamps(&files, e2, || read(4))[0], stamp(4));
        assert_eq!(memo.stamps(&files, e2, || read(5))[0], stamp(4));
        // A shorter or reordered list of the same allocations is another scope.
        let mut reordered = files.clone();
        reordered.swap(0, 1);
        assert_eq!(memo.stamps(&reordered, e2, || read(6))[0], stamp(6));
        assert_eq!(memo.stamps(&files[1..], e2, || vec![stamp(7); N - 1])[0], stamp(7));
        // Slots: the index's epoch and its table's length.
        let k = (Epoch::new(), 10);
        assert_eq!(memo.slots(&files, k, || vec![Some(1); N])[0], Some(1));
        assert_eq!(memo.slots(&files, k, || vec![Some(2); N])[0], Some(1));
        assert_eq!(memo.slots(&files, (k.0, 11), || vec![Some(3); N])[0], Some(3));
        assert_eq!(reads.get(), 4);
    }

    /// At most [`KEPT`] scopes: the one unused longest is forgotten.
    #[test]
    fn the_scope_unused_longest_is_forgotten() {
        let memo = ScopeMemo::default();
        let e = Epoch::new();
        let scopes: Vec<Vec<Arc<Path>>> = (0..=KEPT).map(|_| scope(N)).collect();
        for s in &scopes[..KEPT] {
            memo.stamps(s, e, || vec![stamp(1); N]);
        }
        // The first used again: the second is now the one unused longest.
        assert_eq!(memo.stamps(&scopes[0], e, || vec![stamp(9); N])[0], stamp(1));
        memo.stamps(&scopes[KEPT], e, || vec![stamp(1); N]);
        assert_eq!(memo.stamps(&scopes[0], e, || vec![stamp(9); N])[0], stamp(1), "kept");
        assert_eq!(memo.stamps(&scopes[1], e, || vec![stamp(9); N])[0], stamp(9), "forgotten");
    }
}
