//! One Java file as a SCIP document: its declarations and local names from its syntax tree,
//! the references the engine bound from the reference index, each with scip-java's symbol.

use mji_parser::{kind, lombok};
use std::collections::HashMap;

use mji_xref::decls::FileDecls;
use mji_xref::world::TypeId;
use mji_xref::{Category, Confidence, Ref, RefKind};
use scip::types::symbol_information::Kind;
use scip::types::{Document, Occurrence, PositionEncoding, Relationship, Signature, SymbolInformation, SymbolRole};
use tree_sitter::Node;

use crate::symbols::{Symbols, escape, package_symbol};

/// What one document is made of.
pub struct FileInput<'a> {
    /// The path relative to the project root, with `/`.
    pub relative_path: String,
    /// The file's decoded text.
    pub text: &'a str,
    /// Every reference the engine bound in the file.
    pub refs: &'a [Ref],
    /// The file's declarations as the world holds them.
    pub decls: &'a FileDecls,
    /// The `lombok.config` in effect for the file (what its generated members are named by).
    pub lombok: std::sync::Arc<lombok::Config>,
}

/// Encodes one file. Never fails: what cannot be named is left out.
pub fn encode(sy: &Symbols, input: &FileInput) -> Document {
    let mut w = Walker {
        sy,
        text: input.text,
        decls: input.decls,
        lines: line_starts(input.text),
        occurrences: Vec::new(),
        symbols: Vec::new(),
        next_local: 0,
        scopes: vec![Vec::new()],
        types: Vec::new(),
        taken: HashMap::new(),
        anonymous: Default::default(),
        lombok: lombok::Scope::default(),
        overrides: input
            .refs
            .iter()
            .filter(|r| r.kind == RefKind::Override && r.confidence == Confidence::Exact)
            .map(|r| ((r.line, r.column), r.targets.as_slice()))
            .collect(),
    };
    if let Some(tree) = mji_parser::parse_tree(input.text) {
        w.lombok = lombok::Scope::of(tree.root_node(), input.text.as_bytes()).with_config(input.lombok.clone());
        w.walk(tree.root_node());
    }
    w.engine_refs(input.refs);
    let mut occurrences = w.occurrences;
    occurrences.sort_by(|a, b| a.range.cmp(&b.range).then(b.symbol_roles.cmp(&a.symbol_roles)));
    occurrences.dedup_by(|a, b| a.range == b.range && a.symbol == b.symbol);
    Document {
        language: "java".into(),
        relative_path: input.relative_path.clone(),
        occurrences,
        symbols: w.symbols,
        position_encoding: PositionEncoding::UTF16CodeUnitOffsetFromLineStart.into(),
        ..Default::default()
    }
}

/// A type being walked: its symbol, and its id in the world when it is a member of the
/// world (local and anonymous classes are not: their members are locals, as in scip-java).
struct TypeCtx {
    symbol: String,
    id: Option<TypeId>,
    /// How many methods of each name, and constructors, were met so far.
    seen: HashMap<String, usize>,
    /// The declaration's node kind (`interface_declaration`, …; empty for a method's body).
    kind: &'static str,
}

struct Walker<'a, 'w> {
    sy: &'a Symbols<'w>,
    text: &'a str,
    decls: &'a FileDecls,
    lines: Vec<usize>,
    occurrences: Vec<Occurrence>,
    symbols: Vec<SymbolInformation>,
    next_local: usize,
    /// Names in scope: locals, parameters and type parameters, innermost last.
    scopes: Vec<Vec<(String, String)>>,
    types: Vec<TypeCtx>,
    /// Ranges already holding an occurrence (a name the walk named is not named again from
    /// the engine's references).
    taken: HashMap<(u32, u32), ()>,
    /// Where anonymous classes name their supertype (1-based line, UTF-16 column).
    anonymous: std::collections::HashSet<(u32, u32)>,
    /// Which annotations are Lombok's in this file.
    lombok: lombok::Scope,
    /// The methods a method of an anonymous, local or enum-constant class overrides, by its
    /// name's position (1-based line, UTF-16 column): the engine's `Override` references.
    overrides: HashMap<(u32, u32), &'a [String]>,
}

/// The byte offset of each line's start.
pub(crate) fn line_starts(text: &str) -> Vec<usize> {
    let mut v = vec![0];
    for (i, b) in text.bytes().enumerate() {
        if b == b'\n' {
            v.push(i + 1);
        }
    }
    v
}

const TYPE_DECLS: &[&str] = &[
    kind::CLASS_DECLARATION,
    kind::INTERFACE_DECLARATION,
    kind::ENUM_DECLARATION,
    kind::RECORD_DECLARATION,
    kind::ANNOTATION_TYPE_DECLARATION,
];

impl<'a, 'w> Walker<'a, 'w> {
    fn range_of(&self, n: Node) -> Vec<i32> {
        node_range(self.text, &self.lines, n)
    }

