"""The players decide the Fighter's fighting styles that give a choice (F-FTR-04, AMB-45): the 2H weapon master, once
she has seen a 1 among her two-handed weapon's damage dice, may roll each 1 again (the reroll stands); Protection,
once a fight, makes a foe's ATK on an ally near her HARD. Each is asked of her player (`encounter status` lists it),
`encounter answer` (or a flag given with `encounter act`) changes the outcome by the rule's numbers, and a kind the
referee keeps quiet is decided by the standing answer. Dice are entered (`--faces`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.conftest import Run
from tests.cli.fight_table import campaign as _campaign
from tests.cli.fight_table import encounter as _encounter
from tests.cli.fight_table import one as _one
from tests.cli.fight_table import sheet as _sheet

LONGSWORD = {"name": "longsword", "category": "martial", "kind": "two-handed", "damage": "1d10", "tags": []}


# -- (d) 2H weapon master ---------------------------------------------------------------------------------------------
@pytest.fixture
def greatsword(furnace: Run, tmp_path: Path) -> Run:
    """Bo's Brakka, a 2H weapon master with a longsword (ATK +3, DAM 1d10ro1+2), against a goblin (HP 7, AC 10);
    the party acts first."""
    sheet = _sheet(tmp_path, "brakka", fighting_style="2H weapon master", shield=False, weapons=[LONGSWORD])
    run = _campaign(furnace, (sheet, "Bo"))
    code, _, err = run("encounter", "start", "--party", "Brakka", "--monsters", "goblin", "--faces", "8,6,1")
    assert code == 0, err
    assert _one(run, "goblin")["hp"] == 7
    return run


def _swing(run: Run, *flags: str, faces: str = "15,1") -> str:
    """d20 15 + 3 = 18 hits; the longsword's d10 shows 1."""
    code, out, err = run("encounter", "act", "brak1", "attack", "goblin", "--no-rage", *flags, "--faces", faces)
    assert code == 0, err
    return out


@pytest.mark.rule("F-FTR-04")
def test_F_FTR_04_the_2h_weapon_master_is_asked_once_she_has_seen_a_1_on_her_damage_die(greatsword: Run) -> None:
    out = _swing(greatsword)
    assert ("may use her fighting style (2H weapon master: the longsword DAM shows [1]; roll each 1 again): yes | no? "
            "(question q1)") in out
    assert "deals" not in out and _one(greatsword, "goblin")["hp"] == 7        # the blow waits for her answer
    assert _encounter(greatsword)["questions"] == [
        {"id": "q1", "owner": "brak1", "player": "Bo", "kind": "power", "options": ["yes", "no"],
         "about": {"power": "two_handed", "faces": [1], "ones": 1, "weapon": "longsword"},
         "rules": ["F-FTR-04", "AMB-45"]}]


@pytest.mark.rule("F-FTR-04")
def test_F_FTR_04_yes_rolls_the_1_again_and_the_new_face_stands(greatsword: Run) -> None:
    _swing(greatsword)
    code, out, err = greatsword("encounter", "answer", "q1", "--power", "--faces", "6")
    assert code == 0, err
    assert "2H weapon master: rolls her 1s again: 6" in out and "DAM: 1d10ro1+2 → [~~1~~→6] + 2 = 8" in out
    assert "answers q1, use her fighting style (2H weapon master): yes" in out      # the answer names the style
    assert _one(greatsword, "goblin")["hp"] == 7 - (6 + 2)


@pytest.mark.rule("F-FTR-04")
def test_F_FTR_04_a_reroll_that_shows_1_again_stands_too(greatsword: Run) -> None:
    _swing(greatsword)
    code, out, _ = greatsword("encounter", "answer", "q1", "--power", "--faces", "1")
    assert code == 0 and "[~~1~~→1] + 2 = 3" in out and "question q2" not in out      # once: no second reroll
    assert _one(greatsword, "goblin")["hp"] == 7 - 3


@pytest.mark.rule("F-FTR-04")
def test_F_FTR_04_no_keeps_the_1_and_rolls_no_die_more(greatsword: Run) -> None:
    _swing(greatsword)
    code, out, err = greatsword("encounter", "answer", "q1", "--no-power")
    assert code == 0, err
    assert "rolls her 1s again" not in out and "DAM: 1d10+2 → [1] + 2 = 3" in out
    assert _one(greatsword, "goblin")["hp"] == 7 - (1 + 2)


@pytest.mark.rule("F-FTR-04")
def test_F_FTR_04_no_1_no_question(greatsword: Run) -> None:
    out = _swing(greatsword, faces="15,5")
    assert "(question q" not in out and "DAM: 1d10ro1+2 → [5] + 2 = 7" in out
    assert _one(greatsword, "goblin")["hp"] == 0


@pytest.mark.rule("F-FTR-04")
def test_F_FTR_04_a_flag_on_act_answers_ahead(greatsword: Run) -> None:
    out = _swing(greatsword, "--no-power")
    assert "(question q" not in out and _one(greatsword, "goblin")["hp"] == 4


