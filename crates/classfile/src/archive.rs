//! Zip archives (jars, `-sources.jar`, `src.zip`) and the JDK's `jmods/*.jmod` (a zip after a
//! 4-byte `JM` header), read from the central directory: listing needs no decompression, an
//! entry is inflated on demand, every size capped and checked. A JDK without `jmods/` (a
//! linkable runtime, JDK 24+) is read from its runtime image, `lib/modules`, through the same
//! type: its resources are the entries (`java/util/HashMap.class`); and so is a class
//! directory of a classpath (`target/classes`): its `.class` files, by relative path, are the
//! entries (links not followed, depth and count capped).

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use crate::ClassError;

/// An archive larger than this is not opened.
pub const MAX_ARCHIVE_BYTES: u64 = 2 << 30;
/// An entry that inflates to more than this is refused.
pub const MAX_ENTRY_BYTES: u64 = 64 << 20;
/// A central directory larger than this is refused.
const MAX_CENTRAL_DIR: u64 = 256 << 20;
/// A class directory with more class files than this is refused.
pub const MAX_DIR_ENTRIES: usize = 1 << 20;
/// The most entries read from one zip archive unless the caller says otherwise (the
/// configuration's `max_archive_entries`): the rest are not listed, and the archive says so
/// ([`Archive::capped`]).
pub const DEFAULT_MAX_ENTRIES: usize = 100_000;
/// Directories nested deeper than this inside a class directory are not read.
const MAX_DIR_DEPTH: usize = 64;

/// One file in an archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub name: String,
    pub method: u16,
    pub compressed: u64,
    pub size: u64,
    /// Offset of the local header, from the start of the zip data.
    pub local_offset: u64,
}

/// An open archive: its path, where the zip data starts, and its central directory.
#[derive(Debug)]
pub struct Archive {
    pub path: PathBuf,
    /// `None` for a class directory.
    file: Option<File>,
    base: u64,
    pub len: u64,
    /// The entries read, in the central directory's order.
    pub entries: Vec<Entry>,
    /// How many entries the archive holds, when that is more than were read (the cap).
    pub capped: Option<u64>,
    /// The positions of `entries`, sorted by name (a stable sort: the first of equal names
    /// first), for [`Archive::find`].
    by_name: Vec<u32>,
    /// A runtime image's index: then an entry's `local_offset` is its resource's position.
    image: Option<crate::jimage::JImage>,
}

/// The `method` of an entry of a runtime image (stored uncompressed; compressed resources are
/// not listed).
const IMAGE_RESOURCE: u16 = u16::MAX;
/// The `method` of an entry of a class directory (a file under it).
const DIR_FILE: u16 = u16::MAX - 1;

fn le16(b: &[u8], at: usize) -> Result<u16, ClassError> {
    b.get(at..at + 2).map(|s| u16::from_le_bytes([s[0], s[1]])).ok_or(ClassError::Truncated(at))
}
fn le32(b: &[u8], at: usize) -> Result<u32, ClassError> {
    b.get(at..at + 4).map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]])).ok_or(ClassError::Truncated(at))
}
fn le64(b: &[u8], at: usize) -> Result<u64, ClassError> {
    b.get(at..at + 8)
        .map(|s| u64::from_le_bytes([s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]]))
        .ok_or(ClassError::Truncated(at))
}

fn read_at(file: &mut File, at: u64, len: u64) -> Result<Vec<u8>, ClassError> {
    file.seek(SeekFrom::Start(at))?;
    let mut buf = Vec::new();
    file.take(len).read_to_end(&mut buf)?;
    if buf.len() as u64 != len {
        return Err(ClassError::Truncated(usize::try_from(at).unwrap_or(usize::MAX)));
    }
    Ok(buf)
}

/// The positions of `entries` sorted by name.
fn sorted_by_name(entries: &[Entry]) -> Vec<u32> {
    let mut v: Vec<u32> = (0..u32::try_from(entries.len()).unwrap_or(u32::MAX)).collect();
    v.sort_by(|&a, &b| entries[a as usize].name.cmp(&entries[b as usize].name));
    v
}

