//! The quick fixes that edit code from a diagnostic's position alone: remove an unused import
//! or local (the hints of `mji_problems::hints`), add the cast javac names, and create the
//! missing method, field or local a use needs, its types taken from javac's message (the
//! call's argument types) and from the use's context (the declared type it initializes, the
//! method it returns from, the literal assigned to it); refused when a type is unknown.

use mji_parser::kind;
use tree_sitter::Node;

use crate::syntax::line_indent;
use crate::{Doc, TextEdit};

/// The whole lines `[start, end)` of the code between bytes `a` and `b`, when nothing else is
/// on them; else just `a..b`.
fn whole_lines(text: &str, a: usize, b: usize) -> (usize, usize) {
    let ls = crate::syntax::line_start(text, a);
    let le = text[b..].find('\n').map_or(text.len(), |i| b + i + 1);
    let blank = |s: &str| s.chars().all(char::is_whitespace);
    if blank(&text[ls..a]) && blank(&text[b..le]) { (ls, le) } else { (a, b) }
}

fn parse(doc: &Doc) -> Result<tree_sitter::Tree, String> {
    mji_parser::parse_tree(doc.text()).ok_or_else(|| "the file could not be parsed".to_owned())
}

/// Removes the import declaration at byte `at` (the caller checks it is unused).
pub fn remove_import(doc: &Doc, at: usize) -> Result<Vec<TextEdit>, String> {
    let tree = parse(doc)?;
    let root = tree.root_node();
    let mut c = root.walk();
    let n = root
        .children(&mut c)
        .find(|n| n.kind() == kind::IMPORT_DECLARATION && n.start_byte() == at)
        .ok_or("no import declaration at the position")?;
    let (start, end) = whole_lines(doc.text(), n.start_byte(), n.end_byte());
    Ok(vec![TextEdit { start, end, text: String::new() }])
}

/// Removes the declaration of the local variable named at byte `at` (the caller checks it is
/// unused). Refused when the statement declares several variables, or when its initializer
/// could have a side effect (anything but literals, lambdas, `this`, and the method's own
/// parameters and earlier locals; a binary operation only over literals, without `/` or `%`).
pub fn remove_local(doc: &Doc, at: usize) -> Result<Vec<TextEdit>, String> {
    let text = doc.text();
    let bytes = text.as_bytes();
    let tree = parse(doc)?;
    let name = tree.root_node().descendant_for_byte_range(at, at).ok_or("no code at the position")?;
    let decl = name
        .parent()
        .filter(|d| d.kind() == kind::VARIABLE_DECLARATOR && d.child_by_field_name("name") == Some(name))
        .ok_or("no local variable declared at the position")?;
    let stmt = decl
        .parent()
        .filter(|s| s.kind() == kind::LOCAL_VARIABLE_DECLARATION)
        .ok_or("no local variable declared at the position")?;
    let mut c = stmt.walk();
    if stmt.children_by_field_name("declarator", &mut c).count() != 1 {
        return Err("the statement declares several variables".into());
    }
    if let Some(value) = decl.child_by_field_name("value") {
        let locals = names_before(stmt, bytes);
        if !pure(value, bytes, &locals) {
            return Err(format!(
                "its initializer `{}` may have side effects",
                value.utf8_text(bytes).unwrap_or("").split_whitespace().collect::<Vec<_>>().join(" ")
            ));
        }
    }
    let (start, end) = whole_lines(text, stmt.start_byte(), stmt.end_byte());
    Ok(vec![TextEdit { start, end, text: String::new() }])
}

