"""Drugs, alcohol and poison (H-DRUG-01/02, H-POIS-01, AMB-80, AMB-82, CF-35).

- Poison: a save vs. poison (D-5: CON) against the poison's DC (hazard_save_dc unless it has its own, AMB-82);
  a failure applies its one effect in full, a success nothing (all or nothing, H-POIS-01).
- Drugs: like poison, with milder referee-defined effects; no save when taken on purpose (H-DRUG-01).
- Drunk: the DRUNK condition, −2 to the DEX score (modifier recomputed; option drunk_dex_penalty = modifier
  lowers the DEX modifier instead) and −2 to every save, for drunk_duration_hours (H-DRUG-02, AMB-80). The
  score is never lowered below 1: drink alone does not kill (our reading).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from furnace import dice
from furnace.characters.character import Character
from furnace.characters.facts import fact
from furnace.dice import DiceSource
from furnace.errors import DataFileError, FurnaceError, from_validation
from furnace.events import Event, declare
from furnace.hazards.common import (
    Category,
    counted,
    declare_save,
    hazard_save,
    member,
    require,
    ruleset,
    save_event,
    stamp,
    state,
    with_state,
)
from furnace.hazards.scores import Loss, kill, lose, set_score, take_damage
from furnace.play.clock import HOUR, Campaign, Fire, handler, schedule
from furnace.rules.datafile import read_yaml
from furnace.rules.effects import Ability
from furnace.rules.ruleset import Ruleset

# the facts of drink, drugs and poison, and who may know each value
POISON_SAVE = declare_save("poison_save", toxin="public", example={"toxin": "asp venom"})
DRUG = declare("drug", toxin="public", example={"toxin": "dreamweed"})
POISON = declare("poison", toxin="public", effect="public", condition="public", amount="actor",
                 example={"toxin": "black lotus", "effect": "condition", "condition": "UNCONSCIOUS", "amount": 0})
DRUNK = declare("drunk", dex="actor", dex_mod="actor", saves="public", example={"dex": 2, "dex_mod": 0, "saves": -2})
SOBER = declare("sober")


class ToxinEffect(BaseModel):
    """What a failed save does: death, a condition (deep sleep …), ability loss or HP damage."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    kind: Literal["death", "condition", "ability_loss", "damage"]
    ability: Ability | None = None
    amount: int = Field(1, ge=1)
    dice: str | None = None
    condition: str | None = None
    permanent: bool = False


