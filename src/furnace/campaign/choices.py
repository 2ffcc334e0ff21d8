"""The choices of promotion and levelling, asked and never made behind the referee's back.

Every choice the rules give a player (F-CHAR-03/04, F-FTR-04, F-ROG-03, F-CLR-03, F-MU-05/06, F-ARCH-01/04/05,
F-ADV-03, AMB-46, AMB-62) is asked: a `Choices` value carries what was chosen; a value off its list is refused
naming the list (`ChoiceError`, with `allowed`); a missing one is refused listing what is open, unless `random`
is set, when the dice source picks it (a die of as many faces as there are options, kept with the event) and an
event says what was picked ("picked at random: skills Athletics, Stealth; save DEX"). Every value given is
checked before a missing one is asked for. The lists are the tables in force: a referee's archetype file added
to the campaign is offered with the packaged ones where its prerequisite holds.

`promote_character` and `level_up_character` wrap `characters.funnel.promote` and `characters.advancement.
level_up` (which check the rules) with the asking; they work on a character alone, a file's or a member's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from furnace import dice
from furnace.campaign.state import CampaignError
from furnace.characters.advancement import MAX_LEVEL
from furnace.characters.advancement import level_up as _level_up
from furnace.characters.character import (
    CLASSES,
    MAX_NAME,
    SKILLS,
    Character,
    CharacterError,
    archetype_names,
    archetype_table,
    unmet_prerequisite,
)
from furnace.characters.facts import fact
from furnace.characters.funnel import promote as _promote
from furnace.characters.funnel import skill_count
from furnace.dice import DiceSource
from furnace.events import Event, Part, declare
from furnace.rules.effects import ABILITIES, Ability
from furnace.rules.ruleset import Ruleset

EXPERTISE = 2                     # F-ROG-03: two more skills
NATURAL_CAP = 18                  # F-ABIL-03: a +1 at 4/6/8/10 stops here
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
# the choices the dice made (`picked`: each choice and what was picked for it), the spells and cantrips a level
# opened, a new name
CHOICE = declare("choice", rolls="actor", picked="public", example={"picked": [["archetype", ["Barbarian"]],
                                                                 ["skills", ["Athletics", "Stealth"]]]})
LEARN = declare("learn", spells="public", cantrips="public", known="actor",
                example={"spells": ["Fireball"], "cantrips": ["Light"], "known": 3})
RENAME = declare("rename", before="public", after="public", example={"before": "Ann-1", "after": "Mirela"})


class ChoiceError(CharacterError):
    """A choice off its list, or a required one missing: says what is allowed."""

    def __init__(self, message: str, choice: str, allowed: Sequence[str]) -> None:
        self.choice = choice
        self.allowed = list(allowed)
        super().__init__(message)

    def to_dict(self) -> dict[str, object]:
        return {**super().to_dict(), "choice": self.choice, "allowed": self.allowed}


@dataclass(frozen=True)
class Choices:
    """What the player chose for a promotion or a level (each a CLI option); `random` fills what is missing."""

    char_class: str | None = None
    archetype: str | None = None
    skills: tuple[str, ...] = ()
    expertise: tuple[str, ...] = ()
    save: str | None = None
    style: str | None = None
    spells: tuple[str, ...] = ()
    cantrips: tuple[str, ...] = ()
    ability: str | None = None
    feature: str | None = None
    weapon: str | None = None       # the martial melee weapon an archetype feature names (F-ARCH-03)
    kit: tuple[str, ...] = ()       # the starting kit's alternatives taken (F-TAB-40); the first of each otherwise
    random: bool = False


# -- picking: the dice fill a missing choice, or it is refused listing what is open ---------------------------
@dataclass
class _Picker:
    rng: DiceSource
    random: bool
    character: Character
    picked: list[tuple[str, list[str]]] = field(default_factory=list)
    rolls: list[dice.RollResult] = field(default_factory=list)

    def some(self, what: str, flag: str, given: Sequence[str], count: int, open_: Sequence[str],
             why: str) -> list[str]:
        """`count` choices: those given, the rest picked with the dice (with `random`) or refused."""
        chosen = list(given)
        for i, g in enumerate(chosen):
            if g in chosen[:i] or g not in open_:
                why_not = "is given twice" if g in chosen[:i] else "cannot be chosen here"
                raise ChoiceError(f"{g} {why_not}: {why}; open: {', '.join(open_) or 'none'}", what, open_)
        if len(chosen) > count:
            raise ChoiceError(f"{why}: {count} {what}, not {len(chosen)} ({', '.join(chosen)})", what, open_)
        pool = [o for o in open_ if o not in chosen]
        missing = min(count - len(chosen), len(pool))
        if missing <= 0:
            return chosen
        if not self.random:
            listed = ", ".join(pool) or "none"
            raise ChoiceError(f"{why}: choose {missing} more with {flag} (one of {listed}), or pass --random",
                              what, pool)
        new = [self._one(what, pool) for _ in range(missing)]
        self.picked.append((what, new))
        return chosen + new

    def one(self, what: str, flag: str, given: str | None, open_: Sequence[str], why: str) -> str:
        if given is not None:
            return given
        if not open_:
            raise ChoiceError(f"{why}: there is none to choose", what, [])
        if not self.random:
            raise ChoiceError(f"{why}: choose with {flag} one of {', '.join(open_)}, or pass --random", what, open_)
        pick = self._one(what, list(open_))
        self.picked.append((what, [pick]))
        return pick

    def _one(self, what: str, pool: list[str]) -> str:
        if len(pool) == 1:
            return pool.pop()
        roll = dice.parse(f"d{len(pool)}").roll(self.rng, label=f"{what} at random")
        self.rolls.append(roll)
        return pool.pop(roll.total - 1)

    def event(self) -> list[Event]:
        if not self.picked:
            return []
        return [fact(CHOICE, self.character, tuple(self.rolls), (), picked=[[what, list(names)]
                                                                           for what, names in self.picked])]


def _a(noun: str) -> str:
    """'an Elf', 'a Dwarf'."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def _spelled(given: str, allowed: Sequence[str], what: str) -> str:
    """A choice spelled as its list spells it (any case), or refused naming the list."""
    if isinstance(given, str):
        for a in allowed:
            if a.lower() == given.strip().lower():
                return a
    noun = what.split(" ", 1)[-1]
    raise ChoiceError(f"{given!r} is not {what}; {noun}s are {', '.join(allowed)}", noun, allowed)


