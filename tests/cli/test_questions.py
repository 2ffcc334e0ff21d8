"""The players decide: each choice the rules give a player is asked (`encounter status` lists it with its id), and
`encounter answer` (or a flag given with the action) changes the outcome as the rule says. Dice are entered
(`--faces`), so every number below is the rule's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.conftest import Run

BRAKKA = Path(__file__).parents[2] / "examples" / "characters" / "brakka.json"


def _brakka(folder: Path, **changes: object) -> str:
    """Brakka (Fighter 3, Barbarian with Rage; AC 14 with her shield; HP 22; ATK +3, 1d8+1), with changes."""
    data = {**json.loads(BRAKKA.read_text()), **changes}
    path = folder / "brakka.json"
    path.write_text(json.dumps(data))
    return str(path)


@pytest.fixture
def table(furnace: Run, tmp_path: Path) -> Run:
    """A campaign with Bo's Brakka holding 2 Luck Dice, in a fight with one goblin (HP 4, AC 10, ATK +0, 1d6)."""
    assert furnace("campaign", "new", "keep")[0] == 0
    assert furnace("--campaign", "keep", "campaign", "join", _brakka(tmp_path, luck_dice=2), "--player", "Bo")[0] == 0

    def run(*args: str) -> tuple[int, str, str]:
        return furnace("--campaign", "keep", *args)

    return run


def _monsters_first(run: Run) -> None:
    # the goblin's HP 1d8−1 = 4; initiative: the party 1, the monsters 6 (F-INIT-01)
    code, _, err = run("encounter", "start", "--party", "Brakka", "--monsters", "goblin", "--faces", "5,1,6")
    assert code == 0, err


def _party_first(run: Run) -> None:
    code, _, err = run("encounter", "start", "--party", "Brakka", "--monsters", "goblin", "--faces", "5,6,1")
    assert code == 0, err


def _status(run: Run) -> dict[str, object]:
    code, out, err = run("encounter", "status", "--json")
    assert code == 0, err
    return json.loads(out)["encounter"]  # type: ignore[no-any-return]


def _brakka_now(run: Run) -> dict[str, object]:
    found = [c for c in _status(run)["combatants"] if c["id"] == "brak1"]  # type: ignore[attr-defined]
    return found[0]  # type: ignore[no-any-return]


# -- shield sunder -----------------------------------------------------------------------------------------------
@pytest.mark.rule("F-EQ-03")
def test_F_EQ_03_the_bearer_is_asked_and_a_sunder_halves_the_blow_rounded_up_and_costs_the_shield(table: Run) -> None:
    _monsters_first(table)
    code, out, _ = table("encounter", "next", "--faces", "18,5")       # the goblin hits (18 vs AC 14) for 5
    assert code == 0 and "may sunder her shield against a blow of 5 at HP 22" in out and "(question q1)" in out
    code, out, _ = table("encounter", "status")
    assert "open questions:" in out and "q1: Brakka (brak1, Bo's) may sunder her shield" in out
    assert _brakka_now(table)["hp"] == 22                               # the blow waits for her answer
    code, out, _ = table("encounter", "answer", "q1", "--sunder")
    assert code == 0 and "takes 3 of 5; the shield is destroyed, AC 14 → 12" in out   # ceil(5 / 2) = 3
    brakka = _brakka_now(table)
    assert (brakka["hp"], brakka["ac"], brakka["shield"]) == (19, 12, False)


@pytest.mark.rule("F-EQ-03")
def test_F_EQ_03_keeping_the_shield_takes_the_whole_blow(table: Run) -> None:
    _monsters_first(table)
    table("encounter", "next", "--faces", "18,5")
    code, out, _ = table("encounter", "answer", "q1", "--no-sunder")
    assert code == 0 and "sunders" not in out
    brakka = _brakka_now(table)
    assert (brakka["hp"], brakka["ac"], brakka["shield"]) == (17, 14, True)


