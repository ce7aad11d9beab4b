#!/usr/bin/env python3
"""Writes an evemu recording of about SIZE_MB megabytes to standard output: RECORDING's header,
then its events repeated with times shifted so that each copy follows the last (README,
"Streaming replay"). Usage: long-recording.py RECORDING SIZE_MB > long.evemu"""
import sys

path, size_mb = sys.argv[1], float(sys.argv[2])
header, events = [], []
with open(path) as f:
    for line in f:
        (events if line.startswith("E:") else header if not events else events).append(line)
events = [e for e in events if e.startswith("E:")]
parsed = []
for e in events:
    _, t, rest = e.split(" ", 2)
    sec, usec = t.split(".")
    parsed.append((int(sec) * 1_000_000 + int(usec), rest))
span = parsed[-1][0] - parsed[0][0] + 10_000
out = sys.stdout
written = out.write("".join(header))
target = size_mb * 1_000_000
copy = 0
while written < target:
    shift = copy * span
    chunk = "".join(f"E: {(t + shift) // 1_000_000}.{(t + shift) % 1_000_000:06d} {rest}" for t, rest in parsed)
    written += out.write(chunk)
    copy += 1
