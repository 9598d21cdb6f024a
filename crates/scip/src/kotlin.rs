//! One Kotlin file as a SCIP document (language `kotlin`): its declarations' definitions with
//! the symbols of their JVM view (the names javac, and so every Java document, gives them: a
//! top-level function in its facade class `pkg/UtilsKt#greet().`, a property as its field
//! `pkg/Point#x.` with its accessors `getX().`/`setX().` at the property's name, as
//! scip-java's Kotlin plugin defines them; a top-level declaration also under that plugin's
//! package-level name, `pkg/greet().`), and the references the Kotlin binder bound exactly.
//! Locals and parameters are not named; `likely` references are left out and counted.

use std::collections::{HashMap, HashSet};

use mji_xref::decls::FileDecls;
use mji_xref::world::TypeId;
use mji_xref::{Category, Confidence, Ref, RefKind};
use scip::types::symbol_information::Kind;
use scip::types::{Document, Occurrence, PositionEncoding, Relationship, Signature, SymbolInformation, SymbolRole};
use tree_sitter::Node;

use crate::symbols::{Symbols, escape};

/// What one Kotlin document is made of.
pub struct KotlinInput<'a> {
    /// The path relative to the project root, with `/`.
    pub relative_path: String,
    /// The file's decoded text.
    pub text: &'a str,
    /// Every reference the Kotlin binder bound in the file.
    pub refs: &'a [Ref],
    /// The file's declarations as the world holds them (their JVM view).
    pub decls: &'a FileDecls,
    /// The file's index in the world (`u32::MAX` when it has none: no definitions then).
    pub file: u32,
}

/// Encodes one Kotlin file, with the number of its `likely` references left out. Never fails:
/// what cannot be named is left out.
pub fn encode(sy: &Symbols, input: &KotlinInput) -> (Document, usize) {
    let mut w = Walker {
        sy,
        text: input.text,
        decls: input.decls,
        file: input.file,
        lines: crate::document::line_starts(input.text),
        occurrences: Vec::new(),
        symbols: Vec::new(),
        defined: HashSet::new(),
        types: Vec::new(),
        facade_at: None,
        facade_done: false,
        top_functions: HashMap::new(),
    };
    if input.file != u32::MAX
        && (input.file as usize) < sy.world().files.len()
        && let Some(tree) = mji_parser::kotlin::parse_tree(input.text)
    {
        let root = tree.root_node();
        w.facade_at = jvm_name_string(input.text, root).map(|s| (w.range_of(s), w.range_of(root)));
        w.walk(root, 0);
    }
    let likely = w.engine_refs(input.refs);
    let mut occurrences = w.occurrences;
    occurrences.sort_by(|a, b| a.range.cmp(&b.range).then(b.symbol_roles.cmp(&a.symbol_roles)));
    occurrences.dedup_by(|a, b| a.range == b.range && a.symbol == b.symbol);
    let doc = Document {
        language: "kotlin".into(),
        relative_path: input.relative_path.clone(),
        occurrences,
        symbols: w.symbols,
        position_encoding: PositionEncoding::UTF16CodeUnitOffsetFromLineStart.into(),
        ..Default::default()
    };
    (doc, likely)
}

/// How deep declarations nest before the walk stops (the outline's own bound).
const MAX_DEPTH: u32 = 64;

struct Walker<'a, 'w> {
    sy: &'a Symbols<'w>,
    text: &'a str,
    decls: &'a FileDecls,
    file: u32,
    lines: Vec<usize>,
    occurrences: Vec<Occurrence>,
    symbols: Vec<SymbolInformation>,
    /// Symbols already defined (one `SymbolInformation` each).
    defined: HashSet<String>,
    /// The enclosing types' indexes in `decls.types` (None: one the declarations lack).
    types: Vec<Option<usize>>,
    /// Where the facade class is named (`@file:JvmName`'s string) and the file's range.
    facade_at: Option<(Vec<i32>, Vec<i32>)>,
    /// Whether the facade class's definition was made.
    facade_done: bool,
    /// How many top-level functions of each name were met so far.
    top_functions: HashMap<String, usize>,
}

