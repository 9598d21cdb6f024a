//! What answers cost a model, in tokens, against reading the files (issue 14's benchmark).
//!
//! A suite of navigation tasks over the JDK sources and commons-lang3, in eight families (three
//! of them, issue 36's, start from a type's name rather than its file: the locate step is
//! counted), each task the sequence of calls an agent makes (following every page it needs). Per task:
//! the baseline (o200k tokens of the whole files the task needs, `budget::count`), and the
//! tokens of the answers as a model reads them: (a) the text content, (b) the
//! structuredContent as compact JSON (what Claude Code passes to the model when present).
//! Then `tools/list` as the server sends it, with and without output schemas.
//!
//! `cargo bench --bench answer_tokens` (JDK from `$JDK_SRC_DIR`, else `target/jdk-src`;
//! commons-lang3 from `$COMMONS_LANG_DIR`, else `target/corpus/commons-lang3`). Deterministic:
//! no cache, no watcher, a fixed task list.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use mcp_java_index::config::{Config, Flags};
use mcp_java_index::mcp_server::{TOOLS_TTL_MS, to_tool};
use mcp_java_index::tools::budget::count;
use mcp_java_index::tools::catalog::ToolSpec;
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::registry::{self, Answer, dispatch};
use serde_json::{Value, json};

const API: &str = "API of a class";
const METHOD: &str = "read one method";
const CALLERS: &str = "who calls X";
const DEPS: &str = "a type's dependencies";
const FIND: &str = "find a type/symbol";
// Issue 36: the agent starts from a type's name, not its path (the locate step is counted).
const API_BY_NAME: &str = "API of a class, by name";
const METHOD_BY_NAME: &str = "read one method, by name";
const DEFS: &str = "a definition";
const FAMILIES: [&str; 8] = [API, METHOD, CALLERS, DEPS, FIND, API_BY_NAME, METHOD_BY_NAME, DEFS];

/// One corpus: a workspace over one root.
struct Corpus {
    name: &'static str,
    root: PathBuf,
    ws: Host,
}

impl Corpus {
    fn open(name: &'static str, root: PathBuf) -> Corpus {
        let flags = Flags::roots([root.as_path()]).set("watch", false).set("cache", false);
        let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
        ws.build_index();
        Corpus { name, root, ws }
    }

    fn call(&self, tool: &str, args: Value) -> Answer {
        self.try_call(tool, args).unwrap_or_else(|e| panic!("{}: {tool}: {e}", self.name))
    }

    /// A call whose tool error is an answer too (the agent reads it and calls again).
    fn try_call(&self, tool: &str, args: Value) -> Result<Answer, String> {
        let Value::Object(m) = args else { unreachable!("object arguments") };
        dispatch(&self.ws, tool, m)
    }

    fn text(&self, rel: &str) -> String {
        let p = Path::new(rel);
        let p = if p.is_absolute() { p.to_path_buf() } else { self.root.join(p) };
        String::from_utf8_lossy(&std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))).into_owned()
    }

    fn file_tokens(&self, rel: &str) -> usize {
        count(&self.text(rel))
    }
}

/// One task's measurement.
struct Task {
    family: &'static str,
    name: String,
    calls: usize,
    baseline: usize,
    text: usize,
    json: usize,
    /// "read one method": the tokens of the method's own lines, and of the read_range answer.
    method: Option<(usize, usize, usize)>,
    /// "read one method": the text tokens of the two-call path (locate with `java_index`, read
    /// by lines) and of the read without line numbers (`includeLineNumbers: false`), not
    /// counted in the task.
    bare: Option<(usize, usize)>,
}

impl Task {
    fn new(family: &'static str, name: String) -> Task {
        Task { family, name, calls: 0, baseline: 0, text: 0, json: 0, method: None, bare: None }
    }

    fn add(&mut self, a: &Answer) -> (usize, usize) {
        let (t, j) = (count(&a.text()), count(&a.value.to_string()));
        self.calls += 1;
        self.text += t;
        self.json += j;
        (t, j)
    }
}

