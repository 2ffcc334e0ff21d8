"""More than one worker: `furnace serve --workers 2` on the test PostgreSQL, as a real process. A roll posted to one
worker reaches a player streaming from the other (LISTEN/NOTIFY), a write by the CLI reaches a stream too, and
a session's stream cap holds across the two (counted in the database). On SQLite more than one worker is refused.

Each worker names itself in X-Furnace-Worker; a new connection is opened until it reaches the worker wanted (the
kernel hands each one to either). No test here reads a clock: every wait is bounded by a count or a generous
time-out for a busy machine.
"""

from __future__ import annotations

import json
import os
import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from furnace.cli.app import main
from tests.store.conftest import clean_postgres, postgres_url
from tests.web.live_server import free_port, wait_for

# servers of two worker processes each: the whole run only (FURNACE_SUITE=full, CI)
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
BRAKKA = ROOT / "examples" / "characters" / "brakka.json"
C = "/api/campaigns/keep"
TRIES = 400          # new connections tried to reach a given worker (the kernel picks; each is as likely)
WAIT = 120.0         # a generous wait for an event on a busy machine (a bound, never asserted)


@pytest.fixture
def pg(request: pytest.FixtureRequest) -> str:
    url = postgres_url(request.node.nodeid)
    clean_postgres(url)
    return url


class Workers:
    """`furnace serve --workers N` on `db`: its base URL and the referee's sign-in link."""

    def __init__(self, db: str, workers: int, tmp: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "FURNACE_CONFIG_DIR": str(tmp / "config"),
               "FURNACE_DATA_DIR": str(tmp / "data")}
        command = [sys.executable, "-c", "import sys; from furnace.cli import main; sys.exit(main())",
                   "--db", db, "serve", "--port", str(self.port), "--workers", str(workers)]
        self.log = tmp / "serve.log"            # the servers' own words, for a failure's message
        with self.log.open("w") as log:
            self.proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, text=True, env=env)
        self.link = ""
        while not self.link and self.proc.stdout is not None:
            line = self.proc.stdout.readline()
            if not line:
                break
            found = re.search(r"http://\S+/signin\?token=\S+", line)
            self.link = found.group(0) if found else ""
        assert self.link, f"furnace serve printed no sign-in link: {self.log.read_text()[-2000:]}"
        wait_for(self.base + "/")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(30)


@pytest.fixture
def two(pg: str, tmp_path: Path) -> Iterator[Workers]:
    served = Workers(pg, 2, tmp_path)
    try:
        yield served
    finally:
        served.stop()


def client(base: str, cookies: Any = None) -> httpx.Client:
    made = httpx.Client(base_url=base, timeout=60, cookies=cookies, follow_redirects=True)
    made.headers["Origin"] = base
    return made


def csrf(http: httpx.Client) -> httpx.Client:
    http.headers["X-CSRF-Token"] = http.cookies.get("furnace_csrf") or ""
    return http


def on_worker(base: str, cookies: Any, wanted: str | None = None, other_than: str | None = None
              ) -> tuple[httpx.Client, str]:
    """A client whose (kept-alive) connection reached the worker `wanted`, or any but `other_than`."""
    for _ in range(TRIES):
        http = csrf(client(base, cookies))
        worker = http.get("/").headers.get("x-furnace-worker", "")
        if worker and (wanted is None or worker == wanted) and worker != other_than:
            return csrf(http), worker
        http.close()
    raise AssertionError(f"no connection reached the worker wanted in {TRIES} tries")


def signed_in(served: Workers) -> httpx.Client:
    referee = client(served.base)
    assert referee.get(served.link.replace(served.base, "")).status_code == 200
    referee.get("/")
    return csrf(referee)


def table(served: Workers) -> tuple[httpx.Client, httpx.Client]:
    """The campaign `keep` with a funnel for Ann; the referee and Ann's phone, both signed in."""
    referee = signed_in(served)
    assert referee.post("/api/campaigns", json={"name": "keep"}).status_code == 200
    assert referee.post(f"{C}/funnel", json={"players": ["Ann"], "per_player": 1}).status_code == 200
    answer = referee.post(f"{C}/invites", json={"role": "player", "player": "Ann"})
    token = answer.json()["url"].rsplit("/", 1)[-1]
    ann = csrf(client(served.base))
    ann.get(f"/join/{token}")
    csrf(ann)
    assert ann.post("/api/join", json={"token": token}).status_code == 200
    return referee, csrf(ann)


