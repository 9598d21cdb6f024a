//! Leaner answers where an agent starts (issue 36): the search and navigation tools' text as
//! lines, the non-Java uses `find_references` counts when it finds no Java one, the
//! declaration as written in `show_definition`, and locate-then-read in one call (a type's
//! name where the reading tools take a file).

use serde_json::{Value, json};

use crate::common::indexed;
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::registry::{Answer, dispatch};

fn call(ws: &Host, tool: &str, args: Value) -> Result<Answer, String> {
    let Value::Object(m) = args else { panic!("arguments must be an object") };
    dispatch(ws, tool, m)
}

const JOB: &str = r#"package app;

/** A scheduled job. Runs once a day. */
@Deprecated
public abstract class Job {
    @SuppressWarnings("unused")
    protected static final int LIMIT = 3;

    /** Whether the job runs. */
    public boolean isEnabled() {
        return true;
    }

    @Override
    public synchronized String toString() {
        return "job";
    }
}
"#;

const RUNNER: &str = r#"package app.other;

public class Job {
    void run() {}
}
"#;

const USE: &str = r#"package app;

class Use {
    String s(Job j) {
        return j.toString();
    }
}
"#;

const VIEW: &str = r#"<j:jelly xmlns:j="jelly:core">
  <j:if test="${it.enabled}">on</j:if>
  <j:if test="${it.enabledAll}">never a match</j:if>
</j:jelly>
"#;

fn workspace() -> (tempfile::TempDir, Host) {
    indexed(
        "",
        &[
            ("src/app/Job.java", JOB),
            ("src/app/Use.java", USE),
            ("src/app/other/Job.java", RUNNER),
            ("web/app/Job/index.jelly", VIEW),
            ("web/app/notes.txt", "${it.enabled} in a file of another kind\n"),
        ],
    )
}

/// A method used only from a view answers 0 Java references and says where its name occurs
/// in the views (not bound); a method with Java uses does not search them unless asked.
#[test]
fn no_java_use_counts_the_name_in_views_and_says_so() {
    let (_dir, ws) = workspace();
    let a = call(&ws, "find_references", json!({"target": "app.Job#isEnabled()"})).expect("refs");
    assert_eq!(a.value["total"], 0, "{}", a.value);
    let nj = &a.value["nonJava"];
    assert_eq!((nj["total"].as_u64(), nj["files"].as_u64()), (Some(1), Some(1)), "{nj}");
    assert_eq!(nj["words"], json!(["isEnabled", "enabled"]), "{nj}");
    assert_eq!(nj["matches"][0]["file"], "web/app/Job/index.jelly", "{nj}");
    assert_eq!(nj["matches"][0]["line"], 2, "{nj}");
    let text = a.text();
    assert!(
        text.contains("0 Java references; 1 textual match in non-Java files (not bound; 1 view/config file searched"),
        "{text}"
    );
    assert!(text.contains("web/app/Job/index.jelly:2  <j:if test=\"${it.enabled}\">on</j:if>"), "{text}");

    let a = call(&ws, "find_references", json!({"target": "app.Job#toString()"})).expect("refs");
    assert_eq!(a.value["total"], 1, "{}", a.value);
    assert!(a.value.get("nonJava").is_none(), "{}", a.value);
    let a =
        call(&ws, "find_references", json!({"target": "app.Job#toString()", "includeNonJava": true})).expect("refs");
    assert_eq!(a.value["nonJava"]["total"], 0, "{}", a.value);
    assert!(a.text().contains("1 Java reference; 0 textual matches in non-Java files"), "{}", a.text());
    // Grouped by file: the path on its own line, each reference under it.
    assert!(a.text().contains("\nsrc/app/Use.java\n  5:18 call  return j.toString();\n"), "{}", a.text());
}

