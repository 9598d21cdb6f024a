//! Kotlin's metadata decoded from real class files: Debian's `kotlin-stdlib.jar` (1.3.31,
//! installed by `.ci/run`), checked against what `javap -v` shows of its `kotlin.Metadata`
//! annotations and what the stdlib's sources declare.

// A test without Debian's stdlib or javap says it skipped.
#![allow(clippy::print_stderr)]

use std::path::Path;

use mji_classfile::Archive;
use mji_classfile::archive::DEFAULT_MAX_ENTRIES;
use mji_classfile::kotlin::{self, ClassKind, Kind, View};

const STDLIB: &str = "/usr/share/java/kotlin-stdlib.jar";

fn stdlib() -> Option<Archive> {
    if !Path::new(STDLIB).is_file() {
        eprintln!("skipped: {STDLIB} is not installed (Debian's kotlin package)");
        return None;
    }
    Some(Archive::open(Path::new(STDLIB), DEFAULT_MAX_ENTRIES).expect("the stdlib opens"))
}

fn view(a: &mut Archive, internal: &str) -> View {
    let bytes = a.read_named(&format!("{internal}.class")).expect("read").expect("present");
    let cf = mji_classfile::parse(&bytes).expect("parsed");
    let m = cf.kotlin.as_ref().unwrap_or_else(|| panic!("{internal} has kotlin.Metadata"));
    kotlin::decode(m).unwrap_or_else(|| panic!("{internal}'s metadata decodes"))
}

fn prop<'v>(v: &'v View, name: &str) -> &'v kotlin::Property {
    v.properties.iter().find(|p| p.name == name).unwrap_or_else(|| panic!("property {name} in {v:#?}"))
}

fn fun<'v>(v: &'v View, name: &str) -> &'v kotlin::Function {
    v.functions.iter().find(|f| f.name == name).unwrap_or_else(|| panic!("function {name}"))
}

/// `kotlin.Pair` (Tuples.kt: `data class Pair<out A, out B>(val first: A, val second: B)`).
#[test]
fn a_data_class_s_properties_with_their_accessors() {
    let Some(mut a) = stdlib() else { return };
    let v = view(&mut a, "kotlin/Pair");
    assert_eq!(v.kind, Kind::Class);
    let c = v.class.as_ref().expect("a class");
    assert_eq!((c.fq_name.as_str(), c.kind), ("kotlin/Pair", ClassKind::Class));
    assert_eq!(c.modifiers, ["public", "data"]);
    assert_eq!(c.type_params, ["out A", "out B"]);
    assert_eq!(c.supertypes, ["Serializable"]);
    let first = prop(&v, "first");
    assert_eq!(first.declaration(), "val first: A");
    assert_eq!(first.getter.as_ref().and_then(|g| g.name.as_deref()), Some("getFirst"));
    assert!(first.setter.is_none() && first.field.is_some(), "{first:?}");
    assert_eq!(prop(&v, "second").getter.as_ref().and_then(|g| g.name.as_deref()), Some("getSecond"));
    assert_eq!(v.constructors.len(), 1);
    assert_eq!(v.constructors[0].signature(), "public constructor(first: A, second: B)");
    assert_eq!(fun(&v, "copy").signature(), "public fun copy(first: A, second: B): Pair<A, B>");
    assert_eq!(fun(&v, "component1").signature(), "public operator fun component1(): A");
}

/// `kotlin.Unit` is an `object`; `kotlin.text.Regex` has a companion named `Companion`.
#[test]
fn objects_and_companions() {
    let Some(mut a) = stdlib() else { return };
    let unit = view(&mut a, "kotlin/Unit");
    assert_eq!(unit.class.as_ref().map(|c| c.kind), Some(ClassKind::Object));
    let regex = view(&mut a, "kotlin/text/Regex");
    assert_eq!(regex.class.as_ref().and_then(|c| c.companion.as_deref()), Some("Companion"));
    let companion = view(&mut a, "kotlin/text/Regex$Companion");
    let c = companion.class.expect("a class");
    assert_eq!((c.kind, c.fq_name.as_str()), (ClassKind::CompanionObject, "kotlin/text/Regex.Companion"));
    assert_eq!(fun(&companion_view(&mut a), "escape").signature(), "public fun escape(literal: String): String");
}

fn companion_view(a: &mut Archive) -> View {
    view(a, "kotlin/text/Regex$Companion")
}