    fn node_text(&self, n: Node) -> &'a str {
        self.text.get(n.byte_range()).unwrap_or("")
    }

    fn push(&mut self, range: Vec<i32>, symbol: String, roles: i32, enclosing: Option<Vec<i32>>) {
        if range.len() == 3 {
            self.taken.insert((range[0] as u32, range[1] as u32), ());
        }
        self.occurrences.push(Occurrence {
            range,
            symbol,
            symbol_roles: roles,
            enclosing_range: enclosing.unwrap_or_default(),
            ..Default::default()
        });
    }

    fn local(&mut self) -> String {
        let s = format!("local {}", self.next_local);
        self.next_local += 1;
        s
    }

    fn lookup(&self, name: &str) -> Option<&str> {
        self.scopes.iter().rev().flat_map(|s| s.iter().rev()).find(|(n, _)| n == name).map(|(_, s)| s.as_str())
    }

    fn bind(&mut self, name: &str, symbol: String) {
        if let Some(s) = self.scopes.last_mut() {
            s.push((name.to_string(), symbol));
        }
    }

    /// Whether the walk is inside a member body (a local class or anonymous class there is a
    /// local).
    fn in_local(&self) -> bool {
        self.types.last().is_some_and(|t| t.id.is_none())
    }

    fn walk(&mut self, n: Node) {
        // Deeply nested expressions (long concatenations) recurse deep: grow the stack.
        stacker::maybe_grow(128 * 1024, 4 * 1024 * 1024, || self.walk_inner(n));
    }

    fn walk_inner(&mut self, n: Node) {
        match n.kind() {
            k if TYPE_DECLS.contains(&k) => self.type_decl(n),
            kind::IMPORT_DECLARATION => self.import(n),
            kind::PACKAGE_DECLARATION => {}
            kind::OBJECT_CREATION_EXPRESSION => self.object_creation(n),
            kind::METHOD_DECLARATION | kind::CONSTRUCTOR_DECLARATION | kind::COMPACT_CONSTRUCTOR_DECLARATION => {
                self.method(n)
            }
            kind::ANNOTATION_TYPE_ELEMENT_DECLARATION => self.method(n),
            kind::FIELD_DECLARATION | kind::CONSTANT_DECLARATION => self.field(n),
            kind::ENUM_CONSTANT => self.enum_constant(n),
            kind::LOCAL_VARIABLE_DECLARATION => self.local_decl(n),
            kind::BLOCK
            | kind::SWITCH_BLOCK
            | kind::FOR_STATEMENT
            | kind::CATCH_CLAUSE
            | kind::TRY_WITH_RESOURCES_STATEMENT
            | kind::SWITCH_BLOCK_STATEMENT_GROUP
            | kind::SWITCH_RULE => {
                self.scopes.push(Vec::new());
                self.children(n);
                self.scopes.pop();
            }
            kind::ENHANCED_FOR_STATEMENT => self.enhanced_for(n),
            kind::LAMBDA_EXPRESSION => self.lambda(n),
            kind::CATCH_FORMAL_PARAMETER | kind::RESOURCE => {
                self.children(n);
                if let Some(name) = n.child_by_field_name("name") {
                    self.define_local(name, n, Kind::Variable);
                }
            }
            kind::TYPE_PATTERN | kind::RECORD_PATTERN_COMPONENT => {
                self.children(n);
                if let Some(name) = n.child_by_field_name("name").or_else(|| last_identifier(n)) {
                    self.define_local(name, n, Kind::Variable);
                }
            }
            kind::INSTANCEOF_EXPRESSION => {
                self.children(n);
                if let Some(name) = n.child_by_field_name("name") {
                    self.define_local(name, n, Kind::Variable);
                }
            }
            kind::IDENTIFIER => self.identifier(n),
            kind::TYPE_IDENTIFIER => self.type_identifier(n),
            _ => self.children(n),
        }
    }

    fn children(&mut self, n: Node) {
        let mut c = n.walk();
        let kids: Vec<Node> = n.children(&mut c).collect();
        for k in kids {
            self.walk(k);
        }
    }

    fn identifier(&mut self, n: Node) {
        let Some(p) = n.parent() else { return };
        let is = |f: &str| p.child_by_field_name(f).is_some_and(|k| k.id() == n.id());
        let skip = match p.kind() {
            kind::METHOD_INVOCATION => is("name"),
            kind::FIELD_ACCESS => is("field"),
            kind::SCOPED_IDENTIFIER
            | kind::ELEMENT_VALUE_PAIR
            | kind::LABELED_STATEMENT
            | kind::BREAK_STATEMENT
            | kind::CONTINUE_STATEMENT
            | kind::METHOD_REFERENCE => true,
            _ => false,
        };
        if skip {
            return;
        }
        let name = self.node_text(n);
        if let Some(sym) = self.lookup(name).map(str::to_string)
            && sym.starts_with("local ")
        {
            let range = self.range_of(n);
            self.push(range, sym, 0, None);
        }
    }

    fn type_identifier(&mut self, n: Node) {
        let name = self.node_text(n);
        if let Some(sym) = self.lookup(name).map(str::to_string)
            && sym.ends_with(']')
        {
            let range = self.range_of(n);
            self.push(range, sym, 0, None);
        }
    }

    fn define_local(&mut self, name: Node, decl: Node, kind: Kind) {
        let sym = self.local();
        let text = self.node_text(name).to_string();
        let range = self.range_of(name);
        let enclosing = self.range_of(decl);
        self.push(range, sym.clone(), SymbolRole::Definition as i32, Some(enclosing));
        let sig = local_signature(self, decl, &text);
        self.info(sym.clone(), kind, &text, sig, None, Vec::new());
        self.bind(&text, sym);
    }

    fn info(
        &mut self,
        symbol: String,
        kind: Kind,
        display: &str,
        signature: String,
        doc: Option<String>,
        relationships: Vec<Relationship>,
    ) {
        self.symbols.push(SymbolInformation {
            symbol,
            kind: kind.into(),
            display_name: display.to_string(),
            signature_documentation: Some(Signature { language: "java".into(), text: signature, ..Default::default() })
                .into(),
            documentation: doc.into_iter().collect(),
            relationships,
            ..Default::default()
        });
    }

    fn import(&mut self, n: Node) {
        // Package segments of the import's path, as scip-java names them.
        let mut c = n.walk();
        let Some(path) =
            n.children(&mut c).find(|k| k.kind() == kind::SCOPED_IDENTIFIER || k.kind() == kind::IDENTIFIER)
        else {
            return;
        };
        let mut segs: Vec<Node> = Vec::new();
        collect_segments(path, &mut segs);
        let mut prefix = String::new();
        for s in segs {
            let seg = self.node_text(s);
            let candidate = if prefix.is_empty() { seg.to_string() } else { format!("{prefix}.{seg}") };
            if self.sy.world().by_fqn(&candidate).is_some()
                || (self.sy.world().by_fqn(&candidate).is_none() && seg.starts_with(|c: char| c.is_uppercase()))
            {
                break;
            }
            let range = self.range_of(s);
            self.push(range, package_symbol(&candidate), 0, None);
            prefix = candidate;
        }
    }

    fn type_decl(&mut self, n: Node) {
        let Some(name) = n.child_by_field_name("name") else { return self.children(n) };
        let simple = self.node_text(name).to_string();
        let local = self.in_local() || self.scopes.len() > 1 && self.types.is_empty();
        let (symbol, id) = if local {
            (self.local(), None)
        } else {
            let fqn = match self.types.last() {
                Some(t) => t.id.map(|id| format!("{}.{simple}", self.sy.world().decl(id).fqn)),
                None if self.decls.package.is_empty() => Some(simple.clone()),
                None => Some(format!("{}.{simple}", self.decls.package.as_str())),
            };
            let id = fqn.as_deref().and_then(|f| self.sy.world().by_fqn(f));
            match fqn.as_deref().and_then(|f| self.sy.type_symbol(f)) {
                Some(s) => (s, id),
                None => (self.local(), None),
            }
        };
        let range = self.range_of(name);
        let enclosing = self.range_of(n);
        self.push(range.clone(), symbol.clone(), SymbolRole::Definition as i32, Some(enclosing));
        let kind = match n.kind() {
            kind::INTERFACE_DECLARATION | kind::ANNOTATION_TYPE_DECLARATION => Kind::Interface,
            kind::ENUM_DECLARATION => Kind::Enum,
            _ => Kind::Class,
        };
        let rels = id
            .map(|id| {
                self.sy
                    .world()
                    .supertype_names(id)
                    .iter()
                    .filter(|f| f.as_str() != "java.lang.Object")
                    .filter_map(|f| self.sy.type_symbol(f))
                    .map(|s| Relationship { symbol: s, is_implementation: true, ..Default::default() })
                    .collect()
            })
            .unwrap_or_default();
        let sig = header_signature(self, n);
        let doc = javadoc(self, n);
        self.info(symbol.clone(), kind, &simple, sig, doc, rels);
        // The implicit constructor, named at the class name as scip-java does.
        if let Some(id) = id {
            let d = self.sy.world().decl(id);
            if let Some(m) = d.ctors.iter().find(|m| m.implicit) {
                let ctor = self.sy.method_symbol_with(&symbol, id, m, true);
                self.push(range.clone(), ctor.clone(), SymbolRole::Definition as i32, None);
                let mods = modifiers_text(self, n);
                let vis = if n.kind() == kind::ENUM_DECLARATION {
                    "private"
                } else {
                    mods.split_whitespace().find(|m| is_visibility(m)).unwrap_or("")
                };
                let sig = if vis.is_empty() { format!("{simple}()") } else { format!("{vis} {simple}()") };
                self.info(ctor, Kind::Constructor, "<init>", sig, None, Vec::new());
            }
        }
        if let Some(id) = id {
            self.generated_members(n, id, &symbol, &range);
        }
        self.types.push(TypeCtx {
            symbol: symbol.clone(),
            id,
            seen: HashMap::new(),
            kind: TYPE_DECLS.iter().copied().find(|k| *k == n.kind()).unwrap_or(""),
        });
        self.scopes.push(Vec::new());
        if let Some(tp) = n.child_by_field_name("type_parameters") {
            self.type_params(tp, &symbol);
        }
        let mut c = n.walk();
        let kids: Vec<Node> =
            n.children(&mut c).filter(|k| k.id() != name.id() && k.kind() != kind::TYPE_PARAMETERS).collect();
        for k in kids {
            self.walk(k);
        }
        self.scopes.pop();
        self.types.pop();
    }

    fn type_params(&mut self, tp: Node, owner: &str) {
        let mut c = tp.walk();
        let params: Vec<Node> = tp.children(&mut c).filter(|k| k.kind() == kind::TYPE_PARAMETER).collect();
        // Bound before their bounds are walked: `<T extends Comparable<T>>`.
        for p in &params {
            let mut cc = p.walk();
            let Some(name) =
                p.children(&mut cc).find(|k| k.kind() == kind::TYPE_IDENTIFIER || k.kind() == kind::IDENTIFIER)
            else {
                continue;
            };
            let text = self.node_text(name).to_string();
            let sym = if owner.starts_with("local ") { self.local() } else { format!("{owner}[{}]", escape(&text)) };
            let range = self.range_of(name);
            let enclosing = self.range_of(*p);
            self.push(range, sym.clone(), SymbolRole::Definition as i32, Some(enclosing));
            let sig = self.node_text(*p).to_string();
            self.info(sym.clone(), Kind::TypeParameter, &text, sig, None, Vec::new());
            self.bind(&text, sym);
        }
        for p in params {
            let mut cc = p.walk();
            let bounds: Vec<Node> = p.children(&mut cc).filter(|k| k.kind() == kind::TYPE_BOUND).collect();
            for b in bounds {
                self.walk(b);
            }
        }
    }

    fn object_creation(&mut self, n: Node) {
        let mut c = n.walk();
        let kids: Vec<Node> = n.children(&mut c).collect();
        if kids.iter().any(|k| k.kind() == kind::CLASS_BODY)
            && let Some(t) = n.child_by_field_name("type")
        {
            // The simple name's position, where the engine's reference stands.
            let mut last = t;
            while let Some(x) = last
                .child_by_field_name("name")
                .or_else(|| last.named_child(last.named_child_count().saturating_sub(1) as u32))
            {
                if x.id() == last.id() {
                    break;
                }
                last = x;
            }
            let r = self.range_of(last);
            self.anonymous.insert((r[0] as u32 + 1, r[1] as u32 + 1));
        }
        for k in kids {
            if k.kind() == kind::CLASS_BODY {
                // An anonymous class: a local, and so are its members.
                let sym = self.local();
                self.types.push(TypeCtx { symbol: sym, id: None, seen: HashMap::new(), kind: "" });
                self.scopes.push(Vec::new());
                self.walk(k);
                self.scopes.pop();
                self.types.pop();
            } else {
                self.walk(k);
            }
        }
    }

    fn method(&mut self, n: Node) {
        let ctor = n.kind() != kind::METHOD_DECLARATION && n.kind() != kind::ANNOTATION_TYPE_ELEMENT_DECLARATION;
        let Some(name) = n.child_by_field_name("name") else { return self.children(n) };
        let text = self.node_text(name).to_string();
        let Some(t) = self.types.last_mut() else { return self.children(n) };
        let mods = modifiers_text_of(self.text, n);
        let key = if ctor { "<init>".to_string() } else { text.clone() };
        let nth = *t.seen.entry(key.clone()).and_modify(|c| *c += 1).or_insert(0);
        let (owner_sym, owner_id) = (t.symbol.clone(), t.id);
        let mut rels = Vec::new();
        let symbol = match owner_id {
            None => {
                // A local class's method: what the engine bound it to override.
                let r = self.range_of(name);
                if !ctor && let Some(keys) = self.overrides.get(&(r[0] as u32 + 1, r[1] as u32 + 1)) {
                    for k in keys.iter() {
                        if let Some(s) = self.sy.of_key(k) {
                            rels.push(Relationship {
                                symbol: s,
                                is_implementation: true,
                                is_reference: true,
                                ..Default::default()
                            });
                        }
                    }
                }
                self.local()
            }
            Some(id) => {
                let d = self.sy.world().decl(id);
                let list = if ctor { &d.ctors } else { &d.methods };
                let m = list.iter().filter(|m| !m.implicit && (ctor || *m.name == *text)).nth(nth);
                match m {
                    Some(m) => {
                        let mut related = self.sy.world().overridden_keys(id, m);
                        if !ctor {
                            // Then its overriders, as scip-java's aggregator adds them.
                            let key = self.sy.world().method_key(id, m);
                            related.extend(self.sy.overriders_of(&key).iter().cloned());
                        }
                        for k in related {
                            if let Some(s) = self.sy.of_key(&k) {
                                rels.push(Relationship {
                                    symbol: s,
                                    is_implementation: true,
                                    is_reference: true,
                                    ..Default::default()
                                });
                            }
                        }
                        self.sy.method_symbol_with(&owner_sym, id, m, ctor)
                    }
                    None => self.local(),
                }
            }
        };
        let range = self.range_of(name);
        let enclosing = self.range_of(n);
        self.push(range, symbol.clone(), SymbolRole::Definition as i32, Some(enclosing));
        let kind = if ctor {
            Kind::Constructor
        } else if mods.split_whitespace().any(|m| m == "static") {
            Kind::StaticMethod
        } else {
            Kind::Method
        };
        let owner_kind = self.types.last().map_or("", |t| t.kind);
        let sig = method_signature(self, n, &implicit_modifiers(n, &mods, owner_kind));
        let doc = javadoc(self, n);
        self.info(symbol.clone(), kind, if ctor { "<init>" } else { &text }, sig, doc, rels);
        self.scopes.push(Vec::new());
        if let Some(tp) = n.child_by_field_name("type_parameters") {
            self.type_params(tp, &symbol);
        }
        let mut c = n.walk();
        let kids: Vec<Node> =
            n.children(&mut c).filter(|k| k.id() != name.id() && k.kind() != kind::TYPE_PARAMETERS).collect();
        // Members of a member type's methods are locals from here on.
        self.types.push(TypeCtx { symbol: symbol.clone(), id: None, seen: HashMap::new(), kind: "" });
        for k in kids {
            if k.kind() == kind::FORMAL_PARAMETERS {
                self.params(k);
            } else {
                self.walk(k);
            }
        }
        self.types.pop();
        self.scopes.pop();
    }

    fn params(&mut self, n: Node) {
        let mut c = n.walk();
        let kids: Vec<Node> = n.children(&mut c).collect();
        for p in kids {
            match p.kind() {
                kind::FORMAL_PARAMETER | kind::SPREAD_PARAMETER | kind::RECEIVER_PARAMETER => {
                    let mut cc = p.walk();
                    let parts: Vec<Node> = p.children(&mut cc).collect();
                    let name = p.child_by_field_name("name").or_else(|| {
                        parts
                            .iter()
                            .find(|k| k.kind() == kind::VARIABLE_DECLARATOR)
                            .and_then(|v| v.child_by_field_name("name"))
                    });
                    for k in parts {
                        if Some(k.id()) != name.map(|x| x.id()) && k.kind() != kind::VARIABLE_DECLARATOR {
                            self.walk(k);
                        }
                    }
                    if let Some(name) = name
                        && p.kind() != kind::RECEIVER_PARAMETER
                    {
                        self.define_local(name, p, Kind::Parameter);
                    }
                }
                _ => self.walk(p),
            }
        }
    }

    /// The members Lombok generates in the type `n` (the world's `id`, whose symbol is
    /// `owner`): each a symbol with its signature and a definition occurrence marked
    /// `Generated` at what makes it (the annotation, or the field an accessor is for; the
    /// type's name when neither is known), as a build with Lombok has them.
    fn generated_members(&mut self, n: Node, id: TypeId, owner: &str, name_range: &[i32]) {
        let d = self.sy.world().decl(id);
        if !d.methods.iter().chain(&d.ctors).any(|m| m.generated) && !d.fields.iter().any(|f| f.generated) {
            return;
        }
        let src = self.text.as_bytes();
        let gens = lombok::generate(&self.lombok, n, src);
        self.emit_generated(&gens, id, owner, name_range);
    }

    fn emit_generated(&mut self, gens: &[lombok::Generated], id: TypeId, owner: &str, name_range: &[i32]) {
        let roles = SymbolRole::Definition as i32 | SymbolRole::Generated as i32;
        let w = self.sy.world();
        let d = w.decl(id);
        let text = self.text;
        let ty_text = |t: &lombok::GenTy| match t {
            lombok::GenTy::Node { ty, dims } => {
                let mut s = collapse(ty.utf8_text(text.as_bytes()).unwrap_or(""));
                if let Some(d) = dims {
                    s.push_str(&collapse(d.utf8_text(text.as_bytes()).unwrap_or("")));
                }
                s
            }
            lombok::GenTy::Text(t) => t.clone(),
        };
        let mut infos = Vec::new();
        // Each generated member of the world once, in the generator's order (two constructors
        // may take as many parameters).
        let mut used: Vec<*const mji_xref::decls::MethodSym> = Vec::new();
        for g in gens {
            let range = if g.at.start_byte() < g.at.end_byte() { self.range_of(g.at) } else { name_range.to_vec() };
            let doc = Some(format!("Generated by Lombok {}", g.by));
            let mods = g.modifiers.join(" ");
            let params: Vec<String> = g.params.iter().map(|(n, t)| format!("{} {n}", ty_text(t))).collect();
            let sig = |head: String| if mods.is_empty() { head } else { format!("{mods} {head}") };
            match g.kind {
                lombok::GenKind::Method | lombok::GenKind::Ctor => {
                    let ctor = g.kind == lombok::GenKind::Ctor;
                    let list = if ctor { &d.ctors } else { &d.methods };
                    let Some(m) = list.iter().find(|m| {
                        m.generated
                            && (ctor || *m.name == *g.name)
                            && m.params.len() == g.params.len()
                            && !used.contains(&std::ptr::from_ref(*m))
                    }) else {
                        continue;
                    };
                    used.push(std::ptr::from_ref(m));
                    let symbol = self.sy.method_symbol_with(owner, id, m, ctor);
                    let (kind, display, head) = if ctor {
                        (Kind::Constructor, "<init>".to_owned(), format!("{}({})", d.simple, params.join(", ")))
                    } else {
                        let kind = if m.is_static { Kind::StaticMethod } else { Kind::Method };
                        (kind, g.name.clone(), format!("{} {}({})", ty_text(&g.ty), g.name, params.join(", ")))
                    };
                    infos.push((range, symbol, kind, display, sig(head), doc));
                }
                lombok::GenKind::Field => {
                    let symbol = format!("{owner}{}.", escape(&g.name));
                    let kind = if g.modifiers.contains(&"static") { Kind::StaticField } else { Kind::Field };
                    infos.push((
                        range,
                        symbol,
                        kind,
                        g.name.clone(),
                        sig(format!("{} {}", ty_text(&g.ty), g.name)),
                        doc,
                    ));
                }
                lombok::GenKind::Type => {
                    let fqn = format!("{}.{}", d.fqn, g.name);
                    let (Some(tid), Some(symbol)) = (w.by_fqn(&fqn), self.sy.type_symbol(&fqn)) else { continue };
                    infos.push((
                        range.clone(),
                        symbol.clone(),
                        Kind::Class,
                        g.name.clone(),
                        sig(format!("class {}", g.name)),
                        doc,
                    ));
                    for (range, symbol, kind, display, sig, doc) in infos.drain(..) {
                        self.push(range, symbol.clone(), roles, None);
                        self.info(symbol, kind, &display, sig, doc, Vec::new());
                    }
                    self.emit_generated(&g.members, tid, &symbol, &range);
                }
            }
        }
        for (range, symbol, kind, display, sig, doc) in infos {
            self.push(range, symbol.clone(), roles, None);
            self.info(symbol, kind, &display, sig, doc, Vec::new());
        }
    }

    fn field(&mut self, n: Node) {
        let owner = self.types.last().map(|t| (t.symbol.clone(), t.id));
        let mods = modifiers_text(self, n);
        let is_static = mods.split_whitespace().any(|m| m == "static") || n.kind() == kind::CONSTANT_DECLARATION;
        let mut c = n.walk();
        let kids: Vec<Node> = n.children(&mut c).collect();
        for k in kids {
            if k.kind() != kind::VARIABLE_DECLARATOR {
                self.walk(k);
                continue;
            }
            let Some(name) = k.child_by_field_name("name") else { continue };
            if let Some(v) = k.child_by_field_name("value") {
                self.walk(v);
            }
            let text = self.node_text(name).to_string();
            let symbol = match &owner {
                Some((s, Some(_))) => format!("{s}{}.", escape(&text)),
                _ => self.local(),
            };
            let range = self.range_of(name);
            let enclosing = self.range_of(n);
            self.push(range, symbol.clone(), SymbolRole::Definition as i32, Some(enclosing));
            let ty = n.child_by_field_name("type").map(|t| self.node_text(t)).unwrap_or("");
            let vis: Vec<&str> = mods.split_whitespace().collect();
            let sig = [vis.join(" "), ty.to_string(), text.clone()]
                .into_iter()
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join(" ");
            let doc = javadoc(self, n);
            let kind = if is_static { Kind::StaticField } else { Kind::Field };
            self.info(symbol, kind, &text, sig, doc, Vec::new());
        }
    }

    fn enum_constant(&mut self, n: Node) {
        let Some(name) = n.child_by_field_name("name") else { return self.children(n) };
        let text = self.node_text(name).to_string();
        let owner = self.types.last().map(|t| (t.symbol.clone(), t.id));
        let symbol = match &owner {
            Some((s, Some(_))) => format!("{s}{}.", escape(&text)),
            _ => self.local(),
        };
        let range = self.range_of(name);
        let enclosing = self.range_of(n);
        self.push(range, symbol.clone(), SymbolRole::Definition as i32, Some(enclosing));
        let owner_name = owner.as_ref().map(|(s, _)| s.rsplit(['/', '#']).nth(1).unwrap_or("")).unwrap_or("");
        let ordinal = self.types.last_mut().map_or(0, |t| {
            let o = t.seen.entry("#ordinal".into()).or_insert(0);
            *o += 1;
            *o - 1
        });
        let args = n.child_by_field_name("arguments").map(|a| collapse(self.node_text(a))).unwrap_or_default();
        let sig = format!("{owner_name}.{text}{args} /* ordinal {ordinal} */");
        let doc = javadoc(self, n);
        self.info(symbol, Kind::EnumMember, &text, sig, doc, Vec::new());
        let mut c = n.walk();
        let kids: Vec<Node> = n.children(&mut c).filter(|k| k.id() != name.id()).collect();
        for k in kids {
            if k.kind() == kind::CLASS_BODY {
                let sym = self.local();
                self.types.push(TypeCtx { symbol: sym, id: None, seen: HashMap::new(), kind: "" });
                self.walk(k);
                self.types.pop();
            } else {
                self.walk(k);
            }
        }
    }

    fn local_decl(&mut self, n: Node) {
        let mut c = n.walk();
        let kids: Vec<Node> = n.children(&mut c).collect();
        let one = kids.iter().filter(|k| k.kind() == kind::VARIABLE_DECLARATOR).count() == 1;
        for k in kids {
            if k.kind() != kind::VARIABLE_DECLARATOR {
                self.walk(k);
                continue;
            }
            // Numbered before its initializer is walked, as javac enters the variable first.
            if let Some(name) = k.child_by_field_name("name") {
                self.define_local(name, if one { n } else { k }, Kind::Variable);
            }
            if let Some(v) = k.child_by_field_name("value") {
                self.walk(v);
            }
        }
    }

    fn enhanced_for(&mut self, n: Node) {
        self.scopes.push(Vec::new());
        if let Some(v) = n.child_by_field_name("value") {
            self.walk(v);
        }
        if let Some(t) = n.child_by_field_name("type") {
            self.walk(t);
        }
        if let Some(name) = n.child_by_field_name("name") {
            self.define_local(name, n, Kind::Variable);
        }
        if let Some(b) = n.child_by_field_name("body") {
            self.walk(b);
        }
        self.scopes.pop();
    }

    fn lambda(&mut self, n: Node) {
        self.scopes.push(Vec::new());
        if let Some(p) = n.child_by_field_name("parameters") {
            match p.kind() {
                kind::IDENTIFIER => self.define_local(p, p, Kind::Parameter),
                kind::INFERRED_PARAMETERS => {
                    let mut c = p.walk();
                    let ids: Vec<Node> = p.children(&mut c).filter(|k| k.kind() == kind::IDENTIFIER).collect();
                    for i in ids {
                        self.define_local(i, i, Kind::Parameter);
                    }
                }
                _ => self.params(p),
            }
        }
        if let Some(b) = n.child_by_field_name("body") {
            self.walk(b);
        }
        self.scopes.pop();
    }

    /// The engine's bound references, `exact` ones only (see docs/scip.md: a `likely`
    /// reference would show in Sourcegraph as precise).
    fn engine_refs(&mut self, refs: &[Ref]) {
        // `new T(…)` names the constructor only, and `new T(…) { … }` the type only, as
        // scip-java writes them.
        let ctors: std::collections::HashSet<(u32, u32)> =
            refs.iter().filter(|r| r.category == Category::Ctor).map(|r| (r.line, r.column)).collect();
        for r in refs {
            let anonymous = self.anonymous.contains(&(r.line, r.column));
            if r.category == Category::Type
                && r.kind == RefKind::New
                && ctors.contains(&(r.line, r.column))
                && !anonymous
            {
                continue;
            }
            if r.category == Category::Ctor && anonymous {
                continue;
            }
            if r.confidence != Confidence::Exact || r.targets.len() != 1 || r.kind == RefKind::Override {
                continue;
            }
            let Some(sym) = self.sy.of_key(&r.targets[0]) else { continue };
            let Some(range) = self.ref_range(r) else { continue };
            let roles = ref_roles(r.kind);
            self.occurrences.push(Occurrence { range, symbol: sym, symbol_roles: roles, ..Default::default() });
        }
    }

    /// A reference's range: from its (1-based, UTF-16) position to the end of the identifier
    /// or keyword there.
    fn ref_range(&self, r: &Ref) -> Option<Vec<i32>> {
        ref_range(&self.lines, self.text, r)
    }
}

