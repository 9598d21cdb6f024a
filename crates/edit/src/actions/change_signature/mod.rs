//! `change_signature`: rename, reorder, add and remove parameters (and rename the method)
//! across its override family, every call and every method reference. The binder half here:
//! the target's override family, the clashes [`mji_xref::signature`] finds, the lambdas and
//! method references that implement the family, every reference; the syntax half, the edits
//! of declarations and call sites (composed for nested calls), is [`syntax`].

pub mod syntax;

use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use mji_xref::target::{Target, name_of_key};
use mji_xref::{Category, Confidence, RefKind};

use crate::actions::ActionError;
use crate::ctx::{Ctx, Outcome};
use crate::{Doc, WorkspaceEdit};
use syntax::{Change, NewParam, Site};

/// What `change_signature` takes: the new name (empty: the same), the new parameter list
/// (`None`: the parameters stay), and whether `likely` references change too.
pub struct Request<'a> {
    pub new_name: &'a str,
    pub parameters: Option<Vec<ParamSpec>>,
    pub include_likely: bool,
}

/// One parameter of the new list: `from` the old index (`None`: a new parameter, which takes
/// `default_value` at every call), its name (empty: the old one's) and type.
#[derive(Debug, Clone, Default)]
pub struct ParamSpec {
    pub from: Option<u32>,
    pub name: String,
    pub ty: String,
    pub default_value: String,
}

/// The most places a refusal lists.
const MAX_LISTED: usize = 10;

fn listed(v: &[String]) -> String {
    let mut s = v.iter().take(MAX_LISTED).cloned().collect::<Vec<_>>().join(", ");
    if v.len() > MAX_LISTED {
        s.push_str(&format!(", … ({} in all)", v.len()));
    }
    s
}

