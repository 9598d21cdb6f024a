//! Inline a method, from the syntax: a body that is one `return expr;` (any call site), or a
//! statement list without `return` (a call that is a whole statement), takes the place of a
//! call, its parameters replaced by the arguments. An argument that is not a literal, `this`
//! or a local variable, and is used other than once or could be reordered against the body's
//! side effects, is evaluated first into a local (the call must then be where a statement can
//! go before it). Refused, with the reason, where the result could mean something else: a
//! recursive or generic method, varargs, a body that names the declaring class's members
//! inlined outside it or on another object, a name the body declares that the call site
//! already uses, types the call site's file does not see by the same name.

use mji_parser::kind;
use tree_sitter::Node;

use crate::locals::{SIDE_EFFECTS, declaration_of, in_nested_code, is_member_name, is_written};
use crate::syntax::{indent_before, walk};
use crate::{Doc, TextEdit};

/// A method's declaration read for inlining.
#[derive(Debug, Clone)]
pub struct Method {
    pub name: String,
    /// The line of its name.
    pub name_line: u32,
    /// (type, name) of each parameter.
    pub params: Vec<(String, String)>,
    pub ret: String,
    /// `return expr;`: the expression's bytes; `None` for a statement list.
    pub expr: Option<(usize, usize)>,
    /// The statements' bytes (statement form).
    stmts: Vec<(usize, usize)>,
    stmt_indent: String,
    /// Each use of a parameter in the body: (start, end, parameter index).
    uses: Vec<(usize, usize, usize)>,
    written: Vec<bool>,
    captured: Vec<bool>,
    /// The body has side effects (a call, `new`, an assignment).
    effects: bool,
    /// The body names members of its class unqualified, or `this`/`super`.
    pub uses_members: bool,
    pub is_static: bool,
    /// Names the body declares (locals, lambda parameters).
    declared: Vec<String>,
    /// The locals its top-level statements declare: in scope after an inlined statement list.
    top_declared: Vec<String>,
    /// Simple type names the body and signature use.
    pub type_names: Vec<String>,
    /// The class body the method is in (byte range).
    pub class_body: (usize, usize),
    /// Fields the body names unqualified (a local of the name at the call would take them).
    member_names: Vec<String>,
}

const LITERALS: &[&str] = &[
    kind::DECIMAL_INTEGER_LITERAL,
    kind::HEX_INTEGER_LITERAL,
    kind::OCTAL_INTEGER_LITERAL,
    kind::BINARY_INTEGER_LITERAL,
    kind::DECIMAL_FLOATING_POINT_LITERAL,
    kind::HEX_FLOATING_POINT_LITERAL,
    kind::TRUE,
    kind::FALSE,
    kind::CHARACTER_LITERAL,
    kind::STRING_LITERAL,
    kind::NULL_LITERAL,
    kind::CLASS_LITERAL,
];

/// Statement kinds that are valid as `expr;`.
const STATEMENT_EXPRESSIONS: &[&str] =
    &[kind::METHOD_INVOCATION, kind::OBJECT_CREATION_EXPRESSION, kind::ASSIGNMENT_EXPRESSION, kind::UPDATE_EXPRESSION];

fn has_effects(n: Node) -> bool {
    let mut e = false;
    walk(n, &mut |x| e |= SIDE_EFFECTS.contains(&x.kind()));
    e
}

