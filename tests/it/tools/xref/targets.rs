//! Targets as a user names them on real-world shapes (Spring's BeanFactory, a generic
//! repository): overriders must override the same signature, a member inherited through a
//! subtype is a target, and a missing member is "not found", never "file not found".

use crate::common;

use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::tool::find_references::{FindReferencesArgs, FindReferencesResult};

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

fn setup() -> (tempfile::TempDir, Host) {
    common::indexed("", FILES)
}

fn find(ws: &Host, target: &str, overriders: bool) -> FindReferencesResult {
    mcp_java_index::tools::tool::find_references::run(
        ws,
        &FindReferencesArgs { target: target.into(), include_overriders: overriders, limit: 100, ..Default::default() },
    )
    .unwrap_or_else(|e| panic!("{target}: {e}"))
}

/// The error `find_references` answers `target` with.
fn refused(ws: &Host, target: &str) -> String {
    mcp_java_index::tools::tool::find_references::run(
        ws,
        &FindReferencesArgs { target: target.into(), ..Default::default() },
    )
    .expect_err(target)
    .to_string()
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
    let e = mcp_java_index::tools::tool::find_references::run(
        &ws,
        &FindReferencesArgs { target: "p.Ctx#getBean(int)".into(), ..Default::default() },
    )
    .expect_err("no such overload");
    let text = e.to_string();
    assert!(text.starts_with("not found: "), "{text}");
    assert!(text.contains("getBean(java.lang.String)") && text.contains("getBean(java.lang.Class)"), "{text}");
    let e = mcp_java_index::tools::tool::find_references::run(
        &ws,
        &FindReferencesArgs { target: "p.Ctx#nothing".into(), ..Default::default() },
    )
    .expect_err("no such member");
    assert!(e.to_string().starts_with("not found: ") && !e.to_string().contains("file"), "{e}");
}

/// javac counts a type's references to its own nested types; so does analyze_type_dependencies,
/// marked `nested` (and left out of the transitive closure and of violations).
#[test]
fn a_type_s_own_nested_types_are_dependencies_marked_nested() {
    use mcp_java_index::tools::tool::analyze_type_dependencies::DependenciesArgs;
    let (_dir, ws) = setup();
    let r = mcp_java_index::tools::tool::analyze_type_dependencies::run(
        &ws,
        &DependenciesArgs {
            type_name: "p.Functions".into(),
            excluded_packages: vec!["p".into()],
            transitive: true,
            limit: 100,
            ..Default::default()
        },
    )
    .expect("deps");
    let nested = r.dependencies.iter().find(|d| d.fqn == "p.Functions.FailableConsumer").expect("the nested type");
    assert!(nested.nested && !nested.violation, "{nested:?}");
    // The first use's line; every use's lines only with `includeUses`.
    assert_eq!((nested.first_line, nested.lines.len()), (4, 0), "{nested:?}");
    let used = r.dependencies.iter().find(|d| d.fqn == "p.Use").expect("a plain dependency");
    assert!(!used.nested && used.violation, "{used:?}");
    let t = r.transitive.expect("transitive");
    assert!(!t.types.iter().any(|x| x.fqn.starts_with("p.Functions.")), "{:?}", t.types);
    let args = DependenciesArgs { type_name: "p.Functions".into(), include_uses: true, ..Default::default() };
    let r = mcp_java_index::tools::tool::analyze_type_dependencies::run(&ws, &args).expect("deps");
    let nested = r.dependencies.iter().find(|d| d.fqn == "p.Functions.FailableConsumer").expect("the nested type");
    assert_eq!(nested.lines, vec![4]);
}

/// A name that is both a field and a method is not silently one of them: the answer names both
/// candidates and how to pick one, and each way of picking answers for that declaration only.
#[test]
fn a_name_of_both_a_field_and_a_method_is_ambiguous_and_says_how_to_pick() {
    let (_dir, ws) = setup();
    let e = mcp_java_index::tools::tool::find_references::run(
        &ws,
        &FindReferencesArgs { target: "p.Line#above".into(), limit: 100, ..Default::default() },
    )
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
        mcp_java_index::tools::tool::find_references::run(&ws, &args).unwrap_or_else(|e| panic!("{k}: {e}"))
    };
    assert_eq!(lines(&by_kind("field")), [(4, "read".to_owned())]);
    assert_eq!(lines(&by_kind("method")), [(5, "call".to_owned())]);
    assert_eq!(lines(&find(&ws, "p.Line#above(int)", false)), [(5, "call".to_owned())]);
}

