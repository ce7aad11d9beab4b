#!/usr/bin/env python3
"""watch (readable and --json) against `strokes daemon --replay`: events arrive, --no-moves drops moved,
and on the daemon's SIGTERM both print the goodbye and exit 0 ("Exits 0 when the daemon says goodbye");
a missing socket is exit 69."""
import os, subprocess, sys, tempfile, shutil, time, signal, json
S = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '../..', '.build/debug/strokes'))
FIX = os.environ.get('FIX', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'ReplayTests/Fixtures'))
E = os.path.join(FIX, '03-atmel-maxtouch-touchscreen-4finger-drag.evemu')
d = tempfile.mkdtemp(); sock = os.path.join(d, 's.sock'); bad = []
dm = subprocess.Popen([S, 'daemon', '--socket', sock, '--replay', E, '--loop', '--speed', '1'], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
ws = []
try:
    for _ in range(100):
        if os.path.exists(sock): break
        time.sleep(0.05)
    for opts in ([], ['--json'], ['--no-moves']):
        ws.append((opts, subprocess.Popen([S, 'watch', '--socket', sock] + opts, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)))
    time.sleep(2.0)
    dm.send_signal(signal.SIGTERM); dm.wait(timeout=10)
    for opts, w in ws:
        try: out, err = w.communicate(timeout=10)
        except subprocess.TimeoutExpired: w.kill(); bad.append(f'watch {opts} did not exit'); continue
        if w.returncode != 0: bad.append(f'watch {opts}: rc {w.returncode}')
        lines = out.splitlines()
        if opts == ['--json']:
            objs = [json.loads(l) for l in lines]
            if objs[-1] != {'type': 'goodbye', 'reason': 'shutdown'} or not any(o['type'] == 'began' for o in objs): bad.append('json stream')
        else:
            if not lines or 'goodbye' not in lines[-1] or not any(l.startswith('began') for l in lines): bad.append(f'readable {opts}: {lines[-1:]}')
            if opts == ['--no-moves'] and any(l.startswith('moved') for l in lines): bad.append('--no-moves printed moved')
    r = subprocess.run([S, 'watch', '--socket', os.path.join(d, 'none.sock')], capture_output=True, timeout=10)
    if r.returncode != 69: bad.append(f'missing socket rc {r.returncode}')
    if bad: print('BROKEN: ' + '; '.join(bad)); sys.exit(1)
    print('HELD: watch readable/--json/--no-moves get events, goodbye, exit 0; missing socket 69')
finally:
    if dm.poll() is None: dm.kill()
    for _, w in ws:
        if w.poll() is None: w.kill()
    shutil.rmtree(d)
