//! Inline: a local variable's uses replaced by its initializer and its declaration removed
//! (from the syntax alone, as [`crate::locals`] finds them), and the text a constant's
//! initializer takes at each use the reference index found. Refused, with the reason, when
//! the result could mean something else: an initializer with side effects and several uses,
//! a variable written after its declaration, an initializer whose variables change before a
//! use, a lambda or array initializer (they need the declaration's type).
//!
//! The declared type is kept where it decides what code means: a primitive or boxed type
//! (`long n = i * j` used as `f(n)` becomes `f((long) (i * j))`, so overloads and arithmetic
//! see the same type) and `null`.

use mji_parser::kind;
use tree_sitter::Node;

use crate::ctx::Outcome;
use crate::locals::{SIDE_EFFECTS, collect, declaration_of, is_member_name, is_written};
use crate::syntax::walk;
use crate::{Doc, TextEdit};

const PRIMARY: &[&str] = &[
    kind::IDENTIFIER,
    kind::DECIMAL_INTEGER_LITERAL,
    kind::HEX_INTEGER_LITERAL,
    kind::OCTAL_INTEGER_LITERAL,
    kind::BINARY_INTEGER_LITERAL,
    kind::DECIMAL_FLOATING_POINT_LITERAL,
    kind::HEX_FLOATING_POINT_LITERAL,
    "true",
    "false",
    kind::CHARACTER_LITERAL,
    kind::STRING_LITERAL,
    kind::NULL_LITERAL,
    kind::METHOD_INVOCATION,
    kind::FIELD_ACCESS,
    kind::ARRAY_ACCESS,
    kind::PARENTHESIZED_EXPRESSION,
    kind::OBJECT_CREATION_EXPRESSION,
    "this",
    kind::CLASS_LITERAL,
];

const BOXED: &[&str] = &["Byte", "Short", "Character", "Integer", "Long", "Float", "Double", "Boolean"];
const PRIMITIVES: &[&str] = &["byte", "short", "char", "int", "long", "float", "double", "boolean"];

