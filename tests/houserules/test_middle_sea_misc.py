"""Middle Sea healing, Liquid Courage, coins, orisons and the rules that need other books.

RULES.md M-HEAL-01..03 (AMB-90, CF-32), M-DRINK-01 (AMB-104, CF-49), M-COIN-01 (M-TAB-07, CF-44), M-ORIS-01..04
(M-TAB-06, AMB-102, CF-42), M-REL-01, M-SPELLMOD-01/02 and the EXTERNAL / GUIDANCE rules (M-UNARM-01, M-MOOK-02,
M-CSPELL-01/02, M-CANT-01, M-BOOK-01, M-ALIGN-01, M-RES-01, M-INIT-01, M-META-01).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from furnace.characters.character import Character
from furnace.dice import ScriptedDice
from furnace.errors import UnknownNameError
from furnace.houserules import middle_sea as ms
from furnace.play.clock import Campaign, advance
from furnace.play.rest import rest
from furnace.rules.ruleset import load_ruleset

RULES = load_ruleset("middle-sea")
SCORES = {"STR": 14, "DEX": 12, "CON": 14, "INT": 10, "WIS": 10, "CHA": 10}


def fighter(**kw: Any) -> Character:
    """A level-5 Fighter: d10 hit die, 40 HP maximum, half is 20."""
    return Character(**{"name": "Hero", "char_class": "Fighter", "level": 5, "scores": dict(SCORES), "hp_max": 40,
                        "hp": 10, **kw})


# -- healing -------------------------------------------------------------------------------------------------------
def test_M_HEAL_01_post_combat_roll_is_capped_at_the_hp_at_combat_start() -> None:
    """M-HEAL-01, AMB-90 a: entered with 25, ended at 10, rolls 7 → 17; entered with 12 → capped at 12."""
    entered = ms.enter_combat(fighter(hp=25))
    after, events = ms.post_combat(entered.model_copy(update={"hp": 10}), ScriptedDice([7]), RULES)
    assert after.hp == 17 and events[0].rolls[0].expression == "d10"
    assert "hp_at_combat_start" not in ms.state_of(after)
    capped, _ = ms.post_combat(fighter(hp=10), ScriptedDice([7]), RULES, hp_at_start=12)
    assert capped.hp == 12


def test_M_HEAL_01_no_roll_without_damage_or_a_recorded_start() -> None:
    """M-HEAL-01: a combat in which the character lost no HP gives no roll; with no HP recorded at the start the
    call is refused."""
    dice = ScriptedDice([])
    same, events = ms.post_combat(ms.enter_combat(fighter(hp=25)), dice, RULES)
    assert same.hp == 25 and "no recovery roll" in events[0].what
    with pytest.raises(ms.MiddleSeaError, match="enter_combat"):
        ms.post_combat(fighter(), dice, RULES)


def test_M_HEAL_02_AMB_90_an_hour_of_rest_below_half_may_overshoot_half() -> None:
    """M-HEAL-02, AMB-90 b: below half (20 of 40) an hour gives a d10: 5 + 7 → 12; 15 + 9 → 24 (past half);
    at half an hour heals nothing; option middle_sea_hourly_cap half_hp stops the crossing roll at 20."""
    assert ms.rest_hour(fighter(hp=5), ScriptedDice([7]), RULES)[0].hp == 12
    assert ms.rest_hour(fighter(hp=15), ScriptedDice([9]), RULES)[0].hp == 24
    same, events = ms.rest_hour(fighter(hp=20), ScriptedDice([]), RULES)
    assert same.hp == 20 and "full day" in events[0].what
    half = RULES.with_options({"middle_sea_hourly_cap": "half_hp"})
    assert ms.rest_hour(fighter(hp=15), ScriptedDice([9]), half)[0].hp == 20


def test_M_HEAL_03_a_full_day_at_or_above_half_gives_one_hit_die_capped_at_max() -> None:
    """M-HEAL-03: at 25 of 40 a day gives a d10: 25 + 9 → 34; 38 + 9 → 40 (the maximum); at 40 nothing."""
    assert ms.rest_day(fighter(hp=25), ScriptedDice([9]), RULES)[0].hp == 34
    assert ms.rest_day(fighter(hp=38), ScriptedDice([9]), RULES)[0].hp == 40
    dice = ScriptedDice([])
    assert ms.rest_day(fighter(hp=40), dice, RULES)[0].hp == 40


def test_M_HEAL_02_a_day_begun_below_half_is_hourly_rests_until_half() -> None:
    """M-HEAL-02/03: from 5 HP a day of rest rolls hourly (7, 9 → 12, 21) and stops at half; D-7 ends 'until
    rest' effects."""
    dice = ScriptedDice([7, 9])
    after, events = ms.rest_day(fighter(hp=5, until_rest=["Spell Depletion"]), dice, RULES)
    assert (after.hp, dice.remaining, after.until_rest) == (21, 0, [])
    assert [e.after for e in events if e.kind == "heal"] == [12, 21]


