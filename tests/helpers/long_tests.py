"""The default run and the whole run: `make test` runs the quick share, `FURNACE_SUITE=full` (.ci/run sets it)
runs every test.

The long kinds — the benchmarks' runs, real Chromium, several server processes, SIGKILLs, the fuzzing of files,
whole simulations — are marked `slow` (or `browser`/`crash`, which count as slow); the default run leaves them
out, so that it stays under five minutes on two cores, and says how many it left. A long test marked `share` too
is the default run's sample of its kind (one Chromium page per area, one crash). A test run by its file's name,
or chosen by a marker (`-m browser`, `make browser`), always runs: it was asked for.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

LONG_MARKS = ("slow", "browser", "crash")


def full_suite() -> bool:
    return os.environ.get("FURNACE_SUITE", "").strip().lower() == "full"


def _named_files(config: pytest.Config) -> set[Path]:
    """The files given on the command line by name (not folders)."""
    named = set()
    for arg in config.args:
        path = Path(arg.split("::")[0])
        if path.suffix == ".py":
            named.add(path.resolve())
    return named


def _long(item: pytest.Item) -> bool:
    marks = {mark.name for mark in item.iter_markers()}
    return bool(marks & set(LONG_MARKS)) and "share" not in marks


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if full_suite() or config.option.markexpr:
        return
    named = _named_files(config)
    left = [item for item in items if _long(item) and Path(str(item.path)).resolve() not in named]
    if not left:
        return
    config.hook.pytest_deselected(items=left)
    kept = set(map(id, left))
    items[:] = [item for item in items if id(item) not in kept]


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    # under pytest-xdist the workers collect and leave the tests out; the controller only knows that it may
    if not full_suite() and not config.option.markexpr:
        terminalreporter.write_line("the long tests (slow, browser, crash) were left to the whole run: "
                                    "FURNACE_SUITE=full make test, as CI runs it")
