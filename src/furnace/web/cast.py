"""Who the monsters of the log are, read from the log itself, so that concealment holds for every fight.

A fight's opening event (`encounters.line_up`, whether the console, `furnace encounter start` or `furnace fight
--monsters` began it) names its monsters (`data.monsters`: id → name; older logs: its text). The referee's
reveals and masks are table events in the same log (`campaign.table.set_monster`, `data.revealed`,
`data.mask`); an undone command's reveals do not count. From this a player's view of any event is drawn: at an
event, each monster of the fights begun so far goes by its name (revealed plainly), by its mask, or as
"something unseen"; a later fight's monster of the same name decides. The fight in progress follows the table's
state (`campaign.table.current`), which undo keeps right.

`casting(store, campaign)` keeps one index per campaign, read on from where it stopped (the log only grows; when
the last event it read is no longer there, the same, the campaign was made anew and it is read from the start).
"""

from __future__ import annotations

import re
import threading
import weakref
from dataclasses import dataclass, field

from furnace.campaign.store import Store, StoredEvent

FOE = re.compile(r"(?:^|, )([^,()]+?) \(HP -?\d+, AC -?\d+\)")


@dataclass
class Fight:
    """One fight of the log: where it opened, its name, its monsters, and the reveals made during it."""

    opened: int
    name: str
    monsters: dict[str, str]                                   # id → name
    reveals: list[tuple[int, str, bool, str]] = field(default_factory=list)   # (command, id, revealed, mask)

    def shown(self, undone: set[int]) -> dict[str, tuple[bool, str]]:
        """Each monster's last reveal that was not undone: id → (revealed, mask)."""
        out: dict[str, tuple[bool, str]] = {}
        for command, cid, revealed, mask in self.reveals:
            if command not in undone:
                out[cid] = (revealed, mask)
        return out


@dataclass
class Casting:
    """The fights of one campaign's log, read up to event `last`, and the commands undone since."""

    last: int = 0
    hash: str = ""                                        # the last event's, to know the log is the same one
    fights: list[Fight] = field(default_factory=list)
    undone: set[int] = field(default_factory=set)

    def read(self, events: list[StoredEvent]) -> None:
        for e in events:
            if e.undoes is not None:
                self.undone.add(e.undoes)
            if e.kind == "encounter" and "party" in e.data:
                self.fights.append(Fight(e.seq, str(e.data.get("fight", "")), _monsters(e)))
            elif e.kind == "table" and "id" in e.data and "revealed" in e.data and self.fights:
                self.fights[-1].reveals.append((e.command_id, str(e.data["id"]), bool(e.data["revealed"]),
                                                str(e.data.get("mask", ""))))
            self.last, self.hash = e.seq, e.hash

    def upto(self, seq: int) -> list[Fight]:
        """The fights begun at or before event `seq`."""
        return [f for f in self.fights if f.opened <= seq]


def _monsters(e: StoredEvent) -> dict[str, str]:
    listed = e.data.get("monsters")
    if isinstance(listed, dict):
        return {str(k): str(v) for k, v in listed.items()}
    foes = e.what.split(" against ", 1)[1] if " against " in e.what else ""   # a log older than data.monsters
    return {name.strip(): name.strip() for name in FOE.findall(foes)}


_books: weakref.WeakKeyDictionary[Store, dict[str, Casting]] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def casting(store: Store, campaign: str) -> Casting:
    """The campaign's fights as its log tells them, up to its last event."""
    with _lock:
        book = _books.setdefault(store, {})
        known = book.setdefault(campaign, Casting())
        events = store.events(campaign, since=max(0, known.last - 1))     # the last one read, and what came after
        if known.last and (not events or events[0].seq != known.last or events[0].hash != known.hash):
            known = book[campaign] = Casting()          # not the log it read: the campaign was made anew
            events = store.events(campaign)
        known.read([e for e in events if e.seq > known.last])
        return known
