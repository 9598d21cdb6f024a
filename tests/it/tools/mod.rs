//! One folder or file per tool family, as in crates/tools/src: `java_index` (the outline, its
//! parser and cache), `reading` (java_read_range, java_read_javadoc), `find` (java_find_symbol,
//! find_type over the live index), `xref` (find_references, analyze_type_dependencies,
//! show_definition), `problems`, `build` (run_tests, maven_goal, gradle_task, ...), `edit`
//! (refactor_actions, source_actions), `editor` and `libraries` (jars, the JDK, decompiling).

mod after_apply;
mod answers;
mod build;
mod calls;
mod convert_lambda;
mod create_class;
mod edit;
mod editor;
mod extract_duplicates;
mod extract_types;
mod find;
mod java_index;
mod kotlin;
mod libraries;
mod lombok;
mod lombok_delegate;
pub(crate) mod lombok_oracle;
mod move_member;
mod problems;
mod quick_fix;
mod reading;
mod refactor;
mod refactor_maven;
mod refactor_method;
mod rename_joined;
mod scip;
mod signature;
mod spelling;
mod xref;
