"""The magic chapter: the SPELLCHECK, spells as data, casting rules on the character, casting in fights,
mishaps and disapproval, magic items, and the spell and item builders.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from furnace._exports import lazy

if TYPE_CHECKING:
    from furnace.magic.casting import Casting, cast_spell, lay_on_hands, learn_cantrip, learn_spell, new_day
    from furnace.magic.items import Item, all_items, build_item, daily_uses, get_item, use_item
    from furnace.magic.spellbuilder import build, propose, random_name
    from furnace.magic.spellcheck import Spellcheck, dice_for_sl, success_level
    from furnace.magic.spells import Spell, all_spells, cast, get_spell

_EXPORTS = {
    "Spellcheck": "spellcheck",
    "success_level": "spellcheck",
    "dice_for_sl": "spellcheck",
    "Spell": "spells",
    "all_spells": "spells",
    "get_spell": "spells",
    "cast": "spells",
    "Casting": "casting",
    "cast_spell": "casting",
    "learn_spell": "casting",
    "learn_cantrip": "casting",
    "lay_on_hands": "casting",
    "new_day": "casting",
    "Item": "items",
    "all_items": "items",
    "get_item": "items",
    "build_item": "items",
    "daily_uses": "items",
    "use_item": "items",
    "random_name": "spellbuilder",
    "propose": "spellbuilder",
    "build": "spellbuilder",
}
__all__ = [
    "Casting",
    "Item",
    "Spell",
    "Spellcheck",
    "all_items",
    "all_spells",
    "build",
    "build_item",
    "cast",
    "cast_spell",
    "daily_uses",
    "dice_for_sl",
    "get_item",
    "get_spell",
    "lay_on_hands",
    "learn_cantrip",
    "learn_spell",
    "new_day",
    "propose",
    "random_name",
    "success_level",
    "use_item",
]
__getattr__, __dir__ = lazy(__name__, _EXPORTS)
