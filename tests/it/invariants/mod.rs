//! What holds everywhere: the crate graph, the paths and links of the documents (README,
//! ARCHITECTURE, docs/) and README's table of tools, safety on a hostile repository, the answer
//! budget, load limits, deep nesting, freshness, and the fuzz inputs replayed.

mod answer_budget;
mod architecture;
mod deep_nesting;
mod freshness;
mod fuzz_replay;
mod git_readonly;
mod hostile_links;
mod load_limits;
mod progress;
mod security;
