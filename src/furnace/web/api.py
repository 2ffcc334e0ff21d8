"""The JSON API of the console (campaigns, roster, rolls, rest, clock, undo, the table, invites); the fight's
routes are in `fights`. Each route is a few lines over the campaign's own commands (`furnace.campaign.*`), the
same functions the CLI calls; the store logs each as one command. What is answered is what the caller may see
(`views`).
"""

from __future__ import annotations

import threading
import weakref
from contextlib import nullcontext
from typing import Any, Literal

from fastapi import APIRouter, Path, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from furnace.campaign import commands, luck_seen
from furnace.campaign import table as tables
from furnace.campaign.session import with_faces
from furnace.campaign.state import CampaignState
from furnace.campaign.store import Command, Store
from furnace.dice import DiceSource
from furnace.dice.source import EnteredFaces
from furnace.errors import FurnaceError
from furnace.events import Event
from furnace.web import bell, views
from furnace.web.auth import Asker, Caller
from furnace.web.feed import feed

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
    faces: str | None = Field(None, max_length=200, pattern=r"^[0-9 ,]*$")


class SheetRollBody(Body):
    kind: Literal["check", "save", "attack", "spellcheck"]
    ability: str | None = Field(None, max_length=3)
    skill: str | None = Field(None, max_length=40)
    dc: int = Field(12, ge=1, le=60)
    faces: str | None = Field(None, max_length=200, pattern=r"^[0-9 ,]*$")
    luck: int | None = Field(None, ge=0, le=3)     # her answer given ahead (0: none); None: asked once seen


class LuckBody(Body):
    dice: int = Field(ge=0, le=3)
    faces: str | None = Field(None, max_length=200, pattern=r"^[0-9 ,]*$")


class RestBody(Body):
    kind: str = Field(min_length=1, max_length=20)
    who: list[str] = Field(default_factory=list, max_length=50)


class ClockBody(Body):
    amount: int = Field(ge=1, le=10_000)
    unit: Literal["round", "turn", "minute", "hour", "watch", "day", "week", "month", "year"] = "turn"
    faces: str | None = Field(None, max_length=200, pattern=r"^[0-9 ,]*$")


class TableBody(Body):
    health: Literal["hidden", "word", "exact"] | None = None
    players_dice: bool | None = None


class MonsterBody(Body):
    revealed: bool | None = None
    mask: str | None = Field(None, max_length=60)
    health: Literal["hidden", "word", "exact"] | None = None