/// The views searched are the files whose last extension is a view's or a configuration's, in
/// any case (`Form.XHTML`), in path order; a backup (`old.jelly.bak`) or another kind is not.
#[test]
fn the_views_searched_are_chosen_by_their_last_extension_in_any_case() {
    let (_dir, ws) = indexed(
        "",
        &[
            ("src/app/Job.java", JOB),
            ("web/b/Form.XHTML", VIEW),
            ("web/a/old.jelly.bak", VIEW),
            ("web/a/index.jelly", VIEW),
            ("web/a/jelly", VIEW),
        ],
    );
    let a = call(&ws, "find_references", json!({"target": "app.Job#isEnabled()"})).expect("refs");
    let nj = &a.value["nonJava"];
    assert_eq!((nj["searchedFiles"].as_u64(), nj["files"].as_u64()), (Some(2), Some(2)), "{nj}");
    let files: Vec<&str> = nj["matches"].as_array().into_iter().flatten().filter_map(|m| m["file"].as_str()).collect();
    assert_eq!(files, ["web/a/index.jelly", "web/b/Form.XHTML"], "{nj}");
}

/// Many views, searched on every core: the counts are every file's, and the lines listed are
/// the first ones in path order (each file's in line order), up to the answer's 20.
#[test]
fn many_views_are_counted_whole_and_listed_in_path_order() {
    let views: Vec<(String, String)> = (0..60)
        .map(|i| {
            (format!("web/v{i:02}/index.jelly"), format!("<a>${{it.enabled}}</a>\n<b/>\n<c>${{it.enabled}} {i}</c>\n"))
        })
        .chain([("web/zz/none.jelly".to_owned(), "<a>nothing</a>\n".to_owned())])
        .collect();
    let mut files: Vec<(&str, &str)> = vec![("src/app/Job.java", JOB)];
    files.extend(views.iter().map(|(p, t)| (p.as_str(), t.as_str())));
    let (_dir, ws) = indexed("", &files);
    let a = call(&ws, "find_references", json!({"target": "app.Job#isEnabled()"})).expect("refs");
    let nj = &a.value["nonJava"];
    assert_eq!(
        (nj["searchedFiles"].as_u64(), nj["files"].as_u64(), nj["total"].as_u64()),
        (Some(61), Some(60), Some(120)),
        "{nj}"
    );
    let listed: Vec<(String, u64)> = nj["matches"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|m| (m["file"].as_str().unwrap_or_default().to_owned(), m["line"].as_u64().unwrap_or_default()))
        .collect();
    let want: Vec<(String, u64)> = (0..10)
        .flat_map(|i| [(format!("web/v{i:02}/index.jelly"), 1), (format!("web/v{i:02}/index.jelly"), 3)])
        .collect();
    assert_eq!(listed, want, "{nj}");
}

/// Sets a file's modification time a minute back, so that the word filter made when it is
/// first searched is kept (a file changed within the racy window gets none).
fn age(root: &std::path::Path, rel: &str) {
    let f = std::fs::File::options().write(true).open(root.join(rel)).expect("open");
    f.set_modified(std::time::SystemTime::now() - std::time::Duration::from_secs(60)).expect("set mtime");
}

/// Rewrites a file (another size) and sets its modification time back as [`age`] does.
fn rewrite(root: &std::path::Path, rel: &str, text: &str) {
    std::fs::write(root.join(rel), text).expect("write");
    age(root, rel);
}

/// `find_references`' non-Java part of a target, as an answer gives it.
fn non_java(ws: &Host, target: &str) -> Value {
    call(ws, "find_references", json!({"target": target, "includeNonJava": true})).expect("refs").value["nonJava"]
        .clone()
}

