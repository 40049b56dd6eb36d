// A small Node.js client for ilion: write a user's profile in one batch_mutate, read it back.
//
//   node example.js [HOST] [PORT] [--framed]
//
// Uses Keyspace1/Standard2 (UTF8Type names) of the sample config.
"use strict";

const { connect, gen } = require("./connect");

const { ttypes } = gen;

async function main() {
  const args = process.argv.slice(2);
  const framed = args.includes("--framed");
  const [host = "localhost", port = "9160"] = args.filter((a) => !a.startsWith("--"));
  const { client, connection } = await connect(host, Number(port), framed);
  try {
    const ONE = ttypes.ConsistencyLevel.ONE;
    console.log(`Connected to ${await client.describe_cluster_name()} (API ${await client.describe_version()})`);

    const timestamp = Date.now() * 1000; // microseconds, by convention
    const profile = { name: "Jane Smith", email: "jsmith@example.com", city: "Zürich" };
    const mutations = Object.entries(profile).map(([name, value]) => new ttypes.Mutation({
      column_or_supercolumn: new ttypes.ColumnOrSuperColumn({
        column: new ttypes.Column({ name: Buffer.from(name), value: Buffer.from(value), timestamp }),
      }),
    }));
    await client.batch_mutate("Keyspace1", { jsmith: { Standard2: mutations } }, ONE);

    const everything = new ttypes.SlicePredicate({
      // The Node generator insists on every required field, defaults included (reversed).
      slice_range: new ttypes.SliceRange({ start: Buffer.alloc(0), finish: Buffer.alloc(0), reversed: false, count: 100 }),
    });
    const parent = new ttypes.ColumnParent({ column_family: "Standard2" });
    for (const { column } of await client.get_slice("Keyspace1", "jsmith", parent, everything, ONE)) {
      console.log(`  ${column.name.toString("utf8")} = ${column.value.toString("utf8")}`);
    }

    try {
      await client.get("Keyspace1", "jsmith", new ttypes.ColumnPath({ column_family: "Standard2", column: Buffer.from("phone") }), ONE);
    } catch (e) {
      if (!(e instanceof ttypes.NotFoundException)) throw e;
      console.log("  (no phone number on file)");
    }
  } finally {
    connection.end();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
