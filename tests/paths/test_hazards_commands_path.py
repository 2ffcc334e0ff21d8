"""The Hazards chapter's commands at the table (RULES.md PART H) on a campaign under the `hazards` profile: poison
and drugs, drink, sleep, mapping, languages, the scene the referee describes and the surprise roll, each through
its `furnace` command (in process) with the dice entered, and what the console tells a player.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.helpers.factories import EXAMPLES, character, reopened
from tests.paths.hazards_table import Table, console, faces, one, told

AGNA = str(EXAMPLES / "characters" / "agna.json")        # a Halfling peasant: DEX 10, CON 13 (+1), WIS 11, 1 HP
BRAKKA = str(EXAMPLES / "characters" / "brakka.json")    # a Half-orc Fighter: 22 HP, CON 12, WIS 13, a shield
POISONS = EXAMPLES / "poisons"                           # asp venom (2d6 damage), dreamweed (a drug: WIS −1)
FEVER = "Green River Fever"


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Table:
    return Table.at(tmp_path, monkeypatch, capsys)


def written(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def hero_file(tmp_path: Path, **fields: Any) -> str:
    """A character file (tests.helpers.factories.character with these fields) to join a campaign."""
    return written(tmp_path, f"{fields['name'].lower()}.json", character(**fields).to_json())


def exposure(table: Table, who: str, face: int) -> dict[str, Any]:
    """An exposure save to Green River Fever (a save vs. poison: a CON SAVE vs DC 12) with this d20: its values."""
    return dict(one(table.facts("clock", "infect", who, FEVER, "--exposed", "--faces", str(face)),
                    "exposure_save")["data"])


# -- poison and drugs (H.6) ---------------------------------------------------------------------------------------
@pytest.mark.rule("H-POIS-01")
def test_H_POIS_01_a_save_vs_poison_or_its_whole_effect(table: Table, tmp_path: Path) -> None:
    """H-POIS-01: exposed to a poison, a save vs. poison (a CON SAVE, DC 12 unless the poison has its own, AMB-82);
    a failure suffers its one effect in full, a success nothing. Asp venom (2d6 damage) on Brakka (22 HP, CON +0):
    d20 12 saves, HP stay 22; d20 11 fails and 2d6 [4, 5] = 9: HP 22 → 13. Black lotus (deep sleep, DC 15): d20 14
    fails, Brakka falls UNCONSCIOUS. Death's-cap (death) on Agna: d20 10 + 1 = 11 fails, she dies of it."""
    table.keep()("campaign", "join", BRAKKA, AGNA)
    asp = str(POISONS / "asp-venom.yaml")
    saved = table.facts("poison", "Brakka", asp, "--faces", "12")
    assert one(saved, "poison_save")["data"].items() >= {"total": 12, "dc": 12, "saved": True}.items()
    assert [f["kind"] for f in saved] == ["poison_save"]
    failed = table.facts("poison", "Brakka", asp, "--faces", "11,4,5")
    assert one(failed, "poison")["data"]["amount"] == 9 and faces(one(failed, "poison")) == [4, 5]
    assert one(failed, "damage")["data"].items() >= {"hp_before": 22, "hp_after": 13}.items()
    lotus = written(tmp_path, "lotus.yaml", "name: black lotus\ndc: 15\neffect: {kind: condition, condition: "
                                            "UNCONSCIOUS}\n")
    slept = table.facts("poison", "Brakka", lotus, "--faces", "14")
    assert one(slept, "poison_save")["data"].items() >= {"total": 14, "dc": 15, "saved": False}.items()
    assert "AMB-82" in one(slept, "poison_save")["rules"]
    cap = written(tmp_path, "cap.yaml", "name: death's-cap\neffect: {kind: death}\n")
    death = one(table.facts("poison", "Agna", cap, "--faces", "10"), "death")
    assert death["data"] == {"cause": "poison", "toxin": "death's-cap"} and "H-POIS-01" in death["rules"]
    state = reopened(tmp_path / "campaigns.db")
    brakka = state.member("Brakka").character
    assert (brakka.hp, "UNCONSCIOUS" in brakka.conditions, state.member("Agna").status) == (13, True, "dead")


