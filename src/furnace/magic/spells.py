"""Spells as data: a spell is a keyed table (`spell-…`) with one row per Success Level.

Each row lists its components with their cost in Spell Dice; the budget of an SL is what the
SPELLCHECK table buys (1/2/4/7/11, F-SPELL-06; SL6 is a WONDER with no budget). A spell that spends
more or less than its SL buys is refused with the level and the count; the only exception is a row
marked `failure: true` (Animate Dead's SL1, whose base effect costs two dice, F-SPELL-12). Casting
returns the row's structured effects, with a crit's two extra Spell Dice added to its damage.

Every field a spell file adds is checked on load and named when wrong: the SL keys (1-6), each component's
cost (a whole number of dice from 0 to `MAX_COST`), total_cost, spell_kind, spell_die (a dice expression
within the dice limits), the spell's name and its mishap table (a table in force).
"""

from __future__ import annotations

import typing
import weakref
from dataclasses import dataclass, field
from typing import Any, Literal

from furnace import dice
from furnace.errors import DataFileError, FurnaceError, UnknownNameError
from furnace.magic.spellcheck import CRIT_EXTRA_DICE, Spellcheck, dice_for_sl
from furnace.rules.effects import Damage, Effect, RefereePrompt
from furnace.rules.ruleset import Ruleset
from furnace.rules.tables import Row, Table

SpellKind = Literal["effect", "ranged", "melee"]
SPELL_DIE: dict[str, str] = {"effect": "d4", "ranged": "d6", "melee": "d8"}   # F-TAB-12
WONDER_SL = 6
MAX_COST = 11          # the most Spell Dice an SL buys (SL5)
MAX_COMPONENTS = 50    # components in one SL row


def dice_count(value: Any, what: str, where: str, row: int) -> int:
    """A cost in dice from a spell or item file: a whole number from 0 to MAX_COST (missing or null is 0)."""
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COST:
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:40] + "…"
        raise DataFileError(where, f"{what}: {shown} is not a whole number of dice from 0 to {MAX_COST}", row)
    return value


def _sl_of(key: object, where: str, row: int) -> int:
    if isinstance(key, bool) or not isinstance(key, int | str) or not str(key).strip().isdigit() \
            or not 1 <= int(str(key)) <= WONDER_SL:
        raise DataFileError(where, f"key: {key!r} is not a Success Level; a spell has rows for SL1 to SL{WONDER_SL}",
                            row)
    return int(str(key))


@dataclass(frozen=True)
class Spell:
    name: str
    table: Table
    kind: SpellKind
    die: str
    mishap_table: str | None = None
    levels: dict[int, Row] = field(default_factory=dict)

    def row(self, sl: int) -> Row | None:
        return self.levels.get(sl)

    def player_view(self) -> str:
        """F-SPELL-01: the player sees what the spell does at its lowest level, not the whole table."""
        first = min(self.levels) if self.levels else None
        return f"{self.name} ({self.kind} spell, {self.die} Spell Dice)" + (
            f": {self.levels[first].text} …" if first is not None else "")


def is_spell(table: Table) -> bool:
    return table.name.startswith("spell-") and "spell_kind" in table.data


def check_budget(table: Table, rules: Ruleset, where: str) -> None:
    """Every SL row spends exactly the dice its SL buys, and its components add up (F-SPELL-06)."""
    for i, row in enumerate(table.rows, 1):
        sl = _sl_of(row.key, where, i)
        components = row.data.get("components", [])
        if sl == WONDER_SL or row.data.get("wonder"):
            continue
        if not isinstance(components, list) or len(components) > MAX_COMPONENTS \
                or not all(isinstance(c, dict) for c in components):
            raise DataFileError(where, f"SL{sl}: data.components is a list of at most {MAX_COMPONENTS} mappings "
                                "with text and cost", i)
        cost = sum(dice_count(c.get("cost"), f"SL{sl}: data.components.{n}.cost", where, i)
                   for n, c in enumerate(components, 1))
        stated = row.data.get("total_cost", cost)
        if stated is not None:
            stated = dice_count(stated, f"SL{sl}: data.total_cost", where, i)
        budget = dice_for_sl(sl, rules)
        if cost != stated:
            raise DataFileError(where, f"SL{sl}: the components cost {cost} dice but total_cost says {stated}", i)
        if row.data.get("failure") and cost == 0:
            continue
        if cost != budget:
            verb = "overspends" if cost > (budget or 0) else "underspends"
            raise DataFileError(where, f"SL{sl} {verb}: {cost} dice where SL{sl} buys {budget}", i)


