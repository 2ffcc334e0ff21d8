"""Hardening: bad input gets one clear `FurnaceError`; data is validated to the rules' own ranges; work is
bounded before it starts.

Each case asserts the `FurnaceError` subclass, a message that names the field (or option) and the range or
the values allowed, and that the refusal comes before the work (no die rolled, no clock entry fired, no step
of exact odds, no file read past the reader's limit: counted by `tests.helpers.work`):
- dice in data files obey the limits of a typed expression (1,000 dice, 10,000 sides, 256 characters):
  characters, tables and their effects, spells, items;
- rule options of type int have ranges (times and intervals positive); `--option NAME=VALUE` is read by the
  option's declared type (`parse_override`), never as YAML;
- the clock: entries repeat at least every second, an advance that would fire too often is refused before
  anything fires; a disease of a 1-second interval over 100 years is refused;
- skills, saves, classes, archetypes, races and conditions come from their lists;
- the spell and item builders refuse a blank name; a spell or item row with `cost: abc` or a "billion
  laughs" in its `data` is refused cheaply;
- library calls with wrong types (load_ruleset with a list, a profile that extends in a loop, a table row
  no roll can reach, a lookup by a word) raise a `FurnaceError`, not a TypeError or AttributeError.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import yaml

from furnace import dice, files
from furnace.characters.advancement import level_up
from furnace.characters.character import SKILLS, Character, CharacterError, check_choices
from furnace.characters.funnel import promote
from furnace.cli.app import load_rules, main
from furnace.errors import DataFileError, FurnaceError, RuleOptionError, UnknownNameError
from furnace.hazards.disease import MAX_SAVES, Disease, DiseaseError, from_data, infect, load_disease
from furnace.magic.items import ItemError, get_item, item_from_table, propose_item
from furnace.magic.spellbuilder import SpellBuilderError, propose
from furnace.magic.spells import get_spell, spell_from_table
from furnace.play.clock import (
    DAY,
    MAX_ENTRIES,
    MAX_FIRINGS,
    Campaign,
    ClockError,
    advance,
    campaign_from_data,
    schedule,
)
from furnace.rules.effects import EffectError, parse_effect
from furnace.rules.ruleset import (
    INT_RANGES,
    UnknownOptionError,
    load_ruleset,
    option_specs,
    parse_override,
    parse_overrides,
)
from furnace.rules.tables import MAX_TABLE_VALUES, TableSet, check_shape, validate_table
from tests.helpers.work import Work, counted

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "characters"
RULES = load_ruleset()
HAZARDS = load_ruleset("hazards")


@contextmanager
def before_the_work(*, faces: int = 0, firings: int = 0) -> Iterator[Work]:
    """The block does none of the work a refusal saves: no die rolled and no clock entry fired (or at most
    `faces` and `firings`, when the refusal can only come after them), no step of exact odds, no user's file
    read past the reader's limit."""
    with counted() as work:
        yield work
    assert work.dice <= faces and work.firings <= firings, str(work)
    assert work.odds == 0 and work.bytes <= files.MAX_BYTES, str(work)


def refused(kind: type[FurnaceError], call: Callable[[], object], *words: str, firings: int = 0) -> FurnaceError:
    """`call` raises `kind` before the work, with every one of `words` in its message."""
    with before_the_work(firings=firings), pytest.raises(kind) as caught:
        call()
    message = str(caught.value)
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    return caught.value


def character(stem: str = "brakka") -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / f"{stem}.json").read_text(encoding="utf-8"))
    return data


def bomb(levels: int = 9, kind: type[list[Any]] = list) -> list[Any]:
    """A "billion laughs": 9^levels strings, a few hundred distinct objects (lists of `kind`)."""
    node: list[Any] = kind(["lol"] * 9)
    for _ in range(levels):
        node = kind([node] * 9)
    return node


class Walked(list[Any]):
    """A list that counts the values taken from it, in `Walked.values`, by whoever walks it."""

    values = 0

    def __iter__(self) -> Iterator[Any]:
        for value in super().__iter__():
            Walked.values += 1
            yield value


def table(name: str) -> dict[str, Any]:
    data: dict[str, Any] = TableSet.packaged().get(name).model_dump(mode="json", exclude_defaults=True)
    return data


