"""What the Hazards path tests share: the `furnace` command in process on a temporary campaign database.

Each test module has a `table` fixture returning `Table.at(tmp_path, monkeypatch, capsys)`.
`keep(profile, *options)` makes the campaign `keep` under a profile and returns `run`, which runs `furnace --db DB
--campaign keep ARGS` and returns its stdout (it must exit 0 with nothing on stderr); `facts(*args)` runs the
command with `--json` and returns the facts it printed, whatever the command's JSON shape (a campaign command's
logged events, or a tool's `events`), each as {kind, data, rolls, rules, who}.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from furnace.cli.app import main

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
        return [{"kind": e["kind"], "data": e["data"], "rolls": e["rolls"], "who": e.get("who", e.get("actor")),
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
