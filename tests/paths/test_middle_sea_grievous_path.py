"""The Middle Sea's grievous injuries on the user's path (RULES.md M.3, M-TAB-02/03): `furnace grievous` with the
faces rolled at the table, the tables themselves (`furnace table show|roll`), and a fight of a `middle-sea`
campaign that breaks a bone.

`grievous --excess N` rolls 3d6 + N on M-TAB-01 (M-GRIEV-01) and applies the band; the faces are entered in the
order the command rolls them: the three d6, then what the band rolls (a hit die, a duration, a location …).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.helpers.factories import fighter
from tests.paths.sea import BANDIT, Furnace, faces, fight_file, natural_rolls, one


@pytest.fixture
def furnace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Furnace:
    return Furnace(tmp_path, monkeypatch, capsys)


def grievous(furnace: Furnace, excess: int, rolled: tuple[int, ...], *more: str) -> dict[str, Any]:
    return dict(furnace.json("grievous", "--excess", str(excess), "--faces", faces(*rolled), *more))


@pytest.mark.rule("M-GRIEV-02")
def test_M_GRIEV_02_second_wind_heals_a_hit_die_and_half_the_level(furnace: Furnace) -> None:
    """M-GRIEV-02, AMB-91 c: 4–6 is Second Wind: one class hit die + floor(level / 2) at once, from 0 HP.

    A 5th-level fighter (d10) with excess 1: 3d6 [1, 1, 2] + 1 = 5; the d10 shows 7, + floor(5/2) = 2 → 9 HP.
    The band runs to 6 ([2, 2, 1] + 1), capped at the maximum HP (8 → 8), and under second_wind = max_hd the
    die counts 10 (12 HP)."""
    fighter5 = ("--level", "5", "--hit-die", "d10", "--hp-max", "40")
    wind = grievous(furnace, 1, (1, 1, 2, 7), *fighter5)
    assert (wind["band"], wind["total"], wind["hp"]) == ("second_wind", 5, 9)
    heal = one(wind, "heal")
    assert heal["data"]["amount"] == 9 and natural_rolls(heal) == [("Second Wind", 9, [7])]
    assert grievous(furnace, 1, (2, 2, 1, 7), *fighter5)["band"] == "second_wind"
    assert grievous(furnace, 1, (1, 1, 2, 7), "--level", "5", "--hit-die", "d10", "--hp-max", "8")["hp"] == 8
    assert grievous(furnace, 1, (1, 1, 2), *fighter5, "--option", "second_wind=max_hd")["hp"] == 12


@pytest.mark.rule("M-GRIEV-03")
def test_M_GRIEV_03_knocked_down_from_7_to_9(furnace: Furnace) -> None:
    """M-GRIEV-03, AMB-91 d: 7–9 knocks the character down (prone until it stands), at 0 HP, nothing else.

    Excess 1: [2, 2, 2] + 1 = 7 and [3, 3, 2] + 1 = 9 are knocked down; [3, 3, 3] + 1 = 10 is the next band."""
    for rolled in ((2, 2, 2), (3, 3, 2)):
        down = grievous(furnace, 1, rolled)
        assert (down["band"], down["total"], down["hp"]) == ("knocked_down", sum(rolled) + 1, 0)
        assert down["conditions"] == ["KNOCKED_DOWN (until stands)"] and down["timers"] == [] and not down["dead"]
    assert grievous(furnace, 1, (3, 3, 3))["band"] == "stunned"


@pytest.mark.rule("M-GRIEV-04")
def test_M_GRIEV_04_stunned_one_round_or_knocked_down_with_a_helmet(furnace: Furnace) -> None:
    """M-GRIEV-04: 10–11 stuns for one round; with a helmet the character is knocked down instead.

    Excess 1: [3, 3, 3] + 1 = 10 → STUNNED for 1 round; [4, 3, 3] + 1 = 11 with --helmet → KNOCKED_DOWN (the
    helmet variant); [4, 4, 3] + 1 = 12 is the next band."""
    stunned = grievous(furnace, 1, (3, 3, 3))
    assert (stunned["band"], stunned["total"], stunned["conditions"]) == ("stunned", 10, ["STUNNED for 1 round(s)"])
    helmed = grievous(furnace, 1, (4, 3, 3), "--helmet")
    assert (helmed["total"], helmed["helmet_variant"], helmed["conditions"]) == (
        11, True, ["KNOCKED_DOWN (until stands)"])
    assert grievous(furnace, 1, (4, 4, 3, 1, 1))["band"] == "unconscious"


@pytest.mark.rule("M-GRIEV-05")
def test_M_GRIEV_05_unconscious_2d6_rounds_or_stunned_with_a_helmet(furnace: Furnace) -> None:
    """M-GRIEV-05: 12–14 knocks the character out for 2d6 rounds; with a helmet, STUNNED for one round instead.

    Excess 1: [4, 4, 3] + 1 = 12, the 2d6 [5, 6] → UNCONSCIOUS for 11 rounds; [5, 4, 4] + 1 = 14 with a helmet
    rolls no 2d6 → STUNNED 1 round."""
    out = grievous(furnace, 1, (4, 4, 3, 5, 6))
    assert (out["band"], out["total"], out["conditions"]) == ("unconscious", 12, ["UNCONSCIOUS for 11 round(s)"])
    assert natural_rolls(one(out, "wound_condition")) == [("duration", 11, [5, 6])]
    helmed = grievous(furnace, 1, (5, 4, 4), "--helmet")
    assert (helmed["band"], helmed["total"], helmed["conditions"]) == ("unconscious", 14, ["STUNNED for 1 round(s)"])


@pytest.mark.rule("M-GRIEV-07")
def test_M_GRIEV_07_fatal_wound_unconscious_dies_in_1d6_turns(furnace: Furnace) -> None:
    """M-GRIEV-07, AMB-92: 17–18 is a fatal wound: unconscious, dead in 1d6 turns (exploration turns of 10
    minutes) unless Cure Serious or Critical Wounds is cast.

    Excess 2: [6, 6, 4] + 2 = 18, the d6 shows 3 → dies in 3 exploration turns; [5, 5, 5] + 2 = 17 too, its d6
    6 → 6 turns; under fatal_wound_timer_unit = round the same 3 are rounds."""
    out = grievous(furnace, 2, (6, 6, 4, 3))
    assert (out["band"], out["total"], out["hp"]) == ("fatal_wound", 18, 0)
    assert out["conditions"] == ["UNCONSCIOUS (until healed)"]
    assert out["timers"] == [{"kind": "fatal_wound", "amount": 3, "unit": "exploration_turn", "entry": None}]
    timer = one(out, "wound_timer")
    assert natural_rolls(timer) == [("death timer", 3, [3])] and "Cure Serious" in timer["data"]["unless"]
    assert grievous(furnace, 2, (5, 5, 5, 6))["timers"][0]["amount"] == 6
    rounds = grievous(furnace, 2, (6, 6, 4, 3), "--option", "fatal_wound_timer_unit=round")
    assert rounds["timers"] == [{"kind": "fatal_wound", "amount": 3, "unit": "round", "entry": None}]


@pytest.mark.rule("M-GRIEV-08", "M-SEVER-01", "M-TAB-03")
def test_M_GRIEV_08_severed_limb_d12_place_bleeds_out_in_2d6_rounds(furnace: Furnace) -> None:
    """M-GRIEV-08, M-SEVER-01, M-TAB-03: 19–20 severs a limb: a d12 for the place, INCAPACITATED, and death by
    bleeding in 2d6 rounds unless cauterised, tourniqueted or given Cure Critical Wounds; the limb is gone.

    Excess 3: [6, 6, 4] + 3 = 19; the d12 shows 7 → the right arm; the 2d6 [3, 4] → dies in 7 rounds. The d12
    reads 1 R. Foot, 2 R. Leg, 3 L. Foot, 4 L. Leg, 5–6 R. Hand, 7 R. Arm, 8–9 L. Hand, 10 L. Arm, 11–12 Head
    (instant death; with a helmet a CON SAVE vs 12 (hazard_save_dc) turns it into STUNNED 1 round)."""
    out = grievous(furnace, 3, (6, 6, 4, 7, 3, 4))
    assert (out["band"], out["total"], out["location"], out["location_roll"]) == ("severed_limb", 19, "R. Arm", 7)
    assert out["conditions"] == ["INCAPACITATED", "BLEEDING for 7 round(s)"] and not out["dead"]
    assert out["timers"] == [{"kind": "bleeding", "amount": 7, "unit": "round", "entry": None}]
    assert one(out, "lasting_injury")["data"]["lasting"] == "lost right arm"
    places = {1: "R. Foot", 2: "R. Leg", 3: "L. Foot", 4: "L. Leg", 5: "R. Hand", 6: "R. Hand", 7: "R. Arm",
              8: "L. Hand", 9: "L. Hand", 10: "L. Arm"}
    for d12, place in places.items():
        assert grievous(furnace, 2, (6, 6, 6, d12, 1, 1))["location"] == place   # 20: the top of the band
    head = grievous(furnace, 3, (6, 6, 4, 11))
    assert (head["location"], head["dead"]) == ("Head", "killed outright: severed-limb 11, Head")
    saved = grievous(furnace, 3, (6, 6, 4, 12, 12), "--helmet")
    assert (saved["dead"], saved["conditions"], saved["timers"]) == (None, ["STUNNED for 1 round(s)"], [])
    save = one(saved, "save")["data"]
    assert (save["ability"], save["total"], save["dc"], save["saved"]) == ("CON", 12, 12, True)
    failed = grievous(furnace, 3, (6, 6, 4, 12, 11), "--helmet")
    assert failed["dead"] == "killed outright: severed-limb 12, Head"


@pytest.mark.rule("M-TAB-02")
def test_M_TAB_02_broken_bone_places_and_their_effects(furnace: Furnace) -> None:
    """M-TAB-02 (M-BONE-01): 15–16 breaks a bone: the d10 picks the place, 2d4+9 weeks to heal.

    Excess 1, [6, 6, 2] + 1 = 15: d10 1–2 R. Leg, 3–4 L. Leg (can't walk, crawl 3"), 5–7 Rib (−3 to hit and
    damage), 8 R. Arm, 9 L. Arm (nothing held in that arm); the 2d4 [1, 4] + 9 = 14 weeks. 10 Skull is a fatal
    wound (its d6 [4]: 4 exploration turns) and still heals in 2d4+9 [2, 3] = 14 weeks; with a helmet a CON SAVE
    of 14 vs 12 ignores it."""
    table = furnace.json("table", "show", "broken-bone")
    assert table["id"] == "M-TAB-02" and table["roll"] == "d10"
    spans = [(r["min"], r["max"], r["data"]["location"]) for r in table["rows"]]
    assert spans == [(1, 2, "R. Leg"), (3, 4, "L. Leg"), (5, 7, "Rib"), (8, 8, "R. Arm"), (9, 9, "L. Arm"),
                     (10, 10, "Skull")]
    lasting = {1: ("broken right leg", "CANT_MOVE"), 4: ("broken left leg", "CANT_MOVE"), 8: ("broken right arm",
               "CANT_USE_OBJECTS"), 9: ("broken left arm", "CANT_USE_OBJECTS")}
    for d10, (name, condition) in lasting.items():
        out = grievous(furnace, 1, (6, 6, 2, d10, 1, 4))
        mark = one(out, "lasting_injury")["data"]
        assert (out["band"], out["heal_weeks"], mark["lasting"]) == ("broken_bone", 14, name)
        assert mark["effects"][0]["name"] == condition
    rib = one(grievous(furnace, 1, (6, 6, 2, 7, 1, 4)), "lasting_injury")["data"]["effects"][0]
    assert (rib["applies_to"], rib["value"]) == ("to_hit_and_damage", -3)
    skull = grievous(furnace, 1, (6, 6, 2, 10, 4, 2, 3))
    assert (skull["location"], skull["heal_weeks"], skull["timers"][0]["amount"]) == ("Skull", 14, 4)
    helmed = grievous(furnace, 1, (6, 6, 2, 10, 14), "--helmet")
    assert (helmed["location"], helmed["timers"], helmed["heal_weeks"], helmed["conditions"]) == ("Skull", [], None, [])


@pytest.mark.rule("M-GRIEV-10")
def test_M_GRIEV_10_the_referees_vetoes_by_damage_type(furnace: Furnace) -> None:
    """M-GRIEV-10 (REF-40): fire breaks no bones and arrows sever no arms: the result is stopped and the referee
    is asked for another; other places and damage types stand.

    Fire, [6, 6, 2] + 1 = 15 (a broken bone): vetoed before any d10, nothing applied. Arrows, [6, 6, 4] + 3 = 19
    and d12 7 (R. Arm): vetoed, no bleeding; d12 2 (R. Leg) stands: 2d6 [3, 4] = 7 rounds of bleeding."""
    fire = grievous(furnace, 1, (6, 6, 2), "--damage-type", "fire")
    assert (fire["band"], fire["location"], fire["heal_weeks"], fire["effects"]) == ("broken_bone", None, None, [])
    assert fire["vetoed"] == "M-GRIEV-10: fire causes no broken bone; the referee chooses another result"
    assert one(fire, "grievous_veto")["audience"] == "referee"
    arm = grievous(furnace, 3, (6, 6, 4, 7), "--damage-type", "arrows")
    assert (arm["location"], arm["timers"], arm["conditions"]) == ("R. Arm", [], [])
    assert arm["referee_prompts"] == ["M-GRIEV-10: arrows causes no severed limb to the R. Arm; the referee chooses "
                                      "another result"]
    leg = grievous(furnace, 3, (6, 6, 4, 2, 3, 4), "--damage-type", "arrows")
    assert (leg["location"], leg["vetoed"], leg["timers"][0]["amount"]) == ("R. Leg", None, 7)
    assert grievous(furnace, 1, (6, 6, 2, 5, 1, 4), "--damage-type", "sword")["location"] == "Rib"


@pytest.mark.rule("M-SEVER-02", "M-TAB-03")
def test_M_SEVER_02_a_sword_of_sharpness_uses_the_severed_limb_table(furnace: Furnace) -> None:
    """M-SEVER-02 (optional, the sword is the DMG's): a Sword of Sharpness's severing takes its place from M-TAB-03,
    which the referee rolls at the table: `furnace table roll severed-limb`, a d12 (8 → the left hand, 12 → the
    head, instant death)."""
    hand = furnace.json("table", "roll", "severed-limb", "--faces", "8")
    assert (hand["table"], hand["roll"]["expression"], hand["roll"]["total"]) == ("M-TAB-03", "d12", 8)
    assert (hand["row"]["data"]["location"], hand["row"]["text"]) == ("L. Hand", "Left hand cut off, lost for good.")
    head = furnace.json("table", "roll", "severed-limb", "--faces", "12")
    assert head["row"]["data"]["location"] == "Head" and head["row"]["effects"] == [{"kind": "death",
                                                                                      "target": "self"}]
    notes = furnace.json("table", "show", "severed-limb")["notes"]
    assert any(n.startswith("M-SEVER-02") and "Sword of Sharpness" in n for n in notes)


@pytest.mark.rule("M-TAB-02")
def test_M_TAB_02_a_campaign_fight_breaks_a_rib(furnace: Furnace) -> None:
    """M-TAB-02 in play: in a `middle-sea` campaign a brute's maul (30 damage) takes Hild (20 HP) 10 below 0:
    3d6 [2, 2, 1] + 10 = 15, a broken bone; d10 5 → the rib (−3 to hit and damage); 2d4 [1, 4] + 9 = 14 weeks.
    Hild ends at 0 HP, and keeps the broken rib on the roster."""
    hild = fighter(name="Hild", level=3, hp_max=20, STR=14, armor="chain-mail", helmet=True,
                   weapons=[{"name": "arming sword", "category": "martial", "kind": "one-handed", "damage": "1d8"}])
    furnace.campaign("middle-sea", hild)
    brute = {**BANDIT, "name": "Brute", "hp": 50, "hd": 4, "damage": "30", "weapon": "maul"}
    fight = furnace.json("fight", fight_file(furnace.tmp, hild, monsters=[brute]), "--party", "all", "--rounds", "1",
                         "--faces", faces(1, 6, 15, 2, 2, 1, 5, 1, 4, 2))
    told = [e["data"] for e in fight["events"] if e["kind"] in ("grievous", "grievous_location", "broken_bone")]
    assert [(d.get("total"), d.get("location"), d.get("weeks")) for d in told] == [(15, None, None), (5, "Rib", None),
                                                                                  (None, "Rib", 14)]
    shown = furnace.json("character", "show", "Hild")["character"]
    assert (shown["hp"], shown["injuries"]) == (0, ["broken rib"])
