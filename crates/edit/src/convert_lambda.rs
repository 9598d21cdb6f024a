//! `convert`'s anonymous class → lambda, the syntax half: `new I() { R m(P p) { … } }` becomes
//! `(P p) -> …` only where the syntax shows nothing that would change meaning — no arguments,
//! one method and no other member, no `this`/`super`, a method that is not generic or
//! synchronized, no name the lambda declares that a local of the enclosing code already has
//! (a lambda shares its enclosing scope), and a context that gives the lambda the same target
//! type (a declaration or cast of the same type, a `return` of a method declaring it, a call's
//! argument or an assignment: those the caller checks with the binder). The parameters keep
//! their declared types, so a target type other than the anonymous class's fails to compile
//! rather than changing meaning. What the binder knows — that the type is a functional
//! interface, that no name in the body meant an inherited member — the caller checks from
//! [`Anonymous`]'s names.

use mji_parser::kind;
use tree_sitter::Node;

use crate::locals::{declaration_of, in_nested_code, is_member_name};
use crate::syntax::{indent_before, walk};
use crate::{Doc, TextEdit};

/// Where the anonymous class stands, as its target type depends on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Context {
    /// A variable or field declared, or a cast, to this type text.
    Declared(String),
    /// The value a method declaring this return type returns.
    Returned(String),
    /// Argument `index` of a call whose name (a method's, or the class a `new` creates) is at
    /// `name` bytes.
    Argument { name: (usize, usize), index: usize, ctor: bool },
    /// The value assigned to the expression at these bytes.
    Assigned(usize, usize),
}

/// An anonymous class that can become a lambda, as far as the syntax tells.
#[derive(Debug, Clone)]
pub struct Anonymous {
    /// The creation expression's bytes.
    pub start: usize,
    pub end: usize,
    /// The created type as written, without type arguments (`Comparator`, `Map.Entry`).
    pub type_name: String,
    /// As written, with its type arguments (`Comparator<String>`).
    pub type_text: String,
    pub method: String,
    pub arity: usize,
    /// Simple names the body uses that are not its own locals: unqualified calls, variables and
    /// type names — each meant the anonymous class's inherited member if it has one.
    pub names: Vec<String>,
    pub context: Context,
    lambda: String,
}

fn text<'a>(n: Node, src: &'a str) -> &'a str {
    n.utf8_text(src.as_bytes()).unwrap_or("")
}

/// The anonymous class created on `line` (the first whose `new` is there; at `column` when
/// given, the innermost around it), judged.
pub fn anonymous_at(doc: &Doc, line: u32, at: Option<usize>) -> Result<Anonymous, String> {
    let src = doc.text();
    let tree = mji_parser::parse_tree(src).ok_or("the file does not parse")?;
    let row = line.saturating_sub(1) as usize;
    let mut found: Option<Node> = None;
    walk(tree.root_node(), &mut |n| {
        let anonymous =
            n.kind() == kind::OBJECT_CREATION_EXPRESSION && last(n).is_some_and(|b| b.kind() == kind::CLASS_BODY);
        if !anonymous {
            return;
        }
        let fits = match at {
            Some(o) => n.start_byte() <= o && o < n.end_byte(),
            None => n.start_position().row == row && found.is_none(),
        };
        if fits {
            found = Some(n);
        }
    });
    let new = found.ok_or_else(|| format!("no anonymous class is created on line {line}"))?;
    judge(new, src)
}

/// Whether an anonymous class is created on `line`.
pub fn is_anonymous_at(doc: &Doc, line: u32) -> bool {
    let Some(tree) = mji_parser::parse_tree(doc.text()) else { return false };
    let mut found = false;
    walk(tree.root_node(), &mut |n| {
        found |= n.kind() == kind::OBJECT_CREATION_EXPRESSION
            && n.start_position().row + 1 == line as usize
            && last(n).is_some_and(|b| b.kind() == kind::CLASS_BODY);
    });
    found
}

fn last(n: Node) -> Option<Node> {
    n.named_child((n.named_child_count() as u32).saturating_sub(1))
}

