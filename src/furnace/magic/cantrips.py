"""Cantrips: Furnace's own list as data, validated on load, cast with NO SPELLCHECK (F-MU-06).

The source names five example cantrips and describes none, so `data/cantrips.yaml` is the project's own list
(every entry `origin: furnace`). A cantrip is always castable: no SPELLCHECK, so no SL, no mishap, no Luck
Dice, and it neither counts toward nor is stopped by Spell Depletion or a mishap's "can't cast" (F-MU-04,
AMB-41); it still cannot be aimed at a creature a mishap bars (F-TAB-18 10–11). Damage cantrips (AMB-42,
REF-04, option damage_cantrips): `forbidden` (default) allows only those the list marks `approved`, with the
damage the list gives; `one_spell_die` allows every one and makes its damage one Spell Die of its kind
(d4/d6/d8, F-TAB-12).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from furnace import dice
from furnace.characters.character import Character, CharacterError
from furnace.characters.facts import fact
from furnace.characters.markers import casting_refusal
from furnace.errors import DataFileError, IllegalActionError, UnknownNameError
from furnace.events import Event, declare
from furnace.magic.mishaps import lockouts
from furnace.magic.spells import SPELL_DIE
from furnace.rules.datafile import packaged, read_yaml
from furnace.rules.effects import Damage, Effect, EffectList
from furnace.rules.ruleset import Ruleset, load_ruleset

ALLOWED_EFFECTS = frozenset({"damage", "condition", "modifier", "nothing", "referee_prompt"})
MAX_CANTRIPS = 200
CANTRIPS_KNOWN = 2          # F-MU-06: a Magic-user's cantrips
# a cantrip cast, in a fight or out of one (where the creature it is aimed at is a name, `target`)
CANTRIP = declare("cantrip", targets=1, cantrip="actor", text="actor", target="public",
                  example={"cantrip": "Spark", "text": "a spark leaps to the target: 1 fire DAM", "target": "Goblin"})


class Cantrip(BaseModel):
    """One cantrip of the list: what it does, as effects, and whether it deals damage (AMB-42)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    name: str = Field(min_length=1, max_length=100)
    origin: Literal["furnace"]                       # Furnace's own, not the seeds' (F-MU-06 describes none)
    named_in: str | None = None                      # where the source names it (only the name is the source's)
    kind: Literal["effect", "ranged", "melee"] = "effect"
    text: str = Field(min_length=1, max_length=500)
    effects: EffectList = Field(default_factory=list)
    damage: bool = False
    approved: bool | None = None                     # REF-04: a damage cantrip says whether the referee allows it
    note: str | None = None

    @field_validator("effects")
    @classmethod
    def cantrip_effects(cls, value: list[Effect]) -> list[Effect]:
        bad = [e.kind for e in value if e.kind not in ALLOWED_EFFECTS]
        if bad:
            raise ValueError(f"a cantrip's effects are {', '.join(sorted(ALLOWED_EFFECTS))}, not {bad[0]}")
        return value

    @model_validator(mode="after")
    def damage_is_declared(self) -> Cantrip:
        deals = any(isinstance(e, Damage) for e in self.effects)
        if deals != self.damage:
            raise ValueError(f"damage: {str(self.damage).lower()}, but its effects "
                             f"{'deal' if deals else 'deal no'} damage (AMB-42: a damage cantrip says so)")
        if self.damage and self.approved is None:
            raise ValueError("a damage cantrip needs approved: true or false (REF-04, AMB-42)")
        die_max = dice.parse(SPELL_DIE[self.kind]).bounds()[1]
        for e in self.effects:
            if isinstance(e, Damage) and dice.parse(e.dice).bounds()[1] > die_max:
                raise ValueError(f"a cantrip deals at most one {SPELL_DIE[self.kind]} Spell Die of damage, "
                                 f"not {e.dice} (AMB-42)")
        return self

    def effects_under(self, rules: Ruleset) -> list[Effect]:
        """Its effects under the option damage_cantrips: one Spell Die of its kind for `one_spell_die`."""
        if rules["damage_cantrips"] != "one_spell_die":
            return list(self.effects)
        return [e.model_copy(update={"dice": SPELL_DIE[self.kind]}) if isinstance(e, Damage) else e
                for e in self.effects]

    def allowed(self, rules: Ruleset) -> bool:
        return not self.damage or bool(self.approved) or rules["damage_cantrips"] == "one_spell_die"


