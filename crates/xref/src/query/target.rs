//! Targets of the cross-reference tools: a name as a user writes it (`com.foo.Bar`,
//! `Bar#run(int,String)`, `Bar#Bar(int)`, `Bar#count`), a symbolId, or a file position,
//! resolved to the keys references carry; the overriders of a method; the search for one
//! target over files.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use crate::engine::{XrefEngine, file_index};
use crate::ty::Ty;
use crate::world::{Ctx, Lookup, Origin, TypeId, TypeName, World};
use crate::{Category, Confidence, Ref};

/// Why a target could not be resolved; the message names what was wrong and what exists.
#[derive(Debug, thiserror::Error)]
pub enum TargetError {
    #[error("{0}")]
    Invalid(String),
    #[error("{0}")]
    NotFound(String),
    #[error("reading {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
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
    /// Nothing known declares it: its type is in no indexed source, library or the JDK (the
    /// keys are as written). An answer of no references then means only that, and is said so
    /// with the nearest declared names ([`did_you_mean`]) rather than as a count of 0.
    pub undeclared: bool,
}

pub fn kind_name(c: Category) -> &'static str {
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
pub fn target_of_symbol_id(id: &str) -> Result<String, TargetError> {
    let body = id.split('|').next().unwrap_or(id);
    let (kind, rest) = body
        .split_once('#')
        .ok_or_else(|| TargetError::Invalid(format!("symbolId {id:?} is not a stable id (Kind#name…)")))?;
    let rest = match rest.rfind(')') {
        Some(i) => &rest[..=i],
        None => rest.split(':').next().unwrap_or(rest),
    };
    let _ = kind;
    Ok(rest.to_string())
}

/// The kind of declaration a stable symbolId names (`Field#…`, `Method#…`, `Ctor#…`, a type).
pub fn kind_of_symbol_id(id: &str) -> Option<Category> {
    match id.split('#').next()? {
        "Field" | "EnumConstant" => Some(Category::Field),
        "Method" => Some(Category::Method),
        "Ctor" => Some(Category::Ctor),
        "Class" | "Interface" | "Enum" | "Record" | "Annotation" => Some(Category::Type),
        _ => None,
    }
}

/// Resolves a target string against the world. A name that is both a field and a method of
/// the type is ambiguous: the error names both and how to pick one.
pub fn resolve_target(w: &World, spec: &str) -> Result<Target, TargetError> {
    resolve_target_as(w, spec, None)
}

