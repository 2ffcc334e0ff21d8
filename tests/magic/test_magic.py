"""Casting on the character (`furnace.magic.casting`) and in a fight (`furnace.magic.fight`).

RULES.md F-CLR-03 (prayers known, WIS), F-CLR-04 (disapproval: D-10, CF-16, X-TAB-02, option cleric_natural_1),
F-CLR-05 (Lay on Hands, F-TAB-06, AMB-15, options loh_self and loh_nat20_extra_hd), F-CLR-06 (curing conditions:
the referee's), F-CLR-07 (daily healing cap, CF-17, option zero_level_heal_cap), F-CLR-08 (optional extra HD
recovery), F-MU-03 (INT), F-MU-04 (Spell Depletion, AMB-41, D-7, options spell_depletion_counts and
cleric_spell_depletion), F-MU-05 (spells known, Bookworm), F-MU-06 (cantrips), F-ARCH-04/05 (scrolls),
F-SPELL-10/11 (mishaps, F-TAB-18/19, AMB-20), F-SPELL-02..12 in an encounter.

Dice are scripted: `ScriptedDice` raises when asked for one die too many, and `remaining == 0` proves the
rule asked for no fewer.
"""

from __future__ import annotations

from typing import Any

import pytest

from furnace.characters.character import Character, CharacterError
from furnace.dice import ScriptedDice
from furnace.errors import IllegalActionError
from furnace.events import Event
from furnace.magic.casting import (
    cast_spell,
    casting_ability,
    heal_cap,
    lay_on_hands,
    learn_cantrip,
    learn_spell,
    new_day,
    spells_known_cap,
)
from furnace.magic.state import magic_state
from furnace.play.apply import apply_all
from furnace.play.encounter import Action, act, start_turn, tactic_attack_nearest
from furnace.play.rest import long_rest, short_rest
from furnace.play.state import Step
from furnace.render.story import tell_referee
from furnace.rules.effects import parse_effect
from furnace.rules.ruleset import load_ruleset
from tests.helpers.actions import cast_in
from tests.helpers.factories import CASTER, FOE, cleric, encounter, fighter, mage, monster, pc

RULES = load_ruleset()
# Scores, not modifiers: 16 → +2, 18 → +3, 10 → 0, 14 → +1 (F-TAB-02). Level 3 → PROF +2; level 1 → +1.
FLAT = {"STR": 10, "DEX": 10, "CON": 10, "INT": 10, "WIS": 10, "CHA": 10}
EMBER: dict[str, Any] = dict(spells=["Fireball", "Ember Swarm", "Chill Touch"])   # a mage who knows Ember Swarm too
ODA: dict[str, Any] = dict(name="Oda", scores={**FLAT, "WIS": 16, "INT": 8}, hp_max=18,
                           spells=["Chill Touch", "Animate Dead"])   # a level-3 Cleric, WIS 16, 18 HP
BRUN: dict[str, Any] = dict(name="Brun", level=2, scores=FLAT, hp_max=30, hp=5, hit_dice=5)   # a Fighter at 5 HP of 30
NECROMANCY: dict[str, Any] = dict(spells=("Fireball", "Chill Touch", "Animate Dead"))   # the caster's spells in a fight
PRIEST: dict[str, Any] = dict(char_class="Cleric", spells=("Chill Touch",))   # a cleric in a fight


def kinds(events: tuple[Event, ...] | list[Event]) -> list[str]:
    return [e.kind for e in events]


# -- F-CLR-03 / F-MU-05 / F-MU-06: what a caster knows --------------------------------------------------------
def test_F_CLR_03_a_3rd_level_cleric_knows_at_most_4_prayers() -> None:
    """F-CLR-03 (worked example): prayers known ≤ 1 + LVL: a 3rd-level cleric knows at most 4; WIS plays no part."""
    assert spells_known_cap(cleric(ODA), RULES) == 4
    assert spells_known_cap(cleric(ODA, scores={**FLAT, "WIS": 18, "INT": 18}), RULES) == 4
    assert spells_known_cap(cleric(ODA, level=1), RULES) == 2


def test_F_CLR_03_learn_spell_refuses_the_5th_prayer_of_a_3rd_level_cleric() -> None:
    """F-CLR-03: four prayers fit; the fifth is refused."""
    c = cleric(ODA, spells=[])
    for name in ("Fireball", "Chill Touch", "Animate Dead", "Ember Swarm"):
        c = learn_spell(c, name, RULES)
    assert c.spells == ["Fireball", "Chill Touch", "Animate Dead", "Ember Swarm"]
    with pytest.raises(CharacterError, match="F-CLR-03"):
        learn_spell(c, "Flame Shield", RULES)


def test_F_MU_05_spells_known_1_plus_lvl_plus_int() -> None:
    """F-MU-05 (worked example): a 3rd-level Magic-user with INT +2 knows at most 1 + 3 + 2 = 6 spells."""
    assert spells_known_cap(mage(EMBER), RULES) == 6
    assert spells_known_cap(mage(EMBER, level=1, scores=dict(FLAT)), RULES) == 2


def test_F_MU_05_F_ARCH_05_bookworm_adds_two() -> None:
    """F-MU-05, F-ARCH-05: the Wizard's Bookworm feature adds 2: 6 → 8."""
    assert spells_known_cap(mage(EMBER, archetype_features=["bookworm"]), RULES) == 8


