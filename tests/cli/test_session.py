"""The session commands in-process on a campaign in a temporary SQLite file (`--db`), with the user's folders
(FURNACE_CONFIG_DIR, FURNACE_DATA_DIR) in tmp: rest, xp award, spell learn, give, take, purse, loot share,
repair, rations, campaign session start and recap. Each test reads the stored numbers back from a new `Store`.

RULES.md: F-REST-01/02 (furnace rests), H-HEAL-01 (a night under hazards), F-BASE-08 and REF-24 (XP ledger),
F-MU-05 (spells known), F-LOAD-01 (load), REF-22 (repairs confirmed by the referee), H-STARV-01..03 (rations).
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import click
import pytest

from furnace.campaign.gear import coins_of, rations_of
from furnace.characters.character import Character
from furnace.cli.app import LAZY_COMMANDS, cli
from tests.cli.conftest import Run
from tests.helpers.factories import reopened

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "characters"
COMMANDS = ("rest", "xp award", "give", "take", "purse", "loot share", "repair", "rations", "spell learn",
            "campaign recap", "campaign session start")


@pytest.fixture
def run(furnace: Run) -> Run:
    """`run(*args)` on the tmp database: (exit code, stdout, stderr) — the conftest's `furnace`."""
    return furnace


def begin(run: Run, profile: str, *files: str | Path) -> None:
    assert run("campaign", "new", "keep", "--profile", profile)[0] == 0
    assert run("campaign", "use", "keep")[0] == 0
    for file in files:
        code, _, err = run("clock", "join", str(file if isinstance(file, Path) else EXAMPLES / f"{file}.json"))
        assert code == 0, err


def ok(run: Run, *args: str) -> str:
    code, out, err = run(*args)
    assert code == 0 and err == "", err
    return out


def refused(run: Run, *args: str) -> str:
    code, _, err = run(*args)
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1, err
    return err


@pytest.mark.parametrize("name", COMMANDS)
def test_session_commands_have_help_with_an_example(run: Run, name: str) -> None:
    out = ok(run, *name.split(), "--help")
    assert f"Example: furnace {name}" in out and "--json" in out
    assert name.split()[0] in cli.list_commands(None)  # type: ignore[arg-type]
    first, *rest = name.split()
    group = cli.get_command(click.Context(cli), first)
    home = getattr(group, "lazy", {}).get(rest[0]) if rest else None        # `campaign recap`: the group's own table
    homes = {"spell": "furnace.cli.magic", "campaign": "furnace.cli.sessions"}
    assert (home or LAZY_COMMANDS[first]) == homes.get(first, "furnace.cli.session")


@pytest.mark.rule("F-REST-02")
def test_F_REST_02_long_rest_with_faces_entered(run: Run, tmp_path: Path) -> None:
    """Brakka (d10, pool 3) at 5 HP: faces 4, 6, 3 entered → 18 HP, pool 3, 8 hours later; logged as entered."""
    begin(run, "furnace", "brakka")
    ok(run, "damage", "Brakka", "17")
    refused(run, "rest", "long", "Brakka", "--faces", "4,6,3,2")      # one left over: nothing changes
    assert reopened(tmp_path / "campaigns.db").roster["brak1"].character.hp == 5
    out = ok(run, "rest", "long", "Brakka", "--faces", "4,6,3", "--json")
    heals = [e for e in json.loads(out) if e["kind"] == "hit_die"]                # each Hit Die spent
    assert [e["data"]["entered"] for e in heals] == [True, True, True]
    state = reopened(tmp_path / "campaigns.db")
    assert (state.roster["brak1"].character.hp, state.roster["brak1"].character.hit_dice) == (18, 3)
    assert state.clock.now == 8 * 3600


