#!/usr/bin/env python3
"""Times the hot loops of two `engine` binaries side by side, alternating runs.

Usage: benches/side_by_side.py OLD_ENGINE NEW_ENGINE [RUNS] [--puzzles]

Each case is run RUNS times per binary (default 9), in alternating order, and the
solver's own time is read from its output (`stats.time_ms` of `run --format json`,
the time on `count`'s summary line), so parsing and printing are left out; the whole
process's wall time is printed beside it.

With `--puzzles`, the cases are `run` on every file in `puzzles/` instead (a time limit
of 60 s each; the status is printed beside the times).
"""
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = {
    "depth-first search, js-order 8x8": (
        ["run", str(ROOT / "puzzles/js-order8x8.ron"), "--quiet", "--format", "json"], "run"),
    "Warnsdorff 1000x1000 open": (
        ["run", str(ROOT / "puzzles/knight1000.ron"), "--quiet", "--format", "json"], "run"),
    "count 6x6 open, 1 thread": (
        ["count", str(ROOT / "puzzles/count-knight6x6.ron"), "--quiet", "--threads", "1"], "count"),
    "count 6x6 open, depth-first, 1 thread": (
        ["count", str(ROOT / "puzzles/count-knight6x6.ron"), "--quiet", "--threads", "1",
         "--method", "dfs"], "count"),
    "count 6x6 closed from a1, depth-first, 1 thread": (
        ["count", "--board", "6x6", "--closed", "--start", "a1", "--quiet", "--threads", "1",
         "--method", "dfs"], "count"),
    "clue count, zebra-clues10x10": (
        ["count", str(ROOT / "puzzles/zebra-clues10x10.ron"), "--quiet"], "count"),
    "symmetric count, knight7x7-halfturn-open": (
        ["count", str(ROOT / "puzzles/knight7x7-halfturn-open.ron"), "--quiet"], "count"),
    # Boards past 64 squares count on general sets; these counts take hours, so the
    # figure is the time per million nodes in the first 3 s.
    "general sets, 3x24 a1 to c24, ms per million nodes": (
        ["count", "--board", "3x24", "--start", "a1", "--end", "c24", "--method", "dfs",
         "--threads", "1", "--quiet", "--time-limit", "3"], "rate"),
    "general sets, 4x17 a1 to d17, ms per million nodes": (
        ["count", "--board", "4x17", "--start", "a1", "--end", "d17", "--method", "dfs",
         "--threads", "1", "--quiet", "--time-limit", "3"], "rate"),
}


def measure(binary, args, kind):
    """The solver's time in ms and its node count (with the status, for `run`), from one run."""
    started = time.perf_counter()
    out = subprocess.run([binary] + args, capture_output=True, text=True).stdout
    wall = (time.perf_counter() - started) * 1000
    if kind == "run":
        try:
            v = json.loads(out)
        except json.JSONDecodeError:
            return None, wall, "error (the file does not read)"
        return v["stats"]["time_ms"], wall, f'{v["stats"]["nodes"]} ({v["status"]})'

    line = next(l for l in out.splitlines() if l.startswith("count:"))
    parts = [p.strip() for p in line.split("\u00b7")]
    value, unit = parts[-1].split()
    ms = float(value) * {"s": 1000.0, "ms": 1.0, "\u00b5s": 0.001}[unit]
    nodes = int(parts[-2].split()[0])
    if kind == "rate":
        return ms / nodes * 1e6, wall, nodes
    return ms, wall, nodes


def main():
    args = [a for a in sys.argv[1:] if a != "--puzzles"]
    old, new = args[0], args[1]
    runs = int(args[2]) if len(args) > 2 else 9
    cases = CASES
    if "--puzzles" in sys.argv:
        cases = {f.name: (["run", str(f), "--quiet", "--format", "json", "--time-limit", "60"], "run")
                 for f in sorted((ROOT / "puzzles").glob("*.ron"))}
    for name, (args, kind) in cases.items():
        times = {old: [], new: []}
        walls = {old: [], new: []}
        nodes = {}
        for i in range(runs):
            for b in ((old, new) if i % 2 == 0 else (new, old)):
                ms, wall, nodes[b] = measure(b, args, kind)
                times[b].append(ms)
                walls[b].append(wall)
        if None in times[old] + times[new]:
            print(f"{name}: nodes {nodes[old]} / {nodes[new]}")
            continue
        o, n = statistics.median(times[old]), statistics.median(times[new])
        wo, wn = statistics.median(walls[old]), statistics.median(walls[new])
        print(f"{name}: old median {o:.1f} ms (min {min(times[old]):.1f}), "
              f"new median {n:.1f} ms (min {min(times[new]):.1f}), new/old {n / max(o, 1e-3):.3f}; "
              f"whole process {wo:.0f} / {wn:.0f} ms; nodes {nodes[old]} / {nodes[new]}")


if __name__ == "__main__":
    main()
