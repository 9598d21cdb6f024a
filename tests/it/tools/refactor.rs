//! `refactor_actions`' structural refactorings (safe delete, inline, extract) on a temp copy of
//! tests/edit_fixtures/refactor: every preview's diff is a snapshot, every refusal says why,
//! and after each apply javac compiles the whole fixture.

use crate::common;
use common::java_files_under;
use common::project::Project;

use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::registry::find;
use serde_json::{Value, json};

/// One `refactor_actions` call: its structured answer and its text. Shared by the refactoring
/// tests (`refactor_method`, `signature`, `refactor_maven`).
pub(crate) fn call(ws: &Host, args: Value) -> Result<(Value, String), String> {
    let Value::Object(map) = args else { panic!("args are an object") };
    let a = find("refactor_actions").expect("registered").call(ws, map)?;
    let text = a.text();
    Ok((a.value, text))
}

/// A temp copy of `tests/edit_fixtures/<name>`, indexed.
pub(crate) fn setup_of(name: &str) -> (Project, Host) {
    let p = Project::of("edit_fixtures", name);
    let ws = p.workspace(&[]);
    ws.build_index();
    (p, ws)
}

fn setup() -> (Project, Host) {
    setup_of("refactor")
}

/// Compiles every Java file of the fixture with javac; panics with its output on failure.
pub(crate) fn compiles(p: &Project) {
    let out = tempfile::tempdir().expect("out");
    let files = java_files_under(p.root.path());
    let r = std::process::Command::new("javac").arg("-d").arg(out.path()).args(&files).output().expect("javac runs");
    assert!(r.status.success(), "javac failed:\n{}", String::from_utf8_lossy(&r.stderr));
}

/// Previews, applies the preview's editId and returns the preview's text without its editId.
pub(crate) fn previewed_and_applied(ws: &Host, args: Value) -> String {
    let (preview, text) = call(ws, args.clone()).unwrap_or_else(|e| panic!("preview of {args}: {e}"));
    let mut apply = args;
    apply["apply"] = json!(true);
    apply["editId"] = preview["editId"].clone();
    let (done, _) = call(ws, apply).expect("apply");
    assert_eq!(done["applied"], json!(true), "{done}");
    text.lines().filter(|l| !l.starts_with("editId:")).collect::<Vec<_>>().join("\n")
}

/// [`previewed_and_applied`], then javac compiles the whole fixture.
pub(crate) fn applied(p: &Project, ws: &Host, args: Value) -> String {
    let text = previewed_and_applied(ws, args);
    compiles(p);
    text
}

#[test]
fn safe_delete_removes_what_nothing_uses_and_refuses_the_rest() {
    let (p, ws) = setup();
    compiles(&p);
    // A recursive method nothing else calls: gone with its javadoc.
    let method = applied(&p, &ws, json!({"action": "safe_delete", "target": "rf.Util#countdown(int)"}));
    insta::assert_snapshot!("safe_delete_method", method);
    let field = applied(&p, &ws, json!({"action": "safe_delete", "target": "rf.Util#unused"}));
    insta::assert_snapshot!("safe_delete_field", field);
    // A type whose only mention elsewhere is an import: the import goes with it.
    let ty = applied(&p, &ws, json!({"action": "safe_delete", "target": "rf.extra.Orphan"}));
    insta::assert_snapshot!("safe_delete_type", ty);
    // Used: refused, the uses listed, nothing written (Main lost its import: line 7).
    let before = std::fs::read_to_string(p.path("rf/Util.java")).expect("read");
    let e = call(&ws, json!({"action": "safe_delete", "target": "rf.Util#twice(int)"})).expect_err("used");
    assert!(e.contains("not deleted: it has 1 use: rf/Main.java:7:"), "{e}");
    let e = call(&ws, json!({"action": "safe_delete", "filePath": "rf/Util.java", "line": 8})).expect_err("used");
    assert!(e.contains("rf/Main.java:7:"), "{e}");
    let e = call(&ws, json!({"action": "safe_delete", "target": "rf.Main#main(String[])"})).expect_err("main");
    assert!(e.contains("used by the JVM"), "{e}");
    assert_eq!(std::fs::read_to_string(p.path("rf/Util.java")).expect("read"), before);
}

#[test]
fn inline_a_local_or_a_constant_or_say_why_not() {
    let (p, ws) = setup();
    // Parenthesized where an operator binds around it; cast where the declared type decides.
    let unit = applied(&p, &ws, json!({"action": "inline", "filePath": "rf/Main.java", "line": 15}));
    insta::assert_snapshot!("inline_local", unit);
    // The cast the declared type needs (mji-edit's a_local_is_parenthesized_and_cast_as_its_declaration_says).
    applied(&p, &ws, json!({"action": "inline", "filePath": "rf/Main.java", "line": 15, "column": 14}));
    // The refusals (a call's value used more than once, a variable written) are mji-edit's
    // inline cases.
    // A constant: every use (qualified or not) takes its value, and the declaration goes.
    let size = applied(&p, &ws, json!({"action": "inline", "target": "rf.Util#SIZE"}));
    insta::assert_snapshot!("inline_constant", size);
}

