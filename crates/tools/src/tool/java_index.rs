//! `java_index`: the outline of one Java file, with the spec's options applied (visibility and
//! kind filters, javadoc previews, short ids). `_meta` says whether the cache hit.

use std::path::Path;
use serde::{Deserialize, Serialize};
use crate::{ToolError, read_file};
use mji_model::{FileOutline, Javadoc, OutlineOptions, TypeDecl};
use mji_parser::SourceText;
use serde_json::{Map, Value};
use crate::registry::{Answer, Budget, Start, Tool, fit};
use crate::io_error;
use mji_cache::Outcome;
use crate::host::Host;

/// The `options` object of `java_index` (spec §5.1, then the options that shape an outline
/// for an agent: kinds, a name filter, a nesting depth and paging).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct OutlineQuery {
    // (The names say what the flags do: their docs would cost every client tokens in
    // `tools/list`; README's java_index section documents them.)
    pub include_private: bool,
    pub include_fields: bool,
    pub include_inner_classes: bool,
    pub include_constructors: bool,
    /// false: leaves out what Lombok generates.
    pub include_generated: bool,
    pub max_javadoc_preview_chars: u32,
    /// false: short `@N` ids.
    pub stable_ids: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub kinds: Vec<DeclKind>,
    /// Exact if any, else a substring; `name(Type,Type)`: one overload.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// 0: top-level types only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_depth: Option<u32>,
    pub offset: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u32>,
}

/// A kind of declaration, to narrow an outline to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum DeclKind {
    Type,
    Field,
    Constructor,
    Method,
    EnumConstant,
}

impl Default for OutlineQuery {
    fn default() -> Self {
        let d = OutlineOptions::default();
        OutlineQuery {
            include_private: d.include_private,
            include_fields: d.include_fields,
            include_inner_classes: d.include_inner_classes,
            include_constructors: d.include_constructors,
            include_generated: true,
            max_javadoc_preview_chars: 0,
            stable_ids: d.stable_ids,
            kinds: Vec::new(),
            name: String::new(),
            max_depth: None,
            offset: 0,
            limit: None,
        }
    }
}

impl From<&OutlineQuery> for OutlineOptions {
    fn from(o: &OutlineQuery) -> Self {
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

/// The answer of `java_index`: the outline (one page of it when the file's declarations do not
/// all fit, or options narrowed it) and how to get the rest.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutlineAnswer {
    #[serde(flatten)]
    pub outline: FileOutline,
    /// Declarations the options select, over every page; present when paged or narrowed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_declarations: Option<u32>,
    /// Declarations in this answer, counted like `totalDeclarations`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shown_declarations: Option<u32>,
    /// True when declarations after this page were left out (by `limit` or the answer budget).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
    /// Pass as `options.offset` for the next page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_offset: Option<u32>,
    /// The whole outline (options applied) and the selected declarations: what `cut` pages.
    #[serde(skip)]
    #[schemars(skip)]
    page: Option<std::sync::Arc<(FileOutline, Vec<String>)>>,
    #[serde(skip)]
    #[schemars(skip)]
    offset: usize,
    /// The types listed only because a selected declaration is inside them: the text shows
    /// them as context (kind, name, lines), not as declarations of the page.
    #[serde(skip)]
    #[schemars(skip)]
    context: std::collections::HashSet<String>,
}

/// Shapes an outline (options already applied) by the options' kinds, name, depth and page.
pub fn shape(mut outline: FileOutline, o: &OutlineQuery) -> OutlineAnswer {
    if !o.include_generated {
        outline.classes.retain_mut(without_generated);
    }
    let narrowed = !o.kinds.is_empty() || !o.name.is_empty() || o.max_depth.is_some();
    if !narrowed && o.offset == 0 && o.limit.is_none() {
        // The common case: every declaration, paged only if the budget needs it.
        let ids = selected_ids(&outline, o);
        return OutlineAnswer {
            outline: outline.clone(),
            total_declarations: None,
            shown_declarations: None,
            truncated: false,
            next_offset: None,
            page: Some(std::sync::Arc::new((outline, ids))),
            offset: 0,
            context: Default::default(),
        };
    }
    let ids = selected_ids(&outline, o);
    let offset = (o.offset as usize).min(ids.len());
    let n = o.limit.map_or(ids.len(), |l| l as usize);
    let page = std::sync::Arc::new((outline, ids));
    let mut out = OutlineAnswer {
        outline: page.0.clone(),
        total_declarations: None,
        shown_declarations: None,
        truncated: false,
        next_offset: None,
        page: Some(page),
        offset,
        context: Default::default(),
    };
    out.keep(n);
    out
}

impl OutlineAnswer {
    /// How many selected declarations this answer can hold before any cut.
    pub(crate) fn page_len(&self) -> usize {
        self.page.as_ref().map_or(0, |p| p.1.len().saturating_sub(self.offset))
    }

