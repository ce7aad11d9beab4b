#!/usr/bin/env python3
"""Rewrite evemu recordings as libinput-record YAML (version 1) or evtest text.

Used once to make the cross-format test fixtures under Tests/ReplayTests/Fixtures from real
evemu recordings: the event data is unchanged, only the container differs, so strokes must
produce the same strokes from every form. Standard library only.

    convert-recording.py yaml  A.evemu [B.evemu ...] > out.yml   (one device per input)
    convert-recording.py evtest A.evemu > out.txt
"""
import sys


def parse_evemu(path):
    dev = {"name": "", "id": [0, 0, 0, 0], "props": [], "codes": {}, "abs": {}, "events": [], "absvalue": {}}
    offsets = {}
    ctype = ccode = None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("#"):
            words = line.lstrip("# ").split()
            if len(words) >= 3 and words[:2] == ["Event", "type"]:
                ctype, ccode = int(words[2]), None
            elif len(words) >= 3 and words[:2] == ["Event", "code"]:
                ccode = int(words[2])
            elif len(words) == 2 and words[0] == "Value" and ctype == 3 and ccode is not None:
                dev["absvalue"][ccode] = int(words[1])
            continue
        data = line.split("#")[0].split()
        if line.startswith("N:"):
            dev["name"] = line[2:].strip()
        elif line.startswith("I:"):
            dev["id"] = [int(x, 16) for x in data[1:5]]
        elif line.startswith("P:"):
            base = len(dev.setdefault("pbytes", []))
            dev["pbytes"] += [int(x, 16) for x in data[1:]]
        elif line.startswith("B:"):
            t = int(data[1], 16)
            off = offsets.get(t, 0)
            for i, b in enumerate(int(x, 16) for x in data[2:]):
                for bit in range(8):
                    if b & (1 << bit):
                        dev["codes"].setdefault(t, []).append((off + i) * 8 + bit)
            offsets[t] = off + len(data) - 2
        elif line.startswith("A:"):
            f = [int(x) for x in data[2:]]
            dev["abs"][int(data[1], 16)] = (f + [0])[:5]
        elif line.startswith("E:"):
            sec, usec = data[1].split(".")
            dev["events"].append((int(sec), int(usec), int(data[2], 16), int(data[3], 16), int(data[4])))
    dev["props"] = [i * 8 + bit for i, b in enumerate(dev.get("pbytes", [])) for bit in range(8) if b & (1 << bit)]
    return dev


def frames(events):
    frame = []
    for e in events:
        frame.append(e)
        if e[2] == 0 and e[3] == 0:
            yield frame
            frame = []


def yaml(devs, paths):
    out = ["# Converted from evemu by Scripts/convert-recording.py; event data unchanged.",
           "# sources: " + ", ".join(p.split("/")[-1] for p in paths),
           "version: 1", f"ndevices: {len(devs)}", "libinput:", "  version: 1.23.0",
           "system:", "  kernel: \"unknown\"", "devices:"]
    for n, d in enumerate(devs):
        # Each input was recorded on its own: its times are made relative to its own first event,
        # so several inputs overlap and interleave as if recorded together.
        t0 = d["events"][0][0] * 1000000 + d["events"][0][1] if d["events"] else 0
        out += [f"  - node: /dev/input/event{n + 5}", "    evdev:",
                f"      # Name: {d['name']}", f"      name: \"{d['name']}\"",
                f"      id: [{', '.join(str(x) for x in d['id'])}]", "      codes:"]
        for t in sorted(d["codes"]):
            if t == 0:
                continue
            out.append(f"        {t}: [{', '.join(str(c) for c in sorted(d['codes'][t]))}]")
        out.append("      absinfo:")
        for c in sorted(d["abs"]):
            out.append(f"        {c}: [{', '.join(str(x) for x in d['abs'][c])}]")
        out.append(f"      properties: [{', '.join(str(p) for p in d['props'])}]")
        out += ["    udev:", "      properties:", "      - ID_INPUT=1", "    events:"]
        for fr in frames(d["events"]):
            out.append("    - evdev:")
            for (s, u, t, c, v) in fr:
                rel = s * 1000000 + u - t0
                out.append(f"      - [{rel // 1000000:3d}, {rel % 1000000:6d}, {t:3d}, {c:3d}, {v:5d}]")
    return "\n".join(out) + "\n"


def evtest(d, names):
    out = ["Input driver version is 1.0.1",
           "Input device ID: bus 0x%x vendor 0x%x product 0x%x version 0x%x" % tuple(d["id"]),
           f"Input device name: \"{d['name']}\"", "Supported events:"]
    for t in sorted(d["codes"]):
        out.append(f"  Event type {t} ({names['types'].get(t, '?')})")
        for c in sorted(d["codes"][t]):
            if t == 0:
                continue
            out.append(f"    Event code {c} ({names['codes'].get((t, c), '?')})")
            if t == 3:
                mn, mx, fuzz, flat, res = d["abs"][c]
                out.append(f"      Value {d['absvalue'].get(c, 0):6d}")
                out.append(f"      Min   {mn:6d}")
                out.append(f"      Max   {mx:6d}")
                if fuzz:
                    out.append(f"      Fuzz  {fuzz:6d}")
                if flat:
                    out.append(f"      Flat  {flat:6d}")
                if res:
                    out.append(f"      Resolution {res:6d}")
    out.append("Properties:")
    for p in d["props"]:
        out.append(f"  Property type {p} ({names['props'].get(p, '?')})")
    out.append("Testing ... (interrupt to exit)")
    for (s, u, t, c, v) in d["events"]:
        if t == 0 and c == 0:
            out.append(f"Event: time {s}.{u:06d}, -------------- SYN_REPORT ------------")
        else:
            out.append(f"Event: time {s}.{u:06d}, type {t} ({names['types'].get(t, '?')}), "
                       f"code {c} ({names['codes'].get((t, c), '?')}), value {v}")
    return "\n".join(out) + "\n"


NAMES = {
    "types": {0: "EV_SYN", 1: "EV_KEY", 3: "EV_ABS", 4: "EV_MSC"},
    "codes": {(1, 330): "BTN_TOUCH", (3, 0): "ABS_X", (3, 1): "ABS_Y", (3, 47): "ABS_MT_SLOT",
              (3, 53): "ABS_MT_POSITION_X", (3, 54): "ABS_MT_POSITION_Y", (3, 55): "ABS_MT_TOOL_TYPE",
              (3, 57): "ABS_MT_TRACKING_ID", (3, 59): "ABS_MT_DISTANCE"},
    "props": {1: "INPUT_PROP_DIRECT"},
}

if __name__ == "__main__":
    kind, paths = sys.argv[1], sys.argv[2:]
    devs = [parse_evemu(p) for p in paths]
    sys.stdout.write(yaml(devs, paths) if kind == "yaml" else evtest(devs[0], NAMES))
