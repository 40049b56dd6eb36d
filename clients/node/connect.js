// Opening a connection to ilion from Node.js, over the bindings `thrift -gen js:node`
// makes from idl/cassandra.thrift. They are never committed: they are loaded from
// ILION_GEN_NODE, or from gen-nodejs/ beside this file, generated on first use.
"use strict";

const fs = require("node:fs");
const path = require("node:path");
const { execFileSync } = require("node:child_process");
const thrift = require("thrift");

function bindingsDir() {
  if (process.env.ILION_GEN_NODE) return process.env.ILION_GEN_NODE;
  const dir = path.join(__dirname, "gen-nodejs");
  if (!fs.existsSync(path.join(dir, "Cassandra.js"))) {
    const idl = process.env.ILION_IDL || path.join(__dirname, "..", "..", "idl", "cassandra.thrift");
    fs.mkdirSync(dir, { recursive: true });
    // thrift warns on stdout about namespaces for languages it lacks (csharp): ignored.
    execFileSync("thrift", ["-gen", "js:node", "-out", dir, idl], { stdio: ["ignore", "ignore", "inherit"] });
  }
  return dir;
}

const dir = bindingsDir();
const gen = {
  Cassandra: require(path.join(dir, "Cassandra.js")),
  ttypes: require(path.join(dir, "cassandra_types.js")),
};
gen.constants = { VERSION: gen.ttypes.VERSION };

// Resolves to { client, connection } once connected; `client` methods return promises.
function connect(host, port, framed = false) {
  return new Promise((resolve, reject) => {
    const connection = thrift.createConnection(host, port, {
      transport: framed ? thrift.TFramedTransport : thrift.TBufferedTransport,
      protocol: thrift.TBinaryProtocol,
      connect_timeout: 10000,
      timeout: 10000,
    });
    connection.once("connect", () => resolve({ client: thrift.createClient(gen.Cassandra, connection), connection }));
    connection.once("error", reject);
  });
}

module.exports = { connect, gen, thrift };
