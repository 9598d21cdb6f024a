//! Cooperative cancellation: a flag the shell sets when a client cancels a request, read by
//! long loops in the core between files. The shell installs the request's flag as the
//! thread's current one for the duration of a call ([`Cancel::scope`]); a loop takes
//! [`Cancel::current`] once on the calling thread and checks it from its workers.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A cancellation flag shared between the shell and the work it started.
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

thread_local! {
    static CURRENT: RefCell<Option<Cancel>> = const { RefCell::new(None) };
}

impl Cancel {
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Asks the work to stop; it stops at its next check.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// The flag of the call running on this thread (a fresh, never-set one outside a call).
    pub fn current() -> Cancel {
        CURRENT.with(|c| c.borrow().clone()).unwrap_or_default()
    }

    /// Runs `f` with this flag as the thread's current one.
    pub fn scope<R>(&self, f: impl FnOnce() -> R) -> R {
        struct Restore(Option<Cancel>);
        impl Drop for Restore {
            fn drop(&mut self) {
                let previous = self.0.take();
                CURRENT.with(|c| *c.borrow_mut() = previous);
            }
        }
        let _restore = Restore(CURRENT.with(|c| c.borrow_mut().replace(self.clone())));
        f()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_current_flag_is_the_scope_s_and_is_restored_after() {
        assert!(!Cancel::current().is_cancelled());
        let c = Cancel::new();
        c.cancel();
        let seen = c.scope(|| Cancel::current().is_cancelled());
        assert!(seen);
        assert!(!Cancel::current().is_cancelled(), "the scope's flag leaked");
        // Clones share the flag across threads.
        let c = Cancel::new();
        let worker = c.scope(Cancel::current);
        std::thread::spawn(move || worker.cancel()).join().expect("thread");
        assert!(c.is_cancelled());
    }
}
