"""Rest options and what a rest ends (`furnace.play.rest`, `furnace.magic.casting`, `furnace.magic.items`).

RULES.md AMB-14 / F-REST-02 (option long_rest_heals), D-8 / AMB-34 / F-TAB-38 8–11 (option torso_injury_rest_days:
the torso wound heals after N days of rest or at once by magic), D-7 / AMB-41 (any rest ends the lockouts until
rest and resets the Spell Depletion count), AMB-59 (a magic item's daily uses come back with the day, or a long
rest by option).
"""

from __future__ import annotations

from typing import Any

import pytest

from furnace.characters.character import Character
from furnace.dice import ScriptedDice
from furnace.errors import IllegalActionError
from furnace.magic.casting import cast_spell, lay_on_hands
from furnace.magic.items import USES_KEY, use_item, uses_left
from furnace.play.aftermath import settle
from furnace.play.apply import apply_all
from furnace.play.combatant import from_character
from furnace.play.conditions import FIGHT_KEY
from furnace.play.rest import REST_KEY, long_rest, rest_days, short_rest
from furnace.play.state import Encounter, Step
from furnace.render.story import tell_referee
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import fighter, mage
from tests.helpers.story import said

RULES = load_ruleset()
FLAT = {"STR": 10, "DEX": 10, "CON": 10, "INT": 10, "WIS": 10, "CHA": 10}
TORSO_ROW = "Torso wound: CON SAVE each turn, or the pain stops you acting that turn."
BRYN: dict[str, Any] = dict(name="Bryn", level=3, scores=FLAT, hp_max=24, hp=5, hit_dice=3)   # d10 Hit Die, pool of 3
# at full HP (a long rest rolls no die) with the torso wound as a fight records it: its row and its name
WOUNDED: dict[str, Any] = dict(hp=24, injuries=[TORSO_ROW, "torso", "horrible scar"])


# -- long_rest_heals (AMB-14, F-REST-02) ----------------------------------------------------------------------------
def test_AMB_14_F_REST_02_long_rest_heals_roll_pool_rolls_every_hit_die_left() -> None:
    """AMB-14, default roll_pool: the three d10 of the pool are rolled (2 + 2 + 2): HP 5 → 11; the pool refills
    to 3."""
    dice = ScriptedDice([2, 2, 2])
    after, events = long_rest(fighter(BRYN), dice, RULES)
    assert (after.hp, after.hit_dice) == (11, 3) and dice.remaining == 0
    assert [e.kind for e in events] == ["hit_die", "hit_die", "hit_die", "pool_refilled"]


def test_AMB_14_F_REST_02_long_rest_heals_full_restores_every_hp_without_a_roll() -> None:
    """AMB-14, long_rest_heals full (5e): HP 5 → 24 with no die rolled, and the pool refills to 3 (it was 1)."""
    rules = RULES.with_options({"long_rest_heals": "full"})
    dice = ScriptedDice([])
    after, events = long_rest(fighter(BRYN, hit_dice=1), dice, rules)
    assert (after.hp, after.hit_dice) == (24, 3)
    assert (events[0].kind, events[0].data["hp_before"], events[0].data["hp_after"]) == ("full_heal", 5, 24)


# -- torso_injury_rest_days (D-8, AMB-34) -------------------------------------------------------------------------
def rest_nights(character: Character, nights: int, rules: Any = RULES) -> Character:
    for _ in range(nights):
        character, _events = long_rest(character, ScriptedDice([]), rules)
    return character


def test_D_8_torso_wound_heals_after_10_long_rests_by_default() -> None:
    """D-8 (torso_injury_rest_days 10): after 9 long rests the torso wound is still there (9 days counted on the
    character); the 10th heals it (its row and its name go, the scar stays) and the count goes."""
    nine = rest_nights(fighter(BRYN, WOUNDED), 9)
    assert TORSO_ROW in nine.injuries and "torso" in nine.injuries and rest_days(nine) == 9
    ten, events = long_rest(nine, ScriptedDice([]), RULES)
    assert ten.injuries == ["horrible scar"] and rest_days(ten) == 0 and REST_KEY not in ten.extensions
    assert any(e.kind == "torso_wound" and "torso wound heals after 10 days" in said(e) for e in events)


def test_D_8_torso_injury_rest_days_3_heals_it_on_the_third_long_rest() -> None:
    """D-8, torso_injury_rest_days 3: two long rests leave it (day 2 of 3), the third heals it."""
    rules = RULES.with_options({"torso_injury_rest_days": 3})
    two = rest_nights(fighter(BRYN, WOUNDED), 2, rules)
    assert TORSO_ROW in two.injuries and rest_days(two) == 2
    assert rest_nights(two, 1, rules).injuries == ["horrible scar"]


def test_D_8_a_short_rest_is_not_a_day_of_rest() -> None:
    """D-8: only a long rest counts a day; a short rest leaves the count at 0."""
    after, _ = short_rest(fighter(BRYN, WOUNDED), ScriptedDice([]), RULES)
    assert TORSO_ROW in after.injuries and rest_days(after) == 0


