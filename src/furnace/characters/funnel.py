"""The 0-level funnel: roll peasants, record who died and how, promote the survivors to level 1.

F-CHAR-01/02, F-ABIL-01, F-RACE-01…06, F-HP-05, F-HP-03, F-CHAR-03/04.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from furnace import dice
from furnace.characters.abilities import roll_in_order
from furnace.characters.advancement import FEATURE, choose_feature, hp_gain
from furnace.characters.character import (
    ABSOLUTE_CAP,
    CLASSES,
    Character,
    CharacterError,
    Occupation,
    Weapon,
    archetype_table,
    check_archetype,
    check_choices,
    clamp_natural,
)
from furnace.characters.equipment import equip, fighting_style_name, starting_kit
from furnace.characters.facts import fact
from furnace.dice import DiceSource
from furnace.events import Event, Part, declare
from furnace.rules.effects import ABILITIES, Ability
from furnace.rules.ruleset import Ruleset, load_ruleset

RACES = ("Human", "Dwarf", "Elf", "Halfling", "Half-orc")
DEFAULT_ARCHETYPES = {"Fighter": "Barbarian", "Cleric": "Bloodshaman", "Rogue": "Arcane Trickster",
                      "Magic-user": "Wizard"}
SCORES = {"STR": 12, "DEX": 9, "CON": 14, "INT": 8, "WIS": 11, "CHA": 10}
# the facts of a 0-level character's making (F-CHAR-01/02, F-ABIL-01, F-RACE-01…06, F-HP-05) and of a promotion
ABILITY_SCORES = declare("ability_scores", rolls="actor", scores="actor", example={"scores": SCORES})
SWAP = declare("swap", swapped="public", example={"swapped": ["STR", "CHA"]})
RACE = declare("race", race="public", scores="actor", example={"race": "Dwarf", "scores": SCORES})
ZERO_HP = declare("hp", rolls="actor", hp="actor", example={"hp": 3})
OCCUPATION = declare("occupation", rolls="actor", occupation="public", proficiency="public", item="public",
                     example={"occupation": "Farmer", "proficiency": "Nature", "item": "pitchfork"})
PROMOTE = declare("promote", rolls="actor", char_class="public", archetype="public", hp_before="actor",
                  hp_after="actor", carryover="public", how="actor", gained="actor", die="actor", rolled="actor",
                  floor="actor", base="actor", con="actor",
                  example={"char_class": "Fighter", "archetype": "Barbarian", "hp_before": 3, "hp_after": 13,
                           "carryover": "add", "how": "rolled", "gained": 10, "die": "d10", "rolled": 10,
                           "floor": None})
KIT = declare("kit", gear="public", example={"gear": ["longsword", "chain-mail", "shield", "rope"]})
FELL = "death"       # a death in the funnel: the engine's kind (furnace.play.death), its `cause` the referee's words


def roll_occupation(rng: DiceSource, rules: Ruleset) -> tuple[Occupation, dice.RollResult]:
    """d100 on Furnace's occupation table: a skill or tool proficiency and a trade item (F-CHAR-02)."""
    rolled = rules.tables.roll("occupations", rng, label="occupation")
    data = rolled.row.data
    prof = data["proficiency"]
    name = prof.get("name") or prof["choices"][rng.randrange(len(prof["choices"]))]
    return Occupation(name=data["occupation"], proficiency=name, proficiency_kind=prof.get("kind", "skill"),
                      item=str(data.get("item", "")), roll=rolled.roll.total), rolled.roll


def trade_weapon(occupation: Occupation, rules: Ruleset) -> list[Weapon]:
    """A peasant fights with the trade item when it can serve as a weapon (its damage in X-TAB-01)."""
    if occupation.roll is None:
        return []
    data = rules.tables.get("occupations").lookup(occupation.roll).data
    damage = data.get("item_damage")
    if not damage:
        return []
    ranged = any(word in occupation.item.lower() for word in ("bow", "sling"))
    kind = "two-handed" if damage == "1d8" else ("ranged" if ranged else "one-handed")
    return [Weapon(name=occupation.item, category="simple", kind=kind, damage=str(damage))]


