"""The rest of a session from the console (web.session_more), each route against the CLI command it stands for on
the same campaign database: sheets (`character show`), export and backup (`campaign export`, `campaign backup`),
`campaign recap`, `campaign verify`, `campaign override add/remove`, the bestiary's list, `fight --party all
--monsters …`, `odds attack`, `odds dying`. Players are refused the referee's routes and read only their own
characters' sheets whole; downloads carry their content type and file name; bad input is a 4xx that does not
repeat what was sent."""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from furnace import dice
from furnace.cli.app import main
from furnace.render.sheets import CSS
from furnace.rules.bestiary import Bestiary, listing
from furnace.web import WebSettings, create_app
from tests.web.conftest import UNLIMITED, C, signed_in

Cli = Callable[..., tuple[int, str]]
JSON = dict[str, Any]


@pytest.fixture
def cli(settings: WebSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> Cli:
    """`furnace --db <the console's database> --campaign keep ARGS…` in-process: (exit code, stdout)."""
    monkeypatch.setenv("FURNACE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("FURNACE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("FURNACE_CAMPAIGN", raising=False)
    monkeypatch.delenv("FURNACE_DATABASE_URL", raising=False)

    def run(*args: str, campaign: str = "keep") -> tuple[int, str]:
        capsys.readouterr()
        code = main(["--db", str(settings.db), *(["--campaign", campaign] if campaign else []), *args])
        out = capsys.readouterr()
        assert code == 0 or not out.out.startswith("Traceback"), out.err
        return code, out.out

    return run


def _cli_json(cli: Cli, *args: str, campaign: str = "keep") -> Any:
    code, out = cli(*args, "--json", campaign=campaign)
    assert code == 0, out
    return json.loads(out)


def _no_stamp(doc: JSON) -> JSON:
    return {k: v for k, v in doc.items() if k != "exported_at"}


# -- sheets ------------------------------------------------------------------------------------------------------------
def test_the_referees_sheet_is_the_clis_in_every_format(table: dict[str, TestClient], cli: Cli,
                                                        tmp_path: Path) -> None:
    referee = table["referee"]
    html = referee.get(f"{C}/characters/ann1/sheet")
    out = tmp_path / "ann1.html"
    assert cli("character", "show", "ann1", "--html", str(out))[0] == 0
    assert html.status_code == 200 and html.text == out.read_text(encoding="utf-8")
    assert html.headers["content-type"] == "text/html; charset=utf-8"
    assert html.headers["content-disposition"].startswith('inline; filename="Ann-1.html"')
    saved = referee.get(f"{C}/characters/Ann-1/sheet?download=true")       # by name, as the CLI takes it
    assert saved.text == html.text
    assert saved.headers["content-disposition"].startswith('attachment; filename="Ann-1.html"')

    markdown = referee.get(f"{C}/characters/ann1/sheet?format=markdown")
    assert markdown.text == cli("character", "show", "ann1", "--markdown")[1]
    assert markdown.headers["content-type"] == "text/markdown; charset=utf-8"
    assert markdown.headers["content-disposition"].startswith('attachment; filename="Ann-1.md"')
    assert referee.get(f"{C}/characters/ann1/sheet?format=json").json() == _cli_json(cli, "character", "show", "ann1")


def test_a_sheet_runs_no_script_and_only_its_own_style(table: dict[str, TestClient]) -> None:
    """The CLI's document keeps its inline style: the policy allows that style by its hash, and nothing else."""
    answer = table["referee"].get(f"{C}/characters/ann1/sheet")
    policy = answer.headers["content-security-policy"]
    digest = base64.b64encode(hashlib.sha256(CSS.encode()).digest()).decode()
    assert f"style-src 'sha256-{digest}'" in policy and "default-src 'none'" in policy
    assert "script-src" not in policy and "unsafe-inline" not in policy and "frame-ancestors 'self'" in policy
    assert f"<style>{CSS}</style>" in answer.text and "<script" not in answer.text
    assert answer.headers["x-frame-options"] == "SAMEORIGIN"


def test_a_player_reads_her_own_sheets_whole_and_anothers_as_the_roster_shows_her(
        table: dict[str, TestClient]) -> None:
    referee, ann = table["referee"], table["ann"]
    for who in ("ann1", "ann2"):
        for form in ("html", "markdown", "json"):
            mine = ann.get(f"{C}/characters/{who}/sheet?format={form}")
            assert mine.status_code == 200 and mine.content == referee.get(
                f"{C}/characters/{who}/sheet?format={form}").content, (who, form)
    roster = {r["id"]: r for r in ann.get(C).json()["roster"]}
    bo = ann.get(f"{C}/characters/bo1/sheet?format=json").json()
    assert bo == roster["bo1"] and not bo["mine"]
    assert not {"scores", "spells", "luck_dice", "injuries", "class", "conditions"} & set(bo)
    shown = ann.get(f"{C}/characters/bo1/sheet").text
    markdown = ann.get(f"{C}/characters/bo1/sheet?format=markdown").text
    for text in (shown, markdown):
        assert "Bo-1" in text and "STR" not in text and "Ability" not in text and "Luck" not in text


@pytest.mark.parametrize("health", ["exact", "word", "hidden"])
def test_anothers_hp_follows_the_tables_health_setting(table: dict[str, TestClient], health: str) -> None:
    referee, ann = table["referee"], table["ann"]
    assert referee.post(f"{C}/table", json={"health": health}).status_code == 200
    bo = referee.get(f"{C}/characters/bo1/sheet?format=json").json()["character"]
    seen = ann.get(f"{C}/characters/bo1/sheet?format=json").json()
    assert (seen["hp"], seen["hp_max"]) == ((bo["hp"], bo["hp_max"]) if health == "exact" else (None, None))
    assert (seen["health"] is not None) == (health == "word")
    markdown = ann.get(f"{C}/characters/bo1/sheet?format=markdown").text
    assert (f"HP {bo['hp']}/{bo['hp_max']}" in markdown) == (health == "exact")


def test_an_observer_reads_no_sheet_and_a_player_no_other_campaigns(app: Any, table: dict[str, TestClient]) -> None:
    assert table["tv"].get(f"{C}/characters/ann1/sheet").status_code == 403
    table["referee"].post("/api/campaigns", json={"name": "other"})
    assert table["ann"].get("/api/campaigns/other/characters/ann1/sheet").status_code == 403


# -- export, backup, recap, verify -------------------------------------------------------------------------------------
def test_the_export_is_the_clis_and_imports(table: dict[str, TestClient], cli: Cli, tmp_path: Path) -> None:
    answer = table["referee"].get(f"{C}/export")
    assert answer.headers["content-type"] == "application/json"
    assert answer.headers["content-disposition"].startswith('attachment; filename="keep.json"')
    out = tmp_path / "keep.json"
    assert cli("campaign", "export", "keep", "--out", str(out))[0] == 0
    assert _no_stamp(answer.json()) == _no_stamp(json.loads(out.read_text(encoding="utf-8")))
    saved = tmp_path / "downloaded.json"
    saved.write_bytes(answer.content)
    assert cli("campaign", "import", str(saved), "--as", "copy", campaign="")[0] == 0
    assert cli("campaign", "verify", "copy", campaign="")[0] == 0


def test_the_backup_is_the_clis_portable_backup_and_restores(table: dict[str, TestClient], cli: Cli,
                                                              tmp_path: Path) -> None:
    referee = table["referee"]
    referee.post("/api/campaigns", json={"name": "other"})
    answer = referee.get("/api/backup")
    assert answer.headers["content-type"] == "application/json"
    assert answer.headers["content-disposition"].startswith('attachment; filename="furnace-backup.json"')
    out = tmp_path / "backup.json"
    assert cli("campaign", "backup", str(out), campaign="")[0] == 0
    by_cli = json.loads(out.read_text(encoding="utf-8"))
    assert [_no_stamp(c) for c in answer.json()["campaigns"]] == [_no_stamp(c) for c in by_cli["campaigns"]]
    assert _no_stamp(answer.json()).keys() == _no_stamp(by_cli).keys()
    saved = tmp_path / "downloaded.json"
    saved.write_bytes(answer.content)
    code, said = cli("--db", str(tmp_path / "fresh.db"), "campaign", "restore", str(saved), campaign="")
    assert code == 0 and "restored 2 campaign(s): keep, other" in said


def test_recap_and_verify_are_the_clis(table: dict[str, TestClient], cli: Cli) -> None:
    referee = table["referee"]
    referee.post(f"{C}/clock", json={"amount": 2, "unit": "hour"})
    recap = referee.get(f"{C}/recap").json()
    assert {k: v for k, v in recap.items() if k != "text"} == _cli_json(cli, "campaign", "recap")
    assert recap["text"] + "\n" == cli("campaign", "recap")[1]
    for deep in (False, True):
        verified = referee.get(f"{C}/verify?deep={str(deep).lower()}").json()
        args = ("campaign", "verify", "keep", *(["--deep"] if deep else []))
        assert {k: v for k, v in verified.items() if k != "text"} == _cli_json(cli, *args)
        assert verified["ok"] and verified["text"] + "\n" == cli(*args)[1]


def test_a_session_recap_out_of_range_is_a_4xx(table: dict[str, TestClient]) -> None:
    assert table["referee"].get(f"{C}/recap?session=3").status_code == 400
    assert table["referee"].get(f"{C}/recap?session=0").status_code == 422


# -- the referee's files, the bestiary ---------------------------------------------------------------------------------
BEAR = "name: Cave bear\nhd: 4\ndamage: 2d6\nweapon: claws\nxp: 150\ntags: [beast]\n"


def test_an_override_file_is_added_and_removed_as_the_cli_does(table: dict[str, TestClient], cli: Cli) -> None:
    referee = table["referee"]
    added = referee.post(f"{C}/overrides", json={"text": BEAR, "source": "cave-bear.yaml"})
    assert added.status_code == 200 and added.json()["events"][0]["command"] == "override add"
    listed = _cli_json(cli, "campaign", "override", "list")
    assert listed == [{"key": "monster:cave-bear", "kind": "monster", "id": "cave-bear", "source": "cave-bear.yaml"}]
    found = referee.get(f"{C}/bestiary?q=cave").json()["monsters"]
    assert [(m["id"], m["hd"], m["damage"], m["xp"]) for m in found] == [("cave-bear", "4", "2d6 claws", 150)]
    assert cli("fight", "--party", "all", "--monsters", "cave bear", "--seed", "3")[0] == 0   # the CLI meets it
    assert referee.post(f"{C}/overrides/monster:cave-bear/remove").status_code == 200
    assert _cli_json(cli, "campaign", "override", "list") == []
    assert referee.get(f"{C}/bestiary?q=cave").json()["count"] == 0


def test_a_profile_sent_as_text_reads_no_file_of_the_server(table: dict[str, TestClient], tmp_path: Path) -> None:
    secret = tmp_path / "secret.yaml"
    secret.write_text("id: T-1\nname: t\nrows: []\n", encoding="utf-8")
    profile = f"name: grim\nextends: furnace\ntables: [{secret}]\n"
    answer = table["referee"].post(f"{C}/overrides", json={"text": profile, "kind": "profile", "source": "grim.yaml"})
    assert answer.status_code == 400 and "command line" in answer.json()["error"]
    refused = table["referee"].post(f"{C}/overrides", json={"text": "x: 1", "source": "../../etc/passwd"})
    assert refused.status_code == 422 and "passwd" not in refused.text


def test_the_bestiary_is_the_list_of_monsters_and_searches(table: dict[str, TestClient]) -> None:
    referee = table["referee"]
    everything = referee.get(f"{C}/bestiary").json()
    assert [m["id"] for m in everything["monsters"]] == [m.id for m in listing(Bestiary.packaged())]
    assert everything["count"] == everything["total"] == len(Bestiary.packaged())
    goblins = referee.get(f"{C}/bestiary?q=GOBLIN").json()["monsters"]
    assert goblins and all("goblin" in m["name"].lower() or "goblin" in m["id"] or "goblin" in m["tags"]
                           for m in goblins)
    assert "goblin" in {m["id"] for m in goblins} and "ogre" not in {m["id"] for m in goblins}
    assert referee.get(f"{C}/bestiary?q=" + "x" * 61).status_code == 422


# -- the quick fight, the odds -----------------------------------------------------------------------------------------
def test_the_quick_fight_is_the_clis_fight(tmp_path: Path, cli: Cli, settings: WebSettings) -> None:
    """The same party (a campaign exported and imported) against the same monsters with the same dice: the console's
    fight and the CLI's settle the roster alike, each in one logged command."""
    same = WebSettings(db=settings.db, rng=lambda: dice.seeded(7), **UNLIMITED)
    with TestClient(create_app(same)) as referee:
        referee.get(f"/signin?token={same.referee_token}")
        signed_in(referee)
        referee.post("/api/campaigns", json={"name": "keep"})
        referee.post(f"{C}/funnel", json={"players": ["Ann", "Bo"], "per_player": 2})
        export = tmp_path / "keep.json"
        assert cli("campaign", "export", "keep", "--out", str(export), campaign="")[0] == 0
        assert cli("campaign", "import", str(export), "--as", "copy", campaign="")[0] == 0
        fought = referee.post(f"{C}/fight", json={"monsters": "goblin x3", "rounds": 20})
        assert fought.status_code == 200, fought.text
        by_cli = _cli_json(cli, "fight", "--party", "all", "--monsters", "goblin x3", "--seed", "7",
                           campaign="copy")
        assert fought.json()["roster"] == by_cli["roster"]
        commands = {e["command"] for e in fought.json()["events"]}
        assert commands == {"fight"}
        again = referee.post(f"{C}/fight", json={"monsters": "nobody we know"})
        assert again.status_code == 404          # an unknown monster, as the CLI refuses it


def test_odds_attack_is_the_clis_under_the_campaigns_rules(table: dict[str, TestClient], cli: Cli) -> None:
    query = "atk=d20%2B3&ac=14&damage=1d8%2B2&char_class=fighter&level=3&hard=in+the+dark"
    odds = table["referee"].get(f"{C}/odds/attack?{query}").json()
    args = ("odds", "attack", "--atk", "d20+3", "--ac", "14", "--damage", "1d8+2", "--class", "fighter", "--level",
            "3", "--hard", "in the dark")
    assert {k: v for k, v in odds.items() if k != "text"} == _cli_json(cli, *args)
    assert odds["text"] + "\n" == cli(*args, campaign="")[1]


def test_odds_attack_by_a_member_of_the_roster(table: dict[str, TestClient]) -> None:
    odds = table["referee"].get(f"{C}/odds/attack?who=ann1&ac=10").json()
    assert "Ann-1" in odds["text"] and Fraction(odds["p_hit"]) > 0
    assert table["referee"].get(f"{C}/odds/attack?ac=10").status_code == 400


@pytest.mark.rule("F-DEATH-01")
def test_odds_dying_is_the_clis_and_the_rules_numbers(table: dict[str, TestClient], cli: Cli) -> None:
    odds = table["referee"].get(f"{C}/odds/dying").json()
    assert {k: v for k, v in odds.items() if k != "text"} == _cli_json(cli, "odds", "dying")
    assert odds["text"] + "\n" == cli("odds", "dying", campaign="")[1]
    # a 1d4-turn timer, a d20 each turn, up on a natural 20: 1 − ¼ Σ (19/20)^t for t = 1…4
    assert Fraction(odds["p_gets_up"]) == 1 - sum(Fraction(19, 20) ** t for t in range(1, 5)) / 4


def test_odds_follow_the_campaigns_rules(table: dict[str, TestClient]) -> None:
    referee = table["referee"]
    referee.post("/api/campaigns", json={"name": "sea", "profile": "middle-sea"})
    answer = referee.get("/api/campaigns/sea/odds/dying")
    assert answer.status_code == 400 and "death_model" in answer.json()["error"]


# -- who may -----------------------------------------------------------------------------------------------------------
REFEREES = [("GET", f"{C}/export"), ("GET", "/api/backup"), ("GET", f"{C}/recap"), ("GET", f"{C}/verify"),
            ("POST", f"{C}/overrides"), ("POST", f"{C}/overrides/monster:x/remove"), ("GET", f"{C}/bestiary"),
            ("POST", f"{C}/fight"), ("GET", f"{C}/odds/attack?ac=12"), ("GET", f"{C}/odds/dying")]


@pytest.mark.parametrize(("method", "url"), REFEREES)
def test_players_and_observers_are_refused_the_referees_routes(still_table: dict[str, TestClient], method: str,
                                                               url: str) -> None:
    body = {"text": BEAR} if url.endswith("/overrides") else {"monsters": "goblin"}
    for who in ("ann", "tv"):
        answer = still_table[who].request(method, url, json=body if method == "POST" else None)
        assert answer.status_code == 403, (who, url)
        assert "goblin" not in answer.text and "Cave" not in answer.text


def test_bad_input_is_a_4xx_that_does_not_repeat_it(table: dict[str, TestClient]) -> None:
    referee, ann = table["referee"], table["ann"]
    sent = "<script>alert(1)</script>"
    for answer in (referee.get(f"{C}/characters/ann1/sheet", params={"format": sent}),
                   referee.post(f"{C}/fight", json={"monsters": "goblin", "rounds": 10**9}),
                   referee.post(f"{C}/overrides", json={"text": BEAR, "kind": sent}),
                   referee.get(f"{C}/odds/attack", params={"ac": "NaN"}),
                   ann.get(f"{C}/characters/{sent}/sheet")):
        assert 400 <= answer.status_code < 500 and sent not in answer.text and "alert" not in answer.text


def test_a_player_reads_her_dead_characters_death_without_what_dealt_the_blow(table: dict[str, TestClient]) -> None:
    """The referee's note names the last blow (perhaps a foe the table never saw); hers says how she died in the
    words the roster tells her."""
    referee, ann = table["referee"], table["ann"]
    assert referee.post(f"{C}/fight", json={"monsters": "goblin x2"}).status_code == 200
    dead = [m["id"] for m in ann.get(C).json()["roster"] if m["mine"] and m["status"] == "dead"]
    assert dead, "the seeded fight kills one of Ann's"
    told = {m["id"]: m["death"] for m in ann.get(C).json()["roster"] if m["mine"]}
    for who in dead:
        theirs = referee.get(f"{C}/characters/{who}/sheet?format=markdown").text
        hers = ann.get(f"{C}/characters/{who}/sheet?format=markdown").text
        assert "the last blow" in theirs and "Goblin" in theirs
        assert "the last blow" not in hers and "Goblin" not in hers and f"· dead: {told[who]}*" in hers


def test_the_routes_are_documented_in_the_openapi(table: dict[str, TestClient]) -> None:
    paths = table["referee"].get("/api/openapi.json").json()["paths"]
    T = "/api/campaigns/{campaign}"
    wanted = {(f"{T}/characters/{{who}}/sheet", "get"), (f"{T}/export", "get"), ("/api/backup", "get"),
              (f"{T}/recap", "get"), (f"{T}/verify", "get"), (f"{T}/overrides", "post"),
              (f"{T}/overrides/{{key}}/remove", "post"), (f"{T}/bestiary", "get"), (f"{T}/fight", "post"),
              (f"{T}/odds/attack", "get"), (f"{T}/odds/dying", "get")}
    for path, method in wanted:
        said = paths[path][method]["description"]     # each names the CLI command (or the list) it stands for
        assert "`furnace " in said or "docs/monsters.md" in said, path
