"""The Hazards chapter (RULES.md PART H) on the user's path: travel, aging and ability scores, damage, disease, the
chapter's tables, and what hunger, thirst and rest do to a campaign's characters, each through a `furnace` command
(in process) on a campaign under the `hazards` profile, or through the console, with the dice entered (`--faces`)
so that every number is the rule's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.helpers.factories import EXAMPLES, character, reopened
from tests.paths.hazards_table import Table, console, faces, of, one, told

AGNA = str(EXAMPLES / "characters" / "agna.json")        # a Halfling peasant: CON 13 (+1), INT 14, 1 HP
BRAKKA = str(EXAMPLES / "characters" / "brakka.json")    # a level-3 Half-orc Fighter: 22 HP, CON 12
AGUE = "name: Marsh Ague\nincubation: 1 day\ninterval: 1 day\ninfection_time: 2 days\neffect: {ability: INT}\n"


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Table:
    return Table.at(tmp_path, monkeypatch, capsys)


def joined_file(tmp_path: Path, **fields: Any) -> str:
    """A character file (tests.helpers.factories.character with these fields) to join a campaign."""
    path = tmp_path / f"{fields.get('name', 'hero').lower()}.json"
    path.write_text(character(**fields).to_json(), encoding="utf-8")
    return str(path)


# -- travel (H.1) -------------------------------------------------------------------------------------------------
@pytest.mark.rule("H-TRAV-03")
def test_H_TRAV_03_lost_heading_S_drifts_to_SE_or_SW_and_only_the_referee_knows(table: Table,
                                                                              tmp_path: Path) -> None:
    """H-TRAV-03: a party that goes off course keeps two headings, the intended one it believes (S) and the actual
    one, 45° off (1d2: 1 → SE, 2 → SW); the lost state is hidden from the players until the referee reveals it.
    `travel --faces 1,1`: lost roll 1 → off course, drift 1 → SE; `--faces 1,2` → SW. In a campaign (`clock
    travel`), the headings stay in the campaign's travel state, and the console tells the lost check to the
    referee alone: Ann's phone shows the day's travel, never SW."""
    southeast = table.json("travel", "--heading", "S", "--faces", "1,1")
    assert southeast["party"] == {"intended": "S", "actual": "SE", "day": 1} and southeast["lost"] is True
    check = one(table.facts("travel", "--heading", "S", "--faces", "1,2"), "lost_check")
    assert (check["data"]["intended"], check["data"]["actual"], check["data"]["hidden"]) == ("S", "SW", True)
    assert faces(check) == [1, 2]

    with console(tmp_path, table.capsys) as (web, referee, ann):
        web("clock", "travel", "--days", "2", "--heading", "S", "--faces", "1,2")
        travel = reopened(tmp_path / "web.db").flags["travel"]
        assert travel == {"intended": "S", "actual": "SW", "day": 2}
        told_referee, told_ann = told(referee), told(ann)
    assert "SW" in told_referee and "lost" in told_referee
    assert "travel day 2" in told_ann and "SW" not in told_ann and "lost" not in told_ann


# -- aging and ability scores (H.2, H.3) -----------------------------------------------------------------------------
@pytest.mark.rule("H-AGE-01", "H-TAB-01")
def test_H_AGE_01_a_dwarf_saves_every_5_years_from_200_at_minus_2_from_250_and_minus_4_from_300(
        table: Table) -> None:
    """H-AGE-01, H-TAB-01: aging saves vs. paralysis (a CON SAVE, CON modifier applied) from the race's start age
    and every interval after, −2 from the "−2" age and −4 from the "−4" age. A Dwarf (200/250/300, every 5 years)
    aged 199 → 300 makes 21 saves, at 200, 205 … 300: none penalised before 250, −2 from 250, −4 at 300. With CON
    +1 and a d20 of 13: 14, 12 and 10 against DC 12 (the last fails, and the d6 takes a point of STR). Elf
    700/800/900 every 10, Halfling 70/80/100 every year, Human 40/50/60 every year, as the table gives them (a
    Half-orc reads the Human row)."""
    rows = {r["key"]: r["data"] for r in table.json("table", "show", "aging")["rows"]}
    assert rows["Dwarf"] == {"start": 200, "minus_2": 250, "minus_4": 300, "interval_years": 5}
    assert [(rows[r]["start"], rows[r]["minus_2"], rows[r]["minus_4"], rows[r]["interval_years"])
            for r in ("Elf", "Halfling", "Human")] == [(700, 800, 900, 10), (70, 80, 100, 1), (40, 50, 60, 1)]
    saves = of(table.facts("age", "--race", "Dwarf", "--from", "199", "--to", "300", "--con", "1",
                           "--faces", ",".join(["13"] * 21 + ["1"])), "aging_save")
    assert [s["data"]["age"] for s in saves] == list(range(200, 301, 5))
    by_age = {s["data"]["age"]: s["data"] for s in saves}
    assert [(by_age[a]["penalty"], by_age[a]["total"], by_age[a]["saved"]) for a in (245, 250, 295, 300)] == [
        (0, 14, True), (-2, 12, True), (-2, 12, True), (-4, 10, False)]
    assert by_age[200]["category"] == "paralysis" and by_age[200]["ability"] == "CON"
    assert {"value": 1, "source": "CON"} in by_age[200]["modifiers"] and by_age[200]["dc"] == 12
    elf = of(table.facts("age", "--race", "Elf", "--from", "699", "--to", "720", "--faces", "20,20,20"), "aging_save")
    assert [s["data"]["age"] for s in elf] == [700, 710, 720]
    halfling = of(table.facts("age", "--race", "Halfling", "--from", "79", "--to", "81", "--faces", "20,20"),
                  "aging_save")
    assert [(s["data"]["age"], s["data"]["penalty"]) for s in halfling] == [(80, -2), (81, -2)]
    human = of(table.facts("age", "--race", "Half-orc", "--from", "39", "--to", "41", "--faces", "20,20"),
               "aging_save")
    assert [(s["data"]["age"], s["data"]["penalty"]) for s in human] == [(40, 0), (41, 0)]


@pytest.mark.rule("H-AGE-02", "H-ABIL-01", "H-ABIL-02")
def test_H_AGE_02_a_failed_aging_save_costs_one_random_ability_point_for_good(table: Table) -> None:
    """H-AGE-02: a failed aging save lowers one ability, picked by 1d6 over STR … CHA, by 1 point, permanently.
    H-ABIL-01: only the modifier changes with it: CON 13 → 12 loses its +1, STR 10 → 9 keeps +0, and nothing else
    moves (HP stay 4/4). H-ABIL-02 (con_change_hp = retroactive): the CON modifier's −1 comes off current and
    maximum HP at once, × 1 Hit Die for a 0-level character: 4/4 → 3/3. A Human aged 49 → 50 with CON +1: d20 3
    + 1 − 2 (age 50) = 2 fails DC 12."""
    con = table.json("age", "--race", "Human", "--from", "49", "--to", "50", "--con", "1", "--faces", "3,3")
    loss = one(con["events"], "ability")
    assert one(con["events"], "aging_loss")["data"] == {"ability": "CON"}
    assert {k: loss["data"][k] for k in ("ability", "loss", "before", "after", "modifier_before", "modifier_after")} \
        == {"ability": "CON", "loss": "permanent", "before": 13, "after": 12, "modifier_before": 1,
            "modifier_after": 0}
    assert "H-ABIL-01" in loss["rules"] and con["scores"]["CON"] == 12
    assert not of(con["events"], "con_hp")
    strength = table.facts("age", "--race", "Human", "--from", "39", "--to", "40", "--faces", "2,1")
    assert one(strength, "ability")["data"].items() >= {"ability": "STR", "before": 10, "after": 9,
                                                    "modifier_before": 0, "modifier_after": 0}.items()
    retro = table.facts("age", "--race", "Human", "--from", "49", "--to", "50", "--con", "1", "--faces", "3,3",
                        "--option", "con_change_hp=retroactive")
    assert one(retro, "con_hp")["data"] == {"delta": -1, "dice": 1, "hp_before": 4, "hp_after": 3,
                                            "hp_max_before": 4, "hp_max_after": 3}


@pytest.mark.rule("H-ABIL-03")
def test_H_ABIL_03_a_score_of_zero_kills(table: Table) -> None:
    """H-ABIL-03: a character whose score falls to 0 dies. CON 3 (−3) aged 59 → 62: three saves at −4, each d20 1
    failing, each d6 3 taking the point from CON: 3 → 2 → 1 → 0, and she dies of it (no later save is rolled)."""
    data = table.json("age", "--race", "Human", "--from", "59", "--to", "62", "--con", "-3",
                      "--faces", "1,3,1,3,1,3")
    assert [e["data"]["after"] for e in data["events"] if e["kind"] == "ability"] == [2, 1, 0]
    death = one(data["events"], "death")
    assert death["data"] == {"cause": "ability_zero", "ability": "CON"} and "H-ABIL-03" in death["rules"]
    assert data["dead"] == "ability_zero" and data["scores"]["CON"] == 0


# -- damage (H.4) --------------------------------------------------------------------------------------------------
@pytest.mark.rule("H-DMG-01")
def test_H_DMG_01_damage_comes_off_current_hp_and_may_go_below_zero(table: Table, tmp_path: Path) -> None:
    """H-DMG-01: damage is deducted from current HP, which can go negative. Brakka (22/22) takes 5 → 17, then 18 →
    −1 (unconscious, still alive above −3 under the hazards model); the roster keeps −1/22."""
    table.keep()("campaign", "join", BRAKKA)
    first = one(table.facts("damage", "Brakka", "5"), "damage")
    assert (first["data"]["hp_before"], first["data"]["hp_after"], first["data"]["amount"]) == (22, 17, 5)
    second = table.facts("damage", "Brakka", "18", "--source", "a falling stone")
    assert one(second, "damage")["data"].items() >= {"hp_before": 17, "hp_after": -1, "hp_max": 22}.items()
    assert "H-DMG-01" in one(second, "damage")["rules"] and not of(second, "death")
    brakka = reopened(tmp_path / "campaigns.db").member("Brakka")
    assert (brakka.character.hp, brakka.character.hp_max, brakka.status) == (-1, 22, "dying")


# -- disease (H.5) ---------------------------------------------------------------------------------------------------
@pytest.mark.rule("H-DIS-01")
def test_H_DIS_01_only_the_diseases_the_referee_defines_reach_a_pc(table: Table, tmp_path: Path) -> None:
    """H-DIS-01: only adventure diseases, defined by the referee, affect PCs; a chronic illness is no rule. The
    referee's Marsh Ague (a file: after 1 day, a save a day for 2 days) infects Agna and its 2 saves go on the
    clock; an illness nobody defined ("wasting sickness") is refused, naming the diseases there are."""
    ague = tmp_path / "ague.yaml"
    ague.write_text(AGUE, encoding="utf-8")
    table.keep()("campaign", "join", AGNA)
    infected = one(table.facts("clock", "infect", "Agna", str(ague)), "disease")
    assert (infected["data"]["disease"], infected["data"]["saves"]) == ("Marsh Ague", 2)
    status = table.json("clock", "status")
    assert [(e["kind"], e["owner"], e["due"]) for e in status["entries"]] == [("disease_save", "Agna", "day 2, 00:00")]
    assert "green-river-fever" in table.refused("clock", "infect", "Agna", "wasting sickness")


@pytest.mark.rule("H-TAB-04")
def test_H_TAB_04_green_river_fever_18_saves_from_day_8_every_4_hours_minus_2_if_not_resting(table: Table) -> None:
    """H-TAB-04: the disease schema (incubation, interval, infection time, effect) and its worked example, Green
    River Fever: incubation 1 week, a save every 4 hours for 3 days = 18 saves, −2 when not resting, each failure
    −1 INT. Agna (CON +1, INT 14) infected at day 1 00:00: the first save is due day 8 00:00; d20 9 + 1 − 2 = 8
    fails DC 12 and INT 14 → 13; 4 hours later the second (d20 13 + 1 − 2 = 12) saves."""
    row = one([{"kind": r["key"], **r} for r in table.json("table", "show", "disease")["rows"]], "green-river-fever")
    assert {k: row["data"][k] for k in ("incubation", "interval", "infection", "expected_saves",
                                         "penalty_not_resting")} == {
        "incubation": {"amount": 1, "unit": "week"}, "interval": {"amount": 4, "unit": "hour"},
        "infection": {"amount": 3, "unit": "day"}, "expected_saves": 18, "penalty_not_resting": -2}
    table.keep()("campaign", "join", AGNA)
    assert one(table.facts("clock", "infect", "Agna", "Green River Fever"), "disease")["data"]["saves"] == 18
    assert table.json("clock", "status")["entries"][0]["due"] == "day 8, 00:00"
    first = table.facts("clock", "advance", "7", "days", "--faces", "9")
    save = one(first, "disease_save")["data"]
    assert (save["number"], save["of"], save["total"], save["saved"]) == (1, 18, 8, False)
    assert {"value": -2, "source": "not resting"} in save["modifiers"]
    assert one(first, "ability")["data"].items() >= {"ability": "INT", "before": 14, "after": 13}.items()
    second = one(table.facts("clock", "advance", "4", "hours", "--faces", "13"), "disease_save")["data"]
    assert (second["number"], second["total"], second["saved"]) == (2, 12, True)


# -- the chapter's tables, where the commands use them ---------------------------------------------------------
@pytest.mark.rule("H-TAB-05")
def test_H_TAB_05_falling_10_100_200_250_feet(table: Table) -> None:
    """H-TAB-05: min(floor(feet / 10), 20) d6: 10' → 1d6, 100' → 10d6, 200' → 20d6, 250' → still 20d6; `fall`
    rolls what the table says (10' with a 4: 4 damage; 250' with twenty 6s: 120)."""
    rows = {str(r["key"]): r["data"]["dice"] for r in table.json("table", "show", "falling")["rows"]}
    assert rows == {"10": "1d6", "100": "10d6", "200": "20d6", "250": "20d6"}
    for feet, dice in rows.items():
        assert table.json("fall", feet, "--seed", "1")["dice"] == dice
    assert table.json("fall", "10", "--faces", "4")["damage"] == 4
    assert table.json("fall", "250", "--faces", ",".join(["6"] * 20))["damage"] == 120


@pytest.mark.rule("H-TAB-02")
def test_H_TAB_02_torch_and_lantern_30_feet_candle_10_burning_6_24_12_turns(table: Table) -> None:
    """H-TAB-02: torch 30' for 6 exploration turns, lantern 30' for 24 turns a flask of oil, candle 10' for 12
    turns. Lit on the campaign clock (10-minute turns), each burns out when its row says: Agna's candle after 120
    minutes, Brakka's lantern after 240."""
    rows = {r["key"]: (r["data"]["radius_ft"], r["data"]["duration"]["amount"])
            for r in table.json("table", "show", "light")["rows"]}
    assert rows == {"torch": (30, 6), "lantern": (30, 24), "candle": (10, 12)}
    table.keep()("campaign", "join", AGNA, BRAKKA)
    candle = one(table.facts("clock", "light", "Agna", "candle"), "light")["data"]
    lantern = one(table.facts("clock", "light", "Brakka", "lantern"), "light")["data"]
    assert (candle["radius_ft"], candle["turns"], candle["minutes"]) == (10, 12, 120)
    assert (lantern["radius_ft"], lantern["turns"], lantern["minutes"]) == (30, 24, 240)
    assert [f["data"]["source"] for f in of(table.facts("clock", "advance", "12", "turns"), "light_out")] == ["candle"]
    assert [f["data"]["source"] for f in of(table.facts("clock", "advance", "12", "turns"), "light_out")] == [
        "lantern"]


