//! The workspace symbol table: every type and member of every indexed file, as compact
//! records (names, lines, ids; no source text), searchable by name in milliseconds.
//!
//! Search runs over two flat buffers rebuilt after changes: the lowercase names and their
//! camelCase initials, each name on its own line, so that prefix, substring and camelCase
//! candidates are found with one SIMD substring search (`memchr::memmem`) and then ranked.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

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

/// An indexed file: where it is, its stamp when indexed, and its symbols. A file read from
/// the snapshot keeps its record's bytes (shared with the whole snapshot) and decodes them on
/// first use: a one-shot query touches the few files its names are in (decoding every file
/// was a third of a one-shot `types` on the JDK's java.base).
#[derive(Debug, Clone)]
pub struct FileSymbols {
    pub path: Arc<Path>,
    pub root: usize,
    pub stamp: Stamp,
    /// How many symbols (known before decoding).
    count: u32,
    /// Whether a member is annotated with Lombok's `@Delegate`: the methods it generates are
    /// the reference engine's to list ([`mji_parser::lombok::has_delegate`]).
    delegates: bool,
    /// The file's `lombok.config` salt (`Resolver::salt`: 0 under Lombok's defaults), XORed into
    /// the size its snapshot record stores, so a record made under another configuration is not
    /// current after a restart (a `lombok.config` below a root changed while no server ran).
    salt: u64,
    body: OnceLock<Body>,
    raw: Option<Raw>,
}

/// A file's decoded symbols: the string arena and the records pointing into it.
#[derive(Debug, Clone, Default)]
struct Body {
    arena: Box<str>,
    syms: Box<[Sym]>,
}

/// A file's undecoded snapshot record (its arena and symbols), inside the snapshot's bytes.
#[derive(Clone)]
struct Raw {
    bytes: Arc<Vec<u8>>,
    at: usize,
    end: usize,
}

impl std::fmt::Debug for Raw {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Raw({}..{})", self.at, self.end)
    }
}

/// A symbol of a file, borrowed from the index.
#[derive(Debug, Clone, Copy)]
pub struct SymView<'a> {
    file: &'a FileSymbols,
    sym: &'a Sym,
}

impl<'a> SymView<'a> {
    fn text(&self, s: Span) -> &'a str {
        self.file.body().arena.get(s.0 as usize..(s.0 + s.1) as usize).unwrap_or("")
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
        self.file.body().syms.get(self.sym.owner as usize).map_or("", |o| self.file.view_of(o).text(o.qualified))
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
    fn decoded(path: Arc<Path>, root: usize, stamp: Stamp, arena: Box<str>, syms: Box<[Sym]>) -> FileSymbols {
        let count = syms.len() as u32;
        FileSymbols {
            path,
            root,
            stamp,
            count,
            delegates: false,
            salt: 0,
            body: OnceLock::from(Body { arena, syms }),
            raw: None,
        }
    }

    /// Whether the file has a member annotated with Lombok's `@Delegate`.
    pub fn has_delegate(&self) -> bool {
        self.delegates
    }

    /// The decoded symbols, decoded now if they were not. A record that does not decode (the
    /// snapshot's MAC held, so only a bug of ours makes one) has no symbols.
    fn body(&self) -> &Body {
        self.body
            .get_or_init(|| self.raw.as_ref().and_then(|r| inflate_body(r.bytes.get(r.at..r.end)?)).unwrap_or_default())
    }

    fn view_of<'a>(&'a self, sym: &'a Sym) -> SymView<'a> {
        SymView { file: self, sym }
    }

    pub fn len(&self) -> usize {
        self.count as usize
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    pub fn get(&self, i: usize) -> Option<SymView<'_>> {
        self.body().syms.get(i).map(|s| self.view_of(s))
    }

    pub fn iter(&self) -> impl Iterator<Item = SymView<'_>> {
        self.body().syms.iter().map(|s| self.view_of(s))
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
    let f = FileSymbols::decoded(Arc::from(Path::new("")), 0, Stamp { size: 0, mtime_ns: 0 }, arena, syms);
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

/// The search buffers of a snapshot's files, in its order (the lowercase names and the initials,
/// each entry ending in `\n` after a leading one): persisted beside the records, so that a warm
/// start neither builds them nor decodes every file to do so.
pub(crate) fn search_names<'a>(files: impl Iterator<Item = &'a FileSymbols>) -> (String, String) {
    let mut s = Search::new();
    for f in files {
        s.append(0, 0, f);
    }
    (s.names, s.initials)
}