/// Reads the method named `name` declared on `line` (its name's, or an annotation's or its
/// javadoc's above).
pub fn method_at(doc: &Doc, name: &str, line: u32) -> Result<Method, String> {
    let text = doc.text();
    let bytes = text.as_bytes();
    let tree = mji_parser::parse_tree(text).ok_or("the file could not be parsed")?;
    let mut found = None;
    walk(tree.root_node(), &mut |n| {
        if found.is_none()
            && n.kind() == kind::METHOD_DECLARATION
            && let Some(nm) = n.child_by_field_name("name")
            && declared_on(n, nm, line)
            && nm.utf8_text(bytes).ok() == Some(name)
        {
            found = Some(n);
        }
    });
    let m = found.ok_or_else(|| format!("no method `{name}` is declared at line {line}"))?;
    let body = m.child_by_field_name("body").ok_or("it has no body")?;
    if m.child_by_field_name("type_parameters").is_some() {
        return Err("it is generic (its type arguments are inferred at each call)".into());
    }
    let mods = {
        let mut c = m.walk();
        m.named_children(&mut c)
            .find(|x| x.kind() == kind::MODIFIERS)
            .and_then(|x| x.utf8_text(bytes).ok())
            .unwrap_or("")
            .to_owned()
    };
    if mods.split_whitespace().any(|w| w == "synchronized") {
        return Err("it is synchronized".into());
    }
    let is_static = mods.split_whitespace().any(|w| w == "static");
    let ret = m.child_by_field_name("type").and_then(|t| t.utf8_text(bytes).ok()).unwrap_or("void").to_owned();
    if m.child_by_field_name("dimensions").is_some() {
        return Err("its return type has dimensions after the parameters".into());
    }
    let mut params = Vec::new();
    let mut param_nodes = Vec::new();
    if let Some(ps) = m.child_by_field_name("parameters") {
        let mut c = ps.walk();
        for p in ps.named_children(&mut c) {
            match p.kind() {
                kind::FORMAL_PARAMETER => {
                    let ty = p.child_by_field_name("type").and_then(|t| t.utf8_text(bytes).ok()).unwrap_or("");
                    let nm = p.child_by_field_name("name").ok_or("a parameter has no name")?;
                    let dims = p.child_by_field_name("dimensions").and_then(|d| d.utf8_text(bytes).ok()).unwrap_or("");
                    params.push((format!("{ty}{dims}"), nm.utf8_text(bytes).unwrap_or("").to_owned()));
                    param_nodes.push(nm);
                }
                kind::SPREAD_PARAMETER => return Err("it takes varargs".into()),
                kind::RECEIVER_PARAMETER => {}
                _ => {}
            }
        }
    }
    let mut c = body.walk();
    let stmts: Vec<Node> =
        body.named_children(&mut c).filter(|s| !matches!(s.kind(), kind::LINE_COMMENT | kind::BLOCK_COMMENT)).collect();
    // The body's form.
    let mut returns = 0;
    walk(body, &mut |n| {
        if n.kind() == kind::RETURN_STATEMENT && !in_nested_code(n, body) {
            returns += 1;
        }
    });
    let expr = match stmts.as_slice() {
        [s] if s.kind() == kind::RETURN_STATEMENT => {
            let e = s.named_child(0).ok_or("it returns nothing")?;
            Some((e.start_byte(), e.end_byte()))
        }
        _ if returns == 0 && ret == "void" && !stmts.is_empty() => None,
        [] => return Err("its body is empty".into()),
        _ => {
            return Err("its body is neither a single `return expr;` nor a statement list without `return`".into());
        }
    };
    let class_name = m
        .parent()
        .and_then(|b| b.parent())
        .and_then(|c| c.child_by_field_name("name"))
        .and_then(|x| x.utf8_text(bytes).ok())
        .unwrap_or("");
    let mut uses = Vec::new();
    let mut written = vec![false; params.len()];
    let mut captured = vec![false; params.len()];
    let mut uses_members = false;
    let mut declared = Vec::new();
    let mut type_names = Vec::new();
    let mut recursive: Option<&str> = None;
    let mut member_names = Vec::new();
    let mut why: Option<String> = None;
    for t in params.iter().map(|p| p.0.as_str()).chain([ret.as_str()]) {
        type_names.extend(words(t).filter(|w| w.starts_with(char::is_uppercase)).map(str::to_owned));
    }
    walk(body, &mut |n| {
        match n.kind() {
            kind::THIS | kind::SUPER => uses_members = true,
            kind::METHOD_INVOCATION => {
                // A call of the name, unless on another class (`Math.abs` in `abs`) or with
                // another number of arguments (an overload).
                let object = n.child_by_field_name("object");
                let n_args = n.child_by_field_name("arguments").map_or(0, |a| a.named_child_count());
                if n.child_by_field_name("name").and_then(|x| x.utf8_text(bytes).ok()) == Some(name)
                    && n_args == param_nodes.len()
                {
                    let own = object.is_none_or(|o| {
                        o.kind() == kind::THIS
                            || (o.kind() == kind::IDENTIFIER && o.utf8_text(bytes).ok() == Some(class_name))
                    });
                    let other_class = object.is_some_and(|o| {
                        o.kind() == kind::IDENTIFIER
                            && o.utf8_text(bytes).is_ok_and(|t| t.starts_with(char::is_uppercase) && t != class_name)
                    });
                    if own {
                        recursive = Some("it is recursive");
                    } else if !other_class {
                        recursive.get_or_insert("it calls a method of its name and arity on an object that may be of its class (it may be recursive)");
                    }
                }
                if n.child_by_field_name("object").is_none() {
                    uses_members = true;
                }
            }
            kind::TYPE_IDENTIFIER => {
                if let Ok(t) = n.utf8_text(bytes) {
                    type_names.push(t.to_owned());
                }
            }
            kind::CLASS_BODY => why = Some("its body declares a class".into()),
            // `Foo::bar` is fine; `this::bar`, `super::bar` need the class.
            kind::METHOD_REFERENCE
                if n.named_child(0).is_some_and(|x| matches!(x.kind(), kind::THIS | kind::SUPER)) =>
            {
                uses_members = true;
            }
            _ => {}
        }
        if n.kind() != kind::IDENTIFIER || is_member_name(n) {
            return;
        }
        let Ok(t) = n.utf8_text(bytes) else { return };
        if let Some(p) = n.parent()
            && (p.child_by_field_name("name") == Some(n) && p.kind() != kind::FIELD_ACCESS
                || p.kind() == kind::INFERRED_PARAMETERS
                || (p.kind() == kind::LAMBDA_EXPRESSION && p.child_by_field_name("parameters") == Some(n)))
        {
            declared.push(t.to_owned());
            return;
        }
        match declaration_of(n, t, bytes) {
            Some((d, _, _)) => {
                if let Some(i) = param_nodes.iter().position(|p| *p == d) {
                    uses.push((n.start_byte(), n.end_byte(), i));
                    // Captured by a lambda or class: the argument goes through a local, which
                    // is effectively final where the caller's variable may not be.
                    if in_nested_code(n, body) {
                        captured[i] = true;
                    }
                    if is_written(n) {
                        written[i] = true;
                    }
                }
            }
            None => {
                // A type name qualifies something; any other name is a member of the class.
                let qualifier = n.parent().is_some_and(|p| {
                    matches!(p.kind(), kind::FIELD_ACCESS | kind::METHOD_INVOCATION | kind::METHOD_REFERENCE)
                        && p.child_by_field_name("object").or_else(|| p.named_child(0)) == Some(n)
                });
                if qualifier && t.starts_with(char::is_uppercase) {
                    type_names.push(t.to_owned());
                } else {
                    uses_members = true;
                    member_names.push(t.to_owned());
                }
            }
        }
    });
    if let Some(r) = recursive {
        return Err(r.into());
    }
    if let Some(w) = why {
        return Err(w);
    }
    let class_body = m.parent().ok_or("no class")?;
    let stmt_indent = stmts.first().map(|s| indent_before(text, s.start_byte()).to_owned()).unwrap_or_default();
    type_names.sort();
    type_names.dedup();
    Ok(Method {
        name: name.to_owned(),
        name_line: m.child_by_field_name("name").map_or(line, |n| n.start_position().row as u32 + 1),
        params,
        ret,
        expr,
        top_declared: stmts
            .iter()
            .filter(|s| s.kind() == kind::LOCAL_VARIABLE_DECLARATION)
            .flat_map(|s| {
                let mut c = s.walk();
                s.children_by_field_name("declarator", &mut c)
                    .filter_map(|d| d.child_by_field_name("name"))
                    .filter_map(|n| n.utf8_text(bytes).ok().map(str::to_owned))
                    .collect::<Vec<_>>()
            })
            .collect(),
        stmts: stmts.iter().map(|s| (s.start_byte(), s.end_byte())).collect(),
        stmt_indent,
        uses,
        written,
        captured,
        effects: has_effects(body),
        uses_members,
        is_static,
        declared,
        type_names,
        class_body: (class_body.start_byte(), class_body.end_byte()),
        member_names,
    })
}

