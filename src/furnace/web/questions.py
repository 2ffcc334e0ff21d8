"""The players' choices in the console's fight: the open questions each viewer may see, the answer by question id,
and the referee's switch of the kinds of choice the table is asked.

Each route is `furnace.campaign.questions` (what `furnace encounter status / answer / standing` run), logged as one
command. A player sees and answers only the questions of her own characters, told from what she may know (her
roll, the damage she takes; never the standing answer, which a policy may have worked out from a foe's AC or DC);
the referee sees every one and may answer for anyone. An answer names the question's id and is checked inside its
transaction: a second answer to the same id (a double tap, two phones) finds it closed and is refused with 409,
spending nothing. A question left waiting past the campaign's time limit (`furnace standing --seconds N`) is answered
by its standing answer when the questions are read (`overdue`, by the server's clock `app.state.now`, settable), and
the referee sets the standing answers that last between fights (`/standing`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, Request
from pydantic import Field

from furnace.campaign import encounters
from furnace.campaign import questions as asking
from furnace.campaign import standing as lasting
from furnace.campaign.state import CampaignState
from furnace.campaign.store import Command, Store
from furnace.errors import FurnaceError, IllegalActionError
from furnace.events import Event
from furnace.play.questions import KINDS, Question
from furnace.web import bell, views
from furnace.web.api import Body, _writer, dice_for, run, run_rolled, store_of
from furnace.web.auth import Asker, Caller

router = APIRouter(prefix="/api/campaigns/{campaign}")
# what a question's card may tell its owner of the situation (the engine's `about`): her roll, its total and
# natural face, the dice she holds, the damage she takes and her HP, her Rages, the Hit Dice offered, the foe she
# killed and the foes CLOSE she may cleave into (names and ids, never their AC or HP), the power and the allies she
# may rally, the wound her helmet may save her from, her weapon's damage dice and their 1s (2H weapon master), the
# ally a foe attacks and that foe's name (Protection). Anything
# else the engine might one day put there stays with the referee.
TOLD = frozenset({"roll", "total", "natural", "held", "effect", "before_roll", "amount", "hp", "halved", "left",
                  "bonus", "allowed", "pool", "die",
                  "killed", "overflow", "new_attack", "foes", "power", "mode", "allies", "location", "text",
                  "faces", "ones", "weapon", "ally", "foe"})


class NotYours(FurnaceError):
    """A player answering a question that is another's."""

    http_status = 403


class AnswerBody(Body):
    answer: str = Field(min_length=1, max_length=20)
    faces: str | None = Field(None, max_length=200, pattern=r"^[0-9 ,]*$")


class StandingBody(Body):
    policies: dict[str, str] = Field(default_factory=dict, max_length=50)
    quiet: list[str] | None = Field(None, max_length=len(KINDS))


class LastingBody(StandingBody):
    clear: list[str] = Field(default_factory=list, max_length=50)
    seconds: int | None = Field(None, ge=0, le=lasting.MAX_SECONDS)


def _utc_now() -> datetime:
    return datetime.now(UTC)


def now_of(app: Any) -> datetime:
    """The server's clock: `app.state.now` when set (a test's settable clock), else the time now."""
    clock: Callable[[], datetime] = getattr(app.state, "now", _utc_now)
    return clock()


def overdue(app: Any, campaign: str) -> None:
    """The open question answered by its standing answer when it has waited past the campaign's time limit: asked
    when the questions are read and as the live feed ticks (`web.live`)."""
    store: Store = app.state.store
    now = now_of(app)
    due = asking.deadline(store, campaign, store.open(campaign))
    if due is None or now < due[1]:
        return                      # the usual answer, without waiting on the writers
    with _writer(store):
        answered = asking.fall_back(store, campaign, now, app.state.settings.rng())
    if answered:
        bell.ring(store)


def _owner_is(state: CampaignState, q: Question, caller: Caller) -> bool:
    """Whether the caller may answer `q`: the referee any; a player the questions of her own characters."""
    if caller.referee:
        return True
    member = state.roster.get(encounters.current(state).members.get(q.owner, ""))
    return member is not None and views.own(member, caller)


def card(state: CampaignState, q: Question, caller: Caller) -> dict[str, Any]:
    """A question as the caller's card shows it: the referee's whole, a player's from what she may know."""
    name = encounters.current(state).turns.encounter.get(q.owner).name
    if caller.referee:
        return q.model_dump(mode="json") | {"name": name}
    public = q.public()
    return public | {"name": name, "about": {k: v for k, v in public["about"].items() if k in TOLD}}


