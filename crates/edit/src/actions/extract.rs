//! `extract_variable` and `extract_constant`: the expression a range names exactly, where a
//! declaration can go before it so that the code still means the same (its value computed
//! once, at the same moment), to a local before its statement or a `static final` field of its
//! class; typed as the binder types it (`var` where the file shows its language level allows
//! it), named as asked or after what it computes.

use mji_parser::kind;
use tree_sitter::Node;

use crate::actions::ActionError;
use crate::ctx::{Ctx, Outcome};
use crate::locals::{SIDE_EFFECTS, is_written};
use crate::syntax::walk;
use crate::{Doc, TextEdit};

/// What `extract_variable` and `extract_constant` take: the expression from `line`/`column`
/// to just before `end_line`/`end_column`, or the `text` on `line`; the name (else one is
/// suggested); every equal occurrence too with `replace_all`.
pub struct Request<'a> {
    pub constant: bool,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
    pub text: &'a str,
    pub new_name: &'a str,
    pub replace_all: bool,
}

/// `extract_variable` / `extract_constant`: the expression at the range (or the text on the
/// line) to a local before its statement, or a `static final` field of its class, typed as the
/// binder types it (`var` where the file shows its language level allows it).
pub fn run(ctx: &dyn Ctx, doc: &Doc, args: &Request) -> Result<Outcome, ActionError> {
    let constant = args.constant;
    let what = if constant { "extract_constant" } else { "extract_variable" };
    let bad = |why: String| ActionError::Refused(format!("not extracted: {why}"));
    let (start, end) = if args.end_line > 0 {
        match (doc.offset(args.line, args.column.max(1)), doc.offset(args.end_line, args.end_column.max(1))) {
            (Some(s), Some(e)) if s < e => (s, e),
            _ => return Err(bad("the range is not inside the file, or ends before it starts".into())),
        }
    } else if !args.text.trim().is_empty() {
        find_on_line(doc, args.line, args.text)
            .ok_or_else(|| bad(format!("`{}` is not on line {}", args.text.trim(), args.line)))?
    } else {
        return Err(bad("give endLine/endColumn, or the expression's text".into()));
    };
    let (start, end) = expression_at(doc, start, end).map_err(bad)?;
    let name = if !args.new_name.trim().is_empty() {
        args.new_name.trim().to_owned()
    } else if constant {
        "VALUE".to_owned()
    } else {
        suggested_name(doc, start, end)
    };
    if !crate::is_identifier(&name) {
        return Err(bad(format!("`{name}` is not a Java identifier")));
    }
    let (w, _) = ctx.world();
    let mut imports = Vec::new();
    let ty = w.files.iter().position(|f| *f.path == *doc.path).and_then(|fi| {
        let line = doc.line_of(start);
        let decls = &w.files[fi].decls().types;
        let ti = decls.iter().enumerate().rev().find(|(_, t)| t.start_line <= line && line <= t.end_line)?.0;
        let id = w.type_in_file(fi as u32, ti as u32);
        let t = mji_xref::bind::expr_type(&w, fi as u32, &doc.bytes, start, end)?;
        crate::imports::type_text_with(&w, id, &t, doc, &mut imports, &method_tvars(doc, start, end))
    });
    let type_text = match ty {
        // A parameterized type is `var` where the file allows it: javac infers it exactly, where
        // the binder reads a wildcard `? extends X` argument as X (`List<? extends Number>` is
        // no `List<Number>`).
        Some(t) if t.contains('<') && !constant && uses_var(doc) => {
            imports.clear();
            "var".to_owned()
        }
        Some(t) => t,
        None if !constant && uses_var(doc) => {
            imports.clear();
            "var".to_owned()
        }
        None => {
            return Err(bad(
                "the binder could not type the expression, and `var` needs Java 10 (this file declares no `var`, so its language level is not known to allow it)"
                    .into(),
            ));
        }
    };
    // Without a newName: a call named like an accessor of nothing (`get`, `apply`) is named by
    // its type (`Calendar` -> `calendar`), and a taken name gets a number.
    let chosen = args.new_name.trim().is_empty();
    let mut name = name;
    if chosen && !constant && (name == "value" || name.len() <= 3 || name == "apply") {
        let simple = type_text.split(['<', '[']).next().unwrap_or("").rsplit('.').next().unwrap_or("");
        let mut c = simple.chars();
        let by_type = c.next().map(|f| f.to_lowercase().collect::<String>() + c.as_str()).unwrap_or_default();
        if simple.starts_with(char::is_uppercase) && crate::is_identifier(&by_type) {
            name = by_type;
        }
    }
    let mut attempt = 1;
    let edits = loop {
        let candidate = if attempt == 1 { name.clone() } else { format!("{name}{attempt}") };
        let r = if constant {
            extract_constant(doc, start, end, &candidate, &type_text, args.replace_all)
        } else {
            extract_variable(doc, start, end, &candidate, &type_text, args.replace_all)
        };
        match r {
            Err(e) if chosen && attempt < 20 && e.contains("already names") => attempt += 1,
            r => {
                name = candidate;
                break r.map_err(bad)?;
            }
        }
    };
    let n = edits.len() - 1;
    let summary = format!(
        "{} {type_text} {name} = {}: {n} occurrence{}",
        what.replace('_', " "),
        &doc.text()[start..end],
        if n == 1 { "" } else { "s" }
    );
    imports.dedup_by(|a, b| a.text == b.text);
    let mut edits = edits;
    edits.extend(imports);
    Ok(Outcome::in_doc(doc, edits, summary))
}

