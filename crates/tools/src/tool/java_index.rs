//! `java_index`: the outline of one Java file. Default options answer with the cached JSON
//! as it is (no re-serialization); `_meta` says whether the cache hit.

use serde_json::{Map, Value};

use crate::ToolError;
use crate::java_index::IndexOptions;
use crate::registry::{Answer, Tool, internal_serialize};
use crate::workspace::{JavaIndexArgs, Workspace};
use mji_model::FileOutline;

pub struct JavaIndex;

impl Tool for JavaIndex {
    const NAME: &'static str = "java_index";
    const TITLE: &'static str = "Outline a Java file";
    const DESCRIPTION: &'static str = "Outline of one Java file: every class, interface, enum, record and annotation type with its fields, constructors, methods, enum constants, record components and nested types, each with exact 1-based startLine/endLine (annotations included, javadoc excluded), signatureText, modifiers, annotations, and javadoc location. Call this FIRST instead of reading a Java file: then read only what you need with java_read_javadoc or java_read_range. Local and anonymous classes are not listed. Answers come from a content-hash cache when the file is unchanged. Broken code still gives an outline plus `errors`. Example: {\"filePath\": \"src/main/java/com/foo/Bar.java\", \"options\": {\"includePrivate\": false, \"maxJavadocPreviewChars\": 120}}";

    type Args = JavaIndexArgs;
    type Output = FileOutline;

    fn call(ws: &Workspace, args: Self::Args) -> Result<Self::Output, ToolError> {
        Ok(ws.java_index(&args)?.outline)
    }

    fn answer(ws: &Workspace, a: Self::Args) -> Result<Answer, String> {
        // Fault injection for the test that proves a panic never reaches the client.
        if std::env::var_os("MCP_JAVA_INDEX_INJECT_PANIC").is_some_and(|v| *v == *a.file_path) {
            panic!("injected panic for {}", a.file_path);
        }
        let meta = |outcome: mji_cache::Outcome, ms: f64| -> Option<Map<String, Value>> {
            let c = ws.counters();
            serde_json::json!({
                "cache": outcome,
                "elapsedMs": (ms * 1000.0).round() / 1000.0,
                "cacheHits": c.hits,
                "cacheMisses": c.misses,
            })
            .as_object()
            .cloned()
        };
        if a.options == IndexOptions::default() {
            // The common case: the cached JSON is the answer.
            let (json, outcome, ms) = ws.java_index_json(&a.file_path).map_err(|e| e.to_string())?;
            tracing::info!(file = %a.file_path, cache = ?outcome, ms, "java_index");
            let value: Value =
                serde_json::from_str(&json).map_err(|e| format!("internal error: reading the cached outline: {e}"))?;
            return Ok(Answer { value, text: Some(json), meta: meta(outcome, ms) });
        }
        let answer = ws.java_index(&a).map_err(|e| e.to_string())?;
        tracing::info!(file = %answer.outline.file_path, cache = ?answer.outcome, ms = answer.elapsed_ms, "java_index");
        Ok(Answer {
            value: serde_json::to_value(&answer.outline).map_err(internal_serialize)?,
            text: None,
            meta: meta(answer.outcome, answer.elapsed_ms),
        })
    }
}