/// A position with no name says so and what is nearest instead (a position to ask next); a
/// line past the end gives the file's lines.
#[test]
fn a_bad_position_is_named_with_what_is_nearest() {
    let (_d, ws) = setup();
    let at = |line: u32, column: u32| {
        mcp_java_index::tools::tool::find_references::run(
            &ws,
            &FindReferencesArgs { file_path: "p/Use.java".into(), line, column, ..Default::default() },
        )
        .expect_err("no name there")
        .to_string()
    };
    let e = at(4, 1);
    assert!(e.contains("nothing to resolve at line 4, column 1"), "{e}");
    assert!(e.contains("nearest names: line 4 column 11: p.Ctx#getBean(java.lang.String)"), "{e}");
    let e = at(99, 0);
    assert!(e.contains("line 99 is outside the file (1..11)"), "{e}");
}

/// A line without a column that uses several names (`return b(a());`) names none: the error
/// lists each with its column, and the column picks one; a line with one name needs none.
#[test]
fn a_line_using_several_names_needs_a_column() {
    let two = "package q;\nclass Two {\n    int a() { return 1; }\n    int b(int x) { return x; }\n    int c() {\n        return b(a());\n    }\n    int d() {\n        return a();\n    }\n}\n";
    let (_d, ws) = common::indexed("", &[("q/Two.java", two)]);
    let at = |line: u32, column: u32| {
        mcp_java_index::tools::tool::find_references::run(
            &ws,
            &FindReferencesArgs { file_path: "q/Two.java".into(), line, column, ..Default::default() },
        )
        .map(|r| r.target)
        .map_err(|e| e.to_string())
    };
    let e = at(6, 0).expect_err("two names");
    assert!(e.contains("line 6 uses 2 names (column 16: q.Two#b(int); column 18: q.Two#a())"), "{e}");
    assert!(e.contains("give the column"), "{e}");
    assert_eq!(at(6, 18).as_deref(), Ok("q.Two#a()"));
    assert_eq!(at(6, 16).as_deref(), Ok("q.Two#b(int)"));
    assert_eq!(at(9, 0).as_deref(), Ok("q.Two#a()"));
    // A declaration on the line is what the line names, whatever it uses.
    assert_eq!(at(4, 0).as_deref(), Ok("q.Two#b(int)"));
}

/// A target that nothing declares — its type in no source, library or the JDK — and that
/// nothing references is an error naming the nearest declared names, never `total: 0` (an
/// agent would conclude the code is dead); a misspelt member or type says the same. The
/// counting form (`targets`) says it per target.
#[test]
fn a_target_nobody_declares_is_an_error_with_the_nearest_names() {
    let (_d, ws) = setup();
    let err = |target: &str| refused(&ws, target);
    let e = err("q.Line#below()");
    assert!(e.contains("no declaration of q.Line is known") && e.contains("did you mean p.Line#below?"), "{e}");
    let e = err("q.Line#below");
    assert!(e.contains("no declaration of q.Line") && e.contains("p.Line#below"), "{e}");
    let e = err("p.Line#belo");
    assert!(e.contains("did you mean p.Line#below()?"), "{e}");
    let e = err("Lin#below");
    assert!(e.contains("did you mean p.Line?"), "{e}");
    let counted = mcp_java_index::tools::tool::find_references::run(
        &ws,
        &FindReferencesArgs {
            targets: vec!["q.Line#below()".into(), "p.Line#below()".into()],
            count_only: true,
            ..Default::default()
        },
    )
    .expect("counts");
    let counts = counted.counts.expect("per target");
    assert!(counts[0].error.as_deref().is_some_and(|e| e.contains("did you mean p.Line#below")), "{counts:?}");
    assert!(counts[1].error.is_none(), "{counts:?}");
}

/// A member written with a dot, as people write it (`Line.below`, `p.Line.above(int)`), is that
/// member, and a nested type stays a type; a dotted name nothing declares is an error, never "0
/// references" to a type guessed from its spelling (`refs HashMap.get` once answered that).
#[test]
fn a_member_written_with_a_dot_is_the_member_and_an_undeclared_name_is_an_error() {
    let (_d, ws) = setup();

    for (dotted, hashed) in [
        ("Line.below", "p.Line#below"),
        ("p.Line.above(int)", "p.Line#above(int)"),
        ("Functions.FailableConsumer", "p.Functions.FailableConsumer"),
        ("Functions.FailableConsumer.accept", "p.Functions.FailableConsumer#accept"),
    ] {
        let (a, b) = (find(&ws, dotted, false), find(&ws, hashed, false));
        assert_eq!((&a.target, a.page.total, use_lines(&a)), (&b.target, b.page.total, use_lines(&b)), "{dotted}");
    }
    assert_eq!(find(&ws, "Line.below", false).target_kind, "method");
    assert_eq!(find(&ws, "Functions.FailableConsumer", false).target_kind, "type");
    let e = refused(&ws, "Line.above");
    assert!(e.contains("ambiguous target p.Line#above"), "{e}");
    let e = refused(&ws, "Line.nope");
    assert!(e.contains("p.Line declares no method or field named nope"), "{e}");
    for undeclared in ["Foo.bar", "p.Line.Nope", "Functions.Nope"] {
        let e = refused(&ws, undeclared);
        assert!(e.contains("no declaration of") || e.contains("declares no"), "{undeclared}: {e}");
    }
    // A file's path alone says to give a line of it.
    for file in ["p/Line.java", "Line.java"] {
        let e = refused(&ws, file);
        assert!(e.contains("is a file: give a line of it"), "{file}: {e}");
    }
    // A target without its type or its member says how to write one.
    for half in ["#below", "p.Line#", "p.Line#(int)"] {
        let e = refused(&ws, half);
        assert!(e.contains("write Type#member"), "{half}: {e}");
    }
    // The call hierarchy of a dotted name nothing declares: not "is a type".
    let mut m = serde_json::Map::new();
    m.insert("target".into(), "Foo.bar".into());
    let e = mcp_java_index::tools::registry::dispatch(&ws, "call_hierarchy", m).expect_err("undeclared");
    assert!(e.contains("no declaration of Foo.bar is known") && !e.contains("is a type"), "{e}");
}

