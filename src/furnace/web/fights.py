"""The fight's routes: start (with monsters from the bestiary), the legal actions as buttons, act, the monsters'
turns, end. Each is `furnace.campaign.encounters` (what `furnace encounter …` runs), nothing added: what players
see of them follows from the log (`web.cast`), as for a fight begun from the CLI.

A player acts only for her own character, on its turn, and names foes by their handles (m1, m2 …): a concealed
monster is not on her menu, and no monster's id (which carries its name) reaches her.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from fastapi import APIRouter, Request
from pydantic import Field

from furnace.campaign import encounters
from furnace.campaign.commands import rules_of
from furnace.campaign.state import CampaignState
from furnace.campaign.store import Store
from furnace.errors import FurnaceError
from furnace.web import views
from furnace.web.api import Body, dice_for, rng_of, run, run_rolled, store_of
from furnace.web.auth import Asker, Caller

router = APIRouter(prefix="/api/campaigns/{campaign}/encounter")
MENU_VERB = {"attack": "attack", "move_attack": "move", "go_ranged": "move", "dodge": "dodge",
             "disengage": "disengage", "stabilise": "stabilise", "wait": "wait", "free": "free", "cast": "cast"}


class StartBody(Body):
    monsters: str = Field(min_length=1, max_length=300)
    party: list[str] = Field(default_factory=list, max_length=50)
    room_dc: int | None = Field(None, ge=1, le=40)
    name: str | None = Field(None, max_length=100)


class ActBody(Body):
    who: str = Field(min_length=1, max_length=100)
    action: str = Field(min_length=1, max_length=20)
    target: str | None = Field(None, max_length=100)
    spell: str | None = Field(None, max_length=60)
    note: str = Field("", max_length=200)
    faces: str | None = Field(None, max_length=200, pattern=r"^[0-9 ,]*$")


@router.post("")
def start(campaign: str, body: StartBody, request: Request, caller: Asker) -> dict[str, Any]:
    fn = encounters.begin(body.party or ["all"], rng_of(request), monsters=body.monsters, room_dc=body.room_dc,
                          name=body.name or None)
    return run(request, caller, campaign, "encounter start", fn)


@router.post("/next")
def next_turns(campaign: str, request: Request, caller: Asker) -> dict[str, Any]:
    """The monsters' turns until a player character is due, a question is open or the fight ends."""
    from furnace.campaign import questions

    return run(request, caller, campaign, "encounter next", questions.next_turns(rng_of(request)))


@router.post("/end")
def end(campaign: str, request: Request, caller: Asker) -> dict[str, Any]:
    return run(request, caller, campaign, "encounter end", encounters.end(rng_of(request)))


# -- the referee edits the fight (furnace.campaign.fightedit: what `furnace encounter edit …` runs) -----------------
class EditBody(Body):
    who: str | None = Field(None, max_length=100)
    party: list[str] = Field(default_factory=list, max_length=50)
    monsters: str | None = Field(None, max_length=300)
    hp: int | None = Field(None, ge=-10_000, le=10_000)
    condition: str | None = Field(None, max_length=40)
    rounds: int | None = Field(None, ge=1, le=1_000)
    remove: bool = False
    faces: str | None = Field(None, max_length=200, pattern=r"^[0-9 ,]*$")


def _who(body: EditBody) -> str:
    if not body.who:
        raise FurnaceError("name the combatant: who")
    return body.who


