//! The workspace symbol table: every type and member of every indexed file, as compact
//! records (names, lines, ids; no source text), searchable by name in milliseconds.
//!
//! Search runs over two flat buffers rebuilt after changes: the lowercase names and their
//! camelCase initials, each name on its own line, so that prefix, substring and camelCase
//! candidates are found with one SIMD substring search (`memchr::memmem`) and then ranked.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::matcher::{Pattern, Tier, push_name_initials};
use mji_fs::stamp::Stamp;
use mji_model::{FileOutline, SymbolId, SymbolKind, TypeDecl, TypeKind};

/// What a symbol is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SymKind {
    Type(TypeKind),
    Constructor,
    Method,
    Field,
    EnumConstant,
}

impl SymKind {
    pub fn is_type(self) -> bool {
        matches!(self, SymKind::Type(_))
    }

    /// Ordering among equally good matches: types, then methods, constructors, fields.
    fn rank(self) -> u8 {
        match self {
            SymKind::Type(_) => 0,
            SymKind::Method => 1,
            SymKind::Constructor => 2,
            SymKind::Field => 3,
            SymKind::EnumConstant => 4,
        }
    }
}

/// A symbol copied out of the index (for results).
#[derive(Debug, Clone)]
pub struct Symbol {
    pub kind: SymKind,
    pub name: String,
    /// `pkg.Outer.Inner` for types, `pkg.Outer#member` for members.
    pub qualified_name: String,
    pub symbol_id: String,
    /// `signatureText` of methods and constructors, type and name of fields, empty for types.
    pub signature: String,
    pub modifiers: Vec<&'static str>,
    pub start_line: u32,
    pub end_line: u32,
    /// Javadoc lines, to fetch a summary on demand.
    pub javadoc: Option<(u32, u32)>,
}

/// A span of a file's string arena.
#[derive(Debug, Clone, Copy, Default)]
struct Span(u32, u32);

/// One declaration, compact: its strings live in the file's arena, and a member's qualified
/// name and symbolId are derived from its owner type's (about 60 bytes plus its name and
/// signature, instead of five separately allocated strings).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Sym {
    kind: SymKind,
    modifiers: u16,
    name: Span,
    /// Types: the qualified name. Members: empty (the owner's plus `#name`).
    qualified: Span,
    /// Index of the owning type among the file's symbols (types: u32::MAX).
    owner: u32,
    /// The signature part of the symbolId: `(int,String):Ret` for methods, `(int)` for
    /// constructors, empty otherwise.
    id_sig: Span,
    signature: Span,
    start_line: u32,
    end_line: u32,
    javadoc: (u32, u32),
}

const MODIFIERS: [&str; 14] = [
    "public",
    "protected",
    "private",
    "abstract",
    "static",
    "final",
    "sealed",
    "non-sealed",
    "default",
    "synchronized",
    "native",
    "transient",
    "volatile",
    "strictfp",
];

fn modifier_bits(mods: &[String]) -> u16 {
    mods.iter().filter_map(|m| MODIFIERS.iter().position(|k| k == m)).fold(0, |acc, i| acc | (1 << i))
}

/// An indexed file: where it is, its stamp when indexed, and its symbols.
#[derive(Debug, Clone)]
pub struct FileSymbols {
    pub path: Arc<Path>,
    pub root: usize,
    pub stamp: Stamp,
    arena: Box<str>,
    syms: Box<[Sym]>,
}

/// A symbol of a file, borrowed from the index.
#[derive(Debug, Clone, Copy)]
pub struct SymView<'a> {
    file: &'a FileSymbols,
    sym: &'a Sym,
}

