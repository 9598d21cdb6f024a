//! The cross-file tools' wire types and presentation: `find_references`,
//! `analyze_type_dependencies` and `show_definition` over the [`mji_xref`] engine (target
//! resolution, overriders, search, dependencies and definition candidates live there).
//! Bounded, paged answers; clear errors for targets that do not exist.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::ToolError;
use crate::find::IndexStatus;
use mji_index::matcher::wildcard_match;
use mji_model::{FileOutline, TypeDecl as OutlineType};
use mji_xref::deps::{nested_type_references, type_dependencies};
use mji_xref::world::{Origin, TypeId, World};
use mji_xref::{Category, Confidence, Ref, RefKind};

// The domain algorithms live in the cross-reference layer; these are their tool-facing names.
pub use mji_xref::definition::{Candidate, candidates};
pub use mji_xref::target::{
    FileHits, Search, Target, TargetError, add_overriders, kind_name, kind_of_symbol_id, name_of_key, resolve_target,
    resolve_target_as, search, target_at, target_of_symbol_id, undeclared_message,
};

pub(crate) const MAX_LIMIT: u32 = 1000;

/// A target written as a position, `FILE:LINE` or `FILE:LINE:COLUMN` of a `.java` file (the
/// file name may itself hold a colon): the file, line and column.
pub fn position_of(t: &str) -> Option<(String, u32, Option<u32>)> {
    let parts: Vec<&str> = t.rsplitn(3, ':').collect();
    match parts.as_slice() {
        [c, l, f] if f.ends_with(".java") => Some((f.to_string(), l.parse().ok()?, Some(c.parse().ok()?))),
        [l, f] if f.ends_with(".java") => Some((f.to_string(), l.parse().ok()?, None)),
        [c, l, f] => {
            let f2 = format!("{f}:{l}");
            if f2.ends_with(".java") { Some((f2, c.parse().ok()?, None)) } else { None }
        }
        _ => None,
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn default_limit() -> u32 {
    100
}

/// Arguments of `find_references`. Give the target one way: `target`, `symbolId`, or
/// `filePath` + `line` (+ `column`) of any occurrence; or many `targets` with `countOnly`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FindReferencesArgs {
    /// `pkg.Bar`, `pkg.Bar#doThing(int,String)` (no parentheses: every overload), `pkg.Bar#count`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub target: String,
    // When `target` names both a field and a method (the ambiguity's error says so).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_kind: Option<TargetKind>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub symbol_id: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub file_path: String,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub line: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub column: u32,
    /// Several targets, with `countOnly`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<String>,
    #[serde(default)]
    pub count_only: bool,
    #[serde(default)]
    pub include_declaration: bool,
    /// Also calls to overriders and anonymous overrides.
    #[serde(default)]
    pub include_overriders: bool,
    /// Javadoc links (default true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_javadoc: Option<bool>,
    /// Only files matching these globs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kinds: Vec<ReferenceKind>,
    #[serde(default = "default_limit")]
    pub limit: u32,
    #[serde(default)]
    pub offset: u32,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub include_index: bool,
    // Also count the name's textual uses in view and configuration files (searched anyway when
    // no Java reference is found). No doc: tools/list is at its budget.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub include_non_java: bool,
}

// How a reference uses its target, as `kind` says it and `kinds` filters: `write` is an
// assignment, compound assignment, `++` or `--` of a field; `call` includes `this(…)` and
// `super(…)`; `override` is the overriding declaration of a method in an anonymous, enum
// constant or local class (listed with includeOverriders).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ReferenceKind {
    Call,
    New,
    Read,
    Write,
    Type,
    Import,
    Extends,
    Implements,
    Annotation,
    MethodRef,
    Javadoc,
    Override,
}

