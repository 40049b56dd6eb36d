// The later API's smoke test in Node.js (IDL 20.1.0, the Thrift interface of Cassandra 0.7
// to 3.11), over the buffered and the framed transport, through the code
// `thrift -gen js:node` makes from idl/cassandra-20.thrift: the same checks as
// clients/ruby/smoke_test20.rb and clients/java's SmokeTest20.
//
//   ILION_HOST=127.0.0.1 ILION_LATER_PORT=9161 ILION_GEN_NODE20=gen-nodejs20 node smoke_test20.js
//
// Expects a server with the sample keyspaces (clients/serve.py starts one).
"use strict";

const assert = require("node:assert/strict");
const crypto = require("node:crypto");
const path = require("node:path");
const thrift = require("thrift");

const dir = process.env.ILION_GEN_NODE20;
const Cassandra = require(path.join(dir, "Cassandra.js"));
const ttypes = require(path.join(dir, "cassandra-20_types.js"));
const MARSHAL = "org.apache.cassandra.db.marshal.";
const ONE = ttypes.ConsistencyLevel.ONE;
const { SERIAL, QUORUM } = ttypes.ConsistencyLevel;

const b = (text) => Buffer.from(text, "utf8");
const cpath = (cf, column, superColumn) =>
  new ttypes.ColumnPath({ column_family: cf, column: column && b(column), super_column: superColumn && b(superColumn) });
const parent = (cf) => new ttypes.ColumnParent({ column_family: cf });
const whole = (reversed = false, count = 100) =>
  new ttypes.SlicePredicate({ slice_range: new ttypes.SliceRange({ start: b(""), finish: b(""), reversed, count }) });
const names = (items) => items.map((c) => c.column.name.toString());
const column = (name, value, timestamp, ttl) => new ttypes.Column({ name: b(name), value: b(value), timestamp, ttl });

function connect(host, port, framed) {
  return new Promise((resolve, reject) => {
    const connection = thrift.createConnection(host, port, {
      transport: framed ? thrift.TFramedTransport : thrift.TBufferedTransport,
      protocol: thrift.TBinaryProtocol,
      connect_timeout: 10000,
      timeout: 10000,
    });
    connection.once("connect", () => resolve({ client: thrift.createClient(Cassandra, connection), connection }));
    connection.once("error", reject);
  });
}

async function rejects(promise, type) {
  try {
    await promise;
  } catch (e) {
    assert.ok(e instanceof type, `wanted ${type.name}, got ${e && e.constructor.name}: ${e && e.message}`);
    return e;
  }
  assert.fail(`no ${type.name} raised`);
}