def test_F_MU_05_learn_spell_refuses_past_the_cap() -> None:
    """F-MU-05: a 1st-level Magic-user with INT +0 knows 1 + 1 + 0 = 2 spells; a third is refused, a known one too."""
    m = mage(EMBER, level=1, scores=dict(FLAT), spells=[])
    m = learn_spell(learn_spell(m, "Fireball", RULES), "chill touch", RULES)
    assert m.spells == ["Fireball", "Chill Touch"]
    with pytest.raises(CharacterError, match="F-MU-05"):
        learn_spell(m, "Ember Swarm", RULES)
    with pytest.raises(CharacterError, match="already knows"):
        learn_spell(mage(EMBER, level=1, scores=dict(FLAT), spells=["Fireball"]), "Fireball", RULES)


def test_F_MU_05_a_bookworm_learns_two_more() -> None:
    """F-MU-05, F-ARCH-05: the same Magic-user with Bookworm learns a 3rd and a 4th spell."""
    m = mage(EMBER, level=1, scores=dict(FLAT), spells=["Fireball", "Chill Touch"], archetype_features=["bookworm"])
    m = learn_spell(learn_spell(m, "Ember Swarm", RULES), "Animate Dead", RULES)
    assert len(m.spells) == 4
    with pytest.raises(CharacterError):
        learn_spell(m, "Flame Shield", RULES)


def test_F_CLR_03_F_MU_03_non_casters_learn_no_spells() -> None:
    """F-CLR-03, F-MU-03: a Fighter casts no spells, so knows none."""
    assert spells_known_cap(fighter(BRUN), RULES) == 0
    with pytest.raises(CharacterError):
        learn_spell(fighter(BRUN), "Fireball", RULES)


def test_F_MU_06_two_cantrips() -> None:
    """F-MU-06: a Magic-user knows 2 cantrips; a third is refused."""
    m = learn_cantrip(learn_cantrip(mage(EMBER), "Torchlight"), "Mending")
    assert m.cantrips == ["Torchlight", "Mending"]
    with pytest.raises(CharacterError, match="2 cantrip"):
        learn_cantrip(m, "Whisper")


def test_F_ARCH_04_the_trickster_learns_one_cantrip_others_none() -> None:
    """F-ARCH-04 (Trickster), F-MU-06: an Arcane Trickster learns 1 cantrip; a Fighter none."""
    rogue = fighter(BRUN, char_class="Rogue", archetype_features=["trickster"])
    assert learn_cantrip(rogue, "Illusion").cantrips == ["Illusion"]
    with pytest.raises(CharacterError):
        learn_cantrip(learn_cantrip(rogue, "Illusion"), "Whisper")
    with pytest.raises(CharacterError):
        learn_cantrip(fighter(BRUN), "Illusion")


# -- F-MU-03 / F-CLR-03: the casting ability --------------------------------------------------------------------
def test_F_MU_03_arcane_spellcheck_uses_int() -> None:
    """F-MU-03: d20 + INT + PROF: face 12 + INT 2 + PROF 2 = 16 → SL2 (WIS is +0 here)."""
    dice = ScriptedDice([12])
    done = cast_spell(mage(EMBER), "Fireball", dice, 12, RULES)
    check = done.cast.check
    assert dice.remaining == 0
    assert check.roll.variables == {"INT": 2, "PROF": 2} and check.total == 16 and check.sl == 2
    assert casting_ability(mage(EMBER)) == "INT"


def test_F_CLR_03_divine_spellcheck_uses_wis() -> None:
    """F-CLR-03: d20 + WIS + PROF: face 12 + WIS 2 + PROF 2 = 16 (INT −1 plays no part)."""
    done = cast_spell(cleric(ODA), "Chill Touch", ScriptedDice([12]), 12, RULES)
    assert done.cast.check.roll.variables == {"WIS": 2, "PROF": 2} and done.cast.check.total == 16
    assert casting_ability(cleric(ODA)) == "WIS"


def test_cast_spell_refuses_an_unknown_spell_and_a_non_caster() -> None:
    """F-MU-05: only known spells are cast (without a scroll); F-CLR-03/F-MU-03: a Fighter casts nothing."""
    with pytest.raises(IllegalActionError, match="does not know Animate Dead"):
        cast_spell(mage(EMBER), "Animate Dead", ScriptedDice([12]), 12, RULES)
    with pytest.raises(CharacterError):
        cast_spell(fighter(BRUN), "Fireball", ScriptedDice([12]), 12, RULES)


# -- F-ARCH-04/05: scrolls -------------------------------------------------------------------------------------
def test_F_ARCH_05_a_wizard_casts_from_a_scroll_easy() -> None:
    """F-ARCH-05: a Wizard ('scroll-caster') casts from a scroll EASY: ROOM DC 16 − 3 = 13; face 9 + INT 2 + PROF 2
    = 13 succeeds (SL1), and a scroll needs no known spell."""
    wizard = mage(EMBER, archetype_features=["scroll-caster"], spells=[])
    done = cast_spell(wizard, "Animate Dead", ScriptedDice([9]), 16, RULES, scroll=True)
    assert done.cast.check.dc.value == 13 and done.cast.check.success and done.cast.check.sl == 1


def test_F_ARCH_05_without_a_scroll_the_wizard_gets_no_easy() -> None:
    """F-ARCH-05: EASY is for scrolls only: the same total 13 against ROOM DC 16 fails from the spellbook."""
    wizard = mage(EMBER, archetype_features=["scroll-caster"])
    done = cast_spell(wizard, "Fireball", ScriptedDice([9]), 16, RULES)
    assert done.cast.check.dc.value == 16 and not done.cast.check.success


