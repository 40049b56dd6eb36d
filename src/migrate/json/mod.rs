//! 0.6's `sstable2json` text for one column family, both ways, streaming. A file is one JSON
//! object from row key to row: a Standard row is a list of columns
//! `["<name hex>", "<value hex>", <timestamp>, <deleted>]`, a Super row an object from super
//! column name (hex) to `{"deletedAt": <timestamp>, "subColumns": [<column>, …]}`, where
//! `deletedAt` is `-9223372036854775808` for a super column without a tombstone. Row
//! tombstones have no place in this shape (0.6 did not print them either).
//!
//! [`JsonWriter`] lays rows out exactly as 0.6 did (one row a line), except that keys are
//! JSON-escaped where 0.6 produced invalid JSON. [`JsonRows`] reads one row at a time: a
//! small hand-written walk over the top-level object finds each key and the extent of each
//! row value, and serde_json parses that one row, so memory is bounded by the largest row.

mod read;
mod write;

pub use read::JsonRows;
pub use write::JsonWriter;
