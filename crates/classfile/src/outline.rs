//! A class file (and its member classes) as the outline sources give: `FileOutline` /
//! `TypeDecl` with types rendered as Java source text (qualified), lines 0 (a class file has
//! no declaration lines; the wire writes them `null`) and a warning in `errors` that says so.

use mji_model::{
    Callable, CtorDecl, Diagnostic, EnumConstant, FieldDecl, FileOutline, Javadoc, Level, MethodDecl, Param,
    RecordComponent, SymbolId, SymbolKind, TypeDecl, TypeKind,
};

use crate::reader::{ClassFile, Member, acc};
use crate::signature::{self, internal_to_source};

/// Member classes nested deeper than this are not outlined.
const MAX_NESTING: usize = 32;
/// At most this many member classes are read for one outline (each class file is read once:
/// a class naming itself, or a cycle, as its member is not followed).
const MAX_MEMBER_CLASSES: usize = 4_096;

/// What one outline walk has read, so hostile `InnerClasses` cannot make it loop or explode.
struct Walk<'a> {
    load: &'a mut dyn FnMut(&str) -> Option<Vec<u8>>,
    seen: std::collections::HashSet<String>,
    errors: Vec<Diagnostic>,
}

/// The warning every outline from a class file carries.
pub const NO_LINES: &str =
    "outlined from a class file: no source lines (every startLine/endLine is null) and no javadoc";

/// Outlines `cf`, reading its member classes through `load` (internal name -> class bytes).
pub fn outline(
    file_path: String,
    hash: String,
    cf: &ClassFile,
    load: &mut dyn FnMut(&str) -> Option<Vec<u8>>,
) -> FileOutline {
    let package = cf.this_class.rfind('/').map(|i| cf.this_class[..i].replace('/', "."));
    let mut w = Walk {
        load,
        seen: std::iter::once(cf.this_class.clone()).collect(),
        errors: vec![Diagnostic { level: Level::Warning, message: NO_LINES.to_owned(), line: None }],
    };
    let t = type_decl(cf, None, &mut w, 0);
    let errors = w.errors;
    FileOutline { file_path, language: "java".to_owned(), hash, line_count: 0, package, classes: vec![t], errors }
}

fn flags_of(access: u16, kind: TypeKind, nested: bool, sealed: bool) -> Vec<String> {
    let mut m = Vec::new();
    for (bit, word) in [(acc::PUBLIC, "public"), (acc::PROTECTED, "protected"), (acc::PRIVATE, "private")] {
        if access & bit != 0 {
            m.push(word.to_owned());
        }
    }
    let iface = matches!(kind, TypeKind::Interface | TypeKind::Annotation);
    if access & acc::ABSTRACT != 0 && !iface && kind != TypeKind::Enum {
        m.push("abstract".to_owned());
    }
    if nested && access & acc::STATIC != 0 && !iface && !matches!(kind, TypeKind::Enum | TypeKind::Record) {
        m.push("static".to_owned());
    }
    if access & acc::FINAL != 0 && !matches!(kind, TypeKind::Enum | TypeKind::Record) {
        m.push("final".to_owned());
    }
    if sealed {
        m.push("sealed".to_owned());
    }
    m
}

