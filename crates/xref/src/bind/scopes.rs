//! Scopes: parameters, blocks and statements, local variables, switch, explicit constructor
//! calls and patterns — the names a body declares and where they are visible.

use super::types::array_of;
use super::{MAX_DEPTH, Resolver, is_expression, is_type_node};
use crate::decls::is_type_decl;
use crate::ty::Ty;
use crate::world::{Origin, TypeName};
use crate::{Category, Confidence, RefKind};
use mji_parser::kind;
use tree_sitter::Node;

impl<'w, 's> Resolver<'w, 's> {
    pub(super) fn params(&mut self, ps: Node, declare: bool) {
        let mut c = ps.walk();
        for p in ps.named_children(&mut c) {
            self.annotations_in(p);
            match p.kind() {
                kind::FORMAL_PARAMETER => {
                    let t = p.child_by_field_name("type").and_then(|t| self.type_ref(t, RefKind::Type));
                    let dims =
                        p.child_by_field_name("dimensions").map(|d| crate::ty::count_dims(d, self.b)).unwrap_or(0);
                    if declare && let Some(n) = p.child_by_field_name("name") {
                        let t = t.map(|t| array_of(t, dims));
                        self.scopes.push((self.text(n).into(), t));
                    }
                }
                kind::SPREAD_PARAMETER => {
                    let mut c2 = p.walk();
                    let mut t = None;
                    for k in p.named_children(&mut c2) {
                        if is_type_node(k.kind()) {
                            t = self.type_ref(k, RefKind::Type);
                        } else if k.kind() == kind::VARIABLE_DECLARATOR
                            && let Some(n) = k.child_by_field_name("name")
                        {
                            let name: Box<str> = self.text(n).into();
                            self.scopes.push((name, t.clone().map(|t| Ty::Array(Box::new(t)))));
                        }
                    }
                }
                kind::RECEIVER_PARAMETER => {
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

    pub(super) fn block_like(&mut self, n: Node) {
        let mark = self.scopes.len();
        let mut c = n.walk();
        for k in n.named_children(&mut c) {
            self.stmt(k);
        }
        self.scopes.truncate(mark);
    }

    pub(super) fn stmt(&mut self, n: Node) {
        if self.depth >= MAX_DEPTH {
            self.note_cut(n);
            return;
        }
        self.depth += 1;
        stacker::maybe_grow(128 * 1024, 4 * 1024 * 1024, || self.stmt_inner(n));
        self.depth -= 1;
    }

    pub(super) fn stmt_inner(&mut self, n: Node) {
        match n.kind() {
            kind::BLOCK | kind::CONSTRUCTOR_BODY | kind::SWITCH_BLOCK_STATEMENT_GROUP => self.block_like(n),
            kind::LOCAL_VARIABLE_DECLARATION => self.local_var(n),
            k if is_type_decl(k) => self.type_decl(n),
            kind::EXPLICIT_CONSTRUCTOR_INVOCATION => self.explicit_ctor(n),
            kind::ENHANCED_FOR_STATEMENT => {
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
            kind::FOR_STATEMENT
            | kind::TRY_WITH_RESOURCES_STATEMENT
            | kind::TRY_STATEMENT
            | kind::CATCH_CLAUSE
            | kind::FINALLY_CLAUSE
            | kind::LAMBDA_EXPRESSION => {
                let mark = self.scopes.len();
                let within = self.within;
                if n.kind() == kind::LAMBDA_EXPRESSION {
                    self.within |= crate::WITHIN_LAMBDA;
                }
                self.generic(n);
                self.within = within;
                self.scopes.truncate(mark);
            }
            kind::CATCH_FORMAL_PARAMETER => {
                self.annotations_in(n);
                let mut alternatives = Vec::new();
                let mut c = n.walk();
                for k in n.named_children(&mut c) {
                    if k.kind() == kind::CATCH_TYPE {
                        let mut c2 = k.walk();
                        for t in k.named_children(&mut c2) {
                            alternatives.push(self.type_ref(t, RefKind::Type));
                        }
                    }
                }
                if let Some(name) = n.child_by_field_name("name") {
                    let ty = self.catch_type(&alternatives);
                    self.scopes.push((self.text(name).into(), ty));
                }
            }
            kind::RESOURCE => {
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
            // A switch statement too: tree-sitter-java parses one as a `switch_expression`.
            kind::SWITCH_EXPRESSION => {
                self.switch(n);
            }
            kind::RETURN_STATEMENT => {
                let expected = self.returns.last().cloned().flatten();
                let mut c = n.walk();
                let kids: Vec<Node> = n.named_children(&mut c).collect();
                for k in kids {
                    if is_expression(k.kind()) {
                        self.expr_expecting(k, expected.as_ref());
                    } else {
                        self.stmt(k);
                    }
                }
            }
            k if is_expression(k) => {
                self.expr(n);
            }
            _ => self.generic(n),
        }
    }

    /// Visits children: expressions as expressions, the rest as statements.
    pub(super) fn generic(&mut self, n: Node) {
        let mut c = n.walk();
        for k in n.named_children(&mut c) {
            if is_type_node(k.kind()) {
                self.type_ref(k, RefKind::Type);
            } else {
                self.stmt(k);
            }
        }
    }

    pub(super) fn local_var(&mut self, n: Node) {
        self.annotations_in(n);
        let declared = n.child_by_field_name("type").and_then(|t| self.type_ref(t, RefKind::Type));
        let mut c = n.walk();
        for d in n.children_by_field_name("declarator", &mut c) {
            let v = d.child_by_field_name("value").and_then(|v| self.expr_expecting(v, declared.as_ref()).ty());
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

    pub(super) fn switch(&mut self, n: Node) -> Option<Ty> {
        self.switch_with(n, None)
    }

    /// A switch; `expected`, the type a switch expression's arms are for (a lambda's or
    /// method reference's functional interface).
    pub(super) fn switch_with(&mut self, n: Node, expected: Option<&Ty>) -> Option<Ty> {
        let sel = n.child_by_field_name("condition").and_then(|c| self.expr(c).ty());
        // A bare name in a label is the selector enum's constant; in a label of another type it
        // is a type (`case Circle _, Square _`, read as names, see `Prepared`) or a constant.
        let enum_id = sel
            .as_ref()
            .and_then(|t| t.lookup_class())
            .and_then(|(f, _)| self.w.by_fqn(f))
            .filter(|&id| self.w.decl(id).kind == mji_model::TypeKind::Enum);
        let body = n.child_by_field_name("body")?;
        let mark = self.scopes.len();
        let mut c = body.walk();
        for g in body.named_children(&mut c) {
            let mark2 = self.scopes.len();
            let mut c2 = g.walk();
            for k in g.named_children(&mut c2) {
                if k.kind() == kind::SWITCH_LABEL {
                    let mut c3 = k.walk();
                    for e in k.named_children(&mut c3) {
                        if e.kind() == kind::IDENTIFIER
                            && let Some(id) = enum_id
                        {
                            let name = self.text(e);
                            if let Some(f) = self.w.decl(id).fields.iter().find(|f| &*f.name == name) {
                                let key = self.w.field_key(id, f);
                                self.emit(e, RefKind::FieldRead, Category::Field, vec![key], Confidence::Exact);
                            }
                        } else if e.kind() == kind::METHOD_INVOCATION && e.child_by_field_name("object").is_none() {
                            // No constant is a call: a record pattern of a label listing several.
                            self.label_record_pattern(e);
                        } else if e.kind() == kind::PATTERN {
                            // `case Point(var x, var y)`, `case Outer.Circle c`: types and bindings.
                            self.pattern(e);
                        } else if is_expression(e.kind()) {
                            self.expr(e);
                        } else {
                            self.generic(e);
                        }
                    }
                } else if let Some(e) = expected.filter(|_| k.kind() == kind::EXPRESSION_STATEMENT)
                    && let Some(v) = k.named_child(0)
                {
                    self.expr_expecting(v, Some(e));
                } else {
                    self.stmt(k);
                }
            }
            if g.kind() == kind::SWITCH_BLOCK_STATEMENT_GROUP {
                self.scopes.truncate(mark2);
            }
        }
        self.scopes.truncate(mark);
        None
    }

    pub(super) fn explicit_ctor(&mut self, n: Node) {
        let Some(ctor) = n.child_by_field_name("constructor") else { return };
        if let Some(obj) = n.child_by_field_name("object") {
            self.expr(obj);
        }
        let (args, refs, lambdas) =
            n.child_by_field_name("arguments").map(|a| self.args_deferring(a)).unwrap_or_default();
        self.last_pick = None;
        let before = self.out.len();
        let is_super = ctor.kind() == kind::SUPER || self.text(ctor) == "super";
        let target = match self.frames.last().map(|f| (f.type_id, f.this.clone())) {
            Some((Some(id), _)) if is_super => self.w.supers(id).first().cloned(),
            Some((Some(id), _)) => Some(Ty::Class(self.w.decl(id).fqn.clone(), Vec::new())),
            // A local class's `super(…)`: its superclass, which its `this` is when a class.
            Some((None, Some(t))) if is_super => t.lookup_class().and_then(|(f, _)| self.w.by_fqn(f)).and_then(|id| {
                matches!(self.w.decl(id).kind, mji_model::TypeKind::Class | mji_model::TypeKind::Enum)
                    .then(|| t.clone())
            }),
            _ => None,
        };
        let kind = if self.text(ctor) == "super" { RefKind::SuperCall } else { RefKind::ThisCall };
        if let Some(t) = target {
            self.ctor_ref(ctor, &t, &args, kind, &[]);
        }
        let certain = self.ctor_certain(before);
        self.bind_deferred(args.len(), refs, lambdas, certain, false);
    }

    pub(super) fn pattern(&mut self, p: Node) {
        let mut c = p.walk();
        for k in p.named_children(&mut c) {
            match k.kind() {
                kind::TYPE_PATTERN
                | kind::RECORD_PATTERN
                | kind::RECORD_PATTERN_BODY
                | kind::RECORD_PATTERN_COMPONENT => self.pattern(k),
                // A record pattern's type is an identifier to the grammar (a qualified one
                // joined by `Prepared`); elsewhere an identifier here is a binding's name.
                kind::IDENTIFIER if p.kind() == kind::RECORD_PATTERN => self.record_pattern_type(k),
                t if is_type_node(t) => {
                    let ty = self.type_ref(k, RefKind::Type);
                    if let Some(name) = k.next_named_sibling().filter(|s| s.kind() == kind::IDENTIFIER) {
                        self.scopes.push((self.text(name).into(), ty));
                    }
                }
                _ => {}
            }
        }
    }

    /// The type of a record pattern, `Point(..)` or `Outer.Point(..)`, as a type reference.
    /// A record pattern of a `case` label listing several patterns, which `Prepared` gives the
    /// grammar as a call (`case Box(Circle _), Box(Square _)` as `Box(Circle), Box(Square)`):
    /// its type, then its components' types.
    fn label_record_pattern(&mut self, e: Node) {
        if self.depth >= super::MAX_DEPTH {
            return;
        }
        self.depth += 1;
        if let Some(name) = e.child_by_field_name("name") {
            self.record_pattern_type(name);
        }
        if let Some(args) = e.child_by_field_name("arguments") {
            let mut c = args.walk();
            let kids: Vec<Node> = args.named_children(&mut c).collect();
            for a in kids {
                if a.kind() == kind::METHOD_INVOCATION && a.child_by_field_name("object").is_none() {
                    stacker::maybe_grow(128 * 1024, 4 * 1024 * 1024, || self.label_record_pattern(a));
                } else {
                    self.expr(a);
                }
            }
        }
        self.depth -= 1;
    }

    pub(super) fn record_pattern_type(&mut self, k: Node) {
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

    /// The type of a catch parameter: its one type, or for a multi-catch the alternatives'
    /// least upper bound (JLS 14.20), the first of the first one's supertypes that every
    /// alternative extends (`IOException | SQLException e` is an `Exception`): `e.getMessage()`
    /// is `Throwable#getMessage()` even when the first alternative overrides it. Unknown when an
    /// alternative or a supertype is.
    fn catch_type(&self, alternatives: &[Option<Ty>]) -> Option<Ty> {
        let types: Vec<&Ty> = alternatives.iter().map(|t| t.as_ref()).collect::<Option<_>>()?;
        let (first, rest) = types.split_first()?;
        if rest.is_empty() {
            return Some((*first).clone());
        }
        for (t, _) in self.w.hierarchy(first) {
            match rest.iter().map(|r| self.w.is_subtype(r, &t)).try_fold(true, |all, s| s.map(|s| all && s)) {
                Some(true) => return Some(t),
                Some(false) => {}
                None => return None,
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use crate::decls::file_decls;
    use crate::world::World;
    use std::path::Path;
    use std::sync::Arc;

    /// A switch statement (in tree-sitter-java a `switch_expression` where a statement goes)
    /// binds its labels to the selector enum's constants and its arms; a call on
    /// a text block (a `string_literal`) binds to `String`'s method.
    #[test]
    fn a_switch_statement_and_a_text_block_bind() {
        let color = "package p;\nenum Color { RED, GREEN }\n";
        let user = "package p;\nclass User {\n  void f(Color c) {\n    switch (c) {\n      case RED:\n        g();\n        break;\n      default:\n    }\n    int n = \"\"\"\n      text\n      \"\"\".length();\n  }\n  void g() {}\n}\n";
        let files = vec![
            (Arc::from(Path::new("/p/Color.java")), Arc::new(file_decls(color.as_bytes()))),
            (Arc::from(Path::new("/p/User.java")), Arc::new(file_decls(user.as_bytes()))),
        ];
        let w = World::new(files);
        let refs: Vec<String> = crate::bind::file_refs(&w, 1, user.as_bytes())
            .into_iter()
            .filter(|r| r.line > 3)
            .map(|r| format!("{}:{} {}", r.line, r.column, r.targets.join(" ")))
            .collect();
        assert_eq!(refs, ["5:12 p.Color#RED", "6:9 p.User#g()", "12:11 java.lang.String#length()"]);
    }

    /// Issue 53, item 10: a local class used as a type (`new Impl()`, `Impl x`) is no
    /// unresolved type (`analyze_type_dependencies` listed `Impl  unresolved`).
    #[test]
    fn a_local_class_used_as_a_type_is_no_unresolved_type() {
        let src = "package p;\nclass G {\n  Object f() {\n    class Impl implements Runnable { public void run() {} }\n    Impl i = new Impl();\n    return i;\n  }\n}\n";
        let w = World::new(vec![(Arc::from(Path::new("/p/G.java")), Arc::new(file_decls(src.as_bytes())))]);
        let refs: Vec<String> = crate::bind::file_refs(&w, 0, src.as_bytes())
            .into_iter()
            .filter(|r| r.targets.iter().any(|t| t.contains("Impl")))
            .map(|r| format!("{}:{} {}", r.line, r.column, r.targets.join(" ")))
            .collect();
        assert_eq!(refs, Vec::<String>::new());
    }
}
