//! The reference index's key table and postings as the store holds them, read in place
//! (issue 38): a fresh process answering `refs` or `callers` reads the table (every key's end,
//! the ids in key order, the postings; 1.6 MB on java.base, MAC-checked in one pass, never
//! decoded) and only the chunks of key text its lookups touch (each checked against its MAC,
//! which the table holds), where it used to read, check and decode every key's text (4.8 of
//! the 5.8 MB) on every start.
//!
//! The layout (little-endian): `n`, `m`, `c` and the text's length (u32 each); `ends[n]` (key
//! `i` is `text[ends[i - 1]..ends[i]]`), `sorted[n]` (the ids in key order), `post_off[n + 1]`
//! and `post_files[m]` (key `k`'s files are `post_files[post_off[k]..post_off[k + 1]]`), the
//! chunks' ends `chunk_ends[c]` (each at a key's end: no key spans two) and their MACs
//! (`c` × 32 bytes): the table, under the store's keys MAC; then the text. Every read is
//! bounds-checked: a table that does not fit (a bug of the writer: the MAC held) marks the
//! part damaged, the store is removed and the engine drops the index (every file is bound
//! again), never a panic or a silent empty answer.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, OnceLock};

use crate::index::refindex::MAGIC;

/// About how much key text one chunk holds: a lookup reads a chunk per key it touches.
const CHUNK: usize = 4096;

const HEAD: usize = 16;

/// The parts of a key table and its postings, to be encoded.
pub(crate) struct Parts<'a> {
    pub text: &'a str,
    pub ends: &'a [u32],
    pub sorted: &'a [u32],
    pub post_off: &'a [u32],
    pub post_files: &'a [u32],
}

/// The MAC of one chunk of key text (the table, under the store's MAC, holds it).
fn chunk_mac(bytes: &[u8]) -> Option<[u8; 32]> {
    let key = mji_fs::provenance::Key::user().ok()?;
    Some(key.fast_mac_of(MAGIC, &[b"key text", bytes]))
}

/// The keys part's bytes and how long its table is (the part the store's keys MAC covers).
pub(crate) fn encode(p: &Parts) -> Option<(Vec<u8>, usize)> {
    let n = u32::try_from(p.ends.len()).ok()?;
    let m = u32::try_from(p.post_files.len()).ok()?;
    let text_len = u32::try_from(p.text.len()).ok()?;
    // Chunks cut at key ends: the first end at or past each chunk's size.
    let mut chunk_ends: Vec<u32> = Vec::new();
    let mut start = 0u32;
    for e in p.ends {
        if e.saturating_sub(start) as usize >= CHUNK {
            chunk_ends.push(*e);
            start = *e;
        }
    }
    if start < text_len {
        chunk_ends.push(text_len);
    }
    let c = u32::try_from(chunk_ends.len()).ok()?;
    let mut out = Vec::with_capacity(table_len(n, m, c)? + p.text.len());
    for x in [n, m, c, text_len] {
        out.extend_from_slice(&x.to_le_bytes());
    }
    for a in [p.ends, p.sorted, p.post_off, p.post_files, &chunk_ends] {
        a.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
    }
    let mut from = 0usize;
    for e in &chunk_ends {
        out.extend_from_slice(&chunk_mac(p.text.as_bytes().get(from..*e as usize)?)?);
        from = *e as usize;
    }
    let table = out.len();
    out.extend_from_slice(p.text.as_bytes());
    Some((out, table))
}

/// The table's length for these counts, when it fits in memory.
fn table_len(n: u32, m: u32, c: u32) -> Option<usize> {
    let words = (n as usize).checked_mul(3)?.checked_add(1)?.checked_add(m as usize)?.checked_add(c as usize)?;
    HEAD.checked_add(words.checked_mul(4)?)?.checked_add((c as usize).checked_mul(32)?)
}

/// A keys part as read: its table in memory, its text on disk, each chunk read and checked
/// on first use.
pub(crate) struct KeyPart {
    n: u32,
    m: u32,
    c: u32,
    /// How many files the postings index (the header's).
    files: u32,
    table: Vec<u8>,
    file: Arc<std::fs::File>,
    text_at: u64,
    text_len: u32,
    chunks: Box<[OnceLock<Option<Box<str>>>]>,
    store: PathBuf,
    damaged: AtomicBool,
}