/// [`resolve_target`], with the kind of declaration meant when the name alone is ambiguous
/// (`Some(Field)` or `Some(Method)` for `C#name` naming both).
pub fn resolve_target_as(w: &World, spec: &str, kind: Option<Category>) -> Result<Target, TargetError> {
    let spec = spec.trim();
    if spec.is_empty() {
        return Err(TargetError::Invalid("target is empty".into()));
    }
    // A file's path: what it names is at a line of it.
    if spec.contains(['/', '\\']) || (spec.ends_with(".java") && !declared(w, spec)) {
        return Err(TargetError::Invalid(format!(
            "{spec} is a file: give a line of it (FILE:LINE[:COLUMN], or filePath with line and column), \
             or the name of what it declares (com.acme.Foo, com.acme.Foo#bar)"
        )));
    }
    if let Some(member) = dotted_member(w, spec) {
        return resolve_target_as(w, &member, kind);
    }
    let (type_part, member) = match spec.split_once('#') {
        Some((t, m)) => (t.trim(), Some(m.trim())),
        None => (spec, None),
    };
    if type_part.is_empty() || member.is_some_and(|m| m.is_empty() || m.starts_with('(')) {
        return Err(TargetError::Invalid(format!(
            "target {spec} names no {}: write Type#member, e.g. java.util.HashMap#get or HashMap.get",
            if type_part.is_empty() { "type" } else { "member" }
        )));
    }
    let type_fqn = resolve_type_spec(w, type_part)?;
    let id = w.by_fqn(&type_fqn);
    let Some(member) = member else {
        let simple = type_fqn.rsplit('.').next().unwrap_or(&type_fqn).to_string();
        let undeclared = !declared(w, &type_fqn);
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
            // A type only guessed from its spelling (no declaration is known) is what
            // `undeclared_message` explains when nothing references it: never a plain 0.
            undeclared,
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
            undeclared: !declared(w, &type_fqn),
        });
    };
    let d = w.decl(id);
    let path = w.is_workspace(id).then(|| w.files[w.file_of(id) as usize].path.clone());
    let ctx = w.ctx_in(id);
    let is_ctor = *d.simple == *name;
    let pool = if is_ctor { &d.ctors } else { &d.methods };
    if params.is_none()
        && !is_ctor
        && kind != Some(Category::Method)
        && let Some(f) = d.fields.iter().find(|f| &*f.name == name)
    {
        let key = w.field_key(id, f);
        let methods: Vec<String> = pool.iter().filter(|m| &*m.name == name).map(|m| w.method_key(id, m)).collect();
        if kind.is_none() && !methods.is_empty() {
            return Err(TargetError::Invalid(format!(
                "ambiguous target {spec}: it names both the field {key} and the method{} {}; \
                 pass \"targetKind\": \"field\" or \"method\", or give the method's parameters ({})",
                if methods.len() > 1 { "s" } else { "" },
                methods.join(", "),
                methods[0].rsplit('#').next().unwrap_or_default()
            )));
        }
        return Ok(Target {
            label: key.clone(),
            category: Category::Field,
            keys: vec![key],
            names: vec![name.to_string()],
            decls: path.map(|p| vec![(p, f.line)]).unwrap_or_default(),
            overriders: HashMap::new(),
            undeclared: false,
        });
    }
    let mut keys = Vec::new();
    let mut decls = Vec::new();
    // Lombok's `@Delegate` methods are the type's own, declared at their field.
    let delegated = if is_ctor { &[][..] } else { w.delegated_methods(id) };
    for m in pool.iter().chain(delegated).filter(|m| &*m.name == name) {
        let erased = w.erased_params(m, &ctx);
        if params.as_ref().is_none_or(|ps| params_match(ps, &erased)) {
            keys.push(w.method_key(id, m));
            if let Some(p) = &path {
                decls.push((p.clone(), m.line));
            }
        }
    }
    // A member inherited from a supertype is a target of the subtype too, as javac resolves
    // `Sub#m` to the inherited declaration: answer for the declaration, saying where it is.
    let mut label = None;
    if keys.is_empty() && !is_ctor {
        let ty = Ty::class(&d.fqn);
        if params.is_none()
            && let Lookup::Found(f) = w.find_field(&ty, name)
        {
            let key = w.field_key(f.owner, f.decl);
            let owner_path = w.is_workspace(f.owner).then(|| w.files[w.file_of(f.owner) as usize].path.clone());
            return Ok(Target {
                label: format!("{key} (inherited by {})", d.fqn),
                category: Category::Field,
                keys: vec![key],
                names: vec![name.to_string()],
                decls: owner_path.map(|p| vec![(p, f.decl.line)]).unwrap_or_default(),
                overriders: HashMap::new(),
                undeclared: false,
            });
        }
        let (visible, _) = w.find_methods(&ty, name);
        let mut owners = Vec::new();
        for f in visible.iter().filter(|f| f.owner != id) {
            let erased = w.erased_params(f.decl, &w.ctx_in(f.owner));
            if params.as_ref().is_none_or(|ps| params_match(ps, &erased)) {
                keys.push(w.method_key(f.owner, f.decl));
                if w.is_workspace(f.owner) {
                    decls.push((w.files[w.file_of(f.owner) as usize].path.clone(), f.decl.line));
                }
                owners.push(w.decl(f.owner).fqn.to_string());
            }
        }
        if !keys.is_empty() {
            owners.dedup();
            label = Some(format!("{} (inherited by {} from {})", keys.join(" | "), d.fqn, owners.join(", ")));
        }
    }
    if keys.is_empty() {
        let have: Vec<String> = pool
            .iter()
            .chain(delegated)
            .map(|m| w.method_key(id, m))
            .filter(|k| k.contains(&format!("#{name}(")))
            .collect();
        let hint = if have.is_empty() {
            let near = near_members(w, id, name);
            format!(
                "{} declares no {} named {name}{}",
                d.fqn,
                if is_ctor { "constructor" } else { "method or field" },
                if near.is_empty() { String::new() } else { format!("; did you mean {}?", near.join(", ")) }
            )
        } else {
            format!("no overload matches; {} declares: {}", d.fqn, have.join(", "))
        };
        return Err(TargetError::NotFound(format!("{spec}: {hint}")));
    }
    let category = if is_ctor { Category::Ctor } else { Category::Method };
    let names = vec![name.to_string()];
    let label = label.unwrap_or_else(|| keys.join(" | "));
    Ok(Target { label, category, keys, names, decls, overriders: HashMap::new(), undeclared: false })
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
    match w.resolve_simple_type(
        base,
        &Ctx { file: u32::MAX, types: Vec::new(), tvars: Vec::new(), more_bounds: Vec::new() },
    ) {
        Some(TypeName::Class(f, _)) => format!("{f}{dims}"),
        _ => p.to_string(),
    }
}

