"""Undo and redo over the append-only log: which command each would reverse, read from the log's tail.

Every command counts, a roll that changed nothing too: undo takes back the newest command still in force, so it
never reaches past a roll (a player's, made a moment before) to a command the referee did not mean. An undo is a
command of its own (`undo`, its `undoes` the command it reversed); a redo is the undo of an undo (`redo`, its
`undoes` that undo), which puts back the state the command made and its facts, with the same dice. Walking the
log from its newest command back:

- a command reversed by a later undo (or an undo reversed by a redo) is passed over, and so is what it reversed;
- for undo, the first command in force is the one (an ordinary command, or a redo: undoing it takes the command
  back again); an undo in force means what it reversed is passed over too;
- for redo, the first undo in force is the one, unless a command that changed the campaign came after it (a roll
  that changed nothing does not stand in the way).

Nothing is scanned past what is needed: the walk reads the tail a page at a time.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import Connection, select

from furnace.campaign.schema import events

PAGE = 200
UNDO, REDO, BEGIN = "undo", "redo", "campaign new"


@dataclass(frozen=True)
class Step:
    """A command of the log, as undo and redo see it: its id (its first event's number), its name, the command it
    reverses (an undo or a redo), what it changed, and whether it was the referee's alone (a hidden roll)."""

    id: int
    command: str
    undoes: int | None
    changes: list[dict[str, Any]] | None
    secret: bool
    names: str                     # what the referee reads: "roll", "undo of damage (command 12)", "redo of …"

    def said(self) -> str:
        return f"command {self.id}: {self.names}"


def _secret(data: dict[str, Any]) -> bool:
    meta = data.get("fact")
    return bool(data.get("hidden")) or (isinstance(meta, dict) and meta.get("audience") == "referee")


def _steps(conn: Connection, campaign_id: int) -> Iterator[Step]:
    """The log's commands, newest first."""
    import json

    before: int | None = None
    rows: list[Any] = []
    while True:
        query = select(events.c.seq, events.c.command_id, events.c.command, events.c.undoes, events.c.changes,
                       events.c.data).where(events.c.campaign_id == campaign_id)
        if before is not None:
            query = query.where(events.c.seq < before)
        page = conn.execute(query.order_by(events.c.seq.desc()).limit(PAGE)).all()
        if not page:
            break
        before = page[-1].seq
        for row in page:
            if rows and rows[-1].command_id != row.command_id:
                yield _step(rows, json)
                rows = []
            rows.append(row)
    if rows:
        yield _step(rows, json)


def _step(rows: list[Any], json: Any) -> Step:
    """One command from its rows (newest first: the first row here is its last event)."""
    last, first = rows[0], rows[-1]
    datas = [json.loads(r.data) for r in rows]
    changed = json.loads(last.changes) if last.changes is not None else None
    named = str(first.command)
    if first.command in (UNDO, REDO):      # its first fact says what it reversed
        said = datas[-1]
        named = f"{first.command} of {said.get('command', '?')} (command {said.get('event', '?')})"
    return Step(int(first.command_id), str(first.command), last.undoes, changed, all(_secret(d) for d in datas),
                named)


def target(conn: Connection, campaign_id: int, what: Literal["undo", "redo"]) -> Step | None:
    """The command `what` would reverse now, or None."""
    passed: set[int] = set()
    for step in _steps(conn, campaign_id):
        if step.id in passed:
            continue                      # reversed later: neither it nor what it reversed is in force
        if step.command == BEGIN:
            return None
        if step.command == UNDO:
            if what == "redo":
                return step
            if step.undoes is not None:
                passed.add(step.undoes)
            continue
        if what == "undo":
            return step
        if step.command == REDO:
            if step.undoes is not None:
                passed.add(step.undoes)   # that undo is put back: the next one down may be redone
            continue
        if step.changes:
            return None                   # the campaign changed after the undo: nothing to put back
    return None


def command_steps(conn: Connection, campaign_id: int, command_id: int) -> list[Any]:
    """The rows of one command, oldest first."""
    return list(conn.execute(select(events).where(events.c.campaign_id == campaign_id,
                                                  events.c.command_id == command_id).order_by(events.c.seq)))
