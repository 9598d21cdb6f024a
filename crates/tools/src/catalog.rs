//! Tool metadata as the shells need it: [`ToolSpec`] and the JSON Schemas generated from the
//! argument and result types. The tools themselves are declared in [`crate::registry`].

use schemars::JsonSchema;
use serde_json::{Map, Value};

/// One tool's metadata.
#[derive(Debug, Clone)]
pub struct ToolSpec {
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    pub input_schema: Map<String, Value>,
    pub output_schema: Map<String, Value>,
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
    pub open_world: bool,
    /// The group the `tools` setting selects it by.
    pub group: &'static str,
}

/// An input JSON Schema for `T`: subschemas inlined (some clients do not follow `$ref`),
/// integer `format`s and the `$schema`/`title` noise removed.
pub(crate) fn schema_of<T: JsonSchema>() -> Map<String, Value> {
    generate::<T>(true)
}

/// An output JSON Schema for `T`: shared parts stay in `$defs` (the outline repeats the same
/// shapes many times; inlined it would cost the client several thousand tokens).
pub(crate) fn output_schema_of<T: JsonSchema>() -> Map<String, Value> {
    generate::<T>(false)
}

fn generate<T: JsonSchema>(inline: bool) -> Map<String, Value> {
    let settings = schemars::generate::SchemaSettings::draft2020_12().with(|s| s.inline_subschemas = inline);
    let schema = settings.into_generator().into_root_schema_for::<T>();
    let mut v = schema.to_value();
    tidy(&mut v, true);
    if !inline {
        // An output schema is for programs that validate answers; its field docs and the
        // `minimum: 0` of every unsigned number would cost every client thousands of tokens
        // in `tools/list` (README's Tools section documents the fields).
        strip_descriptions(&mut v);
    }
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

fn strip_descriptions(v: &mut Value) {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(m) => {
                // `description` as a keyword, not a property named so.
                if m.get("description").is_some_and(Value::is_string) {
                    m.remove("description");
                }
                // Every count and line is unsigned; saying so 120 times costs ~500 tokens.
                if m.get("minimum").is_some_and(|x| x == 0) {
                    m.remove("minimum");
                }
                stack.extend(m.values_mut());
            }
            Value::Array(a) => stack.extend(a.iter_mut()),
            _ => {}
        }
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

/// Every tool's metadata, in the order `tools/list` shows them.
pub fn catalog() -> Vec<ToolSpec> {
    crate::registry::registry().iter().map(|e| e.spec.clone()).collect()
}
