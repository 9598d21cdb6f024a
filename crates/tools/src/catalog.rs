//! Tool metadata as the shells need it: [`ToolSpec`] and the JSON Schemas generated from the
//! argument and result types. The tools themselves are declared in [`crate::registry`].

use std::sync::OnceLock;

use schemars::JsonSchema;
use serde_json::{Map, Value};

/// One tool's metadata.
#[derive(Debug)]
pub struct ToolSpec {
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    pub input_schema: Schema,
    pub output_schema: Schema,
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
    pub open_world: bool,
    /// The group the `tools` setting selects it by.
    pub group: &'static str,
}

/// A JSON Schema generated on first use and kept: a command that calls one tool (the CLI's
/// start, issue 38) does not generate every tool's schemas to find it. Reads as the schema's
/// map (`Deref`); `.clone()` gives the map.
pub struct Schema {
    make: fn() -> Map<String, Value>,
    made: OnceLock<Map<String, Value>>,
}

impl Schema {
    pub(crate) const fn new(make: fn() -> Map<String, Value>) -> Self {
        Schema { make, made: OnceLock::new() }
    }
}

impl std::ops::Deref for Schema {
    type Target = Map<String, Value>;

    fn deref(&self) -> &Map<String, Value> {
        self.made.get_or_init(self.make)
    }
}

impl std::fmt::Debug for Schema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

/// An input JSON Schema for `T`: subschemas inlined (some clients do not follow `$ref`),
/// integer `format`s and the `$schema`/`title` noise removed.
pub(crate) fn schema_of<T: JsonSchema>() -> Map<String, Value> {
    generate::<T>(true)
}

/// An output JSON Schema for `T`: an object with its required fields (see [`shallow`]).
pub(crate) fn output_schema_of<T: JsonSchema>() -> Map<String, Value> {
    generate::<T>(false)
}

