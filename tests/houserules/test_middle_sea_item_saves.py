"""Middle Sea item saves as data (`furnace.houserules.middle_sea.item_saves`).

RULES.md AMB-05, AMB-97 and the item-save table X-TAB-06 (EXT-22): metal saves on 10, wood or rope on 12 (the
item_save_dc options), a normal blow on 8.
"""

from __future__ import annotations

import pytest

from furnace.dice import ScriptedDice
from furnace.houserules import middle_sea as ms
from furnace.rules.ruleset import load_ruleset
from furnace.rules.tables import validate_table

RULES = load_ruleset("middle-sea")


def test_AMB_97_EXT_22_item_save_targets_are_data() -> None:
    """AMB-05, AMB-97, EXT-22: X-TAB-06 holds the fallback (metal 10 and wood or rope 12 through the item_save_dc
    options, normal blow 8); an option override changes a target; a referee's X-TAB-06 is read as written."""
    assert ms.item_save_target("metal", "crushing_blow", RULES) == (10, "option item_save_dc_metal")
    assert ms.item_save_target("thin rope", "crushing_blow", RULES)[0] == 12
    assert ms.item_save_target("leather", "normal_blow", RULES) == (8, "X-TAB-06 */normal_blow")
    assert ms.item_save_target("metal", "crushing_blow", RULES.with_options({"item_save_dc_metal": 11}))[0] == 11
    matrix = validate_table({"id": "X-TAB-06", "name": "item-saves", "title": "AD&D matrix", "source": "DMG",
                             "kind": "keyed", "rows": [{"key": "metal/crushing_blow", "text": "metal",
                                                        "data": {"target": 7, "dc_option": "item_save_dc_metal"}}]},
                            "<referee>")
    house = type(RULES)(RULES.profile, RULES.values, RULES.tables.with_table(matrix, "referee.yaml"))
    assert ms.item_save_target("metal", "crushing_blow", house) == (7, "X-TAB-06 metal/crushing_blow")
    with pytest.raises(ms.MiddleSeaError, match="no item-save row"):
        ms.item_save_target("glass", "crushing_blow", house)


def test_AMB_97_item_save_model_table_needs_the_referees_matrix() -> None:
    """AMB-97 (option item_save_model = table): without the table named by item_save_table the save is refused."""
    with pytest.raises(ms.MiddleSeaError, match="house:item-saves"):
        ms.item_save("metal", "crushing_blow", ScriptedDice([10]), RULES.with_options({"item_save_model": "table"}))
