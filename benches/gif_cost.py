#!/usr/bin/env python3
"""What the GIFs cost, for two `engine` binaries side by side, alternating runs.

Usage: benches/gif_cost.py OLD_ENGINE NEW_ENGINE [RUNS]

For each case, each binary runs `engine run` RUNS times (default 5) without the
GIF and with it, all four in alternating order, timing the whole process (wall
and CPU, with its peak memory from wait4). Prints the medians and, per binary,
the ratio with/without: what drawing the GIF costs over the search itself.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = {
    # The textbook search from a2: 24 million nodes; the GIF samples it.
    "search GIF, 8x8 from (0,1), order: Given": (
        [str(ROOT / "benches/gif-search-8x8.ron")], "--search-gif"),
    # Warnsdorff's rule finds the tour in about 0.1 s; the GIF draws it.
    "tour GIF, knight 1000x1000": (
        [str(ROOT / "puzzles/knight1000.ron")], "--gif"),
}


def timed(argv):
    """Wall seconds, CPU seconds and peak memory (MB) of one run."""
    start = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(argv)}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main():
    old, new = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    out = Path(tempfile.mkdtemp()) / "out.gif"
    for name, (args, flag) in CASES.items():
        plain = {b: [b, "run", *args, "-q"] for b in (old, new)}
        drawn = {b: [b, "run", *args, "-q", flag, str(out)] for b in (old, new)}
        runs_of = {(b, g): [] for b in (old, new) for g in (False, True)}
        for i in range(runs):
            order = [(old, False), (old, True), (new, False), (new, True)]
            if i % 2:
                order.reverse()
            for b, g in order:
                runs_of[(b, g)].append(timed((drawn if g else plain)[b]))
        print(name)
        for label, b in (("old", old), ("new", new)):
            med = {g: [statistics.median(x[k] for x in runs_of[(b, g)]) for k in range(3)]
                   for g in (False, True)}
            (w0, c0, m0), (w1, c1, m1) = med[False], med[True]
            print(f"  {label}: without {w0:.2f} s wall, {c0:.2f} s CPU, {m0:.0f} MB; "
                  f"with {flag} {w1:.2f} s wall, {c1:.2f} s CPU, {m1:.0f} MB; "
                  f"ratio {w1 / w0:.2f}x wall, {c1 / c0:.2f}x CPU; "
                  f"the GIF alone {w1 - w0:.2f} s wall")


if __name__ == "__main__":
    main()
