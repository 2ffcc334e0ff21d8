"""The model: characters and how they are made — abilities, races, the 0-level funnel, promotion and
advancement, equipment and load, XP. Values only; playing them is `furnace.play`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from furnace._exports import lazy

if TYPE_CHECKING:
    from furnace.characters.abilities import modifier, roll_in_order
    from furnace.characters.advancement import gain_hp, level_up
    from furnace.characters.character import Character, CharacterError, HpGain, Occupation, Weapon, migrate
    from furnace.characters.equipment import (
        Kit,
        attack_bonus,
        damage_expression,
        equip,
        load_used,
        over_load,
        price,
        starting_kit,
    )
    from furnace.characters.funnel import Party, new_zero_level, promote, run_funnel
    from furnace.characters.xp import award, ledger, total

_EXPORTS = {
    "Character": "character",
    "Weapon": "character",
    "Occupation": "character",
    "HpGain": "character",
    "CharacterError": "character",
    "migrate": "character",
    "roll_in_order": "abilities",
    "modifier": "abilities",
    "Party": "funnel",
    "run_funnel": "funnel",
    "new_zero_level": "funnel",
    "promote": "funnel",
    "level_up": "advancement",
    "gain_hp": "advancement",
    "Kit": "equipment",
    "starting_kit": "equipment",
    "equip": "equipment",
    "attack_bonus": "equipment",
    "damage_expression": "equipment",
    "load_used": "equipment",
    "over_load": "equipment",
    "price": "equipment",
    "award": "xp",
    "ledger": "xp",
    "total": "xp",
}
__all__ = [
    "Character",
    "CharacterError",
    "HpGain",
    "Kit",
    "Occupation",
    "Party",
    "Weapon",
    "attack_bonus",
    "award",
    "damage_expression",
    "equip",
    "gain_hp",
    "ledger",
    "level_up",
    "load_used",
    "migrate",
    "modifier",
    "new_zero_level",
    "over_load",
    "price",
    "promote",
    "roll_in_order",
    "run_funnel",
    "starting_kit",
    "total",
]
__getattr__, __dir__ = lazy(__name__, _EXPORTS)
