"""Connections, keyspace and column family handles, and batches.

A Connection wraps one Thrift connection (one socket; not safe to share between threads).
Keyspace and ColumnFamily handles are cheap views on it that know the comparators, so
names go in and come out as Python values (see ilion_client.names).

A connection speaks the 0.6 API (port 9160) or, with `api="later"`, the later API of
Cassandra 0.7–3.11 (ilion's port 9161): the handles are the same; underneath, the later API
takes keys as bytes, keeps the keyspace per connection (set when a call needs another one),
counts with a predicate and gives columns a TTL. Row keys given as `str` are sent as UTF-8
and read back as `str` when they decode, as `bytes` otherwise.
"""

import threading
import time
from dataclasses import dataclass, field

from thrift.Thrift import TApplicationException
from thrift.protocol import TBinaryProtocol
from thrift.transport import TSocket, TTransport

from . import bindings as _bindings
from .errors import (AuthenticationFailed, AuthorizationFailed, ConnectionFailed, InvalidRequest,
                     NotFound, ServerError, TimedOut, Unavailable)
from .names import NameCodec

_clock_lock = threading.Lock()
_last_timestamp = 0


def timestamp():
    """Microseconds since the epoch, strictly increasing within this process.

    The server keeps the write with the highest timestamp, and a delete hides writes with
    a timestamp not above its own. Two calls in the same microsecond would tie, so a
    delete followed at once by a re-insert could lose the insert; hence the +1.
    """
    global _last_timestamp
    with _clock_lock:
        now = time.time_ns() // 1000
        _last_timestamp = now if now > _last_timestamp else _last_timestamp + 1
        return _last_timestamp


@dataclass(frozen=True)
class Column:
    """A column as read: `name` decoded by the comparator, `value` raw bytes, and (later
    API only) the `ttl` it was written with, if any."""

    name: object
    value: bytes
    timestamp: int
    ttl: int = None

    @property
    def text(self):
        """The value decoded as UTF-8."""
        return self.value.decode("utf-8")


@dataclass(frozen=True)
class SuperColumn:
    """A super column as read: its name and its subcolumns in comparator order."""

    name: object
    columns: list = field(default_factory=list)

    def as_dict(self):
        """{subcolumn name: value bytes}."""
        return {c.name: c.value for c in self.columns}


def _value_bytes(value):
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    if isinstance(value, str):
        return value.encode("utf-8")
    raise TypeError(f"a column value must be bytes or str, not {type(value).__name__}")


