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
from furnace.render.story import Sight

FOE = re.compile(r"(?:^|, )([^,()]+?) \(HP -?\d+, AC -?\d+\)")


@dataclass
class Fight:
    """One fight of the log: where it opened, its name, its monsters, the reveals made during it (at which event)
    and each monster's handle for the players (m1, m2 … in the order the table first saw them; never renumbered)."""

    opened: int
    name: str
    monsters: dict[str, str]                                   # id → name
    reveals: list[tuple[int, str, bool, str, int]] = field(default_factory=list)   # (command, id, revealed, mask, seq)
    handles: dict[str, str] = field(default_factory=dict)      # id → m1, m2 …

    def shown(self, undone: set[int], upto: int | None = None) -> dict[str, tuple[bool, str]]:
        """Each monster's last reveal that was not undone (by event `upto`): id → (revealed, mask)."""
        out: dict[str, tuple[bool, str]] = {}
        for command, cid, revealed, mask, seq in self.reveals:
            if command not in undone and (upto is None or seq <= upto):
                out[cid] = (revealed, mask)
        return out

    def reveal(self, command: int, cid: str, revealed: bool, mask: str, seq: int) -> None:
        self.reveals.append((command, cid, revealed, mask, seq))
        if revealed and cid not in self.handles:
            self.handles[cid] = f"m{len(self.handles) + 1}"

    def sight(self, undone: set[int], upto: int | None, health: str, monster_health: dict[str, str]) -> Sight:
        """What the table has been shown of this fight's monsters by event `upto` (None: now)."""
        shown = self.shown(undone, upto)
        revealed = frozenset(cid for cid, (seen, _) in shown.items() if seen)
        masks = {cid: mask for cid, (seen, mask) in shown.items() if seen and mask}
        return Sight(revealed, masks, health, monster_health, dict(self.handles))


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
            elif e.kind in ("table", "reveal_monster") and "id" in e.data and "revealed" in e.data and self.fights:
                self.fights[-1].reveal(e.command_id, str(e.data["id"]), bool(e.data["revealed"]),
                                       str(e.data.get("mask", "")), e.seq)
            self.last, self.hash = e.seq, e.hash

    def upto(self, seq: int) -> list[Fight]:
        """The fights begun at or before event `seq`."""
        return [f for f in self.fights if f.opened <= seq]

    def fight_at(self, seq: int) -> Fight | None:
        """The fight the event `seq` belongs to: the last begun at or before it."""
        begun = self.upto(seq)
        return begun[-1] if begun else None

    def sight_at(self, seq: int | None, health: str, monster_health: dict[str, str]) -> Sight:
        """What the players had been shown of the monsters when event `seq` happened (None: now)."""
        fight = self.fights[-1] if seq is None and self.fights else self.fight_at(seq) if seq is not None else None
        if fight is None:
            return Sight(health=health, monster_health=monster_health)
        return fight.sight(self.undone, seq, health, monster_health)


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
