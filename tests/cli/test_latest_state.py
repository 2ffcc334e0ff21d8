"""A read after a write on the command line finds the campaign's state, and its fight, as the write made them
(`furnace.rules.cache.latest_made`, `CampaignState.from_entities`, `kept_fight.current`): it builds no validator,
and what it shows is what the log rebuilds with the cache off."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from furnace.campaign import kept_fight
from furnace.campaign.state import CampaignState
from furnace.rules import cache

Run = Callable[..., tuple[int, str, str]]


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What is validated from the stored entities (the state) or the stored fight, by name."""
    made: list[str] = []
    checked, validate = CampaignState.checked.__func__, kept_fight.Fight.model_validate    # type: ignore[attr-defined]

    def counted_state(cls: type[CampaignState], entities: dict[str, Any], name: str) -> CampaignState:
        made.append("state")
        return checked(cls, entities, name)  # type: ignore[no-any-return]

    def counted_fight(data: Any) -> kept_fight.Fight:
        made.append("fight")
        return validate(data)

    monkeypatch.setattr(CampaignState, "checked", classmethod(counted_state))
    monkeypatch.setattr(kept_fight.Fight, "model_validate", counted_fight)
    return made


def test_a_read_after_a_write_validates_nothing_and_shows_what_the_log_rebuilds(
        furnace: Run, monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    monkeypatch.setenv("FURNACE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(cache, "_LATEST_ON", False)
    assert furnace("campaign", "new", "keep")[0] == 0
    assert furnace("--campaign", "keep", "campaign", "join", "examples/characters/brakka.json")[0] == 0
    assert furnace("--campaign", "keep", "encounter", "start", "--party", "Brakka", "--monsters", "goblin x2",
                   "--seed", "4")[0] == 0
    made = _counting(monkeypatch)
    code, kept, _ = furnace("--campaign", "keep", "encounter", "status", "--json")
    assert code == 0 and made == []             # the state and the fight as `encounter start` made them
    assert furnace("--campaign", "keep", "damage", "Brakka", "3")[0] == 0
    # the write validated its new state (read back from what it logs, then as the log folds it) and its fight
    assert made == ["state", "state", "fight"]
    code, after, _ = furnace("--campaign", "keep", "encounter", "status", "--json")
    assert code == 0 and len(made) == 3
    monkeypatch.setenv("FURNACE_CACHE_DIR", "off")
    code, rebuilt, _ = furnace("--campaign", "keep", "encounter", "status", "--json")
    assert code == 0 and made[3] == "state" and set(made[4:]) == {"fight"} and rebuilt == after   # (off: each time)
    hp = {c["id"]: c["hp"] for c in json.loads(after)["encounter"]["combatants"]}
    assert hp["brak1"] == {c["id"]: c["hp"] for c in json.loads(kept)["encounter"]["combatants"]}["brak1"] - 3
