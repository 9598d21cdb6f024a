//! Safe delete's syntax half: the bytes a declaration takes (a type, a method, a field with
//! its javadoc and annotations, whole lines), found by its name and line. Whether it has uses
//! is the reference index's question, answered by the caller before anything is removed.

use mji_parser::kind;
use tree_sitter::Node;

use crate::Doc;
use crate::syntax::walk;

/// What kind of declaration to remove.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeclKind {
    Type,
    Method,
    Field,
}

/// A declaration's bytes, to remove (uses inside them are its own).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Removal {
    pub start: usize,
    pub end: usize,
}

/// The declarations of a type.
pub(crate) const TYPE_KINDS: &[&str] = &[
    kind::CLASS_DECLARATION,
    kind::INTERFACE_DECLARATION,
    kind::ENUM_DECLARATION,
    kind::RECORD_DECLARATION,
    kind::ANNOTATION_TYPE_DECLARATION,
];

/// The declaration of `kind` named `name` whose code holds `line` (the innermost), with its
/// javadoc and the whitespace of its lines. Refused for a field declared together with others
/// (`int a, b;`).
pub fn declaration(doc: &Doc, kind: DeclKind, name: &str, line: u32) -> Result<Removal, String> {
    let text = doc.text();
    let bytes = text.as_bytes();
    let tree = mji_parser::parse_tree(text).ok_or("the file could not be parsed")?;
    let mut node = find(tree.root_node(), bytes, kind, name, line)
        .ok_or_else(|| format!("no declaration of {name} at line {line}"))?;
    if kind == DeclKind::Field {
        let decl = node.parent().ok_or("a field outside a declaration")?;
        let mut c = decl.walk();
        if decl.children_by_field_name("declarator", &mut c).count() > 1 {
            return Err(format!("{name} is declared together with other fields; split the declaration first"));
        }
        node = decl;
    }
    let mut start = node.start_byte();
    if let Some(c) = node.prev_sibling().filter(|c| c.kind() == kind::BLOCK_COMMENT)
        && c.utf8_text(bytes).is_ok_and(|t| t.starts_with("/**"))
        && text[c.end_byte()..start].trim().is_empty()
    {
        start = c.start_byte();
    }
    // Whole lines: from the line's start when only indentation precedes, through the newline
    // when only whitespace follows.
    let line_start = crate::syntax::line_start(text, start);
    if text[line_start..start].trim().is_empty() {
        start = line_start;
    }
    let mut end = node.end_byte();
    let rest = &text[end..];
    let eol = rest.find('\n').map_or(rest.len(), |i| i + 1);
    if rest[..eol].trim().is_empty() {
        end += eol;
    }
    // Not two blank lines where the declaration was: its leading blank line goes too when a
    // blank line or the closing brace follows.
    let before = &text[..start];
    let after = &text[end..];
    let next = after.lines().next().unwrap_or("").trim();
    if start == line_start
        && let Some(prev) = before.strip_suffix('\n').map(|b| b.strip_suffix('\r').unwrap_or(b))
        && let Some(prev_start) = prev.rfind('\n').map(|i| i + 1)
        && prev[prev_start..].trim().is_empty()
        && (next.is_empty() || next.starts_with('}'))
    {
        start = prev_start;
    } else if start == line_start
        && before.trim_end().ends_with('{')
        && let Some(blank) = after.find('\n').filter(|i| after[..*i].trim().is_empty())
    {
        // First in its body: the blank line after it goes instead.
        end += blank + 1;
    }
    Ok(Removal { start, end })
}

