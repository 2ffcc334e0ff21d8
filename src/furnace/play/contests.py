"""Contests: opposed roll-under CHECKs, where two sides each roll d20 against their own ability score.

Implements F-OPT-02 (contested roll-under CHECKs, option contested_checks) with AMB-53 (who wins when both
succeed or both fail; option contested_both_fail). Here live `contested`, `ContestResult` and `ContestSide`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from furnace import dice
from furnace.dice import DiceSource, RollResult
from furnace.play.checks import CheckError, require_option, resolve_rules, whole
from furnace.rules.ruleset import Ruleset


# -- contested roll-under CHECKs (F-OPT-02, AMB-53) --------------------------------------------------------
@dataclass(frozen=True)
class ContestSide:
    label: str
    score: int
    roll: RollResult
    success: bool            # rolled at or under its own ability score

    def explain(self) -> str:
        word = "under" if self.success else "over"
        return f"{self.label}: d20 → {self.roll.total} vs score {self.score} ({word})"

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "score": self.score, "roll": self.roll.to_dict(), "success": self.success}


@dataclass(frozen=True)
class ContestResult:
    a: ContestSide
    b: ContestSide
    winner: str | None       # the winning side's label; None when the contest is rolled again
    reroll: str              # "" | "now" | "next turn"
    reason: str

    def explain(self) -> str:
        outcome = f"{self.winner} wins" if self.winner else f"roll again {self.reroll}"
        return f"contest: {self.a.explain()}; {self.b.explain()} → {outcome}: {self.reason}"

    def to_dict(self) -> dict[str, Any]:
        return {"a": self.a.to_dict(), "b": self.b.to_dict(), "winner": self.winner, "reroll": self.reroll,
                "reason": self.reason, "explanation": self.explain()}


def _contest_side(rng: DiceSource, label: str, score: int) -> ContestSide:
    score = whole(score, f"{label}'s ability score")
    roll = dice.roll("d20", rng, label=f"{label} rolls under {score}")
    return ContestSide(label, score, roll, roll.total <= score)


def _higher(a: ContestSide, b: ContestSide, a_key: int, b_key: int, why: str) -> tuple[str | None, str, str]:
    """The side with the higher key; on a tie the higher score (AMB-53); on a tie of both, roll again."""
    if a_key != b_key:
        return (a.label if a_key > b_key else b.label), "", why
    if a.score != b.score:
        return (a.label if a.score > b.score else b.label), "", f"{why}; a tie, so the higher score wins"
    return None, "now", f"{why}; a tie, and the scores are equal too"


def _contest_winner(a: ContestSide, b: ContestSide, both_fail: str) -> tuple[str | None, str, str]:
    if a.success != b.success:
        winner = a if a.success else b
        return winner.label, "", "only one side rolled under its score"
    if a.success:
        return _higher(a, b, a.roll.total, b.roll.total, "both under: the higher roll wins")
    if both_fail == "reroll":
        return None, "next turn", "both over: both roll again one turn later (contested_both_fail: reroll)"
    # closest: the smaller overshoot wins, so compare the negated overshoots
    return _higher(a, b, a.score - a.roll.total, b.score - b.roll.total,
                   "both over: the roll closest to its score wins (contested_both_fail: closest)")


def contested(rng: DiceSource, a_score: int, b_score: int, *, a_label: str = "A", b_label: str = "B",
              rules: Ruleset | None = None) -> ContestResult:
    """Both sides roll d20 under their ability score (F-OPT-02); A rolls first."""
    rules = resolve_rules(rules)
    require_option(rules, "contested_checks", "F-OPT-02", "a contested roll-under CHECK")
    if a_label == b_label:
        raise CheckError("the two sides of a contest need different labels")
    a = _contest_side(rng, a_label, a_score)
    b = _contest_side(rng, b_label, b_score)
    return ContestResult(a, b, *_contest_winner(a, b, str(rules["contested_both_fail"])))
