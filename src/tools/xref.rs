//! The cross-file tools: `find_references`, `analyze_type_dependencies` and `show_definition`,
//! over the [`crate::xref`] engine. Bounded, paged answers; clear errors for targets that do not
//! exist.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::index::matcher::wildcard_match;
use crate::model::{FileOutline, TypeDecl as OutlineType};
use crate::tools::ToolError;
use crate::tools::find::IndexStatus;
use crate::xref::engine::{file_index, find_in_files, refs_of_file};
use crate::xref::resolve::file_refs;
use crate::xref::ty::Ty;
use crate::xref::world::{Ctx, Origin, TypeId, TypeName, World};
use crate::xref::{Category, Confidence, Ref, RefKind};

pub const MAX_LIMIT: u32 = 1000;

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn default_limit() -> u32 {
    100
}

/// Arguments of `find_references`. Give the target one way: `target`, `symbolId`, or
/// `filePath` + `line` (+ `column`) of any occurrence; or many `targets` with `countOnly`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FindReferencesArgs {
    /// `com.foo.Bar`, `com.foo.Bar.Inner`, `com.foo.Bar#doThing(int,String)` (parameter types
    /// simple or qualified; without parentheses: every overload), `com.foo.Bar#Bar(int)` for a
    /// constructor, `com.foo.Bar#count` for a field.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub target: String,
    /// A symbolId from java_index or java_find_symbol.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub symbol_id: String,
    /// A file with an occurrence (or the declaration) of the target, with `line`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub file_path: String,
    /// 1-based line of the occurrence in `filePath`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub line: u32,
    /// 1-based column of the occurrence; without it, the first name on the line.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub column: u32,
    /// Several targets (same syntax as `target`), answered with counts per target.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<String>,
    /// Only count (per target); no reference list.
    #[serde(default)]
    pub count_only: bool,
    /// Also list the declaration itself (kind `declaration`).
    #[serde(default)]
    pub include_declaration: bool,
    /// For a method: also references bound to methods that override it (marked `overrider`).
    #[serde(default)]
    pub include_overriders: bool,
    /// Only files whose workspace-relative path matches one of these globs (`src/main/**`,
    /// `*Test.java`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<String>,
    /// References per page (default 100, at most 1000).
    #[serde(default = "default_limit")]
    pub limit: u32,
    /// References to skip (the previous answer's nextOffset).
    #[serde(default)]
    pub offset: u32,
}

/// One reference.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReferenceOut {
    pub line: u32,
    /// 1-based, in UTF-16 code units.
    pub column: u32,
    /// import, extends, implements, type, new, call, field-read, field-write, annotation,
    /// method-ref, this-call, super-call, javadoc, declaration.
    pub kind: String,
    /// `exact`: bound as javac binds it; `likely`: the receiver's type or the overload could not
    /// be known, the target is one of the candidates.
    pub confidence: Confidence,
    /// The line, trimmed (at most 200 characters).
    pub text: String,
    /// Set when the reference binds to an overrider of the target: that method's key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overrider: Option<String>,
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
    pub total: u64,
    pub truncated: bool,
    /// Pass as `offset` for the next page; null on the last.
    pub next_offset: Option<u64>,
    pub files: Vec<FileReferences>,
    /// With `targets`: one entry per target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counts: Option<Vec<TargetCount>>,
    pub index: IndexStatus,
}

/// A resolved target: the keys that count as it.
#[derive(Debug, Clone)]
pub struct Target {
    pub label: String,
    pub category: Category,
    pub keys: Vec<String>,
    /// Names whose presence in a file's bytes is needed for a reference.
    pub names: Vec<String>,
    /// Declaration (file, line) of each key when in the workspace.
    pub decls: Vec<(Arc<Path>, u32)>,
    /// Override keys: overrider key -> overridden key.
    pub overriders: HashMap<String, String>,
}

fn kind_name(c: Category) -> &'static str {
    match c {
        Category::Type => "type",
        Category::Method => "method",
        Category::Ctor => "constructor",
        Category::Field => "field",
    }
}

fn normalize_param(p: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for ch in p.chars() {
        match ch {
            '<' => depth += 1,
            '>' => depth -= 1,
            c if depth == 0 && !c.is_whitespace() => out.push(c),
            _ => {}
        }
    }
    let out = out.trim_start_matches("final").to_string();
    if let Some(base) = out.strip_suffix("...") { format!("{base}[]") } else { out }
}

fn simple_of(erasure: &str) -> &str {
    let (base, dims) = match erasure.find('[') {
        Some(i) => (&erasure[..i], &erasure[i..]),
        None => (erasure, ""),
    };
    let s = base.rsplit('.').next().unwrap_or(base);
    // Return a slice covering simple name + dims when contiguous.
    let start = erasure.len() - dims.len() - s.len();
    &erasure[start..]
}

fn params_match(written: &[String], erased: &[String]) -> bool {
    written.len() == erased.len()
        && written.iter().zip(erased).all(|(w, e)| w == e || simple_of(e) == w || simple_of(e) == simple_of(w))
}

