//! The workspace side of the core: the live symbol index over the roots ([`mji_fs::roots`],
//! listed by [`mji_fs::walk`]), kept current by the watcher, and its warm-start snapshot.

pub mod live;
pub mod matcher;
pub mod snapshot;
pub mod symbols;