impl<'a> SymView<'a> {
    fn text(&self, s: Span) -> &'a str {
        self.file.arena.get(s.0 as usize..(s.0 + s.1) as usize).unwrap_or("")
    }

    pub fn kind(&self) -> SymKind {
        self.sym.kind
    }

    pub fn name(&self) -> &'a str {
        self.text(self.sym.name)
    }

    /// What qualifies the name: the owner type's qualified name for a member, the package
    /// or outer type for a type.
    pub fn container(&self) -> &'a str {
        if self.sym.kind.is_type() {
            let q = self.text(self.sym.qualified);
            return q.rsplit_once('.').map_or("", |x| x.0);
        }
        self.file.syms.get(self.sym.owner as usize).map_or("", |o| self.file.view_of(o).text(o.qualified))
    }

    pub fn qualified_name(&self) -> String {
        if self.sym.kind.is_type() {
            self.text(self.sym.qualified).to_owned()
        } else {
            format!("{}#{}", self.container(), self.name())
        }
    }

    pub fn symbol_id(&self) -> String {
        let (s, e) = (self.sym.start_line, self.sym.end_line);
        let kind = match self.sym.kind {
            SymKind::Type(_) => return SymbolId::class(self.text(self.sym.qualified), s, e).to_string(),
            SymKind::Method => SymbolKind::Method,
            SymKind::Constructor => SymbolKind::Ctor,
            SymKind::Field => SymbolKind::Field,
            SymKind::EnumConstant => SymbolKind::EnumConstant,
        };
        let member = format!("{}{}", self.name(), self.text(self.sym.id_sig));
        SymbolId::member(kind, self.container(), member, s, e).to_string()
    }

    pub fn signature(&self) -> &'a str {
        self.text(self.sym.signature)
    }

    pub fn modifiers(&self) -> Vec<&'static str> {
        MODIFIERS.iter().enumerate().filter(|(i, _)| self.sym.modifiers & (1 << i) != 0).map(|(_, m)| *m).collect()
    }

    pub fn start_line(&self) -> u32 {
        self.sym.start_line
    }

    pub fn end_line(&self) -> u32 {
        self.sym.end_line
    }

    pub fn javadoc(&self) -> Option<(u32, u32)> {
        (self.sym.javadoc.0 > 0).then_some(self.sym.javadoc)
    }

    pub fn to_owned(&self) -> Symbol {
        Symbol {
            kind: self.kind(),
            name: self.name().to_owned(),
            qualified_name: self.qualified_name(),
            symbol_id: self.symbol_id(),
            signature: self.signature().to_owned(),
            modifiers: self.modifiers(),
            start_line: self.start_line(),
            end_line: self.end_line(),
            javadoc: self.javadoc(),
        }
    }
}

impl FileSymbols {
    fn view_of<'a>(&'a self, sym: &'a Sym) -> SymView<'a> {
        SymView { file: self, sym }
    }

    pub fn len(&self) -> usize {
        self.syms.len()
    }

    pub fn is_empty(&self) -> bool {
        self.syms.is_empty()
    }

    pub fn get(&self, i: usize) -> Option<SymView<'_>> {
        self.syms.get(i).map(|s| self.view_of(s))
    }

    pub fn iter(&self) -> impl Iterator<Item = SymView<'_>> {
        self.syms.iter().map(|s| self.view_of(s))
    }
}

/// The cheap check that a file is unchanged: [`Stamp::of`].
pub fn stamp(meta: &std::fs::Metadata) -> Stamp {
    Stamp::of(meta)
}

/// The racy window ([`mji_fs::stamp::RACY_WINDOW`]).
pub const RACY_WINDOW: std::time::Duration = mji_fs::stamp::RACY_WINDOW;

/// Builds a file's compact symbols from its outline.
struct SymBuilder {
    arena: String,
    syms: Vec<Sym>,
}

impl SymBuilder {
    fn put(&mut self, s: &str) -> Span {
        let span = Span(self.arena.len() as u32, s.len() as u32);
        self.arena.push_str(s);
        span
    }

    fn doc(j: &mji_model::Javadoc) -> (u32, u32) {
        j.start_line.zip(j.end_line).unwrap_or((0, 0))
    }

    fn member(
        &mut self,
        kind: SymKind,
        owner: u32,
        [name, id_sig, signature]: [&str; 3],
        mods: &[String],
        lines: (u32, u32),
        doc: (u32, u32),
    ) {
        let sym = Sym {
            kind,
            modifiers: modifier_bits(mods),
            name: self.put(name),
            qualified: Span::default(),
            owner,
            id_sig: self.put(id_sig),
            signature: self.put(signature),
            start_line: lines.0,
            end_line: lines.1,
            javadoc: doc,
        };
        self.syms.push(sym);
    }

