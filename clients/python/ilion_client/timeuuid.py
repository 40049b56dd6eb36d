"""Version 1 (time-based) UUIDs, the names of TimeUUIDType columns.

The server sorts TimeUUIDs by their 60-bit timestamp, and two with the same timestamp by
their raw bytes (unsigned). So for any instant there is a smallest and a greatest possible
TimeUUID: `min_for` and `max_for`. They make slice bounds that select by time:

    start, finish = time_range(monday, friday)
    cf.get_slice("row", start=start, finish=finish)          # oldest first
    cf.get_slice("row", start=max_for(friday), reversed=True)  # newest first, up to Friday

Times are datetimes (a naive one is local time, as `datetime.timestamp` has it), Unix
timestamps in seconds (int or float), or a TimeUUID, whose exact timestamp is used. UUID
timestamps count 100 ns intervals since 1582-10-15, so a time is rounded to 100 ns; a
datetime holds only microseconds, so pass the UUID itself to bound at one exactly.
"""

import datetime as _dt
import random as _random
import uuid as _uuid

# 100 ns intervals between 1582-10-15 (the UUID epoch) and 1970-01-01.
_UUID_EPOCH_OFFSET = 0x01B21DD213814000
_UNIX_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)
_rng = _random.SystemRandom()


def _ticks(when):
    """100 ns intervals since the UUID epoch for a datetime, Unix seconds or a TimeUUID."""
    if isinstance(when, _uuid.UUID):
        _check(when)
        return when.time
    if isinstance(when, _dt.datetime):
        if when.tzinfo is None:
            when = when.astimezone()
        delta = when - _UNIX_EPOCH
        micros = (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds
        return micros * 10 + _UUID_EPOCH_OFFSET
    if isinstance(when, (int, float)) and not isinstance(when, bool):
        if isinstance(when, int):
            return when * 10_000_000 + _UUID_EPOCH_OFFSET
        return int(round(when * 1e7)) + _UUID_EPOCH_OFFSET
    raise TypeError(f"expected a datetime, Unix seconds or a TimeUUID, got {type(when).__name__}")


def _time_fields(ticks):
    if not 0 <= ticks < 1 << 60:
        raise ValueError("time outside what a version 1 UUID can hold")
    time_low = ticks & 0xFFFFFFFF
    time_mid = (ticks >> 32) & 0xFFFF
    time_hi_version = ((ticks >> 48) & 0x0FFF) | 0x1000
    return (time_low.to_bytes(4, "big") + time_mid.to_bytes(2, "big")
            + time_hi_version.to_bytes(2, "big"))


def new():
    """A fresh TimeUUID for now; later calls in this process always sort after earlier ones."""
    return _uuid.uuid1()


def from_time(when, clock_seq=None, node=None):
    """A TimeUUID for the given time, made unique by a random clock sequence and node.

    Use it to give a past event (say, a seeded blog post) a name in its proper place.
    `clock_seq` (14 bits) and `node` (48 bits) may be fixed for reproducible UUIDs.
    """
    if clock_seq is None:
        clock_seq = _rng.getrandbits(14)
    if node is None:
        node = _rng.getrandbits(48) | 0x010000000000  # multicast bit: not a real MAC (RFC 4122)
    tail = (0x8000 | (clock_seq & 0x3FFF)).to_bytes(2, "big") + (node & (1 << 48) - 1).to_bytes(6, "big")
    return _uuid.UUID(bytes=_time_fields(_ticks(when)) + tail)


def min_for(when):
    """The smallest TimeUUID at `when`: a slice start that includes everything from then on."""
    return _uuid.UUID(bytes=_time_fields(_ticks(when)) + b"\x00" * 8)


def max_for(when):
    """The greatest TimeUUID at `when`: a slice end that includes everything up to then."""
    return _uuid.UUID(bytes=_time_fields(_ticks(when)) + b"\xff" * 8)


def time_range(start, end):
    """(min_for(start), max_for(end)): slice bounds for every TimeUUID in [start, end]."""
    return min_for(start), max_for(end)


def to_unix(u):
    """The Unix time, in seconds, that a TimeUUID carries."""
    _check(u)
    return (u.time - _UUID_EPOCH_OFFSET) / 1e7


def to_datetime(u):
    """The time a TimeUUID carries, as an aware UTC datetime (microsecond precision)."""
    _check(u)
    micros = (u.time - _UUID_EPOCH_OFFSET) // 10
    return _UNIX_EPOCH + _dt.timedelta(microseconds=micros)


def _check(u):
    # The version nibble, not UUID.version: min_for/max_for UUIDs do not carry the RFC 4122
    # variant bits, for which Python reports no version at all.
    if not isinstance(u, _uuid.UUID) or u.bytes[6] >> 4 != 1:
        raise ValueError(f"not a version 1 UUID: {u!r}")
