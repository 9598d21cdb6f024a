//! The class-file reader against the real thing: the JDK's `java.base.jmod` outlined, and
//! every generic method signature of a set of JDK classes checked against `javap -p`.

use std::collections::HashSet;
use std::path::PathBuf;
use std::process::Command;

use mji_classfile::archive::DEFAULT_MAX_ENTRIES;
use mji_classfile::library::{self, Origin};
use mji_classfile::{Archive, outline_class};

fn jdk() -> PathBuf {
    library::find_jdk_home(
        std::env::var_os("JAVA_HOME").as_deref().map(std::path::Path::new),
        std::env::var_os("PATH").as_deref(),
    )
    .expect("a JDK (javac on PATH) is installed for this test")
}

fn java_base() -> Archive {
    let p = jdk().join("jmods/java.base.jmod");
    Archive::open(&p, DEFAULT_MAX_ENTRIES).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn hashmap_from_the_jmod() {
    let mut a = java_base();
    let o = outline_class(&mut a, "java/util/HashMap").expect("outlined");
    assert!(
        o.file_path.starts_with("jar:") && o.file_path.ends_with("!/classes/java/util/HashMap.class"),
        "{}",
        o.file_path
    );
    assert_eq!(o.package.as_deref(), Some("java.util"));
    assert!(o.errors.iter().any(|e| e.message.contains("no source lines")));
    let t = &o.classes[0];
    assert_eq!(t.qualified_name, "java.util.HashMap");
    assert_eq!(t.type_params_text.as_deref(), Some("<K, V>"));
    assert_eq!(t.extends.as_deref(), Some("java.util.AbstractMap<K, V>"));
    assert!(t.implements.contains(&"java.util.Map<K, V>".to_owned()), "{:?}", t.implements);
    assert_eq!(t.start_line, 0);
    let put = t.methods.iter().find(|m| m.name == "put").expect("put");
    assert_eq!(put.return_type_text, "V");
    assert_eq!(
        put.signature_text, "public V put(K key, V value)",
        "parameter names from MethodParameters or the LocalVariableTable"
    );
    let entry_set = t.methods.iter().find(|m| m.name == "entrySet").expect("entrySet");
    assert_eq!(entry_set.return_type_text, "java.util.Set<java.util.Map.Entry<K, V>>");
    assert!(
        t.constructors.iter().any(|c| c.signature_text == "public HashMap(int initialCapacity, float loadFactor)"),
        "{:?}",
        t.constructors.iter().map(|c| &c.signature_text).collect::<Vec<_>>()
    );
    // Member classes, read from their own class files.
    let node = t.inner_classes.iter().find(|c| c.name == "Node").expect("HashMap.Node");
    assert!(node.modifiers.contains(&"static".to_owned()), "{:?}", node.modifiers);
    assert_eq!(node.implements, ["java.util.Map.Entry<K, V>"]);
    // No anonymous or synthetic members.
    assert!(t.methods.iter().all(|m| !m.name.contains('$')));
}

#[test]
fn records_enums_sealed_deprecation_from_the_jdk() {
    let mut a = java_base();
    let o = outline_class(&mut a, "java/util/concurrent/TimeUnit").expect("TimeUnit");
    let t = &o.classes[0];
    assert_eq!(t.kind, mji_model::TypeKind::Enum);
    let names: Vec<&str> = t.enum_constants.iter().flatten().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["NANOSECONDS", "MICROSECONDS", "MILLISECONDS", "SECONDS", "MINUTES", "HOURS", "DAYS"]);
    assert!(t.fields.iter().all(|f| f.name != "SECONDS"));
    // A deprecated method: Thread.stop().
    let o = outline_class(&mut a, "java/lang/Thread").expect("Thread");
    let stop = o.classes[0].methods.iter().find(|m| m.name == "stop" && m.params.is_empty()).expect("stop()");
    assert!(stop.annotations.iter().any(|a| a == "@java.lang.Deprecated"), "{:?}", stop.annotations);
    // Checked exceptions: Object.wait(long) throws InterruptedException.
    let o = outline_class(&mut a, "java/lang/Object").expect("Object");
    let wait = o.classes[0].methods.iter().find(|m| m.name == "wait" && m.params.len() == 1).expect("wait(long)");
    assert_eq!(wait.throws, ["java.lang.InterruptedException"]);
    // Runtime-visible annotations: FunctionalInterface on Runnable.
    let o = outline_class(&mut a, "java/lang/Runnable").expect("Runnable");
    assert_eq!(o.classes[0].annotations, ["@java.lang.FunctionalInterface"]);
    assert_eq!(o.classes[0].kind, mji_model::TypeKind::Interface);
}

