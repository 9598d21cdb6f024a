//! The workspace search tools: `java_find_symbol` (spec §5.4), `find_type` (the IDE's Open
//! Type) and `find_resource` (Open Resource), over the live index. Every answer is bounded,
//! says its `total`, whether it was `truncated`, the `nextOffset` to page on, and whether the
//! index was `complete` when it answered.

use serde::{Deserialize, Serialize};

use crate::ToolError;
use mji_index::live::{LiveIndex, Progress};

/// Largest page any search returns.
pub(crate) const MAX_RESULTS: u32 = 500;

pub(crate) fn default_max() -> u32 {
    50
}

/// How complete the index was when a search answered.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct IndexStatus {
    /// False while the first indexing pass is still running: results may be missing.
    pub complete: bool,
    pub indexed_files: u64,
    pub total_files: u64,
    /// Directories named `target`, `build` or `out` that were not indexed because they are
    /// build output, per reason (a directory of that name in a package tree is indexed).
    pub skipped_dirs: SkippedDirsStatus,
    /// Java files not indexed: over the size cap (`max_file_bytes`) or not regular files.
    pub skipped_files: u64,
    /// Some of them, each with the reason (at most 5).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<String>,
    /// `find_references`: the files whose references the reference index held when the call
    /// began. The others were read and bound for the answer, which is complete either way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bound_files: Option<u64>,
    /// Library archives read in part (over `max_archive_entries`) or not at all, with why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub library_notes: Vec<String>,
}

/// Build-output directories left out of the index, by why they were judged build output.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SkippedDirsStatus {
    /// Beside a `pom.xml`.
    pub maven: u64,
    /// Beside a Gradle build or settings file.
    pub gradle: u64,
    /// Beside an IntelliJ module (`.iml`, `.idea`) or an Ant `build.xml`.
    pub ide: u64,
    /// Holding what builds leave (`classes`, `maven-status`, `tmp`, …), with no build file beside.
    pub markers: u64,
}

impl From<mji_fs::walk::SkippedDirs> for SkippedDirsStatus {
    fn from(s: mji_fs::walk::SkippedDirs) -> Self {
        SkippedDirsStatus {
            maven: s.maven as u64,
            gradle: s.gradle as u64,
            ide: s.ide as u64,
            markers: s.markers as u64,
        }
    }
}

impl IndexStatus {
    /// Whether an agent needs the status: the index was incomplete, files were skipped or a
    /// library read in part (an answer may miss something), or the call asked for it.
    pub fn matters(&self) -> bool {
        !self.complete || self.skipped_files > 0 || !self.library_notes.is_empty()
    }

    /// The status an answer carries: when it [`IndexStatus::matters`] or `asked` (`includeIndex`).
    pub fn shown(status: Option<IndexStatus>, asked: bool) -> Option<IndexStatus> {
        status.filter(|s| asked || s.matters())
    }

    /// The status of an index: its progress and the directories its walk skipped.
    pub fn of(index: &LiveIndex) -> IndexStatus {
        IndexStatus::with_progress(index, index.progress())
    }

    /// The status of an index at the progress a query saw.
    pub(crate) fn with_progress(index: &LiveIndex, p: Progress) -> IndexStatus {
        let mut s = IndexStatus::from(p);
        s.skipped_dirs = index.skipped_dirs().into();
        if p.skipped > 0 {
            s.skipped = index.skipped(5);
        }
        s
    }
}

impl From<Progress> for IndexStatus {
    fn from(p: Progress) -> Self {
        IndexStatus {
            complete: p.complete,
            indexed_files: p.indexed as u64,
            total_files: p.total as u64,
            skipped_dirs: SkippedDirsStatus::default(),
            skipped_files: p.skipped as u64,
            skipped: Vec::new(),
            bound_files: None,
            library_notes: Vec::new(),
        }
    }
}

