//! The semantic half of `change_signature`: whether a method family's new name and parameter
//! types would clash with, or compete in overload resolution against, another method of the
//! types' hierarchies — decided on the world before any text is touched.

use std::collections::BTreeSet;

use crate::query::rename::owner_and_method;
use crate::ty::Ty;
use crate::world::World;

/// A type's simple erased spelling: `java.util.Map$Entry` -> `Entry`, `int[]` stays.
fn simple(erasure: &str) -> &str {
    erasure.rsplit(['.', '$']).next().unwrap_or(erasure)
}

/// A written type's simple erased spelling: `java.util.List<String>` -> `List`,
/// `T...` -> `T[]`.
pub fn simple_erasure(written: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for c in written.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            _ if depth == 0 && !c.is_whitespace() => out.push(c),
            _ => {}
        }
    }
    let dims = out.matches("[]").count() + usize::from(out.ends_with("..."));
    let base = out.trim_end_matches("...").replace("[]", "");
    let base = base.rsplit('.').next().unwrap_or(&base).to_owned();
    base + &"[]".repeat(dims)
}

/// What the family `keys` renamed to `new_name` with parameters of the simple erased types
/// `params` would collide with: a method of the same name and parameters in a type of the
/// hierarchy above or below (a clash, or an override it would start), or one of the same
/// number of parameters (calls could bind to another method).
pub fn overload_conflicts(w: &World, keys: &[String], new_name: &str, params: &[String]) -> Vec<String> {
    let family: BTreeSet<&str> = keys.iter().map(String::as_str).collect();
    let mut out = BTreeSet::new();
    let judge = |hk: String, sig: Vec<String>, varargs: bool, out: &mut BTreeSet<String>| {
        if family.contains(hk.as_str()) {
            return;
        }
        let sig: Vec<&str> = sig.iter().map(|s| simple(s)).collect();
        if sig.len() == params.len() && sig.iter().zip(params).all(|(a, b)| *a == b.as_str() || *a == "?") {
            out.insert(format!("{hk} has the same parameters"));
        } else if (sig.len() == params.len() && !never_one_call(&sig, params))
            || (varargs && params.len() + 1 >= sig.len())
        {
            out.insert(format!("{hk} has as many parameters, so calls could bind to a different method than before"));
        }
    };
    for k in keys {
        let Some((owner, _)) = owner_and_method(w, k) else { continue };
        let ty = Ty::class(&w.decl(owner).fqn);
        for hit in w.find_methods(&ty, new_name).0 {
            let hk = w.method_key(hit.owner, hit.decl);
            judge(hk, w.signature_in(&ty, hit.owner, hit.decl), hit.decl.varargs, &mut out);
        }
        // Subtypes' methods of the name: one would start overriding, or compete in calls.
        for &sub in w.types_with_method(new_name) {
            if sub == owner {
                continue;
            }
            let sty = Ty::class(&w.decl(sub).fqn);
            if !w.hierarchy(&sty).iter().any(|(_, id)| *id == Some(owner)) {
                continue;
            }
            for m in w.decl(sub).methods.iter().filter(|m| &*m.name == new_name) {
                judge(w.method_key(sub, m), w.signature_in(&sty, sub, m), m.varargs, &mut out);
            }
        }
    }
    out.into_iter().collect()
}

/// What the constructor `key` of the workspace type `owner` given parameters of the simple
/// erased types `params` would compete with: another written constructor that some call
/// could bind to as well.
pub fn ctor_conflicts(w: &World, owner: &str, key: &str, params: &[String]) -> Vec<String> {
    let Some(id) = w.workspace_type(owner) else { return Vec::new() };
    let ty = Ty::class(owner);
    w.decl(id)
        .ctors
        .iter()
        .filter(|c| !c.implicit && w.method_key(id, c) != key && c.params.len() == params.len())
        .filter(|c| {
            let sig = w.signature_in(&ty, id, c);
            !never_one_call(&sig.iter().map(|s| simple(s)).collect::<Vec<_>>(), params)
        })
        .map(|c| format!("{} has as many parameters", w.method_key(id, c)))
        .collect()
}