fn pct(part: usize, whole: usize) -> f64 {
    if whole == 0 { 0.0 } else { 100.0 * part as f64 / whole as f64 }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() { 0.0 } else { v[v.len() / 2] }
}

// ---- the families ---------------------------------------------------------------------------

/// The public API of a class: `java_index` without private members, every page.
fn api(c: &Corpus, file: &str) -> Task {
    let mut t = Task::new(API, format!("{} ({})", short(file), c.name));
    let mut offset = 0u64;
    loop {
        let a =
            c.call("java_index", json!({ "filePath": file, "options": { "includePrivate": false, "offset": offset } }));
        t.add(&a);
        match a.value["nextOffset"].as_u64() {
            Some(n) => offset = n,
            None => break,
        }
    }
    t.baseline = c.file_tokens(file);
    t
}

/// One method's body: `java_read_range` with `symbol` (its name, with the parameter types when
/// the agent wants one overload: `name(T1,T2)`) reads exactly its lines in one call. The older
/// two-call path (`java_index` narrowed to the name, then `java_read_range` of the lines it
/// gave) is measured beside it, not counted. `params` picks the overload (parameter types
/// without generics, comma-separated).
fn method(c: &Corpus, file: &str, name: &str, params: Option<&str>) -> Task {
    let label = match params {
        Some(p) => format!("{}#{name}({p})", short(file)),
        None => format!("{}#{name}", short(file)),
    };
    let mut t = Task::new(METHOD, label.clone());
    let filter = match params {
        Some(p) => format!("{name}({p})"),
        None => name.to_owned(),
    };
    let a = c.call("java_index", json!({ "filePath": file, "options": { "name": filter, "kinds": ["method"] } }));
    let (start, end, types) =
        find_method(&a.value, name, params).unwrap_or_else(|| panic!("{label}: not in the outline"));
    // A name shared by overloads is answered with each overload and its lines: the agent pays
    // for that answer and reads again with the parameter types of the one it wants.
    let (r, (read_text, read_json)) = match c.try_call("java_read_range", json!({ "filePath": file, "symbol": filter }))
    {
        Ok(r) => {
            let n = t.add(&r);
            (r, n)
        }
        Err(e) => {
            let n = count(&e);
            let again = format!("{name}({types})");
            let r = c.call("java_read_range", json!({ "filePath": file, "symbol": again }));
            let (rt, rj) = t.add(&r);
            t.calls += 1;
            t.text += n;
            t.json += n;
            (r, (rt + n, rj + n))
        }
    };
    assert_eq!(
        (r.value["startLine"].as_u64(), r.value["endLine"].as_u64()),
        (Some(start), Some(end)),
        "{label}: the symbol read and the outline disagree"
    );
    let by_lines = c.call("java_read_range", json!({ "filePath": file, "startLine": start, "endLine": end }));
    let two_calls = count(&a.text()) + count(&by_lines.text());
    let bare = c.call(
        "java_read_range",
        json!({ "filePath": file, "symbol": format!("{name}({types})"), "options": { "includeLineNumbers": false } }),
    );
    t.bare = Some((two_calls, count(&bare.text())));
    let text = c.text(file);
    let own: Vec<&str> = text.lines().skip(start as usize - 1).take((end - start + 1) as usize).collect();
    t.method = Some((count(&own.join("\n")), read_text, read_json));
    t.baseline = count(&text);
    t
}

/// The first method so named (with these erased parameter types, when given): its lines and
/// its erased parameter types, comma-separated.
fn find_method(outline: &Value, name: &str, params: Option<&str>) -> Option<(u64, u64, String)> {
    let mut stack: Vec<&Value> = outline["classes"].as_array()?.iter().collect();
    while let Some(ty) = stack.pop() {
        for m in ty["methods"].as_array().into_iter().flatten() {
            if m["name"] != name {
                continue;
            }
            let types: Vec<String> = m["params"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|p| erase(p["typeText"].as_str().unwrap_or("")))
                .collect();
            if params.is_none_or(|p| p == types.join(",")) {
                return Some((m["startLine"].as_u64()?, m["endLine"].as_u64()?, types.join(",")));
            }
        }
        stack.extend(ty["innerClasses"].as_array().into_iter().flatten());
    }
    None
}

