"""The players decide the fight's powers too: Cleave and the foe it goes into (F-FTR-03), the Bloodshaman's Chosen one
and Rally (F-ARCH-03), a helmet's save vs. death on the head or the skull (M-SEVER-01, M-BONE-01). Each is asked
(`encounter status` lists it with its id), and `encounter answer` (or a flag given with `encounter act`) changes the
outcome by the rule's numbers; a kind the referee keeps quiet is decided by the standing answer; `--policy` decides
it in `fight` and `simulate`. Dice are entered (`--faces`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.conftest import Run
from tests.cli.fight_table import campaign as _campaign
from tests.cli.fight_table import encounter as _encounter
from tests.cli.fight_table import one as _one
from tests.cli.fight_table import sheet as _sheet


def _hp(run: Run) -> dict[str, int]:
    return {c["id"]: c["hp"] for c in _encounter(run)["combatants"]}


# -- Cleave ------------------------------------------------------------------------------------------------------
@pytest.fixture
def pit(furnace: Run, tmp_path: Path) -> Run:
    """Bo's Brakka (Fighter 3 with Cleave; ATK +3, 1d8+1) and three goblins (HP 4, 2, 4; AC 10) that close in and
    miss: all CLOSE, and Brakka is due."""
    run = _campaign(furnace, (_sheet(tmp_path, "brakka"), "Bo"))
    code, _, err = run("encounter", "start", "--party", "Brakka", "--monsters", "goblin x3", "--faces", "5,3,5,1,6")
    assert code == 0, err
    code, _, err = run("encounter", "next", "--faces", "2,2,2")
    assert code == 0, err
    return run


def _kill_goblin_2(run: Run, *flags: str) -> str:
    """d20 15 + 3 = 18 hits; 1d8 3 + 1 = 4 DAM on Goblin 2's HP 2: 2 DAM left over."""
    code, out, err = run("encounter", "act", "brak1", "attack", "goblin-2", "--no-rage", *flags, "--faces", "15,3")
    assert code == 0, err
    return out


@pytest.mark.rule("F-FTR-03")
def test_F_FTR_03_a_lethal_blow_asks_whether_to_cleave_and_into_which_foe_close(pit: Run) -> None:
    out = _kill_goblin_2(pit)
    assert ("may cleave past Goblin 2 with 2 remaining damage into Goblin 1 (goblin-1) or Goblin 3 (goblin-3): "
            "goblin-1 | goblin-3 | no? (question q1)") in out
    asked = _encounter(pit)["questions"]
    assert asked == [{"id": "q1", "owner": "brak1", "player": "Bo", "kind": "cleave",
                      "options": ["goblin-1", "goblin-3", "no"],
                      "about": {"killed": "Goblin 2", "overflow": 2, "new_attack": False,
                                "foes": {"goblin-1": "Goblin 1", "goblin-3": "Goblin 3"}},
                      "rules": ["F-FTR-03", "AMB-01"]}]            # names and ids: no foe's AC or HP
    code, out, _ = pit("encounter", "answer", "q1", "--cleave", "goblin-3")
    assert code == 0 and "cleaves: 2 remaining damage to Goblin 3" in out
    assert _hp(pit) == {"brak1": 22, "goblin-1": 4, "goblin-2": -2, "goblin-3": 4 - 2}


@pytest.mark.rule("F-FTR-03")
def test_F_FTR_03_no_cleave_leaves_the_second_foe_unhurt(pit: Run) -> None:
    _kill_goblin_2(pit)
    code, out, _ = pit("encounter", "answer", "q1", "--no-cleave")
    assert code == 0 and "cleaves" not in out
    assert _hp(pit) == {"brak1": 22, "goblin-1": 4, "goblin-2": -2, "goblin-3": 4}


@pytest.mark.rule("F-FTR-03")
def test_F_FTR_03_a_bare_cleave_goes_into_the_first_foe_and_a_flag_on_act_asks_nothing(pit: Run) -> None:
    out = _kill_goblin_2(pit, "--cleave", "goblin-3")
    assert "question" not in out and "cleaves: 2 remaining damage to Goblin 3" in out
    assert _hp(pit)["goblin-3"] == 2 and _hp(pit)["goblin-1"] == 4


