//! `analyze_type_dependencies`: what a type depends on, with forbidden packages and cycles.

use crate::ToolError;
use crate::registry::Tool;
use crate::workspace::Workspace;

pub(crate) struct AnalyzeTypeDependencies;

impl Tool for AnalyzeTypeDependencies {
    const NAME: &'static str = "analyze_type_dependencies";
    const TITLE: &'static str = "Analyze type dependencies";
    const DESCRIPTION: &'static str = "What does this type depend on? Every type referenced anywhere in a type's declaration (`type` qualified name, or `filePath` for its top-level types), resolved to qualified names with origin (workspace, jdk, library, unresolved), reference count and lines, grouped by package. `excludedPackages` patterns (`java.sql`, `com.foo.internal.*`) flag forbidden dependencies in `violations`. `transitive: true` follows workspace dependencies up to maxDepth and reports dependency cycles. Example: {\"type\": \"com.foo.OrderService\", \"excludedPackages\": [\"com.foo.legacy.*\"], \"transitive\": true}";
    const NEEDS_INDEX: bool = true;

    type Args = crate::xref::DependenciesArgs;
    type Output = crate::xref::DependenciesResult;

    fn call(ws: &Workspace, args: Self::Args) -> Result<Self::Output, ToolError> {
        ws.analyze_type_dependencies(&args)
    }
}
