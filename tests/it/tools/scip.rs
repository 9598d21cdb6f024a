//! `export_scip`: the index it writes reads back with the `scip` crate, every symbol parses,
//! it writes only inside the roots, and a second export after a one-file body edit re-encodes
//! only that file's document (and says so).

use std::path::Path;
use std::time::Duration;

use mcp_java_index::scip::{from_bytes, symbol_is_valid};
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::registry::{dispatch, find};
use serde_json::{Value, json};

use crate::common;

fn call(ws: &Host, args: Value) -> Result<Value, String> {
    let Value::Object(m) = args else { panic!("arguments must be an object") };
    let v = dispatch(ws, "export_scip", m).map(|a| a.value)?;
    let schema = Value::Object(find("export_scip").expect("registered").spec.output_schema.clone());
    let validator = jsonschema::validator_for(&schema).expect("output schema compiles");
    assert!(validator.is_valid(&v), "answer does not match the outputSchema: {v}");
    Ok(v)
}

const SHAPE: &str = "package p;\n\n/** A shape. */\npublic interface Shape {\n    double area();\n}\n";
const SQUARE: &str = "package p;\n\nimport java.util.List;\n\npublic class Square implements Shape {\n    private double side;\n\n    public Square(double side) {\n        this.side = side;\n    }\n\n    @Override\n    public double area() {\n        double a = side * side;\n        return a;\n    }\n\n    static double total(List<Shape> shapes) {\n        double sum = 0;\n        for (Shape s : shapes) {\n            sum += s.area();\n        }\n        return sum + new Square(1).area();\n    }\n}\n";

/// One document rendered as `line:start-end role symbol` lines, for the snapshot.
fn render(index: &mcp_java_index::scip::protocol::types::Index, name: &str) -> String {
    let d = index.documents.iter().find(|d| d.relative_path.ends_with(name)).expect("document");
    let mut out = Vec::new();
    for o in &d.occurrences {
        let role = match o.symbol_roles {
            1 => "definition",
            2 => "import",
            4 => "write",
            8 => "read",
            _ => "reference",
        };
        out.push(format!("{:?} {role} {}", o.range, o.symbol));
    }
    for s in &d.symbols {
        let rel: Vec<String> = s
            .relationships
            .iter()
            .map(|r| {
                format!(
                    "{}{} {}",
                    if r.is_implementation { "impl" } else { "" },
                    if r.is_reference { "+ref" } else { "" },
                    r.symbol
                )
            })
            .collect();
        out.push(format!(
            "{} {:?} {:?} {:?} {:?} {rel:?}",
            s.symbol,
            s.kind.enum_value_or_default(),
            s.display_name,
            s.signature_documentation.text,
            s.documentation
        ));
    }
    out.join("\n")
}

#[test]
fn export_scip_writes_reads_back_and_re_encodes_only_the_edited_file() {
    let (dir, ws) = common::indexed("src", &[("p/Shape.java", SHAPE), ("p/Square.java", SQUARE)]);
    let first = call(&ws, json!({})).expect("export");
    assert_eq!((first["documents"].as_u64(), first["encoded"].as_u64()), (Some(2), Some(2)), "{first}");
    let path = dir.path().join("index.scip");
    let index = from_bytes(&std::fs::read(&path).expect("written")).expect("reads back");
    for d in &index.documents {
        for o in &d.occurrences {
            assert!(symbol_is_valid(&o.symbol), "{}", o.symbol);
        }
    }
    insta::assert_snapshot!(render(&index, "Square.java"));

    // A body edit of one file: one document encoded again.
    let square = dir.path().join("src/p/Square.java");
    std::fs::write(&square, SQUARE.replace("double a = side * side;", "double a = side * side * 1;")).expect("edit");
    let f = std::fs::File::options().write(true).open(&square).expect("open");
    f.set_modified(std::time::SystemTime::now() + Duration::from_secs(5)).expect("mtime");
    // The call's progress sink hears the documents counted (`notifications/progress`).
    let progress = mcp_java_index::model::progress::Progress::new();
    let second = progress.scope(|| call(&ws, json!({"filePath": "index.scip"}))).expect("export again");
    assert_eq!((second["documents"].as_u64(), second["encoded"].as_u64()), (Some(2), Some(1)), "{second}");
    let last = progress.newer_than(0).expect("progress reported");
    assert_eq!((last.message.as_str(), last.done, last.total), ("SCIP documents: 2/2", 2.0, Some(2.0)));
}

