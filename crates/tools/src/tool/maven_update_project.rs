//! `maven_update_project`: re-reads the build model and re-resolves classpaths.

use crate::ToolError;
use crate::build::{UpdateProjectArgs, UpdateResult};
use crate::registry::{Annotations, Tool};
use crate::workspace::Workspace;

pub(crate) struct MavenUpdateProject;

impl Tool for MavenUpdateProject {
    const NAME: &'static str = "maven_update_project";
    const TITLE: &'static str = "Update the project model";
    const DESCRIPTION: &'static str = "After editing build files (pom.xml, Gradle): re-reads modules, source roots, dependencies, re-resolves classpaths; says what changed and what is unresolved.";
    const GROUP: &'static str = "build";
    const ANNOTATIONS: Annotations =
        Annotations { read_only: false, destructive: false, idempotent: true, open_world: true };
    const ALIASES: &'static [(&'static str, &'static str)] = &[("path", "filePath")];

    type Args = UpdateProjectArgs;
    type Output = UpdateResult;

    fn call(ws: &Workspace, args: Self::Args) -> Result<Self::Output, ToolError> {
        ws.maven_update_project(&args)
    }
}
