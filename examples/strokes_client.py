#!/usr/bin/env python3
"""A strokes client with nothing but the Python standard library.

Connects to the daemon's Unix socket, subscribes, and keeps every stroke's polyline up to date,
the way a drawing app would. Prints one line per finished stroke, and a summary at the end.

    python3 examples/strokes_client.py [--socket /run/strokes/strokes.sock] [--strokes N] [--json]

The protocol is specified in docs/protocol.md.
"""

import argparse
import json
import socket
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--socket", default="/run/strokes/strokes.sock")
    parser.add_argument("--strokes", type=int, default=0, help="stop after this many finished strokes (0: never)")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = parser.parse_args()

    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(args.socket)
    stream = sock.makefile("rwb")

    def send(request):
        stream.write(json.dumps(request).encode() + b"\n")
        stream.flush()

    hello = json.loads(stream.readline())
    if hello.get("type") != "hello" or hello.get("protocol") != 1:
        sys.exit(f"unexpected greeting: {hello}")

    send({"id": 1, "request": "subscribe"})

    live = {}  # stroke id -> list of (x, y)
    finished = {"ended": 0, "cancelled": 0}
    points = 0
    first_seq = last_seq = None
    accounted = 0  # stream messages received, plus the moves merged into them
    for raw in stream:
        msg = json.loads(raw)
        kind = msg.get("type")
        if kind in ("began", "moved", "ended", "cancelled", "deviceAdded", "deviceRemoved"):
            # Every stream message is numbered; a moved may stand for `merged` earlier ones, so
            # each sequence number is either received or counted in a later `merged`.
            last_seq = msg["seq"]
            accounted += 1 + msg.get("merged", 0)
        if kind == "snapshot":
            first_seq = last_seq = msg["seq"]
            for s in msg["strokes"]:
                live[s["stroke"]] = [(p["x"], p["y"]) for p in s["points"]]
        elif kind == "began":
            live[msg["stroke"]] = [(msg["x"], msg["y"])]
        elif kind == "moved":
            live.setdefault(msg["stroke"], []).append((msg["x"], msg["y"]))
            points += 1
        elif kind in ("ended", "cancelled"):
            polyline = live.pop(msg["stroke"], [])
            finished[kind] += 1
            if not args.json:
                reason = f" ({msg['reason']})" if kind == "cancelled" else ""
                print(f"stroke {msg['stroke']} {kind}{reason}: {len(polyline)} points", flush=True)
            if args.strokes and finished["ended"] + finished["cancelled"] >= args.strokes:
                # A merged moved goes to the end of the daemon's queue, after messages numbered
                # above the ones it stands for: stop the stream and read what is still queued
                # (everything before the reply), so every number up to the last is accounted for.
                send({"id": 2, "request": "unsubscribe"})
                for raw in stream:
                    msg = json.loads(raw)
                    if msg.get("type") == "reply" and msg.get("id") == 2:
                        break
                    if "seq" in msg and msg.get("type") != "snapshot":
                        last_seq = msg["seq"]
                        accounted += 1 + msg.get("merged", 0)
                break
        elif kind == "goodbye":
            break
        elif kind == "error":
            print(f"error from the daemon: {msg}", file=sys.stderr)
        # Unknown types are ignored, as the protocol requires.

    summary = {"ended": finished["ended"], "cancelled": finished["cancelled"], "moved": points,
               "inProgress": len(live), "daemon": hello["daemon"],
               "missing": (last_seq - first_seq - accounted) if first_seq is not None else None}
    print(json.dumps(summary, sort_keys=True) if args.json else f"summary: {summary}")
    sock.close()


if __name__ == "__main__":
    main()