@pytest.mark.rule("H-TAB-03")
def test_H_TAB_03_language_chance_1_plus_INT_plus_the_rows_modifier(table: Table) -> None:
    """H-TAB-03: chance in 6 = 1 + INT modifier + the row's modifier (local 0, not local −1, exotic −2, ancient
    −3; magical: never). INT +2: local 3 in 6 (a 3 knows it, a 4 does not), not local 2, exotic 1, ancient 0 (no
    roll: not known), magical none."""
    rows = {r["key"]: r["data"].get("modifier") for r in table.json("table", "show", "languages")["rows"]}
    assert rows == {"local": 0, "not-local": -1, "exotic": -2, "ancient": -3, "magical": None}
    chances = {k: table.json("language", "--int", "2", "--kind", k, "--faces", "1")["chance_in_6"]
               for k in ("local", "not-local", "exotic")}
    assert chances == {"local": 3, "not-local": 2, "exotic": 1}
    assert table.json("language", "--int", "2", "--kind", "local", "--faces", "3")["known"] is True
    assert table.json("language", "--int", "2", "--kind", "local", "--faces", "4")["known"] is False
    ancient = table.json("language", "--int", "2", "--kind", "ancient")
    assert (ancient["chance_in_6"], ancient["known"], ancient["events"][0]["rolls"]) == (0, False, [])
    assert table.json("language", "--int", "2", "--kind", "magical")["chance_in_6"] is None


