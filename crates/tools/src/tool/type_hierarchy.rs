//! `type_hierarchy`: a type's supertypes and subtypes as a tree (`mji_xref::hierarchy`), paged,
//! rendered as an indented tree.

use serde::{Deserialize, Serialize};

use crate::ToolError;
use crate::host::Host;
use crate::page::Page;
use crate::registry::{Start, Tool};
use crate::targets::{TargetSpec, target_of};
use crate::xref::{self, MAX_LIMIT};
use mji_xref::hierarchy::{self, Direction, HierarchyType, Options};
use mji_xref::world::{Origin, World};
use mji_xref::{Category, Confidence};

pub(crate) struct TypeHierarchy;

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn one() -> u32 {
    1
}

fn default_limit() -> u32 {
    200
}

/// Arguments of `type_hierarchy`.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TypeHierarchyArgs {
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
    #[serde(default)]
    pub direction: HierarchyDirection,
    /// Levels; 0: all.
    #[serde(default = "one")]
    pub depth: u32,
    // Expands JDK/library supertypes (and lists Object), lists the JDK's subtypes of a JDK type.
    #[serde(default)]
    pub include_libraries: bool,
    #[serde(default)]
    pub offset: u32,
    #[serde(default = "default_limit")]
    pub limit: u32,
}

impl Default for TypeHierarchyArgs {
    fn default() -> Self {
        TypeHierarchyArgs {
            target: String::new(),
            symbol_id: String::new(),
            file_path: String::new(),
            line: 0,
            column: 0,
            direction: HierarchyDirection::Both,
            depth: 1,
            include_libraries: false,
            offset: 0,
            limit: default_limit(),
        }
    }
}

// Which trees: the supertypes, the subtypes, or both (the default).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum HierarchyDirection {
    Supertypes,
    Subtypes,
    #[default]
    Both,
}

/// One type of the tree.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HierarchyEntry {
    // 1: a direct super- or subtype of the root (0: the root).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub depth: u32,
    // `super` or `sub` (empty for the root).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub direction: String,
    // class, interface, enum, record, annotation, anonymous (an anonymous class: `fqn` is its
    // supertype), enum-constant (a constant with a body).
    pub kind: String,
    pub fqn: String,
    pub origin: Origin,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_line: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_line: Option<u32>,
    // Set when a supertype's declaration is unknown (its name as written).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub likely: bool,
}

impl HierarchyEntry {
    pub(crate) fn of(ws: &Host, t: &HierarchyType, depth: u32, direction: &str) -> HierarchyEntry {
        HierarchyEntry {
            depth,
            direction: direction.into(),
            kind: t.kind.into(),
            fqn: t.fqn.clone(),
            origin: t.origin,
            file: t.path.as_ref().map(|p| ws.display_of(p)),
            start_line: (t.start_line > 0).then_some(t.start_line),
            end_line: (t.end_line > 0).then_some(t.end_line),
            likely: t.confidence == Confidence::Likely,
        }
    }

    /// `kind fqn  file:start-end` (or `(origin)`), one line.
    pub(crate) fn line(&self) -> String {
        let at = match (&self.file, self.start_line, self.end_line) {
            (Some(f), Some(a), Some(b)) if a != b => format!("{f}:{a}-{b}"),
            (Some(f), Some(a), _) => format!("{f}:{a}"),
            (Some(f), None, _) => f.clone(),
            (None, ..) => format!("({})", origin_name(self.origin)),
        };
        format!("{} {}  {at}{}", self.kind, self.fqn, if self.likely { "  (likely)" } else { "" })
    }
}

fn origin_name(o: Origin) -> &'static str {
    match o {
        Origin::Workspace => "workspace",
        Origin::Jdk => "jdk",
        Origin::Library => "library",
        Origin::Unresolved => "unresolved",
    }
}

/// The answer of `type_hierarchy`.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TypeHierarchyResult {
    pub root: HierarchyEntry,
    /// Entries in all (every page).
    #[serde(flatten)]
    pub page: Page,
    /// The trees in pre-order: supertypes, then subtypes.
    pub types: Vec<HierarchyEntry>,
    /// Files that could not be bound fully: anonymous classes there may be missing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub incomplete: Vec<String>,
    // The languages searched when not Java alone (as find_references says them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub languages: Vec<String>,
}

