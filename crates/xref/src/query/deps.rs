//! Dependency analysis over the world: the types one type references, the workspace types
//! reachable from it within a depth (the transitive closure), and cycles among types
//! (Tarjan's strongly connected components).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

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
    r.category == Category::Type && !matches!(r.kind, crate::RefKind::Javadoc | crate::RefKind::Lambda)
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

/// A workspace type the transitive closure reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reached {
    pub fqn: String,
    pub depth: u32,
    /// The type that first led here.
    pub via: String,
}

/// The workspace types reachable from the analysed ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Closure {
    /// The reached types (the analysed ones excluded), by depth, then name.
    pub types: Vec<Reached>,
    /// Dependency cycles among the reached workspace types, each as a sorted list of types.
    pub cycles: Vec<Vec<String>>,
    /// True when the depth limit stopped the walk before the closure was complete.
    pub depth_limited: bool,
}

/// The top-level type that holds `id` (itself when it is one).
fn top_level(w: &World, id: TypeId) -> TypeId {
    *w.chain(id).last().unwrap_or(&id)
}

/// The workspace types reachable from `roots` (types of one file) within `max_depth` steps,
/// breadth first between top-level types, starting from `first` (the roots' own
/// [`type_dependencies`]); `refs_of` gives every reference of a workspace file.
pub fn closure(
    w: &World,
    roots: &[TypeId],
    first: &BTreeMap<String, Vec<u32>>,
    max_depth: u32,
    refs_of: &dyn Fn(&Arc<Path>) -> Vec<Ref>,
) -> Closure {
    let mut file_refs_cache: HashMap<Arc<Path>, Vec<Ref>> = HashMap::new();
    let mut edges: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let root_names: Vec<String> = roots.iter().map(|r| w.decl(*r).fqn.to_string()).collect();
    let ws_deps = |m: &BTreeMap<String, Vec<u32>>| -> Vec<String> {
        let mut v: Vec<String> =
            m.keys().filter_map(|k| w.workspace_type(k)).map(|id| w.decl(top_level(w, id)).fqn.to_string()).collect();
        v.sort();
        v.dedup();
        v
    };
    let Some(&root) = roots.first() else {
        return Closure { types: Vec::new(), cycles: Vec::new(), depth_limited: false };
    };
    let root_top = w.decl(top_level(w, root)).fqn.to_string();
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
                let path = w.files[w.file_of(id) as usize].path.clone();
                let refs = file_refs_cache.entry(path.clone()).or_insert_with(|| refs_of(&path));
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
    let mut types: Vec<Reached> = seen
        .iter()
        .filter(|(k, _)| !root_names.contains(k) && **k != root_top)
        .map(|(k, (d, via))| Reached { fqn: k.clone(), depth: *d, via: via.clone() })
        .collect();
    types.sort_by(|a, b| (a.depth, &a.fqn).cmp(&(b.depth, &b.fqn)));
    Closure { types, cycles: cycles(&edges), depth_limited }
}
