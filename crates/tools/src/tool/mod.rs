//! One file per tool: each implements [`crate::registry::Tool`] and is listed once in
//! [`crate::registry`].

pub mod analyze_type_dependencies;
pub mod find_references;
pub mod find_resource;
pub mod find_type;
pub mod get_problems;
pub mod java_find_symbol;
pub mod java_index;
pub mod java_read_javadoc;
pub mod java_read_range;
pub mod show_definition;
