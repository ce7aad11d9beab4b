#!/usr/bin/env python3
"""Finding 110: the range and form of an integer `id` are undocumented; valid JSON integers are
refused and numeric ids are echoed normalised.

Kind: doc incomplete (a client writer must guess), with a binary/doc mismatch.
Doc (protocol.md, "Requests"): "`id` (integer or string, optional) is echoed in the reply (`null`
when absent)". Errors: "`id` is the request's, or `null` when it could not be read".
Binary: ids are signed 64-bit: {"id":9223372036854775808,...} (a JSON integer) gets
badArgument "'id' must be an integer or a string" with "id":null, so the client cannot match
the error to its request; 1e2 and 1.0 are accepted and echoed as 100 and 1 (not as sent), while
1.5 is refused. None of this is in the document (no range, no statement that the echo is
normalised).
Severity: low. Fix: document "integer in -2^63 .. 2^63-1 (JSON numbers with an integral value
are accepted and echoed as integers)".
Exit 1 when a JSON integer id outside the (undocumented) int64 range is refused.

Now documented (protocol.md, "Requests"): ids are integers from -2^63 to 2^63-1 or strings; integral numbers are echoed as integers; others get badArgument with "id":null. This script checks that behaviour.
"""
import json, os, select, signal, socket, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from protocol_round import *  # noqa: E402,F401,F403 (Daemon, Conn, check, FAIL, BIN, FIX, SCR)


def main():
    d = Daemon('03-atmel-maxtouch-touchscreen-4finger-drag.evemu', loop=True, speed=1)
    try:
        c = Conn(d.sock)
        out = {}
        for raw in [b'9223372036854775807', b'9223372036854775808', b'1e2', b'1.0']:
            c.send(b'{"id":' + raw + b',"request":"ping"}\n')
            m = c.read(5)
            out[raw] = m
            print(raw.decode(), '->', m)
        # Documented since: ids are integers in the signed 64-bit range; an integral number is
        # echoed as an integer; one out of range gets badArgument with "id":null.
        big = out[b'9223372036854775808']
        check(big.get('type') == 'error' and big.get('error') == 'badArgument' and big.get('id') is None,
              'an id of 2^63 (out of range) gets badArgument with id null')
        check(out[b'9223372036854775807'].get('id') == 9223372036854775807, '2^63-1 is echoed')
        check(out[b'1e2'].get('id') == 100 and out[b'1.0'].get('id') == 1, '1e2 and 1.0 are echoed as 100 and 1')
        c.close()
    finally:
        d.stop()
    return 1 if FAIL else 0


if __name__ == '__main__':
    sys.exit(main())