fn type_decl(cf: &ClassFile, inner_access: Option<u16>, w: &mut Walk, depth: usize) -> TypeDecl {
    let access = inner_access.unwrap_or(cf.access);
    let kind = if cf.access & acc::ANNOTATION != 0 {
        TypeKind::Annotation
    } else if cf.access & acc::INTERFACE != 0 {
        TypeKind::Interface
    } else if cf.access & acc::ENUM != 0 && cf.super_class.as_deref() == Some("java/lang/Enum") {
        TypeKind::Enum
    } else if cf.record.is_some() {
        TypeKind::Record
    } else {
        TypeKind::Class
    };
    let qualified = internal_to_source(&cf.this_class);
    let name = cf
        .inner_classes
        .iter()
        .find(|ic| ic.inner == cf.this_class)
        .and_then(|ic| ic.simple_name.clone())
        .unwrap_or_else(|| qualified.rsplit('.').next().unwrap_or(&qualified).to_owned());
    let modifiers = flags_of(access, kind, inner_access.is_some(), !cf.permitted.is_empty());
    let mut annotations: Vec<String> = cf.annotations.iter().map(|a| format!("@{a}")).collect();
    if cf.deprecated && !cf.annotations.iter().any(|a| a == "java.lang.Deprecated") {
        annotations.push("@java.lang.Deprecated".to_owned());
    }
    let mut t = TypeDecl::header(kind, name, qualified.clone(), (modifiers, annotations), (0, 0), Javadoc::absent());
    let sig = cf.signature.as_deref().and_then(signature::class);
    let (superclass, interfaces) = match &sig {
        Some(s) => {
            t.type_params_text = s.type_params.clone();
            (Some(s.superclass.clone()), s.interfaces.clone())
        }
        None => (
            cf.super_class.as_deref().map(internal_to_source),
            cf.interfaces.iter().map(|i| internal_to_source(i)).collect(),
        ),
    };
    if kind == TypeKind::Class {
        t.extends = superclass.filter(|s| s != "java.lang.Object");
    }
    t.implements = interfaces
        .into_iter()
        .filter(|i| !(kind == TypeKind::Annotation && i == "java.lang.annotation.Annotation"))
        .collect();
    t.permits = cf.permitted.iter().map(|p| internal_to_source(p)).collect();

    let record_names: Vec<&str> = cf.record.iter().flatten().map(|(n, _, _)| n.as_str()).collect();
    if let Some(comps) = &cf.record {
        t.record_components = Some(
            comps
                .iter()
                .map(|(n, d, s)| RecordComponent {
                    name: n.clone(),
                    type_text: s.as_deref().or(Some(d)).and_then(signature::field_type).unwrap_or_else(|| d.clone()),
                })
                .collect(),
        );
    }
    let mut constants = Vec::new();
    for f in &cf.fields {
        if f.access & acc::SYNTHETIC != 0 {
            continue;
        }
        if f.access & acc::ENUM != 0 {
            constants.push(EnumConstant {
                symbol_id: SymbolId::member(SymbolKind::EnumConstant, &qualified, f.name.clone(), 0, 0).to_string(),
                name: f.name.clone(),
                start_line: 0,
                end_line: 0,
                javadoc: Javadoc::absent(),
            });
            continue;
        }
        if kind == TypeKind::Record && f.access & acc::STATIC == 0 && record_names.contains(&f.name.as_str()) {
            continue;
        }
        t.fields.push(field(f, &qualified, kind));
    }
    if kind == TypeKind::Enum {
        t.enum_constants = Some(constants);
    }
    let synthetic_lead = synthetic_ctor_params(kind, inner_access);
    for m in &cf.methods {
        if m.access & (acc::SYNTHETIC | acc::BRIDGE) != 0 || m.name == "<clinit>" {
            continue;
        }
        let Some(c) = callable(m, &t.name, kind, synthetic_lead) else {
            w.errors.push(Diagnostic {
                level: Level::Warning,
                message: format!("{qualified}: unreadable descriptor of `{}` skipped", m.name),
                line: None,
            });
            continue;
        };
        if m.name == "<init>" {
            let types = c.params.iter().map(|p| p.type_text.as_str()).collect::<Vec<_>>().join(",");
            let id = SymbolId::member(SymbolKind::Ctor, &qualified, SymbolId::ctor_member(&c.name, &types), 0, 0);
            let sig = c.signature(None);
            t.constructors.push(CtorDecl::new(c, id.to_string(), sig, false));
        } else {
            let ret = m
                .signature
                .as_deref()
                .and_then(signature::method)
                .or_else(|| signature::method(&m.descriptor))
                .map(|s| s.ret)
                .unwrap_or_default();
            let types = c.params.iter().map(|p| p.type_text.as_str()).collect::<Vec<_>>().join(",");
            let id =
                SymbolId::member(SymbolKind::Method, &qualified, SymbolId::method_member(&c.name, &types, &ret), 0, 0);
            let sig = c.signature(Some(&ret));
            t.methods.push(MethodDecl::new(c, id.to_string(), sig, ret));
        }
    }
    if depth < MAX_NESTING {
        for ic in &cf.inner_classes {
            if ic.outer.as_deref() != Some(cf.this_class.as_str()) || ic.simple_name.is_none() {
                continue;
            }
            if ic.access & acc::SYNTHETIC != 0 || w.seen.contains(&ic.inner) {
                continue;
            }
            if w.seen.len() >= MAX_MEMBER_CLASSES {
                w.errors.push(Diagnostic {
                    level: Level::Error,
                    message: format!("more than {MAX_MEMBER_CLASSES} member classes: the rest are not outlined"),
                    line: None,
                });
                break;
            }
            w.seen.insert(ic.inner.clone());
            let Some(bytes) = (w.load)(&ic.inner) else {
                w.errors.push(Diagnostic {
                    level: Level::Warning,
                    message: format!("member class {} not found beside its outer class", internal_to_source(&ic.inner)),
                    line: None,
                });
                continue;
            };
            match crate::reader::parse(&bytes) {
                Ok(inner) => t.inner_classes.push(type_decl(&inner, Some(ic.access), w, depth + 1)),
                Err(e) => w.errors.push(Diagnostic {
                    level: Level::Warning,
                    message: format!("member class {}: {e}", internal_to_source(&ic.inner)),
                    line: None,
                }),
            }
        }
    } else {
        w.errors.push(Diagnostic {
            level: Level::Error,
            message: format!("member classes nested deeper than {MAX_NESTING} are not outlined"),
            line: None,
        });
    }
    t
}