# -- promotion: F-CHAR-03/04 --------------------------------------------------------------------------------
def open_archetypes(character: Character, rules: Ruleset, char_class: str | None = None) -> list[tuple[str, str]]:
    """(archetype, class) of every archetype in force whose prerequisite the character meets (F-ARCH-01/03)."""
    out = []
    for name in archetype_names(rules):
        of = str(archetype_table(rules, name).lookup("basic").data.get("archetype_of"))
        if (char_class is None or of == char_class) and unmet_prerequisite(character, name, rules) is None:
            out.append((name, of))
    return out


def _shown(pairs: Sequence[tuple[str, str]]) -> str:
    return ", ".join(f"{a} ({c})" for a, c in pairs) or "none"


def _class_and_archetype(c: Character, ch: Choices, rules: Ruleset, pick: _Picker) -> tuple[str, str]:
    names = archetype_names(rules)
    archetype = _spelled(ch.archetype, names, "an archetype") if ch.archetype is not None else None
    char_class = _spelled(ch.char_class, CLASSES, "a class") if ch.char_class is not None else None
    if archetype is not None:
        of = str(archetype_table(rules, archetype).lookup("basic").data.get("archetype_of"))
        if char_class is not None and of != char_class:
            raise ChoiceError(f"{archetype} is an archetype of the {of}, not the {char_class}; open to {c.name}: "
                              f"{_shown(open_archetypes(c, rules, char_class))}", "archetype",
                              [a for a, _ in open_archetypes(c, rules, char_class)])
        unmet = unmet_prerequisite(c, archetype, rules)
        if unmet:
            everywhere = open_archetypes(c, rules)
            raise ChoiceError(f"{unmet}; the archetypes open to {c.name} are {_shown(everywhere)}", "archetype",
                              [a for a, _ in everywhere])
        return char_class or of, archetype
    classes = sorted({of for _, of in open_archetypes(c, rules)}, key=CLASSES.index)
    char_class = pick.one("class", "--class", char_class, classes,
                          f"{c.name} becomes one of the classes (F-CHAR-03)")
    allowed = [a for a, _ in open_archetypes(c, rules, char_class)]
    why = f"{_a(c.race)} {char_class} takes an archetype (F-CHAR-03, F-ARCH-01)"
    if not allowed:
        raise ChoiceError(f"no {char_class} archetype in force is open to {_a(c.race)} ({c.name}); open: "
                          f"{_shown(open_archetypes(c, rules))}; a referee's archetype file can add one "
                          "(campaign override add)", "archetype", [])
    return char_class, pick.one("archetype", "--archetype", None, allowed, why)