async function smoke(client, tag) {
  // Keys are binary, but the Node bindings carry a map's binary keys as object property
  // names, i.e. strings: the row keys of this test are UTF-8, and one binary key is
  // checked on its own below.
  const key = b(`smoke20-${tag}-${crypto.randomBytes(4).toString("hex")}`);
  const other = Buffer.concat([key, b("2")]);
  const ts = Date.now() * 1000; // microseconds; still an exact double

  // describe_*
  assert.equal(await client.describe_version(), "20.1.0");
  assert.equal(await client.describe_version(), ttypes.VERSION);
  assert.equal(await client.describe_cluster_name(), "Test Cluster");
  const keyspaces = (await client.describe_keyspaces()).map((k) => k.name);
  for (const ks of ["Keyspace1", "BloggyAppy", "system"]) assert.ok(keyspaces.includes(ks), ks);
  const blog = await client.describe_keyspace("BloggyAppy");
  assert.equal(blog.strategy_class, "org.apache.cassandra.locator.SimpleStrategy");
  assert.deepEqual({ ...blog.strategy_options }, { replication_factor: "1" });
  assert.deepEqual(blog.cf_defs.map((cf) => cf.name), ["Authors", "BlogEntries", "Comments", "TaggedPosts"]);
  const comments = blog.cf_defs.find((cf) => cf.name === "Comments");
  assert.equal(comments.column_type, "Super");
  assert.equal(comments.comparator_type, MARSHAL + "TimeUUIDType");
  assert.equal(comments.subcomparator_type, MARSHAL + "BytesType");

  // The session keyspace.
  let e = await rejects(client.set_keyspace("Nope"), ttypes.InvalidRequestException);
  assert.equal(e.why, "Keyspace 'Nope' does not exist");
  await client.set_keyspace("Keyspace1");

  // insert, get, get_slice, get_count, TTL
  for (const n of ["c2", "c3", "c1"]) await client.insert(key, parent("Standard1"), column(n, `value-${n}`, ts), ONE);
  const got = (await client.get(key, cpath("Standard1", "c2"), ONE)).column;
  assert.deepEqual([got.name.toString(), got.value.toString(), got.timestamp.toNumber(), got.ttl], ["c2", "value-c2", ts, null]);
  assert.deepEqual(names(await client.get_slice(key, parent("Standard1"), whole(), ONE)), ["c1", "c2", "c3"]);
  assert.deepEqual(names(await client.get_slice(key, parent("Standard1"), whole(true, 2), ONE)), ["c3", "c2"]);
  const byName = new ttypes.SlicePredicate({ column_names: [b("c3"), b("missing"), b("c1")] });
  assert.deepEqual(names(await client.get_slice(key, parent("Standard1"), byName, ONE)), ["c1", "c3"]);
  assert.equal(await client.get_count(key, parent("Standard1"), whole(), ONE), 3);
  await client.insert(key, parent("Standard1"), column("short", "lived", ts, 3600), ONE);
  assert.equal((await client.get(key, cpath("Standard1", "short"), ONE)).column.ttl, 3600);

  const binary = Buffer.concat([key, Buffer.from([0xff, 0x00])]);
  await client.insert(binary, parent("Standard1"), column("c", "v", ts), ONE);
  assert.equal((await client.get(binary, cpath("Standard1", "c"), ONE)).column.value.toString(), "v");

  // batch_mutate: a column, a deletion and a super column in one call
  const mutation = (fields) => new ttypes.Mutation(fields);
  const cosc = (fields) => new ttypes.ColumnOrSuperColumn(fields);
  const batch = { [key.toString()]: {
    Standard1: [
      mutation({ column_or_supercolumn: cosc({ column: column("c4", "value-c4", ts) }) }),
      mutation({ deletion: new ttypes.Deletion({
        timestamp: ts + 1, predicate: new ttypes.SlicePredicate({ column_names: [b("c1"), b("short")] }) }) }),
    ],
    Super1: [
      mutation({ column_or_supercolumn: cosc({ super_column: new ttypes.SuperColumn({
        name: b("sc"), columns: [column("b", "2", ts), column("a", "1", ts)] }) }) }),
    ],
  } };
  await client.batch_mutate(batch, ONE);
  assert.deepEqual(names(await client.get_slice(key, parent("Standard1"), whole(), ONE)), ["c2", "c3", "c4"]);
  const sc = (await client.get(key, cpath("Super1", null, "sc"), ONE)).super_column;
  assert.deepEqual(sc.columns.map((c) => [c.name.toString(), c.value.toString()]), [["a", "1"], ["b", "2"]]);

  // multiget_slice and a key range holding just this row
  const rows = await client.multiget_slice([key, other], parent("Standard1"), whole(), ONE);
  assert.deepEqual(names(rows[key.toString()]), ["c2", "c3", "c4"]);
  assert.deepEqual(rows[other.toString()], []);
  const slices = await client.get_range_slices(parent("Standard1"), whole(),
    new ttypes.KeyRange({ start_key: key, end_key: key, count: 10 }), ONE);
  assert.equal(slices.length, 1);
  assert.ok(Buffer.from(slices[0].key).equals(key));

  // cas on a row with nothing live, then against a value it does not hold
  assert.equal((await client.cas(other, "Standard1", [], [column("n", "1", ts)], SERIAL, QUORUM)).success, true);
  const failed = await client.cas(other, "Standard1", [column("n", "0", ts)], [column("n", "2", ts)], SERIAL, QUORUM);
  assert.equal(failed.success, false);
  assert.deepEqual(failed.current_values.map((c) => c.value.toString()), ["1"]);

  // remove a column, then the row; the declared exceptions
  await client.remove(key, cpath("Standard1", "c2"), ts + 2, ONE);
  await rejects(client.get(key, cpath("Standard1", "c2"), ONE), ttypes.NotFoundException);
  await client.remove(key, cpath("Standard1"), ts + 3, ONE);
  assert.deepEqual(await client.get_slice(key, parent("Standard1"), whole(), ONE), []);
  e = await rejects(client.get_slice(key, parent("Nope"), whole(), ONE), ttypes.InvalidRequestException);
  assert.equal(e.why, "unconfigured table Nope");
  await rejects(client.describe_keyspace("Nope"), ttypes.NotFoundException);
}

