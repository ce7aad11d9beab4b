#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from security_round import *  # noqa: F401,F403

# holds-186: the gestures runner: the command runs as the runner's (unprivileged) user, with the
# argument vector as written (a device name with $(...) and backticks is never run through a shell),
# stdin /dev/null, no descriptor of the client's beyond 0-2, no signal blocked, and inherited
# STROKES_GESTURE_* removed; the daemon itself (root here) starts no process.
try:
    g = mkgroup("advtestg186"); u = mkuser("advtest186", "advtestg186")
    os.chmod(TMP, 0o755)
    src = open(F01, "rb").read()
    evil = src.replace(b"N: Wacom DTH2242 Finger", b"N: Wacom$(touch PWNED1)`touch PWNED2`;touch PWNED3", 1)
    ef = os.path.join(TMP, "evil.evemu"); open(ef, "wb").write(evil)
    sock = os.path.join(TMP, "s.sock")
    p = start_daemon(sock, 'socket:\n  group: advtestg186\n', extra=["--speed", "4"], replay=ef)
    work = os.path.join(TMP, "w"); os.mkdir(work); os.chown(work, u, g)
    probe = ("import os,sys,json\n"
             "fds=[f for f in range(3,1024) if (lambda f: (os.fstat(f), True))(f) if True] if False else []\n"
             "for f in range(3,1024):\n"
             "    try: os.fstat(f); fds.append(f)\n"
             "    except OSError: pass\n"
             "st=open('/proc/self/status').read()\n"
             "blk=[l.split()[1] for l in st.splitlines() if l.startswith('SigBlk')][0]\n"
             "r={'uid':os.getuid(),'argv':sys.argv[1:],'fds':fds,'stdin':os.readlink('/proc/self/fd/0'),'blk':blk,"
             "'env':{k:v for k,v in os.environ.items() if k.startswith('STROKES_GESTURE')}}\n"
             "open(os.path.join(%r,'out.%%d'%%os.getpid()),'w').write(json.dumps(r))\n" % work)
    gy = os.path.join(work, "g.yaml")
    open(gy, "w").write("rules:\n" + "".join("  - kind: %s\n    phase: %s\n    run: [/usr/bin/python3, -I, -S, -c, %s, '$STROKES_GESTURE_KIND', '$(id)']\n" % (k, ph, json.dumps(probe))
                                             for k, ph in [("tap", "end"), ("hold", "begin"), ("swipe", "begin"), ("swipe", "end")]))
    os.chown(gy, u, g)
    def runner():
        env = {"PATH": "/usr/bin:/bin", "HOME": work, "STROKES_GESTURE_KIND": "stale", "STROKES_GESTURE_FOO": "stale2"}
        gp = subprocess.Popen([BIN, "gestures", "--socket", sock, "--config", gy], env=env, cwd=work,
                              stdout=open(os.path.join(work, "g.log"), "wb"), stderr=subprocess.STDOUT)
        deadline = time.time() + 30
        while time.time() < deadline and not [f for f in os.listdir(work) if f.startswith("out.")]: time.sleep(0.1)
        time.sleep(0.5); gp.kill(); gp.wait()
        return [json.load(open(os.path.join(work, f))) for f in os.listdir(work) if f.startswith("out.")]
    res = as_user(u, g, [g], runner)
    if not res or isinstance(res, dict): finish(True, "no gesture command ran: %r %s" % (res, open(os.path.join(work, "g.log"), errors="replace").read()[-300:]))
    bad = []
    for r in res:
        if r["uid"] != u: bad.append("command ran as uid %r" % r["uid"])
        if r["argv"] != ["$STROKES_GESTURE_KIND", "$(id)"]: bad.append("argv altered: %r" % r["argv"])
        if r["fds"]: bad.append("inherited descriptors %r" % r["fds"])
        if r["stdin"] != "/dev/null": bad.append("stdin %s" % r["stdin"])
        if int(r["blk"], 16): bad.append("signals blocked %s" % r["blk"])
        if r["env"].get("STROKES_GESTURE_KIND") == "stale" or "STROKES_GESTURE_FOO" in r["env"]: bad.append("stale STROKES_GESTURE_* kept")
        if "$(touch PWNED1)" not in r["env"].get("STROKES_GESTURE_DEVICE_NAME", ""): bad.append("device name env %r" % r["env"].get("STROKES_GESTURE_DEVICE_NAME"))
    for root in [work, TMP, "/"]:
        for n in ["PWNED1", "PWNED2", "PWNED3"]:
            if os.path.exists(os.path.join(root, n)): bad.append("%s created in %s" % (n, root))
    if bad: finish(True, "; ".join(sorted(set(bad))))
    finish(False, "%d gesture commands ran as uid %d with the argv verbatim, stdin /dev/null, no extra fds, no blocked signals, no stale vars, no shell" % (len(res), u))
except SystemExit: raise
except Exception as e:
    finish(True, "unexpected error: %r" % e)
