//! The damaged-store target: a real database's engine contents — row keys, packed chunks of
//! cells (expiring ones, expired or not, among them) and deletion markers (range
//! tombstones among them), the catalog and
//! the generation meta keys — changed by the
//! fuzzer's edits, then opened and read and written through the API, with the watermark file
//! beside it holding fuzzer text too.

use super::test_config;
use crate::cf::{Clock, Db, DbOptions};
use crate::config::Config;
use crate::model::{Change, Column, RowMutation};
use crate::protocol::{
    CassandraSyncHandler, ColumnParent, ColumnPath, ConsistencyLevel, KeyRange, SlicePredicate,
    SliceRange,
};
use crate::service::{Service, Session};
use crate::storage::{Batch, Engine, MemoryEngine, Scan, SyncPolicy, Watermark};
use std::ops::Bound;
use std::path::Path;
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tempfile::TempDir;

/// Small chunks, so the seed's rows span several chunks and chunk boundaries can be damaged.
const CHUNK_BYTES: usize = 256;
const ONE: ConsistencyLevel = ConsistencyLevel::ONE;
const KS: &str = "Keyspace1";
/// The column families the seed writes to: (name, super, a column name they accept).
const FAMILIES: [(&str, bool, &[u8]); 5] = [
    ("Standard1", false, b"c03"),
    ("StdLong", false, &[0, 0, 0, 0, 0, 0, 0, 3]),
    ("Standard2", false, b"c03"),
    ("Super1", true, b"c03"),
    ("SuperLong", true, &[0, 0, 0, 0, 0, 0, 0, 3]),
];
const ROWS: [&str; 4] = ["r0", "r1", "r2", "r3"];

/// The in-memory engine with a watermark file, as the on-disk engines have.
struct Damaged {
    inner: MemoryEngine,
    watermark_dir: Option<TempDir>,
}

impl Engine for Damaged {
    fn get(&self, key: &[u8]) -> crate::Result<Option<Vec<u8>>> {
        self.inner.get(key)
    }
    fn scan(&self, lower: Bound<Vec<u8>>, upper: Bound<Vec<u8>>, reverse: bool) -> Scan<'_> {
        self.inner.scan(lower, upper, reverse)
    }
    fn apply(&self, batch: Batch) -> crate::Result<()> {
        self.inner.apply(batch)
    }
    fn sync(&self) -> crate::Result<()> {
        Ok(())
    }
    fn watermark(&self) -> Option<Watermark> {
        self.watermark_dir
            .as_ref()
            .map(|d| Watermark::in_dir(d.path()))
    }
}

fn config() -> &'static Arc<Config> {
    static CONFIG: OnceLock<Arc<Config>> = OnceLock::new();
    CONFIG.get_or_init(|| test_config("", Path::new(".")))
}

/// The clock of the damaged store's runs.
const NOW: u32 = 1_700_000_000;
/// The clock the seed is written at: its short-TTL columns have expired by [`NOW`].
const SEED_TIME: u32 = NOW - 100;

fn open(engine: Arc<dyn Engine>, now: u32) -> crate::Result<Arc<Db>> {
    let config = config();
    // A fixed clock keeps runs reproducible; no grace, so the purge finds every tombstone.
    let clock: Clock = Arc::new(move || now);
    let options = DbOptions {
        partitioner: config.partitioner,
        sync: SyncPolicy::Periodic(Duration::from_secs(3600)),
        gc_grace_seconds: 0,
        initial_token: None,
        chunk_bytes: CHUNK_BYTES,
        clock,
    };
    Db::open(engine, Arc::new(config.schema.clone()), options).map(Arc::new)
}

fn path(cf: &str, sup: bool, name: &[u8]) -> ColumnPath {
    match sup {
        true => ColumnPath::new(cf.into(), b"s1".to_vec(), name.to_vec()),
        false => ColumnPath::new(cf.into(), None, name.to_vec()),
    }
}

fn name(cf: &str, i: u8) -> Vec<u8> {
    match cf {
        "StdLong" | "SuperLong" => u64::from(i).to_be_bytes().to_vec(),
        _ => format!("c{i:02}").into_bytes(),
    }
}

/// Expiring columns in row r3 of every family, straight through `Db` (the 0.6 API has no
/// TTL): one expired by [`NOW`], one still live.
fn write_expiring(db: &Db) -> crate::Result<()> {
    for (cf, sup, _) in FAMILIES {
        let mut m = RowMutation::new(KS, "r3");
        for (i, ttl) in [(20u8, 10), (21, 1_000)] {
            let column = Column {
                name: name(cf, i),
                value: vec![b't'; 5],
                timestamp: 1_000,
                ttl: Some(ttl),
            };
            let super_column = sup.then(|| b"s1".to_vec());
            m.push(
                cf,
                Change::Insert {
                    super_column,
                    column,
                },
            );
        }
        db.apply(m)?.wait()?;
    }
    Ok(())
}