class Toxin(BaseModel):
    """A poison (all or nothing) or a drug (milder, no save when taken on purpose)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    name: str
    effect: ToxinEffect
    drug: bool = False
    dc: int | None = None                 # AMB-82: the poison's own DC; hazard_save_dc when unset
    save_category: Category = "poison"


def load_toxin(path: str | Path) -> Toxin:
    """A referee's poison or drug (REF-33, REF-35), a YAML file: `name`, `effect` {kind: death | condition |
    ability_loss | damage, ability, amount, dice, condition, permanent}, `drug` (true for a drug), `dc`."""
    data = read_yaml(Path(path), "poison file")
    if not isinstance(data, dict):
        raise DataFileError(str(path), "a poison is a mapping with name and effect (and drug, dc)")
    try:
        toxin = Toxin.model_validate(data)
    except ValidationError as exc:
        raise from_validation(str(path), exc) from None
    if toxin.effect.kind == "ability_loss" and toxin.effect.ability is None:
        raise DataFileError(str(path), "field effect.ability: an ability_loss effect names its ability")
    return toxin


def poison(character: Character, toxin: Toxin, rng: DiceSource, rules: Ruleset | None = None, *,
           intentional: bool = False) -> tuple[Character, list[Event]]:
    """H-POIS-01 (and H-DRUG-01 for a drug): save or suffer the whole effect; a drug taken on purpose has no
    save."""
    rules = ruleset(rules)
    require(rules, "hazards_poison_drugs", "H-POIS-01", "poison and drugs")
    if not character.alive:
        return character, []
    events: list[Event] = []
    if intentional and toxin.drug:
        events.append(fact(DRUG, character, (), ("H-DRUG-01",), toxin=toxin.name))
    else:
        result = hazard_save(character, toxin.save_category, rng, rules, toxin.name, dc=toxin.dc)
        cite = ("H-DRUG-01",) if toxin.drug else ("H-POIS-01",) + (("AMB-82",) if toxin.dc is not None else ())
        events.append(save_event(POISON_SAVE, character, result, toxin.save_category, rules, cite, toxin=toxin.name))
        character, luck_events = counted(character, result, rules)
        events += luck_events
        if result.success:
            return character, events
    character, hurt = _suffer(character, toxin, rng, rules)
    return character, events + hurt


def _suffer(character: Character, toxin: Toxin, rng: DiceSource, rules: Ruleset) -> tuple[Character, list[Event]]:
    effect = toxin.effect
    cite = ("H-DRUG-01",) if toxin.drug else ("H-POIS-01",)
    if effect.kind == "death":
        return kill(character, "poison", cite, toxin=toxin.name)
    if effect.kind == "condition":
        name = (effect.condition or "UNCONSCIOUS").upper()
        after = character.model_copy(update={"conditions": [*character.conditions, name]})
        return after, [fact(POISON, character, (), cite, toxin=toxin.name, effect="condition", condition=name)]
    if effect.kind == "ability_loss":
        if effect.ability is None:
            raise FurnaceError(f"{toxin.name}: an ability_loss effect names its ability")
        loss: Loss = "permanent" if effect.permanent else "temporary"
        return lose(character, effect.ability, effect.amount, rules, toxin.name, loss, cite)
    roll = dice.roll(effect.dice or str(effect.amount), rng, label="DAM")
    after, events = take_damage(character, roll.total, rules, toxin.name)
    return after, [fact(POISON, character, (roll,), cite, toxin=toxin.name, effect="damage", amount=roll.total),
                   *events]


# -- alcohol (H-DRUG-02) ---------------------------------------------------------------------------------------
def make_drunk(character: Character, rules: Ruleset | None = None) -> tuple[Character, list[Event]]:
    """DRUNK: −2 DEX (score or modifier, drunk_dex_penalty) and −2 to saves (added by every hazard SAVE)."""
    rules = ruleset(rules)
    require(rules, "hazards_poison_drugs", "H-DRUG-02", "drunkenness")
    if "DRUNK" in character.conditions or not character.alive:
        return character, []
    after = character.model_copy(update={"conditions": [*character.conditions, "DRUNK"]})
    if rules["drunk_dex_penalty"] == "modifier":
        after = with_state(after, drunk={"dex_mod": -2})
        return after, [fact(DRUNK, character, (), ("H-DRUG-02", "AMB-80"), dex=0, dex_mod=-2, saves=-2)]
    dex = character.scores["DEX"]
    lowered = dex - max(1, dex - 2)
    after, events = set_score(after, "DEX", dex - lowered, rules, "drunk", "passing", ("H-DRUG-02",))
    after = with_state(after, drunk={"dex": lowered})
    return after, [fact(DRUNK, character, (), ("H-DRUG-02", "AMB-80"), dex=lowered, dex_mod=0, saves=-2), *events]


def sober_up(character: Character, rules: Ruleset | None = None) -> tuple[Character, list[Event]]:
    """The drink wears off: DEX comes back and DRUNK ends."""
    rules = ruleset(rules)
    if "DRUNK" not in character.conditions:
        return character, []
    back = int(state(character).get("drunk", {}).get("dex", 0))
    after = with_state(character.model_copy(update={"conditions": [c for c in character.conditions
                                                                    if c != "DRUNK"]}), drunk={})
    events = [fact(SOBER, character, (), ("H-DRUG-02", "AMB-80"))]
    if back and after.alive:
        after, restored = set_score(after, "DEX", after.scores["DEX"] + back, rules, "sober again", "passing",
                                    ("H-DRUG-02",))
        events += restored
    return after, events


def drink(campaign: Campaign, name: str, rules: Ruleset | None = None) -> tuple[Campaign, list[Event]]:
    """Make a character drunk and put her sobering up on the clock (drunk_duration_hours, AMB-80)."""
    rules = ruleset(rules)
    after, events = make_drunk(member(campaign, name), rules)
    campaign = campaign.model_copy(update={"characters": {**campaign.characters, name: after}})
    if events:
        hours = int(rules["drunk_duration_hours"])
        campaign, _ = schedule(campaign, "sober_up", after=hours * HOUR, owner=name, label=f"{name} sobers up")
    return campaign, events


@handler("sober_up")
def _sober_up(fire: Fire) -> None:
    character, events = sober_up(fire.character(), fire.rules)
    fire.put(character)
    stamp(fire, events)
