"""Fuzzing the rules' data: valid data files, MUTATED, loaded through the library loaders.

Each input starts from a valid file — a packaged table (`src/furnace/data/tables/*.yaml`), a profile
(`src/furnace/data/profiles/`, and a referee's profile that adds a table), a packaged spell or item, a
disease — and gets one to three of: a field set to a value of the same type (a dice expression past the
limits, a condition that does not exist, a huge or negative number …), a wrong type, a huge value, deep
nesting, a key deleted, a list entry or a key duplicated, YAML aliases (a shared value, a "billion
laughs"); then perhaps binary bytes spliced into the text, the text cut short, or a key written twice. It
is written to a file and loaded with `TableSet.load_files`, `load_ruleset` or `load_disease`, and, when
that works, used: rolled on, looked up, cast, infected and run on the clock. Hostile `NAME=VALUE` option
overrides go through `parse_override` and the CLI's `load_rules`.

The property: a result or a `FurnaceError`, within the bound of `bounded`. "deep" counts the inputs that
got past loading into the rules. Shares of the budget: tables 0.1, profiles 0.05, spells and items 0.1,
diseases 0.05, options 0.05.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from furnace import dice
from furnace.characters.character import Character, archetype_table
from furnace.cli.app import load_rules
from furnace.hazards import infect, load_disease
from furnace.magic.items import is_item, item_from_table
from furnace.magic.spellcheck import spellcheck
from furnace.magic.spells import cast, is_spell, spell_from_table
from furnace.play.clock import Campaign, advance, unit_seconds
from furnace.rules.effects import Damage
from furnace.rules.ruleset import Ruleset, load_ruleset, option_specs, parse_override
from furnace.rules.tables import Table, TableSet
from tests.fuzz.conftest import bounded, fuzz_settings, record

# thousands of data files validated: the whole run only (FURNACE_SUITE=full, CI)
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "src" / "furnace" / "data"
RULES = load_ruleset("furnace")
HAZARDS = load_ruleset("hazards")


def _load(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


TABLES = [_load(p) for p in sorted((DATA / "tables").glob("*.yaml"))]
SPELLS_AND_ITEMS = [t for t in TABLES if str(t.get("name", "")).startswith(("spell-", "item-"))
                    and (t.get("data", {}).get("spell_kind") or any(r.get("key") == "item" for r in t["rows"]))]
GRIM = {**copy.deepcopy(next(t for t in TABLES if t["name"] == "injuries")), "id": "house:grim", "name": "grim",
        "aliases": []}
PROFILES = [_load(p) for p in sorted((DATA / "profiles").glob("*.yaml"))] + [
    {"name": "grim", "extends": "hazards", "title": "A referee's grim profile", "tables": ["grim.yaml"],
     "options": {"injury_table": "house:grim", "round_seconds": 60, "luck_die_size": "d8", "enemy_morale": True}}]
DISEASES = [
    {"name": "Green River Fever", "incubation": "1 week", "interval": "4 hours", "infection": "3 days",
     "effect": {"ability": "INT"}},
    {"name": "Bone Rot", "incubation": {"amount": 2, "unit": "day"}, "interval": {"amount": 1, "unit": "day"},
     "infection": {"amount": 2, "unit": "week"}, "effect": {"ability": "CON", "amount": 2, "permanent": True},
     "save_category": "death", "penalty_not_resting": -4},
]
SPECS = option_specs()
HOB = Character.from_file(ROOT / "examples" / "characters" / "hob.json")

# -- mutations -------------------------------------------------------------------------------------------------
WRONG = st.one_of(
    st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12), st.lists(st.integers(-3, 30), max_size=3),
    st.dictionaries(st.text(max_size=6), st.integers(-3, 30), max_size=3),
    st.sampled_from(["d20", "1d6", "STR", "", "-1", "0", "abc", "keyed", "range", "item", "spell-x"]),
)
HUGE: list[Any] = [10**18, -(10**18), 2**63, 10**400, -1, 0, 1, float("inf"), float("nan"), "x" * 100_000,
                   "9" * 5000, "1001d6", "d10001", "99999999d99999999", "d" * 3000, [0] * 5000,
                   {f"k{i}": i for i in range(2000)}]
SAME_INT = st.one_of(st.integers(-5, 40), st.sampled_from([100, 1000, 10**6, 10**9, 10**18, -(10**9)]))
SAME_STR = st.one_of(st.text(max_size=8), st.sampled_from([
    "d20", "1d6", "2d6+CHA", "3d6+EXCESS", "d20+4", "1001d6", "d10001", "1d6+" + "1+" * 130 + "1", "2d", "d0",
    "PRONE", "STUNNED", "SLEEPY", "target", "self", "nobody", "round", "exploration_turn", "fortnight",
    "F-TAB-37a", "F-TAB-05z", "house:grim", "house:nope", "injuries", "grim.yaml", "nope.yaml", "furnace", "hazards",
    "middle-sea", "greyhawk", "effect", "ranged", "melee", "common", "rare", "mythic", "abc", "1 week", "4 hours",
    "1 second", "100 years", "0 days", "INT", "CON", "LUCK", "poison", "Fighter", "x" * 500,
    "2 days", "1 hour", "30 minutes", "3 rounds", "6 turns", "1 watch", "1 month", "5 years", "12 segments"]))
UNITS = ["second", "seconds", "minute", "hour", "hours", "watch", "day", "days", "week", "month", "year", "years",
         "round", "rounds", "turn", "turns", "exploration turn", "fortnight", "", "h", "d"]
DURATION = st.builds(lambda n, u: f"{n} {u}", st.one_of(st.integers(0, 30), SAME_INT), st.sampled_from(UNITS))
OTHER_OPS = ["wrong", "huge", "delete", "duplicate", "nest", "alias", "bomb"]


@st.composite
def same_type(draw: st.DrawFn, value: Any) -> Any:
    """Another value of the same type: the file still parses and mostly validates, and reaches the rules."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return draw(SAME_INT)
    if isinstance(value, float):
        return draw(st.floats(-1e9, 1e9))
    if isinstance(value, str) and re.fullmatch(r"\d+ [a-z ]+", value):   # a duration: another one
        return draw(st.one_of(DURATION, DURATION, SAME_STR))
    if isinstance(value, str):
        return draw(SAME_STR)
    if isinstance(value, list):
        return draw(st.permutations(value)) if draw(st.booleans()) else value[:draw(st.integers(0, len(value)))]
    if isinstance(value, dict) and value:
        drop = draw(st.sampled_from(sorted(value, key=str)))
        return {k: v for k, v in value.items() if k != drop}
    return value