def _skills(c: Character, char_class: str, archetype: str, ch: Choices, rules: Ruleset,
            pick: _Picker) -> tuple[list[str], list[str]]:
    """The level-1 skills (F-CHAR-04, AMB-43: a skill held already lets her pick another) and, for a Rogue, the
    two of Expertise (F-ROG-03)."""
    given = [_spelled(s, SKILLS, "a skill") for s in ch.skills]
    expert = [_spelled(s, SKILLS, "a skill") for s in ch.expertise]
    held = [*c.skills, *archetype_table(rules, archetype).lookup("basic").data.get("skill_profs", [])]
    for s in given:
        if s in held:
            raise ChoiceError(f"{c.name} is proficient in {s} already (occupation or archetype): choose another "
                              "(AMB-43)", "skill", [x for x in SKILLS if x not in held])
    count = skill_count(c, char_class, rules)
    base = 3 if char_class == "Rogue" and rules["rogue_skills"] == "class_section" else 1
    bonus = count - max(0, base + c.mod("INT", rules))
    why = (f"a level-1 {c.race} {char_class} with INT {c.mod('INT', rules):+d} chooses {count} skill(s) "
           f"({base} + INT, never below 0{f', +{bonus} for {_a(c.race)}' if bonus else ''}; F-CHAR-04)")
    skills = pick.some("skills", "--skill", given, count, [s for s in SKILLS if s not in held], why)
    if char_class != "Rogue":
        if expert:
            raise ChoiceError(f"only a Rogue gains Expertise (F-ROG-03), not {_a(char_class)}", "expertise", [])
        return skills, []
    after = [*held, *skills]
    double = rules["expertise"] == "double_prof"
    open_ = [s for s in SKILLS if (s in after) == double]
    return skills, pick.some("expertise", "--expertise", expert, EXPERTISE, open_,
                             f"a Rogue's Expertise is {EXPERTISE} more skills (F-ROG-03, expertise: "
                             f"{rules['expertise']})")


def _save(c: Character, char_class: str, ch: Choices, rules: Ruleset, pick: _Picker) -> Ability:
    own = str(rules.tables.get("classes").lookup(char_class).data["save_ability"])
    given = _spelled(ch.save.strip().upper(), ABILITIES, "a save") if ch.save is not None else None
    open_ = [a for a in ABILITIES if a != own]
    if given == own:
        raise ChoiceError(f"{own} is the {char_class}'s own save: choose one more of {', '.join(open_)}", "save",
                          open_)
    return pick.one("save", "--save", given, open_, f"{_a(char_class)} has the {own} save and one more (AMB-62)")  # type: ignore[return-value]


def fighting_styles(rules: Ruleset) -> list[str]:
    """The styles in force (F-TAB-39, F-FTR-04)."""
    return [str(r.data.get("name", r.key)) for r in rules.tables.get("fighting-styles").rows]


def _style(char_class: str, ch: Choices, rules: Ruleset, pick: _Picker) -> str | None:
    styles = fighting_styles(rules)
    given = _spelled(ch.style, styles, "a fighting style") if ch.style is not None else None
    if char_class != "Fighter":
        if given:
            raise ChoiceError(f"only a Fighter takes a fighting style (F-FTR-04), not {_a(char_class)}", "style", [])
        return None
    return pick.one("style", "--style", given, styles, "a Fighter takes one fighting style (F-FTR-04)")