    fn walk(&mut self, t: &TypeDecl) {
        let me = self.syms.len() as u32;
        let sym = Sym {
            kind: SymKind::Type(t.kind),
            modifiers: modifier_bits(&t.modifiers),
            name: self.put(&t.name),
            qualified: self.put(&t.qualified_name),
            owner: u32::MAX,
            id_sig: Span::default(),
            signature: Span::default(),
            start_line: t.start_line,
            end_line: t.end_line,
            javadoc: Self::doc(&t.javadoc),
        };
        self.syms.push(sym);
        for c in t.enum_constants.iter().flatten() {
            self.member(
                SymKind::EnumConstant,
                me,
                [&c.name, "", &c.name],
                &[],
                (c.start_line, c.end_line),
                Self::doc(&c.javadoc),
            );
        }
        for f in &t.fields {
            let sig = format!("{} {}", f.type_text, f.name);
            self.member(
                SymKind::Field,
                me,
                [&f.name, "", &sig],
                &f.modifiers,
                (f.start_line, f.end_line),
                Self::doc(&f.javadoc),
            );
        }
        for c in &t.constructors {
            let id_sig = format!("({})", c.params.iter().map(|p| p.type_text.as_str()).collect::<Vec<_>>().join(","));
            self.member(
                SymKind::Constructor,
                me,
                [&c.name, &id_sig, &c.signature_text],
                &c.modifiers,
                (c.start_line, c.end_line),
                Self::doc(&c.javadoc),
            );
        }
        for m in &t.methods {
            let params = m.params.iter().map(|p| p.type_text.as_str()).collect::<Vec<_>>().join(",");
            let id_sig = format!("({params}):{}", m.return_type_text);
            self.member(
                SymKind::Method,
                me,
                [&m.name, &id_sig, &m.signature_text],
                &m.modifiers,
                (m.start_line, m.end_line),
                Self::doc(&m.javadoc),
            );
        }
        for i in &t.inner_classes {
            self.walk(i);
        }
    }
}

/// The compact symbols of an outline: (arena, symbols).
fn compact(outline: &FileOutline) -> (Box<str>, Box<[Sym]>) {
    let mut b = SymBuilder { arena: String::new(), syms: Vec::new() };
    outline.classes.iter().for_each(|t| b.walk(t));
    (b.arena.into_boxed_str(), b.syms.into_boxed_slice())
}

/// The symbols of an outline, as results would show them (for tests and tools).
pub fn symbols_of(outline: &FileOutline) -> Vec<Symbol> {
    let (arena, syms) = compact(outline);
    let f = FileSymbols { path: Arc::from(Path::new("")), root: 0, stamp: Stamp { size: 0, mtime_ns: 0 }, arena, syms };
    f.iter().map(|v| v.to_owned()).collect()
}

/// Reference to a symbol: (file slot, index in the file's symbols).
pub(crate) type SymRef = (u32, u32);

/// Name search structures over all files, rebuilt when the files change.
#[derive(Debug, Default)]
struct Search {
    /// Lowercase names, each preceded by `\n`.
    names: String,
    /// Lowercase camelCase initials, each preceded by `\n`.
    initials: String,
    name_starts: Vec<u32>,
    initial_starts: Vec<u32>,
    /// (file slot, symbol index, file generation); stale generations are dead entries.
    refs: Vec<(u32, u32, u32)>,
    dead: usize,
}

impl Search {
    fn new() -> Search {
        Search { names: "\n".to_owned(), initials: "\n".to_owned(), ..Default::default() }
    }

    /// Appends a piece built from [`Search::default`] (its buffers start without the `\n`
    /// this one ends with): its offsets moved by this one's lengths.
    fn join(&mut self, piece: Search) {
        let (names, initials) = (self.names.len() as u32, self.initials.len() as u32);
        self.name_starts.extend(piece.name_starts.iter().map(|s| s + names));
        self.initial_starts.extend(piece.initial_starts.iter().map(|s| s + initials));
        self.names.push_str(&piece.names);
        self.initials.push_str(&piece.initials);
        self.refs.extend(piece.refs);
        self.dead += piece.dead;
    }

