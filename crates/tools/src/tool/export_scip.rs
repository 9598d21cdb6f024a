//! `export_scip`: the reference index written as a SCIP index (for Sourcegraph and every tool
//! that reads SCIP), with scip-java's symbols; inside the workspace roots only.

use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::ToolError;
use crate::host::Host;
use crate::registry::{Annotations, Tool};

pub(crate) struct ExportScip;

#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct ExportScipArgs {
    // Where to write, inside a root; default `index.scip` in the first root.
    pub file_path: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExportScipResult {
    pub file_path: String,
    pub documents: usize,
    /// Documents encoded by this export; the others were unchanged since the last one.
    pub encoded: usize,
    pub occurrences: usize,
    pub symbols: usize,
    pub skipped: usize,
    /// Kotlin references answered `likely` (their receiver needs Kotlin's full inference): left
    /// out of the Kotlin documents, as every `likely` reference is (SCIP has no confidence).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub kotlin_likely_left_out: usize,
    pub bytes: u64,
    pub elapsed_ms: u64,
}

impl Tool for ExportScip {
    const NAME: &'static str = "export_scip";
    const TITLE: &'static str = "Export SCIP index";
    const DESCRIPTION: &'static str =
        "Write the workspace's references as a SCIP index (scip-java's symbols) for Sourcegraph: filePath inside a root, default index.scip.";
    // Writes one file inside the roots; exporting again rewrites it the same.
    const ANNOTATIONS: Annotations =
        Annotations { read_only: false, destructive: false, idempotent: true, open_world: false };
    const WAITS_FOR_INDEX: bool = true;
    // It writes a file, so it is not in the read-only navigation group.
    const GROUP: &'static str = "export";

    type Args = ExportScipArgs;
    type Output = ExportScipResult;

    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError> {
        let (root, rel) = inside_roots(ws, &args.file_path)?;
        export(ws, &root, &rel)
    }

    fn render(o: &Self::Output) -> Option<String> {
        Some(format!(
            "wrote {} ({} bytes): {} documents ({} encoded now), {} occurrences, {} symbols{} in {} ms",
            o.file_path,
            o.bytes,
            o.documents,
            o.encoded,
            o.occurrences,
            o.symbols,
            if o.skipped > 0 { format!(", {} unreadable files skipped", o.skipped) } else { String::new() },
            o.elapsed_ms
        ) + &if o.kotlin_likely_left_out > 0 {
            format!("; {} likely Kotlin references left out (SCIP has no confidence)", o.kotlin_likely_left_out)
        } else {
            String::new()
        })
    }
}

/// The output path of a call: relative to the first root, below a root, named `*.scip`; as
/// the root and the path below it, which the write opens without following a link.
fn inside_roots(ws: &Host, given: &str) -> Result<(PathBuf, PathBuf), ToolError> {
    let given = if given.trim().is_empty() { "index.scip" } else { given.trim() };
    let first = ws.roots().paths().first().cloned().unwrap_or_default();
    let p = Path::new(given);
    let p = mji_fs::lexical_normalize(&if p.is_absolute() { p.to_path_buf() } else { first.join(p) });
    if p.extension().is_none_or(|e| e != "scip") {
        return Err(ToolError::InvalidArgument(format!("{given}: the output file's name must end in .scip")));
    }
    let (root, rel) = mji_fs::write::split(&p, ws.roots().paths()).map_err(|_| {
        ToolError::InvalidArgument(format!(
            "{given}: outside the workspace roots (export_scip writes only inside them, never through a link; the CLI's `export scip --output` writes anywhere)"
        ))
    })?;
    Ok((root.to_path_buf(), rel))
}

/// The major version of the JDK whose API the engine binds against: the user's JDK when its
/// tables were read from its image, else the committed table's.
fn jdk_version(ws: &Host) -> u32 {
    let env = &ws.config().jdk_env;
    crate::jdk::user_jdk_tables(env)
        .filter(|t| t.api.is_some())
        .and_then(|_| crate::jdk::user_jdk(env))
        .map_or(mji_xref::world::jdk_api::TABLE_JDK_VERSION, |(_, major)| major)
}

