//! Dependency analysis over the world: the types one type references, and cycles among
//! types (Tarjan's strongly connected components).

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::world::{TypeId, World};
use crate::{Category, Ref};

/// The types referenced by type `id` (nested types included, itself and its members excluded):
/// fqn -> lines.
pub fn type_dependencies(w: &World, id: TypeId, refs: &[Ref]) -> BTreeMap<String, Vec<u32>> {
    let d = w.decl(id);
    let me = d.fqn.to_string();
    let mut out: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    for r in refs.iter().filter(|r| code_type_ref(r) && r.line >= d.start_line && r.line <= d.end_line) {
        for t in &r.targets {
            if *t == me || t.starts_with(&format!("{me}.")) {
                continue;
            }
            out.entry(t.clone()).or_default().push(r.line);
        }
    }
    out
}

/// A type named in code: a javadoc link is documentation, not a dependency javac sees.
fn code_type_ref(r: &Ref) -> bool {
    r.category == Category::Type && r.kind != crate::RefKind::Javadoc
}

/// The type's own nested types that it references (javac counts them as references): fqn ->
/// lines. Kept apart from [`type_dependencies`] so closures and cycles stay between types.
pub fn nested_type_references(w: &World, id: TypeId, refs: &[Ref]) -> BTreeMap<String, Vec<u32>> {
    let d = w.decl(id);
    let prefix = format!("{}.", d.fqn);
    let mut out: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    for r in refs.iter().filter(|r| code_type_ref(r) && r.line >= d.start_line && r.line <= d.end_line) {
        for t in r.targets.iter().filter(|t| t.starts_with(&prefix)) {
            out.entry(t.clone()).or_default().push(r.line);
        }
    }
    out
}

/// Strongly connected components with more than one type (Tarjan).
pub fn cycles(edges: &BTreeMap<String, Vec<String>>) -> Vec<Vec<String>> {
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
