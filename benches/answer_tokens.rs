//! What navigation costs a model in tokens: 50 tasks on the JDK's `java.base` and on
//! commons-lang3, each done with the tools as an agent would (following every page), against
//! reading the whole file(s) the task needs. Tokens are OpenAI's o200k, counted on the text
//! content (what a client that passes the text gives the model) and on the structured JSON
//! (what Claude Code passes when an answer has `structuredContent`).
//!
//! `cargo bench --bench answer_tokens` (JDK from `$JDK_SRC_DIR`, else `target/jdk-src`;
//! commons-lang3 from `target/corpus/commons-lang3`, both put there by `.ci/run`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use mcp_java_index::config::{Config, Flags};
use mcp_java_index::tools::budget::count;
use mcp_java_index::tools::registry::{Answer, dispatch, registry};
use mcp_java_index::tools::workspace::Workspace;
use serde_json::{Value, json};

fn workspace(root: &Path) -> Workspace {
    let flags = Flags::roots([root]).set("watch", false).set("cache", false);
    Workspace::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace")
}

fn call(ws: &Workspace, tool: &str, args: Value) -> Answer {
    let Value::Object(m) = args else { unreachable!("object arguments") };
    dispatch(ws, tool, m).unwrap_or_else(|e| panic!("{tool}: {e}"))
}

/// Tokens of one task: text rendering, structured JSON, the whole-file baseline.
#[derive(Default, Clone, Copy)]
struct Cost {
    text: usize,
    json: usize,
    baseline: usize,
}

impl Cost {
    fn add(&mut self, a: &Answer) {
        self.text += count(&a.text());
        self.json += count(&a.value.to_string());
    }
}

fn file_tokens(root: &Path, rel: &str) -> usize {
    count(&String::from_utf8_lossy(&std::fs::read(root.join(rel)).expect("read")))
}

/// Every page of a `java_index` call, following `nextOffset`.
fn outline_pages(ws: &Workspace, file: &str, options: Value, cost: &mut Cost) -> Vec<Value> {
    let mut pages = Vec::new();
    let mut options = options;
    loop {
        let a = call(ws, "java_index", json!({ "filePath": file, "options": options }));
        cost.add(&a);
        let next = a.value["nextOffset"].as_u64();
        pages.push(a.value);
        match next {
            Some(n) => options["offset"] = json!(n),
            None => return pages,
        }
    }
}

fn api_of_class(ws: &Workspace, root: &Path, file: &str) -> Cost {
    let mut c = Cost { baseline: file_tokens(root, file), ..Cost::default() };
    outline_pages(ws, file, json!({ "includePrivate": false }), &mut c);
    c
}

/// Finds the method with `java_index` (by name), then reads exactly its lines. Also returns
/// the read's text tokens and the method's own lines' tokens.
fn read_one_method(ws: &Workspace, root: &Path, file: &str, method: &str) -> (Cost, usize, usize) {
    let mut c = Cost { baseline: file_tokens(root, file), ..Cost::default() };
    let pages = outline_pages(ws, file, json!({ "name": method, "kinds": ["method"] }), &mut c);
    let mut found = None;
    let mut stack: Vec<&Value> = pages.iter().flat_map(|p| p["classes"].as_array().into_iter().flatten()).collect();
    while let Some(t) = stack.pop() {
        if let Some(m) = t["methods"].as_array().into_iter().flatten().find(|m| m["name"] == method) {
            found = Some((m["startLine"].as_u64().expect("start"), m["endLine"].as_u64().expect("end")));
            break;
        }
        stack.extend(t["innerClasses"].as_array().into_iter().flatten());
    }
    let (s, e) = found.unwrap_or_else(|| panic!("{file}: no method {method}"));
    let read = call(ws, "java_read_range", json!({ "filePath": file, "startLine": s, "endLine": e }));
    c.add(&read);
    let text = String::from_utf8_lossy(&std::fs::read(root.join(file)).expect("read")).into_owned();
    let own: Vec<&str> = text.lines().skip(s as usize - 1).take((e - s + 1) as usize).collect();
    (c, count(&read.text()), count(&own.join("\n")))
}

