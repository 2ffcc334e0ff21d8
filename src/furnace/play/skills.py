"""Skill CHECKs: the 5e skill list with its abilities, PROF and Expertise, and what makes them EASY or HARD.

F-BASE-07 (skills and PROF), F-ABIL-04 (which ability a task uses), F-ROG-03 (Expertise: two more
proficient skills, not 5e's double PROF, AMB-43; option expertise),
F-EQ-02 (armor with a stealth penalty makes Stealth HARD), racial and archetype EASY checks
(F-RACE-03…06, F-ARCH-02…05, which apply in their stated situations, AMB-63; option racial_easy),
F-CMBT-04 (stunts), and the character's markers (`furnace.characters.markers`): armor she is not proficient in
(D-9), over Load (AMB-57), injuries (F-TAB-37a/b rows 14-19, F-TAB-38's scar and lost eye) and conditions.
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
    """The ability modifier, and PROF when proficient: Expertise skills are proficient skills (AMB-43), or
    under the option expertise double_prof they add PROF twice (5e)."""
    if skill not in SKILL_ABILITY:
        raise CharacterError(f"unknown skill {skill!r}; the skills are {', '.join(SKILLS)}")
    ability = SKILL_ABILITY[skill]
    mods = [Modifier(character.mod(ability, rules), ability)]
    if skill in character.expertise and rules["expertise"] == "double_prof":
        mods.append(Modifier(2 * character.prof(rules), "PROF ×2 (Expertise, expertise: double_prof)"))
    elif skill in character.skills or skill in character.expertise:
        mods.append(Modifier(character.prof(rules), "PROF (Expertise)" if skill in character.expertise else "PROF"))
    return mods


def situational(character: Character, skill: str, rules: Ruleset) -> tuple[list[str], list[str]]:
    """EASY and HARD that may apply: racial EASY skills (in their situation, AMB-63) and armor."""
    easy: list[str] = []
    race = rules.tables.get("races").lookup(character.race).data
    if skill in race.get("easy_checks", []) or SKILL_ABILITY[skill] in race.get("easy_checks", []):
        easy.append(f"{character.race}: {race.get('feature', skill)}")
    hard: list[str] = []
    if skill == "Stealth" and character.armor:
        armor = rules.tables.get("armor").lookup(character.armor).data
        if armor.get("stealth") == "HARD":
            hard.append(f"{character.armor} (stealth penalty, F-EQ-02)")
    return easy, hard


def ability_easy(character: Character, ability: Ability, rules: Ruleset) -> list[str]:
    """A race's EASY on a plain ability CHECK, in its situation (the Halfling's CHA CHECKs performing for
    humanoids, F-RACE-05, AMB-63)."""
    race = rules.tables.get("races").lookup(character.race).data
    return [f"{character.race}: {race.get('feature', ability)}"] if ability in race.get("easy_checks", []) else []


def archetype_easy(character: Character, skill: str, rules: Ruleset) -> list[str]:
    """F-ARCH-02…05: an archetype feature's EASY skill ("Intimidation CHECKS are EASY", "Arcana checks are EASY")
    names no situation: it always applies (data.easy_checks)."""
    return [f"{character.archetype} feature ({skill} CHECKs are EASY)" for feature in
            character.archetype_feature_data(rules) if skill in feature.get("easy_checks", [])]


def _touches(applies_to: str, skill: str, sight: bool) -> bool:
    """Whether a marker's rolls include this skill's CHECK: every CHECK, the ability's CHECKs, the skill by
    name (the scar's persuasion, intimidation), or sight-based Perception (a lost eye)."""
    names = {"checks", f"{SKILL_ABILITY[skill].lower()}_checks", skill.lower().replace(" ", "_")}
    if skill == "Perception" and sight:
        names.add("perception_sight")
    return applies_to in names


def marked(character: Character, skill: str, rules: Ruleset, *, sight: bool = True,
           ) -> tuple[list[str], list[str], bool]:
    """The EASY and HARD the character's markers put on this skill's CHECK, and whether it is at DISADVANTAGE
    (F-TAB-37a rows 14-19; with use_advantage off a DISADVANTAGE is taken as HARD)."""
    easy: list[str] = []
    hard: list[str] = []
    disadvantage = False
    for m in character.markers(rules):
        if not _touches(m.applies_to, skill, sight):
            continue
        if m.mode == "EASY":
            easy.append(m.source)
        elif m.mode == "DISADVANTAGE" and rules["use_advantage"]:
            disadvantage = True
        elif m.mode in ("HARD", "DISADVANTAGE"):
            hard.append(m.source if m.mode == "HARD" else f"{m.source}, DISADVANTAGE as HARD (use_advantage off)")
    return easy, hard, disadvantage


def skill_check(character: Character, skill: str, rng: DiceSource, room_dc: int, rules: Ruleset | None = None, *,
                situation: bool = False, easy: Sequence[str] = (), hard: Sequence[str] = (),
                sight: bool = True) -> CheckResult:
    """A skill CHECK vs the ROOM DC. `situation=True` says the racial EASY's situation holds (e.g. a Dwarf's
    History about architecture; always so under racial_easy automatic, AMB-63); an archetype's EASY skill, armor's
    stealth penalty and the character's markers always apply. `sight=False` says a Perception CHECK is not
    by sight (listening), so a lost eye does not touch it."""
    rules = rules or load_ruleset()
    situation = situation or rules["racial_easy"] == "automatic"
    own_easy, own_hard = situational(character, skill, rules)
    mark_easy, mark_hard, disadvantage = marked(character, skill, rules, sight=sight)
    always = archetype_easy(character, skill, rules)
    dc = make_dc(room_dc, [*(own_easy if situation else []), *always, *mark_easy, *easy],
                 [*own_hard, *mark_hard, *hard], rules)
    mods = skill_modifiers(character, skill, rules)
    mods += [Modifier(p.checks, p.source) for p in registry.state_modifiers(character) if p.checks]
    return check(rng, dc, mods, kind="CHECK", advantage="dis" if disadvantage else None,
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