/// Whether `line` is one of a method's header lines: from its javadoc or annotations to its
/// name (the index gives a declaration's line as either).
fn declared_on(m: Node, name: Node, line: u32) -> bool {
    let doc = m.prev_sibling().filter(|c| c.kind() == kind::BLOCK_COMMENT);
    let first = doc.unwrap_or(m).start_position().row as u32 + 1;
    first <= line && line <= name.start_position().row as u32 + 1
}

fn words(t: &str) -> impl Iterator<Item = &str> {
    t.split(|c: char| !c.is_alphanumeric() && c != '_' && c != '$').filter(|w| !w.is_empty())
}

/// Where a call is, as the caller knows it.
pub struct Site<'a> {
    /// The call's file.
    pub doc: &'a Doc,
    /// A byte offset inside the call's method name.
    pub at: usize,
    /// The call is in the file that declares the method.
    pub same_file: bool,
    /// Whether each of the body's type names means the same type at the call site.
    pub types_visible: bool,
    /// Cast the value to the return type (its type is not exactly the return type).
    pub cast: bool,
    /// The locals earlier inlinings in this file declare, by the start of the member they are
    /// in: several calls in one method must not declare a name twice.
    pub introduced: &'a std::cell::RefCell<Vec<(usize, String)>>,
}

