//! `$/cancelRequest`, honoured: the client's messages pass through a thread of their own, which
//! sets the cancellation flag of the request being answered (the registry's calls check it
//! between files and answer a stopped call as cancelled, never as a partial answer) and marks a
//! request still waiting in line, which is then answered `RequestCancelled` without running.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};

use crossbeam_channel::Receiver;
use lsp_server::{Message, RequestId};
use lsp_types as lsp;
use mji_model::cancel::Cancel;

/// At most this many cancelled ids of requests not seen yet are remembered (a client may
/// cancel requests already answered).
const MAX_PENDING: usize = 1024;

#[derive(Default)]
struct State {
    /// The request being answered and its flag.
    running: Option<(RequestId, Cancel)>,
    /// Requests cancelled before they started.
    cancelled: HashSet<RequestId>,
}

/// The client's messages, in order, and the cancellations seen among them.
pub struct Inbox {
    pub messages: Receiver<Message>,
    state: Arc<Mutex<State>>,
}

/// The id a `$/cancelRequest` names.
fn cancelled_id(params: &serde_json::Value) -> Option<RequestId> {
    let p: lsp::CancelParams = serde_json::from_value(params.clone()).ok()?;
    Some(match p.id {
        lsp::NumberOrString::Number(n) => RequestId::from(n),
        lsp::NumberOrString::String(s) => RequestId::from(s),
    })
}

impl Inbox {
    /// Starts reading `from` on a thread that forwards every message and acts on cancellations
    /// at once, while a request is being answered.
    pub fn start(from: Receiver<Message>) -> Result<Inbox, String> {
        let (tx, messages) = crossbeam_channel::unbounded();
        let state = Arc::new(Mutex::new(State::default()));
        let seen = state.clone();
        std::thread::Builder::new()
            .name("lsp-inbox".to_owned())
            .spawn(move || {
                for msg in from {
                    if let Message::Notification(n) = &msg
                        && n.method == "$/cancelRequest"
                        && let Some(id) = cancelled_id(&n.params)
                    {
                        let mut s = seen.lock().unwrap_or_else(PoisonError::into_inner);
                        match &s.running {
                            Some((running, cancel)) if *running == id => cancel.cancel(),
                            _ => {
                                if s.cancelled.len() >= MAX_PENDING {
                                    s.cancelled.clear();
                                }
                                s.cancelled.insert(id);
                            }
                        }
                    }
                    if tx.send(msg).is_err() {
                        return;
                    }
                }
            })
            .map_err(|e| format!("starting the reader of the client's messages: {e}"))?;
        Ok(Inbox { messages, state })
    }

    /// A request starts: its cancellation flag, or None when the client cancelled it already.
    pub fn begin(&self, id: &RequestId) -> Option<Cancel> {
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if s.cancelled.remove(id) {
            return None;
        }
        let cancel = Cancel::new();
        s.running = Some((id.clone(), cancel.clone()));
        Some(cancel)
    }

    /// The request started last is answered.
    pub fn end(&self) {
        self.state.lock().unwrap_or_else(PoisonError::into_inner).running = None;
    }
}

#[cfg(test)]
mod tests {
    use lsp_server::{Message, Notification, RequestId};
    use serde_json::json;

    #[test]
    fn a_cancel_sets_the_running_request_s_flag_or_skips_a_waiting_one() {
        let (tx, rx) = crossbeam_channel::unbounded();
        let inbox = super::Inbox::start(rx).expect("inbox");
        let running = inbox.begin(&RequestId::from(1)).expect("not cancelled");
        let cancel = |id: serde_json::Value| {
            Message::Notification(Notification::new("$/cancelRequest".to_owned(), json!({ "id": id })))
        };
        tx.send(cancel(json!(1))).expect("send");
        tx.send(cancel(json!("two"))).expect("send");
        // Forwarded in order, after the flags are set.
        for _ in 0..2 {
            inbox.messages.recv().expect("forwarded");
        }
        assert!(running.is_cancelled());
        inbox.end();
        assert!(inbox.begin(&RequestId::from("two".to_owned())).is_none(), "cancelled while waiting");
        assert!(inbox.begin(&RequestId::from(3)).is_some_and(|c| !c.is_cancelled()));
    }
}
