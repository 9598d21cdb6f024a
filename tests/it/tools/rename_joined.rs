//! A rename of a method whose override family another family joins (java.base's
//! `Node.OfPrimitive#copyInto(T_ARR,int)`: EmptyNode's `copyInto(T_ARR,int)` implements it in
//! `EmptyNode.OfInt` and `Node#copyInto(T[],int)` in `EmptyNode.OfRef`), on a temp copy of
//! tests/edit_fixtures/families_joined: every member and call moves together, the unqualified
//! call between two overloads of the family too, and javac compiles the result.

use super::refactor::{call, compiles, setup_of};
use serde_json::json;

#[test]
fn a_call_between_two_overloads_of_one_family_is_renamed_with_it() {
    let (p, ws) = setup_of("families_joined");
    compiles(&p);
    let args = json!({"action": "rename", "target": "fj.Node.OfPrimitive#copyInto(java.lang.Object,int)", "newName": "copyAll"});
    let (preview, _) = call(&ws, args.clone()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(preview.get("likely"), None, "{preview}");
    let mut apply = args;
    apply["apply"] = json!(true);
    apply["editId"] = preview["editId"].clone();
    let (done, _) = call(&ws, apply).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(done["applied"], json!(true), "{done}");
    compiles(&p);
    let node = std::fs::read_to_string(p.root.path().join("fj/Node.java")).expect("read");
    assert!(!node.contains("copyInto("), "{node}");
    assert!(node.contains("            copyAll(boxed, 0);"), "{node}");
}
