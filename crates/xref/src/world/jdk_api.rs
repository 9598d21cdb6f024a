//! The JDK's public API as declarations: `jdk_api.txt`, generated from the JDK sources by
//! `UPDATE_JDK_API=1 cargo test --test it -- oracles::jdk_api_gen` (a test checks it is current), loaded once and shared by every [`World`].
//!
//! Format, one item per line, types fully qualified (type variables by name, wildcards already
//! reduced to their bound), so that no import context is needed:
//!
//! ```text
//! T <outer index in its group|-> <kind c|i|e|r|a> <flags|-> <fqn> <tparams|-> <supertypes|->
//! F <flags|-> <name> <type>
//! M <flags|-> <name> <tparams|-> <return type> <parameter types|->
//! C <flags|-> <tparams|-> <parameter types|->
//! ```
//!
//! A `T -` line starts the group of a top-level type; its member types follow with the index of
//! their outer type in the group. Flags: `s` static, `v` varargs, `f` final. Lists are separated
//! by commas, type parameters are `N:B1&B2`.
//!
//! # Types are read on first use
//!
//! A table with libraries (`with_libraries`, the classpath's class files) may hold 100,000
//! types (`max_archive_entries` per jar), of which a query touches a handful: the types its
//! files name and their supertypes. Parsed whole, each cost about 1.6 KB (its pseudo-file,
//! declaration, linked supertypes, qualified-name entry and the world's memo): a generated
//! jar of 100,000 classes made `find_references` peak at 204 MB, 41 MB now (`cargo bench
//! --bench libraries -- big-jar`). The JDK's part (about a thousand types) is read the same
//! way since a fresh command-line process parsed it whole for every query, a third of a
//! `refs` command's CPU time on commons-lang3 (issue 38), of which a query touches a few
//! dozen types. Each part is kept as its text (the JDK's committed table borrowed, not
//! copied) with, per type, where its qualified name is and which group it is in, and per
//! group where its lines start; a group's declarations are parsed when one of its types is
//! first asked for (`decl`), and its linked supertypes (`supers_of`, read from its `T` lines
//! alone: a type hierarchy asks for every type's) likewise, and kept. About 70 bytes a type
//! beside its text: its group's 48 (one per top-level type), its group, name and sorted
//! place (4 each), and each world's memo slot (16, the memo itself made on first use).
//!
//! This answers exactly as parsing the whole text does, because everything read from a
//! group depends on that group's lines alone:
//! - A group is the lines from a `T` line that starts one (a valid `T` line whose outer is
//!   not an index) to the next such line, which is how the whole parse splits the text into
//!   pseudo-files; the index pass and the parse accept a `T` line by the same function
//!   (`type_line`), so they find the same groups, and the same types in the same order
//!   (every valid `T` line is one type), so a type's number is the same either way.
//! - A type's declaration (`F`, `M`, `C` lines, member types by their index in the group)
//!   and its linked supertypes (resolved with the type variables of its enclosing types,
//!   which are in the same group, on their `T` lines) read nothing outside its group.
//! - Lookup by qualified name gives the first type of that name, the JDK's before the
//!   libraries' (what the whole parse's `or_insert` did): the JDK's names first, then the
//!   libraries', each part's sorted with ties by number and deduplicated keeping the first.
//! - The text never changes after indexing; a group parsed once is the group parsed again.
//!
//! One difference, for malformed text only: lines of a part's text before its first group
//! were attached to the previous part's last type by the whole parse (or to no type); they
//! are dropped (the committed table and the tables `mji_classfile::api` writes start with
//! a `T` line).
//!
//! [`World`]: crate::world::World

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

use crate::decls::{FieldSym, FileDecls, MethodSym, TParam, TypeSym};
use crate::ty::{OBJECT, Ty, TyText};
use crate::world::{Ctx, JdkTypes, TypeId, World};
use mji_model::TypeKind;

/// The loaded table: the JDK's types first, then, in a table with libraries
/// (`with_libraries`), the library types. Both parts are kept as their text, indexed by type,
/// and each group (a top-level type with its member types) is parsed and linked when one of
/// its types is first asked for (see the module doc). [`JdkApi::len`], [`JdkApi::decl`],
/// [`JdkApi::lookup`] and [`JdkApi::supers_of`] cover both parts.
pub struct JdkApi {
    /// How many types are the JDK's; the rest are libraries' (`Origin::Library`).
    pub jdk_types: u32,
    /// A hash of the library lines (0 without libraries), for what is persisted.
    pub libraries_hash: u64,
    /// The JDK's package and type names, when not the committed table's (`with_names`).
    pub names: Option<Arc<JdkTypes>>,
    /// The JDK's types: the committed table's shared by every table made with it (the
    /// process's [`JdkApi::shared`] and those with libraries), so each of its groups is
    /// parsed once per process.
    jdk: Arc<LibTypes>,
    /// The libraries' types, numbered after the JDK's.
    libs: LibTypes,
}

