"""A blow that takes a character to 0 HP under the Middle Sea rules: HP stop at 0, and past 0 the excess is rolled
on the grievous-injury table (M-GRIEV-01; a character already at 0 rolls with the whole damage, AMB-91 b);
exactly 0 follows the option middle_sea_zero_hp (D-4, AMB-91 a); an NPC that is not named is out of the fight
with no roll (M-MOOK-01, REF-42, CF-50). M-MOOK-02, the extra attacks against creatures under 1 HD, is the
encounter engine's (`fight`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from furnace.characters.character import Character
from furnace.characters.facts import fact
from furnace.dice import DiceSource
from furnace.events import Event, declare
from furnace.houserules.middle_sea.common import MiddleSeaError, _added, _alive, _rules
from furnace.houserules.middle_sea.grievous_injury import Grievous, HeldCondition, HelmetSave, SaveBonus, grievous
from furnace.play.death import DAMAGE
from furnace.rules.ruleset import Ruleset

ZERO_HP = {   # D-4, option middle_sea_zero_hp: the condition held at exactly 0 HP, and the rules that say so
    "knocked_down": ("KNOCKED_DOWN", ("D-4",)),
    "unconscious": ("UNCONSCIOUS", ("D-4",)),
    "conscious_limited": ("INCAPACITATED", ("AMB-91",)),
}
EXACTLY_ZERO = declare("exactly_zero", reading="public", condition="public",
                       example={"reading": "knocked_down", "condition": "KNOCKED_DOWN"})
OUT_OF_FIGHT = declare("out_of_fight", condition="public", example={"condition": "INCAPACITATED"})
OUT_OF_FIGHT_PROMPT = ("M-MOOK-01: out of the fight at 0 HP with no grievous roll; the referee decides whether dead "
                       "or disabled (CF-50)")


def npc_rolls(rules: Ruleset, named: bool) -> bool:
    """M-MOOK-01, REF-42 (option npc_grievous): whether an NPC rolls on the grievous table."""
    return {"named_only": named, "all": True, "none": False}[str(rules["npc_grievous"])]


def take_blow(character: Character, damage: int, rng: DiceSource, rules: Ruleset | None = None, *,
              npc: bool = False, named: bool = False, helmet: bool | None = None, hit_die: str | None = None,
              damage_type: str | None = None, room_dc: int | None = None,
              vetoes: Mapping[str, list[dict[str, Any]]] | None = None, save_bonus: SaveBonus | None = None,
              helmet_save: HelmetSave | None = None) -> Grievous:
    """A blow under the Middle Sea rules: HP stop at 0; exactly 0 follows middle_sea_zero_hp (D-4); an NPC that
    is not `named` is out of the fight at 0 (M-MOOK-01); past 0 the excess is rolled (M-GRIEV-01). A character
    already at 0 rolls with the whole damage as excess (AMB-91 b). The encounter engine's Middle Sea death model
    (`fight`) calls this with its combatant's SAVE bonus (`save_bonus`) and the ROOM DC."""
    rules = _rules(rules)
    _alive(character)
    if damage < 0:
        raise MiddleSeaError(f"damage is 0 or more, not {damage}")
    before, left = character.hp, max(character.hp - damage, 0)
    hit = fact(DAMAGE, character, amount=damage, hp_before=before, hp_after=left, hp_max=character.hp_max)
    if damage == 0 or before > damage:
        return Grievous(character.model_copy(update={"hp": before - damage}), "hurt" if damage else "unhurt",
                        events=(hit,))
    if npc and not npc_rolls(rules, named):
        return _out_of_fight(character, hit)
    excess = damage - max(before, 0)
    if excess == 0:
        return _exactly_zero(character, rules, hit)
    result = grievous(character, excess, rng, rules, helmet, hit_die=hit_die, damage_type=damage_type,
                      room_dc=room_dc, vetoes=vetoes, save_bonus=save_bonus, helmet_save=helmet_save)
    return replace(result, events=(hit, *result.events))


def _exactly_zero(character: Character, rules: Ruleset, hit: Event) -> Grievous:
    reading = str(rules["middle_sea_zero_hp"])
    name, ids = ZERO_HP[reading]
    after = character.model_copy(update={"hp": 0, "conditions": _added(character.conditions, name)})
    return Grievous(after, "exactly_zero", conditions=(HeldCondition(name),),
                    events=(hit, fact(EXACTLY_ZERO, character, (), ids, reading=reading, condition=name)))


def _out_of_fight(character: Character, hit: Event) -> Grievous:
    after = character.model_copy(update={"hp": 0, "conditions": _added(character.conditions, "INCAPACITATED")})
    return Grievous(after, "out_of_fight", conditions=(HeldCondition("INCAPACITATED"),),
                    referee_prompts=(OUT_OF_FIGHT_PROMPT,),
                    events=(hit, fact(OUT_OF_FIGHT, character, (), ("M-MOOK-01", "CF-50"), condition="INCAPACITATED")))
