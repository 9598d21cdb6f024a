//! The tool catalog: each tool's name, title, description, input and output JSON Schemas
//! (generated from the Rust types) and annotations, declared once for every shell.

use schemars::JsonSchema;
use serde_json::{Map, Value};

use crate::model::FileOutline;
use crate::tools::find::{
    FindResourceArgs, FindResourceResult, FindSymbolArgs, FindSymbolResult, FindTypeArgs, FindTypeResult,
};
use crate::tools::problems::{ProblemsArgs, ProblemsResult};
use crate::tools::read_javadoc::JavadocResult;
use crate::tools::read_range::RangeResult;
use crate::tools::workspace::{JavaIndexArgs, ReadJavadocArgs, ReadRangeArgs};
use crate::tools::xref::{
    DependenciesArgs, DependenciesResult, FindReferencesArgs, FindReferencesResult, ShowDefinitionArgs,
    ShowDefinitionResult,
};

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
}

/// An input JSON Schema for `T`: subschemas inlined (some clients do not follow `$ref`),
/// integer `format`s and the `$schema`/`title` noise removed.
pub fn schema_of<T: JsonSchema>() -> Map<String, Value> {
    generate::<T>(true)
}

/// An output JSON Schema for `T`: shared parts stay in `$defs` (the outline repeats the same
/// shapes many times; inlined it would cost the client several thousand tokens).
pub fn output_schema_of<T: JsonSchema>() -> Map<String, Value> {
    generate::<T>(false)
}

fn generate<T: JsonSchema>(inline: bool) -> Map<String, Value> {
    let settings = schemars::generate::SchemaSettings::draft2020_12().with(|s| s.inline_subschemas = inline);
    let schema = settings.into_generator().into_root_schema_for::<T>();
    let mut v = schema.to_value();
    tidy(&mut v, true);
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
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
            for (_, child) in m.iter_mut() {
                tidy(child, false);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| tidy(x, false)),
        _ => {}
    }
}

const JAVA_INDEX: &str = "Outline of one Java file: every class, interface, enum, record and annotation type with its fields, constructors, methods, enum constants, record components and nested types, each with exact 1-based startLine/endLine (annotations included, javadoc excluded), signatureText, modifiers, annotations, and javadoc location. Call this FIRST instead of reading a Java file: then read only what you need with java_read_javadoc or java_read_range. Local and anonymous classes are not listed. Answers come from a content-hash cache when the file is unchanged. Broken code still gives an outline plus `errors`. Example: {\"filePath\": \"src/main/java/com/foo/Bar.java\", \"options\": {\"includePrivate\": false, \"maxJavadocPreviewChars\": 120}}";

const READ_RANGE: &str = "Read lines startLine..endLine (1-based, inclusive) of a file in the workspace, with `N: ` line prefixes by default. Use it to read one method body after java_index gave its lines. Output is capped by options.maxChars (default 20000): a longer read stops at a line boundary with truncated=true and nextStartLine to continue from; endLine past the end of the file is clamped (said in `note`). Example: {\"filePath\": \"src/main/java/com/foo/Bar.java\", \"startLine\": 70, \"endLine\": 120}";

const READ_JAVADOC: &str = "Read only the javadoc block of one symbol, by the symbolId java_index returned. Cheaper than reading the method to learn what it does. If the code moved since java_index (stale line numbers in the id), the symbol is re-found by kind and signature and resolvedSymbolId gives its current id. found=false with empty content when the symbol has no javadoc or does not exist (see `note`). Example: {\"filePath\": \"src/main/java/com/foo/Bar.java\", \"symbolId\": \"Method#com.foo.Bar#doThing(int,String):Result|start:70|end:120\"}";

const FIND_SYMBOL: &str = "Find types, methods, constructors and fields by name across the workspace (or under rootDir), from a live index kept fresh as files change. Ranked: exact name, then prefix, then camelCase initials (`gSV` finds getSomeValue), then substring; `Bar#doThing` or `com.foo.Bar` match qualified names. Each result has filePath, symbolId (for java_read_javadoc), qualifiedName, startLine/endLine (for java_read_range) and signatureText. Paged: total, truncated, nextOffset (pass it as options.offset). index.complete is false while the first indexing pass is still running. Example: {\"rootDir\": \".\", \"query\": \"doThing\", \"options\": {\"matchKind\": \"method\", \"maxResults\": 20}}";

const FIND_TYPE: &str = "The IDE's Open Type: find classes, interfaces, enums, records and annotation types by simple name or prefix (`HashM`), camelCase initials (`NPE` finds NullPointerException, `HMap` HashMap), wildcards (`*Map`, `Abstract?ist`) or package-qualified pattern (`java.util.*Map`). Each result: fqn, kind, filePath, lines, modifiers, first sentence of its javadoc, symbolId. Paged with offset/nextOffset. Example: {\"pattern\": \"NPE\"} or {\"pattern\": \"com.acme.*Service\", \"kind\": \"interface\"}";

const FIND_RESOURCE: &str = "The IDE's Open Resource: find any workspace file (Java or not: pom.xml, .properties, resources) by name or prefix, camelCase (`AJI`), glob (`*.properties`), or path glob containing `/` (`src/main/resources/*.xml`). Results: filePath, size, modified. Build output, .git and ignored files are not indexed. Paged with offset/nextOffset. Example: {\"pattern\": \"pom.xml\"}";

