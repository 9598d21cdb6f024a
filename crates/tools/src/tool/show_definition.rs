//! `show_definition`: where a name is defined.

use crate::ToolError;
use crate::registry::Tool;
use crate::read_error;
use crate::xref::{self, ShowDefinitionResult};
use mji_xref::world::World;
use crate::host::Host;

pub(crate) struct ShowDefinition;

impl Tool for ShowDefinition {
    const NAME: &'static str = "show_definition";
    const TITLE: &'static str = "Show definition";
    const DESCRIPTION: &'static str = "Go to definition: where a name (`Bar`, `doThing`, `Bar.doThing`, `com.foo.Bar#count`) is declared, with lines and signature. With `filePath`+`line` of a use it is resolved exactly. open: show it in the editor.";
    const NEEDS_INDEX: bool = true;

    type Args = crate::xref::ShowDefinitionArgs;
    type Output = crate::xref::ShowDefinitionResult;

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
        Some(crate::lines::definitions(output))
    }
}

/// `show_definition`.
pub fn run(ws: &Host, args: &crate::xref::ShowDefinitionArgs) -> Result<ShowDefinitionResult, ToolError> {
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
            if let Ok(t) = xref::target_at(ws.xref(), &w, &r.path, line, col) {
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
                crate::libraries::definitions(ws, &args.symbol, limit)
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
                total: total as u64,
                truncated: total > definitions.len(),
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
        let mut d = xref::describe(&w, c, outline.as_ref(), &|p| ws.display_of(p));
        if d.file.is_none() && matches!(d.origin, mji_xref::world::Origin::Jdk | mji_xref::world::Origin::Library) {
            xref::describe_library(ws, &mut d, c.category);
        }
        defs.push(d);
    }
    Ok(ShowDefinitionResult {
        symbol: args.symbol.clone(),
        resolution: resolution.into(),
        total: total as u64,
        truncated: total > limit,
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