/// `kotlin.collections.CollectionsKt` and `kotlin.text.StringsKt`: multi-file facades whose
/// parts declare the top-level functions and extension properties.
#[test]
fn multi_file_facades_and_their_parts() {
    let Some(mut a) = stdlib() else { return };
    let facade = view(&mut a, "kotlin/collections/CollectionsKt");
    assert_eq!(facade.kind, Kind::MultiFileFacade);
    assert!(facade.parts.contains(&"kotlin/collections/CollectionsKt__CollectionsKt".to_owned()), "{facade:?}");
    let part = view(&mut a, "kotlin/collections/CollectionsKt__CollectionsKt");
    assert_eq!(part.kind, Kind::MultiFilePart);
    assert_eq!(part.facade.as_deref(), Some("kotlin/collections/CollectionsKt"));
    let last = prop(&part, "lastIndex");
    assert_eq!(last.declaration(), "val List<T>.lastIndex: Int");
    assert_eq!(last.getter.as_ref().and_then(|g| g.name.as_deref()), Some("getLastIndex"));
    assert_eq!(prop(&part, "indices").declaration(), "val Collection<*>.indices: IntRange");
    assert!(part.functions.iter().any(|f| f.signature() == "public fun <T> listOf(vararg elements: T): List<T>"));

    let strings = view(&mut a, "kotlin/text/StringsKt");
    assert_eq!(strings.kind, Kind::MultiFileFacade);
    assert_eq!(strings.parts.len(), 11, "javap -v lists 11 parts: {:?}", strings.parts);
    let part = view(&mut a, "kotlin/text/StringsKt__StringsKt");
    assert_eq!(prop(&part, "lastIndex").declaration(), "val CharSequence.lastIndex: Int");
    assert!(fun(&part, "trim").receiver.is_some());
}

/// A single-file facade (`k = 2`): `kotlin.io.ConsoleKt`, the top-level functions of Console.kt.
#[test]
fn a_file_facade() {
    let Some(mut a) = stdlib() else { return };
    let v = view(&mut a, "kotlin/io/ConsoleKt");
    assert_eq!(v.kind, Kind::FileFacade);
    assert!(v.functions.iter().any(|f| f.name == "println"), "{v:?}");
}

/// Every class of the stdlib with metadata decodes, and every getter and setter its metadata
/// names is a method of the class file (the JVM names Java callers use); garbled metadata
/// decodes to no view or some view, never a panic.
#[test]
fn the_whole_stdlib_decodes_and_names_real_accessors() {
    let Some(mut a) = stdlib() else { return };
    let entries: Vec<_> = a.entries.iter().filter(|e| e.name.ends_with(".class")).cloned().collect();
    let (mut decoded, mut accessors, mut garbled) = (0, 0, 0);
    let mut missing = Vec::new();
    for e in &entries {
        let bytes = a.read(e).expect("read");
        let cf = mji_classfile::parse(&bytes).expect("parsed");
        let Some(m) = &cf.kotlin else { continue };
        let v = kotlin::decode(m).unwrap_or_else(|| panic!("{} decodes", e.name));
        decoded += 1;
        for p in &v.properties {
            for sig in [&p.getter, &p.setter].into_iter().flatten() {
                let name = sig.name.clone().unwrap_or_else(|| kotlin::default_getter(&p.name));
                accessors += 1;
                if !cf.methods.iter().any(|m| m.name == name) {
                    missing.push(format!("{}: {name}", e.name));
                }
            }
        }
        // Garbled copies of the message: each byte in turn changed, the tail cut.
        if garbled < 20_000
            && let Some(raw) = kotlin::decode_bytes(&m.d1)
        {
            for i in (0..raw.len()).step_by(raw.len() / 16 + 1) {
                let mut g = raw.clone();
                g[i] = g[i].wrapping_mul(31).wrapping_add(7);
                g.truncate(raw.len() - i / 3);
                let d1 = vec![std::iter::once('\0').chain(g.iter().map(|&b| char::from(b))).collect::<String>()];
                let _ = kotlin::decode(&mji_classfile::reader::KotlinMetadata { d1, ..m.clone() });
                garbled += 1;
            }
        }
    }
    assert!(decoded > 700, "{decoded} classes with metadata decoded");
    assert!(accessors > 400, "{accessors} accessors checked");
    assert!(missing.is_empty(), "accessors the class files lack: {missing:?}");
    assert!(garbled > 1_000, "{garbled} garbled copies decoded");
}

/// What the reader keeps of the annotation is what `javap -v` prints of it (`k`, `mv`, `xs`
/// and the string table), on classes of every kind.
#[test]
fn the_annotation_s_arguments_agree_with_javap() {
    let Some(mut a) = stdlib() else { return };
    let dir = tempfile::tempdir().expect("tempdir");
    for internal in ["kotlin/Pair", "kotlin/Unit", "kotlin/text/StringsKt", "kotlin/text/StringsKt__StringsKt"] {
        let bytes = a.read_named(&format!("{internal}.class")).expect("read").expect("present");
        let file = dir.path().join("C.class");
        std::fs::write(&file, &bytes).expect("written");
        let Ok(out) = std::process::Command::new("javap").arg("-v").arg(&file).output() else {
            eprintln!("skipped: no javap");
            return;
        };
        let text = String::from_utf8_lossy(&out.stdout);
        let arg = |name: &str| {
            text.lines().map(str::trim).find_map(|l| l.strip_prefix(&format!("{name}="))).map(str::to_owned)
        };
        let m = mji_classfile::parse(&bytes).expect("parsed").kotlin.expect("metadata");
        assert_eq!(arg("k"), Some(m.k.to_string()), "{internal}");
        let mv = m.mv.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(",");
        assert_eq!(arg("mv"), Some(format!("[{mv}]")), "{internal}");
        assert_eq!(arg("xs"), m.xs.as_ref().map(|x| format!("\"{x}\"")), "{internal}");
        if internal == "kotlin/Pair" {
            let d2 = m.d2.iter().map(|s| format!("\"{s}\"")).collect::<Vec<_>>().join(",");
            assert_eq!(arg("d2"), Some(format!("[{d2}]")), "{internal}");
        }
    }
}

