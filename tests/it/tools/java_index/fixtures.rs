//! One snapshot per fixture: the exact `java_index` JSON of every file under tests/fixtures
//! (default options), a compact rendering that is easy to review by eye, and the text the
//! model reads (the tool's own text rendering, through the registry as a client calls it).

use crate::common;

use mcp_java_index::config::{Config, Flags};
use mcp_java_index::model::OutlineOptions;
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::registry::dispatch;
use mcp_java_index::tools::tool::java_index::index_file;

#[test]
fn every_fixture_outline_is_pinned() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let flags = Flags::roots([root.as_path()]).set("watch", false).set("cache", false);
    let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    insta::glob!("../../..", "fixtures/**/*.java", |path| {
        let rel = path.strip_prefix(&root).expect("fixture under tests/fixtures").to_string_lossy().replace('\\', "/");
        let outline = index_file(path, &rel, &OutlineOptions::default()).expect("fixture outlines");
        insta::assert_snapshot!("outline", common::render(&outline));
        insta::assert_json_snapshot!("json", outline);
        let args = serde_json::json!({ "filePath": rel });
        let answer = dispatch(&ws, "java_index", args.as_object().cloned().unwrap_or_default())
            .unwrap_or_else(|e| panic!("{rel}: {e}"));
        insta::assert_snapshot!("text", answer.text());
    });
}
