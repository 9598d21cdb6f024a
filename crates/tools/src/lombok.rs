//! What javac says about Lombok's members when Lombok did not run (an untrusted workspace, or
//! no Lombok on the classpath): `cannot find symbol … method getName()` where the reference
//! engine binds the call to a member Lombok generates, a constructor Lombok generates that
//! "cannot be applied", a final field "not initialized in the default constructor" of a type
//! whose constructor Lombok generates. Those are no problems of the code (a build with Lombok
//! compiles it): they are left out of `get_problems`' answer, counted, and the answer says why.
//! Where the reference engine cannot bind the call (a lambda's parameter it cannot type), the
//! type javac names (`location: variable p of type p.User`, `p.A is not abstract and does not
//! override … getName()`, `cannot infer type arguments for p.Box<>`, `constructor Box in class
//! p.Box`) decides: it or a supertype has a member of that name Lombok generates. Complaints
//! that follow from a hidden one are hidden with it: an `incompatible types` whose expression
//! holds it, a `case` label of a `switch` whose selector it is.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use mji_problems::{CheckFile, Problem, ProblemSource};

use crate::host::Host;

/// javac's keys of the complaints a missing Lombok causes.
const CODES: &[&str] = &[
    "compiler.err.cant.resolve",
    "compiler.err.cant.resolve.args",
    "compiler.err.cant.resolve.location",
    "compiler.err.cant.resolve.location.args",
    "compiler.err.cant.resolve.location.args.params",
    "compiler.err.cant.resolve.args.params",
    "compiler.err.cant.apply.symbol",
    "compiler.err.cant.apply.symbols",
    "compiler.err.invalid.mref",
    "compiler.err.var.not.initialized.in.default.constructor",
    "compiler.err.var.might.not.have.been.initialized",
    "compiler.err.does.not.override.abstract",
    "compiler.err.cant.apply.diamond",
    "compiler.err.cant.apply.diamond.1",
    "compiler.err.prob.found.req",
];

/// The member a complaint names: `getName` of `symbol:   method getName()`, `User` of
/// `constructor User in class p.User cannot be applied…`, `name` of `variable name not
/// initialized…`.
fn named(message: &str) -> Option<&str> {
    if let Some(sym) = message.lines().find_map(|l| l.trim().strip_prefix("symbol:")) {
        let rest = sym.split_whitespace().nth(1)?;
        let name = rest.split('(').next()?;
        // `<java.lang.Long>builder()`: explicit type arguments before the name.
        return Some(name.rsplit('>').next().unwrap_or(name));
    }
    let first = message.lines().next()?;
    for kind in ["constructor ", "method ", "variable "] {
        if let Some(rest) = first.strip_prefix(kind) {
            let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$')).unwrap_or(rest.len());
            return Some(&rest[..end]);
        }
    }
    None
}

/// Removes from `problems` javac's complaints about members Lombok generates, for the files
/// of `targets`; returns how many.
pub(crate) fn hide_generated_member_problems(ws: &Host, targets: &[CheckFile], problems: &mut Vec<Problem>) -> usize {
    if !problems
        .iter()
        .any(|p| p.source == ProblemSource::Javac && (CODES.contains(&p.code.as_str()) || is_val_complaint(&p.message)))
    {
        return 0;
    }
    let (w, _) = ws.xref_world();
    let paths: HashMap<&str, &Path> = targets.iter().map(|t| (t.display.as_str(), t.path.as_path())).collect();
    let mut files: HashMap<String, (Vec<mji_xref::Ref>, Vec<u8>)> = HashMap::new();
    let hidden: Vec<bool> = problems
        .iter()
        .map(|p| {
            if p.source != ProblemSource::Javac {
                return false;
            }
            // Lombok's `val`/`var` is a type only Lombok makes sense of: every complaint naming it
            // (`… cannot be converted to lombok.val`, `location: variable names of type lombok.val`).
            if is_val_complaint(&p.message) {
                return true;
            }
            if !CODES.contains(&p.code.as_str()) {
                return false;
            }
            let Some(path) = paths.get(p.file.as_str()) else { return false };
            let (file_refs, _) = files.entry(p.file.clone()).or_insert_with(|| read(ws, &w, path));
            about_generated(&w, p, file_refs, path)
        })
        .collect();
    // What follows from a hidden complaint: javac's types are wrong from there on.
    let hidden_at: Vec<(&str, u32, u32)> =
        problems.iter().zip(&hidden).filter(|(_, h)| **h).map(|(p, _)| (p.file.as_str(), p.line, p.column)).collect();
    let follows: Vec<bool> = problems
        .iter()
        .zip(&hidden)
        .map(|(p, h)| {
            if *h || p.source != ProblemSource::Javac {
                return false;
            }
            let inside = |(f, l, c): &(&str, u32, u32)| {
                *f == p.file
                    && (p.range.start.line, p.range.start.column) <= (*l, *c)
                    && (*l, *c) < (p.range.end.line, p.range.end.column)
            };
            match p.code.as_str() {
                // `List<Object> cannot be converted to List<Dto>`: the `map(p -> p.getId())` it holds.
                "compiler.err.prob.found.req" => hidden_at.iter().any(inside),
                // `case ELECTION ->` of a `switch (message.getType())`.
                "compiler.err.cant.resolve.location" => files.get(&p.file).is_some_and(|(_, text)| {
                    case_of_switch_at(text, p.line)
                        .is_some_and(|s| hidden_at.iter().any(|(f, l, _)| *f == p.file && *l == s))
                }),
                _ => false,
            }
        })
        .collect();
    let before = problems.len();
    let mut i = 0;
    problems.retain(|_| {
        i += 1;
        !(hidden[i - 1] || follows[i - 1])
    });
    before - problems.len()
}

