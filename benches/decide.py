#!/usr/bin/env python3
"""Does `engine run` with `Auto` decide every small leaper puzzle, and agree with `engine count`?

Usage: benches/decide.py ENGINE [--count COUNT_ENGINE] [--time-limit SECS]
                         [--count-limit SECS] [--only PIECE_SUBSTRING] [--quiet]
                         [--sides MIN-MAX] [--solver NAME]

Cases: every leaper (r, s) with 0 <= r < s <= 4, and every union of two of them (55
pieces); every board m x n with 3 <= m <= n <= 8 (written `{n}x{m}`); an open tour from
any square to any square, and a closed tour: 2310 cases. Each is run once with
`ENGINE run --format json --time-limit SECS` (default 60), timed from outside (the whole
process: reading, graph, proofs, search, verification, output), and counted with
`COUNT_ENGINE count --time-limit` (default: ENGINE, 20 s). A case *agrees* when run finds
a tour and count's number (complete or a lower bound) is not a complete zero, or run
proves there is none and count completes with zero. A case *misses* when run takes 2 s
or more or does not decide. Prints every miss and disagreement, the slowest ten, and
the totals. `--sides 9-10` runs the boards with sides from 9 to 10 instead of 3 to 8;
`--solver backtrack` passes `--solver` to `run`.
"""
import json
import subprocess
import sys
import time

LEAPERS = [(r, s) for s in range(1, 5) for r in range(0, s)]


def pieces():
    out = [f"leaper {r} {s}" for r, s in LEAPERS]
    for i, a in enumerate(LEAPERS):
        for b in LEAPERS[i + 1:]:
            out.append(f"leaper {a[0]} {a[1]} | leaper {b[0]} {b[1]}")
    return out


def boards(lo, hi):
    return [f"{n}x{m}" for m in range(lo, hi + 1) for n in range(m, hi + 1)]


def puzzle(board, piece, closed):
    tour = "Closed" if closed else "Open"
    return f'Puzzle(board: "{board}", piece: "{piece}", tour: {tour})'


def run(engine, text, limit, solver):
    t0 = time.perf_counter()
    extra = ["--solver", solver] if solver else []
    p = subprocess.run([engine, "run", "-", "--quiet", "--format", "json",
                        "--time-limit", str(limit)] + extra, input=text, capture_output=True,
                       text=True)
    wall = time.perf_counter() - t0
    try:
        v = json.loads(p.stdout)
    except json.JSONDecodeError:
        return wall, "error", p.stderr.strip()[:200], None
    return wall, v["status"], v.get("solver", ""), v["stats"]["nodes"]


def count(engine, text, limit):
    p = subprocess.run([engine, "count", "-", "--quiet", "--time-limit", str(limit)],
                       input=text, capture_output=True, text=True)
    line = p.stdout.splitlines()[1] if len(p.stdout.splitlines()) > 1 else ""
    words = line.split()
    complete = not line.startswith("at least")
    try:
        number = int(words[2] if not complete else words[0])
    except (IndexError, ValueError):
        return None, False
    return number, complete


def main():
    args = sys.argv[1:]
    engine = args[0]
    opt = lambda name, default: args[args.index(name) + 1] if name in args else default
    counter = opt("--count", engine)
    limit = float(opt("--time-limit", "60"))
    count_limit = float(opt("--count-limit", "20"))
    only = opt("--only", None)
    quiet = "--quiet" in args
    lo, hi = map(int, opt("--sides", "3-8").split("-"))
    solver = opt("--solver", None)
    rows = []
    for piece in pieces():
        if only and only not in piece:
            continue
        for board in boards(lo, hi):
            for closed in (False, True):
                text = puzzle(board, piece, closed)
                wall, status, who, nodes = run(engine, text, limit, solver)
                tours, complete = count(counter, text, count_limit)
                if status == "found":
                    agree = tours is not None and not (complete and tours == 0)
                elif status == "impossible":
                    agree = tours is None or not complete or tours == 0
                    agree = agree and not (tours is not None and tours > 0)
                else:
                    agree = True
                row = (wall, board, piece, "closed" if closed else "open", status, nodes,
                       tours, complete, agree, who)
                rows.append(row)
                decided = status in ("found", "impossible")
                if not quiet and (wall >= 2 or not decided or not agree):
                    print(f"{'MISS' if agree else 'DISAGREE'}: {board} {piece} {row[3]}: "
                          f"{status} in {wall:.2f} s, {nodes} nodes; count "
                          f"{'' if complete else 'at least '}{tours}; {who}", flush=True)
    rows.sort(reverse=True)
    print("\nslowest ten:")
    for r in rows[:10]:
        print(f"  {r[0]:.3f} s  {r[1]} {r[2]} {r[3]}: {r[4]}, {r[5]} nodes; count "
              f"{'' if r[7] else 'at least '}{r[6]}")
    decided = [r for r in rows if r[4] in ("found", "impossible")]
    fast = [r for r in decided if r[0] < 2]
    print(f"\ncases: {len(rows)}; decided: {len(decided)} "
          f"({sum(r[4] == 'found' for r in rows)} found, "
          f"{sum(r[4] == 'impossible' for r in rows)} impossible); under 2 s: {len(fast)}; "
          f"disagreements: {sum(not r[8] for r in rows)}; "
          f"count incomplete: {sum(not r[7] for r in rows)}")
    total = sum(r[0] for r in rows)
    print(f"total wall time of run: {total:.1f} s; median {sorted(r[0] for r in rows)[len(rows) // 2]:.3f} s")


if __name__ == "__main__":
    main()
