//! How the cache encodes what it stores: the compact JSON of an outline with an empty
//! `filePath`, javadoc byte spans, and the model fingerprint that keys entries besides
//! [`super::FORMAT_VERSION`]. (A file's stamp is [`mji_fs::stamp::Stamp`], stored as its size
//! and two halves.)

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use mji_model::FileOutline;

/// Nanoseconds since the Unix epoch (negative before it).
pub(crate) fn system_time_ns(t: SystemTime) -> i64 {
    match t.duration_since(UNIX_EPOCH) {
        Ok(d) => i64::try_from(d.as_nanos()).unwrap_or(i64::MAX),
        Err(e) => -i64::try_from(e.duration().as_nanos()).unwrap_or(i64::MAX),
    }
}

pub(crate) fn now_ns() -> i64 {
    system_time_ns(SystemTime::now())
}

/// A stored outline: its JSON with `"filePath":""`, and its javadoc spans (see [`encode_spans`]).
#[derive(Debug, Clone)]
pub(crate) struct StoredOutline {
    pub json: Arc<str>,
    pub spans: Arc<[u8]>,
}

impl StoredOutline {
    /// Builds the entry of a fresh outline (whatever its `file_path`).
    pub fn of(outline: &mut FileOutline) -> Option<StoredOutline> {
        let path = std::mem::take(&mut outline.file_path);
        let json = serde_json::to_string(&*outline);
        outline.file_path = path;
        Some(StoredOutline { json: json.ok()?.into(), spans: encode_spans(outline).into() })
    }

    pub fn bytes(&self) -> usize {
        self.json.len() + self.spans.len()
    }

    /// The outline, with `file_path` set to `display`; `None` if the stored data is damaged or
    /// is not the outline of `hash`.
    pub fn decode(&self, display: &str, hash: &str) -> Option<FileOutline> {
        if !self.looks_like(hash) {
            return None;
        }
        let mut outline: FileOutline = serde_json::from_str(&self.json).ok()?;
        if outline.hash != hash || !decode_spans(&mut outline, &self.spans) {
            return None;
        }
        outline.file_path = display.to_owned();
        Some(outline)
    }

    /// The JSON with `filePath` set to `display`, spliced without deserializing; `None` if the
    /// stored JSON is damaged or is not the outline of `hash`.
    pub(crate) fn json_for(&self, display: &str, hash: &str) -> Option<String> {
        if !self.looks_like(hash) || !is_valid_json(&self.json) {
            return None;
        }
        Some(splice_file_path(&self.json, display))
    }

    /// The cheap structural check: the JSON starts as serde writes a [`FileOutline`] with an
    /// empty path and carries `hash` near the start.
    fn looks_like(&self, hash: &str) -> bool {
        let j = self.json.as_bytes();
        if !j.starts_with(EMPTY_PATH_PREFIX.as_bytes()) || !j.ends_with(b"}") {
            return false;
        }
        let head = &j[..j.len().min(EMPTY_PATH_PREFIX.len() + 128)];
        let key = b"\"hash\":\"";
        let Some(at) = head.windows(key.len()).position(|w| w == key) else {
            return false;
        };
        let value = &head[at + key.len()..];
        value.starts_with(hash.as_bytes()) && value.get(hash.len()) == Some(&b'"')
    }
}

/// How serde writes the start of a [`FileOutline`] whose `file_path` is empty.
pub(crate) const EMPTY_PATH_PREFIX: &str = "{\"filePath\":\"\"";

/// Syntax check of a JSON text without building values.
fn is_valid_json(json: &str) -> bool {
    serde_json::from_str::<serde::de::IgnoredAny>(json).is_ok()
}

/// Replaces the empty `filePath` at the start of `json` by the JSON string of `display`.
/// The caller has checked that `json` starts with [`EMPTY_PATH_PREFIX`].
pub(crate) fn splice_file_path(json: &str, display: &str) -> String {
    let rest = &json[EMPTY_PATH_PREFIX.len()..];
    let quoted = serde_json::to_string(display).unwrap_or_else(|_| "\"\"".to_owned());
    let mut out = String::with_capacity(json.len() + quoted.len());
    out.push_str("{\"filePath\":");
    out.push_str(&quoted);
    out.push_str(rest);
    out
}

/// The javadoc byte spans (not part of the JSON) as LEB128 varints in [`FileOutline::decls`]
/// order: `0` for none, else `start + 1` then `end - start`.
pub(crate) fn encode_spans(outline: &FileOutline) -> Vec<u8> {
    let mut spans = Vec::new();
    collect_spans(outline, &mut spans);
    let mut out = Vec::with_capacity(spans.len() * 4);
    for span in spans {
        match span {
            None => push_varint(&mut out, 0),
            Some((a, b)) => {
                push_varint(&mut out, a as u64 + 1);
                push_varint(&mut out, b.saturating_sub(a) as u64);
            }
        }
    }
    out
}