def apply_race(scores: dict[Ability, int], race: str, rules: Ruleset) -> dict[Ability, int]:
    """Racial +1/−1 to scores. The +1 is natural, so it stops at 18 (AMB-09); under the option
    racial_bonus_above_18 a racial trait is no 'natural circumstance' and may reach 19 (at most 20)."""
    adjust = rules.tables.get("races").lookup(race).data.get("adjust", {}) or {}
    above_18 = bool(rules["racial_bonus_above_18"])
    out = dict(scores)
    for ability, delta in adjust.items():
        key = ability.removesuffix("_score")
        raised = out[key] + int(delta)
        if delta > 0:
            out[key] = max(0, min(ABSOLUTE_CAP, raised)) if above_18 else clamp_natural(raised)
        else:
            out[key] = max(0, raised)
    return out


def new_zero_level(rng: DiceSource, rules: Ruleset | None = None, *, name: str = "", race: str | None = None,
                   player: str | None = None, swap: tuple[Ability, Ability] | None = None,
                   ) -> tuple[Character, list[Event]]:
    """A 0-level character: 3d6 in order, a race, the Human's optional swap, 1d4 HP, an occupation."""
    rules = rules or load_ruleset()
    rolls = roll_in_order(rng)
    scores: dict[Ability, int] = {r.ability: r.score for r in rolls}
    race = race or RACES[rng.randrange(len(RACES))]
    known_races = rules.tables.get("races").keys()
    if race not in RACES and race not in known_races:
        raise CharacterError(f"unknown race {race!r}; known: {', '.join(RACES)}")
    name = name or f"Peasant {rng.randrange(1000):03d}"
    cast = {name: Part(name, "pc", player or "")}
    events = [Event(ABILITY_SCORES, name, (), tuple(r.roll for r in rolls), {"scores": dict(scores)}, ("F-ABIL-01",),
                    cast)]
    if swap is not None:
        if race != "Human":
            raise CharacterError("only a Human may swap two ability scores (F-RACE-02)")
        scores = _swapped(scores, *swap)
        events.append(Event(SWAP, name, (), (), {"swapped": list(swap)}, ("F-RACE-02",), cast))
    scores = apply_race(scores, race, rules)
    hp = dice.parse("1d4").roll(rng, label="HP")
    occupation, occ_roll = roll_occupation(rng, rules)
    events.append(Event(RACE, name, (), (), {"race": race, "scores": dict(scores)}, ("F-RACE-01",), cast))
    events.append(Event(ZERO_HP, name, (), (hp,), {"hp": hp.total}, ("F-HP-05",), cast))
    events.append(Event(OCCUPATION, name, (), (occ_roll,), {"occupation": occupation.name,
                                                           "proficiency": occupation.proficiency,
                                                           "item": occupation.item}, ("F-CHAR-02",), cast))
    skills = [occupation.proficiency] if occupation.proficiency_kind == "skill" else []
    tools = [occupation.proficiency] if occupation.proficiency_kind == "tool" else []
    character = Character(name=name, player=player, race=race, occupation=occupation, level=0, scores=scores,
                          hp_max=hp.total, hp=hp.total, hit_dice=1, skills=skills, tools=tools,
                          items=[occupation.item] if occupation.item else [], swapped=swap,
                          weapons=trade_weapon(occupation, rules))
    return character, events


def _swapped(scores: dict[Ability, int], a: Ability, b: Ability) -> dict[Ability, int]:
    if a not in ABILITIES or b not in ABILITIES or a == b:
        raise CharacterError(f"a swap names two different scores of {', '.join(ABILITIES)}, not {a} and {b}")
    out = dict(scores)
    out[a], out[b] = scores[b], scores[a]
    return out