/// Why the JVM or a framework calls the declaration of `kind` named `name` at `line` by its
/// name, so no reference in code shows it used (`None` when nothing does): a `native` method
/// (its peer is bound by name), `main(String[])`, a test or lifecycle method of JUnit or
/// TestNG (by its annotation), a method a framework calls by its annotation (a Spring MVC
/// handler, a `@Bean` factory, an aspect's advice, [`FRAMEWORK_ANNOTATIONS`]), a method a
/// string of an annotation in the file names
/// (`@MethodSource("data")`), and in a type that is (or may be) `Serializable`, the
/// serialization hooks with their exact signatures (`writeObject`, `readObject`,
/// `readObjectNoData`, `writeReplace`, `readResolve`, `serialVersionUID`,
/// `serialPersistentFields`, Java Object Serialization Specification 2.3, 3.4, 3.7, 5.6).
pub fn called_by_name(doc: &Doc, kind: DeclKind, name: &str, line: u32, serializable: bool) -> Option<String> {
    let text = doc.text();
    let b = text.as_bytes();
    let tree = mji_parser::parse_tree(text)?;
    let node = find(tree.root_node(), b, kind, name, line)?;
    match kind {
        DeclKind::Type => None,
        DeclKind::Field => {
            let decl = node.parent()?;
            let words = modifier_words(decl, b);
            let has = |w: &str| words.iter().any(|x| x == w);
            let ty = decl.child_by_field_name("type").map(|t| squeeze(t, b)).unwrap_or_default();
            let hook = match name {
                "serialVersionUID" => has("static") && has("final") && ty == "long",
                "serialPersistentFields" => {
                    has("private")
                        && has("static")
                        && has("final")
                        && matches!(ty.as_str(), "ObjectStreamField[]" | "java.io.ObjectStreamField[]")
                }
                _ => false,
            };
            (hook && serializable)
                .then(|| format!("{name} is read by Java serialization by its name (the JVM uses it, not code)"))
        }
        DeclKind::Method => {
            let words = modifier_words(node, b);
            let has = |w: &str| words.iter().any(|x| x == w);
            if has("native") {
                return Some(format!(
                    "{name} is native: the JVM binds it by its name to code outside Java, which calls it too"
                ));
            }
            let params = param_types(node, b);
            let ret = node.child_by_field_name("type").map(|t| squeeze(t, b)).unwrap_or_default();
            let is_void = ret == "void";
            let string_array =
                |t: &str| matches!(t, "String[]" | "String..." | "java.lang.String[]" | "java.lang.String...");
            if name == "main" && has("static") && is_void && params.len() == 1 && string_array(&params[0]) {
                return Some("main is the program's entry point, used by the JVM, not by code".into());
            }
            if let Some(a) = annotations(node, b).into_iter().find(|a| TEST_ANNOTATIONS.contains(&a.as_str())) {
                return Some(format!(
                    "{name} is annotated @{a}: the test framework (JUnit, TestNG) calls it by reflection"
                ));
            }
            if let Some(a) = annotations(node, b).into_iter().find(|a| FRAMEWORK_ANNOTATIONS.contains(&a.as_str())) {
                return Some(format!(
                    "{name} is annotated @{a}: a framework (Spring, Jakarta EE, JAX-RS, AspectJ, JMX, Jackson, JAXB) calls it by reflection, with the arguments it chooses"
                ));
            }
            let object = matches!(ret.as_str(), "Object" | "java.lang.Object");
            let hook = !has("static")
                && match name {
                    "writeObject" => {
                        has("private")
                            && is_void
                            && params.len() == 1
                            && matches!(params[0].as_str(), "ObjectOutputStream" | "java.io.ObjectOutputStream")
                    }
                    "readObject" => {
                        has("private")
                            && is_void
                            && params.len() == 1
                            && matches!(params[0].as_str(), "ObjectInputStream" | "java.io.ObjectInputStream")
                    }
                    "readObjectNoData" => has("private") && is_void && params.is_empty(),
                    "writeReplace" | "readResolve" => object && params.is_empty(),
                    _ => false,
                };
            if hook && serializable {
                return Some(format!(
                    "{name} is a serialization hook: Java serialization calls it by its name and signature \
                     (deleting it compiles, and (de)serialization then behaves differently)"
                ));
            }
            named_in_annotation(tree.root_node(), b, name).map(|at| {
                format!(
                    "{name} is named by the string of an annotation at line {at}: a framework calls it by reflection"
                )
            })
        }
    }
}

