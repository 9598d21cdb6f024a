//! find_references, analyze_type_dependencies and show_definition through the workspace, on a
//! temp copy of the resolution fixtures (tests/fixtures/xref/src).

use crate::common;
use common::copy_dir;

use std::path::PathBuf;

use mcp_java_index::config::{Config, Flags};
use mcp_java_index::tools::ToolError;
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::tool::analyze_type_dependencies::DependenciesArgs;
use mcp_java_index::tools::tool::find_references::{FindReferencesArgs, FindReferencesResult};
use mcp_java_index::tools::tool::show_definition::ShowDefinitionArgs;

fn setup() -> (tempfile::TempDir, Host) {
    let dir = tempfile::tempdir().expect("tempdir");
    copy_dir(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/xref/src"), dir.path());
    let flags = Flags::roots([dir.path()]).set("watch", false).set("cache", false);
    let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    ws.build_index();
    (dir, ws)
}

fn refs(ws: &Host, args: FindReferencesArgs) -> FindReferencesResult {
    mcp_java_index::tools::tool::find_references::run(ws, &FindReferencesArgs { limit: 1000, ..args })
        .expect("find_references")
}

fn flat(r: &FindReferencesResult) -> Vec<(String, u32, u32, String)> {
    r.files
        .iter()
        .flat_map(|f| f.references.iter().map(move |x| (f.file.clone(), x.line, x.column, x.kind.clone())))
        .collect()
}

#[test]
fn overloads_are_told_apart_by_parameter_types_simple_or_qualified() {
    let (_d, ws) = setup();
    let by = |t: &str| flat(&refs(&ws, FindReferencesArgs { target: t.into(), ..Default::default() }));
    let long = by("xref.util.Strings#show(long)");
    assert_eq!(long, vec![("xref/service/PriceCalculator.java".to_string(), 37, 20, "call".to_string())]);
    assert_eq!(by("xref.util.Strings#show(java.lang.String)"), by("xref.util.Strings#show(String)"));
    assert_eq!(by("xref.util.Strings#show(String, Object...)").len(), 1);
    // Without parentheses: every overload.
    let all = refs(&ws, FindReferencesArgs { target: "xref.util.Strings#show".into(), ..Default::default() });
    assert!(all.page.total >= 7, "{all:?}");
}

#[test]
fn a_call_on_an_overriding_subclass_binds_to_the_override_and_overriders_are_optional() {
    let (_d, ws) = setup();
    let base = "xref.service.InMemoryRepository#save(xref.model.Entity)";
    let plain = flat(&refs(&ws, FindReferencesArgs { target: base.into(), ..Default::default() }));
    // products.save(p) is on a ProductRepository, which overrides save: not a reference to the base.
    assert!(!plain.iter().any(|r| r.0.ends_with("InventoryService.java")), "{plain:?}");
    let with = refs(&ws, FindReferencesArgs { target: base.into(), include_overriders: true, ..Default::default() });
    let over: Vec<_> = with
        .files
        .iter()
        .flat_map(|f| f.references.iter().map(move |r| (f, r)))
        .filter(|(_, r)| r.overrider.is_some())
        .collect();
    assert!(over.iter().any(|(f, r)| f.file.ends_with("InventoryService.java") && r.line == 23), "{with:?}");
    assert!(
        over.iter()
            .all(|(_, r)| r.overrider.as_deref() == Some("xref.service.ProductRepository#save(xref.model.Product)"))
    );
}

#[test]
fn targets_by_symbol_id_and_by_position_agree_with_the_qualified_name() {
    let (_d, ws) = setup();
    let by_name =
        flat(&refs(&ws, FindReferencesArgs { target: "xref.model.Money#plus(Money)".into(), ..Default::default() }));
    assert!(!by_name.is_empty());
    let id = "Method#xref.model.Money#plus(Money):Money|start:26|end:29";
    let by_id = flat(&refs(&ws, FindReferencesArgs { symbol_id: id.into(), ..Default::default() }));
    assert_eq!(by_name, by_id);
    // The position of a use, and the position of the declaration.
    let (file, line, col, _) = by_name[0].clone();
    let at_use = flat(&refs(&ws, FindReferencesArgs { file_path: file, line, column: col, ..Default::default() }));
    assert_eq!(by_name, at_use);
    let at_decl = flat(&refs(
        &ws,
        FindReferencesArgs { file_path: "xref/model/Money.java".into(), line: 26, ..Default::default() },
    ));
    assert_eq!(by_name, at_decl);
}

#[test]
fn paging_never_drops_a_reference_and_paths_filter_files() {
    let (_d, ws) = setup();
    let all = refs(&ws, FindReferencesArgs { target: "xref.model.Money".into(), ..Default::default() });
    assert!(all.page.total > 20);
    let mut paged = Vec::new();
    let mut offset = 0;
    loop {
        let page = mcp_java_index::tools::tool::find_references::run(
            &ws,
            &FindReferencesArgs { target: "xref.model.Money".into(), limit: 7, offset, ..Default::default() },
        )
        .expect("page");
        assert_eq!(page.page.total, all.page.total);
        paged.extend(flat(&page));
        match page.page.next_offset {
            Some(n) => {
                assert!(page.page.truncated);
                offset = n as u32;
            }
            None => break,
        }
    }
    assert_eq!(paged, flat(&all));
    let only_model = refs(
        &ws,
        FindReferencesArgs {
            target: "xref.model.Money".into(),
            paths: vec!["xref/model/*".into()],
            ..Default::default()
        },
    );
    assert!(only_model.page.total > 0 && only_model.page.total < all.page.total);
    assert!(only_model.files.iter().all(|f| f.file.starts_with("xref/model/")));
    let with_decl = refs(
        &ws,
        FindReferencesArgs { target: "xref.model.Money".into(), include_declaration: true, ..Default::default() },
    );
    assert_eq!(with_decl.page.total, all.page.total + 1);
    assert_eq!(with_decl.files.iter().flat_map(|f| &f.references).filter(|r| r.kind == "declaration").count(), 1);
}

#[test]
fn many_targets_are_counted_in_one_call_and_a_bad_one_says_why() {
    let (_d, ws) = setup();
    let r = refs(
        &ws,
        FindReferencesArgs {
            // `Money#cents` alone names both the record component and its accessor: ambiguous.
            targets: vec!["xref.model.Money".into(), "xref.model.Money#cents()".into(), "xref.model.Nope".into()],
            count_only: true,
            ..Default::default()
        },
    );
    let counts = r.counts.expect("counts");
    assert!(counts[0].total > 0 && counts[0].error.is_none());
    assert!(counts[1].total > 0, "{:?}", counts[1]);
    assert!(counts[2].error.as_deref().is_some_and(|e| e.contains("xref.model.Nope")), "{:?}", counts[2]);
    assert!(r.files.is_empty());
}

#[test]
fn unknown_and_ambiguous_targets_are_clear_errors() {
    let (_d, ws) = setup();
    let err = |t: &str| {
        mcp_java_index::tools::tool::find_references::run(
            &ws,
            &FindReferencesArgs { target: t.into(), ..Default::default() },
        )
        .expect_err(t)
    };
    match err("xref.model.Money#plus(int)") {
        // A missing member is "not found" (not "file not found"), with what exists.
        ToolError::NoSuchSymbol(m) => assert!(m.contains("plus(xref.model.Money)"), "{m}"),
        e => panic!("{e:?}"),
    }
    match err("Util") {
        ToolError::InvalidArgument(m) => assert!(m.contains("xref.util.Util") && m.contains("xref.legacy.Util"), "{m}"),
        e => panic!("{e:?}"),
    }
    assert!(matches!(err("java.util.Nope"), ToolError::NoSuchSymbol(_)));
    assert!(matches!(err("xref.model.Nope"), ToolError::NoSuchSymbol(_)));
    let no_target =
        mcp_java_index::tools::tool::find_references::run(&ws, &FindReferencesArgs::default()).expect_err("no target");
    assert!(no_target.to_string().contains("target"), "{no_target}");
}

#[test]
fn answers_are_fresh_after_an_edit_without_a_watcher() {
    let (d, ws) = setup();
    let t = "xref.model.Money#times(int)";
    let before = refs(&ws, FindReferencesArgs { target: t.into(), ..Default::default() }).page.total;
    let f = d.path().join("xref/app/Main.java");
    let text = std::fs::read_to_string(&f).expect("read");
    let edited = text.replacen(
        "public static void main",
        "static xref.model.Money twice(xref.model.Money m) { return m.times(2); }\n    public static void main",
        1,
    );
    assert_ne!(text, edited);
    std::fs::write(&f, edited).expect("write");
    let after = refs(&ws, FindReferencesArgs { target: t.into(), ..Default::default() });
    assert_eq!(after.page.total, before + 1, "{after:?}");
    // A new method is a new target at once.
    let m = d.path().join("xref/model/Money.java");
    let text = std::fs::read_to_string(&m).expect("read");
    let edited = text.replacen(
        "public Money plus(Money other) {",
        "public boolean isSmall() { return true; }\n    public Money plus(Money other) {",
        1,
    );
    std::fs::write(&m, edited).expect("write");
    let r = refs(
        &ws,
        FindReferencesArgs {
            target: "xref.model.Money#isSmall()".into(),
            include_declaration: true,
            ..Default::default()
        },
    );
    assert_eq!(r.page.total, 1);
}

#[test]
fn dependencies_are_resolved_grouped_and_checked_against_excluded_packages() {
    let (_d, ws) = setup();
    let r = mcp_java_index::tools::tool::analyze_type_dependencies::run(
        &ws,
        &DependenciesArgs {
            type_name: "xref.service.OrderService".into(),
            excluded_packages: vec!["xref.model".into()],
            transitive: true,
            max_depth: 3,
            limit: 200,
            ..Default::default()
        },
    )
    .expect("deps");
    let dep = |f: &str| r.dependencies.iter().find(|d| d.fqn == f);
    assert!(dep("xref.model.Order").is_some_and(|d| d.violation && d.count > 0));
    assert!(r.violations.iter().any(|v| v.fqn == "xref.model.Order" && v.pattern == "xref.model"));
    assert!(r.dependencies.iter().all(|d| d.fqn != "xref.service.OrderService"));
    assert!(r.packages.iter().any(|p| p.package == "xref.model" && p.types >= 2));
    assert!(r.dependencies.iter().any(|d| d.origin == mcp_java_index::xref::world::Origin::Jdk), "{r:?}");
    let t = r.transitive.expect("transitive");
    assert!(t.types.iter().any(|x| x.fqn == "xref.model.Money"), "{t:?}");
    // By file gives the same as by its type.
    let by_file = mcp_java_index::tools::tool::analyze_type_dependencies::run(
        &ws,
        &DependenciesArgs {
            file_path: "xref/service/OrderService.java".into(),
            limit: 200,
            max_depth: 3,
            ..Default::default()
        },
    )
    .expect("by file");
    assert_eq!(by_file.page.total, r.page.total);
}

#[test]
fn a_dependency_cycle_is_reported() {
    let (d, ws) = setup();
    std::fs::create_dir_all(d.path().join("cyc")).expect("mkdir");
    std::fs::write(d.path().join("cyc/A.java"), "package cyc;\npublic class A { B b; }\n").expect("w");
    std::fs::write(d.path().join("cyc/B.java"), "package cyc;\npublic class B { C c; }\n").expect("w");
    std::fs::write(d.path().join("cyc/C.java"), "package cyc;\npublic class C { A a; }\n").expect("w");
    ws.index().rescan();
    let r = mcp_java_index::tools::tool::analyze_type_dependencies::run(
        &ws,
        &DependenciesArgs {
            type_name: "cyc.A".into(),
            transitive: true,
            max_depth: 5,
            limit: 10,
            ..Default::default()
        },
    )
    .expect("deps");
    let t = r.transitive.expect("transitive");
    assert_eq!(t.cycles, vec![vec!["cyc.A".to_string(), "cyc.B".to_string(), "cyc.C".to_string()]]);
}

#[test]
fn show_definition_resolves_a_use_exactly_and_ranks_candidates_by_context() {
    let (_d, ws) = setup();
    // Two classes named Util: the one this file imports comes first.
    let r = mcp_java_index::tools::tool::show_definition::run(
        &ws,
        &ShowDefinitionArgs {
            symbol: "Util".into(),
            file_path: "xref/service/InventoryService.java".into(),
            limit: 10,
            ..Default::default()
        },
    )
    .expect("def");
    assert_eq!(r.resolution, "ranked");
    assert_eq!(r.definitions[0].qualified_name, "xref.util.Util");
    assert!(r.definitions.iter().any(|d| d.qualified_name == "xref.legacy.Util"));
    // At the use on line 19 the name resolves exactly.
    let r = mcp_java_index::tools::tool::show_definition::run(
        &ws,
        &ShowDefinitionArgs {
            symbol: "isBlank".into(),
            file_path: "xref/service/InventoryService.java".into(),
            line: 19,
            limit: 10,
            ..Default::default()
        },
    )
    .expect("def");
    assert_eq!(r.resolution, "exact");
    assert_eq!(r.definitions.len(), 1);
    let d = &r.definitions[0];
    assert!(d.qualified_name.starts_with("xref.util.Util#isBlank("), "{d:?}");
    assert!(d.file.as_deref() == Some("xref/util/Util.java") && d.start_line.is_some() && d.end_line >= d.start_line);
    assert!(d.signature.as_deref().is_some_and(|s| s.contains("isBlank")));
    let none = mcp_java_index::tools::tool::show_definition::run(
        &ws,
        &ShowDefinitionArgs { symbol: "noSuchThing".into(), limit: 5, ..Default::default() },
    );
    assert!(matches!(none, Err(ToolError::NoSuchSymbol(_))));
}

/// Generated code nests expressions thousands deep; resolving it must not overflow the stack.
#[test]
fn deeply_nested_expressions_do_not_overflow_the_stack() {
    let mut src = String::from("class Deep { String s = \"a\"");
    for i in 0..20_000 {
        src.push_str(&format!(" + \"{i}\""));
    }
    src.push_str("; int f() { return ");
    src.push_str(&"(".repeat(5_000));
    src.push('1');
    src.push_str(&")".repeat(5_000));
    src.push_str("; } }\n");
    let world = mcp_java_index::xref::world::World::new(Vec::new());
    // On a thread with a small stack, like a worker thread.
    let refs = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || mcp_java_index::xref::bind::file_refs(&world, u32::MAX, src.as_bytes()).len())
        .expect("spawn")
        .join()
        .expect("no stack overflow");
    assert!(refs >= 1, "the String type reference is still found");
}

