"""The character: stored fields (what the dice and choices gave) apart from derived values.

Modifiers, PROF, AC, hit die, load and attack bonus are computed from the stored fields and the tables,
never stored twice. A character round-trips through JSON with a schema version; older versions are
migrated, malformed ones refused with the field that is wrong.

Validated on load to the rules' own ranges: dice (a weapon's damage, a hit die) within the dice language's
limits (1,000 dice, 10,000 sides, 256 characters), scores 0-20, level 0-10, the class, skills, expertise,
saves and conditions from their lists; `check_choices` adds what depends on the tables in force (the race,
the archetype).
"""

import json
import os
import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator

from furnace import files
from furnace.characters import arms as _arms
from furnace.characters import markers as _markers
from furnace.characters.abilities import modifier
from furnace.errors import DataFileError, FurnaceError, UnknownNameError, from_validation
from furnace.rules.effects import ABILITIES, CONDITIONS, Ability, check_dice, shown
from furnace.rules.ruleset import Ruleset, load_ruleset
from furnace.rules.tables import MAX_DATA_VALUES, Table, check_shape

SCHEMA_VERSION = 1
MAX_DEPTH = 32       # a character nests four levels; a file nested deeper is refused before validation
CLASSES = ("Fighter", "Cleric", "Rogue", "Magic-user")
NATURAL_CAP = 18     # F-ABIL-03: only magic goes above
ABSOLUTE_CAP = 20
SKILLS = (
    "Acrobatics", "Animal Handling", "Arcana", "Athletics", "Deception", "History", "Insight", "Intimidation",
    "Investigation", "Medicine", "Nature", "Perception", "Performance", "Persuasion", "Religion",
    "Sleight of Hand", "Stealth", "Survival",
)
MAX_HP = 100_000      # a level-10 Barbarian has about 130; referees and stress tests use more
MAX_NAME = 100        # characters in a name (a character's, a weapon's, a race's …)
MAX_MAGIC = 50        # a magic bonus, either way (tests use a +30 armor that always saves, M-ARM-04)
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
# the source of a character's validation: its models and checks, the rules' names (conditions, abilities), the dice
_VALIDATING = tuple(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), part)
                    for part in ("characters", "rules", "dice", "errors.py"))


def _name(value: str) -> str:
    if not value.strip():
        raise ValueError("a name is not blank")
    if _CONTROL.search(value):
        raise ValueError("a name holds no control characters")
    return value


def _dice(value: str) -> str:
    return check_dice(value)


Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME), AfterValidator(_name)]
Dice = Annotated[str, AfterValidator(_dice)]


