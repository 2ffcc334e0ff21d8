"""Crash safety: a process applying commands to a SQLite campaign is killed (SIGKILL) at random moments.

After each kill the file is whole (`PRAGMA integrity_check`), the store opens it, `verify` passes, and every
event the process acknowledged (printed after `apply` returned) is in the log. The kills: 3 by default,
FURNACE_CRASH=ci 20, FURNACE_CRASH=full 100. The worker is tests/store/crash_worker.py.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from furnace.campaign import fightedit
from furnace.campaign.store import Store
from furnace.campaign.verify import verify
from furnace.characters.character import Character
from tests.helpers.factories import stored_campaign

WORKER = Path(__file__).resolve().parent / "crash_worker.py"
KILLS = {"ci": 20, "full": 100}.get(os.environ.get("FURNACE_CRASH", "").strip().lower(), 3)
SEED = 20261201
NAME = "Crash"

pytestmark = [pytest.mark.crash, pytest.mark.share,  # three kills in the default run (FURNACE_CRASH)
              pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")]


def prepare(url: str, characters: dict[str, Character]) -> set[int]:
    """The campaign the worker plays: three tough characters and some history for undo to walk back."""
    store = Store(url)
    try:
        stored_campaign(store, *(characters[stem].model_copy(update={"hp": 500, "hp_max": 500})
                                 for stem in ("brakka", "wren", "maelis")), name=NAME, label="join {name}")
        for i in range(10):
            store.apply(NAME, "damage", fightedit.damage(("brak1", "wren1", "mael1")[i % 3], 1))
        return {e.seq for e in store.events(NAME)}
    finally:
        store.close()


def run_until_killed(url: str, seed: int, rng: random.Random) -> list[int]:
    """Start the worker, let it acknowledge a few commands, SIGKILL it after a random delay; its acks."""
    worker = subprocess.Popen([sys.executable, str(WORKER), url, NAME, str(seed)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    assert worker.stdout is not None and worker.stderr is not None
    acked: list[int] = []
    wanted, delay = rng.randint(3, 10), rng.uniform(0.0, 0.15)
    try:
        commands = 0
        while commands < wanted:
            line = worker.stdout.readline()
            if not line:
                worker.wait(60)
                pytest.fail(f"the worker stopped by itself (exit {worker.returncode}):\n{worker.stderr.read()}")
            acked += [int(seq) for seq in line.split()[1:]]
            commands += 1
        time.sleep(delay)
    finally:
        worker.send_signal(signal.SIGKILL)
        worker.wait(60)
    # what it printed before it died was acknowledged too (apply had returned)
    rest = worker.stdout.read()
    acked += [int(seq) for line in rest.splitlines() if line.startswith("ack ") for seq in line.split()[1:]]
    worker.stdout.close()
    worker.stderr.close()
    assert worker.returncode == -signal.SIGKILL
    return acked


def test_sigkill_loses_no_acknowledged_event(tmp_path: Path, characters: dict[str, Character]) -> None:
    path = tmp_path / "crash.db"
    url = f"sqlite:///{path}"
    acknowledged = prepare(url, characters)
    rng = random.Random(SEED)
    for kill in range(KILLS):
        acked = run_until_killed(url, rng.randrange(2**32), rng)
        assert acked, "the worker acknowledged nothing"
        acknowledged.update(acked)

        with sqlite3.connect(path) as db:
            assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)], f"after kill {kill + 1}"
        db.close()
        store = Store(url)
        try:
            result = verify(store, NAME, deep=True)
            assert result.ok, f"after kill {kill + 1}: {result.explain()}"
            logged = {e.seq for e in store.events(NAME)}
            assert acknowledged <= logged, f"after kill {kill + 1}: lost {sorted(acknowledged - logged)}"
            assert logged == set(range(1, store.count(NAME) + 1))
            assert store.open(NAME) == store.replay(NAME)
        finally:
            store.close()
