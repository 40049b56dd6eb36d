"""Column names as Python values, converted by the column family's comparator.

On the wire every name is raw bytes; the comparator (from describe_keyspace) says what
those bytes mean. A `NameCodec` turns Python values into bytes and back:

    comparator        Python value
    BytesType         bytes (a str is accepted on the way in and sent as UTF-8)
    AsciiType         str
    UTF8Type          str
    LongType          int (8 bytes, big-endian, signed)
    LexicalUUIDType   uuid.UUID
    TimeUUIDType      uuid.UUID (see ilion_client.timeuuid)
    anything else     bytes

Raw bytes are passed through for every comparator, so a name read from elsewhere can
always be sent back as it came.
"""

import struct
import uuid

_PREFIX = "org.apache.cassandra.db.marshal."


class NameCodec:
    """Encodes and decodes names for one comparator (a class name, short or full)."""

    def __init__(self, comparator):
        self.comparator = comparator
        self.kind = comparator[len(_PREFIX):] if comparator.startswith(_PREFIX) else comparator

    def __repr__(self):
        return f"NameCodec({self.kind})"

    def encode(self, value):
        """Python value -> name bytes; raises TypeError for a value of the wrong kind."""
        if isinstance(value, (bytes, bytearray)):
            return bytes(value)
        kind = self.kind
        if kind == "LongType":
            if isinstance(value, int) and not isinstance(value, bool):
                return struct.pack(">q", value)
        elif kind in ("TimeUUIDType", "LexicalUUIDType"):
            if isinstance(value, uuid.UUID):
                return value.bytes
        elif kind == "AsciiType":
            if isinstance(value, str):
                return value.encode("ascii")
        elif isinstance(value, str):  # UTF8Type, and BytesType for convenience
            return value.encode("utf-8")
        raise TypeError(f"a {kind} name must be {self.python_type()}, not {type(value).__name__}")

    def decode(self, raw):
        """Name bytes from the server -> Python value (bytes when they do not fit the type)."""
        kind = self.kind
        try:
            if kind == "LongType" and len(raw) == 8:
                return struct.unpack(">q", raw)[0]
            if kind in ("TimeUUIDType", "LexicalUUIDType") and len(raw) == 16:
                return uuid.UUID(bytes=raw)
            if kind == "UTF8Type":
                return raw.decode("utf-8")
            if kind == "AsciiType":
                return raw.decode("ascii")
        except UnicodeDecodeError:
            pass
        return raw

    def python_type(self):
        return {"LongType": "int", "TimeUUIDType": "uuid.UUID", "LexicalUUIDType": "uuid.UUID",
                "AsciiType": "str", "UTF8Type": "str", "BytesType": "bytes or str"}.get(self.kind, "bytes")
