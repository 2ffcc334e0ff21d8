"""What the referee tells the players about a scene, as facts: the terrain on the road (H-TRAV-04, REF-31), how far
the party sees (H-LIGHT-01/04, REF-37), and a room's dimensions while mapping (H-MAP-02, REF-38). The rules leave
the words to the referee; these give the referee's call a consistent shape, told by `render/story/scene`.

- terrain: the terrain entered and what lies around it; when the terrain hides the view, what lies around is
  the referee's alone (`beyond`), and the players hear only what they enter.
- sight: in darkness the party sees as far as its brightest burning light (the lights on the clock), and
  nothing without one (H-LIGHT-01); elsewhere the referee judges how far it sees (`visibility_ft`, H-LIGHT-04),
  and a light's radius still counts where it is larger.
- room: exact feet at exploration speed; at any other speed each side to the nearest 10 feet (5 rounds up);
  an irregular area (a natural cave) only roughly, at any speed.
"""

from __future__ import annotations

from collections.abc import Sequence

from furnace.errors import FurnaceError
from furnace.events import Event, declare
from furnace.hazards.common import require, ruleset
from furnace.hazards.light import lights
from furnace.play.clock import Campaign
from furnace.rules.ruleset import Ruleset

EXPLORATION = "exploration"
FEET_LIMIT = 100_000

# the facts of a scene, and who may know each value
TERRAIN = declare("terrain", terrain="public", around="public", beyond="referee", hides_view="public",
                  example={"terrain": "a pine wood", "around": ["hills to the north"], "beyond": [],
                           "hides_view": False})
SIGHT = declare("sight", feet="public", light_ft="public", scene_ft="public", sources="public",
                example={"feet": 30, "light_ft": 30, "scene_ft": None, "sources": ["torch"]})
ROOM = declare("room", width_ft="referee", length_ft="referee", shown_width="public", shown_length="public",
               exact="public", irregular="public", speed="public",
               example={"width_ft": 32, "length_ft": 47, "shown_width": 30, "shown_length": 50, "exact": False,
                        "irregular": False, "speed": "normal"})


def terrain(entered: str, around: Sequence[str] = (), hides_view: bool = False,
            rules: Ruleset | None = None) -> Event:
    """H-TRAV-04: the terrain entered and what lies around it, unless the terrain hides the view."""
    require(ruleset(rules), "hazards_travel", "H-TRAV-04", "overland travel")
    if not entered.strip():
        raise FurnaceError("name the terrain the party enters")
    seen = [] if hides_view else list(around)
    beyond = list(around) if hides_view else []
    return Event(TERRAIN, "", (), (), {"terrain": entered, "around": seen, "beyond": beyond, "hides_view": hides_view},
                 ("H-TRAV-04", "REF-31"))


def sight(campaign: Campaign, visibility_ft: int | None = None, rules: Ruleset | None = None) -> Event:
    """H-LIGHT-01/04: how far the party sees: its brightest light's radius in darkness (nothing without one), or
    the referee's judgment of the scene (`visibility_ft`) where there is other light, whichever is larger."""
    require(ruleset(rules), "hazards_light", "H-LIGHT-01", "light and darkness")
    if visibility_ft is not None and not 0 <= visibility_ft <= FEET_LIMIT:
        raise FurnaceError(f"the scene's visibility is 0 to {FEET_LIMIT:,} feet, not {visibility_ft}")
    burning = lights(campaign)
    light_ft = max((int(e.data.get("radius_ft", 0)) for e in burning), default=None)
    seen = [v for v in (light_ft, visibility_ft) if v]
    cite = ("H-LIGHT-01",) + (("H-LIGHT-04", "REF-37") if visibility_ft is not None else ())
    return Event(SIGHT, "", (), (), {"feet": max(seen) if seen else 0, "light_ft": light_ft, "scene_ft": visibility_ft,
                                     "sources": sorted({str(e.data.get("source", "light")) for e in burning})}, cite)


def _nearest_ten(feet: int) -> int:
    return (feet + 5) // 10 * 10


def room(width_ft: int, length_ft: int, speed: str = EXPLORATION, irregular: bool = False,
         rules: Ruleset | None = None) -> Event:
    """H-MAP-02: a room's dimensions as the referee gives them: exact at exploration speed, to the nearest 10 feet
    otherwise, roughly (to the nearest 10) for an irregular area."""
    require(ruleset(rules), "hazards_mapping", "H-MAP-02", "mapping")
    for side in (width_ft, length_ft):
        if not 1 <= side <= FEET_LIMIT:
            raise FurnaceError(f"a room's side is 1 to {FEET_LIMIT:,} feet, not {side}")
    exact = speed == EXPLORATION and not irregular
    shown = (width_ft, length_ft) if exact else (_nearest_ten(width_ft), _nearest_ten(length_ft))
    return Event(ROOM, "", (), (), {"width_ft": width_ft, "length_ft": length_ft, "shown_width": shown[0],
                                    "shown_length": shown[1], "exact": exact, "irregular": irregular,
                                    "speed": speed}, ("H-MAP-02", "REF-38"))
