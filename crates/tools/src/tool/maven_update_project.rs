//! `maven_update_project`: re-reads the build model and re-resolves classpaths.

use crate::ToolError;
use crate::registry::{Annotations, Start, Tool};
use std::path::Path;
use mji_build::project::{BuildSystem, Project};
use crate::host::Host;
use serde::{Deserialize, Serialize};

pub(crate) struct MavenUpdateProject;

impl Tool for MavenUpdateProject {
    const NAME: &'static str = "maven_update_project";
    const TITLE: &'static str = "Update the project model";
    const DESCRIPTION: &'static str = "After editing build files (pom.xml, Gradle): re-reads modules, source roots, dependencies, re-resolves classpaths; says what changed and what is unresolved.";
    const GROUP: &'static str = "build";
    // It walks new source roots into the index: the index a server has.
    const START: Start = Start::Index;
    const ANNOTATIONS: Annotations =
        Annotations { read_only: false, destructive: false, idempotent: true, open_world: true };
    const ALIASES: &'static [(&'static str, &'static str)] = &[("path", "filePath")];

    type Args = UpdateProjectArgs;
    type Output = UpdateResult;

    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError> {
        run(ws, &args)
    }
}

/// `maven_update_project`.
pub fn run(ws: &Host, args: &UpdateProjectArgs) -> Result<UpdateResult, ToolError> {
    let (project, _, _) = crate::build::project_at(ws, &args.path)?;
    let show = |p: &Path| mji_build::junit::shown(p, ws.roots().paths());
    let settings = ws.build_settings();
    // Classpaths are resolved anew: the stored ones go, and get_problems forgets its own.
    let store = settings.cache_dir.join("classpaths");
    if let Ok(rd) = std::fs::read_dir(&store) {
        for e in rd.flatten() {
            let _ = std::fs::remove_file(e.path());
        }
    }
    ws.problems_engine().forget_contexts();
    // The library types (find_type's scope, the engine's receivers) are read again too.
    ws.forget_libraries();
    let mut unresolved = Vec::new();
    let mut notes = Vec::new();
    for m in project.modules.iter().filter(|m| !m.source_roots.is_empty() || !m.test_roots.is_empty()) {
        // The test classpath holds the main one: what it cannot resolve is all there is.
        let probe = m.test_roots.iter().chain(m.source_roots.iter()).next().map(|r| r.join("x.java"));
        let Some(probe) = probe else { continue };
        let dir = if project.system == BuildSystem::Maven {
            m.dir.clone()
        } else {
            mji_build::classpath::project_of(&probe, ws.roots().paths()).0
        };
        let c = mji_build::classpath::resolve(&dir, &probe, ws.roots().paths(), &settings);
        if !c.complete {
            unresolved.push(format!("{}: {}", m.name, c.notes.last().cloned().unwrap_or_default()));
        }
        notes.extend(c.notes);
    }
    let names = |p: &Project| p.modules.iter().map(|m| m.name.clone()).collect::<Vec<_>>();
    let roots_of = |p: &Project| p.all_roots().iter().map(|r| show(r)).collect::<Vec<_>>();
    let deps_of = |p: &Project| {
        p.modules
            .iter()
            .flat_map(|m| m.dependencies.iter().map(move |d| format!("{}: {d}", m.name)))
            .collect::<Vec<_>>()
    };
    let previous =
        ws.build_models().lock().unwrap_or_else(|e| e.into_inner()).insert(project.root.clone(), project.clone());
    let diff = |new: Vec<String>, old: Vec<String>| -> (Vec<String>, Vec<String>) {
        (
            new.iter().filter(|n| !old.contains(n)).cloned().collect(),
            old.iter().filter(|o| !new.contains(o)).cloned().collect(),
        )
    };
    let old = previous.clone().unwrap_or(Project { modules: Vec::new(), ..project.clone() });
    let (modules_added, modules_removed) = diff(names(&project), names(&old));
    let (source_roots_added, source_roots_removed) = diff(roots_of(&project), roots_of(&old));
    let (dependencies_added, dependencies_removed) = diff(deps_of(&project), deps_of(&old));
    // New source roots inside the workspace are walked into the index.
    let indexed_changes = if source_roots_added.is_empty() { 0 } else { ws.index().rescan() as u32 };
    Ok(UpdateResult {
        system: format!("{:?}", project.system).to_lowercase(),
        root: show(&project.root),
        modules: names(&project),
        compared: previous.is_some(),
        modules_added,
        modules_removed,
        source_roots_added,
        source_roots_removed,
        dependencies_added,
        dependencies_removed,
        unresolved,
        classpath_notes: notes,
        problems: project.problems.clone(),
        indexed_changes,
    })
}

/// Arguments of `maven_update_project`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct UpdateProjectArgs {
    /// A file or directory in the build; empty: the first root.
    #[serde(rename = "filePath", default)]
    pub path: String,
}

/// What changed in the build model.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpdateResult {
    pub system: String,
    pub root: String,
    pub modules: Vec<String>,
    /// False on the first read of this build in this session (everything is new).
    pub compared: bool,
    pub modules_added: Vec<String>,
    pub modules_removed: Vec<String>,
    pub source_roots_added: Vec<String>,
    pub source_roots_removed: Vec<String>,
    pub dependencies_added: Vec<String>,
    pub dependencies_removed: Vec<String>,
    /// Artifacts the build could not resolve, per module.
    pub unresolved: Vec<String>,
    /// How each module's classpath was found.
    pub classpath_notes: Vec<String>,
    /// Build files that could not be read.
    pub problems: Vec<String>,
    /// Files the index took in anew after the re-read.
    pub indexed_changes: u32,
}
