"""Hostile connections against an ilion port, for bench/abuse.sh (docs/faults.md#abuse).

Runs every kind of abuse at once for --seconds, each kind in its own asyncio tasks, and
prints one JSON object of what each saw:

  garbage    connect, send 1-4 KiB of random bytes, wait for the server to close (20/s);
  slowloris  32 connections sending a frame header, then the framed call one byte a
             second, until the server closes them (how long each was held is reported);
  silent     32 connections that connect and send nothing (a client that went away
             without closing looks like this to the server);
  halfclose  send half a request, then shut down the writing side (5/s);
  nonreader  4 connections pipelining `get` calls of a 256 KiB column without ever
             reading a reply, so the server's writes block;
  oversized  a frame header claiming 2 GiB, an unframed call claiming a 2 GiB method name,
             and 15 MiB frames (the limit) of garbage sent whole, from 2 connections;
  flood      waves of --flood connections held for 2 s each, well past
             ThriftMaxConnections, counting those the server closed at once;
  newlegit   once a second, a new well-behaved connection calls describe_version
             (how many succeeded shows whether new clients get in during the abuse).

--only runs some kinds alone (to see what each costs). The JSON also says how many CPU
seconds the abuser itself used (`abuser_cpu_s`), so a run can show what it took from the
machine next to what the server spent.
"""

import argparse
import asyncio
import json
import os
import resource
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                "faults"))
from faults_common import KS, ONE, Cassandra, connect, path  # noqa: E402
from thrift.protocol import TBinaryProtocol  # noqa: E402
from thrift.transport import TTransport  # noqa: E402

BIG = 256 * 1024


def call_bytes(method, **kw):
    """One strict-binary, unframed call of `method` as bytes, through the generated code."""
    buf = TTransport.TMemoryBuffer()
    client = Cassandra.Client(TBinaryProtocol.TBinaryProtocol(buf))
    getattr(client, "send_" + method)(**kw)
    return buf.getvalue()


class Stats(dict):
    def add(self, name, n=1):
        self[name] = self.get(name, 0) + n


async def open_conn(host, port):
    return await asyncio.wait_for(asyncio.open_connection(host, port), 5)


async def closed_by_server(reader, timeout):
    """Reads until EOF; True if the server closed within `timeout` seconds."""
    try:
        while await asyncio.wait_for(reader.read(65536), timeout):
            pass
        return True
    except ConnectionError:
        return True  # closed with unread input left: a reset rather than an EOF
    except asyncio.TimeoutError:
        return False


async def garbage(host, port, stop, st):
    while time.time() < stop:
        try:
            r, w = await open_conn(host, port)
            w.write(os.urandom(1024 + int.from_bytes(os.urandom(2), "big") % 3072))
            await w.drain()
            st.add("garbage_sent")
            st.add("garbage_closed" if await closed_by_server(r, 40) else "garbage_kept_open")
            w.close()
        except (OSError, asyncio.TimeoutError):
            st.add("garbage_connect_failed")
        await asyncio.sleep(0.05)


async def slowloris(host, port, stop, st, held, body):
    while time.time() < stop:
        try:
            r, w = await open_conn(host, port)
        except (OSError, asyncio.TimeoutError):
            st.add("slowloris_connect_failed")
            await asyncio.sleep(1)
            continue
        began = time.time()
        try:
            # A real call, framed, sent a byte a second: every prefix is valid, so only the
            # read timeout can end it.
            w.write(struct.pack(">i", len(body)))
            for byte in body:
                await w.drain()
                try:
                    if await asyncio.wait_for(r.read(1), 1.0) == b"":
                        break  # the server closed it
                except asyncio.TimeoutError:
                    pass
                w.write(bytes([byte]))
            else:
                st.add("slowloris_never_closed")
        except (OSError, ConnectionError):
            pass
        held.append(round(time.time() - began, 1))
        w.close()


async def silent(host, port, stop, st):
    try:
        r, w = await open_conn(host, port)
    except (OSError, asyncio.TimeoutError):
        st.add("silent_connect_failed")
        return
    st.add("silent_opened")
    closed = await closed_by_server(r, max(stop - time.time(), 0.1))
    st.add("silent_closed_by_server" if closed else "silent_still_open_at_end")
    w.close()


async def halfclose(host, port, stop, st, half):
    while time.time() < stop:
        try:
            r, w = await open_conn(host, port)
            w.write(half)
            await w.drain()
            w.write_eof()
            st.add("halfclose_closed" if await closed_by_server(r, 40) else "halfclose_kept_open")
            w.close()
        except (OSError, asyncio.TimeoutError):
            st.add("halfclose_connect_failed")
        await asyncio.sleep(0.2)


