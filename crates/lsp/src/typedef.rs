//! `typeDefinition`: the declaration of the type a name is declared with (a field's type, a
//! method's return type, a local variable's or parameter's type), through `show_definition`
//! twice: where the name is declared (a field or method: the tool's answer; a local variable or
//! parameter, which the engine does not bind: the nearest declaration of the name above the
//! position), then the type's name written before it there, which the engine binds as every
//! type reference. A type is its own type; `var`, a primitive type and a lambda's untyped
//! parameter have no declaration to go to (the tools type no expression).

use lsp_types as lsp;
use serde_json::{Value, json};

use crate::docs::{self, Lines};
use crate::nav::{At, definitions, locations_of};
use crate::{Reply, Server};

/// At most this many lines above a local variable's use are searched for its declaration.
const MAX_LINES_UP: u32 = 2_000;

pub(crate) fn type_definition(s: &mut Server, p: lsp::request::GotoTypeDefinitionParams) -> Reply {
    let Some(at) = s.at(&p.text_document_position_params) else { return Ok(Value::Null) };
    let Some(text) = s.saved_text(&at.path) else { return Ok(Value::Null) };
    let lines = Lines::of(&text);
    // The name's declaration: (1-based line, byte offset of the name in that line).
    let declared = match definitions(s, &at) {
        Ok(defs) => {
            let Some(d) = defs.iter().find(|d| d["file"].is_string() && d["startLine"].is_u64()) else {
                return Ok(Value::Null);
            };
            match d["kind"].as_str() {
                // A type is its own type.
                Some("type") => return Ok(locations_of(s, &at.word, std::slice::from_ref(d))),
                Some("field" | "method") => {}
                _ => return Ok(Value::Null),
            }
            let Some(file) = d["file"].as_str() else { return Ok(Value::Null) };
            let Ok(r) = s.host.resolve(file) else { return Ok(Value::Null) };
            let Some(decl_text) = s.saved_text(&r.path) else { return Ok(Value::Null) };
            let from = d["startLine"].as_u64().unwrap_or(0) as u32;
            let to = d["endLine"].as_u64().map_or(from, |l| l as u32);
            let decl_lines = Lines::of(&decl_text);
            let Some(found) = (from..=to).find_map(|n| name_after_type(decl_lines.line(n), &at.word).map(|b| (n, b)))
            else {
                return Ok(Value::Null);
            };
            return type_at(s, &at, &r.path, decl_lines.line(found.0), found.0);
        }
        // Not a type, method or field the engine binds there: a local variable or parameter
        // (never one after a `.`, a member of a receiver).
        Err(_) => local_declaration(&lines, &at),
    };
    match declared {
        Some(n) => type_at(s, &at, &at.path.clone(), lines.line(n), n),
        None => Ok(Value::Null),
    }
}

/// The definitions of the type written before `at.word`'s declaration on line `n` of `path`
/// (`line` its text): `show_definition` at the type's name.
fn type_at(s: &Server, at: &At, path: &std::path::Path, line: &str, n: u32) -> Reply {
    let Some(name_at) = name_after_type(line, &at.word) else { return Ok(Value::Null) };
    let Some((start, end)) = type_before(line, name_at) else { return Ok(Value::Null) };
    let ty = &line[start..end];
    let column = line[..start].encode_utf16().count() as u32 + 1;
    let args = json!({"filePath": path.to_string_lossy(), "line": n, "column": column, "symbol": ty});
    let v = match s.call("show_definition", args) {
        Ok(v) => v,
        Err(e) => {
            tracing::debug!(ty, "no type definition: {e}");
            return Ok(Value::Null);
        }
    };
    let defs = v["definitions"].as_array().cloned().unwrap_or_default();
    Ok(locations_of(s, ty, &defs))
}

/// The line (1-based) of the nearest declaration of a local variable or parameter named
/// `at.word` at or above the position: the name written after a type and followed by `=`,
/// `;`, `,`, `)` or `:`.
fn local_declaration(lines: &Lines, at: &At) -> Option<u32> {
    let here = at.line();
    let line = lines.line(here);
    let col = docs::offset(line, lsp::Position { line: 0, character: at.range.start.character });
    if line[..col].trim_end().ends_with('.') {
        return None;
    }
    (here.saturating_sub(MAX_LINES_UP).max(1)..=here).rev().find(|&n| {
        let text = lines.line(n);
        let text = if n == here { &text[..col + at.word.len()] } else { text };
        name_after_type(text, &at.word).is_some()
    })
}

