//! Quick fixes on a temp copy of tests/edit_fixtures/quickfix, whose files do not compile as
//! committed: get_problems lists each javac diagnostic's fixes, `refactor_actions` previews
//! one by its fixId (the diff a snapshot) and applies it, and once every file is fixed javac
//! compiles them all. Which fixes a diagnostic offers and how a fix id is refused (stale,
//! malformed, no longer hinted) are mji-edit's cases (`crates/edit/src/fixes/`).

use crate::common;
use common::java_files_under;
use common::project::Project;

use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::registry::find;
use mcp_java_index::tools::tool::get_problems::ProblemsArgs;
use serde_json::{Value, json};

fn call(ws: &Host, args: Value) -> Result<(Value, String), String> {
    let Value::Object(map) = args else { panic!("args are an object") };
    let a = find("refactor_actions").expect("registered").call(ws, map)?;
    let text = a.text();
    Ok((a.value, text))
}

/// Every fix get_problems lists for `file`: (code, fixId, title).
pub(crate) fn fixes(ws: &Host, file: &str) -> Vec<(String, String, String)> {
    let args = ProblemsArgs { paths: vec![file.to_owned()], ..Default::default() };
    let r = mcp_java_index::tools::tool::get_problems::run(ws, &args).expect("get_problems");
    assert!(r.complete && r.javac.available, "{:?}", r.javac);
    r.diagnostics
        .iter()
        .flat_map(|d| d.fixes.iter().map(|f| (d.code.clone(), f.fix_id.clone(), f.title.clone())))
        .collect()
}

/// Previews the fix of `file` titled `title`, applies it, and returns the preview's text
/// (without its editId) and the fix id.
pub(crate) fn fix(ws: &Host, file: &str, title: &str) -> (String, String) {
    let all = fixes(ws, file);
    let (_, id, _) = all.iter().find(|(_, _, t)| t == title).unwrap_or_else(|| panic!("no fix {title} in {all:?}"));
    let (preview, text) = call(ws, json!({"action": "quick_fix", "fixId": id})).expect("preview");
    let (done, _) = call(ws, json!({"action": "quick_fix", "fixId": id, "apply": true, "editId": preview["editId"]}))
        .expect("apply");
    assert_eq!(done["applied"], json!(true), "{done}");
    let shown = text.lines().filter(|l| !l.starts_with("editId:")).collect::<Vec<_>>().join("\n");
    (shown, id.clone())
}

#[test]
fn quick_fixes_import_throw_catch_and_implement_until_it_compiles() {
    let p = Project::of("edit_fixtures", "quickfix");
    let ws = p.workspace(&[]);
    ws.build_index();

    // What an unresolved type offers (an import per type of that name), a stale or malformed
    // fix id: mji-edit's fixes/mod.rs cases.
    let (list, _) = fix(&ws, "qf/Imports.java", "import java.util.List");
    insta::assert_snapshot!("quick_fix_import", list);
    let (collections, _) = fix(&ws, "qf/Imports.java", "import java.util.Collections");
    insta::assert_snapshot!("quick_fix_import_variable", collections);

    // An unreported exception: throws, or try/catch (a declaration used after it split).
    let reader = fixes(&ws, "qf/Reader.java");
    let titles: Vec<&str> = reader.iter().map(|(_, _, t)| t.as_str()).collect();
    assert_eq!(
        titles,
        [
            "add throws IOException",
            "surround with try/catch IOException",
            "add throws IOException",
            "surround with try/catch IOException",
            "add throws IOException",
            "surround with try/catch IOException"
        ]
    );
    let (throws, _) = fix(&ws, "qf/Reader.java", "add throws IOException");
    insta::assert_snapshot!("quick_fix_throws", throws);
    let (wrapped, _) = fix(&ws, "qf/Reader.java", "surround with try/catch IOException");
    insta::assert_snapshot!("quick_fix_try_catch", wrapped);
    // size()'s declaration is split (its variable is used after); touch()'s call is wrapped.
    assert!(wrapped.contains("+        String s;\n+        try {\n+            s = Files.readString(p);"), "{wrapped}");
    let left: Vec<String> = fixes(&ws, "qf/Reader.java").into_iter().map(|(_, _, t)| t).collect();
    assert_eq!(left, ["add throws IOException", "surround with try/catch IOException"]);
    let (last, _) = fix(&ws, "qf/Reader.java", "surround with try/catch IOException");
    assert!(last.contains("+        try {\n+            Files.readString(p);"), "{last}");

    // A class missing abstract methods: every one implemented (Runnable's and Comparable's).
    let (implemented, _) = fix(&ws, "qf/Task.java", "implement the abstract methods of Task");
    insta::assert_snapshot!("quick_fix_implement", implemented);

    for f in ["qf/Imports.java", "qf/Reader.java", "qf/Task.java"] {
        assert!(fixes(&ws, f).is_empty(), "{f}: {:?}", fixes(&ws, f));
    }
    let out = tempfile::tempdir().expect("out");
    let files = java_files_under(p.root.path());
    let r = std::process::Command::new("javac").arg("-d").arg(out.path()).args(&files).output().expect("javac runs");
    assert!(r.status.success(), "javac failed:\n{}", String::from_utf8_lossy(&r.stderr));
}

