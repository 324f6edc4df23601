#!/usr/bin/env python3
"""Slow clients against the studio: how long an ordinary request waits behind them.

Usage: python3 benches/slow_clients.py ENGINE [ENGINE ...] [--slow N] [--rounds R]

For each engine and round: `engine serve --port 0` is started, pinned to one core
(`taskset`) and frozen (SIGSTOP) while N slow clients connect (half send a body's
first bytes and never the rest, half a head that never ends) and then one ordinary
client asks for the puzzle list; the server is let go (SIGCONT) and the time until
the ordinary client's answer is printed (or "none in 60 s"). Freezing the server makes
every connection arrive at once, the burst a pool of readers lets the slow ones take.
"""
import re
import signal
import socket
import subprocess
import sys
import time


def once(engine, slow_count):
    p = subprocess.Popen([engine, "serve", "--port", "0"], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    try:
        m = re.search(r"http://([\d.]+):(\d+)/", p.stdout.readline())
        host, port = m.group(1), int(m.group(2))
        subprocess.run(["taskset", "-a", "-p", "-c", "0", str(p.pid)],
                       stdout=subprocess.DEVNULL, check=False)
        p.send_signal(signal.SIGSTOP)
        slow = []
        for i in range(slow_count):
            s = socket.create_connection((host, port))
            if i % 2 == 0:
                s.sendall(f"POST /api/check HTTP/1.1\r\nHost: {host}:{port}\r\n"
                          "Content-Length: 5000\r\n\r\nPuzzle(".encode())
            else:
                s.sendall(f"GET /api/puzzles HTTP/1.1\r\nHost: {host}:{port}\r\n".encode())
            slow.append(s)
        c = socket.create_connection((host, port))
        c.sendall(f"GET /api/puzzles HTTP/1.1\r\nHost: {host}:{port}\r\n"
                  "Connection: close\r\n\r\n".encode())
        began = time.monotonic()
        p.send_signal(signal.SIGCONT)
        c.settimeout(60)
        try:
            head = c.recv(64)
            took = time.monotonic() - began
            status = head.split(b"\r\n")[0].decode()
            return f"{took * 1000:.1f} ms ({status})"
        except TimeoutError:
            return "none in 60 s"
        finally:
            for s in slow:
                s.close()
            c.close()
    finally:
        p.send_signal(signal.SIGCONT)
        p.send_signal(signal.SIGINT)
        p.wait()


def main():
    args = sys.argv[1:]
    slow_count, rounds, engines = 20, 3, []
    while args:
        a = args.pop(0)
        if a == "--slow":
            slow_count = int(args.pop(0))
        elif a == "--rounds":
            rounds = int(args.pop(0))
        else:
            engines.append(a)
    for r in range(rounds):
        for e in engines:
            print(f"round {r + 1}: {e}: {slow_count} slow clients, the next request answered in {once(e, slow_count)}", flush=True)


if __name__ == "__main__":
    main()
