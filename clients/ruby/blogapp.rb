#!/usr/bin/env ruby
# The blog app in Ruby: the twin of clients/python/blogapp, on the same BloggyAppy rows, so
# either app reads what the other wrote. The layout (from the data-model article):
#
#   Authors      row per author name: email, twitter, bio, numPosts
#   BlogEntries  row per post slug: title, body, author, tags (comma-separated), pubDate, slug
#   TaggedPosts  row per tag, plus "__notag__" holding every post: TimeUUID name => slug
#   Comments     Super CF, row per slug: super column per comment, named by a TimeUUID, with
#                subcolumns commenter, email, comment, commentTime
#
#   ruby blogapp.rb [--host H] [--port P] [--framed] [--json] COMMAND ...
#   commands: add-author, publish, list, show, comment, seed (each has --help)
require "json"
require "optparse"
require "securerandom"
require "time"
require_relative "bindings"

# Version 1 UUIDs as 16-byte binary strings, ordered by the server by time first.
module TimeUUID
  EPOCH_OFFSET = 0x01B21DD213814000 # 100 ns ticks from 1582-10-15 to 1970-01-01
  @last = 0

  # 100 ns ticks since 1582-10-15 for a Time or Unix seconds.
  def self.ticks(time)
    (time.to_r * 10_000_000).floor + EPOCH_OFFSET
  end

  def self.build(ticks, tail)
    [ticks & 0xFFFFFFFF, (ticks >> 32) & 0xFFFF, ((ticks >> 48) & 0x0FFF) | 0x1000].pack("Nnn") + tail
  end

  # A unique TimeUUID for `time`; `rng` (a Random) makes it reproducible.
  def self.from_time(time, rng = nil)
    clock = rng ? rng.rand(1 << 14) : SecureRandom.random_number(1 << 14)
    node = (rng ? rng.rand(1 << 48) : SecureRandom.random_number(1 << 48)) | (1 << 40)
    build(ticks(time), [0x8000 | clock, node >> 32, node & 0xFFFFFFFF].pack("nnN"))
  end

  # A TimeUUID for now, strictly after every earlier one made by this process.
  def self.now
    t = [ticks(Time.now), @last + 1].max
    @last = t
    build(t, [0x8000 | SecureRandom.random_number(1 << 14)].pack("n") + SecureRandom.random_bytes(6))
  end

  # The smallest TimeUUID of an instant: a reversed slice from it skips that instant.
  def self.min_for(time)
    build(ticks(time), "\x00".b * 8)
  end

  def self.to_s(bytes)
    bytes.unpack1("H*").unpack("a8a4a4a4a12").join("-")
  end

  def self.parse(text)
    hex = text.delete("-")
    raise ArgumentError, "not a UUID: #{text}" unless hex.match?(/\A\h{32}\z/)

    [hex].pack("H*")
  end
end

class BlogError < StandardError; end

