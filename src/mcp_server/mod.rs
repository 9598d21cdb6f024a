//! The MCP server: the tool catalog on the wire (rmcp), each call run on the blocking pool
//! against the shared [`Workspace`], results as `structuredContent` plus the same JSON as text.
//! Tool failures are tool errors (`isError`); protocol misuse is a JSON-RPC error.

pub mod transport;

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CompleteRequestMethod, CompleteRequestParams,
    CompleteResult, ContentBlock, Implementation, InitializeResult, ListPromptsRequestMethod, ListPromptsResult,
    ListResourceTemplatesRequestMethod, ListResourceTemplatesResult, ListResourcesRequestMethod, ListResourcesResult,
    ListToolsResult, MetaObject, PaginatedRequestParams, ProgressNotificationParam, ServerCapabilities, ServerConfig,
    Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Map, Value};

use crate::tools::ToolError;
use crate::tools::catalog::{ToolSpec, catalog};
use crate::tools::java_index::IndexOptions;
use crate::tools::workspace::{JavaIndexArgs, ReadJavadocArgs, ReadRangeArgs, Workspace};

/// How long clients may cache `tools/list` (the catalog is fixed for the process lifetime).
pub const TOOLS_TTL_MS: u64 = 3_600_000;

/// What the server tells a model about using it.
pub const INSTRUCTIONS: &str = "Java code navigation without reading whole files. Workflow: \
1) java_index(filePath) gives the outline of a .java file: types, methods, constructors, fields with exact line ranges, signatures and javadoc locations; \
2) pick the symbol by name, signature or javadoc and call java_read_javadoc(filePath, symbolId) to learn what it does; \
3) only then read its body with java_read_range(filePath, startLine, endLine) using the lines from the outline. \
After editing code, get_problems(paths) lists what is now broken (syntax and javac errors and warnings). \
Paths are relative to the workspace root (or absolute inside it). Outputs are capped and say when they were cut and how to continue.";

/// The rmcp handler.
#[derive(Clone)]
pub struct JavaIndexServer {
    ws: Arc<Workspace>,
    tools: Arc<Vec<Tool>>,
}

fn to_tool(spec: &ToolSpec) -> Tool {
    let mut annotations = ToolAnnotations::with_title(spec.title)
        .read_only(spec.read_only)
        .destructive(spec.destructive)
        .idempotent(spec.idempotent)
        .open_world(spec.open_world);
    annotations.title = Some(spec.title.to_owned());
    Tool::new(spec.name, spec.description, Arc::new(spec.input_schema.clone()))
        .with_title(spec.title)
        .with_raw_output_schema(Arc::new(spec.output_schema.clone()))
        .with_annotations(annotations)
}

impl JavaIndexServer {
    pub fn new(ws: Arc<Workspace>) -> Self {
        let tools = catalog().iter().map(to_tool).collect();
        JavaIndexServer { ws, tools: Arc::new(tools) }
    }

    /// While the first indexing pass runs, a search waits (up to the configured time) and, if
    /// the client sent a progress token, hears how far indexing got every 250 ms.
    async fn report_indexing(&self, context: &RequestContext<RoleServer>) {
        let index = self.ws.index().clone();
        if index.progress().complete {
            return;
        }
        let Some(token) = context.meta.get_progress_token() else { return };
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_millis(self.ws.config.index_wait_ms);
        let mut last = usize::MAX;
        loop {
            let p = index.progress();
            if p.indexed != last {
                last = p.indexed;
                // The total is known once the roots are walked.
                let param = if p.total == 0 {
                    ProgressNotificationParam::new(token.clone(), 0.0).with_message("walking the workspace roots")
                } else {
                    ProgressNotificationParam::new(token.clone(), p.indexed as f64)
                        .with_total(p.total as f64)
                        .with_message(format!("indexing the workspace: {} of {} Java files", p.indexed, p.total))
                };
                let _ = context.peer.notify_progress(param).await;
            }
            if p.complete || tokio::time::Instant::now() >= deadline || context.ct.is_cancelled() {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(250)).await;
        }
    }

