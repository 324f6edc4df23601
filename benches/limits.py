#!/usr/bin/env python3
"""Time to exit under --time-limit and Ctrl-C on hostile inputs, two engine
binaries side by side (alternating, one run each per round).

    python3 benches/limits.py OLD NEW [ROUNDS]

Writes its inputs (up to 33 MB each) to a temporary folder. A binary still
running at its case's cap (30 s) is killed and shown as `>30 s`. Figures go
in BENCHMARKS.md ("Limits that hold on every path")."""

import os
import signal
import subprocess
import sys
import tempfile
import time


def clue_map(side, piece, clues):
    body = ", ".join(f'"({x},{y})": {k}' for x, y, k in clues)
    return f'Puzzle(board: "{side}x{side}", piece: "{piece}", clues: {{{body}}})'


def picture(side, every):
    cells = [str(i + 1) if i % every == 0 else "." for i in range(side * side)]
    rows = "\n".join(" ".join(cells[r * side:(r + 1) * side]) for r in range(side))
    return f'Puzzle(piece: "knight", clues: r#"\n{rows}\n"#)'


def inputs(d):
    files = {
        "c1000.ron": clue_map(1000, "knight", ((i, 0, 1 + 997 * i) for i in range(1000))),
        "c3000.ron": clue_map(1000, "knight", ((i % 1000, i // 1000, 1 + 331 * i) for i in range(3000))),
        "c40000.ron": clue_map(1000, "knight", ((i % 1000, i // 1000, 1 + 25 * i) for i in range(40000))),
        "c1m.ron": clue_map(1000, "knight", ((i % 1000, i // 1000, 1 + i) for i in range(1000000))),
        "bzW.ron": 'Puzzle(board: "2x2", piece: "%s")' % "".join(f"W{i}" for i in range(1, 80000)),
        "bzNN.ron": 'Puzzle(board: "2x2", piece: "%s")' % "".join(f"NN{i % 9 + 1}" for i in range(150000)),
        "name.ron": 'Puzzle(name: "%s", board: "8x8", piece: "knight")' % ("x" * 100000),
        "pic1.ron": picture(4000, 16000000),
        "pic125k.ron": picture(4000, 128),
        "none.ron": 'Puzzle(board: "4096x4096", piece: "leaper 5000 5000")',
        "rook.ron": 'Puzzle(board: "644x644", piece: "rook")',
        "queen.ron": 'Puzzle(board: "460x460", piece: "queen")',
    }
    for name, text in files.items():
        with open(os.path.join(d, name), "w") as f:
            f.write(text)


CASES = [
    ("1,000 clues, run", ["run", "c1000.ron", "--time-limit", "2"], None),
    ("3,000 clues, run", ["run", "c3000.ron", "--time-limit", "2"], None),
    ("40,000 clues, run", ["run", "c40000.ron", "--time-limit", "0.5"], None),
    ("1,000,000-clue map, check", ["check", "c1m.ron", "--time-limit", "0.5"], None),
    ("1,000,000-clue map, check, Ctrl-C at 1 s", ["check", "c1m.ron"], 1.0),
    ("silent standard input, run -", ["run", "-", "--time-limit", "1"], "stdin"),
    ("silent standard input, run -, Ctrl-C at 1 s", ["run", "-"], "stdin+1.0"),
    ("Betza W1..W79999, check", ["check", "bzW.ron", "--time-limit", "1"], None),
    ("Betza NN1..NN9 x 16,667, check", ["check", "bzNN.ron", "--time-limit", "1"], None),
    ("100,000-character name, --gif --png", ["run", "name.ron", "--gif", "g.gif", "--png", "g.png", "--time-limit", "3"], None),
    ("search GIF 64x64, --max-frames 100000", ["run", "--board", "64x64", "--search-gif", "s.gif", "--max-frames", "100000", "--time-limit", "3"], None),
    ("4000x4000 picture, 125,000 clues, run", ["run", "pic125k.ron", "--time-limit", "0.5"], None),
    ("4000x4000 picture, 1 clue, run", ["run", "pic1.ron", "--time-limit", "0.5"], None),
    ("no square with a move, 4096x4096, run", ["run", "none.ron", "--time-limit", "1"], None),
    ("rook 644x644, check", ["check", "rook.ron", "--time-limit", "1"], None),
    ("queen 460x460, count", ["count", "queen.ron", "--time-limit", "0.5"], None),
    ("Backtrack() on 4096x4096", ["run", "--board", "4096x4096", "--solver", "backtrack", "--time-limit", "15"], None),
]

CAP = 30.0


def once(engine, args, how, d):
    """Seconds to exit (from the start, or from the signal), and the exit code."""
    stdin = subprocess.DEVNULL
    reader = None
    if how and how.startswith("stdin"):
        reader, writer = os.pipe()
        stdin = reader
    p = subprocess.Popen([engine, *args, "--quiet"], cwd=d, stdin=stdin,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    start = time.monotonic()
    after = how if isinstance(how, float) else (float(how.split("+")[1]) if how and "+" in how else None)
    if after is not None:
        time.sleep(after)
        p.send_signal(signal.SIGINT)
        start = time.monotonic()
    try:
        code = p.wait(timeout=CAP)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        code = None
    took = time.monotonic() - start
    if reader is not None:
        os.close(reader)
        os.close(writer)
    for f in ("g.gif", "g.png", "s.gif"):
        try:
            os.remove(os.path.join(d, f))
        except FileNotFoundError:
            pass
    return took, code


def main():
    old, new = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    with tempfile.TemporaryDirectory() as d:
        inputs(d)
        print(f"load average {os.getloadavg()[0]:.2f}")
        for label, args, how in CASES:
            for _ in range(rounds):
                for name, engine in (("OLD", old), ("NEW", new)):
                    took, code = once(engine, args, how, d)
                    shown = f">{CAP:.0f} s" if code is None else f"{took:.2f} s, exit {code}"
                    print(f"{label} | {name} | {shown}", flush=True)
        print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
