"""Undo and redo from the referee's page: what each would reverse (`GET …/undo`), and doing it, which must name
that command's id (`POST …/undo {"command": id}`): a roll that came in between is never undone by mistake — the
id no longer matches, and the answer (409) names the command now on top."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import Field

from furnace.campaign.history import Step
from furnace.web import bell, views
from furnace.web.api import Body, _writer, store_of
from furnace.web.auth import Asker

router = APIRouter(prefix="/api/campaigns/{campaign}")


class ReverseBody(Body):
    command: int = Field(ge=1, le=2**62, description="the id of the command shown by GET …/undo")


def _shown(step: Step | None) -> dict[str, Any] | None:
    return None if step is None else {"command": step.id, "name": step.names, "said": step.said(),
                                      "hidden": step.secret}


@router.get("/undo")
def what_undo(campaign: str, request: Request) -> dict[str, Any]:
    """What undo and redo would reverse now (each null when there is nothing)."""
    store = store_of(request)
    return {"undo": _shown(store.undoable(campaign)), "redo": _shown(store.redoable(campaign))}


@router.post("/undo")
def undo(campaign: str, body: ReverseBody, request: Request, caller: Asker) -> dict[str, Any]:
    """Reverse the command `command`, if it is still the newest in force."""
    store = store_of(request)
    with _writer(store):
        applied = store.undo(campaign, body.command)
    bell.ring(store)
    return {"events": views.visible_events(list(applied.events), applied.state, caller, store)} | what_undo(
        campaign, request)


@router.post("/redo")
def redo(campaign: str, body: ReverseBody, request: Request, caller: Asker) -> dict[str, Any]:
    """Put back what the undo `command` took (the state, and the command's facts with the same dice)."""
    store = store_of(request)
    with _writer(store):
        applied = store.redo(campaign, body.command)
    bell.ring(store)
    return {"events": views.visible_events(list(applied.events), applied.state, caller, store)} | what_undo(
        campaign, request)
