//! `file:` URIs and paths, both ways (RFC 8089 as editors write them: percent-encoded UTF-8,
//! an empty authority).

use std::path::{Path, PathBuf};

/// The path a `file:` URI names; None for another scheme or a remote host.
pub fn to_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    let path = match rest.find('/') {
        Some(0) => rest,
        Some(i) if rest[..i].eq_ignore_ascii_case("localhost") => &rest[i..],
        _ => return None,
    };
    let bytes = decode(path)?;
    let s = String::from_utf8(bytes).ok()?;
    // `file:///C:/x` on Windows is `C:/x`.
    let s = match s.as_bytes() {
        [b'/', d, b':', ..] if cfg!(windows) && d.is_ascii_alphabetic() => s[1..].to_owned(),
        _ => s,
    };
    Some(PathBuf::from(s))
}

/// The `file:` URI of an absolute path.
pub fn from_path(path: &Path) -> String {
    let s = path.to_string_lossy().replace('\\', "/");
    let mut out = String::from("file://");
    if !s.starts_with('/') {
        out.push('/');
    }
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~!$&'()*+,;=:@".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn decode(s: &str) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_with_spaces_and_unicode_round_trip() {
        let p = Path::new("/w/my dir/Café#1.java");
        let uri = from_path(p);
        assert_eq!(uri, "file:///w/my%20dir/Caf%C3%A9%231.java");
        assert_eq!(to_path(&uri).as_deref(), Some(p));
        assert_eq!(to_path("file://localhost/w/A.java").as_deref(), Some(Path::new("/w/A.java")));
        assert_eq!(to_path("file://server/w/A.java"), None);
        assert_eq!(to_path("untitled:Untitled-1"), None);
    }
}
