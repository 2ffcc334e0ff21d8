"""Light (H-LIGHT-01..04, H-TAB-02, AMB-81, CF-39, CF-51).

A lit source is a "light_out" entry on the clock, due when it burns out: a torch after 6 exploration turns,
a candle after 12, a lantern after 24 on each flask of oil (option exploration_turn_minutes: 10 minutes a
turn). When a lantern's flask runs dry and its carrier has a flask of oil among her items, the lantern is
refilled and burns 24 turns more (unless lit with refuel=False). A snuffed torch or candle keeps the time it
has left (AMB-81) and can be lit again with `turns=`. While any source burns, the party carries light: it
cannot surprise (H-LIGHT-03, option light_prevents_surprise, read by the surprise roll).
"""

from __future__ import annotations

from typing import NamedTuple

from furnace.errors import FurnaceError
from furnace.events import Event, declare
from furnace.hazards.common import about, require, ruleset, stamp
from furnace.play.clock import Campaign, Fire, Scheduled, cancel, handler, schedule, unit_seconds
from furnace.rules.ruleset import Ruleset

OIL = "oil"

# the facts of light, and who may know each value
LIGHT = declare("light", source="public", radius_ft="public", turns="public", minutes="public", refuel="public",
                entry="referee", needs_owner="referee",
                example={"source": "torch", "radius_ft": 30, "turns": 6, "minutes": 60, "refuel": True})
SNUFF = declare("snuff", source="public", turns_left="public", example={"source": "torch", "turns_left": 4.5})
LIGHT_OUT = declare("light_out", source="public", example={"source": "lantern"})
LIGHT_REFUEL = declare("light_refuel", source="public", turns="public", flasks_left="public",
                       example={"source": "lantern", "turns": 24, "flasks_left": 1})


class LightSource(NamedTuple):
    name: str
    radius_ft: int
    turns: int                  # exploration turns it burns (a lantern: per flask)
    fuel: str | None


def light_source(name: str, rules: Ruleset | None = None) -> LightSource:
    """A row of H-TAB-02 (torch, candle, lantern, or a referee's own source)."""
    row = ruleset(rules).tables.get("light").lookup(name.strip().lower())
    d = row.data
    duration = d["duration"]
    if duration.get("unit", "exploration_turn") not in ("exploration_turn", "turn"):
        raise FurnaceError(f"light source {name}: burn time must be in exploration turns")
    return LightSource(str(row.key), int(d["radius_ft"]), int(duration["amount"]), d.get("fuel"))


def light(campaign: Campaign, owner: str, source: str, rules: Ruleset | None = None, *,
          turns: float | None = None, refuel: bool = True) -> tuple[Campaign, list[Event]]:
    """Light a source carried by `owner`: its burn-out goes on the clock (H-LIGHT-02)."""
    rules = ruleset(rules)
    require(rules, "hazards_light", "H-LIGHT-02", "burning light sources")
    lit = light_source(source, rules)
    burn = lit.turns if turns is None else turns
    if burn <= 0:
        raise FurnaceError(f"a light burns a positive number of turns, not {burn}")
    seconds = round(burn * unit_seconds("exploration_turn", rules))
    data = {"source": lit.name, "radius_ft": lit.radius_ft, "refuel": refuel, "needs_owner": False}
    campaign, entry = schedule(campaign, "light_out", after=seconds, owner=owner, label=f"{owner}'s {lit.name}",
                               data=data)
    return campaign, [about(LIGHT, campaign, owner, (), ("H-LIGHT-02", "H-TAB-02"), **data, entry=entry, turns=burn,
                            minutes=seconds // 60)]


def lights(campaign: Campaign) -> list[Scheduled]:
    """The sources burning now."""
    return [e for e in campaign.clock.entries if e.kind == "light_out"]


def party_lit(campaign: Campaign) -> bool:
    """H-LIGHT-03, AMB-81: a party with any lit source carries light and cannot surprise."""
    return bool(lights(campaign))


def snuff(campaign: Campaign, entry_id: int, rules: Ruleset | None = None) -> tuple[Campaign, list[Event]]:
    """Put a source out; it keeps the turns it has left (AMB-81)."""
    entry = campaign.clock.find(entry_id)
    if entry.kind != "light_out":
        raise FurnaceError(f"clock entry {entry_id} is a {entry.kind}, not a light")
    left = (entry.at - campaign.clock.now) / unit_seconds("exploration_turn", ruleset(rules))
    return cancel(campaign, entry_id), [about(SNUFF, campaign, entry.owner, (), ("AMB-81",),
                                              **{**entry.data, "turns_left": left})]


def _take_oil(items: list[str]) -> list[str] | None:
    """The items without one flask of oil, or None if there is none."""
    for i, item in enumerate(items):
        if OIL in item.lower():
            return items[:i] + items[i + 1:]
    return None


@handler("light_out")
def _light_out(fire: Fire) -> None:
    source = str(fire.entry.data.get("source", "light"))
    owner = fire.entry.owner
    carrier = fire.campaign.characters.get(owner)
    rest = _take_oil(list(carrier.items)) if carrier and source == "lantern" and fire.entry.data.get("refuel") \
        else None
    if carrier is None or rest is None:
        stamp(fire, [about(LIGHT_OUT, fire.campaign, owner, (), ("H-LIGHT-02",), **dict(fire.entry.data))])
        return
    fire.put(carrier.model_copy(update={"items": rest}))
    turns = light_source(source, fire.rules).turns
    fire.schedule("light_out", after=turns * unit_seconds("exploration_turn", fire.rules), owner=owner,
                  label=fire.entry.label, data=dict(fire.entry.data))
    flasks = sum(OIL in i.lower() for i in rest)
    stamp(fire, [about(LIGHT_REFUEL, fire.campaign, owner, (), ("H-LIGHT-02", "AMB-81"), source=source, turns=turns,
                       flasks_left=flasks)])
