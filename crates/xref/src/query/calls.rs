//! Call hierarchies from the reference index: who calls a method or constructor (incoming) and
//! whom it calls (outgoing), level by level, each reference attributed to the member it is
//! written in ([`Ref::caller`], recorded by the binder), and the test methods whose callers
//! reach a piece of code (`affected_tests`).
//!
//! A call is a reference of kind `Call`, `New`, `MethodRef`, `ThisCall` or `SuperCall` to a
//! method or constructor. Code in a lambda, an anonymous or a local class is its enclosing
//! member's (marked on the call site); field initializers and initializer blocks are their
//! type's `<clinit>` (static) or `<init>` (instance), and `<init>` is run by the type's
//! constructors, so its callers are theirs.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use crate::engine::XrefEngine;
use crate::query::target::{Target, name_of_key};
use crate::ty::Ty;
use crate::world::{TypeId, World};
use crate::{Caller, CallerKind, Category, Confidence, Ref, RefKind};

/// Whether a reference is a call of a method or constructor.
pub fn is_call(r: &Ref) -> bool {
    matches!(r.kind, RefKind::Call | RefKind::New | RefKind::MethodRef | RefKind::ThisCall | RefKind::SuperCall)
        && matches!(r.category, Category::Method | Category::Ctor)
}

/// The most call sites listed per node (the rest are counted).
pub const MAX_SITES: usize = 20;

/// One call site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    pub line: u32,
    pub column: u32,
    pub kind: RefKind,
    /// [`crate::WITHIN_LAMBDA`], [`crate::WITHIN_CLASS`] bits.
    pub within: u8,
    /// The overrider of the callee the call binds to, when not the callee itself.
    pub via: Option<String>,
    /// [`crate::Ref::via_override`]: javac binds the call to a keyless class's override.
    pub via_override: bool,
    pub confidence: Confidence,
}

/// A caller (incoming) or callee (outgoing), with the sites of the calls and what is beyond it.
#[derive(Debug, Clone)]
pub struct Node {
    pub member: Caller,
    /// Where the member is declared, when in the workspace (line 0: an initializer).
    pub decl: Option<(Arc<Path>, u32)>,
    /// The file of the call sites: the caller's (incoming) or the parent's (outgoing).
    pub file: Option<Arc<Path>>,
    pub sites: Vec<Site>,
    /// Sites in all (at most [`MAX_SITES`] are listed).
    pub site_count: usize,
    /// The member is already on the path from the root: not expanded again.
    pub cycle: bool,
    pub children: Vec<Node>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Incoming,
    Outgoing,
}

/// What to build.
#[derive(Debug, Clone, Copy)]
pub struct Query {
    pub direction: Direction,
    /// Levels, 1 to [`MAX_DEPTH`].
    pub depth: u32,
    pub include_overriders: bool,
    /// The first level's page.
    pub offset: usize,
    pub limit: usize,
    /// The most nodes in the tree: a level that would exceed it is not built.
    pub max_nodes: usize,
}

pub const MAX_DEPTH: u32 = 5;

/// A call hierarchy: the first level's page, each node expanded to the depth asked.
#[derive(Debug, Clone, Default)]
pub struct Hierarchy {
    pub roots: Vec<Node>,
    /// First-level nodes in all (every page).
    pub total: usize,
    /// The first level not built because the tree would exceed the node cap.
    pub stopped_at: Option<u32>,
    /// Files that mention a searched name but could not be bound fully.
    pub unbound: Vec<(Arc<Path>, crate::bind::DepthCut)>,
}

/// The declaration of a method, constructor or initializer key in the workspace: the file and
/// the line (0 for an initializer).
pub fn decl_of(w: &World, key: &str) -> Option<(Arc<Path>, u32)> {
    let (owner, member) = key.split_once('#')?;
    let id = w.workspace_type(owner).filter(|id| w.is_workspace(*id))?;
    let path = w.files.get(w.file_of(id) as usize)?.path.clone();
    if member.starts_with('<') {
        return Some((path, 0));
    }
    let d = w.decl(id);
    let m = d.methods.iter().chain(&d.ctors).find(|m| w.method_key(id, m) == key)?;
    Some((path, m.line))
}