async def nonreader(host, port, stop, st, get_big, held):
    """Pipelines big reads and never reads; notes how long until the server gives up."""
    while time.time() < stop:
        try:
            r, w = await open_conn(host, port)
        except (OSError, asyncio.TimeoutError):
            st.add("nonreader_connect_failed")
            await asyncio.sleep(1)
            continue
        began = time.time()
        sock = w.get_extra_info("socket")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        closed = False
        try:
            while time.time() < stop + 60:
                w.write(get_big)
                try:
                    await asyncio.wait_for(w.drain(), 1.0)
                except asyncio.TimeoutError:
                    pass  # our send buffer is full: the server stopped reading
                except (OSError, ConnectionError):
                    closed = True
                    break
                await asyncio.sleep(0.05)
        finally:
            held.append(round(time.time() - began, 1))
            if not closed:
                st.add("nonreader_still_open_at_end")
            w.transport.abort()


async def oversized(host, port, stop, st):
    claims = [struct.pack(">i", 0x7FFFFFFF) + b"\x80\x01\x00\x01",
              b"\x80\x01\x00\x01" + struct.pack(">i", 0x7FFFFFFF) + b"get"]
    frame = 15 * 1024 * 1024
    while time.time() < stop:
        for claim in claims:
            try:
                r, w = await open_conn(host, port)
                w.write(claim)
                await w.drain()
                st.add("oversized_claim_closed" if await closed_by_server(r, 10)
                       else "oversized_claim_kept_open")
                w.close()
            except (OSError, asyncio.TimeoutError):
                st.add("oversized_connect_failed")
        try:
            r, w = await open_conn(host, port)
            w.write(struct.pack(">i", frame) + os.urandom(frame))
            await asyncio.wait_for(w.drain(), 30)
            st.add("oversized_full_frame_closed" if await closed_by_server(r, 30)
                   else "oversized_full_frame_kept_open")
            w.close()
        except (OSError, ConnectionError, asyncio.TimeoutError):
            st.add("oversized_full_frame_closed")
        await asyncio.sleep(0.5)


async def flood(host, port, stop, st, size):
    while time.time() < stop:
        conns = []
        for _ in range(size):
            try:
                conns.append(await open_conn(host, port))
            except (OSError, asyncio.TimeoutError):
                st.add("flood_connect_failed")
        st.add("flood_opened", len(conns))
        await asyncio.sleep(2)
        for r, w in conns:
            # Closed at once by the server: EOF is already waiting.
            try:
                if await asyncio.wait_for(r.read(1), 0.001) == b"":
                    st.add("flood_refused")
            except asyncio.TimeoutError:
                st.add("flood_held")
            except (OSError, ConnectionError):
                st.add("flood_refused")
            w.transport.abort()
        await asyncio.sleep(1)


def newlegit(host, port, stop, st):
    while time.time() < stop:
        try:
            c = connect(host, port, timeout_s=5)
            c.c.describe_version()
            c.close()
            st.add("newlegit_ok")
        except Exception:
            st.add("newlegit_failed")
        time.sleep(1)


async def main_async(args, st):
    host, port = args.host, args.port
    c = connect(host, port)
    c.c.insert(KS, "abuse-big", path("Standard1", b"big"), b"x" * BIG, 1, ONE)
    c.close()
    get_big = call_bytes("get", keyspace=KS, key="abuse-big",
                         column_path=path("Standard1", b"big"), consistency_level=ONE)
    half = get_big[: len(get_big) // 2]
    stop = time.time() + args.seconds
    slow_held, nonreader_held = [], []
    kinds = {
        "garbage": lambda: [garbage(host, port, stop, st)],
        "oversized": lambda: [oversized(host, port, stop, st)],
        "flood": lambda: [flood(host, port, stop, st, args.flood)],
        "halfclose": lambda: [halfclose(host, port, stop, st, half)],
        "slowloris": lambda: [slowloris(host, port, stop, st, slow_held, get_big)
                              for _ in range(32)],
        "silent": lambda: [silent(host, port, stop, st) for _ in range(32)],
        "nonreader": lambda: [nonreader(host, port, stop, st, get_big, nonreader_held)
                              for _ in range(4)],
        "newlegit": lambda: [asyncio.get_running_loop().run_in_executor(
            None, newlegit, host, port, stop, st)],
    }
    chosen = args.only.split(",") if args.only else list(kinds)
    tasks = [t for kind in chosen for t in kinds[kind]()]
    await asyncio.gather(*tasks)
    st["slowloris_held_s_max"] = max(slow_held, default=0)
    st["slowloris_held_s"] = sorted(set(slow_held))[:10]
    st["nonreader_held_s_max"] = max(nonreader_held, default=0)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--seconds", type=float, default=60)
    p.add_argument("--flood", type=int, default=300, help="connections per flood wave")
    p.add_argument("--only", default="", help="comma-separated kinds to run (default: all; "
                   "for finding which kind costs what)")
    args = p.parse_args()
    st = Stats()
    asyncio.run(main_async(args, st))
    used = resource.getrusage(resource.RUSAGE_SELF)
    st["abuser_cpu_s"] = round(used.ru_utime + used.ru_stime, 2)
    print(json.dumps(st, sort_keys=True))


if __name__ == "__main__":
    main()
