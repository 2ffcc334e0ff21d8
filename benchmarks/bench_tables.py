"""Load on the console served by several workers on PostgreSQL: `furnace serve --workers 2` in its own processes
on a database of its own (made on the server of --db, FURNACE_BENCH_POSTGRES_URL or FURNACE_TEST_POSTGRES_URL —
scripts/with-postgres sets the last — and dropped afterwards), and this process as the tables: 20 tables of 5
players, each player signed in by her invite and streaming her table's live log, rolling from her sheet at a fixed
total rate across the tables (open loop). Reports the p99 of the time from a roll's sending to its arrival on every
live stream of its table (the streams sit on either worker, the roll is posted to either: LISTEN/NOTIFY carries
it), the p99 of a roll's answer, and the CPU the server's processes spend on 200 idle live streams (% of a core).
While it rolls it also reports whose the CPU was — the server's workers, PostgreSQL's backends (a server on this
machine) and this client's (the streams' readers and the rollers share the cores with them: each player rolls on
a raw keep-alive connection of her own and one thread reads every stream's socket, decoding only the sheet rolls'
lines — the phones are not on this machine) — per roll too, and PostgreSQL's transactions per roll: on a busy
machine these, not the latencies, compare two versions.

Run: scripts/with-postgres .venv/bin/python benchmarks/bench_tables.py [--tables 20] [--players 5] [--rate 50]
     [--seconds 10] [--idle 200] [--quick] [--profile FOLDER (py-spy, when installed)] [--server-log FILE]
Goal: p99 ≤ 50 ms from a roll to its table's streams at 50 rolls a second; 200 idle streams ≤ 5 % of a core.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from sqlalchemy import create_engine, make_url, text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_web import free_port, pct

GOAL_MS, IDLE_GOAL = 50.0, 5.0
# a player's idle connection is dropped before the server's keep-alive (uvicorn's 5 s) ends it: a roll sent on a
# connection the server is closing meets a reset
KEPT = httpx.Limits(keepalive_expiry=2.0)
URL_ENVS = ("FURNACE_BENCH_POSTGRES_URL", "FURNACE_TEST_POSTGRES_URL")


@contextmanager
def own_database(url: str) -> Iterator[str]:
    """A new database on the server of `url`, dropped afterwards."""
    base = make_url(url)
    name = f"furnace_bench_{os.getpid()}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@contextmanager
def served(db: str, workers: int, folder: Path, log: Path | None = None
           ) -> Iterator[tuple[str, str, subprocess.Popen[str]]]:
    """`furnace serve --workers N` on a free loopback port: its base URL, the sign-in link, the process."""
    port = free_port()
    command = [sys.executable, "-c", "import sys; from furnace.cli import main; sys.exit(main())",
               "--db", db, "serve", "--port", str(port), "--workers", str(workers),
               "--streams-per-address", "100000"]      # every stream of the benchmark comes from one address
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "FURNACE_CONFIG_DIR": str(folder / "config"),
           "FURNACE_DATA_DIR": str(folder / "data")}
    errors = log.open("w") if log is not None else subprocess.DEVNULL
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, text=True, env=env)
    try:
        link, deadline = "", time.monotonic() + 60
        while not link and time.monotonic() < deadline and proc.stdout is not None:
            found = re.search(r"http://\S+/signin\?token=\S+", proc.stdout.readline())
            link = found.group(0) if found else ""
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 180         # the workers start slowly on a busy machine
        while True:
            try:
                httpx.get(base + "/", timeout=10)
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        yield base, link, proc
    finally:
        proc.terminate()
        proc.wait(30)


def csrf(client: httpx.Client) -> httpx.Client:
    client.headers["X-CSRF-Token"] = client.cookies.get("furnace_csrf") or ""
    return client


def post(client: httpx.Client, path: str, body: dict[str, Any]) -> Any:
    """A write that waits out the rate limit (the referee's set-up writes more than its burst)."""
    while True:
        answer = client.post(path, json=body)
        if answer.status_code != 429:
            answer.raise_for_status()
            return answer.json()
        time.sleep(float(answer.headers.get("retry-after", "1")))


Player = tuple[httpx.Client, str, str, str]     # her client, her table, her character's id and name


def tables(base: str, link: str, n_tables: int, per_table: int) -> list[Player]:
    referee = httpx.Client(base_url=base, timeout=30)
    referee.get(link.replace(base, ""))
    csrf(referee)
    players: list[Player] = []
    for t in range(n_tables):
        name, names = f"t{t:02d}", [f"P{t}x{i}" for i in range(per_table)]
        post(referee, "/api/campaigns", {"name": name})
        post(referee, f"/api/campaigns/{name}/funnel", {"players": names, "per_player": 1})
        roster = referee.get(f"/api/campaigns/{name}").json()["roster"]
        for who in names:
            url = post(referee, f"/api/campaigns/{name}/invites", {"role": "player", "player": who})["url"]
            token = url.rsplit("/", 1)[-1]
            player = httpx.Client(base_url=base, timeout=30, limits=KEPT)
            player.get(f"/join/{token}")
            csrf(player).post("/api/join", json={"token": token}).raise_for_status()
            mine = next(m["id"] for m in roster if m["player"] == who)
            rolled = post(csrf(player), f"/api/campaigns/{name}/characters/{mine}/roll",
                          {"kind": "check", "luck": 0})
            players.append((player, name, mine, rolled["events"][0]["who"]))     # warm, and her character's name
    referee.close()
    return players


def cookie_header(client: httpx.Client) -> dict[str, str]:
    """A signed-in client's cookie and CSRF headers, for a raw connection of her own."""
    jar = dict(client.cookies.items())
    return {"Cookie": "; ".join(f"{k}={v}" for k, v in jar.items()), "X-CSRF-Token": jar.get("furnace_csrf", "")}


class Phone:
    """A player's rolls on a keep-alive connection of her own (http.client, not httpx: the phones are not on this
    machine, and a lighter client leaves the cores to the server it measures). A connection idle for IDLE seconds
    is dropped before the server's keep-alive (uvicorn's 5 s) ends it: a roll sent on a closing one meets a reset."""

    IDLE = 4.0

    def __init__(self, base: str, client: httpx.Client) -> None:
        parts = urlsplit(base)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.headers = {**cookie_header(client), "Content-Type": "application/json"}
        self.conn: http.client.HTTPConnection | None = None
        self.used = 0.0

    def post(self, path: str, body: bytes) -> int:
        if self.conn is not None and time.monotonic() - self.used > self.IDLE:
            self.conn.close()
            self.conn = None
        if self.conn is None:
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        try:
            self.conn.request("POST", path, body=body, headers=self.headers)
            answer = self.conn.getresponse()
            answer.read()
            return answer.status
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = None
            raise
        finally:
            self.used = time.monotonic()

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()


class Streams:
    """Live streams on raw sockets, all read by one thread (a selector): when each table's rolls arrived, by
    (table, character, her nth roll). Only the lines of a sheet roll are decoded (one thread and no HTTP client's
    machinery: the client's CPU competes with the server's)."""

    def __init__(self, base: str, stack: ExitStack) -> None:
        parts = urlsplit(base)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.arrived: dict[tuple[str, str, int], list[float]] = defaultdict(list)
        self.workers: dict[str, int] = defaultdict(int)
        self.lock = threading.Lock()
        self.selector = selectors.DefaultSelector()
        self.stopped = threading.Event()
        self.reader: threading.Thread | None = None
        stack.callback(self.close)

    def open(self, player: Player, counting: bool) -> None:
        client, table, _, _ = player
        sock = socket.create_connection((self.host, self.port), timeout=30)
        head = "".join(f"{k}: {v}\r\n" for k, v in cookie_header(client).items())
        sock.sendall(f"GET /api/campaigns/{table}/live HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n{head}"
                     "Accept: text/event-stream\r\n\r\n".encode())
        got = b""
        while b"\r\n\r\n" not in got:
            more = sock.recv(65536)
            if not more:
                raise ConnectionError("the live stream closed before its headers")
            got += more
        headers, rest = got.split(b"\r\n\r\n", 1)
        lines = headers.decode("latin-1").split("\r\n")
        if lines[0].split()[1] != "200":
            raise ConnectionError(f"the live stream was refused: {lines[0]}")
        worker = next((line.split(":", 1)[1].strip() for line in lines[1:]
                       if line.lower().startswith("x-furnace-worker:")), "?")
        self.workers[worker] += 1
        sock.setblocking(False)
        self.selector.register(sock, selectors.EVENT_READ, [table, rest, defaultdict(int), counting])
        if self.reader is None:
            self.reader = threading.Thread(target=self._read, daemon=True)
            self.reader.start()

    def _read(self) -> None:
        while not self.stopped.is_set():
            for key, _ in self.selector.select(timeout=0.2):
                now = time.perf_counter()
                sock, state = key.fileobj, key.data
                try:
                    data = sock.recv(65536)          # type: ignore[union-attr]
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if not data:
                    self.selector.unregister(sock)
                    continue
                if not state[3]:
                    continue                          # an idle stream: held open, its pings not read
                lines = (state[1] + data).split(b"\n")
                state[1] = lines.pop()
                for line in lines:
                    if line.startswith(b"data: {") and b'"sheet_roll"' in line:
                        who = str(json.loads(line[6:]).get("who", ""))
                        with self.lock:
                            self.arrived[(state[0], who, state[2][who])].append(now)
                        state[2][who] += 1

    def close(self) -> None:
        self.stopped.set()
        if self.reader is not None:
            self.reader.join(5)
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()                       # type: ignore[union-attr]
        self.selector.close()


def load(players: list[Player], base: str, rate: float, seconds: float
         ) -> tuple[dict[tuple[str, str, int], float], list[float], int]:
    """Open loop: roll i is sent at start + i/rate by player (i mod tables, then round the table), so each table
    rolls at an even pace; each player sends hers in order on her own connection (a thread each). When each roll
    answered was sent, by (table, character, her nth roll); each answer's latency; how many were not answered."""
    total, by_table = int(rate * seconds), defaultdict(list)
    for p in players:
        by_table[p[1]].append(p)
    order = [t for t in sorted(by_table)]
    sent: dict[tuple[str, str, int], float] = {}
    answers: list[float] = []
    failed: list[int] = []
    counts: dict[str, int] = defaultdict(int)
    lock = threading.Lock()
    start = time.perf_counter() + 0.3
    plans: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for i in range(total):
        table = by_table[order[i % len(order)]]
        player = table[(i // len(order)) % len(table)]
        plans[player[3]].append((i, counts[player[3]]))
        counts[player[3]] += 1
    body = json.dumps({"kind": "check", "luck": 0}).encode()    # no Luck spent: nothing waits for an answer

    def rolls(player: Player) -> None:
        client, table, mine, who = player
        phone = Phone(base, client)
        try:
            for i, nth in plans[who]:
                delay = start + i / rate - time.perf_counter()
                if delay > 0:
                    time.sleep(delay)
                at = time.perf_counter()
                try:
                    status = phone.post(f"/api/campaigns/{table}/characters/{mine}/roll", body)
                except (OSError, http.client.HTTPException):   # no answer in 30 s (a saturated server)
                    status = 0
                if status != 200:           # an error, or none: counted as missing
                    with lock:
                        failed.append(i)
                    continue
                took = (time.perf_counter() - at) * 1000
                with lock:
                    sent[(table, who, nth)] = at
                    answers.append(took)
        finally:
            phone.close()

    threads = [threading.Thread(target=rolls, args=(p,), daemon=True) for p in players if plans[p[3]]]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sent, answers, len(failed)


def family(pid: int) -> list[int]:
    """A process and its descendants (the server and its workers)."""
    pids, found = [pid], []
    while pids:
        p = pids.pop()
        found.append(p)
        try:
            children = Path(f"/proc/{p}/task/{p}/children").read_text().split()
        except OSError:
            children = []
        pids += [int(c) for c in children]
    return found


@contextmanager
def profiled(pid: int, folder: Path | None, seconds: float) -> Iterator[None]:
    """With a folder: py-spy (when installed) records each worker of the server while the block runs."""
    spy = Path(sys.executable).parent / "py-spy"
    if folder is None or not spy.exists():
        yield
        return
    folder.mkdir(parents=True, exist_ok=True)
    spies = [subprocess.Popen([str(spy), "record", "--nonblocking", "--gil", "--format", "raw",       # CPU: the GIL's
                               "-d", str(int(seconds) + 1), "-o", str(folder / f"worker-{p}.txt"), "-p", str(p)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for p in family(pid)[1:]]
    try:
        yield
    finally:
        for s in spies:
            s.wait(60)


def postmaster(db: str) -> int:
    """The PostgreSQL server's process (its CPU is its backends'), when it runs on this machine (0: not found)."""
    engine = create_engine(db)
    try:
        with engine.connect() as conn:
            folder = Path(str(conn.execute(text("SHOW data_directory")).scalar()))
        return int((folder / "postmaster.pid").read_text().split()[0])
    except Exception:          # not a superuser, or another machine's server: its CPU is not counted
        return 0
    finally:
        engine.dispose()


def committed(db: str) -> int:
    """The transactions the database has ended (committed or rolled back), as PostgreSQL counts them."""
    engine = create_engine(db)
    try:
        with engine.connect() as conn:
            time.sleep(1.0)                   # the backends' counts reach the statistics within a second
            conn.execute(text("SELECT pg_stat_clear_snapshot()"))
            return int(conn.execute(text("SELECT xact_commit + xact_rollback FROM pg_stat_database "
                                         "WHERE datname = current_database()")).scalar() or 0)
    finally:
        engine.dispose()


def cpu_seconds(pid: int) -> float:
    """User and system CPU of a process and its children (the workers; PostgreSQL's backends), in seconds, those
    that ended too (a parent's count of the children it waited for: a backend of a closed connection)."""
    total, ticks = 0.0, os.sysconf("SC_CLK_TCK")
    for p in family(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(f) for f in fields[11:15]) / ticks
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="a PostgreSQL URL (its server gets a database of the benchmark's own)")
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--players", type=int, default=5, help="players at each table")
    parser.add_argument("--rate", type=float, default=50.0, help="rolls a second, all tables together")
    parser.add_argument("--seconds", type=float, default=10.0, help="how long the rolls go on (at most 60)")
    parser.add_argument("--idle", type=int, default=200, help="idle live streams whose CPU is measured")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--profile", type=Path, help="a folder: py-spy records each worker while it rolls")
    parser.add_argument("--server-log", type=Path, help="a file: the server's own output (its errors)")
    parser.add_argument("--quick", action="store_true", help="2 tables of 2, 10 rolls/s for 1 s, 8 idle streams")
    args = parser.parse_args()
    if args.quick:
        args.tables, args.players, args.rate, args.seconds, args.idle = 2, 2, 10.0, 1.0, 8
    url = args.db or next((os.environ[e] for e in URL_ENVS if os.environ.get(e)), "")
    if not url.startswith("postgresql"):
        print(f"bench_tables needs PostgreSQL: --db postgresql+psycopg://… or {URL_ENVS[0]} (or run it under "
              "scripts/with-postgres)", file=sys.stderr)
        return 2
    seconds = min(args.seconds, 60.0)
    with tempfile.TemporaryDirectory() as folder, own_database(url) as db, \
            served(db, args.workers, Path(folder), args.server_log) as (base, link, proc):
        players = tables(base, link, args.tables, args.players)
        with ExitStack() as stack:
            streams = Streams(base, stack)
            for player in players:
                streams.open(player, counting=True)
            time.sleep(0.5)
            postgres = postmaster(db)
            transactions_at = committed(db)
            server_at, client_at, wall_at = cpu_seconds(proc.pid), time.process_time(), time.perf_counter()
            database_at = cpu_seconds(postgres) if postgres else 0.0
            with profiled(proc.pid, args.profile, seconds):
                sent, answers, unanswered = load(players, base, args.rate, seconds)
            wall = time.perf_counter() - wall_at
            server_cpu = 100 * (cpu_seconds(proc.pid) - server_at) / wall
            client_cpu = 100 * (time.process_time() - client_at) / wall
            database_cpu = 100 * (cpu_seconds(postgres) - database_at) / wall if postgres else float("nan")
            for _ in range(300):                  # the last rolls' way to the streams (at most 30 s)
                with streams.lock:
                    reached = {key: max(times) for key, times in streams.arrived.items()
                               if len(times) >= args.players}
                if len(reached) >= len(sent):
                    break
                time.sleep(0.1)
            latencies = [(reached[key] - at) * 1000 for key, at in sent.items() if key in reached]
            missing = len(sent) - len(latencies) + unanswered
            transactions = (committed(db) - transactions_at) / max(1, len(sent))
            p99 = pct(latencies, 99) if latencies else float("nan")
            verdict = "meets" if p99 <= GOAL_MS and not missing else "misses"
            print(f"{args.tables} tables × {args.players} players, {len(sent)} rolls at {args.rate:g}/s for "
                  f"{seconds:g} s across {args.workers} workers on PostgreSQL (streams per worker: "
                  f"{sorted(streams.workers.values())})")
            print(f"a roll to every live stream of its table: p50 {statistics.median(latencies):.1f} ms, "
                  f"p99 {p99:.1f} ms, {missing} not reaching all ({verdict} the goal p99 ≤ {GOAL_MS:g} ms)")
            print(f"a roll's answer: p50 {statistics.median(answers):.1f} ms, p99 {pct(answers, 99):.1f} ms "
                  f"({unanswered} not answered in 30 s); PostgreSQL transactions per roll: {transactions:.1f}")
            print(f"CPU while rolling: the server {server_cpu:.0f} % of a core, PostgreSQL {database_cpu:.0f} %, this "
                  f"client {client_cpu:.0f} % (of the machine's {os.cpu_count()} cores); per roll: the server "
                  f"{server_cpu * wall * 10 / len(sent):.1f} ms, PostgreSQL {database_cpu * wall * 10 / len(sent):.1f} "
                  f"ms, the client {client_cpu * wall * 10 / len(sent):.1f} ms")
        with ExitStack() as stack:
            streams = Streams(base, stack)
            for i in range(args.idle):
                streams.open(players[i % len(players)], counting=False)
            time.sleep(1.0)                       # every stream past its first look at the log
            window = 2.0 if args.quick else 20.0
            before, at = cpu_seconds(proc.pid), time.perf_counter()
            time.sleep(window)
            share = 100 * (cpu_seconds(proc.pid) - before) / (time.perf_counter() - at)
            verdict = "meets" if share <= IDLE_GOAL else "misses"
            print(f"{args.idle} idle live streams over {args.workers} workers: {share:.1f} % of a core "
                  f"({verdict} the goal ≤ {IDLE_GOAL:g} %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
