"""The tellers of magic facts: SPELLCHECKs and what they buy, mishaps and disapproval, Spell Depletion, Lay on
Hands, cantrips, summons and magic items (`furnace.magic`).

The caster's numbers are known as she is: a PC's by the table, a monster's by the referee alone, so a player
reads that something unseen casts a spell at her, and what it does to her in the facts of its effects.
"""

from __future__ import annotations

from collections.abc import Iterable

from furnace.events import Event
from furnace.render.story import teller
from furnace.render.story.view import View

FAILURE_BELOW = 12      # a total of 11 or less is a Failure (F-TAB-11)


def _n(v: View, e: Event, key: str) -> str:
    value = v.value(e, key)
    return "" if value is None else str(value)


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _plural(count: object, word: str, many: str | None = None) -> str:
    return word if count == 1 else (many or word + "s")


def _target(e: Event, v: View) -> str:
    """Whom the fact names besides the actor: a participant, or a creature named out of a fight."""
    if e.targets and e.targets[0] != e.actor:
        return v.name(e, e.targets[0])
    return ""


# -- the SPELLCHECK and what it buys (F-SPELL-02…10) ---------------------------------------------------------------
@teller("spellcheck")
def spellcheck(e: Event, v: View) -> str:
    what = _cast(e, v)
    steps = _steps(e, v)
    return f"{what}: {'; '.join(steps)}" if steps else what


def _cast(e: Event, v: View) -> str:
    """'casts Fireball at the ogre', 'Lay on Hands to cure poison on Bryn'."""
    target = _target(e, v)
    if e.data.get("prayer") == "lay_on_hands":
        cure = f" to cure {e.data.get('condition')}" if e.data.get("condition") else ""
        return f"Lay on Hands{cure}" + (f" on {target}" if target else "")
    spell = v.value(e, "spell")
    return f"casts {spell or 'a spell'}" + (f" at {target}" if target else "")


def _steps(e: Event, v: View) -> list[str]:
    d = e.data
    total = _int(v.value(e, "total"))
    if total is None:       # a monster's SPELLCHECK: its outcome only
        if d.get("mishap"):
            return ["a mishap"]
        return ["the spell works" if d.get("success") else "the spell fails"]
    steps = [f"{_signed(value)} ({source}) to the SPELLCHECK" for value, source in _pairs(d.get("state"))]
    rolled = _int(d.get("rolled"))
    if d.get("crit"):
        bonus = _int(d.get("crit_bonus")) or 0
        steps.append(f"natural 20: triple PROF, total {rolled} + {bonus} = {(rolled or 0) + bonus}")
    shift = _int(d.get("shift"))
    if shift:
        read = _int(d.get("sl_from")) or 0
        steps.append(f"the SL is read from {read - shift} {'+' if shift > 0 else '−'} {abs(shift)} = {read} "
                     "(EASY and HARD shift it)")
    luck = _int(d.get("luck_dice"))
    if luck:
        steps.append(f"{luck} Luck {_plural(luck, 'Die', 'Dice')}: total {d.get('luck_before')} → "
                     f"{d.get('luck_after')}, SL {d.get('sl_before')} → {d.get('sl_after')} (at most one step)")
    if d.get("low_total"):
        steps.append(f"a total of {rolled}: a mishap (the mishap trigger counts a total of 1 or less)")
    steps.append(_verdict(e, total))
    return steps


def _verdict(e: Event, total: int) -> str:
    d = e.data
    if d.get("mishap") and d.get("natural") == 1:
        return "natural 1: a mishap"
    band = _int(d.get("band")) or 0
    if band == 0:
        return f"total {total}: Failure ({FAILURE_BELOW - 1} or less)"
    if not d.get("success"):
        return f"total {total} is SL{band} but misses {dc_words(e)}: the spell fails"
    dice = d.get("spell_dice")
    bought = "a WONDER (the referee decides)" if d.get("wonder") else f"{dice} Spell {_plural(dice, 'Die', 'Dice')}"
    return f"total {total} ≥ {d.get('needed')}: SL{d.get('sl')}, {bought}"


def dc_words(e: Event) -> str:
    """'DC 15 (ROOM DC 12; HARD +3 (a scroll))': the DC and what moved it."""
    d = e.data
    parts = [f"EASY −3 ({s})" for s in _words(d.get("easy"))] + [f"HARD +3 ({s})" for s in _words(d.get("hard"))]
    parts += [f"{s} counted once" for s in _words(d.get("dc_repeats"))]
    if d.get("dc_capped"):
        up = len(_words(d.get("hard"))) > len(_words(d.get("easy")))
        parts.append(f"the net is capped at {'+' if up else '−'}3 (EASY and HARD cancel one for one)")
    if not parts:
        return f"DC {d.get('dc')}"
    return f"DC {d.get('dc')} (ROOM DC {d.get('room_dc')}; {'; '.join(parts)})"