impl ReferenceKind {
    /// The kind of a bound reference.
    pub fn of(k: RefKind) -> ReferenceKind {
        match k {
            RefKind::Import => ReferenceKind::Import,
            RefKind::Extends => ReferenceKind::Extends,
            RefKind::Implements => ReferenceKind::Implements,
            RefKind::Type => ReferenceKind::Type,
            RefKind::New => ReferenceKind::New,
            RefKind::Call | RefKind::ThisCall | RefKind::SuperCall => ReferenceKind::Call,
            RefKind::FieldRead => ReferenceKind::Read,
            RefKind::FieldWrite => ReferenceKind::Write,
            RefKind::Annotation => ReferenceKind::Annotation,
            RefKind::MethodRef => ReferenceKind::MethodRef,
            RefKind::Javadoc => ReferenceKind::Javadoc,
            RefKind::Override => ReferenceKind::Override,
            // No search answers it (`mji_xref::target::search` leaves lambdas out).
            RefKind::Lambda => ReferenceKind::Type,
        }
    }

    /// Its wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            ReferenceKind::Call => "call",
            ReferenceKind::New => "new",
            ReferenceKind::Read => "read",
            ReferenceKind::Write => "write",
            ReferenceKind::Type => "type",
            ReferenceKind::Import => "import",
            ReferenceKind::Extends => "extends",
            ReferenceKind::Implements => "implements",
            ReferenceKind::Annotation => "annotation",
            ReferenceKind::MethodRef => "method-ref",
            ReferenceKind::Javadoc => "javadoc",
            ReferenceKind::Override => "override",
        }
    }
}

// The kind of declaration a target names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum TargetKind {
    Field,
    Method,
}

impl From<TargetKind> for mji_xref::Category {
    fn from(k: TargetKind) -> Self {
        match k {
            TargetKind::Field => mji_xref::Category::Field,
            TargetKind::Method => mji_xref::Category::Method,
        }
    }
}

/// One reference.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReferenceOut {
    pub line: u32,
    /// 1-based, in UTF-16 code units.
    pub column: u32,
    /// call, new, read, write, type, import, extends, implements, annotation, method-ref,
    /// javadoc, override, declaration.
    pub kind: String,
    /// `exact`: bound as javac binds it; `likely`: the receiver's type or the overload could not
    /// be known, the target is one of the candidates.
    pub confidence: Confidence,
    /// The line, trimmed (at most 200 characters).
    pub text: String,
    /// Set when the reference binds to an overrider of the target: that method's key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overrider: Option<String>,
    // A call that javac binds to the override an anonymous, enum-constant or local class
    // declares (no key), listed for the method that override overrides (`Ref::via_override`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub via_override: bool,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FileReferences {
    pub file: String,
    pub references: Vec<ReferenceOut>,
}

/// Per-target counts of a `targets` call.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TargetCount {
    pub target: String,
    pub total: u64,
    pub exact: u64,
    pub likely: u64,
    pub files: u64,
    /// Why the target could not be counted (not found, ambiguous).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The answer of `find_references`.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FindReferencesResult {
    /// The resolved target(s): keys `Owner#name(params)`, a type's qualified name.
    pub target: String,
    /// type, method, constructor or field.
    pub target_kind: String,
    /// References in all (every page).
    pub total: u64,
    pub truncated: bool,
    /// Pass as `offset` for the next page; null on the last.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_offset: Option<u64>,
    pub files: Vec<FileReferences>,
    /// With `targets`: one entry per target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counts: Option<Vec<TargetCount>>,
    /// References by kind, those `kinds` leaves out included.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub kind_counts: BTreeMap<String, u64>,
    /// Files that mention the target's name but could not be bound fully, so references in
    /// them may be missing from this answer: `path: why` (the first [`MAX_INCOMPLETE`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub incomplete: Vec<String>,
    /// How many such files there are in all.
    #[serde(default, skip_serializing_if = "is_zero_u64")]
    pub incomplete_files: u64,
    /// References bound to methods overriding the target, not in this answer.
    #[serde(default, skip_serializing_if = "is_zero_u64")]
    pub overrider_references: u64,
    /// What to ask to see what this answer leaves out.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub hint: String,
    /// Textual uses of the name in view and configuration files (not bound): when no Java
    /// reference was found, or `includeNonJava`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub non_java: Option<NonJavaMatches>,
    /// Only when incomplete, files were skipped, or `includeIndex`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<IndexStatus>,
}

