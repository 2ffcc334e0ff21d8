"""A campaign's fight table for the CLI tests of the players' choices: example characters with changes, a campaign
they join with their players, and the encounter as `encounter status --json` gives it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.cli.conftest import Run

EXAMPLES = Path(__file__).parents[2] / "examples" / "characters"


def sheet(folder: Path, name: str, **changes: object) -> str:
    """An example character with changes, written to `folder`."""
    data = {**json.loads((EXAMPLES / f"{name}.json").read_text()), **changes}
    path = folder / f"{name}.json"
    path.write_text(json.dumps(data))
    return str(path)


def campaign(furnace: Run, *joined: tuple[str, str], profile: str = "furnace") -> Run:
    """A new campaign `keep` that each (sheet, player) joins; the runner works on it."""
    assert furnace("campaign", "new", "keep", "--profile", profile)[0] == 0
    for path, player in joined:
        assert furnace("--campaign", "keep", "campaign", "join", path, "--player", player)[0] == 0

    def run(*args: str) -> tuple[int, str, str]:
        return furnace("--campaign", "keep", *args)

    return run


def encounter(run: Run) -> dict[str, Any]:
    code, out, err = run("encounter", "status", "--json")
    assert code == 0, err
    return json.loads(out)["encounter"]  # type: ignore[no-any-return]


def one(run: Run, cid: str) -> dict[str, Any]:
    return next(c for c in encounter(run)["combatants"] if c["id"] == cid)  # type: ignore[no-any-return]