def _first_feature(archetype: str, ch: Choices, rules: Ruleset, pick: _Picker) -> str | None:
    """F-ARCH-01's optional rule (archetype_feature_at_level_1): a feature of the archetype at level 1 too."""
    rows = [str(r.key) for r in archetype_table(rules, archetype).rows if r.data.get("part") == "feature"]
    given = _spelled(ch.feature, rows, f"{_a(archetype)} feature") if ch.feature is not None else None
    if not rules["archetype_feature_at_level_1"]:
        if given is not None:
            raise ChoiceError("an archetype feature comes at level 1 only under the referee's optional rule "
                              "(archetype_feature_at_level_1, F-ARCH-01)", "feature", [])
        return None
    return pick.one("feature", "--feature", given, rows,
                    f"the referee gives {_a(archetype)} feature at level 1 (archetype_feature_at_level_1, F-ARCH-01)")


def promote_character(c: Character, ch: Choices, rng: DiceSource, rules: Ruleset) -> tuple[Character, list[Event]]:
    """A 0-level survivor becomes level 1 with the choices given (or picked by the dice with `ch.random`).

    Example:
        promote_character(peasant, Choices(char_class="Fighter", archetype="Barbarian", skills=("Athletics",),
                                           save="DEX", style="Defense"), rng, rules)
    """
    if not c.alive or c.level != 0:
        raise CharacterError(f"{c.name} is {'dead' if not c.alive else f'level {c.level}'}: only a living "
                             "0-level survivor is promoted (F-CHAR-03)")
    _check_given(c, ch, rules)
    pick = _Picker(rng, ch.random, c)
    char_class, archetype = _class_and_archetype(c, ch, rules, pick)
    skills, expertise = _skills(c, char_class, archetype, ch, rules, pick)
    save = _save(c, char_class, ch, rules, pick)
    style = _style(char_class, ch, rules, pick)
    feature = _first_feature(archetype, ch, rules, pick)
    after, events = _promote(c, char_class, archetype, rng, rules, skills=skills, extra_save=save,
                             expertise=expertise, fighting_style=style, feature=feature,
                             kit=_kit(char_class, ch.kit, rules))
    after = _weapon_prof(_magic(after, ch, rules, pick), ch, feature, rules, pick)
    return after, [*pick.event(), *events, *_learned(c, after)]


def _kit(char_class: str, named: Sequence[str], rules: Ruleset) -> list[int] | None:
    """The picks of the class's example kit (F-TAB-40) for the alternatives the player names ("two-handed mace",
    "scalemail"); a pick she names none of takes its first alternative, as the table lists it."""
    if not named:
        return None
    choices: list[list[str]] = rules.tables.get("starting-equipment").lookup(char_class.lower()).data["choices"]
    alternatives = [str(o) for options in choices for o in options]
    picks = [0] * len(choices)
    for name in named:
        found = [(n, i) for n, options in enumerate(choices) for i, o in enumerate(options)
                 if str(o).casefold() == name.strip().casefold()]
        if not found:
            raise ChoiceError(f"{name!r} is not in the {char_class} kit (F-TAB-40): its alternatives are "
                              f"{', '.join(alternatives)}", "kit", alternatives)
        picks[found[0][0]] = found[0][1]
    return picks


# -- levelling: F-ADV-02/03, AMB-46 -------------------------------------------------------------------------
def level_up_character(c: Character, ch: Choices, rng: DiceSource, rules: Ruleset) -> tuple[Character, list[Event]]:
    """One level with the choices it asks: +1 to a score at 4/6/8/10, an archetype feature where due (the
    player's choice, AMB-46), the spells a higher cap opens and a Trickster's cantrip.

    Example:
        level_up_character(hero, Choices(ability="STR"), rng, rules)
    """
    if c.char_class is None or not c.alive or c.level >= MAX_LEVEL:
        return _level_up(c, rng, rules)           # its own refusal: 0-level, dead, level 10
    _check_given(c, ch, rules)
    pick = _Picker(rng, ch.random, c)
    level = c.level + 1
    due = list(rules.tables.get(str(rules["advancement_table"])).lookup(level).data.get("features", []))
    ability = _ability(c, ch, level, "ability_score_plus_1" in due, pick)
    feature = _feature(c, ch, level, "archetype_feature" in due, rules, pick)
    after, events = _level_up(c, rng, rules, ability=ability, feature=feature)
    after = _weapon_prof(_magic(after, ch, rules, pick), ch, feature, rules, pick)
    return after, [*pick.event(), *events, *_learned(c, after)]


