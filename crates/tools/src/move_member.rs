//! `move`'s glue for a static method or field, or a static nested type: what the call names,
//! its destination class (`destination`), planned by [`mji_edit::move_member`] and
//! [`mji_edit::move_nested`].

use std::path::Path;
use std::sync::Arc;

use mji_edit::ctx::Outcome;

use crate::ToolError;
use crate::edit::RefactorArgs;
use crate::host::Host;
use crate::xref::Target;

/// How a move is planned: [`mji_edit::move_member::move_member`] for a method or field,
/// [`mji_edit::move_nested::move_nested`] for a nested type.
pub(crate) type Plan = fn(
    &dyn mji_edit::ctx::Ctx,
    &mji_xref::world::World,
    &[Arc<Path>],
    &str,
    &str,
) -> Result<mji_edit::move_member::MemberMove, String>;

/// `move` of `target` (a static method or field, or a static nested type) to the class
/// `destination` names, planned by `plan`.
pub(crate) fn move_static(ws: &Host, args: &RefactorArgs, target: &Target, plan: Plan) -> Result<Outcome, ToolError> {
    let bad = |why: String| ToolError::InvalidArgument(format!("{} not moved: {why}", target.label));
    if target.keys.len() != 1 {
        return Err(bad(format!("it names {} members; name one (with its parameter types)", target.keys.len())));
    }
    let dest = args.destination.trim();
    if dest.is_empty() {
        return Err(bad("give `destination`: the qualified name of the class to move it to".into()));
    }
    let (w, files) = ws.xref_world();
    let scope: Vec<Arc<Path>> = files.iter().map(|(p, _)| p.clone()).collect();
    let m = plan(ws, &w, &scope, &target.keys[0], dest).map_err(bad)?;
    let conflicts: Vec<String> = ws.unbound_conflict(m.unbound, 10).into_iter().collect();
    let summary =
        format!("move {} to {dest}: {} use{} updated", target.keys[0], m.uses, if m.uses == 1 { "" } else { "s" });
    Ok(Outcome { edit: m.edit, summary, conflicts, ..Outcome::default() })
}