/// A type as written without its type arguments: `Map<K, V>` → `Map`.
fn erase(ty: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for ch in ty.chars() {
        match ch {
            '<' => depth += 1,
            '>' => depth -= 1,
            _ if depth == 0 && !ch.is_whitespace() => out.push(ch),
            _ => {}
        }
    }
    out
}

/// Who calls X: `find_references`, every page. Baseline: reading every file with a reference.
fn callers(c: &Corpus, target: &str) -> Task {
    let mut t = Task::new(CALLERS, format!("{target} ({})", c.name));
    let mut files = BTreeSet::new();
    let mut offset = 0u64;
    let mut total = None;
    loop {
        let a = c.call("find_references", json!({ "target": target, "offset": offset }));
        t.add(&a);
        total.get_or_insert(a.value["total"].as_u64().unwrap_or(0));
        for f in a.value["files"].as_array().into_iter().flatten() {
            files.insert(f["file"].as_str().unwrap_or("").to_owned());
        }
        match a.value["nextOffset"].as_u64() {
            Some(n) => offset = n,
            None => break,
        }
    }
    let total = total.unwrap_or(0);
    assert!(total > 0, "{target}: no references");
    t.name = format!("{target} ({}, {total} refs in {} files)", c.name, files.len());
    t.baseline = files.iter().map(|f| c.file_tokens(f)).sum();
    t
}

/// A type's dependencies: `analyze_type_dependencies`. Baseline: reading the type's file.
fn deps(c: &Corpus, ty: &str, file: &str) -> Task {
    let mut t = Task::new(DEPS, format!("{ty} ({})", c.name));
    let a = c.call("analyze_type_dependencies", json!({ "type": ty }));
    t.add(&a);
    t.baseline = c.file_tokens(file);
    t
}

/// Where is X declared: `find_type` or `java_find_symbol`, and the answer must hold the file
/// that declares it. Baseline: reading that file (what an agent reads to see the declaration).
fn find(c: &Corpus, tool: &str, args: Value, file: &str) -> Task {
    let what = args.get("pattern").or(args.get("query")).and_then(Value::as_str).unwrap_or("").to_owned();
    let mut t = Task::new(FIND, format!("{tool} `{what}` ({})", c.name));
    let a = c.call(tool, args);
    t.add(&a);
    let found = a.value["results"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|r| r["filePath"].as_str().is_some_and(|p| p.ends_with(file)));
    assert!(found, "{tool} {what}: {file} not among the results");
    t.baseline = c.file_tokens(file);
    t
}

/// The file the workspace type `name` is declared in, as `find_type` answers it: the locate
/// step an agent takes when a reading tool does not take the name (counted in `t`).
fn locate(c: &Corpus, t: &mut Task, name: &str) -> String {
    let a = c.call("find_type", json!({ "query": name, "limit": 5 }));
    t.add(&a);
    let results = a.value["results"].as_array().cloned().unwrap_or_default();
    let hit = results
        .iter()
        .find(|r| r["fqn"] == name || r["fqn"].as_str().is_some_and(|f| f.ends_with(&format!(".{name}"))));
    hit.and_then(|r| r["filePath"].as_str()).unwrap_or_else(|| panic!("{name}: find_type did not find it")).to_owned()
}

