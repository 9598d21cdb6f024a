//! One spelling per idea (issue 32, item 9): every old spelling a tool took still works and
//! answers exactly what the one spelling answers; two spellings of one argument, or a name the
//! tool does not take, is an error that lists what it takes. (The unit test
//! `mji_tools::spelling` walks every schema for second spellings.)

use serde_json::{Value, json};

use crate::common::indexed;
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::registry::dispatch;

const FOO: &str = "package a;\n\n/** A foo. */\npublic class Foo {\n    /** Counts. */\n    private int count;\n\n    \
                   /** Grows it. */\n    void grow(int by) {\n        count += by;\n    }\n}\n";

fn call(ws: &Host, tool: &str, args: Value) -> Result<Value, String> {
    let Value::Object(m) = args else { unreachable!("object arguments") };
    dispatch(ws, tool, m).map(|a| a.value)
}

fn ok(ws: &Host, tool: &str, args: Value) -> Value {
    call(ws, tool, args).unwrap_or_else(|e| panic!("{tool}: {e}"))
}

#[test]
fn old_spellings_answer_what_the_one_spelling_answers() {
    let (_dir, ws) = indexed("src", &[("a/Foo.java", FOO), ("a/Fob.java", "package a;\nclass Fob {}\n")]);
    let pairs = [
        (
            "java_find_symbol",
            json!({"rootDir": ".", "query": "Fo*", "options": {"maxResults": 1, "matchKind": "class"}}),
            json!({"query": "Fo*", "limit": 1, "matchKind": "class"}),
        ),
        ("find_type", json!({"pattern": "Fo*", "maxResults": 1}), json!({"query": "Fo*", "limit": 1})),
        ("find_resource", json!({"pattern": "*.java", "maxResults": 1}), json!({"query": "*.java", "limit": 1})),
        (
            "java_index",
            json!({"filePath": "src/a/Foo.java", "options": {"includePrivate": false, "stableIds": true}}),
            json!({"filePath": "src/a/Foo.java", "includePrivate": false, "stableIds": true}),
        ),
        (
            "java_read_range",
            json!({"filePath": "src/a/Foo.java", "startLine": 4, "endLine": 12, "options": {"maxChars": 40}}),
            json!({"filePath": "src/a/Foo.java", "startLine": 4, "endLine": 12, "maxChars": 40}),
        ),
        (
            "java_read_javadoc",
            json!({"filePath": "src/a/Foo.java", "symbolId": "@3", "options": {"includeLineNumbers": false}}),
            json!({"filePath": "src/a/Foo.java", "symbolId": "@3", "includeLineNumbers": false}),
        ),
    ];
    for (tool, old, new) in pairs {
        let (a, b) = (ok(&ws, tool, old.clone()), ok(&ws, tool, new.clone()));
        assert_eq!(a, b, "{tool}: {old} and {new}");
    }
    // The ones that must have cut: the old limit spelling was honoured, not dropped.
    let v = ok(&ws, "find_type", json!({"pattern": "Fo*", "maxResults": 1}));
    assert_eq!((v["results"].as_array().map(Vec::len), v["truncated"].as_bool()), (Some(1), Some(true)), "{v}");
    let v = ok(
        &ws,
        "java_read_range",
        json!({"filePath": "src/a/Foo.java", "startLine": 4, "endLine": 12, "options": {"maxChars": 40}}),
    );
    assert_eq!(v["truncated"], true, "{v}");

    // get_problems: `paths` (a list) and `filePath` (one path), snake_case filters and camelCase.
    let old = ok(
        &ws,
        "get_problems",
        json!({"paths": ["src/a/Foo.java"], "source_filter": ["syntax"], "line_range": {"start": 1}}),
    );
    let new = ok(
        &ws,
        "get_problems",
        json!({"filePath": "src/a/Foo.java", "sourceFilter": ["syntax"], "lineRange": {"start": 1}}),
    );
    for key in ["diagnostics", "total", "truncated", "fileCounts", "files"] {
        assert_eq!(old[key], new[key], "get_problems {key}: {old} / {new}");
    }
    assert_eq!(
        new["fileCounts"]["syntaxOnly"].as_u64().or(new["fileCounts"]["analysed"].as_u64()).map(|_| ()),
        Some(()),
        "{new}"
    );
}

#[test]
fn java_read_javadoc_takes_a_declaration_by_name_as_java_read_range_does() {
    let (_dir, ws) = indexed("src", &[("a/Foo.java", FOO)]);
    let by_name = ok(&ws, "java_read_javadoc", json!({"filePath": "src/a/Foo.java", "symbol": "grow"}));
    assert_eq!(by_name["found"], true, "{by_name}");
    assert!(by_name["content"].as_str().is_some_and(|c| c.contains("Grows it.")), "{by_name}");
    let id = by_name["symbolId"].as_str().expect("the id it read").to_owned();
    let by_id = ok(&ws, "java_read_javadoc", json!({"filePath": "src/a/Foo.java", "symbolId": id}));
    assert_eq!(by_name, by_id);
    let e =
        call(&ws, "java_read_javadoc", json!({"filePath": "src/a/Foo.java", "symbol": "shrink"})).expect_err("none");
    assert!(e.contains("declares nothing named `shrink`"), "{e}");
    let e = call(&ws, "java_read_javadoc", json!({"filePath": "src/a/Foo.java", "symbol": "grow", "symbolId": id}))
        .expect_err("both");
    assert!(e.contains("either symbol or symbolId"), "{e}");
}

#[test]
fn two_spellings_of_one_argument_or_an_unknown_name_is_an_error_that_lists_the_arguments() {
    let (_dir, ws) = indexed("src", &[("a/Foo.java", FOO)]);
    let e = call(&ws, "find_type", json!({"pattern": "Foo", "query": "Bar"})).expect_err("twice");
    assert!(e.contains("`pattern` and `query` are one argument; give `query`"), "{e}");
    let e = call(&ws, "find_type", json!({"query": "Foo", "maxresult": 3})).expect_err("unknown");
    assert!(e.contains("unknown argument `maxresult`") && e.contains("`limit`") && e.contains("`query`"), "{e}");
    let e = call(&ws, "java_index", json!({"filePath": "src/a/Foo.java", "offset": 0, "options": {"offset": 1}}))
        .expect_err("twice");
    assert!(e.contains("`offset` is given twice"), "{e}");
    // Nested names are still checked by the argument's own type.
    let e = call(&ws, "java_index", json!({"filePath": "src/a/Foo.java", "options": {"includePrivat": true}}))
        .expect_err("unknown");
    assert!(e.contains("includePrivat"), "{e}");
}
