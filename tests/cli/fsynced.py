#!/usr/bin/env python3
"""fsynced.py TRACE STATE_DIR BEFORE_LIST: every file or directory the traced
commands created, renamed or linked under STATE_DIR (the simulator's own
state, STATE_DIR/sim, aside) is followed in TRACE by an fsync of the directory
that holds it, so that a crash cannot lose it. TRACE is `strace -f -y -e
trace=...` output; BEFORE_LIST the paths that existed before (one a line).
Prints each one that is not, and exits 1 when there is one."""
import os
import re
import sys

trace, state, before = sys.argv[1], os.path.realpath(sys.argv[2]), sys.argv[3]
existed = set(open(before).read().split("\n"))
events = []  # (kind, path): "new" a path made (renamed, linked), "sync" a directory fsynced
for line in open(trace):
    line = re.sub(r"^(\[pid +\d+\] |\d+ +)", "", line)
    line = re.sub(r"AT_FDCWD<[^>]*>", "AT_FDCWD", line)
    m = re.match(r'(?:openat\(AT_FDCWD, |open\()"([^"]+)", ([A-Z_|]+)[^)]*\)\s+=\s+(\d+)', line)
    if m and "O_CREAT" in m.group(2):
        if not any(p == m.group(1) for _, p in events):  # its first open made it
            events.append(("new", m.group(1)))
        continue
    m = re.match(r'mkdir(?:at\(AT_FDCWD, )?\(?"([^"]+)",.*\)\s+=\s+0', line)
    if m:
        events.append(("new", m.group(1)))
        continue
    m = re.match(r'(?:rename|renameat2?|link|linkat)\((?:AT_FDCWD, )?"[^"]+", (?:AT_FDCWD, )?"([^"]+)".*\)\s+=\s+0', line)
    if m:
        events.append(("new", m.group(1)))
        continue
    m = re.match(r"f(?:data)?sync\(\d+<([^>]+)>\)\s+=\s+0", line)
    if m:
        events.append(("sync", m.group(1)))

def ours(p):
    p = os.path.realpath(p)
    return p.startswith(state + "/") and not p.startswith(state + "/sim/") and p != state + "/sim"

bad = []
for i, (kind, path) in enumerate(events):
    if kind != "new" or not ours(path) or path in existed or not os.path.exists(path):
        continue
    parent = os.path.dirname(os.path.realpath(path))
    if not any(k == "sync" and os.path.realpath(p) == parent for k, p in events[i + 1:]):
        bad.append(path)
for p in sorted(set(bad)):
    print("not made durable (no fsync of its directory after it): " + p[len(state) + 1:])
sys.exit(1 if bad else 0)