/// A file's references as the engine binds them, and its text.
fn read(ws: &Host, w: &mji_xref::world::World, path: &Path) -> (Vec<mji_xref::Ref>, Vec<u8>) {
    let path: Arc<Path> = Arc::from(path);
    match mji_fs::read_regular(&path, mji_fs::DEFAULT_MAX_FILE_BYTES) {
        Ok(b) => (ws.xref().refs_in(w, &path, &b), b),
        Err(_) => (Vec::new(), Vec::new()),
    }
}

/// Whether javac's complaint `p` is about a member Lombok generates (and did not, since it
/// did not run).
fn about_generated(w: &mji_xref::world::World, p: &Problem, file_refs: &[mji_xref::Ref], path: &Path) -> bool {
    let generated = |key: &str| mji_xref::rename::generated_at(w, key).is_some();
    let member = |key: &str| key.split_once('#').map(|(_, m)| m.split('(').next().unwrap_or(m).to_owned());
    if let Some(name) = named(&p.message) {
        if file_refs
            .iter()
            .filter(|r| r.line == p.line)
            .flat_map(|r| &r.targets)
            .any(|k| member(k).as_deref() == Some(name) && generated(k))
        {
            return true;
        }
        // The type javac looked in: `location: variable p of type p.User`, `location: class p.A`.
        if let Some(owner) = location_type(&p.message)
            && generates(w, owner, name)
        {
            return true;
        }
    }
    let first = p.message.lines().next().unwrap_or("");
    match p.code.as_str() {
        // `p.A is not abstract and does not override abstract method getName() in p.I`.
        "compiler.err.does.not.override.abstract" => first
            .split_once(" is not abstract and does not override abstract method ")
            .and_then(|(owner, rest)| Some((owner, rest.split('(').next()?)))
            .is_some_and(|(owner, m)| generates(w, owner, m)),
        // `cannot infer type arguments for p.Box<>`: the constructors javac saw are not Lombok's.
        "compiler.err.cant.apply.diamond" | "compiler.err.cant.apply.diamond.1" => first
            .strip_prefix("cannot infer type arguments for ")
            .map(|t| t.split('<').next().unwrap_or(t).trim())
            .is_some_and(|owner| generates(w, owner, simple(owner))),
        "compiler.err.prob.found.req" => {
            // `invalid constructor reference` / `invalid method reference`: `constructor Box in
            // class p.Box cannot be applied…`, `method of in class p.Box cannot be applied…`.
            if p.message.lines().skip(1).any(|l| {
                let l = l.trim();
                ["constructor ", "method "].iter().any(|k| {
                    l.strip_prefix(k)
                        .and_then(|r| r.split_once(" in "))
                        .and_then(|(m, r)| Some((m, r.split_whitespace().nth(1)?)))
                        .is_some_and(|(m, owner)| generates(w, owner, m))
                })
            }) {
                return true;
            }
            // `String cannot be converted to p.Mage` in the arguments of `new Mage("x")`, whose
            // constructor taking a String Lombok generates: the call nearest before it.
            first.starts_with("incompatible types: ")
                && file_refs
                    .iter()
                    .filter(|r| r.line == p.line && r.column < p.column)
                    .filter(|r| r.targets.iter().any(|k| k.contains('(')))
                    .max_by_key(|r| r.column)
                    .is_some_and(|r| r.targets.iter().any(|k| generated(k)))
        }
        // A final field javac finds uninitialized, in a type whose constructor Lombok makes.
        c if c.starts_with("compiler.err.var.") => named(&p.message).is_some_and(|name| {
            w.files.iter().filter(|f| *f.path == *path).any(|f| {
                f.decls().types.iter().any(|t| {
                    t.fields.iter().any(|fd| &*fd.name == name && fd.line == p.line)
                        && t.ctors.iter().any(|c| c.generated)
                })
            })
        }),
        _ => false,
    }
}

