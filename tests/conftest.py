"""Shared fixtures: a seeded dice source and a scripted one that returns given faces."""

from __future__ import annotations

import random

import pytest

from furnace.dice import ScriptedDice


@pytest.fixture
def rng() -> random.Random:
    return random.Random(20261129)


@pytest.fixture
def scripted() -> type[ScriptedDice]:
    """`scripted([17, 3])`: the next die shows 17, the one after 3."""
    return ScriptedDice