@pytest.mark.rule("F-REST-01")
def test_F_REST_01_short_rest_and_the_wrong_kind(run: Run, tmp_path: Path) -> None:
    begin(run, "furnace", "brakka")
    ok(run, "damage", "Brakka", "5")
    out = ok(run, "rest", "short", "--party", "--faces", "7", "--for", "30", "minutes")
    assert "(faces entered)" in out and "HP 17 → 22" in out
    state = reopened(tmp_path / "campaigns.db")
    assert state.roster["brak1"].character.hit_dice == 2 and state.clock.now == 1800
    assert "rests by short, long, not 'night'" in refused(run, "rest", "night", "--party")
    assert "not both" in refused(run, "rest", "short", "Brakka", "--party")
    ok(run, "damage", "Brakka", "5")
    assert "the 1st face entered, 11, cannot come up on the d10" in refused(run, "rest", "short", "Brakka",
                                                                           "--faces", "11")


@pytest.mark.rule("H-HEAL-01")
def test_H_HEAL_01_a_night_under_hazards(run: Run, tmp_path: Path) -> None:
    """At half HP or more a peaceful night heals 1 (20 → 21), 8 hours on the clock; no die."""
    begin(run, "hazards", "brakka")
    ok(run, "damage", "Brakka", "2")
    ok(run, "rest", "night", "Brakka")
    state = reopened(tmp_path / "campaigns.db")
    assert state.roster["brak1"].character.hp == 21 and state.clock.now == 8 * 3600


def test_REF_24_xp_award_and_the_remainder(run: Run, tmp_path: Path) -> None:
    begin(run, "furnace", "agna", "brakka", "corra")
    out = ok(run, "xp", "award", "100", "--party", "--reason", "the goblin cave")
    assert "+33 to Agna, Brakka and Corra; 1 XP left over" in out
    ok(run, "xp", "award", "-3", "Corra", "--reason", "a correction")
    ok(run, "xp", "award", "20", "Agna", "brak1", "--each")
    ledgers = {m.id: m.character.extensions["xp"] for m in reopened(tmp_path / "campaigns.db").roster.values()}
    assert {k: sum(a["amount"] for a in v) for k, v in ledgers.items()} == {"agna1": 53, "brak1": 53, "corr1": 30}
    assert ledgers["agna1"][0] == {"amount": 33, "reason": "the goblin cave"}
    assert "the 0" not in refused(run, "xp", "award", "0", "Agna")


@pytest.mark.rule("F-MU-05")
def test_F_MU_05_spell_learn_within_the_cap(run: Run, tmp_path: Path) -> None:
    """A level-1 Magic-user with INT 16 (+2) knows up to 1 + 1 + 2 = 4 spells."""
    zed = Character(name="Zed", char_class="Magic-user", level=1, hp_max=4, hp=4,
                    scores={"STR": 10, "DEX": 10, "CON": 10, "INT": 16, "WIS": 10, "CHA": 10})
    path = tmp_path / "zed.json"
    path.write_text(zed.to_json(), encoding="utf-8")
    begin(run, "furnace", path, "agna")
    assert "learns Chill Touch (1 of 4 spells known" in ok(run, "spell", "learn", "Zed", "chill touch")
    assert "already knows" in refused(run, "spell", "learn", "Zed", "Chill Touch")
    assert "casts no spells" in refused(run, "spell", "learn", "Agna", "Fireball")
    assert reopened(tmp_path / "campaigns.db").roster["zed1"].character.spells == ["Chill Touch"]
    assert ok(run, "spell", "list")          # the group's own commands still there


@pytest.mark.rule("F-LOAD-01")
def test_F_LOAD_01_give_take_and_purse(run: Run, tmp_path: Path) -> None:
    begin(run, "furnace", "agna")
    assert "load 3 of 9" in ok(run, "give", "Agna", "rope", "torch")
    assert "coins 0 → 1,200 (+1,200): load 5 of 9" in ok(run, "purse", "Agna", "+1200")
    ok(run, "purse", "Agna", "-200")
    ok(run, "take", "Agna", "Rope")
    assert "carries no 'lamp'" in refused(run, "take", "Agna", "lamp")
    assert "cannot be taken" in refused(run, "purse", "Agna", "-5000")
    assert "+N or -N" in refused(run, "purse", "Agna", "lots")
    agna = reopened(tmp_path / "campaigns.db").roster["agna1"].character
    assert agna.items == ["bundle of tallow candles", "torch"] and coins_of(agna) == 1000


