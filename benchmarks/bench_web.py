"""The page's answers (issue 37): the latency of its own HTTP endpoints under load.

Starts ``crib-analyze serve`` as a user does (a separate process, warmed up), then 20
concurrent clients, each on its own connection, send the default analyses in turn:
``/api/discard`` (a random six-card hand, a random role), ``/api/play`` (a position of
the play) and ``/api/odds`` (random scores), for ``--seconds`` seconds. Prints the
median and the 95th percentile of each endpoint's time from request to answer, beside
the baseline of the same process answering its page (``GET /``: the HTTP and the
server, no analysis). The goal: a median of at most 100 ms for the default analyses.

Run from the repository root::

    .venv/bin/python benchmarks/bench_web.py [--clients 20] [--seconds 20]
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import socket
import statistics
import subprocess
import sys
import threading
import time

RANKS, SUITS = "A23456789TJQK", "CDHS"
PLAYS = [
    {"seat": "pone", "cards": "7C 8D 2C", "starter": "5H", "played": "3D 10S"},
    {"seat": "dealer", "cards": "5C 9D KS 2H", "starter": "4D", "played": "7H"},
    {"seat": "pone", "cards": "KC 2S", "starter": "9H", "played": "10H 5S 7C 6D"},
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def request(rng: random.Random) -> tuple[str, str, dict[str, object] | None]:
    kind = rng.choice(["discard", "play", "odds", "page"])
    if kind == "discard":
        deck = [r + s for r in RANKS for s in SUITS]
        hand = " ".join(rng.sample(deck, 6))
        return kind, "/api/discard", {"cards": hand, "role": rng.choice(["dealer", "pone"])}
    if kind == "play":
        return kind, "/api/play", rng.choice(PLAYS)
    if kind == "odds":
        scores = [rng.randrange(60, 121), rng.randrange(60, 121)]
        return kind, "/api/odds", {"scores": scores, "dealer": rng.random() < 0.5}
    return kind, "/", None


def client(port: int, seed: int, until: float, times: dict[str, list[float]]) -> None:
    rng = random.Random(seed)
    conn = http.client.HTTPConnection("localhost", port, timeout=60)
    while time.time() < until:
        kind, path, body = request(rng)
        start = time.perf_counter()
        if body is None:
            conn.request("GET", path)
        else:
            conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        answer = conn.getresponse()
        answer.read()
        took = time.perf_counter() - start
        if answer.status != 200:
            raise SystemExit(f"{path} answered {answer.status}")
        times[kind].append(took)
    conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "crib_analyze", "serve", "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        assert server.stdout is not None
        server.stdout.readline()  # warmed up and serving
        times: dict[str, list[float]] = {k: [] for k in ("discard", "play", "odds", "page")}
        until = time.time() + args.seconds
        threads = [
            threading.Thread(target=client, args=(port, seed, until, times))
            for seed in range(args.clients)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        server.terminate()
        server.wait(10)
    print(f"{args.clients} concurrent clients for {args.seconds:g} s, one server process")
    print(f"{'endpoint':<14} {'requests':>8} {'median ms':>10} {'p95 ms':>8}")
    for kind, took in times.items():
        if not took:
            continue
        ms = sorted(1000 * t for t in took)
        p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
        name = "GET / (base)" if kind == "page" else f"/api/{kind}"
        print(f"{name:<14} {len(ms):>8} {statistics.median(ms):>10.1f} {p95:>8.1f}")
    print(f"reproduce: {sys.executable} benchmarks/bench_web.py --clients {args.clients} "
          f"--seconds {args.seconds:g}")  # fmt: skip


if __name__ == "__main__":
    main()