/// A target's name found as a whole word in the workspace's view and configuration files
/// (`mji_xref::textual::EXTENSIONS`): occurrences of the name, not bound references.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NonJavaMatches {
    /// The words searched: the name, its bean property (`isFoo` → `foo`), a type's qualified name.
    pub words: Vec<String>,
    /// Matching lines in all.
    pub total: u64,
    pub files: u64,
    /// The first matching lines (at most [`MAX_TEXT_MATCHES`]).
    pub matches: Vec<TextMatch>,
    /// Files searched.
    pub searched_files: u64,
    /// True when there were more such files than a search reads ([`MAX_TEXT_FILES`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
}

/// One line of a view or configuration file that holds the name.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TextMatch {
    pub file: String,
    pub line: u32,
    /// The line, trimmed (at most 200 characters).
    pub text: String,
}

/// The most matching lines a non-Java search lists.
pub(crate) const MAX_TEXT_MATCHES: usize = 20;
/// The most view and configuration files one search reads.
pub(crate) const MAX_TEXT_FILES: usize = 5_000;

/// The target's textual uses in the view and configuration files of the workspace (the
/// files the index holds, so within the roots and the path policy; each read through it).
pub(crate) fn non_java_matches(ws: &crate::host::Host, target: &Target, globs: &[String]) -> NonJavaMatches {
    use mji_xref::textual;
    let words = textual::words_of(target);
    let index = ws.index();
    // Every view and configuration file by its extension, in one pass over the index's files.
    let mut files: Vec<(Arc<Path>, String)> = index
        .resources_named(textual::is_searched)
        .into_iter()
        .map(|(p, r)| {
            let disp = index.roots().display(&p, r.root);
            (p, disp)
        })
        .filter(|(_, disp)| globs.is_empty() || globs.iter().any(|g| glob_match(g, disp)))
        .collect();
    files.sort_by(|a, b| a.1.cmp(&b.1));
    let more = files.len() > MAX_TEXT_FILES;
    files.truncate(MAX_TEXT_FILES);
    let mut out = NonJavaMatches { words, total: 0, files: 0, matches: Vec::new(), searched_files: 0, truncated: more };
    for (p, disp) in &files {
        if mji_model::cancel::Cancel::current().is_cancelled() {
            break;
        }
        // An unreadable file (over the size cap, a secret, gone) is not searched.
        let Ok(bytes) = ws.roots().read(p, disp) else { continue };
        out.searched_files += 1;
        let text = String::from_utf8_lossy(&bytes);
        let found = textual::matching_lines(&text, &out.words);
        if found.is_empty() {
            continue;
        }
        out.files += 1;
        out.total += found.len() as u64;
        for m in found {
            if out.matches.len() < MAX_TEXT_MATCHES {
                let mut text = m.text;
                if crate::truncate_chars(&mut text, 200) {
                    text.push('…');
                }
                out.matches.push(TextMatch { file: disp.clone(), line: m.line, text });
            }
        }
    }
    out
}

/// The most incomplete files an answer lists.
pub(crate) const MAX_INCOMPLETE: usize = 20;

fn is_zero_u64(n: &u64) -> bool {
    *n == 0
}

impl FindReferencesResult {
    /// Counts the incomplete files and keeps the first [`MAX_INCOMPLETE`] of them listed.
    pub(crate) fn with_incomplete_count(mut self) -> Self {
        self.incomplete_files = self.incomplete.len() as u64;
        self.incomplete.truncate(MAX_INCOMPLETE);
        self
    }

    /// The answer budget's cut: keeps the first `n` references of the page (files in order)
    /// and says where the next page starts.
    pub(crate) fn keep_first(&mut self, n: usize, offset: u32) {
        let mut left = n;
        for f in &mut self.files {
            f.references.truncate(left);
            left -= f.references.len();
        }
        self.files.retain(|f| !f.references.is_empty());
        if left == 0 {
            self.truncated = true;
            self.next_offset = Some(u64::from(offset) + n as u64);
        }
    }
}

/// The files to search, filtered by the `paths` globs (matched against the display path).
pub(crate) fn select_files(files: &[(Arc<Path>, String)], globs: &[String]) -> Vec<Arc<Path>> {
    files
        .iter()
        .filter(|(_, disp)| globs.is_empty() || globs.iter().any(|p| glob_match(p, disp)))
        .map(|(p, _)| p.clone())
        .collect()
}

