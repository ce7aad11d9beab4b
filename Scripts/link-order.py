#!/usr/bin/env python3
"""The daemon's hot text (Scripts/link-order.sh): which code goes first in the executable.

    link-order.py MAP BINARY CALLGRIND.OUT... > Sources/strokes/hot-text.ld

MAP is lld's `-Map` (with `--no-demangle`) of BINARY, the build that the callgrind runs
(`--dump-instr=yes --compress-pos=no --compress-strings=no`) executed. Every instruction they
ran in BINARY is looked up in the map to the input section holding it (one function's section
for code compiled with `-function-sections`, an object file's whole `.text` otherwise), and the
output is a linker script that places exactly those sections, and nothing else, in an output
section `.text.hot` before `.text`. So the code the daemon runs sits on as few pages as it
needs, not on a page of every module it links (docs/performance.md, "The binary's own pages").

Sections, not symbols: lld's `--symbol-ordering-file` names symbols, and the compiler's local
helpers (outlined copies, `objectdestroy`, value witnesses) have the same name in every object
file, or no name at all (`.text..L__unnamed_1`); a section is named by its file and its name.
"""
import bisect
import re
import sys
from collections import Counter

# lld's map: VMA, LMA, size, alignment, then FILE:(SECTION) for an input section, or a symbol
# (indented further) defined in the input section above it.
INPUT = re.compile(r"\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+\d+\s+(\S.*):\(([^)]*)\)$")
SYMBOL = re.compile(r"\s+([0-9a-f]+)\s+[0-9a-f]+\s+[0-9a-f]+\s+\d+\s{17}(\S+)$")
ARCHIVE_MEMBER = re.compile(r"(.*)\((.*)\)$")


def read_map(path):
    """(start, end, file, section) of every input `.text` section in the map, by address, and
    the address of every symbol defined in them."""
    sections = []
    symbols = {}
    current = False
    with open(path, errors="replace") as lines:
        for line in lines:
            line = line.rstrip("\n")
            match = INPUT.match(line)
            if match:
                current = match.group(4) == ".text" or match.group(4).startswith(".text.")
                start, size = int(match.group(1), 16), int(match.group(2), 16)
                if current and size:
                    sections.append((start, start + size, match.group(3), match.group(4)))
                continue
            symbol = SYMBOL.match(line)
            if symbol and current:
                name = symbol.group(2)
                symbols[name] = None if name in symbols else int(symbol.group(1), 16)
            elif not symbol:
                current = False
    sections.sort()
    return sections, symbols


def executed_addresses(path, binary, symbols):
    """Addresses of the instructions a callgrind run executed in `binary`, as linked. Valgrind
    reports them relative to the object, or, for the part of the executable it does not
    attribute to it (`ob=???`, lld's separate read-only segment confuses it), where it loaded
    it: each group's bias is taken from the functions whose names are unique (their first
    executed instruction against their address in the map)."""
    groups = {}  # object -> (addresses, bias counts)
    current = None
    function = None
    with open(path, errors="replace") as lines:
        for line in lines:
            if line.startswith("ob="):
                name = line[3:].strip()
                current = name if name.endswith("/" + binary) or name == "???" else None
            elif line.startswith("fn="):
                function = line[3:].strip()
            elif current is not None and line.startswith("0x"):
                address = int(line.split(None, 1)[0], 16)
                addresses, biases = groups.setdefault(current, (set(), Counter()))
                addresses.add(address)
                if function is not None:
                    if symbols.get(function) is not None:
                        biases[address - symbols[function]] += 1
                    function = None
    executed = set()
    for addresses, biases in groups.values():
        if biases:
            bias, count = biases.most_common(1)[0]
            if count * 2 > sum(biases.values()):
                executed |= {address - bias for address in addresses}
    if not executed:
        sys.exit(f"link-order: {path}: no function of {binary} found")
    return executed


def pattern(file):
    """A linker-script file pattern for an object or an archive member: `*/Module.build/F.swift.o`,
    `*libswiftCore.a:Swift.o`; characters the script lexer may split on become `?`."""
    member = ARCHIVE_MEMBER.match(file)
    if member:
        text = "*" + member.group(1).rsplit("/", 1)[-1] + ":" + member.group(2)
    else:
        parts = file.rsplit("/", 2)
        text = "*/" + "/".join(parts[-2:]) if len(parts) >= 2 else "*" + file
    return re.sub(r"[^A-Za-z0-9_./$*:-]", "?", text)


def main(arguments):
    if len(arguments) < 3:
        sys.exit("usage: link-order.py MAP BINARY CALLGRIND.OUT...")
    sections, symbols = read_map(arguments[0])
    starts = [section[0] for section in sections]
    hot = set()
    for path in arguments[2:]:
        for address in executed_addresses(path, arguments[1], symbols):
            index = bisect.bisect_right(starts, address) - 1
            if index >= 0 and address < sections[index][1]:
                hot.add(index)
    size = sum(sections[i][1] - sections[i][0] for i in hot)
    print("/* Generated by Scripts/link-order.sh: the input sections the daemon ran in its recorded")
    print(f"   scenarios ({len(hot)} sections, {size // 1024} KB), together before .text. */")
    print("SECTIONS {")
    print("  .text.hot : {")
    for index in sorted(hot, key=lambda i: (sections[i][2], sections[i][3])):
        _, _, file, section = sections[index]
        print(f"    {pattern(file)}({re.sub(r'[^A-Za-z0-9_.$]', '?', section)})")
    print("  }")
    print("}")
    print("INSERT BEFORE .text;")
    print(f"link-order: {len(hot)} sections, {size} bytes", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
