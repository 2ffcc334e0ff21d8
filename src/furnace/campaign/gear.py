"""Gear between fights: items given and taken, carried coins, loot shared out, repairs (F-LOAD-01, M-COIN-01,
REF-19, REF-22, CF-44).

What a character carries beyond her items is kept in `Character.extensions["gear"]`: `coins` (carried coins)
and `rations` (days of food, eaten by the clock, `furnace.campaign.timekeeping`). Coins weigh by the option
coin_weight (CF-44): `furnace` counts them in bundles of 1000 to the load with the rest of the gear (F-LOAD-01:
load used against 10 + STR); `middle-sea` weighs them, 100 to the pound (M-COIN-01), 1 load = 10 lb. A catalogue
without the option counts them as furnace does.

Repairs (REF-22): a broken, cracked or notched weapon is made whole, damaged armor or a damaged shield gets its
protection back; the referee confirms the days and the cost, and the cost is paid from the carried coins.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from furnace.campaign.commands import cast_of, on_member, put, rules_of
from furnace.campaign.session import chosen, split
from furnace.campaign.state import CampaignError, CampaignState
from furnace.campaign.store import Command
from furnace.characters.character import Character
from furnace.characters.equipment import load_used
from furnace.characters.facts import fact
from furnace.events import Event, declare
from furnace.rules.ruleset import Ruleset

KEY = "gear"
TORCHES = ("torch", "torches")
MAX_COINS = 10**9
MAX_ITEMS = 200            # items in one give, take or share

# what she carries after a change (`load_of`): the `load` used of her `limit` and how far `over`, and under
# coin_weight middle-sea what her coins weigh (`weighed`: coins, gems, pounds, gpe, load)
GEAR = declare("gear", items="public", taken="public", load="actor", limit="actor", over="actor", weighed="actor",
               example={"items": ["rope", "torch"], "taken": False, "load": 5, "limit": 9, "over": 0,
                        "weighed": {"coins": 1500, "gems": 0, "pounds": 15, "gpe": 150, "load": 1.5}})
COINS = declare("coins", before="actor", after="actor", change="actor", load="actor", limit="actor", over="actor",
                weighed="actor",
                example={"before": 0, "after": 1500, "change": 1500, "load": 5, "limit": 9, "over": 0})
# loot shared among the targets (`coins`, `each`, the `remainder`, the `items` and who was `dealt` which), and what
# each one takes (`coins`, `items` and her load)
LOOT = declare("loot", targets=2, coins="public", each="public", remainder="public", items="public",
               dealt="public", load="actor", limit="actor", over="actor", weighed="actor",
               example={"coins": 101, "each": 50, "remainder": 1, "items": ["ring", "cup"],
                        "dealt": {"agna1": ["ring"]}, "load": 3, "limit": 9, "over": 0})
REPAIR = declare("repair", item="public", days="public", cost="public", broken="public", cracked="public",
                 notches="public", armor_lost="public", shield_lost="public",
                 example={"item": "arming sword", "days": 2, "cost": 15, "broken": False, "cracked": True,
                          "notches": 2})


# -- what a character carries ------------------------------------------------------------------------------------
def carried(character: Character) -> dict[str, Any]:
    return dict(character.extensions.get(KEY, {}))


def coins_of(character: Character) -> int:
    return int(carried(character).get("coins", 0))


def rations_of(character: Character) -> int:
    return int(carried(character).get("rations", 0))


def with_gear(character: Character, **changes: int) -> Character:
    return character.model_copy(update={"extensions": {**character.extensions, KEY: {**carried(character), **changes}}})


def weighs_coins(rules: Ruleset) -> bool:
    """Whether coins are weighed in pounds (option coin_weight middle-sea, M-COIN-01) rather than counted in
    bundles of 1000 to the load (F-LOAD-01)."""
    option = rules.values.get("coin_weight")
    return option is not None and option.value == "middle-sea"


def load_of(character: Character, rules: Ruleset) -> dict[str, Any]:
    """What she carries weighs, as a fact's values: the load used of 10 + STR and how far over (F-LOAD-01), and
    under coin_weight middle-sea the coins' weight in pounds (M-COIN-01)."""
    used, limit = carried_load(character), character.load_limit(rules)
    out: dict[str, Any] = {"load": used, "limit": limit, "over": max(0, used - limit)}
    if weighs_coins(rules):
        from furnace.houserules.middle_sea.coins import coin_weight

        w = coin_weight(coins_of(character), 0, rules)
        out["weighed"] = {"coins": w.coins, "gems": w.gems, "pounds": float(w.pounds), "gpe": float(w.gpe),
                          "load": float(w.load)}
    return out


