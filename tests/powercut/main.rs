//! Power-cut simulation (docs/powercut.md): the real server runs under a recording shim
//! (powercut/shim.c) while a Thrift load writes; images of what a power cut could leave on
//! disk are built from the recording and the real server is started on each one. Every
//! acknowledged write that the sync mode promises must be there, nothing never written may
//! appear, no row mutation may be torn, and a store that cannot be trusted must be refused
//! with a message, never served shorter or reset.
//!
//! The short campaign runs in `./scripts/test-all.sh`; `scripts/powercut.sh` runs the long
//! one (the ignored test below). The planted-fault tests prove the checker can fail.

// Test code: a failed unwrap is a failed test, and the helpers outside #[test] fns count too.
#![allow(clippy::unwrap_used)]

#[path = "../support/mod.rs"]
mod support;

mod builder_tests;
mod check;
mod image;
mod load;
mod log;
mod run;

use image::{Choice, Mode, Rng};
use run::{campaign, check_image, record, Plan};
use std::time::Duration;

fn assert_clean(tally: &run::Tally, engine: &str, mode: &str) {
    let summary = tally.summary(engine, mode);
    println!("{summary}");
    assert_eq!(tally.bad(), 0, "{summary}");
    assert!(tally.passed > 0, "no image was served at all: {summary}");
    // Periodic mode too: the syncer's syncs (found by its thread name) must have made
    // some acknowledged write required.
    assert!(
        tally.required > 0,
        "no acknowledged write was ever required: {summary}"
    );
}

/// The short campaign CI runs: a few images per mode, on the engine of ILION_TEST_ENGINE
/// (sled in the main run; scripts/test-all.sh runs it once more on fjall).
#[test]
fn short_campaign_loses_nothing() {
    let engine = support::conf::test_engine();
    for mode in ["batch", "periodic"] {
        // Batch mode under the full model: 40 kB values and reordered sectors. Periodic mode
        // with small values and writes reaching the disk in order: under heavy writing sled
        // 0.34 loses synced writes in that mode (docs/powercut.md#findings, finding 4);
        // scripts/powercut.sh runs the full model there and reports it.
        let full = mode == "batch";
        let tally = campaign(&Plan {
            engine: &engine,
            mode,
            images: 8,
            per: 8,
            run_for: Duration::from_millis(1500),
            seed: 7,
            long_values: full,
            reorder: full,
        });
        assert_clean(&tally, &engine, mode);
    }
}

/// The long campaign of scripts/powercut.sh: POWERCUT_IMAGES images per mode (default 200)
/// on each engine of POWERCUT_ENGINES (default "sled,fjall"). POWERCUT_LONG_VALUES=0 leaves out
/// blob-sized values, POWERCUT_REORDER=0 builds in-order (`Prefix`) images only.
#[test]
#[ignore = "long: run by scripts/powercut.sh"]
fn long_campaign() {
    let images = std::env::var("POWERCUT_IMAGES").map_or(200, |v| v.parse().unwrap());
    let engines = std::env::var("POWERCUT_ENGINES").unwrap_or_else(|_| "sled,fjall".into());
    let seed = std::env::var("POWERCUT_SEED").map_or(1, |v| v.parse().unwrap());
    let mut failed = Vec::new();
    for engine in engines.split(',') {
        for mode in ["batch", "periodic"] {
            let tally = campaign(&Plan {
                engine,
                mode,
                images,
                per: 25,
                run_for: Duration::from_secs(2),
                seed,
                long_values: std::env::var("POWERCUT_LONG_VALUES").map_or(true, |v| v != "0"),
                reorder: std::env::var("POWERCUT_REORDER").map_or(true, |v| v != "0"),
            });
            println!("{}", tally.summary(engine, mode));
            if tally.bad() > 0 || tally.passed == 0 {
                failed.push(format!("{engine} {mode}"));
            }
        }
    }
    assert!(
        failed.is_empty(),
        "power-cut campaign failed for {failed:?}"
    );
}

/// A planted fault: the image forgets the commit log's last synced writes (and the watermark
/// that would have refused it). The checker must report acknowledged writes lost.
#[test]
fn the_checker_reports_a_planted_lost_write() {
    let work = tempfile::tempdir().unwrap();
    let rec = record(
        "sled",
        "batch",
        Duration::from_millis(1500),
        11,
        false,
        work.path(),
    );
    let cut = rec.timeline.recs().len();
    let choice = Choice {
        mode: Mode::Prefix(0),
        plant_rollback: Some(3),
    };
    let mut rng = Rng::new(5);
    // Without the watermark the server has nothing to refuse on.
    let root_rec = remove_watermark(&rec);
    match check_image(&root_rec, cut, &choice, &mut rng, work.path()) {
        check::Outcome::Failed(report) => {
            assert!(!report.lost.is_empty(), "{report:?}");
            assert!(report.fabricated.is_empty(), "{report:?}");
        }
        other => panic!("the planted loss was not reported as a loss: {other:?}"),
    }
}