class Connection:
    """One connection to an ilion (or Cassandra 0.6) server. Use `connect()` to make one."""

    def __init__(self, host="localhost", port=9160, framed=False, login=None, timeout=10.0,
                 accelerated=None, consistency="ONE", bindings=None, api="0.6"):
        if api not in ("0.6", "later"):
            raise ValueError(f"api must be '0.6' or 'later', not {api!r}")
        #: True when this connection speaks the later API.
        self.later = api == "later"
        self._session_keyspace = None
        self.gen = bindings or _bindings.load(api=api)
        self.types = self.gen.ttypes
        self.host, self.port, self.framed = host, port, framed
        self.consistency = getattr(self.types.ConsistencyLevel, consistency)
        self._credentials = _credentials(login)
        self._logged_in = set()
        self._keyspaces = {}
        socket = TSocket.TSocket(host, port)
        if timeout is not None:
            socket.setTimeout(timeout * 1000)
        wrap = TTransport.TFramedTransport if framed else TTransport.TBufferedTransport
        self.transport = wrap(socket)
        if accelerated is None:
            accelerated = _fastbinary_available()
        protocol = (TBinaryProtocol.TBinaryProtocolAccelerated if accelerated
                    else TBinaryProtocol.TBinaryProtocol)(self.transport)
        #: The generated Cassandra.Client, for calls this package does not wrap.
        self.thrift = self.gen.Cassandra.Client(protocol)
        try:
            self.transport.open()
        except Exception as e:
            raise ConnectionFailed(f"cannot connect to {host}:{port}: {e}") from None

    def __repr__(self):
        return f"<ilion_client.Connection {self.host}:{self.port}{' framed' if self.framed else ''}>"

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        self.transport.close()

    def call(self, method, *args):
        """Calls a Thrift method, turning the server's exceptions into ilion_client errors."""
        t = self.types
        try:
            return getattr(self.thrift, method)(*args)
        except t.InvalidRequestException as e:
            raise InvalidRequest(e.why) from None
        except t.NotFoundException:
            raise NotFound(f"{method}: nothing found") from None
        except t.UnavailableException:
            raise Unavailable(f"{method}: not enough replicas") from None
        except t.TimedOutException:
            raise TimedOut(f"{method}: timed out") from None
        except t.AuthenticationException as e:
            raise AuthenticationFailed(e.why) from None
        except t.AuthorizationException as e:
            raise AuthorizationFailed(e.why) from None
        except TApplicationException as e:
            raise ServerError(f"{method}: {e.message}") from None
        except (TTransport.TTransportException, OSError) as e:
            raise ConnectionFailed(f"{method}: {e}") from None

    def data(self, keyspace, method, *args):
        """Calls a method on `keyspace`: the 0.6 API names it in every call; the later API
        keeps it per connection, so it is set first when it changes."""
        if not self.later:
            return self.call(method, keyspace, *args)
        if self._session_keyspace != keyspace:
            self.call("set_keyspace", keyspace)
            self._session_keyspace = keyspace
        return self.call(method, *args)

    def login(self, keyspace, username, password):
        """Logs in for `keyspace` (0.6 checks the user's access to it at login; the later
        API logs the connection in and checks access on each call)."""
        request = self.types.AuthenticationRequest({"username": username, "password": password})
        if self.later:
            if not self._logged_in:
                self.call("login", request)
        else:
            self.call("login", keyspace, request)
        self._logged_in.add(keyspace)

    def keyspace(self, name):
        """The handle for keyspace `name`, learning its column families from the server.

        With credentials given to connect(), the first handle for each keyspace logs in
        for it. An unknown keyspace raises NotFound.
        """
        if name not in self._keyspaces:
            if self._credentials and name not in self._logged_in:
                self.login(name, *self._credentials)
            try:
                schema = self.call("describe_keyspace", name)
            except NotFound:
                raise NotFound(f"keyspace {name} does not exist") from None
            if self.later:
                schema = _as_0_6_description(schema)
            self._keyspaces[name] = Keyspace(self, name, schema)
        return self._keyspaces[name]

    __getitem__ = keyspace

    def describe_version(self):
        return self.call("describe_version")

    def describe_cluster_name(self):
        return self.call("describe_cluster_name")

    def describe_keyspaces(self):
        found = self.call("describe_keyspaces")
        return {ks.name for ks in found} if self.later else set(found)

    def describe_partitioner(self):
        return self.call("describe_partitioner")


def connect(host="localhost", port=9160, framed=False, login=None, **options):
    """Opens a Connection.

    `framed` picks the framed transport (ilion accepts both on one port; a Cassandra 0.6
    server only the one its config names). `login` is (username, password) or a dict with
    those keys, used to log in for each keyspace on first use. Other options: `timeout`
    (seconds, default 10), `accelerated` (the C protocol; default when available),
    `consistency` (a ConsistencyLevel name, default "ONE"), `bindings` (see bindings.load),
    `api` ("0.6", the default, or "later" for the later API's listener, port 9161 by
    default on ilion).
    """
    return Connection(host, port, framed=framed, login=login, **options)


def _as_0_6_description(ks_def):
    """A later KsDef as 0.6's describe_keyspace map: {cf: {"Type", "CompareWith", ...}}."""
    out = {}
    for cf in ks_def.cf_defs:
        description = {"Type": cf.column_type, "CompareWith": cf.comparator_type}
        if cf.subcomparator_type:
            description["CompareSubcolumnsWith"] = cf.subcomparator_type
        out[cf.name] = description
    return out


def _credentials(login):
    if login is None:
        return None
    if isinstance(login, dict):
        return login["username"], login["password"]
    username, password = login
    return username, password


def _fastbinary_available():
    try:
        from thrift.protocol import fastbinary  # noqa: F401
        return True
    except ImportError:
        return False


