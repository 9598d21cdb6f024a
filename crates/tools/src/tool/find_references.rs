//! `find_references`: every reference to a type, method, constructor or field.

use crate::ToolError;
use crate::registry::{Start, Tool};
use std::path::Path;
use std::sync::Arc;
use crate::xref;
use crate::host::Host;
use crate::page::Page;
use std::collections::BTreeMap;
use crate::find::IndexStatus;

use mji_xref::Confidence;
use crate::xref::{MAX_INCOMPLETE, NonJavaMatches, ReferenceKind, TargetKind, is_zero};
use serde::{Deserialize, Serialize};
use crate::lines::{count, index_line, paging};
use std::fmt::Write;

/// Why a Kotlin file that mentions the target's name is listed as incomplete.
const KOTLIN_UNBOUND: &str = "a Kotlin file that mentions the name, no reference bound to it (Kotlin is bound from syntax: a receiver only Kotlin's inference types is missed)";

pub(crate) struct FindReferences;

impl Tool for FindReferences {
    const NAME: &'static str = "find_references";
    const TITLE: &'static str = "Find references";
    const DESCRIPTION: &'static str = "Who uses this? Every reference to a type, method, constructor or field, bound like javac. Name it by `target`, `symbolId` or `filePath`+`line`.";
    const WAITS_FOR_INDEX: bool = true;
    const START: Start = Start::World { references: true };

    type Args = FindReferencesArgs;
    type Output = FindReferencesResult;

    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError> {
        run(ws, &args)
    }

    fn render(output: &Self::Output) -> Option<String> {
        Some(render(output))
    }

    fn page_len(output: &Self::Output) -> Option<usize> {
        Some(output.files.iter().map(|f| f.references.len()).sum())
    }

    fn cut(output: &mut Self::Output, args: &Self::Args, n: usize) {
        output.keep_first(n, args.offset);
    }
}

/// `find_references`.
pub fn run(ws: &Host, args: &FindReferencesArgs) -> Result<FindReferencesResult, ToolError> {
    answer(ws, args, LineText::Read).map(|(r, _)| r)
}

/// The same query as [`run`] for a program that places the references in the files itself
/// (the LSP front end): each reference without its line's text (no file read for it), and
/// each file of the answer's `files` with its absolute path, in the same order (so nothing
/// resolves the paths again).
pub fn locations(ws: &Host, args: &FindReferencesArgs) -> Result<(FindReferencesResult, Vec<Arc<Path>>), ToolError> {
    answer(ws, args, LineText::Skip)
}

/// Whether an answer's references carry their line's text.
#[derive(Clone, Copy, PartialEq, Eq)]
enum LineText {
    Read,
    Skip,
}

