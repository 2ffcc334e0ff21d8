"""Magic items: a tier's Magic Item Dice are a budget the item's entries spend (F-MAGIC-01…04).

An item is a keyed table (`item-…`): an `item` row (type, tier, budget, total_cost, curse) and one row
per entry with its cost in dice ('(-)' entries such as "for 1 round" or "once a day" cost 0). A file
whose entries do not add up to the tier's dice is refused with the count (F-TAB-25, AMB-59). Every field
is checked and named when wrong: an entry's cost (a whole number of dice from 0 to the tier's), budget,
tier (one of the tier table's), cursed (true or false); the builder's name, type, tier and kind.

Daily uses (AMB-59, F-MAGIC-02): an entry's `data.uses_per_day` (a whole number: "once a day") or
`data.charges` (dice: "a charge of 1d4 a day") limits the item's power. The option `magic_item_charges`
reads a charge: `daily_roll` rolls it at the first use of the day, `fixed_max` takes the die's maximum. The
uses left are kept per item on the character (`Character.extensions["magic_items"]`) and renewed when a new in-game
day starts (`furnace.magic.casting.new_day`, from the campaign clock's day end), or at each long rest
(LONG_REST_HOOKS) under the option `magic_item_uses_renew: long_rest`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from furnace import dice
from furnace.characters.character import Character
from furnace.characters.facts import fact
from furnace.dice import DiceSource, RollResult
from furnace.errors import DataFileError, FurnaceError, IllegalActionError, UnknownNameError
from furnace.events import Event, declare
from furnace.magic.spells import dice_count
from furnace.play.rest import LONG_REST_HOOKS
from furnace.rules.effects import shown
from furnace.rules.ruleset import Ruleset
from furnace.rules.tables import Row, Table

MAX_NAME = 80         # characters in an item's name or type

# the facts of a magic item's daily uses, in a fight (`furnace.magic.item_powers`) and out of one (AMB-59): the
# day's uses at its first use (a charge rolled, its maximum, or a number a day), a use and what is left, the
# uses renewed by a new day or a long rest
ITEM_CHARGES = declare("item_charges", item="actor", uses="actor", left="actor", rolled="actor", fixed_max="public",
                       example={"item": "Ring of Warding", "uses": "1d4", "left": 2, "rolled": 2,
                                "fixed_max": False})
ITEM_USE = declare("item_use", item="actor", used="public", before="actor", left="actor", unlimited="public",
                   powers="actor",
                   example={"item": "Shield of Shielding", "used": True, "left": 0, "unlimited": False,
                            "powers": [["1d4", 3]]})
ITEMS_RENEWED = declare("items_renewed", items="actor", example={"items": ["Shield of Shielding"]})


@dataclass(frozen=True)
class Item:
    name: str
    table: Table
    item_type: str
    tier: str
    budget: int
    entries: tuple[Row, ...]
    cursed: bool = False
    uses: str | None = None     # uses a day: a whole number or a charge's dice (AMB-59); None: no daily limit

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
    table = rules.tables.get("item-tiers")
    if not isinstance(tier, str):
        raise UnknownNameError("tier in item-tiers", repr(tier), table.keys())
    row = table.lookup(tier.lower())
    return dice_count(row.data.get("dice"), f"tier {tier}: data.dice", rules.tables.source_of(table.id),
                       table.rows.index(row) + 1)


def item_from_table(table: Table, rules: Ruleset) -> Item:
    if not isinstance(table, Table):
        raise UnknownNameError("item table", repr(table)[:60])
    where = rules.tables.source_of(table.id)
    if table.kind != "keyed":
        raise DataFileError(where, "an item is a keyed table: an 'item' row and one row per entry")
    head = table.lookup("item").data
    tier = head.get("tier", "common")
    tiers = rules.tables.get("item-tiers").keys()
    if not isinstance(tier, str) or tier.lower() not in tiers:
        raise DataFileError(where, f"data.tier: {tier!r} is not one of {', '.join(tiers)}", 1)
    budget = tier_dice(tier, rules)
    entries = tuple(r for r in table.rows if str(r.key) != "item")
    cost = sum(dice_count(r.data.get("cost"), f"entry {r.key}: data.cost", where, i)
               for i, r in enumerate(table.rows, 1) if str(r.key) != "item")
    stated = dice_count(head.get("budget", budget), "data.budget", where, 1)
    if not isinstance(head.get("cursed", False), bool):
        raise DataFileError(where, f"data.cursed: {head.get('cursed')!r} is not true or false", 1)
    if not isinstance(head.get("item_type", "item"), str):
        raise DataFileError(where, f"data.item_type: {head.get('item_type')!r} is not text", 1)
    if stated != budget:
        raise DataFileError(where, f"a {tier} item has {budget} Magic Item Dice, not {head.get('budget')}", 1)
    if cost != budget:
        verb = "overspends" if cost > budget else "underspends"
        raise DataFileError(where, f"the item {verb}: its entries cost {cost} dice where a {tier} item has {budget}")
    name = table.title.split(":")[-1].strip()
    return Item(name, table, str(head.get("item_type", "item")), tier, budget, entries, bool(head.get("cursed")),
                _uses(table, where))


def _uses(table: Table, where: str) -> str | None:
    """AMB-59: the item's uses a day, from its entries' data.uses_per_day (a whole number) or data.charges (dice)."""
    for i, row in enumerate(table.rows, 1):
        if "charges" in row.data:
            charge = row.data["charges"]
            try:
                dice.parse(str(charge))
            except FurnaceError as exc:
                raise DataFileError(where, f"entry {row.key}: data.charges: {shown(charge)} is not dice ({exc})",
                                    i) from None
            return str(charge)
        if "uses_per_day" in row.data:
            return str(dice_count(row.data["uses_per_day"], f"entry {row.key}: data.uses_per_day", where, i))
    return None


def get_item(rules: Ruleset, name: str) -> Item:
    if not isinstance(name, str):
        raise UnknownNameError("magic item", repr(name))
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
    name = _text("name", name)
    item_type = _text("type", item_type)
    if damage_type is not None:
        damage_type = _text("damage type", damage_type)
    if not isinstance(kind, str) or kind not in ITEM_DIE:
        raise ItemError(f"kind: {shown(kind)} is not one of {', '.join(ITEM_DIE)}")
    if not isinstance(cursed, bool):
        raise ItemError(f"cursed: {shown(cursed)} is not true or false")
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
    slug = "-".join("".join(ch if ch.isalnum() and ch.isascii() else " " for ch in _plain(name)).split()) or "item"
    return {"id": f"house:item-{slug}", "name": f"item-{slug}", "title": f"Magic item: {name}",
            "source": "Furnace item builder (F-MAGIC-01…04): proposed entries for the referee to edit",
            "kind": "keyed", "key_name": "component", "rules": ["F-MAGIC-01", "F-MAGIC-02", "F-MAGIC-04"],
            "rows": rows}


class ItemError(FurnaceError):
    """An item the builder cannot make: a blank name, an unknown kind …"""


def _text(field: str, value: object) -> str:
    """A name for the builder: text of 1 to MAX_NAME characters, with letters or digits, no control characters."""
    if not isinstance(value, str):
        raise ItemError(f"{field}: text of 1 to {MAX_NAME} characters, not {type(value).__name__}")
    text = " ".join(value.split())
    if not text or not any(ch.isalnum() for ch in text) or len(text) > MAX_NAME:
        raise ItemError(f"{field}: {value[:MAX_NAME]!r} is not text of 1 to {MAX_NAME} characters with a letter or "
                        "a digit")
    return text


def _dice_word(n: int) -> str:
    return f"{n} die" if n == 1 else f"{n} dice"


def build_item(data: dict[str, Any], rules: Ruleset) -> Item:
    """Validate a proposed (or edited) item like an item file: the table, then the tier's budget."""
    from furnace.rules.tables import validate_table

    table = validate_table(data, "<item builder>")
    if not is_item(table):
        raise DataFileError("<item builder>", "an item is a keyed table named item-… with an 'item' row")
    return item_from_table(table, replace(rules, tables=rules.tables.with_table(table)))