/// The parameters of the method, constructor or lambda around `n` and the locals declared
/// before `n` in the blocks around it: names whose reading has no side effect.
fn names_before(n: Node, bytes: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let mut owner = n;
    while let Some(p) = owner.parent() {
        owner = p;
        if matches!(p.kind(), kind::METHOD_DECLARATION | kind::CONSTRUCTOR_DECLARATION | kind::LAMBDA_EXPRESSION) {
            break;
        }
        if p.kind() == kind::CLASS_BODY {
            return out;
        }
    }
    let name = |x: Node| x.child_by_field_name("name").and_then(|k| k.utf8_text(bytes).ok()).map(str::to_owned);
    crate::syntax::walk(owner, &mut |x| {
        let param = x.kind() == kind::FORMAL_PARAMETER && x.parent().and_then(|q| q.parent()) == Some(owner);
        let local = x.kind() == kind::VARIABLE_DECLARATOR
            && x.end_byte() <= n.start_byte()
            && x.parent().is_some_and(|d| {
                d.kind() == kind::LOCAL_VARIABLE_DECLARATION
                    && d.parent().is_some_and(|b| b.start_byte() <= n.start_byte() && n.end_byte() <= b.end_byte())
            });
        if (param || local)
            && let Some(t) = name(x)
        {
            out.push(t);
        }
    });
    out
}

/// Whether evaluating `e` cannot have a side effect (nor throw).
fn pure(e: Node, bytes: &[u8], locals: &[String]) -> bool {
    if literal(e) {
        return true;
    }
    match e.kind() {
        kind::NULL_LITERAL | kind::THIS | kind::LAMBDA_EXPRESSION => true,
        kind::IDENTIFIER => e.utf8_text(bytes).is_ok_and(|t| locals.iter().any(|l| l == t)),
        kind::PARENTHESIZED_EXPRESSION => e.named_child(0).is_some_and(|x| pure(x, bytes, locals)),
        kind::UNARY_EXPRESSION => e.child_by_field_name("operand").is_some_and(|x| literal(x)),
        kind::BINARY_EXPRESSION => {
            let op = e.child_by_field_name("operator").map(|o| o.kind());
            !matches!(op, Some("/") | Some("%"))
                && e.child_by_field_name("left").is_some_and(literal)
                && e.child_by_field_name("right").is_some_and(literal)
        }
        _ => false,
    }
}

fn literal(e: Node) -> bool {
    matches!(
        e.kind(),
        kind::DECIMAL_INTEGER_LITERAL
            | kind::HEX_INTEGER_LITERAL
            | kind::OCTAL_INTEGER_LITERAL
            | kind::BINARY_INTEGER_LITERAL
            | kind::DECIMAL_FLOATING_POINT_LITERAL
            | kind::HEX_FLOATING_POINT_LITERAL
            | kind::CHARACTER_LITERAL
            | kind::STRING_LITERAL
            | kind::TRUE
            | kind::FALSE
    )
}

/// Adds `@Override` before the method whose name is at byte `at` (after its javadoc, before
/// its other modifiers; the caller checks it overrides).
pub fn add_override(doc: &Doc, at: usize) -> Result<Vec<TextEdit>, String> {
    let text = doc.text();
    let tree = parse(doc)?;
    let name = tree.root_node().descendant_for_byte_range(at, at).ok_or("no code at the position")?;
    let m = name
        .parent()
        .filter(|m| m.kind() == kind::METHOD_DECLARATION && m.child_by_field_name("name") == Some(name))
        .ok_or("no method declared at the position")?;
    let indent = line_indent(text, m.start_byte());
    if text[..m.start_byte()].len() - text[..m.start_byte()].trim_end_matches([' ', '\t']).len() != indent.len() {
        return Err("the method does not start its line".into());
    }
    Ok(vec![TextEdit { start: m.start_byte(), end: m.start_byte(), text: format!("@Override{}{indent}", doc.eol()) }])
}

/// The expression a diagnostic at byte `at` names: the largest expression that starts there
/// (climbing while the parent expression starts at the same byte).
pub fn expression_at(doc: &Doc, at: usize) -> Option<(usize, usize)> {
    let tree = parse(doc).ok()?;
    let n = expression_node(tree.root_node(), at)?;
    Some((n.start_byte(), n.end_byte()))
}

fn expression_node(root: Node, at: usize) -> Option<Node> {
    let mut n = root.descendant_for_byte_range(at, at)?;
    if n.start_byte() != at {
        return None;
    }
    while let Some(p) = n.parent() {
        if p.start_byte() != at || !is_expression(p.kind()) {
            break;
        }
        n = p;
    }
    is_expression(n.kind()).then_some(n)
}

