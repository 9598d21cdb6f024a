//! The real binary as a language server (`lsp`), driven by pygls' client (lsprotocol types) as
//! an editor drives it: its answers equal the MCP tools' answers (through `call --json`) on the
//! same targets, and its rename, applied by the client, writes what `refactor_actions` writes.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use mcp_java_index::model::{FileOutline, TypeDecl};
use serde_json::{Value, json};

use crate::common::write;

const BIN: &str = env!("CARGO_BIN_EXE_mcp-java-index");

const GREETER: &str = "package com.acme;

/** Greets people. Second sentence. */
public class Greeter {
    private final String name;

    public Greeter(String name) {
        this.name = name;
    }

    /**
     * Says hello to {@code who}.
     * @param who the one greeted
     */
    public String greet(String who) {
        return \"hello \" + who + \" from \" + name;
    }
}
";

// A line with characters outside the BMP before nothing and after the call: UTF-16 columns.
const APP: &str = "package com.acme;

public class App {
    public static void main(String[] args) {
        Greeter g = new Greeter(\"app\");
        System.out.println(g.greet(\"you\") + \"é😀\");
        System.out.println(\"😀\" + g.greet(\"me\"));
    }
}
";

/// The project: two classes using each other, and the top-level Java fixtures under
/// `fixtures/` for the outlines.
fn project(root: &Path) -> Vec<String> {
    write(root, "src/com/acme/Greeter.java", GREETER);
    write(root, "src/com/acme/App.java", APP);
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut files = vec!["src/com/acme/Greeter.java".to_owned(), "src/com/acme/App.java".to_owned()];
    let mut names: Vec<_> = std::fs::read_dir(&fixtures)
        .expect("fixtures")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "java"))
        .collect();
    names.sort();
    for p in names {
        let rel = format!("fixtures/{}", p.file_name().expect("name").to_string_lossy());
        std::fs::create_dir_all(root.join("fixtures")).expect("mkdir");
        std::fs::copy(&p, root.join(&rel)).expect("copy");
        files.push(rel);
    }
    files
}

/// A Python with pygls: MCP_JAVA_INDEX_PYTHON, else target/venv's (`.ci/run` installs it), else
/// python3; None (a skip, refused under CI) when none has it.
fn python() -> Option<PathBuf> {
    let venv = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/venv/bin/python");
    let python = std::env::var_os("MCP_JAVA_INDEX_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| if venv.is_file() { venv } else { PathBuf::from("python3") });
    let has = Command::new(&python).args(["-c", "import pygls.lsp.client"]).status().is_ok_and(|s| s.success());
    if !has {
        assert!(std::env::var("CI").is_err(), "pygls is missing (run .ci/run)");
        eprintln!("skipping: pygls not installed (run .ci/run)");
        return None;
    }
    Some(python)
}

/// A tool's structured answer through the CLI (`call --json`), as an MCP client gets it.
fn tool(root: &Path, name: &str, args: Value) -> Value {
    let out =
        Command::new(BIN).args(["call", "--json", name, &args.to_string(), "--root"]).arg(root).output().expect("call");
    assert!(out.status.success(), "{name} {args}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("json")
}

/// [`tool`], or None where the tool answers an error (the LSP request then has no answer).
fn try_tool(root: &Path, name: &str, args: Value) -> Option<Value> {
    let out =
        Command::new(BIN).args(["call", "--json", name, &args.to_string(), "--root"]).arg(root).output().expect("call");
    out.status.success().then(|| serde_json::from_slice(&out.stdout).expect("json"))
}

/// call_hierarchy's callers or callees in the workspace, each with its call sites (line, 0-based
/// column), as [`lsp_calls`] reads the LSP's.
fn calls(answer: &Value) -> BTreeSet<(String, Vec<(u64, u64)>)> {
    answer["calls"]
        .as_array()
        .expect("calls")
        .iter()
        .filter(|c| c["file"].is_string())
        .map(|c| {
            let sites = c["sites"].as_array().expect("sites").iter();
            let sites = sites.map(|s| (s["line"].as_u64().expect("l"), s["column"].as_u64().expect("c") - 1));
            (c["member"].as_str().expect("member").to_owned(), sites.collect())
        })
        .collect()
}

/// An `incomingCalls` (`end` "from") or `outgoingCalls` (`end` "to") answer as [`calls`] reads
/// the tool's.
fn lsp_calls(answer: &Value, end: &str) -> BTreeSet<(String, Vec<(u64, u64)>)> {
    answer
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| {
            let ranges = c["fromRanges"].as_array().expect("ranges").iter();
            let sites = ranges
                .map(|r| (r["start"]["line"].as_u64().expect("l") + 1, r["start"]["character"].as_u64().expect("c")));
            (c[end]["data"]["target"].as_str().expect("target").to_owned(), sites.collect())
        })
        .collect()
}

/// A workspace file's path relative to the root, from an LSP URI.
fn rel(root: &Path, uri: &Value) -> String {
    let u = uri.as_str().expect("uri");
    let path = u.strip_prefix("file://").expect("file uri").replace("%20", " ");
    let canonical = root.canonicalize().expect("canonical");
    Path::new(&path).strip_prefix(&canonical).expect("inside the root").to_string_lossy().into_owned()
}

fn line(v: &Value, key: &str) -> u64 {
    v["range"][key]["line"].as_u64().expect("line") + 1
}

/// Every declaration of an outline as (depth, name, first line, last line).
fn outline_decls(t: &TypeDecl, depth: usize, out: &mut BTreeSet<(usize, String, u32, u32)>) {
    out.insert((depth, t.name.clone(), t.start_line, t.end_line));
    for c in t.enum_constants.iter().flatten() {
        out.insert((depth + 1, c.name.clone(), c.start_line, c.end_line));
    }
    for f in &t.fields {
        out.insert((depth + 1, f.name.clone(), f.start_line, f.end_line));
    }
    for c in &t.constructors {
        out.insert((depth + 1, c.name.clone(), c.start_line, c.end_line));
    }
    for m in &t.methods {
        out.insert((depth + 1, m.name.clone(), m.start_line, m.end_line));
    }
    for i in &t.inner_classes {
        outline_decls(i, depth + 1, out);
    }
}

/// Every document symbol as (depth, name, first line, last line), checking each selection
/// range lies inside its range.
fn symbol_decls(s: &Value, depth: usize, out: &mut BTreeSet<(usize, String, u32, u32)>) {
    let (sel, range) = (&s["selectionRange"], &s["range"]);
    assert!(
        sel["start"]["line"].as_u64() >= range["start"]["line"].as_u64()
            && sel["end"]["line"].as_u64() <= range["end"]["line"].as_u64(),
        "selection outside its range: {s}"
    );
    let name = s["name"].as_str().expect("name").to_owned();
    out.insert((depth, name, line(s, "start") as u32, line(s, "end") as u32));
    for c in s["children"].as_array().into_iter().flatten() {
        symbol_decls(c, depth + 1, out);
    }
}

#[test]
fn pygls_client_gets_the_tools_answers_and_applies_the_rename() {
    let Some(python) = python() else { return };
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().join("ws");
    let files = project(&root);
    // A second copy, renamed by refactor_actions itself, for the rename's comparison.
    let twin = dir.path().join("twin");
    project(&twin);

    // `g.greet("you")`: line 6 (0-based 5), the column of `greet`.
    let (at_line, at_char) = (5u32, "        System.out.println(g.".encode_utf16().count() as u32);
    let target = json!({"filePath": "src/com/acme/App.java", "line": at_line + 1, "column": at_char + 1});
    let mut def_args = target.clone();
    def_args["symbol"] = json!("greet");
    let definitions = tool(&root, "show_definition", def_args);
    let mut ref_args = target.clone();
    ref_args["includeDeclaration"] = json!(true);
    let references = tool(&root, "find_references", ref_args);
    let outlines: Vec<(String, FileOutline)> = files
        .iter()
        .map(|f| {
            (f.clone(), serde_json::from_value(tool(&root, "java_index", json!({"filePath": f}))).expect("outline"))
        })
        .collect();
    let found = tool(&root, "java_find_symbol", json!({"query": "Greet", "limit": 200}));
    // `Shape` in `sealed interface Shape` (line 66) and `Circle` in `final class Circle` (line 74).
    let shape = json!({"filePath": "fixtures/interfaces.java", "line": 66, "column": 18});
    let implementations = tool(&root, "find_implementations", shape);
    let circle = json!({"filePath": "fixtures/interfaces.java", "line": 74, "column": 13});
    let mut up = circle.clone();
    up["direction"] = json!("supertypes");
    up["depth"] = json!(1);
    let supertypes = tool(&root, "type_hierarchy", up);
    let key = "com.acme.Greeter#greet(java.lang.String)";
    let incoming = tool(&root, "call_hierarchy", json!({"target": key, "direction": "incoming", "depth": 1}));
    let main = "com.acme.App#main(java.lang.String[])";
    let outgoing = tool(&root, "call_hierarchy", json!({"target": main, "direction": "outgoing", "depth": 1}));
    let mut rename_args = target.clone();
    rename_args["action"] = json!("rename");
    rename_args["newName"] = json!("salute");
    rename_args["apply"] = json!(true);
    tool(&twin, "refactor_actions", rename_args);
    // Then `Greeter` in `Greeter g = …` (line 5) becomes `Salutation`, its file moved.
    let type_rename = json!({"filePath": "src/com/acme/App.java", "line": 5, "column": 9, "action": "rename",
        "newName": "Salutation", "apply": true});
    tool(&twin, "refactor_actions", type_rename);

    let plan = dir.path().join("plan.json");
    let plan_json = json!({
        "open": "src/com/acme/App.java", "at": [at_line, at_char], "symbols": files, "query": "Greet",
        "newName": "salute", "implementation": ["fixtures/interfaces.java", 65, 17],
        "typeHierarchy": ["fixtures/interfaces.java", 73, 12], "callsFrom": ["src/com/acme/App.java", 3, 24], "typeRename": [4, 8, "Salutation"],
        "signatureAt": [at_line, at_char + 7],
    });
    std::fs::write(&plan, plan_json.to_string()).expect("plan");
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/python/lsp_client.py");
    let out = Command::new(&python).arg(script).arg(BIN).arg(&root).arg(&plan).output().expect("python");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "pygls client failed:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let lsp: Value = serde_json::from_str(stdout.trim()).expect("client's json");

    // Honest capabilities: what is served, incremental sync, rename with prepare.
    let caps = &lsp["capabilities"];
    assert_eq!(caps["textDocumentSync"]["change"], 2, "{caps}");
    assert_eq!(caps["renameProvider"]["prepareProvider"], true, "{caps}");
    assert!(caps.get("completionProvider").is_none() && caps.get("documentFormattingProvider").is_none(), "{caps}");

    // definition: show_definition's declarations, at the name.
    let defs = definitions["definitions"].as_array().expect("definitions");
    let lsp_defs = lsp["definition"].as_array().expect("definition");
    assert_eq!(lsp_defs.len(), defs.len(), "{lsp_defs:?} vs {defs:?}");
    for (l, d) in lsp_defs.iter().zip(defs) {
        assert_eq!(rel(&root, &l["uri"]), d["file"].as_str().expect("file"));
        let start = line(l, "start");
        assert!(d["startLine"].as_u64() <= Some(start) && Some(start) <= d["endLine"].as_u64(), "{l} vs {d}");
        assert_eq!(l["range"]["start"]["character"], 18, "at `greet` in `public String greet(`: {l}");
    }

    // references: find_references' (file, line), and its column where the name is written.
    let expected: BTreeSet<(String, u64)> = references["files"]
        .as_array()
        .expect("files")
        .iter()
        .flat_map(|f| {
            let file = f["file"].as_str().expect("file").to_owned();
            f["references"]
                .as_array()
                .expect("refs")
                .iter()
                .map(move |r| (file.clone(), r["line"].as_u64().expect("l")))
        })
        .collect();
    let got: BTreeSet<(String, u64)> =
        lsp["references"].as_array().expect("refs").iter().map(|l| (rel(&root, &l["uri"]), line(l, "start"))).collect();
    assert_eq!(got, expected);
    assert_eq!(got.len(), 3, "the declaration and two calls: {got:?}");
    // The second call is after an astral character: its UTF-16 column is the tool's.
    let second = references["files"]
        .as_array()
        .expect("files")
        .iter()
        .flat_map(|f| f["references"].as_array().expect("refs").iter())
        .find(|r| r["line"] == 7)
        .expect("the call on line 7");
    let lsp_second =
        lsp["references"].as_array().expect("refs").iter().find(|l| line(l, "start") == 7).expect("line 7");
    assert_eq!(lsp_second["range"]["start"]["character"].as_u64(), second["column"].as_u64().map(|c| c - 1));

    // declaration is definition; documentHighlight is find_references' references in the file.
    assert_eq!(lsp["declaration"], lsp["definition"]);
    let in_app: BTreeSet<u64> =
        expected.iter().filter(|(f, _)| f == "src/com/acme/App.java").map(|(_, l)| *l).collect();
    let highlighted: BTreeSet<u64> =
        lsp["highlight"].as_array().expect("highlights").iter().map(|h| line(h, "start")).collect();
    assert_eq!(highlighted, in_app);

    // foldingRange: the outline's declarations over several lines, and its javadocs.
    for (file, outline) in &outlines {
        let mut want = BTreeSet::new();
        let mut stack: Vec<&TypeDecl> = outline.classes.iter().collect();
        let mut fold = |from: u32, to: u32, comment: bool| {
            if to > from {
                want.insert((from - 1, to - 1, comment));
            }
        };
        while let Some(t) = stack.pop() {
            fold(t.start_line, t.end_line, false);
            let docs = std::iter::once(&t.javadoc)
                .chain(t.methods.iter().map(|m| &m.javadoc))
                .chain(t.constructors.iter().map(|c| &c.javadoc))
                .chain(t.fields.iter().map(|f| &f.javadoc));
            for j in docs {
                if let (Some(a), Some(b)) = (j.start_line, j.end_line) {
                    fold(a, b, true);
                }
            }
            for (a, b) in t.methods.iter().map(|m| (m.start_line, m.end_line)) {
                fold(a, b, false);
            }
            for (a, b) in t.constructors.iter().map(|c| (c.start_line, c.end_line)) {
                fold(a, b, false);
            }
            stack.extend(t.inner_classes.iter());
        }
        let have: BTreeSet<(u32, u32, bool)> = lsp["folding"][file]
            .as_array()
            .expect("folding ranges")
            .iter()
            .map(|r| {
                let n = |k: &str| r[k].as_u64().expect("line") as u32;
                (n("startLine"), n("endLine"), r["kind"] == "comment")
            })
            .collect();
        assert_eq!(have, want, "{file}");
    }

    // documentSymbol: java_index's outline, every declaration at its lines and depth.
    for (file, outline) in &outlines {
        let mut want = BTreeSet::new();
        for t in &outline.classes {
            outline_decls(t, 0, &mut want);
        }
        let mut have = BTreeSet::new();
        for s in lsp["documentSymbol"][file].as_array().into_iter().flatten() {
            symbol_decls(s, 0, &mut have);
        }
        assert_eq!(have, want, "{file}");
    }

    // workspace/symbol: java_find_symbol's workspace matches.
    let want: BTreeSet<String> = found["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["qualifiedName"].as_str().expect("name").split('(').next().unwrap_or_default().to_owned())
        .collect();
    let have: BTreeSet<String> = lsp["workspaceSymbol"]
        .as_array()
        .expect("symbols")
        .iter()
        .map(|s| {
            let (c, n) = (s["containerName"].as_str().unwrap_or_default(), s["name"].as_str().expect("name"));
            if s["kind"] == 5 { format!("{c}.{n}") } else { format!("{c}#{n}") }
        })
        .collect();
    assert_eq!(have, want);

    // signatureHelp inside `g.greet("you")`'s argument: show_definition's signature, its one
    // parameter active.
    let help = &lsp["signatureHelp"];
    assert_eq!(help["signatures"][0]["label"], defs[0]["signature"], "{help}");
    assert_eq!(help["signatures"][0]["parameters"], json!([{"label": "String who"}]), "{help}");
    assert_eq!(help["activeParameter"], 0, "{help}");

    // hover: the signature and the whole javadoc as Markdown.
    let hover = lsp["hover"]["contents"]["value"].as_str().expect("hover");
    let signature = defs[0]["signature"].as_str().expect("signature");
    assert!(hover.starts_with(&format!("```java\n{signature}\n```")), "{hover}");
    assert!(hover.contains("Says hello to `who`.") && hover.contains("*@param* `who` the one greeted"), "{hover}");

    // implementation: find_implementations' types, at their names.
    let want: BTreeSet<(String, u64)> = implementations["implementations"]
        .as_array()
        .expect("implementations")
        .iter()
        .map(|i| (i["file"].as_str().expect("file").to_owned(), i["line"].as_u64().expect("line")))
        .collect();
    let have: BTreeSet<(String, u64)> = lsp["implementation"]
        .as_array()
        .expect("impls")
        .iter()
        .map(|l| (rel(&root, &l["uri"]), line(l, "start")))
        .collect();
    assert_eq!(have, want);
    assert_eq!(have.len(), 4, "Circle, Square, Polygon, Triangle: {have:?}");

    // The type hierarchy: type_hierarchy's root and its direct supertypes; Circle is final.
    assert_eq!(lsp["typeHierarchy"][0]["data"]["target"], supertypes["root"]["fqn"]);
    let want: BTreeSet<&str> = supertypes["types"]
        .as_array()
        .expect("types")
        .iter()
        .filter(|t| t["depth"] == 1 && t["file"].is_string())
        .filter_map(|t| t["fqn"].as_str())
        .collect();
    let have: BTreeSet<&str> =
        lsp["supertypes"].as_array().expect("supertypes").iter().filter_map(|t| t["data"]["target"].as_str()).collect();
    assert_eq!(have, want);
    assert!(have.contains("com.example.outline.interfaces.Shape"), "{have:?}");
    assert_eq!(lsp["subtypes"], json!([]));

    // The call hierarchy: call_hierarchy's callers and callees (those in the workspace) and
    // their call sites.
    assert_eq!(lsp["callHierarchy"][0]["data"]["target"], key);
    assert_eq!(lsp_calls(&lsp["incomingCalls"], "from"), calls(&incoming));
    assert_eq!(lsp_calls(&lsp["outgoingCalls"], "to"), calls(&outgoing));
    assert_eq!(calls(&outgoing).len(), 2, "the constructor and greet: {outgoing}");

    // rename: the client's application of the WorkspaceEdit writes what refactor_actions writes.
    assert_eq!(lsp["prepareRename"]["placeholder"], "greet");
    assert!(lsp["rename"]["documentChanges"].as_array().is_some_and(|c| c.len() == 2), "{}", lsp["rename"]);
    let applied: Vec<&str> =
        lsp["applied"].as_array().expect("applied").iter().filter_map(|a| a["edited"].as_str()).collect();
    assert_eq!(applied.len(), 2, "{applied:?}");
    // The type's rename, applied by the client with its file's move, then both renames: the
    // files are byte for byte refactor_actions' own, and Greeter.java is gone in both.
    let ops = lsp["typeRename"]["documentChanges"].as_array().expect("changes");
    assert!(ops.iter().any(|o| o["kind"] == "rename"), "a RenameFile: {ops:?}");
    for f in ["src/com/acme/App.java", "src/com/acme/Salutation.java"] {
        let (a, b) = (std::fs::read_to_string(root.join(f)), std::fs::read_to_string(twin.join(f)));
        assert_eq!(a.expect("read"), b.expect("read twin"), "{f}");
    }
    assert!(!root.join("src/com/acme/Greeter.java").exists() && !twin.join("src/com/acme/Greeter.java").exists());
    let app = std::fs::read_to_string(root.join("src/com/acme/App.java")).expect("read");
    assert!(app.contains("Salutation g = new Salutation(") && app.contains("g.salute(\"me\")"), "{app}");
    // After didSave and didChangeWatchedFiles, references follow the new name.
    let after: BTreeSet<(String, u64, u64)> = lsp["referencesAfter"]
        .as_array()
        .expect("refs")
        .iter()
        .map(|l| (rel(&root, &l["uri"]), line(l, "start"), l["range"]["end"]["character"].as_u64().expect("end")))
        .collect();
    let lines: BTreeSet<(String, u64)> = after.iter().map(|(f, l, _)| (f.clone(), *l)).collect();
    assert_eq!(lines, expected);
    // Syntax diagnostics after each change: get_problems' syntax problems of the same text.
    assert_eq!(lsp["openDiagnostics"]["diagnostics"], json!([]), "{}", lsp["openDiagnostics"]);
    std::fs::write(root.join("Broken.java"), lsp["brokenText"].as_str().expect("broken text")).expect("write");
    let problems = tool(&root, "get_problems", json!({"filePath": "Broken.java", "sourceFilter": ["syntax"]}));
    let want: BTreeSet<(u64, u64, u64, u64, String, String)> = problems["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            let (s, e) = (&d["range"]["start"], &d["range"]["end"]);
            let n = |v: &Value| v.as_u64().expect("number");
            let code = d["code"].as_str().expect("code").to_owned();
            (
                n(&s["line"]),
                n(&s["column"]),
                n(&e["line"]),
                n(&e["column"]),
                code,
                d["message"].as_str().expect("m").to_owned(),
            )
        })
        .collect();
    let have: BTreeSet<(u64, u64, u64, u64, String, String)> = lsp["brokenDiagnostics"]["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            let (s, e) = (&d["range"]["start"], &d["range"]["end"]);
            let n = |v: &Value| v.as_u64().expect("number") + 1;
            let code = d["code"].as_str().expect("code").to_owned();
            let message = d["message"].as_str().expect("m").to_owned();
            (n(&s["line"]), n(&s["character"]), n(&e["line"]), n(&e["character"]), code, message)
        })
        .collect();
    assert_eq!(have, want);
    assert!(have.iter().any(|d| d.4 == "syntax.lexical"), "the unclosed brace: {have:?}");
    assert_eq!(lsp["fixedDiagnostics"]["diagnostics"], json!([]), "{}", lsp["fixedDiagnostics"]);
    eprintln!(
        "lsp: syntax diagnostics {} ms and {} ms after a change",
        lsp["brokenDiagnostics"]["ms"], lsp["fixedDiagnostics"]["ms"]
    );

    // An unsaved buffer is not renamed from the saved file's positions.
    assert!(lsp["dirtyRename"].as_str().is_some_and(|e| e.contains("unsaved changes")), "{}", lsp["dirtyRename"]);
}

/// One LSP message on a stream: its `Content-Length` header, then the JSON.
fn frame(v: &Value) -> Vec<u8> {
    let body = v.to_string();
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

/// The next LSP message of a stream, None at its end.
fn next_message(r: &mut impl std::io::BufRead) -> Option<Value> {
    let mut len = 0usize;
    loop {
        let mut header = String::new();
        if r.read_line(&mut header).ok()? == 0 {
            return None;
        }
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some(n) = header.strip_prefix("Content-Length: ") {
            len = n.parse().ok()?;
        }
    }
    let mut body = vec![0; len];
    r.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

/// A client that shows work-done progress sees the first indexing pass: `begin`, reports
/// whose percentage never goes back, then `end` with the files indexed.
#[test]
fn the_first_indexing_pass_is_reported_as_work_done_progress() {
    use std::io::Write;
    let dir = tempfile::tempdir().expect("tempdir");
    for i in 0..3000 {
        write(
            dir.path(),
            &format!("p{}/C{i}.java", i % 30),
            &format!("package p{};\nclass C{i} {{ void m() {{}} }}\n", i % 30),
        );
    }
    let mut child = Command::new(BIN)
        .args(["lsp", "--no-cache", "--root"])
        .arg(dir.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    // Read on a thread of its own, so a server that never reports fails the test in time.
    let mut stdout = std::io::BufReader::new(child.stdout.take().expect("stdout"));
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        while let Some(m) = next_message(&mut stdout) {
            if tx.send(m).is_err() {
                break;
            }
        }
    });
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"capabilities": {"window": {"workDoneProgress": true}}}});
    stdin.write_all(&frame(&init)).expect("write");
    stdin.write_all(&frame(&json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}))).expect("write");
    stdin.flush().expect("flush");
    let mut kinds: Vec<(String, Option<u64>)> = Vec::new();
    let mut created = false;
    while let Ok(m) = rx.recv_timeout(std::time::Duration::from_secs(60)) {
        if m["method"] == "window/workDoneProgress/create" {
            created = true;
            stdin.write_all(&frame(&json!({"jsonrpc": "2.0", "id": m["id"], "result": null}))).expect("write");
        } else if m["method"] == "$/progress" {
            let v = &m["params"]["value"];
            kinds.push((v["kind"].as_str().expect("kind").to_owned(), v["percentage"].as_u64()));
            if v["kind"] == "end" {
                assert_eq!(v["message"], "indexed 3000 Java files", "{m}");
                break;
            }
        }
    }
    stdin.write_all(&frame(&json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))).expect("write");
    stdin.write_all(&frame(&json!({"jsonrpc": "2.0", "method": "exit"}))).expect("write");
    drop(stdin);
    assert!(child.wait().expect("wait").success());
    assert!(created, "the token is created first");
    assert_eq!(kinds.first().map(|k| k.0.as_str()), Some("begin"), "{kinds:?}");
    assert_eq!(kinds.last().map(|k| k.0.as_str()), Some("end"), "{kinds:?}");
    let percentages: Vec<u64> = kinds.iter().filter_map(|k| k.1).collect();
    assert!(percentages.windows(2).all(|w| w[0] <= w[1]), "{percentages:?}");
}

