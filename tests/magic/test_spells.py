"""Spells as data (`furnace.magic.spells`) and the spell builder (`furnace.magic.spellbuilder`).

RULES.md F-SPELL-01 (hidden details; the builder names spells, EXT-06), F-SPELL-05 (Spell Die kinds, F-TAB-12),
F-SPELL-06 (the 1/2/4/7/11 budget per SL, checked on every spell file), F-SPELL-07 (no modifier on Spell Dice),
F-SPELL-08 (a crit's +2 dice go to the damage), F-SPELL-11 (a spell's own mishap table), F-SPELL-12 (the shipped
spells F-TAB-13..17 cast at every SL they have), F-SPELL-13 (no balance check beyond the budget).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from furnace.dice import ScriptedDice
from furnace.errors import DataFileError, UnknownNameError
from furnace.magic.spellbuilder import build, propose, random_name, to_yaml
from furnace.magic.spellcheck import Spellcheck, dice_for_sl, spellcheck
from furnace.magic.spells import SPELL_DIE, Cast, all_spells, cast, get_spell
from furnace.rules.effects import Effect
from furnace.rules.ruleset import load_ruleset

RULES = load_ruleset()
BAND_LOW = {1: 12, 2: 16, 3: 21, 4: 27, 5: 32, 6: 36}   # F-TAB-11: the lowest total of each SL
SHIPPED = {"Fireball": "F-TAB-13", "Chill Touch": "F-TAB-14", "Animate Dead": "F-TAB-15",
           "Ember Swarm": "F-TAB-16", "Flame Shield": "F-TAB-17"}


def check_for(sl: int, *, face: int = 10, prof: int = 2) -> Spellcheck:
    """A successful SPELLCHECK at the lowest total of `sl` (ROOM DC 12): the d20 is scripted."""
    dice = ScriptedDice([face])
    check = spellcheck(dice, BAND_LOW[sl] - face - prof, prof, 12, RULES)
    assert dice.remaining == 0 and check.success and check.sl == sl
    return check


def summary(e: Effect) -> str:
    """One short line per effect, so the expected rows read like the seed tables."""
    d = e.model_dump(exclude_defaults=True)
    dur = e.duration if hasattr(e, "duration") else None  # type: ignore[attr-defined]
    tail = f" for {dur.amount} {dur.unit}" if dur is not None else ""
    if e.kind == "damage":
        who = f" {d['target']}" if "target" in d else ""
        every = f" every {d['every']}" if "every" in d else ""
        return f"damage {d['dice']} {d.get('type', '')}{who}{every}{tail}".replace("  ", " ")
    if e.kind == "area":
        return f"area {d['zone']}"
    if e.kind == "condition":
        return f"{d['name']}{tail}"
    if e.kind == "summon":
        return f"summon {d.get('count', '1')} {d['creature']}{tail}"
    if e.kind == "modifier":
        full = e.model_dump()
        return f"{full['applies_to']} {full['mode']} {full['target']}{tail}"
    return "referee" if e.kind == "referee_prompt" else e.kind


# The rows the seed tabulates (F-TAB-13..17), one line per effect.
EXPECTED: dict[tuple[str, int], list[str]] = {
    ("Fireball", 1): ["damage 1d6 fire"],
    ("Fireball", 2): ["damage 1d6 fire", "area CLOSE"],
    ("Fireball", 3): ["damage 3d6 fire", "area CLOSE"],
    ("Fireball", 4): ["damage 5d6 fire", "area NEAR"],
    ("Fireball", 5): ["damage 7d6 fire", "area NEAR", "PRONE for 1d4 round"],
    ("Fireball", 6): ["referee", "damage 12d6 fire", "area NEAR", "FRIGHTENED"],
    ("Chill Touch", 1): ["damage 1d8 cold"],
    ("Chill Touch", 2): ["damage 1d8 cold", "CANT_BE_HEALED for 1 round"],
    ("Chill Touch", 3): ["damage 2d8 cold", "CANT_BE_HEALED for 1d4 round"],
    ("Chill Touch", 4): ["damage 3d8 cold", "CANT_BE_HEALED for 1d4 round", "PARALYSED for 1 round"],
    ("Chill Touch", 5): ["damage 6d8 cold", "CANT_BE_HEALED for 1d4 round", "PARALYSED for 1d4 round"],
    ("Chill Touch", 6): ["referee", "damage 10d8 cold", "CANT_BE_HEALED for 1 until_cured",
                         "PARALYSED for 1 until_cured"],
    ("Animate Dead", 1): ["nothing"],
    ("Animate Dead", 2): ["summon 1 zombie for 1d4 round"],
    ("Animate Dead", 3): ["summon 1d4 zombie for 2d4 round"],
    ("Animate Dead", 4): ["summon NEAR_DEAD zombie for 2d4 round"],
    ("Animate Dead", 5): ["summon NEAR_DEAD revenant for 2d4 round"],
    ("Animate Dead", 6): ["referee", "summon BATTLEFIELD_DEAD revenant for 1 permanent"],
    ("Ember Swarm", 1): ["damage 1d4 fire every round for 1 round"],
    ("Ember Swarm", 2): ["damage 1d4 fire every round for 1d4 round"],
    ("Ember Swarm", 3): ["damage 2d4 fire every round for 2d4 round"],
    ("Ember Swarm", 4): ["damage 2d4 fire every round for 2d4 round", "atk HARD target for 2d4 round"],
    ("Ember Swarm", 5): ["damage 4d4 fire every round for 2d4 round", "atk HARD target for 2d4 round",
                         "atk HARD all_close_to_target for 2d4 round"],
    ("Ember Swarm", 6): ["referee", "damage 8d4 fire every round", "atk HARD target"],
    ("Flame Shield", 3): ["damage 2d8 fire attacker for 1d4 round"],
}


# -- F-SPELL-12: the shipped spells load ----------------------------------------------------------------------
def test_F_SPELL_12_all_five_shipped_spells_load() -> None:
    """F-SPELL-12: Fireball, Chill Touch, Animate Dead, Ember Swarm and Flame Shield load from F-TAB-13..17 and
    pass the budget check; Flame Shield is given only at SL3."""
    spells = {s.name: s for s in all_spells(RULES)}
    assert {n: s.table.id for n, s in spells.items()} == SHIPPED
    assert sorted(spells["Flame Shield"].levels) == [3]
    for name in ("Fireball", "Chill Touch", "Animate Dead", "Ember Swarm"):
        assert sorted(spells[name].levels) == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize(("name", "kind", "die"), [
    ("Fireball", "ranged", "d6"), ("Chill Touch", "melee", "d8"), ("Animate Dead", "effect", "d4"),
    ("Ember Swarm", "effect", "d4"), ("Flame Shield", "effect", "d4")])
def test_F_SPELL_05_spell_die_by_kind(name: str, kind: str, die: str) -> None:
    """F-SPELL-05, F-TAB-12: effect/duration d4, ranged damage d6, melee damage d8."""
    spell = get_spell(RULES, name)
    assert (spell.kind, spell.die) == (kind, die)
    assert SPELL_DIE == {"effect": "d4", "ranged": "d6", "melee": "d8"}


@pytest.mark.parametrize("wanted", ["Fireball", "fireball", "spell-fireball", "F-TAB-13", "FIREBALL"])
def test_F_SPELL_12_get_spell_by_name_short_name_or_id(wanted: str) -> None:
    """F-SPELL-12: a spell is found by its name, short name or table id, in any case."""
    assert get_spell(RULES, wanted).name == "Fireball"


def test_get_spell_unknown_names_the_known_spells() -> None:
    with pytest.raises(UnknownNameError) as err:
        get_spell(RULES, "Magic Missile")
    assert "Fireball" in str(err.value)


@pytest.mark.parametrize(("name", "sl"), sorted(EXPECTED))
def test_F_SPELL_05_06_12_cast_every_shipped_spell_at_every_sl(name: str, sl: int) -> None:
    """F-SPELL-05/06/12: a SPELLCHECK landing in each SL band buys that SL's row of the seed table (F-TAB-13..17),
    with exactly its effects; each row below the WONDER spends the SL's budget 1/2/4/7/11 (Animate Dead SL1 is
    still a failure, spending 0)."""
    spell = get_spell(RULES, name)
    done = cast(spell, check_for(sl))
    assert done.row is not None and int(str(done.row.key)) == sl
    assert [summary(e) for e in done.effects] == EXPECTED[(name, sl)]
    cost = sum(int(c.get("cost") or 0) for c in done.row.data.get("components", []))
    if sl == 6:
        assert done.check.spell_dice is None and done.row.data.get("wonder") is True
    elif (name, sl) == ("Animate Dead", 1):
        assert cost == 0 and done.row.data.get("failure") is True
    else:
        assert cost == done.row.data["total_cost"] == dice_for_sl(sl, RULES) == done.check.spell_dice


def test_F_SPELL_12_fireball_sl3_and_sl5() -> None:
    """F-SPELL-12 (F-TAB-13): Fireball SL3 = 3d6 fire to the target and everyone CLOSE (3 + 1 = 4 dice); SL5 =
    7d6 + NEAR + PRONE for 1d4 rounds (7 + 2 + 1 + 1 = 11 dice)."""
    fb = get_spell(RULES, "Fireball")
    sl3 = cast(fb, check_for(3))
    assert [summary(e) for e in sl3.effects] == ["damage 3d6 fire", "area CLOSE"]
    assert [c["cost"] for c in sl3.row.data["components"]] == [3, 1]   # type: ignore[union-attr]
    sl5 = cast(fb, check_for(5))
    assert [c["cost"] for c in sl5.row.data["components"]] == [7, 2, 1, 1]   # type: ignore[union-attr]
    assert "PRONE for 1d4 round" in [summary(e) for e in sl5.effects]


def test_F_SPELL_05_12_chill_touch_paralysis_costs_two_dice() -> None:
    """F-SPELL-05, F-SPELL-12 (F-TAB-14): Chill Touch SL4 = 3d8 cold (3) + can't be healed (1) for 1d4 rounds (1)
    + PARALYSED (2, a major effect) for 1 round (free) = 7 dice."""
    row = cast(get_spell(RULES, "Chill Touch"), check_for(4)).row
    assert row is not None
    assert [(c["text"], c["cost"]) for c in row.data["components"]] == [
        ("3d8 cold DAM", 3), ("can't be healed", 1), ("for 1d4 rounds", 1), ("PARALYSED", 2), ("for 1 round", 0)]


def test_F_SPELL_12_animate_dead_sl1_is_still_a_failure() -> None:
    """F-SPELL-12: Animate Dead's base effect costs 2 dice, so SL1 (1 die) raises nothing."""
    done = cast(get_spell(RULES, "Animate Dead"), check_for(1))
    assert done.check.success   # the SPELLCHECK itself succeeded …
    assert [e.kind for e in done.effects] == ["nothing"] and "failure" in done.row.text.lower()  # type: ignore


