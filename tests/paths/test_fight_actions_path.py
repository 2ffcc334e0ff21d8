"""Fights on the user's path: Sneak Attack, surprise, simultaneous initiative, DODGE and DISENGAGE, through
`furnace fight FILE` (seeded) and a campaign's turn-by-turn `furnace encounter start|act|next` (dice entered)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

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


def fight_file(tmp_path: Path, name: str, party: list[dict[str, Any]], monsters: list[dict[str, Any]],
               **top: Any) -> str:
    """A fight file beside copies of the example characters it names."""
    for entry in party:
        shutil.copy(EXAMPLES / "characters" / entry["file"], tmp_path / entry["file"])
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump({"name": name, "room_dc": 12, **top, "party": party, "monsters": monsters}),
                    encoding="utf-8")
    return str(path)


def facts(out: dict[str, Any], *kinds: str) -> list[dict[str, Any]]:
    return [e for e in out["events"] if e["kind"] in kinds]


GOBLIN = {"name": "Goblin", "hp": 30, "damage": "1d4", "zone": "CLOSE"}


@pytest.mark.rule("F-ROG-04", "F-SURP-01")
def test_F_ROG_04_SURP_01_a_rogue_strikes_the_unaware_goblin_while_it_cannot_act(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """F-SURP-01: the surprised side does not act; then initiative as usual. F-ROG-04: a Rogue's attack on an
    unaware foe is EASY (AC − 3) and a hit is a crit: maximum damage and the Rogue crit table with the level's
    die. The goblin (AC 12, 30 HP) is surprised: in round 1 only Wren acts though the goblins won initiative
    (6 to 1); her 16 + 2 = 18 hits AC 9, a Sneak Attack without a natural 20: 1d8 at its maximum, 8, then the
    Rogue crit table (F-TAB-33) on the d10 of level 3: a 3, +1d6 (3): 30 → 22 → 19. Unsurprised, the goblin
    strikes first and Wren's blow is against AC 12."""
    party = [{"file": "wren.json", "zone": "CLOSE"}]
    out = ok(capsys, "fight", fight_file(tmp_path, "ambush", party, [GOBLIN], surprised=["monsters"]),
             "--seed", "1", "--rounds", "1")
    assert [r["total"] for r in facts(out, "initiative")[0]["rolls"]] == [1, 6]
    assert [e["actor"] for e in facts(out, "hit", "miss")] == ["Wren"]                # the goblin does nothing
    hit = facts(out, "hit")[0]
    assert (hit["rolls"][0]["natural"], hit["data"]["total"], hit["data"]["ac"], hit["data"]["dc"]) == (16, 18, 12, 9)
    assert hit["data"]["crit"] and hit["data"]["easy"] == ["attacker|SNEAK_ATTACK|"]
    assert facts(out, "damage_roll")[0]["data"] == {"round": 1, "amount": 8, "damage": "1d8", "maximum": True}
    crit = facts(out, "crit")[0]["data"]
    assert (crit["table"], crit["die"], crit["total"]) == ("F-TAB-33", "d10 for level 3", 3)
    assert [e["data"]["hp_after"] for e in facts(out, "damage")] == [22, 19]
    later = ok(capsys, "fight", str(tmp_path / "ambush.yaml"), "--seed", "2", "--rounds", "2")
    blows = [(e["actor"], e["data"]["round"], e["data"]["dc"]) for e in facts(later, "hit", "miss")]
    assert blows[0] == ("Wren", 1, 9) and ("goblin", 2, 9) in blows and ("Wren", 2, 12) in blows
    open_ = ok(capsys, "fight", fight_file(tmp_path, "brawl", party, [GOBLIN]), "--seed", "1", "--rounds", "1")
    first = facts(open_, "hit", "miss")
    assert first[0]["actor"] == "goblin" and first[1]["actor"] == "Wren" and first[1]["data"]["dc"] == 12