/// `change_signature`: rename, reorder, add and remove parameters (and rename the method)
/// across its override family, every call and every method reference.
pub fn run(ctx: &dyn Ctx, target: &Target, args: &Request) -> Result<Outcome, ActionError> {
    let (w, scope) = ctx.world();
    let bad = |why: String| ActionError::Refused(format!("{} not changed: {why}", target.label));
    let refuse = |why: String| Err(bad(why));
    let is_ctor = match target.category {
        Category::Method => false,
        Category::Ctor => true,
        _ => return refuse("not a method or constructor".into()),
    };
    if target.keys.len() != 1 || target.decls.len() != 1 {
        return refuse(format!(
            "it names {} declarations; name one with its parameter types (`Owner#name(int,String)`)",
            target.decls.len().max(target.keys.len())
        ));
    }
    let key = &target.keys[0];
    let owner = key.split_once('#').map_or(key.as_str(), |x| x.0);
    let old_name = if is_ctor { owner.rsplit(['.', '$']).next().unwrap_or(owner).to_owned() } else { name_of_key(key) };
    let new_name = match args.new_name.trim() {
        "" => old_name.clone(),
        n if is_ctor && n != old_name => return refuse("a constructor is named by its type: rename the type".into()),
        n if !crate::is_identifier(n) => return refuse(format!("`{n}` is not a Java identifier")),
        n => n.to_owned(),
    };
    let (path, line) = target.decls[0].clone();
    let doc = ctx.read(&path)?;
    let Some(at) = syntax::declaration_name_at(&doc, line, &old_name) else {
        return refuse(format!("its declaration was not found at {}:{line}", doc.display));
    };
    let old = syntax::parameters(&doc, at).map_err(bad)?;
    if is_ctor && old.is_empty() {
        return refuse("a no-argument constructor is called implicitly (subclasses' `super()`, default constructors), where no call site can be edited".into());
    }
    let params: Vec<NewParam> = if let Some(given) = &args.parameters {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for p in given {
            let from = p.from.map(|i| i as usize);
            if let Some(i) = from {
                if i >= old.len() {
                    return refuse(format!("it has {} parameters; `from: {i}` is not one (0-based)", old.len()));
                }
                if !seen.insert(i) {
                    return refuse(format!("parameter {i} is listed twice"));
                }
            }
            let name = if p.name.trim().is_empty() {
                from.map(|i| old[i].name.clone()).unwrap_or_default()
            } else {
                p.name.trim().to_owned()
            };
            if !crate::is_identifier(&name) {
                return refuse(format!("`{name}` is not a parameter name"));
            }
            out.push(NewParam { from, name, ty: p.ty.trim().to_owned(), default_value: p.default_value.clone() });
        }
        out
    } else {
        (0..old.len()).map(|i| NewParam { from: Some(i), name: old[i].name.clone(), ..Default::default() }).collect()
    };
    let change = Change {
        old_name: old_name.clone(),
        new_name: new_name.clone(),
        old_params: old.iter().map(|p| p.name.clone()).collect(),
        params,
    };
    let renames_params = change.params.iter().any(|p| p.from.is_some_and(|i| change.old_params[i] != p.name));
    if !change.reshapes() && new_name == old_name && !renames_params {
        return refuse("nothing changes: give `parameters` (a new list) or `newName`".into());
    }
    // The new parameter types, as written and as simple erasures.
    let written: Vec<String> = change
        .params
        .iter()
        .map(|p| match p.from {
            Some(i) => old[i].ty.clone(),
            None => p.ty.clone(),
        })
        .collect();
    let erased: Vec<String> = written.iter().map(|t| mji_xref::signature::simple_erasure(t)).collect();

    // The family: every override (none for a constructor).
    let (family, mut warnings) = if is_ctor {
        (target.clone(), Vec::new())
    } else {
        let f = mji_xref::rename::rename_family(&w, target)
            .map_err(|e| bad(e.replace("renamed", "changed").replace("renaming", "changing")))?;
        (f.target, f.warnings)
    };
    let mut decls: Vec<(Arc<Path>, u32)> = family
        .keys
        .iter()
        .filter_map(|k| {
            let (o, _) = k.split_once('#')?;
            let id = w.workspace_type(o)?;
            let m = w.decl(id).methods.iter().chain(&w.decl(id).ctors).find(|m| w.method_key(id, m) == *k)?;
            Some((w.files[w.file_of(id) as usize].path.clone(), m.line))
        })
        .collect();
    if decls.is_empty() {
        decls.push((path.clone(), line));
    }
    if change.reshapes() || new_name != old_name {
        let clashes = if is_ctor {
            let id = w.workspace_type(owner);
            id.map(|id| {
                w.decl(id)
                    .ctors
                    .iter()
                    .filter(|c| !c.implicit && w.method_key(id, c) != *key && c.params.len() == erased.len())
                    .map(|c| format!("{} has as many parameters", w.method_key(id, c)))
                    .collect()
            })
            .unwrap_or_default()
        } else {
            mji_xref::signature::overload_conflicts(&w, &family.keys, &new_name, &erased)
        };
        if !clashes.is_empty() {
            return refuse(format!("the new signature clashes: {}", listed(&clashes)));
        }
    }
    // Lambdas and method references implementing the family's interfaces take its
    // parameters by position.
    if change.reshapes() && !is_ctor {
        let owners: Vec<String> = family
            .keys
            .iter()
            .filter_map(|k| k.split_once('#').map(|x| x.0.to_owned()))
            .filter(|o| w.by_fqn(o).is_some_and(|id| w.decl(id).kind == mji_model::TypeKind::Interface))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        let (found, _) = mji_xref::hierarchy::anonymous_subtypes(ctx.xref(), &w, &scope, &owners);
        let lambdas: Vec<String> = found
            .iter()
            .filter(|(_, c)| c.kind == "lambda" || c.kind == "method-ref")
            .map(|(_, c)| format!("{}:{}", c.path.as_ref().map(|p| ctx.display(p)).unwrap_or_default(), c.start_line))
            .collect();
        if !lambdas.is_empty() {
            return refuse(format!(
                "lambdas or method references implement it, which would no longer fit: {}",
                listed(&lambdas)
            ));
        }
    }

    // Every declaration and reference, per file.
    let mut per_file: BTreeMap<Arc<Path>, (Doc, Site)> = BTreeMap::new();
    let mut conflicts = Vec::new();
    let mut failures = Vec::new();
    let mut likely = Vec::new();
    let mut sites = 0usize;
    let mut overrides = 0usize;
    let mut add = |p: &Arc<Path>, f: &dyn Fn(&Doc) -> Result<Site, String>| -> Result<(), ActionError> {
        if !per_file.contains_key(p) {
            per_file.insert(p.clone(), (ctx.read(p)?, Site::default()));
        }
        let (d, acc) = per_file.get_mut(p).ok_or_else(|| ActionError::Refused("lost a file".into()))?;
        match f(d) {
            Ok(s) => {
                acc.edits.extend(s.edits);
                acc.lists.extend(s.lists);
                acc.conflicts.extend(s.conflicts);
            }
            Err(e) => failures.push(e),
        }
        Ok(())
    };
    for (p, l) in &decls {
        let is_target = **p == *path && *l == line;
        add(p, &|d: &Doc| {
            let at = syntax::declaration_name_at(d, *l, &old_name)
                .ok_or_else(|| format!("{}:{l}: the declaration of {old_name} is not there", d.display))?;
            syntax::declaration(d, at, &change, is_target)
        })?;
    }
    let found = ctx.references(&w, &scope, &family);
    for (p, refs) in &found.hits {
        for (r, _) in refs {
            if r.confidence == Confidence::Likely && !args.include_likely {
                likely.push(format!("{}:{}:{}", ctx.display(p), r.line, r.column));
                continue;
            }
            let (l, c) = (r.line, r.column);
            let decl = r.kind == RefKind::Override;
            sites += usize::from(!decl && r.kind != RefKind::Javadoc);
            overrides += usize::from(decl);
            add(p, &|d: &Doc| {
                let at = d.offset(l, c).ok_or_else(|| format!("{}:{l}:{c} is not in the file", d.display))?;
                if decl { syntax::declaration(d, at, &change, false) } else { syntax::site(d, at, &change, &written) }
            })?;
        }
    }
    if !likely.is_empty() {
        return refuse(format!(
            "references the binder is not sure of (pass includeLikely to change them too): {}",
            listed(&likely)
        ));
    }
    if !failures.is_empty() {
        return refuse(listed(&failures));
    }
    let incomplete = ctx.incomplete(found.unbound);
    if !incomplete.is_empty() {
        conflicts.push(format!(
            "{} file(s) mention {old_name} but could not be bound fully, so calls there may be missed: {}",
            incomplete.len(),
            listed(&incomplete)
        ));
    }
    let mut edit = WorkspaceEdit::default();
    for (_, (d, s)) in per_file {
        conflicts.extend(s.conflicts);
        let edits = syntax::compose(d.text(), s.edits, s.lists)
            .map_err(|e| ActionError::Refused(format!("{} not changed: {}: {e}", target.label, d.display)))?;
        let mut f = d.edit();
        f.edits = edits;
        edit.add(f);
    }
    warnings.dedup();
    let summary = format!(
        "change signature of {} to {new_name}({}): {} declaration{}, {sites} call site{}",
        target.label,
        change.params.iter().zip(&written).map(|(p, t)| format!("{t} {}", p.name)).collect::<Vec<_>>().join(", "),
        decls.len() + overrides,
        if decls.len() + overrides == 1 { "" } else { "s" },
        if sites == 1 { "" } else { "s" },
    );
    Ok(Outcome { edit, summary, conflicts, warnings, ..Outcome::default() })
}

