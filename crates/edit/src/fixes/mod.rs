//! Quick fixes for javac's diagnostics (an IDE's light bulb): what a diagnostic offers, read
//! from javac's key and message ([`offer`]), the fix ids `get_problems` lists and
//! `refactor_actions` takes back, and one file per fix with its before/after cases:
//!
//! | diagnostic | [`Offer`] | fix id kinds: files |
//! |---|---|---|
//! | `compiler.err.cant.resolve[.location]`, a type's name | `Import` | `import` ([`crate::imports`]), `class`: `create_class.rs` |
//! | `compiler.err.cant.resolve[.location]`, a variable | `CreateVariable` | `field`: `create_field.rs`, `local`: `create_local.rs` |
//! | `compiler.err.cant.resolve.location.args` | `CreateMethod` | `method`: `create_method.rs` |
//! | `compiler.err.prob.found.req` (lossy, or from `Object`) | `Cast` | `cast`: `add_cast.rs` |
//! | `compiler.err.unreported.exception.*` | `Exception` | `throws`: `add_throws.rs`, `try`: `surround_with_try.rs` |
//! | `compiler.err.does.not.override.abstract` | `Implement` | `implement` ([`crate::inherit`]) |
//! | `hint.unused.import` | `RemoveImport` | `unimport`: `remove_import.rs` |
//! | `hint.unused.local` | `RemoveLocal` | `unlocal`: `remove_local.rs` |
//! | `hint.missing.override` | `AddOverride` | `override`: `add_override.rs` |
//!
//! `site.rs` holds what the fixes share: the code around a diagnostic's position.
//!
//! The dispatch is here too: [`offered`] lists the fixes of diagnostics given as plain data
//! ([`Diagnostic`]: `get_problems`' problems, which this crate does not know), and [`run`]
//! makes the edit a fix id names, re-checking a hint's fix against [`Ctx::hints`].
//!
//! A fix id names the file, the diagnostic's position, the fix and a stamp of the file's
//! content: the same diagnostic of the same text always gets the same id, and an id whose file
//! has changed since is refused as stale rather than applied to other code.

mod add_cast;
mod add_override;
mod add_throws;
pub mod create_class;
mod create_field;
mod create_local;
mod create_method;
mod remove_import;
mod remove_local;
mod site;
mod surround_with_try;

pub use add_cast::{add_cast, expression_at};
pub use add_override::add_override;
pub use add_throws::add_throws;
pub use create_field::create_field;
pub use create_local::create_local;
pub use create_method::create_method;
pub use remove_import::remove_import;
pub use remove_local::remove_local;
pub use surround_with_try::surround_with_try;

use std::collections::HashMap;
use std::sync::Arc;

use mji_xref::world::World;

use crate::actions::ActionError;
use crate::ctx::{Ctx, Outcome};
use crate::{Doc, TextEdit};

/// The hint of an unused import.
pub const UNUSED_IMPORT: &str = "hint.unused.import";
/// The hint of an unused local variable.
pub const UNUSED_LOCAL: &str = "hint.unused.local";
/// The hint of a method overriding a visible supertype method without `@Override`.
pub const MISSING_OVERRIDE: &str = "hint.missing.override";

/// One fix of one diagnostic, as a fix id spells it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixId {
    /// The file as answers show it.
    pub file: String,
    pub line: u32,
    pub column: u32,
    /// One of [`KINDS`].
    pub kind: String,
    /// The import's qualified name, the exception's, the class's simple name.
    pub arg: String,
    /// The first 8 hex digits of the file's content hash when the id was made.
    pub stamp: String,
}

impl FixId {
    pub fn new(file: &str, line: u32, column: u32, kind: &str, arg: &str, content: &[u8]) -> FixId {
        FixId { file: file.to_owned(), line, column, kind: kind.to_owned(), arg: arg.to_owned(), stamp: stamp(content) }
    }

    /// `file:line:column:kind=arg@stamp`.
    pub fn encode(&self) -> String {
        format!("{}:{}:{}:{}={}@{}", self.file, self.line, self.column, self.kind, self.arg, self.stamp)
    }

