"""Checks and DCs (`furnace.play.checks`): d20 + modifiers vs DC, EASY/HARD, advantage.

RULES.md F.1 (F-BASE-02 CHECK, F-BASE-03 ROOM DC, F-BASE-04 EASY/HARD), F.17 (F-OPT-01 advantage),
AMB-04, AMB-06, AMB-56.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from furnace.errors import FurnaceError
from furnace.play.checks import (
    DC,
    CheckError,
    Difficulty,
    Modifier,
    OptionOffError,
    check,
    make_dc,
    net_advantage,
    plain_dc,
)
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import dice

RULES = load_ruleset()
ADV = RULES.with_options({"use_advantage": True})
DEX2 = [Modifier(2, "DEX")]


# -- F-BASE-02 CHECK: meet or beat, natural rolls (AMB-06) ----------------------------------------------------
def test_F_BASE_02_tie_meets_the_dc_and_succeeds() -> None:
    """F-BASE-02, AMB-06: d20 13 + DEX 2 = 15 vs DC 15 succeeds (meet or beat); 12 + 2 = 14 fails."""
    hit = check(dice(13), 15, DEX2, rules=RULES)
    assert (hit.total, hit.success, hit.natural) == (15, True, 13)
    miss = check(dice(12), 15, DEX2, rules=RULES)
    assert (miss.total, miss.success) == (14, False)


def test_F_BASE_02_check_ties_fail_option_needs_to_beat() -> None:
    """F-BASE-02, AMB-06 alternative (check_ties: fail): 15 vs DC 15 fails, 16 succeeds."""
    rules = RULES.with_options({"check_ties": "fail"})
    assert not check(dice(13), 15, DEX2, rules=rules).success
    assert check(dice(14), 15, DEX2, rules=rules).success


def test_F_BASE_02_modifiers_add_with_their_sources() -> None:
    """F-BASE-02: ability modifier plus PROF; each modifier is listed with its source."""
    result = check(dice(10), 14, [Modifier(3, "WIS"), Modifier(2, "PROF"), Modifier(-1, "cold")],
                   label="Perception", rules=RULES)
    assert result.total == 14
    assert result.success
    text = result.explain()
    assert "Perception (CHECK)" in text
    assert "[10] + 3 (WIS) + 2 (PROF) - 1 (cold) = 14" in text
    assert "vs DC 14" in text


def test_F_BASE_02_natural_20_on_a_check_has_no_automatic_effect() -> None:
    """F-BASE-02, AMB-06: a natural 20 (total 20) vs DC 25 fails; a natural 1 + 20 vs DC 15 succeeds."""
    high = check(dice(20), 25, rules=RULES)
    assert (high.natural, high.total, high.success) == (20, 20, False)
    low = check(dice(1), 15, [Modifier(20, "magic")], rules=RULES)
    assert (low.natural, low.total, low.success) == (1, 21, True)
    assert "[natural 1]" in low.explain()


def test_F_BASE_02_check_natural_rolls_automatic_option() -> None:
    """F-BASE-02, AMB-06 alternative: with check_natural_rolls automatic, natural 20 succeeds, natural 1 fails."""
    rules = RULES.with_options({"check_natural_rolls": "automatic"})
    assert check(dice(20), 25, rules=rules).success
    assert not check(dice(1), 5, [Modifier(10, "skill")], rules=rules).success
    # a SAVE is not a plain CHECK: its natural 20 still has to reach the DC
    assert not check(dice(20), 25, kind="SAVE", rules=rules).success


def test_F_BASE_02_atk_natural_20_hits_and_natural_1_misses() -> None:
    """F-BASE-02 with F-CRIT-01 / F-FUMB-01: an ATK's natural 20 hits and is critical; its natural 1 misses."""
    crit = check(dice(20), 30, kind="ATK", label="longsword", rules=RULES)
    assert (crit.success, crit.critical, crit.fumble) == (True, True, False)
    fumble = check(dice(1), 5, [Modifier(10, "STR")], kind="ATK", rules=RULES)
    assert (fumble.total, fumble.success, fumble.fumble) == (11, False, True)
    barbarian = check(dice(19), 30, kind="ATK", crit_on=19, rules=RULES)
    assert barbarian.critical and barbarian.success


