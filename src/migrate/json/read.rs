//! Reading sstable2json text one row at a time (see the module above). The walk over the
//! top-level object is by hand because serde_json cannot stop between the members of one
//! object; each member's value is cut out (strings and escapes respected) and parsed by
//! serde_json, then checked against the column family's shape: the row kind, hex names and
//! values, integer timestamps and names valid for the comparators.

use crate::error::{Error, Result};
use crate::migrate::row::{deletion, Column, Row, RowBody, SuperColumn};
use crate::migrate::shape::CfShape;
use serde_json::Value;
use std::io::BufRead;

/// Where the walk is in the top-level object.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Start,
    First,
    Next,
    Done,
}

/// The rows of one JSON file, in file order.
pub struct JsonRows<R: BufRead> {
    input: R,
    source: String,
    shape: CfShape,
    state: State,
    line: u64,
    bytes: u64,
    buf: Vec<u8>,
}

impl<R: BufRead> JsonRows<R> {
    /// Reads `input` (named `source` in messages) as rows of a CF of `shape`.
    pub fn new(input: R, source: &str, shape: CfShape) -> JsonRows<R> {
        JsonRows {
            input,
            source: source.to_string(),
            shape,
            state: State::Start,
            line: 1,
            bytes: 0,
            buf: Vec::new(),
        }
    }

    /// Bytes consumed so far.
    pub fn bytes_read(&self) -> u64 {
        self.bytes
    }

    fn error(&self, message: impl std::fmt::Display) -> Error {
        Error::InvalidRequest(format!("{} line {}: {message}", self.source, self.line))
    }

    fn peek(&mut self) -> Result<Option<u8>> {
        let buf = self
            .input
            .fill_buf()
            .map_err(|e| Error::Storage(format!("cannot read {}: {e}", self.source)))?;
        Ok(buf.first().copied())
    }

    fn bump(&mut self) -> Result<Option<u8>> {
        let b = self.peek()?;
        if let Some(b) = b {
            self.input.consume(1);
            self.bytes += 1;
            if b == b'\n' {
                self.line += 1;
            }
        }
        Ok(b)
    }

    /// The next byte that is not JSON whitespace (consumed).
    fn next_token(&mut self) -> Result<Option<u8>> {
        loop {
            match self.bump()? {
                Some(b' ' | b'\t' | b'\n' | b'\r') => continue,
                other => return Ok(other),
            }
        }
    }

    fn expect(&mut self, want: u8, what: &str) -> Result<()> {
        match self.next_token()? {
            Some(b) if b == want => Ok(()),
            Some(b) => Err(self.error(format!("expected {what}, found {:?}", b as char))),
            None => Err(self.error(format!("expected {what}, found the end of the input"))),
        }
    }

    /// Copies a JSON string (its opening quote already consumed) into `buf`, quotes included.
    fn string_into_buf(&mut self) -> Result<()> {
        self.buf.push(b'"');
        loop {
            let Some(b) = self.bump()? else {
                return Err(self.error("unterminated string"));
            };
            self.buf.push(b);
            match b {
                b'"' => return Ok(()),
                b'\\' => match self.bump()? {
                    Some(e) => self.buf.push(e),
                    None => return Err(self.error("unterminated string")),
                },
                _ => {}
            }
        }
    }

    /// Copies one array or object value (first byte `open` already consumed) into `buf`.
    fn value_into_buf(&mut self, open: u8) -> Result<()> {
        self.buf.push(open);
        let mut depth = 1usize;
        while depth > 0 {
            let Some(b) = self.bump()? else {
                return Err(self.error("the input ends inside a row"));
            };
            match b {
                b'"' => self.string_into_buf()?,
                b'[' | b'{' => {
                    depth += 1;
                    self.buf.push(b);
                }
                b']' | b'}' => {
                    depth -= 1;
                    self.buf.push(b);
                }
                _ => self.buf.push(b),
            }
        }
        Ok(())
    }