/// Every diagnostic of `file` with its fixes' titles: `code line: title | title`.
fn listed(ws: &Host, file: &str) -> Vec<String> {
    let args = ProblemsArgs { paths: vec![file.to_owned()], ..Default::default() };
    let r = mcp_java_index::tools::tool::get_problems::run(ws, &args).expect("get_problems");
    r.diagnostics
        .iter()
        .map(|d| {
            let titles: Vec<&str> = d.fixes.iter().map(|f| f.title.as_str()).collect();
            format!("{} {}: {}", d.code, d.line, titles.join(" | "))
        })
        .collect()
}

#[test]
fn quick_fixes_remove_unused_cast_create_from_use_and_add_override_until_it_compiles() {
    let p = Project::of("edit_fixtures", "quickfix_more");
    let ws = p.workspace(&[]);
    ws.build_index();

    // Hints: the unused import and locals; a local whose initializer calls a method keeps it.
    assert_eq!(
        listed(&ws, "qm/Unused.java"),
        [
            "hint.unused.import 5: remove the unused import",
            "hint.unused.local 9: remove the unused variable unused",
            "hint.unused.local 10: "
        ]
    );
    let (import, _) = fix(&ws, "qm/Unused.java", "remove the unused import");
    insta::assert_snapshot!("quick_fix_unused_import", import);
    let (local, _) = fix(&ws, "qm/Unused.java", "remove the unused variable unused");
    insta::assert_snapshot!("quick_fix_unused_local", local);
    assert_eq!(listed(&ws, "qm/Unused.java"), ["hint.unused.local 8: "]);

    // Lossy conversions and Object to a type: a cast to the type javac names.
    let (cast, _) = fix(&ws, "qm/Casts.java", "cast to int");
    insta::assert_snapshot!("quick_fix_cast_lossy", cast);
    assert!(cast.contains("+        int x = (int) (d * 0.5);"), "{cast}");
    let (string, _) = fix(&ws, "qm/Casts.java", "cast to String");
    assert!(string.contains("+        String s = (String) o;"), "{string}");
    let (long, _) = fix(&ws, "qm/Casts.java", "cast to long");
    assert!(long.contains("+        return (long) f;"), "{long}");

    // Missing members from their uses: a method's types from javac's argument types and the
    // declaration it initializes, a field's from its declaration, a static one in a static
    // method, a local from the literal assigned.
    let titles = listed(&ws, "qm/Create.java");
    assert!(
        titles.contains(
            &"compiler.err.cant.resolve.location 14: create field count | create local variable count".to_owned()
        ),
        "{titles:?}"
    );
    let (method, _) = fix(&ws, "qm/Create.java", "create method sum(java.util.List<java.lang.String>,int)");
    insta::assert_snapshot!("quick_fix_create_method", method);
    let (void, _) = fix(&ws, "qm/Create.java", "create method log(java.lang.String)");
    assert!(void.contains("+    private void log(String p1) {"), "{void}");
    let (field, _) = fix(&ws, "qm/Create.java", "create field limit");
    assert!(field.contains("+    private long limit;"), "{field}");
    let (count, _) = fix(&ws, "qm/Create.java", "create field count");
    assert!(count.contains("+    private int count;"), "{count}");
    let (step, _) = fix(&ws, "qm/Create.java", "create local variable step");
    insta::assert_snapshot!("quick_fix_create_local", step);
    let (capacity, _) = fix(&ws, "qm/Create.java", "create field capacity");
    assert!(capacity.contains("+    private static int capacity;"), "{capacity}");

    // Methods overriding a public supertype method (a JDK interface's, Object's) without
    // @Override; one overriding a package-private method is not reported (not sure it may).
    assert_eq!(
        listed(&ws, "qm/Shape.java"),
        ["hint.missing.override 6: add @Override", "hint.missing.override 11: add @Override"]
    );
    let (compare, _) = fix(&ws, "qm/Shape.java", "add @Override");
    insta::assert_snapshot!("quick_fix_add_override", compare);
    let (to_string, _) = fix(&ws, "qm/Shape.java", "add @Override");
    assert!(
        to_string.contains("     /** Names it. */\n+    @Override\n     public String toString() {"),
        "{to_string}"
    );

    for f in ["qm/Casts.java", "qm/Create.java", "qm/Shape.java"] {
        assert!(listed(&ws, f).is_empty(), "{f}: {:?}", listed(&ws, f));
    }
    let out = tempfile::tempdir().expect("out");
    let files = java_files_under(p.root.path());
    let r = std::process::Command::new("javac").arg("-d").arg(out.path()).args(&files).output().expect("javac runs");
    assert!(r.status.success(), "javac failed:\n{}", String::from_utf8_lossy(&r.stderr));
}
