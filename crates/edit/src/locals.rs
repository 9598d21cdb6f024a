//! Renaming a local variable or parameter: found from the syntax alone (its declaration is in
//! the same method, and Java forbids a local from shadowing another in one method), so every
//! use in its scope is exact. Uses inside a local or anonymous class that declares the same
//! name are that class's own and are left alone.

use mji_parser::kind;
use tree_sitter::Node;

use crate::syntax::walk;
use crate::{Doc, TextEdit};

/// A local rename's edits and what it would break.
#[derive(Debug, Default)]
pub struct LocalRename {
    /// `local variable` or `parameter`, and its name.
    pub what: String,
    pub old: String,
    pub edits: Vec<TextEdit>,
    pub conflicts: Vec<String>,
}

const SCOPES: &[&str] = &[
    kind::BLOCK,
    kind::METHOD_DECLARATION,
    kind::CONSTRUCTOR_DECLARATION,
    kind::COMPACT_CONSTRUCTOR_DECLARATION,
    kind::LAMBDA_EXPRESSION,
    kind::FOR_STATEMENT,
    kind::ENHANCED_FOR_STATEMENT,
    kind::CATCH_CLAUSE,
    kind::TRY_WITH_RESOURCES_STATEMENT,
    kind::SWITCH_BLOCK_STATEMENT_GROUP,
    kind::SWITCH_RULE,
];

/// The local variable or parameter named at byte `at` (its declaration or a use), renamed to
/// `new`; `None` when the name there is not a local or parameter.
pub fn rename_local(doc: &Doc, at: usize, new: &str) -> Option<LocalRename> {
    let text = doc.text();
    let bytes = text.as_bytes();
    let tree = mji_parser::parse_tree(text)?;
    let ident = tree.root_node().descendant_for_byte_range(at, at)?;
    if ident.kind() != kind::IDENTIFIER {
        return None;
    }
    let old = ident.utf8_text(bytes).ok()?.to_owned();
    if is_member_name(ident) {
        return None;
    }
    let (decl, scope, what) = declaration_of(ident, &old, bytes)?;
    let mut out = LocalRename { what: what.into(), old: old.clone(), ..Default::default() };
    // Every use in the scope from the declaration on, outside classes that redeclare it.
    let mut uses: Vec<Node> = Vec::new();
    let mut captured: Vec<u32> = Vec::new();
    collect(scope, &old, new, decl.start_byte(), bytes, &mut uses, &mut captured);
    for n in &uses {
        out.edits.push(TextEdit { start: n.start_byte(), end: n.end_byte(), text: new.to_owned() });
    }
    // A parameter's `@param old` in the method's javadoc.
    if what == "parameter"
        && let Some(method) = scope_method(scope)
        && let Some(doc_comment) = method.prev_sibling().filter(|c| c.kind() == kind::BLOCK_COMMENT)
    {
        let c = doc_comment.utf8_text(bytes).unwrap_or("");
        for (i, _) in c.match_indices(&format!("@param {old}")) {
            let s = doc_comment.start_byte() + i + "@param ".len();
            let after = text[s + old.len()..].chars().next();
            if !after.is_some_and(|ch| ch.is_alphanumeric() || ch == '_' || ch == '$') {
                out.edits.push(TextEdit { start: s, end: s + old.len(), text: new.to_owned() });
            }
        }
    }
    for line in captured {
        out.conflicts.push(format!(
            "{}:{line}: `{new}` already names something used there (a field or another variable); renaming would change what it refers to",
            doc.display
        ));
    }
    // Another local or parameter of the new name in the same method.
    if let Some(method) = scope_method(scope) {
        walk(method, &mut |n| {
            if declares_variable(n.kind())
                && let Some(name) = n.child_by_field_name("name")
                && name.utf8_text(bytes).ok() == Some(new)
            {
                out.conflicts.push(format!(
                    "{}:{}: a variable `{new}` is already declared in this method",
                    doc.display,
                    name.start_position().row + 1
                ));
            }
        });
    }
    out.conflicts.sort();
    out.conflicts.dedup();
    Some(out)
}