#[test]
fn export_scip_refuses_to_write_outside_the_roots() {
    let (_dir, ws) = common::indexed("src", &[("p/Shape.java", SHAPE)]);
    let elsewhere = tempfile::tempdir().expect("tempdir");
    let out = elsewhere.path().join("index.scip");
    let err = call(&ws, json!({"filePath": out.to_string_lossy()})).expect_err("outside the roots");
    assert!(err.contains("outside the workspace roots"), "{err}");
    assert!(!Path::new(&out).exists());
    let err = call(&ws, json!({"filePath": "src/p/Shape.java"})).expect_err("not a .scip file");
    assert!(err.contains(".scip"), "{err}");
}

/// Compiles `sources` (`(relative path, text)`) outside the workspace and jars the classes at
/// `jar`, with `extra` files (`(name in the jar, text)`) beside them.
fn library_jar(jar: &Path, sources: &[(&str, &str)], extra: &[(&str, &str)]) {
    let build = tempfile::tempdir().expect("tempdir");
    let mut javac = std::process::Command::new("javac");
    javac.args(["-d", "classes"]).current_dir(build.path());
    for (rel, text) in sources {
        let p = build.path().join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(&p, text).expect("write");
        javac.arg(rel);
    }
    assert!(javac.status().expect("javac runs").success());
    for (name, text) in extra {
        let p = build.path().join("classes").join(name);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(&p, text).expect("write");
    }
    std::fs::create_dir_all(jar.parent().expect("parent")).expect("mkdir");
    let ok = std::process::Command::new("jar")
        .arg("cf")
        .arg(jar)
        .args(["-C", "classes", "."])
        .current_dir(build.path())
        .status()
        .expect("jar runs");
    assert!(ok.success());
}

/// The files written under `root`, indexed (no cache, no watcher) and exported to
/// `root/index.scip`, read back.
fn exported(root: &Path, files: &[(&str, &str)]) -> mcp_java_index::scip::protocol::types::Index {
    for (rel, text) in files {
        common::write(root, rel, text);
    }
    let flags = mcp_java_index::config::Flags::roots([root]).set("watch", false).set("cache", false);
    let ws = Host::open(mcp_java_index::config::Config::load(&flags, &|_| None).expect("config")).expect("ws");
    ws.build_index();
    call(&ws, json!({})).expect("export");
    from_bytes(&std::fs::read(root.join("index.scip")).expect("written")).expect("reads back")
}

