"""The rule-mark plugin (tests/helpers/rule_marks.py): a test marked with a rule id must go through a public
path — a `furnace` command, a console route or a campaign command — and the page is made from the marks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import rules_status

pytest_plugins = ["pytester"]

MARKED = '''
import pytest
from furnace.cli.app import main
from furnace.play.checks import Modifier, check
from furnace.dice import ScriptedDice
from furnace.rules.ruleset import load_ruleset


@pytest.mark.rule("F-BASE-02")
def test_calls_only_a_helper():
    result = check(ScriptedDice([15]), 12, [Modifier(2, "STR")], rules=load_ruleset())
    assert result.total == 17


@pytest.mark.rule("F-BASE-02")
def test_goes_through_the_cli(capsys):
    assert main(["check", "STR=2", "--dc", "12", "--faces", "15"]) == 0
    assert "17" in capsys.readouterr().out


@pytest.mark.rule("F-NOPE-99")
def test_names_an_unknown_id(capsys):
    assert main(["roll", "d20", "--seed", "1"]) == 0


@pytest.mark.rule()
def test_names_no_id(capsys):
    assert main(["roll", "d20", "--seed", "1"]) == 0
'''


def _run(pytester: pytest.Pytester, source: str, *args: str) -> pytest.RunResult:
    pytester._monkeypatch.setenv("PYTHONPATH", str(rules_status.ROOT))
    pytester.makeconftest('pytest_plugins = ["tests.helpers.rule_marks"]')
    pytester.makepyfile(test_marked=source)
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", *args)


@pytest.mark.slow  # a pytest in a pytest: the whole run only
def test_a_marked_test_that_calls_only_a_helper_fails(pytester: pytest.Pytester, tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    result = _run(pytester, MARKED, "--rule-report", str(report))
    result.assert_outcomes(passed=1, failed=3)
    result.stdout.fnmatch_lines(["*test_calls_only_a_helper*entered no public path*"])
    result.stdout.fnmatch_lines(["*test_names_an_unknown_id*RULES.md does not have: F-NOPE-99*"])
    result.stdout.fnmatch_lines(["*test_names_no_id*names no rule id*"])
    tests = {r["test"].split("::")[1]: r for r in json.loads(report.read_text())["tests"]}
    assert tests["test_goes_through_the_cli"]["paths"] == ["cli"]
    assert tests["test_goes_through_the_cli"]["outcome"] == "passed"
    assert tests["test_calls_only_a_helper"] == {"test": tests["test_calls_only_a_helper"]["test"],
                                                 "ids": ["F-BASE-02"], "outcome": "failed", "paths": []}


@pytest.mark.slow  # a pytest in a pytest: the whole run only
def test_a_campaign_command_and_a_console_route_are_public_paths(pytester: pytest.Pytester) -> None:
    source = '''
import pytest
from fastapi.testclient import TestClient
from furnace.campaign import commands
from furnace.campaign.store import Store
from furnace.web.app import create_app
from furnace.web.config import WebSettings


@pytest.mark.rule("F-BASE-01")
def test_campaign(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'c.db'}")
    store.create("keep")
    assert store.version("keep") >= 1


@pytest.mark.rule("F-BASE-01")
def test_console(tmp_path):
    client = TestClient(create_app(WebSettings(db=str(tmp_path / "w.db"))))
    assert client.get("/api/health").status_code in (200, 401, 404)
'''
    result = _run(pytester, source)
    result.assert_outcomes(passed=1, failed=1)   # creating a campaign is not a command; the console route is
    result.stdout.fnmatch_lines(["*test_campaign*entered no public path*"])


@pytest.mark.slow  # a pytest in a pytest: the whole run only
def test_a_subprocess_reports_through_the_trace_file(pytester: pytest.Pytester) -> None:
    source = '''
import subprocess, sys
import pytest


@pytest.mark.rule("F-BASE-02")
def test_real_process():
    furnace = [sys.executable, "-c", "import sys; from furnace.cli import main; sys.exit(main())"]
    done = subprocess.run([*furnace, "roll", "d20", "--seed", "3"], capture_output=True)
    assert done.returncode == 0
'''
    _run(pytester, source).assert_outcomes(passed=1)


def test_the_page_counts_every_id_once() -> None:
    results = [{"test": "tests/x.py::t", "ids": ["F-BASE-02"], "outcome": "passed", "paths": ["cli"]},
               {"test": "tests/x.py::u", "ids": ["F-BASE-03"], "outcome": "passed", "paths": []}]
    tally = rules_status.counts(results)
    assert sum(tally.values()) == len(rules_status.known_ids()) == 276
    assert tally["shown"] == 1
    page = rules_status.page(results)
    assert "| F-BASE-02 | CHECK | shown | 1 (`tests/x.py`) |" in page
    assert "| F-BASE-03 | ROOM DC [ICRPG] | not shown |" in page
    assert "| M-UNARM-01 |" in page and "plug-in slot: `register_plugin('M-UNARM-01', fn)`" in page
