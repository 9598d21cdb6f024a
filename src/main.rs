//! The `mcp-java-index` binary: hands the command line to [`mcp_java_index::cli`].

fn main() -> std::process::ExitCode {
    mcp_java_index::cli::main()
}
