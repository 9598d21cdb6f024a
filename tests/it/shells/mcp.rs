//! The real binary as an MCP server, driven by rmcp's client over a child process in both
//! protocol eras (`initialize` and 2026-07-28 `server/discover`), and by raw JSON lines for
//! what a client library would never send.

use crate::common;
use common::copy_dir;

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, Implementation, ProtocolVersion,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RunningService};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-java-index");

/// A temp workspace with a copy of the fixtures.
fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    copy_dir(&src, dir.path());
    std::fs::write(dir.path().join("notes.txt"), "not java\n").expect("write");
    dir
}

#[derive(Clone, Copy, Debug)]
enum Era {
    Initialize,
    Discover,
}

async fn connect(root: &Path, era: Era) -> RunningService<RoleClient, ()> {
    connect_as(root, era, (), &[]).await
}

/// A session of the client `client` (its `clientInfo`) with a server started with `env`.
async fn connect_as<C: ClientHandler>(
    root: &Path,
    era: Era,
    client: C,
    env: &[(&str, &str)],
) -> RunningService<RoleClient, C> {
    let mut cmd = tokio::process::Command::new(BIN);
    cmd.arg("serve").arg("--root").arg(root);
    cmd.envs(env.iter().copied());
    let transport = TokioChildProcess::new(cmd).expect("spawning the server");
    match era {
        Era::Initialize => client.serve(transport).await.expect("initialize handshake"),
        Era::Discover => client
            .serve_with_lifecycle(
                transport,
                ClientLifecycleMode::Discover { preferred_versions: vec![ProtocolVersion::V_2026_07_28] },
            )
            .await
            .expect("server/discover handshake"),
    }
}

async fn call<C: ClientHandler>(client: &RunningService<RoleClient, C>, tool: &str, args: Value) -> CallToolResult {
    let params =
        CallToolRequestParams::new(tool.to_owned()).with_arguments(args.as_object().expect("object args").clone());
    client.call_tool(params).await.expect("tools/call answered")
}

fn text_of(r: &CallToolResult) -> String {
    r.content.iter().filter_map(|c| c.as_text()).map(|t| t.text.clone()).collect::<Vec<_>>().join("\n")
}

/// For a tool without a text rendering of its own, the text content is its structured JSON.
fn text_is_the_json(r: &CallToolResult, sc: &Value, what: &str) {
    let text: Value = serde_json::from_str(&text_of(r)).unwrap_or_else(|e| panic!("{what}: text is not JSON: {e}"));
    assert_eq!(&text, sc, "{what}: the text differs from structuredContent");
}

fn validate(schema: &serde_json::Map<String, Value>, value: &Value, what: &str) {
    let validator = jsonschema::validator_for(&Value::Object(schema.clone())).expect("output schema compiles");
    let errors: Vec<String> = validator.iter_errors(value).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    assert!(errors.is_empty(), "{what}: structuredContent does not match outputSchema: {errors:?}");
}

/// The most tokens one tool may cost in `tools/list` (name, title, description, annotations,
/// input and output schema), and what the whole list may cost: issue 14's goal, 6,000 tokens
/// with every batch-2 tool.
const MAX_TOOL_TOKENS: usize = 420;
const MAX_LIST_TOKENS: usize = 6000;

/// Calls `tool`, checks that it answered without error and that its structuredContent conforms
/// to the outputSchema `tools/list` gave it; the result and the structuredContent.
async fn call_conforming(
    client: &RunningService<RoleClient, ()>,
    tools: &[rmcp::model::Tool],
    tool: &str,
    args: Value,
) -> (CallToolResult, Value) {
    let r = call(client, tool, args).await;
    assert_eq!(r.is_error, Some(false), "{}", text_of(&r));
    let sc = r.structured_content.clone().expect("structured");
    let schema = tools.iter().find(|t| t.name == tool).and_then(|t| t.output_schema.clone()).expect("output schema");
    validate(&schema, &sc, tool);
    (r, sc)
}

#[tokio::test]
async fn tools_list_is_pinned_and_the_same_in_both_eras() {
    let ws = workspace();
    let mut lists = Vec::new();
    for era in [Era::Initialize, Era::Discover] {
        // An editor configured: every tool is listed.
        let client = connect_as(ws.path(), era, (), &[("MCP_JAVA_INDEX_EDITOR", "emacs")]).await;
        let tools = client.list_all_tools().await.expect("tools/list");
        lists.push(serde_json::to_value(&tools).expect("json"));
        client.cancel().await.expect("close");
    }
    assert_eq!(lists[0], lists[1], "tools differ between eras");
    for t in lists[0].as_array().expect("array") {
        // destructiveHint and idempotentHint mean something only when readOnlyHint is false.
        let a = &t["annotations"];
        let read_only = a["readOnlyHint"] == true;
        for k in ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] {
            let meaningless = read_only && (k == "destructiveHint" || k == "idempotentHint");
            assert_eq!(a[k].is_boolean(), !meaningless, "{} {k}: {a}", t["name"]);
        }
        assert_eq!(t["outputSchema"]["type"], "object", "{}", t["name"]);
        assert!(!t["inputSchema"].to_string().contains("\"null\""), "{} has a nullable input", t["name"]);
        assert!(t["title"].is_string());
    }
    // What listing the tools costs a model before any work, with output schemas. Issue 14's
    // goal is 6,000 tokens with every batch-2 tool listed (about twenty). Held here per tool
    // and in all, so no tool can grow unnoticed.
    let count = |v: &Value| mcp_java_index::tools::budget::count(&v.to_string());
    let tools = lists[0].as_array().expect("array");
    for t in tools {
        let n = count(t);
        eprintln!(
            "{}: {n} tokens (description {}, input {}, output {})",
            t["name"],
            count(&t["description"]),
            count(&t["inputSchema"]),
            count(&t["outputSchema"])
        );
        assert!(n <= MAX_TOOL_TOKENS, "{} costs {n} tokens in tools/list, over {MAX_TOOL_TOKENS}", t["name"]);
    }
    let total = count(&json!({ "tools": lists[0] }));
    eprintln!("tools/list: {total} tokens for {} tools", tools.len());
    assert!(total <= MAX_LIST_TOKENS, "tools/list costs {total} tokens for {} tools", tools.len());
    insta::assert_json_snapshot!("tools_list", lists[0]);
}

