//! A file rewritten with the same size and its modification time set back is still seen as
//! changed: by the outline cache and by the workspace index (no watcher, so only the stamps
//! can tell).

use std::path::Path;
use std::time::{Duration, SystemTime};

use mcp_java_index::config::{Config, Flags};
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::tool::find_type::FindTypeArgs;
use mcp_java_index::tools::tool::java_index::JavaIndexArgs;

fn open(root: &Path) -> Host {
    let flags = Flags::roots([root]).set("watch", false);
    Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace")
}

fn types(ws: &Host, pattern: &str) -> u64 {
    let args: FindTypeArgs = serde_json::from_value(serde_json::json!({ "query": pattern })).expect("args");
    mcp_java_index::tools::tool::find_type::run(ws, &args).expect("find_type").page.total
}

fn outline_names(ws: &Host) -> Vec<String> {
    let args = JavaIndexArgs { file_path: "A.java".to_owned(), options: Default::default() };
    mcp_java_index::tools::tool::java_index::run(ws, &args)
        .expect("java_index")
        .outline
        .classes
        .iter()
        .map(|t| t.name.clone())
        .collect()
}

#[test]
fn same_size_same_mtime_rewrite_is_seen() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("A.java");
    std::fs::write(&file, "class Aaaa {}\n").expect("write");
    // An old mtime: outside the racy window, so only size, mtime, ctime and inode decide.
    let old = SystemTime::now() - Duration::from_secs(3600);
    std::fs::File::options().write(true).open(&file).expect("open").set_modified(old).expect("set mtime");
    let ws = open(dir.path());
    ws.build_index();
    assert_eq!(types(&ws, "Aaaa"), 1);
    assert_eq!(outline_names(&ws), ["Aaaa"]);
    std::thread::sleep(Duration::from_millis(20));
    std::fs::write(&file, "class Bbbb {}\n").expect("rewrite, same length");
    std::fs::File::options().write(true).open(&file).expect("open").set_modified(old).expect("restore mtime");
    assert_eq!(outline_names(&ws), ["Bbbb"], "the cache served the old outline");
    // Without a watcher the index re-checks the files an answer returns: the old name's file.
    assert_eq!(types(&ws, "Aaaa"), 0, "the index served the old symbols");
    assert_eq!(types(&ws, "Bbbb"), 1, "the index missed the new symbols");
}
