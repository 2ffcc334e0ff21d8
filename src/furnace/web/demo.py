"""A first start with an empty database: a demo campaign, a funnel of two players rolled onto it."""

from __future__ import annotations

from furnace.campaign.roster import Funnel
from furnace.campaign.store import Store
from furnace.dice import DiceSource
from furnace.web.config import DEMO


def ensure_demo(store: Store, rng: DiceSource) -> str | None:
    """Make the demo campaign when the database has none; its name, or None when campaigns exist."""
    if store.names():
        return None
    store.create(DEMO)
    store.apply(DEMO, "funnel", Funnel(["Ann", "Bo"], 4, rng))
    return DEMO
