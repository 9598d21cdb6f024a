//! The answer budget: how many tokens one tool answer may cost a model, counted with a real
//! tokenizer (OpenAI's o200k BPE, embedded: a stand-in for whichever model reads the answer;
//! code costs about the same under the tokenizers of today's models).
//!
//! Counting a 1 MB answer takes about 75 ms; building the tokenizer about 100 ms, so the server
//! warms it in the background at start ([`warm`]).

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use bpe_openai::Tokenizer;

// The budget itself is the `answer_tokens` setting (default 20,000: under the 25,000 that
// Claude Code passes to a model by default, `MAX_MCP_OUTPUT_TOKENS`, with room to spare).

fn tokenizer() -> &'static Tokenizer {
    static T: OnceLock<&'static Tokenizer> = OnceLock::new();
    T.get_or_init(bpe_openai::o200k_base)
}

/// Builds the tokenizer on another thread, so the first answer does not wait for it; once per
/// process (every session of a server calls it; the `jsonrpc` fuzz target found a detached
/// thread per session, which LeakSanitizer reported). Returns whether it started that thread.
pub fn warm() -> bool {
    static STARTED: AtomicBool = AtomicBool::new(false);
    if STARTED.swap(true, Ordering::AcqRel) {
        return false;
    }
    std::thread::Builder::new().name("tokenizer".to_owned()).spawn(tokenizer).is_ok()
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
