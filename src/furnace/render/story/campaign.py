"""The tellers of campaign facts."""

from __future__ import annotations

from furnace.events import Event
from furnace.render.story import Told, teller
from furnace.render.story.view import View


@teller("session")
def session(e: Event, v: View) -> Told:
    from furnace.play.clock import Clock

    title = f": {e.data.get('title')}" if e.data.get("title") else ""
    at = e.data.get("at")
    when = f" ({Clock().describe(at)})" if isinstance(at, int) else ""
    return Told("", f"session {e.data.get('session')} begins{title}{when}", (), e.rules)


@teller("command")
def command(e: Event, v: View) -> Told | None:
    return Told("", f"the referee: {e.data.get('command')}") if v.referee else None
