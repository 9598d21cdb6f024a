//! Lombok's generated members through the registry (issue 51): `java_index` lists them marked
//! with the annotation that makes them, `java_find_symbol` finds them, and `find_references`
//! finds their calls, as it finds a written member's.

use serde_json::{Value, json};

use crate::common::indexed;
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::registry::{Answer, dispatch};

fn call(ws: &Host, tool: &str, args: Value) -> Result<Answer, String> {
    let Value::Object(m) = args else { panic!("arguments must be an object") };
    dispatch(ws, tool, m)
}

const USER: &str = r#"package com.example;

import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Getter;
import lombok.Setter;

@Getter
@Setter
@Builder
@AllArgsConstructor
public class User {
    private String username;
    private int age;
    private boolean active;
}
"#;

const SERVICE: &str = r#"package com.example;

import lombok.extern.slf4j.Slf4j;

@Slf4j
public class UserService {
    String describe(User user) {
        user.setUsername(user.getUsername().trim());
        log.info("described {}", user.getUsername());
        return user.isActive() ? "on" : "off";
    }

    User make() {
        User built = User.builder().username("ann").age(3).build();
        return new User("bob", 4, built.isActive());
    }
}
"#;

/// Not Lombok's `Getter`: nothing is generated, so `getName` does not exist.
const OTHER: &str = r#"package com.example.other;

import com.example.other.ann.Getter;

@Getter
public class Plain {
    private String name;
}
"#;

const OTHER_GETTER: &str = "package com.example.other.ann;\n\npublic @interface Getter {\n}\n";

/// javac over `files` (relative to `dir`) with Lombok's jar as classpath and its only
/// processor, classes written to `dir/classes`.
fn javac_with_lombok<S: AsRef<std::ffi::OsStr>>(
    dir: &std::path::Path,
    files: impl IntoIterator<Item = S>,
) -> std::process::Output {
    let jar = super::lombok_oracle::lombok_jar();
    std::process::Command::new("javac")
        .arg("-cp")
        .arg(&jar)
        .arg("-processorpath")
        .arg(&jar)
        .arg("-d")
        .arg(dir.join("classes"))
        .args(files)
        .current_dir(dir)
        .output()
        .expect("javac")
}

fn workspace() -> (tempfile::TempDir, Host) {
    indexed(
        "src",
        &[
            ("com/example/User.java", USER),
            ("com/example/UserService.java", SERVICE),
            ("com/example/other/Plain.java", OTHER),
            ("com/example/other/ann/Getter.java", OTHER_GETTER),
        ],
    )
}

/// `(file, line)` of every reference `find_references` answers for `target`.
fn refs(ws: &Host, target: &str) -> Vec<(String, u64)> {
    let a = call(ws, "find_references", json!({"target": target})).expect("find_references");
    let mut out = Vec::new();
    for f in a.value["files"].as_array().expect("files") {
        for r in f["references"].as_array().expect("references") {
            out.push((f["file"].as_str().expect("file").to_owned(), r["line"].as_u64().expect("line")));
        }
    }
    out
}

