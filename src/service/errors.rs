//! The one mapping from the crate's [`Error`] to what a Thrift client sees (spec §1, §3).
//!
//! A kind becomes its declared exception only when the method's IDL `throws` list has it;
//! the generated code could not put anything else into the result struct. Everything else
//! — storage and corruption failures, and any kind a method does not declare — becomes
//! TApplicationException INTERNAL_ERROR `Internal error processing <method>`, as the 0.6
//! processor answers any unexpected Java throwable. The real cause goes to the server log.

use crate::error::Error;
use crate::protocol::{
    ApplicationError, ApplicationErrorKind, AuthenticationException, AuthorizationException,
    InvalidRequestException, NotFoundException, ThriftError, UnavailableException,
};

/// An IDL method: its name and the exceptions its `throws` clause declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Method {
    /// The method name, as in `Internal error processing <name>`.
    pub name: &'static str,
    invalid: bool,
    not_found: bool,
    unavailable: bool,
    auth: bool,
}

const fn method(name: &'static str, invalid: bool, not_found: bool, unavailable: bool) -> Method {
    Method {
        name,
        invalid,
        not_found,
        unavailable,
        auth: false,
    }
}

/// A data read or write: throws (ire, ue, te).
const fn data(name: &'static str) -> Method {
    method(name, true, false, true)
}

/// A method that declares nothing.
const fn plain(name: &'static str) -> Method {
    method(name, false, false, false)
}

pub(crate) const LOGIN: Method = Method {
    auth: true,
    ..plain("login")
};
pub(crate) const GET: Method = method("get", true, true, true);
pub(crate) const GET_SLICE: Method = data("get_slice");
pub(crate) const MULTIGET: Method = data("multiget");
pub(crate) const MULTIGET_SLICE: Method = data("multiget_slice");
pub(crate) const GET_COUNT: Method = data("get_count");
pub(crate) const GET_RANGE_SLICE: Method = data("get_range_slice");
pub(crate) const GET_RANGE_SLICES: Method = data("get_range_slices");
pub(crate) const INSERT: Method = data("insert");
pub(crate) const BATCH_INSERT: Method = data("batch_insert");
pub(crate) const REMOVE: Method = data("remove");
pub(crate) const BATCH_MUTATE: Method = data("batch_mutate");
pub(crate) const DESCRIBE_RING: Method = method("describe_ring", true, false, false);
// These cannot fail; they are listed so that the table covers the whole IDL.
#[allow(dead_code)]
pub(crate) const GET_STRING_PROPERTY: Method = plain("get_string_property");
#[allow(dead_code)]
pub(crate) const GET_STRING_LIST_PROPERTY: Method = plain("get_string_list_property");
#[allow(dead_code)]
pub(crate) const DESCRIBE_KEYSPACES: Method = plain("describe_keyspaces");
#[allow(dead_code)]
pub(crate) const DESCRIBE_CLUSTER_NAME: Method = plain("describe_cluster_name");
#[allow(dead_code)]
pub(crate) const DESCRIBE_VERSION: Method = plain("describe_version");
#[allow(dead_code)]
pub(crate) const DESCRIBE_PARTITIONER: Method = plain("describe_partitioner");
pub(crate) const DESCRIBE_KEYSPACE: Method = method("describe_keyspace", false, true, false);
pub(crate) const DESCRIBE_SPLITS: Method = plain("describe_splits");

/// Every method of the 0.6 IDL.
#[cfg(test)]
pub(crate) const ALL: [Method; 21] = [
    LOGIN,
    GET,
    GET_SLICE,
    MULTIGET,
    MULTIGET_SLICE,
    GET_COUNT,
    GET_RANGE_SLICE,
    GET_RANGE_SLICES,
    INSERT,
    BATCH_INSERT,
    REMOVE,
    BATCH_MUTATE,
    GET_STRING_PROPERTY,
    GET_STRING_LIST_PROPERTY,
    DESCRIBE_KEYSPACES,
    DESCRIBE_CLUSTER_NAME,
    DESCRIBE_VERSION,
    DESCRIBE_RING,
    DESCRIBE_PARTITIONER,
    DESCRIBE_KEYSPACE,
    DESCRIBE_SPLITS,
];