def _paths(doc: Any) -> list[tuple[Any, ...]]:
    """Every place in the document, the root first (at most 3,000)."""
    out: list[tuple[Any, ...]] = []
    stack: list[tuple[tuple[Any, ...], Any]] = [((), doc)]
    while stack and len(out) < 3000:
        path, value = stack.pop()
        out.append(path)
        if isinstance(value, dict):
            stack.extend(((*path, k), v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend(((*path, i), v) for i, v in enumerate(value))
    return out


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        doc = doc[part]
    return doc


def _put(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    _get(doc, path[:-1])[path[-1]] = value
    return doc


def _bomb(levels: int) -> list[Any]:
    node: list[Any] = ["lol"] * 9
    for _ in range(levels):
        node = [node] * 9
    return node


@st.composite
def mutated(draw: st.DrawFn, seeds: list[Any], same: int = 6) -> bytes:
    """A valid YAML document with one to three structural mutations (`same` in 7 + `same` of them keep the
    type, so the small documents still reach the rules), then perhaps bytes spliced in or cut off."""
    doc = copy.deepcopy(draw(st.sampled_from(seeds)))
    ops = ["same"] * same + OTHER_OPS
    for _ in range(draw(st.sampled_from([1, 1, 1, 2, 3]))):
        op = draw(st.sampled_from(ops))
        paths = _paths(doc)
        path = draw(st.sampled_from(paths[1:] if len(paths) > 1 else paths))
        if op == "same":
            doc = _put(doc, path, draw(same_type(_get(doc, path))))
        elif op == "wrong":
            doc = _put(doc, path, draw(WRONG))
        elif op == "huge":
            doc = _put(doc, path, copy.deepcopy(draw(st.sampled_from(HUGE))))   # never the shared original
        elif op == "delete" and path:
            del _get(doc, path[:-1])[path[-1]]
        elif op == "duplicate" and path:
            parent = _get(doc, path[:-1])
            if isinstance(parent, list):
                parent.extend([copy.deepcopy(parent[path[-1]])] * draw(st.integers(1, 30)))
            else:
                parent[f"{path[-1]}_"] = copy.deepcopy(parent[path[-1]])
        elif op == "nest":
            value = _get(doc, path)
            for _ in range(draw(st.sampled_from([1, 2, 10, 40, 100]))):
                value = [value] if draw(st.booleans()) else {"x": value}
            doc = _put(doc, path, value)
        elif op == "alias":   # the same object twice: YAML writes an anchor and an alias
            doc = _put(doc, path, _get(doc, draw(st.sampled_from(paths))) if path else doc)
        elif op == "bomb":
            doc = _put(doc, path, _bomb(draw(st.integers(1, 9))))
    try:
        text = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)
    except (RecursionError, ValueError):   # an alias to its own parent: no text for that
        text = yaml.safe_dump(seeds[0], sort_keys=False)
    data = text.encode("utf-8")
    tail = draw(st.sampled_from(["none"] * 7 + ["bytes", "cut", "dupkey"]))
    if tail == "bytes":
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.binary(min_size=1, max_size=8)) + data[at:]
    elif tail == "cut":
        data = data[:draw(st.integers(0, len(data)))]
    elif tail == "dupkey" and isinstance(doc, dict) and doc:   # the same key twice in the text
        key = draw(st.sampled_from(sorted(doc, key=str)))
        data += ("\n" + json.dumps({str(key): draw(WRONG)})[1:-1] + "\n").encode()
    return data


# -- using what loaded -----------------------------------------------------------------------------------------
def _use_table(table: Table, rules: Ruleset) -> None:
    """Roll on it or look it up; a spell is cast, an item explained, an archetype checked."""
    rng = dice.seeded(1)
    if table.kind == "range" and table.roll and not table.variables:
        rules.tables.roll(table.id, rng)
    elif table.kind == "range" and table.die_table:
        selector = rules.tables.get(table.die_table)
        if selector.rows and selector.kind == "keyed":
            rules.tables.roll(table.id, rng, key=selector.rows[0].key if selector.rows[0].key is not None else 0)
    elif table.kind == "keyed":
        for key in table.keys()[:5]:
            table.lookup(key)
    if is_spell(table):
        _cast(spell_from_table(table, rules), rules)
    if is_item(table):
        item = item_from_table(table, rules)
        item.explain(), json.dumps(item.to_dict())
    if table.name.startswith("archetype-"):
        archetype_table(rules, table.name.removeprefix("archetype-"))


def _cast(spell: Any, rules: Ruleset) -> None:
    rng = dice.seeded(2)
    for _ in range(3):
        result = cast(spell, spellcheck(rng, 4, 3, 8, rules))
        json.dumps(result.to_dict())
        for effect in result.effects:
            if isinstance(effect, Damage) and not dice.parse(effect.dice).variables():
                dice.roll(effect.dice, rng)


@pytest.fixture(scope="module")
def data_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    where = tmp_path_factory.mktemp("fuzz-data")
    (where / "grim.yaml").write_text(yaml.safe_dump(GRIM, sort_keys=False), encoding="utf-8")
    yield where
    shutil.rmtree(where, ignore_errors=True)


def _tables(target: str, path: Path) -> None:
    with bounded(target):
        loaded = TableSet.packaged().load_files([path])
        record(target, "deep")
        rules = dataclasses.replace(RULES, tables=loaded)
        table = loaded.get(loaded_id(path, loaded))
        _use_table(table, rules)


def loaded_id(path: Path, tables: TableSet) -> str:
    """The id of the table a file laid over the set (the one whose source is the file)."""
    return str(next(t.id for t in tables if tables.source_of(t.id) == str(path)))


@fuzz_settings(0.1)
@given(data=mutated(TABLES))
def test_table_files(data: bytes, data_folder: Path) -> None:
    path = data_folder / "table.yaml"
    path.write_bytes(data)
    _tables("table file", path)


@fuzz_settings(0.1)
@given(data=mutated(SPELLS_AND_ITEMS))
def test_spell_and_item_files(data: bytes, data_folder: Path) -> None:
    path = data_folder / "spell-or-item.yaml"
    path.write_bytes(data)
    _tables("spell or item file", path)


@fuzz_settings(0.05)
@given(data=mutated(PROFILES, same=12))
def test_profile_files(data: bytes, data_folder: Path) -> None:
    path = data_folder / "profile.yaml"
    path.write_bytes(data)
    with bounded("profile file"):
        rules = load_ruleset(str(path))
        record("profile file", "deep")
        for value in rules:
            if value.spec.type == "table":
                _use_table(rules.tables.get(str(value.value)), rules)
            elif value.spec.type == "dice":
                dice.parse(str(value.value)).roll(dice.seeded(3))
        unit_seconds("round", rules), unit_seconds("turn", rules)
        rules.with_options({"enemy_morale": True})


ABILITY = st.sampled_from(["STR", "DEX", "CON", "INT", "WIS", "CHA"] * 3 + ["LUCK", "int"])
GOOD_UNITS = ["second", "minute", "hour", "hours", "watch", "day", "days", "week", "month", "year", "round", "turns"]
SPAN = st.one_of(DURATION, *[st.builds(lambda n, u: f"{n} {u}", st.integers(1, 60), st.sampled_from(GOOD_UNITS))] * 4)
DISEASE_FIELDS = st.fixed_dictionaries(
    {"name": st.sampled_from(["Ague", "Bone Rot", "Sweat", "x" * 101, ""]), "incubation": SPAN, "interval": SPAN,
     "infection": SPAN, "effect": st.fixed_dictionaries(
         {"ability": ABILITY}, optional={"amount": st.integers(-1, 25), "permanent": st.booleans()})},
    optional={"save_category": st.sampled_from(["poison", "death", "fear", "nerve"]),
              "penalty_not_resting": st.integers(-30, 30)})
DISEASE_DOCS = st.one_of(mutated(DISEASES, same=20), mutated(DISEASES, same=20),
                         DISEASE_FIELDS.map(lambda d: yaml.safe_dump(d).encode("utf-8")))


@fuzz_settings(0.05)
@given(data=DISEASE_DOCS)
def test_disease_files(data: bytes, data_folder: Path) -> None:
    path = data_folder / "disease.yaml"
    path.write_bytes(data)
    with bounded("disease file"):
        disease = load_disease(path)
        record("disease file", "deep")
        campaign, _ = infect(Campaign(characters={HOB.name: HOB}), HOB.name, disease, HAZARDS)
        campaign, _ = advance(campaign, 1, "week", dice.seeded(4), HAZARDS)
        advance(campaign, 1, "day", dice.seeded(5), HAZARDS)


# -- option overrides -------------------------------------------------------------------------------------------
HOSTILE = st.sampled_from([
    "", " ", "[", "]", "{", "{a: [1, 2]}", "&a [*a]", "!!python/object/apply:os.system ['ls']", "*a", "1e999",
    "10**400", "9" * 5000, "-9" * 30, "0x10", "1_000", "+7", "-0", "true", "True", "YES", "no", "1", "0", "null",
    "~", "d20", "d20" * 100, "1001d6", "d10001", "2d6+CHA", "NOPE", "F-TAB-37a", "f-tab-05B", "injuries",
    "house:grim", "furnace", "middle-sea", "WIS", "wis", "x" * 201, "a\x00b", "é", "=", "==", "\n", "\t1",
])
NAMES = st.one_of(st.sampled_from(sorted(SPECS)), st.text(max_size=20),
                  st.sampled_from(["enemy_moral", "ENEMY-MORALE", " round_seconds ", "x" * 100, "", "=", "a\x00"]))


@st.composite
def typed_override(draw: st.DrawFn) -> str:
    """An option's name (spelt a few ways) and a value near what its declared type takes, or a hostile one."""
    name = draw(st.sampled_from(sorted(SPECS)))
    spec = SPECS[name]
    lo, hi = spec.int_range()
    near: dict[str, list[str]] = {
        "choice": [str(c) for c in spec.choices] + [str(c).upper() for c in spec.choices] + ["zombie"],
        "bool": ["true", "false", "yes", "off", "maybe"],
        "int": [str(v) for v in (lo - 1, lo, lo + 1, hi - 1, hi, hi + 1, -(10**18))],
        "table": ["F-TAB-37a", "f-tab-37b", "injuries", "fumble", "NOPE", "house:grim"],
        "dice": ["d6", "2d4+1", "d%", "1001d6", "d10001", "d", "4d6kh3"],
        "text": ["house:my-table", "", "x" * 201, "hurled, strung"],
    }
    value = draw(st.one_of(st.sampled_from(near[spec.type]), HOSTILE))
    spelt = draw(st.sampled_from([name, name.upper(), name.replace("_", "-"), f" {name} "]))
    return f"{spelt}={value}"


OVERRIDES = st.one_of(
    typed_override(), typed_override(),
    st.builds(lambda n, v: f"{n}={v}", NAMES, st.one_of(HOSTILE, st.text(max_size=30))),
    st.text(max_size=40), st.sampled_from(["enemy_morale", "=true", "x" * 500, "round_seconds=" + "9" * 500]),
)


@fuzz_settings(0.05)
@given(text=OVERRIDES)
def test_option_overrides(text: str) -> None:
    with bounded("option override"):
        name, value = parse_override(text)
        record("option override", "deep")
        rules = RULES.with_options({name: value})
        assert rules[name] == value
        assert load_rules("furnace", [text])[name] == value