#[test]
fn java_index_lists_generated_members_marked_with_the_annotation_and_its_line() {
    let (_d, ws) = workspace();
    let a = call(&ws, "java_index", json!({"filePath": "src/com/example/User.java"})).expect("java_index");
    let user = &a.value["classes"][0];
    let method = |name: &str| {
        user["methods"].as_array().expect("methods").iter().find(|m| m["name"] == name).cloned().unwrap_or_default()
    };
    let getter = method("getUsername");
    assert_eq!(getter["generated"], "lombok", "{user}");
    assert_eq!(getter["generatedBy"], "@Getter");
    // The line of the field it reads.
    assert_eq!(getter["startLine"], 13);
    assert_eq!(method("isActive")["returnTypeText"], "boolean");
    assert_eq!(method("setAge")["generatedBy"], "@Setter");
    assert_eq!(method("builder")["returnTypeText"], "User.UserBuilder");
    let ctor = &user["constructors"][0];
    assert_eq!((ctor["generated"].as_str(), ctor["params"].as_array().map(Vec::len)), (Some("lombok"), Some(3)));
    let builder = &user["innerClasses"][0];
    assert_eq!((builder["name"].as_str(), builder["generated"].as_str()), (Some("UserBuilder"), Some("lombok")));
    let names: Vec<&str> =
        builder["methods"].as_array().expect("methods").iter().filter_map(|m| m["name"].as_str()).collect();
    assert_eq!(names, ["username", "age", "active", "build", "toString"]);
    // Written members are not marked.
    assert!(user["fields"].as_array().expect("fields").iter().all(|f| f.get("generated").is_none()), "{user}");
    let text = a.text();
    assert!(text.contains("13 public String getUsername()  [lombok @Getter]\n"), "{text}");
    assert!(text.contains("public void setUsername(String username)  [lombok @Setter]"), "{text}");
    assert!(text.contains("public static class UserBuilder  [lombok @Builder]"), "{text}");
    // The logger of @Slf4j, and nothing from another package's `@Getter`.
    let a = call(&ws, "java_index", json!({"filePath": "src/com/example/UserService.java"})).expect("java_index");
    assert!(a.text().contains("private static final org.slf4j.Logger log  [lombok @Slf4j]"), "{}", a.text());
    let a = call(&ws, "java_index", json!({"filePath": "src/com/example/other/Plain.java"})).expect("java_index");
    assert!(!a.text().contains("lombok") && !a.text().contains("getName"), "{}", a.text());
    // includeGenerated: false lists what is written, and only that.
    let args = json!({"filePath": "src/com/example/User.java", "options": {"includeGenerated": false}});
    let a = call(&ws, "java_index", args).expect("java_index");
    let user = &a.value["classes"][0];
    assert_eq!(user["methods"], json!([]), "{user}");
    assert_eq!((user["constructors"].clone(), user["innerClasses"].clone()), (json!([]), json!([])));
    assert_eq!(user["fields"].as_array().map(Vec::len), Some(3));
    assert!(!a.text().contains("lombok"), "{}", a.text());
}

#[test]
fn java_find_symbol_finds_generated_accessors_builders_and_loggers() {
    let (_d, ws) = workspace();
    let found = |q: &str| call(&ws, "java_find_symbol", json!({"query": q})).expect("java_find_symbol").text();
    let t = found("getUsername");
    assert!(t.contains("com.example.User#getUsername  src/com/example/User.java:13"), "{t}");
    let t = found("builder");
    assert!(t.contains("com.example.User#builder"), "{t}");
    let t = found("UserBuilder");
    assert!(t.contains("com.example.User.UserBuilder"), "{t}");
    let t = found("log");
    assert!(t.contains("com.example.UserService#log"), "{t}");
    // Another package's `@Getter` generates nothing.
    assert!(!found("getName").contains("Plain"));
}

#[test]
fn find_references_finds_the_calls_of_generated_members() {
    let (_d, ws) = workspace();
    let service = "src/com/example/UserService.java".to_owned();
    assert_eq!(refs(&ws, "com.example.User#getUsername()"), [(service.clone(), 8), (service.clone(), 9)]);
    assert_eq!(refs(&ws, "com.example.User#setUsername(String)"), [(service.clone(), 8)]);
    assert_eq!(refs(&ws, "com.example.User#isActive()"), [(service.clone(), 10), (service.clone(), 15)]);
    assert_eq!(refs(&ws, "com.example.User#builder()"), [(service.clone(), 14)]);
    assert_eq!(refs(&ws, "com.example.User.UserBuilder#username(String)"), [(service.clone(), 14)]);
    assert_eq!(refs(&ws, "com.example.User.UserBuilder#build()"), [(service.clone(), 14)]);
    assert_eq!(refs(&ws, "com.example.User#User(String,int,boolean)"), [(service.clone(), 15)]);
    assert_eq!(refs(&ws, "com.example.UserService#log"), [(service.clone(), 9)]);
    // Not Lombok's annotation: the getter does not exist.
    let e = call(&ws, "find_references", json!({"target": "com.example.other.Plain#getName()"})).map(|a| a.text());
    assert!(e.as_ref().is_err_and(|e| e.contains("getName")), "{e:?}");
}

