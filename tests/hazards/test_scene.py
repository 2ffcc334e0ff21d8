"""The referee's scene helpers (H-TRAV-04, H-LIGHT-04, H-MAP-02) and the Middle Sea plug-in point M-CSPELL-02."""

from __future__ import annotations

import pytest

from furnace.hazards.scene import describe_dimensions, sight_feet, terrain_report
from furnace.houserules.middle_sea import ExternalRuleError, external, register_plugin, use_rule
from furnace.play.clock import Campaign


def test_H_TRAV_04_terrain_report_unless_it_blocks_the_view() -> None:
    """H-TRAV-04 (REF-31): show the terrain entered and around it, except where the terrain hides the view."""
    assert terrain_report("a pine wood", ["hills to the north"]).text.endswith("Around you: hills to the north.")
    hidden = terrain_report("a fog-bound marsh", ["a ruined tower"], blocks_vision=True)
    assert "ruined tower" not in hidden.text and "ruined tower" in hidden.referee_only


def test_H_LIGHT_04_sight_needs_light_or_the_scene() -> None:
    """H-LIGHT-01/04 (REF-37): in darkness without light nothing is seen; a scene value or a light sets the range."""
    assert sight_feet(Campaign(), None) is None
    assert sight_feet(Campaign(), 30) == 30
    assert sight_feet(Campaign(flags={"visibility_ft": 120}), 30) == 120


def test_H_MAP_02_dimensions_exact_only_at_exploration_speed() -> None:
    """H-MAP-02 (REF-38): exact at exploration speed, approximate otherwise, rough for irregular areas."""
    assert describe_dimensions(32, 47, "exploration") == "32 by 47 feet"
    assert describe_dimensions(32, 47, "running") == "about 30 by 50 feet"
    assert describe_dimensions(32, 47, "exploration", irregular=True).startswith("roughly 30 by 50")


def test_M_CSPELL_02_druid_preparation_is_a_plug_in_point(monkeypatch: pytest.MonkeyPatch) -> None:
    """M-CSPELL-02: druidic preparation needs AD&D books that are not among the sources: a clear error naming
    them, until the referee registers an implementation."""
    with pytest.raises(ExternalRuleError, match="M-CSPELL-02"):
        use_rule("M-CSPELL-02")
    monkeypatch.setattr(external, "PLUGINS", dict(external.PLUGINS))   # leave the registry as it was
    register_plugin("M-CSPELL-02", lambda level: f"prepare {level} spells")
    assert use_rule("M-CSPELL-02", 3) == "prepare 3 spells"