/// A reference's range: from its (1-based, UTF-16) position to the end of the identifier or
/// keyword there.
/// The UTF-16 column of `byte` on 0-based `line` (`lines`: each line's first byte).
fn utf16_col(text: &str, lines: &[usize], line: usize, byte: usize) -> i32 {
    let start = lines.get(line).copied().unwrap_or(0).min(byte);
    text.get(start..byte).map_or(0, |s| s.encode_utf16().count()) as i32
}

/// The symbol roles of a reference's occurrence: an import, a field's write or read.
pub(crate) fn ref_roles(kind: RefKind) -> i32 {
    match kind {
        RefKind::Import => SymbolRole::Import as i32,
        RefKind::FieldWrite => SymbolRole::WriteAccess as i32,
        RefKind::FieldRead => SymbolRole::ReadAccess as i32,
        _ => 0,
    }
}

/// A node's SCIP range: `[line, start, end]` on one line, else `[line, start, endLine, end]`,
/// 0-based lines and UTF-16 columns.
pub(crate) fn node_range(text: &str, lines: &[usize], n: Node) -> Vec<i32> {
    let (s, e) = (n.start_position(), n.end_position());
    let sc = utf16_col(text, lines, s.row, n.start_byte());
    let ec = utf16_col(text, lines, e.row, n.end_byte());
    if s.row == e.row { vec![s.row as i32, sc, ec] } else { vec![s.row as i32, sc, e.row as i32, ec] }
}

