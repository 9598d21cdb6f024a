//! Where a quick fix is offered: the file's tree, a statement's whole lines, the member
//! around a use, and the type a use's context expects (the declared type it initializes, the
//! method it returns from, the literal assigned to it).

use mji_parser::kind;
use tree_sitter::Node;

use crate::Doc;

/// The whole lines `[start, end)` of the code between bytes `a` and `b`, when nothing else is
/// on them; else just `a..b`.
pub(super) fn whole_lines(text: &str, a: usize, b: usize) -> (usize, usize) {
    let ls = crate::syntax::line_start(text, a);
    let le = text[b..].find('\n').map_or(text.len(), |i| b + i + 1);
    let blank = |s: &str| s.chars().all(char::is_whitespace);
    if blank(&text[ls..a]) && blank(&text[b..le]) { (ls, le) } else { (a, b) }
}

pub(super) fn parse(doc: &Doc) -> Result<tree_sitter::Tree, String> {
    mji_parser::parse_tree(doc.text()).ok_or_else(|| "the file could not be parsed".to_owned())
}

pub(super) fn literal(e: Node) -> bool {
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

/// The member of a class body around `n` (method, field, initializer, constructor), the class
/// body, and whether the member is static. Refused outside a named class's or enum's body.
pub(super) fn member_of<'t>(n: Node<'t>, bytes: &[u8]) -> Result<(Node<'t>, Node<'t>), String> {
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

pub(super) fn is_static(member: Node, bytes: &[u8]) -> bool {
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

pub(super) fn literal_type(e: Node, bytes: &[u8]) -> Option<&'static str> {
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
pub(super) fn use_at<'t>(root: Node<'t>, at: usize, bytes: &[u8], name: &str) -> Result<Node<'t>, String> {
    let n = root.descendant_for_byte_range(at, at).ok_or("no code at the position")?;
    if n.kind() != kind::IDENTIFIER || n.utf8_text(bytes) != Ok(name) {
        return Err(format!("`{name}` is not at the position"));
    }
    Ok(n)
}