def _words(value: object) -> list[str]:
    return [str(x) for x in value] if isinstance(value, list | tuple) else []


def _pairs(value: object) -> Iterable[tuple[int, str]]:
    for pair in value if isinstance(value, list | tuple) else ():
        if isinstance(pair, list | tuple) and len(pair) == 2 and _int(pair[0]) is not None:
            yield int(pair[0]), str(pair[1])


def _signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"


@teller("spell")
def spell(e: Event, v: View) -> str | None:
    name = v.value(e, "spell")
    if name is None:
        return None         # a monster's spell: what it does to her side is told by its effects
    text = f"{name} SL{e.data.get('sl')}: {e.data.get('text')}"
    extra = e.data.get("crit_dice")
    if extra:
        text += (f"; natural 20: +{extra} to the damage" if e.data.get("crit_damage")
                 else f"; natural 20: {extra} more Spell Dice for the referee to place")
    return text


@teller("effect")
def spell_damage(e: Event, v: View) -> str | None:
    amount = v.value(e, "amount")
    if amount is None:
        return None         # a monster's spell: the damage taken is told to each it reaches
    kind = f" {e.data.get('type')}" if e.data.get("type") else ""
    return f"{e.data.get('spell') or 'the spell'} deals {amount}{kind} DAM"


@teller("summon")
def summon(e: Event, v: View) -> str:
    count, creature = v.value(e, "count"), v.value(e, "creature")
    if count is None or creature is None:
        return "raises creatures to fight"
    rounds = v.value(e, "rounds")
    lasts = f" for {rounds} {_plural(rounds, 'round')}" if rounds is not None else ""
    name = str(creature)
    return f"raises {count} {name if count == 1 else name if name.endswith('s') else name + 's'}{lasts}"


@teller("cantrip")
def cantrip(e: Event, v: View) -> str:
    target = _target(e, v) or str(e.data.get("target") or "")
    at = (f" at {target}" if e.targets else f" on {target}") if target else ""
    name = v.value(e, "cantrip")
    if name is None:
        return f"casts a cantrip{at}"
    return f"casts the cantrip {name}{at} (no SPELLCHECK): {e.data.get('text')}"


# -- mishaps, disapproval, Spell Depletion (F-SPELL-10/11, F-CLR-04, F-MU-04, AMB-21) ---------------------------
def _row(e: Event, v: View) -> str:
    """'3 → The caster takes 1d6 fire DAM' (the row's span when it is not the total alone)."""
    total, row, text = v.value(e, "total"), v.value(e, "row"), v.value(e, "text")
    rolled = f"{total} (row {row})" if row is not None and str(row) != str(total) else str(total)
    return f"{rolled} → {text}"


@teller("mishap")
def mishap(e: Event, v: View) -> str:
    if v.value(e, "total") is None:
        return "suffers a magical mishap"
    return f"a magical mishap ({e.data.get('title')}): {_row(e, v)}"


@teller("disapproval")
def disapproval(e: Event, v: View) -> str:
    if v.value(e, "total") is None:
        return "suffers divine disapproval"
    return f"divine disapproval (range {_n(v, e, 'range')}): {_row(e, v)}"


@teller("disapproval_range")
def disapproval_range(e: Event, v: View) -> str:
    if v.value(e, "before") is None:
        return "her disapproval range widens"
    return f"her disapproval range widens: {_n(v, e, 'before')} → {_n(v, e, 'after')}"


@teller("mishap_spell")
def mishap_spell(e: Event, v: View) -> str:
    whom = _target(e, v) if e.targets else str(e.data.get("creature") or "")
    if e.targets and e.targets[0] == e.actor:
        whom = "herself"
    on = f" on {whom}" if whom else " on a target the referee picks"
    name = v.value(e, "spell")
    if name is None:
        return f"a spell goes off{on}"
    text = "no row for this SL: the referee decides" if e.data.get("no_row") else e.data.get("text")
    return f"the mishap lets {name} loose at SL{e.data.get('sl')}{on}: {text}"


@teller("depletion")
def depletion(e: Event, v: View) -> str:
    total = v.value(e, "total")
    numbers = f" {total} vs DC {e.data.get('dc')}" if total is not None else ""
    head = f"Spell Depletion after {e.data.get('spells')} spells: INT SAVE{numbers}"
    if e.data.get("saved"):
        return f"{head} holds; the count starts again"
    return f"{head} fails: no casting until a rest"


# -- Lay on Hands (F-CLR-05…08) ------------------------------------------------------------------------------------
@teller("lay_on_hands")
def lay_on_hands(e: Event, v: View) -> str:
    recipient = v.name(e, e.targets[0]) if e.targets else "the recipient"
    total = v.value(e, "total")
    bought = f"{total} → {e.data.get('hd')} HD" if total is not None else f"{e.data.get('hd')} HD"
    extra = _int(e.data.get("crit_hd"))
    crit = f" (a natural 20: +{extra} HD)" if extra else ""
    pool = v.value(e, "pool")
    limits = (f" (pool {pool}, today {_n(v, e, 'today')}/{_n(v, e, 'cap')})" if pool is not None else "")
    return f"Lay on Hands: {bought}{crit}; {recipient} may spend {e.data.get('allowed')}{limits}"


