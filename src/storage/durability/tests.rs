//! Group commit in batch mode: what a sync covers, and when its gathering ends.

use super::*;
use crate::storage::memory::MemoryEngine;
use std::ops::Bound;
use std::sync::atomic::AtomicUsize;

/// The memory engine, counting syncs and remembering how many of the tests' writes (not
/// the syncer's own generation stamps) each one found applied.
#[derive(Default)]
struct Counting {
    inner: MemoryEngine,
    applied: AtomicUsize,
    syncs: Mutex<Vec<usize>>,
}

impl Engine for Counting {
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>> {
        self.inner.get(key)
    }
    fn scan(
        &self,
        lower: Bound<Vec<u8>>,
        upper: Bound<Vec<u8>>,
        reverse: bool,
    ) -> super::super::engine::Scan<'_> {
        self.inner.scan(lower, upper, reverse)
    }
    fn apply(&self, batch: Batch) -> Result<()> {
        let ours = batch.keys().all(|key| key.starts_with(b"k"));
        self.inner.apply(batch)?;
        if ours {
            self.applied.fetch_add(1, Ordering::SeqCst);
        }
        Ok(())
    }
    fn sync(&self) -> Result<()> {
        let applied = self.applied.load(Ordering::SeqCst);
        self.syncs.lock().unwrap().push(applied);
        Ok(())
    }
}

fn one_write(i: usize) -> Batch {
    let mut batch = Batch::default();
    batch.put(format!("k{i}").into_bytes(), b"v".to_vec());
    batch
}

/// `writers` threads, each applying `rounds` writes one after another and waiting for each
/// to be durable, as connections of a closed-loop load do.
fn closed_loop(durability: &Durability, writers: usize, rounds: usize) {
    std::thread::scope(|scope| {
        for w in 0..writers {
            scope.spawn(move || {
                for r in 0..rounds {
                    let ack = durability.commit(one_write(w * rounds + r)).unwrap();
                    ack.wait().unwrap();
                }
            });
        }
    });
}

#[test]
fn a_closed_loop_of_writers_shares_syncs_without_waiting_out_the_window() {
    const WRITERS: usize = 8;
    const ROUNDS: usize = 40;
    let engine = Arc::new(Counting::default());
    // A window far longer than the test: a gathering that ended only by the window, or by
    // a pause in arrivals (an eighth of it), would make each sync take seconds.
    let durability = Durability::start(
        Arc::clone(&engine) as Arc<dyn Engine>,
        SyncPolicy::Batch(Duration::from_secs(4)),
    )
    .unwrap();
    closed_loop(&durability, WRITERS, ROUNDS);
    let syncs = engine.syncs.lock().unwrap().len();
    let in_full = durability.gathered_in_full();
    // Each writer has one write outstanding, so a sync covers several writers; and all
    // but the last few gatherings (the writers finishing one by one) ended because the
    // writers the previous sync released had come back.
    assert!(
        syncs <= ROUNDS * 2,
        "{syncs} syncs for {ROUNDS} rounds of {WRITERS} writers"
    );
    assert!(
        in_full as usize + WRITERS >= syncs,
        "only {in_full} of {syncs} gatherings ended when the expected writers had arrived"
    );
}

#[test]
fn every_acknowledged_write_was_applied_before_a_sync_that_covered_it() {
    let engine = Arc::new(Counting::default());
    let durability = Durability::start(
        Arc::clone(&engine) as Arc<dyn Engine>,
        SyncPolicy::Batch(Duration::from_millis(2)),
    )
    .unwrap();
    for i in 0..50 {
        let ack = durability.commit(one_write(i)).unwrap();
        ack.wait().unwrap();
        // The write was the i + 1-th applied, and a sync that started after it is on
        // record.
        let last_sync = *engine.syncs.lock().unwrap().last().unwrap();
        assert!(last_sync > i, "write {i} acknowledged before a sync saw it");
    }
}

#[test]
fn a_lone_writer_after_a_burst_is_not_held_for_the_burst() {
    let engine = Arc::new(Counting::default());
    let durability = Durability::start(
        Arc::clone(&engine) as Arc<dyn Engine>,
        SyncPolicy::Batch(Duration::from_secs(4)),
    )
    .unwrap();
    closed_loop(&durability, 8, 5);
    // The last syncs covered several writers; a single writer now must still be answered
    // once arrivals pause, and its sync counts as ended early, not in full.
    let before = durability.gathered_in_full();
    let syncs_before = engine.syncs.lock().unwrap().len();
    for i in 0..3 {
        durability
            .commit(one_write(1000 + i))
            .unwrap()
            .wait()
            .unwrap();
    }
    assert_eq!(engine.syncs.lock().unwrap().len(), syncs_before + 3);
    // After the first lone sync the expected group is one writer again.
    assert!(durability.gathered_in_full() >= before + 2);
}