impl Search {
    /// The search buffers a snapshot persisted ([`search_names`]) over its records, the k-th
    /// in slot k with generation 1, each with its symbol count; None if they do not fit them.
    fn persisted(names: String, initials: String, counts: &[u32]) -> Option<Search> {
        let total: usize = counts.iter().map(|&c| c as usize).sum();
        // Each entry starts after a `\n`, the last one's ends the buffer.
        let starts = |buf: &str| -> Option<Vec<u32>> {
            let b = buf.as_bytes();
            if b.first() != Some(&b'\n') || b.last() != Some(&b'\n') || b.len() > u32::MAX as usize {
                return None;
            }
            // Found with memchr's SIMD search, not byte by byte: on the JDK's java.base the
            // byte loop was a twentieth of a one-shot `types`' CPU.
            let mut out = Vec::with_capacity(total);
            out.extend(memchr::memchr_iter(b'\n', &b[..b.len() - 1]).map(|i| i as u32 + 1));
            Some(out)
        };
        let (name_starts, initial_starts) = (starts(&names)?, starts(&initials)?);
        if name_starts.len() != total || initial_starts.len() != total {
            return None;
        }
        let mut refs = Vec::with_capacity(total);
        for (slot, &count) in counts.iter().enumerate() {
            refs.extend((0..count).map(|i| (slot as u32, i, 1)));
        }
        Some(Search { names, initials, name_starts, initial_starts, refs, dead: 0 })
    }
}

