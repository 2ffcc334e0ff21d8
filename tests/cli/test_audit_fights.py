"""The audit's fight defects, fixed on the user's path (issue 22): Flame Shield wards its caster (F-TAB-17), and a
named NPC — or every NPC under npc_grievous=all — rolls the Middle Sea's grievous injury table at 0 HP (M-MOOK-01).
Every die is entered with --faces, and every number below is worked from those faces by the rule named."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from furnace.campaign import encounters
from furnace.cli.app import main
from tests.helpers.factories import mage, reopened

ROOT = Path(__file__).resolve().parents[2]
BRAKKA = ROOT / "examples" / "characters" / "brakka.json"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


# -- F-TAB-17: Flame Shield ------------------------------------------------------------------------------------------
@pytest.mark.rule("F-TAB-17", "F-SPELL-06")
def test_F_TAB_17_flame_shield_wards_the_caster(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Mira (SPELLCHECK d20+4) casts Flame Shield: face 18 → 22, SL3. The shield's 1d4 rounds (face 2: until her
    turn in round 3) and its 1d4 AC (face 3): AC 10 → 13, and she takes no fire herself (HP 12 of 12). The goblin
    (HP 7, ATK d20+0) attacks her: face 12 misses AC 13 (it would hit AC 10), and it takes the shield's 2d8 fire,
    faces 1 and 2: HP 7 → 4."""
    monkeypatch.setenv("FURNACE_CONFIG_DIR", str(tmp_path / "config"))
    db = str(tmp_path / "c.db")
    sheet = tmp_path / "mira.json"
    sheet.write_text(mage(spells=["Flame Shield"]).to_json(), encoding="utf-8")
    keep = ["--db", db, "--campaign", "keep"]
    assert run(capsys, "--db", db, "campaign", "new", "keep")[0] == 0
    assert run(capsys, *keep, "campaign", "join", str(sheet))[0] == 0
    code, _, err = run(capsys, *keep, "encounter", "start", "--party", "Mira", "--monsters", "goblin x1",
                       "--faces", "8,6,5")                     # the goblin's HP 1d8-1 = 7; party 6, monsters 5
    assert code == 0, err
    code, out, err = run(capsys, *keep, "encounter", "act", "mira1", "cast", "goblin", "--spell", "Flame Shield",
                         "--faces", "18,2,3")
    assert code == 0, err
    assert "is warded by Flame Shield: +3 AC, and 2d8 fire DAM to each attacker" in out
    mira = encounters.current(reopened(db)).turns.encounter.get("mira1")
    assert mira.hp == 12 and mira.ac == 10
    assert {(h.name, h.value, h.until_round) for h in mira.held} >= {("MOD:ac:BONUS", 3, 3)}
    code, out, err = run(capsys, *keep, "encounter", "next", "--faces", "12,1,2", "--json")
    assert code == 0, err
    kinds = [(e["kind"], e["who"]) for e in json.loads(out)["events"]]
    assert ("miss", "goblin") in kinds and ("effect_damage", "goblin") in kinds
    fight = encounters.current(reopened(db)).turns.encounter
    assert (fight.get("goblin").hp, fight.get("mira1").hp) == (4, 12)


# -- M-MOOK-01: NPCs at 0 HP under the Middle Sea -------------------------------------------------------------------
def _fight_file(folder: Path, named: bool) -> str:
    shutil.copy(BRAKKA, folder / "brakka.json")
    path = folder / "chief.yaml"
    path.write_text("name: The chief\nroom_dc: 10\nparty:\n  - {file: brakka.json, zone: CLOSE}\n"
                    f"monsters:\n  - {{name: Grak, hp: 3, zone: CLOSE, named: {str(named).lower()}}}\n",
                    encoding="utf-8")
    return str(path)


# initiative: party 6, monsters 1; Brakka's ATK d20 15 (+3 = 18 ≥ AC 10) and DAM 1d8+1+2 (raging) face 6 = 9:
# Grak's 3 HP go to 0 with 6 to spare
BLOW = "6,1,15,6"
GRIEVOUS = BLOW + ",1,1,6,2,2"   # 3d6 + 6 excess = 1+1+6+6 = 14: UNCONSCIOUS 2d6 rounds (2+2 = 4)


@pytest.mark.rule("M-MOOK-01", "M-GRIEV-01")
@pytest.mark.parametrize(("named", "options", "faces", "rolls"), [
    (True, (), GRIEVOUS, True),                                   # named_only (the default): a named NPC rolls
    (False, (), BLOW, False),                                     # … and a nameless one is out, with no roll
    (False, ("--option", "npc_grievous=all"), GRIEVOUS, True),    # all: every NPC rolls
    (True, ("--option", "npc_grievous=none"), BLOW, False),       # none: no NPC rolls
])
def test_M_MOOK_01_an_npc_at_0_rolls_as_npc_grievous_says(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                           named: bool, options: tuple[str, ...], faces: str,
                                                           rolls: bool) -> None:
    code, out, err = run(capsys, "fight", _fight_file(tmp_path, named), "--profile", "middle-sea", "--faces", faces,
                         "--json", *options)
    assert code == 0, err
    data = json.loads(out)
    grievous = [e for e in data["events"] if e["kind"] == "grievous"]
    grak = next(c for c in data["combatants"] if c["name"] == "Grak")
    if rolls:
        assert [(e["data"]["total"], e["data"]["excess"]) for e in grievous] == [(14, 6)]
        assert grak["hp"] == 0 and grak["status"] == "up"
        assert [(h["name"], h["until_round"]) for h in grak["held"]] == [("UNCONSCIOUS", 5)]
    else:
        assert grievous == [] and grak["status"] in ("dead", "out")
