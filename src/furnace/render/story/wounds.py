"""The tellers of what befalls a combatant: damage, dying and death, a row's effects, healing, saves, luck,
injuries and stabilising."""

from __future__ import annotations

from furnace.events import Event
from furnace.render.story import Told, teller
from furnace.render.story.view import View
from furnace.render.story.words import _hp, _n, _plural, chapter_death, condition_words, death_cause


# -- damage, dying, death ---------------------------------------------------------------------------------------
@teller("damage")
def damage(e: Event, v: View) -> Told:
    amount = e.data.get("amount")
    source = ""
    if e.data.get("own"):
        means = v.value(e, "means") if v.knows(e, "hp_before") else None
        source = f" from her own {means}" if means else ""
    elif e.targets:
        by = v.name(e, e.targets[0])
        means = v.value(e, "means") if v.plain(e, e.targets[0]) else None
        source = f" from {by}'s {means}" if means else f" from {by}"
    elif v.value(e, "means"):
        source = f" from {v.value(e, 'means')}"
    return Told(v.name(e, e.actor), f"takes {amount}{source}{_hp(e, v)}", (), e.rules)




CAUSES = {"bled_out": "bled out", "monster_at_0": "dies", "out_of_fight": "is out of the fight"}


@teller("death")
def death(e: Event, v: View) -> str:
    cause = str(e.data.get("cause", ""))
    told = chapter_death(cause)
    if told is not None:
        return told(e, v)
    if cause == "out_of_fight":
        return "is out of the fight"
    if cause == "monster_at_0":
        return "dies"
    if cause == "threshold" and v.knows(e, "threshold"):
        d = e.data
        return (f"dies: HP {d['hp']} at or below −(3 + LVL {d['level']} + CON {d['con']}) = {d['threshold']}")
    if cause == "knocked_down_twice":
        total = _n(v, e, "total")
        failed = f"failed the CON SAVE ({total})" if total else "failed the CON SAVE"
        return f"dies: knocked down {_n(v, e, 'times')} times and {failed}"
    return f"dies: {death_cause(cause)}"




@teller("dying")
def drops(e: Event, v: View) -> str:
    turns = _n(v, e, "turns")            # none when the timer is the referee's (dying_timer_roll referee)
    when = f"dies in {turns} {_plural(turns, 'turn')}" if turns else "dies when her hidden timer runs out"
    return f"drops at {_n(v, e, 'hp')} HP: unconscious, {when} unless stabilised or a natural 20"


@teller("still_dying")
def still_dying(e: Event, v: View) -> str:
    turns = _n(v, e, "turns")
    left = f": {turns} {_plural(turns, 'turn')} left" if turns else ""
    return f"still dying ({_n(v, e, 'total')}; a natural 20 gets her up with 1 HP){left}"


@teller("recover")
def recover(e: Event, v: View) -> str:
    return "rolls a natural 20 and gets up with 1 HP"


@teller("knocked_down_twice")
def knocked_down_twice(e: Event, v: View) -> str:
    return f"survives being knocked down twice (CON SAVE {_n(v, e, 'total')})"


# -- effects of a row, healing, saves, luck ---------------------------------------------------------------------
@teller("periodic")
def periodic(e: Event, v: View) -> str:
    return f"from now on, at each of its turns: {e.data.get('what')}"


@teller("effect_damage")
def effect_damage(e: Event, v: View) -> str | None:
    if e.targets and not v.knows(e, "dice") and v.monster(e, e.targets[0]):
        return None
    kind = f"{e.data.get('type')} damage" if e.data.get("type") else "damage"
    if e.data.get("maximum"):
        return f"the maximum of {e.data.get('dice')} {kind}: {e.data.get('amount')}"
    return f"{e.data.get('dice')} {kind}: {e.data.get('amount')}"


@teller("heal")
def heal(e: Event, v: View) -> str:
    if e.data.get("refused"):
        return "cannot be healed"
    source = v.value(e, "source")          # what healed her, out of a fight (the referee's words)
    return f"heals {e.data.get('amount')}{f' from {source}' if source else ''}{_hp(e, v)}"


@teller("wounds_close")
def wounds_close(e: Event, v: View) -> str:
    return f"the healing closes: {', '.join(str(w) for w in e.data.get('wounds') or [])}"


@teller("condition")
def condition(e: Event, v: View) -> str:
    from furnace.render.story.conditions import ending_words

    name = condition_words(str(e.data.get("condition", "")))
    if e.data.get("immune"):
        return f"is immune to {name}: it has no effect"
    until = ending_words(str(e.data.get("ending", "")), _int(e.data.get("until_round")))
    by = f", from {v.name(e, e.targets[0])}" if e.targets else ""
    return f"is {name} ({until}{by})"


@teller("modifier")
def modifier(e: Event, v: View) -> str:
    from furnace.render.story.conditions import condition_words as words
    from furnace.render.story.conditions import ending_words

    value = e.data.get("value")
    what = words(str(e.data.get("condition", "")), value if isinstance(value, int) else 0)
    return f"{what} ({ending_words(str(e.data.get('ending', '')), _int(e.data.get('until_round')))})"