/// Whether a path names a Java source (the table's other files are Kotlin's).
pub(crate) fn is_java(p: &Path) -> bool {
    p.extension().is_some_and(|e| e.eq_ignore_ascii_case("java"))
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
    /// The slots of the files that are not Java (Kotlin's): a reference answer asks for them
    /// on every call, and a pass over every path's extension was a tenth of a warm
    /// `find_references` on four roots (issue 56).
    others: std::collections::BTreeSet<u32>,
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
                if !is_java(&file.path) {
                    self.others.insert(slot);
                }
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

    /// A table of a snapshot's records, the k-th in slot k, with the search buffers persisted
    /// with them (built on the first query when there are none or they do not fit). Built on
    /// the thread that read the snapshot, beside the walk; then [`SymbolTable::retire`] drops
    /// the records whose file changed or is gone.
    pub(crate) fn from_snapshot(records: Vec<FileSymbols>, names: Option<(String, String)>) -> SymbolTable {
        use std::collections::hash_map::Entry;
        let counts: Vec<u32> = records.iter().map(|f| f.count).collect();
        let mut t = SymbolTable {
            search: names.and_then(|(n, i)| Search::persisted(n, i, &counts)),
            next_gen: 1,
            files: Vec::with_capacity(records.len()),
            gens: Vec::with_capacity(records.len()),
            by_path: HashMap::with_capacity(records.len()),
            ..Default::default()
        };
        let mut twice = false;
        for (slot, f) in records.into_iter().enumerate() {
            match t.by_path.entry(f.path.clone()) {
                Entry::Vacant(e) => {
                    e.insert(slot as u32);
                    if !is_java(&f.path) {
                        t.others.insert(slot as u32);
                    }
                    t.symbol_count += f.len();
                    t.files.push(Some(f));
                    t.gens.push(1);
                }
                // A path twice (never written so) keeps its first record.
                Entry::Occupied(_) => {
                    twice = true;
                    t.files.push(None);
                    t.gens.push(0);
                    t.free.push(slot as u32);
                }
            }
        }
        if twice && let Some(s) = &mut t.search {
            s.dead = s.refs.iter().filter(|r| t.gens[r.0 as usize] != r.2).count();
        }
        t
    }

    /// How many slots the table has (files, and room left by removed ones).
    pub(crate) fn slots(&self) -> usize {
        self.files.len()
    }

    /// The slot of a file, tried first at `hint` (a snapshot written in the walk's order has
    /// the walk's k-th file in slot k: no hashing of its path).
    pub(crate) fn slot_of(&self, hint: usize, path: &Path) -> Option<u32> {
        match self.files.get(hint) {
            Some(Some(f)) if f.path.as_os_str() == path.as_os_str() => Some(hint as u32),
            _ => self.by_path.get(path).copied(),
        }
    }

    /// Drops the file in a slot (a snapshot record no longer current); its entries die.
    pub(crate) fn retire(&mut self, slot: u32) {
        if let Some(old) = self.files.get_mut(slot as usize).and_then(Option::take) {
            self.by_path.remove(&old.path);
            self.others.remove(&slot);
            self.symbol_count -= old.len();
            if let Some(s) = &mut self.search {
                s.dead += old.len();
            }
            self.free.push(slot);
            self.compact_if_mostly_dead();
        }
    }

    /// Every file of the table, to move them into another.
    pub(crate) fn into_files(self) -> impl Iterator<Item = FileSymbols> {
        self.files.into_iter().flatten()
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
                self.others.remove(&slot);
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

    /// A snapshot record found current: its stamp as the file's own and its salt as checked.
    pub(crate) fn make_current(&mut self, slot: u32, stamp: Stamp, salt: u64) {
        if let Some(Some(f)) = self.files.get_mut(slot as usize) {
            f.stamp = stamp;
            f.salt = salt;
        }
    }

    pub fn symbol(&self, r: SymRef) -> Option<(&FileSymbols, SymView<'_>)> {
        let f = self.file_at(r.0)?;
        Some((f, f.get(r.1 as usize)?))
    }

    pub fn files(&self) -> impl Iterator<Item = &FileSymbols> {
        self.files.iter().flatten()
    }

    /// The files that are not Java (Kotlin's), in slot order.
    pub(crate) fn other_files(&self) -> impl Iterator<Item = &FileSymbols> {
        self.others.iter().filter_map(|&s| self.file_at(s))
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
/// `salt`: the file's `lombok.config` salt (0 under Lombok's defaults).
pub(crate) fn file_symbols(
    path: PathBuf,
    root: usize,
    meta: &std::fs::Metadata,
    outline: &FileOutline,
    salt: u64,
) -> FileSymbols {
    let (arena, syms) = compact(outline);
    let mut f = FileSymbols::decoded(Arc::from(path), root, Stamp::recorded(meta), arena, syms);
    f.delegates = mji_parser::lombok::has_delegate(outline);
    f.salt = salt;
    f
}

/// The bit of a snapshot record's symbol count that says the file has a `@Delegate` member.
const DELEGATES_BIT: u32 = 1 << 31;

/// The bytes of one symbol in a snapshot record: kind, modifiers, 13 numbers.
const SYM_BYTES: usize = 1 + 2 + 13 * 4;

fn take<'a>(buf: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
    if buf.len() < n {
        return None;
    }
    let (a, b) = buf.split_at(n);
    *buf = b;
    Some(a)
}

fn take_u32(buf: &mut &[u8]) -> Option<u32> {
    Some(u32::from_le_bytes(take(buf, 4)?.try_into().ok()?))
}

fn take_bytes<'a>(buf: &mut &'a [u8]) -> Option<&'a [u8]> {
    let n = take_u32(buf)? as usize;
    take(buf, n)
}

/// The most a record's body may decompress to (far more than any Java file's symbols take).
const MAX_BODY_BYTES: usize = 1 << 28;

/// Decodes a record's body as written (what follows its path and stamp: the symbol count, the
/// plain body's length and the body LZ4-compressed); None if the bytes are not valid ones.
fn inflate_body(mut buf: &[u8]) -> Option<Body> {
    let buf = &mut buf;
    let count = (take_u32(buf)? & !DELEGATES_BIT) as usize;
    let plain_len = take_u32(buf)? as usize;
    if plain_len > MAX_BODY_BYTES || plain_len < count.checked_mul(SYM_BYTES)? {
        return None;
    }
    let mut plain = vec![0u8; plain_len];
    if lz4_flex::block::decompress_into(buf, &mut plain).ok()? != plain_len {
        return None;
    }
    decode_body(&plain).filter(|b| b.syms.len() == count)
}

