#!/usr/bin/env python3
"""Groups a callgrind profile's self (exclusive) instructions into a few kinds of work.

    callgrind_annotate --auto=no --threshold=100 FILE | swift demangle --simplified | python3 scripts/callgrind_categories.py

Prints one markdown table row per kind, `| kind | instructions | share |`, largest first.
Self counts add up to the total exactly, unlike inclusive counts, which recursion and
release-then-deallocate cycles inflate. The kinds are judged by function name alone.
"""
import re
import sys

KINDS = [
    ("hashing (Hasher, hash(into:), hash-table probes)",
     re.compile(r"Hasher|hash\(into:\)|hashValue|_rawHashValue|\.find<|\.find\(")),
    ("allocation (malloc, free, object alloc/dealloc)",
     re.compile(r"malloc|_int_free|\bfree\b|cfree|unlink_chunk|tcache|swift_slowAlloc|swift_slowDealloc|"
                r"swift_allocObject|swift_deallocClassInstance|swift_deallocObject|swift_allocBox")),
    ("reference counting, copies and destruction of values",
     re.compile(r"swift_retain|swift_release|RefCounts|_swift_release_dealloc|swift_arrayDestroy|"
                r"deallocating_deinit|ValueWitnesses|outlined (copy|consume|destroy|retain|release)|"
                r"swift_arrayInitWith|swift_bridgeObject|swift_unknownObject")),
    ("equality of rows and values (==)", re.compile(r"==")),
    ("exclusivity checks (swift_beginAccess)", re.compile(r"swift_beginAccess|swift_endAccess|AccessSet")),
    ("growing arrays, sets and dictionaries",
     re.compile(r"resize|_copyOrMoveAndResize|_consumeAndCreateNew|insertNew|reserveCapacity|_growArray|"
                r"append|_copyToNewBuffer")),
]
LINE = re.compile(r"^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(.*)$")


def main():
    totals = {name: 0 for name, _ in KINDS}
    other = 0
    grand = None
    listing = False
    entries = 0
    for line in sys.stdin:
        if "PROGRAM TOTALS" in line and grand is None:
            grand = int(line.split()[0].replace(",", ""))
            continue
        if "file:function" in line:
            listing = True
            continue
        match = LINE.match(line) if listing else None
        if not match:
            if entries and not line.strip():
                break  # the function list ends; annotated source may follow
            continue
        entries += 1
        count = int(match.group(1).replace(",", ""))
        function = match.group(2)
        for name, pattern in KINDS:
            if pattern.search(function):
                totals[name] += count
                break
        else:
            other += count
    grand = grand or sum(totals.values()) + other
    rows = sorted(totals.items(), key=lambda kv: -kv[1]) + [("everything else (the engine's own code, ...)", other)]
    for name, count in rows:
        print("| %s | %s | %.1f%% |" % (name, format(count, ","), 100.0 * count / grand if grand else 0.0))


if __name__ == "__main__":
    main()
