//! Dispatch of one complete message onto a generated handler trait, with the answers of the
//! Java servers (`docs/api.md#wire`, `docs/api-later.md#wire`), the same for both APIs: an
//! [`Api`] says how a name finds its method and which methods have a hand-written twin, and
//! [`serve`] does the rest. [`process`] serves the 0.6 [`CassandraSyncHandler`];
//! `v20::process` the 20.1.0 one.
//!
//! * unknown method name → EXCEPTION, TApplicationException UNKNOWN_METHOD (1),
//!   `Invalid method name: '<name>'`; the connection stays open;
//! * arguments Java would not accept (a required object field missing, a required enum such
//!   as a consistency level holding a number it does not list) → EXCEPTION, PROTOCOL_ERROR
//!   (7). The generated process functions return early without writing anything in that
//!   case, so the reply is made here;
//! * the handler returns `thrift::Error::User(Box<declared exception>)` → REPLY with that
//!   result field set (the generated code does this);
//! * the handler returns `thrift::Error::Application(e)` → EXCEPTION carrying `e`;
//! * the handler panics → EXCEPTION, INTERNAL_ERROR (6), `Internal error processing <name>`.
//!
//! The message type byte is not looked at: everything is a call. Replies always carry the
//! versioned header and are framed exactly when the connection is.

use std::panic::{catch_unwind, AssertUnwindSafe};

use thrift::protocol::{TMessageIdentifier, TMessageType, TOutputProtocol};
use thrift::{ApplicationError, ApplicationErrorKind};

use super::codec::BinaryIn;
use super::generated::CassandraSyncHandler;
use super::hot;
use super::methods::{self, Method, ProcessFn};
use super::normalize::{normalize_struct, NormError, Pass};
use super::writer::{BinaryOut, Discard};
use super::{Limits, Mode, Violation};

/// Decoded arguments may take this many bytes of memory per byte of the message limit
/// (256 MiB for 16 MiB). Real requests stay under ~6; a list of empty structs would be ~200.
const DECODED_PER_MESSAGE_BYTE: u64 = 16;

fn wire(e: thrift::Error) -> Violation {
    Violation::Malformed(e.to_string())
}

/// One Thrift service as dispatch sees it, for handlers of type `H`.
pub(crate) trait Api<H> {
    /// The method called `name` and its generated process function, `None` for a name the
    /// service does not have.
    fn lookup(name: &str) -> Option<(&'static Method, ProcessFn<H>)>;

    /// A hand-written process function for `method` giving the same bytes as the generated
    /// one, faster; `None` to run the generated one on the same arguments.
    #[inline]
    fn hot(
        _method: &'static Method,
        _handler: &H,
        _seq: i32,
        _args: &BinaryIn<'_>,
        _out: &mut BinaryOut,
    ) -> Option<thrift::Result<()>> {
        None
    }
}

/// The 0.6 API (`idl/cassandra.thrift`).
pub(crate) struct Api06;

impl<H: CassandraSyncHandler> Api<H> for Api06 {
    #[inline]
    fn lookup(name: &str) -> Option<(&'static Method, ProcessFn<H>)> {
        methods::lookup::<H>(name)
    }

