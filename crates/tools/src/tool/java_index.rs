//! `java_index`: the outline of one Java file. Default options answer with the cached JSON
//! as it is (no re-serialization); `_meta` says whether the cache hit.

use serde_json::{Map, Value};

use crate::ToolError;
use crate::java_index::{OutlineAnswer, render_outline, shape};
use crate::registry::{Answer, Budget, Tool, fit};
use crate::java_index::apply_options;
use crate::{io_error, require_java};
use mji_cache::Outcome;
use mji_model::OutlineOptions;
use crate::host::Host;
use crate::workspace::{CachedOutline, JavaIndexArgs};

pub(crate) struct JavaIndex;

impl Tool for JavaIndex {
    const NAME: &'static str = "java_index";
    const TITLE: &'static str = "Outline a Java file";
    const DESCRIPTION: &'static str = "Outline of a .java file: types and members with lines, signatures and javadoc lines. Use it instead of reading the file, then java_read_range what you need.";

    type Args = JavaIndexArgs;
    type Output = OutlineAnswer;

    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError> {
        Ok(shape(run(ws, &args)?.outline, &args.options))
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

    fn answer(ws: &Host, a: Self::Args, budget: Budget) -> Result<Answer, String> {
        // Fault injection for the test that proves a panic never reaches the client.
        if std::env::var_os("MCP_JAVA_INDEX_INJECT_PANIC").is_some_and(|v| *v == *a.file_path) {
            panic!("injected panic for {}", a.file_path);
        }
        let answer = run(ws, &a).map_err(|e| e.to_string())?;
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

/// `java_index`.
pub fn run(ws: &Host, args: &JavaIndexArgs) -> Result<CachedOutline, ToolError> {
    let t = std::time::Instant::now();
    let opts = OutlineOptions::from(&args.options);
    // A workspace type's name reads its file.
    let located = crate::locate::file_of(ws, &args.file_path)?;
    let args = &JavaIndexArgs { file_path: located.into_owned(), options: args.options.clone() };
    // A class name or a `jar:` path names a library type, unless the workspace has the file.
    if let Some(lib) = crate::libraries::target(&args.file_path)
        && (args.file_path.starts_with("jar:") || ws.resolve(&args.file_path).is_err())
    {
        let outline = crate::libraries::outline(ws, &lib)?;
        let src = (opts.max_javadoc_preview_chars > 0 && outline.line_count > 0)
            .then(|| match &lib {
                crate::libraries::LibraryTarget::Jar { archive, entry } => {
                    crate::libraries::source_bytes(ws, archive, entry).ok()
                }
                crate::libraries::LibraryTarget::Class(_) => None,
            })
            .flatten()
            .map(|(b, _)| mji_parser::SourceText::decode(&b));
        let outline = apply_options(outline, &opts, src.as_ref());
        return Ok(CachedOutline { outline, outcome: Outcome::Miss, elapsed_ms: t.elapsed().as_secs_f64() * 1e3 });
    }
    let r = ws.resolve(&args.file_path)?;
    ws.check_file(&r.path, &r.display)?;
    if crate::libraries::is_class_file(&r.path) {
        let outline = crate::libraries::class_file_outline(ws, &r.path, &r.display)?;
        let outline = apply_options(outline, &opts, None);
        return Ok(CachedOutline { outline, outcome: Outcome::Miss, elapsed_ms: t.elapsed().as_secs_f64() * 1e3 });
    }
    require_java(&r.path, &r.display)?;
    let cache = ws.cache(r.root);
    let io = |e: std::io::Error| io_error(&r.display, e);
    let (outline, outcome) = if opts.max_javadoc_preview_chars > 0 {
        let (cached, src) = cache.outline_with_source(&r.path, &r.display).map_err(io)?;
        (apply_options(cached.outline, &opts, Some(&src)), cached.outcome)
    } else {
        let cached = cache.outline(&r.path, &r.display).map_err(io)?;
        (apply_options(cached.outline, &opts, None), cached.outcome)
    };
    Ok(CachedOutline { outline, outcome, elapsed_ms: t.elapsed().as_secs_f64() * 1e3 })
}
