//! `find_type`: the IDE's Open Type.

use crate::ToolError;
use crate::registry::Tool;
use crate::find;
use crate::host::Host;
use std::path::Path;
use crate::find::{IndexStatus, Scope, default_max, page_size};
use crate::tool::java_index::javadoc_summary;
use serde::{Deserialize, Serialize};
use mji_index::live::LiveIndex;
use mji_index::matcher::{Pattern, wildcard_match};
use mji_index::symbols::{SymKind, SymView};
use mji_model::TypeKind;
use crate::lines::{at, count, index_line, paging};
use std::fmt::Write;

pub(crate) struct FindType;

impl Tool for FindType {
    const NAME: &'static str = "find_type";
    const TITLE: &'static str = "Open type";
    const DESCRIPTION: &'static str = "Find a type by name, prefix, camelCase (`NPE`), wildcard (`*Map`) or qualified pattern (`java.util.*Map`), like an IDE's Open Type.";
    const WAITS_FOR_INDEX: bool = true;
    const ALIASES: &'static [(&'static str, &'static str)] = &[("pattern", "query"), ("maxResults", "limit")];

    type Args = FindTypeArgs;
    type Output = FindTypeResult;

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

/// `find_type`.
pub fn run(ws: &Host, args: &FindTypeArgs) -> Result<FindTypeResult, ToolError> {
    let under = ws.chosen_root(&args.root)?;
    ws.wait_index();
    let libs = (args.scope != find::Scope::Workspace).then(|| ws.libraries());
    let mut r = find_type_scoped(ws.index(), under, libs.as_deref(), args)?;
    // Nothing matches, but a type a few edits away is declared: a typo, said as `refs` says it.
    if r.page.total == 0 && args.offset == 0 && args.scope != find::Scope::Libraries {
        let near = find::near_names(ws.index(), under, &args.pattern, &|k| k.is_type());
        if !near.is_empty() {
            return Err(find::no_match_but_near("type", &args.pattern, &near));
        }
    }
    r.index = find::IndexStatus::shown(r.index, args.include_index);
    Ok(r)
}

// Which types `find_type` considers (no doc comment: tools/list would carry it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum TypeFilter {
    Class,
    Interface,
    Enum,
    Record,
    Annotation,
    #[default]
    Any,
}

/// Arguments of `find_type`.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FindTypeArgs {
    #[serde(rename = "query")]
    pub pattern: String,
    #[serde(default)]
    pub kind: TypeFilter,
    #[serde(rename = "limit", default = "default_max")]
    pub max_results: u32,
    #[serde(default)]
    pub offset: u32,
    #[serde(default)]
    pub case_sensitive: bool,
    /// libraries: JDK + classpath jars.
    #[serde(default)]
    pub scope: Scope,
    /// Root name or path.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub root: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub include_index: bool,
}

/// One `find_type` result.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TypeResult {
    pub fqn: String,
    pub kind: String,
    pub file_path: String,
    pub start_line: u32,
    pub end_line: u32,
    pub modifiers: Vec<String>,
    /// The javadoc's first sentence (at most 160 characters); null without javadoc.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    pub symbol_id: String,
    /// jdk|classpath: a library type (filePath: its class name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
    // (The archive's path; no doc, which every client would pay for in tools/list.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub archive: Option<String>,
    // (`kotlin` for a Kotlin source's declaration; Java's are not marked.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
}

crate::find::search_answer! {
    /// The answer of `find_type`.
    pub struct FindTypeResult of TypeResult {
        query: String,
    }
}

