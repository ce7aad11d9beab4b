"""The pen round's shared lines (the sixth session's round 22: pens, tablets, hover): crafted evemu
recordings built frame by frame (`Rec`, `K`, `A`, `S`), `replay`, and `verdict`. Each script does
`from pen_round import *`."""
import os, sys, json, subprocess, tempfile
BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../.build/debug/strokes"))
FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../ReplayTests/Fixtures")
BTN_TOOL_PEN=0x140; BTN_TOOL_RUBBER=0x141; BTN_TOOL_FINGER=0x145; BTN_TOUCH=0x14a; BTN_STYLUS=0x14b; BTN_STYLUS2=0x14c
ABS_X=0; ABS_Y=1; ABS_PRESSURE=0x18; ABS_DISTANCE=0x19; ABS_TILT_X=0x1a; ABS_TILT_Y=0x1b; ABS_MISC=0x28
ABS_MT_SLOT=0x2f; ABS_MT_POSITION_X=0x35; ABS_MT_POSITION_Y=0x36; ABS_MT_TOOL_TYPE=0x37; ABS_MT_TRACKING_ID=0x39; ABS_MT_DISTANCE=0x3b
EV_SYN=0; EV_KEY=1; EV_ABS=3; EV_MSC=4
PEN_ABS = {ABS_X:(400,59152,4,0,200), ABS_Y:(400,33448,4,0,200), ABS_PRESSURE:(0,2047,0,0,0),
  ABS_DISTANCE:(0,63,1,0,0), ABS_TILT_X:(-64,63,1,0,57), ABS_TILT_Y:(-64,63,1,0,57), ABS_MISC:(0,0,0,0,0)}
PEN_KEYS = [BTN_TOOL_PEN,BTN_TOOL_RUBBER,BTN_TOUCH,BTN_STYLUS,BTN_STYLUS2]
TS_ABS = {ABS_X:(0,4095,0,0,10), ABS_Y:(0,4095,0,0,10), ABS_MT_SLOT:(0,9,0,0,0), ABS_MT_POSITION_X:(0,4095,0,0,10),
  ABS_MT_POSITION_Y:(0,4095,0,0,10), ABS_MT_TRACKING_ID:(0,65535,0,0,0)}

def _bits(nbits, setbits):
    b = bytearray((nbits+7)//8)
    for s in setbits: b[s//8] |= 1 << (s%8)
    return b

def evemu_header(name, keys, absd, msc, props=(1,)):
    ev = [EV_SYN] + ([EV_KEY] if keys else []) + [EV_ABS] + ([EV_MSC] if msc else [])
    L = ["# EVEMU 1.3", "N: %s" % name, "I: 0003 056a 0333 0110",
         "P: " + " ".join("%02x" % x for x in _bits(64, props))]
    def blines(t, nbits, s):
        b = _bits(nbits, s)
        for i in range(0, len(b), 8):
            chunk = b[i:i+8]; chunk = chunk + bytearray(8-len(chunk))
            L.append("B: %02x " % t + " ".join("%02x" % x for x in chunk))
    blines(0, 32, ev); blines(1, 0x300, keys); blines(2, 16, []); blines(3, 64, list(absd)); blines(4, 8, [0] if msc else [])
    for c in sorted(absd):
        L.append("A: %02x %d %d %d %d %d" % ((c,) + tuple(absd[c])))
    return "\n".join(L) + "\n"

class Rec:
    """An evemu recording built frame by frame (times in seconds)."""
    def __init__(self, name="Test Pen", keys=PEN_KEYS, absd=PEN_ABS, msc=True, props=(1,)):
        self.h = evemu_header(name, keys, absd, msc, props); self.ev = []; self.t = 0.0
    def frame(self, *events, dt=0.005):
        self.t += dt
        for (t, c, v) in events:
            self.ev.append("E: %.6f %04x %04x %d" % (self.t, t, c, v))
        self.ev.append("E: %.6f 0000 0000 0" % self.t)
    def raw(self, t, c, v):
        self.ev.append("E: %.6f %04x %04x %d" % (self.t, t, c, v))
    def text(self): return self.h + "\n".join(self.ev) + "\n"

def K(c, v): return (EV_KEY, c, v)
def A(c, v): return (EV_ABS, c, v)
def S(v): return (EV_MSC, 0, v)

def replay(texts, *args):
    d = tempfile.mkdtemp(prefix="strokes-adv-"); paths = []
    for i, t in enumerate(texts):
        p = os.path.join(d, "r%d.evemu" % i); open(p, "w").write(t); paths.append(p)
    r = subprocess.run([BIN, "replay", *args, *paths], capture_output=True, text=True, timeout=50)
    out = []
    for l in r.stdout.splitlines():
        try: out.append(json.loads(l))
        except ValueError: pass
    return r.returncode, out, r.stderr

def verdict(ok, why):
    print(("HELD: " if ok else "BROKEN: ") + why)
    sys.exit(0 if ok else 1)
