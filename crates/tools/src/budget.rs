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
    tokenizer().count(text)
}

/// Whether `text` costs at most `budget` tokens. A BPE token is at least one byte, so a text of
/// no more bytes than the budget fits without counting.
pub fn fits(text: &str, budget: usize) -> bool {
    if text.len() <= budget {
        return true;
    }
    let t = tokenizer();
    t.count_till_limit(&t.normalize(text), budget.saturating_add(1)).is_some_and(|n| n <= budget)
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
