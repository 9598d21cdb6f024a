//! Progress of a long call: the core reports how far it got; the server, when the client sent
//! a `progressToken`, turns the latest report into `notifications/progress`. Like
//! [`crate::cancel::Cancel`], the shell installs a sink as the thread's current one for the
//! call ([`Progress::scope`]); without one, [`Progress::current`] is None and reports cost
//! nothing.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// One report: how much is done, of how much when known, in words.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub done: f64,
    pub total: Option<f64>,
    pub message: String,
    /// Moves on with every report, so a reader sends each one once.
    pub seq: u64,
}

/// The latest report of a call, shared between the call and the shell.
#[derive(Debug, Clone, Default)]
pub struct Progress(Arc<Mutex<Option<Report>>>);

thread_local! {
    static CURRENT: RefCell<Option<Progress>> = const { RefCell::new(None) };
}

impl Progress {
    pub fn new() -> Progress {
        Progress::default()
    }

    /// Records a report (the previous one is replaced: only the latest matters).
    pub fn report(&self, done: f64, total: Option<f64>, message: String) {
        let mut r = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let seq = r.as_ref().map_or(1, |r| r.seq + 1);
        *r = Some(Report { done, total, message, seq });
    }

    /// The latest report if it is newer than `seen`.
    pub fn newer_than(&self, seen: u64) -> Option<Report> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone().filter(|r| r.seq > seen)
    }

    /// The sink of the call running on this thread, if the shell installed one.
    pub fn current() -> Option<Progress> {
        CURRENT.with(|c| c.borrow().clone())
    }

    /// A counter of `total` items into the current call's sink, for work spread over threads
    /// (which do not see the thread's sink); `None` without a sink, so counting costs nothing.
    pub fn counter(total: usize, what: &'static str) -> Option<Counter> {
        let progress = Progress::current()?;
        let total = total as u64;
        progress.report(0.0, Some(total as f64), format!("{what}: 0/{total}"));
        Some(Counter { progress, done: AtomicU64::new(0), total, step: (total / 100).max(16), what })
    }

    /// Runs `f` with this sink as the thread's current one.
    pub fn scope<R>(&self, f: impl FnOnce() -> R) -> R {
        struct Restore(Option<Progress>);
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

/// Items done out of a known total, reported about every hundredth (see [`Progress::counter`]).
#[derive(Debug)]
pub struct Counter {
    progress: Progress,
    done: AtomicU64,
    total: u64,
    step: u64,
    what: &'static str,
}

impl Counter {
    /// One more item done.
    pub fn tick(&self) {
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        if done.is_multiple_of(self.step) || done == self.total {
            let (what, total) = (self.what, self.total);
            self.progress.report(done as f64, Some(total as f64), format!("{what}: {done}/{total}"));
        }
    }
}

/// Ticks `counter` if there is one.
pub fn tick(counter: &Option<Counter>) {
    if let Some(c) = counter {
        c.tick();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_reach_the_scope_s_sink_once_each() {
        assert!(Progress::current().is_none());
        let p = Progress::new();
        p.scope(|| {
            let cur = Progress::current().expect("installed");
            cur.report(1.0, Some(3.0), "one".into());
        });
        let r = p.newer_than(0).expect("a report");
        assert_eq!((r.done, r.total, r.message.as_str()), (1.0, Some(3.0), "one"));
        assert!(p.newer_than(r.seq).is_none(), "the same report twice");
        assert!(Progress::current().is_none(), "the scope's sink leaked");
    }

    /// Work spread over threads reports through a counter: from 0 of the total to the total.
    #[test]
    fn a_counter_reports_threads_work_up_to_the_total() {
        assert!(Progress::counter(10, "files").is_none(), "no sink, no counter");
        let p = Progress::new();
        let counter = p.scope(|| Progress::counter(40, "files")).expect("a counter");
        assert_eq!(p.newer_than(0).map(|r| r.done), Some(0.0));
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| (0..10).for_each(|_| counter.tick()));
            }
        });
        let r = p.newer_than(0).expect("a report");
        assert_eq!((r.done, r.total, r.message.as_str()), (40.0, Some(40.0), "files: 40/40"));
    }
}
