//! The bound on a syntax tree's size, in nodes: a file whose tree would have more than
//! [`MAX_SYNTAX_NODES`] is never parsed whole (tree-sitter's tree costs some 200 bytes a token
//! at its peak: a 7.8 MB array initializer took 1.8 GB), only its skeleton, cut to the bound.
//!
//! Nodes are counted by a lexer, one per token (a word, a number, a literal, a comment, a
//! bracket or separator, a run of operator characters): every token is a leaf of the tree, so
//! the count never exceeds the tree's nodes. A text of at most [`MAX_SYNTAX_NODES`] bytes is
//! never over the bound (a token is at least a byte) and is not lexed at all.

use std::borrow::Cow;

use crate::skeleton::{skip_block_comment, skip_char, skip_line_comment, skip_string};

/// The most syntax nodes a file may have and still be parsed whole, for its outline, its
/// references, its SCIP document or an edit. Parsing and binding cost some 300 bytes a node
/// at their peak, so one such file costs at most about 150 MB, and the files bound at once
/// (one per core, and a search's beside the background loop's) stay well under a gigabyte.
/// A generated file of 2 MB has about 500,000.
pub const MAX_SYNTAX_NODES: usize = 500_000;

/// A file too large to be parsed whole: how many syntax nodes its text has (at least).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooLarge {
    pub nodes: usize,
}

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "indexed by its skeleton only: it has {} syntax nodes, over the bound of {MAX_SYNTAX_NODES}",
            self.nodes
        )
    }
}

/// Whether `text` (decoded, escapes translated) is over the node bound, and by how much.
pub fn too_large(text: &str) -> Option<TooLarge> {
    if text.len() <= MAX_SYNTAX_NODES {
        return None;
    }
    let nodes = count_nodes(text);
    (nodes > MAX_SYNTAX_NODES).then_some(TooLarge { nodes })
}

/// The number of tokens in `text` (see the module's comment); an unterminated literal or
/// comment is one token to the end.
pub fn count_nodes(text: &str) -> usize {
    let mut n = 0usize;
    lex(text.as_bytes(), |_, _| {
        n += 1;
        true
    });
    n
}

/// `text` cut so that it has at most `max` nodes: before the token where the tokens so far
/// and the braces still open would reach `max`, with those braces closed after a line break.
/// The declarations before the cut keep their lines; the rest of the file is gone.
pub fn truncate_to_nodes(text: &str, max: usize) -> Cow<'_, str> {
    let b = text.as_bytes();
    let mut n = 0usize;
    let mut depth = 0usize;
    let mut cut: Option<(usize, usize)> = None;
    lex(b, |start, tok| {
        if n + 1 + depth >= max {
            cut = Some((start, depth));
            return false;
        }
        n += 1;
        match tok {
            b"{" => depth += 1,
            b"}" => depth = depth.saturating_sub(1),
            _ => {}
        }
        true
    });
    match cut {
        None => Cow::Borrowed(text),
        Some((at, open)) => {
            let mut s = String::with_capacity(at + open + 1);
            s.push_str(&text[..at]);
            s.push('\n');
            s.extend(std::iter::repeat_n('}', open));
            Cow::Owned(s)
        }
    }
}

