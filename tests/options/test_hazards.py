"""Flip tests of the Hazards rule options: each value of each option, with scripted dice and the rule's numbers.

RULES.md D-5 and AMB-05 (save vs. poison / paralysis / death / fear = the ability SAVE the options save_vs_*
name; save_mapping category_table: the referee's category-save table), AMB-82 and H-POIS-01 (hazard_save_dc),
H-AGE-01 and CF-43 (half_orc_aging_race), H-DIS-06 and AMB-73 (disease_loss_per_failure), H-DRUG-02 and AMB-80
(drunk_duration_hours).

The saver is a level-3 Fighter (PROF 2, proficient in STR and CON saves) with one modifier per ability, so each
ability a save_vs_* option names gives its own total: with a d20 of 10 against DC 12, STR 10+3+2 = 15, DEX
10+2 = 12 and CON 10+1+2 = 13 save; INT 10, WIS 9 and CHA 8 fail.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from furnace.dice import ScriptedDice
from furnace.hazards import AgingSave, Toxin, ToxinEffect, age_character, drink, packaged_disease, poison, saves_due
from furnace.hazards.disease import Disease, DiseaseEffect, disease_save
from furnace.play.checks import CheckError
from furnace.play.clock import Campaign, advance
from furnace.rules.ruleset import Ruleset, load_ruleset
from tests.helpers.factories import fighter

HAZARDS = load_ruleset("hazards")
SCORES = {"STR": 18, "DEX": 16, "CON": 14, "INT": 10, "WIS": 6, "CHA": 4}     # +3 +2 +1 0 −1 −2
ASP = Toxin(name="asp venom", effect=ToxinEffect(kind="death"))
GRF = packaged_disease("Green River Fever", HAZARDS)


# save vs. X: the ability the option names, and the total a d20 of 10 gives with it (DC 12: 12 or more saves)
TOTALS = {"STR": 15, "DEX": 12, "CON": 13, "INT": 10, "WIS": 9, "CHA": 8}
FLO: dict[str, Any] = dict(name="Flo", level=3, scores=SCORES, hp_max=20, saves=["STR", "CON"], age=39)   # 20 HP


# -- save_vs_poison (D-5, AMB-05, H-POIS-01) ----------------------------------------------------------------------
@pytest.mark.parametrize(("rules", "ability"), [
    (HAZARDS, "CON"),
    (HAZARDS.with_options({"save_vs_poison": "STR"}), "STR"),
    (HAZARDS.with_options({"save_vs_poison": "DEX"}), "DEX"),
    (HAZARDS.with_options({"save_vs_poison": "INT"}), "INT"),
    (HAZARDS.with_options({"save_vs_poison": "WIS"}), "WIS"),
    (HAZARDS.with_options({"save_vs_poison": "CHA"}), "CHA"),
], ids=["CON", "STR", "DEX", "INT", "WIS", "CHA"])
def test_option_save_vs_poison_D_5_H_POIS_01_names_the_ability_of_the_poison_save(rules: Ruleset,
                                                                                   ability: str) -> None:
    """D-5, H-POIS-01: asp venom, d20 10 vs hazard_save_dc 12: the named ability's SAVE; under 12 the Fighter
    dies, at 12 or more nothing happens."""
    after, events = poison(fighter(FLO), ASP, ScriptedDice([10]), rules)
    save = events[0].data
    assert save["total"] == TOTALS[ability] and save["dc"] == 12
    assert save["modifiers"][0]["source"] == ability
    assert bool(after.dead) is (TOTALS[ability] < 12)


# -- save_vs_paralysis (D-5, H-AGE-01) ----------------------------------------------------------------------------
@pytest.mark.parametrize(("rules", "ability"), [
    (HAZARDS, "CON"),
    (HAZARDS.with_options({"save_vs_paralysis": "STR"}), "STR"),
    (HAZARDS.with_options({"save_vs_paralysis": "DEX"}), "DEX"),
    (HAZARDS.with_options({"save_vs_paralysis": "INT"}), "INT"),
    (HAZARDS.with_options({"save_vs_paralysis": "WIS"}), "WIS"),
    (HAZARDS.with_options({"save_vs_paralysis": "CHA"}), "CHA"),
], ids=["CON", "STR", "DEX", "INT", "WIS", "CHA"])
def test_option_save_vs_paralysis_D_5_H_AGE_01_names_the_ability_of_the_aging_save(rules: Ruleset,
                                                                                    ability: str) -> None:
    """H-AGE-01/02: a human turning 40 saves vs. paralysis (d20 10, no age penalty, DC 12); a failure rolls 1d6
    for the ability that ages (face 3: CON 14 → 13)."""
    dice = ScriptedDice([10, 3])
    after, events = age_character(fighter(FLO), 1, dice, rules)
    save = next(e for e in events if e.kind == "aging_save").data
    failed = TOTALS[ability] < 12
    assert save["total"] == TOTALS[ability] and save["saved"] is not failed
    assert after.scores["CON"] == (13 if failed else 14) and dice.remaining == (0 if failed else 1)


# -- save_vs_death (D-5, AMB-05) ----------------------------------------------------------------------------------
DEATH_TOUCH = Toxin(name="death's-head sap", effect=ToxinEffect(kind="damage", dice="2d6"), save_category="death")


@pytest.mark.parametrize(("rules", "ability"), [
    (HAZARDS, "CON"),
    (HAZARDS.with_options({"save_vs_death": "STR"}), "STR"),
    (HAZARDS.with_options({"save_vs_death": "DEX"}), "DEX"),
    (HAZARDS.with_options({"save_vs_death": "INT"}), "INT"),
    (HAZARDS.with_options({"save_vs_death": "WIS"}), "WIS"),
    (HAZARDS.with_options({"save_vs_death": "CHA"}), "CHA"),
], ids=["CON", "STR", "DEX", "INT", "WIS", "CHA"])
def test_option_save_vs_death_D_5_AMB_05_names_the_ability_of_a_save_vs_death(rules: Ruleset,
                                                                               ability: str) -> None:
    """D-5: a poison whose save is vs. death (d20 10, DC 12); a failure deals 2d6 (faces 4 and 5: HP 20 → 11)."""
    dice = ScriptedDice([10, 4, 5])
    after, events = poison(fighter(FLO), DEATH_TOUCH, dice, rules)
    save = events[0].data
    failed = TOTALS[ability] < 12
    assert save["total"] == TOTALS[ability] and save["modifiers"][0]["source"] == ability
    assert after.hp == (11 if failed else 20) and dice.remaining == (0 if failed else 2)


# -- save_vs_fear (D-5, AMB-05, F-OPT-05) -------------------------------------------------------------------------
DREAD = Toxin(name="dread smoke", effect=ToxinEffect(kind="condition", condition="FRIGHTENED"), drug=True,
              save_category="fear")


@pytest.mark.parametrize(("rules", "ability"), [
    (HAZARDS, "WIS"),
    (HAZARDS.with_options({"save_vs_fear": "STR"}), "STR"),
    (HAZARDS.with_options({"save_vs_fear": "DEX"}), "DEX"),
    (HAZARDS.with_options({"save_vs_fear": "CON"}), "CON"),
    (HAZARDS.with_options({"save_vs_fear": "INT"}), "INT"),
    (HAZARDS.with_options({"save_vs_fear": "CHA"}), "CHA"),
], ids=["WIS", "STR", "DEX", "CON", "INT", "CHA"])
def test_option_save_vs_fear_D_5_H_DRUG_01_names_the_ability_of_a_save_vs_fear(rules: Ruleset,
                                                                                ability: str) -> None:
    """D-5, H-DRUG-01: a drug breathed unwillingly, saved vs. fear (WIS by default; d20 10, DC 12); a failure
    makes the Fighter FRIGHTENED."""
    after, events = poison(fighter(FLO), DREAD, ScriptedDice([10]), rules)
    save = events[0].data
    assert save["total"] == TOTALS[ability] and save["modifiers"][0]["source"] == ability
    assert ("FRIGHTENED" in after.conditions) is (TOTALS[ability] < 12)


# -- hazard_save_dc (AMB-05, AMB-82, H-POIS-01) -------------------------------------------------------------------
@pytest.mark.parametrize(("rules", "dc", "dead"), [
    (HAZARDS, 12, False),
    (HAZARDS.with_options({"hazard_save_dc": 13}), 13, False),
    (HAZARDS.with_options({"hazard_save_dc": 14}), 14, True),
], ids=["12", "13", "14"])
def test_option_hazard_save_dc_AMB_82_H_POIS_01_is_the_DC_of_a_poison_without_its_own(rules: Ruleset, dc: int,
                                                                                      dead: bool) -> None:
    """AMB-82: asp venom has no DC of its own: d20 10 + CON 1 + PROF 2 = 13 against hazard_save_dc (meet or
    beat): 12 and 13 save, 14 kills."""
    after, events = poison(fighter(FLO), ASP, ScriptedDice([10]), rules)
    assert (events[0].data["total"], events[0].data["dc"]) == (13, dc)
    assert bool(after.dead) is dead


def test_option_hazard_save_dc_AMB_82_a_poison_with_its_own_DC_ignores_it() -> None:
    """AMB-82: a poison of DC 15 is DC 15 whatever hazard_save_dc says: 13 fails against it even at
    hazard_save_dc 5."""
    own = Toxin(name="black lotus", effect=ToxinEffect(kind="death"), dc=15)
    after, events = poison(fighter(FLO), own, ScriptedDice([10]), HAZARDS.with_options({"hazard_save_dc": 5}))
    assert events[0].data["dc"] == 15 and after.dead


# -- half_orc_aging_race (CF-43, H-TAB-01) ------------------------------------------------------------------------
@pytest.mark.parametrize(("rules", "due"), [
    (HAZARDS, [AgingSave(79, -4), AgingSave(80, -4)]),                           # Human: yearly from 40, −4 at 60
    (HAZARDS.with_options({"half_orc_aging_race": "elf"}), []),                  # Elf: from 700
    (HAZARDS.with_options({"half_orc_aging_race": "dwarf"}), []),                # Dwarf: from 200
    (HAZARDS.with_options({"half_orc_aging_race": "halfling"}), [AgingSave(79, 0), AgingSave(80, -2)]),
], ids=["human", "elf", "dwarf", "halfling"])
def test_option_half_orc_aging_race_CF_43_H_TAB_01_picks_the_row(rules: Ruleset, due: list[AgingSave]) -> None:
    """CF-43, H-TAB-01: a Half-orc ageing 78 → 80 saves by the option's row: Human yearly from 40, −4 from 60;
    Halfling yearly from 70, −2 from 80; Elf (from 700) and Dwarf (from 200) not yet."""
    assert saves_due("Half-orc", 78, 80, rules) == due


def test_option_half_orc_aging_race_CF_43_the_penalty_reaches_the_save() -> None:
    """H-AGE-01, CF-43: a Half-orc turning 80 rolls d20 11 + CON 1 + PROF 2 = 14 vs DC 12: −4 as a Human gives
    10 (fails: 1d6 face 3, CON 14 → 13); −2 as a Halfling gives 12 (saves, CON stays 14)."""
    orc = fighter(FLO, race="Half-orc", age=79)
    human, events = age_character(orc, 1, ScriptedDice([11, 3]), HAZARDS)
    assert next(e for e in events if e.kind == "aging_save").data["total"] == 10
    assert human.scores["CON"] == 13
    halfling, events = age_character(orc, 1, ScriptedDice([11]), HAZARDS.with_options(
        {"half_orc_aging_race": "halfling"}))
    assert next(e for e in events if e.kind == "aging_save").data["total"] == 12
    assert halfling.scores["CON"] == 14


# -- disease_loss_per_failure (AMB-73, H-DIS-06) ------------------------------------------------------------------
@pytest.mark.parametrize(("rules", "int_after"), [
    (HAZARDS, 9),
    (HAZARDS.with_options({"disease_loss_per_failure": 3}), 7),
], ids=["1", "3"])
def test_option_disease_loss_per_failure_AMB_73_H_DIS_06_is_the_loss_of_a_failed_save(rules: Ruleset,
                                                                                       int_after: int) -> None:
    """H-DIS-06: Green River Fever names no amount; a failed save (d20 2 + CON 1 + PROF 2 = 5 vs 12) costs
    disease_loss_per_failure INT points: 10 → 9 by default, 10 → 7 at 3."""
    after, events = disease_save(fighter(FLO), GRF, 1, 18, True, ScriptedDice([2]), rules)
    assert events[0].data["total"] == 5 and not events[0].data["saved"]
    assert after.scores["INT"] == int_after


def test_option_disease_loss_per_failure_AMB_73_a_disease_that_names_its_amount_ignores_it() -> None:
    """H-DIS-06: a disease that says 'lose 2' loses 2 (INT 10 → 8) whatever disease_loss_per_failure is."""
    two = Disease.model_validate({**GRF.model_dump(by_alias=True),
                                  "effect": DiseaseEffect(ability="INT", amount=2).model_dump()})
    rules = HAZARDS.with_options({"disease_loss_per_failure": 5})
    after, _ = disease_save(fighter(FLO), two, 1, 18, True, ScriptedDice([2]), rules)
    assert after.scores["INT"] == 8


# -- drunk_duration_hours (AMB-80, H-DRUG-02) ---------------------------------------------------------------------
@pytest.mark.parametrize(("rules", "hours"), [
    (HAZARDS, 4),
    (HAZARDS.with_options({"drunk_duration_hours": 6}), 6),
], ids=["4", "6"])
def test_option_drunk_duration_hours_AMB_80_H_DRUG_02_is_when_she_sobers(rules: Ruleset, hours: int) -> None:
    """H-DRUG-02, AMB-80: drunk, DEX 16 → 14; one hour before drunk_duration_hours she is still DRUNK at 14, at
    drunk_duration_hours DEX is 16 again."""
    camp, _ = drink(Campaign(characters={"Flo": fighter(FLO)}), "Flo", rules)
    assert camp.characters["Flo"].scores["DEX"] == 14
    camp, _ = advance(camp, hours - 1, "hour", ScriptedDice([]), rules)
    assert "DRUNK" in camp.characters["Flo"].conditions and camp.characters["Flo"].scores["DEX"] == 14
    camp, events = advance(camp, 1, "hour", ScriptedDice([]), rules)
    assert events[0].kind == "sober"
    assert "DRUNK" not in camp.characters["Flo"].conditions and camp.characters["Flo"].scores["DEX"] == 16


# -- save_mapping and save_category_table (D-5, CF-38) ------------------------------------------------------------
def category_table(tmp_path: Path, table_id: str, poison_fighter: dict[int, int]) -> Path:
    """A referee's category-save table (D-5): poison for Fighters by level, and a catch-all for any class."""
    path = tmp_path / f"{table_id.replace(':', '-')}.yaml"
    targets = ", ".join(f"{level}: {target}" for level, target in poison_fighter.items())
    path.write_text(
        f"id: '{table_id}'\nname: {table_id.split(':')[1]}\ntitle: Category saves\nsource: the referee\n"
        "kind: keyed\nkey_name: category/class\nrows:\n"
        f"  - {{key: poison/Fighter, text: Fighters vs poison, data: {{targets: {{{targets}}}}}}}\n"
        "  - {key: 'poison/*', text: anyone vs poison, data: {targets: {0: 16}}}\n", encoding="utf-8")
    return path


