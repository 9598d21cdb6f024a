//! The cross-file tools' wire types and presentation: `find_references`,
//! `analyze_type_dependencies` and `show_definition` over the [`mji_xref`] engine (target
//! resolution, overriders, search, dependencies and definition candidates live there).
//! Bounded, paged answers; clear errors for targets that do not exist.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use mji_index::matcher::wildcard_match;
use mji_xref::RefKind;

// The domain algorithms live in the cross-reference layer; these are their tool-facing names.
pub use mji_xref::definition::{Candidate, candidates};
pub use mji_xref::target::{
    FileHits, Search, Target, TargetError, add_overriders, kind_name, kind_of_symbol_id, name_of_key, resolve_target,
    resolve_target_as, search, target_at, target_of_symbol_id, undeclared_message,
};

pub(crate) const MAX_LIMIT: u32 = 1000;

/// A target written as a position, `FILE:LINE` or `FILE:LINE:COLUMN` of a `.java` or `.kt` file (the
/// file name may itself hold a colon): the file, line and column.
pub fn position_of(t: &str) -> Option<(String, u32, Option<u32>)> {
    let source = |f: &str| f.ends_with(".java") || f.ends_with(".kt");
    let parts: Vec<&str> = t.rsplitn(3, ':').collect();
    match parts.as_slice() {
        [c, l, f] if source(f) => Some((f.to_string(), l.parse().ok()?, Some(c.parse().ok()?))),
        [l, f] if source(f) => Some((f.to_string(), l.parse().ok()?, None)),
        [c, l, f] => {
            let f2 = format!("{f}:{l}");
            if source(&f2) { Some((f2, c.parse().ok()?, None)) } else { None }
        }
        _ => None,
    }
}

pub(crate) fn is_zero(n: &u32) -> bool {
    *n == 0
}

// How a reference uses its target, as `kind` says it and `kinds` filters: `write` is an
// assignment, compound assignment, `++` or `--` of a field; `call` includes `this(…)` and
// `super(…)`; `override` is the overriding declaration of a method in an anonymous, enum
// constant or local class (listed with includeOverriders).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ReferenceKind {
    Call,
    New,
    Read,
    Write,
    Type,
    Import,
    Extends,
    Implements,
    Annotation,
    MethodRef,
    Javadoc,
    Override,
}

impl ReferenceKind {
    /// The kind of a bound reference.
    pub fn of(k: RefKind) -> ReferenceKind {
        match k {
            RefKind::Import => ReferenceKind::Import,
            RefKind::Extends => ReferenceKind::Extends,
            RefKind::Implements => ReferenceKind::Implements,
            RefKind::Type => ReferenceKind::Type,
            RefKind::New => ReferenceKind::New,
            RefKind::Call | RefKind::ThisCall | RefKind::SuperCall => ReferenceKind::Call,
            RefKind::FieldRead => ReferenceKind::Read,
            RefKind::FieldWrite => ReferenceKind::Write,
            RefKind::Annotation => ReferenceKind::Annotation,
            RefKind::MethodRef => ReferenceKind::MethodRef,
            RefKind::Javadoc => ReferenceKind::Javadoc,
            RefKind::Override => ReferenceKind::Override,
            // No search answers it (`mji_xref::target::search` leaves lambdas out).
            RefKind::Lambda => ReferenceKind::Type,
        }
    }

    /// Its wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            ReferenceKind::Call => "call",
            ReferenceKind::New => "new",
            ReferenceKind::Read => "read",
            ReferenceKind::Write => "write",
            ReferenceKind::Type => "type",
            ReferenceKind::Import => "import",
            ReferenceKind::Extends => "extends",
            ReferenceKind::Implements => "implements",
            ReferenceKind::Annotation => "annotation",
            ReferenceKind::MethodRef => "method-ref",
            ReferenceKind::Javadoc => "javadoc",
            ReferenceKind::Override => "override",
        }
    }
}

// The kind of declaration a target names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum TargetKind {
    Field,
    Method,
}

impl From<TargetKind> for mji_xref::Category {
    fn from(k: TargetKind) -> Self {
        match k {
            TargetKind::Field => mji_xref::Category::Field,
            TargetKind::Method => mji_xref::Category::Method,
        }
    }
}

