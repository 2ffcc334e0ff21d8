"""Spellcasting on the user's path: the Success Level table, Spell Dice, no modifier on them, Luck Dice on a
SPELLCHECK, Spell Depletion and a cleric's disapproval, through `furnace spellcheck`, `spell show`, `spell cast`
(a caster's file), `campaign join` and `rest`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from furnace.cli.app import main
from tests.helpers.factories import EXAMPLES


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def ok(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    code, out, err = run(capsys, *args, "--json")
    assert code == 0, err
    return json.loads(out)


def caster(tmp_path: Path, stem: str) -> str:
    return str(shutil.copy(EXAMPLES / "characters" / f"{stem}.json", tmp_path / f"{stem}.json"))


def profile(tmp_path: Path, **options: str) -> str:
    path = tmp_path / "house.yaml"
    path.write_text("name: house\nextends: furnace\noptions:\n" + "".join(f"  {k}: {v}\n" for k, v in options.items()),
                    encoding="utf-8")
    return str(path)


# (d20 face, casting modifier, PROF) → (total, SL, Spell Dice); no natural 20 (its triple PROF is F-SPELL-08)
BANDS = [((11, 0, 0), (11, 0, 0)), ((12, 0, 0), (12, 1, 1)), ((15, 0, 0), (15, 1, 1)), ((16, 0, 0), (16, 2, 2)),
         ((18, 0, 2), (20, 2, 2)), ((18, 1, 2), (21, 3, 4)), ((19, 4, 3), (26, 3, 4)), ((19, 5, 3), (27, 4, 7)),
         ((19, 8, 4), (31, 4, 7)), ((19, 9, 4), (32, 5, 11)), ((19, 11, 5), (35, 5, 11)),
         ((19, 12, 5), (36, 6, None)), ((2, -3, 0), (-1, 0, 0))]


@pytest.mark.rule("F-SPELL-03")
@pytest.mark.parametrize(("rolled", "read"), BANDS)
def test_F_SPELL_03_the_total_reads_the_success_level_table(
        capsys: pytest.CaptureFixture[str], rolled: tuple[int, int, int], read: tuple[int, int, int | None]) -> None:
    """F-SPELL-03 (F-TAB-11): natural 1 a mishap; 2–11 Failure (every other total below 12, AMB-16); 12–15
    SL1 (1 Spell Die); 16–20 SL2 (2); 21–26 SL3 (4); 27–31 SL4 (7); 32–35 SL5 (11); 36+ SL6, a WONDER."""
    face, mod, prof = rolled
    out = ok(capsys, "spellcheck", "--mod", str(mod), "--prof", str(prof), "--dc", "1", "--faces", str(face))
    assert (out["total"], out["sl"], out["spell_dice"]) == read and not out["mishap"]


@pytest.mark.rule("F-SPELL-03")
def test_F_SPELL_03_a_natural_1_is_a_mishap_whatever_the_total(capsys: pytest.CaptureFixture[str]) -> None:
    """F-SPELL-03: the "1" row is a natural 1, a mishap, even when the modifiers lift the total to 15."""
    out = ok(capsys, "spellcheck", "--mod", "9", "--prof", "5", "--faces", "1")
    assert out["total"] == 15 and out["mishap"] and out["sl"] == 0


@pytest.mark.rule("F-SPELL-05", "F-SPELL-07")
def test_F_SPELL_05_07_spell_dice_by_kind_budget_and_no_modifier(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """F-SPELL-05: one Spell Die is d4 for an effect or duration, d6 ranged damage, d8 melee damage; SL1–5 buy
    1/2/4/7/11 dice; "for 1 round" is free; Chill Touch's paralysis costs 2. F-SPELL-07: the Spell Dice are
    rolled with no INT, WIS or PROF: a SPELLCHECK of 16 + 3 + 3 = 22 (SL3) makes Fireball 3d6 = 2 + 3 + 4 = 9;
    Maelis (INT −1, PROF 2) casting SL1 Fireball deals the d6 alone, 4."""
    dies = {"Fireball": ("ranged", "d6"), "Chill Touch": ("melee", "d8"), "Ember Swarm": ("effect", "d4"),
            "Animate Dead": ("effect", "d4")}
    for name, (kind, die) in dies.items():
        spell = ok(capsys, "spell", "show", name)
        assert (spell["data"]["spell_kind"], spell["data"]["spell_die"]) == (kind, die)
        rows = {r["key"]: r["data"] for r in spell["rows"]}
        assert [rows[sl]["total_cost"] for sl in (2, 3, 4, 5)] == [2, 4, 7, 11]
        for row in rows.values():
            if row.get("total_cost") is not None:
                assert sum(c["cost"] for c in row["components"]) == row["total_cost"]
    chill = {r["key"]: r["data"]["components"] for r in ok(capsys, "spell", "show", "Chill Touch")["rows"]}
    assert ("PARALYSED", 2) in [(c["text"], c["cost"]) for c in chill[4]]
    assert ("for 1 round", 0) in [(c["text"], c["cost"]) for c in chill[2]]
    out = ok(capsys, "spellcheck", "--mod", "3", "--prof", "3", "--spell", "Fireball", "--faces", "16,2,3,4")
    assert out["sl"] == 3 and out["effects"][0] == {"kind": "damage", "dice": "3d6", "type": "fire"}
    assert [(r["expression"], r["total"]) for r in out["effect_rolls"]] == [("3d6", 9)]
    cast = ok(capsys, "spell", "cast", "Fireball", "--caster", caster(tmp_path, "maelis"), "--faces", "13,4")
    assert cast["check"]["total"] == 14 and [(r["expression"], r["total"]) for r in cast["effect_rolls"]] == [
        ("1d6", 4)]


@pytest.mark.rule("F-SPELL-09")
def test_F_SPELL_09_a_luck_die_moves_the_success_level_by_one_at_most(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """F-SPELL-09: a Luck Die added to a SPELLCHECK moves the SL by at most 1; it may lift a Failure to SL1
    (AMB-19, option luck_lifts_spell_failure); it never cancels a natural-1 mishap. 15 (SL1) + a 6 = 21 would
    be SL3: SL2. 15 + 6 + 6 = 27 would be SL4: SL2. 11 (Failure) + 6 = 17: SL1, and with the option off a
    Failure stays a Failure. A natural 1 + 6 is still a mishap."""
    def luck(faces: str, *extra: str, dice: int = 1) -> Any:
        return ok(capsys, "spellcheck", "--mod", "0", "--prof", "0", "--luck", str(dice), "--faces", faces, *extra)

    assert (luck("15,6")["total"], luck("15,6")["sl"], luck("15,6")["spell_dice"]) == (21, 2, 2)
    assert (luck("15,6,6", dice=2)["total"], luck("15,6,6", dice=2)["sl"]) == (27, 2)
    lifted = luck("11,6")
    assert (lifted["total"], lifted["sl"], lifted["success"]) == (17, 1, True)
    kept = luck("11,6", "--profile", profile(tmp_path, luck_lifts_spell_failure="false"))
    assert (kept["total"], kept["sl"], kept["success"]) == (17, 0, False)
    mishap = luck("1,6")
    assert mishap["mishap"] and mishap["sl"] == 0


def cast(capsys: pytest.CaptureFixture[str], who: str, spell: str, faces: str, *extra: str) -> Any:
    return ok(capsys, "spell", "cast", spell, "--caster", who, "--dc", "12", "--faces", faces, "--write", *extra)


def sheet_of(file: str) -> dict[str, Any]:
    return dict(json.loads(Path(file).read_text(encoding="utf-8")))


@pytest.mark.rule("F-MU-04")
def test_F_MU_04_after_four_spells_an_INT_SAVE_or_no_casting_until_a_rest(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """F-MU-04: count the spells cast since the last reset or rest; at 4, an INT SAVE vs the ROOM DC: success
    resets the count, failure means no casting until a rest (AMB-41: any rest). Maelis (INT 7: −1, PROF 2,
    proficient in INT SAVEs: +1): her fourth cast is followed by an INT SAVE; an 11 makes 12 ≥ 12 and the count
    starts again; a 4 makes 5 and she is DEPLETED: the next cast is refused. A short rest in the campaign ends
    it, and she casts again."""
    maelis = caster(tmp_path, "maelis")
    for n in (1, 2, 3):
        cast(capsys, maelis, "Fireball", "13,4")
        assert sheet_of(maelis)["spells_cast"] == n
    saved = cast(capsys, maelis, "Fireball", "13,11,4")
    depletion = next(e for e in saved["events"] if e["kind"] == "depletion")
    assert depletion["rolls"][0]["total"] == 12 and sheet_of(maelis)["spells_cast"] == 0
    for _ in (1, 2, 3):
        cast(capsys, maelis, "Fireball", "13,4")
    failed = cast(capsys, maelis, "Fireball", "13,4,5")
    depletion = next(e for e in failed["events"] if e["kind"] == "depletion")
    assert depletion["rolls"][0]["total"] == 5 and sheet_of(maelis)["until_rest"] == ["DEPLETED: Spell Depletion"]
    code, _, err = run(capsys, "spell", "cast", "Fireball", "--caster", maelis, "--faces", "13,4")
    assert code == 2 and "cannot cast until a rest" in err
    db = str(tmp_path / "keep.db")
    keep = ["--db", db, "--campaign", "keep"]
    assert run(capsys, "--db", db, "campaign", "new", "keep")[0] == 0
    assert run(capsys, *keep, "campaign", "join", maelis)[0] == 0
    assert run(capsys, *keep, "rest", "short", "Maelis")[0] == 0
    after = ok(capsys, *keep, "character", "show", "Maelis")["character"]
    assert after["until_rest"] == [] and after["spells_cast"] == 0


@pytest.mark.rule("F-CLR-04")
def test_F_CLR_04_a_prayer_in_the_disapproval_range_rolls_the_disapproval_table(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """F-CLR-04 (DCC, D-10): a cleric's disapproval range starts at a natural 1 and widens by 1 with each
    disapproval and each failed prayer; a natural roll inside it rolls 1d4 + the range on Furnace's disapproval
    table (X-TAB-02). Ilse (WIS 6: −1, PROF 2): a natural 1, then a 3 on the d4: 3 + 1 = 4, "a cold silence";
    the range becomes 2. A 5 fails (5 − 1 + 2 = 6): the range becomes 3. A natural 3 is inside it: 1d4 + 3,
    a 2 makes 5, "a sting of holy light", 1d4 radiant DAM to her (a 4), and the range becomes 4."""
    ilse = caster(tmp_path, "ilse")
    first = cast(capsys, ilse, "Chill Touch", "1,3")
    assert first["mishap"]["table"] == "X-TAB-02" and first["mishap"]["roll"]["total"] == 4
    assert first["mishap"]["row"]["text"] == "A cold silence: -1 to SPELLCHECKs until rest"
    assert sheet_of(ilse)["disapproval"] == 2
    failed = cast(capsys, ilse, "Chill Touch", "5")
    assert failed["check"]["total"] == 6 and sheet_of(ilse)["disapproval"] == 3
    again = cast(capsys, ilse, "Chill Touch", "3,2,4")
    assert again["mishap"]["roll"]["expression"] == "1d4+DISAPPROVAL" and again["mishap"]["roll"]["total"] == 5
    assert again["mishap"]["row"]["text"].startswith("A sting of holy light")
    assert [(r["expression"], r["total"]) for r in again["effect_rolls"]] == [("1d4", 4)]
    assert sheet_of(ilse)["disapproval"] == 4
