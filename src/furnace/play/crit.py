"""Which crit table and crit die, which fumble die: F-CRIT-01…03, F-FUMB-01/02, AMB-24, AMB-26, AMB-27."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:      # (annotations only: `furnace odds attack` imports no model)
    from furnace.play.combatant import Combatant
    from furnace.rules.ruleset import Ruleset

CLASS_CRIT_TABLES = {"Fighter": "crit-fighter", "Cleric": "crit-cleric", "Rogue": "crit-rogue"}
MAX_CRIT_LEVEL = 10


def crit_table(attacker: Combatant, rules: Ruleset) -> str | None:
    """The attacker's crit table: by class; level 0 and Magic-users per option; monsters per option."""
    if attacker.kind == "monster":
        return str(rules["monster_crit_table"]) if rules["monster_crits"] else None
    if attacker.level == 0 or attacker.char_class is None:
        return str(rules["level0_crit_table"])
    if attacker.char_class == "Magic-user":
        return str(rules["magic_user_crit_table"])
    return CLASS_CRIT_TABLES[attacker.char_class]


def crit_level(attacker: Combatant, rules: Ruleset) -> int:
    """The level the crit die is read at: capped at 10 (AMB-26); a monster's HD or 0 per option."""
    level = attacker.level
    if attacker.kind == "monster" and rules["monster_crit_level"] == "level_0":
        level = 0
    return max(0, min(MAX_CRIT_LEVEL, level))


def fumbles(attacker: Combatant, rules: Ruleset) -> bool:
    return attacker.kind == "pc" or bool(rules["monster_fumbles"])
