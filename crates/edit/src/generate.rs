//! Generated members (an IDE's Source menu): getters, setters, a constructor from fields,
//! `toString`, `equals` and `hashCode`, `serialVersionUID` (methods from other types:
//! [`crate::inherit`]). The code is written in the file's
//! own indentation and line endings; a member that already exists is not generated again and
//! the answer says so.

use mji_model::{FieldDecl, TypeDecl, TypeKind};

use crate::{Doc, TextEdit};

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Getters,
    Setters,
    GettersSetters,
    Constructor,
    ToString,
    EqualsHashCode,
    SerialVersionUid,
    OverrideMethods,
    ImplementMethods,
    Delegates,
}

/// Choices an IDE offers.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The fields to use; empty: the action's default (every instance field; a constructor:
    /// the final ones not initialized).
    pub fields: Vec<String>,
    /// Insert after this member (a field or method name); default: at the end of the type.
    pub after: Option<String>,
    /// `final` on generated parameters.
    pub final_params: bool,
    /// override_methods, implement_methods, delegates: the methods to write (names, or
    /// `name(Type, …)`); empty: every one (override_methods needs a choice).
    pub methods: Vec<String>,
}

/// The edits and what was not generated, and why.
#[derive(Debug, Default)]
pub struct Generated {
    pub edits: Vec<TextEdit>,
    pub members: Vec<String>,
    pub warnings: Vec<String>,
}

