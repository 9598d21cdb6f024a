//! References in javadoc comments, as javadoc's `DocTrees` resolves them: `{@link}`,
//! `{@linkplain}`, `{@value}`, `@see`, `@throws` and `@exception`: the member at its name
//! after `#`, and the type at the last segment of its name — the class part of `Foo#bar` too,
//! a reference to `Foo` (so renaming `Foo` finds it). A name that does not resolve is not
//! reported. Kind `javadoc`.
//!
//! Names resolve in the scope of the declaration the comment documents (a type's comment sees
//! that type's members and nested types), else of the type around the comment, else the file.

use mji_parser::kind;
use tree_sitter::Node;

use super::Resolver;
use crate::decls::MethodSym;
use crate::ty::Ty;
use crate::world::{Ctx, Lookup, MemberHit, Origin, TypeId, TypeName};
use crate::{Category, Confidence, RefKind};

/// Bound on the nodes visited looking for comments (every node of a file, iteratively).
const MAX_NODES: usize = 4_000_000;

use mji_parser::kind::is_type_declaration as is_type_decl;

const PRIMITIVES: [&str; 9] = ["boolean", "byte", "char", "short", "int", "long", "float", "double", "void"];

impl<'w, 's> Resolver<'w, 's> {
    /// Emits the references of every javadoc comment of the file.
    pub(super) fn javadoc_refs(&mut self, root: Node) {
        let mut stack = vec![root];
        let mut visited = 0usize;
        while let Some(n) = stack.pop() {
            visited += 1;
            if visited > MAX_NODES {
                break;
            }
            if n.kind() == kind::BLOCK_COMMENT {
                let text = self.text(n);
                if text.starts_with("/**") && !text.starts_with("/**/") {
                    self.comment(n, text);
                }
                continue;
            }
            let mut c = n.walk();
            for k in n.children(&mut c) {
                stack.push(k);
            }
        }
    }

    /// The type whose scope a comment's names resolve in: the type it documents, else the
    /// type around it. None inside a local or anonymous class, or at the top level.
    fn scope_of(&self, comment: Node) -> Option<TypeId> {
        let mut next = comment.next_named_sibling();
        while let Some(s) = next {
            if s.kind().ends_with("comment") {
                next = s.next_named_sibling();
                continue;
            }
            break;
        }
        let documented = next.filter(|s| is_type_decl(s.kind()));
        let mut chain: Vec<&str> = Vec::new();
        let mut at = match documented {
            Some(d) => Some(d),
            None => comment.parent(),
        };
        while let Some(n) = at {
            match n.kind() {
                k if is_type_decl(k) => {
                    chain.push(n.child_by_field_name("name").map(|x| self.text(x)).unwrap_or(""));
                }
                kind::METHOD_DECLARATION
                | kind::CONSTRUCTOR_DECLARATION
                | kind::BLOCK
                | kind::LAMBDA_EXPRESSION
                | kind::OBJECT_CREATION_EXPRESSION => return None,
                _ => {}
            }
            at = n.parent();
        }
        if chain.is_empty() {
            return None;
        }
        chain.reverse();
        let name = chain.join(".");
        let fqn = if self.package.is_empty() { name } else { format!("{}.{name}", self.package) };
        self.w.workspace_type(&fqn).filter(|id| self.w.is_workspace(*id))
    }

    fn comment(&mut self, n: Node, text: &'s str) {
        let scope = self.scope_of(n);
        let ctx = match scope {
            Some(id) => self.w.ctx_in(id),
            None => self.frames[0].ctx.clone(),
        };
        let base = n.start_byte();
        for (at, reference) in references_in(text) {
            self.link(base + at, reference, scope, &ctx);
        }
    }

    /// Resolves one reference (`pkg.Type#member(params)`, `#member`, `Type`) at `at`. A
    /// `#member` not found in the scope's type is looked up in the types around it.
    fn link(&mut self, at: usize, reference: &str, scope: Option<TypeId>, ctx: &Ctx) {
        if reference.starts_with('#')
            && let Some(id) = scope
        {
            for outer in self.w.chain(id) {
                if self.link_in(at, reference, Some(outer), ctx) {
                    return;
                }
            }
            return;
        }
        self.link_in(at, reference, scope, ctx);
    }

