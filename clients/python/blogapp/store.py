"""The blog's data in the BloggyAppy keyspace, laid out as the data-model article has it.

    Authors      row per author, keyed by name: email, twitter, bio, numPosts
    BlogEntries  row per post, keyed by slug: title, body, author, tags (comma-separated),
                 pubDate (Unix seconds), slug
    TaggedPosts  row per tag, plus "__notag__" listing every post: column names are
                 TimeUUIDs (the post's time), values are slugs
    Comments     Super CF, row per post keyed by slug: one super column per comment, named
                 by a TimeUUID, with subcolumns commenter, email, comment, commentTime

Listing recent posts is one reversed slice of a TaggedPosts row (newest first) followed by
one multiget of the BlogEntries rows it names; a post's comments are one slice of its
Comments row, oldest first because TimeUUIDs sort by time.
"""

import datetime as dt
import re
import time
import unicodedata
import uuid
from dataclasses import dataclass, field

import ilion_client
from ilion_client import timeuuid

KEYSPACE = "BloggyAppy"
NOTAG = "__notag__"
WHOLE_ROW = 10000  # more columns than any row of this app holds


class BlogError(Exception):
    """A request the blog cannot carry out (unknown author, duplicate slug, ...)."""


@dataclass
class Author:
    name: str
    email: str = ""
    twitter: str = ""
    bio: str = ""
    num_posts: int = 0


@dataclass
class Post:
    slug: str
    title: str
    body: str
    author: str
    tags: list
    pub_date: int  # Unix seconds
    id: uuid.UUID = None  # the TaggedPosts column name, when the post came from a listing
    author_info: Author = None

    def as_json(self):
        return {"id": str(self.id) if self.id else None, "slug": self.slug, "title": self.title,
                "author": self.author, "tags": self.tags, "pubDate": self.pub_date}


@dataclass
class Comment:
    id: uuid.UUID
    commenter: str
    email: str
    comment: str
    comment_time: int  # Unix seconds

    def as_json(self):
        return {"id": str(self.id), "commenter": self.commenter, "email": self.email,
                "comment": self.comment, "commentTime": self.comment_time}


@dataclass
class Page:
    """One page of a listing; `older` is the cursor for the next (older) page, if any."""

    posts: list = field(default_factory=list)
    older: uuid.UUID = None


def slugify(title):
    """'Hello, Wörld!' -> 'hello-world': ASCII letters and digits joined by dashes."""
    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_title.lower()).strip("-")
    return slug or "post"


def parse_tags(text):
    """'Rust, storage,,rust' -> ['rust', 'storage']: trimmed, lower-case, no repeats."""
    tags = []
    for tag in (text or "").split(","):
        tag = tag.strip().lower()
        if tag == NOTAG:
            raise BlogError(f"{NOTAG} is reserved: it is the row that lists every post")
        if tag and tag not in tags:
            tags.append(tag)
    return tags


def _text(columns, name, default=""):
    value = columns.get(name)
    return value.decode("utf-8") if value is not None else default


def _unix(when):
    """Unix seconds for a datetime or a number; None means now."""
    if when is None:
        return time.time()
    if isinstance(when, dt.datetime):
        return when.timestamp()
    return float(when)


