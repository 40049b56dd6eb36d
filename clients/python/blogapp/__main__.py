"""Command line of the blog app: `python3 -m blogapp [options] COMMAND ...` (see --help)."""

import argparse
import datetime as dt
import json
import sys
import uuid

import ilion_client

from . import render, seed
from .later import LaterBlog
from .store import BlogError, Page, connect

PROG = "python3 -m blogapp"


def parse_cursor(text):
    """A --before value: a post id (TimeUUID), Unix seconds, or an ISO date/time (UTC
    unless it names its zone)."""
    try:
        return uuid.UUID(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        pass
    try:
        moment = dt.datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a post id, Unix time or ISO date: {text!r}") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.timezone.utc)


def build_parser():
    p = argparse.ArgumentParser(prog=PROG, description="A small blog on ilion's BloggyAppy keyspace.")
    p.add_argument("--host", default="localhost", help="server host (default %(default)s)")
    p.add_argument("--port", type=int, default=None,
                   help="server port (default 9160, or 9161 with --api later)")
    p.add_argument("--api", choices=["0.6", "later"], default="0.6",
                   help="the Thrift API to speak: 0.6's (default) or the later one of "
                        "Cassandra 0.7–3.11 (ilion's second listener)")
    p.add_argument("--framed", action="store_true", help="use the framed transport")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    c = sub.add_parser("add-author", help="add an author or update their profile")
    c.add_argument("name")
    c.add_argument("--email", default="")
    c.add_argument("--twitter", default="")
    c.add_argument("--bio", default="")

    c = sub.add_parser("publish", help="publish a post")
    c.add_argument("--author", required=True)
    c.add_argument("--title", required=True)
    c.add_argument("--body", default="", help="the text; '-' reads it from stdin")
    c.add_argument("--tags", default="", help="comma-separated, e.g. 'rust,storage'")
    c.add_argument("--slug", help="URL name (default: made from the title)")

    c = sub.add_parser("list", help="the most recent posts, newest first")
    c.add_argument("--tag", help="only posts with this tag")
    c.add_argument("--author", help="only this author's posts (--api later: through an index)")
    c.add_argument("--limit", type=int, default=10, help="posts per page (default %(default)s)")
    c.add_argument("--before", type=parse_cursor,
                   help="start before this post id (printed under a page) or time")

    c = sub.add_parser("show", help="a post with its comments, oldest first")
    c.add_argument("slug")

    c = sub.add_parser("comment", help="comment on a post")
    c.add_argument("slug")
    c.add_argument("text")
    c.add_argument("--name", required=True, help="who is commenting")
    c.add_argument("--email", default="")

    c = sub.add_parser("login", help="open a session for an author (--api later; it expires)")
    c.add_argument("author")
    c.add_argument("--ttl", type=int, default=3600, help="seconds it lasts (default %(default)s)")

    c = sub.add_parser("whoami", help="the author of an open session (--api later)")
    c.add_argument("session")

    c = sub.add_parser("seed", help="load a sample blog (authors, posts, comments)")
    c.add_argument("--posts", type=int, default=200, help="how many posts (default %(default)s)")
    c.add_argument("--random-seed", type=int, default=2010, help="sample generator seed")
    return p


def run(args):
    port = args.port if args.port is not None else (9161 if args.api == "later" else 9160)
    blog = connect(args.host, port, args.framed, api=args.api)
    if args.command == "add-author":
        a = blog.add_author(args.name, args.email, args.twitter, args.bio)
        return ({"author": a.name, "email": a.email, "twitter": a.twitter, "numPosts": a.num_posts},
                f"Author {a.name} saved ({a.num_posts} posts so far).")
    if args.command == "publish":
        body = sys.stdin.read() if args.body == "-" else args.body
        post = blog.publish(args.author, args.title, body, args.tags, args.slug)
        return post.as_json(), f"Published {post.slug!r} as {post.id} (tags: {', '.join(post.tags) or '-'})."
    if args.command == "list" and args.author:
        posts = LaterBlog(blog).by_author(args.author, args.limit)
        return ({"posts": [p.as_json() for p in posts], "older": None},
                render.listing(Page(posts), f"Posts by {args.author} (newest first, UTC)",
                               PROG + f" list --author {args.author!r}"))
    if args.command == "login":
        session = LaterBlog(blog).login(args.author, args.ttl)
        return ({"session": session, "author": args.author, "ttl": args.ttl},
                f"Session {session} opened for {args.author} for {args.ttl} s.")
    if args.command == "whoami":
        author = LaterBlog(blog).whoami(args.session)
        return {"session": args.session, "author": author}, author
    if args.command == "list":
        page = blog.recent(args.tag, args.limit, args.before)
        heading = (f"Recent posts tagged {args.tag!r}" if args.tag else "Recent posts") + " (newest first, UTC)"
        command = PROG + " list" + (f" --tag {args.tag}" if args.tag else "")
        return ({"posts": [p.as_json() for p in page.posts], "older": page.older and str(page.older)},
                render.listing(page, heading, command))
    if args.command == "show":
        post, comments = blog.post(args.slug), blog.comments(args.slug)
        data = dict(post.as_json(), body=post.body, comments=[c.as_json() for c in comments])
        text = render.post_with_comments(post, comments)
        if args.api == "later":
            # Over the later API every showing counts, in a counter column family.
            data["views"] = LaterBlog(blog).count_view(args.slug)
            text += f"\n\n({data['views']} views)"
        return data, text
    if args.command == "comment":
        c = blog.comment(args.slug, args.name, args.email, args.text)
        return c.as_json(), f"Comment {c.id} added to {args.slug!r}."
    if args.command == "seed":
        authors, posts, comments = seed.load(blog, args.posts, args.random_seed)
        return ({"authors": authors, "posts": posts, "comments": comments},
                f"Seeded {authors} authors, {posts} posts and {comments} comments.")
    raise AssertionError(args.command)


def main(argv=None, out=sys.stdout):
    args = build_parser().parse_args(argv)
    try:
        data, text = run(args)
    except BlogError as e:
        print(f"blogapp: {e}", file=sys.stderr)
        return 1
    except ilion_client.ConnectionFailed as e:
        print(f"blogapp: cannot reach the server at {args.host}:{args.port}: {e}", file=sys.stderr)
        return 2
    except ilion_client.IlionError as e:
        print(f"blogapp: the server refused: {e}", file=sys.stderr)
        return 1
    print(json.dumps(data, ensure_ascii=False) if args.json else text, file=out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
