"""Terminal output for the blog: plain text that reads well at 80 columns. Times are UTC."""

import datetime as dt
import textwrap

WIDTH = 78


def when(seconds):
    return dt.datetime.fromtimestamp(seconds, dt.timezone.utc).strftime("%Y-%m-%d %H:%M")


def byline(post):
    info = post.author_info
    handle = f" (@{info.twitter})" if info and info.twitter else ""
    return f"by {post.author}{handle}"


def listing(page, heading, next_command):
    """A page of posts, newest first, and how to get the page before it."""
    lines = [heading, ""]
    if not page.posts:
        lines.append("  (no posts)")
    for post in page.posts:
        lines.append(f"  {when(post.pub_date)}  {post.title}")
        tags = ", ".join(post.tags) or "-"
        lines.append(f"  {'':16}  {byline(post)} · tags: {tags} · {post.slug}")
    if page.older is not None:
        lines += ["", f"Older posts: {next_command} --before {page.older}"]
    return "\n".join(lines)


def post_with_comments(post, comments):
    tags = ", ".join(post.tags) or "-"
    lines = [post.title, "=" * min(len(post.title), WIDTH),
             f"{byline(post)} · {when(post.pub_date)} UTC · tags: {tags}", ""]
    lines += textwrap.wrap(post.body, WIDTH) or ["(empty)"]
    lines += ["", f"Comments ({len(comments)}, oldest first)" if comments else "No comments yet."]
    for c in comments:
        email = f" <{c.email}>" if c.email else ""
        lines.append(f"  [{when(c.comment_time)}] {c.commenter}{email}")
        lines += textwrap.wrap(c.comment, WIDTH, initial_indent="      ", subsequent_indent="      ")
    return "\n".join(lines)