class Keyspace:
    """A keyspace: column family handles (`ks["Standard1"]`) and batches."""

    def __init__(self, connection, name, schema):
        self.connection = connection
        self.name = name
        #: describe_keyspace's answer: {cf: {"Type": ..., "CompareWith": ..., ...}}.
        self.schema = schema
        self._cfs = {}

    def __repr__(self):
        return f"<Keyspace {self.name}: {', '.join(sorted(self.schema))}>"

    def column_family(self, name):
        """The handle for column family `name`.

        A name the schema does not know still gets a handle (with bytes names), so the
        server's own error reaches the caller on first use.
        """
        if name not in self._cfs:
            self._cfs[name] = ColumnFamily(self, name, self.schema.get(name, {}))
        return self._cfs[name]

    __getitem__ = column_family

    def batch(self, consistency=None):
        """A Batch: collect inserts and removes, send them as one batch_mutate on exit."""
        return Batch(self, consistency)


class ColumnFamily:
    """Reads and writes on one column family, with names converted by its comparators.

    For a Super CF, the top-level names are super column names; pass `super_column=` to
    reach the subcolumns inside one.
    """

    def __init__(self, keyspace, name, description):
        self.keyspace = keyspace
        self.name = name
        self.connection = keyspace.connection
        self.types = self.connection.types
        self.is_super = description.get("Type") == "Super"
        #: Codec for top-level names (columns, or super columns in a Super CF).
        self.names = NameCodec(description.get("CompareWith", "BytesType"))
        #: Codec for subcolumn names (Super CFs only).
        self.subnames = NameCodec(description.get("CompareSubcolumnsWith", "BytesType"))

    def __repr__(self):
        kind = f"Super {self.names.kind}/{self.subnames.kind}" if self.is_super else self.names.kind
        return f"<ColumnFamily {self.keyspace.name}.{self.name} ({kind})>"

    # --- conversions --------------------------------------------------------------------------

    def _column_codec(self, super_column):
        return self.subnames if super_column is not None else self.names

    def _encode_sc(self, super_column):
        return None if super_column is None else self.names.encode(super_column)

    def _column(self, c, codec):
        return Column(codec.decode(c.name), c.value, c.timestamp, getattr(c, "ttl", None))

    def _key(self, key):
        """A row key as the API takes it: bytes for the later API, str for 0.6."""
        if self.connection.later:
            return key.encode("utf-8") if isinstance(key, str) else bytes(key)
        return key.decode("utf-8") if isinstance(key, (bytes, bytearray)) else key

    def _data(self, method, *args):
        return self.connection.data(self.keyspace.name, method, *args)

    def _from_cosc(self, cosc, codec):
        if cosc.super_column is not None:
            sc = cosc.super_column
            return SuperColumn(self.names.decode(sc.name),
                               [self._column(c, self.subnames) for c in sc.columns])
        return self._column(cosc.column, codec)

    def _path(self, name=None, super_column=None):
        codec = self._column_codec(super_column)
        return self.types.ColumnPath(
            column_family=self.name, super_column=self._encode_sc(super_column),
            column=None if name is None else codec.encode(name))

    def _parent(self, super_column=None):
        return self.types.ColumnParent(column_family=self.name,
                                       super_column=self._encode_sc(super_column))

    def predicate(self, start=None, finish=None, reversed=False, count=100, names=None,
                  super_column=None):
        """A SlicePredicate: `names` (a list) or the range start..finish (both inclusive)."""
        codec = self._column_codec(super_column)
        if names is not None:
            return self.types.SlicePredicate(column_names=[codec.encode(n) for n in names])
        bound = (lambda v: b"" if v is None else codec.encode(v))
        return self.types.SlicePredicate(slice_range=self.types.SliceRange(
            start=bound(start), finish=bound(finish), reversed=reversed, count=count))

    # --- writes -------------------------------------------------------------------------------

    def insert(self, key, name, value, super_column=None, timestamp=None, ttl=None):
        """Writes one column (in a Super CF: one subcolumn of `super_column`); with the later
        API it may expire after `ttl` seconds."""
        cl = self.connection.consistency
        if self.connection.later:
            column = self.types.Column(name=self._column_codec(super_column).encode(name),
                                       value=_value_bytes(value), timestamp=_or_now(timestamp),
                                       ttl=ttl)
            self._data("insert", self._key(key), self._parent(super_column), column, cl)
            return
        _no_ttl(ttl)
        self._data("insert", self._key(key), self._path(name, super_column), _value_bytes(value),
                   _or_now(timestamp), cl)

    def remove(self, key, name=None, super_column=None, timestamp=None):
        """Deletes a column, a super column, a subcolumn or (with neither) the whole row."""
        self._data("remove", self._key(key), self._path(name, super_column), _or_now(timestamp),
                   self.connection.consistency)

    # --- reads --------------------------------------------------------------------------------

    def get(self, key, name=None, super_column=None):
        """One Column, or a whole SuperColumn when only `super_column` is given.

        Raises NotFound when nothing live is there.
        """
        try:
            cosc = self._data("get", self._key(key), self._path(name, super_column),
                              self.connection.consistency)
        except NotFound:
            where = f"{self.name}[{key!r}]"
            if super_column is not None:
                where += f"[{super_column!r}]"
            if name is not None:
                where += f"[{name!r}]"
            raise NotFound(f"{where} not found") from None
        return self._from_cosc(cosc, self._column_codec(super_column))

    def get_slice(self, key, start=None, finish=None, reversed=False, count=100, names=None,
                  super_column=None):
        """Columns (or SuperColumns) of one row in comparator order; see `predicate`."""
        got = self._data(
            "get_slice", self._key(key), self._parent(super_column),
            self.predicate(start, finish, reversed, count, names, super_column),
            self.connection.consistency)
        codec = self._column_codec(super_column)
        return [self._from_cosc(c, codec) for c in got]

    def get_dict(self, key, super_column=None, count=10000):
        """A whole row (or super column) as {name: value}; SuperColumns map to dicts."""
        return {c.name: (c.as_dict() if isinstance(c, SuperColumn) else c.value)
                for c in self.get_slice(key, count=count, super_column=super_column)}

    def multiget_slice(self, keys, start=None, finish=None, reversed=False, count=100,
                       names=None, super_column=None):
        """{key: get_slice(key, ...)} for many rows in one round trip (missing rows: [])."""
        asked = {self._key(k): k for k in keys}
        got = self._data(
            "multiget_slice", list(asked), self._parent(super_column),
            self.predicate(start, finish, reversed, count, names, super_column),
            self.connection.consistency)
        codec = self._column_codec(super_column)
        return {asked.get(k, k): [self._from_cosc(c, codec) for c in cols]
                for k, cols in got.items()}

    def get_count(self, key, super_column=None):
        """How many live columns (or super columns) the row (or super column) holds."""
        cl = self.connection.consistency
        if self.connection.later:
            everything = self.predicate(count=2**31 - 1, super_column=super_column)
            return self._data("get_count", self._key(key), self._parent(super_column),
                              everything, cl)
        return self._data("get_count", self._key(key), self._parent(super_column), cl)

    def get_range(self, start="", finish="", page_size=100, include_empty=False, **slice_args):
        """Yields (key, columns) for every row from `start` to `finish`, a page at a time.

        Rows come in the partitioner's order (MD5 order under RandomPartitioner); "" means
        the beginning or the end of the ring. Each page starts at the last key of the one
        before, as 0.6 clients page; that row, returned twice, is dropped. Rows with no
        (matching) columns, such as deleted rows the server still reports, are skipped
        unless `include_empty`. `slice_args` are those of `predicate`.
        """
        if page_size < 2:
            raise ValueError("page_size must be at least 2: each page repeats one row")
        predicate = self.predicate(**slice_args)
        codec = self._column_codec(slice_args.get("super_column"))
        parent = self._parent(slice_args.get("super_column"))
        start_key, seen, finish = self._key(start), None, self._key(finish)
        while True:
            page = self._data(
                "get_range_slices", parent, predicate,
                self.types.KeyRange(start_key=start_key, end_key=finish, count=page_size),
                self.connection.consistency)
            for row in page:
                if row.key == seen:
                    continue
                if row.columns or include_empty:
                    yield _readable_key(row.key), [self._from_cosc(c, codec) for c in row.columns]
            if len(page) < page_size or (finish and page[-1].key == finish):
                return
            start_key = seen = page[-1].key