/// `find_references`, with each file's absolute path beside the answer.
fn answer(
    ws: &Host,
    args: &FindReferencesArgs,
    line_text: LineText,
) -> Result<(FindReferencesResult, Vec<Arc<Path>>), ToolError> {
    let (w, files) = ws.xref_world();
    let bound_files = Some(ws.xref().bound().0 as u64);
    let scope = xref::select_files(&files, &args.paths);
    if !args.targets.is_empty() {
        let list = &args.targets;
        if list.len() > 200 {
            return Err(ToolError::InvalidArgument("targets must list at most 200 targets".into()));
        }
        let mut unbound = Vec::new();
        let counts: Vec<TargetCount> = list
            .iter()
            .map(|spec| match crate::targets::target_of_spec(ws, &w, spec) {
                Ok(mut t) => {
                    if args.include_overriders {
                        xref::add_overriders(&w, &mut t);
                    }
                    let search = kinds_filter(javadoc_filter(xref::search(ws.xref(), &w, &scope, &t), args), args);
                    unbound.extend(search.unbound);
                    let found = search.hits;
                    let all: Vec<&(mji_xref::Ref, Option<String>)> = found.iter().flat_map(|(_, v)| v).collect();
                    let exact =
                        all.iter().filter(|(r, _)| r.confidence == mji_xref::Confidence::Exact).count() as u64;
                    // Nothing declares it and nothing references it: said, never a count of 0.
                    let error = (t.undeclared && all.is_empty()).then(|| xref::undeclared_message(&w, &t));
                    TargetCount {
                        target: t.label,
                        total: all.len() as u64,
                        exact,
                        likely: all.len() as u64 - exact,
                        files: found.len() as u64,
                        error,
                    }
                }
                Err(e) => TargetCount {
                    target: spec.clone(),
                    total: 0,
                    exact: 0,
                    likely: 0,
                    files: 0,
                    error: Some(e.to_string()),
                },
            })
            .collect();
        return Ok((FindReferencesResult {
            target: list.join(", "),
            target_kind: "many".into(),
            page: Page { total: counts.iter().map(|c| c.total).sum(), truncated: false, next_offset: None },
            files: Vec::new(),
            counts: Some(counts),
            kind_counts: Default::default(),
            incomplete: ws.incomplete(unbound),
            incomplete_files: 0,
            overrider_references: 0,
            likely: 0,
            hint: String::new(),
            non_java: None,
            languages: languages(ws),
            index: crate::find::IndexStatus::shown(
                Some(crate::find::IndexStatus { bound_files, ..crate::find::IndexStatus::of(ws.index()) }),
                args.include_index,
            ),
        }
        .with_incomplete_count(), Vec::new()));
    }
    let mut target = crate::targets::target_of(ws, 
        &w,
        &crate::targets::TargetSpec {
            target: &args.target,
            kind: args.target_kind,
            symbol_id: &args.symbol_id,
            file_path: &args.file_path,
            line: args.line,
            column: args.column,
        },
    )?;
    // The calls bound to overriders are counted when left out, so an answer never hides
    // that they exist (an interface method's callers are mostly its implementations').
    let mut overrider_references = 0;
    if args.include_overriders {
        xref::add_overriders(&w, &mut target);
    } else if target.category == mji_xref::Category::Method {
        let mut family = target.clone();
        xref::add_overriders(&w, &mut family);
        if !family.overriders.is_empty() {
            let only = xref::Target {
                keys: family.overriders.keys().cloned().collect(),
                overriders: std::collections::HashMap::new(),
                ..family
            };
            let hits = javadoc_filter(xref::search(ws.xref(), &w, &scope, &only), args).hits;
            overrider_references = hits.iter().map(|(_, v)| v.len() as u64).sum();
        }
    }
    let search = javadoc_filter(xref::search(ws.xref(), &w, &scope, &target), args);
    if target.undeclared && search.hits.is_empty() {
        return Err(ToolError::NoSuchSymbol(xref::undeclared_message(&w, &target)));
    }
    // Counted before `kinds` keeps some: the answer says what else there is.
    let mut kind_counts: std::collections::BTreeMap<String, u64> = Default::default();
    for (_, refs) in &search.hits {
        for (r, _) in refs {
            *kind_counts.entry(xref::kind_str(r.kind)).or_default() += 1;
        }
    }
    let search = kinds_filter(search, args);
    let mut incomplete = ws.incomplete(search.unbound);
    // Kotlin files that mention the name with no reference bound to it: said, never silently
    // left out (Kotlin is bound from syntax; a receiver only inference types is missed).
    // The file that declares the target mentions it there: only more mentions than it has
    // declarations are said.
    let hit_files: std::collections::HashSet<String> = search.hits.iter().map(|(p, _)| ws.display_of(p)).collect();
    let declared = |file: &str| target.decls.iter().filter(|(p, _)| ws.display_of(p) == file).count();
    incomplete.extend(
        ws.kotlin_mentions(&target.names)
            .into_iter()
            .filter(|(file, n)| !hit_files.contains(file) && *n > declared(file))
            .map(|(file, _)| format!("{file}: {KOTLIN_UNBOUND}")),
    );
    let found = search.hits;
    let mut texts = std::collections::HashMap::new();
    let mut flat: Vec<(Arc<Path>, ReferenceOut)> = Vec::new();
    if args.include_declaration {
        for (p, line) in &target.decls {
            flat.push((
                p.clone(),
                ReferenceOut {
                    line: *line,
                    column: 1,
                    kind: "declaration".into(),
                    confidence: mji_xref::Confidence::Exact,
                    text: String::new(),
                    overrider: None,
                    via_override: false,
                    accessor: None,
                },
            ));
        }
    }
    for (p, refs) in &found {
        for (r, via) in refs {
            flat.push((p.clone(), ReferenceOut::of(r, via.clone(), None)));
        }
    }
    // A Lombok field's generated accessors: their uses listed with it (`includeAccessors`), or
    // counted and said.
    let accessor_refs = lombok_accessor_refs(ws, &w, &scope, &target, args);
    let accessor_references = if args.include_accessors {
        flat.extend(accessor_refs);
        flat.sort_by(|a, b| (&a.0, a.1.line, a.1.column).cmp(&(&b.0, b.1.line, b.1.column)));
        0
    } else {
        accessor_refs.len() as u64
    };
    let total = flat.len();
    // Only counted: how many of them are `likely`, so the count says how much is certain.
    let likely = if args.count_only {
        flat.iter().filter(|(_, r)| r.confidence == mji_xref::Confidence::Likely).count() as u64
    } else {
        0
    };
    let limit = args.limit.clamp(1, xref::MAX_LIMIT) as usize;
    let offset = args.offset as usize;
    let page: Vec<(Arc<Path>, ReferenceOut)> =
        if args.count_only { Vec::new() } else { flat.into_iter().skip(offset).take(limit).collect() };
    let end = offset + page.len();
    let mut out: Vec<FileReferences> = Vec::new();
    let mut paths: Vec<Arc<Path>> = Vec::new();
    // Only the page's lines are read (none when the caller places the references itself).
    for (p, mut r) in page {
        if line_text == LineText::Read {
            r.text = xref::line_text(&mut texts, &p, r.line);
        }
        // A file's references are consecutive: its display name is made once.
        if let (Some(f), Some(last)) = (out.last_mut(), paths.last())
            && *last == p
        {
            f.references.push(r);
            continue;
        }
        let disp = ws.display_of(&p);
        match out.last_mut() {
            Some(f) if f.file == disp => f.references.push(r),
            _ => {
                out.push(FileReferences { file: disp, references: vec![r] });
                paths.push(p);
            }
        }
    }
    let truncated = !args.count_only && end < total;
    // No Java use (or asked): the name's textual uses in views and configuration.
    let non_java = (args.include_non_java || total == 0).then(|| xref::non_java_matches(ws, &target, &args.paths));
    Ok((FindReferencesResult {
        languages: languages(ws),
        target: target.label,
        target_kind: match target.category {
            mji_xref::Category::Type => "type",
            mji_xref::Category::Method => "method",
            mji_xref::Category::Ctor => "constructor",
            mji_xref::Category::Field => "field",
        }
        .into(),
        page: Page { total: total as u64, truncated, next_offset: truncated.then_some(end as u64) },
        files: out,
        counts: None,
        kind_counts,
        incomplete,
        incomplete_files: 0,
        overrider_references,
        likely,
        hint: if overrider_references > 0 {
            format!(
                "{overrider_references} more reference(s) are bound to methods overriding it; pass includeOverriders: true to list them"
            )
        } else if accessor_references > 0 {
            format!(
                "{accessor_references} more use(s) call the accessors Lombok generates for it; pass includeAccessors: true to list them"
            )
        } else {
            String::new()
        },
        non_java,
        index: crate::find::IndexStatus::shown(
            Some(crate::find::IndexStatus { bound_files, ..crate::find::IndexStatus::of(ws.index()) }),
            args.include_index,
        ),
    }
    .with_incomplete_count(), paths))
}

