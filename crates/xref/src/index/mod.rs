//! The reference index and what persists it: each bound file's references ([`refindex`]),
//! the store beside the cache ([`store`]) with its key table read in place ([`keypart`]), the
//! world's tables by name flat ([`flat`]) and each file's declarations decoded on first use
//! ([`lazy`]).

pub(crate) mod flat;
pub(crate) mod keypart;
pub mod lazy;
pub(crate) mod refindex;
pub(crate) mod store;