impl Archive {
    fn new(path: &Path, file: Option<File>, base: u64, len: u64, entries: Vec<Entry>) -> Archive {
        let by_name = sorted_by_name(&entries);
        Archive { path: path.to_owned(), file, base, len, entries, capped: None, by_name, image: None }
    }

    /// Opens a jar, zip or jmod (a regular file, at most [`MAX_ARCHIVE_BYTES`]) and reads its
    /// central directory, at most `max_entries` of its entries (in the directory's order;
    /// [`Archive::capped`] says how many it holds when there are more). The directory is read
    /// through a buffer, one record at a time. Links are followed (a JDK's `src.zip` and
    /// Debian's jars are links): the caller decides which archives may be opened, and the file
    /// opened must be regular.
    pub fn open(path: &Path, max_entries: usize) -> Result<Archive, ClassError> {
        let real = std::fs::canonicalize(path)?;
        if real.is_dir() {
            let entries = dir_entries(&real)?;
            return Ok(Archive::new(path, None, 0, 0, entries));
        }
        let (mut file, meta) = mji_fs::open_regular(&real, MAX_ARCHIVE_BYTES)?;
        let len = meta.len();
        let head = read_at(&mut file, 0, len.min(4))?;
        if let Ok(magic) = <[u8; 4]>::try_from(head.as_slice())
            && u32::from_ne_bytes(magic) == crate::jimage::MAGIC
        {
            let image = crate::jimage::JImage::open(&real)?;
            let entries = image
                .resources
                .iter()
                .enumerate()
                .filter(|(_, r)| r.compressed == 0)
                .map(|(i, r)| Entry {
                    name: r.name.clone(),
                    method: IMAGE_RESOURCE,
                    compressed: r.size,
                    size: r.size,
                    local_offset: i as u64,
                })
                .collect();
            let mut a = Archive::new(path, Some(file), 0, len, entries);
            a.image = Some(image);
            return Ok(a);
        }
        let base: u64 = if head.starts_with(b"JM") { 4 } else { 0 };
        let tail_len = len.min(65_535 + 22 + 20);
        let tail = read_at(&mut file, len - tail_len, tail_len)?;
        let eocd = (0..tail.len().saturating_sub(21))
            .rev()
            .find(|&i| tail[i..i + 4] == [0x50, 0x4b, 0x05, 0x06])
            .ok_or(ClassError::NotAZip)?;
        let mut count = u64::from(le16(&tail, eocd + 10)?);
        let mut cd_size = u64::from(le32(&tail, eocd + 12)?);
        let mut cd_off = u64::from(le32(&tail, eocd + 16)?);
        // Zip64: the locator sits just before the end record and points at the zip64 record.
        if (count == 0xFFFF || cd_size == 0xFFFF_FFFF || cd_off == 0xFFFF_FFFF)
            && eocd >= 20
            && le32(&tail, eocd - 20)? == 0x0706_4b50
        {
            let rec_off = le64(&tail, eocd - 20 + 8)?;
            let rec = read_at(&mut file, base.saturating_add(rec_off), 56)?;
            if le32(&rec, 0)? != 0x0606_4b50 {
                return Err(ClassError::NotAZip);
            }
            count = le64(&rec, 32)?;
            cd_size = le64(&rec, 40)?;
            cd_off = le64(&rec, 48)?;
        }
        if cd_size > MAX_CENTRAL_DIR || base.saturating_add(cd_off).saturating_add(cd_size) > len {
            return Err(ClassError::NotAZip);
        }
        let (entries, capped) = read_central(&mut file, base + cd_off, cd_size, count, max_entries)?;
        let mut a = Archive::new(path, Some(file), base, len, entries);
        a.capped = capped;
        Ok(a)
    }