/// The generated members of `action` for `ty` (declared in `doc`).
pub fn generate(doc: &Doc, ty: &TypeDecl, action: Action, opts: &Options) -> Result<Generated, String> {
    if matches!(action, Action::OverrideMethods | Action::ImplementMethods | Action::Delegates) {
        return Err(format!("{action:?} takes the supertypes' declarations: see inherit::generate"));
    }
    let mut out = Generated::default();
    let style = Style::of(doc, ty);
    let fields = chosen_fields(doc, ty, action, opts)?;
    let has_method = |name: &str, params: usize| ty.methods.iter().any(|m| m.name == name && m.params.len() == params);
    let fin = if opts.final_params { "final " } else { "" };
    let mut members: Vec<(String, Vec<String>)> = Vec::new();
    if ty.kind == TypeKind::Record && matches!(action, Action::ToString | Action::EqualsHashCode | Action::Getters) {
        out.warnings.push(format!(
            "{} is a record: its accessors, toString, equals and hashCode are implicit; nothing generated",
            ty.name
        ));
        return Ok(out);
    }
    if ty.kind == TypeKind::Interface || ty.kind == TypeKind::Annotation {
        return Err(format!("{} is an interface: it has no fields to generate members from", ty.name));
    }
    let getters = matches!(action, Action::Getters | Action::GettersSetters);
    let setters = matches!(action, Action::Setters | Action::GettersSetters);
    for f in &fields {
        let st = if is_static(f) { "static " } else { "" };
        let owner = if is_static(f) { ty.name.clone() } else { "this".to_owned() };
        if getters {
            let prefix = if f.type_text == "boolean" { "is" } else { "get" };
            let name = format!("{prefix}{}", capitalize(&f.name));
            if has_method(&name, 0) {
                out.warnings.push(format!("{name}() already exists; not generated"));
            } else {
                members.push((
                    format!("{name}()"),
                    vec![
                        format!("public {st}{} {name}() {{", f.type_text),
                        format!("{}return {};", style.unit, f.name),
                        "}".into(),
                    ],
                ));
            }
        }
        if setters {
            let name = format!("set{}", capitalize(&f.name));
            if f.modifiers.iter().any(|m| m == "final") {
                out.warnings.push(format!("{} is final: no setter", f.name));
            } else if has_method(&name, 1) {
                out.warnings.push(format!("{name}(…) already exists; not generated"));
            } else {
                members.push((
                    format!("{name}({})", f.type_text),
                    vec![
                        format!("public {st}void {name}({fin}{} {}) {{", f.type_text, f.name),
                        format!("{}{owner}.{} = {};", style.unit, f.name, f.name),
                        "}".into(),
                    ],
                ));
            }
        }
    }
    match action {
        Action::Constructor => {
            let types: Vec<&str> = fields.iter().map(|f| f.type_text.as_str()).collect();
            if ty.constructors.iter().any(|c| c.params.iter().map(|p| p.type_text.as_str()).eq(types.iter().copied())) {
                out.warnings.push(format!(
                    "a constructor {}({}) already exists; not generated",
                    ty.name,
                    types.join(", ")
                ));
            } else {
                let params: Vec<String> = fields.iter().map(|f| format!("{fin}{} {}", f.type_text, f.name)).collect();
                let mut body = vec![format!("public {}({}) {{", ty.name, params.join(", "))];
                body.extend(fields.iter().map(|f| format!("{}this.{} = {};", style.unit, f.name, f.name)));
                body.push("}".into());
                members.push((format!("{}({})", ty.name, types.join(", ")), body));
            }
        }
        Action::ToString => {
            if has_method("toString", 0) {
                out.warnings.push("toString() already exists; not generated".into());
            } else {
                // "Point[x=" + x + ", y=" + y + "]", as a record prints itself.
                let mut expr = format!("\"{}[", ty.name);
                for (i, f) in fields.iter().enumerate() {
                    let sep = if i == 0 { "" } else { ", " };
                    let value = if f.type_text.ends_with("[]") {
                        format!("java.util.Arrays.toString({})", f.name)
                    } else {
                        f.name.clone()
                    };
                    expr.push_str(&format!("{sep}{}=\" + {value} + \"", f.name));
                }
                expr.push_str("]\"");
                members.push((
                    "toString()".into(),
                    vec![
                        "@Override".into(),
                        "public String toString() {".into(),
                        format!("{}return {expr};", style.unit),
                        "}".into(),
                    ],
                ));
            }
        }
        Action::EqualsHashCode => {
            if has_method("equals", 1) || has_method("hashCode", 0) {
                out.warnings.push("equals(Object) or hashCode() already exists; neither generated".into());
            } else {
                let u = &style.unit;
                let generic = ty.type_params_text.as_ref().map_or(String::new(), |_| "<?>".into());
                let mut eq = vec![
                    "@Override".to_owned(),
                    "public boolean equals(Object o) {".into(),
                    format!("{u}if (this == o) {{"),
                    format!("{u}{u}return true;"),
                    format!("{u}}}"),
                    format!("{u}if (o == null || getClass() != o.getClass()) {{"),
                    format!("{u}{u}return false;"),
                    format!("{u}}}"),
                ];
                if fields.is_empty() {
                    eq.push(format!("{u}return true;"));
                } else {
                    eq.push(format!("{u}{}{generic} other = ({}{generic}) o;", ty.name, ty.name));
                    let tests: Vec<String> = fields.iter().map(equality).collect();
                    eq.push(format!("{u}return {};", tests.join(" && ")));
                }
                eq.push("}".into());
                let (arrays, plain): (Vec<&FieldDecl>, Vec<&FieldDecl>) =
                    fields.iter().partition(|f| f.type_text.ends_with("[]"));
                let mut hash = format!(
                    "java.util.Objects.hash({})",
                    plain.iter().map(|f| f.name.as_str()).collect::<Vec<_>>().join(", ")
                );
                for a in arrays {
                    hash = format!("31 * {hash} + java.util.Arrays.hashCode({})", a.name);
                }
                members.push(("equals(Object)".into(), eq));
                members.push((
                    "hashCode()".into(),
                    vec![
                        "@Override".into(),
                        "public int hashCode() {".into(),
                        format!("{u}return {hash};"),
                        "}".into(),
                    ],
                ));
            }
        }
        Action::SerialVersionUid => {
            if ty.fields.iter().any(|f| f.name == "serialVersionUID") {
                out.warnings.push("serialVersionUID already exists; not generated".into());
            } else {
                members
                    .push(("serialVersionUID".into(), vec!["private static final long serialVersionUID = 1L;".into()]));
            }
        }
        _ => {}
    }
    if members.is_empty() {
        return Ok(out);
    }
    let eol = doc.eol();
    let mut text = member_text(&members, &style.member, eol);
    // `java.util.Objects.hash` reads as `Objects.hash` with an import, as an IDE writes it.
    let mut import: Option<TextEdit> = None;
    for q in ["java.util.Arrays", "java.util.Objects"] {
        let simple = &q["java.util.".len()..];
        if text.contains(&format!("{q}."))
            && let Ok(edit) = crate::imports::ensure_import(doc, q)
        {
            text = text.replace(&format!("{q}."), &format!("{simple}."));
            // Two imports at one place are one edit, one line each.
            match (&mut import, edit) {
                (Some(prev), Some(e)) if prev.start == e.start => {
                    prev.text.push_str(&format!("{eol}import {q};"));
                }
                (None, e) => import = e,
                (Some(_), Some(e)) => out.edits.push(e),
                (Some(_), None) => {}
            }
        }
    }
    out.edits.extend(import);
    let at = insertion_point(doc, ty, opts.after.as_deref())?;
    let text = match at {
        Insert::LineStart(_) => text,
        // `class A {}`: the body opens on its own line.
        Insert::BeforeBrace(_) => {
            text.push_str(&style.type_indent);
            text
        }
    };
    out.edits.push(TextEdit { start: at.offset(), end: at.offset(), text });
    out.members = members.into_iter().map(|(n, _)| n).collect();
    Ok(out)
}