def test_F_SPELL_06_flame_shield_at_sl3_spends_4_dice() -> None:
    """F-SPELL-06 (worked example): Flame Shield at SL3 = 1d4 AC (1) + for 1d4 rounds (1) + 2d8 fire DAM to the
    attacker (2) = 4 dice."""
    row = cast(get_spell(RULES, "Flame Shield"), check_for(3)).row
    assert row is not None and row.data["total_cost"] == 4
    assert [c["cost"] for c in row.data["components"]] == [1, 1, 2]
    assert row.data["ac_bonus"] == "1d4"


@pytest.mark.parametrize("sl", [1, 2, 4, 5])
def test_F_SPELL_06_flame_shield_other_sls_are_left_to_the_referee(sl: int) -> None:
    """F-SPELL-06, F-SPELL-12: Flame Shield is given only at SL3; another SL asks the referee to write the row."""
    done = cast(get_spell(RULES, "Flame Shield"), check_for(sl))
    assert done.row is None and [e.kind for e in done.effects] == ["referee_prompt"]
    assert f"SL{sl}" in done.effects[0].prompt   # type: ignore[attr-defined]


def test_F_SPELL_05_failure_buys_nothing() -> None:
    """F-SPELL-04/05: a failed SPELLCHECK has no row and no effects."""
    failed = spellcheck(ScriptedDice([5]), 0, 2, 12, RULES)
    done = cast(get_spell(RULES, "Fireball"), failed)
    assert done.row is None and done.effects == ()


