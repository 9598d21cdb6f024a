//! The answer budget: how many tokens one tool answer may cost a model, counted with a real
//! tokenizer (OpenAI's o200k BPE: a stand-in for whichever model reads the answer; code costs
//! about the same under the tokenizers of today's models).
//!
//! The binary carries o200k's token list (1.7 MB, `data/o200k_base.tiktoken.gz`), not the
//! prebuilt encoder `bpe_openai::o200k_base` embeds (32 MB, which made the binary 52 MB).
//! The encoder is built from the list once (2–4 s) and kept in the user's cache directory,
//! MAC'd with the user's key; later processes read it back (`call java_index` of a file of
//! 1,500 methods, a cut answer, release build: 2.5 s when it builds the encoder, 0.23–0.55 s
//! when it reads it back).
//! Counting a 1 MB answer takes about 75 ms. The server builds the tokenizer in the background
//! at start ([`warm`]).

use std::io::Read;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use bpe_openai::Tokenizer;
use bpe_openai::byte_pair_encoding::BytePairEncoding;

// The budget itself is the `answer_tokens` setting (default 20,000: under the 25,000 that
// Claude Code passes to a model by default, `MAX_MCP_OUTPUT_TOKENS`, with room to spare).

/// tiktoken's o200k_base token list, as bpe-openai 0.3.2 ships it (MIT).
const O200K_TIKTOKEN_GZ: &[u8] = include_bytes!("../data/o200k_base.tiktoken.gz");
/// bpe-openai's hash factor for its encoders (a collision-free one for these tokens).
const HASH_FACTOR: u64 = 17846336922010275747;

fn tokenizer() -> &'static Tokenizer {
    static T: OnceLock<Tokenizer> = OnceLock::new();
    T.get_or_init(|| {
        // o200k's pre-tokenizer, as bpe_openai::o200k_base builds it.
        let pat1 = [
            "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
            "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
            "\\p{N}{1,3}",
            " ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*",
            "\\s*[\\r\\n]+",
            "\\s+$",
        ]
        .join("|");
        let patterns = [(pat1.as_str(), false), ("\\s+\\s", true), ("\\s+", false)];
        match Tokenizer::new_lookahead(encoder(), &patterns, false) {
            Ok(t) => t,
            // The patterns are constants that compile; this is unreachable short of a broken
            // regex engine, and counting cannot go on without them.
            Err(e) => panic!("o200k's pre-tokenizer patterns do not compile: {e}"),
        }
    })
}

/// The o200k encoder: read back from the user cache when it was built before, else built from
/// the embedded token list (and kept for the next process).
fn encoder() -> BytePairEncoding {
    let path = cache_path();
    if let Some(bpe) = path.as_ref().and_then(|p| read_cached(p)) {
        return bpe;
    }
    let bpe = BytePairEncoding::from_dictionary(tokens(), Some(HASH_FACTOR));
    if let Some(p) = &path
        && let Err(e) = write_cached(p, &bpe)
    {
        tracing::debug!("tokenizer not cached at {}: {e}", p.display());
    }
    bpe
}

/// o200k's tokens in rank order, from the embedded tiktoken file (`base64 rank` lines).
fn tokens() -> Vec<Vec<u8>> {
    use base64::Engine as _;
    let mut text = String::new();
    // The embedded file is a constant; a failure here would be a broken build, and an empty
    // list then yields a tokenizer that counts every byte (an overestimate, never a crash).
    let _ = flate2::read::GzDecoder::new(O200K_TIKTOKEN_GZ).read_to_string(&mut text);
    text.lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter_map(|t| base64::engine::general_purpose::STANDARD.decode(t).ok())
        .collect()
}

/// `<user cache>/tokenizer/o200k-<hash of the list and this format>.bin`.
fn cache_path() -> Option<PathBuf> {
    use sha2::Digest as _;
    let mut h = sha2::Sha256::new();
    h.update(b"o200k rmp v1");
    h.update(HASH_FACTOR.to_le_bytes());
    h.update(O200K_TIKTOKEN_GZ);
    let hex: String = h.finalize()[..8].iter().map(|b| format!("{b:02x}")).collect();
    Some(mji_fs::provenance::user_cache_dir()?.join("tokenizer").join(format!("o200k-{hex}.bin")))
}

/// The cached encoder when its MAC (the user's key over the body) holds.
fn read_cached(path: &std::path::Path) -> Option<BytePairEncoding> {
    let key = mji_fs::provenance::Key::user().ok()?;
    let (file, _) = mji_fs::open_regular(path, 256 << 20).ok()?;
    let mut bytes = Vec::new();
    file.take(256 << 20).read_to_end(&mut bytes).ok()?;
    let (mac, body) = bytes.split_at_checked(32)?;
    if !mji_fs::provenance::same_mac(mac, &key.mac_of(&[b"o200k", body])) {
        return None;
    }
    rmp_serde::from_slice(body).ok()
}

fn write_cached(path: &std::path::Path, bpe: &BytePairEncoding) -> Result<(), String> {
    let key = mji_fs::provenance::Key::user()?;
    let body = rmp_serde::to_vec(bpe).map_err(|e| e.to_string())?;
    let dir = path.parent().ok_or("no directory")?;
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    let mut out = key.mac_of(&[b"o200k", &body]).to_vec();
    out.extend_from_slice(&body);
    mji_fs::write::write_user(path, &out, mji_fs::write::Options { create_dirs: false, ..Default::default() })
        .map_err(|e| e.to_string())
}

