//! Kotlin sources in the world, as javac sees the Kotlin code's class files: [`decls`] reads a
//! `.kt` file's declarations in their JVM view (facade classes, accessors, `INSTANCE`,
//! `Companion`, JVM statics and overloads) with [`types`] mapping Kotlin's types to Java's, so
//! Java code binds to them exactly; Kotlin bodies are not bound by the Java binder.

pub mod bind;
pub mod decls;
pub mod types;

/// Whether the file at `path` is a Kotlin source the world reads in its JVM view.
pub fn is_kotlin(path: &std::path::Path) -> bool {
    path.extension().is_some_and(|e| e == "kt")
}

/// The property name Kotlin writes for a Java getter or setter (`getName`/`setName` → `name`,
/// `isActive` → `isActive`), None for another name.
pub fn property_of_accessor(method: &str) -> Option<String> {
    if method.len() > 2 && method.starts_with("is") && method[2..].starts_with(char::is_uppercase) {
        return Some(method.to_owned());
    }
    let rest = method.strip_prefix("get").or_else(|| method.strip_prefix("set"))?;
    let mut cs = rest.chars();
    let first = cs.next().filter(|c| c.is_uppercase())?;
    Some(first.to_lowercase().collect::<String>() + cs.as_str())
}

use crate::Category;
use crate::target::{Target, resolve_target_as};
use crate::world::World;

/// The Kotlin declaration named at `line` of the Kotlin file `file` of the world (by the first
/// of `words`, the line's identifiers in column order, that names one), as Java sees it: a
/// function with its `@JvmOverloads` overloads and its `@JvmStatic` twin, a property as its
/// accessors (`getX`, `isX`, `setX`) and Java-visible field, a secondary constructor. None when
/// the line declares none of them (or a type first: the caller finds it).
pub(crate) fn declaration_at(
    w: &World,
    file: u32,
    line: u32,
    words: &[String],
    in_header: &dyn Fn(u32) -> bool,
) -> Option<Target> {
    let decls = w.files.get(file as usize)?.decls();
    let cap = |s: &str| {
        let mut cs = s.chars();
        cs.next().map(|c| c.to_uppercase().collect::<String>() + cs.as_str()).unwrap_or_default()
    };
    for word in words {
        if decls.types.iter().any(|t| in_header(t.start_line) && *t.simple == **word) {
            return None;
        }
        let prefixed = word.len() > 2 && word.starts_with("is") && word[2..].starts_with(char::is_uppercase);
        let accessors: Vec<String> = match prefixed {
            true => vec![word.clone(), format!("set{}", &word[2..])],
            false => vec![format!("get{}", cap(word)), format!("set{}", cap(word))],
        };
        let mut keys: Vec<(String, Category)> = Vec::new();
        let mut fields: Vec<(String, Category)> = Vec::new();
        for (ti, t) in decls.types.iter().enumerate() {
            if t.start_line > line || t.end_line < line {
                continue;
            }
            let id = w.type_in_file(file, ti as u32);
            // Its field when Java sees one (not a property's private backing field).
            for f in t.fields.iter().filter(|f| in_header(f.line) && *f.name == **word && f.is_public_api) {
                fields.push((w.field_key(id, f), Category::Field));
            }
            for m in t.methods.iter().filter(|m| in_header(m.line) && !m.implicit) {
                let own = *m.name == **word;
                if own || (m.generated && accessors.iter().any(|a| *a == *m.name)) {
                    keys.push((w.method_key(id, m), Category::Method));
                }
            }
            if word == "constructor" {
                for c in t.ctors.iter().filter(|c| in_header(c.line) && !c.implicit) {
                    keys.push((w.method_key(id, c), Category::Ctor));
                }
            }
        }
        keys.extend(fields);
        keys.dedup();
        let Some((first, cat)) = keys.first().cloned() else { continue };
        let mut t = resolve_target_as(w, &first, Some(cat)).ok()?;
        for (k, c) in &keys[1..] {
            let Ok(more) = resolve_target_as(w, k, Some(*c)) else { continue };
            t.keys.extend(more.keys);
            t.names.extend(more.names);
            t.decls.extend(more.decls);
        }
        t.names.sort();
        t.names.dedup();
        if keys.len() > 1 {
            t.label = keys.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>().join(", ");
        }
        return Some(t);
    }
    None
}
