//! Parser rules, one `check(source, expected outline)` per rule; expectations written by hand
//! from javac's rules (first token incl. annotations; closing `}`/`;`; nearest `/**`).

use crate::common;

use mcp_java_index::parser;

#[track_caller]
fn check(src: &str, expect: &str) {
    let o = parser::outline("T.java", src.as_bytes());
    let got = common::render(&o);
    let want: String = expect
        .lines()
        .map(|l| l.strip_prefix("        ").unwrap_or(l))
        .filter(|l| !l.trim().is_empty())
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(got, want, "\n--- got ---\n{got}--- want ---\n{want}");
}

#[test]
fn annotations_on_separate_lines_start_the_declaration() {
    check(
        "package p;\n/** doc */\n@Deprecated\n@SuppressWarnings(\n  \"x\")\npublic class A {\n  /** m */\n  @Override\n  public String toString() {\n    return \"\";\n  }\n}\n",
        "
        class p.A 3-12 doc 2-2
          method String toString() 8-11 doc 7-7
        ",
    );
}

#[test]
fn javadoc_after_an_annotation_belongs_to_nothing() {
    check(
        "class A {\n  @Override\n  /** not mine */\n  public int hashCode() { return 1; }\n}\n",
        "
        class A 1-5
          method int hashCode() 2-4
        ",
    );
}

#[test]
fn nearest_javadoc_wins_and_other_comments_may_sit_between() {
    check(
        "class A {\n  /** first */\n  /** second */\n  // line\n  /* block */\n  void f() {}\n\n  /** gap */\n\n  void g() {}\n  /**/ void h() {}\n  /// not javadoc\n  void i() {}\n}\n",
        "
        class A 1-14
          method void f() 6-6 doc 3-3
          method void g() 10-10 doc 8-8
          method void h() 11-11 doc 11-11
          method void i() 13-13
        ",
    );
}

#[test]
fn generic_method_without_modifiers_starts_at_its_type_parameters() {
    check(
        "class A {\n  <T>\n  T id(T t) {\n    return t;\n  }\n  static <T extends Comparable<? super T>> void sort(java.util.List<T> l) {}\n}\n",
        "
        class A 1-7
          method T id(T) 2-5
          method void sort(java.util.List<T>) 6-6
        ",
    );
}

#[test]
fn overloads_are_distinct_and_varargs_and_c_style_arrays_are_typed() {
    let src = "class A {\n  void f() {}\n  void f(int a) {}\n  void f(String a, int... b) {}\n  void g(String args[], int[] x) {}\n  int h()[] { return null; }\n}\n";
    check(
        src,
        "
        class A 1-7
          method void f() 2-2
          method void f(int) 3-3
          method void f(String,int...) 4-4
          method void g(String[],int[]) 5-5
          method int[] h() 6-6
        ",
    );
    let o = parser::outline("T.java", src.as_bytes());
    let ids: Vec<_> = o.classes[0].methods.iter().map(|m| m.symbol_id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "Method#A#f():void|start:2|end:2",
            "Method#A#f(int):void|start:3|end:3",
            "Method#A#f(String,int...):void|start:4|end:4",
            "Method#A#g(String[],int[]):void|start:5|end:5",
            "Method#A#h():int[]|start:6|end:6",
        ]
    );
}

#[test]
fn multi_declarator_fields_each_span_the_declaration() {
    check(
        "class A {\n  /** both */\n  int a,\n      b[] = {};\n  String s = \"}\";\n}\n",
        "
        class A 1-6
          field int a 3-4 doc 2-2
          field int[] b 3-4 doc 2-2
          field String s 5-5
        ",
    );
}

#[test]
fn nested_types_nest_and_local_and_anonymous_classes_do_not_appear() {
    check(
        "package p;\nclass O {\n  static class S {\n    class I {}\n  }\n  interface J { class K {} }\n  void m() {\n    class Local {}\n    Runnable r = new Runnable() { public void run() {} };\n  }\n  Object o = new Object() { int x; };\n}\n",
        "
        class p.O 2-12
          field Object o 11-11
          method void m() 7-10
          class p.O.S 3-5
            class p.O.S.I 4-4
          interface p.O.J 6-6
            class p.O.J.K 6-6
        ",
    );
}

#[test]
fn records_list_components_and_compact_constructors_take_them() {
    check(
        "record P(int x, java.util.List<String> ys) implements Comparable<P> {\n  static int ZERO = 0;\n  /** compact */\n  P {\n  }\n  P(int x) { this(x, null); }\n  public int compareTo(P o) { return 0; }\n}\n",
        "
        record P 1-8
          component int x
          component java.util.List<String> ys
          field int ZERO 2-2
          ctor P(int,java.util.List<String>) 4-5 doc 3-3
          ctor P(int) 6-6
          method int compareTo(P) 7-7
        ",
    );
}

#[test]
fn enums_list_constants_with_bodies_and_javadoc() {
    check(
        "enum E {\n  /** red */\n  RED(1),\n  GREEN(\n    2) {\n    void x() {}\n  },\n  BLUE;\n  private final int v;\n  E() { this(0); }\n  E(int v) { this.v = v; }\n}\n",
        "
        enum E 1-12
          constant RED 3-3 doc 2-2
          constant GREEN 4-7
          constant BLUE 8-8
          field int v 9-9
          ctor E() 10-10
          ctor E(int) 11-11
        ",
    );
}

#[test]
fn interfaces_and_annotation_types() {
    check(
        "interface I extends A, B<String> {\n  int K = 1;\n  void a();\n  default void d() {\n  }\n  static int s() { return 1; }\n  private void p() {}\n}\n@interface Ann {\n  String value() default \"}\";\n  int[] n() default {1, 2};\n}\n",
        "
        interface I 1-8
          field int K 2-2
          method void a() 3-3
          method void d() 4-5
          method int s() 6-6
          method void p() 7-7
        annotation Ann 9-12
          method String value() 10-10
          method int[] n() 11-11
        ",
    );
}

