//! extract_variable and extract_method around generic calls and the JDK's I/O, typed as javac
//! types them (the receiver's type arguments substituted, a generic method's inferred from its
//! arguments, the JDK table's `throws`), on a temp copy of tests/edit_fixtures/extract_types:
//! each extraction is applied and javac compiles the fixture after it.

use super::refactor::{call, compiles, setup_of};
use serde_json::json;

fn extracted(line: u32, text: &str, name: &str) -> String {
    let (p, ws) = setup_of("extract_types");
    let args = json!({"action": "extract_variable", "filePath": "et/Codec.java", "line": line, "text": text, "newName": name, "apply": true});
    let (done, _) = call(&ws, args).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(done["applied"], json!(true), "{done}");
    compiles(&p);
    std::fs::read_to_string(p.root.path().join("et/Codec.java")).expect("read")
}

#[test]
fn a_map_get_takes_the_receivers_type_arguments() {
    let codec = extracted(14, "seen.get(key)", "tokens");
    assert!(codec.contains("List<Token<?>> tokens = seen.get(key);"), "{codec}");
}

#[test]
fn a_static_generic_factory_is_typed_by_its_overload() {
    let codec = extracted(18, "Token.get(typeOfT)", "token");
    assert!(codec.contains("Token<?> token = Token.get(typeOfT);"), "{codec}");
}

#[test]
fn a_generic_method_takes_its_type_argument_from_the_argument() {
    let codec = extracted(22, "factory.create(this, type)", "made");
    assert!(codec.contains("Adapter<T> made = factory.create(this, type);"), "{codec}");
}

#[test]
fn extract_method_around_jdk_io_declares_what_it_throws() {
    let (p, ws) = setup_of("extract_types");
    let args = json!({"action": "extract_method", "filePath": "et/Codec.java", "startLine": 27, "endLine": 28, "newName": "readFirst", "apply": true});
    let (done, _) = call(&ws, args).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(done["applied"], json!(true), "{done}");
    compiles(&p);
    let codec = std::fs::read_to_string(p.root.path().join("et/Codec.java")).expect("read");
    assert!(codec.contains("throws IOException {"), "{codec}");
}
