//! Progress of long commands on stderr (indexing, binding references, problems, test runs,
//! Maven), in a terminal only. The work below reports through values: the call's
//! [`mji_model::progress::Progress`] sink (a tool's reports) and what a command polls (the
//! index's counts); nothing below the shell writes to stderr itself. A line appears once the
//! work has taken a second and is cleared when it ends; off a terminal nothing is drawn.

use std::io::IsTerminal;
use std::sync::mpsc;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};
use mji_model::progress::Progress;

/// How long work runs before its progress is shown.
const SHOW_AFTER: Duration = Duration::from_secs(1);
/// How often the line is redrawn.
const EVERY: Duration = Duration::from_millis(100);

/// Where progress is drawn: in a terminal on stderr (or `term`), nowhere otherwise.
pub(crate) fn target(is_tty: bool, term: Option<Box<dyn TermLike>>) -> ProgressDrawTarget {
    match (is_tty, term) {
        (false, _) => ProgressDrawTarget::hidden(),
        (true, Some(term)) => ProgressDrawTarget::term_like(term),
        (true, None) => ProgressDrawTarget::stderr(),
    }
}

/// One line of progress: a spinner, the time so far, what the work is doing.
pub(crate) struct Ticker {
    bar: ProgressBar,
    label: String,
    sink: Progress,
}

impl Ticker {
    pub(crate) fn new(target: ProgressDrawTarget, label: &str) -> Ticker {
        let bar = ProgressBar::with_draw_target(None, target);
        if let Ok(style) = ProgressStyle::with_template("{spinner} [{elapsed}] {msg}") {
            bar.set_style(style);
        }
        Ticker { bar, label: label.to_owned(), sink: Progress::new() }
    }

    /// The sink a tool call reports to (installed with [`Progress::scope`]).
    pub(crate) fn sink(&self) -> &Progress {
        &self.sink
    }

    /// Draws the line: `polled` when the command has a value of its own, else the latest
    /// report of the sink, else the label alone.
    pub(crate) fn tick(&self, polled: Option<String>) {
        let what = polled.or_else(|| {
            self.sink.newer_than(0).map(|r| match r.total {
                Some(t) => format!("{} ({:.0} of {t:.0})", r.message, r.done),
                None => r.message,
            })
        });
        self.bar.set_message(match what {
            Some(w) => format!("{}: {w}", self.label),
            None => self.label.clone(),
        });
        self.bar.tick();
    }

    pub(crate) fn clear(&self) {
        self.bar.finish_and_clear();
    }
}

/// Runs `work` with a progress sink installed on this thread; while it runs for more than a
/// second, a line on stderr (a terminal only) shows `poll`'s value or the sink's latest report.
pub(crate) fn with_progress<R>(label: &str, poll: &(dyn Fn() -> Option<String> + Sync), work: impl FnOnce() -> R) -> R {
    let stderr = std::io::stderr();
    if !stderr.is_terminal() {
        // Nothing is drawn: the sink alone, without a thread to start and join (a command
        // waiting for the index passes here twice).
        return Progress::new().scope(work);
    }
    let ticker = Ticker::new(target(true, None), label);
    let (done, wait) = mpsc::channel::<()>();
    std::thread::scope(|s| {
        let ticker = &ticker;
        s.spawn(move || {
            let mut pause = SHOW_AFTER;
            // Until the work ends (a message, or the sender dropped).
            while let Err(mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(pause) {
                ticker.tick(poll());
                pause = EVERY;
            }
            ticker.clear();
        });
        let out = ticker.sink().scope(work);
        drop(done);
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A terminal that keeps what is written to it.
    #[derive(Debug, Clone, Default)]
    struct Screen(Arc<Mutex<String>>);

    impl Screen {
        fn text(&self) -> String {
            self.0.lock().map(|s| s.clone()).unwrap_or_default()
        }
    }

    impl TermLike for Screen {
        fn width(&self) -> u16 {
            100
        }
        fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.write_str(&format!("{s}\n"))
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            if let Ok(mut t) = self.0.lock() {
                t.push_str(s);
            }
            Ok(())
        }
        fn clear_line(&self) -> std::io::Result<()> {
            Ok(())
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// In a terminal the line shows what the work reported through its sink, or the value the
    /// command polled; off a terminal nothing is drawn.
    #[test]
    fn a_terminal_shows_the_reports_and_a_pipe_shows_nothing() {
        for is_tty in [true, false] {
            let screen = Screen::default();
            let ticker = Ticker::new(target(is_tty, Some(Box::new(screen.clone()))), "running tests");
            ticker.sink().scope(|| {
                if let Some(p) = Progress::current() {
                    p.report(3.0, None, "3 test classes reported".into());
                }
            });
            ticker.tick(None);
            let shown = screen.text();
            assert_eq!(shown.contains("running tests: 3 test classes reported"), is_tty, "{is_tty}: {shown:?}");
            ticker.tick(Some("indexing 5 of 9 Java files".into()));
            let shown = screen.text();
            assert_eq!(shown.contains("running tests: indexing 5 of 9 Java files"), is_tty, "{is_tty}: {shown:?}");
            ticker.clear();
            if !is_tty {
                assert_eq!(screen.text(), "");
            }
        }
    }
}