/// The expression at bytes `start..end` (whitespace around it ignored): its exact range, or why
/// the range is not one.
pub fn expression_at(doc: &Doc, start: usize, end: usize) -> Result<(usize, usize), String> {
    let text = doc.text();
    let (start, end) = trimmed(text, start, end);
    let tree = mji_parser::parse_tree(text).ok_or("the file could not be parsed")?;
    let n = expression_node(tree.root_node(), start, end)?;
    Ok((n.start_byte(), n.end_byte()))
}

fn trimmed(text: &str, start: usize, end: usize) -> (usize, usize) {
    let end = end.min(text.len());
    let start = start.min(end);
    let s = &text[start..end];
    let lead = s.len() - s.trim_start().len();
    let trail = s.len() - s.trim_end().len();
    (start + lead, (end - trail).max(start + lead))
}

fn expression_node(root: Node, start: usize, end: usize) -> Result<Node, String> {
    let mut n = root.descendant_for_byte_range(start, end).ok_or("no code in the range")?;
    while n.start_byte() == start && n.end_byte() == end && !is_expression(n) {
        match n.parent() {
            Some(p) if p.start_byte() == start && p.end_byte() == end => n = p,
            _ => break,
        }
    }
    if n.start_byte() != start || n.end_byte() != end || !is_expression(n) {
        return Err("the range is not one whole expression; give its exact start and end".into());
    }
    // An expression that is a name being declared or assigned, or a whole statement.
    if let Some(p) = n.parent() {
        match p.kind() {
            kind::ASSIGNMENT_EXPRESSION if p.child_by_field_name("left") == Some(n) => {
                return Err("the expression is assigned to".into());
            }
            kind::UPDATE_EXPRESSION => return Err("the expression is incremented".into()),
            kind::EXPRESSION_STATEMENT => return Err("the expression is a whole statement".into()),
            kind::METHOD_INVOCATION if p.child_by_field_name("name") == Some(n) => {
                return Err("the range is a method's name, not an expression".into());
            }
            _ => {}
        }
    }
    if n.kind() == kind::LAMBDA_EXPRESSION || n.kind() == kind::METHOD_REFERENCE || n.kind() == kind::ARRAY_INITIALIZER
    {
        return Err(format!("a {} needs its target type; extract it by hand", n.kind().replace('_', " ")));
    }
    Ok(n)
}

fn is_expression(n: Node) -> bool {
    n.is_named()
        && (n.kind().ends_with("_expression")
            || n.kind().ends_with("_literal")
            || matches!(
                n.kind(),
                kind::METHOD_INVOCATION
                    | kind::FIELD_ACCESS
                    | kind::ARRAY_ACCESS
                    | kind::IDENTIFIER
                    | "true"
                    | "false"
                    | "this"
                    | kind::CLASS_LITERAL
                    | kind::STRING_LITERAL
            ))
        && !matches!(n.kind(), kind::EXPRESSION_STATEMENT)
}

