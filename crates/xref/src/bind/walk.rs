//! The walk over a file's declarations: package, imports, annotations, type declarations with
//! their headers (type parameters, supertypes, permits), members and method signatures.

use super::{Frame, MAX_DEPTH, Resolver, leaf_identifiers};
use crate::decls::{import_of, is_type_decl, tparams_of};
use crate::ty::Ty;
use crate::world::{Ctx, Lookup, TypeName};
use crate::{Caller, CallerKind, Category, Confidence, RefKind, WITHIN_CLASS};
use mji_parser::kind;
use std::sync::Arc;
use tree_sitter::Node;

impl<'w, 's> Resolver<'w, 's> {
    pub(super) fn program(&mut self, root: Node) {
        let mut c = root.walk();
        for n in root.named_children(&mut c) {
            match n.kind() {
                kind::PACKAGE_DECLARATION => {
                    if let Some(p) = crate::decls::package_name(n, self.b) {
                        self.package = p;
                    }
                    self.annotations_in(n);
                }
                kind::IMPORT_DECLARATION => self.import(n),
                k if is_type_decl(k) => self.type_decl(n),
                _ => {}
            }
        }
    }

    pub(super) fn import(&mut self, n: Node) {
        let imp = import_of(n, self.b);
        let mut c = n.walk();
        let Some(id) =
            n.named_children(&mut c).find(|k| matches!(k.kind(), kind::IDENTIFIER | kind::SCOPED_IDENTIFIER))
        else {
            return;
        };
        let mut idents = Vec::new();
        leaf_identifiers(id, &mut idents);
        let segs: Vec<&str> = idents.iter().map(|x| self.text(*x)).collect();
        // The type part of the path.
        let type_segs = if imp.is_static && !imp.on_demand { segs.len().saturating_sub(1) } else { segs.len() };
        let ctx = Ctx { file: u32::MAX, types: Vec::new(), tvars: Vec::new(), more_bounds: Vec::new() };
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

    pub(super) fn annotations_in(&mut self, n: Node) {
        let mut c = n.walk();
        for k in n.named_children(&mut c) {
            match k.kind() {
                kind::MODIFIERS => self.annotations_in(k),
                kind::ANNOTATION | kind::MARKER_ANNOTATION => self.annotation(k),
                _ => {}
            }
        }
    }

    pub(super) fn annotation(&mut self, n: Node) {
        let Some(name) = n.child_by_field_name("name") else { return };
        let ty = self.type_ref(name, RefKind::Annotation);
        if let Some(args) = n.child_by_field_name("arguments") {
            let mut c = args.walk();
            for a in args.named_children(&mut c) {
                if a.kind() == kind::ELEMENT_VALUE_PAIR {
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

    pub(super) fn element_value(&mut self, v: Node) {
        match v.kind() {
            kind::ANNOTATION | kind::MARKER_ANNOTATION => self.annotation(v),
            kind::ELEMENT_VALUE_ARRAY_INITIALIZER => {
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
    pub(super) fn type_decl(&mut self, n: Node) {
        if self.depth >= MAX_DEPTH {
            self.note_cut(n);
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
        if local {
            self.local_types.push(name.into());
        }
        self.annotations_in(n);
        let mut header_ctx = self.ctx().clone();
        let tps = tparams_of(n.child_by_field_name("type_parameters"), self.b);
        header_ctx = self.w.with_method_tparams(&header_ctx, &tps);
        self.frames.push(Frame { ctx: header_ctx, this: None, type_id: None, own: Vec::new(), also: Vec::new() });
        if let Some(tp) = n.child_by_field_name("type_parameters") {
            self.type_params(tp);
        }
        let mut this = id.map(|i| Ty::Class(self.w.decl(i).fqn.clone(), Vec::new()));
        let mut also = Vec::new();
        let mut c = n.walk();
        for k in n.children(&mut c) {
            match k.kind() {
                kind::SUPERCLASS => {
                    let tys = self.clause_types(k, RefKind::Extends);
                    if local && let Some(t) = tys.into_iter().last() {
                        this = t;
                    }
                }
                kind::PERMITS => {
                    self.clause_types(k, RefKind::Type);
                }
                kind::SUPER_INTERFACES | kind::EXTENDS_INTERFACES => {
                    let kind =
                        if k.kind() == kind::EXTENDS_INTERFACES { RefKind::Extends } else { RefKind::Implements };
                    let tys = self.clause_types(k, kind);
                    if local {
                        let mut tys = tys.into_iter();
                        if this.is_none() {
                            this = tys.next().flatten();
                        }
                        also.extend(tys);
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
        // A local class's members are its enclosing member's, as callers.
        let within = self.within;
        if local {
            self.within |= WITHIN_CLASS;
        }
        let own = match n.child_by_field_name("body") {
            Some(body) if local => super::own_methods(body, self.b),
            _ => Vec::new(),
        };
        self.frames.push(Frame { ctx, this, type_id: id, own, also });
        if local && let Some(body) = n.child_by_field_name("body") {
            self.body_fields(body);
        }
        if n.kind() == kind::RECORD_DECLARATION
            && let Some(ps) = n.child_by_field_name("parameters")
        {
            self.params(ps, false);
        }
        if let Some(body) = n.child_by_field_name("body") {
            self.class_body(body);
        }
        self.frames.pop();
        self.scopes = saved;
        self.within = within;
    }

    /// The types of an `extends`/`implements`/`permits` clause (its type list flattened), with
    /// their references emitted.
    pub(super) fn clause_types(&mut self, clause: Node, kind: RefKind) -> Vec<Option<Ty>> {
        let mut out = Vec::new();
        let mut c = clause.walk();
        for k in clause.named_children(&mut c) {
            if k.kind() == kind::TYPE_LIST {
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

    pub(super) fn type_params(&mut self, tp: Node) {
        let mut c = tp.walk();
        for p in tp.named_children(&mut c) {
            let mut c2 = p.walk();
            for k in p.named_children(&mut c2) {
                match k.kind() {
                    kind::TYPE_BOUND => {
                        let mut c3 = k.walk();
                        for t in k.named_children(&mut c3) {
                            self.type_ref(t, RefKind::Type);
                        }
                    }
                    kind::ANNOTATION | kind::MARKER_ANNOTATION => self.annotation(k),
                    _ => {}
                }
            }
        }
    }

    pub(super) fn class_body(&mut self, body: Node) {
        let mut c = body.walk();
        for m in body.named_children(&mut c) {
            self.member(m);
        }
    }

    /// A member of a class body; a member of a named type is the caller of what it holds.
    pub(super) fn member(&mut self, m: Node) {
        let saved = self.caller.clone();
        if let Some(c) = self.caller_of(m) {
            self.caller = Some(Arc::new(c));
        }
        self.member_inner(m);
        self.caller = saved;
    }

    /// The caller a member of the current frame's type is, when that type is a named one (an
    /// anonymous, local or enum constant's class leaves its enclosing member the caller).
    fn caller_of(&self, m: Node) -> Option<Caller> {
        let id = self.frames.last()?.type_id?;
        let d = self.w.decl(id);
        let init = |is_static: bool| {
            let (name, kind) =
                if is_static { ("<clinit>", CallerKind::StaticInit) } else { ("<init>", CallerKind::Init) };
            Caller { key: format!("{}#{name}", d.fqn), kind }
        };
        let interface = matches!(d.kind, mji_model::TypeKind::Interface | mji_model::TypeKind::Annotation);
        match m.kind() {
            kind::ENUM_CONSTANT | kind::STATIC_INITIALIZER => Some(init(true)),
            kind::BLOCK => Some(init(false)),
            kind::FIELD_DECLARATION | kind::CONSTANT_DECLARATION => {
                Some(init(interface || m.kind() == kind::CONSTANT_DECLARATION || super::overrides::is_static(m)))
            }
            kind::METHOD_DECLARATION | kind::CONSTRUCTOR_DECLARATION | kind::COMPACT_CONSTRUCTOR_DECLARATION => {
                let line = m.start_position().row as u32 + 1;
                let ctor = m.kind() != kind::METHOD_DECLARATION;
                let name = m.child_by_field_name("name").map(|x| self.text(x)).unwrap_or("");
                let list = if ctor { &d.ctors } else { &d.methods };
                let s = list.iter().find(|s| s.line == line && (ctor || &*s.name == name))?;
                let kind = if ctor { CallerKind::Constructor } else { CallerKind::Method };
                Some(Caller { key: self.w.method_key(id, s), kind })
            }
            _ => None,
        }
    }

    fn member_inner(&mut self, m: Node) {
        match m.kind() {
            kind::ENUM_BODY_DECLARATIONS => self.class_body(m),
            kind::ENUM_CONSTANT => {
                self.annotations_in(m);
                // The constant calls its enum's constructor.
                let args = m.child_by_field_name("arguments").map(|a| self.args(a)).unwrap_or_default();
                if let (Some(name), Some(this)) =
                    (m.child_by_field_name("name"), self.frames.last().and_then(|f| f.this.clone()))
                {
                    self.ctor_ref(name, &this, &args, RefKind::New, &[]);
                }
                if let Some(body) = m.child_by_field_name("body") {
                    let this = self.frames.last().and_then(|f| f.this.clone());
                    let ctx = self.ctx().clone();
                    let own = super::own_methods(body, self.b);
                    self.frames.push(Frame { ctx, this, type_id: None, own, also: Vec::new() });
                    let within = self.within;
                    self.within |= WITHIN_CLASS;
                    self.class_body(body);
                    self.within = within;
                    self.frames.pop();
                }
            }
            kind::FIELD_DECLARATION | kind::CONSTANT_DECLARATION => {
                self.annotations_in(m);
                let declared = m.child_by_field_name("type").and_then(|t| self.type_ref(t, RefKind::Type));
                let mut c = m.walk();
                for d in m.children_by_field_name("declarator", &mut c) {
                    if let Some(v) = d.child_by_field_name("value") {
                        self.expr_expecting(v, declared.as_ref());
                    }
                }
            }
            kind::METHOD_DECLARATION
            | kind::CONSTRUCTOR_DECLARATION
            | kind::COMPACT_CONSTRUCTOR_DECLARATION
            | kind::ANNOTATION_TYPE_ELEMENT_DECLARATION => self.method(m),
            kind::STATIC_INITIALIZER | kind::BLOCK => self.block_like(m),
            k if is_type_decl(k) => self.type_decl(m),
            _ => {}
        }
    }

    pub(super) fn method(&mut self, m: Node) {
        self.keyless_override(m);
        self.annotations_in(m);
        let tps = tparams_of(m.child_by_field_name("type_parameters"), self.b);
        let ctx = self.w.with_method_tparams(self.ctx(), &tps);
        let this = self.frames.last().and_then(|f| f.this.clone());
        let type_id = self.frames.last().and_then(|f| f.type_id);
        let own = self.frames.last().map(|f| f.own.clone()).unwrap_or_default();
        let also = self.frames.last().map(|f| f.also.clone()).unwrap_or_default();
        self.frames.push(Frame { ctx, this, type_id, own, also });
        let mark = self.scopes.len();
        if let Some(tp) = m.child_by_field_name("type_parameters") {
            self.type_params(tp);
        }
        let ret = m.child_by_field_name("type").and_then(|t| self.type_ref(t, RefKind::Type));
        self.returns.push(ret);
        if let Some(ps) = m.child_by_field_name("parameters") {
            self.params(ps, true);
        }
        if m.kind() == kind::COMPACT_CONSTRUCTOR_DECLARATION
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
                .map(|f| (f.name.as_str().into(), self.w.resolve_text(&f.ty, &ctx)))
                .collect();
            self.scopes.extend(comps);
        }
        let mut c = m.walk();
        for k in m.children(&mut c) {
            match k.kind() {
                kind::THROWS => {
                    let mut c2 = k.walk();
                    for t in k.named_children(&mut c2) {
                        self.type_ref(t, RefKind::Type);
                    }
                }
                kind::BLOCK | kind::CONSTRUCTOR_BODY => self.block_like(k),
                _ => {}
            }
        }
        if let Some(v) = m.child_by_field_name("value") {
            self.element_value(v);
        }
        self.returns.pop();
        self.scopes.truncate(mark);
        self.frames.pop();
    }
}
