//! `extract_method` with `replaceAll` on a temp copy of tests/edit_fixtures/duplicates: the
//! same statements elsewhere in the class under other names become calls too, those whose data
//! flow differs stay (with a warning); the diff is a snapshot and javac compiles the fixture
//! after the apply.

use super::refactor::{applied, compiles, setup_of};
use serde_json::json;

#[test]
fn extract_method_replaces_the_duplicates_it_is_asked_to() {
    let (p, ws) = setup_of("duplicates");
    compiles(&p);
    let diff = applied(
        &p,
        &ws,
        json!({"action": "extract_method", "filePath": "dp/Report.java", "startLine": 9, "endLine": 12,
               "newName": "sumOf", "replaceAll": true}),
    );
    assert!(diff.contains("the duplicate at line 39 stays: the variable it gives to the code after it"), "{diff}");
    assert!(
        diff.contains("+        int total = sumOf(values);") && diff.contains("+        int sum = sumOf(items);"),
        "{diff}"
    );
    insta::assert_snapshot!("extract_method_duplicates", diff);
}