pub(crate) fn ref_range(lines: &[usize], text: &str, r: &Ref) -> Option<Vec<i32>> {
    let line = (r.line as usize).checked_sub(1)?;
    let start = *lines.get(line)?;
    let end = lines.get(line + 1).copied().unwrap_or(text.len());
    let lt = text.get(start..end)?;
    let mut units = 0u32;
    let mut at = lt.len();
    for (i, ch) in lt.char_indices() {
        if units + 1 >= r.column {
            at = i;
            break;
        }
        units += ch.len_utf16() as u32;
    }
    let rest = &lt[at..];
    let len: usize =
        rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$').map(|c| c.len_utf16()).sum();
    if len == 0 {
        return None;
    }
    let sc = (r.column - 1) as i32;
    Some(vec![line as i32, sc, sc + len as i32])
}

fn last_identifier(n: Node) -> Option<Node> {
    let mut c = n.walk();
    n.children(&mut c).filter(|k| k.kind() == kind::IDENTIFIER).last()
}

fn collect_segments<'t>(n: Node<'t>, out: &mut Vec<Node<'t>>) {
    if n.kind() == kind::IDENTIFIER {
        out.push(n);
        return;
    }
    if let Some(s) = n.child_by_field_name("scope") {
        collect_segments(s, out);
    }
    if let Some(s) = n.child_by_field_name("name") {
        collect_segments(s, out);
    }
}