def test_F_BASE_02_bad_arguments_are_user_errors() -> None:
    """F-BASE-02: an unknown kind, advantage word or a non-number modifier raises a FurnaceError."""
    with pytest.raises(CheckError, match="CHECK, SAVE, ATK"):
        check(dice(10), 10, kind="SPELL", rules=RULES)  # type: ignore[arg-type]
    with pytest.raises(CheckError, match="advantage"):
        check(dice(10), 10, advantage="both", rules=ADV)  # type: ignore[arg-type]
    with pytest.raises(FurnaceError, match="whole number"):
        Modifier("2", "STR")  # type: ignore[arg-type]


def test_F_BASE_02_result_is_json_ready() -> None:
    """F-BASE-02: the result tree (roll, modifiers, DC, success, natural) serialises."""
    result = check(dice(14), make_dc(12, hard=["heavy armor"], rules=RULES), DEX2, label="Stealth", rules=RULES)
    data = json.loads(json.dumps(result.to_dict()))
    assert data["roll"]["faces"] == [14]
    assert data["modifiers"] == [{"value": 2, "source": "DEX"}]
    assert data["dc"]["value"] == 15
    assert data["dc"]["hard"] == ["heavy armor"]
    assert (data["total"], data["success"], data["natural"]) == (16, True, 14)


# -- F-BASE-03/04 ROOM DC with EASY and HARD (AMB-04) ----------------------------------------------------------
@pytest.mark.parametrize(("easy", "hard", "value"), [
    ((), (), 12),
    (("fresh snow",), (), 9),
    (("fresh snow",), ("heavy armor",), 12),
    ((), ("heavy armor", "darkness"), 18),
    ((), ("Ember Swarm", "Ember Swarm"), 15),
    (("dwarf", "tools"), ("darkness",), 9),
])
def test_F_BASE_04_easy_and_hard_add_up(easy: tuple[str, ...], hard: tuple[str, ...], value: int) -> None:
    """F-BASE-03, F-BASE-04, AMB-04 additive: ROOM DC 12 − 3 per EASY + 3 per HARD; one source counts once."""
    assert make_dc(12, easy, hard, RULES).value == value


def test_F_BASE_04_same_source_counts_once_and_says_so() -> None:
    """F-BASE-04, AMB-04: two HARDs from Ember Swarm are one HARD (15), and the DC explains why."""
    dc = make_dc(12, hard=["Ember Swarm", "ember swarm"], rules=RULES)
    assert (dc.value, dc.hard, dc.steps) == (15, ("Ember Swarm",), 1)
    assert "counted once (AMB-04)" in dc.explain()
    assert dc.explain().startswith("DC 15 (ROOM DC 12; HARD +3 (Ember Swarm)")


@pytest.mark.parametrize(("easy", "hard", "value"), [
    ((), ("heavy armor", "darkness"), 15),
    (("a", "b", "c"), (), 9),
    (("snow",), ("armor",), 12),
    (("snow",), ("armor", "dark"), 15),
    (("snow", "tools"), ("dark",), 9),
])
def test_F_BASE_04_cancel_single_caps_at_one_step(easy: tuple[str, ...], hard: tuple[str, ...],
                                                  value: int) -> None:
    """F-BASE-04, AMB-04 alternative cancel_single: EASY and HARD cancel, the net is capped at ±3."""
    rules = RULES.with_options({"easy_hard_stacking": "cancel_single"})
    assert make_dc(12, easy, hard, rules).value == value


def test_F_BASE_04_sources_are_required_and_a_bare_string_is_one_source() -> None:
    """F-BASE-04, AMB-04: an EASY without a named source is refused; "snow" is one source, not four."""
    with pytest.raises(CheckError, match="named source"):
        make_dc(12, easy=[""], rules=RULES)
    assert make_dc(12, easy="snow", rules=RULES).value == 9
    assert Difficulty(easy=("snow",), hard=("armor", "dark")).dc(12, RULES).value == 15