def test_F_ARCH_04_an_arcane_trickster_reads_a_scroll_hard_with_int() -> None:
    """F-ARCH-04: an Arcane Trickster ('scroll-reader', a Rogue) reads an arcane scroll with a HARD SPELLCHECK
    using INT: ROOM DC 12 + 3 = 15. Face 12 + INT 1 + PROF 1 = 14 (SL1 band) fails; face 13 → 15 succeeds."""
    trickster = fighter(BRUN, char_class="Rogue", level=1, scores={**FLAT, "INT": 14},
                        archetype_features=["scroll-reader"])
    assert casting_ability(trickster, scroll=True) == "INT"
    miss = cast_spell(trickster, "Fireball", ScriptedDice([12]), 12, RULES, scroll=True).cast.check
    assert miss.roll.variables == {"INT": 1, "PROF": 1} and miss.total == 14
    assert miss.dc.value == 15 and not miss.success
    hit = cast_spell(trickster, "Fireball", ScriptedDice([13]), 12, RULES, scroll=True).cast.check
    assert hit.success and hit.sl == 1
    with pytest.raises(CharacterError):   # without a scroll a Rogue casts nothing
        cast_spell(trickster, "Fireball", ScriptedDice([13]), 12, RULES)


# -- F-SPELL-10 / F-SPELL-11: mishaps on the character -----------------------------------------------------
def test_F_SPELL_11_fireball_natural_1_rolls_its_own_table() -> None:
    """F-SPELL-10/11: a natural 1 on Fireball rolls F-TAB-19 (d6): face 1 → 'Only smoke, no fire'."""
    dice = ScriptedDice([1, 1])
    done = cast_spell(mage(EMBER), "Fireball", dice, 12, RULES)
    assert dice.remaining == 0
    assert done.mishap is not None and done.mishap.table.id == "F-TAB-19" and done.mishap.roll.total == 1
    assert done.cast.row is None and not done.cast.check.success
    assert kinds(done.events) == ["spellcheck", "mishap"]


def test_F_SPELL_10_a_spell_without_its_own_table_rolls_f_tab_18() -> None:
    """F-SPELL-10: Ember Swarm has no mishap table: a natural 1 rolls the general F-TAB-18 (d20): face 4 → 'STR SAVE
    or the caster is WEAK for 1 round'."""
    done = cast_spell(mage(EMBER), "Ember Swarm", ScriptedDice([1, 4, 2]), 12, RULES)   # STR SAVE 2: fails
    assert done.mishap is not None and done.mishap.table.id == "F-TAB-18"
    assert done.mishap.row.text.startswith("STR SAVE or the caster is WEAK")


def test_F_SPELL_10_D_7_cant_cast_until_rest_lands_in_until_rest() -> None:
    """F-SPELL-10, D-7: F-TAB-18 14–15 'CHA SAVE or the caster can't cast any spell until a rest' lands in
    until_rest; casting is then refused until a short rest clears it."""
    done = cast_spell(mage(EMBER), "Ember Swarm", ScriptedDice([1, 14, 2]), 12, RULES)   # the CHA SAVE fails
    locked = done.character
    assert [x.split(":")[0] for x in locked.until_rest] == ["CANT_CAST"]
    with pytest.raises(IllegalActionError, match="cannot cast until a rest"):
        cast_spell(locked, "Fireball", ScriptedDice([15]), 12, RULES)
    rested, _ = short_rest(locked, ScriptedDice([]), RULES)   # at full HP: no Hit Die spent
    assert rested.until_rest == []
    assert cast_spell(rested, "Fireball", ScriptedDice([15]), 12, RULES).cast.check.success


def test_F_SPELL_10_a_no_save_until_rest_row_lands_too() -> None:
    """F-SPELL-10, AMB-20, D-7: 10–11 'No save: until a rest the caster can't target that creature' is kept in
    until_rest, but it does not stop casting."""
    locked = cast_spell(mage(EMBER), "Ember Swarm", ScriptedDice([1, 10]), 12, RULES).character
    assert [x.split(":")[0] for x in locked.until_rest] == ["CANT_TARGET_SAME"]
    assert cast_spell(locked, "Fireball", ScriptedDice([15]), 12, RULES).cast.check.success


def test_AMB_20_a_mishap_save_is_rolled_and_a_success_avoids_the_lockout() -> None:
    """AMB-20: '14–15: CHA SAVE or the caster can't cast any spell until a rest': a CHA SAVE of 20 vs ROOM DC 12
    succeeds, so nothing lands in until_rest (dice: natural 1, mishap 14, CHA SAVE 20)."""
    dice = ScriptedDice([1, 14, 20])
    done = cast_spell(mage(EMBER), "Ember Swarm", dice, 12, RULES)
    assert dice.remaining == 0
    assert done.character.until_rest == []


def test_F_SPELL_10_cant_try_this_spell_again_until_rest_is_enforced() -> None:
    """F-SPELL-10 (F-TAB-18 8–9) 'INT SAVE or the caster can't try this spell again until a rest': after it, the
    same spell is refused (other spells are still allowed)."""
    locked = cast_spell(mage(EMBER), "Ember Swarm", ScriptedDice([1, 8, 1]), 12, RULES).character
    assert [x.split(":")[0] for x in locked.until_rest] == ["CANT_CAST_THIS_SPELL"]
    assert cast_spell(locked, "Fireball", ScriptedDice([15]), 12, RULES).cast.check.success
    with pytest.raises(IllegalActionError):
        cast_spell(locked, "Ember Swarm", ScriptedDice([15]), 12, RULES)


# -- F-MU-04: Spell Depletion ----------------------------------------------------------------------------------
def test_F_MU_04_the_count_grows_with_each_attempt_failures_included() -> None:
    """F-MU-04, AMB-41 (spell_depletion_counts = attempts): a failed SPELLCHECK counts too; no SAVE before the 4th."""
    assert RULES["spell_depletion_counts"] == "attempts"
    m = mage(EMBER)
    for n, face in enumerate([15, 3, 15], 1):
        m = cast_spell(m, "Fireball", ScriptedDice([face]), 12, RULES).character
        assert m.spells_cast == n