fn is_expression(k: &str) -> bool {
    k.ends_with("_expression")
        || k.ends_with("_literal")
        || matches!(
            k,
            kind::IDENTIFIER
                | kind::METHOD_INVOCATION
                | kind::FIELD_ACCESS
                | kind::ARRAY_ACCESS
                | kind::THIS
                | kind::TRUE
                | kind::FALSE
                | kind::CLASS_LITERAL
        )
}

/// Casts the expression starting at byte `at` to `ty` (as javac names it: a primitive or a
/// qualified type, imported when it can be).
pub fn add_cast(doc: &Doc, at: usize, ty: &str) -> Result<Vec<TextEdit>, String> {
    if !super::castable_name(ty) {
        return Err(format!("`{ty}` is not a type a cast can name here"));
    }
    let tree = parse(doc)?;
    let e = expression_node(tree.root_node(), at).ok_or("no expression at the position")?;
    let (name, import) = super::type_name(doc, ty);
    let tight = matches!(
        e.kind(),
        kind::IDENTIFIER
            | kind::METHOD_INVOCATION
            | kind::FIELD_ACCESS
            | kind::ARRAY_ACCESS
            | kind::PARENTHESIZED_EXPRESSION
            | kind::THIS
    ) || literal(e);
    let mut edits: Vec<TextEdit> = import.into_iter().collect();
    if tight {
        edits.push(TextEdit { start: e.start_byte(), end: e.start_byte(), text: format!("({name}) ") });
    } else {
        edits.push(TextEdit { start: e.start_byte(), end: e.start_byte(), text: format!("({name}) (") });
        edits.push(TextEdit { start: e.end_byte(), end: e.end_byte(), text: ")".into() });
    }
    Ok(edits)
}

