"""What happened in a session, read from the log: time passed, deaths, injuries, XP and levels.

A session runs from its `campaign session start` event to the next one (the last session: to now; before the
first start: from the campaign's beginning). The log records, with each command, every entity it changed
before and after; the recap compares each member as she was when the session began (the first "before" of
her entity in the window) with how she is at its end (the last "after"), and the clock likewise. No die is
rolled and no rule run: the recap is the log's, and an undone command is undone in it too.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from furnace.campaign.session import is_session_start
from furnace.campaign.state import CampaignError
from furnace.campaign.timekeeping import span_text
from furnace.play.clock import Clock

if TYPE_CHECKING:
    from furnace.campaign.store import Store, StoredEvent


@dataclass(frozen=True)
class MemberRecap:
    """One member's session: how she began and ended it."""

    id: str
    name: str
    joined: bool = False
    died: dict[str, Any] | None = None         # her death as stored: its cause (a code) and the facts that tell it
    hp: tuple[int, int] | None = None          # (at the start, at the end) when it changed
    injuries: tuple[str, ...] = ()             # new lingering injuries
    conditions: tuple[str, ...] = ()           # new conditions
    xp: int = 0
    level: tuple[int, int] | None = None



@dataclass(frozen=True)
class Recap:
    session: int                               # 0: before the first session began
    title: str
    began: str                                 # the clock when it began
    seconds: int                               # time passed on the clock
    commands: int
    kinds: dict[str, int] = field(default_factory=dict)
    members: tuple[MemberRecap, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"session": self.session, "title": self.title, "began": self.began, "seconds": self.seconds,
                "time_passed": span_text(self.seconds), "commands": self.commands, "kinds": self.kinds,
                "members": [dict(m.__dict__) for m in self.members]}


def recap(store: Store, name: str, session: int | None = None) -> Recap:
    """The recap of session `session` (default: the last begun, or the campaign so far if none has)."""
    events = store.events(name)
    starts = [e for e in events if is_session_start(e.kind, e.data)]
    if session is not None and not 1 <= session <= len(starts):
        raise CampaignError(f"the campaign {name!r} has {len(starts)} session(s) begun; there is no session {session}")
    index = (session if session is not None else len(starts)) - 1
    start = starts[index] if index >= 0 else None
    end = starts[index + 1].seq if start is not None and index + 1 < len(starts) else None
    window = [e for e in events if (start is None or e.seq > start.seq) and (end is None or e.seq < end)]
    return _recap(start, window)


def _recap(start: StoredEvent | None, window: list[StoredEvent]) -> Recap:
    first: dict[str, Any] = {}
    came: dict[str, Any] = {}          # how a member who joined in the session came: her level then
    last: dict[str, Any] = {}
    for event in window:
        for change in event.changes or ():
            first.setdefault(change["path"], change["before"])
            came.setdefault(change["path"], change["after"])
            last[change["path"]] = change["after"]
    clock_at = first.get("clock") or {}
    began_at = int(start.data.get("at", 0)) if start else int(clock_at.get("now", 0))
    ended_at = int((last.get("clock") or {}).get("now", began_at))
    members = tuple(_member(path.split("/", 1)[1], first[path], last[path], came[path]) for path in sorted(first)
                    if path.startswith("member/") and last[path] is not None)

    return Recap(session=int(start.data.get("session", 0)) if start else 0,
                 title=str(start.data.get("title", "")) if start else "",
                 began=Clock(now=began_at).describe(), seconds=max(0, ended_at - began_at),
                 commands=len({e.command_id for e in window}), kinds=dict(Counter(e.kind for e in window)),
                 members=members)


def _member(member_id: str, before: dict[str, Any] | None, after: dict[str, Any],
            came: dict[str, Any] | None = None) -> MemberRecap:
    """`came`: her first state in the session, whose level counts for one who joined in it (a funnel's peasant
    promoted the same evening went from level 0 to level 1)."""
    now = after["character"]
    was = (before or {}).get("character") or {}
    joined_at = ((came or {}).get("character") or {}) if before is None else was
    died = dict(after.get("death") or {"cause": "unknown"}) if after.get("status") == "dead" and \
        (before or {}).get("status") != "dead" else None
    hp = (int(was["hp"]), int(now["hp"])) if was and was.get("hp") != now.get("hp") else None
    level = (int(joined_at.get("level", 0)), int(now.get("level", 0))) \
        if joined_at and joined_at.get("level") != now.get("level") else None
    return MemberRecap(id=member_id, name=str(now["name"]), joined=before is None, died=died, hp=hp,
                       injuries=_new(was.get("injuries", []), now.get("injuries", [])),
                       conditions=_new(was.get("conditions", []), now.get("conditions", [])),
                       xp=_xp(now) - _xp(was), level=level)


def _new(before: list[str], after: list[str]) -> tuple[str, ...]:
    left = list(before)
    out = []
    for item in after:
        if item in left:
            left.remove(item)
        else:
            out.append(item)
    return tuple(out)


def _xp(character: dict[str, Any]) -> int:
    return sum(int(a.get("amount", 0)) for a in (character.get("extensions") or {}).get("xp", []))
