//! A Kotlin file's references in the call hierarchy: the Kotlin binder records no caller, so
//! each call is given the member it is written in, from the file's Kotlin syntax tree and the
//! world's JVM view of its declarations.

use std::path::Path;
use std::sync::Arc;

use crate::world::World;
use crate::{Caller, CallerKind, Ref};

/// Gives each reference of the Kotlin file `p` without a caller the member it is written in,
/// as Java's binder names callers: the innermost function (its JVM method: the one of its
/// name declared within its lines, with the most parameters for `@JvmOverloads`), secondary
/// constructor, or property accessor body around it; else the instance initialisation
/// (`Owner#<init>`) of the innermost class around it (a property's initializer, an `init`
/// block); a top-level property's initializer is left without one.
pub(crate) fn callers(w: &World, p: &Arc<Path>, refs: &mut [Ref]) {
    let fi = crate::engine::file_index(w, p);
    let Some(file) = w.files.get(fi as usize) else { return };
    let Ok(bytes) = mji_fs::read_regular(p, mji_fs::DEFAULT_MAX_FILE_BYTES) else { return };
    let text = String::from_utf8_lossy(&bytes);
    let Some(tree) = mji_parser::kotlin::parse_tree(&text) else { return };
    let decls = file.decls();
    let line_starts: Vec<usize> = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
    // The byte of a 1-based line and UTF-16 column.
    let byte_at = |line: u32, column: u32| -> Option<usize> {
        let start = *line_starts.get(line.checked_sub(1)? as usize)?;
        let mut units = 0u32;
        for (i, c) in text[start..].char_indices() {
            if units + 1 >= column || c == '\n' {
                return Some(start + i);
            }
            units += c.len_utf16() as u32;
        }
        Some(text.len())
    };
    // The innermost type of the file whose lines hold `lines`, and among its members the one
    // `pick` chooses.
    let innermost = |from: u32, to: u32| {
        decls
            .types
            .iter()
            .enumerate()
            .filter(|(_, t)| t.start_line <= from && to <= t.end_line)
            .min_by_key(|(_, t)| t.end_line - t.start_line)
            .map(|(i, _)| w.type_in_file(fi, i as u32))
    };
    let method_in = |from: u32, to: u32, want: &dyn Fn(&crate::decls::MethodSym) -> bool, ctor: bool| {
        let mut best: Option<(u32, usize, String)> = None;
        for (i, t) in decls.types.iter().enumerate() {
            let id = w.type_in_file(fi, i as u32);
            let members = if ctor { &t.ctors } else { &t.methods };
            for m in members.iter().filter(|m| from <= m.line && m.line <= to && !m.implicit && want(m)) {
                let span = t.end_line - t.start_line;
                let better = best.as_ref().is_none_or(|(s, n, _)| span < *s || (span == *s && m.params.len() > *n));
                if better {
                    best = Some((span, m.params.len(), w.method_key(id, m)));
                }
            }
        }
        best.map(|(_, _, k)| k)
    };
    let src = text.as_bytes();
    for r in refs.iter_mut().filter(|r| r.caller.is_none()) {
        let Some(at) = byte_at(r.line, r.column) else { continue };
        let Some(mut n) = tree.root_node().descendant_for_byte_range(at, at) else { continue };
        let lines = |n: tree_sitter::Node| (n.start_position().row as u32 + 1, n.end_position().row as u32 + 1);
        let mut caller = None;
        while let Some(up) = n.parent() {
            n = up;
            let (from, to) = lines(n);
            match n.kind() {
                "function_declaration" => {
                    let name = n.child_by_field_name("name").and_then(|x| x.utf8_text(src).ok()).unwrap_or("");
                    caller = method_in(from, to, &|m| *m.name == *name && !m.generated, false)
                        .map(|key| Caller { key, kind: CallerKind::Method });
                }
                "secondary_constructor" => {
                    caller =
                        method_in(from, to, &|_| true, true).map(|key| Caller { key, kind: CallerKind::Constructor });
                }
                "getter" | "setter" => {
                    let setter = n.kind() == "setter";
                    let (pf, pt) = n.parent().map_or((from, to), lines);
                    caller = method_in(pf, pt, &|m| m.generated && (m.params.len() == 1) == setter, false)
                        .map(|key| Caller { key, kind: CallerKind::Method });
                }
                "class_body" | "enum_class_body" => {
                    caller = innermost(from, to)
                        .map(|id| Caller { key: format!("{}#<init>", w.decl(id).fqn), kind: CallerKind::Init });
                }
                _ => continue,
            }
            break;
        }
        r.caller = caller.map(Arc::new);
    }
}
