//! One snapshot per fixture: the exact `java_index` JSON of every file under tests/fixtures
//! (default options), plus a compact rendering that is easy to review by eye.

mod common;

use mcp_java_index::model::OutlineOptions;
use mcp_java_index::tools::java_index::index_file;

#[test]
fn every_fixture_outline_is_pinned() {
    insta::glob!("fixtures/**/*.java", |path| {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let rel = path.strip_prefix(&root).expect("fixture under tests/fixtures").to_string_lossy().replace('\\', "/");
        let outline = index_file(path, &rel, &OutlineOptions::default()).expect("fixture outlines");
        insta::assert_snapshot!("outline", common::render(&outline));
        insta::assert_json_snapshot!("json", outline);
    });
}