def _ability(c: Character, ch: Choices, level: int, due: bool, pick: _Picker) -> Ability | None:
    given = _spelled(ch.ability.strip().upper(), ABILITIES, "an ability") if ch.ability is not None else None
    if not due:
        if given:
            raise ChoiceError(f"level {level} gives no +1 to an ability score (F-ADV-03: levels 4, 6, 8 and 10)",
                              "ability", [])
        return None
    open_ = [a for a in ABILITIES if c.scores[a] < NATURAL_CAP] or list(ABILITIES)
    return pick.one("ability", "--ability", given, open_,  # type: ignore[return-value]
                    f"level {level} gives +1 to an ability score, up to {NATURAL_CAP} (F-ADV-03)")


def _feature(c: Character, ch: Choices, level: int, due: bool, rules: Ruleset, pick: _Picker) -> str | None:
    if c.archetype is None:
        if due or ch.feature is not None:
            raise ChoiceError(f"{c.name} has no archetype to take a feature of (F-CHAR-03)", "feature", [])
        return None
    rows = [str(r.key) for r in archetype_table(rules, c.archetype).rows if r.data.get("part") == "feature"]
    given = _spelled(ch.feature, rows, f"{_a(str(c.archetype))} feature") if ch.feature is not None else None
    free = [k for k in rows if k not in c.archetype_features]
    if not due:
        if given:
            raise ChoiceError(f"level {level} gives no archetype feature (the advancement table in force: "
                              f"{rules['advancement_table']})", "feature", [])
        return None
    if given is not None and given not in free:
        raise ChoiceError(f"{c.name} has the feature {given} already; free: {', '.join(free)}", "feature", free)
    if not free:
        return given                               # level_up says she has every feature already
    return pick.one("feature", "--feature", given, free,
                    f"level {level} gives one unused {c.archetype} feature, the player's choice (AMB-46)")


def _weapon_prof(c: Character, ch: Choices, feature: str | None, rules: Ruleset, pick: _Picker) -> Character:
    """F-ARCH-03: a feature that gives PROF with "one martial melee weapon" (data.weapon_profs) asks which: one
    she carries, or one the weapons table (F-TAB-22) names; kept in extensions["archetype"]["weapon_prof"]."""
    wants = [] if feature is None or c.archetype is None else list(
        archetype_table(rules, c.archetype).lookup(feature).data.get("weapon_profs", []))
    if not wants:
        if ch.weapon is not None:
            raise ChoiceError("no feature taken here names a weapon (F-ARCH-03)", "weapon", [])
        return c
    category = str(wants[0].get("category", "martial"))
    melee = bool(wants[0].get("melee"))
    rows = [r.data for r in rules.tables.get("weapons").rows
            if r.data.get("category") == category and not (melee and r.data.get("type") == "ranged")]
    open_ = list(dict.fromkeys([*(w.name for w in c.weapons if w.category == category
                                  and not (melee and w.kind == "ranged")),
                                *(str(x) for data in rows for x in data.get("examples", []))]))
    given = _spelled(ch.weapon, open_, f"a {category}{' melee' if melee else ''} weapon") if ch.weapon else None
    name = pick.one("weapon", "--weapon", given, open_,
                    f"{feature} gives PROF with one {category}{' melee' if melee else ''} weapon, the player's "
                    "choice (F-ARCH-03)")
    arch = {**c.extensions.get("archetype", {}), "weapon_prof": name}
    return c.model_copy(update={"extensions": {**c.extensions, "archetype": arch}})


