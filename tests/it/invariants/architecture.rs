//! Architecture invariants. The layering itself is the compiler's: each layer is a crate, so
//! an upward `use` does not compile. These tests pin the crate graph to the documented one,
//! keep the shells' crates (async runtime, protocol, command line) out of the core, and keep
//! the print lints on every crate below the shells. The documents that map the code stay true
//! with it: every path README.md, ARCHITECTURE.md and docs/ name exists, every relative link
//! resolves, and README's table of tools is the registry.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The allowed edges between the project's crates: each crate and the crates it may use.
/// ARCHITECTURE.md draws the same graph; a new edge is a design decision made here first.
const ALLOWED: &[(&str, &[&str])] = &[
    ("mji-fs", &[]),
    ("mji-model", &[]),
    ("mji-config", &["mji-fs"]),
    ("mji-parser", &["mji-model"]),
    ("mji-cache", &["mji-fs", "mji-model", "mji-parser"]),
    ("mji-index", &["mji-fs", "mji-model", "mji-parser", "mji-cache"]),
    ("mji-xref", &["mji-fs", "mji-model", "mji-parser"]),
    ("mji-problems", &["mji-fs", "mji-model", "mji-parser", "mji-build"]),
    ("mji-edit", &["mji-fs", "mji-model", "mji-parser", "mji-xref"]),
    ("mji-scip", &["mji-fs", "mji-model", "mji-parser", "mji-xref", "mji-classfile"]),
    (
        "mji-tools",
        &[
            "mji-fs",
            "mji-model",
            "mji-parser",
            "mji-cache",
            "mji-config",
            "mji-index",
            "mji-xref",
            "mji-problems",
            "mji-edit",
            "mji-editor",
            "mji-build",
            "mji-classfile",
            "mji-scip",
        ],
    ),
    ("mji-server", &["mji-model", "mji-fs", "mji-config", "mji-tools"]),
    ("mji-lsp", &["mji-model", "mji-problems", "mji-tools"]),
    (
        "mcp-java-index",
        &[
            "mji-fs",
            "mji-model",
            "mji-parser",
            "mji-cache",
            "mji-config",
            "mji-index",
            "mji-xref",
            "mji-problems",
            "mji-tools",
            "mji-server",
            "mji-lsp",
            "mji-edit",
            "mji-editor",
            "mji-build",
            "mji-classfile",
            "mji-scip",
        ],
    ),
    ("mji-editor", &["mji-config"]),
    ("mji-build", &["mji-fs", "mji-model", "mji-parser", "mji-config"]),
    ("mji-classfile", &["mji-fs", "mji-model"]),
];

/// Crates that only the shells may depend on.
const SHELL_ONLY: &[&str] = &["tokio", "rmcp", "clap", "axum", "tracing-subscriber", "anyhow"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The directory of workspace crate `name` (`mji-xref` is `crates/xref`).
fn crate_dir(name: &str) -> PathBuf {
    root().join("crates").join(name.strip_prefix("mji-").unwrap_or(name))
}

/// Each workspace crate and its normal (non-dev) dependencies, from `cargo metadata`.
fn crate_graph() -> BTreeMap<String, BTreeSet<String>> {
    let out = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--no-deps", "--offline"])
        .current_dir(root())
        .output()
        .expect("running cargo metadata");
    assert!(out.status.success(), "cargo metadata failed: {}", String::from_utf8_lossy(&out.stderr));
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("cargo metadata JSON");
    let mut graph = BTreeMap::new();
    for p in meta["packages"].as_array().expect("packages") {
        let name = p["name"].as_str().expect("name").to_owned();
        let deps = p["dependencies"]
            .as_array()
            .expect("dependencies")
            .iter()
            .filter(|d| d["kind"].is_null())
            .map(|d| d["name"].as_str().expect("dependency name").to_owned())
            .collect();
        graph.insert(name, deps);
    }
    graph
}

/// The crate graph is exactly the documented one: no edge outside `ALLOWED`, and no edge in
/// `ALLOWED` that the manifests do not declare (the table never promises more than there is).
#[test]
fn the_crate_graph_is_the_documented_one() {
    let graph = crate_graph();
    let ours: BTreeSet<&str> = ALLOWED.iter().map(|(n, _)| *n).collect();
    let found: BTreeSet<&str> = graph.keys().map(String::as_str).collect();
    assert_eq!(found, ours, "the workspace's crates differ from the documented layers");
    for (name, allowed) in ALLOWED {
        let internal: BTreeSet<&str> = graph[*name].iter().map(String::as_str).filter(|d| ours.contains(d)).collect();
        let allowed: BTreeSet<&str> = allowed.iter().copied().collect();
        let extra: Vec<_> = internal.difference(&allowed).collect();
        assert!(extra.is_empty(), "{name} depends on {extra:?}, an edge not in the documented graph");
        let missing: Vec<_> = allowed.difference(&internal).collect();
        assert!(missing.is_empty(), "{name} is documented to use {missing:?}, which its manifest does not declare");
    }
}

/// A declared edge is a used one: every internal dependency a crate declares is named in its
/// sources (`mji_xxx` in `src/`), so the graph carries no edge that only costs build order.
#[test]
fn every_declared_edge_is_used() {
    let graph = crate_graph();
    let ours: BTreeSet<&str> = ALLOWED.iter().map(|(n, _)| *n).collect();
    for (name, deps) in &graph {
        let src = if name == "mcp-java-index" { root().join("src") } else { crate_dir(name).join("src") };
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        let text: String = files.iter().map(|f| std::fs::read_to_string(f).expect("reading source")).collect();
        for dep in deps.iter().filter(|d| ours.contains(d.as_str())) {
            let ident = dep.replace('-', "_");
            let used = text.match_indices(&ident).any(|(i, _)| {
                let after = text[i + ident.len()..].chars().next();
                let before = text[..i].chars().next_back();
                !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
                    && !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            });
            assert!(used, "{name} declares {dep} but nothing in {} names `{ident}`: remove the edge", src.display());
        }
    }
}

/// ARCHITECTURE.md's table of allowed edges is `ALLOWED`, row for row.
#[test]
fn architecture_md_draws_the_same_edges() {
    let doc = std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("reading ARCHITECTURE.md");
    let table = doc.split("| crate | may use |").nth(1).expect("the table of allowed edges in ARCHITECTURE.md");
    let mut documented: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for row in table.lines().skip(2).take_while(|l| l.starts_with('|')) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let (names, uses) = (cells[1], cells[2]);
        let uses: BTreeSet<String> =
            uses.split(',').map(str::trim).filter(|u| *u != "—").map(|u| format!("mji-{u}")).collect();
        for name in names.split('`').skip(1).step_by(2) {
            documented.insert(name.to_owned(), uses.clone());
        }
    }
    let allowed: BTreeMap<String, BTreeSet<String>> =
        ALLOWED.iter().map(|(n, uses)| ((*n).to_owned(), uses.iter().map(|u| (*u).to_owned()).collect())).collect();
    assert_eq!(documented, allowed, "ARCHITECTURE.md's table of allowed edges differs from ALLOWED");
}

