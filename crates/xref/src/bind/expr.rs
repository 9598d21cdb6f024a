//! Expression typing: names, field accesses, receivers and call chains, literals, operators,
//! casts, lambdas, `new` and method references.

use super::methods::arity_ok;
use super::types::{array_of, looks_like_type};
use super::{Frame, MAX_DEPTH, Resolver, Val, is_expression, is_type_node, last_identifier};
use crate::decls::MethodSym;
use crate::ty::{STRING, Ty, TyText};
use crate::world::types::{binary_type, erased, is_object_method, unbox};
use crate::world::{Lookup, MemberHit, Origin, TypeName, starts_upper, substitute};
use crate::{Category, Confidence, RefKind};
use mji_parser::kind;
use tree_sitter::Node;

impl<'w, 's> Resolver<'w, 's> {
    pub(super) fn args(&mut self, args: Node) -> Vec<Option<Ty>> {
        let mut c = args.walk();
        let kids: Vec<Node> = args.named_children(&mut c).collect();
        kids.into_iter().filter(|k| !k.kind().ends_with("comment")).map(|k| self.expr(k).ty()).collect()
    }

    pub(super) fn expr(&mut self, n: Node) -> Val {
        if self.depth >= MAX_DEPTH {
            self.note_cut(n);
            return Val::Expr(None);
        }
        self.depth += 1;
        let v = stacker::maybe_grow(128 * 1024, 4 * 1024 * 1024, || self.expr_inner(n));
        self.depth -= 1;
        if self.probe == Some((n.start_byte(), n.end_byte()))
            && let Val::Expr(Some(t)) = &v
        {
            self.probed = Some(t.clone());
        }
        v
    }

