//! The later Thrift API (IDL VERSION 20.1.0, Cassandra 0.7 – 3.11) at the wire: the types and
//! handler trait generated from `idl/cassandra-20.thrift`. Everything that does not depend on
//! the API (codec, framing, splitter, limits, writer) is shared with the 0.6 API in the parent
//! module.

// The compiler's output, committed byte for byte (scripts/gen-thrift.sh), so its lint
// allowances live here rather than in the file.
#[allow(clippy::all, clippy::unwrap_used, missing_docs)]
pub mod generated;
