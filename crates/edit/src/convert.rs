//! `convert`'s syntax half: an indexed `for` over an array or a `List` to an enhanced `for`,
//! only where the index is used for nothing but reading the element (`a[i]`, `list.get(i)`)
//! and neither the index, the array or list variable, nor an element is written in the body.
//! The element's type is the binder's answer, asked by the tools' glue ([`IndexedFor::over`]
//! names the expression to type).

use mji_parser::kind;
use tree_sitter::Node;

use crate::syntax::walk;
use crate::{Doc, TextEdit};

/// An indexed loop that can become an enhanced `for`, before its element type is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexedFor {
    /// The loop statement's byte range.
    pub start: usize,
    pub end: usize,
    /// The array or list expression's range (a variable's name).
    pub over: (usize, usize),
    pub list: bool,
    /// The element reads (`a[i]`, `list.get(i)`) the element variable replaces.
    pub reads: Vec<(usize, usize)>,
    /// The header `(…)`'s range.
    pub header: (usize, usize),
    /// The name chosen for the element variable.
    pub name: String,
}

fn text<'a>(n: Node, src: &'a str) -> &'a str {
    n.utf8_text(src.as_bytes()).unwrap_or("")
}

/// The indexed `for` whose line is `line` (its first `for` statement starting there), judged.
pub fn indexed_for(doc: &Doc, line: u32) -> Result<IndexedFor, String> {
    let src = doc.text();
    let tree = mji_parser::parse_tree(src).ok_or("the file does not parse")?;
    let row = line.saturating_sub(1) as usize;
    let mut found = None;
    walk(tree.root_node(), &mut |n| {
        if found.is_none() && n.kind() == kind::FOR_STATEMENT && n.start_position().row == row {
            found = Some(n);
        }
    });
    let f = found.ok_or_else(|| format!("no `for` statement starts on line {line}"))?;
    let no = |why: &str| format!("not an indexed loop over an array or list: {why}");
    // `int i = 0`
    let init = f.child_by_field_name("init").ok_or("no initializer").map_err(no)?;
    let mut c = init.walk();
    let decls: Vec<Node> = init.named_children(&mut c).filter(|d| d.kind() == kind::VARIABLE_DECLARATOR).collect();
    let ty = init.child_by_field_name("type").map(|t| text(t, src));
    let [decl] = decls.as_slice() else { return Err(no("the initializer is not one `int i = 0`")) };
    let i = decl.child_by_field_name("name").map(|n| text(n, src)).unwrap_or("");
    if init.kind() != kind::LOCAL_VARIABLE_DECLARATION
        || ty != Some("int")
        || decl.child_by_field_name("value").map(|v| text(v, src)) != Some("0")
    {
        return Err(no("the initializer is not `int i = 0`"));
    }
    // `i < a.length` / `i < list.size()`
    let cond = f.child_by_field_name("condition").ok_or("no condition").map_err(no)?;
    let (l, r) = (cond.child_by_field_name("left"), cond.child_by_field_name("right"));
    let op = cond.child_by_field_name("operator").map(|o| text(o, src));
    let (Some(l), Some(r)) = (l, r) else { return Err(no("the condition is not `i < a.length` or `i < list.size()`")) };
    if cond.kind() != kind::BINARY_EXPRESSION || op != Some("<") || text(l, src) != i {
        return Err(no("the condition is not `i < a.length` or `i < list.size()`"));
    }
    let (over, list) = match r.kind() {
        kind::FIELD_ACCESS if r.child_by_field_name("field").map(|x| text(x, src)) == Some("length") => {
            (r.child_by_field_name("object"), false)
        }
        kind::METHOD_INVOCATION
            if r.child_by_field_name("name").map(|x| text(x, src)) == Some("size")
                && r.child_by_field_name("arguments").is_some_and(|a| a.named_child_count() == 0) =>
        {
            (r.child_by_field_name("object"), true)
        }
        _ => (None, false),
    };
    let Some(over) = over.filter(|o| o.kind() == kind::IDENTIFIER) else {
        return Err(no("the bound is not a variable's `.length` or `.size()`"));
    };
    let var = text(over, src);
    // `i++`, `++i`, `i += 1`
    let update: Vec<String> = {
        let mut c = f.walk();
        f.children_by_field_name("update", &mut c).map(|u| text(u, src).split_whitespace().collect()).collect()
    };
    if update.len() != 1 || ![format!("{i}++"), format!("++{i}"), format!("{i}+=1")].contains(&update[0]) {
        return Err(no("the update is not `i++`"));
    }
    let body = f.child_by_field_name("body").ok_or("no body").map_err(no)?;
    // Every use of `i` reads the element; `a` / `list` appears only there; nothing is written.
    let mut reads = Vec::new();
    let mut why: Option<String> = None;
    let mut names = std::collections::HashSet::new();
    walk(body, &mut |n| {
        if why.is_some() || n.kind() != kind::IDENTIFIER {
            return;
        }
        let t = text(n, src);
        names.insert(t.to_owned());
        if t != i && t != var {
            return;
        }
        let p = n.parent();
        let member = p.is_some_and(|p| {
            (p.kind() == kind::FIELD_ACCESS && p.child_by_field_name("field") == Some(n))
                || (p.kind() == kind::METHOD_INVOCATION && p.child_by_field_name("name") == Some(n))
        });
        if member {
            return;
        }
        // The element read this use belongs to.
        let read = p.and_then(|p| {
            if !list && p.kind() == kind::ARRAY_ACCESS {
                let (a, x) = (p.child_by_field_name("array")?, p.child_by_field_name("index")?);
                (text(a, src) == var && text(x, src) == i).then_some(p)
            } else if list && p.kind() == kind::ARGUMENT_LIST {
                let call = p.parent()?;
                let ok = call.kind() == kind::METHOD_INVOCATION
                    && call.child_by_field_name("name").map(|x| text(x, src)) == Some("get")
                    && call.child_by_field_name("object").map(|x| text(x, src)) == Some(var)
                    && p.named_child_count() == 1
                    && text(n, src) == i;
                ok.then_some(call)
            } else if list && p.kind() == kind::METHOD_INVOCATION && p.child_by_field_name("object") == Some(n) {
                let ok = p.child_by_field_name("name").map(|x| text(x, src)) == Some("get")
                    && p.child_by_field_name("arguments").is_some_and(|a| {
                        a.named_child_count() == 1 && a.named_child(0).is_some_and(|x| text(x, src) == i)
                    });
                ok.then_some(p)
            } else {
                None
            }
        });
        let Some(read) = read else {
            why = Some(format!("`{t}` is used at line {} other than to read the element", n.start_position().row + 1));
            return;
        };
        // An element written (`a[i] = …`, `a[i]++`).
        if let Some(up) = read.parent()
            && ((up.kind() == kind::ASSIGNMENT_EXPRESSION && up.child_by_field_name("left") == Some(read))
                || up.kind() == kind::UPDATE_EXPRESSION)
        {
            why = Some(format!("the element is written at line {}", n.start_position().row + 1));
            return;
        }
        if !reads.contains(&(read.start_byte(), read.end_byte())) {
            reads.push((read.start_byte(), read.end_byte()));
        }
    });
    if let Some(w) = why {
        return Err(no(&w));
    }
    if reads.is_empty() {
        return Err(no("the body does not read the element"));
    }
    // The element's name: the variable's singular, else `element`, free in the method.
    let method_names: std::collections::HashSet<String> = {
        let mut s = std::collections::HashSet::new();
        let mut top = f;
        while let Some(p) = top.parent() {
            top = p;
            if matches!(p.kind(), kind::METHOD_DECLARATION | kind::CONSTRUCTOR_DECLARATION | kind::LAMBDA_EXPRESSION) {
                break;
            }
        }
        walk(top, &mut |n| {
            if n.kind() == kind::IDENTIFIER {
                s.insert(text(n, src).to_owned());
            }
        });
        s
    };
    let singular = var.strip_suffix('s').filter(|s| s.len() > 1 && crate::is_identifier(s)).unwrap_or("element");
    let mut name = singular.to_owned();
    let mut k = 2;
    while method_names.contains(&name) || names.contains(&name) {
        name = format!("{singular}{k}");
        k += 1;
    }
    let lp = f.child(1).filter(|x| text(*x, src) == "(").ok_or("no `(`").map_err(no)?;
    let rp = body.prev_sibling().filter(|x| text(*x, src) == ")").ok_or("no `)`").map_err(no)?;
    Ok(IndexedFor {
        start: f.start_byte(),
        end: f.end_byte(),
        over: (over.start_byte(), over.end_byte()),
        list,
        reads,
        header: (lp.start_byte(), rp.end_byte()),
        name,
    })
}

