//! `java_read_javadoc`: reads one symbol's javadoc by its symbolId.

use crate::ToolError;
use crate::registry::Tool;
use crate::workspace::Workspace;

pub(crate) struct JavaReadJavadoc;

impl Tool for JavaReadJavadoc {
    const NAME: &'static str = "java_read_javadoc";
    const TITLE: &'static str = "Read a symbol's javadoc";
    const DESCRIPTION: &'static str =
        "Read one symbol's javadoc by its java_index symbolId: what it does, without reading its body.";

    type Args = crate::workspace::ReadJavadocArgs;
    type Output = crate::read_javadoc::JavadocResult;

    fn call(ws: &Workspace, args: Self::Args) -> Result<Self::Output, ToolError> {
        ws.java_read_javadoc(&args)
    }
}
