"""The choices of creation, promotion and levelling, asked and never made behind the referee's back.

Every choice the rules give a player (F-CHAR-03/04, F-RACE-02, F-FTR-04, F-ROG-03, F-CLR-03, F-MU-05/06,
F-ARCH-01/04/05, F-ADV-03, F-TAB-40, AMB-46, AMB-62) is asked: a `Choices` value carries what was chosen; a
value off its list is refused naming the list (`ChoiceError`, with `allowed`); the missing ones are refused
together, each with its options (`ChoiceError.open`), unless `random` is set, when the dice source picks each (a
die of as many faces as there are options, kept with the event) and one fact per pick says what was picked
("picked at random: save DEX"). Every value given is checked before a missing one is asked for. The lists are
the tables in force: a referee's archetype file added to the campaign is offered with the packaged
ones where its prerequisite holds.

`new_character` makes a character of any level at once, every level's choices asked together.
`promote_character` and `level_up_character` wrap `characters.funnel.promote` and `characters.advancement.
level_up` (which check the rules) with the asking; they work on a character alone, a file's or a member's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from furnace.campaign.picking import ChoiceError, Choices, Open, Picker, a_or_an, refuse, spelled
from furnace.campaign.starting import kit as starting_kit
from furnace.campaign.starting import parse_swap, swap
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
from furnace.dice.source import seeded
from furnace.events import Event, Part, declare
from furnace.rules.effects import ABILITIES, Ability
from furnace.rules.ruleset import Ruleset

EXPERTISE = 2                     # F-ROG-03: two more skills
NATURAL_CAP = 18                  # F-ABIL-03: a +1 at 4/6/8/10 stops here
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
LEARN = declare("learn", spells="public", cantrips="public", known="actor",
                example={"spells": ["Fireball"], "cantrips": ["Light"], "known": 3})
RENAME = declare("rename", before="public", after="public", example={"before": "Ann-1", "after": "Mirela"})


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


def _class_and_archetype(c: Character, ch: Choices, rules: Ruleset, pick: Picker) -> tuple[str, str]:
    names = archetype_names(rules)
    archetype = spelled(ch.archetype, names, "an archetype") if ch.archetype is not None else None
    char_class = spelled(ch.char_class, CLASSES, "a class") if ch.char_class is not None else None
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
    why = f"{a_or_an(c.race)} {char_class} takes an archetype (F-CHAR-03, F-ARCH-01)"
    if not allowed:
        raise ChoiceError(f"no {char_class} archetype in force is open to {a_or_an(c.race)} ({c.name}); open: "
                          f"{_shown(open_archetypes(c, rules))}; a referee's archetype file can add one "
                          "(campaign override add)", "archetype", [])
    return char_class, pick.one("archetype", "--archetype", None, allowed, why)


def _skills(c: Character, char_class: str, archetype: str, ch: Choices, rules: Ruleset,
            pick: Picker) -> tuple[list[str], list[str]]:
    """The level-1 skills (F-CHAR-04, AMB-43: a skill held already lets her pick another) and, for a Rogue, the
    two of Expertise (F-ROG-03)."""
    given = [spelled(s, SKILLS, "a skill") for s in ch.skills]
    expert = [spelled(s, SKILLS, "a skill") for s in ch.expertise]
    held = [*c.skills, *archetype_table(rules, archetype).lookup("basic").data.get("skill_profs", [])]
    for s in given:
        if s in held:
            raise ChoiceError(f"{c.name} is proficient in {s} already (occupation or archetype): choose another "
                              "(AMB-43)", "skill", [x for x in SKILLS if x not in held])
    count = skill_count(c, char_class, rules)
    base = 3 if char_class == "Rogue" and rules["rogue_skills"] == "class_section" else 1
    bonus = count - max(0, base + c.mod("INT", rules))
    why = (f"a level-1 {c.race} {char_class} with INT {c.mod('INT', rules):+d} chooses {count} skill(s) "
           f"({base} + INT, never below 0{f', +{bonus} for {a_or_an(c.race)}' if bonus else ''}; F-CHAR-04)")
    skills = pick.some("skills", "--skill", given, count, [s for s in SKILLS if s not in held], why)
    if char_class != "Rogue":
        if expert:
            raise ChoiceError(f"only a Rogue gains Expertise (F-ROG-03), not {a_or_an(char_class)}", "expertise", [])
        return skills, []
    after = [*held, *skills]
    double = rules["expertise"] == "double_prof"
    open_ = [s for s in SKILLS if (s in after) == double]
    return skills, pick.some("expertise", "--expertise", expert, EXPERTISE, open_,
                             f"a Rogue's Expertise is {EXPERTISE} more skills (F-ROG-03, expertise: "
                             f"{rules['expertise']})")


def _save(c: Character, char_class: str, ch: Choices, rules: Ruleset, pick: Picker) -> Ability:
    own = str(rules.tables.get("classes").lookup(char_class).data["save_ability"])
    given = spelled(ch.save.strip().upper(), ABILITIES, "a save") if ch.save is not None else None
    open_ = [a for a in ABILITIES if a != own]
    if given == own:
        raise ChoiceError(f"{own} is the {char_class}'s own save: choose one more of {', '.join(open_)}", "save",
                          open_)
    return pick.one("save", "--save", given, open_, f"{a_or_an(char_class)} has the {own} save and one more (AMB-62)")  # type: ignore[return-value]


def fighting_styles(rules: Ruleset) -> list[str]:
    """The styles in force (F-TAB-39, F-FTR-04)."""
    return [str(r.data.get("name", r.key)) for r in rules.tables.get("fighting-styles").rows]


def _style(char_class: str, ch: Choices, rules: Ruleset, pick: Picker) -> str | None:
    styles = fighting_styles(rules)
    given = spelled(ch.style, styles, "a fighting style") if ch.style is not None else None
    if char_class != "Fighter":
        if given:
            raise ChoiceError(f"only a Fighter takes a fighting style (F-FTR-04), not {a_or_an(char_class)}", "style",
                              [])
        return None
    return pick.one("style", "--style", given, styles, "a Fighter takes one fighting style (F-FTR-04)")


def _first_feature(archetype: str, ch: Choices, rules: Ruleset, pick: Picker) -> str | None:
    """F-ARCH-01's optional rule (archetype_feature_at_level_1): a feature of the archetype at level 1 too."""
    rows = [str(r.key) for r in archetype_table(rules, archetype).rows if r.data.get("part") == "feature"]
    given = spelled(ch.feature, rows, f"{a_or_an(archetype)} feature") if ch.feature is not None else None
    if not rules["archetype_feature_at_level_1"]:
        if given is not None:
            raise ChoiceError("an archetype feature comes at level 1 only under the referee's optional rule "
                              "(archetype_feature_at_level_1, F-ARCH-01)", "feature", [])
        return None
    return pick.one("feature", "--feature", given, rows,
                    f"the referee gives {a_or_an(archetype)} feature at level 1 (archetype_feature_at_level_1, "
                    "F-ARCH-01)")