/// The uses of the accessors, builder methods and `withX` Lombok generates for a field target,
/// each marked with the accessor (`getName()`), filtered as the field's are.
fn lombok_accessor_refs(
    ws: &Host,
    w: &mji_xref::world::World,
    scope: &[Arc<Path>],
    target: &xref::Target,
    args: &FindReferencesArgs,
) -> Vec<(Arc<Path>, ReferenceOut)> {
    if target.category != mji_xref::Category::Field {
        return Vec::new();
    }
    let mut out = Vec::new();
    for key in &target.keys {
        let Ok(accessors) = mji_xref::accessors::lombok_accessors(w, &|p| ws.xref().lombok_config(p), key, None) else { continue };
        for a in accessors {
            let Ok(t) = crate::targets::target_of_spec(ws, w, &a.key) else { continue };
            let label = a.key.split_once('#').map_or(a.key.clone(), |(owner, m)| {
                let owner = owner.rsplit('.').next().unwrap_or(owner);
                let m = m.split('(').next().unwrap_or(m);
                if a.role == mji_parser::lombok::Role::Getter || a.role == mji_parser::lombok::Role::Setter || a.role == mji_parser::lombok::Role::With {
                    format!("{m}()")
                } else {
                    format!("{owner}.{m}()")
                }
            });
            let found = kinds_filter(javadoc_filter(xref::search(ws.xref(), w, scope, &t), args), args);
            for (p, refs) in found.hits {
                for (r, _) in refs {
                    out.push((p.clone(), ReferenceOut::of(&r, None, Some(label.clone()))));
                }
            }
        }
    }
    out
}