#[test]
fn edits_of_a_generated_member_are_refused_and_touch_nothing() {
    let (d, ws) = workspace();
    let before = std::fs::read_to_string(d.path().join("src/com/example/UserService.java")).expect("read");
    let refused = |args: Value| {
        call(&ws, "refactor_actions", args.clone()).map(|a| a.text()).expect_err(&format!("refused: {args}"))
    };
    let e = refused(json!({"action": "rename", "target": "com.example.User#getUsername()", "newName": "getName"}));
    assert!(e.contains("generated by Lombok") && e.contains("line 13"), "{e}");
    let e = refused(json!({"action": "rename", "target": "com.example.UserService#log", "newName": "logger"}));
    assert!(e.contains("generated by Lombok"), "{e}");
    let e = refused(json!({"action": "safe_delete", "target": "com.example.User#getAge()"}));
    assert!(e.contains("generated by Lombok from the annotation or field at line 14"), "{e}");
    let e = refused(json!({"action": "change_signature", "target": "com.example.User#getAge()", "newName": "age"}));
    assert!(e.contains("generated by Lombok from the annotation or field at line 14"), "{e}");
    // A field whose generated accessors are called is used: its deletion would break them.
    let e = refused(json!({"action": "safe_delete", "target": "com.example.User#username"}));
    assert!(e.contains("it has 4 uses") && e.contains("(its Lombok accessor getUsername())"), "{e}");
    let after = std::fs::read_to_string(d.path().join("src/com/example/UserService.java")).expect("read");
    assert_eq!(before, after);
}

/// A workspace over a copy of the Lombok fixtures with Lombok's jar on its classpath, trusted
/// or not, plus a file with one real error beside Lombok's calls.
fn problems_workspace(trusted: bool) -> (tempfile::TempDir, Host) {
    let dir = tempfile::tempdir().expect("tempdir");
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/lombok/src");
    crate::common::copy_dir(&fixtures, &dir.path().join("src"));
    // Their loggers' libraries are not here: with an unresolved import, javac stops after
    // Lombok's round and attributes nothing.
    for f in ["Slf4jClass", "CommonsLogClass", "Log4j2Class"] {
        std::fs::remove_file(dir.path().join(format!("src/com/example/{f}.java"))).expect("remove");
    }
    let broken = "package com.example.app;\n\nimport com.example.GetterSetterType;\n\nclass Broken {\n    String f(GetterSetterType t) {\n        return t.getUsername() + t.getNickname();\n    }\n}\n";
    std::fs::write(dir.path().join("src/com/example/app/Broken.java"), broken).expect("write");
    let jar = super::lombok_oracle::lombok_jar();
    let flags = mcp_java_index::config::Flags::roots([dir.path()])
        .set("watch", false)
        .set("cache", false)
        .set("classpath", jar.display());
    let env = |k: &str| (trusted && k == "MCP_JAVA_INDEX_TRUST").then(|| "1".into());
    let ws = Host::open(mcp_java_index::config::Config::load(&flags, &env).expect("config")).expect("workspace");
    ws.build_index();
    (dir, ws)
}

