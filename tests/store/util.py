"""Helpers of the store's tests: raw SQL on the store's database, and the state the log rebuilds by hand."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import text

from furnace.campaign.state import CampaignState, apply_changes
from furnace.campaign.store import Store


def sql(store: Store, statement: str, **params: Any) -> list[Any]:
    """Run one SQL statement on the store's database, as a person with a database shell would (committed)."""
    with store.engine.begin() as conn:
        result = conn.execute(text(statement), params)
        return list(result) if result.returns_rows else []


def campaign_id(store: Store, name: str) -> int:
    return int(sql(store, "SELECT id FROM campaigns WHERE name = :n", n=name)[0].id)


def event_count(store: Store, name: str) -> int:
    """The rows of the log, counted in SQL (not through the store's own bookkeeping)."""
    return int(sql(store, "SELECT count(*) AS n FROM events WHERE campaign_id = :c", c=campaign_id(store, name))[0].n)


def rebuild(store: Store, name: str) -> CampaignState:
    """The state rebuilt from the rows of the log by hand, independently of the store's own reading."""
    entities: dict[str, Any] = {}
    rows = sql(store, "SELECT changes FROM events WHERE campaign_id = :c ORDER BY seq", c=campaign_id(store, name))
    for row in rows:
        if row.changes is not None:
            apply_changes(entities, json.loads(row.changes))
    return CampaignState.from_entities(entities, name)


def hp(state: CampaignState, who: str) -> int:
    return state.roster[who].character.hp
