#!/usr/bin/env python3
"""Does `engine run` with `Auto` decide every small leaper puzzle, and agree with `engine count`?

Usage: benches/decide.py ENGINE [--count COUNT_ENGINE] [--time-limit SECS]
                         [--count-limit SECS] [--found-count-limit SECS]
                         [--recount OTHER_ENGINE] [--only PIECE_SUBSTRING] [--quiet]
                         [--sides MIN-MAX] [--solver NAME] [--csv FILE]

Cases: every leaper (r, s) with 0 <= r < s <= 4, and every union of two of them (55
pieces); every board m x n with 3 <= m <= n <= 8 (written `{n}x{m}`); an open tour from
any square to any square, and a closed tour: 2310 cases. Each is run once with
`ENGINE run --format json --time-limit SECS` (default 60), timed from outside (the whole
process: reading, graph, proofs, search, verification, output), and counted with
`COUNT_ENGINE count --format json --time-limit` (default: ENGINE; 20 s, or 1 s when run
found a tour: the tour is verified, and the count only has to be no complete zero).

A case *agrees* when run finds a tour and count's number (complete or a lower bound) is not
a complete zero, or run proves there is none and count completes with zero. A case
*misses* when run takes 2 s or more or does not decide. When count's zero comes from the
same proof as run's (count applies the proofs of `check` first), it is no independent
check: `--recount OTHER_ENGINE` counts those cases again with another engine (say the
previous release, which has fewer proofs) under `--count-limit`. Prints every miss and
disagreement, the slowest ten, the answers by kind (search, proof, and which proofs), and
the totals; `--csv FILE` writes every case. `--sides 9-10` runs the boards with sides from
9 to 10 instead of 3 to 8; `--solver backtrack` passes `--solver` to `run`.
"""
import csv
import json
import subprocess
import sys
import tempfile
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
        return wall, "error", p.stderr.strip()[:200], None, ""
    return wall, v["status"], v.get("solver", ""), v["stats"]["nodes"], v.get("reason") or ""


def count(engine, text, limit):
    """(tours, complete, by_proof); tours None when count failed."""
    p = subprocess.run([engine, "count", "-", "--quiet", "--format", "json",
                        "--time-limit", str(limit)], input=text, capture_output=True, text=True)
    try:
        v = json.loads(p.stdout)
    except json.JSONDecodeError:
        return old_count(engine, text, limit)
    return int(v["tours"]), bool(v["exact"]), v.get("proof") is not None


def old_count(engine, text, limit):
    """The text output of a release whose count has no JSON and reads no standard input."""
    with tempfile.NamedTemporaryFile("w", suffix=".ron") as f:
        f.write(text)
        f.flush()
        p = subprocess.run([engine, "count", f.name, "--quiet", "--time-limit", str(limit)],
                           capture_output=True, text=True)
    lines = p.stdout.splitlines()
    proof = any("(no tour exists: " in line for line in lines)
    line = lines[1] if len(lines) > 1 else ""
    words = line.split()
    complete = not line.startswith("at least")
    try:
        number = int((words[2] if not complete else words[0]).replace(",", ""))
    except (IndexError, ValueError):
        return (0, True, True) if proof else (None, False, False)
    return number, complete, proof


def kind_of(status, who, reason):
    """What settled the case: the proofs (a cut, or another), or the solver that ran last."""
    if status not in ("found", "impossible"):
        return status
    if who.startswith("proofs"):
        return "proof: cut" if "the others fall into" in reason else "proof: other"
    last = who.split(" [")[0].split(", then ")[-1]
    return "Warnsdorff's rule" if last.startswith("warnsdorff") else "complete search"