fn collect_spans(outline: &FileOutline, out: &mut Vec<Option<(usize, usize)>>) {
    out.extend(outline.decls().into_iter().map(|d| d.javadoc().span));
}

/// Puts the spans back; false if `bytes` does not hold exactly one span per javadoc.
fn decode_spans(outline: &mut FileOutline, bytes: &[u8]) -> bool {
    let mut pos = 0usize;
    let mut ok = true;
    outline.for_each_decl_mut(|_, jd| {
        if !ok {
            return;
        }
        match read_varint(bytes, &mut pos) {
            Some(0) => jd.span = None,
            Some(a1) => match read_varint(bytes, &mut pos) {
                Some(len) => {
                    let a = (a1 - 1) as usize;
                    jd.span = Some((a, a.saturating_add(len as usize)));
                }
                None => ok = false,
            },
            None => ok = false,
        }
    });
    ok && pos == bytes.len()
}

fn push_varint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

fn read_varint(bytes: &[u8], pos: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *bytes.get(*pos)?;
        *pos += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return Some(v);
        }
    }
    None
}

include!(concat!(env!("OUT_DIR"), "/fingerprint.rs"));

/// The crate version and a hash of every source that shapes a cached outline (the parser's
/// and the model's crates, this encoding, the dependency lock; made by `build.rs`): cached
/// entries are keyed by it besides [`super::FORMAT_VERSION`], so a model or parser change
/// that forgot to bump the version still misses instead of serving old shapes.
pub(crate) fn model_fingerprint() -> &'static str {
    MODEL_FINGERPRINT
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip() {
        let mut out = Vec::new();
        for v in [0u64, 1, 127, 128, 300, u32::MAX as u64, u64::MAX] {
            out.clear();
            push_varint(&mut out, v);
            let mut pos = 0;
            assert_eq!(read_varint(&out, &mut pos), Some(v));
            assert_eq!(pos, out.len());
        }
        assert_eq!(read_varint(&[0x80], &mut 0), None);
    }

    #[test]
    fn entries_round_trip_spans_and_reject_damage() {
        let src = b"package a;\n/** Doc. */\nclass A {\n  /** F. */ int f;\n  void m() {}\n}\n";
        let hash = mji_parser::content_hash(src);
        let mut fresh = mji_parser::outline("shown/A.java", src);
        assert!(fresh.classes[0].javadoc.span.is_some());
        let entry = StoredOutline::of(&mut fresh).expect("entry");
        assert_eq!(fresh.file_path, "shown/A.java");
        assert!(entry.json.starts_with(EMPTY_PATH_PREFIX));
        let back = entry.decode("shown/A.java", &hash).expect("decodes");
        assert_eq!(back, fresh);
        assert_eq!(back.classes[0].javadoc.span, fresh.classes[0].javadoc.span);
        assert_eq!(
            entry.json_for("x\"y", &hash).expect("json"),
            serde_json::to_string(&FileOutline { file_path: "x\"y".to_owned(), ..fresh.clone() }).expect("serializes")
        );
        // Another file's hash, truncated spans, truncated JSON: all refused.
        assert!(entry.decode("a", &"0".repeat(40)).is_none());
        assert!(entry.json_for("a", &"0".repeat(40)).is_none());
        let short = StoredOutline { json: entry.json.clone(), spans: entry.spans[..entry.spans.len() - 1].into() };
        assert!(short.decode("a", &hash).is_none());
        let cut = StoredOutline {
            json: format!("{}}}", &entry.json[..entry.json.len() / 2]).into(),
            spans: entry.spans.clone(),
        };
        assert!(cut.decode("a", &hash).is_none());
        assert!(cut.json_for("a", &hash).is_none());
        // Multi-byte text where the hash is looked for: refused, no panic.
        let wide = StoredOutline {
            json: format!("{EMPTY_PATH_PREFIX},\"x\":\"{}\"}}", "é".repeat(200)).into(),
            spans: entry.spans.clone(),
        };
        for n in 0..4 {
            let shifted = StoredOutline {
                json: wide.json.replacen("\"x\"", &format!("\"{}\"", "y".repeat(n)), 1).into(),
                spans: wide.spans.clone(),
            };
            assert!(shifted.decode("a", &hash).is_none());
            assert!(shifted.json_for("a", &hash).is_none());
        }
    }

    #[test]
    fn the_fingerprint_is_the_version_and_a_hash_of_the_sources() {
        let (version, hash) = model_fingerprint().rsplit_once('-').expect("VERSION-HASH");
        assert_eq!(version, env!("CARGO_PKG_VERSION"));
        assert!(hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()), "{hash}");
    }
}
