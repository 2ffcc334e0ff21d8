"""The tellers of what lasts on the campaign clock (`furnace.campaign.lasting`): a dying timer, waking, a wound's
timer, a condition's rounds, a bone's weeks; and of the referee's edits to an encounter in progress."""

from __future__ import annotations

from furnace.events import Event
from furnace.render.story import teller
from furnace.render.story.view import View
from furnace.render.story.words import _n, condition_words

UNITS = {"round": ("round", "rounds"), "hour": ("hour", "hours"), "week": ("week", "weeks"),
         "exploration_turn": ("exploration turn", "exploration turns")}
ON_CLOCK = {
    "dying": "is dying on the clock: a d20 each round{left}",
    "wake_up": "is unconscious: wakes in {n}",
    "fatal_wound": "has a fatal wound: dies in {n} unless Cure Serious or Critical Wounds is cast",
    "bleeding": "bleeds from a severed limb: dies in {n} unless the wound is cauterised, tied off or cured",
    "doomed": "will die of her wound in {n} unless it is treated",
    "condition": "stays {condition} for {n} more",
    "bone": "her broken {location} heals in {n}",
}


def counted(count: object, unit: object) -> str:
    """'3 rounds', '1 hour', '12 weeks' ('some time' when the viewer may not know how many)."""
    if not isinstance(count, int):
        return "some time"
    one, many = UNITS.get(str(unit), (str(unit).replace("_", " "), str(unit).replace("_", " ") + "s"))
    return f"{count} {one if count == 1 else many}"


@teller("dying_timer")
def dying_timer(e: Event, v: View) -> str:
    turns, left = v.value(e, "turns"), v.value(e, "left")
    if isinstance(turns, int):
        return f"her hidden dying timer: {counted(turns, 'round')}"
    if isinstance(left, int):
        return f"her hidden dying timer: {counted(left, 'round')} left"
    return "her dying timer is the referee's"


@teller("on_clock")
def on_clock(e: Event, v: View) -> str:
    what = str(e.data.get("what", ""))
    n = counted(v.value(e, "count"), e.data.get("unit"))
    left = f", {n} left" if isinstance(v.value(e, "count"), int) else ""
    template = ON_CLOCK.get(what, "{what} on the clock: {n}")
    return template.format(n=n, left=left, what=what.replace("_", " "),
                           condition=condition_words(str(e.data.get("condition", ""))),
                           location=str(e.data.get("location", "")).lower())


@teller("condition_over")
def condition_over(e: Event, v: View) -> str:
    return f"is no longer {condition_words(str(e.data.get('condition', '')))}"


@teller("up_again")
def up_again(e: Event, v: View) -> str:
    gone = [condition_words(str(c)) for c in e.data.get("conditions") or []]
    return f"is up again: no longer {', '.join(gone) or 'down'}"


@teller("encounter_edit")
def encounter_edit(e: Event, v: View) -> str:
    """The referee's change to the fight in progress."""
    change = e.data.get("change")
    if change == "add":
        hp, ac = v.value(e, "hp"), v.value(e, "ac")
        numbers = f" ({hp} HP, AC {ac})" if isinstance(hp, int) and isinstance(ac, int) else ""
        return f"joins the fight{numbers}, acting from her side's next phase"
    if change == "remove":
        return "leaves the fight"
    return f"HP set by the referee: {_n(v, e, 'before')} → {_n(v, e, 'after')}"


@teller("delay")
def delay(e: Event, v: View) -> str:
    return "delays her turn: she acts after the rest of her phase"
