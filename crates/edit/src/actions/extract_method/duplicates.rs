//! `extract_method`'s duplicates (`replaceAll`): other runs of whole statements in the same
//! class identical to the extracted one — the same tokens, the names that become parameters
//! (the returned variable, the variables it declares) matched consistently to other names — replaced by a call too.
//! Each candidate is analysed as an extraction of its own ([`analyse`]), and replaced only when
//! that gives the same signature under the matching: its parameters are the matched names in
//! the same order with the same types, it returns the matched variable of the same type, and
//! no name kept as it is in the run means something else there. A method that declares
//! `throws`, uses its member's type variables, or is an instance method called from a static
//! member leaves the duplicates where they would need more (said in the answer's warnings).

use std::collections::HashMap;

use mji_parser::kind;
use tree_sitter::Node;

use super::flow::{Extraction, analyse};
use crate::locals::is_member_name;
use crate::syntax::walk;
use crate::{Doc, TextEdit};

/// The duplicates replaced by calls, and why others were left.
#[derive(Debug, Default)]
pub struct Duplicates {
    pub edits: Vec<TextEdit>,
    /// The first line of each replaced run.
    pub lines: Vec<u32>,
    pub warnings: Vec<String>,
}

/// A token of a run: its kind and text, or a placeholder for the `n`th matched name.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok<'a> {
    Leaf(&'a str, &'a str),
    Name(usize),
}

/// The duplicates of the run `x` (whose method declares `throws`) in `doc`.
pub fn duplicates(doc: &Doc, x: &Extraction, throws: &[String]) -> Duplicates {
    let mut out = Duplicates::default();
    let text = doc.text();
    let bytes = text.as_bytes();
    let Some(tree) = mji_parser::parse_tree(text) else { return out };
    let root = tree.root_node();
    let Some(first) = root.descendant_for_byte_range(x.start, x.start).and_then(|n| statement_at(n, x.start)) else {
        return out;
    };
    let Some(block) = first.parent() else { return out };
    let run = statements(block)
        .into_iter()
        .filter(|s| s.start_byte() >= x.start && s.end_byte() <= x.end)
        .collect::<Vec<_>>();
    let Some(class_body) = class_body_of(block) else { return out };
    // The matched names: parameters, then the returned variable.
    let mut names: Vec<&str> = x.params.iter().map(|p| p.1.as_str()).collect();
    if let Some((_, r, _)) = &x.ret
        && !names.contains(&r.as_str())
    {
        names.push(r);
    }
    // Then the variables the run declares for itself (matched to any names, consistently).
    for st in &run {
        walk(*st, &mut |n| {
            let declared = match n.kind() {
                kind::VARIABLE_DECLARATOR
                | kind::FORMAL_PARAMETER
                | kind::CATCH_FORMAL_PARAMETER
                | kind::RESOURCE
                | kind::ENHANCED_FOR_STATEMENT => n.child_by_field_name("name"),
                kind::LAMBDA_EXPRESSION => n.child_by_field_name("parameters").filter(|p| p.kind() == kind::IDENTIFIER),
                _ => None,
            };
            if let Some(t) = declared.filter(|d| d.kind() == kind::IDENTIFIER).and_then(|d| d.utf8_text(bytes).ok())
                && !names.contains(&t)
            {
                names.push(t);
            }
        });
    }
    let pattern = tokens(&run, bytes, &names);
    let own_member = member_of(block);
    let mut blocks = Vec::new();
    walk(class_body, &mut |n| {
        if matches!(n.kind(), kind::BLOCK | kind::SWITCH_BLOCK_STATEMENT_GROUP | kind::CONSTRUCTOR_BODY)
            && class_body_of(n) == Some(class_body)
        {
            blocks.push(n);
        }
    });
    for b in blocks {
        let stmts = statements(b);
        let mut i = 0;
        while i + run.len() <= stmts.len() {
            let window = &stmts[i..i + run.len()];
            let (s, e) = (window[0].start_byte(), window[window.len() - 1].end_byte());
            if e > x.start && s < x.end {
                i += 1;
                continue;
            }
            let Some(matched) = matches(&pattern, &tokens(window, bytes, &[]), names.len()) else {
                i += 1;
                continue;
            };
            let line = doc.line_of(s);
            let member = member_of(b);
            let why = if !throws.is_empty() {
                Some("the method declares `throws`".to_owned())
            } else if !x.type_params.is_empty() && member != own_member {
                Some("the method uses its member's type variables".to_owned())
            } else if !x.is_static
                && member.is_some_and(|m| {
                    let mut c = m.walk();
                    m.named_children(&mut c).any(|k| {
                        k.kind() == kind::MODIFIERS
                            && k.utf8_text(bytes).is_ok_and(|t| t.split_whitespace().any(|w| w == "static"))
                    })
                })
            {
                Some("it is in a static member and the method is not static".to_owned())
            } else {
                same_signature(doc, x, s, e, &names, &matched).err()
            };
            match why {
                Some(w) => {
                    out.warnings.push(format!("the duplicate at line {line} stays: {w}"));
                    i += 1;
                }
                None => {
                    out.edits.push(TextEdit { start: s, end: e, text: call(x, &matched) });
                    out.lines.push(line);
                    i += run.len();
                }
            }
        }
    }
    out
}

