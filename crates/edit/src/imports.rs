//! Organize imports: remove the unused, redundant and duplicate ones, add the missing ones the
//! index knows (asking when a name has several candidates), and sort them in the groups the
//! file already uses (static imports in a block of their own).

use mji_parser::kind;
use std::collections::{BTreeMap, BTreeSet, HashSet};

use tree_sitter::Node;

use crate::syntax::walk;
use crate::{Doc, TextEdit};

/// What organizing did, and the edit.
#[derive(Debug, Default)]
pub struct Organized {
    pub edits: Vec<TextEdit>,
    pub removed: Vec<String>,
    pub added: Vec<String>,
    /// `Name: a.Name, b.Name` for simple names with several candidates and no choice given.
    pub ambiguous: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Import {
    path: String,
    is_static: bool,
    on_demand: bool,
}

impl Import {
    fn line(&self) -> String {
        format!(
            "import {}{}{};",
            if self.is_static { "static " } else { "" },
            self.path,
            if self.on_demand { ".*" } else { "" }
        )
    }

    /// The simple name it brings in (the last segment), or `None` for `.*`.
    fn simple(&self) -> Option<&str> {
        (!self.on_demand).then(|| self.path.rsplit('.').next().unwrap_or(&self.path))
    }

    /// The group key of the file's layout: static or not, and the first segment.
    fn group(&self) -> (bool, String) {
        (self.is_static, self.path.split('.').next().unwrap_or("").to_owned())
    }
}

/// Organizes the imports of `doc`. `lookup` gives the importable types of a simple name
/// (qualified); `choose` picks among several; `inherited` says whether a simple name is a
/// member type a type of the file inherits from a supertype (in scope without an import,
/// and ahead of any import: JLS 6.4.1).
pub fn organize(
    doc: &Doc,
    lookup: &dyn Fn(&str) -> Vec<String>,
    choose: &[String],
    inherited: &dyn Fn(&str) -> bool,
) -> Organized {
    let mut out = Organized::default();
    let text = doc.text();
    let bytes = text.as_bytes();
    let Some(tree) = mji_parser::parse_tree(text) else { return out };
    let root = tree.root_node();
    let mut package = String::new();
    let mut package_end = None;
    let mut imports: Vec<(Import, Node)> = Vec::new();
    let mut c = root.walk();
    for n in root.children(&mut c) {
        match n.kind() {
            kind::PACKAGE_DECLARATION => {
                package_end = Some(n.end_byte());
                let mut c2 = n.walk();
                package = n
                    .named_children(&mut c2)
                    .find(|k| matches!(k.kind(), kind::SCOPED_IDENTIFIER | kind::IDENTIFIER))
                    .and_then(|k| k.utf8_text(bytes).ok())
                    .map(|s| s.split_whitespace().collect())
                    .unwrap_or_default();
            }
            kind::IMPORT_DECLARATION => {
                let mut c2 = n.walk();
                let kids: Vec<Node> = n.children(&mut c2).collect();
                let path = kids
                    .iter()
                    .find(|k| matches!(k.kind(), kind::SCOPED_IDENTIFIER | kind::IDENTIFIER))
                    .and_then(|k| k.utf8_text(bytes).ok())
                    .map(|s| s.split_whitespace().collect::<String>())
                    .unwrap_or_default();
                let imp = Import {
                    path,
                    is_static: kids.iter().any(|k| k.kind() == "static"),
                    on_demand: kids.iter().any(|k| k.kind() == kind::ASTERISK),
                };
                imports.push((imp, n));
            }
            _ => {}
        }
    }
    // What the code uses: type names, other identifiers, names in javadoc.
    let mut declared: HashSet<String> = HashSet::new();
    let mut types_used: BTreeSet<String> = BTreeSet::new();
    let mut idents: HashSet<String> = HashSet::new();
    let mut doc_names: HashSet<String> = HashSet::new();
    walk(root, &mut |n| {
        if matches!(n.kind(), kind::IMPORT_DECLARATION | kind::PACKAGE_DECLARATION) || in_header(n) {
            return;
        }
        let t = || n.utf8_text(bytes).unwrap_or("").to_owned();
        match n.kind() {
            kind::CLASS_DECLARATION
            | kind::INTERFACE_DECLARATION
            | kind::ENUM_DECLARATION
            | kind::RECORD_DECLARATION
            | kind::ANNOTATION_TYPE_DECLARATION
            | kind::TYPE_PARAMETER => {
                let name = n.child_by_field_name("name").or_else(|| {
                    n.named_child(0).filter(|k| k.kind() == kind::TYPE_IDENTIFIER || k.kind() == kind::IDENTIFIER)
                });
                if let Some(name) = name {
                    declared.insert(name.utf8_text(bytes).unwrap_or("").to_owned());
                }
            }
            kind::TYPE_IDENTIFIER => {
                // `Outer.Inner`: only the leftmost name needs an import.
                let inner =
                    n.parent().is_some_and(|p| p.kind() == kind::SCOPED_TYPE_IDENTIFIER && p.named_child(0) != Some(n));
                if !inner && t() != "var" {
                    types_used.insert(t());
                }
            }
            kind::IDENTIFIER => {
                let s = t();
                let p = n.parent();
                let is_annotation = p.is_some_and(|p| {
                    matches!(p.kind(), kind::MARKER_ANNOTATION | kind::ANNOTATION)
                        && p.child_by_field_name("name") == Some(n)
                });
                // `Foo.bar()`, `Foo.BAR`: an upper-case receiver is a type.
                let is_receiver = p.is_some_and(|p| {
                    matches!(p.kind(), kind::METHOD_INVOCATION | kind::FIELD_ACCESS)
                        && p.child_by_field_name("object") == Some(n)
                }) && s.starts_with(|c: char| c.is_uppercase());
                if is_annotation || is_receiver {
                    types_used.insert(s.clone());
                }
                idents.insert(s);
            }
            kind::BLOCK_COMMENT | kind::LINE_COMMENT => {
                javadoc_names(&t(), &mut doc_names);
            }
            _ => {}
        }
    });
    let used = |name: &str| types_used.contains(name) || idents.contains(name) || doc_names.contains(name);
    // Keep, drop.
    let mut kept: Vec<Import> = Vec::new();
    for (imp, _) in &imports {
        let why = if kept.contains(imp) {
            Some("duplicate")
        } else if !imp.is_static && !imp.on_demand && parent_of(&imp.path) == "java.lang" {
            Some("java.lang is imported implicitly")
        } else if !imp.is_static && !imp.on_demand && !package.is_empty() && parent_of(&imp.path) == package {
            Some("same package")
        } else if !imp.is_static && imp.on_demand && (imp.path == "java.lang" || imp.path == package) {
            Some("imported implicitly")
        } else if let Some(s) = imp.simple()
            && !used(s)
        {
            Some("unused")
        } else {
            None
        };
        match why {
            Some(w) => out.removed.push(format!("{} ({w})", imp.path)),
            None => kept.push(imp.clone()),
        }
    }
    // Add what is missing.
    let imported: HashSet<String> =
        kept.iter().filter(|i| !i.is_static).filter_map(|i| i.simple()).map(str::to_owned).collect();
    let on_demand: Vec<String> = kept.iter().filter(|i| i.on_demand && !i.is_static).map(|i| i.path.clone()).collect();
    for name in &types_used {
        if declared.contains(name)
            || imported.contains(name)
            || !name.starts_with(|c: char| c.is_uppercase())
            || inherited(name)
        {
            continue;
        }
        let cands = lookup(name);
        let visible = |q: &str| cands.iter().any(|c| c == q);
        if cands.is_empty()
            || visible(&format!("java.lang.{name}"))
            || (!package.is_empty() && visible(&format!("{package}.{name}")))
            || (package.is_empty() && visible(name))
            || on_demand.iter().any(|p| visible(&format!("{p}.{name}")))
        {
            continue;
        }
        // Nested types may be inherited members (`Entry` in a `Map`): not guessed.
        let mut top: Vec<&String> = cands.iter().filter(|c| is_top_level(c)).collect();
        top.sort();
        top.dedup();
        let picked: Vec<&&String> = top.iter().filter(|c| choose.contains(c)).collect();
        match (top.len(), picked.first()) {
            (_, Some(c)) => {
                out.added.push((**c).clone());
                kept.push(Import { path: (**c).clone(), is_static: false, on_demand: false });
            }
            (1, None) => {
                out.added.push(top[0].clone());
                kept.push(Import { path: top[0].clone(), is_static: false, on_demand: false });
            }
            (0, None) => {}
            (_, None) => {
                out.ambiguous.push(format!("{name}: {}", top.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")))
            }
        }
    }
    // The new block, in the file's groups.
    let eol = doc.eol();
    let layout = groups_of(&imports.iter().map(|(i, n)| (i.clone(), *n)).collect::<Vec<_>>(), text);
    let block = render(&kept, &layout, eol);
    let old_block = imports.first().zip(imports.last()).map(|((_, a), (_, b))| (a.start_byte(), b.end_byte()));
    match old_block {
        Some((start, end)) => {
            let has_comments = {
                let mut found = false;
                walk(root, &mut |n| {
                    if matches!(n.kind(), kind::LINE_COMMENT | kind::BLOCK_COMMENT)
                        && n.start_byte() > start
                        && n.end_byte() < end
                    {
                        found = true;
                    }
                });
                found
            };
            if has_comments {
                // Comments between imports stay: drop the removed lines, append the added ones.
                for (imp, n) in &imports {
                    if !kept.contains(imp) || imports.iter().filter(|(i, _)| i == imp).count() > 1 {
                        let line_end = text[n.end_byte()..].find('\n').map_or(text.len(), |i| n.end_byte() + i + 1);
                        let dup_first = imports.iter().position(|(i, _)| i == imp).map(|p| imports[p].1) == Some(*n);
                        if kept.contains(imp) && dup_first {
                            continue;
                        }
                        out.edits.push(TextEdit { start: n.start_byte(), end: line_end, text: String::new() });
                    }
                }
                let adds: String = out.added.iter().map(|a| format!("{eol}import {a};")).collect::<Vec<_>>().concat();
                if !adds.is_empty() {
                    out.edits.push(TextEdit { start: end, end, text: adds });
                }
            } else if text[start..end] != *block.trim_end() {
                out.edits.push(TextEdit { start, end, text: block.trim_end().to_owned() });
            }
        }
        None if !kept.is_empty() => {
            let (at, prefix) = match package_end {
                Some(e) => (e, format!("{eol}{eol}")),
                None => (0, String::new()),
            };
            let suffix = if package_end.is_some() { "" } else { eol };
            out.edits.push(TextEdit { start: at, end: at, text: format!("{prefix}{}{suffix}", block.trim_end()) });
        }
        None => {}
    }
    out
}

/// Inside a package or import declaration.
fn in_header(n: Node) -> bool {
    let mut p = n.parent();
    while let Some(x) = p {
        if matches!(x.kind(), kind::IMPORT_DECLARATION | kind::PACKAGE_DECLARATION) {
            return true;
        }
        p = x.parent();
    }
    false
}

fn parent_of(path: &str) -> &str {
    path.rsplit_once('.').map_or("", |x| x.0)
}

/// A qualified name whose last two segments are not both capitalized (a heuristic for
/// "not nested": packages are lower case by convention).
fn is_top_level(q: &str) -> bool {
    let mut segs = q.rsplit('.');
    segs.next();
    !segs.next().is_some_and(|s| s.starts_with(|c: char| c.is_uppercase()))
}

/// Type names a comment's javadoc tags mention: `{@link Foo#bar}`, `@see Foo`, `@throws Foo`.
fn javadoc_names(comment: &str, out: &mut HashSet<String>) {
    for tag in ["{@link ", "{@linkplain ", "@see ", "@throws ", "@exception ", "{@value "] {
        for (i, _) in comment.match_indices(tag) {
            let rest = comment[i + tag.len()..].trim_start();
            let name: String =
                rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$' || *c == '.').collect();
            if let Some(first) = name.split('.').next()
                && !first.is_empty()
            {
                out.insert(first.to_owned());
            }
        }
    }
}

/// The file's group order: each blank-line separated block of imports, keyed by its first
/// import's (static, first segment).
fn groups_of(imports: &[(Import, Node)], text: &str) -> Vec<(bool, String)> {
    let mut out: Vec<(bool, String)> = Vec::new();
    let mut prev_end: Option<usize> = None;
    for (imp, n) in imports {
        let new_block = prev_end.is_none_or(|e| text[e..n.start_byte()].matches('\n').count() > 1);
        let key = imp.group();
        if (new_block || out.last().is_some_and(|k| k.0 != key.0)) && !out.contains(&key) {
            out.push(key);
        }
        prev_end = Some(n.end_byte());
    }
    out
}

/// The import block: with a layout of several groups, each import goes to its group (or
/// after them, non-static before static); otherwise non-static imports, then static ones.
fn render(imports: &[Import], layout: &[(bool, String)], eol: &str) -> String {
    let mut groups: BTreeMap<usize, BTreeSet<String>> = BTreeMap::new();
    let grouped = layout.len() > 1;
    let statics_first = layout.first().is_some_and(|g| g.0) && layout.iter().any(|g| !g.0);
    for i in imports {
        let slot = if grouped {
            layout.iter().position(|g| *g == i.group()).unwrap_or(layout.len() + usize::from(i.is_static))
        } else {
            usize::from(i.is_static != statics_first)
        };
        groups.entry(slot).or_default().insert(i.line());
    }
    groups.values().map(|g| g.iter().map(|l| format!("{l}{eol}")).collect::<String>()).collect::<Vec<_>>().join(eol)
}

/// Makes `qualified` (a top-level type) usable by its simple name in `doc`: `Ok(None)` when it
/// already is (imported, on demand, same package, `java.lang`), `Ok(Some(edit))` adding its
/// import after the others (or after the package), `Err(())` when another type of that simple
/// name is imported (then the code keeps the qualified name).
#[allow(clippy::result_unit_err)]
pub fn ensure_import(doc: &Doc, qualified: &str) -> Result<Option<TextEdit>, ()> {
    let text = doc.text();
    let Some(tree) = mji_parser::parse_tree(text) else { return Err(()) };
    let root = tree.root_node();
    let (pkg, simple) = qualified.rsplit_once('.').unwrap_or(("", qualified));
    if pkg == "java.lang" {
        return Ok(None);
    }
    let mut package_end = None;
    let mut last_import = None;
    let mut c = root.walk();
    for n in root.children(&mut c) {
        let t: String = n.utf8_text(text.as_bytes()).unwrap_or("").split_whitespace().collect::<Vec<_>>().join(" ");
        match n.kind() {
            kind::PACKAGE_DECLARATION => {
                package_end = Some(n.end_byte());
                if t == format!("package {pkg};") {
                    return Ok(None);
                }
            }
            kind::IMPORT_DECLARATION => {
                last_import = Some(n.end_byte());
                if t == format!("import {qualified};") || t == format!("import {pkg}.*;") {
                    return Ok(None);
                }
                if !t.starts_with("import static") && t.ends_with(&format!(".{simple};")) {
                    return Err(());
                }
            }
            _ => {}
        }
    }
    let eol = doc.eol();
    Ok(Some(match (last_import, package_end) {
        (Some(e), _) => TextEdit { start: e, end: e, text: format!("{eol}import {qualified};") },
        (None, Some(e)) => TextEdit { start: e, end: e, text: format!("{eol}{eol}import {qualified};") },
        (None, None) => TextEdit { start: 0, end: 0, text: format!("import {qualified};{eol}{eol}") },
    }))
}

/// [`ensure_import`], the new import placed in order among the file's single-type imports
/// (before the first that sorts after it) rather than after the last.
#[allow(clippy::result_unit_err)]
pub fn ensure_import_sorted(doc: &Doc, qualified: &str) -> Result<Option<TextEdit>, ()> {
    let Some(edit) = ensure_import(doc, qualified)? else { return Ok(None) };
    let text = doc.text();
    let Some(tree) = mji_parser::parse_tree(text) else { return Ok(Some(edit)) };
    let root = tree.root_node();
    let mut c = root.walk();
    let after = root.children(&mut c).find(|n| {
        n.kind() == kind::IMPORT_DECLARATION && {
            let t: String = n.utf8_text(text.as_bytes()).unwrap_or("").split_whitespace().collect::<Vec<_>>().join(" ");
            !t.starts_with("import static") && t.trim_start_matches("import ").trim_end_matches(';') > qualified
        }
    });
    Ok(Some(match after {
        Some(n) => {
            TextEdit { start: n.start_byte(), end: n.start_byte(), text: format!("import {qualified};{}", doc.eol()) }
        }
        None => edit,
    }))
}

/// A type as the code inside type `id` can write it: simple names where they mean the type
/// (imported when they need it and can be), else qualified; `None` for what has no spelling
/// there (`null`'s type, a method's type variable, a local or anonymous class).
pub fn type_text(
    w: &mji_xref::world::World,
    id: mji_xref::world::TypeId,
    t: &mji_xref::ty::Ty,
    doc: &Doc,
    imports: &mut Vec<TextEdit>,
) -> Option<String> {
    type_text_with(w, id, t, doc, imports, &[])
}

/// [`type_text`] where the type variables `tvars` (of the methods around the place) are in
/// scope too.
pub fn type_text_with(
    w: &mji_xref::world::World,
    id: mji_xref::world::TypeId,
    t: &mji_xref::ty::Ty,
    doc: &Doc,
    imports: &mut Vec<TextEdit>,
    tvars: &[String],
) -> Option<String> {
    use mji_xref::ty::Ty;
    let type_text = |w, id, t, doc, imports: &mut Vec<TextEdit>| type_text_with(w, id, t, doc, imports, tvars);
    match t {
        Ty::Prim(p) => Some(p.to_string()),
        Ty::Null => None,
        Ty::Array(e) => Some(format!("{}[]", type_text(w, id, e, doc, imports)?)),
        // A value of a `? extends X` type is an X (its capture's bound); as a type argument it is
        // refused below.
        Ty::Var(name, bound) if &**name == mji_xref::ty::WILDCARD => type_text(w, id, bound, doc, imports),
        Ty::Var(name, _) => (tvars.iter().any(|v| **v == **name)
            || w.decl(id).tparams.iter().any(|p| *p.name == **name))
        .then(|| name.to_string()),
        Ty::Class(fqn, args) => {
            if fqn.contains('$') || !fqn.split('.').all(crate::is_identifier) {
                return None;
            }
            let simple = fqn.rsplit('.').next().unwrap_or(fqn);
            let pkg_top = fqn.rsplit('.').nth(1).is_none_or(|q| q.starts_with(char::is_lowercase));
            let mut out = if w.qualify_in(id, simple).as_deref() == Some(&**fqn) {
                simple.to_owned()
            } else if pkg_top && let Ok(Some(e)) = ensure_import_sorted(doc, fqn) {
                imports.push(e);
                simple.to_owned()
            } else {
                fqn.to_string()
            };
            // The binder reads a wildcard argument `? super X` as `Object` (and the JDK table
            // writes `?` so): `List<?>` spelled `List<Object>` would not compile, so an `Object`
            // argument is not spelled. A `?` argument is spelled `?` or `? extends X`.
            if args.iter().any(|a| matches!(a, Ty::Class(f, _) if &**f == "java.lang.Object")) {
                return None;
            }
            if !args.is_empty() {
                let a: Option<Vec<String>> = args
                    .iter()
                    .map(|a| match a {
                        Ty::Var(n, b) if &**n == mji_xref::ty::WILDCARD => match &**b {
                            Ty::Class(f, _) if &**f == "java.lang.Object" => Some("?".to_owned()),
                            b => Some(format!("? extends {}", type_text(w, id, b, doc, imports)?)),
                        },
                        a => type_text(w, id, a, doc, imports),
                    })
                    .collect();
                out.push_str(&format!("<{}>", a?.join(", ")));
            }
            Some(out)
        }
    }
}

/// The types a simple name may import: workspace types (top-level and nested) and the JDK's.
pub fn candidates(w: &mji_xref::world::World, simple: &str) -> Vec<String> {
    let mut out: Vec<String> = w.types_named(simple);
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn run(src: &str, known: &[&str], choose: &[&str]) -> (String, Organized) {
        let doc = Doc::new(Path::new("/x/A.java"), "A.java", src.as_bytes().to_vec()).expect("utf-8");
        let lookup =
            |s: &str| known.iter().filter(|k| k.rsplit('.').next() == Some(s)).map(|k| (*k).to_owned()).collect();
        let choose: Vec<String> = choose.iter().map(|s| (*s).to_owned()).collect();
        let o = organize(&doc, &lookup, &choose, &|_| false);
        let mut e = crate::WorkspaceEdit::default();
        let mut f = doc.edit();
        f.edits = o.edits.clone();
        e.add(f);
        let plan = e.plan().expect("plan");
        let text = plan.files.first().map_or(src.to_owned(), |f| String::from_utf8(f.new.clone()).expect("utf8"));
        (text, o)
    }

    #[test]
    fn removes_unused_adds_missing_and_sorts() {
        let src = "package p;\n\nimport java.util.Map;\nimport java.util.ArrayList;\nimport java.lang.String;\nimport p.Same;\nimport java.util.Map;\n\nimport static java.util.Objects.requireNonNull;\nimport static java.util.Objects.hash;\n\n/** {@link Set} */\nclass A {\n  List<String> xs = new ArrayList<>();\n  Object o = requireNonNull(Collections.emptyList());\n  Map<String, Map.Entry<String, String>> m;\n}\n";
        let known = ["java.util.List", "java.awt.List", "java.util.Collections", "java.util.Set", "p.Same"];
        let (text, o) = run(src, &known, &[]);
        assert_eq!(o.ambiguous, vec!["List: java.awt.List, java.util.List".to_owned()]);
        assert!(text.contains("import java.util.ArrayList;\nimport java.util.Collections;\nimport java.util.Map;\n\nimport static java.util.Objects.requireNonNull;\n"), "{text}");
        assert!(!text.contains("java.lang.String") && !text.contains("p.Same") && !text.contains("hash;"), "{text}");
        assert_eq!(text.matches("import java.util.Map;").count(), 1);
        // The choice settles the ambiguity.
        let (text, o) = run(src, &known, &["java.util.List"]);
        assert!(o.ambiguous.is_empty());
        assert!(
            text.contains("import java.util.Collections;\nimport java.util.List;\nimport java.util.Map;"),
            "{text}"
        );
    }

    #[test]
    fn a_sorted_import_goes_before_the_first_that_sorts_after_it() {
        let src = "package p;\n\nimport java.util.List;\nimport java.util.Map;\n\nclass A {}\n";
        let doc = Doc::new(Path::new("/x/A.java"), "A.java", src.as_bytes().to_vec()).expect("utf-8");
        let e = ensure_import_sorted(&doc, "java.util.Collections").expect("ok").expect("an edit");
        assert_eq!(e.start, src.find("import java.util.List").expect("m"));
        assert_eq!(e.text, "import java.util.Collections;\n");
        let e = ensure_import_sorted(&doc, "java.util.Set").expect("ok").expect("an edit");
        assert_eq!(e.text, "\nimport java.util.Set;");
    }

    #[test]
    fn keeps_a_file_already_organized_and_adds_after_the_package() {
        let src = "package p;\n\nimport java.util.List;\n\nclass A { List<String> xs; }\n";
        let (_, o) = run(src, &["java.util.List"], &[]);
        assert!(o.edits.is_empty(), "{:?}", o.edits);
        let src = "package p;\r\n\r\nclass A { List<String> xs; }\r\n";
        let (text, _) = run(src, &["java.util.List"], &[]);
        assert_eq!(text, "package p;\r\n\r\nimport java.util.List;\r\n\r\nclass A { List<String> xs; }\r\n");
    }

    #[test]
    fn an_inherited_member_type_needs_no_import() {
        // `Entry` is Map.Entry, inherited from HashMap; a top-level `other.Entry` exists.
        let src =
            "package p;\n\nclass A extends java.util.HashMap<String, String> {\n  Entry<String, String> first;\n}\n";
        let doc = Doc::new(Path::new("/x/A.java"), "A.java", src.as_bytes().to_vec()).expect("utf-8");
        let lookup = |s: &str| if s == "Entry" { vec!["other.Entry".to_owned()] } else { Vec::new() };
        let o = organize(&doc, &lookup, &[], &|s| s == "Entry");
        assert!(o.added.is_empty() && o.edits.is_empty(), "{:?}", o.added);
        // Without the inheritance, the one candidate is imported (what happened before).
        let o = organize(&doc, &lookup, &[], &|_| false);
        assert_eq!(o.added, vec!["other.Entry".to_owned()]);
    }
}
