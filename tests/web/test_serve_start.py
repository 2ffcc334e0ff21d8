"""`furnace serve` loads, before serving, what the first requests would load, so that the start-up objects can be
frozen out of the garbage collector's sight (a full collection over them stalled requests for 40-70 ms)."""

from __future__ import annotations

import sys

from furnace.cli.serve import _warm
from furnace.rules import ruleset


def test_warm_loads_the_modules_the_api_imports_on_use_and_every_builtin_profile() -> None:
    _warm()
    for module in ("furnace.campaign.encounters", "furnace.campaign.rest", "furnace.play.turns"):
        assert module in sys.modules
    assert {"furnace", "hazards", "middle-sea"} <= set(ruleset.builtin_profiles())
