#!/usr/bin/env python3
"""killat.py ms MS -- CMD...        run CMD, kill -9 it MS milliseconds after its start
   killat.py records N FILE -- CMD...   run CMD, kill -9 it once FILE has N more lines than
                                        when it started (the N-th journal record it wrote)
Prints "killed" when CMD was still running at the kill, else "finished"; CMD's output is
thrown away."""
import os
import signal
import subprocess
import sys
import time

sep = sys.argv.index("--")
mode, args, cmd = sys.argv[1], sys.argv[2:sep], sys.argv[sep + 1:]


def lines(path):
    try:
        with open(path, "rb") as f:
            return f.read().count(b"\n")
    except OSError:
        return 0


base = lines(args[1]) if mode == "records" else 0
p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
t0 = time.monotonic()
if mode == "ms":
    time.sleep(float(args[0]) / 1000)
else:
    # the journal is compacted past 1 MiB (then it has fewer lines): stop there too
    while p.poll() is None and time.monotonic() - t0 < 30:
        n = lines(args[1])
        if n - base >= int(args[0]) or n < base:
            break
running = p.poll() is None
if running:
    os.kill(p.pid, signal.SIGKILL)
p.wait()
print("killed" if running else "finished")
