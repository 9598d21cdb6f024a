//! Every reference of one file to a type, method, constructor or field, bound the way javac
//! would bind it, from the full syntax tree and the [`World`]: scopes for locals, declared types
//! for receivers, the workspace hierarchy for inherited members, overload resolution by arity and
//! argument types. What cannot be known is marked `likely`.
//!
//! This file owns the binder (`Resolver`, its scopes and frames), the entry point [`file_refs`]
//! and emitting references. The walk is split by concern: `walk` (declarations), `scopes`
//! (statements and the names they declare), `types` (type names in code), `expr` (expression
//! typing) and `methods` (overload selection).

use mji_parser::kind;
use tree_sitter::Node;

use crate::decls::params_of;
use crate::ty::{Ty, TyText};
use crate::world::{Ctx, Origin, TypeId, World};
use crate::{Caller, Category, Confidence, Ref, RefKind};
use mji_parser::{LineIndex, Prepared, SourceText, parse_tree};

mod expr;
mod javadoc;
mod methods;
mod overrides;
mod scopes;
mod types;
mod walk;

/// What an expression denotes.
#[derive(Debug, Clone)]
enum Val {
    /// A value, of a type when known.
    Expr(Option<Ty>),
    /// A type name used as a qualifier (`Foo.bar()`).
    Type(Ty),
    /// A package name (`java.util` of `java.util.List.of()`).
    Package(String),
    /// A value whose type is not known but is no workspace type: a lambda's parameter where a
    /// library method, called on a receiver and with arguments that mention no workspace type,
    /// gives it (`strings.forEach(s -> …)`), and a call's result on such a value. Its members
    /// are not guessed among the workspace's.
    Foreign,
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
    /// The methods a class the world does not hold (anonymous, local, an enum constant's
    /// body) declares: a call of one has no key.
    own: Vec<OwnMethod>,
    /// A local class's other direct supertypes (the interfaces beside the one `this` names):
    /// their members are the class's too (`None`: not resolved, so its members unknown).
    also: Vec<Option<Ty>>,
}

/// A method of a class the world does not hold: its name, parameter types as written,
/// whether it is varargs, its result type as written and its own type parameters.
#[derive(Clone)]
struct OwnMethod {
    name: Box<str>,
    params: Vec<TyText>,
    varargs: bool,
    ret: TyText,
    tparams: Vec<crate::decls::TParam>,
}

/// The methods a class body declares, as [`Frame::own`] holds them.
fn own_methods(body: Node, b: &[u8]) -> Vec<OwnMethod> {
    let mut c = body.walk();
    body.named_children(&mut c)
        .filter(|m| m.kind() == kind::METHOD_DECLARATION)
        .filter_map(|m| {
            let name = m.child_by_field_name("name")?.utf8_text(b).ok()?;
            let (params, varargs) = crate::decls::params_of(m.child_by_field_name("parameters"), b);
            let ret = m.child_by_field_name("type").map(|t| TyText::from_node(t, b)).unwrap_or_default();
            let tparams = crate::decls::tparams_of(m.child_by_field_name("type_parameters"), b);
            Some(OwnMethod { name: name.into(), params, varargs, ret, tparams })
        })
        .collect()
}

/// All references of a file. `file` is the file's index in the world (`u32::MAX` if absent).
pub fn file_refs(world: &World, file: u32, bytes: &[u8]) -> Vec<Ref> {
    bind_file(world, file, bytes).0
}

/// Where the binder did not bind a file fully: the 1-based line where it stopped descending
/// (code nested deeper than [`MAX_DEPTH`] levels from there is not bound, so references inside
/// it are missing), or, when `nodes` is not 0, a file over the parser's node bound
/// ([`mji_parser::MAX_SYNTAX_NODES`]), none of whose references are bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DepthCut {
    pub line: u32,
    /// The file's syntax nodes when it is over the node bound, else 0.
    pub nodes: u64,
}

impl DepthCut {
    /// A file over the node bound, which is not bound at all.
    pub fn too_large(big: mji_parser::TooLarge) -> DepthCut {
        DepthCut { line: 1, nodes: big.nodes as u64 }
    }
}

impl std::fmt::Display for DepthCut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.nodes > 0 {
            let big = mji_parser::TooLarge { nodes: self.nodes as usize };
            return write!(f, "{big}: its references are not counted");
        }
        write!(
            f,
            "code nested deeper than {MAX_DEPTH} levels from line {} was not bound: references inside it are missing",
            self.line
        )
    }
}