fn declares_variable(kind: &str) -> bool {
    matches!(
        kind,
        kind::VARIABLE_DECLARATOR
            | kind::FORMAL_PARAMETER
            | kind::SPREAD_PARAMETER
            | kind::CATCH_FORMAL_PARAMETER
            | kind::RESOURCE
    )
}

/// A name that is not a variable: `x.name`, `name(…)`, a declaration's name of a member.
pub(crate) fn is_member_name(n: Node) -> bool {
    let Some(p) = n.parent() else { return false };
    match p.kind() {
        kind::FIELD_ACCESS => p.child_by_field_name("field") == Some(n),
        kind::METHOD_INVOCATION => p.child_by_field_name("name") == Some(n),
        kind::METHOD_DECLARATION
        | kind::CLASS_DECLARATION
        | kind::ENUM_CONSTANT
        | kind::METHOD_REFERENCE
        | kind::LABELED_STATEMENT
        | kind::BREAK_STATEMENT
        | kind::CONTINUE_STATEMENT => true,
        kind::VARIABLE_DECLARATOR => {
            p.parent().is_some_and(|d| d.kind() == kind::FIELD_DECLARATION || d.kind() == kind::CONSTANT_DECLARATION)
        }
        _ => false,
    }
}

/// The declaration of the local named `old` visible at `ident`, its scope, and what it is.
pub(crate) fn declaration_of<'t>(
    ident: Node<'t>,
    old: &str,
    bytes: &[u8],
) -> Option<(Node<'t>, Node<'t>, &'static str)> {
    let mut node = ident;
    let mut depth = 0;
    while let Some(p) = node.parent() {
        depth += 1;
        if depth > 10_000
            || matches!(p.kind(), kind::CLASS_BODY | kind::INTERFACE_BODY | kind::ENUM_BODY | kind::PROGRAM)
        {
            return None;
        }
        node = p;
        if !SCOPES.contains(&p.kind()) {
            continue;
        }
        let mut found = None;
        let mut c = p.walk();
        for child in p.named_children(&mut c) {
            // Parameters, a for's init, a resource: the children that declare into this scope.
            let decls: Vec<Node> = match child.kind() {
                kind::LOCAL_VARIABLE_DECLARATION if child.start_byte() <= ident.start_byte() => {
                    let mut c2 = child.walk();
                    child.named_children(&mut c2).filter(|d| d.kind() == kind::VARIABLE_DECLARATOR).collect()
                }
                kind::FORMAL_PARAMETERS | kind::INFERRED_PARAMETERS | kind::RESOURCE_SPECIFICATION => {
                    let mut c2 = child.walk();
                    child.named_children(&mut c2).collect()
                }
                kind::CATCH_FORMAL_PARAMETER | kind::FORMAL_PARAMETER => vec![child],
                kind::SPREAD_PARAMETER => spread_declarator(child).into_iter().collect(),
                kind::IDENTIFIER
                    if p.kind() == kind::LAMBDA_EXPRESSION && p.child_by_field_name("parameters") == Some(child) =>
                {
                    vec![child]
                }
                _ => Vec::new(),
            };
            for d in decls {
                // `T... xs` declares through its declarator.
                let d = if d.kind() == kind::SPREAD_PARAMETER { spread_declarator(d).unwrap_or(d) } else { d };
                let name = if d.kind() == kind::IDENTIFIER { Some(d) } else { d.child_by_field_name("name") };
                if let Some(name) = name
                    && name.utf8_text(bytes).ok() == Some(old)
                {
                    found = Some(name);
                }
            }
        }
        // `for (T x : xs)`: the loop variable.
        if p.kind() == kind::ENHANCED_FOR_STATEMENT
            && let Some(name) = p.child_by_field_name("name")
            && name.utf8_text(bytes).ok() == Some(old)
        {
            found = Some(name);
        }
        if let Some(name) = found {
            let holder = name
                .parent()
                .filter(|d| d.kind() != kind::VARIABLE_DECLARATOR)
                .or_else(|| name.parent().and_then(|d| d.parent()).filter(|h| h.kind() == kind::SPREAD_PARAMETER));
            let what = if matches!(
                holder.map(|x| x.kind()),
                Some(
                    kind::FORMAL_PARAMETER
                        | kind::SPREAD_PARAMETER
                        | kind::CATCH_FORMAL_PARAMETER
                        | kind::INFERRED_PARAMETERS
                        | kind::LAMBDA_EXPRESSION
                )
            ) {
                "parameter"
            } else {
                "local variable"
            };
            return Some((name, p, what));
        }
    }
    None
}

