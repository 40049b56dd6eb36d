//! The one mapping from the crate's [`Error`] to what a Thrift client sees (`docs/api.md#wire`,
//! `#methods`).
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

// The rows of the one method table, under the names the service's calls use.
pub(crate) use crate::protocol::methods::{
    BATCH_INSERT, BATCH_MUTATE, DESCRIBE_KEYSPACE, DESCRIBE_RING, DESCRIBE_SPLITS, GET, GET_COUNT,
    GET_RANGE_SLICE, GET_RANGE_SLICES, GET_SLICE, INSERT, LOGIN, MULTIGET, MULTIGET_SLICE, REMOVE,
};
pub(crate) use crate::protocol::Method;

/// What the client of `method` sees for `err`.
pub(crate) fn to_thrift(method: Method, err: Error) -> ThriftError {
    let throws = method.throws;
    match err {
        Error::InvalidRequest(why) if throws.invalid_request => {
            user(InvalidRequestException::new(why))
        }
        Error::NotFound if throws.not_found => user(NotFoundException::new()),
        Error::Unavailable if throws.unavailable => user(UnavailableException::new()),
        Error::Authentication(why) if throws.authentication => {
            user(AuthenticationException::new(why))
        }
        Error::Authorization(why) if throws.authorization => user(AuthorizationException::new(why)),
        other => {
            tracing::error!(method = method.name, error = %other, "internal error");
            ThriftError::Application(ApplicationError::new(
                ApplicationErrorKind::InternalError,
                format!("Internal error processing {}", method.name),
            ))
        }
    }
}

/// An INTERNAL_ERROR carrying `message` instead of the generic text: for bad input to a method
/// that declares no exception (`docs/compatibility.md#d5`: describe_splits' token strings).
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
    use crate::protocol::methods::METHODS;
    use crate::service::tests::fixture::{outcome, Outcome};

    /// The throws column of `docs/api.md#methods`, as (method, ire, nfe, ue, authn/authz).
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
        assert_eq!(METHODS.len(), THROWS.len());
        for (&&m, (name, ire, nfe, ue, auth)) in METHODS.iter().zip(THROWS) {
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