/// The API of a class the agent knows by name: `java_index` with the type's name for
/// `filePath` (one call), every page; where the server does not take a name (an older build),
/// `find_type` first and then the file. Baseline: reading the file.
fn api_by_name(c: &Corpus, name: &str, file: &str) -> Task {
    let mut t = Task::new(API_BY_NAME, format!("{name} ({})", c.name));
    let mut path = name.to_owned();
    let mut offset = 0u64;
    loop {
        let args = json!({ "filePath": path, "includePrivate": false, "offset": offset });
        let a = match c.try_call("java_index", args) {
            Ok(a) if a.value["filePath"].as_str().is_some_and(|p| p.ends_with(".java")) => a,
            _ if offset == 0 && path == name => {
                path = locate(c, &mut t, name);
                continue;
            }
            Err(e) => panic!("{name}: {e}"),
            Ok(a) => panic!("{name}: not the workspace's file: {}", a.value["filePath"]),
        };
        t.add(&a);
        match a.value["nextOffset"].as_u64() {
            Some(n) => offset = n,
            None => break,
        }
    }
    t.baseline = c.file_tokens(file);
    t
}

/// One method of a class the agent knows by name: `java_read_range` with `symbol`
/// `Type#name(Types)` and no file (one call); where the server does not take it, `find_type`
/// first. Baseline: reading the file.
fn method_by_name(c: &Corpus, ty: &str, file: &str, name: &str, params: &str) -> Task {
    let mut t = Task::new(METHOD_BY_NAME, format!("{ty}#{name}({params}) ({})", c.name));
    let symbol = format!("{name}({params})");
    let a = match c.try_call("java_read_range", json!({ "symbol": format!("{ty}#{symbol}") })) {
        Ok(a) => a,
        Err(_) => {
            let path = locate(c, &mut t, ty);
            c.call("java_read_range", json!({ "filePath": path, "symbol": symbol }))
        }
    };
    t.add(&a);
    assert!(a.value["startLine"].as_u64().is_some(), "{ty}#{symbol}: no lines");
    t.baseline = c.file_tokens(file);
    t
}

/// Where is X defined, and how is it declared: `show_definition` of a name. Baseline: reading
/// the declaring file (what an agent reads to see the declaration).
fn definition(c: &Corpus, symbol: &str, file: &str) -> Task {
    let mut t = Task::new(DEFS, format!("{symbol} ({})", c.name));
    let a = c.call("show_definition", json!({ "symbol": symbol, "limit": 5 }));
    t.add(&a);
    let found = a.value["definitions"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|d| d["file"].as_str().is_some_and(|p| p.ends_with(file)));
    assert!(found, "show_definition {symbol}: {file} not among the definitions");
    t.baseline = c.file_tokens(file);
    t
}

fn short(file: &str) -> &str {
    file.rsplit('/').next().unwrap_or(file).trim_end_matches(".java")
}

// ---- tools/list -----------------------------------------------------------------------------

fn tools_list(structured: bool) -> (usize, Vec<(&'static str, usize)>) {
    let specs: Vec<&ToolSpec> = registry::registry().iter().map(|e| &e.spec).collect();
    let tools: Vec<rmcp::model::Tool> = specs.iter().map(|s| to_tool(s, structured)).collect();
    let each =
        specs.iter().zip(&tools).map(|(s, t)| (s.name, count(&serde_json::to_string(t).expect("tool json")))).collect();
    let list = rmcp::model::ListToolsResult::with_all_items(tools).with_ttl_ms(TOOLS_TTL_MS);
    (count(&serde_json::to_string(&list).expect("list json")), each)
}

// ---- the suite ------------------------------------------------------------------------------

fn dir(var: &str, default: &str) -> PathBuf {
    std::env::var_os(var).map(PathBuf::from).unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join(default))
}

