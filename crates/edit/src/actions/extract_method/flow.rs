//! Extract method, from the syntax: a run of whole statements of one block becomes a private
//! method placed after the one it came from, and the run a call to it. Data flow over the run
//! decides the signature: the variables it reads that are declared before it become
//! parameters (typed as declared), the one variable it writes that code after it reads becomes
//! the return value. Refused, with the reason, where the call could not mean the same: two such
//! variables, a `return`/`break`/`continue`/`yield` leaving the run, a variable whose
//! declaration the syntax cannot see (a pattern's, a `var`'s type), a constructor's field
//! assignments. Checked exceptions: when the code around the run handles none (its method
//! declares no `throws` and no `catch` encloses the run), the run throws none; otherwise the
//! caller says which to declare, from what the engine knows of the calls inside
//! ([`ThrowSite`]).

use mji_parser::kind;
use tree_sitter::Node;

use crate::locals::{declaration_of, in_nested_code, is_member_name, is_written};
use crate::syntax::{indent_before, line_start, walk};
use crate::{Doc, TextEdit};

/// Where the run may throw a checked exception: a call or `new` (its name's byte offset), or
/// a `throw` (its expression's range), with the catch types inside the run around it.
#[derive(Debug, Clone)]
pub struct ThrowSite {
    pub kind: SiteKind,
    pub start: usize,
    pub end: usize,
    /// Catch types, as written, of the `try`s inside the run that enclose the site.
    pub caught: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SiteKind {
    Call,
    New,
    Throw,
    /// A try-with-resources' resource: its `close()` may throw.
    Resource,
}

/// What the exceptions of the run depend on: the types the code around it handles (its
/// method's `throws`, the catches enclosing it), and the sites that may throw.
#[derive(Debug, Clone, Default)]
pub struct Exceptions {
    pub handled: Vec<String>,
    pub sites: Vec<ThrowSite>,
}

/// The run analysed: everything needed to write the method but its `throws`.
#[derive(Debug)]
pub struct Extraction {
    pub start: usize,
    pub end: usize,
    pub name: String,
    /// (type, name) of each parameter, in order of first use.
    pub params: Vec<(String, String)>,
    /// The variable the method returns: (type, name, declared inside the run).
    pub ret: Option<(String, String, bool)>,
    pub is_static: bool,
    pub type_params: String,
    pub exceptions: Exceptions,
    /// The byte offset of the class member (method) the run is in: the new method goes after it.
    member_end: usize,
    member_indent: String,
    body_indent: String,
    run_indent: String,
}

/// The statements a range selects: those of the innermost block the range covers whole
/// statements of (`start..end` bytes; whole lines when the caller gives lines).
fn statements_in<'t>(root: Node<'t>, start: usize, end: usize, text: &str) -> Result<Vec<Node<'t>>, String> {
    let at = text[start..end].find(|c: char| !c.is_whitespace()).map(|i| start + i).ok_or("the range is empty")?;
    let mut n = root.descendant_for_byte_range(at, at).ok_or("no code in the range")?;
    loop {
        if matches!(n.kind(), kind::BLOCK | kind::SWITCH_BLOCK_STATEMENT_GROUP | kind::CONSTRUCTOR_BODY) {
            let mut c = n.walk();
            let all: Vec<Node> = n.named_children(&mut c).filter(|s| !is_comment(*s)).collect();
            if all.iter().any(|s| s.kind() == kind::SWITCH_LABEL && s.start_byte() >= start && s.end_byte() <= end) {
                return Err("the range holds a `case` label; select statements inside one case".into());
            }
            let children: Vec<Node> = all.into_iter().filter(|s| s.kind() != kind::SWITCH_LABEL).collect();
            let inside: Vec<Node> =
                children.iter().copied().filter(|s| s.start_byte() >= start && s.end_byte() <= end).collect();
            let partial = children.iter().any(|s| {
                s.start_byte() < end && s.end_byte() > start && !(s.start_byte() >= start && s.end_byte() <= end)
            });
            if !inside.is_empty() && !partial {
                return Ok(inside);
            }
            if !inside.is_empty() && partial {
                return Err("the range ends in the middle of a statement; select whole statements".into());
            }
        }
        if matches!(n.kind(), kind::CLASS_BODY | kind::PROGRAM | kind::METHOD_DECLARATION) {
            return Err("the range holds no whole statement of a method's body".into());
        }
        n = n.parent().ok_or("the range holds no whole statement of a method's body")?;
    }
}