/// One part of a table: its text, indexed; each group parsed on first use.
#[derive(Default)]
struct LibTypes {
    text: Cow<'static, str>,
    groups: Vec<Group>,
    /// Per type: its group.
    group_of: Vec<u32>,
    /// Per type: where its qualified name starts in `text` (a space ends it).
    fqn_at: Vec<u32>,
    /// The types by qualified name, the first of each name only.
    sorted: Vec<u32>,
}

/// The lines of one top-level type and its member types.
struct Group {
    /// Where its first line starts in the text.
    start: u32,
    /// Its first type's number among the part's types.
    first: u32,
    /// Its declarations, linked.
    parsed: OnceLock<Box<FileDecls>>,
    /// Each of its types' linked supertypes, read from its `T` lines alone (what a type
    /// hierarchy reads of every type: the declarations' members stay unparsed).
    supers: OnceLock<Box<[Vec<Ty>]>>,
}

impl LibTypes {
    /// Indexes a part's lines. Of a text past 4 GiB, the lines that end before are kept.
    fn index(text: Cow<'static, str>) -> LibTypes {
        let mut libs = LibTypes::default();
        // Where the kept lines end: the whole text, or past 4 GiB the end of the last line
        // that ends before.
        let at = if text.len() <= u32::MAX as usize {
            text.len()
        } else {
            memchr::memrchr(b'\n', &text.as_bytes()[..u32::MAX as usize]).map_or(0, |i| i + 1)
        };
        // Only a line that starts with `T ` can be a `T` line (`type_line`): those are found
        // by searching for them (a tenth of the JDK table's lines), not by splitting every line.
        let kept = &text[..at];
        let starts = kept.starts_with("T ").then_some(0);
        let starts = starts.into_iter().chain(memchr::memmem::find_iter(kept.as_bytes(), b"\nT ").map(|i| i + 1));
        for start in starts {
            let raw = &kept[start..memchr::memchr(b'\n', &kept.as_bytes()[start..]).map_or(at, |e| start + e + 1)];
            let line = raw.strip_suffix('\n').map_or(raw, |l| l.strip_suffix('\r').unwrap_or(l));
            if let Some([outer, _, _, fqn, _, _]) = type_line(line) {
                if outer.parse::<u32>().is_err() {
                    libs.groups.push(Group {
                        start: start as u32,
                        first: libs.fqn_at.len() as u32,
                        parsed: OnceLock::new(),
                        supers: OnceLock::new(),
                    });
                }
                // The lines before the first group belong to no type (see the module doc).
                if let Some(g) = libs.groups.len().checked_sub(1) {
                    libs.group_of.push(g as u32);
                    let offset = fqn.as_ptr() as usize - text.as_ptr() as usize;
                    libs.fqn_at.push(offset as u32);
                }
            }
        }
        libs.text = match text {
            Cow::Borrowed(t) => Cow::Borrowed(&t[..at]),
            Cow::Owned(mut t) => {
                t.truncate(at);
                Cow::Owned(t)
            }
        };
        libs.groups.shrink_to_fit();
        libs.group_of.shrink_to_fit();
        libs.fqn_at.shrink_to_fit();
        // Sorted by (name, number) with each name cut once: comparing names cut at every
        // comparison made the sort a millisecond of every command that reads the world.
        let mut keyed: Vec<(&str, u32)> = (0..libs.fqn_at.len() as u32).map(|j| (libs.fqn(j), j)).collect();
        keyed.sort_unstable();
        keyed.dedup_by(|b, a| a.0 == b.0);
        let sorted = keyed.into_iter().map(|(_, j)| j).collect();
        libs.sorted = sorted;
        libs
    }

    fn len(&self) -> usize {
        self.fqn_at.len()
    }

    fn parsed_groups(&self) -> usize {
        self.groups.iter().filter(|g| g.parsed.get().is_some()).count()
    }

    fn fqn(&self, j: u32) -> &str {
        let rest = &self.text[self.fqn_at[j as usize] as usize..];
        rest.split(' ').next().unwrap_or(rest)
    }

    fn lookup(&self, fqn: &str) -> Option<u32> {
        let i = self.sorted.binary_search_by(|j| self.fqn(*j).cmp(fqn)).ok()?;
        Some(self.sorted[i])
    }

    /// The group of type `j` parsed, and `j`'s index in it.
    /// The group of type `j`: its number and its lines. The group's lines are one
    /// pseudo-file: they start with a `T` line of no outer.
    fn group(&self, j: u32) -> (&Group, &str) {
        let g = self.group_of[j as usize] as usize;
        let group = &self.groups[g];
        let end = self.groups.get(g + 1).map_or(self.text.len(), |n| n.start as usize);
        (group, &self.text[group.start as usize..end])
    }

