//! The whole-connection target: a byte stream through detection, the splitter and a real
//! [`Session`](crate::service::Session) over a fresh in-memory database, as
//! `server::connection` drives them.

use super::{check_reply, test_config};
use crate::cf::{Db, DbOptions};
use crate::config::Config;
use crate::protocol::{detect, Connection, Detection, Limits, Split, Splitter};
use crate::service::Service;
use crate::storage::{MemoryEngine, SyncPolicy, MAX_CHUNK_BYTES};
use std::path::Path;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// Reads the allocations made while one message is processed; the fuzz target implements it
/// with a counting global allocator.
pub trait Meter {
    /// Starts a measurement: the peak is reset to what is allocated now.
    fn start(&self);
    /// The most bytes allocated at once since [`start`](Meter::start), beyond what was
    /// allocated then.
    fn peak_growth(&self) -> usize;
}

/// A [`Meter`] that measures nothing, for replaying inputs where no allocator counts.
pub struct NoMeter;

impl Meter for NoMeter {
    fn start(&self) {}
    fn peak_growth(&self) -> usize {
        0
    }
}

/// Most bytes one message may cost: the decode budget dispatch charges (16 × the message
/// limit) plus the message itself, once more for a rewrite, and 1 MiB for the reply, the
/// session and the store's own work.
pub fn allocation_bound(limits: &Limits) -> usize {
    16 * limits.max_message_bytes + 2 * limits.max_message_bytes + (1 << 20)
}

fn config() -> &'static Arc<Config> {
    static CONFIG: OnceLock<Arc<Config>> = OnceLock::new();
    CONFIG.get_or_init(|| test_config("", Path::new(".")))
}

/// Target `dispatch`: `stream` is everything a client sends on one connection. It is handled
/// as the server would — detect the mode, split off each whole message, process it on the
/// session, collect the reply — until the bytes end or break a rule. Checks: no panic; every
/// reply is one well-formed message framed as the connection is; no message makes the
/// process allocate more than [`allocation_bound`] at once.
pub fn connection(stream: &[u8], meter: &dyn Meter) {
    let config = config();
    let options = DbOptions {
        partitioner: config.partitioner,
        // Writes are acknowledged at once: the in-memory engine has nothing to sync.
        sync: SyncPolicy::Periodic(Duration::from_secs(3600)),
        gc_grace_seconds: config.gc_grace_seconds,
        initial_token: None,
        chunk_bytes: MAX_CHUNK_BYTES,
        clock: crate::cf::system_clock(),
    };
    let engine = Arc::new(MemoryEngine::new());
    let db = match Db::open(engine, Arc::new(config.schema.clone()), options) {
        Ok(db) => Arc::new(db),
        Err(e) => panic!("an empty in-memory database does not open: {e}"),
    };
    let service = Service::new(db, Arc::clone(config));
    let limits = service.limits();
    let mut session = service.session();
    let mut start = 0;
    let mut splitter: Option<Splitter> = None;
    while start < stream.len() {
        let pending = &stream[start..];
        let splitter = match &mut splitter {
            Some(s) => s,
            None => match detect(pending, &limits) {
                Detection::Mode(mode) => splitter.insert(Splitter::new(mode, limits)),
                Detection::NeedMore | Detection::Reject(_) => return,
            },
        };
        let span = match splitter.poll(pending) {
            Split::Message(span) => span,
            Split::NeedMore | Split::Reject(_) => return,
        };
        let mode = splitter.mode();
        meter.start();
        let reply = session.process(&pending[span.message], mode);
        let peak = meter.peak_growth();
        assert!(
            peak <= allocation_bound(&limits),
            "one message of {} bytes made the process allocate {peak} bytes",
            span.len
        );
        match reply {
            Ok(reply) => {
                if let Err(why) = check_reply(&reply, mode.framed, &limits) {
                    panic!("the reply is not a well-formed message: {why}");
                }
            }
            Err(_) => return,
        }
        // Writes are durable at once under the periodic policy: nothing to wait for.
        drop(session.take_reply_gate());
        start += span.len;
    }
}
