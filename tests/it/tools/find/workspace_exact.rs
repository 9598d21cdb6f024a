//! Issue 13 on the workspace side: no file silently left out, and names as an IDE takes them.
//! Directories named `target`, `build` or `out` are build output only beside a build file (or
//! holding build products), never in a package tree; `Outer.Inner` finds nested types.

use std::path::Path;
use std::time::Duration;

use crate::common;
use common::{open, types, wait_for, write};

use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::tool::find_type::FindTypeArgs;
use mcp_java_index::tools::tool::java_find_symbol::{FindSymbolArgs, FindSymbolOptions, MatchKind};

fn fqns(ws: &Host, pattern: &str) -> Vec<String> {
    mcp_java_index::tools::tool::find_type::run(ws, &types(pattern))
        .expect("find")
        .results
        .into_iter()
        .map(|r| r.fqn)
        .collect()
}

fn sym(query: &str) -> FindSymbolArgs {
    FindSymbolArgs {
        root_dir: ".".to_owned(),
        query: query.to_owned(),
        options: FindSymbolOptions { match_kind: MatchKind::Any, max_results: 50, ..Default::default() },
    }
}

/// A Maven project whose packages are named `target` and `build`, with real build output.
fn packages_named_like_build_output(root: &Path) {
    write(root, "pom.xml", "<project/>\n");
    write(root, "src/main/java/org/example/target/Foo.java", "package org.example.target;\npublic class Foo {}\n");
    write(root, "src/main/java/org/example/build/Bar.java", "package org.example.build;\npublic class Bar {}\n");
    write(root, "src/test/java/org/example/out/Baz.java", "package org.example.out;\nclass Baz {}\n");
    write(root, "target/classes/org/example/Gen.java", "package org.example;\nclass GenTarget {}\n");
    write(root, "target/generated-sources/x/Gen.java", "package x;\nclass GenSources {}\n");
    // A Gradle module: its build/ is output, and so is an IntelliJ out/ beside a module file.
    write(root, "app/build.gradle.kts", "\n");
    write(root, "app/build/generated/Gen.java", "class GenGradle {}\n");
    write(root, "app/src/main/java/app/build/Qux.java", "package app.build;\nclass Qux {}\n");
    write(root, "tool/tool.iml", "<module/>\n");
    write(root, "tool/out/production/Gen.java", "class GenIde {}\n");
    // No build file beside and no build products inside: an ordinary directory.
    write(root, "scripts/build/Helper.java", "class Helper {}\n");
}

#[test]
fn directories_named_like_build_output_are_indexed_unless_they_are_build_output() {
    let tmp = tempfile::tempdir().expect("tempdir");
    packages_named_like_build_output(tmp.path());
    let ws = open(tmp.path(), false);
    ws.build_index();
    assert_eq!(fqns(&ws, "Foo"), ["org.example.target.Foo"]);
    assert_eq!(fqns(&ws, "Bar"), ["org.example.build.Bar"]);
    assert_eq!(fqns(&ws, "Baz"), ["org.example.out.Baz"]);
    assert_eq!(fqns(&ws, "Qux"), ["app.build.Qux"]);
    assert_eq!(fqns(&ws, "Helper"), ["Helper"]);
    assert!(fqns(&ws, "Gen*").is_empty(), "build output is not indexed: {:?}", fqns(&ws, "Gen*"));
    // A complete index with no file skipped is not reported unless asked for.
    let r = mcp_java_index::tools::tool::find_type::run(&ws, &types("Foo")).expect("find");
    assert!(r.index.is_none(), "{:?}", r.index);
    let asked = FindTypeArgs { include_index: true, ..types("Foo") };
    let r = mcp_java_index::tools::tool::find_type::run(&ws, &asked).expect("find");
    let index = r.index.clone().expect("asked for");
    let s = index.skipped_dirs;
    assert_eq!((s.maven, s.gradle, s.ide, s.markers), (1, 1, 1, 0), "{s:?}");
    assert!(index.complete);
    let json = serde_json::to_value(&r).expect("json");
    assert_eq!(json["index"]["skippedDirs"]["maven"], 1, "{json}");
}

#[test]
fn the_watcher_follows_packages_named_like_build_output() {
    let tmp = tempfile::tempdir().expect("tempdir");
    packages_named_like_build_output(tmp.path());
    let ws = open(tmp.path(), true);
    ws.start_index();
    assert!(ws.wait_index());
    // The watcher registers on its own thread, which may lag a tiny first pass under load.
    std::thread::sleep(Duration::from_millis(500));
    let root = tmp.path();
    write(root, "src/main/java/org/example/target/Fresh.java", "package org.example.target;\nclass Fresh {}\n");
    write(root, "target/classes/Fresh2.java", "class FreshOutput {}\n");
    wait_for("a file created in package org.example.target", || fqns(&ws, "Fresh") == ["org.example.target.Fresh"]);
    // Give the watcher time to (wrongly) pick up the build output too.
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(fqns(&ws, "Fresh*"), ["org.example.target.Fresh"]);
    assert!(
        mcp_java_index::tools::tool::java_find_symbol::run(&ws, &sym("FreshOutput")).expect("find").results.is_empty()
    );
}