/// Exports the workspace to `rel` below `anchor` (a root, or the directory of the path the
/// user typed), from the reference index.
pub fn export(ws: &Host, anchor: &Path, rel: &Path) -> Result<ExportScipResult, ToolError> {
    let out = anchor.join(rel);
    let started = std::time::Instant::now();
    let (world, files) = ws.xref_world();
    // Java and Kotlin sources each make a document (`mji_scip::kotlin` for `.kt` files).
    let stamps: Vec<mji_xref::engine::FileStamp> = files
        .iter()
        .filter(|(p, _)| is_source(p))
        .filter_map(|(p, _)| {
            let st = mji_fs::stamp::Stamp::of(&std::fs::metadata(p).ok()?);
            Some(mji_xref::engine::FileStamp { path: p.clone(), stamp: st })
        })
        .collect();
    let root = ws.roots().paths().first().cloned().unwrap_or_default();
    let workspace = coordinates(&root);
    let opts = mji_scip::ExportOptions {
        modules: module_coordinates(ws, &workspace),
        workspace,
        project_root: root,
        jdk_version: jdk_version(ws).to_string(),
        tool_version: env!("CARGO_PKG_VERSION").into(),
        classpath: ws.classpath_jars(),
        maven_repos: vec![mji_build::classpath::repo_local(&ws.build_settings())],
        max_archive_entries: ws.max_archive_entries(),
    };
    let cancel = mji_model::cancel::Cancel::current();
    let stop = move || cancel.is_cancelled();
    let Some((index, stats)) = ws.scip_exporter().export(ws.xref(), &world, &stamps, &opts, &stop) else {
        return Err(ToolError::InvalidArgument("export_scip was cancelled: nothing written".into()));
    };
    let bytes = mji_scip::write(&index, anchor, rel).map_err(|e| ToolError::InvalidArgument(e.to_string()))?;
    ws.persist_references();
    Ok(ExportScipResult {
        file_path: out.display().to_string(),
        documents: stats.documents,
        encoded: stats.encoded,
        occurrences: stats.occurrences,
        symbols: stats.symbols,
        skipped: stats.skipped,
        kotlin_likely_left_out: stats.kotlin_likely,
        bytes,
        elapsed_ms: started.elapsed().as_millis() as u64,
    })
}

/// The coordinates of each module of the build (other than the root) that has its own: its
/// pom.xml's (the parent's group and version when it leaves them out), or a Gradle
/// subproject's build script's, else the root build's group and version with the
/// subproject's directory name (Gradle's default project name).
fn module_coordinates(ws: &Host, workspace: &mji_scip::Coordinates) -> Vec<(PathBuf, mji_scip::Coordinates)> {
    let Ok((project, root, _)) = crate::build::project_at(ws, "") else { return Vec::new() };
    let group_of_root = workspace.name.strip_prefix("maven/").and_then(|n| n.split_once('/')).map(|(g, _)| g.to_owned());
    let mut out = Vec::new();
    for m in project.modules.iter().filter(|m| m.dir != root && m.dir.starts_with(&root)) {
        let mut c = coordinates(&m.dir);
        if c == mji_scip::Coordinates::unknown()
            && !m.dir.join("pom.xml").is_file()
            && let (Some(g), Some(name)) = (&group_of_root, m.dir.file_name())
        {
            c = mji_scip::Coordinates {
                name: format!("maven/{g}/{}", name.to_string_lossy()),
                version: workspace.version.clone(),
            };
        }
        if c != mji_scip::Coordinates::unknown() {
            out.push((m.dir.clone(), c));
        }
    }
    out
}

/// The workspace's coordinates as scip-java writes them (`maven/<group>/<artifact> <version>`)
/// when the root's pom.xml or Gradle build says them, else `. .`.
pub fn coordinates(root: &Path) -> mji_scip::Coordinates {
    let scip = |g: &str, a: &str, v: String| mji_scip::Coordinates { name: format!("maven/{g}/{a}"), version: v };
    if let Ok(pom) = mji_build::pom::Pom::read(&root.join("pom.xml")) {
        let group = pom.group_id.clone().or_else(|| pom.parent.as_ref().map(|p| p.group_id.clone()));
        let version = pom.version.clone().or_else(|| pom.parent.as_ref().map(|p| p.version.clone()));
        return match (group, version) {
            (Some(g), Some(v)) if !v.contains("${") => scip(&g, &pom.artifact_id, v),
            _ => mji_scip::Coordinates::unknown(),
        };
    }
    match mji_build::gradle_coordinates(root) {
        Some((g, a, v)) => scip(&g, &a, v),
        None => mji_scip::Coordinates::unknown(),
    }
}

fn is_source(p: &Path) -> bool {
    p.extension().is_some_and(|x| x == "java" || x == "kt")
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}