fn is_comment(n: Node) -> bool {
    matches!(n.kind(), kind::LINE_COMMENT | kind::BLOCK_COMMENT)
}

fn inside(n: Node, start: usize, end: usize) -> bool {
    n.start_byte() >= start && n.end_byte() <= end
}

/// Analyses the statements `start..end` selects for extraction to a method named `name`.
pub fn analyse(doc: &Doc, start: usize, end: usize, name: &str) -> Result<Extraction, String> {
    let text = doc.text();
    let bytes = text.as_bytes();
    let tree = mji_parser::parse_tree(text).ok_or("the file could not be parsed")?;
    let root = tree.root_node();
    let stmts = statements_in(root, start.min(text.len()), end.min(text.len()), text)?;
    let (first, last) = (stmts[0], stmts[stmts.len() - 1]);
    let (start, end) = (first.start_byte(), last.end_byte());
    let block = first.parent().ok_or("no block")?;
    // The member around it: a method or constructor of a class body (not a lambda's).
    let mut member = block;
    let mut in_lambda = false;
    loop {
        match member.kind() {
            kind::METHOD_DECLARATION | kind::CONSTRUCTOR_DECLARATION | kind::COMPACT_CONSTRUCTOR_DECLARATION => break,
            kind::LAMBDA_EXPRESSION => in_lambda = true,
            kind::STATIC_INITIALIZER | kind::CLASS_BODY | kind::ENUM_BODY | kind::INTERFACE_BODY | kind::PROGRAM => {
                return Err("the statements are not in a method or constructor (an initializer block)".into());
            }
            _ => {}
        }
        member = member.parent().ok_or("the statements are not in a method")?;
    }
    if in_lambda {
        return Err(
            "the statements are in a lambda's body (its exceptions and parameter types depend on its target type)"
                .into(),
        );
    }
    let class_body = member.parent().ok_or("no class body")?;
    if !matches!(class_body.kind(), kind::CLASS_BODY | kind::ENUM_BODY | kind::INTERFACE_BODY)
        && class_body.kind() != kind::ENUM_BODY_DECLARATIONS
    {
        return Err("the method is not a member of a class body".into());
    }
    let is_ctor = member.kind() != kind::METHOD_DECLARATION;

    // Control flow leaving the run; this(…)/super(…).
    let mut why: Option<String> = None;
    for s in &stmts {
        walk(*s, &mut |n| {
            if why.is_some() || in_nested_code(n, *s) {
                return;
            }
            let line = n.start_position().row + 1;
            match n.kind() {
                kind::RETURN_STATEMENT => why = Some(format!("a `return` at line {line} leaves the statements")),
                kind::EXPLICIT_CONSTRUCTOR_INVOCATION => why = Some("it calls this(…) or super(…)".into()),
                kind::BREAK_STATEMENT | kind::CONTINUE_STATEMENT | kind::YIELD_STATEMENT
                    if !jump_target_inside(n, start, end, bytes) =>
                {
                    let w = n.kind().trim_end_matches("_statement");
                    why = Some(format!("a `{w}` at line {line} leaves the statements"));
                }
                _ => {}
            }
        });
    }
    if let Some(w) = why {
        return Err(w);
    }

    // Data flow: every unqualified name in the run, resolved to its declaration.
    let method_body = member.child_by_field_name("body").ok_or("the method has no body")?;
    let mut declared_names: Vec<String> = Vec::new(); // every variable the member declares
    let mut local_classes: Vec<String> = Vec::new();
    walk(method_body, &mut |n| {
        if let Some(nm) = n.child_by_field_name("name")
            && nm.kind() == kind::IDENTIFIER
            && !matches!(n.kind(), kind::METHOD_INVOCATION | kind::METHOD_DECLARATION | kind::FIELD_ACCESS)
            && let Ok(t) = nm.utf8_text(bytes)
        {
            if n.kind() == kind::CLASS_DECLARATION
                || n.kind() == kind::RECORD_DECLARATION
                || n.kind() == kind::ENUM_DECLARATION
                || n.kind() == kind::INTERFACE_DECLARATION
            {
                if !inside(n, start, end) {
                    local_classes.push(t.to_owned());
                }
            } else {
                declared_names.push(t.to_owned());
            }
        }
    });
    struct Var<'t> {
        name: String,
        decl: Node<'t>,
        read_in: bool,
        written_in: bool,
        first: usize,
    }
    let mut outer: Vec<Var> = Vec::new(); // declared before the run
    let mut inner: Vec<(String, Node)> = Vec::new(); // declared in the run, at its top level
    for s in stmts.iter().filter(|s| s.kind() == kind::LOCAL_VARIABLE_DECLARATION) {
        let mut c = s.walk();
        for d in s.children_by_field_name("declarator", &mut c) {
            if let Some(n) = d.child_by_field_name("name")
                && let Ok(t) = n.utf8_text(bytes)
            {
                inner.push((t.to_owned(), n));
            }
        }
    }
    let mut instance = false;
    let mut problem: Option<String> = None;
    for s in &stmts {
        walk(*s, &mut |n| {
            if problem.is_some() {
                return;
            }
            match n.kind() {
                kind::THIS | kind::SUPER => instance = true,
                kind::METHOD_INVOCATION if n.child_by_field_name("object").is_none() => instance = true,
                kind::TYPE_IDENTIFIER | kind::IDENTIFIER
                    if n.utf8_text(bytes).is_ok_and(|t| local_classes.iter().any(|c| c == t)) =>
                {
                    problem = Some(format!(
                        "it uses the local class `{}` declared in the method",
                        n.utf8_text(bytes).unwrap_or("")
                    ));
                }
                _ => {}
            }
            if n.kind() != kind::IDENTIFIER || is_member_name(n) || is_declared_name(n) {
                return;
            }
            let Ok(t) = n.utf8_text(bytes) else { return };
            match declaration_of(n, t, bytes) {
                Some((d, _, _)) if d.start_byte() >= start && d.end_byte() <= end => {}
                Some((d, _, _)) => {
                    let written = is_written(n);
                    let read = !written || is_compound_write(n);
                    match outer.iter_mut().find(|v| v.decl == d) {
                        Some(v) => {
                            v.read_in |= read;
                            v.written_in |= written;
                        }
                        None => outer.push(Var {
                            name: t.to_owned(),
                            decl: d,
                            read_in: read,
                            written_in: written,
                            first: n.start_byte(),
                        }),
                    }
                }
                None => {
                    if declared_names.iter().any(|x| x == t) && !starts_upper(t) {
                        problem = Some(format!(
                            "`{t}` is declared in the method where the syntax cannot tell it is in scope (a pattern variable, or a use inside a nested class)"
                        ));
                    } else if !starts_upper(t) {
                        // A field, or a name the syntax cannot place: instance state, to be safe.
                        instance = true;
                    }
                }
            }
        });
    }
    if let Some(p) = problem {
        return Err(p);
    }
    // Which are read after the run (or again by a loop around it).
    let loops = enclosing_loops(block, member);
    let used_after = |d: Node, name: &str| -> bool {
        let Some(scope) = declaration_of(d, name, bytes).map(|x| x.1) else {
            return false;
        };
        let mut found = false;
        walk(scope, &mut |n| {
            if found || n.kind() != kind::IDENTIFIER || is_member_name(n) || inside(n, start, end) {
                return;
            }
            if n.utf8_text(bytes).ok() != Some(name) {
                return;
            }
            let after = n.start_byte() >= end
                || loops.iter().any(|l| inside(n, l.start_byte(), l.end_byte()) && l.start_byte() > d.start_byte());
            if after && declaration_of(n, name, bytes).is_some_and(|x| x.0 == d) {
                found = true;
            }
        });
        found
    };
    let mut outputs: Vec<(String, String, bool)> = Vec::new();
    for (nm, d) in &inner {
        if used_after(*d, nm) {
            outputs.push((declared_type(*d, bytes)?, nm.clone(), true));
        }
    }
    let mut params = Vec::new();
    outer.sort_by_key(|v| v.first);
    for v in &outer {
        let ty = declared_type(v.decl, bytes)?;
        let out = v.written_in && used_after(v.decl, &v.name);
        if out {
            outputs.push((ty.clone(), v.name.clone(), false));
        }
        if v.read_in || v.written_in {
            if !has_value(v.decl) && (v.read_in || out) {
                return Err(format!(
                    "`{}` is declared without a value before the statements; the syntax cannot tell it is assigned",
                    v.name
                ));
            }
            if has_value(v.decl) || v.read_in {
                params.push((ty, v.name.clone()));
            }
        }
        if is_ctor && v.written_in && is_final(v.decl, bytes) {
            return Err(format!("`{}` is final and assigned in the statements", v.name));
        }
    }
    if outputs.len() > 1 {
        return Err(format!(
            "{} variables written in the statements are used after them ({}); a method returns one",
            outputs.len(),
            outputs.iter().map(|o| format!("`{}`", o.1)).collect::<Vec<_>>().join(", ")
        ));
    }
    if is_ctor {
        let mut assigns_field = false;
        for s in &stmts {
            walk(*s, &mut |n| {
                if n.kind() == kind::ASSIGNMENT_EXPRESSION
                    && let Some(l) = n.child_by_field_name("left")
                    && (l.kind() != kind::IDENTIFIER
                        || l.utf8_text(bytes).is_ok_and(|t| declaration_of(l, t, bytes).is_none()))
                {
                    assigns_field = true;
                }
            });
        }
        if assigns_field {
            return Err("the statements assign a field in a constructor (a final field must be assigned there)".into());
        }
    }

    // Static: the member is, or the run touches no instance state and its types need no
    // class type parameter.
    let member_static = has_modifier(member, "static", bytes);
    let class_decl = class_body.parent();
    let class_tparams: Vec<String> = class_decl
        .and_then(|c| c.child_by_field_name("type_parameters"))
        .map(|tp| {
            let mut c = tp.walk();
            tp.named_children(&mut c)
                .filter_map(|p| p.named_child(0).and_then(|x| x.utf8_text(bytes).ok()).map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    let mut mentions_class_tparam = false;
    for st in &stmts {
        walk(*st, &mut |n| {
            mentions_class_tparam |= n.kind() == kind::TYPE_IDENTIFIER
                && n.utf8_text(bytes).is_ok_and(|t| class_tparams.iter().any(|p| p == t));
        });
    }
    for ty in params.iter().map(|p| &p.0).chain(outputs.iter().map(|o| &o.0)) {
        mentions_class_tparam |= ty
            .split(|c: char| !c.is_alphanumeric() && c != '_' && c != '$')
            .any(|w| class_tparams.iter().any(|p| p == w));
    }
    // A static method is allowed in a top-level or static class, an enum or a record (not in
    // an inner, local or anonymous class before Java 16, nor as a private interface method
    // called from a default one).
    let static_ok_class = match class_decl.map(|c| c.kind()) {
        Some(kind::CLASS_DECLARATION) => class_decl
            .is_some_and(|c| c.parent().is_some_and(|p| p.kind() == kind::PROGRAM) || has_modifier(c, "static", bytes)),
        Some(kind::ENUM_BODY | kind::ENUM_DECLARATION | kind::RECORD_DECLARATION) => true,
        _ => false,
    };
    let is_static = member_static || (!instance && !mentions_class_tparam && static_ok_class && !is_ctor);

    // The name: no method of it in the class.
    let mut c = class_body.walk();
    let clash = class_body.named_children(&mut c).any(|m| {
        m.kind() == kind::METHOD_DECLARATION
            && m.child_by_field_name("name").and_then(|x| x.utf8_text(bytes).ok()) == Some(name)
    });
    if clash {
        return Err(format!("the class already declares a method `{name}`; choose another newName"));
    }
    // A call of the name elsewhere in the file (an outer class's method) would now reach the
    // new one.
    let mut called = false;
    walk(root, &mut |n| {
        called |= n.kind() == kind::METHOD_INVOCATION
            && n.child_by_field_name("name").and_then(|x| x.utf8_text(bytes).ok()) == Some(name);
    });
    if called {
        return Err(format!("`{name}` is already called in this file; choose another newName"));
    }
    if declared_names.iter().any(|x| x == name) {
        // Not a clash for javac, but a reader's trap; keep names distinct.
        return Err(format!("`{name}` already names a variable in this method; choose another newName"));
    }

    // Exceptions the code around handles.
    let mut handled = Vec::new();
    if let Some(t) = (0..member.child_count()).filter_map(|i| member.child(i)).find(|c| c.kind() == kind::THROWS) {
        let mut c = t.walk();
        handled.extend(t.named_children(&mut c).filter_map(|x| x.utf8_text(bytes).ok().map(str::to_owned)));
    }
    let mut up = block;
    while up != member {
        if let Some(p) = up.parent() {
            if (p.kind() == kind::TRY_STATEMENT || p.kind() == kind::TRY_WITH_RESOURCES_STATEMENT)
                && p.child_by_field_name("body") == Some(up)
            {
                handled.extend(catch_types(p, bytes));
            }
            up = p;
        } else {
            break;
        }
    }
    let mut sites = Vec::new();
    if !handled.is_empty() {
        for s in &stmts {
            walk(*s, &mut |n| {
                let (kind_, at) = match n.kind() {
                    kind::METHOD_INVOCATION => (SiteKind::Call, n.child_by_field_name("name")),
                    kind::OBJECT_CREATION_EXPRESSION => (SiteKind::New, n.child_by_field_name("type")),
                    kind::RESOURCE => (SiteKind::Resource, Some(n)),
                    kind::THROW_STATEMENT => (SiteKind::Throw, n.named_child(0)),
                    _ => return,
                };
                let Some(at) = at else { return };
                let mut caught = Vec::new();
                let mut x = n;
                while let Some(p) = x.parent() {
                    if p.end_byte() > end || p.start_byte() < start {
                        break;
                    }
                    if matches!(p.kind(), kind::TRY_STATEMENT | kind::TRY_WITH_RESOURCES_STATEMENT)
                        && p.child_by_field_name("body") == Some(x)
                    {
                        caught.extend(catch_types(p, bytes));
                    }
                    if matches!(p.kind(), kind::LAMBDA_EXPRESSION | kind::CLASS_BODY) {
                        return; // its own exceptions: not the run's
                    }
                    x = p;
                }
                sites.push(ThrowSite { kind: kind_, start: at.start_byte(), end: at.end_byte(), caught });
            });
        }
    }

    let type_params = member
        .child_by_field_name("type_parameters")
        .and_then(|t| t.utf8_text(bytes).ok())
        .map(|t| format!("{t} "))
        .unwrap_or_default();
    let member_indent = indent_before(text, member.start_byte()).to_owned();
    let run_indent = indent_before(text, start).to_owned();
    let body_indent = {
        let mut c = method_body.walk();
        let first = method_body.named_children(&mut c).find(|n| !is_comment(*n));
        first
            .map(|f| indent_before(text, f.start_byte()).to_owned())
            .filter(|i| i.len() > member_indent.len())
            .unwrap_or_else(|| format!("{member_indent}    "))
    };
    Ok(Extraction {
        start,
        end,
        name: name.to_owned(),
        params,
        ret: outputs.pop(),
        is_static,
        type_params,
        exceptions: Exceptions { handled, sites },
        member_end: member.end_byte(),
        member_indent,
        body_indent,
        run_indent,
    })
}

/// The edits: the run replaced by the call, the method after its member.
pub fn edits(doc: &Doc, x: &Extraction, throws: &[String]) -> Vec<TextEdit> {
    let text = doc.text();
    let eol = doc.eol();
    let args: Vec<&str> = x.params.iter().map(|p| p.1.as_str()).collect();
    let call = format!("{}({})", x.name, args.join(", "));
    let call = match &x.ret {
        None => format!("{call};"),
        Some((ty, n, true)) => format!("{ty} {n} = {call};"),
        Some((_, n, false)) => format!("{n} = {call};"),
    };
    // The run's lines, moved from the run's indentation to the new method's body's.
    let from = line_start(text, x.start);
    let mut body = String::new();
    for line in text[from..x.end].split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        match line.strip_prefix(x.run_indent.as_str()) {
            _ if line.trim().is_empty() => body.push_str(eol),
            Some(rest) => body.push_str(&format!("{}{rest}{eol}", x.body_indent)),
            // Less indented than the run (inside a text block or comment): as it is.
            None => body.push_str(&format!("{line}{eol}")),
        }
    }
    let ret_ty = x.ret.as_ref().map_or("void", |r| r.0.as_str());
    if let Some((_, n, _)) = &x.ret {
        body.push_str(&format!("{}return {n};{eol}", x.body_indent));
    }
    let params: Vec<String> = x.params.iter().map(|(t, n)| format!("{t} {n}")).collect();
    let throws = if throws.is_empty() { String::new() } else { format!(" throws {}", throws.join(", ")) };
    let mi = &x.member_indent;
    let method = format!(
        "{eol}{eol}{mi}private {}{}{ret_ty} {}({}){throws} {{{eol}{body}{mi}}}",
        if x.is_static { "static " } else { "" },
        x.type_params,
        x.name,
        params.join(", ")
    );
    vec![
        TextEdit { start: x.start, end: x.end, text: call },
        TextEdit { start: x.member_end, end: x.member_end, text: method },
    ]
}

/// Whether a break/continue/yield's target is inside `start..end`.
fn jump_target_inside(n: Node, start: usize, end: usize, bytes: &[u8]) -> bool {
    let label = n.named_child(0).filter(|l| l.kind() == kind::IDENTIFIER).and_then(|l| l.utf8_text(bytes).ok());
    let mut x = n;
    while let Some(p) = x.parent() {
        let target = match (n.kind(), label) {
            (kind::YIELD_STATEMENT, _) => p.kind() == kind::SWITCH_EXPRESSION && !is_switch_statement(p),
            (_, Some(l)) => {
                p.kind() == kind::LABELED_STATEMENT && p.named_child(0).and_then(|x| x.utf8_text(bytes).ok()) == Some(l)
            }
            (kind::CONTINUE_STATEMENT, None) => is_loop(p),
            _ => is_loop(p) || is_switch_statement(p),
        };
        if target {
            return inside(p, start, end);
        }
        if matches!(p.kind(), kind::METHOD_DECLARATION | kind::LAMBDA_EXPRESSION | kind::CLASS_BODY) {
            return false;
        }
        x = p;
    }
    false
}

/// Whether `n` is a switch statement: tree-sitter-java parses one as a `switch_expression` in a
/// statement's place (a block, a `case` group, a loop's or an `if`'s body, a label's statement),
/// where a `yield` skips it for the switch expression around it and a `break` stops at it.
fn is_switch_statement(n: Node) -> bool {
    n.kind() == kind::SWITCH_EXPRESSION
        && n.parent().is_some_and(|p| {
            matches!(
                p.kind(),
                kind::BLOCK
                    | kind::SWITCH_BLOCK_STATEMENT_GROUP
                    | kind::CONSTRUCTOR_BODY
                    | kind::LABELED_STATEMENT
                    | kind::PROGRAM
                    | kind::IF_STATEMENT
                    | kind::WHILE_STATEMENT
                    | kind::DO_STATEMENT
                    | kind::FOR_STATEMENT
                    | kind::ENHANCED_FOR_STATEMENT
            )
        })
}

fn is_loop(n: Node) -> bool {
    matches!(n.kind(), kind::FOR_STATEMENT | kind::ENHANCED_FOR_STATEMENT | kind::WHILE_STATEMENT | kind::DO_STATEMENT)
}

fn enclosing_loops<'t>(block: Node<'t>, member: Node<'t>) -> Vec<Node<'t>> {
    let mut out = Vec::new();
    let mut x = block;
    while x != member {
        if is_loop(x) {
            out.push(x);
        }
        match x.parent() {
            Some(p) => x = p,
            None => break,
        }
    }
    out
}

/// The name a declaration declares (not a use).
fn is_declared_name(n: Node) -> bool {
    n.parent().is_some_and(|p| {
        p.child_by_field_name("name") == Some(n)
            && matches!(
                p.kind(),
                kind::VARIABLE_DECLARATOR
                    | kind::FORMAL_PARAMETER
                    | kind::SPREAD_PARAMETER
                    | kind::CATCH_FORMAL_PARAMETER
                    | kind::RESOURCE
                    | kind::ENHANCED_FOR_STATEMENT
            )
    }) || n.parent().is_some_and(|p| p.kind() == kind::INFERRED_PARAMETERS)
        || n.parent()
            .is_some_and(|p| p.kind() == kind::LAMBDA_EXPRESSION && p.child_by_field_name("parameters") == Some(n))
}

/// `x += 1`, `x++`: a write that reads too.
fn is_compound_write(n: Node) -> bool {
    n.parent().is_some_and(|p| {
        p.kind() == kind::UPDATE_EXPRESSION
            || (p.kind() == kind::ASSIGNMENT_EXPRESSION
                && p.child_by_field_name("operator").is_none_or(|o| o.kind() != "="))
    })
}

fn starts_upper(t: &str) -> bool {
    t.starts_with(char::is_uppercase)
}

/// The type a variable's declaration writes for it (`int[]` for `int a[]`); refused for `var`,
/// a lambda's inferred parameter, a multi-catch.
fn declared_type(name: Node, bytes: &[u8]) -> Result<String, String> {
    let var = name.utf8_text(bytes).unwrap_or("");
    let p = name.parent().ok_or("no declaration")?;
    let (holder, dims) = match p.kind() {
        kind::VARIABLE_DECLARATOR if p.parent().is_some_and(|h| h.kind() == kind::SPREAD_PARAMETER) => {
            let h = p.parent().ok_or("no declaration")?;
            let mut c = h.walk();
            let ty = h
                .named_children(&mut c)
                .find(|x| !matches!(x.kind(), kind::MODIFIERS | kind::VARIABLE_DECLARATOR))
                .and_then(|t| t.utf8_text(bytes).ok())
                .ok_or("no type")?;
            return Ok(format!("{ty}[]"));
        }
        kind::VARIABLE_DECLARATOR => (p.parent().ok_or("no declaration")?, p.child_by_field_name("dimensions")),
        kind::FORMAL_PARAMETER | kind::CATCH_FORMAL_PARAMETER | kind::RESOURCE | kind::ENHANCED_FOR_STATEMENT => {
            (p, p.child_by_field_name("dimensions"))
        }
        kind::SPREAD_PARAMETER => {
            let mut c = p.walk();
            let ty = p
                .named_children(&mut c)
                .find(|x| !matches!(x.kind(), kind::MODIFIERS | kind::VARIABLE_DECLARATOR))
                .and_then(|t| t.utf8_text(bytes).ok())
                .ok_or("no type")?;
            return Ok(format!("{ty}[]"));
        }
        _ => return Err(format!("`{var}` has no declared type (a lambda's parameter)")),
    };
    let ty = if holder.kind() == kind::CATCH_FORMAL_PARAMETER {
        let mut c = holder.walk();
        let t = holder.named_children(&mut c).find(|x| x.kind() == kind::CATCH_TYPE).ok_or("no catch type")?;
        if t.named_child_count() > 1 {
            return Err(format!("`{var}` is a multi-catch parameter; its type cannot be written"));
        }
        t.utf8_text(bytes).map_err(|e| e.to_string())?.to_owned()
    } else {
        holder.child_by_field_name("type").and_then(|t| t.utf8_text(bytes).ok()).ok_or("no type")?.to_owned()
    };
    if ty == "var" {
        return Err(format!("`{var}` is declared with `var`; its type is not written"));
    }
    let dims = dims.and_then(|d| d.utf8_text(bytes).ok()).unwrap_or("");
    Ok(format!("{ty}{dims}"))
}

fn has_value(name: Node) -> bool {
    name.parent().is_none_or(|p| {
        p.kind() != kind::VARIABLE_DECLARATOR
            || p.child_by_field_name("value").is_some()
            || p.parent().is_some_and(|h| h.kind() == kind::SPREAD_PARAMETER)
    })
}

fn is_final(name: Node, bytes: &[u8]) -> bool {
    let holder = name.parent().and_then(|p| if p.kind() == kind::VARIABLE_DECLARATOR { p.parent() } else { Some(p) });
    holder.is_some_and(|h| has_modifier(h, "final", bytes))
}

fn has_modifier(n: Node, m: &str, bytes: &[u8]) -> bool {
    let mut c = n.walk();
    n.named_children(&mut c)
        .filter(|x| x.kind() == kind::MODIFIERS)
        .any(|x| x.utf8_text(bytes).is_ok_and(|t| t.split_whitespace().any(|w| w == m)))
}

fn catch_types(try_: Node, bytes: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let mut c = try_.walk();
    for clause in try_.named_children(&mut c).filter(|x| x.kind() == kind::CATCH_CLAUSE) {
        walk(clause, &mut |n| {
            if n.kind() == kind::CATCH_TYPE {
                let mut c2 = n.walk();
                out.extend(n.named_children(&mut c2).filter_map(|t| t.utf8_text(bytes).ok().map(str::to_owned)));
            }
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn extract(src: &str, from: &str, to: &str) -> Result<String, String> {
        let doc = Doc::new(Path::new("/x/A.java"), "A.java", src.as_bytes().to_vec()).expect("utf-8");
        let s = src.find(from).expect("from");
        let e = src.find(to).expect("to") + to.len();
        let x = analyse(&doc, s, e, "extracted")?;
        let mut ed = crate::WorkspaceEdit::default();
        let mut f = doc.edit();
        f.edits = edits(&doc, &x, &[]);
        ed.add(f);
        let plan = ed.plan().map_err(|e| e.to_string())?;
        Ok(String::from_utf8(plan.files[0].new.clone()).expect("utf8"))
    }

    #[test]
    fn parameters_and_the_return_value_come_from_data_flow() {
        let src = "class A {\n  static int f(int a, int b) {\n    int c = a * 2;\n    int d = c + b;\n    System.out.println(d);\n    return d;\n  }\n}\n";
        let out = extract(src, "int c", "b;").expect("extracted");
        assert!(out.contains("    int d = extracted(a, b);\n"), "{out}");
        assert!(out.contains("  private static int extracted(int a, int b) {\n    int c = a * 2;\n    int d = c + b;\n    return d;\n  }"), "{out}");
    }

    #[test]
    fn a_varargs_parameter_is_passed_as_its_array() {
        let src = "class A {\n  static float max(final float... array) {\n    check(array.length != 0);\n    float max = array[0];\n    return max;\n  }\n  static void check(boolean b) {}\n}\n";
        let out = extract(src, "check(array", "array[0];").expect("extracted");
        assert!(out.contains("    float max = extracted(array);\n"), "{out}");
        assert!(out.contains("private static float extracted(float[] array) {"), "{out}");
    }

    #[test]
    fn refusals_say_why() {
        let src = "class A {\n  int n;\n  int f(int a) {\n    int c = a;\n    int d = a;\n    for (int i = 0; i < a; i++) {\n      if (i > c) break;\n      n++;\n    }\n    if (a > 0) return c;\n    return c + d;\n  }\n}\n";
        let e = extract(src, "int c", "int d = a;").expect_err("two outputs");
        assert!(e.contains("2 variables written"), "{e}");
        let e = extract(src, "if (i > c)", "break;").expect_err("break");
        assert!(e.contains("`break` at line 7 leaves"), "{e}");
        let e = extract(src, "if (a > 0)", "return c;").expect_err("return");
        assert!(e.contains("`return`"), "{e}");
        // The loop's body touches a field: an instance method.
        let out = extract(src, "if (i > c) break;", "n++;").expect_err("break");
        assert!(out.contains("break"), "{out}");
        let src2 = "class A {\n  int n;\n  void f(int a) {\n    n += a;\n    System.out.println(n);\n  }\n}\n";
        let out = extract(src2, "n += a;", "println(n);").expect("extracted");
        assert!(out.contains("  private void extracted(int a) {"), "{out}");
    }

    /// A `yield` in a switch statement yields the switch expression around it (javac compiles
    /// this), so the statement cannot move to a method; a `break` in a switch statement stays
    /// inside it and does not stop an extraction. (tree-sitter-java parses both switches as a
    /// `switch_expression`.)
    #[test]
    fn a_yield_in_a_switch_statement_leaves_it_and_a_break_does_not() {
        let src = "class A {\n  int f(int a, int b) {\n    return switch (a) {\n      case 1 -> {\n        switch (b) {\n          case 2:\n            yield 5;\n          default:\n            break;\n        }\n        yield 0;\n      }\n      default -> 1;\n    };\n  }\n  void g(int b) {\n    switch (b) {\n      case 2:\n        System.out.println(b);\n        break;\n      default:\n        break;\n    }\n  }\n}\n";
        let e = extract(src, "switch (b) {\n          case 2", "break;\n        }").expect_err("yield");
        assert_eq!(e, "a `yield` at line 7 leaves the statements");
        let out = extract(src, "switch (b) {\n      case 2", "break;\n    }").expect("extracted");
        assert!(out.contains("    extracted(b);\n"), "{out}");
    }
}
