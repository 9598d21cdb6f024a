//! Locate-then-read in one call: the reading tools (`java_index`, `java_read_range`,
//! `java_read_javadoc`) take a workspace type's qualified or simple name where they take a
//! file, so an agent does not first search for the path. A name several workspace types
//! share is an error that lists them; a name no workspace type has is left to the library
//! lookup (`java.util.HashMap`) and the path policy.

use std::borrow::Cow;
use std::path::Path;

use crate::ToolError;
use crate::host::Host;
use mji_index::matcher::Pattern;
use mji_index::symbols::{SymKind, SymView};

/// The most candidates an ambiguous name's error lists.
const MAX_CANDIDATES: usize = 10;

/// The longest name looked up as a type's (a longer one is no name a person writes; the
/// index's camelCase matching of it would be slow).
const MAX_NAME_CHARS: usize = 512;

/// Whether `name` reads as a type's name: dotted Java identifiers ending in one that starts
/// with a capital, not a file name (`Foo.java`, `a/b`).
fn looks_like_type(name: &str) -> bool {
    if name.len() > MAX_NAME_CHARS {
        return false;
    }
    let ident = |s: &str| {
        s.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
            && s.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$')
    };
    let parts: Vec<&str> = name.split('.').collect();
    parts.iter().all(|p| ident(p))
        && !matches!(parts.last(), Some(&"java") | Some(&"class"))
        && parts.last().is_some_and(|l| l.starts_with(char::is_uppercase))
}

/// The file declaring the workspace type `name` (qualified, a dotted tail of its qualified
/// name such as `Map.Entry`, or its simple name): `Ok(None)` when `name` is not a type's name
/// or no workspace type has it; an error listing the candidates when several do.
pub(crate) fn type_file(ws: &Host, name: &str) -> Result<Option<String>, ToolError> {
    let name = name.trim();
    if !looks_like_type(name) {
        return Ok(None);
    }
    let simple = name.rsplit('.').next().unwrap_or(name);
    ws.wait_index();
    let index = ws.index();
    let dotted = format!(".{name}");
    let keep = |_: &Path, s: &SymView| {
        matches!(s.kind(), SymKind::Type(_)) && {
            let q = s.qualified_name();
            q == name || q.ends_with(&dotted)
        }
    };
    let page = index.find_symbols(&Pattern::new(simple, true), &keep, 0, MAX_CANDIDATES);
    match page.items.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some(index.roots().display(&one.path, one.root))),
        many => {
            let list: Vec<String> = many
                .iter()
                .map(|f| format!("{} ({})", f.symbol.qualified_name, index.roots().display(&f.path, f.root)))
                .collect();
            Err(ToolError::InvalidArgument(format!(
                "`{}` names {} workspace types: {}{}; give the qualified name or filePath",
                mji_fs::clip(name),
                page.total,
                list.join(", "),
                if page.total > many.len() { ", …" } else { "" }
            )))
        }
    }
}

/// What a read of `file_path` (and `symbol`) needs before it runs: the index when the file is
/// given as a type's name, or left out for a `Type#member` symbol.
pub(crate) fn start(file_path: &str, symbol: Option<&str>) -> crate::registry::Start {
    let by_name = if file_path.trim().is_empty() {
        symbol.is_some_and(|s| s.contains('#'))
    } else {
        looks_like_type(file_path.trim())
    };
    if by_name { crate::registry::Start::Index } else { crate::registry::Start::Nothing }
}

/// `filePath` as a workspace file: as given when it is one (or a `jar:` path), else the file
/// of the workspace type it names; unchanged when no workspace type has that name (a library
/// class, or a path the policy will judge).
pub(crate) fn file_of<'a>(ws: &Host, file_path: &'a str) -> Result<Cow<'a, str>, ToolError> {
    if file_path.starts_with("jar:") || ws.resolve(file_path).is_ok() {
        return Ok(Cow::Borrowed(file_path));
    }
    Ok(type_file(ws, file_path)?.map_or(Cow::Borrowed(file_path), Cow::Owned))
}

/// The file and the symbol of a read that names its declaration `Type#member` (or gives
/// `filePath` as a type's name): `filePath` may then be left out.
pub(crate) fn file_and_symbol(
    ws: &Host,
    file_path: &str,
    symbol: Option<&str>,
) -> Result<(String, Option<String>), ToolError> {
    let symbol = symbol.map(str::trim).filter(|s| !s.is_empty());
    if file_path.trim().is_empty() {
        let Some((owner, member)) = symbol.and_then(|s| s.split_once('#')) else {
            return Err(ToolError::InvalidArgument(
                "give filePath (a file or a type's name), or symbol as `Type#member`".to_owned(),
            ));
        };
        let Some(file) = type_file(ws, owner)? else {
            return Err(ToolError::NoSuchSymbol(format!(
                "no workspace type named `{}`; find_type finds it by a part of its name",
                mji_fs::clip(owner)
            )));
        };
        return Ok((file, Some(member.to_owned())));
    }
    let file = file_of(ws, file_path)?.into_owned();
    // `Type#member` beside the type's own file: the member.
    let symbol = symbol.map(|s| s.split_once('#').map_or(s, |(_, m)| m).to_owned());
    Ok((file, symbol))
}
