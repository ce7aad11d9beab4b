#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from security_round import *  # noqa: F401,F403

# 185: `strokes gestures` runs the commands of a gestures.yaml that another user owns and anyone
# may write (0666) without a word: whoever can write it runs commands as the session user.
# docs/security.md: the runner "runs as the user, in the user's session, with the user's rights and
# nothing more, reads the user's own ~/.config/strokes/gestures.yaml"; a file other users can write
# is not the user's own (sshd's StrictModes, sudoers, and cron refuse such files).
try:
    g = mkgroup("advtestg185"); u = mkuser("advtest185", "advtestg185"); v = mkuser("advtest185v", "advtestg185")
    os.chmod(TMP, 0o755)
    home = os.path.join(TMP, "home"); cfgd = os.path.join(home, ".config", "strokes"); os.makedirs(cfgd)
    for dpath in [home, os.path.join(home, ".config"), cfgd]: os.chown(dpath, u, g)
    gy = os.path.join(cfgd, "gestures.yaml")
    open(gy, "w").write("rules:\n  - kind: tap\n    run: [touch, %s/pwned]\n" % TMP)
    os.chown(gy, v, g); os.chmod(gy, 0o666)        # written by another user, writable by all
    def check():
        r = subprocess.run([BIN, "gestures", "--check"], env={"HOME": home, "PATH": "/usr/bin:/bin"}, capture_output=True, text=True, timeout=20)
        return {"rc": r.returncode, "out": r.stdout + r.stderr}
    r = as_user(u, g, [g], check)
    out = r.get("out", "")
    warned = any(w in out.lower() for w in ["writable", "owned by", "insecure", "unsafe", "permission"])
    if r.get("rc") == 0 and not warned:
        finish(True, "`strokes gestures --check` as uid %d accepts %s (owner uid %d, mode 0666) without a warning: %r" % (u, gy, v, out.strip()[:120]))
    finish(False, "a gestures.yaml others can write is refused or warned about (rc %r): %s" % (r.get("rc"), out.strip()[-160:]))
except SystemExit: raise
except Exception as e:
    finish(True, "unexpected error: %r" % e)
