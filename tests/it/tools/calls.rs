//! `call_hierarchy` and `affected_tests` (issue 33): a fixture of the ways code calls code
//! (constructors, initializers, lambdas, anonymous classes, method references, recursion,
//! overriders) as the trees the tool draws, snapshotted; and the tests a change reaches on a
//! Maven reactor under git (a helper between the test and the code), run through real Maven.

use crate::common;
use common::project::Project;

use mcp_java_index::build::runs::Status;
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::registry::dispatch;
use mcp_java_index::tools::tool::run_tests::RunTestsArgs;
use serde_json::{Value, json};

const SHAPES: &str = r#"package calls;

import java.util.List;
import java.util.function.Supplier;

public class Shapes {
    static final Shapes DEFAULT = make("default");
    private final List<String> names = List.of(label(1));

    static {
        make("static block");
    }

    {
        label(2);
    }

    public Shapes() {
        this("none");
    }

    public Shapes(String name) {
        label(name.length());
    }

    static Shapes make(String name) {
        return new Shapes(name);
    }

    static String label(int n) {
        return "shape " + n;
    }

    int countdown(int n) {
        return n == 0 ? 0 : countdown(n - 1);
    }

    void callbacks() {
        Supplier<String> s = () -> label(3);
        Runnable r = new Runnable() {
            @Override
            public void run() {
                make("anonymous");
            }
        };
        List.of(1, 2).forEach(Shapes::label);
        r.run();
        s.get();
    }
}
"#;

const AREA: &str = r#"package calls;

public interface Area {
    double area();

    static double total(Area... as) {
        double t = 0;
        for (Area a : as) {
            t += a.area();
        }
        return t;
    }
}
"#;

const SQUARE: &str = r#"package calls;

public class Square implements Area {
    private final double side;

    public Square(double side) {
        this.side = side;
    }

    @Override
    public double area() {
        return side * side;
    }

    double twice() {
        return 2 * area();
    }
}
"#;

const APP: &str = r#"package calls;

enum Kind {
    ONE(Shapes.label(1)), TWO(Shapes.label(2));

    Kind(String s) {}
}

class App {
    double run() {
        Square sq = new Square(2);
        Shapes.make("app");
        return Area.total(sq) + sq.twice() + sq.area();
    }
}
"#;

fn workspace() -> (tempfile::TempDir, Host) {
    common::indexed(
        "src/calls",
        &[("Shapes.java", SHAPES), ("Area.java", AREA), ("Square.java", SQUARE), ("App.java", APP)],
    )
}

fn call(ws: &Host, tool: &str, args: Value) -> Result<(Value, String), String> {
    let Value::Object(m) = args else { unreachable!("object arguments") };
    dispatch(ws, tool, m).map(|a| {
        let text = a.text();
        (a.value, text)
    })
}

/// Each call's text, one after the other, as the snapshot shows them.
fn trees(ws: &Host, calls: &[Value]) -> String {
    let mut out = String::new();
    for args in calls {
        out.push_str(&format!("## {args}\n"));
        match call(ws, "call_hierarchy", args.clone()) {
            Ok((_, text)) => out.push_str(&text),
            Err(e) => out.push_str(&format!("error: {e}\n")),
        }
        out.push('\n');
    }
    out
}

#[test]
fn call_hierarchy_draws_callers_and_callees_as_trees() {
    let (_dir, ws) = workspace();
    let text = trees(
        &ws,
        &[
            // Callers: static and field initializers, a constructor, an enum constant, a lambda,
            // a method reference, an anonymous class.
            json!({"target": "calls.Shapes#label(int)"}),
            json!({"target": "calls.Shapes#make(java.lang.String)", "depth": 3}),
            // Recursion is shown once and cut.
            json!({"target": "calls.Shapes#countdown(int)", "depth": 3}),
            // A call through the interface binds to Area#area(); the overrider's own calls are
            // listed with includeOverriders, marked.
            json!({"target": "calls.Area#area()"}),
            json!({"target": "calls.Area#area()", "includeOverriders": true, "depth": 2}),
            // Callees, by position of the declaration.
            json!({"filePath": "src/calls/App.java", "line": 10, "direction": "outgoing", "depth": 2}),
            json!({"target": "calls.Shapes#Shapes()", "direction": "outgoing", "depth": 5}),
            // The first level paged.
            json!({"target": "calls.Shapes#label(int)", "limit": 2, "offset": 1}),
            // Not a method; a name that does not exist; a depth out of range.
            json!({"target": "calls.Shapes"}),
            json!({"target": "calls.Shapes#nothing()"}),
            json!({"target": "calls.Shapes#label(int)", "depth": 6}),
        ],
    );
    insta::assert_snapshot!("call_hierarchy_trees", text);
}