/// Names the types of a javac type string (`java.util.List<java.lang.String>`), each
/// qualified name by its simple name plus its import where one is needed; refused for what
/// code cannot spell (captures, the null type, intersections).
fn spell_types(doc: &Doc, ty: &str, imports: &mut Vec<TextEdit>) -> Result<String, String> {
    if ty.contains('#') || ty.contains("<null") || ty.contains('&') || ty.is_empty() {
        return Err(format!("the type `{ty}` cannot be written in code"));
    }
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String, imports: &mut Vec<TextEdit>| {
        if word.contains('.') {
            let (name, import) = super::type_name(doc, word);
            if let Some(i) = import
                && !imports.iter().any(|e| e.text == i.text)
            {
                imports.push(i);
            }
            out.push_str(&name);
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for ch in ty.chars() {
        if ch.is_alphanumeric() || ch == '_' || ch == '$' || ch == '.' {
            word.push(ch);
        } else {
            flush(&mut word, &mut out, imports);
            out.push(ch);
        }
    }
    flush(&mut word, &mut out, imports);
    Ok(out)
}

/// Several imports inserted at one offset become one edit (in order).
fn merge_inserts(mut edits: Vec<TextEdit>) -> Vec<TextEdit> {
    edits.sort_by_key(|e| (e.start, e.text.clone()));
    let mut out: Vec<TextEdit> = Vec::new();
    for e in edits {
        match out.last_mut() {
            Some(l) if l.start == e.start && l.end == e.end && e.start == e.end => l.text.push_str(&e.text),
            _ => out.push(e),
        }
    }
    out
}

/// The member of a class body around `n` (method, field, initializer, constructor), the class
/// body, and whether the member is static. Refused outside a named class's or enum's body.
fn member_of<'t>(n: Node<'t>, bytes: &[u8]) -> Result<(Node<'t>, Node<'t>), String> {
    let mut at = n;
    while let Some(p) = at.parent() {
        if matches!(p.kind(), kind::CLASS_BODY | kind::ENUM_BODY_DECLARATIONS | kind::INTERFACE_BODY) {
            let owner =
                if p.kind() == kind::ENUM_BODY_DECLARATIONS { p.parent().and_then(|b| b.parent()) } else { p.parent() };
            return match owner.map(|o| o.kind()) {
                Some(kind::CLASS_DECLARATION | kind::ENUM_DECLARATION | kind::RECORD_DECLARATION) => Ok((at, p)),
                _ => Err("the use is not in a named class's body (an interface or anonymous class)".into()),
            };
        }
        at = p;
    }
    let _ = bytes;
    Err("the use is not inside a class".into())
}

fn is_static(member: Node, bytes: &[u8]) -> bool {
    if member.kind() == kind::STATIC_INITIALIZER {
        return true;
    }
    let mut c = member.walk();
    member.children(&mut c).any(|m| {
        m.kind() == kind::MODIFIERS && m.utf8_text(bytes).is_ok_and(|t| t.split_whitespace().any(|w| w == "static"))
    })
}

/// The type the context of expression `e` expects, as the code spells it: the declared type a
/// declaration initializes, the return type of the method it is returned from, `void` for a
/// call that is a statement of its own.
pub(crate) fn expected_type(e: Node, bytes: &[u8]) -> Result<String, String> {
    let p = e.parent().ok_or("no context")?;
    let text = |n: Node| n.utf8_text(bytes).unwrap_or("").to_owned();
    match p.kind() {
        kind::EXPRESSION_STATEMENT if e.kind() == kind::METHOD_INVOCATION => Ok("void".into()),
        kind::VARIABLE_DECLARATOR if p.child_by_field_name("value") == Some(e) => {
            if p.child_by_field_name("dimensions").is_some() {
                return Err("the declaration has array dimensions on its name".into());
            }
            let ty = p.parent().and_then(|d| d.child_by_field_name("type")).ok_or("no declared type")?;
            let t = text(ty);
            if t == "var" { Err("the declaration's type is `var`".into()) } else { Ok(t) }
        }
        kind::RETURN_STATEMENT => {
            let mut at = p;
            while let Some(q) = at.parent() {
                match q.kind() {
                    kind::LAMBDA_EXPRESSION => return Err("returned from a lambda".into()),
                    kind::METHOD_DECLARATION => {
                        let ty = q.child_by_field_name("type").ok_or("no return type")?;
                        return Ok(text(ty));
                    }
                    kind::CLASS_BODY => break,
                    _ => at = q,
                }
            }
            Err("not returned from a method".into())
        }
        kind::ASSIGNMENT_EXPRESSION if p.child_by_field_name("left") == Some(e) => {
            let op = p.child_by_field_name("operator").map(|o| o.kind());
            let right = p.child_by_field_name("right").ok_or("no value")?;
            match (op, literal_type(right, bytes)) {
                (Some("="), Some(t)) => Ok(t.to_owned()),
                _ => Err("the type of the assigned value is unknown (only a literal's is)".into()),
            }
        }
        _ => Err("the type the use expects is unknown".into()),
    }
}

fn literal_type(e: Node, bytes: &[u8]) -> Option<&'static str> {
    let t = e.utf8_text(bytes).ok()?;
    let long = t.ends_with(['l', 'L']);
    Some(match e.kind() {
        kind::DECIMAL_INTEGER_LITERAL
        | kind::HEX_INTEGER_LITERAL
        | kind::OCTAL_INTEGER_LITERAL
        | kind::BINARY_INTEGER_LITERAL => {
            if long {
                "long"
            } else {
                "int"
            }
        }
        kind::DECIMAL_FLOATING_POINT_LITERAL | kind::HEX_FLOATING_POINT_LITERAL => {
            if t.ends_with(['f', 'F']) {
                "float"
            } else {
                "double"
            }
        }
        kind::CHARACTER_LITERAL => "char",
        kind::STRING_LITERAL => "String",
        kind::TRUE | kind::FALSE => "boolean",
        _ => return None,
    })
}