# The generated client, bound to BloggyAppy, with the few shapes of call the blog needs.
class Store
  include CassandraThrift
  KS = "BloggyAppy"
  ONE = ConsistencyLevel::ONE
  WHOLE_ROW = 10_000

  def initialize(host, port, framed)
    socket = Thrift::Socket.new(host, port, 10)
    @transport = framed ? Thrift::FramedTransport.new(socket) : Thrift::BufferedTransport.new(socket)
    @client = Cassandra::Client.new(Thrift::BinaryProtocol.new(@transport))
    @transport.open
    @last_ts = 0
  rescue Thrift::TransportException => e
    raise BlogError, "cannot reach the server at #{host}:#{port}: #{e.message}"
  end

  def close
    @transport.close
  end

  # Microseconds, strictly increasing, so a write never ties with the one before it.
  def timestamp
    @last_ts = [(Time.now.to_r * 1_000_000).to_i, @last_ts + 1].max
  end

  def predicate(start: "", finish: "", reversed: false, count: WHOLE_ROW)
    SlicePredicate.new(slice_range: SliceRange.new(start: start, finish: finish, reversed: reversed, count: count))
  end

  def slice(cf, key, **range)
    @client.get_slice(KS, key, ColumnParent.new(column_family: cf), predicate(**range), ONE)
  end

  def count(cf, key)
    @client.get_count(KS, key, ColumnParent.new(column_family: cf), ONE)
  end

  # {name => UTF-8 text} for a row of a Standard CF.
  def row(cf, key)
    text_columns(slice(cf, key))
  end

  def multiget(cf, keys)
    return {} if keys.empty?

    got = @client.multiget_slice(KS, keys, ColumnParent.new(column_family: cf), predicate, ONE)
    got.transform_values { |cols| text_columns(cols) }
  end

  def text_columns(coscs)
    coscs.to_h { |c| [c.column.name.dup.force_encoding("UTF-8"), c.column.value.dup.force_encoding("UTF-8")] }
  end

  # Collects [cf, key, name, value, super_column] writes and sends them as one batch_mutate.
  def batch
    writes = []
    yield writes
    ts = timestamp
    map = Hash.new { |h, k| h[k] = Hash.new { |h2, k2| h2[k2] = [] } }
    writes.group_by { |cf, key, _n, _v, sc| [cf, key, sc] }.each do |(cf, key, sc), group|
      columns = group.map { |_cf, _key, name, value, _sc| Column.new(name: name, value: value.to_s, timestamp: ts) }
      cosc = if sc
               [ColumnOrSuperColumn.new(super_column: SuperColumn.new(name: sc, columns: columns))]
             else
               columns.map { |c| ColumnOrSuperColumn.new(column: c) }
             end
      map[key][cf].concat(cosc.map { |c| Mutation.new(column_or_supercolumn: c) })
    end
    @client.batch_mutate(KS, map, ONE) unless map.empty?
  end
end

