"""A new in-game day on the campaign clock: what counts by the day starts again (F-CLR-07, AMB-14, M-ORIS-02, AMB-59).

A character's daily counts are typed state with a lifetime: they start when she first uses what the day limits and
end when the day does. They are

- the magical Hit Dice she has received today (`Character.healed_today`: no more a day than her level, F-CLR-07);
- the orisons she has performed today (M-ORIS-02..04, kept by the Middle Sea chapter);
- her magic items' uses today (AMB-59), when the day governs them (option magic_item_uses_renew: new_day).

While any of them is counted she has a "day_ends" entry on the clock at the next midnight (`ensure_day_ends`, run
by `timekeeping.run_clock` before and after every rule of the clock, so whatever set the count — a fight, an
orison, a character joining — has its end on the clock before time moves); when it falls due, however time moves
(`clock advance`, travel, a rest), her counts start again and a `new_day` fact says which. A long rest resets
none of them (AMB-14).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from furnace.characters.character import Character
from furnace.events import Event, declare
from furnace.play.clock import DAY, Fire, handler, schedule
from furnace.play.clock import Campaign as ClockView
from furnace.rules.ruleset import Ruleset

ClockFn = Callable[[ClockView, Ruleset], tuple[ClockView, list[Event]]]     # as campaign.timekeeping's
DAY_ENDS = "day_ends"
ITEMS_KEY = "magic_items"         # furnace.magic.items.USES_KEY: the items' uses today
MIDDLE_SEA_KEY = "middle_sea"     # furnace.houserules.middle_sea.common.MODULE: where her orisons are counted
# a new in-game day starts her daily counts again: the HD of magical healing she had received (`healed`), the
# orisons she had performed (`orisons`), the magic items whose uses come back (`items`)
NEW_DAY = declare("new_day", healed="actor", orisons="actor", items="actor",
                  example={"healed": 3, "orisons": 1, "items": ["Shield of Shielding"]})


def counts(character: Character, rules: Ruleset) -> dict[str, Any]:
    """Her daily counts now (none when nothing is counted). A chapter is loaded only for a character who carries
    its state: a campaign of another profile never loads middle-sea's orisons, nor a fighter without magic items
    the magic chapter."""
    found: dict[str, Any] = {}
    if character.healed_today:
        found["healed"] = character.healed_today
    if MIDDLE_SEA_KEY in character.extensions:
        from furnace.houserules.middle_sea.orisons import performed_today

        if performed_today(character):
            found["orisons"] = performed_today(character)
    items = sorted(character.extensions.get(ITEMS_KEY, {}))
    if items:
        from furnace.magic.items import day_renews

        if day_renews(rules):
            found["items"] = items
    return found


def ensure_day_ends(view: ClockView, rules: Ruleset) -> ClockView:
    """A "day_ends" entry at the next midnight for every living character with a daily count and none yet."""
    owners = {e.owner for e in view.clock.entries if e.kind == DAY_ENDS}
    for name, character in view.characters.items():
        if name in owners or not character.alive or not counts(character, rules):
            continue
        view, _ = schedule(view, DAY_ENDS, after=DAY - view.clock.now % DAY, owner=name,
                           label=f"{name}: a new day (daily counts start again)")
    return view


def new_day(character: Character, rules: Ruleset, events: list[Event]) -> Character:
    """Her daily counts start again: the magical healing received (F-CLR-07), the orisons (M-ORIS-02), the magic
    items' uses when the day governs them (AMB-59)."""
    from furnace.houserules.middle_sea import orisons
    from furnace.magic.casting import new_day as magic_day

    return orisons.new_day(magic_day(character, rules, events))


@handler(DAY_ENDS)
def _day_ends(fire: Fire) -> None:
    """Midnight: her daily counts start again (and the entry is done: the next count schedules the next)."""
    character = fire.character()
    was = counts(character, fire.rules)
    if not character.alive or not was:
        return
    fire.put(new_day(character, fire.rules, []))
    ids = [*(["F-CLR-07", "AMB-14"] if "healed" in was else []), *(["M-ORIS-02"] if "orisons" in was else []),
           *(["AMB-59"] if "items" in was else [])]
    fire.fact(NEW_DAY, character.name, (), (), tuple(ids), healed=was.get("healed", 0),
              orisons=was.get("orisons", 0), items=was.get("items", []))


def orison(orison_name: str, *, polytheist: bool = False, slots_traded: int = 0,
           priest: bool = False) -> Callable[[str], ClockFn]:
    """M-ORIS-01..04: she performs an orison, counted against her day's number until the day ends."""
    from furnace.houserules.middle_sea.orisons import perform

    def make(name: str) -> ClockFn:
        def fn(view: ClockView, rules: Ruleset) -> tuple[ClockView, list[Event]]:
            after, events = perform(view.characters[name], orison_name, rules, polytheist=polytheist,
                                    slots_traded=slots_traded, priest=priest)
            return view.model_copy(update={"characters": {**view.characters, name: after}}), events

        return fn

    return make