/// Architecture invariant: below the shells nothing knows the async runtime, the protocol or
/// the command line.
#[test]
fn the_core_has_no_shell_dependencies() {
    let graph = crate_graph();
    for (name, deps) in &graph {
        if name == "mji-server" || name == "mcp-java-index" {
            continue;
        }
        for banned in SHELL_ONLY {
            assert!(!deps.contains(*banned), "{name} depends on {banned}, which only the shells may use");
        }
    }
    // The tools layer does not know MCP: only the server speaks it.
    assert!(!graph["mji-tools"].contains("rmcp"));
}

/// Architecture invariant: nothing below the shells writes to stdout or stderr. Every crate
/// under `crates/` takes the workspace lints, which deny `print_stdout` and `print_stderr`
/// (clippy runs with `-D warnings` in CI), and no crate root allows them back.
#[test]
fn the_crates_below_the_shells_cannot_print() {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).expect("reading Cargo.toml");
    let lints = manifest.split("[workspace.lints.clippy]").nth(1).expect("workspace clippy lints");
    let lints = lints.split("\n[").next().unwrap_or_default();
    assert!(lints.contains("print_stdout = \"deny\"") && lints.contains("print_stderr = \"deny\""), "{lints}");
    let mut crates = 0;
    for e in std::fs::read_dir(root().join("crates")).expect("reading crates/") {
        let dir = e.expect("entry").path();
        let toml = std::fs::read_to_string(dir.join("Cargo.toml")).expect("crate manifest");
        assert!(toml.contains("[lints]\nworkspace = true"), "{} does not take the workspace lints", dir.display());
        let mut files = Vec::new();
        rust_files(&dir.join("src"), &mut files);
        for f in files {
            let text = std::fs::read_to_string(&f).expect("reading source");
            assert!(!text.contains("allow(clippy::print_std"), "{} allows printing", f.display());
        }
        crates += 1;
    }
    assert!(crates >= 10, "expected the layer crates under crates/, found {crates}");
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("reading a source directory") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Every source file says what it owns in its first line.
#[test]
fn every_source_file_starts_with_a_module_doc() {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    for e in std::fs::read_dir(root().join("crates")).expect("reading crates/") {
        rust_files(&e.expect("entry").path().join("src"), &mut files);
    }
    assert!(files.len() > 40, "sources not found: {}", files.len());
    for f in files {
        let text = std::fs::read_to_string(&f).expect("reading source");
        assert!(text.starts_with("//! "), "{} does not start with a `//!` line", f.display());
    }
}

/// Adding a tool is one file in `tool/` and one line in `tool/mod.rs`'s `tools!` list (which
/// declares the module and registers it): every file there is a registered tool named as the
/// file, and every registered tool has its file. A file left out of the list is not compiled,
/// so it shows here as a file with no registered tool.
#[test]
fn every_tool_is_one_file_in_the_registry() {
    let dir = root().join("crates/tools/src/tool");
    let mut files: BTreeSet<String> = BTreeSet::new();
    for e in std::fs::read_dir(&dir).expect("reading tool/") {
        let name = e.expect("entry").file_name().to_string_lossy().into_owned();
        if let Some(stem) = name.strip_suffix(".rs").filter(|s| *s != "mod") {
            files.insert(stem.to_owned());
        }
    }
    let registered: BTreeSet<String> =
        mcp_java_index::tools::registry::registry().iter().map(|e| e.spec.name.to_owned()).collect();
    assert_eq!(files, registered, "tool files and registered tools differ");
}

/// The javac helper ships inside the binary: the problems engine embeds its source, and the
/// engine talks to it only through std::process (no async runtime in the core).
#[test]
fn the_javac_helper_is_embedded() {
    let dir = root().join("crates/problems/src");
    let javac = std::fs::read_to_string(dir.join("javac.rs")).expect("reading javac.rs");
    assert!(javac.contains("include_str!(\"JavacHelper.java\")"));
    assert!(dir.join("JavacHelper.java").is_file());
}

