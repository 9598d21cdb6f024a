//! `call_hierarchy`: who calls a method or constructor (or whom it calls), a few levels deep,
//! from the reference index (the tree is built by [`mji_xref::calls`]).

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::ToolError;
use crate::host::Host;
use crate::page::Page;
use crate::registry::{Start, Tool};
use crate::xref;
use mji_xref::calls::{self, Direction, Query};
use mji_xref::{Category, WITHIN_CLASS, WITHIN_LAMBDA};

pub(crate) struct CallHierarchy;

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn one() -> u32 {
    1
}

fn default_limit() -> u32 {
    50
}

// The most nodes one answer builds; a level past it is not built (`stoppedAtDepth`).
const MAX_NODES: usize = 2000;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CallDirection {
    #[default]
    Incoming,
    Outgoing,
}

/// Arguments of `call_hierarchy`: the target as `find_references` takes it.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CallHierarchyArgs {
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
    pub direction: CallDirection,
    #[serde(default = "one")]
    pub depth: u32,
    #[serde(default)]
    pub include_overriders: bool,
    #[serde(default = "default_limit")]
    pub limit: u32,
    #[serde(default)]
    pub offset: u32,
}

/// One call site.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CallSite {
    pub line: u32,
    pub column: u32,
    // call (this(…) and super(…) included), new, method-ref: find_references' words.
    pub kind: String,
    // "lambda", "class" (anonymous or local class), "lambda in class".
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub within: String,
    // The overrider of the callee the call binds to (includeOverriders).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overrider: Option<String>,
    // javac binds the call to the override its anonymous or local class declares (no key).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub via_override: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub likely: bool,
}

/// A caller (incoming) or callee (outgoing).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CallNode {
    pub member: String,
    // method, constructor, static-init, init.
    pub kind: String,
    // Where the member is declared (none: a library's).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub file: String,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub line: u32,
    // Incoming: sites in this member's file; outgoing: in the parent's.
    pub sites: Vec<CallSite>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub more_sites: u32,
    // Already on the path from the target: not expanded again.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cycle: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<CallNode>,
}

/// The answer of `call_hierarchy`.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CallHierarchyResult {
    pub target: String,
    // As asked: the text says it, the structured answer leaves it to the call.
    #[serde(skip)]
    #[schemars(skip)]
    pub direction: CallDirection,
    // First-level nodes in all (every page).
    #[serde(flatten)]
    pub page: Page,
    pub calls: Vec<CallNode>,
    // The first level left out (node cap or answer budget); ask it from a node below.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped_at_depth: Option<u32>,
    // Files that could not be bound fully, and why (a target outside the workspace has no
    // callees to list).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub incomplete: Vec<String>,
    // The languages searched when not Java alone (as find_references says them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub languages: Vec<String>,
}

impl Tool for CallHierarchy {
    const NAME: &'static str = "call_hierarchy";
    const TITLE: &'static str = "Call hierarchy";
    const DESCRIPTION: &'static str = "Callers or callees of a method or constructor as a tree (depth 1-5) with call sites; target as find_references.";
    const WAITS_FOR_INDEX: bool = true;
    const START: Start = Start::World { references: true };

    type Args = CallHierarchyArgs;
    type Output = CallHierarchyResult;

    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError> {
        run(ws, &args)
    }

    fn render(output: &Self::Output) -> Option<String> {
        Some(render(output))
    }

    fn page_len(output: &Self::Output) -> Option<usize> {
        Some(levels(&output.calls).iter().sum())
    }

    fn cut(output: &mut Self::Output, args: &Self::Args, n: usize) {
        cut(output, args, n);
    }
}

/// The nodes at each depth, from the first level down.
fn levels(roots: &[CallNode]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut level: Vec<&CallNode> = roots.iter().collect();
    while !level.is_empty() {
        out.push(level.len());
        level = level.iter().flat_map(|n| n.calls.iter()).collect();
    }
    out
}

fn prune(nodes: &mut [CallNode], keep: usize) {
    for n in nodes {
        if keep <= 1 {
            n.calls.clear();
        } else {
            prune(&mut n.calls, keep - 1);
        }
    }
}

/// Keeps the first `n` nodes breadth-first: whole levels while they fit, else the first `n`
/// nodes of the first level.
fn cut(output: &mut CallHierarchyResult, args: &CallHierarchyArgs, n: usize) {
    let sizes = levels(&output.calls);
    let mut kept = 0;
    let mut depth = 0;
    for s in &sizes {
        if kept + s > n {
            break;
        }
        kept += s;
        depth += 1;
    }
    if depth == 0 {
        output.calls.truncate(n.max(1));
        prune(&mut output.calls, 1);
        output.page.kept(u64::from(args.offset), output.calls.len());
        depth = 1;
    } else {
        prune(&mut output.calls, depth);
    }
    if depth < sizes.len() {
        let at = depth as u32 + 1;
        output.stopped_at_depth = Some(output.stopped_at_depth.map_or(at, |s| s.min(at)));
    }
}

fn within(bits: u8) -> String {
    match (bits & WITHIN_LAMBDA != 0, bits & WITHIN_CLASS != 0) {
        (true, true) => "lambda in class".into(),
        (true, false) => "lambda".into(),
        (false, true) => "class".into(),
        (false, false) => String::new(),
    }
}

