//! The node kinds of tree-sitter-java's grammar, as constants: the one place a kind is spelled.
//! Every crate that walks a syntax tree compares `node.kind()` with these
//! (`tests/it/invariants/architecture.rs` fails on a kind written as a string literal outside
//! this crate). Generated from the grammar's `node-types.json`, which `every_named_kind_is_here`
//! checks this list against.

pub const ANNOTATED_TYPE: &str = "annotated_type";
pub const ANNOTATION: &str = "annotation";
pub const ANNOTATION_ARGUMENT_LIST: &str = "annotation_argument_list";
pub const ANNOTATION_TYPE_BODY: &str = "annotation_type_body";
pub const ANNOTATION_TYPE_DECLARATION: &str = "annotation_type_declaration";
pub const ANNOTATION_TYPE_ELEMENT_DECLARATION: &str = "annotation_type_element_declaration";
pub const ARGUMENT_LIST: &str = "argument_list";
pub const ARRAY_ACCESS: &str = "array_access";
pub const ARRAY_CREATION_EXPRESSION: &str = "array_creation_expression";
pub const ARRAY_INITIALIZER: &str = "array_initializer";
pub const ARRAY_TYPE: &str = "array_type";
pub const ASSERT_STATEMENT: &str = "assert_statement";
pub const ASSIGNMENT_EXPRESSION: &str = "assignment_expression";
pub const ASTERISK: &str = "asterisk";
pub const BINARY_EXPRESSION: &str = "binary_expression";
pub const BINARY_INTEGER_LITERAL: &str = "binary_integer_literal";
pub const BLOCK: &str = "block";
pub const BLOCK_COMMENT: &str = "block_comment";
pub const BOOLEAN_TYPE: &str = "boolean_type";
pub const BREAK_STATEMENT: &str = "break_statement";
pub const CAST_EXPRESSION: &str = "cast_expression";
pub const CATCH_CLAUSE: &str = "catch_clause";
pub const CATCH_FORMAL_PARAMETER: &str = "catch_formal_parameter";
pub const CATCH_TYPE: &str = "catch_type";
pub const CHARACTER_LITERAL: &str = "character_literal";
pub const CLASS_BODY: &str = "class_body";
pub const CLASS_DECLARATION: &str = "class_declaration";
pub const CLASS_LITERAL: &str = "class_literal";
pub const COMPACT_CONSTRUCTOR_DECLARATION: &str = "compact_constructor_declaration";
pub const CONSTANT_DECLARATION: &str = "constant_declaration";
pub const CONSTRUCTOR_BODY: &str = "constructor_body";
pub const CONSTRUCTOR_DECLARATION: &str = "constructor_declaration";
pub const CONTINUE_STATEMENT: &str = "continue_statement";
pub const DECIMAL_FLOATING_POINT_LITERAL: &str = "decimal_floating_point_literal";
pub const DECIMAL_INTEGER_LITERAL: &str = "decimal_integer_literal";
pub const DECLARATION: &str = "declaration";
pub const DIMENSIONS: &str = "dimensions";
pub const DIMENSIONS_EXPR: &str = "dimensions_expr";
pub const DO_STATEMENT: &str = "do_statement";
pub const ELEMENT_VALUE_ARRAY_INITIALIZER: &str = "element_value_array_initializer";
pub const ELEMENT_VALUE_PAIR: &str = "element_value_pair";
pub const ENHANCED_FOR_STATEMENT: &str = "enhanced_for_statement";
pub const ENUM_BODY: &str = "enum_body";
pub const ENUM_BODY_DECLARATIONS: &str = "enum_body_declarations";
pub const ENUM_CONSTANT: &str = "enum_constant";
pub const ENUM_DECLARATION: &str = "enum_declaration";
pub const ESCAPE_SEQUENCE: &str = "escape_sequence";
pub const EXPLICIT_CONSTRUCTOR_INVOCATION: &str = "explicit_constructor_invocation";
pub const EXPORTS_MODULE_DIRECTIVE: &str = "exports_module_directive";
pub const EXPRESSION: &str = "expression";
pub const EXPRESSION_STATEMENT: &str = "expression_statement";
pub const EXTENDS_INTERFACES: &str = "extends_interfaces";
pub const FALSE: &str = "false";
pub const FIELD_ACCESS: &str = "field_access";
pub const FIELD_DECLARATION: &str = "field_declaration";
pub const FINALLY_CLAUSE: &str = "finally_clause";
pub const FLOATING_POINT_TYPE: &str = "floating_point_type";
pub const FOR_STATEMENT: &str = "for_statement";
pub const FORMAL_PARAMETER: &str = "formal_parameter";
pub const FORMAL_PARAMETERS: &str = "formal_parameters";
pub const GENERIC_TYPE: &str = "generic_type";
pub const GUARD: &str = "guard";
pub const HEX_FLOATING_POINT_LITERAL: &str = "hex_floating_point_literal";
pub const HEX_INTEGER_LITERAL: &str = "hex_integer_literal";
pub const IDENTIFIER: &str = "identifier";
pub const IF_STATEMENT: &str = "if_statement";
pub const IMPORT_DECLARATION: &str = "import_declaration";
pub const INFERRED_PARAMETERS: &str = "inferred_parameters";
pub const INSTANCEOF_EXPRESSION: &str = "instanceof_expression";
pub const INTEGRAL_TYPE: &str = "integral_type";
pub const INTERFACE_BODY: &str = "interface_body";
pub const INTERFACE_DECLARATION: &str = "interface_declaration";
pub const LABELED_STATEMENT: &str = "labeled_statement";
pub const LAMBDA_EXPRESSION: &str = "lambda_expression";
pub const LINE_COMMENT: &str = "line_comment";
pub const LOCAL_VARIABLE_DECLARATION: &str = "local_variable_declaration";
pub const MARKER_ANNOTATION: &str = "marker_annotation";
pub const METHOD_DECLARATION: &str = "method_declaration";
pub const METHOD_INVOCATION: &str = "method_invocation";
pub const METHOD_REFERENCE: &str = "method_reference";
pub const MODIFIERS: &str = "modifiers";
pub const MODULE_BODY: &str = "module_body";
pub const MODULE_DECLARATION: &str = "module_declaration";
pub const MODULE_DIRECTIVE: &str = "module_directive";
pub const MULTILINE_STRING_FRAGMENT: &str = "multiline_string_fragment";
pub const NULL_LITERAL: &str = "null_literal";
pub const OBJECT_CREATION_EXPRESSION: &str = "object_creation_expression";
pub const OCTAL_INTEGER_LITERAL: &str = "octal_integer_literal";
pub const OPENS_MODULE_DIRECTIVE: &str = "opens_module_directive";
pub const PACKAGE_DECLARATION: &str = "package_declaration";
pub const PARENTHESIZED_EXPRESSION: &str = "parenthesized_expression";
pub const PATTERN: &str = "pattern";
pub const PERMITS: &str = "permits";
pub const PRIMARY_EXPRESSION: &str = "primary_expression";
pub const PROGRAM: &str = "program";
pub const PROVIDES_MODULE_DIRECTIVE: &str = "provides_module_directive";
pub const RECEIVER_PARAMETER: &str = "receiver_parameter";
pub const RECORD_DECLARATION: &str = "record_declaration";
pub const RECORD_PATTERN: &str = "record_pattern";
pub const RECORD_PATTERN_BODY: &str = "record_pattern_body";
pub const RECORD_PATTERN_COMPONENT: &str = "record_pattern_component";
pub const REQUIRES_MODIFIER: &str = "requires_modifier";
pub const REQUIRES_MODULE_DIRECTIVE: &str = "requires_module_directive";
pub const RESOURCE: &str = "resource";
pub const RESOURCE_SPECIFICATION: &str = "resource_specification";
pub const RETURN_STATEMENT: &str = "return_statement";
pub const SCOPED_IDENTIFIER: &str = "scoped_identifier";
pub const SCOPED_TYPE_IDENTIFIER: &str = "scoped_type_identifier";
pub const SPREAD_PARAMETER: &str = "spread_parameter";
pub const STATEMENT: &str = "statement";
pub const STATIC_INITIALIZER: &str = "static_initializer";
pub const STRING_FRAGMENT: &str = "string_fragment";
pub const STRING_INTERPOLATION: &str = "string_interpolation";
pub const STRING_LITERAL: &str = "string_literal";
pub const SUPER: &str = "super";
pub const SUPER_INTERFACES: &str = "super_interfaces";
pub const SUPERCLASS: &str = "superclass";
pub const SWITCH_BLOCK: &str = "switch_block";
pub const SWITCH_BLOCK_STATEMENT_GROUP: &str = "switch_block_statement_group";
pub const SWITCH_EXPRESSION: &str = "switch_expression";
pub const SWITCH_LABEL: &str = "switch_label";
pub const SWITCH_RULE: &str = "switch_rule";
pub const SYNCHRONIZED_STATEMENT: &str = "synchronized_statement";
pub const TEMPLATE_EXPRESSION: &str = "template_expression";
pub const TERNARY_EXPRESSION: &str = "ternary_expression";
pub const THIS: &str = "this";
pub const THROW_STATEMENT: &str = "throw_statement";
pub const THROWS: &str = "throws";
pub const TRUE: &str = "true";
pub const TRY_STATEMENT: &str = "try_statement";
pub const TRY_WITH_RESOURCES_STATEMENT: &str = "try_with_resources_statement";
pub const TYPE_ARGUMENTS: &str = "type_arguments";
pub const TYPE_BOUND: &str = "type_bound";
pub const TYPE_IDENTIFIER: &str = "type_identifier";
pub const TYPE_LIST: &str = "type_list";
pub const TYPE_PARAMETER: &str = "type_parameter";
pub const TYPE_PARAMETERS: &str = "type_parameters";
pub const TYPE_PATTERN: &str = "type_pattern";
pub const UNARY_EXPRESSION: &str = "unary_expression";
pub const UNDERSCORE_PATTERN: &str = "underscore_pattern";
pub const UPDATE_EXPRESSION: &str = "update_expression";
pub const USES_MODULE_DIRECTIVE: &str = "uses_module_directive";
pub const VARIABLE_DECLARATOR: &str = "variable_declarator";
pub const VOID_TYPE: &str = "void_type";
pub const WHILE_STATEMENT: &str = "while_statement";
pub const WILDCARD: &str = "wildcard";
pub const YIELD_STATEMENT: &str = "yield_statement";

