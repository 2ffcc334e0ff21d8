"""Choices the rules give a player, asked of her: a `Question` the fight waits on, answered by her or by a standing
answer.

Where a rule lets the player (or the bearer) choose — spend Luck Dice on a roll just seen (F-LUCK-03), sunder her
shield after the damage is rolled (F-EQ-03, AMB-36), rage (F-ARCH-02), spend her Hit Dice on a Lay on Hands
(F-CLR-05), cleave into a second foe and which (F-FTR-03), use a once-a-fight archetype power (F-ARCH-03: Chosen one,
Rally and the ally it makes EASY) or a fighting style that gives a choice (F-FTR-04: the 2H weapon master's 1s,
Protection), make a helmet's save vs. death (M-SEVER-01, M-BONE-01) — the engine calls
`ask(step, owner, kind, options, situation, about)`:

- nobody is asked (a simulation, `furnace fight`, a chapter's dry run, a monster, a kind of choice the referee
  switched off): the owner's standing answer decides (`furnace.play.policies`), and the fight goes on;
- a table is asked (`answering`, `asking(...)` bound to the step's dice): an answer already given for this
  question is used; otherwise `Asked` unwinds the step, which has changed nothing, and the fight waits.

A step is replayable: the same encounter, the same dice and the same answers give the same fight, so the step
that asked is run again from its start when the answer comes (`furnace.play.answering`). Questions are numbered in
the fight (q1, q2 …) in the order they are asked; the n-th question of a step is the same question on every replay.

The question is data for every front end: who decides (`owner`, a combatant id, and her `player`), the `kind`,
the `options` (words or numbers as text), the `default` (the standing answer) and `about`, what she may know of the
situation (her own roll and total, the damage she takes, her HP) — never a foe's AC or DC (`public()` leaves out the
default, which a policy may have worked out from them).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:
    from furnace.play.combatant import Combatant
    from furnace.play.state import Step

Kind = Literal["luck", "sunder", "rage", "hit_dice", "cleave", "power", "helmet"]
KINDS: tuple[Kind, ...] = ("luck", "sunder", "rage", "hit_dice", "cleave", "power", "helmet")
RULES: dict[str, tuple[str, ...]] = {"luck": ("F-LUCK-03", "AMB-02"), "sunder": ("F-EQ-03", "AMB-36"),
                                     "rage": ("F-ARCH-02", "AMB-46"), "hit_dice": ("F-CLR-05", "AMB-15"),
                                     "cleave": ("F-FTR-03", "AMB-01"), "power": ("F-ARCH-03", "AMB-46"),
                                     "helmet": ("M-SEVER-01", "M-BONE-01", "AMB-94")}
YES, NO = "yes", "no"
REFEREE = "referee"        # the key of the referee's standing answer, for the monsters


class Question(BaseModel):
    """One choice the fight waits on."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    id: str                                   # q1, q2 … in the fight
    owner: str                                # the combatant who decides (her player does)
    player: str = ""                          # her player ("" : the referee decides)
    kind: str
    options: tuple[str, ...]
    default: str                              # the standing answer: what happens if nobody asks her
    about: dict[str, Any] = Field(default_factory=dict)   # what she may know of the situation
    rules: tuple[str, ...] = ()

    def public(self) -> dict[str, Any]:
        """The question as her card shows it: no default (a policy may have read a foe's DC to make it)."""
        return self.model_dump(mode="json", exclude={"default"})


