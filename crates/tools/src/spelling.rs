//! One spelling per idea across every tool (issue 32, item 9): a test walks each tool's input
//! and output schema and fails on a second spelling of an idea the tools share, so an agent
//! never guesses whether this tool says `file_path`, `paths` or `filePath`.

#[cfg(test)]
mod tests {
    use serde_json::{Map, Value};

    use crate::registry::registry;

    /// Each shared idea: its one spelling, and the spellings it must not have anywhere.
    const IDEAS: &[(&str, &[&str])] = &[
        ("filePath", &["file_path", "filepath", "file", "path", "filename", "fileName", "sourceFile"]),
        ("limit", &["maxResults", "max_results", "maxItems", "pageSize", "page_size", "max"]),
        ("offset", &["skip", "page", "startIndex"]),
        ("root", &["rootDir", "root_dir", "rootPath", "workspace"]),
        ("query", &["pattern", "q", "search"]),
    ];

    /// The paging words of an answer: `truncated` and `nextOffset` (and `total`), never these.
    const ANSWER_PAGING: &[&str] =
        &["has_more", "hasMore", "next_offset", "total_count", "totalCount", "more", "nextPage"];

    /// Every property name in `schema` (nested objects, lists, unions and `$defs` included), with
    /// its path; `$ref`s point into `$defs`, which are walked once each.
    fn names(schema: &Map<String, Value>) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let root = Value::Object(schema.clone());
        let mut owned: Vec<(String, &Value, usize)> = vec![(String::new(), &root, 0)];
        while let Some((path, v, depth)) = owned.pop() {
            assert!(depth < 16, "schema nests deeper than 16 at {path}");
            let Some(o) = v.as_object() else { continue };
            if let Some(props) = o.get("properties").and_then(Value::as_object) {
                for (k, sub) in props {
                    let p = if path.is_empty() { k.clone() } else { format!("{path}.{k}") };
                    out.push((p.clone(), k.clone()));
                    owned.push((p, sub, depth + 1));
                }
            }
            for key in ["items", "additionalProperties"] {
                if let Some(sub) = o.get(key) {
                    owned.push((path.clone(), sub, depth + 1));
                }
            }
            for key in ["anyOf", "oneOf", "allOf"] {
                for sub in o.get(key).and_then(Value::as_array).into_iter().flatten() {
                    owned.push((path.clone(), sub, depth + 1));
                }
            }
            for (name, sub) in o.get("$defs").and_then(Value::as_object).into_iter().flatten() {
                owned.push((format!("{path}<{name}>"), sub, depth + 1));
            }
        }
        out
    }

    #[test]
    fn every_tool_spells_each_idea_one_way() {
        let mut wrong = Vec::new();
        for e in registry() {
            let tool = e.spec.name;
            let inputs = names(&e.spec.input_schema);
            for (path, name) in &inputs {
                if name.contains('_') {
                    wrong.push(format!("{tool} input `{path}`: camelCase, not snake_case"));
                }
                if name == "options" {
                    wrong.push(format!("{tool} input `{path}`: options are flat, beside the other arguments"));
                }
                for (one, others) in IDEAS {
                    if others.contains(&name.as_str()) {
                        wrong.push(format!("{tool} input `{path}`: the idea is spelt `{one}`"));
                    }
                }
            }
            for (path, name) in names(&(e.full_output_schema)()) {
                if name.contains('_') {
                    wrong.push(format!("{tool} answer `{path}`: camelCase, not snake_case"));
                }
                if ANSWER_PAGING.contains(&name.as_str()) {
                    wrong.push(format!("{tool} answer `{path}`: paging is `truncated`/`nextOffset`/`total`"));
                }
            }
            let top = e.spec.input_schema.get("properties").and_then(Value::as_object);
            for (old, new) in e.aliases {
                if !top.is_some_and(|p| p.contains_key(*new)) {
                    wrong.push(format!("{tool} alias `{old}` → `{new}`: the tool has no `{new}`"));
                }
                if top.is_some_and(|p| p.contains_key(*old)) {
                    wrong.push(format!("{tool} alias `{old}`: still in the schema"));
                }
            }
        }
        assert!(wrong.is_empty(), "second spellings:\n{}", wrong.join("\n"));
    }
}
