#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (protocol.md "WebSocket"): malformed frames get close 1002/1009 or an error; the daemon keeps
# serving (HTTP side of the "every cost a local client can impose bounded" promise). Random frame fuzzer.
import random
DUR = float(os.environ.get('FUZZ_SECONDS', '60')); rng = random.Random(int(os.environ.get('FUZZ_SEED', '7')))
PORT = 17290 + os.getpid() % 100
d = Daemon(replay=REC03, loop=True, http='127.0.0.1:%d' % PORT)
time.sleep(0.5)
t0 = time.time(); n = 0
while time.time() - t0 < DUR:
    try:
        w = WS(PORT)
        if w.status != 101: broken('handshake status %d' % w.status)
        w.recv_json()
    except Exception as e:
        if not d.alive(): broken('daemon died (exit %s)' % d.p.returncode)
        continue
    w.s.settimeout(0.3)
    for k in range(rng.randint(1, 8)):
        op = rng.choice([0, 1, 1, 1, 2, 3, 8, 9, 10, 11, 15])
        payload = rng.choice([b'{"id":1,"request":"ping"}', b'[' * rng.randint(0, 600), os.urandom(rng.randint(0, 300)), b'x' * rng.choice([0, 125, 126, 65535, 65536, 65537]), b'\xff\xfe'])
        fin = rng.random() < 0.8; mask = rng.random() < 0.9; rsv = rng.choice([0, 0, 0, 1, 2, 4, 7])
        fr = w.frame(op, payload, fin=fin, mask=mask, rsv=rsv)
        if rng.random() < 0.1: fr = fr[:rng.randint(0, len(fr))]
        if fr and rng.random() < 0.05: fr = bytes([fr[0], 127]) + struct.pack('>Q', rng.choice([2**63 - 1, 2**64 - 1, 2**40])) + b'abcd'
        try: w.s.sendall(fr); n += 1
        except OSError: break
    try:
        while True:
            w.recv()
    except Exception:
        pass
    w.s.close()
    if not d.alive(): broken('daemon died after WebSocket frames (exit %s)' % d.p.returncode)
st = stats(d.sock)
if not d.alive(): broken('daemon died')
d.stop()
held('%d random WebSocket frames; daemon alive, clients %s' % (n, st['daemon']['clients']))
