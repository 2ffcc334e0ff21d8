"""The magic commands of the CLI (`furnace.cli.magic`), run in-process: spellcheck, spell list/show/cast/new,
item show/list; --json shapes and exit codes.

RULES.md F-SPELL-01 (the player view; the spell builder), F-SPELL-02..08 (SPELLCHECK, SL, Spell Dice, the crit),
F-SPELL-10/11 (Fireball's own mishap table), F-SPELL-12 (the shipped spells), F-MU-03 (INT), F-MAGIC-01/03
(Mjölnir's 5 dice).

Seeds: `--seed N` makes the first d20 show a known face (seed 6 → 16, seed 2 → 20, seed 24 → 15, seed 31 → 1).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from furnace.cli.app import main
from furnace.magic.spellcheck import success_level
from furnace.magic.spells import get_spell
from furnace.rules.ruleset import load_ruleset

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
MAELIS = str(EXAMPLES / "characters" / "maelis.json")
RULES = load_ruleset()


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


SPELLCHECK = ("spellcheck", "--mod", "3", "--prof", "2", "--dc", "14", "--spell", "Fireball")


@pytest.mark.rule("F-SPELL-02")
def test_F_SPELL_02_06_spellcheck_json_with_a_spell(capsys: pytest.CaptureFixture[str]) -> None:
    """F-SPELL-02/03/06: d20 face 16 + INT 3 + PROF 2 = 21 ≥ ROOM DC 14 → SL3, 4 Spell Dice: Fireball's SL3 row
    (3d6 fire, CLOSE)."""
    code, out, _ = run(capsys, *SPELLCHECK, "--seed", "6", "--json")
    data = json.loads(out)
    assert code == 0
    assert set(data) == {"spell", "check", "sl", "row", "effects", "notes", "effect_rolls"}
    check = data["check"]
    got = (check["natural"], check["total"], check["sl"], check["spell_dice"], check["success"])
    assert got == (16, 21, 3, 4, True)
    assert [(r["expression"], r["total"]) for r in data["effect_rolls"]] == [("3d6", 10)]   # the row's 3d6 rolled
    assert check["dc"]["value"] == 14 and check["roll"]["variables"] == {"INT": 3, "PROF": 2}
    assert data["spell"] == "Fireball" and data["sl"] == 3 and data["row"]["key"] == 3
    assert [e["kind"] for e in data["effects"]] == ["damage", "area"] and data["effects"][0]["dice"] == "3d6"


@pytest.mark.rule("F-SPELL-08")
def test_F_SPELL_08_spellcheck_json_natural_20(capsys: pytest.CaptureFixture[str]) -> None:
    """F-SPELL-08: natural 20 + 3 + 3 × 2 = 29 → SL4 and 7 + 2 = 9 Spell Dice; the crit's 2d6 go to the damage."""
    code, out, _ = run(capsys, *SPELLCHECK, "--seed", "2", "--json")
    data = json.loads(out)
    assert code == 0
    assert (data["check"]["total"], data["sl"], data["check"]["spell_dice"], data["check"]["crit"]) == (29, 4, 9, True)
    assert data["effects"][0]["dice"] == "5d6+2d6"


@pytest.mark.rule("F-SPELL-10")
def test_F_SPELL_10_spellcheck_natural_1_is_a_mishap(capsys: pytest.CaptureFixture[str]) -> None:
    """F-SPELL-10: a natural 1 is a mishap whatever the total; nothing is cast."""
    code, out, _ = run(capsys, *SPELLCHECK, "--seed", "31", "--json")
    data = json.loads(out)
    assert code == 0 and data["check"]["mishap"] is True and data["row"] is None and data["effects"] == []


@pytest.mark.rule("F-SPELL-02")
def test_F_SPELL_02_spellcheck_text_and_repeatable(capsys: pytest.CaptureFixture[str]) -> None:
    """F-SPELL-02: the text output explains the roll and the row; the same seed gives the same result."""
    first = run(capsys, *SPELLCHECK, "--seed", "6")
    assert first == run(capsys, *SPELLCHECK, "--seed", "6")
    assert first[0] == 0 and "[16] + 3 (INT) + 2 (PROF) = 21" in first[1] and "SL3: 3d6 fire DAM" in first[1]


@pytest.mark.rule("F-SPELL-04")
def test_F_SPELL_04_spellcheck_without_a_spell(capsys: pytest.CaptureFixture[str]) -> None:
    """F-SPELL-04: face 15 + 3 + 2 = 20 against --dc 21 fails although 20 is SL2."""
    code, out, _ = run(capsys, "spellcheck", "--mod", "3", "--prof", "2", "--dc", "21", "--seed", "24", "--json")
    data = json.loads(out)
    assert code == 0 and data["total"] == 20 and data["success"] is False and data["sl"] == 0
    assert success_level(20, RULES) == (2, 2)


