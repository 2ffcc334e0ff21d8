"""Path tests that fail on defects in fight modules owned by other engineers during issue 22 (`play/attacks.py`),
kept out of the suite (the file's name is not test_*): rename the module to test_… once the defect is fixed.

Run them with: .venv/bin/pytest tests/paths/defects_play.py -p no:cacheprovider
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from furnace.cli.app import main
from tests.helpers.factories import EXAMPLES


def ok(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    code = main([*args, "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


@pytest.mark.rule("F-CRIT-03")
def test_F_CRIT_03_a_monsters_crit_injures_the_one_it_strikes_with_the_die_of_its_HD(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """F-CRIT-03 (CF-52, AMB-26; options monster_crits, monster_crit_table F-TAB-38, monster_crit_level
    hit_dice): a monster's natural 20 deals maximum damage and rolls the Lingering Injuries table with the crit
    die of its HD read as a level (F-TAB-30). A 7-HD ogre's crit die is d20+4; the injury lands on Brakka.
    Today `play.attacks._crit_table` rolls F-TAB-38 on its plain d20 (the table has no die_table) and applies
    the row with actor=the ogre, so "Maimed foot" (target self) makes the OGRE move only NEAR."""
    db = str(tmp_path / "keep.db")
    keep = ["--db", db, "--campaign", "keep"]
    assert main(["--db", db, "campaign", "new", "keep"]) == 0
    assert main([*keep, "campaign", "join", str(EXAMPLES / "characters" / "brakka.json")]) == 0
    shutil.copy(EXAMPLES / "characters" / "brakka.json", tmp_path / "brakka.json")
    fight = tmp_path / "ogre.yaml"
    fight.write_text(yaml.safe_dump({"name": "ogre", "room_dc": 12, "party": [{"file": "brakka.json"}],
                                     "monsters": [{"name": "Ogre", "hp": 50, "hd": 7, "damage": "2d6",
                                                   "zone": "CLOSE"}]}), encoding="utf-8")
    capsys.readouterr()
    ok(capsys, *keep, "encounter", "start", "--party", "brak1", "--file", str(fight), "--faces", "1,6",
       "--option", "monster_crits=true")
    out = ok(capsys, *keep, "encounter", "next", "--faces", "20,1")
    crit = next(e for e in out["events"] if e["kind"] == "crit")
    assert crit["rolls"][0]["expression"] == "d20+4" and crit["rolls"][0]["total"] == 5     # Maimed foot
    moved = [e["who"] for e in out["events"] if e["kind"] == "condition"]
    assert moved == ["brak1"]


@pytest.mark.rule("F-EQ-06")
def test_F_EQ_06_a_low_range_sling_cannot_shoot_from_RANGED(capsys: pytest.CaptureFixture[str],
                                                           tmp_path: Path) -> None:
    """F-EQ-06 (F-TAB-24, AMB-58): Low-range "can only ATK NEAR" (no RANGED attacks); Thrown "can ATK NEAR"
    without moving. Today no tag changes a range: Maelis (no spells) at RANGED shoots her Low-range sling at a
    goblin every round (`play.turns` reads no tag); she should have to come NEAR first."""
    maelis = {**json.loads((EXAMPLES / "characters" / "maelis.json").read_text(encoding="utf-8")), "spells": []}
    (tmp_path / "maelis.json").write_text(json.dumps(maelis), encoding="utf-8")
    fight = tmp_path / "sling.yaml"
    fight.write_text(yaml.safe_dump({"name": "sling", "room_dc": 12, "party": [{"file": "maelis.json",
                                                                                  "zone": "RANGED"}],
                                     "monsters": [{"name": "Goblin", "hp": 30, "damage": "1", "zone": "CLOSE",
                                                   "attack_bonus": -30}]}), encoding="utf-8")
    out = ok(capsys, "fight", str(fight), "--seed", "2", "--rounds", "1")
    shots = [e for e in out["events"] if e["kind"] in ("hit", "miss") and e["actor"] == "Maelis"]
    assert not shots or any(e["kind"] == "move" and e["actor"] == "Maelis" for e in out["events"])