/// The keys whose calls count as calls of `key`: itself, and for an instance initializer
/// the constructors of its type (which run it).
fn callee_keys(w: &World, key: &str) -> Vec<String> {
    match key.strip_suffix("#<init>") {
        Some(owner) => match w.workspace_type(owner) {
            Some(id) => w.decl(id).ctors.iter().map(|m| w.method_key(id, m)).collect(),
            None => Vec::new(),
        },
        None if key.ends_with("#<clinit>") => Vec::new(),
        None => vec![key.to_owned()],
    }
}

/// The overriders of each method key (overrider -> overridden), as `find_references`' option.
fn overriders_of(w: &World, keys: &[String]) -> HashMap<String, String> {
    let mut t = Target {
        label: String::new(),
        category: Category::Method,
        keys: keys.iter().filter(|k| !is_ctor_key(k)).cloned().collect(),
        names: Vec::new(),
        decls: Vec::new(),
        overriders: HashMap::new(),
        undeclared: false,
    };
    crate::query::target::add_overriders(w, &mut t);
    t.overriders
}

/// Whether a key names a constructor (`a.b.C#C(…)`, the member named as the type).
fn is_ctor_key(key: &str) -> bool {
    key.split_once('#').is_some_and(|(owner, m)| {
        let simple = owner.rsplit('.').next().unwrap_or(owner);
        m.split('(').next() == Some(simple) && m.contains('(')
    })
}

/// A caller, its file and its sites of one callee.
type Found1 = (Caller, Arc<Path>, Vec<Site>);

/// A site with the callee it counts for.
type SiteFor = (Site, String);

/// The calls in `files` of any of `callees` (and, with `overriders`, of their overriders),
/// grouped by caller: (caller, file, sites, the callee each site counts for).
struct Found {
    by_caller: Vec<(Caller, Arc<Path>, Vec<SiteFor>)>,
    unbound: Vec<(Arc<Path>, crate::bind::DepthCut)>,
}

fn incoming(engine: &XrefEngine, w: &World, files: &[Arc<Path>], callees: &[String], overriders: bool) -> Found {
    // Each searched key -> the callee it stands for (itself, or the key an overrider overrides).
    let mut wanted: HashMap<String, (String, Option<String>)> = HashMap::new();
    for c in callees {
        for k in callee_keys(w, c) {
            wanted.insert(k, (c.clone(), None));
        }
    }
    if overriders {
        let direct: Vec<String> = wanted.keys().cloned().collect();
        for (over, base) in overriders_of(w, &direct) {
            if let Some((c, _)) = wanted.get(&base).cloned() {
                wanted.entry(over.clone()).or_insert((c, Some(over)));
            }
        }
    }
    if wanted.is_empty() {
        return Found { by_caller: Vec::new(), unbound: Vec::new() };
    }
    let mut names: Vec<String> = wanted.keys().map(|k| name_of_key(k)).collect();
    names.sort();
    names.dedup();
    let keys: Vec<&str> = wanted.keys().map(String::as_str).collect();
    // A Kotlin file's references carry no caller (its binder does not record one): each is
    // given the member it is written in here.
    let keep = |r: &Ref| is_call(r) && r.targets.iter().any(|t| wanted.contains_key(t));
    let found = engine.find_in_files(w, files, &names, &keys, &keep);
    let mut groups: BTreeMap<(Arc<Path>, Caller), Vec<SiteFor>> = BTreeMap::new();
    for (p, mut refs) in found.files {
        if crate::kotlin::is_kotlin(&p) && refs.iter().any(|r| r.caller.is_none()) {
            super::kotlin::callers(w, &p, &mut refs);
        }
        for r in refs {
            let Some(caller) = r.caller.as_deref() else { continue };
            // A reference may name several candidates; each callee once.
            let mut seen = HashSet::new();
            for t in &r.targets {
                let Some((callee, via)) = wanted.get(t) else { continue };
                if !seen.insert(callee) {
                    continue;
                }
                let confidence = if r.targets.len() > 1 { Confidence::Likely } else { r.confidence };
                let site = Site {
                    line: r.line,
                    column: r.column,
                    kind: r.kind,
                    within: r.within,
                    via: via.clone(),
                    via_override: r.via_override,
                    confidence,
                };
                groups.entry((p.clone(), caller.clone())).or_default().push((site, callee.clone()));
            }
        }
    }
    Found { by_caller: groups.into_iter().map(|((p, c), s)| (c, p, s)).collect(), unbound: found.unbound }
}