/// `maven_goal` is listed where the first root is a Maven build and `gradle_task` where it is
/// a Gradle build (elsewhere each could only refuse): each entry pinned, and the whole list with
/// it held to the same budgets.
#[tokio::test]
async fn a_build_goal_tool_is_listed_for_its_own_build() {
    let count = |v: &Value| mcp_java_index::tools::budget::count(&v.to_string());
    for (file, text, tool, other) in [
        ("pom.xml", "<project><artifactId>x</artifactId></project>\n", "maven_goal", "gradle_task"),
        ("settings.gradle", "rootProject.name = 'x'\n", "gradle_task", "maven_goal"),
    ] {
        let ws = workspace();
        std::fs::write(ws.path().join(file), text).expect("write");
        // An editor configured too: the largest list a workspace sees.
        let client = connect_as(ws.path(), Era::Initialize, (), &[("MCP_JAVA_INDEX_EDITOR", "emacs")]).await;
        let tools = serde_json::to_value(client.list_all_tools().await.expect("tools/list")).expect("json");
        client.cancel().await.expect("close");
        let list = tools.as_array().expect("array");
        let names: Vec<&str> = list.iter().filter_map(|t| t["name"].as_str()).collect();
        assert!(names.contains(&tool) && !names.contains(&other), "{names:?}");
        assert!(names.contains(&"run_elisp"), "{names:?}");
        let entry = list.iter().find(|t| t["name"] == tool).expect("entry");
        assert!(count(entry) <= MAX_TOOL_TOKENS, "{tool} costs {} tokens", count(entry));
        let total = count(&json!({ "tools": list }));
        eprintln!("tools/list with {tool}: {total} tokens for {} tools", list.len());
        assert!(total <= MAX_LIST_TOKENS, "tools/list with {tool} costs {total} tokens");
        insta::assert_json_snapshot!(format!("tools_list_{tool}"), entry);
    }
}