    /// Type `j`'s declaration (its group parsed and linked on first use).
    fn decl(&self, j: u32) -> &TypeSym {
        let (group, lines) = self.group(j);
        let decls = group.parsed.get_or_init(|| {
            let mut decls = read_files(lines).into_iter().next().unwrap_or_default();
            link_file(&mut decls);
            Box::new(decls)
        });
        &decls.types[(j - group.first) as usize]
    }

    /// Type `j`'s direct supertypes, linked: from its group's `T` lines alone, which hold
    /// everything linking reads (each type's outer, static flag, type parameters and
    /// supertypes), so the same as from the whole group.
    fn supers(&self, j: u32) -> &[Ty] {
        let (group, lines) = self.group(j);
        let supers = group.supers.get_or_init(|| {
            let mut types = String::new();
            for line in lines.lines().filter(|l| l.split(' ').next() == Some("T")) {
                types.push_str(line);
                types.push('\n');
            }
            let mut decls = read_files(&types).into_iter().next().unwrap_or_default();
            link_file(&mut decls).into_boxed_slice()
        });
        supers.get((j - group.first) as usize).map_or(&[], |v| v.as_slice())
    }
}

impl JdkApi {
    /// The table, indexed on first use, shared.
    pub fn get() -> &'static JdkApi {
        JdkApi::shared()
    }

    /// The table, indexed on first use (its types parsed on first use), shared.
    pub fn shared() -> &'static Arc<JdkApi> {
        static API: OnceLock<Arc<JdkApi>> = OnceLock::new();
        API.get_or_init(|| Arc::new(JdkApi::of_jdk(Cow::Borrowed(TABLE))))
    }

    /// The JDK's table followed by the library types of `table` (the same format, written by
    /// `mji_classfile::api::table` from the classpath's class files). A library type the JDK
    /// table also has is the JDK's.
    pub fn with_libraries(table: &str) -> JdkApi {
        JdkApi::with_jdk(None, table)
    }

    /// [`JdkApi::with_libraries`] with the JDK's part from `jdk` (the same format, written from
    /// the user's JDK image when its version is not the committed table's) instead of the
    /// committed table.
    pub fn with_jdk(jdk: Option<&str>, libraries: &str) -> JdkApi {
        let mut api = match jdk {
            Some(t) => JdkApi::of_jdk(Cow::Owned(t.to_owned())),
            None => JdkApi::of_part(JdkApi::shared().jdk.clone()),
        };
        api.libs = LibTypes::index(Cow::Owned(libraries.to_owned()));
        api.libraries_hash = (fnv(libraries.as_bytes()) ^ jdk.map_or(0, |t| fnv(t.as_bytes()).rotate_left(1))) | 1;
        api
    }

    /// This table with the JDK's package and type names from `names` (the format of
    /// `jdk_types.txt`, read from the user's JDK image when its version is not the committed
    /// table's) instead of the committed ones: what imports and `java.lang` resolve to.
    pub fn with_names(mut self, names: &str) -> JdkApi {
        self.names = Some(Arc::new(JdkTypes::parse(names)));
        self.libraries_hash = (self.libraries_hash ^ fnv(names.as_bytes()).rotate_left(2)) | 1;
        self
    }

    /// How many types: the JDK's, then the libraries'.
    pub fn len(&self) -> usize {
        self.jdk.len() + self.libs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many of the libraries' groups (top-level types with their member types) have
    /// been parsed: those whose types were asked for.
    pub fn parsed_library_groups(&self) -> usize {
        self.libs.parsed_groups()
    }

    /// How many of the JDK's groups have been parsed.
    pub fn parsed_jdk_groups(&self) -> usize {
        self.jdk.parsed_groups()
    }

    /// The JDK part's packages, one per top-level type (in table order, repeated).
    pub fn jdk_packages(&self) -> impl Iterator<Item = &str> {
        self.jdk.groups.iter().map(|g| {
            let fqn = self.jdk.fqn(g.first);
            fqn.rsplit_once('.').map_or("", |x| x.0)
        })
    }

    /// Every type's qualified name, the JDK's then the libraries' (a name twice where two
    /// types have it), without parsing any.
    pub fn fqns(&self) -> impl Iterator<Item = &str> {
        let jdk = (0..self.jdk.len() as u32).map(|j| self.jdk.fqn(j));
        jdk.chain((0..self.libs.len() as u32).map(|j| self.libs.fqn(j)))
    }

    /// Type `i`'s qualified name, without parsing it.
    pub fn fqn(&self, i: u32) -> &str {
        let (part, j) = self.part(i);
        part.fqn(j)
    }

    /// The part type `i` is in, and its number there.
    fn part(&self, i: u32) -> (&LibTypes, u32) {
        match i.checked_sub(self.jdk_types) {
            Some(j) => (&self.libs, j),
            None => (&self.jdk, i),
        }
    }

    /// Type `i`'s declaration (its group is parsed on first use).
    pub fn decl(&self, i: u32) -> &TypeSym {
        let (part, j) = self.part(i);
        part.decl(j)
    }

    /// Type `i`'s direct supertypes, linked.
    pub fn supers_of(&self, i: u32) -> &[Ty] {
        let (part, j) = self.part(i);
        part.supers(j)
    }

    /// The first type of a qualified name: the JDK's, else the libraries'.
    pub fn lookup(&self, fqn: &str) -> Option<u32> {
        match self.jdk.lookup(fqn) {
            Some(i) => Some(i),
            None => self.libs.lookup(fqn).map(|j| self.jdk_types + j),
        }
    }

    /// The pseudo-file of type `i`: the JDK's groups, then the libraries'.
    pub(crate) fn file_of(&self, i: u32) -> u32 {
        match i.checked_sub(self.jdk_types) {
            Some(j) => self.jdk.groups.len() as u32 + self.libs.group_of[j as usize],
            None => self.jdk.group_of[i as usize],
        }
    }

    /// The number of pseudo-file `file`'s `i`-th type.
    pub(crate) fn type_in_file(&self, file: u32, i: u32) -> u32 {
        match (file as usize).checked_sub(self.jdk.groups.len()) {
            Some(g) => self.jdk_types + self.libs.groups[g].first + i,
            None => self.jdk.groups[file as usize].first + i,
        }
    }

    /// A table whose types are all the JDK's, read from `text` (each group parsed on first
    /// use).
    pub fn parse(text: &str) -> JdkApi {
        JdkApi::of_jdk(Cow::Owned(text.to_owned()))
    }

    fn of_jdk(text: Cow<'static, str>) -> JdkApi {
        JdkApi::of_part(Arc::new(LibTypes::index(text)))
    }

    fn of_part(jdk: Arc<LibTypes>) -> JdkApi {
        let jdk_types = jdk.len() as u32;
        JdkApi { jdk_types, libraries_hash: 0, names: None, jdk, libs: LibTypes::default() }
    }
}