    /// Reads an id [`FixId::encode`] wrote.
    pub fn parse(s: &str) -> Result<FixId, String> {
        let bad = || format!("`{s}` is not a fixId (get_problems lists each diagnostic's fixes with their fixId)");
        let (rest, stamp) = s.trim().rsplit_once('@').ok_or_else(bad)?;
        let (rest, fix) = rest.rsplit_once(':').ok_or_else(bad)?;
        let (kind, arg) = fix.split_once('=').ok_or_else(bad)?;
        let (rest, column) = rest.rsplit_once(':').ok_or_else(bad)?;
        let (file, line) = rest.rsplit_once(':').ok_or_else(bad)?;
        let (Ok(line), Ok(column)) = (line.parse(), column.parse()) else { return Err(bad()) };
        if file.is_empty() || stamp.len() != 8 || !KINDS.contains(&kind) {
            return Err(bad());
        }
        Ok(FixId {
            file: file.to_owned(),
            line,
            column,
            kind: kind.to_owned(),
            arg: arg.to_owned(),
            stamp: stamp.to_owned(),
        })
    }

    /// Whether the file's content is no longer what the id was made from.
    pub fn is_stale(&self, content: &[u8]) -> bool {
        stamp(content) != self.stamp
    }
}

/// The fix kinds a fix id may name.
pub const KINDS: &[&str] = &[
    "import",
    "throws",
    "try",
    "implement",
    "unimport",
    "unlocal",
    "cast",
    "method",
    "field",
    "local",
    "override",
    "class",
];

fn stamp(content: &[u8]) -> String {
    mji_parser::content_hash(content)[..8].to_owned()
}

/// What a javac diagnostic offers to fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Offer {
    /// An unresolved type name (its simple name): import one of the types of that name.
    Import(String),
    /// An unreported checked exception (as javac names it, qualified): `throws` or try/catch.
    Exception(String),
    /// A class that does not implement an abstract method (its simple name).
    Implement(String),
    /// An unused import (the hint `hint.unused.import`): remove it.
    RemoveImport,
    /// An unused local variable (`hint.unused.local`): remove its declaration.
    RemoveLocal,
    /// A cast to the type javac names (lossy conversion, or `Object` to it).
    Cast(String),
    /// A missing method called by its simple name: its name and javac's argument types.
    CreateMethod(String, Vec<String>),
    /// A missing variable read or assigned by its simple name: a field or a local.
    CreateVariable(String),
    /// A method overriding a supertype's without `@Override` (`hint.missing.override`).
    AddOverride,
}

/// The fix a diagnostic offers, from javac's key and message.
pub fn offer(code: &str, message: &str) -> Option<Offer> {
    match code {
        "compiler.err.cant.resolve.location" | "compiler.err.cant.resolve" => {
            let symbol = message.lines().find_map(|l| l.trim().strip_prefix("symbol:"))?;
            let mut words = symbol.split_whitespace();
            let (kind, name) = (words.next()?, words.next()?);
            // `Collections.emptyList()` unresolved is javac's `variable Collections`.
            let type_like = kind == "class" || (kind == "variable" && name.starts_with(char::is_uppercase));
            if !crate::is_identifier(name) {
                return None;
            }
            if type_like {
                Some(Offer::Import(name.to_owned()))
            } else {
                (kind == "variable").then(|| Offer::CreateVariable(name.to_owned()))
            }
        }
        "compiler.err.cant.resolve.location.args" => {
            let symbol = message.lines().find_map(|l| l.trim().strip_prefix("symbol:"))?.trim();
            let (name, args) = symbol.strip_prefix("method ")?.strip_suffix(')')?.split_once('(')?;
            crate::is_identifier(name).then(|| Offer::CreateMethod(name.to_owned(), split_types(args)))
        }
        "compiler.err.prob.found.req" => {
            let rest = message.lines().next()?.strip_prefix("incompatible types: ")?;
            let target = match rest.strip_prefix("possible lossy conversion from ") {
                Some(r) => r.split_once(" to ")?.1,
                None => rest.strip_prefix("java.lang.Object cannot be converted to ")?,
            };
            let target = target.trim();
            castable_name(target).then(|| Offer::Cast(target.to_owned()))
        }
        UNUSED_IMPORT => Some(Offer::RemoveImport),
        UNUSED_LOCAL => Some(Offer::RemoveLocal),
        MISSING_OVERRIDE => Some(Offer::AddOverride),
        // Also a try-with-resources' implicit close().
        "compiler.err.unreported.exception.need.to.catch.or.throw"
        | "compiler.err.unreported.exception.implicit.close" => {
            let rest = message.strip_prefix("unreported exception ")?;
            let name = rest.split(';').next()?.trim();
            (!name.is_empty() && name.split('.').all(crate::is_identifier)).then(|| Offer::Exception(name.to_owned()))
        }
        "compiler.err.does.not.override.abstract" => {
            // `qf.Task is not abstract …` (javac qualifies it).
            let name = message.split_whitespace().next()?.rsplit('.').next()?;
            crate::is_identifier(name).then(|| Offer::Implement(name.to_owned()))
        }
        _ => None,
    }
}