def test_F_MU_04_D_7_fourth_spell_failed_int_save_depletes_until_rest() -> None:
    """F-MU-04: after the 4th spell an INT SAVE vs ROOM DC: d20 5 + INT 2 + PROF 2 (INT save) = 9 < 14 fails →
    DEPLETED until rest and the count resets; cast_spell then raises; a short rest clears it (D-7, AMB-41)."""
    dice = ScriptedDice([15, 5])
    done = cast_spell(mage(EMBER, spells_cast=3), "Fireball", dice, 14, RULES)
    assert dice.remaining == 0
    depleted = done.character
    assert depleted.spells_cast == 0 and depleted.until_rest == ["DEPLETED: Spell Depletion"]
    save = done.events[-1]
    assert save.kind == "depletion" and save.rolls[0].total == 9 and "F-MU-04" in save.rules
    assert save.data["saved"] is False and "INT SAVE 9 vs DC 14 fails" in tell_referee(save)
    with pytest.raises(IllegalActionError, match="DEPLETED"):
        cast_spell(depleted, "Chill Touch", ScriptedDice([15]), 14, RULES)
    assert short_rest(depleted, ScriptedDice([]), RULES)[0].until_rest == []
    assert long_rest(depleted, ScriptedDice([]), RULES)[0].until_rest == []


def test_F_MU_04_fourth_spell_int_save_holds_and_resets_the_count() -> None:
    """F-MU-04: INT SAVE d20 10 + 4 = 14 ≥ ROOM DC 14 holds: the count goes back to 0, no lockout."""
    done = cast_spell(mage(EMBER, spells_cast=3), "Fireball", ScriptedDice([15, 10]), 14, RULES)
    assert done.character.spells_cast == 0 and done.character.until_rest == []


def test_AMB_41_option_spell_depletion_counts_successes() -> None:
    """AMB-41, option spell_depletion_counts = successes: a failed spell neither counts nor triggers the SAVE."""
    rules = load_ruleset(overrides={"spell_depletion_counts": "successes"})
    dice = ScriptedDice([3])
    failed = cast_spell(mage(EMBER, spells_cast=3), "Fireball", dice, 14, rules)
    assert dice.remaining == 0 and failed.character.spells_cast == 3
    assert cast_spell(mage(EMBER), "Fireball", ScriptedDice([15]), 14, rules).character.spells_cast == 1


def test_AMB_41_clerics_have_no_depletion_unless_the_option_says_so() -> None:
    """AMB-41, F-MU-04 ('Arcane Magic'): a cleric's prayers do not count (cleric_spell_depletion false); with the
    option on, the 4th prayer asks for an INT SAVE (INT −1, no INT save PROF: 10 − 1 = 9 < 12 → DEPLETED)."""
    assert RULES["cleric_spell_depletion"] is False
    cast = cast_spell(cleric(ODA, spells_cast=3), "Chill Touch", ScriptedDice([15]), 12, RULES)
    assert cast.character.spells_cast == 3
    rules = load_ruleset(overrides={"cleric_spell_depletion": True})
    done = cast_spell(cleric(ODA, spells_cast=3), "Chill Touch", ScriptedDice([15, 10]), 12, rules)
    assert done.character.until_rest == ["DEPLETED: Spell Depletion"]
    assert done.events[-1].rolls[0].total == 9


# -- F-CLR-04: disapproval (D-10, CF-16) -------------------------------------------------------------------------
def test_F_CLR_04_D_10_cleric_natural_1_rolls_disapproval_not_a_mishap() -> None:
    """F-CLR-04, D-10, CF-16: a cleric's natural 1 rolls X-TAB-02 on 1d4 + range (range 1, face 2 → 3: 'no prayer
    next turn'), not the mishap table; the failed prayer widens the range 1 → 2."""
    assert RULES["cleric_natural_1"] == "disapproval"
    dice = ScriptedDice([1, 2])
    done = cast_spell(cleric(ODA), "Chill Touch", dice, 12, RULES)
    assert dice.remaining == 0
    assert done.mishap is not None and done.mishap.table.id == "X-TAB-02" and done.mishap.roll.total == 3
    assert "mishap" not in kinds(done.events)
    assert kinds(done.events) == ["spellcheck", "disapproval", "disapproval_range"]
    assert done.character.disapproval == 2


def test_F_CLR_04_each_failed_prayer_widens_the_range() -> None:
    """F-CLR-04: a failed prayer (face 5 + 4 = 9) with no disapproval widens the range by one: 1 → 2 → 3; a
    successful one leaves it."""
    c = cleric(ODA)
    for want in (2, 3):
        done = cast_spell(c, "Chill Touch", ScriptedDice([5]), 12, RULES)
        assert done.mishap is None and done.character.disapproval == want
        c = done.character
    assert cast_spell(c, "Chill Touch", ScriptedDice([15]), 12, RULES).character.disapproval == 3


def test_F_CLR_04_a_natural_roll_within_the_range_is_disapproval() -> None:
    """F-CLR-04: with a range of 3, a natural 3 is disapproval: 1d4 (face 4) + 3 = 7 → 'FRIGHTENED for 1d4 rounds';
    a natural 4 is not."""
    done = cast_spell(cleric(ODA, disapproval=3), "Chill Touch", ScriptedDice([3, 4]), 12, RULES)
    assert done.mishap is not None and done.mishap.roll.total == 7
    assert "FRIGHTENED" in done.mishap.row.text
    assert done.character.disapproval == 4
    plain = cast_spell(cleric(ODA, disapproval=3), "Chill Touch", ScriptedDice([4]), 12, RULES)
    assert plain.mishap is None and kinds(plain.events) == ["spellcheck", "disapproval_range"]


