//! The MCP server: the tool catalog on the wire (rmcp), each call run on the blocking pool
//! against the shared [`Host`], results as `structuredContent` plus the same JSON as text.
//! Tool failures are tool errors (`isError`); protocol misuse is a JSON-RPC error. The same
//! handler serves stdio ([`serve_stdio`]) and the network ([`serve_network`]: Streamable HTTP,
//! TCP, the shared per-workspace server).

pub mod http;
pub mod logfile;
pub mod secret;
pub mod shared;
pub mod tcp;
pub mod transport;

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CompleteRequestParams, CompleteResult, CompletionInfo,
    ContentBlock, Implementation, InitializeResult, ListPromptsRequestMethod, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, MetaObject, PaginatedRequestParams,
    ProgressNotificationParam, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Reference,
    Resource, ResourceContents, ResourceTemplate, ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Map, Value};

use mji_config::Source;
use mji_model::cancel::Cancel;
use mji_tools::catalog::ToolSpec;
use mji_tools::host::Host;
use mji_tools::registry;

/// How long clients may cache `tools/list` (the catalog is fixed for the process lifetime).
pub const TOOLS_TTL_MS: u64 = 3_600_000;

/// What the server tells a model about using it.
pub(crate) const INSTRUCTIONS: &str = "Java code navigation without reading whole files. Workflow: \
1) java_index(filePath) gives the outline of a .java file: types, methods, constructors, fields with exact line ranges, signatures and javadoc locations; \
2) pick the symbol by name, signature or javadoc and call java_read_javadoc(filePath, symbolId) to learn what it does; \
3) only then read its body with java_read_range(filePath, startLine, endLine) using the lines from the outline. \
After editing code, get_problems(paths) lists what is now broken (syntax and javac errors and warnings). \
Paths are relative to the workspace root (or absolute inside it). Outputs are capped and say when they were cut and how to continue.";

/// What a model is told: [`INSTRUCTIONS`], and with several roots their names and how a path
/// or a search chooses one.
pub(crate) fn instructions_for(ws: &Host) -> Arc<str> {
    let roots = ws.roots();
    let mut text = INSTRUCTIONS.to_owned();
    if roots.paths().len() >= 2 {
        text += &format!(
            " This workspace has several roots: {}. A relative path found under more than one root is \
refused as ambiguous: prefix it with its root's name (app/src/Foo.java) or give it absolute. \
find_type, find_resource and java_find_symbol take `root` (a root's name or a path) to search one root.",
            roots.named_listing()
        );
    }
    if let Some(lombok) = ws.lombok() {
        text += &format!(
            " This workspace uses {lombok}: the members Lombok generates (accessors, constructors, builders, loggers) \
are listed by java_index (marked [lombok @Getter]), found by the searches and find_references; rename a field to \
rename its accessors, never a generated member."
        );
    }
    // What the repository's configuration tried and was refused: the agent can tell the user.
    if !ws.config().ignored.is_empty() {
        text += " Tell the user that the server ignored these settings of the repository's configuration: ";
        text += &ws.config().ignored.join("; ");
        text += ".";
    }
    Arc::from(text)
}

/// The rmcp handler.
#[derive(Clone)]
pub(crate) struct JavaIndexServer {
    ws: Arc<Host>,
    /// The listed tools with their `outputSchema`s, for clients sent `structuredContent`.
    tools: Arc<Vec<Tool>>,
    /// The same tools without `outputSchema`, for text-only clients.
    text_tools: Arc<Vec<Tool>>,
    /// `structured_content` as the user set it, or `None` when left at its default (then the
    /// client decides: see [`structured_for`]).
    structured_setting: Option<bool>,
    pool: Arc<CallPool>,
    /// [`INSTRUCTIONS`], plus the roots by name when there are several.
    instructions: Arc<str>,
}