/// Whether no argument list can be passed to both `a` and `b` (simple erasures, as many):
/// at some position a primitive meets a type no argument can be converted to from it, or from
/// which none converts to it (JLS 5.3: widening, boxing, unboxing). Then a call binds to the
/// same method after the change as before. A reference against a reference is never told
/// apart: `null` fits both.
pub fn never_one_call(a: &[&str], b: &[String]) -> bool {
    a.len() == b.len() && a.iter().zip(b).any(|(x, y)| apart(x, y))
}

const NUMERIC: &[&str] = &["byte", "short", "char", "int", "long", "float", "double"];

/// The primitives `p` widens to (itself included).
fn widens_to(p: &str) -> &'static [&'static str] {
    match p {
        "byte" => &["byte", "short", "int", "long", "float", "double"],
        "short" => &["short", "int", "long", "float", "double"],
        "char" => &["char", "int", "long", "float", "double"],
        "int" => &["int", "long", "float", "double"],
        "long" => &["long", "float", "double"],
        "float" => &["float", "double"],
        "double" => &["double"],
        "boolean" => &["boolean"],
        _ => &[],
    }
}

fn boxed(p: &str) -> Option<&'static str> {
    Some(match p {
        "byte" => "Byte",
        "short" => "Short",
        "char" => "Character",
        "int" => "Integer",
        "long" => "Long",
        "float" => "Float",
        "double" => "Double",
        "boolean" => "Boolean",
        _ => return None,
    })
}

/// Two parameter types no one argument fits (one of them primitive).
fn apart(x: &str, y: &str) -> bool {
    let prim = |t: &str| boxed(t).is_some();
    match (prim(x), prim(y)) {
        (true, true) => !widens_to(x).contains(&y) && !widens_to(y).contains(&x),
        (true, false) => prim_apart_from_ref(y),
        (false, true) => prim_apart_from_ref(x),
        (false, false) => false,
    }
}

/// A primitive and a reference type `r`: `r` is an array, or no box, no supertype of one and
/// not what could be a type variable (`T`, `K2`: erased to a bound the simple name does not
/// show).
fn prim_apart_from_ref(r: &str) -> bool {
    const BOX_SUPERS: &[&str] = &["Object", "Number", "Serializable", "Comparable", "Constable", "ConstantDesc"];
    if r.ends_with("[]") {
        return true;
    }
    let type_var = r == "?" || (r.len() <= 2 && r.chars().next().is_some_and(|c| c.is_ascii_uppercase()));
    let a_box = NUMERIC.iter().chain(&["boolean"]).any(|q| boxed(q) == Some(r));
    !type_var && !a_box && !BOX_SUPERS.contains(&r)
}

#[cfg(test)]
mod tests {
    use super::{never_one_call, simple_erasure};

    #[test]
    fn a_primitive_and_a_type_no_argument_converts_to_are_apart() {
        let s = |v: &[&str]| v.iter().map(|x| (*x).to_owned()).collect::<Vec<_>>();
        assert!(never_one_call(&["int"], &s(&["String"])));
        assert!(never_one_call(&["boolean", "int"], &s(&["int", "int"])));
        assert!(never_one_call(&["int"], &s(&["int[]"])));
        assert!(never_one_call(&["char"], &s(&["short"])));
        assert!(!never_one_call(&["int"], &s(&["long"])));
        assert!(!never_one_call(&["long"], &s(&["Integer"])));
        assert!(!never_one_call(&["int"], &s(&["Object"])));
        assert!(!never_one_call(&["int"], &s(&["Number"])));
        assert!(!never_one_call(&["int"], &s(&["T"])));
        assert!(!never_one_call(&["int"], &s(&["?"])));
        assert!(!never_one_call(&["String"], &s(&["Integer"])));
        assert!(!never_one_call(&["int", "String"], &s(&["int", "Object"])));
    }

    #[test]
    fn written_types_erase_to_simple_names() {
        assert_eq!(simple_erasure("java.util.List<Map<K, V>>"), "List");
        assert_eq!(simple_erasure("String..."), "String[]");
        assert_eq!(simple_erasure("int [] []"), "int[][]");
        assert_eq!(simple_erasure("Map.Entry<K,V>[]"), "Entry[]");
    }
}