/// `find_type` in the workspace, or only under `under` (a root).
pub fn find_type(index: &LiveIndex, under: Option<&Path>, args: &FindTypeArgs) -> Result<FindTypeResult, ToolError> {
    let limit = page_size(args.max_results)?;
    let raw = args.pattern.trim();
    if raw.is_empty() {
        return Err(ToolError::InvalidArgument(
            "query is empty; give a type name, prefix, camelCase (NPE) or wildcard (*Map)".to_owned(),
        ));
    }
    let cs = args.case_sensitive;
    let (qualifier, name) = match raw.rsplit_once('.') {
        Some((q, n)) => (Some(q.to_owned()), if n.is_empty() { "*".to_owned() } else { n.to_owned() }),
        None => (None, raw.to_owned()),
    };
    let pattern = Pattern::new(&name, cs);
    let filter = args.kind;
    let keep = move |p: &Path, s: &SymView| {
        let SymKind::Type(k) = s.kind() else { return false };
        if under.is_some_and(|u| !p.starts_with(u)) {
            return false;
        }
        let kind_ok = match filter {
            TypeFilter::Any => true,
            TypeFilter::Class => k == TypeKind::Class,
            TypeFilter::Interface => k == TypeKind::Interface,
            TypeFilter::Enum => k == TypeKind::Enum,
            TypeFilter::Record => k == TypeKind::Record,
            TypeFilter::Annotation => k == TypeKind::Annotation,
        };
        // The qualifier is the package or outer type (`java.util.Map.Entry`), or a tail of it
        // on a dot (`Map.Entry`, `util.Map.Entry`), as in an IDE's Open Type.
        kind_ok
            && qualifier.as_ref().is_none_or(|q| {
                let own = s.container();
                if q.contains(['*', '?']) {
                    wildcard_match(q, own, cs) || wildcard_match(&format!("*.{q}"), own, cs)
                } else {
                    let same = |a: &str| if cs { a == q } else { a.eq_ignore_ascii_case(q) };
                    let dotted_tail = own
                        .len()
                        .checked_sub(q.len() + 1)
                        .is_some_and(|dot| own.as_bytes()[dot] == b'.' && own.get(dot + 1..).is_some_and(same));
                    same(own) || dotted_tail
                }
            })
    };
    let page = index.find_symbols(&pattern, &keep, args.offset as usize, limit);
    let results: Vec<TypeResult> = page
        .items
        .iter()
        .map(|f| TypeResult {
            fqn: f.symbol.qualified_name.to_string(),
            kind: match f.symbol.kind {
                SymKind::Type(k) => k.as_str().to_owned(),
                _ => String::new(),
            },
            file_path: index.roots().display(&f.path, f.root),
            start_line: f.symbol.start_line,
            end_line: f.symbol.end_line,
            modifiers: f.symbol.modifiers.iter().map(|m| m.to_string()).collect(),
            summary: f.symbol.javadoc.and_then(|l| javadoc_summary(&f.path, l)),
            symbol_id: f.symbol.symbol_id.to_string(),
            origin: None,
            archive: None,
                language: crate::find::language_of(&f.path),
        })
        .collect();
    Ok(FindTypeResult::page(args.pattern.clone(), results, args.offset, index, &page))
}

/// The public library types matching `args`, best first (tier, then shorter names): every
/// match, as results (the library index is in memory; the caller pages).
pub fn find_library_types(libs: &mji_classfile::LibraryIndex, args: &FindTypeArgs) -> Vec<TypeResult> {
    use mji_classfile::reader::acc;
    let raw = args.pattern.trim();
    let cs = args.case_sensitive;
    let (qualifier, name) = match raw.rsplit_once('.') {
        Some((q, n)) => (Some(q), if n.is_empty() { "*" } else { n }),
        None => (None, raw),
    };
    let pattern = Pattern::new(name, cs);
    let mut hits: Vec<(mji_index::matcher::Tier, String, &mji_classfile::LibraryClass)> = Vec::new();
    for c in &libs.classes {
        if c.access & acc::PUBLIC == 0 {
            continue;
        }
        let kind = library_kind(c.access);
        let kind_ok = match args.kind {
            TypeFilter::Any => true,
            TypeFilter::Class => kind == TypeKind::Class,
            TypeFilter::Interface => kind == TypeKind::Interface,
            TypeFilter::Enum => kind == TypeKind::Enum,
            // A class file's header does not say record; the outline does.
            TypeFilter::Record => false,
            TypeFilter::Annotation => kind == TypeKind::Annotation,
        };
        if !kind_ok {
            continue;
        }
        let Some(tier) = pattern.tier(c.simple()) else { continue };
        let fqn = c.qualified();
        let own = fqn.rsplit_once('.').map_or("", |(o, _)| o);
        let q_ok = qualifier.is_none_or(|q| {
            if q.contains(['*', '?']) {
                wildcard_match(q, own, cs) || wildcard_match(&format!("*.{q}"), own, cs)
            } else {
                let same = |a: &str| if cs { a == q } else { a.eq_ignore_ascii_case(q) };
                same(own)
                    || own.len() > q.len()
                        && own.as_bytes()[own.len() - q.len() - 1] == b'.'
                        && own.get(own.len() - q.len()..).is_some_and(same)
            }
        });
        if q_ok {
            hits.push((tier, fqn, c));
        }
    }
    hits.sort_by(|a, b| (a.0, a.2.simple().len(), &a.1).cmp(&(b.0, b.2.simple().len(), &b.1)));
    hits.into_iter()
        .map(|(_, fqn, c)| {
            let a = libs.archive_of(c);
            let kind = library_kind(c.access);
            let mut modifiers = vec!["public".to_owned()];
            if c.access & acc::ABSTRACT != 0 && matches!(kind, TypeKind::Class) {
                modifiers.push("abstract".to_owned());
            }
            if c.access & acc::FINAL != 0 && matches!(kind, TypeKind::Class) {
                modifiers.push("final".to_owned());
            }
            TypeResult {
                symbol_id: mji_model::SymbolId::class(&fqn, 0, 0).to_string(),
                file_path: fqn.clone(),
                fqn,
                kind: kind.as_str().to_owned(),
                start_line: 0,
                end_line: 0,
                modifiers,
                summary: None,
                origin: Some(a.origin.as_str().to_owned()),
                archive: Some(a.path.display().to_string()),
                // A class compiled from Kotlin (its `kotlin.Metadata`) says so; Java's are not marked.
                language: c.is_kotlin().then(|| "kotlin".to_owned()),
            }
        })
        .collect()
}