/// A member written with a dot as people write it (`HashMap.get`, `java.util.HashMap.get(Object)`,
/// `Pair.left`), as `Type#member`: when what comes before the last dot (before any parameters)
/// is a declared type and the whole is not one (`Map.Entry` stays a type).
fn dotted_member(w: &World, spec: &str) -> Option<String> {
    if spec.contains('#') {
        return None;
    }
    let (head, params) = spec.split_at(spec.find('(').unwrap_or(spec.len()));
    let (ty, member) = head.trim().rsplit_once('.')?;
    if params.is_empty() && resolve_type_spec(w, head.trim()).is_ok_and(|f| declared(w, &f)) {
        return None;
    }
    let fqn = resolve_type_spec(w, ty.trim()).ok().filter(|f| declared(w, f))?;
    Some(format!("{fqn}#{}{params}", member.trim()))
}

/// Whether a qualified type name is declared: in the workspace or the API table, or a type
/// the JDK's name table has. That table knows top-level types only, so a nested name under a
/// type whose declaration the world has (`java.util.HashMap.get`) is declared only if that
/// declaration has it, which `by_fqn` answers.
fn declared(w: &World, fqn: &str) -> bool {
    if w.by_fqn(fqn).is_some() {
        return true;
    }
    w.jdk.is_type(fqn) && !fqn.match_indices('.').any(|(i, _)| w.by_fqn(&fqn[..i]).is_some())
}

/// A type given by qualified name, or by simple name when unique in the workspace.
fn resolve_type_spec(w: &World, t: &str) -> Result<String, TargetError> {
    if w.by_fqn(t).is_some() {
        return Ok(t.to_string());
    }
    if !t.contains('.') {
        let matches: Vec<TypeId> = w.types_simply_named(t).collect();
        return match matches.len() {
            1 => Ok(w.decl(matches[0]).fqn.to_string()),
            0 => match w.resolve_qualified(&format!("java.lang.{t}")) {
                Some(TypeName::Class(f, Origin::Jdk)) => Ok(f),
                _ => Err(TargetError::NotFound(format!(
                    "no type named {t} in the workspace; give its qualified name{}",
                    mean(&near_types(w, t))
                ))),
            },
            _ => Err(TargetError::Invalid(format!(
                "{t} is ambiguous: {}; give the qualified name",
                matches.iter().map(|i| w.decl(*i).fqn.to_string()).collect::<Vec<_>>().join(", ")
            ))),
        };
    }
    // `Map.Entry`: a type known by its simple name, then its nested types.
    if let Some((first, rest)) = t.split_once('.')
        && first.starts_with(char::is_uppercase)
        && let Ok(outer) = resolve_type_spec(w, first)
    {
        let nested = format!("{outer}.{rest}");
        if declared(w, &nested) {
            return Ok(nested);
        }
    }
    match w.resolve_qualified(t) {
        Some(TypeName::Class(f, Origin::Library)) => {
            // A package the workspace or the JDK has, without that type: it does not exist.
            let pkg = f.rsplit_once('.').map(|x| x.0).unwrap_or("");
            if w.is_package(pkg) {
                Err(TargetError::NotFound(format!(
                    "no type {t}: package {pkg} has no such type{}",
                    mean(&near_types(w, simple_of(t)))
                )))
            } else {
                Ok(f)
            }
        }
        Some(TypeName::Class(f, o)) if o != Origin::Unresolved => Ok(f),
        _ => Err(TargetError::NotFound(format!("no type {t}{}", mean(&near_types(w, simple_of(t)))))),
    }
}