#[tokio::test]
async fn every_tool_answers_with_conforming_structured_content() {
    let ws = workspace();
    for era in [Era::Initialize, Era::Discover] {
        let client = connect(ws.path(), era).await;
        let tools = client.list_all_tools().await.expect("tools/list");

        let (r, sc) = call_conforming(&client, &tools, "java_index", json!({"filePath": "records.java"})).await;
        // The text a model reads is the outline's table of contents, not the JSON again.
        let text = text_of(&r);
        assert!(text.len() * 3 < sc.to_string().len(), "the text should be far smaller than the JSON");
        insta::assert_snapshot!(format!("text_java_index_{era:?}"), text);
        assert_eq!(sc["filePath"], "records.java");
        let meta = serde_json::to_value(&r.meta).expect("meta");
        assert!(meta["cache"] == "hit" || meta["cache"] == "miss", "{meta}");
        let mut pinned = sc.clone();
        pinned["hash"] = json!("[hash]");
        insta::assert_json_snapshot!(format!("call_java_index_{era:?}"), pinned);

        let id = sc["classes"][0]["symbolId"].as_str().expect("id").to_owned();
        let (r, sc) =
            call_conforming(&client, &tools, "java_read_javadoc", json!({"filePath": "records.java", "symbolId": id}))
                .await;
        text_is_the_json(&r, &sc, "java_read_javadoc");
        insta::assert_json_snapshot!(format!("call_java_read_javadoc_{era:?}"), sc);

        let (r, sc) = call_conforming(
            &client,
            &tools,
            "java_read_range",
            json!({"filePath": "records.java", "startLine": 1, "endLine": 4, "options": {"maxChars": 1000}}),
        )
        .await;
        insta::assert_json_snapshot!(format!("call_java_read_range_{era:?}"), sc);
        // The text: the same lines, each after its number and a space (fewer tokens than the
        // JSON's `N: `), a blank line left empty.
        let numbered = sc["content"].as_str().expect("content");
        assert!(text_of(&r).starts_with("1 package ") && text_of(&r).contains("\n\n3 import "), "{}", text_of(&r));
        assert_eq!(text_of(&r).lines().count(), numbered.lines().count());
        insta::assert_snapshot!(format!("text_java_read_range_{era:?}"), text_of(&r));

        let (r, sc) = call_conforming(
            &client,
            &tools,
            "java_find_symbol",
            json!({"rootDir": ".", "query": "Point", "options": {"maxResults": 5, "includeIndex": true}}),
        )
        .await;
        // The search answers are read as lines, one result a line; the index status is there
        // when asked for (or when it matters).
        assert!(text_of(&r).contains("\nindex: complete ("), "{}", text_of(&r));
        insta::assert_snapshot!(format!("text_java_find_symbol_{era:?}"), text_of(&r));
        assert_eq!(sc["index"]["complete"], true);
        insta::assert_json_snapshot!(format!("call_java_find_symbol_{era:?}"), sc);

        let (r, sc) =
            call_conforming(&client, &tools, "find_type", json!({"pattern": "*Point*", "maxResults": 5})).await;
        assert!(sc.get("index").is_none() && !text_of(&r).contains("index:"), "{sc}");
        insta::assert_snapshot!(format!("text_find_type_{era:?}"), text_of(&r));
        insta::assert_json_snapshot!(format!("call_find_type_{era:?}"), sc);

        let (r, sc) =
            call_conforming(&client, &tools, "find_resource", json!({"pattern": "rec", "maxResults": 5})).await;
        insta::assert_snapshot!(format!("text_find_resource_{era:?}"), text_of(&r));
        assert_eq!(sc["results"][0]["filePath"], "records.java");
        let mut pinned = sc.clone();
        for r in pinned["results"].as_array_mut().expect("results") {
            r["modified"] = json!("[modified]");
        }
        insta::assert_json_snapshot!(format!("call_find_resource_{era:?}"), pinned);

        let (r, sc) = call_conforming(
            &client,
            &tools,
            "find_references",
            json!({"target": "xref.model.Money#plus(Money)", "limit": 3, "includeIndex": true}),
        )
        .await;
        // Grouped by file: the path, then `line:col kind  code` under it.
        let text = text_of(&r).replace(&format!("{} bound", sc["index"]["boundFiles"]), "[bound] bound");
        insta::assert_snapshot!(format!("text_find_references_{era:?}"), text);
        assert_eq!(sc["truncated"], true);
        // How many files the background keeper had bound when the call began varies.
        let mut pinned = sc.clone();
        assert!(sc["index"]["boundFiles"].as_u64() <= sc["index"]["totalFiles"].as_u64(), "{sc}");
        pinned["index"]["boundFiles"] = json!("[bound]");
        insta::assert_json_snapshot!(format!("call_find_references_{era:?}"), pinned);

        for (tool, args) in [
            ("type_hierarchy", json!({"target": "xref.model.Entity", "depth": 0})),
            ("find_implementations", json!({"target": "xref.service.Repository"})),
        ] {
            let (r, sc) = call_conforming(&client, &tools, tool, args).await;
            insta::assert_json_snapshot!(format!("call_{tool}_{era:?}"), sc);
            insta::assert_snapshot!(format!("text_{tool}_{era:?}"), text_of(&r));
        }

        let (r, sc) = call_conforming(&client, &tools, "analyze_type_dependencies", json!({"type": "xref.service.OrderService", "excludedPackages": ["xref.legacy.*"], "transitive": true, "limit": 5})).await;
        insta::assert_snapshot!(format!("text_analyze_type_dependencies_{era:?}"), text_of(&r));
        insta::assert_json_snapshot!(format!("call_analyze_type_dependencies_{era:?}"), sc);

        let (r, sc) = call_conforming(&client, &tools, "show_definition", json!({"symbol": "Money.plus"})).await;
        insta::assert_snapshot!(format!("text_show_definition_{era:?}"), text_of(&r));
        insta::assert_json_snapshot!(format!("call_show_definition_{era:?}"), sc);

        let (r, sc) = call_conforming(
            &client,
            &tools,
            "get_problems",
            json!({"paths": ["broken_missing_brace.java"], "source_filter": ["syntax"], "limit": 2}),
        )
        .await;
        text_is_the_json(&r, &sc, "get_problems");
        assert_eq!(sc["truncated"], true);
        let mut pinned = sc.clone();
        pinned["elapsedMs"] = json!("[ms]");
        insta::assert_json_snapshot!(format!("call_get_problems_{era:?}"), pinned);
        // With javac (the real JDK): a clean file is analysed with no diagnostics.
        let (_, sc) = call_conforming(&client, &tools, "get_problems", json!({"paths": ["enums.java"]})).await;
        assert_eq!(sc["javac"]["available"], true, "{sc}");
        assert_eq!(sc["files"][0]["status"], "analysed", "{sc}");
        // The build tools: an untrusted workspace answers what would run; the model is read.
        let (r, sc) = call_conforming(&client, &tools, "run_tests", json!({"target": ""})).await;
        assert_eq!(sc["ran"], false, "{sc}");
        assert!(text_of(&r).contains("would run: ") && text_of(&r).contains("--trust"), "{}", text_of(&r));
        let (_, sc) = call_conforming(&client, &tools, "maven_update_project", json!({})).await;
        assert_eq!(sc["system"], "plain", "{sc}");
        client.cancel().await.expect("close");
    }
}

