#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (README Install as a service; config/strokes.yaml): SIGHUP re-reads the config: an invalid file
# changes nothing (error logged), daemon keeps serving; queue limits / maxLineLength apply at once.
d = Daemon(config='maxLineLength: 65536\n', replay=REC03)
open(d.cfg, 'w').write('maxLineLength: [oops\n')
d.p.send_signal(signal.SIGHUP); time.sleep(1)
if not d.alive(): broken('daemon died on SIGHUP with an invalid config: ' + d.stderr()[-500:])
c = Client(d.sock)
if c.hello.get('maxLineLength') != 65536: broken('invalid reload changed maxLineLength: %r' % c.hello)
open(d.cfg, 'w').write('maxLineLength: 1000\n')
d.p.send_signal(signal.SIGHUP); time.sleep(1)
c2 = Client(d.sock)
print('hello after valid reload', c2.hello.get('maxLineLength'))
if c2.hello.get('maxLineLength') != 1000: broken('valid reload of maxLineLength not applied: %r' % c2.hello.get('maxLineLength'))
c2.send(b'{"id":1,"request":"ping","x":"' + b'a' * 1200 + b'"}')
out = c2.drain_all(3)
print([m.get('type') + ':' + str(m.get('error', m.get('reason'))) for m in out])
if not out or out[0].get('error') != 'lineTooLong': broken('after reload to 1000, a 1230-byte line got %r' % out[:2])
for i in range(30):
    d.p.send_signal(signal.SIGHUP)
time.sleep(1)
if not d.alive(): broken('daemon died after 30 SIGHUPs')
print(d.stderr()[-800:])
d.stop()
held('SIGHUP reload semantics')
