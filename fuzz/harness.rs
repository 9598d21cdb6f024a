//! The bodies of the fuzz targets, as plain functions: `fuzz/fuzz_targets/*.rs` call them
//! under libFuzzer (nightly, `cargo fuzz`), and `tests/it/invariants/fuzz_replay.rs` calls them on every
//! committed corpus and regression input under the stable toolchain. Each one feeds arbitrary
//! bytes to a boundary that takes input from outside and panics when an invariant breaks:
//! - [`parse`]: the parse layer (`mji-parser`): outline, declaration outline, skeleton,
//!   lexical problems — never fails, lines in range, JSON that reads back;
//! - [`jsonrpc`]: bytes as the server's stdin, through the line transport, rmcp's dispatch
//!   and the handler on a small workspace — every output line a JSON-RPC message, no panic
//!   reaching a client;
//! - [`path_policy`]: a client-given path string through `normalize_input`,
//!   `lexical_normalize`, `Roots::resolve`/`admit`/`read` — an accepted path is canonical and
//!   inside a root, never in the directory beside the roots that links point to;
//! - [`repo_config`]: bytes as a repository's `mcp-java-index.toml` through the configuration
//!   loader — never an error (a repository file never stops the server), never a path key
//!   that leads outside the root, never an echo of a long value;
//! - [`settings_merge`]: a user's configuration file and a repository's (split at a line
//!   `---`) through the loader — the repository's file never widens what the user's (or the
//!   default) gives: every deny list a superset, every group list a subset, every limit lower,
//!   no path outside the root or inside `.git`;
//! - [`classfile`]: bytes as a library's class file through the reader, the outline and
//!   Kotlin's view of its `kotlin.Metadata` (a jar is untrusted input) — never a panic, lines
//!   in range, JSON that reads back.

#![allow(dead_code)]

use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, OnceLock};

use mji_model::{FileOutline, TypeDecl};

// ---------------------------------------------------------------------------------------------
// The parse layer

/// Parses `data` every way the parser offers and checks what comes out.
pub fn parse(data: &[u8]) {
    let full = mji_parser::outline("Fuzz.java", data);
    check_outline(&full, "outline");
    let decls = mji_parser::outline_declarations("Fuzz.java", data);
    check_outline(&decls, "outline_declarations");
    assert_eq!(full.line_count, decls.line_count, "both outlines count the same lines");
    // A file that parses cleanly has the same declarations on the fast path.
    if full.errors.is_empty() && decls.errors.is_empty() {
        assert_eq!(shape(&full.classes), shape(&decls.classes), "outline_declarations differs from outline");
    }

    let src = mji_parser::SourceText::decode(data);
    let prep = mji_parser::Prepared::new(&src.text);
    assert_eq!(prep.text.len(), prep.shown().len(), "shown() keeps the offsets of the prepared text");
    if let Some(sk) = mji_parser::skeleton::skeleton(prep.shown()) {
        let terminators = |t: &str| t.bytes().filter(|&b| b == b'\n' || b == b'\r').count();
        assert_eq!(terminators(&sk), terminators(prep.shown()), "the skeleton keeps every line terminator");
    }
    for (offset, message) in mji_parser::skeleton::lexical_problems(&src.text) {
        assert!(offset <= src.text.len(), "lexical problem past the end: {offset} {message}");
    }
}

/// Reads `data` as a class file, outlines it and, where it carries `kotlin.Metadata`, applies
/// Kotlin's view (its member classes are loaded as `data` again: a class that names itself).
pub fn classfile(data: &[u8]) {
    let Ok(cf) = mji_classfile::parse(data) else { return };
    let mut load = |_: &str| Some(data.to_vec());
    let mut o = mji_classfile::outline::outline("Fuzz.class".to_owned(), String::new(), &cf, &mut load);
    check_class_outline(&o, "class outline");
    mji_classfile::outline::kotlin_view(&mut o, &cf, &mut load);
    check_class_outline(&o, "kotlin view");
}