/// The hits without javadoc references when the call leaves them out, and without the override
/// declarations of keyless classes unless it includes overriders.
fn javadoc_filter(mut found: xref::Search, args: &FindReferencesArgs) -> xref::Search {
    // The overriding declarations of anonymous, enum-constant and local classes (which have no
    // key to bind calls to) are the family's, listed with the overriders' calls.
    if !args.include_overriders {
        for (_, refs) in &mut found.hits {
            refs.retain(|(r, _)| r.kind != mji_xref::RefKind::Override);
        }
        found.hits.retain(|(_, refs)| !refs.is_empty());
    }
    if args.include_javadoc == Some(false) {
        for (_, refs) in &mut found.hits {
            refs.retain(|(r, _)| r.kind != mji_xref::RefKind::Javadoc);
        }
        found.hits.retain(|(_, refs)| !refs.is_empty());
    }
    found
}

/// The hits of the kinds `kinds` asks for (all without it).
fn kinds_filter(mut found: xref::Search, args: &FindReferencesArgs) -> xref::Search {
    if !args.kinds.is_empty() {
        for (_, refs) in &mut found.hits {
            refs.retain(|(r, _)| args.kinds.contains(&xref::ReferenceKind::of(r.kind)));
        }
        found.hits.retain(|(_, refs)| !refs.is_empty());
    }
    found
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
    /// A Lombok field: also its generated accessors', builder methods' and withX's uses.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub include_accessors: bool,
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
    /// With `includeAccessors`: the Lombok accessor of the field this use calls (`getName()`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accessor: Option<String>,
}

impl ReferenceOut {
    /// A bound reference as answered (its line's text read later, for the page alone).
    fn of(r: &mji_xref::Ref, overrider: Option<String>, accessor: Option<String>) -> ReferenceOut {
        ReferenceOut {
            line: r.line,
            column: r.column,
            kind: xref::kind_str(r.kind),
            confidence: r.confidence,
            text: String::new(),
            overrider,
            via_override: r.via_override,
            accessor,
        }
    }
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
    #[serde(flatten)]
    pub page: crate::page::Page,
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
    /// With `countOnly` (one target): how many of the references are `likely` (the rest are
    /// exact).
    #[serde(default, skip_serializing_if = "is_zero_u64")]
    pub likely: u64,
    /// What to ask to see what this answer leaves out.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub hint: String,
    /// Textual uses of the name in view and configuration files (not bound): when no Java
    /// reference was found, or `includeNonJava`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub non_java: Option<NonJavaMatches>,
    /// The languages searched when not Java alone: `java` and `kotlin` in a project with
    /// Kotlin sources (absent: Java alone).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub languages: Vec<String>,
    /// Only when incomplete, files were skipped, or `includeIndex`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<IndexStatus>,
}