fn shape(t: &mji_model::TypeDecl, out: &mut Vec<String>) {
    out.push(format!(
        "{:?} {} {:?} {:?} {:?}",
        t.kind, t.qualified_name, t.modifiers, t.type_params_text, t.generated_by
    ));
    for f in &t.fields {
        out.push(format!("  field {:?} {}: {} {:?}", f.modifiers, f.name, f.type_text, f.generated_by));
    }
    for m in &t.methods {
        out.push(format!("  method {} {:?}", m.signature_text, m.generated_by));
    }
    for i in &t.inner_classes {
        shape(i, out);
    }
}

fn outline_shape(a: &mut Archive, internal: &str) -> (String, String) {
    let o = mji_classfile::outline_class_as_declared(a, internal).expect("outlined");
    let mut out = Vec::new();
    for t in &o.classes {
        shape(t, &mut out);
    }
    (o.language, out.join("\n"))
}

/// The outline of a library class in Kotlin's view: the language `kotlin`, properties as
/// Kotlin declares them with their accessors kept under Java's names and marked, objects and
/// companions, a multi-file facade named from its files with the parts' members.
#[test]
fn outlines_in_kotlin_s_view_keep_the_jvm_names() {
    let Some(mut a) = stdlib() else { return };
    let (language, pair) = outline_shape(&mut a, "kotlin/Pair");
    assert_eq!(language, "kotlin");
    for line in [
        r#"Class kotlin.Pair ["public", "data"] Some("<out A, out B>") None"#,
        r#"  field ["public", "val"] first: A None"#,
        r#"  method public final A getFirst() Some("val first")"#,
        r#"  method public final B getSecond() Some("val second")"#,
        "  method public final kotlin.Pair<A, B> copy(A first, B second) None",
    ] {
        assert!(pair.lines().any(|l| l == line), "{line}\nin\n{pair}");
    }
    let (_, unit) = outline_shape(&mut a, "kotlin/Unit");
    assert!(unit.starts_with(r#"Class kotlin.Unit ["public", "object"] None None"#), "{unit}");
    assert!(unit.contains(r#"field ["public", "static", "final"] INSTANCE: kotlin.Unit Some("object")"#), "{unit}");
    let (_, regex) = outline_shape(&mut a, "kotlin/text/Regex");
    assert!(regex.contains(r#"Companion: kotlin.text.Regex.Companion Some("companion object")"#), "{regex}");
    assert!(regex.contains(r#"Class kotlin.text.Regex.Companion ["public", "companion", "object"]"#), "{regex}");
    let (_, strings) = outline_shape(&mut a, "kotlin/text/StringsKt");
    let head = strings.lines().next().unwrap_or_default();
    assert!(head.contains(r#"Some("facade of Indent.kt, "#) && head.contains(" Strings.kt, "), "{head}");
    for line in [
        r#"  field ["public", "static", "val"] lastIndex: Int None"#,
        r#"  method public static final int getLastIndex(java.lang.CharSequence $this$lastIndex) Some("val lastIndex")"#,
        "  method public static final java.lang.CharSequence trim(java.lang.CharSequence $this$trim) None",
    ] {
        assert!(strings.lines().any(|l| l == line), "{line}");
    }
    let (_, console) = outline_shape(&mut a, "kotlin/io/ConsoleKt");
    assert!(console.starts_with(r#"Class kotlin.io.ConsoleKt ["public", "final"] None Some("facade of Console.kt")"#));
    // A class from Java is outlined as before.
    let jdk_like = mji_classfile::outline_class(&mut a, "kotlin/Pair").expect("outlined");
    assert_eq!(jdk_like.language, "java");
}

/// Garbled class files compiled from Kotlin (400 bytes of each changed, in turn) are outlined in
/// Kotlin's view or Java's, never with a panic.
#[test]
fn garbled_kotlin_class_files_are_outlined_without_a_panic() {
    let Some(mut a) = stdlib() else { return };
    let mut viewed = 0;
    for internal in ["kotlin/Pair", "kotlin/text/Regex", "kotlin/text/StringsKt__StringsKt", "kotlin/io/ConsoleKt"] {
        let bytes = a.read_named(&format!("{internal}.class")).expect("read").expect("present");
        for i in (0..bytes.len()).step_by(bytes.len() / 400 + 1) {
            let mut g = bytes.clone();
            g[i] ^= 0x5a;
            let Ok(cf) = mji_classfile::parse(&g) else { continue };
            let mut load = |_: &str| None;
            let mut o = mji_classfile::outline::outline(String::new(), String::new(), &cf, &mut load);
            mji_classfile::outline::kotlin_view(&mut o, &cf, &mut load);
            viewed += usize::from(o.language == "kotlin");
        }
    }
    assert!(viewed > 100, "{viewed} garbled copies still had Kotlin's view");
}
