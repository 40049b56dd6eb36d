//! The numeric knobs of storage-conf.xml: ilion's own `Thrift…` wire limits
//! (`docs/compatibility.md#e4`) and 0.6's memory, disk and thread settings ([`Tuning`]). Each
//! has a default and a lower bound; sizes and counts must be positive, because a zero buffer or
//! thread pool would only ever mean a typo. The wire's [`Limits`] are made from
//! [`ThriftLimits`] here and nowhere else.

use super::raw::RawStorage;
use super::values::{boolean, integer, positive_decimal};
use super::{ThriftLimits, Tuning};
use crate::error::{Error, Result};
use crate::protocol::Limits;

/// The limits the wire enforces, as configured.
impl From<&ThriftLimits> for Limits {
    fn from(l: &ThriftLimits) -> Limits {
        Limits {
            max_frame_bytes: l.max_frame_bytes,
            max_message_bytes: l.max_message_bytes,
            max_depth: l.max_depth,
        }
    }
}

/// ilion's wire limits (`docs/compatibility.md#e4`): positive integers, sizes in MiB, frame ≤
/// message.
pub(super) fn limits(raw: &RawStorage) -> Result<ThriftLimits> {
    let d = ThriftLimits::default();
    let mib = |element: &str, value: Option<&String>, default: usize| -> Result<usize> {
        let n = integer(element, value.map(String::as_str), default >> 20, 1, None)?;
        n.checked_mul(1 << 20)
            .ok_or_else(|| Error::config(element, format!("{n} MB is too large")))
    };
    let max_frame_bytes = mib(
        "ThriftMaxFrameSizeInMB",
        raw.thrift_max_frame_size_in_mb.as_ref(),
        d.max_frame_bytes,
    )?;
    let max_message_bytes = mib(
        "ThriftMaxMessageSizeInMB",
        raw.thrift_max_message_size_in_mb.as_ref(),
        d.max_message_bytes,
    )?;
    if max_frame_bytes > max_message_bytes {
        return Err(Error::config(
            "ThriftMaxFrameSizeInMB",
            format!(
                "may not exceed ThriftMaxMessageSizeInMB ({} MB)",
                max_message_bytes >> 20
            ),
        ));
    }
    let count = |element: &str, value: &Option<String>, default| {
        integer(element, value.as_deref(), default, 1, None)
    };
    Ok(ThriftLimits {
        max_frame_bytes,
        max_message_bytes,
        max_depth: count(
            "ThriftMaxNestingDepth",
            &raw.thrift_max_nesting_depth,
            d.max_depth,
        )?,
        max_connections: count(
            "ThriftMaxConnections",
            &raw.thrift_max_connections,
            d.max_connections,
        )?,
        idle_timeout_secs: integer(
            "ThriftIdleTimeoutInSeconds",
            raw.thrift_idle_timeout_in_seconds.as_deref(),
            d.idle_timeout_secs,
            1,
            None,
        )?,
        read_timeout_secs: integer(
            "ThriftReadTimeoutInSeconds",
            raw.thrift_read_timeout_in_seconds.as_deref(),
            d.read_timeout_secs,
            1,
            None,
        )?,
    })
}

/// The 0.6 performance elements, with 0.6's defaults. Sizes and counts must be positive.
pub(super) fn tuning(raw: &RawStorage) -> Result<Tuning> {
    let positive = |element: &str, value: &Option<String>, default| {
        integer(element, value.as_deref(), default, 1, None)
    };
    Ok(Tuning {
        index_interval: positive("IndexInterval", &raw.index_interval, 128)?,
        phi_convict_threshold: integer(
            "PhiConvictThreshold",
            raw.phi_convict_threshold.as_deref(),
            8,
            5,
            Some(16),
        )?,
        commit_log_rotation_threshold_mb: positive(
            "CommitLogRotationThresholdInMB",
            &raw.commit_log_rotation_threshold_in_mb,
            128,
        )?,
        row_warning_threshold_mb: positive(
            "RowWarningThresholdInMB",
            &raw.row_warning_threshold_in_mb,
            512,
        )?,
        sliced_buffer_size_kb: positive("SlicedBufferSizeInKB", &raw.sliced_buffer_size_in_kb, 64)?,
        flush_data_buffer_size_mb: positive_decimal(
            "FlushDataBufferSizeInMB",
            raw.flush_data_buffer_size_in_mb.as_deref(),
            32.0,
        )?,
        flush_index_buffer_size_mb: positive_decimal(
            "FlushIndexBufferSizeInMB",
            raw.flush_index_buffer_size_in_mb.as_deref(),
            8.0,
        )?,
        column_index_size_kb: positive("ColumnIndexSizeInKB", &raw.column_index_size_in_kb, 64)?,
        memtable_throughput_mb: positive(
            "MemtableThroughputInMB",
            &raw.memtable_throughput_in_mb,
            64,
        )?,
        binary_memtable_throughput_mb: positive(
            "BinaryMemtableThroughputInMB",
            &raw.binary_memtable_throughput_in_mb,
            256,
        )?,
        memtable_operations_millions: positive_decimal(
            "MemtableOperationsInMillions",
            raw.memtable_operations_in_millions.as_deref(),
            0.1,
        )?,
        memtable_flush_after_minutes: positive(
            "MemtableFlushAfterMinutes",
            &raw.memtable_flush_after_minutes,
            60,
        )?,
        concurrent_reads: integer(
            "ConcurrentReads",
            raw.concurrent_reads.as_deref(),
            8,
            2,
            None,
        )?,
        concurrent_writes: integer(
            "ConcurrentWrites",
            raw.concurrent_writes.as_deref(),
            32,
            2,
            None,
        )?,
        do_consistency_checks: boolean(
            "DoConsistencyChecksBoolean",
            raw.do_consistency_checks_boolean.as_deref(),
            true,
        )?,
        snapshot_before_compaction: boolean(
            "SnapshotBeforeCompaction",
            raw.snapshot_before_compaction.as_deref(),
            false,
        )?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_limits_come_from_the_config() {
        let l = ThriftLimits {
            max_frame_bytes: 1 << 20,
            max_message_bytes: 2 << 20,
            max_depth: 7,
            ..ThriftLimits::default()
        };
        let wire = Limits::from(&l);
        assert_eq!(
            (wire.max_frame_bytes, wire.max_message_bytes, wire.max_depth),
            (1 << 20, 2 << 20, 7)
        );
        // The configuration's defaults and the wire's are written in two places; they may
        // not differ.
        assert_eq!(Limits::from(&ThriftLimits::default()), Limits::default());
    }
}
