"""Rest: short rest spends one Hit Die, long rest spends them all and refills the pool (F-REST-01/02).

No CON is added to a Hit Die spent, and no floor applies (AMB-13); HP never exceed the maximum.
Any rest ends the effects that last "until rest" (D-7). The healing model is a rule option: the Hazards
and Middle Sea models plug in under the same names (CF-32).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from furnace import dice
from furnace.characters.character import Character, CharacterError
from furnace.dice import DiceSource
from furnace.events import Event
from furnace.play.registry import Registry
from furnace.rules.ruleset import Ruleset, load_ruleset


def spend_hit_die(character: Character, rng: DiceSource, rules: Ruleset, why: str) -> tuple[Character, Event]:
    """Roll one die of the pool and heal that much (up to max); the pool loses the die."""
    if character.hit_dice < 1:
        raise CharacterError(f"{character.name} has no Hit Dice left in the pool")
    die = character.hit_die(rules)
    roll = dice.parse(die).roll(rng, label=f"{character.name} spends a Hit Die ({die}) on a {why}")
    hp = min(character.hp_max, max(character.hp, 0) + roll.total)
    after = character.model_copy(update={"hp": hp, "hit_dice": character.hit_dice - 1})
    return after, Event("heal", character.name, f"spends a Hit Die: HP {character.hp} → {hp}", (roll,),
                        before=character.hp, after=hp)


def pool_size(character: Character, rules: Ruleset) -> int:
    """The Hit Dice of the level (F-HP-06, AMB-13): 1 at levels 0–1, up to 5 from level 5."""
    row = rules.tables.get(str(rules["advancement_table"])).lookup(character.level).data
    return int(row.get("hd_pool", max(1, min(character.level, 5))))


def _end_until_rest(character: Character, events: list[Event]) -> Character:
    if character.until_rest:
        events.append(Event("rest", character.name, "no longer: " + "; ".join(character.until_rest)))
    return character.model_copy(update={"until_rest": []})


def short_rest(character: Character, rng: DiceSource, rules: Ruleset | None = None,
               ) -> tuple[Character, list[Event]]:
    """F-REST-01: spend one Hit Die (if the pool has one); end "until rest" effects."""
    rules = rules or load_ruleset()
    _check_alive(character)
    events: list[Event] = []
    if character.hit_dice > 0 and character.hp < character.hp_max:
        character, event = spend_hit_die(character, rng, rules, "short rest")
        events.append(event)
    return _end_until_rest(character, events), events


def long_rest(character: Character, rng: DiceSource, rules: Ruleset | None = None,
              ) -> tuple[Character, list[Event]]:
    """F-REST-02, AMB-14: roll every Hit Die left and heal, refill the pool, end "until rest" effects."""
    rules = rules or load_ruleset()
    _check_alive(character)
    events: list[Event] = []
    while character.hit_dice > 0 and character.hp < character.hp_max:
        character, event = spend_hit_die(character, rng, rules, "long rest")
        events.append(event)
    refill = pool_size(character, rules)
    events.append(Event("rest", character.name, f"Hit Dice pool refilled: {character.hit_dice} → {refill}",
                        before=character.hit_dice, after=refill))
    character = character.model_copy(update={"hit_dice": refill})
    return _end_until_rest(character, events), events


def _check_alive(character: Character) -> None:
    if not character.alive:
        raise CharacterError(f"{character.name} is dead ({character.dead}) and cannot rest")


RestFn = Callable[[Character, DiceSource, Ruleset | None], tuple[Character, list[Event]]]
# the `healing_model` option names the model; the Hazards and Middle Sea chapters register theirs (CF-32)
HEALING_MODELS: Registry[Mapping[str, RestFn]] = Registry("healing model")
HEALING_MODELS.add("furnace", {"short": short_rest, "long": long_rest})


def rest(character: Character, kind: str, rng: DiceSource, rules: Ruleset | None = None,
         ) -> tuple[Character, list[Event]]:
    """A rest under the healing model in force (CF-32)."""
    rules = rules or load_ruleset()
    model = HEALING_MODELS.find(str(rules["healing_model"]))
    if model is None:
        raise CharacterError(f"the {rules['healing_model']} healing model is not built yet; use the furnace model")
    if kind not in model:
        raise CharacterError(f"the {rules['healing_model']} healing model rests by {', '.join(model)}, not {kind!r}")
    return model[kind](character, rng, rules)