impl KeyPart {
    /// Reads the table of the part at `offset..offset + len` of `file`, used only when
    /// `checks` (its MAC) holds and its counts fit: `n` keys, postings over `files` files.
    pub fn open(
        file: Arc<std::fs::File>,
        store: PathBuf,
        offset: u64,
        len: u64,
        n: u32,
        files: u32,
        checks: impl FnOnce(&[u8]) -> bool,
    ) -> Option<KeyPart> {
        let mut head = [0u8; HEAD];
        mji_fs::read_exact_at(&file, &mut head, offset).ok()?;
        let word = |i: usize| head.get(i * 4..i * 4 + 4).and_then(|b| Some(u32::from_le_bytes(b.try_into().ok()?)));
        let (hn, m, c, text_len) = (word(0)?, word(1)?, word(2)?, word(3)?);
        let tlen = table_len(hn, m, c)?;
        if hn != n || (tlen as u64).checked_add(u64::from(text_len))? != len {
            return None;
        }
        let mut table = vec![0u8; tlen];
        mji_fs::read_exact_at(&file, &mut table, offset).ok()?;
        if !checks(&table) {
            return None;
        }
        let chunks = (0..c).map(|_| OnceLock::new()).collect();
        Some(KeyPart {
            n,
            m,
            c,
            files,
            table,
            file,
            text_at: offset + tlen as u64,
            text_len,
            chunks,
            store,
            damaged: AtomicBool::new(false),
        })
    }

    pub fn len(&self) -> u32 {
        self.n
    }

    /// How many (key, file) pairs the postings hold, and how many files they index.
    pub fn posting_count(&self) -> usize {
        self.m as usize
    }

    pub fn file_count(&self) -> u32 {
        self.files
    }

    pub fn is_damaged(&self) -> bool {
        self.damaged.load(Relaxed)
    }

    /// Marks the part damaged (once: said in the log, the store removed, so the next process
    /// binds every file again); this process's engine drops the index at its next use.
    pub fn damage(&self, what: &str) {
        if !self.damaged.swap(true, Relaxed) {
            tracing::warn!(store = %self.store.display(), "the reference store's key table is damaged ({what}); it is removed");
            let _ = std::fs::remove_file(&self.store);
        }
    }

    /// Word `i` of the table's section that starts after `words` words, bounds-checked.
    fn word(&self, words: usize, i: usize) -> Option<u32> {
        let at = HEAD + (words + i) * 4;
        let b = self.table.get(at..at + 4)?;
        Some(u32::from_le_bytes(b.try_into().ok()?))
    }

    fn n(&self) -> usize {
        self.n as usize
    }

    fn end(&self, i: usize) -> Option<u32> {
        (i < self.n()).then(|| self.word(0, i)).flatten()
    }

    fn sorted(&self, i: usize) -> Option<u32> {
        (i < self.n()).then(|| self.word(self.n(), i)).flatten()
    }

    fn post_off(&self, k: usize) -> Option<u32> {
        (k <= self.n()).then(|| self.word(2 * self.n(), k)).flatten()
    }

    fn post_file(&self, i: usize) -> Option<u32> {
        (i < self.m as usize).then(|| self.word(3 * self.n() + 1, i)).flatten()
    }

    fn chunk_end(&self, j: usize) -> Option<u32> {
        (j < self.c as usize).then(|| self.word(3 * self.n() + 1 + self.m as usize, j)).flatten()
    }

    fn chunk_mac(&self, j: usize) -> Option<&[u8]> {
        let at = HEAD + (3 * self.n() + 1 + self.m as usize + self.c as usize) * 4 + j * 32;
        (j < self.c as usize).then(|| self.table.get(at..at + 32)).flatten()
    }

    fn chunk_start(&self, j: usize) -> Option<u32> {
        if j == 0 { Some(0) } else { self.chunk_end(j - 1) }
    }

