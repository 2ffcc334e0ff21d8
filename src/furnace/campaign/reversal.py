"""Undo and redo as facts: what an undo took back, what a redo puts back, and the state change that does it.

The store finds the command to reverse (`campaign.history`) and runs `restoring`'s command in one transaction; the
campaign's history is never deleted — an undo is an event of its own, and a redo undoes that undo.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from furnace.campaign.logrows import StoredEvent
from furnace.campaign.state import CampaignError, CampaignState, apply_changes, canonical
from furnace.events import Event, declare

if TYPE_CHECKING:
    from furnace.campaign.history import Step

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
