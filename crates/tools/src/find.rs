//! The workspace search tools: `java_find_symbol` (spec §5.4), `find_type` (the IDE's Open
//! Type) and `find_resource` (Open Resource), over the live index. Every answer is bounded,
//! says its `total`, whether it was `truncated`, the `nextOffset` to page on, and whether the
//! index was `complete` when it answered.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::ToolError;
use mji_index::live::{LiveIndex, Progress};
use mji_index::matcher::{Pattern, wildcard_match};
use mji_index::symbols::{SymKind, SymView, Symbol};
use mji_model::TypeKind;

/// Largest page any search returns.
pub(crate) const MAX_RESULTS: u32 = 500;

fn default_max() -> u32 {
    50
}

// Which symbols `java_find_symbol` considers (no doc comment: tools/list would carry it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum MatchKind {
    /// Types (classes, interfaces, enums, records, annotation types).
    Class,
    /// Methods and constructors.
    Method,
    /// Fields and enum constants.
    Field,
    #[default]
    Any,
}

/// The options of `java_find_symbol`, flat beside its `query` (the spec's `options` object
/// is still taken: see `registry::normalize`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct FindSymbolOptions {
    pub match_kind: MatchKind,
    /// At most 500.
    #[serde(rename = "limit")]
    pub max_results: u32,
    pub case_sensitive: bool,
    pub offset: u32,
    /// libraries: JDK + classpath jars.
    pub scope: Scope,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub include_index: bool,
}

impl Default for FindSymbolOptions {
    fn default() -> Self {
        FindSymbolOptions {
            match_kind: MatchKind::Any,
            max_results: default_max(),
            case_sensitive: false,
            offset: 0,
            scope: Scope::Workspace,
            include_index: false,
        }
    }
}

fn whole_workspace() -> String {
    ".".to_owned()
}

/// Arguments of `java_find_symbol` (unknown names are refused by `registry::normalize`:
/// serde cannot deny them beside a flattened struct).
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FindSymbolArgs {
    /// A root's name or a folder; `.` (the default): the whole workspace.
    #[serde(rename = "root", default = "whole_workspace")]
    pub root_dir: String,
    pub query: String,
    #[serde(flatten)]
    pub options: FindSymbolOptions,
}

/// One `java_find_symbol` result.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SymbolResult {
    pub file_path: String,
    pub symbol_id: String,
    /// class, method, field or constructor (enum constants are fields; every type is a class,
    /// with its exact kind in typeKind).
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub type_kind: Option<String>,
    /// `com.foo.Bar` for types, `com.foo.Bar#doThing` for members.
    pub qualified_name: String,
    pub start_line: u32,
    pub end_line: u32,
    pub signature_text: String,
    /// jdk|classpath: a library symbol (filePath: its class name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
    // (The archive's path; no doc, which every client would pay for in tools/list.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub archive: Option<String>,
}

/// How complete the index was when a search answered.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct IndexStatus {
    /// False while the first indexing pass is still running: results may be missing.
    pub complete: bool,
    pub indexed_files: u64,
    pub total_files: u64,
    /// Directories named `target`, `build` or `out` that were not indexed because they are
    /// build output, per reason (a directory of that name in a package tree is indexed).
    pub skipped_dirs: SkippedDirsStatus,
    /// Java files not indexed: over the size cap (`max_file_bytes`) or not regular files.
    pub skipped_files: u64,
    /// Some of them, each with the reason (at most 5).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<String>,
    /// `find_references`: the files whose references the reference index held when the call
    /// began. The others were read and bound for the answer, which is complete either way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bound_files: Option<u64>,
    /// Library archives read in part (over `max_archive_entries`) or not at all, with why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub library_notes: Vec<String>,
}

/// Build-output directories left out of the index, by why they were judged build output.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SkippedDirsStatus {
    /// Beside a `pom.xml`.
    pub maven: u64,
    /// Beside a Gradle build or settings file.
    pub gradle: u64,
    /// Beside an IntelliJ module (`.iml`, `.idea`) or an Ant `build.xml`.
    pub ide: u64,
    /// Holding what builds leave (`classes`, `maven-status`, `tmp`, …), with no build file beside.
    pub markers: u64,
}

impl From<mji_fs::walk::SkippedDirs> for SkippedDirsStatus {
    fn from(s: mji_fs::walk::SkippedDirs) -> Self {
        SkippedDirsStatus {
            maven: s.maven as u64,
            gradle: s.gradle as u64,
            ide: s.ide as u64,
            markers: s.markers as u64,
        }
    }
}