fn glob_match(pattern: &str, path: &str) -> bool {
    let p = pattern.replace("**/", "*").replace("**", "*");
    wildcard_match(&p.to_lowercase(), &path.to_lowercase(), true)
        || (!pattern.contains('/')
            && wildcard_match(&p.to_lowercase(), &path.rsplit('/').next().unwrap_or(path).to_lowercase(), true))
}

/// Reads line `n` of a file, trimmed to 200 characters.
pub fn line_text(cache: &mut HashMap<Arc<Path>, Vec<String>>, path: &Arc<Path>, n: u32) -> String {
    let lines = cache.entry(path.clone()).or_insert_with(|| {
        mji_fs::read_regular(path, crate::MAX_FILE_BYTES)
            .map(|b| {
                let s = mji_parser::SourceText::decode(&b);
                (1..=s.lines.line_count()).map(|i| s.lines.line_text(&s.text, i).to_string()).collect()
            })
            .unwrap_or_default()
    });
    let mut t = lines.get(n.saturating_sub(1) as usize).map(|s| s.trim().to_string()).unwrap_or_default();
    if crate::truncate_chars(&mut t, 200) {
        t.push('…');
    }
    t
}

// ---- analyze_type_dependencies --------------------------------------------------------------

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
}

/// The answer of `analyze_type_dependencies`.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DependenciesResult {
    /// The analysed types.
    pub types: Vec<String>,
    pub file: String,
    /// Distinct types referenced, in all.
    pub total: u64,
    pub truncated: bool,
    pub dependencies: Vec<Dependency>,
    pub packages: Vec<PackageGroup>,
    pub violations: Vec<Violation>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transitive: Option<Transitive>,
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
    let total = list.len() as u64;
    // Workspace first, then by count.
    list.sort_by(|a, b| {
        (a.origin as u8, std::cmp::Reverse(a.count), &a.fqn).cmp(&(b.origin as u8, std::cmp::Reverse(b.count), &b.fqn))
    });
    let limit = args.limit.clamp(1, MAX_LIMIT) as usize;
    let truncated = list.len() > limit;
    list.truncate(limit);
    let transitive = args.transitive.then(|| closure(w, roots, &deps, args.max_depth.clamp(1, 10), refs_of));
    Ok(DependenciesResult {
        types: roots.iter().map(|i| w.decl(*i).fqn.to_string()).collect(),
        file: display(&path),
        total,
        truncated,
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
    }
}

// ---- show_definition ---------------------------------------------------------------------

/// Arguments of `show_definition`.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ShowDefinitionArgs {
    pub symbol: String,
    /// Where the name is used.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub file_path: String,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub line: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub column: u32,
    #[serde(default = "default_def_limit")]
    pub limit: u32,
    /// Also show the first definition in the user's editor.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub open: bool,
    // (workspace, libraries: the JDK's and the classpath jars', or all; no doc: tools/list is
    // at its budget.)
    #[serde(default = "scope_all")]
    pub scope: crate::find::Scope,
}

fn scope_all() -> crate::find::Scope {
    crate::find::Scope::All
}

impl Default for ShowDefinitionArgs {
    fn default() -> Self {
        ShowDefinitionArgs {
            symbol: String::new(),
            file_path: String::new(),
            line: 0,
            column: 0,
            limit: default_def_limit(),
            open: false,
            scope: scope_all(),
        }
    }
}

