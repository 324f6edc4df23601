#!/usr/bin/env python3
# Usage: python3 benches/count_side_by_side.py OLD NEW ROUNDS
"""Both tables of the challenge (every k x n board, 3 <= k, n <= 12, k*n <= 40,
open and closed) with two engine binaries, alternating: total wall time of
each binary's `engine count` runs (whole command), every count compared."""
import subprocess, sys, time, json
old, new, reps = sys.argv[1], sys.argv[2], int(sys.argv[3])
boards = [(k, n) for k in range(3, 13) for n in range(3, 13) if k * n <= 40]
tot = {old: [], new: []}
methods = {}
for r in range(reps):
    for b in ([old, new] if r % 2 == 0 else [new, old]):
        t_all = 0.0
        for closed in (False, True):
            for (k, n) in boards:
                args = [b, "count", "--board", f"{k}x{n}", "--quiet", "--format", "json"]
                if closed:
                    args.append("--closed")
                t = time.perf_counter()
                out = subprocess.run(args, capture_output=True, text=True)
                t_all += time.perf_counter() - t
                d = json.loads(out.stdout)
                key = (k, n, closed)
                methods.setdefault(key, {})[b] = (d["tours"], d["method"])
        tot[b].append(t_all)
bad = [k for k, v in methods.items() if v[old][0] != v[new][0]]
changed = [(k, v[old][1], v[new][1]) for k, v in methods.items() if v[old][1] != v[new][1]]
print("boards", len(boards) * 2, "disagreements", bad)
print("method changed", changed)
for b in (old, new):
    xs = sorted(tot[b])
    print(b, "totals s:", " ".join(f"{x:.3f}" for x in xs), "median", f"{xs[len(xs)//2]:.3f}")
