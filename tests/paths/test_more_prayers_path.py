"""Lay on Hands on the user's path: `furnace lay-on-hands CLERIC RECIPIENT` on a campaign's roster (the faces
entered), with `damage`, `rest` and `character show` around it. Sister Ilse (Cleric 3, WIS 6: −1, PROF +2) rolls
her SPELLCHECK as d20 + 1; Brakka (Fighter 3, 22 HP, 3 × d10 Hit Dice, CON +0) receives."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from furnace.cli.app import main
from tests.helpers.factories import EXAMPLES


class Keep:
    """A campaign `keep` in its own database with Brakka and Sister Ilse on the roster."""

    def __init__(self, capsys: pytest.CaptureFixture[str], where: Path, *options: str, **brakka: Any) -> None:
        self.capsys, self.args = capsys, ["--db", str(where / "keep.db"), "--campaign", "keep"]
        assert main(["--db", str(where / "keep.db"), "campaign", "new", "keep",
                     *(a for o in options for a in ("--option", o))]) == 0
        shutil.copy(EXAMPLES / "characters" / "ilse.json", where / "ilse.json")
        data = json.loads((EXAMPLES / "characters" / "brakka.json").read_text(encoding="utf-8"))
        (where / "brakka.json").write_text(json.dumps({**data, **brakka}), encoding="utf-8")
        assert main([*self.args, "campaign", "join", str(where / "brakka.json"), str(where / "ilse.json")]) == 0
        capsys.readouterr()

    def ok(self, *args: str) -> Any:
        code = main([*self.args, *args, "--json"])
        out = self.capsys.readouterr()
        assert code == 0, out.err
        return json.loads(out.out)

    def refused(self, *args: str) -> str:
        code = main([*self.args, *args])
        err = self.capsys.readouterr().err
        assert code == 2, err
        return err

    def lay(self, *args: str) -> dict[str, list[dict[str, Any]]]:
        """The facts of one Lay on Hands, by kind."""
        by_kind: dict[str, list[dict[str, Any]]] = {}
        for e in self.ok("lay-on-hands", *args):
            by_kind.setdefault(e["kind"], []).append(e)
        return by_kind

    def sheet(self, who: str) -> dict[str, Any]:
        return dict(self.ok("character", "show", who)["character"])


def spent(facts: dict[str, list[dict[str, Any]]]) -> list[tuple[int, int, int]]:
    """The Hit Dice spent: (the die's face, HP after, dice left in her pool)."""
    return [(e["rolls"][0]["total"], e["data"]["hp_after"], e["data"]["left"]) for e in facts.get("hit_die", [])]


@pytest.mark.rule("F-CLR-05")
def test_F_CLR_05_the_spellcheck_on_F_TAB_06_gives_hit_dice_the_recipient_spends_from_her_own_pool(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """F-CLR-05 (F-TAB-06, AMB-15): the SPELLCHECK total 11 or less heals nothing; 12–15 gives 1 HD, 16–20 2 HD;
    the total must also reach the ROOM DC; the recipient spends the HD from her own pool and recovers what they
    roll. Brakka at 2 HP (22 − 20): Ilse's 10 + 1 = 11 heals nothing; 13 + 1 = 14 against ROOM DC 16 fails;
    13 + 1 = 14 against 12 is 1 HD, Brakka's d10 4: 2 → 6, her pool 3 → 2 (Ilse's stays 3); 17 + 1 = 18 is 2 HD,
    6 and 3: 6 → 15, pool 0. Ilse on herself (loh_self, on by default) at 6 HP: 14 + 1 = 15, 1 HD, her d8 3:
    6 → 9, her pool 3 → 2; under loh_self=false she may not."""
    keep = Keep(capsys, tmp_path)
    keep.ok("damage", "Brakka", "20")
    nothing = keep.lay("Sister Ilse", "Brakka", "--faces", "10")
    assert (nothing["spellcheck"][0]["data"]["total"], nothing["spellcheck"][0]["data"]["success"]) == (11, False)
    assert "lay_on_hands" not in nothing and "hit_die" not in nothing
    below_room = keep.lay("Sister Ilse", "Brakka", "--room-dc", "16", "--faces", "13")
    assert {k: below_room["spellcheck"][0]["data"][k] for k in ("total", "needed", "success")} == {
        "total": 14, "needed": 16, "success": False}
    assert "hit_die" not in below_room and keep.sheet("Brakka")["hp"] == 2
    one = keep.lay("Sister Ilse", "Brakka", "--faces", "13,4")
    assert {k: one["lay_on_hands"][0]["data"][k] for k in ("total", "hd", "allowed", "pool")} == {
        "total": 14, "hd": 1, "allowed": 1, "pool": 3}
    assert spent(one) == [(4, 6, 2)] and one["hit_die"][0]["who"] == "Brakka"
    two = keep.lay("Sister Ilse", "Brakka", "--faces", "17,6,3")
    assert (two["lay_on_hands"][0]["data"]["total"], two["lay_on_hands"][0]["data"]["hd"]) == (18, 2)
    assert spent(two) == [(6, 12, 1), (3, 15, 0)]
    brakka, ilse = keep.sheet("Brakka"), keep.sheet("Sister Ilse")
    assert (brakka["hp"], brakka["hit_dice"], ilse["hit_dice"]) == (15, 0, 3)
    keep.ok("damage", "Sister Ilse", "5")
    herself = keep.lay("Sister Ilse", "Sister Ilse", "--faces", "14,3")
    assert herself["lay_on_hands"][0]["data"]["hd"] == 1 and spent(herself) == [(3, 9, 2)]
    assert (keep.sheet("Sister Ilse")["hp"], keep.sheet("Sister Ilse")["hit_dice"]) == (9, 2)
    (tmp_path / "alone").mkdir()
    alone = Keep(capsys, tmp_path / "alone", "loh_self=false")
    assert "Lay on Hands on oneself is off" in alone.refused("lay-on-hands", "Sister Ilse", "Sister Ilse",
                                                             "--faces", "14")


@pytest.mark.rule("F-CLR-06")
def test_F_CLR_06_lay_on_hands_cures_a_condition_once_the_referee_approves(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """F-CLR-06 (REF-06, CF-47): instead of HP, Lay on Hands may cure a condition the referee approves. Brakka is
    POISONED and at 12 HP: asked without approval, the referee is asked and no die is rolled; approved, Ilse's
    10 + 1 = 11 fails and the poison stays; 12 + 1 = 13 cures it and heals no HP (12 still); a cure takes no
    extra Hit Die (F-CLR-08)."""
    keep = Keep(capsys, tmp_path, conditions=["POISONED"], hp=12)
    asked = keep.lay("Sister Ilse", "Brakka", "--cure", "poison")
    assert list(asked) == ["cure_asked"] and asked["cure_asked"][0]["data"]["condition"] == "poison"
    assert asked["cure_asked"][0]["data"]["fact"]["audience"] == "referee"
    failed = keep.lay("Sister Ilse", "Brakka", "--cure", "poison", "--approved", "--faces", "10")
    assert failed["spellcheck"][0]["data"]["total"] == 11 and "cure" not in failed
    assert keep.sheet("Brakka")["conditions"] == ["POISONED"]
    cured = keep.lay("Sister Ilse", "Brakka", "--cure", "poison", "--approved", "--faces", "12")
    assert cured["spellcheck"][0]["data"]["total"] == 13 and cured["cure"][0]["data"]["cured"] is True
    brakka = keep.sheet("Brakka")
    assert (brakka["conditions"], brakka["hp"], brakka["hit_dice"]) == ([], 12, 3)
    assert "no extra Hit Die" in keep.refused("lay-on-hands", "Sister Ilse", "Brakka", "--cure", "poison",
                                              "--approved", "--extra-hd", "--faces", "12")


@pytest.mark.rule("F-CLR-08")
def test_F_CLR_08_after_a_healing_a_CON_SAVE_regains_one_more_hit_die(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """F-CLR-08 (REF-05; option loh_extra_hd_recovery, off by default): after Lay on Hands the recipient's CON
    SAVE (d20 + 0 for Brakka) against the ROOM DC regains one Hit Die into her pool. Brakka at 2 HP: 11 + 1 = 12
    is 1 HD, her d10 7: 2 → 9, pool 3 → 2; her SAVE 12 against 12 holds: pool 2 → 3. Again 11 + 1, d10 5:
    9 → 14, pool 2; her SAVE 11 fails: the pool stays 2. Off (the default), `--extra-hd` is refused."""
    keep = Keep(capsys, tmp_path, "loh_extra_hd_recovery=true", hp=2)
    held = keep.lay("Sister Ilse", "Brakka", "--extra-hd", "--faces", "11,7,12")
    assert spent(held) == [(7, 9, 2)]
    assert {k: held["extra_hit_die"][0]["data"][k] for k in ("total", "dc", "saved", "before", "after")} == {
        "total": 12, "dc": 12, "saved": True, "before": 2, "after": 3}
    assert keep.sheet("Brakka")["hit_dice"] == 3
    failed = keep.lay("Sister Ilse", "Brakka", "--extra-hd", "--faces", "11,5,11")
    assert spent(failed) == [(5, 14, 2)]
    assert (failed["extra_hit_die"][0]["data"]["total"], failed["extra_hit_die"][0]["data"]["saved"]) == (11, False)
    assert keep.sheet("Brakka")["hit_dice"] == 2
    (tmp_path / "off").mkdir()
    off = Keep(capsys, tmp_path / "off", hp=2)
    assert "option loh_extra_hd_recovery" in off.refused("lay-on-hands", "Sister Ilse", "Brakka", "--extra-hd",
                                                         "--faces", "11,7")


def test_healed_above_0_HP_by_lay_on_hands_she_wakes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """As from any healing: Brakka dropped to −2 by `furnace damage` is down; Ilse's 13 + 1 = 14 gives her 1 HD,
    counted from 0 (F-HP-06): her d10 4 brings her to 4 HP, awake."""
    keep = Keep(capsys, tmp_path)
    keep.ok("damage", "Brakka", "24")
    assert keep.sheet("Brakka")["hp"] == -2
    assert spent(keep.lay("Sister Ilse", "Brakka", "--faces", "13,4")) == [(4, 4, 2)]
    brakka = keep.ok("character", "show", "Brakka")
    assert (brakka["status"], brakka["character"]["hp"], brakka["character"]["conditions"]) == ("alive", 4, [])


def test_while_a_fight_runs_lay_on_hands_is_the_clerics_action_in_it(capsys: pytest.CaptureFixture[str],
                                                                      tmp_path: Path) -> None:
    """Out of a fight only: during an encounter the command is refused with the reason, nothing rolled."""
    keep = Keep(capsys, tmp_path)
    keep.ok("encounter", "start", "--party", "all", "--monsters", "goblin", "--seed", "1")
    assert "a fight is running" in keep.refused("lay-on-hands", "Sister Ilse", "Brakka", "--faces", "13,4")
