//! A rename's Kotlin half: a declaration in a `.kt` file is renamed where Kotlin writes the
//! name (`fun greet` for `UtilsKt#greet`, `class Point`), a reference in a `.kt` file where
//! the Kotlin binder bound it; what Kotlin writes under another name than Java's (a property
//! read for `getName()`, an `@JvmName` function, a facade `FooKt`, `INSTANCE`, `Companion`) is
//! refused with its places, and a Kotlin mention of the name nothing was bound to is a
//! conflict: never Java renamed and Kotlin left calling the old name.

use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;

use mji_xref::Category;
use mji_xref::rename::DeclSite;

use super::syntax::Occurrence;
use crate::Doc;
use crate::actions::ActionError;
use crate::ctx::Ctx;
use crate::syntax::walk;

/// The most places a refusal or conflict names.
const SHOWN: usize = 5;

/// Whether `path` is a Kotlin source.
pub(crate) fn is_kotlin(path: &Path) -> bool {
    path.extension().is_some_and(|x| x == "kt")
}

/// The byte offset of the name `old` that the Kotlin declaration at `line` writes: the first
/// identifier `old` naming a declaration (class, object, function, property, primary
/// constructor's property, enum entry, type alias) on that line or the few after it (the line
/// may be its annotations'). None when Kotlin names it otherwise (a property's accessor, a
/// facade class, `@JvmName`).
pub(crate) fn decl_name_offset(doc: &Doc, line: u32, old: &str) -> Option<usize> {
    let text = doc.text();
    let tree = mji_parser::kotlin::parse_tree(text)?;
    let row = line.saturating_sub(1) as usize;
    let mut best: Option<usize> = None;
    walk(tree.root_node(), &mut |n| {
        if best.is_some() || n.kind() != "identifier" || n.utf8_text(text.as_bytes()).ok() != Some(old) {
            return;
        }
        let r = n.start_position().row;
        if r < row || r > row + 3 {
            return;
        }
        let declares = n.parent().is_some_and(|p| {
            matches!(
                p.kind(),
                "class_declaration"
                    | "object_declaration"
                    | "function_declaration"
                    | "variable_declaration"
                    | "class_parameter"
                    | "enum_entry"
                    | "type_alias"
                    | "companion_object"
            ) && p.child_by_field_name("name").is_none_or(|x| x.id() == n.id())
        });
        if declares {
            best = Some(n.start_byte());
        }
    });
    best
}