/// Whether a node of this kind declares a type: a class, interface, enum, record or annotation
/// type.
pub fn is_type_declaration(k: &str) -> bool {
    matches!(
        k,
        CLASS_DECLARATION | INTERFACE_DECLARATION | ENUM_DECLARATION | RECORD_DECLARATION | ANNOTATION_TYPE_DECLARATION
    )
}

/// Every named node kind of the grammar, sorted.
pub const ALL: &[&str] = &[
    ANNOTATED_TYPE,
    ANNOTATION,
    ANNOTATION_ARGUMENT_LIST,
    ANNOTATION_TYPE_BODY,
    ANNOTATION_TYPE_DECLARATION,
    ANNOTATION_TYPE_ELEMENT_DECLARATION,
    ARGUMENT_LIST,
    ARRAY_ACCESS,
    ARRAY_CREATION_EXPRESSION,
    ARRAY_INITIALIZER,
    ARRAY_TYPE,
    ASSERT_STATEMENT,
    ASSIGNMENT_EXPRESSION,
    ASTERISK,
    BINARY_EXPRESSION,
    BINARY_INTEGER_LITERAL,
    BLOCK,
    BLOCK_COMMENT,
    BOOLEAN_TYPE,
    BREAK_STATEMENT,
    CAST_EXPRESSION,
    CATCH_CLAUSE,
    CATCH_FORMAL_PARAMETER,
    CATCH_TYPE,
    CHARACTER_LITERAL,
    CLASS_BODY,
    CLASS_DECLARATION,
    CLASS_LITERAL,
    COMPACT_CONSTRUCTOR_DECLARATION,
    CONSTANT_DECLARATION,
    CONSTRUCTOR_BODY,
    CONSTRUCTOR_DECLARATION,
    CONTINUE_STATEMENT,
    DECIMAL_FLOATING_POINT_LITERAL,
    DECIMAL_INTEGER_LITERAL,
    DECLARATION,
    DIMENSIONS,
    DIMENSIONS_EXPR,
    DO_STATEMENT,
    ELEMENT_VALUE_ARRAY_INITIALIZER,
    ELEMENT_VALUE_PAIR,
    ENHANCED_FOR_STATEMENT,
    ENUM_BODY,
    ENUM_BODY_DECLARATIONS,
    ENUM_CONSTANT,
    ENUM_DECLARATION,
    ESCAPE_SEQUENCE,
    EXPLICIT_CONSTRUCTOR_INVOCATION,
    EXPORTS_MODULE_DIRECTIVE,
    EXPRESSION,
    EXPRESSION_STATEMENT,
    EXTENDS_INTERFACES,
    FALSE,
    FIELD_ACCESS,
    FIELD_DECLARATION,
    FINALLY_CLAUSE,
    FLOATING_POINT_TYPE,
    FOR_STATEMENT,
    FORMAL_PARAMETER,
    FORMAL_PARAMETERS,
    GENERIC_TYPE,
    GUARD,
    HEX_FLOATING_POINT_LITERAL,
    HEX_INTEGER_LITERAL,
    IDENTIFIER,
    IF_STATEMENT,
    IMPORT_DECLARATION,
    INFERRED_PARAMETERS,
    INSTANCEOF_EXPRESSION,
    INTEGRAL_TYPE,
    INTERFACE_BODY,
    INTERFACE_DECLARATION,
    LABELED_STATEMENT,
    LAMBDA_EXPRESSION,
    LINE_COMMENT,
    LOCAL_VARIABLE_DECLARATION,
    MARKER_ANNOTATION,
    METHOD_DECLARATION,
    METHOD_INVOCATION,
    METHOD_REFERENCE,
    MODIFIERS,
    MODULE_BODY,
    MODULE_DECLARATION,
    MODULE_DIRECTIVE,
    MULTILINE_STRING_FRAGMENT,
    NULL_LITERAL,
    OBJECT_CREATION_EXPRESSION,
    OCTAL_INTEGER_LITERAL,
    OPENS_MODULE_DIRECTIVE,
    PACKAGE_DECLARATION,
    PARENTHESIZED_EXPRESSION,
    PATTERN,
    PERMITS,
    PRIMARY_EXPRESSION,
    PROGRAM,
    PROVIDES_MODULE_DIRECTIVE,
    RECEIVER_PARAMETER,
    RECORD_DECLARATION,
    RECORD_PATTERN,
    RECORD_PATTERN_BODY,
    RECORD_PATTERN_COMPONENT,
    REQUIRES_MODIFIER,
    REQUIRES_MODULE_DIRECTIVE,
    RESOURCE,
    RESOURCE_SPECIFICATION,
    RETURN_STATEMENT,
    SCOPED_IDENTIFIER,
    SCOPED_TYPE_IDENTIFIER,
    SPREAD_PARAMETER,
    STATEMENT,
    STATIC_INITIALIZER,
    STRING_FRAGMENT,
    STRING_INTERPOLATION,
    STRING_LITERAL,
    SUPER,
    SUPER_INTERFACES,
    SUPERCLASS,
    SWITCH_BLOCK,
    SWITCH_BLOCK_STATEMENT_GROUP,
    SWITCH_EXPRESSION,
    SWITCH_LABEL,
    SWITCH_RULE,
    SYNCHRONIZED_STATEMENT,
    TEMPLATE_EXPRESSION,
    TERNARY_EXPRESSION,
    THIS,
    THROW_STATEMENT,
    THROWS,
    TRUE,
    TRY_STATEMENT,
    TRY_WITH_RESOURCES_STATEMENT,
    TYPE_ARGUMENTS,
    TYPE_BOUND,
    TYPE_IDENTIFIER,
    TYPE_LIST,
    TYPE_PARAMETER,
    TYPE_PARAMETERS,
    TYPE_PATTERN,
    UNARY_EXPRESSION,
    UNDERSCORE_PATTERN,
    UPDATE_EXPRESSION,
    USES_MODULE_DIRECTIVE,
    VARIABLE_DECLARATOR,
    VOID_TYPE,
    WHILE_STATEMENT,
    WILDCARD,
    YIELD_STATEMENT,
];