/// Inlines the local variable named at byte `at` (its declaration or a use), summed up by its
/// name and how many uses took the initializer.
pub fn inline_local(doc: &Doc, at: usize) -> Result<Outcome, String> {
    let text = doc.text();
    let bytes = text.as_bytes();
    let tree = mji_parser::parse_tree(text).ok_or("the file could not be parsed")?;
    let ident = tree.root_node().descendant_for_byte_range(at, at).ok_or("no code at the position")?;
    if ident.kind() != kind::IDENTIFIER || is_member_name(ident) {
        return Err("no local variable named at the position".into());
    }
    let name = ident.utf8_text(bytes).map_err(|e| e.to_string())?.to_owned();
    let (decl_name, scope, what) =
        declaration_of(ident, &name, bytes).ok_or_else(|| format!("`{name}` is not a local variable here"))?;
    if what != "local variable" {
        return Err(format!("`{name}` is a {what}; only local variables are inlined"));
    }
    let declarator = decl_name.parent().filter(|d| d.kind() == kind::VARIABLE_DECLARATOR).ok_or_else(|| {
        format!("`{name}` is declared by a for-each loop, a resource or a pattern, not with an initializer")
    })?;
    let statement = declarator
        .parent()
        .filter(|s| s.kind() == kind::LOCAL_VARIABLE_DECLARATION)
        .ok_or_else(|| format!("`{name}` is declared in a for loop's header; inline it there by hand"))?;
    let init = declarator.child_by_field_name("value").ok_or_else(|| format!("`{name}` has no initializer"))?;
    if matches!(init.kind(), kind::ARRAY_INITIALIZER | kind::LAMBDA_EXPRESSION | kind::METHOD_REFERENCE) {
        return Err(format!("`{name}`'s initializer ({}) needs the declared type", init.kind().replace('_', " ")));
    }
    if declarator.child_by_field_name("dimensions").is_some() {
        return Err(format!("`{name}` declares array dimensions after its name"));
    }
    let declared = statement.child_by_field_name("type").and_then(|t| t.utf8_text(bytes).ok()).unwrap_or("");
    let mut uses: Vec<Node> = Vec::new();
    let mut unused = Vec::new();
    collect(scope, &name, "", decl_name.end_byte(), bytes, &mut uses, &mut unused);
    for u in &uses {
        if is_written(*u) {
            return Err(format!(
                "`{name}` is written at line {}; only a variable assigned once is inlined",
                line_of(*u)
            ));
        }
    }
    let mut effects = false;
    let mut reads: Vec<String> = Vec::new();
    walk(init, &mut |n| {
        effects |= SIDE_EFFECTS.contains(&n.kind());
        if n.kind() == kind::IDENTIFIER
            && !is_member_name(n)
            && let Ok(t) = n.utf8_text(bytes)
        {
            reads.push(t.to_owned());
        }
    });
    if effects && uses.len() != 1 {
        return Err(format!(
            "the initializer of `{name}` has side effects (a call, `new` or an assignment) and {} uses; it would run {} times",
            uses.len(),
            uses.len()
        ));
    }
    // A variable the initializer reads, written after the declaration: a use would see the
    // new value (or a lambda would capture a variable no longer effectively final).
    let mut changed = None;
    walk(scope, &mut |n| {
        if n.start_byte() >= statement.end_byte()
            && n.kind() == kind::IDENTIFIER
            && is_written(n)
            && let Ok(t) = n.utf8_text(bytes)
            && reads.iter().any(|r| r == t)
        {
            changed.get_or_insert((t.to_owned(), line_of(n)));
        }
    });
    if let Some((v, line)) = changed {
        return Err(format!("`{v}`, read by the initializer of `{name}`, is written at line {line}"));
    }
    let init_text = &text[init.start_byte()..init.end_byte()];
    let mut edits = Vec::new();
    for u in &uses {
        let value = value_for(init, init_text, declared, *u);
        edits.push(TextEdit { start: u.start_byte(), end: u.end_byte(), text: value });
    }
    // The declaration: the whole statement, or this declarator and its comma.
    let mut c = statement.walk();
    let declarators: Vec<Node> = statement.children_by_field_name("declarator", &mut c).collect();
    if declarators.len() == 1 {
        let (s, e) = crate::delete::whole_lines(text, statement.start_byte(), statement.end_byte());
        edits.push(TextEdit { start: s, end: e, text: String::new() });
    } else {
        let i = declarators.iter().position(|d| *d == declarator).unwrap_or(0);
        let (s, e) = if i + 1 < declarators.len() {
            (declarator.start_byte(), declarators[i + 1].start_byte())
        } else {
            (declarators[i - 1].end_byte(), declarator.end_byte())
        };
        edits.push(TextEdit { start: s, end: e, text: String::new() });
    }
    let n = uses.len();
    Ok(Outcome::in_doc(doc, edits, format!("inline local variable {name}: {n} use{}", if n == 1 { "" } else { "s" })))
}

/// The text a use takes: the initializer, parenthesized where an operator around the use
/// would bind into it, cast to the declared type where that type decides the meaning.
pub fn value_for(init: Node, init_text: &str, declared: &str, use_: Node) -> String {
    let primary = PRIMARY.contains(&init.kind());
    let cast = needs_cast(init, init_text, declared);
    if cast {
        let inner =
            if primary && init.kind() != kind::NULL_LITERAL { init_text.to_owned() } else { format!("({init_text})") };
        let inner = if init.kind() == kind::NULL_LITERAL { init_text.to_owned() } else { inner };
        let v = format!("({declared}) {inner}");
        return if stands_alone(use_) { v } else { format!("({v})") };
    }
    if primary || stands_alone(use_) { init_text.to_owned() } else { format!("({init_text})") }
}

fn needs_cast(init: Node, init_text: &str, declared: &str) -> bool {
    if init.kind() == kind::NULL_LITERAL {
        return declared != "var";
    }
    if !PRIMITIVES.contains(&declared) && !BOXED.contains(&declared) {
        return false;
    }
    let plain_int = init.kind() == kind::DECIMAL_INTEGER_LITERAL && !init_text.ends_with(['l', 'L']);
    // Binary numeric promotion makes arithmetic at least an int: assigned to an int, it is one.
    let arithmetic = init.kind() == kind::BINARY_EXPRESSION
        && ["+", "-", "*", "/", "%", "<<", ">>", ">>>", "&", "|", "^"]
            .iter()
            .any(|op| operator_of(init, init_text) == *op);
    let plain_double =
        init.kind() == kind::DECIMAL_FLOATING_POINT_LITERAL && !init_text.ends_with(['f', 'F', 'd', 'D']);
    !match declared {
        "int" => plain_int || arithmetic,
        "long" => init.kind() == kind::DECIMAL_INTEGER_LITERAL && init_text.ends_with(['l', 'L']),
        "double" => plain_double,
        "boolean" => true,
        "char" => init.kind() == kind::CHARACTER_LITERAL,
        "Boolean" => matches!(init.kind(), "true" | "false"),
        _ => false,
    }
}