#[test]
fn call_hierarchy_structured_answer_marks_lambdas_classes_and_overriders() {
    let (_dir, ws) = workspace();
    let (v, _) = call(&ws, "call_hierarchy", json!({"target": "calls.Shapes#label(int)"})).expect("answer");
    let sites: Vec<(String, String, String)> = v["calls"]
        .as_array()
        .expect("calls")
        .iter()
        .flat_map(|n| {
            n["sites"].as_array().expect("sites").iter().map(move |s| {
                (
                    n["member"].as_str().unwrap_or("").to_owned(),
                    s["kind"].as_str().unwrap_or("").to_owned(),
                    s["within"].as_str().unwrap_or("").to_owned(),
                )
            })
        })
        .collect();
    assert!(sites.contains(&("calls.Shapes#callbacks()".into(), "call".into(), "lambda".into())), "{sites:?}");
    assert!(sites.contains(&("calls.Shapes#callbacks()".into(), "method-ref".into(), String::new())), "{sites:?}");
    assert!(sites.contains(&("calls.Shapes#<init>".into(), "call".into(), String::new())), "{sites:?}");
    assert!(sites.contains(&("calls.Kind#<clinit>".into(), "call".into(), String::new())), "{sites:?}");
    let (v, _) =
        call(&ws, "call_hierarchy", json!({"target": "calls.Area#area()", "includeOverriders": true})).expect("answer");
    let via: Vec<&str> = v["calls"]
        .as_array()
        .expect("calls")
        .iter()
        .flat_map(|n| n["sites"].as_array().expect("sites").iter().filter_map(|s| s["overrider"].as_str()))
        .collect();
    assert_eq!(via, ["calls.Square#area()", "calls.Square#area()"], "{v}");
    // A tree cut to the answer budget keeps whole levels and says where it stopped.
    let (v, _) = call(&ws, "call_hierarchy", json!({"target": "calls.Shapes#label(int)", "depth": 5})).expect("deep");
    assert!(v["stoppedAtDepth"].is_null(), "{v}");
}