#[test]
fn extract_a_variable_or_a_constant_typed_by_the_binder() {
    let (p, ws) = setup();
    // By range (startLine/startColumn .. endLine/endColumn, the end just after the last
    // character): the binder types `List.of(1, 2, n)` as List<Integer>.
    let numbers = applied(
        &p,
        &ws,
        json!({"action": "extract_variable", "filePath": "rf/Main.java", "startLine": 10, "startColumn": 37,
               "endLine": 10, "endColumn": 53, "newName": "numbers"}),
    );
    insta::assert_snapshot!("extract_variable_range", numbers);
    // By line + text, every identical expression of the block replaced.
    let product = applied(
        &p,
        &ws,
        json!({"action": "extract_variable", "filePath": "rf/Main.java", "line": 17, "text": "count * 1000", "replaceAll": true}),
    );
    assert!(
        product.contains("+        int value = count * 1000;") && product.contains("+        long big = value;"),
        "{product}"
    );
    let constant = applied(
        &p,
        &ws,
        json!({"action": "extract_constant", "filePath": "rf/Util.java", "line": 15, "text": "2", "newName": "FACTOR"}),
    );
    insta::assert_snapshot!("extract_constant", constant);
    // Not one expression, or evaluated only sometimes: refused with the reason.
    let e =
        call(&ws, json!({"action": "extract_variable", "filePath": "rf/Main.java", "line": 16, "text": "count =="}))
            .expect_err("partial");
    assert!(e.contains("not one whole expression"), "{e}");
    let e =
        call(&ws, json!({"action": "extract_variable", "filePath": "rf/Main.java", "line": 16, "text": "\"item\""}))
            .expect_err("branch");
    assert!(e.contains("one branch of a `?:`"), "{e}");
}

/// A wildcard's type argument is not spelled as the binder reads it (`?` and `? super X` as
/// `Object`, `? extends X` as X, none of which a `List<?>` is assignable to): an `Object`
/// argument is refused with the reason, and a parameterized type is `var` where the file
/// allows it; the fixture compiles after the apply (`applied`).
#[test]
fn extract_variable_never_spells_a_wildcard_as_its_bound() {
    let (p, ws) = setup_of("wildcards");
    // `? super X` is read as Object: refused.
    let e = call(&ws, json!({"action": "extract_variable", "filePath": "wc/Plain.java", "line": 8, "text": "sinks"}))
        .expect_err("a wildcard argument");
    assert!(e.contains("could not type the expression"), "sinks: {e}");
    // `?` and `? extends X` are spelled as written (issue 53 item 9: they were refused too).
    for (line, text, decl) in [(7, "any", "List<?> v = any;"), (9, "numbers", "List<? extends Number> v = numbers;")] {
        let (p, ws) = setup_of("wildcards");
        let args = json!({"action": "extract_variable", "filePath": "wc/Plain.java", "line": line, "text": text, "newName": "v"});
        let d = applied(&p, &ws, args);
        assert!(d.contains(&format!("+        {decl}")), "{d}");
    }
    // A value of a `? extends X` type is an X.
    let first = applied(
        &p,
        &ws,
        json!({"action": "extract_variable", "filePath": "wc/Plain.java", "line": 10, "text": "numbers.get(0)", "newName": "first"}),
    );
    assert!(first.contains("+        Number first = numbers.get(0);"), "{first}");
    let numbers = applied(
        &p,
        &ws,
        json!({"action": "extract_variable", "filePath": "wc/WithVar.java", "line": 8, "text": "numbers", "newName": "all"}),
    );
    assert!(numbers.contains("+        var all = numbers;"), "{numbers}");
    insta::assert_snapshot!("extract_variable_wildcard_var", numbers);
}

/// Issue 53, item 1: a rename of `Adapter#write` reaches the calls on the results of an
/// anonymous class's own methods (`delegate().write(out, value)`, `inner().write(…)`, in
/// generic, diamond and nested anonymous classes), and the fixture compiles after the apply.
#[test]
fn rename_reaches_calls_on_an_anonymous_class_s_own_method_results() {
    let (p, ws) = setup_of("anon");
    compiles(&p);
    // find_references and call_hierarchy see the calls, exact.
    let tool = |name: &str, args: Value| {
        let Value::Object(map) = args else { panic!("object") };
        find(name).expect("registered").call(&ws, map).expect("answer").text()
    };
    let refs = tool("find_references", json!({"target": "anon.Adapter#read(Reader)"}));
    assert!(refs.starts_with("4 Java references"), "{refs}");
    for at in ["34:35 call", "53:40 call", "106:40 call"] {
        assert!(refs.contains(at), "{at} missing:\n{refs}");
    }
    assert!(!refs.contains("likely"), "{refs}");
    let callers = tool("call_hierarchy", json!({"target": "anon.Adapter#read(Reader)"}));
    assert!(callers.contains("Factory#lazy") && callers.contains("Factory#diamond"), "{callers}");
    // What the rename edits is mji-edit's a_rename_reaches_calls_on_an_anonymous_class_s_own_method_results;
    // here javac compiles the result.
    applied(&p, &ws, json!({"action": "rename", "target": "anon.Adapter#write(Writer, Object)", "newName": "put"}));
}