fn node_out(ws: &Host, n: &calls::Node) -> CallNode {
    CallNode {
        member: n.member.key.clone(),
        kind: n.member.kind.as_str().into(),
        file: n.decl.as_ref().map(|(p, _)| ws.display_of(p)).unwrap_or_default(),
        line: n.decl.as_ref().map_or(0, |(_, l)| *l),
        sites: n
            .sites
            .iter()
            .map(|s| CallSite {
                line: s.line,
                column: s.column,
                kind: xref::kind_str(s.kind),
                within: within(s.within),
                overrider: s.via.clone(),
                via_override: s.via_override,
                likely: s.confidence == mji_xref::Confidence::Likely,
            })
            .collect(),
        more_sites: (n.site_count - n.sites.len()) as u32,
        cycle: n.cycle,
        calls: n.children.iter().map(|c| node_out(ws, c)).collect(),
    }
}

/// `call_hierarchy`.
pub fn run(ws: &Host, args: &CallHierarchyArgs) -> Result<CallHierarchyResult, ToolError> {
    if !(1..=calls::MAX_DEPTH).contains(&args.depth) {
        return Err(ToolError::InvalidArgument(format!("depth must be 1 to {}", calls::MAX_DEPTH)));
    }
    let (w, files) = ws.xref_world();
    let scope = xref::select_files(&files, &[]);
    let target = crate::targets::target_of(
        ws,
        &w,
        &crate::targets::TargetSpec {
            target: &args.target,
            kind: None,
            symbol_id: &args.symbol_id,
            file_path: &args.file_path,
            line: args.line,
            column: args.column,
        },
    )?;
    if !matches!(target.category, Category::Method | Category::Ctor) {
        // A type nothing declares was guessed from its spelling: say so, not "is a type".
        if target.undeclared {
            return Err(ToolError::NoSuchSymbol(format!(
                "no declaration of {} is known (not in the workspace, its indexed libraries or the JDK); \
                 call_hierarchy takes a method or constructor: Type#method, e.g. java.util.HashMap#get or HashMap.get",
                target.label
            )));
        }
        return Err(ToolError::InvalidArgument(format!(
            "{} is a {}: call_hierarchy takes a method or constructor (find_references lists every use)",
            target.label,
            xref::kind_name(target.category)
        )));
    }
    let q = Query {
        direction: match args.direction {
            CallDirection::Incoming => Direction::Incoming,
            CallDirection::Outgoing => Direction::Outgoing,
        },
        depth: args.depth,
        include_overriders: args.include_overriders,
        offset: args.offset as usize,
        limit: args.limit.clamp(1, xref::MAX_LIMIT) as usize,
        max_nodes: MAX_NODES,
    };
    let h = calls::call_hierarchy(ws.xref(), &w, &scope, &target, &q);
    if target.undeclared && h.total == 0 {
        return Err(ToolError::NoSuchSymbol(xref::undeclared_message(&w, &target)));
    }
    let mut incomplete = ws.incomplete(h.unbound);
    incomplete.truncate(xref::MAX_INCOMPLETE);
    if q.direction == Direction::Outgoing && h.total == 0 && target.decls.is_empty() {
        incomplete.push(format!("{} is not declared in the workspace: its calls are not known", target.label));
    }
    Ok(CallHierarchyResult {
        target: target.label,
        direction: args.direction,
        page: Page::of(q.offset as u64, h.roots.len(), h.total),
        calls: h.roots.iter().map(|n| node_out(ws, n)).collect(),
        stopped_at_depth: h.stopped_at,
        incomplete,
        languages: super::find_references::languages(ws),
    })
}

/// The compact indented tree.
pub fn render(r: &CallHierarchyResult) -> String {
    let (what, arrow) = match r.direction {
        CallDirection::Incoming => ("callers", "<-"),
        CallDirection::Outgoing => ("callees", "->"),
    };
    let searched = if r.languages.is_empty() { "" } else { " (Java and Kotlin searched)" };
    let mut s = format!("{what} of {}: {}{searched}\n", r.target, r.page.total);
    fn node(s: &mut String, n: &CallNode, indent: usize, arrow: &str) {
        let _ = write!(s, "{:indent$}{arrow} {}", "", n.member, indent = indent * 2);
        if n.kind != "method" {
            let _ = write!(s, " [{}]", n.kind);
        }
        if !n.file.is_empty() {
            let _ = write!(s, " {}", n.file);
            if n.line > 0 {
                let _ = write!(s, ":{}", n.line);
            }
        }
        if n.cycle {
            s.push_str(" (recursive, not expanded)");
        }
        let sites: Vec<String> = n
            .sites
            .iter()
            .map(|c| {
                let mut t = format!("{}:{}", c.line, c.column);
                if c.kind != "call" {
                    let _ = write!(t, " {}", c.kind);
                }
                if !c.within.is_empty() {
                    let _ = write!(t, " in {}", c.within);
                }
                if let Some(o) = &c.overrider {
                    let _ = write!(t, " via {o}");
                }
                if c.via_override {
                    t.push_str(" via its class's override");
                }
                if c.likely {
                    t.push_str(" likely");
                }
                t
            })
            .collect();
        if !sites.is_empty() {
            let _ = write!(s, " @ {}", sites.join(", "));
        }
        if n.more_sites > 0 {
            let _ = write!(s, " (+{} more)", n.more_sites);
        }
        s.push('\n');
        for c in &n.calls {
            node(s, c, indent + 1, arrow);
        }
    }
    for n in &r.calls {
        node(&mut s, n, 0, arrow);
    }
    if let Some(d) = r.stopped_at_depth {
        let _ = writeln!(s, "stopped before depth {d}: ask again from a node above for the levels below");
    }
    if let Some(o) = r.page.next_offset {
        let _ = writeln!(s, "truncated: next offset {o}");
    }
    for i in &r.incomplete {
        let _ = writeln!(s, "incomplete: {i}");
    }
    s
}
