//! `extract_method`: the statements of a range (or an exact part of a line) to a private
//! method, its parameters, result and `throws` from the data flow of the run ([`flow`]), the
//! same statements elsewhere in the class becoming calls too with `replaceAll`
//! ([`duplicates`]). The binder half here adds what only the binder knows: the exceptions of
//! the calls inside the run, and inherited methods of the new name.

pub mod duplicates;
pub mod flow;

use mji_xref::ty::Ty;
use mji_xref::world::{TypeId, World};

use crate::Doc;
use crate::actions::ActionError;
use crate::ctx::{Ctx, Outcome};
use flow::{Exceptions, SiteKind};

/// What `extract_method` takes: the statements from `line` (`column`) to `end_line`
/// (`end_column`, else the whole line), the method's name (default `extracted`), and whether
/// duplicates become calls too.
pub struct Request<'a> {
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
    pub new_name: &'a str,
    pub replace_all: bool,
}

/// `extract_method`: the statements from `startLine` to `endLine` (or the exact range with
/// columns) to a private method named `newName` (default `extracted`).
pub fn run(ctx: &dyn Ctx, doc: &Doc, args: &Request) -> Result<Outcome, ActionError> {
    let bad = |why: String| ActionError::Refused(format!("not extracted: {why}"));
    let text = doc.text();
    let start = doc.offset(args.line, args.column.max(1));
    let end = if args.end_column > 0 {
        doc.offset(args.end_line, args.end_column)
    } else {
        doc.offset(args.end_line + 1, 1).or(Some(text.len()).filter(|_| args.end_line == doc.line_of(text.len())))
    };
    let (start, end) = match (start, end) {
        (Some(s), Some(e)) if s < e => (s, e),
        _ => return Err(bad("the range is not inside the file, or ends before it starts".into())),
    };
    let name = if args.new_name.trim().is_empty() { "extracted" } else { args.new_name.trim() };
    if !crate::is_identifier(name) {
        return Err(bad(format!("`{name}` is not a Java identifier")));
    }
    let x = flow::analyse(doc, start, end, name).map_err(bad)?;
    let (w, _) = ctx.world();
    let fi = w.files.iter().position(|f| *f.path == *doc.path).ok_or_else(|| bad("the file is not indexed".into()))?;
    let here = type_at(&w, fi, doc.line_of(x.start));
    // An inherited method of the name: a new overload could take its calls.
    if let Some(id) = here {
        let (hits, _) = w.find_methods(&Ty::Class(w.decl(id).fqn.clone(), Vec::new()), name);
        if !hits.is_empty() {
            return Err(bad(format!("the class already has a method `{name}` (inherited); choose another newName")));
        }
    }
    let throws = throws(ctx, &w, fi, doc, here, &x.exceptions).map_err(bad)?;
    let mut edits = flow::edits(doc, &x, &throws);
    // replaceAll: the same statements elsewhere in the class become calls too.
    let dups = if args.replace_all { duplicates::duplicates(doc, &x, &throws) } else { Default::default() };
    edits.extend(dups.edits);
    let sig = format!(
        "{}{}({}){}",
        if x.is_static { "static " } else { "" },
        name,
        x.params.iter().map(|(t, n)| format!("{t} {n}")).collect::<Vec<_>>().join(", "),
        x.ret.as_ref().map_or(String::new(), |r| format!(" -> {} {}", r.0, r.1))
    );
    let mut summary = format!(
        "extract method {sig}{}: lines {}-{}",
        if throws.is_empty() { String::new() } else { format!(" throws {}", throws.join(", ")) },
        doc.line_of(x.start),
        doc.line_of(x.end)
    );
    if !dups.lines.is_empty() {
        let lines: Vec<String> = dups.lines.iter().map(u32::to_string).collect();
        let (what, at) = if lines.len() == 1 { ("duplicate", "line") } else { ("duplicates", "lines") };
        summary.push_str(&format!(", and the {what} at {at} {}", lines.join(", ")));
    }
    Ok(Outcome { warnings: dups.warnings, ..Outcome::in_doc(doc, edits, summary) })
}

/// The innermost type of file `fi` around `line`.
fn type_at(w: &World, fi: usize, line: u32) -> Option<TypeId> {
    let decls = &w.files[fi].decls().types;
    let ti = decls.iter().enumerate().rev().find(|(_, t)| t.start_line <= line && line <= t.end_line)?.0;
    Some(w.type_in_file(fi as u32, ti as u32))
}