/// `; did you mean A, B?`, or nothing.
fn mean(names: &[String]) -> String {
    if names.is_empty() { String::new() } else { format!("; did you mean {}?", names.join(", ")) }
}

/// At most this many names in a "did you mean".
const NEAR_MAX: usize = 5;

/// Edit distance between two names, two swapped neighbours one edit (`Grahp` is one from
/// `Graph`), or None past `max` (rows stop early).
fn distance(a: &str, b: &str, max: usize) -> Option<usize> {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len().abs_diff(b.len()) > max {
        return None;
    }
    let same = |x: char, y: char| x.eq_ignore_ascii_case(&y);
    let mut before: Vec<usize> = Vec::new();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(!same(*ca, *cb));
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
            if i > 0 && j > 0 && same(*ca, b[j - 1]) && same(a[i - 1], *cb) {
                cur[j + 1] = cur[j + 1].min(before[j - 1] + 1);
            }
        }
        // A row past `max` everywhere ends it, unless a swap can still come back from the row before.
        if cur.iter().chain(&prev).min().is_some_and(|m| *m > max) {
            return None;
        }
        before = std::mem::replace(&mut prev, cur);
    }
    prev.last().copied().filter(|d| *d <= max)
}

/// How far a name may be from a declared one to be suggested.
fn near_enough(name: &str) -> usize {
    (name.chars().count() / 4).clamp(1, 3)
}

/// How many edits `declared` is from `name` when it is near enough to be suggested for it (a
/// "did you mean"), as the targets' errors suggest names.
pub fn near_name(name: &str, declared: &str) -> Option<usize> {
    distance(declared, name, near_enough(name))
}

/// The declared types nearest to a simple type name: those of exactly that name (workspace and
/// JDK), else the workspace's within a few edits, closest first.
pub fn near_types(w: &World, simple: &str) -> Vec<String> {
    let mut exact = w.types_named(simple);
    exact.sort();
    exact.dedup();
    if !exact.is_empty() {
        exact.truncate(NEAR_MAX);
        return exact;
    }
    let max = near_enough(simple);
    let mut near: Vec<(usize, String)> = w
        .simple_names()
        .enumerate()
        .filter_map(|(i, s)| distance(s, simple, max).map(|n| (n, w.decl(TypeId(i as u32)).fqn.to_string())))
        .collect();
    near.sort();
    near.dedup();
    near.into_iter().take(NEAR_MAX).map(|(_, f)| f).collect()
}

/// The members of a type nearest to a member name it does not declare.
fn near_members(w: &World, id: TypeId, name: &str) -> Vec<String> {
    let d = w.decl(id);
    let max = near_enough(name);
    let mut near: Vec<(usize, String)> = Vec::new();
    for m in d.methods.iter() {
        if let Some(n) = distance(&m.name, name, max) {
            near.push((n, w.method_key(id, m)));
        }
    }
    for f in d.fields.iter() {
        if let Some(n) = distance(&f.name, name, max) {
            near.push((n, w.field_key(id, f)));
        }
    }
    near.sort();
    near.dedup();
    near.into_iter().take(NEAR_MAX).map(|(_, k)| k).collect()
}

