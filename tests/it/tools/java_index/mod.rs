//! `java_index`: every fixture's outline pinned, the parser's rules and Java that tree-sitter
//! misreads. (The outline cache's own tests are beside it: crates/cache/tests.)

mod fixtures;
mod parse_exact;
mod parser;
