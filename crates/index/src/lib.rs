//! The workspace side of the core: roots and the path policy, and finding files under them.

pub mod live;
pub mod matcher;
pub mod roots;
pub mod snapshot;
pub mod symbols;
pub mod walk;
