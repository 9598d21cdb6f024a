//! Methods without a key of their own that override one: a method declared in an anonymous
//! class, an enum constant's body or a local class (none of which the world holds) is bound,
//! at its name, to every method of the class's supertypes it overrides (`RefKind::Override`),
//! so an override family (a rename, `includeOverriders`) reaches it through the reference
//! index like any reference.

use super::Resolver;
use crate::ty::Ty;
use crate::{Category, Confidence, RefKind};
use mji_parser::kind;
use tree_sitter::Node;

impl Resolver<'_, '_> {
    /// Emits the override reference of method declaration `m` when the class around it has no
    /// key (its frame's `this` is its supertype, its `type_id` none). `exact` when the
    /// parameter types of both sides are known and equal as seen from the supertype; `likely`
    /// when a parameter could not be resolved or the supertype is raw (its type variables read
    /// as their bounds), so the erasures may differ where javac's do not.
    pub(super) fn keyless_override(&mut self, m: Node) {
        if m.kind() != kind::METHOD_DECLARATION {
            return;
        }
        let Some(frame) = self.frames.last() else { return };
        if frame.type_id.is_some() {
            return;
        }
        let Some(this) = frame.this.clone() else { return };
        // A local class's other direct supertypes: their methods are overridden too.
        let also: Vec<Ty> = frame.also.iter().flatten().cloned().collect();
        // A private method overrides nothing (JLS 8.4.8.1).
        if is_static(m) || has_modifier(m, "private") {
            return;
        }
        let Some(name_node) = m.child_by_field_name("name") else { return };
        let name = self.text(name_node);
        let tps = crate::decls::tparams_of(m.child_by_field_name("type_parameters"), self.b);
        let ctx = self.w.with_method_tparams(self.ctx(), &tps);
        let own: Vec<Option<String>> = super::method_param_texts(m, self.b)
            .iter()
            .map(|p| self.w.resolve_text(p, &ctx).map(|t| t.erasure()))
            .collect();
        let mut keys = Vec::new();
        let mut certain = true;
        for (seen, sup, id) in std::iter::once(&this)
            .chain(&also)
            .flat_map(|t| self.w.hierarchy(t).into_iter().map(move |(sup, id)| (t, sup, id)))
        {
            let Some(id) = id else { continue };
            let raw = sup.lookup_class().is_some_and(|(_, a)| a.is_empty()) && !self.w.decl(id).tparams.is_empty();
            for m2 in self
                .w
                .decl(id)
                .methods
                .iter()
                .filter(|m2| &*m2.name == name && self.w.may_override(None, &self.package, false, id, m2))
            {
                if m2.params.len() != own.len() {
                    continue;
                }
                let sig = self.w.signature_in(seen, id, m2);
                let mut same = true;
                let mut sure = true;
                for (a, b) in own.iter().zip(&sig) {
                    match a {
                        Some(a) if a == b => {}
                        // A raw supertype's variables read as their bounds; an unknown type
                        // may be either: the pair may still match.
                        Some(_) if raw => sure = false,
                        None => sure = false,
                        Some(_) if b == "?" => sure = false,
                        Some(_) => same = false,
                    }
                }
                if same {
                    certain &= sure;
                    keys.push(self.w.method_key(id, m2));
                }
            }
        }
        if keys.is_empty() {
            return;
        }
        keys.sort();
        keys.dedup();
        let conf = if certain { Confidence::Exact } else { Confidence::Likely };
        self.emit(name_node, RefKind::Override, Category::Method, keys, conf);
    }
}

pub(super) fn is_static(m: Node) -> bool {
    has_modifier(m, "static")
}

fn has_modifier(m: Node, word: &str) -> bool {
    let mut c = m.walk();
    m.children(&mut c).filter(|k| k.kind() == kind::MODIFIERS).any(|mods| {
        let mut c2 = mods.walk();
        mods.children(&mut c2).any(|k| k.kind() == word)
    })
}