/// A target's name found as a whole word in the workspace's view and configuration files
/// (`mji_xref::textual::EXTENSIONS`): occurrences of the name, not bound references.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NonJavaMatches {
    /// The words searched: the name, its bean property (`isFoo` → `foo`), a type's qualified name.
    pub words: Vec<String>,
    /// Matching lines in all.
    pub total: u64,
    pub files: u64,
    /// The first matching lines (at most [`MAX_TEXT_MATCHES`]).
    pub matches: Vec<TextMatch>,
    /// Files searched.
    pub searched_files: u64,
    /// True when there were more such files than a search reads ([`MAX_TEXT_FILES`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
}

/// One line of a view or configuration file that holds the name.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TextMatch {
    pub file: String,
    pub line: u32,
    /// The line, trimmed (at most 200 characters).
    pub text: String,
}

/// The most matching lines a non-Java search lists.
pub(crate) const MAX_TEXT_MATCHES: usize = 20;
/// The most view and configuration files one search reads.
pub(crate) const MAX_TEXT_FILES: usize = 5_000;

/// The word filters of the view and configuration files searched so far ([`non_java_matches`]),
/// each with the stamp of the file it was made from: a file whose stamp is the same when
/// searched again, and whose filter rules out every word searched, is counted as searched
/// without being read (issue 56: reading and searching up to 5,000 such files was most of a
/// warm `find_references` of a target no Java file names, 130–180 ms on the four roots). A
/// file with no filter, or whose stamp changed, is read as before (and its filter made anew).
/// At most [`MAX_FILTER_HASHES`] hashes are kept (4 bytes each); files beyond it are read.
#[derive(Default)]
pub struct ViewFilters {
    state: std::sync::RwLock<FilterState>,
}

#[derive(Default)]
struct FilterState {
    files: HashMap<Arc<Path>, Filter>,
    /// The hashes of all the filters kept.
    hashes: usize,
}

/// The most word hashes [`ViewFilters`] keeps (16 MB; jenkins's 9,570 view and configuration
/// files hold about a million distinct runs in all).
pub(crate) const MAX_FILTER_HASHES: usize = 4 << 20;

impl ViewFilters {
    /// How many files have a filter, and the hashes kept in all.
    pub fn counts(&self) -> (usize, usize) {
        self.state.read().map(|s| (s.files.len(), s.hashes)).unwrap_or_default()
    }
}

/// A file's word filter and the stamp of the file it was made from.
type Filter = (mji_fs::stamp::Stamp, Arc<mji_xref::textual::WordRuns>);

/// What the search made of one file: its count and lines, and the filter made from it.
type Searched = (usize, Vec<mji_xref::textual::LineMatch>, Option<Filter>);

/// The target's textual uses in the view and configuration files of the workspace (the
/// files the index holds, so within the roots and the path policy; each read through it).
pub(crate) fn non_java_matches(ws: &crate::host::Host, target: &Target, globs: &[String]) -> NonJavaMatches {
    use mji_xref::textual;
    let words = textual::words_of(target);
    let all = view_files(ws);
    let mut files: Vec<&(Arc<Path>, String)> =
        all.iter().filter(|(_, disp)| globs.is_empty() || globs.iter().any(|g| glob_match(g, disp))).collect();
    files.sort_by(|a, b| a.1.cmp(&b.1));
    let more = files.len() > MAX_TEXT_FILES;
    files.truncate(MAX_TEXT_FILES);
    let mut out = NonJavaMatches { words, total: 0, files: 0, matches: Vec::new(), searched_files: 0, truncated: more };
    // The files are read and searched on every core, each file's lines kept, then taken in
    // the files' order as before. A file whose filter rules out every word is not read (its
    // stamp taken to know the filter is still its own); a file that holds none of the words'
    // bytes is never decoded (unless its filter is to be made). A command line's host (one
    // call) makes no filters.
    use rayon::prelude::*;
    let cancel = mji_model::cancel::Cancel::current();
    let keep = !ws.is_one_call();
    let filters = ws.view_filters();
    let finders: Vec<memchr::memmem::Finder> =
        out.words.iter().map(|w| memchr::memmem::Finder::new(w.as_bytes())).collect();
    // The filters kept, taken under the lock (which the search does not hold).
    let kept: Vec<Option<Filter>> = match filters.state.read() {
        Ok(st) if keep && !st.files.is_empty() => files.iter().map(|(p, _)| st.files.get(p).cloned()).collect(),
        _ => vec![None; files.len()],
    };
    let found: Vec<Option<Searched>> = files
        .par_iter()
        .zip(kept)
        .map(|((p, disp), filter)| {
            if cancel.is_cancelled() {
                return None;
            }
            let meta = if keep { std::fs::metadata(p).ok() } else { None };
            let stamp = meta.as_ref().map(mji_fs::stamp::Stamp::of);
            if let (Some(stamp), Some((was, runs))) = (stamp, filter)
                && was == stamp
                && !was.is_never()
            {
                if !out.words.iter().any(|w| runs.may_hold(w)) {
                    return Some((0, Vec::new(), None));
                }
                // The filter is the file's: it is read for its lines, and kept.
                return search_file(ws, p, disp, &finders, &out.words, false).map(|(n, l, _)| (n, l, None));
            }
            // An unreadable file (over the size cap, a secret, gone) is not searched.
            let (n, lines, runs) = search_file(ws, p, disp, &finders, &out.words, meta.is_some())?;
            // The stamp taken before the read: a change after it is seen next time. A file
            // changed within the racy window gets no filter.
            let made =
                meta.map(|m| mji_fs::stamp::Stamp::recorded(&m)).filter(|s| !s.is_never()).zip(runs.map(Arc::new));
            Some((n, lines, made))
        })
        .collect();
    // Files left unread by a cancellation are not counted: the caller answers it as cancelled.
    let mut made = Vec::new();
    for ((p, disp), found) in files.iter().zip(found) {
        let Some((n, found, filter)) = found else { continue };
        if let Some(f) = filter {
            made.push((p.clone(), f));
        }
        out.searched_files += 1;
        if n == 0 {
            continue;
        }
        out.files += 1;
        out.total += n as u64;
        for m in found {
            if out.matches.len() < MAX_TEXT_MATCHES {
                let mut text = m.text;
                if crate::truncate_chars(&mut text, 200) {
                    text.push('…');
                }
                out.matches.push(TextMatch { file: disp.clone(), line: m.line, text });
            }
        }
    }
    keep_filters(filters, &all, made);
    out
}