fn is_static(f: &FieldDecl) -> bool {
    f.modifiers.iter().any(|m| m == "static")
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// `a == other.a`, `Double.compare(…) == 0`, `Objects.equals(…)`, `Arrays.equals(…)`.
fn equality(f: &FieldDecl) -> String {
    let n = &f.name;
    match f.type_text.as_str() {
        "int" | "long" | "short" | "byte" | "char" | "boolean" => format!("{n} == other.{n}"),
        "double" => format!("Double.compare({n}, other.{n}) == 0"),
        "float" => format!("Float.compare({n}, other.{n}) == 0"),
        t if t.ends_with("[]") => format!("java.util.Arrays.equals({n}, other.{n})"),
        _ => format!("java.util.Objects.equals({n}, other.{n})"),
    }
}

/// The fields an action uses: those named (each must exist), or its default.
fn chosen_fields(doc: &Doc, ty: &TypeDecl, action: Action, opts: &Options) -> Result<Vec<FieldDecl>, String> {
    if !opts.fields.is_empty() {
        let mut out = Vec::new();
        for name in &opts.fields {
            match ty.fields.iter().find(|f| &f.name == name) {
                Some(f) => out.push(f.clone()),
                None => {
                    let have: Vec<&str> = ty.fields.iter().map(|f| f.name.as_str()).collect();
                    return Err(format!("{} has no field {name}; its fields: {}", ty.name, have.join(", ")));
                }
            }
        }
        return Ok(out);
    }
    let instance = ty.fields.iter().filter(|f| !is_static(f));
    Ok(match action {
        Action::Constructor => {
            instance.filter(|f| f.modifiers.iter().any(|m| m == "final") && !initialized(doc, f)).cloned().collect()
        }
        Action::EqualsHashCode | Action::ToString => {
            instance.filter(|f| !f.modifiers.iter().any(|m| m == "transient")).cloned().collect()
        }
        _ => instance.cloned().collect(),
    })
}

/// Whether a field's declaration gives it a value (`= …` after its name).
fn initialized(doc: &Doc, f: &FieldDecl) -> bool {
    let (Some(s), Some(e)) =
        (line_start(doc, f.start_line), line_start(doc, f.end_line + 1).or(Some(doc.text().len())))
    else {
        return false;
    };
    let text = &doc.text()[s..e];
    text.find(&f.name).is_some_and(|i| text[i + f.name.len()..].trim_start().starts_with('='))
}

fn line_start(doc: &Doc, line: u32) -> Option<usize> {
    (line >= 1 && line <= doc.src.lines.line_count()).then(|| doc.src.lines.line_start(line))
}

/// Writes `members` (name, lines) into `ty` in the file's indentation and line endings, at
/// the end or after the member `after`: the members' names and the one insertion.
pub(crate) fn insert_members(
    doc: &Doc,
    ty: &TypeDecl,
    members: Vec<(String, Vec<String>)>,
    after: Option<&str>,
) -> Result<(Vec<String>, TextEdit), String> {
    let style = Style::of(doc, ty);
    let eol = doc.eol();
    let mut text = member_text(&members, &style.member, eol);
    let at = insertion_point(doc, ty, after)?;
    if let Insert::BeforeBrace(_) = at {
        text.push_str(&style.type_indent);
    }
    Ok((members.into_iter().map(|(n, _)| n).collect(), TextEdit { start: at.offset(), end: at.offset(), text }))
}

/// The file's indentation for the type's members.
/// Generated members as text: each after an empty line, every line at the member indentation.
fn member_text(members: &[(String, Vec<String>)], indent: &str, eol: &str) -> String {
    let mut text = String::new();
    for (_, lines) in members {
        text.push_str(eol);
        for l in lines {
            text.push_str(indent);
            text.push_str(l);
            text.push_str(eol);
        }
    }
    text
}

pub(crate) struct Style {
    /// A member's indentation.
    pub(crate) member: String,
    /// One level.
    pub(crate) unit: String,
    /// The type's own (its closing brace's).
    pub(crate) type_indent: String,
}

impl Style {
    pub(crate) fn of(doc: &Doc, ty: &TypeDecl) -> Style {
        let indent_of = |line: u32| -> Option<String> {
            let l = doc.src.lines.line_text(doc.text(), line);
            (!l.trim().is_empty()).then(|| l[..l.len() - l.trim_start().len()].to_owned())
        };
        let type_indent = indent_of(ty.end_line)
            .filter(|_| doc.src.lines.line_text(doc.text(), ty.end_line).trim_start().starts_with('}'))
            .unwrap_or_else(|| indent_of(ty.start_line).unwrap_or_default());
        let first_member = ty
            .fields
            .iter()
            .map(|f| f.start_line)
            .chain(ty.methods.iter().map(|m| m.start_line))
            .chain(ty.constructors.iter().map(|c| c.start_line))
            .filter(|l| *l > ty.start_line)
            .min();
        let tabs = doc.text().lines().any(|l| l.starts_with('\t'));
        let default_unit = if tabs { "\t".to_owned() } else { "    ".to_owned() };
        let member = first_member
            .and_then(indent_of)
            .filter(|m| m.len() > type_indent.len() && m.starts_with(&type_indent))
            .unwrap_or_else(|| format!("{type_indent}{default_unit}"));
        let unit = member[type_indent.len()..].to_owned();
        Style { member, unit: if unit.is_empty() { default_unit } else { unit }, type_indent }
    }
}

enum Insert {
    /// At the start of a line (the closing brace's, or the one after a member).
    LineStart(usize),
    /// Just before the closing brace, which shares its line with other code.
    BeforeBrace(usize),
}

impl Insert {
    fn offset(&self) -> usize {
        match self {
            Insert::LineStart(o) | Insert::BeforeBrace(o) => *o,
        }
    }
}

fn insertion_point(doc: &Doc, ty: &TypeDecl, after: Option<&str>) -> Result<Insert, String> {
    if let Some(name) = after {
        let end = ty
            .fields
            .iter()
            .filter(|f| f.name == name)
            .map(|f| f.end_line)
            .chain(ty.methods.iter().filter(|m| m.name == name).map(|m| m.end_line))
            .max()
            .ok_or_else(|| format!("{} has no field or method {name} to insert after", ty.name))?;
        return line_start(doc, end + 1)
            .map(Insert::LineStart)
            .ok_or_else(|| format!("line {} is past the file", end + 1));
    }
    let line = doc.src.lines.line_text(doc.text(), ty.end_line);
    let start = line_start(doc, ty.end_line).ok_or("the type's last line is past the file")?;
    let brace =
        line.rfind('}').ok_or_else(|| format!("the closing brace of {} is not on line {}", ty.name, ty.end_line))?;
    if line[..brace].trim().is_empty() { Ok(Insert::LineStart(start)) } else { Ok(Insert::BeforeBrace(start + brace)) }
}
