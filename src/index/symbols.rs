//! The workspace symbol table: every type and member of every indexed file, as compact
//! records (names, lines, ids; no source text), searchable by name in milliseconds.
//!
//! Search runs over two flat buffers rebuilt after changes: the lowercase names and their
//! camelCase initials, each name on its own line, so that prefix, substring and camelCase
//! candidates are found with one SIMD substring search (`memchr::memmem`) and then ranked.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::index::matcher::{Pattern, Tier, name_initials};
use crate::model::{FileOutline, TypeDecl, TypeKind};

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

/// One declaration of an indexed file.
#[derive(Debug, Clone)]
pub struct Symbol {
    pub kind: SymKind,
    pub name: Box<str>,
    /// `pkg.Outer.Inner` for types, `pkg.Outer#member` for members.
    pub qualified_name: Box<str>,
    pub symbol_id: Box<str>,
    /// `signatureText` of methods and constructors, the type of fields, empty for types.
    pub signature: Box<str>,
    pub modifiers: Box<[Box<str>]>,
    pub start_line: u32,
    pub end_line: u32,
    /// Javadoc lines, to fetch a summary on demand.
    pub javadoc: Option<(u32, u32)>,
}

/// An indexed file: where it is, its stamp when indexed, and its symbols.
#[derive(Debug, Clone)]
pub struct FileSymbols {
    pub path: Arc<Path>,
    pub root: usize,
    pub size: u64,
    pub mtime_ns: i128,
    pub symbols: Vec<Symbol>,
}

/// Size and modification time, the cheap check that a file is unchanged.
pub fn stamp(meta: &std::fs::Metadata) -> (u64, i128) {
    let mtime = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| d.as_nanos() as i128)
        .unwrap_or(-1);
    (meta.len(), mtime)
}

/// The symbols of an outline.
pub fn symbols_of(outline: &FileOutline) -> Vec<Symbol> {
    fn boxed(v: &[String]) -> Box<[Box<str>]> {
        v.iter().map(|s| s.as_str().into()).collect()
    }
    fn doc(j: &crate::model::Javadoc) -> Option<(u32, u32)> {
        j.start_line.zip(j.end_line)
    }
    fn walk(t: &TypeDecl, out: &mut Vec<Symbol>) {
        out.push(Symbol {
            kind: SymKind::Type(t.kind),
            name: t.name.as_str().into(),
            qualified_name: t.qualified_name.as_str().into(),
            symbol_id: t.symbol_id.as_str().into(),
            signature: "".into(),
            modifiers: boxed(&t.modifiers),
            start_line: t.start_line,
            end_line: t.end_line,
            javadoc: doc(&t.javadoc),
        });
        let q = &t.qualified_name;
        for c in t.enum_constants.iter().flatten() {
            out.push(Symbol {
                kind: SymKind::EnumConstant,
                name: c.name.as_str().into(),
                qualified_name: format!("{q}#{}", c.name).into(),
                symbol_id: c.symbol_id.as_str().into(),
                signature: c.name.as_str().into(),
                modifiers: Box::new([]),
                start_line: c.start_line,
                end_line: c.end_line,
                javadoc: doc(&c.javadoc),
            });
        }
        for f in &t.fields {
            out.push(Symbol {
                kind: SymKind::Field,
                name: f.name.as_str().into(),
                qualified_name: format!("{q}#{}", f.name).into(),
                symbol_id: f.symbol_id.as_str().into(),
                signature: format!("{} {}", f.type_text, f.name).into(),
                modifiers: boxed(&f.modifiers),
                start_line: f.start_line,
                end_line: f.end_line,
                javadoc: doc(&f.javadoc),
            });
        }
        for c in &t.constructors {
            out.push(Symbol {
                kind: SymKind::Constructor,
                name: c.name.as_str().into(),
                qualified_name: format!("{q}#{}", c.name).into(),
                symbol_id: c.symbol_id.as_str().into(),
                signature: c.signature_text.as_str().into(),
                modifiers: boxed(&c.modifiers),
                start_line: c.start_line,
                end_line: c.end_line,
                javadoc: doc(&c.javadoc),
            });
        }
        for m in &t.methods {
            out.push(Symbol {
                kind: SymKind::Method,
                name: m.name.as_str().into(),
                qualified_name: format!("{q}#{}", m.name).into(),
                symbol_id: m.symbol_id.as_str().into(),
                signature: m.signature_text.as_str().into(),
                modifiers: boxed(&m.modifiers),
                start_line: m.start_line,
                end_line: m.end_line,
                javadoc: doc(&m.javadoc),
            });
        }
        for i in &t.inner_classes {
            walk(i, out);
        }
    }
    let mut out = Vec::new();
    outline.classes.iter().for_each(|t| walk(t, &mut out));
    out
}