    /// Runs one tool on the blocking pool. Panics become tool errors; the server stays up.
    async fn run(&self, name: &str, args: Map<String, Value>) -> Result<CallToolResult, McpError> {
        let ws = self.ws.clone();
        let tool = name.to_owned();
        let joined = tokio::task::spawn_blocking(move || dispatch(&ws, &tool, args)).await;
        Ok(match joined {
            Ok(Ok(answer)) => {
                let text = answer.text.unwrap_or_else(|| answer.value.to_string());
                let mut r = CallToolResult::structured(answer.value);
                r.content = vec![ContentBlock::text(text)];
                r.meta = answer.meta;
                r
            }
            Ok(Err(e)) => {
                tracing::info!(tool = name, "tool error: {e}");
                CallToolResult::error(vec![ContentBlock::text(e)])
            }
            Err(join) => {
                let what = if join.is_panic() { "panicked" } else { "was cancelled" };
                tracing::error!(tool = name, "tool {what}: {join}");
                CallToolResult::error(vec![ContentBlock::text(format!(
                    "internal error: {name} {what} on these arguments (logged; please report it). The server is still running."
                ))])
            }
        })
    }
}

/// A tool's answer: the structured value, its text when already serialized, and `_meta`.
pub struct Answer {
    pub value: Value,
    pub text: Option<String>,
    pub meta: Option<MetaObject>,
}

fn parse<T: serde::de::DeserializeOwned>(tool: &str, args: Map<String, Value>) -> Result<T, String> {
    serde_json::from_value(Value::Object(args))
        .map_err(|e| format!("invalid arguments for {tool}: {e}; see the tool's inputSchema"))
}

fn tool_error(e: ToolError) -> String {
    e.to_string()
}

/// Calls a tool by name with JSON arguments; the error is the tool-error text.
pub fn dispatch(ws: &Workspace, tool: &str, args: Map<String, Value>) -> Result<Answer, String> {
    let to_value =
        |v: Result<Value, serde_json::Error>| v.map_err(|e| format!("internal error: serializing the result: {e}"));
    match tool {
        "java_index" => {
            let a: JavaIndexArgs = parse(tool, args)?;
            // Fault injection for the test that proves a panic never reaches the client.
            if std::env::var_os("MCP_JAVA_INDEX_INJECT_PANIC").is_some_and(|v| *v == *a.file_path) {
                panic!("injected panic for {}", a.file_path);
            }
            let counters = || ws.counters();
            let meta = |outcome: crate::cache::Outcome, ms: f64| {
                let c = counters();
                serde_json::json!({
                    "cache": outcome,
                    "elapsedMs": (ms * 1000.0).round() / 1000.0,
                    "cacheHits": c.hits,
                    "cacheMisses": c.misses,
                })
                .as_object()
                .cloned()
                .map(MetaObject)
            };
            if a.options == IndexOptions::default() {
                // The common case: the cached JSON is the answer.
                let (json, outcome, ms) = ws.java_index_json(&a.file_path).map_err(tool_error)?;
                tracing::info!(file = %a.file_path, cache = ?outcome, ms, "java_index");
                let value: Value = serde_json::from_str(&json)
                    .map_err(|e| format!("internal error: reading the cached outline: {e}"))?;
                return Ok(Answer { value, text: Some(json), meta: meta(outcome, ms) });
            }
            let answer = ws.java_index(&a).map_err(tool_error)?;
            tracing::info!(file = %answer.outline.file_path, cache = ?answer.outcome, ms = answer.elapsed_ms, "java_index");
            Ok(Answer {
                value: to_value(serde_json::to_value(&answer.outline))?,
                text: None,
                meta: meta(answer.outcome, answer.elapsed_ms),
            })
        }
        "java_read_range" => {
            let a: ReadRangeArgs = parse(tool, args)?;
            let value = to_value(serde_json::to_value(ws.java_read_range(&a).map_err(tool_error)?))?;
            Ok(Answer { value, text: None, meta: None })
        }
        "java_read_javadoc" => {
            let a: ReadJavadocArgs = parse(tool, args)?;
            let value = to_value(serde_json::to_value(ws.java_read_javadoc(&a).map_err(tool_error)?))?;
            Ok(Answer { value, text: None, meta: None })
        }
        "java_find_symbol" => {
            let a: crate::tools::find::FindSymbolArgs = parse(tool, args)?;
            let value = to_value(serde_json::to_value(ws.java_find_symbol(&a).map_err(tool_error)?))?;
            Ok(Answer { value, text: None, meta: None })
        }
        "find_type" => {
            let a: crate::tools::find::FindTypeArgs = parse(tool, args)?;
            let value = to_value(serde_json::to_value(ws.find_type(&a).map_err(tool_error)?))?;
            Ok(Answer { value, text: None, meta: None })
        }
        "find_resource" => {
            let a: crate::tools::find::FindResourceArgs = parse(tool, args)?;
            let value = to_value(serde_json::to_value(ws.find_resource(&a).map_err(tool_error)?))?;
            Ok(Answer { value, text: None, meta: None })
        }
        "find_references" => {
            let a: crate::tools::xref::FindReferencesArgs = parse(tool, args)?;
            let value = to_value(serde_json::to_value(ws.find_references(&a).map_err(tool_error)?))?;
            Ok(Answer { value, text: None, meta: None })
        }
        "analyze_type_dependencies" => {
            let a: crate::tools::xref::DependenciesArgs = parse(tool, args)?;
            let value = to_value(serde_json::to_value(ws.analyze_type_dependencies(&a).map_err(tool_error)?))?;
            Ok(Answer { value, text: None, meta: None })
        }
        "show_definition" => {
            let a: crate::tools::xref::ShowDefinitionArgs = parse(tool, args)?;
            let value = to_value(serde_json::to_value(ws.show_definition(&a).map_err(tool_error)?))?;
            Ok(Answer { value, text: None, meta: None })
        }
        "get_problems" => {
            let a: crate::tools::problems::ProblemsArgs = parse(tool, args)?;
            let result = ws.get_problems(&a).map_err(tool_error)?;
            tracing::info!(
                files = result.file_counts.analysed,
                problems = result.total_count,
                complete = result.complete,
                ms = result.elapsed_ms,
                "get_problems"
            );
            let value = to_value(serde_json::to_value(result))?;
            Ok(Answer { value, text: None, meta: None })
        }
        other => Err(format!("unknown tool {other}")),
    }
}

