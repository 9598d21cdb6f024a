//! `find_references`: every reference to a type, method, constructor or field.

use crate::ToolError;
use crate::registry::Tool;
use std::path::Path;
use std::sync::Arc;
use crate::xref::{self, FindReferencesArgs, FindReferencesResult, TargetCount};
use crate::host::Host;

pub(crate) struct FindReferences;

impl Tool for FindReferences {
    const NAME: &'static str = "find_references";
    const TITLE: &'static str = "Find references";
    const DESCRIPTION: &'static str = "Who uses this? Every reference to a type, method, constructor or field, bound like javac. Name it by `target`, `symbolId` or `filePath`+`line`.";
    const NEEDS_INDEX: bool = true;

    type Args = crate::xref::FindReferencesArgs;
    type Output = crate::xref::FindReferencesResult;

    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError> {
        run(ws, &args)
    }

    fn render(output: &Self::Output) -> Option<String> {
        Some(crate::lines::find_references(output))
    }

    fn page_len(output: &Self::Output) -> Option<usize> {
        Some(output.files.iter().map(|f| f.references.len()).sum())
    }

    fn cut(output: &mut Self::Output, args: &Self::Args, n: usize) {
        output.keep_first(n, args.offset);
    }
}

/// `find_references`.
pub fn run(ws: &Host, args: &crate::xref::FindReferencesArgs) -> Result<FindReferencesResult, ToolError> {
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
        return Ok(FindReferencesResult {
            target: list.join(", "),
            target_kind: "many".into(),
            total: counts.iter().map(|c| c.total).sum(),
            truncated: false,
            next_offset: None,
            files: Vec::new(),
            counts: Some(counts),
            kind_counts: Default::default(),
            incomplete: ws.incomplete(unbound),
            incomplete_files: 0,
            overrider_references: 0,
            hint: String::new(),
            non_java: None,
            index: crate::find::IndexStatus::shown(
                Some(crate::find::IndexStatus { bound_files, ..crate::find::IndexStatus::of(ws.index()) }),
                args.include_index,
            ),
        }
        .with_incomplete_count());
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
    let incomplete = ws.incomplete(search.unbound);
    let found = search.hits;
    let mut texts = std::collections::HashMap::new();
    let mut flat: Vec<(Arc<Path>, xref::ReferenceOut)> = Vec::new();
    if args.include_declaration {
        for (p, line) in &target.decls {
            flat.push((
                p.clone(),
                xref::ReferenceOut {
                    line: *line,
                    column: 1,
                    kind: "declaration".into(),
                    confidence: mji_xref::Confidence::Exact,
                    text: String::new(),
                    overrider: None,
                    via_override: false,
                },
            ));
        }
    }
    for (p, refs) in &found {
        for (r, via) in refs {
            flat.push((
                p.clone(),
                xref::ReferenceOut {
                    line: r.line,
                    column: r.column,
                    kind: xref::kind_str(r.kind),
                    confidence: r.confidence,
                    text: String::new(),
                    overrider: via.clone(),
                    via_override: r.via_override,
                },
            ));
        }
    }
    let total = flat.len();
    let limit = args.limit.clamp(1, xref::MAX_LIMIT) as usize;
    let offset = args.offset as usize;
    let page: Vec<(Arc<Path>, xref::ReferenceOut)> =
        if args.count_only { Vec::new() } else { flat.into_iter().skip(offset).take(limit).collect() };
    let end = offset + page.len();
    let mut out: Vec<xref::FileReferences> = Vec::new();
    // Only the page's lines are read.
    for (p, mut r) in page {
        r.text = xref::line_text(&mut texts, &p, r.line);
        let disp = ws.display_of(&p);
        match out.last_mut() {
            Some(f) if f.file == disp => f.references.push(r),
            _ => out.push(xref::FileReferences { file: disp, references: vec![r] }),
        }
    }
    let truncated = !args.count_only && end < total;
    // No Java use (or asked): the name's textual uses in views and configuration.
    let non_java = (args.include_non_java || total == 0).then(|| xref::non_java_matches(ws, &target, &args.paths));
    Ok(FindReferencesResult {
        target: target.label,
        target_kind: match target.category {
            mji_xref::Category::Type => "type",
            mji_xref::Category::Method => "method",
            mji_xref::Category::Ctor => "constructor",
            mji_xref::Category::Field => "field",
        }
        .into(),
        total: total as u64,
        truncated,
        next_offset: truncated.then_some(end as u64),
        files: out,
        counts: None,
        kind_counts,
        incomplete,
        incomplete_files: 0,
        overrider_references,
        hint: if overrider_references > 0 {
            format!(
                "{overrider_references} more reference(s) are bound to methods overriding it; pass includeOverriders: true to list them"
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
    .with_incomplete_count())
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