def spell_from_table(table: Table, rules: Ruleset) -> Spell:
    if not isinstance(table, Table):
        raise UnknownNameError("spell table", repr(table)[:60])
    where = rules.tables.source_of(table.id)
    kind = table.data.get("spell_kind")
    if not isinstance(kind, str) or kind not in SPELL_DIE:
        raise DataFileError(where, f"data.spell_kind must be one of {', '.join(SPELL_DIE)}, not {kind!r}")
    if table.kind != "keyed":
        raise DataFileError(where, "a spell is a keyed table: one row per SL (key 1 to 6)")
    name = table.data.get("spell", table.title)
    if not isinstance(name, str) or not name.strip() or len(name) > 100:
        raise DataFileError(where, f"data.spell: a spell's name is text of 1 to 100 characters, not {name!r}")
    die = table.data.get("spell_die", SPELL_DIE[kind])
    try:
        if not isinstance(die, str):
            raise FurnaceError(f"not {type(die).__name__}")
        dice.parse(die)
    except FurnaceError as exc:
        raise DataFileError(where, f"data.spell_die: a dice expression such as {SPELL_DIE[kind]} "
                            f"(at most 1,000 dice of 10,000 sides): {exc}") from None
    mishap = table.data.get("mishap_table")
    if mishap is not None:
        if not isinstance(mishap, str):
            raise DataFileError(where, f"data.mishap_table: a table's id or name, not {mishap!r}")
        try:
            rules.tables.get(mishap)
        except UnknownNameError as exc:
            raise DataFileError(where, f"data.mishap_table: {exc}") from None
    check_budget(table, rules, where)
    return Spell(name=name, table=table, kind=typing.cast(SpellKind, kind), die=die, mishap_table=mishap,
                 levels={int(str(r.key)): r for r in table.rows})


def all_spells(rules: Ruleset) -> list[Spell]:
    return [spell_from_table(t, rules) for t in rules.tables if is_spell(t)]


# Each ruleset's spells by the name asked, read and checked once: a fight casts the same few spells again and
# again. Keyed by the ruleset's identity and dropped with it (a ruleset is immutable).
_SPELLS: dict[int, dict[str, Spell]] = {}


def get_spell(rules: Ruleset, name: str) -> Spell:
    """A spell by name (Fireball), short name (spell-fireball) or table id."""
    if not isinstance(name, str):
        raise UnknownNameError("spell", repr(name))
    wanted = name.strip().lower()
    known = _SPELLS.get(id(rules))
    if known is None:
        try:
            weakref.finalize(rules, _SPELLS.pop, id(rules), None)
        except TypeError:       # a ruleset-like value that cannot be watched: not cached
            return _find_spell(rules, name, wanted)
        known = _SPELLS[id(rules)] = {}
    spell = known.get(wanted)
    if spell is None:
        spell = known[wanted] = _find_spell(rules, name, wanted)
    return spell


def _find_spell(rules: Ruleset, name: str, wanted: str) -> Spell:
    for t in rules.tables:
        if is_spell(t) and wanted in (t.id.lower(), t.name, str(t.data.get("spell", "")).lower(),
                                      t.name.removeprefix("spell-")):
            return spell_from_table(t, rules)
    raise UnknownNameError("spell", name, [str(t.data.get("spell", t.name)) for t in rules.tables if is_spell(t)])


@dataclass(frozen=True)
class Cast:
    """A cast spell: the SPELLCHECK, the row it bought, and the effects to apply (nothing on a failure)."""

    spell: Spell
    check: Spellcheck
    row: Row | None
    effects: tuple[Effect, ...] = ()
    notes: tuple[str, ...] = ()
    crit_dice: str = ""            # a natural 20's 2 more Spell Dice ("2d6"), added to the damage or the referee's
    crit_damage: bool = False      # they went to the spell's damage

    def explain(self) -> str:
        head = f"{self.spell.name}: {self.check.explain()}"
        if self.row is None:
            return head
        return f"{head}\n  SL{self.check.sl}: {self.row.text}" + "".join(f"\n  {n}" for n in self.notes)

    def to_dict(self) -> dict[str, Any]:
        return {"spell": self.spell.name, "check": self.check.to_dict(), "sl": self.check.sl,
                "row": None if self.row is None else self.row.model_dump(mode="json", exclude_defaults=True),
                "effects": [e.model_dump(mode="json", exclude_defaults=True) for e in self.effects],
                "notes": list(self.notes)}


def cast(spell: Spell, check: Spellcheck) -> Cast:
    """The effects a SPELLCHECK buys from a spell (F-SPELL-05…08). A crit's +2 Spell Dice go to the
    spell's damage (its base effect) when it has one, else to the referee (how to spend them)."""
    if not check.success:
        return Cast(spell, check, None)
    row = spell.row(check.sl)
    if row is None:
        prompt = RefereePrompt(kind="referee_prompt", prompt=f"{spell.name} has no SL{check.sl} row: write it")
        return Cast(spell, check, None, (prompt,), ("no row for this SL",))
    effects = list(row.effect_list())
    notes: list[str] = []
    crit_damage = False
    if check.crit and check.sl < WONDER_SL:
        before = len(effects)
        effects, note = _crit_dice(effects, spell)
        notes.append(note)
        crit_damage = len(effects) == before
    if check.sl == WONDER_SL and not any(e.kind == "referee_prompt" for e in effects):
        effects.insert(0, RefereePrompt(kind="referee_prompt", prompt=f"WONDER: {row.text}"))
    crit = f"{CRIT_EXTRA_DICE}{spell.die}" if notes else ""
    return Cast(spell, check, row, tuple(effects), tuple(notes), crit, crit_damage)


def _crit_dice(effects: list[Effect], spell: Spell) -> tuple[list[Effect], str]:
    for i, effect in enumerate(effects):
        if isinstance(effect, Damage) and effect.every is None:
            extra = effect.model_copy(update={"dice": f"{effect.dice}+2{spell.die}"})
            return [*effects[:i], extra, *effects[i + 1:]], f"natural 20: +2{spell.die} to the damage (F-SPELL-08)"
    prompt = RefereePrompt(kind="referee_prompt", prompt=f"natural 20: spend 2 more {spell.die} Spell Dice")
    return [*effects, prompt], "natural 20: 2 more Spell Dice for the referee to place"
