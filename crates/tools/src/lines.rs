//! The text the search and navigation tools answer a model with: lines, like `java_index`'s
//! table of contents, not their JSON. One result a line (`com.acme.Foo  src/…/Foo.java:12-80
//! public abstract class Foo — first sentence`), references grouped by file (the path, then
//! `line:col kind  code`), a header line with the totals and the next page's offset, and the
//! index status only when an answer carries it. The structured answers keep every field.

use std::fmt::Write;

use crate::find::{FindResourceResult, FindSymbolResult, FindTypeResult, IndexStatus};
use crate::xref::{DependenciesResult, FindReferencesResult, NonJavaMatches, ShowDefinitionResult};
use mji_xref::world::Origin;

/// `N things` with the plural when N is not 1.
fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `path:12-80`, `path:12`, or the path alone when there are no lines (a library's class).
fn at(path: &str, start: u32, end: u32) -> String {
    match (start, end) {
        (0, _) => path.to_owned(),
        (s, e) if s == e || e == 0 => format!("{path}:{s}"),
        (s, e) => format!("{path}:{s}-{e}"),
    }
}

/// The header's paging: `; N shown, next offset M` on a page that is not the last.
fn paging(shown: usize, next: Option<u64>) -> String {
    match next {
        Some(n) => format!("; {shown} shown, next page: offset={n}"),
        None => String::new(),
    }
}

fn origin_word(o: Origin) -> &'static str {
    match o {
        Origin::Workspace => "workspace",
        Origin::Jdk => "jdk",
        Origin::Library => "library",
        Origin::Unresolved => "unresolved",
    }
}

/// The index status line, when the answer carries one (see [`IndexStatus::shown`]).
fn index_line(out: &mut String, index: Option<&IndexStatus>) {
    let Some(s) = index else { return };
    let _ = write!(
        out,
        "index: {} ({} of {} files indexed",
        if s.complete { "complete" } else { "incomplete, results may be missing" },
        s.indexed_files,
        s.total_files
    );
    if let Some(b) = s.bound_files {
        let _ = write!(out, ", {b} bound");
    }
    let d = &s.skipped_dirs;
    let dirs = d.maven + d.gradle + d.ide + d.markers;
    if dirs > 0 {
        let _ = write!(out, ", {} skipped", count(dirs, "build-output directory", "build-output directories"));
    }
    out.push(')');
    if s.skipped_files > 0 {
        let _ = write!(out, "; {} not indexed", count(s.skipped_files, "file", "files"));
        if !s.skipped.is_empty() {
            let _ = write!(out, ": {}", s.skipped.join("; "));
        }
    }
    if !s.library_notes.is_empty() {
        let _ = write!(out, "; libraries: {}", s.library_notes.join("; "));
    }
    out.push('\n');
}

/// `find_type`.
pub(crate) fn find_type(r: &FindTypeResult) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} `{}`{}",
        count(r.total, "type matches", "types match"),
        r.query,
        paging(r.results.len(), r.next_offset)
    );
    for t in &r.results {
        let simple = t.fqn.rsplit('.').next().unwrap_or(&t.fqn);
        let word = if t.kind == "annotation" { "@interface" } else { t.kind.as_str() };
        let mut head = t.modifiers.join(" ");
        if !head.is_empty() {
            head.push(' ');
        }
        let _ = write!(head, "{word} {simple}");
        let place = match &t.origin {
            Some(o) => o.clone(),
            None => at(&t.file_path, t.start_line, t.end_line),
        };
        let _ = write!(out, "{}  {place}  {head}", t.fqn);
        if let Some(s) = &t.summary {
            let _ = write!(out, " — {s}");
        }
        out.push('\n');
    }
    index_line(&mut out, r.index.as_ref());
    out
}

/// `java_find_symbol`.
pub(crate) fn find_symbol(r: &FindSymbolResult) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} `{}`{}",
        count(r.total, "symbol matches", "symbols match"),
        r.query,
        paging(r.results.len(), r.next_offset)
    );
    for s in &r.results {
        let place = match &s.origin {
            Some(o) => o.clone(),
            None => at(&s.file_path, s.start_line, s.end_line),
        };
        let _ = writeln!(out, "{}  {place}  {}", s.qualified_name, s.signature_text);
    }
    index_line(&mut out, r.index.as_ref());
    out
}

