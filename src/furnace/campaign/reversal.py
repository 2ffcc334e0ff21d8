"""Undo and redo as facts: what an undo took back, what a redo puts back, and the state change that does it.

The store finds the command to reverse (`campaign.history`) and runs `restoring`'s command in one transaction; the
campaign's history is never deleted — an undo is an event of its own, and a redo undoes that undo.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from furnace.campaign.logrows import StoredEvent, stored
from furnace.campaign.state import CampaignError, CampaignState, ConflictError, apply_changes, canonical
from furnace.events import Event, declare

if TYPE_CHECKING:
    from furnace.campaign.history import Step
    from furnace.campaign.store import Store

# the referee takes back a command (`command`, its first event `event`)
UNDO = declare("undo", command="referee", event="referee", example={"command": "rest long", "event": 12})
# the referee puts back a command she took back (`command`, `event`), by undoing her undo (`undo`); its facts follow
REDO = declare("redo", command="referee", event="referee", undo="referee",
               example={"command": "rest long", "event": 12, "undo": 15})


def told(what: str, step: Step, redone: list[StoredEvent]) -> list[Event]:
    """The facts of an undo (what it took back), or of a redo (what it puts back, then that command's own facts
    again, with their dice); the referee's alone when the command was (a hidden roll voided tells players nothing)."""
    audience: Literal["all", "referee"] = "referee" if step.secret else "all"
    if what == "undo":
        return [Event(UNDO, "", (), (), {"command": step.names, "event": step.id}, audience=audience)]
    first = redone[0] if redone else None
    original = first.data if first is not None and first.kind == REDO else {
        "command": first.command if first else "?", "event": first.command_id if first else 0}
    head = Event(REDO, "", (), (), {"command": original.get("command", "?"), "event": original.get("event", 0),
                                    "undo": step.id}, audience=audience)
    facts = [e.fact for e in redone if e.kind not in (UNDO, REDO)]
    return [head, *(f for f in facts if f is not None)]




def restoring(what: Literal["undo", "redo"], step: Step,
              redone: list[StoredEvent]) -> Callable[[CampaignState], tuple[CampaignState, list[Event]]]:
    """The command that puts each entity `step` changed back as it was (refused if it changed since), telling it
    by `told`'s facts."""
    reverse = [{"path": c["path"], "before": c["after"], "after": c["before"]} for c in step.changes or []]
    facts = told(what, step, redone)

    def restore(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        entities = state.entities()
        if any(canonical(entities.get(c["path"])) != canonical(c["before"]) for c in reverse):
            raise CampaignError(f"cannot {what} {step.said()}: the campaign changed since")
        apply_changes(entities, reverse)
        return CampaignState.from_entities(entities, state.name), facts

    return restore


def reversing(store: Store, name: str, what: Literal["undo", "redo"], expected: int | None,
              ) -> tuple[Callable[[CampaignState], tuple[CampaignState, list[Event]]], int, int]:
    """What `store.undo` or `redo` runs: the command that reverses the newest command in force (or undo), the
    campaign's version it was read at, and that command's id; `expected`, the id the referee was shown, refused
    (ConflictError) when another is now on top."""
    from furnace.campaign import history

    with store.transaction() as conn:
        camp = store.row(conn, name)
        step = history.target(conn, camp.id, what)
        rows = history.command_steps(conn, camp.id, step.undoes if what == "redo" and step and step.undoes else 0)
    if step is None:
        raise CampaignError(f"nothing to {what} in {name!r}" + (
            ": only the campaign's creation is logged" if what == "undo" else ""))
    if expected is not None and expected != step.id:
        raise ConflictError(f"the command to {what} is now {step.said()}, not command {expected}: look again")
    return restoring(what, step, [stored(r) for r in rows]), camp.version, step.id
