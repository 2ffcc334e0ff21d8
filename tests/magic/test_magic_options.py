"""The magic chapter's rule options and the markers that reach its rolls, each flipped with scripted dice.

RULES.md AMB-47 (spells_over_cap), AMB-16 (mishap_trigger), AMB-17 (spellcheck_sl_from), AMB-20
(mishap_condition_duration, F-TAB-18 / F-TAB-19), AMB-59 (magic_item_charges, F-MAGIC-02), H-SLEEP-01 and
H-DRUG-02 (short of sleep and drunk reach the SPELLCHECK and every magic SAVE), D-9 (no casting in armor she is not
proficient in), X-TAB-02 (a disapproval's SPELLCHECK modifier held in a fight).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from furnace.characters.character import Character
from furnace.dice import ScriptedDice
from furnace.errors import IllegalActionError
from furnace.events import Event
from furnace.magic import fight as magic_fight
from furnace.magic.cantrips import cast_cantrip
from furnace.magic.casting import cast_spell, forgotten
from furnace.magic.items import daily_uses, propose_item, use_item, uses_left
from furnace.magic.spellcheck import spellcheck
from furnace.magic.state import magic_state
from furnace.play.combatant import Combatant
from furnace.play.conditions import Held
from furnace.play.encounter import Action, take_turn
from furnace.play.state import Encounter
from furnace.render.story import tell_referee
from furnace.rules.ruleset import Ruleset, load_ruleset
from furnace.rules.tables import validate_table
from tests.helpers.factories import CASTER, FOE, encounter, mage, monster, pc

RULES = load_ruleset()
FLAT = {"STR": 10, "DEX": 10, "CON": 10, "INT": 10, "WIS": 10, "CHA": 10}
SLEEPLESS = {"hazards": {"short_sleep_days": 2}}     # H-SLEEP-01: −2 to every roll


def cast_in(m: Combatant, spell: str, faces: list[int], rules: Ruleset = RULES, rnd: int = 1,
            ) -> tuple[Encounter, list[Event], ScriptedDice]:
    dice = ScriptedDice(faces)
    after, events = take_turn(encounter(m, monster("g1", FOE), round=rnd), "m",
                              Action("cast", "g1", detail=spell), dice, rules)
    return after, events, dice


def spellcheck_total(events: list[Event]) -> str:
    return next(tell_referee(e) for e in events if e.kind == "spellcheck")


# -- spells_over_cap (AMB-47) ------------------------------------------------------------------------------------
# a level-1 Magic-user with INT 10: cap 1 + 1 + 0 = 2 spells, and she knows 3 (her INT fell)
OVER_CAP: dict[str, Any] = dict(level=1, scores=FLAT, spells=["Fireball", "Chill Touch", "Animate Dead"])


def test_AMB_47_spells_over_cap_forgotten_refuses_the_spell_past_the_cap() -> None:
    """AMB-47, default forgotten: Animate Dead (the third of a cap of 2) is forgotten: refused before any die,
    naming it; in a fight she does not carry it."""
    assert forgotten(mage(OVER_CAP), RULES) == ["Animate Dead"]
    with pytest.raises(IllegalActionError, match="has forgotten Animate Dead"):
        cast_spell(mage(OVER_CAP), "Animate Dead", ScriptedDice([]), 12, RULES)
    assert magic_state(magic_fight.combatant(mage(OVER_CAP), "a", RULES, id="m")).spells == ("Fireball", "Chill Touch")


def test_AMB_47_spells_over_cap_kept_casts_the_spell_past_the_cap() -> None:
    """AMB-47, spells_over_cap kept: nothing is forgotten; Animate Dead rolls its SPELLCHECK (15 + 0 + PROF 1 = 16,
    SL2) and she carries all three spells into a fight."""
    rules = RULES.with_options({"spells_over_cap": "kept"})
    assert forgotten(mage(OVER_CAP), rules) == []
    done = cast_spell(mage(OVER_CAP), "Animate Dead", ScriptedDice([15]), 12, rules)
    assert (done.cast.check.total, done.cast.check.sl) == (16, 2)
    assert len(magic_state(magic_fight.combatant(mage(OVER_CAP), "a", rules, id="m")).spells) == 3


def test_AMB_47_the_fights_cast_action_refuses_a_spell_not_known() -> None:
    """AMB-47: in a fight the caster casts only what she knows: Ember Swarm is refused, naming it."""
    with pytest.raises(IllegalActionError, match="M does not know Ember Swarm"):
        cast_in(pc("m", CASTER), "Ember Swarm", [15])


# -- mishap_trigger (AMB-16) -------------------------------------------------------------------------------------
def test_AMB_16_mishap_trigger_natural_1_a_total_of_1_is_a_plain_failure() -> None:
    """AMB-16, default natural_1: d20 2 − 3 + 2 = 1 is a Failure (SL0), not a mishap."""
    check = spellcheck(ScriptedDice([2]), -3, 2, 12, RULES)
    assert (check.total, check.sl, check.mishap, check.success) == (1, 0, False, False)


def test_AMB_16_mishap_trigger_total_1_a_total_of_1_is_a_mishap() -> None:
    """AMB-16, mishap_trigger total_1: the same total of 1 is a mishap; a total of 2 is not."""
    rules = RULES.with_options({"mishap_trigger": "total_1"})
    check = spellcheck(ScriptedDice([2]), -3, 2, 12, rules)
    assert (check.total, check.mishap, check.success) == (1, True, False)
    assert not spellcheck(ScriptedDice([3]), -3, 2, 12, rules).mishap


def test_AMB_16_mishap_trigger_total_1_rolls_the_mishap_table_for_a_cast() -> None:
    """AMB-16: a level-1 Cleric with WIS 3 (−3, PROF 1) rolls 3: total 1. By default no mishap (one die); under
    total_1 the mishap table rolls 10 (no save: she can't target that creature until rest)."""
    cleric = Character(name="Ida", char_class="Cleric", level=1, scores={**FLAT, "WIS": 3}, hp_max=8, hp=8,
                       hit_dice=1, spells=["Chill Touch"])
    plain = cast_spell(cleric, "Chill Touch", ScriptedDice([3]), 12, RULES, target="G1")
    assert plain.mishap is None and plain.character.until_rest == []
    rules = RULES.with_options({"mishap_trigger": "total_1"})
    dice = ScriptedDice([3, 10])
    done = cast_spell(cleric, "Chill Touch", dice, 12, rules, target="G1")
    assert done.mishap is not None and done.mishap.roll.total == 10 and dice.remaining == 0
    assert done.character.until_rest[0].startswith("CANT_TARGET_SAME")


# -- spellcheck_sl_from (AMB-17) ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("option", "easy_sl", "hard_sl"), [("raw_total", 1, 2), ("adjusted_total", 2, 1)])
def test_AMB_17_spellcheck_sl_from(option: str, easy_sl: int, hard_sl: int) -> None:
    """AMB-17: an EASY SPELLCHECK of 11 + 2 = 13 is SL1 read from the raw total, SL2 (2 dice) from 13 + 3 = 16; a HARD
    one of 14 + 2 = 16 is SL2 raw, SL1 from 16 − 3 = 13 (both reach the DC of 15)."""
    rules = RULES.with_options({"spellcheck_sl_from": option})
    easy = spellcheck(ScriptedDice([11]), 0, 2, 12, rules, easy=["a familiar place"])
    hard = spellcheck(ScriptedDice([14]), 0, 2, 12, rules, hard=["a storm"])
    assert (easy.total, easy.sl, easy.spell_dice) == (13, easy_sl, easy_sl)
    assert (hard.total, hard.dc.value, hard.sl, hard.success) == (16, 15, hard_sl, True)


def test_AMB_17_spellcheck_sl_from_adjusted_total_literal_flip() -> None:
    """AMB-17, adjusted_total: EASY moves the SL too: 16 read as 19, still SL2; 20 read as 23 is SL3 (4 dice)."""
    rules = RULES.with_options({"spellcheck_sl_from": "adjusted_total"})
    check = spellcheck(ScriptedDice([18]), 0, 2, 12, rules, easy=["a familiar place"])
    assert (check.total, check.sl, check.spell_dice) == (20, 3, 4)
    assert spellcheck(ScriptedDice([18]), 0, 2, 12, RULES, easy=["a familiar place"]).sl == 2


# -- mishap_condition_duration (AMB-20, F-TAB-18, F-TAB-19) ----------------------------------------------------------
def held(enc: Encounter, name: str) -> Held:
    return next(h for h in enc.get("m").held if h.name == name)


def test_AMB_20_F_TAB_18_a_mishap_stun_lasts_1_round_by_default() -> None:
    """AMB-20: natural 1 on Chill Touch, F-TAB-18 12 (CON SAVE 2 + 0 fails): STUNNED until round 3 + 1."""
    after, _, dice = cast_in(pc("m", CASTER), "Chill Touch", [1, 12, 2], rnd=3)
    assert held(after, "STUNNED").until_round == 4 and dice.remaining == 0


def test_AMB_20_F_TAB_18_mishap_condition_duration_3_stuns_for_3_rounds() -> None:
    """AMB-20, mishap_condition_duration 3: the same mishap stuns until round 3 + 3."""
    after, _, _ = cast_in(pc("m", CASTER), "Chill Touch", [1, 12, 2],
                          RULES.with_options({"mishap_condition_duration": 3}), rnd=3)
    assert held(after, "STUNNED").until_round == 6


@pytest.mark.parametrize(("rounds", "until"), [(1, 2), (4, 5)])
def test_AMB_20_F_TAB_19_fireballs_fright_lasts_the_options_rounds(rounds: int, until: int) -> None:
    """F-TAB-19 3: natural 1 on Fireball, d6 3: 1d6 (2) fire DAM to the caster, WIS SAVE 2 fails: FRIGHTENED for
    mishap_condition_duration rounds from round 1."""
    rules = RULES.with_options({"mishap_condition_duration": rounds})
    after, _, _ = cast_in(pc("m", CASTER), "Fireball", [1, 3, 2, 2], rules)
    assert after.get("m").hp == 10 and held(after, "FRIGHTENED").until_round == until


def test_AMB_20_mishap_condition_duration_literal_flip_4() -> None:
    """AMB-20: the option is read per cast: 4 rounds of WEAK from F-TAB-18 4 (STR SAVE 3 fails)."""
    after, _, _ = cast_in(pc("m", CASTER), "Chill Touch", [1, 4, 3],
                          RULES.with_options({"mishap_condition_duration": 4}))
    assert held(after, "WEAK").until_round == 5


# -- magic_item_charges (AMB-59, F-MAGIC-02) ----------------------------------------------------------------------
def charged_ring(rules: Ruleset) -> Ruleset:
    """A Rare ring (3 dice): +1d4 AC (1), for 1d4 rounds (1), a charge of 1d4 uses a day (1)."""
    data = propose_item("Ring of Warding", "ring", "rare", "effect", rules)
    data["rows"] = [data["rows"][0],
                    {"key": "ac", "text": "+1d4 AC (1 die).", "data": {"effect": "+1d4 AC", "dice": "1d4", "cost": 1}},
                    {"key": "duration", "text": "Lasts 1d4 rounds (1 die).", "data": {"effect": "duration", "cost": 1}},
                    {"key": "charge", "text": "A charge of 1d4 a day (1 die).",
                     "data": {"effect": "charges", "charges": "1d4", "cost": 1}}]
    return replace(rules, tables=rules.tables.with_table(validate_table(data, "<test>")))


def test_AMB_59_daily_uses_daily_roll_rolls_the_charge() -> None:
    """AMB-59, default daily_roll: a charge of 1d4 is rolled: d4 = 2 → 2 uses today."""
    uses, roll = daily_uses("1d4", ScriptedDice([2]), RULES)
    assert uses == 2 and roll is not None and roll.total == 2


def test_AMB_59_daily_uses_fixed_max_takes_the_maximum() -> None:
    """AMB-59, magic_item_charges fixed_max: a charge of 1d4 is 4 uses a day, no die rolled."""
    assert daily_uses("1d4", ScriptedDice([]), RULES.with_options({"magic_item_charges": "fixed_max"}))[0] == 4


def test_AMB_59_F_MAGIC_02_a_charged_item_counts_its_uses_per_day() -> None:
    """AMB-59: the ring's first use of the day rolls its charge (d4 = 2) and its +1d4 AC (3): 1 use left; the
    second (AC 4) leaves 0; a third is refused. Under fixed_max the first use leaves 3 of 4."""
    rules = charged_ring(RULES)
    ring, events = use_item(mage(), "Ring of Warding", ScriptedDice([2, 3]), rules)
    assert uses_left(ring, "Ring of Warding") == 1 and events[-1].data["powers"] == [["1d4", 3]]
    assert "1d4 = 3" in tell_referee(events[-1])
    ring, _ = use_item(ring, "Ring of Warding", ScriptedDice([4]), rules)
    assert uses_left(ring, "Ring of Warding") == 0
    with pytest.raises(IllegalActionError, match="no use of Ring of Warding left today"):
        use_item(ring, "Ring of Warding", ScriptedDice([1]), rules)
    fixed = charged_ring(RULES.with_options({"magic_item_charges": "fixed_max"}))
    ring, _ = use_item(mage(), "Ring of Warding", ScriptedDice([3]), fixed)
    assert uses_left(ring, "Ring of Warding") == 3


# -- markers: short of sleep and drunk reach the SPELLCHECK and every magic SAVE (H-SLEEP-01, H-DRUG-02) ------------
def test_H_SLEEP_01_short_of_sleep_lowers_the_spellcheck_out_of_a_fight() -> None:
    """H-SLEEP-01: two days short of sleep, −2: d20 9 + 4 = 13 succeeds rested, 11 fails short of sleep."""
    assert cast_spell(mage(), "Fireball", ScriptedDice([9]), 12, RULES).cast.check.total == 13
    tired = cast_spell(mage(extensions=SLEEPLESS), "Fireball", ScriptedDice([9]), 12, RULES).cast.check
    assert (tired.total, tired.success) == (11, False) and "short of sleep" in tired.explain()


def test_H_SLEEP_01_short_of_sleep_lowers_the_spellcheck_in_a_fight() -> None:
    """H-SLEEP-01: carried into a fight as a held SPELLCHECK modifier: 9 + 4 − 2 = 11 fails; rested 13 succeeds."""
    tired = magic_fight.combatant(mage(extensions=SLEEPLESS), "a", RULES, id="m")
    _, events, _ = cast_in(tired, "Chill Touch", [9])
    assert "= 11" in spellcheck_total(events) and "SL1" not in spellcheck_total(events)
    rested = magic_fight.combatant(mage(), "a", RULES, id="m")
    _, events, _ = cast_in(rested, "Chill Touch", [9, 3])
    assert "= 13" in spellcheck_total(events)


def test_H_DRUG_02_drunk_lowers_the_mishap_save_out_of_a_fight() -> None:
    """H-DRUG-02: F-TAB-18 14 (CHA SAVE or no casting until rest): d20 13 + 0 holds sober; drunk 13 − 2 = 11 fails."""
    sober = cast_spell(mage(), "Chill Touch", ScriptedDice([1, 14, 13]), 12, RULES).character
    drunk = cast_spell(mage(conditions=["DRUNK"]), "Chill Touch", ScriptedDice([1, 14, 13]), 12, RULES).character
    assert sober.until_rest == [] and drunk.until_rest[0].startswith("CANT_CAST")


def test_H_DRUG_02_drunk_lowers_the_spell_depletion_save_in_and_out_of_a_fight() -> None:
    """H-DRUG-02, F-MU-04: the 4th spell's INT SAVE d20 8 + 4 = 12 holds sober; drunk 10 fails: DEPLETED. In a
    fight the caster's SAVE bonus carries the −2 as well."""
    faces = [15, 8]
    assert cast_spell(mage(spells_cast=3), "Fireball", ScriptedDice(faces), 12, RULES).character.until_rest == []
    drunk = cast_spell(mage(spells_cast=3, conditions=["DRUNK"]), "Fireball", ScriptedDice(faces), 12, RULES)
    assert drunk.character.until_rest == ["DEPLETED: Spell Depletion"]
    m = magic_fight.combatant(mage(spells_cast=3, conditions=["DRUNK"]), "a", RULES, id="m")
    assert m.save_bonus("INT") == 2
    after, _, _ = cast_in(m, "Chill Touch", [15, 3, 8])
    assert [h.name for h in after.get("m").held if h.ending == "rest"] == ["DEPLETED"]


def test_X_TAB_02_a_held_spellcheck_penalty_lowers_the_fights_spellcheck() -> None:
    """X-TAB-02: a disapproval's −2 to the SPELLCHECK held until rest: d20 9 + 4 − 2 = 11, the spell fails."""
    penalty = Held(name="MOD:spellcheck:BONUS", source="disapproval (X-TAB-02)", ending="rest", value=-2)
    _, events, _ = cast_in(pc("m", CASTER, held=(penalty,)), "Chill Touch", [9])
    assert "= 11" in spellcheck_total(events) and "disapproval (X-TAB-02)" in spellcheck_total(events)


# -- D-9: no spellcasting in armor she is not proficient in ------------------------------------------------------------
def test_D_9_no_casting_in_armor_without_proficiency() -> None:
    """D-9: a Magic-user (F-TAB-04: no armor) in chain mail cannot cast: refused before any die, out of a fight
    and in one (where she attacks instead)."""
    armored = mage(armor="chain-mail")
    with pytest.raises(IllegalActionError, match="chain-mail"):
        cast_spell(armored, "Fireball", ScriptedDice([]), 12, RULES)
    m = magic_fight.combatant(armored, "a", RULES, id="m")
    assert not magic_fight.can_cast(m)
    with pytest.raises(IllegalActionError, match="cannot cast spells"):
        cast_in(m, "Fireball", [15])


def test_D_9_AMB_40_nonproficient_armor_no_penalty_lets_her_cast() -> None:
    """AMB-40, nonproficient_armor no_penalty: the same Magic-user casts (15 + 4 = 19, SL2)."""
    rules = RULES.with_options({"nonproficient_armor": "no_penalty"})
    assert cast_spell(mage(armor="chain-mail"), "Fireball", ScriptedDice([15]), 12, rules).cast.check.sl == 2


def test_D_9_AMB_40_nonproficient_armor_checks_and_attacks_still_bars_casting() -> None:
    """AMB-40, nonproficient_armor checks_and_attacks: her SAVEs lose the HARD, but casting stays barred."""
    rules = RULES.with_options({"nonproficient_armor": "checks_and_attacks"})
    with pytest.raises(IllegalActionError, match="chain-mail"):
        cast_spell(mage(armor="chain-mail"), "Fireball", ScriptedDice([]), 12, rules)


def test_D_9_no_cantrip_in_armor_without_proficiency_in_or_out_of_a_fight() -> None:
    """D-9: a cantrip is spellcasting too: in chain mail Mira's Spark is refused out of a fight and in one; under
    nonproficient_armor no_penalty it is cast (1 fire DAM, no die)."""
    armored = mage(armor="chain-mail", cantrips=["Spark"])
    with pytest.raises(IllegalActionError, match="chain-mail"):
        cast_cantrip(armored, "Spark", RULES, target="G1")
    with pytest.raises(IllegalActionError, match="cannot cast spells"):
        cast_in(magic_fight.combatant(armored, "a", RULES, id="m"), "Spark", [])
    rules = RULES.with_options({"nonproficient_armor": "no_penalty"})
    assert cast_cantrip(armored, "Spark", rules, target="G1").effects[0].dice == "1"
    after, _, dice = cast_in(magic_fight.combatant(armored, "a", rules, id="m"), "Spark", [], rules)
    assert after.get("g1").hp == 39 and dice.remaining == 0
