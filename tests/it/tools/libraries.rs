//! Library types through the real binary: `java_index` of a class name answered from a
//! Debian jar's class file, from a `-sources.jar` beside a jar (exact lines, and
//! `java_read_range` inside it), and the JDK's `java.util.HashMap` from `lib/src.zip`; `jar:`
//! paths outside the library archives refused. Each test has its own user cache directory.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::common::jar;

fn call(root: &Path, cache: &Path, tool: &str, args: &str) -> Result<Value, String> {
    let o = Command::new(env!("CARGO_BIN_EXE_mcp-java-index"))
        .args(["call", tool, args, "--json"])
        .current_dir(root)
        .env("XDG_CACHE_HOME", cache)
        .env("XDG_CONFIG_HOME", cache)
        .output()
        .expect("runs");
    if o.status.success() {
        Ok(serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stdout))))
    } else {
        Err(format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr)))
    }
}

/// The text answer of a successful call.
fn call_text(root: &Path, cache: &Path, tool: &str, args: &str) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_mcp-java-index"))
        .args(["call", tool, args])
        .current_dir(root)
        .env("XDG_CACHE_HOME", cache)
        .env("XDG_CONFIG_HOME", cache)
        .output()
        .expect("runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The user's configuration (under `XDG_CONFIG_HOME`, here the test's cache directory) names
/// a classpath entry outside the workspace: a repository's file may not.
fn user_classpath(config_home: &Path, entry: &str) {
    let file = config_home.join("mcp-java-index/config.toml");
    std::fs::create_dir_all(file.parent().expect("parent")).expect("mkdir");
    std::fs::write(file, format!("classpath = [{entry:?}]\n")).expect("write the user config");
}

fn method<'a>(outline: &'a Value, name: &str) -> &'a Value {
    outline["classes"][0]["methods"]
        .as_array()
        .and_then(|ms| ms.iter().find(|m| m["name"] == name))
        .unwrap_or_else(|| panic!("no method {name} in {outline}"))
}