    /// Appends a file's names; each entry ends with `\n` and follows one.
    fn append(&mut self, slot: u32, generation: u32, f: &FileSymbols) {
        for (i, sym) in f.iter().enumerate() {
            self.name_starts.push(self.names.len() as u32);
            let name = sym.name();
            if name.is_ascii() {
                // What `char::to_lowercase` gives an ASCII name, in place.
                let at = self.names.len();
                self.names.push_str(name);
                self.names[at..].make_ascii_lowercase();
            } else {
                for c in name.chars() {
                    self.names.extend(c.to_lowercase());
                }
            }
            self.names.push('\n');
            self.initial_starts.push(self.initials.len() as u32);
            push_name_initials(name, &mut self.initials);
            self.initials.push('\n');
            self.refs.push((slot, i as u32, generation));
        }
    }
}

/// All symbols of the workspace.
#[derive(Debug, Default)]
pub(crate) struct SymbolTable {
    files: Vec<Option<FileSymbols>>,
    /// Generation of each slot's current contents (bumped on every replace).
    gens: Vec<u32>,
    next_gen: u32,
    by_path: HashMap<Arc<Path>, u32>,
    free: Vec<u32>,
    search: Option<Search>,
    symbol_count: usize,
}

/// A query's candidate with its rank.
#[derive(Debug, Clone, Copy)]
pub struct Hit {
    pub tier: Tier,
    pub sym: SymRef,
}

impl SymbolTable {
    pub(crate) fn file_count(&self) -> usize {
        self.by_path.len()
    }

    pub(crate) fn symbol_count(&self) -> usize {
        self.symbol_count
    }

    /// Adds or replaces a file's symbols. The search buffers are extended in place (the old
    /// entries die); they are rebuilt only when most of them are dead.
    pub(crate) fn upsert(&mut self, file: FileSymbols) {
        self.symbol_count += file.len();
        self.next_gen = self.next_gen.wrapping_add(1);
        let generation = self.next_gen;
        let slot = match self.by_path.get(&file.path) {
            Some(&slot) => {
                if let Some(old) = self.files[slot as usize].take() {
                    self.symbol_count -= old.len();
                    if let Some(s) = &mut self.search {
                        s.dead += old.len();
                    }
                }
                slot
            }
            None => {
                let slot = match self.free.pop() {
                    Some(s) => s,
                    None => {
                        self.files.push(None);
                        self.gens.push(0);
                        (self.files.len() - 1) as u32
                    }
                };
                self.by_path.insert(file.path.clone(), slot);
                slot
            }
        };
        self.gens[slot as usize] = generation;
        if let Some(s) = &mut self.search {
            s.append(slot, generation, &file);
        }
        self.files[slot as usize] = Some(file);
        self.compact_if_mostly_dead();
    }

    fn compact_if_mostly_dead(&mut self) {
        if self.search.as_ref().is_some_and(|s| s.dead > 1024 && s.dead * 2 > s.refs.len()) {
            self.search = None;
        }
    }

    /// Removes a file; returns whether it was indexed.
    pub fn remove(&mut self, path: &Path) -> bool {
        match self.by_path.remove(path) {
            Some(slot) => {
                if let Some(old) = self.files[slot as usize].take() {
                    self.symbol_count -= old.len();
                    if let Some(s) = &mut self.search {
                        s.dead += old.len();
                    }
                }
                self.free.push(slot);
                self.compact_if_mostly_dead();
                true
            }
            None => false,
        }
    }

    /// Removes every file under a directory; returns how many.
    pub(crate) fn remove_under(&mut self, dir: &Path) -> usize {
        let gone: Vec<Arc<Path>> = self.by_path.keys().filter(|p| p.starts_with(dir)).cloned().collect();
        gone.iter().filter(|p| self.remove(p)).count()
    }

    pub fn file(&self, path: &Path) -> Option<&FileSymbols> {
        self.by_path.get(path).and_then(|&s| self.files[s as usize].as_ref())
    }

    pub(crate) fn file_at(&self, slot: u32) -> Option<&FileSymbols> {
        self.files.get(slot as usize).and_then(Option::as_ref)
    }