/// The whole output schema of `T`, nested shapes in `$defs` (what [`output_schema_of`] leaves
/// out of `tools/list`).
#[cfg(test)]
pub(crate) fn full_output_schema_of<T: JsonSchema>() -> Map<String, Value> {
    let settings = schemars::generate::SchemaSettings::draft2020_12();
    match settings.into_generator().into_root_schema_for::<T>().to_value() {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

fn generate<T: JsonSchema>(inline: bool) -> Map<String, Value> {
    let settings = schemars::generate::SchemaSettings::draft2020_12().with(|s| s.inline_subschemas = inline);
    let schema = settings.into_generator().into_root_schema_for::<T>();
    let mut v = schema.to_value();
    tidy(&mut v, true);
    if inline {
        tighten_input(&mut v);
    } else {
        v = shallow(&v);
    }
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

/// An output schema as `tools/list` sends it: an object and the fields it always has. Every
/// answer validates against it (the contract test checks each call); every field, and the
/// nested shapes, are documented in `docs/tools/`. Listing the optional fields and the types
/// cost about 1,500 tokens of the 6,000 `tools/list` may cost before any work (issues 14 and
/// 33), and a model never reads them to call a tool. A property listed without a type would
/// be a schema that accepts anything, which strict linters (the MCP Inspector's) flag.
fn shallow(full: &Value) -> Value {
    let mut out = Map::new();
    out.insert("type".to_owned(), Value::from("object"));
    if let Some(req) = full.get("required") {
        out.insert("required".to_owned(), req.clone());
    }
    Value::Object(out)
}

/// An input schema made as small as it can be without losing what a model needs: no
/// descriptions of objects and list items (the tool's description and the properties say
/// it), no `default` object or empty list repeating what absence means, no `minimum: 0` on
/// counts and lines (a negative one is refused with a message anyway), and a choice of
/// strings as a plain `enum`.
fn tighten_input(v: &mut Value) {
    #[derive(Clone, Copy, PartialEq)]
    enum At {
        /// The arguments object.
        Root,
        Schema,
        /// A list's item schema.
        Item,
        /// A map of property names to schemas.
        Names,
    }
    let mut stack = vec![(v, At::Root)];
    while let Some((v, at)) = stack.pop() {
        match v {
            Value::Object(m) => {
                if at == At::Names {
                    stack.extend(m.values_mut().map(|x| (x, At::Schema)));
                    continue;
                }
                if at == At::Item || m.contains_key("properties") {
                    m.remove("description");
                }
                // Arguments are checked when parsed (unknown ones refused, naming them); saying
                // so in every nested object costs tokens. The arguments object says it for every
                // tool: the registry refuses a name the schema lacks (`registry::normalize`),
                // flattened options included, which serde alone cannot.
                if at != At::Root && m.get("additionalProperties") == Some(&Value::Bool(false)) {
                    m.remove("additionalProperties");
                }
                if at == At::Root {
                    m.insert("additionalProperties".to_owned(), Value::Bool(false));
                }
                if m.get("default").is_some_and(says_nothing) {
                    m.remove("default");
                }
                if m.get("minimum").is_some_and(|x| x == 0) {
                    m.remove("minimum");
                }
                if let Some(Value::Array(values)) = m.get_mut("enum") {
                    values.retain(|x| !x.is_null());
                }
                let choices: Option<Vec<Value>> = m.get("oneOf").and_then(Value::as_array).and_then(|alts| {
                    let mut out = Vec::new();
                    for a in alts {
                        match (a.get("const"), a.get("enum").and_then(Value::as_array)) {
                            (Some(c @ Value::String(_)), _) => out.push(c.clone()),
                            (None, Some(e)) if e.iter().all(Value::is_string) => out.extend(e.iter().cloned()),
                            _ => return None,
                        }
                    }
                    Some(out)
                });
                if let Some(values) = choices {
                    m.remove("oneOf");
                    m.insert("type".to_owned(), Value::from("string"));
                    m.insert("enum".to_owned(), Value::Array(values));
                }
                stack.extend(m.iter_mut().map(|(k, x)| {
                    let at = match k.as_str() {
                        "properties" | "$defs" => At::Names,
                        "items" => At::Item,
                        _ => At::Schema,
                    };
                    (x, at)
                }));
            }
            Value::Array(a) => stack.extend(a.iter_mut().map(|x| (x, at))),
            _ => {}
        }
    }
}

/// A `default` that only says what leaving the argument out obviously means (false, 0, an
/// empty list or string) or repeats its fields' own defaults (an object).
fn says_nothing(d: &Value) -> bool {
    match d {
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_u64() == Some(0),
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(_) => true,
        Value::Null => true,
    }
}

fn tidy(v: &mut Value, root: bool) {
    match v {
        Value::Object(m) => {
            if root {
                m.remove("$schema");
                m.remove("title");
            }
            let integer = m
                .get("type")
                .is_some_and(|t| t == "integer" || t.as_array().is_some_and(|a| a.iter().any(|x| x == "integer")));
            if integer {
                m.remove("format");
            }
            drop_null(m);
            for (_, child) in m.iter_mut() {
                tidy(child, false);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| tidy(x, false)),
        _ => {}
    }
}

/// Removes `null` from a schema's accepted types: answers omit absent values instead of
/// sending `null` (the field is simply not `required`), and arguments may be omitted too, so
/// neither needs the nullable forms (`type: [X, "null"]`, `anyOf: [X, {type: null}]`) that
/// strict schema linters warn about. Arguments given as `null` are still accepted.
fn drop_null(m: &mut Map<String, Value>) {
    if let Some(Value::Array(types)) = m.get_mut("type") {
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let only = types.remove(0);
            m.insert("type".to_owned(), only);
        }
    }
    let is_null = |v: &Value| v.get("type").is_some_and(|t| t == "null");
    if let Some(Value::Array(alts)) = m.get_mut("anyOf") {
        alts.retain(|a| !is_null(a));
        if alts.len() == 1 {
            let only = alts.remove(0);
            m.remove("anyOf");
            if let Value::Object(inner) = only {
                for (k, v) in inner {
                    m.entry(k).or_insert(v);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    static MADE: AtomicUsize = AtomicUsize::new(0);

    fn counted() -> Map<String, Value> {
        MADE.fetch_add(1, Ordering::SeqCst);
        let mut m = Map::new();
        m.insert("type".to_owned(), Value::from("object"));
        m
    }

    /// A schema is generated when first read, and once.
    #[test]
    fn schemas_are_made_on_first_use_once() {
        let s = Schema::new(counted);
        assert_eq!(MADE.load(Ordering::SeqCst), 0);
        assert_eq!(s.get("type"), Some(&Value::from("object")));
        assert_eq!(s.clone().len(), 1);
        assert_eq!(MADE.load(Ordering::SeqCst), 1);
    }
}
