//! Issue 13's audit of `likely`: a reference is `exact` when javac's rules leave one method
//! whatever the types the engine cannot know are — a plain call of a class's own method in a
//! class whose supertypes come from a jar that is not there (Spring's `DispatcherServlet`
//! extends the servlet API's `HttpServlet`), an argument typed by a library call, inherited,
//! outer-class and statically imported methods — and stays `likely` where another overload
//! could be chosen.

use crate::common;

use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::tool::find_references::FindReferencesArgs;

const PKG: &str = "org/springframework/web/servlet";

const FILES: &[(&str, &str)] = &[
    (
        "DispatcherServlet.java",
        r#"package org.springframework.web.servlet;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Locale;

import static org.springframework.web.util.WebUtils.quote;

public class DispatcherServlet extends FrameworkServlet {

    protected void doDispatch(HttpServletRequest request, HttpServletResponse response) throws Exception {
        HandlerExecutionChain mappedHandler = getHandler(request);
        HandlerAdapter ha = getHandlerAdapter(mappedHandler.getHandler());
        HandlerAdapter hb = getHandlerAdapter(request.getAttribute("handler"));
        HandlerAdapter hc = this.getHandlerAdapter(request.getAttribute("this"));
        render(request.getLocale(), 200);
        render(request.getLocale(), logger.getName());
        initStrategies(getServletContext());
        String q = quote(request.getRequestURI());
        service(request, response);
        Object anonymous = new Object() {
            Object f(HttpServletRequest r) throws Exception { return getHandlerAdapter(r.getAttribute("anon")); }
        };
    }

    protected HandlerExecutionChain getHandler(HttpServletRequest request) { return null; }

    protected HandlerAdapter getHandlerAdapter(Object handler) throws ServletException { return null; }

    protected void render(Locale locale, int status) {}

    protected void render(Locale locale, String view) {}

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) {}

    private class Inner extends jakarta.servlet.GenericFilter {
        Object run(HttpServletRequest r) throws Exception { return getHandlerAdapter(r.getAttribute("inner")); }

        Object outer(HttpServletRequest r) throws Exception { return DispatcherServlet.this.getHandlerAdapter(r); }
    }
}
"#,
    ),
    (
        "FrameworkServlet.java",
        "package org.springframework.web.servlet;\n\nimport jakarta.servlet.ServletContext;\nimport org.apache.commons.logging.Log;\nimport org.apache.commons.logging.LogFactory;\n\npublic abstract class FrameworkServlet extends HttpServletBean {\n    protected final Log logger = LogFactory.getLog(getClass());\n\n    protected void initStrategies(ServletContext context) {}\n}\n",
    ),
    (
        "HttpServletBean.java",
        "package org.springframework.web.servlet;\n\npublic abstract class HttpServletBean extends jakarta.servlet.http.HttpServlet {\n}\n",
    ),
    (
        "HandlerExecutionChain.java",
        "package org.springframework.web.servlet;\n\npublic class HandlerExecutionChain {\n    public Object getHandler() { return null; }\n}\n",
    ),
    ("HandlerAdapter.java", "package org.springframework.web.servlet;\n\npublic interface HandlerAdapter {\n}\n"),
    (
        "../util/WebUtils.java",
        r#"package org.springframework.web.util;

import jakarta.servlet.http.HttpServletRequest;

public abstract class WebUtils {
    public static String quote(String s) { return s; }

    static int find(Object key, int from) { return 0; }

    static int find(Object key, String from) { return 1; }

    static void use(HttpServletRequest r) {
        find(r.getAttribute("one-fits"), 0);
        find(r.getAttribute("both-fit"), r.getAttribute("from"));
    }
}
"#,
    ),
];

fn setup() -> (tempfile::TempDir, Host) {
    common::indexed(PKG, FILES)
}

/// Each call reference of `target` as (its line's text, its confidence).
fn calls(ws: &Host, target: &str) -> Vec<(String, String)> {
    let r = mcp_java_index::tools::tool::find_references::run(
        ws,
        &FindReferencesArgs { target: target.into(), limit: 100, ..Default::default() },
    )
    .unwrap_or_else(|e| panic!("{target}: {e}"));
    let mut out: Vec<(String, String)> = r
        .files
        .iter()
        .flat_map(|f| f.references.iter())
        .filter(|x| x.kind == "call")
        .map(|x| (x.text.clone(), format!("{:?}", x.confidence).to_lowercase()))
        .collect();
    out.sort();
    out
}

fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = v.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
    out.sort();
    out
}

const DS: &str = "org.springframework.web.servlet.DispatcherServlet";

/// A class's own only method of that name, called plainly, on `this` or `Outer.this`, from an
/// anonymous class and from an inner class whose supertype is unseen: exact, whatever the
/// argument is.
#[test]
fn own_methods_are_exact_in_a_class_whose_supertype_is_unseen() {
    let (_d, ws) = setup();
    assert_eq!(
        calls(&ws, &format!("{DS}#getHandlerAdapter")),
        pairs(&[
            ("HandlerAdapter ha = getHandlerAdapter(mappedHandler.getHandler());", "exact"),
            ("HandlerAdapter hb = getHandlerAdapter(request.getAttribute(\"handler\"));", "exact"),
            ("HandlerAdapter hc = this.getHandlerAdapter(request.getAttribute(\"this\"));", "exact"),
            (
                "Object f(HttpServletRequest r) throws Exception { return getHandlerAdapter(r.getAttribute(\"anon\")); }",
                "exact"
            ),
            (
                "Object run(HttpServletRequest r) throws Exception { return getHandlerAdapter(r.getAttribute(\"inner\")); }",
                "exact"
            ),
            (
                "Object outer(HttpServletRequest r) throws Exception { return DispatcherServlet.this.getHandlerAdapter(r); }",
                "exact"
            ),
        ])
    );
    assert_eq!(
        calls(&ws, &format!("{DS}#getHandler")),
        pairs(&[("HandlerExecutionChain mappedHandler = getHandler(request);", "exact")])
    );
}

/// Inherited from a workspace superclass, statically imported: exact.
#[test]
fn inherited_and_statically_imported_methods_are_exact() {
    let (_d, ws) = setup();
    assert_eq!(
        calls(&ws, "org.springframework.web.servlet.FrameworkServlet#initStrategies"),
        pairs(&[("initStrategies(getServletContext());", "exact")])
    );
    assert_eq!(
        calls(&ws, "org.springframework.web.util.WebUtils#quote"),
        pairs(&[("String q = quote(request.getRequestURI());", "exact")])
    );
}

/// Overloads: exact when the typed arguments rule every other one out (`render(?, 200)` can
/// only be `render(Locale,int)`), likely when an untyped argument could pick either.
#[test]
fn an_overload_is_exact_only_when_the_others_are_ruled_out() {
    let (_d, ws) = setup();
    assert_eq!(
        calls(&ws, &format!("{DS}#render")),
        pairs(&[
            ("render(request.getLocale(), 200);", "exact"),
            ("render(request.getLocale(), logger.getName());", "likely"),
        ])
    );
    assert_eq!(
        calls(&ws, "org.springframework.web.util.WebUtils#find"),
        pairs(&[
            ("find(r.getAttribute(\"one-fits\"), 0);", "exact"),
            ("find(r.getAttribute(\"both-fit\"), r.getAttribute(\"from\"));", "likely"),
        ])
    );
}

/// Where the unseen supertype declares the name — a method marked `@Override` overrides one of
/// its methods, so it may have overloads (the servlet API's `service` has two): likely.
#[test]
fn a_name_the_unseen_supertype_declares_stays_likely() {
    let (_d, ws) = setup();
    assert_eq!(calls(&ws, &format!("{DS}#service")), pairs(&[("service(request, response);", "likely")]));
}

/// A single target's count (`countOnly`) says how many of its references are `likely`, as the
/// counts of several targets do: "2 Java references … (1 exact, 1 likely)".
#[test]
fn a_single_targets_count_shows_the_exact_likely_split() {
    let (_d, ws) = setup();
    let args = FindReferencesArgs { target: format!("{DS}#render"), count_only: true, ..Default::default() };
    let r = mcp_java_index::tools::tool::find_references::run(&ws, &args).expect("count");
    assert_eq!((r.page.total, r.likely), (2, 1));
    let m = serde_json::json!({"target": format!("{DS}#render"), "countOnly": true});
    let serde_json::Value::Object(m) = m else { unreachable!() };
    let text = mcp_java_index::tools::registry::dispatch(&ws, "find_references", m).expect("count").text();
    assert!(text.contains("2 Java references to"), "{text}");
    assert!(text.contains("(1 exact, 1 likely)"), "{text}");
}

