//! Reply gates: a write's reply waits until the write is durable (never for ZERO), and a
//! failed sync closes the connection instead of acknowledging.

use super::*;
use crate::protocol::{Connection, ReplyGate};

fn block_on(gate: ReplyGate) -> Result<(), String> {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime")
        .block_on(gate)
}

fn write(s: &Session, cl: ConsistencyLevel) {
    let p = path("Standard1", None, Some(b"c"));
    s.handle_insert(KS.into(), "k".into(), p, b"v".to_vec(), 1, cl)
        .unwrap();
}

#[test]
fn the_reply_waits_for_a_held_sync() {
    let f = Fixture::new();
    let mut s = f.session();
    f.engine.set_sync(SyncMode::Hold);
    write(&s, ONE);
    write(&s, ConsistencyLevel::QUORUM);
    let gate = s.take_reply_gate().expect("a pending write needs a gate");
    assert!(s.take_reply_gate().is_none(), "taken once");
    let releaser = {
        let engine = std::sync::Arc::clone(&f.engine);
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(50));
            engine.set_sync(SyncMode::Succeed);
        })
    };
    assert_eq!(block_on(gate), Ok(()));
    releaser.join().unwrap();
}

#[test]
fn zero_and_reads_do_not_wait() {
    let f = Fixture::new();
    let mut s = f.session();
    f.engine.set_sync(SyncMode::Hold);
    write(&s, ConsistencyLevel::ZERO);
    assert!(s.take_reply_gate().is_none());
    assert!(s.handle_describe_keyspaces().is_ok());
    assert_eq!(
        get(&s, KS, "k", path("Standard1", None, Some(b"c"))),
        Outcome::Ok
    );
    assert!(s.take_reply_gate().is_none());
    f.engine.set_sync(SyncMode::Succeed);
}

#[test]
fn a_failed_sync_fails_the_gate() {
    let f = Fixture::new();
    let mut s = f.session();
    f.engine.set_sync(SyncMode::Hold);
    write(&s, ONE);
    let gate = s.take_reply_gate().expect("pending");
    f.engine.set_sync(SyncMode::Fail);
    assert!(block_on(gate).is_err());
    // Afterwards the store refuses writes: an internal error, and no gate to pass.
    let p = path("Standard1", None, Some(b"d"));
    let refused = s.handle_insert(KS.into(), "k".into(), p, b"v".to_vec(), 1, ONE);
    assert_eq!(
        outcome(refused),
        internal("Internal error processing insert")
    );
}

#[test]
fn an_already_failed_write_gets_a_failing_gate() {
    let f = Fixture::new();
    let mut s = f.session();
    f.engine.set_sync(SyncMode::Fail);
    write(&s, ONE);
    // Wait until the syncer has failed, so the ack is done (with an error) when taken.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let mut ts = 0;
    let gate = loop {
        // A new timestamp each time, so each probe really writes.
        ts += 1;
        let probe = f.session();
        let p = path("Standard1", None, Some(b"x"));
        let r = probe.handle_insert(
            KS.into(),
            "probe".into(),
            p,
            b"v".to_vec(),
            ts,
            ConsistencyLevel::ZERO,
        );
        if r.is_err() || std::time::Instant::now() > deadline {
            break s.take_reply_gate();
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    let gate = gate.expect("a failed write must not pass");
    assert!(block_on(gate).is_err());
}