def test_F_CLR_04_CF_16_option_mishap_uses_the_mishap_table() -> None:
    """CF-16, option cleric_natural_1 = mishap: the cleric's natural 1 rolls F-TAB-18 (d20 face 2: DEX SAVE or
    PRONE) and no disapproval."""
    rules = load_ruleset(overrides={"cleric_natural_1": "mishap"})
    done = cast_spell(cleric(ODA), "Chill Touch", ScriptedDice([1, 2, 2]), 12, rules)   # and its DEX SAVE
    assert done.mishap is not None and done.mishap.table.id == "F-TAB-18"
    assert "disapproval" not in kinds(done.events)


def test_CF_16_option_also_mishap_rolls_both() -> None:
    """CF-16, option cleric_natural_1 = also_mishap: disapproval (1d4 face 1 + 1 = 2) and a mishap (d20 face 4)."""
    rules = load_ruleset(overrides={"cleric_natural_1": "also_mishap"})
    dice = ScriptedDice([1, 1, 4, 2])   # natural 1, disapproval 1d4, mishap d20, the mishap's STR SAVE
    done = cast_spell(cleric(ODA), "Chill Touch", dice, 12, rules)
    assert dice.remaining == 0
    assert kinds(done.events)[:3] == ["spellcheck", "disapproval", "mishap"]
    assert done.mishap is not None and done.mishap.table.id == "F-TAB-18"


def test_F_CLR_04_D_7_disapproval_until_rest_lockout_is_kept() -> None:
    """F-CLR-04, D-7: range 16, natural 5: 1d4 face 1 + 16 = 17 → 'No prayer is answered until a rest spent in
    atonement': the cleric cannot pray until a rest."""
    done = cast_spell(cleric(ODA, disapproval=16), "Chill Touch", ScriptedDice([5, 1]), 12, RULES)
    assert done.mishap is not None and done.mishap.roll.total == 17
    assert any(x.startswith("CANT_CAST") for x in done.character.until_rest)


# -- F-CLR-05 / F-CLR-07: Lay on Hands -------------------------------------------------------------------------
@pytest.mark.parametrize(("face", "total", "hd"), [
    (7, 11, 0), (8, 12, 1), (11, 15, 1), (12, 16, 2), (16, 20, 2), (17, 21, 3), (19, 23, 3)])
def test_F_CLR_05_lay_on_hands_bands(face: int, total: int, hd: int) -> None:
    """F-CLR-05 (F-TAB-06): total d20 + WIS 2 + PROF 2: 11 → 0 HD; 12–15 → 1; 16–20 → 2; 21–26 → 3. The recipient
    (a level-5 Fighter, cap 5) spends that many d10 from her own pool."""
    recipient = fighter(BRUN, level=5, hit_dice=5)
    dice = ScriptedDice([face] + [4] * hd)
    _, healed, events = lay_on_hands(cleric(ODA), recipient, dice, 12, RULES)
    assert dice.remaining == 0 and events[0].rolls[0].total == total
    assert healed.hit_dice == 5 - hd and healed.hp == 5 + 4 * hd and healed.healed_today == hd
    assert [e.kind for e in events].count("hit_die") == hd


def test_F_CLR_05_27_and_above_is_4_hd() -> None:
    """F-CLR-05 (F-TAB-06): 27+ → 4 HD. A level-9 cleric (PROF +4) with WIS 20 (+4): face 19 → 27 → 4 HD, which a
    level-9 recipient spends from her pool; the table's edges read 26 → 3, 27 → 4, 40 → 4."""
    table = RULES.tables.get("lay-on-hands")
    assert [table.lookup(t).data["hd"] for t in (11, 12, 15, 16, 20, 21, 26, 27, 40)] == [0, 1, 1, 2, 2, 3, 3, 4, 4]
    high = cleric(ODA, level=9, scores={**FLAT, "WIS": 20})
    dice = ScriptedDice([19, 1, 1, 1, 1])
    _, healed, events = lay_on_hands(high, fighter(BRUN, level=9, hit_dice=9), dice, 12, RULES)
    assert dice.remaining == 0 and events[0].rolls[0].total == 27
    assert healed.healed_today == 4 and healed.hit_dice == 5


def test_F_CLR_05_the_recipient_spends_her_own_pool_and_dice() -> None:
    """F-CLR-05: the recipient rolls her own Hit Die (a Fighter's d10, not the cleric's) from her own pool; the
    cleric's pool is untouched."""
    c = cleric(ODA)
    dice = ScriptedDice([12, 10, 9])   # 16 → 2 HD: d10 10 and 9
    after_cleric, healed, _ = lay_on_hands(c, fighter(BRUN, level=5, hit_dice=5), dice, 12, RULES)
    assert dice.used[1:] == [(10, 10), (9, 10)]
    assert healed.hp == 24 and healed.hit_dice == 3 and after_cleric.hit_dice == c.hit_dice


def test_F_CLR_05_limited_by_the_dice_left_in_her_pool() -> None:
    """AMB-15 (b): 3 HD bought (total 21) but only 1 left in her pool: she spends 1."""
    _, healed, _ = lay_on_hands(cleric(ODA), fighter(BRUN, level=5, hit_dice=1), ScriptedDice([17, 6]), 12, RULES)
    assert healed.hit_dice == 0 and healed.hp == 11 and healed.healed_today == 1


