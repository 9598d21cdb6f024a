//! Type names in code: a type as written (simple, qualified, generic, array, annotated) bound to
//! its declaration and emitted as a type reference.

use super::{MAX_DEPTH, MAX_TYPE_NESTING, Resolver, is_type_node, leaf_identifiers};
use crate::RefKind;
use crate::ty::Ty;
use crate::world::{Origin, TypeName, starts_upper};
use mji_parser::kind;
use tree_sitter::Node;

impl<'w, 's> Resolver<'w, 's> {
    /// Emits the references of a type node and returns the type.
    pub(super) fn type_ref(&mut self, n: Node, kind: RefKind) -> Option<Ty> {
        if self.depth >= MAX_DEPTH {
            self.note_cut(n);
            return None;
        }
        self.depth += 1;
        self.ty_depth += 1;
        let t = stacker::maybe_grow(128 * 1024, 4 * 1024 * 1024, || self.type_ref_inner(n, kind));
        self.ty_depth -= 1;
        self.depth -= 1;
        let t = if self.ty_depth >= MAX_TYPE_NESTING { None } else { t };
        // A type node only (an identifier here is a qualifier in an expression, not a value).
        if self.probe == Some((n.start_byte(), n.end_byte()))
            && is_type_node(n.kind())
            && let Some(t) = &t
        {
            self.probed = Some(t.clone());
        }
        t
    }

    fn type_ref_inner(&mut self, n: Node, kind: RefKind) -> Option<Ty> {
        match n.kind() {
            kind::TYPE_IDENTIFIER | kind::SCOPED_TYPE_IDENTIFIER | kind::IDENTIFIER | kind::SCOPED_IDENTIFIER => {
                let mut idents = Vec::new();
                leaf_identifiers(n, &mut idents);
                let segs: Vec<&str> = idents.iter().map(|x| self.text(*x)).collect();
                if segs == ["var"] {
                    return None;
                }
                let (per, last) = self.w.resolve_type_segments(&segs, self.ctx());
                if n.kind() == kind::SCOPED_TYPE_IDENTIFIER {
                    let mut outer_args = Vec::new();
                    super::outer_type_arguments(n, &mut outer_args, 0);
                    for a in outer_args {
                        self.type_ref(a, RefKind::Type);
                    }
                }
                for (i, t) in per.iter().enumerate() {
                    if let Some(TypeName::Class(f, o)) = t {
                        let k = if i + 1 == segs.len() { kind } else { RefKind::Type };
                        self.emit_type(idents[i], k, f, *o);
                    }
                }
                match last {
                    // Lombok's `val` and `var` (`lombok.val`, imported, or a `val` nothing else
                    // declares) infer the local's type from its initializer, as `var` does.
                    Some(TypeName::Class(f, _)) if f == "lombok.val" || f == "lombok.var" => None,
                    None if segs == ["val"] || segs == ["lombok", "val"] => None,
                    Some(TypeName::Class(f, _)) => Some(Ty::Class(f.into(), Vec::new())),
                    Some(TypeName::Var(n, b)) => Some(Ty::Var(n, Box::new(b))),
                    None => {
                        let name = segs.join(".");
                        // A local class has no key: it is no unresolved type either.
                        let local = segs.len() == 1 && self.local_types.iter().any(|t| **t == *segs[0]);
                        if let Some(last) = idents.last()
                            && per.iter().all(|p| p.is_none())
                            && !local
                        {
                            self.emit_type(*last, kind, &name, Origin::Unresolved);
                        }
                        Some(Ty::Class(name.into(), Vec::new()))
                    }
                }
            }
            kind::GENERIC_TYPE => {
                let mut base = None;
                let mut args = Vec::new();
                let mut c = n.walk();
                for k in n.named_children(&mut c) {
                    match k.kind() {
                        kind::TYPE_ARGUMENTS => {
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
            kind::ARRAY_TYPE => {
                let e = n.child_by_field_name("element").and_then(|e| self.type_ref(e, kind))?;
                let dims = n.child_by_field_name("dimensions").map(|d| crate::ty::count_dims(d, self.b)).unwrap_or(1);
                Some(array_of(e, dims))
            }
            kind::INTEGRAL_TYPE | kind::FLOATING_POINT_TYPE | kind::BOOLEAN_TYPE | kind::VOID_TYPE => {
                Some(Ty::Prim(self.text(n).trim().into()))
            }
            kind::WILDCARD | kind::ANNOTATED_TYPE | kind::TYPE_BOUND | kind::TYPE_LIST | kind::CATCH_TYPE => {
                let mut last = None;
                let mut c = n.walk();
                for k in n.named_children(&mut c) {
                    if k.kind().ends_with(kind::ANNOTATION) {
                        self.annotation(k);
                    } else {
                        last = self.type_ref(k, kind);
                    }
                }
                if n.kind() != kind::WILDCARD {
                    return last;
                }
                // As `TyText` reads a wildcard: `? extends X` a variable `?` bounded by X,
                // `? super X` `Object<X>`, `?` a variable `?` bounded by Object.
                let text = self.text(n);
                match last {
                    Some(b) if text.contains("extends") => Some(Ty::Var(crate::ty::WILDCARD.into(), Box::new(b))),
                    Some(b) if text.contains("super") => Some(Ty::Class(crate::ty::OBJECT.into(), vec![b])),
                    _ => Some(Ty::Var(crate::ty::WILDCARD.into(), Box::new(Ty::object()))),
                }
            }
            kind::ANNOTATION | kind::MARKER_ANNOTATION => {
                self.annotation(n);
                None
            }
            _ => None,
        }
    }
}

/// `Entry` looks like a type; `PI`, `MAX_VALUE` and `out` look like fields.
pub(super) fn looks_like_type(name: &str) -> bool {
    starts_upper(name) && name.chars().any(|c| c.is_lowercase())
}

pub(super) fn array_of(t: Ty, dims: u8) -> Ty {
    let mut t = t;
    for _ in 0..dims {
        t = Ty::Array(Box::new(t));
    }
    t
}
