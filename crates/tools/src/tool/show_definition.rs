//! `show_definition`: where a name is defined.

use crate::ToolError;
use crate::registry::{Start, Tool};
use crate::read_error;
use crate::xref;
use crate::host::Host;
use std::path::Path;
use mji_model::{FileOutline, TypeDecl as OutlineType};
use mji_xref::world::{Origin, World};
use mji_xref::Category;
use crate::xref::{Candidate, is_zero, kind_name, name_of_key};
use serde::{Deserialize, Serialize};
use crate::lines::{at, count, origin_word};
use std::fmt::Write;
use mji_classfile::library::Origin as LibraryOrigin;

pub(crate) struct ShowDefinition;

impl Tool for ShowDefinition {
    const NAME: &'static str = "show_definition";
    const TITLE: &'static str = "Show definition";
    const DESCRIPTION: &'static str = "Go to definition: where a name (`Bar`, `doThing`, `Bar.doThing`, `com.foo.Bar#count`) is declared, with lines and signature. With `filePath`+`line` of a use it is resolved exactly. open: show it in the editor.";
    const WAITS_FOR_INDEX: bool = true;
    const START: Start = Start::World { references: false };

    type Args = ShowDefinitionArgs;
    type Output = ShowDefinitionResult;

    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError> {
        let mut r = run(ws, &args)?;
        if args.open {
            r.opened = Some(match r.definitions.iter().find_map(|d| Some((d.file.clone()?, d.start_line?))) {
                Some((file, line)) => crate::editor::open_in_editor(ws, &file, line, 0),
                None => crate::editor::Opened {
                    success: false,
                    editor: String::new(),
                    file_path: String::new(),
                    line: 0,
                    message: "no definition in a workspace file to show".into(),
                },
            });
        }
        Ok(r)
    }

    fn render(output: &Self::Output) -> Option<String> {
        Some(render(output))
    }
}

