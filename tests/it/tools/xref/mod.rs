//! The reference tools (`find_references`, `analyze_type_dependencies`, `show_definition`):
//! their answers, targets as a user names them, confidence, and bindings kept through edits.

mod confidence;
mod hierarchy;
mod incremental;
mod queries;
mod targets;