/// How many leading descriptor parameters of a constructor javac added (an enum's name and
/// ordinal, an inner class's outer instance), used when no `Signature` names the declared ones.
fn synthetic_ctor_params(kind: TypeKind, inner_access: Option<u16>) -> usize {
    match kind {
        TypeKind::Enum => 2,
        TypeKind::Class if inner_access.is_some_and(|a| a & acc::STATIC == 0) => 1,
        _ => 0,
    }
}

fn member_modifiers(m: &Member, method: bool, kind: TypeKind) -> Vec<String> {
    let iface = matches!(kind, TypeKind::Interface | TypeKind::Annotation);
    let mut out = Vec::new();
    let mut add = |bit: u16, word: &str| {
        if m.access & bit != 0 {
            out.push(word.to_owned());
        }
    };
    add(acc::PUBLIC, "public");
    add(acc::PROTECTED, "protected");
    add(acc::PRIVATE, "private");
    if method {
        add(acc::ABSTRACT, "abstract");
        add(acc::STATIC, "static");
        add(acc::FINAL, "final");
        add(acc::SYNCHRONIZED, "synchronized");
        add(acc::NATIVE, "native");
        if iface && m.access & (acc::ABSTRACT | acc::STATIC | acc::PRIVATE) == 0 && m.name != "<clinit>" {
            out.push("default".to_owned());
        }
    } else {
        add(acc::STATIC, "static");
        add(acc::FINAL, "final");
        add(acc::TRANSIENT, "transient");
        add(acc::VOLATILE, "volatile");
    }
    out
}

fn member_annotations(m: &Member) -> Vec<String> {
    let mut a: Vec<String> = m.annotations.iter().map(|a| format!("@{a}")).collect();
    if m.deprecated && !m.annotations.iter().any(|x| x == "java.lang.Deprecated") {
        a.push("@java.lang.Deprecated".to_owned());
    }
    a
}