fn judge(new: Node, src: &str) -> Result<Anonymous, String> {
    let bytes = src.as_bytes();
    let line = new.start_position().row + 1;
    let no = |why: String| format!("the anonymous class at line {line} stays: {why}");
    let ty = new.child_by_field_name("type").ok_or_else(|| no("no type".into()))?;
    let body = last(new).ok_or_else(|| no("no body".into()))?;
    if new.child_by_field_name("arguments").is_some_and(|a| a.named_child_count() > 0) {
        return Err(no("it passes constructor arguments (a class, not an interface)".into()));
    }
    if new.named_child(0).is_some_and(|x| x != ty && x.kind() != kind::TYPE_ARGUMENTS) {
        return Err(no("it is created on an outer instance".into()));
    }
    let type_text = text(ty, src).to_owned();
    let type_name = match ty.kind() {
        kind::GENERIC_TYPE => ty.named_child(0).map(|t| text(t, src)).unwrap_or("").to_owned(),
        _ => type_text.clone(),
    };
    // One method, nothing else.
    let mut c = body.walk();
    let members: Vec<Node> =
        body.named_children(&mut c).filter(|m| !matches!(m.kind(), kind::LINE_COMMENT | kind::BLOCK_COMMENT)).collect();
    let [m] = members.as_slice() else {
        return Err(no(format!("its body declares {} members; a lambda is one method", members.len())));
    };
    if m.kind() != kind::METHOD_DECLARATION {
        return Err(no("its body declares a field, an initializer or a class, not one method".into()));
    }
    if m.child_by_field_name("type_parameters").is_some() {
        return Err(no("its method is generic".into()));
    }
    let mods = {
        let mut c = m.walk();
        m.named_children(&mut c).find(|x| x.kind() == kind::MODIFIERS).map(|x| text(x, src)).unwrap_or("")
    };
    if mods.split_whitespace().any(|w| w == "synchronized" || w == "strictfp") {
        return Err(no("its method is synchronized or strictfp".into()));
    }
    let m_body = m.child_by_field_name("body").ok_or_else(|| no("its method has no body".into()))?;
    let method = m.child_by_field_name("name").map(|n| text(n, src)).unwrap_or("").to_owned();
    let ps = m.child_by_field_name("parameters").ok_or_else(|| no("no parameters".into()))?;
    let mut c = ps.walk();
    let params: Vec<Node> = ps
        .named_children(&mut c)
        .filter(|p| matches!(p.kind(), kind::FORMAL_PARAMETER | kind::SPREAD_PARAMETER | kind::RECEIVER_PARAMETER))
        .collect();
    if params.iter().any(|p| p.kind() == kind::RECEIVER_PARAMETER) {
        return Err(no("its method declares a receiver parameter".into()));
    }
    // `this`, `super`; the names the method declares; the names it uses.
    let mut why: Option<String> = None;
    let mut declared: Vec<(String, usize)> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    walk(*m, &mut |n| {
        if why.is_some() {
            return;
        }
        let nested = in_nested_code(n, m_body) && in_class(n, m_body);
        match n.kind() {
            kind::THIS | kind::SUPER if !nested => {
                why = Some(format!("its method uses `{}` (line {})", n.kind(), n.start_position().row + 1));
            }
            kind::TYPE_IDENTIFIER => names.push(text(n, src).to_owned()),
            kind::IDENTIFIER => {
                let t = text(n, src);
                let p = n.parent();
                let declares = p.is_some_and(|p| {
                    (p.child_by_field_name("name") == Some(n)
                        && matches!(
                            p.kind(),
                            kind::VARIABLE_DECLARATOR
                                | kind::FORMAL_PARAMETER
                                | kind::CATCH_FORMAL_PARAMETER
                                | kind::RESOURCE
                                | kind::ENHANCED_FOR_STATEMENT
                        ))
                        || p.kind() == kind::INFERRED_PARAMETERS
                        || (p.kind() == kind::LAMBDA_EXPRESSION && p.child_by_field_name("parameters") == Some(n))
                });
                if declares {
                    if !nested {
                        declared.push((t.to_owned(), n.start_position().row + 1));
                    }
                    return;
                }
                let call = p.is_some_and(|p| {
                    p.kind() == kind::METHOD_INVOCATION
                        && p.child_by_field_name("name") == Some(n)
                        && p.child_by_field_name("object").is_none()
                });
                if call
                    || (!is_member_name(n)
                        && declaration_of(n, t, bytes).is_none_or(|d| d.0.start_byte() < m.start_byte()))
                {
                    names.push(t.to_owned());
                }
            }
            _ => {}
        }
    });
    if let Some(w) = why {
        return Err(no(w));
    }
    if m.child_by_field_name("name").is_some_and(|n| names.iter().any(|x| x == text(n, src))) {
        return Err(no("its method calls itself".into()));
    }
    // A lambda's names are in the enclosing scope: none may be a local there.
    for (d, at) in &declared {
        if declaration_of(new, d, bytes).is_some() {
            return Err(no(format!("`{d}` (line {at}) would redeclare a variable of the enclosing code")));
        }
    }
    names.sort();
    names.dedup();
    let context = context(new, src).map_err(no)?;
    // The lambda.
    let plist: Vec<&str> = params.iter().map(|p| text(*p, src)).collect();
    let head = format!("({}) -> ", plist.join(", "));
    let mut c = m_body.walk();
    let stmts: Vec<Node> = m_body.named_children(&mut c).collect();
    let void = m.child_by_field_name("type").is_some_and(|t| t.kind() == kind::VOID_TYPE);
    let lambda = match stmts.as_slice() {
        [s] if s.kind() == kind::RETURN_STATEMENT && s.named_child(0).is_some() => {
            format!("{head}{}", s.named_child(0).map(|e| text(e, src)).unwrap_or(""))
        }
        [s] if void
            && s.kind() == kind::EXPRESSION_STATEMENT
            && s.named_child(0).is_some_and(|e| {
                matches!(
                    e.kind(),
                    kind::METHOD_INVOCATION
                        | kind::OBJECT_CREATION_EXPRESSION
                        | kind::ASSIGNMENT_EXPRESSION
                        | kind::UPDATE_EXPRESSION
                )
            }) =>
        {
            format!("{head}{}", s.named_child(0).map(|e| text(e, src)).unwrap_or(""))
        }
        _ => format!(
            "{head}{}",
            dedent(src, m_body, indent_before(src, m.start_byte()).len(), indent_before(src, new.start_byte()).len())
        ),
    };
    Ok(Anonymous {
        start: new.start_byte(),
        end: new.end_byte(),
        type_name,
        type_text,
        method,
        arity: params.len(),
        names,
        context,
        lambda,
    })
}