def test_loot_share_among_some_with_the_remainder(run: Run, tmp_path: Path) -> None:
    begin(run, "furnace", "agna", "brakka", "corra")
    out = ok(run, "loot", "share", "ring", "cup", "gem", "--coins", "100", "--among", "Agna", "--among", "Corra")
    assert "100 coins, 50 each" in out and "left over" not in out
    out = ok(run, "loot", "share", "--coins", "100")
    assert "33 each, 1 left over" in out
    roster = reopened(tmp_path / "campaigns.db").roster
    assert [coins_of(m.character) for m in roster.values()] == [83, 33, 83]
    assert roster["agna1"].character.items[1:] == ["ring", "gem"] and roster["corr1"].character.items[1:] == ["cup"]
    assert "nothing to share" in refused(run, "loot", "share")


def test_REF_22_repair_asks_the_referee(run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    brakka = Character.from_file(EXAMPLES / "brakka.json")
    worn = brakka.model_copy(update={"armor_damage": 2, "extensions": {"gear": {"coins": 40}}})
    path = tmp_path / "brakka.json"
    path.write_text(worn.to_json(), encoding="utf-8")
    begin(run, "furnace", path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("3\n15\nn\n"))
    assert "nothing repaired" in refused(run, "repair", "Brakka", "armor")
    monkeypatch.setattr(sys, "stdin", io.StringIO("y\n"))
    out = ok(run, "repair", "Brakka", "armor", "--days", "3", "--cost", "15", "--wait", "--seed", "1")
    assert "has the boiled-leather repaired (2 points of protection lost): 3 days, 15 coins" in out
    state = reopened(tmp_path / "campaigns.db")
    assert state.roster["brak1"].character.armor_damage == 0 and coins_of(state.roster["brak1"].character) == 25
    assert state.clock.now == 3 * 86400
    assert "needs no repair" in refused(run, "repair", "Brakka", "armor", "--days", "1", "--cost", "0", "--yes")
    assert "give both --days and --cost" in refused(run, "repair", "Brakka", "armor", "--yes")


@pytest.mark.rule("H-STARV-03")
def test_H_STARV_03_rations_and_water_on_the_clock(run: Run, tmp_path: Path) -> None:
    """A day's ration but no water: at the day's end a thirst save (a 15: 15 + 1 = 16 vs DC 12, saved)."""
    begin(run, "hazards", "agna")
    ok(run, "rations", "Agna", "1", "--no-water")
    out = ok(run, "clock", "advance", "1", "day", "--faces", "15")
    assert "eats a day's ration (0 left)" in out and "saves the thirst save" in out
    agna = reopened(tmp_path / "campaigns.db").roster["agna1"].character
    assert rations_of(agna) == 0 and agna.extensions["hazards"]["needs"] == {"ate": True, "drank": False,
                                                                             "slept_hours": 8}


def test_campaign_session_start_and_recap(run: Run, tmp_path: Path) -> None:
    begin(run, "hazards", "agna", "brakka")
    assert "session 1 begins: The barrow" in ok(run, "campaign", "session", "start", "The barrow")
    ok(run, "damage", "Agna", "9")
    ok(run, "damage", "Brakka", "3")
    ok(run, "xp", "award", "120", "Brakka")
    ok(run, "clock", "advance", "2", "hours")
    out = ok(run, "campaign", "recap")
    assert out.startswith("session 1: The barrow — from day 1, 00:00, 2 hours passed on the clock, 4 commands")
    assert "Agna died: HP -8: dead at −3" in out and "Brakka: HP 22 → 19" in out and "+120 XP" in out
    data = json.loads(ok(run, "campaign", "recap", "--json"))
    assert data["seconds"] == 7200 and [m["xp"] for m in data["members"]] == [0, 120]
    ok(run, "campaign", "session", "start")
    assert reopened(tmp_path / "campaigns.db").session == 2
    assert "no deaths, injuries, experience or levels" in ok(run, "campaign", "recap")
    assert "there is no session 5" in refused(run, "campaign", "recap", "--session", "5")
