"""The tellers of a fight's attacks, its rounds and its turns.

Each teller builds its sentence from what the viewer may know (`View`): a monster's attack total, its AC,
its weapon and its HP stay with the referee; a concealed monster is "something unseen".
"""

from __future__ import annotations

from furnace.events import Event
from furnace.render.story import Told, teller
from furnace.render.story.view import View
from furnace.render.story.words import _n, condition_words


def _vs(v: View, e: Event) -> str:
    """'(18 vs AC 14)' as much of it as she may know; the AC's EASY and HARD after it, for the referee."""
    total, dc = _n(v, e, "total"), _n(v, e, "dc")
    vs = f"AC {dc}" if dc else ""
    if vs and (e.data.get("easy") or e.data.get("hard") or e.data.get("ac_shift")):
        vs += f": {difficulty(e)}"
    if total and vs:
        return f" ({total} vs {vs})"
    return f" ({total})" if total else (f" (vs {vs})" if vs else "")


def difficulty(e: Event) -> str:
    """'AC 12, HARD for the attacker being BLINDED': the AC and what moved it."""
    parts = [f"AC {e.data.get('ac')}"]
    shift = e.data.get("ac_shift")
    if isinstance(shift, int) and shift:     # a loss is being off balance (M-WPN-06); a gain a power held (F-TAB-27)
        parts.append(f"{shift:+d} AC" + (" off balance" if shift < 0 else ""))
    parts += [f"EASY as {_source(str(s))}" for s in e.data.get("easy") or []]
    parts += [f"HARD as {_source(str(s))}" for s in e.data.get("hard") or []]
    return ", ".join(parts)


def _source(text: str) -> str:
    side, name, _ = [*text.split("|"), "", ""][:3]
    if name == "SNEAK_ATTACK":
        return "a Sneak Attack"
    words = condition_words(name)
    if name.startswith("MOD:"):
        return words
    return f"the {side} is {words}" if side else words


def _with(v: View, e: Event) -> str:
    weapon = v.value(e, "weapon")
    return f" with {weapon}" if weapon and v.plain(e, e.actor) else ""


@teller("miss")
def miss(e: Event, v: View) -> str:
    return f"misses {v.name(e, e.targets[0])}{_with(v, e)}{_vs(v, e)}"


@teller("hit")
def hit(e: Event, v: View) -> str:
    verb = "CRITS" if e.data.get("crit") else "hits"
    vs = _vs(v, e)
    if e.data.get("natural_20"):
        vs = vs[:-1] + ", a natural 20)" if vs else " (a natural 20)"
    return f"{verb} {v.name(e, e.targets[0])}{_with(v, e)}{vs}"


@teller("fumble")
def fumble(e: Event, v: View) -> str:
    if "table" not in e.data:
        ac = v.value(e, "dc")
        return f"misses {v.name(e, e.targets[0])}{_with(v, e)}: a natural 1" + (f" (vs AC {ac})" if ac else "")
    return f"fumbles: {_table_row(e, v)}"


def _table_row(e: Event, v: View) -> str:
    total, text = v.value(e, "total"), v.value(e, "text")
    die = v.value(e, "die")
    rolled = f"{total} on the {die}" if total is not None and die else f"{total}" if total is not None else ""
    return f"{rolled} → {text}" if rolled and text else str(text or "")


@teller("defended")
def defended(e: Event, v: View) -> str:
    target = v.name(e, e.targets[0])
    return f"strikes at {target}, who avoids the blow{_defence(v, e)}"


@teller("not_defended")
def not_defended(e: Event, v: View) -> str:
    verb = "CRITS" if e.data.get("crit") else "hits"
    return f"{verb} {v.name(e, e.targets[0])}, who fails to avoid the blow{_defence(v, e)}"