@pytest.mark.rule("F-FTR-03")
def test_F_FTR_03_a_bare_cleave_answer_takes_the_first_foe_close(pit: Run) -> None:
    _kill_goblin_2(pit)
    code, out, _ = pit("encounter", "answer", "q1", "--cleave")
    assert code == 0 and "cleaves: 2 remaining damage to Goblin 1" in out
    assert _hp(pit)["goblin-1"] == 2 and _hp(pit)["goblin-3"] == 4
    code, _, err = pit("encounter", "answer", "q1", "--cleave", "goblin-2")
    assert code == 2 and "no open question 'q1'" in err


@pytest.mark.rule("F-FTR-03")
def test_F_FTR_03_a_foe_not_close_is_refused_and_the_question_stays_open(pit: Run) -> None:
    _kill_goblin_2(pit)
    code, _, err = pit("encounter", "answer", "q1", "--cleave", "goblin-9")
    assert code == 2 and "q1 takes goblin-1 | goblin-3 | no, not goblin-9" in err
    code, _, err = pit("encounter", "next")
    assert code == 2 and "furnace encounter answer q1 --cleave FOE | --no-cleave" in err


@pytest.mark.rule("F-FTR-03")
def test_F_FTR_03_quiet_cleave_is_the_standing_answer(pit: Run) -> None:
    code, out, _ = pit("encounter", "standing", "--policy", "Bo=never", "--quiet", "cleave")
    assert code == 0 and "not asked: cleave" in out
    out = _kill_goblin_2(pit)                                      # never: no cleave, and nobody is asked
    assert "question" not in out and "cleaves" not in out
    assert _hp(pit)["goblin-1"] == 4 and _hp(pit)["goblin-3"] == 4


@pytest.mark.rule("F-FTR-03")
def test_F_FTR_03_quiet_under_the_default_policy_cleaves_into_the_first_foe(pit: Run) -> None:
    pit("encounter", "standing", "--quiet", "cleave")
    out = _kill_goblin_2(pit)                                      # keen (the profile's default_policy)
    assert "question" not in out and "cleaves: 2 remaining damage to Goblin 1" in out


# -- the Bloodshaman's once-a-fight powers ---------------------------------------------------------------------------
def _chapel(furnace: Run, folder: Path, *powers: str) -> Run:
    """Bo's Brakka (ATK +3) and Cy's Sister Ilse (a Bloodshaman: ATK +4 with her mace, 1d6+2) with `powers`, against
    a goblin (HP 4, AC 10); the party acts first, Brakka waits, and Ilse is due."""
    ilse = _sheet(folder, "ilse", archetype_features=["martial-weapon", *powers])
    run = _campaign(furnace, (_sheet(folder, "brakka"), "Bo"), (ilse, "Cy"))
    code, _, err = run("encounter", "start", "--party", "Brakka", "--party", "Sister Ilse", "--monsters", "goblin",
                       "--faces", "5,6,1")
    assert code == 0, err
    assert run("encounter", "act", "brak1", "wait")[0] == 0
    return run


@pytest.mark.rule("F-ARCH-03")
def test_F_ARCH_03_chosen_one_is_asked_once_she_has_seen_her_atk_miss_and_the_reroll_stands(
        furnace: Run, tmp_path: Path) -> None:
    run = _chapel(furnace, tmp_path, "chosen-one")
    code, out, _ = run("encounter", "act", "sist1", "attack", "goblin", "--faces", "3")     # 3 + 4 = 7
    assert code == 0 and "may use a once-a-fight power (Chosen one: roll the ATK 7 again): yes | no? (question q1)" \
        in out
    assert _encounter(run)["questions"][0]["about"] == {"power": "chosen_one", "roll": "ATK", "total": 7,
                                                         "natural": 3}
    code, out, _ = run("encounter", "answer", "q1", "--power", "--faces", "15,2")
    assert code == 0 and "Chosen one: the ATK of 7 is rolled again: 19" in out       # 15 + 4
    assert "hits Goblin with mace (19 vs AC 10)" in out and _hp(run)["goblin"] == 4 - (2 + 2)
    assert "chosen-one" not in _one(run, "sist1")["powers"]                          # once a fight


