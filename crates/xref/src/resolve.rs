//! Every reference of one file to a type, method, constructor or field, bound the way javac
//! would bind it, from the full syntax tree and the [`World`]: scopes for locals, declared types
//! for receivers, the workspace hierarchy for inherited members, overload resolution by arity and
//! argument types. What cannot be known is marked `likely`.

use tree_sitter::Node;

use crate::decls::{MethodDecl, import_of, is_type_decl, params_of, tparams_of};
use crate::ty::{STRING, Ty, TyText, promote, unboxed};
use crate::world::{Ctx, Found, Lookup, Origin, TypeId, TypeName, World, starts_upper, substitute};
use crate::{Category, Confidence, Ref, RefKind};
use mji_parser::{LineIndex, Prepared, SourceText, parse_tree};

/// What an expression denotes.
#[derive(Debug, Clone)]
enum Val {
    /// A value, of a type when known.
    Expr(Option<Ty>),
    /// A type name used as a qualifier (`Foo.bar()`).
    Type(Ty),
    /// A package name (`java.util` of `java.util.List.of()`).
    Package(String),
}

impl Val {
    fn ty(self) -> Option<Ty> {
        match self {
            Val::Expr(t) => t,
            _ => None,
        }
    }
}

struct Frame {
    ctx: Ctx,
    /// The type `this` has here; for anonymous and local classes, their supertype.
    this: Option<Ty>,
    /// Whether members of enclosing instances are reachable (not inside a static type).
    type_id: Option<TypeId>,
}

/// All references of a file. `file` is the file's index in the world (`u32::MAX` if absent).
pub fn file_refs(world: &World, file: u32, bytes: &[u8]) -> Vec<Ref> {
    let src = SourceText::decode(bytes);
    let prep = Prepared::new(&src.text);
    let Some(tree) = parse_tree(&prep.text) else { return Vec::new() };
    let mut r = Resolver {
        w: world,
        b: prep.text.as_bytes(),
        prep: &prep,
        orig: &src.text,
        lines: &src.lines,
        scopes: Vec::new(),
        frames: vec![Frame { ctx: Ctx { file, types: Vec::new(), tvars: Vec::new() }, this: None, type_id: None }],
        out: Vec::new(),
        package: String::new(),
        depth: 0,
        ty_depth: 0,
    };
    r.program(tree.root_node());
    r.out.sort_by(|a, b| {
        (a.line, a.column, a.category as u8, &a.targets).cmp(&(b.line, b.column, b.category as u8, &b.targets))
    });
    r.out.dedup_by(|a, b| {
        a.line == b.line && a.column == b.column && a.category == b.category && a.targets == b.targets
    });
    r.out
}

struct Resolver<'w, 's> {
    w: &'w World,
    b: &'s [u8],
    prep: &'s Prepared<'s>,
    orig: &'s str,
    lines: &'s LineIndex,
    scopes: Vec<(Box<str>, Option<Ty>)>,
    frames: Vec<Frame>,
    out: Vec<Ref>,
    package: String,
    /// Recursion depth: generated code nests expressions thousands deep (`a + b + …`). The
    /// stack grows on demand (stacker); past [`MAX_DEPTH`] the rest of such a subtree is skipped.
    depth: u32,
    /// Nesting of the type being read (`List<List<…>>`): types deeper than
    /// [`MAX_TYPE_NESTING`] are still searched for references but typed as unknown, so no
    /// [`Ty`] (whose clone, drop and substitution recurse) nests deeper than that.
    ty_depth: u32,
}

const MAX_DEPTH: u32 = 3000;
const MAX_TYPE_NESTING: u32 = crate::ty::MAX_TYPE_NESTING;

fn is_expression(k: &str) -> bool {
    matches!(
        k,
        "identifier"
            | "field_access"
            | "method_invocation"
            | "object_creation_expression"
            | "array_creation_expression"
            | "method_reference"
            | "lambda_expression"
            | "cast_expression"
            | "instanceof_expression"
            | "binary_expression"
            | "unary_expression"
            | "update_expression"
            | "assignment_expression"
            | "ternary_expression"
            | "parenthesized_expression"
            | "array_access"
            | "class_literal"
            | "this"
            | "super"
            | "string_literal"
            | "character_literal"
            | "decimal_integer_literal"
            | "hex_integer_literal"
            | "octal_integer_literal"
            | "binary_integer_literal"
            | "decimal_floating_point_literal"
            | "hex_floating_point_literal"
            | "true"
            | "false"
            | "null_literal"
            | "switch_expression"
            | "array_initializer"
    )
}

fn is_type_node(k: &str) -> bool {
    matches!(
        k,
        "type_identifier"
            | "scoped_type_identifier"
            | "generic_type"
            | "array_type"
            | "integral_type"
            | "floating_point_type"
            | "boolean_type"
            | "void_type"
            | "annotated_type"
    )
}

