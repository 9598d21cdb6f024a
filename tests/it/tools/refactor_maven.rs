//! Refactorings keep a project's tests passing through its real build: on a temp copy of
//! tests/edit_fixtures/maven-refactor (a Maven project with a JUnit 5 test), an inline, an
//! extract_variable, a safe_delete and a quick fix (the unused import the fixture gains) are
//! applied through `refactor_actions`, the diffs are a snapshot, and then real `mvn -o -q test`
//! runs offline against Debian's repository and must pass with both tests run.

use crate::common;
use common::project::{MAVEN_REPO, Project};

use super::refactor::previewed_and_applied as applied;
use mcp_java_index::tools::tool::get_problems::ProblemsArgs;
use serde_json::json;

#[test]
fn refactorings_then_the_projects_junit_tests_pass_through_real_maven() {
    let p = Project::of("edit_fixtures", "maven-refactor");
    let ws = p.workspace(&[]);
    ws.build_index();
    let file = "src/main/java/com/example/prices/Prices.java";
    let mut diffs = Vec::new();
    // `tax` inlined into the return; the label's padding extracted to a local.
    diffs.push(applied(&ws, json!({"action": "inline", "filePath": file, "line": 14, "column": 14})));
    diffs.push(applied(
        &ws,
        json!({"action": "extract_variable", "filePath": file, "line": 18, "text": "String.format(\"%02d\", cents % 100)", "newName": "pennies"}),
    ));
    diffs.push(applied(&ws, json!({"action": "safe_delete", "target": "com.example.prices.Prices#unusedHelper()"})));
    // The List import is still used; the quick fix removes the one a hint reports.
    std::fs::write(
        p.path(file),
        std::fs::read_to_string(p.path(file))
            .expect("read")
            .replace("import java.util.List;", "import java.util.List;\nimport java.util.Map;"),
    )
    .expect("write");
    let r = mcp_java_index::tools::tool::get_problems::run(
        &ws,
        &ProblemsArgs { paths: vec![file.into()], ..Default::default() },
    )
    .expect("problems");
    let fix = r.diagnostics.iter().flat_map(|d| &d.fixes).find(|f| f.title == "remove the unused import").expect("fix");
    diffs.push(applied(&ws, json!({"action": "quick_fix", "fixId": fix.fix_id})));
    let after = std::fs::read_to_string(p.path(file)).expect("read");
    assert!(
        !after.contains("long tax")
            && after.contains("String pennies = String.format(\"%02d\", cents % 100);")
            && !after.contains("unusedHelper")
            && !after.contains("java.util.Map"),
        "{after}"
    );
    insta::assert_snapshot!("maven_refactor_diffs", diffs.join("\n\n"));

    let out = std::process::Command::new("mvn")
        .args(["-o", "-q", "-B", &format!("-Dmaven.repo.local={MAVEN_REPO}"), "test"])
        .current_dir(p.root.path())
        .output()
        .expect("mvn runs");
    assert!(
        out.status.success(),
        "mvn test failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let report = std::fs::read_to_string(p.path("target/surefire-reports/TEST-com.example.prices.PricesTest.xml"))
        .expect("surefire report");
    assert!(
        report.contains("tests=\"2\"") && report.contains("failures=\"0\"") && report.contains("errors=\"0\""),
        "{report}"
    );
}
