//! The references of a Kotlin file's bodies to the world's members (Kotlin → Java, Kotlin →
//! Kotlin): calls and constructor calls (no `new`), property syntax for getters and setters
//! (`bean.name` → `getName()`, `bean.name = x` → `setName(x)`), fields, types named in
//! declarations and imports. A receiver is typed where Kotlin writes or constructs its type: a
//! parameter's or property's declared type, `val x = Foo()`, a literal, `this`, a call whose
//! result type is known; or where Kotlin infers it locally: scope functions' `this`/`it`,
//! collection functions' `it`, smart casts by `is`. A call whose receiver or overload cannot
//! be decided is `likely`, on every candidate the world has; never dropped. Kotlin's full
//! inference (generic inference from arguments, SAM-converted lambdas' parameters) is not
//! done.

use std::collections::HashMap;

use tree_sitter::Node;

use super::types::{Names, Pos};
use crate::decls::MethodSym;
use crate::ty::{Ty, TyText};
use crate::world::{Ctx, MemberHit, TypeId, TypeName, World, substitute};
use crate::{Category, Confidence, Ref, RefKind};

/// How many candidates a `likely` reference lists at most (an untyped receiver's method name
/// declared by many types).
const MAX_CANDIDATES: usize = 32;
/// How deep the walk goes before the rest of a subtree is left out.
const MAX_DEPTH: u32 = 200;

/// Every reference of the Kotlin file `file` of the world.
pub fn file_refs(world: &World, file: u32, bytes: &[u8]) -> Vec<Ref> {
    let src = mji_parser::SourceText::decode(bytes);
    let Some(tree) = mji_parser::kotlin::parse_tree(&src.text) else { return Vec::new() };
    let text = src.text.as_bytes();
    let root = tree.root_node();
    let imports = mji_parser::kotlin::imports(root, text);
    let names = super::decls::names_of(&imports);
    // Imported members (`import a.B.m`, `import a.B.m as n`) and classes whose members are
    // imported on demand (`import a.B.*`).
    let mut member_imports = Vec::new();
    let mut member_stars = Vec::new();
    for i in &imports {
        let Some((owner, member)) = i.path.rsplit_once('.') else { continue };
        if i.on_demand {
            if world.by_fqn(&i.path).is_some() {
                member_stars.push(i.path.clone());
            }
        } else if world.by_fqn(&i.path).is_none() && world.by_fqn(owner).is_some() {
            let local = i.alias.clone().unwrap_or_else(|| member.to_owned());
            member_imports.push((local, owner.to_owned(), member.to_owned()));
        }
    }
    let package = world.files.get(file as usize).map(|f| f.decls().package.to_string()).unwrap_or_default();
    let mut b = Binder {
        w: world,
        src: text,
        names,
        ctx: Ctx { file, types: Vec::new(), tvars: Vec::new(), more_bounds: Vec::new() },
        this: Vec::new(),
        scopes: vec![HashMap::new()],
        out: Vec::new(),
        package,
        member_imports,
        member_stars,
    };
    let mut c = root.walk();
    for n in root.named_children(&mut c) {
        if n.kind() == "import" {
            b.import(n);
        } else {
            b.walk(n, 0);
        }
    }
    b.out.sort_by_key(|r| (r.line, r.column));
    b.out
}

struct Binder<'a> {
    w: &'a World,
    src: &'a [u8],
    names: Names,
    ctx: Ctx,
    /// The type `this` has, innermost last (a class's, an extension function's receiver).
    this: Vec<Option<Ty>>,
    /// Locals and parameters with their types when known, innermost last.
    scopes: Vec<HashMap<String, Option<Ty>>>,
    out: Vec<Ref>,
    package: String,
    /// Imported members: the name the file calls them by, their class, their name.
    member_imports: Vec<(String, String, String)>,
    /// Classes whose members the file imports on demand.
    member_stars: Vec<String>,
}

/// What an expression denotes.
enum Val {
    Value(Option<Ty>),
    /// A type used as a qualifier (`Foo.bar()`, `Registry.all()`).
    Type(Ty),
}

fn named<'t>(n: Node<'t>, kind: &str) -> Option<Node<'t>> {
    let mut c = n.walk();
    n.named_children(&mut c).find(|x| x.kind() == kind)
}

fn is_type_node(k: &str) -> bool {
    matches!(k, "user_type" | "nullable_type" | "function_type" | "parenthesized_type" | "non_nullable_type")
}

/// Whether a call ends with a lambda outside its parentheses (`x.apply { … }`).
fn has_trailing_lambda(call: Node) -> bool {
    let mut c = call.walk();
    call.named_children(&mut c).any(|k| k.kind() == "annotated_lambda")
}

/// Kotlin's scope functions (`kotlin.StandardKt`), which the world does not declare: the
/// lambda's `this` is the receiver (`apply`, `run`) or its `it` (`let`, `also`, `takeIf`,
/// `takeUnless`, `use`); the call's value is the receiver (`apply`, `also`, `takeIf`,
/// `takeUnless`) or the lambda's (`run`, `let`, `use`).
const SCOPE_FUNCTIONS: [(&str, bool, bool); 7] = [
    ("apply", true, false),
    ("run", true, true),
    ("also", false, false),
    ("let", false, true),
    ("takeIf", false, false),
    ("takeUnless", false, false),
    ("use", false, true),
];

/// Kotlin's collection functions whose lambda's `it` is an element of the receiver (an
/// `Iterable<E>` or an array), with the call's value: an element (`first { … }`), a list of
/// them (`filter { … }`), or not known.
const ELEMENT_FUNCTIONS: [(&str, ElemValue); 30] = [
    ("forEach", ElemValue::Unknown),
    ("onEach", ElemValue::Unknown),
    ("map", ElemValue::Unknown),
    ("mapNotNull", ElemValue::Unknown),
    ("flatMap", ElemValue::Unknown),
    ("filter", ElemValue::List),
    ("filterNot", ElemValue::List),
    ("any", ElemValue::Unknown),
    ("all", ElemValue::Unknown),
    ("none", ElemValue::Unknown),
    ("count", ElemValue::Unknown),
    ("first", ElemValue::Element),
    ("firstOrNull", ElemValue::Element),
    ("last", ElemValue::Element),
    ("lastOrNull", ElemValue::Element),
    ("single", ElemValue::Element),
    ("singleOrNull", ElemValue::Element),
    ("find", ElemValue::Element),
    ("findLast", ElemValue::Element),
    ("sortedBy", ElemValue::List),
    ("sortedByDescending", ElemValue::List),
    ("associateBy", ElemValue::Unknown),
    ("associateWith", ElemValue::Unknown),
    ("associate", ElemValue::Unknown),
    ("groupBy", ElemValue::Unknown),
    ("partition", ElemValue::Unknown),
    ("sumOf", ElemValue::Unknown),
    ("maxByOrNull", ElemValue::Element),
    ("minByOrNull", ElemValue::Element),
    ("distinctBy", ElemValue::List),
];

