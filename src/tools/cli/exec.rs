//! Runs one [`Statement`] against the session's server and writes its result the way 0.6's
//! cli printed it (`=> (column=…, value=…, timestamp=…)`, `Returned N results.`, `Value
//! inserted.`, `N columns`, `column removed.`), plus `list`'s `RowKey:` blocks. A failure is
//! returned as the one line to print on standard error.

use super::format::{display_value, encode_value, NameType};
use super::help::HELP;
use super::parser::{Literal, Path, Show, Statement};
use super::session::{is_not_found, CfMeta, Session};
use crate::client::TCassandraSyncClient;
use crate::protocol::{
    Column, ColumnOrSuperColumn, ColumnParent, ColumnPath, ConsistencyLevel, KeyRange,
    SlicePredicate, SliceRange,
};
use std::io::Write;
use std::time::{SystemTime, UNIX_EPOCH};

/// Columns a `get` of a row or super column asks for, as 0.6's cli did.
const GET_COUNT: i32 = 1_000_000;
/// Rows `list` shows without `limit`.
const LIST_DEFAULT_LIMIT: i32 = 100;
/// Every statement reads and writes at ONE, as 0.6's cli did.
const CL: ConsistencyLevel = ConsistencyLevel::ONE;

/// What the loop does after a statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// Runs `stmt`, writing its output to `out`.
pub fn execute(s: &mut Session, stmt: &Statement, out: &mut dyn Write) -> Result<Flow, String> {
    let mut w = Out(out);
    match stmt {
        Statement::Quit => return Ok(Flow::Quit),
        Statement::Help => w.text(HELP)?,
        Statement::Connect { host, port } => {
            s.host.clone_from(host);
            s.port = *port;
            let cluster = s.connect()?;
            w.line(&format!("Connected to: \"{cluster}\" on {host}/{port}"))?;
        }
        Statement::Show(show) => self::show(s, *show, &mut w)?,
        Statement::Describe { keyspace } => {
            let ks = s.resolve_keyspace(keyspace.as_deref())?;
            describe(s, &ks, &mut w)?;
        }
        Statement::Use { keyspace, login } => {
            if login.is_some() {
                s.credentials.clone_from(login);
            }
            s.keyspace_meta(keyspace)?;
            s.login(keyspace)?;
            s.keyspace = Some(keyspace.clone());
            if s.credentials.is_some() {
                w.line(&format!("Authenticated to keyspace: {keyspace}"))?;
            } else {
                w.line(&format!("Using keyspace {keyspace}."))?;
            }
        }
        Statement::Set {
            path,
            value,
            timestamp,
        } => set(s, path, value, *timestamp, &mut w)?,
        Statement::Get { path } => get(s, path, &mut w)?,
        Statement::Count { path } => {
            let (ks, meta) = target(s, path)?;
            let sc = match path.names.as_slice() {
                [] => None,
                [sc] if meta.is_super => Some(meta.names.encode(sc)?),
                _ => {
                    return Err(
                        "count takes a row, or a super column of a Super column family.".into(),
                    )
                }
            };
            let parent = ColumnParent::new(path.column_family.clone(), sc);
            let key = path.key.clone();
            let n = s.call(|c| c.get_count(ks, key, parent, CL))?;
            w.line(&format!("{n} columns"))?;
        }
        Statement::Del { path, timestamp } => {
            let (ks, meta) = target(s, path)?;
            let column_path = column_path(path, meta)?;
            let what = if path.names.is_empty() {
                "row"
            } else {
                "column"
            };
            let key = path.key.clone();
            let ts = timestamp.unwrap_or_else(now_micros);
            s.call(|c| c.remove(ks, key, column_path, ts, CL))?;
            w.line(&format!("{what} removed."))?;
        }
        Statement::List {
            keyspace,
            column_family,
            limit,
        } => list(s, keyspace.as_deref(), column_family, *limit, &mut w)?,
    }
    Ok(Flow::Continue)
}

/// Writes to the output, turning an I/O error (a closed pipe) into a message.
struct Out<'a>(&'a mut dyn Write);

