//! Quick fix "create class" from a use javac cannot resolve (`cannot find symbol … class Foo`,
//! or `variable Foo` before a call): a new file `Foo.java` beside the using file, in its
//! package, with what the use needs — the constructor `new Foo(a, b)` calls, the static method
//! `Foo.bar(a)` calls (its return type from the call's context), or nothing for a type use
//! (`Foo x`). Argument types come from the caller (the binder's types of the arguments).

use std::path::PathBuf;

use mji_parser::kind;
use tree_sitter::Node;

use crate::Doc;

/// A class file to create: where, and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewClass {
    pub path: PathBuf,
    /// How answers name it (beside the using file's display name).
    pub display: String,
    pub text: String,
}

/// The qualified types a new file names, written by simple name with their imports (a second
/// type of one simple name stays qualified).
#[derive(Default)]
struct Imports {
    by_simple: std::collections::BTreeMap<String, String>,
}

impl Imports {
    fn spell(&mut self, ty: &str) -> String {
        map_names(ty, |word, out| {
            if let Some((pkg, simple)) = word.rsplit_once('.') {
                let known = self.by_simple.entry(simple.to_owned()).or_insert_with(|| word.to_owned());
                if *known == *word {
                    out.push_str(simple);
                    if pkg == "java.lang" {
                        self.by_simple.insert(simple.to_owned(), word.to_owned());
                    }
                } else {
                    out.push_str(word);
                }
            } else {
                out.push_str(word);
            }
        })
    }

    fn lines(&self, own_package: &str, eol: &str) -> String {
        let mut v: Vec<&String> = self
            .by_simple
            .values()
            .filter(|q| {
                let pkg = q.rsplit_once('.').map_or("", |x| x.0);
                pkg != "java.lang" && pkg != own_package
            })
            .collect();
        v.sort();
        v.iter().map(|q| format!("import {q};{eol}")).collect()
    }
}

/// Plans the class `name` a use at byte `at` of `doc` needs; `type_of(start, end)` is the
/// qualified type of the argument expression at those bytes (`None`: unknown, refused).
pub fn create_class(
    doc: &Doc,
    at: usize,
    name: &str,
    type_of: &dyn Fn(usize, usize) -> Option<String>,
) -> Result<NewClass, String> {
    if !crate::is_identifier(name) || !name.starts_with(char::is_uppercase) {
        return Err(format!("`{name}` is not a class name"));
    }
    let text = doc.text();
    let bytes = text.as_bytes();
    let tree = mji_parser::parse_tree(text).ok_or("the file could not be parsed")?;
    let root = tree.root_node();
    let n = root.descendant_for_byte_range(at, at).ok_or("no code at the position")?;
    if !matches!(n.kind(), kind::IDENTIFIER | kind::TYPE_IDENTIFIER) || n.utf8_text(bytes) != Ok(name) {
        return Err(format!("`{name}` is not at the position"));
    }
    let dir = doc.path.parent().ok_or("the file has no directory")?;
    let path = dir.join(format!("{name}.java"));
    if path.exists() {
        return Err(format!("{name}.java already exists beside it"));
    }
    let display = match doc.display.rsplit_once('/') {
        Some((d, _)) => format!("{d}/{name}.java"),
        None => format!("{name}.java"),
    };
    let mut c = root.walk();
    let package = root
        .children(&mut c)
        .find(|p| p.kind() == kind::PACKAGE_DECLARATION)
        .and_then(|p| p.utf8_text(bytes).ok())
        .map(|t| t.trim_start_matches("package").trim_end_matches(';').split_whitespace().collect::<String>())
        .unwrap_or_default();
    let eol = doc.eol();
    let unit = "    ";
    let mut imports = Imports::default();
    let params = |args: Option<Node>, imports: &mut Imports| -> Result<(String, String), String> {
        let Some(args) = args else { return Ok((String::new(), String::new())) };
        let mut c = args.walk();
        let mut out = Vec::new();
        let mut taken = std::collections::HashSet::new();
        let mut types = Vec::new();
        for (i, a) in args.named_children(&mut c).filter(|a| !a.kind().ends_with("comment")).enumerate() {
            let src = a.utf8_text(bytes).unwrap_or("");
            let ty = type_of(a.start_byte(), a.end_byte())
                .ok_or_else(|| format!("the type of the argument `{src}` is unknown"))?;
            let own = (a.kind() == kind::IDENTIFIER).then(|| src.to_owned());
            let pname = match own {
                Some(o) if !taken.contains(&o) => o,
                _ => (i + 1..).map(|k| format!("p{k}")).find(|p| !taken.contains(p)).unwrap_or_default(),
            };
            taken.insert(pname.clone());
            out.push(format!("{} {pname}", imports.spell(&ty)));
            types.push(ty);
        }
        Ok((out.join(", "), types.join(",")))
    };
    // Every use of the file gives the class a member: the constructors `new Foo(…)` calls and
    // the static methods `Foo.m(…)` calls (one per signature); the use at `at` must be one of
    // them or a type use, and a use that cannot be typed is refused only there.
    let mut members: Vec<(String, String)> = Vec::new();
    let mut refusal: Option<String> = None;
    let mut fits = n.kind() == kind::TYPE_IDENTIFIER
        && n.parent().is_none_or(|p| !matches!(p.kind(), kind::GENERIC_TYPE | kind::OBJECT_CREATION_EXPRESSION));
    crate::rename::walk(root, &mut |u| {
        let named = |x: Option<Node>| x.is_some_and(|x| x.utf8_text(bytes) == Ok(name));
        let member = match u.kind() {
            kind::OBJECT_CREATION_EXPRESSION if named(u.child_by_field_name("type")) => {
                if u.child_by_field_name("object").is_some() || u.child_by_field_name("body").is_some() {
                    Err("an inner class instance or an anonymous class is not created".to_owned())
                } else {
                    params(u.child_by_field_name("arguments"), &mut imports).map(|(p, types)| {
                        (format!("<init>({types})"), format!("{eol}{unit}public {name}({p}) {{{eol}{unit}}}{eol}"))
                    })
                }
            }
            kind::METHOD_INVOCATION
                if named(u.child_by_field_name("object"))
                    && u.child_by_field_name("object").is_some_and(|o| o.kind() == kind::IDENTIFIER) =>
            {
                let method = u.child_by_field_name("name").and_then(|m| m.utf8_text(bytes).ok()).unwrap_or("");
                let ret = crate::fixes::expected_type(u, bytes)
                    .map(|r| qualify_by_imports(&r.split_whitespace().collect::<Vec<_>>().join(" "), doc));
                match (ret, u.child_by_field_name("type_arguments")) {
                    (_, Some(_)) => Err("the call gives type arguments".to_owned()),
                    (Err(e), _) => Err(e),
                    (Ok(ret), None) => params(u.child_by_field_name("arguments"), &mut imports).map(|(p, types)| {
                        let ret = imports.spell(&ret);
                        (
                            format!("{method}({types})"),
                            format!(
                                "{eol}{unit}public static {ret} {method}({p}) {{{eol}{unit}{unit}throw new UnsupportedOperationException(\"not implemented\");{eol}{unit}}}{eol}"
                            ),
                        )
                    }),
                }
            }
            _ => return,
        };
        let here = u.start_byte() <= at
            && at < u.end_byte()
            && (u.child_by_field_name("type").is_some_and(|t| t.start_byte() <= at && at < t.end_byte())
                || u.child_by_field_name("object").is_some_and(|t| t.start_byte() <= at && at < t.end_byte()));
        match member {
            Ok((key, text)) => {
                fits |= here;
                if !members.iter().any(|(k, _)| *k == key) {
                    members.push((key, text));
                }
            }
            Err(e) if here => refusal = Some(e),
            Err(_) => {}
        }
    });
    if let Some(e) = refusal {
        return Err(e);
    }
    if !fits {
        return Err("only `new Foo(…)`, `Foo.method(…)` and a type use create a class".into());
    }
    let body: String = members.into_iter().map(|(_, t)| t).collect();
    let head = if package.is_empty() { String::new() } else { format!("package {package};{eol}{eol}") };
    let imports = imports.lines(&package, eol);
    let imports = if imports.is_empty() { imports } else { format!("{imports}{eol}") };
    let text = format!("{head}{imports}public class {name} {{{body}}}{eol}");
    Ok(NewClass { path, display, text })
}

