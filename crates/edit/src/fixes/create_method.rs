//! Create the missing method a call names, its parameters from javac's argument types and its
//! return type from the call's context.

use mji_parser::kind;
use tree_sitter::Node;

use super::site::{expected_type, is_static, member_of, parse, use_at};
use crate::ctx::Outcome;
use crate::syntax::line_indent;
use crate::{Doc, TextEdit};

/// Creates `private [static] R name(T1 a1, …)` after the member whose code calls it, from the
/// call at byte `at` (its name, unqualified or on `this`), javac's argument types `args` and
/// the return type the call's context expects. Its body throws UnsupportedOperationException.
pub fn create_method(doc: &Doc, at: usize, name: &str, args: &[String]) -> Result<Outcome, String> {
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
    Ok(Outcome::in_doc(doc, merge_inserts(imports), format!("create method {name}({})", args.join(","))))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::{check_fix, check_fix_refused};
    use expect_test::expect;

    const BODY: &str = "package p;\nclass A {\n  int f(double d, Object o) {\n    int x = 1;\n    String s = \"\";\n    long n = twice(x, s);\n    helper(o);\n    return 0;\n  }\n}\n";

    fn with(args: &'static [&'static str]) -> impl Fn(&Doc, usize) -> Result<Outcome, String> {
        move |d: &Doc, at| {
            let name = if args.len() == 2 { "twice" } else { "helper" };
            create_method(d, at, name, &args.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>())
        }
    }

    #[test]
    fn creates_a_method_typed_by_its_call_and_its_context() {
        check_fix(
            with(&["int", "java.lang.String"]),
            &BODY.replacen("twice", "$0twice", 1),
            expect![[r#"
            package p;
            class A {
              int f(double d, Object o) {
                int x = 1;
                String s = "";
                long n = twice(x, s);
                helper(o);
                return 0;
              }

              private long twice(int x, String s) {
                throw new UnsupportedOperationException("not implemented");
              }
            }
        "#]],
        );
    }

    #[test]
    fn imports_the_parameter_types() {
        check_fix(
            with(&["java.util.List<java.lang.Object>"]),
            &BODY.replacen("helper", "$0helper", 1),
            expect![[r#"
            package p;

            import java.util.List;
            class A {
              int f(double d, Object o) {
                int x = 1;
                String s = "";
                long n = twice(x, s);
                helper(o);
                return 0;
              }

              private void helper(List<Object> o) {
                throw new UnsupportedOperationException("not implemented");
              }
            }
        "#]],
        );
    }

    #[test]
    fn refuses_argument_types_that_do_not_match_the_call() {
        let one = |d: &Doc, at| create_method(d, at, "twice", &["int".to_owned()]);
        check_fix_refused(one, &BODY.replacen("twice", "$0twice", 1), "javac's argument types do not match the call");
    }
}
