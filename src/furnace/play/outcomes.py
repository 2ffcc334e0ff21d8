"""One simulated fight's outcome, and the summary of many (`furnace.play.simulate`).

A fight's ending is counted one way only, so the endings add up to every fight: the party wins (a PC alive), the
party loses with survivors, every PC dead, or the round limit (nobody won). Who is dead is counted once the dying's
countdown ran out (`play.countdown`): a character left dying when the fight ended lives or dies by her d20s.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from furnace.events import Event
from furnace.play.state import Encounter


@dataclass(frozen=True)
class Fought:
    """One fight and what it left: the encounter before it, as it ended, and once the dying's countdown ran out
    (`countdown.count_down`); the fight's events (what `furnace fight FILE --seed` logs) and the countdown's."""

    start: Encounter
    end: Encounter
    after: Encounter
    events: list[Event]
    countdown: list[Event]


Ending = Literal["party wins", "party loses with survivors", "every PC dead", "round limit"]
ENDINGS: tuple[Ending, ...] = ("party wins", "party loses with survivors", "every PC dead", "round limit")


@dataclass(frozen=True)
class Outcome:
    """One fight's result, as the summary counts it: who is dead once the dying's countdown ran out."""

    index: int
    seed: int
    rounds: int                      # the fight's (the countdown's rounds come after it)
    over: bool
    won: bool                        # the party's side won
    party: tuple[str, ...]           # the characters, by name
    dead: tuple[str, ...]            # the characters dead after the countdown
    injuries: int                    # injuries the characters took (stabilising rolls one, F-INJ-01)
    luck_spent: int                  # Luck Dice spent in the fight
    left_dying: tuple[str, ...] = ()  # the characters dying (or with a wound's death timer) when the fight ended

    @property
    def tpk(self) -> bool:
        return bool(self.party) and len(self.dead) == len(self.party)

    @property
    def ending(self) -> Ending:
        """How the fight ended, one way only: the round limit (nobody won), every PC dead (whoever won), the
        party won with a PC alive, or it lost with one alive."""
        if not self.over:
            return "round limit"
        if self.tpk:
            return "every PC dead"
        return "party wins" if self.won else "party loses with survivors"


def outcome(index: int, seed: int, fought: Fought) -> Outcome:
    """What one fight came to, for the party (the PCs), once its countdown ran out."""
    was = {c.id: c for c in fought.start.combatants}
    pcs = [c for c in fought.after.combatants if c.kind == "pc"]
    sides = {c.side for c in pcs}
    end = fought.end
    injuries = sum(max(0, len(c.injuries) - len(was[c.id].injuries)) for c in pcs if c.id in was)
    left = tuple(c.name for c in end.combatants if c.kind == "pc" and c.in_fight
                 and (c.status == "dying" or c.doomed_round is not None))
    return Outcome(index=index, seed=seed, rounds=end.round, over=end.over,
                   won=end.over and end.winner in sides, party=tuple(c.name for c in pcs),
                   dead=tuple(c.name for c in pcs if c.status == "dead"), injuries=injuries,
                   luck_spent=sum(1 for e in fought.events if e.kind == "luck"), left_dying=left)


@dataclass(frozen=True)
class Summary:
    """The counts over every fight, in index order."""

    seed: int
    outcomes: tuple[Outcome, ...]
    party: tuple[str, ...] = ()

    @classmethod
    def of(cls, seed: int, outcomes: Sequence[Outcome]) -> Summary:
        party = outcomes[0].party if outcomes else ()
        return cls(seed=seed, outcomes=tuple(outcomes), party=party)

    @property
    def fights(self) -> int:
        return len(self.outcomes)

    def share(self, test: Callable[[Outcome], bool]) -> float:
        return sum(1 for o in self.outcomes if test(o)) / self.fights if self.outcomes else 0.0

    def p_victory(self) -> float:
        """The party won with a PC alive once the countdown ran out."""
        return self.share(lambda o: o.ending == "party wins")

    def p_tpk(self) -> float:
        """Every PC dead once the countdown ran out, in a fight that ended."""
        return self.share(lambda o: o.ending == "every PC dead")

    def p_loses(self) -> float:
        return self.share(lambda o: o.ending == "party loses with survivors")

    def p_unfinished(self) -> float:
        return self.share(lambda o: o.ending == "round limit")

    def p_dies(self) -> dict[str, float]:
        """Each character's share of fights she is dead after, the countdown's deaths counted."""
        n = self.fights or 1
        return {name: sum(1 for o in self.outcomes if name in o.dead) / n for name in self.party}

    def rounds(self) -> dict[int, int]:
        """How many fights lasted each number of rounds."""
        return dict(sorted(Counter(o.rounds for o in self.outcomes).items()))

    def mean(self, value: Callable[[Outcome], int]) -> float:
        return sum(value(o) for o in self.outcomes) / self.fights if self.outcomes else 0.0

    def outcomes_count(self) -> dict[str, int]:
        """The fights by how they ended, each one way (they add up to every fight): the party wins, the party
        loses with survivors, every PC dead, the round limit."""
        counts = Counter(o.ending for o in self.outcomes)
        return {ending: counts[ending] for ending in ENDINGS}

    def left_dying(self) -> tuple[float, float]:
        """Characters left dying when a fight ended, per fight, and the share of them the countdown killed."""
        left = sum(len(o.left_dying) for o in self.outcomes)
        died = sum(1 for o in self.outcomes for name in o.left_dying if name in o.dead)
        return left / (self.fights or 1), died / left if left else 0.0

    def to_dict(self) -> dict[str, Any]:
        per_fight, died = self.left_dying()
        return {"fights": self.fights, "seed": self.seed, "p_victory": self.p_victory(),
                "p_loses_with_survivors": self.p_loses(), "p_tpk": self.p_tpk(),
                "p_round_limit": self.p_unfinished(), "p_dies": self.p_dies(), "outcomes": self.outcomes_count(),
                "rounds": {"mean": self.mean(lambda o: o.rounds),
                           "distribution": {str(k): v for k, v in self.rounds().items()}},
                "left_dying_per_fight": per_fight, "left_dying_who_die": died,
                "injuries_per_fight": self.mean(lambda o: o.injuries),
                "luck_dice_spent_per_fight": self.mean(lambda o: o.luck_spent),
                "fight_seeds": [o.seed for o in self.outcomes[:10]]}

    def explain(self) -> str:
        """The summary in sentences: the endings (one per fight, adding up to 100%), each character's death,
        the dying the fights left, the rounds."""
        n = self.fights or 1
        lines = [f"{self.fights:,} fights (seed {self.seed}), each ended one way:"]
        counts = Counter(o.ending for o in self.outcomes)
        lines += [f"  {WORDS[ending]:<30} {counts[ending] / n:6.1%}" for ending in ENDINGS]
        lines += [f"  {name} dies in {p:.1%} of fights" for name, p in self.p_dies().items()]
        per_fight, died = self.left_dying()
        lines.append(f"Left dying when a fight ends: {per_fight:.2f} per fight; the countdown kills "
                     f"{died:.1%} of them.")
        lines.append(f"Rounds: {self.mean(lambda o: o.rounds):.2f} on average. Injuries: "
                     f"{self.mean(lambda o: o.injuries):.2f} per fight. Luck Dice spent: "
                     f"{self.mean(lambda o: o.luck_spent):.2f} per fight.")
        return "\n".join(lines)


WORDS: dict[Ending, str] = {"party wins": "the party wins", "party loses with survivors": "the party loses, some alive",
                            "every PC dead": "every PC dead", "round limit": "the round limit, nobody wins"}
