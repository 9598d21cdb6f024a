//! `type_hierarchy`, `find_implementations` and `find_references`' kinds on a temp copy of
//! tests/nav_fixtures (anonymous classes, lambdas, enum constant bodies, generics,
//! interfaces extending interfaces, a library supertype): each answer's text is a snapshot.

use crate::common;
use common::copy_dir;

use std::path::PathBuf;

use mcp_java_index::config::{Config, Flags};
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::registry::find;
use serde_json::{Value, json};

fn setup() -> (tempfile::TempDir, Host) {
    let dir = tempfile::tempdir().expect("tempdir");
    copy_dir(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/nav_fixtures/src"), dir.path());
    let flags = Flags::roots([dir.path()]).set("watch", false).set("cache", false);
    let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    ws.build_index();
    (dir, ws)
}

fn call(ws: &Host, tool: &str, args: Value) -> Result<(Value, String), String> {
    let Value::Object(map) = args else { panic!("args are an object") };
    let a = find(tool).expect("registered").call(ws, map)?;
    let text = a.text();
    Ok((a.value, text))
}

fn text(ws: &Host, tool: &str, args: Value) -> String {
    call(ws, tool, args).expect("answer").1
}

#[test]
fn type_hierarchy_of_an_interface_lists_named_anonymous_and_enum_constant_subtypes() {
    let (_d, ws) = setup();
    let all = text(&ws, "type_hierarchy", json!({"target": "nav.shapes.Shape", "depth": 0}));
    insta::assert_snapshot!("hierarchy_shape_all", all);
    // Depth 1: only the direct subtypes (Polygon, Circle, Kind, the anonymous Shape of
    // Shapes), not Square, whose superclass implements Polygon.
    let (v, _) =
        call(&ws, "type_hierarchy", json!({"target": "nav.shapes.Shape", "direction": "subtypes"})).expect("answer");
    let names: Vec<&str> = v["types"].as_array().expect("types").iter().filter_map(|t| t["fqn"].as_str()).collect();
    assert!(names.contains(&"nav.shapes.Polygon") && !names.contains(&"nav.shapes.Square"), "{names:?}");
    assert!(v["types"].as_array().expect("types").iter().all(|t| t["depth"] == 1), "{v}");
}

#[test]
fn lambdas_and_method_references_are_subtypes_of_their_functional_interface() {
    let (_d, ws) = setup();
    // A declaration's lambda and method reference, and a call's.
    let t = text(&ws, "type_hierarchy", json!({"target": "nav.shapes.Measure", "direction": "subtypes"}));
    insta::assert_snapshot!("hierarchy_measure_lambdas", t);
}

#[test]
fn supertypes_of_a_class_reach_library_types_with_their_origin() {
    let (_d, ws) = setup();
    let plain =
        text(&ws, "type_hierarchy", json!({"target": "nav.shapes.Square", "direction": "supertypes", "depth": 0}));
    insta::assert_snapshot!("hierarchy_square_supertypes", plain);
    let libs = text(
        &ws,
        "type_hierarchy",
        json!({"target": "nav.store.ShapeList", "direction": "supertypes", "depth": 0, "includeLibraries": true}),
    );
    insta::assert_snapshot!("hierarchy_shape_list_with_libraries", libs);
    // A position names the type declared (or used) there; paged by offset and limit.
    let (v, t) = call(
        &ws,
        "type_hierarchy",
        json!({"filePath": "nav/shapes/Square.java", "line": 3, "direction": "supertypes", "depth": 0, "limit": 1}),
    )
    .expect("answer");
    assert_eq!(v["root"]["fqn"], "nav.shapes.Square", "{v}");
    assert_eq!((v["truncated"].as_bool(), v["nextOffset"].as_u64()), (Some(true), Some(1)), "{t}");
}

#[test]
fn an_unknown_or_ambiguous_target_is_an_error_with_candidates_never_an_empty_tree() {
    let (_d, ws) = setup();
    let e = call(&ws, "type_hierarchy", json!({"target": "nav.shapes.Shap"})).expect_err("no such type");
    assert!(e.contains("did you mean nav.shapes.Shape"), "{e}");
    let e = call(&ws, "find_implementations", json!({"target": "nav.shapes.Circle#r"})).expect_err("a field");
    assert!(e.contains("takes a type or a method"), "{e}");
}

#[test]
fn implementations_of_a_type_and_of_a_method() {
    let (_d, ws) = setup();
    let types = text(&ws, "find_implementations", json!({"target": "nav.shapes.Shape"}));
    insta::assert_snapshot!("implementations_of_shape", types);
    let area = text(&ws, "find_implementations", json!({"target": "nav.shapes.Shape#area()"}));
    insta::assert_snapshot!("implementations_of_shape_area", area);
    // Generics: save(T) is overridden by save(Shape), save(T) of Box and save(Circle).
    let save = text(&ws, "find_implementations", json!({"target": "nav.store.Repo#save(Object)"}));
    insta::assert_snapshot!("implementations_of_repo_save", save);
    for k in ["nav.store.ShapeRepo#save(nav.shapes.Shape)", "nav.store.CircleBox#save(nav.shapes.Circle)"] {
        assert!(save.contains(k), "{save}");
    }
}

#[test]
fn find_references_filters_and_counts_by_kind() {
    let (_d, ws) = setup();
    let (all, _) = call(&ws, "find_references", json!({"target": "nav.shapes.Shapes#count"})).expect("answer");
    // count++, --count, count += 2, this.count = …, count-- in a lambda: writes; the reads.
    assert_eq!(all["kindCounts"], json!({"read": 1, "write": 5}), "{all}");
    let (w, _) =
        call(&ws, "find_references", json!({"target": "nav.shapes.Shapes#count", "kinds": ["write"]})).expect("answer");
    let lines: Vec<u64> = w["files"][0]["references"]
        .as_array()
        .expect("references")
        .iter()
        .map(|r| {
            assert_eq!(r["kind"], "write", "{r}");
            r["line"].as_u64().unwrap_or_default()
        })
        .collect();
    assert_eq!(lines, [19, 20, 21, 22, 33], "{w}");
    assert_eq!(w["kindCounts"], all["kindCounts"], "counted before the filter");
    let (c, _) =
        call(&ws, "find_references", json!({"target": "nav.shapes.Circle", "kinds": ["new", "type"]})).expect("answer");
    insta::assert_json_snapshot!("references_to_circle_new_and_type", c["kindCounts"]);
    let e = call(&ws, "find_references", json!({"target": "nav.shapes.Circle", "kinds": ["field-read"]}))
        .expect_err("not a kind");
    assert!(e.contains("read"), "{e}");
}