/// The configuration shapes what a client sees: `tools` lists only the chosen groups (a
/// left-out tool's call says which group to add), `structured_content = false` sends the
/// compact text alone and declares no outputSchema, and `answer_tokens` pages answers at that
/// many tokens.
#[tokio::test]
async fn configuration_chooses_tool_groups_text_only_answers_and_the_budget() {
    let ws = workspace();
    std::fs::write(
        ws.path().join("mcp-java-index.toml"),
        "tools = [\"navigation\"]\nstructured_content = false\nanswer_tokens = 600\n",
    )
    .expect("write");
    let client = connect(ws.path(), Era::Initialize).await;
    let tools = client.list_all_tools().await.expect("tools/list");
    assert!(tools.iter().all(|t| t.output_schema.is_none()), "no outputSchema without structured answers");
    assert!(!tools.iter().any(|t| t.name == "get_problems") && tools.iter().any(|t| t.name == "java_index"));
    let params = CallToolRequestParams::new("get_problems".to_owned());
    let e = client.call_tool(params).await.expect_err("a left-out tool").to_string();
    assert!(e.contains("`problems` group") && e.contains("`tools` setting"), "{e}");

    let r = call(&client, "java_index", json!({"filePath": "records.java"})).await;
    assert!(r.structured_content.is_none(), "text only");
    assert!(text_of(&r).starts_with("records.java (115 lines"), "{}", text_of(&r));
    // 600 tokens hold some types: a search for every type is cut there and says so.
    let r = call(&client, "find_type", json!({"pattern": "*"})).await;
    let text = text_of(&r);
    let head = text.lines().next().unwrap_or_default().to_owned();
    let shown = text.lines().count() - 1;
    let (total, rest) = head.split_once(" types match `*`; ").expect("a paged header");
    assert!(shown > 0 && rest == format!("{shown} shown, next page: offset={shown}"), "{text}");
    assert!(total.parse::<usize>().unwrap_or(0) > shown, "{text}");
    client.cancel().await.expect("close");
}

/// Claude Code passes `JSON.stringify(structuredContent)` to the model whenever an answer has
/// one, and drops the text. A client that names itself as Claude Code does (`clientInfo.name`
/// `claude-code`) is served the text alone, in both protocol eras, unless the user set
/// `structured_content` explicitly: the setting always wins.
#[tokio::test]
async fn claude_code_is_served_the_text_alone_unless_the_user_chose() {
    let ws = workspace();
    let claude = || ClientConfig::new(ClientCapabilities::default(), Implementation::new("claude-code", "2.1.280"));
    for era in [Era::Initialize, Era::Discover] {
        let client = connect_as(ws.path(), era, claude(), &[]).await;
        let tools = client.list_all_tools().await.expect("tools/list");
        assert!(!tools.is_empty() && tools.iter().all(|t| t.output_schema.is_none()), "{era:?}: outputSchema listed");
        let r = call(&client, "java_index", json!({"filePath": "records.java"})).await;
        assert_eq!(r.is_error, Some(false), "{}", text_of(&r));
        assert!(r.structured_content.is_none(), "{era:?}: structuredContent sent to Claude Code");
        assert!(text_of(&r).starts_with("records.java (115 lines"), "{}", text_of(&r));
        client.cancel().await.expect("close");
    }
    // Set explicitly (here in the environment), the setting wins over the client's name.
    let client =
        connect_as(ws.path(), Era::Initialize, claude(), &[("MCP_JAVA_INDEX_STRUCTURED_CONTENT", "true")]).await;
    let tools = client.list_all_tools().await.expect("tools/list");
    assert!(tools.iter().all(|t| t.output_schema.is_some()), "the explicit setting lost");
    let r = call(&client, "java_index", json!({"filePath": "records.java"})).await;
    assert!(r.structured_content.is_some(), "the explicit setting lost");
    client.cancel().await.expect("close");
    // Any other client, e.g. Claude Desktop (`claude-ai`), gets both renderings by default.
    let other = ClientConfig::new(ClientCapabilities::default(), Implementation::new("claude-ai", "0.1.0"));
    let client = connect_as(ws.path(), Era::Discover, other, &[]).await;
    let tools = client.list_all_tools().await.expect("tools/list");
    assert!(tools.iter().all(|t| t.output_schema.is_some()));
    let r = call(&client, "java_index", json!({"filePath": "records.java"})).await;
    assert!(r.structured_content.is_some());
    client.cancel().await.expect("close");
}

/// The MCP Inspector CLI's strict schema lint (`--method tools/list --strict`: portability
/// problems such as nullable `type` arrays or untyped schemas) finds nothing, with output
/// schemas and without. `.ci/run` installs the Inspector and a Node 22 into target/.
#[test]
fn mcp_inspector_strict_lint_finds_no_problem() {
    let Some((node, launcher)) = common::inspector() else { return };
    let ws = workspace();
    for text_only in [false, true] {
        let mut cmd = Command::new(&node);
        cmd.arg(&launcher).args(["--cli", "--method", "tools/list", "--strict", BIN, "serve", "--root"]).arg(ws.path());
        if text_only {
            cmd.arg("--no-structured-content");
        }
        let out = cmd.output().expect("running the Inspector");
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success(), "text_only={text_only}: the Inspector failed:\n{stderr}");
        let list: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
        let tools = list["tools"].as_array().expect("tools");
        assert!(tools.len() >= 10, "{stdout}");
        assert_eq!(tools.iter().all(|t| t.get("outputSchema").is_some()), !text_only);
        // Findings go to stderr as `Warning: tool …` / `Error: tool …` and a count.
        assert!(
            !stderr.contains("Warning:") && !stderr.contains("Error:") && !stderr.contains("portability"),
            "text_only={text_only}: the strict lint found problems:\n{stderr}"
        );
    }
}