class Blog:
    """The blog application over one ilion_client Connection."""

    def __init__(self, connection):
        ks = connection[KEYSPACE]
        self.keyspace = ks
        self.authors = ks["Authors"]
        self.entries = ks["BlogEntries"]
        self.tagged = ks["TaggedPosts"]
        self.comment_rows = ks["Comments"]

    # --- authors ------------------------------------------------------------------------------

    def add_author(self, name, email="", twitter="", bio=""):
        """Creates or updates an author; fields left empty keep their old values."""
        if not name.strip():
            raise BlogError("an author needs a name")
        existing = self.authors.get_dict(name)
        with self.keyspace.batch() as b:
            for column, value in (("email", email), ("twitter", twitter), ("bio", bio)):
                if value:
                    b.insert(self.authors, name, column, value)
            if b"numPosts" not in existing:
                b.insert(self.authors, name, "numPosts", "0")
        return self.author(name)

    def author(self, name):
        row = self.authors.get_dict(name)
        if not row:
            raise BlogError(f"no author named {name!r}; add one with add-author")
        return Author(name, _text(row, b"email"), _text(row, b"twitter"), _text(row, b"bio"),
                      int(_text(row, b"numPosts", "0")))

    # --- posts --------------------------------------------------------------------------------

    def publish(self, author, title, body, tags="", slug=None, when=None, post_id=None):
        """Writes a post: its BlogEntries row and a TaggedPosts column for each tag and for
        __notag__, all named by one TimeUUID of the publication time. One batch_mutate."""
        writer = self.author(author)
        slug = slug or slugify(title)
        if self.entries.get_count(slug):
            raise BlogError(f"a post with slug {slug!r} exists already")
        tag_list = parse_tags(tags) if isinstance(tags, str) else parse_tags(",".join(tags))
        seconds = _unix(when)
        post_id = post_id or (timeuuid.new() if when is None else timeuuid.from_time(seconds))
        post = Post(slug, title, body, author, tag_list, int(seconds), post_id, writer)
        with self.keyspace.batch() as b:
            self._queue_post(b, post)
            b.insert(self.authors, author, "numPosts", str(writer.num_posts + 1))
        return post

    def _queue_post(self, batch, post):
        fields = {"title": post.title, "body": post.body, "author": post.author,
                  "tags": ",".join(post.tags), "pubDate": str(post.pub_date), "slug": post.slug}
        for column, value in fields.items():
            batch.insert(self.entries, post.slug, column, value)
        for tag in post.tags + [NOTAG]:
            batch.insert(self.tagged, tag, post.id, post.slug)

    def post(self, slug):
        """The post with this slug (with its author's profile); BlogError when missing."""
        row = self.entries.get_dict(slug)
        if not row:
            raise BlogError(f"no post with slug {slug!r}")
        post = self._post_from_row(slug, row)
        try:
            post.author_info = self.author(post.author)
        except BlogError:
            pass  # a post may outlive its author's row
        return post

    @staticmethod
    def _post_from_row(slug, row, post_id=None):
        tags = [t for t in _text(row, b"tags").split(",") if t]
        return Post(slug=_text(row, b"slug", slug), title=_text(row, b"title"), body=_text(row, b"body"),
                    author=_text(row, b"author"), tags=tags, pub_date=int(_text(row, b"pubDate", "0")),
                    id=post_id)

    def recent(self, tag=None, limit=10, before=None):
        """A Page of the newest posts, all or with `tag`, newest first.

        `before` starts the page strictly before a post id (the `older` cursor of the page
        before) or before a time (datetime or Unix seconds).
        """
        if limit < 1:
            raise BlogError("limit must be at least 1")
        row = tag.strip().lower() if tag else NOTAG
        if before is None:
            start = None
        elif isinstance(before, uuid.UUID):
            start = before
        else:
            # The smallest TimeUUID of that instant: every real one at or after it is excluded.
            start = timeuuid.min_for(before)
        # A reversed slice includes its start, so ask for one more and drop the cursor itself.
        columns = self.tagged.get_slice(row, start=start, reversed=True, count=limit + 1)
        columns = [c for c in columns if c.name != start][:limit]
        slugs = [c.text for c in columns]
        rows = self.entries.multiget_slice(slugs, count=WHOLE_ROW) if slugs else {}
        posts = []
        for column in columns:
            entry = {c.name: c.value for c in rows.get(column.text, [])}
            if entry:  # an index entry whose post is gone is skipped
                posts.append(self._post_from_row(column.text, entry, column.name))
        self._attach_authors(posts)
        older = columns[-1].name if len(columns) == limit else None
        return Page(posts, older)

    def _attach_authors(self, posts):
        names = sorted({p.author for p in posts})
        if not names:
            return
        rows = self.authors.multiget_slice(names, count=WHOLE_ROW)
        for post in posts:
            row = {c.name: c.value for c in rows.get(post.author, [])}
            if row:
                post.author_info = Author(post.author, _text(row, b"email"), _text(row, b"twitter"),
                                          _text(row, b"bio"), int(_text(row, b"numPosts", "0")))

    # --- comments -----------------------------------------------------------------------------

    def comment(self, slug, commenter, email, text, when=None, comment_id=None):
        """Adds a comment: a Comments super column named by a new TimeUUID."""
        if not self.entries.get_count(slug):
            raise BlogError(f"no post with slug {slug!r}")
        if not commenter.strip() or not text.strip():
            raise BlogError("a comment needs a commenter and some text")
        seconds = _unix(when)
        comment_id = comment_id or (timeuuid.new() if when is None else timeuuid.from_time(seconds))
        comment = Comment(comment_id, commenter, email, text, int(seconds))
        with self.keyspace.batch() as b:
            self._queue_comment(b, slug, comment)
        return comment

    def _queue_comment(self, batch, slug, comment):
        for column, value in (("commenter", comment.commenter), ("email", comment.email),
                              ("comment", comment.comment), ("commentTime", str(comment.comment_time))):
            batch.insert(self.comment_rows, slug, column, value, super_column=comment.id)

    def comments(self, slug):
        """The post's comments, oldest first."""
        out = []
        for sc in self.comment_rows.get_slice(slug, count=WHOLE_ROW):
            row = sc.as_dict()
            out.append(Comment(sc.name, _text(row, b"commenter"), _text(row, b"email"),
                               _text(row, b"comment"), int(_text(row, b"commentTime", "0"))))
        return out


def connect(host="localhost", port=9160, framed=False, api="0.6"):
    """A Blog on a fresh connection, over the 0.6 API or (api="later") the later one: the
    rows are the same either way."""
    return Blog(ilion_client.connect(host, port, framed=framed, api=api))
