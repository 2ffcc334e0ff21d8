"""A campaign written by an older Furnace, brought up to date as a logged command of its own.

The store asks each of its `UPGRADES` before a command writes (`Store._run`): a command one returns runs first,
logged as "upgrade", so the log keeps the change like any other (replay and undo included) and nothing already
logged is rewritten. This module adds its own when imported (by `furnace.campaign.commands`, which every command
module imports). Today: Luck Dice split among one player's characters merged into her one pool
(`furnace.campaign.luck.merge_pools`, F-LUCK-01).
"""

from __future__ import annotations

from furnace.campaign.state import CampaignState
from furnace.campaign.store import UPGRADES, Command


def due(state: CampaignState) -> Command | None:
    """The upgrade this campaign needs, or None (the usual answer, found without loading its rules)."""
    from furnace.campaign import luck

    if luck.split(state) and luck.by_player(state):
        return luck.merge_pools
    return None


if due not in UPGRADES:
    UPGRADES.append(due)