#[test]
fn a_debian_jar_on_the_classpath_is_outlined_from_its_class_files() {
    let ws = tempfile::tempdir().expect("tempdir");
    let cache = tempfile::tempdir().expect("tempdir");
    user_classpath(cache.path(), "/usr/share/java/commons-text.jar");
    let o = call(ws.path(), cache.path(), "java_index", r#"{"filePath":"org.apache.commons.text.StringSubstitutor"}"#)
        .expect("outlined");
    assert!(
        o["filePath"]
            .as_str()
            .is_some_and(|p| p.starts_with("jar:") && p.ends_with("!/org/apache/commons/text/StringSubstitutor.class")),
        "{}",
        o["filePath"]
    );
    assert_eq!(o["classes"][0]["qualifiedName"], "org.apache.commons.text.StringSubstitutor");
    // No source lines: null, and said so (in the JSON and in the text).
    assert_eq!((&o["classes"][0]["startLine"], &o["classes"][0]["endLine"]), (&Value::Null, &Value::Null));
    assert!(o["errors"][0]["message"].as_str().is_some_and(|m| m.contains("no source lines")), "{}", o["errors"]);
    let set = method(&o, "setVariableResolver");
    assert_eq!(set["returnTypeText"], "org.apache.commons.text.StringSubstitutor");
    assert_eq!(set["startLine"], Value::Null);
    let text =
        call_text(ws.path(), cache.path(), "java_index", r#"{"filePath":"org.apache.commons.text.StringSubstitutor"}"#);
    assert!(
        text.lines()
            .next()
            .is_some_and(|l| l.contains("(a class file: lines unknown, package org.apache.commons.text)")),
        "{text}"
    );
    assert!(
        text.lines().any(|l| l
            .trim_start()
            .starts_with("? public org.apache.commons.text.StringSubstitutor setVariableResolver(")),
        "{text}"
    );
    // Without the jar on the classpath the type is not there, and the error says where it looked.
    let bare = tempfile::tempdir().expect("tempdir");
    let bare_home = tempfile::tempdir().expect("tempdir");
    let e = call(
        bare.path(),
        bare_home.path(),
        "java_index",
        r#"{"filePath":"org.apache.commons.text.StringSubstitutor"}"#,
    )
    .expect_err("not on this classpath");
    assert!(e.contains("no type `org.apache.commons.text.StringSubstitutor` in the workspace's libraries"), "{e}");
}

#[test]
fn a_sources_jar_beside_the_jar_gives_exact_lines_and_reads() {
    let ws = tempfile::tempdir().expect("tempdir");
    let cache = tempfile::tempdir().expect("tempdir");
    let src = ws.path().join("src-build/demo");
    std::fs::create_dir_all(&src).expect("mkdir");
    let java = "package demo;\n\n/** Says hello. */\npublic class Greeter {\n    /** The greeting. */\n    public String greet(String name) {\n        return \"hi \" + name;\n    }\n}\n";
    std::fs::write(src.join("Greeter.java"), java).expect("write");
    let build = ws.path().join("src-build");
    let ok = |c: &mut Command| assert!(c.current_dir(&build).status().expect("runs").success());
    ok(Command::new("javac").args(["-d", "classes", "demo/Greeter.java"]));
    let lib = ws.path().join("lib");
    std::fs::create_dir_all(&lib).expect("mkdir");
    ok(Command::new("jar").args(["cf"]).arg(lib.join("greeter-1.0.jar")).args(["-C", "classes", "demo"]));
    ok(Command::new("jar").args(["cf"]).arg(lib.join("greeter-1.0-sources.jar")).arg("demo/Greeter.java"));
    // The sources are not part of the workspace's own files.
    std::fs::rename(src.join("Greeter.java"), build.join("Greeter.java.txt")).expect("move");
    std::fs::write(ws.path().join("mcp-java-index.toml"), "classpath = [\"lib/greeter-1.0.jar\"]\n").expect("write");

    let o = call(ws.path(), cache.path(), "java_index", r#"{"filePath":"demo.Greeter"}"#).expect("outlined");
    let path = o["filePath"].as_str().expect("path").to_owned();
    assert!(path.ends_with("greeter-1.0-sources.jar!/demo/Greeter.java"), "{path}");
    assert_eq!((o["classes"][0]["startLine"].clone(), o["classes"][0]["endLine"].clone()), (4.into(), 9.into()));
    let greet = method(&o, "greet");
    assert_eq!((greet["startLine"].as_u64(), greet["javadoc"]["startLine"].as_u64()), (Some(6), Some(5)));
    let r = call(
        ws.path(),
        cache.path(),
        "java_read_range",
        &format!(r#"{{"filePath":"{path}","startLine":6,"endLine":7}}"#),
    )
    .expect("reads inside the sources jar");
    assert_eq!(r["content"], "6:     public String greet(String name) {\n7:         return \"hi \" + name;");
    let d = call(
        ws.path(),
        cache.path(),
        "java_read_javadoc",
        &format!(r#"{{"filePath":"{path}","symbolId":{}}}"#, greet["symbolId"]),
    )
    .expect("javadoc inside the sources jar");
    assert!(d.to_string().contains("The greeting."), "{d}");
    // The class file itself, by its jar: path.
    let jar = lib.join("greeter-1.0.jar");
    let c = call(
        ws.path(),
        cache.path(),
        "java_index",
        &format!(r#"{{"filePath":"jar:{}!/demo/Greeter.class"}}"#, jar.display()),
    )
    .expect("class file outline");
    assert_eq!(method(&c, "greet")["signatureText"], "public java.lang.String greet(java.lang.String arg0)");
    // A jar: path naming any other file is refused.
    let e = call(
        ws.path(),
        cache.path(),
        "java_read_range",
        r#"{"filePath":"jar:/etc/passwd!/x.java","startLine":1,"endLine":1}"#,
    )
    .expect_err("refused");
    assert!(e.contains("not a library archive"), "{e}");
}

#[test]
fn the_jdks_hashmap_from_src_zip() {
    let ws = tempfile::tempdir().expect("tempdir");
    let cache = tempfile::tempdir().expect("tempdir");
    let o = call(
        ws.path(),
        cache.path(),
        "java_index",
        r#"{"filePath":"java.util.HashMap","options":{"kinds":["method"],"name":"put(K,V)"}}"#,
    )
    .expect("outlined");
    let path = o["filePath"].as_str().expect("path");
    assert!(path.ends_with("lib/src.zip!/java.base/java/util/HashMap.java"), "{path}");
    let put = method(&o, "put");
    let (s, e) = (put["startLine"].as_u64().expect("line"), put["endLine"].as_u64().expect("line"));
    let r = call(
        ws.path(),
        cache.path(),
        "java_read_range",
        &format!(r#"{{"filePath":"{path}","startLine":{s},"endLine":{e},"options":{{"includeLineNumbers":false}}}}"#),
    )
    .expect("read");
    assert!(
        r["content"].as_str().is_some_and(|c| c.trim_start().starts_with("public V put(K key, V value) {")),
        "{}",
        r["content"]
    );
    // Its javadoc, read inside src.zip by the outline's symbolId.
    let d = call(
        ws.path(),
        cache.path(),
        "java_read_javadoc",
        &format!(r#"{{"filePath":"{path}","symbolId":{}}}"#, put["symbolId"]),
    )
    .expect("javadoc inside src.zip");
    assert!(d.to_string().contains("Associates the specified value with the specified key in this map."), "{d}");
    assert_eq!(d["found"], true, "{d}");
    let jd = &put["javadoc"];
    assert!(jd["startLine"].as_u64().is_some(), "{put}");
    assert_eq!(
        (d["startLine"].as_u64(), d["endLine"].as_u64()),
        (jd["startLine"].as_u64(), jd["endLine"].as_u64()),
        "{d}"
    );
}

/// A workspace declaring `app.StringSubstitutorCache`, with commons-text's jar (which has
/// `org.apache.commons.text.StringSubstitutor`) as its classpath, and a cache directory.
fn substitutor_workspace() -> (tempfile::TempDir, tempfile::TempDir) {
    let ws = tempfile::tempdir().expect("tempdir");
    let cache = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(ws.path().join("src/app")).expect("mkdir");
    std::fs::write(
        ws.path().join("src/app/StringSubstitutorCache.java"),
        "package app;\npublic class StringSubstitutorCache {}\n",
    )
    .expect("write");
    user_classpath(cache.path(), "/usr/share/java/commons-text.jar");
    (ws, cache)
}

#[test]
fn find_type_scopes_workspace_libraries_and_all() {
    let (ws, cache) = substitutor_workspace();
    let fqns = |v: &Value| -> Vec<String> {
        v["results"].as_array().expect("results").iter().map(|r| r["fqn"].as_str().unwrap_or("").to_owned()).collect()
    };
    let w = call(ws.path(), cache.path(), "find_type", r#"{"pattern":"StringSubstitutor"}"#).expect("workspace");
    assert_eq!(fqns(&w), ["app.StringSubstitutorCache"], "the default scope is the workspace");
    let l = call(ws.path(), cache.path(), "find_type", r#"{"pattern":"StringSubstitutor","scope":"libraries"}"#)
        .expect("libraries");
    assert_eq!(fqns(&l)[0], "org.apache.commons.text.StringSubstitutor");
    assert_eq!(l["results"][0]["origin"], "classpath");
    assert_eq!(l["results"][0]["archive"], "/usr/share/java/commons-text.jar");
    assert!(!fqns(&l).contains(&"app.StringSubstitutorCache".to_owned()));
    // all: the workspace's first, then the libraries', paged over both.
    let a =
        call(ws.path(), cache.path(), "find_type", r#"{"pattern":"StringSubstitutor","scope":"all","maxResults":1}"#)
            .expect("all");
    assert_eq!(fqns(&a), ["app.StringSubstitutorCache"]);
    assert_eq!(a["total"].as_u64(), Some(1 + l["total"].as_u64().expect("total")));
    assert_eq!(a["nextOffset"], 1);
    let a2 = call(
        ws.path(),
        cache.path(),
        "find_type",
        r#"{"pattern":"StringSubstitutor","scope":"all","maxResults":1,"offset":1}"#,
    )
    .expect("page 2");
    assert_eq!(fqns(&a2), ["org.apache.commons.text.StringSubstitutor"]);
    // The JDK: a qualified camelCase pattern, and the hit is what java_index takes.
    let j = call(ws.path(), cache.path(), "find_type", r#"{"pattern":"java.util.concurrent.CHM","scope":"libraries"}"#)
        .expect("jdk");
    assert_eq!(fqns(&j), ["java.util.concurrent.ConcurrentHashMap"]);
    assert_eq!(j["results"][0]["origin"], "jdk");
    assert!(j["results"][0]["archive"].as_str().is_some_and(|p| p.ends_with("java.base.jmod")));
}

/// Without sources, a trusted workspace with Debian's `procyon` on PATH reads a library class
/// decompiled: `java_index` outlines the decompiled text (lines in it, marked decompiled) and
/// `java_read_range` reads it at the same `jar:` path. Untrusted, it stays the class file's
/// outline: procyon is a program run on a classpath jar.
#[test]
fn a_class_without_sources_is_decompiled_in_a_trusted_workspace() {
    let on_path =
        std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("procyon").is_file()));
    if !on_path {
        assert!(std::env::var_os("CI").is_none(), "procyon missing: .ci/run installs procyon-decompiler");
        eprintln!("skipped: procyon is not on PATH (apt-get install procyon-decompiler)");
        return;
    }
    let ws = tempfile::tempdir().expect("tempdir");
    let cache = tempfile::tempdir().expect("tempdir");
    user_classpath(cache.path(), "/usr/share/java/commons-lang3.jar");
    let run = |trusted: bool, tool: &str, args: &str| {
        let o = Command::new(env!("CARGO_BIN_EXE_mcp-java-index"))
            .args(["call", tool, args, "--json"])
            .current_dir(ws.path())
            .env("XDG_CACHE_HOME", cache.path())
            .env("XDG_CONFIG_HOME", cache.path())
            .env("MCP_JAVA_INDEX_TRUST", if trusted { "1" } else { "0" })
            .output()
            .expect("runs");
        let text = String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
        (o.status.success(), serde_json::from_slice::<Value>(&o.stdout).unwrap_or(Value::Null), text)
    };
    let class = r#"{"filePath":"org.apache.commons.lang3.text.WordUtils"}"#;
    let (_, plain, text) = run(false, "java_index", class);
    assert!(plain["errors"][0]["message"].as_str().is_some_and(|m| m.contains("no source lines")), "{text}");
    let (_, o, text) = run(true, "java_index", class);
    assert!(o["errors"][0]["message"].as_str().is_some_and(|m| m.starts_with("decompiled by procyon")), "{text}");
    let path = o["filePath"].as_str().unwrap_or_default().to_owned();
    assert!(path.starts_with("jar:") && path.ends_with("!/org/apache/commons/lang3/text/WordUtils.class"), "{text}");
    let wrap = method(&o, "wrap");
    let line = wrap["startLine"].as_u64().unwrap_or(0);
    assert!(line > 1, "{wrap}");
    let args = serde_json::json!({"filePath": path, "startLine": line, "endLine": line}).to_string();
    let (ok, _, read) = run(true, "java_read_range", &args);
    assert!(ok && read.contains("wrap("), "{read}");
    // Untrusted, the class file is not read decompiled.
    let (ok, _, refused) = run(false, "java_read_range", &args);
    assert!(!ok && refused.contains("trusted workspace"), "{refused}");
}

/// `java_find_symbol` with `scope`: the workspace by default; `libraries` adds the JDK's and
/// the classpath's types and their members by name (methods against `javap`, fields,
/// constructors, paged); `all` pages over both, the workspace first.
#[test]
fn find_symbol_scopes_workspace_libraries_and_all() {
    let (ws, cache) = substitutor_workspace();
    let names = |v: &Value| -> Vec<String> {
        v["results"]
            .as_array()
            .expect("results")
            .iter()
            .map(|r| r["qualifiedName"].as_str().unwrap_or("").to_owned())
            .collect()
    };
    let find = |options: &str| {
        call(
            ws.path(),
            cache.path(),
            "java_find_symbol",
            &format!(r#"{{"rootDir":".","query":"StringSubstitutor","options":{options}}}"#),
        )
        .expect("java_find_symbol")
    };
    assert_eq!(names(&find("{}")), ["app.StringSubstitutorCache"], "the default scope is the workspace");
    let l = find(r#"{"scope":"libraries"}"#);
    assert_eq!(names(&l)[0], "org.apache.commons.text.StringSubstitutor", "{l}");
    assert_eq!(
        (l["results"][0]["kind"].as_str(), l["results"][0]["typeKind"].as_str()),
        (Some("class"), Some("class"))
    );
    assert!(l["results"][0]["filePath"].as_str().is_some_and(|p| !p.is_empty()), "{l}");
    assert!(!names(&l).contains(&"app.StringSubstitutorCache".to_owned()));
    let a = find(r#"{"scope":"all","maxResults":1}"#);
    assert_eq!(names(&a), ["app.StringSubstitutorCache"]);
    assert_eq!(a["total"].as_u64(), Some(1 + l["total"].as_u64().expect("total")));
    let a2 = find(r#"{"scope":"all","maxResults":1,"offset":1}"#);
    assert_eq!(names(&a2), ["org.apache.commons.text.StringSubstitutor"]);
    // Library members by name (issue 20): `StringSubstitutor#replace`'s exact matches are
    // the class's public `replace` overloads as javap prints them, each with its archive.
    let search = |query: &str, options: &str| {
        call(
            ws.path(),
            cache.path(),
            "java_find_symbol",
            &format!(r#"{{"rootDir":".","query":"{query}","options":{options}}}"#),
        )
        .expect("java_find_symbol")
    };
    let javap = Command::new("javap")
        .args(["-public", "-cp", "/usr/share/java/commons-text.jar", "org.apache.commons.text.StringSubstitutor"])
        .output()
        .expect("javap runs");
    let mut want: Vec<String> = String::from_utf8_lossy(&javap.stdout)
        .lines()
        .filter(|l| l.contains(" replace("))
        .map(|l| l.trim().trim_end_matches(';').to_owned())
        .collect();
    want.sort();
    assert!(want.len() > 10, "{want:?}");
    let m = search("StringSubstitutor#replace", r#"{"scope":"libraries","maxResults":500}"#);
    let results = m["results"].as_array().expect("results");
    let mut got: Vec<String> = results
        .iter()
        .filter(|r| r["qualifiedName"] == "org.apache.commons.text.StringSubstitutor#replace")
        .map(|r| r["signatureText"].as_str().unwrap_or_default().to_owned())
        .collect();
    got.sort();
    assert_eq!(got, want);
    // Exact names first, then prefixes (`replaceIn`); every one a method of the class's jar.
    assert!(results[..want.len()].iter().all(|r| r["qualifiedName"].as_str().is_some_and(|q| q.ends_with("#replace"))));
    for r in results {
        assert_eq!((r["kind"].as_str(), r["origin"].as_str()), (Some("method"), Some("classpath")), "{r}");
        assert!(r["archive"].as_str().is_some_and(|a| a.ends_with("commons-text.jar")), "{r}");
        assert_eq!(r["filePath"], "org.apache.commons.text.StringSubstitutor", "{r}");
    }
    // Paged through the one budget: pages of 8 give every match once, in order.
    let total = m["total"].as_u64().expect("total");
    assert_eq!(total as usize, results.len(), "{m}");
    let mut paged = Vec::new();
    let mut offset = 0;
    loop {
        let p = search(
            "StringSubstitutor#replace",
            &format!(r#"{{"scope":"libraries","maxResults":8,"offset":{offset}}}"#),
        );
        paged.extend(p["results"].as_array().expect("results").iter().map(|r| r["symbolId"].clone()));
        match p["nextOffset"].as_u64() {
            Some(n) => {
                assert_eq!(p["truncated"], true);
                offset = n;
            }
            None => break,
        }
    }
    assert_eq!(paged, results.iter().map(|r| r["symbolId"].clone()).collect::<Vec<_>>());
    // Fields and constructors; a JDK method (`origin` jdk, its jmod or image).
    let f = search("StringSubstitutor.DEFAULT_ESCAPE", r#"{"scope":"libraries","matchKind":"field"}"#);
    assert_eq!(f["results"][0]["signatureText"], "public static final char DEFAULT_ESCAPE", "{f}");
    let c = search("StringSubstitutor#StringSubstitutor", r#"{"scope":"libraries","matchKind":"method"}"#);
    assert!(
        c["results"].as_array().is_some_and(|r| r.len() > 5 && r.iter().all(|r| r["kind"] == "constructor")),
        "{c}"
    );
    let jdk = search("java.util.HashMap#putIfAbsent", r#"{"scope":"all"}"#);
    assert_eq!(jdk["results"][0]["signatureText"], "public V putIfAbsent(K, V)", "{jdk}");
    assert_eq!(jdk["results"][0]["origin"], "jdk", "{jdk}");
    // By default the workspace alone: no library member.
    let none = search("replaceIn", "{}");
    assert_eq!(none["total"], 0, "{none}");
}

/// A JDK without `jmods/` (JDK 24+ ships none; here a `jlink` image of `java.base`) has its
/// classes in its runtime image, `lib/modules`: `find_type` finds them there and `java_index`
/// outlines one from it.
#[test]
fn a_jdk_without_jmods_is_read_from_its_runtime_image() {
    if Command::new("jlink").arg("--version").output().is_err() {
        eprintln!("skipped: no jlink");
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let image = tmp.path().join("jdk");
    let o = Command::new("jlink")
        .args(["--add-modules", "java.base", "--output"])
        .arg(&image)
        .output()
        .expect("jlink runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!image.join("jmods").exists() && image.join("lib/modules").is_file());
    let (ws, cache) = (tempfile::tempdir().expect("tempdir"), tempfile::tempdir().expect("tempdir"));
    let call = |tool: &str, args: &str| -> Value {
        let o = Command::new(env!("CARGO_BIN_EXE_mcp-java-index"))
            .args(["call", tool, args, "--json"])
            .current_dir(ws.path())
            .env("XDG_CACHE_HOME", cache.path())
            .env("XDG_CONFIG_HOME", cache.path())
            .env("JAVA_HOME", &image)
            .output()
            .expect("runs");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice(&o.stdout).expect("json")
    };
    let found = call("find_type", r#"{"pattern":"java.util.HashMap","scope":"libraries"}"#);
    let hit = &found["results"][0];
    assert_eq!((hit["fqn"].as_str(), hit["origin"].as_str()), (Some("java.util.HashMap"), Some("jdk")), "{found}");
    assert!(hit["archive"].as_str().is_some_and(|a| a.ends_with("lib/modules")), "{found}");
    let outline = call("java_index", r#"{"filePath":"java.util.HashMap"}"#);
    let put = method(&outline, "put");
    assert!(put["signatureText"].as_str().is_some_and(|s| s.contains("V put(K")), "{put}");
}

#[test]
fn a_loose_class_file_of_the_workspace_is_outlined() {
    let ws = tempfile::tempdir().expect("tempdir");
    let cache = tempfile::tempdir().expect("tempdir");
    let build = ws.path().join("build-src");
    std::fs::create_dir_all(build.join("demo")).expect("mkdir");
    let java = "package demo;\n\npublic class Greeter {\n    public static class Polite { public String please() { return \"please\"; } }\n    public String greet(String name) { return \"hi \" + name; }\n}\n";
    std::fs::write(build.join("demo/Greeter.java.txt"), java).expect("write");
    // javac needs the .java name; the workspace keeps only the class files.
    std::fs::copy(build.join("demo/Greeter.java.txt"), build.join("demo/Greeter.java")).expect("copy");
    let javac = Command::new("javac")
        .args(["-d", "../classes", "demo/Greeter.java"])
        .current_dir(&build)
        .status()
        .expect("javac runs");
    assert!(javac.success());
    std::fs::remove_file(build.join("demo/Greeter.java")).expect("rm");

    let o = call(ws.path(), cache.path(), "java_index", r#"{"filePath":"classes/demo/Greeter.class"}"#)
        .expect("a class file is outlined");
    assert_eq!(o["filePath"], "classes/demo/Greeter.class");
    assert_eq!(o["classes"][0]["qualifiedName"], "demo.Greeter");
    assert!(o["errors"][0]["message"].as_str().is_some_and(|m| m.contains("no source lines")), "{}", o["errors"]);
    assert_eq!(method(&o, "greet")["signatureText"], "public java.lang.String greet(java.lang.String arg0)");
    assert_eq!(method(&o, "greet")["startLine"], Value::Null);
    // The member class is read from its own class file beside it.
    let inner = &o["classes"][0]["innerClasses"][0];
    assert_eq!(inner["qualifiedName"], "demo.Greeter.Polite", "{o}");
    assert_eq!(inner["methods"][0]["name"], "please");

    // Not a class file inside: a tool error that says so.
    std::fs::write(ws.path().join("classes/Bad.class"), b"not a class").expect("write");
    let e = call(ws.path(), cache.path(), "java_index", r#"{"filePath":"classes/Bad.class"}"#).expect_err("garbled");
    assert!(e.contains("not a readable class file"), "{e}");
    // The path policy still applies: a class file outside the workspace is refused.
    let other = tempfile::tempdir().expect("tempdir");
    let outside = other.path().join("Greeter.class");
    std::fs::copy(ws.path().join("classes/demo/Greeter.class"), &outside).expect("copy");
    let e = call(ws.path(), cache.path(), "java_index", &format!(r#"{{"filePath":"{}"}}"#, outside.display()))
        .expect_err("outside the roots");
    assert!(e.contains("outside"), "{e}");
}

/// A class directory on the classpath (a configured one, outside the workspace) is read like a
/// jar: `find_type` finds its types, `java_index` outlines them, and a call on a method's
/// result binds exactly. A class directory inside the workspace (a plain project's
/// `target/classes`) is the workspace's own code compiled, and not a library.
#[test]
fn a_class_directory_on_the_classpath_is_read_like_a_jar() {
    let ws = tempfile::tempdir().expect("tempdir");
    let cache = tempfile::tempdir().expect("tempdir");
    let out = tempfile::tempdir().expect("tempdir");
    let src = out.path().join("src/demo");
    std::fs::create_dir_all(&src).expect("mkdir");
    std::fs::write(
        src.join("Greeter.java"),
        "package demo;\n\npublic class Greeter {\n    public String greet(String name) { return \"hi \" + name; }\n}\n",
    )
    .expect("write");
    let javac = Command::new("javac")
        .args(["-d", "../classes", "demo/Greeter.java"])
        .current_dir(out.path().join("src"))
        .status()
        .expect("javac runs");
    assert!(javac.success());
    let classes = out.path().join("classes");
    user_classpath(cache.path(), &classes.display().to_string());
    std::fs::create_dir_all(ws.path().join("app")).expect("mkdir");
    std::fs::write(
        ws.path().join("app/Use.java"),
        "package app;\n\nimport demo.Greeter;\n\nclass Use {\n    static void take(String s) {}\n    static void take(Integer i) {}\n\n    void pick() {\n        take(new Greeter().greet(\"x\"));\n    }\n}\n",
    )
    .expect("write");
    // A class compiled into the workspace's own target/classes.
    std::fs::write(src.join("Inside.java"), "package demo;\n\npublic class Inside {}\n").expect("write");
    let javac = Command::new("javac")
        .arg("-d")
        .arg(ws.path().join("target/classes"))
        .arg("demo/Inside.java")
        .current_dir(out.path().join("src"))
        .status()
        .expect("javac runs");
    assert!(javac.success());

    let types =
        call(ws.path(), cache.path(), "find_type", r#"{"pattern":"Greeter","scope":"libraries"}"#).expect("find_type");
    let found = types["results"].as_array().and_then(|r| r.iter().find(|t| t["fqn"] == "demo.Greeter"));
    let archive = found.and_then(|t| t["archive"].as_str()).unwrap_or_else(|| panic!("{types}"));
    assert!(Path::new(archive).ends_with("classes"), "{types}");
    let o = call(ws.path(), cache.path(), "java_index", r#"{"filePath":"demo.Greeter"}"#).expect("outlined");
    assert!(o["filePath"].as_str().is_some_and(|p| p.ends_with("classes!/demo/Greeter.class")), "{}", o["filePath"]);
    assert_eq!(method(&o, "greet")["signatureText"], "public java.lang.String greet(java.lang.String arg0)");
    let refs = call(ws.path(), cache.path(), "find_references", r#"{"target":"app.Use#take(java.lang.String)"}"#)
        .expect("references");
    let confidence: Vec<&Value> =
        refs["files"].as_array().into_iter().flatten().flat_map(|f| f["references"].as_array()).flatten().collect();
    assert_eq!(confidence.len(), 1, "{refs}");
    assert_eq!(confidence[0]["confidence"], "exact", "{refs}");
    // The workspace's own target/classes is not a library.
    let inside = call(ws.path(), cache.path(), "find_type", r#"{"pattern":"demo.Inside","scope":"libraries"}"#)
        .expect("find_type");
    let fqns: Vec<&Value> = inside["results"].as_array().into_iter().flatten().map(|t| &t["fqn"]).collect();
    assert!(!fqns.contains(&&Value::from("demo.Inside")), "{inside}");
}

/// find_type over the libraries with `max_archive_entries` set by the user (the environment;
/// unset: the default), on `root` whose config puts `lib/big.jar` on the classpath.
fn find_capped(root: &Path, cache: &Path, cap: Option<&str>) -> Value {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mcp-java-index"));
    cmd.args(["call", "find_type", r#"{"pattern":"p0.C*","scope":"libraries","maxResults":100}"#, "--json"])
        .current_dir(root)
        .env("XDG_CACHE_HOME", cache)
        .env_remove("MCP_JAVA_INDEX_MAX_ARCHIVE_ENTRIES");
    if let Some(cap) = cap {
        cmd.env("MCP_JAVA_INDEX_MAX_ARCHIVE_ENTRIES", cap);
    }
    let o = cmd.output().expect("runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stdout)))
}

/// An archive with more entries than `max_archive_entries` is read up to the cap (the first
/// entries of its central directory), and the answer says so; the cached list is used again
/// only under the same cap, so raising it reads the whole archive.
#[test]
fn an_archive_over_the_entry_cap_is_read_in_part_and_said() {
    let ws = tempfile::tempdir().expect("tempdir");
    let cache = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(ws.path().join("lib")).expect("mkdir");
    jar::write_jar(&ws.path().join("lib/big.jar"), 50);
    std::fs::write(ws.path().join("mcp-java-index.toml"), "classpath = [\"lib/big.jar\"]\n").expect("write");
    let said = |v: &Value| -> bool {
        v["index"]["libraryNotes"].as_array().into_iter().flatten().any(|n| {
            n.as_str().is_some_and(|n| {
                n.contains("big.jar: only the first 30 of its 50 entries were read (max_archive_entries)")
            })
        })
    };
    for round in ["cold", "warm"] {
        let capped = find_capped(ws.path(), cache.path(), Some("30"));
        assert_eq!(capped["total"], 30, "{round}: {capped}");
        assert!(said(&capped), "{round}: {}", capped["index"]);
        let names: Vec<&str> =
            capped["results"].as_array().expect("results").iter().filter_map(|r| r["fqn"].as_str()).collect();
        assert!(names.contains(&"p0.C29") && !names.contains(&"p0.C30"), "{round}: {names:?}");
    }
    // The default cap holds all 50: the list cached under 30 is not believed, nothing is said.
    let whole = find_capped(ws.path(), cache.path(), None);
    assert_eq!(whole["total"], 50, "{whole}");
    assert!(!said(&whole), "{}", whole["index"]);
}
