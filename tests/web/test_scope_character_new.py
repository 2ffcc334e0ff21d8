"""The console's new character offers what `furnace character new` does: an archetype, the starting kit's
alternatives and a Human's swap of two scores (F-RACE-02), through the same campaign function — the member made
from the referee's page is the CLI's, die for die, given the same seed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from furnace import dice
from furnace.campaign.store import Store
from furnace.cli.app import main

MADE = [
    (("--class", "Fighter", "--archetype", "Barbarian", "--kit", "shield", "--swap", "none"),
     {"char_class": "Fighter", "archetype": "Barbarian", "kit": ["shield"], "swap": "none"}),
    (("--class", "Fighter", "--race", "Human", "--kit", "two-handed", "--swap", "STR,CHA"),
     {"char_class": "Fighter", "race": "Human", "kit": ["two-handed"], "swap": "STR,CHA"}),
]


@pytest.mark.rule("F-RACE-02")
@pytest.mark.parametrize(("args", "body"), MADE)
def test_the_new_character_form_makes_the_member_the_cli_makes(args: tuple[str, ...], body: dict[str, Any],
                                                                app: Any, referee: TestClient, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FURNACE_CONFIG_DIR", str(tmp_path / "cli-config"))
    monkeypatch.setenv("FURNACE_DATA_DIR", str(tmp_path / "cli-data"))
    twin = str(tmp_path / "cli.db")
    assert main(["--db", twin, "campaign", "new", "keep"]) == 0
    assert main(["--db", twin, "--campaign", "keep", "character", "new", *args, "--random", "--seed", "5",
                 "--join", "Cy"]) == 0
    assert referee.post("/api/campaigns", json={"name": "keep"}).status_code == 200
    app.state.settings.rng = lambda: dice.seeded(5)
    answer = referee.post("/api/campaigns/keep/characters", json={"player": "Cy", "random": True, **body})
    assert answer.status_code == 200, answer.text
    store = Store(f"sqlite:///{twin}")
    try:
        cli_made = _cys(store)
    finally:
        store.close()
    assert _cys(app.state.store) == cli_made and cli_made.char_class == "Fighter"


def _cys(store: Store) -> Any:
    (member,) = [m for m in store.open("keep").roster.values() if m.player == "Cy"]
    return member.character


def test_a_swap_that_is_no_two_scores_is_refused_in_words(referee: TestClient) -> None:
    assert referee.post("/api/campaigns", json={"name": "keep"}).status_code == 200
    answer = referee.post("/api/campaigns/keep/characters", json={"player": "Cy", "swap": "STR,STR"})
    assert answer.status_code == 400 and "swap" in answer.json()["error"]
    assert referee.get("/api/campaigns/keep").json()["roster"] == []