impl Out<'_> {
    fn text(&mut self, s: &str) -> Result<(), String> {
        self.0
            .write_all(s.as_bytes())
            .and_then(|()| self.0.flush())
            .map_err(|e| format!("cannot write the output: {e}"))
    }

    fn line(&mut self, s: &str) -> Result<(), String> {
        self.text(&format!("{s}\n"))
    }
}

fn now_micros() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_micros()).unwrap_or(i64::MAX))
}

fn show(s: &mut Session, show: Show, w: &mut Out<'_>) -> Result<(), String> {
    let property = match show {
        Show::Keyspaces => {
            let keyspaces = s.call(|c| c.get_string_list_property("keyspaces".into()))?;
            for ks in keyspaces {
                w.line(&ks)?;
            }
            return Ok(());
        }
        Show::ClusterName => "cluster name",
        Show::ConfigFile => "config file",
        Show::ApiVersion => "version",
    };
    let value = s.call(|c| c.get_string_property(property.into()))?;
    // The config file already ends in a newline: print it byte for byte, so that
    // `ilion cli -e 'show config file' > storage-conf.xml` copies it exactly.
    if value.ends_with('\n') {
        w.text(&value)
    } else {
        w.line(&value)
    }
}

/// 0.6's lines for each column family: its description, type and comparator, then `------`;
/// ilion adds the subcolumn comparator of Super column families.
fn describe(s: &mut Session, ks: &str, w: &mut Out<'_>) -> Result<(), String> {
    let described = s
        .call(|c| c.describe_keyspace(ks.to_string()))
        .map_err(|e| super::session::not_found_as(e, ks))?;
    for attrs in described.values() {
        let attr = |k: &str| attrs.get(k).map_or("", String::as_str);
        w.line(attr("Desc"))?;
        w.line(&format!("Column Family Type: {}", attr("Type")))?;
        w.line(&format!("Column Sorted By: {}", attr("CompareWith")))?;
        if attrs.contains_key("CompareSubcolumnsWith") {
            w.line(&format!(
                "Subcolumns Sorted By: {}",
                attr("CompareSubcolumnsWith")
            ))?;
        }
        w.line("------")?;
    }
    Ok(())
}

/// The keyspace of `path` and its column family's metadata.
fn target(s: &mut Session, path: &Path) -> Result<(String, CfMeta), String> {
    let ks = s.resolve_keyspace(path.keyspace.as_deref())?;
    let meta = s.cf_meta(&ks, &path.column_family)?;
    Ok((ks, meta))
}

/// The ColumnPath of a column, super column or (with no names) row.
fn column_path(path: &Path, meta: CfMeta) -> Result<ColumnPath, String> {
    let cf = path.column_family.clone();
    Ok(match path.names.as_slice() {
        [] => ColumnPath::new(cf, None, None),
        [sc] if meta.is_super => ColumnPath::new(cf, meta.names.encode(sc)?, None),
        [col] => ColumnPath::new(cf, None, meta.names.encode(col)?),
        [sc, col] => ColumnPath::new(cf, meta.names.encode(sc)?, meta.subnames.encode(col)?),
        _ => return Err("Invalid row, super column, or column specification.".into()),
    })
}

fn set(
    s: &mut Session,
    path: &Path,
    value: &Literal,
    timestamp: Option<i64>,
    w: &mut Out<'_>,
) -> Result<(), String> {
    if path.names.is_empty() {
        return Err("No column name specified, (type 'help' or '?' for help on syntax).".into());
    }
    let (ks, meta) = target(s, path)?;
    // `set CF['k']['c']` on a Super CF names a column, not a super column: the server says
    // what is missing.
    let column_path = match path.names.as_slice() {
        [col] => ColumnPath::new(path.column_family.clone(), None, meta.names.encode(col)?),
        _ => column_path(path, meta)?,
    };
    let key = path.key.clone();
    let value = encode_value(value);
    let ts = timestamp.unwrap_or_else(now_micros);
    s.call(|c| c.insert(ks, key, column_path, value, ts, CL))?;
    w.line("Value inserted.")
}

