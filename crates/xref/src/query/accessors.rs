//! The members Lombok generates from a field (its getter, setter, `withX`, builder methods), as
//! the world's keys: what `find_references`' `includeAccessors` adds to a field's uses, and what
//! a rename of the field renames with it (`getName()` → `getFullName()`).
//!
//! The generator is the parser's ([`mji_parser::lombok::renamed_accessors`]), run on the field's
//! file as it is on disk, so a rename asks the same question Lombok answers when it compiles the
//! renamed source: which members would exist, under which names.

use mji_parser::lombok::{self, Role};
use tree_sitter::Node;

use crate::world::World;

/// One generated member of a field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accessor {
    /// Its key (`pkg.User#getName()`, `pkg.User.UserBuilder#name(java.lang.String)`).
    pub key: String,
    pub name: String,
    pub role: Role,
    /// Its name once the field is renamed as asked; None when Lombok would no longer generate it
    /// (a written member has that name, or a configured prefix no longer matches).
    pub new_name: Option<String>,
}

/// How deep type declarations are searched for the field's type (nested types).
const MAX_DEPTH: u32 = 64;

/// The members Lombok generates from the field `key` (`pkg.Type#field`), with their names after
/// a rename `to` (the same names without one). Empty for a field nothing is generated from;
/// an error when the key names no workspace field or its file cannot be read. `config` is the
/// `lombok.config` in effect for a file ([`crate::engine::XrefEngine::lombok_config`]): the
/// names follow its keys (`prefix`, `fluent`, `capitalization`, `noIsPrefix`) as the world's
/// generated members did.
pub fn lombok_accessors(
    w: &World,
    config: &dyn Fn(&std::path::Path) -> std::sync::Arc<lombok::Config>,
    key: &str,
    to: Option<&str>,
) -> Result<Vec<Accessor>, String> {
    let (owner, field) = key.split_once('#').ok_or_else(|| format!("{key} is not a field key"))?;
    let id =
        w.by_fqn(owner).filter(|id| w.is_workspace(*id)).ok_or_else(|| format!("{owner} is not a workspace type"))?;
    let d = w.decl(id);
    if !d.fields.iter().any(|f| &*f.name == field && !f.generated) {
        return Err(format!("{owner} declares no field {field}"));
    }
    // Nothing generated in the file (its types and their builders): no file read.
    let file = &w.files[w.file_of(id) as usize];
    if !file.decls().types.iter().any(|t| t.methods.iter().chain(&t.ctors).any(|m| m.generated)) {
        return Ok(Vec::new());
    }
    let path = &file.path;
    let bytes = mji_fs::read_regular(path, mji_fs::DEFAULT_MAX_FILE_BYTES)
        .map_err(|e| format!("reading {}: {e}", path.display()))?;
    let text = String::from_utf8_lossy(&bytes);
    let Some(tree) = mji_parser::parse_tree(&text) else {
        return Err(format!("{} could not be parsed", path.display()));
    };
    let root = tree.root_node();
    let Some(node) = type_node(root, text.as_bytes(), &d.simple, d.start_line, 0) else {
        return Ok(Vec::new());
    };
    let scope = lombok::Scope::of(root, text.as_bytes()).with_config(config(path));
    let renamed = lombok::renamed_accessors(&scope, node, text.as_bytes(), field, to.unwrap_or(field));
    let mut out = Vec::new();
    for r in renamed {
        let in_type = match &r.builder {
            None => Some(id),
            Some(b) => w.by_fqn(&format!("{}.{b}", d.fqn)),
        };
        let Some(tid) = in_type else { continue };
        let Some(m) =
            w.decl(tid).methods.iter().find(|m| m.generated && *m.name == *r.name && m.params.len() == r.arity)
        else {
            continue;
        };
        out.push(Accessor { key: w.method_key(tid, m), name: r.name, role: r.role, new_name: r.new_name });
    }
    Ok(out)
}