def promote_character(c: Character, ch: Choices, rng: DiceSource, rules: Ruleset,
                      opens: list[Open] | None = None, stage: str = "") -> tuple[Character, list[Event]]:
    """A 0-level survivor becomes level 1 with the choices given (or picked by the dice with `ch.random`); every
    choice left open is named in one refusal — or, with `opens`, noted there and the promotion made on
    stand-ins with throw-away dice, for the caller to refuse with the choices of later levels too.

    Example:
        promote_character(peasant, Choices(char_class="Fighter", archetype="Barbarian", skills=("Athletics",),
                                           save="DEX", style="Defense", kit=("shield", "warbow", "scalemail"),
                                           swap=()), rng, rules)
    """
    if not c.alive or c.level != 0:
        raise CharacterError(f"{c.name} is {'dead' if not c.alive else f'level {c.level}'}: only a living "
                             "0-level survivor is promoted (F-CHAR-03)")
    _check_given(c, ch, rules)
    pick = Picker(rng, ch.random, c, stage=stage, given=ch.values())
    char_class, archetype = _class_and_archetype(c, ch, rules, pick)
    pick.refuse("promotion")                     # what follows depends on the class and archetype
    swapped, swap_events = swap(c, char_class, ch, rules, pick)
    skills, expertise = _skills(swapped, char_class, archetype, ch, rules, pick)
    save = _save(swapped, char_class, ch, rules, pick)
    style = _style(char_class, ch, rules, pick)
    feature = _first_feature(archetype, ch, rules, pick)
    kit = starting_kit(char_class, style, ch.kit, rules, pick)
    after, events = _promote(swapped, char_class, archetype, pick.source(), rules, skills=skills, extra_save=save,
                             expertise=expertise, fighting_style=style, feature=feature, kit=kit)
    after = _weapon_prof(_magic(after, ch, rules, pick), ch, feature, rules, pick)
    _finish(pick, "promotion", opens)
    return after, [*pick.event(), *swap_events, *events, *_learned(c, after)]


def _finish(pick: Picker, doing: str, opens: list[Open] | None) -> None:
    if opens is None:
        pick.refuse(doing)
    else:
        opens += pick.open