def cli(capsys: pytest.CaptureFixture[str], *args: str, faces: int = 0) -> str:
    """Run the CLI in-process: exit code 2 and exactly one line `error: …`, before the work (or after at most
    `faces` dice)."""
    with before_the_work(faces=faces):
        code = main(list(args))
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    return err


# -- dice in data files obey the limits of a typed expression --------------------------------------------------
@pytest.mark.parametrize(("damage", "limit"), [
    ("1001d6", "1000 dice"), ("d10001", "10000"), ("1d6+" + "1+" * 200 + "1", "256"), ("2d", "expected"),
])
def test_a_weapon_s_damage_in_a_character_file_obeys_the_dice_limits(tmp_path: Path, damage: str, limit: str) -> None:
    data = character()
    data["weapons"][0]["damage"] = damage
    path = tmp_path / "hero.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    error = refused(DataFileError, lambda: Character.from_file(path), "weapons.0.damage", limit)
    assert str(path) in str(error)
    refused(DataFileError, lambda: Character.from_dict(data), "weapons.0.damage", limit)


def test_a_hit_die_in_a_character_s_history_obeys_the_dice_limits() -> None:
    data = character()
    data["hp_history"][0]["die"] = "1001d10"
    refused(DataFileError, lambda: Character.from_dict(data), "hp_history.0.die", "1000 dice")


@pytest.mark.parametrize(("field", "value", "words"), [
    ("hp_max", 10**9, ("hp_max", "100000")), ("hp", -(10**9), ("hp", "-100000")),
    ("armor_magic", 10**6, ("armor_magic", "50")), ("age", -1, ("age", "0")), ("hit_dice", 99, ("hit_dice", "10")),
    ("name", "   ", ("name", "blank")), ("level", 11, ("level", "10")),
])
def test_a_character_s_numbers_are_in_the_rules_ranges(field: str, value: Any, words: tuple[str, ...]) -> None:
    refused(DataFileError, lambda: Character.from_dict({**character(), field: value}), *words)


def test_a_table_s_roll_and_its_effects_obey_the_dice_limits() -> None:
    data = table("injuries")
    data["roll"] = "1001d20"
    refused(DataFileError, lambda: validate_table(data, "big.yaml"), "roll", "1000 dice")
    data = table("injuries")
    data["rows"][2]["effects"] = [{"kind": "damage", "dice": "5d100000"}]
    error = refused(DataFileError, lambda: validate_table(data, "big.yaml"), "dice", "10000")
    assert isinstance(error, DataFileError) and error.row == 3


@pytest.mark.parametrize(("name", "key"), [("occupations", "item_damage"), ("item-mjolnir", "dice"),
                                         ("classes", "hit_die")])
def test_dice_in_a_table_s_data_obey_the_dice_limits(name: str, key: str) -> None:
    data = table(name)
    row = next(r for r in data["rows"] if key in r.get("data", {}))
    row["data"][key] = "1001d6"
    refused(DataFileError, lambda: validate_table(data, "t.yaml"), f"data.{key}", "1000 dice")


def test_an_effect_obeys_the_dice_limits_and_its_ranges() -> None:
    refused(EffectError, lambda: parse_effect({"kind": "damage", "dice": "1001d6"}), "damage effect", "dice",
            "1000 dice")
    refused(EffectError, lambda: parse_effect({"kind": "modifier", "applies_to": "atk", "value": 10**9}),
            "value", "20")
    refused(EffectError, lambda: parse_effect({"kind": "hp_fraction_loss", "fraction": "3/0"}), "fraction",
            "1/2")
    refused(EffectError, lambda: parse_effect({"kind": "condition", "name": "SLEEPY"}), "name", "PRONE")
    refused(EffectError, lambda: parse_effect({"kind": ["damage"]}), "kind", "damage")


