# The client smoke test in Ruby, over the buffered and the framed transport: the same
# checks as clients/python/smoke.py, through the bindings `thrift -gen rb` makes.
#
#   ILION_HOST=127.0.0.1 ILION_PORT=9160 ruby smoke_test.rb
#
# Expects a server with the sample keyspaces (clients/serve.py starts one).
require "minitest/autorun"
require "securerandom"
require_relative "bindings"

class SmokeTest < Minitest::Test
  include CassandraThrift
  KS = "Keyspace1"
  MARSHAL = "org.apache.cassandra.db.marshal."
  ONE = ConsistencyLevel::ONE

  def connect(framed)
    socket = Thrift::Socket.new(ENV.fetch("ILION_HOST"), Integer(ENV.fetch("ILION_PORT")), 10)
    @transport = framed ? Thrift::FramedTransport.new(socket) : Thrift::BufferedTransport.new(socket)
    @transport.open
    Cassandra::Client.new(Thrift::BinaryProtocol.new(@transport))
  end

  def teardown
    @transport&.close
  end

  def path(cf, column = nil, super_column = nil)
    ColumnPath.new(column_family: cf, column: column, super_column: super_column)
  end

  def parent(cf, super_column = nil)
    ColumnParent.new(column_family: cf, super_column: super_column)
  end

  def whole(reversed: false, count: 100)
    SlicePredicate.new(slice_range: SliceRange.new(start: "", finish: "", reversed: reversed, count: count))
  end

  def names(columns)
    columns.map { |c| c.column.name }
  end

  def smoke(client, tag)
    key = "smoke-#{tag}-#{SecureRandom.hex(4)}"
    ts = (Time.now.to_r * 1_000_000).to_i

    # describe_*
    assert_equal "2.2.0", client.describe_version
    assert_equal VERSION, client.describe_version
    assert_equal "Test Cluster", client.describe_cluster_name
    assert_empty %w[Keyspace1 BloggyAppy system] - client.describe_keyspaces.to_a
    blog = client.describe_keyspace("BloggyAppy")
    assert_equal %w[Authors BlogEntries Comments TaggedPosts], blog.keys.sort
    assert_equal "Standard", blog["TaggedPosts"]["Type"]
    assert_equal MARSHAL + "TimeUUIDType", blog["TaggedPosts"]["CompareWith"]
    assert_equal "Super", blog["Comments"]["Type"]
    assert_equal MARSHAL + "TimeUUIDType", blog["Comments"]["CompareWith"]
    assert_equal MARSHAL + "BytesType", blog["Comments"]["CompareSubcolumnsWith"]

    # insert, get, get_slice, get_count
    %w[c2 c3 c1].each { |n| client.insert(KS, key, path("Standard1", n), "value-#{n}", ts, ONE) }
    got = client.get(KS, key, path("Standard1", "c2"), ONE).column
    assert_equal ["c2", "value-c2", ts], [got.name, got.value, got.timestamp]
    assert_equal %w[c1 c2 c3], names(client.get_slice(KS, key, parent("Standard1"), whole, ONE))
    assert_equal %w[c3 c2], names(client.get_slice(KS, key, parent("Standard1"), whole(reversed: true, count: 2), ONE))
    by_name = SlicePredicate.new(column_names: %w[c3 missing c1])
    assert_equal %w[c1 c3], names(client.get_slice(KS, key, parent("Standard1"), by_name, ONE))
    assert_equal 3, client.get_count(KS, key, parent("Standard1"), ONE)

    # batch_mutate
    client.batch_mutate(KS, { key => {
      "Standard1" => [
        Mutation.new(column_or_supercolumn: ColumnOrSuperColumn.new(
          column: Column.new(name: "c4", value: "value-c4", timestamp: ts))),
        Mutation.new(deletion: Deletion.new(timestamp: ts + 1, predicate: SlicePredicate.new(column_names: ["c1"])))
      ],
      "Super1" => [
        Mutation.new(column_or_supercolumn: ColumnOrSuperColumn.new(super_column: SuperColumn.new(
          name: "sc", columns: [Column.new(name: "b", value: "2", timestamp: ts),
                                Column.new(name: "a", value: "1", timestamp: ts)])))
      ]
    } }, ONE)
    assert_equal %w[c2 c3 c4], names(client.get_slice(KS, key, parent("Standard1"), whole, ONE))
    sc = client.get(KS, key, path("Super1", nil, "sc"), ONE).super_column
    assert_equal [%w[a 1], %w[b 2]], sc.columns.map { |c| [c.name, c.value] }
    assert_equal 2, client.get_count(KS, key, parent("Super1", "sc"), ONE)

    # remove
    client.remove(KS, key, path("Standard1", "c2"), ts + 2, ONE)
    assert_raises(NotFoundException) { client.get(KS, key, path("Standard1", "c2"), ONE) }
    client.remove(KS, key, path("Standard1"), ts + 3, ONE)
    assert_equal 0, client.get_count(KS, key, parent("Standard1"), ONE)
    assert_equal [], client.get_slice(KS, key, parent("Standard1"), whole, ONE)

    # declared exceptions
    e = assert_raises(InvalidRequestException) { client.get_slice(KS, key, parent("Nope"), whole, ONE) }
    assert_equal "unconfigured columnfamily Nope", e.why
    e = assert_raises(InvalidRequestException) { client.insert("Nope", key, path("Standard1", "c"), "v", ts, ONE) }
    assert_equal "Keyspace Nope does not exist in this schema.", e.why
    assert_raises(NotFoundException) { client.describe_keyspace("Nope") }
  end

  def test_buffered
    smoke(connect(false), "rb-buffered")
  end

  def test_framed
    smoke(connect(true), "rb-framed")
  end
end
