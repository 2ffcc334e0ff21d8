"""Timers (`furnace.play.timers`): named countdowns that fire the referee's event.

RULES.md F.17 (F-OPT-07 timers).
"""

from __future__ import annotations

import pytest

from furnace.play.checks import CheckError, OptionOffError
from furnace.play.timers import Timer
from furnace.render.story import tell_referee
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import dice

RULES = load_ruleset()
OPTIONAL = RULES.with_options({"timers": True})


# -- F-OPT-07 timers -------------------------------------------------------------------------------------------
def test_F_OPT_07_timer_counts_down_1d4_turns_and_fires_at_zero() -> None:
    """F-OPT-07: 1d4 shows 3; two ticks leave 1 turn, the third reaches 0 and fires the referee's prompt."""
    timer = Timer.start(dice(3), "flood", "the chamber floods", rules=OPTIONAL)
    assert timer.turns_left == 3
    timer, first = timer.tick()
    timer, second = timer.tick()
    assert (timer.turns_left, first, second) == (1, None, None)
    timer, event = timer.tick()
    assert timer.expired and event is not None
    assert event.data["prompt"] == "the chamber floods" and event.audience == "referee"
    assert tell_referee(event) == "the timer 'flood' runs out: the chamber floods\n    timer: 1d4 → [3] = 3"
    with pytest.raises(CheckError, match="already run out"):
        timer.tick()


def test_F_OPT_07_timer_needs_the_option() -> None:
    """F-OPT-07: timers off (default) raises."""
    with pytest.raises(OptionOffError, match="timers"):
        Timer.start(dice(3), "flood", "the chamber floods", rules=RULES)