def test_CF_32_the_middle_sea_healing_model_plugs_into_rest() -> None:
    """CF-32: furnace.play.rest.rest reads healing_model; 'middle-sea' offers post_combat, hour and day."""
    assert set(ms.HEALING_MODELS["middle-sea"]) == {"post_combat", "hour", "day"}
    assert rest(fighter(hp=5), "hour", ScriptedDice([7]), RULES)[0].hp == 12
    assert rest(fighter(hp=25), "day", ScriptedDice([9]), RULES)[0].hp == 34


# -- Liquid Courage ------------------------------------------------------------------------------------------------
def test_M_DRINK_01_liquid_courage_lasts_4_hours_then_hp_above_max_go() -> None:
    """M-DRINK-01, AMB-104, CF-49: +1d4 HP above the maximum (3: 38 → 41), +1 morale and fear saves, −1 to hit; a
    second drink does nothing; after 4 hours the penalty ends and HP above 40 are removed."""
    campaign = Campaign(characters={"Hero": fighter(hp=38)})
    campaign, events = ms.drink(campaign, "Hero", ScriptedDice([3]), RULES)
    hero = campaign.characters["Hero"]
    assert hero.hp == 41 and ms.courage_modifiers(hero) == {"to_hit": -1, "morale": 1, "fear_saves": 1}
    assert [e.kind for e in campaign.clock.entries] == ["courage_ends"]
    again, events = ms.drink(campaign, "Hero", ScriptedDice([]), RULES)
    assert again is campaign and events[0].data["referee_prompt"]
    campaign, _ = advance(campaign, 239, "minute", ScriptedDice([]), RULES)
    assert campaign.characters["Hero"].hp == 41
    campaign, events = advance(campaign, 1, "minute", ScriptedDice([]), RULES)
    hero = campaign.characters["Hero"]
    assert hero.hp == 40 and ms.courage_modifiers(hero) == {} and events[0].kind == "courage"


def test_M_DRINK_01_options() -> None:
    """M-DRINK-01 (option liquid_courage off in the furnace profile); CF-49 option liquid_courage_hp = healing
    stops the HP at the maximum; HP lost during the 4 hours are not taken again."""
    campaign = Campaign(characters={"Hero": fighter(hp=38)})
    with pytest.raises(ms.MiddleSeaError, match="liquid_courage"):
        ms.drink(campaign, "Hero", ScriptedDice([3]), load_ruleset("furnace"))
    healed, _ = ms.drink(campaign, "Hero", ScriptedDice([3]), RULES.with_options({"liquid_courage_hp": "healing"}))
    assert healed.characters["Hero"].hp == 40
    campaign, _ = ms.drink(campaign, "Hero", ScriptedDice([3]), RULES)
    hurt = campaign.characters["Hero"].model_copy(update={"hp": 30})
    campaign = campaign.model_copy(update={"characters": {"Hero": hurt}})
    campaign, _ = advance(campaign, 4, "hour", ScriptedDice([]), RULES)
    assert campaign.characters["Hero"].hp == 30
    with pytest.raises(UnknownNameError):
        ms.drink(campaign, "Nobody", ScriptedDice([3]), RULES)


# -- coins ---------------------------------------------------------------------------------------------------------
def test_M_COIN_01_100_coins_to_the_pound() -> None:
    """M-COIN-01, M-TAB-07, CF-44: 100 coins = 1 lb = 10 gpe; a gem weighs as a coin; 1000 coins = 10 lb = 100 gpe
    = 1 load."""
    one = ms.coin_weight(100, rules=RULES)
    assert (one.pounds, one.gpe) == (1, 10)
    many = ms.coin_weight(900, 100, RULES)
    assert (many.pounds, many.gpe, many.load) == (10, 100, 1)
    assert ms.coin_weight(1, rules=RULES).pounds == Fraction(1, 100)
    with pytest.raises(ms.MiddleSeaError):
        ms.coin_weight(-1, rules=RULES)


# -- orisons -------------------------------------------------------------------------------------------------------
def test_M_ORIS_01_AMB_102_non_classed_priests_and_their_exclusions() -> None:
    """M-ORIS-01, AMB-102: a priest without a class may not use Candle, Find a Stray or Ripen; a polytheist one
    may not use Candle, Find a Stray or Ceremony: Oath (option druidic_orison_reading exclude_oath), or with
    add_oath Ripen instead."""
    assert ms.orison_access(rules=RULES).excluded == ("Candle", "Find a Stray", "Ripen")
    assert not ms.may_use_orison("ripen", rules=RULES) and ms.may_use_orison("Ripen", polytheist=True, rules=RULES)
    assert not ms.may_use_orison("Ceremony: Oath", polytheist=True, rules=RULES)
    other = RULES.with_options({"druidic_orison_reading": "add_oath"})
    assert ms.orison_access(True, other).excluded == ("Candle", "Find a Stray", "Ripen")
    assert ms.may_use_orison("Ripen", classed=True, rules=RULES)