fn default_def_limit() -> u32 {
    20
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Definition {
    /// class, interface, enum, record, annotation, method, constructor or field.
    pub kind: String,
    /// Qualified name or member key (`com.foo.Bar#doThing(int)`).
    pub qualified_name: String,
    /// workspace or jdk/library (then no file).
    pub origin: Origin,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_line: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_line: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// First sentence of the javadoc.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub javadoc: Option<String>,
    /// For java_read_javadoc.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol_id: Option<String>,
    /// A library's: the jar or jmod it is read from (file: its -sources.jar entry, exact
    /// lines; else its class file, no lines).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub archive: Option<String>,
}

impl Definition {
    /// A definition of `category` named `qualified_name`, not yet located or described.
    pub fn new(category: Category, qualified_name: String, origin: Origin) -> Definition {
        Definition {
            kind: kind_name(category).to_string(),
            qualified_name,
            origin,
            file: None,
            start_line: None,
            end_line: None,
            signature: None,
            javadoc: None,
            symbol_id: None,
            archive: None,
        }
    }
}

/// Fills a JDK or library definition from the library index: the source file in its
/// sources archive (a `jar:` path with exact lines, readable with `java_read_range`), else its
/// class file's outline (no lines). A type the index does not hold stays without a file.
pub fn describe_library(ws: &crate::host::Host, d: &mut Definition, category: Category) {
    let owner = d.qualified_name.split('#').next().unwrap_or_default().to_owned();
    let ix = ws.libraries();
    let Some(class) = ix.get(&owner) else { return };
    d.archive = Some(ix.archive_of(class).path.display().to_string());
    let Ok(outline) = crate::libraries::outline(ws, &crate::libraries::LibraryTarget::Class(owner.clone())) else {
        return;
    };
    d.file = Some(outline.file_path.clone());
    let Some(t) = find_outline_type(&outline.classes, &owner) else { return };
    let lines = |a: u32, b: u32| (a > 0).then_some((a, b));
    let name = name_of_key(&d.qualified_name);
    // The overload with as many parameters as the key names.
    let arity = d.qualified_name.split_once('(').map(|(_, p)| {
        let p = p.trim_end_matches(')');
        if p.is_empty() { 0 } else { p.split(',').count() }
    });
    // Same name and arity; of those, the one whose parameter types (simple names) are the
    // key's, when one is.
    let simple = |t: &str| {
        let t = t.split('<').next().unwrap_or(t).replace("...", "[]");
        t.rsplit('.').next().unwrap_or(&t).trim().to_owned()
    };
    let wanted: Option<Vec<String>> = d
        .qualified_name
        .split_once('(')
        .map(|(_, p)| p.trim_end_matches(')').split(',').filter(|t| !t.is_empty()).map(simple).collect());
    let same_types = |ps: &[mji_model::Param]| {
        wanted.as_ref().is_some_and(|w| ps.iter().map(|p| simple(&p.type_text)).eq(w.iter().cloned()))
    };
    let found = match category {
        Category::Type => {
            d.kind = t.kind.as_str().to_string();
            Some((lines(t.start_line, t.end_line), format!("{} {}", t.kind.as_str(), t.qualified_name)))
        }
        Category::Method => {
            let mut same = t.methods.iter().filter(|m| m.name == name && arity.is_none_or(|n| m.params.len() == n));
            same.clone()
                .find(|m| same_types(&m.params))
                .or_else(|| same.next())
                .map(|m| (lines(m.start_line, m.end_line), m.signature_text.clone()))
        }
        Category::Ctor => {
            let mut same = t.constructors.iter().filter(|m| arity.is_none_or(|n| m.params.len() == n));
            same.clone()
                .find(|m| same_types(&m.params))
                .or_else(|| same.next())
                .map(|m| (lines(m.start_line, m.end_line), m.signature_text.clone()))
        }
        Category::Field => t
            .fields
            .iter()
            .find(|f| f.name == name)
            .map(|f| (lines(f.start_line, f.end_line), format!("{} {}", f.type_text, f.name))),
    };
    if let Some((lines, sig)) = found {
        if let Some((a, b)) = lines {
            d.start_line = Some(a);
            d.end_line = Some(b);
        }
        d.signature = Some(sig);
    }
}

/// The answer of `show_definition`.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ShowDefinitionResult {
    pub symbol: String,
    /// exact: resolved at the given position (or a unique match); ranked: candidates by name,
    /// best first (same file's imports, then its package, then the rest).
    pub resolution: String,
    pub total: u64,
    pub truncated: bool,
    pub definitions: Vec<Definition>,
    /// `open: true`: what the editor did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opened: Option<crate::editor::Opened>,
}