# -- F-SPELL-06: the budget check on spell files --------------------------------------------------------------
def spell_file(tmp_path: Path, rows: list[dict[str, Any]], name: str = "Test Bolt", kind: str = "ranged",
               **data: Any) -> Path:
    slug = name.lower().replace(" ", "-")
    table = {"id": f"house:spell-{slug}", "name": f"spell-{slug}", "title": f"{name} ({kind} spell)",
             "source": "test", "kind": "keyed", "key_name": "sl",
             "data": {"spell": name, "spell_kind": kind, **data}, "rows": rows}
    path = tmp_path / f"{slug}.yaml"
    path.write_text(yaml.safe_dump(table, sort_keys=False), encoding="utf-8")
    return path


def row(sl: int, *costs: int, text: str = "fire") -> dict[str, Any]:
    return {"key": sl, "text": text, "effects": [{"kind": "damage", "dice": f"{max(1, costs[0])}d6", "type": "fire"}],
            "data": {"components": [{"text": f"part {i}", "cost": c} for i, c in enumerate(costs)],
                     "total_cost": sum(costs)}}


def test_F_SPELL_06_a_spell_file_that_overspends_at_sl3_is_refused(tmp_path: Path) -> None:
    """F-SPELL-06: SL3 buys 4 dice; a row spending 5 (4 + 1) is refused by get_spell, naming SL3 and the count."""
    path = spell_file(tmp_path, [row(1, 1), row(2, 1, 1), row(3, 4, 1)])
    rules = load_ruleset(table_files=[path])
    with pytest.raises(DataFileError) as err:
        get_spell(rules, "Test Bolt")
    message = str(err.value)
    assert "SL3" in message and "5 dice" in message and "buys 4" in message and "overspends" in message
    assert err.value.path == str(path) and err.value.row == 3