/// The operator of a binary expression whose text is `text`.
fn operator_of<'a>(n: Node, text: &'a str) -> &'a str {
    let (Some(l), Some(r)) = (n.child_by_field_name("left"), n.child_by_field_name("right")) else { return "" };
    let base = n.start_byte();
    text.get(l.end_byte() - base..r.start_byte() - base).unwrap_or("").trim()
}

/// Whether an expression put at `n` needs no parentheses: it is a whole argument, initializer,
/// returned value, statement or the right side of an assignment.
fn stands_alone(n: Node) -> bool {
    let Some(p) = n.parent() else { return true };
    match p.kind() {
        kind::ARGUMENT_LIST | kind::PARENTHESIZED_EXPRESSION | kind::EXPRESSION_STATEMENT | kind::ARRAY_INITIALIZER => {
            true
        }
        kind::VARIABLE_DECLARATOR => p.child_by_field_name("value") == Some(n),
        kind::RETURN_STATEMENT | kind::YIELD_STATEMENT | kind::THROW_STATEMENT => true,
        kind::ASSIGNMENT_EXPRESSION => p.child_by_field_name("right") == Some(n),
        _ => false,
    }
}

fn line_of(n: Node) -> u32 {
    n.start_position().row as u32 + 1
}

/// A constant's value at one use: the use's bytes (with its qualifier, `Util.SIZE`) and the
/// text that replaces them. `init` is the constant's initializer, `declared` its type; `None`
/// when no name of the constant is at `at`.
pub fn constant_use(doc: &Doc, at: usize, init: &str, declared: &str) -> Option<TextEdit> {
    let text = doc.text();
    let tree = mji_parser::parse_tree(text)?;
    let ident = tree.root_node().descendant_for_byte_range(at, at)?;
    if ident.kind() != kind::IDENTIFIER {
        return None;
    }
    let whole = match ident.parent() {
        Some(p) if p.kind() == kind::FIELD_ACCESS && p.child_by_field_name("field") == Some(ident) => p,
        _ => ident,
    };
    let init_tree = mji_parser::parse_tree(&format!("class X {{ Object x = {init}; }}"))?;
    let mut value = None;
    walk(init_tree.root_node(), &mut |n| {
        if value.is_none() && n.kind() == kind::VARIABLE_DECLARATOR {
            value = n.child_by_field_name("value");
        }
    });
    let v = value?;
    Some(TextEdit { start: whole.start_byte(), end: whole.end_byte(), text: value_for(v, init, declared, whole) })
}

/// A constant's initializer and type: the `static final` field `name` whose declaration holds
/// `line` (an interface's fields are constants too), declared alone, with an initializer of
/// literals and operators.
pub fn constant_decl(doc: &Doc, name: &str, line: u32) -> Result<(String, String), String> {
    let text = doc.text();
    let bytes = text.as_bytes();
    let tree = mji_parser::parse_tree(text).ok_or("the file could not be parsed")?;
    let mut found = None;
    walk(tree.root_node(), &mut |n| {
        if matches!(n.kind(), kind::FIELD_DECLARATION | kind::CONSTANT_DECLARATION)
            && (n.start_position().row as u32) < line
            && line <= n.end_position().row as u32 + 1
        {
            let mut c = n.walk();
            if n.children_by_field_name("declarator", &mut c)
                .any(|d| d.child_by_field_name("name").and_then(|x| x.utf8_text(bytes).ok()) == Some(name))
            {
                found = Some(n);
            }
        }
    });
    let decl = found.ok_or_else(|| format!("no field {name} declared at line {line}"))?;
    let mut c = decl.walk();
    let declarators: Vec<Node> = decl.children_by_field_name("declarator", &mut c).collect();
    if declarators.len() != 1 {
        return Err(format!("{name} is declared together with other fields; split the declaration first"));
    }
    let modifiers = {
        let mut c = decl.walk();
        decl.children(&mut c).find(|m| m.kind() == kind::MODIFIERS).and_then(|m| m.utf8_text(bytes).ok()).unwrap_or("")
    };
    let words: Vec<&str> = modifiers.split_whitespace().collect();
    let interface = decl.kind() == kind::CONSTANT_DECLARATION
        || decl.parent().is_some_and(|b| b.kind() == kind::INTERFACE_BODY || b.kind() == kind::ANNOTATION_TYPE_BODY);
    if !(interface || words.contains(&"static") && words.contains(&"final")) {
        return Err(format!("{name} is not a constant (static final); only constants and local variables are inlined"));
    }
    let init = declarators[0].child_by_field_name("value").ok_or_else(|| format!("{name} has no initializer"))?;
    let init_text = init.utf8_text(bytes).map_err(|e| e.to_string())?.to_owned();
    if !is_portable_constant(&init_text) {
        return Err(format!(
            "the value of {name} (`{init_text}`) names other declarations or calls code; only a value of literals and operators is inlined"
        ));
    }
    let ty = decl.child_by_field_name("type").and_then(|t| t.utf8_text(bytes).ok()).unwrap_or("").to_owned();
    Ok((init_text, ty))
}

