"""More gear on the user's path: a shield sundered to soak a blow, through a campaign's turn-by-turn
`furnace encounter start|next|end` (the faces entered) and `character show`."""

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


def facts(out: dict[str, Any], *kinds: str) -> list[dict[str, Any]]:
    return [e for e in out["events"] if e["kind"] in kinds]


def two_ogres(where: Path, *campaign_options: str) -> list[str]:
    """A campaign with Brakka (22 HP, AC 14 with her shield) on its roster, and a fight file of two ogres CLOSE
    to her whose blows are 2d12+1; the `--db … --campaign keep` to reach it."""
    where.mkdir()
    db = str(where / "keep.db")
    keep = ["--db", db, "--campaign", "keep"]
    options = [a for o in campaign_options for a in ("--option", o)]
    assert main(["--db", db, "campaign", "new", "keep", *options]) == 0
    shutil.copy(EXAMPLES / "characters" / "brakka.json", where / "brakka.json")
    assert main([*keep, "campaign", "join", str(where / "brakka.json")]) == 0
    (where / "ogres.yaml").write_text(yaml.safe_dump({
        "name": "ogres", "room_dc": 12, "party": [{"file": "brakka.json"}],
        "monsters": [{"name": "Ogre", "hp": 50, "hd": 7, "damage": "2d12+1", "zone": "CLOSE", "count": 2}]}),
        encoding="utf-8")
    return keep


@pytest.mark.rule("F-EQ-03")
def test_F_EQ_03_a_shield_is_sundered_to_soak_half_of_the_blow_that_would_drop_her(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """F-EQ-03 (AMB-36, option shield_sunder_damage): a shield can be sundered to soak up half of the incoming
    DAM, which destroys it. The monsters win initiative (1 to 6); both ogres hit Brakka (15 + 2 = 17 against AC
    14). Ogre 1's 2d12+1 with 1 and 1 is 3, which leaves her standing: no sunder, 22 → 19. Ogre 2's 12 and 12
    make 25, which would drop her: she sunders the shield and takes ceil(25 / 2) = 13 (bearer_ceil, the
    default), 19 → 6, AC 14 → 12; under bearer_floor she takes 12, 19 → 7. When the encounter ends the roster's
    Brakka has no shield and AC 12 (the shield is destroyed), and the HP the fight left her."""
    for rounding, taken, left in (("bearer_ceil", 13, 6), ("bearer_floor", 12, 7)):
        keep = two_ogres(tmp_path / rounding, f"shield_sunder_damage={rounding}")
        capsys.readouterr()
        assert ok(capsys, *keep, "character", "show", "Brakka")["character"]["shield"] is True
        ok(capsys, *keep, "encounter", "start", "--party", "brak1", "--file", str(tmp_path / rounding / "ogres.yaml"),
           "--faces", "1,6")
        ok(capsys, *keep, "encounter", "standing", "--quiet", "sunder")   # not asked: her standing answer
        out = ok(capsys, *keep, "encounter", "next", "--faces", "15,1,1,15,12,12")
        assert [(e["who"], e["data"]["total"], e["data"]["dc"]) for e in facts(out, "hit")] == [
            ("ogre-1", 17, 14), ("ogre-2", 17, 14)]
        assert [e["data"]["amount"] for e in facts(out, "damage_roll")] == [3, 25]
        sunder = facts(out, "sunder")
        assert len(sunder) == 1 and sunder[0]["who"] == "brak1"
        assert {k: sunder[0]["data"][k] for k in ("amount", "taken", "ac_before", "ac_after")} == {
            "amount": 25, "taken": taken, "ac_before": 14, "ac_after": 12}
        assert "F-EQ-03" in sunder[0]["data"]["fact"]["rules"]
        assert [(e["data"]["amount"], e["data"]["hp_after"]) for e in facts(out, "damage")] == [(3, 19), (taken, left)]
        end = ok(capsys, *keep, "encounter", "end")
        assert [e["data"]["change"] for e in facts(end, "after_fight")] == ["hp", "shield_destroyed"]
        brakka = ok(capsys, *keep, "character", "show", "Brakka")["character"]
        assert (brakka["shield"], brakka["hp"]) == (False, left)
        code = main([*keep, "character", "show", "Brakka"])
        assert code == 0 and "+2 / 12 / " in capsys.readouterr().out          # PROF / AC / load: AC 14 → 12