# -- a new character of any level: `character new` ------------------------------------------------------------
def new_character(rng: DiceSource, rules: Ruleset, ch: Choices, *, level: int = 1, name: str = "",
                  race: str | None = None, abilities: Sequence[str] = (), features: Sequence[str] = (),
                  ) -> tuple[Character, list[Event]]:
    """A 0-level character (3d6 in order, race, occupation) promoted and levelled to `level` with the choices of
    every level: `abilities` and `features` are taken in order by the levels that ask for one, spells and
    cantrips by the levels that open them. Every choice still open, at any level, is refused in one line.

    Example:
        new_character(rng, rules, Choices(char_class="Fighter", random=True), level=3)
    """
    from furnace.characters.funnel import new_zero_level

    c, events = new_zero_level(rng, rules, name=name, race=race)
    opens: list[Open] = []
    scores, picks = list(abilities), list(features)
    first = picks.pop(0) if picks and rules["archetype_feature_at_level_1"] else None
    c, done = promote_character(c, replace(ch, feature=first, more=True), rng, rules, opens, stage="level 1")
    events += done
    while c.level < level:
        due = rules.tables.get(str(rules["advancement_table"])).lookup(c.level + 1).data.get("features", [])
        step = Choices(ability=scores.pop(0) if scores and "ability_score_plus_1" in due else None,
                       feature=picks.pop(0) if picks and "archetype_feature" in due else None, weapon=ch.weapon,
                       spells=ch.spells, cantrips=ch.cantrips, random=ch.random, more=True)
        c, done = level_up_character(c, step, seeded(0) if opens else rng, rules, opens, stage=f"level {c.level + 1}")
        events += done
    refuse(c.name, f"making to level {level}", opens)
    _all_taken(c, ch, scores, picks)
    return c, events


def _all_taken(c: Character, ch: Choices, scores: list[str], picks: list[str]) -> None:
    """Every choice given was taken by some level: an extra one is refused, not dropped."""
    unused = [*(f"--ability {a}" for a in scores), *(f"--feature {f}" for f in picks),
              *(f"--spell {s}" for s in ch.spells if s.casefold() not in {x.casefold() for x in c.spells}),
              *(f"--cantrip {s}" for s in ch.cantrips if s.casefold() not in {x.casefold() for x in c.cantrips})]
    weapon = c.extensions.get("archetype", {}).get("weapon_prof")
    if ch.weapon is not None and str(weapon).casefold() != ch.weapon.casefold():
        unused.append(f"--weapon {ch.weapon}")
    if unused:
        raise ChoiceError(f"no level up to {c.level} asks for {', '.join(unused)} (abilities at 4/6/8/10, F-ADV-03; "
                          "features where the advancement table gives one, F-ARCH-01)", "level", [])


# -- levelling: F-ADV-02/03, AMB-46 -------------------------------------------------------------------------
def level_up_character(c: Character, ch: Choices, rng: DiceSource, rules: Ruleset,
                       opens: list[Open] | None = None, stage: str = "") -> tuple[Character, list[Event]]:
    """One level with the choices it asks: +1 to a score at 4/6/8/10, an archetype feature where due (the
    player's choice, AMB-46), the spells a higher cap opens and a Trickster's cantrip; open choices are refused
    together (or noted in `opens`, as `promote_character` does).

    Example:
        level_up_character(hero, Choices(ability="STR"), rng, rules)
    """
    if c.char_class is None or not c.alive or c.level >= MAX_LEVEL:
        return _level_up(c, rng, rules)           # its own refusal: 0-level, dead, level 10
    _check_given(c, ch, rules)
    pick = Picker(rng, ch.random, c, stage=stage, given=ch.values())
    level = c.level + 1
    due = list(rules.tables.get(str(rules["advancement_table"])).lookup(level).data.get("features", []))
    ability = _ability(c, ch, level, "ability_score_plus_1" in due, pick)
    feature = _feature(c, ch, level, "archetype_feature" in due, rules, pick)
    after, events = _level_up(c, pick.source(), rules, ability=ability, feature=feature)
    after = _weapon_prof(_magic(after, ch, rules, pick), ch, feature, rules, pick)
    _finish(pick, f"level {level}", opens)
    return after, [*pick.event(), *events, *_learned(c, after)]


def _ability(c: Character, ch: Choices, level: int, due: bool, pick: Picker) -> Ability | None:
    given = spelled(ch.ability.strip().upper(), ABILITIES, "an ability") if ch.ability is not None else None
    if not due:
        if given:
            raise ChoiceError(f"level {level} gives no +1 to an ability score (F-ADV-03: levels 4, 6, 8 and 10)",
                              "ability", [])
        return None
    open_ = [a for a in ABILITIES if c.scores[a] < NATURAL_CAP] or list(ABILITIES)
    return pick.one("ability", "--ability", given, open_,  # type: ignore[return-value]
                    f"level {level} gives +1 to an ability score, up to {NATURAL_CAP} (F-ADV-03)")


