#!/usr/bin/env python3
"""The engine against the plainest C that does the same: the Warnsdorff walk, the naive
backtracker, the start-up, and Rosetta Code's Hidato and Hopido solvers.

Usage: python3 benches/metal.py ENGINE [ENGINE ...] [--peers DIR] [--rounds R]
                                [--only warnsdorff,naive,startup,clues] [--sizes 8,100,...]

The peers (measurement only; their code is not part of the project) are built from
DIR (default: $ENGINE_PEERS, else `shared/peers` in a folder above the repository)
into target/metal-peers/ with the build lines of their README: `rosetta/` (the C
Warnsdorff walk, the Hidato C solver and its second example, the Hopido C++ solver) and
`naive-replica/` (a C replica of the naive JavaScript search). A group whose peer is
missing is skipped with a message. A tiny C program (prints a line) is built beside
them as the start-up peer, and a timing wrapper for the C walk, which calls its `main`
between two clock readings (so the walk's own time is known apart from its process).

Each case runs every program once per round, in an order that turns round every round
(whole processes, paired and alternating), R rounds (default 11); the figures are
medians: wall time of the whole process (and its CPU time, user + system), and where a
program times itself, that time. Ratios are the engine's over the peer's (below 1: the
engine is faster). Every engine tour is checked: the JSON status is `found` with a tour
of every square (the engine verifies each tour itself before printing it), the naive
search's node count must be 24,105,743 on both sides, and the Hidato and Hopido
answers are read back from the text.

- warnsdorff: `kt N` (Rosetta's C walk: open, from the first corner that works, ties in
  move order) against `engine run FILE --quiet --format json > OUT` for an N x N knight
  puzzle with `solver: Warnsdorff()` (open, Lookahead), and the closed and `First`
  variants; solver time per square from the JSON stats against the C walk's time per
  square; whole process against whole process.
- naive: `kt_replica naive 8 0 1` against `engine run puzzles/js-order8x8.ron`
  (`Backtrack(order: Given)`): time per node, both timed by themselves.
- startup: a tiny C program's process against `engine --version` and `engine run
  puzzles/holed4x4.ron`; beside them the floor: the same line printed by the C program
  statically linked and by a Rust program (dynamically and statically linked).
- clues: Rosetta's Hidato (8x8, and 50x3) and Hopido against `engine run` of
  puzzles/rosetta-hidato.ron, rosetta-hidato50x3.ron and rosetta-hopido.ron.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "target" / "metal-peers"
NAIVE_NODES = 24_105_743

# Calls the walk's `main` (renamed `kt_main`) between two clock readings.
TIMER_C = r"""
#include <stdio.h>
#include <time.h>
int kt_main(int, char **);
int main(int c, char **v) {
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  int r = kt_main(c, v);
  clock_gettime(CLOCK_MONOTONIC, &b);
  fflush(stdout);
  fprintf(stderr, "walk_ns %lld\n",
          (long long)(b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec));
  return r;
}
"""

HELLO_C = '#include <stdio.h>\nint main(void) { puts("hello"); return 0; }\n'
HELLO_RS = 'fn main() { println!("hello"); }\n'


def find_peers(given):
    if given:
        return Path(given)
    if os.environ.get("ENGINE_PEERS"):
        return Path(os.environ["ENGINE_PEERS"])
    for up in [ROOT, *ROOT.parents]:
        if (up / "shared" / "peers").is_dir():
            return up / "shared" / "peers"
    return None


def build(peers):
    """The peers' binaries by name (those that built), and why the others did not."""
    BUILD.mkdir(parents=True, exist_ok=True)
    cc, cxx = shutil.which("gcc") or shutil.which("cc"), shutil.which("g++")
    out, missing = {}, []
    (BUILD / "timer.c").write_text(TIMER_C)
    (BUILD / "hello.c").write_text(HELLO_C)
    (BUILD / "hello.rs").write_text(HELLO_RS)
    flags = ["-O2", "-march=native"]
    rustc = shutil.which("rustc")
    jobs = {
        "hello": [[cc, *flags, str(BUILD / "hello.c"), "-o", "{out}"]],
        # The floor of a start-up: the same line printed by a statically
        # linked C program and by Rust's standard library, linked both ways.
        "hello_static": [[cc, *flags, "-static", str(BUILD / "hello.c"), "-o", "{out}"]],
        "hello_rust": [[rustc, "-O", str(BUILD / "hello.rs"), "-o", "{out}"]],
        "hello_rust_static": [[rustc, "-O", "-C", "target-feature=+crt-static",
                               str(BUILD / "hello.rs"), "-o", "{out}"]],
    }
    if peers:
        r, n = peers / "rosetta", peers / "naive-replica"
        jobs.update({
            "kt": [[cc, *flags, str(r / "knights-tour/knights-tour-bench.c"), "-o", "{out}"]],
            # The same walk with its main renamed, called by the timer.
            "kt_timed": [[cc, *flags, "-Dmain=kt_main", "-c",
                          str(r / "knights-tour/knights-tour-bench.c"), "-o", "{out}.o"],
                         [cc, *flags, str(BUILD / "timer.c"), "{out}.o", "-o", "{out}"]],
            "hidato": [[cc, *flags, str(r / "hidato/hidato.orig.c"), "-o", "{out}"]],
            "hidato_e2": [[cc, *flags, str(r / "hidato/hidato-e2.c"), "-o", "{out}"]],
            "hopido": [[cxx, *flags, str(r / "hopido/hopido-bench.cpp"), "-o", "{out}"]],
            "kt_replica": [[cc, *flags, str(n / "kt_replica.c"), "-o", "{out}"]],
        })
    for name, steps in jobs.items():
        target = BUILD / name
        ok = True
        for step in steps:
            cmd = [a.replace("{out}", str(target)) for a in step]
            if None in cmd or not all(Path(a).exists() for a in cmd
                                      if a.endswith((".c", ".cpp", ".rs"))):
                ok = False
                break
            if subprocess.run(cmd, capture_output=True).returncode != 0:
                ok = False
                break
        if ok:
            out[name] = str(target)
        else:
            missing.append(name)
    return out, missing


