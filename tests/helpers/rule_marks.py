"""`@pytest.mark.rule("F-DEATH-01", …)`: this test shows these rules of RULES.md on the user's path.

A pytest plugin of the project (loaded by tests/conftest.py). A test marked `rule` must enter one of
Furnace's public paths — a `furnace` command (in process through `main` is fine), a console route (through
the ASGI app) or a campaign command (`Store.apply`, which both call) — during its setup or its call. The
doors report themselves (`furnace.public.entered`): the plugin observes them, and reads the trace file
`FURNACE_PATH_TRACE` that a subprocess (a real `furnace serve`) appends to. A marked test that entered none
fails, as does a mark naming no id or an id RULES.md does not have. The plugin never reads a test's source.

Each test's report carries the ids and the doors it entered (`user_properties`), so the numbers survive
pytest-xdist. `--rule-report FILE` writes them as JSON for scripts/gen_rules_status.py. When the whole
suite ran and passed, the plugin checks that docs/rules-status.md is the page these results make, and fails
the run if it is not ("run: python scripts/gen_rules_status.py").
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest

from furnace import public
from tests.helpers import long_tests, rules_status

PATHS = "furnace_paths"
IDS = "furnace_rule_ids"


class Tracker:
    """The doors entered since the current test's setup began (and those of the fixtures it uses)."""

    def __init__(self, trace: Path) -> None:
        self.trace = trace
        self.seen: set[str] = set()
        self.offset = 0
        self.by_fixture: dict[int, set[str]] = {}

    def observe(self, kind: str, _name: str) -> None:
        self.seen.add(kind)

    def begin(self) -> None:
        self.seen = set()
        self.offset = self._size()

    def read_trace(self) -> None:
        """Entries that a subprocess appended since the test began."""
        if self._size() <= self.offset:
            return
        with self.trace.open(encoding="utf-8", errors="replace") as f:
            f.seek(self.offset)
            self.seen.update(line.split("\t", 1)[0] for line in f if "\t" in line)
        self.offset = self._size()

    def _size(self) -> int:
        try:
            return self.trace.stat().st_size
        except OSError:
            return 0


_tracker: Tracker | None = None


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--rule-report", default=None, metavar="FILE",
                     help="write the rule marks of the run, with each test's outcome and public paths, as JSON")
    parser.addoption("--path-audit", default=None, metavar="FILE",
                     help="write the public paths every test entered, marked or not, as JSON (to find the tests "
                          "that could carry a rule mark)")


def pytest_configure(config: pytest.Config) -> None:
    global _tracker
    config.addinivalue_line("markers", "rule(*ids): the test shows these RULES.md ids through a public path "
                                       "(a CLI command, a console route or a campaign command)")
    trace = Path(tempfile.mkdtemp(prefix="furnace-paths-")) / "trace"
    os.environ["FURNACE_PATH_TRACE"] = str(trace)
    _tracker = Tracker(trace)
    public.observe(_tracker.observe)


def _ids(item: pytest.Item) -> list[str]:
    return [str(rid) for mark in item.iter_markers("rule") for rid in mark.args]


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    assert _tracker is not None
    _tracker.begin()
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_fixture_setup(fixturedef: pytest.FixtureDef[Any]) -> Generator[None, Any, None]:
    """A fixture's own doors, remembered for every later test that uses it (a module's campaign, say)."""
    assert _tracker is not None
    before = set(_tracker.seen)
    yield
    _tracker.read_trace()
    entered = _tracker.seen - before
    if entered:
        _tracker.by_fixture.setdefault(id(fixturedef), set()).update(entered)


def _doors(item: pytest.Item) -> set[str]:
    assert _tracker is not None
    _tracker.read_trace()
    doors = set(_tracker.seen)
    info = getattr(item, "_fixtureinfo", None)
    for defs in (info.name2fixturedefs.values() if info is not None else ()):
        for fixturedef in defs:
            doors |= _tracker.by_fixture.get(id(fixturedef), set())
    return doors


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    ids = _ids(item)
    if call.when != "call":
        if ids and report.skipped:
            report.user_properties.append((IDS, ids))
        return
    doors = sorted(_doors(item))
    report.user_properties += [(PATHS, doors), (IDS, ids)]
    if not list(item.iter_markers("rule")) or not report.passed:
        return
    problem = _problem(ids, doors)
    if problem:
        report.outcome = "failed"
        report.longrepr = f"{item.nodeid}: {problem}"


def _problem(ids: list[str], doors: list[str]) -> str:
    if not ids:
        return "@pytest.mark.rule names no rule id"
    unknown = [rid for rid in ids if rid not in rules_status.known_ids()]
    if unknown:
        return f"@pytest.mark.rule names ids RULES.md does not have: {', '.join(unknown)}"
    if not doors:
        return (f"marked as showing {', '.join(ids)} but it entered no public path (a furnace command, a console "
                "route or a campaign command): a test that calls a library function directly shows the function, "
                "not the rule on the user's path")
    return ""


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    props = dict(report.user_properties)
    if report.when == "call":
        _audit[report.nodeid] = {"outcome": report.outcome, "paths": list(props.get(PATHS) or [])}
    ids = props.get(IDS) or []
    if ids and report.skipped:
        _skipped.append(report.nodeid)
    elif ids and report.when == "call":
        _session_results.append({"test": report.nodeid, "ids": list(ids), "outcome": report.outcome,
                                 "paths": list(props.get(PATHS) or [])})


_session_results: list[dict[str, Any]] = []
_audit: dict[str, dict[str, Any]] = {}
_skipped: list[str] = []   # marked tests that did not run here (no Chromium, say): the page is not checked


def _whole_suite(session: pytest.Session) -> bool:
    config = session.config
    opt = config.option
    return (config.args_source == pytest.Config.ArgsSource.TESTPATHS and not opt.keyword and not opt.markexpr
            and not getattr(opt, "lf", False) and not getattr(opt, "deselect", None)
            and not getattr(opt, "maxfail", 0) and not opt.collectonly and long_tests.full_suite())


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if hasattr(session.config, "workerinput"):   # an xdist worker: the controller has every report
        return
    results = sorted(_session_results, key=lambda r: r["test"])
    path = session.config.getoption("--rule-report")
    if path:
        Path(path).write_text(json.dumps({"tests": results}, indent=1), encoding="utf-8")
    audit = session.config.getoption("--path-audit")
    if audit:
        Path(audit).write_text(json.dumps(_audit, indent=1, sort_keys=True), encoding="utf-8")
    if exitstatus == 0 and _whole_suite(session) and session.testscollected and not _skipped:
        stale = rules_status.stale(results)
        if stale:
            session.config.stash[_stale] = stale
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


_stale = pytest.StashKey[str]()


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    stale = config.stash.get(_stale, "")
    if stale:
        terminalreporter.write_line(f"FAILED docs/rules-status.md: {stale}", red=True)