/// Every view and configuration file of the index by its extension (one pass over the
/// index's files), with its display path.
fn view_files(ws: &crate::host::Host) -> Vec<(Arc<Path>, String)> {
    let index = ws.index();
    index
        .resources_named(mji_xref::textual::is_searched)
        .into_iter()
        .map(|(p, r)| {
            let disp = index.roots().display(&p, r.root);
            (p, disp)
        })
        .collect()
}

/// Keeps the filters `made` (the files of `all`, the view files indexed now), within
/// [`MAX_FILTER_HASHES`]; the filters of files no longer indexed are dropped.
fn keep_filters(filters: &ViewFilters, all: &[(Arc<Path>, String)], made: Vec<(Arc<Path>, Filter)>) {
    if made.is_empty() {
        return;
    }
    let Ok(mut st) = filters.state.write() else { return };
    // Files no longer indexed lose their filters.
    if st.files.len() + made.len() > all.len() {
        let now: std::collections::HashSet<&Arc<Path>> = all.iter().map(|(p, _)| p).collect();
        let mut dropped = 0;
        st.files.retain(|p, (_, r)| {
            now.contains(p) || {
                dropped += r.len();
                false
            }
        });
        st.hashes -= dropped;
    }
    for (p, f) in made {
        let add = f.1.len();
        let old = st.files.get(&p).map_or(0, |(_, r)| r.len());
        if st.hashes - old + add > MAX_FILTER_HASHES {
            continue;
        }
        st.hashes = st.hashes - old + add;
        st.files.insert(p, f);
    }
    tracing::debug!(files = st.files.len(), hashes = st.hashes, "view filters kept");
}