    /// A copy keeping the first `n` selected declarations: [`OutlineAnswer::keep`] without cloning
    /// the outline it replaces.
    pub(crate) fn kept(&self, n: usize) -> OutlineAnswer {
        if self.page.is_none() {
            let mut all = self.clone();
            all.keep(n);
            return all;
        }
        // `keep` rebuilds the outline from the page's whole one: this one is a placeholder.
        let placeholder = FileOutline {
            file_path: String::new(),
            language: String::new(),
            hash: String::new(),
            line_count: 0,
            package: None,
            classes: Vec::new(),
            errors: Vec::new(),
        };
        let mut cut = OutlineAnswer {
            outline: placeholder,
            total_declarations: self.total_declarations,
            shown_declarations: self.shown_declarations,
            truncated: self.truncated,
            next_offset: self.next_offset,
            page: self.page.clone(),
            offset: self.offset,
            context: Default::default(),
        };
        cut.keep(n);
        cut
    }

    /// Keeps the first `n` selected declarations from the offset (and the types around them).
    pub fn keep(&mut self, n: usize) {
        let Some(page) = self.page.clone() else { return };
        let (full, ids) = &*page;
        let end = self.offset.saturating_add(n).min(ids.len());
        let keep: std::collections::HashSet<&str> = ids[self.offset..end].iter().map(String::as_str).collect();
        self.outline = retain(full, &keep);
        let mut context = std::collections::HashSet::new();
        let mut stack: Vec<&TypeDecl> = self.outline.classes.iter().collect();
        while let Some(t) = stack.pop() {
            if !keep.contains(t.symbol_id.as_str()) {
                context.insert(t.symbol_id.clone());
            }
            stack.extend(&t.inner_classes);
        }
        self.context = context;
        self.total_declarations = Some(ids.len() as u32);
        self.shown_declarations = Some((end - self.offset) as u32);
        self.truncated = end < ids.len();
        self.next_offset = self.truncated.then_some(end as u32);
    }
}

/// What `options.name` asks for: a name, and with `(T1,T2)` the parameter types of one
/// overload (erased, simple or qualified).
struct NameFilter {
    name: String,
    lower: String,
    params: Option<Vec<String>>,
}

/// How strictly a [`NameFilter`] matches; the first that selects anything wins.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tier {
    /// The name exactly, and the parameter types when given.
    Signature,
    /// The name exactly (every overload).
    Exact,
    /// The name contains it, case-insensitively.
    Substring,
}

impl NameFilter {
    fn parse(text: &str) -> NameFilter {
        let text = text.trim();
        let (name, params) = match text.split_once('(') {
            Some((n, rest)) => {
                let inner = rest.trim_end().trim_end_matches(')');
                let params =
                    if inner.trim().is_empty() { Vec::new() } else { inner.split(',').map(simple_type).collect() };
                (n.trim(), Some(params))
            }
            None => (text, None),
        };
        NameFilter { name: name.to_owned(), lower: name.to_lowercase(), params }
    }

    fn tiers(&self) -> &'static [Tier] {
        if self.name.is_empty() {
            &[Tier::Substring]
        } else if self.params.is_some() {
            &[Tier::Signature, Tier::Exact, Tier::Substring]
        } else {
            &[Tier::Exact, Tier::Substring]
        }
    }

    /// Whether a declaration of that name (and parameters, for methods and constructors)
    /// matches at this tier.
    fn matches(&self, tier: Tier, name: &str, params: Option<&[mji_model::Param]>) -> bool {
        match tier {
            Tier::Substring => self.lower.is_empty() || name.to_lowercase().contains(&self.lower),
            Tier::Exact => name == self.name,
            Tier::Signature => {
                name == self.name
                    && match (&self.params, params) {
                        (Some(want), Some(have)) => {
                            want.len() == have.len()
                                && want.iter().zip(have).all(|(w, h)| *w == simple_type(&h.type_text))
                        }
                        _ => false,
                    }
            }
        }
    }
}

