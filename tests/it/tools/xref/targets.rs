//! Targets as a user names them on real-world shapes (Spring's BeanFactory, a generic
//! repository): overriders must override the same signature, a member inherited through a
//! subtype is a target, and a missing member is "not found", never "file not found".

use crate::common;

use mcp_java_index::tools::workspace::Workspace;
use mcp_java_index::tools::xref::{FindReferencesArgs, FindReferencesResult};

const FILES: &[(&str, &str)] = &[
    (
        "p/Functions.java",
        "package p;\npublic class Functions {\n    public interface FailableConsumer<T> { void accept(T t); }\n    static void run(FailableConsumer<String> c, Use u) {}\n}\n",
    ),
    (
        "p/BeanFactory.java",
        "package p;\npublic interface BeanFactory {\n    Object getBean(String name);\n    <T> T getBean(Class<T> type);\n}\n",
    ),
    (
        "p/ApplicationContext.java",
        "package p;\npublic interface ApplicationContext extends BeanFactory {\n    String getId();\n}\n",
    ),
    (
        "p/Ctx.java",
        "package p;\npublic class Ctx implements ApplicationContext {\n    public Object getBean(String name) { return null; }\n    public <T> T getBean(Class<T> type) { return null; }\n    public String getId() { return \"x\"; }\n}\n",
    ),
    ("p/Repo.java", "package p;\npublic interface Repo<T> {\n    void save(T t);\n}\n"),
    (
        "p/UserRepo.java",
        "package p;\npublic class UserRepo implements Repo<String> {\n    public void save(String u) {}\n    public void save(Integer other) {}\n}\n",
    ),
    (
        "p/Line.java",
        "package p;\npublic class Line {\n    int above;\n    int above(int n) { return above + n; }\n    int below() { return above(1); }\n}\n",
    ),
    (
        "p/Use.java",
        "package p;\nclass Use {\n    void run(Ctx c, ApplicationContext a, UserRepo r) {\n        c.getBean(\"a\");\n        c.getBean(Use.class);\n        a.getBean(Use.class);\n        a.getBean(\"b\");\n        r.save(\"u\");\n        r.save(1);\n    }\n}\n",
    ),
];

fn setup() -> (tempfile::TempDir, Workspace) {
    common::indexed("", FILES)
}

fn find(ws: &Workspace, target: &str, overriders: bool) -> FindReferencesResult {
    ws.find_references(&FindReferencesArgs {
        target: target.into(),
        include_overriders: overriders,
        limit: 100,
        ..Default::default()
    })
    .unwrap_or_else(|e| panic!("{target}: {e}"))
}

/// The lines of `Use.java` the answer lists.
fn use_lines(r: &FindReferencesResult) -> Vec<u32> {
    let mut v: Vec<u32> = r
        .files
        .iter()
        .filter(|f| f.file.ends_with("Use.java"))
        .flat_map(|f| f.references.iter().map(|x| x.line))
        .collect();
    v.sort();
    v
}

#[test]
fn overriders_override_the_same_signature_not_another_overload() {
    let (_d, ws) = setup();
    // c.getBean(Use.class) binds to Ctx's override; a.getBean(Use.class) to the interface.
    // c.getBean("a") calls another overload and must not be listed.
    assert_eq!(use_lines(&find(&ws, "p.BeanFactory#getBean(Class)", true)), vec![5, 6]);
    assert_eq!(use_lines(&find(&ws, "p.BeanFactory#getBean(Class)", false)), vec![6]);
    // A generic supertype: save(String) overrides Repo<String>#save(T); save(Integer) does not.
    assert_eq!(use_lines(&find(&ws, "p.Repo#save(Object)", true)), vec![8]);
}

#[test]
fn a_member_inherited_through_a_subtype_is_a_target_and_says_where_it_is_declared() {
    let (_d, ws) = setup();
    let r = find(&ws, "p.ApplicationContext#getBean(Class)", false);
    assert_eq!(use_lines(&r), vec![6]);
    assert!(r.target.contains("p.BeanFactory#getBean(java.lang.Class)"), "{}", r.target);
    assert!(r.target.contains("inherited by p.ApplicationContext from p.BeanFactory"), "{}", r.target);
}