# -- hunger and thirst (H.8) ----------------------------------------------------------------------------------------
@pytest.mark.rule("H-STARV-01", "H-STARV-04", "H-TAB-06")
def test_H_STARV_04_the_third_failed_thirst_save_kills(table: Table, tmp_path: Path) -> None:
    """H-STARV-01: each 24 hours a character needs a full meal and water; `rations` gives Agna 1 day of food and no
    water: the ration is eaten as day 1 closes, and from day 2 she goes without food. H-TAB-06 / H-STARV-04: each
    day without water a CON SAVE (vs. poison, DC 12) or CON is halved; each day without food a save or CON −1;
    the third failed thirst save kills. Day 1: thirst d20 3 + 1 = 4 fails, CON 13 → 6. Day 2: hunger d20 15 − 1
    = 14 saves, thirst d20 3 − 1 = 2 fails, 6 → 3. Day 3: hunger saves (15 − 3 = 12), thirst fails, 3 → 1, and
    that third failure kills her."""
    rows = {r["key"]: r["data"] for r in table.json("table", "show", "deprivation")["rows"]}
    assert rows["third-failure"]["failed_saves"] == 3 and rows["no-sleep"]["minimum_sleep_hours"] == 4
    table.keep()("campaign", "join", AGNA)
    table("rations", "Agna", "1", "--no-water")
    day1 = table.facts("clock", "advance", "1", "day", "--faces", "3")
    assert one(day1, "rations")["data"].items() >= {"before": 1, "after": 0, "ate": True}.items()
    assert not of(day1, "hunger_save") and one(day1, "thirst_save")["data"]["total"] == 4
    assert one(day1, "ability")["data"].items() >= {"ability": "CON", "before": 13, "after": 6}.items()
    day2 = table.facts("clock", "advance", "1", "day", "--faces", "15,3")
    assert one(day2, "rations")["data"].items() >= {"ate": False, "hungry": True}.items()
    assert (one(day2, "hunger_save")["data"]["total"], one(day2, "thirst_save")["data"]["total"]) == (14, 2)
    day3 = table.facts("clock", "advance", "1", "day", "--faces", "15,3")
    assert [f["data"]["after"] for f in of(day3, "ability")] == [1]
    death = one(day3, "death")
    assert death["data"].items() >= {"cause": "deprivation", "failures": 3}.items() and "H-STARV-04" in death["rules"]
    assert reopened(tmp_path / "campaigns.db").member("Agna").status == "dead"