/// The unqualified identifier (a call's name or a variable) javac could not resolve at `at`.
fn use_at<'t>(root: Node<'t>, at: usize, bytes: &[u8], name: &str) -> Result<Node<'t>, String> {
    let n = root.descendant_for_byte_range(at, at).ok_or("no code at the position")?;
    if n.kind() != kind::IDENTIFIER || n.utf8_text(bytes) != Ok(name) {
        return Err(format!("`{name}` is not at the position"));
    }
    Ok(n)
}

/// Creates `private [static] R name(T1 a1, …)` after the member whose code calls it, from the
/// call at byte `at` (its name, unqualified or on `this`), javac's argument types `args` and
/// the return type the call's context expects. Its body throws UnsupportedOperationException.
pub fn create_method(doc: &Doc, at: usize, name: &str, args: &[String]) -> Result<Vec<TextEdit>, String> {
    let text = doc.text();
    let bytes = text.as_bytes();
    let tree = parse(doc)?;
    let n = use_at(tree.root_node(), at, bytes, name)?;
    let call = n
        .parent()
        .filter(|c| c.kind() == kind::METHOD_INVOCATION && c.child_by_field_name("name") == Some(n))
        .ok_or("not a method call")?;
    if let Some(o) = call.child_by_field_name("object")
        && o.kind() != kind::THIS
    {
        return Err("the call is on another object or type".into());
    }
    let ret = expected_type(call, bytes)?;
    let (member, _) = member_of(call, bytes)?;
    let mut imports = Vec::new();
    // Parameter names: the argument's own when it is a plain name, else p1, p2, ….
    let arg_nodes: Vec<Node> = call
        .child_by_field_name("arguments")
        .map(|a| {
            let mut c = a.walk();
            a.named_children(&mut c).collect()
        })
        .unwrap_or_default();
    if arg_nodes.len() != args.len() {
        return Err("javac's argument types do not match the call".into());
    }
    let mut params = Vec::new();
    let mut taken = std::collections::HashSet::new();
    for (i, (a, ty)) in arg_nodes.iter().zip(args).enumerate() {
        let t = spell_types(doc, ty, &mut imports)?;
        let own = (a.kind() == kind::IDENTIFIER).then(|| a.utf8_text(bytes).unwrap_or("").to_owned());
        let pname = match own {
            Some(o) if !o.is_empty() && !taken.contains(&o) => o,
            _ => (i + 1..).map(|k| format!("p{k}")).find(|p| !taken.contains(p)).unwrap_or_default(),
        };
        taken.insert(pname.clone());
        params.push(format!("{t} {pname}"));
    }
    let eol = doc.eol();
    let indent = line_indent(text, member.start_byte());
    // One level: a top-level class's member indent, else 4 spaces.
    let unit = if indent.contains('\t') {
        "\t"
    } else if (1..=4).contains(&indent.len()) {
        indent
    } else {
        "    "
    };
    let stat = if is_static(member, bytes) { "static " } else { "" };
    let new = format!(
        "{eol}{eol}{indent}private {stat}{ret} {name}({}) {{{eol}{indent}{unit}throw new UnsupportedOperationException(\"not implemented\");{eol}{indent}}}",
        params.join(", ")
    );
    imports.push(TextEdit { start: member.end_byte(), end: member.end_byte(), text: new });
    Ok(merge_inserts(imports))
}

/// Creates `private [static] T name;` after the member whose code uses the variable at byte
/// `at`, its type from the use's context.
pub fn create_field(doc: &Doc, at: usize, name: &str) -> Result<Vec<TextEdit>, String> {
    let text = doc.text();
    let bytes = text.as_bytes();
    let tree = parse(doc)?;
    let n = use_at(tree.root_node(), at, bytes, name)?;
    let ty = expected_type(n, bytes)?;
    let (member, _) = member_of(n, bytes)?;
    let indent = line_indent(text, member.start_byte());
    let stat = if is_static(member, bytes) { "static " } else { "" };
    let eol = doc.eol();
    let new = format!("{eol}{eol}{indent}private {stat}{ty} {name};");
    Ok(vec![TextEdit { start: member.end_byte(), end: member.end_byte(), text: new }])
}

