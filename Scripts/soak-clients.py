#!/usr/bin/env python3
"""Churning clients for Scripts/soak.sh: connect, subscribe, read some, vanish; some never read.

Usage: soak-clients.py SOCKET SECONDS [WORKERS]
Each worker loops over client kinds picked at random:
  good   reads everything for 1-5 s
  slow   reads one line every 50 ms for 2-10 s
  never  subscribes and reads nothing for 5-40 s (the daemon disconnects it after 15 s)
  flash  connects and closes at once (sometimes after sending half a line)
  pager  pages through history
"""
import json, random, socket, sys, threading, time

path, seconds = sys.argv[1], float(sys.argv[2])
workers = int(sys.argv[3]) if len(sys.argv) > 3 else 24
end = time.monotonic() + seconds


def connect():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(5)
    s.connect(path)
    return s


def send(s, obj):
    s.sendall((json.dumps(obj) + "\n").encode())


def read_for(s, duration, pause=0.0):
    stop = time.monotonic() + duration
    f = s.makefile("rb")
    while time.monotonic() < stop:
        if not f.readline():
            return
        if pause:
            time.sleep(pause)


def one(kind):
    s = connect()
    try:
        if kind == "flash":
            if random.random() < 0.5:
                s.sendall(b'{"id":1,"requ')
            return
        if kind == "pager":
            f = s.makefile("rb")
            f.readline()
            send(s, {"id": 1, "request": "history"})
            while True:
                reply = json.loads(f.readline())
                if "cursor" not in reply:
                    break
                send(s, {"id": 1, "request": "history", "cursor": reply["cursor"]})
            return
        send(s, {"id": 1, "request": "subscribe"})
        if kind == "good":
            read_for(s, random.uniform(1, 5))
        elif kind == "slow":
            read_for(s, random.uniform(2, 10), pause=0.05)
        else:  # never
            time.sleep(random.uniform(5, 40))
    finally:
        s.close()


def worker():
    while time.monotonic() < end:
        kind = random.choice(["good", "slow", "never", "never", "flash", "pager"])
        try:
            one(kind)
        except (OSError, ValueError):
            time.sleep(0.1)


threads = [threading.Thread(target=worker, daemon=True) for _ in range(workers)]
for t in threads:
    t.start()
for t in threads:
    t.join()
