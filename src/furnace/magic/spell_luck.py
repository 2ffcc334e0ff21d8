"""Luck Dice on a SPELLCHECK in a fight, asked of the caster after she sees it (F-LUCK-03, F-SPELL-09, AMB-19).

A SPELLCHECK that fails (no mishap: luck does not cancel a natural 1) asks her whether to spend Luck Dice on it
(`furnace.play.questions`); spent, the same d20 is read again with the dice added, the SL moving at most one step
(`furnace.magic.spellcheck`, luck_lifts_spell_failure), and her pool loses them.
"""

from __future__ import annotations

from collections.abc import Callable

from furnace import dice
from furnace.dice import DiceSource
from furnace.magic.spellcheck import Spellcheck
from furnace.play.choosing import held_luck
from furnace.play.luck import LuckState
from furnace.play.questions import ask
from furnace.play.state import Step

Again = Callable[[DiceSource, int], Spellcheck]     # the same SPELLCHECK rolled with n Luck Dice spent


def with_luck(step: Step, cid: str, check: Spellcheck, again: Again) -> Spellcheck:
    """The SPELLCHECK after the Luck Dice she chooses to spend on it (none: as it was)."""
    c = step.c(cid)
    held = held_luck(step, c)
    if held.dice < 1 or check.success or check.mishap or step.rules["luck_spend_timing"] != "after_roll":
        return check
    if check.sl == 0 and not step.rules["luck_lifts_spell_failure"] and int(check.values.get("band", 0)) == 0:
        return check                  # a Failure stays a Failure: nothing to spend on (AMB-19)
    die_max = dice.parse(str(step.rules["luck_die_size"])).bounds()[1]
    needed = int(check.values.get("needed", 12))
    answer = int(ask(step, c, "luck", tuple(str(n) for n in range(held.dice + 1)),
                     {"saves": needed - check.total <= die_max, "roll": "SPELLCHECK"},
                     {"roll": "SPELLCHECK", "total": check.total, "natural": check.natural, "held": held.dice,
                      "effect": str(step.rules["luck_die_effect"])}))
    if answer < 1:
        return check
    # (here: a fight in which no Luck is spent on a spell loads no turn-by-turn play, `furnace.play.turns`)
    from furnace.play.answering import Recorder

    sides = 20
    rerolled = again(Recorder(step.rng, ((sides, check.natural - 1),)), answer)   # the same d20, the dice added
    step.hold_luck(c, LuckState(held.dice - answer, held.streak))
    return rerolled
