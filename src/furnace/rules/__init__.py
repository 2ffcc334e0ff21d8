"""The foundation's rules as data: tables, rule options and profiles, the effect schema, the data-file reader.

Nothing here knows a character or a fight: these modules load and validate `furnace/data/**.yaml` (and a
referee's own files) into immutable values that the layers above read. F-BASE-01 (the referee may reinterpret
or override any rule) is why every table, option and profile here can be replaced by id.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from furnace._exports import lazy

if TYPE_CHECKING:
    from furnace.rules.bestiary import Bestiary, Monster, parse_monsters
    from furnace.rules.datafile import read_yaml
    from furnace.rules.effects import Duration, Effect, effect_summary, parse_effect
    from furnace.rules.ruleset import OptionSpec, Profile, Ruleset, builtin_profiles, load_ruleset, option_specs
    from furnace.rules.tables import Row, Table, TableRoll, TableSet, validate_table

_EXPORTS = {
    "Bestiary": "bestiary",
    "Monster": "bestiary",
    "parse_monsters": "bestiary",
    "OptionSpec": "ruleset",
    "Profile": "ruleset",
    "Ruleset": "ruleset",
    "option_specs": "ruleset",
    "builtin_profiles": "ruleset",
    "load_ruleset": "ruleset",
    "Row": "tables",
    "Table": "tables",
    "TableRoll": "tables",
    "TableSet": "tables",
    "validate_table": "tables",
    "Effect": "effects",
    "Duration": "effects",
    "parse_effect": "effects",
    "effect_summary": "effects",
    "read_yaml": "datafile",
}
__all__ = [
    "Bestiary",
    "Duration",
    "Effect",
    "Monster",
    "OptionSpec",
    "Profile",
    "Row",
    "Ruleset",
    "Table",
    "TableRoll",
    "TableSet",
    "builtin_profiles",
    "effect_summary",
    "load_ruleset",
    "option_specs",
    "parse_effect",
    "parse_monsters",
    "read_yaml",
    "validate_table",
]
__getattr__, __dir__ = lazy(__name__, _EXPORTS)
