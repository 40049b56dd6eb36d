//! `ilion tool`'s tables: nodetool's layouts where nodetool had one (`info`, `ring`,
//! `cfstats`, `tpstats`, `cfhistograms`), sizes in KiB/MiB/GiB and latencies in ms.

use crate::server::admin::api::{
    CfHistograms, CfStats, Info, RingEntry, Snapshot, TpStats, Version,
};
use serde::Serialize;
use std::fmt::Write;

/// Pretty JSON of `value`, with a final newline.
pub fn json<T: Serialize>(value: &T) -> Result<String, String> {
    serde_json::to_string_pretty(value)
        .map(|s| s + "\n")
        .map_err(|e| e.to_string())
}

/// A size for people: bytes up to 1 KiB, then KiB, MiB, GiB with two decimals.
pub fn size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} bytes");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit < UNITS.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.2} {}", UNITS[unit])
}

fn ms(value: Option<f64>) -> String {
    value.map_or_else(|| "NaN".into(), |v| format!("{v:.3} ms"))
}

fn uptime(seconds: u64) -> String {
    let (d, h, m, s) = (
        seconds / 86400,
        seconds % 86400 / 3600,
        seconds % 3600 / 60,
        seconds % 60,
    );
    format!("{seconds} ({d}d {h}h {m}m {s}s)")
}

/// Rows padded into columns, the first left-aligned, the rest right-aligned.
fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = header.iter().map(|h| h.len()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.len());
        }
    }
    let mut out = String::new();
    let header: Vec<String> = header.iter().map(|h| h.to_string()).collect();
    for row in std::iter::once(&header).chain(rows) {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (c, w))| match i {
                0 => format!("{c:<w$}"),
                _ => format!("{c:>w$}"),
            })
            .collect();
        let _ = writeln!(out, "{}", cells.join("  ").trim_end());
    }
    out
}

/// Label-value lines, the labels padded to one width.
fn pairs(lines: &[(&str, String)]) -> String {
    let width = lines.iter().map(|(l, _)| l.len()).max().unwrap_or(0);
    lines
        .iter()
        .map(|(label, value)| format!("{label:<width$} : {value}\n"))
        .collect()
}

pub fn info(i: &Info) -> String {
    pairs(&[
        ("Token", i.token.clone()),
        ("Cluster", i.cluster_name.clone()),
        ("Version", i.version.clone()),
        ("Partitioner", i.partitioner.clone()),
        ("Load", size(i.load_bytes)),
        ("Data size", size(i.data_bytes)),
        ("Generation No", i.generation.to_string()),
        ("Uptime (seconds)", uptime(i.uptime_seconds)),
        ("Memory (resident)", size(i.resident_memory_bytes)),
        ("Thrift address", i.thrift_address.clone()),
        ("Drained", i.drained.to_string()),
    ])
}

pub fn ring(entries: &[RingEntry]) -> String {
    let rows: Vec<Vec<String>> = entries
        .iter()
        .map(|e| {
            vec![
                e.address.clone(),
                e.status.clone(),
                e.state.clone(),
                size(e.load_bytes),
                format!("{:.2}%", e.owns_percent),
                e.token.clone(),
            ]
        })
        .collect();
    table(
        &["Address", "Status", "State", "Load", "Owns", "Token"],
        &rows,
    )
}

/// The CFs the user asked for, or an error naming what does not exist.
pub fn pick(
    all: Vec<CfStats>,
    keyspace: &Option<String>,
    cfs: &[String],
) -> Result<Vec<CfStats>, String> {
    let Some(ks) = keyspace else { return Ok(all) };
    if !all.iter().any(|s| s.scan.keyspace == *ks) {
        return Err(format!("Keyspace {ks} does not exist"));
    }
    if let Some(cf) = cfs.iter().find(|cf| {
        !all.iter()
            .any(|s| s.scan.keyspace == *ks && s.scan.cf == **cf)
    }) {
        return Err(format!("unconfigured columnfamily {cf}"));
    }
    Ok(all
        .into_iter()
        .filter(|s| s.scan.keyspace == *ks && (cfs.is_empty() || cfs.contains(&s.scan.cf)))
        .collect())
}