/// Range tombstones in row r1 of every family, straight through `Db` (the 0.6 API has no
/// range delete): over columns 2 to 4 and from column 9 on (in a Super family, over the
/// subcolumns of s1, and over the super columns from s2 on), so the seed holds markers
/// with ranges and with and without their own deletion.
fn write_ranges(db: &Db) -> crate::Result<()> {
    for (cf, sup, _) in FAMILIES {
        let mut m = RowMutation::new(KS, "r1");
        let super_column = sup.then(|| b"s1".to_vec());
        for (start, finish) in [(name(cf, 2), name(cf, 4)), (name(cf, 9), Vec::new())] {
            m.push(
                cf,
                Change::DeleteRange {
                    super_column: super_column.clone(),
                    start,
                    finish,
                    timestamp: 60,
                },
            );
        }
        if sup {
            m.push(
                cf,
                Change::DeleteRange {
                    super_column: None,
                    start: b"s2".to_vec(),
                    finish: Vec::new(),
                    timestamp: 60,
                },
            );
        }
        db.apply(m)?.wait()?;
    }
    Ok(())
}

/// Writes the seed data: every family, several chunks per row, column, super column and row
/// tombstones.
fn write_seed(s: &Session) -> thrift::Result<()> {
    for (cf, sup, _) in FAMILIES {
        for (r, row) in ROWS.iter().enumerate() {
            for i in 0..12u8 {
                let value = vec![b'a' + i; 4 + usize::from(i) * 3];
                let p = path(cf, sup, &name(cf, i));
                s.handle_insert(KS.into(), row.to_string(), p, value, i64::from(i) + 1, ONE)?;
            }
            let p = path(cf, sup, &name(cf, 5));
            s.handle_remove(KS.into(), row.to_string(), p, 100, ONE)?;
            if r == 2 {
                let whole = ColumnPath::new(cf.into(), None, None);
                s.handle_remove(KS.into(), row.to_string(), whole, 7, ONE)?;
            }
            if sup {
                let sc = ColumnPath::new(cf.into(), b"s2".to_vec(), None);
                let p = ColumnPath::new(cf.into(), b"s2".to_vec(), name(cf, 1));
                s.handle_insert(KS.into(), row.to_string(), p, b"v".to_vec(), 1, ONE)?;
                s.handle_remove(KS.into(), row.to_string(), sc, 50, ONE)?;
            }
        }
    }
    Ok(())
}

/// The engine contents of the seed database, in key order.
fn seed() -> &'static Vec<(Vec<u8>, Vec<u8>)> {
    static SEED: OnceLock<Vec<(Vec<u8>, Vec<u8>)>> = OnceLock::new();
    SEED.get_or_init(|| {
        let engine = Arc::new(MemoryEngine::new());
        let db = match open(engine.clone(), SEED_TIME) {
            Ok(db) => db,
            Err(e) => panic!("the seed database does not open: {e}"),
        };
        let service = Service::new(Arc::clone(&db), Arc::clone(config()));
        if let Err(e) = write_seed(&service.session()) {
            panic!("the seed data cannot be written: {e:?}");
        }
        if let Err(e) = write_expiring(&db) {
            panic!("the seed's expiring columns cannot be written: {e}");
        }
        if let Err(e) = write_ranges(&db) {
            panic!("the seed's range tombstones cannot be written: {e}");
        }
        if let Err(e) = db.close() {
            panic!("the seed database does not close: {e}");
        }
        let entries = engine.scan(Bound::Unbounded, Bound::Unbounded, false);
        match entries.collect::<crate::Result<Vec<_>>>() {
            Ok(entries) => entries,
            Err(e) => panic!("the seed database cannot be read back: {e}"),
        }
    })
}

/// Takes the next `n`-byte field of the edit list.
fn take<'a>(data: &mut &'a [u8], n: usize) -> &'a [u8] {
    let (field, rest) = data.split_at(n.min(data.len()));
    *data = rest;
    field
}

/// Applies the edits in `data` to the seed's entries. Each edit is an op byte, an entry
/// index byte, a length byte and that many payload bytes.
fn damage(data: &[u8], watermark: &mut Option<Vec<u8>>) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut entries = seed().clone();
    let mut data = data;
    while let [op, index, len, ..] = *data {
        data = &data[3..];
        let payload = take(&mut data, usize::from(len));
        if entries.is_empty() {
            entries.push((Vec::new(), Vec::new()));
        }
        let i = usize::from(index) % entries.len();
        let (key, value) = &mut entries[i];
        match op % 9 {
            0 => *value = payload.to_vec(),
            1 => *key = payload.to_vec(),
            2 => flip(value, payload),
            3 => flip(key, payload),
            4 => value.truncate(usize::from(len)),
            5 => key.truncate(usize::from(len)),
            6 => {
                let (k, v) = payload.split_at(payload.len() / 2);
                entries.push((k.to_vec(), v.to_vec()));
            }
            7 => {
                entries.remove(i);
            }
            _ => *watermark = Some(payload.to_vec()),
        }
    }
    entries
}