def test_F_SPELL_06_a_spell_file_that_underspends_is_refused(tmp_path: Path) -> None:
    """F-SPELL-06: SL4 buys 7 dice; a row spending 5 is refused too ("underspends: 5 dice where SL4 buys 7")."""
    path = spell_file(tmp_path, [row(4, 3, 2)])
    with pytest.raises(DataFileError) as err:
        get_spell(load_ruleset(table_files=[path]), "test-bolt")
    assert "SL4 underspends: 5 dice where SL4 buys 7" in str(err.value)


def test_F_SPELL_06_total_cost_must_match_the_components(tmp_path: Path) -> None:
    """F-SPELL-06: a row whose stated total_cost disagrees with its components is refused."""
    bad = row(2, 1, 1)
    bad["data"]["total_cost"] = 3
    path = spell_file(tmp_path, [bad])
    with pytest.raises(DataFileError, match="SL2: the components cost 2 dice but total_cost says 3"):
        get_spell(load_ruleset(table_files=[path]), "Test Bolt")


def test_F_SPELL_06_a_spell_file_within_budget_loads_and_casts(tmp_path: Path) -> None:
    """F-SPELL-06, F-SPELL-01: a referee's spell that spends exactly 1/2/4/7/11 loads next to the shipped ones."""
    path = spell_file(tmp_path, [row(1, 1), row(2, 2), row(3, 3, 1), row(4, 5, 2), row(5, 9, 2)])
    rules = load_ruleset(table_files=[path])
    spell = get_spell(rules, "Test Bolt")
    assert sorted(spell.levels) == [1, 2, 3, 4, 5] and spell.die == "d6"
    assert len(all_spells(rules)) == 6


def test_F_SPELL_05_a_bad_spell_kind_is_refused(tmp_path: Path) -> None:
    """F-SPELL-05: the kind is effect, ranged or melee (it sets the Spell Die)."""
    path = spell_file(tmp_path, [row(1, 1)], kind="cosmic")
    with pytest.raises(DataFileError, match="spell_kind"):
        get_spell(load_ruleset(table_files=[path]), "Test Bolt")


def test_F_SPELL_13_no_balance_check_beyond_the_budget(tmp_path: Path) -> None:
    """F-SPELL-13: magic is not balanced: an SL1 row that slays outright for 1 die, and an SL5 of 11d6, load, as
    long as each row spends its budget."""
    slay = {"key": 1, "text": "The target dies", "effects": [{"kind": "death"}],
            "data": {"components": [{"text": "death", "cost": 1}], "total_cost": 1}}
    path = spell_file(tmp_path, [slay, row(5, 11)], name="Word Of Ending")
    spell = get_spell(load_ruleset(table_files=[path]), "Word Of Ending")
    assert [e.kind for e in spell.row(1).effect_list()] == ["death"]   # type: ignore[union-attr]
    assert spell.row(5).effect_list()[0].dice == "11d6"   # type: ignore[union-attr]


