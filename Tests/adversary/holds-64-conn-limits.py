#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (protocol.md Errors / security.md): past maxClientsPerUid (32, root included) or maxClients
# a connection gets tooManyClients *instead of hello*, then is disconnected; others keep being served;
# slots freed by closed clients are reusable; no descriptor leak after connect floods.
d = Daemon(replay=REC03, loop=True)
held_clients = []
for i in range(32):
    held_clients.append(Client(d.sock))
c = Client(d.sock, hello=False)
m = c.recv(5)
if m is None or m.get('type') != 'error' or m.get('error') != 'tooManyClients':
    broken('33rd connection of one uid got %r instead of error tooManyClients' % (m,))
if not c.closed(5): broken('33rd connection not closed after tooManyClients')
# existing clients still served
r = held_clients[0].request({'id': 'p', 'request': 'ping'})
if not r or r.get('type') != 'reply': broken('existing client not served after refusal: %r' % r)
for x in held_clients[:5]: x.close()
time.sleep(0.5)
try:
    c2 = Client(d.sock)
except Exception as e:
    broken('slot not freed after 5 clients closed: %s' % e)
c2.close()
for x in held_clients[5:]: x.close()
time.sleep(0.5)
fd0 = d.nfds()
# flood: connect/close immediately, half-open, close after hello
for i in range(600):
    s = socket.socket(socket.AF_UNIX); s.connect(d.sock)
    if i % 3 == 1: s.shutdown(socket.SHUT_WR)
    if i % 3 == 2: s.send(b'{"request":"sub')
    s.close()
time.sleep(2)
st = stats(d.sock)
fd1 = d.nfds()
print('fds before %d after %d; stats clients %s refused %s' % (fd0, fd1, st['daemon']['clients'], st['daemon']['clientsRefused']))
if fd1 > fd0 + 3: broken('descriptor leak: %d fds before, %d after 600 connect/close cycles' % (fd0, fd1))
if st['daemon']['clients'] > 2: broken('stats still counts %d clients after flood' % st['daemon']['clients'])
# maxClients total
d.stop()
d = Daemon(config='maxClients: 5\nmaxClientsPerUid: 100\n', replay=REC03)
cs = [Client(d.sock) for i in range(5)]
c = Client(d.sock, hello=False)
m = c.recv(5)
if m is None or m.get('error') != 'tooManyClients': broken('6th connection with maxClients 5 got %r' % (m,))
d.stop()
held('per-uid and total limits, refusal before hello, slot reuse, no fd leak')