/// XORs `mask` into `bytes` at the offset its first byte gives.
fn flip(bytes: &mut [u8], mask: &[u8]) {
    let Some((&at, mask)) = mask.split_first() else {
        return;
    };
    let at = usize::from(at);
    for (b, m) in bytes.iter_mut().skip(at).zip(mask) {
        *b ^= m;
    }
}

/// Puts `text` in the watermark file of `dir`: the file is made by the watermark itself (so
/// its name stays the watermark's business), then overwritten.
fn write_watermark(dir: &Path, text: &[u8]) {
    if let Err(e) = Watermark::in_dir(dir).advance(1, true) {
        panic!("cannot write a watermark: {e}");
    }
    let file = std::fs::read_dir(dir)
        .ok()
        .and_then(|mut files| files.next())
        .and_then(|f| f.ok());
    let Some(file) = file else {
        panic!("the watermark wrote no file in {}", dir.display());
    };
    if let Err(e) = std::fs::write(file.path(), text) {
        panic!("cannot overwrite the watermark: {e}");
    }
}

fn predicate(reversed: bool, count: i32) -> SlicePredicate {
    SlicePredicate::new(
        None,
        SliceRange::new(Vec::new(), Vec::new(), reversed, count),
    )
}

/// Every read the API offers, on every family and row; results and errors are dropped.
fn read_all(s: &Session) {
    let keys: Vec<String> = ROWS.iter().map(|r| r.to_string()).collect();
    for (cf, sup, col) in FAMILIES {
        let parent = ColumnParent::new(cf.into(), None);
        let range = KeyRange::new(String::new(), String::new(), None, None, 100);
        let _ =
            s.handle_get_range_slices(KS.into(), parent.clone(), predicate(false, 100), range, ONE);
        let _ = s.handle_get_range_slice(
            KS.into(),
            parent.clone(),
            predicate(true, 3),
            "".into(),
            "".into(),
            10,
            ONE,
        );
        let _ = s.handle_multiget_slice(
            KS.into(),
            keys.clone(),
            parent.clone(),
            predicate(true, 100),
            ONE,
        );
        let _ = s.handle_multiget(KS.into(), keys.clone(), path(cf, sup, col), ONE);
        for key in &keys {
            let _ = s.handle_get_slice(
                KS.into(),
                key.clone(),
                parent.clone(),
                predicate(false, 100),
                ONE,
            );
            let _ = s.handle_get_count(KS.into(), key.clone(), parent.clone(), ONE);
            let _ = s.handle_get(KS.into(), key.clone(), path(cf, sup, col), ONE);
            if sup {
                let sub = ColumnParent::new(cf.into(), b"s1".to_vec());
                let _ = s.handle_get_slice(KS.into(), key.clone(), sub, predicate(true, 5), ONE);
            }
        }
    }
}

/// Writes over what is stored: a cell into an existing row, and column and row deletions.
fn write_some(s: &Session) {
    for (cf, sup, col) in FAMILIES {
        let _ = s.handle_insert(
            KS.into(),
            "r1".into(),
            path(cf, sup, col),
            b"new".to_vec(),
            200,
            ONE,
        );
        let _ = s.handle_remove(KS.into(), "r0".into(), path(cf, sup, col), 300, ONE);
        let _ = s.handle_remove(
            KS.into(),
            "r1".into(),
            ColumnPath::new(cf.into(), None, None),
            400,
            ONE,
        );
    }
}

/// Target `store`: `data` is a list of edits to the engine contents of a seed database (and
/// optionally the text of its watermark file). The damaged store is opened, read through
/// every read call, written to, purged of tombstones and read again. Checks: every damage
/// ends in a returned error or in data, never a panic or a hang.
pub fn corrupted(data: &[u8]) {
    let mut watermark = None;
    let entries = damage(data, &mut watermark);
    let watermark_dir = match watermark {
        None => None,
        Some(text) => {
            let dir = match tempfile::tempdir() {
                Ok(dir) => dir,
                Err(e) => panic!("no temporary directory: {e}"),
            };
            write_watermark(dir.path(), &text);
            Some(dir)
        }
    };
    let engine = Damaged {
        inner: MemoryEngine::new(),
        watermark_dir,
    };
    let mut batch = Batch::default();
    for (key, value) in entries {
        batch.put(key, value);
    }
    if let Err(e) = engine.inner.apply(batch) {
        panic!("the in-memory engine refused a batch: {e}");
    }
    let Ok(db) = open(Arc::new(engine), NOW) else {
        return;
    };
    let service = Service::new(Arc::clone(&db), Arc::clone(config()));
    let session = service.session();
    read_all(&session);
    write_some(&session);
    let _ = db.purge_expired_tombstones();
    read_all(&session);
    let _ = db.close();
}