/// A class file's outline: JSON that reads back, nesting bounded, and no lines (a class file
/// has none: every declaration's lines are 0).
fn check_class_outline(o: &FileOutline, what: &str) {
    let json = serde_json::to_string(o).unwrap_or_else(|e| panic!("{what}: serializing: {e}"));
    let back: serde_json::Value =
        serde_json::from_str(&json).unwrap_or_else(|e| panic!("{what}: its JSON does not read back: {e}"));
    assert!(back.is_object(), "{what}: not an object");
    let mut stack: Vec<(&TypeDecl, u32)> = o.classes.iter().map(|t| (t, 1)).collect();
    while let Some((t, depth)) = stack.pop() {
        assert!(depth <= 64, "{what}: type nested {depth} deep");
        let lines = std::iter::once((t.start_line, t.end_line, &t.name))
            .chain(t.fields.iter().map(|f| (f.start_line, f.end_line, &f.name)))
            .chain(t.methods.iter().map(|m| (m.start_line, m.end_line, &m.name)))
            .chain(t.constructors.iter().map(|c| (c.start_line, c.end_line, &c.name)));
        for (s, e, name) in lines {
            assert!(s == 0 && e == 0, "{what}: {name} has lines {s}-{e} in a class file");
        }
        stack.extend(t.inner_classes.iter().map(|i| (i, depth + 1)));
    }
}

fn check_outline(o: &FileOutline, what: &str) {
    let json = serde_json::to_string(o).unwrap_or_else(|e| panic!("{what}: serializing: {e}"));
    let back: serde_json::Value =
        serde_json::from_str(&json).unwrap_or_else(|e| panic!("{what}: its JSON does not read back: {e}"));
    assert!(back.is_object(), "{what}: not an object");
    let last = o.line_count.max(1);
    let mut stack: Vec<(&TypeDecl, u32)> = o.classes.iter().map(|t| (t, 1)).collect();
    while let Some((t, depth)) = stack.pop() {
        assert!(depth <= mji_parser::MAX_TYPE_NESTING, "{what}: type nested {depth} deep");
        let lines = std::iter::once((t.start_line, t.end_line, &t.name))
            .chain(t.fields.iter().map(|f| (f.start_line, f.end_line, &f.name)))
            .chain(t.methods.iter().map(|m| (m.start_line, m.end_line, &m.name)))
            .chain(t.constructors.iter().map(|c| (c.start_line, c.end_line, &c.name)));
        for (s, e, name) in lines {
            assert!(1 <= s && s <= e && e <= last, "{what}: {name} has lines {s}-{e} of {last}");
        }
        for j in std::iter::once(&t.javadoc)
            .chain(t.fields.iter().map(|f| &f.javadoc))
            .chain(t.methods.iter().map(|m| &m.javadoc))
        {
            if let (Some(s), Some(e)) = (j.start_line, j.end_line) {
                assert!(1 <= s && s <= e && e <= last, "{what}: javadoc lines {s}-{e} of {last}");
            }
        }
        stack.extend(t.inner_classes.iter().map(|i| (i, depth + 1)));
    }
}

/// Names and lines of every declaration, for comparing two outlines.
fn shape(types: &[TypeDecl]) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack: Vec<&TypeDecl> = types.iter().rev().collect();
    while let Some(t) = stack.pop() {
        out.push(format!("type {} {}-{}", t.qualified_name, t.start_line, t.end_line));
        out.extend(t.fields.iter().map(|f| format!("field {} {}-{}", f.name, f.start_line, f.end_line)));
        out.extend(t.methods.iter().map(|m| format!("method {} {}-{}", m.signature_text, m.start_line, m.end_line)));
        out.extend(t.constructors.iter().map(|c| format!("ctor {} {}-{}", c.signature_text, c.start_line, c.end_line)));
        stack.extend(t.inner_classes.iter().rev());
    }
    out
}

// ---------------------------------------------------------------------------------------------
// JSON-RPC input

const A_JAVA: &str = "package p;\n\n/** An A. */\npublic class A<T> implements Comparable<A<T>> {\n    /** The value. */\n    private final T value;\n\n    public A(T value) { this.value = value; }\n\n    /** Returns it. */\n    public T get() { return value; }\n\n    @Override\n    public int compareTo(A<T> o) { return 0; }\n\n    enum Kind { ONE, TWO }\n}\n";
const B_JAVA: &str = "package p;\n\nimport java.util.List;\n\nrecord B(List<A<String>> items) {\n    String first() { return items.get(0).get(); }\n\n    static int count(B b) { return b.items().size(); }\n}\n";

/// A fresh directory under the system's temporary directory for this process.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mji-fuzz-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("creating the scratch directory");
    dir
}

struct Server {
    runtime: tokio::runtime::Runtime,
    ws: Arc<mji_tools::host::Host>,
}

fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        let root = scratch("jsonrpc");
        std::fs::create_dir_all(root.join("src/p")).expect("mkdir");
        std::fs::write(root.join("src/p/A.java"), A_JAVA).expect("write");
        std::fs::write(root.join("src/p/B.java"), B_JAVA).expect("write");
        std::fs::write(root.join("src/p/notes.txt"), "a resource\n").expect("write");
        let flags = mji_config::Flags::roots([root]).set("watch", false);
        let config = mji_config::Config::load(&flags, &|_| None).expect("config");
        let ws = Arc::new(mji_tools::host::Host::open(config).expect("workspace"));
        ws.start_index();
        let t = std::time::Instant::now();
        while !ws.index().progress().complete && t.elapsed() < std::time::Duration::from_secs(30) {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let runtime =
            tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("tokio runtime");
        Server { runtime, ws }
    })
}

/// A `tools/call` of `get_problems`: it starts a JVM, too slow to fuzz through; its own
/// layers (syntax, the arguments) are covered elsewhere.
fn calls_javac(line: &[u8]) -> bool {
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(line) else { return false };
    let call = |v: &serde_json::Value| {
        v.get("method").and_then(|m| m.as_str()) == Some("tools/call")
            && v.pointer("/params/name").and_then(|n| n.as_str()) == Some("get_problems")
    };
    match &v {
        serde_json::Value::Array(items) => items.iter().any(call),
        v => call(v),
    }
}

/// Feeds `data` to the server as its whole input and returns the lines it wrote.
pub fn jsonrpc(data: &[u8]) -> Vec<String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let s = server();
    let input: Vec<u8> =
        data.split_inclusive(|&b| b == b'\n').filter(|line| !calls_javac(line)).flatten().copied().collect();
    let ws = s.ws.clone();
    let out = s.runtime.block_on(async move {
        let (mut client_in, server_in) = tokio::io::duplex(64 * 1024);
        let (server_out, mut client_out) = tokio::io::duplex(64 * 1024);
        let serving = tokio::spawn(mji_server::serve_io(ws, server_in, server_out, Default::default()));
        let write = async move {
            let _ = client_in.write_all(&input).await;
            let _ = client_in.shutdown().await;
        };
        let read = async move {
            let mut out = Vec::new();
            let _ = client_out.read_to_end(&mut out).await;
            out
        };
        let both = async { tokio::join!(write, read).1 };
        let out = tokio::time::timeout(std::time::Duration::from_secs(20), both)
            .await
            .expect("the server did not finish within 20 s of its input ending");
        let _ = serving.await;
        out
    });
    let text = String::from_utf8(out).expect("the server wrote invalid UTF-8");
    let lines: Vec<String> = text.lines().map(str::to_owned).collect();
    for line in &lines {
        let v: serde_json::Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("the server wrote a line that is not JSON ({e}): {line}"));
        assert_eq!(v.get("jsonrpc").and_then(|j| j.as_str()), Some("2.0"), "not JSON-RPC 2.0: {line}");
        assert!(!line.contains("internal error:") && !line.contains("panicked"), "a panic reached the client: {line}");
    }
    lines
}

// ---------------------------------------------------------------------------------------------
// The path policy

struct Tree {
    /// The two roots, the first holding the second's sibling links.
    root: PathBuf,
    root2: PathBuf,
    /// Beside the roots, where the planted links point: nothing here may be accepted.
    outside: PathBuf,
    one: mji_fs::roots::Roots,
    two: mji_fs::roots::Roots,
}

fn tree() -> &'static Tree {
    static TREE: OnceLock<Tree> = OnceLock::new();
    TREE.get_or_init(|| {
        let base = scratch("paths");
        let (root, root2, outside) = (base.join("root"), base.join("root2"), base.join("outside"));
        for d in [root.join("p/q"), root2.join("r"), outside.join("s")] {
            std::fs::create_dir_all(d).expect("mkdir");
        }
        for f in [root.join("p/A.java"), root.join("p/q/B.java"), root2.join("r/C.java"), outside.join("S.java")] {
            std::fs::write(f, "class X {}\n").expect("write");
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::symlink;
            symlink("A.java", root.join("p/In.java")).expect("symlink");
            symlink("../../outside/S.java", root.join("p/Out.java")).expect("symlink");
            symlink("../outside", root.join("out")).expect("symlink");
            symlink("../root/p", root2.join("p")).expect("symlink");
            symlink(&outside, root2.join("abs")).expect("symlink");
            symlink("loop", root.join("loop")).expect("symlink");
        }
        let canon = |p: &Path| std::fs::canonicalize(p).expect("canonical");
        let (root, root2, outside) = (canon(&root), canon(&root2), canon(&outside));
        let one = mji_fs::roots::Roots::new([root.clone()]).expect("roots");
        let two = mji_fs::roots::Roots::new([root.clone(), root2.clone()]).expect("roots");
        Tree { root, root2, outside, one, two }
    })
}