/// Whether a constant's initializer can stand anywhere: literals and operators only (no name
/// that could mean something else at a use, no call).
pub fn is_portable_constant(init: &str) -> bool {
    let src = format!("class X {{ Object x = {init}; }}");
    let Some(tree) = mji_parser::parse_tree(&src) else { return false };
    let mut ok = !tree.root_node().has_error();
    walk(tree.root_node(), &mut |n| {
        let name = n.kind() == kind::IDENTIFIER && !matches!(n.utf8_text(src.as_bytes()), Ok("X" | "x"));
        ok &= !name && !SIDE_EFFECTS.contains(&n.kind());
    });
    ok
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn inline(src: &str, marker: &str) -> Result<String, String> {
        let doc = Doc::new(Path::new("/x/A.java"), "A.java", src.as_bytes().to_vec()).expect("utf-8");
        let r = inline_local(&doc, src.find(marker).expect("marker"))?;
        Ok(String::from_utf8(r.edit.plan().expect("plan").files[0].new.clone()).expect("utf8"))
    }

    #[test]
    fn inlines_with_parentheses_and_casts() {
        let src = "class A {\n  int f(int a, int b) {\n    int s = a + b;\n    String t = \"x\";\n    return s * 2 + g(s) + t.length();\n  }\n}\n";
        let out = inline(src, "s = a").expect("inlined");
        assert!(out.contains("    return (a + b) * 2 + g(a + b) + t.length();"), "{out}");
        assert!(!out.contains("int s"), "{out}");
        let out = inline(src, "t.length").expect("inlined");
        assert!(out.contains("\"x\".length()") && !out.contains("String t"), "{out}");
    }

    #[test]
    fn refuses_what_would_change_meaning() {
        let src = "class A {\n  void f() {\n    int n = next();\n    use(n, n);\n    int m = 1;\n    m++;\n    int k = m;\n    int j = 2, q = 3;\n    use(j, q);\n  }\n}\n";
        assert!(inline(src, "n = next").expect_err("effects").contains("side effects"));
        assert!(inline(src, "m = 1").expect_err("written").contains("written at line 6"));
        assert!(inline(src, "k = m").is_ok());
        let out = inline(src, "j = 2").expect("one declarator of two");
        assert!(out.contains("    int q = 3;\n    use(2, q);"), "{out}");
        let src = "class A {\n  void f(int x) {\n    int y = x;\n    x = 2;\n    use(y);\n  }\n}\n";
        assert!(inline(src, "y = x").expect_err("changed").contains("`x`"));
        assert!(inline(src, "x;").expect_err("parameter").contains("parameter"));
    }

    #[test]
    fn constants_take_their_value_with_the_qualifier() {
        assert!(is_portable_constant("10 * 2") && is_portable_constant("\"a\" + 'b'"));
        assert!(!is_portable_constant("OTHER + 1") && !is_portable_constant("compute()"));
        let src = "class B {\n  int f() { return Util.SIZE * 2; }\n}\n";
        let doc = Doc::new(Path::new("/x/B.java"), "B.java", src.as_bytes().to_vec()).expect("utf-8");
        let e = constant_use(&doc, src.find("SIZE").expect("m"), "4 + 6", "int").expect("a use");
        assert_eq!(&src[e.start..e.end], "Util.SIZE");
        assert_eq!(e.text, "(4 + 6)");
        let e = constant_use(&doc, src.find("SIZE").expect("m"), "c", "long").expect("a use");
        assert_eq!(e.text, "((long) c)");
    }
}