/// Issue 53, item 4: override by access (JLS 8.4.8.1). A package-private method is overridden
/// only from its own package, and a private method overrides nothing: `find_implementations`
/// lists only the same package's override, the private method in another package inlines, and
/// a rename of the package-private one leaves the other package's methods of that name alone.
#[test]
fn a_private_or_other_package_method_overrides_no_package_private_one() {
    let (p, ws) = setup_of("access");
    compiles(&p);
    let impls = |target: &str| {
        let Value::Object(map) = json!({"target": target}) else { panic!("object") };
        find("find_implementations").expect("registered").call(&ws, map).expect("answer").text()
    };
    let base = impls("pa.Base#run()");
    assert!(base.contains("pa.Near#run()"), "{base}");
    assert!(!base.contains("pb."), "another package's run() listed as an override:\n{base}");
    assert!(!base.contains("anonymous"), "{base}");
    // Renaming Base's run renames Near's, not the other package's; the private run() inlines
    // into its one call. What each edits is mji-edit's cases
    // (a_package_private_method_s_family_stays_in_its_package,
    // a_private_method_of_a_package_private_one_s_name_inlines); here javac compiles each.
    applied(&p, &ws, json!({"action": "rename", "target": "pa.Base#run()", "newName": "start"}));
    applied(&p, &ws, json!({"action": "inline", "target": "pb.Far#run()"}));
}

/// Issue 53, item 3: what the JVM or a test framework calls by name has no uses in code and is
/// not unused. Each refusal (serialization hooks, `serialVersionUID`, `native`, `main`, test
/// and lifecycle methods, a method an annotation's string names) is a case of mji-edit's
/// `actions/safe_delete.rs`; here, what needs the host and javac: a method of a hook's name
/// that is no hook is deleted and the fixture compiles, and a type a configuration file names
/// is refused (a member's name there is said with the preview), and so is a Spring MVC
/// handler (`jv.Visits`), whose parameters `change_signature` leaves to the framework.
#[test]
fn safe_delete_refuses_what_the_jvm_or_a_framework_calls_by_name() {
    let (p, ws) = setup_of("jvm_names");
    compiles(&p);
    // Of a hook's name but not a hook: deleted.
    applied(&p, &ws, json!({"action": "safe_delete", "target": "jv.Token#readResolve(int)"}));
    applied(&p, &ws, json!({"action": "safe_delete", "target": "jv.Plain#writeReplace()"}));
    applied(&p, &ws, json!({"action": "safe_delete", "target": "jv.Plain#serialVersionUID"}));
    applied(&p, &ws, json!({"action": "safe_delete", "target": "jv.TokenTest#helper()"}));
    applied(&p, &ws, json!({"action": "safe_delete", "target": "jv.LegacyTest#helper()"}));
    let plain = std::fs::read_to_string(p.path("jv/Plain.java")).expect("read");
    assert!(!plain.contains("writeReplace") && !plain.contains("serialVersionUID"), "{plain}");
    // A type a configuration file names is created by reflection: refused; a member's name
    // there is said with the preview.
    let e = call(&ws, json!({"action": "safe_delete", "target": "jv.Wired"})).expect_err("named in beans.xml");
    assert!(e.contains("beans.xml:3"), "{e}");
    let (_, text) = call(&ws, json!({"action": "safe_delete", "target": "jv.Wired#init()"})).expect("preview");
    assert!(text.contains("configuration files") && text.contains("beans.xml:3"), "{text}");
    // A Spring MVC handler: called by its annotation, its arguments chosen by the framework.
    let e = call(&ws, json!({"action": "safe_delete", "target": "jv.Visits#initNewVisitForm(java.util.Map)"}))
        .expect_err("a request handler");
    assert!(e.contains("annotated @GetMapping"), "{e}");
    let e = call(
        &ws,
        json!({"action": "change_signature", "target": "jv.Visits#initNewVisitForm(java.util.Map)",
               "parameters": [{"from": 0}, {"name": "added", "type": "int", "defaultValue": "0"}]}),
    )
    .expect_err("a request handler's parameters");
    assert!(e.contains("its parameters are not changed"), "{e}");
}