class Occupation(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    name: Name
    proficiency: Name
    proficiency_kind: Literal["skill", "tool"] = "skill"
    item: str = Field("", max_length=MAX_NAME)
    roll: int | None = Field(None, ge=1, le=10_000)


class HpGain(BaseModel):
    """One level's hit points: the die, the roll, the floor, what was added, and why."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    level: int = Field(ge=0, le=10)
    gained: int = Field(ge=-MAX_HP, le=MAX_HP)
    die: Dice | None = None
    rolled: int | None = Field(None, ge=-MAX_HP, le=MAX_HP)
    floor: int | None = Field(None, ge=-MAX_HP, le=MAX_HP)
    reason: str = Field("", max_length=1000)


class Weapon(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    name: Name
    category: Literal["simple", "martial"] = "simple"
    kind: Literal["fist", "one-handed", "two-handed", "ranged"] = "one-handed"
    damage: Dice = "1d6"                    # within the dice limits, like a typed roll
    tags: list[str] = Field(default_factory=list)
    weapon_class: Literal["sharp", "blunt", "strung", "pole", "hurled", "unarmed"] | None = None  # M-WPN
    magic_bonus: int = Field(0, ge=-MAX_MAGIC, le=MAX_MAGIC)
    notches: int = Field(0, ge=0, le=100)   # M-WPN-02: −1 to hit and damage each
    cracked: bool = False                   # M-WPN-05
    broken: bool = False


class Character(BaseModel):
    """A player character or funnel peasant. Immutable: changes make a new one (and an event)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    schema_version: int = SCHEMA_VERSION
    name: Name
    player: str | None = Field(None, max_length=MAX_NAME)
    race: Name = "Human"                            # a key of the races table in force (check_choices)
    occupation: Occupation | None = None
    char_class: str | None = None
    archetype: Name | None = None                   # an archetype table in force (check_choices)
    level: int = Field(0, ge=0, le=10)
    scores: dict[Ability, int]
    hp_max: int = Field(ge=0, le=MAX_HP)
    hp: int = Field(ge=-MAX_HP, le=MAX_HP)
    hit_dice: int = Field(0, ge=0, le=10)           # dice left in the pool (F-HP-06)
    hp_history: list[HpGain] = Field(default_factory=list)
    saves: list[Ability] = Field(default_factory=list)
    skills: list[str] = Field(default_factory=list)
    expertise: list[str] = Field(default_factory=list)
    tools: list[str] = Field(default_factory=list)
    armor: str | None = None                        # a key of the armor table (F-TAB-21)
    armor_damage: int = Field(0, ge=0, le=30)       # protection lost (F-TAB-38 row 16, M-ARM-03)
    armor_magic: int = Field(0, ge=-MAX_MAGIC, le=MAX_MAGIC)
    shield: bool = False
    shield_magic: int = Field(0, ge=-MAX_MAGIC, le=MAX_MAGIC)
    helmet: bool = False                            # Middle Sea grievous injuries and armor damage
    weapons: list[Weapon] = Field(default_factory=list)
    items: list[str] = Field(default_factory=list)
    features: list[str] = Field(default_factory=list)
    archetype_features: list[str] = Field(default_factory=list)
    fighting_style: str | None = None
    luck_dice: int = Field(0, ge=0, le=3)
    spells: list[str] = Field(default_factory=list)        # spells (prayers) known
    cantrips: list[str] = Field(default_factory=list)
    disapproval: int = Field(1, ge=1, le=20)               # a Cleric's disapproval range (F-CLR-04)
    spells_cast: int = Field(0, ge=0, le=1000)             # since the last depletion SAVE or rest (F-MU-04)
    healed_today: int = Field(0, ge=0, le=100)             # HD of magical healing received today (F-CLR-07)
    conditions: list[str] = Field(default_factory=list)
    until_rest: list[str] = Field(default_factory=list)   # effects that any rest ends (D-7)
    injuries: list[str] = Field(default_factory=list)
    age: int | None = Field(None, ge=0, le=10_000)
    languages: list[str] = Field(default_factory=list)
    extensions: dict[str, Any] = Field(default_factory=dict)   # state a rules module keeps, by module name
    swapped: tuple[Ability, Ability] | None = None  # the Human's one swap (F-RACE-02)
    dead: str | None = Field(None, max_length=1000)  # how the character died

    @field_validator("scores")
    @classmethod
    def six_scores(cls, value: dict[str, int]) -> dict[str, int]:
        missing = [a for a in ABILITIES if a not in value]
        if missing:
            raise ValueError(f"missing ability scores {missing}")
        bad = {a: s for a, s in value.items() if not 0 <= s <= ABSOLUTE_CAP}
        if bad:
            raise ValueError(f"ability scores run 0 to {ABSOLUTE_CAP}: {bad}")
        return {a: value[a] for a in ABILITIES}

    @field_validator("char_class")
    @classmethod
    def known_class(cls, value: str | None) -> str | None:
        if value is not None and value not in CLASSES:
            raise ValueError(f"class must be one of {', '.join(CLASSES)}")
        return value

    @field_validator("skills", "expertise")
    @classmethod
    def known_skills(cls, value: list[str]) -> list[str]:
        bad = [s for s in value if s not in SKILLS]
        if bad:
            raise ValueError(f"{shown(bad[0])} is not a skill; the skills are {', '.join(SKILLS)}")
        return value

    @field_validator("conditions")
    @classmethod
    def known_conditions(cls, value: list[str]) -> list[str]:
        bad = [c for c in value if c not in CONDITIONS]
        if bad:
            raise ValueError(f"{shown(bad[0])} is not a condition; the conditions are {', '.join(CONDITIONS)}")
        return value

    @field_validator("extensions", mode="before")
    @classmethod
    def plain_extensions(cls, value: Any) -> Any:
        if isinstance(value, dict):
            check_shape(value, "extensions", max_values=MAX_DATA_VALUES)
        return value

    # -- derived ------------------------------------------------------------------------------------
    def mod(self, ability: Ability, rules: Ruleset | None = None) -> int:
        """The ability's modifier from the table in force (F-TAB-02; a 13 per `ability_13_modifier`, CF-03)."""
        return modifier(self.scores[ability], rules)

    @property
    def mods(self) -> dict[Ability, int]:
        return {a: self.mod(a) for a in ABILITIES}

    def prof(self, rules: Ruleset | None = None) -> int:
        """PROF by level from the advancement table in force (F-ADV-01)."""
        rules = rules or load_ruleset()
        row = rules.tables.get(str(rules["advancement_table"])).lookup(self.level)
        return int(row.data["prof"])

    def class_data(self, rules: Ruleset | None = None) -> dict[str, Any]:
        if self.char_class is None:
            return {}
        rules = rules or load_ruleset()
        return dict(rules.tables.get("classes").lookup(self.char_class).data)

    def hit_die(self, rules: Ruleset | None = None) -> str:
        """The class die (d4 at level 0); the Barbarian's d12; the Magic-user's die per option (CF-04)."""
        rules = rules or load_ruleset()
        if self.char_class is None:
            return "d4"
        for feature in self.archetype_feature_data(rules):
            if "hit_die" in feature:
                return str(feature["hit_die"])
        if self.char_class == "Magic-user":
            return str(rules["magic_user_hit_die"])
        return str(self.class_data(rules)["hit_die"])

    def archetype_feature_data(self, rules: Ruleset | None = None) -> list[dict[str, Any]]:
        """The data of the archetype features this character has gained (F-TAB-07…10 or a referee's)."""
        if self.archetype is None or not self.archetype_features:
            return []
        table = archetype_table(rules or load_ruleset(), self.archetype)
        return [dict(table.lookup(key).data) for key in self.archetype_features]

    def immunities(self, rules: Ruleset | None = None) -> frozenset[str]:
        """What her archetype features make her immune to (data.immune): conditions by name (FRIGHTENED) and
        SAVEs by category (fear): the Barbarian's 'Immune to FEAR effects' (F-ARCH-02)."""
        return frozenset(str(x) for data in self.archetype_feature_data(rules) for x in data.get("immune", []))

    def ac(self, rules: Ruleset | None = None) -> int:
        """Armor (F-TAB-21) + DEX where the armor allows it + shield; unarmored 10 + DEX. Worn armor loses
        the protection it has lost (armor_damage: F-TAB-38 row 16, AMB-35, M-ARM-03) until repaired and adds
        its magic; a shield adds its magic, but not on an arm that holds nothing (M-BONE-01, `arms`); the Defense
        style +1 (F-FTR-04)."""
        rules = rules or load_ruleset()
        armor = rules.tables.get("armor")
        body = armor.lookup(self.armor or "unarmored").data
        ac = int(body.get("ac_base", 10)) + (self.mod("DEX", rules) if body.get("adds_dex") else 0)
        if self.armor:
            ac += self.armor_magic - self.armor_damage
        if _arms.shield_borne(self):
            ac += int(armor.lookup("shield").data.get("ac_bonus", 2)) + self.shield_magic
        if self.fighting_style == "Defense":
            ac += 1
        return ac

    # -- what her gear, load and injuries do to her rolls (characters.markers) ----------------------------
    def markers(self, rules: Ruleset | None = None) -> list[_markers.Marker]:
        """Every EASY/HARD her armor (D-9), her load (AMB-57), her injuries and conditions put on her rolls."""
        return _markers.markers(self, rules or load_ruleset())

    def armor_penalty(self, rules: Ruleset | None = None) -> list[_markers.Marker]:
        """D-9 (option nonproficient_armor): what wearing armor or a shield she is not proficient in does:
        STR and DEX CHECKs (and SAVEs under like_5e) and ATKs HARD, and spellcasting FORBIDDEN; [] if none."""
        return _markers.armor_markers(self, rules or load_ruleset())

    def can_cast_in_armor(self, rules: Ruleset | None = None) -> bool:
        """False when she wears armor or a shield she is not proficient in and the rules forbid casting (D-9)."""
        return _markers.casting_refusal(self, rules or load_ruleset()) is None

    @property
    def load(self) -> int:
        """Load = 10 + STR (F-LOAD-01), by the default table; `load_limit(rules)` reads the rules in force."""
        return _markers.load_limit(self)

    def load_limit(self, rules: Ruleset | None = None) -> int:
        """Load = 10 + STR (F-LOAD-01), STR read per the rules in force (a 13 per ability_13_modifier)."""
        return _markers.load_limit(self, rules)

    @property
    def alive(self) -> bool:
        return self.dead is None

    # -- serialisation ------------------------------------------------------------------------------
    def to_json(self) -> str:
        return self.model_dump_json(indent=2)

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> "Character":
        """A character file: a regular file of at most `files.MAX_BYTES`, UTF-8 JSON (see `from_json`). A text
        validated before (by this code and this Pydantic) is read from the cache (`furnace.rules.cache.validated_text`):
        a fight file names the same party files fight after fight."""
        text, where = files.read_text(path, what="the character file"), os.fspath(path)
        if cls is not Character:        # (the cache holds characters, and a subclass's own validation is its own)
            return cls.from_json(text, where)
        from pydantic import VERSION

        from furnace.rules.cache import validated_text

        return validated_text("characters", text, lambda t: cls.from_json(t, where), *_VALIDATING, version=VERSION)

    @classmethod
    def from_json(cls, text: str, path: str = "<character>") -> "Character":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DataFileError(path, f"not valid JSON: {exc.msg}", f"line {exc.lineno}") from None
        except (ValueError, RecursionError) as exc:   # an integer of thousands of digits; nesting past the stack
            raise DataFileError(path, f"not valid JSON: {str(exc).split(';')[0] or type(exc).__name__}") from None
        if _depth(data) > MAX_DEPTH:
            raise DataFileError(path, f"nested more than {MAX_DEPTH} levels deep")
        return cls.from_dict(data, path)

    @classmethod
    def from_dict(cls, data: Any, path: str = "<character>") -> "Character":
        if not isinstance(data, dict):
            raise DataFileError(path, "a character is a JSON object")
        data = migrate(dict(data), path)
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            raise from_validation(path, exc) from None


def migrate(data: dict[str, Any], path: str) -> dict[str, Any]:
    """Bring an older character file up to the current schema."""
    version = data.get("schema_version", 0)
    if not isinstance(version, int) or version > SCHEMA_VERSION:
        raise DataFileError(path, f"schema_version {version!r} is newer than this Furnace ({SCHEMA_VERSION})")
    if version == 0:  # the draft format: "class" and "abilities" keys, no hit-dice pool
        if "class" in data:
            data["char_class"] = data.pop("class")
        if "abilities" in data:
            data["scores"] = data.pop("abilities")
        try:
            level = int(data.get("level", 0))
        except (TypeError, ValueError, OverflowError):
            level = 0           # validation names the field below
        data.setdefault("hit_dice", max(1, min(level, 5)))
        data["schema_version"] = 1
    return data


def _depth(data: Any) -> int:
    """How deep JSON values nest (a scalar is 0), counted without recursion."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        value, depth = stack.pop()
        children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else None
        if children is not None:
            deepest = max(deepest, depth)
            if depth <= MAX_DEPTH:
                stack.extend((child, depth + 1) for child in children)
    return deepest


def archetype_slug(name: str) -> str:
    return "archetype-" + "-".join(name.lower().replace("_", " ").split())


def archetype_table(rules: Ruleset, name: str) -> Table:
    """An archetype's table (basic proficiencies and features), packaged or the referee's own.

    An archetype table is keyed: a `basic` row (data: archetype_of a class, skill_profs, optional
    prerequisite) and one row per feature (data.part = feature). A referee's file that breaks this is
    refused with its row and the reason (F-ARCH-01)."""
    if not isinstance(name, str) or not name.strip():
        raise CharacterError(f"an archetype is named: one of {', '.join(archetype_names(rules))}")
    try:
        table = rules.tables.get(archetype_slug(name))
    except UnknownNameError:
        raise CharacterError(f"unknown archetype {shown(name)}; the archetypes are "
                             f"{', '.join(archetype_names(rules))}") from None
    where = rules.tables.source_of(table.id)
    if table.kind != "keyed":
        raise DataFileError(where, f"archetype {name}: an archetype table is keyed (basic + features)")
    rows = {str(r.key): (i, r) for i, r in enumerate(table.rows, 1)}
    if "basic" not in rows:
        raise DataFileError(where, f"archetype {name}: no 'basic' row with archetype_of and skill_profs")
    i, basic = rows["basic"]
    if basic.data.get("archetype_of") not in CLASSES:
        raise DataFileError(where, f"data.archetype_of must be one of {', '.join(CLASSES)}", i)
    profs = basic.data.get("skill_profs", [])
    if not isinstance(profs, list):
        raise DataFileError(where, f"data.skill_profs is a list of skills: {', '.join(SKILLS)}", i)
    bad = [s for s in profs if s not in SKILLS]
    if bad:
        raise DataFileError(where, f"data.skill_profs: {bad} are not skills; the skills are {', '.join(SKILLS)}", i)
    prerequisite = basic.data.get("prerequisite")
    if prerequisite is not None and (not isinstance(prerequisite, dict)
                                     or set(prerequisite) - {"race", *ABILITIES}):
        raise DataFileError(where, "data.prerequisite is a mapping of race (a race or a list of races) and "
                                   "ability scores, such as {race: Half-orc} or {STR: 13}", i)
    features = [r for r in table.rows if r.data.get("part") == "feature"]
    if not features:
        raise DataFileError(where, f"archetype {name}: no rows with data.part = feature")
    for row in features:
        die = row.data.get("hit_die")
        if die is not None and (not isinstance(die, str) or not re.fullmatch(r"d\d{1,5}", die)):
            raise DataFileError(where, f"feature {row.key}: data.hit_die is one die such as d12, not {shown(die)}",
                                table.rows.index(row) + 1)
    return table


def archetype_names(rules: Ruleset) -> list[str]:
    """The archetypes in force: 'Barbarian' from a table titled 'Archetype: Barbarian (Fighter)'."""
    names = []
    for t in rules.tables:
        if t.name.startswith("archetype-"):
            m = re.match(r"\s*Archetype:\s*(.+?)\s*(\(|$)", t.title)
            names.append(m[1] if m else t.name.removeprefix("archetype-"))
    return names


def unmet_prerequisite(character: Character, archetype: str, rules: Ruleset) -> str | None:
    """Why the character does not meet the archetype's prerequisite (its basic row's data.prerequisite: a
    race or races, ability scores; F-ARCH-01, F-ARCH-03), or None when she does."""
    table = archetype_table(rules, archetype)
    needs = table.lookup("basic").data.get("prerequisite") or {}
    race = needs.get("race")
    races = [str(race)] if isinstance(race, str) else [str(r) for r in race or []]
    if races and character.race not in races:
        return f"{archetype} needs a {' or a '.join(races)} ({table.id}), not a {character.race}"
    for ability in ABILITIES:
        if ability in needs and character.scores[ability] < int(needs[ability]):
            return f"{archetype} needs {ability} {needs[ability]} or more ({table.id}), not {character.scores[ability]}"
    return None


def archetype_class(rules: Ruleset, archetype: str) -> str | None:
    return archetype_table(rules, archetype).lookup("basic").data.get("archetype_of")


def allowed_archetypes(character: Character, char_class: str, rules: Ruleset) -> list[str]:
    """The archetypes in force of this class whose prerequisite the character meets."""
    return [a for a in archetype_names(rules) if archetype_class(rules, a) == char_class
            and unmet_prerequisite(character, a, rules) is None]


def check_archetype(character: Character, char_class: str, archetype: str, rules: Ruleset) -> None:
    """A `CharacterError` unless the archetype is one of the class's and the character meets its
    prerequisite; the message lists the archetypes she may take (or, if none, the class's others that a
    referee may write, F-ARCH-01)."""
    of = archetype_class(rules, archetype)
    if of not in (None, char_class):
        why = f"archetype {archetype} is an archetype of the {of}, not the {char_class}"
    else:
        why = unmet_prerequisite(character, archetype, rules) or ""
    if not why:
        return
    allowed = allowed_archetypes(character, char_class, rules)
    if allowed:
        raise CharacterError(f"{why}; a {character.race} {char_class} may take {', '.join(allowed)}")
    known = set(archetype_names(rules))
    named = [str(a) for a in rules.tables.get("classes").lookup(char_class).data.get("archetypes", [])
             if str(a) not in known]
    more = f" (the class also names {', '.join(named)}, which the referee may write as tables)" if named else ""
    raise CharacterError(f"{why}; no {char_class} archetype in force is open to a {character.race}: the referee "
                         f"adds one (F-ARCH-01){more}")


def check_choices(character: Character, rules: Ruleset) -> None:
    """What a character chose, against the lists in force: the race (the races table), the class, the
    archetype (an archetype table of that class), skills, expertise and saves. Anything else is a
    `CharacterError` naming the field and what it may be. (A character built with `model_copy` skips
    pydantic's validation, so promotion and levelling call this.)"""
    if not isinstance(character, Character):
        raise CharacterError(f"check_choices takes a Character, not {type(character).__name__}")
    races = rules.tables.get("races").keys()
    if character.race not in races:
        raise CharacterError(f"race {shown(character.race)} is not one of {', '.join(races)}")
    if character.char_class is not None and character.char_class not in CLASSES:
        raise CharacterError(f"class {character.char_class!r} is not one of {', '.join(CLASSES)}")
    if character.archetype is not None:
        archetype_table(rules, character.archetype)
        if character.char_class is not None:
            check_archetype(character, character.char_class, character.archetype, rules)
    for field in ("skills", "expertise"):
        bad = [s for s in getattr(character, field) if s not in SKILLS]
        if bad:
            raise CharacterError(f"{field}: {shown(bad[0])} is not a skill; the skills are {', '.join(SKILLS)}")
    bad = [s for s in character.saves if s not in ABILITIES]
    if bad:
        raise CharacterError(f"saves: {shown(bad[0])} is not an ability; the saves are {', '.join(ABILITIES)}")
    bad = [c for c in character.conditions if c not in CONDITIONS]
    if bad:
        raise CharacterError(f"conditions: {shown(bad[0])} is not a condition; the conditions are "
                             f"{', '.join(CONDITIONS)}")


def clamp_natural(score: int) -> int:
    """Non-magical changes stop at 18 (F-ABIL-03, AMB-09) and never go below 0."""
    return max(0, min(NATURAL_CAP, score))


class CharacterError(FurnaceError):
    """A character choice the rules do not allow."""