@pytest.mark.rule("F-SPELL-12", "F-TAB-13", "F-TAB-19")
def test_F_SPELL_12_spell_list_json_five_spells(capsys: pytest.CaptureFixture[str]) -> None:
    """F-SPELL-12: the five shipped spells, with their kind, die, levels and own mishap table."""
    code, out, _ = run(capsys, "spell", "list", "--json")
    data = json.loads(out)
    assert code == 0 and len(data) == 5
    by_name = {s["name"]: s for s in data}
    assert set(by_name) == {"Fireball", "Chill Touch", "Animate Dead", "Ember Swarm", "Flame Shield"}
    assert by_name["Fireball"] == {"name": "Fireball", "kind": "ranged", "die": "d6", "levels": [1, 2, 3, 4, 5, 6],
                                   "table": "F-TAB-13", "mishap_table": "F-TAB-19"}
    assert by_name["Chill Touch"]["die"] == "d8" and by_name["Flame Shield"]["levels"] == [3]


@pytest.mark.rule("F-TAB-17")
def test_spell_list_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "spell", "list")
    assert code == 0 and len(out.strip().splitlines()) == 5 and "F-TAB-17" in out


@pytest.mark.rule("F-SPELL-01", "F-TAB-13")
def test_F_SPELL_01_spell_show_gives_the_referee_every_row(capsys: pytest.CaptureFixture[str]) -> None:
    """F-SPELL-01: the referee's view: every SL row of Fireball, up to the WONDER."""
    code, out, _ = run(capsys, "spell", "show", "Fireball")
    assert code == 0
    for text in ("1d6 fire DAM", "3d6", "7d6", "PRONE", "WONDER", "12d6"):
        assert text in out
    assert "F-TAB-13" not in out           # the spell's table id only under --explain
    code, out, _ = run(capsys, "spell", "show", "Fireball", "--explain")
    assert code == 0 and "F-TAB-13 · Fireball" in out


@pytest.mark.rule("F-SPELL-01")
def test_F_SPELL_01_spell_show_player_hides_the_rows(capsys: pytest.CaptureFixture[str]) -> None:
    """F-SPELL-01 (REF-28): --player shows only the summary: the lowest row, not the table."""
    code, out, _ = run(capsys, "spell", "show", "fireball", "--player")
    assert code == 0
    assert out.strip() == "Fireball (ranged spell, d6 Spell Dice): 1d6 fire DAM to the target …"
    for hidden in ("3d6", "7d6", "WONDER", "PRONE"):
        assert hidden not in out


@pytest.mark.rule("F-TAB-14")
def test_spell_show_json_is_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "spell", "show", "Chill Touch", "--json")
    data = json.loads(out)
    assert code == 0 and data["id"] == "F-TAB-14" and len(data["rows"]) == 6


@pytest.mark.rule("F-MU-03", "F-SPELL-02")
def test_F_MU_03_spell_cast_json_with_maelis(capsys: pytest.CaptureFixture[str]) -> None:
    """F-MU-03, F-SPELL-02: Maelis (Magic-user 3, INT 7 → −1, PROF +2) casts Fireball: face 15 − 1 + 2 = 16 → SL2
    (1d6 fire, CLOSE); one spell cast, no depletion SAVE; the file is not written without --write."""
    before = Path(MAELIS).read_text(encoding="utf-8")
    code, out, _ = run(capsys, "spell", "cast", "Fireball", "--caster", MAELIS, "--seed", "24", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["check"]["roll"]["variables"] == {"INT": -1, "PROF": 2}
    assert (data["check"]["natural"], data["check"]["total"], data["sl"]) == (15, 16, 2)
    assert [e["kind"] for e in data["effects"]] == ["damage", "area"] and data["mishap"] is None
    assert [e["kind"] for e in data["events"]] == ["spellcheck", "spell"]
    assert Path(MAELIS).read_text(encoding="utf-8") == before


@pytest.mark.rule("F-SPELL-11", "F-SPELL-10", "F-TAB-19")
def test_F_SPELL_11_spell_cast_natural_1_rolls_fireballs_own_table(capsys: pytest.CaptureFixture[str]) -> None:
    """F-SPELL-10/11: Maelis rolls a natural 1 on Fireball: the mishap comes from F-TAB-19."""
    code, out, _ = run(capsys, "spell", "cast", "Fireball", "--caster", MAELIS, "--seed", "31", "--json")
    data = json.loads(out)
    assert code == 0 and data["check"]["mishap"] is True and data["sl"] == 0
    assert (data["mishap"]["table"], data["mishap"]["name"]) == ("F-TAB-19", "mishap-fireball")
    assert [e["kind"] for e in data["events"]] == ["spellcheck", "mishap"]


def test_spell_cast_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "spell", "cast", "Fireball", "--caster", MAELIS, "--seed", "24")
    assert code == 0 and "SL2" in out and "Maelis: Fireball SL2" in out