/// Calls `each(start, token)` for every token of `b` until it answers false.
fn lex(b: &[u8], mut each: impl FnMut(usize, &[u8]) -> bool) {
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80;
    let op = |c: u8| b"=<>!~?:+-*/&|^%".contains(&c);
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let end = match c {
            c if c.is_ascii_whitespace() => {
                i += 1;
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => skip_line_comment(b, i),
            b'/' if b.get(i + 1) == Some(&b'*') => skip_block_comment(b, i).unwrap_or(b.len()),
            b'"' => skip_string(b, i).unwrap_or_else(|| skip_line_comment(b, i)),
            b'\'' => skip_char(b, i).unwrap_or_else(|| skip_line_comment(b, i)),
            b'0'..=b'9' => {
                // A number with its fraction, exponent and suffix (`1.5e-3f`, `0x1p+2`).
                let mut j = i + 1;
                while j < b.len() {
                    let d = b[j];
                    let signed = matches!(d, b'+' | b'-') && matches!(b[j - 1], b'e' | b'E' | b'p' | b'P');
                    if word(d) || d == b'.' || signed {
                        j += 1;
                    } else {
                        break;
                    }
                }
                j
            }
            c if word(c) => {
                let mut j = i + 1;
                while j < b.len() && word(b[j]) {
                    j += 1;
                }
                j
            }
            c if op(c) => {
                let mut j = i + 1;
                while j < b.len() && op(b[j]) && !(b[j] == b'/' && matches!(b.get(j + 1), Some(b'/' | b'*'))) {
                    j += 1;
                }
                j
            }
            _ => i + 1,
        };
        let end = end.clamp(i + 1, b.len());
        if !each(i, &b[i..end]) {
            return;
        }
        i = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_tokens_as_nodes() {
        assert_eq!(count_nodes("class A { int[] a = {1, 2.5e-3f}; }"), 15);
        assert_eq!(count_nodes("a >>>= b; // c\n/* d */ \"e f\" 'g'"), 8);
        assert_eq!(count_nodes(""), 0);
    }

    #[test]
    fn a_short_text_is_never_over_the_bound() {
        assert_eq!(too_large("class A {}"), None);
        let big = format!("class A {{ int[] a = {{{}}}; }}", "1,".repeat(MAX_SYNTAX_NODES / 2 + 1));
        let over = too_large(&big).expect("over the bound");
        assert!(over.nodes > MAX_SYNTAX_NODES, "{over:?}");
        assert!(over.to_string().starts_with("indexed by its skeleton only: it has "), "{over}");
    }

    #[test]
    fn truncation_keeps_the_declarations_before_the_cut_and_closes_the_braces() {
        let src = "class A {\n  void a() {}\n  void b() {}\n  void c() {}\n}\n";
        assert_eq!(truncate_to_nodes(src, 100), src);
        let cut = truncate_to_nodes(src, 12);
        assert!(count_nodes(&cut) <= 12, "{cut}");
        assert!(cut.starts_with("class A {\n  void a() {}\n"), "{cut}");
        assert!(!cut.contains("void c"), "{cut}");
        assert_eq!(cut.matches('{').count(), cut.matches('}').count(), "{cut}");
    }

    /// A 3.9-million-element initializer took 1.8 GB to parse: over the bound, the outline
    /// is the skeleton's, every declaration kept, and a warning says why.
    #[test]
    fn an_outline_over_the_bound_is_its_skeletons_with_the_reason() {
        let src = format!(
            "package p;\nclass Big {{\n  int[] a = {{{}0}};\n  void f() {{ g(); }}\n}}\n",
            "1,".repeat(MAX_SYNTAX_NODES / 2 + 1)
        );
        let o = crate::outline("Big.java", src.as_bytes());
        assert_eq!(o.classes.len(), 1, "{o:?}");
        let big = &o.classes[0];
        assert_eq!((big.name.as_str(), big.start_line, big.end_line), ("Big", 2, 5));
        assert_eq!(big.fields.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(), ["a"]);
        assert_eq!(big.methods.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(), ["f"]);
        assert_eq!(o.line_count, 5);
        let warning =
            format!("indexed by its skeleton only: it has {} syntax nodes, over the bound", count_nodes(&src));
        assert!(o.errors.iter().any(|d| d.message.starts_with(&warning)), "{:?}", o.errors);
    }

    /// Declarations alone over the bound: those before the cut are outlined, and the warning
    /// says where the cut is.
    #[test]
    fn declarations_over_the_bound_are_cut() {
        let n = MAX_SYNTAX_NODES / 2 + 10;
        let constants: String = (0..n).map(|i| format!("C{i},\n")).collect();
        let src = format!("enum E {{\n{constants}}}\n");
        let o = crate::outline("E.java", src.as_bytes());
        let e = &o.classes[0];
        let kept = e.enum_constants.as_ref().map_or(0, Vec::len);
        assert!(kept > n * 9 / 10 && kept < n, "{kept} of {n}");
        assert_eq!(o.line_count as usize, n + 2);
        assert!(
            o.errors.iter().any(|d| d.message.contains("only the declarations before a cut in line")),
            "{:?}",
            o.errors
        );
    }
}