    /// The bytes of `entry`, inflated; at most [`MAX_ENTRY_BYTES`].
    pub fn read(&mut self, entry: &Entry) -> Result<Vec<u8>, ClassError> {
        if entry.size > MAX_ENTRY_BYTES || entry.compressed > MAX_ENTRY_BYTES {
            return Err(ClassError::TooLarge(entry.name.clone()));
        }
        if let Some(image) = &self.image {
            let r = usize::try_from(entry.local_offset)
                .ok()
                .and_then(|i| image.resources.get(i))
                .filter(|r| r.name == entry.name && entry.method == IMAGE_RESOURCE)
                .ok_or_else(|| ClassError::TooLarge(entry.name.clone()))?;
            return image.read(r)?.ok_or(ClassError::Compression(IMAGE_RESOURCE));
        }
        let Some(file) = self.file.as_mut() else {
            // A class directory: the entry is a file under it, read without following links.
            if entry.method != DIR_FILE || entry.name.split('/').any(|p| p.is_empty() || p == "." || p == "..") {
                return Err(ClassError::TooLarge(entry.name.clone()));
            }
            let real = std::fs::canonicalize(&self.path)?;
            return Ok(mji_fs::read_regular(&real.join(&entry.name), MAX_ENTRY_BYTES)?);
        };
        let at = self.base.saturating_add(entry.local_offset);
        let head = read_at(file, at, 30)?;
        if le32(&head, 0)? != 0x0403_4b50 {
            return Err(ClassError::NotAZip);
        }
        let skip = 30 + u64::from(le16(&head, 26)?) + u64::from(le16(&head, 28)?);
        let data_at = at.saturating_add(skip);
        if data_at.saturating_add(entry.compressed) > self.len {
            return Err(ClassError::Truncated(usize::try_from(data_at).unwrap_or(usize::MAX)));
        }
        let raw = read_at(file, data_at, entry.compressed)?;
        match entry.method {
            0 => Ok(raw),
            8 => {
                let mut out = Vec::with_capacity(usize::try_from(entry.size.min(MAX_ENTRY_BYTES)).unwrap_or(0));
                flate2::read::DeflateDecoder::new(&raw[..]).take(MAX_ENTRY_BYTES + 1).read_to_end(&mut out)?;
                if out.len() as u64 > MAX_ENTRY_BYTES {
                    return Err(ClassError::TooLarge(entry.name.clone()));
                }
                Ok(out)
            }
            m => Err(ClassError::Compression(m)),
        }
    }

    /// The entry named `name` (the first, when several are).
    pub fn find(&self, name: &str) -> Option<&Entry> {
        let at = self.by_name.partition_point(|&i| self.entries[i as usize].name.as_str() < name);
        self.by_name.get(at).map(|&i| &self.entries[i as usize]).filter(|e| e.name == name)
    }

    /// Reads the entry named `name`, if there is one.
    pub fn read_named(&mut self, name: &str) -> Result<Option<Vec<u8>>, ClassError> {
        match self.find(name).cloned() {
            Some(e) => self.read(&e).map(Some),
            None => Ok(None),
        }
    }

    /// The prefix class files have in this archive: `classes/` in a jmod, none in a jar.
    pub fn class_prefix(&self) -> &'static str {
        if self.base == 4 { "classes/" } else { "" }
    }
}

