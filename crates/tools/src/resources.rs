//! MCP resources as domain calls (the server maps them to the protocol): the workspace's files
//! as `file://` URIs, paged; a file's text; a type's source by `java-type://{fqn}` (its outline
//! when the source does not fit the answer budget); completion of the two templates'
//! arguments. Every URI goes through the same path policy as a tool's `filePath`.

use std::path::Path;

use mji_index::matcher::Pattern;
use serde_json::{Map, Value};

use crate::ToolError;
use crate::host::Host;
use crate::tool::find_type::{FindTypeArgs, TypeFilter};

/// The template of a workspace file (`{path}`: its absolute path without the first `/`).
pub const FILE_TEMPLATE: &str = "file:///{path}";
/// The template of a type by qualified name.
pub const TYPE_TEMPLATE: &str = "java-type://{fqn}";
/// Resources listed per page of `resources/list`.
pub const PAGE_SIZE: usize = 200;
/// Completion values given at most (MCP's limit).
pub const MAX_COMPLETIONS: usize = 100;

/// One listed file.
#[derive(Debug, Clone, PartialEq)]
pub struct ResourceItem {
    pub uri: String,
    /// How tools name the file (relative to its root when there is one root).
    pub name: String,
    pub mime_type: &'static str,
    /// Bytes; `None` for a library type (its size is not known without reading it).
    pub size: Option<u64>,
}

/// One page of the listing; `next_offset` when more follow.
#[derive(Debug, Clone)]
pub struct ResourcePage {
    pub items: Vec<ResourceItem>,
    pub next_offset: Option<usize>,
    pub total: usize,
}

/// A resource's text.
#[derive(Debug, Clone)]
pub struct ResourceText {
    pub uri: String,
    pub mime_type: &'static str,
    pub text: String,
}

/// Completion values for a template argument.
#[derive(Debug, Clone, Default)]
pub struct Completions {
    pub values: Vec<String>,
    pub total: usize,
    pub has_more: bool,
}

/// The `file://` URI of an absolute path (spaces, `%`, `#`, `?` and non-ASCII escaped).
pub fn file_uri(path: &Path) -> String {
    let s = path.to_string_lossy().replace('\\', "/");
    let mut out = String::from("file://");
    if !s.starts_with('/') {
        out.push('/');
    }
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~:@!$&'()*+,;=".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn mime_of(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).map(|e| e.to_ascii_lowercase()).as_deref() {
        Some("java") => "text/x-java",
        Some("xml" | "pom") => "application/xml",
        Some("json") => "application/json",
        Some("md") => "text/markdown",
        Some("properties" | "txt" | "gradle" | "kts" | "toml" | "yml" | "yaml" | "sql" | "csv") => "text/plain",
        _ => "text/plain",
    }
}

/// A resource request's string under the cap a tool's string argument has.
fn check_length(what: &str, value: &str) -> Result<(), ToolError> {
    let cap = crate::registry::MAX_ARG_STRING_CHARS;
    if value.len() > cap && value.chars().count() > cap {
        return Err(ToolError::InvalidArgument(format!(
            "{what} is {} characters, over the limit of {cap}",
            value.chars().count()
        )));
    }
    Ok(())
}

/// The workspace's files from `offset`, [`PAGE_SIZE`] at a time, shortest paths first.
pub fn list_resources(ws: &Host, offset: usize) -> ResourcePage {
    ws.wait_index();
    let index = ws.index();
    let page = index.find_resources(&Pattern::new("*", false), false, None, offset, PAGE_SIZE);
    let items: Vec<ResourceItem> = page
        .items
        .iter()
        .map(|(p, r, _)| ResourceItem {
            uri: file_uri(p),
            name: index.roots().display(p, r.root),
            mime_type: mime_of(p),
            size: Some(r.size),
        })
        .collect();
    let end = offset + items.len();
    ResourcePage { next_offset: (end < page.total).then_some(end), total: page.total, items }
}

/// The resource of a file a tool answer names (its `filePath`), for a `resource_link`.
pub fn file_link(ws: &Host, file_path: &str) -> Option<ResourceItem> {
    let r = ws.resolve(file_path).ok()?;
    let size = std::fs::metadata(&r.path).ok()?.len();
    Some(ResourceItem { uri: file_uri(&r.path), name: r.display, mime_type: mime_of(&r.path), size: Some(size) })
}

