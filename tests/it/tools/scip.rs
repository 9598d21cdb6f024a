//! `export_scip`: the index it writes reads back with the `scip` crate, every symbol parses,
//! it writes only inside the roots, and a second export after a one-file body edit re-encodes
//! only that file's document (and says so).

use std::path::Path;
use std::time::Duration;

use mcp_java_index::scip::{from_bytes, symbol_is_valid};
use mcp_java_index::tools::registry::{dispatch, find};
use mcp_java_index::tools::workspace::Workspace;
use serde_json::{Value, json};

use crate::common;

fn call(ws: &Workspace, args: Value) -> Result<Value, String> {
    let Value::Object(m) = args else { panic!("arguments must be an object") };
    let v = dispatch(ws, "export_scip", m).map(|a| a.value)?;
    let schema = Value::Object(find("export_scip").expect("registered").spec.output_schema.clone());
    let validator = jsonschema::validator_for(&schema).expect("output schema compiles");
    assert!(validator.is_valid(&v), "answer does not match the outputSchema: {v}");
    Ok(v)
}

const SHAPE: &str = "package p;\n\n/** A shape. */\npublic interface Shape {\n    double area();\n}\n";
const SQUARE: &str = "package p;\n\nimport java.util.List;\n\npublic class Square implements Shape {\n    private double side;\n\n    public Square(double side) {\n        this.side = side;\n    }\n\n    @Override\n    public double area() {\n        double a = side * side;\n        return a;\n    }\n\n    static double total(List<Shape> shapes) {\n        double sum = 0;\n        for (Shape s : shapes) {\n            sum += s.area();\n        }\n        return sum + new Square(1).area();\n    }\n}\n";

/// One document rendered as `line:start-end role symbol` lines, for the snapshot.
fn render(index: &mcp_java_index::scip::protocol::types::Index, name: &str) -> String {
    let d = index.documents.iter().find(|d| d.relative_path.ends_with(name)).expect("document");
    let mut out = Vec::new();
    for o in &d.occurrences {
        let role = match o.symbol_roles {
            1 => "definition",
            2 => "import",
            4 => "write",
            8 => "read",
            _ => "reference",
        };
        out.push(format!("{:?} {role} {}", o.range, o.symbol));
    }
    for s in &d.symbols {
        let rel: Vec<String> = s
            .relationships
            .iter()
            .map(|r| {
                format!(
                    "{}{} {}",
                    if r.is_implementation { "impl" } else { "" },
                    if r.is_reference { "+ref" } else { "" },
                    r.symbol
                )
            })
            .collect();
        out.push(format!(
            "{} {:?} {:?} {:?} {:?} {rel:?}",
            s.symbol,
            s.kind.enum_value_or_default(),
            s.display_name,
            s.signature_documentation.text,
            s.documentation
        ));
    }
    out.join("\n")
}

#[test]
fn export_scip_writes_reads_back_and_re_encodes_only_the_edited_file() {
    let (dir, ws) = common::indexed("src", &[("p/Shape.java", SHAPE), ("p/Square.java", SQUARE)]);
    let first = call(&ws, json!({})).expect("export");
    assert_eq!((first["documents"].as_u64(), first["encoded"].as_u64()), (Some(2), Some(2)), "{first}");
    let path = dir.path().join("index.scip");
    let index = from_bytes(&std::fs::read(&path).expect("written")).expect("reads back");
    for d in &index.documents {
        for o in &d.occurrences {
            assert!(symbol_is_valid(&o.symbol), "{}", o.symbol);
        }
    }
    insta::assert_snapshot!(render(&index, "Square.java"));

    // A body edit of one file: one document encoded again.
    let square = dir.path().join("src/p/Square.java");
    std::fs::write(&square, SQUARE.replace("double a = side * side;", "double a = side * side * 1;")).expect("edit");
    let f = std::fs::File::options().write(true).open(&square).expect("open");
    f.set_modified(std::time::SystemTime::now() + Duration::from_secs(5)).expect("mtime");
    let second = call(&ws, json!({"filePath": "index.scip"})).expect("export again");
    assert_eq!((second["documents"].as_u64(), second["encoded"].as_u64()), (Some(2), Some(1)), "{second}");
}

#[test]
fn export_scip_refuses_to_write_outside_the_roots() {
    let (_dir, ws) = common::indexed("src", &[("p/Shape.java", SHAPE)]);
    let elsewhere = tempfile::tempdir().expect("tempdir");
    let out = elsewhere.path().join("index.scip");
    let err = call(&ws, json!({"filePath": out.to_string_lossy()})).expect_err("outside the roots");
    assert!(err.contains("outside the workspace roots"), "{err}");
    assert!(!Path::new(&out).exists());
    let err = call(&ws, json!({"filePath": "src/p/Shape.java"})).expect_err("not a .scip file");
    assert!(err.contains(".scip"), "{err}");
}