/// Refuses the rename when a Kotlin declaration of the family or a Kotlin reference writes the
/// name otherwise than `old` (each named, the first few), and answers the conflict of the
/// Kotlin mentions of `old` that no reference was bound to (a receiver only Kotlin's inference
/// types): the Kotlin binder's misses, which the rename would leave unchanged.
pub(crate) fn check(
    ctx: &dyn Ctx,
    label: &str,
    decls: &[DeclSite],
    occurrences: &[Occurrence],
    scope: &[Arc<Path>],
    old: &str,
    category: Category,
) -> Result<Option<String>, ActionError> {
    let mut done: HashSet<(Arc<Path>, usize)> = HashSet::new();
    let mut elsewhere = Vec::new();
    for d in decls.iter().filter(|d| is_kotlin(&d.path)) {
        // A Kotlin constructor writes no name (`constructor(…)`, the class header's).
        if d.category == Category::Ctor {
            continue;
        }
        let doc = ctx.read(&d.path)?;
        match decl_name_offset(&doc, d.line, old) {
            Some(at) => {
                done.insert((d.path.clone(), at));
            }
            None => elsewhere.push(format!("{}:{} (its declaration)", doc.display, d.line)),
        }
    }
    for o in occurrences.iter().filter(|o| is_kotlin(&o.path)) {
        let doc = ctx.read(&o.path)?;
        let at = doc.offset(o.line, o.column);
        let written = at.map(|at| ident_at(doc.text(), at)).unwrap_or_default();
        match at {
            Some(at) if written == old => {
                done.insert((o.path.clone(), at));
            }
            _ if o.nameless => {}
            _ => elsewhere.push(format!("{}:{}:{} (`{written}`)", doc.display, o.line, o.column)),
        }
    }
    if !elsewhere.is_empty() {
        let n = elsewhere.len();
        elsewhere.truncate(SHOWN);
        return Err(ActionError::Refused(format!(
            "{label} is written under another name in Kotlin at {n} place(s): {}{}; renaming it there (a property's \
             accessors, `@JvmName`, a file facade, `INSTANCE`, `Companion`) is not supported, and renaming Java alone \
             would break the Kotlin code",
            elsewhere.join(", "),
            if n > SHOWN { ", …" } else { "" }
        )));
    }
    // The Kotlin mentions no reference or declaration accounts for.
    let words = mention_words(old, category);
    let mut missed = Vec::new();
    for p in scope.iter().filter(|p| is_kotlin(p)) {
        let Ok(doc) = ctx.read(p) else { continue };
        if !words.iter().any(|w| doc.text().contains(w.as_str())) {
            continue;
        }
        for at in mentions(doc.text(), &words, category) {
            if !done.contains(&(p.clone(), at)) {
                let line = doc.line_of(at);
                let start = doc.offset(line, 1).unwrap_or(at);
                let column = doc.text().get(start..at).map_or(1, |s| s.encode_utf16().count() + 1);
                missed.push(format!("{}:{line}:{column}", doc.display));
            }
        }
    }
    if missed.is_empty() {
        return Ok(None);
    }
    let n = missed.len();
    missed.truncate(SHOWN);
    Ok(Some(format!(
        "{n} Kotlin mention(s) of {old} with no reference bound to them (Kotlin is bound from syntax: a receiver only \
         Kotlin's inference types is missed), which the rename would leave unchanged: {}{}",
        missed.join(", "),
        if n > SHOWN { ", …" } else { "" }
    )))
}

/// The identifier starting at byte `at` of `text`.
fn ident_at(text: &str, at: usize) -> String {
    text.get(at..).unwrap_or("").chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect()
}

/// The words a Kotlin file may write `old` as: itself, and for a Java accessor the property
/// (`getName` → `name`).
fn mention_words(old: &str, category: Category) -> Vec<String> {
    let mut words = vec![old.to_owned()];
    if category == Category::Method
        && let Some(p) = mji_xref::kotlin::property_of_accessor(old)
        && p != old
    {
        words.push(p);
    }
    words
}

/// The byte offsets of the identifiers of `text` (a Kotlin source) that may use a member named
/// one of `words`: a method's name called (`name(`, a trailing lambda `name {`) or referenced
/// (`::name`), a property or field after a dot (`x.name`); a type's name anywhere; never a
/// declaration's own name.
fn mentions(text: &str, words: &[String], category: Category) -> Vec<usize> {
    let Some(tree) = mji_parser::kotlin::parse_tree(text) else { return Vec::new() };
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    walk(tree.root_node(), &mut |n| {
        if n.kind() != "identifier" {
            return;
        }
        let Some(w) = words.iter().position(|w| n.utf8_text(bytes).ok() == Some(w.as_str())) else { return };
        // Another declaration of the name (the family's own are accounted for).
        if n.parent().is_some_and(|p| p.child_by_field_name("name").is_some_and(|x| x.id() == n.id())) {
            return;
        }
        let before = text[..n.start_byte()].trim_end();
        let after = text[n.end_byte()..].trim_start();
        let keep = match category {
            Category::Method if w == 0 => after.starts_with('(') || after.starts_with('{') || before.ends_with("::"),
            Category::Method | Category::Field => before.ends_with('.') || before.ends_with("::"),
            _ => true,
        };
        if keep {
            out.push(n.start_byte());
        }
    });
    out
}
