//! Writing rows in sstable2json's layout (see the module above).

use crate::comparator::hex;
use crate::migrate::row::{Column, Row, RowBody, NO_DELETION};
use std::io::{self, Write};

/// Writes one JSON object, a row at a time.
pub struct JsonWriter<W: Write> {
    out: W,
    rows: u64,
}

impl<W: Write> JsonWriter<W> {
    /// Starts the object.
    pub fn new(mut out: W) -> io::Result<JsonWriter<W>> {
        out.write_all(b"{\n")?;
        Ok(JsonWriter { out, rows: 0 })
    }

    /// Appends one row (its tombstone, if any, is not part of this format).
    pub fn row(&mut self, row: &Row) -> io::Result<()> {
        if self.rows > 0 {
            self.out.write_all(b",\n")?;
        }
        self.rows += 1;
        let key = serde_json::to_string(&row.key).map_err(io::Error::other)?;
        write!(self.out, "  {key}: ")?;
        match &row.body {
            RowBody::Standard(cols) => self.columns(cols),
            RowBody::Super(supers) => {
                self.out.write_all(b"{ ")?;
                for (i, sc) in supers.iter().enumerate() {
                    if i > 0 {
                        self.out.write_all(b", ")?;
                    }
                    write!(
                        self.out,
                        "\"{}\": {{\"deletedAt\": {}, \"subColumns\": ",
                        hex(&sc.name),
                        sc.deleted_at.unwrap_or(NO_DELETION)
                    )?;
                    self.columns(&sc.columns)?;
                    self.out.write_all(b"}")?;
                }
                self.out.write_all(b"}")
            }
        }
    }

    fn columns(&mut self, cols: &[Column]) -> io::Result<()> {
        self.out.write_all(b"[")?;
        for (i, c) in cols.iter().enumerate() {
            if i > 0 {
                self.out.write_all(b", ")?;
            }
            write!(
                self.out,
                "[\"{}\", \"{}\", {}, {}]",
                hex(&c.name),
                hex(&c.value),
                c.timestamp,
                c.deleted
            )?;
        }
        self.out.write_all(b"]")
    }

    /// Closes the object and returns the writer, flushed.
    pub fn finish(mut self) -> io::Result<W> {
        if self.rows > 0 {
            self.out.write_all(b"\n")?;
        }
        self.out.write_all(b"}\n")?;
        self.out.flush()?;
        Ok(self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::migrate::row::SuperColumn;

    fn col(name: &[u8], value: &[u8], timestamp: i64, deleted: bool) -> Column {
        Column {
            name: name.to_vec(),
            value: value.to_vec(),
            timestamp,
            deleted,
        }
    }

    #[test]
    fn layout_matches_sstable2json() {
        let mut w = JsonWriter::new(Vec::new()).unwrap();
        w.row(&Row {
            key: "a\"b".into(),
            deleted_at: Some(3),
            body: RowBody::Standard(vec![
                col(b"n", b"", 1, false),
                col(b"m", b"\0\0\0\x01", -2, true),
            ]),
        })
        .unwrap();
        w.row(&Row {
            key: "s".into(),
            deleted_at: None,
            body: RowBody::Super(vec![
                SuperColumn {
                    name: b"x".to_vec(),
                    deleted_at: None,
                    columns: vec![],
                },
                SuperColumn {
                    name: b"y".to_vec(),
                    deleted_at: Some(7),
                    columns: vec![col(b"c", b"v", 8, false)],
                },
            ]),
        })
        .unwrap();
        w.row(&Row {
            key: "e".into(),
            deleted_at: None,
            body: RowBody::Super(vec![]),
        })
        .unwrap();
        let text = String::from_utf8(w.finish().unwrap()).unwrap();
        assert_eq!(
            text,
            "{\n  \"a\\\"b\": [[\"6e\", \"\", 1, false], [\"6d\", \"00000001\", -2, true]],\n  \
             \"s\": { \"78\": {\"deletedAt\": -9223372036854775808, \"subColumns\": []}, \
             \"79\": {\"deletedAt\": 7, \"subColumns\": [[\"63\", \"76\", 8, false]]}},\n  \
             \"e\": { }\n}\n"
        );
        assert_eq!(
            JsonWriter::new(Vec::new()).unwrap().finish().unwrap(),
            b"{\n}\n"
        );
    }
}
