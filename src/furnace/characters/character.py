"""The character: stored fields (what the dice and choices gave) apart from derived values.

Modifiers, PROF, AC, hit die, load and attack bonus are computed from the stored fields and the tables,
never stored twice. A character round-trips through JSON with a schema version; older versions are
migrated, malformed ones refused with the field that is wrong.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from furnace.characters.abilities import modifier
from furnace.errors import DataFileError, FurnaceError, from_validation
from furnace.rules.effects import ABILITIES, Ability
from furnace.rules.ruleset import Ruleset, load_ruleset
from furnace.rules.tables import Table

SCHEMA_VERSION = 1
CLASSES = ("Fighter", "Cleric", "Rogue", "Magic-user")
NATURAL_CAP = 18     # F-ABIL-03: only magic goes above
ABSOLUTE_CAP = 20
SKILLS = (
    "Acrobatics", "Animal Handling", "Arcana", "Athletics", "Deception", "History", "Insight", "Intimidation",
    "Investigation", "Medicine", "Nature", "Perception", "Performance", "Persuasion", "Religion",
    "Sleight of Hand", "Stealth", "Survival",
)


class Occupation(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    proficiency: str
    proficiency_kind: Literal["skill", "tool"] = "skill"
    item: str = ""
    roll: int | None = None


class HpGain(BaseModel):
    """One level's hit points: the die, the roll, the floor, what was added, and why."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    level: int
    gained: int
    die: str | None = None
    rolled: int | None = None
    floor: int | None = None
    reason: str = ""


class Weapon(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    category: Literal["simple", "martial"] = "simple"
    kind: Literal["fist", "one-handed", "two-handed", "ranged"] = "one-handed"
    damage: str = "1d6"
    tags: list[str] = Field(default_factory=list)
    weapon_class: Literal["sharp", "blunt", "strung", "pole", "hurled", "unarmed"] | None = None  # M-WPN
    magic_bonus: int = 0
    notches: int = Field(0, ge=0)           # M-WPN-02: −1 to hit and damage each
    cracked: bool = False                   # M-WPN-05
    broken: bool = False


class Character(BaseModel):
    """A player character or funnel peasant. Immutable: changes make a new one (and an event)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    schema_version: int = SCHEMA_VERSION
    name: str
    player: str | None = None
    race: str = "Human"
    occupation: Occupation | None = None
    char_class: str | None = None
    archetype: str | None = None
    level: int = Field(0, ge=0, le=10)
    scores: dict[Ability, int]
    hp_max: int = Field(ge=0)
    hp: int
    hit_dice: int = Field(0, ge=0)                  # dice left in the pool (F-HP-06)
    hp_history: list[HpGain] = Field(default_factory=list)
    saves: list[Ability] = Field(default_factory=list)
    skills: list[str] = Field(default_factory=list)
    expertise: list[str] = Field(default_factory=list)
    tools: list[str] = Field(default_factory=list)
    armor: str | None = None                        # a key of the armor table (F-TAB-21)
    armor_damage: int = Field(0, ge=0)              # protection lost (F-TAB-38 row 16, M-ARM-03)
    armor_magic: int = 0
    shield: bool = False
    shield_magic: int = 0
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
    spells_cast: int = Field(0, ge=0)                      # since the last depletion SAVE or rest (F-MU-04)
    healed_today: int = Field(0, ge=0)                     # HD of magical healing received today (F-CLR-07)
    conditions: list[str] = Field(default_factory=list)
    until_rest: list[str] = Field(default_factory=list)   # effects that any rest ends (D-7)
    injuries: list[str] = Field(default_factory=list)
    age: int | None = None
    languages: list[str] = Field(default_factory=list)
    extensions: dict[str, Any] = Field(default_factory=dict)   # state a rules module keeps, by module name
    swapped: tuple[Ability, Ability] | None = None  # the Human's one swap (F-RACE-02)
    dead: str | None = None                          # how the character died

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

    # -- derived ------------------------------------------------------------------------------------
    def mod(self, ability: Ability) -> int:
        return modifier(self.scores[ability])

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

    def ac(self, rules: Ruleset | None = None) -> int:
        """Armor (F-TAB-21) + DEX where the armor allows it + shield; unarmored 10 + DEX."""
        rules = rules or load_ruleset()
        armor = rules.tables.get("armor")
        body = armor.lookup(self.armor or "unarmored").data
        ac = int(body.get("ac_base", 10)) + (self.mod("DEX") if body.get("adds_dex") else 0)
        if self.shield:
            ac += int(armor.lookup("shield").data.get("ac_bonus", 2))
        if self.fighting_style == "Defense":
            ac += 1
        return ac

    @property
    def load(self) -> int:
        """Load = 10 + STR (F-LOAD-01)."""
        return 10 + self.mod("STR")

    @property
    def alive(self) -> bool:
        return self.dead is None

    # -- serialisation ------------------------------------------------------------------------------
    def to_json(self) -> str:
        return self.model_dump_json(indent=2)

    @classmethod
    def from_json(cls, text: str, path: str = "<character>") -> Character:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DataFileError(path, f"not valid JSON: {exc.msg}", f"line {exc.lineno}") from None
        return cls.from_dict(data, path)

    @classmethod
    def from_dict(cls, data: Any, path: str = "<character>") -> Character:
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
        data.setdefault("hit_dice", max(1, min(int(data.get("level", 0)), 5)))
        data["schema_version"] = 1
    return data


def archetype_slug(name: str) -> str:
    return "archetype-" + "-".join(name.lower().replace("_", " ").split())


def archetype_table(rules: Ruleset, name: str) -> Table:
    """An archetype's table (basic proficiencies and features), packaged or the referee's own.

    An archetype table is keyed: a `basic` row (data: archetype_of a class, skill_profs, optional
    prerequisite) and one row per feature (data.part = feature). A referee's file that breaks this is
    refused with its row and the reason (F-ARCH-01)."""
    table = rules.tables.get(archetype_slug(name))
    where = rules.tables.source_of(table.id)
    if table.kind != "keyed":
        raise DataFileError(where, f"archetype {name}: an archetype table is keyed (basic + features)")
    rows = {str(r.key): (i, r) for i, r in enumerate(table.rows, 1)}
    if "basic" not in rows:
        raise DataFileError(where, f"archetype {name}: no 'basic' row with archetype_of and skill_profs")
    i, basic = rows["basic"]
    if basic.data.get("archetype_of") not in CLASSES:
        raise DataFileError(where, f"data.archetype_of must be one of {', '.join(CLASSES)}", i)
    bad = [s for s in basic.data.get("skill_profs", []) if s not in SKILLS]
    if bad:
        raise DataFileError(where, f"data.skill_profs: {bad} are not skills", i)
    features = [r for r in table.rows if r.data.get("part") == "feature"]
    if not features:
        raise DataFileError(where, f"archetype {name}: no rows with data.part = feature")
    return table


def clamp_natural(score: int) -> int:
    """Non-magical changes stop at 18 (F-ABIL-03, AMB-09) and never go below 0."""
    return max(0, min(NATURAL_CAP, score))


class CharacterError(FurnaceError):
    """A character choice the rules do not allow."""
