"""Liquid Courage (`furnace.houserules.middle_sea.courage`).

RULES.md M-DRINK-01, AMB-104, CF-49.
"""

from __future__ import annotations

import pytest

from furnace.dice import ScriptedDice
from furnace.errors import UnknownNameError
from furnace.houserules import middle_sea as ms
from furnace.play.clock import Campaign, advance
from furnace.render.story import tell_referee
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import SEA_FIGHTER, character

RULES = load_ruleset("middle-sea")


def test_M_DRINK_01_liquid_courage_lasts_4_hours_then_hp_above_max_go() -> None:
    """M-DRINK-01, AMB-104, CF-49: +1d4 HP above the maximum (3: 38 → 41), +1 morale and fear saves, −1 to hit; a
    second drink does nothing; after 4 hours the penalty ends and HP above 40 are removed."""
    campaign = Campaign(characters={"Hero": character(SEA_FIGHTER, hp=38)})
    campaign, events = ms.drink(campaign, "Hero", ScriptedDice([3]), RULES)
    hero = campaign.characters["Hero"]
    assert hero.hp == 41 and ms.courage_modifiers(hero) == {"to_hit": -1, "morale": 1, "fear_saves": 1}
    assert [e.kind for e in campaign.clock.entries] == ["courage_ends"]
    again, events = ms.drink(campaign, "Hero", ScriptedDice([]), RULES)
    assert again is campaign and events[0].data["drink"] == "again"
    assert "the referee may rule her drunk" in tell_referee(events[0])
    campaign, _ = advance(campaign, 239, "minute", ScriptedDice([]), RULES)
    assert campaign.characters["Hero"].hp == 41
    campaign, events = advance(campaign, 1, "minute", ScriptedDice([]), RULES)
    hero = campaign.characters["Hero"]
    assert hero.hp == 40 and ms.courage_modifiers(hero) == {} and events[0].kind == "courage"


def test_M_DRINK_01_options() -> None:
    """M-DRINK-01 (option liquid_courage off in the furnace profile); CF-49 option liquid_courage_hp = healing
    stops the HP at the maximum; HP lost during the 4 hours are not taken again."""
    campaign = Campaign(characters={"Hero": character(SEA_FIGHTER, hp=38)})
    with pytest.raises(ms.MiddleSeaError, match="liquid_courage"):
        ms.drink(campaign, "Hero", ScriptedDice([3]), load_ruleset("furnace"))
    healed, _ = ms.drink(campaign, "Hero", ScriptedDice([3]), RULES.with_options({"liquid_courage_hp": "healing"}))
    assert healed.characters["Hero"].hp == 40
    campaign, _ = ms.drink(campaign, "Hero", ScriptedDice([3]), RULES)
    hurt = campaign.characters["Hero"].model_copy(update={"hp": 30})
    campaign = campaign.model_copy(update={"characters": {"Hero": hurt}})
    campaign, _ = advance(campaign, 4, "hour", ScriptedDice([]), RULES)
    assert campaign.characters["Hero"].hp == 30
    with pytest.raises(UnknownNameError):
        ms.drink(campaign, "Nobody", ScriptedDice([3]), RULES)