/// Javadoc links are references (kind `javadoc`) unless `includeJavadoc: false`; `{@code}`, a
/// quoted `@see` and links that resolve to nothing are not.
#[test]
fn javadoc_links_are_references_unless_left_out() {
    let (_d, ws) = setup();
    let by = |t: &str, javadoc: Option<bool>| {
        flat(&refs(&ws, FindReferencesArgs { target: t.into(), include_javadoc: javadoc, ..Default::default() }))
    };
    let doc = |line: u32, column: u32| ("xref/docs/Links.java".to_string(), line, column, "javadoc".to_string());
    // An overload by its parameters, in a class comment and in a method's.
    assert_eq!(by("xref.docs.Links#add(long)", None), vec![doc(8, 78), doc(45, 56)]);
    assert_eq!(by("xref.docs.Links#add(int,String)", None), vec![doc(8, 44), doc(40, 41)]);
    assert!(by("xref.docs.Links#add(long)", Some(false)).is_empty());
    // A field, a constant through {@value}, a nested type's field, a constructor.
    assert_eq!(by("xref.docs.Links#LIMIT", None).iter().filter(|r| r.3 == "javadoc").count(), 2);
    assert_eq!(by("xref.docs.Links.Inner#depth", None), vec![doc(9, 54)]);
    assert_eq!(by("xref.docs.Links#Links(int)", None), vec![doc(10, 34)]);
    // Money: code references plus the links of two files; without javadoc only the code's.
    let all = by("xref.model.Money", None);
    let code = by("xref.model.Money", Some(false));
    let links: Vec<_> = all.iter().filter(|r| r.3 == "javadoc").cloned().collect();
    // `Money#plus(Money)` and `@see Money#times(int)` name Money too (the type part of a member
    // link is a reference to the type, as DocTrees resolves it).
    assert_eq!(links, vec![doc(7, 40), doc(8, 11), doc(13, 9)], "{{@code Money}} is not a link");
    assert_eq!(all.len(), code.len() + links.len());
    assert!(code.iter().all(|r| r.3 != "javadoc"));
    // @throws names the exception type.
    assert_eq!(by("java.lang.IllegalStateException", None).iter().filter(|r| r.3 == "javadoc").count(), 1);
}