# The blog: the same operations as clients/python/blogapp/store.py.
class Blog
  NOTAG = "__notag__"

  def initialize(store)
    @db = store
  end

  def self.slugify(title)
    ascii = title.unicode_normalize(:nfkd).encode("ASCII", invalid: :replace, undef: :replace, replace: "")
    slug = ascii.downcase.gsub(/[^a-z0-9]+/, "-").gsub(/\A-+|-+\z/, "")
    slug.empty? ? "post" : slug
  end

  def self.parse_tags(text)
    tags = text.to_s.split(",").map { |t| t.strip.downcase }.reject(&:empty?).uniq
    raise BlogError, "#{NOTAG} is reserved: it is the row that lists every post" if tags.include?(NOTAG)

    tags
  end

  def add_author(name, email: "", twitter: "", bio: "")
    raise BlogError, "an author needs a name" if name.strip.empty?

    existing = @db.row("Authors", name)
    @db.batch do |b|
      { "email" => email, "twitter" => twitter, "bio" => bio }.each do |column, value|
        b << ["Authors", name, column, value] unless value.empty?
      end
      b << ["Authors", name, "numPosts", "0"] unless existing.key?("numPosts")
    end
    author(name)
  end

  def author(name)
    row = @db.row("Authors", name)
    raise BlogError, "no author named #{name.inspect}; add one with add-author" if row.empty?

    row.merge("name" => name)
  end

  def publish(author_name, title, body, tags, slug: nil)
    writer = author(author_name)
    slug ||= Blog.slugify(title)
    raise BlogError, "a post with slug #{slug.inspect} exists already" if @db.count("BlogEntries", slug).positive?

    tags = Blog.parse_tags(tags)
    now = Time.now
    id = TimeUUID.now
    post = { "id" => id, "slug" => slug, "title" => title, "body" => body, "author" => author_name,
             "tags" => tags, "pubDate" => now.to_i }
    @db.batch do |b|
      queue_post(b, post)
      b << ["Authors", author_name, "numPosts", (writer.fetch("numPosts", "0").to_i + 1).to_s]
    end
    post
  end

  def queue_post(batch, post)
    { "title" => post["title"], "body" => post["body"], "author" => post["author"],
      "tags" => post["tags"].join(","), "pubDate" => post["pubDate"].to_s, "slug" => post["slug"] }.each do |k, v|
      batch << ["BlogEntries", post["slug"], k, v]
    end
    (post["tags"] + [NOTAG]).each { |tag| batch << ["TaggedPosts", tag, post["id"], post["slug"]] }
  end

  def queue_comment(batch, slug, comment)
    %w[commenter email comment commentTime].each do |field|
      batch << ["Comments", slug, field, comment[field].to_s, comment["id"]]
    end
  end

  def post_from_row(slug, row, id = nil)
    { "id" => id && TimeUUID.to_s(id), "slug" => row.fetch("slug", slug), "title" => row.fetch("title", ""),
      "author" => row.fetch("author", ""), "tags" => row.fetch("tags", "").split(",").reject(&:empty?),
      "pubDate" => row.fetch("pubDate", "0").to_i, "body" => row.fetch("body", "") }
  end

  def post(slug)
    row = @db.row("BlogEntries", slug)
    raise BlogError, "no post with slug #{slug.inspect}" if row.empty?

    post_from_row(slug, row)
  end

  # Newest posts first, all or with `tag`; `before` is a post id (16 bytes) or a Time.
  # Returns [posts, cursor for the next, older page or nil].
  def recent(tag: nil, limit: 10, before: nil)
    raise BlogError, "limit must be at least 1" if limit < 1

    start = before.is_a?(Time) ? TimeUUID.min_for(before) : before.to_s.b
    # A reversed slice includes its start: ask for one more and drop the cursor itself.
    columns = @db.slice("TaggedPosts", tag ? tag.strip.downcase : NOTAG, start: start, reversed: true, count: limit + 1)
    columns = columns.map(&:column).reject { |c| c.name == start }.first(limit)
    slugs = columns.map { |c| c.value.dup.force_encoding("UTF-8") }
    rows = @db.multiget("BlogEntries", slugs.uniq)
    posts = columns.zip(slugs).filter_map do |c, slug|
      row = rows[slug]
      post_from_row(slug, row, c.name) if row && !row.empty?
    end
    authors = @db.multiget("Authors", posts.map { |p| p["author"] }.uniq)
    posts.each { |p| p["twitter"] = authors.dig(p["author"], "twitter") }
    [posts, columns.size == limit ? columns.last.name : nil]
  end

  def comment(slug, commenter, email, text)
    raise BlogError, "no post with slug #{slug.inspect}" if @db.count("BlogEntries", slug).zero?
    raise BlogError, "a comment needs a commenter and some text" if commenter.strip.empty? || text.strip.empty?

    c = { "id" => TimeUUID.now, "commenter" => commenter, "email" => email, "comment" => text,
          "commentTime" => Time.now.to_i }
    @db.batch { |b| queue_comment(b, slug, c) }
    c
  end

  # Comments oldest first: super columns come back in TimeUUID order.
  def comments(slug)
    @db.slice("Comments", slug).map do |cosc|
      sc = cosc.super_column
      fields = @db.text_columns(sc.columns.map { |c| CassandraThrift::ColumnOrSuperColumn.new(column: c) })
      { "id" => TimeUUID.to_s(sc.name), "commenter" => fields.fetch("commenter", ""),
        "email" => fields.fetch("email", ""), "comment" => fields.fetch("comment", ""),
        "commentTime" => fields.fetch("commentTime", "0").to_i }
    end
  end

  # The sample blog, from the vocabulary the Python app uses, dated in 2010 and fully
  # determined by `seed` (TimeUUIDs included), so seeding twice rewrites the same columns.
  def seed(posts: 200, seed: 2011)
    words = JSON.parse(File.read(File.join(__dir__, "..", "python", "blogapp", "sample.json")))
    rng = Random.new(seed)
    combos = words["templates"].product(words["topics"]).shuffle(random: rng)
    sample = []
    time = Time.utc(2010, 1, 4, 9).to_i
    slugs = {}
    posts.times do |i|
      template, topic = combos[i % combos.size]
      title = template.sub("{t}", topic).sub("{T}", topic[0].upcase + topic[1..])
      title += " (part #{i / combos.size + 1})" if i >= combos.size
      slug = Blog.slugify(title)
      slug += "-again" while slugs[slug]
      slugs[slug] = true
      time += rng.rand(20 * 3600..52 * 3600)
      body = (["#{words['openers'].sample(random: rng)} #{topic}."] +
              words["middles"].sample(rng.rand(2..4), random: rng) + [words["closers"].sample(random: rng)]).join(" ")
      post = { "id" => TimeUUID.from_time(time, rng), "slug" => slug, "title" => title, "body" => body,
               "author" => words["authors"].sample(random: rng)["name"],
               "tags" => words["tags"].sample(rng.rand(1..3), random: rng), "pubDate" => time }
      comments = Array.new(rng.rand(0..4)) { time + rng.rand(600..5 * 86_400) }.sort.map do |t|
        who = words["commenters"].sample(random: rng)
        { "id" => TimeUUID.from_time(t, rng), "commenter" => who["name"], "email" => who["email"],
          "comment" => words["remarks"].sample(random: rng), "commentTime" => t }
      end
      sample << [post, comments]
    end
    counts = sample.map { |p, _| p["author"] }.tally
    @db.batch do |b|
      words["authors"].each do |a|
        %w[email twitter bio].each { |f| b << ["Authors", a["name"], f, a[f]] }
        b << ["Authors", a["name"], "numPosts", counts.fetch(a["name"], 0).to_s]
      end
    end
    sample.each do |post, comments|
      @db.batch do |b|
        queue_post(b, post)
        comments.each { |c| queue_comment(b, post["slug"], c) }
      end
    end
    { "authors" => words["authors"].size, "posts" => sample.size, "comments" => sample.sum { |_, c| c.size } }
  end