/// One JVM member a Kotlin declaration stands for.
enum Member {
    Method(usize, usize),
    Ctor(usize, usize),
    Field(usize, usize),
}

impl<'a, 'w> Walker<'a, 'w> {
    fn text_of(&self, n: Node) -> &'a str {
        self.text.get(n.byte_range()).unwrap_or("")
    }

    fn range_of(&self, n: Node) -> Vec<i32> {
        crate::document::node_range(self.text, &self.lines, n)
    }

    fn id(&self, ti: usize) -> TypeId {
        self.sy.world().type_in_file(self.file, ti as u32)
    }

    fn walk(&mut self, n: Node, depth: u32) {
        if depth > MAX_DEPTH {
            return;
        }
        match n.kind() {
            "class_declaration" | "object_declaration" | "companion_object" => self.type_decl(n, depth),
            "function_declaration" => {
                self.function(n);
                self.children(n, depth);
            }
            "property_declaration" => {
                if let Some(v) = named(n, "variable_declaration")
                    && let Some(name) = named(v, "identifier")
                {
                    self.property(n, name);
                }
                self.children(n, depth);
            }
            "class_parameter" => {
                if let Some(name) = named(n, "identifier") {
                    self.property(n, name);
                }
            }
            "secondary_constructor" => {
                self.secondary_ctor(n);
                self.children(n, depth);
            }
            "enum_entry" => {
                if let Some(name) = named(n, "identifier") {
                    let text = self.text_of(name);
                    let found = self.members_at(n, |m| matches!(m, Member::Field(..)), &[text]);
                    self.define_all(found, name, n);
                }
                self.children(n, depth);
            }
            _ => self.children(n, depth),
        }
    }

    fn children(&mut self, n: Node, depth: u32) {
        let mut c = n.walk();
        let kids: Vec<Node> = n.named_children(&mut c).collect();
        for k in kids {
            self.walk(k, depth + 1);
        }
    }

    /// A class, interface, object or companion: its type, its constructors (the primary one
    /// and those default arguments give, at its name, as scip-java's plugin names a primary
    /// constructor), an object's `INSTANCE` and a companion's field on its class.
    fn type_decl(&mut self, n: Node, depth: u32) {
        let name_node = n.child_by_field_name("name").or_else(|| token(n, "companion")).or_else(|| token(n, "object"));
        let simple = match n.kind() {
            "companion_object" => {
                n.child_by_field_name("name").map_or("Companion".to_owned(), |x| self.text_of(x).to_owned())
            }
            _ => name_node.map(|x| self.text_of(x).to_owned()).unwrap_or_default(),
        };
        let line = n.start_position().row as u32 + 1;
        let outer = self.types.last().copied().flatten();
        let ti = self
            .decls
            .types
            .iter()
            .position(|t| t.start_line == line && *t.simple == *simple && t.outer.map(|o| o as usize) == outer);
        if let (Some(ti), Some(name)) = (ti, name_node) {
            let t = &self.decls.types[ti];
            let id = self.id(ti);
            if let Some(symbol) = self.sy.type_symbol(&t.fqn) {
                let kind = match t.kind {
                    mji_model::TypeKind::Interface | mji_model::TypeKind::Annotation => Kind::Interface,
                    mji_model::TypeKind::Enum => Kind::Enum,
                    _ if n.kind() != "class_declaration" => Kind::Object,
                    _ => Kind::Class,
                };
                let rels = self
                    .sy
                    .world()
                    .supertype_names(id)
                    .iter()
                    .filter(|f| f.as_str() != "java.lang.Object")
                    .filter_map(|f| self.sy.type_symbol(f))
                    .map(|s| Relationship { symbol: s, is_implementation: true, ..Default::default() })
                    .collect();
                let sig = head(self.text, n);
                self.define(name, n, symbol, kind, &simple, sig, kdoc(self.text, n), rels);
            }
            // Constructors other than secondary ones (which are named at their keyword).
            let secondary: HashSet<u32> = body_of(n)
                .map(|b| {
                    let mut c = b.walk();
                    b.named_children(&mut c)
                        .filter(|k| k.kind() == "secondary_constructor")
                        .map(|k| k.start_position().row as u32 + 1)
                        .collect()
                })
                .unwrap_or_default();
            let ctors: Vec<Member> = (0..t.ctors.len())
                .filter(|ci| !secondary.contains(&t.ctors[*ci].line))
                .map(|ci| Member::Ctor(ti, ci))
                .collect();
            self.define_all(ctors, name, n);
            // `INSTANCE` on an object; `Companion` on a companion's class.
            let field = match n.kind() {
                "object_declaration" => Some((ti, "INSTANCE")),
                "companion_object" => outer.map(|o| (o, simple.as_str())),
                _ => None,
            };
            if let Some((owner, fname)) = field
                && let Some(fi) = self.decls.types[owner].fields.iter().position(|f| f.generated && *f.name == *fname)
            {
                self.define_all(vec![Member::Field(owner, fi)], name, n);
            }
        }
        self.types.push(ti);
        self.children(n, depth);
        self.types.pop();
    }

    fn function(&mut self, n: Node) {
        let Some(name) = n.child_by_field_name("name") else { return };
        let source = self.text_of(name);
        let jvm = jvm_name(self.text, n, "").unwrap_or_else(|| source.to_owned());
        let found = self.members_at(n, |m| matches!(m, Member::Method(..)), &[&jvm]);
        self.facade(&found, name);
        if let Some(prefix) = self.package_prefix(&found) {
            // scip-kotlinc's overload suffix: the earlier top-level functions of that name.
            let seen = self.top_functions.entry(source.to_owned()).or_insert(0);
            let n_th = *seen;
            *seen += 1;
            let suffix = if n_th == 0 { "()".to_owned() } else { format!("(+{n_th})") };
            let sym = format!("{prefix}{}{suffix}.", escape(source));
            self.define(name, n, sym, Kind::Method, source, head(self.text, n), kdoc(self.text, n), Vec::new());
        }
        self.define_all(found, name, n);
    }

    /// A property (or a primary constructor's `val`/`var` parameter): its field and the
    /// accessors Java sees, all at its name.
    fn property(&mut self, n: Node, name: Node) {
        let p = self.text_of(name);
        let cap = {
            let mut cs = p.chars();
            cs.next().map(|c| c.to_uppercase().collect::<String>() + cs.as_str()).unwrap_or_default()
        };
        let mut names = vec![p.to_owned(), format!("get{cap}"), format!("set{cap}")];
        if p.len() > 2 && p.starts_with("is") && p[2..].starts_with(char::is_uppercase) {
            names.push(format!("set{}", &p[2..]));
        }
        names.extend(jvm_name(self.text, n, "get:"));
        names.extend(jvm_name(self.text, n, "set:"));
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let found = self.members_at(
            n,
            |m| match m {
                Member::Field(..) => true,
                Member::Method(..) => true,
                Member::Ctor(..) => false,
            },
            &names,
        );
        // A method named like an accessor but written as a function is not this property's.
        let found: Vec<Member> = found
            .into_iter()
            .filter(|m| match m {
                Member::Method(ti, mi) => {
                    let m = &self.decls.types[*ti].methods[*mi];
                    m.generated || *m.name == *p
                }
                Member::Field(ti, fi) => *self.decls.types[*ti].fields[*fi].name == *p,
                Member::Ctor(..) => false,
            })
            .collect();
        self.facade(&found, name);
        if let Some(prefix) = self.package_prefix(&found) {
            // scip-kotlinc's names of a top-level property: `pkg/x.`, `pkg/getX().`, `pkg/setX().`.
            let accessor = |m: &Member, prefix: &str| match m {
                Member::Method(ti, mi) => {
                    let m = &self.decls.types[*ti].methods[*mi];
                    let set = matches!(&m.ret, mji_xref::ty::TyText::Prim(n) if &**n == "void");
                    Some(if set { format!("{prefix}set{cap}().") } else { format!("{prefix}get{cap}().") })
                }
                _ => None,
            };
            let mut syms = vec![(format!("{prefix}{}.", escape(p)), Kind::Field)];
            syms.extend(found.iter().filter_map(|m| accessor(m, &prefix)).map(|s| (s, Kind::Method)));
            syms.dedup();
            for (sym, kind) in syms {
                self.define(name, n, sym, kind, p, head(self.text, n), kdoc(self.text, n), Vec::new());
            }
        }
        self.define_all(found, name, n);
    }

    /// For a top-level declaration (its JVM members in the file facade): the symbol prefix of
    /// its package (`scip-java maven <coordinates> pkg/`), under which scip-java's Kotlin
    /// plugin (scip-kotlinc) names top-level declarations, beside the facade's JVM names.
    fn package_prefix(&self, found: &[Member]) -> Option<String> {
        if !self.types.is_empty() {
            return None;
        }
        let (Member::Method(ti, _) | Member::Field(ti, _)) = found.first()? else { return None };
        let t = &self.decls.types[*ti];
        let facade = self.sy.type_symbol(&t.fqn)?;
        facade.strip_suffix(&format!("{}#", escape(&t.simple))).map(str::to_owned)
    }

    /// The facade class of the file's top-level members, defined once: at `@file:JvmName`'s
    /// string, else at its first member's name (Kotlin writes no class there).
    fn facade(&mut self, found: &[Member], name: Node) {
        if self.facade_done || !self.types.is_empty() {
            return;
        }
        let Some(Member::Method(ti, _) | Member::Field(ti, _)) = found.first() else { return };
        let t = &self.decls.types[*ti];
        let Some(symbol) = self.sy.type_symbol(&t.fqn) else { return };
        self.facade_done = true;
        let (range, enclosing) = match self.facade_at.clone() {
            Some(at) => at,
            None => (self.range_of(name), self.range_of(name)),
        };
        self.occurrences.push(Occurrence {
            range,
            symbol: symbol.clone(),
            symbol_roles: SymbolRole::Definition as i32,
            enclosing_range: enclosing,
            ..Default::default()
        });
        if self.defined.insert(symbol.clone()) {
            let display = t.simple.to_string();
            self.symbols.push(SymbolInformation {
                symbol,
                kind: Kind::Class.into(),
                signature_documentation: Some(Signature {
                    language: "kotlin".into(),
                    text: format!("public final class {display} /* the file's top-level declarations */"),
                    ..Default::default()
                })
                .into(),
                display_name: display,
                ..Default::default()
            });
        }
    }

    fn secondary_ctor(&mut self, n: Node) {
        let Some(Some(ti)) = self.types.last().copied() else { return };
        let Some(kw) = token(n, "constructor") else { return };
        let line = n.start_position().row as u32 + 1;
        let found: Vec<Member> = self.decls.types[ti]
            .ctors
            .iter()
            .enumerate()
            .filter(|(_, c)| c.line == line)
            .map(|(ci, _)| Member::Ctor(ti, ci))
            .collect();
        self.define_all(found, kw, n);
    }

    /// The members of any of the file's types declared by `decl` (at its first line, its
    /// annotations' when it has some) under one of `names` (a companion's member and its
    /// `@JvmStatic` twin on the class, a function and its `@JvmOverloads` overloads, a
    /// property's field and accessors).
    fn members_at(&self, decl: Node, keep: impl Fn(&Member) -> bool, names: &[&str]) -> Vec<Member> {
        let line = decl.start_position().row as u32 + 1;
        let mut out = Vec::new();
        for (ti, t) in self.decls.types.iter().enumerate() {
            if t.start_line > line || t.end_line < line {
                continue;
            }
            for (i, m) in t.methods.iter().enumerate() {
                if m.line == line && !m.implicit && names.contains(&&*m.name) {
                    out.push(Member::Method(ti, i));
                }
            }
            for (i, f) in t.fields.iter().enumerate() {
                if f.line == line && names.contains(&&*f.name) {
                    out.push(Member::Field(ti, i));
                }
            }
        }
        out.retain(|m| keep(m));
        out
    }

    fn define_all(&mut self, members: Vec<Member>, name: Node, decl: Node) {
        for m in members {
            let (kind, display, sym, related) = match m {
                Member::Method(ti, mi) | Member::Ctor(ti, mi) => {
                    let ctor = matches!(m, Member::Ctor(..));
                    let t = &self.decls.types[ti];
                    let id = self.id(ti);
                    let Some(base) = self.sy.type_symbol(&t.fqn) else { continue };
                    let d = self.sy.world().decl(id);
                    // The world's own copy of the member (its identity names its overload).
                    let list = if ctor { &d.ctors } else { &d.methods };
                    let own = if ctor { &t.ctors } else { &t.methods };
                    let Some(wm) = list.get(mi).filter(|x| x.name == own[mi].name) else { continue };
                    let sym = self.sy.method_symbol_with(&base, id, wm, ctor);
                    let mut related = Vec::new();
                    if !ctor {
                        related = self.sy.world().overridden_keys(id, wm);
                        let key = self.sy.world().method_key(id, wm);
                        related.extend(self.sy.overriders_of(&key).iter().cloned());
                    }
                    let kind = match (ctor, wm.is_static) {
                        (true, _) => Kind::Constructor,
                        (_, true) => Kind::StaticMethod,
                        _ => Kind::Method,
                    };
                    (kind, if ctor { "<init>".to_owned() } else { wm.name.to_string() }, sym, related)
                }
                Member::Field(ti, fi) => {
                    let t = &self.decls.types[ti];
                    let Some(base) = self.sy.type_symbol(&t.fqn) else { continue };
                    let f = &t.fields[fi];
                    let kind = if f.is_static { Kind::StaticField } else { Kind::Field };
                    (kind, f.name.to_string(), format!("{base}{}.", escape(&f.name)), Vec::new())
                }
            };
            let rels = related
                .into_iter()
                .filter_map(|k| self.sy.of_key(&k))
                .map(|s| Relationship { symbol: s, is_implementation: true, is_reference: true, ..Default::default() })
                .collect();
            let sig = head(self.text, decl);
            self.define(name, decl, sym, kind, &display, sig, kdoc(self.text, decl), rels);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn define(
        &mut self,
        name: Node,
        decl: Node,
        symbol: String,
        kind: Kind,
        display: &str,
        signature: String,
        doc: Option<String>,
        relationships: Vec<Relationship>,
    ) {
        let range = self.range_of(name);
        let enclosing = self.range_of(decl);
        self.occurrences.push(Occurrence {
            range,
            symbol: symbol.clone(),
            symbol_roles: SymbolRole::Definition as i32,
            enclosing_range: enclosing,
            ..Default::default()
        });
        if !self.defined.insert(symbol.clone()) {
            return;
        }
        self.symbols.push(SymbolInformation {
            symbol,
            kind: kind.into(),
            display_name: display.to_owned(),
            signature_documentation: Some(Signature {
                language: "kotlin".into(),
                text: signature,
                ..Default::default()
            })
            .into(),
            documentation: doc.into_iter().collect(),
            relationships,
            ..Default::default()
        });
    }

    /// The binder's references bound exactly to one target (as the Java documents'); returns
    /// how many `likely` ones were left out.
    fn engine_refs(&mut self, refs: &[Ref]) -> usize {
        let mut likely = 0;
        for r in refs {
            if r.kind == RefKind::Override {
                continue;
            }
            if r.confidence != Confidence::Exact {
                likely += 1;
                continue;
            }
            if r.targets.len() != 1 {
                continue;
            }
            let Some(sym) = self.sy.of_key(&r.targets[0]) else { continue };
            let Some(range) = crate::document::ref_range(&self.lines, self.text, r) else { continue };
            // A Kotlin type Java sees as another (`Int` as `java.lang.Integer`, `Any` as
            // `Object`, `Nothing` as `Void`) is not that Java type's occurrence.
            if r.category == Category::Type && !written_as(self.text, &self.lines, &range, &r.targets[0]) {
                continue;
            }
            let roles = crate::document::ref_roles(r.kind);
            self.occurrences.push(Occurrence { range, symbol: sym, symbol_roles: roles, ..Default::default() });
        }
        likely
    }
}

/// Whether the text at `range` (one line) is the simple name of the type `fqn`.
fn written_as(text: &str, lines: &[usize], range: &[i32], fqn: &str) -> bool {
    let Some(line) = lines.get(range[0] as usize).and_then(|s| text.get(*s..)).and_then(|t| t.lines().next()) else {
        return false;
    };
    let units: Vec<u16> = line.encode_utf16().skip(range[1] as usize).take((range[2] - range[1]) as usize).collect();
    let written = String::from_utf16_lossy(&units);
    fqn.rsplit(['.', '$']).next() == Some(written.as_str())
}

/// The first named child of kind `kind`.
fn named<'t>(n: Node<'t>, kind: &str) -> Option<Node<'t>> {
    let mut c = n.walk();
    n.named_children(&mut c).find(|x| x.kind() == kind)
}

