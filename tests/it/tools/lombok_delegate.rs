//! Lombok's `@Delegate` with `delombok` as the oracle: a workspace interface delegate (with
//! `excludes=` and a written method that wins), a JDK one (`List<String>`, whose methods come
//! from `List`, `Collection` and `Iterable`), `types=` and a delegating method, written to a
//! temporary directory. The references of every method `delombok` writes equal, file by file,
//! our engine's on the original; rename of a delegated method is refused as generated.

use std::collections::BTreeMap;
use std::path::Path;

use mcp_java_index::config::{Config, Flags};
use mcp_java_index::parser;
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::tool::find_references::FindReferencesArgs;

use mcp_java_index::tools::registry::dispatch;
use serde_json::json;

use super::lombok_oracle::{delombok, members};

const FILES: &[(&str, &str)] = &[
    ("p/Base.java", "package p;\n\npublic interface Base {\n    void close();\n    String name();\n}\n"),
    (
        "p/Dep.java",
        "package p;\n\npublic interface Dep<T> extends Base {\n    T fetch(String key);\n    void store(String key, T value);\n    default int size() { return 0; }\n    static Dep<String> none() { return null; }\n}\n",
    ),
    (
        "p/Holder.java",
        "package p;\n\nimport java.util.List;\nimport lombok.experimental.Delegate;\n\npublic class Holder {\n    @Delegate(excludes = Base.class)\n    private final Dep<Integer> dep;\n    @Delegate(excludes = Iterable.class)\n    private final List<String> items;\n\n    public Holder(Dep<Integer> dep, List<String> items) {\n        this.dep = dep;\n        this.items = items;\n    }\n\n    public int size() {\n        return 42;\n    }\n}\n",
    ),
    (
        "p/User.java",
        "package p;\n\npublic class User {\n    int use(Holder h) {\n        h.store(\"a\", 1);\n        Integer x = h.fetch(\"a\");\n        h.add(\"x\");\n        h.add(0, \"y\");\n        boolean b = h.contains(\"x\") || h.isEmpty();\n        String s = h.get(0);\n        h.sort(null);\n        h.stream().map(String::length).count();\n        return h.size() + x + s.length() + h.indexOf(\"x\") + h.get(1).length();\n    }\n}\n",
    ),
    (
        "p/Bag.java",
        "package p;\n\nimport lombok.experimental.Delegate;\n\npublic class Bag {\n    @Delegate(types = Base.class)\n    private final Dep<Integer> dep = null;\n\n    @Delegate\n    private Runnable task() {\n        return null;\n    }\n}\n",
    ),
    (
        "p/BagUser.java",
        "package p;\n\npublic class BagUser {\n    String use(Bag b) {\n        b.close();\n        b.run();\n        Runnable r = b::run;\n        return b.name();\n    }\n}\n",
    ),
];

