//! The later Thrift API (IDL VERSION 20.1.0, Cassandra 0.7 – 3.11) at the wire, served on a
//! listener of its own (`docs/api-later.md#wire`): the types and handler trait generated from
//! `idl/cassandra-20.thrift`, its method table ([`methods`]), the argument schema the shared
//! normalizer reads its calls with, and [`process`], the shared dispatch bound to its handler
//! trait. Everything that does not depend on the API (codec, framing detection, splitter,
//! limits, writer, normalizer, the dispatch rules) lives in the parent module and serves both.
//!
//! A later-API service implements [`CassandraSyncHandler`], wraps it in a
//! [`Connection`](crate::protocol::Connection) whose `process` calls [`process`], and maps its
//! errors with the `throws` of the rows in [`methods`].

pub mod methods;
mod schema;
#[cfg(test)]
mod schema_tests;

// The compiler's output, committed byte for byte (scripts/gen-thrift.sh), so its lint
// allowances live here rather than in the file.
#[allow(clippy::all, clippy::unwrap_used, missing_docs)]
pub mod generated;

use super::dispatch::{serve, Api};
use super::methods::{Method, ProcessFn};
use super::{Limits, Mode, Violation};

pub use methods::{find, METHODS};

/// The handler-facing surface of the generated code: the later-API service implements
/// [`CassandraSyncHandler`] and works with these types.
pub use generated::{
    AuthenticationException, AuthenticationRequest, AuthorizationException, CASResult,
    CassandraSyncHandler, CfDef, CfSplit, Column, ColumnDef, ColumnOrSuperColumn, ColumnParent,
    ColumnPath, ColumnSlice, Compression, ConsistencyLevel, CounterColumn, CounterSuperColumn,
    CqlMetadata, CqlPreparedResult, CqlResult, CqlResultType, CqlRow, Deletion, EndpointDetails,
    IndexClause, IndexExpression, IndexOperator, IndexType, InvalidRequestException, KeyCount,
    KeyRange, KeySlice, KsDef, MultiSliceRequest, Mutation, NotFoundException,
    SchemaDisagreementException, SlicePredicate, SliceRange, SuperColumn, TimedOutException,
    TokenRange, TriggerDef, UnavailableException, VERSION,
};

/// The 20.1.0 API (`idl/cassandra-20.thrift`): every method runs its generated process
/// function (no hand-written fast path yet).
struct Api20;

impl<H: CassandraSyncHandler> Api<H> for Api20 {
    #[inline]
    fn lookup(name: &str) -> Option<(&'static Method, ProcessFn<H>)> {
        methods::lookup::<H>(name)
    }
}

/// [`crate::protocol::process`] for the 20.1.0 API: decodes one complete message (as delimited
/// by the [`Splitter`](crate::protocol::Splitter), frame prefix excluded), normalizes its
/// arguments as the 2.2 server read them, runs it on `handler` and returns the reply bytes,
/// framed when `mode.framed`. `Err` means close the connection without a reply, exactly as
/// for the 0.6 API.
pub fn process<H: CassandraSyncHandler>(
    message: &[u8],
    mode: Mode,
    limits: &Limits,
    handler: &H,
) -> Result<Vec<u8>, Violation> {
    serve::<Api20, H>(message, mode, limits, handler)
}