/// The `throws` of the extracted method: none when the code around the run handles no
/// exception (it compiled, so the run throws no checked one); else those of the handled types
/// that an exception the run may throw (and does not catch itself) is, as the engine knows the
/// throws of the workspace's methods and the type of each `throw`. Unknown: refused.
fn throws(
    ctx: &dyn Ctx,
    w: &World,
    fi: usize,
    doc: &Doc,
    here: Option<TypeId>,
    ex: &Exceptions,
) -> Result<Vec<String>, String> {
    if ex.handled.is_empty() {
        return Ok(Vec::new());
    }
    let here = here.ok_or("the class around the statements is not known to the engine")?;
    let qualify = |id: TypeId, t: &str| -> Option<Ty> {
        let base = t.split('<').next().unwrap_or(t).trim();
        w.qualify_in(id, base).map(|f| Ty::Class(f.into(), Vec::new()))
    };
    let handled: Vec<(String, Option<Ty>)> = ex.handled.iter().map(|h| (h.clone(), qualify(here, h))).collect();
    let refs = mji_xref::bind::file_refs(w, fi as u32, &doc.bytes);
    let mut out: Vec<String> = Vec::new();
    for site in &ex.sites {
        let line = doc.line_of(site.start);
        let what = &doc.text()[site.start..site.end];
        let thrown: Vec<Ty> = match site.kind {
            SiteKind::Resource => {
                return Err(format!("the resource `{what}`'s close() may throw what the engine does not know"));
            }
            SiteKind::Throw => {
                let t = mji_xref::bind::expr_type(w, fi as u32, &doc.bytes, site.start, site.end)
                    .filter(|t| matches!(t, Ty::Class(..)))
                    .ok_or_else(|| format!("the engine could not type `throw {what}`"))?;
                vec![t]
            }
            SiteKind::Call | SiteKind::New => {
                let at = refs.iter().find(|r| {
                    r.line == line
                        && doc
                            .offset(r.line, r.column)
                            .is_some_and(|o| site.start <= o && o < site.end.max(site.start + 1))
                        && matches!(r.category, mji_xref::Category::Method | mji_xref::Category::Ctor)
                        && r.targets.len() == 1
                });
                let Some(key) = at.map(|r| r.targets[0].clone()) else {
                    return Err(format!(
                        "the engine could not bind the call `{what}` at line {line}, so its exceptions are not known"
                    ));
                };
                declared_throws(w, &key).or_else(|| library_throws(ctx, &key)).ok_or_else(|| {
                    format!("`{what}` (line {line}) is declared outside the workspace and its class file was not found; the engine does not know what it throws")
                })?
            }
        };
        for t in thrown {
            let is = |c: &Ty, name: &str| {
                class_name(&t).is_some_and(|f| f.rsplit('.').next() == Some(name.rsplit('.').next().unwrap_or(name)))
                    || w.is_subtype(&t, c) == Some(true)
            };
            let caught = site.caught.iter().any(|c| qualify(here, c).is_some_and(|cq| is(&cq, c)));
            let unchecked = ["java.lang.RuntimeException", "java.lang.Error"]
                .iter()
                .any(|u| w.is_subtype(&t, &Ty::Class((*u).into(), Vec::new())) == Some(true));
            if caught || unchecked {
                continue;
            }
            let mut matched = false;
            for (h, hq) in &handled {
                if hq.as_ref().is_some_and(|hq| is(hq, h)) {
                    matched = true;
                    if !out.contains(h) {
                        out.push(h.clone());
                    }
                }
            }
            if !matched {
                return Err(format!(
                    "`{what}` (line {line}) may throw {}, which the engine cannot relate to the exceptions handled around the statements",
                    class_name(&t).unwrap_or("an exception")
                ));
            }
        }
    }
    Ok(out)
}

