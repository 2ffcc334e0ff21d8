"""The JSON API of the console (campaigns, roster, rolls, rest, clock, undo, the table, invites); the fight's
routes are in `fights`. Each route is a few lines over the campaign's own commands (`furnace.campaign.*`), the
same functions the CLI calls; the store logs each as one command. What is answered is what the caller may see
(`views`).
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from furnace.campaign import access, commands
from furnace.campaign import table as tables
from furnace.campaign.store import Command, Store
from furnace.dice import DiceSource
from furnace.errors import FurnaceError
from furnace.web import views
from furnace.web.auth import Asker, Caller, set_session

router = APIRouter(prefix="/api")
C = "/campaigns/{campaign}"


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class NewCampaign(Body):
    name: str = Field(min_length=1, max_length=64)
    profile: Literal["furnace", "hazards", "middle-sea"] = "furnace"


class FunnelBody(Body):
    players: list[str] = Field(default_factory=list, max_length=20)
    count: int | None = Field(None, ge=1, le=20)
    per_player: int = Field(4, ge=1, le=10)


class PromoteBody(Body):
    who: str = Field(min_length=1, max_length=100)
    char_class: str | None = Field(None, max_length=20)
    archetype: str | None = Field(None, max_length=60)
    skills: list[str] = Field(default_factory=list, max_length=12)
    save: str | None = Field(None, max_length=3)
    style: str | None = Field(None, max_length=40)
    name: str | None = Field(None, max_length=100)
    random: bool = True


class RollBody(Body):
    expression: str = Field(min_length=1, max_length=200)
    label: str = Field("", max_length=200)
    hidden: bool = False


class SheetRollBody(Body):
    kind: Literal["check", "save", "attack", "spellcheck"]
    ability: str | None = Field(None, max_length=3)
    skill: str | None = Field(None, max_length=40)
    dc: int = Field(12, ge=1, le=60)


class RestBody(Body):
    kind: str = Field(min_length=1, max_length=20)
    who: list[str] = Field(default_factory=list, max_length=50)


class ClockBody(Body):
    amount: int = Field(ge=1, le=10_000)
    unit: Literal["round", "turn", "minute", "hour", "day", "week"] = "turn"


class TableBody(Body):
    health: Literal["hidden", "word", "exact"]


class MonsterBody(Body):
    revealed: bool | None = None
    mask: str | None = Field(None, max_length=60)
    health: Literal["hidden", "word", "exact"] | None = None


class InviteBody(Body):
    role: Literal["player", "observer"]
    player: str = Field("", max_length=60)
    hours: float = Field(24, gt=0, le=720)


class JoinBody(Body):
    token: str = Field(min_length=10, max_length=200)


# -- helpers --------------------------------------------------------------------------------------------------
def store_of(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


def rng_of(request: Request) -> DiceSource:
    source: DiceSource = request.app.state.settings.rng()
    return source


def run(request: Request, caller: Caller, campaign: str, command: str, fn: Command) -> dict[str, Any]:
    """Run one command on the campaign (logged), and answer with its events as the caller may see them."""
    applied = store_of(request).apply(campaign, command, fn)
    return {"events": views.visible_events(list(applied.events), applied.state, caller)}


def own_member(request: Request, caller: Caller, campaign: str, who: str) -> str:
    """The member's id, refused for a player unless the character is hers."""
    member = store_of(request).open(campaign).member(who)
    if not caller.referee and not views.own(member, caller):
        raise FurnaceError(f"{member.character.name} is not your character")
    return member.id


# -- who is signed in -----------------------------------------------------------------------------------------
@router.get("/openapi.json", include_in_schema=False)
def openapi(request: Request) -> dict[str, Any]:
    schema: dict[str, Any] = request.app.openapi()
    return schema


@router.get("/me")
def me(caller: Asker) -> dict[str, Any]:
    return {"role": caller.role, "campaign": caller.campaign, "player": caller.player}


@router.post("/join")
def join(body: JoinBody, request: Request, response: Response) -> dict[str, Any]:
    """Use an invite: a player's or observer's session for its campaign (its cookie set)."""
    token, session = access.redeem_invite(store_of(request), body.token)
    set_session(response, request, token)
    page = "player" if session.role == "player" else "table"
    return {"role": session.role, "campaign": session.campaign, "player": session.player,
            "page": f"/c/{session.campaign}/{page}"}


@router.post("/signout")
def signout(request: Request, caller: Asker, response: Response) -> dict[str, Any]:
    if caller.session is not None:
        access.revoke(store_of(request), caller.session.id)
    response.delete_cookie("furnace_session", path="/")
    return {"signed_out": True}


# -- campaigns ------------------------------------------------------------------------------------------------
@router.get("/campaigns")
def campaign_list(request: Request) -> dict[str, Any]:
    return {"campaigns": store_of(request).names()}


@router.post("/campaigns")
def campaign_new(body: NewCampaign, request: Request) -> dict[str, Any]:
    state = store_of(request).create(body.name, body.profile)
    return {"name": state.name, "profile": state.profile}


@router.get("/bestiary")
def bestiary(request: Request) -> dict[str, Any]:
    from furnace.rules.bestiary import Bestiary

    return {"monsters": [{"id": m.id, "name": m.name, "hd": m.hd} for m in Bestiary.packaged().values()]}


@router.get(C)
def campaign(campaign: str, request: Request, caller: Asker) -> dict[str, Any]:
    return views.campaign_view(store_of(request).open(campaign), caller)


@router.get(C + "/log")
def log(campaign: str, request: Request, caller: Asker, since: int = 0, limit: int = 200) -> dict[str, Any]:
    store = store_of(request)
    events = store.events(campaign, since=max(0, since))
    events = events[-max(1, min(limit, 2000)):]
    return {"events": views.visible_events(events, store.open(campaign), caller)}