/// Library symbols carry their archive's Maven coordinates as scip-java writes them
/// (`maven/<group>/<artifact> <version>`): from the jar's `pom.properties`, else from a Maven
/// repository's path layout, else `. .`; and the workspace's own code its Gradle build's.
#[test]
fn export_scip_names_libraries_and_a_gradle_build_by_their_coordinates() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().join("app");
    library_jar(
        &root.join("repository/com/acme/util/1.2/util-1.2.jar"),
        &[(
            "com/acme/util/Strings.java",
            "package com.acme.util;\npublic class Strings {\n    public static String up(String s) { return s; }\n    public static class Inner {}\n}\n",
        )],
        &[],
    );
    library_jar(
        &root.join("lib/words.jar"),
        &[(
            "org/example/text/Words.java",
            "package org.example.text;\npublic class Words {\n    public static String first(String s) { return s; }\n}\n",
        )],
        &[(
            "META-INF/maven/org.example/words/pom.properties",
            "#Generated\ngroupId=org.example\nartifactId=words\nversion=3.0\n",
        )],
    );
    library_jar(
        &root.join("lib/plain.jar"),
        &[("net/plain/Thing.java", "package net.plain;\npublic class Thing {}\n")],
        &[],
    );
    let files = [
        ("build.gradle", "plugins { id 'java' }\ngroup = 'com.acme'\nversion = '0.9'\n"),
        ("settings.gradle", "rootProject.name = 'shop'\n"),
        (
            "mcp-java-index.toml",
            "classpath = [\"repository/com/acme/util/1.2/util-1.2.jar\", \"lib/words.jar\", \"lib/plain.jar\"]\n",
        ),
        (
            "src/main/java/app/Main.java",
            "package app;\n\nimport com.acme.util.Strings;\nimport org.example.text.Words;\nimport net.plain.Thing;\n\npublic class Main {\n    Object run(Thing t) {\n        return Strings.up(Words.first(\"a\")) + new Strings.Inner();\n    }\n}\n",
        ),
    ];
    let index = exported(&root, &files);
    let main = render(&index, "Main.java");
    for want in [
        "import scip-java maven maven/com.acme/util 1.2 com/acme/util/Strings#",
        "reference scip-java maven maven/com.acme/util 1.2 com/acme/util/Strings#up().",
        "reference scip-java maven maven/com.acme/util 1.2 com/acme/util/Strings#Inner#`<init>`().",
        "reference scip-java maven maven/org.example/words 3.0 org/example/text/Words#first().",
        "import scip-java maven . . net/plain/Thing#",
        "definition scip-java maven maven/com.acme/shop 0.9 app/Main#",
    ] {
        assert!(main.contains(want), "{want}\n{main}");
    }
    insta::assert_snapshot!(main);
}

/// Each module of a Maven reactor names its code by its own coordinates (its artifactId, the
/// parent's group and version), and a reference from one module to another's type carries the
/// declaring module's, as scip-java's per-module indexes link them; a Gradle subproject with no
/// coordinates of its own takes the root's group and version and its directory's name.
#[test]
fn export_scip_names_each_module_by_its_own_coordinates() {
    let p = common::project::Project::of("build_fixtures", "maven-affected");
    let ws = p.workspace(&[("MCP_JAVA_INDEX_WATCH", "false")]);
    ws.build_index();
    call(&ws, json!({})).expect("export");
    let index = from_bytes(&std::fs::read(p.path("index.scip")).expect("written")).expect("reads back");
    let calc = render(&index, "core/src/main/java/com/example/core/Calc.java");
    assert!(calc.contains("definition scip-java maven maven/com.example/core 1.0 com/example/core/Calc#"), "{calc}");
    let totals = render(&index, "app/src/main/java/com/example/app/Totals.java");
    assert!(
        totals.contains("definition scip-java maven maven/com.example/app 1.0 com/example/app/Totals#"),
        "{totals}"
    );
    assert!(totals.contains(" scip-java maven maven/com.example/core 1.0 com/example/core/Calc#"), "{totals}");

    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().join("shop");
    let files = [
        ("build.gradle", "allprojects {\n    group = 'com.acme'\n    version = '2.1'\n}\n"),
        ("settings.gradle", "rootProject.name = 'shop'\ninclude 'api'\n"),
        ("api/build.gradle", "plugins { id 'java' }\n"),
        ("api/src/main/java/api/Port.java", "package api;\n\npublic interface Port {}\n"),
    ];
    let index = exported(&root, &files);
    let port = render(&index, "Port.java");
    assert!(port.contains("definition scip-java maven maven/com.acme/api 2.1 api/Port#"), "{port}");
}

