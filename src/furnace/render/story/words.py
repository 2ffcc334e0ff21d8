"""Words shared by the tellers: a value as the viewer may read it, HP, causes of death, conditions, plurals."""

from __future__ import annotations

from collections.abc import Callable

from furnace.events import Event
from furnace.render.story.view import View


def _n(v: View, e: Event, key: str) -> str:
    value = v.value(e, key)
    return "" if value is None else str(value)


def _hp(e: Event, v: View) -> str:
    before, after, most = e.data.get("hp_before"), e.data.get("hp_after"), e.data.get("hp_max")
    if not isinstance(after, int):
        return ""
    if v.knows(e, "hp_after"):
        return f": HP {before} → {after}" if isinstance(before, int) else f": HP {after}"
    shown = v.health(e, e.actor, after, most if isinstance(most, int) else after)
    return f" ({shown})" if shown else ""


# a chapter's own causes of death: how its death fact is told, and the cause in words (registered by the
# chapter's module of tellers with `cause_of_death`)
DEATHS: dict[str, Callable[[Event, View], str]] = {}
CAUSE_WORDS: dict[str, str] = {"threshold": "past her death threshold", "bled_out": "bled out",
                               "knocked_down_twice": "knocked down twice", "slain": "slain outright",
                               "slain_outright": "slain outright", "ability_zero": "an ability fell to 0",
                               "wound_timer": "her wound's timer ran out", "monster_at_0": "struck down",
                               "out_of_fight": "out of the fight"}


def cause_of_death(cause: str, words: str) -> Callable[[Callable[[Event, View], str]], Callable[[Event, View], str]]:
    """Register how a chapter's cause of death is told (`dies: …`) and its words (for what a fight leaves)."""

    def register(fn: Callable[[Event, View], str]) -> Callable[[Event, View], str]:
        DEATHS[cause] = fn
        CAUSE_WORDS[cause] = words
        return fn

    return register


def _chapters_told(cause: str) -> None:
    """A cause no module loaded so far registered: every module of tellers loaded (they load lazily, the fight's
    first, and a chapter's causes are registered by the chapter's own module — `hazards_threshold` by hazards)."""
    if cause and cause not in CAUSE_WORDS:
        from furnace.render.story import tellers

        tellers()


def chapter_death(cause: str) -> Callable[[Event, View], str] | None:
    """How a chapter's cause of death is told, or None for the engine's own."""
    _chapters_told(cause)
    return DEATHS.get(cause)


def death_cause(cause: str) -> str:
    """A cause of death in words."""
    _chapters_told(cause)
    return CAUSE_WORDS.get(cause, cause.replace("_", " "))


def _plural(count: str, word: str) -> str:
    return word if count == "1" else word + "s"


def condition_words(name: str) -> str:
    """A condition as a referee says it: PRONE, or a modifier's meaning (`MOD:atk_against:HARD` → attacks
    against it HARD)."""
    from furnace.render.story.conditions import condition_words as words

    return words(name)