/// The exceptions a workspace method or constructor declares (qualified), read from its
/// declaration; `None` outside the workspace.
fn declared_throws(w: &World, key: &str) -> Option<Vec<Ty>> {
    let (path, line) = mji_xref::calls::decl_of(w, key)?;
    let owner = w.workspace_type(key.split_once('#')?.0)?;
    let text = std::fs::read_to_string(&*path).ok()?;
    let tree = mji_parser::parse_tree(&text)?;
    let mut found = None;
    let mut stack = vec![tree.root_node()];
    while let Some(n) = stack.pop() {
        if matches!(n.kind(), mji_parser::kind::METHOD_DECLARATION | mji_parser::kind::CONSTRUCTOR_DECLARATION)
            && n.child_by_field_name("name").is_some_and(|x| x.start_position().row as u32 + 1 == line)
        {
            found = Some(n);
            break;
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    let n = found?;
    let mut out = Vec::new();
    let mut c = n.walk();
    for t in n.children(&mut c).filter(|c| c.kind() == mji_parser::kind::THROWS) {
        let mut c2 = t.walk();
        for x in t.named_children(&mut c2) {
            let name = x.utf8_text(text.as_bytes()).ok()?;
            out.push(Ty::Class(w.qualify_in(owner, name)?.into(), Vec::new()));
        }
    }
    Some(out)
}

/// The exceptions a JDK or library method declares, from its class file's `Exceptions`
/// attribute (what javac reads): the method of the key's name and parameter count, and when
/// several have both, the one whose parameter types, erased, are the key's. `None` when its
/// class is not in the library index or the method is not told apart.
fn library_throws(ctx: &dyn Ctx, key: &str) -> Option<Vec<Ty>> {
    let (owner, rest) = key.split_once('#')?;
    let (name, params) = rest.split_once('(')?;
    let params = params.strip_suffix(')')?;
    let wanted: Vec<&str> = if params.is_empty() { Vec::new() } else { params.split(',').collect() };
    let t = ctx.library_type(owner)?;
    let erased = |s: &str| {
        let mut out = String::new();
        let mut depth = 0;
        for c in s.chars() {
            match c {
                '<' => depth += 1,
                '>' => depth -= 1,
                c if depth == 0 && !c.is_whitespace() => out.push(c),
                _ => {}
            }
        }
        out.replace("...", "[]")
    };
    // A constructor's key is named by its class (`java.io.FileReader#FileReader(String)`).
    let ctor = owner.rsplit(['.', '$']).next() == Some(name);
    let callables: Vec<(&[mji_model::Param], &[String])> = if ctor {
        t.constructors.iter().map(|c| (c.params.as_slice(), c.throws.as_slice())).collect()
    } else {
        t.methods.iter().filter(|m| m.name == name).map(|m| (m.params.as_slice(), m.throws.as_slice())).collect()
    };
    let same: Vec<_> = callables.into_iter().filter(|(ps, _)| ps.len() == wanted.len()).collect();
    let (_, throws) = match same.as_slice() {
        [m] => *m,
        _ => *same.iter().find(|(ps, _)| ps.iter().zip(&wanted).all(|(p, w)| erased(&p.type_text) == *w))?,
    };
    Some(throws.iter().map(|e| Ty::Class(erased(e).into(), Vec::new())).collect())
}

fn class_name(t: &Ty) -> Option<&str> {
    match t {
        Ty::Class(f, _) => Some(f),
        _ => None,
    }
}

#[cfg(test)]
mod cases {
    use super::{Request, run};
    use crate::tests::{check, check_refused};
    use expect_test::expect;

    #[test]
    fn statements_become_a_method_with_their_inputs_and_result() {
        check(
            |ctx, doc, line, _| {
                let r = Request {
                    line,
                    column: 0,
                    end_line: line + 1,
                    end_column: 0,
                    new_name: "scaled",
                    replace_all: false,
                };
                run(ctx, doc, &r)
            },
            "class A {\n    int f(int a) {\n        $0int b = a * 2;\n        int c = b + 1;\n        return c;\n    }\n}\n",
            expect![[r#"
                class A {
                    int f(int a) {
                        int c = scaled(a);
                        return c;
                    }

                    private static int scaled(int a) {
                        int b = a * 2;
                        int c = b + 1;
                        return c;
                    }
                }
            "#]],
        );
    }

    #[test]
    fn a_name_that_is_not_an_identifier_is_refused() {
        check_refused(
            |ctx, doc, line, _| {
                let r =
                    Request { line, column: 0, end_line: line, end_column: 0, new_name: "class", replace_all: false };
                run(ctx, doc, &r)
            },
            "class A {\n    void f() {\n        $0System.out.println();\n    }\n}\n",
            "not extracted: `class` is not a Java identifier",
        );
    }
}

#[cfg(test)]
mod library_ctor_cases {
    use super::{Request, run};
    use crate::ctx::Ctx;
    use crate::tests::TestCtx;

    /// `java.io.FileReader` as its class file declares it: a constructor that throws.
    fn file_reader() -> mji_model::TypeDecl {
        let src = "package java.io;\npublic class FileReader extends java.io.InputStreamReader {\n    public FileReader(java.lang.String fileName) throws java.io.FileNotFoundException {}\n    public FileReader(java.io.File file) throws java.io.FileNotFoundException {}\n}\n";
        mji_parser::outline("FileReader.java", src.as_bytes()).classes.remove(0)
    }

    #[test]
    fn a_library_constructor_declares_what_it_throws() {
        let src = "package p;\n\nimport java.io.FileReader;\nimport java.io.IOException;\n\nclass A {\n    int first(String name) throws IOException {\n        FileReader r = new FileReader(name);\n        int c = r.read();\n        r.close();\n        return c;\n    }\n}\n";
        let ctx = TestCtx::new(&[("p/A.java", src)]).with_library(file_reader());
        let doc = ctx.read(&ctx.path_of("p/A.java").expect("path")).expect("read");
        let r = Request { line: 8, column: 0, end_line: 8, end_column: 0, new_name: "open", replace_all: false };
        let out = run(&ctx, &doc, &r).unwrap_or_else(|e| panic!("refused: {e}"));
        let plan = out.edit.plan().expect("plan");
        let text = String::from_utf8_lossy(&plan.files[0].new).into_owned();
        assert!(text.contains("private static FileReader open(String name) throws IOException {"), "{text}");
    }
}
