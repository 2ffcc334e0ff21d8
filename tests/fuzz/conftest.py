"""The fuzz suite's budget, its fixed seed in CI, the bound on each input's work, and the counts it prints.

Scale by `FURNACE_FUZZ`: `quick` (the default run: a few thousand inputs in all), `ci` (20,000, fixed
seed) or `full` (`make fuzz`: 100,000). Each target takes a share of the budget with `fuzz_settings(share)`;
the shares of all targets add up to 1. Every input is recorded with `record(target, outcome)`, where the
outcome is "result" (the library answered), "refused" (a `FurnaceError`) and, for inputs that got past
parsing into the rules, "deep" too; the terminal summary prints the counts and the most work one input took.

The bound on one input is its work, counted (`tests.helpers.work`), never the time it took: the dice drawn,
the steps of exact odds, the bytes read from the user's file and the clock entries fired stay within what the
library's limits allow (`LIMITS`), so an input that would work without end fails the same on any machine.
Each fuzz test's report carries its counts (`user_properties`, so they survive pytest-xdist); the plugin
`tests.helpers.fuzz_summary` adds them up and prints them at the end of the run.
"""

from __future__ import annotations

import os
from collections import Counter, defaultdict
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from dataclasses import asdict
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from furnace.dice.odds import MAX_WORK
from furnace.dice.values import MAX_DICE
from furnace.errors import FurnaceError
from furnace.files import MAX_BYTES
from furnace.play.clock import MAX_FIRINGS
from tests.helpers.fuzz_summary import FUZZ
from tests.helpers.work import Work, counted

BUDGETS = {"quick": 3_000, "ci": 20_000, "full": 100_000}
SCALE = os.environ.get("FURNACE_FUZZ", "quick")
BUDGET = BUDGETS.get(SCALE, BUDGETS["quick"])
COUNTS: defaultdict[str, Counter[str]] = defaultdict(Counter)
MOST: defaultdict[str, Counter[str]] = defaultdict(Counter)   # per target, the most work one input took
# One input's bound, from the library's own limits: a few rolls of at most MAX_DICE dice each (their rerolls and
# the replays that explain them counted too) or a short fight; the exact odds asked a few ways, each at most
# MAX_WORK steps; a few reads of a user's file, each at most MAX_BYTES; an advance or two of the clock, each at
# most MAX_FIRINGS firings.
LIMITS = {"dice": 50 * MAX_DICE, "odds": 4 * MAX_WORK, "bytes": 4 * MAX_BYTES, "firings": 2 * MAX_FIRINGS}


def fuzz_settings(share: float) -> Callable[[Any], Any]:
    """Hypothesis settings for one target: its share of the budget, derandomized outside `quick`."""
    return settings(max_examples=max(20, int(BUDGET * share)), deadline=None, database=None,
                    derandomize=SCALE != "quick", suppress_health_check=list(HealthCheck))


def record(target: str, outcome: str) -> None:
    COUNTS[target][outcome] += 1


@contextmanager
def bounded(target: str) -> Iterator[None]:
    """Run one input: it must answer or raise a `FurnaceError`, its work within `LIMITS`; count which."""
    work = Work()
    try:
        with counted() as work:
            yield
    except FurnaceError:
        record(target, "refused")
    else:
        record(target, "result")
    finally:
        record(target, "inputs")
    done = asdict(work)
    for name in LIMITS:
        MOST[target][name] = max(MOST[target][name], done[name])
    over = {name: done[name] for name, limit in LIMITS.items() if done[name] > limit}
    assert not over, f"{target}: one input did {work}, past the limits {LIMITS}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    """The counts of the inputs this test ran go with its report (to the controller, under xdist)."""
    outcome = yield
    if call.when == "call" and COUNTS:
        report: pytest.TestReport = outcome.get_result()
        report.user_properties.append((FUZZ, {"scale": SCALE, "limits": LIMITS,
                                              "counts": {t: dict(c) for t, c in COUNTS.items()},
                                              "most": {t: dict(c) for t, c in MOST.items()}}))
        COUNTS.clear()
        MOST.clear()
