"""Checks (`furnace.play.checks`): d20 + modifiers vs DC, EASY/HARD, and the optional rules built on checks.

RULES.md F.1 (F-BASE-02 CHECK, F-BASE-03 ROOM DC, F-BASE-04 EASY/HARD), F.13 (F-NPC-01 reaction,
F-SURP-01 surprise), F.17 (F-OPT-01..07), AMB-04, AMB-06, AMB-50..56, review decision D-3, CF-51.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from furnace.dice import ScriptedDice
from furnace.errors import FurnaceError
from furnace.play.checks import (
    DC,
    CheckError,
    Difficulty,
    Effort,
    Modifier,
    OptionOffError,
    SkillChallenge,
    Timer,
    check,
    contested,
    effort,
    enemy_morale,
    make_dc,
    net_advantage,
    pc_morale,
    plain_dc,
    reaction,
    reaction_roller,
    surprise,
)
from furnace.rules.ruleset import load_ruleset

RULES = load_ruleset()
ADV = RULES.with_options({"use_advantage": True})
OPTIONAL = RULES.with_options({
    "use_advantage": True, "contested_checks": True, "effort": True, "skill_challenges": True, "timers": True,
    "enemy_morale": True, "pc_morale": True, "surprise_roll": True})
DEX2 = [Modifier(2, "DEX")]


def dice(*faces: int) -> ScriptedDice:
    return ScriptedDice(faces)


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


@settings(max_examples=100, deadline=None)
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


# -- F-OPT-02 contested roll-under CHECKs (AMB-53) -------------------------------------------------------------
def test_F_OPT_02_is_refused_when_the_option_is_off() -> None:
    """F-OPT-02: contested_checks off (default) raises."""
    with pytest.raises(OptionOffError, match="contested_checks"):
        contested(dice(5, 5), 12, 10, rules=RULES)


@pytest.mark.parametrize(("faces", "scores", "winner", "reroll"), [
    ((9, 11), (12, 10), "A", ""),          # A under (9 ≤ 12), B over (11 > 10)
    ((8, 10), (12, 10), "B", ""),          # both under: the higher roll (10) wins
    ((7, 7), (12, 10), "A", ""),           # both under, equal rolls: the higher score wins
    ((7, 7), (12, 12), None, "now"),       # equal rolls and scores: roll again
    ((15, 12), (12, 10), "B", ""),         # both over, closest: B is 2 over, A 3 over
    ((15, 13), (12, 10), "A", ""),         # equally close (3 over): the higher score wins
])
def test_F_OPT_02_contested_roll_under(faces: tuple[int, int], scores: tuple[int, int], winner: str | None,
                                       reroll: str) -> None:
    """F-OPT-02, AMB-53: d20 ≤ score succeeds; both succeed → higher roll, then higher score; both fail → closest."""
    result = contested(dice(*faces), *scores, rules=OPTIONAL)
    assert (result.winner, result.reroll) == (winner, reroll)
    assert result.explain()


def test_F_OPT_02_both_fail_reroll_option() -> None:
    """F-OPT-02, AMB-53 alternative (contested_both_fail: reroll): both over → roll again next turn."""
    rules = OPTIONAL.with_options({"contested_both_fail": "reroll"})
    result = contested(dice(15, 12), 12, 10, a_label="Ulf", b_label="Ogre", rules=rules)
    assert (result.winner, result.reroll) == (None, "next turn")
    assert not result.a.success and not result.b.success


# -- F-OPT-03 effort (F-TAB-41, AMB-54) ------------------------------------------------------------------------
def test_F_OPT_03_effort_dice_from_F_TAB_41() -> None:
    """F-OPT-03, F-TAB-41: with PROF 1d8 + mod (5 + 2 = 7); without 1d4 + mod (3 + 2 = 5); at least 1."""
    assert effort(dice(5), True, 2, rules=OPTIONAL).value == 7
    assert effort(dice(3), False, 2, rules=OPTIONAL).value == 5
    low = effort(dice(1), False, -3, rules=OPTIONAL)
    assert (low.roll.total, low.value) == (-2, 1)


def test_F_OPT_03_effort_accumulates_to_the_room_dc() -> None:
    """F-OPT-03, AMB-54: effort needed = ROOM DC 12; 7, a failed CHECK (nothing), then 6 → done at 13."""
    task = Effort.start(12, rules=OPTIONAL)
    assert (task.needed, task.progress, task.done) == (12, 0, False)
    task = task.add(dice(5), True, 2, rules=OPTIONAL)
    assert (task.progress, task.remaining) == (7, 5)
    failed = check(dice(3), 12, rules=OPTIONAL)
    task = task.add(dice(), True, 2, check=failed, rules=OPTIONAL)   # no effort die is rolled
    assert (task.progress, len(task.attempts)) == (7, 2)
    task = task.add(dice(4), True, 2, rules=OPTIONAL)
    assert (task.progress, task.remaining, task.done) == (13, 0, True)
    assert "done" in task.explain()
    with pytest.raises(CheckError, match="already done"):
        task.add(dice(4), True, 2, rules=OPTIONAL)


def test_F_OPT_03_effort_needs_the_option_and_takes_an_arbitrary_target() -> None:
    """F-OPT-03: effort is refused while the option is off; the referee may set the effort needed."""
    with pytest.raises(OptionOffError, match="effort"):
        Effort.start(12, rules=RULES)
    with pytest.raises(OptionOffError):
        effort(dice(4), True, 0, rules=RULES)
    assert Effort.start(12, needed=20, rules=OPTIONAL).needed == 20


# -- F-OPT-04 enemy morale (AMB-52) ----------------------------------------------------------------------------
def test_F_OPT_04_morale_is_half_the_room_dc_rounded_down() -> None:
    """F-OPT-04, AMB-52: ROOM DC 15 → morale 7; 2d6 = 8 is over it (surrender), 7 is not (hold)."""
    broke = enemy_morale(dice(4, 4), 15, OPTIONAL)
    assert (broke.morale, broke.roll.total, broke.breaks, broke.outcome) == (7, 8, True, "surrender")
    held = enemy_morale(dice(3, 4), 15, OPTIONAL)
    assert (held.morale, held.breaks, held.outcome) == (7, False, "hold")
    assert enemy_morale(dice(3, 4), 13, OPTIONAL).morale == 6


def test_F_OPT_04_morale_options() -> None:
    """F-OPT-04, AMB-52 alternatives: over_or_equal breaks on 7 vs 7; flee instead of surrender; a set morale."""
    rules = OPTIONAL.with_options({"morale_roll_over": "over_or_equal", "morale_failure_result": "flee"})
    result = enemy_morale(dice(3, 4), 15, rules)
    assert (result.breaks, result.outcome) == (True, "flee")
    assert enemy_morale(dice(6, 6), 15, OPTIONAL, morale=12).breaks is False
    with pytest.raises(OptionOffError, match="enemy_morale"):
        enemy_morale(dice(3, 4), 15, RULES)


# -- F-OPT-05 PC morale ----------------------------------------------------------------------------------------
def test_F_OPT_05_pc_morale_is_a_wis_save_vs_room_dc() -> None:
    """F-OPT-05: d20 10 + WIS 1 + PROF 2 = 13 vs ROOM DC 13 succeeds; without PROF 11 fails."""
    brave = pc_morale(dice(10), 1, 2, True, 13, OPTIONAL)
    assert (brave.kind, brave.total, brave.success) == ("SAVE", 13, True)
    assert [m.source for m in brave.modifiers] == ["WIS", "PROF"]
    shaken = pc_morale(dice(10), 1, 2, False, 13, OPTIONAL)
    assert (shaken.total, shaken.success) == (11, False)
    with pytest.raises(OptionOffError, match="pc_morale"):
        pc_morale(dice(10), 1, 2, True, 13, RULES)


# -- F-OPT-06 skill challenges (AMB-55) ------------------------------------------------------------------------
def test_F_OPT_06_skill_challenge_succeeds_at_the_threshold() -> None:
    """F-OPT-06: DC 12, 3 successes needed: 14, 5 (a failure), 12, 20 → succeeds on the third success."""
    challenge = SkillChallenge.start(12, 3, OPTIONAL)
    events = []
    for face in (14, 5, 12, 20):
        challenge, event = challenge.attempt(dice(face), rules=OPTIONAL)
        events.append(event)
    assert (challenge.successes, challenge.failures, challenge.status) == (3, 1, "succeeded")
    assert events[:3] == [None, None, None]
    assert events[3] is not None and events[3].after == "succeeded"


def test_F_OPT_06_three_failures_end_the_challenge() -> None:
    """F-OPT-06, AMB-55: the default failure threshold is 3 (skill_challenge_failures)."""
    challenge = SkillChallenge.start(make_dc(12, hard=["storm"], rules=OPTIONAL), 4, OPTIONAL)
    assert (challenge.dc.value, challenge.failure_threshold) == (15, 3)
    for face in (3, 4, 5):
        challenge, event = challenge.attempt(dice(face), rules=OPTIONAL)
    assert challenge.status == "failed"
    assert event is not None and "failed" in event.what
    with pytest.raises(CheckError, match="already failed"):
        challenge.attempt(dice(20), rules=OPTIONAL)
    two = SkillChallenge.start(12, 4, OPTIONAL.with_options({"skill_challenge_failures": 2}))
    assert two.failure_threshold == 2


def test_F_OPT_06_needs_the_option() -> None:
    """F-OPT-06: skill_challenges off (default) raises."""
    with pytest.raises(OptionOffError, match="skill_challenges"):
        SkillChallenge.start(12, 3, RULES)


# -- F-OPT-07 timers -------------------------------------------------------------------------------------------
def test_F_OPT_07_timer_counts_down_1d4_turns_and_fires_at_zero() -> None:
    """F-OPT-07: 1d4 shows 3; two ticks leave 1 turn, the third reaches 0 and fires the referee's prompt."""
    timer = Timer.start(dice(3), "flood", "the chamber floods", rules=OPTIONAL)
    assert timer.turns_left == 3
    timer, first = timer.tick()
    timer, second = timer.tick()
    assert (timer.turns_left, first, second) == (1, None, None)
    timer, event = timer.tick()
    assert timer.expired and event is not None
    assert event.data["referee_prompt"] == "the chamber floods"
    assert (event.before, event.after) == (1, 0)
    with pytest.raises(CheckError, match="already run out"):
        timer.tick()