/// Past the binder's depth limit a file's references are not all bound: the answer names the
/// file and says why, instead of dropping them silently. A file that does not mention the name
/// is not listed, and the references bound before the cut are still found.
#[test]
fn a_file_nested_past_the_depth_limit_is_said_to_be_incomplete() {
    let dir = tempfile::tempdir().expect("tempdir");
    let w = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).expect("write");
    w("Util.java", "class Util { static int twice(int x) { return 2 * x; } }\n");
    w("Shallow.java", "class Shallow { int shallowOnly() { return Util.twice(1); } }\n");
    let depth = 4_000;
    let mut deep = String::from("class Deep { int f() { return ");
    deep.push_str(&"Util.twice(".repeat(depth));
    deep.push('1');
    deep.push_str(&")".repeat(depth));
    deep.push_str("; } }\n");
    w("Deep.java", &deep);
    let mut other = String::from("class Other { int f() { return 1");
    other.push_str(&" + 1".repeat(depth));
    other.push_str("; } }\n");
    w("Other.java", &other);
    let flags = Flags::roots([dir.path()]).set("watch", false).set("cache", false);
    let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    ws.build_index();
    // On a worker-sized stack, twice: the second answer comes from the references kept bound.
    for round in 0..2 {
        let r = std::thread::scope(|s| {
            std::thread::Builder::new()
                .stack_size(2 << 20)
                .spawn_scoped(s, || {
                    refs(&ws, FindReferencesArgs { target: "Util#twice(int)".into(), ..Default::default() })
                })
                .expect("spawn")
                .join()
                .expect("no stack overflow")
        });
        assert_eq!(r.incomplete_files, 1, "round {round}: {:?}", r.incomplete);
        let f = &r.incomplete[0];
        assert!(f.starts_with("Deep.java: ") && f.contains("nested deeper than 3000 levels from line 1"), "{f}");
        // Shallow.java's call and the calls of Deep.java above the cut, not all of them.
        assert!(r.page.total > 1000 && r.page.total < depth as u64, "{} of {} calls found", r.page.total, depth + 1);
        assert_eq!(r.files.first().map(|f| f.file.as_str()), Some("Deep.java"));
        let text = serde_json::to_string(&r).expect("json");
        assert!(text.contains("\"incomplete\"") && text.contains("Deep.java"), "{text:.300}");
    }
    // A search for a name the deep file does not mention does not list it.
    let r = refs(&ws, FindReferencesArgs { target: "Shallow#shallowOnly()".into(), ..Default::default() });
    assert!(r.incomplete.is_empty() && r.incomplete_files == 0, "{:?}", r.incomplete);
}