/// Nested types as an IDE's Open Type takes them: `Outer.Inner`.
fn nested_types(root: &Path) {
    write(
        root,
        "src/main/java/org/acme/util/Table.java",
        "package org.acme.util;\n\npublic interface Table<K, V> {\n    interface Entry<K, V> {\n        K getKey();\n    }\n}\n",
    );
    write(
        root,
        "src/main/java/org/acme/util/ConcurrentTable.java",
        "package org.acme.util;\n\npublic class ConcurrentTable<K, V> {\n    public static class KeySetView<K, V> {\n        public static final class Deeper {}\n    }\n}\n",
    );
    write(
        root,
        "src/main/java/org/acme/util/MyTable.java",
        "package org.acme.util;\n\nclass MyTable {\n    interface Entry {}\n}\n",
    );
    write(
        root,
        "src/main/java/org/acme/app/Use.java",
        "package org.acme.app;\n\nimport org.acme.util.Table;\n\nclass Use {\n    Table.Entry<String, String> e;\n}\n",
    );
}

#[test]
fn find_type_takes_outer_dot_inner() {
    let tmp = tempfile::tempdir().expect("tempdir");
    nested_types(tmp.path());
    let ws = open(tmp.path(), false);
    ws.build_index();
    assert_eq!(fqns(&ws, "Table.Entry"), ["org.acme.util.Table.Entry"], "MyTable.Entry is not Table.Entry");
    assert_eq!(fqns(&ws, "ConcurrentTable.KeySetView"), ["org.acme.util.ConcurrentTable.KeySetView"]);
    assert_eq!(fqns(&ws, "KeySetView.Deeper"), ["org.acme.util.ConcurrentTable.KeySetView.Deeper"]);
    assert_eq!(fqns(&ws, "ConcurrentTable.KeySetView.Deeper"), ["org.acme.util.ConcurrentTable.KeySetView.Deeper"]);
    assert_eq!(fqns(&ws, "util.Table.Entry"), ["org.acme.util.Table.Entry"]);
    assert_eq!(fqns(&ws, "org.acme.util.Table.Entry"), ["org.acme.util.Table.Entry"]);
    assert_eq!(fqns(&ws, "Table.E*"), ["org.acme.util.Table.Entry"]);
    assert_eq!(fqns(&ws, "CT.KSV"), Vec::<String>::new(), "the qualifier is a name, not a pattern");
    assert_eq!(fqns(&ws, "ConcurrentTable.KSV"), ["org.acme.util.ConcurrentTable.KeySetView"]);
    // Packages still qualify as before.
    assert_eq!(fqns(&ws, "org.acme.util.Table")[0], "org.acme.util.Table");
    assert!(fqns(&ws, "acme.Table").is_empty(), "a tail of the package, not a part of it");
}

#[test]
fn find_symbol_and_show_definition_take_outer_dot_inner() {
    let tmp = tempfile::tempdir().expect("tempdir");
    nested_types(tmp.path());
    let ws = open(tmp.path(), false);
    ws.build_index();
    let names = |q: &str| -> Vec<String> {
        mcp_java_index::tools::tool::java_find_symbol::run(&ws, &sym(q))
            .expect("find")
            .results
            .into_iter()
            .map(|r| r.qualified_name)
            .collect()
    };
    assert_eq!(names("Table.Entry"), ["org.acme.util.Table.Entry"]);
    assert_eq!(names("ConcurrentTable.KeySetView"), ["org.acme.util.ConcurrentTable.KeySetView"]);
    assert_eq!(names("Table.Entry#getKey"), ["org.acme.util.Table.Entry#getKey"]);
    assert_eq!(names("Table.Entry.getKey"), ["org.acme.util.Table.Entry#getKey"]);
    let def = |q: &str| -> Vec<String> {
        let args = mcp_java_index::tools::tool::show_definition::ShowDefinitionArgs {
            symbol: q.to_owned(),
            file_path: String::new(),
            line: 0,
            column: 0,
            limit: 20,
            ..Default::default()
        };
        match mcp_java_index::tools::tool::show_definition::run(&ws, &args) {
            Ok(r) => r.definitions.into_iter().map(|d| d.qualified_name).collect(),
            Err(e) => vec![format!("error: {e}")],
        }
    };
    assert_eq!(def("Table.Entry"), ["org.acme.util.Table.Entry"]);
    assert_eq!(def("ConcurrentTable.KeySetView"), ["org.acme.util.ConcurrentTable.KeySetView"]);
    assert_eq!(def("KeySetView.Deeper"), ["org.acme.util.ConcurrentTable.KeySetView.Deeper"]);
    assert_eq!(def("Table.Entry.getKey"), ["org.acme.util.Table.Entry#getKey()"]);
}
