"""The fuzz suite's budget, its fixed seed in CI, and the counts it prints per target.

Scale by `FURNACE_FUZZ`: `quick` (the default run: a few thousand inputs in all), `ci` (20,000, fixed
seed) or `full` (`make fuzz`: 100,000). Each target takes a share of the budget with `fuzz_settings(share)`;
the shares of all targets add up to 1. Every input is recorded with `record(target, outcome)`, where the
outcome is "result" (the library answered), "refused" (a `FurnaceError`) and, for inputs that got past
parsing into the rules, "deep" too; the terminal summary prints the counts.
"""

from __future__ import annotations

import os
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from furnace.errors import FurnaceError

BUDGETS = {"quick": 3_000, "ci": 20_000, "full": 100_000}
SCALE = os.environ.get("FURNACE_FUZZ", "quick")
BUDGET = BUDGETS.get(SCALE, BUDGETS["quick"])
SECONDS = 2.0   # one input's bound: a result or a refusal well within it
COUNTS: defaultdict[str, Counter[str]] = defaultdict(Counter)


def fuzz_settings(share: float) -> Callable[[Any], Any]:
    """Hypothesis settings for one target: its share of the budget, derandomized outside `quick`."""
    return settings(max_examples=max(20, int(BUDGET * share)), deadline=None, database=None,
                    derandomize=SCALE != "quick", suppress_health_check=list(HealthCheck))


def record(target: str, outcome: str) -> None:
    COUNTS[target][outcome] += 1


@contextmanager
def bounded(target: str) -> Iterator[None]:
    """Run one input: it must answer or raise a `FurnaceError`, within `SECONDS`; count which."""
    start = time.perf_counter()
    try:
        yield
    except FurnaceError:
        record(target, "refused")
    else:
        record(target, "result")
    finally:
        record(target, "inputs")
        took = time.perf_counter() - start
        assert took < SECONDS, f"{target}: one input took {took:.1f} s"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not COUNTS:
        return
    terminalreporter.section(f"fuzz counts ({SCALE})")
    for target, c in sorted(COUNTS.items()):
        terminalreporter.write_line(f"{target:<24} inputs {c['inputs']:>7}  results {c['result']:>7}  "
                                    f"refused {c['refused']:>7}  past parsing {c['deep']:>7}")
