//! `refactor_actions` on a temp copy of tests/edit_fixtures: every preview's diff is a
//! snapshot, every applied edit leaves a project real javac compiles, and nothing is written
//! on conflicts, stale previews or renames that would break an override of the JDK.
//! tests/edit_fixtures/inherit holds classes that compile only once `source_actions` has
//! implemented their supertypes' methods; a Maven-shaped module is written by its test.

use crate::common;
use common::{copy_dir, java_files_under};

use std::path::{Path, PathBuf};

use mcp_java_index::config::{Config, Flags};
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::registry::find;
use serde_json::{Value, json};

fn setup() -> (tempfile::TempDir, Host) {
    let dir = tempfile::tempdir().expect("tempdir");
    copy_dir(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/edit_fixtures/src"), dir.path());
    let flags = Flags::roots([dir.path()]).set("watch", false).set("cache", false);
    let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    ws.build_index();
    (dir, ws)
}

fn call(ws: &Host, args: Value) -> Result<(Value, String), String> {
    let Value::Object(map) = args else { panic!("args are an object") };
    let a = find("refactor_actions").expect("registered").call(ws, map)?;
    let text = a.text();
    Ok((a.value, text))
}

/// The text without the editId (it names absolute paths of the temp dir).
fn shown(text: &str) -> String {
    text.lines().filter(|l| !l.starts_with("editId:")).collect::<Vec<_>>().join("\n")
}

/// Compiles every Java file under `root` with javac; panics with its output on failure.
fn compiles(root: &Path) {
    let out = tempfile::tempdir().expect("out");
    let files = java_files_under(root);
    let r = std::process::Command::new("javac").arg("-d").arg(out.path()).args(&files).output().expect("javac runs");
    assert!(r.status.success(), "javac failed:\n{}", String::from_utf8_lossy(&r.stderr));
}

/// Applies a preview by its editId.
fn apply(ws: &Host, mut args: Value, preview: &Value) -> Result<(Value, String), String> {
    args["apply"] = json!(true);
    args["editId"] = preview["editId"].clone();
    call(ws, args)
}

/// Fixes Main's imports (it does not compile as committed: List and Collections are missing).
fn organized(ws: &Host) {
    let args = json!({"action": "organize_imports", "filePath": "app/Main.java", "choose": ["java.util.List"]});
    let (preview, _) = call(ws, args.clone()).expect("preview");
    apply(ws, args, &preview).expect("apply");
}

#[test]
fn organize_imports_removes_adds_asks_and_compiles() {
    let (dir, ws) = setup();
    let (v, text) = call(&ws, json!({"action": "organize_imports", "filePath": "app/Main.java"})).expect("preview");
    assert_eq!(v["ambiguous"], json!(["List: java.awt.List, java.util.List"]));
    assert_eq!(v["applied"], json!(false));
    let (v, text2) =
        call(&ws, json!({"action": "organize_imports", "filePath": "app/Main.java", "choose": ["java.util.List"]}))
            .expect("preview");
    insta::assert_snapshot!("organize_imports_ambiguous", shown(&text));
    insta::assert_snapshot!("organize_imports_chosen", shown(&text2));
    // Nothing was written by the previews.
    let main = dir.path().join("app/Main.java");
    assert!(std::fs::read_to_string(&main).expect("read").contains("import java.util.Map;"));
    let (done, _) = apply(
        &ws,
        json!({"action": "organize_imports", "filePath": "app/Main.java", "choose": ["java.util.List"]}),
        &v,
    )
    .expect("apply");
    assert_eq!(done["applied"], json!(true));
    assert_eq!(done.get("problems"), None, "{done}");
    compiles(dir.path());
}

#[test]
fn rename_method_renames_its_override_family_and_compiles() {
    let (dir, ws) = setup();
    organized(&ws);
    // Named by an overrider: the interface method and the other implementation move too.
    let args = json!({"action": "rename", "target": "shapes.Circle#area()", "newName": "surface"});
    let (preview, text) = call(&ws, args.clone()).expect("preview");
    insta::assert_snapshot!("rename_method_family", shown(&text));
    assert_eq!(preview["conflicts"], Value::Null, "{preview}");
    let (done, _) = apply(&ws, args, &preview).expect("apply");
    assert_eq!(done["applied"], json!(true));
    compiles(dir.path());
    // No identifier `area` is left (the string " of area " stays).
    for f in java_files_under(dir.path()) {
        let t = std::fs::read_to_string(&f).expect("read");
        assert!(!t.contains("area()") && !t.contains("::area") && !t.contains("#area"), "{}:\n{t}", f.display());
    }
    // The index saw the edit at once: find_references answers the new name.
    let refs = mcp_java_index::tools::tool::find_references::run(
        &ws,
        &mcp_java_index::tools::tool::find_references::FindReferencesArgs {
            target: "shapes.Shape#surface()".into(),
            limit: 100,
            ..Default::default()
        },
    )
    .expect("refs");
    assert!(refs.page.total >= 2, "{refs:?}");
}

#[test]
fn rename_type_moves_its_file_and_compiles() {
    let (dir, ws) = setup();
    organized(&ws);
    let args = json!({"action": "rename", "target": "shapes.Square", "newName": "Box"});
    let (preview, text) = call(&ws, args.clone()).expect("preview");
    insta::assert_snapshot!("rename_type", shown(&text));
    apply(&ws, args, &preview).expect("apply");
    assert!(!dir.path().join("shapes/Square.java").exists());
    let moved = std::fs::read_to_string(dir.path().join("shapes/Box.java")).expect("moved file");
    assert!(moved.contains("public class Box implements Shape") && moved.contains("public Box()"), "{moved}");
    compiles(dir.path());
}

#[test]
fn rename_type_renames_the_qualifier_of_its_javadoc_member_links() {
    let (dir, ws) = setup();
    organized(&ws);
    // `{@link Shape#area()}`: the binder records `Shape` there as a reference to the type.
    let args = json!({"action": "rename", "target": "shapes.Shape", "newName": "Figure"});
    let (preview, text) = call(&ws, args.clone()).expect("preview");
    assert!(text.contains("+/** A plane figure. Its size is {@link Figure#area()}. */"), "{text}");
    apply(&ws, args, &preview).expect("apply");
    let moved = std::fs::read_to_string(dir.path().join("shapes/Figure.java")).expect("moved file");
    assert!(!moved.contains("Shape"), "{moved}");
    compiles(dir.path());
}

#[test]
fn conflicts_block_apply_and_nothing_is_written() {
    let (dir, ws) = setup();
    let square = dir.path().join("shapes/Square.java");
    let before = std::fs::read_to_string(&square).expect("read");
    // `grow` declares a local `size`: renaming the field to it would capture its uses there.
    let args = json!({"action": "rename", "target": "shapes.Square#side", "newName": "size"});
    let (preview, _) = call(&ws, args.clone()).expect("preview");
    let conflicts = preview["conflicts"].as_array().expect("conflicts").clone();
    assert!(conflicts.iter().any(|c| c.as_str().is_some_and(|c| c.contains("local `size`"))), "{preview}");
    let err = apply(&ws, args, &preview).expect_err("refused");
    assert!(err.contains("not applied") && err.contains("force"), "{err}");
    assert_eq!(std::fs::read_to_string(&square).expect("read"), before);
    // Which renames conflict is mji-edit's cases' (actions/rename/mod.rs).
}

#[test]
fn stale_previews_and_names_that_are_no_identifiers_are_refused() {
    let (dir, ws) = setup();
    let args = json!({"action": "rename", "target": "shapes.Shape#area()", "newName": "surface"});
    let (preview, _) = call(&ws, args.clone()).expect("preview");
    let circle = dir.path().join("shapes/Circle.java");
    let edited = std::fs::read_to_string(&circle).expect("read").replace("radius * radius", "radius * radius * 1");
    std::fs::write(&circle, &edited).expect("write");
    let err = apply(&ws, args, &preview).expect_err("stale");
    assert!(err.contains("stale preview"), "{err}");
    assert_eq!(std::fs::read_to_string(&circle).expect("read"), edited);
    assert!(!std::fs::read_to_string(dir.path().join("shapes/Shape.java")).expect("read").contains("surface"));
    // An override of the JDK's method refused: mji-edit's `an_override_of_a_library_method_is_refused`.
    let err = call(&ws, json!({"action": "rename", "target": "shapes.Square", "newName": "class"})).expect_err("bad");
    assert!(err.contains("not a Java identifier"), "{err}");
}

#[test]
fn source_actions_generate_in_the_files_style_and_compile() {
    let (dir, ws) = setup();
    let generate = |args: Value| -> Value {
        let Value::Object(map) = args.clone() else { panic!("object") };
        let a = find("source_actions").expect("registered").call(&ws, map).expect("preview");
        let text = a.text();
        let mut applied = args;
        applied["apply"] = json!(true);
        applied["editId"] = a.value["editId"].clone();
        let Value::Object(map) = applied else { panic!("object") };
        let done = find("source_actions").expect("registered").call(&ws, map).expect("apply");
        assert_eq!(done.value["applied"], json!(true), "{}", done.value);
        json!({"preview": shown(&text), "applied": done.value})
    };
    // The constructor takes the final fields without a value: x and y, not label.
    let ctor = generate(json!({"action": "constructor", "type": "shapes.Point"}));
    let eq = generate(json!({"action": "equals_hash_code", "type": "shapes.Point"}));
    let gs = generate(
        json!({"action": "getters_setters", "filePath": "shapes/Point.java", "line": 12, "finalParameters": true}),
    );
    let ts = generate(json!({"action": "to_string", "type": "shapes.Point", "fields": ["x", "y", "weights"]}));
    insta::assert_snapshot!("source_constructor", ctor["preview"].as_str().expect("text"));
    insta::assert_snapshot!("source_equals_hash_code", eq["preview"].as_str().expect("text"));
    insta::assert_snapshot!("source_getters_setters", gs["preview"].as_str().expect("text"));
    insta::assert_snapshot!("source_to_string", ts["preview"].as_str().expect("text"));
    // An existing getter kept with a warning, a record's implicit toString, an unknown field:
    // mji-edit's generate cases.
    organized(&ws);
    compiles(dir.path());
}

fn call_source(ws: &Host, args: Value) -> Value {
    let Value::Object(map) = args else { panic!("object") };
    find("source_actions").expect("registered").call(ws, map).expect("call").value
}

#[test]
fn rename_locals_and_parameters_by_position() {
    let (dir, ws) = setup();
    organized(&ws);
    // `public void grow(double by) {` is line 20 of Square.java; `by` is at column 30.
    let args =
        json!({"action": "rename", "filePath": "shapes/Square.java", "line": 20, "column": 30, "newName": "delta"});
    let (preview, text) = call(&ws, args.clone()).expect("preview");
    insta::assert_snapshot!("rename_parameter", shown(&text));
    apply(&ws, args, &preview).expect("apply");
    // The local `size` on line 21, found without a column; `side` is a field and is not it.
    let args = json!({"action": "rename", "filePath": "shapes/Square.java", "line": 21, "newName": "grown"});
    let (preview, _) = call(&ws, args.clone()).expect("preview");
    assert!(
        preview["summary"].as_str().expect("summary").starts_with("rename local variable size to grown: 2"),
        "{preview}"
    );
    apply(&ws, args, &preview).expect("apply");
    let square = std::fs::read_to_string(dir.path().join("shapes/Square.java")).expect("read");
    assert!(square.contains("double grown = side + delta;\n        side = grown;"), "{square}");
    compiles(dir.path());
}

/// Without a column, a line that declares a method means the method: `public void grow(double
/// by) {` renames grow (and its calls), not the parameter `by` that the line also declares.
#[test]
fn rename_by_a_declaration_line_renames_the_declared_member() {
    let (dir, ws) = setup();
    organized(&ws);
    let args = json!({"action": "rename", "filePath": "shapes/Square.java", "line": 20, "newName": "enlarge"});
    let (preview, _) = call(&ws, args.clone()).expect("preview");
    let summary = preview["summary"].as_str().expect("summary");
    assert!(summary.contains("grow") && !summary.contains("parameter"), "{preview}");
    apply(&ws, args, &preview).expect("apply");
    let square = std::fs::read_to_string(dir.path().join("shapes/Square.java")).expect("read");
    assert!(square.contains("public void enlarge(double by) {"), "{square}");
    compiles(dir.path());
}

#[test]
fn rename_record_component_with_its_accessor_and_constructor_parameter() {
    let (dir, ws) = setup();
    organized(&ws);
    let args = json!({"action": "rename", "target": "shapes.Point.Tag#rank", "newName": "priority"});
    let (preview, text) = call(&ws, args.clone()).expect("preview");
    insta::assert_snapshot!("rename_record_component", shown(&text));
    apply(&ws, args, &preview).expect("apply");
    compiles(dir.path());
}

#[test]
fn rename_package_moves_its_files_and_requalifies_its_names() {
    let (dir, ws) = setup();
    organized(&ws);
    let args = json!({"action": "rename", "target": "shapes", "newName": "geo.plane"});
    // What it edits and moves is mji-edit's a_package_renamed_to_a_nested_name_moves_and_requalifies;
    // here the apply (the old directory removed) and javac.
    let (preview, _) = call(&ws, args.clone()).expect("preview");
    apply(&ws, args, &preview).expect("apply");
    assert!(!dir.path().join("shapes").exists(), "the old directory is gone");
    assert!(dir.path().join("geo/plane/Circle.java").is_file());
    compiles(dir.path());
}

#[test]
fn several_previews_apply_as_one_edit() {
    let (dir, ws) = setup();
    organized(&ws);
    let a = json!({"action": "rename", "target": "shapes.Circle#radius()", "newName": "getRadius"});
    let b = json!({"action": "rename", "target": "app.Main", "newName": "App"});
    let c = json!({"action": "getters", "type": "shapes.Square"});
    let (pa, _) = call(&ws, a).expect("preview a");
    let (pb, _) = call(&ws, b).expect("preview b");
    let pc = call_source(&ws, c);
    let ids = json!([pa["editId"], pb["editId"], pc["editId"]]);
    let (done, text) = call(&ws, json!({"action": "apply", "editIds": ids})).expect("batch");
    assert_eq!(done["applied"], json!(true), "{text}");
    assert!(dir.path().join("app/App.java").is_file());
    assert!(std::fs::read_to_string(dir.path().join("shapes/Square.java")).expect("read").contains("getSide()"));
    compiles(dir.path());
    // Applied once: a second time the files are no longer what the previews were made from.
    let err = call(&ws, json!({"action": "apply", "editIds": ids})).expect_err("stale");
    assert!(err.contains("stale preview"), "{err}");
    let err = call(&ws, json!({"action": "apply", "editIds": ["0123456789abcdef"]})).expect_err("unknown");
    assert!(err.contains("not a preview of this server"), "{err}");
}

/// A temp copy of tests/edit_fixtures/inherit (its classes compile only once their methods
/// are generated and Registry's imports organized).
fn setup_inherit() -> (tempfile::TempDir, Host) {
    let dir = tempfile::tempdir().expect("tempdir");
    copy_dir(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/edit_fixtures/inherit"), dir.path());
    let flags = Flags::roots([dir.path()]).set("watch", false).set("cache", false);
    let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    ws.build_index();
    (dir, ws)
}

fn source(ws: &Host, args: Value) -> Result<(Value, String), String> {
    let Value::Object(map) = args else { panic!("object") };
    let a = find("source_actions").expect("registered").call(ws, map)?;
    let text = a.text();
    Ok((a.value, text))
}

/// Previews, applies the preview's editId, and returns the preview's text.
fn source_applied(ws: &Host, args: Value) -> String {
    let (preview, text) = source(ws, args.clone()).expect("preview");
    let mut applied = args;
    applied["apply"] = json!(true);
    applied["editId"] = preview["editId"].clone();
    let (done, _) = source(ws, applied).expect("apply");
    assert_eq!(done["applied"], json!(true), "{done}");
    assert_eq!(done.get("problems"), None, "{done}");
    shown(&text)
}

#[test]
fn implement_override_and_delegate_methods_compile() {
    let (dir, ws) = setup_inherit();
    // Comparable<Money> from java.base's class file (parameter names from src.zip) and the
    // workspace's generic Priced<Money>: substituted, with their imports; the default method
    // label() is not generated.
    let implement = source_applied(&ws, json!({"action": "implement_methods", "type": "money.Money"}));
    insta::assert_snapshot!("source_implement_methods", implement);
    assert!(implement.contains("+    public int compareTo(Money o) {"), "{implement}");
    assert!(
        implement.contains("+    public <R> R convert(Function<? super Money, ? extends R> rate) throws IOException {"),
        "{implement}"
    );
    assert!(!implement.contains("label"), "{implement}");
    // Nothing left to implement.
    let (again, _) = source(&ws, json!({"action": "implement_methods", "type": "money.Money"})).expect("again");
    assert!(again["summary"].as_str().expect("summary").starts_with("nothing to generate"), "{again}");
    // override_methods asks which: the list has neither the final id() nor weight(), which
    // Ledger already overrides.
    let err = source(&ws, json!({"action": "override_methods", "type": "money.Ledger"})).expect_err("needs methods");
    assert!(
        err.contains("describe()") && err.contains("toString()") && err.contains("forEach(Consumer<? super Money>)"),
        "{err}"
    );
    assert!(!err.contains("id()") && !err.contains("weight()") && !err.contains("wait("), "{err}");
    let over = source_applied(
        &ws,
        json!({"action": "override_methods", "type": "money.Ledger", "methods": ["describe", "toString", "forEach"]}),
    );
    insta::assert_snapshot!("source_override_methods", over);
    assert!(
        over.contains("+\t\treturn super.describe();") && over.contains("+\t\tIterable.super.forEach(action);"),
        "{over}"
    );
    // delegates: List has more public methods than are forwarded unasked.
    let err =
        source(&ws, json!({"action": "delegates", "type": "money.Wallet", "fields": ["coins"]})).expect_err("choose");
    assert!(err.contains("choose with `methods`") && err.contains("subList(int, int)"), "{err}");
    let delegates = source_applied(
        &ws,
        json!({"action": "delegates", "type": "money.Wallet", "fields": ["coins"], "methods": ["size", "get", "add(Money)"]}),
    );
    insta::assert_snapshot!("source_delegates", delegates);
    assert!(
        delegates.contains("+    public boolean add(Money e) {\n+        return this.coins.add(e);"),
        "{delegates}"
    );
    // A class chain from the JDK: only what AbstractList leaves abstract; an enum and a
    // record (its body on the header's line).
    let list = source_applied(&ws, json!({"action": "implement_methods", "type": "money.MoneyList"}));
    assert!(
        list.starts_with("generate get(int), size() in money.MoneyList in 1 file, 1 edit")
            && list.contains("+    public Money get(int index) {"),
        "{list}"
    );
    let currency = source_applied(&ws, json!({"action": "implement_methods", "type": "money.Currency"}));
    assert!(currency.contains("+    public String get() {"), "{currency}");
    let rate = source_applied(&ws, json!({"action": "implement_methods", "type": "money.Rate"}));
    assert!(rate.contains("+    public int compareTo(Rate o) {"), "{rate}");
    organize_registry(&ws);
    compiles(dir.path());
}

/// Registry's imports organized (it misses ArrayList's).
fn organize_registry(ws: &Host) -> Value {
    let args = json!({"action": "organize_imports", "filePath": "money/Registry.java"});
    let (preview, _) = call(ws, args.clone()).expect("preview");
    apply(ws, args, &preview).expect("apply");
    preview
}

#[test]
fn organize_imports_adds_none_for_inherited_member_types() {
    let (dir, ws) = setup_inherit();
    // Entry (Map.Entry through HashMap) and Kind (Ledgered.Kind, a workspace interface's) are
    // inherited; other.Entry and other.Kind are top-level types of the same simple names. What
    // the organize adds is mji-edit's inherited_member_types_need_no_import; here javac
    // compiles the result.
    organize_registry(&ws);
    let out = tempfile::tempdir().expect("out");
    let r = std::process::Command::new("javac")
        .arg("-d")
        .arg(out.path())
        .arg("-sourcepath")
        .arg(dir.path())
        .arg(dir.path().join("money/Registry.java"))
        .output()
        .expect("javac runs");
    assert!(r.status.success(), "javac failed:\n{}", String::from_utf8_lossy(&r.stderr));
}

/// A Maven-shaped module: `com.acme.util` in main and test, its resources, a subpackage.
fn maven_module() -> (tempfile::TempDir, Host) {
    let dir = tempfile::tempdir().expect("tempdir");
    let files: &[(&str, &str)] = &[
        (
            "src/main/java/com/acme/util/Strings.java",
            "package com.acme.util;\n\npublic class Strings {\n    public static String shout(String s) {\n        return s.toUpperCase();\n    }\n}\n",
        ),
        ("src/main/java/com/acme/util/notes.txt", "kept beside its package\n"),
        (
            "src/main/java/com/acme/util/internal/Chars.java",
            "package com.acme.util.internal;\n\nimport com.acme.util.Strings;\n\npublic class Chars {\n    public static String first(String s) {\n        return Strings.shout(s.substring(0, 1));\n    }\n}\n",
        ),
        ("src/main/resources/com/acme/util/messages.properties", "hello=Hello\n"),
        ("src/main/resources/com/acme/util/internal/chars.properties", "a=A\n"),
        (
            "src/test/java/com/acme/util/StringsTest.java",
            "package com.acme.util;\n\nclass StringsTest {\n    static boolean ok() {\n        return Strings.shout(\"a\").equals(com.acme.util.internal.Chars.first(\"a\"));\n    }\n}\n",
        ),
        ("src/test/resources/com/acme/util/expected.txt", "A\n"),
        // A test root the pom declares, outside the usual layout.
        (
            "pom.xml",
            "<project><modelVersion>4.0.0</modelVersion><groupId>com.acme</groupId><artifactId>util</artifactId><version>1</version><build><testSourceDirectory>checks</testSourceDirectory></build></project>\n",
        ),
        ("checks/com/acme/util/golden.txt", "A\n"),
        (
            "src/main/java/com/acme/app/App.java",
            "package com.acme.app;\n\nimport com.acme.util.*;\nimport com.acme.util.internal.Chars;\n\npublic class App {\n    String s = Strings.shout(Chars.first(\"x\")) + com.acme.util.Strings.shout(\"y\");\n}\n",
        ),
    ];
    for (path, text) in files {
        let p = dir.path().join(path);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(&p, text).expect("write");
    }
    let flags = Flags::roots([dir.path()]).set("watch", false).set("cache", false);
    let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    ws.build_index();
    (dir, ws)
}

#[test]
fn rename_package_moves_main_test_resources_and_subpackages() {
    // Without subpackages: main and test sources, the file beside them and the resources of
    // the same path move; the subpackage stays, its import follows.
    let (dir, ws) = maven_module();
    let args = json!({"action": "rename", "target": "com.acme.util", "newName": "com.acme.text"});
    let (preview, text) = call(&ws, args.clone()).expect("preview");
    assert!(
        preview["summary"].as_str().expect("summary").starts_with(
            "rename package com.acme.util to com.acme.text: 2 files moved, 3 qualified names and imports, 4 other files (resources) moved"
        ),
        "{preview}"
    );
    assert!(text.contains("moved src/main/resources/com/acme/util/messages.properties -> src/main/resources/com/acme/text/messages.properties"), "{text}");
    apply(&ws, args, &preview).expect("apply");
    let p = |rel: &str| dir.path().join(rel);
    for moved in [
        "src/main/java/com/acme/text/Strings.java",
        "src/main/java/com/acme/text/notes.txt",
        "src/test/java/com/acme/text/StringsTest.java",
        "src/main/resources/com/acme/text/messages.properties",
        "src/test/resources/com/acme/text/expected.txt",
        "checks/com/acme/text/golden.txt",
        "src/main/java/com/acme/util/internal/Chars.java",
        "src/main/resources/com/acme/util/internal/chars.properties",
    ] {
        assert!(p(moved).is_file(), "{moved} missing");
    }
    assert!(!p("src/test/java/com/acme/util").exists() && !p("src/test/resources/com/acme/util").exists());
    assert!(
        std::fs::read_to_string(p("src/main/java/com/acme/util/internal/Chars.java"))
            .expect("read")
            .contains("import com.acme.text.Strings;")
    );
    compiles(dir.path());

    // With subpackages: com.acme.util.internal becomes com.acme.text.internal, resources too.
    let (dir, ws) = maven_module();
    let args =
        json!({"action": "rename", "target": "com.acme.util", "newName": "com.acme.text", "includeSubpackages": true});
    let (preview, _) = call(&ws, args.clone()).expect("preview");
    assert!(
        preview["summary"]
            .as_str()
            .expect("summary")
            .starts_with("rename package com.acme.util to com.acme.text: 3 files moved"),
        "{preview}"
    );
    apply(&ws, args, &preview).expect("apply");
    let p = |rel: &str| dir.path().join(rel);
    let chars = std::fs::read_to_string(p("src/main/java/com/acme/text/internal/Chars.java")).expect("moved");
    assert!(chars.starts_with("package com.acme.text.internal;\n\nimport com.acme.text.Strings;"), "{chars}");
    assert!(p("src/main/resources/com/acme/text/internal/chars.properties").is_file());
    assert!(!p("src/main/java/com/acme/util").exists() && !p("src/main/resources/com/acme/util").exists());
    let app = std::fs::read_to_string(p("src/main/java/com/acme/app/App.java")).expect("read");
    assert!(
        app.contains("import com.acme.text.*;\nimport com.acme.text.internal.Chars;")
            && app.contains("com.acme.text.Strings.shout"),
        "{app}"
    );
    compiles(dir.path());
}

/// After an applied rename the project's own tests still pass through its real build: Maven
/// offline (Debian's repository) on a copy of tests/build_fixtures/maven-multi, `Calc#add`
/// renamed to `plus` (its callers are in the test module), then `run_tests` of the test that
/// calls it, through Surefire (no fast path).
#[test]
fn a_renamed_method_keeps_the_maven_build_and_its_tests_passing() {
    use mcp_java_index::build::runs::Status;
    use mcp_java_index::tools::tool::run_tests::RunTestsArgs;
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = tempfile::tempdir().expect("cache");
    copy_dir(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/build_fixtures/maven-multi"), dir.path());
    let cache_dir = cache.path().to_string_lossy().into_owned();
    let lookup = |k: &str| -> Option<String> {
        match k {
            "MCP_JAVA_INDEX_CACHE_DIR" => Some(cache_dir.clone()),
            "MCP_JAVA_INDEX_MAVEN_REPO_LOCAL" => Some("/usr/share/maven-repo".to_owned()),
            "MCP_JAVA_INDEX_WATCH" => Some("false".to_owned()),
            "MCP_JAVA_INDEX_TRUST" => Some("1".to_owned()),
            "MCP_JAVA_INDEX_BUILD_WAIT_MS" => Some("600000".to_owned()),
            _ => None,
        }
    };
    let ws = Host::open(Config::load(&Flags::roots([dir.path()]), &lookup).expect("config")).expect("workspace");
    ws.build_index();
    let args = json!({"action": "rename", "target": "com.example.core.Calc#add(int,int)", "newName": "plus"});
    let (preview, _) = call(&ws, args.clone()).expect("preview");
    apply(&ws, args, &preview).expect("apply");
    let test =
        std::fs::read_to_string(dir.path().join("core/src/test/java/com/example/core/CalcTest.java")).expect("test");
    assert!(test.contains("calc.plus(2, 3)") && !test.contains("calc.add("), "{test}");
    let run = RunTestsArgs {
        target: "com.example.core.CalcTest#adds".to_owned(),
        offline: true,
        fast: false,
        ..Default::default()
    };
    let r = mcp_java_index::tools::tool::run_tests::run(&ws, &run).expect("run");
    assert_eq!(r.status, Some(Status::Finished), "{r:#?}");
    assert!(r.compile_errors.is_empty(), "{r:#?}");
    assert_eq!((r.counts.run, r.counts.passed), (1, 1), "{r:#?}");
}

/// A temp copy of tests/edit_fixtures/families: override families javac checks, with members
/// of anonymous classes, enum constant bodies and local classes, and overrides whose
/// parameters are a supertype's type variables substituted (the shapes of the JDK's
/// `java.util.stream.Node`).
fn setup_families() -> (tempfile::TempDir, Host) {
    let dir = tempfile::tempdir().expect("tempdir");
    copy_dir(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/edit_fixtures/families"), dir.path());
    let flags = Flags::roots([dir.path()]).set("watch", false).set("cache", false);
    let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    ws.build_index();
    (dir, ws)
}

/// Renames `target` to `new` on a fresh copy of the families fixture, applies it, compiles the
/// result with javac, and returns the preview's text and the renamed tree.
fn family_renamed(target: &str, new: &str) -> (String, tempfile::TempDir) {
    let (dir, ws) = setup_families();
    let args = json!({"action": "rename", "target": target, "newName": new});
    let (preview, text) = call(&ws, args.clone()).unwrap_or_else(|e| panic!("{target}: {e}"));
    assert_eq!(preview["conflicts"], Value::Null, "{preview}");
    assert_eq!(preview["likely"], Value::Null, "{target}: {preview}");
    let (done, _) = apply(&ws, args, &preview).expect("apply");
    assert_eq!(done["applied"], json!(true));
    compiles(dir.path());
    (shown(&text), dir)
}

/// What each family rename edits is mji-edit's rename cases
/// (a_rename_reaches_overriders_in_anonymous_and_local_classes, …_enum_constant_bodies,
/// …_a_superclass_method_a_subclass_makes_an_implementation,
/// …_an_anonymous_override_of_a_substituted_method); here the previews' snapshots and javac
/// after each apply.
#[test]
fn a_rename_reaches_overriders_in_anonymous_local_and_enum_constant_classes() {
    // The anonymous Attrs and the local class Sized implement size(); without them javac
    // fails: "<anonymous fam.Files$1> is not abstract and does not override … length()".
    let (text, _dir) = family_renamed("fam.Attrs#size()", "length");
    insta::assert_snapshot!("rename_family_anonymous_and_local", text);
    // Enum constant bodies override their enum's abstract method.
    let (text, _dir) = family_renamed("fam.Op#apply(int,int)", "eval");
    insta::assert_snapshot!("rename_family_enum_constants", text);
    family_renamed("fam.Sized#estimate()", "guess");
    family_renamed("fam.Sink#accept(java.lang.Object)", "take");
    // An anonymous class's override of a method both its superclass and their interface
    // declare (java.base's Writer.nullWriter(), found by the 100-pick rename proof).
    family_renamed("fam.StringOut#append(java.lang.CharSequence,int,int)", "add");
}

/// What each edits is mji-edit's a_rename_of_a_substituted_override_leaves_the_other_overload_family
/// and a_rename_of_the_boxed_overload_leaves_the_primitive_family; here the preview's snapshot
/// and javac after each apply.
#[test]
fn a_rename_of_a_substituted_override_leaves_the_other_overload_family() {
    // copyInto(T_ARR,int) of OfPrimitive is overridden by copyInto(int[],int) and by
    // Conc.OfPrimitive's copyInto(T_ARR,int), which calls it on a T_NODE receiver; Node's
    // copyInto(T[],int) (overridden by OfInt's copyInto(Integer[],int)) keeps its name.
    let (text, _dir) = family_renamed("fam.Node.OfPrimitive#copyInto(java.lang.Object,int)", "copyPrimitive");
    insta::assert_snapshot!("rename_family_substituted_type_variable", text);
    // And the other way: Node's family moves, OfPrimitive's stays.
    family_renamed("fam.Node#copyInto(java.lang.Object[],int)", "copyBoxed");
}

#[test]
fn overriders_of_keyless_classes_are_listed_with_include_overriders_and_resolve_by_position() {
    use mcp_java_index::tools::tool::find_references::FindReferencesArgs;
    use mcp_java_index::tools::tool::show_definition::ShowDefinitionArgs;
    let (_dir, ws) = setup_families();
    let find = |overriders: bool| {
        let args = FindReferencesArgs {
            target: "fam.Attrs#size()".into(),
            include_overriders: overriders,
            limit: 100,
            ..Default::default()
        };
        let r = mcp_java_index::tools::tool::find_references::run(&ws, &args).expect("refs");
        let mut v: Vec<(u32, String)> =
            r.files.iter().flat_map(|f| f.references.iter().map(|x| (x.line, x.kind.clone()))).collect();
        v.sort();
        v
    };
    // Calls only: the unqualified call inside the anonymous class and the two in total().
    assert_eq!(find(false), vec![(13, "call".into()), (49, "call".into()), (49, "call".into())]);
    // The one inside the anonymous class is javac's call of that class's own size(), which
    // has no key: it says that it reaches Attrs#size() through that override.
    let args = FindReferencesArgs { target: "fam.Attrs#size()".into(), limit: 100, ..Default::default() };
    let r = mcp_java_index::tools::tool::find_references::run(&ws, &args).expect("refs");
    let via: Vec<(u32, bool)> =
        r.files.iter().flat_map(|f| f.references.iter().map(|x| (x.line, x.via_override))).collect();
    assert!(via.contains(&(13, true)) && via.iter().filter(|(_, v)| *v).count() == 1, "{via:?}");
    let Value::Object(m) = json!({"target": "fam.Attrs#size()", "paths": ["fam/Files.java"]}) else { unreachable!() };
    let a = mcp_java_index::tools::registry::dispatch(&ws, "find_references", m).expect("find_references");
    assert_eq!(a.value["files"][0]["references"][0]["viaOverride"], json!(true), "{}", a.value);
    assert_eq!(a.value["files"][0]["references"][1].get("viaOverride"), None, "{}", a.value);
    let text = a.text();
    assert!(text.contains("13:24 call (via its anonymous/local class's override)"), "{text}");
    // And the call hierarchy's site of that call.
    let Value::Object(m) = json!({"target": "fam.Attrs#size()", "direction": "incoming"}) else { unreachable!() };
    let a = mcp_java_index::tools::registry::dispatch(&ws, "call_hierarchy", m).expect("call_hierarchy");
    let text = a.text();
    assert!(text.contains("13:24 in class via its class's override"), "{text}");
    assert_eq!(text.matches("via its class's override").count(), 1, "{text}");
    // With the overriders: the anonymous and the local class's declarations too.
    assert_eq!(
        find(true),
        vec![
            (7, "override".into()),
            (13, "call".into()),
            (20, "override".into()),
            (49, "call".into()),
            (49, "call".into())
        ]
    );
    // The name of an anonymous class's method is the method it overrides.
    let args: ShowDefinitionArgs =
        serde_json::from_value(json!({"symbol": "size", "filePath": "fam/Files.java", "line": 7})).expect("args");
    let d = mcp_java_index::tools::tool::show_definition::run(&ws, &args).expect("definition");
    assert_eq!(d.resolution, "exact", "{d:?}");
    assert_eq!(d.definitions[0].qualified_name, "fam.Attrs#size()", "{d:?}");
}

/// Issue 53, item 2: a package rename updates what names it outside Java code exactly —
/// `module-info.java`'s `exports`, `opens`, `uses` and `provides … with` (never `exports … to`'s
/// module names), the `META-INF/services` file named after a moved service (moved, and its
/// provider lines) — and lists, unchanged, the lines of other files that name it (Spring XML).
/// The module still compiles with javac afterwards.
#[test]
fn rename_package_updates_module_info_and_service_files() {
    let dir = tempfile::tempdir().expect("tempdir");
    let files = [
        (
            "src/main/java/module-info.java",
            "module acme.app {\n    exports com.acme.api;\n    exports com.acme.api.spi to java.base;\n    opens com.acme.api;\n    uses com.acme.api.Plugin;\n    provides com.acme.api.Plugin with com.acme.api.Default, com.acme.api.spi.Extra;\n}\n",
        ),
        (
            "src/main/java/com/acme/api/Plugin.java",
            "package com.acme.api;\n\npublic interface Plugin {\n    String name();\n}\n",
        ),
        (
            "src/main/java/com/acme/api/Default.java",
            "package com.acme.api;\n\npublic class Default implements Plugin {\n    public String name() {\n        return \"d\";\n    }\n}\n",
        ),
        (
            "src/main/java/com/acme/api/spi/Extra.java",
            "package com.acme.api.spi;\n\npublic class Extra implements com.acme.api.Plugin {\n    public String name() {\n        return \"e\";\n    }\n}\n",
        ),
        (
            "src/main/resources/META-INF/services/com.acme.api.Plugin",
            "# providers\ncom.acme.api.Default\ncom.acme.api.spi.Extra\n",
        ),
        ("src/main/resources/beans.xml", "<beans>\n  <bean class=\"com.acme.api.Default\"/>\n</beans>\n"),
    ];
    for (path, text) in files {
        let p = dir.path().join(path);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(&p, text).expect("write");
    }
    let flags = Flags::roots([dir.path()]).set("watch", false).set("cache", false);
    let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    ws.build_index();
    let args = json!({"action": "rename", "target": "com.acme.api", "newName": "com.acme.core"});
    let (preview, text) = call(&ws, args.clone()).expect("preview");
    assert!(
        preview["summary"].as_str().is_some_and(|s| s.contains("2 module-info/service file(s) updated")),
        "{preview}"
    );
    assert!(text.contains("src/main/resources/beans.xml:2"), "the Spring XML is listed: {text}");
    apply(&ws, args, &preview).expect("applied");
    let module = std::fs::read_to_string(dir.path().join("src/main/java/module-info.java")).expect("read");
    assert_eq!(
        module,
        "module acme.app {\n    exports com.acme.core;\n    exports com.acme.api.spi to java.base;\n    opens com.acme.core;\n    uses com.acme.core.Plugin;\n    provides com.acme.core.Plugin with com.acme.core.Default, com.acme.api.spi.Extra;\n}\n"
    );
    let service = dir.path().join("src/main/resources/META-INF/services/com.acme.core.Plugin");
    assert_eq!(
        std::fs::read_to_string(&service).expect("the service file moved"),
        "# providers\ncom.acme.core.Default\ncom.acme.api.spi.Extra\n"
    );
    assert!(!dir.path().join("src/main/resources/META-INF/services/com.acme.api.Plugin").exists());
    // The XML is listed, not changed.
    assert!(
        std::fs::read_to_string(dir.path().join("src/main/resources/beans.xml"))
            .expect("read")
            .contains("com.acme.api.Default")
    );
    compiles(&dir.path().join("src/main/java"));
}