def test_F_OPT_07_timer_needs_the_option() -> None:
    """F-OPT-07: timers off (default) raises."""
    with pytest.raises(OptionOffError, match="timers"):
        Timer.start(dice(3), "flood", "the chamber floods", rules=RULES)


# -- F-NPC-01 reaction (F-TAB-29, AMB-51) ----------------------------------------------------------------------
@pytest.mark.parametrize(("faces", "cha", "total", "attitude"), [
    ((1, 1), 0, 2, "hostile"),
    ((1, 1), -1, 1, "hostile"),
    ((1, 2), 0, 3, "unfriendly"),
    ((2, 3), 0, 5, "unfriendly"),
    ((3, 3), 0, 6, "neutral"),
    ((4, 4), 0, 8, "neutral"),
    ((4, 5), 0, 9, "indifferent"),
    ((5, 6), 0, 11, "indifferent"),
    ((5, 5), 2, 12, "helpful"),
    ((6, 6), 3, 15, "helpful"),
])
def test_F_NPC_01_reaction_2d6_plus_cha_bands(faces: tuple[int, int], cha: int, total: int,
                                              attitude: str) -> None:
    """F-NPC-01, F-TAB-29: 2d6 + CHA: ≤2 hostile, 3–5 unfriendly, 6–8 neutral, 9–11 indifferent, 12+ helpful."""
    result = reaction(dice(*faces), cha, RULES)
    assert (result.table_roll.roll.total, result.attitude) == (total, attitude)
    assert result.table_roll.table.id == "F-TAB-29"


