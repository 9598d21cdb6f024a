//! `java_read_javadoc`: reads one symbol's javadoc by its symbolId.

use crate::ToolError;
use crate::registry::Tool;
use crate::workspace::Workspace;

pub(crate) struct JavaReadJavadoc;

impl Tool for JavaReadJavadoc {
    const NAME: &'static str = "java_read_javadoc";
    const TITLE: &'static str = "Read a symbol's javadoc";
    const DESCRIPTION: &'static str = "Read only the javadoc block of one symbol, by the symbolId java_index returned. Cheaper than reading the method to learn what it does. If the code moved since java_index (stale line numbers in the id), the symbol is re-found by kind and signature and resolvedSymbolId gives its current id. found=false with empty content when the symbol has no javadoc or does not exist (see `note`). Example: {\"filePath\": \"src/main/java/com/foo/Bar.java\", \"symbolId\": \"Method#com.foo.Bar#doThing(int,String):Result|start:70|end:120\"}";

    type Args = crate::workspace::ReadJavadocArgs;
    type Output = crate::read_javadoc::JavadocResult;

    fn call(ws: &Workspace, args: Self::Args) -> Result<Self::Output, ToolError> {
        ws.java_read_javadoc(&args)
    }
}
