"""The players' choices in a campaign's fight: the open question, its answer, the standing answers, and the
monsters' turns until a player is due or a question is open.

Each is a command for `Store.apply` over the fight in progress (`furnace.campaign.encounters`), with the engine's
`furnace.play.answering`: a step that asks is logged with the facts the table saw and the question fact, and keeps
the fight waiting; `answer` logs the answer and what the step did with it.
"""

from __future__ import annotations

from datetime import datetime

from furnace.campaign import encounters
from furnace.campaign.kept_fight import asked_at, deadline, open_questions
from furnace.campaign.state import CampaignError, CampaignState
from furnace.campaign.store import Command, Store
from furnace.dice import DiceSource
from furnace.events import Event, declare
from furnace.play import answering, policies
from furnace.play import turns as play
from furnace.play.questions import KINDS

# the referee sets the fight's standing answers: a policy by player, side or referee, and the kinds not asked
STANDING = declare("standing", policies="referee", quiet="public",
                   example={"policies": {"Ann": "dying"}, "quiet": ["sunder"]})
MAX_TURNS = 1000       # `next` plays at most this many monster turns (a fight nobody ends is not played forever)


def next_turns(rng: DiceSource) -> Command:
    """The tactic's turns for those nobody chooses for (the monsters) until a player character is due, a question
    is open, or the fight ends."""

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        now = encounters.current(state)
        rules = encounters._rules(state, now.options)
        turns, events = now.turns, []
        for _ in range(MAX_TURNS):
            c = play.due(turns)
            if c is None or c.kind == "pc" or answering.open_questions(turns):
                break
            turns, new = answering.tactic_turn(turns, rng, rules)
            events += new
        return encounters._keep(state, encounters._moved(now, turns, events)), [*events, encounters._due(turns)]

    return run


def answer(qid: str, value: str, rng: DiceSource, *, by: str = "player") -> Command:
    """Answer an open question: the step it stopped runs on with the answer (and may ask the next)."""

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        now = encounters.current(state)
        rules = encounters._rules(state, now.options)
        turns, events = answering.answer(now.turns, qid, value, rng, rules, by=by)
        return encounters._keep(state, encounters._moved(now, turns, events)), [*events, encounters._due(turns)]

    return run


def standing(answers: dict[str, str], quiet: tuple[str, ...] | None = None) -> Command:
    """The fight's standing answers: a policy per player, side or the referee (`policies.POLICIES`), and the kinds
    of choice the referee does not ask (the standing answer decides them)."""
    for kind in quiet or ():
        if kind not in KINDS:
            raise CampaignError(f"no kind of choice {kind!r}; the kinds are {', '.join(KINDS)}")
    for name in answers.values():
        policies.check(name)

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        now = encounters.current(state)
        turns = answering.set_standing(now.turns, policies=answers, quiet=quiet)
        asked = turns.encounter.asking
        told = Event(STANDING, "", (), (), {"policies": dict(asked.policies), "quiet": list(asked.quiet)})
        return encounters._keep(state, now.model_copy(update={"turns": turns})), [told]

    return run


# -- the time limit: a question left waiting falls to the standing answer (`kept_fight.deadline`) ----------------
def by_time(qid: str, rng: DiceSource) -> Command:
    """The open question `qid` answered by its standing answer, as its time ran out: refused (nothing written)
    when it is no longer open, answered meanwhile."""

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        q = next((q for q in open_questions(state) if q.id == qid), None)
        if q is None:
            raise CampaignError(f"question {qid} is not open: answered already")
        after, events = answer(qid, q.default, rng, by="time")(state)
        return after, list(events)

    return run


def fall_back(store: Store, name: str, now: datetime, rng: DiceSource) -> bool:
    """Whether the open question had waited past the campaign's time limit at `now` and was answered by its
    standing answer (logged as answered "by time"); the server asks this when a question is read or the live feed
    ticks. `now` is the caller's clock (a test's settable one)."""
    due = deadline(store, name, store.open(name))
    if due is None or now < due[1]:
        return False
    try:
        store.apply(name, f"encounter answer {due[0].id} (time)", by_time(due[0].id, rng))
    except CampaignError:
        return False            # answered meanwhile
    return True


__all__ = ["MAX_TURNS", "answer", "asked_at", "by_time", "deadline", "fall_back", "next_turns", "open_questions",
           "standing"]