/// Turns the statement `name = literal;` at byte `at` into the declaration `T name = literal;`.
pub fn create_local(doc: &Doc, at: usize, name: &str) -> Result<Vec<TextEdit>, String> {
    let text = doc.text();
    let bytes = text.as_bytes();
    let tree = parse(doc)?;
    let n = use_at(tree.root_node(), at, bytes, name)?;
    let assign = n.parent().filter(|p| p.kind() == kind::ASSIGNMENT_EXPRESSION).ok_or("not assigned here")?;
    let stmt = assign
        .parent()
        .filter(|s| {
            s.kind() == kind::EXPRESSION_STATEMENT
                && s.parent().is_some_and(|b| matches!(b.kind(), kind::BLOCK | kind::CONSTRUCTOR_BODY))
        })
        .ok_or("the assignment is not a statement of a block")?;
    let ty = expected_type(n, bytes)?;
    Ok(vec![TextEdit { start: stmt.start_byte(), end: stmt.start_byte(), text: format!("{ty} ") }])
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn doc(src: &str) -> Doc {
        Doc::new(Path::new("/x/A.java"), "A.java", src.as_bytes().to_vec()).expect("utf-8")
    }

    fn applied(src: &str, edits: Vec<TextEdit>) -> String {
        let d = doc(src);
        let mut e = crate::WorkspaceEdit::default();
        let mut f = d.edit();
        f.edits = edits;
        e.add(f);
        String::from_utf8(e.plan().expect("plan").files[0].new.clone()).expect("utf8")
    }

    #[test]
    fn removes_only_side_effect_free_locals() {
        let src = "class A {\n  void f(int p) {\n    int a = 1;\n    int b = p;\n    int c = g();\n    int d = -1, e = 2;\n    String s = \"x\" + 1;\n    int q = 1 / 0;\n  }\n}\n";
        let at = |w: &str| src.find(w).expect("w");
        assert_eq!(applied(src, remove_local(&doc(src), at("a =")).expect("a")), src.replace("    int a = 1;\n", ""));
        assert!(remove_local(&doc(src), at("b =")).is_ok());
        assert!(remove_local(&doc(src), at("c =")).expect_err("c").contains("side effects"));
        assert!(remove_local(&doc(src), at("d =")).expect_err("d").contains("several"));
        assert!(remove_local(&doc(src), at("s =")).is_ok());
        assert!(remove_local(&doc(src), at("q =")).is_err());
    }

    #[test]
    fn casts_and_creations() {
        let src = "package p;\nclass A {\n  int f(double d, Object o) {\n    int x = d * 2;\n    String s = o;\n    long n = twice(x, s);\n    helper(o);\n    total = 5;\n    return count;\n  }\n}\n";
        let at = |w: &str| src.find(w).expect("w");
        let out = applied(src, add_cast(&doc(src), at("d * 2"), "int").expect("cast"));
        assert!(out.contains("int x = (int) (d * 2);"), "{out}");
        let out = applied(src, add_cast(&doc(src), at("o;"), "java.lang.String").expect("cast"));
        assert!(out.contains("String s = (String) o;"), "{out}");
        let args = ["int".to_owned(), "java.lang.String".to_owned()];
        let out = applied(src, create_method(&doc(src), at("twice"), "twice", &args).expect("m"));
        assert!(out.contains("\n\n  private long twice(int x, String s) {\n    throw new"), "{out}");
        let out = applied(
            src,
            create_method(&doc(src), at("helper"), "helper", &["java.util.List<java.lang.Object>".into()]).expect("m"),
        );
        assert!(out.contains("import java.util.List;") && out.contains("private void helper(List<Object> o)"), "{out}");
        let out = applied(src, create_field(&doc(src), at("count"), "count").expect("f"));
        assert!(out.contains("  }\n\n  private int count;\n}"), "{out}");
        let out = applied(src, create_local(&doc(src), at("total"), "total").expect("l"));
        assert!(out.contains("    int total = 5;"), "{out}");
        assert!(create_field(&doc(src), at("o;"), "o").is_ok());
        assert!(create_method(&doc(src), at("twice"), "twice", &["int".into()]).is_err());
    }
}