/// The `clientInfo.name`s of the clients known to show the model `structuredContent` instead
/// of the text whenever an answer has one, so they are served the compact text alone:
/// - `claude-code`: Claude Code passes `JSON.stringify(structuredContent)` and drops the text
///   (anthropics/claude-code#55677, #79944; name seen in its MCP logs,
///   `{"name":"claude-code","version":"2.0.73"}`);
/// - `codex-mcp-client`: Codex prefers `structuredContent` (its client names itself so, title
///   "Codex");
/// - `opencode`: opencode serializes `structuredContent` for the model, "matching Codex"
///   (anomalyco/opencode#32074).
pub const TEXT_CLIENTS: &[&str] = &["claude-code", "codex-mcp-client", "opencode"];

/// Whether a client is sent `structuredContent` (and listed `outputSchema`s): the user's
/// explicit `structured_content` setting always wins; left at its default, every client is
/// except the [`TEXT_CLIENTS`], which would show the model the JSON instead of the compact text.
pub fn structured_for(setting: Option<bool>, client_name: Option<&str>) -> bool {
    match setting {
        Some(explicit) => explicit,
        None => !client_name.is_some_and(|n| TEXT_CLIENTS.iter().any(|c| n.eq_ignore_ascii_case(c))),
    }
}

/// Calls running at once at most: each runs on a blocking thread, and the heavy ones already
/// use every core through rayon, so more would only add threads and memory.
pub fn max_running_calls() -> usize {
    std::thread::available_parallelism().map_or(4, |n| n.get()).max(4)
}

/// Calls waiting for a worker at most; beyond it a call is answered at once that the server
/// is busy (a tool error the client can retry), so pipelined floods cannot grow the process.
pub(crate) const MAX_QUEUED_CALLS: usize = 1024;

/// The bounded worker pool: permits for running calls and a count of waiting ones. Each call,
/// waiting or running, also raises the host's foreground signal (`Host::foreground`).
struct CallPool {
    running: Arc<tokio::sync::Semaphore>,
    queued: std::sync::atomic::AtomicUsize,
}

/// A registered tool as `tools/list` shows it (with its `outputSchema` when the client is sent
/// `structuredContent`).
pub fn to_tool(spec: &ToolSpec, structured: bool) -> Tool {
    // The title once, at the top (2025-06-18); `annotations.title` would repeat it. The spec
    // gives `destructiveHint` and `idempotentHint` meaning only when `readOnlyHint` is false, so
    // a read-only tool leaves them out (about 140 tokens of tools/list).
    let annotations = ToolAnnotations::new().read_only(spec.read_only).open_world(spec.open_world);
    let annotations = if spec.read_only {
        annotations
    } else {
        annotations.destructive(spec.destructive).idempotent(spec.idempotent)
    };
    let tool = Tool::new(spec.name, spec.description, Arc::new(spec.input_schema.clone()))
        .with_title(spec.title)
        .with_annotations(annotations);
    // A declared outputSchema obliges every answer to carry structuredContent.
    if structured { tool.with_raw_output_schema(Arc::new(spec.output_schema.clone())) } else { tool }
}

impl JavaIndexServer {
    pub fn new(ws: Arc<Host>) -> Self {
        let explicit = ws.config().sources.get("structured_content").is_some_and(|s| *s != Source::Default);
        let structured_setting = explicit.then_some(ws.config().structured_content);
        let tools = registry::listed(&ws).map(|e| to_tool(&e.spec, true)).collect();
        let text_tools = registry::listed(&ws).map(|e| to_tool(&e.spec, false)).collect();
        let pool = CallPool {
            running: Arc::new(tokio::sync::Semaphore::new(max_running_calls())),
            queued: std::sync::atomic::AtomicUsize::new(0),
        };
        let instructions = instructions_for(&ws);
        JavaIndexServer {
            ws,
            instructions,
            tools: Arc::new(tools),
            text_tools: Arc::new(text_tools),
            structured_setting,
            pool: Arc::new(pool),
        }
    }

