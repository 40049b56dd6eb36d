use ilion::comparator::Comparator;
use ilion::model::Cell;
use ilion::partitioner::Partitioner;
use ilion::storage::keys::encode_row;
use ilion::storage::values::encode_cell;
use ilion::storage::CfLayout;
use std::time::Instant;
fn run(name: &str, cache: u64, mode: u8, n: u64) {
    let dir = tempfile::tempdir().unwrap();
    let db = sled::Config::new()
        .path(dir.path())
        .cache_capacity(cache)
        .flush_every_ms(None)
        .mode(sled::Mode::HighThroughput)
        .open()
        .unwrap();
    let layout = CfLayout {
        id: 1,
        partitioner: Partitioner::Random,
        comparator: Comparator::Bytes,
        subcomparator: None,
    };
    let value = encode_cell(&Cell::Live {
        value: vec![b'v'; 34],
        timestamp: 1,
    });
    let start = Instant::now();
    std::thread::scope(|s| {
        for t in 0..2u64 {
            let db = &db;
            let value = &value;
            s.spawn(move || {
                for i in (t..n).step_by(2) {
                    let row = encode_row(Partitioner::Random, &format!("{i:07}"));
                    match mode {
                        0 => {
                            let mut b = sled::Batch::default();
                            for c in 0..5 {
                                b.insert(
                                    layout.column_key(&row, format!("C{c}").as_bytes()),
                                    value.clone(),
                                );
                            }
                            db.apply_batch(b).unwrap();
                        }
                        1 => {
                            for c in 0..5 {
                                db.insert(
                                    layout.column_key(&row, format!("C{c}").as_bytes()),
                                    value.clone(),
                                )
                                .unwrap();
                            }
                        }
                        _ => {
                            let mut v = Vec::new();
                            for _ in 0..5 {
                                v.extend_from_slice(value);
                            }
                            db.insert(layout.row_prefix(&row), v).unwrap();
                        }
                    }
                }
            });
        }
    });
    let el = start.elapsed();
    println!("{name}: {:.0} rows/s", n as f64 / el.as_secs_f64());
}
fn main() {
    let n = 200_000;
    run("batch 64M", 64 << 20, 0, n);
    run("5 inserts 64M", 64 << 20, 1, n);
    run("one value 64M", 64 << 20, 2, n);
    run("batch 512M", 512 << 20, 0, n);
    run("5 inserts 512M", 512 << 20, 1, n);
}