@pytest.mark.rule("H-DRUG-01")
def test_H_DRUG_01_a_drug_taken_on_purpose_has_no_save(table: Table, tmp_path: Path) -> None:
    """H-DRUG-01: a drug is treated as a poison with a milder effect, and taken on purpose there is no save.
    Dreamweed (WIS −1, temporary): Brakka takes it (`--taken`): no die is rolled, WIS 13 → 12; slipped into
    Agna's cup she saves vs. poison (d20 15 + 1 = 16 vs 12) and nothing happens. A week of rest gives Brakka's
    point back (H-HEAL-06): WIS 13."""
    table.keep()("campaign", "join", BRAKKA, AGNA)
    weed = str(POISONS / "dreamweed.yaml")
    taken = table.facts("poison", "Brakka", weed, "--taken")
    assert [f["kind"] for f in taken] == ["drug", "ability"] and all(f["rolls"] == [] for f in taken)
    assert one(taken, "ability")["data"].items() >= {"ability": "WIS", "before": 13, "after": 12,
                                                     "loss": "temporary"}.items()
    assert "H-DRUG-01" in one(taken, "drug")["rules"]
    slipped = table.facts("poison", "Agna", weed, "--faces", "15")
    assert [f["kind"] for f in slipped] == ["poison_save"] and slipped[0]["data"]["total"] == 16
    assert one(table.facts("rest", "week", "Brakka"), "recovery")["data"].items() >= {
        "ability": "WIS", "before": 12, "after": 13}.items()


@pytest.mark.rule("H-DRUG-02")
def test_H_DRUG_02_drunk_is_minus_2_dex_and_minus_2_to_saves_until_sober(table: Table, tmp_path: Path) -> None:
    """H-DRUG-02 (AMB-80: the DEX score; drunk_duration_hours 4): Agna drinks: DEX 10 → 8 (modifier +0 → −1) and
    −2 to saves: her save against exposure to Green River Fever is d20 12 + 1 (CON) − 2 (drunk) = 11, and fails
    DC 12. Four hours on the clock she sobers up: DEX 8 → 10, and the same d20 12 + 1 = 13 saves."""
    table.keep()("campaign", "join", AGNA)
    drunk = table.facts("drink", "Agna")
    assert one(drunk, "drunk")["data"] == {"dex": 2, "dex_mod": 0, "saves": -2}
    assert one(drunk, "ability")["data"].items() >= {"ability": "DEX", "before": 10, "after": 8,
                                                     "modifier_before": 0, "modifier_after": -1}.items()
    save = exposure(table, "Agna", 12)
    assert (save["total"], save["saved"]) == (11, False) and {"value": -2, "source": "drunk"} in save["modifiers"]
    table("clock", "cure", "Agna", FEVER)
    sober = table.facts("clock", "advance", "4", "hours")
    assert [f["kind"] for f in sober][:2] == ["sober", "ability"] and one(sober, "ability")["data"]["after"] == 10
    again = exposure(table, "Agna", 12)
    assert (again["total"], again["saved"]) == (13, True)
    assert reopened(tmp_path / "campaigns.db").member("Agna").character.scores["DEX"] == 10


# -- sleep (H.8) ----------------------------------------------------------------------------------------------------
@pytest.mark.rule("H-SLEEP-01")
def test_H_SLEEP_01_under_4_hours_a_day_is_minus_1_more_each_day_until_a_good_sleep(table: Table) -> None:
    """H-SLEEP-01 (AMB-76): a 24-hour period with under 4 hours of sleep gives −1 to all rolls (−10% on d%), −1
    more for each further such day, until a sleep of 4 hours or more. Agna sleeps 3 hours a day: after day 1 −1,
    after day 2 −2, and her save against exposure is d20 14 + 1 − 2 = 13. She sleeps 8 hours again: the next day
    closes with the penalty gone, and the same save is d20 14 + 1 = 15."""
    table.keep()("campaign", "join", AGNA)
    assert one(table.facts("sleep", "Agna", "3"), "sleeps")["data"] == {"hours": 3}
    day1 = one(table.facts("clock", "advance", "1", "day"), "sleep")["data"]
    day2 = one(table.facts("clock", "advance", "1", "day"), "sleep")["data"]
    assert [(d["penalty"], d["percent"]) for d in (day1, day2)] == [(-1, -10), (-2, -20)]
    save = exposure(table, "Agna", 14)
    assert save["total"] == 13 and {"value": -2, "source": "short of sleep"} in save["modifiers"]
    table("sleep", "Agna", "8")
    rested = one(table.facts("clock", "advance", "1", "day"), "sleep")["data"]
    assert (rested["hours"], rested["penalty_before"], rested["penalty"]) == (8, -2, 0)
    assert exposure(table, "Agna", 14)["total"] == 15


