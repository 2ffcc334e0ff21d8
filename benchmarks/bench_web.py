"""Load on the table console: `furnace serve` in its own process on a temp SQLite database (loopback only), and
this process as the table: 50 players, each signed in with her own invite, rolling from their sheets at a fixed
total rate (open loop: a roll is sent when its time comes, whether or not the earlier ones were answered), for a
bounded time. Reports p50/p99 of a roll's answer; with --find, the highest rate (of a few steps) at which p99 stays
under 100 ms; and the SSE fan-out: the time from a roll to its arrival on every one of N connected players' live
streams.

Run: .venv/bin/python benchmarks/bench_web.py [--rate 50] [--seconds 10] [--players 50] [--fanout 100] [--find]
     [--sync full|normal]
Goal: p99 ≤ 20 ms for a roll on SQLite at 50 rolls a second.
"""

from __future__ import annotations

import argparse
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import httpx

GOAL_MS = 20.0
STEPS = (50, 100, 200, 400)          # rates tried by --find, each for the same bounded time


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def served(folder: Path, sync: str = "full") -> Iterator[tuple[str, str]]:
    """`furnace serve` on a free loopback port (SQLite syncing as `sync` says): its base URL and the
    referee's sign-in link."""
    port = free_port()
    command = [sys.executable, "-c", "import sys; from furnace.cli import main; sys.exit(main())",
               "--db", str(folder / "bench.db"), "serve", "--port", str(port),
               "--streams-per-address", "1000"]     # every stream of the benchmark comes from one address
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1", "FURNACE_SQLITE_SYNC": sync})
    try:
        link, deadline = "", time.monotonic() + 30
        while not link and time.monotonic() < deadline and proc.stdout is not None:
            found = re.search(r"http://\S+/signin\?token=\S+", proc.stdout.readline())
            link = found.group(0) if found else ""
        base = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                httpx.get(base + "/", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.05)
        yield base, link
    finally:
        proc.terminate()
        proc.wait(10)


def signed(client: httpx.Client) -> httpx.Client:
    client.get("/")
    client.headers["X-CSRF-Token"] = client.cookies.get("furnace_csrf") or ""
    return client


def table(base: str, link: str, players: int) -> tuple[httpx.Client, list[tuple[httpx.Client, str]]]:
    """The referee, a campaign with one peasant per player, and each player signed in by her invite."""
    referee = httpx.Client(base_url=base, timeout=10)
    referee.get(link.replace(base, ""))
    signed(referee)                               # the CSRF cookie is a new one at sign-in
    names = [f"P{i}" for i in range(players)]
    referee.post("/api/campaigns", json={"name": "bench"}).raise_for_status()
    for at in range(0, players, 20):                            # a funnel takes 20 players at a time
        referee.post("/api/campaigns/bench/funnel", json={"players": names[at:at + 20], "per_player": 1}
                     ).raise_for_status()
    roster = referee.get("/api/campaigns/bench").json()["roster"]
    out = []
    for name in names:
        url = referee.post("/api/campaigns/bench/invites", json={"role": "player", "player": name}).json()["url"]
        token = url.rsplit("/", 1)[-1]
        player = httpx.Client(base_url=base, timeout=10)
        player.get(f"/join/{token}")
        player.headers["X-CSRF-Token"] = player.cookies.get("furnace_csrf") or ""
        player.post("/api/join", json={"token": token}).raise_for_status()
        player.headers["X-CSRF-Token"] = player.cookies.get("furnace_csrf") or ""     # a new one at sign-in
        mine = next(m["id"] for m in roster if m["player"] == name)
        out.append((player, mine))
    return referee, out