/// Parses a symbolId (`Method#com.foo.Bar#doThing(int,String):Result|start:70|end:120`) into a
/// target string.
pub fn target_of_symbol_id(id: &str) -> Result<String, ToolError> {
    let body = id.split('|').next().unwrap_or(id);
    let (kind, rest) = body
        .split_once('#')
        .ok_or_else(|| ToolError::InvalidArgument(format!("symbolId {id:?} is not a stable id (Kind#name…)")))?;
    let rest = match rest.rfind(')') {
        Some(i) => &rest[..=i],
        None => rest.split(':').next().unwrap_or(rest),
    };
    let _ = kind;
    Ok(rest.to_string())
}

/// Resolves a target string against the world.
pub fn resolve_target(w: &World, spec: &str) -> Result<Target, ToolError> {
    let spec = spec.trim();
    if spec.is_empty() {
        return Err(ToolError::InvalidArgument("target is empty".into()));
    }
    let (type_part, member) = match spec.split_once('#') {
        Some((t, m)) => (t.trim(), Some(m.trim())),
        None => (spec, None),
    };
    let type_fqn = resolve_type_spec(w, type_part)?;
    let id = w.by_fqn(&type_fqn);
    let Some(member) = member else {
        let simple = type_fqn.rsplit('.').next().unwrap_or(&type_fqn).to_string();
        let decls = id
            .filter(|i| w.is_workspace(*i))
            .map(|i| vec![(w.files[w.file_of(i) as usize].path.clone(), w.decl(i).start_line)])
            .unwrap_or_default();
        return Ok(Target {
            label: type_fqn.clone(),
            category: Category::Type,
            keys: vec![type_fqn],
            names: vec![simple],
            decls,
            overriders: HashMap::new(),
        });
    };
    let (name, params) = match member.split_once('(') {
        Some((n, p)) => {
            let p = p.trim_end_matches(')');
            let ps: Vec<String> = if p.trim().is_empty() {
                Vec::new()
            } else {
                split_params(p).iter().map(|x| normalize_param(x)).collect()
            };
            (n.trim(), Some(ps))
        }
        None => (member, None),
    };
    let Some(id) = id else {
        // A type outside the workspace: the key as written, parameters qualified when simple.
        let cat = if name == type_fqn.rsplit('.').next().unwrap_or("") {
            Category::Ctor
        } else if params.is_some() {
            Category::Method
        } else {
            Category::Field
        };
        let key = match &params {
            Some(ps) => {
                let q: Vec<String> = ps.iter().map(|p| qualify_external(w, p)).collect();
                format!("{type_fqn}#{name}({})", q.join(","))
            }
            None => format!("{type_fqn}#{name}"),
        };
        return Ok(Target {
            label: key.clone(),
            category: cat,
            keys: vec![key],
            names: vec![name.to_string()],
            decls: Vec::new(),
            overriders: HashMap::new(),
        });
    };
    let d = w.decl(id);
    let path = w.is_workspace(id).then(|| w.files[w.file_of(id) as usize].path.clone());
    let ctx = w.ctx_in(id);
    let is_ctor = *d.simple == *name;
    let pool = if is_ctor { &d.ctors } else { &d.methods };
    if params.is_none()
        && !is_ctor
        && let Some(f) = d.fields.iter().find(|f| &*f.name == name)
    {
        let key = w.field_key(id, f);
        return Ok(Target {
            label: key.clone(),
            category: Category::Field,
            keys: vec![key],
            names: vec![name.to_string()],
            decls: path.map(|p| vec![(p, f.line)]).unwrap_or_default(),
            overriders: HashMap::new(),
        });
    }
    let mut keys = Vec::new();
    let mut decls = Vec::new();
    for m in pool.iter().filter(|m| &*m.name == name) {
        let erased = w.erased_params(m, &ctx);
        if params.as_ref().is_none_or(|ps| params_match(ps, &erased)) {
            keys.push(w.method_key(id, m));
            if let Some(p) = &path {
                decls.push((p.clone(), m.line));
            }
        }
    }
    if keys.is_empty() {
        let have: Vec<String> =
            pool.iter().map(|m| w.method_key(id, m)).filter(|k| k.contains(&format!("#{name}("))).collect();
        let hint = if have.is_empty() {
            format!("{} declares no {} named {name}", d.fqn, if is_ctor { "constructor" } else { "method or field" })
        } else {
            format!("no overload matches; {} declares: {}", d.fqn, have.join(", "))
        };
        return Err(ToolError::NotFound(format!("{spec}: {hint}")));
    }
    let category = if is_ctor { Category::Ctor } else { Category::Method };
    let names = vec![name.to_string()];
    Ok(Target { label: keys.join(" | "), category, keys, names, decls, overriders: HashMap::new() })
}

