//! Safe delete's syntax half: the bytes a declaration takes (a type, a method, a field with
//! its javadoc and annotations, whole lines), found by its name and line. Whether it has uses
//! is the reference index's question, answered by the caller before anything is removed.

use mji_parser::kind;
use tree_sitter::Node;

use crate::Doc;
use crate::rename::walk;

/// What kind of declaration to remove.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeclKind {
    Type,
    Method,
    Field,
}

/// A declaration's bytes, to remove (uses inside them are its own).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Removal {
    pub start: usize,
    pub end: usize,
}

/// The declarations of a type.
pub(crate) const TYPE_KINDS: &[&str] = &[
    kind::CLASS_DECLARATION,
    kind::INTERFACE_DECLARATION,
    kind::ENUM_DECLARATION,
    kind::RECORD_DECLARATION,
    kind::ANNOTATION_TYPE_DECLARATION,
];

/// The declaration of `kind` named `name` whose code holds `line` (the innermost), with its
/// javadoc and the whitespace of its lines. Refused for a field declared together with others
/// (`int a, b;`).
pub fn declaration(doc: &Doc, kind: DeclKind, name: &str, line: u32) -> Result<Removal, String> {
    let text = doc.text();
    let bytes = text.as_bytes();
    let tree = mji_parser::parse_tree(text).ok_or("the file could not be parsed")?;
    let mut found: Option<Node> = None;
    walk(tree.root_node(), &mut |n| {
        let wanted = match kind {
            DeclKind::Type => TYPE_KINDS.contains(&n.kind()),
            DeclKind::Method => n.kind() == kind::METHOD_DECLARATION,
            DeclKind::Field => {
                n.kind() == kind::VARIABLE_DECLARATOR
                    && n.parent()
                        .is_some_and(|p| matches!(p.kind(), kind::FIELD_DECLARATION | kind::CONSTANT_DECLARATION))
            }
        };
        let holds = (n.start_position().row as u32) < line && line <= n.end_position().row as u32 + 1;
        if wanted && holds && n.child_by_field_name("name").and_then(|x| x.utf8_text(bytes).ok()) == Some(name) {
            // The walk goes outside in: the last match is the innermost.
            found = Some(n);
        }
    });
    let mut node = found.ok_or_else(|| format!("no declaration of {name} at line {line}"))?;
    if kind == DeclKind::Field {
        let decl = node.parent().ok_or("a field outside a declaration")?;
        let mut c = decl.walk();
        if decl.children_by_field_name("declarator", &mut c).count() > 1 {
            return Err(format!("{name} is declared together with other fields; split the declaration first"));
        }
        node = decl;
    }
    let mut start = node.start_byte();
    if let Some(c) = node.prev_sibling().filter(|c| c.kind() == kind::BLOCK_COMMENT)
        && c.utf8_text(bytes).is_ok_and(|t| t.starts_with("/**"))
        && text[c.end_byte()..start].trim().is_empty()
    {
        start = c.start_byte();
    }
    // Whole lines: from the line's start when only indentation precedes, through the newline
    // when only whitespace follows.
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    if text[line_start..start].trim().is_empty() {
        start = line_start;
    }
    let mut end = node.end_byte();
    let rest = &text[end..];
    let eol = rest.find('\n').map_or(rest.len(), |i| i + 1);
    if rest[..eol].trim().is_empty() {
        end += eol;
    }
    // Not two blank lines where the declaration was: its leading blank line goes too when a
    // blank line or the closing brace follows.
    let before = &text[..start];
    let after = &text[end..];
    let next = after.lines().next().unwrap_or("").trim();
    if start == line_start
        && let Some(prev) = before.strip_suffix('\n').map(|b| b.strip_suffix('\r').unwrap_or(b))
        && let Some(prev_start) = prev.rfind('\n').map(|i| i + 1)
        && prev[prev_start..].trim().is_empty()
        && (next.is_empty() || next.starts_with('}'))
    {
        start = prev_start;
    } else if start == line_start
        && before.trim_end().ends_with('{')
        && let Some(blank) = after.find('\n').filter(|i| after[..*i].trim().is_empty())
    {
        // First in its body: the blank line after it goes instead.
        end += blank + 1;
    }
    Ok(Removal { start, end })
}

/// `start..end` widened to whole lines: from the line's start when only indentation precedes,
/// through the line's end when only whitespace follows.
pub(crate) fn whole_lines(text: &str, mut start: usize, mut end: usize) -> (usize, usize) {
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    if text[line_start..start].trim().is_empty() {
        start = line_start;
    }
    let rest = &text[end..];
    let eol = rest.find('\n').map_or(rest.len(), |i| i + 1);
    if rest[..eol].trim().is_empty() {
        end += eol;
    }
    (start, end)
}

/// The removal of the single-type import on `line` (the whole line), if one is there.
pub fn import_line(doc: &Doc, line: u32) -> Option<crate::TextEdit> {
    import_where(doc, |n, t| n.start_position().row as u32 + 1 == line && !t.contains('*'))
}

/// The whole-line removal of the first import declaration `pick` accepts (given its node and
/// its text with whitespace runs as single spaces: `import static a.B.c;`).
pub(crate) fn import_where(doc: &Doc, pick: impl Fn(Node, &str) -> bool) -> Option<crate::TextEdit> {
    let text = doc.text();
    let tree = mji_parser::parse_tree(text)?;
    let root = tree.root_node();
    let mut c = root.walk();
    let n = root.children(&mut c).find(|n| {
        n.kind() == kind::IMPORT_DECLARATION
            && pick(*n, &n.utf8_text(text.as_bytes()).unwrap_or("").split_whitespace().collect::<Vec<_>>().join(" "))
    })?;
    let start = text[..n.start_byte()].rfind('\n').map_or(0, |i| i + 1);
    let rest = &text[n.end_byte()..];
    let end = n.end_byte() + rest.find('\n').map_or(rest.len(), |i| i + 1);
    Some(crate::TextEdit { start, end, text: String::new() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn removed(src: &str, kind: DeclKind, name: &str, line: u32) -> String {
        let doc = Doc::new(Path::new("/x/A.java"), "A.java", src.as_bytes().to_vec()).expect("utf-8");
        let r = declaration(&doc, kind, name, line).expect("found");
        format!("{}{}", &src[..r.start], &src[r.end..])
    }

    #[test]
    fn removes_whole_lines_with_the_javadoc() {
        let src = "class A {\n    int a;\n\n    /** Doc. */\n    @Deprecated\n    void f() {\n        f();\n    }\n\n    int b, c;\n}\n";
        assert_eq!(removed(src, DeclKind::Method, "f", 6), "class A {\n    int a;\n\n    int b, c;\n}\n");
        assert_eq!(
            removed(src, DeclKind::Field, "a", 2),
            "class A {\n    /** Doc. */\n    @Deprecated\n    void f() {\n        f();\n    }\n\n    int b, c;\n}\n"
        );
        let doc = Doc::new(Path::new("/x/A.java"), "A.java", src.as_bytes().to_vec()).expect("utf-8");
        assert!(declaration(&doc, DeclKind::Field, "b", 10).is_err());
        let src = "class A {\n    int a;\n\n    static class B {\n    }\n}\n";
        assert_eq!(removed(src, DeclKind::Type, "B", 4), "class A {\n    int a;\n}\n");
    }
}
