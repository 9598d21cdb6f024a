//! Surround the statement throwing an unreported checked exception with try/catch.

use mji_parser::kind;
use tree_sitter::Node;

use crate::ctx::Outcome;
use crate::syntax::walk;
use crate::{Doc, TextEdit};

/// Surrounds the statement around byte `at` with `try { … } catch (X e) { throw new
/// RuntimeException(e); }`. A declaration whose variable is used after it is split (`T x;`
/// before the try, `x = …;` inside); refused when it cannot be (`var`, several variables), for
/// a constructor's `this(…)`/`super(…)` call, and for code outside a block (a lambda's
/// expression body, a field's initializer).
pub fn surround_with_try(doc: &Doc, at: usize, exception: &str) -> Result<Outcome, String> {
    let text = doc.text();
    let bytes = text.as_bytes();
    let tree = mji_parser::parse_tree(text).ok_or("the file could not be parsed")?;
    let mut n = tree.root_node().descendant_for_byte_range(at, at).ok_or("no code at the position")?;
    let stmt = loop {
        let parent = n.parent().ok_or("not inside a block")?;
        if matches!(parent.kind(), kind::BLOCK | kind::CONSTRUCTOR_BODY | kind::SWITCH_BLOCK_STATEMENT_GROUP)
            && n.is_named()
        {
            break n;
        }
        if matches!(parent.kind(), kind::LAMBDA_EXPRESSION | kind::CLASS_BODY | kind::ENUM_BODY | kind::INTERFACE_BODY)
        {
            return Err("not inside a block (a lambda's expression or an initializer)".into());
        }
        n = parent;
    };
    if stmt.kind() == kind::EXPLICIT_CONSTRUCTOR_INVOCATION {
        return Err("a constructor's this(…) or super(…) call cannot be inside a try".into());
    }
    let block = stmt.parent().ok_or("not inside a block")?;
    // A declaration whose variable is used after it is split: declared before the try,
    // assigned inside (definitely assigned after it, as the catch always throws).
    let mut split: Option<(String, String)> = None;
    if stmt.kind() == kind::LOCAL_VARIABLE_DECLARATION {
        let mut names = Vec::new();
        let mut c = stmt.walk();
        let declarators: Vec<Node> = stmt.children_by_field_name("declarator", &mut c).collect();
        for d in &declarators {
            if let Some(name) = d.child_by_field_name("name").and_then(|x| x.utf8_text(bytes).ok()) {
                names.push(name.to_owned());
            }
        }
        let mut used = None;
        walk(block, &mut |x| {
            if x.start_byte() >= stmt.end_byte()
                && x.kind() == kind::IDENTIFIER
                && let Ok(t) = x.utf8_text(bytes)
                && names.iter().any(|n| n == t)
            {
                used.get_or_insert(t.to_owned());
            }
        });
        if let Some(u) = used {
            let ty = stmt.child_by_field_name("type").and_then(|t| t.utf8_text(bytes).ok()).unwrap_or("var");
            let (Some(d), true, false) = (declarators.first(), declarators.len() == 1, ty == "var") else {
                return Err(format!(
                    "the statement declares `{u}`, used after it, and cannot be split (`var`, or several variables)"
                ));
            };
            let (Some(value), None) = (d.child_by_field_name("value"), d.child_by_field_name("dimensions")) else {
                return Err(format!("the statement declares `{u}`, used after it, and cannot be split"));
            };
            if value.kind() == kind::ARRAY_INITIALIZER {
                return Err(format!("the statement declares `{u}` with an array initializer, used after it"));
            }
            // `final String s` from the statement's own text, then `s = value;` in the try.
            let head = text[stmt.start_byte()..d.start_byte()].trim_end();
            split = Some((format!("{head} {u};"), format!("{u} = {};", &text[value.start_byte()..value.end_byte()])));
        }
    }
    let line_start = crate::syntax::line_start(text, stmt.start_byte());
    let indent = &text[line_start..stmt.start_byte()];
    if !indent.chars().all(|c| c == ' ' || c == '\t') {
        return Err("the statement does not start its line".into());
    }
    let unit = indent_unit(text, block, indent);
    let eol = doc.eol();
    let var = catch_name(enclosing_body(stmt), bytes);
    let (name, import) = super::type_name(doc, exception);
    let inner = match &split {
        Some((_, assign)) => assign.clone(),
        None => text[stmt.start_byte()..stmt.end_byte()].to_owned(),
    };
    let body: String = inner
        .split('\n')
        .enumerate()
        .map(|(i, l)| if i == 0 || l.trim().is_empty() { l.to_owned() } else { format!("{unit}{l}") })
        .collect::<Vec<_>>()
        .join("\n");
    let declared = split.map(|(d, _)| format!("{d}{eol}{indent}")).unwrap_or_default();
    let new = format!(
        "{declared}try {{{eol}{indent}{unit}{body}{eol}{indent}}} catch ({name} {var}) {{{eol}{indent}{unit}throw new RuntimeException({var});{eol}{indent}}}"
    );
    let mut edits: Vec<TextEdit> = import.into_iter().collect();
    edits.push(TextEdit { start: stmt.start_byte(), end: stmt.end_byte(), text: new });
    Ok(Outcome::in_doc(doc, edits, format!("surround with try/catch {exception}")))
}