const FIND_REFERENCES: &str = "Who uses this? Every reference in the workspace to a type, method (overload-aware), constructor or field, bound as javac binds names (imports, scopes, receiver types, inheritance, overloads) without compiling. Target: `target` (`com.foo.Bar`, `com.foo.Bar#doThing(int,String)`, `com.foo.Bar#Bar(int)` constructor, `com.foo.Bar#count` field; no parentheses = every overload), or `symbolId`, or `filePath`+`line`(+`column`) of any occurrence. Each reference: line, column, kind (import, extends, implements, type, new, call, field-read, field-write, annotation, method-ref, this-call, super-call), confidence (`exact`, or `likely` when the receiver's type could not be known) and the line's text. A call on a subclass that overrides the method binds to the override: includeOverriders adds those, marked. Paged (limit/offset, total, truncated, nextOffset); `paths` globs restrict files; `targets`+`countOnly` counts many targets at once. Example: {\"target\": \"com.foo.Bar#doThing(int,String)\", \"limit\": 50}";

const DEPENDENCIES: &str = "What does this type depend on? Every type referenced anywhere in a type's declaration (`type` qualified name, or `filePath` for its top-level types), resolved to qualified names with origin (workspace, jdk, library, unresolved), reference count and lines, grouped by package. `excludedPackages` patterns (`java.sql`, `com.foo.internal.*`) flag forbidden dependencies in `violations`. `transitive: true` follows workspace dependencies up to maxDepth and reports dependency cycles. Example: {\"type\": \"com.foo.OrderService\", \"excludedPackages\": [\"com.foo.legacy.*\"], \"transitive\": true}";

const SHOW_DEFINITION: &str = "Where is this defined? A name (`Bar`, `doThing`, `Bar.doThing`, `com.foo.Bar#count`) to its definition(s): file, startLine/endLine (for java_read_range), signature, javadoc summary, symbolId. With `filePath`+`line` of a use, the name there is resolved exactly (imports, scopes, receiver types); otherwise candidates are ranked by the file's imports and package. Example: {\"symbol\": \"doThing\", \"filePath\": \"src/main/java/com/foo/App.java\", \"line\": 42}";
const GET_PROBLEMS: &str = "Compile errors and warnings of Java files, as an IDE's Problems view, without an IDE. Two sources: `syntax` (our parser: missing tokens, unexpected text, unclosed braces and literals; instant) and `javac` (the JDK's compiler run with the project's source roots and Maven classpath, kept warm between calls: type errors, unresolved symbols, deprecation/unchecked/rawtypes warnings). Call it after editing code. Each diagnostic: file, line, column, severity (Error|Warning|Information|Hint), source, code (javac's key such as compiler.err.cant.resolve.location), message, range. Errors come first; filter with severity_filter, line_range, source_filter; page with limit/offset (has_more). Per file: analysed (no diagnostics = clean), syntax-only, skipped or timed-out (with reason). A whole-project check that outlasts the time budget answers complete=false and finishes in the background: call again. javac.classpath_complete=false marks an unsure classpath; problems with cause=missing-dependency may be due to it. Example: {\"paths\": [\"src/main/java/com/foo/Bar.java\"], \"severity_filter\": [\"Error\"], \"limit\": 20}";

/// Every tool, in the order `tools/list` shows them.
pub fn catalog() -> Vec<ToolSpec> {
    let read_only = |name, title, description, input_schema, output_schema| ToolSpec {
        name,
        title,
        description,
        input_schema,
        output_schema,
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: false,
    };
    vec![
        read_only(
            "java_index",
            "Outline a Java file",
            JAVA_INDEX,
            schema_of::<JavaIndexArgs>(),
            output_schema_of::<FileOutline>(),
        ),
        read_only(
            "java_read_range",
            "Read lines of a file",
            READ_RANGE,
            schema_of::<ReadRangeArgs>(),
            output_schema_of::<RangeResult>(),
        ),
        read_only(
            "java_read_javadoc",
            "Read a symbol's javadoc",
            READ_JAVADOC,
            schema_of::<ReadJavadocArgs>(),
            output_schema_of::<JavadocResult>(),
        ),
        read_only(
            "java_find_symbol",
            "Find symbols by name",
            FIND_SYMBOL,
            schema_of::<FindSymbolArgs>(),
            output_schema_of::<FindSymbolResult>(),
        ),
        read_only(
            "find_type",
            "Open type",
            FIND_TYPE,
            schema_of::<FindTypeArgs>(),
            output_schema_of::<FindTypeResult>(),
        ),
        read_only(
            "find_resource",
            "Open resource",
            FIND_RESOURCE,
            schema_of::<FindResourceArgs>(),
            output_schema_of::<FindResourceResult>(),
        ),
        read_only(
            "find_references",
            "Find references",
            FIND_REFERENCES,
            schema_of::<FindReferencesArgs>(),
            output_schema_of::<FindReferencesResult>(),
        ),
        read_only(
            "analyze_type_dependencies",
            "Analyze type dependencies",
            DEPENDENCIES,
            schema_of::<DependenciesArgs>(),
            output_schema_of::<DependenciesResult>(),
        ),
        read_only(
            "show_definition",
            "Show definition",
            SHOW_DEFINITION,
            schema_of::<ShowDefinitionArgs>(),
            output_schema_of::<ShowDefinitionResult>(),
        ),
        read_only(
            "get_problems",
            "Get compile problems",
            GET_PROBLEMS,
            schema_of::<ProblemsArgs>(),
            output_schema_of::<ProblemsResult>(),
        ),
    ]
}
