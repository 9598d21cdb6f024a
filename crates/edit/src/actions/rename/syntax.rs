//! The textual half of a rename: every reference position the binder found and every
//! declaration the family names, turned into edits of exactly the old name's characters.
//! A position where the old name is not written (a `this(…)` call bound to a constructor, a
//! file that changed since it was bound) is never edited blindly: it is skipped and said.

use mji_parser::kind;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use mji_xref::Category;
use mji_xref::rename::DeclSite;
use tree_sitter::Node;

use crate::ctx::Ctx;
use crate::syntax::walk;
use crate::{Doc, EditError, TextEdit, WorkspaceEdit};

/// One reference to rename: where the binder found it.
#[derive(Debug, Clone)]
pub struct Occurrence {
    pub path: Arc<Path>,
    pub line: u32,
    pub column: u32,
    /// this-call, super-call: constructor calls that do not write the type's name.
    pub nameless: bool,
}

/// The edit of a rename, and what it could not do.
#[derive(Debug, Default)]
pub struct RenameEdit {
    pub edit: WorkspaceEdit,
    /// Positions skipped (the old name is not there), as `file:line:column: why`.
    pub skipped: Vec<String>,
    /// Conflicts found in the text: a local variable of the new name that would capture an
    /// unqualified reference.
    pub conflicts: Vec<String>,
    /// Declarations renamed, and references renamed.
    pub declarations: usize,
    pub references: usize,
}

/// Builds the edits renaming `old` to `new` at every declaration and occurrence. `display`
/// names files in answers; `move_file`: the declaration file becomes `New.java` (a public
/// top-level type named like its file).
pub fn rename_edits(
    decls: &[DeclSite],
    occurrences: &[Occurrence],
    old: &str,
    new: &str,
    check_shadowing: bool,
    ctx: &dyn Ctx,
) -> Result<RenameEdit, EditError> {
    let mut docs: HashMap<Arc<Path>, Doc> = HashMap::new();
    let mut out = RenameEdit::default();
    let mut edits: HashMap<Arc<Path>, Vec<TextEdit>> = HashMap::new();
    let load = |p: &Arc<Path>, docs: &mut HashMap<Arc<Path>, Doc>| -> Result<(), EditError> {
        if !docs.contains_key(p) {
            docs.insert(p.clone(), ctx.read(p)?);
        }
        Ok(())
    };
    for d in decls {
        load(&d.path, &mut docs)?;
    }
    // Each declaration's file is parsed to find its name: on several threads (a method of a
    // family of many overriders, `Charset#contains` on java.base, parsed 57 files one by one).
    let found = decl_name_offsets(decls, &docs, old);
    for (d, found) in decls.iter().zip(found) {
        // A Kotlin constructor writes no name (`constructor(…)`, its class header's).
        if super::kotlin::is_kotlin(&d.path) && d.category == Category::Ctor {
            continue;
        }
        let doc = &docs[&d.path];
        match found {
            Some(at) => {
                edits.entry(d.path.clone()).or_default().push(TextEdit {
                    start: at,
                    end: at + old.len(),
                    text: new.into(),
                });
                out.declarations += 1;
            }
            None => out.skipped.push(format!(
                "{}:{}: the declaration of {old} was not found there (the file changed since it was indexed?)",
                doc.display, d.line
            )),
        }
    }
    for o in occurrences {
        load(&o.path, &mut docs)?;
        let doc = &docs[&o.path];
        let at = doc.offset(o.line, o.column);
        match at {
            Some(at) if doc.text()[at..].starts_with(old) && !ident_continues(doc.text(), at + old.len()) => {
                if check_shadowing && let Some(c) = shadowed(doc, at, new) {
                    out.conflicts.push(c);
                }
                edits.entry(o.path.clone()).or_default().push(TextEdit {
                    start: at,
                    end: at + old.len(),
                    text: new.into(),
                });
                out.references += 1;
            }
            _ if o.nameless => {}
            _ => out.skipped.push(format!(
                "{}:{}:{}: `{old}` is not written there (the file changed since it was bound?)",
                doc.display, o.line, o.column
            )),
        }
    }
    for (p, e) in edits {
        let doc = &docs[&p];
        let mut f = doc.edit();
        f.edits = e;
        out.edit.add(f);
    }
    Ok(out)
}