/// What to say when a target nothing declares has no references: why, and the nearest declared
/// names (the same member on types of that simple name, or types a few edits away).
pub fn undeclared_message(w: &World, t: &Target) -> String {
    let key = t.keys.first().map(String::as_str).unwrap_or(&t.label);
    let (ty, member) = match key.split_once('#') {
        Some((ty, m)) => (ty, Some(m)),
        None => (key, None),
    };
    // For a member, only the types that declare a member of that name.
    let declares = |f: &str, m: &str| {
        w.by_fqn(f).is_some_and(|id| {
            let d = w.decl(id);
            d.methods.iter().any(|x| &*x.name == m) || d.fields.iter().any(|x| &*x.name == m)
        })
    };
    let near: Vec<String> = near_types(w, simple_of(ty))
        .into_iter()
        .filter(|f| f != ty)
        .filter_map(|f| match member.map(|m| m.split('(').next().unwrap_or(m)) {
            Some(m) => declares(&f, m).then(|| format!("{f}#{m}")),
            None => Some(f),
        })
        .collect();
    // The library: the package the workspace imports it from, when some file does.
    let importers = importers_of(w, ty);
    let library = match importers.first() {
        Some((pkg, file)) => format!(
            "; {} workspace file{} import{} from {pkg} (e.g. {}), a library whose jar the index does not see: \
             add it to the build's dependencies (pom.xml, then maven_update_project; build.gradle) or its jar to \
             `classpath` in your user config, and the references to it are found",
            importers.len(),
            if importers.len() == 1 { "" } else { "s" },
            if importers.len() == 1 { "s" } else { "" },
            file.file_name().map(|n| n.to_string_lossy()).unwrap_or_default()
        ),
        None => "; if it is in a library the index does not see, add the jar to `classpath` in your user config".into(),
    };
    format!(
        "no declaration of {ty} is known (not in the workspace, its indexed libraries or the JDK) and nothing references {}{}{library}",
        t.label,
        mean(&near)
    )
}

/// The workspace files importing `ty`, its members or from its package (single, on-demand or
/// static imports): the package imported from and each file's path.
fn importers_of(w: &World, ty: &str) -> Vec<(String, Arc<Path>)> {
    // The package: the segments before the first that starts upper case.
    let segs: Vec<&str> = ty.split('.').collect();
    let cut = segs.iter().position(|s| s.starts_with(|c: char| c.is_uppercase())).unwrap_or(segs.len());
    let pkg = segs[..cut].join(".");
    if pkg.is_empty() {
        return Vec::new();
    }
    let under = |path: &str| path == pkg || path.strip_prefix(pkg.as_str()).is_some_and(|r| r.starts_with('.'));
    w.files
        .iter()
        .filter(|f| f.decls().imports.iter().any(|i| under(&i.path)))
        .map(|f| (pkg.clone(), f.path.clone()))
        .collect()
}

/// Adds the methods overriding a method target (in workspace subtypes): a method of a subtype
/// overrides the target when it has the target's name and the same parameter erasures as seen
/// from the subtype (type variables substituted), so `get(String)` never counts as an
/// overrider of `get(Class)`.
pub fn add_overriders(w: &World, t: &mut Target) {
    if t.category != Category::Method {
        return;
    }
    for base_key in t.keys.clone() {
        let Some((owner, rest)) = base_key.split_once('#') else { continue };
        let Some(owner_id) = w.by_fqn(owner) else { continue };
        let name = rest.split('(').next().unwrap_or("");
        let Some(base) = w.decl(owner_id).methods.iter().find(|m| w.method_key(owner_id, m) == base_key) else {
            continue;
        };
        for sub in w.types_with_method(name).to_vec() {
            if sub == owner_id {
                continue;
            }
            let ty = Ty::class(&w.decl(sub).fqn);
            if !w.hierarchy(&ty).iter().any(|(_, id)| *id == Some(owner_id)) {
                continue;
            }
            let base_sig = w.signature_in(&ty, owner_id, base);
            for m in w.decl(sub).methods.iter().filter(|m| &*m.name == name && !m.is_static) {
                if w.signature_in(&ty, sub, m) == base_sig && w.overrides_by_access(sub, m, owner_id, base) {
                    t.overriders.insert(w.method_key(sub, m), base_key.clone());
                }
            }
        }
    }
}

