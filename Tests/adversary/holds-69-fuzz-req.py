#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (protocol.md Session 2, Errors): every request line gets exactly one reply or error carrying
# its id (null when unreadable); the connection stays open; every line the daemon sends is UTF-8 JSON
# with a "type"; the daemon keeps serving. Random mutation fuzzer.
import random
DUR = float(os.environ.get('FUZZ_SECONDS', '60'))
seed = int(os.environ.get('FUZZ_SEED', '1'))
rng = random.Random(seed)
d = Daemon(replay=REC03, loop=False)
SEEDS = [
 {'id': 1, 'request': 'ping'}, {'id': 'a', 'request': 'stats'}, {'id': 2, 'request': 'devices'},
 {'id': 3, 'request': 'live', 'devices': [1]}, {'id': 4, 'request': 'history', 'limit': 5},
 {'id': 5, 'request': 'history', 'cursor': '0-1'}, {'id': 6, 'request': 'subscribe', 'devices': [1], 'events': ['began', 'ended']},
 {'id': 7, 'request': 'subscribe', 'resumeAfter': 3}, {'id': 8, 'request': 'unsubscribe'},
]
ATOMS = [None, True, False, 0, -1, 1, 2**31, 2**63 - 1, 2**63, 2**64, -2**63 - 1, 1.5, 1e308, -0.0, '', 'x', 'é' * 300,
         '\u0000', '\ud7ff', [], {}, [1] * 300, ['began'] * 20, 'began', 'ping', '0-0', '-1--1', '99999999999999999999-1']
KEYS = ['id', 'request', 'devices', 'events', 'resumeAfter', 'limit', 'cursor', 'zzz', '']
def mutate_obj():
    o = dict(rng.choice(SEEDS))
    for _ in range(rng.randint(0, 3)):
        k = rng.choice(KEYS)
        r = rng.random()
        if r < 0.3: o.pop(k, None)
        else: o[k] = rng.choice(ATOMS)
    return json.dumps(o, ensure_ascii=rng.random() < 0.5).encode()
def mutate_bytes(b):
    b = bytearray(b)
    for _ in range(rng.randint(1, 6)):
        op = rng.random(); i = rng.randrange(len(b) + 1)
        if op < 0.3 and b: del b[min(i, len(b) - 1)]
        elif op < 0.6: b[i:i] = bytes([rng.randrange(256)])
        elif op < 0.8: b[i:i] = rng.choice([b'{', b'[', b'"', b'\\', b'\\u', b'\\ud800', b'}', b']', b',', b':', b'1e9', b'-', b'\xc3', b'\xf0\x9f', b'null'])
        elif b: b[min(i, len(b) - 1)] = rng.randrange(256)
    return bytes(b).replace(b'\n', b' ').replace(b'\r', b' ')
def gen():
    r = rng.random()
    if r < 0.45: x = mutate_obj()
    elif r < 0.9: x = mutate_bytes(mutate_obj())
    elif r < 0.95: x = rng.choice([b'[', b'{"a":', b'{"request":"ping","x":[']) * rng.choice([n for n in range(1, 3000) if not 505 <= n <= 520])  # 513 '[' is finding 01
    else: x = bytes(rng.randrange(1, 256) for _ in range(rng.randint(1, 200))).replace(b'\n', b' ').replace(b'\r', b' ')
    if not x.strip(): x = b'x'
    x = x[:65000]
    if x.count(b'[') in (512, 513) and x.strip(b'[') in (b'', b'{"request":"ping","x":'): x += b' '  # finding 01
    return x
t0 = time.time(); total = 0; conns = 0; codes = {}
while time.time() - t0 < DUR:
    c = Client(d.sock); conns += 1
    for batch in range(20):
        lines = [gen() for _ in range(rng.randint(1, 40))]
        c.sendraw(b''.join(l + b'\n' for l in lines))
        answers = []
        while len(answers) < len(lines):
            raw = c.recv_raw_line(20)
            if raw is None:
                open('/tmp/adv/fuzz_last.txt', 'wb').write(b'\n'.join(lines))
                broken('no answer for %d of %d pipelined lines (daemon alive: %s); lines in /tmp/adv/fuzz_last.txt' % (len(lines) - len(answers), len(lines), d.alive()))
            try:
                m = json.loads(raw.decode('utf-8'))
            except Exception as e:
                broken('daemon sent a line that is not UTF-8 JSON: %r (%s)' % (raw[:200], e))
            if not isinstance(m, dict) or 'type' not in m: broken('line without type: %r' % raw[:200])
            t = m['type']
            if t in ('reply', 'error'):
                answers.append(m)
                if t == 'error': codes[m['error']] = codes.get(m['error'], 0) + 1
                else: codes['reply:' + m.get('request', '?')] = codes.get('reply:' + m.get('request', '?'), 0) + 1
            elif t == 'goodbye':
                broken('goodbye %r after lines %r' % (m, [l[:100] for l in lines]))
        for l, a in zip(lines, answers):
            # when the line parsed with an id the answer must carry that id
            if b'\\ud' in l.lower():
                continue  # lone surrogate escapes: the daemon reads them as invalid JSON
            try:
                o = json.loads(l.decode('utf-8'))
            except Exception:
                continue
            if isinstance(o, dict) and isinstance(o.get('id'), int) and not isinstance(o.get('id'), bool) and -2**63 <= o['id'] < 2**63 and 'id' in a and a['id'] != o['id'] and a.get('error') != 'badArgument':
                broken('answer id %r for request id %r: line %r -> %r' % (a.get('id'), o['id'], l[:200], a))
            if a['type'] == 'error' and len(a.get('message', '')) > 300:
                broken('error message of %d chars for line %r' % (len(a['message']), l[:100]))
        total += len(lines)
    c.close()
    if not d.alive(): broken('daemon died: ' + d.stderr()[-1000:])
print('lines', total, 'connections', conns, codes)
if not d.alive(): broken('daemon died')
d.stop()
held('%d fuzzed request lines each got exactly one answer; daemon alive' % total)