fn field(f: &Member, owner: &str, kind: TypeKind) -> FieldDecl {
    let type_text = f
        .signature
        .as_deref()
        .and_then(signature::field_type)
        .or_else(|| signature::field_type(&f.descriptor))
        .unwrap_or_else(|| f.descriptor.clone());
    FieldDecl {
        symbol_id: SymbolId::member(SymbolKind::Field, owner, f.name.clone(), 0, 0).to_string(),
        kind: "field".to_owned(),
        name: f.name.clone(),
        type_text,
        modifiers: member_modifiers(f, false, kind),
        annotations: member_annotations(f),
        start_line: 0,
        end_line: 0,
        javadoc: Javadoc::absent(),
        generated: None,
        generated_by: None,
    }
}

/// A method or constructor; `None` when its descriptor does not parse.
fn callable(m: &Member, type_name: &str, kind: TypeKind, synthetic_lead: usize) -> Option<Callable> {
    let desc = signature::method(&m.descriptor)?;
    let generic = m.signature.as_deref().and_then(signature::method);
    let n_desc = desc.params.len();
    let (type_params, mut types, throws) = match generic {
        Some(g) if g.params.len() <= n_desc => {
            let throws = if g.throws.is_empty() {
                m.exceptions.iter().map(|e| internal_to_source(e)).collect()
            } else {
                g.throws
            };
            (g.type_params, g.params, throws)
        }
        _ => {
            let lead = if m.name == "<init>" { synthetic_lead.min(n_desc) } else { 0 };
            (None, desc.params[lead..].to_vec(), m.exceptions.iter().map(|e| internal_to_source(e)).collect())
        }
    };
    // The declared parameters are the last `types.len()` of the descriptor's.
    let skip = n_desc - types.len();
    if m.access & acc::VARARGS != 0
        && let Some(last) = types.last_mut()
        && let Some(elem) = last.strip_suffix("[]")
    {
        *last = format!("{elem}...");
    }
    let names = param_names(m, &desc.params, skip);
    let params = types
        .into_iter()
        .enumerate()
        .map(|(i, type_text)| Param {
            name: names.get(i).cloned().flatten().unwrap_or_else(|| format!("arg{i}")),
            type_text,
        })
        .collect();
    let name = if m.name == "<init>" { type_name.to_owned() } else { m.name.clone() };
    Some(Callable {
        name,
        modifiers: member_modifiers(m, m.name != "<init>", kind),
        annotations: member_annotations(m),
        type_params_text: type_params,
        params,
        throws,
        start_line: 0,
        end_line: 0,
        javadoc: Javadoc::absent(),
    })
}

/// The names of the declared parameters (after `skip` synthetic ones): `MethodParameters`
/// first, else the locals live at entry by slot.
fn param_names(m: &Member, desc_params: &[String], skip: usize) -> Vec<Option<String>> {
    if let Some(mp) = &m.method_parameters
        && mp.len() == desc_params.len()
    {
        return mp[skip..].to_vec();
    }
    if m.locals_at_entry.is_empty() {
        return Vec::new();
    }
    let mut slot: u16 = if m.access & acc::STATIC != 0 { 0 } else { 1 };
    let mut out = Vec::new();
    for (i, t) in desc_params.iter().enumerate() {
        if i >= skip {
            out.push(m.locals_at_entry.iter().find(|(s, _)| *s == slot).map(|(_, n)| n.clone()));
        }
        slot = slot.saturating_add(if t == "long" || t == "double" { 2 } else { 1 });
    }
    out
}

/// The most parts of a multi-file facade read for its properties.
const MAX_FACADE_PARTS: usize = 1_024;

/// What Kotlin's view marks: the outline's language and the members Kotlin writes implicitly.
const KOTLIN: &str = "kotlin";

