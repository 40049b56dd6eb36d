# The later API's smoke test in Ruby (IDL 20.1.0, the Thrift interface of Cassandra 0.7 to
# 3.11), over the buffered and the framed transport, through the bindings `thrift -gen rb`
# makes from idl/cassandra-20.thrift: the same checks as clients/java's SmokeTest20 and
# clients/node's smoke_test20.js.
#
#   ILION_HOST=127.0.0.1 ILION_LATER_PORT=9161 ILION_GEN_RB20=gen-rb20 ruby smoke_test20.rb
#
# Expects a server with the sample keyspaces (clients/serve.py starts one).
require "minitest/autorun"
require "securerandom"
require "thrift"
$LOAD_PATH.unshift(ENV.fetch("ILION_GEN_RB20"))
require "cassandra"
require "cassandra-20_constants"

class SmokeTest20 < Minitest::Test
  include CassandraThrift
  MARSHAL = "org.apache.cassandra.db.marshal."
  ONE = ConsistencyLevel::ONE

  def connect(framed)
    socket = Thrift::Socket.new(ENV.fetch("ILION_HOST"), Integer(ENV.fetch("ILION_LATER_PORT")), 10)
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

  def column(name, value, ts, ttl = nil)
    Column.new(name: name, value: value, timestamp: ts, ttl: ttl)
  end

  def names(items)
    items.map { |c| c.column.name }
  end

  def smoke(client, tag)
    # A binary key: not valid UTF-8.
    key = "smoke20-#{tag}-#{SecureRandom.hex(4)}\xFF".b
    ts = (Time.now.to_r * 1_000_000).to_i

    # describe_*
    assert_equal "20.1.0", client.describe_version
    assert_equal VERSION, client.describe_version
    assert_equal "Test Cluster", client.describe_cluster_name
    assert_empty %w[BloggyAppy Keyspace1 system] - client.describe_keyspaces.map(&:name)
    blog = client.describe_keyspace("BloggyAppy")
    assert_equal "org.apache.cassandra.locator.SimpleStrategy", blog.strategy_class
    assert_equal({ "replication_factor" => "1" }, blog.strategy_options)
    assert_equal %w[Authors BlogEntries Comments TaggedPosts], blog.cf_defs.map(&:name)
    comments = blog.cf_defs.find { |cf| cf.name == "Comments" }
    assert_equal "Super", comments.column_type
    assert_equal MARSHAL + "TimeUUIDType", comments.comparator_type
    assert_equal MARSHAL + "BytesType", comments.subcomparator_type

    # The session keyspace.
    e = assert_raises(InvalidRequestException) { client.set_keyspace("Nope") }
    assert_equal "Keyspace 'Nope' does not exist", e.why
    client.set_keyspace("Keyspace1")

    # insert, get, get_slice, get_count, TTL
    %w[c2 c3 c1].each { |n| client.insert(key, parent("Standard1"), column(n, "value-#{n}", ts), ONE) }
    got = client.get(key, path("Standard1", "c2"), ONE).column
    assert_equal ["c2", "value-c2", ts, nil], [got.name, got.value, got.timestamp, got.ttl]
    assert_equal %w[c1 c2 c3], names(client.get_slice(key, parent("Standard1"), whole, ONE))
    assert_equal %w[c3 c2], names(client.get_slice(key, parent("Standard1"), whole(reversed: true, count: 2), ONE))
    by_name = SlicePredicate.new(column_names: %w[c3 missing c1])
    assert_equal %w[c1 c3], names(client.get_slice(key, parent("Standard1"), by_name, ONE))
    assert_equal 3, client.get_count(key, parent("Standard1"), whole, ONE)
    client.insert(key, parent("Standard1"), column("short", "lived", ts, 3600), ONE)
    assert_equal 3600, client.get(key, path("Standard1", "short"), ONE).column.ttl

    # batch_mutate: a column, a deletion and a super column in one call
    client.batch_mutate({ key => {
      "Standard1" => [
        Mutation.new(column_or_supercolumn: ColumnOrSuperColumn.new(column: column("c4", "value-c4", ts))),
        Mutation.new(deletion: Deletion.new(timestamp: ts + 1, predicate: SlicePredicate.new(column_names: %w[c1 short])))
      ],
      "Super1" => [
        Mutation.new(column_or_supercolumn: ColumnOrSuperColumn.new(super_column: SuperColumn.new(
          name: "sc", columns: [column("b", "2", ts), column("a", "1", ts)])))
      ]
    } }, ONE)
    assert_equal %w[c2 c3 c4], names(client.get_slice(key, parent("Standard1"), whole, ONE))
    sc = client.get(key, path("Super1", nil, "sc"), ONE).super_column
    assert_equal %w[a b], sc.columns.map(&:name)

    # multiget_slice and a key range holding just this row
    other = key + "2"
    rows = client.multiget_slice([key, other], parent("Standard1"), whole, ONE)
    assert_equal [%w[c2 c3 c4], []], [names(rows[key]), rows[other]]
    range = KeyRange.new(start_key: key, end_key: key, count: 10)
    slices = client.get_range_slices(parent("Standard1"), whole, range, ONE)
    assert_equal [key], slices.map(&:key)

    # cas on a row with nothing live, then against its new value
    assert client.cas(other, "Standard1", [], [column("n", "1", ts)], ConsistencyLevel::SERIAL, ConsistencyLevel::QUORUM).success
    failed = client.cas(other, "Standard1", [column("n", "0", ts)], [column("n", "2", ts)], ConsistencyLevel::SERIAL, ConsistencyLevel::QUORUM)
    refute failed.success
    assert_equal ["1"], failed.current_values.map(&:value)

    # remove a column, then the row; the declared exceptions
    client.remove(key, path("Standard1", "c2"), ts + 2, ONE)
    assert_raises(NotFoundException) { client.get(key, path("Standard1", "c2"), ONE) }
    client.remove(key, path("Standard1"), ts + 3, ONE)
    assert_equal [], client.get_slice(key, parent("Standard1"), whole, ONE)
    e = assert_raises(InvalidRequestException) { client.get_slice(key, parent("Nope"), whole, ONE) }
    assert_equal "unconfigured table Nope", e.why
    assert_raises(NotFoundException) { client.describe_keyspace("Nope") }
  end

  # The methods the smoke test does not reach, once, framed: schema changes, counters,
  # indexes, paging, multi-slices, atomic batches, truncate, the ring and splits, tracing,
  # login and the CQL calls' answers.
  def test_every_other_method
    client = connect(true)
    ts = (Time.now.to_r * 1_000_000).to_i
    ks = "SmokeRb#{SecureRandom.hex(4)}"
    ks_def = KsDef.new(name: ks, strategy_class: "SimpleStrategy",
                       strategy_options: { "replication_factor" => "1" }, cf_defs: [])
    version = client.system_add_keyspace(ks_def)
    assert_equal({ version => ["127.0.0.1"] }, client.describe_schema_versions)
    client.set_keyspace(ks)
    owner = ColumnDef.new(name: "owner", validation_class: "UTF8Type", index_type: IndexType::KEYS, index_name: "Items_owner")
    client.system_add_column_family(CfDef.new(keyspace: ks, name: "Items", comparator_type: "UTF8Type", column_metadata: [owner]))
    client.system_add_column_family(CfDef.new(keyspace: ks, name: "Hits", default_validation_class: "CounterColumnType"))
    assert_equal %w[Hits Items], client.describe_keyspace(ks).cf_defs.map(&:name)

    %w[a b c].each do |k|
      %w[x y z].each { |n| client.insert(k, parent("Items"), column(n, "#{k}#{n}", ts), ONE) }
      client.insert(k, parent("Items"), column("owner", k == "b" ? "bob" : "ann", ts), ONE)
    end
    assert_equal({ "a" => 4, "b" => 4 }, client.multiget_count(%w[a b], parent("Items"), whole, ONE))
    everything = KeyRange.new(start_key: "", end_key: "", count: 100)
    paged = client.get_paged_slice("Items", KeyRange.new(start_key: "", end_key: "", count: 6), "", ONE)
    assert_equal 6, paged.sum { |r| r.columns.size }
    clause = IndexClause.new(expressions: [IndexExpression.new(column_name: "owner", op: IndexOperator::EQ, value: "bob")], start_key: "", count: 10)
    assert_equal ["b"], client.get_indexed_slices(parent("Items"), clause, whole, ONE).map(&:key)
    multi = MultiSliceRequest.new(key: "a", column_parent: parent("Items"),
                                  column_slices: [ColumnSlice.new(start: "x", finish: "x"), ColumnSlice.new(start: "z", finish: "z")])
    assert_equal %w[x z], names(client.get_multi_slice(multi))
    client.atomic_batch_mutate({ "d" => { "Items" => [Mutation.new(column_or_supercolumn: ColumnOrSuperColumn.new(column: column("x", "dx", ts)))] } }, ONE)
    assert_equal 4, client.get_range_slices(parent("Items"), whole, everything, ONE).size

    # counters
    client.add("p", parent("Hits"), CounterColumn.new(name: "views", value: 12), ONE)
    client.add("p", parent("Hits"), CounterColumn.new(name: "views", value: -21), ONE)
    assert_equal(-9, client.get("p", path("Hits", "views"), ONE).counter_column.value)
    client.remove_counter("p", path("Hits", "views"), ONE)
    assert_raises(NotFoundException) { client.get("p", path("Hits", "views"), ONE) }

    # the ring, splits and tracing
    ring = client.describe_ring(ks)
    assert_equal 1, ring.size
    assert_equal ring, client.describe_local_ring(ks)
    assert_equal ["127.0.0.1"], client.describe_token_map.values
    assert_equal "org.apache.cassandra.dht.RandomPartitioner", client.describe_partitioner
    assert_equal "org.apache.cassandra.locator.SimpleSnitch", client.describe_snitch
    splits = client.describe_splits_ex("Items", "0", "0", 2)
    assert_equal 4, splits.sum(&:row_count)
    assert_equal [splits.first.start_token] + splits.map(&:end_token), client.describe_splits("Items", "0", "0", 2)
    assert_equal 16, client.trace_next_query.bytesize

    # login under AllowAllAuthenticator, and the CQL calls
    client.login(AuthenticationRequest.new(credentials: {}))
    client.set_cql_version("3.0.0")
    %i[execute_cql3_query].each do |m|
      e = assert_raises(InvalidRequestException) { client.send(m, "SELECT 1", Compression::NONE, ONE) }
      assert_equal "CQL is not supported yet", e.why
    end
    e = assert_raises(InvalidRequestException) { client.prepare_cql3_query("SELECT 1", Compression::NONE) }
    assert_equal "CQL is not supported yet", e.why
    e = assert_raises(InvalidRequestException) { client.execute_prepared_cql3_query(1, [], ONE) }
    assert_equal "CQL is not supported yet", e.why
    removed = "CQL2 has been removed in Cassandra 2.2. Please use CQL3 instead"
    assert_equal removed, assert_raises(InvalidRequestException) { client.execute_cql_query("SELECT 1", Compression::NONE) }.why
    assert_equal removed, assert_raises(InvalidRequestException) { client.prepare_cql_query("SELECT 1", Compression::NONE) }.why
    assert_equal removed, assert_raises(InvalidRequestException) { client.execute_prepared_cql_query(1, []) }.why

    # schema updates, truncate and drops
    items = client.describe_keyspace(ks).cf_defs.find { |cf| cf.name == "Items" }
    items.comment = "updated"
    client.system_update_column_family(items)
    assert_equal "updated", client.describe_keyspace(ks).cf_defs.find { |cf| cf.name == "Items" }.comment
    client.system_update_keyspace(KsDef.new(name: ks, strategy_class: "SimpleStrategy",
                                            strategy_options: { "replication_factor" => "1" }, durable_writes: false, cf_defs: []))
    refute client.describe_keyspace(ks).durable_writes
    client.truncate("Items")
    assert_empty client.get_range_slices(parent("Items"), whole, everything, ONE)
    client.system_drop_column_family("Items")
    assert_equal %w[Hits], client.describe_keyspace(ks).cf_defs.map(&:name)
    client.system_drop_keyspace(ks)
    assert_raises(NotFoundException) { client.describe_keyspace(ks) }
  end

  def test_buffered
    smoke(connect(false), "buffered")
  end

  def test_framed
    smoke(connect(true), "framed")
  end
end