/// A primitive type or a (qualified) type name without type arguments.
pub(crate) fn castable_name(ty: &str) -> bool {
    const PRIMITIVES: &[&str] = &["byte", "short", "char", "int", "long", "float", "double", "boolean"];
    PRIMITIVES.contains(&ty) || ty.split('.').all(crate::is_identifier)
}

/// javac's comma-separated types, split at the commas outside `<…>`.
pub fn split_types(s: &str) -> Vec<String> {
    let (mut out, mut depth, mut cur) = (Vec::new(), 0i32, String::new());
    for c in s.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out.into_iter().map(|t| t.trim().to_owned()).collect()
}

/// How the code names `qualified`: its simple name, with the import that makes it usable when
/// one is needed, or the qualified name when another type of that name is imported.
pub(crate) fn type_name(doc: &Doc, qualified: &str) -> (String, Option<TextEdit>) {
    let simple = qualified.rsplit('.').next().unwrap_or(qualified).to_owned();
    if !qualified.contains('.') {
        return (simple, None);
    }
    match crate::imports::ensure_import_sorted(doc, qualified) {
        Ok(edit) => (simple, edit),
        Err(()) => (qualified.to_owned(), None),
    }
}

/// A diagnostic as the fixes read it (plain data: `get_problems`' problems carry more).
#[derive(Debug, Clone, Copy)]
pub struct Diagnostic<'a> {
    /// The file as answers show it.
    pub file: &'a str,
    /// javac's key (`compiler.err.…`) or a hint's (`hint.…`).
    pub code: &'a str,
    pub message: &'a str,
    /// 1-based line and UTF-16 column of its position.
    pub line: u32,
    pub column: u32,
    /// The range it spans, as (line, column) at its start and end.
    pub range: ((u32, u32), (u32, u32)),
}

/// One fix a diagnostic offers: the id `refactor_actions` takes back and its title.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offered {
    pub fix_id: String,
    pub title: String,
}

/// The fixes each of `diagnostics` offers, in their order (files read once; the world only
/// when an import is offered).
pub fn offered(ctx: &dyn Ctx, diagnostics: &[Diagnostic]) -> Vec<Vec<Offered>> {
    let mut docs: HashMap<&str, Option<Doc>> = HashMap::new();
    let mut world = None;
    let mut out = Vec::with_capacity(diagnostics.len());
    for p in diagnostics {
        let mut fixes = Vec::new();
        if let Some(offer) = offer(p.code, p.message) {
            let doc = docs.entry(p.file).or_insert_with(|| Doc::read(&ctx.path_of(p.file)?, p.file).ok());
            if let Some(doc) = doc.as_ref() {
                offered_by(ctx, &mut world, doc, p, offer, &mut fixes);
            }
        }
        out.push(fixes);
    }
    out
}