# -- spells known and cantrips: F-CLR-03, F-MU-05/06, F-ARCH-04/05 ---------------------------------------------
def _check_given(c: Character, ch: Choices, rules: Ruleset) -> None:
    """Every value given is on its list, before a missing one is asked for or a die is rolled."""
    from furnace.magic.cantrips import load_cantrips
    from furnace.magic.spells import get_spell

    for skill in (*ch.skills, *ch.expertise):
        _spelled(skill, SKILLS, "a skill")
    for ability in (ch.save, ch.ability):
        if ability is not None:
            _spelled(ability.strip().upper(), ABILITIES, "a save" if ability is ch.save else "an ability")
    if ch.style is not None:
        _spelled(ch.style, fighting_styles(rules), "a fighting style")
    if ch.feature is not None and c.archetype is not None:
        rows = [str(r.key) for r in archetype_table(rules, c.archetype).rows if r.data.get("part") == "feature"]
        _spelled(ch.feature, rows, f"{_a(c.archetype)} feature")
    for name in ch.spells:
        get_spell(rules, name)
    book = load_cantrips()
    for name in ch.cantrips:
        book.get(name)


def _magic(c: Character, ch: Choices, rules: Ruleset, pick: _Picker) -> Character:
    """The spells the new cap opens and the cantrips she may know, learnt (given or picked)."""
    from furnace.magic.cantrips import cantrip_cap, learn, load_cantrips
    from furnace.magic.casting import learn_spell, spells_known_cap
    from furnace.magic.spells import all_spells, get_spell

    cap = spells_known_cap(c, rules)
    given = [get_spell(rules, s).name for s in ch.spells]
    if given and cap == 0:
        raise ChoiceError(f"{_a(str(c.char_class))} learns no spells (F-CLR-03, F-MU-05)", "spell", [])
    open_ = [s.name for s in all_spells(rules) if s.name not in c.spells]
    count = min(max(0, cap - len(c.spells)), len(open_))
    if given or count:
        for name in pick.some("spells", "--spell", given, count, open_, _spell_why(c, cap, rules)):
            c = learn_spell(c, name, rules)
    book = load_cantrips()
    named = [book.get(n).name for n in ch.cantrips]
    can = cantrip_cap(c)
    if named and can == 0:
        raise ChoiceError(f"{_a(str(c.char_class))} learns no cantrips (F-MU-06, F-ARCH-04)", "cantrip", [])
    open_ = [n for n in book.names() if book.get(n).allowed(rules) and n not in c.cantrips]
    count = min(max(0, can - len(c.cantrips)), len(open_))
    if named or count:
        why = f"{c.name} knows {can} cantrip(s) and knows {len(c.cantrips)} (F-MU-06, F-ARCH-04)"
        for name in pick.some("cantrips", "--cantrip", named, count, open_, why):
            c = learn(c, name, rules, book)
    return c


def _spell_why(c: Character, cap: int, rules: Ruleset) -> str:
    if c.char_class == "Cleric":
        rule = "1 + LVL, F-CLR-03"
    else:
        rule = "1 + LVL + INT" + (" + 2 for Bookworm" if "bookworm" in c.archetype_features else "") + ", F-MU-05"
    return (f"a level-{c.level} {c.char_class} with INT {c.mod('INT', rules):+d} knows up to {cap} spell(s) "
            f"({rule}) and knows {len(c.spells)}")


def _learned(before: Character, after: Character) -> list[Event]:
    new_spells = [s for s in after.spells if s not in before.spells]
    new_cantrips = [s for s in after.cantrips if s not in before.cantrips]
    if not new_spells and not new_cantrips:
        return []
    return [fact(LEARN, after, (), ("F-MU-05", "F-MU-06"), spells=new_spells, cantrips=new_cantrips,
                 known=len(after.spells))]


# -- names ------------------------------------------------------------------------------------------------------
def check_name(name: str) -> str:
    """A character's name: 1 to 100 characters, not blank, no control characters."""
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME or _CONTROL.search(name):
        raise CampaignError(f"{name!r} is not a character's name: 1 to {MAX_NAME} characters, not blank, no "
                            "control characters")
    return name.strip()


def renamed(c: Character, new: str) -> tuple[Character, Event]:
    new = check_name(new)
    return c.model_copy(update={"name": new}), Event(RENAME, new, (), (), {"before": c.name, "after": new}, (),
                                                     {new: Part(new, "pc", c.player or "")})


__all__ = ["ChoiceError", "Choices", "check_name", "fighting_styles", "level_up_character", "open_archetypes",
           "promote_character", "renamed"]