/// Every page of `find_references`; the baseline reads every file with a reference.
fn who_calls(ws: &Workspace, root: &Path, target: &str) -> Cost {
    let mut c = Cost::default();
    let mut files = std::collections::BTreeSet::new();
    let mut offset = 0u64;
    loop {
        let a = call(ws, "find_references", json!({ "target": target, "limit": 200, "offset": offset }));
        c.add(&a);
        for f in a.value["files"].as_array().into_iter().flatten() {
            files.insert(f["file"].as_str().expect("file").to_owned());
        }
        match a.value["nextOffset"].as_u64() {
            Some(n) => offset = n,
            None => break,
        }
    }
    assert!(!files.is_empty(), "{target}: no references");
    c.baseline = files.iter().map(|f| file_tokens(root, f)).sum();
    c
}

fn dependencies(ws: &Workspace, root: &Path, file: &str, ty: &str) -> Cost {
    let mut c = Cost { baseline: file_tokens(root, file), ..Cost::default() };
    c.add(&call(ws, "analyze_type_dependencies", json!({ "type": ty })));
    c
}

fn pct(a: usize, b: usize) -> String {
    format!("{:.1}%", 100.0 * a as f64 / b.max(1) as f64)
}

fn main() {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let jdk = std::env::var_os("JDK_SRC_DIR").map(PathBuf::from).unwrap_or_else(|| here.join("target/jdk-src"));
    let jdk = jdk.join("java.base");
    let lang = here.join("target/corpus/commons-lang3/src/main/java");
    if !jdk.is_dir() || !lang.is_dir() {
        eprintln!("needs {} and {} (run .ci/run)", jdk.display(), lang.display());
        return;
    }
    let (wj, wl) = (workspace(&jdk), workspace(&lang));
    wj.build_index();
    wl.build_index();
    let l3 = |f: &str| format!("org/apache/commons/lang3/{f}");
    let mut families: BTreeMap<&str, Vec<(String, Cost)>> = BTreeMap::new();
    let mut method_reads: Vec<(String, usize, usize)> = Vec::new();

    for f in [
        "java/util/HashMap.java",
        "java/util/ArrayList.java",
        "java/util/Collections.java",
        "java/lang/String.java",
        "java/lang/Character.java",
        "java/util/concurrent/ConcurrentHashMap.java",
        "java/util/regex/Pattern.java",
        "java/util/Formatter.java",
        "java/lang/Integer.java",
        "java/util/TreeMap.java",
    ] {
        families.entry("API of a class").or_default().push((f.to_owned(), api_of_class(&wj, &jdk, f)));
    }
    for f in ["StringUtils.java", "ArrayUtils.java", "ObjectUtils.java", "Validate.java", "StringEscapeUtils.java"] {
        let f = l3(f);
        families.entry("API of a class").or_default().push((f.clone(), api_of_class(&wl, &lang, &f)));
    }

    let jdk_methods = [
        ("java/util/HashMap.java", "putVal"),
        ("java/util/ArrayList.java", "grow"),
        ("java/lang/String.java", "indexOf"),
        ("java/util/Collections.java", "shuffle"),
        ("java/util/concurrent/ConcurrentHashMap.java", "putVal"),
        ("java/util/regex/Pattern.java", "compile"),
        ("java/lang/Integer.java", "parseInt"),
        ("java/util/TreeMap.java", "put"),
        ("java/util/HashMap.java", "resize"),
        ("java/lang/Character.java", "isLetter"),
    ];
    for (f, m) in jdk_methods {
        let (c, read, own) = read_one_method(&wj, &jdk, f, m);
        families.entry("read one method").or_default().push((format!("{f}#{m}"), c));
        method_reads.push((format!("{f}#{m}"), read, own));
    }
    for (f, m) in [
        ("StringUtils.java", "abbreviate"),
        ("StringUtils.java", "isBlank"),
        ("ArrayUtils.java", "addAll"),
        ("ObjectUtils.java", "defaultIfNull"),
        ("Validate.java", "notBlank"),
    ] {
        let f = l3(f);
        let (c, read, own) = read_one_method(&wl, &lang, &f, m);
        families.entry("read one method").or_default().push((format!("{f}#{m}"), c));
        method_reads.push((format!("{f}#{m}"), read, own));
    }

    for t in [
        "java.util.Objects#requireNonNull(Object,String)",
        "java.lang.String#isEmpty()",
        "java.util.Collections#emptyList()",
        "java.lang.Integer#parseInt(String)",
        "java.util.regex.Pattern#compile(String)",
        "java.util.HashMap#putVal(int,Object,Object,boolean,boolean)",
        "java.lang.Math#max(int,int)",
    ] {
        families.entry("who calls X").or_default().push((t.to_owned(), who_calls(&wj, &jdk, t)));
    }
    for t in [
        "org.apache.commons.lang3.StringUtils#isEmpty(CharSequence)",
        "org.apache.commons.lang3.StringUtils#isBlank(CharSequence)",
        "org.apache.commons.lang3.ArrayUtils#isEmpty(Object[])",
        "org.apache.commons.lang3.StringUtils#join(Object[],String)",
        "org.apache.commons.lang3.StringUtils#trim(String)",
    ] {
        families.entry("who calls X").or_default().push((t.to_owned(), who_calls(&wl, &lang, t)));
    }

    for (f, t) in [
        ("java/util/HashMap.java", "java.util.HashMap"),
        ("java/util/ArrayList.java", "java.util.ArrayList"),
        ("java/util/regex/Pattern.java", "java.util.regex.Pattern"),
        ("java/util/Formatter.java", "java.util.Formatter"),
        ("java/util/concurrent/ConcurrentHashMap.java", "java.util.concurrent.ConcurrentHashMap"),
    ] {
        families.entry("a type's dependencies").or_default().push((t.to_owned(), dependencies(&wj, &jdk, f, t)));
    }
    for t in ["StringUtils", "ArrayUtils", "ObjectUtils"] {
        let f = l3(&format!("{t}.java"));
        let ty = format!("org.apache.commons.lang3.{t}");
        families.entry("a type's dependencies").or_default().push((ty.clone(), dependencies(&wl, &lang, &f, &ty)));
    }

    println!("| task family | tasks | baseline tokens | text tokens (% of baseline) | JSON tokens (% of baseline) |");
    println!("| --- | --- | --- | --- | --- |");
    let mut all = Cost::default();
    let mut n = 0;
    for (family, tasks) in &families {
        let sum = tasks.iter().fold(Cost::default(), |a, (_, c)| Cost {
            text: a.text + c.text,
            json: a.json + c.json,
            baseline: a.baseline + c.baseline,
        });
        println!(
            "| {family} | {} | {} | {} ({}) | {} ({}) |",
            tasks.len(),
            sum.baseline,
            sum.text,
            pct(sum.text, sum.baseline),
            sum.json,
            pct(sum.json, sum.baseline)
        );
        all = Cost { text: all.text + sum.text, json: all.json + sum.json, baseline: all.baseline + sum.baseline };
        n += tasks.len();
    }
    println!(
        "| all | {n} | {} | {} ({}) | {} ({}) |",
        all.baseline,
        all.text,
        pct(all.text, all.baseline),
        all.json,
        pct(all.json, all.baseline)
    );
    println!();
    println!("API of a class, per file (text / JSON tokens, % of the file):");
    for (f, c) in &families["API of a class"] {
        println!(
            "  {f}: {} / {} of {} ({} / {})",
            c.text,
            c.json,
            c.baseline,
            pct(c.text, c.baseline),
            pct(c.json, c.baseline)
        );
    }
    let (read, own): (usize, usize) = method_reads.iter().fold((0, 0), |a, (_, r, o)| (a.0 + r, a.1 + o));
    println!();
    println!(
        "read one method: java_read_range's text is {:.2}x the method's own lines ({read} / {own} tokens)",
        read as f64 / own as f64
    );

    // What listing the tools costs before any work, as tools/list sends it.
    let list = |with_output: bool| -> usize {
        let tools: Vec<Value> = registry()
            .iter()
            .map(|e| {
                let s = &e.spec;
                let mut t = json!({
                    "name": s.name, "title": s.title, "description": s.description,
                    "inputSchema": s.input_schema,
                    "annotations": { "title": s.title, "readOnlyHint": s.read_only, "destructiveHint": s.destructive,
                                     "idempotentHint": s.idempotent, "openWorldHint": s.open_world },
                });
                if with_output {
                    t["outputSchema"] = Value::Object(s.output_schema.clone());
                }
                t
            })
            .collect();
        count(&json!({ "tools": tools }).to_string())
    };
    println!();
    println!(
        "tools/list ({} tools): {} tokens with output schemas, {} without",
        registry().len(),
        list(true),
        list(false)
    );
}
