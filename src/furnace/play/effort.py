"""Effort and skill challenges: extended tasks that take more than one roll to finish.

Implements F-OPT-03 (effort, rolled on F-TAB-41; AMB-54: effort needed defaults to the ROOM DC) and F-OPT-06
(skill challenges; AMB-55: the failure threshold, option skill_challenge_failures). Here live `effort`,
`EffortRoll`, `EffortAttempt` and `Effort` (effort toward a target), and `SkillChallenge` (successes against
a DC before too many failures), both built on `furnace.play.checks`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from furnace import dice
from furnace.dice import DiceSource, RollResult
from furnace.events import Event, declare
from furnace.play.checks import (
    DC,
    Advantage,
    CheckError,
    CheckResult,
    Modifier,
    check,
    plain_dc,
    require_option,
    resolve_rules,
    whole,
)
from furnace.rules.ruleset import Ruleset


# -- effort (F-OPT-03, F-TAB-41, AMB-54) -------------------------------------------------------------------
@dataclass(frozen=True)
class EffortRoll:
    roll: RollResult
    value: int               # the roll's total, at least the table's minimum
    proficient: bool

    def explain(self) -> str:
        raised = f" (raised to the minimum {self.value})" if self.value != self.roll.total else ""
        return f"{self.roll.explain()}{raised}"

    def to_dict(self) -> dict[str, Any]:
        return {"roll": self.roll.to_dict(), "value": self.value, "proficient": self.proficient}


def effort(rng: DiceSource, proficient: bool, ability_mod: int, *, rules: Ruleset | None = None,
           label: str = "") -> EffortRoll:
    """One effort roll from F-TAB-41: 1d8 + mod with PROF, 1d4 + mod without, at least 1."""
    rules = resolve_rules(rules)
    require_option(rules, "effort", "F-OPT-03", "effort")
    row = rules.tables.get("effort").lookup("proficient" if proficient else "unproficient")
    minimum = int(row.data.get("minimum", 1))
    label = label or f"effort ({'with' if proficient else 'without'} PROF)"
    roll = dice.roll(str(row.data["expression"]), rng, {"MOD": whole(ability_mod, "ability modifier")}, label)
    return EffortRoll(roll, max(minimum, roll.total), proficient)


@dataclass(frozen=True)
class EffortAttempt:
    check: CheckResult | None     # the attempt's CHECK, when the caller gives it
    effort: EffortRoll | None     # None: the CHECK failed and adds nothing

    def to_dict(self) -> dict[str, Any]:
        return {"check": self.check.to_dict() if self.check else None,
                "effort": self.effort.to_dict() if self.effort else None}


@dataclass(frozen=True)
class Effort:
    """An extended task: effort accumulates toward `needed` (default ROOM DC); done when it is reached."""

    needed: int
    room_dc: int
    attempts: tuple[EffortAttempt, ...] = ()

    @classmethod
    def start(cls, room_dc: int, needed: int | None = None, rules: Ruleset | None = None) -> Effort:
        require_option(resolve_rules(rules), "effort", "F-OPT-03", "effort")
        needed = whole(room_dc if needed is None else needed, "effort needed")
        if needed < 1:
            raise CheckError(f"effort needed must be at least 1, not {needed}")
        return cls(needed, whole(room_dc, "ROOM DC"))

    @property
    def progress(self) -> int:
        return sum(a.effort.value for a in self.attempts if a.effort is not None)

    @property
    def remaining(self) -> int:
        return max(0, self.needed - self.progress)

    @property
    def done(self) -> bool:
        return self.progress >= self.needed

    def add(self, rng: DiceSource, proficient: bool, ability_mod: int, *, check: CheckResult | None = None,
            rules: Ruleset | None = None, label: str = "") -> Effort:
        """One attempt: a failed `check` adds nothing; otherwise roll effort and add it."""
        if self.done:
            raise CheckError(f"the task is already done ({self.progress}/{self.needed} effort)")
        if check is not None and not check.success:
            return replace(self, attempts=(*self.attempts, EffortAttempt(check, None)))
        rolled = effort(rng, proficient, ability_mod, rules=rules, label=label)
        return replace(self, attempts=(*self.attempts, EffortAttempt(check, rolled)))

    def explain(self) -> str:
        lines = [f"effort {self.progress}/{self.needed} vs ROOM DC {self.room_dc}"
                 + (" — done" if self.done else f" — {self.remaining} to go")]
        for i, a in enumerate(self.attempts, 1):
            lines.append(f"    {i}. " + (a.effort.explain() if a.effort else "CHECK failed: no effort"))
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {"needed": self.needed, "room_dc": self.room_dc, "progress": self.progress, "done": self.done,
                "attempts": [a.to_dict() for a in self.attempts], "explanation": self.explain()}


# -- skill challenges (F-OPT-06, AMB-55) -------------------------------------------------------------------
ChallengeStatus = Literal["running", "succeeded", "failed"]


CHALLENGE = declare("skill_challenge", status="public", successes="public", failures="public", needs="public",
                    fails_at="public", example={"status": "succeeded"})

@dataclass(frozen=True)
class SkillChallenge:
    """A DC, a success threshold set by the referee, and a failure threshold (skill_challenge_failures)."""

    dc: DC
    success_threshold: int
    failure_threshold: int
    checks: tuple[CheckResult, ...] = ()

    @classmethod
    def start(cls, dc: DC | int, success_threshold: int, rules: Ruleset | None = None) -> SkillChallenge:
        rules = resolve_rules(rules)
        require_option(rules, "skill_challenges", "F-OPT-06", "a skill challenge")
        failures = int(rules["skill_challenge_failures"])
        if whole(success_threshold, "success threshold") < 1 or failures < 1:
            raise CheckError("a skill challenge needs at least 1 success and allows at least 1 failure")
        return cls(dc if isinstance(dc, DC) else plain_dc(dc), success_threshold, failures)

    @property
    def successes(self) -> int:
        return sum(1 for c in self.checks if c.success)

    @property
    def failures(self) -> int:
        return len(self.checks) - self.successes

    @property
    def status(self) -> ChallengeStatus:
        if self.successes >= self.success_threshold:
            return "succeeded"
        return "failed" if self.failures >= self.failure_threshold else "running"

    def record(self, result: CheckResult) -> tuple[SkillChallenge, Event | None]:
        """Count one CHECK; the event says when the challenge ends, either way."""
        if self.status != "running":
            raise CheckError(f"the skill challenge has already {self.status}")
        after = replace(self, checks=(*self.checks, result))
        if after.status == "running":
            return after, None
        return after, Event(CHALLENGE, "", (), tuple(c.roll for c in after.checks),
                            {"status": after.status, "successes": after.successes, "failures": after.failures,
                             "needs": self.success_threshold, "fails_at": self.failure_threshold}, ("F-OPT-06",))

    def attempt(self, rng: DiceSource, modifiers: Sequence[Modifier] = (), *, label: str = "",
                advantage: Advantage = None, rules: Ruleset | None = None) -> tuple[SkillChallenge, Event | None]:
        """Roll one creative CHECK against the challenge's DC and count it."""
        if self.status != "running":
            raise CheckError(f"the skill challenge has already {self.status}")
        return self.record(check(rng, self.dc, modifiers, label=label, advantage=advantage, rules=rules))

    def explain(self) -> str:
        head = (f"skill challenge vs {self.dc.explain()}: {self.successes}/{self.success_threshold} successes, "
                f"{self.failures}/{self.failure_threshold} failures — {self.status}")
        return "\n".join([head, *(f"    {c.explain()}" for c in self.checks)])

    def to_dict(self) -> dict[str, Any]:
        return {"dc": self.dc.to_dict(), "success_threshold": self.success_threshold,
                "failure_threshold": self.failure_threshold, "successes": self.successes,
                "failures": self.failures, "status": self.status, "checks": [c.to_dict() for c in self.checks]}