/// The resource a tool answer is about, for a `resource_link`: the workspace file its
/// `filePath` names; for a library's file (`java_index` of a class name or a `jar:` path),
/// its first type as `java-type://`.
pub fn answer_link(ws: &Host, answer: &Value) -> Option<ResourceItem> {
    let file_path = answer.get("filePath")?.as_str()?;
    if crate::libraries::target(file_path).is_none() {
        return file_link(ws, file_path);
    }
    let fqn = answer.get("classes")?.get(0)?.get("qualifiedName")?.as_str()?;
    Some(ResourceItem { uri: format!("java-type://{fqn}"), name: fqn.to_owned(), mime_type: "text/x-java", size: None })
}

/// The text of a `file://` or `java-type://` resource, within the answer budget.
pub fn read_resource(ws: &Host, uri: &str) -> Result<ResourceText, ToolError> {
    check_length("uri", uri)?;
    if let Some(fqn) = uri.strip_prefix("java-type://") {
        return read_type(ws, uri, fqn);
    }
    if !uri.starts_with("file://") {
        return Err(ToolError::InvalidArgument(format!(
            "unknown resource `{}`: this server has {FILE_TEMPLATE} and {TYPE_TEMPLATE}",
            mji_fs::clip(uri)
        )));
    }
    let r = ws.resolve(uri)?;
    ws.check_file(&r.path, &r.display)?;
    let bytes = ws.roots().read(&r.path, &r.display).map_err(crate::read_error)?;
    let text = mji_parser::SourceText::decode(&bytes).text;
    let budget = ws.answer_tokens();
    if !crate::budget::fits(&text, budget) {
        return Err(ToolError::InvalidArgument(format!(
            "{} is over the answer budget of {budget} tokens as one resource; read it in parts with \
             java_read_range(filePath: \"{}\", startLine, endLine), or its outline with java_index",
            r.display, r.display
        )));
    }
    Ok(ResourceText { uri: uri.to_owned(), mime_type: mime_of(&r.path), text })
}

/// A type's declaration lines; its file's outline when they do not fit.
fn read_type(ws: &Host, uri: &str, fqn: &str) -> Result<ResourceText, ToolError> {
    let fqn = fqn.trim_matches('/');
    let found = crate::tool::find_type::run(
        ws,
        &FindTypeArgs {
            pattern: fqn.to_owned(),
            kind: TypeFilter::Any,
            max_results: 50,
            offset: 0,
            case_sensitive: true,
            scope: crate::find::Scope::Workspace,
            root: String::new(),
            include_index: false,
        },
    )?;
    let Some(t) = found.results.iter().find(|t| t.fqn == fqn) else {
        // A library type (the JDK's, a classpath jar's): its source, else its outline.
        if let Some(lib) = read_library_type(ws, uri, fqn)? {
            return Ok(lib);
        }
        let near: Vec<&str> = found.results.iter().take(5).map(|t| t.fqn.as_str()).collect();
        let hint = if near.is_empty() { String::new() } else { format!("; similar: {}", near.join(", ")) };
        return Err(ToolError::NoSuchSymbol(format!(
            "no type `{}` in the workspace or its libraries{hint}",
            mji_fs::clip(fqn)
        )));
    };
    let r = ws.resolve(&t.file_path)?;
    ws.check_file(&r.path, &r.display)?;
    let bytes = ws.roots().read(&r.path, &r.display).map_err(crate::read_error)?;
    let src = mji_parser::SourceText::decode(&bytes);
    let first = t.start_line.max(1) as usize;
    let last = t.end_line as usize;
    let lines: Vec<&str> = src.text.lines().skip(first - 1).take(last + 1 - first).collect();
    let source = format!("// {}:{first}-{last}\n{}\n", r.display, lines.join("\n"));
    let budget = ws.answer_tokens();
    if crate::budget::fits(&source, budget) {
        return Ok(ResourceText { uri: uri.to_owned(), mime_type: "text/x-java", text: source });
    }
    // Too long to give whole: the outline of its file, whose lines lead to each member.
    let mut args = Map::new();
    args.insert("filePath".to_owned(), Value::String(r.display.clone()));
    let entry = crate::registry::find("java_index")
        .ok_or_else(|| ToolError::InvalidArgument("java_index is not registered".to_owned()))?;
    let outline = entry.call(ws, args).map_err(ToolError::InvalidArgument)?;
    let text = format!(
        "{fqn} (lines {first}-{last} of {}) is over the answer budget of {budget} tokens; its file's outline \
         follows: read members with java_read_range.\n{}",
        r.display,
        outline.text()
    );
    Ok(ResourceText { uri: uri.to_owned(), mime_type: "text/plain", text })
}

