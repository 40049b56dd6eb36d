//! Unit tests of the data-file reader on files built byte by byte as `docs/migrate.md#what-is-read`
//! describes.

use super::*;
use crate::comparator::Comparator;

const STANDARD: CfShape = CfShape {
    is_super: false,
    comparator: Comparator::Bytes,
    subcomparator: Comparator::Bytes,
};
const SUPER: CfShape = CfShape {
    is_super: true,
    ..STANDARD
};

fn column(out: &mut Vec<u8>, name: &[u8], deleted: bool, ts: i64, value: &[u8]) {
    out.extend_from_slice(&(name.len() as u16).to_be_bytes());
    out.extend_from_slice(name);
    out.push(u8::from(deleted));
    out.extend_from_slice(&ts.to_be_bytes());
    out.extend_from_slice(&(value.len() as i32).to_be_bytes());
    out.extend_from_slice(value);
}

/// A row: key (disk form), row tombstone, entry count and the serialized entries.
fn row(out: &mut Vec<u8>, key: &str, deleted_at: i64, count: i32, entries: &[u8]) {
    let mut body = Vec::new();
    body.extend_from_slice(&3i32.to_be_bytes()); // a 3-byte stand-in bloom filter
    body.extend_from_slice(&[1, 2, 3]);
    body.extend_from_slice(&0i32.to_be_bytes()); // no column index
    body.extend_from_slice(&i32::MIN.to_be_bytes());
    body.extend_from_slice(&deleted_at.to_be_bytes());
    body.extend_from_slice(&count.to_be_bytes());
    body.extend_from_slice(entries);
    out.extend_from_slice(&(key.len() as u16).to_be_bytes());
    out.extend_from_slice(key.as_bytes());
    out.extend_from_slice(&(body.len() as i32).to_be_bytes());
    out.extend_from_slice(&body);
}

fn read_all(bytes: &[u8], shape: CfShape, p: Partitioner) -> Result<Vec<FileRow>> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("Cf-1-Data.db");
    std::fs::write(&path, bytes).unwrap();
    let mut file = DataFile::open(&path, shape, p)?;
    let mut rows = Vec::new();
    while let Some(r) = file.next_row()? {
        rows.push(r);
    }
    Ok(rows)
}

fn standard_file() -> Vec<u8> {
    let mut cols = Vec::new();
    column(&mut cols, b"a", false, 5, b"va");
    column(&mut cols, b"b", true, 6, &100i32.to_be_bytes());
    let mut file = Vec::new();
    row(&mut file, "a", i64::MIN, 2, &cols);
    row(&mut file, "b", 9, 0, &[]);
    file
}

#[test]
fn reads_columns_tombstones_and_row_tombstones() {
    let rows = read_all(&standard_file(), STANDARD, Partitioner::OrderPreserving).unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].row.key, "a");
    assert_eq!(rows[0].row.deleted_at, None);
    let RowBody::Standard(cols) = &rows[0].row.body else {
        panic!("standard row expected")
    };
    assert_eq!(cols[0].value, b"va");
    assert!(!cols[0].deleted);
    assert!(cols[1].deleted);
    assert_eq!(cols[1].timestamp, 6);
    assert_eq!(rows[1].row.deleted_at, Some(9));
    assert_eq!(rows[1].offset, rows[0].offset + 2 + 1 + 4 + 65);
}

#[test]
fn reads_super_columns_with_their_tombstones() {
    let mut sc = Vec::new();
    sc.extend_from_slice(&2u16.to_be_bytes());
    sc.extend_from_slice(b"sc");
    sc.extend_from_slice(&1_700_000_000i32.to_be_bytes());
    sc.extend_from_slice(&7i64.to_be_bytes());
    sc.extend_from_slice(&1i32.to_be_bytes());
    column(&mut sc, b"x", false, 8, b"v");
    let mut file = Vec::new();
    row(&mut file, "k", i64::MIN, 1, &sc);
    let rows = read_all(&file, SUPER, Partitioner::OrderPreserving).unwrap();
    let RowBody::Super(supers) = &rows[0].row.body else {
        panic!("super row expected")
    };
    assert_eq!(supers[0].deleted_at, Some(7));
    assert_eq!(supers[0].columns[0].name, b"x");
    // The same bytes read as a Standard CF do not parse, and the error says why.
    let e = read_all(&file, STANDARD, Partitioner::OrderPreserving).unwrap_err();
    assert!(e.to_string().contains("is a Super row"), "{e}");
}

#[test]
fn every_truncation_and_byte_flip_is_an_error_not_a_panic() {
    let file = standard_file();
    let first_row_end = 72;
    for cut in (1..file.len()).filter(|c| *c != first_row_end) {
        assert!(
            read_all(&file[..cut], STANDARD, Partitioner::OrderPreserving).is_err(),
            "truncated at {cut}"
        );
    }
    for at in 0..file.len() {
        for flip in [0x80u8, 0xff, 0x01] {
            let mut bad = file.clone();
            bad[at] ^= flip;
            // Any outcome but a panic is fine; most flips must be caught.
            let _ = read_all(&bad, STANDARD, Partitioner::OrderPreserving);
            let _ = read_all(&bad, SUPER, Partitioner::Random);
        }
    }
}

#[test]
fn huge_claimed_lengths_are_refused_before_allocating() {
    let mut file = Vec::new();
    file.extend_from_slice(&1u16.to_be_bytes());
    file.push(b'k');
    file.extend_from_slice(&i32::MAX.to_be_bytes());
    let e = read_all(&file, STANDARD, Partitioner::OrderPreserving).unwrap_err();
    assert!(e.to_string().contains("the file has 0 left"), "{e}");
    let mut file = Vec::new();
    row(&mut file, "k", i64::MIN, i32::MAX, &[]);
    let e = read_all(&file, STANDARD, Partitioner::OrderPreserving).unwrap_err();
    assert!(e.to_string().contains("cannot fit"), "{e}");
}

#[test]
fn rows_out_of_order_or_with_trailing_bytes_are_refused() {
    let mut file = Vec::new();
    row(&mut file, "b", i64::MIN, 0, &[]);
    row(&mut file, "a", i64::MIN, 0, &[]);
    let e = read_all(&file, STANDARD, Partitioner::OrderPreserving).unwrap_err();
    assert!(
        e.to_string()
            .contains("out of OrderPreservingPartitioner order"),
        "{e}"
    );

    let mut file = Vec::new();
    row(&mut file, "a", i64::MIN, 0, &[0]);
    let e = read_all(&file, STANDARD, Partitioner::OrderPreserving).unwrap_err();
    assert!(e.to_string().contains("after the last column"), "{e}");
}

#[test]
fn names_in_the_wrong_comparator_order_are_refused() {
    let mut cols = Vec::new();
    column(&mut cols, &2i64.to_be_bytes(), false, 1, b"");
    column(&mut cols, &(-1i64).to_be_bytes(), false, 1, b"");
    let mut file = Vec::new();
    row(&mut file, "k", i64::MIN, 2, &cols);
    assert!(read_all(&file, STANDARD, Partitioner::OrderPreserving).is_ok());
    let long = CfShape {
        comparator: Comparator::Long,
        ..STANDARD
    };
    let e = read_all(&file, long, Partitioner::OrderPreserving).unwrap_err();
    assert!(e.to_string().contains("not in LongType order"), "{e}");
}

proptest::proptest! {
    #[test]
    fn arbitrary_files_never_panic(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300)) {
        for shape in [STANDARD, SUPER] {
            for p in Partitioner::ALL {
                let _ = read_all(&bytes, shape, p);
            }
        }
    }
}
