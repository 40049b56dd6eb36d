#!/usr/bin/env python3
"""Run a command against a fresh ilion server: the client suites' way to get one.

    python3 clients/serve.py [--partitioner P] -- COMMAND [ARG...]

Starts the release binary (ILION_BIN, default target/release/ilion) through the server
suite's harness (tests/python/ilion_harness.py) on a free port, in a temporary directory,
with the keyspaces of conf/storage-conf.xml (Keyspace1 and BloggyAppy) and RandomPartitioner
as in that sample. COMMAND then runs with ILION_HOST and ILION_PORT (the 0.6 API) and
ILION_LATER_PORT (the later API, IDL 20.1.0) set; the server is
stopped afterwards and this script exits with COMMAND's status. If the server dies while
COMMAND runs, that is a failure even when COMMAND succeeded.

Without a COMMAND it serves until interrupted, printing where it listens, which is handy
for trying the examples by hand.
"""

import argparse
import os
import signal
import subprocess
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "python"))
import ilion_harness  # noqa: E402

SAMPLE_CONFIG = os.path.join(ROOT, "conf", "storage-conf.xml")


def sample_keyspaces(path=SAMPLE_CONFIG):
    """The <Keyspace> elements of the sample config as XML text, comments dropped.

    Reading them from conf/storage-conf.xml (rather than copying them here) keeps the tests
    on exactly the BloggyAppy layout that ships with ilion.
    """
    keyspaces = ET.parse(path).getroot().find("Keyspaces")
    parts = []
    for keyspace in keyspaces.findall("Keyspace"):
        keyspace.tail = None
        parts.append(ET.tostring(keyspace, encoding="unicode"))
    return "\n".join(parts)


def start(partitioner="RandomPartitioner"):
    """A harness Server with the sample keyspaces; the caller closes it."""
    return ilion_harness.Server(partitioner=partitioner, keyspaces=sample_keyspaces())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--partitioner", default="RandomPartitioner",
                        help="partitioner class in org.apache.cassandra.dht (default %(default)s)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="command to run (after --)")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command

    with start(args.partitioner) as server:
        if not command:
            print(f"ilion listening on {server.host}:{server.port}, later API on port "
                  f"{server.later[1]} (Ctrl-C stops it)", flush=True)
            try:
                signal.pause()
            except KeyboardInterrupt:
                pass
            return 0
        env = dict(os.environ, ILION_HOST=server.host, ILION_PORT=str(server.port),
                   ILION_LATER_PORT=str(server.later[1]))
        status = subprocess.call(command, env=env)
        if server.proc.poll() is not None:
            sys.stderr.write("serve.py: the server died while the command ran:\n"
                             + "".join(server.log[-20:]))
            return status or 1
        return status


if __name__ == "__main__":
    sys.exit(main())
