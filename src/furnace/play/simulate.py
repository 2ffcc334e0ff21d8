"""Many fights of one encounter, to see how deadly it is: P(the party wins), P(each character dies), P(a total
party kill), the rounds, injuries and Luck Dice spent.

Every fight is the engine's own (`fightfile.build` and `encounter.run_fight`, nothing re-implemented), with its
own seed `fight_seed(seed, i)`, so fight i replays exactly with `furnace fight FILE --seed <that seed>`. A
`Source` says how to lay out one fight; it is prepared once per worker (the fight file and the characters read
once) and its `Fighter` then fights each seed. Fights are split among worker processes (spawn-safe: the worker
functions are top-level and a source is a small picklable value) and gathered in index order, so the result
is the same for any number of workers.
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from furnace import dice
from furnace.errors import FurnaceError
from furnace.events import Event
from furnace.play.encounter import run_fight
from furnace.play.fightfile import build, load_fight
from furnace.play.state import Encounter
from furnace.rules.ruleset import Ruleset, load_ruleset

MAX_FIGHTS = 1_000_000
MAX_WORKERS = 64

Fought = tuple[Encounter, Encounter, list[Event]]      # the encounter before, after, and the fight's events
Fighter = Callable[[int], Fought]                      # one fight from its seed


class Source(Protocol):
    """How to lay out one fight; picklable, prepared once in each worker."""

    def prepare(self) -> Fighter: ...


def fight_seed(seed: int, index: int) -> int:
    """The seed of fight `index` of a run seeded `seed`: a 32-bit number drawn from both, so runs of nearby
    seeds share no fights."""
    digest = hashlib.sha256(f"furnace-simulate/{seed}/{index}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


@dataclass(frozen=True)
class FightFileSource:
    """A fight file, fought as `furnace fight FILE --profile P --option … --seed S` fights it."""

    path: str
    profile: str = "furnace"
    options: tuple[tuple[str, Any], ...] = ()
    rounds: int = 20
    room_dc: int | None = None
    allow_outside: bool = False

    def rules(self) -> Ruleset:
        rules = load_ruleset(self.profile)
        return rules.with_options(dict(self.options), "override") if self.options else rules

    def prepare(self) -> Fighter:
        """Read the fight file and its characters once; each fight then rolls only its monsters."""
        spec = load_fight(self.path)
        if self.room_dc is not None:
            spec = spec.model_copy(update={"room_dc": self.room_dc})
        base, rules, rounds = Path(self.path).parent, self.rules(), self.rounds
        template = build(spec, base, dice.seeded(0), rules, allow_outside=self.allow_outside)
        party = template.combatants[:len(spec.party)]       # built first and without dice (fightfile.build)
        taken = {c.id for c in party}
        monsters_only = spec.model_copy(update={"party": []})

        def fight(seed: int) -> Fought:
            rng = dice.seeded(seed)
            rest = build(monsters_only, base, rng, rules)
            if taken.isdisjoint(c.id for c in rest.combatants):
                start = rest.model_copy(update={"combatants": (*party, *rest.combatants)})
            else:        # a monster's id would be another with the party there: build the whole fight again
                rng = dice.seeded(seed)
                start = build(spec, base, rng, rules, allow_outside=self.allow_outside)
            after, events = run_fight(start, rng, rules, rounds)
            return start, after, events

        return fight


@dataclass(frozen=True)
class Outcome:
    """One fight's result, as the summary counts it."""

    index: int
    seed: int
    rounds: int
    over: bool
    won: bool                        # the party's side won
    party: tuple[str, ...]           # the characters, by name
    dead: tuple[str, ...]            # the characters who died
    injuries: int                    # injuries the characters took
    luck_spent: int                  # Luck Dice spent in the fight

    @property
    def tpk(self) -> bool:
        return bool(self.party) and len(self.dead) == len(self.party)


def outcome(index: int, seed: int, fought: Fought) -> Outcome:
    """What one fight came to, for the party (the PCs)."""
    before, after, events = fought
    was = {c.id: c for c in before.combatants}
    pcs = [c for c in after.combatants if c.kind == "pc"]
    sides = {c.side for c in pcs}
    injuries = sum(max(0, len(c.injuries) - len(was[c.id].injuries)) for c in pcs if c.id in was)
    return Outcome(index=index, seed=seed, rounds=after.round, over=after.over,
                   won=after.over and after.winner in sides, party=tuple(c.name for c in pcs),
                   dead=tuple(c.name for c in pcs if c.status == "dead"), injuries=injuries,
                   luck_spent=sum(1 for e in events if e.kind == "luck"))


def fight_chunk(fighter: Fighter, seed: int, indices: Iterable[int]) -> list[Outcome]:
    """The fights of these indices, in order."""
    out = []
    for i in indices:
        s = fight_seed(seed, i)
        out.append(outcome(i, s, fighter(s)))
    return out