/// `show_definition`.
pub fn run(ws: &Host, args: &ShowDefinitionArgs) -> Result<ShowDefinitionResult, ToolError> {
    if args.symbol.trim().is_empty() {
        return Err(ToolError::InvalidArgument("symbol is empty".into()));
    }
    let (w, _) = ws.xref_world();
    let mut ctx_file = None;
    let mut exact: Vec<xref::Candidate> = Vec::new();
    if !args.file_path.trim().is_empty() {
        let r = ws.resolve(&args.file_path)?;
        ws.check_file(&r.path, &r.display)?;
        let fi = mji_xref::engine::file_index(&w, &r.path);
        ctx_file = (fi != u32::MAX).then_some(fi);
        if args.line > 0 {
            let line = args.line;
            let name = args.symbol.trim().rsplit(['.', '#']).next().unwrap_or("").to_string();
            let name = name.split('(').next().unwrap_or_default().trim().to_owned();
            // The symbol must be at the position given: never another name on that line.
            let bytes = ws.roots().read(&r.path, &r.display).map_err(read_error)?;
            let src = mji_parser::SourceText::decode(&bytes);
            let text = src.lines.line_text(&src.text, line).to_string();
            let col = if args.column > 0 {
                let there = word_at(&text, args.column);
                if !name.is_empty() && there != Some(name.as_str()) {
                    return Err(ToolError::NoSuchSymbol(format!(
                        "`{}` is not at line {line}, column {} of {}: {}; give its own position, or leave out line and column to look it up by name",
                        mji_fs::clip(&name),
                        args.column,
                        r.display,
                        there.map_or("no name is there".to_owned(), |w| format!("`{w}` is there"))
                    )));
                }
                Some(args.column)
            } else {
                match find_word(&text, &name) {
                    Some(i) => Some(text[..i].encode_utf16().count() as u32 + 1),
                    None => {
                        return Err(ToolError::NoSuchSymbol(format!(
                            "`{}` does not occur on line {line} of {}, which reads `{}`; give the line where it occurs, or leave out line to look it up by name",
                            mji_fs::clip(&name),
                            r.display,
                            mji_fs::clip(text.trim())
                        )));
                    }
                }
            };
            // At a position the answer is its binding, or why there is none: never a search
            // by name, whose candidates need not be what is there.
            let t = xref::target_at(ws.xref(), &w, &r.path, line, col).map_err(|e| {
                ToolError::NoSuchSymbol(format!(
                    "{e} (in {}); leave out line and column to look it up by name",
                    r.display
                ))
            })?;
            {
                for k in &t.keys {
                    let owner = k.split('#').next().unwrap_or(k);
                    let id = w.workspace_type(owner);
                    let line = t.decls.iter().find(|_| true).map(|d| d.1).unwrap_or(0);
                    exact.push(xref::Candidate {
                        key: k.clone(),
                        category: t.category,
                        type_id: id,
                        line,
                        rank: 0,
                    });
                }
                if t.keys.len() == 1 {
                    exact[0].line = t.decls.first().map(|d| d.1).unwrap_or_else(|| id_line(&w, &exact[0]));
                }
            }
        }
    }
    use crate::find::Scope;
    let limit = args.limit.clamp(1, 200) as usize;
    // A candidate with a workspace type is the workspace's; the others the libraries'.
    let in_scope = |c: &xref::Candidate| match args.scope {
        Scope::Workspace => c.type_id.is_some(),
        Scope::Libraries => c.type_id.is_none(),
        Scope::All => true,
    };
    let resolved_here = !exact.is_empty();
    exact.retain(in_scope);
    let (resolution, list) = if !exact.is_empty() {
        ("exact", exact)
    } else if resolved_here {
        return Err(ToolError::NoSuchSymbol(format!(
            "{} at that position is defined outside scope {}; scope all shows it",
            args.symbol.trim(),
            serde_json::to_value(args.scope).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
        )));
    } else {
        let c =
            if args.scope == Scope::Libraries { Vec::new() } else { xref::candidates(&w, &args.symbol, ctx_file) };
        if c.is_empty() {
            // By name in the libraries (scope libraries, or all when the workspace has none).
            let (total, definitions) = if args.scope == Scope::Workspace {
                (0, Vec::new())
            } else {
                library_definitions(ws, &args.symbol, limit)
            };
            if total == 0 {
                return Err(ToolError::NoSuchSymbol(format!(
                    "no type, method or field named {} in the {}",
                    args.symbol.trim(),
                    match args.scope {
                        Scope::Workspace => "workspace",
                        Scope::Libraries => "libraries (the JDK and the classpath jars)",
                        Scope::All => "workspace or its libraries (the JDK and the classpath jars)",
                    }
                )));
            }
            return Ok(ShowDefinitionResult {
                symbol: args.symbol.clone(),
                resolution: if total == 1 { "exact" } else { "ranked" }.into(),
                page: crate::page::Page::first(definitions.len(), total),
                definitions,
                opened: None,
            });
        }
        (if c.len() == 1 { "exact" } else { "ranked" }, c)
    };
    let total = list.len();
    let mut defs = Vec::new();
    for c in list.iter().take(limit) {
        let outline = c.type_id.and_then(|id| {
            let p = w.files[w.file_of(id) as usize].path.clone();
            let root = ws.roots().root_of(&p).unwrap_or(0);
            ws.cache(root).outline(&p, &ws.display_of(&p)).ok().map(|o| o.outline)
        });
        let mut d = describe(&w, c, outline.as_ref(), &|p| ws.display_of(p));
        if d.file.is_none() && matches!(d.origin, mji_xref::world::Origin::Jdk | mji_xref::world::Origin::Library) {
            describe_library(ws, &mut d, c.category);
        }
        defs.push(d);
    }
    Ok(ShowDefinitionResult {
        symbol: args.symbol.clone(),
        resolution: resolution.into(),
        page: crate::page::Page::first(defs.len(), total),
        definitions: defs,
        opened: None,
    })
}

fn id_line(w: &World, c: &xref::Candidate) -> u32 {
    c.type_id.map(|id| w.decl(id).start_line).unwrap_or(0)
}