def test_a_spell_file_obeys_the_dice_limits(tmp_path: Path) -> None:
    data = table("spell-fireball")
    data.update(id="house:spell-hellfire", name="spell-hellfire", data={**data["data"], "spell": "Hellfire"})
    data["rows"][0]["effects"] = [{"kind": "damage", "dice": "1001d6"}]
    path = tmp_path / "hellfire.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    refused(DataFileError, lambda: load_ruleset(table_files=[path]), str(path), "dice", "1000 dice")
    data["rows"][0]["effects"] = []
    data["data"]["spell_die"] = "d100000"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    refused(DataFileError, lambda: load_ruleset(table_files=[path]), str(path), "data.spell_die", "10000 sides")
    data["data"]["spell_die"] = 6
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    rules = load_ruleset(table_files=[path])
    refused(DataFileError, lambda: get_spell(rules, "Hellfire"), "data.spell_die", "a dice expression such as d6")


# -- spells and items: costs are whole numbers of dice -----------------------------------------------------------
@pytest.mark.parametrize("cost", ["abc", -1, 12, 10**30, 1.5, True, [1]])
def test_a_spell_row_with_a_bad_cost_is_refused_naming_the_field(cost: Any) -> None:
    data = table("spell-fireball")
    data["rows"][1]["data"]["components"][0]["cost"] = cost
    words = ("data.components.1.cost", "0 to 11") if cost != 10**30 else ("rows.1.data", "10^18")
    with before_the_work(), pytest.raises(DataFileError) as caught:
        spell_from_table(validate_table(data, "hellfire.yaml"), RULES)
    assert all(w in str(caught.value) for w in words), caught.value


def test_a_spell_row_with_a_bad_key_or_total_is_refused() -> None:
    data = table("spell-fireball")
    data["rows"][1]["data"]["total_cost"] = "two"
    refused(DataFileError, lambda: spell_from_table(validate_table(data, "s.yaml"), RULES), "total_cost", "0 to 11")
    data = table("spell-fireball")
    data["rows"][1]["key"] = "two"
    refused(DataFileError, lambda: spell_from_table(validate_table(data, "s.yaml"), RULES), "key", "SL1 to SL6")
    data = table("spell-fireball")
    data["rows"][1]["data"]["components"] = "lots"
    refused(DataFileError, lambda: spell_from_table(validate_table(data, "s.yaml"), RULES), "components", "list")


@pytest.mark.parametrize(("where", "value", "words"), [
    ("cost", "abc", ("data.cost", "0 to 11")), ("budget", "one", ("data.budget", "0 to 11")),
    ("tier", "mythic", ("data.tier", "common, uncommon, rare, epic")), ("cursed", "maybe", ("data.cursed", "true")),
])
def test_an_item_row_with_a_bad_field_is_refused_naming_it(where: str, value: Any, words: tuple[str, ...]) -> None:
    data = table("item-mjolnir")
    row = next(r for r in data["rows"] if (r["key"] == "item") == (where != "cost"))
    row.setdefault("data", {})[where] = value
    refused(DataFileError, lambda: item_from_table(validate_table(data, "m.yaml"), RULES), *words)


def test_a_billion_laughs_in_a_data_field_is_refused_cheaply(tmp_path: Path) -> None:
    """An aliased bomb in a spell's `data` (9^10 strings as YAML aliases, ~1 GB expanded): refused while
    reading the file, or, given as Python values sharing their lists, while counting them."""
    data = table("spell-fireball")
    data.update(id="house:spell-laughs", name="spell-laughs")
    data["rows"][0]["data"]["laughs"] = bomb(9)
    path = tmp_path / "laughs.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    assert path.stat().st_size < 20_000 and "*id" in path.read_text(encoding="utf-8")
    with counted() as work:
        refused(DataFileError, lambda: load_ruleset(table_files=[path]), str(path), "values")
    assert work.bytes == path.stat().st_size
    refused(DataFileError, lambda: validate_table(data, "laughs.yaml"), f"{MAX_TABLE_VALUES:,} values")
    data["rows"][0]["data"]["laughs"] = bomb(9, Walked)     # the same, counting the values walked: the limit's
    Walked.values = 0
    refused(DataFileError, lambda: validate_table(data, "laughs.yaml"), f"{MAX_TABLE_VALUES:,} values")
    assert 0 < Walked.values <= MAX_TABLE_VALUES            # worth, of the 9^10 there are
    item = table("item-mjolnir")
    item["rows"][0]["data"]["laughs"] = bomb(9)
    refused(DataFileError, lambda: validate_table(item, "laughs.yaml"), "values")


