"""The spell builder: a random name from two word tables (X-TAB-03 + X-TAB-04, in the Maze Rats manner)
and proposed Success Level rows that spend exactly each SL's dice (1/2/4/7/11), for the referee to edit
and save as a spell file (F-SPELL-01, F-SPELL-05, F-SPELL-06, F-SPELL-12).

What the builder is given is checked first and named when wrong (`SpellBuilderError`): the name (text of
1 to `MAX_NAME` characters with a letter or a digit), the kind (effect, ranged, melee), the base effect
(one of `TEMPLATES`) and the damage type (a word).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from furnace import dice
from furnace.dice import DiceSource
from furnace.errors import DataFileError, FurnaceError
from furnace.magic.spells import SPELL_DIE, check_budget
from furnace.rules.effects import shown
from furnace.rules.ruleset import Ruleset
from furnace.rules.tables import Table, validate_table

# One component: (words, cost in dice, effect mapping). {n}/{die}/{type} are filled in.
Component = tuple[str, int, dict[str, Any]]
MAX_NAME = 80          # characters in a spell's name


class SpellBuilderError(FurnaceError):
    """A spell the builder cannot propose: a blank name, an unknown kind or base effect …"""


def _text(field: str, value: object, limit: int = MAX_NAME) -> str:
    """Text of 1 to `limit` characters with a letter or a digit (blanks collapsed), or a SpellBuilderError."""
    if not isinstance(value, str):
        raise SpellBuilderError(f"{field}: text of 1 to {limit} characters, not {type(value).__name__}")
    text = " ".join(value.split())
    if not any(ch.isalnum() for ch in text) or len(text) > limit:
        raise SpellBuilderError(f"{field}: {value[:limit]!r} is not text of 1 to {limit} characters with a letter "
                                "or a digit")
    return text


def _damage(n: int) -> Component:
    return ("{n}{die} {type}DAM".replace("{n}", str(n)), n, {"kind": "damage", "dice": f"{n}{{die}}"})


def _area(zone: str, cost: int) -> Component:
    return (f"everyone {zone} of the target", cost, {"kind": "area", "zone": zone})


def _for(n: int, cost: int) -> Component:
    return (f"for {n}d4 rounds", cost, {"kind": "_duration", "amount": f"{n}d4"})


def _cond(name: str, cost: int) -> Component:
    return (f"the target is {name}", cost, {"kind": "condition", "name": name})


TEMPLATES: dict[str, list[list[Component]]] = {
    "damage": [[_damage(1)], [_damage(1), _area("CLOSE", 1)], [_damage(3), _area("CLOSE", 1)],
               [_damage(5), _area("NEAR", 2)], [_damage(7), _area("NEAR", 2), _cond("PRONE", 1), _for(1, 1)]],
    "condition": [[_cond("STUNNED", 1)], [_cond("STUNNED", 1), _for(1, 1)], [_cond("PARALYSED", 2), _for(2, 2)],
                  [_cond("PARALYSED", 2), _for(2, 2), _area("CLOSE", 1), _damage(2)],
                  [_cond("PARALYSED", 2), _for(2, 2), _area("NEAR", 2), _damage(5)]],
    "protection": [[("+1d4 AC", 1, {"kind": "referee_prompt", "prompt": "the caster's AC rises by 1d4"})],
                   [("+1d4 AC", 1, {"kind": "referee_prompt", "prompt": "the caster's AC rises by 1d4"}), _for(1, 1)],
                   [("+1d4 AC", 1, {"kind": "referee_prompt", "prompt": "the caster's AC rises by 1d4"}), _for(1, 1),
                    ("2d8 to each attacker", 2, {"kind": "damage", "dice": "2d8", "target": "attacker"})],
                   [("+2d4 AC", 2, {"kind": "referee_prompt", "prompt": "the caster's AC rises by 2d4"}), _for(2, 2),
                    ("3d8 to each attacker", 3, {"kind": "damage", "dice": "3d8", "target": "attacker"})],
                   [("+2d4 AC", 2, {"kind": "referee_prompt", "prompt": "AC +2d4 for the caster and allies CLOSE"}),
                    _for(3, 3), ("allies CLOSE too", 1, {"kind": "area", "zone": "CLOSE", "of": "self"}),
                    ("5d8 to each attacker", 5, {"kind": "damage", "dice": "5d8", "target": "attacker"})]],
    "summon": [[], [("a creature", 1, {"kind": "summon", "creature": "{word}", "count": "1"}), _for(1, 1)],
               [("1d4 creatures", 2, {"kind": "summon", "creature": "{word}", "count": "1d4"}), _for(2, 2)],
               [("2d4 creatures", 5, {"kind": "summon", "creature": "{word}", "count": "2d4"}), _for(2, 2)],
               [("3d4 creatures", 9, {"kind": "summon", "creature": "{word}", "count": "3d4"}), _for(2, 2)]],
}
TEMPLATES["area"] = TEMPLATES["damage"]
TEMPLATES["movement"] = TEMPLATES["condition"]


@dataclass(frozen=True)
class SpellName:
    name: str
    element: dict[str, Any]
    form: dict[str, Any]
    rolls: tuple[dice.RollResult, ...]


def random_name(rng: DiceSource, rules: Ruleset) -> SpellName:
    """d6 d6 on each word table: 'Ember' + 'Swarm'."""
    picks, rolls = [], []
    for table in ("spell-name-elements", "spell-name-forms"):
        a = dice.roll("d6", rng, label=f"{table}: first d6")
        b = dice.roll("d6", rng, label=f"{table}: second d6")
        found = rules.tables.get(table)
        data = found.lookup(f"{a.total}{b.total}").data
        if not isinstance(data.get("word"), str) or not data["word"].strip():
            raise DataFileError(rules.tables.source_of(found.id), f"key {a.total}{b.total}: data.word is a word, "
                                f"not {data.get('word')!r}", f"{a.total}{b.total}")
        picks.append(data)
        rolls += [a, b]
    return SpellName(f"{picks[0]['word']} {picks[1]['word']}", picks[0], picks[1], tuple(rolls))


def _fill(value: Any, die: str, kind_word: str) -> Any:
    if isinstance(value, str):
        return value.replace("{die}", die).replace("{word}", kind_word)
    if isinstance(value, dict):
        return {k: _fill(v, die, kind_word) for k, v in value.items()}
    return value


def _row(sl: int, components: list[Component], die: str, damage_type: str | None, word: str) -> dict[str, Any]:
    kind = f"{damage_type} " if damage_type else ""
    texts = [c[0].replace("{die}", die).replace("{type}", kind) for c in components]
    effects: list[dict[str, Any]] = []
    duration = next((c[2]["amount"] for c in components if c[2]["kind"] == "_duration"), None)
    for _, _, effect in components:
        if effect["kind"] == "_duration":
            continue
        filled = _fill(effect, die, word.lower())
        if filled["kind"] == "damage" and damage_type and "type" not in filled:
            filled["type"] = damage_type
        if duration and filled["kind"] in ("condition", "summon"):
            filled["duration"] = {"amount": duration, "unit": "round"}
        effects.append(filled)
    if not components:
        return {"key": sl, "text": "Not enough dice for the base effect: still a failure",
                "effects": [{"kind": "nothing"}], "data": {"components": [], "total_cost": 0, "failure": True}}
    return {"key": sl, "text": "; ".join(texts), "effects": effects,
            "data": {"components": [{"text": t, "cost": c[1]} for t, c in zip(texts, components, strict=True)],
                     "total_cost": sum(c[1] for c in components)}}


def propose(name: str, kind: str, base_effect: str, rules: Ruleset, damage_type: str | None = None,
            ) -> dict[str, Any]:
    """A spell table (as a mapping) whose SL rows spend exactly their dice; SL6 is left to the referee."""
    name = _text("name", name)
    if not isinstance(kind, str) or kind not in SPELL_DIE:
        raise SpellBuilderError(f"kind: {shown(kind)} is not one of {', '.join(SPELL_DIE)}")
    if not isinstance(base_effect, str) or base_effect not in TEMPLATES:
        raise SpellBuilderError(f"base effect: {shown(base_effect)} is not one of {', '.join(TEMPLATES)}")
    if damage_type is not None:
        damage_type = _text("damage type", damage_type, 40)
    die = SPELL_DIE[kind]
    template = TEMPLATES[base_effect]
    base = re.sub(r"[^a-z0-9]+", "-", _ascii(name).lower()).strip("-") or "spell"
    taken = {t.name for t in rules.tables} | {a for t in rules.tables for a in t.aliases}
    slug, n = base, 2
    while f"spell-{slug}" in taken:   # a new spell never takes a packaged spell's short name
        slug, n = f"{base}-{n}", n + 1
    rows = [_row(sl, comps, die, damage_type, name.split()[-1]) for sl, comps in enumerate(template, 1)]
    rows.append({"key": 6, "text": f"WONDER: {name} beyond measure (the referee decides)",
                 "effects": [{"kind": "referee_prompt", "prompt": f"WONDER: what does {name} do at its peak?"}],
                 "data": {"components": [], "total_cost": None, "wonder": True}})
    return {"id": f"house:spell-{base}", "name": f"spell-{slug}", "title": f"{name} ({kind} spell)",
            "source": "Furnace spell builder (F-SPELL-01): proposed rows for the referee to edit",
            "kind": "keyed", "key_name": "sl", "rules": ["F-SPELL-05", "F-SPELL-06"],
            "notes": [f"Proposed from the '{base_effect}' pattern; every SL row spends exactly its dice (1/2/4/7/11)."],
            "data": {"spell": name, "spell_kind": kind, "spell_die": die}, "rows": rows}


def _ascii(text: str) -> str:
    """Without accents, so 'Ætherbolt' and 'Mjölnir' keep their letters in a short name."""
    import unicodedata

    return "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))


def build(data: dict[str, Any], rules: Ruleset) -> Table:
    """Validate a proposed (or edited) spell like any spell file: the table, then its budget."""
    table = validate_table(data, "<spell builder>")
    check_budget(table, rules, "<spell builder>")
    return table


def to_yaml(data: dict[str, Any]) -> str:
    import yaml  # here: only a spell written out as a file needs PyYAML's writer

    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110)