def spawn(argv, out_path):
    """Runs argv (from the repository's root) with stdout to out_path and stderr to
    out_path + '.err': wall seconds, CPU seconds (user + system) and the exit code.
    (`subprocess` starts a child with vfork, which costs about 0.1 ms; a shell's fork
    or `os.posix_spawn` were seen to add 2-3 ms of waiting on this machine.)"""
    with open(out_path, "wb") as out, open(str(out_path) + ".err", "wb") as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(argv, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_utime + usage.ru_stime, p.returncode


class Case:
    """One comparison: programs (label -> argv) run alternately; `read(label, out, err)`
    returns the program's own time (seconds) or None, and checks its answer."""

    def __init__(self, name, programs, read=None, codes=(0,)):
        self.name, self.programs, self.read = name, programs, read or (lambda *a: None)
        self.codes = codes
        self.gave_up = {}

    def run(self, rounds, tmp):
        labels = list(self.programs)
        walls = {k: [] for k in labels}
        cpus = {k: [] for k in labels}
        owns = {k: [] for k in labels}
        for r in range(rounds):
            order = labels if r % 2 == 0 else labels[::-1]
            for k in order:
                out = Path(tmp) / "out"
                wall, cpu, code = spawn(self.programs[k], out)
                text = out.read_text(errors="replace")
                err = Path(str(out) + ".err").read_text(errors="replace")
                if code not in self.codes:
                    raise SystemExit(f"{self.name}: {k} exited {code}: {err[-500:]}")
                if code != 0:
                    # Gave up (exit 3): timed, but no tour to read.
                    self.gave_up[k] = self.gave_up.get(k, 0) + 1
                    own = None
                else:
                    own = self.read(k, text, err)
                walls[k].append(wall)
                cpus[k].append(cpu)
                if own is not None:
                    owns[k].append(own)
        med = lambda xs: statistics.median(xs) if xs else None
        return ({k: med(v) for k, v in walls.items()}, {k: med(v) for k, v in cpus.items()},
                {k: med(v) for k, v in owns.items()})


def ms(x):
    return "—" if x is None else f"{x * 1e3:.3f} ms"


def report(name, walls, cpus, owns, peer, per=None, unit=None):
    """Prints each program's medians and its ratio to `peer`. `per` divides the own
    times (squares, nodes) into a figure in ns per `unit`."""
    print(f"\n{name}")
    for k in walls:
        line = f"  {k:<34} whole {ms(walls[k])} (cpu {ms(cpus[k])})"
        if k != peer:
            line += f"  ratio {walls[k] / walls[peer]:.2f} (cpu {cpus[k] / cpus[peer]:.2f})"
        if owns.get(k) is not None:
            if per:
                line += f" | own {owns[k] * 1e9 / per:.1f} ns per {unit}"
                if k != peer and owns.get(peer) is not None:
                    line += f"  ratio {owns[k] / owns[peer]:.2f}"
            else:
                line += f" | own {ms(owns[k])}"
        print(line, flush=True)


def engine_json(expect_squares):
    def read(label, text, err):
        if label.startswith("C"):
            for line in err.splitlines():
                if line.startswith("walk_ns"):
                    return int(line.split()[1]) * 1e-9
            return None
        v = json.loads(text)
        assert v["status"] == "found", (label, v["status"])
        tour = v["squares"]
        assert len(tour) == expect_squares, (label, len(tour))
        return v["stats"]["time_ms"] * 1e-3
    return read


def warnsdorff(engines, peers, sizes, rounds, tmp):
    if "kt_timed" not in peers:
        print("\nwarnsdorff: skipped (the C walk did not build or is not there)")
        return
    variants = [("open, Lookahead", "Open", "Lookahead"), ("closed, Lookahead", "Closed", "Lookahead"),
                ("open, First", "Open", "First"), ("closed, First", "Closed", "First")]
    for n in sizes:
        for vname, tour, tie in variants:
            if tour == "Closed" and n % 2:
                continue
            f = Path(tmp) / f"w{n}{tour}{tie}.ron"
            f.write_text(f'Puzzle(name: "Knight {n}x{n}", board: "{n}x{n}", piece: "knight", '
                         f'tour: {tour}, solver: Warnsdorff(tie_break: {tie}))\n')
            progs = {"C walk (Rosetta)": [peers["kt_timed"], str(n)]}
            for i, e in enumerate(engines):
                progs[f"engine{i + 1 if len(engines) > 1 else ''}"] = [
                    e, "run", str(f), "--quiet", "--format", "json"]
            case = Case(f"warnsdorff {n}x{n} {vname}", progs, engine_json(n * n), codes=(0, 3))
            w, c, o = case.run(rounds, tmp)
            report(f"Warnsdorff {n}x{n}, {vname} (C: open, ties in move order)", w, c, o,
                   "C walk (Rosetta)", per=n * n, unit="square")
            for k, times in case.gave_up.items():
                print(f"  {k} gave up (exit 3) in {times} of {rounds} runs")


def naive(engines, peers, rounds, tmp):
    if "kt_replica" not in peers:
        print("\nnaive: skipped (the C replica did not build or is not there)")
        return

    def read(label, text, err):
        if label.startswith("C"):
            v = json.loads(text.splitlines()[0])
            assert v["cell_visits"] == NAIVE_NODES and v["check"] == "ok", v
            return v["ms"] * 1e-3
        v = json.loads(text)
        assert v["status"] == "found" and v["stats"]["nodes"] == NAIVE_NODES, v["stats"]
        return v["stats"]["time_ms"] * 1e-3

    progs = {"C replica": [peers["kt_replica"], "naive", "8", "0", "1"]}
    for i, e in enumerate(engines):
        progs[f"engine{i + 1 if len(engines) > 1 else ''}"] = [
            e, "run", "puzzles/js-order8x8.ron", "--quiet", "--format", "json"]
    w, c, o = Case("naive", progs, read).run(rounds, tmp)
    report("naive 8x8 search from (0,1), Backtrack(order: Given), 24,105,743 nodes each", w, c, o,
           "C replica", per=NAIVE_NODES, unit="node")


def startup(engines, peers, rounds, tmp):
    progs = {"C hello": [peers["hello"]]}
    for name, label in [("hello_static", "C hello, static"), ("hello_rust", "Rust hello"),
                        ("hello_rust_static", "Rust hello, static")]:
        if name in peers:
            progs[label] = [peers[name]]
    for i, e in enumerate(engines):
        tag = f"engine{i + 1 if len(engines) > 1 else ''}"
        progs[f"{tag} --version"] = [e, "--version"]
        progs[f"{tag} run holed4x4"] = [e, "run", "puzzles/holed4x4.ron"]

    w, c, o = Case("startup", progs).run(rounds * 3, tmp)
    report("start-up: whole processes", w, c, o, "C hello")


def clues(engines, peers, rounds, tmp):
    cases = [
        ("Hidato 8x8 (Rosetta's first example)", "hidato", "puzzles/rosetta-hidato.ron", [],
         "Found an open tour of 40 squares"),
        ("Hidato 50x3 (Rosetta's second example)", "hidato_e2", "puzzles/rosetta-hidato50x3.ron",
         ["--grid"], "Found an open tour of 74 squares"),
        ("Hopido (Rosetta's)", "hopido", "puzzles/rosetta-hopido.ron", [],
         "Found an open tour of 27 squares"),
    ]
    for name, peer, puzzle, extra, found in cases:
        if peer not in peers:
            print(f"\n{name}: skipped (the peer did not build or is not there)")
            continue
        label = "C++ solver" if peer == "hopido" else "C solver"
        progs = {label: [peers[peer]]}
        for i, e in enumerate(engines):
            progs[f"engine{i + 1 if len(engines) > 1 else ''}"] = [e, "run", puzzle, *extra]

        def read(k, text, err, found=found, label=label):
            if k != label:
                assert found in text, text[:300]
            return None

        w, c, o = Case(name, progs, read).run(rounds * 3, tmp)
        report(f"{name}: whole processes, text output", w, c, o, label)


def main():
    args = sys.argv[1:]
    opts = {}
    engines = []
    i = 0
    while i < len(args):
        if args[i] in ("--peers", "--rounds", "--only", "--sizes"):
            opts[args[i]] = args[i + 1]
            i += 2
        else:
            engines.append(os.path.abspath(args[i]))
            i += 1
    if not engines:
        raise SystemExit(__doc__)
    rounds = int(opts.get("--rounds", 11))
    only = opts.get("--only", "warnsdorff,naive,startup,clues").split(",")
    sizes = [int(s) for s in opts.get("--sizes", "8,100,200,500,1000").split(",")]
    peer_dir = find_peers(opts.get("--peers"))
    if peer_dir is None or not peer_dir.is_dir():
        print("no peers found (give --peers DIR or set ENGINE_PEERS): only the start-up "
              "against a tiny C program is measured")
        peer_dir = None
    peers, missing = build(peer_dir)
    if missing:
        print("not built:", ", ".join(missing))
    print(f"engines: {' '.join(engines)}; peers from {peer_dir}; {rounds} rounds; "
          f"load average {os.getloadavg()[0]:.2f}; {time.strftime('%Y-%m-%d %H:%M')}")
    with tempfile.TemporaryDirectory() as tmp:
        if "startup" in only:
            startup(engines, peers, rounds, tmp)
        if "clues" in only:
            clues(engines, peers, rounds, tmp)
        if "naive" in only:
            naive(engines, peers, rounds, tmp)
        if "warnsdorff" in only:
            warnsdorff(engines, peers, sizes, rounds, tmp)
    print(f"\nload average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