# -- F-SPELL-07 / F-SPELL-08: what the dice are -------------------------------------------------------------
def test_F_SPELL_07_no_modifier_on_spell_dice() -> None:
    """F-SPELL-07: INT +5 and PROF +3 go into the SPELLCHECK, never into the Spell Dice: Fireball SL3 is plain 3d6."""
    check = spellcheck(ScriptedDice([13]), 5, 3, 12, RULES)
    assert check.total == 21 and check.sl == 3
    damage = cast(get_spell(RULES, "Fireball"), check).effects[0]
    assert damage.kind == "damage" and damage.dice == "3d6"   # type: ignore[attr-defined]


def test_F_SPELL_08_crit_adds_2_spell_dice_to_the_damage() -> None:
    """F-SPELL-08: Fireball on a natural 20 with INT −12, PROF +2: 20 − 12 + 6 = 14 → SL1, 1 + 2 dice; the two
    extra d6 go to the damage: 1d6+2d6."""
    check = spellcheck(ScriptedDice([20]), -12, 2, 12, RULES)
    assert check.crit and check.total == 14 and (check.sl, check.spell_dice) == (1, 3)
    done = cast(get_spell(RULES, "Fireball"), check)
    assert [summary(e) for e in done.effects] == ["damage 1d6+2d6 fire"]
    assert any("F-SPELL-08" in n for n in done.notes)


def test_F_SPELL_08_crit_on_chill_touch_adds_2d8() -> None:
    """F-SPELL-08, F-SPELL-05: Chill Touch is melee, so its crit dice are d8: SL2 on a crit → 1d8+2d8 cold."""
    check = spellcheck(ScriptedDice([20]), -10, 2, 12, RULES)   # 20 − 10 + 6 = 16 → SL2
    done = cast(get_spell(RULES, "Chill Touch"), check)
    assert (check.sl, check.spell_dice) == (2, 4)
    assert summary(done.effects[0]) == "damage 1d8+2d8 cold"


def test_F_SPELL_08_crit_without_plain_damage_goes_to_the_referee() -> None:
    """F-SPELL-08: Animate Dead has no damage to grow: the 2 extra d4 are a referee prompt."""
    check = spellcheck(ScriptedDice([20]), -7, 2, 12, RULES)   # 20 − 7 + 6 = 19 → SL2
    done = cast(get_spell(RULES, "Animate Dead"), check)
    assert [e.kind for e in done.effects] == ["summon", "referee_prompt"]
    assert "2 more d4" in done.effects[-1].prompt   # type: ignore[attr-defined]


def test_F_SPELL_06_a_wonder_asks_the_referee_first() -> None:
    """F-SPELL-06, F-TAB-11: SL6 is a WONDER: its row comes with a referee prompt."""
    done = cast(get_spell(RULES, "Fireball"), check_for(6))
    assert done.effects[0].kind == "referee_prompt" and "WONDER" in done.effects[0].prompt   # type: ignore


def test_cast_to_dict_and_explain() -> None:
    done: Cast = cast(get_spell(RULES, "Fireball"), check_for(2))
    data = done.to_dict()
    assert data["spell"] == "Fireball" and data["sl"] == 2 and data["row"]["key"] == 2
    assert "SL2" in done.explain()


# -- F-SPELL-01 / F-SPELL-11 --------------------------------------------------------------------------------
def test_F_SPELL_01_player_view_hides_the_rows() -> None:
    """F-SPELL-01 (REF-28): the player sees the spell's kind, die and lowest row, not the table above it."""
    view = get_spell(RULES, "Fireball").player_view()
    assert view.startswith("Fireball (ranged spell, d6 Spell Dice)") and "1d6 fire DAM" in view
    for hidden in ("3d6", "5d6", "7d6", "12d6", "PRONE", "NEAR", "WONDER", "SL"):
        assert hidden not in view


def test_F_SPELL_11_fireball_has_its_own_mishap_table_others_use_the_general_one() -> None:
    """F-SPELL-11, F-SPELL-10: Fireball names F-TAB-19 (d6); the other shipped spells have none (→ F-TAB-18, d20)."""
    spells = {s.name: s for s in all_spells(RULES)}
    assert spells["Fireball"].mishap_table == "F-TAB-19"
    assert RULES.tables.get("F-TAB-19").roll == "d6" and RULES.tables.get("mishap").id == "F-TAB-18"
    assert all(s.mishap_table is None for n, s in spells.items() if n != "Fireball")