def test_F_CLR_07_daily_cap_is_the_recipients_level() -> None:
    """F-CLR-07, CF-17: a level-2 recipient with 5 HD in her pool: 3 HD bought (total 21) but she may take 2 a day;
    healed_today 2; a second Lay on Hands the same day gives nothing; new_day resets the count."""
    recipient = fighter(BRUN, level=2, hit_dice=5)
    assert heal_cap(recipient, RULES) == 2
    dice = ScriptedDice([17, 3, 4])
    _, healed, events = lay_on_hands(cleric(ODA), recipient, dice, 12, RULES)
    assert dice.remaining == 0
    assert (healed.hit_dice, healed.hp, healed.healed_today) == (3, 12, 2)
    assert events[1].data["allowed"] == 2 and "may spend 2" in tell_referee(events[1])
    dice = ScriptedDice([17])
    _, again, _ = lay_on_hands(cleric(ODA), healed, dice, 12, RULES)
    assert dice.remaining == 0 and (again.hp, again.hit_dice, again.healed_today) == (12, 3, 2)
    tomorrow = new_day(again)
    assert tomorrow.healed_today == 0
    _, later, _ = lay_on_hands(cleric(ODA), tomorrow, ScriptedDice([8, 5]), 12, RULES)
    assert later.hp == 17 and later.healed_today == 1


def test_F_CLR_07_CF_17_level_0_cap_per_option() -> None:
    """F-CLR-07, CF-17: a level-0 character's cap is 0 (zero_level_heal_cap default 0), so she gets nothing;
    with zero_level_heal_cap = 1 she spends 1 HD (a d4, D-12)."""
    peasant = Character(name="Pip", level=0, scores=dict(FLAT), hp_max=4, hp=1, hit_dice=1)
    assert RULES["zero_level_heal_cap"] == 0 and heal_cap(peasant, RULES) == 0
    _, same, _ = lay_on_hands(cleric(ODA), peasant, ScriptedDice([17]), 12, RULES)
    assert same.hp == 1 and same.hit_dice == 1
    rules = load_ruleset(overrides={"zero_level_heal_cap": 1})
    assert heal_cap(peasant, rules) == 1
    dice = ScriptedDice([17, 3])
    _, healed, _ = lay_on_hands(cleric(ODA), peasant, dice, 12, rules)
    assert dice.used[-1] == (3, 4) and healed.hp == 4 and healed.hit_dice == 0


def test_AMB_15_natural_20_adds_2_hd() -> None:
    """AMB-15 (d), option loh_nat20_extra_hd = 2: natural 20 + WIS 2 + 3 × PROF 2 = 28 → 4 HD + 2 = 6; a level-9
    recipient with 9 HD in her pool spends all 6."""
    assert RULES["loh_nat20_extra_hd"] == 2
    dice = ScriptedDice([20] + [1] * 6)
    _, healed, events = lay_on_hands(cleric(ODA), fighter(BRUN, level=9, hit_dice=9), dice, 12, RULES)
    assert dice.remaining == 0 and healed.hit_dice == 3 and healed.healed_today == 6
    assert (events[1].data["total"], events[1].data["hd"]) == (28, 6) and "28 → 6 HD" in tell_referee(events[1])
    rules = load_ruleset(overrides={"loh_nat20_extra_hd": 0})
    _, plain, _ = lay_on_hands(cleric(ODA), fighter(BRUN, level=9, hit_dice=9), ScriptedDice([20] + [1] * 4), 12, rules)
    assert plain.healed_today == 4


def test_AMB_15_the_room_dc_gate_applies() -> None:
    """AMB-15 (a), F-SPELL-04: total 13 (SL1 band) against ROOM DC 14: no healing."""
    dice = ScriptedDice([9])
    _, same, events = lay_on_hands(cleric(ODA), fighter(BRUN), dice, 14, RULES)
    # a failed Lay on Hands is a failed prayer: the disapproval range widens (F-CLR-04)
    assert dice.remaining == 0 and same.hp == 5 and kinds(events) == ["spellcheck", "disapproval_range"]


def test_AMB_15_loh_self_option() -> None:
    """AMB-15 (c), option loh_self (default true): a cleric may heal herself; with the option off she may not."""
    hurt = cleric(ODA, hp=3)
    assert RULES["loh_self"] is True
    _, healed, _ = lay_on_hands(hurt, hurt, ScriptedDice([8, 5]), 12, RULES)   # 12 → 1 HD (d8, Cleric)
    assert healed.hp == 8
    with pytest.raises(IllegalActionError, match="loh_self"):
        lay_on_hands(hurt, hurt, ScriptedDice([8, 5]), 12, load_ruleset(overrides={"loh_self": False}))


def test_F_CLR_05_only_a_cleric_lays_on_hands() -> None:
    with pytest.raises(CharacterError):
        lay_on_hands(mage(EMBER), fighter(BRUN), ScriptedDice([15]), 12, RULES)


def test_AMB_15_e_lay_on_hands_natural_1_is_disapproval() -> None:
    """AMB-15 (e): a natural 1 on Lay on Hands triggers Cleric disapproval: 1d4 (face 2) + range 1 on X-TAB-02."""
    dice = ScriptedDice([1, 2])
    after, _, events = lay_on_hands(cleric(ODA), fighter(BRUN), dice, 12, RULES)
    assert "disapproval" in kinds(events) and dice.remaining == 0
    assert after.disapproval == 2


def test_F_CLR_06_curing_a_condition_is_the_referees_call_not_automated() -> None:
    """F-CLR-06 (REF-06, CF-47): curing a condition instead of HP is not automated: lay_on_hands only heals Hit
    Dice (it takes no condition to cure); F-TAB-06 notes the referee's call and the option
    loh_counts_as_cure_serious exists. GAP: no 'cure condition' action listing the target's conditions (REF-06)."""
    import inspect

    assert set(inspect.signature(lay_on_hands).parameters) == {"cleric", "recipient", "rng", "room_dc", "rules"}
    notes = " ".join(RULES.tables.get("lay-on-hands").notes)
    assert "F-CLR-06" in notes and "referee" in notes
    assert RULES["loh_counts_as_cure_serious"] is True
    sick = fighter(BRUN, conditions=["POISONED"])
    _, after, _ = lay_on_hands(cleric(ODA), sick, ScriptedDice([8, 5]), 12, RULES)
    assert after.conditions == ["POISONED"]   # the condition stays: the referee removes it


