//! Hand-written process functions for the hottest call, `get_slice`, used by dispatch in
//! place of the generated one. They give the same bytes: the arguments are decoded by the
//! same generated decoders for each field, the handler is called the same way, and the reply
//! is written field by field as the generated code writes it, errors included.
//!
//! Why: the generated writers build a `TFieldIdentifier` with an owned name `String` for
//! every field they write and a `TStructIdentifier` for every struct, so a five-column slice
//! reply cost some thirty allocations before a byte was written. Here a reply is written
//! straight into the [`BinaryOut`] buffer.

use thrift::protocol::{TInputProtocol, TMessageType, TOutputProtocol, TSerializable, TType};
use thrift::{ApplicationError, ApplicationErrorKind, ProtocolErrorKind};

use super::codec::{perr, BinaryIn};
use super::generated::{
    CassandraSyncHandler, Column, ColumnOrSuperColumn, ColumnParent, ConsistencyLevel,
    InvalidRequestException, SlicePredicate, SuperColumn, TimedOutException, UnavailableException,
};
use super::wire::{T_I64, T_LIST, T_STRING, T_STRUCT};
use super::writer::BinaryOut;

/// `get_slice`: the generated `process_get_slice`, with the reply written by hand. `None`
/// when a required argument is missing (normalizing rules that out): the caller then runs
/// the generated function on the same bytes, which reports it in its own words.
pub(crate) fn get_slice<H: CassandraSyncHandler>(
    handler: &H,
    seq: i32,
    inp: &mut BinaryIn<'_>,
    out: &mut BinaryOut,
) -> Option<thrift::Result<()>> {
    let (keyspace, key, parent, predicate, cl) = match get_slice_args(inp) {
        Ok(Some(args)) => args,
        Ok(None) => return None,
        Err(e) => return Some(Err(e)),
    };
    const NAME: &str = "get_slice";
    Some(
        match handler.handle_get_slice(keyspace, key, parent, predicate, cl) {
            Ok(coscs) => {
                out.message_begin(NAME, TMessageType::Reply, seq);
                out.field(T_LIST, 0);
                cosc_list(out, &coscs).map(|()| out.stop())
            }
            Err(e) => data_error(out, NAME, seq, e),
        },
    )
}

type GetSliceArgs = (
    String,
    String,
    ColumnParent,
    SlicePredicate,
    ConsistencyLevel,
);

/// The generated `CassandraGetSliceArgs` decoder's loop: the last of a repeated field wins,
/// unknown ids are skipped.
fn get_slice_args(inp: &mut BinaryIn<'_>) -> thrift::Result<Option<GetSliceArgs>> {
    inp.read_struct_begin()?;
    let (mut keyspace, mut key, mut parent, mut predicate, mut cl) = (None, None, None, None, None);
    loop {
        let f = inp.read_field_begin()?;
        if f.field_type == TType::Stop {
            break;
        }
        match f.id {
            Some(1) => keyspace = Some(inp.read_string()?),
            Some(2) => key = Some(inp.read_string()?),
            Some(3) => parent = Some(ColumnParent::read_from_in_protocol(inp)?),
            Some(4) => predicate = Some(SlicePredicate::read_from_in_protocol(inp)?),
            Some(5) => cl = Some(ConsistencyLevel::read_from_in_protocol(inp)?),
            _ => inp.skip(f.field_type)?,
        }
        inp.read_field_end()?;
    }
    inp.read_struct_end()?;
    Ok(match (keyspace, key, parent, predicate, cl) {
        (Some(ks), Some(k), Some(p), Some(pr), Some(cl)) => Some((ks, k, p, pr, cl)),
        _ => None,
    })
}

fn count(n: usize) -> thrift::Result<i32> {
    i32::try_from(n).map_err(|_| perr(ProtocolErrorKind::SizeLimit, "list too long"))
}

fn cosc_list(out: &mut BinaryOut, coscs: &[ColumnOrSuperColumn]) -> thrift::Result<()> {
    out.list_begin(T_STRUCT, count(coscs.len())?);
    for cosc in coscs {
        if let Some(c) = &cosc.column {
            out.field(T_STRUCT, 1);
            column(out, c)?;
        }
        if let Some(sc) = &cosc.super_column {
            out.field(T_STRUCT, 2);
            super_column(out, sc)?;
        }
        out.stop();
    }
    Ok(())
}

fn column(out: &mut BinaryOut, c: &Column) -> thrift::Result<()> {
    out.field(T_STRING, 1);
    out.write_raw(&c.name)?;
    out.field(T_STRING, 2);
    out.write_raw(&c.value)?;
    out.field(T_I64, 3);
    out.write_i64(c.timestamp)?;
    out.stop();
    Ok(())
}

fn super_column(out: &mut BinaryOut, sc: &SuperColumn) -> thrift::Result<()> {
    out.field(T_STRING, 1);
    out.write_raw(&sc.name)?;
    out.field(T_LIST, 2);
    out.list_begin(T_STRUCT, count(sc.columns.len())?);
    for c in &sc.columns {
        column(out, c)?;
    }
    out.stop();
    Ok(())
}

/// A handler error of a data method (`throws` ire 1, ue 2, te 3) written as the generated
/// code writes it: a declared exception in its result field, anything else as an
/// EXCEPTION message.
fn data_error(
    out: &mut BinaryOut,
    name: &'static str,
    seq: i32,
    e: thrift::Error,
) -> thrift::Result<()> {
    fn declared<E: TSerializable>(
        out: &mut BinaryOut,
        (name, seq): (&'static str, i32),
        id: i16,
        exc: &E,
    ) -> thrift::Result<()> {
        out.message_begin(name, TMessageType::Reply, seq);
        out.field(T_STRUCT, id);
        exc.write_to_out_protocol(out)?;
        out.stop();
        Ok(())
    }
    let app = match e {
        thrift::Error::User(u) => {
            let u = match u.downcast::<InvalidRequestException>() {
                Ok(ire) => return declared(out, (name, seq), 1, &*ire),
                Err(u) => u,
            };
            let u = match u.downcast::<UnavailableException>() {
                Ok(ue) => return declared(out, (name, seq), 2, &*ue),
                Err(u) => u,
            };
            match u.downcast::<TimedOutException>() {
                Ok(te) => return declared(out, (name, seq), 3, &*te),
                Err(u) => ApplicationError::new(ApplicationErrorKind::Unknown, u.to_string()),
            }
        }
        thrift::Error::Application(app) => app,
        e => ApplicationError::new(ApplicationErrorKind::Unknown, e.to_string()),
    };
    out.message_begin(name, TMessageType::Exception, seq);
    thrift::Error::write_application_error_to_out_protocol(&app, out)?;
    out.write_message_end()
}