/// A member of a library the index does not see (its jar is on no classpath) that workspace
/// files import from: the error names the library's package, a file importing it and how to
/// add it, instead of answering no references.
#[test]
fn a_member_of_a_library_not_on_the_classpath_says_which_and_how_to_add_it() {
    let (_d, ws) = common::indexed(
        "",
        &[(
            "t/MockTest.java",
            "package t;\nimport org.easymock.EasyMock;\nclass MockTest {\n    Runnable r = EasyMock.createMock(Runnable.class);\n}\n",
        )],
    );
    let e = mcp_java_index::tools::tool::find_references::run(
        &ws,
        &FindReferencesArgs { target: "org.easymock.EasyMock#createMock".into(), ..Default::default() },
    )
    .expect_err("nothing declares it")
    .to_string();
    assert!(e.contains("no declaration of org.easymock.EasyMock is known"), "{e}");
    assert!(e.contains("1 workspace file imports from org.easymock (e.g. MockTest.java)"), "{e}");
    assert!(e.contains("pom.xml") && e.contains("`classpath`"), "{e}");
}

/// A count by position (`targets: ["FILE:LINE:COLUMN"]`, the CLI's `refs FILE:LINE --count-only`)
/// resolves the position as `filePath` + `line` does: the count is the full answer's total
/// (it once read the position as a type name and answered 0).
#[test]
fn a_count_by_position_agrees_with_the_full_answer() {
    let (_d, ws) = setup();
    for (pos, line, column) in [("p/Line.java:4", 4, 0), ("p/Use.java:4:11", 4, 11), ("p/Line.java:3:9", 3, 9)] {
        let full = mcp_java_index::tools::tool::find_references::run(
            &ws,
            &FindReferencesArgs {
                file_path: pos.split(':').next().unwrap_or_default().into(),
                line,
                column,
                limit: 100,
                ..Default::default()
            },
        )
        .unwrap_or_else(|e| panic!("{pos}: {e}"));
        assert!(full.page.total > 0, "{pos}: {full:?}");
        let counted = mcp_java_index::tools::tool::find_references::run(
            &ws,
            &FindReferencesArgs { targets: vec![pos.into()], count_only: true, ..Default::default() },
        )
        .unwrap_or_else(|e| panic!("{pos}: {e}"));
        let c = &counted.counts.expect("per target")[0];
        assert_eq!((c.total, c.error.clone()), (full.page.total, None), "{pos}");
        assert_eq!(c.target, full.target, "{pos}");
    }
}

/// `show_definition` with a symbol and a position: the symbol must be at that position. It once
/// answered the other method a line declares, marked exact; now it is an error that names what
/// is there and what to ask instead, and the right position still resolves exactly.
#[test]
fn a_symbol_given_with_a_position_must_be_there() {
    use mcp_java_index::tools::tool::show_definition::ShowDefinitionArgs;
    let (_d, ws) = setup();
    let def = |symbol: &str, line: u32, column: u32| {
        let args: ShowDefinitionArgs = serde_json::from_value(serde_json::json!({
            "symbol": symbol, "filePath": "p/Line.java", "line": line, "column": column
        }))
        .expect("args");
        mcp_java_index::tools::tool::show_definition::run(&ws, &args).map_err(|e| e.to_string())
    };
    // Line 5 declares below() and calls above(1): `above` is there; `getId` is not.
    let e = def("getId", 5, 0).expect_err("not on the line");
    assert!(e.contains("`getId` does not occur on line 5 of p/Line.java") && e.contains("int below()"), "{e}");
    let e = def("above", 5, 9).expect_err("another name at the column");
    assert!(e.contains("`above` is not at line 5, column 9") && e.contains("`below` is there"), "{e}");
    let r = def("above", 5, 0).expect("on the line");
    assert_eq!((r.resolution.as_str(), r.definitions[0].qualified_name.as_str()), ("exact", "p.Line#above(int)"));
    let r = def("below", 5, 9).expect("at the column");
    assert_eq!(r.definitions[0].qualified_name, "p.Line#below()");
}

