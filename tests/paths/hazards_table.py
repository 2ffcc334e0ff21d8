"""What the Hazards path tests share: the `furnace` command in process on a temporary campaign database.

Each test module has a `table` fixture returning `Table.at(tmp_path, monkeypatch, capsys)`: `table(*args)` runs
`furnace --db DB --campaign keep ARGS` and returns its stdout (it must exit 0 with nothing on stderr);
`table.keep(profile, *options)` makes the campaign `keep`; `table.facts(*args)` runs the command with `--json` and
returns the facts it printed, whatever the command's JSON shape (a campaign command's logged events, or a tool's
`events`), each as {kind, data, rolls, rules, who}. `console(tmp_path, capsys)` gives the same command on the table
console's database, with the referee's client and a player's, to see what each is told.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from furnace.cli.app import main
from furnace.web import WebSettings, create_app
from tests.web.conftest import joined, seeded_dice, signed_in

Fact = dict[str, Any]


class Table:
    """The `furnace` command on one database, in process."""

    def __init__(self, db: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.db = db
        self.capsys = capsys

    def call(self, *args: str) -> tuple[int, str, str]:
        code = main(["--db", str(self.db), "--campaign", "keep", *args])
        out = self.capsys.readouterr()
        return code, out.out, out.err

    def __call__(self, *args: str) -> str:
        code, out, err = self.call(*args)
        assert code == 0 and err == "", (args, code, err)
        return out

    def refused(self, *args: str) -> str:
        """The command's one `error:` line (it must exit 2)."""
        code, out, err = self.call(*args)
        assert code == 2 and out == "" and err.startswith("error: ") and err.count("\n") == 1, (args, code, err)
        return err

    def json(self, *args: str) -> Any:
        return json.loads(self(*args, "--json"))

    def facts(self, *args: str) -> list[Fact]:
        data = self.json(*args)
        events = data["events"] if isinstance(data, dict) else data
        return [{"kind": e["kind"], "data": {k: v for k, v in e["data"].items() if k != "fact"}, "rolls": e["rolls"],
                 "who": e.get("who", e.get("actor")),
                 "rules": e.get("rules") or e["data"].get("fact", {}).get("rules", [])} for e in events]

    @classmethod
    def at(cls, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Table:
        """The command on tmp_path/campaigns.db, no user setting read."""
        monkeypatch.setenv("FURNACE_CONFIG_DIR", str(tmp_path / "config"))
        monkeypatch.setenv("FURNACE_DATA_DIR", str(tmp_path / "data"))
        monkeypatch.delenv("FURNACE_CAMPAIGN", raising=False)
        monkeypatch.delenv("FURNACE_DATABASE_URL", raising=False)
        return cls(tmp_path / "campaigns.db", capsys)

    def keep(self, profile: str = "hazards", *options: str) -> Table:
        """The campaign `keep` made under `profile`, with `--option NAME=VALUE` for each of `options`."""
        self("campaign", "new", "keep", "--profile", profile, *[a for o in options for a in ("--option", o)])
        return self




def of(facts: list[Fact], kind: str) -> list[Fact]:
    """The facts of one kind, in order."""
    return [f for f in facts if f["kind"] == kind]


def one(facts: list[Fact], kind: str) -> Fact:
    found = of(facts, kind)
    assert len(found) == 1, (kind, [f["kind"] for f in facts])
    return found[0]


def faces(fact: Fact) -> list[int]:
    """Every face of the fact's rolls, in order."""
    return [face for roll in fact["rolls"] for face in roll["faces"]]


@contextmanager
def console(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Iterator[tuple[Table, TestClient, TestClient]]:
    """The campaign `keep` (hazards) made on the table console, with a funnel for Ann and her phone signed in:
    the `furnace` command on the console's database, the referee's client and Ann's."""
    settings = WebSettings(db=str(tmp_path / "web.db"), rng=seeded_dice())
    app = create_app(settings)
    with TestClient(app) as referee:
        assert referee.get(f"/signin?token={settings.referee_token}").status_code == 200
        signed_in(referee)
        assert referee.post("/api/campaigns", json={"name": "keep", "profile": "hazards"}).status_code == 200
        assert referee.post("/api/campaigns/keep/funnel", json={"players": ["Ann"], "per_player": 1}).status_code == 200
        yield Table(tmp_path / "web.db", capsys), referee, joined(app, referee, "player", "Ann")


def told(client: TestClient) -> str:
    """The campaign's log as the console tells it to this client."""
    return str(client.get("/api/campaigns/keep/log").json())