/// The first anonymous child token `word`.
fn token<'t>(n: Node<'t>, word: &str) -> Option<Node<'t>> {
    let mut c = n.walk();
    n.children(&mut c).find(|x| !x.is_named() && x.kind() == word)
}

fn body_of(n: Node) -> Option<Node> {
    named(n, "class_body").or_else(|| named(n, "enum_class_body"))
}

/// The name `@JvmName("x")` (with `target` a use-site target such as `get:`, or none) gives a
/// declaration in its modifiers.
fn jvm_name(text: &str, n: Node, target: &str) -> Option<String> {
    let m = named(n, "modifiers")?;
    let mut c = m.walk();
    m.named_children(&mut c).filter(|a| a.kind() == "annotation").find_map(|a| {
        let t: String = text.get(a.byte_range())?.split_whitespace().collect();
        let rest = t.strip_prefix('@')?.strip_prefix(target)?.strip_prefix("JvmName")?;
        rest.split('"').nth(1).map(str::to_owned)
    })
}

/// The string of the file's `@file:JvmName("X")` (its content, else the literal).
fn jvm_name_string<'t>(text: &str, root: Node<'t>) -> Option<Node<'t>> {
    let mut c = root.walk();
    let a = root
        .named_children(&mut c)
        .find(|n| n.kind() == "file_annotation" && text.get(n.byte_range()).is_some_and(|t| t.contains("JvmName")))?;
    fn find<'t>(n: Node<'t>, kind: &str) -> Option<Node<'t>> {
        if n.kind() == kind {
            return Some(n);
        }
        let mut c = n.walk();
        let kids: Vec<Node<'t>> = n.named_children(&mut c).collect();
        kids.into_iter().find_map(|k| find(k, kind))
    }
    find(a, "string_content").or_else(|| find(a, "string_literal"))
}