fn is_id(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// Where `name` is written on `line` as a declared name: a whole word after a type (see
/// [`type_before`]) and followed by `=`, `;`, `,`, `)`, `:`, `(` or the line's end. The
/// byte offset of the name.
fn name_after_type(line: &str, name: &str) -> Option<usize> {
    let trimmed = line.trim_start();
    if name.is_empty() || trimmed.starts_with('*') || trimmed.starts_with("//") {
        return None;
    }
    let mut search = 0;
    while let Some(i) = line[search..].find(name).map(|i| search + i) {
        let end = i + name.len();
        search = end;
        let whole = !line[..i].chars().next_back().is_some_and(is_id) && !line[end..].chars().next().is_some_and(is_id);
        let after = line[end..].trim_start().chars().next();
        if whole
            && after.is_none_or(|c| matches!(c, '=' | ';' | ',' | ')' | ':' | '('))
            && type_before(line, i).is_some()
        {
            return Some(i);
        }
    }
    None
}

/// The type's name written just before byte `end` of `line` (its array brackets, varargs and
/// type arguments skipped): its byte range, the last name of a qualified one. None when no
/// declared type is there: a keyword (`var`, `return`, `new`...), a primitive type, an
/// operator.
fn type_before(line: &str, end: usize) -> Option<(usize, usize)> {
    let mut b = line[..end].trim_end();
    loop {
        if let Some(r) = b.strip_suffix("[]").or_else(|| b.strip_suffix("...")) {
            b = r.trim_end();
        } else if let Some(r) = b.strip_suffix(']') {
            b = r.trim_end().strip_suffix('[')?.trim_end();
        } else {
            break;
        }
    }
    if b.ends_with('>') {
        let mut depth = 0i32;
        let mut open = None;
        for (i, c) in b.char_indices().rev() {
            match c {
                '>' => depth += 1,
                '<' => {
                    depth -= 1;
                    if depth == 0 {
                        open = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        b = b[..open?].trim_end();
    }
    let start = b.char_indices().rev().take_while(|(_, c)| is_id(*c)).last()?.0;
    let word = &b[start..];
    const NOT_TYPES: &[&str] = &[
        "var",
        "return",
        "new",
        "throw",
        "case",
        "else",
        "yield",
        "assert",
        "package",
        "import",
        "class",
        "interface",
        "enum",
        "record",
        "extends",
        "implements",
        "instanceof",
        "boolean",
        "byte",
        "char",
        "short",
        "int",
        "long",
        "float",
        "double",
        "void",
        "final",
        "static",
        "public",
        "private",
        "protected",
    ];
    if word.starts_with(|c: char| c.is_ascii_digit()) || NOT_TYPES.contains(&word) {
        return None;
    }
    Some((start, b.len()))
}

#[cfg(test)]
mod tests {
    use super::{name_after_type, type_before};

    fn ty(line: &str, name: &str) -> Option<String> {
        let at = name_after_type(line, name)?;
        type_before(line, at).map(|(s, e)| line[s..e].to_owned())
    }

    #[test]
    fn the_type_written_before_a_declared_name() {
        assert_eq!(
            ty("    private final Map<String, List<Foo>> cache = new HashMap<>();", "cache").as_deref(),
            Some("Map")
        );
        assert_eq!(ty("    public static <T> java.util.List<T> of(T... xs) {", "of").as_deref(), Some("List"));
        assert_eq!(ty("    void run(Greeter g, String[] args, int... ns) {", "g").as_deref(), Some("Greeter"));
        assert_eq!(ty("    void run(Greeter g, String[] args, int... ns) {", "args").as_deref(), Some("String"));
        assert_eq!(ty("        for (Greeter each : all) {", "each").as_deref(), Some("Greeter"));
        assert_eq!(ty("    void run(Greeter g, String[] args, int... ns) {", "ns"), None, "a primitive");
        assert_eq!(ty("        var g = new Greeter();", "g"), None, "`var`");
        assert_eq!(ty("        g = other;", "g"), None, "an assignment");
        assert_eq!(ty("        return g;", "g"), None);
        assert_eq!(ty("        int n = g.size();", "g"), None, "a use");
    }
}