def test_F_SPELL_11_spell_cast_text_tells_the_mishap_and_its_rule_ids_only_under_explain(
        capsys: pytest.CaptureFixture[str]) -> None:
    """F-SPELL-10/11: seed 31 is Maelis's natural 1 (1 − 1 + 2 = 2): a mishap on the Fireball mishap table (d6 1),
    its table id F-TAB-19 and the rule ids shown only under --explain."""
    code, out, _ = run(capsys, "spell", "cast", "Fireball", "--caster", MAELIS, "--seed", "31")
    assert code == 0 and "Maelis: casts Fireball: natural 1: a mishap\n" in out
    assert "    SPELLCHECK: d20+INT+PROF → [1] - 1 (INT) + 2 (PROF) = 2" in out
    assert "Maelis: a magical mishap (Fireball mishap table): 1 → " in out and "F-TAB-19" not in out
    code, out, _ = run(capsys, "spell", "cast", "Fireball", "--caster", MAELIS, "--seed", "31", "--explain")
    assert code == 0 and "natural 1: a mishap (F-SPELL-10)" in out and "(F-SPELL-10, F-TAB-19)" in out


@pytest.mark.rule("F-SPELL-01", "F-SPELL-06")
def test_F_SPELL_01_spell_new_writes_a_loadable_spell_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """F-SPELL-01, F-SPELL-06: `spell new --seed 2 --out x.yaml` writes a spell ('Sleet Swarm') that
    load_ruleset(table_files=[…]) accepts and get_spell finds, every SL under its 1/2/4/7/11 budget."""
    out_file = tmp_path / "x.yaml"
    code, out, _ = run(capsys, "spell", "new", "--seed", "2", "--out", str(out_file))
    assert code == 0 and out.startswith(f"wrote {out_file}") and out_file.exists()
    rules = load_ruleset(table_files=[out_file])
    spell = get_spell(rules, "Sleet Swarm")
    assert spell.table.id == "house:spell-sleet-swarm" and sorted(spell.levels) == [1, 2, 3, 4, 5, 6]
    budgets = {sl: sum(int(c["cost"] or 0) for c in spell.levels[sl].data["components"]) for sl in range(1, 6)}
    assert budgets == {1: 1, 2: 2, 3: 4, 4: 7, 5: 11}


def test_spell_new_without_out_prints_yaml(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "spell", "new", "--seed", "2", "--name", "Frost Lance", "--kind", "ranged",
                       "--base", "damage")
    assert code == 0 and "id: house:spell-frost-lance" in out and "spell_kind: ranged" in out


@pytest.mark.rule("F-MAGIC-03", "F-MAGIC-01")
def test_F_MAGIC_03_item_show_mjolnir_json(capsys: pytest.CaptureFixture[str]) -> None:
    """F-MAGIC-01/03: Mjölnir (found as 'Mjolnir') is Epic with a budget of 5 Magic Item Dice."""
    code, out, _ = run(capsys, "item", "show", "Mjolnir", "--json")
    data = json.loads(out)
    assert code == 0
    assert (data["name"], data["tier"], data["budget"], data["type"]) == ("Mjölnir", "epic", 5, "warhammer")
    assert sum(e["data"]["cost"] for e in data["entries"]) == 5


@pytest.mark.rule("F-MAGIC-03")
def test_F_MAGIC_03_item_show_and_list_text(capsys: pytest.CaptureFixture[str]) -> None:
    """F-MAGIC-03: Shield of Shielding is Uncommon with 1 die."""
    code, out, _ = run(capsys, "item", "show", "shield-of-shielding")
    assert code == 0 and out.startswith("Shield of Shielding: uncommon shield, 1 Magic Item Dice")
    code, out, _ = run(capsys, "item", "list")
    assert code == 0 and len(out.strip().splitlines()) == 2 and "5 dice" in out


@pytest.mark.parametrize("args", [
    ["spell", "show", "Magic Missile"],
    ["spell", "cast", "Magic Missile", "--caster", MAELIS, "--seed", "1"],
    ["spell", "cast", "Animate Dead", "--caster", MAELIS, "--seed", "1"],
    ["spellcheck", "--mod", "1", "--prof", "1", "--spell", "Magic Missile", "--seed", "1"],
    ["item", "show", "Vorpal Blade"],
])
def test_unknown_spell_or_item_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    """An unknown spell or item (or a spell the caster does not know) is a one-line error, exit 2."""
    code, _, err = run(capsys, *args)
    assert code == 2
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err