/// A bare file name that one indexed file has is that file (it was "file not found"); one that
/// several have is an error listing them.
#[test]
fn a_bare_file_name_is_the_one_file_of_that_name() {
    let (_d, ws) = setup();
    let by_path = |file: &str| {
        mcp_java_index::tools::tool::find_references::run(
            &ws,
            &FindReferencesArgs { file_path: file.into(), line: 5, limit: 100, ..Default::default() },
        )
    };
    let bare = by_path("Line.java").expect("the one Line.java");
    let full = by_path("p/Line.java").expect("by its path");
    assert_eq!((bare.target.clone(), bare.page.total), (full.target.clone(), full.page.total));
    let (_d2, two) = common::indexed(
        "",
        &[("a/X.java", "package a;\npublic class X {}\n"), ("b/X.java", "package b;\npublic class X {}\n")],
    );
    let e = mcp_java_index::tools::tool::find_references::run(
        &two,
        &FindReferencesArgs { file_path: "X.java".into(), line: 2, ..Default::default() },
    )
    .expect_err("two files have that name")
    .to_string();
    assert!(e.contains("X.java names 2 files") && e.contains("a/X.java, b/X.java"), "{e}");
    let e = mcp_java_index::tools::tool::find_references::run(
        &two,
        &FindReferencesArgs { file_path: "Y.java".into(), line: 2, ..Default::default() },
    )
    .expect_err("none has it")
    .to_string();
    assert!(e.contains("not found") && e.contains("Y.java"), "{e}");
}

/// The calls bound to a method's overriders, when left out, are counted and the answer says how
/// to include them: an interface method once answered only its own few callers, silent about
/// the many calls bound to its implementations.
#[test]
fn calls_through_overriders_left_out_are_counted_and_said() {
    let (_d, ws) = setup();
    let without = find(&ws, "p.BeanFactory#getBean(Class)", false);
    assert_eq!(use_lines(&without), vec![6]);
    assert_eq!(without.overrider_references, 1, "{without:?}");
    assert!(without.hint.contains("includeOverriders: true"), "{}", without.hint);
    let with = find(&ws, "p.BeanFactory#getBean(Class)", true);
    assert_eq!((use_lines(&with), with.overrider_references, with.hint.as_str()), (vec![5, 6], 0, ""));
    // A method nothing overrides says nothing more.
    let plain = find(&ws, "p.Line#below()", false);
    assert_eq!((plain.overrider_references, plain.hint.as_str()), (0, ""));
}

/// At an exact position `show_definition` answers the binding or says why there is none: a
/// method of a receiver whose type comes from an absent jar is no search by name, which
/// answered `count` fields of unrelated classes, "ranked" (issue 53 item 7).
#[test]
fn a_position_the_engine_cannot_resolve_is_an_error_not_a_name_search() {
    let files: &[(&str, &str)] = &[
        (
            "Lib.java",
            "package q;\n\nimport org.missing.Thing;\n\npublic class Lib {\n    long size(Thing t) {\n        return t.sources().count();\n    }\n}\n",
        ),
        ("Other.java", "package q;\n\npublic class Other {\n    public long count;\n}\n"),
        ("Graph.java", "package q;\n\npublic class Graph {\n    int count;\n}\n"),
    ];
    let (_d, ws) = common::indexed("q", files);
    use mcp_java_index::tools::tool::show_definition::{ShowDefinitionArgs, run};
    let at = |line: u32, column: u32| ShowDefinitionArgs {
        symbol: "count".into(),
        file_path: "q/Lib.java".into(),
        line,
        column,
        limit: 10,
        ..Default::default()
    };
    for (line, column) in [(7, 28), (7, 0)] {
        let e = run(&ws, &at(line, column)).map(|r| format!("{:?}", r.definitions)).expect_err("not resolved");
        let e = e.to_string();
        assert!(e.contains("nothing to resolve at line 7, column 28: `count` there is not bound"), "{e}");
        assert!(e.contains("a member of a receiver whose type is not known"), "{e}");
    }
    // By name, without a position, the fields are what there is.
    let r = run(&ws, &ShowDefinitionArgs { symbol: "count".into(), limit: 10, ..Default::default() }).expect("name");
    assert_eq!((r.resolution.as_str(), r.definitions.len()), ("ranked", 2));
}