/// The second search of the views answers from their word filters (issue 56) what the first
/// read: a word followed by a character that is neither a word character nor ASCII (a
/// no-break space: the Java files' byte-level filter would take `enabled\u{a0}on` for one
/// word), a qualified name (each of its pieces a whole run), and an unreadable byte.
#[test]
fn the_second_search_of_the_views_finds_what_the_first_did() {
    let views = [
        ("web/a/nbsp.jelly", "<a>${it.enabled}\u{a0}on</a>\n"),
        ("web/b/qualified.xml", "<bean class=\"app.Job\"/>\n<bean class=\"app.Jobs\"/>\n"),
        ("web/c/dash.properties", "key=enabled\u{2014}x\n"),
        ("web/d/none.jelly", "<a>nothing</a>\n"),
    ];
    let mut files: Vec<(&str, &str)> = vec![("src/app/Job.java", JOB), ("web/e/bytes.xml", "")];
    files.extend(views);
    let (dir, ws) = indexed("", &files);
    // Bytes that are not UTF-8 after the word (the index holds the file by its path).
    std::fs::write(dir.path().join("web/e/bytes.xml"), b"<a>enabled\xff</a>\n").expect("write");
    for (rel, _) in views {
        age(dir.path(), rel);
    }
    age(dir.path(), "web/e/bytes.xml");
    let first = non_java(&ws, "app.Job#isEnabled()");
    assert_eq!((first["files"].as_u64(), first["searchedFiles"].as_u64()), (Some(3), Some(5)), "{first}");
    assert_eq!(ws.view_filters().counts().0, 5, "every view has its filter");
    assert_eq!(non_java(&ws, "app.Job#isEnabled()"), first);
    let qualified = non_java(&ws, "app.Job");
    assert_eq!((qualified["files"].as_u64(), qualified["total"].as_u64()), (Some(1), Some(1)), "{qualified}");
    assert_eq!(qualified["matches"][0]["file"], "web/b/qualified.xml", "{qualified}");
    assert_eq!(ws.view_filters().counts().0, 5, "no view read anew");
}

/// A view edited between two searches is searched as it is now, whatever its filter said: a
/// word that appears (the file grown), one that goes, and a file replaced by another of the
/// same size and modification time (a new inode).
#[test]
fn a_view_edited_between_two_searches_is_searched_as_it_is_now() {
    let files = [
        ("src/app/Job.java", JOB),
        ("web/a/appears.jelly", "<a>nothing</a>\n"),
        ("web/b/goes.jelly", "<a>${it.enabled}</a>\n"),
        ("web/c/replaced.jelly", "<a>abcdefg</a>\n"),
    ];
    let (dir, ws) = indexed("", &files);
    for (rel, _) in &files[1..] {
        age(dir.path(), rel);
    }
    let listed = |nj: &Value| -> Vec<String> {
        nj["matches"].as_array().into_iter().flatten().filter_map(|m| m["file"].as_str().map(str::to_owned)).collect()
    };
    let before = non_java(&ws, "app.Job#isEnabled()");
    assert_eq!(listed(&before), ["web/b/goes.jelly"], "{before}");
    assert_eq!(ws.view_filters().counts().0, 3);
    rewrite(dir.path(), "web/a/appears.jelly", "<a>${it.enabled} now</a>\n");
    rewrite(dir.path(), "web/b/goes.jelly", "<a>gone</a>\n");
    // Replaced by a file of the same size, given the same modification time.
    let path = dir.path().join("web/c/replaced.jelly");
    let mtime = std::fs::metadata(&path).and_then(|m| m.modified()).expect("mtime");
    let next = dir.path().join("web/c/next.tmp");
    std::fs::write(&next, "<a>enabled</a>\n").expect("write");
    std::fs::File::options().write(true).open(&next).and_then(|f| f.set_modified(mtime)).expect("set mtime");
    std::fs::rename(&next, &path).expect("rename");
    let after = non_java(&ws, "app.Job#isEnabled()");
    assert_eq!(listed(&after), ["web/a/appears.jelly", "web/c/replaced.jelly"], "{after}");
    assert_eq!(after["searchedFiles"], 3, "{after}");
}