def test_option_save_mapping_D_5_category_table_replaces_the_ability_save(tmp_path: Path) -> None:
    """D-5, CF-38: asp venom, d20 12. furnace_abilities: 12 + CON 1 + PROF 2 = 15 vs hazard_save_dc 12, saved.
    category_table: the level-3 Fighter's target is the row's level-3 number, 13 (levels 1-2: 14), and no
    ability or PROF is added: 12 < 13, dead; d20 13 saves."""
    table = category_table(tmp_path, "house:category-saves", {1: 14, 3: 13})
    abilities = load_ruleset("hazards", table_files=[table])
    saved, events = poison(fighter(FLO), ASP, ScriptedDice([12]), abilities)
    assert events[0].data["total"] == 15 and not saved.dead
    rules = load_ruleset("hazards", {"save_mapping": "category_table"}, table_files=[table])
    dead, events = poison(fighter(FLO), ASP, ScriptedDice([12]), rules)
    assert (events[0].data["total"], events[0].data["dc"]) == (12, 13) and dead.dead
    alive, _ = poison(fighter(FLO), ASP, ScriptedDice([13]), rules)
    assert not alive.dead
    level_2, events = poison(fighter(FLO, level=2), ASP, ScriptedDice([13]), rules)
    assert events[0].data["dc"] == 14 and level_2.dead