/// The word filters a search of the whole workspace's view and configuration files
/// ([`non_java_matches`] without `paths`) would make, made now for the files without a
/// current one, [`PREPARE_STEP`] files at a time with `pause` before each (false: stop there,
/// the workspace closing): the keeper's work
/// after a pass, so that no call pays for them (issue 56: the first such search after a pass
/// on the four roots read ~5,000 files, 93–224 ms). The same files, read and filtered the
/// same way, as the search.
pub(crate) fn prepare_view_filters(ws: &crate::host::Host, pause: &dyn Fn() -> bool) {
    use rayon::prelude::*;
    if ws.is_one_call() {
        return;
    }
    let t = std::time::Instant::now();
    let all = view_files(ws);
    let mut files: Vec<&(Arc<Path>, String)> = all.iter().collect();
    files.sort_by(|a, b| a.1.cmp(&b.1));
    files.truncate(MAX_TEXT_FILES);
    let filters = ws.view_filters();
    let mut made_in_all = 0;
    for step in files.chunks(PREPARE_STEP) {
        if !pause() {
            break;
        }
        let kept: Vec<Option<mji_fs::stamp::Stamp>> = match filters.state.read() {
            Ok(st) => step.iter().map(|(p, _)| st.files.get(p).map(|f| f.0)).collect(),
            Err(_) => return,
        };
        let made: Vec<(Arc<Path>, Filter)> = step
            .par_iter()
            .zip(kept)
            .filter_map(|((p, disp), was)| {
                let meta = std::fs::metadata(p).ok()?;
                if was.is_some_and(|w| w == mji_fs::stamp::Stamp::of(&meta) && !w.is_never()) {
                    return None;
                }
                let (_, _, runs) = search_file(ws, p, disp, &[], &[], true)?;
                let stamp = Some(mji_fs::stamp::Stamp::recorded(&meta)).filter(|s| !s.is_never())?;
                Some((p.clone(), (stamp, Arc::new(runs?))))
            })
            .collect();
        made_in_all += made.len();
        keep_filters(filters, &all, made);
    }
    tracing::debug!(files = made_in_all, ms = t.elapsed().as_millis() as u64, "view filters prepared");
}

/// The files [`prepare_view_filters`] reads between two pauses.
const PREPARE_STEP: usize = 256;

/// One file read and searched: its matching lines' count, the first of them, and (`filter`)
/// its word filter.
fn search_file(
    ws: &crate::host::Host,
    p: &Arc<Path>,
    disp: &str,
    finders: &[memchr::memmem::Finder],
    words: &[String],
    filter: bool,
) -> Option<(usize, Vec<mji_xref::textual::LineMatch>, Option<mji_xref::textual::WordRuns>)> {
    use mji_xref::textual;
    let bytes = ws.roots().read(p, disp).ok()?;
    let hit = finders.iter().any(|f| f.find(&bytes).is_some());
    if !hit && !filter {
        return Some((0, Vec::new(), None));
    }
    let text = String::from_utf8_lossy(&bytes);
    let runs = filter.then(|| textual::WordRuns::of(&text));
    if !hit {
        return Some((0, Vec::new(), runs));
    }
    // Each file keeps its count and at most the lines an answer can list.
    let mut lines = textual::matching_lines(&text, words);
    let n = lines.len();
    lines.truncate(MAX_TEXT_MATCHES);
    Some((n, lines, runs))
}

/// The most incomplete files an answer lists.
pub(crate) const MAX_INCOMPLETE: usize = 20;

/// The files to search, filtered by the `paths` globs (matched against the display path).
pub(crate) fn select_files(files: &[(Arc<Path>, String)], globs: &[String]) -> Vec<Arc<Path>> {
    files
        .iter()
        .filter(|(_, disp)| globs.is_empty() || globs.iter().any(|p| glob_match(p, disp)))
        .map(|(p, _)| p.clone())
        .collect()
}

fn glob_match(pattern: &str, path: &str) -> bool {
    let p = pattern.replace("**/", "*").replace("**", "*");
    wildcard_match(&p.to_lowercase(), &path.to_lowercase(), true)
        || (!pattern.contains('/')
            && wildcard_match(&p.to_lowercase(), &path.rsplit('/').next().unwrap_or(path).to_lowercase(), true))
}

/// Reads line `n` of a file, trimmed to 200 characters. The cache keeps each file's decoded
/// text and line starts (None: unreadable), so an answer with many references in one file
/// reads and splits it once, and builds only the lines it shows.
pub fn line_text(cache: &mut HashMap<Arc<Path>, Option<mji_parser::SourceText>>, path: &Arc<Path>, n: u32) -> String {
    let src = cache.entry(path.clone()).or_insert_with(|| {
        mji_fs::read_regular(path, crate::MAX_FILE_BYTES).ok().map(|b| mji_parser::SourceText::decode(&b))
    });
    let n = n.max(1);
    let line = match src {
        Some(s) if n <= s.lines.line_count() => s.lines.line_text(&s.text, n),
        _ => "",
    };
    let mut t = line.trim().to_string();
    if crate::truncate_chars(&mut t, 200) {
        t.push('…');
    }
    t
}

/// A reference kind's wire name (`ReferenceKind`).
pub(crate) fn kind_str(k: RefKind) -> String {
    ReferenceKind::of(k).as_str().to_string()
}