impl Tool for TypeHierarchy {
    const NAME: &'static str = "type_hierarchy";
    const TITLE: &'static str = "Type hierarchy";
    const DESCRIPTION: &'static str = "Super- and subtypes of a type as a tree, lambdas and anonymous classes included. Give `target`, `symbolId` or `filePath`+`line`.";
    const WAITS_FOR_INDEX: bool = true;
    const START: Start = Start::World { references: true };

    type Args = TypeHierarchyArgs;
    type Output = TypeHierarchyResult;

    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError> {
        run(ws, &args)
    }

    fn render(output: &Self::Output) -> Option<String> {
        Some(render(output))
    }

    fn page_len(output: &Self::Output) -> Option<usize> {
        Some(output.types.len())
    }

    fn cut(output: &mut Self::Output, args: &Self::Args, n: usize) {
        output.page.keep_first(&mut output.types, u64::from(args.offset), n);
    }
}

/// The type a target names: a type target itself, a member's declaring type.
pub(crate) fn type_of_target(w: &World, t: &xref::Target) -> Result<mji_xref::world::TypeId, ToolError> {
    let key = t.keys.first().map(String::as_str).unwrap_or_default();
    let fqn = match t.category {
        Category::Type => key,
        _ => key.split('#').next().unwrap_or(key),
    };
    w.by_fqn(fqn).ok_or_else(|| {
        ToolError::NoSuchSymbol(format!("no declaration of {fqn} is known (not in the workspace, its libraries or the JDK)"))
    })
}

/// `type_hierarchy`.
pub fn run(ws: &Host, args: &TypeHierarchyArgs) -> Result<TypeHierarchyResult, ToolError> {
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
    let id = type_of_target(&w, &target)?;
    let opts = Options { depth: args.depth, include_libraries: args.include_libraries };
    let mut nodes = Vec::new();
    if args.direction != HierarchyDirection::Subtypes {
        nodes.extend(hierarchy::supertypes(&w, id, opts));
    }
    let mut incomplete = Vec::new();
    if args.direction != HierarchyDirection::Supertypes {
        let scope = xref::select_files(&files, &[]);
        let fqn = w.decl(id).fqn.to_string();
        let (subs, unbound) = hierarchy::subtypes(ws.xref(), &w, &scope, &fqn, opts);
        nodes.extend(subs);
        incomplete = ws.incomplete(unbound);
        incomplete.truncate(xref::MAX_INCOMPLETE);
    }
    let total = nodes.len();
    let limit = args.limit.clamp(1, MAX_LIMIT) as usize;
    let offset = args.offset as usize;
    let types: Vec<HierarchyEntry> = nodes
        .iter()
        .skip(offset)
        .take(limit)
        .map(|n| {
            let dir = match n.direction {
                Direction::Supertypes => "super",
                Direction::Subtypes => "sub",
            };
            HierarchyEntry::of(ws, &n.ty, n.depth, dir)
        })
        .collect();
    Ok(TypeHierarchyResult {
        root: HierarchyEntry::of(ws, &hierarchy::describe(&w, id), 0, ""),
        page: Page::of(offset as u64, types.len(), total),
        types,
        incomplete,
        languages: super::find_references::languages(ws),
    })
}

/// The compact indented tree.
fn render(r: &TypeHierarchyResult) -> String {
    let mut out = r.root.line();
    if !r.languages.is_empty() {
        out.push_str(" (Java and Kotlin searched)");
    }
    out.push('\n');
    let mut section = "";
    for e in &r.types {
        if e.direction != section {
            section = if e.direction == "super" { "super" } else { "sub" };
            out.push_str(if section == "super" { "supertypes:\n" } else { "subtypes:\n" });
        }
        for _ in 0..e.depth {
            out.push_str("  ");
        }
        out.push_str(&e.line());
        out.push('\n');
    }
    if r.types.is_empty() {
        out.push_str("(none)\n");
    }
    if r.page.truncated {
        out.push_str(&format!(
            "{} of {} shown; next offset {}\n",
            r.types.len(),
            r.page.total,
            r.page.next_offset.unwrap_or_default()
        ));
    }
    for i in &r.incomplete {
        out.push_str(&format!("incomplete: {i}\n"));
    }
    out
}
