"""Ability score loss and damage outside an encounter (H-ABIL-01..03, H-DMG-01..03, H-HEAL-06/08).

A changed score recomputes its modifier and nothing else (H-ABIL-01); a change of CON modifier moves HP only
under the option con_change_hp = retroactive (CF-37, AMB-79); a score of 0 kills (H-ABIL-03, F-ABIL-05).
Temporary losses are remembered so that rest can give them back (H-HEAL-06): `temporary_loss` (disease,
drugs) and `deprivation_loss` (hunger and thirst, back twice as fast, H-STARV-05). Aging losses are permanent.
"""

from __future__ import annotations

from typing import Literal

from furnace.characters.abilities import modifier
from furnace.characters.character import ABSOLUTE_CAP, Character
from furnace.events import Event
from furnace.hazards.common import state, with_state
from furnace.rules.effects import ABILITIES, Ability
from furnace.rules.ruleset import Ruleset

Loss = Literal["permanent", "temporary", "deprivation", "passing"]   # passing: undone by its cause (drink)
BUCKETS = {"temporary": "temporary_loss", "deprivation": "deprivation_loss"}


def _mod(score: int) -> int | None:
    return None if score <= 0 else modifier(score)


def kill(character: Character, how: str) -> tuple[Character, list[Event]]:
    if not character.alive:
        return character, []
    died = Event.said("death", character.name, f"dies: {how}", data={"how": how})
    return character.model_copy(update={"dead": how}), [died]


def set_score(character: Character, ability: Ability, score: int, rules: Ruleset, why: str,
              loss: Loss = "permanent") -> tuple[Character, list[Event]]:
    """H-ABIL-01..03: the new score, its modifier, HP under con_change_hp, and death at 0."""
    if not character.alive:
        return character, []
    score = max(0, min(ABSOLUTE_CAP, score))
    before = character.scores[ability]
    old, new = _mod(before), _mod(score)
    after = _track(character.model_copy(update={"scores": {**character.scores, ability: score}}),
                   ability, before - score, loss)
    what = f"{ability} {before} → {score} ({why})"
    what += f", modifier {old:+d} → {new:+d}" if new is not None and old is not None and old != new else ""
    events = [Event.said("ability", character.name, what, before=before, after=score,
                    data={"ability": ability, "loss": loss, "modifier_before": old, "modifier_after": new})]
    if score == 0:
        after, died = kill(after, f"{ability} fell to 0 (H-ABIL-03)")
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
    return after, [Event.said("hp", character.name, f"CON modifier {delta:+d} × {dice_rolled} HD: HP {character.hp} → "
                         f"{after.hp}, max {character.hp_max} → {hp_max} (H-ABIL-02)",
                         before=character.hp, after=after.hp)]


def lose(character: Character, ability: Ability, amount: int, rules: Ruleset, why: str,
         loss: Loss = "permanent") -> tuple[Character, list[Event]]:
    return set_score(character, ability, character.scores[ability] - amount, rules, why, loss)


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
            events.append(Event.said("ability", character.name, f"{ability} {before} → {before + back}: {back} point(s) "
                                f"back after {weeks} week(s) of rest", before=before, after=before + back,
                                data={"ability": ability, "recovered": back, "bucket": bucket}))
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
    events = [Event.said("damage", character.name, f"takes {amount} from {why}: HP {character.hp} → {hp}",
                    before=character.hp, after=hp, data={"amount": amount})]
    floor = -3 if rules["death_model"] == "hazards" else -(3 + character.level + character.mod("CON"))
    if rules["death_model"] != "middle-sea" and hp <= floor:
        after, died = kill(after, f"HP {hp}, at or below {floor}")
        return after, events + died
    if hp <= 0 and "UNCONSCIOUS" not in after.conditions:
        after = after.model_copy(update={"conditions": [*after.conditions, "UNCONSCIOUS"]})
        events.append(Event.said("unconscious", character.name, f"drops at {hp} HP: unconscious (H-DMG-02)"))
    return after, events