def _readable_key(key):
    """A row key read back: str when it is UTF-8 (every 0.6 key), else bytes."""
    if isinstance(key, bytes):
        try:
            return key.decode("utf-8")
        except UnicodeDecodeError:
            return key
    return key


def _no_ttl(ttl):
    if ttl is not None:
        raise ValueError("the 0.6 API has no TTLs: connect with api='later'")


def _now():
    return timestamp()


def _or_now(ts):
    return _now() if ts is None else ts


class Batch:
    """Inserts and removes collected for one batch_mutate, sent when the `with` block ends.

        with ks.batch() as b:
            b.insert("BlogEntries", slug, "title", "Hello")
            b.insert("Comments", slug, "commenter", "Ann", super_column=comment_id)
            b.remove("TaggedPosts", "draft", uuid_of_post)

    Nothing is sent if the block raises. Every mutation shares one timestamp unless given
    its own. `send()` may also be called directly; the batch is then empty again.
    """

    def __init__(self, keyspace, consistency=None):
        self.keyspace = keyspace
        self.connection = keyspace.connection
        self.types = self.connection.types
        self.consistency = consistency
        self.timestamp = None
        self._mutations = {}  # key -> cf -> [Mutation]
        self._supers = {}  # (key, cf, encoded super column) -> SuperColumn being filled

    def __enter__(self):
        return self

    def __exit__(self, exc_type, *rest):
        if exc_type is None:
            self.send()

    def __len__(self):
        return sum(len(ms) for cfs in self._mutations.values() for ms in cfs.values())

    def _cf(self, cf):
        return cf if isinstance(cf, ColumnFamily) else self.keyspace.column_family(cf)

    def _ts(self, timestamp):
        if timestamp is not None:
            return timestamp
        if self.timestamp is None:
            self.timestamp = _now()
        return self.timestamp

    def _add(self, key, cf, mutation):
        key = cf._key(key)
        self._mutations.setdefault(key, {}).setdefault(cf.name, []).append(mutation)

    def insert(self, cf, key, name, value, super_column=None, timestamp=None, ttl=None):
        """Queues a column (or a subcolumn of `super_column`) write, expiring after `ttl`
        seconds with the later API; returns the batch."""
        cf = self._cf(cf)
        t = self.types
        column = t.Column(name=cf._column_codec(super_column).encode(name),
                          value=_value_bytes(value), timestamp=self._ts(timestamp))
        if self.connection.later:
            column.ttl = ttl
        else:
            _no_ttl(ttl)
        if super_column is None:
            self._add(key, cf, t.Mutation(column_or_supercolumn=t.ColumnOrSuperColumn(column=column)))
            return self
        # Subcolumns of one super column travel together in one SuperColumn.
        sc_name = cf.names.encode(super_column)
        slot = (key, cf.name, sc_name)
        if slot not in self._supers:
            sc = t.SuperColumn(name=sc_name, columns=[])
            self._supers[slot] = sc
            self._add(key, cf, t.Mutation(column_or_supercolumn=t.ColumnOrSuperColumn(super_column=sc)))
        self._supers[slot].columns.append(column)
        return self

    def remove(self, cf, key, names=None, super_column=None, timestamp=None):
        """Queues a delete: the given column `names` (one name or a list), the whole
        `super_column`, its subcolumns `names`, or, with neither, the whole row of `cf`."""
        cf = self._cf(cf)
        t = self.types
        predicate = None
        if names is not None:
            if not isinstance(names, (list, tuple, set)):
                names = [names]
            codec = cf._column_codec(super_column)
            predicate = t.SlicePredicate(column_names=[codec.encode(n) for n in names])
        deletion = t.Deletion(timestamp=self._ts(timestamp), super_column=cf._encode_sc(super_column),
                              predicate=predicate)
        self._add(key, cf, t.Mutation(deletion=deletion))
        return self

    def send(self):
        """Sends everything queued as one batch_mutate (nothing when empty)."""
        if not self._mutations:
            return
        mutations, self._mutations, self._supers, self.timestamp = self._mutations, {}, {}, None
        consistency = (self.connection.consistency if self.consistency is None
                       else getattr(self.types.ConsistencyLevel, self.consistency))
        self.connection.data(self.keyspace.name, "batch_mutate", mutations, consistency)
