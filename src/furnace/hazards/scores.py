"""Ability score loss and damage outside an encounter (H-ABIL-01..03, H-DMG-01..03, H-HEAL-06/08).

A changed score recomputes its modifier and nothing else (H-ABIL-01); a change of CON modifier moves HP only
under the option con_change_hp = retroactive (CF-37, AMB-79); a score of 0 kills (H-ABIL-03, F-ABIL-05).
Temporary losses are remembered so that rest can give them back (H-HEAL-06): `temporary_loss` (disease,
drugs) and `deprivation_loss` (hunger and thirst, back twice as fast, H-STARV-05). Aging losses are permanent.
"""

from __future__ import annotations

from typing import Any, Literal

from furnace.characters.abilities import modifier
from furnace.characters.character import ABSOLUTE_CAP, Character
from furnace.characters.facts import fact
from furnace.events import Event, declare
from furnace.hazards.common import state, with_state
from furnace.play.apply import ABILITY
from furnace.play.death import DAMAGE, DEATH
from furnace.rules.effects import ABILITIES, Ability
from furnace.rules.ruleset import Ruleset

Loss = Literal["permanent", "temporary", "deprivation", "passing"]   # passing: undone by its cause (drink)
BUCKETS = {"temporary": "temporary_loss", "deprivation": "deprivation_loss"}

# the facts of this module (besides the engine's "ability", "damage" and "death"), and who may know each value
CON_HP = declare("con_hp", delta="actor", dice="actor", hp_before="actor", hp_after="actor",
                 hp_max_before="actor", hp_max_after="actor",
                 example={"delta": -1, "dice": 3, "hp_before": 15, "hp_after": 12, "hp_max_before": 20,
                          "hp_max_after": 17})
RECOVERY = declare("recovery", ability="public", before="actor", after="actor", back="actor", weeks="public",
                   bucket="referee", example={"ability": "CON", "before": 6, "after": 8, "back": 2,
                                              "bucket": "deprivation_loss"})
UNCONSCIOUS = declare("unconscious", hp="actor", hours="actor", wake_dice="public", entry="referee",
                      example={"hp": -1, "hours": 4, "wake_dice": ""})


HAZARDS_FLOOR = -3                   # H-DMG-03: dead at −3 HP under the hazards death model
HAZARDS_DEATH = "hazards_threshold"  # that cause of death's code


def _mod(score: int) -> int | None:
    return None if score <= 0 else modifier(score)


def kill(character: Character, cause: str, rules: tuple[str, ...] = (), **why: Any) -> tuple[Character, list[Event]]:
    """She dies of `cause` (a cause of death's code: ability_zero, threshold, poison, deprivation …), the values
    that explain it in the fact; her `dead` is the cause."""
    if not character.alive:
        return character, []
    died = fact(DEATH, character, (), rules, cause=cause, **why)
    return character.model_copy(update={"dead": cause}), [died]


def set_score(character: Character, ability: Ability, score: int, rules: Ruleset, why: str,
              loss: Loss = "permanent", cite: tuple[str, ...] = ()) -> tuple[Character, list[Event]]:
    """H-ABIL-01..03: the new score, its modifier, HP under con_change_hp, and death at 0. `why` is the cause in
    a few words (a disease's name, "aging"), `cite` the rules it carries out."""
    if not character.alive:
        return character, []
    score = max(0, min(ABSOLUTE_CAP, score))
    before = character.scores[ability]
    old, new = _mod(before), _mod(score)
    after = _track(character.model_copy(update={"scores": {**character.scores, ability: score}}),
                   ability, before - score, loss)
    events = [fact(ABILITY, character, (), (*cite, "H-ABIL-01"), ability=ability, loss=loss, amount=before - score,
                   before=before, after=score, modifier_before=old, modifier_after=new, why=why)]
    if score == 0:
        after, died = kill(after, "ability_zero", ("H-ABIL-03",), ability=ability)
        return after, events + died
    if ability == "CON" and old is not None and new is not None and old != new:
        after, hp = _con_hp(after, new - old, rules)
        events += hp
    return after, events


