//! Syntax utilities every action shares: the iterative tree walk, line starts and
//! indentation, Java identifiers.

use tree_sitter::Node;

use crate::Doc;

/// Visits every node, iteratively (no recursion, whatever the nesting).
pub fn walk<'t>(root: Node<'t>, f: &mut dyn FnMut(Node<'t>)) {
    let mut cursor = root.walk();
    loop {
        f(cursor.node());
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}

/// The source text of node `n`.
pub fn text<'a>(n: Node, src: &'a str) -> &'a str {
    n.utf8_text(src.as_bytes()).unwrap_or("")
}

/// The byte offset of the start of the line holding byte `at`.
pub fn line_start(text: &str, at: usize) -> usize {
    text[..at].rfind('\n').map_or(0, |i| i + 1)
}

/// The indentation (spaces and tabs) of the whole line holding byte `at`.
pub fn line_indent(text: &str, at: usize) -> &str {
    let rest = &text[line_start(text, at)..];
    &rest[..rest.len() - rest.trim_start_matches([' ', '\t']).len()]
}

/// The indentation of the line holding byte `at` that comes before `at` (all of it when `at`
/// is past the line's indentation).
pub fn indent_before(text: &str, at: usize) -> &str {
    let ls = line_start(text, at);
    let before = &text[ls..at];
    &before[..before.len() - before.trim_start_matches([' ', '\t']).len()]
}

/// The indentation of the 1-based `line` of `doc`.
pub fn indent_of_line(doc: &Doc, line: u32) -> String {
    let t = doc.src.lines.line_text(&doc.src.text, line);
    t[..t.len() - t.trim_start_matches([' ', '\t']).len()].to_owned()
}

/// The text as (is a name, text) runs: names are dotted identifier chains.
pub(crate) fn tokens(t: &str) -> Vec<(bool, &str)> {
    let mut out = Vec::new();
    let b = t.as_bytes();
    let is_id = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80;
    let starts_name = |c: u8| is_id(c) && !c.is_ascii_digit();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        if starts_name(b[i]) {
            while i < b.len() && (is_id(b[i]) || (b[i] == b'.' && i + 1 < b.len() && is_id(b[i + 1]))) {
                i += 1;
            }
            out.push((true, &t[start..i]));
        } else {
            while i < b.len() && !starts_name(b[i]) {
                i += 1;
            }
            out.push((false, &t[start..i]));
        }
    }
    out
}

/// Rewrites every name of a type text through `f` (kept where it answers `None`); keywords
/// and primitive types are left alone. [`crate::ctx::qualify_decl`] qualifies a workspace type's texts with it.
pub fn map_names(t: &str, mut f: impl FnMut(&str) -> Option<String>) -> String {
    const KEYWORDS: &[&str] =
        &["extends", "super", "int", "long", "short", "byte", "char", "boolean", "float", "double", "void", "final"];
    tokens(t)
        .into_iter()
        .map(
            |(is_name, s)| {
                if is_name && !KEYWORDS.contains(&s) { f(s).unwrap_or_else(|| s.to_owned()) } else { s.to_owned() }
            },
        )
        .collect()
}

/// Whether `s` is a Java identifier that is not a keyword or literal.
pub fn is_identifier(s: &str) -> bool {
    // Besides the keywords, words a declaration may not take: `_` (JLS 3.9), and the
    // contextual `yield` and `record` as a type name.
    const RESERVED: &[&str] = &["_", "yield", "record"];
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
        && !RESERVED.contains(&s)
        && !mji_parser::KEYWORDS.contains(&s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers() {
        assert!(is_identifier("fooBar$1"));
        assert!(!is_identifier("1foo"));
        assert!(!is_identifier("class"));
        assert!(!is_identifier("a-b"));
        assert!(!is_identifier(""));
    }

    #[test]
    fn indentation() {
        let text = "class A {\n\t  int x;\n}\n";
        let at = text.find("int").unwrap_or(0);
        assert_eq!(line_start(text, at), 10);
        assert_eq!(line_indent(text, at), "\t  ");
        assert_eq!(line_indent(text, 10), "\t  ");
        assert_eq!(indent_before(text, 11), "\t");
        assert_eq!(indent_before(text, at + 2), "\t  ");
        assert_eq!(line_indent(text, 0), "");
    }
}
