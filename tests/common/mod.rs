//! Helpers shared by the test binaries: a compact text rendering of outlines, and copying a
//! fixture tree into a temp directory.
#![allow(dead_code)]

use mcp_java_index::model::{FileOutline, Javadoc, TypeDecl};

fn doc(j: &Javadoc) -> String {
    match (j.start_line, j.end_line) {
        (Some(s), Some(e)) => format!(" doc {s}-{e}"),
        _ => String::new(),
    }
}

/// One line per declaration: `kind name start-end [doc s-e] [(params)]`, nested by indentation.
pub fn render(o: &FileOutline) -> String {
    fn ty(t: &TypeDecl, depth: usize, out: &mut String) {
        let pad = "  ".repeat(depth);
        out.push_str(&format!(
            "{pad}{} {} {}-{}{}\n",
            t.kind.as_str(),
            t.qualified_name,
            t.start_line,
            t.end_line,
            doc(&t.javadoc)
        ));
        for c in t.record_components.iter().flatten() {
            out.push_str(&format!("{pad}  component {} {}\n", c.type_text, c.name));
        }
        for c in t.enum_constants.iter().flatten() {
            out.push_str(&format!("{pad}  constant {} {}-{}{}\n", c.name, c.start_line, c.end_line, doc(&c.javadoc)));
        }
        for f in &t.fields {
            out.push_str(&format!(
                "{pad}  field {} {} {}-{}{}\n",
                f.type_text,
                f.name,
                f.start_line,
                f.end_line,
                doc(&f.javadoc)
            ));
        }
        for c in &t.constructors {
            let ps: Vec<_> = c.params.iter().map(|p| p.type_text.as_str()).collect();
            out.push_str(&format!(
                "{pad}  ctor {}({}) {}-{}{}\n",
                c.name,
                ps.join(","),
                c.start_line,
                c.end_line,
                doc(&c.javadoc)
            ));
        }
        for m in &t.methods {
            let ps: Vec<_> = m.params.iter().map(|p| p.type_text.as_str()).collect();
            out.push_str(&format!(
                "{pad}  method {} {}({}) {}-{}{}\n",
                m.return_type_text,
                m.name,
                ps.join(","),
                m.start_line,
                m.end_line,
                doc(&m.javadoc)
            ));
        }
        for i in &t.inner_classes {
            ty(i, depth + 1, out);
        }
    }
    let mut out = String::new();
    for t in &o.classes {
        ty(t, 0, &mut out);
    }
    for e in &o.errors {
        out.push_str(&format!("{:?} {:?}: {}\n", e.level, e.line, e.message));
    }
    out
}

/// Copies a directory tree (without any `.mcp-java-index-cache`), creating `to`.
pub fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read fixtures") {
        let p = e.expect("entry").path();
        if p.file_name().is_some_and(|n| n == ".mcp-java-index-cache") {
            continue;
        }
        let dest = to.join(p.file_name().expect("name"));
        if p.is_dir() {
            copy_dir(&p, &dest);
        } else {
            std::fs::copy(&p, &dest).expect("copy");
        }
    }
}