/// `["java", "kotlin"]` in a project with Kotlin sources, else none (Java alone, unsaid).
pub(crate) fn languages(ws: &Host) -> Vec<String> {
    match ws.index().kotlin_files().is_empty() {
        true => Vec::new(),
        false => vec!["java".to_owned(), mji_parser::kotlin::LANGUAGE.to_owned()],
    }
}

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
            self.page.kept(u64::from(offset), n);
        }
    }
}

/// `find_references`: the totals, then each file's path and its references under it.
fn render(r: &FindReferencesResult) -> String {
    let mut out = String::new();
    if let Some(counts) = &r.counts {
        let _ = writeln!(out, "{} to {} targets", count(r.page.total, "reference", "references"), counts.len());
        for c in counts {
            match &c.error {
                Some(e) => {
                    let _ = writeln!(out, "{}  error: {e}", c.target);
                }
                None => {
                    let _ = write!(out, "{}  {} in {}", c.target, c.total, count(c.files, "file", "files"));
                    if c.likely > 0 {
                        let _ = write!(out, " ({} exact, {} likely)", c.exact, c.likely);
                    }
                    out.push('\n');
                }
            }
        }
    } else {
        let shown: usize = r.files.iter().map(|f| f.references.len()).sum();
        let split = if r.likely > 0 {
            format!(" ({} exact, {} likely)", r.page.total.saturating_sub(r.likely), r.likely)
        } else {
            String::new()
        };
        let (noun, searched) = match r.languages.is_empty() {
            true => (count(r.page.total, "Java reference", "Java references"), ""),
            false => (count(r.page.total, "reference", "references"), " in Java and Kotlin"),
        };
        let _ = writeln!(
            out,
            "{noun} to {} ({}){searched}{split}{}",
            r.target,
            r.target_kind,
            paging(shown, r.page.next_offset)
        );
        for f in &r.files {
            let _ = writeln!(out, "{}", f.file);
            for x in &f.references {
                let _ = write!(out, "  {}:{} {}", x.line, x.column, x.kind);
                if x.confidence == mji_xref::Confidence::Likely {
                    out.push_str(" (likely)");
                }
                if let Some(o) = &x.overrider {
                    let _ = write!(out, " via {o}");
                }
                if let Some(a) = &x.accessor {
                    let _ = write!(out, " via {a}");
                }
                if x.via_override {
                    out.push_str(" (via its anonymous/local class's override)");
                }
                if !x.text.is_empty() {
                    let _ = write!(out, "  {}", x.text);
                }
                out.push('\n');
            }
        }
    }
    if let Some(n) = &r.non_java {
        non_java(&mut out, r.page.total, n);
    }
    if r.incomplete_files > 0 {
        let _ = writeln!(
            out,
            "{} could not be bound fully (references may be missing): {}",
            count(r.incomplete_files, "file", "files"),
            r.incomplete.join("; ")
        );
    }
    if !r.hint.is_empty() {
        let _ = writeln!(out, "{}", r.hint);
    }
    index_line(&mut out, r.index.as_ref());
    out
}

/// "0 Java references; 2 textual matches in non-Java files (not bound): …".
fn non_java(out: &mut String, java: u64, n: &NonJavaMatches) {
    let _ = write!(
        out,
        "{}; {} in non-Java files (not bound; {} searched for {})",
        count(java, "Java reference", "Java references"),
        count(n.total, "textual match", "textual matches"),
        count(n.searched_files, "view/config file", "view/config files"),
        n.words.iter().map(|w| format!("`{w}`")).collect::<Vec<_>>().join(", ")
    );
    if n.truncated {
        out.push_str(", more files not searched");
    }
    out.push_str(if n.matches.is_empty() { "\n" } else { ":\n" });
    for m in &n.matches {
        let _ = writeln!(out, "  {}:{}  {}", m.file, m.line, m.text);
    }
    if n.total > n.matches.len() as u64 {
        let _ = writeln!(out, "  … {} more", n.total - n.matches.len() as u64);
    }
}