/// Extracts the expression at exactly `start..end` to `type_text name = …;` before its
/// statement; with `replace_all`, every identical expression of the same statement list after
/// it too (when the expression has no side effects).
pub fn extract_variable(
    doc: &Doc,
    start: usize,
    end: usize,
    name: &str,
    type_text: &str,
    replace_all: bool,
) -> Result<Vec<TextEdit>, String> {
    let text = doc.text();
    let bytes = text.as_bytes();
    let tree = mji_parser::parse_tree(text).ok_or("the file could not be parsed")?;
    let expr = expression_node(tree.root_node(), start, end)?;
    // Up to the statement the declaration goes before: every step must keep the expression
    // evaluated exactly once, and first among what could see or change its value.
    let mut child = expr;
    let statement = loop {
        let p = child.parent().ok_or("the expression is not inside a method's block")?;
        match p.kind() {
            kind::BLOCK | kind::SWITCH_BLOCK_STATEMENT_GROUP | kind::CONSTRUCTOR_BODY => break child,
            kind::CLASS_BODY | kind::ENUM_BODY | kind::INTERFACE_BODY | kind::PROGRAM | kind::LAMBDA_EXPRESSION => {
                return Err("the expression is not inside a block's statement (a field's initializer or a lambda's expression body)".into());
            }
            kind::BINARY_EXPRESSION
                if p.child_by_field_name("right") == Some(child) && matches!(operator(p, bytes), "&&" | "||") =>
            {
                return Err("the expression is evaluated only when the left side of `&&`/`||` allows".into());
            }
            kind::TERNARY_EXPRESSION if p.child_by_field_name("condition") != Some(child) => {
                return Err("the expression is one branch of a `?:`".into());
            }
            kind::IF_STATEMENT | kind::SWITCH_EXPRESSION if p.child_by_field_name("condition") == Some(child) => {}
            kind::SYNCHRONIZED_STATEMENT if child.kind() == kind::PARENTHESIZED_EXPRESSION => {}
            kind::ENHANCED_FOR_STATEMENT if p.child_by_field_name("value") == Some(child) => {}
            kind::IF_STATEMENT
            | kind::WHILE_STATEMENT
            | kind::DO_STATEMENT
            | kind::FOR_STATEMENT
            | kind::ENHANCED_FOR_STATEMENT
            | kind::SWITCH_EXPRESSION
            | kind::TRY_STATEMENT
            | kind::TRY_WITH_RESOURCES_STATEMENT
            | kind::CATCH_CLAUSE
            | kind::FINALLY_CLAUSE
            | kind::LABELED_STATEMENT
            | kind::SWITCH_BLOCK
            | kind::SWITCH_RULE
            | kind::RESOURCE_SPECIFICATION
            | kind::SYNCHRONIZED_STATEMENT => {
                return Err(format!(
                    "the expression is evaluated by a `{}` more than once or only sometimes",
                    p.kind().trim_end_matches("_statement").replace('_', " ")
                ));
            }
            kind::EXPLICIT_CONSTRUCTOR_INVOCATION => {
                return Err("nothing can run before a constructor's this(…) or super(…)".into());
            }
            _ => {}
        }
        child = p;
    };
    if statement.kind() == kind::LOCAL_VARIABLE_DECLARATION {
        let mut c = statement.walk();
        if statement.children_by_field_name("declarator", &mut c).count() > 1 {
            return Err("the statement declares several variables; split it first".into());
        }
    }
    // Moved ahead of the statement's code before it: neither may have side effects the other
    // could see.
    let mut effects = false;
    walk(expr, &mut |n| effects |= SIDE_EFFECTS.contains(&n.kind()));
    let mut before_effects = false;
    walk(statement, &mut |n| {
        before_effects |= n.end_byte() <= expr.start_byte() && SIDE_EFFECTS.contains(&n.kind());
    });
    if before_effects && (effects || reads_names(expr, bytes)) {
        return Err("code before the expression in its statement has side effects (a call, `new` or an assignment) that would run after it".into());
    }
    // The name: no variable of it in the method.
    let body = enclosing_body(statement);
    let mut taken = false;
    walk(body, &mut |n| {
        taken |=
            n.kind() == kind::IDENTIFIER && n.utf8_text(bytes).ok() == Some(name) && !crate::locals::is_member_name(n);
    });
    if taken {
        return Err(format!("`{name}` already names something in this method; choose another newName"));
    }
    let expr_text = &text[expr.start_byte()..expr.end_byte()];
    let mut edits = Vec::new();
    let mut replaced = vec![(expr.start_byte(), expr.end_byte())];
    if replace_all && !effects {
        let block = statement.parent().ok_or("no block")?;
        let same = normalized(expr_text);
        walk(block, &mut |n| {
            if n.start_byte() >= statement.start_byte()
                && n.start_byte() != expr.start_byte()
                && is_expression(n)
                && n.kind() == expr.kind()
                && normalized(&text[n.start_byte()..n.end_byte()]) == same
                && !replaced.iter().any(|(s, e)| n.start_byte() < *e && *s < n.end_byte())
                && !is_written(n)
            {
                replaced.push((n.start_byte(), n.end_byte()));
            }
        });
    }
    for (s, e) in &replaced {
        edits.push(TextEdit { start: *s, end: *e, text: name.to_owned() });
    }
    let line_start = crate::syntax::line_start(text, statement.start_byte());
    let indent = &text[line_start..statement.start_byte()];
    if !indent.chars().all(|c| c == ' ' || c == '\t') {
        return Err("the statement does not start its line".into());
    }
    edits.push(TextEdit {
        start: statement.start_byte(),
        end: statement.start_byte(),
        text: format!("{type_text} {name} = {expr_text};{}{indent}", doc.eol()),
    });
    Ok(edits)
}

