//! The questions the tools ask of the world and the reference index: what a name targets
//! ([`target`]), call and type hierarchies ([`calls`], [`hierarchy`]; a Kotlin call's caller, [`kotlin`]), a type's dependencies
//! ([`deps`]), definitions ([`definition`]), renames and changed signatures ([`rename`], with a Lombok field's generated members, [`accessors`],
//! [`signature`]) and a target's name in non-Java files ([`textual`]). Re-exported at the
//! crate's root (`mji_xref::target`).

pub mod accessors;
pub mod calls;
pub mod definition;
pub mod deps;
pub mod hierarchy;
pub(crate) mod kotlin;
pub mod rename;
pub mod signature;
pub mod target;
pub mod textual;