/// [`file_refs`], and where the depth limit cut the binding short, if it did.
pub fn bind_file(world: &World, file: u32, bytes: &[u8]) -> (Vec<Ref>, Option<DepthCut>) {
    let (refs, cut, _) = bind(world, file, bytes, None);
    (refs, cut)
}

/// The type the binder gives the expression or the type node at bytes `start..end` of the
/// file (what extract_variable declares), `None` when it has none there (neither, or untyped).
pub fn expr_type(world: &World, file: u32, bytes: &[u8], start: usize, end: usize) -> Option<Ty> {
    bind(world, file, bytes, Some((start, end))).2
}

fn bind(
    world: &World,
    file: u32,
    bytes: &[u8],
    probe: Option<(usize, usize)>,
) -> (Vec<Ref>, Option<DepthCut>, Option<Ty>) {
    // A Kotlin file's references are bound by the Kotlin binder.
    if let Some(f) = world.files.get(file as usize)
        && crate::kotlin::is_kotlin(&f.path)
    {
        return (crate::kotlin::bind::file_refs(world, file, bytes), None, None);
    }
    let src = SourceText::decode(bytes);
    let prep = Prepared::new(&src.text);
    // A tree over the node bound is never built (it cost gigabytes), so nothing is bound.
    if let Some(big) = mji_parser::too_large(&prep.text) {
        return (Vec::new(), Some(DepthCut::too_large(big)), None);
    }
    let Some(tree) = parse_tree(&prep.text) else { return (Vec::new(), None, None) };
    let mut r = Resolver {
        w: world,
        b: prep.text.as_bytes(),
        prep: &prep,
        orig: &src.text,
        lines: &src.lines,
        scopes: Vec::new(),
        frames: vec![Frame {
            ctx: Ctx { file, types: Vec::new(), tvars: Vec::new(), more_bounds: Vec::new() },
            this: None,
            type_id: None,
            own: Vec::new(),
            also: Vec::new(),
        }],
        out: Vec::new(),
        package: String::new(),
        depth: 0,
        ty_depth: 0,
        cut: None,
        returns: Vec::new(),
        last_pick: None,
        caller: None,
        within: 0,
        probe,
        probed: None,
        local_types: Vec::new(),
        foreign: Vec::new(),
        foreign_args: false,
        foreign_result: false,
    };
    r.program(tree.root_node());
    r.javadoc_refs(tree.root_node());
    r.out.sort_by(|a, b| {
        (a.line, a.column, a.category as u8, &a.targets).cmp(&(b.line, b.column, b.category as u8, &b.targets))
    });
    r.out.dedup_by(|a, b| {
        a.line == b.line && a.column == b.column && a.category == b.category && a.targets == b.targets
    });
    (r.out, r.cut, r.probed)
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
    /// The first place the depth limit cut a subtree off.
    cut: Option<DepthCut>,
    /// The declared result type of each enclosing method (`None` in a lambda's body), which a
    /// `return`'s lambda or method reference is for.
    returns: Vec<Option<Ty>>,
    /// The method the last overload resolution chose, when one.
    last_pick: Option<crate::world::MemberHit<'w, crate::decls::MethodSym>>,
    /// The member of a named type being read, and where in it (see [`Ref::within`]).
    caller: Option<std::sync::Arc<Caller>>,
    within: u8,
    /// The expression whose type [`expr_type`] asks for, and its type once bound.
    probe: Option<(usize, usize)>,
    probed: Option<Ty>,
    /// The names of the local classes declared so far in the file (none has a key).
    local_types: Vec<Box<str>>,
    /// The indexes in `scopes` of the locals that are [`Val::Foreign`].
    foreign: Vec<usize>,
    /// Set by a call whose lambdas' untyped parameters are [`Val::Foreign`], for
    /// [`Self::bind_deferred`]; and by a call whose result is.
    foreign_args: bool,
    foreign_result: bool,
}

impl Resolver<'_, '_> {
    /// Records that `n`'s subtree is not bound (past [`MAX_DEPTH`]).
    fn note_cut(&mut self, n: Node) {
        let line = n.start_position().row as u32 + 1;
        if self.cut.is_none_or(|c| line < c.line) {
            self.cut = Some(DepthCut { line, nodes: 0 });
        }
    }
}

