//! `java_index`: a file's outline with the spec's options applied (visibility and kind filters,
//! javadoc previews, short ids).

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::{ToolError, read_file, require_java};
use mji_model::{FileOutline, Javadoc, OutlineOptions, TypeDecl};
use mji_parser::SourceText;

/// The `options` object of `java_index` (spec §5.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct IndexOptions {
    /// Include private members and private nested types.
    pub include_private: bool,
    /// Include fields.
    pub include_fields: bool,
    /// Include nested types (`innerClasses`).
    pub include_inner_classes: bool,
    /// Include constructors.
    pub include_constructors: bool,
    /// If > 0, add each javadoc's text, cut to this many characters, as `javadoc.preview`.
    pub max_javadoc_preview_chars: u32,
    /// true: symbolIds are `Kind#qualified.Name#sig|start:N|end:M`, stable while the code is
    /// unchanged. false: short positional ids (`@N`), fewer tokens, valid for this file version.
    pub stable_ids: bool,
}

impl Default for IndexOptions {
    fn default() -> Self {
        let d = OutlineOptions::default();
        IndexOptions {
            include_private: d.include_private,
            include_fields: d.include_fields,
            include_inner_classes: d.include_inner_classes,
            include_constructors: d.include_constructors,
            max_javadoc_preview_chars: 0,
            stable_ids: d.stable_ids,
        }
    }
}

impl From<IndexOptions> for OutlineOptions {
    fn from(o: IndexOptions) -> Self {
        OutlineOptions {
            include_private: o.include_private,
            include_fields: o.include_fields,
            include_inner_classes: o.include_inner_classes,
            include_constructors: o.include_constructors,
            max_javadoc_preview_chars: o.max_javadoc_preview_chars as usize,
            stable_ids: o.stable_ids,
        }
    }
}

/// Reads, parses and outlines one `.java` file (no cache).
pub fn index_file(path: &Path, display: &str, opts: &OutlineOptions) -> Result<FileOutline, ToolError> {
    require_java(path, display)?;
    let bytes = read_file(path, display)?;
    let src = SourceText::decode(&bytes);
    let outline = mji_parser::outline_source(display, mji_parser::content_hash(&bytes), &src);
    Ok(apply_options(outline, opts, Some(&src)))
}

/// Applies the options to a full outline. `src` is needed only for javadoc previews.
pub fn apply_options(mut outline: FileOutline, opts: &OutlineOptions, src: Option<&SourceText>) -> FileOutline {
    if !opts.stable_ids {
        assign_short_ids(&mut outline);
    }
    let keep = |mods: &[String]| opts.include_private || !mods.iter().any(|m| m == "private");
    fn filter(t: &mut TypeDecl, opts: &OutlineOptions, keep: &dyn Fn(&[String]) -> bool, src: Option<&SourceText>) {
        if !opts.include_fields {
            t.fields.clear();
        }
        if !opts.include_constructors {
            t.constructors.clear();
        }
        if !opts.include_inner_classes {
            t.inner_classes.clear();
        }
        t.fields.retain(|f| keep(&f.modifiers));
        t.constructors.retain(|c| keep(&c.modifiers));
        t.methods.retain(|m| keep(&m.modifiers));
        t.inner_classes.retain(|c| keep(&c.modifiers));
        if let Some(src) = src.filter(|_| opts.max_javadoc_preview_chars > 0) {
            let n = opts.max_javadoc_preview_chars;
            set_preview(&mut t.javadoc, src, n);
            t.fields.iter_mut().for_each(|x| set_preview(&mut x.javadoc, src, n));
            t.constructors.iter_mut().for_each(|x| set_preview(&mut x.javadoc, src, n));
            t.methods.iter_mut().for_each(|x| set_preview(&mut x.javadoc, src, n));
            if let Some(cs) = &mut t.enum_constants {
                cs.iter_mut().for_each(|x| set_preview(&mut x.javadoc, src, n));
            }
        }
        for inner in &mut t.inner_classes {
            filter(inner, opts, keep, src);
        }
    }
    for t in &mut outline.classes {
        filter(t, opts, &keep, src);
    }
    outline
}

/// Replaces every symbolId by `@N`, N counting declarations in [`visit_ids`] order.
fn assign_short_ids(outline: &mut FileOutline) {
    let mut n = 0usize;
    visit_ids(outline, &mut |id| {
        n += 1;
        *id = format!("@{n}");
    });
}

/// Visits every symbolId of an outline in [`FileOutline::decls`] order.
pub fn visit_ids(outline: &mut FileOutline, f: &mut impl FnMut(&mut String)) {
    outline.for_each_decl_mut(|id, _| f(id));
}

fn set_preview(jd: &mut Javadoc, src: &SourceText, max: usize) {
    if let Some(raw) = javadoc_text(src, jd) {
        let mut p = javadoc_plain_text(raw);
        if crate::truncate_chars(&mut p, max) {
            p.push('…');
        }
        jd.preview = Some(p);
    }
}

/// The raw `/** … */` text of a javadoc, found by its byte span when known, else by its lines:
/// the last `/**` on its start line whose closing `*/` is on its end line.
pub fn javadoc_text<'s>(src: &'s SourceText, jd: &Javadoc) -> Option<&'s str> {
    if !jd.present {
        return None;
    }
    if let Some((a, b)) = jd.span {
        return src.text.get(a..b);
    }
    let (sl, el) = (jd.start_line?, jd.end_line?);
    let line_start = src.lines.line_start(sl);
    let line = src.lines.line_text(&src.text, sl);
    let mut best = None;
    for (i, _) in line.match_indices("/**") {
        let start = line_start + i;
        if let Some(close) = src.text[start + 2..].find("*/") {
            let end = start + 2 + close + 2;
            if src.lines.line_of(end - 1) == el {
                best = Some((start, end));
            }
        }
    }
    best.and_then(|(a, b)| src.text.get(a..b))
}

/// Javadoc without its `/**`, `*/` and leading `*`s, whitespace collapsed.
pub fn javadoc_plain_text(raw: &str) -> String {
    let body = raw.strip_prefix("/**").unwrap_or(raw);
    let body = body.strip_suffix("*/").unwrap_or(body);
    let mut out = String::with_capacity(body.len());
    for line in body.split(['\n', '\r']) {
        let l = line.trim_start();
        let l = l.trim_start_matches('*');
        for word in l.split_whitespace() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(word);
        }
    }
    out
}