# -- Luck Dice on a roll just seen -------------------------------------------------------------------------------
@pytest.mark.rule("F-LUCK-03")
def test_F_LUCK_03_a_failed_atk_asks_and_a_luck_die_added_turns_it_into_a_hit(table: Run) -> None:
    _party_first(table)
    code, out, _ = table("encounter", "act", "brak1", "attack", "goblin", "--no-rage", "--faces", "5")
    assert code == 0 and "may spend Luck Dice on ATK 8 (2 held): 0 | 1 | 2? (question q1)" in out   # 5 + 3 = 8
    code, out, _ = table("encounter", "answer", "q1", "--luck", "1", "--faces", "4,6")   # the d6 shows 4: 12
    assert code == 0 and "hits Goblin with arming sword (12 vs AC 10)" in out
    assert _brakka_now(table)["luck_dice"] == 1


@pytest.mark.rule("F-LUCK-03")
def test_F_LUCK_03_no_luck_leaves_the_miss_and_the_dice(table: Run) -> None:
    _party_first(table)
    table("encounter", "act", "brak1", "attack", "goblin", "--no-rage", "--faces", "5")
    code, out, _ = table("encounter", "answer", "q1", "--no-luck")
    assert code == 0 and "misses Goblin with arming sword (8 vs AC 10)" in out
    assert _brakka_now(table)["luck_dice"] == 2


@pytest.mark.rule("F-LUCK-03")
def test_F_LUCK_03_luck_given_with_the_action_is_spent_without_asking(table: Run) -> None:
    _party_first(table)
    code, out, _ = table("encounter", "act", "brak1", "attack", "goblin", "--no-rage", "--luck", "2",
                         "--faces", "5,1,1,6")                       # 8 + 1 + 1 = 10: a hit, then DAM 1d8+1 = 7
    assert code == 0 and "question" not in out and "hits Goblin with arming sword (10 vs AC 10)" in out
    assert _brakka_now(table)["luck_dice"] == 0


@pytest.mark.rule("F-LUCK-03")
def test_F_LUCK_03_before_roll_timing_asks_before_the_atk_is_rolled(table: Run) -> None:
    table("campaign", "override", "set", "luck_spend_timing=before_roll")
    _party_first(table)
    code, out, _ = table("encounter", "act", "brak1", "attack", "goblin", "--no-rage")
    assert code == 0 and "may spend Luck Dice on ATK before the roll (2 held)" in out and "ATK:" not in out
    code, out, _ = table("encounter", "answer", "q1", "--luck", "1", "--faces", "5,4,6")
    assert code == 0 and "hits Goblin with arming sword (12 vs AC 10)" in out


# -- Rage --------------------------------------------------------------------------------------------------------
@pytest.mark.rule("F-ARCH-02")
def test_F_ARCH_02_rage_is_asked_and_raging_adds_prof_to_dam_and_takes_it_from_ac(table: Run) -> None:
    _party_first(table)
    code, out, _ = table("encounter", "act", "brak1", "attack", "goblin")
    assert code == 0 and "may rage (+2 DAM, −2 AC; 1 left): yes | no? (question q1)" in out
    code, out, _ = table("encounter", "answer", "q1", "--rage", "--faces", "15,3")
    assert code == 0 and "1d8+1+2" in out and "= 6" in out            # 3 + 1 + PROF 2
    assert _brakka_now(table)["ac"] == 12


@pytest.mark.rule("F-ARCH-02")
def test_F_ARCH_02_no_rage_keeps_her_ac_and_her_rage(table: Run) -> None:
    _party_first(table)
    table("encounter", "act", "brak1", "attack", "goblin")
    code, out, _ = table("encounter", "answer", "q1", "--no-rage", "--faces", "15,3")
    assert code == 0 and "rages" not in out and "1d8+1 → [3] + 1 = 4" in out
    brakka = _brakka_now(table)
    assert (brakka["ac"], brakka["rages_spent"]) == (14, 0)


# -- the table waits ---------------------------------------------------------------------------------------------
def test_an_open_question_stops_the_table_with_one_error_line_naming_it(table: Run) -> None:
    _monsters_first(table)
    table("encounter", "next", "--faces", "18,5")
    for step in (("encounter", "next"), ("encounter", "act", "brak1", "dodge")):
        code, _, err = table(*step)
        assert code == 2 and err.count("\n") == 1 and err.startswith("error: q1: Brakka (brak1, Bo's) may sunder")
        assert "yes | no" in err and "furnace encounter answer q1 --sunder | --no-sunder" in err
    code, _, err = table("encounter", "answer", "q1", "--luck", "1")
    assert code == 2 and "q1 asks about sunder, not luck" in err
    code, _, err = table("encounter", "answer", "q9", "--sunder")
    assert code == 2 and "no open question 'q9'; open: q1" in err