const MAX_DEPTH: u32 = 3000;
const MAX_TYPE_NESTING: u32 = crate::ty::MAX_TYPE_NESTING;

fn is_expression(k: &str) -> bool {
    matches!(
        k,
        kind::IDENTIFIER
            | kind::FIELD_ACCESS
            | kind::METHOD_INVOCATION
            | kind::OBJECT_CREATION_EXPRESSION
            | kind::ARRAY_CREATION_EXPRESSION
            | kind::METHOD_REFERENCE
            | kind::LAMBDA_EXPRESSION
            | kind::CAST_EXPRESSION
            | kind::INSTANCEOF_EXPRESSION
            | kind::BINARY_EXPRESSION
            | kind::UNARY_EXPRESSION
            | kind::UPDATE_EXPRESSION
            | kind::ASSIGNMENT_EXPRESSION
            | kind::TERNARY_EXPRESSION
            | kind::PARENTHESIZED_EXPRESSION
            | kind::ARRAY_ACCESS
            | kind::CLASS_LITERAL
            | kind::THIS
            | kind::SUPER
            | kind::STRING_LITERAL
            | kind::CHARACTER_LITERAL
            | kind::DECIMAL_INTEGER_LITERAL
            | kind::HEX_INTEGER_LITERAL
            | kind::OCTAL_INTEGER_LITERAL
            | kind::BINARY_INTEGER_LITERAL
            | kind::DECIMAL_FLOATING_POINT_LITERAL
            | kind::HEX_FLOATING_POINT_LITERAL
            | kind::TRUE
            | kind::FALSE
            | kind::NULL_LITERAL
            | kind::SWITCH_EXPRESSION
            | kind::ARRAY_INITIALIZER
    )
}

fn is_type_node(k: &str) -> bool {
    matches!(
        k,
        kind::TYPE_IDENTIFIER
            | kind::SCOPED_TYPE_IDENTIFIER
            | kind::GENERIC_TYPE
            | kind::ARRAY_TYPE
            | kind::INTEGRAL_TYPE
            | kind::FLOATING_POINT_TYPE
            | kind::BOOLEAN_TYPE
            | kind::VOID_TYPE
            | kind::ANNOTATED_TYPE
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
        let (caller, within) = (self.caller.clone(), self.within);
        self.out.push(Ref { line, column, kind, category, targets, confidence, caller, within, via_override: false });
    }

    fn emit_type(&mut self, at: Node, kind: RefKind, fqn: &str, origin: Origin) {
        let conf = if origin == Origin::Unresolved { Confidence::Likely } else { Confidence::Exact };
        self.emit(at, kind, Category::Type, vec![fqn.to_string()], conf);
    }
}

/// The identifier leaves of a (scoped) name, in order.
fn leaf_identifiers<'t>(n: Node<'t>, out: &mut Vec<Node<'t>>) {
    match n.kind() {
        kind::IDENTIFIER | kind::TYPE_IDENTIFIER => out.push(n),
        _ => {
            let mut c = n.walk();
            // An outer type's arguments (`Outer<A, B>.Inner`) are no segments of the name.
            for k in n.named_children(&mut c) {
                if !k.kind().ends_with(kind::ANNOTATION) && k.kind() != kind::TYPE_ARGUMENTS {
                    leaf_identifiers(k, out);
                }
            }
        }
    }
}

/// The type arguments of the outer types of a qualified type name (`A` and `B` of
/// `Outer<A, B>.Inner`), which [`leaf_identifiers`] leaves out.
fn outer_type_arguments<'t>(n: Node<'t>, out: &mut Vec<Node<'t>>, depth: u32) {
    if depth >= MAX_DEPTH {
        return;
    }
    let mut c = n.walk();
    for k in n.named_children(&mut c) {
        match k.kind() {
            kind::TYPE_ARGUMENTS => {
                let mut c2 = k.walk();
                out.extend(k.named_children(&mut c2));
            }
            kind::SCOPED_TYPE_IDENTIFIER | kind::GENERIC_TYPE => outer_type_arguments(k, out, depth + 1),
            _ => {}
        }
    }
}

fn last_identifier(n: Node) -> Option<Node> {
    let mut v = Vec::new();
    let base = if n.kind() == kind::GENERIC_TYPE {
        let mut c = n.walk();
        n.named_children(&mut c).find(|k| k.kind() != kind::TYPE_ARGUMENTS)?
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
