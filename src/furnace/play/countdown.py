"""What a fight leaves, run out: the dying's countdown after the last blow (F-DEATH-01), for a fight no referee
goes on with (`furnace simulate`).

A fight ends when one side has nobody standing; a character dying then is neither saved nor dead. Her timer runs
on after it, a round at a time, with the engine's own turn (`encounter.start_turn`: the d20 at each of her turns,
a natural 20 up with 1 HP, the timer running out kills; a wound's death timer falls due). Who would stop it is the
winning side's to say (AMB-28):

- the party won: each of its own still standing tries to stabilise a dying companion at each of her turns, by
  the means the `stabilize_methods` option allows a helper (`medicine_or_healing`: a Medicine CHECK vs ROOM DC,
  then the Injuries table, F-INJ-01, whose natural 1 kills, F-DEATH-02). Under `healing_only` or `referee_only`
  nobody does: the simple tactic heals no one by magic and no referee declares anything;
- the monsters won: nobody stabilises anyone.

A wound's death timer (a crit's "dies in 1d4 rounds", M-GRIEV-07/08) ends only by a cure the simple tactic never
casts, so it runs to its end as well. The countdown goes on with the fight's own dice, so the whole of it replays
from the fight's seed.
"""

from __future__ import annotations

from furnace.dice import DiceSource
from furnace.events import Event
from furnace.play.combatant import FIGHTING, Combatant
from furnace.play.encounter import start_turn
from furnace.play.injuries import stabilise
from furnace.play.state import Encounter, Step
from furnace.rules.ruleset import Ruleset

MAX_ROUNDS = 10_000        # far past any timer the rules roll (a fatal wound's 6 exploration turns)


def _pending(c: Combatant) -> bool:
    """Her fate is still open: dying, or a wound's death timer running."""
    return c.kind == "pc" and (c.status == "dying" or (c.doomed_round is not None and c.status in FIGHTING))


def helpers(enc: Encounter, rules: Ruleset) -> frozenset[str]:
    """Who may stabilise the dying after this fight: the winning party's characters still standing, under
    `medicine_or_healing`; nobody after a lost fight, or under `healing_only` and `referee_only`."""
    sides = {c.side for c in enc.combatants if c.kind == "pc"}
    if not enc.over or enc.winner not in sides or rules["stabilize_methods"] != "medicine_or_healing":
        return frozenset()
    return frozenset(c.id for c in enc.combatants if c.side == enc.winner and c.kind == "pc" and c.active)


def count_down(enc: Encounter, rng: DiceSource, rules: Ruleset) -> tuple[Encounter, list[Event]]:
    """The encounter once every character's fate is settled, and the events of the rounds that settled it. A
    fight not over (the round limit) is left as it is: nobody has won it."""
    if not enc.over or not any(_pending(c) for c in enc.combatants):
        return enc, []
    step = Step(enc, rng, rules)
    helping = helpers(enc, rules)
    while any(_pending(c) for c in step.working()) and step.round < enc.round + MAX_ROUNDS:
        _round(step, helping)
    return step.enc, step.events


def _round(step: Step, helping: frozenset[str]) -> None:
    """One round after the fight: each character in turn order, the dying rolling and the helpers helping.
    A round where nobody is dying and nobody helps is skipped to the first wound timer falling due."""
    pending = [c for c in step.working() if _pending(c)]
    dying = any(c.status == "dying" for c in pending)         # (a dying PC's fate is open)
    due = [c.doomed_round for c in pending if c.doomed_round is not None]
    nxt = step.round + 1 if dying or not due else max(step.round + 1, min(due))
    step.reframe(round=nxt)
    for cid in [c.id for c in step.working()]:
        c = step.c(cid)
        if not (cid in helping or _pending(c)) or not c.in_fight:
            continue
        if start_turn(step, cid) and cid in helping:
            _help(step, cid)


def _help(step: Step, cid: str) -> None:
    """A helper's turn: a Medicine CHECK on the companion nearest death (the fewest turns left)."""
    c = step.c(cid)
    dying = [o for o in step.working() if o.status == "dying" and o.side == c.side and o.id != cid]
    if dying:
        target = min(dying, key=lambda o: o.dying_turns or 0)
        stabilise(step, cid, target.id)