    pub fn symbol(&self, r: SymRef) -> Option<(&FileSymbols, SymView<'_>)> {
        let f = self.file_at(r.0)?;
        Some((f, f.get(r.1 as usize)?))
    }

    pub fn files(&self) -> impl Iterator<Item = &FileSymbols> {
        self.files.iter().flatten()
    }

    fn ensure_search(&mut self) {
        if self.search.is_some() {
            return;
        }
        // Built in pieces of consecutive slots in parallel, then joined in slot order: the same
        // buffers as one pass, at about half the wall time on two cores (a process's first
        // query builds it: on the JDK, a sixth of a one-shot `types`). On scoped threads, not
        // rayon's pool: the caller holds the index's write lock, and a pool thread waiting for
        // its pieces could take up a job that wants the same lock.
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(4);
        let per = self.files.len().div_ceil(threads).max(1024);
        let gens = &self.gens;
        let build = |c: usize, files: &[Option<FileSymbols>]| {
            let mut piece = Search::default();
            for (j, f) in files.iter().enumerate() {
                if let Some(f) = f {
                    let slot = c * per + j;
                    piece.append(slot as u32, gens[slot], f);
                }
            }
            piece
        };
        let pieces: Vec<Search> = std::thread::scope(|scope| {
            let mut chunks = self.files.chunks(per).enumerate();
            let first = chunks.next();
            let rest: Vec<_> = chunks.map(|(c, files)| scope.spawn(move || build(c, files))).collect();
            let mut pieces: Vec<Search> = first.map(|(c, files)| build(c, files)).into_iter().collect();
            for h in rest {
                pieces.push(h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
            }
            pieces
        });
        let mut s = Search::new();
        s.names.reserve(pieces.iter().map(|p| p.names.len()).sum());
        s.initials.reserve(pieces.iter().map(|p| p.initials.len()).sum());
        for piece in pieces {
            s.join(piece);
        }
        self.search = Some(s);
    }

    /// Every symbol whose name matches `pattern`, with its tier, filtered by `keep`.
    pub fn find(&mut self, pattern: &Pattern, keep: &dyn Fn(&FileSymbols, &SymView) -> bool) -> Vec<Hit> {
        self.ensure_search();
        let Some(search) = self.search.as_ref() else { return Vec::new() };
        let mut candidates: Vec<usize> = Vec::new();
        if pattern.is_wildcard() || pattern.lower().is_empty() {
            candidates.extend(0..search.refs.len());
        } else {
            let needle = pattern.lower().as_bytes();
            for pos in memchr::memmem::find_iter(search.names.as_bytes(), needle) {
                candidates.push(owner(&search.name_starts, pos));
            }
            let initials = pattern.initials();
            if !initials.is_empty() {
                let needle = format!("\n{initials}");
                for pos in memchr::memmem::find_iter(search.initials.as_bytes(), needle.as_bytes()) {
                    candidates.push(owner(&search.initial_starts, pos + 1));
                }
            }
            candidates.sort_unstable();
            candidates.dedup();
        }
        let mut hits = Vec::new();
        for c in candidates {
            let (slot, idx, generation) = search.refs[c];
            if self.gens[slot as usize] != generation {
                continue; // an entry of a file since replaced or removed
            }
            let r = (slot, idx);
            let Some(f) = self.files[slot as usize].as_ref() else { continue };
            let Some(sym) = f.get(idx as usize) else { continue };
            if let Some(tier) = pattern.tier(sym.name())
                && keep(f, &sym)
            {
                hits.push(Hit { tier, sym: r });
            }
        }
        hits
    }

    /// Puts the best `k` hits first, sorted, deterministically: tier, kind, shorter name,
    /// name, qualified name, path, line. The rest stay unsorted after them.
    pub fn rank(&self, hits: &mut [Hit], k: usize) {
        let key = |h: &Hit| {
            let (f, s) = match self.symbol(h.sym) {
                Some((f, s)) => (Some(f), Some(s)),
                None => (None, None),
            };
            (
                h.tier,
                s.map_or(u8::MAX, |s| s.kind().rank()),
                s.map_or(usize::MAX, |s| s.name().len()),
                s.map(|s| s.name()),
                s.map(|s| s.container()),
                f.map(|f| &f.path),
                s.map_or(0, |s| s.start_line()),
            )
        };
        let cmp = |a: &Hit, b: &Hit| key(a).cmp(&key(b));
        if k == 0 {
            return;
        }
        if k < hits.len() {
            hits.select_nth_unstable_by(k - 1, cmp);
            hits[..k].sort_by(cmp);
        } else {
            hits.sort_by(cmp);
        }
    }
}

/// The index of the entry containing byte `pos`, given sorted entry start offsets.
fn owner(starts: &[u32], pos: usize) -> usize {
    match starts.binary_search(&(pos as u32)) {
        Ok(i) => i,
        Err(i) => i.saturating_sub(1),
    }
}

/// A path under a root, for building [`FileSymbols`].
pub(crate) fn file_symbols(path: PathBuf, root: usize, meta: &std::fs::Metadata, outline: &FileOutline) -> FileSymbols {
    let (arena, syms) = compact(outline);
    FileSymbols { path: Arc::from(path), root, stamp: Stamp::recorded(meta), arena, syms }
}

/// Binary form of a file's symbols, for the workspace snapshot (see `index::snapshot`).
impl FileSymbols {
    /// Appends this file as a snapshot record, with its path relative to its root.
    pub(crate) fn encode(&self, rel: &str, out: &mut Vec<u8>) {
        fn put_u32(out: &mut Vec<u8>, v: u32) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        fn put_bytes(out: &mut Vec<u8>, b: &[u8]) {
            put_u32(out, b.len() as u32);
            out.extend_from_slice(b);
        }
        put_bytes(out, rel.as_bytes());
        out.extend_from_slice(&self.stamp.size.to_le_bytes());
        out.extend_from_slice(&self.stamp.mtime_ns.to_le_bytes());
        put_bytes(out, self.arena.as_bytes());
        put_u32(out, self.syms.len() as u32);
        for s in self.syms.iter() {
            let kind: u8 = match s.kind {
                SymKind::Type(TypeKind::Class) => 0,
                SymKind::Type(TypeKind::Interface) => 1,
                SymKind::Type(TypeKind::Enum) => 2,
                SymKind::Type(TypeKind::Record) => 3,
                SymKind::Type(TypeKind::Annotation) => 4,
                SymKind::Constructor => 5,
                SymKind::Method => 6,
                SymKind::Field => 7,
                SymKind::EnumConstant => 8,
            };
            out.push(kind);
            out.extend_from_slice(&s.modifiers.to_le_bytes());
            for v in [
                s.name.0,
                s.name.1,
                s.qualified.0,
                s.qualified.1,
                s.owner,
                s.id_sig.0,
                s.id_sig.1,
                s.signature.0,
                s.signature.1,
                s.start_line,
                s.end_line,
                s.javadoc.0,
                s.javadoc.1,
            ] {
                put_u32(out, v);
            }
        }
    }