/// A varargs parameter's `variable_declarator` (which holds its name).
fn spread_declarator(p: Node) -> Option<Node> {
    let mut c = p.walk();
    p.named_children(&mut c).find(|x| x.kind() == kind::VARIABLE_DECLARATOR)
}

/// Whether `n`, below `top`, is inside a lambda or a class body (an anonymous or local
/// class): code whose jumps, returns, exceptions and captures are its own.
pub(crate) fn in_nested_code(n: Node, top: Node) -> bool {
    let mut x = n;
    while x != top {
        if matches!(x.kind(), kind::LAMBDA_EXPRESSION | kind::CLASS_BODY) {
            return true;
        }
        match x.parent() {
            Some(p) => x = p,
            None => return false,
        }
    }
    false
}

/// Whether the name at `n` is assigned (`n = …`, `n += …`) or incremented.
pub(crate) fn is_written(n: Node) -> bool {
    n.parent().is_some_and(|p| {
        (p.kind() == kind::ASSIGNMENT_EXPRESSION && p.child_by_field_name("left") == Some(n))
            || p.kind() == kind::UPDATE_EXPRESSION
    })
}

/// Expression kinds that may have a side effect.
pub(crate) const SIDE_EFFECTS: &[&str] = &[
    kind::METHOD_INVOCATION,
    kind::OBJECT_CREATION_EXPRESSION,
    kind::ARRAY_CREATION_EXPRESSION,
    kind::ASSIGNMENT_EXPRESSION,
    kind::UPDATE_EXPRESSION,
];

/// The method, constructor or lambda a scope is in (itself included).
fn scope_method(scope: Node) -> Option<Node> {
    let mut n = Some(scope);
    while let Some(x) = n {
        if matches!(
            x.kind(),
            kind::METHOD_DECLARATION | kind::CONSTRUCTOR_DECLARATION | kind::COMPACT_CONSTRUCTOR_DECLARATION
        ) {
            return Some(x);
        }
        if matches!(x.kind(), kind::CLASS_BODY | kind::PROGRAM) {
            return None;
        }
        n = x.parent();
    }
    None
}

/// The uses of `old` in `scope` from `from` on; lines where `new` is already used unqualified.
pub(crate) fn collect<'t>(
    scope: Node<'t>,
    old: &str,
    new: &str,
    from: usize,
    bytes: &[u8],
    uses: &mut Vec<Node<'t>>,
    captured: &mut Vec<u32>,
) {
    let mut stack = vec![scope];
    while let Some(n) = stack.pop() {
        if n.kind() == kind::CLASS_BODY && redeclares(n, old, bytes) {
            continue;
        }
        if n.kind() == kind::IDENTIFIER && n.start_byte() >= from && !is_member_name(n) {
            match n.utf8_text(bytes).ok() {
                Some(t) if t == old => uses.push(n),
                Some(t) if t == new => captured.push(n.start_position().row as u32 + 1),
                _ => {}
            }
        }
        let mut c = n.walk();
        for child in n.children(&mut c) {
            stack.push(child);
        }
    }
    uses.sort_by_key(|n| n.start_byte());
}

