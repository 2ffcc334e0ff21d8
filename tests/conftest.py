"""Shared fixtures: a seeded dice source and a scripted one that returns given faces."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, settings

from furnace.dice import ScriptedDice

# The project's plugins: @pytest.mark.rule (the rule marks and the status page) and the fuzz suite's counts; and
# pytest's own pytester for the rule plugin's tests.
pytest_plugins = ["tests.helpers.long_tests", "tests.helpers.rule_marks", "tests.helpers.fuzz_summary", "pytester"]

# No test asserts time, hypothesis's 200 ms deadline and its too-slow health check included: on a busy machine
# a slow example is not a bug. No example database either: nothing a test writes lands in the checkout, which
# two runs (or two xdist workers) may share.
# The examples are drawn from a fixed seed (derandomize), so a run gives the same verdict on any machine;
# `FURNACE_HYPOTHESIS=explore` (make fuzz) draws new ones.
settings.register_profile("furnace", deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None,
                          derandomize=True)
settings.register_profile("explore", deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
settings.load_profile("explore" if os.environ.get("FURNACE_HYPOTHESIS") == "explore" else "furnace")


@pytest.fixture
def rng() -> random.Random:
    return random.Random(20261129)


@pytest.fixture
def scripted() -> type[ScriptedDice]:
    """`scripted([17, 3])`: the next die shows 17, the one after 3."""
    return ScriptedDice


@pytest.fixture(scope="session")
def _cache_dir(tmp_path_factory: pytest.TempPathFactory) -> str:
    """One cache of the packaged data for the whole run (furnace.rules.cache), never the developer's."""
    return str(tmp_path_factory.mktemp("furnace-cache"))


@pytest.fixture(autouse=True)
def _no_campaign_of_the_developer(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch,
                                  _cache_dir: str) -> None:
    """No test reads or writes the developer's own campaigns or caches: the data, config and cache folders are
    temporary and no campaign is chosen unless the test chooses one."""
    monkeypatch.setenv("FURNACE_CACHE_DIR", _cache_dir)
    # the command line keeps the campaign states it made on disk for the next command (`rules.cache.keep_latest`):
    # turned on by a test's in-process command, and off again for the next test
    monkeypatch.setattr("furnace.rules.cache._LATEST_ON", False)
    home = tmp_path_factory.mktemp("furnace-home")
    monkeypatch.setenv("FURNACE_DATA_DIR", str(home / "data"))
    monkeypatch.setenv("FURNACE_CONFIG_DIR", str(home / "config"))
    monkeypatch.delenv("FURNACE_CAMPAIGN", raising=False)
    monkeypatch.delenv("FURNACE_DATABASE_URL", raising=False)
