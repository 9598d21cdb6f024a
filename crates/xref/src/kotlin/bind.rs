//! The references of a Kotlin file's bodies (Kotlin → Java and Kotlin → Kotlin calls): none
//! yet; the file's declarations are in the world for Java's calls.

use crate::Ref;
use crate::world::World;

/// Every reference of the Kotlin file `file` of the world.
pub fn file_refs(_world: &World, _file: u32, _bytes: &[u8]) -> Vec<Ref> {
    Vec::new()
}