/// Neovim's own LSP client (Debian's `neovim`, headless, `tests/lua/lsp_client.lua`) against the
/// real binary: definition, references, hover and document symbols at a call, equal to the tools'
/// answers on the same target. Skipped without `nvim` (refused under CI: `.ci/run` installs it).
#[test]
fn neovim_s_client_gets_the_tools_answers() {
    if Command::new("nvim").arg("--version").output().is_err() {
        assert!(std::env::var("CI").is_err(), "nvim is missing (run .ci/run)");
        eprintln!("skipping: nvim not installed (run .ci/run)");
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().canonicalize().expect("canonical");
    write(&root, "src/com/acme/Greeter.java", GREETER);
    write(&root, "src/com/acme/App.java", APP);
    // The first call of `greet` in App (0-based line and UTF-16 column, all ASCII before it).
    let (line_no, text) = APP.lines().enumerate().find(|(_, l)| l.contains("g.greet(\"you\")")).expect("the call");
    let col = text.find("greet").expect("greet");
    let out = root.join("nvim-out.json");
    let lua = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/lua/lsp_client.lua");
    let status = Command::new("nvim")
        .args(["--headless", "-u", "NONE", "-i", "NONE", "-n", "-c"])
        .arg(format!("luafile {}", lua.display()))
        .env("MJI_BIN", BIN)
        .env("MJI_ROOT", &root)
        .env("MJI_FILE", "src/com/acme/App.java")
        .env("MJI_LINE", line_no.to_string())
        .env("MJI_COL", col.to_string())
        .env("MJI_OUT", &out)
        .env("XDG_STATE_HOME", root.join(".nvim-state"))
        .env("XDG_DATA_HOME", root.join(".nvim-data"))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("nvim");
    let got: Value = serde_json::from_slice(&std::fs::read(&out).unwrap_or_default())
        .unwrap_or_else(|e| panic!("no answer from nvim ({e}): {}", String::from_utf8_lossy(&status.stderr)));
    assert!(got.get("error").is_none(), "{got:#}");
    // definition: Greeter#greet's declaration, where show_definition puts it.
    let def = &got["definition"]["result"];
    let def = if def.is_array() { &def[0] } else { def };
    let want = tool(
        &root,
        "show_definition",
        json!({"filePath": "src/com/acme/App.java", "line": line_no + 1, "column": col + 1, "symbol": "greet"}),
    );
    let d = &want["definitions"][0];
    assert_eq!(rel(&root, &def["uri"]), d["file"].as_str().expect("file"), "{got:#}");
    let start = line(def, "start");
    assert!(d["startLine"].as_u64() <= Some(start) && Some(start) <= d["endLine"].as_u64(), "{got:#}\n{want:#}");
    // references: find_references' answer, line for line.
    let refs = got["references"]["result"].as_array().expect("references");
    let mut lines: Vec<(String, u64)> = refs.iter().map(|r| (rel(&root, &r["uri"]), line(r, "start"))).collect();
    lines.sort();
    let fr = tool(&root, "find_references", json!({"target": "com.acme.Greeter#greet(String)"}));
    let mut want: Vec<(String, u64)> = fr["files"]
        .as_array()
        .expect("files")
        .iter()
        .flat_map(|f| {
            f["references"]
                .as_array()
                .into_iter()
                .flatten()
                .map(move |r| (f["file"].as_str().unwrap_or("").to_owned(), r["line"].as_u64().unwrap_or(0)))
        })
        .collect();
    want.sort();
    assert_eq!(lines, want, "{got:#}");
    assert_eq!(lines.len(), 2);
    // hover: the signature and the javadoc.
    let hover = got["hover"]["result"]["contents"].to_string();
    assert!(hover.contains("greet(String who)") && hover.contains("Says hello"), "{hover}");
    // documentSymbol: App and its main.
    let symbols = got["symbols"]["result"].to_string();
    assert!(symbols.contains("\"App\"") && symbols.contains("main"), "{symbols}");
}

/// Runs `tests/python/lsp_session.py`'s steps (pygls' client) against the binary on `root`.
fn session(python: &Path, root: &Path, steps: Value) -> Value {
    session_env(python, root, steps, &[])
}

/// [`session`] with the server's environment set too.
fn session_env(python: &Path, root: &Path, steps: Value, env: &[(&str, &str)]) -> Value {
    let plan = root.join(".session.json");
    std::fs::write(&plan, steps.to_string()).expect("steps");
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/python/lsp_session.py");
    let mut cmd = Command::new(python);
    cmd.arg(script).arg(BIN).arg(root).arg(&plan);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("python");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "pygls client failed:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    std::fs::remove_file(&plan).expect("remove the steps");
    serde_json::from_str(stdout.trim()).expect("client's json")
}

/// The 0-based UTF-16 column of `word` on the 0-based line `line` of `text`.
fn col_of(text: &str, line: usize, word: &str) -> u32 {
    let l = text.lines().nth(line).expect("line");
    l[..l.find(word).expect("word")].encode_utf16().count() as u32
}

/// Unsaved buffers are what the answers show: two buffers edited by incremental changes (lines
/// added above, a method added), then the outline, folding, definition, hover and references at
/// positions in the edited text are the buffer's (the outline `java_index`'s on that text,
/// cross-file answers from the saved files moved to the lines the buffers show them at); a name
/// typed since the save has no answer (the tools have not seen it) until it is saved.
#[test]
fn unsaved_buffers_are_what_the_answers_show() {
    let Some(python) = python() else { return };
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().join("ws");
    write(&root, "src/com/acme/Greeter.java", GREETER);
    write(&root, "src/com/acme/App.java", APP);
    let (app, greeter) = ("src/com/acme/App.java", "src/com/acme/Greeter.java");
    let extra = "    static int extra() {\n        return 1;\n    }\n";
    // App: two lines above everything, then a method before `main` (after `public class App {`).
    let mut buffer = format!("// one\n// two\n{APP}");
    let class_line = buffer.lines().position(|l| l.starts_with("public class App")).expect("class") + 1;
    let offset: usize = buffer.lines().take(class_line).map(|l| l.len() + 1).sum();
    buffer.insert_str(offset, extra);
    let call = buffer.lines().position(|l| l.contains("g.greet(\"you\")")).expect("the call");
    let greet = col_of(&buffer, call, "greet");
    let typed = class_line;
    let steps = |then: Vec<Value>| {
        let mut s = vec![
            json!({"open": app}),
            json!({"change": app, "version": 2, "edits": [[0, 0, 0, 0, "// one\n// two\n"]]}),
            json!({"change": app, "version": 3, "edits": [[class_line, 0, class_line, 0, extra]]}),
            // Greeter: one line above everything.
            json!({"open": greeter}),
            json!({"change": greeter, "version": 2, "edits": [[0, 0, 0, 0, "// top\n"]]}),
        ];
        s.extend(then);
        json!(s)
    };
    let got = session(
        &python,
        &root,
        steps(vec![
            json!({"ask": "documentSymbol", "file": app, "key": "symbols"}),
            json!({"ask": "foldingRange", "file": app, "key": "folding"}),
            json!({"ask": "definition", "file": app, "at": [call, greet], "key": "definition"}),
            json!({"ask": "hover", "file": app, "at": [call, greet], "key": "hover"}),
            json!({"ask": "references", "file": app, "at": [call, greet], "key": "references"}),
            json!({"ask": "selectionRange", "file": app, "at": [call, greet], "key": "selection"}),
            json!({"ask": "definition", "file": app, "at": [typed, 16], "key": "typed"}),
            json!({"diagnostics": app, "version": 3, "key": "diagnostics"}),
            // Saved: the method is the tools' too.
            json!({"write": app, "text": buffer}),
            json!({"save": app}),
            json!({"ask": "definition", "file": app, "at": [typed, 16], "key": "saved"}),
        ]),
    );

    // The outline: java_index's on the buffer's text (a twin file holding it).
    let twin = dir.path().join("twin");
    write(&twin, app, &buffer);
    let outline: FileOutline =
        serde_json::from_value(tool(&twin, "java_index", json!({"filePath": app}))).expect("outline");
    let mut want = BTreeSet::new();
    for t in &outline.classes {
        outline_decls(t, 0, &mut want);
    }
    let mut have = BTreeSet::new();
    for s in got["symbols"].as_array().expect("symbols") {
        symbol_decls(s, 0, &mut have);
    }
    assert_eq!(have, want, "{}", got["symbols"]);
    assert!(have.iter().any(|d| d.1 == "extra" && d.2 as usize == typed + 1), "{have:?}");
    let main = outline.classes[0].methods.iter().find(|m| m.name == "main").expect("main");
    let folds: Vec<(u64, u64)> = got["folding"]
        .as_array()
        .expect("folds")
        .iter()
        .map(|f| (f["startLine"].as_u64().expect("s"), f["endLine"].as_u64().expect("e")))
        .collect();
    assert!(folds.contains(&(u64::from(main.start_line) - 1, u64::from(main.end_line) - 1)), "{folds:?}");

    // selectionRange at the call: `greet`, then main, then App, then the file (the buffer's).
    let mut chain = Vec::new();
    let mut at = &got["selection"][0];
    while at.is_object() {
        chain
            .push((at["range"]["start"]["line"].as_u64().expect("l"), at["range"]["end"]["line"].as_u64().expect("l")));
        at = &at["parent"];
    }
    let app_type = &outline.classes[0];
    let lines = buffer.lines().count() as u64;
    let want = vec![
        (call as u64, call as u64),
        (u64::from(main.start_line) - 1, u64::from(main.end_line) - 1),
        (u64::from(app_type.start_line) - 1, u64::from(app_type.end_line) - 1),
        (0, lines),
    ];
    assert_eq!(chain, want, "{}", got["selection"]);
    // Definition and hover at a call the edits moved: Greeter#greet, on the line its own buffer
    // shows it (one below the saved file's).
    let def = &got["definition"][0];
    assert_eq!(rel(&root, &def["uri"]), greeter, "{}", got["definition"]);
    let greeter_buffer = format!("// top\n{GREETER}");
    let decl = greeter_buffer.lines().position(|l| l.contains("public String greet(")).expect("greet");
    assert_eq!(def["range"]["start"], json!({"line": decl, "character": 18}), "{def}");
    let hover = got["hover"]["contents"]["value"].as_str().expect("hover");
    assert!(hover.starts_with("```java\n") && hover.contains("greet(String who)"), "{hover}");
    // References: find_references' on the saved files, each at the line its buffer shows.
    let have: BTreeSet<(String, u64, u64)> = got["references"]
        .as_array()
        .expect("refs")
        .iter()
        .map(|l| {
            let s = &l["range"]["start"];
            (rel(&root, &l["uri"]), s["line"].as_u64().expect("l"), s["character"].as_u64().expect("c"))
        })
        .collect();
    let second = buffer.lines().position(|l| l.contains("g.greet(\"me\")")).expect("second call");
    let want: BTreeSet<(String, u64, u64)> = [
        (app.to_owned(), call as u64, u64::from(greet)),
        (app.to_owned(), second as u64, u64::from(col_of(&buffer, second, "greet"))),
        (greeter.to_owned(), decl as u64, 18),
    ]
    .into();
    assert_eq!(have, want);
    // A name typed since the save: nothing (not a guess from the saved file's line there).
    assert_eq!(got["typed"], Value::Null, "{}", got["typed"]);
    assert_eq!(got["diagnostics"], json!([]), "the buffer parses: {}", got["diagnostics"]);
    // Once saved, it is the tools' too: `extra` at its name.
    let saved = &got["saved"][0];
    assert_eq!(rel(&root, &saved["uri"]), app, "{}", got["saved"]);
    assert_eq!(saved["range"]["start"], json!({"line": typed, "character": 15}), "{saved}");
}

/// A closed buffer is no longer what the answers show: its unsaved lines no longer move the
/// positions answered in its file, and its diagnostics are cleared (an empty publication).
#[test]
fn a_closed_buffer_is_the_saved_file_again() {
    let Some(python) = python() else { return };
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().join("ws");
    write(&root, "src/com/acme/Greeter.java", GREETER);
    write(&root, "src/com/acme/App.java", APP);
    let (app, greeter) = ("src/com/acme/App.java", "src/com/acme/Greeter.java");
    let call = APP.lines().position(|l| l.contains("g.greet(\"you\")")).expect("the call");
    let at = json!([call, col_of(APP, call, "greet")]);
    let got = session(
        &python,
        &root,
        json!([
            {"open": greeter},
            {"change": greeter, "version": 2, "edits": [[0, 0, 0, 0, "// top\n"]]},
            {"ask": "definition", "file": app, "at": at, "key": "open"},
            {"change": greeter, "version": 3, "edits": [[0, 0, 0, 0, "{"]]},
            {"diagnostics": greeter, "version": 3, "key": "broken"},
            {"close": greeter},
            {"ask": "definition", "file": app, "at": at, "key": "closed"},
            // The last publication for the file (the clear is sent before the answer above).
            {"diagnostics": greeter, "version": null, "key": "cleared"},
        ]),
    );
    let decl = GREETER.lines().position(|l| l.contains("public String greet(")).expect("greet") as u64;
    assert_eq!(got["open"][0]["range"]["start"]["line"], json!(decl + 1), "{}", got["open"]);
    assert_eq!(got["closed"][0]["range"]["start"]["line"], json!(decl), "{}", got["closed"]);
    assert!(got["broken"].as_array().is_some_and(|d| !d.is_empty()), "{}", got["broken"]);
    assert_eq!(got["cleared"], json!([]), "{}", got["cleared"]);
}

const CALC: &str = "package com.acme;

import java.util.List;

public class Calc {
    public int area(int w, int h) {
        return w * h + 1;
    }
}
";

/// javac on `files` under `root` into a temporary directory: its errors, or None without javac
/// (refused under CI).
fn javac_errors(root: &Path, files: &[&str]) -> Option<String> {
    let out = tempfile::tempdir().expect("tempdir");
    let run = Command::new("javac").arg("-d").arg(out.path()).args(files).current_dir(root).output();
    match run {
        Ok(o) => Some(String::from_utf8_lossy(&o.stderr).into_owned()).filter(|_| !o.status.success()),
        Err(_) => {
            assert!(std::env::var("CI").is_err(), "javac is missing");
            eprintln!("skipping the compile: no javac");
            None
        }
    }
}

/// Code actions: the quick fix `get_problems` offers for an unused import (with the client's
/// diagnostic it fixes) and an extraction at a selected expression, each resolved and applied by
/// pygls' client; the file is then byte for byte what `refactor_actions` writes on a twin copy
/// (the same fix, the same extraction) and compiles with javac.
#[test]
fn code_actions_are_the_tools_fixes_and_refactorings_applied_by_the_client() {
    let Some(python) = python() else { return };
    let dir = tempfile::tempdir().expect("tempdir");
    let (root, twin) = (dir.path().join("ws"), dir.path().join("twin"));
    let calc = "src/com/acme/Calc.java";
    write(&root, calc, CALC);
    write(&twin, calc, CALC);
    let import = CALC.lines().position(|l| l.starts_with("import")).expect("import") as u32;
    let ret = CALC.lines().position(|l| l.contains("return w * h")).expect("return");
    let (from, to) = (col_of(CALC, ret, "w * h"), col_of(CALC, ret, " + 1"));
    let got = session(
        &python,
        &root,
        json!([
            {"open": calc},
            {"diagnostics": calc, "version": 1, "key": "diagnostics"},
            {"ask": "codeAction", "file": calc, "range": [import, 0, import, 0], "key": "atImport"},
            {"apply": "atImport", "kind": "quickfix"},
            // The import is gone: the return is one line up.
            {"ask": "codeAction", "file": calc, "range": [ret - 1, from, ret - 1, to], "only": ["refactor.extract"],
             "key": "atExpression"},
            {"apply": "atExpression", "title": "Extract to local variable"},
        ]),
    );
    // The quick fix: get_problems' fix of the unused import, with the diagnostic it fixes.
    let problems = tool(&twin, "get_problems", json!({"filePath": calc, "sourceFilter": ["syntax"]}));
    let unused = problems["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .find(|d| d["code"] == "hint.unused.import")
        .expect("the unused import")
        .clone();
    let fix = &unused["fixes"][0];
    let actions = got["atImport"].as_array().expect("actions");
    let quick = actions.iter().find(|a| a["kind"] == "quickfix").expect("a quick fix");
    assert_eq!(quick["title"], fix["title"], "{quick}");
    assert_eq!(quick["diagnostics"][0]["code"], "hint.unused.import", "{quick}");
    assert!(quick.get("edit").is_none(), "resolved when chosen: {quick}");
    assert!(
        actions.iter().any(|a| a["kind"] == "source.organizeImports" && a["title"] == "Organize imports"),
        "{actions:?}"
    );
    assert!(got["atImport/applied"].as_array().is_some_and(|a| a.len() == 1), "{}", got["atImport/applied"]);
    // The extraction: offered at the selection, applied.
    let kinds: BTreeSet<&str> =
        got["atExpression"].as_array().expect("actions").iter().filter_map(|a| a["kind"].as_str()).collect();
    assert_eq!(kinds, BTreeSet::from(["refactor.extract"]), "only what was asked: {}", got["atExpression"]);
    assert!(got["atExpression/applied"].as_array().is_some_and(|a| a.len() == 1), "{}", got["atExpression/applied"]);

    // The tools on the twin: the same fix, the same extraction.
    tool(&twin, "refactor_actions", json!({"action": "quick_fix", "fixId": fix["fixId"], "apply": true}));
    tool(
        &twin,
        "refactor_actions",
        json!({"action": "extract_variable", "filePath": calc, "line": ret, "column": from + 1,
            "endLine": ret, "endColumn": to + 1, "apply": true}),
    );
    let (a, b) = (std::fs::read_to_string(root.join(calc)), std::fs::read_to_string(twin.join(calc)));
    let (a, b) = (a.expect("read"), b.expect("read twin"));
    assert_eq!(a, b);
    assert!(!a.contains("import java.util.List;") && !a.contains("return w * h + 1;"), "{a}");
    assert_eq!(javac_errors(&root, &[calc]), None, "{a}");
}

const POINT: &str = "package com.acme;

public class Point {
    private final int x;
    private final int y;

    public Point(int x, int y) {
        this.x = x;
        this.y = y;
    }

    public int sum() {
        int s = x + y;
        return s * 2;
    }
}
";

/// The other refactorings a code action offers, applied by the client: an inline (of a local,
/// at its name) and a generation (`toString()`, on the class's line) write what
/// `refactor_actions` and `source_actions` write, and the result compiles.
#[test]
fn inline_and_generate_actions_write_what_the_tools_write() {
    let Some(python) = python() else { return };
    let dir = tempfile::tempdir().expect("tempdir");
    let (root, twin) = (dir.path().join("ws"), dir.path().join("twin"));
    let point = "src/com/acme/Point.java";
    write(&root, point, POINT);
    write(&twin, point, POINT);
    let local = POINT.lines().position(|l| l.contains("int s = x + y;")).expect("the local") as u32;
    let s_col = col_of(POINT, local as usize, "s =");
    let class = POINT.lines().position(|l| l.starts_with("public class Point")).expect("the class") as u32;
    let got = session(
        &python,
        &root,
        json!([
            {"open": point},
            {"ask": "codeAction", "file": point, "range": [local, s_col, local, s_col], "only": ["refactor.inline"],
             "key": "inline"},
            {"apply": "inline", "kind": "refactor.inline"},
            {"ask": "codeAction", "file": point, "range": [class, 0, class, 0], "only": ["source.generate"],
             "key": "generate"},
            {"apply": "generate", "title": "Generate toString()"},
        ]),
    );
    let titles: BTreeSet<&str> =
        got["generate"].as_array().expect("actions").iter().filter_map(|a| a["title"].as_str()).collect();
    assert!(
        titles.contains("Generate toString()") && titles.contains("Generate equals() and hashCode()"),
        "{titles:?}"
    );
    assert!(got["inline/applied"].as_array().is_some_and(|a| a.len() == 1), "{}", got["inline/applied"]);
    assert!(got["generate/applied"].as_array().is_some_and(|a| a.len() == 1), "{}", got["generate/applied"]);

    tool(
        &twin,
        "refactor_actions",
        json!({"action": "inline", "filePath": point, "line": local + 1, "column": s_col + 1, "apply": true}),
    );
    tool(&twin, "source_actions", json!({"action": "to_string", "filePath": point, "line": class + 1, "apply": true}));
    let (a, b) = (std::fs::read_to_string(root.join(point)), std::fs::read_to_string(twin.join(point)));
    let (a, b) = (a.expect("read"), b.expect("read twin"));
    assert_eq!(a, b);
    assert!(!a.contains("int s =") && a.contains("return (x + y) * 2;") && a.contains("String toString()"), "{a}");
    assert_eq!(javac_errors(&root, &[point]), None, "{a}");
}

const GEO: &str = "package com.acme;

public class Geo {
    public static int area(int a, int b, int c) {
        return a * c;
    }

    static int twice(int x) {
        return 2 * x;
    }
}
";

const GEO_USE: &str = "package com.acme;

class Use {
    int f() {
        return Geo.area(1, 2, 3) + Geo.area(4, 5, 6);
    }
}
";

/// Change signature and move as code actions: on a method's parameter list, a parameter's
/// removal and its moves left and right (none inside the body); the removal applied by the
/// client writes what `refactor_actions` writes for the same call (declaration and calls) and
/// compiles; on the type's name, moves to the parent and sibling packages, one resolved to an
/// edit that moves the file; on a static method's name, moves to the other classes of its
/// package, one resolved; `mcp-java-index.refactor` answers refactor_actions' own call as a
/// WorkspaceEdit.
#[test]
fn change_signature_and_move_actions_are_the_tools() {
    let Some(python) = python() else { return };
    let dir = tempfile::tempdir().expect("tempdir");
    let (root, twin) = (dir.path().join("ws"), dir.path().join("twin"));
    let (geo, user, tool_file) = ("src/com/acme/Geo.java", "src/com/acme/Use.java", "src/com/util/Tool.java");
    for d in [&root, &twin] {
        write(d, geo, GEO);
        write(d, user, GEO_USE);
        write(d, tool_file, "package com.util;\n\npublic class Tool {\n}\n");
    }
    let decl = GEO.lines().position(|l| l.contains("int area(")).expect("area") as u32;
    let b = col_of(GEO, decl as usize, "int b");
    let body = decl + 1;
    let class = GEO.lines().position(|l| l.starts_with("public class Geo")).expect("class") as u32;
    let g = col_of(GEO, class as usize, "Geo");
    // The method's line after the removal: unchanged (the declaration stays on one line).
    let twice = GEO.lines().position(|l| l.contains("int twice(")).expect("twice") as u32;
    let t = col_of(GEO, twice as usize, "twice");
    let got = session(
        &python,
        &root,
        json!([
            {"open": geo},
            {"ask": "codeAction", "file": geo, "range": [decl, b, decl, b], "only": ["refactor.rewrite"], "key": "sig"},
            {"ask": "codeAction", "file": geo, "range": [body, 9, body, 9], "only": ["refactor.rewrite"], "key": "body"},
            {"apply": "sig", "title": "Change signature: remove parameter `b`"},
            {"ask": "codeAction", "file": geo, "range": [class, g, class, g], "only": ["refactor"], "key": "move"},
            {"ask": "codeActionResolve", "action": "move", "title": "Move `Geo` to package `com.util`", "key": "moved"},
            {"ask": "codeAction", "file": geo, "range": [twice, t, twice, t], "only": ["refactor"], "key": "member"},
            {"ask": "codeActionResolve", "action": "member", "title": "Move `twice` to `com.acme.Use`", "key": "memberMoved"},
            {"ask": "executeCommand", "command": "mcp-java-index.refactor", "key": "command",
             "arguments": [{"action": "change_signature", "filePath": geo, "line": decl + 1, "column": 23,
                 "parameters": [{"from": 1}, {"from": 0}]}]},
            {"ask": "executeCommand", "command": "mcp-java-index.refactor", "key": "refused",
             "arguments": [{"action": "move", "filePath": geo, "line": class + 1, "column": g + 1}]},
        ]),
    );
    let titles = |key: &str| -> BTreeSet<String> {
        got[key].as_array().expect(key).iter().filter_map(|a| a["title"].as_str().map(str::to_owned)).collect()
    };
    let sig = titles("sig");
    for want in [
        "Change signature: remove parameter `a`",
        "Change signature: remove parameter `b`",
        "Change signature: move `b` left",
        "Change signature: move `b` right",
        "Change signature: move `a` right",
    ] {
        assert!(sig.contains(want), "{want}: {sig:?}");
    }
    assert!(!sig.contains("Change signature: move `a` left"), "{sig:?}");
    assert!(!titles("body").iter().any(|t| t.starts_with("Change signature")), "{}", got["body"]);
    assert!(got["sig/applied"].as_array().is_some_and(|a| a.len() == 2), "{}", got["sig/applied"]);

    // The same call on the twin: the same files.
    tool(
        &twin,
        "refactor_actions",
        json!({"action": "change_signature", "filePath": geo, "line": decl + 1, "column": col_of(GEO, decl as usize, "area") + 1,
            "parameters": [{"from": 0}, {"from": 2}], "apply": true}),
    );
    for f in [geo, user] {
        let (a, b) = (std::fs::read_to_string(root.join(f)), std::fs::read_to_string(twin.join(f)));
        assert_eq!(a.expect("read"), b.expect("read twin"), "{f}");
    }
    let applied = std::fs::read_to_string(root.join(user)).expect("read");
    assert!(applied.contains("Geo.area(1, 3) + Geo.area(4, 6)"), "{applied}");
    assert_eq!(javac_errors(&root, &[geo, user, tool_file]), None);

    // Move: the parent package and the sibling one, one resolved to a file move.
    let moves: BTreeSet<String> = titles("move").into_iter().filter(|t| t.starts_with("Move")).collect();
    assert_eq!(
        moves,
        BTreeSet::from(["Move `Geo` to package `com`".to_owned(), "Move `Geo` to package `com.util`".to_owned()]),
        "{}",
        got["move"]
    );
    let moved = got["moved"]["edit"]["documentChanges"].as_array().expect("a resolved edit");
    assert!(
        moved
            .iter()
            .any(|c| c["kind"] == "rename" && c["newUri"].as_str().is_some_and(|u| u.ends_with("com/util/Geo.java"))),
        "{moved:?}"
    );
    // A static method: moves to the other classes of its package, one resolved.
    let member: BTreeSet<String> = titles("member").into_iter().filter(|t| t.starts_with("Move")).collect();
    assert_eq!(member, BTreeSet::from(["Move `twice` to `com.acme.Use`".to_owned()]), "{}", got["member"]);
    let edited = got["memberMoved"]["edit"]["documentChanges"].as_array().expect("a resolved edit");
    assert!(
        edited.iter().any(|c| c["textDocument"]["uri"].as_str().is_some_and(|u| u.ends_with("com/acme/Use.java"))),
        "{edited:?}"
    );
    // The command: refactor_actions' arguments, the edit answered (not written).
    assert!(got["command"]["edit"]["documentChanges"].as_array().is_some_and(|c| !c.is_empty()), "{}", got["command"]);
    assert!(std::fs::read_to_string(root.join(geo)).expect("read").contains("area(int a, int c)"));
    // A call the engine refuses is the request's error, with the engine's reason.
    let refused = got["refused"].as_str().unwrap_or_default();
    assert!(refused.starts_with("error:") && refused.contains("destination"), "{}", got["refused"]);
}

/// A real project (commons-lang3's main sources, 200+ files, from the corpus): references of
/// `ObjectUtils#identityToString(Object)` equal find_references', its rename applied by the
/// client writes what `refactor_actions` writes and compiles with javac, and two unclosed `(`
/// typed in a method body are published as get_problems' syntax problems of that text.
#[test]
fn a_real_project_s_references_rename_and_diagnostics_are_the_tools() {
    let Some(python) = python() else { return };
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/corpus/commons-lang3/src/main");
    if !corpus.is_dir() {
        assert!(std::env::var_os("CI").is_none(), "corpus missing: run .ci/run");
        eprintln!("skipping: no corpus");
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let (root, twin, single) = (dir.path().join("ws"), dir.path().join("twin"), dir.path().join("single"));
    for d in [&root, &twin] {
        std::fs::create_dir_all(d.join("src/main")).expect("mkdir");
        copy_tree(&corpus, &d.join("src/main"));
    }
    let base = "src/main/java/org/apache/commons/lang3";
    let (objects, bits) = (format!("{base}/ObjectUtils.java"), format!("{base}/BitField.java"));
    let text = std::fs::read_to_string(root.join(&objects)).expect("read");
    let decl = text.lines().position(|l| l.contains("public static String identityToString(final Object object)"));
    let decl = decl.expect("the declaration") as u32;
    let at = json!([decl, col_of(&text, decl as usize, "identityToString")]);
    let bits_text = std::fs::read_to_string(root.join(&bits)).expect("read");
    let ret = bits_text.lines().position(|l| l.starts_with("        return ")).expect("a return") as u32;
    let got = session(
        &python,
        &root,
        json!([
            {"open": bits},
            {"change": bits, "version": 2, "edits": [[ret, 8, ret, 8, "(("]]},
            {"diagnostics": bits, "version": 2, "key": "broken"},
            {"ask": "references", "file": objects, "at": at, "key": "references"},
            {"ask": "rename", "file": objects, "at": at, "newName": "identityString", "key": "rename"},
            {"applyEdit": "rename"},
        ]),
    );
    // references: find_references' (declaration included), line for line.
    let args = json!({"filePath": objects, "line": decl + 1, "column": at[1].as_u64().expect("c") + 1,
        "includeDeclaration": true});
    let refs = tool(&twin, "find_references", args);
    let want: BTreeSet<(String, u64)> = refs["files"]
        .as_array()
        .expect("files")
        .iter()
        .flat_map(|f| {
            let file = f["file"].as_str().expect("file").to_owned();
            f["references"]
                .as_array()
                .into_iter()
                .flatten()
                .map(move |r| (file.clone(), r["line"].as_u64().expect("l")))
        })
        .collect();
    let have: BTreeSet<(String, u64)> =
        got["references"].as_array().expect("refs").iter().map(|l| (rel(&root, &l["uri"]), line(l, "start"))).collect();
    assert_eq!(have, want);
    assert!(have.iter().map(|r| &r.0).collect::<BTreeSet<_>>().len() >= 2, "{have:?}");
    // rename: the client's application of the WorkspaceEdit is refactor_actions' own.
    let applied = got["rename/applied"].as_array().expect("applied");
    assert!(applied.len() >= 2, "{applied:?}");
    let ren = json!({"action": "rename", "filePath": objects, "line": decl + 1,
        "column": at[1].as_u64().expect("c") + 1, "newName": "identityString", "apply": true});
    tool(&twin, "refactor_actions", ren);
    let mut edited = Vec::new();
    for a in applied {
        let path = PathBuf::from(a["edited"].as_str().expect("edited"));
        let file = path.strip_prefix(&root).map(Path::to_path_buf).unwrap_or_else(|_| {
            let canon = root.canonicalize().expect("canonical");
            path.strip_prefix(&canon).expect("under the root").to_path_buf()
        });
        let (a, b) = (std::fs::read_to_string(root.join(&file)), std::fs::read_to_string(twin.join(&file)));
        assert_eq!(a.expect("read"), b.expect("read twin"), "{}", file.display());
        edited.push(file.to_string_lossy().into_owned());
    }
    let edited: Vec<&str> = edited.iter().map(String::as_str).collect();
    if Command::new("javac").arg("-version").output().is_ok() {
        let out = tempfile::tempdir().expect("tempdir");
        let status = Command::new("javac")
            .current_dir(&root)
            .args(["-nowarn", "-proc:none", "-sourcepath", "src/main/java", "-d"])
            .arg(out.path())
            .args(&edited)
            .output()
            .expect("javac");
        assert!(status.status.success(), "{}", String::from_utf8_lossy(&status.stderr));
    }
    // Diagnostics after an edit: get_problems' syntax problems of the same text.
    let mut lines: Vec<String> = bits_text.lines().map(str::to_owned).collect();
    lines[ret as usize].insert_str(8, "((");
    write(&single, "BitField.java", &(lines.join("\n") + "\n"));
    let problems = tool(&single, "get_problems", json!({"filePath": "BitField.java", "sourceFilter": ["syntax"]}));
    let want: BTreeSet<_> =
        problems["diagnostics"].as_array().expect("diagnostics").iter().map(|d| problem_key(d, false, 0)).collect();
    let have: BTreeSet<_> =
        got["broken"].as_array().expect("published").iter().map(|d| problem_key(d, true, 0)).collect();
    assert_eq!(have, want);
    assert!(have.iter().any(|d| d.5.starts_with("missing `))`")), "{have:?}");
}

/// A diagnostic as (first line, first column, last line, last column, code, message), 1-based
/// like get_problems'; `shift` lines added.
fn problem_key(d: &Value, lsp: bool, shift: u64) -> (u64, u64, u64, u64, String, String) {
    let (s, e) = (&d["range"]["start"], &d["range"]["end"]);
    let n = |v: &Value| v.as_u64().expect("number") + u64::from(lsp);
    let (col, code) = (if lsp { "character" } else { "column" }, d["code"].as_str().expect("code").to_owned());
    let message = d["message"].as_str().expect("message").to_owned();
    (n(&s["line"]) + shift, n(&s[col]), n(&e["line"]) + shift, n(&e[col]), code, message)
}

/// javac's diagnostics after a save, as get_problems answers them for the file (its `javac`
/// source): published with the buffer's syntax problems, moved with the lines an unsaved change
/// adds above them, and pulled (`textDocument/diagnostic`) the same.
#[test]
fn javac_s_problems_are_published_after_a_save_and_pulled() {
    let Some(python) = python() else { return };
    if Command::new("javac").arg("-version").output().is_err() {
        assert!(std::env::var("CI").is_err(), "javac is missing");
        eprintln!("skipping: no javac");
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().join("ws");
    let calc = "src/com/acme/Calc.java";
    let clean = CALC.replace("import java.util.List;\n\n", "");
    write(&root, calc, &clean);
    let broken = clean.replace("return w * h + 1;", "String s = w;\n        return w * h + 1;");
    let got = session(
        &python,
        &root,
        json!([
            {"open": calc},
            {"diagnostics": calc, "version": 1, "key": "opened"},
            // $/cancelRequest: the running pull (javac's first check: seconds) and the hover
            // waiting behind it.
            {"cancelBoth": calc, "at": [3, 16], "key": "cancelled"},
            {"ask": "hover", "file": calc, "at": [3, 16], "key": "after"},
            {"change": calc, "version": 2, "full": broken},
            {"write": calc, "text": broken},
            {"save": calc},
            {"diagnostics": calc, "version": 2, "until": "javac", "key": "saved"},
            {"change": calc, "version": 3, "edits": [[0, 0, 0, 0, "// a\n// b\n"]]},
            {"diagnostics": calc, "version": 3, "key": "moved"},
            {"ask": "diagnostic", "file": calc, "key": "pulled"},
        ]),
    );
    let problems = tool(&root, "get_problems", json!({"filePath": calc, "sourceFilter": ["javac"]}));
    let want: BTreeSet<_> =
        problems["diagnostics"].as_array().expect("diagnostics").iter().map(|d| problem_key(d, false, 0)).collect();
    assert!(want.iter().any(|d| d.4 == "compiler.err.prob.found.req"), "{problems}");
    let javac = |v: &Value, shift: u64| -> BTreeSet<_> {
        v.as_array()
            .expect("diagnostics")
            .iter()
            .filter(|d| d["source"] == "javac")
            .map(|d| problem_key(d, true, shift))
            .collect()
    };
    assert_eq!(got["opened"], json!([]), "{}", got["opened"]);
    assert_eq!(javac(&got["saved"], 0), want, "{}", got["saved"]);
    // Two lines added above, unsaved: the same problems two lines down.
    let moved: BTreeSet<_> = want.iter().map(|d| (d.0 + 2, d.1, d.2 + 2, d.3, d.4.clone(), d.5.clone())).collect();
    assert_eq!(javac(&got["moved"], 0), moved, "{}", got["moved"]);
    assert_eq!(got["pulled"]["kind"], "full", "{}", got["pulled"]);
    assert_eq!(javac(&got["pulled"]["items"], 0), moved, "{}", got["pulled"]);
    // Both cancelled requests answer RequestCancelled (-32800), and the server goes on.
    for which in ["slow", "queued"] {
        let ended = got["cancelled"][which].as_str().unwrap_or_default();
        assert!(ended.starts_with("JsonRpcRequestCancelled"), "{which}: {}", got["cancelled"]);
    }
    assert!(got["after"].is_object(), "a hover after the cancellations: {}", got["after"]);
    // The syntax check's diagnostics (the unused local) beside javac's, on the buffer.
    assert!(got["moved"].as_array().expect("d").iter().any(|d| d["code"] == "hint.unused.local"), "{}", got["moved"]);

    // Two saves in a row, the second while javac checks the first: one check at a time, and
    // the last save is checked (its problems are the ones published).
    let last = clean.replace("return w * h + 1;", "int q = \"s\";\n        return w * h + q;");
    let got = session(
        &python,
        &root,
        json!([
            {"open": calc},
            {"change": calc, "version": 2, "full": clean},
            {"write": calc, "text": clean},
            {"save": calc},
            {"change": calc, "version": 3, "full": last},
            {"write": calc, "text": last},
            {"save": calc},
            {"diagnostics": calc, "version": 3, "until": "javac", "key": "last"},
        ]),
    );
    let problems = tool(&root, "get_problems", json!({"filePath": calc, "sourceFilter": ["javac"]}));
    let want: BTreeSet<_> =
        problems["diagnostics"].as_array().expect("diagnostics").iter().map(|d| problem_key(d, false, 0)).collect();
    assert!(!want.is_empty(), "{problems}");
    assert_eq!(javac(&got["last"], 0), want, "{}", got["last"]);
}

/// Copies a directory tree.
fn copy_tree(from: &Path, to: &Path) {
    for e in std::fs::read_dir(from).expect("read dir").flatten() {
        let (src, dst) = (e.path(), to.join(e.file_name()));
        if src.is_dir() {
            std::fs::create_dir_all(&dst).expect("mkdir");
            copy_tree(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).expect("copy");
        }
    }
}

/// "Run test" code lenses on each test method of the outline (and "Run tests" on its class), and
/// `workspace/executeCommand` running one through `run_tests` (javac and the JUnit console
/// launcher on a plain project): its counts answered and shown; in a workspace the user has not
/// trusted, nothing runs and the message says so.
#[test]
fn a_run_test_lens_runs_the_test_through_run_tests() {
    let Some(python) = python() else { return };
    if Command::new("javac").arg("-version").output().is_err() {
        assert!(std::env::var("CI").is_err(), "javac is missing");
        eprintln!("skipping: no javac");
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().join("plain");
    std::fs::create_dir_all(&root).expect("mkdir");
    copy_tree(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/build_fixtures/plain"), &root);
    let test = "test/com/example/text/WordsTest.java";
    let text = std::fs::read_to_string(root.join(test)).expect("read");
    let counts = text.lines().position(|l| l.contains("void counts(")).expect("counts");
    let run = json!({"ask": "executeCommand", "command": "mcp-java-index.runTests",
        "arguments": [{"target": "com.example.text.WordsTest#counts"}], "key": "run"});
    let steps = json!([{"open": test}, {"ask": "codeLens", "file": test, "key": "lenses"}, run]);
    let trusted = [("MCP_JAVA_INDEX_TRUST", "1"), ("MCP_JAVA_INDEX_BUILD_WAIT_MS", "600000")];
    let got = session_env(&python, &root, steps.clone(), &trusted);

    let lenses: BTreeSet<(u64, String, String)> = got["lenses"]
        .as_array()
        .expect("lenses")
        .iter()
        .map(|l| {
            let c = &l["command"];
            let target = c["arguments"][0]["target"].as_str().expect("target").to_owned();
            assert_eq!(c["command"], "mcp-java-index.runTests", "{l}");
            (
                l["range"]["start"]["line"].as_u64().expect("line"),
                c["title"].as_str().expect("title").to_owned(),
                target,
            )
        })
        .collect();
    assert!(
        lenses.contains(&(counts as u64, "Run test".into(), "com.example.text.WordsTest#counts".into())),
        "{lenses:?}"
    );
    assert_eq!(lenses.iter().filter(|l| l.1 == "Run test").count(), 2, "{lenses:?}");
    assert!(lenses.iter().any(|l| l.1 == "Run tests" && l.2 == "com.example.text.WordsTest"), "{lenses:?}");
    let c = &got["run"]["counts"];
    assert_eq!(
        (c["run"].as_u64(), c["passed"].as_u64(), c["failed"].as_u64()),
        (Some(1), Some(1), Some(0)),
        "{}",
        got["run"]
    );
    let shown: Vec<&str> =
        got["messages"].as_array().expect("messages").iter().filter_map(|m| m["message"].as_str()).collect();
    assert!(shown.contains(&"run_tests com.example.text.WordsTest#counts: 1 run, 1 passed, 0 failed"), "{shown:?}");

    // Untrusted: nothing runs, and the user is told.
    let got = session_env(&python, &root, steps, &[("MCP_JAVA_INDEX_TRUST", "0")]);
    assert_eq!(got["run"]["counts"]["run"].as_u64().unwrap_or(0), 0, "{}", got["run"]);
    let shown = got["messages"].to_string();
    assert!(
        shown.contains("run_tests com.example.text.WordsTest#counts: not run: the workspace is not trusted"),
        "{shown}"
    );
}

/// Starts `command args` as a language server in `root` and asks `initialize` with `root` as
/// the client's folder: the capabilities it answers.
fn initialize_with(command: &str, args: &[String], root: &Path) -> Value {
    use std::io::Write;
    let mut child = Command::new(command)
        .args(args)
        .current_dir(root)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = std::io::BufReader::new(child.stdout.take().expect("stdout"));
    let uri = format!("file://{}", root.display());
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"capabilities": {}, "workspaceFolders": [{"uri": uri, "name": "p"}]}});
    stdin.write_all(&frame(&init)).expect("write");
    let answer = loop {
        let m = next_message(&mut stdout).expect("an answer");
        if m["id"] == 1 {
            break m;
        }
    };
    for m in [
        json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}),
        json!({"jsonrpc": "2.0", "method": "exit"}),
    ] {
        stdin.write_all(&frame(&m)).expect("write");
    }
    drop(stdin);
    assert!(child.wait().expect("wait").success());
    answer["result"]["capabilities"].clone()
}

/// `setup`'s language-server forms start this server: the Claude Code plugin's `lspServers`
/// entry (written, then removed), Helix's `languages.toml`, Neovim's `vim.lsp.config` and
/// eglot's form (printed); each command, run as the client runs it, answers `initialize`.
#[test]
fn setup_s_lsp_forms_start_the_language_server() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().canonicalize().expect("canonical");
    write(&root, "A.java", "class A {}\n");
    let setup = |client: &str, extra: &[&str]| {
        let o = Command::new(BIN)
            .args(["setup", client, "--via", "path", "--project"])
            .arg(&root)
            .args(extra)
            .output()
            .expect("setup");
        assert!(o.status.success(), "{client}: {}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).expect("utf-8")
    };
    let served = |command: &str, args: &[String]| {
        let caps = initialize_with(command, args, &root);
        assert_eq!(caps["referencesProvider"], true, "{command} {args:?}: {caps}");
    };
    let strings = |v: &Value| -> Vec<String> {
        v.as_array().expect("args").iter().map(|a| a.as_str().expect("arg").to_owned()).collect()
    };

    // Claude Code: a local marketplace and the plugin with its lspServers entry.
    setup("claude-code-lsp", &[]);
    let plugin = root.join(".claude/mcp-java-index-lsp/plugin/.claude-plugin/plugin.json");
    let plugin: Value = serde_json::from_str(&std::fs::read_to_string(&plugin).expect("plugin")).expect("json");
    let market = root.join(".claude/mcp-java-index-lsp/.claude-plugin/marketplace.json");
    let market: Value = serde_json::from_str(&std::fs::read_to_string(&market).expect("market")).expect("json");
    assert_eq!(market["plugins"][0]["name"], plugin["name"], "{market}");
    assert_eq!(market["plugins"][0]["source"], "./plugin", "{market}");
    let entry = &plugin["lspServers"]["java-index"];
    assert_eq!(entry["extensionToLanguage"], json!({".java": "java"}), "{plugin}");
    served(entry["command"].as_str().expect("command"), &strings(&entry["args"]));
    setup("claude-code-lsp", &["--uninstall"]);
    assert!(!root.join(".claude/mcp-java-index-lsp/plugin/.claude-plugin/plugin.json").exists());

    // Helix: languages.toml, printed.
    let helix: toml::Value = toml::from_str(&setup("helix", &[])).expect("toml");
    let server = &helix["language-server"]["java-index"];
    let args: Vec<String> =
        server["args"].as_array().expect("args").iter().map(|a| a.as_str().expect("arg").to_owned()).collect();
    assert_eq!(helix["language"][0]["language-servers"][0].as_str(), Some("java-index"));
    served(server["command"].as_str().expect("command"), &args);

    // Neovim and eglot: the same command in their forms.
    let quoted = |s: &str| -> Vec<String> { s.split('"').skip(1).step_by(2).map(str::to_owned).collect() };
    let nvim = setup("neovim", &[]);
    assert!(nvim.contains("vim.lsp.config('java-index'") && nvim.contains("vim.lsp.enable('java-index')"), "{nvim}");
    let cmd = quoted(nvim.lines().find(|l| l.contains("cmd =")).expect("cmd"));
    served(&cmd[0], &cmd[1..]);
    let eglot = setup("eglot", &[]);
    assert!(eglot.contains("eglot-server-programs"), "{eglot}");
    let cmd = quoted(&eglot);
    served(&cmd[0], &cmd[1..]);
}

/// Where a declaration's name is written in its lines (0-based line, UTF-16 column): the first
/// whole word `name` followed by `(` (a method) or by `{`, `<`, ` ` after a type's keyword.
fn name_at(text: &str, name: &str, from: u32, to: u32, method: bool) -> Option<(u32, u32)> {
    let lines: Vec<&str> = text.lines().collect();
    for l in from.saturating_sub(1)..to.min(lines.len() as u32) {
        let line = lines[l as usize];
        for (i, _) in line.match_indices(name) {
            let before = line[..i].chars().next_back();
            let after = line[i + name.len()..].trim_start();
            let whole = !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '@' || c == '.');
            let fits = if method {
                after.starts_with('(')
            } else {
                ["class ", "interface ", "enum ", "record "].iter().any(|k| line[..i].ends_with(k))
            };
            if whole && fits && !line[i + name.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_') {
                return Some((l, line[..i].encode_utf16().count() as u32));
            }
        }
    }
    None
}