#[cfg(test)]
mod cases {
    use super::{ParamSpec, Request, run};
    use crate::tests::{check_workspace, check_workspace_refused};
    use expect_test::expect;
    use mji_xref::target::resolve_target;

    const A: &str = "package p;\n\nclass A {\n    int area(int w, int h) {\n        return w * h;\n    }\n\n    int f() {\n        return area(2, 3) + area(4, 5);\n    }\n}\n";

    fn param(from: Option<u32>, name: &str, ty: &str, default_value: &str) -> ParamSpec {
        ParamSpec { from, name: name.into(), ty: ty.into(), default_value: default_value.into() }
    }

    #[test]
    fn parameters_swap_and_a_new_one_takes_its_default_at_every_call() {
        check_workspace(
            &[("p/A.java", A)],
            |ctx, w| {
                let parameters = Some(vec![
                    param(Some(1), "", "", ""),
                    param(Some(0), "", "", ""),
                    param(None, "scale", "int", "1"),
                ]);
                let r = Request { new_name: "", parameters, include_likely: false };
                run(ctx, &resolve_target(w, "p.A#area(int,int)").expect("target"), &r)
            },
            expect![[r#"
                --- p/A.java
                package p;

                class A {
                    int area(int h, int w, int scale) {
                        return w * h;
                    }

                    int f() {
                        return area(3, 2, 1) + area(5, 4, 1);
                    }
                }
            "#]],
        );
    }

    #[test]
    fn a_rename_changes_the_declaration_and_the_calls() {
        check_workspace(
            &[("p/A.java", A)],
            |ctx, w| {
                let r = Request { new_name: "surface", parameters: None, include_likely: false };
                run(ctx, &resolve_target(w, "p.A#area(int,int)").expect("target"), &r)
            },
            expect![[r#"
                --- p/A.java
                package p;

                class A {
                    int surface(int w, int h) {
                        return w * h;
                    }

                    int f() {
                        return surface(2, 3) + surface(4, 5);
                    }
                }
            "#]],
        );
    }

    #[test]
    fn nothing_to_change_is_refused() {
        check_workspace_refused(
            &[("p/A.java", A)],
            |ctx, w| {
                let r = Request { new_name: "", parameters: None, include_likely: false };
                run(ctx, &resolve_target(w, "p.A#area(int,int)").expect("target"), &r)
            },
            "p.A#area(int,int) not changed: nothing changes: give `parameters` (a new list) or `newName`",
        );
    }
}