def test_M_ORIS_02_to_04_orisons_per_day() -> None:
    """M-ORIS-02: 1 a day without a class; M-ORIS-04: 1 free for Clerics, Paladins, Druids, Monks and Illusionists
    only; M-ORIS-03 / CF-42: trading a 1st-level slot (2 orisons) needs middle_sea_magic."""
    assert ms.orisons_per_day(classed=False, rules=RULES) == 1
    assert [ms.orisons_per_day(c, rules=RULES) for c in ("Cleric", "Illusionist", "Magic-user", "Ranger")] == [1, 1,
                                                                                                               0, 0]
    with pytest.raises(ms.MiddleSeaError, match="middle_sea_magic"):
        ms.orisons_per_day("Cleric", slots_traded=1, rules=RULES)
    magic = RULES.with_options({"middle_sea_magic": True})
    assert ms.orisons_per_day("Cleric", slots_traded=1, rules=magic) == 3
    assert ms.orisons_per_day("Ranger", slots_traded=1, rules=magic) == 2
    with pytest.raises(ms.MiddleSeaError, match="clerical or druidic"):
        ms.orisons_per_day("Magic-user", slots_traded=1, rules=magic)


def test_M_REL_01_only_classed_priests_cast() -> None:
    """M-REL-01, REF-48: a priest needs a class and level to cast; don't assume any priest can heal."""
    assert ms.priest_can_cast(True) and not ms.priest_can_cast(False)


# -- the rules that need other books -------------------------------------------------------------------------------
@pytest.mark.parametrize("rule", sorted(ms.EXTERNAL_RULES))
def test_EXTERNAL_rule_raises_naming_its_book(rule: str) -> None:
    """M-UNARM-01, M-MOOK-02, M-CSPELL-01/02, M-CANT-01, M-BOOK-01, M-ORIS-01 (the list), M-ALIGN-01,
    M-SPELLMOD-01, M-RES-01, M-INIT-01, M-META-01: with no plug-in registered, using the rule raises an
    ExternalRuleError (a FurnaceError) naming the rule, the book and its EXT id."""
    spec = ms.EXTERNAL_RULES[rule]
    with pytest.raises(ms.ExternalRuleError) as caught:
        ms.use_rule(rule)
    assert rule in str(caught.value) and spec.ext in str(caught.value) and spec.needs in str(caught.value)


def test_M_UNARM_01_a_referee_plugs_in_weaponless_combat(monkeypatch: pytest.MonkeyPatch) -> None:
    """M-UNARM-01 (EXT-20): a registered plug-in is called with the caller's arguments; unknown ids are refused."""
    monkeypatch.setattr(ms, "PLUGINS", {})
    ms.register_plugin("M-UNARM-01", lambda attacker, roll: f"{attacker} grapples on {roll}")
    assert ms.use_rule("M-UNARM-01", "Hero", roll=14) == "Hero grapples on 14"
    with pytest.raises(UnknownNameError):
        ms.register_plugin("M-NOPE-01", print)
    with pytest.raises(UnknownNameError):
        ms.use_rule("M-NOPE-01")


def test_M_ALIGN_01_M_INIT_01_guidance_says_so() -> None:
    """M-ALIGN-01 (not yet defined by the author) and M-INIT-01 (not adopted) are GUIDANCE plug-in points."""
    assert "GUIDANCE" in ms.EXTERNAL_RULES["M-ALIGN-01"].message()
    assert "not adopted" in ms.EXTERNAL_RULES["M-INIT-01"].message()


def test_M_SPELLMOD_02_restoration_is_level_5_energy_drain_stays_7() -> None:
    """M-SPELLMOD-02: Restoration 5, Energy Drain 7; any other spell's level is in the AD&D PHB (EXT-21)."""
    assert ms.house_spell_level("Restoration") == 5 and ms.house_spell_level("energy drain") == 7
    with pytest.raises(ms.ExternalRuleError, match="EXT-21"):
        ms.house_spell_level("Cure Light Wounds")


def test_M_SPELLMOD_01_chromatic_orb_keeps_four_powers() -> None:
    """M-SPELLMOD-01: no fire, magnetism or save-or-die; light from caster level 2; the other thresholds are not
    given (REF-46, EXT-24)."""
    assert not ms.chromatic_orb_power("fire", 9)
    assert not ms.chromatic_orb_power("light", 1) and ms.chromatic_orb_power("light", 2)
    with pytest.raises(ms.ExternalRuleError, match="REF-46"):
        ms.chromatic_orb_power("paralysis", 5)
    with pytest.raises(ms.MiddleSeaError, match="keeps only"):
        ms.chromatic_orb_power("frost", 5)