def _track(character: Character, ability: Ability, lost: int, loss: Loss) -> Character:
    """Remember a temporary loss (what rest may give back; never more than was lost, H-HEAL-08)."""
    if loss not in BUCKETS or lost <= 0:
        return character
    bucket = BUCKETS[loss]
    losses = state(character).get(bucket, {})
    return with_state(character, **{bucket: {**losses, ability: losses.get(ability, 0) + lost}})


def _con_hp(character: Character, delta: int, rules: Ruleset) -> tuple[Character, list[Event]]:
    """H-ABIL-02, AMB-79: under retroactive, Δmod × the hit dice rolled moves current and maximum HP."""
    if rules["con_change_hp"] != "retroactive":
        return character, []
    dice_rolled = max(1, min(character.level, 5))
    change = delta * dice_rolled
    hp, hp_max = character.hp + change, max(0, character.hp_max + change)
    after = character.model_copy(update={"hp": min(hp, hp_max), "hp_max": hp_max})
    return after, [fact(CON_HP, character, (), ("H-ABIL-02",), delta=delta, dice=dice_rolled, hp_before=character.hp,
                        hp_after=after.hp, hp_max_before=character.hp_max, hp_max_after=hp_max)]


def lose(character: Character, ability: Ability, amount: int, rules: Ruleset, why: str,
         loss: Loss = "permanent", cite: tuple[str, ...] = ()) -> tuple[Character, list[Event]]:
    return set_score(character, ability, character.scores[ability] - amount, rules, why, loss, cite)


def recover(character: Character, weeks: int, rules: Ruleset, fed: bool = True) -> tuple[Character, list[Event]]:
    """H-HEAL-06, H-STARV-05: each week of rest gives back 1 point of every temporary loss, 2 of a loss to
    hunger and thirst (with proper food); never above the score before the loss (H-HEAL-08)."""
    events: list[Event] = []
    for bucket, rate in (("deprivation_loss", 2 if fed else 0), ("temporary_loss", 1)):
        for ability in ABILITIES:
            lost = state(character).get(bucket, {}).get(ability, 0)
            back = min(lost, rate * weeks)
            if back <= 0:
                continue
            losses = {**state(character)[bucket], ability: lost - back}
            character = with_state(character, **{bucket: {k: v for k, v in losses.items() if v}})
            before = character.scores[ability]
            character = character.model_copy(update={"scores": {**character.scores, ability: before + back}})
            rule = "H-STARV-05" if bucket == "deprivation_loss" else "H-HEAL-06"
            events.append(fact(RECOVERY, character, (), (rule, "H-HEAL-08"), ability=ability, before=before,
                               after=before + back, back=back, weeks=weeks, bucket=bucket))
    if not state(character).get("deprivation_loss"):
        character = with_state(character, failed_deprivation_saves=0)
    return character, events


def take_damage(character: Character, amount: int, rules: Ruleset, why: str) -> tuple[Character, list[Event]]:
    """H-DMG-01..03 for a character out of an encounter: HP drop (below 0 too); 0 or less is unconscious;
    dead at −3 under the hazards death model (at −(3 + LVL + CON) under furnace)."""
    if not character.alive or amount <= 0:
        return character, []
    hp = character.hp - amount
    after = character.model_copy(update={"hp": hp})
    events = [fact(DAMAGE, character, (), ("H-DMG-01",), amount=amount, hp_before=character.hp, hp_after=hp,
                   hp_max=character.hp_max, means=why)]
    if rules["death_model"] == "hazards" and hp <= HAZARDS_FLOOR:
        after, died = kill(after, HAZARDS_DEATH, ("H-DMG-03",), hp=hp, threshold=HAZARDS_FLOOR)
        return after, events + died
    threshold = -(3 + character.level + character.mod("CON"))
    if rules["death_model"] not in ("hazards", "middle-sea") and hp <= threshold:
        after, died = kill(after, "threshold", ("F-DEATH-02",), hp=hp, level=character.level,
                           con=character.mod("CON"), threshold=threshold)
        return after, events + died
    if hp <= 0 and "UNCONSCIOUS" not in after.conditions:
        after = after.model_copy(update={"conditions": [*after.conditions, "UNCONSCIOUS"]})
        events.append(fact(UNCONSCIOUS, character, (), ("H-DMG-02",), hp=hp))
    return after, events