/// The edits turning the loop into `for (T name : over)`, each read replaced by the name.
pub fn enhanced_for(doc: &Doc, f: &IndexedFor, element_type: &str) -> Vec<TextEdit> {
    let over = &doc.text()[f.over.0..f.over.1];
    let mut out =
        vec![TextEdit { start: f.header.0, end: f.header.1, text: format!("({element_type} {} : {over})", f.name) }];
    out.extend(f.reads.iter().map(|(s, e)| TextEdit { start: *s, end: *e, text: f.name.clone() }));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn doc(s: &str) -> Doc {
        Doc::new(Path::new("A.java"), "A.java", s.as_bytes().to_vec()).expect("utf8")
    }

    #[test]
    fn only_reads_of_the_element_convert() {
        let src = "class A {\n int f(int[] items, java.util.List<String> names) {\n  int s = 0;\n  for (int i = 0; i < items.length; i++) { s += items[i] * items[i]; }\n  for (int i = 0; i < names.size(); ++i) System.out.println(names.get(i));\n  for (int i = 0; i < items.length; i++) { items[i] = 0; }\n  for (int i = 0; i < items.length; i++) { s += i; }\n  for (int i = 0; i < names.size(); i++) { names.remove(0); }\n  return s;\n }\n}\n";
        let d = doc(src);
        let f = indexed_for(&d, 4).expect("array");
        let mut edits = enhanced_for(&d, &f, "int");
        edits.sort_by_key(|e| std::cmp::Reverse(e.start));
        let mut out = src.to_owned();
        for e in edits {
            out.replace_range(e.start..e.end, &e.text);
        }
        assert!(out.contains("for (int item : items) { s += item * item; }"), "{out}");
        let f = indexed_for(&d, 5).expect("list");
        assert!(f.list && f.name == "name");
        assert!(indexed_for(&d, 6).expect_err("written").contains("the element is written at line 6"));
        assert!(indexed_for(&d, 7).expect_err("index").contains("`i` is used at line 7"));
        assert!(indexed_for(&d, 8).expect_err("list").contains("`names` is used at line 8"));
    }
}