/// The simple name of a qualified one.
fn simple(fqn: &str) -> &str {
    fqn.rsplit('.').next().unwrap_or(fqn)
}

/// The type of javac's `location:` line: `p.User` of `variable u of type p.User` or of
/// `class p.User`.
fn location_type(message: &str) -> Option<&str> {
    let loc = message.lines().find_map(|l| l.trim().strip_prefix("location:"))?.trim();
    let t = match loc.split_once(" of type ") {
        Some((_, t)) => t,
        None => loc.split_once(' ').filter(|(k, _)| matches!(*k, "class" | "interface" | "enum" | "record"))?.1,
    };
    Some(t.split('<').next().unwrap_or(t).trim())
}

/// Whether Lombok generates a member `name` in the type javac calls `owner` (a constructor when
/// `name` is the type's simple name) or, but for a constructor, in one of its supertypes.
fn generates(w: &mji_xref::world::World, owner: &str, name: &str) -> bool {
    let Some(id) = w.by_fqn(owner) else { return false };
    let d = w.decl(id);
    if name == &*d.simple {
        return d.ctors.iter().any(|c| c.generated);
    }
    let has = |id| {
        let d = w.decl(id);
        d.methods.iter().any(|m| m.generated && &*m.name == name)
            || d.fields.iter().any(|f| f.generated && &*f.name == name)
            || w.delegated_methods(id).iter().any(|m| &*m.name == name)
    };
    has(id) || w.supertype_names(id).iter().filter_map(|s| w.by_fqn(s)).any(has)
}

/// The line of the `switch` whose `case` label is on `line` (1-based), from the text: the
/// nearest line above holding `switch (` (at most 200 lines up).
fn case_of_switch_at(text: &[u8], line: u32) -> Option<u32> {
    let text = std::str::from_utf8(text).ok()?;
    let lines: Vec<&str> = text.lines().collect();
    let here = lines.get((line as usize).checked_sub(1)?)?.trim_start();
    if !here.starts_with("case ") {
        return None;
    }
    (1..line).rev().take(200).find(|l| lines.get(*l as usize - 1).is_some_and(|t| t.contains("switch (")))
}

/// A complaint about Lombok's `val` or `var` used as a type.
fn is_val_complaint(message: &str) -> bool {
    ["lombok.val", "lombok.var"].iter().any(|t| {
        message
            .match_indices(t)
            .any(|(i, _)| !message[i + t.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_'))
    })
}

/// What the answer says when Lombok's complaints were left out.
pub(crate) fn not_run_note(hidden: usize, trusted: bool) -> String {
    let why = if trusted {
        "no Lombok jar is on the workspace's classpath"
    } else {
        "the workspace is untrusted, so no annotation processor runs (trust it to run Lombok as javac's processor)"
    };
    format!("lombok did not run: {why}; {hidden} problem(s) javac reports about members Lombok generates are not shown")
}

#[cfg(test)]
mod tests {
    use super::named;

    #[test]
    fn the_member_a_complaint_names() {
        assert_eq!(
            named("cannot find symbol\n  symbol:   method getName()\n  location: variable u of type p.User"),
            Some("getName")
        );
        assert_eq!(named("cannot find symbol\n  symbol:   variable log\n  location: class p.A"), Some("log"));
        assert_eq!(named("constructor User in class p.User cannot be applied to given types;"), Some("User"));
        assert_eq!(named("variable name not initialized in the default constructor"), Some("name"));
        assert_eq!(
            named("cannot find symbol\n  symbol:   method <java.lang.Long>builder()\n  location: class p.B"),
            Some("builder")
        );
        assert_eq!(named("incompatible types"), None);
        assert!(super::is_val_complaint(
            "incompatible types: java.util.ArrayList<java.lang.String> cannot be converted to lombok.val"
        ));
        assert!(!super::is_val_complaint("cannot find symbol\n  symbol: class lombok.values"));
    }

    #[test]
    fn the_type_javac_looked_in_and_the_switch_of_a_case() {
        use super::{case_of_switch_at, location_type};
        assert_eq!(
            location_type("cannot find symbol\n  symbol:   method getId()\n  location: variable p of type p.Product"),
            Some("p.Product")
        );
        assert_eq!(
            location_type("cannot find symbol\n  symbol:   variable log\n  location: class p.A<T>"),
            Some("p.A")
        );
        assert_eq!(location_type("cannot find symbol\n  symbol: class Getter"), None);
        let text = b"class A {\n  int f(M m) {\n    switch (m.getType()) {\n      case ONE -> {\n        return 1;\n      }\n    }\n  }\n}\n";
        assert_eq!(case_of_switch_at(text, 4), Some(3));
        assert_eq!(case_of_switch_at(text, 5), None);
    }
}
