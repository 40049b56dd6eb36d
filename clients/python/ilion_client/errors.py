"""Exceptions raised by ilion_client, one per thing a caller may want to handle.

The server's declared Thrift exceptions are translated so callers need not import the
generated types; the server's own text stays in the message (and in `.why`).
"""


class IlionError(Exception):
    """Base class of every error this package raises."""


class InvalidRequest(IlionError, ValueError):
    """The server refused the request (InvalidRequestException); `why` is its message."""

    def __init__(self, why):
        super().__init__(why)
        self.why = why


class NotFound(IlionError, KeyError):
    """`get` found nothing live at the path (NotFoundException)."""

    def __str__(self):  # KeyError would quote the message
        return self.args[0] if self.args else "not found"


class Unavailable(IlionError):
    """Not enough replicas for the consistency level (UnavailableException)."""


class TimedOut(IlionError):
    """The server gave up waiting (TimedOutException)."""


class AuthenticationFailed(IlionError):
    """login was refused (AuthenticationException); `why` is the server's message."""

    def __init__(self, why):
        super().__init__(why)
        self.why = why


class AuthorizationFailed(IlionError):
    """The user may not use the keyspace (AuthorizationException)."""

    def __init__(self, why):
        super().__init__(why)
        self.why = why


class ServerError(IlionError):
    """An undeclared failure on the server (TApplicationException), e.g. an internal error."""


class ConnectionFailed(IlionError, ConnectionError):
    """The connection could not be made or was lost."""