/// The calls written in `member` (a key declared in `file`): (callee, sites).
fn outgoing(engine: &XrefEngine, w: &World, file: &Arc<Path>, member: &str) -> Vec<(Caller, Vec<Site>)> {
    let Ok(refs) = engine.refs_of(w, file) else { return Vec::new() };
    let mut groups: BTreeMap<Caller, Vec<Site>> = BTreeMap::new();
    let mut order: Vec<Caller> = Vec::new();
    for r in refs.iter().filter(|r| is_call(r) && r.caller.as_ref().is_some_and(|c| c.key == member)) {
        let Some(t) = r.targets.first() else { continue };
        let kind = if r.category == Category::Ctor { CallerKind::Constructor } else { CallerKind::Method };
        let callee = Caller { key: t.clone(), kind };
        let confidence = if r.targets.len() > 1 { Confidence::Likely } else { r.confidence };
        let site = Site {
            line: r.line,
            column: r.column,
            kind: r.kind,
            within: r.within,
            via: None,
            via_override: r.via_override,
            confidence,
        };
        let e = groups.entry(callee.clone()).or_default();
        if e.is_empty() {
            order.push(callee);
        }
        e.push(site);
    }
    // In the order of their first call.
    order
        .into_iter()
        .map(|c| {
            let sites = groups.remove(&c).unwrap_or_default();
            (c, sites)
        })
        .collect()
}

fn node(w: &World, member: Caller, file: Option<Arc<Path>>, mut sites: Vec<Site>) -> Node {
    sites.sort_by_key(|s| (s.line, s.column));
    sites.dedup_by_key(|s| (s.line, s.column));
    let site_count = sites.len();
    sites.truncate(MAX_SITES);
    let decl = decl_of(w, &member.key);
    Node { member, decl, file, sites, site_count, cycle: false, children: Vec::new() }
}