fn is_visibility(m: &str) -> bool {
    matches!(m, "public" | "protected" | "private")
}

/// A declaration's modifiers without its annotations.
fn modifiers_text(w: &Walker, n: Node) -> String {
    modifiers_text_of(w.text, n)
}

fn modifiers_text_of(text: &str, n: Node) -> String {
    let mut c = n.walk();
    let Some(m) = n.children(&mut c).find(|k| k.kind() == kind::MODIFIERS) else { return String::new() };
    let mut cc = m.walk();
    m.children(&mut cc)
        .filter(|k| !k.kind().contains(kind::ANNOTATION) && !k.kind().contains("comment"))
        .map(|k| text.get(k.byte_range()).unwrap_or(""))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A member's modifiers with those the language implies, as javac's element prints them:
/// interface methods `public` and `abstract` (or `default`/`static`), annotation elements
/// `public abstract`, enum constructors `private`.
fn implicit_modifiers(n: Node, mods: &str, owner_kind: &str) -> String {
    let has = |m: &str| mods.split_whitespace().any(|x| x == m);
    let mut out: Vec<&str> = Vec::new();
    match owner_kind {
        kind::INTERFACE_DECLARATION | kind::ANNOTATION_TYPE_DECLARATION
            if n.kind() != kind::CONSTRUCTOR_DECLARATION =>
        {
            if !has("private") && !has("public") {
                out.push("public");
            }
            out.extend(mods.split_whitespace());
            if !has("default")
                && !has("static")
                && !has("private")
                && !has("abstract")
                && n.child_by_field_name("body").is_none()
            {
                out.push("abstract");
            }
        }
        kind::ENUM_DECLARATION if n.kind() == kind::CONSTRUCTOR_DECLARATION && !has("private") => {
            out.push("private");
            out.extend(mods.split_whitespace());
        }
        _ => out.extend(mods.split_whitespace()),
    }
    out.join(" ")
}

/// `public class Name<T> extends A implements B`: the declaration up to its body, annotations
/// left out, whitespace collapsed.
fn header_signature(w: &Walker, n: Node) -> String {
    let mut parts = vec![modifiers_text(w, n)];
    let mut c = n.walk();
    for k in n.children(&mut c) {
        if k.kind() == kind::MODIFIERS || k.kind().ends_with("body") {
            continue;
        }
        if k.kind() == kind::TYPE_PARAMETERS
            && let Some(last) = parts.last_mut()
        {
            last.push_str(&collapse(w.node_text(k)));
            continue;
        }
        parts.push(w.node_text(k).to_string());
    }
    collapse(&parts.join(" "))
}

fn method_signature(w: &Walker, n: Node, mods: &str) -> String {
    // An annotation element's `()` are two tokens of their own.
    method_tokens(w, n, mods).replace(" ( )", "()")
}

fn method_tokens(w: &Walker, n: Node, mods: &str) -> String {
    let mut parts = vec![mods.to_string()];
    let mut c = n.walk();
    let value = n.child_by_field_name("value").map(|v| v.id());
    let mut after_value = false;
    for k in n.children(&mut c) {
        // An annotation element's `default …` is not part of its signature.
        if k.kind() == "default" || Some(k.id()) == value {
            after_value = true;
            continue;
        }
        if k.kind() == kind::MODIFIERS
            || k.kind() == kind::BLOCK
            || k.kind() == kind::CONSTRUCTOR_BODY
            || k.kind() == ";"
            || after_value
        {
            continue;
        }
        if k.kind() == kind::FORMAL_PARAMETERS {
            if let Some(last) = parts.last_mut() {
                last.push_str(&collapse(w.node_text(k)));
            }
            continue;
        }
        parts.push(w.node_text(k).to_string());
    }
    collapse(&parts.join(" "))
}

fn local_signature(w: &Walker, decl: Node, name: &str) -> String {
    let ty = decl.child_by_field_name("type").map(|t| w.node_text(t));
    match ty {
        Some(t) => collapse(&format!("{t} {name}")),
        None => name.to_string(),
    }
}

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The javadoc comment before a declaration, as Markdown (the comment's text without its
/// delimiters and leading stars).
fn javadoc(w: &Walker, n: Node) -> Option<String> {
    let mut p = n.prev_sibling();
    while let Some(k) = p {
        if k.kind() == kind::LINE_COMMENT {
            p = k.prev_sibling();
            continue;
        }
        break;
    }
    let k = p?;
    if k.kind() != kind::BLOCK_COMMENT {
        return None;
    }
    let t = w.node_text(k);
    let body = t.strip_prefix("/**")?.strip_suffix("*/")?;
    let lines: Vec<String> = body
        .lines()
        .map(|l| {
            let l = l.trim_start();
            l.strip_prefix('*').unwrap_or(l).to_string()
        })
        .collect();
    let s = lines.join("\n").trim().to_string();
    (!s.is_empty()).then_some(s)
}