def swap_scores(character: Character, a: Ability, b: Ability) -> tuple[Character, list[Event]]:
    """A Human's one swap of two scores (F-RACE-02), made when she is asked (AMB-10: at creation, before her
    class; a Human's race changes no score, so the swap after the race's ±1 is the same as before it)."""
    if character.swapped is not None or character.level != 0:
        raise CharacterError(f"{character.name} may swap two scores only once, at creation (F-RACE-02, AMB-10)")
    after = character.model_copy(update={"scores": _swapped(character.scores, a, b), "swapped": (a, b)})
    return after, [fact(SWAP, character, (), ("F-RACE-02",), swapped=[a, b])]


@dataclass(frozen=True)
class Party:
    """A funnel party: each player's characters, and how the fallen fell."""

    characters: tuple[Character, ...]
    events: tuple[Event, ...] = field(default=(), repr=False)

    def by_player(self) -> dict[str, list[Character]]:
        out: dict[str, list[Character]] = {}
        for c in self.characters:
            out.setdefault(c.player or "", []).append(c)
        return out

    @property
    def survivors(self) -> list[Character]:
        return [c for c in self.characters if c.alive]

    def record_death(self, name: str, how: str) -> Party:
        """Mark a character dead with the cause; the roster keeps them (the funnel's story)."""
        found = False
        chars = []
        for c in self.characters:
            if c.name == name:
                if not c.alive:
                    raise CharacterError(f"{name} is already dead ({c.dead})")
                c, found = c.model_copy(update={"dead": how, "hp": min(c.hp, 0)}), True
            chars.append(c)
        if not found:
            raise CharacterError(f"no character named {name!r} in the party")
        return replace(self, characters=tuple(chars),
                       events=(*self.events, fact(FELL, next(c for c in chars if c.name == name), (), ("F-CHAR-01",),
                                                  cause=how)))

    def to_dict(self) -> dict[str, Any]:
        return {"characters": [c.model_dump(mode="json") for c in self.characters],
                "events": [e.to_dict() for e in self.events]}


def run_funnel(rng: DiceSource, players: int = 4, per_player: int = 4, rules: Ruleset | None = None) -> Party:
    """N players × 4 characters (F-CHAR-01)."""
    if not 1 <= players <= 20 or not 1 <= per_player <= 10:
        raise CharacterError("a funnel has 1–20 players with 1–10 characters each")
    rules = rules or load_ruleset()
    chars: list[Character] = []
    events: list[Event] = []
    for p in range(1, players + 1):
        for i in range(1, per_player + 1):
            c, evs = new_zero_level(rng, rules, name=f"P{p}-{i}", player=f"Player {p}")
            chars.append(c)
            events += evs
    return Party(tuple(chars), tuple(events))