impl<'w, 's> Resolver<'w, 's> {
    fn text(&self, n: Node) -> &'s str {
        n.utf8_text(self.b).unwrap_or("")
    }

    fn ctx(&self) -> &Ctx {
        &self.frames.last().expect("a frame").ctx
    }

    fn emit(&mut self, at: Node, kind: RefKind, category: Category, targets: Vec<String>, confidence: Confidence) {
        self.emit_at(at.start_byte(), kind, category, targets, confidence);
    }

    /// Emits a reference at an offset of the prepared text.
    fn emit_at(&mut self, at: usize, kind: RefKind, category: Category, targets: Vec<String>, confidence: Confidence) {
        if targets.is_empty() {
            return;
        }
        let off = self.prep.to_original(at).min(self.orig.len());
        let line = self.lines.line_of(off);
        let start = self.lines.line_start(line).min(off);
        let column = self.orig.get(start..off).map(|s| s.encode_utf16().count()).unwrap_or(0) as u32 + 1;
        self.out.push(Ref { line, column, kind, category, targets, confidence });
    }

    fn emit_type(&mut self, at: Node, kind: RefKind, fqn: &str, origin: Origin) {
        let conf = if origin == Origin::Unresolved { Confidence::Likely } else { Confidence::Exact };
        self.emit(at, kind, Category::Type, vec![fqn.to_string()], conf);
    }

    // ---- declarations -------------------------------------------------------------------

    fn program(&mut self, root: Node) {
        let mut c = root.walk();
        for n in root.named_children(&mut c) {
            match n.kind() {
                "package_declaration" => {
                    let mut c2 = n.walk();
                    if let Some(id) =
                        n.named_children(&mut c2).find(|k| matches!(k.kind(), "identifier" | "scoped_identifier"))
                    {
                        self.package = crate::ty::dotted(id, self.b);
                    }
                    self.annotations_in(n);
                }
                "import_declaration" => self.import(n),
                k if is_type_decl(k) => self.type_decl(n),
                _ => {}
            }
        }
    }

    fn import(&mut self, n: Node) {
        let imp = import_of(n, self.b);
        let mut c = n.walk();
        let Some(id) = n.named_children(&mut c).find(|k| matches!(k.kind(), "identifier" | "scoped_identifier")) else {
            return;
        };
        let mut idents = Vec::new();
        leaf_identifiers(id, &mut idents);
        let segs: Vec<&str> = idents.iter().map(|x| self.text(*x)).collect();
        // The type part of the path.
        let type_segs = if imp.is_static && !imp.on_demand { segs.len().saturating_sub(1) } else { segs.len() };
        let ctx = Ctx { file: u32::MAX, types: Vec::new(), tvars: Vec::new() };
        let (per, _) = self.w.resolve_type_segments(&segs[..type_segs], &ctx);
        let mut owner = None;
        for (i, t) in per.iter().enumerate() {
            if let Some(TypeName::Class(f, o)) = t {
                // `import a.b.*` names a package, not a type, unless a type is there.
                if imp.on_demand
                    && !imp.is_static
                    && i + 1 == type_segs
                    && !self.w.jdk.is_type(f)
                    && self.w.by_fqn(f).is_none()
                {
                    continue;
                }
                self.emit_type(idents[i], RefKind::Import, f, *o);
                owner = Some(f.clone());
            }
        }
        if imp.is_static
            && !imp.on_demand
            && let (Some(owner), Some(last)) = (owner, idents.last())
        {
            let name = self.text(*last);
            let ty = Ty::class(&owner);
            if let Lookup::Found(f) = self.w.find_field(&ty, name) {
                let key = self.w.field_key(f.owner, f.decl);
                self.emit(*last, RefKind::Import, Category::Field, vec![key], Confidence::Exact);
            }
            let (ms, _) = self.w.find_methods(&ty, name);
            for m in ms.iter().filter(|m| m.decl.is_static) {
                let key = self.w.method_key(m.owner, m.decl);
                self.emit(*last, RefKind::Import, Category::Method, vec![key], Confidence::Exact);
            }
        }
    }

    fn annotations_in(&mut self, n: Node) {
        let mut c = n.walk();
        for k in n.named_children(&mut c) {
            match k.kind() {
                "modifiers" => self.annotations_in(k),
                "annotation" | "marker_annotation" => self.annotation(k),
                _ => {}
            }
        }
    }

    fn annotation(&mut self, n: Node) {
        let Some(name) = n.child_by_field_name("name") else { return };
        let ty = self.type_ref(name, RefKind::Annotation);
        if let Some(args) = n.child_by_field_name("arguments") {
            let mut c = args.walk();
            for a in args.named_children(&mut c) {
                if a.kind() == "element_value_pair" {
                    if let (Some(key), Some(t)) = (a.child_by_field_name("key"), ty.as_ref()) {
                        let (ms, _) = self.w.find_methods(t, self.text(key));
                        if let Some(m) = ms.first() {
                            let k = self.w.method_key(m.owner, m.decl);
                            self.emit(key, RefKind::Annotation, Category::Method, vec![k], Confidence::Exact);
                        }
                    }
                    if let Some(v) = a.child_by_field_name("value") {
                        self.element_value(v);
                    }
                } else {
                    self.element_value(a);
                }
            }
        }
    }

    fn element_value(&mut self, v: Node) {
        match v.kind() {
            "annotation" | "marker_annotation" => self.annotation(v),
            "element_value_array_initializer" => {
                let mut c = v.walk();
                for k in v.named_children(&mut c) {
                    self.element_value(k);
                }
            }
            _ => {
                self.expr(v);
            }
        }
    }

    /// A type declaration; nested types recurse here, so the stack grows on demand as for
    /// statements (a file may nest classes a thousand deep).
    fn type_decl(&mut self, n: Node) {
        if self.depth >= MAX_DEPTH {
            return;
        }
        self.depth += 1;
        stacker::maybe_grow(128 * 1024, 4 * 1024 * 1024, || self.type_decl_inner(n));
        self.depth -= 1;
    }

    fn type_decl_inner(&mut self, n: Node) {
        let name = n.child_by_field_name("name").map(|x| self.text(x)).unwrap_or("");
        let outer_fqn = self.frames.last().and_then(|f| f.type_id).map(|t| self.w.decl(t).fqn.to_string());
        let fqn = match (&outer_fqn, self.frames.len()) {
            (Some(o), _) => format!("{o}.{name}"),
            (None, 1) if self.package.is_empty() => name.to_string(),
            (None, 1) => format!("{}.{name}", self.package),
            _ => String::new(),
        };
        let file = self.ctx().file;
        let id = self
            .w
            .workspace_type(&fqn)
            .filter(|id| self.w.is_workspace(*id) && (self.w.file_of(*id) == file || file == u32::MAX));
        // Local classes are not in the world: their body sees the enclosing scope.
        let local = id.is_none() && self.frames.len() > 1;
        self.annotations_in(n);
        let mut header_ctx = self.ctx().clone();
        let tps = tparams_of(n.child_by_field_name("type_parameters"), self.b);
        header_ctx = self.w.with_method_tparams(&header_ctx, &tps);
        self.frames.push(Frame { ctx: header_ctx, this: None, type_id: None });
        if let Some(tp) = n.child_by_field_name("type_parameters") {
            self.type_params(tp);
        }
        let mut this = id.map(|i| Ty::Class(self.w.decl(i).fqn.clone(), Vec::new()));
        let mut c = n.walk();
        for k in n.children(&mut c) {
            match k.kind() {
                "superclass" => {
                    let tys = self.clause_types(k, RefKind::Extends);
                    if local && let Some(t) = tys.into_iter().last() {
                        this = t;
                    }
                }
                "permits" => {
                    self.clause_types(k, RefKind::Type);
                }
                "super_interfaces" | "extends_interfaces" => {
                    let kind = if k.kind() == "extends_interfaces" { RefKind::Extends } else { RefKind::Implements };
                    let tys = self.clause_types(k, kind);
                    if local && this.is_none() {
                        this = tys.into_iter().next().flatten();
                    }
                }
                _ => {}
            }
        }
        self.frames.pop();
        let ctx = match id {
            Some(i) => self.w.ctx_in(i),
            None => self.w.with_method_tparams(self.ctx(), &tps),
        };
        let saved = std::mem::take(&mut self.scopes);
        if local {
            self.scopes = saved.clone();
        }
        self.frames.push(Frame { ctx, this, type_id: id });
        if n.kind() == "record_declaration"
            && let Some(ps) = n.child_by_field_name("parameters")
        {
            self.params(ps, false);
        }
        if let Some(body) = n.child_by_field_name("body") {
            self.class_body(body);
        }
        self.frames.pop();
        self.scopes = saved;
    }

    /// The types of an `extends`/`implements`/`permits` clause (its type list flattened), with
    /// their references emitted.
    fn clause_types(&mut self, clause: Node, kind: RefKind) -> Vec<Option<Ty>> {
        let mut out = Vec::new();
        let mut c = clause.walk();
        for k in clause.named_children(&mut c) {
            if k.kind() == "type_list" {
                let mut c2 = k.walk();
                for t in k.named_children(&mut c2) {
                    out.push(self.type_ref(t, kind));
                }
            } else {
                out.push(self.type_ref(k, kind));
            }
        }
        out
    }

    fn type_params(&mut self, tp: Node) {
        let mut c = tp.walk();
        for p in tp.named_children(&mut c) {
            let mut c2 = p.walk();
            for k in p.named_children(&mut c2) {
                match k.kind() {
                    "type_bound" => {
                        let mut c3 = k.walk();
                        for t in k.named_children(&mut c3) {
                            self.type_ref(t, RefKind::Type);
                        }
                    }
                    "annotation" | "marker_annotation" => self.annotation(k),
                    _ => {}
                }
            }
        }
    }

    fn class_body(&mut self, body: Node) {
        let mut c = body.walk();
        for m in body.named_children(&mut c) {
            self.member(m);
        }
    }

    fn member(&mut self, m: Node) {
        match m.kind() {
            "enum_body_declarations" => self.class_body(m),
            "enum_constant" => {
                self.annotations_in(m);
                // The constant calls its enum's constructor.
                let args = m.child_by_field_name("arguments").map(|a| self.args(a)).unwrap_or_default();
                if let (Some(name), Some(this)) =
                    (m.child_by_field_name("name"), self.frames.last().and_then(|f| f.this.clone()))
                {
                    self.ctor_ref(name, &this, &args, RefKind::New);
                }
                if let Some(body) = m.child_by_field_name("body") {
                    let this = self.frames.last().and_then(|f| f.this.clone());
                    let ctx = self.ctx().clone();
                    self.frames.push(Frame { ctx, this, type_id: None });
                    self.class_body(body);
                    self.frames.pop();
                }
            }
            "field_declaration" | "constant_declaration" => {
                self.annotations_in(m);
                if let Some(t) = m.child_by_field_name("type") {
                    self.type_ref(t, RefKind::Type);
                }
                let mut c = m.walk();
                for d in m.children_by_field_name("declarator", &mut c) {
                    if let Some(v) = d.child_by_field_name("value") {
                        self.expr(v);
                    }
                }
            }
            "method_declaration"
            | "constructor_declaration"
            | "compact_constructor_declaration"
            | "annotation_type_element_declaration" => self.method(m),
            "static_initializer" | "block" => self.block_like(m),
            k if is_type_decl(k) => self.type_decl(m),
            _ => {}
        }
    }

    fn method(&mut self, m: Node) {
        self.annotations_in(m);
        let tps = tparams_of(m.child_by_field_name("type_parameters"), self.b);
        let ctx = self.w.with_method_tparams(self.ctx(), &tps);
        let this = self.frames.last().and_then(|f| f.this.clone());
        let type_id = self.frames.last().and_then(|f| f.type_id);
        self.frames.push(Frame { ctx, this, type_id });
        let mark = self.scopes.len();
        if let Some(tp) = m.child_by_field_name("type_parameters") {
            self.type_params(tp);
        }
        if let Some(t) = m.child_by_field_name("type") {
            self.type_ref(t, RefKind::Type);
        }
        if let Some(ps) = m.child_by_field_name("parameters") {
            self.params(ps, true);
        }
        if m.kind() == "compact_constructor_declaration"
            && let Some(id) = type_id
        {
            // A compact constructor's parameters are the record's components.
            let ctx = self.w.ctx_ref(id);
            let comps: Vec<(Box<str>, Option<Ty>)> = self
                .w
                .decl(id)
                .fields
                .iter()
                .filter(|f| !f.is_static)
                .map(|f| (f.name.clone(), self.w.resolve_text(&f.ty, &ctx)))
                .collect();
            self.scopes.extend(comps);
        }
        let mut c = m.walk();
        for k in m.children(&mut c) {
            match k.kind() {
                "throws" => {
                    let mut c2 = k.walk();
                    for t in k.named_children(&mut c2) {
                        self.type_ref(t, RefKind::Type);
                    }
                }
                "block" | "constructor_body" => self.block_like(k),
                _ => {}
            }
        }
        if let Some(v) = m.child_by_field_name("value") {
            self.element_value(v);
        }
        self.scopes.truncate(mark);
        self.frames.pop();
    }

    fn params(&mut self, ps: Node, declare: bool) {
        let mut c = ps.walk();
        for p in ps.named_children(&mut c) {
            self.annotations_in(p);
            match p.kind() {
                "formal_parameter" => {
                    let t = p.child_by_field_name("type").and_then(|t| self.type_ref(t, RefKind::Type));
                    let dims =
                        p.child_by_field_name("dimensions").map(|d| crate::ty::count_dims(d, self.b)).unwrap_or(0);
                    if declare && let Some(n) = p.child_by_field_name("name") {
                        let t = t.map(|t| array_of(t, dims));
                        self.scopes.push((self.text(n).into(), t));
                    }
                }
                "spread_parameter" => {
                    let mut c2 = p.walk();
                    let mut t = None;
                    for k in p.named_children(&mut c2) {
                        if is_type_node(k.kind()) {
                            t = self.type_ref(k, RefKind::Type);
                        } else if k.kind() == "variable_declarator"
                            && let Some(n) = k.child_by_field_name("name")
                        {
                            let name: Box<str> = self.text(n).into();
                            self.scopes.push((name, t.clone().map(|t| Ty::Array(Box::new(t)))));
                        }
                    }
                }
                "receiver_parameter" => {
                    let mut c2 = p.walk();
                    for k in p.named_children(&mut c2) {
                        if is_type_node(k.kind()) {
                            self.type_ref(k, RefKind::Type);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    // ---- statements ---------------------------------------------------------------------

    fn block_like(&mut self, n: Node) {
        let mark = self.scopes.len();
        let mut c = n.walk();
        for k in n.named_children(&mut c) {
            self.stmt(k);
        }
        self.scopes.truncate(mark);
    }

    fn stmt(&mut self, n: Node) {
        if self.depth >= MAX_DEPTH {
            return;
        }
        self.depth += 1;
        stacker::maybe_grow(128 * 1024, 4 * 1024 * 1024, || self.stmt_inner(n));
        self.depth -= 1;
    }

    fn stmt_inner(&mut self, n: Node) {
        match n.kind() {
            "block" | "constructor_body" | "switch_block_statement_group" => self.block_like(n),
            "local_variable_declaration" => self.local_var(n),
            k if is_type_decl(k) => self.type_decl(n),
            "explicit_constructor_invocation" => self.explicit_ctor(n),
            "enhanced_for_statement" => {
                let mark = self.scopes.len();
                self.annotations_in(n);
                let declared = n.child_by_field_name("type").and_then(|t| self.type_ref(t, RefKind::Type));
                let iterable = n.child_by_field_name("value").and_then(|v| self.expr(v).ty());
                let elem = declared.or_else(|| match iterable {
                    Some(Ty::Array(e)) => Some(*e),
                    Some(Ty::Class(_, a)) if a.len() == 1 => Some(a[0].clone()),
                    _ => None,
                });
                if let Some(name) = n.child_by_field_name("name") {
                    let dims =
                        n.child_by_field_name("dimensions").map(|d| crate::ty::count_dims(d, self.b)).unwrap_or(0);
                    self.scopes.push((self.text(name).into(), elem.map(|e| array_of(e, dims))));
                }
                if let Some(body) = n.child_by_field_name("body") {
                    self.stmt(body);
                }
                self.scopes.truncate(mark);
            }
            "for_statement"
            | "try_with_resources_statement"
            | "try_statement"
            | "catch_clause"
            | "finally_clause"
            | "lambda_expression" => {
                let mark = self.scopes.len();
                self.generic(n);
                self.scopes.truncate(mark);
            }
            "catch_formal_parameter" => {
                self.annotations_in(n);
                let mut first = None;
                let mut c = n.walk();
                for k in n.named_children(&mut c) {
                    if k.kind() == "catch_type" {
                        let mut c2 = k.walk();
                        for t in k.named_children(&mut c2) {
                            let ty = self.type_ref(t, RefKind::Type);
                            first = first.or(ty);
                        }
                    }
                }
                if let Some(name) = n.child_by_field_name("name") {
                    self.scopes.push((self.text(name).into(), first));
                }
            }
            "resource" => {
                self.annotations_in(n);
                let declared = n.child_by_field_name("type").and_then(|t| self.type_ref(t, RefKind::Type));
                let v = n.child_by_field_name("value").and_then(|v| self.expr(v).ty());
                if let Some(name) = n.child_by_field_name("name") {
                    self.scopes.push((self.text(name).into(), declared.or(v)));
                } else {
                    let mut c = n.walk();
                    for k in n.named_children(&mut c) {
                        if is_expression(k.kind()) {
                            self.expr(k);
                        }
                    }
                }
            }
            "switch_statement" | "switch_expression" => {
                self.switch(n);
            }
            k if is_expression(k) => {
                self.expr(n);
            }
            _ => self.generic(n),
        }
    }

    /// Visits children: expressions as expressions, the rest as statements.
    fn generic(&mut self, n: Node) {
        let mut c = n.walk();
        for k in n.named_children(&mut c) {
            if is_type_node(k.kind()) {
                self.type_ref(k, RefKind::Type);
            } else {
                self.stmt(k);
            }
        }
    }

    fn local_var(&mut self, n: Node) {
        self.annotations_in(n);
        let declared = n.child_by_field_name("type").and_then(|t| self.type_ref(t, RefKind::Type));
        let mut c = n.walk();
        for d in n.children_by_field_name("declarator", &mut c) {
            let v = d.child_by_field_name("value").and_then(|v| self.expr(v).ty());
            let dims = d.child_by_field_name("dimensions").map(|x| crate::ty::count_dims(x, self.b)).unwrap_or(0);
            let t = match &declared {
                Some(t) => Some(array_of(t.clone(), dims)),
                None => v,
            };
            if let Some(name) = d.child_by_field_name("name") {
                self.scopes.push((self.text(name).into(), t));
            }
        }
    }

    fn switch(&mut self, n: Node) -> Option<Ty> {
        let sel = n.child_by_field_name("condition").and_then(|c| self.expr(c).ty());
        let enum_id = sel.as_ref().and_then(|t| t.lookup_class()).and_then(|(f, _)| self.w.by_fqn(f));
        let body = n.child_by_field_name("body")?;
        let mark = self.scopes.len();
        let mut c = body.walk();
        for g in body.named_children(&mut c) {
            let mark2 = self.scopes.len();
            let mut c2 = g.walk();
            for k in g.named_children(&mut c2) {
                if k.kind() == "switch_label" {
                    let mut c3 = k.walk();
                    for e in k.named_children(&mut c3) {
                        if e.kind() == "identifier"
                            && let Some(id) = enum_id
                        {
                            let name = self.text(e);
                            if let Some(f) = self.w.decl(id).fields.iter().find(|f| &*f.name == name) {
                                let key = self.w.field_key(id, f);
                                self.emit(e, RefKind::FieldRead, Category::Field, vec![key], Confidence::Exact);
                            }
                        } else if e.kind() == "pattern" {
                            // `case Point(var x, var y)`, `case Outer.Circle c`: types and bindings.
                            self.pattern(e);
                        } else if is_expression(e.kind()) {
                            self.expr(e);
                        } else {
                            self.generic(e);
                        }
                    }
                } else {
                    self.stmt(k);
                }
            }
            if g.kind() == "switch_block_statement_group" {
                self.scopes.truncate(mark2);
            }
        }
        self.scopes.truncate(mark);
        None
    }

    fn explicit_ctor(&mut self, n: Node) {
        let Some(ctor) = n.child_by_field_name("constructor") else { return };
        if let Some(obj) = n.child_by_field_name("object") {
            self.expr(obj);
        }
        let args = n.child_by_field_name("arguments").map(|a| self.args(a)).unwrap_or_default();
        let Some(frame) = self.frames.last() else { return };
        let Some(id) = frame.type_id else { return };
        let target = if ctor.kind() == "super" || self.text(ctor) == "super" {
            self.w.supers(id).first().cloned()
        } else {
            Some(Ty::Class(self.w.decl(id).fqn.clone(), Vec::new()))
        };
        let kind = if self.text(ctor) == "super" { RefKind::SuperCall } else { RefKind::ThisCall };
        if let Some(t) = target {
            self.ctor_ref(ctor, &t, &args, kind);
        }
    }

    // ---- types --------------------------------------------------------------------------

    /// Emits the references of a type node and returns the type.
    fn type_ref(&mut self, n: Node, kind: RefKind) -> Option<Ty> {
        if self.depth >= MAX_DEPTH {
            return None;
        }
        self.depth += 1;
        self.ty_depth += 1;
        let t = stacker::maybe_grow(128 * 1024, 4 * 1024 * 1024, || self.type_ref_inner(n, kind));
        self.ty_depth -= 1;
        self.depth -= 1;
        if self.ty_depth >= MAX_TYPE_NESTING { None } else { t }
    }

    fn type_ref_inner(&mut self, n: Node, kind: RefKind) -> Option<Ty> {
        match n.kind() {
            "type_identifier" | "scoped_type_identifier" | "identifier" | "scoped_identifier" => {
                let mut idents = Vec::new();
                leaf_identifiers(n, &mut idents);
                let segs: Vec<&str> = idents.iter().map(|x| self.text(*x)).collect();
                if segs == ["var"] {
                    return None;
                }
                let (per, last) = self.w.resolve_type_segments(&segs, self.ctx());
                for (i, t) in per.iter().enumerate() {
                    if let Some(TypeName::Class(f, o)) = t {
                        let k = if i + 1 == segs.len() { kind } else { RefKind::Type };
                        self.emit_type(idents[i], k, f, *o);
                    }
                }
                match last {
                    Some(TypeName::Class(f, _)) => Some(Ty::Class(f.into(), Vec::new())),
                    Some(TypeName::Var(n, b)) => Some(Ty::Var(n, Box::new(b))),
                    None => {
                        let name = segs.join(".");
                        if let Some(last) = idents.last()
                            && per.iter().all(|p| p.is_none())
                        {
                            self.emit_type(*last, kind, &name, Origin::Unresolved);
                        }
                        Some(Ty::Class(name.into(), Vec::new()))
                    }
                }
            }
            "generic_type" => {
                let mut base = None;
                let mut args = Vec::new();
                let mut c = n.walk();
                for k in n.named_children(&mut c) {
                    match k.kind() {
                        "type_arguments" => {
                            let mut c2 = k.walk();
                            for a in k.named_children(&mut c2) {
                                args.push(self.type_ref(a, RefKind::Type).unwrap_or_else(Ty::object));
                            }
                        }
                        _ => base = self.type_ref(k, kind),
                    }
                }
                match base {
                    Some(Ty::Class(f, _)) => Some(Ty::Class(f, args)),
                    other => other,
                }
            }
            "array_type" => {
                let e = n.child_by_field_name("element").and_then(|e| self.type_ref(e, kind))?;
                let dims = n.child_by_field_name("dimensions").map(|d| crate::ty::count_dims(d, self.b)).unwrap_or(1);
                Some(array_of(e, dims))
            }
            "integral_type" | "floating_point_type" | "boolean_type" | "void_type" => {
                Some(Ty::Prim(self.text(n).trim().into()))
            }
            "wildcard" | "annotated_type" | "type_bound" | "type_list" | "catch_type" => {
                let mut last = None;
                let mut c = n.walk();
                for k in n.named_children(&mut c) {
                    if k.kind().ends_with("annotation") {
                        self.annotation(k);
                    } else {
                        last = self.type_ref(k, kind);
                    }
                }
                if n.kind() == "wildcard" && !self.text(n).contains("extends") { Some(Ty::object()) } else { last }
            }
            "annotation" | "marker_annotation" => {
                self.annotation(n);
                None
            }
            _ => None,
        }
    }

    // ---- expressions --------------------------------------------------------------------

    fn args(&mut self, args: Node) -> Vec<Option<Ty>> {
        let mut c = args.walk();
        let kids: Vec<Node> = args.named_children(&mut c).collect();
        kids.into_iter().filter(|k| !k.kind().ends_with("comment")).map(|k| self.expr(k).ty()).collect()
    }

    fn expr(&mut self, n: Node) -> Val {
        if self.depth >= MAX_DEPTH {
            return Val::Expr(None);
        }
        self.depth += 1;
        let v = stacker::maybe_grow(128 * 1024, 4 * 1024 * 1024, || self.expr_inner(n));
        self.depth -= 1;
        v
    }

    fn expr_inner(&mut self, n: Node) -> Val {
        match n.kind() {
            "identifier" => self.name(n),
            "parenthesized_expression" => {
                let mut c = n.walk();
                let inner = n.named_children(&mut c).next();
                inner.map(|i| Val::Expr(self.expr(i).ty())).unwrap_or(Val::Expr(None))
            }
            "string_literal" | "text_block" => Val::Expr(Some(Ty::class(STRING))),
            "character_literal" => Val::Expr(Some(Ty::Prim("char".into()))),
            "decimal_integer_literal" | "hex_integer_literal" | "octal_integer_literal" | "binary_integer_literal" => {
                let t = self.text(n);
                let p = if t.ends_with('l') || t.ends_with('L') { "long" } else { "int" };
                Val::Expr(Some(Ty::Prim(p.into())))
            }
            "decimal_floating_point_literal" | "hex_floating_point_literal" => {
                let t = self.text(n);
                let p = if t.ends_with('f') || t.ends_with('F') { "float" } else { "double" };
                Val::Expr(Some(Ty::Prim(p.into())))
            }
            "true" | "false" => Val::Expr(Some(Ty::Prim("boolean".into()))),
            "null_literal" => Val::Expr(Some(Ty::Null)),
            "this" => Val::Expr(self.frames.last().and_then(|f| f.this.clone())),
            "super" => {
                let t = self.frames.last().and_then(|f| f.type_id).and_then(|id| self.w.supers(id).first().cloned());
                Val::Expr(t)
            }
            "class_literal" => {
                let mut c = n.walk();
                if let Some(t) = n.named_children(&mut c).next() {
                    if is_type_node(t.kind()) {
                        self.type_ref(t, RefKind::Type);
                    } else {
                        self.expr(t);
                    }
                }
                Val::Expr(Some(Ty::class("java.lang.Class")))
            }
            "field_access" => self.field_access(n),
            "method_invocation" => Val::Expr(self.call(n)),
            "object_creation_expression" => Val::Expr(self.new_object(n)),
            "array_creation_expression" => {
                let t = n.child_by_field_name("type").and_then(|t| self.type_ref(t, RefKind::New));
                let mut dims = 0u8;
                let mut c = n.walk();
                for k in n.named_children(&mut c) {
                    match k.kind() {
                        "dimensions_expr" => {
                            dims += 1;
                            self.generic(k);
                        }
                        "dimensions" => dims += crate::ty::count_dims(k, self.b),
                        "array_initializer" => {
                            self.generic(k);
                        }
                        _ => {}
                    }
                }
                Val::Expr(t.map(|t| array_of(t, dims.max(1))))
            }
            "array_initializer" => {
                self.generic(n);
                Val::Expr(None)
            }
            "cast_expression" => {
                let mut t = None;
                let mut c = n.walk();
                for k in n.children_by_field_name("type", &mut c) {
                    let ty = self.type_ref(k, RefKind::Type);
                    t = t.or(ty);
                }
                if let Some(v) = n.child_by_field_name("value") {
                    self.expr(v);
                }
                Val::Expr(t)
            }
            "instanceof_expression" => {
                if let Some(l) = n.child_by_field_name("left") {
                    self.expr(l);
                }
                let t = n.child_by_field_name("right").and_then(|r| self.type_ref(r, RefKind::Type));
                if let Some(name) = n.child_by_field_name("name") {
                    self.scopes.push((self.text(name).into(), t));
                }
                if let Some(p) = n.child_by_field_name("pattern") {
                    self.pattern(p);
                }
                Val::Expr(Some(Ty::Prim("boolean".into())))
            }
            "binary_expression" => {
                let l = n.child_by_field_name("left").and_then(|x| self.expr(x).ty());
                let r = n.child_by_field_name("right").and_then(|x| self.expr(x).ty());
                let op = n.child_by_field_name("operator").map(|o| self.text(o)).unwrap_or("");
                Val::Expr(binary_type(op, l, r))
            }
            "unary_expression" => {
                let t = n.child_by_field_name("operand").and_then(|x| self.expr(x).ty());
                let op = n.child_by_field_name("operator").map(|o| self.text(o)).unwrap_or("");
                Val::Expr(if op == "!" { Some(Ty::Prim("boolean".into())) } else { t.map(unbox) })
            }
            "update_expression" => {
                let mut c = n.walk();
                let operand = n.named_children(&mut c).next();
                Val::Expr(operand.and_then(|o| self.lvalue(o)))
            }
            "assignment_expression" => {
                let t = n.child_by_field_name("left").and_then(|l| self.lvalue(l));
                if let Some(r) = n.child_by_field_name("right") {
                    self.expr(r);
                }
                Val::Expr(t)
            }
            "ternary_expression" => {
                if let Some(c) = n.child_by_field_name("condition") {
                    self.expr(c);
                }
                let a = n.child_by_field_name("consequence").and_then(|x| self.expr(x).ty());
                let b = n.child_by_field_name("alternative").and_then(|x| self.expr(x).ty());
                Val::Expr(match (a, b) {
                    (Some(Ty::Null), b) => b,
                    (a, Some(Ty::Null)) => a,
                    (Some(a), _) => Some(a),
                    (None, b) => b,
                })
            }
            "array_access" => {
                let t = n.child_by_field_name("array").and_then(|a| self.expr(a).ty());
                if let Some(i) = n.child_by_field_name("index") {
                    self.expr(i);
                }
                Val::Expr(match t {
                    Some(Ty::Array(e)) => Some(*e),
                    _ => None,
                })
            }
            "lambda_expression" => {
                let mark = self.scopes.len();
                if let Some(ps) = n.child_by_field_name("parameters") {
                    match ps.kind() {
                        "identifier" => self.scopes.push((self.text(ps).into(), None)),
                        "formal_parameters" => self.params(ps, true),
                        _ => {
                            let mut c = ps.walk();
                            for p in ps.named_children(&mut c) {
                                if p.kind() == "identifier" {
                                    self.scopes.push((self.text(p).into(), None));
                                }
                            }
                        }
                    }
                }
                if let Some(body) = n.child_by_field_name("body") {
                    if body.kind() == "block" {
                        self.block_like(body);
                    } else {
                        self.expr(body);
                    }
                }
                self.scopes.truncate(mark);
                Val::Expr(None)
            }
            "method_reference" => {
                self.method_reference(n);
                Val::Expr(None)
            }
            "switch_expression" => Val::Expr(self.switch(n)),
            _ => {
                self.generic(n);
                Val::Expr(None)
            }
        }
    }

    fn pattern(&mut self, p: Node) {
        let mut c = p.walk();
        for k in p.named_children(&mut c) {
            match k.kind() {
                "type_pattern" | "record_pattern" | "record_pattern_body" | "record_pattern_component" => {
                    self.pattern(k)
                }
                // A record pattern's type is an identifier to the grammar (a qualified one
                // joined by `Prepared`); elsewhere an identifier here is a binding's name.
                "identifier" if p.kind() == "record_pattern" => self.record_pattern_type(k),
                t if is_type_node(t) => {
                    let ty = self.type_ref(k, RefKind::Type);
                    if let Some(name) = k.next_named_sibling().filter(|s| s.kind() == "identifier") {
                        self.scopes.push((self.text(name).into(), ty));
                    }
                }
                _ => {}
            }
        }
    }

    /// The type of a record pattern, `Point(..)` or `Outer.Point(..)`, as a type reference.
    fn record_pattern_type(&mut self, k: Node) {
        let Some(segs) = self.prep.joined_segments(k.start_byte()).map(|s| s.to_vec()) else {
            self.type_ref(k, RefKind::Type);
            return;
        };
        let b = self.b;
        let names: Vec<&str> = segs.iter().map(|&(a, e)| std::str::from_utf8(&b[a..e]).unwrap_or("")).collect();
        let (per, _) = self.w.resolve_type_segments(&names, self.ctx());
        if per.iter().all(|p| p.is_none()) {
            if let Some(&(a, _)) = segs.last() {
                self.emit_at(a, RefKind::Type, Category::Type, vec![names.join(".")], Confidence::Likely);
            }
            return;
        }
        for (t, &(a, _)) in per.iter().zip(&segs) {
            if let Some(TypeName::Class(f, o)) = t {
                let conf = if *o == Origin::Unresolved { Confidence::Likely } else { Confidence::Exact };
                self.emit_at(a, RefKind::Type, Category::Type, vec![f.to_string()], conf);
            }
        }
    }

    /// The target of an assignment or `++`: a field write when it is a field.
    fn lvalue(&mut self, n: Node) -> Option<Ty> {
        let before = self.out.len();
        let t = self.expr(n).ty();
        // The last reference emitted for the target itself is the written one.
        if matches!(n.kind(), "identifier" | "field_access")
            && let Some(r) = self.out[before..].iter_mut().rev().find(|r| r.category == Category::Field)
        {
            r.kind = RefKind::FieldWrite;
        }
        t
    }

    /// A simple name in an expression: a variable, then a field, then a type, then a package.
    fn name(&mut self, n: Node) -> Val {
        let name = self.text(n);
        if let Some((_, t)) = self.scopes.iter().rev().find(|(k, _)| &**k == name) {
            return Val::Expr(t.clone());
        }
        let mut unknown = false;
        for i in (0..self.frames.len()).rev() {
            let Some(this) = self.frames[i].this.clone() else { continue };
            match self.w.find_field(&this, name) {
                Lookup::Found(f) => return Val::Expr(self.field_hit(n, &f, Confidence::Exact)),
                Lookup::Unknown => unknown = true,
                Lookup::Absent => {}
            }
        }
        // Static imports.
        if let Some(f) = self.static_import_field(name) {
            return Val::Expr(self.field_hit(n, &f, Confidence::Exact));
        }
        let ctx = self.ctx().clone();
        if let Some(t) = self.w.resolve_simple_type(name, &ctx) {
            return match t {
                TypeName::Class(f, o) => {
                    self.emit_type(n, RefKind::Type, &f, o);
                    Val::Type(Ty::Class(f.into(), Vec::new()))
                }
                TypeName::Var(v, b) => Val::Type(Ty::Var(v, Box::new(b))),
            };
        }
        if unknown || !self.w.is_package(name) && !name.chars().next().is_some_and(|c| c.is_lowercase()) {
            return Val::Expr(None);
        }
        Val::Package(name.to_string())
    }

    /// The owner types (qualified) that static imports of `name` name: single-member imports
    /// (`pass` false) or on-demand ones (`pass` true), in javac's order.
    fn static_import_owners(&self, name: &str, on_demand: bool) -> Vec<String> {
        let Some(file) = self.w.files.get(self.ctx().file as usize) else { return Vec::new() };
        file.decls
            .imports
            .iter()
            .filter(|i| i.is_static && i.on_demand == on_demand)
            .filter_map(|imp| {
                let owner = if on_demand {
                    &*imp.path
                } else {
                    imp.path.rsplit_once('.').filter(|(_, n)| *n == name).map(|(o, _)| o)?
                };
                match self.w.resolve_qualified(owner) {
                    Some(TypeName::Class(f, _)) => Some(f),
                    _ => None,
                }
            })
            .collect()
    }

    fn static_import_field(&self, name: &str) -> Option<Found<'w, crate::decls::FieldDecl>> {
        for on_demand in [false, true] {
            for owner in self.static_import_owners(name, on_demand) {
                if let Lookup::Found(fd) = self.w.find_field(&Ty::class(&owner), name) {
                    return Some(fd);
                }
            }
        }
        None
    }

    fn field_hit(&mut self, at: Node, f: &Found<'w, crate::decls::FieldDecl>, conf: Confidence) -> Option<Ty> {
        let key = self.w.field_key(f.owner, f.decl);
        self.emit(at, RefKind::FieldRead, Category::Field, vec![key], conf);
        let ctx = self.w.ctx_ref(f.owner);
        self.w.resolve_text(&f.decl.ty, &ctx).map(|t| substitute(&t, &f.subst))
    }

    fn field_access(&mut self, n: Node) -> Val {
        let Some(obj) = n.child_by_field_name("object") else { return Val::Expr(None) };
        let Some(field) = n.child_by_field_name("field") else { return Val::Expr(None) };
        let name = self.text(field);
        let recv = self.expr(obj);
        match recv {
            Val::Package(p) => {
                let fqn = format!("{p}.{name}");
                if let Some(id) = self.w.by_fqn(&fqn) {
                    self.emit_type(field, RefKind::Type, &fqn, self.w.origin_of(id));
                    Val::Type(Ty::Class(fqn.into(), Vec::new()))
                } else if self.w.jdk.has(&p, name) {
                    self.emit_type(field, RefKind::Type, &fqn, Origin::Jdk);
                    Val::Type(Ty::Class(fqn.into(), Vec::new()))
                } else if !self.w.is_package(&fqn) && starts_upper(name) {
                    self.emit_type(field, RefKind::Type, &fqn, Origin::Library);
                    Val::Type(Ty::Class(fqn.into(), Vec::new()))
                } else {
                    Val::Package(fqn)
                }
            }
            Val::Type(t) => {
                // A static field, or a member type.
                match self.w.find_field(&t, name) {
                    Lookup::Found(f) => return Val::Expr(self.field_hit(field, &f, Confidence::Exact)),
                    Lookup::Absent | Lookup::Unknown => {}
                }
                if name == "length" {
                    return Val::Expr(None);
                }
                if let Some((f, _)) = t.lookup_class() {
                    let origin = self.w.origin(f);
                    if let Some(TypeName::Class(m, o)) = self.w.member_type(f, origin, name)
                        && (self.w.by_fqn(&m).is_some() || (self.w.by_fqn(f).is_none() && looks_like_type(name)))
                    {
                        self.emit_type(field, RefKind::Type, &m, o);
                        return Val::Type(Ty::Class(m.into(), Vec::new()));
                    }
                }
                Val::Expr(None)
            }
            Val::Expr(Some(t)) => {
                if matches!(t, Ty::Array(_)) {
                    return Val::Expr(Some(Ty::Prim("int".into())));
                }
                match self.w.find_field(&t, name) {
                    Lookup::Found(f) => Val::Expr(self.field_hit(field, &f, Confidence::Exact)),
                    _ => Val::Expr(None),
                }
            }
            Val::Expr(None) => {
                self.guess_field(field, name);
                Val::Expr(None)
            }
        }
    }

    /// A field of a receiver of unknown type: every workspace field of that name, `likely`.
    fn guess_field(&mut self, at: Node, name: &str) {
        let owners = self.w.types_with_field(name);
        if owners.is_empty() || owners.len() > 8 || name == "length" {
            return;
        }
        let keys: Vec<String> = owners.iter().map(|o| format!("{}#{name}", self.w.decl(*o).fqn)).collect();
        self.emit(at, RefKind::FieldRead, Category::Field, keys, Confidence::Likely);
    }

    fn call(&mut self, n: Node) -> Option<Ty> {
        let name_node = n.child_by_field_name("name")?;
        let name = self.text(name_node);
        let recv = n.child_by_field_name("object").map(|o| self.expr(o));
        if let Some(ta) = n.child_by_field_name("type_arguments") {
            self.generic(ta);
        }
        let args = n.child_by_field_name("arguments").map(|a| self.args(a)).unwrap_or_default();
        match recv {
            None => {
                // Enclosing classes, innermost first: the first with a member of that name.
                let mut unknown = false;
                for i in (0..self.frames.len()).rev() {
                    let Some(this) = self.frames[i].this.clone() else { continue };
                    let (ms, complete) = self.w.find_methods(&this, name);
                    if !ms.is_empty() {
                        return self.pick(name_node, ms, &args, complete);
                    }
                    unknown |= !complete;
                }
                let ms = self.static_import_methods(name);
                if !ms.is_empty() {
                    return self.pick(name_node, ms, &args, true);
                }
                if unknown {
                    return None;
                }
                None
            }
            Some(Val::Type(t)) | Some(Val::Expr(Some(t))) => {
                if matches!(t, Ty::Array(_)) {
                    return None;
                }
                let (ms, complete) = self.w.find_methods(&t, name);
                if ms.is_empty() {
                    return self.jdk_call_type(&t, name, args.len());
                }
                self.pick(name_node, ms, &args, complete)
            }
            Some(Val::Expr(None)) => {
                self.guess_method(name_node, name, args.len());
                None
            }
            Some(Val::Package(_)) => None,
        }
    }

    /// The result type of a call of a method of `Object` on a type whose declarations are not
    /// known (a library type).
    fn jdk_call_type(&self, _t: &Ty, name: &str, _nargs: usize) -> Option<Ty> {
        match name {
            "toString" => Some(Ty::class(STRING)),
            "hashCode" => Some(Ty::Prim("int".into())),
            "equals" => Some(Ty::Prim("boolean".into())),
            "getClass" => Some(Ty::class("java.lang.Class")),
            _ => None,
        }
    }

    /// A method of a receiver of unknown type: every workspace method of that name and arity.
    fn guess_method(&mut self, at: Node, name: &str, arity: usize) {
        if is_object_method(name) {
            return;
        }
        let owners = self.w.types_with_method(name).to_vec();
        let mut keys = Vec::new();
        for o in owners {
            for m in self.w.decl(o).methods.iter().filter(|m| &*m.name == name && arity_ok(m, arity)) {
                keys.push(self.w.method_key(o, m));
            }
        }
        if keys.is_empty() || keys.len() > 8 {
            return;
        }
        self.emit(at, RefKind::Call, Category::Method, keys, Confidence::Likely);
    }

    fn static_import_methods(&self, name: &str) -> Vec<Found<'w, MethodDecl>> {
        for on_demand in [false, true] {
            let out: Vec<Found<'w, MethodDecl>> = self
                .static_import_owners(name, on_demand)
                .into_iter()
                .flat_map(|owner| self.w.find_methods(&Ty::class(&owner), name).0)
                .filter(|m| m.decl.is_static)
                .collect();
            if !out.is_empty() {
                return out;
            }
        }
        Vec::new()
    }

    /// Overload resolution among `cands`; emits the reference and returns the result type.
    fn pick(&mut self, at: Node, cands: Vec<Found<'w, MethodDecl>>, args: &[Option<Ty>], complete: bool) -> Option<Ty> {
        let (chosen, exact) = self.select(&cands, args);
        if chosen.is_empty() {
            return None;
        }
        let keys: Vec<String> = chosen.iter().map(|&i| self.w.method_key(cands[i].owner, cands[i].decl)).collect();
        let conf = if exact && complete && keys.len() == 1 { Confidence::Exact } else { Confidence::Likely };
        self.emit(at, RefKind::Call, Category::Method, keys, conf);
        if chosen.len() != 1 {
            return None;
        }
        let m = &cands[chosen[0]];
        let ctx = self.w.with_method_tparams(&self.w.ctx_ref(m.owner), &m.decl.tparams);
        let t = self.w.resolve_text(&m.decl.ret, &ctx)?;
        Some(substitute(&t, &m.subst))
    }

    /// Indexes of the candidates javac would choose from (one when it can be known), and
    /// whether the choice is certain.
    fn select(&self, cands: &[Found<'w, MethodDecl>], args: &[Option<Ty>]) -> (Vec<usize>, bool) {
        let n = args.len();
        let params: Vec<Vec<Option<Ty>>> = cands
            .iter()
            .map(|c| {
                self.w
                    .method_params(c.owner, c.decl)
                    .iter()
                    .map(|p| {
                        p.as_ref().map(|t| match substitute(t, &c.subst) {
                            Ty::Var(_, b) => *b,
                            other => other,
                        })
                    })
                    .collect()
            })
            .collect();
        let by_arity: Vec<usize> = (0..cands.len()).filter(|&i| arity_ok(cands[i].decl, n)).collect();
        if by_arity.len() <= 1 {
            return (by_arity, true);
        }
        for phase in 1..=3 {
            let mut yes = Vec::new();
            let mut maybe = Vec::new();
            for &i in &by_arity {
                let c = cands[i].decl;
                let ps = &params[i];
                if phase < 3 && ps.len() != n {
                    continue;
                }
                if phase == 3 && !c.varargs {
                    continue;
                }
                let mut status = Some(true);
                for (j, a) in args.iter().enumerate() {
                    let p = if phase == 3 && j + 1 >= ps.len() {
                        match ps.last().cloned().flatten() {
                            Some(Ty::Array(e))
                                if !(n == ps.len() && matches!(a, Some(Ty::Array(_)) | Some(Ty::Null))) =>
                            {
                                Some(*e)
                            }
                            other => other,
                        }
                    } else {
                        ps.get(j).cloned().flatten()
                    };
                    let s = match (a, p) {
                        (Some(a), Some(p)) => self.w.assignable(a, &p, phase >= 2),
                        _ => None,
                    };
                    status = match (status, s) {
                        (_, Some(false)) | (Some(false), _) => Some(false),
                        (Some(true), Some(true)) => Some(true),
                        _ => None,
                    };
                }
                match status {
                    Some(true) => yes.push(i),
                    None => maybe.push(i),
                    Some(false) => {}
                }
            }
            if yes.is_empty() && maybe.is_empty() {
                continue;
            }
            if maybe.is_empty() {
                let best = self.most_specific(&yes, &params);
                let exact = best.len() == 1;
                return (best, exact);
            }
            let mut all = yes;
            all.extend(maybe);
            let best = self.most_specific(&all, &params);
            return (guess_overload(best, args, &params), false);
        }
        (by_arity, false)
    }

    fn most_specific(&self, set: &[usize], params: &[Vec<Option<Ty>>]) -> Vec<usize> {
        let more_specific = |a: usize, b: usize| -> bool {
            let (pa, pb) = (&params[a], &params[b]);
            pa.len() == pb.len()
                && pa.iter().zip(pb).all(|(x, y)| match (x, y) {
                    (Some(x), Some(y)) => self.w.is_subtype(x, y) == Some(true),
                    _ => false,
                })
        };
        let best: Vec<usize> = set
            .iter()
            .copied()
            .filter(|&a| set.iter().all(|&b| a == b || more_specific(a, b) || !more_specific(b, a)))
            .collect();
        // Keep only the maximally specific ones.
        let max: Vec<usize> = best
            .iter()
            .copied()
            .filter(|&a| best.iter().all(|&b| a == b || !more_specific(b, a) || more_specific(a, b)))
            .collect();
        if max.is_empty() { set.to_vec() } else { max }
    }

    fn ctor_ref(&mut self, at: Node, t: &Ty, args: &[Option<Ty>], kind: RefKind) {
        let Some((fqn, targs)) = t.lookup_class() else { return };
        let Some(id) = self.w.by_fqn(fqn) else { return };
        let subst: Vec<(Box<str>, Ty)> = {
            let d = self.w.decl(id);
            if d.tparams.len() == targs.len() {
                d.tparams.iter().zip(targs).map(|(p, a)| (p.name.clone(), a.clone())).collect()
            } else {
                Vec::new()
            }
        };
        let cands: Vec<Found<'w, MethodDecl>> =
            self.w.decl(id).ctors.iter().map(|c| Found { owner: id, decl: c, subst: subst.clone() }).collect();
        let (chosen, exact) = self.select(&cands, args);
        let keys: Vec<String> = chosen.iter().map(|&i| self.w.method_key(id, cands[i].decl)).collect();
        let conf = if exact && keys.len() == 1 { Confidence::Exact } else { Confidence::Likely };
        self.emit(at, kind, Category::Ctor, keys, conf);
    }

    fn new_object(&mut self, n: Node) -> Option<Ty> {
        let outer = n.child_by_field_name("object").or_else(|| {
            let mut c = n.walk();
            n.named_children(&mut c).find(|k| is_expression(k.kind()) && k.kind() != "argument_list")
        });
        let outer_ty = outer.and_then(|o| self.expr(o).ty());
        let tnode = n.child_by_field_name("type")?;
        if let Some(ta) = n.child_by_field_name("type_arguments") {
            self.generic(ta);
        }
        let t = match (&outer_ty, tnode.kind()) {
            (Some(ot), "type_identifier") => {
                // `outer.new Inner()`: Inner is a member of outer's type.
                let name = self.text(tnode);
                match ot.lookup_class().and_then(|(f, _)| self.w.member_type(f, self.w.origin(f), name)) {
                    Some(TypeName::Class(f, o)) => {
                        self.emit_type(tnode, RefKind::New, &f, o);
                        Some(Ty::Class(f.into(), Vec::new()))
                    }
                    _ => self.type_ref(tnode, RefKind::New),
                }
            }
            _ => self.type_ref(tnode, RefKind::New),
        };
        let args = n.child_by_field_name("arguments").map(|a| self.args(a)).unwrap_or_default();
        let body = {
            let mut c = n.walk();
            n.named_children(&mut c).find(|k| k.kind() == "class_body")
        };
        let name_node = last_identifier(tnode).unwrap_or(tnode);
        if let Some(t) = &t {
            let is_interface = t
                .lookup_class()
                .and_then(|(f, _)| self.w.by_fqn(f))
                .is_some_and(|id| matches!(self.w.decl(id).kind, mji_model::TypeKind::Interface));
            if !is_interface {
                self.ctor_ref(name_node, t, &args, RefKind::New);
            }
        }
        if let Some(body) = body {
            let ctx = self.ctx().clone();
            let saved = self.scopes.clone();
            self.frames.push(Frame { ctx, this: t.clone(), type_id: None });
            self.class_body(body);
            self.frames.pop();
            self.scopes = saved;
        }
        t
    }

    fn method_reference(&mut self, n: Node) {
        let mut c = n.walk();
        let kids: Vec<Node> = n.children(&mut c).collect();
        let Some(first) = kids.first().copied() else { return };
        let recv = if is_type_node(first.kind()) && first.kind() != "type_identifier" {
            self.type_ref(first, RefKind::Type).map(Val::Type).unwrap_or(Val::Expr(None))
        } else {
            self.expr(first)
        };
        let Some(last) = kids.last().copied() else { return };
        if last.kind() == "new" {
            if let Val::Type(t) = recv
                && let Some((f, _)) = t.lookup_class()
                && let Some(id) = self.w.by_fqn(f)
            {
                let keys: Vec<String> = self.w.decl(id).ctors.iter().map(|m| self.w.method_key(id, m)).collect();
                let conf = if keys.len() == 1 { Confidence::Exact } else { Confidence::Likely };
                self.emit(last, RefKind::MethodRef, Category::Ctor, keys, conf);
            }
            return;
        }
        if last.kind() != "identifier" {
            return;
        }
        let name = self.text(last);
        match recv {
            Val::Type(t) | Val::Expr(Some(t)) => {
                let (ms, complete) = self.w.find_methods(&t, name);
                if ms.is_empty() {
                    return;
                }
                let keys: Vec<String> = ms.iter().map(|m| self.w.method_key(m.owner, m.decl)).collect();
                let conf = if keys.len() == 1 && complete { Confidence::Exact } else { Confidence::Likely };
                self.emit(last, RefKind::MethodRef, Category::Method, keys, conf);
            }
            Val::Expr(None) => {
                let owners = self.w.types_with_method(name).to_vec();
                let keys: Vec<String> = owners
                    .iter()
                    .flat_map(|o| {
                        self.w.decl(*o).methods.iter().filter(|m| &*m.name == name).map(|m| self.w.method_key(*o, m))
                    })
                    .collect();
                if !keys.is_empty() && keys.len() <= 8 {
                    self.emit(last, RefKind::MethodRef, Category::Method, keys, Confidence::Likely);
                }
            }
            Val::Package(_) => {}
        }
    }
}

/// Among overloads that differ where an argument's type is unknown, the one taking `Object`:
/// what cannot be typed here is mostly a JDK call's result, a reference. One guess, `likely`.
fn guess_overload(best: Vec<usize>, args: &[Option<Ty>], params: &[Vec<Option<Ty>>]) -> Vec<usize> {
    if best.len() < 2 {
        return best;
    }
    let score = |i: usize| -> i32 {
        args.iter()
            .enumerate()
            .filter(|(_, a)| a.is_none())
            .map(|(j, _)| match params[i].get(j).cloned().flatten() {
                Some(Ty::Class(f, _)) if &*f == crate::ty::OBJECT => 3,
                Some(Ty::Class(..)) | Some(Ty::Var(..)) => 2,
                Some(Ty::Array(_)) => 1,
                _ => 0,
            })
            .sum()
    };
    let top = best.iter().map(|&i| score(i)).max().unwrap_or(0);
    let winners: Vec<usize> = best.iter().copied().filter(|&i| score(i) == top).collect();
    if winners.len() == 1 { winners } else { best }
}

/// `Entry` looks like a type; `PI`, `MAX_VALUE` and `out` look like fields.
fn looks_like_type(name: &str) -> bool {
    starts_upper(name) && name.chars().any(|c| c.is_lowercase())
}

/// Methods every object has: a call on an unknown receiver is not guessed to be a workspace one.
fn is_object_method(name: &str) -> bool {
    matches!(
        name,
        "toString" | "equals" | "hashCode" | "getClass" | "clone" | "finalize" | "notify" | "notifyAll" | "wait"
    )
}

fn arity_ok(m: &MethodDecl, n: usize) -> bool {
    if m.varargs { n + 1 >= m.params.len() } else { m.params.len() == n }
}

fn array_of(t: Ty, dims: u8) -> Ty {
    let mut t = t;
    for _ in 0..dims {
        t = Ty::Array(Box::new(t));
    }
    t
}

fn unbox(t: Ty) -> Ty {
    match &t {
        Ty::Class(f, _) => unboxed(f).map(|p| Ty::Prim(p.into())).unwrap_or(t),
        _ => t,
    }
}

fn binary_type(op: &str, l: Option<Ty>, r: Option<Ty>) -> Option<Ty> {
    match op {
        "==" | "!=" | "<" | ">" | "<=" | ">=" | "&&" | "||" => Some(Ty::Prim("boolean".into())),
        "+" if [&l, &r].iter().any(|t| matches!(t, Some(Ty::Class(f, _)) if &**f == STRING)) => Some(Ty::class(STRING)),
        "<<" | ">>" | ">>>" => l.map(unbox).map(|t| match t {
            Ty::Prim(p) if matches!(&*p, "byte" | "short" | "char") => Ty::Prim("int".into()),
            t => t,
        }),
        _ => match (l.map(unbox), r.map(unbox)) {
            (Some(Ty::Prim(a)), Some(Ty::Prim(b))) => {
                if &*a == "boolean" && &*b == "boolean" {
                    Some(Ty::Prim("boolean".into()))
                } else {
                    Some(Ty::Prim(promote(&a, &b).into()))
                }
            }
            _ => None,
        },
    }
}

/// The identifier leaves of a (scoped) name, in order.
fn leaf_identifiers<'t>(n: Node<'t>, out: &mut Vec<Node<'t>>) {
    match n.kind() {
        "identifier" | "type_identifier" => out.push(n),
        _ => {
            let mut c = n.walk();
            for k in n.named_children(&mut c) {
                if !k.kind().ends_with("annotation") {
                    leaf_identifiers(k, out);
                }
            }
        }
    }
}

fn last_identifier(n: Node) -> Option<Node> {
    let mut v = Vec::new();
    let base = if n.kind() == "generic_type" {
        let mut c = n.walk();
        n.named_children(&mut c).find(|k| k.kind() != "type_arguments")?
    } else {
        n
    };
    leaf_identifiers(base, &mut v);
    v.pop()
}

/// Keeps only the parameter-type text of a method declaration node (for tests).
pub fn method_param_texts(n: Node, b: &[u8]) -> Vec<TyText> {
    params_of(n.child_by_field_name("parameters"), b).0
}