/// The edits inlining one call of `m` (whose declaration's text is `decl_text`).
pub fn inline_call(m: &Method, decl_text: &str, site: &Site) -> Result<Vec<TextEdit>, String> {
    let text = site.doc.text();
    let bytes = text.as_bytes();
    let tree = mji_parser::parse_tree(text).ok_or("the file could not be parsed")?;
    let name = tree.root_node().descendant_for_byte_range(site.at, site.at).ok_or("no code at the call")?;
    let call = name
        .parent()
        .filter(|p| p.kind() == kind::METHOD_INVOCATION && p.child_by_field_name("name") == Some(name))
        .ok_or("not a call of the method (a method reference?)")?;
    let line = call.start_position().row + 1;
    // The receiver.
    let object = call.child_by_field_name("object");
    let own_class = {
        let mut x = call;
        let mut body = None;
        while let Some(p) = x.parent() {
            if matches!(p.kind(), kind::CLASS_BODY | kind::ENUM_BODY | kind::INTERFACE_BODY) {
                body = Some(p);
                break;
            }
            x = p;
        }
        site.same_file && body.is_some_and(|b| (b.start_byte(), b.end_byte()) == m.class_body)
    };
    if call.child_by_field_name("type_arguments").is_some() {
        return Err(format!("line {line}: the call gives type arguments"));
    }
    match object {
        None => {}
        Some(o) if o.kind() == kind::THIS => {}
        Some(o)
            if m.is_static
                && o.kind() == kind::IDENTIFIER
                && o.utf8_text(bytes).is_ok_and(|t| t.starts_with(char::is_uppercase)) => {}
        Some(_) => {
            return Err(format!(
                "line {line}: the call is on another object (its null check and evaluation would be lost)"
            ));
        }
    }
    if m.uses_members && !own_class {
        return Err(format!("line {line}: the body uses its class's members, and the call is outside that class"));
    }
    if !site.same_file && !site.types_visible {
        return Err(format!("line {line}: the body's types are not all visible by the same names in this file"));
    }
    // Names the body declares must not collide with the call site's.
    let mut member = call;
    while let Some(p) = member.parent() {
        member = p;
        if matches!(
            p.kind(),
            kind::METHOD_DECLARATION
                | kind::CONSTRUCTOR_DECLARATION
                | kind::COMPACT_CONSTRUCTOR_DECLARATION
                | kind::STATIC_INITIALIZER
                | kind::CLASS_BODY
        ) {
            break;
        }
    }
    let mut taken: Vec<String> = Vec::new();
    walk(member, &mut |n| {
        if n.kind() == kind::IDENTIFIER
            && !is_member_name(n)
            && let Ok(t) = n.utf8_text(bytes)
        {
            taken.push(t.to_owned());
        }
    });
    let member_at = member.start_byte();
    taken.extend(site.introduced.borrow().iter().filter(|(at, _)| *at == member_at).map(|(_, n)| n.clone()));
    if let Some(d) = m.declared.iter().find(|d| taken.contains(d)) {
        return Err(format!("line {line}: the body declares `{d}`, a name the calling code already uses"));
    }
    if let Some(d) = m.member_names.iter().find(|d| taken.contains(d)) {
        return Err(format!("line {line}: the body uses the field `{d}`, a name the calling code uses for a variable"));
    }
    // Arguments.
    let args_node = call.child_by_field_name("arguments").ok_or("no arguments")?;
    let mut c = args_node.walk();
    let args: Vec<Node> = args_node
        .named_children(&mut c)
        .filter(|a| !matches!(a.kind(), kind::LINE_COMMENT | kind::BLOCK_COMMENT))
        .collect();
    if args.len() != m.params.len() {
        return Err(format!("line {line}: {} arguments for {} parameters", args.len(), m.params.len()));
    }
    let trivial = |a: Node| -> bool {
        LITERALS.contains(&a.kind())
            || a.kind() == kind::THIS
            || (a.kind() == kind::IDENTIFIER && a.utf8_text(bytes).is_ok_and(|t| declaration_of(a, t, bytes).is_some()))
    };
    let mut value: Vec<String> = Vec::new();
    let mut locals: Vec<String> = Vec::new();
    let mut new_locals: Vec<String> = Vec::new();
    let nontrivial = args.iter().filter(|a| !trivial(**a)).count();
    for (i, a) in args.iter().enumerate() {
        let at = &text[a.start_byte()..a.end_byte()];
        let n_uses = m.uses.iter().filter(|u| u.2 == i).count();
        let literal = LITERALS.contains(&a.kind());
        let direct = !m.written[i]
            && (!m.captured[i] || literal)
            && (trivial(*a)
                || (n_uses == 1 && nontrivial == 1 && !has_effects(*a) && !m.effects)
                || (n_uses == 0 && !has_effects(*a)));
        if direct {
            value.push(if trivial(*a) { at.to_owned() } else { format!("({at})") });
        } else {
            let base = m.params[i].1.clone();
            let mut nm = base.clone();
            let mut k = 2;
            while taken.contains(&nm)
                || m.declared.contains(&nm)
                || locals.iter().any(|l| l.contains(&format!(" {nm} =")))
            {
                nm = format!("{base}{k}");
                k += 1;
            }
            if matches!(a.kind(), kind::LAMBDA_EXPRESSION | kind::METHOD_REFERENCE | kind::ARRAY_INITIALIZER) {
                return Err(format!("line {line}: the argument `{at}` needs its parameter's type where it is"));
            }
            locals.push(format!("{} {nm} = {at};", m.params[i].0));
            new_locals.push(nm.clone());
            value.push(nm);
        }
    }
    let substitute = |from: usize, to: usize| -> String {
        let mut out = String::new();
        let mut pos = from;
        for (s, e, i) in m.uses.iter().filter(|u| u.0 >= from && u.1 <= to) {
            out.push_str(&decl_text[pos..*s]);
            out.push_str(&value[*i]);
            pos = *e;
        }
        out.push_str(&decl_text[pos..to]);
        out
    };
    // Where the call stands.
    let parent = call.parent().ok_or("no parent")?;
    let statement_call = parent.kind() == kind::EXPRESSION_STATEMENT;
    let statement = {
        let mut x = call;
        loop {
            let p = x.parent().ok_or("the call is not in a statement")?;
            if matches!(p.kind(), kind::BLOCK | kind::SWITCH_BLOCK_STATEMENT_GROUP | kind::CONSTRUCTOR_BODY) {
                break x;
            }
            if matches!(p.kind(), kind::CLASS_BODY | kind::LAMBDA_EXPRESSION | kind::PROGRAM) {
                break p;
            }
            x = p;
        }
    };
    let in_block = statement
        .parent()
        .is_some_and(|p| matches!(p.kind(), kind::BLOCK | kind::SWITCH_BLOCK_STATEMENT_GROUP | kind::CONSTRUCTOR_BODY));
    let hoistable = in_block
        && match parent.kind() {
            kind::EXPRESSION_STATEMENT | kind::RETURN_STATEMENT => true,
            kind::VARIABLE_DECLARATOR => parent.parent().is_some_and(|d| {
                let mut c = d.walk();
                d.kind() == kind::LOCAL_VARIABLE_DECLARATION
                    && d.children_by_field_name("declarator", &mut c).count() == 1
            }),
            kind::ASSIGNMENT_EXPRESSION => {
                parent.child_by_field_name("right") == Some(call)
                    && parent.child_by_field_name("left").is_some_and(|l| l.kind() == kind::IDENTIFIER)
                    && parent.parent().is_some_and(|s| s.kind() == kind::EXPRESSION_STATEMENT)
            }
            _ => false,
        };
    let eol = site.doc.eol();
    let indent = indent_before(text, statement.start_byte()).to_owned();
    let mut edits = Vec::new();
    match m.expr {
        Some((s, e)) => {
            let expr_text = substitute(s, e);
            let expr_node = mji_parser::parse_tree(decl_text)
                .and_then(|t| t.root_node().descendant_for_byte_range(s, e).map(|n| n.kind().to_owned()));
            let primary = expr_node.as_deref().is_some_and(|k| {
                LITERALS.contains(&k)
                    || matches!(
                        k,
                        kind::IDENTIFIER
                            | kind::METHOD_INVOCATION
                            | kind::FIELD_ACCESS
                            | kind::ARRAY_ACCESS
                            | kind::PARENTHESIZED_EXPRESSION
                            | kind::OBJECT_CREATION_EXPRESSION
                    )
            });
            let replacement = if statement_call {
                if !expr_node.as_deref().is_some_and(|k| STATEMENT_EXPRESSIONS.contains(&k)) {
                    return Err(format!(
                        "line {line}: the call's value is dropped and the body's expression is not a statement"
                    ));
                }
                expr_text
            } else if site.cast {
                format!("(({}) {})", m.ret, if primary { expr_text } else { format!("({expr_text})") })
            } else if primary || stands_alone(call) {
                expr_text
            } else {
                format!("({expr_text})")
            };
            edits.push(TextEdit { start: call.start_byte(), end: call.end_byte(), text: replacement });
        }
        None => {
            if !statement_call || !in_block {
                return Err(format!(
                    "line {line}: the body is statements, and the call is not a whole statement of a block"
                ));
            }
            let mut lines: Vec<String> = Vec::new();
            for (s, e) in &m.stmts {
                let t = substitute(*s, *e);
                for (j, l) in t.split('\n').enumerate() {
                    let l = l.strip_suffix('\r').unwrap_or(l);
                    let l = if j == 0 { l } else { l.strip_prefix(m.stmt_indent.as_str()).unwrap_or(l) };
                    lines.push(if lines.is_empty() || l.is_empty() { l.to_owned() } else { format!("{indent}{l}") });
                }
            }
            let body = lines.join(eol);
            edits.push(TextEdit { start: parent.start_byte(), end: parent.end_byte(), text: body });
            new_locals.extend(m.top_declared.iter().cloned());
        }
    }
    if !locals.is_empty() {
        if !hoistable {
            return Err(format!(
                "line {line}: an argument must be evaluated once into a local, and the call is inside a larger expression"
            ));
        }
        let pre: String = locals.iter().map(|l| format!("{l}{eol}{indent}")).collect();
        edits.push(TextEdit { start: statement.start_byte(), end: statement.start_byte(), text: pre });
    }
    site.introduced.borrow_mut().extend(new_locals.into_iter().map(|n| (member_at, n)));
    Ok(edits)
}