/// Extracts the constant expression at exactly `start..end` to `private static final
/// type_text name = …;` at the top of its class's body; with `replace_all`, every identical
/// expression of the class too.
pub fn extract_constant(
    doc: &Doc,
    start: usize,
    end: usize,
    name: &str,
    type_text: &str,
    replace_all: bool,
) -> Result<Vec<TextEdit>, String> {
    let text = doc.text();
    let bytes = text.as_bytes();
    let tree = mji_parser::parse_tree(text).ok_or("the file could not be parsed")?;
    let expr = expression_node(tree.root_node(), start, end)?;
    let expr_text = &text[expr.start_byte()..expr.end_byte()];
    if !crate::actions::inline::local::is_portable_constant(expr_text) {
        return Err("not a constant expression of literals and operators".into());
    }
    let mut body = expr;
    while !matches!(body.kind(), kind::CLASS_BODY | kind::ENUM_BODY | kind::INTERFACE_BODY) {
        body = body.parent().ok_or("the expression is not inside a class")?;
    }
    let mut taken = false;
    walk(body, &mut |n| taken |= n.kind() == kind::IDENTIFIER && n.utf8_text(bytes).ok() == Some(name));
    if taken {
        return Err(format!("`{name}` already names something in this class; choose another newName"));
    }
    let mut replaced = vec![(expr.start_byte(), expr.end_byte())];
    if replace_all {
        let same = normalized(expr_text);
        walk(body, &mut |n| {
            if n.start_byte() != expr.start_byte()
                && n.kind() == expr.kind()
                && normalized(&text[n.start_byte()..n.end_byte()]) == same
                && !replaced.iter().any(|(s, e)| n.start_byte() < *e && *s < n.end_byte())
            {
                replaced.push((n.start_byte(), n.end_byte()));
            }
        });
    }
    let mut edits: Vec<TextEdit> =
        replaced.iter().map(|(s, e)| TextEdit { start: *s, end: *e, text: name.to_owned() }).collect();
    // At the top of the body, in the indentation of its first member.
    let open = body.start_byte() + 1;
    let mut c = body.walk();
    let first = body.named_children(&mut c).next();
    let indent = first
        .map(|m| crate::syntax::indent_before(text, m.start_byte()).to_owned())
        .unwrap_or_else(|| "    ".to_owned());
    let eol = doc.eol();
    let modifiers = if body.kind() == kind::INTERFACE_BODY { "" } else { "private static final " };
    let at = if text[open..].starts_with(eol) { open + eol.len() } else { open };
    let sep = if at == open { eol } else { "" };
    edits.push(TextEdit {
        start: at,
        end: at,
        text: format!("{sep}{indent}{modifiers}{type_text} {name} = {expr_text};{eol}{eol}"),
    });
    Ok(edits)
}