/// The value of a collection function's call.
#[derive(Clone, Copy, PartialEq)]
enum ElemValue {
    Element,
    List,
    Unknown,
}

/// What a call of a Kotlin standard library function with a lambda gives its lambda and its
/// value.
struct StdCall {
    /// The lambda's `this`, when the function sets it.
    this: Option<Option<Ty>>,
    /// The lambda's `it`.
    it: Option<Ty>,
    /// The call's value when not the lambda's.
    ret: Option<Ty>,
    /// The call's value is the lambda's last statement's.
    ret_of_lambda: bool,
}

fn cap(s: &str) -> String {
    let mut cs = s.chars();
    cs.next().map(|c| c.to_uppercase().collect::<String>() + cs.as_str()).unwrap_or_default()
}

impl<'a> Binder<'a> {
    fn text(&self, n: Node) -> &'a str {
        n.utf8_text(self.src).unwrap_or("")
    }

    fn emit(&mut self, at: Node, kind: RefKind, category: Category, targets: Vec<String>, confidence: Confidence) {
        if targets.is_empty() {
            return;
        }
        let p = at.start_position();
        let line_start = at.start_byte() - p.column;
        let prefix = std::str::from_utf8(&self.src[line_start..at.start_byte()]).unwrap_or("");
        let column = prefix.encode_utf16().count() as u32 + 1;
        self.out.push(Ref {
            line: p.row as u32 + 1,
            column,
            kind,
            category,
            targets,
            confidence,
            caller: None,
            within: 0,
            via_override: false,
        });
    }

    fn lookup_local(&self, name: &str) -> Option<&Option<Ty>> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    fn declare(&mut self, name: &str, ty: Option<Ty>) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_owned(), ty);
        }
    }

    /// A Kotlin type as written, resolved in the file.
    fn resolve(&self, text: &str, pos: Pos) -> Option<Ty> {
        let t = self.names.ty(text, pos);
        if matches!(t, TyText::Unknown) {
            return None;
        }
        self.w.resolve_text(&t, &self.ctx)
    }

    /// A simple name as a type in scope (a workspace, library or JDK class).
    fn type_named(&self, name: &str) -> Option<Ty> {
        if !name.starts_with(char::is_uppercase) {
            return None;
        }
        match self.w.resolve_simple_type(name, &self.ctx) {
            Some(TypeName::Class(fqn, _)) => Some(Ty::Class(fqn.into(), Vec::new())),
            _ => self.names.aliases.get(name).map(|full| Ty::class(full)),
        }
    }

    fn import(&mut self, n: Node) {
        let Some(q) = named(n, "qualified_identifier") else { return };
        let path: String = self.text(q).split_whitespace().collect();
        if self.w.by_fqn(&path).is_some() {
            let last = {
                let mut c = q.walk();
                q.named_children(&mut c).last()
            };
            if let Some(last) = last {
                self.emit(last, RefKind::Import, Category::Type, vec![path], Confidence::Exact);
            }
        }
    }

    /// Type references in a written type (`Foo`, `a.b.Foo<Bar>`).
    fn type_refs(&mut self, n: Node, depth: u32) {
        if depth > MAX_DEPTH {
            return;
        }
        if n.kind() == "user_type" {
            let mut c = n.walk();
            let ids: Vec<Node> = n.named_children(&mut c).filter(|x| x.kind() == "identifier").collect();
            if let Some(last) = ids.last() {
                let written: String = ids.iter().map(|i| self.text(*i)).collect::<Vec<_>>().join(".");
                if let Some(Ty::Class(fqn, _)) = self.resolve(&written, Pos::Arg)
                    && self.known(&fqn)
                {
                    self.emit(*last, RefKind::Type, Category::Type, vec![fqn.to_string()], Confidence::Exact);
                }
            }
        }
        let mut c = n.walk();
        for k in n.named_children(&mut c) {
            self.type_refs(k, depth + 1);
        }
    }

    /// Whether the world declares the type (the workspace, the libraries or the JDK).
    fn known(&self, fqn: &str) -> bool {
        self.w.by_fqn(fqn).is_some()
    }

    fn walk(&mut self, n: Node, depth: u32) {
        if depth > MAX_DEPTH {
            return;
        }
        match n.kind() {
            "class_declaration" | "object_declaration" | "companion_object" => self.class(n, depth),
            "function_declaration" => self.function(n, depth),
            "secondary_constructor" | "anonymous_initializer" | "getter" | "setter" => {
                self.scopes.push(HashMap::new());
                if let Some(ps) = named(n, "function_value_parameters") {
                    self.params(ps, depth);
                }
                self.children(n, depth);
                self.scopes.pop();
            }
            "property_declaration" => self.property(n, depth),
            "lambda_literal" => {
                self.lambda(n, depth, None, None);
            }
            "call_expression"
            | "navigation_expression"
            | "assignment"
            | "identifier"
            | "if_expression"
            | "when_expression" => {
                self.expr(n, depth);
            }
            k if is_type_node(k) => self.type_refs(n, depth),
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

    fn class(&mut self, n: Node, depth: u32) {
        let simple = match n.kind() {
            "companion_object" => n.child_by_field_name("name").map_or("Companion", |x| self.text(x)),
            _ => n.child_by_field_name("name").map_or("", |x| self.text(x)),
        };
        let fqn = match self.ctx.types.first() {
            Some(outer) => format!("{}.{simple}", self.w.decl(*outer).fqn),
            None if self.package.is_empty() => simple.to_owned(),
            None => format!("{}.{simple}", self.package),
        };
        let id: Option<TypeId> = self.w.by_fqn(&fqn);
        if let Some(id) = id {
            self.ctx.types.insert(0, id);
        }
        self.this.push(Some(Ty::class(&fqn)));
        self.scopes.push(HashMap::new());
        if let Some(pc) = named(n, "primary_constructor")
            && let Some(cps) = named(pc, "class_parameters")
        {
            let mut c = cps.walk();
            for p in cps.named_children(&mut c).filter(|p| p.kind() == "class_parameter") {
                let mut c2 = p.walk();
                let ty = p.named_children(&mut c2).find(|x| is_type_node(x.kind()));
                if let Some(t) = ty {
                    self.type_refs(t, depth + 1);
                }
                let resolved = ty.and_then(|t| self.resolve(self.text(t), Pos::Param));
                if let Some(id) = named(p, "identifier") {
                    self.declare(self.text(id), resolved);
                }
                let mut c3 = p.walk();
                let defaults: Vec<Node> =
                    p.named_children(&mut c3).filter(|x| !is_type_node(x.kind()) && x.kind() != "identifier").collect();
                for d in defaults {
                    self.walk(d, depth + 1);
                }
            }
        }
        if let Some(ds) = named(n, "delegation_specifiers") {
            self.supertypes(ds, depth);
        }
        let body = named(n, "class_body").or_else(|| named(n, "enum_class_body"));
        if let Some(body) = body {
            self.children(body, depth);
        }
        self.scopes.pop();
        self.this.pop();
        if id.is_some() {
            self.ctx.types.remove(0);
        }
    }

    /// `: Base(args), Iface, Other by x`: type references, and the superclass constructor call.
    fn supertypes(&mut self, ds: Node, depth: u32) {
        let mut c = ds.walk();
        for d in ds.named_children(&mut c) {
            match named(d, "constructor_invocation") {
                Some(ci) => {
                    let ut = named(ci, "user_type");
                    if let Some(ut) = ut {
                        self.type_refs(ut, depth + 1);
                    }
                    let args = named(ci, "value_arguments");
                    let ty = ut.and_then(|u| self.resolve(self.text(u), Pos::Arg));
                    if let (Some(ty), Some(ut)) = (ty, ut) {
                        let at = {
                            let mut c2 = ut.walk();
                            ut.named_children(&mut c2).filter(|x| x.kind() == "identifier").last()
                        };
                        if let Some(at) = at {
                            self.ctor_call(at, &ty, args, depth, RefKind::SuperCall);
                        }
                    }
                    if let Some(a) = args {
                        self.children(a, depth);
                    }
                }
                None => self.children(d, depth),
            }
        }
    }

    fn params(&mut self, ps: Node, depth: u32) {
        let mut c = ps.walk();
        for p in ps.named_children(&mut c) {
            if p.kind() != "parameter" {
                // A default value.
                self.walk(p, depth + 1);
                continue;
            }
            let mut c2 = p.walk();
            let ty = p.named_children(&mut c2).find(|x| is_type_node(x.kind()));
            if let Some(t) = ty {
                self.type_refs(t, depth + 1);
            }
            let resolved = ty.and_then(|t| self.resolve(self.text(t), Pos::Param));
            if let Some(id) = named(p, "identifier") {
                self.declare(self.text(id), resolved);
            }
        }
    }

    fn function(&mut self, n: Node, depth: u32) {
        self.scopes.push(HashMap::new());
        let name_at = n.child_by_field_name("name").map_or(0, |x| x.start_byte());
        let mut c = n.walk();
        let kids: Vec<Node> = n.named_children(&mut c).collect();
        let mut receiver = None;
        for k in &kids {
            match k.kind() {
                kk if is_type_node(kk) => {
                    self.type_refs(*k, depth + 1);
                    if k.start_byte() < name_at {
                        receiver = Some(self.resolve(self.text(*k), Pos::Param));
                    }
                }
                "function_value_parameters" => self.params(*k, depth),
                _ => {}
            }
        }
        if let Some(r) = receiver.clone() {
            self.this.push(r);
        }
        for k in kids.iter().filter(|k| k.kind() == "function_body") {
            self.walk(*k, depth + 1);
        }
        if receiver.is_some() {
            self.this.pop();
        }
        self.scopes.pop();
    }

    fn property(&mut self, n: Node, depth: u32) {
        let mut c = n.walk();
        let kids: Vec<Node> = n.named_children(&mut c).collect();
        let var = named(n, "variable_declaration");
        let declared = var.and_then(|v| {
            let mut c2 = v.walk();
            v.named_children(&mut c2).find(|x| is_type_node(x.kind()))
        });
        if let Some(t) = declared {
            self.type_refs(t, depth + 1);
        }
        let mut init_ty = None;
        for k in &kids {
            match k.kind() {
                "variable_declaration" | "modifiers" => {}
                kk if is_type_node(kk) => self.type_refs(*k, depth + 1),
                "getter" | "setter" | "property_delegate" => self.walk(*k, depth + 1),
                _ => {
                    init_ty = self.value(*k, depth + 1).and_then(|v| match v {
                        Val::Value(t) => t,
                        Val::Type(_) => None,
                    })
                }
            }
        }
        // A local: declared in the innermost scope (a member's type is the world's).
        if !self.this.is_empty() || self.scopes.len() > 1 {
            let ty = declared.and_then(|t| self.resolve(self.text(t), Pos::Param)).or(init_ty);
            if let Some(id) = var.and_then(|v| named(v, "identifier")) {
                let name = self.text(id).to_owned();
                self.declare(&name, ty);
            }
        }
    }

    fn expr(&mut self, n: Node, depth: u32) {
        let _ = self.value(n, depth);
    }

    /// Binds an expression's references; returns what it denotes when known.
    fn value(&mut self, n: Node, depth: u32) -> Option<Val> {
        if depth > MAX_DEPTH {
            return None;
        }
        let d = depth + 1;
        match n.kind() {
            "string_literal" | "multiline_string_literal" => {
                self.children(n, depth);
                Some(Val::Value(Some(Ty::class(crate::ty::STRING))))
            }
            "number_literal" => {
                let t = if self.text(n).ends_with(['L', 'l']) { "long" } else { "int" };
                Some(Val::Value(Some(Ty::Prim(t.into()))))
            }
            "float_literal" => Some(Val::Value(Some(Ty::Prim("double".into())))),
            "this_expression" => Some(Val::Value(self.this.last().cloned().flatten())),
            "parenthesized_expression" => {
                let inner = n.named_child(0)?;
                self.value(inner, d)
            }
            "as_expression" => {
                let mut c = n.walk();
                let kids: Vec<Node> = n.named_children(&mut c).collect();
                if let Some(e) = kids.first() {
                    self.value(*e, d);
                }
                let ty = kids.iter().skip(1).find(|x| is_type_node(x.kind())).copied();
                if let Some(t) = ty {
                    self.type_refs(t, d);
                }
                Some(Val::Value(ty.and_then(|t| self.resolve(self.text(t), Pos::Param))))
            }
            "identifier" => self.identifier(n),
            "navigation_expression" => self.navigation(n, d, false),
            "call_expression" => self.call(n, d),
            "assignment" => {
                let left = n.child_by_field_name("left");
                let right = n.child_by_field_name("right");
                let compound = n.child_by_field_name("operator").is_some_and(|o| self.text(o) != "=");
                if let Some(r) = right {
                    self.value(r, d);
                }
                if let Some(l) = left {
                    match l.kind() {
                        "navigation_expression" => {
                            if compound {
                                self.navigation(l, d, false);
                            }
                            self.navigation(l, d, true);
                        }
                        // `name = x` on a property of `this` (in a class, an `apply` block):
                        // its setter (its field when it has none).
                        "identifier"
                            if self.lookup_local(self.text(l)).is_none() && self.type_named(self.text(l)).is_none() =>
                        {
                            if let Some(this) = self.this.last().cloned().flatten() {
                                let name = self.text(l);
                                if compound {
                                    self.property_of(l, &this, name, false, None);
                                }
                                self.property_of(l, &this, name, true, None);
                            }
                        }
                        _ => {
                            self.value(l, d);
                        }
                    }
                }
                None
            }
            "if_expression" => {
                self.smart_cast_if(n, d);
                None
            }
            "when_expression" => {
                self.smart_cast_when(n, d);
                None
            }
            "lambda_literal"
            | "function_declaration"
            | "class_declaration"
            | "object_declaration"
            | "property_declaration" => {
                self.walk(n, d);
                None
            }
            _ => {
                self.children(n, depth);
                None
            }
        }
    }

    /// The name and type of a smart cast `name is Type` (not `!is`).
    fn is_check(&self, cond: Node) -> Option<(String, Option<Ty>)> {
        if cond.kind() != "is_expression" || self.text(cond).contains("!is") {
            return None;
        }
        let left = cond.child_by_field_name("left").filter(|l| l.kind() == "identifier")?;
        let right = cond.child_by_field_name("right")?;
        Some((self.text(left).to_owned(), self.resolve(self.text(right), Pos::Param)))
    }

    /// Binds `branch` with `cast` (a smart cast's name and type) declared in a scope of its own.
    fn with_cast(&mut self, branch: Node, cast: Option<&(String, Option<Ty>)>, depth: u32) {
        self.scopes.push(HashMap::new());
        if let Some((name, ty)) = cast {
            self.declare(name, ty.clone());
        }
        self.value(branch, depth);
        self.scopes.pop();
    }

    /// `if (x is Foo) x.bar() else …`: `x` is a `Foo` in the first branch (Kotlin's smart
    /// cast of a stable value).
    fn smart_cast_if(&mut self, n: Node, depth: u32) {
        let cond = n.child_by_field_name("condition");
        let cast = cond.and_then(|c| self.is_check(c));
        let mut c = n.walk();
        let kids: Vec<Node> = n.named_children(&mut c).collect();
        let mut first = true;
        for k in kids {
            if Some(k) == cond {
                self.value(k, depth);
                continue;
            }
            self.with_cast(k, if first { cast.as_ref() } else { None }, depth);
            first = false;
        }
    }

    /// `when (x) { is Foo -> x.bar() … }`: `x` is a `Foo` in that entry's body.
    fn smart_cast_when(&mut self, n: Node, depth: u32) {
        let subject = named(n, "when_subject")
            .and_then(|s| s.named_child(0))
            .filter(|s| s.kind() == "identifier")
            .map(|s| self.text(s).to_owned());
        let mut c = n.walk();
        let kids: Vec<Node> = n.named_children(&mut c).collect();
        for k in kids {
            if k.kind() != "when_entry" {
                self.value(k, depth);
                continue;
            }
            let mut c2 = k.walk();
            let conds: Vec<Node> = k.children_by_field_name("condition", &mut c2).collect();
            let cast = match (conds.as_slice(), &subject) {
                ([one], Some(name)) if one.kind() == "type_test" && !self.text(*one).starts_with("!is") => {
                    let ty = named(*one, "user_type")
                        .or_else(|| named(*one, "nullable_type"))
                        .and_then(|t| self.resolve(self.text(t), Pos::Param));
                    Some((name.clone(), ty))
                }
                _ => None,
            };
            let mut c3 = k.walk();
            let parts: Vec<Node> = k.named_children(&mut c3).collect();
            for p in parts {
                if conds.contains(&p) {
                    self.walk(p, depth);
                } else {
                    self.with_cast(p, cast.as_ref(), depth);
                }
            }
        }
    }

    /// A simple name in an expression: a local, a type, or a property of `this`.
    fn identifier(&mut self, n: Node) -> Option<Val> {
        let name = self.text(n);
        if let Some(t) = self.lookup_local(name) {
            return Some(Val::Value(t.clone()));
        }
        if let Some(ty) = self.type_named(name) {
            if let Ty::Class(fqn, _) = &ty
                && self.known(fqn)
            {
                self.emit(n, RefKind::Type, Category::Type, vec![fqn.to_string()], Confidence::Exact);
            }
            return Some(Val::Type(ty));
        }
        // A property of an enclosing class (`this` implicit).
        let this = self.this.last().cloned().flatten()?;
        self.property_of(n, &this, name, false, Some(Confidence::Exact))
    }

    /// `recv.name` (not called): a field, or a property through its getter (setter when
    /// `write`), on the receiver's type; on an untyped receiver, `likely` on every candidate.
    fn navigation(&mut self, n: Node, depth: u32, write: bool) -> Option<Val> {
        let mut c = n.walk();
        let kids: Vec<Node> = n.named_children(&mut c).collect();
        let (recv, name) = match kids.as_slice() {
            [r, .., last] if last.kind() == "identifier" => (*r, *last),
            _ => {
                self.children(n, depth);
                return None;
            }
        };
        let recv_val = self.value(recv, depth + 1);
        let prop = self.text(name);
        match recv_val {
            Some(Val::Type(ty)) => {
                // A static field, a nested type, or an object's / companion's property.
                if let Ty::Class(fqn, _) = &ty {
                    let nested = format!("{fqn}.{prop}");
                    if self.known(&nested) {
                        self.emit(name, RefKind::Type, Category::Type, vec![nested.clone()], Confidence::Exact);
                        return Some(Val::Type(Ty::class(&nested)));
                    }
                }
                if let Some(v) = self.property_of(name, &ty, prop, write, Some(Confidence::Exact)) {
                    return Some(v);
                }
                let companion = self.companion(&ty)?;
                self.property_of(name, &companion, prop, write, Some(Confidence::Exact))
            }
            Some(Val::Value(Some(ty))) => {
                if let Some(v) = self.property_of(name, &ty, prop, write, Some(Confidence::Exact)) {
                    return Some(v);
                }
                // A supertype the world cannot see may declare it: likely, never dropped.
                if self.w.hierarchy(&ty).iter().any(|(_, id)| id.is_none()) {
                    self.untyped_property(name, prop, write);
                    return Some(Val::Value(None));
                }
                None
            }
            _ => {
                // A package-qualified name (`java.util.List`) is no member access.
                let full: String = self.text(n).split_whitespace().collect();
                let first = full.split(['.', '?']).next().unwrap_or("");
                if self.lookup_local(first).is_none()
                    && let Some(TypeName::Class(fqn, _)) = self.w.resolve_qualified(&full)
                    && self.known(&fqn)
                {
                    self.emit(name, RefKind::Type, Category::Type, vec![fqn.clone()], Confidence::Exact);
                    return Some(Val::Type(Ty::class(&fqn)));
                }
                self.untyped_property(name, prop, write);
                Some(Val::Value(None))
            }
        }
    }

    /// The companion object's type of a class type, when it has one.
    fn companion(&self, ty: &Ty) -> Option<Ty> {
        let Ty::Class(fqn, _) = ty else { return None };
        let id = self.w.by_fqn(fqn)?;
        let f = self.w.decl(id).fields.iter().find(|f| f.generated && f.is_static && &*f.name != "INSTANCE")?;
        let c = format!("{fqn}.{}", f.name);
        self.w.by_fqn(&c).map(|_| Ty::class(&c))
    }

    /// `name` on `ty` as Kotlin's property syntax reads it: a field, else the getter
    /// (`getName`/`isName`, or the setter `setName` when `write`).
    fn property_of(&mut self, at: Node, ty: &Ty, name: &str, write: bool, conf: Option<Confidence>) -> Option<Val> {
        let conf = conf.unwrap_or(Confidence::Exact);
        let field = match self.w.find_field(ty, name) {
            crate::world::Lookup::Found(hit) => Some(hit),
            _ => None,
        };
        // A field that is not public (a Kotlin property's backing field, a Java bean's private
        // field) is read through the property's accessors when there are (Kotlin's property
        // syntax for Java's getters and setters); a public field is read as a field.
        let hidden = field.as_ref().is_some_and(|h| !h.decl.is_public_api);
        if hidden && let Some(v) = self.accessor(at, ty, name, write, conf) {
            return Some(v);
        }
        if let Some(hit) = field {
            let key = self.w.field_key(hit.owner, hit.decl);
            let kind = if write { RefKind::FieldWrite } else { RefKind::FieldRead };
            let t = self.w.resolve_text(&hit.decl.ty, &self.w.ctx_in(hit.owner)).map(|t| substitute(&t, &hit.subst));
            self.emit(at, kind, Category::Field, vec![key], conf);
            return Some(Val::Value(t));
        }
        self.accessor(at, ty, name, write, conf)
    }

    /// `name` on `ty` through its getter (`getName`/`isName`) or setter (`setName`).
    fn accessor(&mut self, at: Node, ty: &Ty, name: &str, write: bool, conf: Confidence) -> Option<Val> {
        let accessors: Vec<String> = match write {
            true if name.len() > 2 && name.starts_with("is") && name[2..].starts_with(char::is_uppercase) => {
                vec![format!("set{}", &name[2..])]
            }
            true => vec![format!("set{}", cap(name))],
            false => vec![format!("get{}", cap(name)), format!("is{}", cap(name)), name.to_owned()],
        };
        let arity = usize::from(write);
        for acc in &accessors {
            let (hits, _) = self.w.find_methods(ty, acc);
            let hits: Vec<MemberHit<MethodSym>> = hits.into_iter().filter(|h| h.decl.params.len() == arity).collect();
            // `isX` is a getter only for a property named `isX` (`name` itself) or a boolean.
            if hits.is_empty() || (acc == name && !name.starts_with("is")) {
                continue;
            }
            let keys: Vec<String> = hits.iter().map(|h| self.w.method_key(h.owner, h.decl)).collect();
            let ret = (hits.len() == 1).then(|| self.ret(&hits[0])).flatten();
            let conf = if hits.len() == 1 { conf } else { Confidence::Likely };
            self.emit(at, RefKind::Call, Category::Method, keys, conf);
            return Some(Val::Value(ret));
        }
        None
    }

    /// A property on a receiver whose type is not known: `likely`, on every workspace type's
    /// field or accessor of that name.
    fn untyped_property(&mut self, at: Node, name: &str, write: bool) {
        let mut keys = Vec::new();
        for id in self.w.types_with_field(name).iter().take(MAX_CANDIDATES) {
            if let Some(f) = self.w.decl(*id).fields.iter().find(|f| &*f.name == name && !f.is_static) {
                keys.push(self.w.field_key(*id, f));
            }
        }
        let accessors: Vec<String> = match write {
            true => vec![format!("set{}", cap(name))],
            false => vec![format!("get{}", cap(name)), format!("is{}", cap(name))],
        };
        let arity = usize::from(write);
        for acc in &accessors {
            for id in self.w.types_with_method(acc).iter().take(MAX_CANDIDATES) {
                for m in self.w.decl(*id).methods.iter().filter(|m| *m.name == **acc && m.params.len() == arity) {
                    keys.push(self.w.method_key(*id, m));
                }
            }
        }
        keys.sort();
        keys.dedup();
        let category = if keys.iter().all(|k| !k.contains('(')) { Category::Field } else { Category::Method };
        self.emit(at, RefKind::Call, category, keys, Confidence::Likely);
    }

    /// The return type of a method hit, as seen from where it was looked up.
    fn ret(&self, hit: &MemberHit<MethodSym>) -> Option<Ty> {
        if hit.decl.tparams.iter().any(|t| matches!(&hit.decl.ret, TyText::Named { name, .. } if *name == t.name)) {
            return None;
        }
        let t = self.w.resolve_text(&hit.decl.ret, &self.w.ctx_in(hit.owner))?;
        Some(substitute(&t, &hit.subst))
    }

    /// The number of arguments of a call (a trailing lambda counts).
    fn arity(&self, call: Node) -> usize {
        let mut c = call.walk();
        let mut n = 0;
        for k in call.named_children(&mut c) {
            match k.kind() {
                "value_arguments" => {
                    let mut c2 = k.walk();
                    n += k.named_children(&mut c2).filter(|a| a.kind() == "value_argument").count();
                }
                "annotated_lambda" | "lambda_literal" => n += 1,
                _ => {}
            }
        }
        n
    }

    /// The hits a call of `arity` arguments can bind to: parameter counts equal (varargs:
    /// at least all but the last; a Kotlin function's defaults: at most).
    fn by_arity<'w>(&self, hits: Vec<MemberHit<'w, MethodSym>>, arity: usize) -> Vec<MemberHit<'w, MethodSym>> {
        let exact: Vec<MemberHit<MethodSym>> = hits
            .iter()
            .filter(|h| h.decl.params.len() == arity || (h.decl.varargs && arity + 1 >= h.decl.params.len()))
            .cloned()
            .collect();
        if !exact.is_empty() {
            return exact;
        }
        // Kotlin's default arguments: fewer arguments than parameters.
        hits.into_iter()
            .filter(|h| {
                h.decl.params.len() > arity
                    && self.w.files.get(self.w.file_of(h.owner) as usize).is_some_and(|f| super::is_kotlin(&f.path))
            })
            .collect()
    }

    fn call(&mut self, n: Node, depth: u32) -> Option<Val> {
        let callee = n.named_child(0)?;
        let arity = self.arity(n);
        let val = match callee.kind() {
            "identifier" => {
                let name = self.text(callee);
                let args = self.arg_types(n, depth);
                if self.lookup_local(name).is_some() {
                    // A local function value (`f(1)`): `invoke`, not bound.
                    None
                } else if let Some(ty) = self.type_named(name) {
                    // A constructor call (no `new`).
                    let vargs = named(n, "value_arguments");
                    if let Ty::Class(fqn, _) = &ty
                        && self.known(fqn)
                    {
                        self.emit(callee, RefKind::New, Category::Type, vec![fqn.to_string()], Confidence::Exact);
                        self.ctor_call(callee, &ty, vargs, depth, RefKind::New);
                    }
                    Some(Val::Value(Some(ty)))
                } else {
                    self.implicit_call(callee, name, arity, &args)
                }
            }
            "navigation_expression" => {
                let mut c = callee.walk();
                let kids: Vec<Node> = callee.named_children(&mut c).collect();
                match kids.as_slice() {
                    [recv, .., last] if last.kind() == "identifier" => {
                        let name = self.text(*last);
                        let rv = self.value(*recv, depth + 1);
                        let args = self.arg_types(n, depth);
                        if let Some(std) = self.stdlib_call(&rv, name, n) {
                            let last_ty = self.trailing_lambdas(n, depth, std.this, std.it);
                            return Some(Val::Value(if std.ret_of_lambda { last_ty } else { std.ret }));
                        }
                        let elem = self.element_lambda(&rv, name);
                        let v = self.member_call(*last, rv, name, arity, &args);
                        self.trailing_lambdas(n, depth, None, elem);
                        return v;
                    }
                    _ => {
                        self.value(callee, depth + 1);
                        None
                    }
                }
            }
            // `with(x) { … }`: the lambda's `this` is `x`.
            "call_expression"
                if callee.named_child(0).is_some_and(|f| f.kind() == "identifier" && self.text(f) == "with")
                    && self.lookup_local("with").is_none()
                    && self.arity(callee) == 1
                    && has_trailing_lambda(n) =>
            {
                let recv = named(callee, "value_arguments")
                    .and_then(|a| a.named_child(0))
                    .and_then(|a| a.named_child(a.named_child_count().saturating_sub(1) as u32));
                let rv = recv.and_then(|r| self.value(r, depth + 1));
                let this = match rv {
                    Some(Val::Value(t)) => t,
                    _ => None,
                };
                let last_ty = self.trailing_lambdas(n, depth, Some(this), None);
                return Some(Val::Value(last_ty));
            }
            _ => {
                self.value(callee, depth + 1);
                None
            }
        };
        self.trailing_lambdas(n, depth, None, None);
        val
    }

    /// Binds a call's value arguments (not its trailing lambdas); returns their types in
    /// order, None for a type not known or when an argument is named (`f(x = 1)`).
    fn arg_types(&mut self, call: Node, depth: u32) -> Option<Vec<Option<Ty>>> {
        let mut out = Some(Vec::new());
        let mut c = call.walk();
        let kids: Vec<Node> = call.named_children(&mut c).collect();
        for k in kids {
            match k.kind() {
                "value_arguments" => {
                    let mut c2 = k.walk();
                    let vs: Vec<Node> = k.named_children(&mut c2).collect();
                    for v in vs {
                        if v.kind() != "value_argument" {
                            self.walk(v, depth + 1);
                            continue;
                        }
                        let mut c3 = v.walk();
                        let named_arg = v.children(&mut c3).any(|x| !x.is_named() && x.kind() == "=");
                        let spread = self.text(v).trim_start().starts_with('*');
                        let expr = v.named_child(v.named_child_count().saturating_sub(1) as u32);
                        let ty = expr.and_then(|e| self.value(e, depth + 2)).and_then(|x| match x {
                            Val::Value(t) => t,
                            Val::Type(_) => None,
                        });
                        if named_arg || spread {
                            out = None;
                        } else if let Some(o) = out.as_mut() {
                            o.push(ty);
                        }
                    }
                }
                "type_arguments" => self.type_refs(k, depth + 1),
                _ => {}
            }
        }
        out
    }

    /// Walks a call's trailing lambdas, the first with `this` (when Some) and `it` (its one
    /// parameter) typed; returns the type of the last one's last statement when known.
    fn trailing_lambdas(&mut self, call: Node, depth: u32, this: Option<Option<Ty>>, it: Option<Ty>) -> Option<Ty> {
        let mut c = call.walk();
        let kids: Vec<Node> = call.named_children(&mut c).collect();
        let mut last = None;
        for k in kids {
            let lambda = match k.kind() {
                "annotated_lambda" => named(k, "lambda_literal"),
                "lambda_literal" => Some(k),
                _ => None,
            };
            if let Some(l) = lambda {
                last = self.lambda(l, depth + 1, this.clone(), it.clone());
            }
        }
        last
    }

    /// A lambda's body with its `this` (pushed when Some) and its one parameter's (or `it`'s)
    /// type; returns the type of its last statement when known.
    fn lambda(&mut self, n: Node, depth: u32, this: Option<Option<Ty>>, it: Option<Ty>) -> Option<Ty> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.scopes.push(HashMap::new());
        let pushed = this.is_some();
        if let Some(t) = this {
            self.this.push(t);
        }
        let mut params = 0;
        if let Some(ps) = named(n, "lambda_parameters") {
            let mut c = ps.walk();
            let all: Vec<Node> = ps.named_children(&mut c).collect();
            let single = all.len() == 1;
            for p in all {
                if let Some(id) = named(p, "identifier").or((p.kind() == "identifier").then_some(p)) {
                    params += 1;
                    let ty = {
                        let mut c2 = p.walk();
                        p.named_children(&mut c2)
                            .find(|x| is_type_node(x.kind()))
                            .and_then(|t| self.resolve(self.text(t), Pos::Param))
                    };
                    // An untyped single parameter is what `it` would be.
                    let ty = ty.or_else(|| if single { it.clone() } else { None });
                    self.declare(self.text(id), ty);
                }
            }
        }
        // Its parameters' types are not inferred past `it`: declared untyped, so they shadow.
        self.declare("it", if params == 0 { it } else { None });
        let mut c = n.walk();
        let kids: Vec<Node> = n.named_children(&mut c).filter(|k| k.kind() != "lambda_parameters").collect();
        let mut last = None;
        for k in kids {
            last = self.value(k, depth + 1).and_then(|v| match v {
                Val::Value(t) => t,
                Val::Type(_) => None,
            });
        }
        if pushed {
            self.this.pop();
        }
        self.scopes.pop();
        last
    }

    /// The element type of an `Iterable<E>` or an array type.
    fn element_of(&self, ty: &Ty) -> Option<Ty> {
        let e = match ty {
            Ty::Array(e) => (**e).clone(),
            _ => self.w.hierarchy(ty).into_iter().find_map(|(t, _)| match t {
                Ty::Class(f, args) if &*f == "java.lang.Iterable" && args.len() == 1 => args.into_iter().next(),
                _ => None,
            })?,
        };
        match e {
            // `? extends X` reads as X.
            Ty::Var(n, bound) if &*n == crate::ty::WILDCARD => Some(*bound),
            Ty::Var(..) | Ty::Null => None,
            t => Some(t),
        }
    }

    /// The `it` of the lambda of a collection function `name` on `rv`.
    fn element_lambda(&self, rv: &Option<Val>, name: &str) -> Option<Ty> {
        let Some(Val::Value(Some(ty))) = rv else { return None };
        ELEMENT_FUNCTIONS.iter().any(|(f, _)| *f == name).then(|| self.element_of(ty)).flatten()
    }

    /// `recv.name { … }` where `name` is a standard library scope function or collection
    /// function the receiver's type does not declare as a member: what its lambda and value
    /// are. None for another call (bound as a member call).
    fn stdlib_call(&self, rv: &Option<Val>, name: &str, call: Node) -> Option<StdCall> {
        if !has_trailing_lambda(call) || self.arity(call) != 1 {
            return None;
        }
        let recv = match rv {
            Some(Val::Value(t)) => t.clone(),
            // `Foo.apply { }` on a type (its companion): not a scope function call we type.
            Some(Val::Type(_)) => return None,
            None => None,
        };
        if let Some(ty) = &recv
            && !self.w.find_methods(ty, name).0.is_empty()
        {
            return None;
        }
        if let Some((_, this, of_lambda)) = SCOPE_FUNCTIONS.iter().find(|(f, ..)| *f == name) {
            return Some(StdCall {
                this: this.then(|| recv.clone()),
                it: (!this).then(|| recv.clone()).flatten(),
                ret: (!of_lambda).then_some(recv).flatten(),
                ret_of_lambda: *of_lambda,
            });
        }
        let (_, value) = ELEMENT_FUNCTIONS.iter().find(|(f, _)| *f == name)?;
        let elem = self.element_of(recv.as_ref()?)?;
        let ret = match value {
            ElemValue::Element => Some(elem.clone()),
            ElemValue::List => Some(Ty::Class("java.util.List".into(), vec![elem.clone()])),
            ElemValue::Unknown => None,
        };
        Some(StdCall { this: None, it: Some(elem), ret, ret_of_lambda: false })
    }

    /// The hits whose parameters the arguments' known types can be passed to (Kotlin's
    /// `Int` to `int`, `Integer`, `long`…); all of them when none fits or the types are not
    /// known.
    fn by_args<'w>(
        &self,
        hits: Vec<MemberHit<'w, MethodSym>>,
        args: &Option<Vec<Option<Ty>>>,
    ) -> Vec<MemberHit<'w, MethodSym>> {
        let Some(args) = args else { return hits };
        if hits.len() < 2 || args.iter().all(Option::is_none) {
            return hits;
        }
        let fits: Vec<MemberHit<MethodSym>> = hits
            .iter()
            .filter(|h| {
                let ctx = self.w.ctx_in(h.owner);
                args.iter().zip(&h.decl.params).all(|(a, p)| {
                    let (Some(a), Some(p)) = (a, self.w.resolve_text(p, &ctx)) else { return true };
                    let p = substitute(&p, &h.subst);
                    // A vararg parameter takes its element too.
                    let p = match (&p, h.decl.varargs) {
                        (Ty::Array(e), true) if !matches!(a, Ty::Array(_)) => (**e).clone(),
                        _ => p,
                    };
                    self.w.assignable(a, &p, true).unwrap_or(true)
                })
            })
            .cloned()
            .collect();
        if fits.is_empty() { hits } else { fits }
    }

    /// A constructor call of `ty` at `at` with `args`.
    fn ctor_call(&mut self, at: Node, ty: &Ty, args: Option<Node>, _depth: u32, kind: RefKind) {
        let Ty::Class(fqn, _) = ty else { return };
        let Some(id) = self.w.by_fqn(fqn) else { return };
        let arity = args.map_or(0, |a| {
            let mut c = a.walk();
            a.named_children(&mut c).filter(|x| x.kind() == "value_argument").count()
        });
        let decl = self.w.decl(id);
        let hits: Vec<MemberHit<MethodSym>> =
            decl.ctors.iter().map(|m| MemberHit { owner: id, decl: m, subst: Vec::new() }).collect();
        let hits = self.by_arity(hits, arity);
        let keys: Vec<String> = hits.iter().map(|h| self.w.method_key(h.owner, h.decl)).collect();
        let conf = if keys.len() == 1 { Confidence::Exact } else { Confidence::Likely };
        self.emit(at, kind, Category::Ctor, keys, conf);
    }

    /// `name(args)` without a receiver: a method of an enclosing class (or an extension
    /// receiver's), else a top-level function of the workspace's Kotlin (`likely` unless one
    /// candidate in the file's package or imports).
    fn implicit_call(&mut self, at: Node, name: &str, arity: usize, args: &Option<Vec<Option<Ty>>>) -> Option<Val> {
        let thises: Vec<Ty> = self.this.iter().rev().flatten().cloned().collect();
        for this in &thises {
            let (hits, _) = self.w.find_methods(this, name);
            let hits = self.by_args(self.by_arity(hits, arity), args);
            if !hits.is_empty() {
                return Some(self.emit_hits(at, hits, Confidence::Exact));
            }
        }
        // An imported member (a Java static, an object's function): `import a.B.m`, `a.B.*`.
        let imported: Vec<(String, String)> = self
            .member_imports
            .iter()
            .filter(|(local, ..)| local == name)
            .map(|(_, owner, member)| (owner.clone(), member.clone()))
            .chain(self.member_stars.iter().map(|owner| (owner.clone(), name.to_owned())))
            .collect();
        for (owner, member) in &imported {
            let (hits, _) = self.w.find_methods(&Ty::class(owner), member);
            let hits = self.by_args(self.by_arity(hits, arity), args);
            if !hits.is_empty() {
                return Some(self.emit_hits(at, hits, Confidence::Exact));
            }
        }
        // Top-level functions: static methods of Kotlin facades.
        let mut hits = Vec::new();
        for id in self.w.types_with_method(name).iter().take(MAX_CANDIDATES * 4) {
            let decl = self.w.decl(*id);
            let in_kotlin = self.w.files.get(self.w.file_of(*id) as usize).is_some_and(|f| super::is_kotlin(&f.path));
            if !in_kotlin || decl.outer.is_some() || !decl.fqn.ends_with("Kt") && !self.facade(*id) {
                continue;
            }
            for m in decl.methods.iter().filter(|m| *m.name == *name && m.is_static) {
                hits.push(MemberHit { owner: *id, decl: m, subst: Vec::new() });
            }
        }
        let hits = self.by_args(self.by_arity(hits, arity), args);
        if hits.is_empty() {
            return None;
        }
        let visible = hits.iter().all(|h| {
            let pkg = self.w.package_of(h.owner).unwrap_or("");
            pkg == self.package
        });
        let conf = if visible { Confidence::Exact } else { Confidence::Likely };
        Some(self.emit_hits(at, hits, conf))
    }

    /// Whether a type is a Kotlin file's facade class (named by `@file:JvmName`).
    fn facade(&self, id: TypeId) -> bool {
        let d = self.w.decl(id);
        d.ctors.is_empty() && d.is_final && d.methods.iter().all(|m| m.is_static)
    }

    /// Emits a call of `hits` (exact when one, else likely) and returns its value.
    fn emit_hits(&mut self, at: Node, hits: Vec<MemberHit<MethodSym>>, conf: Confidence) -> Val {
        let mut keys: Vec<String> = hits.iter().map(|h| self.w.method_key(h.owner, h.decl)).collect();
        keys.sort();
        keys.dedup();
        // Several overloads with one return type (`getAsyncManager(ServletRequest)` and
        // `getAsyncManager(WebRequest)`): the call's value has it.
        let rets: Vec<Option<Ty>> = hits.iter().map(|h| self.ret(h)).collect();
        let ret = match rets.first() {
            Some(Some(first)) if rets.iter().all(|r| r.as_ref() == Some(first)) => Some(first.clone()),
            _ => None,
        };
        let conf = if keys.len() == 1 { conf } else { Confidence::Likely };
        keys.truncate(MAX_CANDIDATES);
        self.emit(at, RefKind::Call, Category::Method, keys, conf);
        Val::Value(ret)
    }

    /// `recv.name(args)`.
    fn member_call(
        &mut self,
        at: Node,
        recv: Option<Val>,
        name: &str,
        arity: usize,
        args: &Option<Vec<Option<Ty>>>,
    ) -> Option<Val> {
        match recv {
            Some(Val::Type(ty)) => {
                // A static method, an object's method, or a companion's.
                let (hits, _) = self.w.find_methods(&ty, name);
                let hits = self.by_args(self.by_arity(hits, arity), args);
                if !hits.is_empty() {
                    return Some(self.emit_hits(at, hits, Confidence::Exact));
                }
                let companion = self.companion(&ty)?;
                let (hits, _) = self.w.find_methods(&companion, name);
                let hits = self.by_args(self.by_arity(hits, arity), args);
                (!hits.is_empty()).then(|| self.emit_hits(at, hits, Confidence::Exact))
            }
            Some(Val::Value(Some(ty))) => {
                let (hits, complete) = self.w.find_methods(&ty, name);
                let hits = self.by_args(self.by_arity(hits, arity), args);
                if !hits.is_empty() {
                    // A supertype the world cannot see may declare an overload too.
                    let conf = if complete { Confidence::Exact } else { Confidence::Likely };
                    return Some(self.emit_hits(at, hits, conf));
                }
                if let Some(v) = self.extension_call(at, &ty, name, arity) {
                    return Some(v);
                }
                // A supertype the world cannot see may declare it: likely, never dropped.
                if !complete {
                    return self.untyped_call(at, name, arity);
                }
                Some(Val::Value(None))
            }
            _ => self.untyped_call(at, name, arity),
        }
    }

    /// A call on a receiver whose type is not known: every workspace method of that name and
    /// arity, likely.
    fn untyped_call(&mut self, at: Node, name: &str, arity: usize) -> Option<Val> {
        let mut hits = Vec::new();
        for id in self.w.types_with_method(name).iter().take(MAX_CANDIDATES) {
            for m in self.w.decl(*id).methods.iter().filter(|m| *m.name == *name && !m.is_static) {
                hits.push(MemberHit { owner: *id, decl: m, subst: Vec::new() });
            }
        }
        let hits = self.by_arity(hits, arity);
        if hits.is_empty() {
            return Some(Val::Value(None));
        }
        self.emit_hits(at, hits, Confidence::Likely);
        Some(Val::Value(None))
    }

    /// `recv.f(args)` where `f` is a Kotlin extension function: a facade's static method whose
    /// first parameter the receiver's type is assignable to.
    fn extension_call(&mut self, at: Node, ty: &Ty, name: &str, arity: usize) -> Option<Val> {
        let mut hits = Vec::new();
        for id in self.w.types_with_method(name).iter().take(MAX_CANDIDATES * 4) {
            let in_kotlin = self.w.files.get(self.w.file_of(*id) as usize).is_some_and(|f| super::is_kotlin(&f.path));
            if !in_kotlin {
                continue;
            }
            for m in self.w.decl(*id).methods.iter().filter(|m| *m.name == *name && m.is_static && !m.params.is_empty())
            {
                let first = self.w.resolve_text(&m.params[0], &self.w.ctx_in(*id));
                let fits = match first {
                    Some(p) => self.w.assignable(ty, &p, true).unwrap_or(true),
                    None => true,
                };
                if fits {
                    hits.push(MemberHit { owner: *id, decl: m, subst: Vec::new() });
                }
            }
        }
        let hits = self.by_arity(hits, arity + 1);
        if hits.is_empty() {
            return None;
        }
        Some(self.emit_hits(at, hits, Confidence::Exact))
    }
}