/// Eighty views of five kinds (a word before a no-break space, qualified names, properties,
/// a call, nothing), and the searches `the_views_filters_*` make of them.
fn many_views() -> (Vec<(String, String)>, [Value; 5]) {
    let views: Vec<(String, String)> = (0..80)
        .map(|i| {
            let text = match i % 5 {
                0 => format!("<a>${{it.enabled}}</a>\n<b>{i}</b>\n<c>${{it.enabled}}\u{a0}{i}</c>\n"),
                1 => format!("<bean class=\"app.Job\" id=\"j{i}\"/>\n<bean class=\"app.Jobs\"/>\n"),
                2 => format!("LIMIT={i}\nlimit.LIMIT2=x\n"),
                3 => format!("<a>${{it.toString()}}\u{2014}{i}</a>\n<a>toStringX</a>\n"),
                _ => format!("<a>nothing {i}</a>\n"),
            };
            (format!("web/v{i:02}/index.{}", ["jelly", "xml", "properties", "jsp", "html"][i % 5]), text)
        })
        .collect();
    let calls = [
        json!({"target": "app.Job#isEnabled()", "includeNonJava": true}),
        json!({"target": "app.Job", "includeNonJava": true}),
        json!({"target": "app.Job#toString()", "includeNonJava": true}),
        json!({"target": "app.Job#LIMIT", "includeNonJava": true}),
        json!({"target": "app.Job#isEnabled()", "includeNonJava": true, "paths": ["**/v1*/*"]}),
    ];
    (views, calls)
}

/// A workspace of [`many_views`] (each aged, so its filter is kept) and a host of it.
fn views_workspace(views: &[(String, String)]) -> (tempfile::TempDir, Host) {
    let mut files: Vec<(&str, &str)> = vec![("src/app/Job.java", JOB)];
    files.extend(views.iter().map(|(p, t)| (p.as_str(), t.as_str())));
    let (dir, ws) = indexed("", &files);
    for (rel, _) in views {
        age(dir.path(), rel);
    }
    (dir, ws)
}

/// A host of `root` with no cache and no view filters.
fn cold_host(root: &std::path::Path) -> Host {
    let flags = mcp_java_index::config::Flags::roots([root]).set("watch", false).set("cache", false);
    let cold = Host::open(mcp_java_index::config::Config::load(&flags, &|_| None).expect("config")).expect("host");
    cold.build_index();
    cold
}

/// `find_references`' non-Java part.
fn non_java_of(ws: &Host, args: &Value) -> Value {
    call(ws, "find_references", args.clone()).expect("refs").value["nonJava"].clone()
}

/// Many views, each search answered by a host that has every view's filter (after a first
/// search) and by one that has none: the same answers, whole.
#[test]
fn the_views_filters_change_no_answer() {
    let (views, calls) = many_views();
    let (dir, warm) = views_workspace(&views);
    for args in &calls {
        non_java_of(&warm, args);
    }
    assert_eq!(warm.view_filters().counts().0, 80, "every view has its filter");
    for args in &calls {
        let want = non_java_of(&cold_host(dir.path()), args);
        assert!(want["files"].as_u64().unwrap_or_default() > 0, "{want}");
        assert_eq!(non_java_of(&warm, args), want, "{args}");
    }
}

/// The filters the keeper prepares after a pass (`Files::prepare_calls`, pausing between
/// pieces) are the ones the searches would have made, and the searches answer with them as a
/// host with none does (issue 56: the first such search after a pass paid for them).
#[test]
fn the_views_filters_prepared_after_a_pass_are_the_searches() {
    let (views, calls) = many_views();
    let (_dir, searched) = views_workspace(&views);
    for args in &calls {
        non_java_of(&searched, args);
    }
    let (dir, prepared) = views_workspace(&views);
    let pauses = std::sync::atomic::AtomicUsize::new(0);
    // Told to stop at its first pause, it makes nothing.
    mji_xref::keeper::Files::prepare_calls(&prepared, &|| false);
    assert_eq!(prepared.view_filters().counts().0, 0, "stopped before its work");
    mji_xref::keeper::Files::prepare_calls(&prepared, &|| {
        pauses.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        true
    });
    assert!(pauses.into_inner() >= 1, "paused before its work");
    assert_eq!(prepared.view_filters().counts(), searched.view_filters().counts(), "the same filters");
    for args in &calls {
        assert_eq!(non_java_of(&prepared, args), non_java_of(&cold_host(dir.path()), args), "{args}");
    }
    assert_eq!(prepared.view_filters().counts(), searched.view_filters().counts(), "none made anew");
}