fn split_params(p: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut cur = String::new();
    for ch in p.chars() {
        match ch {
            '<' => {
                depth += 1;
                cur.push(ch);
            }
            '>' => {
                depth -= 1;
                cur.push(ch);
            }
            ',' if depth == 0 => out.push(std::mem::take(&mut cur)),
            c => cur.push(c),
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out
}

fn qualify_external(w: &World, p: &str) -> String {
    let (base, dims) = match p.find('[') {
        Some(i) => (&p[..i], &p[i..]),
        None => (p, ""),
    };
    if base.contains('.') || base.chars().next().is_some_and(|c| c.is_lowercase()) {
        return p.to_string();
    }
    match w.resolve_simple_type(base, &Ctx { file: u32::MAX, types: Vec::new(), tvars: Vec::new() }) {
        Some(TypeName::Class(f, _)) => format!("{f}{dims}"),
        _ => p.to_string(),
    }
}

/// A type given by qualified name, or by simple name when unique in the workspace.
fn resolve_type_spec(w: &World, t: &str) -> Result<String, ToolError> {
    if w.by_fqn(t).is_some() {
        return Ok(t.to_string());
    }
    if !t.contains('.') {
        let matches: Vec<TypeId> = w.all_types().filter(|i| &*w.decl(*i).simple == t).collect();
        return match matches.len() {
            1 => Ok(w.decl(matches[0]).fqn.to_string()),
            0 => match w.resolve_qualified(&format!("java.lang.{t}")) {
                Some(TypeName::Class(f, Origin::Jdk)) => Ok(f),
                _ => Err(ToolError::NotFound(format!("no type named {t} in the workspace; give its qualified name"))),
            },
            _ => Err(ToolError::InvalidArgument(format!(
                "{t} is ambiguous: {}; give the qualified name",
                matches.iter().map(|i| w.decl(*i).fqn.to_string()).collect::<Vec<_>>().join(", ")
            ))),
        };
    }
    match w.resolve_qualified(t) {
        Some(TypeName::Class(f, Origin::Library)) => {
            // A package the workspace or the JDK has, without that type: it does not exist.
            let pkg = f.rsplit_once('.').map(|x| x.0).unwrap_or("");
            if w.is_package(pkg) {
                Err(ToolError::NotFound(format!("no type {t}: package {pkg} has no such type")))
            } else {
                Ok(f)
            }
        }
        Some(TypeName::Class(f, o)) if o != Origin::Unresolved => Ok(f),
        _ => Err(ToolError::NotFound(format!("no type {t}"))),
    }
}

/// Adds the methods overriding a method target (in workspace subtypes).
pub fn add_overriders(w: &World, t: &mut Target) {
    if t.category != Category::Method {
        return;
    }
    for base_key in t.keys.clone() {
        let Some((owner, rest)) = base_key.split_once('#') else { continue };
        let Some(owner_id) = w.by_fqn(owner) else { continue };
        let name = rest.split('(').next().unwrap_or("");
        let arity = rest
            .trim_end_matches(')')
            .split_once('(')
            .map(|x| x.1)
            .filter(|p| !p.is_empty())
            .map_or(0, |p| p.split(',').count());
        for sub in w.types_with_method(name).to_vec() {
            if sub == owner_id {
                continue;
            }
            let ty = Ty::class(&w.decl(sub).fqn);
            if !w.hierarchy(&ty).iter().any(|(_, id)| *id == Some(owner_id)) {
                continue;
            }
            let (visible, _) = w.find_methods(&ty, name);
            let hidden = !visible.iter().any(|f| w.method_key(f.owner, f.decl) == base_key);
            if !hidden {
                continue;
            }
            for f in visible.iter().filter(|f| f.owner == sub && f.decl.params.len() == arity) {
                let k = w.method_key(f.owner, f.decl);
                t.overriders.insert(k, base_key.clone());
            }
        }
    }
}

/// The target under a position of a file: a reference there, or the declaration named there.
pub fn target_at(w: &World, path: &Path, line: u32, column: Option<u32>) -> Result<Target, ToolError> {
    let bytes = crate::cache::read::read_regular(path, crate::tools::MAX_FILE_BYTES)
        .map_err(|e| crate::tools::io_error(&path.display().to_string(), e))?;
    let src = crate::parser::SourceText::decode(&bytes);
    if line == 0 || line > src.lines.line_count() {
        return Err(ToolError::InvalidArgument(format!(
            "line {line} is outside the file (1..{})",
            src.lines.line_count()
        )));
    }
    let text = src.lines.line_text(&src.text, line);
    let units: Vec<u16> = text.encode_utf16().collect();
    // The identifier at (or, without a column, the first on) the line: its start column.
    let is_ident = |u: u16| char::from_u32(u as u32).is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$');
    let mut spans = Vec::new();
    let mut i = 0;
    while i < units.len() {
        if is_ident(units[i]) {
            let s = i;
            while i < units.len() && is_ident(units[i]) {
                i += 1;
            }
            spans.push((s as u32 + 1, i as u32 + 1));
        } else {
            i += 1;
        }
    }
    let refs = file_refs(w, file_index(w, path), &bytes);
    let on_line: Vec<&Ref> = refs.iter().filter(|r| r.line == line).collect();
    let pick = |col: u32| on_line.iter().find(|r| r.column == col).copied();
    let found = match column {
        Some(c) => spans.iter().find(|(s, e)| *s <= c && c < *e.max(&(s + 1))).and_then(|(s, _)| pick(*s)),
        None => spans.iter().find_map(|(s, _)| pick(*s)),
    };
    // Without a column a declaration on the line wins over the names it uses.
    if column.is_none()
        && let Some(t) = declaration_at(w, path, line, None, &spans, &units)
    {
        return Ok(t);
    }
    if let Some(r) = found {
        let key = r.targets.first().cloned().unwrap_or_default();
        return resolve_target(w, &key).or_else(|_| {
            Ok(Target {
                label: key.clone(),
                category: r.category,
                keys: r.targets.clone(),
                names: vec![name_of_key(&key)],
                decls: Vec::new(),
                overriders: HashMap::new(),
            })
        });
    }
    if let Some(t) = declaration_at(w, path, line, column, &spans, &units) {
        return Ok(t);
    }
    Err(ToolError::NotFound(format!(
        "nothing to resolve at line {line}{}: no type, method, constructor or field name there",
        column.map(|c| format!(", column {c}")).unwrap_or_default()
    )))
}

/// The type, method, constructor or field declared at a line (named at `column` if given).
fn declaration_at(
    w: &World,
    path: &Path,
    line: u32,
    column: Option<u32>,
    spans: &[(u32, u32)],
    units: &[u16],
) -> Option<Target> {
    let fi = file_index(w, path);
    if fi != u32::MAX {
        let entry = &w.files[fi as usize];
        let word_at = |c: u32| {
            spans
                .iter()
                .find(|(s, e)| *s <= c && c < *e)
                .map(|(s, e)| String::from_utf16_lossy(&units[(*s - 1) as usize..(*e - 1) as usize]))
        };
        let words: Vec<String> = match column.and_then(word_at) {
            Some(wd) => vec![wd],
            None => spans
                .iter()
                .map(|(s, e)| String::from_utf16_lossy(&units[(*s - 1) as usize..(*e - 1) as usize]))
                .collect(),
        };
        for (ti, t) in entry.decls.types.iter().enumerate() {
            let id = w.type_in_file(fi, ti as u32);
            if t.start_line > line || t.end_line < line {
                continue;
            }
            if let Some(f) = t.fields.iter().find(|f| f.line == line && words.iter().any(|x| *x == *f.name)) {
                return resolve_target(w, &w.field_key(id, f)).ok();
            }
            for m in t.methods.iter().chain(&t.ctors).filter(|m| !m.implicit && words.iter().any(|x| *x == *m.name)) {
                if m.line <= line && line <= m.line + 3 {
                    return resolve_target(w, &w.method_key(id, m)).ok();
                }
            }
        }
        // The innermost type declared with its name on this line.
        let mut best: Option<usize> = None;
        for (ti, t) in entry.decls.types.iter().enumerate() {
            if t.start_line <= line && line <= t.start_line + 3 && words.iter().any(|x| *x == *t.simple) {
                best = Some(ti);
            }
        }
        if let Some(ti) = best {
            return resolve_target(w, &entry.decls.types[ti].fqn).ok();
        }
    }
    None
}

fn name_of_key(key: &str) -> String {
    match key.split_once('#') {
        Some((_, m)) => m.split('(').next().unwrap_or(m).to_string(),
        None => key.rsplit('.').next().unwrap_or(key).to_string(),
    }
}

/// The files to search, filtered by the `paths` globs (matched against the display path).
pub fn select_files(files: &[(Arc<Path>, String)], globs: &[String]) -> Vec<Arc<Path>> {
    files
        .iter()
        .filter(|(_, disp)| globs.is_empty() || globs.iter().any(|p| glob_match(p, disp)))
        .map(|(p, _)| p.clone())
        .collect()
}

fn glob_match(pattern: &str, path: &str) -> bool {
    let p = pattern.replace("**/", "*").replace("**", "*");
    wildcard_match(&p.to_lowercase(), &path.to_lowercase(), true)
        || (!pattern.contains('/')
            && wildcard_match(&p.to_lowercase(), &path.rsplit('/').next().unwrap_or(path).to_lowercase(), true))
}

/// Runs a reference search for one target.
/// A file's references to a target, each with the overrider it binds to (if not the target).
pub type FileHits = (Arc<Path>, Vec<(Ref, Option<String>)>);

pub fn search(w: &World, files: &[Arc<Path>], target: &Target) -> Vec<FileHits> {
    let keys: HashSet<&str> = target.keys.iter().map(|s| s.as_str()).collect();
    let over: &HashMap<String, String> = &target.overriders;
    let cat = target.category;
    let keep =
        |r: &Ref| r.category == cat && r.targets.iter().any(|k| keys.contains(k.as_str()) || over.contains_key(k));
    find_in_files(w, files, &target.names, &keep)
        .into_iter()
        .map(|(p, refs)| {
            let tagged = refs
                .into_iter()
                .map(|mut r| {
                    let direct = r.targets.iter().any(|k| keys.contains(k.as_str()));
                    let via = if direct { None } else { r.targets.iter().find(|k| over.contains_key(*k)).cloned() };
                    if r.targets.len() > 1 {
                        r.confidence = Confidence::Likely;
                    }
                    (r, via)
                })
                .collect();
            (p, tagged)
        })
        .collect()
}

/// Reads line `n` of a file, trimmed to 200 characters.
pub fn line_text(cache: &mut HashMap<Arc<Path>, Vec<String>>, path: &Arc<Path>, n: u32) -> String {
    let lines = cache.entry(path.clone()).or_insert_with(|| {
        crate::cache::read::read_regular(path, crate::tools::MAX_FILE_BYTES)
            .map(|b| {
                let s = crate::parser::SourceText::decode(&b);
                (1..=s.lines.line_count()).map(|i| s.lines.line_text(&s.text, i).to_string()).collect()
            })
            .unwrap_or_default()
    });
    let mut t = lines.get(n.saturating_sub(1) as usize).map(|s| s.trim().to_string()).unwrap_or_default();
    if crate::tools::truncate_chars(&mut t, 200) {
        t.push('…');
    }
    t
}

// ---- analyze_type_dependencies --------------------------------------------------------------

/// Arguments of `analyze_type_dependencies`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DependenciesArgs {
    /// The type: qualified name (`com.foo.Bar`, `com.foo.Bar.Inner`) or a simple name unique in
    /// the workspace. Or give `filePath` for the file's top-level types.
    #[serde(default, rename = "type", skip_serializing_if = "String::is_empty")]
    pub type_name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub file_path: String,
    /// Package patterns that must not be used (`java.sql`, `com.foo.internal.*`, `*.impl`):
    /// their hits are listed in `violations`.
    #[serde(default)]
    pub excluded_packages: Vec<String>,
    /// Follow workspace dependencies to their dependencies (up to `maxDepth`), with cycles.
    #[serde(default)]
    pub transitive: bool,
    /// Depth limit of the transitive closure (default 3, at most 10).
    #[serde(default = "default_depth")]
    pub max_depth: u32,
    /// Dependencies listed at most (default 200); counts always cover all.
    #[serde(default = "default_dep_limit")]
    pub limit: u32,
}

fn default_depth() -> u32 {
    3
}
fn default_dep_limit() -> u32 {
    200
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Dependency {
    pub fqn: String,
    pub package: String,
    /// workspace, jdk, library or unresolved.
    pub origin: Origin,
    /// References in the analysed type(s).
    pub count: u64,
    /// Lines of the first references (at most 20).
    pub lines: Vec<u32>,
    /// Matches an `excludedPackages` pattern.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub violation: bool,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PackageGroup {
    pub package: String,
    pub origin: Origin,
    pub types: u64,
    pub references: u64,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Violation {
    pub fqn: String,
    pub pattern: String,
    pub lines: Vec<u32>,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TransitiveType {
    pub fqn: String,
    pub depth: u32,
    /// The type that first led here.
    pub via: String,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Transitive {
    /// Workspace types reachable within maxDepth (the analysed ones excluded).
    pub types: Vec<TransitiveType>,
    /// Dependency cycles among the reached workspace types, each as a list of types.
    pub cycles: Vec<Vec<String>>,
    /// True when the depth limit stopped the walk before the closure was complete.
    pub depth_limited: bool,
}

/// The answer of `analyze_type_dependencies`.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DependenciesResult {
    /// The analysed types.
    pub types: Vec<String>,
    pub file: String,
    /// Distinct types referenced, in all.
    pub total: u64,
    pub truncated: bool,
    pub dependencies: Vec<Dependency>,
    pub packages: Vec<PackageGroup>,
    pub violations: Vec<Violation>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transitive: Option<Transitive>,
}

fn package_of(w: &World, fqn: &str) -> String {
    if let Some(id) = w.workspace_type(fqn) {
        let f = w.file_of(id);
        return w.files[f as usize].decls.package.to_string();
    }
    // The package is the prefix before the first capitalised segment.
    let segs: Vec<&str> = fqn.split('.').collect();
    let i = segs
        .iter()
        .position(|s| s.chars().next().is_some_and(|c| c.is_uppercase()))
        .unwrap_or(segs.len().saturating_sub(1));
    segs[..i].join(".")
}

fn package_matches(pattern: &str, pkg: &str) -> bool {
    let p = pattern.trim();
    if p.contains('*') || p.contains('?') {
        return wildcard_match(p, pkg, true);
    }
    pkg == p || pkg.starts_with(&format!("{p}."))
}

/// The types referenced by type `id` (nested types included, itself and its members excluded):
/// fqn -> lines.
pub fn type_dependencies(w: &World, id: TypeId, refs: &[Ref]) -> BTreeMap<String, Vec<u32>> {
    let d = w.decl(id);
    let me = d.fqn.to_string();
    let mut out: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    for r in refs.iter().filter(|r| r.category == Category::Type && r.line >= d.start_line && r.line <= d.end_line) {
        for t in &r.targets {
            if *t == me || t.starts_with(&format!("{me}.")) {
                continue;
            }
            out.entry(t.clone()).or_default().push(r.line);
        }
    }
    out
}

/// `analyze_type_dependencies` over the world; `display` names files for the answer.
pub fn analyze(
    w: &World,
    roots: &[TypeId],
    args: &DependenciesArgs,
    display: &dyn Fn(&Path) -> String,
) -> Result<DependenciesResult, ToolError> {
    let first = roots.first().ok_or_else(|| ToolError::NotFound("no type to analyse".into()))?;
    let path = w.files[w.file_of(*first) as usize].path.clone();
    let refs = refs_of_file(w, &path).map_err(|e| ToolError::Io { path: display(&path), source: e })?;
    let mut deps: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    for id in roots {
        for (k, v) in type_dependencies(w, *id, &refs) {
            deps.entry(k).or_default().extend(v);
        }
    }
    let mut list: Vec<Dependency> = deps
        .iter()
        .map(|(fqn, lines)| {
            let package = package_of(w, fqn);
            let violation = args.excluded_packages.iter().any(|p| package_matches(p, &package));
            let mut ls = lines.clone();
            ls.sort_unstable();
            ls.dedup();
            ls.truncate(20);
            Dependency {
                fqn: fqn.clone(),
                package,
                origin: w.origin(fqn),
                count: lines.len() as u64,
                lines: ls,
                violation,
            }
        })
        .collect();
    let mut packages: BTreeMap<String, PackageGroup> = BTreeMap::new();
    for d in &list {
        let g = packages.entry(d.package.clone()).or_insert(PackageGroup {
            package: d.package.clone(),
            origin: d.origin,
            types: 0,
            references: 0,
        });
        g.types += 1;
        g.references += d.count;
    }
    let violations: Vec<Violation> = list
        .iter()
        .filter(|d| d.violation)
        .map(|d| Violation {
            fqn: d.fqn.clone(),
            pattern: args
                .excluded_packages
                .iter()
                .find(|p| package_matches(p, &d.package))
                .cloned()
                .unwrap_or_default(),
            lines: d.lines.clone(),
        })
        .collect();
    let total = list.len() as u64;
    // Workspace first, then by count.
    list.sort_by(|a, b| {
        (a.origin as u8, std::cmp::Reverse(a.count), &a.fqn).cmp(&(b.origin as u8, std::cmp::Reverse(b.count), &b.fqn))
    });
    let limit = args.limit.clamp(1, MAX_LIMIT) as usize;
    let truncated = list.len() > limit;
    list.truncate(limit);
    let transitive = args.transitive.then(|| closure(w, roots, &deps, args.max_depth.clamp(1, 10)));
    Ok(DependenciesResult {
        types: roots.iter().map(|i| w.decl(*i).fqn.to_string()).collect(),
        file: display(&path),
        total,
        truncated,
        dependencies: list,
        packages: packages.into_values().collect(),
        violations,
        transitive,
    })
}

fn top_level(w: &World, id: TypeId) -> TypeId {
    *w.chain(id).last().unwrap_or(&id)
}

fn closure(w: &World, roots: &[TypeId], first: &BTreeMap<String, Vec<u32>>, max_depth: u32) -> Transitive {
    let mut file_refs_cache: HashMap<PathBuf, Vec<Ref>> = HashMap::new();
    let mut edges: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let root_names: Vec<String> = roots.iter().map(|r| w.decl(*r).fqn.to_string()).collect();
    let ws_deps = |m: &BTreeMap<String, Vec<u32>>| -> Vec<String> {
        let mut v: Vec<String> =
            m.keys().filter_map(|k| w.workspace_type(k)).map(|id| w.decl(top_level(w, id)).fqn.to_string()).collect();
        v.sort();
        v.dedup();
        v
    };
    let root_top = w.decl(top_level(w, roots[0])).fqn.to_string();
    edges.insert(root_top.clone(), ws_deps(first).into_iter().filter(|d| *d != root_top).collect());
    let mut seen: HashMap<String, (u32, String)> = HashMap::new();
    seen.insert(root_top.clone(), (0, String::new()));
    let mut frontier = vec![root_top.clone()];
    let mut depth_limited = false;
    for depth in 1..=max_depth {
        let mut next = Vec::new();
        for t in &frontier {
            let deps = edges.get(t).cloned().unwrap_or_default();
            for d in deps {
                if seen.contains_key(&d) {
                    continue;
                }
                seen.insert(d.clone(), (depth, t.clone()));
                let Some(id) = w.workspace_type(&d) else { continue };
                let path = w.files[w.file_of(id) as usize].path.to_path_buf();
                let refs =
                    file_refs_cache.entry(path.clone()).or_insert_with(|| refs_of_file(w, &path).unwrap_or_default());
                let m = type_dependencies(w, id, refs);
                edges.insert(d.clone(), ws_deps(&m).into_iter().filter(|x| *x != d).collect());
                next.push(d);
            }
        }
        if next.is_empty() {
            break;
        }
        if depth == max_depth
            && next.iter().any(|t| edges.get(t).is_some_and(|e| e.iter().any(|x| !seen.contains_key(x))))
        {
            depth_limited = true;
        }
        frontier = next;
    }
    let mut types: Vec<TransitiveType> = seen
        .iter()
        .filter(|(k, _)| !root_names.contains(k) && **k != root_top)
        .map(|(k, (d, via))| TransitiveType { fqn: k.clone(), depth: *d, via: via.clone() })
        .collect();
    types.sort_by(|a, b| (a.depth, &a.fqn).cmp(&(b.depth, &b.fqn)));
    Transitive { types, cycles: cycles(&edges), depth_limited }
}

/// Strongly connected components with more than one type (Tarjan).
fn cycles(edges: &BTreeMap<String, Vec<String>>) -> Vec<Vec<String>> {
    struct T<'a> {
        edges: &'a BTreeMap<String, Vec<String>>,
        index: HashMap<&'a str, usize>,
        low: HashMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: HashSet<&'a str>,
        next: usize,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a str) {
        t.index.insert(v, t.next);
        t.low.insert(v, t.next);
        t.next += 1;
        t.stack.push(v);
        t.on.insert(v);
        if let Some(ws) = t.edges.get(v) {
            for w in ws {
                let w = w.as_str();
                if !t.edges.contains_key(w) {
                    continue;
                }
                if !t.index.contains_key(w) {
                    visit(t, w);
                    let lw = t.low[w];
                    let lv = t.low[v];
                    t.low.insert(v, lv.min(lw));
                } else if t.on.contains(w) {
                    let iw = t.index[w];
                    let lv = t.low[v];
                    t.low.insert(v, lv.min(iw));
                }
            }
        }
        if t.low[v] == t.index[v] {
            let mut comp = Vec::new();
            while let Some(x) = t.stack.pop() {
                t.on.remove(x);
                comp.push(x.to_string());
                if x == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                t.out.push(comp);
            }
        }
    }
    let mut t = T {
        edges,
        index: HashMap::new(),
        low: HashMap::new(),
        stack: Vec::new(),
        on: HashSet::new(),
        next: 0,
        out: Vec::new(),
    };
    for k in edges.keys() {
        if !t.index.contains_key(k.as_str()) {
            visit(&mut t, k);
        }
    }
    t.out.sort();
    t.out
}

// ---- show_definition ---------------------------------------------------------------------

/// Arguments of `show_definition`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ShowDefinitionArgs {
    /// A name: `Bar`, `doThing`, `Bar.doThing`, `Bar#doThing`, `com.foo.Bar`, `com.foo.Bar#count`.
    pub symbol: String,
    /// Where the name is used: candidates are ranked by this file's imports and package.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub file_path: String,
    /// With `filePath`: the line of the use; the name there is resolved exactly.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub line: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub column: u32,
    /// Candidates listed at most (default 20).
    #[serde(default = "default_def_limit")]
    pub limit: u32,
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
}

/// The answer of `show_definition`.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ShowDefinitionResult {
    pub symbol: String,
    /// exact: resolved at the given position (or a unique match); ranked: candidates by name,
    /// best first (same file's imports, then its package, then the rest).
    pub resolution: String,
    pub total: u64,
    pub truncated: bool,
    pub definitions: Vec<Definition>,
}

/// A definition candidate before it is described: the owning type and the member key.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub key: String,
    pub category: Category,
    pub type_id: Option<TypeId>,
    pub line: u32,
    pub rank: u32,
}

