//! `java_index`: the outline of one Java file. Default options answer with the cached JSON
//! as it is (no re-serialization); `_meta` says whether the cache hit.

use serde_json::{Map, Value};

use crate::ToolError;
use crate::java_index::{IndexOutput, render_outline, shape};
use crate::registry::{Answer, Budget, Tool, fit};
use crate::workspace::{JavaIndexArgs, Workspace};

pub(crate) struct JavaIndex;

impl Tool for JavaIndex {
    const NAME: &'static str = "java_index";
    const TITLE: &'static str = "Outline a Java file";
    const DESCRIPTION: &'static str = "Outline of a .java file: types and members with lines, signatures and javadoc lines. Use it instead of reading the file, then java_read_range what you need.";

    type Args = JavaIndexArgs;
    type Output = IndexOutput;

    fn call(ws: &Workspace, args: Self::Args) -> Result<Self::Output, ToolError> {
        Ok(shape(ws.java_index(&args)?.outline, &args.options))
    }

    fn render(output: &Self::Output) -> Option<String> {
        Some(render_outline(output))
    }

    fn page_len(output: &Self::Output) -> Option<usize> {
        Some(output.page_len())
    }

    fn cut(output: &mut Self::Output, _args: &Self::Args, n: usize) {
        output.keep(n);
    }

    fn cut_copy(output: &Self::Output, _args: &Self::Args, n: usize) -> Self::Output {
        output.kept(n)
    }

    fn answer(ws: &Workspace, a: Self::Args, budget: Budget) -> Result<Answer, String> {
        // Fault injection for the test that proves a panic never reaches the client.
        if std::env::var_os("MCP_JAVA_INDEX_INJECT_PANIC").is_some_and(|v| *v == *a.file_path) {
            panic!("injected panic for {}", a.file_path);
        }
        let answer = ws.java_index(&a).map_err(|e| e.to_string())?;
        tracing::info!(file = %answer.outline.file_path, cache = ?answer.outcome, ms = answer.elapsed_ms, "java_index");
        let c = ws.counters();
        let meta: Option<Map<String, Value>> = serde_json::json!({
            "cache": answer.outcome,
            "elapsedMs": (answer.elapsed_ms * 1000.0).round() / 1000.0,
            "cacheHits": c.hits,
            "cacheMisses": c.misses,
        })
        .as_object()
        .cloned();
        let mut fitted = fit::<Self>(shape(answer.outline, &a.options), &a, budget)?;
        fitted.meta = meta;
        Ok(fitted)
    }
}
