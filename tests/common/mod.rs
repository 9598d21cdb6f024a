//! Helpers shared by the test binaries: a compact text rendering of outlines.
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
