#!/usr/bin/env python3
"""Prints the translation units clang-tidy runs on in scripts/test's tidy step.

Usage: scripts/tidy_units.py BUILD_DIR SOURCE...

BUILD_DIR is configured with CMAKE_UNITY_BUILD=ON: its compile_commands.json names the unity
files CMake wrote (CMakeFiles/<target>.dir/Unity/unity_N_cxx.cxx), each including a batch of
one target's sources. Every header the sources share (the standard library, nlohmann/json,
CLI11, Relacy) is then parsed and matched once per batch instead of once per source.

Prints, one per line, the unity files (or plain sources, for a target not built as a unity)
that together include every SOURCE given, choosing in the compile database's order and
skipping a unit whose sources are all covered already: the Relacy child's five kinds, each a
unit of the same bodies.cpp, are analysed once. A unit that adds one uncovered source is
analysed whole, so a source it shares with an earlier unit (the scenario sources the Relacy
child compiles too) is analysed twice. Exits 2 naming a SOURCE no unit includes.
"""
import json
import os
import re
import sys

INCLUDE = re.compile(r'^#include "([^"]+)"', re.MULTILINE)


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    build_dir, sources = argv[0], argv[1:]
    root = os.getcwd()
    wanted = {os.path.normpath(os.path.join(root, s)): s for s in sources}
    with open(os.path.join(build_dir, "compile_commands.json"), encoding="utf-8") as f:
        commands = json.load(f)
    covered = set()
    units = []
    for entry in commands:
        unit = os.path.normpath(os.path.join(entry["directory"], entry["file"]))
        if unit in wanted:
            included = {unit}
        elif "/Unity/" in unit:
            with open(unit, encoding="utf-8") as f:
                included = {os.path.normpath(p) for p in INCLUDE.findall(f.read())}
            included &= wanted.keys()
        else:
            continue
        if included and not included <= covered:
            units.append(unit)
            covered |= included
    missing = sorted(wanted[s] for s in wanted.keys() - covered)
    if missing:
        sys.stderr.write(f"tidy_units: no unit of {build_dir} compiles {', '.join(missing)}\n")
        return 2
    print("\n".join(units))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