/// Turns the outline of a class compiled from Kotlin (its `kotlin.Metadata`, decoded by
/// [`crate::kotlin`]) into Kotlin's view, in the shape a Kotlin source's outline has: the
/// language `kotlin`; a class's Kotlin modifiers (`data`, `object`, `companion object`…) and
/// type parameters; each property as Kotlin declares it (`val first: A`, in place of its backing
/// field) with its getter and setter kept under the JVM names Java calls, marked generated
/// `kotlin` by `val first`; an `object`'s `INSTANCE` and a companion's field marked generated;
/// a file facade marked generated by `facade of Strings.kt` (a multi-file facade's properties
/// read from its parts, `load`ed by internal name); type aliases as types whose modifiers say
/// `typealias`. Member classes get their own view. Unchanged when the class has no metadata,
/// it does not decode, or it is synthetic (a lambda's class).
pub fn kotlin_view(o: &mut FileOutline, cf: &ClassFile, load: &mut dyn FnMut(&str) -> Option<Vec<u8>>) {
    let Some(v) = cf.kotlin.as_ref().and_then(crate::kotlin::decode) else { return };
    if v.kind == crate::kotlin::Kind::Synthetic {
        return;
    }
    let package = o.package.clone().unwrap_or_default();
    let mut aliases = Vec::new();
    let Some(t) = o.classes.first_mut() else { return };
    let mut budget = MAX_MEMBER_CLASSES;
    apply_kotlin(t, cf, &v, load, (&package, &mut aliases), (0, &mut budget));
    o.classes.extend(aliases);
    o.language = KOTLIN.to_owned();
}