@pytest.mark.rule("F-INIT-02")
def test_F_INIT_02_ranged_and_magic_first_then_melee_where_the_slain_may_still_strike(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """F-INIT-02 (AMB-49): with no initiative, each round all ranged attacks and magic go first, then all melee;
    a creature killed in melee by a foe it was attacking compares ATK totals: lower, its blow is lost; not
    lower, it still strikes. Seed 3: Wren's 15 kills Goblin 1, whose 10 is lower: it falls before striking.
    Seed 7: Wren's 16 kills Goblin 1, whose 19 is higher: it still hits her."""
    party = [{"file": "wren.json", "zone": "CLOSE"}, {"file": "maelis.json", "zone": "RANGED"}]
    monsters = [{"name": "Goblin", "count": 2, "hp": 1, "damage": "1d4", "zone": "CLOSE", "attack_bonus": 8},
                {"name": "Archer", "hp": 1, "damage": "1d6", "zone": "RANGED", "ranged": True}]
    file = fight_file(tmp_path, "together", party, monsters, initiative="simultaneous")
    lost = ok(capsys, "fight", file, "--seed", "3", "--rounds", "1")
    order = [e["actor"] for e in facts(lost, "spellcheck", "hit", "miss", "lost")]
    assert order[:2] == ["Maelis", "archer"] and order[2] == "Wren"                       # ranged and magic first
    assert facts(lost, "lost")[0]["actor"] == "goblin-1" and facts(lost, "lost")[0]["data"]["total"] == 10
    assert facts(lost, "lost")[0]["data"]["killer"] == 15
    assert "goblin-1" not in [e["actor"] for e in facts(lost, "hit", "miss")]
    struck = ok(capsys, "fight", file, "--seed", "7", "--rounds", "1")
    wren_blow = next(e for e in facts(struck, "hit") if e["actor"] == "Wren")
    goblin_blow = next(e for e in facts(struck, "hit") if e["actor"] == "goblin-1")
    assert wren_blow["data"]["total"] == 16 and goblin_blow["data"]["total"] == 19 and not facts(struck, "lost")
    assert any(e["data"]["hp_after"] <= 0 for e in facts(struck, "damage") if e["actor"] == "goblin-1")


@pytest.mark.rule("F-INIT-02")
def test_F_INIT_02_a_phase_goes_on_with_the_combatants_as_they_are_after_a_summoning(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The example party against the ogre under the Hazards profile, seed 1165628110: in round 9, a phase where
    both sides act together, Sister Ilse's Animate Dead raises 3 zombies (the fight's combatants change), then
    Maelis's sling (16 vs AC 14) takes the ogre from 3 HP to -2, and the slain ogre still swings at Sister Ilse
    (7 vs AC 12, a miss): the party wins. Each turn of the phase reads its combatant as she is now: a look-up
    kept from before the summoning saw the ogre alive and refused her blow ("Ogre is dead and cannot act")."""
    out = ok(capsys, "fight", str(EXAMPLES / "party-vs-ogre.yaml"), "--profile", "hazards", "--seed", "1165628110")
    last = [e for e in out["events"] if e["data"]["round"] == 9]
    kinds = [(e["kind"], e["actor"]) for e in last if e["kind"] in ("summon", "hit", "death", "miss", "end")]
    assert kinds == [("summon", "Sister Ilse"), ("hit", "Maelis"), ("death", "ogre"), ("miss", "ogre"), ("end", "")]
    assert next(e for e in last if e["kind"] == "summon")["data"]["count"] == 3
    assert [e["data"]["total"] for e in last if e["kind"] in ("hit", "miss")] == [16, 7]
    assert next(e for e in last if e["kind"] == "damage")["data"]["hp_after"] == -2
    assert out["events"][-1]["data"]["winner"] == "party"


def encounter(capsys: pytest.CaptureFixture[str], tmp_path: Path, *options: str) -> list[str]:
    """Campaign `keep` with Brakka (AC 14, raging AC 12) against an ogre (ATK +2, 50 HP, 1d6) CLOSE to her;
    the party wins initiative 6 to 1. The `furnace` arguments that reach it."""
    tmp_path.mkdir()
    db = str(tmp_path / "keep.db")
    keep = ["--db", db, "--campaign", "keep"]
    assert run(capsys, "--db", db, "campaign", "new", "keep")[0] == 0
    assert run(capsys, *keep, "campaign", "join", str(EXAMPLES / "characters" / "brakka.json"))[0] == 0
    file = fight_file(tmp_path, "ogre", [{"file": "brakka.json"}],
                      [{"name": "Ogre", "hp": 50, "damage": "1d6", "zone": "CLOSE"}])
    assert run(capsys, *keep, "encounter", "start", "--party", "brak1", "--file", file, "--faces", "6,1",
               *(a for o in options for a in ("--option", o)))[:3:2] == (0, "")
    return keep


def events(out: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [e for e in out["events"] if e["kind"] == kind]


@pytest.mark.rule("F-CMBT-02")
def test_F_CMBT_02_blows_against_a_dodging_fighter_are_HARD_until_her_next_turn(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """F-CMBT-02 (AMB-03): DODGE makes attacks against her HARD until her next turn. The ogre's 14 + 2 = 16
    misses Brakka's AC 14 + 3 = 17; at her turn in round 2 the DODGE ends. Without it, 16 hits AC 14."""
    keep = encounter(capsys, tmp_path / "dodge")
    ok(capsys, *keep, "encounter", "act", "brak1", "dodge")
    blow = ok(capsys, *keep, "encounter", "next", "--faces", "14")
    miss = events(blow, "miss")[0]["data"]
    assert (miss["total"], miss["ac"], miss["dc"]) == (16, 14, 17)
    assert miss["hard"] == ["target|MOD:atk_against:HARD|DODGE"]
    assert events(blow, "expire")[0]["who"] == "brak1" and events(blow, "expire")[0]["data"]["round"] == 2
    keep = encounter(capsys, tmp_path / "wait")
    ok(capsys, *keep, "encounter", "act", "brak1", "wait")
    hit = events(ok(capsys, *keep, "encounter", "next", "--faces", "14,3"), "hit")[0]["data"]
    assert (hit["total"], hit["dc"]) == (16, 14)


@pytest.mark.rule("F-CMBT-03")
def test_F_CMBT_03_disengaging_leaves_CLOSE_for_NEAR_without_the_opportunity_attack(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """F-CMBT-03 (AMB-60, REF-16): DISENGAGE moves her out of CLOSE to NEAR; under opportunity_attacks, leaving
    CLOSE any other way gives each foe CLOSE a free ATK, unless free_disengage. Brakka closes and strikes
    (9 + 3 hits AC 12, 8 + 1 + 2 rage), the ogre misses (3); in round 2: DISENGAGE puts her NEAR with no blow;
    going RANGED instead, the ogre strikes at her as she leaves: 15 + 2 = 17 hits AC 12 (raging), 4 DAM, 22 →
    18; with free_disengage too, she goes RANGED with no blow and no die."""
    def closed(where: str, *options: str) -> list[str]:
        keep = encounter(capsys, tmp_path / where, *options)
        ok(capsys, *keep, "encounter", "act", "brak1", "move", "ogre", "--faces", "9,8", "--rage")
        ok(capsys, *keep, "encounter", "next", "--faces", "3")
        return keep

    keep = closed("disengage", "opportunity_attacks=true")
    out = ok(capsys, *keep, "encounter", "act", "brak1", "disengage")
    assert not events(out, "opportunity") and not events(out, "hit")
    assert ok(capsys, *keep, "encounter", "status")["encounter"]["combatants"][0]["zone"] == "NEAR"
    keep = closed("flee", "opportunity_attacks=true")
    out = ok(capsys, *keep, "encounter", "act", "brak1", "move", "RANGED", "--faces", "15,4", "--no-sunder")
    assert events(out, "opportunity")[0]["who"] == "ogre"
    assert events(out, "hit")[0]["data"]["total"] == 17 and events(out, "damage")[0]["data"]["hp_after"] == 18
    keep = closed("free", "opportunity_attacks=true", "free_disengage=true")
    out = ok(capsys, *keep, "encounter", "act", "brak1", "move", "RANGED")
    assert not events(out, "opportunity") and not events(out, "hit")