/// Byte offset of `word` as a whole identifier in `text`.
/// The identifier covering a 1-based UTF-16 column of a line, if any.
fn word_at(text: &str, column: u32) -> Option<&str> {
    let is_id = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let mut col = 1u32;
    let mut start: Option<(usize, u32)> = None;
    for (i, c) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
        match (is_id(c), start) {
            (true, None) => start = Some((i, col)),
            (false, Some((s, from))) => {
                if (from..col).contains(&column) {
                    return Some(&text[s..i]);
                }
                start = None;
            }
            _ => {}
        }
        col += c.len_utf16() as u32;
    }
    None
}

fn find_word(text: &str, word: &str) -> Option<usize> {
    if word.is_empty() {
        return None;
    }
    let is_id = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let mut from = 0;
    while let Some(i) = text[from..].find(word) {
        let s = from + i;
        let e = s + word.len();
        let before = text[..s].chars().next_back().is_none_or(|c| !is_id(c));
        let after = text[e..].chars().next().is_none_or(|c| !is_id(c));
        if before && after {
            return Some(s);
        }
        from = e;
    }
    None
}

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
    /// Generated by an annotation processor (`lombok @Getter`): it has no declaration in the
    /// source; its lines are those of the field or annotation that makes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generated: Option<String>,
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
            generated: None,
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
    #[serde(flatten)]
    pub page: crate::page::Page,
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
        (Some(a), Some(b)) => crate::tool::java_index::javadoc_summary(&path, (a, b)),
        _ => None,
    };
    match c.category {
        Category::Type => {
            d.kind = t.kind.as_str().to_string();
            d.start_line = Some(t.start_line);
            d.end_line = Some(t.end_line);
            let word = if t.kind == mji_model::TypeKind::Annotation { "@interface" } else { t.kind.as_str() };
            d.signature = Some(as_written(&t.annotations, crate::tool::java_index::type_head(t, word)));
            d.javadoc = jd(&t.javadoc);
            d.symbol_id = Some(t.symbol_id.clone());
            d.generated = t.generated.as_ref().map(|g| format!("{g} {}", t.generated_by.as_deref().unwrap_or("")).trim().to_owned());
        }
        Category::Method => {
            if let Some(m) = t.methods.iter().filter(|m| m.name == name).min_by_key(|m| m.start_line.abs_diff(c.line)) {
                d.start_line = Some(m.start_line);
                d.end_line = Some(m.end_line);
                d.signature = Some(as_written(&m.annotations, m.signature_text.clone()));
                d.javadoc = jd(&m.javadoc);
                d.symbol_id = Some(m.symbol_id.clone());
                d.generated = m.generated.as_ref().map(|g| format!("{g} {}", m.generated_by.as_deref().unwrap_or("")).trim().to_owned());
            }
        }
        Category::Ctor => {
            if let Some(m) = t.constructors.iter().min_by_key(|m| m.start_line.abs_diff(c.line)) {
                d.start_line = Some(m.start_line);
                d.end_line = Some(m.end_line);
                d.signature = Some(as_written(&m.annotations, m.signature_text.clone()));
                d.javadoc = jd(&m.javadoc);
                d.symbol_id = Some(m.symbol_id.clone());
                d.generated = m.generated.as_ref().map(|g| format!("{g} {}", m.generated_by.as_deref().unwrap_or("")).trim().to_owned());
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
                d.generated = f.generated.as_ref().map(|g| format!("{g} {}", f.generated_by.as_deref().unwrap_or("")).trim().to_owned());
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

/// `show_definition`: one definition a line, with its declaration as written.
fn render(r: &ShowDefinitionResult) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "{} of `{}` ({})",
        count(r.page.total, "definition", "definitions"),
        r.symbol.trim(),
        if r.resolution == "exact" { "exact" } else { "ranked by name, best first" }
    );
    if r.page.truncated {
        let _ = write!(out, "; {} shown (raise `limit`)", r.definitions.len());
    }
    out.push('\n');
    for d in &r.definitions {
        let place = match &d.file {
            Some(f) => at(f, d.start_line.unwrap_or(0), d.end_line.unwrap_or(0)),
            None => origin_word(d.origin).to_owned(),
        };
        let _ = write!(out, "{}  {place}", d.qualified_name);
        if d.file.is_some() && d.origin != Origin::Workspace {
            let _ = write!(out, " ({})", origin_word(d.origin));
        }
        match &d.signature {
            Some(s) => {
                let _ = write!(out, "  {s}");
            }
            None => {
                let _ = write!(out, "  {}", d.kind);
            }
        }
        if let Some(g) = &d.generated {
            let _ = write!(out, "  [{g}: generated, no declaration in the source]");
        }
        if let Some(j) = &d.javadoc {
            let _ = write!(out, " — {j}");
        }
        out.push('\n');
    }
    if let Some(o) = &r.opened {
        if o.success {
            let _ = writeln!(out, "opened in {}: {}:{}", o.editor, o.file_path, o.line);
        } else {
            let _ = writeln!(out, "not opened: {}", o.message);
        }
    }
    out
}

/// `show_definition` of a name in the libraries (`HashMap`, `java.util.HashMap`,
/// `Map.Entry`, `HashMap#put`, `HashMap.put`, `put`): the public library types of that
/// name and the public and protected members of that name of the classes the qualifier
/// names, by exact name as in the workspace (constructors only with a qualifier). Types
/// first, then methods, constructors and fields; the first `limit` described from their
/// sources or class files. Returns how many there are and those.
fn library_definitions(
    ws: &Host,
    symbol: &str,
    limit: usize,
) -> (usize, Vec<Definition>) {
    use mji_classfile::members::MemberKind;
    use mji_classfile::reader::acc;
    use mji_xref::Category;
    let ix = ws.libraries();
    let s = symbol.trim().replace('#', ".");
    let (qual, name) = match s.rsplit_once('.') {
        Some((q, n)) => (Some(q), n),
        None => (None, s.as_str()),
    };
    let owner_ok = |owner: &str| qual.is_none_or(|q| owner == q || owner.ends_with(&format!(".{q}")));
    // (category, owner, key, origin)
    let mut found: Vec<(Category, String, String, LibraryOrigin)> = Vec::new();
    for c in ix.classes.iter().filter(|c| c.access & acc::PUBLIC != 0 && c.simple() == name) {
        let fqn = c.qualified();
        if fqn == s || qual.is_none() || fqn.ends_with(&format!(".{s}")) {
            found.push((Category::Type, fqn.clone(), fqn, ix.archive_of(c).origin));
        }
    }
    let table = ix.members();
    if let Ok(at) = table.names.binary_search_by(|n| (**n).cmp(name)) {
        for m in &table.members[at] {
            let class = &ix.classes[m.class as usize];
            let owner = class.qualified();
            if !owner_ok(&owner) || (m.kind == MemberKind::Constructor && qual.is_none()) {
                continue;
            }
            let (category, key) = match (m.kind, m.erased_params()) {
                (MemberKind::Method, Some(p)) => (Category::Method, format!("{owner}#{name}({p})")),
                (MemberKind::Constructor, Some(p)) => (Category::Ctor, format!("{owner}#{name}({p})")),
                _ => (Category::Field, format!("{owner}#{name}")),
            };
            found.push((category, owner, key, ix.archive_of(class).origin));
        }
    }
    found.sort_by(|a, b| (a.0, a.1.len(), &a.1, &a.2).cmp(&(b.0, b.1.len(), &b.1, &b.2)));
    found.dedup_by(|a, b| a.2 == b.2);
    let total = found.len();
    let defs = found
        .into_iter()
        .take(limit)
        .map(|(category, _, key, origin)| {
            let origin = match origin {
                LibraryOrigin::Jdk => mji_xref::world::Origin::Jdk,
                LibraryOrigin::Classpath => mji_xref::world::Origin::Library,
            };
            let mut d = Definition::new(category, key, origin);
            describe_library(ws, &mut d, category);
            d
        })
        .collect();
    (total, defs)
}
