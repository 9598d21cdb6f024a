//! The workspace side of the core: roots and the path policy, and finding files under them.

pub mod roots;
pub mod walk;