#[tokio::test]
async fn second_call_is_a_cache_hit() {
    let ws = workspace();
    let client = connect(ws.path(), Era::Initialize).await;
    let first = call(&client, "java_index", json!({"filePath": "enums.java"})).await;
    let second = call(&client, "java_index", json!({"filePath": "enums.java"})).await;
    let cache = |r: &CallToolResult| serde_json::to_value(&r.meta).expect("meta")["cache"].clone();
    assert_eq!(cache(&first), "miss");
    assert_eq!(cache(&second), "hit");
    assert_eq!(first.structured_content, second.structured_content);
    client.cancel().await.expect("close");
    assert!(ws.path().join(".mcp-java-index-cache").is_dir(), "the cache lives under the root");
}

#[tokio::test]
async fn bad_arguments_are_tool_errors_that_name_the_problem() {
    let ws = workspace();
    let outside = tempfile::NamedTempFile::with_suffix(".java").expect("temp file");
    let outside = outside.path().to_string_lossy().into_owned();
    let client = connect(ws.path(), Era::Discover).await;
    let cases = [
        ("java_index", json!({}), "missing field `filePath`"),
        (
            "java_index",
            json!({"filePath": "records.java", "options": {"includePrivat": false}}),
            "unknown argument `includePrivat`",
        ),
        ("java_index", json!({"filePath": "Nope.java"}), "file not found: Nope.java"),
        ("java_index", json!({"filePath": "../../etc/passwd"}), "outside the workspace roots"),
        ("java_index", json!({"filePath": outside}), "outside the workspace roots"),
        ("java_index", json!({"filePath": "module_info"}), "is a directory"),
        ("java_index", json!({"filePath": "notes.txt"}), "is not a .java or .kt file"),
        ("java_index", json!({"filePath": "C:\\x\\Y.java"}), "Windows drive path"),
        (
            "java_read_range",
            json!({"filePath": "records.java", "startLine": 0, "endLine": 3}),
            "startLine must be 1 or more",
        ),
        (
            "java_read_range",
            json!({"filePath": "records.java", "startLine": 9000, "endLine": 9001}),
            "past the end of records.java",
        ),
        ("java_read_range", json!({"filePath": "records.java", "startLine": "one", "endLine": 2}), "invalid type"),
        ("java_read_javadoc", json!({"filePath": "records.java", "symbolId": " "}), "symbolId is empty"),
        ("java_find_symbol", json!({"rootDir": "/", "query": "x"}), "outside the workspace roots"),
        ("get_problems", json!({"paths": ["../../etc"]}), "outside the workspace roots"),
        ("get_problems", json!({"severity_filter": ["Fatal"]}), "unknown variant `Fatal`"),
        ("get_problems", json!({"line_range": {"start": 9, "end": 2}}), "lineRange start 9 is after its end 2"),
        ("find_references", json!({"target": "xref.model.Nope"}), "no type xref.model.Nope"),
        ("find_references", json!({}), "give the target"),
        ("analyze_type_dependencies", json!({}), "give type"),
        ("show_definition", json!({"symbol": "  "}), "symbol is empty"),
        ("java_find_symbol", json!({"rootDir": "records.java", "query": "x"}), "is not a directory"),
        (
            "java_find_symbol",
            json!({"rootDir": ".", "query": "x", "options": {"matchKind": "package"}}),
            "unknown variant `package`",
        ),
        ("find_type", json!({"pattern": ""}), "query is empty"),
        ("find_resource", json!({"pattern": "x", "maxResults": 0}), "limit must be at least 1"),
    ];
    for (tool, args, want) in cases {
        let r = call(&client, tool, args.clone()).await;
        assert_eq!(r.is_error, Some(true), "{tool} {args} was not an error: {}", text_of(&r));
        assert!(text_of(&r).contains(want), "{tool} {args}: `{}` does not say `{want}`", text_of(&r));
    }
    // An unknown tool is a protocol error, not a tool error.
    let err = client.call_tool(CallToolRequestParams::new("no_such_tool")).await.expect_err("unknown tool");
    assert!(err.to_string().contains("unknown tool"), "{err}");
    // The server is still serving.
    let r = call(&client, "java_index", json!({"filePath": "records.java"})).await;
    assert_eq!(r.is_error, Some(false));
    client.cancel().await.expect("close");
}

/// Sends raw lines, closes stdin, returns (stdout lines, exit status) with a deadline.
fn raw_session(root: &Path, lines: &[String], extra: &[&str]) -> (Vec<Value>, std::process::ExitStatus, String) {
    raw_session_env(root, lines, extra, &[])
}

