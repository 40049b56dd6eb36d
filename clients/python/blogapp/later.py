"""What the blog does only over the later API (Cassandra 0.7–3.11's Thrift interface).

    Sessions     created through the API: row per session, keyed by 16 random bytes (a
                 binary key no 0.6 client can address), with one column `author` written
                 with a TTL, so a session ends by itself
    PostViews    a counter column family created through the API: row per post slug,
                 counter `views`, incremented each time the post is shown
    BlogEntries  gets a KEYS index on `author` (an update of its definition), so the posts
                 of one author are one get_indexed_slices

Each command creates what it needs the first time it runs; later runs find it in place.
Over the 0.6 API these commands are refused with a message saying so.
"""

import os

from ilion_client import NotFound

from .store import KEYSPACE, BlogError

SESSIONS = "Sessions"
VIEWS = "PostViews"
AUTHOR_INDEX = "BlogEntries_author"
BYTES = "org.apache.cassandra.db.marshal.BytesType"
UTF8 = "org.apache.cassandra.db.marshal.UTF8Type"
COUNTER = "org.apache.cassandra.db.marshal.CounterColumnType"


class LaterBlog:
    """Sessions, view counts and posts by author, for a Blog on a later-API connection."""

    def __init__(self, blog):
        self.blog = blog
        self.conn = blog.keyspace.connection
        if not self.conn.later:
            raise BlogError("this command needs the later API: run with --api later")
        self.t = self.conn.types
        self.one = self.t.ConsistencyLevel.ONE

    def _call(self, method, *args):
        return self.conn.data(KEYSPACE, method, *args)

    def _definitions(self):
        ks = self.conn.call("describe_keyspace", KEYSPACE)
        return {cf.name: cf for cf in ks.cf_defs}

    def _ensure_cf(self, name, **fields):
        """Creates column family `name` of BloggyAppy unless it exists."""
        if name not in self._definitions():
            self.conn.call("system_add_column_family", self.t.CfDef(
                keyspace=KEYSPACE, name=name, comparator_type=UTF8, **fields))

    def ensure_author_index(self):
        """Gives BlogEntries a KEYS index on `author` unless it has one."""
        t = self.t
        entries = self._definitions()["BlogEntries"]
        metadata = entries.column_metadata or []
        if any(c.name == b"author" and c.index_type is not None for c in metadata):
            return
        entries.column_metadata = [c for c in metadata if c.name != b"author"] + [t.ColumnDef(
            name=b"author", validation_class=BYTES, index_type=t.IndexType.KEYS,
            index_name=AUTHOR_INDEX)]
        self.conn.call("system_update_column_family", entries)

    # --- sessions -----------------------------------------------------------------------------

    def login(self, author, ttl):
        """Opens a session for an existing author, ending after `ttl` seconds; returns its id
        (hex of the 16-byte row key)."""
        self.blog.author(author)  # BlogError when there is no such author
        self._ensure_cf(SESSIONS, comment="login sessions; their columns expire")
        key = os.urandom(16)
        self.conn.keyspace(KEYSPACE)[SESSIONS].insert(key, "author", author, ttl=ttl)
        return key.hex()

    def whoami(self, session):
        """The author of a session that is still open."""
        try:
            key = bytes.fromhex(session)
        except ValueError:
            raise BlogError(f"not a session id: {session!r}") from None
        if SESSIONS not in self._definitions():
            raise BlogError("no open session with that id (it may have expired)")
        try:
            return self.conn.keyspace(KEYSPACE)[SESSIONS].get(key, "author").text
        except NotFound:
            raise BlogError("no open session with that id (it may have expired)") from None

    # --- views --------------------------------------------------------------------------------

    def count_view(self, slug):
        """Adds one to the post's views; returns the new count."""
        t = self.t
        self._ensure_cf(VIEWS, default_validation_class=COUNTER, comment="views per post")
        self._call("add", slug.encode(), t.ColumnParent(column_family=VIEWS),
                   t.CounterColumn(name=b"views", value=1), self.one)
        return self.views(slug)

    def views(self, slug):
        if VIEWS not in self._definitions():
            return 0
        try:
            got = self._call("get", slug.encode(),
                             self.t.ColumnPath(column_family=VIEWS, column=b"views"), self.one)
        except NotFound:
            return 0
        return got.counter_column.value

    # --- posts by author ----------------------------------------------------------------------

    def by_author(self, author, limit=10):
        """The author's posts, newest first, found through the author index."""
        if limit < 1:
            raise BlogError("limit must be at least 1")
        self.ensure_author_index()
        t = self.t
        clause = t.IndexClause(expressions=[t.IndexExpression(
            column_name=b"author", op=t.IndexOperator.EQ, value=author.encode())],
            start_key=b"", count=10000)
        everything = t.SlicePredicate(slice_range=t.SliceRange(b"", b"", False, 100))
        rows = self._call("get_indexed_slices", t.ColumnParent(column_family="BlogEntries"),
                          clause, everything, self.one)
        posts = []
        for row in rows:
            columns = {c.column.name: c.column.value for c in row.columns}
            posts.append(self.blog._post_from_row(row.key.decode(), columns))
        posts.sort(key=lambda p: (p.pub_date, p.slug), reverse=True)
        return posts[:limit]
