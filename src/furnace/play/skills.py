"""Skill CHECKs: the 5e skill list with its abilities, PROF and Expertise, and what makes them EASY or HARD.

F-BASE-07 (skills and PROF), F-ABIL-04 (which ability a task uses), F-ROG-03 (Expertise: two more
proficient skills, not 5e's double PROF, AMB-43),
F-EQ-02 (armor with a stealth penalty makes Stealth HARD), racial and archetype EASY checks
(F-RACE-03…06, F-ARCH-02…05, which apply in their stated situations), F-CMBT-04 (stunts).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from furnace.characters.character import SKILLS, Character, CharacterError
from furnace.dice import DiceSource
from furnace.play import registry
from furnace.play.checks import CheckResult, Modifier, check, make_dc
from furnace.rules.effects import Ability
from furnace.rules.ruleset import Ruleset, load_ruleset

SKILL_ABILITY: dict[str, Ability] = {
    "Athletics": "STR",
    "Acrobatics": "DEX", "Sleight of Hand": "DEX", "Stealth": "DEX",
    "Arcana": "INT", "History": "INT", "Investigation": "INT", "Nature": "INT", "Religion": "INT",
    "Animal Handling": "WIS", "Insight": "WIS", "Medicine": "WIS", "Perception": "WIS", "Survival": "WIS",
    "Deception": "CHA", "Intimidation": "CHA", "Performance": "CHA", "Persuasion": "CHA",
}
assert set(SKILL_ABILITY) == set(SKILLS)

# F-ABIL-04: the ability a kind of task uses, in our words.
ABILITY_DOMAINS: dict[Ability, str] = {
    "STR": "brute force, moving things, grappling, melee attacks",
    "DEX": "dodging, climbing, sneaking, ranged attacks",
    "CON": "resisting poison, travelling without rest, the HP floor per level",
    "INT": "reasoning and knowledge; arcane SPELLCHECKs",
    "WIS": "senses and insight; divine SPELLCHECKs",
    "CHA": "performing, leading, deceiving, persuading; how folk react to you",
}


def skill_modifiers(character: Character, skill: str, rules: Ruleset) -> list[Modifier]:
    """The ability modifier, and PROF when proficient (Expertise skills are proficient skills, AMB-43)."""
    if skill not in SKILL_ABILITY:
        raise CharacterError(f"unknown skill {skill!r}; the skills are {', '.join(SKILLS)}")
    ability = SKILL_ABILITY[skill]
    mods = [Modifier(character.mod(ability), ability)]
    if skill in character.skills or skill in character.expertise:
        mods.append(Modifier(character.prof(rules), "PROF (Expertise)" if skill in character.expertise else "PROF"))
    return mods


def situational(character: Character, skill: str, rules: Ruleset) -> tuple[list[str], list[str]]:
    """EASY and HARD that may apply: racial and archetype EASY skills (in their situation) and armor."""
    easy: list[str] = []
    race = rules.tables.get("races").lookup(character.race).data
    if skill in race.get("easy_checks", []) or SKILL_ABILITY[skill] in race.get("easy_checks", []):
        easy.append(f"{character.race}: {race.get('feature', skill)}")
    for feature in character.archetype_feature_data(rules):
        if skill in feature.get("easy_checks", []):
            easy.append(f"{character.archetype} feature")
    hard: list[str] = []
    if skill == "Stealth" and character.armor:
        armor = rules.tables.get("armor").lookup(character.armor).data
        if armor.get("stealth") == "HARD":
            hard.append(f"{character.armor} (stealth penalty, F-EQ-02)")
    return easy, hard


def skill_check(character: Character, skill: str, rng: DiceSource, room_dc: int, rules: Ruleset | None = None, *,
                situation: bool = False, easy: Sequence[str] = (), hard: Sequence[str] = ()) -> CheckResult:
    """A skill CHECK vs the ROOM DC. `situation=True` says the racial/archetype EASY's situation holds
    (e.g. a Dwarf's History about architecture); armor's stealth penalty always applies."""
    rules = rules or load_ruleset()
    own_easy, own_hard = situational(character, skill, rules)
    dc = make_dc(room_dc, [*(own_easy if situation else []), *easy], [*own_hard, *hard], rules)
    mods = skill_modifiers(character, skill, rules)
    mods += [Modifier(p.checks, p.source) for p in registry.state_modifiers(character) if p.checks]
    return check(rng, dc, mods, kind="CHECK",
                 label=f"{character.name}: {skill} ({SKILL_ABILITY[skill]})", rules=rules)


@dataclass(frozen=True)
class Stunt:
    """F-CMBT-04: a skill CHECK first; success makes the follow-up EASY, failure HARD."""

    check: CheckResult
    follow_up: str

    def explain(self) -> str:
        return f"{self.check.explain()} → the follow-up is {self.follow_up}"


def stunt(character: Character, skill: str, rng: DiceSource, room_dc: int, rules: Ruleset | None = None) -> Stunt:
    result = skill_check(character, skill, rng, room_dc, rules)
    return Stunt(result, "EASY" if result.success else "HARD")