def load(players: list[tuple[httpx.Client, str]], rate: float, seconds: float) -> list[float]:
    """Open loop: roll i is sent at start + i/rate by player i mod N; the latency of each answer (ms)."""
    total = int(rate * seconds)
    latencies: list[float] = []
    lock = threading.Lock()
    start = time.perf_counter() + 0.2

    def one(i: int) -> None:
        client, who = players[i % len(players)]
        delay = start + i / rate - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        sent = time.perf_counter()
        answer = client.post(f"/api/campaigns/bench/characters/{who}/roll",      # luck 0: no roll waits for her
                             json={"kind": "check", "dc": 12, "luck": 0})        # Luck answer (campaign.luck_seen)
        took = (time.perf_counter() - sent) * 1000
        answer.raise_for_status()
        with lock:
            latencies.append(took)

    with ThreadPoolExecutor(max_workers=len(players)) as pool:
        list(pool.map(one, range(total)))
    return latencies


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def fanout(base: str, referee: httpx.Client, players: list[tuple[httpx.Client, str]], n: int) -> float:
    """Time (ms) from posting a roll to its arrival on all `n` players' live streams."""
    ready, arrived = threading.Barrier(n + 1, timeout=30), []
    lock, marker = threading.Lock(), f"fanout-{time.time_ns()}"

    def listen(i: int) -> None:
        client, _ = players[i % len(players)]
        with httpx.Client(base_url=base, cookies=client.cookies, timeout=30) as http, \
                http.stream("GET", "/api/campaigns/bench/live") as stream:
            ready.wait()
            for line in stream.iter_lines():
                if marker in line:
                    with lock:
                        arrived.append(time.perf_counter())
                    return

    threads = [threading.Thread(target=listen, args=(i,), daemon=True) for i in range(n)]
    for t in threads:
        t.start()
    ready.wait()
    time.sleep(0.5)                       # every stream past its first look at the log
    sent = time.perf_counter()
    referee.post("/api/campaigns/bench/roll", json={"expression": "d20", "label": marker}).raise_for_status()
    for t in threads:
        t.join(30)
    if len(arrived) < n:
        raise SystemExit(f"only {len(arrived)} of {n} streams got the roll")
    return (max(arrived) - sent) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=50.0, help="rolls a second, all players together")
    parser.add_argument("--seconds", type=float, default=10.0, help="how long (at most 60)")
    parser.add_argument("--players", type=int, default=50, help="players rolling (at most 200)")
    parser.add_argument("--fanout", type=int, default=100, help="live streams for the fan-out (0: skip; at most 200)")
    parser.add_argument("--find", action="store_true", help="also the highest rate of a few with p99 < 100 ms")
    parser.add_argument("--sync", choices=("full", "normal"), default="full",
                        help="FURNACE_SQLITE_SYNC for the server (full: a disk sync at every roll)")
    args = parser.parse_args()
    seconds, players_n = min(args.seconds, 60.0), max(1, min(args.players, 200))
    with tempfile.TemporaryDirectory() as folder, served(Path(folder), args.sync) as (base, link):
        referee, players = table(base, link, players_n)
        load(players, args.rate, 2 * players_n / args.rate)     # warm: every player's connection open, caches filled
        latencies = load(players, args.rate, seconds)
        p50, p99 = statistics.median(latencies), pct(latencies, 99)
        verdict = "meets" if p99 <= GOAL_MS else "misses"
        print(f"{len(latencies)} rolls by {players_n} players at {args.rate:g}/s for {seconds:g} s, "
              f"synchronous={args.sync}: "
              f"p50 {p50:.1f} ms, p99 {p99:.1f} ms ({verdict} the goal p99 ≤ {GOAL_MS:g} ms)")
        if args.find:
            best = 0.0
            for rate in STEPS:
                got = load(players, rate, min(seconds, 5.0))
                print(f"  at {rate}/s: p50 {statistics.median(got):.1f} ms, p99 {pct(got, 99):.1f} ms")
                if pct(got, 99) >= 100:
                    break
                best = rate
            print(f"highest rate tried with p99 < 100 ms: {best:g} rolls/s")
        if args.fanout:
            n = min(args.fanout, 200)
            print(f"SSE fan-out: a roll reached all {n} live streams in {fanout(base, referee, players, n):.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