/// Whether `n` is inside a class body below `top` (not merely a lambda).
fn in_class(n: Node, top: Node) -> bool {
    let mut x = n;
    while x != top {
        if x.kind() == kind::CLASS_BODY {
            return true;
        }
        match x.parent() {
            Some(p) => x = p,
            None => return false,
        }
    }
    false
}

fn context(new: Node, src: &str) -> Result<Context, String> {
    let p = new.parent().ok_or("it stands nowhere")?;
    match p.kind() {
        kind::VARIABLE_DECLARATOR if p.child_by_field_name("value") == Some(new) => {
            let holder = p.parent().ok_or("no declaration")?;
            let ty = holder.child_by_field_name("type").map(|t| text(t, src)).unwrap_or("");
            if p.child_by_field_name("dimensions").is_some() || ty.is_empty() {
                return Err("its variable's type is not written in one place".into());
            }
            if ty == "var" {
                return Err("it initializes a `var` (a lambda needs a target type)".into());
            }
            Ok(Context::Declared(ty.to_owned()))
        }
        kind::CAST_EXPRESSION => {
            let ty = p.child_by_field_name("type").map(|t| text(t, src)).unwrap_or("");
            let mut c = p.walk();
            if p.children_by_field_name("type", &mut c).count() != 1 {
                return Err("it is cast to an intersection type".into());
            }
            Ok(Context::Declared(ty.to_owned()))
        }
        kind::RETURN_STATEMENT => {
            let mut x = p;
            while let Some(up) = x.parent() {
                match up.kind() {
                    kind::METHOD_DECLARATION => {
                        let ty = up.child_by_field_name("type").map(|t| text(t, src)).unwrap_or("");
                        if up.child_by_field_name("dimensions").is_some() {
                            return Err("its method's return type has dimensions after the parameters".into());
                        }
                        return Ok(Context::Returned(ty.to_owned()));
                    }
                    kind::LAMBDA_EXPRESSION | kind::CLASS_BODY => break,
                    _ => x = up,
                }
            }
            Err("it is returned from a lambda (its target type is inferred)".into())
        }
        kind::ARGUMENT_LIST => {
            let call = p.parent().ok_or("no call")?;
            let mut c = p.walk();
            let index = p.named_children(&mut c).position(|a| a == new).ok_or("not an argument")?;
            let (name, ctor) = match call.kind() {
                kind::METHOD_INVOCATION => (call.child_by_field_name("name"), false),
                kind::OBJECT_CREATION_EXPRESSION if last(call).is_some_and(|b| b.kind() != kind::CLASS_BODY) => {
                    (call.child_by_field_name("type"), true)
                }
                _ => (None, false),
            };
            let name = name.ok_or("it is an argument of a this(…)/super(…) call or an anonymous class's")?;
            Ok(Context::Argument { name: (name.start_byte(), name.end_byte()), index, ctor })
        }
        kind::ASSIGNMENT_EXPRESSION
            if p.child_by_field_name("right") == Some(new)
                && p.child_by_field_name("operator").is_some_and(|o| text(o, src) == "=") =>
        {
            let l = p.child_by_field_name("left").ok_or("no left side")?;
            Ok(Context::Assigned(l.start_byte(), l.end_byte()))
        }
        other => Err(format!("it is used as {} (a lambda there would lose its target type)", other.replace('_', " "))),
    }
}

