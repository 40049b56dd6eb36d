# The Ruby side of the interleaving test (test_interleave.py): a long-lived Ruby client that
# takes one JSON command per line on stdin, runs it on its own connection through the
# generated Ruby bindings, and answers with one JSON line on stdout.
#
#   ruby ruby_peer.rb HOST PORT [--framed]
#
# Names and values travel as hex, so any bytes survive JSON. Commands ("op"):
#   insert  cf key name value ts [super_column]        -> null
#   get     cf key name [super_column]                 -> column, or error NotFoundException
#   slice   cf key [start finish reversed count super_column] -> [column or super column]
#   count   cf key [super_column]                      -> integer
#   remove  cf key [name super_column] ts              -> null
#   batch   mutations: [{cf key name value ts super_column}] -> null (one batch_mutate)
#   timeuuid                                          -> hex of a new TimeUUID made in Ruby
# A column is {"name", "value", "ts"}; a super column {"name", "columns"}. Errors answer
# {"error": class name, "why": message}.
require "json"
require_relative "../ruby/blogapp" # TimeUUID, and the bindings

class Peer
  include CassandraThrift
  KS = "Keyspace1"
  ONE = ConsistencyLevel::ONE

  def initialize(host, port, framed)
    socket = Thrift::Socket.new(host, port, 10)
    @transport = framed ? Thrift::FramedTransport.new(socket) : Thrift::BufferedTransport.new(socket)
    @client = Cassandra::Client.new(Thrift::BinaryProtocol.new(@transport))
    @transport.open
  end

  def bin(hex)
    hex && [hex].pack("H*")
  end

  def hex(bytes)
    bytes.unpack1("H*")
  end

  def column_json(c)
    { "name" => hex(c.name), "value" => hex(c.value), "ts" => c.timestamp }
  end

  def cosc_json(cosc)
    if cosc.super_column
      { "name" => hex(cosc.super_column.name), "columns" => cosc.super_column.columns.map { |c| column_json(c) } }
    else
      column_json(cosc.column)
    end
  end

  def path(cmd)
    ColumnPath.new(column_family: cmd["cf"], super_column: bin(cmd["super_column"]), column: bin(cmd["name"]))
  end

  def parent(cmd)
    ColumnParent.new(column_family: cmd["cf"], super_column: bin(cmd["super_column"]))
  end

  def handle(cmd)
    case cmd["op"]
    when "insert"
      @client.insert(KS, cmd["key"], path(cmd), bin(cmd["value"]), cmd["ts"], ONE)
      nil
    when "get"
      cosc_json(@client.get(KS, cmd["key"], path(cmd), ONE))
    when "slice"
      range = SliceRange.new(start: bin(cmd.fetch("start", "")), finish: bin(cmd.fetch("finish", "")),
                             reversed: cmd.fetch("reversed", false), count: cmd.fetch("count", 100))
      @client.get_slice(KS, cmd["key"], parent(cmd), SlicePredicate.new(slice_range: range), ONE).map { |c| cosc_json(c) }
    when "count"
      @client.get_count(KS, cmd["key"], parent(cmd), ONE)
    when "remove"
      @client.remove(KS, cmd["key"], path(cmd), cmd["ts"], ONE)
      nil
    when "batch"
      map = Hash.new { |h, k| h[k] = Hash.new { |h2, k2| h2[k2] = [] } }
      cmd["mutations"].each do |m|
        column = Column.new(name: bin(m["name"]), value: bin(m["value"]), timestamp: m["ts"])
        cosc = if m["super_column"]
                 ColumnOrSuperColumn.new(super_column: SuperColumn.new(name: bin(m["super_column"]), columns: [column]))
               else
                 ColumnOrSuperColumn.new(column: column)
               end
        map[m["key"]][m["cf"]] << Mutation.new(column_or_supercolumn: cosc)
      end
      @client.batch_mutate(KS, map, ONE)
      nil
    when "timeuuid"
      hex(TimeUUID.now)
    else
      raise ArgumentError, "unknown op #{cmd['op']}"
    end
  end

  def serve(input, output)
    input.each_line do |line|
      reply = begin
        { "ok" => handle(JSON.parse(line)) }
      rescue NotFoundException, InvalidRequestException => e
        { "error" => e.class.name.split("::").last, "why" => e.respond_to?(:why) ? e.why : nil }
      end
      output.puts(JSON.generate(reply))
      output.flush
    end
  end
end

host, port, flag = ARGV
Peer.new(host, Integer(port), flag == "--framed").serve($stdin, $stdout)