/// [`raw_session`] with environment variables set for the server.
fn raw_session_env(
    root: &Path,
    lines: &[String],
    extra: &[&str],
    env: &[(&str, &str)],
) -> (Vec<Value>, std::process::ExitStatus, String) {
    let mut child = Command::new(BIN)
        .arg("serve")
        .arg("--root")
        .arg(root)
        .args(extra)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    for l in lines {
        writeln!(stdin, "{l}").expect("write");
    }
    drop(stdin);
    let stdout = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        std::io::BufReader::new(stdout).lines().map(|l| l.expect("line")).collect::<Vec<_>>()
    });
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        assert!(Instant::now() < deadline, "server did not exit after end of input");
        std::thread::sleep(Duration::from_millis(20));
    };
    let out = reader.join().expect("reader");
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut err).expect("stderr");
    let values = out
        .iter()
        .map(|l| serde_json::from_str::<Value>(l).unwrap_or_else(|e| panic!("stdout line is not JSON ({e}): {l}")))
        .collect();
    (values, status, err)
}

fn initialize() -> Vec<String> {
    vec![
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}}).to_string(),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string(),
    ]
}

#[test]
fn stdout_is_only_protocol_invalid_json_gets_a_parse_error_and_eof_exits_cleanly() {
    let ws = workspace();
    let mut lines = initialize();
    lines.push("this is not json {".to_owned());
    lines.push(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}).to_string());
    lines.push(json!({"jsonrpc": "2.0", "id": 3, "method": "prompts/list"}).to_string());
    lines.push(json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "java_index", "arguments": {"filePath": "enums.java"}}}).to_string());
    let (out, status, stderr) = raw_session(ws.path(), &lines, &["-v"]);
    assert!(status.success(), "exit {status:?}; stderr:\n{stderr}");
    for v in &out {
        assert_eq!(v["jsonrpc"], "2.0", "not JSON-RPC on stdout: {v}");
    }
    let by_id = |id: i64| out.iter().find(|v| v["id"] == id).unwrap_or_else(|| panic!("no answer to {id}: {out:?}"));
    assert!(out.iter().any(|v| v["error"]["code"] == -32700 && v["id"].is_null()), "no parse error: {out:?}");
    assert!(by_id(2)["result"]["tools"].as_array().is_some_and(|t| t.len() >= 3), "{}", by_id(2));
    assert!(by_id(2)["result"]["ttlMs"].as_u64().is_some_and(|t| t > 0) || by_id(2)["result"].get("ttlMs").is_none());
    assert_eq!(by_id(3)["error"]["code"], -32601, "prompts/list must be method-not-found");
    assert_eq!(by_id(4)["result"]["isError"], false);
    assert!(stderr.contains("serving MCP on stdio"), "logs go to stderr: {stderr}");
}

#[test]
fn log_file_records_every_message_with_a_timestamp() {
    let ws = workspace();
    let log = ws.path().join("messages.log");
    let mut lines = initialize();
    lines.push(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}).to_string());
    let (out, status, _) = raw_session(ws.path(), &lines, &["--log-file", log.to_str().expect("utf-8")]);
    assert!(status.success());
    let text = std::fs::read_to_string(&log).expect("log file");
    let received = text.lines().filter(|l| l.contains(" <- ")).count();
    let sent = text.lines().filter(|l| l.contains(" -> ")).count();
    assert_eq!(received, 3, "{text}");
    assert_eq!(sent, out.len(), "{text}");
    assert!(text.lines().all(|l| l.len() > 24 && l.as_bytes()[4] == b'-' && l.contains('T')), "{text}");
}

#[test]
fn closing_stdin_before_the_handshake_is_a_clean_exit() {
    let ws = workspace();
    let (out, status, stderr) = raw_session(ws.path(), &[], &[]);
    assert!(status.success(), "{stderr}");
    assert!(out.is_empty());
}

/// The official Python SDK as the client (installed by `.ci/run`; required under CI=true).
#[test]
fn python_sdk_client_in_both_eras() {
    // The SDK lives in a virtual environment under target/ (`.ci/run` makes it), named by
    // MCP_JAVA_INDEX_PYTHON; a python3 that has it works too.
    let venv = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/venv/bin/python");
    let python = std::env::var_os("MCP_JAVA_INDEX_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| if venv.is_file() { venv } else { PathBuf::from("python3") });
    let has_sdk = Command::new(&python).args(["-c", "import mcp.client.client"]).status().is_ok_and(|s| s.success());
    if !has_sdk {
        assert!(std::env::var("CI").is_err(), "the MCP Python SDK is missing (run .ci/run)");
        eprintln!("skipping: MCP Python SDK not installed (run .ci/run)");
        return;
    }
    let ws = workspace();
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/python/client.py");
    let out = Command::new(&python).arg(script).arg(BIN).arg(ws.path()).output().expect("python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "python client failed:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("python sdk legacy: ok") && stdout.contains("python sdk auto: ok"), "{stdout}");
}

#[test]
fn a_panicking_call_is_answered_as_a_tool_error_and_the_server_keeps_serving() {
    let ws = workspace();
    let mut lines = initialize();
    lines.push(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "java_index", "arguments": {"filePath": "enums.java"}}}).to_string());
    lines.push(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "java_index", "arguments": {"filePath": "records.java"}}}).to_string());
    let (answers, status, err) =
        raw_session_env(ws.path(), &lines, &[], &[("MCP_JAVA_INDEX_INJECT_PANIC", "enums.java")]);
    assert!(status.success());
    let by_id = |id: i64| answers.iter().find(|v| v["id"] == id).unwrap_or_else(|| panic!("no answer to {id}"));
    assert_eq!(by_id(2)["result"]["isError"], true, "{}", by_id(2));
    assert!(
        by_id(2)["result"]["content"][0]["text"].as_str().is_some_and(|t| t.contains("internal error")),
        "{}",
        by_id(2)
    );
    assert_eq!(by_id(3)["result"]["isError"], false, "{}", by_id(3));
    assert!(err.contains("panicked"), "the panic is logged");
}