/// The declaration of the type named `simple` whose first line is `line`.
fn type_node<'t>(n: Node<'t>, src: &[u8], simple: &str, line: u32, depth: u32) -> Option<Node<'t>> {
    if depth > MAX_DEPTH {
        return None;
    }
    if mji_parser::kind::is_type_declaration(n.kind())
        && n.start_position().row as u32 + 1 == line
        && n.child_by_field_name("name").and_then(|x| x.utf8_text(src).ok()) == Some(simple)
    {
        return Some(n);
    }
    let mut c = n.walk();
    let kids: Vec<Node> = n.named_children(&mut c).collect();
    kids.into_iter().find_map(|k| type_node(k, src, simple, line, depth + 1))
}

/// How a reference through an accessor is shown: `getName()`, `Builder.name(…)`.
pub fn role_label(role: Role) -> &'static str {
    match role {
        Role::Getter => "getter",
        Role::Setter => "setter",
        Role::With => "with",
        Role::BuilderSetter => "builder",
        Role::SingularOne | Role::SingularAll | Role::SingularClear => "builder (@Singular)",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decls::file_decls;
    use std::path::Path;
    use std::sync::Arc;

    #[test]
    fn a_field_s_generated_members_are_found_by_key_with_their_new_names() {
        let dir = tempfile::tempdir().expect("tempdir");
        let src = "package p;\nimport lombok.*;\n@Getter @Setter @Builder\npublic class User {\n  private String name;\n  private int age;\n  public int getAge() { return age; }\n}\n";
        let path = dir.path().join("User.java");
        std::fs::write(&path, src).expect("write");
        let w = World::new(vec![(Arc::from(Path::new(&path)), Arc::new(file_decls(src.as_bytes())))]);
        let defaults = |_: &Path| lombok::config::default_config();
        let got = lombok_accessors(&w, &defaults, "p.User#name", Some("fullName")).expect("accessors");
        let pairs: Vec<(&str, Option<&str>)> = got.iter().map(|a| (a.key.as_str(), a.new_name.as_deref())).collect();
        assert_eq!(
            pairs,
            [
                ("p.User#getName()", Some("getFullName")),
                ("p.User#setName(java.lang.String)", Some("setFullName")),
                ("p.User.UserBuilder#name(java.lang.String)", Some("fullName")),
            ]
        );
        // `getAge()` is written: only the setter and the builder method are generated.
        let age: Vec<String> =
            lombok_accessors(&w, &defaults, "p.User#age", None).expect("age").into_iter().map(|a| a.key).collect();
        assert_eq!(age, ["p.User#setAge(int)", "p.User.UserBuilder#age(int)"]);
        assert!(lombok_accessors(&w, &defaults, "p.User#nope", None).is_err());
    }

    /// The names follow the file's `lombok.config` as its generated members did: with
    /// `lombok.accessors.prefix += m_` and `fluent`, the field `m_name`'s accessors are `name()`
    /// and `name(String)`, renamed to `fullName` for `m_fullName` (with the defaults the
    /// accessors would be `getM_name`, found in no world built under this configuration).
    #[test]
    fn the_accessors_follow_the_file_s_lombok_config() {
        let dir = tempfile::tempdir().expect("tempdir");
        let src = "package p;\nimport lombok.*;\n@Getter @Setter\npublic class User {\n  private String m_name;\n}\n";
        let path = dir.path().join("User.java");
        std::fs::write(&path, src).expect("write");
        let config =
            Arc::new(lombok::Config::of_texts(&["lombok.accessors.prefix += m_\nlombok.accessors.fluent = true\n"]));
        let decls = crate::decls::file_decls_with(src.as_bytes(), &config);
        let w = World::new(vec![(Arc::from(Path::new(&path)), Arc::new(decls))]);
        let configured = |_: &Path| config.clone();
        let got = lombok_accessors(&w, &configured, "p.User#m_name", Some("m_fullName")).expect("accessors");
        let pairs: Vec<(&str, Option<&str>)> = got.iter().map(|a| (a.key.as_str(), a.new_name.as_deref())).collect();
        assert_eq!(pairs, [("p.User#name()", Some("fullName")), ("p.User#name(java.lang.String)", Some("fullName"))]);
        let defaults = |_: &Path| lombok::config::default_config();
        assert!(lombok_accessors(&w, &defaults, "p.User#m_name", None).expect("defaults").is_empty());
    }
}
