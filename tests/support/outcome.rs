//! [`Outcome`]: a Thrift call's result reduced to what a client can tell apart — success, each
//! declared exception with its message, a TApplicationException's kind and message — so test
//! tables compare results with `==` and print them on mismatch.
//!
//! The one definition for every test depth: the integration suites include it as
//! `support::outcome`, and the crate's service tests (which call the handler in-process)
//! include the same file through `#[path]`. The includer brings the crate's `protocol` module
//! into scope, because that module is `crate::protocol` inside the crate and
//! `ilion::protocol` outside it.

#![allow(dead_code)]

use super::protocol::{
    ApplicationErrorKind, AuthenticationException, AuthorizationException, InvalidRequestException,
    NotFoundException, UnavailableException,
};

/// A reply reduced to what a client can tell apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Ok,
    Invalid(String),
    NotFound,
    Unavailable,
    Authentication(String),
    Authorization(String),
    /// A TApplicationException: its kind and message.
    Application(ApplicationErrorKind, String),
    /// Anything else (an undeclared exception, transport or protocol trouble).
    Other(String),
}

/// The outcome of a call.
pub fn outcome<T>(result: thrift::Result<T>) -> Outcome {
    let e = match result {
        Ok(_) => return Outcome::Ok,
        Err(e) => e,
    };
    match e {
        thrift::Error::User(u) => {
            if let Some(x) = u.downcast_ref::<InvalidRequestException>() {
                Outcome::Invalid(x.why.clone())
            } else if u.downcast_ref::<NotFoundException>().is_some() {
                Outcome::NotFound
            } else if u.downcast_ref::<UnavailableException>().is_some() {
                Outcome::Unavailable
            } else if let Some(x) = u.downcast_ref::<AuthenticationException>() {
                Outcome::Authentication(x.why.clone())
            } else if let Some(x) = u.downcast_ref::<AuthorizationException>() {
                Outcome::Authorization(x.why.clone())
            } else {
                Outcome::Other(format!("undeclared user exception: {u}"))
            }
        }
        thrift::Error::Application(a) => Outcome::Application(a.kind, a.message),
        other => Outcome::Other(other.to_string()),
    }
}

/// InvalidRequestException with `why`.
pub fn ire(why: &str) -> Outcome {
    Outcome::Invalid(why.to_string())
}

/// An INTERNAL_ERROR TApplicationException with `message`.
pub fn internal(message: &str) -> Outcome {
    Outcome::Application(ApplicationErrorKind::InternalError, message.to_string())
}