/// A `T` line's six fields (outer index, kind, flags, qualified name, type parameters,
/// supertypes); `None` for any other line, or a `T` line with fields missing (which the
/// parse skips).
fn type_line(line: &str) -> Option<[&str; 6]> {
    let mut it = line.split(' ');
    if it.next() != Some("T") {
        return None;
    }
    let (Some(outer), Some(kind), Some(flags), Some(fqn), Some(tps), Some(sups)) =
        (it.next(), it.next(), it.next(), it.next(), it.next(), it.next())
    else {
        return None;
    };
    Some([outer, kind, flags, fqn, tps, sups])
}

/// The table's lines as pseudo-files, one per group, unlinked.
fn read_files(text: &str) -> Vec<FileDecls> {
    let mut files: Vec<FileDecls> = Vec::new();
    for line in text.lines() {
        let mut it = line.split(' ');
        match it.next() {
            Some("T") => {
                let Some([outer, kind, flags, fqn, tps, sups]) = type_line(line) else { continue };
                let outer: Option<u32> = outer.parse().ok();
                if outer.is_none() {
                    let package = fqn.rsplit_once('.').map(|x| x.0).unwrap_or("");
                    files.push(FileDecls { package: package.into(), imports: Vec::new(), types: Vec::new() });
                }
                let Some(file) = files.last_mut() else { continue };
                let kind = match kind {
                    "i" => TypeKind::Interface,
                    "e" => TypeKind::Enum,
                    "r" => TypeKind::Record,
                    "a" => TypeKind::Annotation,
                    _ => TypeKind::Class,
                };
                let supers = list(sups).into_iter().map(ty_text).collect::<Vec<_>>();
                let idx = file.types.len() as u32;
                if let Some(o) = outer
                    && let Some(ot) = file.types.get_mut(o as usize)
                {
                    ot.members.push(idx);
                }
                file.types.push(TypeSym {
                    fqn: fqn.into(),
                    simple: fqn.rsplit('.').next().unwrap_or(fqn).into(),
                    kind,
                    outer,
                    is_static: flags.contains('s'),
                    tparams: tparams(tps),
                    superclass: None,
                    interfaces: supers,
                    fields: Vec::new(),
                    methods: Vec::new(),
                    ctors: Vec::new(),
                    members: Vec::new(),
                    start_line: 0,
                    end_line: 0,
                    is_public_api: true,
                    is_final: flags.contains('f'),
                    delegates: Vec::new(),
                });
            }
            Some("F") => {
                let (Some(flags), Some(name), Some(ty)) = (it.next(), it.next(), it.next()) else { continue };
                if let Some(t) = files.last_mut().and_then(|f| f.types.last_mut()) {
                    t.fields.push(FieldSym {
                        name: name.into(),
                        ty: ty_text(ty),
                        is_static: flags.contains('s'),
                        line: 0,
                        is_public_api: true,
                        generated: false,
                    });
                }
            }
            Some("M") => {
                let (Some(flags), Some(name), Some(tps), Some(ret), Some(ps)) =
                    (it.next(), it.next(), it.next(), it.next(), it.next())
                else {
                    continue;
                };
                if let Some(t) = files.last_mut().and_then(|f| f.types.last_mut()) {
                    t.methods.push(method(name, flags, tps, ty_text(ret), ps));
                }
            }
            Some("C") => {
                let (Some(flags), Some(tps), Some(ps)) = (it.next(), it.next(), it.next()) else { continue };
                if let Some(t) = files.last_mut().and_then(|f| f.types.last_mut()) {
                    let m = method(&t.simple.clone(), flags, tps, TyText::Unknown, ps);
                    t.ctors.push(m);
                }
            }
            _ => {}
        }
    }
    files
}

