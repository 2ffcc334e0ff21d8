"""Liquid Courage (RULES.md M.8): M-DRINK-01, a full drink gives 1d4 HP (above the maximum, option
liquid_courage_hp, CF-49), +1 morale (CF-45) and saves vs fear, −1 to hit, for 4 hours; another drink gives
nothing while it lasts (AMB-104, REF-45). Importing the module registers the `courage_ends` clock handler.
"""

from __future__ import annotations

from furnace import dice
from furnace.characters.character import Character
from furnace.characters.facts import fact
from furnace.dice import DiceSource
from furnace.events import Event, declare
from furnace.houserules.middle_sea.common import MiddleSeaError, _alive, _member, _put, _rules, state_of, with_state
from furnace.play.clock import HOUR, Campaign, Fire, handler, schedule
from furnace.rules.ruleset import Ruleset

COURAGE_HOURS = 4
COURAGE_MODIFIERS = {"to_hit": -1, "morale": 1, "fear_saves": 1}
# Liquid Courage: `drink` drinks (amount HP, hours, the modifiers), again (already under it: nothing, and the referee
# may rule her drunk) or wears_off (HP above the maximum go)
COURAGE = declare("courage", drink="public", amount="actor", hp_before="actor", hp_after="actor", hp_max="actor",
                  hours="public", to_hit="public", morale="public", fear_saves="public",
                  example={"drink": "drinks", "amount": 3, "hp_before": 38, "hp_after": 41, "hp_max": 40, "hours": 4,
                           "to_hit": -1, "morale": 1, "fear_saves": 1})


def courage_modifiers(character: Character) -> dict[str, int]:
    """While Liquid Courage lasts: −1 to hit, +1 morale (the PC's WIS morale SAVE, CF-45), +1 saves vs fear."""
    courage = state_of(character).get("courage")
    return {k: int(courage[k]) for k in COURAGE_MODIFIERS} if courage else {}


def drink(campaign: Campaign, name: str, rng: DiceSource, rules: Ruleset | None = None,
          ) -> tuple[Campaign, list[Event]]:
    """M-DRINK-01: a full drink gives 1d4 HP (above the maximum, option liquid_courage_hp), +1 morale and fear
    saves, −1 to hit, for 4 hours (a `courage_ends` clock entry). Not again while it lasts (AMB-104)."""
    rules = _rules(rules)
    if not rules["liquid_courage"]:
        raise MiddleSeaError("Liquid Courage is off in this profile (option liquid_courage, M-DRINK-01)")
    c = _member(campaign, name)
    _alive(c)
    state = state_of(c)
    if "courage" in state:
        return campaign, [fact(COURAGE, c, (), ("AMB-104", "REF-45"), drink="again")]
    roll = dice.roll("1d4", rng, label="Liquid Courage")
    pool = rules["liquid_courage_hp"] == "temporary_pool"
    hp = c.hp + roll.total if pool else max(c.hp, min(c.hp_max, c.hp + roll.total))
    campaign, entry = schedule(campaign, "courage_ends", after=COURAGE_HOURS * HOUR, owner=name,
                               label=f"{name}'s Liquid Courage wears off", data={"hp": roll.total})
    state["courage"] = {"hp": roll.total, "entry": entry, **COURAGE_MODIFIERS}
    after = with_state(c.model_copy(update={"hp": hp}), state)
    return _put(campaign, after), [fact(COURAGE, c, (roll,), ("M-DRINK-01",), drink="drinks", amount=roll.total,
                                        hp_before=c.hp, hp_after=hp, hp_max=c.hp_max, hours=COURAGE_HOURS,
                                        **COURAGE_MODIFIERS)]


@handler("courage_ends")
def _courage_ends(fire: Fire) -> None:
    """M-DRINK-01: after 4 hours the −1 to hit goes, and so do any HP above the maximum."""
    c = fire.character()
    state = state_of(c)
    state.pop("courage", None)
    hp = min(c.hp, c.hp_max)
    fire.put(with_state(c.model_copy(update={"hp": hp}), state))
    fire.fact(COURAGE, c.name, (), (), ("M-DRINK-01",), drink="wears_off", hp_before=c.hp, hp_after=hp,
              hp_max=c.hp_max, to_hit=COURAGE_MODIFIERS["to_hit"])
