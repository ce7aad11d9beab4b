#!/usr/bin/env python3
"""Finding 109: whether the line terminator counts toward maxLineLength is not stated.

Kind: doc ambiguity (a client writer must guess).
Doc (protocol.md, "Transport and framing"): "A client line may be at most maxLineLength bytes
(from the greeting; 65536 by default). A longer one gets a lineTooLong error".
Binary: the terminator is not counted: 65536 bytes of JSON + "\r\n" (65538 bytes on the wire)
is accepted; 65537 bytes + "\n" gets lineTooLong. The doc does not say whether "\n" / "\r\n"
is part of the "line". A conservative client loses 1-2 bytes, a liberal one written against a
different reading (terminator counted) would be cut off with goodbye lineTooLong.
Severity: low. Fix: say "at most maxLineLength bytes, not counting the \n (or \r\n)".
Exit 1 while the doc leaves it open and the binary excludes the terminator (65536+\r\n accepted).

Now documented: the `\n` (or `\r\n`) is not counted.
"""
import json, os, select, signal, socket, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from protocol_round import *  # noqa: E402,F401,F403 (Daemon, Conn, check, FAIL, BIN, FIX, SCR)


def pad(n, term):
    base = b'{"id":1,"request":"ping","p":"'
    tail = b'"}'
    return base + b'x' * (n - len(base) - len(tail)) + tail + term

def main():
    d = Daemon('03-atmel-maxtouch-touchscreen-4finger-drag.evemu', loop=True, speed=1)
    try:
        res = {}
        for n, term in [(65536, b'\r\n'), (65537, b'\n')]:
            c = Conn(d.sock)
            c.send(pad(n, term))
            m = c.read(5)
            res[(n, term)] = m
            print(n, repr(term), '->', m)
            c.close()
        accepted_with_crlf = res[(65536, b'\r\n')].get('type') == 'reply'
        doc_text = ' '.join(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'docs', 'protocol.md')).read().split())  # words, as the lines wrap
        documented = ('not counting' in doc_text or 'terminator' in doc_text
                      or 'newline included' in doc_text.split('## Session')[0])
        print('doc states whether the terminator counts:', documented)
        check(documented or not accepted_with_crlf,
              'doc says whether the terminator counts toward maxLineLength')
    finally:
        d.stop()
    return 1 if FAIL else 0


if __name__ == '__main__':
    sys.exit(main())