/// Links a pseudo-file's types: each one's supertypes resolved (with the type variables of
/// its enclosing types, all in the file), and `superclass` set to a class's first supertype.
fn link_file(f: &mut FileDecls) -> Vec<Vec<Ty>> {
    let mut out = Vec::with_capacity(f.types.len());
    for ti in 0..f.types.len() {
        // Type variables of the enclosing types are in scope of non-static members.
        let mut tvars: Vec<(Box<str>, Ty)> = Vec::new();
        let mut cur = Some(ti as u32);
        let mut inner = true;
        while let Some(c) = cur {
            let Some(d) = f.types.get(c as usize) else { break };
            if inner || !d.is_static {
                tvars.extend(d.tparams.iter().map(|tp| (tp.name.as_str().into(), bound(tp))));
            }
            inner = false;
            cur = d.outer;
        }
        let t = &mut f.types[ti];
        let sups: Vec<Ty> = t.interfaces.iter().filter_map(|s| jdk_ty(s, &tvars)).collect();
        // Keep the written form too: `superclass` is the first class supertype.
        if t.kind == TypeKind::Class
            && let Some(first) = t.interfaces.first()
        {
            t.superclass = Some(first.clone());
            t.interfaces.remove(0);
        }
        out.push(sups);
    }
    out
}

fn bound(tp: &TParam) -> Ty {
    match tp.bounds.first() {
        Some(TyText::Named { name, .. }) if name.contains('.') => Ty::class(name),
        _ => Ty::object(),
    }
}

fn method(name: &str, flags: &str, tps: &str, ret: TyText, ps: &str) -> MethodSym {
    MethodSym {
        name: name.into(),
        tparams: tparams(tps),
        params: list(ps).into_iter().map(ty_text).collect(),
        varargs: flags.contains('v'),
        ret,
        is_static: flags.contains('s'),
        line: 0,
        implicit: false,
        is_public_api: true,
        marked_override: false,
        is_abstract: false,
        is_private: false,
        generated: false,
    }
}

/// Splits a comma-separated list at nesting depth 0; `-` is the empty list.
fn list(s: &str) -> Vec<&str> {
    if s == "-" || s.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

fn tparams(s: &str) -> Vec<TParam> {
    list(s)
        .into_iter()
        .map(|p| match p.split_once(':') {
            Some((name, bs)) => {
                let mut bounds = Vec::new();
                let mut depth = 0;
                let mut start = 0;
                for (i, c) in bs.char_indices() {
                    match c {
                        '<' => depth += 1,
                        '>' => depth -= 1,
                        '&' if depth == 0 => {
                            bounds.push(ty_text(&bs[start..i]));
                            start = i + 1;
                        }
                        _ => {}
                    }
                }
                bounds.push(ty_text(&bs[start..]));
                TParam { name: name.into(), bounds }
            }
            None => TParam { name: p.into(), bounds: Vec::new() },
        })
        .collect()
}

/// Parses a type as the table writes it.
pub(crate) fn ty_text(s: &str) -> TyText {
    let mut dims = 0u8;
    let mut s = s;
    while let Some(r) = s.strip_suffix("[]") {
        s = r;
        dims += 1;
    }
    let base = match s.split_once('<') {
        Some((name, rest)) => {
            let inner = rest.strip_suffix('>').unwrap_or(rest);
            TyText::Named { name: name.into(), args: list(inner).into_iter().map(ty_text).collect() }
        }
        None if matches!(s, "int" | "long" | "short" | "byte" | "char" | "boolean" | "float" | "double" | "void") => {
            TyText::Prim(s.into())
        }
        None if s.is_empty() => TyText::Unknown,
        None => TyText::Named { name: s.into(), args: Vec::new() },
    };
    base.with_dims(dims)
}

/// A table type as a resolved type: qualified names are classes, simple names type variables.
pub(crate) fn jdk_ty(t: &TyText, tvars: &[(Box<str>, Ty)]) -> Option<Ty> {
    match t {
        TyText::Prim(p) => Some(Ty::Prim(p.as_str().into())),
        TyText::Unknown => None,
        TyText::Array(e, d) => {
            let mut ty = jdk_ty(e, tvars)?;
            for _ in 0..*d {
                ty = Ty::Array(Box::new(ty));
            }
            Some(ty)
        }
        TyText::Named { name, args } if name == crate::ty::WILDCARD => {
            let bound = args.first().and_then(|a| jdk_ty(a, tvars)).unwrap_or_else(Ty::object);
            Some(Ty::Var(crate::ty::WILDCARD.into(), Box::new(bound)))
        }
        TyText::Named { name, args } => {
            if !name.contains('.')
                && let Some((n, b)) = tvars.iter().find(|(n, _)| n == name)
            {
                return Some(Ty::Var(n.clone(), Box::new(b.clone())));
            }
            let args = args.iter().map(|a| jdk_ty(a, tvars).unwrap_or_else(Ty::object)).collect();
            Some(Ty::Class(name.as_str().into(), args))
        }
    }
}

// ---- generation -------------------------------------------------------------------------------

fn write_ty(t: &Ty, out: &mut String) {
    match t {
        Ty::Prim(p) => out.push_str(p),
        Ty::Class(f, a) => {
            out.push_str(f);
            // `Object<X>` is a wildcard `? super X`: written so, its bound kept (a lambda
            // passed to `removeIf(Predicate<? super E>)` takes E as its parameter's type).
            if !a.is_empty() {
                out.push('<');
                for (i, x) in a.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_ty(x, out);
                }
                out.push('>');
            }
        }
        Ty::Array(e) => {
            write_ty(e, out);
            out.push_str("[]");
        }
        // A `? extends X` is written X, as before the binder kept the wildcard.
        Ty::Var(n, b) if &**n == crate::ty::WILDCARD => write_ty(b, out),
        Ty::Var(n, _) => out.push_str(n),
        Ty::Null => out.push_str(OBJECT),
    }
}

