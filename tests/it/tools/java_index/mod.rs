//! `java_index`: every fixture's outline pinned, the parser's rules, Java that tree-sitter
//! misreads, and the outline cache the tool answers from.

mod cache;
mod fixtures;
mod parse_exact;
mod parser;
