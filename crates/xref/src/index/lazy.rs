//! A file's declarations as the world holds them: decoded, or still the bytes the store read
//! (MAC-checked), decoded on first use, so a fresh process on a warm cache decodes the files its
//! query touches rather than every file's (issue 38).

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, OnceLock};

use crate::decls::FileDecls;
use crate::name::{self, Names};

/// The declarations part of a store as read: every file's declarations one after another, and
/// the table of names they index into.
pub(crate) struct Block {
    bytes: Vec<u8>,
    names: Arc<Names>,
    /// The store it was read from, removed when a part of it does not decode.
    store: PathBuf,
    /// A part did not decode: the world holding it is not to be trusted (see
    /// [`crate::engine::XrefEngine::world_with`]).
    damaged: AtomicBool,
    /// Made by a save from declarations it encoded ([`Decls::keep_encoded`]): only copied by
    /// the next save, never decoded from.
    saved: bool,
}

impl Block {
    pub(crate) fn new(bytes: Vec<u8>, names: Arc<Names>, store: PathBuf) -> Arc<Block> {
        Arc::new(Block { bytes, names, store, damaged: AtomicBool::new(false), saved: false })
    }

    /// The declarations a save just encoded into `bytes`, under `names`, kept for the next
    /// save to copy.
    pub(crate) fn saved(bytes: Vec<u8>, names: Arc<Names>, store: PathBuf) -> Arc<Block> {
        Arc::new(Block { bytes, names, store, damaged: AtomicBool::new(false), saved: true })
    }

    pub(crate) fn names(&self) -> &Arc<Names> {
        &self.names
    }

    pub(crate) fn is_damaged(&self) -> bool {
        self.damaged.load(Relaxed)
    }

    /// The declarations in `bytes[a..b]`. The block was MAC-checked, so a failure is a bug of
    /// this build's encoding, never a user's file: said in the log, the store removed (the next
    /// process reads every file again) and the block marked damaged (this process's engine
    /// drops the world linked from it at its next call).
    fn decode(&self, a: usize, b: usize) -> Arc<FileDecls> {
        let got = self
            .bytes
            .get(a..b)
            .ok_or(postcard::Error::DeserializeUnexpectedEnd)
            .and_then(|bytes| name::decoding(&self.names, || postcard::from_bytes::<FileDecls>(bytes)));
        match got {
            Ok(d) => Arc::new(d),
            Err(e) => {
                if !self.damaged.swap(true, Relaxed) {
                    tracing::warn!(store = %self.store.display(), "the reference store's declarations do not decode ({e}); it is removed");
                    let _ = std::fs::remove_file(&self.store);
                }
                Arc::default()
            }
        }
    }
}

/// One file's declarations, shared by the engine's entries and the worlds linked from them.
#[derive(Clone)]
pub struct Decls(Arc<Cell>);

struct Cell {
    done: OnceLock<Arc<FileDecls>>,
    /// Where they are encoded: the block and the part of it. Set when read from a store, or
    /// after a save encoded them (see [`Decls::keep_encoded`]), so the next save copies the
    /// bytes instead of encoding them again.
    src: OnceLock<(Arc<Block>, u32, u32)>,
}

impl Decls {
    /// Declarations already decoded (read from a file).
    pub fn ready(d: Arc<FileDecls>) -> Decls {
        Decls(Arc::new(Cell { done: OnceLock::from(d), src: OnceLock::new() }))
    }

    /// The declarations in `block[a..b]`, decoded when first asked for.
    pub(crate) fn stored(block: &Arc<Block>, a: u32, b: u32) -> Decls {
        Decls(Arc::new(Cell { done: OnceLock::new(), src: OnceLock::from((block.clone(), a, b)) }))
    }

    /// The declarations, decoded now if they were not.
    pub fn get(&self) -> &Arc<FileDecls> {
        self.0.done.get_or_init(|| match self.0.src.get() {
            Some((block, a, b)) => block.decode(*a as usize, *b as usize),
            None => Arc::default(),
        })
    }

    pub fn is_decoded(&self) -> bool {
        self.0.done.get().is_some()
    }

    /// The encoded bytes and their block, decoded or not: a save copies them as they are.
    pub(crate) fn encoded(&self) -> Option<(&Arc<Block>, &[u8])> {
        let (block, a, b) = self.0.src.get()?;
        Some((block, block.bytes.get(*a as usize..*b as usize)?))
    }

    /// Keeps `block[a..b]` as these declarations' encoding (a save just encoded them there),
    /// unless they have one already. Only declarations already decoded take one: the block
    /// is never decoded from, only copied by the next save.
    pub(crate) fn keep_encoded(&self, block: &Arc<Block>, a: u32, b: u32) {
        if self.0.done.get().is_some() {
            let _ = self.0.src.set((block.clone(), a, b));
        }
    }

    /// The block the declarations were read from, if any (not one a save kept them in).
    pub(crate) fn block(&self) -> Option<&Arc<Block>> {
        self.0.src.get().map(|s| &s.0).filter(|b| !b.saved)
    }

    /// Whether both are the same file's declarations (one cell).
    pub fn same(&self, other: &Decls) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl std::fmt::Debug for Decls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.done.get() {
            Some(d) => d.fmt(f),
            None => f.write_str("Decls(encoded)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decls::file_decls;
    use crate::name::NameTable;

    #[test]
    fn stored_declarations_decode_on_first_use_and_a_damaged_part_is_said() {
        let d = file_decls(b"package a; class A { int f; void m(String s) { } }");
        let mut names = NameTable::default();
        let bytes = name::encoding(&mut names, || postcard::to_stdvec(&d)).expect("encodes");
        let (text, ends) = names.parts();
        let names = NameTable::restore(text, ends).expect("fits");
        let dir = tempfile::tempdir().expect("tempdir");
        let store = dir.path().join("refs.bin");
        std::fs::write(&store, b"x").expect("writes");
        let n = bytes.len() as u32;
        let mut all = bytes.clone();
        all.extend_from_slice(&[0xff, 0xff, 0xff]);
        let block = Block::new(all, names, store.clone());
        let good = Decls::stored(&block, 0, n);
        assert_eq!(good.encoded().map(|e| e.1.len()), Some(bytes.len()), "not decoded before asked");
        assert_eq!(**good.get(), d);
        assert_eq!(good.encoded().map(|e| e.1.len()), Some(bytes.len()), "still copied as encoded once decoded");
        assert!(!block.is_damaged() && store.exists());
        let bad = Decls::stored(&block, n, n + 3);
        assert_eq!(**bad.get(), FileDecls::default());
        assert!(block.is_damaged(), "a part that does not decode marks the block");
        assert!(!store.exists(), "and removes the store");
    }
}