#[test]
fn a_missing_member_is_not_found_and_the_error_lists_what_exists() {
    let (_d, ws) = setup();
    let e = ws
        .find_references(&FindReferencesArgs { target: "p.Ctx#getBean(int)".into(), ..Default::default() })
        .expect_err("no such overload");
    let text = e.to_string();
    assert!(text.starts_with("not found: "), "{text}");
    assert!(text.contains("getBean(java.lang.String)") && text.contains("getBean(java.lang.Class)"), "{text}");
    let e = ws
        .find_references(&FindReferencesArgs { target: "p.Ctx#nothing".into(), ..Default::default() })
        .expect_err("no such member");
    assert!(e.to_string().starts_with("not found: ") && !e.to_string().contains("file"), "{e}");
}

/// javac counts a type's references to its own nested types; so does analyze_type_dependencies,
/// marked `nested` (and left out of the transitive closure and of violations).
#[test]
fn a_type_s_own_nested_types_are_dependencies_marked_nested() {
    use mcp_java_index::tools::xref::DependenciesArgs;
    let (_dir, ws) = setup();
    let r = ws
        .analyze_type_dependencies(&DependenciesArgs {
            type_name: "p.Functions".into(),
            excluded_packages: vec!["p".into()],
            transitive: true,
            limit: 100,
            ..Default::default()
        })
        .expect("deps");
    let nested = r.dependencies.iter().find(|d| d.fqn == "p.Functions.FailableConsumer").expect("the nested type");
    assert!(nested.nested && !nested.violation, "{nested:?}");
    assert_eq!(nested.lines, vec![4]);
    let used = r.dependencies.iter().find(|d| d.fqn == "p.Use").expect("a plain dependency");
    assert!(!used.nested && used.violation, "{used:?}");
    let t = r.transitive.expect("transitive");
    assert!(!t.types.iter().any(|x| x.fqn.starts_with("p.Functions.")), "{:?}", t.types);
}

/// A name that is both a field and a method is not silently one of them: the answer names both
/// candidates and how to pick one, and each way of picking answers for that declaration only.
#[test]
fn a_name_of_both_a_field_and_a_method_is_ambiguous_and_says_how_to_pick() {
    let (_dir, ws) = setup();
    let e = ws
        .find_references(&FindReferencesArgs { target: "p.Line#above".into(), limit: 100, ..Default::default() })
        .expect_err("ambiguous")
        .to_string();
    assert!(e.contains("ambiguous") && e.contains("p.Line#above(int)") && e.contains("targetKind"), "{e}");
    let lines = |r: &FindReferencesResult| -> Vec<(u32, String)> {
        r.files.iter().flat_map(|f| f.references.iter().map(|x| (x.line, x.kind.clone()))).collect()
    };
    let by_kind = |k: &str| {
        let args: FindReferencesArgs = serde_json::from_value(serde_json::json!({
            "target": "p.Line#above", "targetKind": k, "limit": 100
        }))
        .expect("args");
        ws.find_references(&args).unwrap_or_else(|e| panic!("{k}: {e}"))
    };
    assert_eq!(lines(&by_kind("field")), [(4, "field-read".to_owned())]);
    assert_eq!(lines(&by_kind("method")), [(5, "call".to_owned())]);
    assert_eq!(lines(&find(&ws, "p.Line#above(int)", false)), [(5, "call".to_owned())]);
}

/// A position with no name says so and what is nearest instead (a position to ask next); a
/// line past the end gives the file's lines.
#[test]
fn a_bad_position_is_named_with_what_is_nearest() {
    let (_d, ws) = setup();
    let at = |line: u32, column: u32| {
        ws.find_references(&FindReferencesArgs { file_path: "p/Use.java".into(), line, column, ..Default::default() })
            .expect_err("no name there")
            .to_string()
    };
    let e = at(4, 1);
    assert!(e.contains("nothing to resolve at line 4, column 1"), "{e}");
    assert!(e.contains("nearest names: line 4 column 11: p.Ctx#getBean(java.lang.String)"), "{e}");
    let e = at(99, 0);
    assert!(e.contains("line 99 is outside the file (1..11)"), "{e}");
}