/// The block's text with its lines after the first moved left by the method's indentation
/// over the `new`'s (a text block's lines as they are).
fn dedent(src: &str, block: Node, method: usize, new: usize) -> String {
    let t = text(block, src);
    let by = method.saturating_sub(new);
    if by == 0 || t.contains("\"\"\"") {
        return t.to_owned();
    }
    let mut out = String::new();
    for (i, l) in t.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
            let ws = l.chars().take(by).take_while(|c| *c == ' ' || *c == '\t').count();
            out.push_str(&l[ws..]);
        } else {
            out.push_str(l);
        }
    }
    out
}

/// The edit replacing the anonymous class by its lambda.
pub fn to_lambda(a: &Anonymous) -> TextEdit {
    TextEdit { start: a.start, end: a.end, text: a.lambda.clone() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn doc(s: &str) -> Doc {
        Doc::new(Path::new("A.java"), "A.java", s.as_bytes().to_vec()).expect("utf8")
    }

    fn convert(src: &str, line: u32) -> Result<(String, Anonymous), String> {
        let d = doc(src);
        let a = anonymous_at(&d, line, None)?;
        let e = to_lambda(&a);
        let mut out = src.to_owned();
        out.replace_range(e.start..e.end, &e.text);
        Ok((out, a))
    }

    #[test]
    fn one_method_without_this_becomes_a_lambda() {
        let src = "class A {\n  void f(java.util.List<String> xs) {\n    java.util.Comparator<String> c = new java.util.Comparator<String>() {\n      @Override\n      public int compare(String a, String b) {\n        return a.length() - b.length();\n      }\n    };\n    Runnable r = new Runnable() {\n      public void run() {\n        int n = xs.size();\n        System.out.println(n);\n      }\n    };\n  }\n}\n";
        let (out, a) = convert(src, 3).expect("comparator");
        assert!(out.contains("c = (String a, String b) -> a.length() - b.length();"), "{out}");
        assert_eq!(a.type_name, "java.util.Comparator");
        assert_eq!(a.context, Context::Declared("java.util.Comparator<String>".into()));
        let (out, a) = convert(src, 9).expect("runnable");
        assert!(
            out.contains("Runnable r = () -> {\n      int n = xs.size();\n      System.out.println(n);\n    };"),
            "{out}"
        );
        assert!(a.names.contains(&"xs".to_owned()) && a.names.contains(&"System".to_owned()), "{:?}", a.names);
    }

    #[test]
    fn refusals_say_why() {
        let src = "class A {\n  int k;\n  void f(int n) {\n    Runnable a = new Runnable() { public void run() { System.out.println(this); } };\n    Runnable b = new Runnable() { int x; public void run() {} };\n    Runnable c = new Runnable() { public void run() { int n = 1; } };\n    var d = new Runnable() { public void run() {} };\n    Object e = new Runnable() { public void run() {} }.hashCode();\n    Runnable g = new Runnable() { public void run() { run(); } };\n  }\n}\n";
        let e = convert(src, 4).expect_err("this");
        assert!(e.contains("uses `this`"), "{e}");
        assert!(convert(src, 5).expect_err("field").contains("2 members"));
        assert!(convert(src, 6).expect_err("shadow").contains("`n` (line 6) would redeclare"));
        assert!(convert(src, 7).expect_err("var").contains("`var`"));
        assert!(convert(src, 8).expect_err("receiver").contains("used as method invocation"));
        assert!(convert(src, 9).expect_err("recursive").contains("calls itself"));
    }
}
