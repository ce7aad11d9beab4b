#!/usr/bin/env python3
"""Holds 120: WebSocket (protocol.md "WebSocket: GET /ws"): hello as the first text frame; a text
frame is one request (raw newlines read as spaces; fragments joined, 1024 fragments ok, 1025 ->
close 1009); a 65536-byte message is served, 65537 -> 1009; binary -> 1003; unmasked, RSV bit,
reserved opcode, a stray continuation, a 1-byte close body or status 1005 -> 1002; non-UTF-8 text
or close reason -> 1007; ping -> pong; close 1000 echoed.
"""
import json, os, select, signal, socket, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from protocol_round import *  # noqa: E402,F401,F403 (Daemon, Conn, check, FAIL, BIN, FIX, SCR)


PORT = 17800 + os.getpid() % 100
import base64, struct

def conn():
    s = socket.create_connection(('127.0.0.1', PORT))
    s.settimeout(3)
    key = base64.b64encode(os.urandom(16))
    s.sendall(b'GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n' % (PORT, key))
    d = b''
    while b'\r\n\r\n' not in d:
        d += s.recv(4096)
    head, rest = d.split(b'\r\n\r\n', 1)
    assert b' 101 ' in head.split(b'\r\n')[0], head
    return s, [rest]

def frame(op, payload, fin=True, mask=True, rsv=0):
    b0=(0x80 if fin else 0)|rsv|op
    n=len(payload)
    if n<126: hdr=struct.pack('!BB',b0,(0x80 if mask else 0)|n)
    elif n<65536: hdr=struct.pack('!BBH',b0,(0x80 if mask else 0)|126,n)
    else: hdr=struct.pack('!BBQ',b0,(0x80 if mask else 0)|127,n)
    if mask:
        k=os.urandom(4); payload=bytes(c^k[i%4] for i,c in enumerate(payload)) if n<200000 else payload
        return hdr+k+payload
    return hdr+payload
def rd(s,buf):
    def need(n):
        while len(buf[0])<n:
            x=s.recv(65536)
            if not x: raise EOFError
            buf[0]+=x
    need(2); b0,b1=buf[0][0],buf[0][1]; n=b1&0x7f; off=2
    if n==126: need(4); n=struct.unpack('!H',buf[0][2:4])[0]; off=4
    elif n==127: need(10); n=struct.unpack('!Q',buf[0][2:10])[0]; off=10
    need(off+n); p=buf[0][off:off+n]; buf[0]=buf[0][off+n:]
    return b0&0xf, p
def frames(s,buf,k=5):
    out=[]
    try:
        for i in range(k):
            op,p=rd(s,buf)
            out.append((op, p[:2] and (struct.unpack('!H',p[:2])[0] if op==8 else p[:90])))
            if op==8: break
    except Exception as e: out.append(repr(e)[:40])
    return out

def main():
    d = Daemon('03-atmel-maxtouch-touchscreen-4finger-drag.evemu', loop=True, speed=1,
               extra=['--http', '127.0.0.1:%d' % PORT])
    try:
        tests={
         'text ping': [frame(1,b'{"id":1,"request":"ping"}')],
         'binary': [frame(2,b'{"id":1,"request":"ping"}')],
         'unmasked': [frame(1,b'{"id":1,"request":"ping"}',mask=False)],
         'rsv': [frame(1,b'{"id":1,"request":"ping"}',rsv=0x40)],
         'reserved op': [frame(3,b'x')],
         'ping frame': [frame(9,b'hi')],
         'close 1000': [frame(8,struct.pack('!H',1000))],
         'close 1-byte': [frame(8,b'\x03')],
         'close 1005': [frame(8,struct.pack('!H',1005))],
         'close bad utf8': [frame(8,struct.pack('!H',1000)+b'\xff')],
         'fragments': [frame(1,b'{"id":1,',fin=False), frame(0,b'"request":"ping"}')],
         'too long 65537': [frame(1,b'{"id":1,"request":"ping","p":"'+b'x'*(65537-32)+b'"}')],
         'exact 65536': [frame(1,b'{"id":1,"request":"ping","p":"'+b'x'*(65536-32)+b'"}')],
         '1025 fragments': [frame(1,b'{',fin=False)]+[frame(0,b' ',fin=False) for i in range(1023)]+[frame(0,b'"request":"ping"}')],
         '1024 fragments': [frame(1,b'{',fin=False)]+[frame(0,b' ',fin=False) for i in range(1022)]+[frame(0,b'"request":"ping"}')],
         'bad utf8 text': [frame(1,b'{"id":"\xff","request":"ping"}')],
         'newline in text': [frame(1,b'{"id":1,\n"request":"ping"}')],
         'two json in one frame': [frame(1,b'{"id":1,"request":"ping"}\n{"id":2,"request":"ping"}')],
         'continuation first': [frame(0,b'x')],
        }
        expect = {
            'text ping': (1, b'{"type":"reply","id":1'), 'binary': (8, 1003), 'unmasked': (8, 1002),
            'rsv': (8, 1002), 'reserved op': (8, 1002), 'ping frame': (10, b'hi'), 'close 1000': (8, 1000),
            'close 1-byte': (8, 1002), 'close 1005': (8, 1002), 'close bad utf8': (8, 1007),
            'fragments': (1, b'{"type":"reply","id":1'), 'too long 65537': (8, 1009),
            'exact 65536': (1, b'{"type":"reply","id":1'), '1025 fragments': (8, 1009),
            '1024 fragments': (1, b'{"type":"reply","id":null'), 'bad utf8 text': (8, 1007),
            'newline in text': (1, b'{"type":"reply","id":1'),
            'two json in one frame': (1, b'{"type":"error","id":null,"error":"invalidJSON"'),
            'continuation first': (8, 1002),
        }
        s, buf = conn()
        op, h = rd(s, buf)
        check(op == 1 and json.loads(h)['type'] == 'hello', 'hello is the first text frame')
        s.close()
        for name, fr in tests.items():
            s, buf = conn()
            rd(s, buf)
            s.sendall(b''.join(fr))
            got = frames(s, buf, 1)
            s.close()
            eop, ev = expect[name]
            ok = got and isinstance(got[0], tuple) and got[0][0] == eop and (
                got[0][1] == ev if isinstance(ev, int) else got[0][1].startswith(ev))
            check(ok, '%s -> %r' % (name, got[:1]))
    finally:
        d.stop()
    return 1 if FAIL else 0


if __name__ == '__main__':
    sys.exit(main())
