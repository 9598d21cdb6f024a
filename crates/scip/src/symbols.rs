//! The reference engine's keys as scip-java's SCIP symbols: `scip-java maven <name> <version>
//! pkg/Outer#Inner#method(+N).`, with scip-java's overload order and name escaping.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, RwLock};

use mji_xref::decls::MethodSym;
use mji_xref::world::{Origin, TypeId, World};

use crate::libraries::LibraryPackages;

/// The Maven coordinates a symbol's package is written with (`.` for unknown parts).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Coordinates {
    /// `maven/<group>/<artifact>` (scip-java's `MavenPackage.repoName`), `jdk`, or `.`.
    pub name: String,
    /// The version, or `.`.
    pub version: String,
}

impl Default for Coordinates {
    fn default() -> Coordinates {
        Coordinates::unknown()
    }
}

impl Coordinates {
    /// `. .`: code whose build does not say its coordinates.
    pub fn unknown() -> Coordinates {
        Coordinates { name: ".".into(), version: ".".into() }
    }
}

/// The workspace's methods by the keys of the methods they override (scip-java's aggregator
/// adds these as `is_implementation` + `is_reference` relationships on the overridden method,
/// so "find references" on it lists its overriders).
#[derive(Debug, Default)]
pub struct Overriders(HashMap<String, Vec<String>>);

impl Overriders {
    /// Every workspace method's overridden methods, inverted (in file order).
    pub fn of(world: &World) -> Overriders {
        use rayon::prelude::*;
        let pairs: Vec<Vec<(String, String)>> = world
            .files
            .par_iter()
            .map(|f| {
                let mut out = Vec::new();
                for t in &f.decls().types {
                    let Some(id) = world.by_fqn(&t.fqn).filter(|id| world.is_workspace(*id)) else { continue };
                    let d = world.decl(id);
                    if !std::ptr::eq(d, t) {
                        continue;
                    }
                    for m in &d.methods {
                        let over = world.overridden_keys(id, m);
                        if over.is_empty() {
                            continue;
                        }
                        let key = world.method_key(id, m);
                        out.extend(over.into_iter().map(|o| (o, key.clone())));
                    }
                }
                out
            })
            .collect();
        let mut map: HashMap<String, Vec<String>> = HashMap::new();
        for (o, k) in pairs.into_iter().flatten() {
            map.entry(o).or_default().push(k);
        }
        Overriders(map)
    }
}

/// Turns keys into symbols for one world, memoizing each key (shared by the documents'
/// threads).
pub struct Symbols<'w> {
    world: &'w World,
    workspace: Coordinates,
    /// Modules with coordinates of their own, deepest directory first.
    modules: Vec<(PathBuf, Coordinates)>,
    /// Each workspace file's module coordinates (an index into `modules`; None: `workspace`).
    module_of_file: RwLock<HashMap<u32, Option<usize>>>,
    jdk: Coordinates,
    libraries: Arc<LibraryPackages>,
    overriders: Arc<Overriders>,
    memo: RwLock<HashMap<String, Option<String>>>,
}

/// scip-java's name escaping: a Java identifier as is, anything else in backticks.
pub fn escape(name: &str) -> String {
    let mut chars = name.chars();
    let ok = chars.next().is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$');
    if ok { name.to_string() } else { format!("`{name}`") }
}

/// The symbol of a package (`java/util/` of `java.util`), written as scip-java writes package
/// references: with unknown coordinates.
pub fn package_symbol(pkg: &str) -> String {
    let mut s = String::from("scip-java maven . . ");
    for seg in pkg.split('.').filter(|s| !s.is_empty()) {
        s.push_str(&escape(seg));
        s.push('/');
    }
    s
}

impl<'w> Symbols<'w> {
    pub fn new(world: &'w World, workspace: Coordinates, jdk_version: &str) -> Symbols<'w> {
        Symbols {
            world,
            workspace,
            modules: Vec::new(),
            module_of_file: RwLock::new(HashMap::new()),
            jdk: Coordinates { name: "jdk".into(), version: jdk_version.into() },
            libraries: Arc::default(),
            overriders: Arc::default(),
            memo: RwLock::new(HashMap::new()),
        }
    }

    /// These symbols with library types named by the coordinates of the archive they are in.
    pub fn with_libraries(mut self, libraries: Arc<LibraryPackages>) -> Symbols<'w> {
        self.libraries = libraries;
        self
    }