    #[inline]
    fn hot(
        method: &'static Method,
        handler: &H,
        seq: i32,
        args: &BinaryIn<'_>,
        out: &mut BinaryOut,
    ) -> Option<thrift::Result<()>> {
        // The hottest call has a hand-written twin that gives the same bytes, faster.
        if std::ptr::eq(method, &methods::GET_SLICE) {
            return hot::get_slice(handler, seq, &mut args.clone(), out);
        }
        None
    }
}

/// Decodes one complete message (as delimited by the [`Splitter`](super::Splitter), frame
/// prefix excluded), runs it on `handler` and returns the reply bytes, framed when
/// `mode.framed`. `Err` means close the connection without a reply: the bytes are not a
/// well-formed message, or decoding them would take more than 16 bytes of memory per byte of
/// the message limit ([`Violation::DecodedTooLarge`]).
pub fn process<H: CassandraSyncHandler>(
    message: &[u8],
    mode: Mode,
    limits: &Limits,
    handler: &H,
) -> Result<Vec<u8>, Violation> {
    serve::<Api06, H>(message, mode, limits, handler)
}

/// [`process`] for the service `A`.
pub(crate) fn serve<A: Api<H>, H>(
    message: &[u8],
    mode: Mode,
    limits: &Limits,
    handler: &H,
) -> Result<Vec<u8>, Violation> {
    let reply = || match mode.framed {
        true => BinaryOut::framed(),
        false => BinaryOut::new(),
    };
    let mut inp = BinaryIn::new(message, limits.max_depth);
    let (name, _, seq) = inp.read_message_head().map_err(wire)?;
    let name = &*name;
    let fail = |kind, why: String| exception(reply(), name, seq, kind, why);

    let Some((method, run)) = A::lookup(name) else {
        let why = format!("Invalid method name: '{name}'");
        return fail(ApplicationErrorKind::UnknownMethod, why);
    };
    let args = method.args;
    let _call = crate::metrics::call(method.name);
    // First a read-only pass: checks, charges the memory budget and notes whether the
    // arguments need rewriting at all (a stock client's never do).
    let args_at = inp.position();
    let mut pass = Pass::new(DECODED_PER_MESSAGE_BYTE * limits.max_message_bytes as u64);
    match normalize_struct(&mut inp, args, &mut Discard, &mut pass) {
        Ok(()) => {}
        Err(NormError::Wire(e)) => return Err(wire(e)),
        Err(NormError::TooBig(need)) => return Err(Violation::DecodedTooLarge(need)),
        Err(NormError::Invalid(why)) => return fail(ApplicationErrorKind::ProtocolError, why),
    }
    if inp.remaining() != 0 {
        return Err(Violation::TrailingBytes(inp.remaining()));
    }
    let body = &message[args_at..];
    let normal;
    let args_bytes = if pass.rewrite {
        // The same walk again, into a buffer; it cannot fail where the first one did not.
        let mut out = BinaryOut::with_capacity(body.len() + 64);
        let mut again = BinaryIn::new(body, limits.max_depth);
        normalize_struct(&mut again, args, &mut out, &mut Pass::new(u64::MAX))
            .map_err(|_| Violation::Malformed("arguments changed between passes".into()))?;
        normal = out.into_bytes().map_err(wire)?;
        &normal[..]
    } else {
        body
    };
    let mut args_in = BinaryIn::new(args_bytes, limits.max_depth);
    let mut out = reply();
    let ran = catch_unwind(AssertUnwindSafe(|| {
        if let Some(done) = A::hot(method, handler, seq, &args_in, &mut out) {
            return done;
        }
        run(handler, seq, &mut args_in, &mut out)
    }));
    match ran {
        Ok(Ok(())) => out.into_bytes().map_err(wire),
        // Nothing written yet: the arguments did not decode (normalizing should prevent it).
        Ok(Err(e)) if out.written().is_empty() => {
            fail(ApplicationErrorKind::ProtocolError, e.to_string())
        }
        // Writing the reply failed, or the handler panicked.
        Ok(Err(_)) | Err(_) => fail(
            ApplicationErrorKind::InternalError,
            format!("Internal error processing {name}"),
        ),
    }
}

/// An EXCEPTION reply carrying a TApplicationException.
fn exception(
    mut out: BinaryOut,
    name: &str,
    seq: i32,
    kind: ApplicationErrorKind,
    why: String,
) -> Result<Vec<u8>, Violation> {
    let ident = TMessageIdentifier::new(name, TMessageType::Exception, seq);
    let err = ApplicationError::new(kind, why);
    out.write_message_begin(&ident).map_err(wire)?;
    thrift::Error::write_application_error_to_out_protocol(&err, &mut out).map_err(wire)?;
    out.write_message_end().map_err(wire)?;
    out.into_bytes().map_err(wire)
}