def test_F_CLR_08_optional_extra_hd_recovery_exists_and_is_off() -> None:
    """F-CLR-08 (REF-05): the optional extra HD recovery after a CON SAVE is an option, default off."""
    assert RULES["loh_extra_hd_recovery"] is False
    assert load_ruleset(overrides={"loh_extra_hd_recovery": True})["loh_extra_hd_recovery"] is True


# -- in a fight (furnace.magic.fight via furnace.play.encounter) ----------------------------------------------------
def test_F_SPELL_12_fireball_sl2_one_damage_roll_for_target_and_close_foe() -> None:
    """F-SPELL-12, F-TAB-13: Fireball SL2 (face 12 + 2 + 2 = 16) deals 1d6 fire to the target and everyone CLOSE to
    it, from ONE roll (d6 face 5): both CLOSE foes lose 5; the NEAR foe is untouched. Two dice in all."""
    enc = encounter(pc("m", CASTER, NECROMANCY), monster("g1", FOE), monster("g2", FOE),
                    monster("g3", FOE, zone="NEAR"))
    after, events, dice = cast_in(enc, "Fireball", "g1", [12, 5])
    assert dice.remaining == 0
    assert [after.get(x).hp for x in ("g1", "g2", "g3")] == [35, 35, 40]
    assert [(e.data["amount"], e.data["type"]) for e in events if e.kind == "effect"] == [(5, "fire")]
    assert [tell_referee(e).splitlines()[0] for e in events if e.kind == "effect"] == ["M: Fireball deals 5 fire DAM"]
    assert next(e for e in events if e.kind == "spellcheck").data["sl"] == 2


def test_F_SPELL_12_fireball_sl4_reaches_near() -> None:
    """F-SPELL-12: Fireball SL4 (face 19 + 6 + 2 = 27): 5d6 to the target and everyone NEAR it (one roll, 5 dice)."""
    enc = encounter(pc("m", CASTER, NECROMANCY, spell_mod=6), monster("g1", FOE), monster("g3", FOE, zone="NEAR"),
                    monster("g4", FOE, zone="FAR"))
    after, _, dice = cast_in(enc, "Fireball", "g1", [19, 1, 2, 3, 4, 5])
    assert dice.remaining == 0
    assert [after.get(x).hp for x in ("g1", "g3", "g4")] == [25, 25, 40]


def test_F_SPELL_07_in_a_fight_the_damage_is_the_dice_alone() -> None:
    """F-SPELL-07: INT +6 is not added to the damage: Fireball SL1 (face 4 + 6 + 2 = 12), d6 face 3 → 3 DAM."""
    enc = encounter(pc("m", CASTER, NECROMANCY, spell_mod=6), monster("g1", FOE))
    after, _, _ = cast_in(enc, "Fireball", "g1", [4, 3])
    assert after.get("g1").hp == 37


def test_F_SPELL_12_chill_touch_sl4_paralyses_and_marks_cant_be_healed() -> None:
    """F-SPELL-12 (F-TAB-14): Chill Touch SL4 (face 19 + 6 + 2 = 27): 3d8 cold (1 + 2 + 3 = 6), can't be healed
    for 1d4 rounds (face 2 → until round 3), PARALYSED for 1 round (until round 2)."""
    enc = encounter(pc("m", CASTER, NECROMANCY, spell_mod=6), monster("g1", FOE))
    after, _, dice = cast_in(enc, "Chill Touch", "g1", [19, 1, 2, 3, 2])
    assert dice.remaining == 0
    target = after.get("g1")
    assert target.hp == 34
    held = {h.name: h.until_round for h in target.held}
    assert held == {"CANT_BE_HEALED": 3, "PARALYSED": 2}


def test_F_SPELL_12_AMB_22_cant_be_healed_blocks_healing() -> None:
    """F-TAB-14 note: CANT_BE_HEALED = no HP recovery of any kind while it lasts. After Chill Touch SL4, a heal of
    5 on the target leaves its HP at 34."""
    enc = encounter(pc("m", CASTER, NECROMANCY, spell_mod=6), monster("g1", FOE))
    after, _, _ = cast_in(enc, "Chill Touch", "g1", [19, 1, 2, 3, 2])
    step = Step(after, ScriptedDice([]), RULES)
    apply_all(step, [parse_effect({"kind": "heal", "dice": "5", "target": "target"})], actor="m", target="g1")
    assert step.c("g1").hp == 34


def test_F_SPELL_12_animate_dead_sl3_raises_zombies_that_crumble() -> None:
    """F-SPELL-12 (F-TAB-15, X-TAB-05): Animate Dead SL3 (face 17 + 2 + 2 = 21): 1d4 (face 3) zombies on the
    caster's side for 2d4 (2 + 3 = 5) rounds: doomed_round 1 + 5 = 6; each has 2d8 HP and AC ROOM DC − 2. At
    its turn in round 6 a zombie crumbles."""
    enc = encounter(pc("m", CASTER, NECROMANCY), monster("g1", FOE))
    after, events, dice = cast_in(enc, "Animate Dead", "g1", [17, 3, 2, 3, 1, 1, 2, 2, 3, 3])
    assert dice.remaining == 0
    zombies = [c for c in after.combatants if c.id.startswith("zombie")]
    assert len(zombies) == 3
    assert all(z.side == "a" and z.doomed_round == 6 and z.ac == 10 for z in zombies)
    assert [z.hp for z in zombies] == [2, 4, 6]
    assert next(e for e in events if e.kind == "summon").data["count"] == 3
    step = Step(after.model_copy(update={"round": 5}), ScriptedDice([]), RULES)
    assert start_turn(step, zombies[0].id) and step.c(zombies[0].id).status == "up"
    step = Step(after.model_copy(update={"round": 6}), ScriptedDice([]), RULES)
    assert not start_turn(step, zombies[0].id)
    assert step.c(zombies[0].id).status == "dead"


