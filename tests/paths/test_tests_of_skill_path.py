"""Checks and the optional tests of skill on the user's path: the reaction roll, advantage, contests, effort, skill
challenges, stunts, PC morale and the Luck Dice cap, through `furnace reaction`, `check`, `contest`, `effort`,
`challenge`, `stunt`, `pc-morale` and `fight`, with the dice entered (`--faces`) or seeded."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from furnace.cli.app import main
from tests.helpers.factories import EXAMPLES

BRAKKA = str(EXAMPLES / "characters" / "brakka.json")     # STR 14 (+1), WIS 13 (+1), PROF 2, saves STR


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def ok(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    code, out, err = run(capsys, *args, "--json")
    assert code == 0, err
    return json.loads(out)


def profile(tmp_path: Path, file: str = "house.yaml", **options: str) -> str:
    path = tmp_path / file
    path.write_text("name: house\nextends: furnace\noptions:\n" + "".join(f"  {k}: {v}\n" for k, v in options.items()),
                    encoding="utf-8")
    return str(path)


@pytest.mark.rule("F-NPC-01")
@pytest.mark.parametrize(("faces", "cha", "total", "attitude"), [
    ("1,1", 0, 2, "hostile"), ("1,1", 1, 3, "unfriendly"), ("2,3", 0, 5, "unfriendly"), ("3,3", 0, 6, "neutral"),
    ("4,4", 0, 8, "neutral"), ("3,4", 2, 9, "indifferent"), ("5,6", 0, 11, "indifferent"), ("6,6", 0, 12, "helpful"),
    ("6,6", -3, 9, "indifferent"), ("1,2", -2, 1, "hostile")])
def test_F_NPC_01_the_reaction_roll_is_2d6_plus_CHA_on_the_reaction_table(
        capsys: pytest.CaptureFixture[str], faces: str, cha: int, total: int, attitude: str) -> None:
    """F-NPC-01 (F-TAB-29): 2d6 + the speaker's CHA: ≤2 hostile, 3–5 unfriendly, 6–8 neutral, 9–11 indifferent,
    12+ helpful."""
    out = ok(capsys, "reaction", "--cha", str(cha), "--faces", faces)
    assert out["table_roll"]["roll"]["total"] == total and out["attitude"] == attitude


@pytest.mark.rule("F-OPT-01")
def test_F_OPT_01_advantage_keeps_the_higher_of_2d20_beside_or_instead_of_EASY(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """F-OPT-01: advantage rolls 2d20 and keeps the higher, disadvantage the lower (use_advantage); alongside
    EASY by default, instead of it under advantage_mode instead (AMB-56). 5 and 17 with +2: advantage 19,
    disadvantage 7; with one EASY too, DC 14 becomes 11 (alongside) or stays 14 (instead). Off, it is
    refused."""
    code, _, err = run(capsys, "check", "2", "--dc", "14", "--adv", "--faces", "5,17")
    assert code == 2 and "use_advantage is off" in err
    on = profile(tmp_path, use_advantage="true")
    adv = ok(capsys, "check", "2", "--dc", "14", "--adv", "--faces", "5,17", "--profile", on)
    assert (adv["roll"]["expression"], adv["total"], adv["success"]) == ("d20adv", 19, True)
    dis = ok(capsys, "check", "2", "--dc", "14", "--dis", "--faces", "5,17", "--profile", on)
    assert (dis["roll"]["expression"], dis["total"], dis["success"]) == ("d20dis", 7, False)
    both = ok(capsys, "check", "2", "--dc", "14", "--adv", "--easy", "1", "--faces", "5,17", "--profile", on)
    assert both["total"] == 19 and both["dc"]["value"] == 11
    instead = profile(tmp_path, "instead.yaml", use_advantage="true", advantage_mode="instead")
    taken = ok(capsys, "check", "2", "--dc", "14", "--adv", "--easy", "1", "--faces", "5,17", "--profile", instead)
    assert taken["total"] == 19 and taken["dc"]["value"] == 14


def contest(capsys: pytest.CaptureFixture[str], faces: str, *extra: str) -> Any:
    return ok(capsys, "contest", "14", "11", "--names", "Brakka,Ogre", "--option", "contested_checks=true",
              "--faces", faces, *extra)


@pytest.mark.rule("F-OPT-02")
def test_F_OPT_02_a_contest_is_two_roll_under_d20s(capsys: pytest.CaptureFixture[str]) -> None:
    """F-OPT-02 (AMB-53): each side rolls d20 at or under its ability score (Brakka STR 14, the ogre 11). 5 and
    11: both under, the higher roll wins (the ogre); 9 and 9: a tie, the higher score (Brakka); 15 and 3: only
    the ogre is under; 16 and 13: both over, the closer (Brakka, 2 over against 2 over: a tie, then the
    higher score), and 18 and 12: the ogre is 1 over, Brakka 4 (the ogre); under contested_both_fail reroll they
    roll again next turn. Off, it is refused."""
    assert contest(capsys, "5,11")["winner"] == "Ogre"
    assert contest(capsys, "9,9")["winner"] == "Brakka"
    assert contest(capsys, "15,3")["winner"] == "Ogre"
    assert contest(capsys, "16,13")["winner"] == "Brakka"
    assert contest(capsys, "18,12")["winner"] == "Ogre"
    again = contest(capsys, "18,12", "--option", "contested_both_fail=reroll")
    assert again["winner"] is None and again["reroll"] == "next turn"
    code, _, err = run(capsys, "contest", "14", "11", "--faces", "5,11")
    assert code == 2 and "contested_checks is off" in err


@pytest.mark.rule("F-OPT-03")
def test_F_OPT_03_effort_is_rolled_after_each_successful_CHECK_until_the_task_is_done(
        capsys: pytest.CaptureFixture[str]) -> None:
    """F-OPT-03 (F-TAB-41, AMB-54): each attempt is a CHECK vs the ROOM DC (12); a success rolls effort, 1d8 +
    mod with PROF, 1d4 + mod without; the task needs the ROOM DC (or what the referee sets). MOD +2, PROF 1:
    13 + 3 = 16, effort 6 + 2 = 8; 3 + 3 = 6 fails; 16 + 3, effort 1 + 2 = 3: 11 ≥ 10, done after three.
    Without PROF: 12 + 2 = 14, effort 1d4 4 + 2 = 6 of 12, then 4 + 2 = 6 more: 12, done."""
    out = ok(capsys, "effort", "--needed", "10", "--mod", "2", "--prof", "1", "--attempts", "5",
             "--option", "effort=true", "--faces", "13,6,3,16,1")
    assert (out["progress"], out["done"], len(out["attempts"])) == (11, True, 3)
    assert [a["effort"]["value"] if a["effort"] else None for a in out["attempts"]] == [8, None, 3]
    assert out["attempts"][0]["effort"]["roll"]["expression"] == "1d8+MOD"
    plain = ok(capsys, "effort", "--mod", "2", "--attempts", "3", "--option", "effort=true", "--faces", "12,4,10,4")
    assert plain["needed"] == 12 and plain["progress"] == 12 and plain["done"]
    assert plain["attempts"][0]["effort"]["roll"]["expression"] == "1d4+MOD"
    code, _, err = run(capsys, "effort", "--faces", "12,4")
    assert code == 2 and "effort is off" in err


@pytest.mark.rule("F-OPT-06")
def test_F_OPT_06_a_skill_challenge_ends_at_its_successes_or_its_failures(capsys: pytest.CaptureFixture[str]) -> None:
    """F-OPT-06 (AMB-55): creative CHECKs against the DC (14) until the threshold (3 successes), or the
    failures the option skill_challenge_failures allows (3; 2 here). 20+2, 19+4, 2+1, 2+3, 17+0: three
    successes in five, won; with 2 failures allowed, the fourth CHECK loses it."""
    args = ["challenge", "--dc", "14", "--needs", "3", "--mod", "2", "--mod", "4", "--mod", "1", "--mod", "3",
            "--mod", "0", "--option", "skill_challenges=true"]
    won = ok(capsys, *args, "--faces", "20,19,2,2,17")
    assert (won["status"], won["successes"], won["failures"], won["failure_threshold"]) == ("succeeded", 3, 2, 3)
    lost = ok(capsys, *args, "--option", "skill_challenge_failures=2", "--faces", "20,19,2,2")
    assert (lost["status"], lost["successes"], lost["failures"], len(lost["checks"])) == ("failed", 2, 2, 4)


@pytest.mark.rule("F-CMBT-04")
def test_F_CMBT_04_a_stunts_CHECK_makes_the_follow_up_EASY_or_HARD(capsys: pytest.CaptureFixture[str]) -> None:
    """F-CMBT-04: a skill CHECK vs the ROOM DC first; success makes the follow-up EASY, failure HARD. Brakka
    (STR +1, not proficient in Athletics) leaps the table: 11 + 1 = 12 ≥ 12, EASY; 10 + 1 = 11, HARD."""
    leap = ok(capsys, "stunt", BRAKKA, "--skill", "Athletics", "--faces", "11")
    assert leap["check"]["total"] == 12 and leap["follow_up"] == "EASY"
    fall = ok(capsys, "stunt", BRAKKA, "--skill", "Athletics", "--faces", "10")
    assert fall["check"]["total"] == 11 and fall["follow_up"] == "HARD"
    scare = ok(capsys, "stunt", BRAKKA, "--skill", "Intimidation", "--room-dc", "14", "--faces", "10")
    assert scare["check"]["total"] == 10 - 1 + 2 and scare["follow_up"] == "HARD"       # CHA −1, PROF 2


@pytest.mark.rule("F-OPT-05")
def test_F_OPT_05_PC_morale_is_a_WIS_SAVE_against_the_ROOM_DC(capsys: pytest.CaptureFixture[str]) -> None:
    """F-OPT-05: a WIS SAVE vs the ROOM DC (+ PROF only when WIS is one of her saves). Brakka (WIS 13: +1, saves
    STR) rolls 13 against 14: 14, holds; 12: 13, fails. Ilse (WIS 6: −1, saves WIS, PROF 2) on 13: 14."""
    held = ok(capsys, "pc-morale", BRAKKA, "--room-dc", "14", "--option", "pc_morale=true", "--faces", "13")
    assert (held["kind"], held["total"], held["success"]) == ("SAVE", 14, True)
    broke = ok(capsys, "pc-morale", BRAKKA, "--room-dc", "14", "--option", "pc_morale=true", "--faces", "12")
    assert (broke["total"], broke["success"]) == (13, False)
    ilse = ok(capsys, "pc-morale", str(EXAMPLES / "characters" / "ilse.json"), "--room-dc", "14",
              "--option", "pc_morale=true", "--faces", "13")
    assert ilse["total"] == 14 and [m["value"] for m in ilse["modifiers"]] == [-1, 2]
    code, _, err = run(capsys, "pc-morale", BRAKKA, "--faces", "13")
    assert code == 2 and "pc_morale is off" in err


@pytest.mark.rule("F-LUCK-02")
def test_F_LUCK_02_a_luck_die_earned_at_three_is_lost(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """F-LUCK-02: at most 3 Luck Dice; one earned at the cap is lost. Wren holds 2 and misses a wall (AC 40)
    every round: the second miss in a row earns her third die (2 → 3), the third and fourth earn dice she
    cannot hold (3 → 3, lost); she ends the fight with 3."""
    wren = tmp_path / "wren.json"
    shutil.copy(EXAMPLES / "characters" / "wren.json", wren)
    wren.write_text(json.dumps({**json.loads(wren.read_text(encoding="utf-8")), "luck_dice": 2}), encoding="utf-8")
    fight = tmp_path / "wall.yaml"
    fight.write_text(yaml.safe_dump({"name": "the wall", "room_dc": 12,
                                     "party": [{"file": "wren.json", "zone": "CLOSE"}],
                                     "monsters": [{"name": "Wall", "hp": 500, "ac": 40, "damage": "1",
                                                   "zone": "CLOSE", "attack_bonus": -30}]}), encoding="utf-8")
    out = ok(capsys, "fight", str(fight), "--seed", "1", "--rounds", "4")
    earned = [(e["data"]["before"], e["data"]["after"], e["data"]["lost"]) for e in out["events"]
              if e["kind"] == "luck_die"]
    assert earned == [(2, 3, False), (3, 3, True), (3, 3, True)]
    assert next(c for c in out["combatants"] if c["id"] == "Wren")["luck_dice"] == 3
