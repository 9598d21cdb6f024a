//! `find_resource`: the IDE's Open Resource.

use crate::ToolError;
use crate::registry::Tool;
use crate::find;
use crate::host::Host;
use std::path::Path;
use crate::find::{default_max, page_size};
use serde::{Deserialize, Serialize};
use mji_index::live::LiveIndex;
use mji_index::matcher::Pattern;
use crate::lines::{count, index_line, paging};
use std::fmt::Write;

pub(crate) struct FindResource;

impl Tool for FindResource {
    const NAME: &'static str = "find_resource";
    const TITLE: &'static str = "Open resource";
    const DESCRIPTION: &'static str = "Find any workspace file (pom.xml, resources, .java) by name, prefix, camelCase, glob (`*.properties`) or path glob (`src/main/resources/*.xml`).";
    const WAITS_FOR_INDEX: bool = true;
    const ALIASES: &'static [(&'static str, &'static str)] = &[("pattern", "query"), ("maxResults", "limit")];

    type Args = FindResourceArgs;
    type Output = FindResourceResult;

    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError> {
        run(ws, &args)
    }

    fn render(output: &Self::Output) -> Option<String> {
        Some(render(output))
    }

    fn page_len(output: &Self::Output) -> Option<usize> {
        Some(output.results.len())
    }

    fn cut(output: &mut Self::Output, args: &Self::Args, n: usize) {
        output.keep_first(n, args.offset);
    }
}

/// `find_resource`.
pub fn run(ws: &Host, args: &FindResourceArgs) -> Result<FindResourceResult, ToolError> {
    let under = ws.chosen_root(&args.root)?;
    ws.wait_index();
    let mut r = find_resource(ws.index(), under, args)?;
    r.index = find::IndexStatus::shown(r.index, args.include_index);
    Ok(r)
}

/// Arguments of `find_resource`.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FindResourceArgs {
    #[serde(rename = "query")]
    pub pattern: String,
    #[serde(rename = "limit", default = "default_max")]
    pub max_results: u32,
    #[serde(default)]
    pub offset: u32,
    /// Root name or path.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub root: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub include_index: bool,
}

/// One `find_resource` result.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResourceResult {
    pub file_path: String,
    pub size: u64,
    /// Last modification, RFC 3339 UTC.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modified: Option<String>,
}

crate::find::search_answer! {
    /// The answer of `find_resource`.
    pub struct FindResourceResult of ResourceResult {
        query: String,
    }
}

/// `find_resource` in the workspace, or only under `under` (a root).
pub fn find_resource(
    index: &LiveIndex,
    under: Option<&Path>,
    args: &FindResourceArgs,
) -> Result<FindResourceResult, ToolError> {
    let limit = page_size(args.max_results)?;
    let raw = args.pattern.trim().trim_start_matches("./");
    if raw.is_empty() {
        return Err(ToolError::InvalidArgument(
            "query is empty; give a file name, prefix, camelCase or glob such as *.xml".to_owned(),
        ));
    }
    let path_pattern = raw.contains('/');
    let pattern = Pattern::new(raw, false);
    let page = index.find_resources(&pattern, path_pattern, under, args.offset as usize, limit);
    let results: Vec<ResourceResult> = page
        .items
        .iter()
        .map(|(p, r, _)| ResourceResult {
            file_path: index.roots().display(p, r.root),
            size: r.size,
            modified: r.modified.map(crate::rfc3339),
        })
        .collect();
    Ok(FindResourceResult::page(args.pattern.clone(), results, args.offset, index, &page))
}

/// `find_resource`.
fn render(r: &FindResourceResult) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} `{}`{}",
        count(r.page.total, "file matches", "files match"),
        r.query,
        paging(r.results.len(), r.page.next_offset)
    );
    for f in &r.results {
        let _ = writeln!(out, "{}  {}", f.file_path, count(f.size, "byte", "bytes"));
    }
    index_line(&mut out, r.index.as_ref());
    out
}