/// Whether the expression reads any name (a variable whose value code before it could change).
fn reads_names(n: Node, bytes: &[u8]) -> bool {
    let mut found = false;
    walk(n, &mut |x| found |= x.kind() == kind::IDENTIFIER && x.utf8_text(bytes).is_ok());
    found
}

fn normalized(s: &str) -> String {
    s.split_whitespace().collect()
}

fn operator<'a>(n: Node, bytes: &'a [u8]) -> &'a str {
    let (Some(l), Some(r)) = (n.child_by_field_name("left"), n.child_by_field_name("right")) else { return "" };
    std::str::from_utf8(&bytes[l.end_byte()..r.start_byte()]).unwrap_or("").trim()
}

fn enclosing_body(n: Node) -> Node {
    let mut at = n;
    while let Some(p) = at.parent() {
        if matches!(
            p.kind(),
            kind::METHOD_DECLARATION | kind::CONSTRUCTOR_DECLARATION | kind::CLASS_BODY | kind::ENUM_BODY
        ) {
            return p;
        }
        at = p;
    }
    at
}

/// Whether the file declares a local with `var` (so its language level allows it).
/// The type parameters of the method or constructor around `start..end` inside the innermost
/// class body (a method further out, around a local or anonymous class, is not looked at: its
/// variables are refused as before).
fn method_tvars(doc: &Doc, start: usize, end: usize) -> Vec<String> {
    let text = doc.text();
    let Some(tree) = mji_parser::parse_tree(text) else { return Vec::new() };
    let mut out = Vec::new();
    let mut n = tree.root_node().descendant_for_byte_range(start, end);
    while let Some(x) = n {
        if matches!(x.kind(), mji_parser::kind::CLASS_BODY | mji_parser::kind::INTERFACE_BODY) {
            break;
        }
        if matches!(x.kind(), mji_parser::kind::METHOD_DECLARATION | mji_parser::kind::CONSTRUCTOR_DECLARATION)
            && let Some(tps) = x.child_by_field_name("type_parameters")
        {
            let mut c = tps.walk();
            for tp in tps.named_children(&mut c) {
                let mut c2 = tp.walk();
                let name = tp.named_children(&mut c2).find(|k| k.kind() == mji_parser::kind::TYPE_IDENTIFIER);
                if let Some(name) = name.and_then(|k| k.utf8_text(text.as_bytes()).ok()) {
                    out.push(name.to_owned());
                }
            }
        }
        n = x.parent();
    }
    out
}

pub fn uses_var(doc: &Doc) -> bool {
    let text = doc.text();
    let Some(tree) = mji_parser::parse_tree(text) else { return false };
    let mut found = false;
    walk(tree.root_node(), &mut |n| {
        found |= n.kind() == kind::LOCAL_VARIABLE_DECLARATION
            && n.child_by_field_name("type").and_then(|t| t.utf8_text(text.as_bytes()).ok()) == Some("var");
    });
    found
}

/// The bytes of the first occurrence of `needle` on `line` (the `line` + `text` form).
pub fn find_on_line(doc: &Doc, line: u32, needle: &str) -> Option<(usize, usize)> {
    let start = doc.offset(line, 1)?;
    let text = doc.src.lines.line_text(doc.text(), line);
    let i = text.find(needle.trim())?;
    Some((start + i, start + i + needle.trim().len()))
}

