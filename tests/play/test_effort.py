"""Effort and skill challenges (`furnace.play.effort`): extended tasks over several rolls.

RULES.md F.17 (F-OPT-03 effort, F-OPT-06 skill challenges), F-TAB-41, AMB-54, AMB-55.
"""

from __future__ import annotations

import pytest

from furnace.play.checks import CheckError, OptionOffError, check, make_dc
from furnace.play.effort import Effort, SkillChallenge, effort
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import dice
from tests.helpers.story import said

RULES = load_ruleset()
OPTIONAL = RULES.with_options({"effort": True, "skill_challenges": True})


# -- F-OPT-03 effort (F-TAB-41, AMB-54) ------------------------------------------------------------------------
def test_F_OPT_03_effort_dice_from_F_TAB_41() -> None:
    """F-OPT-03, F-TAB-41: with PROF 1d8 + mod (5 + 2 = 7); without 1d4 + mod (3 + 2 = 5); at least 1."""
    assert effort(dice(5), True, 2, rules=OPTIONAL).value == 7
    assert effort(dice(3), False, 2, rules=OPTIONAL).value == 5
    low = effort(dice(1), False, -3, rules=OPTIONAL)
    assert (low.roll.total, low.value) == (-2, 1)


def test_F_OPT_03_effort_accumulates_to_the_room_dc() -> None:
    """F-OPT-03, AMB-54: effort needed = ROOM DC 12; 7, a failed CHECK (nothing), then 6 → done at 13."""
    task = Effort.start(12, rules=OPTIONAL)
    assert (task.needed, task.progress, task.done) == (12, 0, False)
    task = task.add(dice(5), True, 2, rules=OPTIONAL)
    assert (task.progress, task.remaining) == (7, 5)
    failed = check(dice(3), 12, rules=OPTIONAL)
    task = task.add(dice(), True, 2, check=failed, rules=OPTIONAL)   # no effort die is rolled
    assert (task.progress, len(task.attempts)) == (7, 2)
    task = task.add(dice(4), True, 2, rules=OPTIONAL)
    assert (task.progress, task.remaining, task.done) == (13, 0, True)
    assert "done" in task.explain()
    with pytest.raises(CheckError, match="already done"):
        task.add(dice(4), True, 2, rules=OPTIONAL)


def test_F_OPT_03_effort_needs_the_option_and_takes_an_arbitrary_target() -> None:
    """F-OPT-03: effort is refused while the option is off; the referee may set the effort needed."""
    with pytest.raises(OptionOffError, match="effort"):
        Effort.start(12, rules=RULES)
    with pytest.raises(OptionOffError):
        effort(dice(4), True, 0, rules=RULES)
    assert Effort.start(12, needed=20, rules=OPTIONAL).needed == 20


# -- F-OPT-06 skill challenges (AMB-55) ------------------------------------------------------------------------
def test_F_OPT_06_skill_challenge_succeeds_at_the_threshold() -> None:
    """F-OPT-06: DC 12, 3 successes needed: 14, 5 (a failure), 12, 20 → succeeds on the third success."""
    challenge = SkillChallenge.start(12, 3, OPTIONAL)
    events = []
    for face in (14, 5, 12, 20):
        challenge, event = challenge.attempt(dice(face), rules=OPTIONAL)
        events.append(event)
    assert (challenge.successes, challenge.failures, challenge.status) == (3, 1, "succeeded")
    assert events[:3] == [None, None, None]
    assert events[3] is not None and events[3].data["status"] == "succeeded"
    assert events[3].data["successes"] == 3 and events[3].data["failures"] == 1


def test_F_OPT_06_three_failures_end_the_challenge() -> None:
    """F-OPT-06, AMB-55: the default failure threshold is 3 (skill_challenge_failures)."""
    challenge = SkillChallenge.start(make_dc(12, hard=["storm"], rules=OPTIONAL), 4, OPTIONAL)
    assert (challenge.dc.value, challenge.failure_threshold) == (15, 3)
    for face in (3, 4, 5):
        challenge, event = challenge.attempt(dice(face), rules=OPTIONAL)
    assert challenge.status == "failed"
    assert event is not None and "failed" in said(event)
    with pytest.raises(CheckError, match="already failed"):
        challenge.attempt(dice(20), rules=OPTIONAL)
    two = SkillChallenge.start(12, 4, OPTIONAL.with_options({"skill_challenge_failures": 2}))
    assert two.failure_threshold == 2


def test_F_OPT_06_needs_the_option() -> None:
    """F-OPT-06: skill_challenges off (default) raises."""
    with pytest.raises(OptionOffError, match="skill_challenges"):
        SkillChallenge.start(12, 3, RULES)
