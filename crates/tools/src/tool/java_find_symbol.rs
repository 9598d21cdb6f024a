//! `java_find_symbol`: finds types and members by name in the live index.

use crate::ToolError;
use crate::registry::Tool;
use crate::find;
use crate::host::Host;
use std::path::Path;
use serde::{Deserialize, Serialize};
use mji_index::live::LiveIndex;
use mji_index::matcher::{Pattern, wildcard_match};
use mji_index::symbols::{SymKind, SymView, Symbol};
use mji_model::TypeKind;
use crate::find::{IndexStatus, MAX_RESULTS, Scope, default_max, page_size};
use crate::tool::find_type::{FindTypeArgs, TypeFilter, TypeResult, find_library_types};
use crate::lines::{at, count, index_line, paging};
use std::fmt::Write;

pub(crate) struct JavaFindSymbol;

impl Tool for JavaFindSymbol {
    const NAME: &'static str = "java_find_symbol";
    const TITLE: &'static str = "Find symbols by name";
    const DESCRIPTION: &'static str = "Find types, methods and fields by name across the workspace (exact, prefix, camelCase `gSV`, substring, `*` wildcards; `Bar#doThing` or `com.foo.Bar` qualified), with their file and lines.";
    const WAITS_FOR_INDEX: bool = true;
    const ALIASES: &'static [(&'static str, &'static str)] = &[("rootDir", "root"), ("maxResults", "limit")];

    type Args = FindSymbolArgs;
    type Output = FindSymbolResult;

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
        output.keep_first(n, args.options.offset);
    }
}

/// `java_find_symbol`. A `rootDir` of `.` (or empty) searches every root.
pub fn run(ws: &Host, args: &FindSymbolArgs) -> Result<FindSymbolResult, ToolError> {
    let dir = args.root_dir.trim();
    let under = if dir.is_empty() || dir == "." || dir == "./" {
        None
    } else {
        let r = ws.resolve(dir)?;
        if !r.path.is_dir() {
            return Err(ToolError::InvalidArgument(format!("root {} is not a directory", args.root_dir)));
        }
        Some(r.path)
    };
    ws.wait_index();
    let libs = (args.options.scope != find::Scope::Workspace).then(|| ws.libraries());
    let mut r = find_symbol_scoped(ws.index(), under.as_deref(), libs.as_deref(), args)?;
    add_delegated(ws, under.as_deref(), args, &mut r)?;
    // Nothing matches, but a name a few edits away is declared: a typo, said as `refs` says it.
    if r.page.total == 0 && args.options.offset == 0 && args.options.scope != find::Scope::Libraries {
        let kind = args.options.match_kind;
        let keep = move |k: SymKind| match kind {
            MatchKind::Class => k.is_type(),
            MatchKind::Method => matches!(k, SymKind::Method | SymKind::Constructor),
            MatchKind::Field => matches!(k, SymKind::Field | SymKind::EnumConstant),
            MatchKind::Any => true,
        };
        let near = find::near_names(ws.index(), under.as_deref(), &args.query, &keep);
        if !near.is_empty() {
            return Err(find::no_match_but_near("symbol", &args.query, &near));
        }
    }
    r.index = find::IndexStatus::shown(r.index, args.options.include_index);
    Ok(r)
}

/// `Bar#doThing` or `com.foo.Bar`: the name is the last part, the rest (if any) must end the
/// qualified name's owner.
fn split_query(query: &str) -> (Option<String>, String) {
    match query.rsplit_once('#') {
        Some((o, n)) => (Some(o.to_owned()), n.to_owned()),
        None => match query.rsplit_once('.') {
            Some((o, n)) if !n.is_empty() => (Some(o.to_owned()), n.to_owned()),
            _ => (None, query.to_owned()),
        },
    }
}

/// Whether a symbol's container `own` is the query's owner `o` (its end, or a wildcard match).
fn owner_matches(o: &str, own: &str, cs: bool) -> bool {
    let (own, o) = if cs { (own.to_owned(), o.to_owned()) } else { (own.to_lowercase(), o.to_lowercase()) };
    own == o || own.ends_with(&format!(".{o}")) || (o.contains(['*', '?']) && wildcard_match(&o, &own, cs))
}