fn write_resolved(w: &World, t: &TyText, ctx: &Ctx, out: &mut String) {
    match w.resolve_text(t, ctx) {
        Some(ty) => write_ty(&ty, out),
        None => out.push_str(OBJECT),
    }
}

fn write_list<T>(items: &[T], out: &mut String, mut f: impl FnMut(&T, &mut String)) {
    if items.is_empty() {
        out.push('-');
        return;
    }
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        f(x, out);
    }
}

fn write_tparams(w: &World, tps: &[TParam], ctx: &Ctx, out: &mut String) {
    write_list(tps, out, |tp, out| {
        out.push_str(&tp.name);
        for (i, b) in tp.bounds.iter().enumerate() {
            out.push(if i == 0 { ':' } else { '&' });
            write_resolved(w, b, ctx, out);
        }
    });
}

/// Writes the table for the public API of the types of `w` (a world of JDK sources, built
/// without the table) whose package is accepted by `keep_package`.
pub fn write_table(w: &World, keep_package: &dyn Fn(&str) -> bool) -> String {
    let mut out = String::new();
    let files: Vec<usize> = (0..w.files.len()).filter(|&i| keep_package(&w.files[i].decls().package)).collect();
    // Public API types, and the (possibly package-private) supertypes they inherit members from,
    // with their enclosing types.
    let mut keep: std::collections::HashSet<TypeId> = std::collections::HashSet::new();
    let mut queue: Vec<TypeId> = Vec::new();
    for &fi in &files {
        for (ti, t) in w.files[fi].decls().types.iter().enumerate() {
            if t.is_public_api {
                queue.push(w.type_in_file(fi as u32, ti as u32));
            }
        }
    }
    while let Some(id) = queue.pop() {
        if !keep.insert(id) {
            continue;
        }
        queue.extend(w.chain(id).into_iter().skip(1));
        for s in w.supers(id) {
            if let Some((f, _)) = s.lookup_class()
                && let Some(sid) = w.by_fqn(f)
            {
                queue.push(sid);
            }
        }
    }
    let mut files: Vec<usize> = (0..w.files.len())
        .filter(|&i| (0..w.files[i].decls().types.len()).any(|t| keep.contains(&w.type_in_file(i as u32, t as u32))))
        .collect();
    files.sort_by(|a, b| w.files[*a].path.cmp(&w.files[*b].path));
    for fi in files {
        let decls = &w.files[fi].decls();
        // Each top-level public type and its public member types, re-indexed.
        let mut new_index: Vec<Option<u32>> = vec![None; decls.types.len()];
        let mut next = 0u32;
        for (ti, t) in decls.types.iter().enumerate() {
            let outer_ok = t.outer.is_none_or(|o| new_index[o as usize].is_some());
            if !keep.contains(&w.type_in_file(fi as u32, ti as u32)) || !outer_ok {
                continue;
            }
            if t.outer.is_none() {
                next = 0;
            }
            new_index[ti] = Some(next);
            next += 1;
            let id = w.type_in_file(fi as u32, ti as u32);
            let ctx = w.ctx_in(id);
            let kind = match t.kind {
                TypeKind::Class => 'c',
                TypeKind::Interface => 'i',
                TypeKind::Enum => 'e',
                TypeKind::Record => 'r',
                TypeKind::Annotation => 'a',
            };
            let mut flags = String::new();
            if t.is_static {
                flags.push('s');
            }
            if t.is_final {
                flags.push('f');
            }
            if flags.is_empty() {
                flags.push('-');
            }
            let outer = match t.outer {
                Some(o) => new_index[o as usize].map(|x| x.to_string()).unwrap_or_default(),
                None => "-".into(),
            };
            out.push_str(&format!("T {outer} {kind} {flags} {} ", t.fqn));
            write_tparams(w, &t.tparams, &ctx, &mut out);
            out.push(' ');
            write_list(w.supers(id), &mut out, write_ty);
            out.push('\n');
            for f in t.fields.iter().filter(|f| f.is_public_api) {
                out.push_str(&format!("F {} {} ", if f.is_static { "s" } else { "-" }, f.name));
                write_resolved(w, &f.ty, &ctx, &mut out);
                out.push('\n');
            }
            for (is_ctor, m) in t.ctors.iter().map(|m| (true, m)).chain(t.methods.iter().map(|m| (false, m))) {
                if !m.is_public_api {
                    continue;
                }
                let mctx = w.with_method_tparams(&ctx, &m.tparams);
                let mut flags = String::new();
                if m.is_static {
                    flags.push('s');
                }
                if m.varargs {
                    flags.push('v');
                }
                if flags.is_empty() {
                    flags.push('-');
                }
                if is_ctor {
                    out.push_str(&format!("C {flags} "));
                } else {
                    out.push_str(&format!("M {flags} {} ", m.name));
                }
                write_tparams(w, &m.tparams, &mctx, &mut out);
                out.push(' ');
                if !is_ctor {
                    write_resolved(w, &m.ret, &mctx, &mut out);
                    out.push(' ');
                }
                write_list(&m.params, &mut out, |p, out| write_resolved(w, p, &mctx, out));
                out.push('\n');
            }
        }
    }
    out
}