/// The answers over LSP equal the tools' on a sample of targets: every type and method declared
/// in two fixtures and the two-class project, each asked at its name: references against
/// find_references, and for types implementation against find_implementations and the
/// supertypes and subtypes against type_hierarchy's (depth 1, workspace types).
#[test]
fn lsp_answers_equal_the_tools_answers_on_a_sample_of_targets() {
    let Some(python) = python() else { return };
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().join("ws");
    write(&root, "src/com/acme/Greeter.java", GREETER);
    write(&root, "src/com/acme/App.java", APP);
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    for f in ["interfaces.java", "generics.java"] {
        write(&root, &format!("fixtures/{f}"), &std::fs::read_to_string(fixtures.join(f)).expect("fixture"));
    }
    // (file, name, line, column, is a type)
    let mut targets: Vec<(String, String, u32, u32, bool)> = Vec::new();
    for file in
        ["src/com/acme/Greeter.java", "src/com/acme/App.java", "fixtures/interfaces.java", "fixtures/generics.java"]
    {
        let text = std::fs::read_to_string(root.join(file)).expect("read");
        let outline: FileOutline =
            serde_json::from_value(tool(&root, "java_index", json!({"filePath": file}))).expect("outline");
        let mut stack: Vec<&TypeDecl> = outline.classes.iter().collect();
        while let Some(t) = stack.pop() {
            if let Some((l, c)) = name_at(&text, &t.name, t.start_line, t.end_line, false) {
                targets.push((file.to_owned(), t.name.clone(), l, c, true));
            }
            for m in t.methods.iter().filter(|m| m.generated.is_none()) {
                if let Some((l, c)) = name_at(&text, &m.name, m.start_line, m.end_line, true) {
                    targets.push((file.to_owned(), m.name.clone(), l, c, false));
                }
            }
            stack.extend(t.inner_classes.iter());
        }
    }
    targets.sort();
    targets.dedup_by(|a, b| (a.0.as_str(), a.2, a.3) == (b.0.as_str(), b.2, b.3));
    assert!(targets.len() >= 25, "{targets:?}");
    let mut steps = Vec::new();
    for (i, (file, name, l, c, is_type)) in targets.iter().enumerate() {
        steps.push(json!({"ask": "references", "file": file, "at": [l, c], "key": format!("refs{i}")}));
        let new_name = format!("{name}Renamed");
        steps.push(json!({"ask": "rename", "file": file, "at": [l, c], "newName": new_name, "key": format!("ren{i}")}));
        if *is_type {
            steps.push(json!({"ask": "implementation", "file": file, "at": [l, c], "key": format!("impl{i}")}));
            steps.push(json!({"ask": "supertypes", "file": file, "at": [l, c], "key": format!("up{i}")}));
            steps.push(json!({"ask": "subtypes", "file": file, "at": [l, c], "key": format!("down{i}")}));
        } else {
            steps.push(json!({"ask": "incomingCalls", "file": file, "at": [l, c], "key": format!("in{i}")}));
            steps.push(json!({"ask": "outgoingCalls", "file": file, "at": [l, c], "key": format!("out{i}")}));
        }
    }
    let got = session(&python, &root, json!(steps));
    let locations = |v: &Value| -> BTreeSet<(String, u64)> {
        v.as_array().into_iter().flatten().map(|l| (rel(&root, &l["uri"]), line(l, "start"))).collect()
    };
    let (mut compared, mut with_refs, mut renamed, mut with_calls, mut with_subtypes) = (0, 0, 0, 0, 0);
    for (i, (file, name, l, c, is_type)) in targets.iter().enumerate() {
        let at = json!({"filePath": file, "line": l + 1, "column": c + 1});
        let mut args = at.clone();
        args["includeDeclaration"] = json!(true);
        let Some(refs) = try_tool(&root, "find_references", args) else {
            // The tool refuses it (a name the engine does not bind): no answer over LSP either.
            assert!(locations(&got[format!("refs{i}")]).is_empty(), "{name}: {}", got[format!("refs{i}")]);
            continue;
        };
        let want: BTreeSet<(String, u64)> = refs["files"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|f| {
                let file = f["file"].as_str().expect("file").to_owned();
                f["references"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(move |r| (file.clone(), r["line"].as_u64().expect("l")))
            })
            .collect();
        assert_eq!(locations(&got[format!("refs{i}")]), want, "references of {name} at {file}:{}", l + 1);
        with_refs += usize::from(want.len() > 1);
        compared += 1;
        // rename: the files the preview edits, the lines it changes in each, and a file's move.
        let mut ren = at.clone();
        ren["action"] = json!("rename");
        ren["newName"] = json!(format!("{name}Renamed"));
        let lsp_edit = &got[format!("ren{i}")];
        match try_tool(&root, "refactor_actions", ren).filter(|p| {
            p["conflicts"].as_array().is_none_or(|c| c.is_empty())
                && p["editId"].as_str().is_some_and(|id| !id.is_empty())
        }) {
            None => assert!(lsp_edit.is_string(), "rename of {name}: the tool refuses, LSP answers {lsp_edit}"),
            Some(preview) => {
                assert_eq!(
                    rename_lines(&root, lsp_edit),
                    preview_lines(&preview),
                    "rename of {name} at {file}:{}",
                    l + 1
                );
                renamed += 1;
            }
        }
        if !is_type {
            // call hierarchy: call_hierarchy's callers and callees, each with its call sites.
            for (dir, key, end) in [("incoming", "in", "from"), ("outgoing", "out", "to")] {
                let mut args = at.clone();
                args["direction"] = json!(dir);
                args["depth"] = json!(1);
                let want = try_tool(&root, "call_hierarchy", args).map(|a| calls(&a)).unwrap_or_default();
                assert_eq!(lsp_calls(&got[format!("{key}{i}")], end), want, "{dir} calls of {name}");
                with_calls += usize::from(!want.is_empty());
            }
            continue;
        }
        let impls = try_tool(&root, "find_implementations", at.clone()).unwrap_or_default();
        let want: BTreeSet<(String, u64)> = impls["implementations"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|i| i["file"].is_string())
            .map(|i| (i["file"].as_str().expect("file").to_owned(), i["line"].as_u64().expect("line")))
            .collect();
        assert_eq!(locations(&got[format!("impl{i}")]), want, "implementations of {name}");
        for (direction, key) in [("supertypes", "up"), ("subtypes", "down")] {
            let mut args = at.clone();
            args["direction"] = json!(direction);
            args["depth"] = json!(1);
            let h = try_tool(&root, "type_hierarchy", args).unwrap_or_default();
            let want: BTreeSet<String> = h["types"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|t| t["depth"] == 1 && t["file"].is_string())
                .filter_map(|t| t["fqn"].as_str().map(str::to_owned))
                .collect();
            let have: BTreeSet<String> = got[format!("{key}{i}")]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|t| t["data"]["target"].as_str().map(str::to_owned))
                .collect();
            assert_eq!(have, want, "{direction} of {name}");
            with_subtypes += usize::from(direction == "subtypes" && !want.is_empty());
        }
    }
    assert!(with_subtypes >= 2, "{with_subtypes} types with subtypes in the workspace");
    assert!(compared >= 20 && with_refs >= 5, "compared {compared}, {with_refs} with uses beside their declaration");
    assert!(renamed >= 15 && with_calls >= 5, "{renamed} renames compared, {with_calls} call lists not empty");
}