# -- mapping (H.12) --------------------------------------------------------------------------------------------------
@pytest.mark.rule("H-MAP-01")
def test_H_MAP_01_paper_ink_and_two_free_hands(table: Table) -> None:
    """H-MAP-01: the party maps only while one character has paper and ink and two free hands (no torch, shield or
    weapon in them). Agna has neither paper nor ink; given both she can map, but not while she holds a torch.
    Brakka, given paper and ink, carries a shield: one hand busy, she cannot."""
    table.keep()("campaign", "join", AGNA, BRAKKA)
    bare = one(table.facts("map", "Agna"), "mapping")["data"]
    assert (bare["can_map"], bare["missing"], bare["hands"]) == (False, ["paper", "ink"], 0)
    table("give", "Agna", "paper", "ink")
    table("give", "Brakka", "paper", "ink")
    assert one(table.facts("map", "Agna"), "mapping")["data"]["can_map"] is True
    torch = one(table.facts("map", "Agna", "--holding", "torch"), "mapping")["data"]
    assert (torch["can_map"], torch["hands"], torch["holding"]) == (False, 1, ["torch"])
    shield = one(table.facts("map", "Brakka"), "mapping")["data"]
    assert (shield["can_map"], shield["missing"], shield["hands"], shield["holding"]) == (False, [], 1, ["a shield"])


@pytest.mark.rule("H-MAP-02")
def test_H_MAP_02_exact_dimensions_only_at_exploration_speed(table: Table) -> None:
    """H-MAP-02: at exploration speed the referee gives exact dimensions (32 by 47 feet); at another speed only
    approximate ones, here to the nearest 10 feet (32 by 45 → 30 by 50); an irregular area only roughly, at any
    speed. The exact feet stay the referee's."""
    table.keep()
    exact = one(table.facts("scene", "room", "32", "47"), "room")["data"]
    assert (exact["shown_width"], exact["shown_length"], exact["exact"]) == (32, 47, True)
    running = one(table.facts("scene", "room", "32", "45", "--speed", "running"), "room")["data"]
    assert (running["shown_width"], running["shown_length"], running["exact"]) == (30, 50, False)
    cave = one(table.facts("scene", "room", "32", "47", "--irregular"), "room")["data"]
    assert (cave["shown_width"], cave["shown_length"], cave["exact"], cave["irregular"]) == (30, 50, False, True)
    assert "about 30 by 50 feet" in table("scene", "room", "32", "45", "--speed", "running")


# -- light and sight (H.11) -------------------------------------------------------------------------------------------
@pytest.mark.rule("H-LIGHT-01", "H-LIGHT-04")
def test_H_LIGHT_01_in_the_dark_the_party_sees_by_its_light_or_not_at_all(table: Table) -> None:
    """H-LIGHT-01: in darkness the characters need a light source to see: with none burning the party sees 0';
    Brakka's torch (30') and Agna's candle (10'): 30'; 6 turns on, the torch is out and only the candle's 10'
    remains. H-LIGHT-04: elsewhere the referee judges how far they see (60' in a moonlit hall), a light's radius
    counting where it is larger."""
    table.keep()("campaign", "join", AGNA, BRAKKA)
    assert one(table.facts("scene", "sight"), "sight")["data"].items() >= {"feet": 0, "sources": []}.items()
    table("clock", "light", "Brakka", "torch")
    table("clock", "light", "Agna", "candle")
    both = one(table.facts("scene", "sight"), "sight")["data"]
    assert (both["feet"], both["light_ft"], both["sources"]) == (30, 30, ["candle", "torch"])
    table("clock", "advance", "6", "turns")
    assert one(table.facts("scene", "sight"), "sight")["data"]["feet"] == 10
    hall = one(table.facts("scene", "sight", "--visibility", "60"), "sight")
    assert (hall["data"]["feet"], hall["data"]["scene_ft"]) == (60, 60) and "H-LIGHT-04" in hall["rules"]
    assert one(table.facts("scene", "sight", "--visibility", "5"), "sight")["data"]["feet"] == 10
    assert "the party sees nothing" not in table("scene", "sight")


@pytest.mark.rule("H-LIGHT-03")
def test_H_LIGHT_03_a_party_carrying_light_cannot_surprise(table: Table) -> None:
    """H-LIGHT-03 with the surprise roll (F-SURP-01, D-3: 1d6 a side, surprised on 2 or less): in the dark the
    party's d6 2 is surprised and the enemies' 5 is not: the enemies get a free turn. Once Brakka's torch burns
    (on the clock) the party cannot surprise: the enemies' die is not rolled, only the party's (5: not
    surprised), no free turn. With the enemies' light too, no side rolls."""
    table.keep("hazards", "surprise_roll=true")("campaign", "join", BRAKKA)
    dark = one(table.facts("surprise", "--faces", "2,5"), "surprise_roll")
    assert (dark["data"]["party"]["surprised"], dark["data"]["enemies"]["surprised"]) == (True, False)
    assert dark["data"]["free_turn"] == "enemies" and faces(dark) == [2, 5]
    table("clock", "light", "Brakka", "torch")
    lit = one(table.facts("surprise", "--faces", "5"), "surprise_roll")
    assert lit["data"]["enemies"] == {"roll": None, "surprised": False, "given_away": True}
    assert (lit["data"]["party"]["roll"], lit["data"]["free_turn"], faces(lit)) == (5, None, [5])
    assert "H-LIGHT-03" in lit["rules"]
    both = one(table.facts("surprise", "--enemies-lit"), "surprise_roll")
    assert both["rolls"] == [] and both["data"]["party"]["given_away"] and both["data"]["enemies"]["given_away"]


