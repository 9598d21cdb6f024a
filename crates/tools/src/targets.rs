//! How a call names one target of the cross-file tools (`target`, `symbolId`, or a position
//! `filePath` + `line` + `column`), resolved against the world: shared by `find_references`
//! and `refactor_actions`.

use mji_xref::world::World;

use crate::ToolError;
use crate::host::Host;
use crate::xref;

/// How a call names one target (the fields `find_references` and `refactor_actions` share).
pub(crate) struct TargetSpec<'a> {
    pub target: &'a str,
    pub kind: Option<xref::TargetKind>,
    pub symbol_id: &'a str,
    pub file_path: &'a str,
    pub line: u32,
    pub column: u32,
}

/// The one target a call names: `target`, `symbolId`, or `filePath` + `line` (+ `column`).
pub(crate) fn target_of(ws: &Host, w: &World, spec: &TargetSpec) -> Result<xref::Target, ToolError> {
    let nonempty = |s: &str| (!s.trim().is_empty()).then(|| s.to_owned());
    match (nonempty(spec.target), nonempty(spec.symbol_id), nonempty(spec.file_path)) {
        (Some(t), _, _) => Ok(xref::resolve_target_as(w, &t, spec.kind.map(Into::into))?),
        (None, Some(id), _) => {
            Ok(xref::resolve_target_as(w, &xref::target_of_symbol_id(&id)?, xref::kind_of_symbol_id(&id))?)
        }
        (None, None, Some(fp)) => {
            if spec.line == 0 {
                return Err(ToolError::InvalidArgument("filePath needs line (and optionally column)".into()));
            }
            let r = ws.resolve(&fp)?;
            ws.check_file(&r.path, &r.display)?;
            crate::require_source(&r.path, &r.display)?;
            Ok(xref::target_at(ws.xref(), w, &r.path, spec.line, (spec.column > 0).then_some(spec.column))?)
        }
        _ => Err(ToolError::InvalidArgument("give the target as target, symbolId, or filePath+line(+column)".into())),
    }
}

/// One entry of `targets`: a name as `target` takes it, or a position `FILE:LINE[:COLUMN]`
/// resolved as `filePath` + `line` (+ `column`) are, so a count agrees with the full answer.
pub(crate) fn target_of_spec(ws: &Host, w: &World, spec: &str) -> Result<xref::Target, ToolError> {
    match xref::position_of(spec) {
        Some((file, line, column)) => target_of(
            ws,
            w,
            &TargetSpec { target: "", kind: None, symbol_id: "", file_path: &file, line, column: column.unwrap_or(0) },
        ),
        None => Ok(xref::resolve_target(w, spec)?),
    }
}