    /// [`Self::link`] with `scope` as the type of a `#member`; whether it emitted a reference.
    fn link_in(&mut self, at: usize, reference: &str, scope: Option<TypeId>, ctx: &Ctx) -> bool {
        let before = self.out.len();
        self.link_one(at, reference, scope, ctx);
        self.out.len() > before
    }

    fn link_one(&mut self, at: usize, reference: &str, scope: Option<TypeId>, ctx: &Ctx) {
        // `java.base/java.util.List`: the module is not a name.
        let (skip, reference) = match reference.split_once('/') {
            Some((m, r)) if !m.contains('#') && !m.contains('(') => (m.len() + 1, r),
            _ => (0, reference),
        };
        let at = at + skip;
        let (type_part, member) = match reference.split_once('#') {
            Some((t, m)) => (t, Some(m)),
            None => (reference, None),
        };
        let last = type_part.rfind('.').map_or(0, |i| i + 1);
        let owner: Option<Ty> = if type_part.is_empty() {
            scope.map(|id| Ty::Class(self.w.decl(id).fqn.clone(), Vec::new()))
        } else {
            let segs: Vec<&str> = type_part.split('.').collect();
            if segs.iter().any(|s| s.is_empty() || !s.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$')) {
                return;
            }
            match self.w.resolve_type_segments(&segs, ctx).1 {
                // A name that resolves to nothing (a package: `{@link java.util.concurrent}`) is
                // not a type reference.
                // The type, and the qualifier of `Type#member` too (a reference to the type).
                Some(TypeName::Class(fqn, origin)) if self.is_type_name(&fqn, origin) => {
                    self.emit_at(at + last, RefKind::Javadoc, Category::Type, vec![fqn.clone()], Confidence::Exact);
                    if member.is_none() {
                        return;
                    }
                    Some(Ty::Class(fqn.into(), Vec::new()))
                }
                _ => None,
            }
        };
        let (Some(owner), Some(member)) = (owner, member) else { return };
        let member_at = at + type_part.len() + 1;
        let (name, params) = match member.split_once('(') {
            Some((n, p)) => (n.trim(), Some(p.trim_end().trim_end_matches(')'))),
            None => (member.trim(), None),
        };
        if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            return;
        }
        let owner_simple = owner.lookup_class().map(|(f, _)| f.rsplit('.').next().unwrap_or(f).to_owned());
        let written: Option<Vec<String>> =
            params.map(|p| p.split(',').map(|x| self.param_erasure(x.trim(), ctx)).filter(|x| !x.is_empty()).collect());
        // A field when no parameters are written and one exists.
        if written.is_none()
            && let Lookup::Found(f) = self.w.find_field(&owner, name)
        {
            let key = self.w.field_key(f.owner, f.decl);
            self.emit_at(member_at, RefKind::Javadoc, Category::Field, vec![key], Confidence::Exact);
            return;
        }
        let is_ctor = owner_simple.as_deref() == Some(name);
        let cands: Vec<MemberHit<'w, MethodSym>> = if is_ctor {
            let Some((fqn, _)) = owner.lookup_class() else { return };
            let Some(id) = self.w.by_fqn(fqn) else { return };
            self.w.decl(id).ctors.iter().map(|c| MemberHit { owner: id, decl: c, subst: Vec::new() }).collect()
        } else {
            self.w.find_methods(&owner, name).0
        };
        let chosen: Vec<&MemberHit<'w, MethodSym>> = match &written {
            Some(w) => cands.iter().filter(|c| self.params_match(&owner, c, w)).collect(),
            // Without parameters javadoc links the first such method: the first declared in
            // the nearest type that declares one.
            None => cands.first().into_iter().collect(),
        };
        if chosen.is_empty() {
            return;
        }
        let confidence = if chosen.len() == 1 { Confidence::Exact } else { Confidence::Likely };
        let keys: Vec<String> = chosen.iter().map(|c| self.w.method_key(c.owner, c.decl)).collect();
        let category = if is_ctor { Category::Ctor } else { Category::Method };
        self.emit_at(member_at, RefKind::Javadoc, category, keys, confidence);
    }

    /// Whether a resolved name is a type: a workspace or JDK type, or a library type named
    /// like one (`xref.model`, a package, is not).
    fn is_type_name(&self, fqn: &str, origin: Origin) -> bool {
        match origin {
            Origin::Workspace => self.w.by_fqn(fqn).is_some(),
            Origin::Jdk => self.w.jdk.is_type(fqn) || self.w.by_fqn(fqn).is_some(),
            Origin::Library => fqn.rsplit('.').next().is_some_and(crate::world::starts_upper),
            Origin::Unresolved => false,
        }
    }

    /// A parameter type as javadoc writes it (`int`, `String`, `java.util.List`, `Object...`,
    /// `char[]`), erased and qualified; the simple name when it does not resolve.
    fn param_erasure(&self, p: &str, ctx: &Ctx) -> String {
        // A parameter name may follow the type (`String name`).
        let p = p.split_whitespace().next().unwrap_or("");
        let mut base = p;
        let mut dims = String::new();
        while let Some(b) = base.strip_suffix("[]").or_else(|| base.strip_suffix("...")) {
            dims.push_str("[]");
            base = b;
        }
        let base = base.split('<').next().unwrap_or(base);
        if base.is_empty() {
            return String::new();
        }
        if PRIMITIVES.contains(&base) {
            return format!("{base}{dims}");
        }
        let segs: Vec<&str> = base.split('.').collect();
        match self.w.resolve_type_segments(&segs, ctx).1 {
            Some(TypeName::Class(fqn, origin)) if origin != Origin::Unresolved => format!("{fqn}{dims}"),
            // A type variable erases to its bound; leave the comparison to the simple name.
            _ => format!("{}{dims}", segs.last().copied().unwrap_or(base)),
        }
    }

    /// Whether a candidate's erased parameters are the ones written (a written name that did
    /// not resolve matches by its simple name).
    fn params_match(&self, owner: &Ty, c: &MemberHit<'w, MethodSym>, written: &[String]) -> bool {
        let actual = self.w.signature_in(owner, c.owner, c.decl);
        actual.len() == written.len()
            && actual.iter().zip(written).all(|(a, w)| {
                a == w
                    || (!w.contains('.')
                        && a.rsplit('.').next().is_some_and(|s| s == w || a.ends_with(&format!("${w}"))))
            })
    }
}