fn main() {
    let jdk_dir = dir("JDK_SRC_DIR", "target/jdk-src");
    let lang_dir = dir("COMMONS_LANG_DIR", "target/corpus/commons-lang3").join("src/main/java");
    if !jdk_dir.join("java.base").is_dir() || !lang_dir.join("org/apache/commons/lang3").is_dir() {
        eprintln!(
            "needs the JDK sources at {} and commons-lang3 at {} (set JDK_SRC_DIR / COMMONS_LANG_DIR, or run .ci/run)",
            jdk_dir.display(),
            lang_dir.display()
        );
        return;
    }
    let started = std::time::Instant::now();
    let jdk = Corpus::open("JDK", jdk_dir);
    let lang = Corpus::open("commons-lang3", lang_dir);

    const HASHMAP: &str = "java.base/java/util/HashMap.java";
    const CHM: &str = "java.base/java/util/concurrent/ConcurrentHashMap.java";
    const STRING: &str = "java.base/java/lang/String.java";
    const CHARACTER: &str = "java.base/java/lang/Character.java";
    const COLLECTIONS: &str = "java.base/java/util/Collections.java";
    const PATTERN: &str = "java.base/java/util/regex/Pattern.java";
    const FORMATTER: &str = "java.base/java/util/Formatter.java";
    const ARRAYLIST: &str = "java.base/java/util/ArrayList.java";
    const TREEMAP: &str = "java.base/java/util/TreeMap.java";
    const BIGDECIMAL: &str = "java.base/java/math/BigDecimal.java";
    const L: &str = "org/apache/commons/lang3/";
    let lf = |f: &str| format!("{L}{f}");

    let mut tasks: Vec<Task> = Vec::new();

    // API of a class.
    for f in [HASHMAP, CHM, STRING, CHARACTER, COLLECTIONS, PATTERN, FORMATTER, ARRAYLIST, TREEMAP, BIGDECIMAL] {
        tasks.push(api(&jdk, f));
    }
    for f in ["StringUtils.java", "ArrayUtils.java", "ObjectUtils.java", "Validate.java", "ClassUtils.java"] {
        tasks.push(api(&lang, &lf(f)));
    }
    for f in ["time/DateUtils.java", "builder/ToStringBuilder.java", "math/NumberUtils.java"] {
        tasks.push(api(&lang, &lf(f)));
    }

    // Read one method.
    tasks.push(method(&jdk, HASHMAP, "resize", None));
    tasks.push(method(&jdk, HASHMAP, "putVal", None));
    tasks.push(method(&jdk, CHM, "putVal", None));
    tasks.push(method(&jdk, CHM, "transfer", None));
    tasks.push(method(&jdk, STRING, "split", Some("String,int")));
    tasks.push(method(&jdk, COLLECTIONS, "shuffle", Some("List,Random")));
    tasks.push(method(&jdk, PATTERN, "compile", None));
    tasks.push(method(&jdk, FORMATTER, "format", Some("Locale,String,Object...")));
    tasks.push(method(&jdk, TREEMAP, "deleteEntry", None));
    tasks.push(method(&jdk, BIGDECIMAL, "divide", Some("BigDecimal,MathContext")));
    tasks.push(method(&lang, &lf("StringUtils.java"), "abbreviate", Some("String,String,int,int")));
    tasks.push(method(&lang, &lf("StringUtils.java"), "replaceEach", Some("String,String[],String[],boolean,int")));
    tasks.push(method(&lang, &lf("StringUtils.java"), "getLevenshteinDistance", Some("CharSequence,CharSequence")));
    tasks.push(method(&lang, &lf("ArrayUtils.java"), "removeAll", Some("Object,int...")));
    tasks.push(method(&lang, &lf("math/NumberUtils.java"), "createNumber", None));
    tasks.push(method(&lang, &lf("time/DateUtils.java"), "modify", None));

    // Who calls X.
    for target in [
        "java.util.HashMap#resize()",
        "java.util.concurrent.ConcurrentHashMap#putVal",
        "java.util.Collections#unmodifiableList",
        "java.util.regex.Pattern#compile(String,int)",
        "java.lang.Character#isJavaIdentifierPart(char)",
        "java.util.TreeMap#deleteEntry",
        "java.math.BigDecimal#setScale(int,java.math.RoundingMode)",
    ] {
        tasks.push(callers(&jdk, target));
    }
    for target in [
        "org.apache.commons.lang3.StringUtils#isEmpty",
        "org.apache.commons.lang3.ArrayUtils#isEmpty",
        "org.apache.commons.lang3.Validate#notNull",
        "org.apache.commons.lang3.ObjectUtils#defaultIfNull",
        "org.apache.commons.lang3.StringUtils#join",
    ] {
        tasks.push(callers(&lang, target));
    }

    // A type's dependencies.
    for (ty, f) in [
        ("java.util.HashMap", HASHMAP),
        ("java.util.concurrent.ConcurrentHashMap", CHM),
        ("java.lang.String", STRING),
        ("java.util.Collections", COLLECTIONS),
        ("java.util.regex.Pattern", PATTERN),
        ("java.util.Formatter", FORMATTER),
        ("java.util.TreeMap", TREEMAP),
    ] {
        tasks.push(deps(&jdk, ty, f));
    }
    for f in ["StringUtils", "ArrayUtils", "ClassUtils", "time.DateUtils", "builder.ToStringBuilder"] {
        let ty = format!("org.apache.commons.lang3.{f}");
        tasks.push(deps(&lang, &ty, &lf(&format!("{}.java", f.replace('.', "/")))));
    }

    // Find a type or a symbol.
    for (pattern, f) in [
        ("ConcurrentHashMap", CHM),
        ("CHMap", CHM),
        ("java.util.regex.Pattern", PATTERN),
        ("Formatter", FORMATTER),
        ("TreeM", TREEMAP),
    ] {
        tasks.push(find(&jdk, "find_type", json!({ "pattern": pattern }), f));
    }
    for (query, kind, f) in [
        ("HashMap#resize", "method", HASHMAP),
        ("isJavaIdentifierPart", "method", CHARACTER),
        ("unmodifiableList", "method", COLLECTIONS),
    ] {
        let args = json!({ "rootDir": ".", "query": query, "options": { "matchKind": kind, "maxResults": 20 } });
        tasks.push(find(&jdk, "java_find_symbol", args, f));
    }
    for (pattern, f) in [
        ("StringUtils", "StringUtils.java"),
        ("DateUtils", "time/DateUtils.java"),
        ("TSB", "builder/ToStringBuilder.java"),
    ] {
        tasks.push(find(&lang, "find_type", json!({ "pattern": pattern }), &lf(f)));
    }
    for (query, kind, f) in [
        ("getLevenshteinDistance", "method", "StringUtils.java"),
        ("createNumber", "method", "math/NumberUtils.java"),
        ("StringUtils#abbreviate", "method", "StringUtils.java"),
    ] {
        let args = json!({ "rootDir": ".", "query": query, "options": { "matchKind": kind, "maxResults": 20 } });
        tasks.push(find(&lang, "java_find_symbol", args, &lf(f)));
    }

    // Issue 36: the agent knows the type's name, not its file.
    for (name, f) in [
        ("java.util.HashMap", HASHMAP),
        ("java.util.concurrent.ConcurrentHashMap", CHM),
        ("java.lang.String", STRING),
        ("java.util.Collections", COLLECTIONS),
        ("java.util.regex.Pattern", PATTERN),
        ("java.util.ArrayList", ARRAYLIST),
        ("java.util.TreeMap", TREEMAP),
        ("java.math.BigDecimal", BIGDECIMAL),
    ] {
        tasks.push(api_by_name(&jdk, name, f));
    }
    for (name, f) in [
        ("StringUtils", "StringUtils.java"),
        ("ArrayUtils", "ArrayUtils.java"),
        ("Validate", "Validate.java"),
        ("DateUtils", "time/DateUtils.java"),
        ("ToStringBuilder", "builder/ToStringBuilder.java"),
        ("NumberUtils", "math/NumberUtils.java"),
    ] {
        tasks.push(api_by_name(&lang, name, &lf(f)));
    }
    for (ty, f, name, params) in [
        ("java.util.HashMap", HASHMAP, "resize", ""),
        ("java.util.HashMap", HASHMAP, "putVal", "int,K,V,boolean,boolean"),
        ("java.lang.String", STRING, "split", "String,int"),
        ("java.util.Collections", COLLECTIONS, "shuffle", "List,Random"),
        ("java.util.TreeMap", TREEMAP, "deleteEntry", "Entry"),
    ] {
        tasks.push(method_by_name(&jdk, ty, f, name, params));
    }
    for (ty, f, name, params) in [
        ("StringUtils", "StringUtils.java", "abbreviate", "String,String,int,int"),
        ("StringUtils", "StringUtils.java", "getLevenshteinDistance", "CharSequence,CharSequence"),
        ("ArrayUtils", "ArrayUtils.java", "removeAll", "Object,int..."),
        ("DateUtils", "time/DateUtils.java", "modify", "Calendar,int,ModifyType"),
    ] {
        tasks.push(method_by_name(&lang, ty, &lf(f), name, params));
    }
    for (symbol, f) in [
        ("HashMap.resize", HASHMAP),
        ("java.util.concurrent.ConcurrentHashMap#putVal", CHM),
        ("Collections.unmodifiableList", COLLECTIONS),
        ("java.util.AbstractMap", "java.base/java/util/AbstractMap.java"),
        ("java.util.regex.Pattern#compile", PATTERN),
    ] {
        tasks.push(definition(&jdk, symbol, f));
    }
    for (symbol, f) in [
        ("StringUtils.isEmpty", "StringUtils.java"),
        ("Validate.notNull", "Validate.java"),
        ("org.apache.commons.lang3.builder.ToStringStyle", "builder/ToStringStyle.java"),
        ("DateUtils.MILLIS_PER_DAY", "time/DateUtils.java"),
    ] {
        tasks.push(definition(&lang, symbol, &lf(f)));
    }

    report(&tasks);
    eprintln!("({} tasks in {:.1} s)", tasks.len(), started.elapsed().as_secs_f64());
}

