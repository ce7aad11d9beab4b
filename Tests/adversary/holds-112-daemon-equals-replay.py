#!/usr/bin/env python3
"""holds-112 - the daemon serving an unseen recording sends exactly what `strokes replay` prints.

Recordings: evemu-devices/e15-ep0430m09-4finger.evemu (EP0430M09 touchscreen, 4 fingers),
evemu-devices/e12-alps-dualpoint.evemu (semi-MT ALPS), evemu-devices/e19-cintiq22hdt-pen.evemu (pen, 81 s, 5647
frames), evemu-devices/e07-uclogic-wp5540u-pen.evemu (single touch)
. Sources: evemu-devices/SOURCES.md.

Method: `strokes daemon --replay FILE --no-loop --speed 0 --socket TMP`, a stdlib subscriber
that subscribes with resumeAfter 0 (docs/protocol.md: the daemon holds the last 4096 messages),
reads until 3 s of silence; the stream messages (seq removed, `shutdown` cancellations dropped)
must equal replay's began/moved/ended/cancelled lines. The daemon is stopped with SIGTERM
(killed if it does not stop) in every case.
Result: equal for all. Exit 0 while it holds.
"""
import json, os, re, shutil, signal, socket, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from recordings_round import *  # noqa: E402,F401,F403 (BIN, run, replay, evemu_frames, evemu_axes, lifecycles)
os.chdir(HERE)


RECS = ['evemu-devices/e15-ep0430m09-4finger.evemu', 'evemu-devices/e12-alps-dualpoint.evemu',
        'evemu-devices/e19-cintiq22hdt-pen.evemu', 'evemu-devices/e07-uclogic-wp5540u-pen.evemu']
KINDS = ('began', 'moved', 'ended', 'cancelled')


def served(rec, tmp):
    sock = os.path.join(tmp, 's.sock')
    d = subprocess.Popen([strokes_bin(), 'daemon', '--replay', rec, '--socket', sock, '--no-loop',
                          '--speed', '0', '--log-level', 'error'],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    got = []
    try:
        s = socket.socket(socket.AF_UNIX)
        for _ in range(500):
            try:
                s.connect(sock)
                break
            except OSError:
                time.sleep(0.01)
        s.settimeout(5)
        fh = s.makefile('rb')
        json.loads(fh.readline())
        s.sendall(b'{"id":1,"request":"subscribe","resumeAfter":0}\n')
        s.settimeout(3)
        try:
            while True:
                line = fh.readline()
                if not line:
                    break
                m = json.loads(line)
                if m.get('type') in KINDS:
                    m.pop('seq', None)
                    got.append(m)
        except socket.timeout:
            pass
        s.close()
    finally:
        d.send_signal(signal.SIGTERM)
        try:
            d.wait(5)
        except subprocess.TimeoutExpired:
            d.kill()
            d.wait()
    return [g for g in got if not (g['type'] == 'cancelled' and g.get('reason') == 'shutdown')]


def main():
    broken = False
    with tempfile.TemporaryDirectory() as tmp:
        for rec in RECS:
            p, events = replay(rec)
            want = [e for e in events if e.get('type') in KINDS]
            got = served(rec, tmp)
            ok = got == want
            print('%s: replay %d stroke events, daemon %d -> %s' % (rec, len(want), len(got), 'equal' if ok else 'DIFFERENT'))
            broken |= not ok
    return 1 if broken else 0


if __name__ == '__main__':
    sys.exit(main())