# -- helpers --------------------------------------------------------------------------------------------------
def store_of(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


def rng_of(request: Request) -> DiceSource:
    source: DiceSource = request.app.state.settings.rng()
    return source


_writers: weakref.WeakKeyDictionary[Store, threading.Lock | nullcontext[None]] = weakref.WeakKeyDictionary()
_writers_lock = threading.Lock()


def _writer(store: Store) -> threading.Lock | nullcontext[None]:
    """One writer at a time per store in this process: the others wait on a lock, not in SQLite's busy handler,
    whose growing sleeps (up to 100 ms each) would set the tail latency of a busy table. PostgreSQL needs none
    (a campaign's row lock orders its writers, in the server): the tables' writes go on side by side."""
    with _writers_lock:
        return _writers.setdefault(store, nullcontext() if store.url.startswith("postgresql") else threading.Lock())


def run(request: Request, caller: Caller, campaign: str, command: str, fn: Command) -> dict[str, Any]:
    """Run one command on the campaign (logged), and answer with its events as the caller may see them."""
    store = store_of(request)
    with _writer(store):
        applied = store.apply(campaign, command, fn)
    bell.ring(store)
    return {"events": views.visible_events(list(applied.events), applied.state, caller, store)}


def dice_for(request: Request, caller: Caller, campaign: str, faces: str | None) -> DiceSource:
    """The command's dice: the faces rolled at the table ("14,3": the referee's; a player's only when the referee
    allows it for the campaign), else the server's."""
    if faces is None or not faces.strip():
        return rng_of(request)
    if not caller.referee and not tables.table_of(store_of(request).open(campaign)).players_dice:
        refusal = "the referee has not allowed players to enter their own dice in this campaign"
        raise FurnaceError(refusal).for_all(refusal)
    return EnteredFaces.parse(faces)


def run_rolled(request: Request, caller: Caller, campaign: str, command: str, fn: Command,
               rng: DiceSource) -> dict[str, Any]:
    """`run` with entered faces checked inside the transaction (refused faces change nothing) and marked."""
    return run(request, caller, campaign, command, with_faces(fn, rng))


def owned(caller: Caller, who: str, fn: Command) -> Command:
    """The command, refused (inside its transaction) for a player unless the character `who` is hers."""
    if caller.referee:
        return fn

    def run_owned(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        member = state.member(who)
        if not views.own(member, caller):
            name = member.character.name      # a PC's name: the table knows it
            raise FurnaceError(f"{name} is not your character").for_all(f"{name} is not your character")
        after, events = fn(state)
        return after, list(events)

    return run_owned


# -- who is signed in -----------------------------------------------------------------------------------------
@router.get("/openapi.json", include_in_schema=False)
def openapi(request: Request) -> dict[str, Any]:
    schema: dict[str, Any] = request.app.openapi()
    return schema


@router.get("/me")
def me(caller: Asker) -> dict[str, Any]:
    return {"role": caller.role, "campaign": caller.campaign, "player": caller.player, "host": caller.host}


# -- campaigns ------------------------------------------------------------------------------------------------
@router.get("/campaigns")
def campaign_list(request: Request, caller: Asker) -> dict[str, Any]:
    """The campaigns the referee runs (the host: every one); `host`: she may start another."""
    return {"campaigns": caller.runs(store_of(request).names()), "host": caller.host}


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
    return views.campaign_view(store_of(request).open(campaign), caller, store_of(request))


@router.get(C + "/log")
def log(campaign: str, request: Request, caller: Asker, since: int = Query(0, ge=0, le=2**62),
        limit: int = Query(200, ge=1, le=2000)) -> dict[str, Any]:
    """The log as the caller is told it, a page of at most `limit` after her own number `since` (a player's
    numbers count only what she was told); `more`: the page is not the end (ask again from its last number);
    `earlier`: how many events from before the log kept facts she is not told."""
    reading = feed(store_of(request), campaign, views.audience(caller))
    page = reading.since(since, limit + 1)
    return {"events": page[:limit], "more": len(page) > limit, "earlier": reading.earlier}


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
    """A player's button: a CHECK, SAVE, ATK or SPELLCHECK for her character, rolled here, never by the page. When
    her Luck Dice could change it, the roll seen waits for her answer (`luck`, F-LUCK-03: `campaign.luck_seen`),
    unless she gave it ahead (`luck`: the dice she spends once it is seen, 0 for none, as the CLI's `--luck N`)."""
    _known_skill(body.skill)
    rng = dice_for(request, caller, campaign, body.faces)
    fn = (luck_seen.roll(who, body.kind, rng, ability=body.ability, skill=body.skill, dc=body.dc)
          if body.luck is None else
          tables.sheet_roll(who, body.kind, rng, ability=body.ability, skill=body.skill, dc=body.dc, luck=body.luck))
    return run_rolled(request, caller, campaign, f"roll {body.kind}", owned(caller, who, fn), rng)


@router.post(C + "/characters/{who}/luck")
def sheet_luck(campaign: str, who: str, body: LuckBody, request: Request, caller: Asker) -> dict[str, Any]:
    """Her answer to the roll that waits for her Luck Dice: the same faces rolled again with `dice` of them (0 to
    what her player holds; the referee may answer for her)."""
    rng = dice_for(request, caller, campaign, body.faces)
    fn = luck_seen.answer(who, body.dice, rng)
    return run_rolled(request, caller, campaign, "roll, Luck Dice", owned(caller, who, fn), rng)


def _known_skill(skill: str | None) -> None:
    from furnace.play.skills import SKILL_ABILITY

    if skill and skill not in SKILL_ABILITY:
        said = f"there is no skill named {skill[:40]!r}: the skills are {', '.join(sorted(SKILL_ABILITY))}"
        raise FurnaceError(said).for_all(said)


# -- the session ------------------------------------------------------------------------------------------------
@router.post(C + "/roll")
def roll(campaign: str, body: RollBody, request: Request, caller: Asker) -> dict[str, Any]:
    rng = dice_for(request, caller, campaign, body.faces)

    def fn(state: Any) -> Any:      # rolled inside the command, so that entered faces are checked there
        return commands.roll(body.expression, rng, label=body.label)(state)

    return run_rolled(request, caller, campaign, "roll", tables.hidden(fn) if body.hidden else fn, rng)


@router.post(C + "/rolls/{seq}/show")
def show_roll(campaign: str, request: Request, caller: Asker, seq: int = Path(ge=1, le=2**62)) -> dict[str, Any]:
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

    rng = dice_for(request, caller, campaign, body.faces)
    fn = on_clock(advancing(body.amount, body.unit, rng))
    return run_rolled(request, caller, campaign, f"clock advance {body.amount} {body.unit}", fn, rng)


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
    """How monsters' health shows to players; whether players may enter their own dice."""
    from furnace.campaign.session import chain

    steps = ([tables.show_health(body.health)] if body.health is not None else []) + (
        [tables.allow_player_dice(body.players_dice)] if body.players_dice is not None else [])
    if not steps:
        raise FurnaceError("say what to set: health (hidden, word, exact) or players_dice (true, false)")
    return run(request, caller, campaign, "table", chain(*steps))


@router.post(C + "/monsters/{cid}")
def monster(campaign: str, cid: str, body: MonsterBody, request: Request,
            caller: Asker) -> dict[str, Any]:
    fn = tables.set_monster(cid, revealed=body.revealed, mask=body.mask, health=body.health)
    return run(request, caller, campaign, "table", fn)