/// The annotations of JUnit 4 and 5 and TestNG whose methods the framework calls by reflection.
const TEST_ANNOTATIONS: &[&str] = &[
    "Test",
    "ParameterizedTest",
    "RepeatedTest",
    "TestFactory",
    "TestTemplate",
    "BeforeEach",
    "AfterEach",
    "BeforeAll",
    "AfterAll",
    "Before",
    "After",
    "BeforeClass",
    "AfterClass",
    "BeforeMethod",
    "AfterMethod",
    "BeforeSuite",
    "AfterSuite",
    "BeforeTest",
    "AfterTest",
    "BeforeGroups",
    "AfterGroups",
    "DataProvider",
    "Factory",
    "Rule",
    "ClassRule",
    "Parameters",
];

/// The annotations whose methods a framework calls by reflection (a web request's handler, a
/// bean factory, an aspect's advice, a managed attribute, a persistence callback, a
/// (de)serializer's accessor): Spring's and Jakarta EE's, JAX-RS', AspectJ's, JMX's exported
/// ones, JPA's lifecycle callbacks, Jackson's and JAXB's.
const FRAMEWORK_ANNOTATIONS: &[&str] = &[
    "RequestMapping",
    "GetMapping",
    "PostMapping",
    "PutMapping",
    "DeleteMapping",
    "PatchMapping",
    "ModelAttribute",
    "InitBinder",
    "ExceptionHandler",
    "MessageMapping",
    "Bean",
    "PostConstruct",
    "PreDestroy",
    "EventListener",
    "TransactionalEventListener",
    "Scheduled",
    "JmsListener",
    "KafkaListener",
    "RabbitListener",
    "Autowired",
    "Inject",
    "Around",
    "AfterReturning",
    "AfterThrowing",
    "Pointcut",
    "ManagedAttribute",
    "ManagedOperation",
    "GET",
    "POST",
    "PUT",
    "DELETE",
    "PATCH",
    "Path",
    "Produces",
    "PrePersist",
    "PostPersist",
    "PreUpdate",
    "PostUpdate",
    "PreRemove",
    "PostRemove",
    "PostLoad",
    "JsonCreator",
    "JsonValue",
    "JsonProperty",
    "JsonGetter",
    "JsonSetter",
    "JsonAnyGetter",
    "JsonAnySetter",
    "XmlElement",
    "XmlAttribute",
    "XmlValue",
];

/// The keywords among a declaration's modifiers (`private`, `static`, `native`…).
fn modifier_words(n: Node, b: &[u8]) -> Vec<String> {
    let mut c = n.walk();
    let Some(mods) = n.children(&mut c).find(|k| k.kind() == kind::MODIFIERS) else { return Vec::new() };
    let mut c2 = mods.walk();
    mods.children(&mut c2).filter(|k| !k.is_named()).filter_map(|k| k.utf8_text(b).ok().map(str::to_owned)).collect()
}

/// The simple names of a declaration's annotations (`org.junit.Test` as `Test`).
fn annotations(n: Node, b: &[u8]) -> Vec<String> {
    let mut c = n.walk();
    let Some(mods) = n.children(&mut c).find(|k| k.kind() == kind::MODIFIERS) else { return Vec::new() };
    let mut c2 = mods.walk();
    mods.named_children(&mut c2)
        .filter(|k| matches!(k.kind(), kind::MARKER_ANNOTATION | kind::ANNOTATION))
        .filter_map(|k| k.child_by_field_name("name")?.utf8_text(b).ok())
        .map(|t| t.rsplit('.').next().unwrap_or(t).trim().to_owned())
        .collect()
}

/// A method's parameter types as written, whitespace removed (`String...` for varargs).
fn param_types(m: Node, b: &[u8]) -> Vec<String> {
    let Some(ps) = m.child_by_field_name("parameters") else { return Vec::new() };
    let mut c = ps.walk();
    ps.named_children(&mut c)
        .filter_map(|p| match p.kind() {
            kind::FORMAL_PARAMETER => {
                let t = squeeze(p.child_by_field_name("type")?, b);
                let dims = p.child_by_field_name("dimensions").map(|d| squeeze(d, b)).unwrap_or_default();
                Some(format!("{t}{dims}"))
            }
            kind::SPREAD_PARAMETER => {
                let mut c2 = p.walk();
                let t = p
                    .named_children(&mut c2)
                    .find(|k| k.kind() != kind::MODIFIERS && k.kind() != kind::VARIABLE_DECLARATOR)?;
                Some(format!("{}...", squeeze(t, b)))
            }
            _ => None,
        })
        .collect()
}