fn report(tasks: &[Task]) {
    println!("## Answer tokens (o200k) against reading the files\n");
    println!("| family | task | calls | baseline | (a) text | (b) JSON | (a) % | (b) % |");
    println!("|---|---|--:|--:|--:|--:|--:|--:|");
    for t in tasks {
        println!(
            "| {} | {} | {} | {} | {} | {} | {:.1} | {:.1} |",
            t.family,
            t.name,
            t.calls,
            t.baseline,
            t.text,
            t.json,
            pct(t.text, t.baseline),
            pct(t.json, t.baseline)
        );
    }

    println!("\n## Per family\n");
    println!("Sum of the answers over sum of the baselines, and the median of the tasks' ratios.\n");
    println!("| family | tasks | baseline | (a) text | (b) JSON | (a) % | (b) % | (a) median % | (b) median % |");
    println!("|---|--:|--:|--:|--:|--:|--:|--:|--:|");
    let row = |name: &str, ts: &[&Task]| {
        let (b, a, j) = ts.iter().fold((0, 0, 0), |(b, a, j), t| (b + t.baseline, a + t.text, j + t.json));
        let ma = median(ts.iter().map(|t| pct(t.text, t.baseline)).collect());
        let mj = median(ts.iter().map(|t| pct(t.json, t.baseline)).collect());
        println!(
            "| {name} | {} | {b} | {a} | {j} | {:.1} | {:.1} | {ma:.1} | {mj:.1} |",
            ts.len(),
            pct(a, b),
            pct(j, b)
        );
        (pct(a, b), pct(j, b), ma, mj)
    };
    let mut by_family = Vec::new();
    for f in FAMILIES {
        let ts: Vec<&Task> = tasks.iter().filter(|t| t.family == f).collect();
        by_family.push((f, row(f, &ts)));
    }
    let all: Vec<&Task> = tasks.iter().collect();
    let overall = row("**overall**", &all);

    println!("\n## Read one method: answers against the method's own lines\n");
    println!("| task | method lines | read_range (a) | read_range (b) | task (a) | task (b) |");
    println!("|---|--:|--:|--:|--:|--:|");
    let mut read_a = Vec::new();
    let mut task_a = Vec::new();
    let mut task_b = Vec::new();
    let mut two_calls_a = Vec::new();
    let mut bare_a = Vec::new();
    for t in tasks {
        if let (Some((own, ra, rj)), Some((two_calls, bare))) = (t.method, t.bare) {
            let r = |n: usize| n as f64 / own as f64;
            println!("| {} | {own} | {:.2}× | {:.2}× | {:.2}× | {:.2}× |", t.name, r(ra), r(rj), r(t.text), r(t.json));
            read_a.push(r(ra));
            task_a.push(r(t.text));
            task_b.push(r(t.json));
            two_calls_a.push(r(two_calls));
            bare_a.push(r(bare));
        }
    }
    let read_median = median(read_a);
    let (task_a, task_b) = (median(task_a), median(task_b));
    println!("\nMedians: read_range (a) {read_median:.2}×, whole task (a) {task_a:.2}×, (b) {task_b:.2}×.");
    println!(
        "The two-call path (java_index with name, then java_read_range of its lines) (a): {:.2}×; the \
         symbol read with its line numbers left out (`includeLineNumbers: false`) (a): {:.2}×.",
        median(two_calls_a),
        median(bare_a)
    );

    println!("\n## tools/list\n");
    let (with, each_with) = tools_list(true);
    let (without, each_without) = tools_list(false);
    println!("| tool | with outputSchema | without |");
    println!("|---|--:|--:|");
    for ((name, w), (_, wo)) in each_with.iter().zip(&each_without) {
        println!("| {name} | {w} | {wo} |");
    }
    println!("| **tools/list** ({} tools) | {with} | {without} |", each_with.len());
    let specs: Vec<&ToolSpec> = registry::registry().iter().map(|e| &e.spec).collect();
    let part = |f: &dyn Fn(&ToolSpec) -> String| specs.iter().map(|s| count(&f(s))).sum::<usize>();
    let descriptions = part(&|s| s.description.to_owned());
    let inputs = part(&|s| Value::Object(s.input_schema.clone()).to_string());
    let outputs = part(&|s| Value::Object(s.output_schema.clone()).to_string());
    println!(
        "
Of which: descriptions {descriptions}, input schemas {inputs}, output schemas {outputs}."
    );

    println!("\n## Goals (issue 14)\n");
    let verdict = |ok: bool| if ok { "met" } else { "missed" };
    let api_row = by_family.iter().find(|(f, _)| *f == API).map(|(_, r)| *r).unwrap_or_default();
    // One goal measured both ways, (a) the text and (b) the JSON, against its limit.
    let goal = |what: &str, a: f64, b: f64, limit: f64, unit: &str, digits: usize| {
        println!(
            "- {what}: (a) {a:.digits$}{unit}, (b) {b:.digits$}{unit} — {} / {}",
            verdict(a <= limit),
            verdict(b <= limit)
        );
    };
    goal("overall ≤ 5% of the baseline", overall.0, overall.1, 5.0, "%", 1);
    goal("API of a class ≤ 30% of the file (median)", api_row.2, api_row.3, 30.0, "%", 1);
    goal("read one method ≤ 1.2× its lines (median, one symbol read)", task_a, task_b, 1.2, "×", 2);
    println!("\n## Goals (issue 36: from a type's name, the medians against reading the file)\n");
    let median_of = |f: &str| by_family.iter().find(|(n, _)| *n == f).map(|(_, r)| *r).unwrap_or_default();
    for (f, limit) in [(API_BY_NAME, 30.0), (METHOD_BY_NAME, 20.0), (DEPS, 30.0), (DEFS, 30.0)] {
        let r = median_of(f);
        goal(&format!("{f} ≤ {limit}% of the file (median)"), r.2, r.3, limit, "%", 1);
    }
    // A workspace lists at most one build's goal tool (maven_goal where the first root is a
    // Maven build, gradle_task where it is a Gradle one): the largest list leaves out the
    // smaller of the two.
    let goal_tool = |n: &str| each_with.iter().find(|(t, _)| *t == n).map_or(0, |(_, c)| *c);
    let largest = with - goal_tool("maven_goal").min(goal_tool("gradle_task"));
    println!(
        "- tools/list ≤ 6,000 tokens with output schemas, the largest list a workspace is shown \
         ({} tools): {largest} — {}",
        each_with.len() - 1,
        verdict(largest <= 6000)
    );
}