def _feature(c: Character, ch: Choices, level: int, due: bool, rules: Ruleset, pick: Picker) -> str | None:
    if c.archetype is None:
        if due or ch.feature is not None:
            raise ChoiceError(f"{c.name} has no archetype to take a feature of (F-CHAR-03)", "feature", [])
        return None
    rows = [str(r.key) for r in archetype_table(rules, c.archetype).rows if r.data.get("part") == "feature"]
    given = spelled(ch.feature, rows, f"{a_or_an(str(c.archetype))} feature") if ch.feature is not None else None
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


def _weapon_prof(c: Character, ch: Choices, feature: str | None, rules: Ruleset, pick: Picker) -> Character:
    """F-ARCH-03: a feature that gives PROF with "one martial melee weapon" (data.weapon_profs) asks which: one
    she carries, or one the weapons table (F-TAB-22) names; kept in extensions["archetype"]["weapon_prof"]."""
    wants = [] if feature is None or c.archetype is None else list(
        archetype_table(rules, c.archetype).lookup(feature).data.get("weapon_profs", []))
    if not wants:
        if ch.weapon is not None and not ch.more:
            raise ChoiceError("no feature taken here names a weapon (F-ARCH-03)", "weapon", [])
        return c
    category = str(wants[0].get("category", "martial"))
    melee = bool(wants[0].get("melee"))
    rows = [r.data for r in rules.tables.get("weapons").rows
            if r.data.get("category") == category and not (melee and r.data.get("type") == "ranged")]
    open_ = list(dict.fromkeys([*(w.name for w in c.weapons if w.category == category
                                  and not (melee and w.kind == "ranged")),
                                *(str(x) for data in rows for x in data.get("examples", []))]))
    given = spelled(ch.weapon, open_, f"a {category}{' melee' if melee else ''} weapon") if ch.weapon else None
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
        spelled(skill, SKILLS, "a skill")
    for ability in (ch.save, ch.ability):
        if ability is not None:
            spelled(ability.strip().upper(), ABILITIES, "a save" if ability is ch.save else "an ability")
    if ch.style is not None:
        spelled(ch.style, fighting_styles(rules), "a fighting style")
    if ch.swap:
        parse_swap(",".join(ch.swap))
    if ch.feature is not None and c.archetype is not None:
        rows = [str(r.key) for r in archetype_table(rules, c.archetype).rows if r.data.get("part") == "feature"]
        spelled(ch.feature, rows, f"{a_or_an(c.archetype)} feature")
    for name in ch.spells:
        get_spell(rules, name)
    book = load_cantrips()
    for name in ch.cantrips:
        book.get(name)


def _magic(c: Character, ch: Choices, rules: Ruleset, pick: Picker) -> Character:
    """The spells the new cap opens and the cantrips she may know, learnt (given or picked)."""
    from furnace.magic.cantrips import cantrip_cap, learn, load_cantrips
    from furnace.magic.casting import learn_spell, spells_known_cap
    from furnace.magic.spells import all_spells, get_spell

    cap = spells_known_cap(c, rules)
    given = [get_spell(rules, s).name for s in ch.spells]
    if given and cap == 0:
        raise ChoiceError(f"{a_or_an(str(c.char_class))} learns no spells (F-CLR-03, F-MU-05)", "spell", [])
    open_ = [s.name for s in all_spells(rules) if s.name not in c.spells]
    count = min(max(0, cap - len(c.spells)), len(open_))
    given = [g for g in given if g not in c.spells][:count] if ch.more else given
    if given or count:
        for name in pick.some("spells", "--spell", given, count, open_, _spell_why(c, cap, rules)):
            c = learn_spell(c, name, rules)
    book = load_cantrips()
    named = [book.get(n).name for n in ch.cantrips]
    can = cantrip_cap(c)
    if named and can == 0:
        raise ChoiceError(f"{a_or_an(str(c.char_class))} learns no cantrips (F-MU-06, F-ARCH-04)", "cantrip", [])
    open_ = [n for n in book.names() if book.get(n).allowed(rules) and n not in c.cantrips]
    count = min(max(0, can - len(c.cantrips)), len(open_))
    named = [n for n in named if n not in c.cantrips][:count] if ch.more else named
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


__all__ = ["ChoiceError", "Choices", "Open", "check_name", "fighting_styles", "level_up_character", "new_character",
           "open_archetypes", "parse_swap", "promote_character", "renamed"]
