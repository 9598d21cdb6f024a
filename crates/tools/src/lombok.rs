//! What javac says about Lombok's members when Lombok did not run (an untrusted workspace, or
//! no Lombok on the classpath): `cannot find symbol … method getName()` where the reference
//! engine binds the call to a member Lombok generates, a constructor Lombok generates that
//! "cannot be applied", a final field "not initialized in the default constructor" of a type
//! whose constructor Lombok generates. Those are no problems of the code (a build with Lombok
//! compiles it): they are left out of `get_problems`' answer, counted, and the answer says why.

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
    let mut refs: HashMap<String, Vec<mji_xref::Ref>> = HashMap::new();
    let before = problems.len();
    problems.retain(|p| {
        if p.source != ProblemSource::Javac {
            return true;
        }
        // Lombok's `val`/`var` is a type only Lombok makes sense of: every complaint naming it
        // (`… cannot be converted to lombok.val`, `location: variable names of type lombok.val`).
        if is_val_complaint(&p.message) {
            return false;
        }
        if !CODES.contains(&p.code.as_str()) {
            return true;
        }
        let (Some(name), Some(path)) = (named(&p.message), paths.get(p.file.as_str())) else { return true };
        let file_refs = refs.entry(p.file.clone()).or_insert_with(|| {
            let path: Arc<Path> = Arc::from(*path);
            mji_fs::read_regular(&path, mji_fs::DEFAULT_MAX_FILE_BYTES)
                .map(|b| ws.xref().refs_in(&w, &path, &b))
                .unwrap_or_default()
        });
        let generated = |key: &str| mji_xref::rename::generated_at(&w, key).is_some();
        let member = |key: &str| key.split_once('#').map(|(_, m)| m.split('(').next().unwrap_or(m).to_owned());
        if file_refs
            .iter()
            .filter(|r| r.line == p.line)
            .flat_map(|r| &r.targets)
            .any(|k| member(k).as_deref() == Some(name) && generated(k))
        {
            return false;
        }
        // A final field javac finds uninitialized, in a type whose constructor Lombok makes.
        if p.code.starts_with("compiler.err.var.") {
            return !w.files.iter().filter(|f| *f.path == **path).any(|f| {
                f.decls().types.iter().any(|t| {
                    t.fields.iter().any(|fd| &*fd.name == name && fd.line == p.line)
                        && t.ctors.iter().any(|c| c.generated)
                })
            });
        }
        true
    });
    before - problems.len()
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
}
