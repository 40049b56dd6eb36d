//! The acknowledgements a connection's replies still wait for, shared by both APIs. A write
//! is applied before its handler returns, but its reply may only leave once the write is
//! durable: the acknowledgements collect here, and [`PendingAcks::reply_gate`] turns them
//! into the wait the server performs before sending the reply.

use crate::cf::WriteAck as Ack;
use crate::error::Error;
use crate::protocol::ReplyGate;
use std::cell::RefCell;

/// One connection's not-yet-awaited write acknowledgements.
#[derive(Default)]
pub(crate) struct PendingAcks {
    acks: RefCell<Vec<Ack>>,
}

impl PendingAcks {
    /// Remembers a write's acknowledgement: the next reply waits for it.
    pub(crate) fn push(&self, ack: Ack) {
        self.acks.borrow_mut().push(ack);
    }

    /// The wait the reply to the last messages needs: `None` when all their writes are
    /// durable already; an error when one of them cannot be made durable.
    pub(crate) fn reply_gate(&self) -> Option<ReplyGate> {
        let acks = std::mem::take(&mut *self.acks.borrow_mut());
        let mut waiting = Vec::new();
        for ack in acks {
            if !ack.is_done() {
                waiting.push(ack);
            } else if let Err(e) = ack.wait() {
                // Done but failed: the reply must never claim this write.
                return Some(Box::pin(std::future::ready(Err(failed(e)))));
            }
        }
        if waiting.is_empty() {
            return None;
        }
        Some(Box::pin(async move {
            for ack in &waiting {
                ack.wait_async().await.map_err(failed)?;
            }
            Ok(())
        }))
    }
}

fn failed(e: Error) -> String {
    tracing::error!(error = %e, "write not durable; closing the connection without a reply");
    e.to_string()
}
