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

use crate::Doc;
use crate::ctx::Ctx;

/// The most places a conflict names.
const SHOWN: usize = 10;

// How deep the walk for calls goes in a file's syntax tree (the binder's own bound).
const MAX_DEPTH: usize = 2_000;

/// The places (`file:line:column`) in `files` where `name` is called (or referenced with
/// `::`) and no method reference of any target was bound.
pub(super) fn unbound_calls(ctx: &dyn Ctx, w: &World, files: &[Arc<Path>], name: &str) -> Vec<String> {
    // Java sources: their calls are parsed here (a Kotlin file's references are its binder's).
    let java: Vec<Arc<Path>> = files.iter().filter(|p| p.extension().is_some_and(|x| x == "java")).cloned().collect();
    // Read here, in order; parsed and checked on up to one thread per core (a name such as
    // `apply` is in hundreds of java.base files, each parsed one after the other before).
    let docs: Vec<(Arc<Path>, Doc)> = ctx
        .xref()
        .files_mentioning(&java, name)
        .into_iter()
        .filter_map(|p| Some((p.clone(), ctx.read(&p).ok()?)))
        .filter(|(_, doc)| may_call(doc.text().as_bytes(), name.as_bytes()))
        .collect();
    let xref = ctx.xref();
    let check = |(p, doc): &(Arc<Path>, Doc)| -> Vec<usize> {
        let Ok(refs) = xref.refs_of(w, p) else { return Vec::new() };
        let bound: HashSet<usize> = refs
            .iter()
            .filter(|r| r.category == Category::Method)
            .filter_map(|r| doc.offset(r.line, r.column))
            .collect();
        // Every call is at one of these places: when the binder bound each, or the place is
        // the name of a method's declaration, no call is left and the file is not parsed (on
        // java.base most files that call a name; the declarations of `contains`' many
        // overriders made every file that declares one be parsed).
        let src = doc.text().as_bytes();
        if call_sites(src, name.as_bytes()).all(|at| bound.contains(&at) || declares_at(src, at)) {
            return Vec::new();
        }
        let Some(tree) = mji_parser::parse_tree(doc.text()) else { return Vec::new() };
        let mut calls = Vec::new();
        calls_named(tree.root_node(), doc.text().as_bytes(), name, &mut calls);
        calls.retain(|at| !bound.contains(at));
        calls
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(docs.len());
    let unbound: Vec<Vec<usize>> = if threads < 2 {
        docs.iter().map(check).collect()
    } else {
        let per = docs.len().div_ceil(threads);
        std::thread::scope(|s| {
            let check = &check;
            let parts: Vec<_> =
                docs.chunks(per).map(|part| s.spawn(move || part.iter().map(check).collect::<Vec<_>>())).collect();
            // A part whose thread failed is checked here instead.
            parts
                .into_iter()
                .zip(docs.chunks(per))
                .flat_map(|(h, part)| h.join().unwrap_or_else(|_| part.iter().map(check).collect()))
                .collect()
        })
    };
    let mut out = Vec::new();
    for ((p, doc), calls) in docs.iter().zip(unbound) {
        for at in calls {
            let line = doc.line_of(at);
            let start = doc.offset(line, 1).unwrap_or(at);
            let column = doc.text().get(start..at).map_or(1, |s| s.encode_utf16().count() + 1);
            out.push(format!("{}:{line}:{column}", ctx.display(p)));
        }
    }
    out
}

/// Where `src` may call `name` or reference it with `::`: the byte offsets of its occurrences
/// as a word followed (after blanks) by `(`, or preceded (before blanks) by `::` or by the
/// `>` of `::<T>name`; a comment beside it (`/`) counts, so every call's name is among them.
/// A file without one is not read further.
fn call_sites<'a>(src: &'a [u8], name: &'a [u8]) -> impl Iterator<Item = usize> + 'a {
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || !b.is_ascii();
    memchr::memmem::find_iter(src, name).filter(move |&i| {
        let end = i + name.len();
        if (i > 0 && ident(src[i - 1])) || src.get(end).is_some_and(|b| ident(*b)) {
            return false;
        }
        let after = src[end..].iter().find(|b| !b.is_ascii_whitespace());
        let before = src[..i].iter().rev().find(|b| !b.is_ascii_whitespace());
        matches!(after, Some(b'(' | b'/')) || matches!(before, Some(b':' | b'/' | b'>'))
    })
}

/// Java's reserved words, and the contextual ones that may stand right before an expression
/// (`yield x()`, `case P p when x() ->`): a name after one is no declaration's.
const KEYWORDS: &[&[u8]] = &[
    b"abstract",
    b"assert",
    b"break",
    b"case",
    b"catch",
    b"class",
    b"const",
    b"continue",
    b"default",
    b"do",
    b"else",
    b"enum",
    b"extends",
    b"final",
    b"finally",
    b"for",
    b"goto",
    b"if",
    b"implements",
    b"import",
    b"instanceof",
    b"interface",
    b"native",
    b"new",
    b"package",
    b"private",
    b"protected",
    b"public",
    b"return",
    b"static",
    b"strictfp",
    b"super",
    b"switch",
    b"synchronized",
    b"this",
    b"throw",
    b"throws",
    b"transient",
    b"try",
    b"volatile",
    b"while",
    b"true",
    b"false",
    b"null",
    b"yield",
    b"when",
    b"var",
    b"record",
    b"sealed",
    b"permits",
    b"exports",
    b"module",
    b"open",
    b"opens",
    b"provides",
    b"requires",
    b"to",
    b"uses",
    b"with",
    b"transitive",
];

/// Whether the name at `at` is, by the words around it, a method's declared name: right after
/// a word that can only be its return type there (an identifier no keyword is, a primitive
/// type or `void`: `Map.Entry contains(`), blanks alone between them, on a line whose text
/// before that word holds no `//` (the word could be a comment's) and no `\` (a Unicode
/// escape, `return\u0020name(`, could stand for anything). No call stands so: an unqualified
/// call follows an operator, a bracket, a `.` or a keyword (`return`, `yield`, `else`, …),
/// never a bare identifier; a call of a generic method (`.<T>name(`) and an array type
/// (`int[]`) are not judged (false: the file is parsed). A name in a comment or a string is no
/// call either way.
fn declares_at(src: &[u8], at: usize) -> bool {
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || !b.is_ascii();
    let Some(end) = src[..at].iter().rposition(|b| !b.is_ascii_whitespace()).map(|i| i + 1) else { return false };
    if !ident(src[end - 1]) {
        return false;
    }
    let start = src[..end].iter().rposition(|&b| !ident(b)).map_or(0, |i| i + 1);
    let word = &src[start..end];
    if word.first().is_some_and(|b| b.is_ascii_digit()) {
        return false;
    }
    if KEYWORDS.contains(&word) {
        return false;
    }
    let line_start = src[..start].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let before = &src[line_start..start];
    memchr::memmem::find(before, b"//").is_none() && !before.contains(&b'\\')
}

/// Whether `src` may call `name` ([`call_sites`]).
fn may_call(src: &[u8], name: &[u8]) -> bool {
    call_sites(src, name).next().is_some()
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

#[cfg(test)]
mod tests {
    use super::{call_sites, declares_at, may_call};

    /// A place of the name right after a word that can only be a return type is a declaration
    /// (no call stands so); after a keyword, an operator, a bracket, a comment's word or a
    /// Unicode escape, it is not judged one.
    #[test]
    fn a_method_s_declared_name_is_told_from_a_call_by_the_word_before_it() {
        for (src, declared) in [
            ("boolean contains(Object o) { return false; }", true),
            ("  public Map.Entry contains (int x);", true),
            ("void\n    contains(int x) {}", true),
            ("return contains(x);", false),
            ("yield contains(x);", false),
            ("else contains(x);", false),
            ("case A a when contains(a) -> 1;", false),
            ("f(a -> contains(a));", false),
            ("if (a) contains(x);", false),
            ("x = y; // returns boolean\ncontains(x);", false),
            ("List<String> contains() {}", false),
            ("int[] contains() {}", false),
            ("return\\u0020contains(x);", false),
            ("t.<T>contains(x);", false),
            ("contains(x);", false),
        ] {
            let at = src.find("contains").expect("the name");
            assert_eq!(declares_at(src.as_bytes(), at), declared, "{src}");
        }
    }

    /// A file is parsed for calls of a name only when a call or a method reference of it may
    /// be there: the name as a word before `(` or after `::`, blanks or a comment between.
    #[test]
    fn a_file_is_parsed_only_where_a_call_of_the_name_may_be() {
        for (src, may) in [
            ("x.apply(1);", true),
            ("apply\n  (1);", true),
            ("map(Function::apply)", true),
            ("map(Function:: apply)", true),
            ("map(Util::<String>apply)", true),
            ("x.apply /* why */ (1);", true),
            ("int apply; apply = 2;", false),
            ("reapply(1); applyAll(2); apply$x(3);", false),
            ("String s = \"apply\";", false),
            ("", false),
        ] {
            assert_eq!(may_call(src.as_bytes(), b"apply"), may, "{src}");
        }
        assert_eq!(call_sites(b"f.apply(1); g(X::apply); int apply;", b"apply").collect::<Vec<_>>(), [2, 17]);
    }
}
