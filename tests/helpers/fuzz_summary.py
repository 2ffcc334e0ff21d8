"""The fuzz suite's counts at the end of the run: how many inputs each target tried, how they ended, and the most
work one input took against its limits (tests/fuzz/conftest.py).

A plugin of the project (loaded by tests/conftest.py, so it runs where the reports arrive: the controller under
pytest-xdist). Each fuzz test's report carries its counts in `user_properties` under `FUZZ`; they are added up
here and printed in the terminal summary.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

import pytest

FUZZ = "furnace_fuzz"

_counts: defaultdict[str, Counter[str]] = defaultdict(Counter)
_most: defaultdict[str, Counter[str]] = defaultdict(Counter)
_seen: dict[str, Any] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    sent = dict(report.user_properties).get(FUZZ)
    if not sent:
        return
    _seen.update(scale=sent["scale"], limits=sent["limits"])
    for target, counts in sent["counts"].items():
        _counts[target].update(counts)
    for target, most in sent["most"].items():
        for name, n in most.items():
            _most[target][name] = max(_most[target][name], n)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not _counts:
        return
    terminalreporter.section(f"fuzz counts ({_seen['scale']})")
    for target, c in sorted(_counts.items()):
        terminalreporter.write_line(f"{target:<24} inputs {c['inputs']:>7}  results {c['result']:>7}  "
                                    f"refused {c['refused']:>7}  past parsing {c['deep']:>7}")
    limits: dict[str, int] = _seen["limits"]
    terminalreporter.write_line("the most work of one input (limits: " +
                                ", ".join(f"{name} {limit:,}" for name, limit in limits.items()) + ")")
    for target, most in sorted(_most.items()):
        terminalreporter.write_line(f"{target:<24} " + "  ".join(f"{name} {most[name]:>9,}" for name in limits))