/// A name for the extracted value: a call's (`getName()` → `name`), else `value`.
pub fn suggested_name(doc: &Doc, start: usize, end: usize) -> String {
    let text = doc.text();
    mji_parser::parse_tree(text)
        .and_then(|t| {
            let n = t.root_node().descendant_for_byte_range(start, end)?;
            let name = n.child_by_field_name("name").filter(|_| n.kind() == kind::METHOD_INVOCATION)?;
            name.utf8_text(text.as_bytes()).ok().map(str::to_owned)
        })
        .map(|m| {
            let rest =
                m.strip_prefix("get").or_else(|| m.strip_prefix("is")).filter(|r| r.starts_with(char::is_uppercase));
            match rest {
                Some(r) => {
                    let mut c = r.chars();
                    c.next().map(|f| f.to_lowercase().collect::<String>() + c.as_str()).unwrap_or_default()
                }
                None => m,
            }
        })
        .filter(|n| crate::is_identifier(n))
        .unwrap_or_else(|| "value".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn extract(src: &str, what: &str, nth: usize, all: bool) -> Result<String, String> {
        let doc = Doc::new(Path::new("/x/A.java"), "A.java", src.as_bytes().to_vec()).expect("utf-8");
        let s = src.match_indices(what).nth(nth).expect("marker").0;
        let edits = extract_variable(&doc, s, s + what.len(), "v", "int", all)?;
        let mut e = crate::WorkspaceEdit::default();
        let mut f = doc.edit();
        f.edits = edits;
        e.add(f);
        Ok(String::from_utf8(e.plan().expect("plan").files[0].new.clone()).expect("utf8"))
    }

    #[test]
    fn extracts_before_the_statement_and_replaces_all() {
        let src = "class A {\n  int f(int a, int b) {\n    int x = (a + b) * 2;\n    return x + (a + b);\n  }\n}\n";
        let out = extract(src, "a + b", 0, true).expect("extracted");
        assert_eq!(
            out,
            "class A {\n  int f(int a, int b) {\n    int v = a + b;\n    int x = (v) * 2;\n    return x + (v);\n  }\n}\n"
        );
        let out = extract(src, "a + b", 0, false).expect("extracted");
        assert!(out.contains("return x + (a + b);"), "{out}");
    }

    #[test]
    fn refuses_what_would_run_differently() {
        let src = "class A {\n  int f(int a) {\n    if (a > 0 && g(a) > 1) return g(a);\n    while (g(a) > 0) a--;\n    int y = h(), z = g(a);\n    return a > 0 ? g(a) : 0;\n  }\n}\n";
        assert!(extract(src, "g(a)", 0, false).expect_err("&&").contains("&&"));
        assert!(extract(src, "g(a)", 1, false).expect_err("if body").contains("if"));
        assert!(extract(src, "g(a)", 2, false).expect_err("loop").contains("while"));
        assert!(extract(src, "g(a)", 4, false).expect_err("?:").contains("?:"));
        assert!(extract(src, "a >", 0, false).expect_err("not whole").contains("not one whole expression"));
        assert!(extract(src, "a > 0", 0, false).is_ok());
    }
}

#[cfg(test)]
mod cases {
    use super::{Request, run};
    use crate::tests::{check, check_refused};
    use expect_test::expect;

    #[test]
    fn an_expression_becomes_a_local_typed_by_the_binder() {
        check(
            |ctx, doc, line, _| {
                let r = Request {
                    constant: false,
                    line,
                    column: 0,
                    end_line: 0,
                    end_column: 0,
                    text: "a * b",
                    new_name: "area",
                    replace_all: false,
                };
                run(ctx, doc, &r)
            },
            "class A {\n    int f(int a, int b) {\n        $0return a * b + 1;\n    }\n}\n",
            expect![[r#"
                class A {
                    int f(int a, int b) {
                        int area = a * b;
                        return area + 1;
                    }
                }
            "#]],
        );
    }

    #[test]
    fn every_occurrence_becomes_one_constant() {
        check(
            |ctx, doc, line, _| {
                let r = Request {
                    constant: true,
                    line,
                    column: 0,
                    end_line: 0,
                    end_column: 0,
                    text: "60 * 60",
                    new_name: "HOUR",
                    replace_all: true,
                };
                run(ctx, doc, &r)
            },
            "class A {\n    int f(int h) {\n        $0return h * (60 * 60);\n    }\n\n    int g() {\n        return 2 * (60 * 60);\n    }\n}\n",
            expect![[r#"
                class A {
                    private static final int HOUR = 60 * 60;

                    int f(int h) {
                        return h * (HOUR);
                    }

                    int g() {
                        return 2 * (HOUR);
                    }
                }
            "#]],
        );
    }

    #[test]
    fn text_not_on_the_line_is_refused() {
        check_refused(
            |ctx, doc, line, _| {
                let r = Request {
                    constant: false,
                    line,
                    column: 0,
                    end_line: 0,
                    end_column: 0,
                    text: "a - b",
                    new_name: "",
                    replace_all: false,
                };
                run(ctx, doc, &r)
            },
            "class A {\n    int f(int a, int b) {\n        $0return a * b;\n    }\n}\n",
            "not extracted: `a - b` is not on line 3",
        );
    }
}