/// Runs a path string through the policy and checks that whatever is accepted is inside.
/// Returns the path the single-root policy accepted, if any.
pub fn path_policy(data: &[u8]) -> Option<PathBuf> {
    let t = tree();
    let given = String::from_utf8_lossy(data);
    let given: &str = &given;

    if let Ok(p) = mji_fs::roots::normalize_input(given) {
        assert!(!p.as_os_str().as_encoded_bytes().contains(&0), "a NUL survived: {p:?}");
        if cfg!(unix) {
            assert!(!p.as_os_str().as_encoded_bytes().contains(&b'\\'), "a backslash survived: {p:?}");
        }
    }
    for c in given.split(['/', '\\']) {
        let _ = mji_fs::roots::is_windows_device_name(c);
    }

    // lexical_normalize: no `.` or `..` left, idempotent, absolute stays absolute and inside
    // `/`, and a path joined to a root that stays under it lexically has no `..` escape.
    let raw = Path::new(given);
    let n = mji_fs::lexical_normalize(raw);
    assert!(
        n.components().all(|c| !matches!(c, Component::CurDir | Component::ParentDir)),
        "lexical_normalize({raw:?}) = {n:?} kept . or .."
    );
    assert_eq!(mji_fs::lexical_normalize(&n), n, "lexical_normalize is not idempotent on {raw:?}");
    assert_eq!(n.has_root(), raw.has_root(), "lexical_normalize({raw:?}) = {n:?} changed whether it is rooted");
    let joined = mji_fs::lexical_normalize(&t.root.join(raw));
    if t.one.root_of(&joined).is_some() {
        assert!(joined.starts_with(&t.root), "{joined:?} accepted as inside {:?}", t.root);
    }

    let mut accepted = None;
    for (roots, single) in [(&t.one, true), (&t.two, false)] {
        if let Ok(r) = roots.resolve(given) {
            if single {
                accepted = Some(r.path.clone());
            }
            check_inside(roots, &r.path, r.root, given);
            if single {
                let back = if r.display == "." { t.root.clone() } else { t.root.join(&r.display) };
                assert_eq!(back, r.path, "display {} does not name {:?}", r.display, r.path);
            } else {
                assert_eq!(Path::new(&r.display), r.path, "absolute display for several roots");
            }
            if let Ok(bytes) = roots.read(&r.path, &r.display) {
                assert!(bytes.len() as u64 <= roots.max_file_bytes());
            }
        }
        if let Ok((canon, i)) = roots.admit(raw) {
            check_inside(roots, &canon, i, given);
        }
    }
    accepted
}

fn check_inside(roots: &mji_fs::roots::Roots, path: &Path, root: usize, given: &str) {
    let t = tree();
    let root_path = &roots.paths()[root];
    assert!(path.starts_with(root_path), "{given:?} accepted as {path:?}, outside its root {root_path:?}");
    assert!(!path.starts_with(&t.outside), "{given:?} reached {path:?}, beside the roots");
    assert!(path.starts_with(&t.root) || path.starts_with(&t.root2), "{given:?} -> {path:?}");
    let canon = std::fs::canonicalize(path).unwrap_or_else(|e| panic!("{given:?} accepted as {path:?}: {e}"));
    assert_eq!(&canon, path, "{given:?} accepted as a path that is not canonical");
    assert_eq!(roots.root_of(path), Some(root), "{given:?}: root_of disagrees");
}

// ---------------------------------------------------------------------------------------------
// The repository's configuration file

/// A root with a link out of it and a home without a user configuration, made once per process.
fn config_tree() -> &'static (PathBuf, PathBuf) {
    static TREE: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    TREE.get_or_init(|| {
        let base = std::env::temp_dir().join(format!("mji-fuzz-config-{}", std::process::id()));
        let root = base.join("root");
        let home = base.join("home");
        std::fs::create_dir_all(root.join("logs")).expect("mkdir");
        std::fs::create_dir_all(&home).expect("mkdir");
        #[cfg(unix)]
        {
            let _ = std::os::unix::fs::symlink(base.join("elsewhere"), root.join("out"));
            let _ = std::os::unix::fs::symlink(&home, root.join("home"));
        }
        (std::fs::canonicalize(&root).expect("canon"), home)
    })
}

