//! What a Kotlin file declares as javac sees it in Kotlin's class files, for the world: the
//! outline's JVM view (`mji_parser::kotlin`: the facade class of top-level members, property
//! accessors, `INSTANCE`, `Companion`, `@JvmStatic`, `const val` and `@JvmField` statics,
//! `@JvmOverloads` overloads, `@JvmName`) with its types mapped to Java's ([`super::types`]).
//! Kotlin bodies are not read here.

use mji_model::{TypeDecl, TypeKind};
use mji_parser::SourceText;

use super::types::{Names, Pos};
use crate::decls::{FieldSym, FileDecls, Import, MethodSym, TypeSym};
use crate::name::Name;
use crate::ty::TyText;

/// Reads the JVM view of a Kotlin file's declarations from its raw bytes (its path names the
/// facade class of its top-level members). Never fails.
pub fn file_decls(path: &std::path::Path, bytes: &[u8]) -> FileDecls {
    let src = SourceText::decode(bytes);
    let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
    let outline = mji_parser::kotlin::outline_source(&name, String::new(), &src);
    let imports = mji_parser::kotlin::parse_tree(&src.text)
        .map(|t| mji_parser::kotlin::imports(t.root_node(), src.text.as_bytes()))
        .unwrap_or_default();
    let names = names_of(&imports);
    let mut out = FileDecls {
        package: outline.package.as_deref().unwrap_or("").into(),
        imports: imports
            .iter()
            .filter(|i| i.alias.is_none())
            .map(|i| Import { path: Name::new(&i.path), is_static: false, on_demand: i.on_demand })
            .collect(),
        types: Vec::new(),
    };
    for t in &outline.classes {
        add_type(t, None, &names, &mut out);
    }
    out
}

/// A file's import aliases and explicitly imported simple names.
pub(crate) fn names_of(imports: &[mji_parser::kotlin::KtImport]) -> Names {
    let mut n = Names::default();
    for i in imports.iter().filter(|i| !i.on_demand) {
        match &i.alias {
            Some(a) => {
                n.aliases.insert(a.clone(), i.path.clone());
            }
            None => {
                n.imported.insert(i.path.rsplit('.').next().unwrap_or(&i.path).to_owned());
            }
        }
    }
    n
}

fn has(mods: &[String], m: &str) -> bool {
    mods.iter().any(|x| x == m)
}

/// Visible outside its package as Java sees it (`internal` is public in the class file, but
/// a class's `internal` functions and accessors are `name$module` there: not counted).
fn api(mods: &[String]) -> bool {
    has(mods, "public") || has(mods, "protected")
}

/// [`api`], or `internal` where kotlinc keeps the name public (javap of its class files): a
/// type, a constructor, a field, and a file facade's functions and accessors.
fn api_or_internal(mods: &[String]) -> bool {
    api(mods) || has(mods, "internal")
}