@pytest.mark.rule("H-STARV-05", "H-HEAL-06", "H-HEAL-08")
def test_H_STARV_05_hunger_and_thirst_losses_come_back_2_a_week_other_losses_1(table: Table, tmp_path: Path) -> None:
    """H-STARV-05: CON lost to hunger and thirst comes back at 2 points a week of rest with proper food; H-HEAL-06:
    other temporary losses at 1 a week, every such score; H-HEAL-08: never above the score before the loss.
    Agna (CON 13, INT 14) catches the referee's Marsh Ague (a save a day from day 2, −2 not resting) and has
    neither food nor water. Day 2: ague d20 3 + 1 − 2 fails, INT 14 → 13; hunger d20 3 + 1 fails, CON 13 → 12;
    thirst d20 3 + 1 fails, CON 12 → 6. Fed again, day 3: the ague's second save (d20 2 + 1 − 2) fails, INT 12.
    Then weeks of rest: CON 6 → 8 → 10 → 12 → 13 (2 a week, the last 1 only), INT 12 → 13 → 14 and no more."""
    ague = tmp_path / "ague.yaml"
    ague.write_text(AGUE, encoding="utf-8")
    table.keep()("campaign", "join", AGNA)
    table("clock", "infect", "Agna", str(ague))
    table("rations", "Agna", "0", "--no-water")
    day2 = table.facts("clock", "advance", "1", "day", "--faces", "3,3,3")
    assert [(f["data"]["ability"], f["data"]["after"]) for f in of(day2, "ability")] == [
        ("INT", 13), ("CON", 12), ("CON", 6)]
    table("rations", "Agna", "30", "--water")
    assert one(table.facts("clock", "advance", "1", "day", "--faces", "2"), "ability")["data"]["after"] == 12
    weeks = [of(table.facts("rest", "week", "Agna"), "recovery") for _ in range(4)]
    told = [[(f["data"]["ability"], f["data"]["before"], f["data"]["after"]) for f in week] for week in weeks]
    assert told == [[("CON", 6, 8), ("INT", 12, 13)], [("CON", 8, 10), ("INT", 13, 14)], [("CON", 10, 12)],
                    [("CON", 12, 13)]]
    assert "H-STARV-05" in weeks[0][0]["rules"] and "H-HEAL-06" in weeks[0][1]["rules"]
    assert all("H-HEAL-08" in f["rules"] for week in weeks for f in week)
    scores = reopened(tmp_path / "campaigns.db").member("Agna").character.scores
    assert (scores["CON"], scores["INT"]) == (13, 14)


