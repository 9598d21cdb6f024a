//! `echo_root`: a throwaway tool (issue 31's measure of what adding a tool touches).

use crate::ToolError;
use crate::host::Host;
use crate::registry::Tool;

pub(crate) struct EchoRoot;

#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct EchoArgs {}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct EchoOut {
    pub root: String,
}

impl Tool for EchoRoot {
    const NAME: &'static str = "echo_root";
    const TITLE: &'static str = "Echo root";
    const DESCRIPTION: &'static str = "Says the first root.";

    type Args = EchoArgs;
    type Output = EchoOut;

    fn call(ws: &Host, _args: Self::Args) -> Result<Self::Output, ToolError> {
        Ok(EchoOut { root: ws.roots().paths()[0].display().to_string() })
    }
}
