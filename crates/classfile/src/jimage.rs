//! The JDK's runtime image, `lib/modules` (the jimage format of `jdk.internal.jimage`): a
//! header, a redirect table, an offsets table, the locations (attribute streams naming each
//! resource's module, parent, base, extension, offset and sizes) and the strings, then the
//! resources. Read in the machine's byte order (the image is written in it), index bounded,
//! resources read on demand at their offset. Compressed resources (`jlink --compress`) are
//! listed but not read.

use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};

use crate::ClassError;

pub(crate) const MAGIC: u32 = 0xCAFE_DADA;
const HEADER: usize = 28;
/// The largest index (redirect, offsets, locations, strings) read into memory.
const MAX_INDEX_BYTES: usize = 256 << 20;
/// The largest resource read.
const MAX_RESOURCE_BYTES: u64 = 64 << 20;

/// One resource: `/java.base/java/lang/String.class` is module `java.base`, name
/// `java/lang/String.class`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resource {
    pub module: String,
    pub name: String,
    offset: u64,
    pub(crate) compressed: u64,
    pub(crate) size: u64,
}

/// An opened image: its resources by name (the first module holding a name wins).
#[derive(Debug)]
pub struct JImage {
    pub path: PathBuf,
    file: File,
    /// Where resources start: after the header and the index.
    base: u64,
    len: u64,
    pub resources: Vec<Resource>,
    by_name: HashMap<String, usize>,
    /// Resources stored compressed, which are not read.
    pub compressed: usize,
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_ne_bytes(b.get(at..at.checked_add(4)?)?.try_into().ok()?))
}

/// A NUL-terminated string of the strings table.
fn string_at(strings: &[u8], at: u64) -> Option<String> {
    let rest = strings.get(usize::try_from(at).ok()?..)?;
    let end = rest.iter().position(|&c| c == 0)?;
    Some(String::from_utf8_lossy(&rest[..end]).into_owned())
}

impl JImage {
    /// Opens `path` and reads its index.
    pub fn open(path: &Path) -> Result<JImage, ClassError> {
        let (file, _) = mji_fs::open_regular(path, u64::MAX)?;
        let len = file.metadata()?.len();
        let mut head = [0u8; HEADER];
        mji_fs::read_exact_at(&file, &mut head, 0)?;
        let field = |i: usize| u32_at(&head, i * 4).unwrap_or(0);
        if field(0) != MAGIC {
            return Err(ClassError::NotAZip);
        }
        let (count, table, loc_size, str_size) =
            (field(3) as usize, field(4) as usize, field(5) as usize, field(6) as usize);
        let index = table
            .checked_mul(8)
            .and_then(|t| t.checked_add(loc_size)?.checked_add(str_size))
            .filter(|&n| n <= MAX_INDEX_BYTES && (HEADER + n) as u64 <= len)
            .ok_or(ClassError::Truncated(HEADER))?;
        let mut ix = vec![0u8; index];
        mji_fs::read_exact_at(&file, &mut ix, HEADER as u64)?;
        let offsets = &ix[table * 4..table * 8];
        let locations = &ix[table * 8..table * 8 + loc_size];
        let strings = &ix[table * 8 + loc_size..];
        let mut img = JImage {
            path: path.to_owned(),
            file,
            base: (HEADER + index) as u64,
            len,
            resources: Vec::with_capacity(count.min(1 << 20)),
            by_name: HashMap::new(),
            compressed: 0,
        };
        for i in 0..table {
            let Some(at) = u32_at(offsets, i * 4) else { break };
            let Some(attrs) = attributes(locations, at as usize) else { continue };
            let s = |k: usize| string_at(strings, attrs[k]).unwrap_or_default();
            let (module, parent, base, ext) = (s(1), s(2), s(3), s(4));
            if module.is_empty() || module == "modules" || module == "packages" {
                continue;
            }
            let mut name = String::new();
            if !parent.is_empty() {
                name.push_str(&parent);
                name.push('/');
            }
            name.push_str(&base);
            if !ext.is_empty() {
                name.push('.');
                name.push_str(&ext);
            }
            if attrs[6] != 0 {
                img.compressed += 1;
            }
            let r = Resource { module, name, offset: attrs[5], compressed: attrs[6], size: attrs[7] };
            img.by_name.entry(r.name.clone()).or_insert(img.resources.len());
            img.resources.push(r);
        }
        Ok(img)
    }

    /// The bytes of a resource; `None` if it is compressed.
    pub fn read(&self, r: &Resource) -> Result<Option<Vec<u8>>, ClassError> {
        if r.compressed != 0 {
            return Ok(None);
        }
        let start = self.base.checked_add(r.offset).ok_or(ClassError::Truncated(0))?;
        if r.size > MAX_RESOURCE_BYTES || start.checked_add(r.size).is_none_or(|e| e > self.len) {
            return Err(ClassError::TooLarge(r.name.clone()));
        }
        let mut buf = vec![0u8; r.size as usize];
        mji_fs::read_exact_at(&self.file, &mut buf, start)?;
        Ok(Some(buf))
    }

    /// The resource named `name` (`java/lang/String.class`) in any module.
    pub fn find(&self, name: &str) -> Option<&Resource> {
        self.by_name.get(name).map(|&i| &self.resources[i])
    }
}

/// The attributes of the location at `at`: END, MODULE, PARENT, BASE, EXTENSION, OFFSET,
/// COMPRESSED, UNCOMPRESSED (by kind), each a big-endian value of 1 to 8 bytes.
fn attributes(locations: &[u8], mut at: usize) -> Option<[u64; 8]> {
    let mut out = [0u64; 8];
    loop {
        let b = *locations.get(at)?;
        let kind = usize::from(b >> 3);
        if kind == 0 {
            return Some(out);
        }
        let n = usize::from(b & 7) + 1;
        let bytes = locations.get(at + 1..at + 1 + n)?;
        let v = bytes.iter().fold(0u64, |v, &x| (v << 8) | u64::from(x));
        *out.get_mut(kind)? = v;
        at += 1 + n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garbled_images_are_errors_not_panics() {
        let dir = std::env::temp_dir().join(format!("mji-jimage-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("mkdir");
        let p = dir.join("modules");
        let mut head = Vec::new();
        for v in [MAGIC, 0x0001_0000, 0, 5, u32::MAX, 7, 9] {
            head.extend_from_slice(&v.to_ne_bytes());
        }
        for bytes in [&b""[..], &b"junk"[..], &head[..]] {
            std::fs::write(&p, bytes).expect("write");
            assert!(JImage::open(&p).is_err());
        }
        // A location stream that runs off its table ends the stream, not the reader.
        assert_eq!(attributes(&[0x0f, 1], 0), None);
        assert_eq!(attributes(&[0x08, 7, 0], 0).map(|a| a[1]), Some(7));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
