#!/usr/bin/env python3
"""A subscriber whose reader process is SIGSTOP'd is cut (slowClient) about queue.disconnectAfterSeconds
(2 s) later, and the daemon's queuedBytes go back to 0; the goodbye reaches it after SIGCONT."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from slow_round import *  # noqa: F401,F403 (start, C, stats, rss, http_conn, ws_frame, BIN, FIX)

p, sock, port = start(queue={"disconnectAfterSeconds": 2})
child = subprocess.Popen([sys.executable, "-c", """
import socket,sys
s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(b'{"id":1,"request":"subscribe"}\\n')
seen=False; tail=b''
while True:
    d=s.recv(65536)
    if not d: break
    tail=(tail+d)[-200:]
    if b'"slowClient"' in tail: seen=True
print('GOODBYE' if seen else 'NOGOODBYE', flush=True)
""", sock], stdout=subprocess.PIPE, text=True)
PROCS.append(child)
time.sleep(2)
os.kill(child.pid, signal.SIGSTOP); t=time.time(); cut=None
while time.time()-t<15:
    st=stats(sock)["daemon"]
    if st["slowClientsDisconnected"]: cut=time.time()-t; break
    time.sleep(0.1)
os.kill(child.pid, signal.SIGCONT)
try: outp=child.communicate(timeout=10)[0].strip()
except Exception: outp="?"
st=stats(sock)["daemon"]
print("cut after", cut, "child:", outp, st)
if cut is None or cut>6 or st["queuedBytes"]>4096:
    print("BROKEN: SIGSTOPped reader not cut within 6 s of a 2 s stall time"); sys.exit(1)
print("HELD: SIGSTOPped reader cut after %.1f s (stall 2 s), queuedBytes %d, child saw %s" % (cut, st["queuedBytes"], outp))