/// The call hierarchy of a method or constructor target.
pub fn call_hierarchy(engine: &XrefEngine, w: &World, files: &[Arc<Path>], target: &Target, q: &Query) -> Hierarchy {
    let depth = q.depth.clamp(1, MAX_DEPTH);
    let mut out = Hierarchy::default();
    // The first level, whole, then its page.
    let roots: Vec<Node> = match q.direction {
        Direction::Incoming => {
            let found = incoming(engine, w, files, &target.keys, q.include_overriders);
            out.unbound = found.unbound;
            found
                .by_caller
                .into_iter()
                .map(|(c, p, sites)| node(w, c, Some(p), sites.into_iter().map(|(s, _)| s).collect()))
                .collect()
        }
        Direction::Outgoing => {
            let mut all = Vec::new();
            for key in &target.keys {
                if let Some((p, _)) = decl_of(w, key) {
                    for (c, sites) in outgoing(engine, w, &p, key) {
                        all.push(node(w, c, Some(p.clone()), sites));
                    }
                }
            }
            all
        }
    };
    out.total = roots.len();
    out.roots = roots.into_iter().skip(q.offset).take(q.limit.max(1)).collect();
    let mut count = out.roots.len();
    // Paths from the root: the keys above each node of the current level.
    let root_path: Vec<String> = target.keys.clone();
    let mut level: Vec<(Vec<usize>, Vec<String>)> =
        (0..out.roots.len()).map(|i| (vec![i], root_path.clone())).collect();
    for d in 2..=depth {
        // Mark cycles and collect the members to expand.
        let mut expand: Vec<(Vec<usize>, Vec<String>)> = Vec::new();
        for (at, path) in level {
            let n = node_at(&mut out.roots, &at);
            if path.contains(&n.member.key) {
                n.cycle = true;
                continue;
            }
            if q.direction == Direction::Outgoing && n.decl.is_none() {
                continue;
            }
            let mut p = path;
            p.push(n.member.key.clone());
            expand.push((at, p));
        }
        if expand.is_empty() {
            break;
        }
        let mut children: Vec<(Vec<usize>, Vec<Node>)> = Vec::new();
        match q.direction {
            Direction::Incoming => {
                let mut keys: Vec<String> =
                    expand.iter().map(|(at, _)| node_at(&mut out.roots, at).member.key.clone()).collect();
                keys.sort();
                keys.dedup();
                let found = incoming(engine, w, files, &keys, q.include_overriders);
                out.unbound.extend(found.unbound);
                let mut by_callee: HashMap<String, Vec<Found1>> = HashMap::new();
                for (c, p, sites) in found.by_caller {
                    let mut per: BTreeMap<String, Vec<Site>> = BTreeMap::new();
                    for (s, callee) in sites {
                        per.entry(callee).or_default().push(s);
                    }
                    for (callee, s) in per {
                        by_callee.entry(callee).or_default().push((c.clone(), p.clone(), s));
                    }
                }
                for (at, _) in &expand {
                    let key = node_at(&mut out.roots, at).member.key.clone();
                    let kids = by_callee
                        .get(&key)
                        .map(|v| v.iter().map(|(c, p, s)| node(w, c.clone(), Some(p.clone()), s.clone())).collect())
                        .unwrap_or_default();
                    children.push((at.clone(), kids));
                }
            }
            Direction::Outgoing => {
                let mut memo: HashMap<String, Vec<Node>> = HashMap::new();
                for (at, _) in &expand {
                    let n = node_at(&mut out.roots, at);
                    let key = n.member.key.clone();
                    let Some((p, _)) = n.decl.clone() else { continue };
                    let kids = memo
                        .entry(key.clone())
                        .or_insert_with(|| {
                            outgoing(engine, w, &p, &key)
                                .into_iter()
                                .map(|(c, s)| node(w, c, Some(p.clone()), s))
                                .collect()
                        })
                        .clone();
                    children.push((at.clone(), kids));
                }
            }
        }
        let added: usize = children.iter().map(|(_, k)| k.len()).sum();
        if added == 0 {
            break;
        }
        if count + added > q.max_nodes {
            out.stopped_at = Some(d);
            break;
        }
        count += added;
        let mut next = Vec::new();
        let paths: HashMap<Vec<usize>, Vec<String>> = expand.into_iter().collect();
        for (at, kids) in children {
            let path = paths.get(&at).cloned().unwrap_or_default();
            for i in 0..kids.len() {
                let mut a = at.clone();
                a.push(i);
                next.push((a, path.clone()));
            }
            node_at(&mut out.roots, &at).children = kids;
        }
        level = next;
    }
    // The last level's members already on their path are cycles too.
    out
}

fn node_at<'a>(roots: &'a mut [Node], at: &[usize]) -> &'a mut Node {
    let mut n = &mut roots[at[0]];
    for i in &at[1..] {
        n = &mut n.children[*i];
    }
    n
}

/// What makes a method a test: an annotation the test frameworks run (JUnit 4 and 5, TestNG).
pub fn is_test_annotation(name: &str) -> bool {
    matches!(
        name.rsplit('.').next().unwrap_or(name),
        "Test" | "ParameterizedTest" | "RepeatedTest" | "TestFactory" | "TestTemplate"
    )
}

/// What runs a method the test frameworks call themselves, around each test of its class
/// (JUnit 4 and 5, TestNG): code it calls is reached by every test of the class.
pub fn is_lifecycle_annotation(name: &str) -> bool {
    matches!(
        name.rsplit('.').next().unwrap_or(name),
        "BeforeEach"
            | "AfterEach"
            | "BeforeAll"
            | "AfterAll"
            | "Before"
            | "After"
            | "BeforeClass"
            | "AfterClass"
            | "BeforeMethod"
            | "AfterMethod"
    )
}

/// Whether `key` is a constructor or an initializer (`<init>`, `<clinit>`): code the test
/// runner reaches by creating the test class's instance (or loading it) for each test.
pub fn is_creation_key(key: &str) -> bool {
    key.split_once('#').is_some_and(|(_, m)| m.starts_with('<')) || is_ctor_key(key)
}

