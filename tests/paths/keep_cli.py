"""A campaign at the table for the path tests of characters, tables and play: the `furnace` command in process on a
temporary SQLite file (its own config and data folders, so no campaign of the machine's user is read), with the
faces of real dice entered (`--faces`), and the campaign commands (`Store.apply`) a console button calls.

`peasant(...)` spells out the faces `furnace funnel --faces` takes for one 0-level character: 3d6 for each of
STR, DEX, CON, INT, WIS and CHA in order, the race's d5 (1 Human, 2 Dwarf, 3 Elf, 4 Halfling, 5 Half-orc), the
1d4 HP, the d100 occupation (X-TAB-01), and a d2 when the occupation offers two skills.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from furnace.campaign import table as tables
from furnace.campaign.store import Command, Store, StoredEvent
from furnace.cli.app import main
from furnace.dice import ScriptedDice

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
RACE_FACE = {"Human": 1, "Dwarf": 2, "Elf": 3, "Halfling": 4, "Half-orc": 5}
ABILITIES = ("STR", "DEX", "CON", "INT", "WIS", "CHA")


def three(total: int) -> list[int]:
    """Three d6 faces that add up to `total` (3..18)."""
    first = min(6, total - 2)
    second = min(6, total - first - 1)
    return [first, second, total - first - second]


def peasant(scores: Sequence[int], race: str, hp: int, occupation: int, *more: int) -> list[int]:
    """The faces of one 0-level character of `furnace funnel`: the scores rolled (before the race's ±1), the race,
    the HP, the occupation's d100 and any die the occupation asks for (a d2 between two skills)."""
    return [f for score in scores for f in three(score)] + [RACE_FACE[race], hp, occupation, *more]


def hero(path: Path, name: str, **fields: Any) -> Path:
    """A character file made from examples/characters/brakka.json (a level-3 Half-orc Fighter, Barbarian with
    Rage) with her name and these fields changed (`scores={"STR": 18}` merges into her scores); its path."""
    data = json.loads((EXAMPLES / "characters" / "brakka.json").read_text(encoding="utf-8"))
    data["name"] = name
    for key, value in fields.items():
        data[key] = {**data[key], **value} if key == "scores" else value
    out = path / f"{name.lower()}.json"
    out.write_text(json.dumps(data), encoding="utf-8")
    return out


def faces(*groups: Sequence[int]) -> str:
    return ",".join(str(f) for group in groups for f in group)


class Keep:
    """The campaign `keep` on a temporary database: `ok(...)` runs a command that must succeed and returns what it
    printed, `refused(...)` one that must be refused in one `error:` line (exit 2) and returns that line."""

    def __init__(self, db: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.db = db
        self.capsys = capsys

    def run(self, *args: str) -> tuple[int, str, str]:
        code = main(["--db", str(self.db), "--campaign", "keep", *args])
        out = self.capsys.readouterr()
        return code, out.out, out.err

    def free(self, *args: str) -> str:
        """A command with no campaign chosen (a character file, a table, a roll): it must succeed; what it printed."""
        code = main(["--db", str(self.db), *args])
        out = self.capsys.readouterr()
        assert code == 0, (args, out.err)
        return out.out

    def ok(self, *args: str) -> str:
        code, out, err = self.run(*args)
        assert code == 0, (args, err)
        return out

    def refused(self, *args: str) -> str:
        code, out, err = self.run(*args)
        assert code == 2, (args, out)
        assert err.startswith("error: ") and err.count("\n") == 1, err
        return err

    def json(self, *args: str) -> Any:
        return json.loads(self.ok(*args, "--json"))

    def new(self, *args: str) -> None:
        """`furnace campaign new keep` with these flags (`--profile`, `--option NAME=VALUE`)."""
        self.ok("campaign", "new", "keep", *args)

    def character(self, who: str) -> dict[str, Any]:
        shown: dict[str, Any] = self.json("character", "show", who)["character"]
        return shown

    def sheet(self, who: str, *, free: bool = False) -> dict[str, str]:
        """The Markdown sheet of `furnace character show WHO --markdown` (a roster member, or with `free` a file):
        each ability's score and modifier (`STR` → "18 +3", the minus sign as '-') and each bullet (`PROF` → "+2",
        `AC` → "14")."""
        run = self.free if free else self.ok
        text = run("character", "show", who, "--markdown").replace("−", "-")
        scores = re.finditer(r"^\| (?P<ability>[A-Z]{3}) \| (?P<score>\d+) \| (?P<mod>[+-]\d+) \|$", text, re.M)
        found = {m["ability"]: f"{m['score']} {m['mod']}" for m in scores}
        bullets = re.finditer(r"^- \*\*(?P<key>[^*]+):\*\* (?P<value>.*)$", text, re.M)
        return found | {m["key"]: m["value"] for m in bullets}

    def log(self, since: int = 0) -> list[dict[str, Any]]:
        logged: list[dict[str, Any]] = self.json("campaign", "log", "--since", str(since))
        return logged

    def apply(self, command: str, fn: Command) -> tuple[StoredEvent, ...]:
        """A campaign command as the console runs it (`Store.apply`): the events it logged."""
        store = Store(f"sqlite:///{self.db}")
        try:
            return store.apply("keep", command, fn).events
        finally:
            store.close()

    def sheet_roll(self, who: str, kind: str, rolled: Sequence[int], **how: Any) -> StoredEvent:
        """A player's button on her sheet (the console's `POST …/characters/WHO/roll`): a CHECK, SAVE, ATK or
        SPELLCHECK with these faces; the fact it logged."""
        facts = self.apply(f"roll {kind}", tables.sheet_roll(who, kind, ScriptedDice(rolled), **how))
        return next(e for e in facts if e.kind == "sheet_roll")


@pytest.fixture
def keep(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Iterator[Keep]:
    monkeypatch.setenv("FURNACE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("FURNACE_DATA_DIR", str(tmp_path / "data"))
    for name in ("FURNACE_CAMPAIGN", "FURNACE_DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    yield Keep(tmp_path / "keep.db", capsys)
