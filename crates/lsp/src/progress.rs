//! Work-done progress of the first indexing pass (`window/workDoneProgress/create`, then
//! `$/progress` begin, reports and end), for a client that supports it, from a thread of its
//! own while requests are answered.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use lsp_server::{Message, Notification, Request, RequestId};
use mji_tools::host::Host;
use serde_json::{Value, json};

/// The token of the indexing progress.
const TOKEN: &str = "mcp-java-index/indexing";

/// How often the index's progress is reported.
const EVERY: Duration = Duration::from_millis(200);

/// The `$/progress` value for what the index has done: `begin` first, `end` once complete,
/// `report` between.
pub fn value(indexed: usize, total: usize, complete: bool, first: bool) -> Value {
    let percentage = (indexed * 100).checked_div(total).unwrap_or(0).min(100);
    let message =
        if total == 0 { "walking the workspace roots".to_owned() } else { format!("{indexed} of {total} Java files") };
    match (first, complete) {
        (_, true) => json!({"kind": "end", "message": format!("indexed {indexed} Java files")}),
        (true, false) => {
            json!({"kind": "begin", "title": "Indexing", "cancellable": false, "message": message, "percentage": percentage})
        }
        (false, false) => json!({"kind": "report", "message": message, "percentage": percentage}),
    }
}

/// Reports the first indexing pass until it completes or `stop` is set; `send` gives a message
/// to the client and says whether it is still there.
pub fn report(host: Arc<Host>, stop: Arc<AtomicBool>, send: impl Fn(Message) -> bool) {
    let create = Request::new(
        RequestId::from(TOKEN.to_owned()),
        "window/workDoneProgress/create".to_owned(),
        json!({"token": TOKEN}),
    );
    if !send(Message::Request(create)) {
        return;
    }
    let mut first = true;
    let mut last = None;
    while !stop.load(Ordering::Acquire) {
        let p = host.index().progress();
        if last != Some((p.indexed, p.total, p.complete)) {
            last = Some((p.indexed, p.total, p.complete));
            let params = json!({"token": TOKEN, "value": value(p.indexed, p.total, p.complete, first)});
            first = false;
            if !send(Message::Notification(Notification::new("$/progress".to_owned(), params))) || p.complete {
                return;
            }
        }
        std::thread::sleep(EVERY);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn begin_reports_and_end_say_what_the_index_did() {
        assert_eq!(super::value(0, 0, false, true)["kind"], "begin");
        assert_eq!(super::value(0, 0, false, true)["message"], "walking the workspace roots");
        let r = super::value(50, 200, false, false);
        assert_eq!((r["kind"].as_str(), r["percentage"].as_u64()), (Some("report"), Some(25)));
        assert_eq!(r["message"], "50 of 200 Java files");
        assert_eq!(
            super::value(200, 200, true, false),
            serde_json::json!({"kind": "end", "message": "indexed 200 Java files"})
        );
    }
}
