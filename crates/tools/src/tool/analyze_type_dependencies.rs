//! `analyze_type_dependencies`: what a type depends on, with forbidden packages and cycles.

use crate::ToolError;
use crate::registry::Tool;
use crate::workspace::Workspace;

pub(crate) struct AnalyzeTypeDependencies;

impl Tool for AnalyzeTypeDependencies {
    const NAME: &'static str = "analyze_type_dependencies";
    const TITLE: &'static str = "Analyze type dependencies";
    const DESCRIPTION: &'static str = "What does this type depend on? The types it uses, by package and origin (workspace, jdk, library); `excludedPackages` flags forbidden uses; `transitive` follows workspace types and finds cycles.";
    const NEEDS_INDEX: bool = true;

    type Args = crate::xref::DependenciesArgs;
    type Output = crate::xref::DependenciesResult;

    fn call(ws: &Workspace, args: Self::Args) -> Result<Self::Output, ToolError> {
        ws.analyze_type_dependencies(&args)
    }
}
