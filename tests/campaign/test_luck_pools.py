"""Luck Dice follow the luck_owner option on the campaign (F-LUCK-01/02): under `player` (the default) one pool
and one run of failures per player across all her characters, capped at 3; the referee adjusts it (`furnace
luck`, logged); a campaign of an older Furnace whose copies drifted apart is merged once, as a logged upgrade.

The funnel of seed 1 (two peasants each for Ann and Bo, hazards profile): Ann-1 an Elf with CON 9 (+0), 1 HP;
Ann-2 a Dwarf with CON 9 (+0), 3 HP. Asp venom: a CON SAVE (d20 + CON) against hazard_save_dc 12, then 2d6.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from furnace.campaign.luck import pool_of
from furnace.campaign.state import CampaignState
from furnace.campaign.store import Store
from furnace.cli.app import main
from furnace.events import Event
from furnace.play import luck

ROOT = Path(__file__).resolve().parents[2]
VENOM = str(ROOT / "examples" / "poisons" / "asp-venom.yaml")
Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("FURNACE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("FURNACE_DATA_DIR", str(tmp_path / "data"))
    for name in ("FURNACE_CAMPAIGN", "FURNACE_DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    return str(tmp_path / "furnace.db")


@pytest.fixture
def cli(db: str, capsys: pytest.CaptureFixture[str]) -> Run:
    def run(*args: str) -> tuple[int, str, str]:
        code = main(["--db", db, "--campaign", "keep", *args])
        out, err = capsys.readouterr()
        return code, out, err

    return run


def ok(cli: Run, *args: str) -> str:
    code, out, err = cli(*args)
    assert code == 0, err
    return out


def funnel(cli: Run, *options: str) -> None:
    ok(cli, "campaign", "new", "keep", "--profile", "hazards", *options)
    ok(cli, "funnel", "--player", "Ann", "--player", "Bo", "--per-player", "2", "--seed", "1")


def pools(cli: Run) -> dict[str, tuple[int, int]]:
    """Each member's Luck Dice and streak as her sheet holds them."""
    out = {}
    for m in json.loads(ok(cli, "character", "list", "--json")):
        shown = json.loads(ok(cli, "luck", m["id"], "--json"))
        held = json.loads(ok(cli, "character", "show", m["id"], "--json"))["character"]
        assert held["luck_dice"] == shown["dice"]                   # the sheet holds the pool
        out[m["name"]] = (shown["dice"], shown["streak"])
    return out


@pytest.mark.rule("F-LUCK-01")
def test_F_LUCK_01_one_streak_per_player_across_her_characters(cli: Run) -> None:
    """Ann-1 fails her save (d20 2 + 0 = 2 < 12): a run of 1, no die; Ann-2 fails hers (3 < 12): the 2nd failure
    in a row of Ann's, a Luck Die held by both; Bo's pool is untouched."""
    funnel(cli)
    ok(cli, "poison", "Ann-1", VENOM, "--faces", "2,1,1")
    assert pools(cli) == {"Ann-1": (0, 1), "Ann-2": (0, 1), "Bo-1": (0, 0), "Bo-2": (0, 0)}
    out = ok(cli, "poison", "Ann-2", VENOM, "--faces", "3,1,1")
    assert "Ann-2: failure 2 in a row (SAVE) earns a Luck Die: 0 → 1" in out
    assert pools(cli) == {"Ann-1": (1, 2), "Ann-2": (1, 2), "Bo-1": (0, 0), "Bo-2": (0, 0)}
    ok(cli, "poison", "Bo-1", VENOM, "--faces", "20")                # Bo's success ends Bo's run, not Ann's
    assert pools(cli)["Ann-2"] == (1, 2)


@pytest.mark.rule("F-LUCK-01")
def test_F_LUCK_01_under_luck_owner_character_each_keeps_her_own(cli: Run) -> None:
    funnel(cli, "--option", "luck_owner=character")
    ok(cli, "poison", "Ann-1", VENOM, "--faces", "2,1,1")
    out = ok(cli, "poison", "Ann-2", VENOM, "--faces", "3,1,1")
    assert "earns a Luck Die" not in out                             # Ann-2's own first failure
    assert pools(cli) == {"Ann-1": (0, 1), "Ann-2": (0, 1), "Bo-1": (0, 0), "Bo-2": (0, 0)}
    assert "her own pool" in ok(cli, "luck", "Ann-1", "+1")
    assert pools(cli)["Ann-2"] == (0, 1)