class Stream:
    """A live stream read in a thread: each log event's data, as it comes."""

    def __init__(self, http: httpx.Client, stack: ExitStack) -> None:
        self.events: queue.Queue[dict[str, Any]] = queue.Queue()
        self.ended = threading.Event()          # the server said `signed-out`
        self.response = stack.enter_context(http.stream("GET", f"{C}/live"))
        self.worker = self.response.headers.get("x-furnace-worker", "")
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for line in self.response.iter_lines():
                if line == "event: signed-out":
                    self.ended.set()
                elif line.startswith("data: ") and line != "data: {}":
                    self.events.put(json.loads(line[6:]))
        except httpx.HTTPError:
            return

    def until(self, words: str) -> dict[str, Any]:
        return self.upto(words)[-1]

    def upto(self, words: str) -> list[dict[str, Any]]:
        """Every event read up to the first that holds `words`, that one last."""
        seen = []
        while True:
            seen.append(self.events.get(timeout=WAIT))
            if words in json.dumps(seen[-1]):
                return seen


@contextmanager
def streams() -> Iterator[ExitStack]:
    with ExitStack() as stack:
        yield stack


@pytest.mark.postgres
def test_a_roll_posted_to_one_worker_reaches_a_player_streaming_from_the_other(two: Workers) -> None:
    referee, ann = table(two)
    phone, first = on_worker(two.base, ann.cookies)
    other, second = on_worker(two.base, referee.cookies, other_than=first)
    with streams() as stack:
        live = Stream(phone, stack)
        assert live.worker == first
        answer = other.post(f"{C}/roll", json={"expression": "d6", "label": "across the workers"})
        assert answer.status_code == 200 and answer.headers["x-furnace-worker"] == second != first
        got = live.until("across the workers")
    assert got["what"].startswith("rolls across the workers")


@pytest.mark.postgres
def test_a_hidden_roll_read_once_on_the_other_worker_is_told_to_its_referee_and_to_no_player(two: Workers) -> None:
    """The other worker reads the log once for all its streams (`web.feed.Log`) and tells each audience from it:
    the referee's stream there gets the hidden roll, the player's beside it only the public one after it."""
    referee, ann = table(two)
    phone, first = on_worker(two.base, ann.cookies)
    desk, _ = on_worker(two.base, referee.cookies, wanted=first)
    other, second = on_worker(two.base, referee.cookies, other_than=first)
    with streams() as stack:
        hers, mine = Stream(phone, stack), Stream(desk, stack)
        assert hers.worker == mine.worker == first != second
        for label, hidden in (("behind the screen", True), ("for all to see", False)):
            answer = other.post(f"{C}/roll", json={"expression": "d6", "label": label, "hidden": hidden})
            assert answer.status_code == 200 and answer.headers["x-furnace-worker"] == second
        secret, public = mine.until("behind the screen"), mine.until("for all to see")
        told = hers.upto("for all to see")
    assert secret["hidden"] and not public["hidden"]
    assert told[-1]["what"].startswith("rolls for all to see")
    assert "behind the screen" not in json.dumps(told + list(hers.events.queue))