/// Candidates for a name, ranked from the context file (its index in the world, if any).
pub fn candidates(w: &World, symbol: &str, ctx_file: Option<u32>) -> Vec<Candidate> {
    let s = symbol.trim().replace('#', ".");
    let (qual, name) = match s.rsplit_once('.') {
        Some((q, n)) => (Some(q.to_string()), n.to_string()),
        None => (None, s.clone()),
    };
    let mut out = Vec::new();
    // The whole symbol as a type.
    if let Some(id) = w.workspace_type(&s) {
        out.push(Candidate {
            key: s.clone(),
            category: Category::Type,
            type_id: Some(id),
            line: w.decl(id).start_line,
            rank: 0,
        });
        return out;
    }
    let ctx = ctx_file.map(|f| Ctx { file: f, types: Vec::new(), tvars: Vec::new() });
    let resolved_here = ctx.as_ref().and_then(|c| match w.resolve_simple_type(&name, c) {
        Some(TypeName::Class(f, _)) => Some(f),
        _ => None,
    });
    let ctx_pkg = ctx_file.map(|f| w.files[f as usize].decls.package.to_string());
    let imported: Vec<String> = ctx_file
        .map(|f| w.files[f as usize].decls.imports.iter().map(|i| i.path.to_string()).collect())
        .unwrap_or_default();
    let rank_type = |fqn: &str, id: TypeId| -> u32 {
        if resolved_here.as_deref() == Some(fqn) {
            return 0;
        }
        if imported.iter().any(|i| i == fqn || fqn.starts_with(&format!("{i}."))) {
            return 1;
        }
        let pkg = w.files[w.file_of(id) as usize].decls.package.to_string();
        if ctx_pkg.as_deref() == Some(pkg.as_str()) {
            return 1;
        }
        if imported.iter().any(|i| i.starts_with(&pkg)) {
            return 2;
        }
        3
    };
    let owner_ok = |id: TypeId| -> bool {
        match &qual {
            None => true,
            Some(q) => {
                let d = w.decl(id);
                *d.fqn == **q || *d.simple == **q || d.fqn.ends_with(&format!(".{q}"))
            }
        }
    };
    for id in w.all_types() {
        let d = w.decl(id);
        if qual.is_none() && *d.simple == *name {
            out.push(Candidate {
                key: d.fqn.to_string(),
                category: Category::Type,
                type_id: Some(id),
                line: d.start_line,
                rank: rank_type(&d.fqn, id),
            });
        }
        if qual.as_deref().is_some_and(|q| q.contains('.')) && *d.fqn == *s {
            continue;
        }
        if !owner_ok(id) {
            continue;
        }
        if qual.is_some() && *d.simple == *name && owner_ok(id) && d.fqn.ends_with(&s) {
            out.push(Candidate {
                key: d.fqn.to_string(),
                category: Category::Type,
                type_id: Some(id),
                line: d.start_line,
                rank: rank_type(&d.fqn, id),
            });
        }
        let r = rank_type(&d.fqn, id);
        for m in d.methods.iter().filter(|m| *m.name == *name && !m.implicit) {
            out.push(Candidate {
                key: w.method_key(id, m),
                category: Category::Method,
                type_id: Some(id),
                line: m.line,
                rank: r,
            });
        }
        for f in d.fields.iter().filter(|f| *f.name == *name) {
            out.push(Candidate {
                key: w.field_key(id, f),
                category: Category::Field,
                type_id: Some(id),
                line: f.line,
                rank: r,
            });
        }
        if qual.is_some() && *d.simple == *name {
            for c in d.ctors.iter().filter(|c| !c.implicit) {
                out.push(Candidate {
                    key: w.method_key(id, c),
                    category: Category::Ctor,
                    type_id: Some(id),
                    line: c.line,
                    rank: r,
                });
            }
        }
    }
    out.sort_by(|a, b| (a.rank, a.category, &a.key).cmp(&(b.rank, b.category, &b.key)));
    out.dedup_by(|a, b| a.key == b.key);
    out
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
    let mut d = Definition {
        kind: kind_name(c.category).to_string(),
        qualified_name: c.key.clone(),
        origin,
        file: None,
        start_line: None,
        end_line: None,
        signature: None,
        javadoc: None,
        symbol_id: None,
    };
    let Some(id) = c.type_id else { return d };
    let path = w.files[w.file_of(id) as usize].path.clone();
    d.file = Some(display(&path));
    d.start_line = Some(c.line);
    let Some(outline) = outline else { return d };
    let name = name_of_key(&c.key);
    let tfqn = w.decl(id).fqn.to_string();
    let Some(t) = find_outline_type(&outline.classes, &tfqn) else { return d };
    let jd = |j: &crate::model::Javadoc| match (j.start_line, j.end_line) {
        (Some(a), Some(b)) => crate::tools::find::javadoc_summary(&path, (a, b)),
        _ => None,
    };
    match c.category {
        Category::Type => {
            d.kind = t.kind.as_str().to_string();
            d.start_line = Some(t.start_line);
            d.end_line = Some(t.end_line);
            let mut sig = format!("{} {}", t.kind.as_str(), t.name);
            if let Some(tp) = &t.type_params_text {
                sig.push_str(tp);
            }
            if let Some(e) = &t.extends {
                sig.push_str(&format!(" extends {e}"));
            }
            if !t.implements.is_empty() {
                sig.push_str(&format!(" implements {}", t.implements.join(", ")));
            }
            d.signature = Some(sig);
            d.javadoc = jd(&t.javadoc);
            d.symbol_id = Some(t.symbol_id.clone());
        }
        Category::Method => {
            if let Some(m) = t.methods.iter().filter(|m| m.name == name).min_by_key(|m| m.start_line.abs_diff(c.line)) {
                d.start_line = Some(m.start_line);
                d.end_line = Some(m.end_line);
                d.signature = Some(m.signature_text.clone());
                d.javadoc = jd(&m.javadoc);
                d.symbol_id = Some(m.symbol_id.clone());
            }
        }
        Category::Ctor => {
            if let Some(m) = t.constructors.iter().min_by_key(|m| m.start_line.abs_diff(c.line)) {
                d.start_line = Some(m.start_line);
                d.end_line = Some(m.end_line);
                d.signature = Some(m.signature_text.clone());
                d.javadoc = jd(&m.javadoc);
                d.symbol_id = Some(m.symbol_id.clone());
            }
        }
        Category::Field => {
            if let Some(f) = t.fields.iter().find(|f| f.name == name) {
                d.start_line = Some(f.start_line);
                d.end_line = Some(f.end_line);
                d.signature = Some(format!("{} {}", f.type_text, f.name));
                d.javadoc = jd(&f.javadoc);
                d.symbol_id = Some(f.symbol_id.clone());
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

/// Whether a reference kind is one of the wire names.
pub fn kind_str(k: RefKind) -> String {
    serde_json::to_value(k).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}