/// What a caller met on the way up from the code is, to the walk of [`affected_tests`].
#[derive(Debug, Clone)]
pub enum Reach {
    /// A test method, declared at this line: the walk stops there.
    Test(u32),
    /// A method the test runner calls around tests (a `@BeforeEach` method, a test class's
    /// constructor or initializer): the tests it runs for (key, file, line). The walk stops
    /// there too: nothing but the runner calls it.
    Runs(Vec<(String, Arc<Path>, u32)>),
    /// Other code: the walk goes on to its callers.
    Code,
}

/// One test method the code reaches.
#[derive(Debug, Clone)]
pub struct AffectedTest {
    /// The test method's key.
    pub key: String,
    pub file: Arc<Path>,
    pub line: u32,
    /// One path of calls from the test down to the code: the test's key first, the code's last.
    pub path: Vec<String>,
}

/// The test methods whose callers, transitively (through the overridden methods a call may
/// dispatch to the target through), reach any of `keys`. `reach` says whether a member key
/// (declared in the given file) is a test method, or runs around the tests of its class (their
/// path then goes through it). Breadth-first, so each test's path is a shortest one;
/// `max_depth` levels at most.
pub fn affected_tests(
    engine: &XrefEngine,
    w: &World,
    files: &[Arc<Path>],
    keys: &[String],
    reach: &dyn Fn(&Path, &str) -> Reach,
    max_depth: u32,
) -> (Vec<AffectedTest>, Vec<(Arc<Path>, crate::bind::DepthCut)>) {
    // Each member reached -> the member it calls on the way to the code (None: the code).
    let mut parent: HashMap<String, Option<String>> = HashMap::new();
    let mut frontier: Vec<String> = Vec::new();
    let mut tests: BTreeMap<String, (Arc<Path>, u32)> = BTreeMap::new();
    for k in keys {
        if parent.insert(k.clone(), None).is_some() {
            continue;
        }
        // The code may be a test itself, or run around tests (a changed `@BeforeEach`).
        match decl_of(w, k).map(|(p, _)| (reach(&p, k), p)) {
            Some((Reach::Test(line), p)) => {
                tests.insert(k.clone(), (p, line));
            }
            Some((Reach::Runs(runs), _)) => {
                for (test, file, line) in runs {
                    if parent.insert(test.clone(), Some(k.clone())).is_none() {
                        tests.insert(test, (file, line));
                    }
                }
            }
            Some((Reach::Code, _)) | None => frontier.push(k.clone()),
        }
    }
    let mut unbound = Vec::new();
    for _ in 0..max_depth {
        if frontier.is_empty() {
            break;
        }
        // A call of a method this one overrides may dispatch here.
        let mut search: Vec<String> = frontier.clone();
        let mut stands_for: HashMap<String, String> = HashMap::new();
        for k in &frontier {
            for up in overridden(w, k) {
                if !parent.contains_key(&up) {
                    stands_for.insert(up.clone(), k.clone());
                    search.push(up);
                }
            }
        }
        let found = incoming(engine, w, files, &search, false);
        unbound.extend(found.unbound);
        let mut next = Vec::new();
        for (caller, p, sites) in found.by_caller {
            if parent.contains_key(&caller.key) {
                continue;
            }
            let Some((_, callee)) = sites.first() else { continue };
            let callee = stands_for.get(callee).cloned().unwrap_or_else(|| callee.clone());
            parent.insert(caller.key.clone(), Some(callee));
            match reach(&p, &caller.key) {
                Reach::Test(line) => {
                    tests.insert(caller.key.clone(), (p.clone(), line));
                }
                Reach::Runs(runs) => {
                    for (test, file, line) in runs {
                        if !parent.contains_key(&test) {
                            parent.insert(test.clone(), Some(caller.key.clone()));
                            tests.insert(test, (file, line));
                        }
                    }
                }
                Reach::Code => next.push(caller.key.clone()),
            }
        }
        next.sort();
        next.dedup();
        frontier = next;
    }
    let out = tests
        .into_iter()
        .map(|(key, (file, line))| {
            let mut path = vec![key.clone()];
            let mut at = key.clone();
            while let Some(Some(next)) = parent.get(&at) {
                path.push(next.clone());
                at = next.clone();
            }
            AffectedTest { key, file, line, path }
        })
        .collect();
    (out, unbound)
}