/// The references of a javadoc comment: (offset in the comment, reference text).
fn references_in(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'@' {
            i += 1;
            continue;
        }
        let tag_end = text[i + 1..].find(|c: char| !c.is_ascii_alphabetic()).map_or(b.len(), |e| i + 1 + e);
        let tag = &text[i + 1..tag_end];
        let inline = i > 0 && b[i - 1] == b'{';
        let takes = match tag {
            "link" | "linkplain" | "value" => inline,
            "see" | "throws" | "exception" => !inline && at_line_start(text, i),
            _ => false,
        };
        i = tag_end;
        if !takes {
            continue;
        }
        // Skip the blanks (and a comment's line-leading `*`) to the reference.
        let mut j = tag_end;
        while j < b.len() && (b[j] == b' ' || b[j] == b'\t') {
            j += 1;
        }
        if j >= b.len() || matches!(b[j], b'"' | b'<' | b'}' | b'\n' | b'\r') {
            continue;
        }
        // The reference runs to a blank or `}`, but through a parameter list.
        let mut k = j;
        let mut depth = 0usize;
        while k < b.len() {
            match b[k] {
                b'(' => depth += 1,
                b')' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        k += 1;
                        break;
                    }
                }
                b'}' if depth == 0 => break,
                b' ' | b'\t' if depth == 0 => break,
                b'\n' | b'\r' => break,
                _ => {}
            }
            k += 1;
        }
        if k > j {
            out.push((j, &text[j..k]));
        }
        i = k.max(i);
    }
    out
}

/// Whether only blanks and a `*` (or the comment's opening) come before `at` on its line.
fn at_line_start(text: &str, at: usize) -> bool {
    let start = text[..at].rfind(['\n', '\r']).map_or(0, |p| p + 1);
    let before = text[start..at].trim_start_matches("/**");
    before.chars().all(|c| c == ' ' || c == '\t' || c == '*')
}

#[cfg(test)]
mod tests {
    use super::references_in;

    #[test]
    fn finds_the_references_of_each_tag() {
        let c = "/**\n * See {@link Foo#bar(int, String)} and {@linkplain #baz label}.\n * {@code Nope} and {@value #MAX}\n * @see java.util.List\n * @see \"a book\"\n * @throws IllegalStateException when\n * mid-line @see Not\n */";
        let refs: Vec<&str> = references_in(c).into_iter().map(|(_, r)| r).collect();
        assert_eq!(refs, ["Foo#bar(int, String)", "#baz", "#MAX", "java.util.List", "IllegalStateException"]);
    }
}
