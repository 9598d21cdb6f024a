//! Calls of a renamed method's name that the binder bound to nothing: a receiver whose type
//! needs more inference than the binder does (a lambda's parameter typed through another
//! argument's result, `map -> map.entrySet().toArray(new Map.Entry[0])` in java.base's
//! `Collectors`), with too many methods of the name to guess among. Each may be of the family,
//! so a rename lists them as a conflict instead of leaving them unchanged in silence (that
//! rename of `AbstractCollection#toArray(Object[])` said "applied" and broke the build).

use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;

use mji_parser::kind;
use mji_xref::Category;
use mji_xref::world::World;

use crate::ctx::Ctx;

/// The most places a conflict names.
const SHOWN: usize = 10;

// How deep the walk for calls goes in a file's syntax tree (the binder's own bound).
const MAX_DEPTH: usize = 2_000;

/// The places (`file:line:column`) in `files` where `name` is called (or referenced with
/// `::`) and no method reference of any target was bound.
pub(super) fn unbound_calls(ctx: &dyn Ctx, w: &World, files: &[Arc<Path>], name: &str) -> Vec<String> {
    let mut out = Vec::new();
    // Java sources: their calls are parsed here (a Kotlin file's references are its binder's).
    let java: Vec<Arc<Path>> = files.iter().filter(|p| p.extension().is_some_and(|x| x == "java")).cloned().collect();
    for p in ctx.xref().files_mentioning(&java, name) {
        let Ok(doc) = ctx.read(&p) else { continue };
        let Some(tree) = mji_parser::parse_tree(doc.text()) else { continue };
        let mut calls = Vec::new();
        calls_named(tree.root_node(), doc.text().as_bytes(), name, &mut calls);
        if calls.is_empty() {
            continue;
        }
        let Ok(refs) = ctx.xref().refs_of(w, &p) else { continue };
        let bound: HashSet<usize> = refs
            .iter()
            .filter(|r| r.category == Category::Method)
            .filter_map(|r| doc.offset(r.line, r.column))
            .collect();
        for at in calls.into_iter().filter(|at| !bound.contains(at)) {
            let line = doc.line_of(at);
            let start = doc.offset(line, 1).unwrap_or(at);
            let column = doc.text().get(start..at).map_or(1, |s| s.encode_utf16().count() + 1);
            out.push(format!("{}:{line}:{column}", ctx.display(&p)));
        }
    }
    out
}

/// The byte offsets of the names of the method invocations and method references of `name`
/// under `root` (an iterative walk, depth-bounded).
fn calls_named(root: tree_sitter::Node, src: &[u8], name: &str, out: &mut Vec<usize>) {
    let mut stack = vec![(root, 0usize)];
    while let Some((n, depth)) = stack.pop() {
        match n.kind() {
            kind::METHOD_INVOCATION => {
                if let Some(id) = n.child_by_field_name("name")
                    && id.utf8_text(src) == Ok(name)
                {
                    out.push(id.start_byte());
                }
            }
            kind::METHOD_REFERENCE => {
                let mut c = n.walk();
                if let Some(id) = n.named_children(&mut c).last()
                    && id.kind() == kind::IDENTIFIER
                    && id.utf8_text(src) == Ok(name)
                {
                    out.push(id.start_byte());
                }
            }
            _ => {}
        }
        if depth < MAX_DEPTH {
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c).map(|k| (k, depth + 1)));
        }
    }
    out.sort_unstable();
}

/// The conflict that lists them, or None when there are none.
pub(super) fn conflict(places: &[String], name: &str) -> Option<String> {
    places.first()?;
    let rest = places.len().saturating_sub(SHOWN);
    let shown: Vec<&str> = places.iter().take(SHOWN).map(String::as_str).collect();
    Some(format!(
        "{} call{} of {name} could not be bound (its receiver's type needs inference the engine does not do) and may be of this method; not renamed: {}{}",
        places.len(),
        if places.len() == 1 { "" } else { "s" },
        shown.join(", "),
        if rest > 0 { format!(", … and {rest} more") } else { String::new() }
    ))
}