class Waiting(BaseModel):
    """The step that waits for an answer: how to run it again (the action or the tactic's turn, the dice it rolled
    before asking, the answers given so far) and the open question."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    mode: Literal["act", "tactic"]
    who: str = ""                             # whose action (mode act)
    action: dict[str, Any] | None = None      # the action (mode act): kind, target, note, sneak, detail
    standing: dict[str, str] = Field(default_factory=dict)   # the actor's answers given with the action
    faces: tuple[tuple[int, int], ...] = ()   # the dice it drew before asking: (sides, face from 0), in order
    base: int = 0                             # questions asked in the fight before this step
    answers: dict[str, str] = Field(default_factory=dict)   # by question id, this step's
    logged: int = 0                           # the step's facts already told (before the question)
    question: Question


class Asking(BaseModel):
    """What the fight knows of its choices: the standing answers (a named policy per player, per side, or the
    referee's for the monsters), the kinds of choice the referee does not ask, the count of questions asked, and
    the step waiting for an answer."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    policies: dict[str, str] = Field(default_factory=dict)
    quiet: tuple[str, ...] = ()
    asked: int = 0
    waiting: Waiting | None = None

    def open(self) -> list[Question]:
        """The open questions (one at a time: the step waiting asks one)."""
        return [self.waiting.question] if self.waiting is not None else []


# a fight's choices before anyone set a standing answer or was asked (a frozen value), made without building the
# models' validators (`defer_build`: a fight that asks nothing never builds them)
NOBODY_ASKED = Asking.model_construct()


class Asked(Exception):
    """Raised through the engine when a question must wait for its answer."""

    def __init__(self, question: Question) -> None:
        super().__init__(question.id)
        self.question = question


@dataclass
class Context:
    """A table that is asked, bound to the dice of the step it runs (a dry run with other dice asks no one)."""

    rng: object
    base: int = 0
    answers: Mapping[str, str] = field(default_factory=dict)
    actor: str = ""
    standing: Mapping[str, str] = field(default_factory=dict)     # kind → the actor's answer for this action
    n: int = 0                                                     # questions met in this step
    seen: list[Any] = field(default_factory=list)                  # the step's facts before it asked

    def next_id(self) -> str:
        self.n += 1
        return f"q{self.base + self.n}"


_CONTEXT: ContextVar[Context | None] = ContextVar("furnace_asking", default=None)


@contextmanager
def asking(context: Context) -> Iterator[Context]:
    """Run a step whose owners are asked (the context's dice are the step's)."""
    token = _CONTEXT.set(context)
    try:
        yield context
    finally:
        _CONTEXT.reset(token)


def ask(step: Step, owner: Combatant, kind: Kind, options: tuple[str, ...], situation: Mapping[str, Any],
        about: Mapping[str, Any], rules: tuple[str, ...] = ()) -> str:
    """The owner's answer to this choice: given already, standing, or asked (raising `Asked`).

    `situation` is what her standing answer may weigh (how far the roll falls short, whether the blow drops
    her); `about` what the question tells her; `rules` the rule ids of this choice when not its kind's own."""
    from furnace.play import policies

    default = policies.decide(policies.standing(step.frame.asking, owner, step.rules), kind, situation, options)
    context = _CONTEXT.get()
    if context is None or context.rng is not step.rng or owner.kind != "pc" or kind in step.frame.asking.quiet:
        return default
    if owner.id == context.actor and kind in context.standing:
        return _fit(context.standing[kind], options)
    qid = context.next_id()
    given = context.answers.get(qid)
    if given is not None:
        return given
    context.seen = list(step.events)
    raise Asked(Question(id=qid, owner=owner.id, player=owner.player or "", kind=kind, options=options,
                         default=default, about=dict(about), rules=rules or RULES.get(kind, ())))


def _fit(answer: str, options: tuple[str, ...]) -> str:
    """An answer given ahead (a flag on the action) fitted to the options: a number of dice beyond those held is
    all of them."""
    if answer in options:
        return answer
    numbers = [int(o) for o in options if o.isdigit()]
    if answer.isdigit() and numbers:
        return str(min(int(answer), max(numbers)))
    return options[0]


def asked_in(context: Context) -> int:
    """How many questions the step met (each answered): the fight's count goes on from there."""
    return context.base + context.n


__all__ = ["KINDS", "NO", "REFEREE", "YES", "Asked", "Asking", "Context", "Question", "Waiting", "ask", "asked_in",
           "asking"]