@pytest.mark.rule("F-ARCH-03")
def test_F_ARCH_03_declining_chosen_one_keeps_the_miss_and_the_power(furnace: Run, tmp_path: Path) -> None:
    run = _chapel(furnace, tmp_path, "chosen-one")
    run("encounter", "act", "sist1", "attack", "goblin", "--faces", "3")
    code, out, _ = run("encounter", "answer", "q1", "--no-power")
    assert code == 0 and "misses Goblin with mace (7 vs AC 10)" in out and _hp(run)["goblin"] == 4
    assert "chosen-one" in _one(run, "sist1")["powers"]


@pytest.mark.rule("F-ARCH-03")
def test_F_ARCH_03_rally_asks_which_ally_and_makes_her_next_atk_easy(furnace: Run, tmp_path: Path) -> None:
    run = _chapel(furnace, tmp_path, "rally")
    code, out, _ = run("encounter", "act", "sist1", "attack", "goblin")
    assert code == 0 and ("may use a once-a-fight power (Rally: the next ATK of Brakka (brak1) is EASY): "
                          "brak1 | no? (question q1)") in out
    code, out, _ = run("encounter", "answer", "q1", "--power", "brak1", "--faces", "3")   # Ilse: 3 + 4 = 7 misses
    assert code == 0 and "rallies Brakka: her next ATK is EASY" in out
    assert "rally" not in _one(run, "sist1")["powers"]
    assert run("encounter", "next", "--faces", "2")[0] == 0                              # the goblin misses
    code, out, _ = run("encounter", "act", "brak1", "attack", "goblin", "--no-rage", "--faces", "5,3")
    assert code == 0 and "hits Goblin with arming sword (8 vs AC 7: AC 10, EASY" in out   # AC 10 EASY: 7
    assert _hp(run)["goblin"] == 0                                                      # 1d8 3 + 1


@pytest.mark.rule("F-ARCH-03")
def test_F_ARCH_03_no_rally_leaves_the_ally_her_plain_atk(furnace: Run, tmp_path: Path) -> None:
    run = _chapel(furnace, tmp_path, "rally")
    run("encounter", "act", "sist1", "attack", "goblin")
    code, out, _ = run("encounter", "answer", "q1", "--no-power", "--faces", "3")
    assert code == 0 and "rallies" not in out and "rally" in _one(run, "sist1")["powers"]
    run("encounter", "next", "--faces", "2")
    code, out, _ = run("encounter", "act", "brak1", "attack", "goblin", "--no-rage", "--faces", "5")
    assert code == 0 and "misses Goblin with arming sword (8 vs AC 10)" in out


@pytest.mark.rule("F-ARCH-03")
def test_F_ARCH_03_quiet_power_is_decided_by_the_standing_answer(furnace: Run, tmp_path: Path) -> None:
    run = _chapel(furnace, tmp_path, "chosen-one")
    run("encounter", "standing", "--policy", "Cy=never", "--quiet", "power")
    code, out, _ = run("encounter", "act", "sist1", "attack", "goblin", "--faces", "3")
    assert code == 0 and "question" not in out and "misses Goblin with mace (7 vs AC 10)" in out


# -- a helmet's save vs. death (Middle Sea) --------------------------------------------------------------------------
@pytest.fixture
def skull(furnace: Run, tmp_path: Path) -> Run:
    """Under middle-sea, Bo's Brakka (HP 3, a helmet, no shield, CON SAVE +0) takes a goblin's 5: 2 past 0, so
    3d6 4+4+5 + 2 = 15 is a broken bone (M-TAB-01), and the d10 10 the skull (M-BONE-01)."""
    run = _campaign(furnace, (_sheet(tmp_path, "brakka", hp=3, helmet=True, shield=False), "Bo"),
                    profile="middle-sea")
    code, _, err = run("encounter", "start", "--party", "Brakka", "--monsters", "goblin", "--faces", "5,1,6")
    assert code == 0, err
    code, out, err = run("encounter", "next", "--faces", "18,5,4,4,5,10")
    assert code == 0, err
    assert ("may make her helmet's save vs. death on her skull (Skull: a fatal wound; with a helmet, a save vs. "
            "death (CON SAVE) ignores it.): yes | no? (question q1)") in out
    return run


