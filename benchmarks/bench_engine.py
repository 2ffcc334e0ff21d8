"""Engine benchmark: the fight engine alone, on one core, ratios measured in the same run.

Run: .venv/bin/python benchmarks/bench_engine.py [--quick]

1. Whole fights of examples/funnel-vs-goblins.yaml as `furnace simulate` fights them (`FightFileSource.prepare()`:
   the fight file and characters read once, each fight building its monsters from its seed), in this process:
   fights per second (CPU time, best of three runs). Goal: ≥ 2,000 (aim 10,000).
2. A round's cost per combatant at 4 against 4, 32 against 32 and 256 against 256 (plain monsters built by
   `play.combatant.monster`, HP high enough that nobody falls, every round a full round of attacks), and the ratio
   256/4. Goal: ≤ 2× (a round's cost grows with the number of combatants, not its square).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from furnace import dice
from furnace.play.combatant import Combatant, monster
from furnace.play.encounter import run_round
from furnace.play.simulate import FightFileSource, fight_seed
from furnace.play.state import Encounter
from furnace.rules.ruleset import Ruleset, load_ruleset

FUNNEL = str(Path(__file__).resolve().parents[1] / "examples" / "funnel-vs-goblins.yaml")
FIGHTS_GOAL = 2_000
RATIO_GOAL = 2.0
SIZES = (4, 32, 256)


def fights_per_second(fights: int) -> float:
    """The funnel fight, seeded as `simulate` seeds fight i, on this one core: the best of three runs."""
    fight = FightFileSource(FUNNEL).prepare()
    for i in range(20):           # warm the caches (parsed dice, tables, spells) as a long run has them warm
        fight(fight_seed(0, i))
    best = 0.0
    for run in range(3):
        start = time.process_time()
        for i in range(fights):
            fight(fight_seed(run + 1, i))
        best = max(best, fights / max(time.process_time() - start, 1e-9))
    return best


def army(n: int, side: str, rules: Ruleset) -> list[Combatant]:
    rng = dice.seeded(n)
    spec = {"hp": "100000", "damage": "1d6", "zone": "NEAR", "weapon": "spear"}
    return [monster({**spec, "name": f"{side} {i}"}, side, 12, rng, id=f"{side}-{i}", rules=rules)
            for i in range(n)]


def round_us_per_combatant(n: int, rounds: int) -> float:
    """The median over `rounds` consecutive rounds of n against n, in microseconds per combatant."""
    rules = load_ruleset()
    enc = Encounter(room_dc=12, combatants=(*army(n, "red", rules), *army(n, "blue", rules)), initiative="group")
    rng = dice.seeded(n)
    enc, _ = run_round(enc, rng, rules)       # the first round rolls initiative and closes in: not timed
    samples = []
    for _ in range(rounds):
        start = time.process_time()
        enc, _ = run_round(enc, rng, rules)
        samples.append((time.process_time() - start) / (2 * n) * 1e6)
    return statistics.median(samples)


def main() -> None:
    quick = "--quick" in sys.argv
    fights = 300 if quick else 2_000
    rate = fights_per_second(fights)
    print(f"engine: {Path(FUNNEL).name}, {fights:,} fights on one core")
    print(f"  {rate:,.0f} fights/s (goal ≥ {FIGHTS_GOAL:,}): {'met' if rate >= FIGHTS_GOAL else 'NOT met'}")
    costs = {n: round_us_per_combatant(n, max(5, (40 if quick else 200) // max(1, n // 4))) for n in SIZES}
    print("a round's cost per combatant:")
    for n, us in costs.items():
        print(f"  {n:>3} against {n:<3} {us:8.1f} µs")
    ratio = costs[SIZES[-1]] / costs[SIZES[0]]
    print(f"  ratio {SIZES[-1]}/{SIZES[0]}: {ratio:.2f}× (goal ≤ {RATIO_GOAL:g}×): "
          f"{'met' if ratio <= RATIO_GOAL else 'NOT met'}")


if __name__ == "__main__":
    main()
