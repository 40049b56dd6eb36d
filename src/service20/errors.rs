//! The one mapping from the crate's [`Error`] to what a later-API client sees
//! (`docs/api-later.md#errors`). A kind becomes its 20.1.0 exception only when the method's
//! `throws` clause declares it; anything else — storage failures, corruption, an undeclared
//! kind — becomes TApplicationException INTERNAL_ERROR `Internal error processing <method>`,
//! with the real cause in the server log. (Cassandra 2.2 closed the connection instead; the
//! spec's §1.2 says ilion never does.)

use crate::error::Error;
use crate::protocol::v20::generated::{
    AuthenticationException, AuthorizationException, InvalidRequestException, NotFoundException,
    UnavailableException,
};
use crate::protocol::{ApplicationError, ApplicationErrorKind, Method, ThriftError};

/// What the client of `method` sees for `err`.
pub(super) fn to_thrift(method: &Method, err: Error) -> ThriftError {
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

fn user<E: std::error::Error + Send + Sync + 'static>(e: E) -> ThriftError {
    ThriftError::User(Box::new(e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::v20::methods::{DESCRIBE_KEYSPACE, GET, LOGIN, SET_KEYSPACE};

    fn kind(e: &ThriftError) -> String {
        match e {
            ThriftError::User(inner) => {
                let text = format!("{inner:?}");
                text.split(|c: char| !c.is_alphanumeric())
                    .next()
                    .unwrap_or("")
                    .to_string()
            }
            ThriftError::Application(a) => format!("{:?}: {}", a.kind, a.message),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn declared_kinds_become_their_exception_and_the_rest_internal_errors() {
        let ire = || Error::invalid("why");
        assert_eq!(kind(&to_thrift(&GET, ire())), "InvalidRequestException");
        assert_eq!(kind(&to_thrift(&GET, Error::NotFound)), "NotFoundException");
        assert_eq!(
            kind(&to_thrift(&GET, Error::Unavailable)),
            "UnavailableException"
        );
        assert_eq!(
            kind(&to_thrift(&DESCRIBE_KEYSPACE, Error::NotFound)),
            "NotFoundException"
        );
        let login = to_thrift(&LOGIN, Error::Authentication("no".into()));
        assert_eq!(kind(&login), "AuthenticationException");
        // set_keyspace declares only ire.
        assert_eq!(
            kind(&to_thrift(&SET_KEYSPACE, Error::NotFound)),
            "InternalError: Internal error processing set_keyspace"
        );
        assert_eq!(
            kind(&to_thrift(&GET, Error::Storage("disk".into()))),
            "InternalError: Internal error processing get"
        );
    }
}
