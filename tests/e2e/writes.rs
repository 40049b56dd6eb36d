//! insert and remove over real sockets (`docs/api.md#reconcile`, `#tombstones`), each wire
//! style on its own row keys, checked by reading back: a higher timestamp wins, equal
//! timestamps go to the tombstone or else the greater value, a remove hides only what is not
//! newer, row removes are per column family, and super column and subcolumn removes on a Super
//! CF. The read-back helpers here are shared with `writes_batch`.

use crate::cases::ONE;
use crate::harness::{tag, Options, Server, KS};
use crate::values::*;
use ilion::client::{Client, TCassandraSyncClient, WireStyle};
use ilion::protocol::{ColumnParent, ColumnPath};

/// The value of one column, or None when it is not found.
pub fn value(c: &mut Client, key: &str, p: ColumnPath) -> Option<Vec<u8>> {
    match c.get(KS.into(), key.into(), p, ONE) {
        Ok(cosc) => Some(cosc.column.expect("a column").value),
        Err(e) => match outcome::<()>(Err(e)) {
            Outcome::NotFound => None,
            other => panic!("get failed: {other:?}"),
        },
    }
}

/// `insert` of `v` at `ts`.
pub fn put_at(c: &mut Client, key: &str, p: ColumnPath, v: &str, ts: i64) {
    c.insert(KS.into(), key.into(), p, v.as_bytes().to_vec(), ts, ONE)
        .unwrap();
}

/// `remove` at `ts`.
pub fn remove_at(c: &mut Client, key: &str, p: ColumnPath, ts: i64) {
    c.remove(KS.into(), key.into(), p, ts, ONE).unwrap();
}

/// The names a full get_slice returns.
pub fn names_in(c: &mut Client, key: &str, cp: ColumnParent) -> Vec<Vec<u8>> {
    result_names(&c.get_slice(KS.into(), key.into(), cp, all(), ONE).unwrap())
}

#[test]
fn insert_and_remove_reconcile_by_timestamp() {
    let server = Server::start(Options::default());
    for style in WireStyle::ALL {
        let mut c = server.client(style);
        let k = tag(style);
        let p = || cpath("Standard1", b"c");
        put_at(&mut c, k, p(), "old", 10);
        put_at(&mut c, k, p(), "older", 9);
        assert_eq!(
            value(&mut c, k, p()).as_deref(),
            Some(&b"old"[..]),
            "{k}: lower timestamp loses"
        );
        put_at(&mut c, k, p(), "m", 11);
        put_at(&mut c, k, p(), "z", 11);
        put_at(&mut c, k, p(), "a", 11);
        assert_eq!(
            value(&mut c, k, p()).as_deref(),
            Some(&b"z"[..]),
            "{k}: equal timestamps, greater value wins"
        );
        remove_at(&mut c, k, p(), 10);
        assert!(
            value(&mut c, k, p()).is_some(),
            "{k}: an older remove does nothing visible"
        );
        remove_at(&mut c, k, p(), 11);
        assert_eq!(
            value(&mut c, k, p()),
            None,
            "{k}: equal timestamps, the tombstone wins"
        );
        put_at(&mut c, k, p(), "again", 11);
        assert_eq!(
            value(&mut c, k, p()),
            None,
            "{k}: an insert at the delete's timestamp stays hidden"
        );
        put_at(&mut c, k, p(), "again", 12);
        assert_eq!(value(&mut c, k, p()).as_deref(), Some(&b"again"[..]), "{k}");

        // Row delete at 3: inserts at 0 stay hidden, at 4 are visible; other CFs untouched.
        put_at(&mut c, k, cpath("Standard2", b"x"), "other cf", 1);
        remove_at(&mut c, k, path("Standard1", None, None), 13);
        assert!(
            names_in(&mut c, k, parent("Standard1", None)).is_empty(),
            "{k}"
        );
        put_at(&mut c, k, cpath("Standard1", b"d"), "hidden", 0);
        put_at(&mut c, k, cpath("Standard1", b"e"), "shown", 14);
        assert_eq!(
            names_in(&mut c, k, parent("Standard1", None)),
            [b"e".to_vec()],
            "{k}"
        );
        assert_eq!(
            value(&mut c, k, cpath("Standard2", b"x")).as_deref(),
            Some(&b"other cf"[..]),
            "{k}"
        );

        // Super CF: subcolumn, super column and row removes; newer subcolumns survive.
        for (sc, sub) in [(b"s1", b"a"), (b"s1", b"b"), (b"s2", b"a"), (b"s3", b"a")] {
            put_at(&mut c, k, path("Super1", Some(sc), Some(sub)), "v", 1);
        }
        remove_at(&mut c, k, path("Super1", Some(b"s1"), Some(b"a")), 1);
        remove_at(&mut c, k, path("Super1", Some(b"s2"), None), 1);
        assert_eq!(
            names_in(&mut c, k, parent("Super1", None)),
            [b"s1".to_vec(), b"s3".to_vec()],
            "{k}"
        );
        assert_eq!(
            names_in(&mut c, k, parent("Super1", Some(b"s1"))),
            [b"b".to_vec()],
            "{k}"
        );
        remove_at(&mut c, k, path("Super1", None, None), 2);
        put_at(&mut c, k, path("Super1", Some(b"s3"), Some(b"z")), "v", 3);
        let got = c
            .get_slice(KS.into(), k.into(), parent("Super1", None), all(), ONE)
            .unwrap();
        assert_eq!(
            got,
            vec![cosc_super(b"s3", vec![col(b"z", b"v", 3)])],
            "{k}: only the new subcolumn"
        );
    }
}
