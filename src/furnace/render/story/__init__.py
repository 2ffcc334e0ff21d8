"""The story of a campaign or a fight, told from its facts to one viewer at a time.

Each kind of fact (`furnace.events.FACTS`) has a teller here, registered with `@teller(kind)`: a short
function from the fact and a `View` (who reads, and what she may know) to the sentence she reads, or None
when there is nothing she may be told. A teller asks the view for every name and number (`v.name`,
`v.value`, `v.health`), so what a viewer may not know is never written into her telling; nothing is written
and then taken out.

    tell(event, view)        -> Told | None   (the subject, the sentence, the dice lines, the rule ids)
    lines(events, view)      -> the CLI's lines: "Brakka: hits the ogre (18 vs AC 14)" and its dice
    tell_referee(event)      -> the referee's telling as text

Rows of the campaign's log written before facts are told to the referee as written and to nobody else.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from furnace.events import Event
from furnace.render.story.view import REFEREE, UNSEEN, Sight, View

if TYPE_CHECKING:
    from furnace.campaign.store import StoredEvent

__all__ = ["REFEREE", "UNSEEN", "Sight", "Told", "View", "lines", "log", "stored", "tell", "tell_referee", "teller",
           "tellers"]


@dataclass(frozen=True)
class Told:
    subject: str           # who the line is about, as the viewer knows her ("" : the table, the clock)
    text: str
    rolls: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()

    def render(self, explain: bool = False) -> list[str]:
        text = self.text + (f" ({', '.join(self.rules)})" if explain and self.rules else "")
        head = f"{self.subject}: {text}" if self.subject else text
        return [head, *(f"    {r}" for r in self.rolls)]


Teller = Callable[[Event, View], "str | Told | None"]
_TELLERS: dict[str, Teller] = {}
# the modules of tellers, the most told first: a command loads them in this order only until its facts' tellers are
# found (a `damage` tells a fight's facts, never a sea voyage's), `tellers()` all of them
TELLERS_IN = ("fight", "wounds", "lasting", "campaign", "characters", "aftermath", "magic", "questions", "scene",
              "gear", "hazards", "middle_sea")
_unloaded = list(TELLERS_IN)


def teller(*kinds: str) -> Callable[[Teller], Teller]:
    """Register a function as the teller of these kinds of fact (one teller a kind)."""

    def register(fn: Teller) -> Teller:
        for kind in kinds:
            if kind in _TELLERS and _TELLERS[kind] is not fn:
                raise ValueError(f"two tellers of the fact kind {kind!r}: {_TELLERS[kind].__module__}, {fn.__module__}")
            _TELLERS[kind] = fn
        return fn

    return register


def _load_next() -> bool:
    """Import the next module of tellers (each registers its own); False when all are loaded."""
    import importlib

    if not _unloaded:
        return False
    importlib.import_module(f"{__name__}.{_unloaded.pop(0)}")
    return True


def tellers() -> dict[str, Teller]:
    """Every kind of fact that has a teller (the modules of tellers load on first use)."""
    while _load_next():
        pass
    return _TELLERS


def _teller_of(kind: str) -> Teller | None:
    while kind not in _TELLERS and _load_next():
        pass
    return _TELLERS.get(kind)


def tell(e: Event, view: View = REFEREE) -> Told | None:
    """The fact as this viewer may be told it, or None."""
    if not view.may_see(e):
        return None
    fn = _teller_of(e.kind)
    if fn is None:
        raise KeyError(f"no teller for the fact kind {e.kind!r}")
    told = fn(e, view)
    if told is None or isinstance(told, Told):
        return told
    rolls = tuple(r.explain() for r in e.rolls) if view.rolls(e) else ()
    return Told(view.name(e, e.actor), told, rolls, e.rules)


def lines(events: Iterable[Event], view: View = REFEREE) -> list[str]:
    out: list[str] = []
    for e in events:
        told = tell(e, view)
        if told is not None:
            out += told.render(view.explain)
    return out


def log(events: Iterable[Event], view: View = REFEREE, *, rolls: bool = True) -> str:
    """A fight's round-by-round log (or any stretch of events), a blank line before each round."""
    out: list[str] = []
    for e in events:
        told = tell(e, view)
        if told is None:
            continue
        said = told.render(view.explain)
        if e.kind == "round" and out:
            out.append("")
        out += said if rolls else said[:1]
    return "\n".join(out)


def told_row(e: StoredEvent, view: View = REFEREE) -> Told | None:
    """A row of the campaign's log as this viewer may be told it (a row from before facts: the referee's alone,
    as it was written)."""
    fact = e.fact
    if fact is None:
        if not view.referee:
            return None
        return Told(e.who, e.what, tuple(str(r.get("explanation")) for r in e.rolls if r.get("explanation")))
    return tell(fact, view)


def stored(e: StoredEvent, view: View = REFEREE, *, rolls: bool = True) -> list[str]:
    """A row of the campaign's log as this viewer may read it (nothing: she may not). A row from before facts
    is the referee's alone, as it was written."""
    fact = e.fact
    if fact is None:
        if not view.referee:
            return []
        head = (f"{e.who}: {e.what}" if e.who else e.what) + (" (faces entered)" if e.data.get("entered") else "")
        return [head, *(f"    {r.get('explanation')}" for r in e.rolls if rolls and r.get("explanation"))]
    told = tell(fact, view)
    if told is None:
        return []
    said = told.render(view.explain)
    if e.data.get("entered"):
        said[0] += " (faces entered)"
    return said if rolls else said[:1]


def tell_referee(e: Event, explain: bool = False) -> str:
    told = tell(e, View(explain=explain))
    return "\n".join(told.render(explain)) if told is not None else ""
