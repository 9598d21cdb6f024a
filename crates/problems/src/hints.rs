//! Hints of the `syntax` source (javac's `-Xlint` has neither): single-type imports and local
//! variables that nothing uses. "Unused" is decided on words, not on bindings, so that it is
//! never wrong: a name counts as used when it appears as a word anywhere it could be used
//! (any code, comment or string outside the import declarations for an import; anywhere in
//! the enclosing block besides its own declaration for a local). A shadowing use or a
//! mention in a string keeps a hint away; nothing actually used is ever reported.

use mji_parser::kind;
use tree_sitter::Node;

/// Diagnostic key of an unused single-type import.
pub const UNUSED_IMPORT: &str = "hint.unused.import";
/// Diagnostic key of an unused local variable.
pub const UNUSED_LOCAL: &str = "hint.unused.local";

/// One hint: prepared-text byte range, key, message.
pub(crate) type Hint = (usize, usize, &'static str, String);

/// The unused imports and locals of a file that parsed without errors.
pub(crate) fn unused(root: Node, text: &str) -> Vec<Hint> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut imports: Vec<(Node, String)> = Vec::new();
    let mut c = root.walk();
    for n in root.children(&mut c) {
        if n.kind() == kind::MODULE_DECLARATION {
            return out;
        }
        if n.kind() != kind::IMPORT_DECLARATION {
            continue;
        }
        let mut c2 = n.walk();
        let kids: Vec<Node> = n.children(&mut c2).collect();
        if kids.iter().any(|k| k.kind() == kind::ASTERISK) {
            continue;
        }
        let Some(path) = kids
            .iter()
            .find(|k| matches!(k.kind(), kind::SCOPED_IDENTIFIER | kind::IDENTIFIER))
            .and_then(|k| k.utf8_text(bytes).ok())
        else {
            continue;
        };
        imports.push((n, path.split_whitespace().collect()));
    }
    if !imports.is_empty() {
        // Every word of the file outside its import declarations.
        let mut words = std::collections::HashSet::new();
        let mut from = 0;
        for (n, _) in &imports {
            add_words(&text[from..n.start_byte()], &mut words);
            from = n.end_byte();
        }
        add_words(&text[from..], &mut words);
        for (n, path) in &imports {
            let simple = path.rsplit('.').next().unwrap_or(path);
            if !words.contains(simple) {
                out.push((n.start_byte(), n.end_byte(), UNUSED_IMPORT, format!("unused import `{path}`")));
            }
        }
    }
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
        if n.kind() != kind::LOCAL_VARIABLE_DECLARATION {
            continue;
        }
        let Some(block) = n
            .parent()
            .filter(|p| matches!(p.kind(), kind::BLOCK | kind::CONSTRUCTOR_BODY | kind::SWITCH_BLOCK_STATEMENT_GROUP))
        else {
            continue;
        };
        let mut c = n.walk();
        for d in n.children_by_field_name("declarator", &mut c) {
            let Some(name) = d.child_by_field_name("name") else { continue };
            let Ok(name_text) = name.utf8_text(bytes) else { continue };
            if name_text == "_" {
                continue;
            }
            // A switch group's locals are in scope in the groups after it: the whole switch.
            let scope = if block.kind() == kind::SWITCH_BLOCK_STATEMENT_GROUP {
                block.parent().unwrap_or(block)
            } else {
                block
            };
            let mut words = std::collections::HashSet::new();
            add_words(&text[scope.start_byte()..name.start_byte()], &mut words);
            add_words(&text[name.end_byte()..scope.end_byte()], &mut words);
            if !words.contains(name_text) {
                out.push((
                    name.start_byte(),
                    name.end_byte(),
                    UNUSED_LOCAL,
                    format!("local variable `{name_text}` is never used"),
                ));
            }
        }
    }
    out.sort_by_key(|h| h.0);
    out
}

/// Adds the words of `s`: runs of identifier characters, also split at `$` (a nested type's
/// binary name spells its outer type).
fn add_words<'a>(s: &'a str, words: &mut std::collections::HashSet<&'a str>) {
    for w in s.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
        if !w.is_empty() {
            words.insert(w);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hints(src: &str) -> Vec<String> {
        let tree = mji_parser::parse_tree(src).expect("parses");
        unused(tree.root_node(), src).into_iter().map(|(s, e, k, _)| format!("{k} {}", &src[s..e])).collect()
    }

    #[test]
    fn unused_imports_and_locals_only_when_no_word_names_them() {
        let src = "import java.util.List;\nimport java.util.Map;\nimport java.util.*;\nimport static java.lang.Math.max;\nimport a.Outer;\nimport b.Doc;\n\n/** {@link Doc} */\nclass A {\n  Map<String, Integer> m;\n  void f(Object o) {\n    int unused = 1;\n    int used = 2;\n    g(used);\n    if (o instanceof Outer$Inner(int n)) {}\n    switch (1) {\n      case 1:\n        int later = 0;\n      default:\n        later = 1;\n    }\n  }\n}\n";
        assert_eq!(
            hints(src),
            [
                "hint.unused.import import java.util.List;",
                "hint.unused.import import static java.lang.Math.max;",
                "hint.unused.local unused"
            ]
        );
        let shadowed =
            "import java.util.List;\nclass A { void f() { int x = 1; { Object List = \"s\"; g(List); } } }\n";
        assert_eq!(hints(shadowed), ["hint.unused.local x"]);
        assert!(hints("module m { requires java.base; }\n").is_empty());
    }
}
