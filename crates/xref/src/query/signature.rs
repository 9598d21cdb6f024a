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
        } else if sig.len() == params.len() || (varargs && params.len() + 1 >= sig.len()) {
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

#[cfg(test)]
mod tests {
    use super::simple_erasure;

    #[test]
    fn written_types_erase_to_simple_names() {
        assert_eq!(simple_erasure("java.util.List<Map<K, V>>"), "List");
        assert_eq!(simple_erasure("String..."), "String[]");
        assert_eq!(simple_erasure("int [] []"), "int[][]");
        assert_eq!(simple_erasure("Map.Entry<K,V>[]"), "Entry[]");
    }
}
