//! `analyze_type_dependencies`: what a type depends on, with forbidden packages and cycles.

use crate::ToolError;
use crate::registry::{Start, Tool};
use crate::require_java;
use crate::xref;
use crate::host::Host;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use mji_index::matcher::wildcard_match;
use mji_xref::deps::{nested_type_references, type_dependencies};
use mji_xref::world::{Origin, TypeId, World};
use mji_xref::Ref;
use crate::xref::MAX_LIMIT;
use serde::{Deserialize, Serialize};
use crate::lines::{count, origin_word};
use std::fmt::Write;

pub(crate) struct AnalyzeTypeDependencies;

impl Tool for AnalyzeTypeDependencies {
    const NAME: &'static str = "analyze_type_dependencies";
    const TITLE: &'static str = "Analyze type dependencies";
    const DESCRIPTION: &'static str = "What does this type depend on? The types it uses, by package and origin (workspace, jdk, library); `excludedPackages` flags forbidden uses; `transitive` follows workspace types and finds cycles.";
    const WAITS_FOR_INDEX: bool = true;
    const START: Start = Start::World { references: true };

    type Args = DependenciesArgs;
    type Output = DependenciesResult;

    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError> {
        run(ws, &args)
    }

    fn render(output: &Self::Output) -> Option<String> {
        Some(render(output))
    }

    // The items the answer budget may shorten: the dependencies, then the transitive types,
    // then the cycles.
    fn page_len(output: &Self::Output) -> Option<usize> {
        let t = output.transitive.as_ref().map_or(0, |t| t.types.len() + t.cycles.len());
        Some(output.dependencies.len() + t)
    }

    fn cut(output: &mut Self::Output, _args: &Self::Args, n: usize) {
        output.keep_first(n);
    }
}

/// `analyze_type_dependencies`.
pub fn run(ws: &Host, args: &DependenciesArgs) -> Result<DependenciesResult, ToolError> {
    let (w, _) = ws.xref_world();
    let nonempty = |s: &String| (!s.trim().is_empty()).then(|| s.clone());
    let roots: Vec<mji_xref::world::TypeId> = match (nonempty(&args.type_name), nonempty(&args.file_path)) {
        (Some(t), _) => {
            let target = xref::resolve_target(&w, &t)?;
            let id = w
                .workspace_type(&target.keys[0])
                .filter(|_| target.category == mji_xref::Category::Type)
                .ok_or_else(|| ToolError::NoSuchSymbol(format!("{t} is not a workspace type")))?;
            vec![id]
        }
        (None, Some(fp)) => {
            let r = ws.resolve(&fp)?;
            ws.check_file(&r.path, &r.display)?;
            require_java(&r.path, &r.display)?;
            let fi = mji_xref::engine::file_index(&w, &r.path);
            if fi == u32::MAX {
                return Err(ToolError::NotFound(format!(
                    "{} is not indexed (outside the roots or ignored)",
                    r.display
                )));
            }
            let n = w.files[fi as usize]
                .decls()
                .types
                .iter()
                .enumerate()
                .filter(|(_, t)| t.outer.is_none())
                .map(|(i, _)| i)
                .collect::<Vec<_>>();
            if n.is_empty() {
                return Err(ToolError::NotFound(format!("{} declares no type", r.display)));
            }
            n.into_iter().map(|i| w.type_in_file(fi, i as u32)).collect()
        }
        (None, None) => return Err(ToolError::InvalidArgument("give type (a qualified name) or filePath".into())),
    };
    analyze(&w, &roots, args, &|p| ws.display_of(p), &|p| ws.xref().refs_of(&w, p))
}