    /// Whether the client of this request is sent `structuredContent` (see [`structured_for`]).
    fn structured(&self, context: &RequestContext<RoleServer>) -> bool {
        let client = context.client_info();
        structured_for(self.structured_setting, client.as_ref().map(|c| c.name.as_str()))
    }

    /// The tools as this request's client is shown them.
    fn tools_for(&self, structured: bool) -> &Arc<Vec<Tool>> {
        if structured { &self.tools } else { &self.text_tools }
    }

    /// While the first indexing pass runs, a search waits (up to the configured time) and, if
    /// the client sent a progress token, hears how far indexing got every 250 ms.
    async fn report_indexing(&self, context: &RequestContext<RoleServer>) {
        let index = self.ws.index().clone();
        if index.progress().complete {
            return;
        }
        let Some(token) = context.meta.get_progress_token() else { return };
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_millis(self.ws.config().index_wait_ms);
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
    async fn run(
        &self,
        name: &str,
        args: Map<String, Value>,
        structured: bool,
        ct: tokio_util::sync::CancellationToken,
        progress_to: Option<(rmcp::model::ProgressToken, rmcp::service::Peer<RoleServer>)>,
    ) -> Result<CallToolResult, McpError> {
        use std::sync::atomic::Ordering;
        // Foreground first: from now until it is answered, the call counts as waiting or
        // running, and the background binding pass yields to it (`Keeper::warm`).
        let _in_foreground = self.ws.foreground().enter();
        // Back-pressure: a bounded queue in front of a bounded pool.
        if self.pool.queued.fetch_add(1, Ordering::SeqCst) >= MAX_QUEUED_CALLS {
            self.pool.queued.fetch_sub(1, Ordering::SeqCst);
            return Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                "server busy: {MAX_QUEUED_CALLS} calls are already waiting; retry {name} shortly"
            ))]));
        }
        let permit = tokio::select! {
            // Owned, so the permit travels into the blocking task and is freed with it.
            p = self.pool.running.clone().acquire_owned() => p.ok(),
            _ = ct.cancelled() => None,
        };
        self.pool.queued.fetch_sub(1, Ordering::SeqCst);
        let Some(permit) = permit else {
            return Ok(CallToolResult::error(vec![ContentBlock::text(format!("cancelled: {name} did not start"))]));
        };
        // A client's notifications/cancelled sets the call's flag; the core checks it between
        // files and the worker is freed.
        let cancel = Cancel::new();
        let watch = {
            let (cancel, ct) = (cancel.clone(), ct.clone());
            tokio::spawn(async move {
                ct.cancelled().await;
                cancel.cancel();
            })
        };
        // A long call's reports (mji_model::progress) become notifications/progress when the
        // client sent a progress token: the latest report, every 250 ms at most.
        let progress = mji_model::progress::Progress::new();
        let reporter = progress_to.map(|(token, peer)| {
            let progress = progress.clone();
            tokio::spawn(async move {
                let mut seen = 0;
                loop {
                    tokio::time::sleep(std::time::Duration::from_millis(250)).await;
                    if let Some(r) = progress.newer_than(seen) {
                        seen = r.seq;
                        let mut param = ProgressNotificationParam::new(token.clone(), r.done).with_message(r.message);
                        if let Some(t) = r.total {
                            param = param.with_total(t);
                        }
                        let _ = peer.notify_progress(param).await;
                    }
                }
            })
        });
        let ws = self.ws.clone();
        let tool = name.to_owned();
        let joined = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let budget = ws.answer_budget_for(structured);
            let answer = cancel.scope(|| progress.scope(|| registry::dispatch_within(&ws, &tool, args, budget)));
            // The file a single-file answer is about, as a link the client can open or attach.
            let link = answer.as_ref().ok().and_then(|a| mji_tools::resources::answer_link(&ws, &a.value));
            answer.map(|a| (a, link))
        })
        .await;
        watch.abort();
        if let Some(r) = reporter {
            r.abort();
        }
        Ok(match joined {
            Ok(Ok((answer, link))) => {
                let text = answer.text();
                let mut r = if structured {
                    CallToolResult::structured(answer.value)
                } else {
                    CallToolResult::success(Vec::new())
                };
                r.content = vec![ContentBlock::text(text)];
                if let Some(l) = link {
                    let mut resource = Resource::new(l.uri, l.name).with_mime_type(l.mime_type);
                    if let Some(size) = l.size {
                        resource = resource.with_size(size);
                    }
                    r.content.push(ContentBlock::resource_link(resource));
                }
                r.meta = answer.meta.map(MetaObject);
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

impl ServerHandler for JavaIndexServer {
    fn get_info(&self) -> ServerConfig {
        InitializeResult::new(
            ServerCapabilities::builder().enable_completions().enable_resources().enable_tools().build(),
        )
        .with_server_info(Implementation::new("mcp-java-index", env!("CARGO_PKG_VERSION")))
        .with_instructions(self.instructions.to_string())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let tools = self.tools_for(self.structured(&context));
        Ok(ListToolsResult::with_all_items((**tools).clone()).with_ttl_ms(TOOLS_TTL_MS))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        registry::enabled(&self.ws).find(|e| e.spec.name == name).map(|e| to_tool(&e.spec, true))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        // An enabled tool that is not listed (an editor tool while no editor is set up) is still
        // called: it answers how to set the editor up.
        if !registry::enabled(&self.ws).any(|e| e.spec.name == request.name) {
            let known: Vec<&str> = self.tools.iter().map(|t| t.name.as_ref()).collect();
            let why = match registry::find(&request.name) {
                Some(e) => format!(
                    "tool `{}` is in the `{}` group, which this server's `tools` setting leaves out",
                    request.name, e.spec.group
                ),
                None => format!("unknown tool `{}`", mji_fs::clip(&request.name)),
            };
            return Err(McpError::invalid_params(format!("{why}; this server has: {}", known.join(", ")), None));
        }
        if registry::find(&request.name).is_some_and(|e| e.waits_for_index) {
            self.report_indexing(&context).await;
        }
        let args = request.arguments.unwrap_or_default();
        let structured = self.structured(&context);
        let progress_to = context.meta.get_progress_token().map(|t| (t, context.peer.clone()));
        self.run(&request.name, args, structured, context.ct.clone(), progress_to).await.map(CallToolResponse::from)
    }

    // Prompts, which this server does not declare, answer "method not found" rather than an
    // empty success (rmcp's default), so clients are not misled.
    async fn list_prompts(
        &self,
        _r: Option<PaginatedRequestParams>,
        _c: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, McpError> {
        Err(McpError::method_not_found::<ListPromptsRequestMethod>())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _c: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, McpError> {
        let Reference::Resource(template) = request.r#ref else {
            return Err(McpError::invalid_params("this server has no prompts: complete a resource template", None));
        };
        let (uri, arg) = (template.uri, request.argument);
        let found =
            self.blocking(move |ws| mji_tools::resources::complete_resource(ws, &uri, &arg.name, &arg.value)).await?;
        let mut info = CompletionInfo::default();
        info.total = Some(found.total.min(u32::MAX as usize) as u32);
        info.has_more = Some(found.has_more);
        info.values = found.values;
        Ok(CompleteResult::new(info))
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _c: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let offset = match request.and_then(|r| r.cursor) {
            None => 0,
            Some(c) => c.parse::<usize>().map_err(|_| {
                McpError::invalid_params(
                    format!("invalid cursor `{}`: give the nextCursor of the last page", mji_fs::clip(&c)),
                    None,
                )
            })?,
        };
        let page = self.blocking(move |ws| Ok(mji_tools::resources::list_resources(ws, offset))).await?;
        let resources = page
            .items
            .into_iter()
            .map(|i| Resource::new(i.uri, i.name).with_mime_type(i.mime_type).with_size(i.size.unwrap_or(0)))
            .collect();
        let mut result = ListResourcesResult::with_all_items(resources);
        result.next_cursor = page.next_offset.map(|n| n.to_string());
        Ok(result)
    }

    async fn list_resource_templates(
        &self,
        _r: Option<PaginatedRequestParams>,
        _c: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        use mji_tools::resources::{FILE_TEMPLATE, TYPE_TEMPLATE};
        Ok(ListResourceTemplatesResult::with_all_items(vec![
            ResourceTemplate::new(FILE_TEMPLATE, "workspace file")
                .with_title("Workspace file")
                .with_description("A file under the workspace roots, by its absolute path"),
            ResourceTemplate::new(TYPE_TEMPLATE, "java type")
                .with_title("Java type source")
                .with_description("A type's source by qualified name (its file's outline when too long)")
                .with_mime_type("text/x-java"),
        ]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _c: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let uri = request.uri;
        let r = self.blocking(move |ws| mji_tools::resources::read_resource(ws, &uri)).await?;
        let contents = ResourceContents::TextResourceContents {
            uri: r.uri,
            mime_type: Some(r.mime_type.to_owned()),
            text: r.text,
            meta: None,
        };
        Ok(ReadResourceResult::new(vec![contents]).into())
    }
}

impl JavaIndexServer {
    /// A resource call on the blocking pool; its errors as JSON-RPC errors (a missing file or
    /// type: resource not found), a panic as an internal error.
    async fn blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Host) -> Result<T, mji_tools::ToolError> + Send + 'static,
    ) -> Result<T, McpError> {
        use mji_tools::ToolError;
        let ws = self.ws.clone();
        match tokio::task::spawn_blocking(move || f(&ws)).await {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(e @ (ToolError::NotFound(_) | ToolError::NoSuchSymbol(_)))) => {
                Err(McpError::resource_not_found(registry::unecho(e.to_string(), &[]), None))
            }
            Ok(Err(e)) => Err(McpError::invalid_params(registry::unecho(e.to_string(), &[]), None)),
            Err(join) => {
                tracing::error!("resource call failed: {join}");
                Err(McpError::internal_error("internal error (logged; please report it)", None))
            }
        }
    }
}

/// Serves MCP on stdin/stdout until the client closes its end.
pub async fn serve_stdio(ws: Arc<Host>) -> anyhow::Result<()> {
    let confine = ws.config().confinement("log_file");
    let log = match transport::MessageLog::open(ws.config().log_file.as_deref(), confine) {
        Ok(log) => log,
        // A path the repository chose never stops the server.
        Err(e) if confine.is_some() => {
            tracing::warn!("not recording messages (log_file set by the repository): {e}");
            transport::MessageLog::default()
        }
        Err(e) => {
            let path = ws.config().log_file.as_deref().unwrap_or(std::path::Path::new(""));
            anyhow::bail!("opening log file {}: {e}", path.display())
        }
    };
    serve_io(ws.clone(), tokio::io::stdin(), tokio::io::stdout(), log).await;
    ws.flush();
    Ok(())
}

/// Serves MCP over any byte stream pair until `input` ends, then lets queued answers reach
/// `output` (for at most two seconds). The whole path a message takes — the line transport,
/// rmcp's dispatch, the handler — so the fuzz target and its replay test drive it in memory.
pub async fn serve_io<R, W>(ws: Arc<Host>, input: R, output: W, log: transport::MessageLog)
where
    R: tokio::io::AsyncRead + Unpin + Send + 'static,
    W: tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    prepare(&ws);
    serve_connection(JavaIndexServer::new(ws), input, output, log).await;
}

/// What every transport does once before serving.
fn prepare(ws: &Arc<Host>) {
    // The tokenizer that measures answers takes ~100 ms to build: not on the first call's time.
    mji_tools::budget::warm();
    // A full disk (or a file-size limit) stops the cache's writes: said once, and the answers
    // go on from memory.
    ws.on_cache_write_error(Arc::new(|e: &str| {
        tracing::error!("{e}; the cache keeps new entries in memory for the rest of this run")
    }));
}

/// One line-delimited connection (stdio, or a TCP client) served by `server`.
pub(crate) async fn serve_connection<R, W>(server: JavaIndexServer, input: R, output: W, log: transport::MessageLog)
where
    R: tokio::io::AsyncRead + Unpin + Send + 'static,
    W: tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let (t, pump) = transport::LineTransport::start(input, output, log);
    match server.serve(t).await {
        Ok(running) => {
            let reason = running.waiting().await;
            tracing::info!("connection ended: {reason:?}");
        }
        // The client went away before the handshake finished: a clean exit.
        Err(e) => tracing::info!("connection closed during initialization: {e}"),
    }
    // Let queued answers reach the output; the writer stops once every sender is gone.
    let _ = tokio::time::timeout(std::time::Duration::from_secs(2), pump.writer).await;
}

/// Connections one network listener holds open at most; beyond it a new one is closed at
/// once (a flood of idle or unauthenticated connections cannot exhaust the descriptors).
pub const MAX_CONNECTIONS: usize = 256;

/// The network side of a server: the listeners it serves and how it is reached.
pub struct Network {
    /// MCP Streamable HTTP.
    pub http: Option<std::net::TcpListener>,
    /// Newline-delimited JSON-RPC, each connection opened by the token line.
    pub tcp: Option<std::net::TcpListener>,
    /// The token both require.
    pub token: String,
    /// Serve as the workspace's shared server: registered in this file, stopping after this
    /// idle time (`None`: never).
    pub shared: Option<(std::path::PathBuf, Option<std::time::Duration>)>,
    /// Host names HTTP requests may name besides loopback and the bound address.
    pub allowed_hosts: Vec<String>,
    /// Where TCP connections' messages are recorded (`log_file`; none by default).
    pub log: transport::MessageLog,
}

/// Serves the listeners until stopped (Ctrl-C, SIGTERM) or, for a shared server, idle for its
/// idle time. Every client shares one workspace and one bounded call pool.
pub async fn serve_network(ws: Arc<Host>, net: Network) -> anyhow::Result<()> {
    let log = net.log.clone();
    prepare(&ws);
    let server = JavaIndexServer::new(ws.clone());
    let token: Arc<str> = Arc::from(net.token.as_str());
    let activity = shared::Activity::new();
    let ct = tokio_util::sync::CancellationToken::new();
    let mut http_addr = None;
    let mut tcp_addr = None;
    let mut tasks = Vec::new();
    if let Some(l) = net.http {
        l.set_nonblocking(true)?;
        let l = tokio::net::TcpListener::from_std(l)?;
        http_addr = Some(l.local_addr()?);
        let hosts = net.allowed_hosts.clone();
        tasks.push(tokio::spawn(http::serve_http(
            server.clone(),
            l,
            hosts,
            token.clone(),
            activity.clone(),
            ct.clone(),
        )));
    }
    // A shared server's own key, which it proves it holds before a client sends the token.
    let proof_key = match &net.shared {
        Some(_) => Some(secret::random_hex().map_err(|e| anyhow::anyhow!(e))?),
        None => None,
    };
    if let Some(l) = net.tcp {
        l.set_nonblocking(true)?;
        let l = tokio::net::TcpListener::from_std(l)?;
        tcp_addr = Some(l.local_addr()?);
        let key = proof_key.as_deref().map(Arc::from);
        let task = tcp::serve_tcp(server.clone(), l, token.clone(), key, activity.clone(), log.clone(), ct.clone());
        tasks.push(tokio::spawn(task));
    }
    let mut registered = None;
    let mut idle_limit = None;
    if let Some((path, idle)) = &net.shared {
        let Some(tcp) = tcp_addr else { anyhow::bail!("a shared server needs its TCP listener") };
        let reg = shared::Registration {
            pid: std::process::id(),
            tcp,
            http: http_addr,
            token: net.token.clone(),
            proof_key: proof_key.clone().unwrap_or_default(),
            roots: ws.roots().paths().to_vec(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
        };
        if let Some(other) = shared::register(path, &reg).map_err(|e| anyhow::anyhow!(e))? {
            tracing::warn!(pid = other.pid, "another shared server already serves this workspace; stopping");
            ct.cancel();
        } else {
            registered = Some(path.clone());
        }
        idle_limit = *idle;
    }
    let stop = async {
        #[cfg(unix)]
        {
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(mut term) => tokio::select! {
                    _ = tokio::signal::ctrl_c() => {},
                    _ = term.recv() => {},
                },
                Err(_) => {
                    let _ = tokio::signal::ctrl_c().await;
                }
            }
        }
        #[cfg(not(unix))]
        let _ = tokio::signal::ctrl_c().await;
    };
    let idle = async {
        let Some(limit) = idle_limit else { return std::future::pending().await };
        loop {
            tokio::time::sleep(std::time::Duration::from_millis(250)).await;
            if activity.idle_for().is_some_and(|d| d >= limit) {
                tracing::info!("no client for {} s: stopping", limit.as_secs());
                return;
            }
        }
    };
    tokio::select! {
        _ = stop => {},
        _ = idle => {},
        _ = ct.cancelled() => {},
    }
    // Unregistered first, so a bridge arriving now starts a new server instead of this one.
    if let Some(path) = &registered {
        shared::unregister(path);
    }
    ct.cancel();
    for t in tasks {
        let _ = tokio::time::timeout(std::time::Duration::from_secs(2), t).await;
    }
    ws.flush();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::structured_for;

    /// A call counts in the foreground (which the background binding pass yields to) from
    /// when it waits for a worker until it is answered.
    #[test]
    fn a_call_raises_the_foreground_signal_while_it_waits_and_runs() {
        let dir = std::env::temp_dir().join(format!("mji-server-foreground-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::write(dir.join("A.java"), "class A {}\n").expect("write");
        let flags = mji_config::Flags::roots([&dir]).set("watch", false).set("cache", false);
        let config = mji_config::Config::load(&flags, &|_| None).expect("config");
        let ws = std::sync::Arc::new(mji_tools::host::Host::open(config).expect("workspace"));
        ws.build_index();
        let server = super::JavaIndexServer::new(ws.clone());
        let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
        rt.block_on(async {
            // Every worker taken: the call waits.
            let all = u32::try_from(super::max_running_calls()).expect("fits");
            let busy = server.pool.running.clone().acquire_many_owned(all).await.expect("permits");
            assert!(!ws.foreground().busy());
            let s = server.clone();
            let call = tokio::spawn(async move {
                let mut args = serde_json::Map::new();
                args.insert("filePath".to_owned(), "A.java".into());
                s.run("java_index", args, true, tokio_util::sync::CancellationToken::new(), None).await
            });
            while ws.foreground().calls() == 0 {
                tokio::task::yield_now().await;
            }
            assert_eq!(ws.foreground().calls(), 1, "the waiting call is in the foreground");
            drop(busy);
            let answer = call.await.expect("joined").expect("answered");
            assert_ne!(answer.is_error, Some(true), "{answer:?}");
            assert!(!ws.foreground().busy(), "answered: the foreground is quiet again");
        });
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_explicit_setting_wins_else_text_clients_get_text() {
        // Unset: every client gets structuredContent except Claude Code (by its clientInfo).
        assert!(structured_for(None, Some("claude-ai")));
        assert!(structured_for(None, None));
        assert!(!structured_for(None, Some("claude-code")));
        assert!(!structured_for(None, Some("Claude-Code")));
        assert!(structured_for(None, Some("claude-code-open")));
        assert!(!structured_for(None, Some("codex-mcp-client")) && !structured_for(None, Some("opencode")));
        // Set: it holds for every client.
        assert!(structured_for(Some(true), Some("claude-code")));
        assert!(!structured_for(Some(false), Some("claude-ai")));
    }
}
