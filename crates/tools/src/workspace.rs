//! `Workspace`, the name the shells and tests know the host by.

/// The host (`crate::host::Host`), by the name the shells and tests use.
pub type Workspace = crate::host::Host;
