//! `analyze_type_dependencies`: what a type depends on, with forbidden packages and cycles.

use crate::ToolError;
use crate::registry::Tool;
use crate::require_java;
use crate::xref::{self, DependenciesResult};
use crate::host::Host;

pub(crate) struct AnalyzeTypeDependencies;

impl Tool for AnalyzeTypeDependencies {
    const NAME: &'static str = "analyze_type_dependencies";
    const TITLE: &'static str = "Analyze type dependencies";
    const DESCRIPTION: &'static str = "What does this type depend on? The types it uses, by package and origin (workspace, jdk, library); `excludedPackages` flags forbidden uses; `transitive` follows workspace types and finds cycles.";
    const NEEDS_INDEX: bool = true;

    type Args = crate::xref::DependenciesArgs;
    type Output = crate::xref::DependenciesResult;

    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError> {
        run(ws, &args)
    }

    fn render(output: &Self::Output) -> Option<String> {
        Some(crate::lines::dependencies(output))
    }
}

/// `analyze_type_dependencies`.
pub fn run(ws: &Host, args: &crate::xref::DependenciesArgs) -> Result<DependenciesResult, ToolError> {
    let (w, _) = ws.xref_world();
    let nonempty = |s: &String| (!s.trim().is_empty()).then(|| s.clone());
    let roots: Vec<mji_xref::world::TypeId> = match (nonempty(&args.type_name), nonempty(&args.file_path)) {
        (Some(t), _) => {
            let target = xref::resolve_target(&w, &t)?;
            let id = w
                .workspace_type(&target.keys[0])
                .filter(|_| target.category == mji_xref::Category::Type)
                .ok_or_else(|| ToolError::NoSuchSymbol(format!("{t} is not a workspace type")))?;
            vec![id]
        }
        (None, Some(fp)) => {
            let r = ws.resolve(&fp)?;
            ws.check_file(&r.path, &r.display)?;
            require_java(&r.path, &r.display)?;
            let fi = mji_xref::engine::file_index(&w, &r.path);
            if fi == u32::MAX {
                return Err(ToolError::NotFound(format!(
                    "{} is not indexed (outside the roots or ignored)",
                    r.display
                )));
            }
            let n = w.files[fi as usize]
                .decls()
                .types
                .iter()
                .enumerate()
                .filter(|(_, t)| t.outer.is_none())
                .map(|(i, _)| i)
                .collect::<Vec<_>>();
            if n.is_empty() {
                return Err(ToolError::NotFound(format!("{} declares no type", r.display)));
            }
            n.into_iter().map(|i| w.type_in_file(fi, i as u32)).collect()
        }
        (None, None) => return Err(ToolError::InvalidArgument("give type (a qualified name) or filePath".into())),
    };
    xref::analyze(&w, &roots, args, &|p| ws.display_of(p), &|p| ws.xref().refs_of(&w, p))
}
