"""The session's commands from the referee's page (`web.session_routes`, issue 24; equip and unequip, issue 23):
each route changes the campaign exactly as the CLI command does. Two copies of one campaign, the console's and the
CLI's database, take each command — the CLI's with `--seed`, the console's with the very faces the CLI's dice
showed (read from its log) — and their rosters and clocks stay the same. A player is refused every one of them
(403), and odd input (NaN, a number past any bound, a lone surrogate) is a 4xx that does not repeat it.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from furnace import dice
from furnace.campaign.store import Store, resolve_url
from furnace.cli.app import main
from tests.web.conftest import console, joined

K = "/api/campaigns/wilds"
Cli = Callable[..., Any]


@pytest.fixture
def wilds(referee: TestClient) -> TestClient:
    """A Hazards campaign (light and travel on) with Ann's and Bo's peasants; Ann-1 carries a shield and rope, Bo-1's
    torch burns."""
    return made_wilds(referee)


@pytest.fixture(scope="module")
def still_wilds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, TestClient]]:
    """`wilds` made once for the tests that change nothing (each sends what must be refused): the referee and Ann."""
    with console(tmp_path_factory.mktemp("wilds") / "web.db") as (app, referee):
        made_wilds(referee)
        yield referee, joined(app, referee, "player", "Ann", campaign="wilds")


def made_wilds(ref: TestClient) -> TestClient:
    assert ref.post("/api/campaigns", json={"name": "wilds", "profile": "hazards"}).status_code == 200
    for path, body in (("/funnel", {"players": ["Ann", "Bo"], "per_player": 2}),
                       ("/characters/ann1/give", {"items": ["shield", "rope"]}),
                       ("/clock/light", {"who": "bo1", "source": "torch"})):
        assert ref.post(K + path, json=body).status_code == 200
    return ref


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Iterator[Cli]:
    """`cli(*args)`: the `furnace` command on the CLI's copy of the campaign (made by `twin`), its JSON answer."""
    monkeypatch.setenv("FURNACE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("FURNACE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("FURNACE_CAMPAIGN", "wilds")
    monkeypatch.delenv("FURNACE_DATABASE_URL", raising=False)

    def run(*args: str) -> Any:
        capsys.readouterr()
        code = main(["--db", str(tmp_path / "cli.db"), *args, "--json"])
        out = capsys.readouterr()
        assert code == 0, out.err
        return json.loads(out.out)

    yield run


def twin(tmp_path: Path) -> Store:
    """The console's database copied whole for the CLI (SQLite's backup: a consistent copy of a live database)."""
    with sqlite3.connect(tmp_path / "web.db") as source, sqlite3.connect(tmp_path / "cli.db") as copy:
        source.backup(copy)
    return Store(resolve_url(str(tmp_path / "cli.db")))


def same(app: Any, cli_store: Store) -> None:
    """The two campaigns alike: every member's sheet and status, and the clock with what is on it."""
    web, other = app.state.store.open("wilds"), cli_store.open("wilds")
    assert {k: m.model_dump(mode="json") for k, m in web.roster.items()} == \
        {k: m.model_dump(mode="json") for k, m in other.roster.items()}
    assert web.clock.model_dump(mode="json") == other.clock.model_dump(mode="json")


def faces_of(store: Store, since: int) -> str:
    """Every face the dice showed in the events logged after `since`, in order: the faces to enter elsewhere."""
    return ",".join(str(f) for e in store.events("wilds", since=since) for r in e.rolls for f in r["faces"])


def last_seq(store: Store) -> int:
    return max((e.seq for e in store.events("wilds", since=0, limit=10**6)), default=0)


def post(ref: TestClient, path: str, body: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    answer = ref.post(K + path, json=body or {})
    assert answer.status_code == 200, answer.text
    return list(answer.json()["events"])


# each command as the CLI takes it and as the console does, in the order a session might run them
SAME: list[tuple[tuple[str, ...], str, dict[str, Any]]] = [
    (("give", "ann1", "helmet", "lantern"), "/characters/ann1/give", {"items": ["helmet", "lantern"]}),
    (("equip", "ann1", "shield", "--arm", "right"), "/characters/ann1/equip", {"item": "shield", "arm": "right"}),
    (("equip", "ann1", "helmet"), "/characters/ann1/equip", {"item": "helmet"}),
    (("unequip", "ann1", "helmet"), "/characters/ann1/unequip", {"item": "helmet"}),
    (("take", "ann1", "rope"), "/characters/ann1/take", {"items": ["rope"]}),
    (("purse", "ann1", "+120"), "/characters/ann1/purse", {"change": 120}),
    (("purse", "ann1", "-20"), "/characters/ann1/purse", {"change": -20}),
    (("loot", "share", "a ruby", "silver chalice", "--coins", "250"), "/loot",
     {"items": ["a ruby", "silver chalice"], "coins": 250}),
    (("loot", "share", "--coins", "9", "--among", "bo1", "--among", "bo2"), "/loot",
     {"coins": 9, "among": ["bo1", "bo2"]}),
    (("xp", "award", "300", "--party", "--reason", "the goblin cave"), "/xp",
     {"amount": 300, "reason": "the goblin cave"}),
    (("xp", "award", "50", "ann2", "--each"), "/xp", {"amount": 50, "who": ["ann2"], "each": True}),
    (("clock", "snuff", "1"), "/clock/entries/1/snuff", {}),
    (("character", "rename", "ann2", "Mirela"), "/characters/ann2/rename", {"name": "Mirela"}),
    (("character", "retire", "bo2", "--reason", "opens an inn"), "/characters/bo2/retire", {"reason": "opens an inn"}),
]
# commands that roll: the CLI's seed, the console given the faces the CLI's dice showed (a new character: the seed)
ROLLED: list[tuple[tuple[str, ...], str, dict[str, Any]]] = [
    (("damage", "bo1", "1", "--source", "a falling stone"), "/characters/bo1/damage", {"amount": 1,
                                                                                       "source": "a falling stone"}),
    (("heal", "bo1", "1"), "/characters/bo1/heal", {"amount": 1}),
    (("clock", "travel", "--days", "2", "--heading", "S"), "/travel", {"days": 2, "heading": "S"}),
    (("repair", "ann1", "shield", "--days", "0", "--cost", "0", "--yes"), "", {}),      # refused alike: not damaged
    (("character", "new", "--class", "Fighter", "--level", "2", "--random", "--join", "Cy"), "/characters",
     {"player": "Cy", "char_class": "Fighter", "level": 2, "random": True}),
]


def test_each_route_changes_the_campaign_as_the_cli_command_does(app: Any, wilds: TestClient, tmp_path: Path,
                                                                  cli: Cli) -> None:
    store = twin(tmp_path)
    same(app, store)
    for args, path, body in SAME:
        cli(*args)
        post(wilds, path, body)
        same(app, store)
    for seed, (args, path, body) in enumerate(ROLLED, start=3):
        if not path:                     # a refusal: the console refuses it as the CLI does, and changes nothing
            assert main(["--db", str(tmp_path / "cli.db"), *args]) == 2
            answer = wilds.post(K + "/characters/ann1/repair", json={"item": "shield", "days": 0, "cost": 0})
            assert answer.status_code == 400 and "shield" in answer.json()["error"]
            same(app, store)
            continue
        before = last_seq(store)
        cli(*args, "--seed", str(seed))
        if path == "/characters":        # choices picked at random draw unlogged dice: the same seed instead
            app.state.settings.rng = lambda seed=seed: dice.seeded(seed)
            post(wilds, path, body)
        else:
            post(wilds, path, {**body, "faces": faces_of(store, before) or None})
        same(app, store)


@pytest.mark.rule("F-NPC-01", "F-TAB-29")
def test_F_NPC_01_the_reaction_roll_is_logged_as_the_cli_rolls_it(app: Any, wilds: TestClient, cli: Cli) -> None:
    told = cli("reaction", "--cha", "1", "--faces", "3,4")
    assert told["attitude"] == "neutral" and told["table_roll"]["roll"]["total"] == 8      # 2d6 3+4 +1 CHA
    logged = post(wilds, "/reaction", {"cha": 1, "faces": "3,4", "speaker": "Agna"})
    assert [e["kind"] for e in logged] == ["reaction"] and logged[0]["entered"]
    fact = app.state.store.events("wilds", since=logged[0]["seq"] - 1, limit=1)[0].data
    assert (fact["total"], fact["attitude"], fact["cha"]) == (8, told["attitude"], 1)


def test_a_hidden_reaction_is_the_referees_until_she_shows_it(wilds: TestClient, app: Any) -> None:
    ann = joined(app, wilds, "player", "Ann", campaign="wilds")
    hidden = post(wilds, "/reaction", {"cha": 0, "hidden": True, "faces": "6,6"})[0]
    assert hidden["hidden"]
    assert not [e for e in ann.get(K + "/log").json()["events"] if e["kind"] == "reaction"]
    post(wilds, f"/rolls/{hidden['seq']}/show")
    assert [e["kind"] for e in ann.get(K + "/log").json()["events"]][-1] in ("reveal", "reaction")


@pytest.mark.rule("F-EQ-01")
def test_F_EQ_01_a_shield_worn_from_the_console_raises_her_ac_by_its_bonus(wilds: TestClient, app: Any) -> None:
    from furnace.campaign.commands import rules_of

    def ac() -> int:
        state = app.state.store.open("wilds")
        return int(state.roster["ann1"].character.ac(rules_of(state)))

    rules = rules_of(app.state.store.open("wilds"))
    bonus = int(rules.tables.get("armor").lookup("shield").data["ac_bonus"])
    bare = ac()
    post(wilds, "/characters/ann1/equip", {"item": "shield"})
    assert ac() == bare + bonus
    post(wilds, "/characters/ann1/unequip", {"item": "shield"})
    assert ac() == bare
    assert "shield" in app.state.store.open("wilds").roster["ann1"].character.items


# every route of the module, with a body it would take
ROUTES: list[tuple[str, dict[str, Any]]] = [
    ("/characters/ann1/damage", {"amount": 1}), ("/characters/ann1/heal", {"amount": 1}), ("/xp", {"amount": 10}),
    ("/characters/ann1/give", {"items": ["rope"]}), ("/characters/ann1/take", {"items": ["rope"]}),
    ("/characters/ann1/purse", {"change": 5}), ("/loot", {"coins": 4}),
    ("/characters/ann1/repair", {"item": "shield", "days": 1, "cost": 0}),
    ("/characters/ann1/equip", {"item": "shield"}), ("/characters/ann1/unequip", {"item": "shield"}),
    ("/travel", {"days": 1}), ("/clock/entries/1/snuff", {}), ("/characters", {"player": "Ann"}),
    ("/characters/ann1/rename", {"name": "Agna"}), ("/characters/ann1/retire", {}), ("/reaction", {"cha": 0}),
]


@pytest.mark.parametrize(("path", "body"), ROUTES, ids=[p for p, _ in ROUTES])
def test_a_player_is_refused_every_session_command(still_wilds: tuple[TestClient, TestClient], path: str,
                                                   body: dict[str, Any]) -> None:
    wilds, ann = still_wilds
    before = len(wilds.get(K + "/log?limit=2000").json()["events"])
    answer = ann.post(K + path, json=body)
    assert answer.status_code == 403, answer.text
    assert len(wilds.get(K + "/log?limit=2000").json()["events"]) == before


def test_the_openapi_documents_each_session_route(referee: TestClient) -> None:
    paths = referee.get("/api/openapi.json").json()["paths"]
    for path, _ in ROUTES:
        template = "/api/campaigns/{campaign}" + path.replace("ann1", "{who}").replace("/1/", "/{entry}/")
        assert paths[template]["post"]["description"], template


ODD = [("/characters/ann1/damage", b'{"amount": NaN}'), ("/characters/ann1/heal", b'{"amount": Infinity}'),
       ("/xp", b'{"amount": 1e400}'), ("/characters/ann1/purse", b'{"change": 99999999999999999999999999}'),
       ("/loot", b'{"coins": -1}'), ("/travel", b'{"days": 1e999}'), ("/reaction", b'{"cha": 2.5}'),
       ("/characters/ann1/give", b'{"items": ["\\ud800"]}'), ("/characters/ann1/rename", b'{"name": "a\\udfffb"}'),
       ("/characters", b'{"player": "\\ud800"}'), ("/characters/ann1/equip", b'{"item": "shield", "arm": "up"}'),
       ("/clock/entries/9999999999999999999999999/snuff", b"{}"),
       ("/characters/ann1/retire", b'{"reason": "' + b"x" * 5000 + b'"}')]


@pytest.mark.parametrize(("path", "raw"), ODD, ids=[f"{p} {r[:30]!r}" for p, r in ODD])
def test_odd_input_is_a_4xx_that_does_not_repeat_it(still_wilds: tuple[TestClient, TestClient], path: str,
                                                    raw: bytes) -> None:
    answer = still_wilds[0].post(K + path, content=raw, headers={"Content-Type": "application/json"})
    assert 400 <= answer.status_code < 500, answer.text
    assert "ud800" not in answer.text and "udfff" not in answer.text and "x" * 200 not in answer.text
    assert "99999999999999999999" not in answer.text