/// One level of indentation: the statement's indent beyond its block's line, else 4 spaces
/// (a tab where the file indents with tabs).
fn indent_unit(text: &str, block: Node, indent: &str) -> String {
    let outer = crate::syntax::line_indent(text, block.start_byte());
    match indent.strip_prefix(outer) {
        Some(u) if !u.is_empty() => u.to_owned(),
        _ if indent.contains('\t') => "\t".to_owned(),
        _ => "    ".to_owned(),
    }
}

/// The method, constructor, lambda or initializer whose names a new local must not take.
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

/// The first of `e`, `ex`, `e1`, `e2`, … that no identifier in `scope` spells.
fn catch_name(scope: Node, bytes: &[u8]) -> String {
    let mut taken = std::collections::HashSet::new();
    walk(scope, &mut |x| {
        if x.kind() == kind::IDENTIFIER
            && let Ok(t) = x.utf8_text(bytes)
        {
            taken.insert(t.to_owned());
        }
    });
    ["e", "ex"]
        .iter()
        .map(|s| (*s).to_owned())
        .chain((1..).map(|i| format!("e{i}")))
        .find(|n| !taken.contains(n))
        .unwrap_or_else(|| "e".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::{check_fix, check_fix_refused};
    use expect_test::expect;

    fn x(d: &Doc, at: usize) -> Result<Outcome, String> {
        surround_with_try(d, at, "java.io.IOException")
    }

    #[test]
    fn surrounds_the_statement() {
        let body = "package p;\n\nclass A {\n    void f() {\n        $0read();\n    }\n}\n";
        check_fix(
            x,
            body,
            expect![[r#"
            package p;

            import java.io.IOException;

            class A {
                void f() {
                    try {
                        read();
                    } catch (IOException e) {
                        throw new RuntimeException(e);
                    }
                }
            }
        "#]],
        );
    }

    #[test]
    fn splits_a_declaration_used_after_it_and_names_the_catch_apart() {
        let body = "class A {\n  void f() {\n    int e = 1;\n    int n = $0read(e);\n    use(n);\n  }\n}\n";
        check_fix(
            x,
            body,
            expect![[r#"
            import java.io.IOException;

            class A {
              void f() {
                int e = 1;
                int n;
                try {
                  n = read(e);
                } catch (IOException ex) {
                  throw new RuntimeException(ex);
                }
                use(n);
              }
            }
        "#]],
        );
    }

    #[test]
    fn refuses_a_var_used_after_it_and_a_lambda_s_expression() {
        let var = "class A {\n  void f() {\n    var n = $0read();\n    use(n);\n  }\n}\n";
        check_fix_refused(
            x,
            var,
            "the statement declares `n`, used after it, and cannot be split (`var`, or several variables)",
        );
        let lambda = "class A {\n  void f() {\n    Runnable r = () -> $0read(0);\n  }\n}\n";
        check_fix_refused(x, lambda, "not inside a block (a lambda's expression or an initializer)");
    }
}
