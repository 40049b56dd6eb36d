"""A made-up but plausible sample blog: a few authors, a couple of hundred posts, comments.

Everything comes from a seeded random generator, including the TimeUUIDs, and the posts
are dated in 2010 (the Cassandra 0.6 days), so seeding twice with the same numbers writes
the same columns again rather than doubling the blog. Posts published later with the app
are dated now and so list first.
"""

import datetime as dt
import json
import os
import random

from ilion_client import timeuuid

from .store import Comment, Post, slugify

# The words the sample is made of; the Ruby blog app seeds from the same file.
with open(os.path.join(os.path.dirname(__file__), "sample.json"), encoding="utf-8") as _f:
    WORDS = json.load(_f)

START = dt.datetime(2010, 1, 4, 9, 0, tzinfo=dt.timezone.utc)


def _uuid_at(rng, seconds):
    return timeuuid.from_time(seconds, clock_seq=rng.getrandbits(14), node=rng.getrandbits(48) | 1 << 40)


def generate(posts=200, seed=2010, max_comments=4):
    """(authors, [(post, [comments])]) for the sample; nothing is written."""
    w = WORDS
    rng = random.Random(seed)
    combos = [(tpl, topic) for tpl in w["templates"] for topic in w["topics"]]
    rng.shuffle(combos)
    when = START.timestamp()
    used_slugs, out = set(), []
    for i in range(posts):
        template, topic = combos[i % len(combos)]
        title = template.format(t=topic, T=topic[0].upper() + topic[1:])
        if i >= len(combos):
            title += f" (part {i // len(combos) + 1})"
        slug = slugify(title)
        while slug in used_slugs:
            slug += "-again"
        used_slugs.add(slug)
        when += rng.randint(20 * 3600, 52 * 3600)
        body = " ".join([f"{rng.choice(w['openers'])} {topic}."]
                        + rng.sample(w["middles"], rng.randint(2, 4)) + [rng.choice(w["closers"])])
        author = rng.choice(w["authors"])["name"]
        tags = rng.sample(w["tags"], rng.randint(1, 3))
        post = Post(slug, title, body, author, tags, int(when), _uuid_at(rng, int(when)))
        comment_times = sorted(int(when) + rng.randint(600, 5 * 86400)
                               for _ in range(rng.randint(0, max_comments)))
        comments = []
        for t in comment_times:
            who = rng.choice(w["commenters"])
            comments.append(Comment(_uuid_at(rng, t), who["name"], who["email"], rng.choice(w["remarks"]), t))
        out.append((post, comments))
    return w["authors"], out


def load(blog, posts=200, seed=2010):
    """Writes the sample through `blog` (a store.Blog): one batch_mutate per post, with its
    index columns and comments. Returns (authors, posts, comments) counts."""
    authors, sample = generate(posts, seed)
    counts = {a["name"]: 0 for a in authors}
    for post, _ in sample:
        counts[post.author] += 1
    with blog.keyspace.batch() as b:
        for a in authors:
            for column in ("email", "twitter", "bio"):
                b.insert(blog.authors, a["name"], column, a[column])
            b.insert(blog.authors, a["name"], "numPosts", str(counts[a["name"]]))
    n_comments = 0
    for post, comments in sample:
        with blog.keyspace.batch() as b:
            blog._queue_post(b, post)
            for comment in comments:
                blog._queue_comment(b, post.slug, comment)
        n_comments += len(comments)
    return len(authors), len(sample), n_comments