/// Decodes a record's plain body, its arena and symbols; None if the bytes are not valid ones.
fn decode_body(mut buf: &[u8]) -> Option<Body> {
    let buf = &mut buf;
    let arena: Box<str> = std::str::from_utf8(take_bytes(buf)?).ok()?.into();
    let n = take_u32(buf)? as usize;
    let mut syms = Vec::with_capacity(n.min(buf.len() / SYM_BYTES));
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
            *x = take_u32(buf)?;
        }
        // Every span must lie in the arena and cut it on character boundaries.
        let span = |a: u32, b: u32| -> Option<Span> {
            let (from, to) = (a as usize, a as usize + b as usize);
            (to <= arena.len() && arena.is_char_boundary(from) && arena.is_char_boundary(to)).then_some(Span(a, b))
        };
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
    buf.is_empty().then_some(Body { arena, syms: syms.into_boxed_slice() })
}

/// Binary form of a file's symbols, for the workspace snapshot (see `index::snapshot`).
impl FileSymbols {
    /// Appends this file as a snapshot record, with its path relative to its root. A file not
    /// decoded since it was read from a snapshot is written back as the bytes it was read from.
    pub(crate) fn encode(&self, rel: &str, out: &mut Vec<u8>) {
        fn put_u32(out: &mut Vec<u8>, v: u32) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        fn put_bytes(out: &mut Vec<u8>, b: &[u8]) {
            put_u32(out, b.len() as u32);
            out.extend_from_slice(b);
        }
        put_bytes(out, rel.as_bytes());
        out.extend_from_slice(&(self.stamp.size ^ self.salt).to_le_bytes());
        out.extend_from_slice(&self.stamp.mtime_ns.to_le_bytes());
        if self.body.get().is_none()
            && let Some(raw) = self.raw.as_ref().and_then(|r| r.bytes.get(r.at..r.end))
        {
            out.extend_from_slice(raw);
            return;
        }
        let body = self.body();
        // The body LZ4-compressed (a block): a snapshot's bodies are most of its bytes, and every
        // warm start reads them all while it decodes only the few files its answer shows
        // (java.base's snapshot: 10.9 MB became 5.8 MB). Deflate's fastest level made it 4.75
        // MB at the same warm start, but cost a cold whole-JDK pass 3% where LZ4 saves 3%.
        put_u32(out, body.syms.len() as u32 | if self.delegates { DELEGATES_BIT } else { 0 });
        let mut plain: Vec<u8> = Vec::with_capacity(body.arena.len() + 4 + body.syms.len() * SYM_BYTES + 4);
        let out_now = out;
        let out = &mut plain;
        put_bytes(out, body.arena.as_bytes());
        put_u32(out, body.syms.len() as u32);
        for s in body.syms.iter() {
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
        put_u32(out_now, plain.len() as u32);
        let at = out_now.len();
        out_now.resize(at + lz4_flex::block::get_maximum_output_size(plain.len()), 0);
        // The bound is the block format's own: compressing into it does not fail.
        let n = lz4_flex::block::compress_into(&plain, &mut out_now[at..]).unwrap_or(0);
        out_now.truncate(at + n);
    }

    /// Reads the snapshot record `bytes[at..end]` without decoding its symbols (they are
    /// decoded on first use); None if its path, stamp and sizes are not a valid record.
    pub(crate) fn lazy(
        bytes: &Arc<Vec<u8>>,
        at: usize,
        end: usize,
        root_dir: &Path,
        root: usize,
    ) -> Option<FileSymbols> {
        let all = bytes.get(at..end)?;
        let buf = &mut &all[..];
        let rel = std::str::from_utf8(take_bytes(buf)?).ok()?;
        let size = u64::from_le_bytes(take(buf, 8)?.try_into().ok()?);
        let mtime_ns = i128::from_le_bytes(take(buf, 16)?.try_into().ok()?);
        let body_at = end - buf.len();
        let count = take_u32(buf)?;
        let (count, delegates) = (count & !DELEGATES_BIT, count & DELEGATES_BIT != 0);
        // The plain body's length; the body is decompressed and checked when first used.
        take_u32(buf)?;
        Some(FileSymbols {
            path: Arc::from(root_dir.join(rel)),
            root,
            stamp: Stamp { size, mtime_ns },
            count,
            delegates,
            // The size read is salted; [`SymbolTable::make_current`] sets both once checked.
            salt: 0,
            body: OnceLock::new(),
            raw: Some(Raw { bytes: bytes.clone(), at: body_at, end }),
        })
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
        FileSymbols::decoded(path, 0, Stamp { size: 1, mtime_ns: 1 }, arena, syms)
    }

    /// Files read back lazily from their records, installed with the persisted search
    /// buffers (some records not current), answer every query as a table built afresh from the
    /// current files does; a lazy file written back is the same record.
    #[test]
    fn installed_snapshot_records_answer_as_a_fresh_table() {
        let files: Vec<FileSymbols> = (0..300).map(file).collect();
        let mut bytes = Vec::new();
        let mut spans = Vec::new();
        for f in &files {
            let at = bytes.len();
            f.encode(f.path.strip_prefix("/w").expect("under /w").to_str().expect("utf-8"), &mut bytes);
            spans.push((at, bytes.len()));
        }
        let bytes = Arc::new(bytes);
        let lazy: Vec<FileSymbols> = spans
            .iter()
            .map(|&(a, e)| FileSymbols::lazy(&bytes, a, e, Path::new("/w"), 0).expect("a record"))
            .collect();
        for (k, f) in lazy.iter().enumerate().step_by(37) {
            let mut again = Vec::new();
            f.encode(f.path.strip_prefix("/w").expect("under /w").to_str().expect("utf-8"), &mut again);
            assert_eq!(again, bytes[spans[k].0..spans[k].1], "record {k} written back");
            assert!(f.body.get().is_none(), "written back undecoded");
        }
        let names = search_names(files.iter());
        let current = |k: usize| k % 7 != 3;
        let mut installed = SymbolTable::from_snapshot(lazy, Some(names));
        assert!(installed.search.is_some(), "the persisted buffers fit");
        for k in (0..files.len()).filter(|k| !current(*k)) {
            assert_eq!(installed.slot_of(0, &files[k].path), Some(k as u32));
            installed.retire(k as u32);
        }
        assert_eq!(installed.slot_of(11, Path::new("/w/T11.java")), Some(11));
        assert_eq!(installed.slot_of(0, Path::new("/w/T17.java")), None);
        // A changed file comes back in a free slot.
        let mut changed = file(1000);
        changed.path = Arc::from(Path::new("/w/T3.java"));
        installed.upsert(changed.clone());
        let mut fresh = SymbolTable::default();
        files.iter().enumerate().filter(|(k, _)| current(*k)).for_each(|(_, f)| fresh.upsert(f.clone()));
        fresh.upsert(changed);
        assert_eq!((installed.file_count(), installed.symbol_count()), (fresh.file_count(), fresh.symbol_count()));
        for query in ["type1", "Type3", "getvalue10", "gV2", "étatcivil", "type1000", "getValue3", "T*7", ""] {
            let answer = |t: &mut SymbolTable| {
                let hits = t.find(&Pattern::new(query, false), &|_, _| true);
                let mut out: Vec<String> = hits
                    .iter()
                    .filter_map(|h| t.symbol(h.sym))
                    .map(|(f, s)| format!("{} {}", f.path.display(), s.symbol_id()))
                    .collect();
                out.sort();
                out
            };
            let want = answer(&mut fresh);
            assert_eq!(answer(&mut installed), want, "{query}");
        }
        assert!(installed.file(Path::new("/w/T11.java")).is_some());
        assert!(installed.file(Path::new("/w/T17.java")).is_none(), "a record not current is left out");
        // Buffers that do not fit the records are not used: the table builds its own.
        let lazy: Vec<FileSymbols> = spans
            .iter()
            .map(|&(a, e)| FileSymbols::lazy(&bytes, a, e, Path::new("/w"), 0).expect("a record"))
            .collect();
        let mut wrong = SymbolTable::from_snapshot(lazy, Some(("\nx\n".into(), "\nx\n".into())));
        assert!(wrong.search.is_none());
        assert_eq!(wrong.find(&Pattern::new("type299", false), &|_, _| true).len(), 1);
    }

    /// A file with a Lombok `@Delegate` member says so after a snapshot round trip, undecoded
    /// and decoded, and its symbols are the same; a file without one does not.
    #[test]
    fn a_record_keeps_whether_the_file_has_a_delegate() {
        let src = "package p;\nimport lombok.experimental.Delegate;\nclass H { @Delegate private java.util.List<String> items; int size; }\n";
        let outline = mji_parser::outline_declarations_unhashed("H.java", src.as_bytes());
        let meta = std::fs::metadata(env!("CARGO_MANIFEST_DIR")).expect("a directory");
        let with = file_symbols(PathBuf::from("/w/H.java"), 0, &meta, &outline, 0);
        assert!(with.has_delegate(), "{:?}", outline.errors);
        for (f, want) in [(with, true), (file(3), false)] {
            let mut bytes = Vec::new();
            f.encode("X.java", &mut bytes);
            let end = bytes.len();
            let lazy = FileSymbols::lazy(&Arc::new(bytes), 0, end, Path::new("/w"), 0).expect("a record");
            assert_eq!((lazy.has_delegate(), lazy.len()), (want, f.len()));
            let ids = |f: &FileSymbols| f.iter().map(|s| s.symbol_id()).collect::<Vec<_>>();
            assert_eq!(ids(&lazy), ids(&f), "decoded");
            assert!(!ids(&f).is_empty());
        }
    }

    /// A record's body is stored compressed, smaller than its plain form, and decompresses to
    /// the file's symbols; one cut short or claiming another count gives no symbols. (LZ4 has
    /// no checksum: an altered byte can decode; the snapshot's MAC, checked before any byte is
    /// used, is what keeps altered records out: `invariants::security`.)
    #[test]
    fn a_record_body_is_compressed_and_a_bad_one_gives_no_symbols() {
        let f = file(7);
        let mut bytes = Vec::new();
        f.encode("T7.java", &mut bytes);
        let bytes = Arc::new(bytes);
        let lazy = FileSymbols::lazy(&bytes, 0, bytes.len(), Path::new("/w"), 0).expect("a record");
        let want: Vec<String> = f.iter().map(|s| s.symbol_id()).collect();
        assert!(want.len() >= 3);
        assert_eq!(lazy.iter().map(|s| s.symbol_id()).collect::<Vec<_>>(), want);
        let raw = lazy.raw.as_ref().expect("lazy");
        let body = &bytes[raw.at..raw.end];
        let plain_len = u32::from_le_bytes(body[4..8].try_into().expect("4 bytes")) as usize;
        assert!(body.len() - 8 < plain_len, "{} compressed vs {plain_len} plain", body.len() - 8);
        let mut bad: Vec<Vec<u8>> = vec![body[..body.len() - 3].to_vec()];
        let mut other_count = body.to_vec();
        other_count[0] ^= 1;
        bad.push(other_count);
        for b in bad {
            assert!(inflate_body(&b).is_none_or(|body| body.syms.len() != f.len()));
        }
        assert!(inflate_body(body).is_some());
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

    /// The files that are not Java are listed by every way the table changes: added,
    /// replaced, read from a snapshot (a path twice keeps its first), retired and removed, a
    /// freed slot reused by a Java file.
    #[test]
    fn the_other_files_follow_every_change_of_the_table() {
        let named = |i: usize, name: &str| {
            let mut f = file(i);
            f.path = Arc::from(Path::new(name));
            f
        };
        let others = |t: &SymbolTable| -> Vec<String> {
            let mut v: Vec<String> = t.other_files().map(|f| f.path.display().to_string()).collect();
            v.sort();
            v
        };
        let mut t = SymbolTable::from_snapshot(
            vec![named(0, "/w/A.java"), named(1, "/w/K.kt"), named(2, "/w/K.kt"), named(3, "/w/L.kt")],
            None,
        );
        assert_eq!(others(&t), ["/w/K.kt", "/w/L.kt"]);
        t.upsert(named(4, "/w/K.kt"));
        t.upsert(named(5, "/w/M.kt"));
        assert_eq!(others(&t), ["/w/K.kt", "/w/L.kt", "/w/M.kt"]);
        let l = t.slot_of(usize::MAX, Path::new("/w/L.kt")).expect("L's slot");
        t.retire(l);
        assert!(t.remove(Path::new("/w/M.kt")));
        assert_eq!(others(&t), ["/w/K.kt"]);
        // The freed slots go to Java files, which are not listed.
        t.upsert(named(6, "/w/B.java"));
        t.upsert(named(7, "/w/C.java"));
        assert_eq!(others(&t), ["/w/K.kt"]);
        let listed: Vec<String> =
            t.files().filter(|f| !is_java(&f.path)).map(|f| f.path.display().to_string()).collect();
        assert_eq!(listed, others(&t));
    }
}