fn add_type(t: &TypeDecl, outer: Option<u32>, names: &Names, out: &mut FileDecls) {
    let mods = &t.modifiers;
    // A type alias is no class Java sees.
    if has(mods, "typealias") {
        return;
    }
    let is_object = has(mods, "object");
    let companion = has(mods, "companion");
    let outer_api = outer.is_none_or(|o| out.types[o as usize].is_public_api);
    let param = |text: &str| -> (TyText, bool) {
        match text.strip_suffix("...") {
            Some(elem) => (names.ty(elem, Pos::Param).with_dims(1), true),
            None => (names.ty(text, Pos::Param), false),
        }
    };
    let mut fields = Vec::new();
    for f in &t.fields {
        // The fields Java sees: generated ones (`INSTANCE`, `Companion`, a companion's
        // statics on its class), `const val`, `@JvmField` and `lateinit` (a companion's own
        // are its class's).
        let plain = has(&f.modifiers, "const")
            || has(&f.modifiers, "lateinit")
            || f.annotations.iter().any(|a| a.starts_with("@JvmField"));
        // A backing field is kept, private (Kotlin code of its class reads it; Java cannot).
        let visible = f.generated.is_some() || (plain && !companion);
        if companion && plain {
            continue;
        }
        fields.push(FieldSym {
            name: Name::new(&f.name),
            ty: names.ty(&f.type_text, Pos::Param),
            is_static: has(&f.modifiers, "static") || (is_object && plain),
            line: f.start_line,
            is_public_api: visible && api_or_internal(&f.modifiers),
            generated: f.generated.is_some(),
        });
    }
    let self_ty = TyText::Named { name: Name::new(&t.name), args: Vec::new() };
    for e in t.enum_constants.iter().flatten() {
        fields.push(FieldSym {
            name: Name::new(&e.name),
            ty: self_ty.clone(),
            is_static: true,
            line: e.start_line,
            is_public_api: true,
            generated: false,
        });
    }
    let is_facade = outer.is_none() && t.generated.is_some();
    let mut methods: Vec<MethodSym> = t
        .methods
        .iter()
        .map(|m| {
            let mut params = Vec::new();
            let mut varargs = false;
            for p in &m.params {
                let (ty, va) = param(&p.type_text);
                params.push(ty);
                varargs = va;
            }
            let suspend = has(&m.modifiers, "suspend");
            if suspend {
                params.push(TyText::Named { name: Name::new("kotlin.coroutines.Continuation"), args: Vec::new() });
                varargs = false;
            }
            MethodSym {
                name: Name::new(&m.name),
                tparams: names.tparams(m.type_params_text.as_deref()),
                params,
                varargs,
                ret: match suspend {
                    true => TyText::Named { name: Name::new(crate::ty::OBJECT), args: Vec::new() },
                    false => names.ty(&m.return_type_text, Pos::Ret),
                },
                is_static: has(&m.modifiers, "static"),
                line: m.start_line,
                implicit: false,
                is_public_api: if is_facade { api_or_internal(&m.modifiers) } else { api(&m.modifiers) },
                marked_override: has(&m.modifiers, "override"),
                is_abstract: has(&m.modifiers, "abstract"),
                is_private: has(&m.modifiers, "private"),
                generated: m.generated.is_some(),
            }
        })
        .collect();
    // An enum's and a sealed class's constructors are private on the JVM.
    let private_ctors = t.kind == TypeKind::Enum || has(mods, "sealed");
    let mut ctors: Vec<MethodSym> = t
        .constructors
        .iter()
        .map(|c| {
            let (mut params, mut varargs) = (Vec::new(), false);
            for p in &c.params {
                let (ty, va) = param(&p.type_text);
                params.push(ty);
                varargs = va;
            }
            MethodSym {
                name: Name::new(&t.name),
                tparams: Vec::new(),
                params,
                varargs,
                ret: TyText::Unknown,
                is_static: false,
                line: c.start_line,
                implicit: false,
                is_public_api: api_or_internal(&c.modifiers) && !private_ctors,
                marked_override: false,
                is_abstract: false,
                is_private: has(&c.modifiers, "private") || private_ctors,
                generated: c.generated.is_some(),
            }
        })
        .collect();
    if ctors.is_empty() && t.kind == TypeKind::Class && !is_object && !is_facade {
        ctors.push(MethodSym {
            name: Name::new(&t.name),
            tparams: Vec::new(),
            params: Vec::new(),
            varargs: false,
            ret: TyText::Unknown,
            is_static: false,
            line: t.start_line,
            implicit: true,
            is_public_api: api_or_internal(mods) && !private_ctors,
            marked_override: false,
            is_abstract: false,
            is_private: private_ctors,
            generated: false,
        });
    }
    if t.kind == TypeKind::Enum {
        let string = TyText::Named { name: Name::new(crate::ty::STRING), args: Vec::new() };
        methods.extend(crate::decls::enum_methods(&self_ty, string, t.start_line));
    }
    let superclass = t.extends.as_deref().map(|e| names.ty(e, Pos::Arg));
    let me = out.types.len() as u32;
    out.types.push(TypeSym {
        fqn: t.qualified_name.as_str().into(),
        simple: t.name.as_str().into(),
        kind: t.kind,
        outer,
        // A nested class is static unless `inner`.
        is_static: outer.is_none() || !has(mods, "inner") || t.kind != TypeKind::Class,
        tparams: names.tparams(t.type_params_text.as_deref()),
        superclass,
        interfaces: t.implements.iter().map(|i| names.ty(i, Pos::Arg)).collect(),
        fields,
        methods,
        ctors,
        members: Vec::new(),
        start_line: t.start_line,
        end_line: t.end_line,
        is_public_api: outer_api && api_or_internal(mods),
        // Kotlin's classes are final unless open, abstract or sealed.
        is_final: match t.kind {
            TypeKind::Class => !(has(mods, "open") || has(mods, "abstract") || has(mods, "sealed")),
            TypeKind::Enum => true,
            _ => false,
        },
        delegates: Vec::new(),
    });
    for inner in &t.inner_classes {
        let idx = out.types.len() as u32;
        add_type(inner, Some(me), names, out);
        if out.types.len() as u32 > idx {
            out.types[me as usize].members.push(idx);
        }
    }
}