fn many_files(root: &Path, n: usize) {
    for i in 0..n {
        let dir = root.join(format!("gen/p{}", i % 20));
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::write(
            dir.join(format!("G{i}.java")),
            format!("package p{};\nclass G{i} {{ void m{i}() {{}} }}\n", i % 20),
        )
        .expect("write");
    }
}

fn raw_with_env(root: &Path, lines: &[String], args: &[&str], env: &[(&str, &str)], settle: Duration) -> Vec<Value> {
    let mut cmd = Command::new(BIN);
    cmd.arg("serve")
        .arg("--root")
        .arg(root)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    for l in lines {
        writeln!(stdin, "{l}").expect("write");
    }
    // Keep stdin open until the answers are in, then close it.
    std::thread::sleep(settle);
    drop(stdin);
    let out = child.wait_with_output().expect("wait");
    String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).expect("json")).collect()
}

#[test]
fn searches_during_indexing_report_progress_or_say_they_are_incomplete() {
    let ws = tempfile::tempdir().expect("tempdir");
    many_files(ws.path(), 1200);
    let mut lines = initialize();
    lines.push(
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"_meta": {"progressToken": "tok"}, "name": "find_type", "arguments": {"pattern": "G1", "includeIndex": true}}})
            .to_string(),
    );
    let slow = [("MCP_JAVA_INDEX_TEST_BATCH_DELAY_MS", "400")];
    let out = raw_with_env(ws.path(), &lines, &["--no-cache"], &slow, Duration::from_secs(4));
    let progress: Vec<&Value> = out.iter().filter(|v| v["method"] == "notifications/progress").collect();
    assert!(progress.iter().any(|p| p["params"]["total"].as_f64() == Some(1200.0)), "no counted progress: {out:?}");
    for p in &progress {
        assert_eq!(p["params"]["progressToken"], "tok");
        assert!(p["params"].get("total").is_none_or(|t| t.as_f64() == Some(1200.0)), "{p}");
        assert!(p["params"]["progress"].as_f64().is_some_and(|x| x <= 1200.0));
    }
    let answer = out.iter().find(|v| v["id"] == 2).expect("answer");
    assert_eq!(answer["result"]["structuredContent"]["index"]["complete"], true, "{answer}");
    assert!(answer["result"]["structuredContent"]["total"].as_u64().is_some_and(|t| t >= 1), "{answer}");

    // With no time to wait, the answer says it is incomplete rather than pretending.
    let mut lines = initialize();
    lines.push(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "java_find_symbol", "arguments": {"rootDir": ".", "query": "m1"}}}).to_string());
    let out =
        raw_with_env(ws.path(), &lines, &["--no-cache", "--index-wait-ms", "0"], &slow, Duration::from_millis(1500));
    let answer = out.iter().find(|v| v["id"] == 2).expect("answer");
    let index = &answer["result"]["structuredContent"]["index"];
    assert_eq!(index["complete"], false, "{answer}");
    assert!(index["indexedFiles"].as_u64() <= index["totalFiles"].as_u64(), "{index}");
    assert!(index["indexedFiles"].as_u64() < Some(1200), "{index}");
}

/// Without an editor configured or running, `tools/list` leaves the editor tools out (a client
/// that cannot use them does not pay their tokens), yet a call to one still answers how to set
/// an editor up rather than "unknown tool".
#[tokio::test]
async fn editor_tools_are_listed_only_with_an_editor() {
    let ws = workspace();
    let missing = ws.path().join("no-emacs-here").join("server");
    let missing = missing.to_str().expect("utf-8");
    let auto = [("MCP_JAVA_INDEX_EDITOR", "auto"), ("MCP_JAVA_INDEX_EMACS_SOCKET", missing), ("TERM_PROGRAM", "")];
    let client = connect_as(ws.path(), Era::Initialize, (), &auto).await;
    let names: Vec<String> =
        client.list_all_tools().await.expect("tools/list").iter().map(|t| t.name.to_string()).collect();
    for editor_tool in ["open_file", "goto_location", "reload_buffer", "run_elisp"] {
        assert!(!names.contains(&editor_tool.to_owned()), "{editor_tool} listed without an editor: {names:?}");
    }
    assert!(names.contains(&"java_index".to_owned()) && names.contains(&"refactor_actions".to_owned()), "{names:?}");
    let r = call(&client, "open_file", json!({"file_path": "records.java", "line": 3})).await;
    assert_eq!(r.is_error, Some(true), "{}", text_of(&r));
    assert!(text_of(&r).contains("no editor is configured"), "{}", text_of(&r));
    client.cancel().await.expect("close");
    // Naming the editor lists them.
    let client = connect_as(ws.path(), Era::Initialize, (), &[("MCP_JAVA_INDEX_EDITOR", "vscode")]).await;
    let names: Vec<String> =
        client.list_all_tools().await.expect("tools/list").iter().map(|t| t.name.to_string()).collect();
    assert!(names.contains(&"open_file".to_owned()), "{names:?}");
    client.cancel().await.expect("close");
}