def test_status_json_lists_the_open_questions_safely(table: Run) -> None:
    _monsters_first(table)
    table("encounter", "next", "--faces", "18,5")
    asked = _status(table)["questions"]
    assert asked == [{"id": "q1", "owner": "brak1", "player": "Bo", "kind": "sunder", "options": ["yes", "no"],
                      "about": {"amount": 5, "hp": 22, "halved": 3}, "rules": ["F-EQ-03", "AMB-36"]}]


def test_standing_answers_and_quiet_kinds_let_the_table_flow(table: Run) -> None:
    _monsters_first(table)
    code, out, _ = table("encounter", "standing", "--policy", "Bo=always", "--quiet", "sunder")
    assert code == 0 and "standing answers: Bo=always; not asked: sunder" in out
    code, out, _ = table("encounter", "next", "--faces", "18,5")       # not asked: "always" sunders
    assert code == 0 and "question" not in out and "takes 3 of 5" in out


# -- Lay on Hands ------------------------------------------------------------------------------------------------
ILSE = Path(__file__).parents[2] / "examples" / "characters" / "ilse.json"


@pytest.fixture
def chapel(furnace: Run, tmp_path: Path) -> Run:
    """Bo's Brakka (HP 5 of 22, 3 Hit Dice of d10, POISONED) and Cy's Sister Ilse (Cleric 3: WIS −1, PROF +2, Lay on
    Hands) against a goblin; the party acts first, Brakka waits, and Ilse is due."""
    assert furnace("campaign", "new", "keep")[0] == 0
    brakka = _brakka(tmp_path, hp=5, conditions=["POISONED"])
    assert furnace("--campaign", "keep", "campaign", "join", brakka, "--player", "Bo")[0] == 0
    assert furnace("--campaign", "keep", "campaign", "join", str(ILSE), "--player", "Cy")[0] == 0

    def run(*args: str) -> tuple[int, str, str]:
        return furnace("--campaign", "keep", *args)

    code, _, err = run("encounter", "start", "--party", "Brakka", "--party", "Sister Ilse", "--monsters", "goblin",
                       "--faces", "5,6,1")
    assert code == 0, err
    assert run("encounter", "act", "brak1", "wait")[0] == 0
    return run


def _roster(run: Run, who: str) -> dict[str, object]:
    code, out, err = run("character", "show", who, "--json")
    assert code == 0, err
    return json.loads(out)["character"]  # type: ignore[no-any-return]


@pytest.mark.rule("F-CLR-05", "F-TAB-06")
def test_F_CLR_05_lay_on_hands_is_a_fight_action_and_the_recipient_chooses_her_hit_dice(chapel: Run) -> None:
    code, out, _ = chapel("encounter", "actions", "sist1")
    assert code == 0 and "lay_on_hands: yes" in out
    code, out, _ = chapel("encounter", "act", "sist1", "lay", "brak1", "--faces", "17")   # 17 − 1 + 2 = 18
    assert code == 0 and "18 → 2 HD; Brakka may spend 2" in out                        # F-TAB-06: 16–20 → 2 HD
    assert "q1: Brakka (brak1, Bo's) may spend her Hit Dice on the Lay on Hands (up to 2): 0 | 1 | 2" in out
    code, out, _ = chapel("encounter", "answer", "q1", "--hit-dice", "2", "--faces", "4,6")
    assert code == 0 and "HP 5 → 9" in out and "HP 9 → 15" in out
    assert chapel("encounter", "end")[0] == 0
    brakka = _roster(chapel, "brak1")
    assert (brakka["hp"], brakka["hit_dice"], brakka["healed_today"]) == (15, 1, 2)


@pytest.mark.rule("F-CLR-05")
def test_F_CLR_05_the_recipient_may_keep_her_hit_dice(chapel: Run) -> None:
    chapel("encounter", "act", "sist1", "lay", "brak1", "--faces", "17")
    code, out, _ = chapel("encounter", "answer", "q1", "--hit-dice", "0")
    assert code == 0 and "heals" not in out
    chapel("encounter", "end")
    assert (_roster(chapel, "brak1")["hp"], _roster(chapel, "brak1")["hit_dice"]) == (5, 3)