/// Arguments of `analyze_type_dependencies`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DependenciesArgs {
    /// Qualified (or unique simple) name; or give `filePath`.
    #[serde(default, rename = "type", skip_serializing_if = "String::is_empty")]
    pub type_name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub file_path: String,
    /// Forbidden packages (`java.sql`, `com.foo.internal.*`), reported in `violations`.
    #[serde(default)]
    pub excluded_packages: Vec<String>,
    #[serde(default)]
    pub transitive: bool,
    /// At most 10.
    #[serde(default = "default_depth")]
    pub max_depth: u32,
    #[serde(default = "default_dep_limit")]
    pub limit: u32,
    // Every use's line (at most 20 a dependency); no doc: tools/list is at its budget.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub include_uses: bool,
}

fn default_depth() -> u32 {
    3
}
fn default_dep_limit() -> u32 {
    200
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Dependency {
    pub fqn: String,
    pub package: String,
    /// workspace, jdk, library or unresolved.
    pub origin: Origin,
    /// References in the analysed type(s).
    pub count: u64,
    /// The line of the first reference.
    pub first_line: u32,
    /// `includeUses`: the lines of the first references (at most 20).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<u32>,
    /// Matches an `excludedPackages` pattern.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub violation: bool,
    /// One of the analysed type's own nested types (javac counts them as references; they are
    /// left out of the transitive closure).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub nested: bool,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PackageGroup {
    pub package: String,
    pub origin: Origin,
    pub types: u64,
    pub references: u64,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Violation {
    pub fqn: String,
    pub pattern: String,
    pub lines: Vec<u32>,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TransitiveType {
    pub fqn: String,
    pub depth: u32,
    /// The type that first led here.
    pub via: String,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Transitive {
    /// Workspace types reachable within maxDepth (the analysed ones excluded).
    pub types: Vec<TransitiveType>,
    /// Dependency cycles among the reached workspace types, each as a list of types.
    pub cycles: Vec<Vec<String>>,
    /// True when the depth limit stopped the walk before the closure was complete.
    pub depth_limited: bool,
    /// When `types` or `cycles` are not all there (`limit`, the answer budget): how many
    /// types and cycles the closure holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_types: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_cycles: Option<u64>,
}

impl Transitive {
    /// Keeps the first `types` types and `cycles` cycles, saying how many there are.
    fn keep(&mut self, types: usize, cycles: usize) {
        if self.types.len() > types {
            self.total_types.get_or_insert(self.types.len() as u64);
            self.types.truncate(types);
        }
        if self.cycles.len() > cycles {
            self.total_cycles.get_or_insert(self.cycles.len() as u64);
            self.cycles.truncate(cycles);
        }
    }
}

/// The answer of `analyze_type_dependencies`.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DependenciesResult {
    /// The analysed types.
    pub types: Vec<String>,
    pub file: String,
    /// Distinct types referenced, in all.
    #[serde(flatten)]
    pub page: crate::page::Page,
    pub dependencies: Vec<Dependency>,
    pub packages: Vec<PackageGroup>,
    pub violations: Vec<Violation>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transitive: Option<Transitive>,
}

impl DependenciesResult {
    /// The answer budget's cut: the first `n` of the dependencies, then of the transitive
    /// types, then of the cycles.
    fn keep_first(&mut self, n: usize) {
        let deps = self.dependencies.len();
        if n < deps {
            self.dependencies.truncate(n);
            self.page.truncated = true;
        }
        let left = n.saturating_sub(deps);
        if let Some(t) = &mut self.transitive {
            let types = left.min(t.types.len());
            t.keep(types, left - types);
        }
    }
}

fn package_of(w: &World, fqn: &str) -> String {
    if let Some(id) = w.workspace_type(fqn) {
        let f = w.file_of(id);
        return w.files[f as usize].decls().package.to_string();
    }
    // The package is the prefix before the first capitalised segment.
    let segs: Vec<&str> = fqn.split('.').collect();
    let i = segs
        .iter()
        .position(|s| s.chars().next().is_some_and(|c| c.is_uppercase()))
        .unwrap_or(segs.len().saturating_sub(1));
    segs[..i].join(".")
}

fn package_matches(pattern: &str, pkg: &str) -> bool {
    let p = pattern.trim();
    if p.contains('*') || p.contains('?') {
        return wildcard_match(p, pkg, true);
    }
    pkg == p || pkg.starts_with(&format!("{p}."))
}

/// `analyze_type_dependencies` over the world; `display` names files for the answer.
/// Every reference of a workspace file (kept by the engine, or bound now).
pub(crate) type RefsOf<'a> = dyn Fn(&Arc<Path>) -> std::io::Result<Vec<Ref>> + 'a;

pub(crate) fn analyze(
    w: &World,
    roots: &[TypeId],
    args: &DependenciesArgs,
    display: &dyn Fn(&Path) -> String,
    refs_of: &RefsOf,
) -> Result<DependenciesResult, ToolError> {
    let first = roots.first().ok_or_else(|| ToolError::NoSuchSymbol("no type to analyse".into()))?;
    let path = w.files[w.file_of(*first) as usize].path.clone();
    let refs = refs_of(&path).map_err(|e| ToolError::Io { path: display(&path), source: e })?;
    let mut deps: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    let mut nested: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    for id in roots {
        for (k, v) in type_dependencies(w, *id, &refs) {
            deps.entry(k).or_default().extend(v);
        }
        for (k, v) in nested_type_references(w, *id, &refs) {
            nested.entry(k).or_default().extend(v);
        }
    }
    let mut list: Vec<Dependency> = deps
        .iter()
        .map(|(fqn, lines)| (fqn, lines, false))
        .chain(nested.iter().map(|(fqn, lines)| (fqn, lines, true)))
        .map(|(fqn, lines, is_nested)| {
            let package = package_of(w, fqn);
            let violation = args.excluded_packages.iter().any(|p| package_matches(p, &package));
            let mut ls = lines.clone();
            ls.sort_unstable();
            ls.dedup();
            ls.truncate(20);
            Dependency {
                fqn: fqn.clone(),
                package,
                origin: w.origin(fqn),
                count: lines.len() as u64,
                first_line: ls.first().copied().unwrap_or(0),
                lines: ls,
                violation: violation && !is_nested,
                nested: is_nested,
            }
        })
        .collect();
    let mut packages: BTreeMap<String, PackageGroup> = BTreeMap::new();
    for d in &list {
        let g = packages.entry(d.package.clone()).or_insert(PackageGroup {
            package: d.package.clone(),
            origin: d.origin,
            types: 0,
            references: 0,
        });
        g.types += 1;
        g.references += d.count;
    }
    let violations: Vec<Violation> = list
        .iter()
        .filter(|d| d.violation)
        .map(|d| Violation {
            fqn: d.fqn.clone(),
            pattern: args
                .excluded_packages
                .iter()
                .find(|p| package_matches(p, &d.package))
                .cloned()
                .unwrap_or_default(),
            lines: d.lines.clone(),
        })
        .collect();
    if !args.include_uses {
        list.iter_mut().for_each(|d| d.lines = Vec::new());
    }
    let total = list.len();
    // Workspace first, then by count.
    list.sort_by(|a, b| {
        (a.origin as u8, std::cmp::Reverse(a.count), &a.fqn).cmp(&(b.origin as u8, std::cmp::Reverse(b.count), &b.fqn))
    });
    let limit = args.limit.clamp(1, MAX_LIMIT) as usize;
    list.truncate(limit);
    let transitive = args.transitive.then(|| {
        let mut t = closure(w, roots, &deps, args.max_depth.clamp(1, 10), refs_of);
        t.keep(limit, limit);
        t
    });
    Ok(DependenciesResult {
        types: roots.iter().map(|i| w.decl(*i).fqn.to_string()).collect(),
        file: display(&path),
        page: crate::page::Page::first(list.len(), total),
        dependencies: list,
        packages: packages.into_values().collect(),
        violations,
        transitive,
    })
}

/// The transitive closure (`mji_xref::deps::closure`) in the answer's shape.
fn closure(
    w: &World,
    roots: &[TypeId],
    first: &BTreeMap<String, Vec<u32>>,
    max_depth: u32,
    refs_of: &RefsOf,
) -> Transitive {
    let c = mji_xref::deps::closure(w, roots, first, max_depth, &|p| refs_of(p).unwrap_or_default());
    Transitive {
        types: c.types.into_iter().map(|r| TransitiveType { fqn: r.fqn, depth: r.depth, via: r.via }).collect(),
        cycles: c.cycles,
        depth_limited: c.depth_limited,
        total_types: None,
        total_cycles: None,
    }
}

/// `analyze_type_dependencies`: one line per dependency with its uses and first use, the
/// packages as counts.
fn render(r: &DependenciesResult) -> String {
    let mut out = String::new();
    let mut by_origin = [0u64; 4];
    for p in &r.packages {
        by_origin[p.origin as usize] += p.types;
    }
    let origins: Vec<String> = [Origin::Workspace, Origin::Jdk, Origin::Library, Origin::Unresolved]
        .iter()
        .filter(|o| by_origin[**o as usize] > 0)
        .map(|o| format!("{} {}", by_origin[*o as usize], origin_word(*o)))
        .collect();
    let _ = write!(
        out,
        "{} ({}) {} {}",
        r.types.join(", "),
        r.file,
        if r.types.len() == 1 { "uses" } else { "use" },
        count(r.page.total, "type", "types")
    );
    if !origins.is_empty() {
        let _ = write!(out, ": {}", origins.join(", "));
    }
    if r.page.truncated {
        let _ = write!(out, "; the first {} shown (raise `limit`)", r.dependencies.len());
    }
    out.push('\n');
    for d in &r.dependencies {
        let _ = write!(
            out,
            "{}  {}  {}, first line {}",
            d.fqn,
            origin_word(d.origin),
            count(d.count, "use", "uses"),
            d.first_line
        );
        if d.nested {
            out.push_str("  nested");
        }
        if d.violation {
            out.push_str("  VIOLATION");
        }
        if !d.lines.is_empty() {
            let lines: Vec<String> = d.lines.iter().map(u32::to_string).collect();
            let _ = write!(out, "  lines {}", lines.join(","));
        }
        out.push('\n');
    }
    if !r.packages.is_empty() {
        let packages: Vec<String> = r
            .packages
            .iter()
            .map(|p| {
                format!("{} {}/{}", if p.package.is_empty() { "(default)" } else { &p.package }, p.types, p.references)
            })
            .collect();
        let _ = writeln!(out, "packages (types/uses): {}", packages.join(", "));
    }
    for v in &r.violations {
        let lines: Vec<String> = v.lines.iter().map(u32::to_string).collect();
        let _ = writeln!(out, "violation: {} matches `{}` (lines {})", v.fqn, v.pattern, lines.join(","));
    }
    if let Some(t) = &r.transitive {
        let _ = writeln!(
            out,
            "transitive: {}{}{}",
            count(t.total_types.unwrap_or(t.types.len() as u64), "workspace type", "workspace types"),
            if t.depth_limited { " (stopped at maxDepth)" } else { "" },
            if t.total_types.is_some() {
                format!("; the first {} shown (lower `maxDepth` or raise `limit`)", t.types.len())
            } else {
                String::new()
            }
        );
        for x in &t.types {
            let _ = writeln!(out, "  {}  depth {} via {}", x.fqn, x.depth, x.via);
        }
        for c in &t.cycles {
            let _ = writeln!(out, "cycle: {}", c.join(" -> "));
        }
        if let Some(n) = t.total_cycles {
            let _ = writeln!(out, "{} in all; the first {} shown", count(n, "cycle", "cycles"), t.cycles.len());
        }
    }
    out
}