end

# Plain text for a terminal, 78 columns, times in UTC.
module Render
  def self.time(seconds)
    Time.at(seconds).utc.strftime("%Y-%m-%d %H:%M")
  end

  def self.wrap(text, indent = "")
    text.split(/\s+/).each_with_object([+""]) do |word, lines|
      lines << +"" if !lines.last.empty? && indent.size + lines.last.size + word.size + 1 > 78
      lines.last << (lines.last.empty? ? word : " #{word}")
    end.map { |l| indent + l }
  end

  def self.byline(post)
    handle = post["twitter"].to_s.empty? ? "" : " (@#{post['twitter']})"
    "by #{post['author']}#{handle}"
  end

  def self.listing(posts, older, heading, command)
    lines = [heading, ""]
    lines << "  (no posts)" if posts.empty?
    posts.each do |p|
      lines << "  #{time(p['pubDate'])}  #{p['title']}"
      lines << "  #{' ' * 16}  #{byline(p)} · tags: #{p['tags'].empty? ? '-' : p['tags'].join(', ')} · #{p['slug']}"
    end
    lines += ["", "Older posts: #{command} --before #{TimeUUID.to_s(older)}"] if older
    lines.join("\n")
  end

  def self.post(post, comments)
    tags = post["tags"].empty? ? "-" : post["tags"].join(", ")
    lines = [post["title"], "=" * [post["title"].size, 78].min,
             "#{byline(post)} · #{time(post['pubDate'])} UTC · tags: #{tags}", ""]
    lines += wrap(post["body"])
    lines += ["", comments.empty? ? "No comments yet." : "Comments (#{comments.size}, oldest first)"]
    comments.each do |c|
      email = c["email"].empty? ? "" : " <#{c['email']}>"
      lines << "  [#{time(c['commentTime'])}] #{c['commenter']}#{email}"
      lines += wrap(c["comment"], "      ")
    end
    lines.join("\n")
  end
end

def parse_before(text)
  return TimeUUID.parse(text) if text.match?(/\A\h{8}-\h{4}-\h{4}-\h{4}-\h{12}\z/)
  return Time.at(Float(text)).utc if text.match?(/\A\d+(\.\d+)?\z/)
  # A date or date and time without a zone is UTC, as the listings print it.
  if (m = text.match(/\A(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d))?)?\z/))
    return Time.utc(*m.captures.compact.map(&:to_i))
  end

  Time.iso8601(text)
rescue ArgumentError
  raise BlogError, "--before wants a post id, Unix time or ISO date, not #{text.inspect}"
end