@pytest.mark.rule("F-CLR-06")
def test_F_CLR_06_the_cleric_may_cure_a_condition_instead(chapel: Run) -> None:
    code, out, _ = chapel("encounter", "act", "sist1", "lay", "brak1", "--cure", "poisoned", "--faces", "17")
    assert code == 0 and "Lay on Hands cures Brakka's poisoned (no HP healed)" in out and "question" not in out
    chapel("encounter", "end")
    brakka = _roster(chapel, "brak1")
    assert (brakka["conditions"], brakka["hp"], brakka["hit_dice"]) == ([], 5, 3)


@pytest.mark.rule("F-CLR-05")
def test_F_CLR_05_a_failed_spellcheck_heals_nothing_and_asks_nothing(chapel: Run) -> None:
    code, out, _ = chapel("encounter", "act", "sist1", "lay", "brak1", "--faces", "5")   # 6 < 12
    assert code == 0 and "question" not in out and "heals" not in out


# -- Luck on a SPELLCHECK and on a crit table ----------------------------------------------------------------------
MAELIS = Path(__file__).parents[2] / "examples" / "characters" / "maelis.json"


@pytest.mark.rule("F-SPELL-09", "F-LUCK-03")
def test_F_SPELL_09_a_failed_spellcheck_asks_and_luck_lifts_it_one_step(furnace: Run, tmp_path: Path) -> None:
    data = {**json.loads(MAELIS.read_text()), "luck_dice": 1}          # INT −1, PROF +2, Fireball
    (tmp_path / "maelis.json").write_text(json.dumps(data))
    furnace("campaign", "new", "keep")
    furnace("--campaign", "keep", "campaign", "join", str(tmp_path / "maelis.json"), "--player", "Di")
    furnace("--campaign", "keep", "encounter", "start", "--party", "Maelis", "--monsters", "goblin", "--faces", "5,6,1")
    code, out, _ = furnace("--campaign", "keep", "encounter", "act", "mael1", "cast", "goblin", "--spell", "Fireball",
                           "--faces", "9")                                   # 9 − 1 + 2 = 10: a Failure
    assert code == 0 and "may spend Luck Dice on SPELLCHECK 10 (1 held): 0 | 1? (question q1)" in out
    code, out, _ = furnace("--campaign", "keep", "encounter", "answer", "q1", "--luck", "1", "--faces", "4,3")
    assert code == 0 and "total 10 → 14, SL 0 → 1 (at most one step)" in out and "Fireball deals 3 fire DAM" in out


@pytest.mark.rule("F-LUCK-03", "F-CRIT-01")
def test_F_LUCK_03_luck_may_be_added_to_a_crit_table_roll(table: Run) -> None:
    _party_first(table)
    code, out, _ = table("encounter", "act", "brak1", "attack", "goblin", "--no-rage", "--faces", "20,3")
    assert code == 0 and "may spend Luck Dice on crit die 3 (2 held)" in out      # the level-3 crit die, a d10
    code, out, _ = table("encounter", "answer", "q1", "--luck", "1", "--faces", "4")
    assert code == 0 and "crit table: 7 on the d10 for level 3" in out


@pytest.mark.rule("F-CLR-05", "F-CLR-07")
def test_F_CLR_05_lay_on_hands_out_of_a_fight_is_a_command(furnace: Run, tmp_path: Path) -> None:
    furnace("campaign", "new", "keep")
    furnace("--campaign", "keep", "campaign", "join", _brakka(tmp_path, hp=5), "--player", "Bo")
    furnace("--campaign", "keep", "campaign", "join", str(ILSE), "--player", "Cy")
    code, out, err = furnace("--campaign", "keep", "lay-on-hands", "Sister Ilse", "Brakka", "--faces", "17,4,6")
    assert code == 0, err
    assert "18 → 2 HD; Brakka may spend 2 (pool 3, today 0/3)" in out
    brakka = json.loads(furnace("--campaign", "keep", "character", "show", "brak1", "--json")[1])["character"]
    assert (brakka["hp"], brakka["hit_dice"], brakka["healed_today"]) == (15, 1, 2)