    /// These symbols with the types under each module's directory (the deepest that holds
    /// their file) named by that module's coordinates.
    pub fn with_modules(mut self, modules: &[(PathBuf, Coordinates)]) -> Symbols<'w> {
        self.modules = modules.to_vec();
        self.modules.sort_by_key(|(dir, _)| std::cmp::Reverse(dir.components().count()));
        self
    }

    /// The coordinates of the workspace type `fqn`: its module's, else the workspace's.
    fn workspace_coordinates(&self, fqn: &str) -> &Coordinates {
        if self.modules.is_empty() {
            return &self.workspace;
        }
        let Some(file) = self.world.by_fqn(fqn).map(|id| self.world.file_of(id)) else { return &self.workspace };
        let known = self.module_of_file.read().ok().and_then(|m| m.get(&file).copied());
        let at = known.unwrap_or_else(|| {
            let path = self.world.files.get(file as usize).map(|f| f.path.clone());
            let at = path.and_then(|p| self.modules.iter().position(|(dir, _)| p.starts_with(dir)));
            if let Ok(mut m) = self.module_of_file.write() {
                m.insert(file, at);
            }
            at
        });
        at.map_or(&self.workspace, |i| &self.modules[i].1)
    }

    /// These symbols with each workspace method's overriders known (scip-java's inverse
    /// relationships).
    pub fn with_overriders(mut self, overriders: Arc<Overriders>) -> Symbols<'w> {
        self.overriders = overriders;
        self
    }

    /// The keys of the workspace methods that override the method `key`, in file order.
    pub fn overriders_of(&self, key: &str) -> &[String] {
        self.overriders.0.get(key).map_or(&[], |v| v.as_slice())
    }

    pub fn world(&self) -> &'w World {
        self.world
    }

    /// The symbol of a key (`a.b.C`, `a.b.C#m(int)`, `a.b.C#f`), `None` when the key names
    /// nothing the world knows.
    pub fn of_key(&self, key: &str) -> Option<String> {
        if let Ok(m) = self.memo.read()
            && let Some(s) = m.get(key)
        {
            return s.clone();
        }
        let s = self.compute(key);
        if let Ok(mut m) = self.memo.write() {
            m.insert(key.to_string(), s.clone());
        }
        s
    }

    fn compute(&self, key: &str) -> Option<String> {
        match key.split_once('#') {
            None => self.type_symbol(key),
            Some((owner, member)) => {
                let id = self.world.by_fqn(owner)?;
                let base = self.type_symbol(owner)?;
                match member.split_once('(') {
                    None => Some(format!("{base}{}.", escape(member))),
                    Some((name, _)) => {
                        let d = self.world.decl(id);
                        let ctor = name == "<init>" || name == &*d.simple;
                        let list = if ctor { &d.ctors } else { &d.methods };
                        let m = list.iter().find(|m| self.world.method_key(id, m) == key)?;
                        Some(self.method_symbol_with(&base, id, m, ctor))
                    }
                }
            }
        }
    }

    /// A method's symbol from its owner's symbol: `name().`, `name(+N).` for the N-th overload
    /// in scip-java's order (instance methods in declaration order, then static ones).
    pub fn method_symbol_with(&self, owner_symbol: &str, owner: TypeId, m: &MethodSym, ctor: bool) -> String {
        let d = self.world.decl(owner);
        let list = if ctor { &d.ctors } else { &d.methods };
        let mut same: Vec<&MethodSym> = list.iter().filter(|x| x.name == m.name).collect();
        same.sort_by_key(|x| x.is_static);
        let n = same.iter().position(|x| std::ptr::eq(*x, m)).unwrap_or(0);
        let name = if ctor { "`<init>`".to_string() } else { escape(&m.name) };
        if n == 0 { format!("{owner_symbol}{name}().") } else { format!("{owner_symbol}{name}(+{n}).") }
    }

    /// A type's symbol: its package's segments, then each enclosing type.
    pub fn type_symbol(&self, fqn: &str) -> Option<String> {
        let (pkg, types) = self.split(fqn)?;
        let unknown;
        let coords = match self.world.origin(fqn) {
            Origin::Workspace => self.workspace_coordinates(fqn),
            Origin::Jdk => &self.jdk,
            _ => {
                // scip-java's `PackageTable`: the archive holding the top-level class file.
                let top = types.split('.').next().unwrap_or(types);
                let class = if pkg.is_empty() { top.to_string() } else { format!("{}/{top}", pkg.replace('.', "/")) };
                match self.libraries.of_class(&class) {
                    Some(c) => c,
                    None => {
                        unknown = Coordinates::unknown();
                        &unknown
                    }
                }
            }
        };
        let mut s = format!("scip-java maven {} {} ", coords.name, coords.version);
        for seg in pkg.split('.').filter(|s| !s.is_empty()) {
            s.push_str(&escape(seg));
            s.push('/');
        }
        for t in types.split('.') {
            s.push_str(&escape(t));
            s.push('#');
        }
        Some(s)
    }

    /// Splits a qualified type name into its package and its type names: the package ends
    /// before the shortest prefix that is a type the world knows (or, for a name it does not
    /// know, before the first capitalised segment).
    pub fn split<'a>(&self, fqn: &'a str) -> Option<(&'a str, &'a str)> {
        let mut start = 0;
        loop {
            let end = fqn[start..].find('.').map_or(fqn.len(), |i| start + i);
            if self.world.by_fqn(&fqn[..end]).is_some() {
                return Some(if start == 0 { ("", fqn) } else { (&fqn[..start - 1], &fqn[start..]) });
            }
            if end == fqn.len() {
                break;
            }
            start = end + 1;
        }
        // Not a known type: the Java convention.
        let mut at = 0;
        for seg in fqn.split('.') {
            if seg.starts_with(|c: char| c.is_uppercase()) {
                return Some(if at == 0 { ("", fqn) } else { (&fqn[..at - 1], &fqn[at..]) });
            }
            at += seg.len() + 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_escaped_as_scip_java_escapes_them() {
        assert_eq!(escape("value"), "value");
        assert_eq!(escape("$x_1"), "$x_1");
        assert_eq!(escape("<init>"), "`<init>`");
        assert_eq!(escape(""), "``");
    }

    #[test]
    fn package_symbols_parse_back() {
        let s = package_symbol("java.util");
        assert_eq!(s, "scip-java maven . . java/util/");
        assert!(crate::symbol_is_valid(&s));
        assert!(crate::symbol_is_valid("scip-java maven jdk 17 java/lang/String#`<init>`(+1)."));
        assert!(crate::symbol_is_valid("local 3"));
        assert!(!crate::symbol_is_valid("scip-java maven"));
    }
}