/// The documents a newcomer reads: README.md, ARCHITECTURE.md, QUICKSTART.md and every page
/// under docs/, as paths from the repository's root.
fn documents() -> Vec<PathBuf> {
    let root = root();
    let mut docs = vec![root.join("README.md"), root.join("ARCHITECTURE.md"), root.join("QUICKSTART.md")];
    let mut pages = Vec::new();
    files_under(&root.join("docs"), &mut pages);
    pages.retain(|p| p.extension().is_some_and(|x| x == "md"));
    pages.sort();
    assert!(pages.len() >= 5, "the reference pages under docs/ were not found: {pages:?}");
    docs.extend(pages);
    docs
}

/// Whether `doc` is a code map: ARCHITECTURE.md and the pages that describe the code file by file
/// (docs/design.md, docs/testing.md). In a code map every `src/…` is this repository's and a bare
/// source file name (`roots.rs`, `JavacHelper.java`) must exist; elsewhere `src/main/java/…` and
/// `Greeter.java` are an example project's, so only `.rs` names and this repository's own
/// directories are checked.
fn is_code_map(doc: &Path) -> bool {
    let rel = doc.strip_prefix(root()).unwrap_or(doc);
    [Path::new("ARCHITECTURE.md"), Path::new("docs/design.md"), Path::new("docs/testing.md")].contains(&rel)
}

/// The file paths `doc` names in backquotes that do not exist, and how many it names. A path
/// from the repository's root (`crates/…`, `tests/…`, `src/…`, …) is taken from the root or
/// from the crate whose code-map paragraph names it; a bare source file (`roots.rs`,
/// `resolve/methods.rs`) must be found under the directory of that paragraph (`**`crates/index`
/// …**`), or anywhere in the repository outside a paragraph. Other names in backquotes (protocol
/// methods, runtime paths such as `target/classes` or `lib/modules`, the user's files) are not
/// paths of this repository.
fn missing_paths(doc: &Path, all: &[PathBuf]) -> (usize, Vec<String>) {
    let root = root();
    let text = std::fs::read_to_string(doc).expect("reading a document");
    let code_map = is_code_map(doc);
    const TOP: &[&str] =
        &["crates/", "tests/", "src/", "benches/", "fuzz/", ".ci/", "docs/", "packaging/", "examples/"];
    const SOURCE: &[&str] = &[".rs", ".java", ".py", ".txt", ".yml", ".md", ".sh"];
    let ours_in_src = |token: &str| {
        let Some(rest) = token.strip_prefix("src/") else { return true };
        let first = rest.split('/').next().unwrap_or_default();
        code_map
            || token.ends_with(".rs")
            || (!first.is_empty() && rest.contains('/') && root.join("src").join(first).is_dir())
    };
    let mut section = root.clone();
    let (mut checked, mut missing) = (0, Vec::new());
    for line in text.lines() {
        if line.starts_with("## ") {
            section = root.clone();
        } else if let Some(rest) = line.strip_prefix("**`") {
            let head = rest.split('`').next().unwrap_or_default();
            if root.join(head).is_dir() {
                section = root.join(head);
            }
        }
        for token in line.split('`').skip(1).step_by(2) {
            let plain = !token.is_empty()
                && token.chars().all(|c| c.is_ascii_alphanumeric() || "_-./".contains(c))
                && !token.starts_with('/');
            if !plain {
                continue;
            }
            let from_top = TOP.iter().any(|t| token.starts_with(t)) && ours_in_src(token);
            let source = SOURCE.iter().any(|x| token.ends_with(x)) && (code_map || token.ends_with(".rs"));
            if !from_top && (!source || TOP.iter().any(|t| token.starts_with(t))) {
                continue;
            }
            checked += 1;
            let exists = root.join(token).exists()
                || section.join(token).exists()
                || (!from_top
                    && all.iter().any(|f| f.starts_with(&section) && f.ends_with(token.trim_end_matches('/'))));
            if !exists {
                let under = section.strip_prefix(&root).unwrap_or(&section).display().to_string();
                missing.push(if under.is_empty() { token.to_owned() } else { format!("{token} (under {under})") });
            }
        }
    }
    (checked, missing)
}

/// Every file path ARCHITECTURE.md, README.md, QUICKSTART.md and the pages under docs/ name
/// exists (see [`missing_paths`] for what counts as a path of this repository).
#[test]
fn the_documents_name_only_paths_that_exist() {
    let root = root();
    let mut all = Vec::new();
    files_under(&root, &mut all);
    let mut problems = Vec::new();
    for doc in documents() {
        let (checked, missing) = missing_paths(&doc, &all);
        let rel = doc.strip_prefix(&root).unwrap_or(&doc).display().to_string();
        if rel == "ARCHITECTURE.md" {
            assert!(checked > 30, "ARCHITECTURE.md's paths were not found: {checked}");
        }
        problems.extend(missing.into_iter().map(|m| format!("{rel}: {m}")));
    }
    assert!(problems.is_empty(), "the documents name paths that do not exist:\n{}", problems.join("\n"));
}

/// The lines of a markdown text outside fenced code blocks.
fn prose(text: &str) -> impl Iterator<Item = &str> {
    let mut fenced = false;
    text.lines().filter(move |l| {
        if l.trim_start().starts_with("```") {
            fenced = !fenced;
            return false;
        }
        !fenced
    })
}