# -- natural healing (H.9) -------------------------------------------------------------------------------------------
@pytest.mark.rule("H-HEAL-03", "H-HEAL-05", "H-HEAL-08", "H-TAB-07")
def test_H_HEAL_05_a_full_day_in_a_bed_heals_1_more_below_half_1_and_never_past_the_maximum(
        table: Table, tmp_path: Path) -> None:
    """H-TAB-07 by `rest full_day` (a day on the clock, food and water as recorded: fed by default):
    - H-HEAL-03 (the fragment read per AMB-77): below half HP a full day heals 1, no roll: Brakka 7/22 (half is
      11) → 8;
    - H-HEAL-02 + H-HEAL-05: at half or more, 1d3 and +1 more in a comfortable bed in a clean room: Ilsa, who has
      her bed (10 HP, at 5), d3 2 + 1 → 8;
    - H-HEAL-08: never above the maximum: Ilsa at 8, d3 3 + 1 would be 12, she stops at 10."""
    rows = {r["key"]: r["data"] for r in table.json("table", "show", "natural-healing")["rows"]}
    assert (rows["full-day-below-half"]["heal"], rows["bed"]["heal"], rows["full-day"]["heal"]) == ("1", "1", "1d3")
    ilsa = joined_file(tmp_path, name="Ilsa", hp_max=10, hp=5, extensions={"hazards": {"bed": True}})
    table.keep()("campaign", "join", BRAKKA, ilsa)
    table("damage", "Brakka", "15")
    below = one(table.facts("rest", "full_day", "Brakka"), "rest_heal")
    assert below["data"].items() >= {"hp_before": 7, "hp_after": 8, "half": 11, "gained": 1}.items()
    assert below["rolls"] == [] and "H-HEAL-03" in below["rules"]
    bed = one(table.facts("rest", "full_day", "Ilsa", "--faces", "2"), "rest_heal")
    assert bed["data"]["gains"] == [{"amount": 2, "why": "full_day"}, {"amount": 1, "why": "bed"}]
    assert (bed["data"]["hp_before"], bed["data"]["hp_after"], faces(bed)) == (5, 8, [2])
    assert "H-HEAL-05" in bed["rules"]
    capped = one(table.facts("rest", "full_day", "Ilsa", "--faces", "3"), "rest_heal")
    assert capped["data"].items() >= {"hp_before": 8, "hp_after": 10, "gained": 2, "capped": True}.items()
    assert "H-HEAL-08" in capped["rules"]
    assert reopened(tmp_path / "campaigns.db").member("Ilsa").character.hp == 10