impl IndexStatus {
    /// Whether an agent needs the status: the index was incomplete, files were skipped or a
    /// library read in part (an answer may miss something), or the call asked for it.
    pub fn matters(&self) -> bool {
        !self.complete || self.skipped_files > 0 || !self.library_notes.is_empty()
    }

    /// The status an answer carries: when it [`IndexStatus::matters`] or `asked` (`includeIndex`).
    pub fn shown(status: Option<IndexStatus>, asked: bool) -> Option<IndexStatus> {
        status.filter(|s| asked || s.matters())
    }

    /// The status of an index: its progress and the directories its walk skipped.
    pub fn of(index: &LiveIndex) -> IndexStatus {
        IndexStatus::with_progress(index, index.progress())
    }

    /// The status of an index at the progress a query saw.
    pub(crate) fn with_progress(index: &LiveIndex, p: Progress) -> IndexStatus {
        let mut s = IndexStatus::from(p);
        s.skipped_dirs = index.skipped_dirs().into();
        if p.skipped > 0 {
            s.skipped = index.skipped(5);
        }
        s
    }
}

impl From<Progress> for IndexStatus {
    fn from(p: Progress) -> Self {
        IndexStatus {
            complete: p.complete,
            indexed_files: p.indexed as u64,
            total_files: p.total as u64,
            skipped_dirs: SkippedDirsStatus::default(),
            skipped_files: p.skipped as u64,
            skipped: Vec::new(),
            bound_files: None,
            library_notes: Vec::new(),
        }
    }
}