fn get(s: &mut Session, path: &Path, w: &mut Out<'_>) -> Result<(), String> {
    let (ks, meta) = target(s, path)?;
    let key = path.key.clone();
    let slice_of = match path.names.as_slice() {
        [] => Some(None),
        [sc] if meta.is_super => Some(Some(meta.names.encode(sc)?)),
        _ => None,
    };
    if let Some(super_column) = slice_of {
        // 0.6's cli asked for the slice reversed: the last names come first.
        let parent = ColumnParent::new(path.column_family.clone(), super_column.clone());
        let range = SliceRange::new(Vec::new(), Vec::new(), true, GET_COUNT);
        let predicate = SlicePredicate::new(None, range);
        let columns = s.call(|c| c.get_slice(ks, key, parent, predicate, CL))?;
        let names = if super_column.is_some() {
            meta.subnames
        } else {
            meta.names
        };
        for cosc in &columns {
            w.text(&cosc_text(cosc, names, meta.subnames))?;
        }
        return w.line(&format!("Returned {} results.", columns.len()));
    }
    let column_path = column_path(path, meta)?;
    let names = if column_path.super_column.is_some() {
        meta.subnames
    } else {
        meta.names
    };
    match s.call(|c| c.get(ks, key, column_path, CL)) {
        Ok(cosc) => w.text(&cosc_text(&cosc, names, meta.subnames)),
        Err(e) if is_not_found(&e) => w.line(&e),
        Err(e) => Err(e),
    }
}

fn list(
    s: &mut Session,
    keyspace: Option<&str>,
    cf: &str,
    limit: Option<i32>,
    w: &mut Out<'_>,
) -> Result<(), String> {
    let ks = s.resolve_keyspace(keyspace)?;
    let meta = s.cf_meta(&ks, cf)?;
    let parent = ColumnParent::new(cf.to_string(), None);
    let predicate = SlicePredicate::new(
        None,
        SliceRange::new(Vec::new(), Vec::new(), false, i32::MAX),
    );
    let range = KeyRange::new(
        String::new(),
        String::new(),
        None::<String>,
        None::<String>,
        limit.unwrap_or(LIST_DEFAULT_LIMIT),
    );
    let rows = s.call(|c| c.get_range_slices(ks, parent, predicate, range, CL))?;
    for row in &rows {
        w.line("-------------------")?;
        w.line(&format!("RowKey: {}", row.key))?;
        for cosc in &row.columns {
            w.text(&cosc_text(cosc, meta.names, meta.subnames))?;
        }
    }
    let plural = if rows.len() == 1 { "Row" } else { "Rows" };
    w.line(&format!("\n{} {plural} Returned.", rows.len()))
}

/// A column or super column as 0.6 printed it, with its trailing newline.
pub fn cosc_text(cosc: &ColumnOrSuperColumn, names: NameType, subnames: NameType) -> String {
    if let Some(sc) = &cosc.super_column {
        let mut s = format!("=> (super_column={},", names.display(&sc.name));
        for col in &sc.columns {
            s.push_str("\n     ");
            s.push_str(&column_text(col, subnames));
        }
        s.push_str(")\n");
        s
    } else if let Some(col) = &cosc.column {
        format!("=> {}\n", column_text(col, names))
    } else {
        String::new()
    }
}

fn column_text(col: &Column, names: NameType) -> String {
    format!(
        "(column={}, value={}, timestamp={})",
        names.display(&col.name),
        display_value(&col.value),
        col.timestamp
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::SuperColumn;

    #[test]
    fn columns_and_super_columns_print_as_0_6_did() {
        let col = |name: &[u8], value: &[u8], ts| Column::new(name.to_vec(), value.to_vec(), ts);
        let plain = ColumnOrSuperColumn::new(col(b"first", b"John", 5), None);
        assert_eq!(
            cosc_text(&plain, NameType::Utf8, NameType::Bytes),
            "=> (column=first, value=John, timestamp=5)\n"
        );
        let sc = SuperColumn::new(
            7i64.to_be_bytes().to_vec(),
            vec![col(b"a", b"1", 1), col(b"b", &[0xff], 2)],
        );
        let sup = ColumnOrSuperColumn::new(None, sc);
        assert_eq!(
            cosc_text(&sup, NameType::Long, NameType::Bytes),
            "=> (super_column=7,\n     (column=61, value=1, timestamp=1)\n     \
             (column=62, value=0xff, timestamp=2))\n"
        );
    }
}