// The methods the smoke test does not reach, once, framed: schema changes, counters,
// indexes, paging, multi-slices, atomic batches, truncate, the ring and splits, tracing,
// login and the CQL calls' answers.
async function everyOtherMethod(client) {
  const ts = Date.now() * 1000;
  const ks = `SmokeNode${crypto.randomBytes(4).toString("hex")}`;
  const ksDef = (fields) => new ttypes.KsDef({
    name: ks, strategy_class: "SimpleStrategy", strategy_options: { replication_factor: "1" }, cf_defs: [], ...fields });
  const version = await client.system_add_keyspace(ksDef({}));
  assert.deepEqual({ ...(await client.describe_schema_versions()) }, { [version]: ["127.0.0.1"] });
  await client.set_keyspace(ks);
  const owner = new ttypes.ColumnDef({ name: b("owner"), validation_class: "UTF8Type",
    index_type: ttypes.IndexType.KEYS, index_name: "Items_owner" });
  await client.system_add_column_family(new ttypes.CfDef({ keyspace: ks, name: "Items", comparator_type: "UTF8Type", column_metadata: [owner] }));
  await client.system_add_column_family(new ttypes.CfDef({ keyspace: ks, name: "Hits", default_validation_class: "CounterColumnType" }));
  assert.deepEqual((await client.describe_keyspace(ks)).cf_defs.map((cf) => cf.name), ["Hits", "Items"]);

  for (const k of ["a", "b", "c"]) {
    for (const n of ["x", "y", "z"]) await client.insert(b(k), parent("Items"), column(n, k + n, ts), ONE);
    await client.insert(b(k), parent("Items"), column("owner", k === "b" ? "bob" : "ann", ts), ONE);
  }
  assert.deepEqual({ ...(await client.multiget_count([b("a"), b("b")], parent("Items"), whole(), ONE)) }, { a: 4, b: 4 });
  const everything = new ttypes.KeyRange({ start_key: b(""), end_key: b(""), count: 100 });
  const paged = await client.get_paged_slice("Items", new ttypes.KeyRange({ start_key: b(""), end_key: b(""), count: 6 }), b(""), ONE);
  assert.equal(paged.reduce((n, r) => n + r.columns.length, 0), 6);
  const clause = new ttypes.IndexClause({ expressions: [new ttypes.IndexExpression({
    column_name: b("owner"), op: ttypes.IndexOperator.EQ, value: b("bob") })], start_key: b(""), count: 10 });
  assert.deepEqual((await client.get_indexed_slices(parent("Items"), clause, whole(), ONE)).map((r) => r.key.toString()), ["b"]);
  const multi = new ttypes.MultiSliceRequest({ key: b("a"), column_parent: parent("Items"), column_slices: [
    new ttypes.ColumnSlice({ start: b("x"), finish: b("x") }), new ttypes.ColumnSlice({ start: b("z"), finish: b("z") })] });
  assert.deepEqual(names(await client.get_multi_slice(multi)), ["x", "z"]);
  await client.atomic_batch_mutate({ d: { Items: [new ttypes.Mutation({
    column_or_supercolumn: new ttypes.ColumnOrSuperColumn({ column: column("x", "dx", ts) }) })] } }, ONE);
  assert.equal((await client.get_range_slices(parent("Items"), whole(), everything, ONE)).length, 4);

  // counters
  await client.add(b("p"), parent("Hits"), new ttypes.CounterColumn({ name: b("views"), value: 12 }), ONE);
  await client.add(b("p"), parent("Hits"), new ttypes.CounterColumn({ name: b("views"), value: -21 }), ONE);
  assert.equal((await client.get(b("p"), cpath("Hits", "views"), ONE)).counter_column.value.toNumber(), -9);
  await client.remove_counter(b("p"), cpath("Hits", "views"), ONE);
  await rejects(client.get(b("p"), cpath("Hits", "views"), ONE), ttypes.NotFoundException);

  // the ring, splits and tracing
  const ring = await client.describe_ring(ks);
  assert.equal(ring.length, 1);
  assert.deepEqual(await client.describe_local_ring(ks), ring);
  assert.deepEqual(Object.values(await client.describe_token_map()), ["127.0.0.1"]);
  assert.equal(await client.describe_partitioner(), "org.apache.cassandra.dht.RandomPartitioner");
  assert.equal(await client.describe_snitch(), "org.apache.cassandra.locator.SimpleSnitch");
  const splits = await client.describe_splits_ex("Items", "0", "0", 2);
  assert.equal(splits.reduce((n, s) => n + s.row_count.toNumber(), 0), 4);
  assert.deepEqual(await client.describe_splits("Items", "0", "0", 2), [splits[0].start_token, ...splits.map((s) => s.end_token)]);
  assert.equal((await client.trace_next_query()).length, 16);

  // login under AllowAllAuthenticator, and the CQL calls
  await client.login(new ttypes.AuthenticationRequest({ credentials: {} }));
  await client.set_cql_version("3.0.0");
  const none = ttypes.Compression.NONE;
  for (const call of [
    () => client.execute_cql3_query(b("SELECT 1"), none, ONE),
    () => client.prepare_cql3_query(b("SELECT 1"), none),
    () => client.execute_prepared_cql3_query(1, [], ONE),
  ]) assert.equal((await rejects(call(), ttypes.InvalidRequestException)).why, "CQL is not supported yet");
  for (const call of [
    () => client.execute_cql_query(b("SELECT 1"), none),
    () => client.prepare_cql_query(b("SELECT 1"), none),
    () => client.execute_prepared_cql_query(1, []),
  ]) assert.equal((await rejects(call(), ttypes.InvalidRequestException)).why,
    "CQL2 has been removed in Cassandra 2.2. Please use CQL3 instead");

  // schema updates, truncate and drops
  const items = (await client.describe_keyspace(ks)).cf_defs.find((cf) => cf.name === "Items");
  items.comment = "updated";
  await client.system_update_column_family(items);
  assert.equal((await client.describe_keyspace(ks)).cf_defs.find((cf) => cf.name === "Items").comment, "updated");
  await client.system_update_keyspace(ksDef({ durable_writes: false }));
  assert.equal((await client.describe_keyspace(ks)).durable_writes, false);
  await client.truncate("Items");
  assert.deepEqual(await client.get_range_slices(parent("Items"), whole(), everything, ONE), []);
  await client.system_drop_column_family("Items");
  assert.deepEqual((await client.describe_keyspace(ks)).cf_defs.map((cf) => cf.name), ["Hits"]);
  await client.system_drop_keyspace(ks);
  await rejects(client.describe_keyspace(ks), ttypes.NotFoundException);
}

async function main() {
  const host = process.env.ILION_HOST;
  const port = Number(process.env.ILION_LATER_PORT);
  for (const framed of [false, true]) {
    const name = framed ? "framed" : "buffered";
    const { client, connection } = await connect(host, port, framed);
    try {
      await smoke(client, `node-${name}`);
    } finally {
      connection.end();
    }
    console.log(`node later smoke test (${name}): ok`);
  }
  const { client, connection } = await connect(host, port, true);
  try {
    await everyOtherMethod(client);
  } finally {
    connection.end();
  }
  console.log("node later smoke test (every other method): ok");
}

main().catch((e) => {
  console.error("node later smoke test FAILED:", e);
  process.exit(1);
});