    /// Reads one snapshot record; None if the bytes are not a valid record.
    pub(crate) fn decode(buf: &mut &[u8], root_dir: &Path, root: usize) -> Option<FileSymbols> {
        fn take<'a>(buf: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
            if buf.len() < n {
                return None;
            }
            let (a, b) = buf.split_at(n);
            *buf = b;
            Some(a)
        }
        fn u32_(buf: &mut &[u8]) -> Option<u32> {
            Some(u32::from_le_bytes(take(buf, 4)?.try_into().ok()?))
        }
        fn bytes<'a>(buf: &mut &'a [u8]) -> Option<&'a [u8]> {
            let n = u32_(buf)? as usize;
            take(buf, n)
        }
        let rel = std::str::from_utf8(bytes(buf)?).ok()?;
        let size = u64::from_le_bytes(take(buf, 8)?.try_into().ok()?);
        let mtime_ns = i128::from_le_bytes(take(buf, 16)?.try_into().ok()?);
        let arena: Box<str> = std::str::from_utf8(bytes(buf)?).ok()?.into();
        let n = u32_(buf)? as usize;
        let mut syms = Vec::with_capacity(n.min(1 << 20));
        for _ in 0..n {
            let kind = match take(buf, 1)?[0] {
                0 => SymKind::Type(TypeKind::Class),
                1 => SymKind::Type(TypeKind::Interface),
                2 => SymKind::Type(TypeKind::Enum),
                3 => SymKind::Type(TypeKind::Record),
                4 => SymKind::Type(TypeKind::Annotation),
                5 => SymKind::Constructor,
                6 => SymKind::Method,
                7 => SymKind::Field,
                8 => SymKind::EnumConstant,
                _ => return None,
            };
            let modifiers = u16::from_le_bytes(take(buf, 2)?.try_into().ok()?);
            let mut v = [0u32; 13];
            for x in v.iter_mut() {
                *x = u32_(buf)?;
            }
            let span =
                |a: u32, b: u32| -> Option<Span> { ((a as usize + b as usize) <= arena.len()).then_some(Span(a, b)) };
            syms.push(Sym {
                kind,
                modifiers,
                name: span(v[0], v[1])?,
                qualified: span(v[2], v[3])?,
                owner: v[4],
                id_sig: span(v[5], v[6])?,
                signature: span(v[7], v[8])?,
                start_line: v[9],
                end_line: v[10],
                javadoc: (v[11], v[12]),
            });
        }
        let path: Arc<Path> = Arc::from(root_dir.join(rel));
        // Every span must cut the arena on character boundaries.
        let f = FileSymbols { path, root, stamp: Stamp { size, mtime_ns }, arena, syms: syms.into_boxed_slice() };
        let ok = f.syms.iter().all(|s| {
            [s.name, s.qualified, s.id_sig, s.signature]
                .iter()
                .all(|sp| f.arena.is_char_boundary(sp.0 as usize) && f.arena.is_char_boundary((sp.0 + sp.1) as usize))
        });
        ok.then_some(f)
    }

    /// The stamp recorded when the file was indexed.
    pub fn stamp(&self) -> Stamp {
        self.stamp
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(i: usize) -> FileSymbols {
        let src = format!("package p{i};\nclass Type{i} {{ void getValue{i}() {{}} int ÉtatCivil{i}; }}\n");
        let outline = mji_parser::outline_declarations_unhashed("T.java", src.as_bytes());
        let (arena, syms) = compact(&outline);
        let path = Arc::from(Path::new(&format!("/w/T{i}.java")));
        FileSymbols { path, root: 0, stamp: Stamp { size: 1, mtime_ns: 1 }, arena, syms }
    }

    /// The search table built in parallel pieces is the one a single pass builds, and finds
    /// names in every piece (with a removed and a replaced file among them).
    #[test]
    fn the_search_table_built_in_pieces_is_the_sequential_one() {
        let mut t = SymbolTable::default();
        for i in 0..2500 {
            t.upsert(file(i));
        }
        t.remove(Path::new("/w/T1500.java"));
        t.upsert(file(7));
        t.search = None;
        t.ensure_search();
        let mut one = Search::new();
        for (slot, f) in t.files.iter().enumerate() {
            if let Some(f) = f {
                one.append(slot as u32, t.gens[slot], f);
            }
        }
        let s = t.search.as_ref().expect("built");
        assert_eq!((&s.names, &s.initials), (&one.names, &one.initials));
        assert_eq!((&s.name_starts, &s.initial_starts, &s.refs), (&one.name_starts, &one.initial_starts, &one.refs));
        assert_eq!(s.refs.len(), 2499 * 3);
        for (query, want) in [("type2400", Some("/w/T2400.java")), ("getvalue1500", None), ("étatcivil3", None)] {
            let hits = t.find(&Pattern::new(query, false), &|_, _| true);
            let paths: Vec<_> = hits.iter().filter_map(|h| t.symbol(h.sym)).map(|(f, _)| f.path.clone()).collect();
            match want {
                Some(w) => assert_eq!(paths, [Arc::from(Path::new(w))], "{query}"),
                None => assert!(paths.iter().all(|p| !p.ends_with("T1500.java")), "{query}: {paths:?}"),
            }
        }
        let gsv = t.find(&Pattern::new("gV2401", false), &|_, _| true);
        assert_eq!(gsv.len(), 1);
    }
}