@router.post("/edit/{change}")
def edit(campaign: str, change: str, body: EditBody, request: Request, caller: Asker) -> dict[str, Any]:
    """The referee's change to the fight: add (party, monsters), remove (who), hp (who, hp), condition (who,
    condition, rounds or remove), delay (who); each a campaign command."""
    from furnace.campaign import fightedit
    from furnace.campaign.session import chain

    rng = dice_for(request, caller, campaign, body.faces)
    if change == "add":
        steps = ([fightedit.add_members(body.party)] if body.party else []) + (
            [fightedit.add_monsters(body.monsters, rng)] if body.monsters else [])
        if not steps:
            raise FurnaceError("name who joins: party or monsters")
        fn = chain(*steps)
    elif change == "remove":
        fn = fightedit.remove(_who(body), rng)
    elif change == "hp":
        if body.hp is None:
            raise FurnaceError("give the HP: hp")
        fn = fightedit.set_hp(_who(body), body.hp, rng)
    elif change == "condition":
        fn = fightedit.condition(_who(body), body.condition or "", rng, add=not body.remove, rounds=body.rounds)
    elif change == "delay":
        fn = fightedit.delay(_who(body), rng)
    else:
        raise FurnaceError(f"unknown change {change!r}: add, remove, hp, condition or delay")
    return run_rolled(request, caller, campaign, f"encounter edit {change}", fn, rng)


def _cid(store: Store, state: CampaignState, caller: Caller, name: str) -> str:
    """A combatant's id from what the caller calls it: the referee any name or id, a player a handle."""
    now = encounters.current(state)
    if caller.referee:
        return encounters.resolve(state, now, name)
    by_handle = {h: cid for cid, h in views.handles(store, state).items()}
    cid = by_handle.get(name)
    if cid is None:
        raise FurnaceError("there is no one by that name you can act on")
    return cid


def _mine(state: CampaignState, caller: Caller, cid: str) -> None:
    if caller.referee:
        return
    now = encounters.current(state)
    member = state.roster.get(now.members.get(cid, ""))
    if member is None or not views.own(member, caller):
        raise FurnaceError("you act only for your own character")


@router.get("/actions")
def actions(campaign: str, request: Request, caller: Asker, who: str | None = None) -> dict[str, Any]:
    """What a combatant may do now (default: whoever is due): each action with its targets, or why not."""
    from furnace.play import turns

    state = store_of(request).open(campaign)
    now = encounters.current(state)
    due = turns.due(now.turns)
    if who is None and due is None:
        return {"who": None, "actions": []}
    cid = _cid(store_of(request), state, caller, who) if who else due.id if due else ""
    _mine(state, caller, cid)
    rules = rules_of(state).with_options(now.options, "this fight") if now.options else rules_of(state)
    menu = turns.legal_actions(now.turns, cid, rules)
    if caller.referee:
        return {"who": cid, "actions": [dataclasses.asdict(m) | {"legal": m.legal} for m in menu]}
    handle = views.handles(store_of(request), state)
    out = []
    for m in menu:
        targets = [handle[t] for t in m.targets if t in handle]
        legal = m.legal and (bool(targets) or not m.targets)
        out.append({"kind": m.kind, "targets": targets, "details": list(m.details), "legal": legal,
                    "reason": None if legal else "not now"})
    return {"who": handle[cid], "actions": out}


@router.post("/act")
def act(campaign: str, body: ActBody, request: Request, caller: Asker) -> dict[str, Any]:
    """One action on a combatant's turn, as the menu names it (attack, move_attack, go_ranged, cast …). A choice it
    gives a player (Luck on the roll she sees, sunder …) is asked of her (`web.questions`) unless the referee set
    that kind not to be asked; the step waits for the answer."""
    state = store_of(request).open(campaign)
    cid = _cid(store_of(request), state, caller, body.who)
    _mine(state, caller, cid)
    verb = MENU_VERB.get(body.action)
    if verb is None:
        raise FurnaceError(f"unknown action {body.action!r}: one of {', '.join(MENU_VERB)}")
    target = "RANGED" if body.action == "go_ranged" else (
        _cid(store_of(request), state, caller, body.target) if body.target else None)
    rng = dice_for(request, caller, campaign, body.faces)
    fn = encounters.act(cid, verb, target, rng, spell=body.spell, note=body.note, asked=True)
    return run_rolled(request, caller, campaign, f"encounter act {verb}", fn, rng)