def test_F_BASE_03_a_plain_number_is_the_dc() -> None:
    """F-BASE-03: a DC given as a number is used as it is."""
    assert plain_dc(14) == DC(14, 14)
    assert plain_dc(14).explain() == "DC 14"
    with pytest.raises(CheckError):
        plain_dc(True)


@settings(max_examples=100)
@given(d20=st.integers(1, 20), dc=st.integers(-50, 60),
       mods=st.lists(st.tuples(st.integers(-20, 20), st.text(min_size=1, max_size=8)), max_size=5),
       kind=st.sampled_from(["CHECK", "SAVE"]))
def test_F_BASE_02_property_success_is_total_meets_dc(d20: int, dc: int, mods: list[tuple[int, str]],
                                                      kind: str) -> None:
    """F-BASE-02, AMB-06 (property): check() never raises and success == (total >= DC) for any DC and modifiers."""
    modifiers = [Modifier(v, s) for v, s in mods]
    result = check(dice(d20), dc, modifiers, kind=kind, rules=RULES)  # type: ignore[arg-type]
    assert result.total == d20 + sum(v for v, _ in mods)
    assert result.success == (result.total >= dc)
    assert result.natural == d20
    assert result.explain()


# -- F-OPT-01 advantage and disadvantage (AMB-56) --------------------------------------------------------------
def test_F_OPT_01_advantage_is_refused_when_the_option_is_off() -> None:
    """F-OPT-01: with use_advantage off (the default), asking for advantage raises, naming the option."""
    with pytest.raises(OptionOffError, match="use_advantage is off"):
        check(dice(5, 17), 12, advantage="adv", rules=RULES)


def test_F_OPT_01_advantage_keeps_the_higher_disadvantage_the_lower() -> None:
    """F-OPT-01: 2d20 showing 5 and 17: advantage keeps 17, disadvantage keeps 5."""
    adv = check(dice(5, 17), 15, DEX2, advantage="adv", rules=ADV)
    assert (adv.natural, adv.total, adv.success, adv.advantage) == (17, 19, True, "adv")
    dis = check(dice(5, 17), 15, DEX2, advantage="dis", rules=ADV)
    assert (dis.natural, dis.total, dis.success) == (5, 7, False)
    assert "[~~5~~, 17]" in adv.explain()


def test_F_OPT_01_alongside_advantage_and_easy_both_apply() -> None:
    """F-OPT-01, AMB-56 (alongside): advantage AND EASY — 2d20 keep higher vs ROOM DC 12 − 3 = 9."""
    result = check(dice(3, 8), make_dc(12, easy=["ally's help"], rules=ADV), advantage="adv", rules=ADV)
    assert (result.natural, result.dc.value, result.success) == (8, 9, False)


def test_F_OPT_01_instead_mode_turns_easy_into_advantage() -> None:
    """F-OPT-01, AMB-56 (advantage_mode instead): EASY becomes advantage and the DC stays ROOM DC 12."""
    rules = ADV.with_options({"advantage_mode": "instead"})
    easy = check(dice(4, 12), make_dc(12, easy=["ally's help"], rules=rules), rules=rules)
    assert (easy.advantage, easy.natural, easy.dc.value, easy.success) == ("adv", 12, 12, True)
    assert "taken as adv" in easy.explain()
    # a HARD taken as disadvantage cancels an advantage asked for, 5e style
    both = check(dice(4), make_dc(12, hard=["darkness"], rules=rules), advantage="adv", rules=rules)
    assert (both.advantage, both.natural, both.dc.value) == (None, 4, 12)


def test_F_OPT_01_advantage_and_disadvantage_cancel() -> None:
    """F-OPT-01, AMB-56: any advantage and any disadvantage cancel to one d20."""
    assert net_advantage(True, True) is None
    assert net_advantage(True, False) == "adv"
    assert net_advantage(False, True) == "dis"
    assert net_advantage(False, False) is None
