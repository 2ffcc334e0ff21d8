"""The referee's panels beyond the fight: the clock (advance, timers, light, rations, diseases, what falls due),
level-up with its choices, spells (a SPELLCHECK and a cast from the sheet, mishaps in the log), enemy morale, the
rules tables (list and roll), and the simulation plot of a planned fight.

Each route is a few lines over the campaign's own commands (`furnace.campaign.timekeeping`, `.roster`, `.table`)
— what `furnace clock …`, `furnace character level-up`, `furnace morale`, `furnace table roll` run — logged as
one command. Physical dice: a body's `faces` ("14,3") are the faces rolled at the table, checked against the
dice the command asks for inside its transaction (`campaign.session.with_faces`) and marked entered; a player
may enter hers only when the referee allows it for the campaign (`campaign.table.allow_player_dice`).
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import Field

from furnace.campaign import table as tables
from furnace.campaign import timekeeping as tk
from furnace.web.api import Body, dice_for, owned, run, run_rolled, store_of
from furnace.web.auth import Asker

router = APIRouter(prefix="/api")
C = "/campaigns/{campaign}"
Unit = Literal["round", "turn", "minute", "hour", "watch", "day", "week", "month", "year"]
MAX_SIMULATED = 500        # fights per plot: the page waits for them


class Faces(Body):
    faces: str | None = Field(None, max_length=200, pattern=r"^[0-9 ,]*$")


class TimerBody(Faces):
    label: str = Field(min_length=1, max_length=100)
    amount: str = Field("1d4", min_length=1, max_length=20)
    unit: Unit = "turn"
    prompt: str = Field("", max_length=200)


class LightBody(Body):
    who: str = Field(min_length=1, max_length=100)
    source: str = Field(min_length=1, max_length=40)
    turns: float | None = Field(None, gt=0, le=10_000)


class RationsBody(Body):
    who: str = Field(min_length=1, max_length=100)
    rations: int = Field(ge=0, le=tk.MAX_RATIONS)
    drank: bool | None = None


class DiseaseBody(Faces):
    who: str = Field(min_length=1, max_length=100)
    disease: str = Field(min_length=1, max_length=60, pattern=r"^[A-Za-z0-9' -]+$")   # a table's, never a path
    exposed: bool = False
    cure: bool = False


class LevelBody(Faces):
    char_class: str | None = Field(None, max_length=20)
    archetype: str | None = Field(None, max_length=60)
    skills: list[str] = Field(default_factory=list, max_length=12)
    expertise: list[str] = Field(default_factory=list, max_length=12)
    save: str | None = Field(None, max_length=3)
    style: str | None = Field(None, max_length=40)
    spells: list[str] = Field(default_factory=list, max_length=12)
    cantrips: list[str] = Field(default_factory=list, max_length=12)
    ability: str | None = Field(None, max_length=3)
    feature: str | None = Field(None, max_length=60)
    random: bool = False


class CastBody(Faces):
    spell: str = Field(min_length=1, max_length=60)
    dc: int = Field(12, ge=1, le=60)
    scroll: bool = False


class MoraleBody(Faces):
    room_dc: int = Field(ge=1, le=40)
    value: int | None = Field(None, ge=2, le=12)
    hidden: bool = True


class TableRollBody(Faces):
    level: int | None = Field(None, ge=0, le=30)
    armor: Literal["none", "light", "heavy"] | None = None
    hidden: bool = False


class PlanBody(Body):
    monsters: str = Field(min_length=1, max_length=300)
    party: list[str] = Field(default_factory=list, max_length=50)
    fights: int = Field(200, ge=1, le=MAX_SIMULATED)
    room_dc: int | None = Field(None, ge=1, le=40)
    seed: int | None = Field(None, ge=0, le=2**32 - 1)


# -- the clock --------------------------------------------------------------------------------------------------
@router.get(C + "/clock")
def clock_status(campaign: str, request: Request) -> dict[str, Any]:
    """The time, and everything on the clock with the time it has left: light, rations, diseases, healing
    (a bone that heals), timers."""
    c = store_of(request).open(campaign).clock
    return {"now": c.describe(), "seconds": c.now, "entries": [
        {"id": e.id, "kind": e.kind, "owner": e.owner, "label": e.label, "due": c.describe(e.at),
         "left": tk.span_text(e.at - c.now), "every": tk.span_text(e.every) if e.every else None}
        for e in sorted(c.entries, key=lambda e: (e.at, e.id))]}


@router.post(C + "/clock/timer")
def clock_timer(campaign: str, body: TimerBody, request: Request, caller: Asker) -> dict[str, Any]:
    rng = dice_for(request, caller, campaign, body.faces)
    fn = tk.on_clock(tk.timer(body.label, body.amount, body.unit, rng, body.prompt))
    return run_rolled(request, caller, campaign, "clock timer", tables.hidden(fn), rng)


@router.post(C + "/clock/entries/{entry}/cancel")
def clock_cancel(campaign: str, entry: int, request: Request, caller: Asker) -> dict[str, Any]:
    return run(request, caller, campaign, "clock cancel", tk.on_clock(tk.cancelling(entry)))


@router.post(C + "/clock/light")
def clock_light(campaign: str, body: LightBody, request: Request, caller: Asker) -> dict[str, Any]:
    return run(request, caller, campaign, "clock light", tk.for_member(body.who, tk.lighting(body.source, body.turns)))


@router.post(C + "/clock/rations")
def clock_rations(campaign: str, body: RationsBody, request: Request, caller: Asker) -> dict[str, Any]:
    return run(request, caller, campaign, "rations", tk.for_member(body.who, tk.feeding(body.rations, body.drank)))


@router.post(C + "/clock/disease")
def clock_disease(campaign: str, body: DiseaseBody, request: Request, caller: Asker) -> dict[str, Any]:
    if body.cure:
        return run(request, caller, campaign, "clock cure", tk.for_member(body.who, tk.curing(body.disease)))
    rng = dice_for(request, caller, campaign, body.faces)
    fn = tk.for_member(body.who, tk.infecting(body.disease, rng, exposed=body.exposed))
    return run_rolled(request, caller, campaign, "clock infect", fn, rng)


# -- the roster: a level, a spell ---------------------------------------------------------------------------------
@router.post(C + "/characters/{who}/level-up")
def level_up(campaign: str, who: str, body: LevelBody, request: Request, caller: Asker) -> dict[str, Any]:
    """A level for a member, with the player's choices; a choice missing (without `random`) is refused naming
    what is open (`choice`, `allowed` in the answer)."""
    from furnace.campaign import roster

    choices = roster.Choices(char_class=body.char_class or None, archetype=body.archetype or None,
                             skills=tuple(body.skills), expertise=tuple(body.expertise), save=body.save or None,
                             style=body.style or None, spells=tuple(body.spells), cantrips=tuple(body.cantrips),
                             ability=body.ability or None, feature=body.feature or None, random=body.random)
    rng = dice_for(request, caller, campaign, body.faces)
    return run_rolled(request, caller, campaign, "character level-up", roster.level_up(who, choices, rng), rng)


@router.get("/spells")
def spell_list(request: Request) -> dict[str, Any]:
    from furnace.magic.spells import all_spells
    from furnace.rules.ruleset import load_ruleset

    return {"spells": [{"name": s.name, "kind": s.kind, "die": s.die, "levels": sorted(s.levels)}
                       for s in all_spells(load_ruleset("furnace"))]}


@router.post(C + "/characters/{who}/cast")
def cast(campaign: str, who: str, body: CastBody, request: Request, caller: Asker) -> dict[str, Any]:
    """A spell cast from the sheet outside a fight: SPELLCHECK, SL, mishap or disapproval, depletion."""
    rng = dice_for(request, caller, campaign, body.faces)
    return run_rolled(request, caller, campaign, "spell cast",
                      owned(caller, who, tables.cast(who, body.spell, rng, dc=body.dc, scroll=body.scroll)), rng)


# -- morale, the rules tables ---------------------------------------------------------------------------------------
@router.post(C + "/morale")
def morale(campaign: str, body: MoraleBody, request: Request, caller: Asker) -> dict[str, Any]:
    rng = dice_for(request, caller, campaign, body.faces)
    return run_rolled(request, caller, campaign, "morale",
                      tables.morale(body.room_dc, rng, value=body.value, hidden=body.hidden), rng)


@router.get("/tables")
def table_list() -> dict[str, Any]:
    from furnace.rules.tables import TableSet

    return {"tables": [{"id": t.id, "name": t.name, "title": t.title, "roll": t.roll, "die_table": t.die_table,
                        "rows": len(t.rows)}
                       for t in TableSet.packaged()]}


@router.post(C + "/tables/{name}/roll")
def table_roll(campaign: str, name: str, body: TableRollBody, request: Request, caller: Asker) -> dict[str, Any]:
    rng = dice_for(request, caller, campaign, body.faces)
    fn = tables.table_roll(name, rng, level=body.level, armor=body.armor, hidden=body.hidden)
    return run_rolled(request, caller, campaign, "table roll", fn, rng)


# -- a planned fight, simulated ------------------------------------------------------------------------------------
@router.post(C + "/simulate")
def simulate(campaign: str, body: PlanBody, request: Request) -> dict[str, Any]:
    """`fights` fights (at most 500) of the roster's living characters against the monsters, none written back:
    the chances and the plot of how they ended and how long they lasted."""
    import secrets

    from furnace.campaign.planning import CampaignSource
    from furnace.play.simulate import simulate as run_many
    from furnace.render.plots import simulation_svg

    state = store_of(request).open(campaign)
    seed = secrets.randbits(32) if body.seed is None else body.seed
    summary = run_many(CampaignSource(state, tuple(body.party or ["all"]), body.monsters, body.room_dc),
                       body.fights, seed)
    svg = simulation_svg(f"{summary.fights} fights against {body.monsters}, seed {seed}",
                         summary.outcomes_count(), summary.rounds())
    return {"seed": seed, "fights": summary.fights, "p_victory": summary.p_victory(), "p_tpk": summary.p_tpk(),
            "p_dies": summary.p_dies(), "svg": svg}