/// Declares the answer of a search: its own fields, then one page of `results` with the
/// paging every search shares (`total`, `truncated`, `nextOffset`) and the index status; and
/// the answer budget's cut of the page (`keep_first`).
macro_rules! search_answer {
    (
        $(#[$meta:meta])*
        pub struct $name:ident of $result:ty {
            $($field:ident: $ty:ty,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
        #[serde(rename_all = "camelCase")]
        pub struct $name {
            $(pub $field: $ty,)*
            pub results: Vec<$result>,
            /// Matches in all, over every page.
            pub total: u64,
            /// True when more matches exist after this page.
            pub truncated: bool,
            /// The offset of the next page; null on the last page.
            #[serde(skip_serializing_if = "Option::is_none")]
            pub next_offset: Option<u64>,
            /// Only when incomplete, files were skipped, or `includeIndex`.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub index: Option<IndexStatus>,
        }

        impl $name {
            /// The answer of one page of `results` out of `total` matches, starting at `offset`,
            /// with the index's progress as the query saw it.
            fn page(
                $($field: $ty,)*
                results: Vec<$result>,
                offset: u32,
                index: &LiveIndex,
                page: &mji_index::live::Page<impl Sized>,
            ) -> Self {
                let (truncated, next_offset) = paging(offset, results.len(), page.total);
                $name {
                    $($field,)*
                    results,
                    total: page.total as u64,
                    truncated,
                    next_offset,
                    index: Some(IndexStatus::with_progress(index, page.progress)),
                }
            }

            /// The answer budget's cut of the page: keeps the first `n` results and says where
            /// the next page starts.
            pub(crate) fn keep_first(&mut self, n: usize, offset: u32) {
                if n < self.results.len() {
                    self.results.truncate(n);
                    self.truncated = true;
                    self.next_offset = Some(u64::from(offset) + n as u64);
                }
            }
        }
    };
}

search_answer! {
    /// The answer of `java_find_symbol`.
    pub struct FindSymbolResult of SymbolResult {
        root_dir: String,
        query: String,
    }
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

/// Where a search looks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    #[default]
    Workspace,
    Libraries,
    All,
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
}

search_answer! {
    /// The answer of `find_type`.
    pub struct FindTypeResult of TypeResult {
        query: String,
    }
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

search_answer! {
    /// The answer of `find_resource`.
    pub struct FindResourceResult of ResourceResult {
        query: String,
    }
}

fn page_size(max: u32) -> Result<usize, ToolError> {
    if max == 0 {
        return Err(ToolError::InvalidArgument("limit must be at least 1".to_owned()));
    }
    Ok(max.min(MAX_RESULTS) as usize)
}

fn paging(offset: u32, shown: usize, total: usize) -> (bool, Option<u64>) {
    let end = offset as usize + shown;
    let more = end < total;
    (more, more.then_some(end as u64))
}

fn kind_word(k: SymKind) -> (&'static str, Option<String>) {
    match k {
        SymKind::Type(t) => ("class", Some(t.as_str().to_owned())),
        SymKind::Method => ("method", None),
        SymKind::Constructor => ("constructor", None),
        SymKind::Field | SymKind::EnumConstant => ("field", None),
    }
}

/// `java_find_symbol`.
pub(crate) fn find_symbol(
    index: &LiveIndex,
    under: Option<&Path>,
    args: &FindSymbolArgs,
) -> Result<FindSymbolResult, ToolError> {
    let limit = page_size(args.options.max_results)?;
    let query = args.query.trim();
    if query.is_empty() {
        return Err(ToolError::InvalidArgument(
            "query is empty; give a name such as doThing, a prefix, or camelCase initials".to_owned(),
        ));
    }
    let mk = args.options.match_kind;
    let kind_ok = move |k: SymKind| match mk {
        MatchKind::Any => true,
        MatchKind::Class => k.is_type(),
        MatchKind::Method => matches!(k, SymKind::Method | SymKind::Constructor),
        MatchKind::Field => matches!(k, SymKind::Field | SymKind::EnumConstant),
    };
    // `Bar#doThing` or `com.foo.Bar`: the name is the last part, the rest must end the
    // qualified name's owner.
    let (owner, name) = match query.rsplit_once('#') {
        Some((o, n)) => (Some(o.to_owned()), n.to_owned()),
        None => match query.rsplit_once('.') {
            Some((o, n)) if !n.is_empty() => (Some(o.to_owned()), n.to_owned()),
            _ => (None, query.to_owned()),
        },
    };
    let cs = args.options.case_sensitive;
    let pattern = Pattern::new(&name, cs);
    let owner_ok = move |s: &SymView| match &owner {
        None => true,
        Some(o) => {
            let own = s.container();
            let (own, o) = if cs { (own.to_owned(), o.clone()) } else { (own.to_lowercase(), o.to_lowercase()) };
            own == o || own.ends_with(&format!(".{o}")) || (o.contains(['*', '?']) && wildcard_match(&o, &own, cs))
        }
    };
    let keep = |p: &Path, s: &SymView| kind_ok(s.kind()) && under.is_none_or(|u| p.starts_with(u)) && owner_ok(s);
    let page = index.find_symbols(&pattern, &keep, args.options.offset as usize, limit);
    let results: Vec<SymbolResult> = page
        .items
        .iter()
        .map(|f| {
            let (kind, type_kind) = kind_word(f.symbol.kind);
            SymbolResult {
                file_path: index.roots().display(&f.path, f.root),
                symbol_id: f.symbol.symbol_id.to_string(),
                kind: kind.to_owned(),
                type_kind,
                qualified_name: f.symbol.qualified_name.to_string(),
                start_line: f.symbol.start_line,
                end_line: f.symbol.end_line,
                signature_text: if f.symbol.kind.is_type() {
                    type_signature(&f.symbol)
                } else {
                    f.symbol.signature.to_string()
                },
                origin: None,
                archive: None,
            }
        })
        .collect();
    Ok(FindSymbolResult::page(args.root_dir.clone(), args.query.clone(), results, args.options.offset, index, &page))
}

fn type_signature(s: &Symbol) -> String {
    let kind = match s.kind {
        SymKind::Type(TypeKind::Annotation) => "@interface",
        SymKind::Type(k) => k.as_str(),
        _ => "",
    };
    let mut out = String::new();
    for m in s.modifiers.iter() {
        out.push_str(m);
        out.push(' ');
    }
    out.push_str(kind);
    out.push(' ');
    out.push_str(&s.name);
    out
}

/// The first sentence of a javadoc (lines `start..=end` of a file), at most 160 characters.
pub(crate) fn javadoc_summary(path: &Path, lines: (u32, u32)) -> Option<String> {
    let bytes = mji_fs::read_regular(path, crate::MAX_FILE_BYTES).ok()?;
    let raw = mji_parser::SourceText::decode_lines(&bytes, lines.0, lines.1);
    let start = raw.find("/**")?;
    let end = raw.rfind("*/").filter(|&e| e >= start)?;
    let text = crate::java_index::javadoc_plain_text(&raw[start..end + 2]);
    let first_tag = text.find(" @").map_or(text.len(), |i| i);
    let text = &text[..first_tag];
    let sentence = match text.find(". ") {
        Some(i) => &text[..=i],
        None => text,
    };
    let mut s = sentence.trim().to_owned();
    if crate::truncate_chars(&mut s, 160) {
        s.push('…');
    }
    (!s.is_empty()).then_some(s)
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
        (r.results, r.total as usize, index.progress())
    } else {
        (Vec::new(), 0, index.progress())
    };
    let lib_start = offset.saturating_sub(ws_total);
    let room = limit.saturating_sub(results.len());
    results.extend(lib.iter().skip(lib_start).take(room).cloned());
    let total = ws_total + lib.len();
    let (truncated, next_offset) = paging(args.offset, results.len(), total);
    Ok(FindTypeResult {
        query: args.pattern.clone(),
        results,
        total: total as u64,
        truncated,
        next_offset,
        index: Some(IndexStatus { library_notes: libs.notes(), ..IndexStatus::with_progress(index, progress) }),
    })
}

/// `java_find_symbol` over `scope`: the workspace's matches first, then the libraries':
/// their types and their classes' members (the library index's member table), ranked as the
/// workspace's are (tier, kind, name length, name, owner).
pub(crate) fn find_symbol_scoped(
    index: &LiveIndex,
    under: Option<&Path>,
    libs: Option<&mji_classfile::LibraryIndex>,
    args: &FindSymbolArgs,
) -> Result<FindSymbolResult, ToolError> {
    let Some(libs) = libs.filter(|_| args.options.scope != Scope::Workspace) else {
        return find_symbol(index, under, args);
    };
    let limit = page_size(args.options.max_results)?;
    let query = args.query.trim();
    if query.is_empty() {
        return find_symbol(index, under, args);
    }
    let lib = LibraryHits::find(libs, args);
    let offset = args.options.offset as usize;
    let (mut results, ws_total) = if args.options.scope == Scope::All {
        let mut ws_args = args.clone();
        ws_args.options.scope = Scope::Workspace;
        let r = find_symbol(index, under, &ws_args)?;
        (r.results, r.total as usize)
    } else {
        (Vec::new(), 0)
    };
    let lib_start = offset.saturating_sub(ws_total);
    let room = limit.saturating_sub(results.len());
    results.extend(lib.page(libs, lib_start, room));
    let total = ws_total + lib.hits.len();
    let (truncated, next_offset) = paging(args.options.offset, results.len(), total);
    Ok(FindSymbolResult {
        root_dir: args.root_dir.clone(),
        query: args.query.clone(),
        results,
        total: total as u64,
        truncated,
        next_offset,
        index: Some(IndexStatus { library_notes: libs.notes(), ..IndexStatus::with_progress(index, index.progress()) }),
    })
}

/// The library matches of a `java_find_symbol` query, ranked; rendered a page at a time.
struct LibraryHits {
    types: Vec<TypeResult>,
    /// (rank key, what): a type by its position in `types`, or a member by its name's and
    /// its own position in the member table.
    hits: Vec<LibraryHit>,
}

#[derive(Clone, Copy)]
enum LibraryHit {
    Type(usize),
    Member(usize, usize),
}

impl LibraryHits {
    fn find(libs: &mji_classfile::LibraryIndex, args: &FindSymbolArgs) -> LibraryHits {
        use mji_classfile::members::MemberKind;
        let query = args.query.trim();
        let cs = args.options.case_sensitive;
        let mk = args.options.match_kind;
        // (tier, kind rank, name length, name, owner, signature) as the workspace ranks.
        type Key<'a> = (mji_index::matcher::Tier, u8, usize, &'a str, &'a str, &'a str);
        let mut keyed: Vec<(Key, LibraryHit)> = Vec::new();
        let types: Vec<TypeResult> = if matches!(mk, MatchKind::Any | MatchKind::Class) && !query.contains('#') {
            let type_args = FindTypeArgs {
                pattern: query.to_owned(),
                kind: TypeFilter::Any,
                max_results: MAX_RESULTS,
                offset: 0,
                case_sensitive: cs,
                scope: Scope::Libraries,
                root: String::new(),
                include_index: false,
            };
            find_library_types(libs, &type_args)
        } else {
            Vec::new()
        };
        let simple_pattern = {
            let raw = query.rsplit_once('.').map_or(query, |(_, n)| if n.is_empty() { "*" } else { n });
            Pattern::new(raw, cs)
        };
        for (i, t) in types.iter().enumerate() {
            let simple = t.fqn.rsplit('.').next().unwrap_or(&t.fqn);
            if let Some(tier) = simple_pattern.tier(simple) {
                keyed.push(((tier, 0, simple.len(), simple, &t.fqn, ""), LibraryHit::Type(i)));
            }
        }
        if !matches!(mk, MatchKind::Class) {
            // `Bar#doThing` or `Bar.doThing`: the name is the last part, the rest must end the
            // owner's qualified name.
            let (owner, name) = match query.rsplit_once('#') {
                Some((o, n)) => (Some(o), n),
                None => match query.rsplit_once('.') {
                    Some((o, n)) if !n.is_empty() => (Some(o), n),
                    _ => (None, query),
                },
            };
            let pattern = Pattern::new(name, cs);
            let owner_ok = |own: &str| match owner {
                None => true,
                Some(o) => {
                    let (own, o) =
                        if cs { (own.to_owned(), o.to_owned()) } else { (own.to_lowercase(), o.to_lowercase()) };
                    own == o
                        || own.ends_with(&format!(".{o}"))
                        || (o.contains(['*', '?']) && wildcard_match(&o, &own, cs))
                }
            };
            let table = libs.members();
            for (ni, n) in table.names.iter().enumerate() {
                let Some(tier) = pattern.tier(n) else { continue };
                for (mi, m) in table.members[ni].iter().enumerate() {
                    let rank = match m.kind {
                        MemberKind::Method => 1,
                        MemberKind::Constructor => 2,
                        MemberKind::Field => 3,
                        MemberKind::EnumConstant => 4,
                    };
                    let wanted = match mk {
                        MatchKind::Any => true,
                        MatchKind::Class => false,
                        MatchKind::Method => rank <= 2,
                        MatchKind::Field => rank >= 3,
                    };
                    if !wanted {
                        continue;
                    }
                    let class = &libs.classes[m.class as usize];
                    if owner.is_none() || owner_ok(&class.qualified()) {
                        keyed.push((
                            (tier, rank, n.len(), n, &class.internal, m.signature()),
                            LibraryHit::Member(ni, mi),
                        ));
                    }
                }
            }
        }
        keyed.sort_by(|a, b| a.0.cmp(&b.0));
        let hits = keyed.into_iter().map(|(_, h)| h).collect();
        LibraryHits { types, hits }
    }

    /// Results `start..start + len` of the ranked matches.
    fn page(&self, libs: &mji_classfile::LibraryIndex, start: usize, len: usize) -> Vec<SymbolResult> {
        use mji_classfile::members::{MemberKind, render_signature};
        use mji_model::{SymbolId, SymbolKind};
        let table = libs.members();
        self.hits
            .iter()
            .skip(start)
            .take(len)
            .map(|h| match *h {
                LibraryHit::Type(i) => {
                    let t = &self.types[i];
                    SymbolResult {
                        signature_text: format!("{} {} {}", t.modifiers.join(" "), t.kind, t.fqn)
                            .trim_start()
                            .to_owned(),
                        file_path: t.file_path.clone(),
                        symbol_id: t.symbol_id.clone(),
                        kind: "class".to_owned(),
                        type_kind: Some(t.kind.clone()),
                        qualified_name: t.fqn.clone(),
                        start_line: t.start_line,
                        end_line: t.end_line,
                        origin: t.origin.clone(),
                        archive: t.archive.clone(),
                    }
                }
                LibraryHit::Member(ni, mi) => {
                    let (name, m) = (&*table.names[ni], &table.members[ni][mi]);
                    let c = &libs.classes[m.class as usize];
                    let owner = c.qualified();
                    let a = libs.archive_of(c);
                    let sig = mji_classfile::signature::method(m.signature());
                    let types = sig.as_ref().map(|s| s.params.join(",")).unwrap_or_default();
                    let (kind, id) = match m.kind {
                        MemberKind::Method => (
                            "method",
                            SymbolId::member(
                                SymbolKind::Method,
                                &owner,
                                SymbolId::method_member(name, &types, sig.as_ref().map_or("", |s| &s.ret)),
                                0,
                                0,
                            ),
                        ),
                        MemberKind::Constructor => (
                            "constructor",
                            SymbolId::member(SymbolKind::Ctor, &owner, SymbolId::ctor_member(name, &types), 0, 0),
                        ),
                        MemberKind::Field => {
                            ("field", SymbolId::member(SymbolKind::Field, &owner, name.to_owned(), 0, 0))
                        }
                        MemberKind::EnumConstant => {
                            ("field", SymbolId::member(SymbolKind::EnumConstant, &owner, name.to_owned(), 0, 0))
                        }
                    };
                    SymbolResult {
                        file_path: owner.clone(),
                        symbol_id: id.to_string(),
                        kind: kind.to_owned(),
                        type_kind: None,
                        qualified_name: format!("{owner}#{name}"),
                        start_line: 0,
                        end_line: 0,
                        signature_text: render_signature(name, m),
                        origin: Some(a.origin.as_str().to_owned()),
                        archive: Some(a.path.display().to_string()),
                    }
                }
            })
            .collect()
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