fn apply_kotlin(
    t: &mut TypeDecl,
    cf: &ClassFile,
    v: &crate::kotlin::View,
    load: &mut dyn FnMut(&str) -> Option<Vec<u8>>,
    (package, aliases): (&str, &mut Vec<TypeDecl>),
    (depth, budget): (usize, &mut usize),
) {
    use crate::kotlin::{ClassKind, Kind};
    let mut properties = v.properties.clone();
    let mut type_aliases = v.type_aliases.clone();
    let facade = |t: &mut TypeDecl, by: String| {
        t.generated = Some(KOTLIN.to_owned());
        t.generated_by = Some(by);
    };
    // Kotlin's view says it was compiled from Kotlin: the annotation that says so is noise.
    t.annotations.retain(|a| a != "@kotlin.Metadata");
    match v.kind {
        Kind::Class => {
            if let Some(c) = &v.class {
                t.modifiers = c.modifiers.clone();
                if !c.type_params.is_empty() {
                    t.type_params_text = Some(format!("<{}>", c.type_params.join(", ")));
                }
                if c.kind == ClassKind::Object {
                    mark_field(t, "INSTANCE", "object");
                }
                if let Some(name) = &c.companion {
                    mark_field(t, name, "companion object");
                    // The companion's properties keep their backing fields in this class, as
                    // statics: a `const val`'s is the one Java reads.
                    let internal = format!("{}${name}", cf.this_class);
                    if let Some(ccf) = (load)(&internal).and_then(|b| crate::reader::parse(&b).ok())
                        && let Some(cv) = ccf.kotlin.as_ref().and_then(crate::kotlin::decode)
                    {
                        for p in cv.properties.iter().filter(|p| p.field.is_some()) {
                            let field = p.field.as_ref().and_then(|f| f.name.clone()).unwrap_or_else(|| p.name.clone());
                            let by =
                                if p.modifiers.iter().any(|m| m == "const") { "const val" } else { "companion object" };
                            for f in t
                                .fields
                                .iter_mut()
                                .filter(|f| f.name == field && f.modifiers.iter().any(|m| m == "static"))
                            {
                                f.generated = Some(KOTLIN.to_owned());
                                f.generated_by = Some(by.to_owned());
                            }
                        }
                    }
                }
            }
        }
        Kind::FileFacade => {
            let file = cf.source_file.clone().unwrap_or_else(|| "its file".to_owned());
            facade(t, format!("facade of {file}"));
        }
        Kind::MultiFilePart => {
            let file = cf.source_file.clone().unwrap_or_else(|| "its file".to_owned());
            let of = v.facade.as_deref().map(internal_to_source).unwrap_or_default();
            facade(t, format!("part of {of} ({file})"));
        }
        Kind::MultiFileFacade => {
            let mut files = Vec::new();
            let mut declared = t.methods.iter().map(method_key).collect();
            for part in v.parts.iter().take(MAX_FACADE_PARTS) {
                let Some(pcf) = (load)(part).and_then(|b| crate::reader::parse(&b).ok()) else { continue };
                let Some(pv) = pcf.kotlin.as_ref().and_then(crate::kotlin::decode) else { continue };
                inherit_part_methods(t, &pcf, load, &mut declared);
                properties.extend(pv.properties);
                type_aliases.extend(pv.type_aliases);
                files.extend(pcf.source_file);
            }
            files.dedup();
            let files = if files.is_empty() { "its files".to_owned() } else { files.join(", ") };
            facade(t, format!("facade of {files}"));
        }
        Kind::Synthetic => return,
    }
    // The members by name, once: a property finds its accessors and backing field in them.
    let mut methods: std::collections::HashMap<String, Vec<usize>> = Default::default();
    for (i, m) in t.methods.iter().enumerate() {
        methods.entry(m.name.clone()).or_default().push(i);
    }
    let fields: std::collections::HashMap<String, usize> =
        t.fields.iter().enumerate().map(|(i, f)| (f.name.clone(), i)).rev().collect();
    for p in &properties {
        kotlin_property(t, p, &methods, &fields);
    }
    for a in &type_aliases {
        let qualified = if package.is_empty() { a.name.clone() } else { format!("{package}.{}", a.name) };
        let mut modifiers = a.modifiers.clone();
        modifiers.push("typealias".to_owned());
        let mut d = TypeDecl::header(
            TypeKind::Class,
            a.name.clone(),
            qualified,
            (modifiers, Vec::new()),
            (0, 0),
            Javadoc::absent(),
        );
        if !a.type_params.is_empty() {
            d.type_params_text = Some(format!("<{}>", a.type_params.join(", ")));
        }
        d.extends = Some(a.underlying.clone());
        aliases.push(d);
    }
    if depth >= MAX_NESTING {
        return;
    }
    for inner in &mut t.inner_classes {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        let internal = format!("{}${}", cf.this_class, inner.name);
        let Some(icf) = (load)(&internal).and_then(|b| crate::reader::parse(&b).ok()) else { continue };
        let Some(iv) = icf.kotlin.as_ref().and_then(crate::kotlin::decode) else { continue };
        if iv.kind == Kind::Class {
            apply_kotlin(inner, &icf, &iv, load, (package, aliases), (depth + 1, budget));
        }
    }
}

/// A method's name and parameter types: what makes two methods the same to a caller.
type MethodKey = (String, Vec<String>);

fn method_key(m: &MethodDecl) -> MethodKey {
    (m.name.clone(), m.params.iter().map(|p| p.type_text.clone()).collect())
}

/// The most methods a multi-file facade lists with its parts'.
const MAX_FACADE_METHODS: usize = 65_536;

/// A multi-file facade's members from one of its parts: the part's non-private methods the
/// facade does not declare itself (`declared`; a facade compiled with
/// `-Xmultifile-parts-inherit`, as the stdlib's, inherits them: Java calls `StringsKt.trim(…)`
/// all the same), as the facade's.
fn inherit_part_methods(
    t: &mut TypeDecl,
    part: &ClassFile,
    load: &mut dyn FnMut(&str) -> Option<Vec<u8>>,
    declared: &mut std::collections::HashSet<MethodKey>,
) {
    let mut w = Walk { load, seen: std::iter::once(part.this_class.clone()).collect(), errors: Vec::new() };
    // At the nesting cap: the part's member classes are not read.
    let pd = type_decl(part, None, &mut w, MAX_NESTING);
    for mut m in pd.methods {
        if t.methods.len() >= MAX_FACADE_METHODS {
            return;
        }
        if m.modifiers.iter().any(|x| x == "private") || !declared.insert(method_key(&m)) {
            continue;
        }
        let types = m.params.iter().map(|p| p.type_text.as_str()).collect::<Vec<_>>().join(",");
        let member = SymbolId::method_member(&m.name, &types, &m.return_type_text);
        m.symbol_id = SymbolId::member(SymbolKind::Method, &t.qualified_name, member, 0, 0).to_string();
        t.methods.push(m);
    }
}

