//! Unit tests of the streaming JSON reader: shapes, layout freedom and clear errors.

use super::*;
use crate::comparator::Comparator;
use crate::migrate::json::JsonWriter;

const STANDARD: CfShape = CfShape {
    is_super: false,
    comparator: Comparator::Bytes,
    subcomparator: Comparator::Bytes,
};
const SUPER: CfShape = CfShape {
    is_super: true,
    ..STANDARD
};

fn rows(text: &str, shape: CfShape) -> Result<Vec<Row>> {
    let mut reader = JsonRows::new(text.as_bytes(), "t.json", shape);
    let mut out = Vec::new();
    while let Some(row) = reader.next_row()? {
        out.push(row);
    }
    Ok(out)
}

fn err(text: &str, shape: CfShape) -> String {
    rows(text, shape).unwrap_err().to_string()
}

#[test]
fn reads_standard_and_super_rows_in_any_layout() {
    let got = rows(
        r#" { "a" : [ ["6e", "", 1, false] , ["6d","00000001",-2,true] ],"b\u00e9": [] } "#,
        STANDARD,
    )
    .unwrap();
    assert_eq!(got.len(), 2);
    assert_eq!(got[1].key, "bé");
    let RowBody::Standard(cols) = &got[0].body else {
        panic!()
    };
    assert_eq!(cols[1].timestamp, -2);
    assert!(cols[1].deleted);

    let got = rows(
        r#"{"s": { "78": {"deletedAt": -9223372036854775808, "subColumns": []}, "79": {"deletedAt": 7, "subColumns": [["63", "76", 8, false]]}}}"#,
        SUPER,
    )
    .unwrap();
    let RowBody::Super(supers) = &got[0].body else {
        panic!()
    };
    assert_eq!(supers[0].deleted_at, None);
    assert_eq!(supers[1].deleted_at, Some(7));
    assert_eq!(rows("{}", STANDARD).unwrap(), vec![]);
}

#[test]
fn what_the_writer_writes_reads_back() {
    let original = rows(r#"{"k]\"{": [["ff", "00", 5, false]], "x": []}"#, STANDARD).unwrap();
    let mut w = JsonWriter::new(Vec::new()).unwrap();
    for r in &original {
        w.row(r).unwrap();
    }
    let text = String::from_utf8(w.finish().unwrap()).unwrap();
    assert_eq!(rows(&text, STANDARD).unwrap(), original);
}

#[test]
fn errors_name_the_problem_and_line() {
    assert!(err("", STANDARD).contains("'{' at the start"));
    assert!(err("{\n\"a\": [[\"zz\", \"\", 1, false]]}", STANDARD).contains("line 2"));
    assert!(err(r#"{"a": [["zz", "", 1, false]]}"#, STANDARD).contains("is not hex"));
    assert!(err(r#"{"a": [["6e", "", 1.5, false]]}"#, STANDARD).contains("64-bit integer"));
    assert!(err(r#"{"a": [["6e", "", 1]]}"#, STANDARD).contains("must be [name_hex"));
    assert!(err(r#"{"a": {}}"#, STANDARD).contains("is a Super row"));
    assert!(err(r#"{"a": []}"#, SUPER).contains("is a Standard row"));
    assert!(err(r#"{"a": [] "b": []}"#, STANDARD).contains("expected ',' or '}'"));
    assert!(err(r#"{"a": []} x"#, STANDARD).contains("after the closing"));
    assert!(err(r#"{"a": [["6e", "", 1, false]"#, STANDARD).contains("ends inside a row"));
    assert!(err(r#"{"a": [["6e", "", 1, false]], }"#, STANDARD).contains("row key"));
    assert!(err(r#"{"a": 5}"#, STANDARD).contains("expected a list"));
    let long = CfShape {
        comparator: Comparator::Long,
        ..STANDARD
    };
    assert!(err(r#"{"a": [["6e", "", 1, false]]}"#, long).contains("not a valid LongType"));
    assert!(err(r#"{"s": {"78": {"subColumns": []}}}"#, SUPER).contains("no deletedAt"));
}

proptest::proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..200)) {
        for shape in [STANDARD, SUPER] {
            let mut reader = JsonRows::new(bytes.as_slice(), "t.json", shape);
            while let Ok(Some(_)) = reader.next_row() {}
        }
    }

    #[test]
    fn mangled_valid_text_never_panics(cut in 0usize..120, flip in 0usize..120, byte in proptest::prelude::any::<u8>()) {
        let text = br#"{"a": [["6e", "76", 1, false]], "s": { "78": {"deletedAt": 7, "subColumns": [["63", "", 8, true]]}}}"#;
        let mut bytes = text[..cut.min(text.len())].to_vec();
        if let Some(b) = bytes.get_mut(flip) {
            *b = byte;
        }
        for shape in [STANDARD, SUPER] {
            let mut reader = JsonRows::new(bytes.as_slice(), "t.json", shape);
            while let Ok(Some(_)) = reader.next_row() {}
        }
    }
}
