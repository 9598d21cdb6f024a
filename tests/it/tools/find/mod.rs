//! `java_find_symbol` and `find_type` over the live workspace index.

mod workspace_exact;
mod workspace_index;