    /// The next row, or `None` after the closing brace (and nothing but whitespace after it).
    pub fn next_row(&mut self) -> Result<Option<Row>> {
        match self.state {
            State::Done => return Ok(None),
            State::Start => {
                self.expect(b'{', "'{' at the start of the file")?;
                self.state = State::First;
            }
            State::First | State::Next => {}
        }
        let first = self.next_token()?;
        let first = match (self.state, first) {
            (_, Some(b'}')) if self.state == State::First => return self.finish(),
            (State::Next, Some(b'}')) => return self.finish(),
            (State::Next, Some(b',')) => self.next_token()?,
            (State::Next, _) => return Err(self.error("expected ',' or '}' after a row")),
            (_, first) => first,
        };
        if first != Some(b'"') {
            return Err(self.error("expected a row key (a JSON string)"));
        }
        self.buf.clear();
        self.string_into_buf()?;
        let key: String = serde_json::from_slice(&self.buf)
            .map_err(|e| self.error(format!("bad row key: {e}")))?;
        self.expect(b':', "':' after the row key")?;
        let open = match self.next_token()? {
            Some(b @ (b'[' | b'{')) => b,
            _ => {
                return Err(self.error(format!(
                    "row {key:?}: expected a list of columns or an object of super columns"
                )))
            }
        };
        let line = self.line;
        self.buf.clear();
        self.value_into_buf(open)?;
        let value: Value = serde_json::from_slice(&self.buf)
            .map_err(|e| self.error(format!("row {key:?}: {e}")))?;
        self.buf = Vec::new();
        self.state = State::Next;
        let row = to_row(key, value, self.shape)
            .map_err(|e| Error::InvalidRequest(format!("{} line {line}: {e}", self.source)))?;
        Ok(Some(row))
    }

    fn finish(&mut self) -> Result<Option<Row>> {
        if let Some(b) = self.next_token()? {
            return Err(self.error(format!("unexpected {:?} after the closing '}}'", b as char)));
        }
        self.state = State::Done;
        Ok(None)
    }
}

/// Converts one parsed row value, checking it against the CF's shape.
fn to_row(key: String, value: Value, shape: CfShape) -> Result<Row, String> {
    let body = match value {
        Value::Array(cols) if !shape.is_super => RowBody::Standard(columns(&key, cols)?),
        Value::Object(supers) if shape.is_super => {
            let mut out = Vec::with_capacity(supers.len());
            for (name, sc) in supers {
                out.push(super_column(&key, &name, sc)?);
            }
            RowBody::Super(out)
        }
        Value::Array(_) => {
            return Err(format!(
                "row {key:?} is a Standard row (a list of columns), but the CF is {}",
                shape.describe()
            ))
        }
        _ => {
            return Err(format!(
                "row {key:?} is a Super row (an object of super columns), but the CF is {}",
                shape.describe()
            ))
        }
    };
    let row = Row {
        key,
        deleted_at: None,
        body,
    };
    shape
        .check_row(&row, false)
        .map_err(|e| format!("row {:?}: {e}", row.key))?;
    Ok(row)
}

fn unhex(key: &str, what: &str, text: &str) -> Result<Vec<u8>, String> {
    hex::decode(text).map_err(|e| format!("row {key:?}: {what} {text:?} is not hex: {e}"))
}

fn timestamp(key: &str, what: &str, v: &Value) -> Result<i64, String> {
    v.as_i64()
        .ok_or_else(|| format!("row {key:?}: {what} {v} is not a 64-bit integer"))
}

fn columns(key: &str, cols: Vec<Value>) -> Result<Vec<Column>, String> {
    cols.into_iter().map(|c| column(key, c)).collect()
}

fn column(key: &str, col: Value) -> Result<Column, String> {
    let shape_error = || {
        format!(
            "row {key:?}: a column must be [name_hex, value_hex, timestamp, deleted], not {col}"
        )
    };
    let Value::Array(fields) = &col else {
        return Err(shape_error());
    };
    let [Value::String(name), Value::String(value), ts, Value::Bool(deleted)] = fields.as_slice()
    else {
        return Err(shape_error());
    };
    let name = unhex(key, "column name", name)?;
    Ok(Column {
        value: unhex(key, "value of column", value)?,
        timestamp: timestamp(key, "timestamp", ts)?,
        deleted: *deleted,
        name,
    })
}

fn super_column(key: &str, name: &str, sc: Value) -> Result<SuperColumn, String> {
    let name_bytes = unhex(key, "super column name", name)?;
    let Value::Object(mut fields) = sc else {
        return Err(format!(
            "row {key:?}: super column {name} must be {{\"deletedAt\": …, \"subColumns\": […]}}"
        ));
    };
    let deleted_at = fields
        .get("deletedAt")
        .ok_or_else(|| format!("row {key:?}: super column {name} has no deletedAt"))?;
    let deleted_at = deletion(timestamp(key, "deletedAt", deleted_at)?);
    let Some(Value::Array(cols)) = fields.remove("subColumns") else {
        return Err(format!(
            "row {key:?}: super column {name} has no subColumns list"
        ));
    };
    if let Some(other) = fields.keys().find(|k| *k != "deletedAt") {
        return Err(format!(
            "row {key:?}: super column {name} has an unknown field {other:?}"
        ));
    }
    Ok(SuperColumn {
        name: name_bytes,
        deleted_at,
        columns: columns(key, cols)?,
    })
}

#[cfg(test)]
#[path = "read_tests.rs"]
mod tests;
