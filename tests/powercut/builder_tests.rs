//! The image builder on hand-written logs: synced bytes are always in the image, unsynced
//! ones sometimes, whole sectors at a time; a name is durable only after its directory is
//! synced; a sync that has not ended promises nothing.

use crate::image::{Choice, Mode, Rng, Timeline, SECTOR};
use crate::log::{Rec, SyncKind, O_CREAT};
use std::path::Path;

fn open(fd: i32, path: &str, create: bool) -> Rec {
    Rec::Open {
        fd,
        flags: if create { O_CREAT } else { 0 },
        path: Some(path.into()),
    }
}
fn write(fd: i32, off: u64, byte: u8, len: usize) -> Rec {
    Rec::Write {
        fd,
        off,
        data: vec![byte; len],
    }
}
fn fsync(id: u64, fd: i32) -> [Rec; 2] {
    [
        Rec::SyncBegin {
            id,
            kind: SyncKind::Fsync,
            fd,
            tid: 1,
            thread: "ilion-sync".into(),
        },
        Rec::SyncEnd { id, ret: 0 },
    ]
}

fn timeline(recs: Vec<Rec>) -> Timeline {
    Timeline::new(recs, Path::new("/nonexistent")).unwrap()
}

fn images(t: &Timeline, cut: usize, n: u64) -> Vec<crate::image::Image> {
    (0..n)
        .map(|seed| {
            let mut rng = Rng::new(seed);
            let mode = if seed % 2 == 0 {
                Mode::Sectors
            } else {
                Mode::Prefix(rng.range(0, cut + 1))
            };
            t.build(
                cut,
                &Choice {
                    mode,
                    plant_rollback: None,
                },
                &mut rng,
            )
        })
        .collect()
}

#[test]
fn synced_bytes_stay_and_unsynced_ones_come_in_whole_sectors() {
    let mut recs = vec![
        open(3, "f", true),
        open(4, "", false),
        write(3, 0, b'a', 1000),
    ];
    recs.extend(fsync(1, 3));
    recs.extend(fsync(2, 4));
    recs.push(write(3, 1000, b'b', 3000));
    recs.push(write(3, 0, b'c', 100));
    let t = timeline(recs);
    let cut = 9;
    let (mut some_b, mut no_b, mut saw_c) = (false, false, false);
    for image in images(&t, cut, 400) {
        let f = image
            .file("f")
            .expect("a synced file in a synced directory is there");
        let mut bytes = f.data.clone();
        bytes.resize(f.size as usize, 0);
        assert!((1000..=4000).contains(&bytes.len()), "size {}", bytes.len());
        assert!(
            bytes[100..1000].iter().all(|&b| b == b'a'),
            "synced bytes changed"
        );
        assert!(bytes[..100].iter().all(|&b| b == b'a') || bytes[..100].iter().all(|&b| b == b'c'));
        saw_c |= bytes[0] == b'c';
        for s in 1..4000u64.div_ceil(SECTOR) {
            let lo = (s * SECTOR).max(1000) as usize;
            let hi = ((s + 1) * SECTOR).min(bytes.len() as u64) as usize;
            if lo < hi {
                let part = &bytes[lo..hi];
                assert!(part.iter().all(|&b| b == b'b') || part.iter().all(|&b| b == 0));
                some_b |= part[0] == b'b';
                no_b |= part[0] == 0 || bytes.len() == 1000;
            }
        }
        no_b |= bytes.len() == 1000;
    }
    assert!(
        some_b && no_b && saw_c,
        "unsynced writes are never or always kept"
    );
}

#[test]
fn a_name_is_durable_only_after_its_directory_is_synced() {
    let mut recs = vec![open(3, "f", true), write(3, 0, b'a', 10)];
    recs.extend(fsync(1, 3));
    recs.push(open(4, "", false));
    let before_dir_sync = recs.len();
    recs.extend(fsync(2, 4));
    let t = timeline(recs);
    let without = images(&t, before_dir_sync, 200);
    assert!(
        without.iter().any(|i| i.file("f").is_none()),
        "a name survived without a dir sync"
    );
    assert!(without.iter().any(|i| i.file("f").is_some()));
    for image in images(&t, t.recs().len(), 200) {
        assert_eq!(image.file("f").unwrap().data, vec![b'a'; 10]);
    }
}

#[test]
fn a_sync_that_has_not_ended_promises_nothing_and_a_rename_is_all_or_nothing() {
    let mut recs = vec![
        open(3, "old", true),
        write(3, 0, b'o', 10),
        open(4, "", false),
    ];
    recs.extend(fsync(1, 3));
    recs.extend(fsync(2, 4));
    recs.push(open(5, "tmp", true));
    recs.push(write(5, 0, b'n', 10));
    recs.extend(fsync(3, 5));
    recs.push(Rec::Rename {
        from: Some("tmp".into()),
        to: Some("old".into()),
    });
    recs.push(Rec::SyncBegin {
        id: 4,
        kind: SyncKind::Fsync,
        fd: 4,
        tid: 1,
        thread: "ilion-sync".into(),
    });
    let unfinished = recs.len();
    recs.push(Rec::SyncEnd { id: 4, ret: 0 });
    let t = timeline(recs);
    let contents = |cut| {
        images(&t, cut, 200)
            .iter()
            .map(|i| {
                i.file("old")
                    .expect("one of the two files has the name")
                    .data
                    .clone()
            })
            .collect::<Vec<_>>()
    };
    let mid = contents(unfinished);
    assert!(mid.iter().any(|d| d == &vec![b'o'; 10]) && mid.iter().any(|d| d == &vec![b'n'; 10]));
    assert!(contents(unfinished + 1)
        .iter()
        .all(|d| d == &vec![b'n'; 10]));
}