# -- daily uses (AMB-59, F-MAGIC-02, option magic_item_charges) -------------------------------------------------
USES_KEY = "magic_items"     # Character.extensions["magic_items"]: {item name: uses left today}


def daily_uses(charge: str, rng: DiceSource, rules: Ruleset) -> tuple[int, RollResult | None]:
    """A day's uses of a charge (AMB-59): `daily_roll` rolls it, `fixed_max` takes its maximum (no roll)."""
    expression = dice.parse(charge)
    if rules["magic_item_charges"] == "fixed_max":
        return expression.bounds()[1], None
    roll = expression.roll(rng, label="charges")
    return roll.total, roll


def uses_left(character: Character, item: str) -> int | None:
    """The uses of the item left today; None until its first use of the day."""
    value = character.extensions.get(USES_KEY, {}).get(item)
    return None if value is None else int(value)


def use_item(character: Character, name: str, rng: DiceSource, rules: Ruleset,
             ) -> tuple[Character, list[Event]]:
    """Use a magic item's power once: the first use of the day gets the day's uses (a charge rolled under
    `daily_roll`, its maximum under `fixed_max`); none left is refused. The power's dice (e.g. +1d4 AC) are
    rolled for the log."""
    item = get_item(rules, name)
    if item.uses is None:
        rolls = _power(item, rng)
        return character, [fact(ITEM_USE, character, rolls, ("F-MAGIC-02",), item=item.name, used=True,
                                unlimited=True, powers=_powers(rolls))]
    events: list[Event] = []
    left = uses_left(character, item.name)
    if left is None:
        left, roll = daily_uses(item.uses, rng, rules)
        events.append(fact(ITEM_CHARGES, character, (roll,) if roll is not None else (), ("AMB-59",),
                           **charge_values(item, left, roll)))
    if left < 1:
        raise IllegalActionError(f"{character.name} has no use of {item.name} left today (AMB-59)")
    rolls = _power(item, rng)
    events.append(fact(ITEM_USE, character, rolls, ("F-MAGIC-02", "AMB-59"), item=item.name, used=True, before=left,
                       left=left - 1, powers=_powers(rolls)))
    state = {**character.extensions.get(USES_KEY, {}), item.name: left - 1}
    return character.model_copy(update={"extensions": {**character.extensions, USES_KEY: state}}), events