/// Fills a definition from the file's outline (lines, signature, javadoc).
pub fn describe(
    w: &World,
    c: &Candidate,
    outline: Option<&FileOutline>,
    display: &dyn Fn(&Path) -> String,
) -> Definition {
    let origin =
        c.type_id.map(|_| Origin::Workspace).unwrap_or_else(|| w.origin(c.key.split('#').next().unwrap_or("")));
    let mut d = Definition::new(c.category, c.key.clone(), origin);
    let Some(id) = c.type_id else { return d };
    let path = w.files[w.file_of(id) as usize].path.clone();
    d.file = Some(display(&path));
    d.start_line = Some(c.line);
    let Some(outline) = outline else { return d };
    let name = name_of_key(&c.key);
    let tfqn = w.decl(id).fqn.to_string();
    let Some(t) = find_outline_type(&outline.classes, &tfqn) else { return d };
    let jd = |j: &mji_model::Javadoc| match (j.start_line, j.end_line) {
        (Some(a), Some(b)) => crate::find::javadoc_summary(&path, (a, b)),
        _ => None,
    };
    match c.category {
        Category::Type => {
            d.kind = t.kind.as_str().to_string();
            d.start_line = Some(t.start_line);
            d.end_line = Some(t.end_line);
            let word = if t.kind == mji_model::TypeKind::Annotation { "@interface" } else { t.kind.as_str() };
            d.signature = Some(as_written(&t.annotations, crate::java_index::type_head(t, word)));
            d.javadoc = jd(&t.javadoc);
            d.symbol_id = Some(t.symbol_id.clone());
        }
        Category::Method => {
            if let Some(m) = t.methods.iter().filter(|m| m.name == name).min_by_key(|m| m.start_line.abs_diff(c.line)) {
                d.start_line = Some(m.start_line);
                d.end_line = Some(m.end_line);
                d.signature = Some(as_written(&m.annotations, m.signature_text.clone()));
                d.javadoc = jd(&m.javadoc);
                d.symbol_id = Some(m.symbol_id.clone());
            }
        }
        Category::Ctor => {
            if let Some(m) = t.constructors.iter().min_by_key(|m| m.start_line.abs_diff(c.line)) {
                d.start_line = Some(m.start_line);
                d.end_line = Some(m.end_line);
                d.signature = Some(as_written(&m.annotations, m.signature_text.clone()));
                d.javadoc = jd(&m.javadoc);
                d.symbol_id = Some(m.symbol_id.clone());
            }
        }
        Category::Field => {
            if let Some(f) = t.fields.iter().find(|f| f.name == name) {
                d.start_line = Some(f.start_line);
                d.end_line = Some(f.end_line);
                let mut sig = f.modifiers.join(" ");
                if !sig.is_empty() {
                    sig.push(' ');
                }
                sig.push_str(&format!("{} {}", f.type_text, f.name));
                d.signature = Some(as_written(&f.annotations, sig));
                d.javadoc = jd(&f.javadoc);
                d.symbol_id = Some(f.symbol_id.clone());
            } else if let Some(e) = t.enum_constants.as_ref().and_then(|v| v.iter().find(|e| e.name == name)) {
                d.start_line = Some(e.start_line);
                d.end_line = Some(e.end_line);
                d.signature = Some(format!("enum constant {}", e.name));
                d.javadoc = jd(&e.javadoc);
                d.symbol_id = Some(e.symbol_id.clone());
            }
        }
    }
    d
}

/// A declaration's head as written: its annotations, then its modifiers and signature.
fn as_written(annotations: &[String], head: String) -> String {
    if annotations.is_empty() {
        return head;
    }
    format!("{} {head}", annotations.join(" "))
}

fn find_outline_type<'a>(types: &'a [OutlineType], fqn: &str) -> Option<&'a OutlineType> {
    for t in types {
        if t.qualified_name == fqn {
            return Some(t);
        }
        if fqn.starts_with(&format!("{}.", t.qualified_name))
            && let Some(x) = find_outline_type(&t.inner_classes, fqn)
        {
            return Some(x);
        }
    }
    None
}

/// A reference kind's wire name (`ReferenceKind`).
pub(crate) fn kind_str(k: RefKind) -> String {
    ReferenceKind::of(k).as_str().to_string()
}