/// Reference to a symbol: (file slot, index in the file's symbols).
pub type SymRef = (u32, u32);

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

    /// Appends a file's names; each entry ends with `\n` and follows one.
    fn append(&mut self, slot: u32, generation: u32, f: &FileSymbols) {
        for (i, sym) in f.symbols.iter().enumerate() {
            self.name_starts.push(self.names.len() as u32);
            for c in sym.name.chars() {
                self.names.extend(c.to_lowercase());
            }
            self.names.push('\n');
            self.initial_starts.push(self.initials.len() as u32);
            self.initials.push_str(&name_initials(&sym.name));
            self.initials.push('\n');
            self.refs.push((slot, i as u32, generation));
        }
    }
}

/// All symbols of the workspace.
#[derive(Debug, Default)]
pub struct SymbolTable {
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
    pub fn file_count(&self) -> usize {
        self.by_path.len()
    }

    pub fn symbol_count(&self) -> usize {
        self.symbol_count
    }

    /// Adds or replaces a file's symbols. The search buffers are extended in place (the old
    /// entries die); they are rebuilt only when most of them are dead.
    pub fn upsert(&mut self, file: FileSymbols) {
        self.symbol_count += file.symbols.len();
        self.next_gen = self.next_gen.wrapping_add(1);
        let generation = self.next_gen;
        let slot = match self.by_path.get(&file.path) {
            Some(&slot) => {
                if let Some(old) = self.files[slot as usize].take() {
                    self.symbol_count -= old.symbols.len();
                    if let Some(s) = &mut self.search {
                        s.dead += old.symbols.len();
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
                    self.symbol_count -= old.symbols.len();
                    if let Some(s) = &mut self.search {
                        s.dead += old.symbols.len();
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
    pub fn remove_under(&mut self, dir: &Path) -> usize {
        let gone: Vec<Arc<Path>> = self.by_path.keys().filter(|p| p.starts_with(dir)).cloned().collect();
        gone.iter().filter(|p| self.remove(p)).count()
    }

    pub fn file(&self, path: &Path) -> Option<&FileSymbols> {
        self.by_path.get(path).and_then(|&s| self.files[s as usize].as_ref())
    }

    pub fn file_at(&self, slot: u32) -> Option<&FileSymbols> {
        self.files.get(slot as usize).and_then(Option::as_ref)
    }

    pub fn symbol(&self, r: SymRef) -> Option<(&FileSymbols, &Symbol)> {
        let f = self.file_at(r.0)?;
        Some((f, f.symbols.get(r.1 as usize)?))
    }

    pub fn paths(&self) -> impl Iterator<Item = &Arc<Path>> {
        self.by_path.keys()
    }

    fn ensure_search(&mut self) {
        if self.search.is_some() {
            return;
        }
        let mut s = Search::new();
        s.names.reserve(self.symbol_count * 14);
        s.initials.reserve(self.symbol_count * 5);
        for (slot, f) in self.files.iter().enumerate() {
            if let Some(f) = f {
                s.append(slot as u32, self.gens[slot], f);
            }
        }
        self.search = Some(s);
    }

    /// Every symbol whose name matches `pattern`, with its tier, filtered by `keep`.
    pub fn find(&mut self, pattern: &Pattern, keep: &dyn Fn(&FileSymbols, &Symbol) -> bool) -> Vec<Hit> {
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
            let Some(sym) = f.symbols.get(idx as usize) else { continue };
            if let Some(tier) = pattern.tier(&sym.name)
                && keep(f, sym)
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
                s.map_or(u8::MAX, |s| s.kind.rank()),
                s.map_or(usize::MAX, |s| s.name.len()),
                s.map(|s| &s.name),
                s.map(|s| &s.qualified_name),
                f.map(|f| &f.path),
                s.map_or(0, |s| s.start_line),
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
pub fn file_symbols(path: PathBuf, root: usize, meta: &std::fs::Metadata, outline: &FileOutline) -> FileSymbols {
    let (size, mtime_ns) = stamp(meta);
    FileSymbols { path: Arc::from(path), root, size, mtime_ns, symbols: symbols_of(outline) }
}