/// Whether the grammar has a node kind spelled `kind`, named (`method_declaration`, [`ALL`]) or
/// anonymous (`"="`, `"this"`, `"->"`), or tree-sitter's `ERROR`: what `node.kind()` can return.
/// The check that a string compared with a node's kind names one
/// (`tests/it/invariants/architecture.rs`) asks it.
pub fn in_grammar(kind: &str) -> bool {
    if kind == "ERROR" {
        return true;
    }
    static KINDS: std::sync::OnceLock<std::collections::HashSet<&'static str>> = std::sync::OnceLock::new();
    KINDS.get_or_init(|| node_kinds(tree_sitter_java::NODE_TYPES)).contains(kind)
}

/// The node kinds a grammar's `node-types.json` spells (its hidden `_` kinds left out).
pub(crate) fn node_kinds(node_types: &'static str) -> std::collections::HashSet<&'static str> {
    node_types
        .lines()
        .filter_map(|l| l.trim().strip_prefix("\"type\": \"")?.strip_suffix("\","))
        .filter(|t| !t.starts_with('_'))
        .collect()
}

#[cfg(test)]
mod tests {
    /// The named kinds the grammar's `node-types.json` lists (supertypes, `_`-prefixed, left
    /// out) are exactly [`super::ALL`].
    #[test]
    fn every_named_kind_is_here() {
        let lines: Vec<&str> = tree_sitter_java::NODE_TYPES.lines().map(str::trim).collect();
        let mut named: Vec<&str> = lines
            .windows(2)
            .filter(|w| w[1].starts_with("\"named\": true"))
            .filter_map(|w| w[0].strip_prefix("\"type\": \"")?.strip_suffix("\","))
            .filter(|t| !t.starts_with('_'))
            .collect();
        named.sort_unstable();
        named.dedup();
        assert_eq!(named, super::ALL);
    }

    /// Named and anonymous kinds are in the grammar; a statement kind other grammars have, a
    /// supertype and an empty name are not.
    #[test]
    fn in_grammar_knows_named_and_anonymous_kinds() {
        for k in [super::SWITCH_EXPRESSION, super::STRING_LITERAL, "=", "->", "this", "yield", "ERROR"] {
            assert!(super::in_grammar(k), "{k}");
        }
        for k in ["switch_statement", "text_block", "_expression", ""] {
            assert!(!super::in_grammar(k), "{k}");
        }
    }
}
