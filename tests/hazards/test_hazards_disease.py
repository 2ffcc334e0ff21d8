"""Hazards disease (`furnace.hazards.disease`): incubation, the saves on the clock, the effect, the files.

RULES.md H-DIS-02 (incubation, interval, infection time, effect), H-DIS-03 (exposure save, AMB-73 a), H-DIS-04
(the first save at the end of incubation, one every interval: infection / interval saves, AMB-73 b), H-DIS-05
(−2 when not resting, AMB-73 d), H-DIS-06 (Green River Fever: 18 saves), H-TAB-04, D-5 (CON SAVE vs
hazard_save_dc).
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from furnace.dice import ScriptedDice
from furnace.errors import DataFileError, UnknownNameError
from furnace.hazards import Disease, cure, expose, find_disease, infect, load_disease, packaged_disease
from furnace.hazards.common import state, with_state
from furnace.play.checks import OptionOffError
from furnace.play.clock import DAY, HOUR, advance
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import campaign, character

HAZARDS = load_ruleset("hazards")
SCORES = {"STR": 10, "DEX": 10, "CON": 10, "INT": 12, "WIS": 10, "CHA": 10}
GRF = packaged_disease("Green River Fever", HAZARDS)
ADA: dict[str, Any] = dict(name="Ada", scores=SCORES, hp_max=6)   # INT 12, 6 HP


def test_H_DIS_06_green_river_fever_from_H_TAB_04() -> None:
    """H-DIS-06, H-TAB-04: incubation 1 week, interval 4 hours, infection 3 days, INT −1 per failure: 18 saves,
    the first 7 days after infection and the last 7 days + 68 hours."""
    assert (str(GRF.incubation), str(GRF.interval), str(GRF.infection_time)) == ("1 week", "4 hours", "3 days")
    assert GRF.effect.ability == "INT" and not GRF.effect.permanent
    times = GRF.save_times(HAZARDS)
    assert len(times) == GRF.save_count(HAZARDS) == 18
    assert times[0] == 7 * DAY and times[-1] == 7 * DAY + 68 * HOUR
    assert {b - a for a, b in pairwise(times)} == {4 * HOUR}


def test_H_DIS_04_AMB_73_both_endpoints_counts_19() -> None:
    """AMB-73 (b), option disease_save_count = both_endpoints: one more save, 19."""
    assert GRF.save_count(load_ruleset("hazards", {"disease_save_count": "both_endpoints"})) == 19


def test_H_DIS_06_exactly_18_saves_on_the_clock_at_the_right_times() -> None:
    """H-DIS-04/06: nothing during the incubation week; then 18 disease_save events 4 hours apart, numbered 1..18,
    each with one d20; nothing more afterwards."""
    camp, events = infect(campaign(character(ADA)), "Ada", GRF, HAZARDS)
    assert events[0].data["saves"] == 18
    camp, early = advance(camp, 7 * DAY - 1, "second", ScriptedDice([]), HAZARDS)
    assert early == []
    camp, fired = advance(camp, 4, "day", ScriptedDice([20] * 18), HAZARDS)
    saves = [e for e in fired if e.kind == "disease_save"]
    assert len(saves) == 18 and [e.data["number"] for e in saves] == list(range(1, 19))
    assert [e.data["at"] for e in saves] == [7 * DAY + k * 4 * HOUR for k in range(18)]
    assert all(len(e.rolls) == 1 and e.rolls[0].expression == "d20" for e in saves)
    camp, later = advance(camp, 2, "week", ScriptedDice([]), HAZARDS)
    assert later == [] and not camp.clock.entries


def test_H_DIS_05_minus_2_when_not_resting() -> None:
    """H-DIS-05, AMB-73 (d): CON 10, d20 12: resting 12 ≥ 12 saves; not resting 12 − 2 = 10 fails and INT drops."""
    for flags, success in (({"resting": True}, True), ({}, False), ({"resting": ["Ada"]}, True)):
        camp, _ = infect(campaign(character(ADA), **flags), "Ada", GRF, HAZARDS)
        camp, fired = advance(camp, 7, "day", ScriptedDice([12]), HAZARDS)
        save = next(e for e in fired if e.kind == "disease_save")
        assert save.data["saved"] is success and save.data["resting"] is success
        assert camp.characters["Ada"].scores["INT"] == (12 if success else 11)


def test_H_DIS_05_resting_can_be_the_characters_own_flag() -> None:
    """H-DIS-05: extensions["hazards"]["resting"] = true also spares the −2."""
    camp, _ = infect(campaign(with_state(character(ADA), resting=True)), "Ada", GRF, HAZARDS)
    camp, fired = advance(camp, 7, "day", ScriptedDice([12]), HAZARDS)
    assert next(e for e in fired if e.kind == "disease_save").data["saved"]


def test_H_DIS_06_AMB_73_each_failure_costs_1_INT_temporarily() -> None:
    """H-DIS-06, AMB-73 (c): every failure lowers INT by 1 (disease_loss_per_failure), kept as a temporary loss
    (H-HEAL-06): 3 failures of 5 saves → INT 12 → 9, temporary_loss INT 3."""
    camp, _ = infect(campaign(character(ADA)), "Ada", GRF, HAZARDS)
    camp, _ = advance(camp, 7 * DAY + 16 * HOUR, "second", ScriptedDice([1, 20, 1, 20, 1]), HAZARDS)
    ada = camp.characters["Ada"]
    assert ada.scores["INT"] == 9 and state(ada)["temporary_loss"] == {"INT": 3}


def test_H_DIS_06_H_ABIL_03_INT_0_kills_and_the_saves_stop() -> None:
    """H-DIS-06, H-ABIL-03: INT 12 and every save failed: dead at the 12th save; the 6 left are never rolled."""
    camp, _ = infect(campaign(character(ADA)), "Ada", GRF, HAZARDS)
    camp, fired = advance(camp, 11, "day", ScriptedDice([1] * 12), HAZARDS)
    assert camp.characters["Ada"].dead and sum(e.kind == "disease_save" for e in fired) == 12
    assert not camp.clock.entries


def test_H_DIS_03_exposure_save() -> None:
    """H-DIS-03, AMB-73 (a): a CON SAVE on exposure: 15 saves (not infected), 3 fails (infected, saves scheduled)."""
    camp, events = expose(campaign(character(ADA)), "Ada", GRF, ScriptedDice([15]), HAZARDS)
    assert events[0].kind == "exposure_save" and not camp.clock.entries
    camp, events = expose(campaign(character(ADA)), "Ada", GRF, ScriptedDice([3]), HAZARDS)
    assert [e.kind for e in events] == ["exposure_save", "disease"] and len(camp.clock.entries) == 1


def test_H_DIS_04_cure_cancels_the_saves_to_come() -> None:
    """H-DIS-04, F-CLR-06: a cured disease rolls no more saves."""
    camp, _ = infect(campaign(character(ADA)), "Ada", GRF, HAZARDS)
    camp, _ = cure(camp, "Ada", "green river fever")
    assert not camp.clock.entries
    with pytest.raises(UnknownNameError):
        cure(camp, "Ada", "Green River Fever")


def test_H_DIS_02_a_disease_file(tmp_path: Path) -> None:
    """H-DIS-02: a referee's disease in YAML: durations as text or mappings; 2 days / 12 hours = 4 saves."""
    file = tmp_path / "rot.yaml"
    file.write_text("name: Marsh Rot\nincubation: 2 days\ninterval: {amount: 12, unit: hour}\n"
                    "infection_time: 2 days\neffect: {ability: CON, amount: 2}\n", encoding="utf-8")
    rot = load_disease(file)
    assert rot.save_count(HAZARDS) == 4 and rot.save_times(HAZARDS)[0] == 2 * DAY
    assert find_disease(str(file), HAZARDS) == rot and find_disease("green-river-fever", HAZARDS) == GRF
    camp, _ = infect(campaign(character(ADA)), "Ada", rot, HAZARDS)
    camp, _ = advance(camp, 2, "day", ScriptedDice([1]), HAZARDS)
    assert camp.characters["Ada"].scores["CON"] == 8