@teller("save")
def save(e: Event, v: View) -> str:
    if e.data.get("immune"):
        return f"is immune to {e.data.get('category')} effects: no SAVE, unharmed"
    total = v.value(e, "total")
    outcome = "saved" if e.data.get("saved") else "failed"
    numbers = f" {total} vs DC {e.data.get('dc')}" if total is not None else ""
    return f"{e.data.get('ability')} SAVE{numbers}: {outcome}"


@teller("luck_die")
def luck_die(e: Event, v: View) -> str:
    streak = v.value(e, "streak")
    run = f"failure {streak} in a row" if streak is not None else "another failure in a row"
    if e.data.get("lost"):
        return f"{run} earns a Luck Die, but 3 is the most one can hold: it is lost"
    return f"{run} ({e.data.get('roll')}) earns a Luck Die: {_n(v, e, 'before')} → {_n(v, e, 'after')}"


@teller("ability")
def ability(e: Event, v: View) -> str:
    name = e.data.get("ability")
    if e.data.get("scoreless"):
        return f"loses {_n(v, e, 'amount')} {name} (no scores to change)"
    why = v.value(e, "why")          # the cause in a few words (a disease's name, "aging"), when it was recorded
    notes = [str(why)] * bool(why) + ["temporary"] * (e.data.get("loss") == "temporary")
    noted = f" ({', '.join(notes)})" if notes else ""
    if v.knows(e, "before"):
        old, new = v.value(e, "modifier_before"), v.value(e, "modifier_after")
        modifier = f", modifier {old:+d} → {new:+d}" if isinstance(old, int) and isinstance(new, int) and old != new \
            else ""
        return f"{name} {e.data.get('before')} → {e.data.get('after')}{noted}{modifier}"
    return f"loses {name}{noted}"


@teller("doomed")
def doomed(e: Event, v: View) -> str:
    count, unit = v.value(e, "count"), str(e.data.get("unit", "round")).replace("_", " ")
    unless = f" unless {e.data.get('unless')}" if e.data.get("unless") else ""
    if count is None:
        return f"is doomed{unless}"
    units = unit if count == 1 else unit + "s"
    return f"will die in {count} {units} (round {e.data.get('at_round')}){unless}"


WEAPON_ACTIONS = {"drop": "is dropped", "knock_away": "is knocked away", "entangled": "is entangled",
                  "loose": "comes loose", "sunder": "is sundered", "destroy": "is destroyed",
                  "string_snaps": "loses its string", "notch": "is notched", "damage": "is damaged",
                  "crack": "cracks"}


@teller("weapon")
def weapon(e: Event, v: View) -> str:
    what = str(e.data.get("weapon") or "weapon") if v.plain(e, e.actor) else "its weapon"
    text = f"{what} {WEAPON_ACTIONS.get(str(e.data.get('action')), str(e.data.get('action')).replace('_', ' '))}"
    if e.data.get("note"):
        text += f" ({e.data.get('note')})"
    if e.data.get("notched") and v.knows(e, "atk_before"):
        d = e.data
        text += (f": a notch, ATK {int(str(d['atk_before'])):+d} → {int(str(d['atk_after'])):+d}, "
                 f"DAM {d['damage_before']} → {d['damage_after']}")
    return text


@teller("armor")
def armor(e: Event, v: View) -> str:
    piece, action = str(e.data.get("piece")), str(e.data.get("action"))
    before, after = v.value(e, "ac_before"), v.value(e, "ac_after")
    change = f": AC {before} → {after}" if before is not None and before != after else ""
    broken = f"; the {e.data.get('broken')} is broken" if e.data.get("broken") else ""
    verb = {"destroy": "is destroyed", "damage": "is damaged"}.get(action, action.replace("_", " "))
    return f"the {piece} {verb}{change}{broken}"


@teller("injury")
def injury(e: Event, v: View) -> str:
    total = v.value(e, "total")
    return f"injury{f' {total}' if total is not None else ''}: {e.data.get('text')}"


STABILISE = {"not_dying": "{t} is not dying", "by_the_referee": "the referee declares {t} stabilised",
             "fails": "fails to stabilise {t}{n}", "stabilises": "stabilises {t}{n}"}


@teller("stabilise")
def stabilise(e: Event, v: View) -> str:
    target = v.name(e, e.targets[0])
    outcome = str(e.data.get("outcome"))
    if outcome == "not_by_medicine":
        method = "magical healing or the referee" if e.data.get("method") == "healing_only" else "the referee"
        return f"a Medicine CHECK cannot stabilise {target}: only {method} can"
    total = v.value(e, "total")
    numbers = f" ({total} vs DC {e.data.get('dc')})" if total is not None else ""
    return STABILISE.get(outcome, "{t}").format(t=target, n=numbers)


def _int(value: object) -> int | None:
    return value if isinstance(value, int) else None