def load_rules(character: Character, rules: Ruleset) -> tuple[str, ...]:
    """The rules `load_of` carries out."""
    if weighs_coins(rules):
        return ("M-COIN-01", "CF-44")
    return ("F-LOAD-01", "AMB-57") if carried_load(character) > character.load_limit(rules) else ("F-LOAD-01",)


def _gear(kind: str, character: Character, rules: Ruleset, **values: Any) -> Event:
    """A fact of her gear, with what she carries after it."""
    return fact(kind, character, (), load_rules(character, rules), **values, **load_of(character, rules))


def carried_load(character: Character) -> int:
    """F-LOAD-01: the loads her items, weapons, armor, shield, coins (per 1000) and torches (per 5) take."""
    torches = sum(1 for i in character.items if i.strip().lower() in TORCHES)
    return load_used(character, coins_of(character), torches)


def _items(items: Sequence[str]) -> list[str]:
    clean = [i.strip() for i in items if i.strip()]
    if not clean:
        raise CampaignError("name at least one item")
    if len(clean) > MAX_ITEMS:
        raise CampaignError(f"at most {MAX_ITEMS} items at once")
    return clean


# -- give, take, coins --------------------------------------------------------------------------------------------
def give(who: str, items: Sequence[str]) -> Command:
    """Items go into a character's pack."""
    given = _items(items)

    def rule(c: Character, rules: Ruleset) -> tuple[Character, list[Event]]:
        after = c.model_copy(update={"items": [*c.items, *given]})
        return after, [_gear(GEAR, after, rules, items=given, taken=False)]

    return on_member(who, rule)


def without(character: Character, items: Sequence[str]) -> list[str]:
    """Her items less one of each named (matched without regard to case), or a CampaignError naming the first
    she does not carry."""
    left = list(character.items)
    for item in items:
        found = next((i for i, have in enumerate(left) if have.lower() == item.lower()), None)
        if found is None:
            have = ", ".join(left) or "nothing"
            raise CampaignError(f"{character.name} carries no {item!r} (she carries {have})")
        left.pop(found)
    return left


def take(who: str, items: Sequence[str]) -> Command:
    """Items out of a character's pack (each must be there)."""
    taken = _items(items)

    def rule(c: Character, rules: Ruleset) -> tuple[Character, list[Event]]:
        from furnace.characters.worn import pruned

        after = pruned(c.model_copy(update={"items": without(c, taken)}))
        return after, [_gear(GEAR, after, rules, items=taken, taken=True)]

    return on_member(who, rule)


def purse(who: str, change: int) -> Command:
    """Coins into (+N) or out of (-N) a character's purse; never below 0."""
    if isinstance(change, bool) or not isinstance(change, int) or abs(change) > MAX_COINS:
        raise CampaignError(f"coins change by a whole number from -{MAX_COINS:,} to +{MAX_COINS:,}, not {change!r}")

    def rule(c: Character, rules: Ruleset) -> tuple[Character, list[Event]]:
        before = coins_of(c)
        if before + change < 0:
            raise CampaignError(f"{c.name} carries {before:,} coins: {-change:,} cannot be taken")
        if before + change > MAX_COINS:
            raise CampaignError(f"{c.name} would carry more than {MAX_COINS:,} coins")
        after = with_gear(c, coins=before + change)
        return after, [_gear(COINS, after, rules, before=before, after=before + change, change=change)]

    return on_member(who, rule)


