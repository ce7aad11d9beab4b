#!/usr/bin/env python3
"""Finding 107: pipelined requests pile up past queue.disconnectAfter and cut the client.

Kind: binary breaks a documented promise.
Doc (protocol.md, "Limits"): "a request is read only while what is held for the client is under a
quarter of queue.disconnectAfterBytes: many requests sent at once are answered as fast as the
client reads the replies, never piled up past its limits. An ordinary client never notices (a
snapshot, a few live or history pages, thousands of pings at once)."
Binary: the read gate is in bytes only (1 MiB = ~10 000 small ping replies at 42+64 bytes each),
but the per-client message cap queue.disconnectAfter (8192) is hit first. A client that sends
12 000 pings at once and starts reading one second later gets ~1 784 replies (what the kernel
buffer held) and then {"type":"goodbye","reason":"slowClient"}; 9 000 pings are fine.
Severity: medium (a documented-as-safe pipelining pattern disconnects the client and loses every
later reply; also affects any small request such as ping-based keepalive batches).
Exit 1 when the client is disconnected, 0 when all 12 000 replies arrive in order.

Now: a request is read only while the client holds fewer than `queue.mergeAfter` messages as well as under a quarter of its byte limit (ClientHandler): 12 000 pipelined pings are all answered.
"""
import json, os, select, signal, socket, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from protocol_round import *  # noqa: E402,F401,F403 (Daemon, Conn, check, FAIL, BIN, FIX, SCR)


def main():
    d = Daemon('03-atmel-maxtouch-touchscreen-4finger-drag.evemu', loop=True, speed=1)
    try:
        c = Conn(d.sock)
        n = 12000
        data = b''.join(b'{"id":%d,"request":"ping"}\n' % i for i in range(n))
        th = threading.Thread(target=lambda: c.s.sendall(data), daemon=True)
        th.start()
        time.sleep(1.0)
        got = 0
        last = None
        for i in range(n):
            m = c.read(10)
            last = m
            if m is None or m.get('type') != 'reply' or m.get('id') != i:
                break
            got += 1
        print('replies in order: %d of %d; stopped at %r' % (got, n, last))
        check(got == n, 'every pipelined ping answered, in order, no slowClient goodbye')
        c.close()
    finally:
        d.stop()
    return 1 if FAIL else 0


if __name__ == '__main__':
    sys.exit(main())