/// The target under a position of a file: a reference there, or the declaration named there.
pub fn target_at(
    engine: &XrefEngine,
    w: &World,
    path: &Path,
    line: u32,
    column: Option<u32>,
) -> Result<Target, TargetError> {
    let bytes = mji_fs::read_regular(path, mji_fs::DEFAULT_MAX_FILE_BYTES)
        .map_err(|e| TargetError::Io { path: path.display().to_string(), source: e })?;
    let src = mji_parser::SourceText::decode(&bytes);
    if line == 0 || line > src.lines.line_count() {
        return Err(TargetError::Invalid(format!("line {line} is outside the file (1..{})", src.lines.line_count())));
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
    let refs = engine.refs_in(w, &Arc::from(path), &bytes);
    let on_line: Vec<&Ref> = refs.iter().filter(|r| r.line == line).collect();
    let pick = |col: u32| on_line.iter().find(|r| r.column == col).copied();
    let found = match column {
        Some(c) => spans.iter().find(|(s, e)| *s <= c && c < *e.max(&(s + 1))).and_then(|(s, _)| pick(*s)),
        None => spans.iter().find_map(|(s, _)| pick(*s)),
    };
    // Without a column a declaration on the line wins over the names it uses.
    if column.is_none()
        && let Some(t) = declaration_at(w, &src, path, line, None, &spans, &units)
    {
        return Ok(t);
    }
    // Without a column, a line that uses several names names none of them: the first would be
    // a guess (`foo(bar())`), so the answer lists them with their columns.
    if column.is_none() {
        let mut named: Vec<(u32, &str)> = Vec::new();
        for (s, _) in &spans {
            if let Some(key) = pick(*s).and_then(|r| r.targets.first())
                && !named.iter().any(|(_, k)| *k == key.as_str())
            {
                named.push((*s, key));
            }
        }
        if named.len() > 1 {
            let list: Vec<String> = named.iter().map(|(c, k)| format!("column {c}: {k}")).collect();
            return Err(TargetError::Invalid(format!(
                "line {line} uses {} names ({}); give the column of the one you mean",
                named.len(),
                list.join("; ")
            )));
        }
    }
    if let Some(r) = found {
        let key = r.targets.first().cloned().unwrap_or_default();
        return resolve_target_as(w, &key, Some(r.category)).or_else(|_| {
            Ok(Target {
                label: key.clone(),
                category: r.category,
                keys: r.targets.clone(),
                names: vec![name_of_key(&key)],
                decls: Vec::new(),
                overriders: HashMap::new(),
                undeclared: false,
            })
        });
    }
    if let Some(t) = declaration_at(w, &src, path, line, column, &spans, &units) {
        return Ok(t);
    }
    // What is there instead: the references nearest the position.
    let mut near: Vec<&Ref> = refs.iter().collect();
    near.sort_by_key(|r| (r.line.abs_diff(line), r.line, column.map_or(0, |c| r.column.abs_diff(c)), r.column));
    near.dedup_by_key(|r| (r.line, r.column));
    let nearby: Vec<String> = near
        .iter()
        .take(3)
        .map(|r| format!("line {} column {}: {}", r.line, r.column, r.targets.first().map_or("", |t| t.as_str())))
        .collect();
    // A name is there that nothing binds: say what it can be, not that there is none.
    let named = column
        .and_then(|c| spans.iter().find(|(s, e)| *s <= c && c < *e))
        .map(|(s, e)| String::from_utf16_lossy(&units[(*s - 1) as usize..(*e - 1) as usize]));
    let why = match named.filter(|n| !n.starts_with(|c: char| c.is_ascii_digit())) {
        Some(n) if is_keyword(&n) => format!("`{n}` is a keyword"),
        Some(n) => format!(
            "`{n}` there is not bound: a local variable, a parameter, a package or a label, or a member of a receiver whose type is not known (a type from a library that is not on the classpath, or an expression the engine does not type)"
        ),
        None => "no type, method, constructor or field name there".to_owned(),
    };
    Err(TargetError::NotFound(format!(
        "nothing to resolve at line {line}{}: {why}{}",
        column.map(|c| format!(", column {c}")).unwrap_or_default(),
        if nearby.is_empty() { String::new() } else { format!("; nearest names: {}", nearby.join("; ")) }
    )))
}

/// The type, method, constructor or field declared at a line (named at `column` if given).
fn declaration_at(
    w: &World,
    src: &mji_parser::SourceText,
    path: &Path,
    line: u32,
    column: Option<u32>,
    spans: &[(u32, u32)],
    units: &[u16],
) -> Option<Target> {
    // `line` is within the header a declaration starts at `from` (a signature over several
    // lines): no line before it ends the header (`{` or `;`), so a use of the name in a body
    // just below (`return a();` under `int a() { … }`) is not the declaration. The annotations
    // the declaration starts with, however many lines (RxJava's four) and whatever their values
    // hold (`@Target({…})`), come before its header.
    let in_header = |from: u32| {
        if from > line {
            return false;
        }
        let mut from = from;
        let mut depth = 0i32;
        while from < line {
            let text = src.lines.line_text(&src.text, from);
            let lead = text.trim_start();
            let annotation = lead.starts_with('@') && !lead.starts_with("@interface");
            if depth <= 0 && !annotation {
                break;
            }
            depth += text.matches('(').count() as i32 - text.matches(')').count() as i32;
            from += 1;
        }
        line <= from + 3 && (from..line).all(|l| !src.lines.line_text(&src.text, l).contains(['{', ';']))
    };
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
        // A Kotlin declaration as Java sees it (a property as its accessors, a function with
        // its JVM overloads).
        if crate::kotlin::is_kotlin(path) {
            return crate::kotlin::declaration_at(w, fi, line, &words, &in_header)
                .or_else(|| kotlin_type_at(w, entry, &words, &in_header));
        }
        for (ti, t) in entry.decls().types.iter().enumerate() {
            let id = w.type_in_file(fi, ti as u32);
            if t.start_line > line || t.end_line < line {
                continue;
            }
            if let Some(f) = t.fields.iter().find(|f| f.line == line && words.iter().any(|x| *x == *f.name)) {
                return resolve_target_as(w, &w.field_key(id, f), Some(Category::Field)).ok();
            }
            for m in t.methods.iter().chain(&t.ctors).filter(|m| !m.implicit && words.iter().any(|x| *x == *m.name)) {
                if in_header(m.line) {
                    return resolve_target_as(w, &w.method_key(id, m), Some(Category::Method)).ok();
                }
            }
        }
        // The innermost type declared with its name on this line.
        let mut best: Option<usize> = None;
        for (ti, t) in entry.decls().types.iter().enumerate() {
            if in_header(t.start_line) && words.iter().any(|x| *x == *t.simple) {
                best = Some(ti);
            }
        }
        if let Some(ti) = best {
            return resolve_target(w, &entry.decls().types[ti].fqn).ok();
        }
    }
    None
}

