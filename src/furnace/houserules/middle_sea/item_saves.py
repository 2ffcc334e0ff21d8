"""Item saves as data (AMB-05, AMB-97): an item saves vs crushing blow or normal blow, d20 + magic − neglect against
the target for its material, from the referee's AD&D matrix (EXT-22, option item_save_model) or the packaged
X-TAB-06 and its item_save_dc options. Weapons (M-WPN-02/04/05/07) and armor (M-ARM-02..04) save here; the
neglect penalty is M-WPN-08, M-ARM-05 and AMB-100.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from furnace import dice
from furnace.dice import DiceSource, RollResult
from furnace.errors import UnknownNameError
from furnace.houserules.middle_sea.common import MiddleSeaError, _rules
from furnace.rules.ruleset import Ruleset
from furnace.rules.tables import Table

ITEM_SAVE_TABLE = "X-TAB-06"


@dataclass(frozen=True)
class ItemSave:
    """d20 + magic bonus − neglect against the target for the material and attack form (meet or beat)."""

    material: str
    form: str
    roll: RollResult
    target: int
    source: str

    @property
    def saved(self) -> bool:
        return self.roll.total >= self.target

    def explain(self) -> str:
        return (f"{self.material.replace('_', ' ')} saves vs {self.form.replace('_', ' ')}: {self.roll.total} vs "
                f"{self.target} ({self.source}): {'saved' if self.saved else 'failed'}")

    def to_dict(self) -> dict[str, Any]:
        return {"material": self.material, "form": self.form, "roll": self.roll.to_dict(), "target": self.target,
                "source": self.source, "saved": self.saved}

    def values(self) -> dict[str, Any]:
        """The save as a fact's values (the armor and weapon facts carry them): material, form, total, target,
        source, saved."""
        return {"material": self.material, "form": self.form, "total": self.roll.total, "target": self.target,
                "source": self.source, "saved": self.saved}


def _item_table(rules: Ruleset) -> tuple[Table, bool]:
    """The item-save matrix in force and whether it is the packaged fallback."""
    if rules["item_save_model"] == "table":
        name = str(rules["item_save_table"])
        try:
            return rules.tables.get(name), False
        except UnknownNameError:
            raise MiddleSeaError(f"item_save_model is 'table' but no table {name!r} is loaded: load the AD&D "
                                 "item-save matrix (EXT-22) or set item_save_model: dc_fallback") from None
    table = rules.tables.get(ITEM_SAVE_TABLE)
    return table, rules.tables.source_of(table.id) == "packaged"


def _material(text: str) -> str:
    return "_".join(text.strip().lower().replace("-", " ").split())


def item_save_target(material: str, form: str, rules: Ruleset | None = None) -> tuple[int, str]:
    """The target number and where it comes from: the referee's matrix, X-TAB-06, or an item_save_dc option."""
    rules = _rules(rules)
    table, fallback = _item_table(rules)
    wanted = (f"{_material(material)}/{form}", f"*/{form}")
    row = next((r for r in table.rows if str(r.key).lower() in wanted), None)
    if row is None:
        raise MiddleSeaError(f"{table.id} has no item-save row for {wanted[0]} (nor {wanted[1]})")
    option = row.data.get("dc_option")
    if fallback and option:
        return int(rules[str(option)]), f"option {option}"
    return int(row.data["target"]), f"{table.id} {row.key}"


def item_save(material: str, form: str, rng: DiceSource, rules: Ruleset | None = None, *, magic: int = 0,
              neglect: int = 0, label: str = "") -> ItemSave:
    """An item's save vs crushing blow or normal blow (AMB-97); magic adds (M-WPN-07, M-ARM-04); neglect counts
    only when the option item_neglect is on (M-WPN-08, M-ARM-05)."""
    rules = _rules(rules)
    if form not in ("crushing_blow", "normal_blow"):
        raise MiddleSeaError(f"an item saves vs crushing_blow or normal_blow, not {form!r}")
    target, source = item_save_target(material, form, rules)
    neglect = neglect if rules["item_neglect"] else 0
    roll = dice.roll("d20+MAGIC-NEGLECT", rng, {"MAGIC": magic, "NEGLECT": neglect}, label or "item save")
    return ItemSave(_material(material), form, roll, target, source)


def neglect_penalty(*, years: int = 0, months: int = 0, tropical: bool = False, item: str = "weapon",
                    material: str = "metal") -> int:
    """M-WPN-08, M-ARM-05, AMB-100: −1 per year with fewer than 4 tendings; in the tropics −1 per month for
    weapons and metal or cloth armor (leather armor keeps the yearly count). Returned as a positive number."""
    if years < 0 or months < 0:
        raise MiddleSeaError("years and months of neglect are 0 or more")
    monthly = tropical and (item == "weapon" or _material(material) in ("metal", "cloth"))
    return months if monthly else years


def _matrix_data(rules: Ruleset, key: str) -> dict[str, Any]:
    table, _ = _item_table(rules)
    data = table.data.get(key) or rules.tables.get(ITEM_SAVE_TABLE).data.get(key) or {}
    return dict(data)