/// The reactor under git: `Calc#add` changed; its tests are the JUnit 5 test that calls it and
/// the JUnit 4 test that reaches it through a private helper and another module's class; the
/// tests of `mul` and of `Totals#label` are not listed. Then Maven runs exactly those two; and
/// with only `mul` changed, its one test runs on the fast path.
#[test]
fn affected_tests_of_a_change_on_a_maven_reactor_and_run_tests_runs_them() {
    let p = Project::of("build_fixtures", "maven-affected");
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"])
            .args(args)
            .current_dir(p.root.path())
            .output()
            .expect("git");
        assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    };
    git(&["init", "-q"]);
    git(&["add", "-A"]);
    git(&["commit", "-qm", "fixture"]);
    let calc = p.path("core/src/main/java/com/example/core/Calc.java");
    let text = std::fs::read_to_string(&calc).expect("read");
    std::fs::write(&calc, text.replace("return a + b;", "int sum = a + b;\n        return sum;")).expect("write");
    let ws = p.workspace(&[
        ("MCP_JAVA_INDEX_WATCH", "false"),
        ("MCP_JAVA_INDEX_TRUST", "1"),
        ("MCP_JAVA_INDEX_BUILD_WAIT_MS", "600000"),
    ]);
    ws.build_index();
    let (v, text) = call(&ws, "affected_tests", json!({"changed": true})).expect("affected");
    assert_eq!(
        listed(&v),
        [
            ("app".into(), "com.example.app.TotalsTest#sums".into()),
            ("core".into(), "com.example.core.CalcTest#adds".into())
        ],
        "{text}"
    );
    insta::assert_snapshot!("affected_tests_maven_reactor", text);
    // The same by target, and by the changed file named.
    let (by_target, _) =
        call(&ws, "affected_tests", json!({"target": "com.example.core.Calc#add(int,int)"})).expect("by target");
    assert_eq!(by_target["classes"], v["classes"]);
    let (by_file, _) =
        call(&ws, "affected_tests", json!({"changed": ["core/src/main/java/com/example/core/Calc.java"]}))
            .expect("by file");
    assert_eq!(by_file["classes"], v["classes"]);
    // Nothing reaches Totals#label but its own test.
    let (label, _) = call(&ws, "affected_tests", json!({"target": "com.example.app.Totals#label(java.lang.String)"}))
        .expect("label");
    assert_eq!(listed(&label)[0].1, "com.example.app.TotalsTest#labels", "{label}");
    assert_eq!(label["total"], 1);
    // run_tests affected: true runs exactly those two through Maven (two modules: the reactor).
    let args = RunTestsArgs { affected: true, offline: true, ..Default::default() };
    let r = mcp_java_index::tools::tool::run_tests::run(&ws, &args).expect("run");
    assert_eq!(r.status, Some(Status::Finished), "{r:#?}");
    assert_eq!((r.counts.run, r.counts.passed, r.counts.failed), (2, 2, 0), "{r:#?}");
    assert!(
        r.command.contains("-Dtest=com.example.app.TotalsTest#sums,com.example.core.CalcTest#adds"),
        "{}",
        r.command
    );
    // Now only `mul` differs from HEAD: one module's one test, on the fast path (Maven
    // compiled the module above).
    git(&["checkout", "--", "core/src/main/java/com/example/core/Calc.java"]);
    let text = std::fs::read_to_string(&calc).expect("read");
    std::fs::write(&calc, text.replace("return a * b;", "return b * a;")).expect("write");
    let r = mcp_java_index::tools::tool::run_tests::run(&ws, &args).expect("run");
    assert_eq!(r.status, Some(Status::Finished), "{r:#?}");
    assert_eq!((r.path.as_str(), r.counts.run, r.counts.passed), ("fast", 1, 1), "{r:#?}");
    assert!(r.command.contains("--select-method=com.example.core.CalcTest#multiplies"), "{}", r.command);
}

