//! One file per tool: each implements [`crate::registry::Tool`] and is declared once, by one
//! line in the `tools!` list below, which both declares its module and registers it.

/// Declares each tool's module and builds [`TOOLS`] from the same line, so adding a tool is
/// its file plus one line here (`file::Type,`), and a file cannot be compiled unregistered.
macro_rules! tools {
    ($($file:ident :: $tool:ident),* $(,)?) => {
        $(pub mod $file;)*

        /// Every tool, in the order `tools/list` shows them.
        pub(crate) const TOOLS: &[fn() -> crate::registry::ToolEntry] =
            &[$(crate::registry::entry::<$file::$tool>),*];
    };
}

tools! {
    java_index::JavaIndex,
    java_read_range::JavaReadRange,
    java_read_javadoc::JavaReadJavadoc,
    java_find_symbol::JavaFindSymbol,
    find_type::FindType,
    find_resource::FindResource,
    find_references::FindReferences,
    call_hierarchy::CallHierarchy,
    affected_tests::AffectedTests,
    type_hierarchy::TypeHierarchy,
    find_implementations::FindImplementations,
    analyze_type_dependencies::AnalyzeTypeDependencies,
    show_definition::ShowDefinition,
    export_scip::ExportScip,
    get_problems::GetProblems,
    refactor_actions::RefactorActions,
    source_actions::SourceActions,
    open_file::OpenFile,
    goto_location::GotoLocation,
    reload_buffer::ReloadBuffer,
    run_elisp::RunElisp,
    run_tests::RunTests,
    get_test_results::GetTestResults,
    maven_goal::MavenGoal,
    maven_update_project::MavenUpdateProject,
    gradle_task::GradleTask,
}
