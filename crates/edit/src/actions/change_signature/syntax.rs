//! The syntax half of `change_signature`: a method's (or constructor's) declarations get the
//! new parameter list (kept parameters keep their text, a renamed one is renamed in the body
//! and its javadoc `@param`), javadoc `@param` tags follow removals and additions, and every
//! call site's arguments are rearranged (a new parameter's argument is its default value).
//! Which declarations and sites there are is the binder's answer, asked by the tools' glue;
//! everything that would change behaviour or not compile is refused here with the reason.

use mji_parser::kind;
use tree_sitter::Node;

use crate::syntax::{text, walk};
use crate::{Doc, TextEdit};

/// One parameter of the new list: `from` the old index (None: a new parameter, which needs
/// `ty`, and `default_value` when there are call sites).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NewParam {
    pub from: Option<usize>,
    pub name: String,
    pub ty: String,
    pub default_value: String,
}

/// The change: the method's old name, its new one (the same when kept), the target's
/// parameter names (renames apply where a declaration names a parameter alike) and the new
/// list.
#[derive(Debug, Clone)]
pub struct Change {
    pub old_name: String,
    pub new_name: String,
    pub old_params: Vec<String>,
    pub params: Vec<NewParam>,
}

impl Change {
    /// Whether the parameters move, come or go (not only a rename of them or of the method):
    /// a method reference or a lambda then no longer fits.
    pub fn reshapes(&self) -> bool {
        self.params.len() != self.old_params.len() || self.params.iter().enumerate().any(|(i, p)| p.from != Some(i))
    }

    fn removed(&self) -> Vec<usize> {
        (0..self.old_params.len()).filter(|i| !self.params.iter().any(|p| p.from == Some(*i))).collect()
    }
}

/// The parameters of a method declaration: (name, type text, the whole parameter's text).
#[derive(Debug, Clone)]
pub struct Param {
    pub name: String,
    pub ty: String,
    pub varargs: bool,
}

/// The method or constructor declaration whose name starts at `at`.
fn declaration_at<'t>(tree: &'t tree_sitter::Tree, at: usize) -> Option<Node<'t>> {
    let n = tree.root_node().descendant_for_byte_range(at, at)?;
    let p = n.parent()?;
    matches!(p.kind(), kind::METHOD_DECLARATION | kind::CONSTRUCTOR_DECLARATION)
        .then_some(p)
        .filter(|p| p.child_by_field_name("name") == Some(n))
}

/// The byte offset of the name of the first method (or constructor) declaration named `name`
/// whose name is on or after `line` (a declaration's line may be its annotations').
pub fn declaration_name_at(doc: &Doc, line: u32, name: &str) -> Option<usize> {
    let tree = mji_parser::parse_tree(doc.text())?;
    let row = line.saturating_sub(1) as usize;
    let mut best: Option<(usize, usize)> = None;
    walk(tree.root_node(), &mut |n| {
        if matches!(n.kind(), kind::METHOD_DECLARATION | kind::CONSTRUCTOR_DECLARATION)
            && let Some(id) = n.child_by_field_name("name")
            && text(id, doc.text()) == name
            && id.start_position().row >= row
            && best.is_none_or(|(r, _)| id.start_position().row < r)
        {
            best = Some((id.start_position().row, id.start_byte()));
        }
    });
    best.map(|(_, b)| b)
}

fn params_of<'t>(decl: Node<'t>) -> Vec<Node<'t>> {
    let Some(ps) = decl.child_by_field_name("parameters") else { return Vec::new() };
    let mut c = ps.walk();
    ps.named_children(&mut c)
        .filter(|p| matches!(p.kind(), kind::FORMAL_PARAMETER | kind::SPREAD_PARAMETER | kind::RECEIVER_PARAMETER))
        .collect()
}

fn param_name<'t>(p: Node<'t>) -> Option<Node<'t>> {
    if let Some(n) = p.child_by_field_name("name") {
        return Some(n);
    }
    // `T... name`: the name is the spread parameter's declarator's.
    let mut c = p.walk();
    let d = p.named_children(&mut c).find(|k| k.kind() == kind::VARIABLE_DECLARATOR)?;
    d.child_by_field_name("name")
}