/// Whether an expression needs no parentheses where it is (an argument, an initializer, a
/// statement's own expression).
fn stands_alone(n: Node) -> bool {
    n.parent().is_some_and(|p| {
        matches!(
            p.kind(),
            kind::ARGUMENT_LIST
                | kind::VARIABLE_DECLARATOR
                | kind::EXPRESSION_STATEMENT
                | kind::RETURN_STATEMENT
                | kind::PARENTHESIZED_EXPRESSION
                | kind::ARRAY_INITIALIZER
        ) || (p.kind() == kind::ASSIGNMENT_EXPRESSION && p.child_by_field_name("right") == Some(n))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn inline(src: &str, decl_line: u32, name: &str, call: &str) -> Result<String, String> {
        let doc = Doc::new(Path::new("/x/A.java"), "A.java", src.as_bytes().to_vec()).expect("utf-8");
        let m = method_at(&doc, name, decl_line)?;
        let at = src.find(call).expect("call");
        let introduced = std::cell::RefCell::new(Vec::new());
        let site = Site { doc: &doc, at, same_file: true, types_visible: true, cast: false, introduced: &introduced };
        let edits = inline_call(&m, doc.text(), &site)?;
        let mut e = crate::WorkspaceEdit::default();
        let mut f = doc.edit();
        f.edits = edits;
        e.add(f);
        let plan = e.plan().map_err(|e| e.to_string())?;
        Ok(String::from_utf8(plan.files[0].new.clone()).expect("utf8"))
    }

    #[test]
    fn arguments_with_effects_or_several_uses_become_locals() {
        let src = "class A {\n  static int sq(int x) { return x * x; }\n  int n;\n  int f(int a) {\n    int b = sq(a + 1) + 2;\n    int c = sq(next());\n    return sq(a) + b + c;\n  }\n  int next() { return n++; }\n}\n";
        let out = inline(src, 2, "sq", "sq(a) +").expect("inlined");
        assert!(out.contains("return (a * a) + b + c;"), "{out}");
        let out = inline(src, 2, "sq", "sq(next())").expect("inlined");
        assert!(out.contains("    int x = next();\n    int c = x * x;"), "{out}");
        let e = inline(src, 2, "sq", "sq(a + 1)").expect_err("nested");
        assert!(e.contains("inside a larger expression"), "{e}");
    }

    #[test]
    fn statement_bodies_and_refusals() {
        let src = "class A {\n  static void log(String m) {\n    String s = \"> \" + m;\n    System.out.println(s);\n  }\n  static int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }\n  void f(String x) {\n    log(x);\n    int k = fact(3);\n  }\n}\n";
        let out = inline(src, 2, "log", "log(x)").expect("inlined");
        assert!(out.contains("    String s = \"> \" + x;\n    System.out.println(s);\n    int k"), "{out}");
        let doc = Doc::new(Path::new("/x/A.java"), "A.java", src.as_bytes().to_vec()).expect("utf-8");
        assert_eq!(method_at(&doc, "fact", 6).expect_err("recursive"), "it is recursive");
        // Declared on an annotation's line above its name (as the index gives it).
        let src = "class A {\n  /** Logs. */\n  @Deprecated\n  static void log(String m) {\n    System.out.println(m);\n  }\n}\n";
        let doc = Doc::new(Path::new("/x/A.java"), "A.java", src.as_bytes().to_vec()).expect("utf-8");
        for line in [2, 3, 4] {
            assert!(method_at(&doc, "log", line).is_ok(), "line {line}");
        }
        assert!(method_at(&doc, "log", 5).is_err());
    }
}