/// What `offer`, the offer of the diagnostic `p` of `doc`, lists.
fn offered_by(
    ctx: &dyn Ctx,
    world: &mut Option<Arc<World>>,
    doc: &Doc,
    p: &Diagnostic,
    offer: Offer,
    fixes: &mut Vec<Offered>,
) {
    let Some(at) = doc.offset(p.line, p.column) else { return };
    let id = |kind: &str, arg: &str| FixId::new(p.file, p.line, p.column, kind, arg, &doc.bytes).encode();
    let simple = |q: &str| q.rsplit('.').next().unwrap_or(q).to_owned();
    let mut push = |fix_id: String, title: String| fixes.push(Offered { fix_id, title });
    match offer {
        Offer::Import(name) => {
            let w = world.get_or_insert_with(|| ctx.world().0);
            for c in crate::imports::candidates(w, &name) {
                if matches!(crate::imports::ensure_import(doc, &c), Ok(Some(_))) {
                    push(id("import", &c), format!("import {c}"));
                }
            }
            if let Ok(c) = create_class::new_class(ctx, w, doc, at, &name) {
                push(id("class", &name), format!("create class {name} in {}", c.display()));
            }
        }
        Offer::Exception(x) => {
            if add_throws(doc, at, &x).is_ok() {
                push(id("throws", &x), format!("add throws {}", simple(&x)));
            }
            if surround_with_try(doc, at, &x).is_ok() {
                push(id("try", &x), format!("surround with try/catch {}", simple(&x)));
            }
        }
        Offer::AddOverride => {
            if add_override(doc, at).is_ok() {
                push(id("override", ""), "add @Override".into());
            }
        }
        Offer::RemoveImport => {
            if remove_import(doc, at).is_ok() {
                push(id("unimport", ""), "remove the unused import".into());
            }
        }
        Offer::RemoveLocal => {
            let name = p.message.split('`').nth(1).unwrap_or_default().to_owned();
            if remove_local(doc, at).is_ok() {
                push(id("unlocal", &name), format!("remove the unused variable {name}"));
            }
        }
        Offer::Cast(ty) => {
            // At the expression javac's range spans (its position may be an operator's).
            let ((sl, sc), (el, ec)) = p.range;
            let (Some(from), Some(to)) = (doc.offset(sl, sc), doc.offset(el, ec)) else { return };
            if expression_at(doc, from) == Some((from, to)) && add_cast(doc, from, &ty).is_ok() {
                let fix_id = FixId::new(p.file, sl, sc, "cast", &ty, &doc.bytes).encode();
                push(fix_id, format!("cast to {}", simple(&ty)));
            }
        }
        Offer::CreateMethod(name, args) => {
            if create_method(doc, at, &name, &args).is_ok() {
                let sig = format!("{name}({})", args.join(","));
                push(id("method", &sig), format!("create method {sig}"));
            }
        }
        Offer::CreateVariable(name) => {
            if create_field(doc, at, &name).is_ok() {
                push(id("field", &name), format!("create field {name}"));
            }
            if create_local(doc, at, &name).is_ok() {
                push(id("local", &name), format!("create local variable {name}"));
            }
        }
        Offer::Implement(name) => {
            let outline = ctx.outline(doc);
            if type_named(&outline.classes, &name, p.line).is_some() {
                push(id("implement", &name), format!("implement the abstract methods of {name}"));
            }
        }
    }
}

/// The type named `simple` whose lines hold `line`, the innermost first.
fn type_named<'a>(types: &'a [mji_model::TypeDecl], simple: &str, line: u32) -> Option<&'a mji_model::TypeDecl> {
    types.iter().filter(|t| t.start_line <= line && line <= t.end_line).find_map(|t| {
        type_named(&t.inner_classes, simple, line)
            .or((t.qualified_name.rsplit(['.', '$']).next() == Some(simple)).then_some(t))
    })
}