/// The one declaration `symbol` names in `outline` (see [`declarations_named`]) as its lines
/// and symbolId; none or several is an error that lists what there is and how to pick.
pub(crate) fn declaration_named(
    outline: &FileOutline,
    symbol: &str,
    file: &str,
) -> Result<(u32, u32, String), ToolError> {
    let mut found = declarations_named(outline, symbol);
    match found.len() {
        1 => {
            let (_, start, end, id) = found.remove(0);
            Ok((start, end, id))
        }
        0 => Err(ToolError::InvalidArgument(format!(
            "{file} declares nothing named `{symbol}`; java_index lists its declarations"
        ))),
        n => {
            let list: Vec<String> = found.iter().map(|(label, s, e, _)| format!("{label} (lines {s}-{e})")).collect();
            Err(ToolError::InvalidArgument(format!(
                "`{symbol}` names {n} declarations in {file}: {}; pick one with `name(Type,…)` or its \
                 startLine/endLine",
                list.join("; ")
            )))
        }
    }
}

/// The declarations `symbol` names exactly, in source order: `name` (every overload, and any
/// type, field or enum constant so named) or `name(T1,T2)` (one overload), each as a label (its
/// kind and signature) and its lines. Substrings do not count: a read must not guess.
pub(crate) fn declarations_named(outline: &FileOutline, symbol: &str) -> Vec<(String, u32, u32, String)> {
    let filter = NameFilter::parse(symbol);
    if filter.name.is_empty() {
        return Vec::new();
    }
    for &tier in filter.tiers().iter().filter(|t| **t != Tier::Substring) {
        let mut found = Vec::new();
        // Types nest at most `mji_parser::MAX_TYPE_NESTING` deep: the stack is bounded.
        let mut stack: Vec<&TypeDecl> = outline.classes.iter().collect();
        while let Some(t) = stack.pop() {
            if filter.matches(tier, &t.name, None) {
                found.push((format!("{} {}", t.kind.as_str(), t.name), t.start_line, t.end_line, t.symbol_id.clone()));
            }
            for c in t.enum_constants.iter().flatten().filter(|c| filter.matches(tier, &c.name, None)) {
                found.push((format!("enum constant {}", c.name), c.start_line, c.end_line, c.symbol_id.clone()));
            }
            for f in t.fields.iter().filter(|f| filter.matches(tier, &f.name, None)) {
                found.push((
                    format!("field {} {}", f.type_text, f.name),
                    f.start_line,
                    f.end_line,
                    f.symbol_id.clone(),
                ));
            }
            for c in t.constructors.iter().filter(|c| filter.matches(tier, &c.name, Some(&c.params))) {
                found.push((c.signature_text.clone(), c.start_line, c.end_line, c.symbol_id.clone()));
            }
            for m in t.methods.iter().filter(|m| filter.matches(tier, &m.name, Some(&m.params))) {
                found.push((m.signature_text.clone(), m.start_line, m.end_line, m.symbol_id.clone()));
            }
            stack.extend(&t.inner_classes);
        }
        if !found.is_empty() {
            found.sort_by_key(|f| (f.1, f.2));
            return found;
        }
    }
    Vec::new()
}

/// A parameter type as the name filter compares it: type arguments, annotations and spaces
/// dropped, the package left off, varargs as an array (`java.util.List<String>` → `List`,
/// `Object...` → `Object[]`).
fn simple_type(ty: &str) -> String {
    let mut erased = String::new();
    let mut depth = 0usize;
    for ch in ty.chars() {
        match ch {
            '<' => depth += 1,
            '>' => depth = depth.saturating_sub(1),
            _ if depth == 0 && !ch.is_whitespace() => erased.push(ch),
            _ => {}
        }
    }
    // Annotations written on the type (`@NonNull String`) are not part of it.
    while let Some(rest) = erased.strip_prefix('@') {
        let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.')).unwrap_or(rest.len());
        erased = rest[end..].to_owned();
    }
    let erased = erased.replace("...", "[]");
    let dims = erased.find('[').unwrap_or(erased.len());
    let (base, arrays) = erased.split_at(dims);
    format!("{}{arrays}", base.rsplit('.').next().unwrap_or(base))
}

/// The symbolIds of the declarations the options select, in source order.
fn selected_ids(outline: &FileOutline, o: &OutlineQuery) -> Vec<String> {
    let filter = NameFilter::parse(&o.name);
    for &tier in filter.tiers() {
        let ids = select(outline, o, &filter, tier);
        if !ids.is_empty() || tier == Tier::Substring {
            return ids;
        }
    }
    Vec::new()
}