class _File(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    id: str
    title: str = ""
    rules: list[str] = Field(default_factory=list)
    cantrips: list[dict[str, Any]] = Field(min_length=1, max_length=MAX_CANTRIPS)


@dataclass(frozen=True)
class Cantrips:
    """The cantrips in force, by lower-case name."""

    by_name: dict[str, Cantrip] = field(default_factory=dict)

    def get(self, name: str) -> Cantrip:
        found = self.by_name.get(name.strip().lower()) if isinstance(name, str) else None
        if found is None:
            raise UnknownNameError("cantrip", str(name), [c.name for c in self.by_name.values()])
        return found

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.strip().lower() in self.by_name

    def names(self) -> list[str]:
        return [c.name for c in self.by_name.values()]


def parse_cantrips(data: Any, where: str | Path) -> list[Cantrip]:
    """A cantrip file's entries, each validated; a bad one is refused with its row and field."""
    if not isinstance(data, dict):
        raise DataFileError(where, "a cantrip file holds one mapping with id and cantrips")
    try:
        raw = _File.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise DataFileError(where, f"{'.'.join(map(str, first['loc']))}: {first['msg']}") from None
    out: list[Cantrip] = []
    seen: set[str] = set()
    for i, entry in enumerate(raw.cantrips, 1):
        try:
            cantrip = Cantrip.model_validate(entry)
        except ValidationError as exc:
            first = exc.errors()[0]
            loc = ".".join(map(str, first["loc"]))
            raise DataFileError(where, f"{loc + ': ' if loc else ''}{str(first['msg']).removeprefix('Value error, ')}",
                                i) from None
        if cantrip.name.lower() in seen:
            raise DataFileError(where, f"the cantrip {cantrip.name!r} is listed twice", i)
        seen.add(cantrip.name.lower())
        out.append(cantrip)
    return out


@cache
def _packaged() -> Cantrips:
    entry = packaged("cantrips.yaml")
    return Cantrips({c.name.lower(): c for c in parse_cantrips(read_yaml(entry, "cantrip file"), str(entry))})


def load_cantrips(files: Sequence[str | Path] = ()) -> Cantrips:
    """The packaged cantrips, with a referee's files on top (an entry of the same name replaces ours)."""
    book = dict(_packaged().by_name)
    for path in files:
        for c in parse_cantrips(read_yaml(Path(path), "cantrip file"), str(path)):
            book[c.name.lower()] = c
    return Cantrips(book)


def cantrip_cap(character: Character) -> int:
    """F-MU-06: a Magic-user knows 2; the Arcane Trickster's Trickster feature gives 1 (F-ARCH-04)."""
    if character.char_class == "Magic-user":
        return CANTRIPS_KNOWN
    return 1 if "trickster" in character.archetype_features else 0


def learn(character: Character, name: str, rules: Ruleset | None = None, book: Cantrips | None = None) -> Character:
    """Learn a cantrip of the list, within the cap; an unapproved damage cantrip is refused (AMB-42)."""
    rules = rules or load_ruleset()
    cantrip = (book or load_cantrips()).get(name)
    cap = cantrip_cap(character)
    if len(character.cantrips) >= cap:
        raise CharacterError(f"{character.name} can know {cap} cantrip(s)")
    if cantrip.name in character.cantrips:
        raise CharacterError(f"{character.name} already knows {cantrip.name}")
    if not cantrip.allowed(rules):
        raise CharacterError(f"{cantrip.name} deals damage and is not approved (AMB-42, option damage_cantrips)")
    return character.model_copy(update={"cantrips": [*character.cantrips, cantrip.name]})


@dataclass(frozen=True)
class CantripCast:
    """A cantrip cast out of a fight: what it does (no SPELLCHECK, nothing spent) and the event."""

    character: Character
    cantrip: Cantrip
    target: str | None
    effects: tuple[Effect, ...]
    events: tuple[Event, ...]      # facts: told by furnace.render.story


def cast_cantrip(character: Character, name: str, rules: Ruleset | None = None, *, target: str | None = None,
                 book: Cantrips | None = None) -> CantripCast:
    """F-MU-06: a known cantrip takes effect with no SPELLCHECK; the character is unchanged (no Spell
    Depletion count, no mishap). Its effects are returned for the referee to apply to the target."""
    rules = rules or load_ruleset()
    cantrip = (book or load_cantrips()).get(name)
    refusal = refused(character.name, cantrip, rules, known=cantrip.name in character.cantrips,
                      barred=barred_targets(character), target=target, armor=armor_refusal(character, rules))
    if refusal:
        raise IllegalActionError(refusal)
    aimed = {"target": target} if target else {}
    event = fact(CANTRIP, character, (), ("F-MU-06",), cantrip=cantrip.name, text=cantrip.text, **aimed)
    return CantripCast(character, cantrip, target, tuple(cantrip.effects_under(rules)), (event,))


def refused(caster: str, cantrip: Cantrip, rules: Ruleset, *, known: bool, barred: Sequence[str],
            target: str | None, armor: str | None = None) -> str | None:
    """Why this cantrip cannot be cast now, or None; `armor` is why her armor bars spellcasting (D-9)."""
    if armor:
        return armor
    if not known:
        return f"{caster} does not know the cantrip {cantrip.name}"
    if not cantrip.allowed(rules):
        return f"{cantrip.name} deals damage and is not approved (AMB-42, option damage_cantrips)"
    if target is not None and target in barred:
        return f"{caster} can't target {target} with magic until a rest (mishap, F-TAB-18 10–11)"
    return None


def armor_refusal(character: Character, rules: Ruleset) -> str | None:
    """D-9 (option nonproficient_armor): why she cannot cast in the armor or shield she wears, or None."""
    if character.can_cast_in_armor(rules):
        return None
    return f"{casting_refusal(character, rules) or character.name + ' cannot cast in her armor'} (D-9)"


def barred_targets(character: Character) -> list[str]:
    """The creatures a mishap bars this character from targeting until rest (F-TAB-18 10–11)."""
    return [what for name, what, _ in lockouts(character) if name == "CANT_TARGET_SAME" and what]