@teller("cure_asked")
def cure_asked(e: Event, v: View) -> str | None:
    if not v.referee:
        return None
    recipient = v.name(e, e.targets[0]) if e.targets else "the recipient"
    return (f"for the referee: may Lay on Hands cure {recipient}'s {e.data.get('condition')}? Approve it to roll "
            "the SPELLCHECK")


@teller("cure")
def cure(e: Event, v: View) -> str:
    recipient = v.name(e, e.targets[0]) if e.targets else "the recipient"
    if e.data.get("cured"):
        return f"Lay on Hands cures {recipient}'s {e.data.get('condition')} (no HP healed)"
    return f"Lay on Hands finds no {e.data.get('condition')} on {recipient} to cure"


@teller("extra_hit_die")
def extra_hit_die(e: Event, v: View) -> str:
    total = v.value(e, "total")
    save = f"CON SAVE {total} vs DC {e.data.get('dc')}" if total is not None else "CON SAVE"
    if not e.data.get("saved"):
        return f"{save} fails: no Hit Die regained"
    before, after = v.value(e, "before"), v.value(e, "after")
    pool = f": Hit Dice pool {before} → {after}" if before is not None else ""
    return f"{save} holds, a Hit Die regained{pool}"


# -- magic items (F-MAGIC-02, AMB-59) ------------------------------------------------------------------------------
def _item(e: Event, v: View) -> str:
    return str(v.value(e, "item") or "a magic item")


def _uses(count: object) -> str:
    return f"{count} {_plural(count, 'use')}"


@teller("item_charges")
def item_charges(e: Event, v: View) -> str:
    left = v.value(e, "left")
    if left is None:
        return f"{_item(e, v)}: its uses today are counted"
    uses = str(e.data.get("uses") or "")
    if uses.isdigit():
        how = f"{uses} a day"
    elif e.data.get("fixed_max"):
        how = f"a charge of {uses}: its maximum"
    else:
        how = f"a charge of {uses}, rolled {e.data.get('rolled')}"
    return f"{_item(e, v)}: {_uses(left)} today ({how})"


@teller("item_use")
def item_use(e: Event, v: View) -> str:
    item = _item(e, v)
    left = v.value(e, "left")
    still = f"{_uses(left)} left today" if left is not None else "its uses left today counted"
    if not e.data.get("used"):
        return f"{item}: {still}"
    powers = v.value(e, "powers")
    rolled = ", ".join(f"{dice} = {total}" for dice, total in powers) if isinstance(powers, list) else ""
    head = f"uses {item}" + (f": {rolled}" if rolled else "")
    return f"{head} (no daily limit)" if e.data.get("unlimited") else f"{head}; {still}"


@teller("item_power")
def item_power(e: Event, v: View) -> str:
    until = f" until her turn in round {e.data.get('until_round')}"
    bonus, extra = v.value(e, "ac_bonus"), v.value(e, "extra_damage")
    if bonus is not None:
        return f"uses {_item(e, v)}: +{bonus} AC{until}"
    if extra:
        return f"uses {_item(e, v)}: +{extra} DAM on each hit{until}"
    return f"uses {_item(e, v)}{until}"


@teller("ward")
def ward(e: Event, v: View) -> str:
    """'is warded by Flame Shield: +3 AC, and 2d8 fire DAM to each attacker, until her turn in round 4'."""
    parts = []
    bonus = v.value(e, "ac_bonus")
    if bonus is not None:
        parts.append(f"+{bonus} AC")
    if e.data.get("strikes_back"):
        kind = f"{e.data.get('damage_type')} DAM" if e.data.get("damage_type") else "DAM"
        parts.append(f"{e.data.get('strikes_back')} {kind} to each attacker, hit or miss")
    shown = f": {', and '.join(parts)}" if parts else ""
    until = f"until her turn in round {e.data.get('until_round')}"
    return f"is warded by {v.value(e, 'spell') or 'a spell'}{shown}, {until}"


@teller("items_renewed")
def items_renewed(e: Event, v: View) -> str:
    items = _words(v.value(e, "items"))
    return "the magic items' daily uses are renewed" + (f": {', '.join(items)}" if items else "")


@teller("items_after_fight")
def items_after_fight(e: Event, v: View) -> str:
    uses = v.value(e, "uses")
    listed = ", ".join(f"{name} {left}" for name, left in uses.items()) if isinstance(uses, dict) else ""
    return "magic items' uses left today" + (f": {listed}" if listed else "")