/// The parameters of the declaration whose name is at `at`.
pub fn parameters(doc: &Doc, at: usize) -> Result<Vec<Param>, String> {
    let src = doc.text();
    let tree = mji_parser::parse_tree(src).ok_or("the file does not parse")?;
    let decl = declaration_at(&tree, at).ok_or("no method declaration there")?;
    let mut out = Vec::new();
    for p in params_of(decl) {
        if p.kind() == kind::RECEIVER_PARAMETER {
            return Err("it declares a receiver parameter (`Type this`)".into());
        }
        let name = param_name(p).ok_or("a parameter without a name")?;
        let ty = &src[p.start_byte()..name.start_byte()];
        // Without the modifiers and annotations: the type is what follows them.
        let ty = match p.named_child(0).filter(|m| m.kind() == kind::MODIFIERS) {
            Some(m) => &src[m.end_byte()..name.start_byte()],
            None => ty,
        };
        out.push(Param {
            name: text(name, src).to_owned(),
            ty: ty.split_whitespace().collect::<Vec<_>>().join(" "),
            varargs: p.kind() == kind::SPREAD_PARAMETER,
        });
    }
    Ok(out)
}

/// The separator between the first two items of a list (keeps a one-per-line layout), or
/// `, `.
fn separator(items: &[Node], src: &str) -> String {
    match items {
        [a, b, ..] => src[a.end_byte()..b.start_byte()].to_owned(),
        _ => ", ".to_owned(),
    }
}

/// An identifier used in `scope` as a variable or field name (not a member selected from
/// something, not a method name): its line, if `name` is one.
fn used_name(scope: Node, src: &str, name: &str) -> Option<usize> {
    let mut hit = None;
    walk(scope, &mut |n| {
        if hit.is_none()
            && n.kind() == kind::IDENTIFIER
            && text(n, src) == name
            && !n.parent().is_some_and(|p| {
                (p.kind() == kind::FIELD_ACCESS && p.child_by_field_name("field") == Some(n))
                    || (p.kind() == kind::METHOD_INVOCATION && p.child_by_field_name("name") == Some(n))
                    || p.kind() == kind::METHOD_REFERENCE
            })
        {
            hit = Some(n.start_position().row + 1);
        }
    });
    hit
}