/// `find_resource`.
pub(crate) fn find_resource(r: &FindResourceResult) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} `{}`{}",
        count(r.total, "file matches", "files match"),
        r.query,
        paging(r.results.len(), r.next_offset)
    );
    for f in &r.results {
        let _ = writeln!(out, "{}  {}", f.file_path, count(f.size, "byte", "bytes"));
    }
    index_line(&mut out, r.index.as_ref());
    out
}

/// `find_references`: the totals, then each file's path and its references under it.
pub(crate) fn find_references(r: &FindReferencesResult) -> String {
    let mut out = String::new();
    if let Some(counts) = &r.counts {
        let _ = writeln!(out, "{} to {} targets", count(r.total, "reference", "references"), counts.len());
        for c in counts {
            match &c.error {
                Some(e) => {
                    let _ = writeln!(out, "{}  error: {e}", c.target);
                }
                None => {
                    let _ = write!(out, "{}  {} in {}", c.target, c.total, count(c.files, "file", "files"));
                    if c.likely > 0 {
                        let _ = write!(out, " ({} exact, {} likely)", c.exact, c.likely);
                    }
                    out.push('\n');
                }
            }
        }
    } else {
        let shown: usize = r.files.iter().map(|f| f.references.len()).sum();
        let _ = writeln!(
            out,
            "{} to {} ({}){}",
            count(r.total, "Java reference", "Java references"),
            r.target,
            r.target_kind,
            paging(shown, r.next_offset)
        );
        for f in &r.files {
            let _ = writeln!(out, "{}", f.file);
            for x in &f.references {
                let _ = write!(out, "  {}:{} {}", x.line, x.column, x.kind);
                if x.confidence == mji_xref::Confidence::Likely {
                    out.push_str(" (likely)");
                }
                if let Some(o) = &x.overrider {
                    let _ = write!(out, " via {o}");
                }
                if x.via_override {
                    out.push_str(" (via its anonymous/local class's override)");
                }
                if !x.text.is_empty() {
                    let _ = write!(out, "  {}", x.text);
                }
                out.push('\n');
            }
        }
    }
    if let Some(n) = &r.non_java {
        non_java(&mut out, r.total, n);
    }
    if r.incomplete_files > 0 {
        let _ = writeln!(
            out,
            "{} could not be bound fully (references may be missing): {}",
            count(r.incomplete_files, "file", "files"),
            r.incomplete.join("; ")
        );
    }
    if !r.hint.is_empty() {
        let _ = writeln!(out, "{}", r.hint);
    }
    index_line(&mut out, r.index.as_ref());
    out
}

/// "0 Java references; 2 textual matches in non-Java files (not bound): …".
fn non_java(out: &mut String, java: u64, n: &NonJavaMatches) {
    let _ = write!(
        out,
        "{}; {} in non-Java files (not bound; {} searched for {})",
        count(java, "Java reference", "Java references"),
        count(n.total, "textual match", "textual matches"),
        count(n.searched_files, "view/config file", "view/config files"),
        n.words.iter().map(|w| format!("`{w}`")).collect::<Vec<_>>().join(", ")
    );
    if n.truncated {
        out.push_str(", more files not searched");
    }
    out.push_str(if n.matches.is_empty() { "\n" } else { ":\n" });
    for m in &n.matches {
        let _ = writeln!(out, "  {}:{}  {}", m.file, m.line, m.text);
    }
    if n.total > n.matches.len() as u64 {
        let _ = writeln!(out, "  … {} more", n.total - n.matches.len() as u64);
    }
}

