"""The tellers of the scene the referee describes and of the party's senses (RULES.md H-TRAV-04, H-LIGHT-01/03/04,
H-MAP-02, H-LANG-01/02, H-SLEEP-01; F-SURP-01): the terrain entered, how far the party sees, a room's size, a
character's tongues and sleep, and the surprise roll. What only the referee may know (what lies beyond a terrain
that hides the view, a room's exact feet off exploration speed) is asked of the `View`, never assumed.
"""

from __future__ import annotations

from collections.abc import Mapping

from furnace.events import Event
from furnace.render.story import Told, teller
from furnace.render.story.view import View


def _listed(values: object) -> str:
    return ", ".join(str(v) for v in values) if isinstance(values, list | tuple) else ""


@teller("terrain")
def terrain(e: Event, v: View) -> Told:
    entered = e.data.get("terrain")
    around = _listed(e.data.get("around"))
    if e.data.get("hides_view"):
        beyond = _listed(v.value(e, "beyond"))
        text = f"the party enters {entered}; it hides what lies beyond" + (f" [referee: {beyond}]" if beyond else "")
    else:
        text = f"the party enters {entered}; around: {around or 'nothing of note'}"
    return Told("", text, (), e.rules)


@teller("sight")
def sight(e: Event, v: View) -> Told:
    feet, sources = e.data.get("feet"), _listed(e.data.get("sources"))
    scene = e.data.get("scene_ft")
    if not feet:
        where = "no light burns, and it is dark" if scene is None else "nothing to see by"
        return Told("", f"the party sees nothing: {where}", (), e.rules)
    why = [f"light of {sources}, {e.data.get('light_ft')}'"] if sources else []
    if scene is not None:
        why.append(f"the scene, {scene}'")
    return Told("", f"the party sees {feet}' ({'; '.join(why)})", (), e.rules)


@teller("room")
def room(e: Event, v: View) -> Told:
    width, length = e.data.get("shown_width"), e.data.get("shown_length")
    if e.data.get("irregular"):
        text = f"an irregular area, roughly {width} by {length} feet"
    elif e.data.get("exact"):
        text = f"the room is {width} by {length} feet (exploration speed: exact)"
    else:
        text = f"the room is about {width} by {length} feet (at {e.data.get('speed')} speed)"
    exact = (v.value(e, "width_ft"), v.value(e, "length_ft"))
    if not e.data.get("exact") and None not in exact:
        text += f" [referee: {exact[0]} by {exact[1]}]"
    return Told("", text, (), e.rules)


@teller("tongues")
def tongues(e: Event, v: View) -> str:
    score = v.value(e, "int_score")
    literacy = "reads and writes" if e.data.get("literate") else "cannot read or write"
    return f"speaks {_listed(e.data.get('languages'))}; {literacy}" + (f" (INT {score})" if score is not None else "")


@teller("sleeps")
def sleeps(e: Event, v: View) -> str:
    hours = v.value(e, "hours")
    if not isinstance(hours, int | float):
        return "her sleep is counted each day"
    return f"sleeps {hours:g} {'hour' if hours == 1 else 'hours'} a day from now"


GIVEN_AWAY = {"party": "the party cannot be surprised: the enemies' light gives them away",
              "enemies": "the enemies cannot be surprised: the party's light gives it away"}


def _side(key: str, side: object) -> str:
    name = f"the {key}"
    if not isinstance(side, Mapping):
        return name
    if side.get("given_away"):
        return GIVEN_AWAY[key]
    state = "surprised" if side.get("surprised") else "not surprised"
    return f"{name} {'roll' if key == 'enemies' else 'rolls'} {side.get('roll')}: {state}"


@teller("surprise_roll")
def surprise_roll(e: Event, v: View) -> Told:
    turn = {"party": "the party gets a free turn", "enemies": "the enemies get a free turn"}.get(
        str(e.data.get("free_turn")), "no free turn")
    sides = "; ".join(_side(key, e.data.get(key)) for key in ("party", "enemies"))
    rolls = tuple(r.explain() for r in e.rolls) if v.rolls(e) else ()
    return Told("", f"surprise ({e.data.get('chance')} in 6): {sides}; {turn}, then initiative", rolls, e.rules)