def main():
    args = sys.argv[1:]
    engine = args[0]
    opt = lambda name, default: args[args.index(name) + 1] if name in args else default
    counter = opt("--count", engine)
    recounter = opt("--recount", None)
    limit = float(opt("--time-limit", "60"))
    count_limit = float(opt("--count-limit", "20"))
    found_limit = float(opt("--found-count-limit", "1"))
    only = opt("--only", None)
    quiet = "--quiet" in args
    lo, hi = map(int, opt("--sides", "3-8").split("-"))
    solver = opt("--solver", None)
    out_csv = opt("--csv", None)
    rows = []
    started = time.perf_counter()
    for piece in pieces():
        if only and only not in piece:
            continue
        for board in boards(lo, hi):
            for closed in (False, True):
                text = puzzle(board, piece, closed)
                wall, status, who, nodes, reason = run(engine, text, limit, solver)
                climit = found_limit if status == "found" else count_limit
                tours, complete, by_proof = count(counter, text, climit)
                recount = ""
                if status == "impossible" and by_proof and recounter:
                    t2, c2, p2 = count(recounter, text, count_limit)
                    recount = ("error" if t2 is None else
                               f"{t2}{'' if c2 else '+'}{' (proof)' if p2 else ''}")
                if status == "found":
                    agree = tours is not None and not (complete and tours == 0)
                elif status == "impossible":
                    agree = tours is None or not complete or tours == 0
                    agree = agree and not (tours is not None and tours > 0)
                else:
                    agree = True
                if recount and not (recount.startswith("0") or recount.endswith("+")
                                    or recount == "error"):
                    agree = False
                row = dict(wall=wall, board=board, piece=piece,
                           tour="closed" if closed else "open", status=status, nodes=nodes,
                           tours=tours, complete=complete, count_by_proof=by_proof,
                           recount=recount, agree=agree, kind=kind_of(status, who, reason),
                           solver=who)
                rows.append(row)
                decided = status in ("found", "impossible")
                if not quiet and (wall >= 2 or not decided or not agree):
                    print(f"{'MISS' if agree else 'DISAGREE'}: {board} {piece} {row['tour']}: "
                          f"{status} in {wall:.2f} s, {nodes} nodes; count "
                          f"{'' if complete else 'at least '}{tours}; {who}", flush=True)
    elapsed = time.perf_counter() - started
    if out_csv:
        with open(out_csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            w.writeheader()
            w.writerows(rows)
    rows.sort(key=lambda r: r["wall"], reverse=True)
    print("\nslowest ten:")
    for r in rows[:10]:
        print(f"  {r['wall']:.3f} s  {r['board']} {r['piece']} {r['tour']}: {r['status']} "
              f"({r['kind']}), {r['nodes']} nodes; count "
              f"{'' if r['complete'] else 'at least '}{r['tours']}")
    decided = [r for r in rows if r["status"] in ("found", "impossible")]
    fast = [r for r in decided if r["wall"] < 2]
    kinds = {}
    for r in rows:
        kinds[(r["status"], r["kind"])] = kinds.get((r["status"], r["kind"]), 0) + 1
    print("\nanswers: " + "; ".join(f"{s} by {k}: {n}" for (s, k), n in sorted(kinds.items())))
    recounted = [r for r in rows if r["recount"]]
    if recounted:
        zero = sum(r["recount"].startswith("0") and not r["recount"].startswith("0+")
                   and "(proof)" not in r["recount"] for r in recounted)
        print(f"recounted (count's zero was a proof): {len(recounted)}; "
              f"{zero} counted to zero by the other engine's search, "
              f"{sum('(proof)' in r['recount'] for r in recounted)} proved by its proofs, "
              f"{sum(r['recount'].endswith('+') for r in recounted)} not finished")
    print(f"\ncases: {len(rows)}; decided: {len(decided)} "
          f"({sum(r['status'] == 'found' for r in rows)} found, "
          f"{sum(r['status'] == 'impossible' for r in rows)} impossible); "
          f"under 2 s: {len(fast)}; disagreements: {sum(not r['agree'] for r in rows)}; "
          f"count incomplete: {sum(not r['complete'] for r in rows)}")
    total = sum(r["wall"] for r in rows)
    walls = sorted(r["wall"] for r in rows)
    print(f"total wall time of run: {total:.1f} s; median {walls[len(walls) // 2]:.3f} s; "
          f"whole sweep (run and count): {elapsed:.0f} s")


if __name__ == "__main__":
    main()