def charge_values(item: Item, left: int, roll: RollResult | None) -> dict[str, Any]:
    """What the item_charges fact keeps of the day's uses at an item's first use (AMB-59): a charge rolled, its
    maximum (magic_item_charges: fixed_max), or a number a day."""
    values: dict[str, Any] = {"item": item.name, "uses": item.uses, "left": left}
    if not _whole(item.uses):
        values |= {"rolled": roll.total} if roll is not None else {"fixed_max": True}
    return values


def _whole(uses: str | None) -> bool:
    return uses is not None and uses.strip().isdigit()


def _power(item: Item, rng: DiceSource) -> tuple[RollResult, ...]:
    return tuple(dice.roll(str(r.data["dice"]), rng, label="power") for r in item.entries if r.data.get("dice"))


def _powers(rolls: tuple[RollResult, ...]) -> list[list[Any]]:
    """Each power's dice and what they rolled ("1d4", 3)."""
    return [[r.expression, r.total] for r in rolls]


def renew_uses(character: Character, events: list[Event]) -> Character:
    """A new day: every magic item's uses come back (rolled again at its first use, AMB-59)."""
    if not character.extensions.get(USES_KEY):
        return character
    events.append(fact(ITEMS_RENEWED, character, (), ("AMB-59",), items=sorted(character.extensions[USES_KEY])))
    return character.model_copy(update={"extensions": {k: v for k, v in character.extensions.items()
                                                       if k != USES_KEY}})


def _long_rest(character: Character, rng: DiceSource, rules: Ruleset, events: list[Event]) -> Character:
    """AMB-59 under magic_item_uses_renew: long_rest; by default the day governs them (`day_renews`)."""
    return renew_uses(character, events) if rules["magic_item_uses_renew"] == "long_rest" else character


def day_renews(rules: Ruleset) -> bool:
    """Whether a new in-game day gives the items' uses back (option magic_item_uses_renew, AMB-14)."""
    return bool(rules["magic_item_uses_renew"] == "new_day")


LONG_REST_HOOKS.add("magic-items", _long_rest)