fn ident_continues(text: &str, at: usize) -> bool {
    text[at..].chars().next().is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

/// The node kinds that declare each category's names.
fn declares(category: Category, kind: &str) -> bool {
    match category {
        Category::Type => kind::is_type_declaration(kind),
        Category::Ctor => matches!(kind, kind::CONSTRUCTOR_DECLARATION | kind::COMPACT_CONSTRUCTOR_DECLARATION),
        Category::Method => matches!(kind, kind::METHOD_DECLARATION | kind::ANNOTATION_TYPE_ELEMENT_DECLARATION),
        Category::Field => matches!(kind, kind::VARIABLE_DECLARATOR | kind::ENUM_CONSTANT),
    }
}

/// The byte offset of the declared name: the first declaration of the category named `old`
/// whose name is on or after the declaration's line (a declaration's line may be that of its
/// annotations).
/// [`decl_name_offset`] of each of `decls` (whose files `docs` holds), in their order, found on
/// up to one thread per core.
fn decl_name_offsets(decls: &[DeclSite], docs: &HashMap<Arc<Path>, Doc>, old: &str) -> Vec<Option<usize>> {
    let find = |d: &DeclSite| docs.get(&d.path).and_then(|doc| decl_name_offset(doc, d, old));
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(decls.len());
    if threads < 2 {
        return decls.iter().map(find).collect();
    }
    let per = decls.len().div_ceil(threads);
    std::thread::scope(|s| {
        let parts: Vec<_> =
            decls.chunks(per).map(|part| s.spawn(move || part.iter().map(find).collect::<Vec<_>>())).collect();
        // A part whose thread failed is found here instead.
        parts
            .into_iter()
            .zip(decls.chunks(per))
            .flat_map(|(h, part)| h.join().unwrap_or_else(|_| part.iter().map(find).collect()))
            .collect()
    })
}

fn decl_name_offset(doc: &Doc, d: &DeclSite, old: &str) -> Option<usize> {
    if super::kotlin::is_kotlin(&d.path) {
        return super::kotlin::decl_name_offset(doc, d.line, old);
    }
    let tree = mji_parser::parse_tree(doc.text())?;
    let row = d.line.saturating_sub(1) as usize;
    let mut best: Option<(usize, usize)> = None;
    walk(tree.root_node(), &mut |n| {
        // A record component is declared as a parameter of the record's header.
        let component = d.category == Category::Field
            && n.kind() == kind::FORMAL_PARAMETER
            && n.parent().and_then(|p| p.parent()).is_some_and(|r| r.kind() == kind::RECORD_DECLARATION);
        if !declares(d.category, n.kind()) && !component {
            return;
        }
        if let Some(name) = n.child_by_field_name("name")
            && name.utf8_text(doc.text().as_bytes()).ok() == Some(old)
            && name.start_position().row >= row
        {
            let r = name.start_position().row;
            if best.is_none_or(|(br, _)| r < br) {
                best = Some((r, name.start_byte()));
            }
        }
    });
    best.map(|(_, b)| b)
}

/// A local variable, parameter or lambda parameter named `new`, in scope at an unqualified
/// use at `at`, that would capture the renamed field there.
fn shadowed(doc: &Doc, at: usize, new: &str) -> Option<String> {
    let text = doc.text();
    // `x.name`: qualified, cannot be captured by a local.
    if text[..at].trim_end().ends_with('.') {
        return None;
    }
    let tree = mji_parser::parse_tree(text)?;
    let mut node = tree.root_node().descendant_for_byte_range(at, at)?;
    // The enclosing bodies, innermost first, up to the type.
    while let Some(p) = node.parent() {
        node = p;
        let kind = node.kind();
        if matches!(kind, kind::CLASS_BODY | kind::INTERFACE_BODY | kind::ENUM_BODY | kind::RECORD_DECLARATION) {
            return None;
        }
        if matches!(
            kind,
            kind::METHOD_DECLARATION | kind::CONSTRUCTOR_DECLARATION | kind::LAMBDA_EXPRESSION | kind::BLOCK
        ) {
            let mut hit = None;
            walk(node, &mut |n| {
                if hit.is_none()
                    && matches!(
                        n.kind(),
                        kind::VARIABLE_DECLARATOR
                            | kind::FORMAL_PARAMETER
                            | kind::CATCH_FORMAL_PARAMETER
                            | kind::RESOURCE
                            | kind::SPREAD_PARAMETER
                    )
                    && n.start_byte() < at
                    && in_scope_at(n, at)
                    && let Some(name) = n.child_by_field_name("name")
                    && name.utf8_text(text.as_bytes()).ok() == Some(new)
                {
                    hit = Some(name.start_position().row + 1);
                }
                if hit.is_none()
                    && n.kind() == kind::IDENTIFIER
                    && n.parent()
                        .is_some_and(|p| p.kind() == kind::LAMBDA_EXPRESSION || p.kind() == kind::INFERRED_PARAMETERS)
                    && in_scope_at(n, at)
                    && n.utf8_text(text.as_bytes()).ok() == Some(new)
                {
                    hit = Some(n.start_position().row + 1);
                }
            });
            if let Some(line) = hit {
                return Some(format!(
                    "{}:{}: the local `{new}` declared at line {line} would capture this reference",
                    doc.display,
                    doc.line_of(at)
                ));
            }
        }
    }
    None
}

/// Whether a declaration at `decl` is in scope at byte `at`: its nearest enclosing scope
/// (block, method, lambda, loop, catch, try-with-resources) contains `at`.
fn in_scope_at(decl: Node, at: usize) -> bool {
    let mut n = decl;
    while let Some(p) = n.parent() {
        n = p;
        if matches!(
            n.kind(),
            kind::BLOCK
                | kind::METHOD_DECLARATION
                | kind::CONSTRUCTOR_DECLARATION
                | kind::LAMBDA_EXPRESSION
                | kind::FOR_STATEMENT
                | kind::ENHANCED_FOR_STATEMENT
                | kind::CATCH_CLAUSE
                | kind::TRY_WITH_RESOURCES_STATEMENT
                | kind::SWITCH_BLOCK_STATEMENT_GROUP
        ) {
            return n.start_byte() <= at && at < n.end_byte();
        }
    }
    false
}

/// The edits renaming record component `old` in the record declared at `line` inside its
/// canonical constructor: an explicit one's parameter and its uses, or in a compact one the
/// implicit parameter's uses (`this.old` there is the field, renamed with the references).
pub fn record_constructor_params(doc: &Doc, line: u32, old: &str, new: &str) -> Vec<TextEdit> {
    let text = doc.text();
    let bytes = text.as_bytes();
    let Some(tree) = mji_parser::parse_tree(text) else { return Vec::new() };
    let row = line.saturating_sub(1) as usize;
    let mut record = None;
    walk(tree.root_node(), &mut |n| {
        if record.is_none()
            && n.kind() == kind::RECORD_DECLARATION
            && n.start_position().row <= row
            && row <= n.end_position().row
            && let Some(ps) = n.child_by_field_name("parameters")
            && ps.start_position().row <= row
            && row <= ps.end_position().row
        {
            record = Some(n);
        }
    });
    let Some(record) = record else { return Vec::new() };
    let names = |ps: Node| -> Vec<String> {
        let mut c = ps.walk();
        ps.named_children(&mut c)
            .filter_map(|p| p.child_by_field_name("name").and_then(|x| x.utf8_text(bytes).ok()).map(str::to_owned))
            .collect()
    };
    let Some(components) = record.child_by_field_name("parameters").map(names) else { return Vec::new() };
    let Some(body) = record.child_by_field_name("body") else { return Vec::new() };
    let mut out = Vec::new();
    let mut c = body.walk();
    for m in body.named_children(&mut c) {
        match m.kind() {
            kind::CONSTRUCTOR_DECLARATION => {
                let Some(ps) = m.child_by_field_name("parameters") else { continue };
                if names(ps) != components {
                    continue;
                }
                let mut c2 = ps.walk();
                let param = ps
                    .named_children(&mut c2)
                    .filter_map(|p| p.child_by_field_name("name"))
                    .find(|n| n.utf8_text(bytes).ok() == Some(old));
                if let Some(p) = param
                    && let Some(l) = crate::locals::rename_local(doc, p.start_byte(), new)
                {
                    out.extend(l.edits);
                }
            }
            kind::COMPACT_CONSTRUCTOR_DECLARATION => {
                let Some(b) = m.child_by_field_name("body") else { continue };
                walk(b, &mut |n| {
                    if n.kind() == kind::IDENTIFIER
                        && n.utf8_text(bytes).ok() == Some(old)
                        && !crate::locals::is_member_name(n)
                    {
                        out.push(TextEdit { start: n.start_byte(), end: n.end_byte(), text: new.to_owned() });
                    }
                });
            }
            _ => {}
        }
    }
    out
}

/// The byte range of the package declaration's name, and of every `import old.*;` /
/// `import static old.*` prefix, in a file: the edits a package rename makes that are not
/// references to its types.
pub fn package_name_ranges(doc: &Doc, old: &str) -> Vec<(usize, usize)> {
    let text = doc.text();
    let bytes = text.as_bytes();
    let Some(tree) = mji_parser::parse_tree(text) else { return Vec::new() };
    let root = tree.root_node();
    let mut out = Vec::new();
    let mut c = root.walk();
    for n in root.children(&mut c) {
        let name = {
            let mut c2 = n.walk();
            n.named_children(&mut c2).find(|k| matches!(k.kind(), kind::SCOPED_IDENTIFIER | kind::IDENTIFIER))
        };
        let Some(name) = name else { continue };
        let spelled: String = name.utf8_text(bytes).unwrap_or("").split_whitespace().collect();
        match n.kind() {
            kind::PACKAGE_DECLARATION if spelled == old => out.push((name.start_byte(), name.end_byte())),
            // `import old.*;`: the whole name is the package.
            kind::IMPORT_DECLARATION if spelled == old && text[name.end_byte()..n.end_byte()].contains('*') => {
                out.push((name.start_byte(), name.end_byte()))
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The declarations' names found on several threads are those found one by one, each in
    /// its declaration's place (one not there: none, in its place).
    #[test]
    fn names_found_on_threads_are_those_found_one_by_one_in_order() {
        let mut docs = HashMap::new();
        let mut decls = Vec::new();
        for i in 0..7u32 {
            let path: Arc<Path> = Path::new(&format!("/w/C{i}.java")).into();
            let text = format!("class C{i} {{\n{}  void m() {{}}\n}}\n", "  int f;\n".repeat(i as usize));
            let doc = Doc::new(&path, &format!("C{i}.java"), text.into_bytes()).expect("utf-8");
            docs.insert(path.clone(), doc);
            // The fourth names a line past the method: its name is not found there.
            let line = if i == 3 { 9 } else { 2 + i };
            decls.push(DeclSite { path, line, category: Category::Method });
        }
        let one_by_one: Vec<Option<usize>> = decls.iter().map(|d| decl_name_offset(&docs[&d.path], d, "m")).collect();
        assert_eq!(one_by_one.iter().filter(|o| o.is_some()).count(), 6);
        assert_eq!(one_by_one[3], None);
        assert_eq!(decl_name_offsets(&decls, &docs, "m"), one_by_one);
    }
}
