"""Both blog apps (python3 -m blogapp and ruby blogapp.rb), run as a user would run them.

Each app gets a fresh server, a small seeded sample, and the same checks: listings newest
first, paging with --before, listing by tag, publishing, comments in chronological order,
clear errors. Then both apps share one server, and each must show exactly what the other
wrote; the rows are also checked against the article's layout directly.

The tests of one app share its server and run in file order: the listings of the seeded
sample come before the tests that publish.
"""

import datetime as dt
import json
import os
import subprocess
import sys
import time
import uuid

import pytest

import ilion_client
import serve

CLIENTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
APPS = {
    "python": [sys.executable, "-m", "blogapp"],
    # The Python app over the later API (its own listener), writing the same rows.
    "python-later": [sys.executable, "-m", "blogapp", "--api", "later"],
    "ruby": ["ruby", os.path.join(CLIENTS, "ruby", "blogapp.rb")],
}
SAMPLE_POSTS = 40


class App:
    """Runs one blog app's command line against a server."""

    def __init__(self, name, server, framed=False):
        self.name, self.server, self.framed = name, server, framed

    def run(self, *args, check=True):
        port = self.server.later[1] if self.name.endswith("-later") else self.server.port
        command = APPS[self.name] + ["--host", self.server.host, "--port", str(port)]
        command += ["--framed"] if self.framed else []
        env = dict(os.environ, PYTHONPATH=os.path.join(CLIENTS, "python"))
        done = subprocess.run(command + list(args), capture_output=True, text=True, env=env, timeout=120)
        if check:
            assert done.returncode == 0, f"{self.name} {args} failed:\n{done.stderr}"
        return done

    def json(self, *args):
        return json.loads(self.run("--json", *args).stdout)

    def text(self, *args):
        return self.run(*args).stdout


def all_posts(app, *extra, limit=7):
    """Every post of a listing, following the `older` cursor page by page."""
    posts, before = [], []
    while True:
        page = app.json("list", "--limit", str(limit), *extra, *before)
        posts += page["posts"]
        if page["older"] is None:
            return posts
        before = ["--before", page["older"]]


@pytest.fixture(scope="module", params=sorted(APPS))
def app(request):
    """Each app on its own fresh server, already seeded."""
    with serve.start() as server:
        a = App(request.param, server, framed=request.param == "ruby")
        counts = a.json("seed", "--posts", str(SAMPLE_POSTS))
        assert counts["authors"] == 4 and counts["posts"] == SAMPLE_POSTS and counts["comments"] > 0
        yield a


@pytest.fixture(scope="module")
def everything(app):
    """Every post in one page, to compare the other listings with."""
    page = app.json("list", "--limit", "1000")
    assert page["older"] is None
    return page["posts"]


def test_front_page_is_the_ten_newest_posts(app, everything):
    page = app.json("list")
    posts = page["posts"]
    assert len(posts) == 10 and page["older"] == posts[-1]["id"]
    dates = [p["pubDate"] for p in posts]
    assert dates == sorted(dates, reverse=True) and len(set(dates)) == 10
    assert posts == everything[:10]
    text = app.text("list")
    positions = [text.index(p["title"]) for p in posts]
    assert positions == sorted(positions)  # printed newest first too
    assert f"--before {posts[-1]['id']}" in text