    pub(super) fn expr_inner(&mut self, n: Node) -> Val {
        match n.kind() {
            kind::IDENTIFIER => self.name(n),
            kind::PARENTHESIZED_EXPRESSION => {
                let mut c = n.walk();
                let inner = n.named_children(&mut c).next();
                inner.map(|i| Val::Expr(self.expr(i).ty())).unwrap_or(Val::Expr(None))
            }
            // A text block too: tree-sitter-java parses one as a `string_literal`.
            kind::STRING_LITERAL => Val::Expr(Some(Ty::class(STRING))),
            kind::CHARACTER_LITERAL => Val::Expr(Some(Ty::Prim("char".into()))),
            kind::DECIMAL_INTEGER_LITERAL
            | kind::HEX_INTEGER_LITERAL
            | kind::OCTAL_INTEGER_LITERAL
            | kind::BINARY_INTEGER_LITERAL => {
                let t = self.text(n);
                let p = if t.ends_with('l') || t.ends_with('L') { "long" } else { "int" };
                Val::Expr(Some(Ty::Prim(p.into())))
            }
            kind::DECIMAL_FLOATING_POINT_LITERAL | kind::HEX_FLOATING_POINT_LITERAL => {
                let t = self.text(n);
                let p = if t.ends_with('f') || t.ends_with('F') { "float" } else { "double" };
                Val::Expr(Some(Ty::Prim(p.into())))
            }
            kind::TRUE | kind::FALSE => Val::Expr(Some(Ty::Prim("boolean".into()))),
            kind::NULL_LITERAL => Val::Expr(Some(Ty::Null)),
            kind::THIS => Val::Expr(self.frames.last().and_then(|f| f.this.clone())),
            kind::SUPER => {
                // The superclass: the one written, else `Object` (an enum's `Enum`, a record's
                // `Record`), never an interface a class without `extends` implements.
                if let Some(f) = self.frames.last()
                    && f.type_id.is_none()
                    && let Some(this) = f.this.clone()
                {
                    // An anonymous or local class: `this` is its superclass, or the interface
                    // it implements (whose `super` is `Object`).
                    let interface = this.lookup_class().and_then(|(f, _)| self.w.by_fqn(f)).map(|id| {
                        matches!(self.w.decl(id).kind, mji_model::TypeKind::Interface | mji_model::TypeKind::Annotation)
                    });
                    return Val::Expr(match interface {
                        Some(true) => Some(Ty::object()),
                        Some(false) => Some(this),
                        None => None,
                    });
                }
                let t = self.frames.last().and_then(|f| f.type_id).map(|id| {
                    let supers = self.w.supers(id);
                    let class = |t: &&Ty| {
                        t.lookup_class().and_then(|(f, _)| self.w.by_fqn(f)).is_some_and(|s| {
                            !matches!(
                                self.w.decl(s).kind,
                                mji_model::TypeKind::Interface | mji_model::TypeKind::Annotation
                            )
                        })
                    };
                    match self.w.decl(id).superclass {
                        Some(_) => supers.first().cloned(),
                        None => supers.iter().find(class).cloned().or_else(|| Some(Ty::object())),
                    }
                });
                Val::Expr(t.flatten())
            }
            kind::CLASS_LITERAL => {
                // `Foo.class` is a `Class<Foo>` (`int.class` a `Class<Integer>`), which a generic
                // method's `Class<T>` parameter infers its `T` from.
                let mut c = n.walk();
                let of = match n.named_children(&mut c).next() {
                    Some(t) if is_type_node(t.kind()) => self.type_ref(t, RefKind::Type),
                    Some(t) => match self.expr(t) {
                        Val::Type(t) => Some(t),
                        _ => None,
                    },
                    None => None,
                };
                let arg = match of {
                    Some(Ty::Prim(p)) => crate::ty::boxed(&p).map_or_else(|| Ty::class("java.lang.Void"), Ty::class),
                    Some(Ty::Class(f, _)) => Ty::Class(f, Vec::new()),
                    Some(t @ Ty::Array(_)) => t,
                    _ => return Val::Expr(Some(Ty::class("java.lang.Class"))),
                };
                Val::Expr(Some(Ty::Class("java.lang.Class".into(), vec![arg])))
            }
            kind::FIELD_ACCESS => self.field_access(n),
            kind::METHOD_INVOCATION => {
                let t = self.call(n);
                if t.is_none() && std::mem::take(&mut self.foreign_result) { Val::Foreign } else { Val::Expr(t) }
            }
            kind::OBJECT_CREATION_EXPRESSION => Val::Expr(self.new_object(n)),
            kind::ARRAY_CREATION_EXPRESSION => {
                let t = n.child_by_field_name("type").and_then(|t| self.type_ref(t, RefKind::Type));
                let mut dims = 0u8;
                let mut c = n.walk();
                for k in n.named_children(&mut c) {
                    match k.kind() {
                        kind::DIMENSIONS_EXPR => {
                            dims += 1;
                            self.generic(k);
                        }
                        kind::DIMENSIONS => dims += crate::ty::count_dims(k, self.b),
                        kind::ARRAY_INITIALIZER => {
                            self.generic(k);
                        }
                        _ => {}
                    }
                }
                Val::Expr(t.map(|t| array_of(t, dims.max(1))))
            }
            kind::ARRAY_INITIALIZER => {
                self.generic(n);
                Val::Expr(None)
            }
            kind::CAST_EXPRESSION => {
                let mut t = None;
                let mut function = None;
                let mut c = n.walk();
                for k in n.children_by_field_name("type", &mut c) {
                    let ty = self.type_ref(k, RefKind::Type);
                    if function.is_none() && ty.as_ref().is_some_and(|t| self.w.function_sam(t).is_some()) {
                        function = ty.clone();
                    }
                    t = t.or(ty);
                }
                if let Some(v) = n.child_by_field_name("value") {
                    // A lambda cast is for the cast's functional interface (JLS 15.27.3), an
                    // intersection's (`(Comparator<T> & Serializable)`) included.
                    if v.kind() == kind::LAMBDA_EXPRESSION {
                        self.expr_expecting(v, function.as_ref());
                    } else {
                        self.expr(v);
                    }
                }
                Val::Expr(t)
            }
            kind::INSTANCEOF_EXPRESSION => {
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
            kind::BINARY_EXPRESSION => {
                let l = n.child_by_field_name("left").and_then(|x| self.expr(x).ty());
                let r = n.child_by_field_name("right").and_then(|x| self.expr(x).ty());
                let op = n.child_by_field_name("operator").map(|o| self.text(o)).unwrap_or("");
                Val::Expr(binary_type(op, l, r))
            }
            kind::UNARY_EXPRESSION => {
                let t = n.child_by_field_name("operand").and_then(|x| self.expr(x).ty());
                let op = n.child_by_field_name("operator").map(|o| self.text(o)).unwrap_or("");
                Val::Expr(if op == "!" { Some(Ty::Prim("boolean".into())) } else { t.map(unbox) })
            }
            kind::UPDATE_EXPRESSION => {
                let mut c = n.walk();
                let operand = n.named_children(&mut c).next();
                Val::Expr(operand.and_then(|o| self.lvalue(o)))
            }
            kind::ASSIGNMENT_EXPRESSION => {
                let t = n.child_by_field_name("left").and_then(|l| self.lvalue(l));
                if let Some(r) = n.child_by_field_name("right") {
                    // A lambda assigned is for the variable's type (JLS 15.27.3), and so is
                    // a diamond anonymous class (JLS 15.9.3).
                    let plain = n.child_by_field_name("operator").is_some_and(|o| self.text(o) == "=");
                    if r.kind() == kind::LAMBDA_EXPRESSION
                        || (plain
                            && r.kind() == kind::OBJECT_CREATION_EXPRESSION
                            && self.diamond_anonymous(r).is_some())
                    {
                        self.expr_expecting(r, t.as_ref());
                    } else {
                        self.expr(r);
                    }
                }
                Val::Expr(t)
            }
            kind::TERNARY_EXPRESSION => {
                if let Some(c) = n.child_by_field_name("condition") {
                    self.expr(c);
                }
                let (x, y) = (n.child_by_field_name("consequence"), n.child_by_field_name("alternative"));
                let a = x.and_then(|x| self.expr(x).ty());
                let b = y.and_then(|y| self.expr(y).ty());
                let literal = |n: Option<Node>| n.is_some_and(|n| n.kind() == kind::DECIMAL_INTEGER_LITERAL);
                Val::Expr(match (a, b) {
                    (Some(a), Some(b)) => Some(self.w.conditional(a, b, literal(x), literal(y))),
                    (Some(Ty::Null), b) => b,
                    (a, Some(Ty::Null)) => a,
                    (Some(a), _) => Some(a),
                    (None, b) => b,
                })
            }
            kind::ARRAY_ACCESS => {
                let t = n.child_by_field_name("array").and_then(|a| self.expr(a).ty());
                if let Some(i) = n.child_by_field_name("index") {
                    self.expr(i);
                }
                Val::Expr(match t {
                    Some(Ty::Array(e)) => Some(*e),
                    _ => None,
                })
            }
            kind::LAMBDA_EXPRESSION => {
                self.lambda(n, None);
                Val::Expr(None)
            }
            kind::METHOD_REFERENCE => {
                self.method_reference(n);
                Val::Expr(None)
            }
            kind::SWITCH_EXPRESSION => Val::Expr(self.switch(n)),
            _ => {
                self.generic(n);
                Val::Expr(None)
            }
        }
    }

    /// The target of an assignment or `++`: a field write when it is a field.
    pub(super) fn lvalue(&mut self, n: Node) -> Option<Ty> {
        let before = self.out.len();
        let t = self.expr(n).ty();
        // The last reference emitted for the target itself is the written one.
        if matches!(n.kind(), kind::IDENTIFIER | kind::FIELD_ACCESS)
            && let Some(r) = self.out[before..].iter_mut().rev().find(|r| r.category == Category::Field)
        {
            r.kind = RefKind::FieldWrite;
        }
        t
    }

    /// A simple name in an expression: a variable, then a field, then a type, then a package.
    pub(super) fn name(&mut self, n: Node) -> Val {
        let name = self.text(n);
        if let Some(i) = self.scopes.iter().rposition(|(k, _)| &**k == name) {
            if self.scopes[i].1.is_none() && self.foreign.contains(&i) {
                return Val::Foreign;
            }
            return Val::Expr(self.scopes[i].1.clone());
        }
        let mut unknown = false;
        for i in (0..self.frames.len()).rev() {
            let Some(this) = self.frames[i].this.clone() else { continue };
            // A local class's fields are those of every supertype it names.
            let also = self.frames[i].also.clone();
            for t in std::iter::once(Some(this)).chain(also) {
                let Some(t) = t else {
                    unknown = true;
                    continue;
                };
                match self.w.find_field(&t, name) {
                    Lookup::Found(f) => return Val::Expr(self.field_hit(n, &f, Confidence::Exact)),
                    Lookup::Unknown => unknown = true,
                    Lookup::Absent => {}
                }
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
    pub(super) fn static_import_owners(&self, name: &str, on_demand: bool) -> Vec<String> {
        let Some(file) = self.w.files.get(self.ctx().file as usize) else { return Vec::new() };
        file.decls()
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

    pub(super) fn static_import_field(&self, name: &str) -> Option<MemberHit<'w, crate::decls::FieldSym>> {
        for on_demand in [false, true] {
            for owner in self.static_import_owners(name, on_demand) {
                if let Lookup::Found(fd) = self.w.find_field(&Ty::class(&owner), name) {
                    return Some(fd);
                }
            }
        }
        None
    }

    pub(super) fn field_hit(
        &mut self,
        at: Node,
        f: &MemberHit<'w, crate::decls::FieldSym>,
        conf: Confidence,
    ) -> Option<Ty> {
        let key = self.w.field_key(f.owner, f.decl);
        self.emit(at, RefKind::FieldRead, Category::Field, vec![key], conf);
        let ctx = self.w.ctx_ref(f.owner);
        self.w.resolve_text(&f.decl.ty, &ctx).map(|t| substitute(&t, &f.subst))
    }

    pub(super) fn field_access(&mut self, n: Node) -> Val {
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
                // `Outer.this`: the enclosing instance, of that type (with the type arguments
                // of the frame that declares it).
                if field.kind() == kind::THIS {
                    let fqn = t.lookup_class().map(|(f, _)| f.to_string());
                    let framed = self
                        .frames
                        .iter()
                        .rev()
                        .filter_map(|f| f.this.clone())
                        .find(|this| this.lookup_class().map(|(f, _)| f) == fqn.as_deref());
                    return Val::Expr(Some(framed.unwrap_or(t)));
                }
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
            // A field of a library type: no workspace field's, of no type known here.
            Val::Foreign => Val::Expr(None),
        }
    }

    /// A field of a receiver of unknown type: every workspace field of that name, `likely`.
    pub(super) fn guess_field(&mut self, at: Node, name: &str) {
        let owners = self.w.types_with_field(name);
        if owners.is_empty() || owners.len() > 8 || name == "length" {
            return;
        }
        let keys: Vec<String> = owners.iter().map(|o| format!("{}#{name}", self.w.decl(*o).fqn)).collect();
        self.emit(at, RefKind::FieldRead, Category::Field, keys, Confidence::Likely);
    }

    pub(super) fn call(&mut self, n: Node) -> Option<Ty> {
        let name_node = n.child_by_field_name("name")?;
        let name = self.text(name_node);
        let recv = n.child_by_field_name("object").map(|o| self.expr(o));
        let targs = n.child_by_field_name("type_arguments").map(|ta| {
            self.generic(ta);
            self.explicit_type_args(ta)
        });
        let (args, refs, lambdas) =
            n.child_by_field_name("arguments").map(|a| self.args_deferring(a)).unwrap_or_default();
        self.last_pick = None;
        let before = self.out.len();
        // A receiver and arguments that mention no workspace type: the library method's
        // lambdas' parameters, and its result when it is not found, are no workspace type's.
        let deferred = |j: usize| refs.iter().chain(&lambdas).any(|(k, _)| *k == j);
        let foreign = match &recv {
            Some(Val::Foreign) => true,
            Some(Val::Expr(Some(t))) => self.foreign_known(t),
            _ => false,
        } && targs
            .as_ref()
            .is_none_or(|ts| ts.iter().all(|t| t.as_ref().is_some_and(|t| self.foreign_known(t))))
            && args.iter().enumerate().all(|(j, a)| deferred(j) || a.as_ref().is_some_and(|t| self.foreign_known(t)));
        let foreign_recv = matches!(recv, Some(Val::Foreign));
        let shape = Shape { functional: functional_args(&refs, &lambdas), targs };
        let mut t = self.call_on(name_node, name, recv, &args, &shape);
        let bound = self.out[before..].iter().any(|r| r.kind == RefKind::Call);
        let result_foreign =
            foreign && t.is_none() && refs.is_empty() && lambdas.is_empty() && (foreign_recv || !bound);
        // `this.m()` in a class without a key is a call of its own `m` as `m()` is.
        if n.child_by_field_name("object").is_some_and(|o| o.kind() == kind::THIS)
            && let Some(last) = self.frames.len().checked_sub(1)
        {
            self.mark_via_override(last, before);
            if t.is_none() && self.frames[last].type_id.is_none() {
                t = self.own_result(last, name, &args);
            }
        }
        let certain = self.out[before..].iter().any(|r| r.kind == RefKind::Call && r.confidence == Confidence::Exact);
        self.foreign_args = foreign;
        self.bind_deferred(args.len(), refs, lambdas, certain, true);
        self.foreign_result = result_foreign;
        t
    }

    /// Whether `t` is known and mentions no workspace type, nor a type that may stand for one
    /// (`Object`, a type variable): `List<String>`, `Map<String, int[]>`, a missing library's
    /// `ImmutableList<String>`.
    fn foreign_known(&self, t: &Ty) -> bool {
        fn go(r: &Resolver, t: &Ty, depth: u32) -> bool {
            match t {
                _ if depth > 8 => false,
                Ty::Prim(_) => true,
                Ty::Array(e) => go(r, e, depth + 1),
                Ty::Class(f, args) => {
                    &**f != crate::ty::OBJECT
                        && r.w.by_fqn(f).is_none_or(|id| !r.w.is_workspace(id))
                        && args.iter().all(|a| go(r, a, depth + 1))
                }
                Ty::Var(..) | Ty::Null => false,
            }
        }
        go(self, t, 0)
    }

    /// Whether the references emitted since `before` hold an exact constructor reference: the
    /// constructor a `new` or `this(…)`/`super(…)` chose is certain.
    pub(super) fn ctor_certain(&self, before: usize) -> bool {
        self.out[before..].iter().any(|r| r.category == Category::Ctor && r.confidence == Confidence::Exact)
    }

    /// The lambdas and method references among the arguments of a call or constructor
    /// invocation, for the parameters of the method or constructor it chose (`self.last_pick`,
    /// taken): a method reference's functional interface chooses among its overloads; a
    /// lambda's implicitly typed parameters have its interface's parameter types when the
    /// choice is `certain` and they are known (JLS 15.27.3; never a type variable the call
    /// leaves to inference, nor `Object` standing for a wildcard `? super T`). With
    /// `with_lambdas`, the lambdas and method references are also bound to their interface.
    pub(super) fn bind_deferred(
        &mut self,
        nargs: usize,
        refs: Vec<(usize, Node)>,
        lambdas: Vec<(usize, Node)>,
        certain: bool,
        with_lambdas: bool,
    ) {
        let chosen = self.last_pick.take();
        let foreign =
            std::mem::take(&mut self.foreign_args) && chosen.as_ref().is_none_or(|h| !self.w.is_workspace(h.owner));
        let param = |this: &Self, j: usize| {
            chosen.as_ref().and_then(|h| {
                let ps = this.w.method_params(h.owner, h.decl);
                let last = ps.len().checked_sub(1)?;
                let p = ps.get(j.min(last))?.as_ref()?;
                let p = substitute(p, &h.subst);
                match p {
                    Ty::Array(e) if h.decl.varargs && j >= last && nargs != ps.len() => Some(*e),
                    p => Some(p),
                }
            })
        };
        for (j, l) in lambdas {
            let p = param(self, j);
            if l.kind() == kind::OBJECT_CREATION_EXPRESSION {
                // A diamond anonymous class: of the chosen parameter's type when certain.
                self.new_object_for(l, p.as_ref().filter(|_| certain));
                continue;
            }
            if with_lambdas && let Some(p) = &p {
                self.functional(l, p, certain);
            }
            // The callee's own type variables, and its class's when the call's type does not
            // give them, are the inference's to fix: a lambda's parameter naming one stays
            // untyped.
            let open: Vec<Box<str>> = chosen
                .as_ref()
                .map(|h| {
                    let class = if h.subst.is_empty() { &self.w.decl(h.owner).tparams[..] } else { &[] };
                    h.decl.tparams.iter().chain(class).map(|t| t.name.as_str().into()).collect()
                })
                .unwrap_or_default();
            let params = p.filter(|_| certain).and_then(|p| self.function_params(&p, &open));
            self.lambda_in(l, params.as_deref(), foreign);
        }
        for (j, r) in refs {
            let p = param(self, j);
            if with_lambdas && let Some(p) = &p {
                self.functional(r, p, certain);
            }
            self.method_reference_for(r, p.as_ref());
        }
    }

    /// The arguments of a call, lambdas and method references left for after the choice of the
    /// method (their index and node): [`Self::bind_deferred`] walks them.
    pub(super) fn args_deferring<'t>(&mut self, args: Node<'t>) -> Deferred<'t> {
        let mut c = args.walk();
        let kids: Vec<Node> = args.named_children(&mut c).filter(|k| !k.kind().ends_with("comment")).collect();
        let mut refs = Vec::new();
        let mut lambdas = Vec::new();
        let mut out = Vec::with_capacity(kids.len());
        for (j, k) in kids.into_iter().enumerate() {
            if k.kind() == kind::METHOD_REFERENCE {
                refs.push((j, k));
                out.push(None);
            } else if k.kind() == kind::LAMBDA_EXPRESSION {
                lambdas.push((j, k));
                out.push(None);
            } else if let Some(t) = self.diamond_anonymous(k) {
                // Its class body is walked once the method is chosen, whose parameter gives
                // the class its type arguments (JLS 15.9.3); its type, raw, chooses the method.
                lambdas.push((j, k));
                out.push(Some(t));
            } else {
                out.push(self.expr(k).ty());
            }
        }
        (out, refs, lambdas)
    }

    /// The raw type of `new C<>(…) {…}` (an anonymous class with a diamond, not qualified by
    /// an outer instance), resolved without emitting a reference; `None` for anything else.
    fn diamond_anonymous(&self, k: Node) -> Option<Ty> {
        if k.kind() != kind::OBJECT_CREATION_EXPRESSION || k.child_by_field_name("object").is_some() {
            return None;
        }
        let mut c = k.walk();
        let kids: Vec<Node> = k.named_children(&mut c).collect();
        if kids.iter().any(|x| is_expression(x.kind()) && x.kind() != kind::ARGUMENT_LIST)
            || !kids.iter().any(|x| x.kind() == kind::CLASS_BODY)
        {
            return None;
        }
        let tnode = k.child_by_field_name("type").filter(|t| t.kind() == kind::GENERIC_TYPE)?;
        let mut c = tnode.walk();
        let empty = tnode
            .named_children(&mut c)
            .find(|x| x.kind() == kind::TYPE_ARGUMENTS)
            .is_some_and(|ta| ta.named_child_count() == 0);
        if !empty {
            return None;
        }
        match self.w.resolve_text(&crate::ty::TyText::from_node(tnode, self.b), self.ctx())? {
            Ty::Class(f, _) => Some(Ty::Class(f, Vec::new())),
            _ => None,
        }
    }

    /// A lambda or method reference `n` for a value of type `t`: when `t` is a functional
    /// interface, the reference binding it to the interface, at its `->` or `::`.
    pub(super) fn functional(&mut self, n: Node, t: &Ty, certain: bool) {
        let Some((fqn, _)) = t.lookup_class() else { return };
        if self.w.function_sam(t).is_none() {
            return;
        }
        let mut c = n.walk();
        let Some(at) = n.children(&mut c).find(|k| matches!(k.kind(), "->" | "::")) else { return };
        let conf = if certain { Confidence::Exact } else { Confidence::Likely };
        self.emit(at, RefKind::Lambda, Category::Type, vec![fqn.to_string()], conf);
    }

    /// A call's binding once its receiver and arguments are typed.
    fn call_on(
        &mut self,
        name_node: Node,
        name: &str,
        recv: Option<Val>,
        args: &[Option<Ty>],
        shape: &Shape,
    ) -> Option<Ty> {
        match recv {
            None => {
                // Enclosing classes, innermost first: the first with a member of that name.
                let mut unknown = false;
                for i in (0..self.frames.len()).rev() {
                    // A class without a key that declares a method of that name taking that
                    // many arguments: the call is of its own (JLS 15.12.1, the innermost class
                    // with a member of that name).
                    let own = self.frames[i].own.iter().any(|m| {
                        *m.name == *name
                            && (m.params.len() == args.len() || (m.varargs && args.len() + 1 >= m.params.len()))
                    });
                    let Some(this) = self.frames[i].this.clone() else {
                        if own {
                            return self.own_result(i, name, args);
                        }
                        continue;
                    };
                    let (ms, complete) = self.frame_methods(i, &this, name);
                    // A call of the class's own method that overrides a supertype's is bound
                    // to that method, as its overriding declaration is (a rename renames both);
                    // one that overrides none has no key: the enclosing classes are not searched.
                    if !ms.is_empty() {
                        let ms = self.taking_functions(ms, args.len(), shape);
                        // The class's own method of that name that overrides none competes
                        // with the inherited ones (an overload, JLS 15.12.2): it is the call's
                        // when none of them can take the arguments; when one can, which javac
                        // picks is not known here.
                        let overload = own && self.own_overload(i, &this, &ms, name, args.len());
                        if overload && ms.iter().all(|m| self.surely_inapplicable(m, args)) {
                            return self.own_result(i, name, args);
                        }
                        let before = self.out.len();
                        let t = self.pick(name_node, ms, args, complete);
                        if own {
                            self.mark_via_override(i, before);
                        }
                        if overload {
                            if let Some(r) = self
                                .out
                                .get_mut(before..)
                                .and_then(|rs| rs.iter_mut().find(|r| r.kind == RefKind::Call))
                            {
                                r.confidence = Confidence::Likely;
                            }
                            return None;
                        }
                        return get_class(name, args, &this).or(t);
                    }
                    if own {
                        return self.own_result(i, name, args);
                    }
                    unknown |= !complete;
                }
                let ms = self.static_import_methods(name);
                if !ms.is_empty() {
                    let ms = self.taking_functions(ms, args.len(), shape);
                    return self.pick(name_node, ms, args, true);
                }
                if unknown {
                    return None;
                }
                None
            }
            Some(Val::Type(t)) | Some(Val::Expr(Some(t))) => {
                // An array's members (JLS 10.7): `clone()` returns the array's type and javac
                // names no declaration for it; the others are `Object`'s.
                let on = match &t {
                    Ty::Array(_) if name == "clone" && args.is_empty() => return Some(t),
                    Ty::Array(_) => Ty::object(),
                    _ => t.clone(),
                };
                let (ms, complete) = self.methods_of(&on, name);
                if ms.is_empty() {
                    return get_class(name, args, &t).or_else(|| self.jdk_call_type(&t, name, args.len()));
                }
                let ms = self.taking_functions(ms, args.len(), shape);
                let r = self.pick(name_node, ms, args, complete);
                get_class(name, args, &t).or(r)
            }
            Some(Val::Expr(None)) => {
                self.guess_method(name_node, name, args.len());
                None
            }
            Some(Val::Package(_)) | Some(Val::Foreign) => None,
        }
    }

    /// The result type of a call of a method that frame `i`'s class without a key declares
    /// and no supertype does (`delegate()` of `new Adapter<T>() { Adapter<T> delegate() … }`):
    /// its declared result type, resolved where the class is, when every own method of that
    /// name taking that many arguments declares the same one (the call is of one of them).
    /// A generic method's result that is one of its type variables takes the type of the
    /// argument its parameter of that very type has (`<S> S same(S s)`); other type variables
    /// stay variables (their bound's members).
    fn own_result(&self, i: usize, name: &str, args: &[Option<Ty>]) -> Option<Ty> {
        let frame = self.frames.get(i)?;
        let nargs = args.len();
        let mut ms = frame
            .own
            .iter()
            .filter(|m| *m.name == *name && (m.params.len() == nargs || (m.varargs && nargs + 1 >= m.params.len())));
        let m = ms.next()?;
        if ms.any(|o| o.ret != m.ret || o.tparams != m.tparams) {
            return None;
        }
        if let TyText::Named { name: v, args: targs } = &m.ret
            && targs.is_empty()
            && m.tparams.iter().any(|p| p.name == *v)
        {
            let k = m.params.iter().position(|p| *p == m.ret)?;
            return args.get(k).cloned().flatten().filter(|_| !(m.varargs && k + 1 == m.params.len()));
        }
        let ctx = self.w.with_method_tparams(&frame.ctx, &m.tparams);
        self.w.resolve_text(&m.ret, &ctx)
    }

    /// The result type of a call of a method of `Object` on a type whose declarations are not
    /// known (a library type).
    pub(super) fn jdk_call_type(&self, _t: &Ty, name: &str, _nargs: usize) -> Option<Ty> {
        match name {
            "toString" => Some(Ty::class(STRING)),
            "hashCode" => Some(Ty::Prim("int".into())),
            "equals" => Some(Ty::Prim("boolean".into())),
            "getClass" => Some(Ty::class("java.lang.Class")),
            _ => None,
        }
    }

    /// A method of a receiver of unknown type: every workspace method of that name and arity.
    pub(super) fn guess_method(&mut self, at: Node, name: &str, arity: usize) {
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

    pub(super) fn new_object(&mut self, n: Node) -> Option<Ty> {
        self.new_object_for(n, None)
    }

    /// A class instance creation; `expected`, the type its context gives it: a diamond
    /// anonymous class (`new Adapter<>() {…}`) is of its target's parameterization when the
    /// target is the same class with type arguments that are no wildcards (JLS 15.9.3), so its
    /// methods override the supertype's as written.
    fn new_object_for(&mut self, n: Node, expected: Option<&Ty>) -> Option<Ty> {
        let outer = n.child_by_field_name("object").or_else(|| {
            let mut c = n.walk();
            n.named_children(&mut c).find(|k| is_expression(k.kind()) && k.kind() != kind::ARGUMENT_LIST)
        });
        let outer_ty = outer.and_then(|o| self.expr(o).ty());
        let tnode = n.child_by_field_name("type")?;
        if let Some(ta) = n.child_by_field_name("type_arguments") {
            self.generic(ta);
        }
        let t = match (&outer_ty, tnode.kind()) {
            (Some(ot), kind::TYPE_IDENTIFIER) => {
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
        let (args, refs, lambdas) =
            n.child_by_field_name("arguments").map(|a| self.args_deferring(a)).unwrap_or_default();
        let body = {
            let mut c = n.walk();
            n.named_children(&mut c).find(|k| k.kind() == kind::CLASS_BODY)
        };
        let name_node = last_identifier(tnode).unwrap_or(tnode);
        self.last_pick = None;
        let before = self.out.len();
        if let Some(t) = &t {
            let is_interface = t
                .lookup_class()
                .and_then(|(f, _)| self.w.by_fqn(f))
                .is_some_and(|id| matches!(self.w.decl(id).kind, mji_model::TypeKind::Interface));
            if !is_interface {
                let functional = functional_args(&refs, &lambdas);
                self.ctor_ref(name_node, t, &args, RefKind::New, &functional);
            }
        }
        // The lambdas among the arguments stay unbound to an interface (the type hierarchy
        // does not list a constructor's lambdas); its method references choose an overload.
        let certain = self.ctor_certain(before);
        self.bind_deferred(args.len(), refs, lambdas, certain, false);
        let diamond = tnode.kind() == kind::GENERIC_TYPE && {
            let mut c = tnode.walk();
            tnode
                .named_children(&mut c)
                .find(|k| k.kind() == kind::TYPE_ARGUMENTS)
                .is_some_and(|ta| ta.named_child_count() == 0)
        };
        let t = match (t, expected) {
            (Some(Ty::Class(f, a)), Some(Ty::Class(ef, ea)))
                if diamond
                    && body.is_some()
                    && a.is_empty()
                    && f == *ef
                    && !ea.is_empty()
                    && !ea.iter().any(|x| matches!(x, Ty::Var(v, _) if &**v == crate::ty::WILDCARD)) =>
            {
                Some(Ty::Class(ef.clone(), ea.clone()))
            }
            (t, _) => t,
        };
        if let Some(body) = body {
            let ctx = self.ctx().clone();
            let saved = self.scopes.clone();
            let own = super::own_methods(body, self.b);
            self.frames.push(Frame { ctx, this: t.clone(), type_id: None, own, also: Vec::new() });
            self.body_fields(body);
            let within = self.within;
            self.within |= crate::WITHIN_CLASS;
            self.class_body(body);
            self.within = within;
            self.frames.pop();
            self.scopes = saved;
        }
        t
    }

    /// The fields a class the world does not hold (anonymous, local) declares, as names in
    /// scope for its body: they shadow the enclosing scope's (JLS 6.4.1) and have no key.
    pub(super) fn body_fields(&mut self, body: Node) {
        let mut c = body.walk();
        for m in body.named_children(&mut c).filter(|m| m.kind() == kind::FIELD_DECLARATION) {
            let t = m
                .child_by_field_name("type")
                .and_then(|t| self.w.resolve_text(&crate::ty::TyText::from_node(t, self.b), self.ctx()));
            let mut c2 = m.walk();
            for d in m.children_by_field_name("declarator", &mut c2) {
                let dims = d.child_by_field_name("dimensions").map(|x| crate::ty::count_dims(x, self.b)).unwrap_or(0);
                if let Some(name) = d.child_by_field_name("name") {
                    let t = t.clone().map(|t| array_of(t, dims));
                    self.scopes.push((self.text(name).into(), t));
                }
            }
        }
    }

    /// A lambda; with `params`, the parameter types of the functional interface it is for,
    /// which its implicitly typed parameters have (JLS 15.27.3).
    fn lambda(&mut self, n: Node, params: Option<&[Ty]>) {
        self.lambda_in(n, params, false);
    }

    /// A lambda; with `foreign`, its implicitly typed parameters of no known type are
    /// [`Val::Foreign`].
    fn lambda_in(&mut self, n: Node, params: Option<&[Ty]>, foreign: bool) {
        let mark = self.scopes.len();
        if let Some(ps) = n.child_by_field_name("parameters") {
            let given = |i: usize| params.and_then(|p| p.get(i)).cloned();
            match ps.kind() {
                kind::IDENTIFIER => {
                    let t = if params.is_some_and(|p| p.len() == 1) { given(0) } else { None };
                    self.scopes.push((self.text(ps).into(), t));
                }
                kind::FORMAL_PARAMETERS => self.params(ps, true),
                _ => {
                    let mut c = ps.walk();
                    let names: Vec<Node> = ps.named_children(&mut c).filter(|p| p.kind() == kind::IDENTIFIER).collect();
                    let fits = params.is_some_and(|p| p.len() == names.len());
                    for (i, p) in names.into_iter().enumerate() {
                        let t = if fits { given(i) } else { None };
                        self.scopes.push((self.text(p).into(), t));
                    }
                }
            }
            if foreign && ps.kind() != kind::FORMAL_PARAMETERS {
                self.foreign.extend(mark..self.scopes.len());
            }
        }
        if let Some(body) = n.child_by_field_name("body") {
            // A `return` in the body is the lambda's, whose result type is not known here.
            self.returns.push(None);
            let within = self.within;
            self.within |= crate::WITHIN_LAMBDA;
            if body.kind() == kind::BLOCK {
                self.block_like(body);
            } else {
                self.expr(body);
            }
            self.within = within;
            self.returns.pop();
        }
        self.scopes.truncate(mark);
        self.foreign.retain(|&i| i < mark);
    }

    /// An expression whose type the context gives (a declaration's initializer, a `return`'s
    /// value): a lambda or method reference there is for that functional interface (JLS
    /// 15.13.1, 15.27.3).
    pub(super) fn expr_expecting(&mut self, n: Node, expected: Option<&Ty>) -> Val {
        let Some(expected) = expected else { return self.expr(n) };
        if self.depth >= MAX_DEPTH {
            self.note_cut(n);
            return Val::Expr(None);
        }
        self.depth += 1;
        let v = stacker::maybe_grow(128 * 1024, 4 * 1024 * 1024, || self.expr_expecting_inner(n, Some(expected)));
        self.depth -= 1;
        v
    }

    fn expr_expecting_inner(&mut self, n: Node, expected: Option<&Ty>) -> Val {
        match n.kind() {
            kind::METHOD_REFERENCE | kind::LAMBDA_EXPRESSION => {
                if let Some(t) = expected {
                    self.functional(n, t, true);
                }
                if n.kind() == kind::METHOD_REFERENCE {
                    self.method_reference_for(n, expected);
                    return Val::Expr(expected.cloned());
                }
                if let Some(params) = expected.and_then(|t| self.function_params(t, &[])) {
                    self.lambda(n, Some(&params));
                    return Val::Expr(expected.cloned());
                }
                self.expr(n)
            }
            // The operands that are the expression's value are for the same type.
            kind::PARENTHESIZED_EXPRESSION => match n.named_child(0) {
                Some(inner) => Val::Expr(self.expr_expecting(inner, expected).ty()),
                None => Val::Expr(None),
            },
            kind::TERNARY_EXPRESSION if expected.is_some() => {
                if let Some(c) = n.child_by_field_name("condition") {
                    self.expr(c);
                }
                for side in ["consequence", "alternative"] {
                    if let Some(x) = n.child_by_field_name(side) {
                        self.expr_expecting(x, expected);
                    }
                }
                Val::Expr(expected.cloned())
            }
            kind::SWITCH_EXPRESSION if expected.is_some() => {
                self.switch_with(n, expected);
                Val::Expr(expected.cloned())
            }
            kind::OBJECT_CREATION_EXPRESSION => {
                let t = self.new_object_for(n, expected);
                if self.probe == Some((n.start_byte(), n.end_byte())) && t.is_some() {
                    self.probed = t.clone();
                }
                Val::Expr(t)
            }
            _ => self.expr(n),
        }
    }

    /// The parameter types of a functional interface type's one abstract method, as far as the
    /// declarations show it: the interface's instance methods, less `Object`'s and those whose
    /// parameters or result name the interface itself (`andThen`, `compose`, `negate`), less
    /// generic ones, must leave one. `None` when a parameter is unknown or `Object`, which may
    /// stand for a wildcard read by its bound (`? super T`), or names one of the type variables
    /// `open` (a callee's, left to inference); a parameter that is a type variable of the code
    /// around (`M extends Map<K, V>`) has it, its members its bound's.
    fn function_params(&self, t: &Ty, open: &[Box<str>]) -> Option<Vec<Ty>> {
        // `? super X` (`Object` holding X): the function type of the interface's non-wildcard
        // parameterization takes an X (JLS 9.9), as for a method reference: `removeIf(c -> …)`
        // on a `List<Cart>` gives `c` the type `Cart`.
        let ps: Vec<Ty> = self
            .w
            .function_sam(t)?
            .into_iter()
            .map(|p| match p {
                Ty::Class(f, a) if &*f == crate::ty::OBJECT && a.len() == 1 => match &a[0] {
                    Ty::Class(g, _) if &**g != crate::ty::OBJECT => a[0].clone(),
                    Ty::Array(_) => a[0].clone(),
                    _ => Ty::Class(f, a),
                },
                p => p,
            })
            .collect();
        let plain = |p: &Ty| match p {
            Ty::Class(f, _) => &**f != crate::ty::OBJECT,
            Ty::Prim(_) | Ty::Array(_) | Ty::Var(..) => true,
            Ty::Null => false,
        };
        (ps.iter().all(plain) && !ps.iter().any(|p| mentions(p, open, 0))).then_some(ps)
    }

    pub(super) fn method_reference(&mut self, n: Node) {
        self.method_reference_with(n, None);
    }

    /// A method reference for a value of type `p` (the parameter of the method a call chose,
    /// a declaration's type): its functional interface's parameter types choose among the
    /// overloads, those it hides (a type variable, `Object`, a wildcard `? super T` whose `T` is
    /// one) left open, and its arity rules out the overloads that cannot take that many
    /// arguments (`map(Integer::valueOf)` is no `valueOf(String, int)`).
    pub(super) fn method_reference_for(&mut self, n: Node, p: Option<&Ty>) {
        let ps = p.and_then(|p| self.w.function_sam(p)).map(|ps| {
            ps.into_iter()
                .map(|p| match p {
                    // `? super X`: the function type of the interface's non-wildcard
                    // parameterization takes an X (JLS 9.9, 15.13.1), when X is a known type.
                    Ty::Class(f, mut a) if &*f == crate::ty::OBJECT && a.len() == 1 => match a.pop() {
                        Some(Ty::Class(g, _)) if &*g == crate::ty::OBJECT => None,
                        Some(Ty::Var(..) | Ty::Null) | None => None,
                        x => x,
                    },
                    Ty::Class(f, _) if &*f == crate::ty::OBJECT => None,
                    Ty::Var(..) | Ty::Null => None,
                    p => Some(p),
                })
                .collect::<Vec<_>>()
        });
        self.method_reference_with(n, ps.as_deref());
    }

    /// A method reference; with `params`, the parameter types of the functional interface it
    /// is for (`None` where not known), which choose among overloads as a call with arguments
    /// of those types would (JLS 15.13.1): `Type::m` is a static method taking them all or an
    /// instance method taking all but the first (its receiver); `Type::new` a constructor
    /// taking them all.
    fn method_reference_with(&mut self, n: Node, params: Option<&[Option<Ty>]>) {
        let mut c = n.walk();
        let kids: Vec<Node> = n.children(&mut c).collect();
        let Some(first) = kids.first().copied() else { return };
        let recv = if is_type_node(first.kind()) && first.kind() != kind::TYPE_IDENTIFIER {
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
                let all: Vec<MemberHit<'w, MethodSym>> = self
                    .w
                    .decl(id)
                    .ctors
                    .iter()
                    .filter(|c| self.accessible(id, c))
                    .map(|c| MemberHit { owner: id, decl: c, subst: Vec::new() })
                    .collect();
                let (chosen, exact) = match params.map(|ps| self.select(&all, ps)) {
                    Some((c, e)) if !c.is_empty() => (c, e),
                    _ => ((0..all.len()).collect(), all.len() == 1),
                };
                let keys: Vec<String> = chosen.iter().map(|&i| self.w.method_key(id, all[i].decl)).collect();
                let conf = if exact && keys.len() == 1 { Confidence::Exact } else { Confidence::Likely };
                self.emit(last, RefKind::MethodRef, Category::Ctor, keys, conf);
            }
            return;
        }
        if last.kind() != kind::IDENTIFIER {
            return;
        }
        let name = self.text(last);
        let is_type = matches!(recv, Val::Type(_));
        match recv {
            Val::Type(t) | Val::Expr(Some(t)) => {
                let (ms, complete) = self.methods_of(&t, name);
                if ms.is_empty() {
                    return;
                }
                if let Some(ps) = params {
                    // The static methods taking every argument; on a type, also the instance
                    // methods taking all but the first, their receiver (JLS 15.13.1's two
                    // searches: valid code finds one).
                    let n = ps.len();
                    let (stat, inst): (Vec<usize>, Vec<usize>) = (0..ms.len()).partition(|&i| ms[i].decl.is_static);
                    let first: Vec<MemberHit<'w, MethodSym>> = if is_type {
                        stat.iter().map(|&i| ms[i].clone()).filter(|m| arity_ok(m.decl, n)).collect()
                    } else {
                        ms.iter().filter(|m| arity_ok(m.decl, n)).cloned().collect()
                    };
                    let second: Vec<MemberHit<'w, MethodSym>> = if is_type && n > 0 {
                        inst.iter().map(|&i| ms[i].clone()).filter(|m| arity_ok(m.decl, n - 1)).collect()
                    } else {
                        Vec::new()
                    };
                    let (c1, e1) = if first.is_empty() { (Vec::new(), true) } else { self.select(&first, ps) };
                    let (c2, e2) = if second.is_empty() { (Vec::new(), true) } else { self.select(&second, &ps[1..]) };
                    let picked: Vec<&MemberHit<'w, MethodSym>> =
                        c1.iter().map(|&i| &first[i]).chain(c2.iter().map(|&i| &second[i])).collect();
                    if picked.is_empty() {
                        return;
                    }
                    let keys: Vec<String> = picked.iter().map(|m| self.w.method_key(m.owner, m.decl)).collect();
                    let certain = keys.len() == 1
                        && e1
                        && e2
                        && (complete
                            || ms
                                .iter()
                                .position(|m| std::ptr::eq(m.decl, picked[0].decl))
                                .is_some_and(|i| self.unseen_cannot_compete(&ms, i)));
                    let conf = if certain { Confidence::Exact } else { Confidence::Likely };
                    self.emit(last, RefKind::MethodRef, Category::Method, keys, conf);
                    return;
                }
                let keys: Vec<String> = ms.iter().map(|m| self.w.method_key(m.owner, m.decl)).collect();
                let certain = keys.len() == 1 && (complete || self.unseen_cannot_compete(&ms, 0));
                let conf = if certain { Confidence::Exact } else { Confidence::Likely };
                self.emit(last, RefKind::MethodRef, Category::Method, keys, conf);
            }
            // A local class's method has no key: no guess.
            Val::Expr(None) if self.local_types.iter().any(|t| **t == *self.text(first)) => {}
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
            Val::Package(_) | Val::Foreign => {}
        }
    }
}

/// The indexes of a call's lambdas and method references (not its deferred anonymous classes),
/// which only a functional interface's parameter takes.
fn functional_args(refs: &[(usize, Node)], lambdas: &[(usize, Node)]) -> Vec<usize> {
    refs.iter().chain(lambdas).filter(|(_, n)| n.kind() != kind::OBJECT_CREATION_EXPRESSION).map(|(j, _)| *j).collect()
}

/// A call's arguments typed, with its method references (deferred) and lambdas (and diamond
/// anonymous classes) by index.
type Deferred<'t> = (Vec<Option<Ty>>, Vec<(usize, Node<'t>)>, Vec<(usize, Node<'t>)>);

/// What a call's overloads must fit beyond its arguments' types: the indexes of its lambdas
/// and method references, and its explicit type arguments (`None` where not resolved).
pub(super) struct Shape {
    pub(super) functional: Vec<usize>,
    pub(super) targs: Option<Vec<Option<Ty>>>,
}

impl<'w> Resolver<'w, '_> {
    /// The methods named `name` of frame `i`'s class, seen as `this`: its supertype's, and for
    /// a local class those of its other direct supertypes too (`Op extends Base implements
    /// DropOp` has `DropOp`'s), each signature once: the supertype's first, as javac's class
    /// methods come before the interfaces'. Complete when every part is.
    fn frame_methods(&self, i: usize, this: &Ty, name: &str) -> (Vec<MemberHit<'w, MethodSym>>, bool) {
        let (mut ms, mut complete) = self.methods_of(this, name);
        for t in self.frames.get(i).map(|f| f.also.as_slice()).unwrap_or_default() {
            let Some(t) = t else {
                complete = false;
                continue;
            };
            let (more, c) = self.methods_of(t, name);
            complete &= c;
            let known: Vec<Vec<String>> = ms.iter().map(|m| self.erased_params(m)).collect();
            ms.extend(more.into_iter().filter(|m| !known.contains(&self.erased_params(m))));
        }
        (ms, complete)
    }

    /// Marks the call just bound (the first reference from `before`) [`crate::Ref::via_override`]
    /// when frame `i` is a class without a key (anonymous, local, an enum constant's body) that
    /// declares a method overriding the one the call chose: javac binds the call to that
    /// override. Parameters compared as [`Self::keyless_override`] does, a type not resolved
    /// on either side taken as the same.
    fn mark_via_override(&mut self, i: usize, before: usize) {
        let Some(frame) = self.frames.get(i) else { return };
        if frame.type_id.is_some() {
            return;
        }
        let (Some(this), Some(hit)) = (frame.this.as_ref(), self.last_pick.as_ref()) else { return };
        if hit.decl.is_static {
            return;
        }
        let sig = self.w.signature_in(this, hit.owner, hit.decl);
        let overrides = frame.own.iter().any(|m| {
            *m.name == *hit.decl.name
                && m.params.len() == sig.len()
                && m.params
                    .iter()
                    .zip(&sig)
                    .all(|(p, s)| s == "?" || self.w.resolve_text(p, &frame.ctx).is_none_or(|t| t.erasure() == *s))
        });
        if overrides
            && let Some(r) = self.out.get_mut(before..).and_then(|rs| rs.iter_mut().find(|r| r.kind == RefKind::Call))
        {
            r.via_override = true;
        }
    }

    /// Whether frame `i`'s class without a key declares a method `name` taking `nargs`
    /// arguments that overrides none of the inherited `ms` (compared as
    /// [`Self::mark_via_override`] does): an overload beside them.
    fn own_overload(&self, i: usize, this: &Ty, ms: &[MemberHit<'w, MethodSym>], name: &str, nargs: usize) -> bool {
        let Some(frame) = self.frames.get(i) else { return false };
        let sigs: Vec<Vec<String>> = ms.iter().map(|h| self.w.signature_in(this, h.owner, h.decl)).collect();
        frame.own.iter().filter(|m| *m.name == *name && (m.params.len() == nargs || m.varargs)).any(|m| {
            !sigs.iter().any(|sig| {
                m.params.len() == sig.len()
                    && m.params
                        .iter()
                        .zip(sig)
                        .all(|(p, s)| s == "?" || self.w.resolve_text(p, &frame.ctx).is_none_or(|t| t.erasure() == *s))
            })
        })
    }

    /// Whether method `m` surely cannot take `args` in any phase of JLS 15.12.2 (an argument
    /// of a known type that no conversion, boxing or varargs expansion fits the parameter).
    fn surely_inapplicable(&self, m: &MemberHit<'w, MethodSym>, args: &[Option<Ty>]) -> bool {
        let ps: Vec<Option<Ty>> =
            self.w.method_params(m.owner, m.decl).iter().map(|p| p.as_ref().map(|t| substitute(t, &m.subst))).collect();
        if !arity_ok(m.decl, args.len()) {
            return true;
        }
        let read = |t: &Ty| match t {
            Ty::Var(v, b) if self.ctx().tvars.iter().any(|(k, _)| k == v) => (**b).clone(),
            other => other.clone(),
        };
        let no = |a: &Ty, p: &Ty| match (a, p) {
            // A variable of the method (its inference is not done here) may be anything.
            (_, Ty::Var(..)) => false,
            (a, p) => self.w.assignable(&read(a), p, true) == Some(false),
        };
        args.iter().enumerate().any(|(j, a)| {
            let Some(a) = a else { return false };
            let last = ps.len().saturating_sub(1);
            if m.decl.varargs && j >= last {
                let Some(Some(arr)) = ps.last() else { return false };
                let elem = match arr {
                    Ty::Array(e) => (**e).clone(),
                    other => other.clone(),
                };
                return no(a, &elem) && (args.len() != ps.len() || no(a, arr));
            }
            ps.get(j).cloned().flatten().is_some_and(|p| no(a, &p))
        })
    }

    /// The types of a call's explicit type arguments (`ReduceOps.<T, Set<T>>makeRef(…)`).
    fn explicit_type_args(&self, ta: Node) -> Vec<Option<Ty>> {
        let mut c = ta.walk();
        ta.named_children(&mut c)
            .filter(|k| !k.kind().ends_with("comment"))
            .map(|k| self.w.resolve_text(&crate::ty::TyText::from_node(k, self.b), self.ctx()))
            .collect()
    }

    /// The candidates that can take the call's lambdas and method references (JLS 15.12.2.1:
    /// such an argument is potentially compatible only with a functional interface or a type
    /// variable of the method): a parameter there that is a class, an array or a primitive
    /// (after the explicit type arguments: `makeRef(U seed, …)` with `U` a `LinkedHashSet`)
    /// rules the candidate out. An interface, a variable or an unknown type keeps it; when
    /// none is left, all are kept.
    pub(super) fn taking_functions(
        &self,
        ms: Vec<MemberHit<'w, MethodSym>>,
        nargs: usize,
        shape: &Shape,
    ) -> Vec<MemberHit<'w, MethodSym>> {
        if shape.functional.is_empty() || ms.len() < 2 {
            return ms;
        }
        let fits = |m: &MemberHit<'w, MethodSym>| {
            let ps = self.w.method_params(m.owner, m.decl);
            let Some(last) = ps.len().checked_sub(1) else { return true };
            let explicit: Vec<(Box<str>, Ty)> = match &shape.targs {
                Some(ts) if ts.len() == m.decl.tparams.len() => m
                    .decl
                    .tparams
                    .iter()
                    .zip(ts)
                    .filter_map(|(p, t)| Some((p.name.as_str().into(), t.clone()?)))
                    .collect(),
                _ => Vec::new(),
            };
            shape.functional.iter().all(|&j| {
                if j >= nargs || (j > last && !m.decl.varargs) {
                    return true;
                }
                let Some(p) = ps.get(j.min(last)).and_then(|p| p.as_ref()) else { return true };
                let p = substitute(&substitute(p, &m.subst), &explicit);
                let p = match p {
                    Ty::Array(e) if m.decl.varargs && j >= last => *e,
                    p => p,
                };
                match &p {
                    Ty::Prim(_) | Ty::Array(_) => false,
                    Ty::Class(f, _) => {
                        self.w.by_fqn(f).is_none_or(|id| matches!(self.w.decl(id).kind, mji_model::TypeKind::Interface))
                    }
                    Ty::Var(..) | Ty::Null => true,
                }
            })
        };
        let kept: Vec<MemberHit<'w, MethodSym>> = ms.iter().filter(|m| fits(m)).cloned().collect();
        if kept.is_empty() { ms } else { kept }
    }
}

/// The type of `getClass()` on a receiver of type `t` (JLS 4.3.2): `Class<? extends |T|>`, the
/// erasure of the receiver's type (read as its bound, as every `? extends` is here).
/// Whether type `t` names one of the type variables `vars`, at any depth.
fn mentions(t: &Ty, vars: &[Box<str>], depth: u32) -> bool {
    if depth > crate::ty::MAX_TYPE_NESTING {
        return true;
    }
    match t {
        Ty::Var(n, _) => vars.contains(n),
        Ty::Class(_, args) => args.iter().any(|a| mentions(a, vars, depth + 1)),
        Ty::Array(e) => mentions(e, vars, depth + 1),
        Ty::Prim(_) | Ty::Null => false,
    }
}

pub(super) fn get_class(name: &str, args: &[Option<Ty>], t: &Ty) -> Option<Ty> {
    (name == "getClass" && args.is_empty()).then(|| Ty::Class("java.lang.Class".into(), vec![erased(t)]))
}