/// The declarations the options select with the name matched at `tier`.
fn select<'a>(outline: &'a FileOutline, o: &OutlineQuery, filter: &NameFilter, tier: Tier) -> Vec<String> {
    let unnamed = filter.name.is_empty();
    let mut items: Vec<(u32, usize, &str)> = Vec::new();
    let mut stack: Vec<(&'a TypeDecl, u32, bool)> = outline.classes.iter().rev().map(|t| (t, 0, false)).collect();
    while let Some((t, depth, inside_match)) = stack.pop() {
        if o.max_depth.is_some_and(|m| depth > m) {
            continue;
        }
        // A type found by name brings its members, unless the kinds asked for leave types out
        // (`kinds: ["method"], name: "format"` lists methods named format, not every member
        // of `Formatter`).
        let type_wanted = o.kinds.is_empty() || o.kinds.contains(&DeclKind::Type);
        let type_match = inside_match || (type_wanted && !unnamed && filter.matches(tier, &t.name, None));
        let mut push = |kind: DeclKind, name: &str, params: Option<&[mji_model::Param]>, start: u32, id: &'a str| {
            if (o.kinds.is_empty() || o.kinds.contains(&kind))
                && (unnamed || type_match || filter.matches(tier, name, params))
            {
                let seq = items.len();
                items.push((start, seq, id));
            }
        };
        push(DeclKind::Type, &t.name, None, t.start_line, &t.symbol_id);
        for c in t.enum_constants.iter().flatten() {
            push(DeclKind::EnumConstant, &c.name, None, c.start_line, &c.symbol_id);
        }
        for f in &t.fields {
            push(DeclKind::Field, &f.name, None, f.start_line, &f.symbol_id);
        }
        for c in &t.constructors {
            push(DeclKind::Constructor, &c.name, Some(&c.params), c.start_line, &c.symbol_id);
        }
        for m in &t.methods {
            push(DeclKind::Method, &m.name, Some(&m.params), m.start_line, &m.symbol_id);
        }
        stack.extend(t.inner_classes.iter().rev().map(|c| (c, depth + 1, type_match)));
    }
    items.sort_by_key(|&(start, seq, _)| (start, seq));
    items.into_iter().map(|(_, _, id)| id.to_owned()).collect()
}

/// The outline with only the declarations in `keep` and the types that contain them.
/// Recursive: outlines nest at most `mji_parser::MAX_TYPE_NESTING` types deep.
fn retain(full: &FileOutline, keep: &std::collections::HashSet<&str>) -> FileOutline {
    fn prune(t: &mut TypeDecl, keep: &std::collections::HashSet<&str>) -> bool {
        if let Some(cs) = &mut t.enum_constants {
            cs.retain(|c| keep.contains(c.symbol_id.as_str()));
        }
        t.fields.retain(|x| keep.contains(x.symbol_id.as_str()));
        t.constructors.retain(|x| keep.contains(x.symbol_id.as_str()));
        t.methods.retain(|x| keep.contains(x.symbol_id.as_str()));
        t.inner_classes.retain_mut(|c| prune(c, keep));
        let members = t.enum_constants.as_ref().is_some_and(|c| !c.is_empty())
            || !t.fields.is_empty()
            || !t.constructors.is_empty()
            || !t.methods.is_empty()
            || !t.inner_classes.is_empty();
        keep.contains(t.symbol_id.as_str()) || members
    }
    let mut out = full.clone();
    out.classes.retain_mut(|t| prune(t, keep));
    out
}

