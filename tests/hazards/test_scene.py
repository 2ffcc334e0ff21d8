"""The referee's scene as facts (H-TRAV-04, H-LIGHT-01/04, H-MAP-02) and the Middle Sea plug-in point M-CSPELL-02."""

from __future__ import annotations

import pytest

from furnace.hazards.light import light
from furnace.hazards.scene import room, sight, terrain
from furnace.houserules.middle_sea import ExternalRuleError, external, register_plugin, use_rule
from furnace.play.clock import Campaign
from furnace.render.story import tell
from furnace.render.story.view import View
from tests.helpers.factories import campaign, character

PLAYER = View("player", "Ann")


def test_H_TRAV_04_terrain_unless_it_blocks_the_view() -> None:
    """H-TRAV-04 (REF-31): the terrain entered and what lies around it, except where the terrain hides the view:
    then what lies beyond is the referee's alone."""
    seen = terrain("a pine wood", ["hills to the north"])
    assert seen.data["around"] == ["hills to the north"] and seen.data["beyond"] == []
    hidden = terrain("a fog-bound marsh", ["a ruined tower"], hides_view=True)
    assert hidden.data["around"] == [] and hidden.data["beyond"] == ["a ruined tower"]
    told = tell(hidden, PLAYER)
    assert told is not None and "ruined tower" not in told.text and "fog-bound marsh" in told.text


def test_H_LIGHT_04_sight_needs_light_or_the_scene() -> None:
    """H-LIGHT-01/04 (REF-37): in darkness without light nothing is seen; the brightest light or the referee's
    value for the scene sets the range, whichever is larger."""
    assert sight(Campaign()).data["feet"] == 0
    lit, _ = light(campaign(character(name="Ann")), "Ann", "candle")
    assert sight(lit).data["feet"] == 10
    assert sight(lit, 120).data["feet"] == 120 and sight(Campaign(), 40).data["feet"] == 40


def test_H_MAP_02_dimensions_exact_only_at_exploration_speed() -> None:
    """H-MAP-02 (REF-38): exact at exploration speed, the nearest 10 feet otherwise (5 rounds up), roughly for
    irregular areas."""
    assert (room(32, 47).data["shown_width"], room(32, 47).data["shown_length"]) == (32, 47)
    running = room(32, 45, "running")
    assert (running.data["shown_width"], running.data["shown_length"], running.data["exact"]) == (30, 50, False)
    assert room(32, 47, irregular=True).data["exact"] is False


def test_M_CSPELL_02_druid_preparation_is_a_plug_in_point(monkeypatch: pytest.MonkeyPatch) -> None:
    """M-CSPELL-02: druidic preparation needs AD&D books that are not among the sources: a clear error naming
    them, until the referee registers an implementation."""
    with pytest.raises(ExternalRuleError, match="M-CSPELL-02"):
        use_rule("M-CSPELL-02")
    monkeypatch.setattr(external, "PLUGINS", dict(external.PLUGINS))   # leave the registry as it was
    register_plugin("M-CSPELL-02", lambda level: f"prepare {level} spells")
    assert use_rule("M-CSPELL-02", 3) == "prepare 3 spells"