/// A node's text without whitespace.
fn squeeze(n: Node, b: &[u8]) -> String {
    n.utf8_text(b).unwrap_or("").split_whitespace().collect()
}

/// The 1-based line of the first annotation of the file whose arguments hold a string literal
/// that is exactly `name`.
fn named_in_annotation(root: Node, b: &[u8], name: &str) -> Option<u32> {
    let mut at = None;
    walk(root, &mut |n| {
        if at.is_none()
            && n.kind() == kind::STRING_FRAGMENT
            && n.utf8_text(b).ok() == Some(name)
            && std::iter::successors(n.parent(), |p| p.parent())
                .take_while(|p| !crate::delete::TYPE_KINDS.contains(&p.kind()))
                .any(|p| p.kind() == kind::ANNOTATION)
        {
            at = Some(n.start_position().row as u32 + 1);
        }
    });
    at
}

/// The declaration of `kind` named `name` whose code holds `line`, the innermost.
fn find<'t>(root: Node<'t>, bytes: &[u8], kind: DeclKind, name: &str, line: u32) -> Option<Node<'t>> {
    let mut found: Option<Node> = None;
    walk(root, &mut |n| {
        let wanted = match kind {
            DeclKind::Type => TYPE_KINDS.contains(&n.kind()),
            DeclKind::Method => n.kind() == kind::METHOD_DECLARATION,
            DeclKind::Field => {
                n.kind() == kind::VARIABLE_DECLARATOR
                    && n.parent()
                        .is_some_and(|p| matches!(p.kind(), kind::FIELD_DECLARATION | kind::CONSTANT_DECLARATION))
            }
        };
        let holds = (n.start_position().row as u32) < line && line <= n.end_position().row as u32 + 1;
        if wanted && holds && n.child_by_field_name("name").and_then(|x| x.utf8_text(bytes).ok()) == Some(name) {
            // The walk goes outside in: the last match is the innermost.
            found = Some(n);
        }
    });
    found
}

/// `start..end` widened to whole lines: from the line's start when only indentation precedes,
/// through the line's end when only whitespace follows.
pub(crate) fn whole_lines(text: &str, mut start: usize, mut end: usize) -> (usize, usize) {
    let line_start = crate::syntax::line_start(text, start);
    if text[line_start..start].trim().is_empty() {
        start = line_start;
    }
    let rest = &text[end..];
    let eol = rest.find('\n').map_or(rest.len(), |i| i + 1);
    if rest[..eol].trim().is_empty() {
        end += eol;
    }
    (start, end)
}

/// The removal of the single-type import on `line` (the whole line), if one is there.
pub fn import_line(doc: &Doc, line: u32) -> Option<crate::TextEdit> {
    import_where(doc, |n, t| n.start_position().row as u32 + 1 == line && !t.contains('*'))
}