pub fn cfstats(stats: &[CfStats]) -> String {
    let mut out = String::new();
    let mut keyspace: Option<&str> = None;
    for s in stats {
        if keyspace != Some(&s.scan.keyspace) {
            let _ = writeln!(out, "Keyspace: {}", s.scan.keyspace);
            keyspace = Some(&s.scan.keyspace);
        }
        let _ = writeln!(
            out,
            "\t\tColumn Family: {} ({})",
            s.scan.cf, s.scan.column_type
        );
        let lines = pairs(&[
            ("Space used (live)", size(s.scan.bytes)),
            ("Live rows", s.scan.live_rows.to_string()),
            ("Live columns", s.scan.live_columns.to_string()),
            ("Tombstones", s.scan.tombstones.to_string()),
            ("Read count", s.reads.to_string()),
            ("Read latency p50", ms(s.read_p50_ms)),
            ("Read latency p99", ms(s.read_p99_ms)),
            (
                "Rows / columns read",
                format!("{} / {}", s.rows_read, s.columns_read),
            ),
            ("Write count", s.writes.to_string()),
            ("Write latency p50", ms(s.write_p50_ms)),
            ("Write latency p99", ms(s.write_p99_ms)),
            (
                "Rows / columns written",
                format!("{} / {}", s.rows_written, s.columns_written),
            ),
        ]);
        for line in lines.lines() {
            let _ = writeln!(out, "\t\t{line}");
        }
        out.push('\n');
    }
    out
}

pub fn tpstats(t: &TpStats) -> String {
    let rows = vec![
        vec![
            "ThriftConnections".into(),
            t.connections.to_string(),
            "0".into(),
            t.connections_total.to_string(),
        ],
        vec![
            "ThriftCalls".into(),
            t.calls_in_flight.to_string(),
            "0".into(),
            t.calls_completed.to_string(),
        ],
        vec![
            "CommitLogSync".into(),
            t.replies_waiting_for_sync.to_string(),
            "0".into(),
            t.syncs.to_string(),
        ],
    ];
    let mut out = table(&["Pool Name", "Active", "Pending", "Completed"], &rows);
    let _ = writeln!(
        out,
        "\nSync failures: {}   Sync latency p99: {}",
        t.sync_failures,
        ms(t.sync_p99_ms)
    );
    out
}

pub fn cfhistograms(h: &CfHistograms) -> String {
    let rows: Vec<Vec<String>> = h
        .buckets
        .iter()
        .map(|b| {
            vec![
                b.upper_us
                    .map_or_else(|| "larger".into(), |u| format!("{u:.0}")),
                b.reads.to_string(),
                b.writes.to_string(),
            ]
        })
        .collect();
    let title = format!("{}/{} histograms\n", h.keyspace, h.cf);
    title + &table(&["Offset (us)", "ReadLatency", "WriteLatency"], &rows)
}

pub fn snapshots(list: &[Snapshot]) -> String {
    if list.is_empty() {
        return "There are no snapshots\n".into();
    }
    let rows: Vec<Vec<String>> = list
        .iter()
        .map(|s| vec![s.name.clone(), size(s.bytes), s.path.clone()])
        .collect();
    table(&["Snapshot name", "Size", "Path"], &rows)
}

pub fn version(v: &Version) -> String {
    format!(
        "ReleaseVersion: {}\nThrift API: {}\n",
        v.version, v.api_version
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_like_nodetool() {
        assert_eq!(size(10), "10 bytes");
        assert_eq!(size(1536), "1.50 KiB");
        assert_eq!(size(3 << 30), "3.00 GiB");
    }

    #[test]
    fn tables_align_their_columns() {
        let t = table(&["a", "bb"], &[vec!["long".into(), "1".into()]]);
        assert_eq!(t, "a     bb\nlong   1\n");
    }
}
