//! `move`: a top-level type to another package ([`move_type`]), a static method or field to
//! another class ([`move_member`]), a static nested type to another class ([`move_nested`]);
//! what would break is said, never written (package-private and protected access checked on
//! the references). The call's target is resolved by the caller; the syntax halves are the
//! submodules, the binder half here.

pub mod move_member;
pub mod move_nested;
pub mod move_type;

use std::path::Path;
use std::sync::Arc;

use mji_xref::Category;
use mji_xref::target::Target;
use mji_xref::world::World;

use crate::actions::ActionError;
use crate::ctx::{Ctx, Outcome};

/// The most files a conflict about unbound references names.
const MAX_LISTED: usize = 10;

/// `move` of `target` to `destination`: a package for a top-level type, a class (qualified)
/// for a static method, field or nested type.
pub fn run(ctx: &dyn Ctx, target: &Target, destination: &str) -> Result<Outcome, ActionError> {
    let (w, scope) = ctx.world();
    let bad = |why: String| ActionError::Refused(format!("{} not moved: {why}", target.label));
    if matches!(target.category, Category::Method | Category::Field) {
        return move_static(ctx, target, destination, move_member::move_member);
    }
    if target.category == Category::Type
        && target.keys.len() == 1
        && w.workspace_type(&target.keys[0]).is_some_and(|id| w.decl(id).outer.is_some())
    {
        return move_static(ctx, target, destination, move_nested::move_nested);
    }
    if target.category != Category::Type || target.keys.len() != 1 {
        return Err(bad("move takes a type or a static method or field".into()));
    }
    let dest = destination.trim();
    if dest.is_empty() {
        return Err(bad("give `destination`: the package to move it to".into()));
    }
    let mut m = move_type::move_type(ctx, &w, &scope, &target.keys[0], dest).map_err(bad)?;
    let conflicts: Vec<String> = ctx.unbound_conflict(m.unbound, MAX_LISTED).into_iter().collect();
    // Spring XML's `<bean class="…">` and the like name it by its qualified name.
    let simple = target.keys[0].rsplit('.').next().unwrap_or_default();
    let moved = if dest.is_empty() { simple.to_owned() } else { format!("{dest}.{simple}") };
    m.warnings.extend(crate::actions::rename::requalify_in_text(ctx, target, &target.keys[0], &moved, &mut m.edit)?);
    let summary = format!("move {} to package {dest}: {} other files updated", target.keys[0], m.files);
    Ok(Outcome { edit: m.edit, summary, conflicts, warnings: m.warnings, ..Outcome::default() })
}

/// How a static move is planned: [`move_member::move_member`] for a method or field,
/// [`move_nested::move_nested`] for a nested type.
type Plan = fn(&dyn Ctx, &World, &[Arc<Path>], &str, &str) -> Result<move_member::MemberMove, String>;

/// `move` of `target` (a static method or field, or a static nested type) to the class
/// `destination` names, planned by `plan`.
fn move_static(ctx: &dyn Ctx, target: &Target, destination: &str, plan: Plan) -> Result<Outcome, ActionError> {
    let bad = |why: String| ActionError::Refused(format!("{} not moved: {why}", target.label));
    if target.keys.len() != 1 {
        return Err(bad(format!("it names {} members; name one (with its parameter types)", target.keys.len())));
    }
    let dest = destination.trim();
    if dest.is_empty() {
        return Err(bad("give `destination`: the qualified name of the class to move it to".into()));
    }
    let (w, scope) = ctx.world();
    let m = plan(ctx, &w, &scope, &target.keys[0], dest).map_err(bad)?;
    let conflicts: Vec<String> = ctx.unbound_conflict(m.unbound, 10).into_iter().collect();
    let summary =
        format!("move {} to {dest}: {} use{} updated", target.keys[0], m.uses, if m.uses == 1 { "" } else { "s" });
    Ok(Outcome { edit: m.edit, summary, conflicts, ..Outcome::default() })
}

#[cfg(test)]
mod cases {
    use super::run;
    use crate::tests::{check_workspace, check_workspace_refused};
    use expect_test::expect;
    use mji_xref::target::resolve_target;

    const UTIL: &str =
        "package p;\n\npublic class Util {\n    public static int twice(int x) {\n        return 2 * x;\n    }\n}\n";
    const MATHS: &str = "package q;\n\npublic class Maths {\n}\n";
    const USER: &str = "package p;\n\nclass User {\n    int f() {\n        return Util.twice(3);\n    }\n}\n";

    #[test]
    fn a_static_method_moves_to_another_class_with_its_calls() {
        check_workspace(
            &[("p/Util.java", UTIL), ("q/Maths.java", MATHS), ("p/User.java", USER)],
            |ctx, w| run(ctx, &resolve_target(w, "p.Util#twice(int)").expect("target"), "q.Maths"),
            expect![[r#"
                --- p/User.java
                package p;

                import q.Maths;

                class User {
                    int f() {
                        return Maths.twice(3);
                    }
                }
                --- p/Util.java
                package p;

                public class Util {
                }
                --- q/Maths.java
                package q;

                public class Maths {
                    public static int twice(int x) {
                        return 2 * x;
                    }
                }
            "#]],
        );
    }

    #[test]
    fn a_top_level_type_moves_to_another_package_with_its_file() {
        check_workspace(
            &[("p/Util.java", UTIL), ("q/Maths.java", MATHS), ("p/User.java", USER)],
            |ctx, w| run(ctx, &resolve_target(w, "p.Util").expect("target"), "q"),
            expect![[r#"
                --- p/User.java
                package p;

                import q.Util;

                class User {
                    int f() {
                        return Util.twice(3);
                    }
                }
                --- p/Util.java -> q/Util.java
                package q;

                public class Util {
                    public static int twice(int x) {
                        return 2 * x;
                    }
                }
            "#]],
        );
    }

    #[test]
    fn a_move_without_a_destination_is_refused() {
        check_workspace_refused(
            &[("p/Util.java", UTIL)],
            |ctx, w| run(ctx, &resolve_target(w, "p.Util#twice(int)").expect("target"), " "),
            "p.Util#twice(int) not moved: give `destination`: the qualified name of the class to move it to",
        );
    }

    #[test]
    fn a_private_member_used_by_the_moved_one_is_said() {
        let util = "package p;\n\npublic class Util {\n    private static int base = 1;\n    public static int next(int x) {\n        return x + base;\n    }\n}\n";
        check_workspace_refused(
            &[("p/Util.java", util), ("q/Maths.java", MATHS)],
            |ctx, w| run(ctx, &resolve_target(w, "p.Util#next(int)").expect("target"), "q.Maths"),
            "p.Util#next(int) not moved: access would break (1): it uses `p.Util#base`, private in `p.Util`",
        );
    }

    #[test]
    fn a_static_nested_type_moves_to_another_class() {
        let outer = "package p;\n\npublic class Outer {\n    public static class Point {\n        int x;\n    }\n\n    Point origin() {\n        return new Point();\n    }\n}\n";
        check_workspace(
            &[("p/Outer.java", outer), ("q/Maths.java", MATHS)],
            |ctx, w| run(ctx, &resolve_target(w, "p.Outer.Point").expect("target"), "q.Maths"),
            expect![[r#"
                --- p/Outer.java
                package p;

                import q.Maths.Point;

                public class Outer {
                    Point origin() {
                        return new Point();
                    }
                }
                --- q/Maths.java
                package q;

                public class Maths {
                    public static class Point {
                        int x;
                    }
                }
            "#]],
        );
    }
}