@pytest.mark.rule("F-LUCK-02")
def test_F_LUCK_02_the_referee_adjusts_a_pool_of_at_most_three_and_a_die_earned_at_three_is_lost(cli: Run) -> None:
    funnel(cli)
    out = ok(cli, "luck", "Ann-2", "+2", "--reason", "a clever plan")
    assert "the referee sets her Luck Dice 0 → 2 (a clever plan): Ann's pool, held by Ann-1, Ann-2" in out
    code, _, err = cli("luck", "Ann-1", "+2")
    assert code == 2 and "holds 2: +2 would make 4; a pool holds 0 to 3 Luck Dice (F-LUCK-02)" in err
    ok(cli, "luck", "Ann-1", "3")
    assert pools(cli)["Ann-2"] == (3, 0)
    ok(cli, "poison", "Ann-2", VENOM, "--faces", "2,1,1")
    out = ok(cli, "poison", "Ann-1", VENOM, "--faces", "2,1,1")
    assert "earns a Luck Die, but 3 is the most one can hold: it is lost" in out
    assert pools(cli)["Ann-2"] == (3, 2)
    for _ in range(3):                                               # the log takes it back, for both
        named = json.loads(ok(cli, "campaign", "undo", "--show", "--json"))["undo"]["command"]
        ok(cli, "campaign", "undo", "--yes", str(named))             # undo names what it takes back first
    assert pools(cli) == {"Ann-1": (2, 0), "Ann-2": (2, 0), "Bo-1": (0, 0), "Bo-2": (0, 0)}


@pytest.mark.rule("F-LUCK-01")
def test_F_LUCK_01_the_funnels_survivors_of_one_player_share_the_pool_a_fight_leaves(cli: Run) -> None:
    """One of Ann's peasants fights (and, seed 4, falls): the run of failures her rolls made is Ann's, held by
    Ann-1 who never fought; the dead keep what they held when they fell."""
    funnel(cli)
    ok(cli, "luck", "Ann-2", "1")
    assert "Ann-2: failed rolls in a row: 0 → 1" in ok(cli, "fight", "--party", "Ann-2", "--monsters", "goblin",
                                                       "--seed", "4")
    held = pools(cli)
    assert held["Ann-1"] == held["Ann-2"] == (1, 1)                  # one pool, whoever rolled
    assert (held["Bo-1"], held["Bo-2"]) == ((0, 0), (0, 0))
    assert "Ann's pool, held by Ann-1" in ok(cli, "luck", "Ann-1")


def _drifted(state: CampaignState) -> tuple[CampaignState, list[Event]]:
    """What an older Furnace left: a copy of Ann's pool changed on one of her characters only."""
    ann1 = state.member("Ann-1")
    drifted = ann1.model_copy(update={"character": luck.kept(ann1.character, luck.LuckState(2, 1))})
    return state.with_member(drifted), []


@pytest.mark.rule("F-LUCK-01", "F-LUCK-02")
def test_F_LUCK_01_split_pools_of_an_older_campaign_are_merged_once_and_logged(cli: Run, db: str) -> None:
    """Ann-1 holds 2 dice and a run of 1, Ann-2 none: the next command first merges them — the larger pool, the
    longer run — as a logged "upgrade" with its own fact; replay gives the same state, and it is done once."""
    funnel(cli)
    ok(cli, "luck", "Ann-2", "1")
    store = Store(f"sqlite:///{db}")
    store.apply("keep", "an older furnace", _drifted)
    assert [luck.held_by(m.character).dice for m in store.open("keep").roster.values()] == [2, 1, 0, 0]
    ok(cli, "damage", "Bo-1", "1")
    log: list[dict[str, Any]] = json.loads(ok(cli, "campaign", "log", "--json"))
    upgrade = [e for e in log if e["command"] == "upgrade"]
    assert [e["kind"] for e in upgrade] == ["luck_merged"]
    merged = {k: v for k, v in upgrade[0]["data"].items() if k != "fact"}
    assert merged == {"player": "Ann", "pools": {"Ann-1": 2, "Ann-2": 1}, "dice": 2, "streak": 1}
    assert log[-1]["command"] == "damage"
    state = store.open("keep")
    assert [pool_of(state, m).dice for m in state.roster.values()] == [2, 2, 0, 0]
    assert store.replay("keep") == state
    ok(cli, "damage", "Bo-1", "1")
    assert sum(e["command"] == "upgrade" for e in json.loads(ok(cli, "campaign", "log", "--json"))) == 1