def test_option_save_mapping_D_5_category_table_keeps_situational_modifiers(tmp_path: Path) -> None:
    """D-5, H-DRUG-02: a drunk Fighter's category save still takes −2 (d20 14 − 2 = 12 < 13: dead); a Rogue
    uses the catch-all row, 16; so does a 0-level survivor."""
    rules = load_ruleset("hazards", {"save_mapping": "category_table"},
                         table_files=[category_table(tmp_path, "house:category-saves", {1: 14, 3: 13})])
    drunk = fighter(FLO, conditions=["DRUNK"])
    after, events = poison(drunk, ASP, ScriptedDice([14]), rules)
    assert events[0].data["total"] == 12 and after.dead
    _, events = poison(fighter(FLO, char_class="Rogue"), ASP, ScriptedDice([16]), rules)
    assert (events[0].data["dc"], events[0].data["saved"]) == (16, True)
    _, events = poison(fighter(FLO, char_class=None, level=0), ASP, ScriptedDice([15]), rules)
    assert (events[0].data["dc"], events[0].data["saved"]) == (16, False)


def test_option_save_category_table_D_5_names_the_table_read(tmp_path: Path) -> None:
    """D-5: save_category_table names the referee's table: house:ad-and-d (Fighter level 3: 10) is read, so
    d20 11 saves; without a loaded table of that name the save is refused, naming the table."""
    table = category_table(tmp_path, "house:ad-and-d", {1: 12, 3: 10})
    rules = load_ruleset("hazards", {"save_mapping": "category_table", "save_category_table": "house:ad-and-d"},
                         table_files=[table])
    after, events = poison(fighter(FLO), ASP, ScriptedDice([11]), rules)
    assert (events[0].data["total"], events[0].data["dc"]) == (11, 10) and not after.dead
    missing = load_ruleset("hazards", {"save_mapping": "category_table"}, table_files=[table])
    with pytest.raises(CheckError, match="house:category-saves"):
        poison(fighter(FLO), ASP, ScriptedDice([11]), missing)