# -- loot ---------------------------------------------------------------------------------------------------------
def share_loot(items: Sequence[str], coins: int, among: Sequence[str]) -> Command:
    """Loot shared out evenly among the characters named (or the living party): the coins split, the remainder
    stated; the items dealt in turn, in the order given."""
    loot = [i.strip() for i in items if i.strip()]
    if len(loot) > MAX_ITEMS:
        raise CampaignError(f"at most {MAX_ITEMS} items at once")
    if isinstance(coins, bool) or not isinstance(coins, int) or not 0 <= coins <= MAX_COINS:
        raise CampaignError(f"the coins shared are a whole number from 0 to {MAX_COINS:,}, not {coins!r}")
    if not loot and not coins:
        raise CampaignError("nothing to share: name items or give --coins")

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        members = chosen(state, among, party=not among)
        each, left = split(coins, len(members))
        dealt: dict[str, list[str]] = {m.id: loot[i::len(members)] for i, m in enumerate(members)}
        events = [Event(LOOT, "", tuple(m.character.name for m in members), (),
                        {"coins": coins, "each": each, "remainder": left, "items": loot, "dealt": dealt}, (),
                        cast_of(members))]
        for member in members:
            mine = dealt[member.id]
            if not each and not mine:
                continue
            c = member.character
            after = with_gear(c.model_copy(update={"items": [*c.items, *mine]}), coins=coins_of(c) + each)
            state = put(state, member, after)
            events.append(_gear(LOOT, after, rules_of(state), coins=each, items=mine))
        return state, events

    return run


# -- repairs (REF-22) -----------------------------------------------------------------------------------------------
def damage_of(character: Character, item: str) -> tuple[str, dict[str, Any]]:
    """What is wrong with the item named (a weapon by name, 'armor' or the armor's key, 'shield'): its name and
    its faults (`broken`, `cracked`, `notches`; the armor's or the shield's protection lost: `armor_lost`,
    `shield_lost`); a CampaignError when there is no such item or nothing to mend."""
    from furnace.houserules.middle_sea.common import state_of

    key = item.strip().lower()
    weapon = next((w for w in character.weapons if w.name.lower() == key), None)
    if weapon is not None:
        return _wrong(character, weapon.name, {"broken": weapon.broken, "cracked": weapon.cracked,
                                               "notches": weapon.notches})
    if key in ("armor", (character.armor or "").lower()) and character.armor:
        return _wrong(character, character.armor, {"armor_lost": character.armor_damage})
    if key == "shield" and character.shield:
        return _wrong(character, "shield", {"shield_lost": int(state_of(character).get("shield_damage", 0))})
    known = [w.name for w in character.weapons] + ([character.armor] if character.armor else []) + \
        (["shield"] if character.shield else [])
    raise CampaignError(f"{character.name} has no {item!r} to repair (she has {', '.join(known) or 'nothing'})")