_PREPARED: list[Fighter] = []       # the worker process's fighter, prepared once by `_init_worker`


def _init_worker(source: Source) -> None:
    _PREPARED[:] = [source.prepare()]


def _work(seed: int, start: int, stop: int) -> list[Outcome]:
    return fight_chunk(_PREPARED[0], seed, range(start, stop))


def _chunks(fights: int, workers: int) -> list[tuple[int, int]]:
    size = max(1, min(200, fights // (workers * 8) or 1))
    return [(a, min(a + size, fights)) for a in range(0, fights, size)]


def simulate(source: Source, fights: int, seed: int, *, workers: int = 1,
             progress: Callable[[int], None] | None = None) -> Summary:
    """`fights` fights of `source`, fight i seeded `fight_seed(seed, i)`, on `workers` processes (1: in this
    one); `progress(n)` is told as each n fights finish. The summary is the same for any number of workers."""
    if not 1 <= fights <= MAX_FIGHTS:
        raise FurnaceError(f"the number of fights is 1 to {MAX_FIGHTS:,}, not {fights}")
    if not 1 <= workers <= MAX_WORKERS:
        raise FurnaceError(f"the number of workers is 1 to {MAX_WORKERS}, not {workers}")
    tell = progress or (lambda _n: None)
    chunks = _chunks(fights, workers)
    if workers == 1:
        fighter = source.prepare()
        results: list[Outcome] = []
        for a, b in chunks:
            results += fight_chunk(fighter, seed, range(a, b))
            tell(b - a)
        return Summary.of(seed, results)
    return Summary.of(seed, _in_pool(source, seed, chunks, workers, tell))


def _in_pool(source: Source, seed: int, chunks: Sequence[tuple[int, int]], workers: int,
             tell: Callable[[int], None]) -> list[Outcome]:
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    results: list[Outcome] = []
    with ProcessPoolExecutor(max_workers=min(workers, len(chunks)), mp_context=context,
                             initializer=_init_worker, initargs=(source,)) as pool:
        futures = {pool.submit(_work, seed, a, b): b - a for a, b in chunks}
        for done in as_completed(futures):
            results += done.result()
            tell(futures[done])
    return sorted(results, key=lambda o: o.index)


def default_workers() -> int:
    return max(1, min(os.cpu_count() or 1, 8))


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
        return self.share(lambda o: o.won)

    def p_tpk(self) -> float:
        return self.share(lambda o: o.tpk)

    def p_unfinished(self) -> float:
        return self.share(lambda o: not o.over)

    def p_dies(self) -> dict[str, float]:
        n = self.fights or 1
        return {name: sum(1 for o in self.outcomes if name in o.dead) / n for name in self.party}

    def rounds(self) -> dict[int, int]:
        """How many fights lasted each number of rounds."""
        return dict(sorted(Counter(o.rounds for o in self.outcomes).items()))

    def mean(self, value: Callable[[Outcome], int]) -> float:
        return sum(value(o) for o in self.outcomes) / self.fights if self.outcomes else 0.0

    def outcomes_count(self) -> dict[str, int]:
        """The fights by how they ended: the party won, lost (a total party kill, or the other side won
        with some standing), or neither side won within the rounds."""
        won = sum(1 for o in self.outcomes if o.won)
        tpk = sum(1 for o in self.outcomes if o.tpk and not o.won)
        unfinished = sum(1 for o in self.outcomes if not o.over and not o.tpk)
        return {"party wins": won, "total party kill": tpk, "party loses": self.fights - won - tpk - unfinished,
                "round limit": unfinished}

    def to_dict(self) -> dict[str, Any]:
        return {"fights": self.fights, "seed": self.seed, "p_victory": self.p_victory(), "p_tpk": self.p_tpk(),
                "p_round_limit": self.p_unfinished(), "p_dies": self.p_dies(), "outcomes": self.outcomes_count(),
                "rounds": {"mean": self.mean(lambda o: o.rounds),
                           "distribution": {str(k): v for k, v in self.rounds().items()}},
                "injuries_per_fight": self.mean(lambda o: o.injuries),
                "luck_dice_spent_per_fight": self.mean(lambda o: o.luck_spent),
                "fight_seeds": [o.seed for o in self.outcomes[:10]]}

    def explain(self) -> str:
        """The summary in sentences."""
        lines = [f"{self.fights:,} fights (seed {self.seed}): the party wins {self.p_victory():.1%}; "
                 f"a total party kill in {self.p_tpk():.1%}; the round limit reached in {self.p_unfinished():.1%}."]
        lines += [f"  {name} dies in {p:.1%} of fights" for name, p in self.p_dies().items()]
        lines.append(f"Rounds: {self.mean(lambda o: o.rounds):.2f} on average. Injuries: "
                     f"{self.mean(lambda o: o.injuries):.2f} per fight. Luck Dice spent: "
                     f"{self.mean(lambda o: o.luck_spent):.2f} per fight.")
        return "\n".join(lines)