fn library_kind(access: u16) -> TypeKind {
    use mji_classfile::reader::acc;
    if access & acc::ANNOTATION != 0 {
        TypeKind::Annotation
    } else if access & acc::INTERFACE != 0 {
        TypeKind::Interface
    } else if access & acc::ENUM != 0 {
        TypeKind::Enum
    } else {
        TypeKind::Class
    }
}

/// `find_type` over `scope`: the workspace's matches (under `under`, a root, when given)
/// first, then the libraries'.
pub fn find_type_scoped(
    index: &LiveIndex,
    under: Option<&Path>,
    libs: Option<&mji_classfile::LibraryIndex>,
    args: &FindTypeArgs,
) -> Result<FindTypeResult, ToolError> {
    let Some(libs) = libs.filter(|_| args.scope != Scope::Workspace) else {
        return find_type(index, under, args);
    };
    let limit = page_size(args.max_results)?;
    let lib = find_library_types(libs, args);
    let offset = args.offset as usize;
    let (mut results, ws_total, progress) = if args.scope == Scope::All {
        let mut ws_args = args.clone();
        ws_args.scope = Scope::Workspace;
        let r = find_type(index, under, &ws_args)?;
        (r.results, r.page.total as usize, index.progress())
    } else {
        (Vec::new(), 0, index.progress())
    };
    let lib_start = offset.saturating_sub(ws_total);
    let room = limit.saturating_sub(results.len());
    let first_lib = results.len();
    results.extend(lib.iter().skip(lib_start).take(room).cloned());
    describe_kotlin(libs, &mut results[first_lib..]);
    let total = ws_total + lib.len();
    Ok(FindTypeResult {
        query: args.pattern.clone(),
        page: crate::page::Page::of(u64::from(args.offset), results.len(), total),
        results,
        index: Some(IndexStatus { library_notes: libs.notes(), ..IndexStatus::with_progress(index, progress) }),
    })
}

/// The page's library types compiled from Kotlin described as Kotlin declares them (`Kotlin
/// data class`, `Kotlin file facade of Strings.kt`), in their `summary`; each archive opened once.
fn describe_kotlin(libs: &mji_classfile::LibraryIndex, results: &mut [TypeResult]) {
    let mut open: std::collections::HashMap<std::path::PathBuf, Option<mji_classfile::Archive>> = Default::default();
    for r in results.iter_mut().filter(|r| r.language.as_deref() == Some("kotlin")) {
        let Some(c) = libs.get(&r.fqn) else { continue };
        let path = libs.archive_of(c).path.clone();
        let archive = open.entry(path).or_insert_with_key(|p| mji_classfile::Archive::open(p, libs.max_entries).ok());
        if let Some(a) = archive {
            // At most 160 characters, as a javadoc summary is.
            r.summary = mji_classfile::kotlin_summary(a, &c.internal).map(|s| match s.char_indices().nth(159) {
                Some((i, _)) => format!("{}…", &s[..i]),
                None => s,
            });
        }
    }
}

/// `find_type`.
fn render(r: &FindTypeResult) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} `{}`{}",
        count(r.page.total, "type matches", "types match"),
        r.query,
        paging(r.results.len(), r.page.next_offset)
    );
    for t in &r.results {
        let simple = t.fqn.rsplit('.').next().unwrap_or(&t.fqn);
        let word = if t.kind == "annotation" { "@interface" } else { t.kind.as_str() };
        let mut head = t.modifiers.join(" ");
        if !head.is_empty() {
            head.push(' ');
        }
        let _ = write!(head, "{word} {simple}");
        let place = match (&t.origin, &t.language) {
            (Some(o), Some(l)) => format!("{o}, {l}"),
            (Some(o), None) => o.clone(),
            (None, _) => at(&t.file_path, t.start_line, t.end_line),
        };
        let _ = write!(out, "{}  {place}  {head}", t.fqn);
        if let Some(s) = &t.summary {
            let _ = write!(out, " — {s}");
        }
        out.push('\n');
    }
    index_line(&mut out, r.index.as_ref());
    out
}