/// The edit the fix `id` names in `doc` (the file it names), refused when the file changed
/// since the id was made or the fix no longer applies there.
pub fn run(ctx: &dyn Ctx, doc: &Doc, id: &FixId) -> Result<Outcome, ActionError> {
    if id.is_stale(&doc.bytes) {
        return Err(ActionError::Refused(format!(
            "stale fixId: {} changed since get_problems listed this fix; nothing was written. Call get_problems again for the current fixes",
            id.file
        )));
    }
    let at = doc.offset(id.line, id.column).ok_or_else(|| {
        ActionError::Refused(format!("fixId names {}:{}:{}, not in the file", id.file, id.line, id.column))
    })?;
    let refused = |why: String| ActionError::Refused(format!("fix {} refused: {why}", id.kind));
    if id.kind == "class" {
        return create_class::create(ctx, doc, at, &id.arg);
    }
    let display = &doc.display;
    let one = |edits: Vec<TextEdit>, summary: String| Outcome::in_doc(doc, edits, summary);
    Ok(match id.kind.as_str() {
        "import" => match crate::imports::ensure_import_sorted(doc, &id.arg) {
            Ok(Some(e)) => one(vec![e], format!("import {} in {display}", id.arg)),
            Ok(None) => return Err(refused(format!("{} is usable in {display} already", id.arg))),
            Err(()) => return Err(refused(format!("another type named like {} is imported", id.arg))),
        },
        "throws" => add_throws(doc, at, &id.arg).map_err(refused)?,
        "try" => surround_with_try(doc, at, &id.arg).map_err(refused)?,
        "unimport" | "unlocal" => {
            // Only what the file's hints still call unused.
            let code = if id.kind == "unimport" { UNUSED_IMPORT } else { UNUSED_LOCAL };
            if !ctx.hints(doc, code).contains(&(id.line, id.column)) {
                return Err(refused(format!("nothing unused at {}:{}", id.line, id.column)));
            }
            if id.kind == "unimport" {
                remove_import(doc, at).map_err(refused)?
            } else {
                remove_local(doc, at).map_err(refused)?
            }
        }
        "override" => {
            if !ctx.hints(doc, MISSING_OVERRIDE).contains(&(id.line, id.column)) {
                return Err(refused(format!("no method overriding a supertype's at {}:{}", id.line, id.column)));
            }
            add_override(doc, at).map_err(refused)?
        }
        "cast" => add_cast(doc, at, &id.arg).map_err(refused)?,
        "method" => {
            let bad = || refused(format!("`{}` is not a method signature", id.arg));
            let (name, args) = id.arg.strip_suffix(')').and_then(|a| a.split_once('(')).ok_or_else(bad)?;
            let args = split_types(args);
            create_method(doc, at, name, &args).map_err(refused)?
        }
        "field" => create_field(doc, at, &id.arg).map_err(refused)?,
        "local" => create_local(doc, at, &id.arg).map_err(refused)?,
        _ => {
            let outline = ctx.outline(doc);
            let ty = type_named(&outline.classes, &id.arg, id.line)
                .ok_or_else(|| refused(format!("no class {} at line {}", id.arg, id.line)))?;
            let opts = crate::generate::Options::default();
            let g =
                crate::actions::generate::inherited(ctx, doc, ty, crate::generate::Action::ImplementMethods, &opts)?;
            if g.members.is_empty() {
                return Err(refused(format!("{} has no abstract method left to implement", id.arg)));
            }
            one(g.edits, format!("implement {} in {}", g.members.join(", "), ty.qualified_name))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::TestCtx;
    use expect_test::{Expect, expect};

    /// The fixes `diagnostic` (code, message, line, column, its range's end column) offers in
    /// `p/A.java` of `src`, one `title  fixId` a line.
    fn offers(ctx: &TestCtx, diagnostic: (&str, &str, u32, u32, u32), after: Expect) {
        let (code, message, line, column, end) = diagnostic;
        let d = Diagnostic { file: "p/A.java", code, message, line, column, range: ((line, column), (line, end)) };
        let offered = offered(ctx, &[d]);
        let shown: Vec<String> = offered[0].iter().map(|f| format!("{}  {}", f.title, f.fix_id)).collect();
        after.assert_eq(&shown.join("\n"));
    }

    /// The fix `kind=arg` at `line`:`column` of `p/A.java`, run: its summary and the file after,
    /// or the refusal.
    fn fixed(ctx: &TestCtx, line: u32, column: u32, kind: &str, arg: &str, after: Expect) {
        let path = ctx.root.join("p/A.java");
        let doc = crate::ctx::Ctx::read(ctx, &path).expect("read");
        let id = FixId::new("p/A.java", line, column, kind, arg, &doc.bytes);
        let shown = match run(ctx, &doc, &id) {
            Ok(o) => {
                let plan = o.edit.plan().expect("plan");
                format!("{}\n{}", o.summary, String::from_utf8_lossy(&plan.files[0].new))
            }
            Err(e) => format!("refused: {e}"),
        };
        after.assert_eq(&shown);
    }

    const THROWS: &str =
        "package p;\n\nclass A {\n    void f() {\n        throw new java.io.IOException();\n    }\n}\n";

    #[test]
    fn an_unreported_exception_offers_throws_and_try() {
        let ctx = TestCtx::new(&[("p/A.java", THROWS)]);
        let m = "unreported exception java.io.IOException; must be caught or declared to be thrown";
        offers(
            &ctx,
            ("compiler.err.unreported.exception.need.to.catch.or.throw", m, 5, 9, 41),
            expect![[r#"
            add throws IOException  p/A.java:5:9:throws=java.io.IOException@10772891
            surround with try/catch IOException  p/A.java:5:9:try=java.io.IOException@10772891"#]],
        );
    }

    #[test]
    fn a_missing_variable_offers_a_field_and_a_local() {
        let src = "package p;\n\nclass A {\n    void f() {\n        count = 1;\n    }\n}\n";
        let ctx = TestCtx::new(&[("p/A.java", src)]);
        let m = "cannot find symbol\n  symbol:   variable count\n  location: class p.A";
        offers(
            &ctx,
            ("compiler.err.cant.resolve.location", m, 5, 9, 14),
            expect![[r#"
            create field count  p/A.java:5:9:field=count@f73fc70a
            create local variable count  p/A.java:5:9:local=count@f73fc70a"#]],
        );
    }

    #[test]
    fn a_diagnostic_without_a_fix_offers_none() {
        let ctx = TestCtx::new(&[("p/A.java", THROWS)]);
        offers(&ctx, ("compiler.err.missing.ret.stmt", "missing return statement", 5, 9, 10), expect![[r#""#]]);
    }

    #[test]
    fn a_fix_id_runs_its_fix() {
        let ctx = TestCtx::new(&[("p/A.java", THROWS)]);
        fixed(
            &ctx,
            5,
            9,
            "throws",
            "java.io.IOException",
            expect![[r#"
            add throws java.io.IOException
            package p;

            import java.io.IOException;

            class A {
                void f() throws IOException {
                    throw new java.io.IOException();
                }
            }
        "#]],
        );
    }

    #[test]
    fn a_fix_id_of_a_changed_file_is_stale() {
        let ctx = TestCtx::new(&[("p/A.java", THROWS)]);
        let path = ctx.root.join("p/A.java");
        let doc = crate::ctx::Ctx::read(&ctx, &path).expect("read");
        let id = FixId::new("p/A.java", 5, 9, "throws", "java.io.IOException", b"class A {}");
        let e = run(&ctx, &doc, &id).expect_err("stale");
        expect!["stale fixId: p/A.java changed since get_problems listed this fix; nothing was written. Call get_problems again for the current fixes"].assert_eq(&e.to_string());
    }

    #[test]
    fn a_fix_id_outside_its_file_is_refused() {
        let ctx = TestCtx::new(&[("p/A.java", THROWS)]);
        fixed(
            &ctx,
            40,
            1,
            "throws",
            "java.io.IOException",
            expect!["refused: fixId names p/A.java:40:1, not in the file"],
        );
    }

    const UNUSED: &str = "package p;\n\nimport java.util.List;\n\nclass A {\n}\n";

    #[test]
    fn an_unused_import_is_removed_where_the_hint_still_says_so() {
        let ctx = TestCtx::new(&[("p/A.java", UNUSED)]).with_hint(UNUSED_IMPORT, "p/A.java", 3, 1);
        fixed(
            &ctx,
            3,
            1,
            "unimport",
            "",
            expect![[r#"
            remove an unused import of p/A.java
            package p;


            class A {
            }
        "#]],
        );
    }

    #[test]
    fn an_import_no_hint_calls_unused_is_kept() {
        let ctx = TestCtx::new(&[("p/A.java", UNUSED)]);
        fixed(&ctx, 3, 1, "unimport", "", expect!["refused: fix unimport refused: nothing unused at 3:1"]);
    }

    #[test]
    fn add_override_needs_the_hint() {
        let src = "package p;\n\nclass A {\n    public String toString() {\n        return \"\";\n    }\n}\n";
        let ctx = TestCtx::new(&[("p/A.java", src)]);
        fixed(
            &ctx,
            4,
            19,
            "override",
            "",
            expect!["refused: fix override refused: no method overriding a supertype's at 4:19"],
        );
        let ctx = ctx.with_hint(MISSING_OVERRIDE, "p/A.java", 4, 19);
        fixed(
            &ctx,
            4,
            19,
            "override",
            "",
            expect![[r#"
            add @Override
            package p;

            class A {
                @Override
                public String toString() {
                    return "";
                }
            }
        "#]],
        );
    }

    #[test]
    fn an_unresolved_type_offers_its_imports_and_a_new_class() {
        let src = "package p;\n\nclass A {\n    List<String> xs;\n}\n";
        let ctx = TestCtx::new(&[("p/A.java", src)]);
        let m = "cannot find symbol\n  symbol:   class List\n  location: class p.A";
        offers(
            &ctx,
            ("compiler.err.cant.resolve.location", m, 4, 5, 9),
            expect![[r#"
            import java.awt.List  p/A.java:4:5:import=java.awt.List@27d9a0ab
            import java.util.List  p/A.java:4:5:import=java.util.List@27d9a0ab
            create class List in p/List.java  p/A.java:4:5:class=List@27d9a0ab"#]],
        );
    }

    #[test]
    fn an_import_fix_imports_the_type() {
        let src = "package p;\n\nclass A {\n    List<String> xs;\n}\n";
        let ctx = TestCtx::new(&[("p/A.java", src)]);
        fixed(
            &ctx,
            4,
            5,
            "import",
            "java.util.List",
            expect![[r#"
            import java.util.List in p/A.java
            package p;

            import java.util.List;

            class A {
                List<String> xs;
            }
        "#]],
        );
    }

    #[test]
    fn fix_ids_round_trip_and_name_their_content() {
        let id = FixId::new("src/p/A.java", 3, 9, "import", "java.util.List", b"class A {}");
        let s = id.encode();
        assert_eq!(FixId::parse(&s), Ok(id.clone()));
        assert!(!id.is_stale(b"class A {}"));
        assert!(id.is_stale(b"class A { }"));
        for bad in ["", "x", "a:1:2:import=x", "a:1:2:nope=x@12345678", "a:x:2:import=x@12345678"] {
            assert_eq!(
                FixId::parse(bad),
                Err(format!("`{bad}` is not a fixId (get_problems lists each diagnostic's fixes with their fixId)"))
            );
        }
    }

    #[test]
    fn offers_from_javac_messages() {
        let m = "cannot find symbol\n  symbol:   class List\n  location: class A";
        assert_eq!(offer("compiler.err.cant.resolve.location", m), Some(Offer::Import("List".into())));
        let m = "cannot find symbol\n  symbol:   variable count\n  location: class A";
        assert_eq!(offer("compiler.err.cant.resolve.location", m), Some(Offer::CreateVariable("count".into())));
        let m = "cannot find symbol\n  symbol:   method f(int,java.util.Map<java.lang.String,java.lang.Integer>)\n  location: class A";
        assert_eq!(
            offer("compiler.err.cant.resolve.location.args", m),
            Some(Offer::CreateMethod(
                "f".into(),
                vec!["int".into(), "java.util.Map<java.lang.String,java.lang.Integer>".into()]
            ))
        );
        let m = "incompatible types: possible lossy conversion from double to int";
        assert_eq!(offer("compiler.err.prob.found.req", m), Some(Offer::Cast("int".into())));
        let m = "incompatible types: java.lang.Object cannot be converted to java.lang.String";
        assert_eq!(offer("compiler.err.prob.found.req", m), Some(Offer::Cast("java.lang.String".into())));
        let m = "incompatible types: java.lang.String cannot be converted to java.lang.Integer";
        assert_eq!(offer("compiler.err.prob.found.req", m), None);
        let m = "unreported exception java.io.IOException; must be caught or declared to be thrown";
        assert_eq!(
            offer("compiler.err.unreported.exception.need.to.catch.or.throw", m),
            Some(Offer::Exception("java.io.IOException".into()))
        );
        let m = "unreported exception java.io.IOException; must be caught or declared to be thrown\n  exception thrown from implicit call to close() on resource variable r";
        assert_eq!(
            offer("compiler.err.unreported.exception.implicit.close", m),
            Some(Offer::Exception("java.io.IOException".into()))
        );
        let m = "p.A.B is not abstract and does not override abstract method run() in java.lang.Runnable";
        assert_eq!(offer("compiler.err.does.not.override.abstract", m), Some(Offer::Implement("B".into())));
    }
}