/// At most `max_entries` records of the central directory of `cd_size` bytes at `at` (which
/// says it holds `count`), read one at a time through a buffer; and how many it holds when
/// that is more than were read.
fn read_central(
    file: &mut File,
    at: u64,
    cd_size: u64,
    count: u64,
    max_entries: usize,
) -> Result<(Vec<Entry>, Option<u64>), ClassError> {
    file.seek(SeekFrom::Start(at))?;
    let mut r = std::io::BufReader::with_capacity(1 << 16, Read::take(&mut *file, cd_size));
    let mut entries = Vec::with_capacity(usize::try_from(count).unwrap_or(0).min(max_entries).min(1 << 20));
    let mut head = [0u8; 46];
    let mut var: Vec<u8> = Vec::new();
    let mut read: u64 = 0;
    loop {
        match r.read_exact(&mut head) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
            Err(e) => return Err(e.into()),
        }
        if le32(&head, 0)? != 0x0201_4b50 {
            break;
        }
        if entries.len() >= max_entries {
            // Over the cap: the directory's own count, or at least one more than was read.
            return Ok((entries, Some(count.max(read + 1))));
        }
        read += 1;
        let method = le16(&head, 10)?;
        let mut compressed = u64::from(le32(&head, 20)?);
        let mut size = u64::from(le32(&head, 24)?);
        let name_len = usize::from(le16(&head, 28)?);
        let extra_len = usize::from(le16(&head, 30)?);
        let comment_len = usize::from(le16(&head, 32)?);
        let mut local_offset = u64::from(le32(&head, 42)?);
        var.resize(name_len + extra_len + comment_len, 0);
        if r.read_exact(&mut var).is_err() {
            return Err(ClassError::Truncated(usize::try_from(at).unwrap_or(usize::MAX)));
        }
        let (name_bytes, rest) = var.split_at(name_len);
        let extra = &rest[..extra_len];
        // The zip64 extra field holds, in order, whichever of the sizes and offset are full.
        let mut x = 0usize;
        while x + 4 <= extra.len() {
            let id = le16(extra, x)?;
            let dlen = usize::from(le16(extra, x + 2)?);
            if id == 1 {
                let mut q = x + 4;
                for v in [&mut size, &mut compressed, &mut local_offset] {
                    if *v == 0xFFFF_FFFF {
                        *v = le64(extra, q)?;
                        q += 8;
                    }
                }
            }
            x += 4 + dlen;
        }
        entries.push(Entry {
            name: String::from_utf8_lossy(name_bytes).into_owned(),
            method,
            compressed,
            size,
            local_offset,
        });
    }
    Ok((entries, None))
}

/// The `.class` files under a class directory, by path relative to it (`/`-separated), sorted:
/// symbolic links are not followed, directories deeper than [`MAX_DIR_DEPTH`] are not read, and
/// more than [`MAX_DIR_ENTRIES`] files refuse the directory.
fn dir_entries(dir: &Path) -> Result<Vec<Entry>, ClassError> {
    let mut out = Vec::new();
    let mut stack: Vec<(PathBuf, String, usize)> = vec![(dir.to_path_buf(), String::new(), 0)];
    while let Some((d, prefix, depth)) = stack.pop() {
        let Ok(listing) = std::fs::read_dir(&d) else { continue };
        for e in listing.flatten() {
            let Ok(kind) = e.file_type() else { continue };
            let Some(name) = e.file_name().to_str().map(str::to_owned) else { continue };
            let rel = format!("{prefix}{name}");
            if kind.is_dir() && depth < MAX_DIR_DEPTH {
                stack.push((e.path(), format!("{rel}/"), depth + 1));
            } else if kind.is_file() && name.ends_with(".class") {
                if out.len() >= MAX_DIR_ENTRIES {
                    return Err(ClassError::TooLarge(format!(
                        "{} (over {MAX_DIR_ENTRIES} class files)",
                        dir.display()
                    )));
                }
                let size = e.metadata().map(|m| m.len()).unwrap_or(0);
                out.push(Entry { name: rel, method: DIR_FILE, compressed: size, size, local_offset: 0 });
            }
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

/// A key for a class directory's content: its path and every class file's (name, size,
/// mtime), hashed — a class directory is not immutable, so a rebuilt class changes the key.
pub(crate) fn dir_key(dir: &Path) -> Result<String, ClassError> {
    let mut h = <sha1::Sha1 as sha1::Digest>::new();
    sha1::Digest::update(&mut h, b"class directory\0");
    sha1::Digest::update(&mut h, dir.to_string_lossy().as_bytes());
    for e in dir_entries(dir)? {
        let mtime = std::fs::symlink_metadata(dir.join(&e.name))
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        sha1::Digest::update(&mut h, format!("\0{}\0{}\0{mtime}", e.name, e.size).as_bytes());
    }
    Ok(sha1::Digest::finalize(h).iter().map(|b| format!("{b:02x}")).collect())
}