/// Builds the tokenizer on another thread, so the first answer does not wait for it; once per
/// process (every session of a server calls it; the `jsonrpc` fuzz target found a detached
/// thread per session, which LeakSanitizer reported). Returns whether it started that thread.
pub fn warm() -> bool {
    static STARTED: AtomicBool = AtomicBool::new(false);
    if STARTED.swap(true, Ordering::AcqRel) {
        return false;
    }
    std::thread::Builder::new()
        .name("tokenizer".to_owned())
        .spawn(|| {
            tokenizer();
        })
        .is_ok()
}

/// The tokens `text` costs.
pub fn count(text: &str) -> usize {
    count_up_to(text, usize::MAX).unwrap_or(usize::MAX)
}

/// Whether `text` costs at most `budget` tokens. A BPE token is at least one byte, so a text of
/// no more bytes than the budget fits without counting.
pub fn fits(text: &str, budget: usize) -> bool {
    text.len() <= budget || count_up_to(text, budget).is_some()
}

/// Pieces longer than this are counted each time (rare: long words, runs of spaces), not kept.
const MAX_KEPT_PIECE: usize = 48;
/// Pieces a thread keeps the count of (about 1 MB); past it the table starts afresh. The JSON
/// of `Character.java`'s first page has under a thousand distinct words and marks.
const MAX_KEPT_PIECES: usize = 1 << 14;

thread_local! {
    /// The token count of each piece the pre-tokenizer cut, per thread. A text's count is the
    /// sum of its pieces' (o200k encodes every piece on its own), and answers repeat most of
    /// their pieces (JSON keys, keywords, names), more so when the answer budget counts the
    /// same answer cut to different lengths: BPE then runs once per distinct piece.
    static PIECES: std::cell::RefCell<std::collections::HashMap<Box<[u8]>, u32>> = Default::default();
}

/// `text`'s tokens if they are at most `limit`: the tokenizer's own count, piece by piece.
pub(crate) fn count_up_to(text: &str, limit: usize) -> Option<usize> {
    let t = tokenizer();
    let text = t.normalize(text);
    PIECES.with_borrow_mut(|kept| {
        if kept.len() > MAX_KEPT_PIECES {
            kept.clear();
        }
        let mut n = 0usize;
        for piece in t.split(text.as_str()).map(str::as_bytes) {
            n += match kept.get(piece) {
                Some(&c) => c as usize,
                None if piece.len() <= MAX_KEPT_PIECE => {
                    let c = t.bpe.count(piece);
                    kept.insert(piece.into(), c as u32);
                    c
                }
                None => t.bpe.count_till_limit(piece, limit - n)?,
            };
            if n > limit {
                return None;
            }
        }
        Some(n)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A server calls `warm` once per session; only the first call may start a thread.
    #[test]
    fn warming_starts_at_most_one_thread_per_process() {
        let started = (0..100).filter(|_| warm()).count();
        assert!(started <= 1, "{started} threads started");
        assert_eq!(count("hello world"), 2);
    }

    #[test]
    fn counts_like_o200k() {
        // tiktoken's o200k_base: "hello" and " world".
        assert_eq!(count("hello world"), 2);
        assert_eq!(count(""), 0);
        // Words of code cost more than one byte each, far less than one token each.
        let code = "public static void main(String[] args) {";
        assert!((5..code.len() / 2).contains(&count(code)), "{}", count(code));
    }

    /// Counting piece by piece with the kept counts gives the tokenizer's own count, on a cold
    /// and on a warm table, for code, JSON, long pieces and text outside ASCII.
    #[test]
    fn kept_piece_counts_agree_with_the_tokenizer() {
        let texts = [
            "public static void main(String[] args) { return a.b(c, \"d\"); }".to_owned(),
            r#"{"symbolId":"Method#java.lang.Character#isDigit(int):boolean|start:1|end:9","startLine":1}"#.repeat(40),
            format!("{}x{}", " ".repeat(300), "abcdefghij".repeat(30)),
            "Größe ≤ 10 → 東京 \u{1F600} ünïcödé\r\n\t".repeat(20),
        ];
        for round in 0..2 {
            for text in &texts {
                let want = tokenizer().count(text.as_str());
                assert_eq!(count(text), want, "round {round}: {text:.60}");
                assert!(fits(text, want) && !fits(text, want - 1), "round {round}");
            }
        }
    }

    /// The encoder built from the embedded list (and the one read back from the cache) counts
    /// as bpe-openai's prebuilt o200k does (the tests may link that one; the binary does not).
    #[test]
    fn counts_as_bpe_openais_prebuilt_o200k() {
        let reference = bpe_openai::o200k_base();
        let texts = [
            "public static void main(String[] args) { return a.b(c, \"d\"); }".to_owned(),
            r#"{"symbolId":"Method#java.lang.Character#isDigit(int):boolean","startLine":1}"#.repeat(20),
            "Größe ≤ 10 → 東京 \u{1F600} ünïcödé\r\n\t  x".repeat(10),
            include_str!("budget.rs").to_owned(),
        ];
        for text in &texts {
            assert_eq!(tokenizer().count(text.as_str()), reference.count(text.as_str()), "{text:.60}");
        }
        if let Some(p) = cache_path() {
            let again = read_cached(&p).expect("the encoder was cached");
            for text in &texts {
                let pieces: usize = reference.split(text).map(|piece| again.count(piece.as_bytes())).sum();
                assert_eq!(pieces, reference.count(text.as_str()));
            }
        }
    }

    #[test]
    fn fits_agrees_with_count() {
        let text = "int x = 1; // a comment with words\n".repeat(200);
        let n = count(&text);
        assert!(n > 1000, "{n}");
        assert!(fits(&text, n));
        assert!(!fits(&text, n - 1));
        assert!(fits("short", 5));
    }
}

/// The answer budget: tokens, and whether the structured JSON reaches the client (and maybe
/// the model) beside the text, so both must fit; text-only clients get the text alone.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    pub tokens: usize,
    pub structured: bool,
}