/// Marks the field `name` generated by Kotlin (`INSTANCE` of an `object`, a companion's field).
fn mark_field(t: &mut TypeDecl, name: &str, by: &str) {
    for f in t.fields.iter_mut().filter(|f| f.name == name) {
        f.generated = Some(KOTLIN.to_owned());
        f.generated_by = Some(by.to_owned());
    }
}

/// One property in Kotlin's shape: its accessors (the JVM names Java calls) marked generated by
/// `val name`, and the property itself in place of its backing field (or added, when it has
/// none: computed, abstract or an extension).
fn kotlin_property(
    t: &mut TypeDecl,
    p: &crate::kotlin::Property,
    methods: &std::collections::HashMap<String, Vec<usize>>,
    fields: &std::collections::HashMap<String, usize>,
) {
    use crate::kotlin::default_getter;
    let kw = if p.mutable { "var" } else { "val" };
    let by = format!("{kw} {}", p.name);
    let getter = p.getter.as_ref().map(|g| g.name.clone().unwrap_or_else(|| default_getter(&p.name)));
    let setter = p.setter.as_ref().map(|s| {
        s.name.clone().unwrap_or_else(|| {
            let base = default_getter(&p.name);
            let base = base.strip_prefix("get").or_else(|| base.strip_prefix("is")).unwrap_or(&base).to_owned();
            format!("set{base}")
        })
    });
    let receiver = usize::from(p.receiver.is_some());
    let mut is_static = false;
    let named = |n: &Option<String>| n.as_ref().and_then(|n| methods.get(n)).into_iter().flatten().copied();
    let candidates: Vec<usize> = named(&getter).chain(named(&setter)).collect();
    for i in candidates {
        let Some(m) = t.methods.get_mut(i) else { continue };
        let is_getter = getter.as_deref() == Some(m.name.as_str()) && m.params.len() == receiver;
        let is_setter = setter.as_deref() == Some(m.name.as_str()) && m.params.len() == receiver + 1;
        if (is_getter || is_setter) && m.generated.is_none() {
            m.generated = Some(KOTLIN.to_owned());
            m.generated_by = Some(by.clone());
            is_static |= m.modifiers.iter().any(|x| x == "static");
        }
    }
    let field_name = p.field.as_ref().and_then(|f| f.name.clone()).unwrap_or_else(|| p.name.clone());
    let backing =
        if p.field.is_some() { fields.get(&field_name).copied().filter(|&i| i < t.fields.len()) } else { None };
    is_static |= backing.is_some_and(|i| t.fields[i].modifiers.iter().any(|x| x == "static"));
    let mut modifiers = p.modifiers.clone();
    if is_static {
        modifiers.insert(1.min(modifiers.len()), "static".to_owned());
    }
    modifiers.push(kw.to_owned());
    let decl = FieldDecl {
        symbol_id: SymbolId::member(SymbolKind::Field, &t.qualified_name, p.name.clone(), 0, 0).to_string(),
        kind: "field".to_owned(),
        name: p.name.clone(),
        type_text: p.type_text.clone(),
        modifiers,
        annotations: Vec::new(),
        start_line: 0,
        end_line: 0,
        javadoc: Javadoc::absent(),
        generated: None,
        generated_by: None,
    };
    match backing {
        Some(i) => t.fields[i] = decl,
        None => t.fields.push(decl),
    }
}
