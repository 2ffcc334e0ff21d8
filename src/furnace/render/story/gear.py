"""The tellers of gear put on and taken off (`furnace.campaign.gear.equip`, `unequip`): what she now wears or
wields, and what it changed (AC, Stealth, a weapon's ATK and damage, her load)."""

from __future__ import annotations

from furnace.events import Event
from furnace.render.story import teller
from furnace.render.story.view import View

DONNED = {"armor": "puts on", "shield": "takes up", "helmet": "puts on", "weapon": "readies"}
DOFFED = {"armor": "takes off", "shield": "puts down", "helmet": "takes off", "weapon": "puts away"}


def _ac(e: Event, v: View) -> str:
    before, after = v.value(e, "ac_before"), v.value(e, "ac_after")
    if not isinstance(before, int) or not isinstance(after, int):
        return ""
    return f"AC {before} → {after}" if before != after else ""


def _load(e: Event, v: View) -> str:
    """The load she carries after it (every piece is one, worn or packed: F-LOAD-01)."""
    load, limit, over = v.value(e, "load"), v.value(e, "limit"), v.value(e, "over")
    if not isinstance(load, int) or not isinstance(limit, int):
        return ""
    return f"load {load} of {limit}" + (f", {over} over" if isinstance(over, int) and over > 0 else "")


def _weapon(e: Event, v: View) -> str:
    atk, damage = v.value(e, "atk"), v.value(e, "damage")
    if not isinstance(atk, int) or not damage:
        return ""
    return f"ATK {atk:+d}, damage {damage}".replace("-", "−")


@teller("equip")
def equip(e: Event, v: View) -> str:
    d = e.data
    piece, item = str(d.get("piece", "")), str(d.get("item", ""))
    verb = (DOFFED if d.get("off") else DONNED).get(piece, "takes")
    what = f"her {item}" if piece != "armor" else item
    where = f" on her {d.get('arm')} arm" if piece == "shield" and d.get("arm") and not d.get("off") else ""
    into = " (into her pack)" if d.get("off") else ""
    parts = [_ac(e, v), _weapon(e, v) if piece == "weapon" and not d.get("off") else "",
             "Stealth HARD in it" if v.value(e, "stealth") == "HARD" else "",
             f"{d.get('swapped')} into her pack" if d.get("swapped") else "", _load(e, v)]
    shown = "; ".join(p for p in parts if p)
    return f"{verb} {what}{where}{into}" + (f": {shown}" if shown else "")
