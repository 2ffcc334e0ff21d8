"""What the Middle Sea path tests share: the `furnace` CLI run in process on a temporary database, its JSON read
back, and one-round fight files (a character file made by the factories against one inline monster).

Every command here is a public path (`furnace.cli.app.main`); the dice are the faces entered (`--faces`), so a
test states each number the rule gives.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from furnace.characters.character import Character
from furnace.cli.app import main


class Furnace:
    """`furnace ARGS` in process, on `tmp/campaigns.db` (no user setting read): (exit code, stdout, stderr)."""

    def __init__(self, tmp: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
        monkeypatch.setenv("FURNACE_CONFIG_DIR", str(tmp / "config"))
        monkeypatch.setenv("FURNACE_DATA_DIR", str(tmp / "data"))
        monkeypatch.delenv("FURNACE_CAMPAIGN", raising=False)
        monkeypatch.delenv("FURNACE_DATABASE_URL", raising=False)
        self.tmp, self.capsys, self.db = tmp, capsys, str(tmp / "campaigns.db")

    def __call__(self, *args: str) -> tuple[int, str, str]:
        code = main(["--db", self.db, *args])
        out = self.capsys.readouterr()
        return code, out.out, out.err

    def ok(self, *args: str) -> str:
        """The command's stdout; it must succeed with nothing on stderr."""
        code, out, err = self(*args)
        assert (code, err) == (0, ""), (args, code, err)
        return out

    def json(self, *args: str) -> Any:
        return json.loads(self.ok(*args, "--json"))

    def campaign(self, profile: str, *members: Character) -> None:
        """A campaign `keep` under `profile`, in use, with these characters on the roster (from their files)."""
        self.ok("campaign", "new", "keep", "--profile", profile)
        self.ok("campaign", "use", "keep")
        for c in members:
            self.ok("campaign", "join", str(character_file(self.tmp, c)))


def character_file(folder: Path, c: Character) -> Path:
    """The character as a file in `folder/characters/` (where a fight file finds its party)."""
    path = folder / "characters" / f"{c.name.lower()}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(c.model_dump_json(indent=1), encoding="utf-8")
    return path


def fight_file(folder: Path, *party: Character, monsters: list[dict[str, Any]], zone: str = "CLOSE",
               room_dc: int = 12) -> str:
    """A fight file: the party (character files beside it, all at `zone`) against the monsters written inline."""
    entries = [{"file": f"characters/{character_file(folder, c).name}", "zone": zone} for c in party]
    path = folder / "fight.yaml"
    path.write_text(yaml.safe_dump({"name": "a test fight", "room_dc": room_dc, "party": entries,
                                    "monsters": monsters}), encoding="utf-8")
    return str(path)


BANDIT: dict[str, Any] = {"name": "Bandit", "hp": 30, "hd": 1, "damage": "1d6", "weapon": "club", "zone": "CLOSE",
                          "ac": 10}
"""A fight file's monster: 30 HP, AC 10, ATK +2 (ROOM DC 12 − 10, D-2), a club for 1d6, unarmored."""


def faces(*values: int) -> str:
    return ",".join(map(str, values))


def events(result: Any, kind: str) -> list[dict[str, Any]]:
    """The events of one kind in a command's JSON (a fight's `events`, or the list a campaign command prints)."""
    found = result["events"] if isinstance(result, dict) else result
    return [e for e in found if e["kind"] == kind]


def one(result: Any, kind: str) -> dict[str, Any]:
    found = events(result, kind)
    assert len(found) == 1, (kind, [e["kind"] for e in (result["events"] if isinstance(result, dict) else result)])
    return found[0]


def natural_rolls(event: dict[str, Any]) -> list[tuple[str, int, list[int]]]:
    """An event's rolls as (label, total, faces)."""
    return [(r["label"], r["total"], r["faces"]) for r in event["rolls"]]
