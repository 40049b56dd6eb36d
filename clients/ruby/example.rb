# A small Ruby client for ilion: store a user's profile, read it back, list it.
#
#   ruby example.rb [HOST] [PORT] [--framed]
#
# Uses the bindings generated from idl/cassandra.thrift (see bindings.rb) and the
# Keyspace1/Standard2 column family (UTF8Type names) of the sample config.
require_relative "bindings"

host, port = ARGV.reject { |a| a.start_with?("--") }
host ||= ENV.fetch("ILION_HOST", "localhost")
port = Integer(port || ENV.fetch("ILION_PORT", "9160"))
framed = ARGV.include?("--framed")

socket = Thrift::Socket.new(host, port, 10)
transport = framed ? Thrift::FramedTransport.new(socket) : Thrift::BufferedTransport.new(socket)
client = CassandraThrift::Cassandra::Client.new(Thrift::BinaryProtocol.new(transport))
transport.open
begin
  one = CassandraThrift::ConsistencyLevel::ONE
  now = (Time.now.to_r * 1_000_000).to_i # microseconds, the usual timestamp unit
  puts "Connected to #{client.describe_cluster_name} (API #{client.describe_version})"

  profile = { "name" => "Jane Smith", "email" => "jsmith@example.com", "city" => "Tōkyō" }
  mutations = profile.map do |name, value|
    column = CassandraThrift::Column.new(name: name, value: value, timestamp: now)
    CassandraThrift::Mutation.new(
      column_or_supercolumn: CassandraThrift::ColumnOrSuperColumn.new(column: column))
  end
  client.batch_mutate("Keyspace1", { "jsmith" => { "Standard2" => mutations } }, one)

  parent = CassandraThrift::ColumnParent.new(column_family: "Standard2")
  everything = CassandraThrift::SlicePredicate.new(
    slice_range: CassandraThrift::SliceRange.new(start: "", finish: "", count: 100))
  client.get_slice("Keyspace1", "jsmith", parent, everything, one).each do |cosc|
    # Names and values arrive as binary strings; UTF8Type names are text.
    puts "  #{cosc.column.name.force_encoding('UTF-8')} = #{cosc.column.value.force_encoding('UTF-8')}"
  end

  begin
    path = CassandraThrift::ColumnPath.new(column_family: "Standard2", column: "phone")
    client.get("Keyspace1", "jsmith", path, one)
  rescue CassandraThrift::NotFoundException
    puts "  (no phone number on file)"
  end
ensure
  transport.close
end
