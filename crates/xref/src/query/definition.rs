//! Definition candidates for a name: exact types and members, ranked by the context file's
//! imports and package (`show_definition` without a position).

use crate::Category;
use crate::world::{Ctx, TypeId, TypeName, World};

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
    let ctx = ctx_file.map(|f| Ctx { file: f, types: Vec::new(), tvars: Vec::new(), more_bounds: Vec::new() });
    let resolved_here = ctx.as_ref().and_then(|c| match w.resolve_simple_type(&name, c) {
        Some(TypeName::Class(f, _)) => Some(f),
        _ => None,
    });
    let ctx_pkg = ctx_file.map(|f| w.files[f as usize].decls().package.to_string());
    let imported: Vec<String> = ctx_file
        .map(|f| w.files[f as usize].decls().imports.iter().map(|i| i.path.to_string()).collect())
        .unwrap_or_default();
    let rank_type = |fqn: &str, id: TypeId| -> u32 {
        if resolved_here.as_deref() == Some(fqn) {
            return 0;
        }
        if imported.iter().any(|i| i == fqn || fqn.starts_with(&format!("{i}."))) {
            return 1;
        }
        let pkg = w.files[w.file_of(id) as usize].decls().package.to_string();
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
    // The types that can give a candidate: of the name (a type, its constructors) or declaring
    // a method or field of it, ascending as a walk over every type meets them; the tables by
    // name say which, so no other type's declarations are read (issue 38).
    let mut ids: Vec<TypeId> = w
        .types_simply_named(&name)
        .chain(w.types_with_method(&name).iter().copied())
        .chain(w.types_with_field(&name).iter().copied())
        .collect();
    ids.sort_unstable_by_key(|id| id.0);
    ids.dedup();
    for id in ids {
        let d = w.decl(id);
        let type_candidate = || Candidate {
            key: d.fqn.to_string(),
            category: Category::Type,
            type_id: Some(id),
            line: d.start_line,
            rank: rank_type(&d.fqn, id),
        };
        if qual.is_none() && *d.simple == *name {
            out.push(type_candidate());
        }
        if qual.as_deref().is_some_and(|q| q.contains('.')) && *d.fqn == *s {
            continue;
        }
        // `Outer.Inner`, `Map.Entry`: a nested type by the tail of its qualified name (its
        // own qualifier is its outer type, not itself, so this comes before `owner_ok`).
        if qual.is_some() && *d.simple == *name && d.fqn.ends_with(&format!(".{s}")) {
            out.push(type_candidate());
        }
        if !owner_ok(id) {
            continue;
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