def _defence(v: View, e: Event) -> str:
    total, dc, room = _n(v, e, "total"), _n(v, e, "dc"), _n(v, e, "room_dc")
    vs = f"ROOM DC {dc}" if dc == room else f"DC {dc}"
    return f" ({total} vs {vs})" if total and dc else ""


PROMPTS = {"armor_save_natural_20": "a natural 20 damages armor: make the struck piece's item save"}


@teller("referee")
def referee(e: Event, v: View) -> str | None:
    """A matter for the referee's judgement: a prompt from a table's row, or an effect's reach."""
    if not v.referee:
        return None
    prompt = str(e.data.get("prompt") or "")
    if e.data.get("area"):
        text = f"the effect also reaches everyone {e.data.get('area')} of the {e.data.get('of')}"
    else:
        text = PROMPTS.get(prompt, prompt) or "a matter for the referee"
    return f"for the referee: {text}"


POWERS = {"chosen_one": "Chosen one", "rally": "Rally", "bloodmagic": "Bloodmagic"}


@teller("power")
def power(e: Event, v: View) -> str:
    name = str(e.data.get("power", ""))
    if name == "chosen_one":
        return f"Chosen one: the ATK of {_n(v, e, 'before')} is rolled again: {_n(v, e, 'after')}".replace("  ", " ")
    if name == "rally":
        return f"rallies {v.name(e, e.targets[0])}: her next ATK is {e.data.get('mode', 'EASY')}"
    if name == "bloodmagic":
        amount = _n(v, e, "amount")
        return f"Bloodmagic: loses {amount} HP and adds {amount} to the DAM"
    return _style(e, v, name)


def _style(e: Event, v: View, name: str) -> str:
    """A fighting style used (F-FTR-04, AMB-45): the 2H weapon master's 1s rolled again, Protection's HARD ATK."""
    if name == "two_handed":
        again = v.value(e, "again")
        shown = ", ".join(str(f) for f in again) if isinstance(again, list) else "?"
        return f"2H weapon master: rolls her 1s again: {shown}"
    if name == "protection":
        return f"Protection: the ATK on {v.name(e, e.targets[0])} is {e.data.get('mode', 'HARD')}"
    return f"uses {POWERS.get(name, name)}"


@teller("luck")
def luck(e: Event, v: View) -> str:
    return f"spends a Luck Die: {_n(v, e, 'before')} → {_n(v, e, 'after')} ({_n(v, e, 'left')} left)"


@teller("rage")
def rage(e: Event, v: View) -> str:
    return f"rages: +{_n(v, e, 'bonus')} DAM, AC {_n(v, e, 'ac_before')} → {_n(v, e, 'ac_after')}"


@teller("damage_roll")
def damage_roll(e: Event, v: View) -> str | None:
    amount = v.value(e, "amount")
    if amount is None:
        return None       # a monster's damage dice: what she takes is told by the damage itself
    if e.data.get("maximum"):
        return f"deals maximum {_n(v, e, 'damage')} = {amount}"
    return f"deals {amount}"


@teller("sunder")
def sunder(e: Event, v: View) -> str:
    return (f"sunders her shield: takes {_n(v, e, 'taken')} of {_n(v, e, 'amount')}; the shield is destroyed, "
            f"AC {_n(v, e, 'ac_before')} → {_n(v, e, 'ac_after')}")


@teller("cleave")
def cleave(e: Event, v: View) -> str:
    victim = v.name(e, e.targets[0])
    if e.data.get("nobody_close"):
        what = "a new ATK" if e.data.get("new_attack") else f"{_n(v, e, 'overflow')} damage"
        return f"would cleave {what} past {victim}, but no foe is CLOSE"
    second = v.name(e, e.targets[1])
    if e.data.get("new_attack"):
        return f"cleaves into {second}: a new ATK"
    return f"cleaves: {_n(v, e, 'overflow')} remaining damage to {second}"


@teller("crit")
def crit(e: Event, v: View) -> str:
    return f"crit table: {_table_row(e, v)}"