/// commons-lang3 (main and test sources, a plain project): the tests that reach
/// `CharUtils#isAsciiAlphaUpper(char)`: its own test is listed, and every listed test reaches
/// it by a path whose each step is a call written in the step before (its body names the next
/// member).
#[test]
fn affected_tests_on_commons_lang3() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/corpus/commons-lang3");
    if !root.join("src/test/java").is_dir() {
        assert!(std::env::var_os("CI").is_none(), "corpus missing: run .ci/run");
        eprintln!("skipped: {} missing (run .ci/run)", root.display());
        return;
    }
    let flags = mcp_java_index::config::Flags::roots([root.as_path()]).set("watch", false).set("cache", false);
    let ws = Host::open(mcp_java_index::config::Config::load(&flags, &|_| None).expect("config")).expect("ws");
    ws.build_index();
    let target = "org.apache.commons.lang3.CharUtils#isAsciiAlphaUpper(char)";
    let (v, text) = call(&ws, "affected_tests", json!({"target": target})).expect("affected");
    // The paths, whole, as the walk found them (the answer says them in short names).
    let found = affected(&ws, json!({"target": target}));
    assert_eq!(found.tests.len() as u64, v["total"].as_u64().unwrap_or(0), "{text}");
    // The body of a member, by its declaration in the outline of its file.
    let body = |file: &str, key: &str| -> String {
        let path = root.join(file);
        let src = std::fs::read_to_string(&path).expect("read");
        let (w, _) = ws.xref_world();
        let line = mcp_java_index::xref::calls::decl_of(&w, key).map_or(0, |(_, l)| l) as usize;
        // From the declaration to the end of its block: the lines until braces balance.
        let mut depth = 0i32;
        let mut out = String::new();
        let mut opened = false;
        for l in src.lines().skip(line.saturating_sub(1)) {
            out.push_str(l);
            out.push('\n');
            depth += l.matches('{').count() as i32 - l.matches('}').count() as i32;
            opened |= l.contains('{');
            if opened && depth <= 0 {
                break;
            }
        }
        out
    };
    let name = |key: &str| mcp_java_index::tools::xref::name_of_key(key);
    let real_root = std::fs::canonicalize(&root).unwrap_or_else(|_| root.clone());
    for t in &found.tests {
        let path: Vec<&str> = t.path.iter().map(String::as_str).collect();
        assert_eq!(path.last(), Some(&target), "{t:?}");
        let (w, _) = ws.xref_world();
        for pair in path.windows(2) {
            let (file, _) = mcp_java_index::xref::calls::decl_of(&w, pair[0]).expect("declared");
            // The engine's files are resolved: a corpus reached through a symlink (a worktree's
            // target/corpus) is compared by its real path.
            let rel = file.strip_prefix(&real_root).expect("under root").to_string_lossy().into_owned();
            assert!(body(&rel, pair[0]).contains(&name(pair[1])), "{} does not call {}", pair[0], pair[1]);
        }
    }
    let names: Vec<String> = listed(&v).into_iter().map(|t| t.1).collect();
    let char_utils_test = "src/test/java/org/apache/commons/lang3/CharUtilsTest.java";
    let src = std::fs::read_to_string(root.join(char_utils_test)).expect("read");
    assert!(src.contains("isAsciiAlphaUpper("), "the corpus tests it");
    assert!(names.iter().any(|t| t == "org.apache.commons.lang3.CharUtilsTest#testIsAsciiAlphaUpper_char"), "{text}");
    // Grouped by class and by shared calls, in short names, the JSON of a page of 100 tests is a
    // fraction of a list of whole paths per test (79 KB of compact JSON for this page before).
    let busy = json!({"target": "org.apache.commons.lang3.StringUtils#isEmpty(java.lang.CharSequence)"});
    let (page, _) = call(&ws, "affected_tests", busy.clone()).expect("affected");
    assert_eq!(listed(&page).len(), 100, "a full page");
    let json_bytes = serde_json::to_string(&page).map(|s| s.len()).unwrap_or(0);
    let found = affected(&ws, busy);
    let whole: usize =
        found.tests.iter().take(100).map(|t| t.path.iter().map(|k| k.len() + 3).sum::<usize>() + t.file.len()).sum();
    assert!(json_bytes * 3 < whole, "{json_bytes} bytes of JSON for {whole} bytes of whole paths and files");
    insta::assert_snapshot!("affected_tests_commons_lang3", text);
}

/// A tree over the answer budget keeps the whole levels that fit and says where it stopped; a
/// first level over it is paged.
#[test]
fn a_tree_over_the_answer_budget_keeps_whole_levels() {
    use mcp_java_index::tools::budget::Budget;
    use mcp_java_index::tools::registry::dispatch_within;
    let (_dir, ws) = workspace();
    let ask = |args: Value, tokens: usize| {
        let Value::Object(m) = args else { unreachable!("object arguments") };
        dispatch_within(&ws, "call_hierarchy", m, Budget { tokens, structured: true }).expect("answer").value
    };
    let args = json!({"target": "calls.Area#area()", "includeOverriders": true, "depth": 2});
    let whole = ask(args.clone(), 20_000);
    assert!(whole["stoppedAtDepth"].is_null() && whole["calls"][1]["calls"].is_array(), "{whole}");
    // Room for the first level only.
    let cut = ask(args.clone(), 190);
    assert_eq!(cut["stoppedAtDepth"], 2, "{cut}");
    assert_eq!(cut["calls"].as_array().map(Vec::len), Some(3), "{cut}");
    assert!(cut["calls"].as_array().expect("calls").iter().all(|n| n["calls"].is_null()), "{cut}");
    // Not even that: the first level paged.
    let paged = ask(args, 120);
    assert_eq!(paged["truncated"], true, "{paged}");
    assert!(paged["nextOffset"].as_u64().is_some_and(|o| o < 3), "{paged}");
}