/// Issue 51: the members Lombok generates are in the index as a build with Lombok has them:
/// each a symbol with its signature and one definition occurrence marked `Generated` at what
/// makes it (the field, or the annotation), and the calls elsewhere reference that symbol.
#[test]
fn export_scip_defines_lombok_s_generated_members_marked_generated() {
    let dir = tempfile::tempdir().expect("tempdir");
    let user = "package p;\n\nimport lombok.Builder;\nimport lombok.Getter;\n\n@Getter\n@Builder\npublic class User {\n    private String name;\n    private int age;\n}\n";
    let use_ = "package p;\n\nclass Use {\n    int f(User u) {\n        return u.getName().length() + User.builder().age(3).build().getAge();\n    }\n}\n";
    let index = exported(dir.path(), &[("p/User.java", user), ("p/Use.java", use_)]);
    let doc = |name: &str| index.documents.iter().find(|d| d.relative_path.ends_with(name)).expect("document");
    let generated = 1 | 16;
    let defined: Vec<(String, i32)> = doc("User.java")
        .occurrences
        .iter()
        .filter(|o| o.symbol_roles == generated)
        .map(|o| (o.symbol.clone(), o.range[0] + 1))
        .collect();
    for (symbol, line) in [
        ("p/User#getName().", 9),
        ("p/User#getAge().", 10),
        ("p/User#builder().", 7),
        ("p/User#`<init>`().", 7),
        ("p/User#UserBuilder#", 7),
        ("p/User#UserBuilder#age().", 7),
        ("p/User#UserBuilder#build().", 7),
    ] {
        let full = format!("scip-java maven . . {symbol}");
        assert!(defined.contains(&(full.clone(), line)), "{full} at line {line} not in {defined:#?}");
        let info = doc("User.java").symbols.iter().find(|s| s.symbol == full).expect("symbol information");
        assert_eq!(info.documentation.first().map(|d| d.starts_with("Generated by Lombok @")), Some(true), "{info:?}");
        assert!(symbol_is_valid(&full), "{full}");
    }
    let info = doc("User.java").symbols.iter().find(|s| s.symbol.ends_with("#getName().")).expect("getName");
    assert_eq!(info.signature_documentation.text, "public String getName()");
    // The calls in Use.java reference the same symbols.
    let used: Vec<&str> = doc("Use.java").occurrences.iter().map(|o| o.symbol.as_str()).collect();
    for s in ["p/User#getName().", "p/User#builder().", "p/User#UserBuilder#age().", "p/User#getAge()."] {
        assert!(used.contains(&format!("scip-java maven . . {s}").as_str()), "{s} not referenced: {used:#?}");
    }
}

/// Issue 51: the generated members are named as the file's `lombok.config` names them
/// (`lombok.accessors.prefix += m_`: the field `m_title`'s getter is `getTitle()`), the same
/// symbols the calls reference (under Lombok's defaults the document defined `getM_title()`,
/// which nothing references, and not `getTitle()`, which the calls do).
#[test]
fn export_scip_names_generated_members_as_lombok_config_does() {
    let dir = tempfile::tempdir().expect("tempdir");
    let book = "package p;\n\nimport lombok.Getter;\n\n@Getter\npublic class Book {\n    private String m_title;\n}\n";
    let use_ = "package p;\n\nclass Use {\n    int f(Book b) {\n        return b.getTitle().length();\n    }\n}\n";
    let index = exported(
        dir.path(),
        &[("lombok.config", "lombok.accessors.prefix += m_\n"), ("p/Book.java", book), ("p/Use.java", use_)],
    );
    let doc = |name: &str| index.documents.iter().find(|d| d.relative_path.ends_with(name)).expect("document");
    let getter = "scip-java maven . . p/Book#getTitle().";
    assert!(
        doc("Book.java").occurrences.iter().any(|o| o.symbol == getter && o.symbol_roles == 1 | 16),
        "{:#?}",
        doc("Book.java").occurrences
    );
    assert!(!doc("Book.java").occurrences.iter().any(|o| o.symbol.contains("getM_title")));
    assert!(doc("Use.java").occurrences.iter().any(|o| o.symbol == getter));
}