/// What a rename's `WorkspaceEdit` does: per file (relative to the root), the 1-based lines its
/// edits start on and where the file moves.
fn rename_lines(root: &Path, edit: &Value) -> BTreeMap<String, (BTreeSet<u64>, Option<String>)> {
    let mut out: BTreeMap<String, (BTreeSet<u64>, Option<String>)> = BTreeMap::new();
    for change in edit["documentChanges"].as_array().into_iter().flatten() {
        if change["kind"] == "rename" {
            out.entry(rel(root, &change["oldUri"])).or_default().1 = Some(rel(root, &change["newUri"]));
            continue;
        }
        let file = rel(root, &change["textDocument"]["uri"]);
        let lines = change["edits"].as_array().into_iter().flatten().map(|e| line(e, "start"));
        out.entry(file).or_default().0.extend(lines);
    }
    out
}

/// The same read from a `refactor_actions` preview: each file's unified diff, the old lines it
/// removes (a rename changes names within lines), and its `movedTo`.
fn preview_lines(preview: &Value) -> BTreeMap<String, (BTreeSet<u64>, Option<String>)> {
    let mut out = BTreeMap::new();
    for f in preview["files"].as_array().into_iter().flatten() {
        let mut lines = BTreeSet::new();
        let mut old = 0u64;
        for l in f["diff"].as_str().unwrap_or_default().lines() {
            if let Some(hunk) = l.strip_prefix("@@ -") {
                old = hunk.split([',', ' ']).next().and_then(|n| n.parse().ok()).unwrap_or(0);
            } else if l.starts_with("---") || l.starts_with("+++") {
            } else if l.starts_with('-') {
                lines.insert(old);
                old += 1;
            } else if !l.starts_with('+') && !l.starts_with('\\') {
                old += 1;
            }
        }
        let moved = f["movedTo"].as_str().map(str::to_owned);
        out.insert(f["file"].as_str().expect("file").to_owned(), (lines, moved));
    }
    out
}