def test_check_shape_counts_shared_values_each_time_and_names_where() -> None:
    with pytest.raises(ValueError, match="more than 100 values"):
        check_shape({"a": bomb(2)}, max_values=100)
    with pytest.raises(ValueError, match=r"field a\.b: an integer beyond"):
        check_shape({"a": {"b": 10**30}})
    with pytest.raises(ValueError, match=r"field x\.0: a bytes"):
        check_shape({"x": [b"\x00"]})
    deep: Any = 1
    for _ in range(100):
        deep = [deep]
    with pytest.raises(ValueError, match="nested more than 32"):
        check_shape({"deep": deep})
    check_shape(table("crit-fighter"))   # a real table passes


# -- builders ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", [" ", "", "!!!", "x" * 81])
def test_spell_new_refuses_a_blank_name(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    refused(SpellBuilderError, lambda: propose(name, "ranged", "damage", RULES), "name", "1 to 80 characters")
    if name:   # an empty --name means "roll one"
        # the command rolls its spell (a handful of dice), then refuses the name
        assert "name" in cli(capsys, "spell", "new", "--name", name, "--seed", "1", faces=10)


def test_the_builders_refuse_wrong_values_naming_the_allowed_ones() -> None:
    refused(SpellBuilderError, lambda: propose("Ember", "psychic", "damage", RULES), "kind", "effect, ranged, melee")
    refused(SpellBuilderError, lambda: propose("Ember", "ranged", "teleport", RULES), "base effect", "damage")
    refused(ItemError, lambda: propose_item(" ", "weapon", "rare", "melee", RULES), "name")
    refused(ItemError, lambda: propose_item("Brand", "weapon", "rare", "huge", RULES), "kind", "effect, ranged")
    refused(UnknownNameError, lambda: propose_item("Brand", "weapon", "mythic", "melee", RULES), "mythic",
            "common, uncommon, rare, epic")
    assert propose_item("Mjölnir II", "hammer", "rare", "melee", RULES)["id"] == "house:item-mjolnir-ii"
    assert propose("Ëmber Bolt", "ranged", "damage", RULES)["name"] == "spell-ember-bolt"
    refused(UnknownNameError, lambda: get_item(RULES, 3), "magic item")  # type: ignore[arg-type]


# -- rule options: ranges, and NAME=VALUE read by the declared type -----------------------------------------
def test_every_int_option_has_a_range_its_default_is_in() -> None:
    for name, spec in option_specs().items():
        if spec.type == "int":
            lo, hi = spec.int_range()
            assert lo <= spec.default <= hi, name
    assert set(INT_RANGES) <= {n for n, s in option_specs().items() if s.type == "int"}


@pytest.mark.parametrize("name", sorted(INT_RANGES))
def test_an_int_option_outside_its_range_is_refused_naming_the_range(name: str) -> None:
    lo, hi = INT_RANGES[name]
    for bad in (lo - 1, hi + 1, 10**18):
        refused(RuleOptionError, lambda: RULES.with_options({name: bad}), name, f"from {lo} to {hi}")  # noqa: B023
        refused(RuleOptionError, lambda: parse_override(f"{name}={bad}"), name, f"from {lo} to {hi}")  # noqa: B023
    assert RULES.with_options({name: lo})[name] == lo and parse_override(f"{name}={hi}") == (name, hi)


def test_a_negative_round_in_a_profile_is_refused(tmp_path: Path) -> None:
    """Time cannot run backwards: round_seconds is 1 to 3600, exploration_turn_minutes 1 to 1440."""
    path = tmp_path / "backwards.yaml"
    path.write_text("name: backwards\nextends: middle-sea\noptions: {round_seconds: -60}\n", encoding="utf-8")
    error = refused(DataFileError, lambda: load_ruleset(str(path)), str(path), "round_seconds", "from 1 to 3600")
    assert isinstance(error, DataFileError) and error.row == "round_seconds"
    refused(RuleOptionError, lambda: load_ruleset(overrides={"exploration_turn_minutes": 0}),
            "exploration_turn_minutes", "from 1 to 1440")


@pytest.mark.parametrize(("text", "kind", "words"), [
    ("injury_table=NOPE", RuleOptionError, ("injury_table", "'NOPE'", "F-TAB-37a", "F-TAB-37b")),
    ("enemy_morale=[", RuleOptionError, ("enemy_morale", "'['", "true or false")),
    ("enemy_morale={a: [1, 2]}", RuleOptionError, ("enemy_morale", "true or false")),
    ("death_model=zombie", RuleOptionError, ("death_model", "furnace, hazards, middle-sea")),
    ("ability_13_modifier=2", RuleOptionError, ("ability_13_modifier", "one of 1, 0")),
    ("round_seconds=six", RuleOptionError, ("round_seconds", "from 1 to 3600")),
    ("round_seconds=-6", RuleOptionError, ("round_seconds", "from 1 to 3600")),
    ("luck_die_size=1001d6", RuleOptionError, ("luck_die_size", "1,000 dice", "1000 dice")),
    ("luck_die_size=", RuleOptionError, ("luck_die_size", "dice expression")),
    ("save_category_table=" + "x" * 300, RuleOptionError, ("save_category_table", "text of at most 200")),
    ("save_category_table=" + "x" * 500, RuleOptionError, ("at most 400 characters",)),
    ("item_save_table=a\x00b", RuleOptionError, ("item_save_table", "text of at most 200")),
    ("enemy_moral=true", UnknownOptionError, ("enemy_moral", "did you mean enemy_morale")),
    ("zzzz=1", UnknownOptionError, ("zzzz", "the options are", "furnace rules list")),
    ("enemy_morale", RuleOptionError, ("NAME=VALUE", "enemy_morale=true")),
    ("=true", RuleOptionError, ("NAME=VALUE",)),
])
def test_parse_override_refuses_naming_the_option_and_what_it_takes(text: str, kind: type[FurnaceError],
                                                                    words: tuple[str, ...]) -> None:
    refused(kind, lambda: parse_override(text), *words)


@pytest.mark.parametrize(("text", "expected"), [
    ("enemy_morale=true", ("enemy_morale", True)), ("enemy-morale = off", ("enemy_morale", False)),
    ("ENEMY_MORALE=Yes", ("enemy_morale", True)), ("ability_13_modifier=0", ("ability_13_modifier", 0)),
    ("injury_table=f-tab-37a", ("injury_table", "F-TAB-37a")), ("injury_table=injuries", ("injury_table", "F-TAB-37b")),
    ("luck_die_size=d8", ("luck_die_size", "d8")), ("round_seconds=60", ("round_seconds", 60)),
    ("save_vs_fear=wis", ("save_vs_fear", "WIS")), ("death_model=middle-sea", ("death_model", "middle-sea")),
])
def test_parse_override_reads_each_declared_type(text: str, expected: tuple[str, Any]) -> None:
    assert parse_override(text) == expected


def test_parse_overrides_refuses_wrong_types() -> None:
    refused(RuleOptionError, lambda: parse_overrides("enemy_morale=true"), "a list of NAME=VALUE")
    refused(RuleOptionError, lambda: parse_override(42), "text NAME=VALUE, not int")
    assert parse_overrides(["enemy_morale=true", "enemy_morale=false"]) == {"enemy_morale": False}


@pytest.mark.rule("F-TAB-37a", "F-TAB-37b")
def test_load_rules_reads_option_overrides_by_type(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The CLI's --option goes through parse_override: a table a profile adds is a table in force."""
    assert load_rules("middle-sea", ["enemy_morale=yes"])["enemy_morale"] is True
    refused(RuleOptionError, lambda: load_rules("furnace", ["injury_table=NOPE"]), "injury_table", "F-TAB-37a")
    grim = table("injuries")
    grim.update(id="house:grim", name="grim", aliases=[])
    (tmp_path / "grim.yaml").write_text(yaml.safe_dump(grim), encoding="utf-8")
    profile = tmp_path / "grim-profile.yaml"
    profile.write_text("name: grim\nextends: furnace\ntables: [grim.yaml]\n", encoding="utf-8")
    assert load_rules(str(profile), ["injury_table=grim"])["injury_table"] == "house:grim"
    fight = str(ROOT / "examples" / "party-vs-ogre.yaml")
    for option, word in (("enemy_morale=[", "true or false"), ("injury_table=NOPE", "F-TAB-37b")):
        assert word in cli(capsys, "fight", fight, "--seed", "1", "--option", option)


# -- load_ruleset and the table registry: wrong types and values ------------------------------------------------
def test_load_ruleset_refuses_wrong_types(tmp_path: Path) -> None:
    refused(RuleOptionError, lambda: load_ruleset("furnace", [("enemy_morale", True)]),  # type: ignore[arg-type]
            "overrides", "mapping")
    refused(RuleOptionError, lambda: load_ruleset(3), "profile", "furnace, hazards, middle-sea")  # type: ignore[arg-type]
    refused(RuleOptionError, lambda: load_ruleset(table_files="grim.yaml"), "table_files")
    refused(UnknownNameError, lambda: load_ruleset("no\x00such"), "profile", "furnace")
    refused(UnknownNameError, lambda: load_ruleset(str(tmp_path)), "profile", "hazards")
    refused(UnknownOptionError, lambda: RULES[["death_model"]], "rule option")  # type: ignore[index]
    refused(RuleOptionError, lambda: RULES.with_options([("death_model", "hazards")]),  # type: ignore[arg-type]
            "mapping")


def test_a_profile_that_extends_in_a_loop_is_refused_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "loop.yaml"
    path.write_text("name: furnace\nextends: hazards\n", encoding="utf-8")
    refused(DataFileError, lambda: load_ruleset(str(path)), str(path), "extends", "loop", "furnace → hazards")
    path.write_text("name: mine\nextends: greyhawk\n", encoding="utf-8")
    refused(DataFileError, lambda: load_ruleset(str(path)), "extends", "greyhawk", "furnace, hazards, middle-sea")
    path.write_text("name: [1, 2]\n", encoding="utf-8")
    refused(DataFileError, lambda: load_ruleset(str(path)), "name")


def test_a_table_row_no_roll_can_reach_is_refused() -> None:
    data = table("injuries")
    data["rows"].append({"min": 21, "max": 25, "text": "never"})
    error = refused(DataFileError, lambda: validate_table(data, "inj.yaml"), "21–25", "1 to 20")
    assert isinstance(error, DataFileError) and error.row == len(data["rows"])
    data = table("injuries")
    data["rows"][-1]["max"] = 10**12
    refused(DataFileError, lambda: validate_table(data, "inj.yaml"), "max", "10000000")


@pytest.mark.parametrize(("data", "words"), [
    ([1, 2, 3], ("a table file holds one mapping",)),
    ({"id": "house:x", "name": "x", "title": "x", "source": "x", "kind": "range", "roll": "d6", "rows": "many"},
     ("rows",)),
    ({"id": "house:x", "name": "x", "title": "x", "source": "x", "kind": "keyed",
      "rows": [{"key": "a", "text": "x", "effects": 7}]}, ("effects", "list")),
    ({"id": "house:x", "name": "x", "title": "x", "source": "x", "kind": "keyed",
      "rows": [{"key": "a", "text": "x", "data": {"blob": b"\x00\xff"}}]}, ("data.blob", "bytes")),
])
def test_validate_table_refuses_wrong_types_naming_the_field(data: Any, words: tuple[str, ...]) -> None:
    refused(DataFileError, lambda: validate_table(data, "x.yaml"), *words)


def test_table_lookups_refuse_wrong_types() -> None:
    tables = TableSet.packaged()
    refused(FurnaceError, lambda: tables.get("injuries").lookup("abc"), "injuries", "whole number")
    refused(FurnaceError, lambda: tables.get("injuries").lookup([1]), "whole number")  # type: ignore[arg-type]
    refused(UnknownNameError, lambda: tables.get(5), "table")  # type: ignore[arg-type]
    refused(FurnaceError, lambda: tables.load_files("grim.yaml"), "list of table files")
    refused(FurnaceError, lambda: tables.load_files([3]), "path, not int")  # type: ignore[list-item]


# -- the clock: bounded before the loop ---------------------------------------------------------------------------
def test_a_clock_entry_repeating_every_minus_1_is_refused() -> None:
    data = {"clock": {"now": 0, "entries": [{"id": 1, "kind": "timer", "at": 10, "every": -1}], "next_id": 2}}
    refused(DataFileError, lambda: campaign_from_data(data, "state.json"), "clock.entries.0.every",
            "greater than or equal to 1")
    refused(ClockError, lambda: schedule(Campaign(), "timer", every=-1), "every", "from 1 to")
    refused(ClockError, lambda: schedule(Campaign(), "timer", after=-5), "after", "from 0 to")
    refused(ClockError, lambda: schedule(Campaign(), "timer", after=10**30), "after")
    late = {"clock": {"now": 100, "entries": [{"id": 1, "kind": "timer", "at": 5}], "next_id": 2}}
    refused(DataFileError, lambda: campaign_from_data(late, "state.json"), "entries.0.at", "before the clock's time")
    refused(DataFileError, lambda: campaign_from_data([1], "state.json"), "mapping")
    many = {"clock": {"entries": [{"id": i, "kind": "timer", "at": 1} for i in range(1, MAX_ENTRIES + 2)],
                      "next_id": MAX_ENTRIES + 2}}
    refused(DataFileError, lambda: campaign_from_data(many, "state.json"), "clock.entries", "1000")


def test_an_advance_that_would_fire_too_often_is_refused_before_anything_fires() -> None:
    """Every second for a year is 31 million firings: refused from the entry's period, before any die."""
    campaign, entry = schedule(Campaign(), "timer", every=1, label="drip")
    refused(ClockError, lambda: advance(campaign, 1, "year", dice.ScriptedDice([]), RULES), "31,536,001",
            f"{MAX_FIRINGS:,}", f"#{entry} 'drip'", "every 1 seconds", "smaller steps")
    refused(ClockError, lambda: advance(campaign, 201, "year", dice.ScriptedDice([]), RULES), "200 years")
    refused(ClockError, lambda: advance(campaign, 1, 7, dice.ScriptedDice([]), RULES), "unit")  # type: ignore[arg-type]
    refused(ClockError, lambda: advance(campaign, 1.5, "day", dice.ScriptedDice([]), RULES),  # type: ignore[arg-type]
            "amount", "whole number")
    after, events = advance(campaign, 1, "hour", dice.ScriptedDice([]), RULES)
    assert len(events) == 3601 and after.clock.now == 3600


def test_a_disease_of_a_1_second_interval_over_100_years_is_refused(tmp_path: Path) -> None:
    plague = {"name": "Plague", "incubation": "1 day", "interval": "1 second", "infection": "100 years",
              "effect": {"ability": "CON"}}
    refused(DataFileError, lambda: from_data(plague, "plague.yaml"), "plague.yaml", "field interval",
            "3,153,600,000 saves", f"at most {MAX_SAVES:,}")
    path = tmp_path / "plague.yaml"
    path.write_text(yaml.safe_dump(plague), encoding="utf-8")
    refused(DataFileError, lambda: load_disease(path), str(path), "interval", "1,000")
    refused(DataFileError, lambda: from_data({**plague, "infection": "1000 years", "interval": "1 year"}, "p"),
            "infection_time", "100 years")
    refused(DataFileError, lambda: from_data({**plague, "interval": "99999999999 seconds"}, "p"), "interval")
    disease = Disease.model_validate(plague)      # built by hand, past from_data: still refused before scheduling
    ada = Character.from_dict(character("hob"))
    refused(DiseaseError, lambda: infect(Campaign(characters={ada.name: ada}), ada.name, disease, HAZARDS),
            "interval", "at most 1,000")
    refused(DiseaseError, lambda: disease.save_times(HAZARDS), "saves")


def test_a_disease_entry_whose_data_is_broken_is_refused_when_it_falls_due() -> None:
    hob = Character.from_dict(character("hob"))
    campaign, _ = schedule(Campaign(characters={hob.name: hob}), "disease_save", after=60, owner=hob.name,
                           data={"disease": {"name": 3}, "saves": "x"})
    refused(ClockError, lambda: advance(campaign, 1, "hour", dice.seeded(1), HAZARDS), "data.disease", firings=1)


def test_the_clock_times_stay_in_range_after_a_long_campaign() -> None:
    campaign, _ = schedule(Campaign(), "timer", after=DAY)
    later, _ = advance(campaign, 200, "year", dice.seeded(1), RULES)
    refused(ClockError, lambda: advance(later, 10**6, "year", dice.seeded(1), RULES), "200 years")
    refused(ClockError, lambda: advance(later, 10**30, "year", dice.seeded(1), RULES), "amount")


# -- choices from their lists -----------------------------------------------------------------------------------
def test_promote_refuses_a_skill_save_class_or_archetype_not_on_the_lists(capsys: pytest.CaptureFixture[str],
                                                                            tmp_path: Path) -> None:
    hob = Character.from_dict(character("agna"))
    rng = dice.seeded(1)
    refused(CharacterError, lambda: promote(hob, "Fighter", "Barbarian", rng, RULES, skills=["Juggling"]),
            "skills", "'Juggling'", "Acrobatics", "Survival")
    refused(CharacterError, lambda: promote(hob, "Fighter", "Barbarian", rng, RULES,
                                            extra_save="LUCK"),  # type: ignore[arg-type]
            "saves", "'LUCK'", "STR, DEX, CON, INT, WIS, CHA")
    refused(CharacterError, lambda: promote(hob, "Bard", "Barbarian", rng, RULES), "class", "Fighter, Cleric")
    refused(CharacterError, lambda: promote(hob, "Fighter", "Gladiator", rng, RULES), "archetype", "'Gladiator'",
            "Barbarian, Bloodshaman, Arcane Trickster, Wizard")
    path = tmp_path / "agna.json"
    path.write_text(json.dumps(character("agna")), encoding="utf-8")
    err = cli(capsys, "character", "promote", str(path), "--class", "Fighter", "--archetype", "Barbarian",
              "--skill", "Juggling", "--no-write")
    assert "Juggling" in err and "Acrobatics" in err
    err = cli(capsys, "character", "promote", str(path), "--class", "Fighter", "--archetype", "Barbarian",
              "--save", "luck", "--no-write")
    assert "LUCK" in err and "STR, DEX" in err


@pytest.mark.parametrize(("field", "value", "words"), [
    ("skills", ["Juggling"], ("skills", "Juggling", "Acrobatics")),
    ("expertise", ["Knitting"], ("expertise", "Knitting", "Stealth")),
    ("saves", ["LUCK"], ("saves.0", "'STR'")),
    ("char_class", "Bard", ("char_class", "Fighter, Cleric, Rogue, Magic-user")),
    ("conditions", ["SLEEPY"], ("conditions", "SLEEPY", "PRONE")),
])
def test_a_character_file_with_a_choice_off_the_list_is_refused(field: str, value: Any,
                                                               words: tuple[str, ...]) -> None:
    refused(DataFileError, lambda: Character.from_dict({**character(), field: value}), *words)


def test_check_choices_refuses_a_race_or_archetype_not_in_force() -> None:
    brakka = Character.from_dict(character())
    refused(CharacterError, lambda: check_choices(brakka.model_copy(update={"race": "Martian"}), RULES),
            "race", "Martian", "Human, Dwarf, Elf, Halfling, Half-orc")
    refused(CharacterError, lambda: check_choices(brakka.model_copy(update={"archetype": "Wizard"}), RULES),
            "Wizard", "Magic-user", "not the Fighter")
    refused(CharacterError, lambda: level_up(brakka.model_copy(update={"skills": ["Juggling"]}), dice.seeded(1),
                                             RULES, ability="STR"), "Juggling", *SKILLS[:3])
    refused(CharacterError, lambda: level_up(brakka, dice.seeded(1), RULES, ability="LUCK"),  # type: ignore[arg-type]
            "ability", "STR, DEX")
    check_choices(brakka, RULES)


def test_a_referee_class_table_with_a_bad_number_is_refused_naming_it(tmp_path: Path) -> None:
    classes = table("classes")
    fighter = next(r for r in classes["rows"] if r["key"] == "Fighter")
    fighter["data"]["hp_after_5"] = "lots"
    path = tmp_path / "classes.yaml"
    path.write_text(yaml.safe_dump(classes), encoding="utf-8")
    # refused when the table is loaded, before any character levels up: the column the rules read is checked
    # against the packaged table's (tables.check_columns)
    refused(DataFileError, lambda: load_ruleset(table_files=[path]), str(path), "data.hp_after_5", "whole number")