impl ServerHandler for JavaIndexServer {
    fn get_info(&self) -> ServerConfig {
        InitializeResult::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("mcp-java-index", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items((*self.tools).clone()).with_ttl_ms(TOOLS_TTL_MS))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        if !self.tools.iter().any(|t| t.name == request.name) {
            let known: Vec<&str> = self.tools.iter().map(|t| t.name.as_ref()).collect();
            return Err(McpError::invalid_params(
                format!("unknown tool `{}`; this server has: {}", request.name, known.join(", ")),
                None,
            ));
        }
        if matches!(
            request.name.as_ref(),
            "java_find_symbol"
                | "find_type"
                | "find_resource"
                | "find_references"
                | "analyze_type_dependencies"
                | "show_definition"
        ) {
            self.report_indexing(&context).await;
        }
        let args = request.arguments.unwrap_or_default();
        self.run(&request.name, args).await.map(CallToolResponse::from)
    }

    // Capabilities this server does not declare answer "method not found" rather than an
    // empty success (rmcp's defaults), so clients are not misled.
    async fn list_prompts(
        &self,
        _r: Option<PaginatedRequestParams>,
        _c: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, McpError> {
        Err(McpError::method_not_found::<ListPromptsRequestMethod>())
    }

    async fn complete(
        &self,
        _r: CompleteRequestParams,
        _c: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, McpError> {
        Err(McpError::method_not_found::<CompleteRequestMethod>())
    }

    async fn list_resources(
        &self,
        _r: Option<PaginatedRequestParams>,
        _c: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        Err(McpError::method_not_found::<ListResourcesRequestMethod>())
    }

    async fn list_resource_templates(
        &self,
        _r: Option<PaginatedRequestParams>,
        _c: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        Err(McpError::method_not_found::<ListResourceTemplatesRequestMethod>())
    }
}

/// Serves MCP on stdin/stdout until the client closes its end.
pub async fn serve_stdio(ws: Arc<Workspace>) -> anyhow::Result<()> {
    let log = transport::MessageLog::open(ws.config.log_file.as_deref()).map_err(|e| {
        anyhow::anyhow!(
            "opening log file {}: {e}",
            ws.config.log_file.as_deref().unwrap_or(std::path::Path::new("")).display()
        )
    })?;
    let (t, pump) = transport::LineTransport::start(tokio::io::stdin(), tokio::io::stdout(), log);
    let server = JavaIndexServer::new(ws.clone());
    match server.serve(t).await {
        Ok(running) => {
            let reason = running.waiting().await;
            tracing::info!("connection ended: {reason:?}");
        }
        // The client went away before the handshake finished: a clean exit.
        Err(e) => tracing::info!("connection closed during initialization: {e}"),
    }
    ws.flush();
    // Let queued answers reach stdout; the writer stops once every sender is gone.
    let _ = tokio::time::timeout(std::time::Duration::from_secs(2), pump.writer).await;
    Ok(())
}
