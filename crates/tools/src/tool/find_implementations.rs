//! `find_implementations`: every type extending or implementing a type, transitively, or
//! every method overriding or implementing a method (`mji_xref::hierarchy`), paged.

use serde::{Deserialize, Serialize};

use crate::ToolError;
use crate::host::Host;
use crate::page::Page;
use crate::registry::{Start, Tool};
use crate::targets::{TargetSpec, target_of};
use crate::tool::type_hierarchy::{HierarchyEntry, type_of_target};
use crate::xref::{self, MAX_LIMIT};
use mji_xref::world::Origin;
use mji_xref::{Category, Confidence, hierarchy};

pub(crate) struct FindImplementations;

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn default_limit() -> u32 {
    200
}

/// Arguments of `find_implementations`.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FindImplementationsArgs {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub target: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub symbol_id: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub file_path: String,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub line: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub column: u32,
    // A type's: the JDK's subtypes of a JDK type too.
    #[serde(default)]
    pub include_libraries: bool,
    #[serde(default)]
    pub offset: u32,
    #[serde(default = "default_limit")]
    pub limit: u32,
}

impl Default for FindImplementationsArgs {
    fn default() -> Self {
        FindImplementationsArgs {
            target: String::new(),
            symbol_id: String::new(),
            file_path: String::new(),
            line: 0,
            column: 0,
            include_libraries: false,
            offset: 0,
            limit: default_limit(),
        }
    }
}

/// One implementation.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImplementationOut {
    // A type's kind (anonymous, enum-constant for keyless classes); a method's owner's kind.
    pub kind: String,
    // A type's qualified name; a method's key (a keyless class's: the keys it overrides).
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_line: Option<u32>,
    // Only when not the workspace's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<Origin>,
    pub confidence: Confidence,
}

/// The answer of `find_implementations`.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FindImplementationsResult {
    pub target: String,
    /// type or method.
    pub target_kind: String,
    #[serde(flatten)]
    pub page: Page,
    pub implementations: Vec<ImplementationOut>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub incomplete: Vec<String>,
    // The languages searched when not Java alone (as find_references says them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub languages: Vec<String>,
}

impl Tool for FindImplementations {
    const NAME: &'static str = "find_implementations";
    const TITLE: &'static str = "Find implementations";
    const DESCRIPTION: &'static str = "Types implementing or extending a type (transitively), or methods overriding a method, anonymous ones included. Give `target`, `symbolId` or `filePath`+`line`.";
    const WAITS_FOR_INDEX: bool = true;
    const START: Start = Start::World { references: true };

    type Args = FindImplementationsArgs;
    type Output = FindImplementationsResult;

    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError> {
        run(ws, &args)
    }

    fn render(output: &Self::Output) -> Option<String> {
        Some(render(output))
    }

    fn page_len(output: &Self::Output) -> Option<usize> {
        Some(output.implementations.len())
    }

    fn cut(output: &mut Self::Output, args: &Self::Args, n: usize) {
        output.page.keep_first(&mut output.implementations, u64::from(args.offset), n);
    }
}

/// `find_implementations`.
pub fn run(ws: &Host, args: &FindImplementationsArgs) -> Result<FindImplementationsResult, ToolError> {
    let (w, files) = ws.xref_world();
    let target = target_of(
        ws,
        &w,
        &TargetSpec {
            target: &args.target,
            kind: None,
            symbol_id: &args.symbol_id,
            file_path: &args.file_path,
            line: args.line,
            column: args.column,
        },
    )?;
    let scope = xref::select_files(&files, &[]);
    let (all, unbound, target_kind) = match target.category {
        Category::Type => {
            let id = type_of_target(&w, &target)?;
            let fqn = w.decl(id).fqn.to_string();
            let (nodes, unbound) = hierarchy::all_subtypes(ws.xref(), &w, &scope, &fqn, args.include_libraries);
            let out: Vec<ImplementationOut> = nodes
                .iter()
                .map(|n| {
                    let e = HierarchyEntry::of(ws, &n.ty, n.depth, "sub");
                    ImplementationOut {
                        kind: e.kind,
                        name: e.fqn,
                        file: e.file,
                        line: e.start_line,
                        end_line: e.end_line,
                        origin: (e.origin != Origin::Workspace).then_some(e.origin),
                        confidence: n.ty.confidence,
                    }
                })
                .collect();
            (out, unbound, "type")
        }
        Category::Method => {
            let (found, unbound) = hierarchy::method_implementations(ws.xref(), &w, &scope, &target);
            let out: Vec<ImplementationOut> = found
                .into_iter()
                .map(|m| ImplementationOut {
                    kind: m.owner_kind.into(),
                    name: m.key,
                    file: m.path.as_ref().map(|p| ws.display_of(p)),
                    line: (m.line > 0).then_some(m.line),
                    end_line: None,
                    origin: None,
                    confidence: m.confidence,
                })
                .collect();
            (out, unbound, "method")
        }
        Category::Ctor | Category::Field => {
            return Err(ToolError::InvalidArgument(format!(
                "{} is a {}: find_implementations takes a type or a method",
                target.label,
                xref::kind_name(target.category)
            )));
        }
    };
    let total = all.len();
    let limit = args.limit.clamp(1, MAX_LIMIT) as usize;
    let offset = args.offset as usize;
    let implementations: Vec<ImplementationOut> = all.into_iter().skip(offset).take(limit).collect();
    let mut incomplete = ws.incomplete(unbound);
    incomplete.truncate(xref::MAX_INCOMPLETE);
    Ok(FindImplementationsResult {
        target: target.label,
        target_kind: target_kind.into(),
        page: Page::of(offset as u64, implementations.len(), total),
        implementations,
        incomplete,
        languages: super::find_references::languages(ws),
    })
}

/// One line per implementation.
fn render(r: &FindImplementationsResult) -> String {
    let searched = if r.languages.is_empty() { "" } else { " (Java and Kotlin searched)" };
    let mut out = format!("{} {}: {} implementation(s){searched}\n", r.target_kind, r.target, r.page.total);
    for i in &r.implementations {
        let at = match (&i.file, i.line, i.end_line) {
            (Some(f), Some(a), Some(b)) if a != b => format!("{f}:{a}-{b}"),
            (Some(f), Some(a), _) => format!("{f}:{a}"),
            (Some(f), None, _) => f.clone(),
            (None, ..) => format!("({})", i.origin.map_or("library", |o| if o == Origin::Jdk { "jdk" } else { "library" })),
        };
        let likely = if i.confidence == Confidence::Likely { "  (likely)" } else { "" };
        out.push_str(&format!("  {} {}  {at}{likely}\n", i.kind, i.name));
    }
    if r.page.truncated {
        out.push_str(&format!(
            "{} of {} shown; next offset {}\n",
            r.implementations.len(),
            r.page.total,
            r.page.next_offset.unwrap_or_default()
        ));
    }
    for i in &r.incomplete {
        out.push_str(&format!("incomplete: {i}\n"));
    }
    out
}