/// The whole-line removal of the first import declaration `pick` accepts (given its node and
/// its text with whitespace runs as single spaces: `import static a.B.c;`).
pub(crate) fn import_where(doc: &Doc, pick: impl Fn(Node, &str) -> bool) -> Option<crate::TextEdit> {
    let text = doc.text();
    let tree = mji_parser::parse_tree(text)?;
    let root = tree.root_node();
    let mut c = root.walk();
    let n = root.children(&mut c).find(|n| {
        n.kind() == kind::IMPORT_DECLARATION
            && pick(*n, &n.utf8_text(text.as_bytes()).unwrap_or("").split_whitespace().collect::<Vec<_>>().join(" "))
    })?;
    let start = crate::syntax::line_start(text, n.start_byte());
    let rest = &text[n.end_byte()..];
    let end = n.end_byte() + rest.find('\n').map_or(rest.len(), |i| i + 1);
    Some(crate::TextEdit { start, end, text: String::new() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn removed(src: &str, kind: DeclKind, name: &str, line: u32) -> String {
        let doc = Doc::new(Path::new("/x/A.java"), "A.java", src.as_bytes().to_vec()).expect("utf-8");
        let r = declaration(&doc, kind, name, line).expect("found");
        format!("{}{}", &src[..r.start], &src[r.end..])
    }

    fn why(src: &str, kind: DeclKind, name: &str, line: u32, serializable: bool) -> Option<String> {
        let doc = Doc::new(Path::new("/x/A.java"), "A.java", src.as_bytes().to_vec()).expect("utf-8");
        called_by_name(&doc, kind, name, line, serializable)
    }

    #[test]
    fn what_the_jvm_calls_by_name_is_told_by_its_exact_signature() {
        let m = |src: &str, name: &str, ser: bool| {
            why(&format!("class A {{\n    {src}\n}}\n"), DeclKind::Method, name, 2, ser)
        };
        assert!(m("private void writeObject(java.io.ObjectOutputStream o) {}", "writeObject", true).is_some());
        // Not private, static, or another parameter: no hook the JVM calls.
        assert_eq!(m("public void writeObject(java.io.ObjectOutputStream o) {}", "writeObject", true), None);
        assert_eq!(m("private static void readObject(ObjectInputStream i) {}", "readObject", true), None);
        assert_eq!(m("private void readObject(Object i) {}", "readObject", true), None);
        assert!(m("protected Object readResolve() { return this; }", "readResolve", true).is_some());
        assert_eq!(m("String readResolve() { return null; }", "readResolve", true), None);
        // Not serializable: an ordinary method.
        assert_eq!(m("private Object writeReplace() { return this; }", "writeReplace", false), None);
        assert!(m("public static void main(String... args) {}", "main", false).is_some());
        assert_eq!(m("void main(int x) {}", "main", false), None);
        assert!(m("private native int peek();", "peek", false).is_some_and(|w| w.contains("native")));
        assert!(m("@org.junit.Test public void t() {}", "t", false).is_some_and(|w| w.contains("@Test")));
        assert!(m("@AfterAll static void done() {}", "done", false).is_some_and(|w| w.contains("@AfterAll")));
        assert_eq!(m("@Deprecated void old() {}", "old", false), None);
        let f = |src: &str, name: &str| why(&format!("class A {{\n    {src}\n}}\n"), DeclKind::Field, name, 2, true);
        assert!(f("private static final long serialVersionUID = 1L;", "serialVersionUID").is_some());
        assert_eq!(f("long serialVersionUID = 1L;", "serialVersionUID"), None);
        // A string of an annotation names the method.
        let src = "class A {\n    @MethodSource(\"rows\")\n    void t(int x) {}\n\n    static int[] rows() { return null; }\n}\n";
        assert!(why(src, DeclKind::Method, "rows", 5, false).is_some_and(|w| w.contains("line 2")));
    }

    #[test]
    fn removes_whole_lines_with_the_javadoc() {
        let src = "class A {\n    int a;\n\n    /** Doc. */\n    @Deprecated\n    void f() {\n        f();\n    }\n\n    int b, c;\n}\n";
        assert_eq!(removed(src, DeclKind::Method, "f", 6), "class A {\n    int a;\n\n    int b, c;\n}\n");
        assert_eq!(
            removed(src, DeclKind::Field, "a", 2),
            "class A {\n    /** Doc. */\n    @Deprecated\n    void f() {\n        f();\n    }\n\n    int b, c;\n}\n"
        );
        let doc = Doc::new(Path::new("/x/A.java"), "A.java", src.as_bytes().to_vec()).expect("utf-8");
        assert!(declaration(&doc, DeclKind::Field, "b", 10).is_err());
        let src = "class A {\n    int a;\n\n    static class B {\n    }\n}\n";
        assert_eq!(removed(src, DeclKind::Type, "B", 4), "class A {\n    int a;\n}\n");
    }
}