/// A file over the parser's node bound (a one-line array initializer of 300,000 elements,
/// which the old binder parsed into a tree of gigabytes): its outline comes from its skeleton
/// with the reason said, and a search for a member it uses lists it as not counted, never a
/// silent 0, while the references in other files are found.
#[test]
fn a_file_over_the_node_bound_is_indexed_by_its_skeleton_and_said_so() {
    let dir = tempfile::tempdir().expect("tempdir");
    let w = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).expect("write");
    w("Util.java", "class Util { static final int K = 1; static int unused() { return 0; } }\n");
    w("Other.java", "class Other { int f() { return Util.K; } }\n");
    let elements = mcp_java_index::parser::MAX_SYNTAX_NODES / 2 + 50_000;
    w("Big.java", &format!("class Big {{ int[] a = {{Util.K{}}}; void g() {{}} }}\n", ",1".repeat(elements)));
    let flags = Flags::roots([dir.path()]).set("watch", false).set("cache", false);
    let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    ws.build_index();
    let args = mcp_java_index::tools::tool::java_index::JavaIndexArgs {
        file_path: "Big.java".to_owned(),
        options: Default::default(),
    };
    let outline = mcp_java_index::tools::tool::java_index::run(&ws, &args).expect("java_index").outline;
    let big = &outline.classes[0];
    assert_eq!(big.name, "Big");
    assert_eq!(big.fields.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(), ["a"]);
    assert_eq!(big.methods.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(), ["g"]);
    let said = "indexed by its skeleton only: it has ";
    assert!(
        outline.errors.iter().any(|d| d.message.starts_with(said)
            && d.message.contains(&format!("over the bound of {}", mcp_java_index::parser::MAX_SYNTAX_NODES))),
        "{:?}",
        outline.errors
    );
    for round in 0..2 {
        let r = refs(&ws, FindReferencesArgs { target: "Util#K".into(), ..Default::default() });
        assert_eq!(flat(&r).iter().map(|x| x.0.as_str()).collect::<Vec<_>>(), ["Other.java"], "round {round}");
        assert_eq!(r.incomplete_files, 1, "round {round}: {:?}", r.incomplete);
        let f = &r.incomplete[0];
        assert!(
            f.starts_with("Big.java: indexed by its skeleton only: it has ")
                && f.ends_with("its references are not counted"),
            "{f}"
        );
    }
    // A name the big file does not mention does not list it.
    let r = refs(&ws, FindReferencesArgs { target: "Util#unused()".into(), ..Default::default() });
    assert!(r.incomplete.is_empty(), "{:?}", r.incomplete);
}

