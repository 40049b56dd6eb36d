// The client smoke test in Node.js, over the buffered and the framed transport: the same
// checks as clients/python/smoke.py, through the code `thrift -gen js:node` makes.
//
//   ILION_HOST=127.0.0.1 ILION_PORT=9160 node smoke_test.js
//
// Expects a server with the sample keyspaces (clients/serve.py starts one).
"use strict";

const assert = require("node:assert/strict");
const crypto = require("node:crypto");
const { connect, gen } = require("./connect");

const { ttypes } = gen;
const KS = "Keyspace1";
const MARSHAL = "org.apache.cassandra.db.marshal.";
const ONE = ttypes.ConsistencyLevel.ONE;

const b = (text) => Buffer.from(text, "utf8");
const path = (cf, column, superColumn) =>
  new ttypes.ColumnPath({ column_family: cf, column: column && b(column), super_column: superColumn && b(superColumn) });
const parent = (cf, superColumn) =>
  new ttypes.ColumnParent({ column_family: cf, super_column: superColumn && b(superColumn) });
const whole = (reversed = false, count = 100) =>
  new ttypes.SlicePredicate({ slice_range: new ttypes.SliceRange({ start: b(""), finish: b(""), reversed, count }) });
const names = (columns) => columns.map((c) => c.column.name.toString());
const column = (name, value, timestamp) => new ttypes.Column({ name: b(name), value: b(value), timestamp });

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
  const key = `smoke-${tag}-${crypto.randomBytes(4).toString("hex")}`;
  const ts = Date.now() * 1000; // microseconds; still an exact double

  // describe_*
  assert.equal(await client.describe_version(), "2.2.0");
  assert.equal(await client.describe_version(), gen.constants.VERSION);
  assert.equal(await client.describe_cluster_name(), "Test Cluster");
  const keyspaces = await client.describe_keyspaces();
  for (const ks of ["Keyspace1", "BloggyAppy", "system"]) assert.ok(keyspaces.includes(ks), ks);
  const blog = await client.describe_keyspace("BloggyAppy");
  assert.deepEqual(Object.keys(blog).sort(), ["Authors", "BlogEntries", "Comments", "TaggedPosts"]);
  assert.equal(blog.TaggedPosts.Type, "Standard");
  assert.equal(blog.TaggedPosts.CompareWith, MARSHAL + "TimeUUIDType");
  assert.equal(blog.Comments.Type, "Super");
  assert.equal(blog.Comments.CompareWith, MARSHAL + "TimeUUIDType");
  assert.equal(blog.Comments.CompareSubcolumnsWith, MARSHAL + "BytesType");

  // insert, get, get_slice, get_count
  for (const n of ["c2", "c3", "c1"]) await client.insert(KS, key, path("Standard1", n), b(`value-${n}`), ts, ONE);
  const got = (await client.get(KS, key, path("Standard1", "c2"), ONE)).column;
  assert.deepEqual([got.name.toString(), got.value.toString(), got.timestamp.toNumber()], ["c2", "value-c2", ts]);
  assert.deepEqual(names(await client.get_slice(KS, key, parent("Standard1"), whole(), ONE)), ["c1", "c2", "c3"]);
  assert.deepEqual(names(await client.get_slice(KS, key, parent("Standard1"), whole(true, 2), ONE)), ["c3", "c2"]);
  const byName = new ttypes.SlicePredicate({ column_names: [b("c3"), b("missing"), b("c1")] });
  assert.deepEqual(names(await client.get_slice(KS, key, parent("Standard1"), byName, ONE)), ["c1", "c3"]);
  assert.equal(await client.get_count(KS, key, parent("Standard1"), ONE), 3);

  // batch_mutate
  const mutation = (fields) => new ttypes.Mutation(fields);
  const cosc = (fields) => new ttypes.ColumnOrSuperColumn(fields);
  await client.batch_mutate(KS, {
    [key]: {
      Standard1: [
        mutation({ column_or_supercolumn: cosc({ column: column("c4", "value-c4", ts) }) }),
        mutation({ deletion: new ttypes.Deletion({
          timestamp: ts + 1, predicate: new ttypes.SlicePredicate({ column_names: [b("c1")] }) }) }),
      ],
      Super1: [
        mutation({ column_or_supercolumn: cosc({ super_column: new ttypes.SuperColumn({
          name: b("sc"), columns: [column("b", "2", ts), column("a", "1", ts)] }) }) }),
      ],
    },
  }, ONE);
  assert.deepEqual(names(await client.get_slice(KS, key, parent("Standard1"), whole(), ONE)), ["c2", "c3", "c4"]);
  const sc = (await client.get(KS, key, path("Super1", null, "sc"), ONE)).super_column;
  assert.deepEqual(sc.columns.map((c) => [c.name.toString(), c.value.toString()]), [["a", "1"], ["b", "2"]]);
  assert.equal(await client.get_count(KS, key, parent("Super1", "sc"), ONE), 2);

  // remove
  await client.remove(KS, key, path("Standard1", "c2"), ts + 2, ONE);
  await rejects(client.get(KS, key, path("Standard1", "c2"), ONE), ttypes.NotFoundException);
  await client.remove(KS, key, path("Standard1"), ts + 3, ONE);
  assert.equal(await client.get_count(KS, key, parent("Standard1"), ONE), 0);
  assert.deepEqual(await client.get_slice(KS, key, parent("Standard1"), whole(), ONE), []);

  // declared exceptions
  let e = await rejects(client.get_slice(KS, key, parent("Nope"), whole(), ONE), ttypes.InvalidRequestException);
  assert.equal(e.why, "unconfigured columnfamily Nope");
  e = await rejects(client.insert("Nope", key, path("Standard1", "c"), b("v"), ts, ONE), ttypes.InvalidRequestException);
  assert.equal(e.why, "Keyspace Nope does not exist in this schema.");
  await rejects(client.describe_keyspace("Nope"), ttypes.NotFoundException);
}

async function main() {
  const host = process.env.ILION_HOST;
  const port = Number(process.env.ILION_PORT);
  for (const framed of [false, true]) {
    const name = framed ? "framed" : "buffered";
    const { client, connection } = await connect(host, port, framed);
    try {
      await smoke(client, `node-${name}`);
    } finally {
      connection.end();
    }
    console.log(`node smoke test (${name}): ok`);
  }
}

main().catch((e) => {
  console.error("node smoke test FAILED:", e);
  process.exit(1);
});