/// A declaration as written up to its body, initializer or accessors, annotations left out,
/// whitespace collapsed.
fn head(text: &str, n: Node) -> String {
    let mut c = n.walk();
    let mut parts = Vec::new();
    for k in n.children(&mut c) {
        let stop = matches!(
            k.kind(),
            "class_body" | "enum_class_body" | "function_body" | "getter" | "setter" | "property_delegate" | "="
        );
        if stop {
            break;
        }
        if k.kind() == "modifiers" {
            let mut cc = k.walk();
            parts.extend(
                k.named_children(&mut cc)
                    .filter(|x| x.kind() != "annotation")
                    .map(|x| text.get(x.byte_range()).unwrap_or("").to_owned()),
            );
            continue;
        }
        parts.push(text.get(k.byte_range()).unwrap_or("").to_owned());
    }
    parts.join(" ").split_whitespace().collect::<Vec<_>>().join(" ").replace(" (", "(").replace(" :", ":")
}

/// The KDoc right before a declaration (a `/** … */` comment), as Markdown.
fn kdoc(text: &str, n: Node) -> Option<String> {
    let p = n.prev_sibling().filter(|p| p.kind() == "block_comment")?;
    let t = text.get(p.byte_range())?;
    let body = t.strip_prefix("/**")?.strip_suffix("*/")?;
    let lines: Vec<&str> = body
        .lines()
        .map(|l| {
            let l = l.trim_start();
            l.strip_prefix('*').unwrap_or(l)
        })
        .collect();
    let s = lines.join("\n").trim().to_owned();
    (!s.is_empty()).then_some(s)
}
