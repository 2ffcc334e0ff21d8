"""A fight played at a table that is asked: each step may stop at a question, wait, and run again from its answer.

    turns, events = answering.take(turns, "ann1", Action("attack", "goblin"), rng, rules)   # may stop and ask
    answering.open_questions(turns)                     # [Question(id="q1", owner="ann1", kind="luck", …)]
    turns, events = answering.answer(turns, "q1", "1", rng, rules)                           # the step goes on

A step that asks changes nothing in the fight: the encounter keeps the step waiting (`Asking.waiting`: the
action, or the tactic's turn, the dice it rolled before asking, the answers given so far, the facts it told) and
the facts up to the question, which the table has seen, with a question fact. The answer runs the step again from
its start with the same dice — the faces it drew replayed, then the answer's own dice (its seed, its entered
faces) — and the answers given, so the facts already told come again the same and are not told twice;
the step may stop again at its next question. No other step is taken while a question is open
(`QuestionOpen`, naming it).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import asdict
from typing import Any

from furnace.dice import DiceSource
from furnace.errors import FurnaceError, IllegalActionError
from furnace.events import Event, Part, declare
from furnace.play import turns as play
from furnace.play.encounter import Action
from furnace.play.frozen import updated
from furnace.play.questions import Asked, Asking, Context, Question, Waiting, asked_in, asking
from furnace.play.state import Encounter
from furnace.rules.ruleset import Ruleset

# the facts of a question: asked of its owner (what the options are, what she may know of the situation); answered
# (by her, the referee, or the standing answer when the referee lets it stand)
QUESTION = declare("question", id="public", choice="public", options="public", about="actor",
                   example={"id": "q1", "choice": "luck", "options": ["0", "1"],
                            "about": {"roll": "ATK", "total": 9}})
# an answer (`power`: the once-a-fight power or fighting style a power question was about, known as the question's)
ANSWER = declare("answer", id="public", choice="public", answer="public", by="public", power="actor",
                 example={"id": "q1", "choice": "luck", "answer": "1", "by": "player", "power": None})
Run = Callable[[DiceSource], tuple[play.Turns, list[Event]]]


class QuestionOpen(IllegalActionError):
    """A step was asked for while a question waits for its answer."""


# -- the dice of a step that may run again ----------------------------------------------------------------------
FLOAT_SOURCES = (random.Random, random.SystemRandom)


class Recorder:
    """A step's dice that remember each face handed out, after replaying the faces the step drew before it asked.

    A generator's faces are drawn as the dice roller draws them from it (`int(random() * sides) + 1`), so a seed
    gives the same dice as without a recorder; entered or scripted faces are asked for one by one."""

    def __init__(self, then: DiceSource, replay: tuple[tuple[int, int], ...] = ()) -> None:
        self.then = then
        self.replay = replay
        self.drawn: list[tuple[int, int]] = []

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        low, high = (0, start) if stop is None else (start, stop)
        sides = high - low
        at = len(self.drawn)
        if at < len(self.replay):
            want, face = self.replay[at]
            if want != sides:      # the step did not run again as it ran: a defect, not the table's mistake
                raise FurnaceError(f"the step waiting ran differently: a d{sides} where it rolled a d{want}")
        elif type(self.then) in FLOAT_SOURCES:
            face = low + int(self.then.random() * sides)  # type: ignore[attr-defined]
        else:
            face = self.then.randrange(low, high)
        self.drawn.append((sides, face))
        return face


# -- taking a step ------------------------------------------------------------------------------------------------
def open_questions(turns: play.Turns) -> list[Question]:
    return turns.encounter.asking.open()


def refuse_if_waiting(turns: play.Turns) -> None:
    """No step while a question is open: the error names it and how to answer it."""
    for q in open_questions(turns):
        raise QuestionOpen(f"{q.id} is open: {describe(q)}; answer it first")


def describe(q: Question) -> str:
    """The question in a line for the referee: who, what, the options."""
    return f"{q.owner} chooses {q.kind} ({' | '.join(q.options)}; standing answer {q.default})"


def take(turns: play.Turns, who: str, action: Action, rng: DiceSource, rules: Ruleset, *,
         standing: dict[str, str] | None = None, ask: bool = True) -> tuple[play.Turns, list[Event]]:
    """`turns.take`, asking: `standing` holds the actor's answers given with the action (kind → answer). With `ask`
    False nobody is asked (the standing answers decide), as a front end without questions plays."""
    refuse_if_waiting(turns)
    if not ask:
        return play.take(turns, who, action, rng, rules)
    why = play.refusal(turns, who, action, rules)
    if why is not None:
        raise IllegalActionError(why)
    base = Waiting(mode="act", who=who, action=asdict(action), standing=dict(standing or {}),
                   base=turns.encounter.asking.asked, question=_NONE)
    return _attempt(turns, base, rng, rules)


def tactic_turn(turns: play.Turns, rng: DiceSource, rules: Ruleset) -> tuple[play.Turns, list[Event]]:
    """One turn of the tactic for the combatant due (a monster), asking the players what it gives them to choose."""
    refuse_if_waiting(turns)
    base = Waiting(mode="tactic", base=turns.encounter.asking.asked, question=_NONE)
    return _attempt(turns, base, rng, rules)


def answer(turns: play.Turns, qid: str, value: str, rng: DiceSource, rules: Ruleset, *, by: str = "player",
           ) -> tuple[play.Turns, list[Event]]:
    """Answer the open question `qid` and run its step on: the answer fact, then what the step does now."""
    waiting = turns.encounter.asking.waiting
    if waiting is None or waiting.question.id != qid:
        now = ", ".join(q.id for q in open_questions(turns)) or "none"
        raise IllegalActionError(f"no open question {qid!r}; open: {now}")
    q = waiting.question
    if value not in q.options:
        raise IllegalActionError(f"{qid} ({q.kind}) takes {' | '.join(q.options)}, not {value!r}")
    power = {"power": q.about["power"]} if q.kind == "power" and "power" in q.about else {}
    told = Event(ANSWER, q.owner, (), (), {"id": qid, "choice": q.kind, "answer": value, "by": by, **power},
                 (), {q.owner: _part(turns, q.owner)})
    again = waiting.model_copy(update={"answers": {**waiting.answers, qid: value}})
    turns, events = _attempt(turns, again, rng, rules)
    return turns, [told, *events]


# (constructed, not validated: validating it at import built the model's validator, ~30 ms of every command that
# loads this module — `encounter status` among them — for a value written here by hand)
_NONE = Question.model_construct(id="", owner="", kind="", options=(), default="")


def _attempt(turns: play.Turns, waiting: Waiting, rng: DiceSource, rules: Ruleset,
             ) -> tuple[play.Turns, list[Event]]:
    """Run the step (again) with its answers; stop at its next question, or finish it."""
    source = Recorder(rng, waiting.faces)
    context = Context(rng=source, base=waiting.base, answers=waiting.answers, actor=waiting.who,
                      standing=waiting.standing)
    try:
        with asking(context):
            after, events = _run(turns, waiting, source, rules)
    except Asked as asked:
        seen = list(getattr(context, "seen", []))
        stop = waiting.model_copy(update={"faces": tuple(source.drawn), "logged": len(seen),
                                          "question": asked.question})
        return _with(turns, turns.encounter.asking.model_copy(update={"waiting": stop})), [
            *seen[waiting.logged:], _asked(turns, asked.question)]
    done = after.encounter.asking.model_copy(update={"waiting": None, "asked": asked_in(context)})
    return _with(after, done), events[waiting.logged:]


def _run(turns: play.Turns, waiting: Waiting, source: DiceSource, rules: Ruleset) -> tuple[play.Turns, list[Event]]:
    if waiting.mode == "act":
        return play.take(turns, waiting.who, Action(**(waiting.action or {})), source, rules)
    met: list[str] = []

    def one_turn(c: Any) -> bool:      # the combatant due takes her turn; the next one due stops it
        met.append(c.id)
        return len(met) > 1 or c.kind == "pc"

    return play.run_tactic(turns, source, rules, until=one_turn)


def _with(turns: play.Turns, asked: Asking) -> play.Turns:
    return turns.model_copy(update={"encounter": updated(turns.encounter, {"asking": asked})})


def _part(turns: play.Turns, cid: str) -> Part:
    c = turns.encounter.get(cid)
    return Part(c.name, c.kind, c.player or "")


def _asked(turns: play.Turns, q: Question) -> Event:
    return Event(QUESTION, q.owner, (), (), {"id": q.id, "choice": q.kind, "options": list(q.options),
                                             "about": dict(q.about)}, q.rules, {q.owner: _part(turns, q.owner)},
                 "player")


def standing_in(encounter: Encounter, policies: Mapping[str, str]) -> Encounter:
    """The encounter with these standing answers (a policy per player, side, `referee` or `*` for all)."""
    if not policies:
        return encounter
    asked = encounter.asking.model_copy(update={"policies": {**encounter.asking.policies, **policies}})
    return updated(encounter, {"asking": asked})


def set_standing(turns: play.Turns, *, policies: dict[str, str] | None = None, quiet: tuple[str, ...] | None = None,
                 ) -> play.Turns:
    """The fight's standing answers (a policy per player, side or the referee) and the kinds not asked."""
    now = turns.encounter.asking
    changes: dict[str, Any] = {}
    if policies is not None:
        changes["policies"] = {**now.policies, **policies}
    if quiet is not None:
        changes["quiet"] = quiet
    return _with(turns, now.model_copy(update=changes))


__all__ = ["ANSWER", "QUESTION", "QuestionOpen", "Recorder", "answer", "describe", "open_questions",
           "refuse_if_waiting", "set_standing", "standing_in", "tactic_turn", "take"]