@pytest.mark.rule("F-FTR-04")
def test_F_FTR_04_quiet_2h_style_is_the_standing_answer(greatsword: Run) -> None:
    code, out, _ = greatsword("encounter", "standing", "--quiet", "power")
    assert code == 0 and "not asked: power" in out
    out = _swing(greatsword, faces="15,1,6")                          # keen (the default): every 1 again, as before
    assert "(question q" not in out and "[~~1~~→6] + 2 = 8" in out and _one(greatsword, "goblin")["hp"] == -1


@pytest.mark.rule("F-FTR-04")
def test_F_FTR_04_quiet_under_never_keeps_the_1(greatsword: Run) -> None:
    greatsword("encounter", "standing", "--policy", "Bo=never", "--quiet", "power")
    out = _swing(greatsword)
    assert "(question q" not in out and "[1] + 2 = 3" in out and _one(greatsword, "goblin")["hp"] == 4


# -- (e) Protection ---------------------------------------------------------------------------------------------------
@pytest.fixture
def guard(furnace: Run, tmp_path: Path) -> Run:
    """Bo's Brakka with Protection and Cy's Sister Ilse (HP 11, AC 10 without her shield), both NEAR, against a
    goblin (ATK +0) that acts first and goes for Ilse (the fewest HP)."""
    brakka = _sheet(tmp_path, "brakka", fighting_style="Protection")
    run = _campaign(furnace, (brakka, "Bo"), (_sheet(tmp_path, "ilse", shield=False), "Cy"))
    code, _, err = run("encounter", "start", "--party", "Brakka", "--party", "Sister Ilse", "--monsters", "goblin",
                       "--faces", "5,1,6")
    assert code == 0, err
    assert "Protection" in _one(run, "brak1")["powers"]
    return run


def _goblin_attacks(run: Run) -> str:
    code, out, err = run("encounter", "next")
    assert code == 0, err
    return out


@pytest.mark.rule("F-FTR-04")
def test_F_FTR_04_protection_is_asked_as_a_foe_attacks_an_ally_near_her(guard: Run) -> None:
    out = _goblin_attacks(guard)
    assert ("Brakka: may use her fighting style (Protection, once a fight: Goblin's ATK on Sister Ilse is HARD): "
            "yes | no? (question q1)") in out
    assert _encounter(guard)["questions"] == [
        {"id": "q1", "owner": "brak1", "player": "Bo", "kind": "power", "options": ["yes", "no"],
         "about": {"power": "protection", "ally": "Sister Ilse", "foe": "Goblin", "mode": "HARD"},
         "rules": ["F-FTR-04", "AMB-45"]}]


@pytest.mark.rule("F-FTR-04")
def test_F_FTR_04_protection_makes_that_atk_hard_once_a_fight(guard: Run) -> None:
    _goblin_attacks(guard)
    code, out, err = guard("encounter", "answer", "q1", "--power", "--faces", "12")
    assert code == 0, err
    assert "Protection: the ATK on Sister Ilse is HARD" in out
    assert "answers q1, use her fighting style (Protection): yes" in out
    assert "misses Sister Ilse with notched blade (12 vs AC 13: AC 10, HARD" in out     # HARD: AC 10 → 13
    assert _one(guard, "sist1")["hp"] == 11 and _one(guard, "brak1")["powers"] == {}
    assert _one(guard, "sist1")["held"] == []                                           # one ATK only


@pytest.mark.rule("F-FTR-04")
def test_F_FTR_04_no_protection_the_atk_meets_her_plain_ac_and_it_is_kept(guard: Run) -> None:
    _goblin_attacks(guard)
    code, out, err = guard("encounter", "answer", "q1", "--no-power", "--faces", "12,3")
    assert code == 0, err
    assert "hits Sister Ilse with notched blade (12 vs AC 10)" in out and _one(guard, "sist1")["hp"] == 11 - 3
    assert "Protection" in _one(guard, "brak1")["powers"]                              # kept for a later ATK


@pytest.mark.rule("F-FTR-04")
def test_F_FTR_04_quiet_protection_is_the_standing_answer(guard: Run) -> None:
    guard("encounter", "standing", "--policy", "Bo=never", "--quiet", "power")
    code, out, err = guard("encounter", "next", "--faces", "12,3")
    assert code == 0, err
    assert "(question q" not in out and "Protection" not in out and "(12 vs AC 10)" in out
    assert _one(guard, "sist1")["hp"] == 8


@pytest.mark.rule("F-FTR-04")
def test_F_FTR_04_quiet_protection_under_the_default_policy_is_used_at_once(guard: Run) -> None:
    guard("encounter", "standing", "--quiet", "power")
    code, out, err = guard("encounter", "next", "--faces", "12")
    assert code == 0, err
    assert "(question q" not in out and "Protection: the ATK on Sister Ilse is HARD" in out
    assert "(12 vs AC 13: AC 10, HARD" in out
    assert _one(guard, "sist1")["hp"] == 11
