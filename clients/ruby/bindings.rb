# Loads the Ruby bindings generated from idl/cassandra.thrift (module CassandraThrift).
#
# They are made by the Thrift compiler at run time, never committed: from the directory in
# ILION_GEN_RB if set, else from gen-rb/ beside this file, which is generated with
# `thrift -gen rb` the first time it is missing.
require "fileutils"
require "thrift"

module IlionBindings
  HERE = File.expand_path(__dir__)
  IDL = ENV.fetch("ILION_IDL", File.join(HERE, "..", "..", "idl", "cassandra.thrift"))

  def self.directory
    return ENV["ILION_GEN_RB"] if ENV["ILION_GEN_RB"]

    dir = File.join(HERE, "gen-rb")
    generate(dir) unless File.exist?(File.join(dir, "cassandra.rb"))
    dir
  end

  def self.generate(dir)
    raise "the Thrift compiler `thrift` is not installed (apt-get install thrift-compiler)" unless
      system("command -v thrift >/dev/null 2>&1")
    tmp = "#{dir}.tmp-#{Process.pid}"
    FileUtils.mkdir_p(tmp)
    # thrift warns on stdout about namespaces for languages it lacks (csharp): noise.
    ok = system("thrift", "-gen", "rb", "-out", tmp, IDL, out: File::NULL)
    raise "thrift -gen rb #{IDL} failed" unless ok

    File.rename(tmp, dir)
  rescue SystemCallError
    FileUtils.rm_rf(tmp) # another process generated it first
  end
end

$LOAD_PATH.unshift(IlionBindings.directory)
require "cassandra"
require "cassandra_constants"