/// `show_definition` gives the declaration as written: annotations and modifiers.
#[test]
fn a_definition_is_its_declaration_as_written() {
    let (_dir, ws) = workspace();
    let d = |symbol: &str| {
        let a = call(&ws, "show_definition", json!({"symbol": symbol})).expect("definition");
        (a.value["definitions"][0]["signature"].as_str().unwrap_or_default().to_owned(), a.text())
    };
    let (sig, text) = d("app.Job");
    assert_eq!(sig, "@Deprecated public abstract class Job", "{text}");
    assert!(
        text.contains("app.Job  src/app/Job.java:4-18  @Deprecated public abstract class Job — A scheduled job."),
        "{text}"
    );
    assert_eq!(d("app.Job#LIMIT").0, "@SuppressWarnings(\"unused\") protected static final int LIMIT");
    assert_eq!(d("app.Job#toString").0, "@Override public synchronized String toString()");
}

/// The reading tools take a type's name where they take a file: a unique name reads its file,
/// a shared one is an error listing the candidates.
#[test]
fn the_reading_tools_take_a_type_s_name() {
    let (_dir, ws) = workspace();
    let a = call(&ws, "java_index", json!({"filePath": "app.Job"})).expect("outline by name");
    assert_eq!(a.value["filePath"], "src/app/Job.java");
    let e = call(&ws, "java_index", json!({"filePath": "Job"})).expect_err("two types named Job");
    assert!(e.contains("`Job` names 2 workspace types") && e.contains("app.other.Job (src/app/other/Job.java)"), "{e}");
    let a = call(&ws, "java_index", json!({"filePath": "Use"})).expect("a unique simple name");
    assert_eq!(a.value["filePath"], "src/app/Use.java");

    let a = call(&ws, "java_read_range", json!({"symbol": "app.Job#isEnabled"})).expect("read by Type#member");
    assert_eq!((a.value["filePath"].as_str(), a.value["startLine"].as_u64()), (Some("src/app/Job.java"), Some(10)));
    let a = call(&ws, "java_read_range", json!({"filePath": "app.other.Job", "symbol": "run"})).expect("read");
    assert_eq!(a.value["filePath"], "src/app/other/Job.java");
    let e = call(&ws, "java_read_range", json!({"symbol": "isEnabled"})).expect_err("no file, no type");
    assert!(e.contains("symbol as `Type#member`"), "{e}");

    let a = call(&ws, "java_read_javadoc", json!({"symbol": "app.Job#isEnabled()"})).expect("javadoc by name");
    assert!(a.value.to_string().contains("Whether the job runs."), "{}", a.value);
}

/// The search answers are lines: one result a line, a header with the totals; the index status
/// only when asked for (the index here is complete).
#[test]
fn search_answers_are_lines() {
    let (_dir, ws) = workspace();
    let a = call(&ws, "find_type", json!({"query": "Job"})).expect("find_type");
    let text = a.text();
    assert!(text.starts_with("2 types match `Job`\n"), "{text}");
    assert!(
        text.contains("\napp.Job  src/app/Job.java:4-18  public abstract class Job — A scheduled job.\n"),
        "{text}"
    );
    assert!(a.value.get("index").is_none() && !text.contains("index:"), "{text}");
    let a = call(&ws, "find_type", json!({"query": "Job", "includeIndex": true})).expect("find_type");
    assert_eq!(a.value["index"]["complete"], true);
    assert!(a.text().contains("\nindex: complete (3 of 3 files indexed)"), "{}", a.text());
    let a = call(&ws, "java_find_symbol", json!({"query": "isEnabled"})).expect("symbols");
    assert!(a.text().contains("app.Job#isEnabled  src/app/Job.java:10-12  public boolean isEnabled()"), "{}", a.text());
    let a = call(&ws, "analyze_type_dependencies", json!({"type": "app.Use"})).expect("deps");
    assert!(a.text().contains("\napp.Job  workspace  1 use, first line 4\n"), "{}", a.text());
    assert!(a.value["dependencies"][0].get("lines").is_none(), "{}", a.value);
    let a = call(&ws, "analyze_type_dependencies", json!({"type": "app.Use", "includeUses": true})).expect("deps");
    assert!(a.text().contains("first line 4  lines 4\n"), "{}", a.text());
}