def test_F_NPC_01_whose_cha_reacts() -> None:
    """F-NPC-01, AMB-51: the named spokesperson speaks; none named (or highest_cha) → the highest CHA."""
    party = {"Ann": 1, "Bo": 3, "Cy": -1}
    assert reaction_roller(party, "Cy", RULES) == ("Cy", -1)
    assert reaction_roller(party, None, RULES) == ("Bo", 3)
    assert reaction_roller(party, "Cy", RULES.with_options({"reaction_roller": "highest_cha"})) == ("Bo", 3)
    with pytest.raises(CheckError, match="Dan"):
        reaction_roller(party, "Dan", RULES)


# -- F-SURP-01 surprise (D-3, AMB-50, CF-51) -------------------------------------------------------------------
def test_F_SURP_01_surprise_is_2_in_6_per_side() -> None:
    """F-SURP-01, D-3: each side rolls 1d6, surprised on 1–2: party 2 (surprised), enemies 3 → enemies act first."""
    result = surprise(dice(2, 3), OPTIONAL)
    assert (result.party.surprised, result.enemies.surprised, result.free_turn) == (True, False, "the enemies")
    assert surprise(dice(3, 6), OPTIONAL).free_turn is None
    both = surprise(dice(1, 2), OPTIONAL)
    assert (both.party.surprised, both.enemies.surprised, both.free_turn) == (True, True, None)
    assert surprise(dice(4, 1), OPTIONAL).free_turn == "the party"


def test_F_SURP_01_surprise_chance_option() -> None:
    """F-SURP-01, D-3: surprise_chance 1 makes a 2 no longer a surprise."""
    rules = OPTIONAL.with_options({"surprise_chance": 1})
    assert not surprise(dice(2, 2), rules).party.surprised


def test_F_SURP_01_a_lit_party_cannot_surprise() -> None:
    """F-SURP-01, CF-51, H-LIGHT-03: with light_prevents_surprise on, a lit party's enemies are not surprised."""
    rules = OPTIONAL.with_options({"light_prevents_surprise": True})
    lit = surprise(dice(3), rules, lit=True)          # only the party's die is rolled
    assert (lit.enemies.surprised, lit.enemies.roll, lit.free_turn) == (False, None, None)
    assert "light" in lit.explain()
    # with the option off (Furnace), light changes nothing
    assert surprise(dice(3, 1), OPTIONAL, lit=True).enemies.surprised


def test_F_SURP_01_the_roll_needs_the_option() -> None:
    """F-SURP-01, D-3: surprise_roll off (default): the referee declares surprise, so rolling raises."""
    with pytest.raises(OptionOffError, match="surprise_roll"):
        surprise(dice(2, 3), RULES)