/// `typeDefinition` through pygls' client: from a local variable (at its declaration and at a
/// use), a parameter, a field and a method to the declaration of the type each is declared
/// with (the engine binding the type's name where it is written); `var` and a primitive type
/// have none. The capability is advertised.
#[test]
fn type_definition_goes_to_the_declared_type() {
    let Some(python) = python() else { return };
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().join("ws");
    write(&root, "src/com/acme/Greeter.java", GREETER);
    write(&root, "src/com/acme/App.java", APP);
    let shop = "package com.acme;

import java.util.List;

public class Shop {
    private Greeter clerk;

    Greeter clerk() {
        return clerk;
    }

    String open(Greeter other, List<Greeter> all, int n) {
        var g = other;
        Greeter[] many = new Greeter[n];
        return other.greet(\"x\") + many.length + clerk().greet(\"y\") + n + g;
    }
}
";
    write(&root, "src/com/acme/Shop.java", shop);
    let (app, shop_file) = ("src/com/acme/App.java", "src/com/acme/Shop.java");
    let at = |file: &str, needle: &str, word: &str| -> [u32; 2] {
        let text = if file == app { APP } else { shop };
        let (l, line) = text.lines().enumerate().find(|(_, l)| l.contains(needle)).expect(needle);
        [l as u32, (line.find(needle).expect("needle") + needle.find(word).expect("word")) as u32]
    };
    let asks = [
        ("localDecl", app, "Greeter g =", "g"),
        ("localUse", app, "g.greet(\"you\")", "g"),
        ("param", shop_file, "return other.greet", "other"),
        ("field", shop_file, "return clerk;", "clerk"),
        ("method", shop_file, "clerk().greet", "clerk"),
        ("array", shop_file, "many.length", "many"),
        ("var", shop_file, "+ g;", "g"),
        ("int", shop_file, "+ n +", "n"),
    ];
    let mut steps: Vec<Value> = asks
        .iter()
        .map(|(key, file, needle, word)| json!({"ask": "typeDefinition", "file": file, "at": at(file, needle, word), "key": key}))
        .collect();
    steps.insert(0, json!({"capabilities": true, "key": "caps"}));
    let got = session(&python, &root, json!(steps));
    assert_eq!(got["caps"]["typeDefinitionProvider"], json!(true), "{}", got["caps"]);
    let greeter_class = GREETER.lines().position(|l| l.starts_with("public class Greeter")).expect("class") as u64;
    for key in ["localDecl", "localUse", "param", "field", "method", "array"] {
        let locations = got[key].as_array().unwrap_or_else(|| panic!("{key}: {}", got[key]));
        assert_eq!(locations.len(), 1, "{key}: {}", got[key]);
        assert_eq!(rel(&root, &locations[0]["uri"]), "src/com/acme/Greeter.java", "{key}");
        let start = &locations[0]["range"]["start"];
        assert_eq!((start["line"].as_u64(), start["character"].as_u64()), (Some(greeter_class), Some(13)), "{key}");
    }
    for key in ["var", "int"] {
        assert!(got[key].is_null() || got[key] == json!([]), "{key}: {}", got[key]);
    }
}

/// `find_references::locations`, what `references` over LSP asks: `run`'s answer (the same
/// query, the same files and references in order) without each line's text, with each file's
/// absolute path beside it, so the server neither reads the files for the text nor resolves
/// their paths again.
#[test]
fn references_locations_are_the_tools_answer_without_line_text() {
    use mcp_java_index::tools::tool::find_references::{FindReferencesArgs, locations, run};
    let (dir, ws) = crate::common::indexed(
        "src",
        &[
            ("p/A.java", "package p;\npublic class A {\n    public int f() { return 1; }\n}\n"),
            ("p/B.java", "package p;\nclass B {\n    int g(A a) { return a.f() + a.f(); }\n}\n"),
            ("p/C.java", "package p;\nclass C {\n    /* é */ int h(A a) { return a.f(); }\n}\n"),
        ],
    );
    let args =
        FindReferencesArgs { target: "p.A#f()".into(), include_declaration: true, limit: 100, ..Default::default() };
    let full = run(&ws, &args).expect("run");
    let (bare, paths) = locations(&ws, &args).expect("locations");
    let shape =
        |r: &mcp_java_index::tools::tool::find_references::FindReferencesResult| -> Vec<(String, u32, u32, String)> {
            r.files
                .iter()
                .flat_map(|f| f.references.iter().map(|x| (f.file.clone(), x.line, x.column, x.kind.clone())))
                .collect()
        };
    assert_eq!(shape(&bare), shape(&full));
    assert_eq!(shape(&full).len(), 4, "the declaration and three calls: {:?}", shape(&full));
    assert!(full.files.iter().flat_map(|f| &f.references).all(|x| !x.text.is_empty()), "{full:?}");
    assert!(bare.files.iter().flat_map(|f| &f.references).all(|x| x.text.is_empty()), "{bare:?}");
    let root = dir.path().canonicalize().expect("root");
    let want: Vec<PathBuf> = full.files.iter().map(|f| root.join(&f.file)).collect();
    let got: Vec<PathBuf> = paths.iter().map(|p| p.to_path_buf()).collect();
    assert_eq!(got, want);
    // The column after a non-ASCII character is the tool's UTF-16 column, as LSP counts.
    let c = bare.files.iter().find(|f| f.file.ends_with("C.java")).expect("C.java");
    assert_eq!(c.references[0].column, "    /* é */ int h(A a) { return a.".encode_utf16().count() as u32 + 1);
}