/// A library type's declaration lines from its sources archive (the JDK's `src.zip`, a
/// `-sources.jar`); without sources, or too long for the answer budget, `java_index`'s
/// outline of it. `None` when no library has the type.
fn read_library_type(ws: &Host, uri: &str, fqn: &str) -> Result<Option<ResourceText>, ToolError> {
    if !matches!(crate::libraries::target(fqn), Some(crate::libraries::LibraryTarget::Class(_))) {
        return Ok(None);
    }
    let budget = ws.answer_tokens();
    match crate::libraries::type_source(ws, fqn) {
        crate::libraries::TypeSource::Absent => return Ok(None),
        crate::libraries::TypeSource::Lines { shown, first, last, text } => {
            let source = format!("// {shown}:{first}-{last}\n{text}\n");
            if crate::budget::fits(&source, budget) {
                return Ok(Some(ResourceText { uri: uri.to_owned(), mime_type: "text/x-java", text: source }));
            }
        }
        crate::libraries::TypeSource::NoSource => {}
    }
    let mut args = Map::new();
    args.insert("filePath".to_owned(), Value::String(fqn.to_owned()));
    let entry = crate::registry::find("java_index")
        .ok_or_else(|| ToolError::InvalidArgument("java_index is not registered".to_owned()))?;
    let outline = entry.call(ws, args).map_err(ToolError::InvalidArgument)?;
    let text = format!(
        "{fqn}: its source is not available or over the answer budget of {budget} tokens; its outline \
         follows (java_index with filePath \"{fqn}\").\n{}",
        outline.text()
    );
    Ok(Some(ResourceText { uri: uri.to_owned(), mime_type: "text/plain", text }))
}

/// Values for a template argument starting with (or matching, camelCase and wildcards as in
/// `find_resource` and `find_type`) what the user typed.
pub fn complete_resource(ws: &Host, template: &str, argument: &str, typed: &str) -> Result<Completions, ToolError> {
    check_length("ref.uri", template)?;
    check_length("argument.name", argument)?;
    check_length("argument.value", typed)?;
    ws.wait_index();
    match (template, argument) {
        (FILE_TEMPLATE, "path") => {
            // What fills `file:///{path}`: an absolute path without its first `/`. A typed
            // root prefix is dropped, so `tmp/ws/Gre` and `Gre` both find tmp/ws/Greeter.java.
            let mut rel = typed.trim_start_matches('/').to_owned();
            for root in ws.roots().paths() {
                let root = root.to_string_lossy().trim_start_matches('/').to_owned() + "/";
                if let Some(rest) = rel.strip_prefix(&root) {
                    rel = rest.to_owned();
                    break;
                }
            }
            let (pattern, path_pattern) = if rel.contains('/') {
                (format!("{rel}*"), true)
            } else if rel.is_empty() {
                ("*".to_owned(), false)
            } else {
                (rel.clone(), false)
            };
            let page =
                ws.index().find_resources(&Pattern::new(&pattern, false), path_pattern, None, 0, MAX_COMPLETIONS);
            let values = page
                .items
                .iter()
                .map(|(p, _, _)| p.to_string_lossy().trim_start_matches('/').to_owned())
                .collect::<Vec<_>>();
            Ok(Completions { has_more: page.total > values.len(), total: page.total, values })
        }
        (TYPE_TEMPLATE, "fqn") => {
            let pattern = if typed.trim().is_empty() { "*".to_owned() } else { typed.trim().to_owned() };
            let found = crate::tool::find_type::run(
                ws,
                &FindTypeArgs {
                    pattern,
                    kind: TypeFilter::Any,
                    max_results: MAX_COMPLETIONS as u32,
                    offset: 0,
                    case_sensitive: false,
                    scope: crate::find::Scope::Workspace,
                    root: String::new(),
                    include_index: false,
                },
            )?;
            let values: Vec<String> = found.results.iter().map(|t| t.fqn.clone()).collect();
            let total = (found.page.total as usize).max(values.len());
            Ok(Completions { has_more: total > values.len(), total, values })
        }
        _ => Err(ToolError::InvalidArgument(format!(
            "no argument `{}` in a template `{}`; this server has {FILE_TEMPLATE} and {TYPE_TEMPLATE}",
            mji_fs::clip(argument),
            mji_fs::clip(template)
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::file_uri;
    use std::path::Path;

    #[test]
    fn file_uris_escape_what_a_uri_cannot_hold() {
        assert_eq!(file_uri(Path::new("/tmp/a b/Y.java")), "file:///tmp/a%20b/Y.java");
        assert_eq!(file_uri(Path::new("/tmp/x#1/é.java")), "file:///tmp/x%231/%C3%A9.java");
    }
}
