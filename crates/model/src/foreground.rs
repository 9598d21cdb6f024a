//! The foreground signal: how many tool calls are waiting or running, raised by the shell
//! around each call, which background work (the reference keeper's binding pass) checks
//! between files and yields to at once.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// Calls in the foreground, shared: clones count the same calls.
#[derive(Debug, Clone, Default)]
pub struct Foreground(Arc<AtomicUsize>);

/// A call in the foreground, from [`Foreground::enter`] until dropped.
#[derive(Debug)]
#[must_use = "the call counts as in the foreground only while this is held"]
pub struct Entered(Arc<AtomicUsize>);

impl Drop for Entered {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// How often a yielded background pass looks again whether the foreground is quiet.
const POLL: Duration = Duration::from_millis(5);

impl Foreground {
    pub fn new() -> Foreground {
        Foreground::default()
    }

    /// Counts a call in the foreground until the returned guard drops.
    pub fn enter(&self) -> Entered {
        self.0.fetch_add(1, Ordering::AcqRel);
        Entered(self.0.clone())
    }

    /// Calls waiting or running now.
    pub fn calls(&self) -> usize {
        self.0.load(Ordering::Acquire)
    }

    /// Whether a call waits or runs: background work stops between its steps.
    pub fn busy(&self) -> bool {
        self.calls() > 0
    }

    /// Waits, holding nothing, until no call waits or runs or `stop` says so; whether it
    /// waited at all.
    pub fn wait_quiet(&self, stop: &dyn Fn() -> bool) -> bool {
        let mut waited = false;
        while self.busy() && !stop() {
            waited = true;
            std::thread::sleep(POLL);
        }
        waited
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each guard counts one call until it drops, across clones.
    #[test]
    fn guards_count_calls_until_dropped() {
        let fg = Foreground::new();
        assert!(!fg.busy());
        let a = fg.enter();
        let b = fg.clone().enter();
        assert_eq!(fg.calls(), 2);
        drop(a);
        assert!(fg.busy());
        drop(b);
        assert!(!fg.busy());
        assert!(!fg.wait_quiet(&|| false), "quiet: no wait");
        let _c = fg.enter();
        assert!(!fg.wait_quiet(&|| true), "stopped: returns at once");
    }
}