/// The innermost Kotlin type declared with its name in view (its header at the line).
fn kotlin_type_at(
    w: &World,
    entry: &crate::world::FileEntry,
    words: &[String],
    in_header: &dyn Fn(u32) -> bool,
) -> Option<Target> {
    let t =
        entry.decls().types.iter().rev().find(|t| in_header(t.start_line) && words.iter().any(|x| *x == *t.simple))?;
    resolve_target(w, &t.fqn).ok()
}

pub fn name_of_key(key: &str) -> String {
    match key.split_once('#') {
        Some((_, m)) => m.split('(').next().unwrap_or(m).to_string(),
        None => key.rsplit('.').next().unwrap_or(key).to_string(),
    }
}

/// Runs a reference search for one target.
/// A file's references to a target, each with the overrider it binds to (if not the target).
pub type FileHits = (Arc<Path>, Vec<(Ref, Option<String>)>);

/// A reference search for one target: the files with hits, and the files that mention its
/// name but could not be bound fully (see [`crate::engine::Found::unbound`]).
#[derive(Debug, Default)]
pub struct Search {
    pub hits: Vec<FileHits>,
    pub unbound: Vec<(Arc<Path>, crate::bind::DepthCut)>,
}

pub fn search(engine: &XrefEngine, w: &World, files: &[Arc<Path>], target: &Target) -> Search {
    let keys: HashSet<&str> = target.keys.iter().map(|s| s.as_str()).collect();
    let over: &HashMap<String, String> = &target.overriders;
    let cat = target.category;
    // A lambda names no type: no reference to find, rename or import.
    let keep = |r: &Ref| {
        r.category == cat
            && r.kind != crate::RefKind::Lambda
            && r.targets.iter().any(|k| keys.contains(k.as_str()) || over.contains_key(k))
    };
    let wanted: Vec<&str> = target.keys.iter().map(|k| k.as_str()).chain(over.keys().map(|k| k.as_str())).collect();
    let found = engine.find_in_files(w, files, &target.names, &wanted, &keep);
    let hits = found
        .files
        .into_iter()
        .map(|(p, refs)| {
            let tagged = refs
                .into_iter()
                .map(|mut r| {
                    let direct = r.targets.iter().any(|k| keys.contains(k.as_str()));
                    let via = if direct { None } else { r.targets.iter().find(|k| over.contains_key(*k)).cloned() };
                    // Several targets: the binder could not choose between them — but a method
                    // an anonymous or local class declares overrides every one it names (a
                    // `Writer`'s `append(CharSequence,int,int)` overrides `Writer`'s and
                    // `Appendable`'s), which is exact.
                    if r.targets.len() > 1 && r.kind != crate::RefKind::Override {
                        r.confidence = Confidence::Likely;
                    }
                    (r, via)
                })
                .collect();
            (p, tagged)
        })
        .collect();
    Search { hits, unbound: found.unbound }
}