/// Declares the answer of a search: its own fields, then one page of `results` with the
/// paging every search shares (`total`, `truncated`, `nextOffset`) and the index status; and
/// the answer budget's cut of the page (`keep_first`).
macro_rules! search_answer {
    (
        $(#[$meta:meta])*
        pub struct $name:ident of $result:ty {
            $($field:ident: $ty:ty,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
        #[serde(rename_all = "camelCase")]
        pub struct $name {
            $(pub $field: $ty,)*
            pub results: Vec<$result>,
            #[serde(flatten)]
            pub page: $crate::page::Page,
            /// Only when incomplete, files were skipped, or `includeIndex`.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub index: Option<$crate::find::IndexStatus>,
        }

        impl $name {
            /// The answer of one page of `results` out of `total` matches, starting at `offset`,
            /// with the index's progress as the query saw it.
            fn page(
                $($field: $ty,)*
                results: Vec<$result>,
                offset: u32,
                index: &mji_index::live::LiveIndex,
                page: &mji_index::live::Page<impl Sized>,
            ) -> Self {
                $name {
                    $($field,)*
                    page: $crate::page::Page::of(u64::from(offset), results.len(), page.total),
                    results,
                    index: Some($crate::find::IndexStatus::with_progress(index, page.progress)),
                }
            }

            /// The answer budget's cut of the page: keeps the first `n` results and says where
            /// the next page starts.
            pub(crate) fn keep_first(&mut self, n: usize, offset: u32) {
                self.page.keep_first(&mut self.results, u64::from(offset), n);
            }
        }
    };
}
pub(crate) use search_answer;

/// Where a search looks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    #[default]
    Workspace,
    Libraries,
    All,
}

pub(crate) fn page_size(max: u32) -> Result<usize, ToolError> {
    if max == 0 {
        return Err(ToolError::InvalidArgument("limit must be at least 1".to_owned()));
    }
    Ok(max.min(MAX_RESULTS) as usize)
}

/// The names the index declares a few edits away from `name` (a typo's "did you mean"), those
/// `keep` accepts, closest first: at most five qualified names. Nothing for a pattern (`*`, `?`),
/// nor the name itself (a qualifier that matched nothing is no typo of the name).
pub(crate) fn near_names(
    index: &LiveIndex,
    under: Option<&std::path::Path>,
    name: &str,
    keep: &(dyn Fn(mji_index::symbols::SymKind) -> bool + Sync),
) -> Vec<String> {
    let name = name.trim().rsplit(['.', '#']).next().unwrap_or("").split('(').next().unwrap_or("").trim();
    if name.is_empty() || name.contains(['*', '?']) {
        return Vec::new();
    }
    let all = mji_index::matcher::Pattern::new("*", false);
    let near = |p: &std::path::Path, s: &mji_index::symbols::SymView| {
        under.is_none_or(|u| p.starts_with(u))
            && keep(s.kind())
            && mji_xref::target::near_name(name, s.name()).is_some_and(|d| d > 0)
    };
    let page = index.find_symbols(&all, &near, 0, 50);
    let mut found: Vec<(usize, String)> = page
        .items
        .iter()
        .map(|f| {
            let d = mji_xref::target::near_name(name, &f.symbol.name).unwrap_or(usize::MAX);
            (d, f.symbol.qualified_name.to_string())
        })
        .collect();
    found.sort();
    found.dedup_by(|a, b| a.1 == b.1);
    found.into_iter().take(5).map(|(_, q)| q).collect()
}

/// The error of a search that matched nothing where names near it are declared: a typo, said
/// with what it may have meant (`no type matches `Grahp`; did you mean q.Graph?`).
pub(crate) fn no_match_but_near(what: &str, query: &str, near: &[String]) -> ToolError {
    ToolError::NoSuchSymbol(format!(
        "no {what} matches `{}`; did you mean {}?",
        mji_fs::clip(query.trim()),
        near.join(", ")
    ))
}

/// `Some("kotlin")` for a Kotlin source, None for Java (results say the language only when it is
/// not Java, so Java answers are as before).
pub(crate) fn language_of(path: &std::path::Path) -> Option<String> {
    path.extension().is_some_and(|e| e == "kt").then(|| mji_parser::kotlin::LANGUAGE.to_owned())
}