def test_D_8_lay_on_hands_heals_the_torso_wound_at_once() -> None:
    """D-8: magical healing ends the torso wound. Cleric WIS 10, level 3 (PROF 2): SPELLCHECK 14 + 2 = 16 on F-TAB-06
    buys Hit Dice; the wounded Fighter (HP 20 of 24, 4 days counted, one die in her pool) spends it (d10 = 3):
    HP 23, no torso wound, no count."""
    cleric = Character(name="Ida", char_class="Cleric", level=3, scores=dict(FLAT), hp_max=18, hp=18, hit_dice=3)
    patient = fighter(BRYN, WOUNDED, hp=20, hit_dice=1, extensions={REST_KEY: {"torso_days": 4}})
    dice = ScriptedDice([14, 3])
    _, healed, events = lay_on_hands(cleric, patient, dice, 12, RULES)
    assert healed.hp == 23 and healed.injuries == ["horrible scar"] and rest_days(healed) == 0
    assert any("Lay on Hands heals the torso wound" in said(e) and "D-8" in e.rules for e in events)


def test_D_8_F_TAB_38_a_torso_wound_from_a_fight_heals_with_its_save_after_the_days_of_rest() -> None:
    """F-TAB-38 9 in a fight leaves the torso wound and its CON SAVE at each turn on the character (written back
    after the fight); with torso_injury_rest_days 2 the second long rest heals both: no injury, no periodic SAVE
    carried into the next fight."""
    rules = RULES.with_options({"torso_injury_rest_days": 2})
    bryn = fighter(BRYN, hp=24)
    step = Step(Encounter(room_dc=12, round=1, combatants=(from_character(bryn, "a", rules, id="b"),)),
                ScriptedDice([]), rules)
    row = rules.tables.get("lingering-injuries").lookup(9)
    step.update("b", injuries=(row.text,))
    apply_all(step, row.effect_list(), actor="b", target="b")
    hurt, _ = settle(bryn, step.c("b"), rules)
    assert "torso" in hurt.injuries and [h["name"] for h in hurt.extensions[FIGHT_KEY]["held"]] == ["EVERY:save"]
    once = rest_nights(hurt, 1, rules)
    assert "torso" in once.injuries and rest_days(once) == 1 and FIGHT_KEY in once.extensions
    healed = rest_nights(once, 1, rules)
    assert healed.injuries == [] and healed.extensions == {}
    assert not [h for h in from_character(healed, "a", rules).held if h.name.startswith("EVERY:")]


def test_D_8_no_torso_wound_counts_no_days() -> None:
    """D-8: without a torso wound a long rest counts nothing."""
    after = rest_nights(fighter(BRYN, hp=24), 2)
    assert rest_days(after) == 0 and REST_KEY not in after.extensions


# -- AMB-41, D-7: a rest ends the lockouts and resets the Spell Depletion count ------------------------------------
@pytest.mark.parametrize("rest", [short_rest, long_rest])
def test_AMB_41_D_7_any_rest_resets_spells_cast_and_ends_the_lockouts(rest: Any) -> None:
    """AMB-41, D-7: Mira has cast 3 spells and a mishap (F-TAB-18 14, CHA SAVE 2 fails) barred her casting; after
    a short or a long rest the count is 0, the lockout is gone, and she casts again (face 15: 19, SL2)."""
    locked = cast_spell(mage(spells_cast=2), "Chill Touch", ScriptedDice([1, 14, 2]), 12, RULES).character
    assert locked.spells_cast == 3 and locked.until_rest[0].startswith("CANT_CAST")
    with pytest.raises(IllegalActionError, match="cannot cast until a rest"):
        cast_spell(locked, "Fireball", ScriptedDice([15]), 12, RULES)
    rested, events = rest(locked, ScriptedDice([]), RULES)
    assert (rested.spells_cast, rested.until_rest) == (0, [])
    assert any(said(e) == "Spell Depletion count 3 → 0" and "AMB-41" in e.rules for e in events)
    again = cast_spell(rested, "Fireball", ScriptedDice([15]), 12, RULES)
    assert again.cast.check.sl == 2 and again.character.spells_cast == 1


# -- AMB-59, option magic_item_uses_renew: when a magic item's daily uses come back ---------------------------------
def test_AMB_59_magic_item_uses_renew_long_rest() -> None:
    """F-TAB-27, AMB-59: the Shield of Shielding's +1d4 AC is once a day: used (d4 = 3), a second use is refused.
    By default (new_day) a long rest gives nothing back: the day governs it (AMB-14); under magic_item_uses_renew
    long_rest it can be used again after a long rest (d4 = 2)."""
    used, events = use_item(fighter(BRYN, hp=24), "Shield of Shielding", ScriptedDice([3]), RULES)
    assert uses_left(used, "Shield of Shielding") == 0 and "1d4 = 3" in tell_referee(events[-1])
    with pytest.raises(IllegalActionError, match="no use of Shield of Shielding left today"):
        use_item(used, "Shield of Shielding", ScriptedDice([2]), RULES)
    same_day, _ = long_rest(used, ScriptedDice([]), RULES)
    assert uses_left(same_day, "Shield of Shielding") == 0
    by_rest = RULES.with_options({"magic_item_uses_renew": "long_rest"})
    rested, _ = long_rest(used, ScriptedDice([]), by_rest)
    assert USES_KEY not in rested.extensions and uses_left(rested, "Shield of Shielding") is None
    again, _ = use_item(rested, "Shield of Shielding", ScriptedDice([2]), by_rest)
    assert uses_left(again, "Shield of Shielding") == 0