/// The editor tools through the real server: a command editor (`true`, standing in for one)
/// answers conforming structuredContent; `run_elisp` is off unless the user turns it on, and
/// needs Emacs.
#[tokio::test]
async fn editor_tools_answer_through_the_server() {
    let ws = workspace();
    let env = [("MCP_JAVA_INDEX_EDITOR", "command"), ("MCP_JAVA_INDEX_EDITOR_COMMAND", "true {file}:{line}:{column}")];
    let client = connect_as(ws.path(), Era::Initialize, (), &env).await;
    let tools = client.list_all_tools().await.expect("tools/list");
    let (r, sc) =
        call_conforming(&client, &tools, "open_file", json!({"file_path": "records.java", "line": 3, "column": 2}))
            .await;
    text_is_the_json(&r, &sc, "open_file");
    assert_eq!(
        sc,
        json!({"success": true, "filePath": "records.java", "editor": "command", "line": 3, "column": 2, "reloaded": false, "modified": false})
    );
    let (_, sc) = call_conforming(&client, &tools, "reload_buffer", json!({})).await;
    assert!(sc["note"].as_str().is_some_and(|n| n.contains("nothing was done")), "{sc}");
    let r = call(&client, "run_elisp", json!({"code": "(message \"hi\")"})).await;
    assert_eq!(r.is_error, Some(true));
    assert!(text_of(&r).contains("run_elisp is off"), "{}", text_of(&r));
    let r = call(&client, "goto_location", json!({"file_path": "../outside.java", "line": 1})).await;
    assert_eq!(r.is_error, Some(true), "{}", text_of(&r));
    client.cancel().await.expect("close");
}

/// After a build file changes, `maven_update_project` makes the server's library types follow
/// it without a restart: a dependency added to the pom joins `find_type`'s libraries and types
/// the receiver of a call through it (`likely` before, `exact` after).
#[tokio::test]
async fn maven_update_project_reads_the_libraries_again() {
    const POM: &str = "<project xmlns=\"http://maven.apache.org/POM/4.0.0\"><modelVersion>4.0.0</modelVersion>\
        <groupId>app</groupId><artifactId>app</artifactId><version>1</version><dependencies><dependency>\
        <groupId>org.apache.commons</groupId><artifactId>ARTIFACT</artifactId><version>3.12.0</version>\
        </dependency></dependencies></project>\n";
    let jar = Path::new("/usr/share/java/commons-lang3.jar");
    if !jar.is_file() {
        eprintln!("skipped: no {} (run .ci/run)", jar.display());
        return;
    }
    let repo = tempfile::tempdir().expect("tempdir");
    let dir = repo.path().join("org/apache/commons/commons-lang3/3.12.0");
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::copy(jar, dir.join("commons-lang3-3.12.0.jar")).expect("copy the jar");
    let (cache, ws) = (tempfile::tempdir().expect("tempdir"), tempfile::tempdir().expect("tempdir"));
    let pom = ws.path().join("pom.xml");
    std::fs::write(&pom, POM.replace("ARTIFACT", "not-in-the-repository")).expect("pom");
    let src = ws.path().join("src/main/java/app");
    std::fs::create_dir_all(&src).expect("mkdir");
    std::fs::write(
        src.join("Use.java"),
        "package app;\n\nimport org.apache.commons.lang3.StringUtils;\n\nclass Use {\n    static void take(String s) {}\n    \
         static void take(Integer i) {}\n\n    void pick(String[] a) {\n        take(StringUtils.join(a, \",\"));\n    }\n}\n",
    )
    .expect("source");
    let (repo_s, cache_s) = (repo.path().to_string_lossy().into_owned(), cache.path().to_string_lossy().into_owned());
    let env = [("MCP_JAVA_INDEX_MAVEN_REPO_LOCAL", repo_s.as_str()), ("XDG_CACHE_HOME", cache_s.as_str())];
    let client = connect_as(ws.path(), Era::Initialize, (), &env).await;
    let state = async || {
        let r = call(&client, "find_references", json!({"target": "app.Use#take(java.lang.String)"})).await;
        let sc = r.structured_content.clone().expect("structured");
        let confidence = sc["files"][0]["references"][0]["confidence"].as_str().unwrap_or_default().to_owned();
        let r = call(&client, "find_type", json!({"pattern": "StringUtils", "scope": "libraries"})).await;
        let found =
            r.structured_content.expect("structured").to_string().contains("org.apache.commons.lang3.StringUtils");
        (confidence, found)
    };
    assert_eq!(state().await, ("likely".to_owned(), false));
    std::fs::write(&pom, POM.replace("ARTIFACT", "commons-lang3")).expect("pom");
    let r = call(&client, "maven_update_project", json!({})).await;
    assert_eq!(r.is_error, Some(false), "{}", text_of(&r));
    assert_eq!(state().await, ("exact".to_owned(), true));
    client.cancel().await.expect("close");
}