/// Whether a class body declares a field, parameter or local named `old` (its uses are then
/// its own).
fn redeclares(body: Node, old: &str, bytes: &[u8]) -> bool {
    let mut found = false;
    walk(body, &mut |n| {
        if !found
            && declares_variable(n.kind())
            && n.child_by_field_name("name").and_then(|x| x.utf8_text(bytes).ok()) == Some(old)
        {
            found = true;
        }
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn rename(src: &str, marker: &str, new: &str) -> Option<(String, Vec<String>)> {
        let doc = Doc::new(Path::new("/x/A.java"), "A.java", src.as_bytes().to_vec()).expect("utf-8");
        let at = src.find(marker).expect("marker");
        let r = rename_local(&doc, at, new)?;
        let mut e = crate::WorkspaceEdit::default();
        let mut f = doc.edit();
        f.edits = r.edits;
        e.add(f);
        let plan = e.plan().expect("plan");
        Some((String::from_utf8(plan.files[0].new.clone()).expect("utf8"), r.conflicts))
    }

    #[test]
    fn renames_a_local_and_its_uses_only() {
        let src = "class A {\n  int n;\n  /** @param n the count */\n  int f(int n) {\n    int total = n + this.n;\n    Runnable r = new Runnable() { int n = 3; public void run() { n++; } };\n    for (int i = 0; i < n; i++) total += i;\n    return total + n(1);\n  }\n  int n(int x) { return x; }\n}\n";
        // The parameter, from a use.
        let (text, conflicts) = rename(src, "n + this", "count").expect("a parameter");
        assert!(conflicts.is_empty(), "{conflicts:?}");
        assert!(text.contains("@param count the count"), "{text}");
        assert!(text.contains("int f(int count) {"), "{text}");
        assert!(text.contains("int total = count + this.n;"), "{text}");
        assert!(text.contains("{ int n = 3; public void run() { n++; } }"), "{text}");
        assert!(text.contains("i < count;") && text.contains("total + n(1)"), "{text}");
        // A local from its declaration; the new name is taken by another local.
        let (_, conflicts) = rename(src, "total = n", "i").expect("a local");
        assert!(conflicts.iter().any(|c| c.contains("already declared")), "{conflicts:?}");
        // A field is not a local.
        assert!(rename(src, "n;\n  /**", "m").is_none());
    }

    #[test]
    fn a_varargs_parameter_is_a_parameter() {
        let src = "class A {\n  /** @param xs the values */\n  int f(int... xs) {\n    return xs.length;\n  }\n}\n";
        let (text, conflicts) = rename(src, "xs.length", "values").expect("a varargs parameter");
        assert!(conflicts.is_empty(), "{conflicts:?}");
        assert!(text.contains("@param values the values"), "{text}");
        assert!(text.contains("int f(int... values) {\n    return values.length;"), "{text}");
    }

    #[test]
    fn lambda_and_catch_parameters_and_captures() {
        let src = "class A {\n  int size;\n  void f(java.util.List<String> xs) {\n    xs.forEach(s -> System.out.println(s + size));\n    try { g(); } catch (RuntimeException e) { throw e; }\n  }\n  void g() {}\n}\n";
        let (text, conflicts) = rename(src, "s -> ", "item").expect("lambda parameter");
        assert!(text.contains("item -> System.out.println(item + size)"), "{text}");
        assert!(conflicts.is_empty());
        let (text, _) = rename(src, "e) {", "ex").expect("catch parameter");
        assert!(text.contains("catch (RuntimeException ex) { throw ex; }"), "{text}");
        // `size` is used in the lambda: renaming `s` to it would capture the field.
        let (_, conflicts) = rename(src, "s -> ", "size").expect("lambda parameter");
        assert!(conflicts.iter().any(|c| c.contains("already names something")), "{conflicts:?}");
    }
}
