//! The workspace side of the core: finding the Java files under a set of roots.

pub mod walk;