/// Reads, parses and outlines one `.java` file (no cache).
pub fn index_file(path: &Path, display: &str, opts: &OutlineOptions) -> Result<FileOutline, ToolError> {
    crate::require_source(path, display)?;
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
pub(crate) fn visit_ids(outline: &mut FileOutline, f: &mut impl FnMut(&mut String)) {
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
pub(crate) fn javadoc_text<'s>(src: &'s SourceText, jd: &Javadoc) -> Option<&'s str> {
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
pub(crate) fn javadoc_plain_text(raw: &str) -> String {
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

/// A type's header as the outline text shows it: modifiers, kind, name, type parameters,
/// record components, supertypes and permitted subtypes.
/// A Kotlin type's head as Kotlin writes it: `public data class User<T> : Base, Named`,
/// `public companion object Companion`, `public typealias Users = List<User>`.
fn kotlin_head(t: &TypeDecl) -> String {
    use std::fmt::Write;
    let is = |m: &str| t.modifiers.iter().any(|x| x == m);
    let word = match t.kind {
        _ if is("object") || is("typealias") => "",
        mji_model::TypeKind::Interface => "interface",
        mji_model::TypeKind::Enum => "enum class",
        mji_model::TypeKind::Annotation => "annotation class",
        _ => "class",
    };
    let mut head = t.modifiers.join(" ");
    for w in [word, t.name.as_str()].into_iter().filter(|w| !w.is_empty()) {
        if !head.is_empty() {
            head.push(' ');
        }
        head.push_str(w);
    }
    if let Some(tp) = &t.type_params_text {
        head.push_str(tp);
    }
    if is("typealias") {
        if let Some(e) = &t.extends {
            let _ = write!(head, " = {e}");
        }
        return head;
    }
    let supers: Vec<&str> = t.extends.iter().chain(&t.implements).map(String::as_str).collect();
    if !supers.is_empty() {
        let _ = write!(head, " : {}", supers.join(", "));
    }
    head
}

pub(crate) fn type_head(t: &TypeDecl, word: &str) -> String {
    use std::fmt::Write;
    let mut head = t.modifiers.join(" ");
    if !head.is_empty() {
        head.push(' ');
    }
    let _ = write!(head, "{word} {}", t.name);
    if let Some(tp) = &t.type_params_text {
        head.push_str(tp);
    }
    if let Some(rc) = &t.record_components {
        let parts: Vec<String> = rc.iter().map(|c| format!("{} {}", c.type_text, c.name)).collect();
        let _ = write!(head, "({})", parts.join(", "));
    }
    if let Some(e) = &t.extends {
        let _ = write!(head, " extends {e}");
    }
    if !t.implements.is_empty() {
        let kw = if t.kind == mji_model::TypeKind::Interface { "extends" } else { "implements" };
        let _ = write!(head, " {kw} {}", t.implements.join(", "));
    }
    if !t.permits.is_empty() {
        let _ = write!(head, " permits {}", t.permits.join(", "));
    }
    head
}

/// `t` without the members Lombok generates; false when `t` is itself generated.
fn without_generated(t: &mut TypeDecl) -> bool {
    t.fields.retain(|f| f.generated.is_none());
    t.constructors.retain(|c| c.generated.is_none());
    t.methods.retain(|m| m.generated.is_none());
    t.inner_classes.retain_mut(without_generated);
    t.generated.is_none()
}

/// A declaration's text with what generates it, when it is not written in the source:
/// `public String getName()  [lombok @Getter]`.
fn generated_tag(mut text: String, generated: &Option<String>, by: &Option<String>) -> String {
    if let Some(g) = generated {
        text.push_str("  [");
        text.push_str(g);
        if let Some(by) = by {
            text.push(' ');
            text.push_str(by);
        }
        text.push(']');
    }
    text
}

/// The outline as a model reads it: a table of contents, one line per declaration with its
/// line range, signature and javadoc lines (and preview when asked), indented by nesting.
pub(crate) fn render_outline(o: &OutlineAnswer) -> String {
    use std::fmt::Write;
    let ol = &o.outline;
    let mut out = String::with_capacity(64 * 1024);
    // An outline read from a class file has no lines (0 here, `null` in the JSON).
    if ol.line_count == 0 && !ol.classes.is_empty() {
        let _ = write!(out, "{} (a class file: lines unknown", ol.file_path);
    } else {
        let _ = write!(out, "{} ({} lines", ol.file_path, ol.line_count);
    }
    if let Some(p) = &ol.package {
        let _ = write!(out, ", package {p}");
    }
    out.push_str(")\n");
    if ol.classes.is_empty() && ol.errors.is_empty() {
        out.push_str("no type declarations\n");
    }
    fn lines(out: &mut String, start: u32, end: u32) {
        let _ = match (start, end) {
            (0, _) => write!(out, "?"),
            (s, e) if s == e => write!(out, "{s}"),
            (s, e) => write!(out, "{s}-{e}"),
        };
    }
    fn line(out: &mut String, depth: usize, start: u32, end: u32, annotations: &[String], text: &str, jd: &Javadoc) {
        for _ in 0..depth {
            out.push_str("  ");
        }
        lines(out, start, end);
        out.push(' ');
        for a in annotations {
            out.push_str(a);
            out.push(' ');
        }
        out.push_str(text);
        if let (true, Some(s), Some(e)) = (jd.present, jd.start_line, jd.end_line) {
            out.push_str("  /**");
            lines(out, s, e);
            out.push_str("*/");
            if let Some(p) = &jd.preview {
                out.push(' ');
                out.push_str(p);
            }
        }
        out.push('\n');
    }
    // Every declaration with its depth, then sorted by start line: nested spans are
    // contiguous, so this is source order (a type before its members on a shared line).
    let mut entries: Vec<(u32, usize, String)> = Vec::new();
    let mut stack: Vec<(&TypeDecl, usize)> = ol.classes.iter().rev().map(|t| (t, 0)).collect();
    // A Kotlin source's declarations read as Kotlin writes them (`val name: String`).
    let kotlin = ol.language == mji_parser::kotlin::LANGUAGE;
    while let Some((t, depth)) = stack.pop() {
        let mut add = |d: usize, start: u32, end: u32, annotations: &[String], text: &str, jd: &Javadoc| {
            let mut s = String::new();
            line(&mut s, d, start, end, annotations, text, jd);
            let seq = entries.len();
            entries.push((start, seq, s));
        };
        let word = if t.kind == mji_model::TypeKind::Annotation { "@interface" } else { t.kind.as_str() };
        if o.context.contains(&t.symbol_id) {
            // Listed only around the page's declarations: where they are, not its header.
            add(depth, t.start_line, t.end_line, &[], &format!("{word} {}", t.name), &Javadoc::absent());
        } else {
            let head = match kotlin {
                true => kotlin_head(t),
                false => type_head(t, word),
            };
            let head = generated_tag(head, &t.generated, &t.generated_by);
            add(depth, t.start_line, t.end_line, &t.annotations, &head, &t.javadoc);
        }
        let d = depth + 1;
        for c in t.enum_constants.iter().flatten() {
            add(d, c.start_line, c.end_line, &[], &c.name, &c.javadoc);
        }
        for x in &t.fields {
            let mut text = x.modifiers.join(" ");
            if !text.is_empty() {
                text.push(' ');
            }
            let _ = match (kotlin, x.type_text.is_empty()) {
                (true, true) => write!(text, "{}", x.name),
                (true, false) => write!(text, "{}: {}", x.name, x.type_text),
                (false, _) => write!(text, "{} {}", x.type_text, x.name),
            };
            let text = generated_tag(text, &x.generated, &x.generated_by);
            add(d, x.start_line, x.end_line, &x.annotations, &text, &x.javadoc);
        }
        for x in &t.constructors {
            let text = generated_tag(x.signature_text.clone(), &x.generated, &x.generated_by);
            add(d, x.start_line, x.end_line, &x.annotations, &text, &x.javadoc);
        }
        for x in &t.methods {
            let text = generated_tag(x.signature_text.clone(), &x.generated, &x.generated_by);
            add(d, x.start_line, x.end_line, &x.annotations, &text, &x.javadoc);
        }
        stack.extend(t.inner_classes.iter().rev().map(|c| (c, d)));
    }
    entries.sort_by_key(|(start, seq, _)| (*start, *seq));
    entries.iter().for_each(|(_, _, s)| out.push_str(s));
    for e in &ol.errors {
        let level = match e.level {
            mji_model::Level::Error => "error",
            mji_model::Level::Warning => "warning",
        };
        match e.line {
            Some(l) => {
                let _ = writeln!(out, "{level} line {l}: {}", e.message);
            }
            None => {
                let _ = writeln!(out, "{level}: {}", e.message);
            }
        }
    }
    if let (true, Some(next), Some(total)) = (o.truncated, o.next_offset, o.total_declarations) {
        let _ = writeln!(
            out,
            "… {} more declarations of {total}: call again with options.offset={next}",
            total.saturating_sub(next)
        );
    }
    out
}

pub(crate) struct JavaIndex;

impl Tool for JavaIndex {
    const NAME: &'static str = "java_index";
    const TITLE: &'static str = "Outline a Java file";
    const DESCRIPTION: &'static str = "Outline of a .java file: types and members with lines, signatures and javadoc lines. Use it instead of reading the file, then java_read_range what you need.";

    type Args = JavaIndexArgs;
    type Output = OutlineAnswer;

    fn start(args: &Self::Args) -> Start {
        crate::locate::start(&args.file_path, None)
    }

    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError> {
        Ok(shape(run(ws, &args)?.outline, &args.options))
    }

    fn render(output: &Self::Output) -> Option<String> {
        Some(render_outline(output))
    }

    fn page_len(output: &Self::Output) -> Option<usize> {
        Some(output.page_len())
    }

    fn cut(output: &mut Self::Output, _args: &Self::Args, n: usize) {
        output.keep(n);
    }

    fn cut_copy(output: &Self::Output, _args: &Self::Args, n: usize) -> Self::Output {
        output.kept(n)
    }

    fn answer(ws: &Host, a: Self::Args, budget: Budget) -> Result<Answer, String> {
        // Fault injection for the test that proves a panic never reaches the client.
        if std::env::var_os("MCP_JAVA_INDEX_INJECT_PANIC").is_some_and(|v| *v == *a.file_path) {
            panic!("injected panic for {}", a.file_path);
        }
        let answer = run(ws, &a).map_err(|e| e.to_string())?;
        tracing::info!(file = %answer.outline.file_path, cache = ?answer.outcome, ms = answer.elapsed_ms, "java_index");
        let c = ws.counters();
        let meta: Option<Map<String, Value>> = serde_json::json!({
            "cache": answer.outcome,
            "elapsedMs": (answer.elapsed_ms * 1000.0).round() / 1000.0,
            "cacheHits": c.hits,
            "cacheMisses": c.misses,
        })
        .as_object()
        .cloned();
        let mut fitted = fit::<Self>(shape(answer.outline, &a.options), &a, budget)?;
        fitted.meta = meta;
        Ok(fitted)
    }
}

/// `java_index`.
pub fn run(ws: &Host, args: &JavaIndexArgs) -> Result<CachedOutline, ToolError> {
    let t = std::time::Instant::now();
    let opts = OutlineOptions::from(&args.options);
    // A workspace type's name reads its file.
    let located = crate::locate::file_of(ws, &args.file_path)?;
    let args = &JavaIndexArgs { file_path: located.into_owned(), options: args.options.clone() };
    // A class name or a `jar:` path names a library type, unless the workspace has the file.
    if let Some(lib) = crate::libraries::target(&args.file_path)
        && (args.file_path.starts_with("jar:") || ws.resolve(&args.file_path).is_err())
    {
        let outline = crate::libraries::outline(ws, &lib)?;
        let src = (opts.max_javadoc_preview_chars > 0 && outline.line_count > 0)
            .then(|| match &lib {
                crate::libraries::LibraryTarget::Jar { archive, entry } => {
                    crate::libraries::source_bytes(ws, archive, entry).ok()
                }
                crate::libraries::LibraryTarget::Class(_) => None,
            })
            .flatten()
            .map(|(b, _)| mji_parser::SourceText::decode(&b));
        let outline = apply_options(outline, &opts, src.as_ref());
        return Ok(CachedOutline { outline, outcome: Outcome::Miss, elapsed_ms: t.elapsed().as_secs_f64() * 1e3 });
    }
    let r = ws.resolve(&args.file_path)?;
    ws.check_file(&r.path, &r.display)?;
    if crate::libraries::is_class_file(&r.path) {
        let outline = crate::libraries::class_file_outline(ws, &r.path, &r.display)?;
        let outline = apply_options(outline, &opts, None);
        return Ok(CachedOutline { outline, outcome: Outcome::Miss, elapsed_ms: t.elapsed().as_secs_f64() * 1e3 });
    }
    crate::require_source(&r.path, &r.display)?;
    let cache = ws.cache(r.root);
    let io = |e: std::io::Error| io_error(&r.display, e);
    let (outline, outcome) = if opts.max_javadoc_preview_chars > 0 {
        let (cached, src) = cache.outline_with_source(&r.path, &r.display).map_err(io)?;
        (apply_options(with_delegated(ws, cached.outline), &opts, Some(&src)), cached.outcome)
    } else {
        let cached = cache.outline(&r.path, &r.display).map_err(io)?;
        (apply_options(with_delegated(ws, cached.outline), &opts, None), cached.outcome)
    };
    Ok(CachedOutline { outline, outcome, elapsed_ms: t.elapsed().as_secs_f64() * 1e3 })
}

/// `java_index` of an editor's unsaved buffer: `text` outlined as [`run`] outlines the file at
/// `file_path` (the path policy, the file's `lombok.config`, `@Delegate`'s members, the options),
/// for a shell that holds the buffer (the language server); the file itself is not read.
pub fn run_on_text(ws: &Host, args: &JavaIndexArgs, text: &[u8]) -> Result<FileOutline, ToolError> {
    let opts = OutlineOptions::from(&args.options);
    let r = ws.resolve(&args.file_path)?;
    crate::require_source(&r.path, &r.display)?;
    let outline = ws.cache(r.root).outline_text(&r.path, &r.display, text);
    let src = (opts.max_javadoc_preview_chars > 0).then(|| SourceText::decode(text));
    Ok(shape(apply_options(with_delegated(ws, outline), &opts, src.as_ref()), &args.options).outline)
}

/// The outline with the methods Lombok's `@Delegate` generates, which only the reference
/// engine's world reads (from the delegate's type): listed as generated by `@Delegate` at the
/// delegate's line, and the outline's warning about each delegate dropped; a delegate whose type
/// the world cannot read keeps a warning saying so. Outlines without `@Delegate` are untouched.
fn with_delegated(ws: &Host, mut outline: FileOutline) -> FileOutline {
    const WARNING: &str = mji_parser::lombok::DELEGATE_NOTE;
    if !mji_parser::lombok::has_delegate(&outline) {
        return outline;
    }
    let (w, _) = ws.xref_world();
    // (type's lines, delegate member, known)
    let mut delegates: Vec<((u32, u32), String, bool)> = Vec::new();
    fn walk(w: &mji_xref::world::World, t: &mut TypeDecl, out: &mut Vec<((u32, u32), String, bool)>) {
        if let Some(id) = w.workspace_type(&t.qualified_name) {
            for d in &w.decl(id).delegates {
                out.push(((t.start_line, t.end_line), d.member.to_string(), w.delegate_known(id, d)));
            }
            t.methods.extend(delegated_decls(w, id, &t.qualified_name));
        }
        for i in &mut t.inner_classes {
            walk(w, i, out);
        }
    }
    for t in &mut outline.classes {
        walk(&w, t, &mut delegates);
    }
    outline.errors.retain_mut(|e| {
        let Some(rest) = e.message.strip_prefix(WARNING) else { return true };
        let names: Vec<&str> = rest.split(':').next().unwrap_or("").split(", ").collect();
        let line = e.line.unwrap_or(0);
        let mine = |n: &&str| {
            delegates.iter().filter(|((s, end), m, _)| *s <= line && line <= *end && m == n).map(|d| d.2).next()
        };
        let unknown: Vec<&str> = names.iter().filter(|n| mine(n) != Some(true)).copied().collect();
        if unknown.is_empty() {
            return false;
        }
        e.message = format!(
            "{WARNING}{}: its type is not one the reference engine knows (a workspace, JDK or classpath type), so the methods it delegates are not generated",
            unknown.join(", ")
        );
        true
    });
    outline
}

/// The methods Lombok's `@Delegate` generates in the workspace type `id` (named `qualified_name`),
/// as outline declarations marked generated by `@Delegate` at the delegate's line.
pub(crate) fn delegated_decls(w: &mji_xref::world::World, id: mji_xref::world::TypeId, qualified_name: &str) -> Vec<mji_model::MethodDecl> {
    let mut out = Vec::new();
    for m in w.delegated_methods(id) {
        let params: Vec<mji_model::Param> = m
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| mji_model::Param { name: format!("arg{i}"), type_text: mji_xref::world::written(p) })
            .collect();
        let tparams = (!m.tparams.is_empty()).then(|| {
            let each = m.tparams.iter().map(|tp| match tp.bounds.first() {
                Some(b) => format!("{} extends {}", tp.name, mji_xref::world::written(b)),
                None => tp.name.to_string(),
            });
            format!("<{}>", each.collect::<Vec<_>>().join(", "))
        });
        let ret = mji_xref::world::written(&m.ret);
        let c = mji_model::Callable {
            name: m.name.to_string(),
            modifiers: vec!["public".to_owned()],
            annotations: Vec::new(),
            type_params_text: tparams,
            params,
            throws: Vec::new(),
            start_line: m.line,
            end_line: m.line,
            javadoc: Javadoc { present: false, start_line: None, end_line: None, line_count: 0, preview: None, span: None },
        };
        let types = c.params.iter().map(|p| p.type_text.as_str()).collect::<Vec<_>>().join(",");
        let member = mji_model::SymbolId::method_member(&c.name, &types, &ret);
        let sid = mji_model::SymbolId::member(mji_model::SymbolKind::Method, qualified_name, member, m.line, m.line);
        let signature = c.signature(Some(&ret));
        let mut decl = mji_model::MethodDecl::new(c, sid.to_string(), signature, ret);
        decl.generated = Some("lombok".to_owned());
        decl.generated_by = Some("@Delegate".to_owned());
        out.push(decl);
    }
    out
}

/// Arguments of `java_index`.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct JavaIndexArgs {
    /// A .java or .class file, a type's name (Foo, java.util.HashMap) or a jar: path.
    pub file_path: String,
    #[serde(flatten)]
    pub options: OutlineQuery,
}

/// An outline and whether it came from the cache.
#[derive(Debug, Clone)]
pub struct CachedOutline {
    pub outline: FileOutline,
    pub outcome: Outcome,
    pub elapsed_ms: f64,
}

/// The first sentence of a javadoc (lines `start..=end` of a file), at most 160 characters.
pub(crate) fn javadoc_summary(path: &Path, lines: (u32, u32)) -> Option<String> {
    let bytes = mji_fs::read_regular(path, crate::MAX_FILE_BYTES).ok()?;
    let raw = mji_parser::SourceText::decode_lines(&bytes, lines.0, lines.1);
    let start = raw.find("/**")?;
    let end = raw.rfind("*/").filter(|&e| e >= start)?;
    let text = javadoc_plain_text(&raw[start..end + 2]);
    let first_tag = text.find(" @").map_or(text.len(), |i| i);
    let text = &text[..first_tag];
    let sentence = match text.find(". ") {
        Some(i) => &text[..=i],
        None => text,
    };
    let mut s = sentence.trim().to_owned();
    if crate::truncate_chars(&mut s, 160) {
        s.push('…');
    }
    (!s.is_empty()).then_some(s)
}