def main(argv)
  options = { host: "localhost", port: 9160, framed: false, json: false }
  global = OptionParser.new do |o|
    o.banner = "usage: ruby blogapp.rb [options] add-author|publish|list|show|comment|seed ..."
    o.on("--host HOST", "server host (default localhost)") { |v| options[:host] = v }
    o.on("--port PORT", Integer, "server port (default 9160)") { |v| options[:port] = v }
    o.on("--framed", "use the framed transport") { options[:framed] = true }
    o.on("--json", "print JSON instead of text") { options[:json] = true }
  end
  global.order!(argv)
  command = argv.shift or abort(global.help)
  opts = {}
  sub = OptionParser.new do |o|
    o.banner = "usage: ruby blogapp.rb #{command} [options]"
    case command
    when "add-author" then %w[email twitter bio].each { |f| o.on("--#{f} TEXT") { |v| opts[f.to_sym] = v } }
    when "publish"
      %w[author title body tags slug].each { |f| o.on("--#{f} TEXT") { |v| opts[f.to_sym] = v } }
    when "list"
      o.on("--tag TAG") { |v| opts[:tag] = v }
      o.on("--limit N", Integer) { |v| opts[:limit] = v }
      o.on("--before CURSOR", "post id, Unix time or ISO date") { |v| opts[:before] = parse_before(v) }
    when "comment"
      o.on("--name NAME") { |v| opts[:name] = v }
      o.on("--email EMAIL") { |v| opts[:email] = v }
    when "seed"
      o.on("--posts N", Integer) { |v| opts[:posts] = v }
      o.on("--random-seed N", Integer) { |v| opts[:seed] = v }
    when "show" then nil
    else raise BlogError, "unknown command #{command.inspect}\n#{global.help}"
    end
  end
  sub.parse!(argv)
  store = Store.new(options[:host], options[:port], options[:framed])
  blog = Blog.new(store)
  data, text = run(blog, command, opts, argv)
  puts options[:json] ? JSON.generate(data) : text
  store.close
  0
rescue BlogError, OptionParser::ParseError => e
  warn "blogapp: #{e.message}"
  1
rescue CassandraThrift::InvalidRequestException => e
  warn "blogapp: the server refused: #{e.why}"
  1
end

def run(blog, command, opts, args)
  case command
  when "add-author"
    name = args.fetch(0) { raise BlogError, "add-author needs a NAME" }
    a = blog.add_author(name, email: opts.fetch(:email, ""), twitter: opts.fetch(:twitter, ""), bio: opts.fetch(:bio, ""))
    [{ "author" => name, "email" => a.fetch("email", ""), "twitter" => a.fetch("twitter", ""),
       "numPosts" => a["numPosts"].to_i }, "Author #{name} saved (#{a['numPosts']} posts so far)."]
  when "publish"
    %i[author title].each { |f| raise BlogError, "publish needs --#{f}" unless opts[f] }
    body = opts[:body] == "-" ? $stdin.read : opts.fetch(:body, "")
    p = blog.publish(opts[:author], opts[:title], body, opts[:tags], slug: opts[:slug])
    json = p.merge("id" => TimeUUID.to_s(p["id"])).except("body")
    [json, "Published #{p['slug'].inspect} as #{json['id']} (tags: #{p['tags'].empty? ? '-' : p['tags'].join(', ')})."]
  when "list"
    posts, older = blog.recent(tag: opts[:tag], limit: opts.fetch(:limit, 10), before: opts[:before])
    heading = (opts[:tag] ? "Recent posts tagged #{opts[:tag].inspect}" : "Recent posts") + " (newest first, UTC)"
    command = "ruby blogapp.rb list" + (opts[:tag] ? " --tag #{opts[:tag]}" : "")
    [{ "posts" => posts.map { |p| p.except("body", "twitter") }, "older" => older && TimeUUID.to_s(older) },
     Render.listing(posts, older, heading, command)]
  when "show"
    slug = args.fetch(0) { raise BlogError, "show needs a SLUG" }
    post = blog.post(slug)
    post["twitter"] = (blog.author(post["author"])["twitter"] rescue nil)
    comments = blog.comments(slug)
    [post.except("twitter").merge("comments" => comments), Render.post(post, comments)]
  when "comment"
    slug, text = args
    raise BlogError, "comment needs a SLUG, TEXT and --name" unless slug && text && opts[:name]

    c = blog.comment(slug, opts[:name], opts.fetch(:email, ""), text)
    json = c.merge("id" => TimeUUID.to_s(c["id"]))
    [json, "Comment #{json['id']} added to #{slug.inspect}."]
  when "seed"
    counts = blog.seed(posts: opts.fetch(:posts, 200), seed: opts.fetch(:seed, 2011))
    [counts, "Seeded #{counts['authors']} authors, #{counts['posts']} posts and #{counts['comments']} comments."]
  end
end

exit(main(ARGV.dup)) if $PROGRAM_NAME == __FILE__