/// The methods of supertypes that the method `key` overrides (a call of them may dispatch to
/// it).
pub fn overridden(w: &World, key: &str) -> Vec<String> {
    let Some((owner, rest)) = key.split_once('#') else { return Vec::new() };
    if rest.starts_with('<') || is_ctor_key(key) {
        return Vec::new();
    }
    let Some(id) = w.workspace_type(owner) else { return Vec::new() };
    let name = rest.split('(').next().unwrap_or("");
    let Some(m) = w.decl(id).methods.iter().find(|m| !m.is_static && w.method_key(id, m) == key) else {
        return Vec::new();
    };
    let ty = Ty::class(&w.decl(id).fqn);
    let sig = w.signature_in(&ty, id, m);
    let mut out = Vec::new();
    for (_, sup) in w.hierarchy(&ty) {
        let Some(sup): Option<TypeId> = sup else { continue };
        if sup == id {
            continue;
        }
        for m2 in w.decl(sup).methods.iter().filter(|m2| &*m2.name == name && !m2.is_static) {
            if w.signature_in(&ty, sup, m2) == sig && w.overrides_by_access(id, m, sup, m2) {
                out.push(w.method_key(sup, m2));
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The members of a workspace file whose lines meet any of `ranges` (1-based, inclusive; none:
/// every member): methods and constructors by key, and for a line of a type outside them (a
/// field, an initializer) the type's `<clinit>` and `<init>`.
pub fn members_at(w: &World, path: &Path, bytes: &[u8], ranges: &[(u32, u32)]) -> Vec<String> {
    let outline = mji_parser::outline_declarations(&path.to_string_lossy(), bytes);
    let meets = |s: u32, e: u32| ranges.is_empty() || ranges.iter().any(|(a, b)| *a <= e && s <= *b);
    let mut out = Vec::new();
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text.lines().collect();
    fn walk(
        w: &World,
        t: &mji_model::TypeDecl,
        meets: &dyn Fn(u32, u32) -> bool,
        ranges: &[(u32, u32)],
        lines: &[&str],
        out: &mut Vec<String>,
    ) {
        if !meets(t.start_line, t.end_line) {
            return;
        }
        let id = w.workspace_type(&t.qualified_name).filter(|id| w.is_workspace(*id));
        let mut covered: Vec<(u32, u32)> = Vec::new();
        let members = t
            .methods
            .iter()
            .map(|m| (&m.name, m.start_line, m.end_line, false))
            .chain(t.constructors.iter().map(|c| (&c.name, c.start_line, c.end_line, true)));
        for (name, s, e, ctor) in members {
            covered.push((s, e));
            if !meets(s, e) {
                continue;
            }
            let Some(id) = id else { continue };
            let d = w.decl(id);
            let list = if ctor { &d.ctors } else { &d.methods };
            // The declaration's line is within the outline's range (which may start at its
            // javadoc or annotations).
            if let Some(m) = list
                .iter()
                .filter(|m| !m.implicit || ctor)
                .find(|m| (ctor || &*m.name == name.as_str()) && s.saturating_sub(1) <= m.line && m.line <= e)
            {
                out.push(w.method_key(id, m));
            }
        }
        for c in &t.inner_classes {
            covered.push((c.start_line, c.end_line));
            walk(w, c, meets, ranges, lines, out);
        }
        // Changed code of the type itself (fields, initializers), outside its members: a
        // line that is not blank, a comment or a lone brace.
        let code = |l: u32| {
            let t = lines.get(l as usize - 1).map_or("", |x| x.trim());
            !(t.is_empty() || t.starts_with("//") || t.starts_with('*') || t.starts_with("/*") || t == "}" || t == "{")
        };
        let outside = ranges.is_empty()
            || ranges.iter().any(|(a, b)| {
                (*a.max(&t.start_line).max(&1)..=*b.min(&t.end_line))
                    .any(|l| !covered.iter().any(|(s, e)| *s <= l && l <= *e) && code(l))
            });
        if outside && let Some(id) = id {
            let fqn = &w.decl(id).fqn;
            out.push(format!("{fqn}#<clinit>"));
            out.push(format!("{fqn}#<init>"));
        }
    }
    for t in &outline.classes {
        walk(w, t, &meets, ranges, &lines, &mut out);
    }
    out.sort();
    out.dedup();
    out
}