/// The anchors GitHub gives a markdown file's headings: lowercased, punctuation dropped (but
/// `-` and `_`), spaces made `-`; a repeated heading gets `-1`, `-2`, ….
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    for line in prose(text) {
        let Some(title) = line.strip_prefix('#').map(|t| t.trim_start_matches('#')) else { continue };
        if !title.starts_with(' ') {
            continue;
        }
        let slug: String = title
            .trim()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c.to_lowercase().next().unwrap_or(c)),
                _ => None,
            })
            .collect();
        let n = seen.entry(slug.clone()).or_insert(0);
        out.insert(if *n == 0 { slug.clone() } else { format!("{slug}-{n}") });
        *n += 1;
    }
    out
}

/// The targets of a markdown text's inline links (`[text](target)`) outside code.
fn link_targets(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in prose(text) {
        // Inline code spans are not links: keep what lies between them.
        let outside: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        let mut rest = outside.as_str();
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let end = after.find(')').unwrap_or(after.len());
            out.push(after[..end].trim().to_owned());
            rest = &after[end..];
        }
    }
    out
}

/// Every relative link in README.md, ARCHITECTURE.md, QUICKSTART.md and docs/ leads to a file
/// or directory that exists, and a link's `#anchor` to a heading of the markdown file it names.
#[test]
fn the_documents_links_resolve() {
    let root = root();
    let mut bad = Vec::new();
    let mut checked = 0;
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).expect("reading a document");
        let rel = doc.strip_prefix(&root).unwrap_or(&doc).display().to_string();
        for target in link_targets(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (path, anchor) = target.split_once('#').map_or((target.as_str(), None), |(p, a)| (p, Some(a)));
            let file = if path.is_empty() { doc.clone() } else { doc.parent().expect("a parent").join(path) };
            if !file.exists() {
                bad.push(format!("{rel}: ({target}) leads to no file"));
                continue;
            }
            if let Some(anchor) = anchor.filter(|_| file.extension().is_some_and(|x| x == "md")) {
                let heads = anchors(&std::fs::read_to_string(&file).expect("reading a linked page"));
                if !heads.contains(anchor) {
                    bad.push(format!("{rel}: ({target}) names no heading of {}", file.display()));
                }
            }
        }
    }
    assert!(checked > 50, "the documents' links were not found: {checked}");
    assert!(bad.is_empty(), "links that do not resolve:\n{}", bad.join("\n"));
}

/// README's table of tools is the registry: every registered tool has one row with its group,
/// and the row links a page under docs/tools/ that documents the tool by name.
#[test]
fn the_readme_lists_every_tool() {
    let root = root();
    let readme = std::fs::read_to_string(root.join("README.md")).expect("reading README.md");
    let section = readme.split("\n## Tools\n").nth(1).expect("README's Tools section");
    let section = section.split("\n## ").next().unwrap_or_default();
    let mut rows: BTreeMap<String, (String, String)> = BTreeMap::new();
    for row in section.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let name = cells[1].trim_matches('`').to_owned();
        let page = cells[4].split("](").nth(1).and_then(|t| t.split(')').next()).unwrap_or_default().to_owned();
        assert!(rows.insert(name.clone(), (cells[2].to_owned(), page)).is_none(), "README lists {name} twice");
    }
    let registry = mcp_java_index::tools::registry::registry();
    let registered: BTreeSet<&str> = registry.iter().map(|e| e.spec.name).collect();
    let listed: BTreeSet<&str> = rows.keys().map(String::as_str).collect();
    assert_eq!(listed, registered, "README's table of tools differs from the registry");
    for e in registry.iter() {
        let (group, page) = &rows[e.spec.name];
        assert_eq!(group, e.spec.group, "README gives {} the wrong group", e.spec.name);
        assert!(page.starts_with("docs/tools/"), "README's row of {} links no page under docs/tools/", e.spec.name);
        let text = std::fs::read_to_string(root.join(page)).expect("reading a tool page");
        assert!(text.contains(&format!("`{}`", e.spec.name)), "{page} does not document {}", e.spec.name);
    }
}

/// The anchors are GitHub's, so a link to one is one a reader can follow.
#[test]
fn anchors_are_githubs() {
    let text = "# Tools\n## `java_index` — outline a file\n```sh\n# not a heading\n```\n## Errors\n## Errors\n";
    let got: Vec<String> = anchors(text).into_iter().collect();
    assert_eq!(got, ["errors", "errors-1", "java_index--outline-a-file", "tools"]);
    let links = link_targets("see [a](docs/a.md#x) and `[b](not/a/link)` and [c](#y)\n```\n[d](e)\n```\n");
    assert_eq!(links, ["docs/a.md#x", "#y"]);
}

