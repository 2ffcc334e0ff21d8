"""Helpers for the scenario tests: the CLI in-process on a temporary SQLite campaign, and the faces a seed rolls (the
stored state is read back by `tests.helpers.factories.reopened`)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from furnace.cli.app import main

Run = Callable[..., str]
PRINTED: list[tuple[tuple[str, ...], str]] = []     # what each command printed, swept for tokens after each test


def runner(db: Path, capsys: pytest.CaptureFixture[str]) -> Run:
    """`run(*args)`: `furnace --db DB --campaign keep ARGS`, which must succeed with nothing on stderr; its stdout."""

    def run(*args: str) -> str:
        code = main(["--db", str(db), "--campaign", "keep", *args])
        out = capsys.readouterr()
        assert code == 0 and out.err == "", (args, out.err)
        if "--json" not in args:
            PRINTED.append((args, out.out))
        return out.out

    return run


def faces(seed: int, *sides: int) -> list[int]:
    """The faces a command seeded with `seed` rolls for dice of these sides, in order (`dice.seeded`)."""
    rng = random.Random(seed)
    return [int(rng.random() * n) + 1 for n in sides]  # furnace.dice.roller.draw on a seeded Random