/// The method or constructor a node is in (directly: not through a nested class).
fn member_of(n: Node) -> Option<Node> {
    let mut m = n;
    while let Some(p) = m.parent() {
        if matches!(
            p.kind(),
            kind::METHOD_DECLARATION | kind::CONSTRUCTOR_DECLARATION | kind::COMPACT_CONSTRUCTOR_DECLARATION
        ) {
            return Some(p);
        }
        if p.kind() == kind::CLASS_BODY {
            return None;
        }
        m = p;
    }
    None
}

/// The statement starting at `at` around `n`.
fn statement_at(n: Node, at: usize) -> Option<Node> {
    let mut x = Some(n);
    while let Some(c) = x {
        if c.start_byte() == at
            && c.parent().is_some_and(|p| {
                matches!(p.kind(), kind::BLOCK | kind::SWITCH_BLOCK_STATEMENT_GROUP | kind::CONSTRUCTOR_BODY)
            })
        {
            return Some(c);
        }
        x = c.parent();
    }
    None
}

fn statements(block: Node) -> Vec<Node> {
    let mut c = block.walk();
    block
        .named_children(&mut c)
        .filter(|s| !matches!(s.kind(), kind::LINE_COMMENT | kind::BLOCK_COMMENT | kind::SWITCH_LABEL))
        .collect()
}

/// The class body a node is directly in (not through a nested class).
fn class_body_of(n: Node) -> Option<Node> {
    let mut x = n.parent();
    while let Some(p) = x {
        if matches!(p.kind(), kind::CLASS_BODY | kind::ENUM_BODY | kind::INTERFACE_BODY) {
            return Some(p);
        }
        x = p.parent();
    }
    None
}

/// The leaves of `stmts` (comments left out), the identifiers named in `names` as placeholders.
fn tokens<'a>(stmts: &[Node<'a>], bytes: &'a [u8], names: &[&str]) -> Vec<Tok<'a>> {
    let mut out = Vec::new();
    for s in stmts {
        walk(*s, &mut |n| {
            if n.child_count() > 0 || matches!(n.kind(), kind::LINE_COMMENT | kind::BLOCK_COMMENT) {
                return;
            }
            let t = n.utf8_text(bytes).unwrap_or("");
            match names.iter().position(|x| *x == t) {
                Some(i) if n.kind() == kind::IDENTIFIER && !is_member_name(n) => out.push(Tok::Name(i)),
                _ => out.push(Tok::Leaf(n.kind(), t)),
            }
        });
    }
    out
}