@router.get("/encounter/questions")
def open_questions(campaign: str, request: Request, caller: Asker) -> dict[str, Any]:
    """The open questions the caller may see and answer: a player her own characters', the referee every one
    (with the standing answer that decides it if nobody answers, the moment the time limit lets it decide, and the
    kinds of choice not asked). A question past its time is answered by its standing answer first."""
    overdue(request.app, campaign)
    store = store_of(request)
    state = store.open(campaign)
    shown = [card(state, q, caller) for q in asking.open_questions(state) if _owner_is(state, q, caller)]
    out: dict[str, Any] = {"questions": shown}
    if caller.referee:
        quiet = encounters.current(state).turns.encounter.asking.quiet if state.encounter is not None else ()
        out["quiet"] = list(quiet)
        out["kinds"] = list(KINDS)
        due = asking.deadline(store, campaign, state) if shown else None
        if due is not None:
            out["deadline"] = {"id": due[0].id, "at": due[1].isoformat(), "seconds": state.question_seconds}
    return out


def _checked(qid: str, value: str, caller: Caller, fn: Command) -> Command:
    """The answer, refused inside its transaction unless `qid` is open (409: answered already, so a second tap
    spends nothing), the caller's to answer (403) and one of its options."""

    def run_checked(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        q = next((q for q in asking.open_questions(state) if q.id == qid), None)
        if q is None:
            said = f"question {qid} is not open: answered already, or never asked"
            raise IllegalActionError(said).for_all(said)
        if not _owner_is(state, q, caller):
            raise NotYours("that question is another player's to answer").for_all(
                "that question is another player's to answer")
        if value not in q.options:
            said = f"{qid} takes {' | '.join(q.options)}"
            raise FurnaceError(f"{said}, not {value!r}").for_all(said)
        after, events = fn(state)
        return after, list(events)

    return run_checked


@router.post("/encounter/questions/{qid}")
def answer(campaign: str, qid: str, body: AnswerBody, request: Request, caller: Asker) -> dict[str, Any]:
    """Answer the open question `qid` with one of its options (a number of Luck Dice or Hit Dice, yes or no):
    the step that asked goes on with it. Each id is answered once; a second answer is refused (409)."""
    if len(qid) > 20 or not qid.isalnum():
        raise FurnaceError("a question's id is like q1").for_all("a question's id is like q1")
    rng = dice_for(request, caller, campaign, body.faces)
    fn = asking.answer(qid, body.answer, rng, by="referee" if caller.referee else "player")
    return run_rolled(request, caller, campaign, f"encounter answer {qid}", _checked(qid, body.answer, caller, fn),
                      rng)


@router.post("/encounter/standing")
def standing(campaign: str, body: StandingBody, request: Request, caller: Asker) -> dict[str, Any]:
    """The referee's switch: the kinds of choice not asked in this fight (`quiet`: their standing answer decides;
    [] asks every kind) and the standing answers (a policy per player, side or `referee`)."""
    quiet = tuple(body.quiet) if body.quiet is not None else None
    return run(request, caller, campaign, "encounter standing", asking.standing(dict(body.policies), quiet))


@router.get("/standing")
def lasting_standing(campaign: str, request: Request, caller: Asker) -> dict[str, Any]:
    """The standing answers that last between fights (the referee's form): each player's policy, the kinds not
    asked, the time limit; with the players of the roster, the policies and the kinds to choose from."""
    from furnace.play.policies import POLICIES

    state = store_of(request).open(campaign)
    players = sorted({m.player for m in state.roster.values() if m.player})
    return {**lasting.told(state), "players": players, "choices": dict(POLICIES), "kinds": list(KINDS)}


@router.post("/standing")
def set_lasting_standing(campaign: str, body: LastingBody, request: Request, caller: Asker) -> dict[str, Any]:
    """The referee sets the standing answers between fights (`furnace standing`): policies by player (merged;
    `clear` drops some), the kinds not asked (None: as they were), the seconds a question waits (None: as it was)."""
    quiet = tuple(body.quiet) if body.quiet is not None else None
    command = lasting.set_lasting(dict(body.policies), quiet, body.seconds, clear=tuple(body.clear))
    return run(request, caller, campaign, "standing", command)
