"""Magic items: a tier's Magic Item Dice are a budget the item's entries spend (F-MAGIC-01…04).

An item is a keyed table (`item-…`): an `item` row (type, tier, budget, total_cost, curse) and one row
per entry with its cost in dice ('(-)' entries such as "for 1 round" or "once a day" cost 0). A file
whose entries do not add up to the tier's dice is refused with the count (F-TAB-25, AMB-59).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from furnace.errors import DataFileError, UnknownNameError
from furnace.rules.ruleset import Ruleset
from furnace.rules.tables import Row, Table


@dataclass(frozen=True)
class Item:
    name: str
    table: Table
    item_type: str
    tier: str
    budget: int
    entries: tuple[Row, ...]
    cursed: bool = False

    def explain(self) -> str:
        spent = " + ".join(f"{r.text}" for r in self.entries)
        curse = " (cursed)" if self.cursed else ""
        return f"{self.name}: {self.tier} {self.item_type}{curse}, {self.budget} Magic Item Dice: {spent}"

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "type": self.item_type, "tier": self.tier, "budget": self.budget,
                "cursed": self.cursed, "entries": [r.model_dump(mode="json", exclude_defaults=True)
                                                   for r in self.entries]}


def is_item(table: Table) -> bool:
    return table.name.startswith("item-") and any(str(r.key) == "item" for r in table.rows)


def tier_dice(tier: str, rules: Ruleset) -> int:
    """Common 0, Uncommon 1, Rare 3, Epic 5 (F-TAB-25; four tiers, CF-18)."""
    return int(rules.tables.get("item-tiers").lookup(tier.lower()).data["dice"])


def item_from_table(table: Table, rules: Ruleset) -> Item:
    where = rules.tables.source_of(table.id)
    head = table.lookup("item").data
    tier = str(head.get("tier", "common"))
    budget = tier_dice(tier, rules)
    entries = tuple(r for r in table.rows if str(r.key) != "item")
    cost = sum(int(r.data.get("cost") or 0) for r in entries)
    if int(head.get("budget", budget)) != budget:
        raise DataFileError(where, f"a {tier} item has {budget} Magic Item Dice, not {head.get('budget')}", 1)
    if cost != budget:
        verb = "overspends" if cost > budget else "underspends"
        raise DataFileError(where, f"the item {verb}: its entries cost {cost} dice where a {tier} item has {budget}")
    name = table.title.split(":")[-1].strip()
    return Item(name, table, str(head.get("item_type", "item")), tier, budget, entries, bool(head.get("cursed")))


def get_item(rules: Ruleset, name: str) -> Item:
    wanted = _plain(name)
    for t in rules.tables:
        if is_item(t) and wanted in (t.id.lower(), t.name, t.name.removeprefix("item-"),
                                     _plain(t.title.split(":")[-1])):
            return item_from_table(t, rules)
    raise UnknownNameError("magic item", name, [t.name.removeprefix("item-") for t in rules.tables if is_item(t)])


def _plain(text: str) -> str:
    """Lower case without accents, so 'Mjolnir' finds 'Mjölnir'."""
    import unicodedata

    return "".join(ch for ch in unicodedata.normalize("NFKD", text.strip().lower()) if not unicodedata.combining(ch))


def all_items(rules: Ruleset) -> list[Item]:
    return [item_from_table(t, rules) for t in rules.tables if is_item(t)]


# -- the item builder ----------------------------------------------------------------------------------
ITEM_DIE = {"effect": "d4", "ranged": "d6", "melee": "d8"}   # F-TAB-26


def propose_item(name: str, item_type: str, tier: str, kind: str, rules: Ruleset, *,
                 damage_type: str | None = None, cursed: bool = False) -> dict[str, Any]:
    """An item table whose entries spend exactly the tier's Magic Item Dice (F-MAGIC-01…04): the dice go
    to the item's effect, then a duration, then more effect; 'once a day' is free. For the referee to edit."""
    budget = tier_dice(tier, rules)
    die = ITEM_DIE[kind]
    kind_word = {"effect": "AC", "ranged": f"{damage_type + ' ' if damage_type else ''}DAM",
                 "melee": f"{damage_type + ' ' if damage_type else ''}DAM"}[kind]
    effect_dice = max(1, budget - (budget // 3)) if budget else 0
    duration_dice = budget - effect_dice
    rows: list[dict[str, Any]] = [{"key": "item", "text": f"{name}: {tier} {item_type}, {budget} Magic Item Dice.",
                                   "data": {"item_type": item_type, "tier": tier.lower(), "budget": budget,
                                            "total_cost": budget, "cursed": cursed}}]
    if effect_dice:
        rows.append({"key": "effect", "text": f"+{effect_dice}{die} {kind_word} ({_dice_word(effect_dice)}).",
                     "data": {"effect": f"+{effect_dice}{die} {kind_word}", "dice": f"{effect_dice}{die}",
                              "cost": effect_dice}})
    rows.append({"key": "duration", "text": f"Lasts {duration_dice}d4 rounds ({_dice_word(duration_dice)})."
                 if duration_dice else "Lasts 1 round (free).",
                 "data": {"effect": "duration", "cost": duration_dice}})
    rows.append({"key": "uses", "text": "Once a day (free).", "data": {"uses_per_day": 1, "cost": 0}})
    if cursed:
        rows.append({"key": "curse", "text": "Cursed: the referee writes the curse (F-MAGIC-04).",
                     "effects": [{"kind": "referee_prompt", "prompt": f"the curse of {name}"}],
                     "data": {"curse": True, "cost": 0}})
    slug = "-".join(name.lower().split())
    return {"id": f"house:item-{slug}", "name": f"item-{slug}", "title": f"Magic item: {name}",
            "source": "Furnace item builder (F-MAGIC-01…04): proposed entries for the referee to edit",
            "kind": "keyed", "key_name": "component", "rules": ["F-MAGIC-01", "F-MAGIC-02", "F-MAGIC-04"],
            "rows": rows}


def _dice_word(n: int) -> str:
    return f"{n} die" if n == 1 else f"{n} dice"


def build_item(data: dict[str, Any], rules: Ruleset) -> Item:
    """Validate a proposed (or edited) item like an item file: the table, then the tier's budget."""
    from furnace.rules.tables import validate_table

    table = validate_table(data, "<item builder>")
    return item_from_table(table, replace(rules, tables=rules.tables.with_table(table)))