/// What the client of `method` sees for `err`.
pub(crate) fn to_thrift(method: Method, err: Error) -> ThriftError {
    match err {
        Error::InvalidRequest(why) if method.invalid => user(InvalidRequestException::new(why)),
        Error::NotFound if method.not_found => user(NotFoundException::new()),
        Error::Unavailable if method.unavailable => user(UnavailableException::new()),
        Error::Authentication(why) if method.auth => user(AuthenticationException::new(why)),
        Error::Authorization(why) if method.auth => user(AuthorizationException::new(why)),
        other => {
            tracing::error!(method = method.name, error = %other, "internal error");
            ThriftError::Application(ApplicationError::new(
                ApplicationErrorKind::InternalError,
                format!("Internal error processing {}", method.name),
            ))
        }
    }
}

/// An INTERNAL_ERROR carrying `message` instead of the generic text: for bad input to a
/// method that declares no exception (spec D5: describe_splits' token strings).
pub(crate) fn internal_with_message(method: Method, message: String) -> ThriftError {
    tracing::info!(method = method.name, %message, "request refused");
    let err = ApplicationError::new(ApplicationErrorKind::InternalError, message);
    crate::metrics::thrift_error(method.name, ThriftError::Application(err))
}

fn user<E: std::error::Error + Send + Sync + 'static>(e: E) -> ThriftError {
    ThriftError::User(Box::new(e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::fixture::{outcome, Outcome};

    /// Spec §3's throws column, as (method, ire, nfe, ue, authn/authz).
    const THROWS: [(&str, bool, bool, bool, bool); 21] = [
        ("login", false, false, false, true),
        ("get", true, true, true, false),
        ("get_slice", true, false, true, false),
        ("multiget", true, false, true, false),
        ("multiget_slice", true, false, true, false),
        ("get_count", true, false, true, false),
        ("get_range_slice", true, false, true, false),
        ("get_range_slices", true, false, true, false),
        ("insert", true, false, true, false),
        ("batch_insert", true, false, true, false),
        ("remove", true, false, true, false),
        ("batch_mutate", true, false, true, false),
        ("get_string_property", false, false, false, false),
        ("get_string_list_property", false, false, false, false),
        ("describe_keyspaces", false, false, false, false),
        ("describe_cluster_name", false, false, false, false),
        ("describe_version", false, false, false, false),
        ("describe_ring", true, false, false, false),
        ("describe_partitioner", false, false, false, false),
        ("describe_keyspace", false, true, false, false),
        ("describe_splits", false, false, false, false),
    ];

    #[test]
    fn each_kind_maps_to_a_declared_exception_or_an_internal_error() {
        for (m, (name, ire, nfe, ue, auth)) in ALL.into_iter().zip(THROWS) {
            assert_eq!(m.name, name);
            let internal = Outcome::Application(
                ApplicationErrorKind::InternalError,
                format!("Internal error processing {name}"),
            );
            let map = |e: Error| outcome::<()>(Err(to_thrift(m, e)));
            let or_internal =
                |declared: bool, o: Outcome| if declared { o } else { internal.clone() };
            assert_eq!(
                map(Error::invalid("why")),
                or_internal(ire, Outcome::Invalid("why".into())),
                "{name}"
            );
            assert_eq!(
                map(Error::NotFound),
                or_internal(nfe, Outcome::NotFound),
                "{name}"
            );
            assert_eq!(
                map(Error::Unavailable),
                or_internal(ue, Outcome::Unavailable),
                "{name}"
            );
            let authn = Outcome::Authentication("a".into());
            assert_eq!(
                map(Error::Authentication("a".into())),
                or_internal(auth, authn),
                "{name}"
            );
            let authz = Outcome::Authorization("z".into());
            assert_eq!(
                map(Error::Authorization("z".into())),
                or_internal(auth, authz),
                "{name}"
            );
            for e in [
                Error::Storage("disk".into()),
                Error::Corrupt("bad".into()),
                Error::config("X", "y"),
            ] {
                assert_eq!(map(e), internal, "{name}");
            }
        }
    }
}