def test_F_SPELL_12_animate_dead_sl1_raises_nothing_in_a_fight() -> None:
    """F-SPELL-12: Animate Dead SL1 (face 8 + 2 + 2 = 12) is still a failure: no combatant joins."""
    enc = encounter(pc("m", CASTER, NECROMANCY), monster("g1", FOE))
    after, _, dice = cast_in(enc, "Animate Dead", "g1", [8])
    assert dice.remaining == 0 and len(after.combatants) == 2


def test_F_SPELL_11_natural_1_fireball_rolls_f_tab_19_on_the_caster() -> None:
    """F-SPELL-10/11, AMB-20: a natural 1 on Fireball rolls F-TAB-19 (d6 face 3): 1d6 fire DAM to the caster (4)
    and a WIS SAVE (d20 5 + 0 < 12) → FRIGHTENED for 1 round; the target is untouched."""
    enc = encounter(pc("m", CASTER, NECROMANCY), monster("g1", FOE))
    after, events, dice = cast_in(enc, "Fireball", "g1", [1, 3, 4, 5])
    assert dice.remaining == 0
    mishap = next(e for e in events if e.kind == "mishap")
    assert mishap.rolls[0].total == 3 and mishap.data["table"] == "mishap-fireball"
    me = after.get("m")
    assert me.hp == 8 and {h.name for h in me.held} == {"FRIGHTENED"}
    assert after.get("g1").hp == 40 and magic_state(me).spells_cast == 1


def test_F_MU_04_in_a_fight_depletion_holds_and_the_tactic_falls_back_to_attacking() -> None:
    """F-MU-04: a caster with 3 spells cast casts a 4th (Fireball SL1, face 8 → 12, d6 2), then INT SAVE d20 2 + 4 =
    6 < 12 fails: DEPLETED is held until rest; the simple tactic now attacks instead of casting, and a cast is
    refused."""
    enc = encounter(pc("m", CASTER, NECROMANCY, spells_cast=3), monster("g1", FOE))
    assert tactic_attack_nearest(enc, enc.get("m")).kind == "cast"
    after, events, dice = cast_in(enc, "Fireball", "g1", [8, 2, 2])
    assert dice.remaining == 0
    me = after.get("m")
    assert [(h.name, h.ending) for h in me.held] == [("DEPLETED", "rest")] and magic_state(me).spells_cast == 0
    assert events[-1].kind == "depletion" and "F-MU-04" in events[-1].rules and events[-1].data["saved"] is False
    assert tactic_attack_nearest(after, me).kind in ("attack", "move_attack")
    with pytest.raises(IllegalActionError, match="cannot cast until a rest"):
        act(Step(after, ScriptedDice([15]), RULES), "m", Action("cast", "g1", detail="Fireball"))


def test_F_MU_04_in_a_fight_a_held_save_resets_the_count() -> None:
    """F-MU-04: the INT SAVE d20 8 + 4 = 12 ≥ ROOM DC 12 holds: no lockout, count 0."""
    enc = encounter(pc("m", CASTER, NECROMANCY, spells_cast=3), monster("g1", FOE))
    after, _, _ = cast_in(enc, "Fireball", "g1", [8, 2, 8])
    assert after.get("m").held == () and magic_state(after.get("m")).spells_cast == 0


def test_F_CLR_04_in_a_fight_a_clerics_natural_1_is_disapproval() -> None:
    """F-CLR-04, D-10: in a fight a cleric's natural 1 rolls X-TAB-02 (1d4 face 4 + 1 = 5: 1d4 radiant DAM to the
    cleric, face 3), no mishap; the range widens to 2."""
    enc = encounter(pc("c", CASTER, NECROMANCY, PRIEST), monster("g1", FOE))
    after, events, dice = cast_in(enc, "Chill Touch", "g1", [1, 4, 3], who="c")
    assert dice.remaining == 0
    assert "mishap" not in kinds(events) and "disapproval" in kinds(events)
    assert after.get("c").hp == 9 and magic_state(after.get("c")).disapproval == 2


def test_CF_16_in_a_fight_also_mishap_rolls_both() -> None:
    """CF-16, option cleric_natural_1 = also_mishap: in a fight the cleric's natural 1 rolls disapproval (1d4 face 1
    + 1 = 2: nothing) and a Magical Mishap (F-TAB-18 d20 face 18: a referee prompt)."""
    rules = load_ruleset(overrides={"cleric_natural_1": "also_mishap"})
    enc = encounter(pc("c", CASTER, NECROMANCY, PRIEST), monster("g1", FOE))
    _, events, dice = cast_in(enc, "Chill Touch", "g1", [1, 1, 18], rules, who="c")
    assert {"disapproval", "mishap"} <= set(kinds(events)) and dice.remaining == 0


def test_AMB_41_in_a_fight_only_successes_count_when_the_option_says_so() -> None:
    """AMB-41, option spell_depletion_counts = successes: a failed Fireball (face 3 → 7) neither counts nor rolls
    the INT SAVE: spells_cast stays 3, one die in all."""
    rules = load_ruleset(overrides={"spell_depletion_counts": "successes"})
    enc = encounter(pc("m", CASTER, NECROMANCY, spells_cast=3), monster("g1", FOE))
    after, _, dice = cast_in(enc, "Fireball", "g1", [3, 2], rules)
    assert magic_state(after.get("m")).spells_cast == 3 and after.get("m").held == ()
    assert dice.remaining == 1