/// Every file under `dir` (the repository's own: not `target/`, `.git/` or fuzz outputs).
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("reading a directory") {
        let p = e.expect("entry").path();
        let name = p.file_name().unwrap_or_default();
        if name == "target" || name == ".git" || name == "node_modules" {
            continue;
        }
        if p.is_dir() {
            files_under(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// Modules import each other in circles of at most two files: in every crate (and the root
/// package), the files that reach each other through `crate::` paths (`use crate::…`, and
/// inline paths such as `crate::a::f()`) form groups of one or two, so a module can be read
/// with at most one other open. A longer circle fails, naming its files.
#[test]
fn no_module_import_circle_is_longer_than_two_files() {
    let root = root();
    let mut srcs: Vec<PathBuf> = vec![root.join("src")];
    for e in std::fs::read_dir(root.join("crates")).expect("reading crates/") {
        srcs.push(e.expect("entry").path().join("src"));
    }
    srcs.sort();
    let (mut edges, mut circles) = (0, Vec::new());
    for src in srcs.iter().filter(|s| s.is_dir()) {
        let graph = module_graph(src);
        edges += graph.values().map(BTreeSet::len).sum::<usize>();
        for group in strongly_connected(&graph).into_iter().filter(|g| g.len() > 2) {
            let names: Vec<String> =
                group.iter().map(|f| f.strip_prefix(&root).unwrap_or(f).display().to_string()).collect();
            circles.push(names.join(" "));
        }
    }
    assert!(edges > 150, "the module imports were not found: {edges} edges");
    assert!(circles.is_empty(), "modules import each other in circles of more than two files:\n{}", circles.join("\n"));
}

/// A planted three-file circle is found, and two files importing each other are allowed.
#[test]
fn the_import_circle_check_finds_a_planted_circle() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path();
    std::fs::create_dir(src.join("b")).expect("mkdir");
    std::fs::write(src.join("lib.rs"), "//! x\nmod a;\nmod b;\nmod c;\n").expect("write");
    std::fs::write(src.join("a.rs"), "//! a\nuse crate::b::{self, inner::X};\n// crate::c::f()\n").expect("write");
    std::fs::write(src.join("b/mod.rs"), "//! b\npub mod inner;\n").expect("write");
    std::fs::write(src.join("b/inner.rs"), "//! i\nfn f() { let s = \"crate::a::x\"; crate::c::g(); }\n")
        .expect("write");
    std::fs::write(src.join("c.rs"), "//! c\nuse crate::{a::Y, b::inner};\n").expect("write");
    let graph = module_graph(src);
    let groups: Vec<usize> = strongly_connected(&graph).iter().map(Vec::len).collect();
    assert_eq!(groups, vec![3], "{graph:?}");
    std::fs::write(src.join("c.rs"), "//! c\nuse crate::b::inner;\n").expect("write");
    let graph = module_graph(src);
    assert_eq!(strongly_connected(&graph).iter().map(Vec::len).max(), Some(2), "{graph:?}");
}

/// Each source file under `src` and the module files its `crate::` paths name.
fn module_graph(src: &Path) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut graph = BTreeMap::new();
    for f in files {
        let code = code_only(&std::fs::read_to_string(&f).expect("reading source"));
        let mut paths: Vec<Vec<String>> = Vec::new();
        let mut rest = code.as_str();
        while let Some(i) = rest.find("crate::") {
            let before = rest[..i].chars().next_back();
            let after = &rest[i + "crate::".len()..];
            rest = after;
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let head_is_use = code_before_is_use(&code, code.len() - after.len() - "crate::".len());
            let end = if head_is_use { after.find(';').unwrap_or(after.len()) } else { path_len(after) };
            expand_use(&after[..end], &mut Vec::new(), &mut paths);
        }
        let deps: BTreeSet<PathBuf> =
            paths.iter().filter_map(|segs| module_file(src, segs)).filter(|d| *d != f).collect();
        graph.insert(f, deps);
    }
    graph
}

/// Whether the `crate::` at byte `at` starts a `use` tree (`use crate::…` or `pub use`).
fn code_before_is_use(code: &str, at: usize) -> bool {
    code[..at].trim_end().ends_with("use")
}

/// The length of the plain path (`a::b::C`) at the start of `s`.
fn path_len(s: &str) -> usize {
    let mut end = 0;
    let b = s.as_bytes();
    while end < b.len()
        && (b[end].is_ascii_alphanumeric() || b[end] == b'_' || (b[end] == b':' && b.get(end + 1) == Some(&b':')))
    {
        end += if b[end] == b':' { 2 } else { 1 };
    }
    end
}

/// The paths a use tree names (`a::{b, c::{d, e}}` is `a::b`, `a::c::d`, `a::c::e`).
fn expand_use(tree: &str, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    let tree = tree.trim();
    match tree.find('{') {
        Some(open) if tree.ends_with('}') => {
            let head: Vec<String> =
                tree[..open].split("::").map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned).collect();
            let n = head.len();
            prefix.extend(head);
            let (mut depth, mut start) = (0, open + 1);
            let body_end = tree.len() - 1;
            for (i, c) in tree.char_indices().take(body_end).skip(open + 1) {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        expand_use(&tree[start..i], prefix, out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            expand_use(&tree[start..body_end], prefix, out);
            prefix.truncate(prefix.len() - n);
        }
        _ => {
            let plain = tree.split(" as ").next().unwrap_or_default();
            let segs = plain.split("::").map(str::trim).filter(|s| !s.is_empty() && *s != "self" && *s != "*");
            let mut path = prefix.clone();
            path.extend(segs.map(str::to_owned));
            if !path.is_empty() {
                out.push(path);
            }
        }
    }
}

/// The deepest module file a path names (`a::b::f` is `a/b.rs` when it exists, else `a.rs`).
fn module_file(src: &Path, segs: &[String]) -> Option<PathBuf> {
    let mut found = None;
    let mut dir = src.to_path_buf();
    for s in segs {
        let (file, module) = (dir.join(format!("{s}.rs")), dir.join(s).join("mod.rs"));
        if file.is_file() {
            found = Some(file);
        } else if module.is_file() {
            found = Some(module);
        } else {
            break;
        }
        dir = dir.join(s);
    }
    found
}

/// The source without comments, string and character literals (kept as blanks).
fn code_only(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < c.len() {
        if c[i] == '/' && c.get(i + 1) == Some(&'/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if c[i] == '/' && c.get(i + 1) == Some(&'*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c[i] == 'r' && matches!(c.get(i + 1), Some('"' | '#')) && (i == 0 || !c[i - 1].is_alphanumeric()) {
            let hashes = c[i + 1..].iter().take_while(|&&x| x == '#').count();
            if c.get(i + 1 + hashes) != Some(&'"') {
                out.push(c[i]);
                i += 1;
                continue;
            }
            i += hashes + 2;
            while i < c.len()
                && !(c[i] == '"' && c[i + 1..].iter().take(hashes).filter(|&&x| x == '#').count() == hashes)
            {
                i += 1;
            }
            i += 1 + hashes;
            out.push_str("\"\"");
        } else if c[i] == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c[i] == '\'' && c.get(i + 1) == Some(&'\\') {
            i += 2;
            while i < c.len() && c[i] != '\'' {
                i += 1;
            }
            i += 1;
        } else if c[i] == '\'' && c.get(i + 2) == Some(&'\'') {
            i += 3;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// The strongly connected groups of `graph` with more than one file (Tarjan's algorithm).
fn strongly_connected(graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<Vec<PathBuf>> {
    struct State<'a> {
        graph: &'a BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        index: BTreeMap<&'a PathBuf, usize>,
        low: BTreeMap<&'a PathBuf, usize>,
        stack: Vec<&'a PathBuf>,
        groups: Vec<Vec<PathBuf>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a PathBuf) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        let graph = s.graph;
        for w in graph.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(lw);
            } else if s.stack.contains(&w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut group = Vec::new();
            while let Some(w) = s.stack.pop() {
                group.push(w.clone());
                if w == v {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                s.groups.push(group);
            }
        }
    }
    let mut s = State { graph, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), groups: Vec::new() };
    for v in graph.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.groups
}

/// Java keywords that are node kinds too (`this`, `super`, …): such a literal is a node kind
/// only where it is compared with `kind()`; elsewhere it is the keyword's text.
const KEYWORD_KINDS: &[&str] = &["this", "super", "true", "false", "throws", "permits"];

/// The tree-sitter node kinds written as string literals in `text` (comments and field names,
/// `child_by_field_name("…")`, aside), as `line: literal`.
fn node_kind_literals(text: &str) -> Vec<String> {
    let kinds = mcp_java_index::parser::kind::ALL;
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let code = match line.find("//") {
            Some(c) if !line[..c].ends_with(':') => &line[..c],
            _ => line,
        };
        let mut rest = code;
        let mut at = 0;
        while let Some(open) = rest.find('"') {
            let Some(len) = rest[open + 1..].find('"') else { break };
            let word = &rest[open + 1..open + 1 + len];
            let before = code[..at + open].trim_end();
            let is_kind = kinds.contains(&word)
                && !before.ends_with("field_name(")
                && (!KEYWORD_KINDS.contains(&word) || before.ends_with("kind() ==") || before.ends_with("kind() !="));
            if is_kind {
                found.push(format!("{}: \"{word}\"", n + 1));
            }
            at += open + len + 2;
            rest = &rest[open + len + 2..];
        }
    }
    found
}

/// A source that walks Kotlin syntax trees (`crates/xref/src/kotlin/`, a crate's Kotlin half
/// in a `kotlin.rs`: `crates/edit/src/actions/rename/kotlin.rs`): its kinds are the Kotlin
/// grammar's.
fn is_kotlin_walker(f: &std::path::Path) -> bool {
    f.file_name().is_some_and(|n| n == "kotlin.rs") && !f.ends_with("crates/parser/src/kotlin.rs")
        || f.components()
            .collect::<Vec<_>>()
            .windows(3)
            .any(|w| w[0].as_os_str() == "xref" && w[1].as_os_str() == "src" && w[2].as_os_str() == "kotlin")
}

/// Tree-sitter node kinds are spelled once, as constants of the parser crate
/// (`mji_parser::kind::METHOD_DECLARATION`): no crate that walks a syntax tree writes one as a
/// string literal.
#[test]
fn node_kinds_are_the_parser_crate_s_constants() {
    let planted = "if n.kind() == \"method_declaration\" { x(\"name\") } // \"block\"\nlet t = n.child_by_field_name(\"type_arguments\");\nmatch k { \"this\" => 1 }\nif n.kind() == \"this\" {}";
    assert_eq!(node_kind_literals(planted), ["1: \"method_declaration\"", "4: \"this\""]);
    let mut scanned = 0;
    let mut offending = Vec::new();
    for e in std::fs::read_dir(root().join("crates")).expect("reading crates/") {
        let dir = e.expect("entry").path();
        let toml = std::fs::read_to_string(dir.join("Cargo.toml")).expect("crate manifest");
        if dir.ends_with("parser") || !toml.contains("tree-sitter") {
            continue;
        }
        let mut files = Vec::new();
        rust_files(&dir.join("src"), &mut files);
        // The Kotlin binder's kinds are the Kotlin grammar's (checked against it below).
        for f in files.into_iter().filter(|f| !is_kotlin_walker(f)) {
            let text = std::fs::read_to_string(&f).expect("reading source");
            scanned += 1;
            offending.extend(node_kind_literals(&text).into_iter().map(|l| format!("{}:{l}", f.display())));
        }
    }
    assert!(scanned > 20, "the crates that walk syntax trees were not found: {scanned} files");
    assert!(offending.is_empty(), "node kinds written as literals (use mji_parser::kind):\n{}", offending.join("\n"));
}

/// `text` with its comments blanked (newlines kept) and each string literal's insides replaced
/// by `x`s, so brackets and `=>` inside either do not count; and the string literals, as
/// (byte offset of the opening quote, 1-based line, text).
fn masked_strings(text: &str) -> (String, Vec<(usize, usize, String)>) {
    let code = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut strings = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < code.len() {
        let c = code[i];
        if c == b'/' && code.get(i + 1) == Some(&b'/') {
            while i < code.len() && code[i] != b'\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == b'"' && (i == 0 || code[i - 1] != b'\'' || code.get(i + 1) != Some(&b'\'')) {
            let start = i;
            let mut lit = String::new();
            out.push('"');
            i += 1;
            while i < code.len() && code[i] != b'"' {
                let step = if code[i] == b'\\' { 2 } else { 1 };
                for &b in &code[i..(i + step).min(code.len())] {
                    lit.push(b as char);
                    line += usize::from(b == b'\n');
                    out.push(if b == b'\n' { '\n' } else { 'x' });
                }
                i += step;
            }
            out.push('"');
            i += 1;
            strings.push((start, line, lit));
        } else {
            line += usize::from(c == b'\n');
            out.push(if c.is_ascii() { c as char } else { ' ' });
            i += 1;
        }
    }
    (out, strings)
}

/// The index just past the bracket that closes the one opening at `open` in masked code.
fn closing(code: &[u8], open: usize) -> usize {
    let mut depth = 0usize;
    for (i, c) in code.iter().enumerate().skip(open) {
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
    }
    code.len()
}

/// Whether a scrutinee (`n.kind()`, `kind`, `(p.kind())`) is a node's kind: a call of `kind()`
/// or a variable `let`-bound to one (`names`).
fn is_kind_expr(expr: &str, names: &BTreeSet<String>) -> bool {
    let e = expr.trim();
    let e = e.strip_prefix('(').and_then(|x| x.strip_suffix(')')).filter(|x| !x.contains(',')).unwrap_or(e).trim();
    e.ends_with(".kind()") || names.contains(e)
}

/// The string literals `text` compares with a node's kind, as `line: "literal"`: either side of
/// `==`/`!=` with `….kind()`, the patterns of `matches!(….kind(), …)` and the arm patterns
/// (guards aside) of `match ….kind() { … }`, a variable `let`-bound to `….kind()` counting as
/// the call.
fn kind_comparisons(text: &str) -> Vec<String> {
    let (code, strings) = masked_strings(text);
    let b = code.as_bytes();
    let mut names = BTreeSet::new();
    for stmt in code.split(';') {
        if let Some(at) = stmt.rfind("let ")
            && let Some((lhs, rhs)) = stmt[at + "let ".len()..].split_once('=')
            && rhs.trim().ends_with(".kind()")
        {
            names.insert(lhs.trim().trim_start_matches("mut ").to_owned());
        }
    }
    // Byte ranges whose string literals are compared with a kind.
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    for (start, _, lit) in &strings {
        let end = start + lit.len() + 2;
        let before = code[..*start].trim_end();
        let after = code[end..].trim_start();
        let left = before.strip_suffix("==").or_else(|| before.strip_suffix("!="));
        let right = after.strip_prefix("==").or_else(|| after.strip_prefix("!="));
        let operand = |s: &str, tail: bool| {
            let s = s.trim();
            let w: String = if tail {
                s.chars()
                    .rev()
                    .take_while(|c| c.is_alphanumeric() || "_.()".contains(*c))
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect()
            } else {
                s.chars().take_while(|c| c.is_alphanumeric() || "_.()".contains(*c)).collect()
            };
            is_kind_expr(&w, &names)
        };
        if left.is_some_and(|l| operand(l, true)) || right.is_some_and(|r| operand(r, false)) {
            ranges.push((*start, end));
        }
    }
    for (at, _) in code.match_indices("matches!(") {
        let open = at + "matches!".len();
        let close = closing(b, open);
        let inner = &code[open + 1..close.saturating_sub(1)];
        let mut depth = 0i32;
        let comma = inner.char_indices().find(|(_, c)| {
            depth += match c {
                '(' | '[' | '{' => 1,
                ')' | ']' | '}' => -1,
                _ => 0,
            };
            *c == ',' && depth == 0
        });
        if let Some((comma, _)) = comma
            && is_kind_expr(&inner[..comma], &names)
        {
            let pattern = &inner[comma + 1..];
            let end = pattern.find(" if ").unwrap_or(pattern.len());
            ranges.push((open + 1 + comma + 1, open + 1 + comma + 1 + end));
        }
    }
    let mut from = 0;
    while let Some(found) = code[from..].find("match ") {
        let at = from + found;
        from = at + 1;
        if at > 0 && (b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'_') {
            continue;
        }
        let Some(brace) = code[at..].find('{').map(|x| at + x) else { break };
        if !is_kind_expr(&code[at + "match ".len()..brace], &names) {
            continue;
        }
        let close = closing(b, brace);
        // Arms: a pattern up to `=>`, then a body up to a `,` at depth 0 or a block's end.
        let mut i = brace + 1;
        while i < close - 1 {
            let Some(arrow) = code[i..close].find("=>").map(|x| i + x) else { break };
            let pattern = &code[i..arrow];
            let end = pattern.find(" if ").map_or(arrow, |g| i + g);
            ranges.push((i, end));
            let mut j = arrow + 2;
            while j < close - 1 && b[j].is_ascii_whitespace() {
                j += 1;
            }
            if b[j] == b'{' {
                j = closing(b, j);
                while j < close - 1 && (b[j].is_ascii_whitespace() || b[j] == b',') {
                    j += 1;
                }
            } else {
                while j < close - 1 && b[j] != b',' {
                    j = if matches!(b[j], b'(' | b'[' | b'{') { closing(b, j) } else { j + 1 };
                }
                j += 1;
            }
            i = j;
        }
    }
    let mut found: Vec<(usize, String)> = strings
        .iter()
        .filter(|(start, _, _)| ranges.iter().any(|(a, z)| (*a..*z).contains(start)))
        .map(|(_, line, lit)| (*line, format!("{line}: \"{lit}\"")))
        .collect();
    found.sort();
    found.dedup();
    found.into_iter().map(|(_, f)| f).collect()
}

/// A string compared with a node's kind is a kind the grammar has (named or anonymous,
/// `mji_parser::kind::in_grammar`): one it does not have (`"switch_statement"`, which
/// tree-sitter-java parses as a `switch_expression` statement) makes an arm that never runs.
#[test]
fn strings_compared_with_a_kind_are_the_grammar_s() {
    let planted = "if n.kind() == \"switch_statement\" {}\nlet k = p.kind();\nmatch k {\n    kind::BLOCK | \"text_block\" => f(\"not_a_kind\"),\n    \"=\" if x == \"y\" => { g(\"z\") }\n    _ => {}\n}\nmatches!(n.kind(), \"this\" | \"nope\") // \"comment\"\nlet s = \"free text\";";
    assert_eq!(
        kind_comparisons(planted),
        ["1: \"switch_statement\"", "4: \"text_block\"", "5: \"=\"", "8: \"nope\"", "8: \"this\""]
    );
    let mut scanned = 0;
    let mut offending = Vec::new();
    for e in std::fs::read_dir(root().join("crates")).expect("reading crates/") {
        let dir = e.expect("entry").path();
        let toml = std::fs::read_to_string(dir.join("Cargo.toml")).expect("crate manifest");
        if !toml.contains("tree-sitter") {
            continue;
        }
        let mut files = Vec::new();
        rust_files(&dir.join("src"), &mut files);
        for f in files {
            let text = std::fs::read_to_string(&f).expect("reading source");
            let compared = kind_comparisons(&text);
            scanned += compared.len();
            offending.extend(
                compared
                    .into_iter()
                    .filter(|c| {
                        let kind = c.split('"').nth(1).unwrap_or_default();
                        // The Kotlin outliner and binder compare with the Kotlin grammar's kinds.
                        match f.ends_with("crates/parser/src/kotlin.rs") || is_kotlin_walker(&f) {
                            true => !mcp_java_index::parser::kotlin::in_grammar(kind),
                            false => !mcp_java_index::parser::kind::in_grammar(kind),
                        }
                    })
                    .map(|c| format!("{}:{c}", f.display())),
            );
        }
    }
    assert!(scanned > 20, "the kinds compared with a string were not found: {scanned}");
    assert!(
        offending.is_empty(),
        "strings compared with a node's kind that the grammar does not have:\n{}",
        offending.join("\n")
    );
}

/// The files that write without `mji_fs::write`, each with why that is safe.
const PLAIN_WRITERS: &[(&str, &str)] = &[
    ("crates/fs/src/write.rs", "the primitive itself (its fallback without openat)"),
    ("crates/fs/src/confine.rs", "opens a log for appending from its root down without following links"),
    ("crates/build/src/process.rs", "a child's log, opened with O_NOFOLLOW"),
];

/// Every file is written through `mji_fs::write` (issue 50): a plain `fs::write`,
/// `File::create` or `create(true)` follows a link a repository committed where the file goes.
#[test]
fn every_write_goes_through_mji_fs_write() {
    let planted = "fn f() { std::fs::write(p, b) ; let s = \"fs::write(\"; }\n#[cfg(test)]\nmod tests { fn t() { std::fs::write(p, b); } }";
    assert_eq!(plain_writes(planted), ["1: fs::write("]);
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    for e in std::fs::read_dir(root().join("crates")).expect("reading crates/") {
        rust_files(&e.expect("entry").path().join("src"), &mut files);
    }
    let mut offending = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(root()).expect("under the root").to_string_lossy().replace('\\', "/");
        // A module of tests (`foo/tests.rs`) writes its fixtures as it likes.
        if PLAIN_WRITERS.iter().any(|(p, _)| *p == rel) || rel.ends_with("/tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(f).expect("reading source");
        offending.extend(plain_writes(&text).into_iter().map(|l| format!("{rel}:{l}")));
    }
    assert!(offending.is_empty(), "writes that do not go through mji_fs::write:\n{}", offending.join("\n"));
}

/// The lines (1-based) of `text`'s code before its tests that write a file plainly.
fn plain_writes(text: &str) -> Vec<String> {
    let code = code_only(text);
    let code = code.split("#[cfg(test)]").next().unwrap_or_default();
    let code = code.split("#[cfg(all(test").next().unwrap_or_default();
    let mut found = Vec::new();
    for (n, line) in code.lines().enumerate() {
        for needle in ["fs::write(", "File::create(", ".create(true)"] {
            if line.contains(needle) {
                found.push(format!("{}: {needle}", n + 1));
            }
        }
    }
    found
}