/// The edits of one declaration (the name at `at`): its name, its parameter list, renamed
/// parameters' uses, and its javadoc's `@param` tags. `target`: the declaration the change was
/// asked of, whose parameter types must be kept as they are.
pub fn declaration(doc: &Doc, at: usize, change: &Change, target: bool) -> Result<Site, String> {
    let src = doc.text();
    let tree = mji_parser::parse_tree(src).ok_or("the file does not parse")?;
    let decl = declaration_at(&tree, at).ok_or("no method declaration there")?;
    let line = decl.start_position().row + 1;
    let here = format!("{}:{line}", doc.display);
    let nodes = params_of(decl);
    let params = parameters(doc, at)?;
    if params.len() != change.old_params.len() {
        return Err(format!("{here} declares {} parameters, not {}", params.len(), change.old_params.len()));
    }
    let body = decl.child_by_field_name("body");
    let mut out = Site::default();
    let edits = &mut out.edits;
    if change.new_name != change.old_name
        && let Some(n) = decl.child_by_field_name("name")
    {
        edits.push(TextEdit { start: n.start_byte(), end: n.end_byte(), text: change.new_name.clone() });
    }
    // Removed parameters must be unused here.
    for i in change.removed() {
        let name = &params[i].name;
        if let Some(b) = body
            && let Some(l) = used_name(b, src, name)
        {
            return Err(format!("parameter `{name}` is used at {}:{l}; remove its uses first", doc.display));
        }
    }
    let Some(list) = decl.child_by_field_name("parameters") else { return Err(format!("{here}: no parameter list")) };
    let mut items = Vec::new();
    let mut final_names: Vec<String> = Vec::new();
    for (j, p) in change.params.iter().enumerate() {
        match p.from {
            Some(i) => {
                let node = nodes[i];
                let name_node = param_name(node).ok_or("a parameter without a name")?;
                let old = &params[i].name;
                if params[i].varargs && j + 1 != change.params.len() {
                    return Err(format!("the varargs parameter `{old}` must stay last"));
                }
                if target && !p.ty.trim().is_empty() && normalized(&p.ty) != normalized(&params[i].ty) {
                    return Err(format!(
                        "parameter `{old}` is {}: changing a kept parameter's type is not supported (remove it and add one)",
                        params[i].ty
                    ));
                }
                // A rename applies where this declaration names the parameter as the target does.
                let rename = !p.name.is_empty() && p.name != *old && change.old_params[i] == *old;
                let name = if rename {
                    // Its declaration, uses and `@param` (the declaration's edit falls inside the
                    // kept parameter's text, composed with the list).
                    let r = crate::locals::rename_local(doc, name_node.start_byte(), &p.name)
                        .ok_or_else(|| format!("{here}: parameter `{old}` could not be renamed"))?;
                    if let Some(c) = r.conflicts.first() {
                        return Err(c.clone());
                    }
                    edits.extend(r.edits);
                    p.name.clone()
                } else {
                    old.clone()
                };
                final_names.push(name);
                items.push(Item::Orig(node.start_byte(), node.end_byte()));
            }
            None => {
                if p.ty.trim().is_empty() || !crate::is_identifier(&p.name) {
                    return Err(format!("new parameter `{}` needs a name and a type", p.name));
                }
                if let Some(b) = body
                    && let Some(l) = used_name(b, src, &p.name)
                {
                    return Err(format!(
                        "`{}` is already used at {}:{l}; a new parameter of that name would change what it means",
                        p.name, doc.display
                    ));
                }
                final_names.push(p.name.clone());
                items.push(Item::New(format!("{} {}", p.ty.trim(), p.name)));
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    if let Some(dup) = final_names.iter().find(|n| !seen.insert(n.as_str())) {
        return Err(format!("two parameters would be named `{dup}`"));
    }
    // Parameters renamed away free their names: a kept one renamed to a removed one's name is
    // fine; a kept one renamed to a kept one's old name is caught by rename_local's conflicts.
    edits.extend(javadoc(doc, decl, change, &params));
    out.lists.push(List { start: list.start_byte(), end: list.end_byte(), sep: separator(&nodes, src), items });
    Ok(out)
}

fn normalized(t: &str) -> String {
    t.chars().filter(|c| !c.is_whitespace()).collect()
}

/// `@param` tags: a removed parameter's goes (with its continuation lines), a new one's is
/// added after the last `@param` (only where the javadoc documents parameters).
fn javadoc(doc: &Doc, decl: Node, change: &Change, params: &[Param]) -> Vec<TextEdit> {
    let src = doc.text();
    let Some(c) = decl.prev_sibling().filter(|c| c.kind() == kind::BLOCK_COMMENT && text(*c, src).starts_with("/**"))
    else {
        return Vec::new();
    };
    // The comment's lines: (start, end including its newline, the text after the `*`).
    let mut lines = Vec::new();
    let mut at = c.start_byte();
    while at < c.end_byte() {
        let end = src[at..c.end_byte()].find('\n').map_or(c.end_byte(), |i| at + i + 1);
        let body = src[at..end].trim_start().trim_start_matches("/**").trim_start_matches('*').trim();
        lines.push((at, end, body.to_owned()));
        at = end;
    }
    let tag_of = |b: &str| -> Option<String> {
        let rest = b.strip_prefix("@param")?;
        rest.starts_with(char::is_whitespace).then(|| rest.split_whitespace().next().unwrap_or("").to_owned())
    };
    // Each @param block: its first line index and one past its last.
    let mut blocks: Vec<(String, usize, usize)> = Vec::new();
    for (i, (_, _, b)) in lines.iter().enumerate() {
        if let Some(name) = tag_of(b) {
            let mut j = i + 1;
            while j < lines.len() && !lines[j].2.starts_with('@') && !lines[j].2.ends_with("*/") && j + 1 < lines.len()
            {
                j += 1;
            }
            blocks.push((name, i, j));
        }
    }
    let mut out = Vec::new();
    // Only whole lines are removed: a tag on the comment's first or last line stays.
    let whole = |i: usize, j: usize| i > 0 && j < lines.len();
    for i in change.removed() {
        if let Some((_, s, e)) = blocks.iter().find(|(n, _, _)| *n == params[i].name)
            && whole(*s, *e)
        {
            out.push(TextEdit { start: lines[*s].0, end: lines[*e - 1].1, text: String::new() });
        }
    }
    if let Some((_, s, e)) = blocks.last()
        && whole(*s, *e)
    {
        let first = &src[lines[*s].0..lines[*s].1];
        let prefix = &first[..first.find("@param").unwrap_or(0)];
        let mut added = String::new();
        for p in change.params.iter().filter(|p| p.from.is_none()) {
            added.push_str(&format!("{prefix}@param {}{}", p.name, doc.eol()));
        }
        if !added.is_empty() {
            let at = lines[*e - 1].1;
            out.push(TextEdit { start: at, end: at, text: added });
        }
    }
    out
}

/// One item of a rearranged list: a kept piece of the file (with the edits inside it), or new
/// text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    Orig(usize, usize),
    New(String),
}

/// A parenthesized list (`start..end`, the parentheses included) rewritten from its items.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct List {
    pub start: usize,
    pub end: usize,
    pub sep: String,
    pub items: Vec<Item>,
}

/// The edits of a declaration or a site: plain replacements and rearranged lists, which
/// [`compose`] turns into the file's edits (a call nested in another's arguments, a renamed
/// parameter passed on in a recursive call).
#[derive(Debug, Default)]
pub struct Site {
    pub edits: Vec<TextEdit>,
    pub lists: Vec<List>,
    /// Behaviour a rearrangement may change: an argument with side effects dropped or
    /// evaluated in another order (`file:line: why`).
    pub conflicts: Vec<String>,
}

/// Whether an expression may have side effects (calls, assignments, increments, `new`).
fn impure(n: Node) -> bool {
    let mut hit = false;
    walk(n, &mut |k| {
        hit |= matches!(
            k.kind(),
            kind::METHOD_INVOCATION
                | kind::OBJECT_CREATION_EXPRESSION
                | kind::ASSIGNMENT_EXPRESSION
                | kind::UPDATE_EXPRESSION
        );
    });
    hit
}

/// A literal (or `this`, a class literal): a value no side effect changes.
fn literal(n: Node) -> bool {
    match n.kind() {
        kind::UNARY_EXPRESSION | kind::PARENTHESIZED_EXPRESSION => n.named_child(0).is_some_and(literal),
        k => matches!(
            k,
            kind::DECIMAL_INTEGER_LITERAL
                | kind::HEX_INTEGER_LITERAL
                | kind::OCTAL_INTEGER_LITERAL
                | kind::BINARY_INTEGER_LITERAL
                | kind::DECIMAL_FLOATING_POINT_LITERAL
                | kind::HEX_FLOATING_POINT_LITERAL
                | kind::STRING_LITERAL
                | kind::CHARACTER_LITERAL
                | kind::NULL_LITERAL
                | kind::TRUE
                | kind::FALSE
                | kind::THIS
                | kind::CLASS_LITERAL
        ),
    }
}

/// The edits of the reference at `at`: a call's (or `new`'s, `this(…)`'s, an enum
/// constant's) arguments rearranged and its name renamed; a method reference or a static
/// import renamed (refused when the parameters reshape); a javadoc link's name and
/// parameter types.
pub fn site(doc: &Doc, at: usize, change: &Change, new_types: &[String]) -> Result<Site, String> {
    let src = doc.text();
    let tree = mji_parser::parse_tree(src).ok_or("the file does not parse")?;
    let node = tree.root_node().descendant_for_byte_range(at, at).ok_or("no syntax there")?;
    let line = doc.line_of(at);
    let here = format!("{}:{line}", doc.display);
    let mut out = Site::default();
    let rename = change.new_name != change.old_name;
    let name_edit = |out: &mut Site| -> Result<(), String> {
        if rename {
            if !src[at..].starts_with(&change.old_name) {
                return Err(format!("{here}: `{}` is not written there", change.old_name));
            }
            out.edits.push(TextEdit { start: at, end: at + change.old_name.len(), text: change.new_name.clone() });
        }
        Ok(())
    };
    if node.kind() == kind::BLOCK_COMMENT || node.kind() == kind::LINE_COMMENT {
        // A javadoc link: `#name(Type, Type)`.
        name_edit(&mut out)?;
        let after = at + change.old_name.len();
        if change.reshapes()
            && src[after..].starts_with('(')
            && let Some(close) = src[after..node.end_byte()].find(')')
        {
            out.edits.push(TextEdit {
                start: after,
                end: after + close + 1,
                text: format!("({})", new_types.join(", ")),
            });
        }
        return Ok(out);
    }
    // The call around the name: the nearest ancestor with arguments, the name before them.
    let mut call = None;
    let mut n = node;
    for _ in 0..4 {
        let Some(p) = n.parent() else { break };
        match p.kind() {
            kind::METHOD_REFERENCE => {
                if change.reshapes() {
                    return Err(format!(
                        "the method reference `{}` at {here} would no longer fit its functional interface",
                        text(p, src)
                    ));
                }
                name_edit(&mut out)?;
                return Ok(out);
            }
            kind::IMPORT_DECLARATION => {
                name_edit(&mut out)?;
                return Ok(out);
            }
            kind::METHOD_INVOCATION
            | kind::OBJECT_CREATION_EXPRESSION
            | kind::EXPLICIT_CONSTRUCTOR_INVOCATION
            | kind::ENUM_CONSTANT => {
                call = Some(p);
                break;
            }
            _ => n = p,
        }
    }
    let Some(call) = call else { return Err(format!("{here}: the reference is not a call this refactoring knows")) };
    name_edit(&mut out)?;
    let Some(args) = call.child_by_field_name("arguments") else {
        // An enum constant without arguments calls the no-argument constructor.
        if change.params.is_empty() {
            return Ok(out);
        }
        return Err(format!("{here}: the call has no argument list"));
    };
    if args.start_byte() < at {
        return Err(format!("{here}: the reference is inside the arguments of another call"));
    }
    let mut c = args.walk();
    let all: Vec<Node> = args.named_children(&mut c).collect();
    if all.iter().any(|a| matches!(a.kind(), kind::BLOCK_COMMENT | kind::LINE_COMMENT)) {
        return Err(format!("{here}: the argument list has comments, which a rearrangement would lose"));
    }
    if all.len() != change.old_params.len() {
        return Err(format!(
            "{here}: the call passes {} arguments for {} parameters (varargs), which this refactoring does not rearrange",
            all.len(),
            change.old_params.len()
        ));
    }
    let mut items = Vec::new();
    let mut last = None;
    let mut reordered = false;
    for p in &change.params {
        match p.from {
            Some(i) => {
                reordered |= last.is_some_and(|l| l > i);
                last = Some(i);
                items.push(Item::Orig(all[i].start_byte(), all[i].end_byte()));
            }
            None => {
                if p.default_value.trim().is_empty() {
                    return Err(format!(
                        "new parameter `{}` has no defaultValue, which the call at {here} needs",
                        p.name
                    ));
                }
                items.push(Item::New(p.default_value.trim().to_owned()));
            }
        }
    }
    for i in change.removed() {
        if impure(all[i]) {
            out.conflicts.push(format!("{here}: the removed argument `{}` has side effects", text(all[i], src)));
        }
    }
    // Two arguments change order: only a literal is unaffected by the other's side effects.
    let kept: Vec<usize> = change.params.iter().filter_map(|p| p.from).collect();
    // A local variable (or parameter) is stable too, unless an argument assigns one.
    let assigns = all.iter().any(|a| {
        let mut hit = false;
        walk(*a, &mut |k| hit |= matches!(k.kind(), kind::ASSIGNMENT_EXPRESSION | kind::UPDATE_EXPRESSION));
        hit
    });
    let stable = |n: Node| {
        literal(n)
            || (!assigns
                && n.kind() == kind::IDENTIFIER
                && crate::locals::declaration_of(n, text(n, src), src.as_bytes()).is_some())
    };
    let swapped = kept.iter().enumerate().any(|(x, &a)| {
        kept[x + 1..]
            .iter()
            .any(|&b| a > b && ((impure(all[a]) && !stable(all[b])) || (impure(all[b]) && !stable(all[a]))))
    });
    if reordered && swapped {
        out.conflicts.push(format!(
            "{here}: the arguments would be evaluated in another order, and one has side effects: {}",
            text(args, src)
        ));
    }
    out.lists.push(List { start: args.start_byte(), end: args.end_byte(), sep: separator(&all, src), items });
    Ok(out)
}

enum Piece<'a> {
    Edit(&'a TextEdit),
    List(&'a List),
}

impl Piece<'_> {
    fn range(&self) -> (usize, usize) {
        match self {
            Piece::Edit(e) => (e.start, e.end),
            Piece::List(l) => (l.start, l.end),
        }
    }
}

/// The file's edits from plain edits and rearranged lists: each outermost one becomes one
/// edit, with what lies inside its kept items applied to them. Partial overlaps are refused.
pub fn compose(src: &str, mut edits: Vec<TextEdit>, mut lists: Vec<List>) -> Result<Vec<TextEdit>, String> {
    edits.sort_by_key(|e| (e.start, e.end));
    edits.dedup();
    lists.sort_by_key(|l| (l.start, std::cmp::Reverse(l.end)));
    lists.dedup();
    let mut pieces: Vec<Piece> = edits.iter().map(Piece::Edit).chain(lists.iter().map(Piece::List)).collect();
    // Outer first: by start, the longer first; a list before an edit of the same range.
    pieces.sort_by_key(|p| {
        let (s, e) = p.range();
        (s, std::cmp::Reverse(e), matches!(p, Piece::Edit(_)))
    });
    let mut out = Vec::new();
    let mut i = 0;
    while i < pieces.len() {
        let (s, e) = pieces[i].range();
        let (text, next) = render(src, &pieces, i)?;
        out.push(TextEdit { start: s, end: e, text });
        i = next;
    }
    Ok(out)
}

/// Renders piece `i` with the pieces nested in it; returns its text and the index after them.
fn render(src: &str, pieces: &[Piece], i: usize) -> Result<(String, usize), String> {
    let (s, e) = pieces[i].range();
    let mut j = i + 1;
    while j < pieces.len() && pieces[j].range().0 < e {
        let (s2, e2) = pieces[j].range();
        if e2 > e || (s2 == s && e2 == e && matches!(pieces[i], Piece::Edit(_))) {
            return Err(format!("two edits overlap at byte {s2}"));
        }
        j += 1;
    }
    match pieces[i] {
        Piece::Edit(t) => {
            if j > i + 1 {
                return Err(format!("two edits overlap at byte {}", pieces[i + 1].range().0));
            }
            Ok((t.text.clone(), j))
        }
        Piece::List(l) => {
            let inner = &pieces[i + 1..j];
            let mut parts = Vec::new();
            for it in &l.items {
                match it {
                    Item::New(t) => parts.push(t.clone()),
                    Item::Orig(a, b) => parts.push(region(src, inner, *a, *b)?),
                }
            }
            // Pieces inside the list but outside every kept item are dropped with it (a removed
            // argument's own edits).
            Ok((format!("({})", parts.join(&l.sep)), j))
        }
    }
}

/// The text of `a..b` with the pieces inside it applied.
fn region(src: &str, pieces: &[Piece], a: usize, b: usize) -> Result<String, String> {
    let mut out = String::new();
    let mut at = a;
    let mut k = 0;
    while k < pieces.len() {
        let (s, e) = pieces[k].range();
        if s < a || e > b {
            if s < b && e > a && !(s <= a && e >= b) {
                return Err(format!("two edits overlap at byte {s}"));
            }
            k += 1;
            continue;
        }
        let (t, next) = render(src, pieces, k)?;
        out.push_str(&src[at..s]);
        out.push_str(&t);
        at = e;
        // `render` stops at the first piece starting at or after its end; the slice is ours.
        k = next;
    }
    out.push_str(&src[at..b]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn doc(s: &str) -> Doc {
        Doc::new(Path::new("A.java"), "A.java", s.as_bytes().to_vec()).expect("utf8")
    }

    fn apply(d: &Doc, site: Site) -> String {
        let mut edits = compose(d.text(), site.edits, site.lists).expect("composes");
        edits.sort_by_key(|e| std::cmp::Reverse(e.start));
        let mut s = d.text().to_owned();
        for e in edits {
            s.replace_range(e.start..e.end, &e.text);
        }
        s
    }

    fn change(params: Vec<NewParam>) -> Change {
        Change { old_name: "m".into(), new_name: "m".into(), old_params: vec!["a".into(), "b".into()], params }
    }

    fn keep(i: usize, name: &str) -> NewParam {
        NewParam { from: Some(i), name: name.into(), ..Default::default() }
    }

    const SRC: &str = "class A {\n    /**\n     * Sums.\n     * @param a the first\n     *     still a\n     * @param b the second\n     */\n    int m(int a, String b) { return a + m(1, \"x\"); }\n}\n";

    #[test]
    fn a_declaration_reorders_renames_adds_and_keeps_javadoc_in_step() {
        let d = doc(SRC);
        let at = declaration_name_at(&d, 8, "m").expect("decl");
        let c = change(vec![
            keep(1, "b"),
            keep(0, "first"),
            NewParam { from: None, name: "c".into(), ty: "long".into(), default_value: "0L".into() },
        ]);
        let out = apply(&d, declaration(&d, at, &c, true).expect("edits"));
        assert!(out.contains("int m(String b, int first, long c) { return first + m(1, \"x\"); }"), "{out}");
        assert!(
            out.contains("* @param first the first\n     *     still a\n     * @param b the second\n     * @param c\n"),
            "{out}"
        );
        let call = d.text().find("m(1").expect("call");
        let s = site(&d, call, &c, &[]).expect("site");
        assert!(s.conflicts.is_empty());
        assert!(apply(&d, s).contains("m(\"x\", 1, 0L)"));
    }

    #[test]
    fn a_used_parameter_is_not_removed_and_a_new_name_must_be_free() {
        let d = doc(SRC);
        let at = declaration_name_at(&d, 8, "m").expect("decl");
        let e = declaration(&d, at, &change(vec![keep(1, "b")]), true).expect_err("used");
        assert!(e.contains("`a` is used at A.java:8"), "{e}");
        let ok = apply(&d, declaration(&d, at, &change(vec![keep(0, "a")]), true).expect("b unused"));
        assert!(ok.contains("int m(int a) {") && !ok.contains("@param b"), "{ok}");
        let add = NewParam { from: None, name: "a".into(), ty: "int".into(), default_value: "1".into() };
        let e = declaration(&d, at, &change(vec![keep(1, "b"), add]), true).expect_err("taken");
        assert!(e.contains("`a` is used at"), "{e}");
        let e = declaration(&d, at, &change(vec![keep(0, "a"), NewParam { ty: "int".into(), ..keep(1, "b") }]), true)
            .expect_err("type");
        assert!(e.contains("changing a kept parameter's type"), "{e}");
    }

    #[test]
    fn a_call_with_side_effects_reordered_is_a_conflict_and_a_reference_is_refused() {
        let d = doc(
            "class A { int x; void m(int a, int b) {} void n() { m(f(), x); m(f(), 2); Runnable r = this::m; } int f() { return 1; } }",
        );
        let c = change(vec![keep(1, "b"), keep(0, "a")]);
        let s = site(&d, d.text().find("m(f").expect("call"), &c, &[]).expect("site");
        assert!(s.conflicts[0].contains("another order"), "{:?}", s.conflicts);
        // A literal is not affected by the call's side effects.
        let s = site(&d, d.text().find("m(f(), 2").expect("call"), &c, &[]).expect("site");
        assert!(s.conflicts.is_empty(), "{:?}", s.conflicts);
        let e = site(&d, d.text().find("m;").expect("ref"), &c, &[]).expect_err("ref");
        assert!(e.contains("method reference `this::m`"), "{e}");
        let e = site(
            &d,
            d.text().find("m(f").expect("call"),
            &change(vec![
                keep(0, "a"),
                keep(1, "b"),
                NewParam { from: None, name: "c".into(), ty: "int".into(), ..Default::default() },
            ]),
            &[],
        )
        .expect_err("default");
        assert!(e.contains("no defaultValue"), "{e}");
    }
}

#[cfg(test)]
mod compose_tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn nested_calls_and_renamed_arguments_compose() {
        let src = "class A {\n    int m(int a, int b) { return m(m(a, 1), b); }\n}\n";
        let d = Doc::new(Path::new("A.java"), "A.java", src.as_bytes().to_vec()).expect("utf8");
        let c = Change {
            old_name: "m".into(),
            new_name: "sum".into(),
            old_params: vec!["a".into(), "b".into()],
            params: vec![
                NewParam { from: Some(1), name: "b".into(), ..Default::default() },
                NewParam { from: Some(0), name: "x".into(), ..Default::default() },
            ],
        };
        let mut all = declaration(&d, src.find("m(int").expect("decl"), &c, true).expect("decl");
        for (i, _) in src.match_indices("m(m").chain(src.match_indices("m(a")) {
            let s = site(&d, i, &c, &[]).expect("site");
            all.edits.extend(s.edits);
            all.lists.extend(s.lists);
        }
        let mut edits = compose(src, all.edits, all.lists).expect("composes");
        edits.sort_by_key(|e| std::cmp::Reverse(e.start));
        let mut out = src.to_owned();
        for e in edits {
            out.replace_range(e.start..e.end, &e.text);
        }
        assert_eq!(out, "class A {\n    int sum(int b, int x) { return sum(b, sum(1, x)); }\n}\n");
    }
}