def _wrong(character: Character, name: str, faults: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    found = {k: v for k, v in faults.items() if v}
    if not found:
        raise CampaignError(f"{character.name}'s {name} needs no repair")
    return name, found


def mended(character: Character, item: str) -> Character:
    """The character with the item as good as new."""
    from furnace.houserules.middle_sea.common import state_of, with_state

    key = item.strip().lower()
    if any(w.name.lower() == key for w in character.weapons):
        weapons = [w.model_copy(update={"broken": False, "cracked": False, "notches": 0}) if w.name.lower() == key
                   else w for w in character.weapons]
        return character.model_copy(update={"weapons": weapons})
    if key == "shield":
        return with_state(character, {k: v for k, v in state_of(character).items() if k != "shield_damage"})
    return character.model_copy(update={"armor_damage": 0})


def repair(who: str, item: str, *, days: int, cost: int) -> Command:
    """REF-22: the item mended in the days and for the coins the referee confirmed (paid from her purse)."""
    if isinstance(days, bool) or not isinstance(days, int) or not 0 <= days <= 3650:
        raise CampaignError(f"a repair takes 0 to 3650 days, not {days!r}")
    if isinstance(cost, bool) or not isinstance(cost, int) or not 0 <= cost <= MAX_COINS:
        raise CampaignError(f"a repair costs 0 to {MAX_COINS:,} coins, not {cost!r}")

    def rule(c: Character, rules: Ruleset) -> tuple[Character, list[Event]]:
        name, faults = damage_of(c, item)
        if coins_of(c) < cost:
            raise CampaignError(f"{c.name} carries {coins_of(c):,} coins; the repair costs {cost:,} "
                                "(give her coins first, or --cost 0 if paid otherwise)")
        after = with_gear(mended(c, item), coins=coins_of(c) - cost)
        return after, [fact(REPAIR, after, (), ("REF-22",), item=name, days=days, cost=cost, **faults)]

    return on_member(who, rule)


# -- equipping (F-EQ-01..04, M-BONE-01) -----------------------------------------------------------------------------
# a piece put on (`off` False) or taken off into the pack: its `item` name and `piece` (armor, shield, helmet,
# weapon), the shield's `arm`, the armor taken off for it (`swapped`); her AC before and after, Stealth HARD in
# this armor (`stealth`), a weapon's ATK bonus and damage dice, and her load after
EQUIP = declare("equip", item="public", piece="public", off="public", arm="public", swapped="public",
                ac_before="actor", ac_after="actor", stealth="actor", atk="actor", damage="actor", load="actor",
                limit="actor", over="actor", weighed="actor",
                example={"item": "shield", "piece": "shield", "off": False, "arm": "left", "swapped": "",
                         "ac_before": 13, "ac_after": 15, "stealth": "", "atk": 0, "damage": "", "load": 5,
                         "limit": 9, "over": 0})
PIECE_RULES: dict[str, tuple[str, ...]] = {"armor": ("F-EQ-01",), "shield": ("F-EQ-01",), "helmet": ("M-ARM-01",),
                                           "weapon": ("F-EQ-04",)}


def _equip_fact(before: Character, change: Any, rules: Ruleset) -> Event:
    from furnace.characters.equipment import attack_bonus, damage_expression

    after = change.character
    values: dict[str, Any] = {"item": change.item, "piece": change.piece, "off": change.off, "arm": change.arm,
                              "swapped": change.swapped, "ac_before": before.ac(rules), "ac_after": after.ac(rules)}
    ids = PIECE_RULES[change.piece]
    if change.piece == "armor" and after.armor:
        hard = rules.tables.get("armor").lookup(after.armor).data.get("stealth") == "HARD"
        values["stealth"] = "HARD" if hard else ""
        ids += ("F-EQ-02",) if hard else ()
    if change.piece == "weapon" and not change.off:
        weapon = after.weapons[-1]
        values |= {"atk": attack_bonus(after, weapon, rules), "damage": damage_expression(after, weapon, rules)}
    return fact(EQUIP, after, (), ids + load_rules(after, rules), **values, **load_of(after, rules))


def equip(who: str, item: str, *, arm: str | None = None, row: str | None = None) -> Command:
    """A piece from her pack worn or wielded (armor, shield, helmet, weapon); what it changes follows (AC, ATK,
    Stealth, load, the item saves). A broken arm holds no shield or weapon (M-BONE-01): refused, with why."""
    from furnace.characters.worn import equip as put_on

    if arm not in (None, "left", "right"):
        raise CampaignError(f"a shield is borne on the left or the right arm, not {arm!r}")

    def rule(c: Character, rules: Ruleset) -> tuple[Character, list[Event]]:
        change = put_on(c, item, rules, arm=arm, row=row)  # type: ignore[arg-type]
        return change.character, [_equip_fact(c, change, rules)]

    return on_member(who, rule)


def unequip(who: str, item: str) -> Command:
    """A piece she wears or wields put in her pack, as it is (its notches, lost protection or plus kept)."""
    from furnace.characters.worn import unequip as take_off

    def rule(c: Character, rules: Ruleset) -> tuple[Character, list[Event]]:
        change = take_off(c, item, rules)
        return change.character, [_equip_fact(c, change, rules)]

    return on_member(who, rule)