/// A transitive closure larger than `limit` or the answer budget is cut, never an error: its
/// first types are listed and their number in all said (issue 53: a large class's closure was
/// "answer too large" whatever `limit` was).
#[test]
fn a_large_transitive_closure_is_cut_to_limit_and_to_the_budget() {
    let (d, ws) = setup();
    std::fs::create_dir_all(d.path().join("chain")).expect("mkdir");
    for i in 0..40 {
        let next = if i == 39 { "T0".to_string() } else { format!("T{}", i + 1) };
        let text = format!("package chain;\npublic class T{i} {{ {next} next; java.util.List<String> l; }}\n");
        std::fs::write(d.path().join(format!("chain/T{i}.java")), text).expect("w");
    }
    ws.index().rescan();
    let args = |limit: u32| DependenciesArgs {
        type_name: "chain.T0".into(),
        transitive: true,
        max_depth: 10,
        limit,
        ..Default::default()
    };
    let r = mcp_java_index::tools::tool::analyze_type_dependencies::run(&ws, &args(5)).expect("deps");
    let t = r.transitive.expect("transitive");
    assert_eq!((t.types.len(), t.total_types), (5, Some(10)), "{t:?}");
    // Within a small budget the answer is cut, not refused.
    use mcp_java_index::tools::registry::{Budget, dispatch_within};
    let serde_json::Value::Object(m) =
        serde_json::json!({"type": "chain.T0", "transitive": true, "maxDepth": 10, "limit": 200})
    else {
        unreachable!()
    };
    let a = dispatch_within(&ws, "analyze_type_dependencies", m, Budget { tokens: 250, structured: true })
        .expect("a cut answer");
    let text = a.text();
    assert!(text.contains("transitive: 10 workspace types (stopped at maxDepth); the first"), "{text}");
}