/// Whether `w` is a Java keyword or literal (JLS 3.9, 3.10.3, 3.10.8), which names nothing.
fn is_keyword(w: &str) -> bool {
    mji_parser::KEYWORDS.contains(&w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decls::file_decls;

    /// RxJava's operators: four annotation lines (one with `{…}` in its value) above the name.
    #[test]
    fn a_declaration_under_many_annotation_lines_is_named_at_its_name() {
        let dir = tempfile::tempdir().expect("tempdir");
        let src = "package p;\n\npublic abstract class A<T> {\n    @Deprecated\n    @SuppressWarnings({\"unchecked\",\n        \"rawtypes\"})\n    @SafeVarargs\n    @Fine(Kind.FULL)\n    public static <T> A<T> from(Object... source) {\n        return from(source);\n    }\n}\n";
        let path = dir.path().join("A.java");
        std::fs::write(&path, src).expect("write");
        let w = World::new(vec![(Arc::from(Path::new(&path)), Arc::new(file_decls(src.as_bytes())))]);
        let engine = XrefEngine::new();
        let t = target_at(&engine, &w, &path, 9, Some(28)).expect("the declaration");
        assert_eq!(t.label, "p.A#from(java.lang.Object[])");
        // A use in the body below is still not the declaration's header.
        let use_ = target_at(&engine, &w, &path, 10, Some(16)).expect("the call");
        assert_eq!(use_.label, "p.A#from(java.lang.Object[])");
    }
}
