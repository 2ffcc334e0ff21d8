"""A magic item's power used in a fight (F-MAGIC-02, AMB-59): the "use" action, limited by the item's uses a day.

The Shield of Shielding's "+1d4 AC for 1 round, once a day" (F-TAB-27): an entry with `data.applies_to: ac` and
dice gives a held AC bonus (MOD:ac:BONUS, read by the ATK against her) until her turn after the entry's
duration; an entry's effects (Mjölnir's CHILL, F-TAB-28) are applied to the action's target, except a damage
effect that lasts (Mjölnir's +2d8 DAM for 1d4 rounds): she holds it (MOD:damage:EXTRA) and its dice are added
to each of her hits until it ends. The uses left
today come into the fight from the character (`Character.extensions["magic_items"]`, the first use of a day
rolls a charge as `use_item` does) and go back out of it (`settle_items`, the engine's AFTERMATH_HOOKS).
"""

from __future__ import annotations

from typing import TypeGuard

from furnace import dice
from furnace.characters.character import Character
from furnace.characters.facts import fact
from furnace.errors import IllegalActionError, UnknownNameError
from furnace.events import Event, declare
from furnace.magic.items import (
    ITEM_CHARGES,
    ITEM_USE,
    USES_KEY,
    Item,
    charge_values,
    daily_uses,
    get_item,
    uses_left,
)
from furnace.magic.state import magic_state, with_magic
from furnace.play.apply import apply_all
from furnace.play.attacks import EXTRA_DAMAGE
from furnace.play.combatant import Combatant
from furnace.play.conditions import Held, modifier_name
from furnace.play.state import Encounter, Step
from furnace.rules.effects import Damage, Effect
from furnace.rules.ruleset import Ruleset

# a power used in a fight (a held AC bonus, extra DAM on each hit) until her turn in a round; the uses left today
# that a fight leaves on the character
ITEM_POWER = declare("item_power", item="actor", ac_bonus="actor", extra_damage="actor", until_round="public",
                     example={"item": "Shield of Shielding", "ac_bonus": 3, "extra_damage": "", "until_round": 2})
ITEMS_AFTER_FIGHT = declare("items_after_fight", uses="actor", example={"uses": {"Shield of Shielding": 0}})


class UseItem:
    """Using a magic item's power as the turn's action (F-CMBT-01), registered with the engine as "use"."""

    def run(self, step: Step, cid: str, target: str, detail: str | None) -> None:
        c = step.c(cid)
        item = get_item(step.rules, detail or "")
        if item.name not in magic_state(c).item_uses:
            raise IllegalActionError(f"{c.name} does not carry {item.name}")
        left = _uses_today(step, c, item)
        rounds = _rounds(step, item)
        for entry in item.entries:
            if entry.data.get("applies_to") == "ac" and entry.data.get("dice"):
                r = step.roll(str(entry.data["dice"]), f"{item.name}: {entry.data.get('effect', 'AC')}")
                bonus = Held(name=modifier_name("ac", "BONUS"), value=r.total, source=item.name,
                             until_round=step.enc.round + rounds)
                c = step.update(cid, held=(*step.c(cid).held, bonus))
                step.fact(ITEM_POWER, cid, (), (r,), ("F-MAGIC-02",), item=item.name, ac_bonus=r.total,
                          until_round=step.enc.round + rounds)
            lasting = [e for e in entry.effect_list() if _lasting_damage(e)]
            for e in lasting:   # "+2d8 DAM for 1d4 rounds": added to each of her hits while it lasts
                extra = Held(name=EXTRA_DAMAGE, source=item.name, until_round=step.enc.round + rounds,
                             effect={"dice": str(e.dice)})
                c = step.update(cid, held=(*step.c(cid).held, extra))
                step.fact(ITEM_POWER, cid, (), (), ("F-MAGIC-02",), item=item.name, extra_damage=str(e.dice),
                          until_round=step.enc.round + rounds)
            others = [e for e in entry.effect_list() if not _lasting_damage(e)]
            if others:
                apply_all(step, others, actor=cid, target=target)
        if left is not None:
            now = step.c(cid)
            step.update(cid, **with_magic(now, item_uses={**magic_state(now).item_uses, item.name: left - 1}))
            step.fact(ITEM_USE, cid, (), (), ("AMB-59",), item=item.name, before=left, left=left - 1)

    def tactic(self, enc: Encounter, c: Combatant, target: str) -> str | None:
        """The automatic tactic keeps the day's uses for the players to spend."""
        return None

    def details(self, c: Combatant) -> tuple[str, ...]:
        """Her magic items with a use left today (asked at every turn of the automatic tactic: most have none)."""
        uses = magic_state(c).item_uses
        if not uses:
            return ()
        return tuple(name for name, left in uses.items() if left is None or left > 0)


def _lasting_damage(effect: Effect) -> TypeGuard[Damage]:
    """A damage effect with a duration and no period: extra DAM on the user's hits while it lasts, not a blow
    now (damage `every` round is damage over time, applied as an effect)."""
    return isinstance(effect, Damage) and effect.duration is not None and effect.every is None


def _uses_today(step: Step, c: Combatant, item: Item) -> int | None:
    """The uses left today (None: no daily limit); the first use of the day gets the day's uses (AMB-59)."""
    if item.uses is None:
        return None
    left = magic_state(c).item_uses.get(item.name)
    if left is None:
        left, roll = daily_uses(item.uses, step.rng, step.rules)
        step.fact(ITEM_CHARGES, c.id, (), (roll,) if roll else (), ("AMB-59",), **charge_values(item, left, roll))
    if left < 1:
        raise IllegalActionError(f"{c.name} has no use of {item.name} left today (AMB-59)")
    return left


def _rounds(step: Step, item: Item) -> int:
    """How many rounds the power lasts: the item's duration entry ("for 1 round"; "1d4 rounds" is rolled)."""
    for entry in item.entries:
        duration = entry.data.get("duration")
        if isinstance(duration, dict) and duration.get("unit") in ("round", "next_turn"):
            return max(1, dice.roll(str(duration.get("amount", "1")), step.rng, label="duration").total)
    return 1


def carry_items(character: Character, c: Combatant, rules: Ruleset) -> Combatant:
    """The magic items she carries, with their uses left today (COMBATANT_HOOKS)."""
    uses: dict[str, int | None] = {}
    for name in character.items:
        try:
            item = get_item(rules, name)
        except UnknownNameError:
            continue
        uses[item.name] = uses_left(character, item.name)
    return c.model_copy(update=with_magic(c, item_uses={**magic_state(c).item_uses, **uses})) if uses else c


def settle_items(character: Character, c: Combatant, rules: Ruleset, events: list[Event]) -> Character:
    """The uses she spent in the fight count for the rest of the day (AMB-59; AFTERMATH_HOOKS)."""
    spent = {name: left for name, left in magic_state(c).item_uses.items()
             if left is not None and left != uses_left(character, name)}
    if not spent:
        return character
    events.append(fact(ITEMS_AFTER_FIGHT, character, (), ("AMB-59",), uses=dict(spent)))
    state = {**character.extensions.get(USES_KEY, {}), **spent}
    return character.model_copy(update={"extensions": {**character.extensions, USES_KEY: state}})