fn write(dir: &Path) {
    for (rel, text) in FILES {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().expect("a parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }
}

fn workspace(dir: &Path) -> Host {
    let flags = Flags::roots([dir]).set("watch", false).set("cache", false);
    let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    ws.build_index();
    ws
}

/// `file -> lines` of `target`'s references, less those `inside` code delombok writes.
fn refs(ws: &Host, target: &str, inside: &dyn Fn(&str, u32) -> bool) -> BTreeMap<String, Vec<u32>> {
    let args = FindReferencesArgs { target: target.into(), limit: 10_000, ..Default::default() };
    let r = mcp_java_index::tools::tool::find_references::run(ws, &args)
        .unwrap_or_else(|e| panic!("find_references {target}: {e}"));
    let mut out: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    for f in &r.files {
        for x in f.references.iter().filter(|x| !inside(&f.file, x.line)) {
            out.entry(f.file.clone()).or_default().push(x.line);
        }
    }
    out
}

#[test]
fn delegated_methods_have_the_references_of_the_delomboked_copy_file_by_file() {
    let src = tempfile::tempdir().expect("tempdir");
    write(src.path());
    let out = tempfile::tempdir().expect("tempdir");
    delombok(src.path(), out.path());
    // The methods delombok wrote: members of the copy the original does not declare.
    let mut written: BTreeMap<String, Vec<(u32, u32)>> = BTreeMap::new();
    let mut targets = Vec::new();
    for (rel, _) in FILES {
        let ours = members(&parser::outline(rel, &std::fs::read(src.path().join(rel)).expect("read")));
        let theirs = members(&parser::outline(rel, &std::fs::read(out.path().join(rel)).expect("delombok wrote it")));
        let declared: Vec<&str> = ours.iter().map(|m| m.key.as_str()).collect();
        let new: Vec<_> = theirs.iter().filter(|m| !declared.contains(&m.key.as_str())).collect();
        written.insert(rel.to_string(), new.iter().map(|m| m.lines).collect());
        // A method's own type variable (`<T> T[] toArray(T[])`) erased as javac does.
        targets.extend(new.iter().filter_map(|m| m.target.as_ref().map(|t| t.replace("(T[])", "(Object[])"))));
    }
    // Holder: Dep's 2 (size() is written, Base's excluded), List's 27 less Iterable's; Bag: 3.
    assert_eq!(targets.len(), 32, "{targets:#?}");
    let original = workspace(src.path());
    let expanded = workspace(out.path());
    let inside =
        |file: &str, line: u32| written.get(file).is_some_and(|s| s.iter().any(|(a, b)| *a <= line && line <= *b));
    let mut differ = Vec::new();
    let mut total = 0;
    for t in &targets {
        let ours = refs(&original, t, &|_, _| false);
        let theirs = refs(&expanded, t, &inside);
        total += ours.values().map(Vec::len).sum::<usize>();
        if ours != theirs {
            differ.push(format!("{t}: original {ours:?}, delomboked {theirs:?}"));
        }
    }
    assert!(differ.is_empty(), "{} of {} differ:\n{}", differ.len(), targets.len(), differ.join("\n"));
    assert!(total >= 14, "{total} references");
}

/// A delegated method has no declaration to edit: its rename is refused, naming the field's
/// line; its calls are found by `find_references` (without delombok).
#[test]
fn rename_of_a_delegated_method_is_refused_as_generated() {
    let src = tempfile::tempdir().expect("tempdir");
    write(src.path());
    let ws = workspace(src.path());
    let serde_json::Value::Object(args) =
        json!({"action": "rename", "target": "p.Holder#add(String)", "newName": "append"})
    else {
        panic!("an object")
    };
    let e = dispatch(&ws, "refactor_actions", args).map(|a| a.text()).expect_err("refused");
    assert!(e.contains("generated by Lombok") && e.contains("line 10"), "{e}");
    let got = refs(&ws, "p.Holder#get(int)", &|_, _| false);
    assert_eq!(got, BTreeMap::from([("p/User.java".to_owned(), vec![10, 13])]));
    let got = refs(&ws, "p.Bag#run()", &|_, _| false);
    assert_eq!(got, BTreeMap::from([("p/BagUser.java".to_owned(), vec![6, 7])]));
}

/// `java_index` lists the delegated methods the world generates, marked `@Delegate` at the
/// field's line, with the types `delombok` writes; a delegate of a type the engine does not
/// know keeps a warning saying so.
#[test]
fn java_index_lists_delegated_methods_or_says_the_type_is_unknown() {
    let src = tempfile::tempdir().expect("tempdir");
    write(src.path());
    std::fs::write(
        src.path().join("p/Odd.java"),
        "package p;\n\nimport lombok.experimental.Delegate;\n\npublic class Odd {\n    @Delegate\n    private com.lib.Unknown u;\n}\n",
    )
    .expect("write");
    let ws = workspace(src.path());
    let index = |file: &str| {
        let serde_json::Value::Object(args) = json!({"filePath": file}) else { panic!("an object") };
        dispatch(&ws, "java_index", args).expect("java_index")
    };
    let a = index("p/Holder.java");
    let methods = a.value["classes"][0]["methods"].as_array().expect("methods").clone();
    let delegated: Vec<&serde_json::Value> = methods.iter().filter(|m| m["generatedBy"] == "@Delegate").collect();
    assert_eq!(delegated.len(), 29, "{methods:#?}");
    let named = |n: &str| delegated.iter().find(|m| m["name"] == n).copied().cloned().unwrap_or_default();
    let sort = named("sort");
    assert_eq!(sort["signatureText"], "public void sort(java.util.Comparator<? super java.lang.String> arg0)");
    assert_eq!((sort["generated"].as_str(), sort["startLine"].as_u64()), (Some("lombok"), Some(10)));
    assert_eq!(named("fetch")["signatureText"], "public java.lang.Integer fetch(java.lang.String arg0)");
    assert_eq!(named("fetch")["startLine"], 8);
    assert!(a.text().contains("[lombok @Delegate]"), "{}", a.text());
    assert!(!a.text().contains("Lombok's @Delegate"), "{}", a.text());
    let odd = index("p/Odd.java").text();
    assert!(odd.contains("Lombok's @Delegate on u: its type is not one the reference engine knows"), "{odd}");
}

/// `java_find_symbol` finds the methods `@Delegate` generates (of a field and of a method), which
/// the live index does not hold, after the written matches and counted in the total; a query
/// qualified by another type does not list them.
#[test]
fn java_find_symbol_lists_delegated_methods() {
    let src = tempfile::tempdir().expect("tempdir");
    write(src.path());
    let ws = workspace(src.path());
    let find = |args: serde_json::Value| {
        let serde_json::Value::Object(args) = args else { panic!("an object") };
        dispatch(&ws, "java_find_symbol", args).expect("java_find_symbol").value
    };
    let names = |v: &serde_json::Value| -> Vec<String> {
        v["results"]
            .as_array()
            .expect("results")
            .iter()
            .map(|r| r["qualifiedName"].as_str().unwrap_or("").to_owned())
            .collect()
    };
    let fetch = find(json!({"query": "fetch"}));
    assert_eq!(names(&fetch), ["p.Dep#fetch", "p.Holder#fetch"], "{fetch:#}");
    let holder = &fetch["results"][1];
    assert_eq!(holder["signatureText"], "public java.lang.Integer fetch(java.lang.String arg0)");
    assert_eq!((holder["filePath"].as_str(), holder["startLine"].as_u64()), (Some("p/Holder.java"), Some(8)));
    assert_eq!(fetch["total"], 2, "{fetch:#}");
    // A method's delegate (`@Delegate Runnable task()`), qualified by its type.
    assert_eq!(names(&find(json!({"query": "Bag#run"}))), ["p.Bag#run"]);
    assert!(names(&find(json!({"query": "User#fetch"}))).is_empty());
    // Paged: the delegated match is the second page's.
    let page2 = find(json!({"query": "fetch", "limit": 1, "offset": 1}));
    assert_eq!((names(&page2), page2["total"].as_u64()), (vec!["p.Holder#fetch".to_owned()], Some(2)), "{page2:#}");
    // Not asked for methods: none.
    assert!(names(&find(json!({"query": "fetch", "matchKind": "field"}))).is_empty());
}
