//! Whole imports. Nothing is written until the whole input has been read and checked: a JSON
//! file is read twice (first a checking pass — with stdin spooled to an anonymous temporary
//! file on the way, so it can be read again — then a writing pass), and a 0.6 keyspace
//! directory has every SSTable of every CF read and merged once before the second pass
//! writes. Both passes stream, so memory stays bounded by the largest row; the cost is
//! reading the input twice, which is cheap next to writing it.

use super::json::JsonRows;
use super::merge::CfMerge;
use super::progress::{summary, Progress, Totals};
use super::shape::CfShape;
use super::sstable06::{self, SsTable};
use super::RowSink;
use crate::config::Config;
use crate::error::{Error, Result};
use std::fs::File;
use std::io::{self, BufReader, Read, Seek, Write};
use std::path::Path;
use std::time::Instant;

/// Copies everything read from stdin into a spool file.
struct Tee<R: Read, W: Write> {
    input: R,
    copy: W,
}

impl<R: Read, W: Write> Read for Tee<R, W> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.input.read(buf)?;
        self.copy.write_all(&buf[..n])?;
        Ok(n)
    }
}

/// Reads every row of a JSON input, checking it; returns how many there were.
fn check_json<R: Read>(
    input: R,
    source: &str,
    shape: CfShape,
    size: Option<u64>,
) -> Result<Totals> {
    let mut rows = JsonRows::new(BufReader::with_capacity(1 << 16, input), source, shape);
    let mut progress = Progress::new("checking", size);
    while let Some(row) = rows.next_row()? {
        let at = rows.bytes_read();
        progress.row(&row, Some(at));
    }
    let totals = progress.totals;
    progress.finish("checked");
    Ok(totals)
}

/// Imports sstable2json text from `path` (`-` for stdin) into the sink `open_sink` returns,
/// checking all of the text before the sink is even opened. Returns the summary line.
pub fn json<S: RowSink>(
    path: &str,
    shape: CfShape,
    open_sink: impl FnOnce() -> Result<S>,
) -> Result<String> {
    let started = Instant::now();
    let open = |p: &str| File::open(p).map_err(|e| Error::Storage(format!("cannot open {p}: {e}")));
    let (mut input, size, source) = if path == "-" {
        let spool = tempfile::tempfile()
            .map_err(|e| Error::Storage(format!("cannot create a spool file for stdin: {e}")))?;
        let tee = Tee {
            input: io::stdin().lock(),
            copy: io::BufWriter::new(spool.try_clone()?),
        };
        check_json(tee, "<stdin>", shape, None)?;
        (spool, None, "<stdin>".to_string())
    } else {
        let file = open(path)?;
        let size = file.metadata()?.len();
        check_json(&file, path, shape, Some(size))?;
        (open(path)?, Some(size), path.to_string())
    };
    input.rewind()?;
    let mut sink = open_sink()?;
    let mut rows = JsonRows::new(BufReader::with_capacity(1 << 16, input), &source, shape);
    let mut progress = Progress::new("importing", size);
    while let Some(row) = rows.next_row()? {
        sink.write(&row)?;
        let at = rows.bytes_read();
        progress.row(&row, Some(at));
    }
    sink.finish()?;
    let totals = progress.totals;
    progress.finish("imported");
    // The time covers both passes: what the user waited for.
    Ok(summary("imported", totals, started.elapsed().as_secs_f64()))
}

/// One column family of a 0.6 keyspace directory, ready to import.
pub struct Cf06 {
    /// The column family's name.
    pub name: String,
    /// What the configuration says it is.
    pub shape: CfShape,
    /// Its live SSTables, in generation order.
    pub tables: Vec<SsTable>,
}

/// The CFs of `keyspace_dir` that `config` defines, with their SSTables. CFs on disk that
/// the configuration does not define are reported in `skipped`.
pub fn plan_cassandra06(
    config: &Config,
    keyspace_dir: &Path,
) -> Result<(String, Vec<Cf06>, Vec<String>)> {
    let keyspace = keyspace_dir
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| {
            Error::invalid(format!(
                "{} does not name a keyspace directory",
                keyspace_dir.display()
            ))
        })?
        .to_string();
    let ks = config.schema.keyspace(&keyspace).ok_or_else(|| {
        Error::invalid(format!(
            "keyspace {keyspace} (the directory's name) is not defined in the configuration"
        ))
    })?;
    let mut found = sstable06::list(keyspace_dir)?;
    let mut cfs = Vec::new();
    for (name, def) in &ks.column_families {
        if let Some(tables) = found.remove(name) {
            cfs.push(Cf06 {
                name: name.clone(),
                shape: CfShape::of(def),
                tables,
            });
        }
    }
    Ok((keyspace, cfs, found.into_keys().collect()))
}

/// Reads and merges every CF once without writing: any error is found before a write.
pub fn check_cassandra06(cfs: &[Cf06], config: &Config) -> Result<Totals> {
    let total: u64 = cfs
        .iter()
        .flat_map(|c| &c.tables)
        .filter_map(|t| std::fs::metadata(&t.data).ok())
        .map(|m| m.len())
        .sum();
    let mut progress = Progress::new("checking", Some(total));
    let mut done = 0;
    for cf in cfs {
        let mut merge = CfMerge::open(&cf.tables, cf.shape, config.partitioner)
            .map_err(|e| in_cf(&cf.name, e))?;
        while let Some(row) = merge.next_row().map_err(|e| in_cf(&cf.name, e))? {
            progress.row(&row, Some(done + merge.bytes_read()));
        }
        done += merge.total_bytes();
    }
    let totals = progress.totals;
    progress.finish("checked");
    Ok(totals)
}

fn in_cf(cf: &str, e: Error) -> Error {
    match e {
        Error::Corrupt(msg) => Error::Corrupt(format!("column family {cf}: {msg}")),
        other => other,
    }
}

/// Writes the merged rows of every CF through `sink_for(cf)`; returns one summary per CF.
pub fn write_cassandra06(
    cfs: &[Cf06],
    config: &Config,
    sink_for: &mut dyn FnMut(&str) -> Result<Box<dyn RowSink>>,
) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for cf in cfs {
        let started = Instant::now();
        let mut merge = CfMerge::open(&cf.tables, cf.shape, config.partitioner)?;
        let mut progress = Progress::new(&cf.name, Some(merge.total_bytes()));
        let mut sink = sink_for(&cf.name)?;
        while let Some(row) = merge.next_row()? {
            sink.write(&row)?;
            progress.row(&row, Some(merge.bytes_read()));
        }
        sink.finish()?;
        let totals = progress.totals;
        progress.finish("imported");
        out.push(format!(
            "{}: {}",
            cf.name,
            summary("imported", totals, started.elapsed().as_secs_f64())
        ));
    }
    Ok(out)
}