/// `analyze_type_dependencies`: one line per dependency with its uses and first use, the
/// packages as counts.
pub(crate) fn dependencies(r: &DependenciesResult) -> String {
    let mut out = String::new();
    let mut by_origin = [0u64; 4];
    for p in &r.packages {
        by_origin[p.origin as usize] += p.types;
    }
    let origins: Vec<String> = [Origin::Workspace, Origin::Jdk, Origin::Library, Origin::Unresolved]
        .iter()
        .filter(|o| by_origin[**o as usize] > 0)
        .map(|o| format!("{} {}", by_origin[*o as usize], origin_word(*o)))
        .collect();
    let _ = write!(
        out,
        "{} ({}) {} {}",
        r.types.join(", "),
        r.file,
        if r.types.len() == 1 { "uses" } else { "use" },
        count(r.total, "type", "types")
    );
    if !origins.is_empty() {
        let _ = write!(out, ": {}", origins.join(", "));
    }
    if r.truncated {
        let _ = write!(out, "; the first {} shown (raise `limit`)", r.dependencies.len());
    }
    out.push('\n');
    for d in &r.dependencies {
        let _ = write!(
            out,
            "{}  {}  {}, first line {}",
            d.fqn,
            origin_word(d.origin),
            count(d.count, "use", "uses"),
            d.first_line
        );
        if d.nested {
            out.push_str("  nested");
        }
        if d.violation {
            out.push_str("  VIOLATION");
        }
        if !d.lines.is_empty() {
            let lines: Vec<String> = d.lines.iter().map(u32::to_string).collect();
            let _ = write!(out, "  lines {}", lines.join(","));
        }
        out.push('\n');
    }
    if !r.packages.is_empty() {
        let packages: Vec<String> = r
            .packages
            .iter()
            .map(|p| {
                format!("{} {}/{}", if p.package.is_empty() { "(default)" } else { &p.package }, p.types, p.references)
            })
            .collect();
        let _ = writeln!(out, "packages (types/uses): {}", packages.join(", "));
    }
    for v in &r.violations {
        let lines: Vec<String> = v.lines.iter().map(u32::to_string).collect();
        let _ = writeln!(out, "violation: {} matches `{}` (lines {})", v.fqn, v.pattern, lines.join(","));
    }
    if let Some(t) = &r.transitive {
        let _ = writeln!(
            out,
            "transitive: {}{}",
            count(t.types.len() as u64, "workspace type", "workspace types"),
            if t.depth_limited { " (stopped at maxDepth)" } else { "" }
        );
        for x in &t.types {
            let _ = writeln!(out, "  {}  depth {} via {}", x.fqn, x.depth, x.via);
        }
        for c in &t.cycles {
            let _ = writeln!(out, "cycle: {}", c.join(" -> "));
        }
    }
    out
}

/// `show_definition`: one definition a line, with its declaration as written.
pub(crate) fn definitions(r: &ShowDefinitionResult) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "{} of `{}` ({})",
        count(r.total, "definition", "definitions"),
        r.symbol.trim(),
        if r.resolution == "exact" { "exact" } else { "ranked by name, best first" }
    );
    if r.truncated {
        let _ = write!(out, "; {} shown (raise `limit`)", r.definitions.len());
    }
    out.push('\n');
    for d in &r.definitions {
        let place = match &d.file {
            Some(f) => at(f, d.start_line.unwrap_or(0), d.end_line.unwrap_or(0)),
            None => origin_word(d.origin).to_owned(),
        };
        let _ = write!(out, "{}  {place}", d.qualified_name);
        if d.file.is_some() && d.origin != Origin::Workspace {
            let _ = write!(out, " ({})", origin_word(d.origin));
        }
        match &d.signature {
            Some(s) => {
                let _ = write!(out, "  {s}");
            }
            None => {
                let _ = write!(out, "  {}", d.kind);
            }
        }
        if let Some(j) = &d.javadoc {
            let _ = write!(out, " — {j}");
        }
        out.push('\n');
    }
    if let Some(o) = &r.opened {
        if o.success {
            let _ = writeln!(out, "opened in {}: {}:{}", o.editor, o.file_path, o.line);
        } else {
            let _ = writeln!(out, "not opened: {}", o.message);
        }
    }
    out
}
