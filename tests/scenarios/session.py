"""Helpers for the scenario tests: the CLI in-process on a temporary SQLite campaign, and the stored state read
back through a new `Store`."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from furnace.campaign.state import CampaignState
from furnace.campaign.store import Store
from furnace.cli.app import main

Run = Callable[..., str]


def runner(db: Path, capsys: pytest.CaptureFixture[str]) -> Run:
    """`run(*args)`: `furnace --db DB --campaign keep ARGS`, which must succeed with nothing on stderr; its stdout."""

    def run(*args: str) -> str:
        code = main(["--db", str(db), "--campaign", "keep", *args])
        out = capsys.readouterr()
        assert code == 0 and out.err == "", (args, out.err)
        return out.out

    return run


def reopen(db: Path, name: str = "keep") -> CampaignState:
    """The campaign as a new session finds it: a new Store on the same file."""
    store = Store(f"sqlite:///{db}")
    try:
        return store.open(name)
    finally:
        store.close()


def faces(seed: int, *sides: int) -> list[int]:
    """The faces a command seeded with `seed` rolls for dice of these sides, in order (`dice.seeded`)."""
    rng = random.Random(seed)
    return [int(rng.random() * n) + 1 for n in sides]  # furnace.dice.roller.draw on a seeded Random