def test_paging_with_before_walks_every_post_once(app, everything):
    assert all_posts(app) == everything
    assert len(everything) == SAMPLE_POSTS
    assert len({p["slug"] for p in everything}) == SAMPLE_POSTS
    dates = [p["pubDate"] for p in everything]
    assert dates == sorted(dates, reverse=True)
    # Post ids are TimeUUIDs carrying the publication time.
    for p in everything:
        u = uuid.UUID(p["id"])
        assert u.version == 1 and int(ilion_client.timeuuid.to_unix(u)) == p["pubDate"]
    # A time bound: only posts strictly older than that moment, newest first.
    cut = everything[12]["pubDate"]
    page = app.json("list", "--limit", "5", "--before", str(cut))["posts"]
    assert page == everything[13:18]
    iso = dt.datetime.fromtimestamp(cut, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
    assert app.json("list", "--limit", "5", "--before", iso)["posts"] == everything[13:18]


def test_listing_by_tag(app, everything):
    tags = sorted({t for p in everything for t in p["tags"]})
    assert len(tags) > 3
    for tag in tags[:2]:
        tagged = all_posts(app, "--tag", tag, limit=4)
        assert tagged == [p for p in everything if tag in p["tags"]]
    assert app.json("list", "--tag", "no-such-tag") == {"posts": [], "older": None}


def test_publish_comment_and_show(app, everything):
    app.run("add-author", "Test Writer", "--email", "tw@example.com", "--twitter", "tw")
    published = app.json("publish", "--author", "Test Writer", "--title", "Fresh Post!",
                         "--tags", "Testing, news", "--body", "Body text " * 30)
    assert published["slug"] == "fresh-post" and published["tags"] == ["testing", "news"]
    front = app.json("list")["posts"]
    assert front[0]["slug"] == "fresh-post" and front[0]["author"] == "Test Writer"
    assert app.json("list", "--tag", "news")["posts"][0]["slug"] == "fresh-post"
    assert app.json("list", "--tag", "testing")["posts"][0]["slug"] == "fresh-post"

    for who, words in (("Ann", "first"), ("Bob", "second"), ("Cy", "third")):
        app.run("comment", "fresh-post", f"the {words} comment", "--name", who, "--email", f"{who}@example.com")
    shown = app.json("show", "fresh-post")
    assert [c["commenter"] for c in shown["comments"]] == ["Ann", "Bob", "Cy"]
    ids = [uuid.UUID(c["id"]) for c in shown["comments"]]
    assert [u.time for u in ids] == sorted(u.time for u in ids)
    assert shown["title"] == "Fresh Post!" and shown["tags"] == ["testing", "news"]
    text = app.text("show", "fresh-post")
    assert "Comments (3, oldest first)" in text and "by Test Writer (@tw)" in text
    assert text.index("the first comment") < text.index("the second comment") < text.index("the third comment")
    author = app.json("add-author", "Test Writer")
    assert author["numPosts"] == 1 and author["email"] == "tw@example.com"


def test_seeded_comments_are_in_chronological_order(app, everything):
    commented = 0
    for post in everything[-8:]:  # the oldest: the sample gives most posts a few comments
        comments = app.json("show", post["slug"])["comments"]
        times = [c["commentTime"] for c in comments]
        assert times == sorted(times)
        commented += len(comments) > 1
    assert commented >= 2


@pytest.mark.parametrize("args, message", [
    (["show", "no-such-post"], "no post with slug"),
    (["publish", "--author", "Nobody", "--title", "T"], "no author named"),
    (["comment", "no-such-post", "hi", "--name", "Ann"], "no post with slug"),
    (["publish", "--author", "Ada Park", "--title", "T", "--tags", "__notag__"], "reserved"),
])
def test_errors_are_clear(app, args, message):
    done = app.run(*args, check=False)
    assert done.returncode == 1 and message in done.stderr and "Traceback" not in done.stderr


def test_duplicate_slug_is_refused(app, everything):
    slug = everything[3]["slug"]
    done = app.run("publish", "--author", "Ada Park", "--title", "x", "--slug", slug, check=False)
    assert done.returncode == 1 and "exists already" in done.stderr


# --- both apps on one server -------------------------------------------------------------------


@pytest.fixture(scope="module")
def shared():
    with serve.start() as server:
        yield server, App("python", server), App("ruby", server), App("python-later", server)


def test_each_app_reads_what_the_other_wrote(shared):
    server, py, rb, later = shared
    py.run("seed", "--posts", "25")
    assert rb.json("list") == py.json("list")
    assert all_posts(rb, limit=10) == all_posts(py, limit=10)
    assert py.json("list", "--tag", "storage", "--limit", "100") == rb.json("list", "--tag", "storage", "--limit", "100")

    rb.run("add-author", "Rita Ruby", "--email", "rita@example.com")
    rb.run("publish", "--author", "Rita Ruby", "--title", "Written in Ruby", "--tags", "ruby,interop")
    py.run("add-author", "Pat Python", "--twitter", "pat")
    py.run("publish", "--author", "Pat Python", "--title", "Written in Python", "--tags", "python,interop")
    rb.run("comment", "written-in-python", "from ruby", "--name", "Rita Ruby")
    py.run("comment", "written-in-python", "from python", "--name", "Pat Python")
    rb.run("comment", "written-in-python", "ruby again", "--name", "Rita Ruby")

    front = py.json("list", "--limit", "3")
    assert front == rb.json("list", "--limit", "3")
    assert [p["slug"] for p in front["posts"][:2]] == ["written-in-python", "written-in-ruby"]
    assert py.json("list", "--tag", "interop") == rb.json("list", "--tag", "interop")
    shown = py.json("show", "written-in-python")
    assert shown == rb.json("show", "written-in-python")
    assert [c["comment"] for c in shown["comments"]] == ["from ruby", "from python", "ruby again"]

    # The later API's app sees the same blog, and what it writes the 0.6 apps see.
    assert later.json("list") == py.json("list")
    seen = later.json("show", "written-in-python")
    assert seen.pop("views") == 1, "each showing over the later API counts"
    assert seen == shown
    assert later.json("show", "written-in-python")["views"] == 2
    assert "views" not in py.json("show", "written-in-python")
    later.run("publish", "--author", "Pat Python", "--title", "Written over the later API",
              "--tags", "later,interop")
    later.run("comment", "written-in-ruby", "from the later API", "--name", "Pat Python")
    assert rb.json("list", "--tag", "interop") == later.json("list", "--tag", "interop")
    assert rb.json("list", "--limit", "1")["posts"][0]["slug"] == "written-over-the-later-api"
    assert [c["comment"] for c in rb.json("show", "written-in-ruby")["comments"]] == [
        "from the later API"]


def test_rows_follow_the_article_layout(shared):
    """Read the rows both apps wrote straight from the keyspace."""
    server, py, rb, later = shared
    with ilion_client.connect(server.host, server.port) as conn:
        ks = conn["BloggyAppy"]
        for slug, tags in (("written-in-ruby", ["ruby", "interop"]), ("written-in-python", ["python", "interop"])):
            entry = ks["BlogEntries"].get_dict(slug)
            assert set(entry) == {b"title", b"body", b"author", b"tags", b"pubDate", b"slug"}
            assert entry[b"slug"].decode() == slug and entry[b"tags"].decode() == ",".join(tags)
            assert entry[b"pubDate"].isdigit()
            for row in tags + ["__notag__"]:
                index = [c for c in ks["TaggedPosts"].get_slice(row, count=1000) if c.value == slug.encode()]
                assert len(index) == 1 and index[0].name.version == 1
                assert abs(ilion_client.timeuuid.to_unix(index[0].name) - int(entry[b"pubDate"])) < 2
        # __notag__ holds every post, oldest first in comparator (time) order.
        notag = ks["TaggedPosts"].get_slice("__notag__", count=1000)
        assert len(notag) == ks["TaggedPosts"].get_count("__notag__") == 28
        assert [c.name.time for c in notag] == sorted(c.name.time for c in notag)
        for comment in ks["Comments"].get_slice("written-in-python"):
            assert set(comment.as_dict()) == {b"commenter", b"email", b"comment", b"commentTime"}
        authors = ks["Authors"].get_dict("Rita Ruby")
        assert authors[b"numPosts"] == b"1" and authors[b"email"] == b"rita@example.com"


def test_later_only_features(shared):
    """Sessions with a TTL under binary keys, and posts by author through a KEYS index:
    the later app's own commands, over rows the 0.6 apps wrote too."""
    server, py, rb, later = shared
    everything = py.json("list", "--limit", "1000")["posts"]
    for author in sorted({p["author"] for p in everything}):
        by_index = later.json("list", "--author", author, "--limit", "1000")["posts"]
        want = [p["slug"] for p in everything if p["author"] == author]
        assert sorted(p["slug"] for p in by_index) == sorted(want), author
        assert [p["pubDate"] for p in by_index] == sorted((p["pubDate"] for p in by_index), reverse=True)
    session = later.json("login", "Pat Python")["session"]
    assert len(bytes.fromhex(session)) == 16
    assert later.json("whoami", session)["author"] == "Pat Python"
    # A TTL of 1 s ends within the second after the write's: gone 2 s later whatever the load.
    short = later.json("login", "Pat Python", "--ttl", "1")["session"]
    time.sleep(2.1)
    done = later.run("whoami", short, check=False)
    assert done.returncode == 1 and "no open session" in done.stderr
    assert later.json("whoami", session)["author"] == "Pat Python"
    done = later.run("login", "Nobody", check=False)
    assert done.returncode == 1 and "no author named" in done.stderr
    done = py.run("login", "Pat Python", check=False)
    assert done.returncode == 1 and "needs the later API" in done.stderr