@teller("hits_itself")
def hits_itself(e: Event, v: View) -> str:
    return "hits itself (no ATK roll)"


# -- the round and the turn -------------------------------------------------------------------------------------
@teller("round")
def round_(e: Event, v: View) -> Told:
    return Told("", f"== Round {e.data.get('round')} ==")


@teller("initiative")
def initiative(e: Event, v: View) -> Told:
    if e.data.get("simultaneous"):
        return Told("all", "simultaneous initiative: ranged attacks and magic first, then melee", (), e.rules)
    phases = e.data.get("phases") or []
    order = "; ".join(" + ".join(p) + (" (together)" if len(p) > 1 else "") for p in phases)
    return Told("all", f"order: {order}", tuple(r.explain() for r in e.rolls), e.rules)


@teller("acts_last")
def acts_last(e: Event, v: View) -> Told | None:
    who = [v.name(e, cid) for cid in (e.actor, *e.targets) if v.sees(e, cid)]
    if not who:
        return None
    return Told("all", f"{', '.join(who)} {'acts' if len(who) == 1 else 'act'} last this round", (), e.rules)


@teller("end")
def end(e: Event, v: View) -> Told:
    winner = str(e.data.get("winner") or "")
    return Told("all", f"the fight ends: {'the ' + winner + ' stand' if winner else 'no one stands'}", (), e.rules)


@teller("expire")
def expire(e: Event, v: View) -> str:
    return "no longer " + ", ".join(condition_words(str(c)) for c in e.data.get("conditions") or [])


@teller("stand")
def stand(e: Event, v: View) -> str:
    return "stands up (its movement this turn)"


WAITS = {"cannot_attack": "cannot attack this turn", "cannot_move": "cannot move this turn"}


@teller("wait")
def wait(e: Event, v: View) -> str:
    return WAITS.get(str(e.data.get("why") or ""), "waits")


@teller("dodge")
def dodge(e: Event, v: View) -> str:
    return "dodges: attacks against it are HARD until its next turn"


@teller("disengage")
def disengage(e: Event, v: View) -> str:
    return "disengages and goes NEAR"


@teller("free_action")
def free_action(e: Event, v: View) -> str:
    note = v.value(e, "note")
    if v.referee:
        return f"a free-form action for the referee to settle: {note or 'not described'}"
    return f"tries: {note}" if note else "acts"


@teller("move")
def move(e: Event, v: View) -> str:
    zone = str(e.data.get("zone", ""))
    if e.data.get("attacks") and e.targets:
        return f"goes NEAR {v.name(e, e.targets[0])} and attacks"
    if e.data.get("maimed") and e.targets:
        return f"can move only NEAR (a maimed foot): goes {zone}, too far to attack {v.name(e, e.targets[0])}"
    return f"goes {zone}" + (" (a maimed foot: only NEAR)" if e.data.get("maimed") else "")


@teller("opportunity")
def opportunity(e: Event, v: View) -> str:
    return f"strikes at {v.name(e, e.targets[0])}, who leaves CLOSE without disengaging"


@teller("morale")
def morale(e: Event, v: View) -> Told:
    side = str(e.data.get("side", ""))
    total, value = v.value(e, "total"), v.value(e, "morale")
    numbers = f" ({total} against morale {value})" if total is not None and value is not None else ""
    if e.data.get("breaks"):
        text = f"the {side}' morale breaks{numbers}: they {e.data.get('outcome', 'flee')}"
    else:
        text = f"the {side} hold{numbers}"
    return Told("", text, tuple(r.explain() for r in e.rolls) if v.referee else (), e.rules)


@teller("lost")
def lost_blow(e: Event, v: View) -> str:
    total, killer = v.value(e, "total"), e.data.get("killer")
    if total is None:
        return "falls before striking"
    relation = "lower than" if int(str(total)) < int(str(killer)) else "only equal to"
    return f"falls before striking: its ATK {total} is {relation} its killer's {killer}"