@pytest.mark.postgres
def test_a_write_by_the_cli_reaches_a_stream_on_postgresql(two: Workers, pg: str, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    referee, _ = table(two)
    monkeypatch.setenv("FURNACE_CONFIG_DIR", str(tmp_path / "cli-config"))
    with streams() as stack:
        live = Stream(referee, stack)
        assert main(["--db", pg, "--campaign", "keep", "campaign", "join", str(BRAKKA)]) == 0
        got = live.until("Brakka")
    assert "Brakka" in json.dumps(got)


@pytest.mark.postgres
def test_a_session_revoked_on_one_worker_ends_its_stream_on_the_other_before_the_next_roll(two: Workers) -> None:
    referee, ann = table(two)
    phone, first = on_worker(two.base, ann.cookies)
    other, _ = on_worker(two.base, referee.cookies, other_than=first)
    mine = next(s["id"] for s in other.get("/api/sessions").json()["sessions"] if s["role"] == "player")
    with streams() as stack:
        live = Stream(phone, stack)
        assert other.post(f"/api/sessions/{mine}/revoke").status_code == 200
        assert other.post(f"{C}/roll", json={"expression": "d6", "label": "after the revocation"}).status_code == 200
        assert live.ended.wait(WAIT)
    assert not any("after the revocation" in json.dumps(e) for e in list(live.events.queue))


@pytest.mark.postgres
def test_the_stream_cap_of_a_session_holds_across_the_two_workers(two: Workers) -> None:
    _, ann = table(two)
    first = on_worker(two.base, ann.cookies)
    second = on_worker(two.base, ann.cookies, other_than=first[1])
    third = on_worker(two.base, ann.cookies, wanted=first[1])
    fourth = on_worker(two.base, ann.cookies, wanted=second[1])
    with streams() as stack:
        opened = [Stream(http, stack) for http, _ in (first, second, third, fourth)]   # the default cap: 4
        assert {s.response.status_code for s in opened} == {200}
        assert {s.worker for s in opened} == {first[1], second[1]}
        for wanted in (first[1], second[1]):       # a fifth is refused on either worker
            fifth, _ = on_worker(two.base, ann.cookies, wanted=wanted)
            refused = fifth.get(f"{C}/live")
            assert refused.status_code == 429 and refused.headers["x-furnace-worker"] == wanted
        opened[0].response.close()                 # one closed: a place again, on the other worker too
        again, _ = on_worker(two.base, ann.cookies, wanted=second[1])
        for _ in range(TRIES):        # until the server has seen the connection go (a bounded wait)
            with again.stream("GET", f"{C}/live") as reopened:
                if reopened.status_code == 200:
                    break
            time.sleep(0.1)
        assert reopened.status_code == 200


@pytest.mark.postgres
def test_the_rate_limit_of_log_reads_holds_across_the_two_workers(two: Workers, pg: str) -> None:
    """One bucket of 20 log reads for the session, shared by the workers: each keeps its share (10, refilled at
    half the rate, no round trip per request), so taking turns on the two, the first 429 comes after the 20 reads
    of the two shares and within the first 40 (two buckets of 20 would give 40 before any)."""
    referee, _ = table(two)
    first = on_worker(two.base, referee.cookies)
    second = on_worker(two.base, referee.cookies, other_than=first[1])
    answers = [http.get(f"{C}/log") for _ in range(30) for http, _ in (first, second)]
    refused = [i for i, a in enumerate(answers) if a.status_code == 429]
    assert refused and 20 <= refused[0] < 40
    assert {answers[i].headers["x-furnace-worker"] for i in refused} == {first[1], second[1]}


# each worker keeps the sessions it read (`web.known`): a session ended on one worker is refused by the other at its
# very next request — the end's notification forgets them all, and the worker that ended it answers only once its
# own listener heard it
@pytest.mark.postgres
def test_a_session_kept_by_a_worker_is_refused_there_at_once_when_the_other_worker_revokes_it(two: Workers) -> None:
    referee, ann = table(two)
    phone, first = on_worker(two.base, ann.cookies)
    other, _ = on_worker(two.base, referee.cookies, other_than=first)
    assert [phone.get(C).status_code for _ in range(3)] == [200, 200, 200]      # kept by `first` now
    mine = next(s["id"] for s in other.get("/api/sessions").json()["sessions"] if s["role"] == "player")
    assert other.post(f"/api/sessions/{mine}/revoke").status_code == 200
    assert phone.get(C).status_code == 401
    assert phone.post(f"{C}/roll", json={"expression": "d6"}).status_code in (401, 403)


@pytest.mark.postgres
def test_a_referee_signed_out_on_one_worker_is_refused_on_the_other_at_her_next_request(two: Workers) -> None:
    referee, _ = table(two)
    desk, first = on_worker(two.base, referee.cookies)
    other, second = on_worker(two.base, referee.cookies, other_than=first)
    assert [other.get("/api/sessions").status_code for _ in range(3)] == [200, 200, 200]   # kept by `second`
    assert desk.post("/api/signout").status_code == 200
    refused = other.get("/api/sessions")
    assert refused.status_code == 401 and refused.headers["x-furnace-worker"] == second


def test_more_than_one_worker_on_sqlite_is_refused_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("FURNACE_CONFIG_DIR", str(tmp_path / "config"))
    code = main(["--db", str(tmp_path / "console.db"), "serve", "--check", "--workers", "2"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert err.startswith("error: --workers 2 needs PostgreSQL") and "stays one process" in err
    assert not (tmp_path / "console.db").exists()


# a session ended from the CLI (`furnace signout ID`): the revocation's own transaction notifies the channel,
# as one ended on a worker does, so her stream on either worker ends before the next roll reaches it
@pytest.mark.postgres
def test_a_session_signed_out_by_the_cli_ends_its_stream_on_every_worker_before_the_next_roll(
        two: Workers, pg: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    referee, ann = table(two)
    phone, first = on_worker(two.base, ann.cookies)
    other, _ = on_worker(two.base, referee.cookies, other_than=first)
    mine = next(s["id"] for s in other.get("/api/sessions").json()["sessions"] if s["role"] == "player")
    monkeypatch.setenv("FURNACE_CONFIG_DIR", str(tmp_path / "cli-config"))
    with streams() as stack:
        live = Stream(phone, stack)
        assert main(["--db", pg, "signout", str(mine)]) == 0
        assert other.post(f"{C}/roll", json={"expression": "d6", "label": "after the sign-out"}).status_code == 200
        assert live.ended.wait(WAIT)
    assert not any("after the sign-out" in json.dumps(e) for e in list(live.events.queue))
    assert phone.get(C).status_code == 401
