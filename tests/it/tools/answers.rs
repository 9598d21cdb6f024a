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
