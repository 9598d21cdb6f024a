//! The tool registry: every tool is one file in `tool/` implementing [`Tool`] (its arguments,
//! result, description, annotations, whether it waits for the index, its call and its text
//! rendering) and one line in [`TOOLS`]. The MCP server and the CLI both iterate the registry;
//! schemas are derived from the types, so a result cannot drift from its `outputSchema`.

use std::sync::OnceLock;

use mji_model::cancel::Cancel;
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::ToolError;
use crate::catalog::{ToolSpec, output_schema_of, schema_of};
use crate::tool;
use crate::workspace::Workspace;

/// Every tool, in the order `tools/list` shows them. Adding a tool: a file in `tool/`, its
/// `mod` line there, and one line here.
const TOOLS: &[fn() -> Entry] = &[
    entry::<tool::java_index::JavaIndex>,
    entry::<tool::java_read_range::JavaReadRange>,
    entry::<tool::java_read_javadoc::JavaReadJavadoc>,
    entry::<tool::java_find_symbol::JavaFindSymbol>,
    entry::<tool::find_type::FindType>,
    entry::<tool::find_resource::FindResource>,
    entry::<tool::find_references::FindReferences>,
    entry::<tool::analyze_type_dependencies::AnalyzeTypeDependencies>,
    entry::<tool::show_definition::ShowDefinition>,
    entry::<tool::get_problems::GetProblems>,
];

/// MCP's four behaviour hints, set explicitly on every tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Annotations {
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
    pub open_world: bool,
}

/// A tool that only reads the workspace.
pub const READ_ONLY: Annotations =
    Annotations { read_only: true, destructive: false, idempotent: true, open_world: false };

/// One tool: declared once, called by every shell.
pub trait Tool {
    /// The snake_case name clients call.
    const NAME: &'static str;
    /// A short human title.
    const TITLE: &'static str;
    /// When to use the tool, for the model.
    const DESCRIPTION: &'static str;
    const ANNOTATIONS: Annotations = READ_ONLY;
    /// Whether a call waits (up to the configured time) for the first indexing pass.
    const NEEDS_INDEX: bool = false;

    type Args: DeserializeOwned + JsonSchema;
    type Output: Serialize + JsonSchema;

    /// The domain call: typed arguments in, typed result out.
    fn call(ws: &Workspace, args: Self::Args) -> Result<Self::Output, ToolError>;

    /// The text a model reads; `None` sends the structured value serialized as JSON.
    fn render(_output: &Self::Output) -> Option<String> {
        None
    }

    /// The whole answer. Tools with a faster path (a cached serialization) override it.
    fn answer(ws: &Workspace, args: Self::Args) -> Result<Answer, String> {
        let output = Self::call(ws, args).map_err(|e| e.to_string())?;
        let text = Self::render(&output);
        let value = serde_json::to_value(&output).map_err(internal_serialize)?;
        Ok(Answer { value, text, meta: None })
    }
}

/// A tool's answer: the structured value, its text (the value as JSON when `None`), and
/// `_meta` for the client.
#[derive(Debug, Clone)]
pub struct Answer {
    pub value: Value,
    pub text: Option<String>,
    pub meta: Option<Map<String, Value>>,
}

impl Answer {
    /// The text content: the rendering, or the structured value as JSON.
    pub fn text(&self) -> String {
        self.text.clone().unwrap_or_else(|| self.value.to_string())
    }
}

/// A registered tool with its type erased: metadata plus a call on JSON arguments.
pub struct Entry {
    pub spec: ToolSpec,
    pub needs_index: bool,
    call: fn(&Workspace, Map<String, Value>) -> Result<Answer, String>,
}

impl Entry {
    /// Calls the tool on JSON arguments; the error is the tool-error text.
    pub fn call(&self, ws: &Workspace, args: Map<String, Value>) -> Result<Answer, String> {
        (self.call)(ws, args)
    }
}

fn entry<T: Tool>() -> Entry {
    let a = T::ANNOTATIONS;
    Entry {
        spec: ToolSpec {
            name: T::NAME,
            title: T::TITLE,
            description: T::DESCRIPTION,
            input_schema: schema_of::<T::Args>(),
            output_schema: output_schema_of::<T::Output>(),
            read_only: a.read_only,
            destructive: a.destructive,
            idempotent: a.idempotent,
            open_world: a.open_world,
        },
        needs_index: T::NEEDS_INDEX,
        call: call_erased::<T>,
    }
}

fn call_erased<T: Tool>(ws: &Workspace, args: Map<String, Value>) -> Result<Answer, String> {
    let args: T::Args = serde_json::from_value(Value::Object(args))
        .map_err(|e| format!("invalid arguments for {}: {e}; see the tool's inputSchema", T::NAME))?;
    let answer = T::answer(ws, args);
    // Work stopped by a cancellation is partial: never pass it off as an answer.
    if Cancel::current().is_cancelled() {
        return Err(format!("cancelled: {} stopped before it finished", T::NAME));
    }
    answer
}

/// The message for a result that could not be serialized (a bug, never the caller's fault).
pub fn internal_serialize(e: serde_json::Error) -> String {
    format!("internal error: serializing the result: {e}")
}

/// Every registered tool, built once (schemas are generated on first use).
pub fn registry() -> &'static [Entry] {
    static REGISTRY: OnceLock<Vec<Entry>> = OnceLock::new();
    REGISTRY.get_or_init(|| TOOLS.iter().map(|make| make()).collect())
}

/// The registered tool of that name.
pub fn find(name: &str) -> Option<&'static Entry> {
    registry().iter().find(|e| e.spec.name == name)
}

/// Calls a tool by name with JSON arguments; the error is the tool-error text.
pub fn dispatch(ws: &Workspace, name: &str, args: Map<String, Value>) -> Result<Answer, String> {
    match find(name) {
        Some(e) => e.call(ws, args),
        None => Err(format!("unknown tool {name}")),
    }
}