/// The names a candidate gives the placeholders, when its tokens are the pattern's; each
/// placeholder one name, two placeholders two names, and no kept name one of them.
fn matches(pattern: &[Tok], cand: &[Tok], n: usize) -> Option<Vec<String>> {
    if pattern.len() != cand.len() {
        return None;
    }
    let mut given: Vec<Option<&str>> = vec![None; n];
    let mut kept: Vec<&str> = Vec::new();
    for (p, c) in pattern.iter().zip(cand) {
        match (p, c) {
            (Tok::Leaf(k1, t1), Tok::Leaf(k2, t2)) if k1 == k2 && t1 == t2 => {
                if *k1 == kind::IDENTIFIER {
                    kept.push(t1);
                }
            }
            (Tok::Name(i), Tok::Leaf(k, t)) if *k == kind::IDENTIFIER => match given[*i] {
                None => given[*i] = Some(t),
                Some(g) if g == *t => {}
                Some(_) => return None,
            },
            _ => return None,
        }
    }
    let given: Vec<&str> = given.into_iter().collect::<Option<Vec<_>>>()?;
    let mut seen: HashMap<&str, ()> = HashMap::new();
    for g in &given {
        if seen.insert(g, ()).is_some() || kept.contains(g) {
            return None;
        }
    }
    Some(given.into_iter().map(str::to_owned).collect())
}

/// The candidate analysed as an extraction of its own has the run's signature under the
/// matching.
fn same_signature(
    doc: &Doc,
    x: &Extraction,
    s: usize,
    e: usize,
    names: &[&str],
    given: &[String],
) -> Result<(), String> {
    let c = analyse(doc, s, e, &x.name)?;
    let map = |n: &str| names.iter().position(|x| *x == n).map(|i| given[i].clone());
    let want: Vec<(String, String)> = x.params.iter().map(|(t, n)| (t.clone(), map(n).unwrap_or_default())).collect();
    if c.params != want {
        return Err("its variables are not the extracted statements' (their types or order differ)".into());
    }
    let want_ret = x.ret.as_ref().map(|(t, n, d)| (t.clone(), map(n).unwrap_or_default(), *d));
    if c.ret != want_ret {
        return Err("the variable it gives to the code after it is not the extracted statements'".into());
    }
    Ok(())
}

/// The call replacing a duplicate.
fn call(x: &Extraction, given: &[String]) -> String {
    let call = format!("{}({})", x.name, given[..x.params.len()].join(", "));
    // The returned variable's name there: a parameter's, or the last matched.
    let name = |n: &str| {
        x.params.iter().position(|p| p.1 == n).map_or(&given[x.params.len().min(given.len() - 1)], |j| &given[j])
    };
    match &x.ret {
        None => format!("{call};"),
        Some((ty, n, true)) => format!("{ty} {} = {call};", name(n)),
        Some((_, n, false)) => format!("{} = {call};", name(n)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn identical_runs_under_a_consistent_renaming_become_calls() {
        let src = "class A {\n  int f(int a, int b) {\n    int c = a * 2 + b;\n    System.out.println(c);\n    return c;\n  }\n  int g(int x, int y) {\n    int d = x * 2 + y;\n    System.out.println(d);\n    return d + 1;\n  }\n  int h(int x) {\n    int d = x * 2 + x;\n    System.out.println(d);\n    return d;\n  }\n  int k(long x, int y) {\n    int d = (int) x * 2 + y;\n    System.out.println(d);\n    return d;\n  }\n}\n";
        let doc = Doc::new(Path::new("/x/A.java"), "A.java", src.as_bytes().to_vec()).expect("utf-8");
        let s = src.find("int c").expect("from");
        let e = src.find("println(c);").expect("to") + "println(c);".len();
        let x = analyse(&doc, s, e, "extracted").expect("extracted");
        let d = duplicates(&doc, &x, &[]);
        assert_eq!(d.lines, vec![8], "{d:?}");
        assert_eq!(d.edits[0].text, "int d = extracted(x, y);");
        assert_eq!(&src[d.edits[0].start..d.edits[0].end], "int d = x * 2 + y;\n    System.out.println(d);");
        let d = duplicates(&doc, &x, &["java.io.IOException".to_owned()]);
        assert!(d.edits.is_empty() && d.warnings[0].contains("declares `throws`"), "{d:?}");
    }
}