/// The JDK version whose sources `jdk_api.txt` was generated from.
pub const TABLE_JDK_VERSION: u32 = 17;

/// The JDK API table this build carries.
const TABLE: &str = include_str!("jdk_api.txt");

/// A hash of the table, for what is persisted from bindings made with it.
pub(crate) fn table_hash() -> u64 {
    static HASH: OnceLock<u64> = OnceLock::new();
    *HASH.get_or_init(|| fnv(TABLE.as_bytes()))
}

/// FNV-1a over 8-byte words (then the last bytes one by one): a byte at a time, the
/// committed table's hash was a millisecond of every command's start (issue 38).
fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        let mut b = [0u8; 8];
        b.copy_from_slice(w);
        h = (h ^ u64::from_le_bytes(b)).wrapping_mul(0x0100_0000_01b3);
    }
    for b in words.remainder() {
        h = (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Library lines with what the lazy part must read as the whole parse does: member types
    /// (a generic outer's type variables in a non-static member's supertypes), a type the
    /// JDK has, a name two libraries declare, a `T` line with fields missing in a group, a
    /// trailing `\r`, and fields, methods and constructors.
    const LIBS: &str = "T - c - com.a.Box T:java.lang.Number com.a.Base<T>,java.lang.Comparable<com.a.Box<T>>\n\
        F - value T\n\
        M - get - T -\n\
        C - - T\n\
        T 0 c - com.a.Box.Inner - java.util.List<T>\n\
        T 0 i s com.a.Box.Nested - -\n\
        M s of U U java.util.List<U>\n\
        T - c - com.a.Base T -\n\
        T - i - java.util.List - -\n\
        T - c - com.a.Base - -\n\
        T - c broken\n\
        F s K int\n\
        T - e f com.b.Color - java.lang.Enum<com.b.Color>\r\n\
        F s RED com.b.Color\n";

    /// The whole parse the lazy reading must agree with: every group read and linked in
    /// order, types numbered in order, the first type of a name kept.
    struct Eager {
        /// Per type: (pseudo-file, index in it).
        types: Vec<(u32, u32)>,
        by_fqn: HashMap<Box<str>, u32>,
        decls: Vec<TypeSym>,
        supers: Vec<Vec<Ty>>,
    }

    fn eager(text: &str) -> Eager {
        let mut e = Eager { types: Vec::new(), by_fqn: HashMap::new(), decls: Vec::new(), supers: Vec::new() };
        for (fi, mut f) in read_files(text).into_iter().enumerate() {
            e.supers.extend(link_file(&mut f));
            for (ti, t) in f.types.into_iter().enumerate() {
                e.by_fqn.entry(t.fqn.clone()).or_insert(e.types.len() as u32);
                e.types.push((fi as u32, ti as u32));
                e.decls.push(t);
            }
        }
        e
    }

    #[test]
    fn types_read_on_first_use_as_the_whole_parse_reads_them() {
        // A JDK part of its own (not the process's shared one, which other tests read).
        let lazy = JdkApi::with_jdk(Some(TABLE), LIBS);
        let eager = eager(&format!("{TABLE}\n{LIBS}"));
        assert_eq!((lazy.parsed_jdk_groups(), lazy.parsed_library_groups()), (0, 0));
        assert_eq!(lazy.len(), eager.types.len());
        assert_eq!(lazy.len() - lazy.jdk_types as usize, 7);
        assert_eq!(lazy.fqns().count(), lazy.len());
        // By name: nothing is parsed, and the first of a name wins (the JDK's List).
        let mut names: Vec<&str> = eager.by_fqn.keys().map(|k| &**k).collect();
        names.extend(["com.a.Missing", "com.a", "", "broken"]);
        for fqn in names {
            assert_eq!(lazy.lookup(fqn), eager.by_fqn.get(fqn).copied(), "{fqn}");
        }
        assert_eq!((lazy.parsed_jdk_groups(), lazy.parsed_library_groups()), (0, 0));
        let inner = lazy.lookup("com.a.Box.Inner").expect("Inner");
        assert_eq!(lazy.decl(inner).fqn.as_ref(), "com.a.Box.Inner");
        assert_eq!(lazy.parsed_library_groups(), 1);
        // Supertypes are read from the group's `T` lines: its declarations stay unparsed.
        let entry = lazy.lookup("java.util.Map.Entry").expect("Map.Entry");
        assert_eq!(lazy.supers_of(entry), eager.supers[entry as usize].as_slice());
        assert_eq!((lazy.parsed_jdk_groups(), lazy.parsed_library_groups()), (0, 1));
        assert_eq!(lazy.decl(entry), &eager.decls[entry as usize]);
        assert_eq!((lazy.parsed_jdk_groups(), lazy.parsed_library_groups()), (1, 1));
        for i in 0..lazy.len() as u32 {
            assert_eq!(lazy.decl(i), &eager.decls[i as usize], "type {i}");
            assert_eq!(lazy.supers_of(i), eager.supers[i as usize].as_slice(), "type {i}");
            let file = lazy.file_of(i);
            assert_eq!(file, eager.types[i as usize].0, "type {i}");
            let first = i - eager.types[i as usize].1;
            assert_eq!(lazy.type_in_file(file, eager.types[i as usize].1), i);
            assert_eq!(lazy.type_in_file(file, 0), first);
        }
        assert_eq!(lazy.parsed_library_groups(), 5);
        assert_eq!(lazy.parsed_jdk_groups(), lazy.jdk_packages().count());
        // The member's supertype has its generic outer's variable, bounded.
        let inner_supers = lazy.supers_of(inner);
        assert!(
            matches!(&inner_supers[0], Ty::Class(n, a) if &**n == "java.util.List" && matches!(&a[0], Ty::Var(..)))
        );
    }

    #[test]
    fn a_world_with_libraries_reads_only_the_groups_it_touches() {
        let api = Arc::new(JdkApi::with_jdk(Some(TABLE), LIBS));
        let w = World::with_api(Vec::new(), api.clone());
        assert_eq!(api.parsed_jdk_groups(), 0);
        let color = w.by_fqn("com.b.Color").expect("Color");
        assert_eq!(w.origin_of(color), crate::world::Origin::Library);
        assert_eq!(api.parsed_library_groups(), 0);
        let nested = w.by_fqn("com.a.Box.Nested").expect("Nested");
        assert_eq!(w.chain(nested).len(), 2);
        assert_eq!(api.parsed_library_groups(), 1);
        assert_eq!(w.derived_memos(), 0);
        let (found, _) = w.find_methods(&Ty::class("com.a.Box.Nested"), "of");
        assert_eq!(found.len(), 1);
        assert_eq!(w.method_key(found[0].owner, found[0].decl), "com.a.Box.Nested#of(java.util.List)");
        assert_eq!(api.parsed_library_groups(), 1);
    }

    #[test]
    fn tables_with_libraries_share_the_committed_jdk_part() {
        let shared = &JdkApi::shared().jdk;
        assert!(Arc::ptr_eq(&JdkApi::with_libraries(LIBS).jdk, shared));
        assert!(!Arc::ptr_eq(&JdkApi::with_jdk(Some(TABLE), LIBS).jdk, shared));
        // The hash reads every byte: one changed anywhere changes it.
        let text = format!("{TABLE}x");
        assert_ne!(fnv(text.as_bytes()), fnv(&text.as_bytes()[..TABLE.len()]));
        assert_ne!(fnv(b"abcdefgh1"), fnv(b"abcdefgh2"));
        assert_ne!(fnv(b"abcdefg1h"), fnv(b"abcdefg2h"));
    }
}