# -- the road (H.1) ---------------------------------------------------------------------------------------------------
@pytest.mark.rule("H-TRAV-04")
def test_H_TRAV_04_the_players_hear_the_terrain_and_what_lies_around_unless_it_hides_the_view(
        table: Table, tmp_path: Path) -> None:
    """H-TRAV-04: on overland travel the referee tells the players the terrain they enter and the terrain around,
    unless the terrain blocks their view. A pine wood with hills to the north and a river: Ann's phone is told
    all three. A fog-bound marsh that hides a ruined tower: Ann is told the marsh, never the tower; the referee
    sees it."""
    with console(tmp_path, table.capsys) as (web, referee, ann):
        seen = one(web.facts("scene", "terrain", "a pine wood", "--around", "hills to the north", "--around",
                             "a river"), "terrain")["data"]
        assert seen["around"] == ["hills to the north", "a river"]
        fog = one(web.facts("scene", "terrain", "a fog-bound marsh", "--around", "a ruined tower", "--hides-view"),
                  "terrain")["data"]
        assert (fog["around"], fog["beyond"]) == ([], ["a ruined tower"])
        to_ann, to_referee = told(ann), told(referee)
    assert "hills to the north" in to_ann and "fog-bound marsh" in to_ann and "ruined tower" not in to_ann
    assert "ruined tower" in to_referee


# -- languages (H.10) ----------------------------------------------------------------------------------------------
@pytest.mark.rule("H-LANG-01", "H-LANG-02")
def test_H_LANG_01_native_tongues_and_literacy_at_INT_7(table: Table, tmp_path: Path) -> None:
    """H-LANG-01: every character speaks her native tongue, and reads and writes with an INT score of 7 or more.
    H-LANG-02: an Elf or a Dwarf also speaks the clan tongue beside the local human tongue; a Halfling speaks the
    local human tongue. Durin, a Dwarf of INT 6, meets Dwarvish: he speaks Common and Dwarvish (no roll) and
    cannot read; Ilsa, an Elf of INT 7, reads and speaks Common and Elvish; Agna, a Halfling, speaks Common only,
    so Elvish (exotic, INT +1: 1 + 1 − 2 = 0 in 6) is not known, and no die is rolled."""
    durin = hero_file(tmp_path, name="Durin", race="Dwarf", INT=6)
    ilsa = hero_file(tmp_path, name="Ilsa", race="Elf", INT=7)
    table.keep()("campaign", "join", durin, ilsa, AGNA)
    dwarf = table.facts("language", "--who", "Durin", "--language", "Dwarvish", "--kind", "exotic")
    assert one(dwarf, "tongues")["data"] == {"languages": ["Common", "Dwarvish"], "literate": False, "int_score": 6}
    assert one(dwarf, "language")["data"].items() >= {"outcome": "speaks", "known": True}.items()
    assert all(f["rolls"] == [] for f in dwarf)
    elf = one(table.facts("language", "--who", "Ilsa", "--language", "Common", "--kind", "local"), "tongues")
    assert elf["data"] == {"languages": ["Common", "Elvish"], "literate": True, "int_score": 7}
    halfling = table.facts("language", "--who", "Agna", "--language", "Elvish", "--kind", "exotic")
    assert one(halfling, "tongues")["data"]["languages"] == ["Common"]
    assert one(halfling, "language")["data"].items() >= {"known": False, "chance": 0, "rolled": False}.items()
    state = reopened(tmp_path / "campaigns.db")
    assert state.member("Durin").character.languages == ["Common", "Dwarvish"]
    again = table.facts("language", "--who", "Agna", "--language", "Elvish", "--kind", "exotic")
    assert [f["kind"] for f in again] == ["language"] and again[0]["data"]["outcome"] == "remembered"


def test_a_hazard_save_reads_a_13_as_the_campaign_says(table: Table) -> None:
    """CF-03 / AMB-08: under ability_13_modifier = 0 a score of 13 reads in the printed 9-13 row (+0). Agna's CON 13
    then adds nothing to her save against exposure (d20 11 = 11, fails DC 12), where the default reads +1 (12)."""
    table.keep("hazards", "ability_13_modifier=0")("campaign", "join", AGNA)
    save = exposure(table, "Agna", 11)
    assert (save["total"], save["saved"], save["modifiers"][0]) == (11, False, {"value": 0, "source": "CON"})