/// An unbound receiver's call is guessed (`likely`) among the workspace's methods of that name
/// only when the receiver could be a workspace type: a lambda's parameter given by a library
/// method called on a `List<String>` or a `Map<String, List<String>>` is a `String` or a
/// `List` (javac binds `String#isEmpty()`, `List#isEmpty()`), and so is a missing library's
/// `ImmutableList<String>`'s element (issue 53 item 5: 202 references of which 5 were exact).
/// A `List<Bag>`'s is a `Bag`: `forEach(Consumer<? super T>)`, `removeIf(Predicate<? super E>)`
/// and `map(Function<? super T, …>)` of the JDK give their lambda's parameter the type the
/// wildcard's bound names (the JDK table kept only `Object` for `? super X`: those calls were
/// `likely`, and a rename left them unchanged — two of 20 seeded renames on a real project
/// broke its build).
#[test]
fn a_receiver_that_mentions_no_workspace_type_is_not_guessed_a_workspace_type() {
    let files: &[(&str, &str)] = &[
        ("Bag.java", "package p;\n\npublic class Bag {\n    public boolean isEmpty() { return true; }\n}\n"),
        (
            "Use.java",
            r#"package p;

import com.google.common.collect.ImmutableList;
import java.util.*;

public class Use {
    Map<String, List<String>> map = new HashMap<>();
    ImmutableList<String> names;

    void use(List<String> list, List<Bag> bags, Bag bag) {
        list.forEach(e -> e.isEmpty());
        map.forEach((k, v) -> v.isEmpty());
        boolean b = names.get(0).isEmpty();
        bags.forEach(x -> x.isEmpty());
        bags.removeIf(y -> y.isEmpty());
        long n = bags.stream().filter(z -> z.isEmpty()).count();
        bag.isEmpty();
        names.forEach(n -> n.trim().isEmpty());
    }
}
"#,
        ),
    ];
    let (_d, ws) = common::indexed("p", files);
    assert_eq!(
        calls(&ws, "p.Bag#isEmpty()"),
        pairs(&[
            ("bag.isEmpty();", "exact"),
            ("bags.forEach(x -> x.isEmpty());", "exact"),
            ("bags.removeIf(y -> y.isEmpty());", "exact"),
            ("long n = bags.stream().filter(z -> z.isEmpty()).count();", "exact"),
        ])
    );
}

/// A diamond anonymous class takes its type arguments from its target (JLS 15.9.3): passed to a
/// method's `Adapter<String>` parameter or assigned to an `Adapter<Integer>` variable, its
/// methods override `Adapter`'s exactly, as they do in a declaration or a `return` (issue 53
/// item 5: they were `likely`).
#[test]
fn a_diamond_anonymous_class_overrides_exactly_as_its_target_types_it() {
    let files: &[(&str, &str)] = &[
        (
            "Adapter.java",
            "package p;\n\npublic abstract class Adapter<T> {\n    public abstract T read(String in);\n    public abstract void write(StringBuilder out, T value);\n}\n",
        ),
        (
            "Reg.java",
            r#"package p;

public class Reg {
    static void register(Adapter<String> a) {}

    void use() {
        register(new Adapter<>() {
            @Override public String read(String in) { return in; }
            @Override public void write(StringBuilder out, String value) { }
        });
        Adapter<Integer> x;
        x = new Adapter<>() {
            @Override public Integer read(String in) { return 1; }
            @Override public void write(StringBuilder out, Integer value) { }
        };
    }
}
"#,
        ),
    ];
    let (_d, ws) = common::indexed("p", files);
    let r = mcp_java_index::tools::tool::find_references::run(
        &ws,
        &FindReferencesArgs {
            target: "p.Adapter#write".into(),
            include_overriders: true,
            limit: 100,
            ..Default::default()
        },
    )
    .expect("refs");
    let overrides: Vec<(u32, String)> = r
        .files
        .iter()
        .flat_map(|f| f.references.iter())
        .filter(|x| x.kind == "override")
        .map(|x| (x.line, format!("{:?}", x.confidence).to_lowercase()))
        .collect();
    assert_eq!(overrides, [(9, "exact".to_string()), (14, "exact".to_string())]);
    // The call taking it is still bound exactly.
    assert_eq!(calls(&ws, "p.Reg#register"), pairs(&[("register(new Adapter<>() {", "exact")]));
}