@pytest.mark.parametrize(("text", "field"), [
    ("name: X\nincubation: 1 day\ninfection_time: 2 days\neffect: {ability: INT}\n", "interval"),
    ("name: X\nincubation: 1 day\ninterval: 4 fortnights\ninfection_time: 2 days\neffect: {ability: INT}\n",
     "interval"),
    ("name: X\nincubation: 1 day\ninterval: 4 hours\ninfection_time: 2 days\neffect: {ability: LUCK}\n",
     "effect.ability"),
    ("name: X\nincubation: 1 day\ninterval: 4 days\ninfection_time: 2 days\neffect: {ability: INT}\n", "interval"),
    ("- just a list\n", "disease"),
    ("name: [unclosed\n", "YAML"),
])
def test_H_DIS_02_a_malformed_disease_file_names_the_field(tmp_path: Path, text: str, field: str) -> None:
    """H-DIS-02: a malformed disease file is refused with DataFileError naming its path and the field."""
    file = tmp_path / "bad.yaml"
    file.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError) as err:
        load_disease(file)
    assert field in str(err.value) and "bad.yaml" in str(err.value)


def test_H_DIS_01_unknown_disease_and_option_off() -> None:
    """H-DIS-01: only the referee's diseases exist (an unknown name is refused); hazards_disease off refuses
    infection."""
    with pytest.raises(UnknownNameError):
        packaged_disease("the common cold", HAZARDS)
    with pytest.raises(OptionOffError):
        infect(campaign(character(ADA)), "Ada", GRF, load_ruleset())
    assert isinstance(Disease.model_validate(GRF.model_dump(by_alias=True)), Disease)