# -- the spell builder (F-SPELL-01, F-SPELL-06) ----------------------------------------------------------------
def test_F_SPELL_01_random_name_ember_swarm() -> None:
    """F-SPELL-01, F-SPELL-12 (X-TAB-03/04): d6 d6 on each word table; 1,1 + 1,1 → 'Ember' + 'Swarm'."""
    dice = ScriptedDice([1, 1, 1, 1])
    name = random_name(dice, RULES)
    assert dice.remaining == 0
    assert name.name == "Ember Swarm"
    assert name.element["damage_type"] == "fire" and name.form["base_effect"] == "damage"
    assert [r.total for r in name.rolls] == [1, 1, 1, 1]


def test_F_SPELL_01_random_name_reads_tens_and_units() -> None:
    """X-TAB-03/04: 6,6 → 'Sleet'; 2,3 → 'Hound'."""
    assert random_name(ScriptedDice([6, 6, 2, 3]), RULES).name == "Sleet Hound"


@pytest.mark.parametrize("kind", ["effect", "ranged", "melee"])
@pytest.mark.parametrize("base", ["damage", "condition", "protection", "summon", "area", "movement"])
def test_F_SPELL_06_every_proposal_spends_its_budget_exactly(base: str, kind: str) -> None:
    """F-SPELL-06: propose() gives SL1..SL5 rows whose components cost exactly 1/2/4/7/11 (a summon's SL1, whose
    base effect needs 2 dice, is still a failure like Animate Dead) and an SL6 WONDER; build() accepts it."""
    data = propose("Frost Hound", kind, base, RULES, "cold")
    table = build(data, RULES)
    costs = {int(str(r.key)): sum(int(c["cost"] or 0) for c in r.data["components"]) for r in table.rows}
    want = {sl: dice_for_sl(sl, RULES) for sl in range(1, 6)}
    if base == "summon":
        want[1] = 0
        assert table.rows[0].data["failure"] is True
    assert {sl: costs[sl] for sl in range(1, 6)} == want
    assert table.rows[-1].data["wonder"] is True and table.data["spell_die"] == SPELL_DIE[kind]


def test_F_SPELL_01_a_proposal_loads_as_a_spell_file_and_casts(tmp_path: Path) -> None:
    """F-SPELL-01: the YAML of a proposal is a spell file: load_ruleset(table_files=…) accepts it and it casts."""
    path = tmp_path / "frost-lance.yaml"
    path.write_text(to_yaml(propose("Frost Lance", "ranged", "damage", RULES, "cold")), encoding="utf-8")
    spell = get_spell(load_ruleset(table_files=[path]), "Frost Lance")
    done = cast(spell, check_for(3))
    assert [summary(e) for e in done.effects] == ["damage 3d6 cold", "area CLOSE"]


def test_F_SPELL_06_an_edited_proposal_that_overspends_is_refused() -> None:
    """F-SPELL-06: the referee adds a third die of damage to SL2 (now 3 dice where SL2 buys 2): build() refuses."""
    data = propose("Frost Lance", "ranged", "damage", RULES, "cold")
    edited = copy.deepcopy(data)
    sl2 = edited["rows"][1]
    sl2["data"]["components"].append({"text": "1d6 more", "cost": 1})
    sl2["data"]["total_cost"] = 3
    with pytest.raises(DataFileError, match="SL2 overspends: 3 dice where SL2 buys 2"):
        build(edited, RULES)
    build(data, RULES)   # the original is untouched and still good


def test_F_SPELL_01_a_built_spell_named_like_a_shipped_one_still_loads(tmp_path: Path) -> None:
    """F-SPELL-01: `spell new` rolls names from X-TAB-03/04; the roll 1,1,1,1 names 'Ember Swarm', as F-TAB-16.
    The proposal it writes should load as a table file next to the shipped spells."""
    name = random_name(ScriptedDice([1, 1, 1, 1]), RULES).name
    path = tmp_path / "ember.yaml"
    path.write_text(to_yaml(propose(name, "ranged", "damage", RULES, "fire")), encoding="utf-8")
    rules = load_ruleset(table_files=[path])
    assert any(s.table.id == "house:spell-ember-swarm" for s in all_spells(rules))
