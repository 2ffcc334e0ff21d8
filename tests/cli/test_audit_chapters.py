"""The audit's chapter defects, fixed on the user's path (issue 22): Liquid Courage's +1 to morale and to SAVEs vs
fear (M-DRINK-01), a place marked hostile and no recovery there under every rest model (H-HEAL-07), orisons counted
and capped by the day (M-ORIS-02), the daily caps reset when a new in-game day starts and not at a long rest
(F-CLR-07), a day without food that brings its save (H-STARV-02). Every die is entered with --faces; each number
is worked by hand from those faces by the rule named."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from furnace.campaign import encounters
from furnace.campaign.state import CampaignState
from furnace.characters.character import Character
from tests.helpers.factories import reopened

Run = Callable[..., tuple[int, str, str]]
ROOT = Path(__file__).resolve().parents[2]
CHARACTERS = ROOT / "examples" / "characters"


def ok(furnace: Run, *args: str) -> str:
    code, out, err = furnace(*args)
    assert code == 0, err
    return out


def refused(furnace: Run, *args: str) -> str:
    code, out, err = furnace(*args)
    assert code == 2 and err.startswith("error: "), (out, err)
    return err


def begin(furnace: Run, *options: str, files: tuple[str, ...] = ("brakka",)) -> None:
    ok(furnace, "campaign", "new", "keep", *options)
    ok(furnace, "campaign", "use", "keep")
    ok(furnace, "campaign", "join", *(str(CHARACTERS / f"{f}.json") for f in files))


def character(state: CampaignState, name: str) -> Character:
    """The member of the campaign so named, as the store keeps her."""
    return next(m.character for m in state.roster.values() if m.character.name == name)


def saved(out: str) -> dict[str, object]:
    data: dict[str, object] = next(e["data"] for e in json.loads(out) if e["kind"] == "save_roll")
    return data


# -- M-DRINK-01: Liquid Courage -------------------------------------------------------------------------------------
@pytest.mark.rule("M-DRINK-01", "F-OPT-05")
def test_M_DRINK_01_liquid_courage_adds_to_morale_and_fear_saves(furnace: Run, tmp_path: Path) -> None:
    """Brakka's WIS 13 gives +1 (CF-36), not proficient: her morale SAVE (F-OPT-05) is d20 + 1. Sober, a d20 of 11
    is 12 < 13: she fails. She drinks (1d4 = 3: HP 22 → 25, the option's temporary pool); now the same 11 is
    11 + 1 + 1 (Liquid Courage) = 13 ≥ 13, and so is her SAVE vs fear (WIS, save_vs_fear); her CON SAVE is not
    helped (CON 12: +0, 11 < 13). In a fight she holds +1 to SAVEs vs fear. Four hours later it has worn off: HP
    22, and the 11 is 12 again."""
    begin(furnace, "--profile", "middle-sea", "--option", "pc_morale=true")
    sober = saved(ok(furnace, "save", "Brakka", "morale", "--dc", "13", "--faces", "11", "--json"))
    assert (sober["total"], sober["saved"], sober["modifiers"]) == (12, False, [[1, "WIS SAVE"]])
    out = ok(furnace, "drink", "Brakka", "--faces", "3")
    assert "drinks Liquid Courage: +3 HP" in out and character(reopened(tmp_path / "campaigns.db"), "Brakka").hp == 25
    brave = saved(ok(furnace, "save", "Brakka", "morale", "--dc", "13", "--faces", "11", "--json"))
    assert (brave["total"], brave["saved"]) == (13, True)
    assert brave["modifiers"] == [[1, "WIS SAVE"], [1, "Liquid Courage"]]
    fear = saved(ok(furnace, "save", "Brakka", "fear", "--dc", "13", "--faces", "11", "--json"))
    assert (fear["ability"], fear["against"], fear["total"], fear["saved"]) == ("WIS", "fear", 13, True)
    con = saved(ok(furnace, "save", "Brakka", "CON", "--dc", "13", "--faces", "11", "--json"))
    assert (con["total"], con["saved"]) == (11, False)
    out = ok(furnace, "save", "Brakka", "morale", "--dc", "13", "--faces", "11")
    assert "morale (WIS SAVE) 11 +1 (WIS SAVE) +1 (Liquid Courage) = 13 vs DC 13: saved" in out
    ok(furnace, "encounter", "start", "--party", "Brakka", "--monsters", "goblin x1", "--seed", "1")
    fighter = encounters.current(reopened(tmp_path / "campaigns.db")).turns.encounter.get("brak1")
    assert [(h.name, h.value) for h in fighter.held if "fear" in h.name] == [("MOD:fear_saves:BONUS", 1)]
    ok(furnace, "encounter", "end")
    ok(furnace, "clock", "advance", "4", "hours")        # the drink's 4 hours: the 3 HP above her 22 go with it
    assert character(reopened(tmp_path / "campaigns.db"), "Brakka").hp == 22
    after = saved(ok(furnace, "save", "Brakka", "morale", "--dc", "13", "--faces", "11", "--json"))
    assert (after["total"], after["saved"]) == (12, False)


def test_M_DRINK_01_no_drink_where_the_option_is_off(furnace: Run) -> None:
    begin(furnace)
    assert "liquid_courage" in refused(furnace, "drink", "Brakka", "--faces", "3")
    assert "pc_morale" in refused(furnace, "save", "Brakka", "morale", "--faces", "11")


@pytest.mark.rule("M-DRINK-01", "H-DRUG-02")
def test_one_drink_is_counted_by_each_chapter_that_is_on(furnace: Run, tmp_path: Path) -> None:
    """With Liquid Courage and the Hazards chapter's drugs both on, one `drink`: 1d4 = 2 HP (22 → 24) and DRUNK
    (Brakka's DEX 12 → 10, AMB-80: the score); with only the Hazards chapter on, DRUNK alone and no die."""
    begin(furnace, "--option", "liquid_courage=true", "--option", "hazards_poison_drugs=true")
    out = ok(furnace, "drink", "Brakka", "--faces", "2")
    assert "drinks Liquid Courage: +2 HP" in out and "drunk: DEX -2 and -2 to saves" in out
    brakka = character(reopened(tmp_path / "campaigns.db"), "Brakka")
    assert (brakka.hp, brakka.scores["DEX"], "DRUNK" in brakka.conditions) == (24, 10, True)
    ok(furnace, "campaign", "override", "set", "liquid_courage=false")
    ok(furnace, "clock", "advance", "4", "hours")          # sober again (drunk_duration_hours 4), courage gone
    out = ok(furnace, "drink", "Brakka")
    assert "drunk:" in out and "Liquid Courage" not in out


# -- H-HEAL-07: a hostile place -----------------------------------------------------------------------------------
@pytest.mark.rule("H-HEAL-07")
@pytest.mark.parametrize(("profile", "kind", "faces"), [
    ("furnace", "long", "4,5,6"),      # the long rest rolls her 3 Hit Dice (d10): 4 + 5 + 6 = 15
    ("middle-sea", "day", "2"),        # below half (11 of 22): hours of rest, a Hit Die each: 10 + 2 = 12, half
])
def test_H_HEAL_07_a_hostile_place_recovers_nothing_under_every_model(furnace: Run, tmp_path: Path, profile: str,
                                                                       kind: str, faces: str) -> None:
    """`furnace place hostile` marks the place; with hazards_no_rest_in_dungeon on, a rest there recovers nothing
    under the Furnace and the Middle Sea models alike (no die is rolled, HP 10 stays 10, the Hit Dice stay 3), and
    the rest still ends what a rest ends. Somewhere safe the same rest heals by the model."""
    begin(furnace, "--profile", profile, "--option", "hazards_no_rest_in_dungeon=true")
    ok(furnace, "damage", "Brakka", "12")
    out = ok(furnace, "place", "hostile")
    assert "the party: is in a hostile place: a rest here recovers nothing" in out
    out = ok(furnace, "rest", kind, "Brakka")                        # no faces: nothing may be rolled
    assert "in a hostile place: no recovery" in out
    brakka = character(reopened(tmp_path / "campaigns.db"), "Brakka")
    assert (brakka.hp, brakka.hit_dice) == (10, 3)
    ok(furnace, "place", "safe")
    ok(furnace, "rest", kind, "Brakka", "--faces", faces)
    assert character(reopened(tmp_path / "campaigns.db"), "Brakka").hp > 10


def test_H_HEAL_07_the_option_off_lets_a_hostile_place_heal(furnace: Run, tmp_path: Path) -> None:
    """hazards_no_rest_in_dungeon off (the furnace default): the hostile flag changes nothing; the long rest rolls
    her 3 Hit Dice, 4 + 5 + 6 = 15: HP 10 → 22 (the maximum)."""
    begin(furnace)
    ok(furnace, "damage", "Brakka", "12")
    assert "rests still recover" in ok(furnace, "place", "hostile")
    ok(furnace, "rest", "long", "Brakka", "--faces", "4,5,6")
    assert character(reopened(tmp_path / "campaigns.db"), "Brakka").hp == 22


# -- M-ORIS-02 and F-CLR-07: counted by the day, reset when a new day starts -----------------------------------------
@pytest.mark.rule("M-ORIS-02", "M-ORIS-04")
def test_M_ORIS_02_orisons_are_counted_by_the_day(furnace: Run, tmp_path: Path) -> None:
    """Sister Ilse, a Cleric, has one free orison a day (M-ORIS-04): Bless; a second is refused with the count; an
    hour's rest (the Middle Sea's model has no long rest) does not give it back; after midnight on the clock the
    day's count starts again. Agna, a Chandler without a class, is no priest (M-ORIS-02) until the referee says so;
    then she has one a day."""
    begin(furnace, "--profile", "middle-sea", files=("ilse", "agna"))
    assert "performs the orison Bless (1 of 1 today)" in ok(furnace, "orison", "Sister Ilse", "Bless")
    assert "performed 1 of 1 orison(s) today" in refused(furnace, "orison", "Sister Ilse", "Bless")
    ok(furnace, "rest", "hour", "Sister Ilse")
    assert "performed 1 of 1" in refused(furnace, "orison", "Sister Ilse", "Bless")
    out = ok(furnace, "clock", "advance", "1", "day")
    assert "Sister Ilse: a new day: her daily counts start again (1 orison performed)" in out
    assert "(1 of 1 today)" in ok(furnace, "orison", "Sister Ilse", "Bless")
    assert "no priest" in refused(furnace, "orison", "Agna", "Bless")
    assert "a magical effect" in refused(furnace, "orison", "Agna", "Candle", "--priest")
    assert "(1 of 1 today)" in ok(furnace, "orison", "Agna", "Bless", "--priest")


@pytest.mark.rule("F-CLR-07")
def test_F_CLR_07_the_daily_healing_cap_resets_with_a_new_day_not_a_long_rest(furnace: Run,
                                                                               tmp_path: Path) -> None:
    """Brakka has received 2 HD of magical healing today (of her cap of 3, her level). The clock at 06:00: the
    count has its end on the clock at midnight; a long rest (to 14:00) leaves it at 2; midnight resets it to 0."""
    worn = Character.from_file(CHARACTERS / "brakka.json").model_copy(update={"healed_today": 2})
    sheet = tmp_path / "healed.json"
    sheet.write_text(worn.to_json(), encoding="utf-8")
    ok(furnace, "campaign", "new", "keep")
    ok(furnace, "campaign", "use", "keep")
    ok(furnace, "campaign", "join", str(sheet))
    ok(furnace, "clock", "advance", "6", "hours")
    entries = json.loads(ok(furnace, "clock", "status", "--json"))["entries"]
    assert [(e["kind"], e["in_minutes"]) for e in entries] == [("day_ends", 18 * 60)]
    ok(furnace, "rest", "long", "Brakka")
    assert character(reopened(tmp_path / "campaigns.db"), "Brakka").healed_today == 2
    out = ok(furnace, "clock", "advance", "10", "hours")
    assert "a new day: her daily counts start again (2 Hit Dice of magical healing received)" in out
    assert character(reopened(tmp_path / "campaigns.db"), "Brakka").healed_today == 0
    assert json.loads(ok(furnace, "clock", "status", "--json"))["entries"] == []


# -- H-STARV-02: a day without food ---------------------------------------------------------------------------------
@pytest.mark.rule("H-STARV-02")
def test_H_STARV_02_a_day_without_food_brings_its_save(furnace: Run, tmp_path: Path) -> None:
    """Where the rules count hunger (hazards_starvation), no rations and a day passing: the ration entry finds
    none (23:59), the day's end rolls the save vs poison (a CON SAVE, D-5): Agna's CON 13 gives +1, a d20 of 9 is
    10 < 12 (hazard_save_dc): CON 13 → 12. Where they do not, rations are refused rather than hunger logged with
    no save."""
    begin(furnace, files=("agna",))
    assert "hazards_starvation" in refused(furnace, "rations", "Agna", "0")
    ok(furnace, "campaign", "new", "fed", "--option", "hazards_starvation=true")
    ok(furnace, "campaign", "use", "fed")
    ok(furnace, "campaign", "join", str(CHARACTERS / "agna.json"))
    ok(furnace, "rations", "Agna", "0")
    out = ok(furnace, "clock", "advance", "1", "day", "--faces", "9")
    assert "goes without food today" in out and "fails the hunger save" in out and "= 10 vs DC 12" in out
    state = reopened(tmp_path / "campaigns.db", "fed")
    agna = character(state, "Agna")
    assert agna.scores["CON"] == 12
