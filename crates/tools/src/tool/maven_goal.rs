//! `maven_goal`: runs allowlisted Maven goals and answers the errors, not the whole log.

use crate::ToolError;
use crate::build::RunResult;
use crate::registry::{Annotations, Tool, Needs};
use std::path::PathBuf;
use mji_build::project::BuildSystem;
use mji_build::runs::{self, Kind, MavenCall};
use crate::build::{allowlisted, check_word, relative};
use crate::host::Host;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub(crate) struct MavenGoal;

impl Tool for MavenGoal {
    const NAME: &'static str = "maven_goal";
    const TITLE: &'static str = "Run Maven goals";
    const DESCRIPTION: &'static str = "Run allowlisted Maven goals (compile, test, package, clean, dependency:tree, …): exit code, compiler errors (file:line), failed tests, [ERROR] lines, log head/tail. Trusted workspaces only.";
    const GROUP: &'static str = "build";
    const SHOWN_WHEN: Needs = Needs::MavenBuild;
    // `clean` deletes target/ directories.
    const ANNOTATIONS: Annotations =
        Annotations { read_only: false, destructive: true, idempotent: false, open_world: true };

    type Args = MavenGoalArgs;
    type Output = RunResult;

    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError> {
        run(ws, &args)
    }

    crate::build::run_result_answer!();
}

/// `maven_goal`.
pub fn run(ws: &Host, args: &MavenGoalArgs) -> Result<RunResult, ToolError> {
    allowlisted("goal", "maven_goals", &args.goals, &ws.config().maven_goals, |a, g| {
        a == g || a.strip_suffix(":*").is_some_and(|plugin| g.split_once(':').is_some_and(|(p, _)| p == plugin))
    })?;
    for p in &args.profiles {
        check_word("profile", p)?;
    }
    let project = crate::build::goal_build(ws, BuildSystem::Maven, &args.properties)?;
    let module = if args.module.trim().is_empty() {
        None
    } else {
        let m = project
            .modules
            .iter()
            .find(|m| m.name == args.module || relative(&m.dir, &project.root) == args.module.trim_end_matches('/'))
            .ok_or_else(|| {
                ToolError::InvalidArgument(format!(
                    "no module `{}`; the modules are {}",
                    args.module,
                    project.modules.iter().map(|m| m.name.as_str()).collect::<Vec<_>>().join(", ")
                ))
            })?;
        Some(relative(&m.dir, &project.root)).filter(|r| r != ".")
    };
    let settings = ws.build_settings();
    let call = MavenCall {
        goals: args.goals.clone(),
        profiles: args.profiles.clone(),
        properties: args.properties.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        offline: args.offline,
        module,
    };
    let mvn = crate::build::mvn(ws, &settings)?;
    let spec = runs::maven_spec(&mvn, &project.root, &call, &settings);
    let reports: Vec<PathBuf> = project.modules.iter().map(|m| m.dir.join("target/surefire-reports")).collect();
    crate::build::start_run(ws, Kind::Goal, "maven", spec, None, reports, &project)
}

/// Arguments of `maven_goal`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MavenGoalArgs {
    pub goals: Vec<String>,
    #[serde(default)]
    pub profiles: Vec<String>,
    #[serde(default)]
    pub properties: BTreeMap<String, String>,
    #[serde(default)]
    pub offline: bool,
    /// artifactId or directory (`-pl M -am`).
    #[serde(default)]
    pub module: String,
}