/// Loads `data` as the repository's configuration file: the load never fails, every path key
/// it set leads inside the root, and what it says it ignored quotes no long value.
pub fn repo_config(data: &[u8]) {
    let (root, home) = config_tree();
    std::fs::write(root.join("mcp-java-index.toml"), data).expect("write the file");
    let home_s = home.to_string_lossy().into_owned();
    let env = |k: &str| (k == "HOME").then(|| home_s.clone());
    let flags = mji_config::Flags::roots([root]);
    let c = match mji_config::Config::load(&flags, &env) {
        Ok(c) => c,
        Err(e) => panic!("a repository file stopped the load: {e}"),
    };
    let paths = c.log_file.iter().chain(c.cache_dir.iter()).chain(c.classpath.iter());
    for p in paths {
        assert!(
            mji_fs::confine::inside(p, std::slice::from_ref(root)).is_ok(),
            "a repository path leads outside: {p:?}"
        );
    }
    for i in &c.ignored {
        assert!(i.len() < 2_000 + root.as_os_str().len(), "an ignored line echoes its value: {} bytes", i.len());
    }
}

// ---------------------------------------------------------------------------------------------
// The settings merge: a user's file and a repository's

/// A root holding a `.git` directory and a link to it, and a home whose user configuration the
/// target writes, made once per process (apart from [`config_tree`], whose file another target
/// writes at the same time when the replay runs them in parallel).
fn merge_tree() -> &'static (PathBuf, PathBuf) {
    static TREE: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    TREE.get_or_init(|| {
        let base = scratch("merge");
        let root = base.join("root");
        let home = base.join("home");
        std::fs::create_dir_all(root.join(".git")).expect("mkdir");
        std::fs::create_dir_all(root.join("logs")).expect("mkdir");
        std::fs::create_dir_all(home.join(".config/mcp-java-index")).expect("mkdir");
        #[cfg(unix)]
        {
            let _ = std::os::unix::fs::symlink(".git", root.join("g"));
            let _ = std::os::unix::fs::symlink(base.join("elsewhere"), root.join("out"));
        }
        (std::fs::canonicalize(&root).expect("canon"), home)
    })
}

/// Loads the user's file (the bytes before a line `---`, none without one) alone and then with
/// the repository's (the bytes after it): the repository never widens what the user's gives.
pub fn settings_merge(data: &[u8]) {
    let (root, home) = merge_tree();
    const SEP: &[u8] = b"\n---\n";
    let (user, repo) = match data.windows(SEP.len()).position(|w| w == SEP) {
        Some(i) => (&data[..i], &data[i + SEP.len()..]),
        None => (&b""[..], data),
    };
    std::fs::write(home.join(".config/mcp-java-index/config.toml"), user).expect("write the user file");
    let home_s = home.to_string_lossy().into_owned();
    let env = |k: &str| (k == "HOME").then(|| home_s.clone());
    let flags = mji_config::Flags::roots([root]);
    let project = root.join("mcp-java-index.toml");
    let _ = std::fs::remove_file(&project);
    // The user's own file may stop the load: then there is nothing to narrow.
    let Ok(below) = mji_config::Config::load(&flags, &env) else { return };
    std::fs::write(&project, repo).expect("write the repository file");
    let merged = match mji_config::Config::load(&flags, &env) {
        Ok(c) => c,
        Err(e) => panic!("a repository file stopped the load: {e}"),
    };
    let wide = mji_config::widened(&below, &merged);
    assert!(wide.is_empty(), "the repository widened the user's settings: {wide:?}");
    // The headline rules, said again without the keys' declarations.
    assert!(below.read_deny.iter().all(|d| merged.read_deny.contains(d)), "read_deny lost an item");
    assert!(merged.tool_groups.iter().all(|g| below.tool_groups.contains(g)), "tools gained a group");
    assert_eq!(merged.read_allow, below.read_allow, "read_allow changed");
    assert!(merged.answer_tokens <= below.answer_tokens.min(200_000), "answer_tokens rose");
    assert!(merged.max_file_bytes <= below.max_file_bytes, "max_file_bytes rose");
    for p in merged.log_file.iter().chain(merged.cache_dir.iter()) {
        if Some(p) != below.log_file.as_ref() && Some(p) != below.cache_dir.as_ref() {
            let real = mji_fs::confine::resolve(p).unwrap_or_else(|_| p.clone());
            let rel = real.strip_prefix(root).unwrap_or(&real);
            assert!(
                !rel.components().any(|c| c.as_os_str().to_string_lossy().eq_ignore_ascii_case(".git")),
                "a repository path leads into .git: {p:?}"
            );
        }
    }
}