/// `ty` with each simple name the file imports by a single-type import replaced by the
/// qualified name (so the new file imports it too).
fn qualify_by_imports(ty: &str, doc: &Doc) -> String {
    let text = doc.text();
    let imported: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("import ")?.strip_suffix(';'))
        .filter(|l| !l.starts_with("static ") && !l.ends_with('*'))
        .map(str::trim)
        .collect();
    map_names(ty, |word, out| match imported.iter().find(|q| q.rsplit('.').next() == Some(word)) {
        Some(q) if !word.contains('.') => out.push_str(q),
        _ => out.push_str(word),
    })
}

/// `ty` with each (possibly qualified) name written by `name` into the output, everything
/// between names kept as it is.
fn map_names(ty: &str, mut name: impl FnMut(&str, &mut String)) -> String {
    let mut out = String::new();
    let mut word = String::new();
    for ch in ty.chars() {
        if ch.is_alphanumeric() || ch == '_' || ch == '.' {
            word.push(ch);
        } else {
            name(&word, &mut out);
            word.clear();
            out.push(ch);
        }
    }
    name(&word, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn a_class_from_new_a_static_call_or_a_type_use() {
        let src = "package p;\n\nimport java.util.List;\n\nclass A {\n    void f(List<String> xs) {\n        Foo foo = new Foo(1, xs);\n        List<String> ys = Bar.make(xs, \"s\");\n        Baz baz = null;\n    }\n}\n";
        let doc = Doc::new(Path::new("/nowhere/p/A.java"), "p/A.java", src.as_bytes().to_vec()).expect("utf-8");
        let ty = |s: usize, e: usize| match &src[s..e] {
            "1" => Some("int".to_owned()),
            "xs" => Some("java.util.List<java.lang.String>".to_owned()),
            "\"s\"" => Some("java.lang.String".to_owned()),
            _ => None,
        };
        let at = |needle: &str| src.find(needle).expect("present");
        let foo = create_class(&doc, at("Foo(1"), "Foo", &ty).expect("foo");
        assert_eq!(foo.display, "p/Foo.java");
        assert_eq!(
            foo.text,
            "package p;\n\nimport java.util.List;\n\npublic class Foo {\n    public Foo(int p1, List<String> xs) {\n    }\n}\n"
        );
        let bar = create_class(&doc, at("Bar"), "Bar", &ty).expect("bar");
        assert!(
            bar.text.contains("    public static List<String> make(List<String> xs, String p2) {\n"),
            "{}",
            bar.text
        );
        let baz = create_class(&doc, at("Baz"), "Baz", &ty).expect("baz");
        assert_eq!(baz.text, "package p;\n\npublic class Baz {}\n");
        assert!(create_class(&doc, at("foo ="), "foo", &ty).is_err());
    }
}