/// Every error `get_problems` reports, as `file:line message-first-line`.
fn errors(a: &Answer) -> Vec<String> {
    a.value["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| d["severity"] == "Error")
        .map(|d| {
            let first = d["message"].as_str().unwrap_or("").lines().collect::<Vec<_>>().join(" ");
            format!("{}:{} {first}", d["file"].as_str().unwrap_or(""), d["line"])
        })
        .collect()
}

/// Untrusted (no processor runs): javac's complaints about members Lombok generates are not
/// problems of the code, so none is shown and the answer says how many were left out and why;
/// a real error beside them (`getNickname()`, which nothing declares or generates) still is.
/// Trusted with Lombok on the classpath: javac runs Lombok as its processor, and says so.
#[test]
fn get_problems_tells_lombok_s_members_from_real_errors_trusted_or_not() {
    let (_d, ws) = problems_workspace(false);
    let a = call(&ws, "get_problems", json!({"filePath": "src", "limit": 500})).expect("get_problems");
    assert_eq!(a.value["complete"], true, "{}", a.value);
    let errs: Vec<String> = errors(&a);
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert!(errs[0].starts_with("src/com/example/app/Broken.java:7 ") && errs[0].contains("getNickname()"), "{errs:?}");
    let note = a.value["javac"]["annotationProcessing"].as_str().expect("annotationProcessing said");
    assert!(note.starts_with("lombok did not run: the workspace is untrusted"), "{note}");
    let hidden: u64 =
        note.split("; ").nth(1).and_then(|s| s.split(' ').next()).and_then(|n| n.parse().ok()).expect("a count");
    assert!(hidden >= 50, "{note}");

    let (_d, ws) = problems_workspace(true);
    let a = call(&ws, "get_problems", json!({"filePath": "src", "limit": 500})).expect("get_problems");
    let note = a.value["javac"]["annotationProcessing"].as_str().expect("annotationProcessing said");
    assert!(note.starts_with("lombok (") && note.contains("trusted"), "{note}");
    let errs: Vec<String> = errors(&a);
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert!(errs[0].contains("getNickname()"), "{errs:?}");
}

/// Issue 51: `find_references` of a Lombok field with `includeAccessors` lists its generated
/// getter's, setter's and builder method's uses, each marked with the accessor; without it, the
/// answer counts them and says how to list them.
#[test]
fn find_references_of_a_field_includes_its_accessors_uses_when_asked() {
    let (_d, ws) = workspace();
    let plain = call(&ws, "find_references", json!({"target": "com.example.User#username"})).expect("refs");
    assert_eq!(plain.value["total"], 0, "{}", plain.value);
    assert!(
        plain.value["hint"].as_str().is_some_and(|h| h.starts_with("4 more use(s)") && h.contains("includeAccessors")),
        "{}",
        plain.value
    );
    let a = call(&ws, "find_references", json!({"target": "com.example.User#username", "includeAccessors": true}))
        .expect("refs");
    let mut got: Vec<(u64, String)> = Vec::new();
    for f in a.value["files"].as_array().expect("files") {
        assert_eq!(f["file"], "src/com/example/UserService.java");
        for r in f["references"].as_array().expect("references") {
            got.push((r["line"].as_u64().expect("line"), r["accessor"].as_str().expect("marked").to_owned()));
        }
    }
    assert_eq!(
        got,
        [
            (8, "setUsername()".to_owned()),
            (8, "getUsername()".to_owned()),
            (9, "getUsername()".to_owned()),
            (14, "UserBuilder.username()".to_owned()),
        ],
        "{}",
        a.value
    );
}

/// Issue 51: `show_definition` of a generated member answers the field or annotation that
/// makes it, and says it is generated (no declaration in the source).
#[test]
fn show_definition_of_a_generated_member_says_so() {
    let (_d, ws) = workspace();
    let a = call(&ws, "show_definition", json!({"symbol": "User.getUsername"})).expect("show_definition");
    let d = &a.value["definitions"][0];
    assert_eq!(d["qualifiedName"], "com.example.User#getUsername()", "{}", a.value);
    assert_eq!(
        (d["file"].as_str(), d["startLine"].as_u64()),
        (Some("src/com/example/User.java"), Some(13)),
        "{}",
        a.value
    );
    assert_eq!(d["generated"], "lombok @Getter", "{}", a.value);
    assert!(a.text().contains("[lombok @Getter: generated, no declaration in the source]"), "{}", a.text());
    // A written member says nothing of the kind.
    let w = call(&ws, "show_definition", json!({"symbol": "UserService.describe"})).expect("show_definition");
    assert!(w.value["definitions"][0].get("generated").is_none(), "{}", w.value);
}

/// Issue 51: renaming a Lombok field renames its generated accessors' calls as Lombok names them
/// for the new field (`getUsername()` → `getLogin()`, the builder's `username(…)` → `login(…)`),
/// applied, and the project still compiles with Lombok as javac's processor; a rename whose new
/// getter a written method would take is refused with the reason, touching nothing.
#[test]
fn renaming_a_lombok_field_renames_its_accessors_calls_and_still_compiles() {
    let (d, ws) = workspace();
    let a = call(
        &ws,
        "refactor_actions",
        json!({"action": "rename", "target": "com.example.User#username", "newName": "login", "apply": true}),
    )
    .expect("renamed");
    let text = a.text();
    assert!(text.contains("getUsername → getLogin") && text.contains("setUsername → setLogin"), "{text}");
    let service = std::fs::read_to_string(d.path().join("src/com/example/UserService.java")).expect("read");
    assert!(service.contains("user.setLogin(user.getLogin().trim());"), "{service}");
    assert!(service.contains("log.info(\"described {}\", user.getLogin());"), "{service}");
    assert!(service.contains("User.builder().login(\"ann\").age(3).build()"), "{service}");
    assert!(!service.contains("sername"), "{service}");
    let user = std::fs::read_to_string(d.path().join("src/com/example/User.java")).expect("read");
    assert!(user.contains("private String login;"), "{user}");
    // javac with Lombok as the processor compiles the renamed project (the logger's library
    // aside: UserService's @Slf4j is left out of the check by a stand-in org.slf4j.Logger).
    let stub = d.path().join("stub/org/slf4j");
    std::fs::create_dir_all(&stub).expect("mkdir");
    std::fs::write(
        stub.join("Logger.java"),
        "package org.slf4j;\npublic interface Logger { void info(String f, Object... a); }\n",
    )
    .expect("write");
    std::fs::write(stub.join("LoggerFactory.java"), "package org.slf4j;\npublic class LoggerFactory { public static Logger getLogger(Class<?> c) { return null; } }\n").expect("write");
    let out = javac_with_lombok(
        d.path(),
        [
            "src/com/example/User.java",
            "src/com/example/UserService.java",
            "stub/org/slf4j/Logger.java",
            "stub/org/slf4j/LoggerFactory.java",
        ],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(d.path().join("classes/com/example/User.class").is_file());

    // A written getter takes the new getter's name: refused, nothing changed.
    let (d, ws) = crate::common::indexed(
        "src",
        &[
            (
                "p/Book.java",
                "package p;\n\nimport lombok.Getter;\n\n@Getter\npublic class Book {\n    private String title;\n\n    public String getHeading() {\n        return \"h\";\n    }\n}\n",
            ),
            (
                "p/Shelf.java",
                "package p;\n\nclass Shelf {\n    String f(Book b) {\n        return b.getTitle();\n    }\n}\n",
            ),
        ],
    );
    let before = std::fs::read_to_string(d.path().join("src/p/Shelf.java")).expect("read");
    let e = call(
        &ws,
        "refactor_actions",
        json!({"action": "rename", "target": "p.Book#title", "newName": "heading", "apply": true}),
    )
    .map(|a| a.text())
    .expect_err("refused");
    assert!(e.contains("Lombok would no longer generate p.Book#getTitle()"), "{e}");
    assert_eq!(std::fs::read_to_string(d.path().join("src/p/Shelf.java")).expect("read"), before);
}

/// `includeAccessors`, a field's rename and `safe_delete` name the accessors as the file's
/// `lombok.config` makes them: with `lombok.accessors.prefix += m_`, the field `m_title` has
/// `getTitle()`, whose call a rename to `m_heading` turns into `getHeading()` (with Lombok's
/// defaults they looked for `getM_title()`, which the world does not have: no accessor found,
/// the call left unchanged and the build broken).
#[test]
fn accessors_of_a_field_follow_lombok_config_in_references_rename_and_safe_delete() {
    let (d, ws) = crate::common::indexed(
        "src",
        &[
            ("lombok.config", "lombok.accessors.prefix += m_\n"),
            (
                "p/Book.java",
                "package p;\n\nimport lombok.Getter;\n\n@Getter\npublic class Book {\n    private String m_title;\n}\n",
            ),
            (
                "p/Shelf.java",
                "package p;\n\nclass Shelf {\n    String f(Book b) {\n        return b.getTitle();\n    }\n}\n",
            ),
        ],
    );
    let a = call(&ws, "find_references", json!({"target": "p.Book#m_title", "includeAccessors": true}))
        .expect("find_references");
    let text = a.text();
    assert!(text.contains("Shelf.java") && text.contains("getTitle()"), "{text}");
    let e = call(&ws, "refactor_actions", json!({"action": "safe_delete", "target": "p.Book#m_title"}))
        .map(|a| a.text())
        .expect_err("the getter is called");
    assert!(e.contains("getTitle"), "{e}");
    call(
        &ws,
        "refactor_actions",
        json!({"action": "rename", "target": "p.Book#m_title", "newName": "m_heading", "apply": true}),
    )
    .expect("renamed");
    let shelf = std::fs::read_to_string(d.path().join("src/p/Shelf.java")).expect("read");
    assert!(shelf.contains("return b.getHeading();"), "{shelf}");
}

/// Issue 51, found by the seeded renames on java-design-patterns: a lambda's parameter typed by
/// a wildcard `? super T` of a workspace method (`each(Consumer<? super T>)` on a `Shelf<Cart>`)
/// has the type `T` (JLS 9.9), so its calls of generated accessors are exact and renamed with
/// the field; they were left `likely`, unrenamed, and javac with Lombok no longer compiled them.
/// (The JDK's own `removeIf`/`map` are not there yet: the JDK table writes `? super T` as
/// `Object`, see docs/limitations.md.)
#[test]
fn renaming_a_lombok_field_renames_its_accessors_calls_in_lambdas_of_wildcard_interfaces() {
    let (d, ws) = crate::common::indexed(
        "src",
        &[
            (
                "p/Cart.java",
                "package p;\n\nimport lombok.Getter;\n\n@Getter\npublic class Cart {\n    private final String product;\n\n    public Cart(String product) {\n        this.product = product;\n    }\n}\n",
            ),
            (
                "p/Repo.java",
                "package p;\n\nimport java.util.List;\n\nrecord Repo(Shelf<Cart> carts) {\n    void remove(List<String> out) {\n        carts.each(item -> out.add(item.getProduct()));\n    }\n}\n",
            ),
            (
                "p/Shelf.java",
                "package p;\n\nimport java.util.function.Consumer;\n\nclass Shelf<T> {\n    void each(Consumer<? super T> f) {}\n}\n",
            ),
        ],
    );
    call(
        &ws,
        "refactor_actions",
        json!({"action": "rename", "target": "p.Cart#product", "newName": "item", "apply": true}),
    )
    .expect("renamed");
    let repo = std::fs::read_to_string(d.path().join("src/p/Repo.java")).expect("read");
    assert!(repo.contains("carts.each(item -> out.add(item.getItem()));"), "{repo}");
    let out = javac_with_lombok(d.path(), ["src/p/Cart.java", "src/p/Repo.java", "src/p/Shelf.java"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Issue 51, found by `get_problems` on java-design-patterns (untrusted, so Lombok did not
/// run): javac's complaints that follow from Lombok's members, where the reference engine cannot
/// bind the call or javac says it otherwise, are not shown either — a getter called on a
/// lambda's parameter (javac names the type), an interface method a generated getter
/// implements, a diamond, a constructor reference and an argument of a generated constructor,
/// and what follows from them (the stream's `List<Object>`, the `case` labels of a switch on a
/// generated getter). The two real errors beside them still are.
#[test]
fn get_problems_untrusted_hides_what_follows_from_lombok_s_members_and_keeps_real_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let files: &[(&str, &str)] = &[
        ("p/Named.java", "package p;\n\npublic interface Named {\n    String getName();\n}\n"),
        ("p/Kind.java", "package p;\n\npublic enum Kind {\n    SMALL,\n    LARGE\n}\n"),
        (
            "p/Item.java",
            "package p;\n\nimport lombok.Getter;\n\n@Getter\npublic class Item implements Named {\n    private String name;\n    private Kind kind;\n}\n",
        ),
        (
            "p/Box.java",
            "package p;\n\nimport lombok.AllArgsConstructor;\n\n@AllArgsConstructor\npublic class Box<T> {\n    private T value;\n}\n",
        ),
        (
            "p/Tag.java",
            "package p;\n\nimport lombok.AllArgsConstructor;\n\n@AllArgsConstructor\npublic class Tag {\n    private Long id;\n}\n",
        ),
        (
            "p/Mage.java",
            "package p;\n\nimport lombok.RequiredArgsConstructor;\n\n@RequiredArgsConstructor\npublic class Mage {\n    private final String help;\n\n    public Mage(Mage other) {\n        this.help = other.help;\n    }\n}\n",
        ),
        (
            "p/Use.java",
            "package p;\n\nimport java.util.List;\nimport java.util.function.Function;\n\nclass Use {\n    List<String> names(List<Item> items) {\n        return items.stream()\n            .map(i -> i.getName())\n            .toList();\n    }\n\n    int size(Item item) {\n        switch (item.getKind()) {\n            case SMALL -> {\n                return 1;\n            }\n            case LARGE -> {\n                return 2;\n            }\n            default -> {\n                return 0;\n            }\n        }\n    }\n\n    Object make() {\n        Box<String> b = new Box<>(\"x\");\n        Function<Long, Tag> f = Tag::new;\n        Mage m = new Mage(\"help\");\n        int wrong = \"real\";\n        return List.of(b, f, m, wrong, m.getNickname());\n    }\n}\n",
        ),
    ];
    for (rel, text) in files {
        crate::common::write(&dir.path().join("src"), rel, text);
    }
    let jar = super::lombok_oracle::lombok_jar();
    // The project compiles with Lombok as the processor but for the two real errors.
    let out = javac_with_lombok(dir.path(), files.iter().map(|(rel, _)| format!("src/{rel}")));
    let err = String::from_utf8_lossy(&out.stderr);
    let javac_errors: Vec<&str> = err.lines().filter(|l| l.contains(": error: ")).collect();
    assert_eq!(javac_errors.len(), 2, "{err}");
    let flags = mcp_java_index::config::Flags::roots([dir.path()])
        .set("watch", false)
        .set("cache", false)
        .set("classpath", jar.display());
    let ws = Host::open(mcp_java_index::config::Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    ws.build_index();
    let a = call(&ws, "get_problems", json!({"filePath": "src", "limit": 500})).expect("get_problems");
    assert_eq!(a.value["complete"], true, "{}", a.value);
    let errs = errors(&a);
    assert_eq!(errs.len(), 2, "{errs:#?}");
    assert!(errs[0].starts_with("src/p/Use.java:31 ") && errs[0].contains("incompatible types"), "{errs:?}");
    assert!(errs[1].starts_with("src/p/Use.java:32 ") && errs[1].contains("getNickname()"), "{errs:?}");
}