/// The methods Lombok's `@Delegate` generates that match the query, which the live index does
/// not hold (only the reference engine's world reads the delegate's type): appended after the
/// answer's other matches, counted in its total. Nothing is asked of the world unless an
/// indexed file has a `@Delegate` member and the query can match a method.
fn add_delegated(ws: &Host, under: Option<&Path>, args: &FindSymbolArgs, r: &mut FindSymbolResult) -> Result<(), ToolError> {
    let query = args.query.trim();
    if query.is_empty()
        || !matches!(args.options.match_kind, MatchKind::Any | MatchKind::Method)
        || args.options.scope == Scope::Libraries
        || ws.index().delegating_files().is_empty()
    {
        return Ok(());
    }
    let limit = page_size(args.options.max_results)?;
    let (owner, name) = split_query(query);
    let cs = args.options.case_sensitive;
    let pattern = Pattern::new(&name, cs);
    let (w, shown) = ws.xref_world();
    let mut hits: Vec<(mji_index::matcher::Tier, SymbolResult)> = Vec::new();
    for id in w.delegating_types() {
        let path = &w.files[w.file_of(id) as usize].path;
        if under.is_some_and(|u| !path.starts_with(u)) {
            continue;
        }
        let fqn = &w.decl(id).fqn;
        if owner.as_deref().is_some_and(|o| !owner_matches(o, fqn, cs)) {
            continue;
        }
        let Some(display) = shown.iter().find(|(p, _)| p == path).map(|(_, d)| d.clone()) else { continue };
        for m in crate::tool::java_index::delegated_decls(&w, id, fqn) {
            let Some(tier) = pattern.tier(&m.name) else { continue };
            hits.push((
                tier,
                SymbolResult {
                    file_path: display.clone(),
                    symbol_id: m.symbol_id.clone(),
                    kind: "method".to_owned(),
                    type_kind: None,
                    qualified_name: format!("{fqn}#{}", m.name),
                    start_line: m.start_line,
                    end_line: m.end_line,
                    signature_text: m.signature_text.clone(),
                    origin: None,
                    archive: None,
                    language: None,
                },
            ));
        }
    }
    if hits.is_empty() {
        return Ok(());
    }
    hits.sort_by(|a, b| {
        (a.0, a.1.qualified_name.len(), &a.1.qualified_name, &a.1.file_path, a.1.start_line).cmp(&(
            b.0,
            b.1.qualified_name.len(),
            &b.1.qualified_name,
            &b.1.file_path,
            b.1.start_line,
        ))
    });
    let before = r.page.total as usize;
    let offset = args.options.offset as usize;
    let room = limit.saturating_sub(r.results.len());
    r.results.extend(hits.iter().skip(offset.saturating_sub(before)).take(room).map(|(_, s)| s.clone()));
    r.page = crate::page::Page::of(u64::from(args.options.offset), r.results.len(), before + hits.len());
    Ok(())
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
    // (`kotlin` for a Kotlin source's declaration; Java's are not marked.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
}

crate::find::search_answer! {
    /// The answer of `java_find_symbol`.
    pub struct FindSymbolResult of SymbolResult {
        root_dir: String,
        query: String,
    }
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
    let (owner, name) = split_query(query);
    let cs = args.options.case_sensitive;
    let pattern = Pattern::new(&name, cs);
    let owner_ok = move |s: &SymView| owner.as_deref().is_none_or(|o| owner_matches(o, s.container(), cs));
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
                language: crate::find::language_of(&f.path),
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
        (r.results, r.page.total as usize)
    } else {
        (Vec::new(), 0)
    };
    let lib_start = offset.saturating_sub(ws_total);
    let room = limit.saturating_sub(results.len());
    results.extend(lib.page(libs, lib_start, room));
    let total = ws_total + lib.hits.len();
    Ok(FindSymbolResult {
        root_dir: args.root_dir.clone(),
        query: args.query.clone(),
        page: crate::page::Page::of(u64::from(args.options.offset), results.len(), total),
        results,
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
language: None,
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
language: None,
                    }
                }
            })
            .collect()
    }
}

/// `java_find_symbol`.
fn render(r: &FindSymbolResult) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} `{}`{}",
        count(r.page.total, "symbol matches", "symbols match"),
        r.query,
        paging(r.results.len(), r.page.next_offset)
    );
    for s in &r.results {
        let place = match &s.origin {
            Some(o) => o.clone(),
            None => at(&s.file_path, s.start_line, s.end_line),
        };
        let _ = writeln!(out, "{}  {place}  {}", s.qualified_name, s.signature_text);
    }
    index_line(&mut out, r.index.as_ref());
    out
}