#[test]
fn every_line_terminator_counts() {
    // CRLF, then CR alone (old Mac), then LF.
    check(
        "class A {\r\n  /** d */\r\n  void f() {\r  }\n  void g() {}\n}\n",
        "
        class A 1-6
          method void f() 3-4 doc 2-2
          method void g() 5-5
        ",
    );
}

#[test]
fn braces_in_strings_chars_comments_and_text_blocks_do_not_move_ends() {
    check(
        "class A {\n  String t = \"\"\"\n    } /** not */ {\n    \"\"\";\n  char c = '}';\n  // }\n  /* { */\n  void f() { String s = \"{\"; }\n}\n",
        "
        class A 1-9
          field String t 2-4
          field char c 5-5
          method void f() 8-8
        ",
    );
}

#[test]
fn broken_files_keep_what_parses_and_report_errors() {
    let o = parser::outline("T.java", b"class A {\n  void ok() {}\n  void broken( {\n  }\n  void ok2() {}\n");
    assert!(o.errors.iter().any(|e| e.level == mcp_java_index::model::Level::Error), "{:?}", o.errors);
    assert!(o.errors.iter().all(|e| e.line.is_some_and(|l| (1..=5).contains(&l))), "{:?}", o.errors);
    let names: Vec<_> = o.classes.iter().flat_map(|c| c.methods.iter().map(|m| m.name.as_str())).collect();
    assert!(names.contains(&"ok"), "{names:?}");
}

#[test]
fn empty_and_info_files_have_no_types() {
    for (name, src) in [
        ("empty", ""),
        ("package-info", "/** docs */\n@Deprecated\npackage a.b;\n"),
        ("module-info", "module a.b {\n  requires java.base;\n  exports a.b;\n}\n"),
    ] {
        let o = parser::outline(name, src.as_bytes());
        assert!(o.classes.is_empty(), "{name}: {:?}", o.classes);
        assert!(o.errors.is_empty(), "{name}: {:?}", o.errors);
    }
}

#[test]
fn bom_and_latin1_files_keep_their_lines() {
    let mut bytes = b"\xEF\xBB\xBFpackage p;\n".to_vec();
    bytes.extend_from_slice(b"/** caf\xE9 */\nclass A {\n  String s = \"gr\xF6\xDFe\";\n}\n");
    let o = parser::outline("T.java", &bytes);
    assert_eq!(common::render(&o).lines().next(), Some("class p.A 3-5 doc 2-2"));
    assert_eq!(o.errors.len(), 1, "{:?}", o.errors);
    assert!(o.errors[0].message.contains("ISO-8859-1"));
}

#[test]
fn modifiers_are_keywords_in_source_order_and_annotations_are_apart() {
    let o = parser::outline("T.java", b"abstract class A {\n  @Deprecated protected static @SuppressWarnings(\"x\") final synchronized void f() {}\n  abstract void g();\n}\n");
    let m = &o.classes[0].methods[0];
    assert_eq!(m.modifiers, ["protected", "static", "final", "synchronized"]);
    assert_eq!(m.annotations, ["@Deprecated", "@SuppressWarnings(\"x\")"]);
    assert_eq!(m.signature_text, "protected static final synchronized void f()");
    assert!(o.classes[0].methods[1].modifiers == ["abstract"]);
}

#[test]
fn type_text_is_source_text_with_whitespace_collapsed() {
    let o = parser::outline(
        "T.java",
        b"class A {\n  java.util.Map<String,\n      java.util.List</* c */ Integer>> m(\n      final @Deprecated java.util.Map<String,   Integer> a) throws\n      java.io.IOException,\n      RuntimeException { return null; }\n}\n",
    );
    let m = &o.classes[0].methods[0];
    assert_eq!(m.return_type_text, "java.util.Map<String, java.util.List< Integer>>");
    assert_eq!(m.params[0].type_text, "java.util.Map<String, Integer>");
    assert_eq!(m.throws, ["java.io.IOException", "RuntimeException"]);
    assert_eq!((m.start_line, m.end_line), (2, 6));
}

/// Every outline walk shares one order (short `@N` ids and the cache's javadoc spans depend on
/// it): a type, its enum constants, fields, constructors, methods, then its nested types; the
/// mutable walk visits the same declarations in the same order; every id parses as a SymbolId.
#[test]
fn outline_walks_share_one_order() {
    let src =
        "enum E { A, B; int f; E() {} void m() {} class In { int g; class Deep {} } }\nclass Second { void n() {} }";
    let mut o = parser::outline("T.java", src.as_bytes());
    let ids: Vec<String> = o.decls().iter().map(|d| d.symbol_id().to_owned()).collect();
    let short: Vec<&str> = ids.iter().map(|id| id.split('|').next().unwrap_or(id)).collect();
    assert_eq!(
        short,
        [
            "Class#E",
            "EnumConstant#E#A",
            "EnumConstant#E#B",
            "Field#E#f",
            "Ctor#E#E()",
            "Method#E#m():void",
            "Class#E.In",
            "Field#E.In#g",
            "Class#E.In.Deep",
            "Class#Second",
            "Method#Second#n():void",
        ]
    );
    let mut visited = Vec::new();
    o.for_each_decl_mut(|id, _| visited.push(id.clone()));
    assert_eq!(visited, ids);
    for id in &ids {
        let parsed: mcp_java_index::model::SymbolId = id.parse().expect("every id parses");
        assert_eq!(&parsed.to_string(), id);
    }
}