def promote(character: Character, char_class: str, archetype: str, rng: DiceSource,
            rules: Ruleset | None = None, *, skills: Sequence[str] = (), extra_save: Ability | None = None,
            expertise: Sequence[str] = (), fighting_style: str | None = None,
            kit: Sequence[int] | None = None, with_kit: bool = True, feature: str | None = None,
            ) -> tuple[Character, list[Event]]:
    """A funnel survivor becomes level 1: class, archetype, class HP, saves, skills (F-CHAR-03/04).

    Every choice is checked before a die is rolled (`check_choices`; the archetype's class and prerequisite,
    naming the archetypes she may take). Under archetype_feature_at_level_1 (F-ARCH-01's optional rule) she
    gains one archetype feature now: `feature`, or the first of the list (AMB-46)."""
    rules = rules or load_ruleset()
    if not character.alive:
        raise CharacterError(f"{character.name} is dead and cannot advance")
    if character.level != 0:
        raise CharacterError(f"{character.name} is level {character.level}, not a 0-level survivor")
    if char_class not in CLASSES:
        raise CharacterError(f"class must be one of {', '.join(CLASSES)}")
    basic = archetype_table(rules, archetype).lookup("basic").data
    check_archetype(character, char_class, archetype, rules)
    data = rules.tables.get("classes").lookup(char_class).data
    save_ability = data["save_ability"]
    saves = [save_ability] + ([extra_save] if extra_save and extra_save != save_ability else [])
    archetype_skills = list(basic.get("skill_profs", []))
    allowed = skill_count(character, char_class, rules)
    if len(skills) > allowed:
        raise CharacterError(f"a level-1 {char_class} with INT {character.mod('INT', rules):+d} chooses {allowed} "
                             "skills")
    if len(expertise) > (2 if char_class == "Rogue" else 0):
        raise CharacterError("only a Rogue gains Expertise: two more proficient skills (F-ROG-03)")
    if char_class == "Fighter" and fighting_style is None:
        fighting_style = "Defense"
    stepped = character.model_copy(update={
        "char_class": char_class, "archetype": archetype, "level": 1, "saves": saves,
        "skills": _unique(character.skills + archetype_skills + list(skills)),
        "expertise": list(expertise) if char_class == "Rogue" else [],
        "features": list(data.get("features", [])),
        "fighting_style": None if fighting_style is None else fighting_style_name(fighting_style, rules),
    })
    check_choices(stepped, rules)
    stepped, events = _level_1_feature(stepped, rules, feature)
    gain, rolls, how = hp_gain(stepped, 1, rng, rules)
    carry = str(rules["funnel_hp_carryover"])
    hp_max = (character.hp_max if carry == "add" else 0) + gain.gained
    promoted = stepped.model_copy(update={
        "hp_max": hp_max, "hp": hp_max, "hit_dice": 1, "hp_history": [*character.hp_history, gain]})
    events.insert(0, fact(PROMOTE, character, tuple(rolls), ("F-CHAR-03", "F-HP-03", "D-6"), char_class=char_class,
                          archetype=archetype, hp_before=character.hp_max, hp_after=hp_max, carryover=carry, **how))
    if with_kit:
        chosen = starting_kit(char_class, rules, kit)
        promoted = equip(promoted, chosen)
        gear = [w.name for w in chosen.weapons] + ([chosen.armor] if chosen.armor else []) + \
            (["shield"] if chosen.shield else [])
        events.append(fact(KIT, character, (), (), gear=[*gear, *chosen.items]))
    return promoted, events


def _level_1_feature(character: Character, rules: Ruleset, feature: str | None) -> tuple[Character, list[Event]]:
    """F-ARCH-01's optional rule (archetype_feature_at_level_1): one archetype feature at level 1 (the player's
    pick or the first, AMB-46); without the rule a feature asked for is refused."""
    if not rules["archetype_feature_at_level_1"]:
        if feature is not None:
            raise CharacterError("an archetype feature comes at level 1 only under the referee's optional rule "
                                 "(archetype_feature_at_level_1, F-ARCH-01)")
        return character, []
    gained = choose_feature(character, rules, feature)
    return character.model_copy(update={"archetype_features": [gained]}), [
        fact(FEATURE, character, (), ("F-ARCH-01",), feature=gained, at_level_1=True)]


def skill_count(character: Character, char_class: str, rules: Ruleset) -> int:
    """1 + INT (Rogue 3 + INT per option), never below 0 (CF-08, AMB-43); a Human's one more (F-RACE-02)."""
    base = 3 if char_class == "Rogue" and rules["rogue_skills"] == "class_section" else 1
    race = rules.tables.get("races").lookup(character.race).data
    return max(0, base + character.mod("INT", rules)) + int(race.get("bonus_skill_profs", 0))


def _unique(items: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(items))


__all__ = ["ABILITIES", "RACES", "Party", "new_zero_level", "promote", "roll_occupation", "run_funnel", "swap_scores"]