/// Tests reach code through what the runner calls around them, not only through their own
/// calls: a `@BeforeEach` of an abstract base class runs for its subclasses' tests and their
/// `@Nested` classes' tests; a test class's field initializer runs for each of its tests; a
/// helper's constructor is code its callers reach. A changed test is affected itself, and a
/// changed setup method affects every test it runs for.
#[test]
fn affected_tests_through_setup_initializers_and_changed_tests() {
    let main =
        |name: &str, body: &str| (format!("src/main/java/life/{name}.java"), format!("package life;\n\n{body}\n"));
    let test =
        |name: &str, body: &str| (format!("src/test/java/life/{name}.java"), format!("package life;\n\n{body}\n"));
    let files = [
        main(
            "Clock",
            "public class Clock {\n    public static void reset() {}\n    public static long now() { return 0; }\n    public static void tick() {}\n    public static void unused() {}\n}",
        ),
        test(
            "BaseTest",
            "import org.junit.jupiter.api.BeforeEach;\n\nabstract class BaseTest {\n    @BeforeEach\n    void setUp() {\n        Clock.reset();\n    }\n}",
        ),
        test(
            "StoreTest",
            "import org.junit.jupiter.api.Nested;\nimport org.junit.jupiter.api.Test;\n\nclass StoreTest extends BaseTest {\n    @Test\n    void stores() {}\n\n    @Nested\n    class Inner {\n        @Test\n        void nested() {}\n    }\n}",
        ),
        test(
            "FieldTest",
            "import org.junit.jupiter.api.Test;\n\nclass FieldTest {\n    private final long start = Clock.now();\n\n    @Test\n    void first() {}\n\n    @Test\n    void second() {}\n}",
        ),
        test("Fixture", "class Fixture {\n    Fixture() {\n        Clock.tick();\n    }\n}"),
        test(
            "TickTest",
            "import org.junit.Test;\n\npublic class TickTest {\n    @Test\n    public void ticks() {\n        new Fixture();\n    }\n}",
        ),
    ];
    let owned: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let (_dir, ws) = common::indexed("", &owned);
    let tests = |target: &str| -> Vec<(String, Vec<String>)> {
        let (v, text) = call(&ws, "affected_tests", json!({"target": target})).expect("affected");
        let found = affected(&ws, json!({"target": target}));
        let names: Vec<String> = found.tests.iter().map(|t| t.test.clone()).collect();
        assert_eq!(listed(&v).into_iter().map(|t| t.1).collect::<Vec<_>>(), names, "{text}");
        found.tests.into_iter().map(|t| (t.test, t.path)).collect()
    };
    let names = |target: &str| tests(target).into_iter().map(|t| t.0).collect::<Vec<_>>();
    assert_eq!(names("life.Clock#reset()"), ["life.StoreTest#stores", "life.StoreTest$Inner#nested"]);
    assert_eq!(
        tests("life.Clock#reset()")[0].1,
        ["life.StoreTest#stores()", "life.BaseTest#setUp()", "life.Clock#reset()"],
        "the path goes through the setup method"
    );
    assert_eq!(names("life.Clock#now()"), ["life.FieldTest#first", "life.FieldTest#second"]);
    assert_eq!(names("life.Clock#tick()"), ["life.TickTest#ticks"]);
    assert_eq!(names("life.Clock#unused()"), Vec::<String>::new());
    assert_eq!(names("life.StoreTest#stores()"), ["life.StoreTest#stores"]);
    assert_eq!(names("life.BaseTest#setUp()"), ["life.StoreTest#stores", "life.StoreTest$Inner#nested"]);
}

/// The (module, `class#name`) of each test an `affected_tests` answer lists, in its order.
fn listed(v: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for c in v["classes"].as_array().into_iter().flatten() {
        for g in c["groups"].as_array().into_iter().flatten() {
            for t in g["tests"].as_array().into_iter().flatten() {
                let test = format!("{}#{}", c["class"].as_str().unwrap_or(""), t["name"].as_str().unwrap_or(""));
                out.push((c["module"].as_str().unwrap_or("").to_owned(), test));
            }
        }
    }
    out
}

/// The walk behind `affected_tests`, with its paths of whole keys.
fn affected(ws: &Host, args: Value) -> mcp_java_index::tools::tool::affected_tests::Affected {
    let args = serde_json::from_value(args).expect("arguments");
    mcp_java_index::tools::tool::affected_tests::affected(ws, &args).unwrap_or_else(|e| panic!("{e}"))
}