/// The same recording with every record that touches the watermark files dropped.
fn remove_watermark(rec: &run::Recording) -> run::Recording {
    let mut recs = rec.timeline.recs().to_vec();
    let mut fds = std::collections::HashSet::new();
    recs.retain(|r| match r {
        log::Rec::Open {
            fd, path: Some(p), ..
        } if p.starts_with("ilion-watermark") => {
            fds.insert(*fd);
            false
        }
        log::Rec::Rename { to: Some(p), .. } if p.starts_with("ilion-watermark") => false,
        log::Rec::Write { fd, .. } | log::Rec::Trunc { fd, .. } => !fds.contains(fd),
        log::Rec::Close { fd } => !fds.remove(fd),
        log::Rec::SyncBegin { fd, .. } if fds.contains(fd) => false,
        _ => true,
    });
    // Sync ends without a begin are harmless to drop too.
    let begun: std::collections::HashSet<u64> = recs
        .iter()
        .filter_map(|r| match r {
            log::Rec::SyncBegin { id, .. } => Some(*id),
            _ => None,
        })
        .collect();
    recs.retain(|r| !matches!(r, log::Rec::SyncEnd { id, .. } if !begun.contains(id)));
    let timeline = image::Timeline::new(recs, std::path::Path::new("/nonexistent")).unwrap();
    run::Recording {
        timeline,
        load: rec.load.clone(),
        mode: rec.mode.clone(),
        conf: rec.conf.clone(),
    }
}

/// A planted fabrication: the model forgets one request that the store really holds. The
/// checker must report its value as never written.
#[test]
fn the_checker_reports_a_value_never_written() {
    let work = tempfile::tempdir().unwrap();
    let mut rec = record(
        "sled",
        "batch",
        Duration::from_millis(1000),
        13,
        false,
        work.path(),
    );
    // Forget the first acknowledged insert: its value is on disk, but "never written".
    let forgotten = rec
        .timeline
        .recs()
        .iter()
        .find_map(|r| match r {
            log::Rec::Ack(op)
                if rec.load.ops[op].len() == 1
                    && rec.load.history[&rec.load.ops[op][0]]
                        .iter()
                        .any(|h| h == &(*op, true)) =>
            {
                Some(*op)
            }
            _ => None,
        })
        .expect("an acknowledged single insert");
    for hist in rec.load.history.values_mut() {
        hist.retain(|(op, _)| *op != forgotten);
    }
    // The last write to that column is this insert only if nothing later overwrote it; make
    // the cut right after its acknowledgement so it is the newest state.
    let cut = rec
        .timeline
        .recs()
        .iter()
        .position(|r| matches!(r, log::Rec::Ack(op) if *op == forgotten))
        .unwrap()
        + 1;
    let choice = Choice {
        mode: Mode::Prefix(cut),
        plant_rollback: None,
    };
    let mut rng = Rng::new(3);
    match check_image(&rec, cut, &choice, &mut rng, work.path()) {
        check::Outcome::Failed(report) => {
            assert!(
                report
                    .fabricated
                    .iter()
                    .any(|f| f.contains(&forgotten.to_string())),
                "{report:?}"
            );
        }
        other => panic!("the planted value was not reported: {other:?}"),
    }
}

/// fjall replaces its `current` version pointers with raw rename system calls (rustix, not
/// libc); the shim traps system calls, so they must be in the log, with their directory syncs.
#[test]
fn the_shim_sees_fjalls_raw_renames() {
    let work = tempfile::tempdir().unwrap();
    let rec = record(
        "fjall",
        "batch",
        Duration::from_millis(500),
        17,
        false,
        work.path(),
    );
    let renames = rec
        .timeline
        .recs()
        .iter()
        .filter(|r| matches!(r, log::Rec::Rename { to: Some(p), .. } if p.ends_with("/current")))
        .count();
    assert!(
        renames > 0,
        "no rename of fjall's version pointer was recorded"
    );
    assert!(rec.timeline.syncs.iter().any(|s| s.commit_log && s.real()));
}
