"""Concurrent writers on both engines: no update is lost, and a stale version is refused.

Six processes (tests/store/concurrent_worker.py) each apply ten `damage` commands of known amounts to one
character; the final hit points are the start less every damage whose `apply` returned, each command got a
version of its own, and the log verifies.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from furnace.campaign import commands as cmd
from furnace.campaign import fightedit
from furnace.campaign.store import ConflictError, Store
from furnace.campaign.verify import verify
from furnace.characters.character import Character
from tests.store.util import event_count, hp

WORKER = Path(__file__).resolve().parent / "concurrent_worker.py"
PROCESSES, COMMANDS, START_HP = 6, 10, 1_000


@pytest.mark.slow  # many processes: the whole run only
def test_many_processes_lose_no_update(store: Store, db_url: str, characters: dict[str, Character]) -> None:
    store.create("Siege")
    store.apply("Siege", "join", cmd.join(characters["brakka"].model_copy(update={"hp": START_HP, "hp_max": START_HP})))
    base_version, base_events = store.version("Siege"), store.count("Siege")
    amounts = [[1 + (p * COMMANDS + i) % 9 for i in range(COMMANDS)] for p in range(PROCESSES)]

    workers = [subprocess.Popen([sys.executable, str(WORKER), db_url, "Siege", "brak1", *map(str, mine)],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for mine in amounts]
    try:
        for w in workers:                                     # all connected before any starts
            assert w.stdout is not None and w.stdout.readline() == "ready\n", w.stderr and w.stderr.read()
        for w in workers:
            assert w.stdin is not None
            w.stdin.write("go\n")
            w.stdin.flush()
        firsts = [w.stdout.readline() if w.stdout is not None else "" for w in workers]   # each one's first command
        for w in workers:                                     # then the rest, all at once
            assert w.stdin is not None
            w.stdin.write("on\n")
            w.stdin.flush()
        outputs = [(first + out, err) for first, (out, err) in
                   zip(firsts, (w.communicate(timeout=300) for w in workers), strict=True)]
    finally:
        for w in workers:
            if w.poll() is None:
                w.kill()
                w.wait()
    for w, (_, err) in zip(workers, outputs, strict=True):
        assert w.returncode == 0, err

    succeeded: list[int] = []
    versions: list[int] = []
    failures: list[str] = []
    spans: list[tuple[int, int]] = []                         # each writer's first and last version
    for out, _ in outputs:
        mine: list[int] = []
        for line in out.splitlines():
            status, amount, *rest = line.split(" ", 3)
            if status == "ok":
                succeeded.append(int(amount))
                mine.append(int(rest[0]))
            else:
                failures.append(line)
        versions += mine
        if mine:
            spans.append((min(mine), max(mine)))
    assert len(succeeded) + len(failures) == PROCESSES * COMMANDS
    assert not failures, failures                             # every writer waits its turn: none gives up
    # the writers really ran at once: some two of them took turns (each made its first command before any made its
    # second, whatever the machine's load)
    assert any(a[0] < b[1] and b[0] < a[1] for i, a in enumerate(spans) for b in spans[i + 1:]), spans

    state = store.open("Siege")
    assert hp(state, "brak1") == START_HP - sum(succeeded)
    assert state == store.replay("Siege")
    # each acknowledged command has a version of its own: nobody overwrote anybody
    assert sorted(versions) == list(range(base_version + 1, base_version + len(succeeded) + 1))
    assert store.version("Siege") == base_version + len(succeeded)
    assert store.count("Siege") == event_count(store, "Siege") == base_events + len(succeeded)
    assert verify(store, "Siege", deep=True).ok


def test_two_writers_with_the_same_version_one_wins(store: Store, db_url: str,
                                                    characters: dict[str, Character]) -> None:
    store.create("Duel")
    store.apply("Duel", "join", cmd.join(characters["brakka"]))
    others = [Store(db_url), Store(db_url)]
    try:
        for round_ in range(5):
            seen = store.version("Duel")
            barrier = threading.Barrier(2)
            outcomes: list[object] = [None, None]

            def write(i: int, seen: int = seen, barrier: threading.Barrier = barrier,
                      outcomes: list[object] = outcomes) -> None:
                barrier.wait()
                try:
                    outcomes[i] = others[i].apply("Duel", f"damage {i + 1}", fightedit.damage("brak1", i + 1),
                                                  expected_version=seen).version
                except ConflictError as exc:
                    outcomes[i] = exc

            threads = [threading.Thread(target=write, args=(i,)) for i in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(60)
            won = [o for o in outcomes if isinstance(o, int)]
            lost = [o for o in outcomes if isinstance(o, ConflictError)]
            assert won == [seen + 1] and len(lost) == 1, (round_, outcomes)
            assert store.version("Duel") == seen + 1
        # each round took exactly one hit, of 1 or 2
        taken = 22 - hp(store.open("Duel"), "brak1")
        assert 5 <= taken <= 10 and store.count("Duel") == 7
        assert verify(store, "Duel").ok
    finally:
        for s in others:
            s.close()


def test_campaigns_are_created_once(store: Store, db_url: str) -> None:
    """Writers racing to create the same campaign: one makes it, the others are told it exists."""
    writers = 4
    stores = [Store(db_url) for _ in range(writers)]
    barrier = threading.Barrier(writers)
    outcomes: list[object] = [None] * writers

    def create(i: int) -> None:
        barrier.wait()
        try:
            outcomes[i] = stores[i].create("Race")
        except Exception as exc:
            outcomes[i] = exc

    threads = [threading.Thread(target=create, args=(i,)) for i in range(writers)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
    finally:
        for s in stores:
            s.close()
    made = [o for o in outcomes if not isinstance(o, Exception)]
    refused = [o for o in outcomes if isinstance(o, Exception)]
    assert len(made) == 1 and all("exists already" in str(e) for e in refused), outcomes
    assert store.names() == ["Race"] and store.count("Race") == 1 and verify(store, "Race").ok


def test_the_switch_to_wal_waits_its_turn_as_any_write_does() -> None:
    """SQLite answers a change of journal mode "database is locked" at once, without its busy handler, while another
    writer holds a new file (the race above failed 2 runs in 600 with it): the switch is tried again until the busy
    timeout, and any other error, or the lock past that timeout, is raised."""
    import sqlite3

    from furnace.campaign.database import switch_to_wal

    tries: list[str] = []

    def locked_twice(sql: str) -> None:
        tries.append(sql)
        if len(tries) <= 2:
            raise sqlite3.OperationalError("database is locked")

    switch_to_wal(locked_twice)
    assert tries == ["PRAGMA journal_mode=WAL"] * 3

    def refused(message: str) -> Callable[[str], None]:
        def execute(sql: str) -> None:
            raise sqlite3.OperationalError(message)
        return execute

    with pytest.raises(sqlite3.OperationalError, match="locked"):
        switch_to_wal(refused("database is locked"), wait=0.02)
    with pytest.raises(sqlite3.OperationalError, match="malformed"):
        switch_to_wal(refused("database disk image is malformed"))