    /// Chunk `j`'s text, read and checked on first use.
    fn chunk(&self, j: usize) -> Option<&str> {
        let cell = self.chunks.get(j)?;
        cell.get_or_init(|| {
            let (a, b) = (self.chunk_start(j)?, self.chunk_end(j)?);
            if a > b || b > self.text_len {
                return None;
            }
            let mut bytes = vec![0u8; (b - a) as usize];
            mji_fs::read_exact_at(&self.file, &mut bytes, self.text_at + u64::from(a)).ok()?;
            let mac = chunk_mac(&bytes)?;
            if !mji_fs::provenance::same_mac(self.chunk_mac(j)?, &mac) {
                return None;
            }
            Some(String::from_utf8(bytes).ok()?.into_boxed_str())
        })
        .as_deref()
    }

    /// Key `id`'s text; `None` (the part marked damaged) when the table or the text does not
    /// fit or check.
    pub fn get(&self, id: u32) -> Option<&str> {
        let got = self.key(id as usize);
        if got.is_none() {
            self.damage("a key does not read");
        }
        got
    }

    fn key(&self, i: usize) -> Option<&str> {
        let start = if i == 0 { 0 } else { self.end(i - 1)? };
        let end = self.end(i)?;
        if end <= start {
            return (end == start && end <= self.text_len).then_some("");
        }
        // The chunk holding the key: the first that ends past its start.
        let (mut lo, mut hi) = (0usize, self.c as usize);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.chunk_end(mid)? <= start {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let base = self.chunk_start(lo)?;
        let text = self.chunk(lo)?;
        text.get(start.checked_sub(base)? as usize..end.checked_sub(base)? as usize)
    }

    /// The id of key `k`: a binary search over the ids in key order.
    pub fn find(&self, k: &str) -> Option<u32> {
        let (mut lo, mut hi) = (0usize, self.n());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let Some(id) = self.sorted(mid).filter(|id| *id < self.n) else {
                self.damage("an id in key order is out of range");
                return None;
            };
            match self.get(id)?.cmp(k) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(id),
            }
        }
        None
    }

    /// Appends key `k`'s files to `out` (none for a key past the table).
    pub fn postings(&self, k: u32, out: &mut Vec<u32>) {
        if k >= self.n {
            return;
        }
        let k = k as usize;
        let fits = (|| {
            let (a, b) = (self.post_off(k)? as usize, self.post_off(k + 1)? as usize);
            for i in a..b {
                let f = self.post_file(i).filter(|f| *f < self.files)?;
                out.push(f);
            }
            Some(())
        })();
        if fits.is_none() {
            self.damage("a posting is out of range");
        }
    }

    /// The whole table in memory: the text, the ends and the ids in key order (`None`, the
    /// part marked damaged, when they do not read or fit).
    pub fn owned(&self) -> Option<(String, Vec<u32>, Vec<u32>)> {
        let got = (|| {
            let ends: Vec<u32> = (0..self.n()).map(|i| self.end(i)).collect::<Option<_>>()?;
            let sorted: Vec<u32> = (0..self.n()).map(|i| self.sorted(i)).collect::<Option<_>>()?;
            // One read of the whole text, each chunk checked against its MAC.
            let mut bytes = vec![0u8; self.text_len as usize];
            mji_fs::read_exact_at(&self.file, &mut bytes, self.text_at).ok()?;
            let mut from = 0u32;
            for j in 0..self.c as usize {
                let to = self.chunk_end(j)?;
                let mac = chunk_mac(bytes.get(from as usize..to as usize)?)?;
                if !mji_fs::provenance::same_mac(self.chunk_mac(j)?, &mac) {
                    return None;
                }
                from = to;
            }
            if from != self.text_len {
                return None;
            }
            let text = String::from_utf8(bytes).ok()?;
            crate::index::refindex::Keys::fits(&text, &ends, &sorted).then_some((text, ends, sorted))
        })();
        if got.is_none() {
            self.damage("the key table does not read");
        }
        got
    }

    /// Bytes held in memory, roughly.
    pub fn heap_bytes(&self) -> usize {
        self.table.len() + self.chunks.iter().filter_map(|c| c.get()?.as_ref().map(|s| s.len())).sum::<usize>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys of many lengths (some longer than a chunk, one empty) and their postings.
    fn keys() -> Vec<String> {
        let mut k: Vec<String> = (0..3000).map(|i| format!("p{}.T{i}#m{}(int)", i % 7, "x".repeat(i % 50))).collect();
        k.push("é".repeat(CHUNK));
        k.push(String::new());
        k.push("z.Last".into());
        k
    }

    fn write(dir: &std::path::Path, keys: &[String], garble: impl FnOnce(&mut Vec<u8>, usize)) -> KeyPart {
        let mut text = String::new();
        let mut ends = Vec::new();
        for k in keys {
            text.push_str(k);
            ends.push(text.len() as u32);
        }
        let sorted = crate::index::refindex::Keys::sorted_ids(&text, &ends);
        let n = keys.len() as u32;
        let post_off: Vec<u32> = (0..=n).map(|k| k.min(n - 1)).collect();
        let post_files: Vec<u32> = (0..n - 1).map(|k| k % 5).collect();
        let parts = Parts { text: &text, ends: &ends, sorted: &sorted, post_off: &post_off, post_files: &post_files };
        let (mut bytes, table) = encode(&parts).expect("encode");
        garble(&mut bytes, table);
        let path = dir.join("keys.bin");
        std::fs::write(&path, &bytes).expect("write");
        let file = Arc::new(std::fs::File::open(&path).expect("open"));
        KeyPart::open(file, dir.join("store"), 0, bytes.len() as u64, n, 5, |_| true).expect("a table that fits")
    }

    #[test]
    fn every_key_reads_back_in_place_and_is_found_by_its_text() {
        let dir = tempfile::tempdir().expect("tempdir");
        let keys = keys();
        let part = write(dir.path(), &keys, |_, _| ());
        assert!(part.c > 10, "the text is cut in chunks: {}", part.c);
        for (i, k) in keys.iter().enumerate() {
            assert_eq!(part.get(i as u32), Some(k.as_str()), "key {i}");
            assert_eq!(part.find(k), Some(i as u32), "{k}");
        }
        assert_eq!(part.find("p0.T0#m(int)!"), None);
        assert_eq!(part.find("a"), None);
        let mut out = Vec::new();
        part.postings(7, &mut out);
        part.postings(8, &mut out);
        assert_eq!(out, [2, 3]);
        let (text, ends, sorted) = part.owned().expect("owned");
        assert_eq!(text, keys.concat());
        assert_eq!(ends.len(), keys.len());
        assert_eq!(sorted, crate::index::refindex::Keys::sorted_ids(&text, &ends));
        assert!(!part.is_damaged());
    }

    #[test]
    fn a_garbled_table_or_text_is_an_error_never_a_panic() {
        let dir = tempfile::tempdir().expect("tempdir");
        let keys = keys();
        // An id in key order past the table: the search says so.
        let part = write(dir.path(), &keys, |b, _| {
            b[HEAD + 4 * (keys.len() + keys.len() / 2)..][..4].copy_from_slice(&u32::MAX.to_le_bytes())
        });
        std::fs::write(dir.path().join("store"), b"x").expect("store");
        assert_eq!(part.find(&keys[1500]), None);
        assert!(part.is_damaged());
        assert!(!dir.path().join("store").exists(), "the store is removed");
        // An end past the text.
        let part = write(dir.path(), &keys, |b, _| b[HEAD + 4 * 10..][..4].copy_from_slice(&u32::MAX.to_le_bytes()));
        assert_eq!(part.get(10), None);
        assert!(part.is_damaged());
        assert!(part.owned().is_none());
        // A posting past the files.
        let part = write(dir.path(), &keys, |b, _| {
            let at = HEAD + 4 * (3 * keys.len() + 1);
            b[at..at + 4].copy_from_slice(&9u32.to_le_bytes());
        });
        let mut out = Vec::new();
        part.postings(0, &mut out);
        assert!(part.is_damaged());
        // Text that does not match its chunk's MAC.
        let part = write(dir.path(), &keys, |b, table| b[table + 3] ^= 1);
        assert_eq!(part.get(0), None);
        assert!(part.is_damaged());
        assert_eq!(part.get(2990).map(str::len), Some(keys[2990].len()), "other chunks still read");
        assert!(part.owned().is_none(), "the whole table does not read");
    }
}