# -- the roster -----------------------------------------------------------------------------------------------
@router.post(C + "/funnel")
def funnel(campaign: str, body: FunnelBody, request: Request, caller: Asker) -> dict[str, Any]:
    from furnace.campaign.roster import Funnel

    players: int | list[str] = body.players or (body.count or 4)
    return run(request, caller, campaign, "funnel", Funnel(players, body.per_player, rng_of(request)))


@router.post(C + "/promote")
def promote(campaign: str, body: PromoteBody, request: Request, caller: Asker) -> dict[str, Any]:
    from furnace.campaign import roster

    choices = roster.Choices(char_class=body.char_class or None, archetype=body.archetype or None,
                             skills=tuple(body.skills), save=body.save or None, style=body.style or None,
                             random=body.random)
    return run(request, caller, campaign, "character promote",
               roster.promote(body.who, choices, rng_of(request), body.name or None))


@router.post(C + "/characters/{who}/roll")
def sheet_roll(campaign: str, who: str, body: SheetRollBody, request: Request,
               caller: Asker) -> dict[str, Any]:
    """A player's button: a CHECK, SAVE, ATK or SPELLCHECK for her character, rolled here, never by the page."""
    mid = own_member(request, caller, campaign, who)
    fn = tables.sheet_roll(mid, body.kind, rng_of(request), ability=body.ability, skill=body.skill, dc=body.dc)
    return run(request, caller, campaign, f"roll {body.kind}", fn)


# -- the session ------------------------------------------------------------------------------------------------
@router.post(C + "/roll")
def roll(campaign: str, body: RollBody, request: Request, caller: Asker) -> dict[str, Any]:
    rng = rng_of(request)
    if body.hidden:
        return run(request, caller, campaign, "roll", tables.hidden_roll(body.expression, rng, label=body.label))
    return run(request, caller, campaign, "roll", commands.roll(body.expression, rng, label=body.label))


@router.post(C + "/rolls/{seq}/show")
def show_roll(campaign: str, seq: int, request: Request, caller: Asker) -> dict[str, Any]:
    store = store_of(request)
    found = store.events(campaign, since=max(0, seq - 1), limit=1)
    return run(request, caller, campaign, "table", tables.show_roll(seq, found))


@router.post(C + "/rest")
def rest(campaign: str, body: RestBody, request: Request, caller: Asker) -> dict[str, Any]:
    from furnace.campaign.rest import rest as run_rest

    fn = run_rest(body.kind, body.who, rng_of(request), party=not body.who)
    return run(request, caller, campaign, f"rest {body.kind}", fn)


@router.post(C + "/clock")
def clock(campaign: str, body: ClockBody, request: Request, caller: Asker) -> dict[str, Any]:
    from furnace.campaign.timekeeping import advancing, on_clock

    fn = on_clock(advancing(body.amount, body.unit, rng_of(request)))
    return run(request, caller, campaign, f"clock advance {body.amount} {body.unit}", fn)


@router.post(C + "/undo")
def undo(campaign: str, request: Request, caller: Asker) -> dict[str, Any]:
    applied = store_of(request).undo(campaign)
    return {"events": views.visible_events(list(applied.events), applied.state, caller)}


@router.get(C + "/odds")
def odds(campaign: str, expression: str, dc: int | None = None) -> dict[str, Any]:
    """The exact odds of an expression (a bar chart on the page), and P(total ≥ DC)."""
    from furnace import dice

    if len(expression) > 200:
        raise FurnaceError("an expression is at most 200 characters")
    expr = dice.parse(expression)
    dist = expr.distribution({})
    chance = expr.probability_at_least(dc, {}) if dc is not None else None
    return {"expression": expr.text, "bars": [[k, float(v)] for k, v in sorted(dist.items())],
            "dc": dc, "p_at_least_dc": None if chance is None else float(chance)}


# -- the table: what players see ----------------------------------------------------------------------------------
@router.post(C + "/table")
def table_settings(campaign: str, body: TableBody, request: Request,
                   caller: Asker) -> dict[str, Any]:
    return run(request, caller, campaign, "table", tables.show_health(body.health))


@router.post(C + "/monsters/{cid}")
def monster(campaign: str, cid: str, body: MonsterBody, request: Request,
            caller: Asker) -> dict[str, Any]:
    fn = tables.set_monster(cid, revealed=body.revealed, mask=body.mask, health=body.health)
    return run(request, caller, campaign, "table", fn)


# -- invites and sessions -------------------------------------------------------------------------------------------
@router.post(C + "/invites")
def invite(campaign: str, body: InviteBody, request: Request) -> dict[str, Any]:
    """A single-use invite link for a player or an observer, and its QR code (inline SVG, drawn here)."""
    import segno

    token = access.create_invite(store_of(request), campaign, body.role, body.player, hours=body.hours)
    url = f"{str(request.base_url).rstrip('/')}/join/{token}"
    svg = segno.make(url, error="m").svg_inline(scale=4, dark="#111", light="#fff")
    return {"url": url, "svg": svg, "role": body.role, "player": body.player, "hours": body.hours}


@router.get(C + "/sessions")
def session_list(campaign: str, request: Request) -> dict[str, Any]:
    return {"sessions": [{"id": s.id, "role": s.role, "player": s.player}
                         for s in access.sessions(store_of(request), campaign)]}


@router.post(C + "/sessions/{sid}/revoke")
def session_revoke(campaign: str, sid: int, request: Request) -> dict[str, Any]:
    store = store_of(request)
    if sid not in {s.id for s in access.sessions(store, campaign)}:
        raise FurnaceError(f"there is no live session {sid} in this campaign")
    access.revoke(store, sid)
    return {"revoked": sid}