@pytest.mark.rule("M-BONE-01")
def test_M_BONE_01_the_wearer_may_make_her_helmets_save_and_a_success_ignores_the_skull(skull: Run) -> None:
    code, out, _ = skull("encounter", "answer", "q1", "--helmet-save", "--faces", "15")
    assert code == 0 and "CON SAVE 15 vs DC 10: saved" in out and "the broken Skull is ignored" in out
    brakka = _one(skull, "brak1")
    assert (brakka["hp"], brakka["held"], brakka["doomed_round"]) == (0, [], None)


@pytest.mark.rule("M-BONE-01", "M-GRIEV-07")
def test_M_BONE_01_without_the_save_the_skull_is_a_fatal_wound(skull: Run) -> None:
    code, out, _ = skull("encounter", "answer", "q1", "--no-helmet-save", "--faces", "3,2,2")
    assert code == 0 and "vs DC" not in out and "will die in 3 exploration turns" in out
    brakka = _one(skull, "brak1")
    assert [h["name"] for h in brakka["held"]] == ["UNCONSCIOUS"] and brakka["doomed_round"] == 1 + 3 * 10


@pytest.mark.rule("M-SEVER-01")
def test_M_SEVER_01_the_head_asks_too_and_quiet_makes_the_save(furnace: Run, tmp_path: Path) -> None:
    """HP 3, a blow of 5: 3d6 6+6+5 + 2 = 19, a severed limb (M-TAB-01); the d12 11 the head (M-SEVER-01). Quiet,
    the standing answer makes the save: CON SAVE 14 vs DC 10, STUNNED 1 round instead of death (the goblin's next
    ATK, 3, misses)."""
    run = _campaign(furnace, (_sheet(tmp_path, "brakka", hp=3, helmet=True, shield=False), "Bo"),
                    profile="middle-sea")
    run("encounter", "start", "--party", "Brakka", "--monsters", "goblin", "--faces", "5,1,6")
    run("encounter", "standing", "--quiet", "helmet")
    code, out, err = run("encounter", "next", "--faces", "18,5,6,6,5,11,14,3")
    assert code == 0, err
    assert "question" not in out and "CON SAVE 14 vs DC 10: saved" in out and "Brakka: is STUNNED" in out
    assert "the helmet saves the head" in out and _one(run, "brak1")["status"] == "up"


# -- standing answers in fight and simulate --------------------------------------------------------------------------
PIT = """name: The goblin pit
room_dc: 10
initiative: group
party:
  - {file: brakka.json, zone: CLOSE}
monsters:
  - {name: Goblin, count: 4, hp: 1d4, damage: 1d4, weapon: rusty knife, zone: CLOSE}
"""


@pytest.mark.rule("F-FTR-03")
def test_F_FTR_03_a_policy_decides_cleave_in_fight_and_simulate(furnace: Run, tmp_path: Path) -> None:
    _sheet(tmp_path, "brakka")
    (tmp_path / "pit.yaml").write_text(PIT)
    fight = str(tmp_path / "pit.yaml")

    def cleaves(*policy: str) -> int:
        code, out, err = furnace("fight", fight, "--seed", "1", *policy, "--json")
        assert code == 0, err
        return sum(1 for e in json.loads(out)["events"] if e["kind"] == "cleave" and len(e["targets"]) == 2)

    assert cleaves() > 0 and cleaves("--policy", "party=never") == 0
    code, out, err = furnace("simulate", fight, "--fights", "5", "--seed", "1", "--policy", "party=never")
    assert code == 0, err
    assert "party: never (never spends Luck, never sunders, never rages, never cleaves" in out
