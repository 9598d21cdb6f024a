//! `java_read_javadoc`: reads one symbol's javadoc by its symbolId.

use crate::ToolError;
use crate::registry::Tool;
use crate::read_javadoc::{JavadocResult, javadoc_of};
use crate::{io_error, require_java};
use crate::host::Host;

pub(crate) struct JavaReadJavadoc;

impl Tool for JavaReadJavadoc {
    const NAME: &'static str = "java_read_javadoc";
    const TITLE: &'static str = "Read a symbol's javadoc";
    const DESCRIPTION: &'static str =
        "Read one symbol's javadoc by its java_index symbolId: what it does, without reading its body.";

    type Args = crate::workspace::ReadJavadocArgs;
    type Output = crate::read_javadoc::JavadocResult;

    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError> {
        run(ws, &args)
    }
}

/// `java_read_javadoc`.
pub fn run(ws: &Host, args: &crate::workspace::ReadJavadocArgs) -> Result<JavadocResult, ToolError> {
    // A type's name (or a `Type#member` symbol) instead of the file.
    let (file_path, symbol) = crate::locate::file_and_symbol(ws, &args.file_path, args.symbol.as_deref())?;
    let args = &crate::workspace::ReadJavadocArgs { file_path, symbol, ..args.clone() };
    if let Some(crate::libraries::LibraryTarget::Jar { archive, entry }) = crate::libraries::target(&args.file_path)
    {
        let (bytes, shown) = crate::libraries::source_bytes(ws, &archive, &entry)?;
        let src = mji_parser::SourceText::decode(&bytes);
        let outline = mji_parser::outline_source(&shown, mji_classfile::sha1_hex(&bytes), &src);
        let id = args.id(&outline, &shown)?;
        return javadoc_of(&outline, &src, &shown, &id, &args.options);
    }
    let r = ws.resolve(&args.file_path)?;
    ws.check_file(&r.path, &r.display)?;
    require_java(&r.path, &r.display)?;
    if args.symbol.is_none() && args.symbol_id.trim().is_empty() {
        return Err(ToolError::InvalidArgument(
            "symbolId is empty; take one from java_index, or give symbol (a declaration's name)".to_owned(),
        ));
    }
    let (cached, src) =
        ws.cache(r.root).outline_with_source(&r.path, &r.display).map_err(|e| io_error(&r.display, e))?;
    let id = args.id(&cached.outline, &r.display)?;
    javadoc_of(&cached.outline, &src, &r.display, &id, &args.options)
}
