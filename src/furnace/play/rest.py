"""Rest: short rest spends one Hit Die, long rest spends them all and refills the pool (F-REST-01/02).

No CON is added to a Hit Die spent, and no floor applies (AMB-13); HP never exceed the maximum; under the
option `long_rest_heals: full` a long rest restores every HP instead (AMB-14, 5e). Any rest ends the effects
that last "until rest" (D-7) and resets the Spell Depletion count (AMB-41). Each long rest is a day of rest
toward healing the torso wound, which heals after `torso_injury_rest_days` of them or at once by magic (D-8);
the count is kept in `Character.extensions["rest"]`. A chapter adds what else a long rest renews (a magic
item's daily uses) to LONG_REST_HOOKS. The healing model is a rule option: the Hazards and Middle Sea models
plug in under the same names (CF-32).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from furnace import dice
from furnace.characters.character import Character, CharacterError
from furnace.characters.facts import fact
from furnace.dice import DiceSource
from furnace.events import Event, declare
from furnace.play.conditions import FIGHT_KEY
from furnace.play.registry import Registry
from furnace.rules.effects import Lasting
from furnace.rules.ruleset import Ruleset, load_ruleset

HIT_DIE = declare("hit_die", hp_before="actor", hp_after="actor", hp_max="actor", die="actor", left="actor",
                  why="public", example={"die": "d10", "why": "short rest"})
RESTED = declare("rested", ended="actor", spells_cast="actor", example={"ended": ["CANT_CAST: a mishap"]})
TORSO_WOUND = declare("torso_wound", days="actor", need="public", healed="public", by="public",
                      example={"healed": False, "by": ""})
POOL_REFILLED = declare("pool_refilled", before="actor", after="actor")
FULL_HEAL = declare("full_heal", hp_before="actor", hp_after="actor", hp_max="actor")
RAGES_BACK = declare("rages_back", rages="actor")


def spend_hit_die(character: Character, rng: DiceSource, rules: Ruleset, why: str) -> tuple[Character, Event]:
    """Roll one die of the pool and heal that much (up to max); the pool loses the die."""
    if character.hit_dice < 1:
        raise CharacterError(f"{character.name} has no Hit Dice left in the pool")
    die = character.hit_die(rules)
    roll = dice.parse(die).roll(rng, label="Hit Die")
    hp = min(character.hp_max, max(character.hp, 0) + roll.total)
    after = character.model_copy(update={"hp": hp, "hit_dice": character.hit_dice - 1})
    return after, fact(HIT_DIE, character, (roll,), ("F-HP-06",), hp_before=character.hp, hp_after=hp,
                       hp_max=character.hp_max, die=die, left=character.hit_dice - 1, why=why)


def pool_size(character: Character, rules: Ruleset) -> int:
    """The Hit Dice of the level (F-HP-06, AMB-13): 1 at levels 0–1, up to 5 from level 5 (the sheet's count)."""
    from furnace.characters.sheet import pool_size as of_level

    return of_level(character, rules)


def end_until_rest(character: Character, events: list[Event]) -> Character:
    """D-7, AMB-41: any rest ends the "until rest" effects (mishap lockouts, Spell Depletion, injury rows 14–19)
    and resets the count of spells toward the Spell Depletion SAVE."""
    if character.until_rest:
        events.append(fact(RESTED, character, (), ("D-7",), ended=list(character.until_rest)))
    if character.spells_cast:
        events.append(fact(RESTED, character, (), ("AMB-41",), spells_cast=character.spells_cast))
    return character.model_copy(update={"until_rest": [], "spells_cast": 0})


# -- the torso wound (D-8, AMB-34, F-TAB-38 8–11) ------------------------------------------------------------
TORSO = "torso"          # the name of the lasting effect of F-TAB-38 rows 8–11
REST_KEY = "rest"        # Character.extensions["rest"]: {"torso_days": days of rest toward the torso wound}


def _torso_rows(rules: Ruleset) -> list[tuple[str, Lasting]]:
    """(row text, lasting effect) of each lingering-injury row in force whose lasting mark is the torso wound."""
    return [(row.text, e) for row in rules.tables.get("lingering-injuries").rows for e in row.effect_list()
            if isinstance(e, Lasting) and e.name.lower() == TORSO]


def is_torso_wound(entry: str, rules: Ruleset | None = None) -> bool:
    """An injury entry that is the torso wound: the lasting effect's name, or the text of its lingering-injury
    row in the table in force (a fight records both)."""
    if entry.strip().lower() == TORSO:
        return True
    return any(entry == text for text, _ in _torso_rows(rules or load_ruleset()))


def _torso_held(held: dict[str, Any], rules: Ruleset) -> bool:
    """A periodic marker a fight left on the character (extensions["fight"]["held"]) that is the torso wound's
    SAVE at each of her turns."""
    periodic = [e.model_dump(exclude={"every"}, mode="json") for _, lasting in _torso_rows(rules)
                for e in lasting.effects if getattr(e, "every", None) is not None]
    return str(held.get("name", "")).startswith("EVERY:") and held.get("effect") in periodic


def rest_days(character: Character) -> int:
    """Days of rest counted toward the torso wound (D-8)."""
    return int(character.extensions.get(REST_KEY, {}).get("torso_days", 0))


def _without_torso(character: Character, rules: Ruleset | None) -> Character:
    """The character healed of the torso wound: its injury entries, the count of days and the SAVE a fight left."""
    rules = rules or load_ruleset()
    extensions = {k: v for k, v in character.extensions.items() if k not in (REST_KEY, FIGHT_KEY)}
    rest_state = {k: v for k, v in character.extensions.get(REST_KEY, {}).items() if k != "torso_days"}
    fight_state = dict(character.extensions.get(FIGHT_KEY, {}))
    if "held" in fight_state:
        fight_state["held"] = [h for h in fight_state["held"] if not _torso_held(h, rules)] or None
    fight_state = {k: v for k, v in fight_state.items() if v is not None}
    extensions |= ({REST_KEY: rest_state} if rest_state else {}) | ({FIGHT_KEY: fight_state} if fight_state else {})
    return character.model_copy(update={
        "injuries": [i for i in character.injuries if not is_torso_wound(i, rules)], "extensions": extensions})


def count_rest_days(character: Character, days: int, rules: Ruleset, events: list[Event]) -> Character:
    """D-8: days of rest toward the torso wound; it heals after `torso_injury_rest_days` of them."""
    if not any(is_torso_wound(i, rules) for i in character.injuries):
        return _without_torso(character, rules) if rest_days(character) else character
    need = int(rules["torso_injury_rest_days"])
    done = rest_days(character) + days
    if done >= need:
        events.append(fact(TORSO_WOUND, character, (), ("D-8",), days=done, need=need, healed=True))
        return _without_torso(character, rules)
    events.append(fact(TORSO_WOUND, character, (), ("D-8",), days=done, need=need, healed=False))
    state = {**character.extensions.get(REST_KEY, {}), "torso_days": done}
    return character.model_copy(update={"extensions": {**character.extensions, REST_KEY: state}})


def heal_by_magic(character: Character, events: list[Event], how: str, rules: Ruleset | None = None) -> Character:
    """D-8: magical healing (a healing spell, Lay on Hands) ends the torso wound at once."""
    if not any(is_torso_wound(i, rules) for i in character.injuries):
        return character
    events.append(fact(TORSO_WOUND, character, (), ("D-8",), by=how, healed=True))
    return _without_torso(character, rules)


def short_rest(character: Character, rng: DiceSource, rules: Ruleset | None = None,
               ) -> tuple[Character, list[Event]]:
    """F-REST-01: spend one Hit Die (if the pool has one); end "until rest" effects."""
    rules = rules or load_ruleset()
    _check_alive(character)
    events: list[Event] = []
    if character.hit_dice > 0 and character.hp < character.hp_max:
        character, event = spend_hit_die(character, rng, rules, "short rest")
        events.append(event)
    return rest_ends(character, rng, rules, events, long=False), events


def long_rest(character: Character, rng: DiceSource, rules: Ruleset | None = None,
              ) -> tuple[Character, list[Event]]:
    """F-REST-02, AMB-14: roll every Hit Die left and heal, refill the pool, end "until rest" effects."""
    rules = rules or load_ruleset()
    _check_alive(character)
    events: list[Event] = []
    character = _long_rest_heal(character, rng, rules, events)
    refill = pool_size(character, rules)
    events.append(fact(POOL_REFILLED, character, (), ("F-REST-02",), before=character.hit_dice, after=refill))
    character = character.model_copy(update={"hit_dice": refill})
    return rest_ends(character, rng, rules, events, long=True, days=1), events


def _long_rest_heal(character: Character, rng: DiceSource, rules: Ruleset, events: list[Event]) -> Character:
    """AMB-14, option long_rest_heals: roll every Hit Die left in the pool (`roll_pool`), or back to full HP
    with no roll (`full`, 5e)."""
    if rules["long_rest_heals"] == "full":
        if character.hp < character.hp_max:
            events.append(fact(FULL_HEAL, character, (), ("AMB-14",), hp_before=character.hp,
                               hp_after=character.hp_max, hp_max=character.hp_max))
        return character.model_copy(update={"hp": character.hp_max})
    while character.hit_dice > 0 and character.hp < character.hp_max:
        character, event = spend_hit_die(character, rng, rules, "long rest")
        events.append(event)
    return character


LongRestHook = Callable[[Character, DiceSource, Ruleset, list[Event]], Character]
# what a chapter renews at a long rest (magic: the daily uses of magic items), each appending its events
LONG_REST_HOOKS: Registry[LongRestHook] = Registry("long-rest hook")


def after_long_rest(character: Character, rng: DiceSource, rules: Ruleset, events: list[Event]) -> Character:
    """Run the chapters' long-rest hooks, in name order (a healing model's long rest calls this too)."""
    for _, hook in LONG_REST_HOOKS.items():
        character = hook(character, rng, rules, events)
    return character


def rest_ends(character: Character, rng: DiceSource, rules: Ruleset, events: list[Event], *, long: bool,
              days: int = 0) -> Character:
    """What a rest ends under every healing model (CF-32): the "until rest" effects and the Spell Depletion count
    (D-7, AMB-41; a short rest only under until_rest_ends_at any_rest); a long one also counts its `days` of
    rest toward the torso wound (D-8) and runs the chapters' long-rest hooks (Rages, magic items' uses)."""
    if long or rules["until_rest_ends_at"] == "any_rest":
        character = end_until_rest(character, events)
    if not long:
        return character
    if days:
        character = count_rest_days(character, days, rules, events)
    return after_long_rest(character, rng, rules, events)


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


@LONG_REST_HOOKS.register("furnace:rage")
def rage_back(character: Character, rng: DiceSource, rules: Ruleset, events: list[Event]) -> Character:
    """F-ARCH-02, AMB-46 (option rage_uses_per_long_rest): a long rest gives a Barbarian her Rages back."""
    fight = dict(character.extensions.get("fight", {}))
    if not fight.get("rages_used"):
        return character
    events.append(fact(RAGES_BACK, character, (), ("F-ARCH-02", "AMB-46"), rages=fight.pop("rages_used")))
    return character.model_copy(update={"extensions": {**character.extensions, "fight": fight}})