/// Every method and constructor of these classes, as `javap -p` prints it without modifiers
/// (`<T> T[] toArray(T[])`), must be what the outline gives.
#[test]
fn generic_signatures_agree_with_javap() {
    let classes = [
        "java.util.HashMap",
        "java.util.Collections",
        "java.util.stream.Collectors",
        "java.util.stream.Stream",
        "java.util.concurrent.ConcurrentHashMap",
        "java.util.Optional",
        "java.util.Map",
        "java.util.Arrays",
        "java.util.concurrent.CompletableFuture",
        "java.lang.String",
        "java.lang.Class",
        "java.util.Comparator",
        "java.lang.Enum",
        "java.util.EnumMap",
        "java.util.TreeMap",
    ];
    let javap = jdk().join("bin/javap");
    let out = Command::new(&javap).arg("-p").args(classes).output().expect("javap runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let mods = [
        "public",
        "protected",
        "private",
        "static",
        "final",
        "abstract",
        "synchronized",
        "native",
        "default",
        "strictfp",
        "transient",
        "volatile",
    ];
    let strip = |line: &str| -> String {
        let mut rest = line.trim().trim_end_matches(';');
        while let Some((w, r)) = rest.split_once(' ') {
            if !mods.contains(&w) {
                break;
            }
            rest = r;
        }
        rest.replace('$', ".")
    };
    let javap_lines: HashSet<String> = text.lines().filter(|l| l.contains('(')).map(strip).collect();
    // javap drops an `Object` class bound before interface bounds (`<T extends Object &
    // Comparable<? super T>>` prints as `<T extends Comparable<? super T>>`); the outline keeps
    // it, as the source declares it and erasure depends on it.
    let javap_form = |line: String| line.replace("extends java.lang.Object & ", "extends ");
    let mut a = java_base();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for c in classes {
        let o = outline_class(&mut a, &c.replace('.', "/")).expect(c);
        let t = &o.classes[0];
        let types = |ps: &[mji_model::Param]| ps.iter().map(|p| p.type_text.as_str()).collect::<Vec<_>>().join(", ");
        let throws = |th: &[String]| if th.is_empty() { String::new() } else { format!(" throws {}", th.join(", ")) };
        let tp = |x: &Option<String>| x.as_ref().map(|s| format!("{s} ")).unwrap_or_default();
        for m in &t.methods {
            let line = format!(
                "{}{} {}({}){}",
                tp(&m.type_params_text),
                m.return_type_text,
                m.name,
                types(&m.params),
                throws(&m.throws)
            );
            let line = javap_form(line);
            checked += 1;
            if !javap_lines.contains(&line) {
                wrong.push(line);
            }
        }
        for k in &t.constructors {
            let line =
                format!("{}{}({}){}", tp(&k.type_params_text), t.qualified_name, types(&k.params), throws(&k.throws));
            let line = javap_form(line);
            checked += 1;
            if !javap_lines.contains(&line) {
                wrong.push(line);
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {checked} differ from javap, e.g. {:#?}",
        wrong.len(),
        &wrong[..wrong.len().min(10)]
    );
    assert!(checked >= 300, "only {checked} methods checked");
}

/// A jar from Debian's `/usr/share/java`: commons-text's StringSubstitutor, found through the
/// library index (cold, then from the cache) and outlined.
#[test]
fn string_substitutor_from_debian_commons_text() {
    let jar = PathBuf::from("/usr/share/java/commons-text.jar");
    assert!(jar.is_file(), "install libcommons-text-java (.ci/run does)");
    let cache = tempfile::tempdir().expect("tempdir");
    let cold =
        library::LibraryIndex::build(&[(jar.clone(), Origin::Classpath)], Some(cache.path()), DEFAULT_MAX_ENTRIES);
    assert!(!cold.archives[0].cached);
    let warm =
        library::LibraryIndex::build(&[(jar.clone(), Origin::Classpath)], Some(cache.path()), DEFAULT_MAX_ENTRIES);
    assert!(warm.archives[0].cached, "the second build reads the cache");
    assert_eq!(cold.classes, warm.classes);
    let c = warm.get("org.apache.commons.text.StringSubstitutor").expect("indexed");
    assert_eq!(c.simple(), "StringSubstitutor");
    assert!(warm.classes.iter().all(|c| !c.internal.contains("$1")), "anonymous classes are not indexed");
    let mut a = Archive::open(&jar, DEFAULT_MAX_ENTRIES).expect("opens");
    let o = outline_class(&mut a, &c.internal).expect("outlined");
    let t = &o.classes[0];
    let replace = t
        .methods
        .iter()
        .find(|m| m.name == "replace" && m.type_params_text.is_some())
        .expect("static <V> replace(Object, Map<String, V>)");
    assert_eq!(
        replace.signature_text,
        "public static <V> java.lang.String replace(java.lang.Object source, java.util.Map<java.lang.String, V> valueMap)"
    );
}

/// Hostile bytes: every truncation of real class files and thousands of garbled copies are
/// read and outlined without a panic (errors are values), and so are garbled archives.
#[test]
fn truncated_and_garbled_bytes_never_panic() {
    let mut a = java_base();
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut outlined = 0;
    for class in ["java/util/HashMap", "java/lang/Thread", "java/util/concurrent/TimeUnit", "java/lang/Record"] {
        let bytes = a.read_named(&format!("classes/{class}.class")).expect("reads").expect("present");
        let mut try_one = |b: &[u8]| {
            if let Ok(cf) = mji_classfile::parse(b) {
                let o = mji_classfile::outline::outline(String::new(), String::new(), &cf, &mut |_| Some(b.to_vec()));
                assert!(!o.classes.is_empty());
                outlined += 1;
            }
            let _ = mji_classfile::reader::header(b);
        };
        // Every cut in the constant pool's first bytes, then one every 61 bytes.
        for n in (0..bytes.len()).filter(|n| *n < 512 || n % 61 == 0) {
            try_one(&bytes[..n]);
        }
        for _ in 0..500 {
            let mut g = bytes.clone();
            for _ in 0..1 + next() % 8 {
                let i = (next() as usize) % g.len();
                g[i] = next() as u8;
            }
            try_one(&g);
        }
    }
    assert!(outlined > 0, "some garbled copies still parse (the garbling hit unread bytes)");
    // Archives: a real jar cut short and garbled.
    let jar = std::fs::read("/usr/share/java/commons-text.jar").expect("commons-text.jar");
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path().join("bad.jar");
    for round in 0..60 {
        let mut g = if round % 2 == 0 { jar[..(next() as usize) % jar.len()].to_vec() } else { jar.clone() };
        for _ in 0..(next() % 16) {
            if !g.is_empty() {
                let i = (next() as usize) % g.len();
                g[i] = next() as u8;
            }
        }
        std::fs::write(&p, &g).expect("write");
        if let Ok(mut ar) = Archive::open(&p, DEFAULT_MAX_ENTRIES) {
            for e in ar.entries.clone().iter().take(20) {
                let _ = ar.read(e);
            }
        }
        let _ = library::list_classes(&p, None, DEFAULT_MAX_ENTRIES);
    }
}

/// What javac writes for records, sealed types, enums with constructors, inner classes and
/// `-parameters`, read back: the outline says what the source declared.
#[test]
fn records_sealed_enums_and_inner_classes_compiled_by_javac() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = "package p;\n\
        public sealed interface Shape permits Shape.Circle, Shape.Square {\n\
          record Circle(double radius, java.util.List<? extends Number> tags) implements Shape {}\n\
          final class Square implements Shape {\n\
            public Square(int side) {}\n\
            public class Corner { public Corner(String label) {} }\n\
          }\n\
          enum Unit { CM(1), INCH(254);\n\
            Unit(int hundredths) {}\n\
          }\n\
          @Deprecated static <E extends Exception> void fail(java.util.Map<String, E> errors, int... codes) throws E {}\n\
        }\n";
    std::fs::create_dir_all(dir.path().join("p")).expect("mkdir");
    std::fs::write(dir.path().join("p/Shape.java"), src).expect("write");
    let javac = jdk().join("bin/javac");
    let ok = Command::new(javac)
        .args(["-parameters", "-d", "out", "p/Shape.java"])
        .current_dir(dir.path())
        .status()
        .expect("javac");
    assert!(ok.success());
    let out = dir.path().join("out");
    let bytes = std::fs::read(out.join("p/Shape.class")).expect("class");
    let cf = mji_classfile::parse(&bytes).expect("parses");
    let o = mji_classfile::outline::outline("Shape".into(), String::new(), &cf, &mut |n| {
        std::fs::read(out.join(format!("{n}.class"))).ok()
    });
    let t = &o.classes[0];
    assert_eq!(t.kind, mji_model::TypeKind::Interface);
    assert!(t.modifiers.contains(&"sealed".to_owned()), "{:?}", t.modifiers);
    assert_eq!(t.permits, ["p.Shape.Circle", "p.Shape.Square"]);
    let fail = t.methods.iter().find(|m| m.name == "fail").expect("fail");
    assert_eq!(
        fail.signature_text,
        "public static <E extends java.lang.Exception> void fail(java.util.Map<java.lang.String, E> errors, int... codes) throws E"
    );
    assert_eq!(fail.annotations, ["@java.lang.Deprecated"]);
    let inner = |name: &str| t.inner_classes.iter().find(|c| c.name == name).unwrap_or_else(|| panic!("{name}"));
    let circle = inner("Circle");
    assert_eq!(circle.kind, mji_model::TypeKind::Record);
    let comps: Vec<(&str, &str)> =
        circle.record_components.iter().flatten().map(|c| (c.name.as_str(), c.type_text.as_str())).collect();
    assert_eq!(comps, [("radius", "double"), ("tags", "java.util.List<? extends java.lang.Number>")]);
    assert!(circle.fields.is_empty(), "a record's component fields are not listed as fields");
    let unit = inner("Unit");
    assert_eq!(unit.enum_constants.iter().flatten().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["CM", "INCH"]);
    assert_eq!(unit.constructors[0].signature_text, "private Unit(int hundredths)", "the name and ordinal are javac's");
    let square = inner("Square");
    assert!(square.modifiers.contains(&"final".to_owned()));
    let corner = square.inner_classes.iter().find(|c| c.name == "Corner").expect("Corner");
    assert!(!corner.modifiers.contains(&"static".to_owned()));
    assert_eq!(
        corner.constructors[0].signature_text, "public Corner(java.lang.String label)",
        "the outer instance is javac's"
    );
}

/// A class directory (`target/classes`) opens as an archive: its class files by relative path,
/// links not followed; its class list is cached under a key of its listing, so a class added
/// after the first read is seen by the next.
#[test]
fn a_class_directory_reads_like_a_jar() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(dir.path().join("p")).expect("mkdir");
    std::fs::write(dir.path().join("p/A.java"), "package p;\npublic class A { public static class In {} }\n")
        .expect("write");
    std::fs::write(dir.path().join("p/B.java"), "package p;\npublic class B {}\n").expect("write");
    let javac = |file: &str, out: &str| {
        let ok = Command::new(jdk().join("bin/javac"))
            .args(["-d", out, file])
            .current_dir(dir.path())
            .status()
            .expect("javac");
        assert!(ok.success());
    };
    javac("p/A.java", "classes");
    javac("p/B.java", "elsewhere");
    let classes = dir.path().join("classes");
    // A link inside the directory is not followed.
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.path().join("elsewhere/p"), classes.join("linked")).expect("symlink");
    let mut a = Archive::open(&classes, DEFAULT_MAX_ENTRIES).expect("a class directory opens");
    let names: Vec<&str> = a.entries.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["p/A$In.class", "p/A.class"]);
    let o = outline_class(&mut a, "p/A").expect("outlined");
    assert_eq!(o.classes[0].qualified_name, "p.A");
    assert_eq!(o.classes[0].inner_classes[0].qualified_name, "p.A.In");
    assert!(o.file_path.ends_with("classes!/p/A.class"), "{}", o.file_path);

    let cache = tempfile::tempdir().expect("tempdir");
    let list = |c: Option<&std::path::Path>| -> Vec<String> {
        let l = library::list_classes(&classes, c, DEFAULT_MAX_ENTRIES).expect("listed").classes;
        let mut names: Vec<String> = l.into_iter().map(|(_, n)| n).collect();
        names.sort();
        names
    };
    assert_eq!(list(Some(cache.path())), ["p/A", "p/A$In"]);
    let hit = library::list_classes(&classes, Some(cache.path()), DEFAULT_MAX_ENTRIES).expect("listed").cached;
    assert!(hit, "the second read comes from the cache");
    std::fs::create_dir_all(classes.join("p")).expect("mkdir");
    std::fs::copy(dir.path().join("elsewhere/p/B.class"), classes.join("p/B.class")).expect("copy");
    assert_eq!(list(Some(cache.path())), ["p/A", "p/A$In", "p/B"]);
}
