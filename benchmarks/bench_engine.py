"""Engine benchmark: the fight engine alone, on one core, ratios measured in the same run.

Run: .venv/bin/python benchmarks/bench_engine.py [--quick] [--versus REF]

1. Whole fights of examples/funnel-vs-goblins.yaml as `furnace simulate` fights them (`FightFileSource.prepare()`:
   the fight file and characters read once, each fight building its monsters from its seed), in this process:
   fights per second (CPU time, best of three runs). Goal: ≥ 2,000 (aim 10,000).
2. A round's cost per combatant at 4 against 4, 32 against 32 and 256 against 256 (plain monsters built by
   `play.combatant.monster`, HP high enough that nobody falls, every round a full round of attacks), and the ratio
   256/4. Goal: ≤ 1.5× (a round's cost grows with the number of combatants, not its square).
3. `--versus REF` (default `engine-before-facts`, the last engine that wrote sentences): the same fights per
   second measured in the same run with that commit's engine, checked out with `git worktree` into a temporary
   folder and run in a subprocess, and the ratio of the two (skipped, with a line saying why, where git or the
   commit is missing).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from furnace import dice
from furnace.play.combatant import Combatant, monster
from furnace.play.encounter import run_round
from furnace.play.simulate import FightFileSource, fight_seed
from furnace.play.state import Encounter
from furnace.rules.ruleset import Ruleset, load_ruleset

ROOT = Path(__file__).resolve().parents[1]
FUNNEL = str(ROOT / "examples" / "funnel-vs-goblins.yaml")
BASELINE = "engine-before-facts"
# what the other commit's engine runs: the same fights, the same way (FightFileSource.prepare and fight_seed have
# not changed), printing its rate
PROGRAM = """
import sys, time
from furnace.play.simulate import FightFileSource, fight_seed
fight = FightFileSource(sys.argv[1]).prepare()
for i in range(20):
    fight(fight_seed(0, i))
best = 0.0
for run in range(3):
    start = time.process_time()
    for i in range(int(sys.argv[2])):
        fight(fight_seed(run + 1, i))
    best = max(best, int(sys.argv[2]) / max(time.process_time() - start, 1e-9))
print(best)
"""
FIGHTS_GOAL = 2_000
RATIO_GOAL = 1.5
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


def baseline_rate(ref: str, fights: int) -> float | str:
    """Fights per second of the engine at commit `ref`, in a subprocess on a checkout of it; or why not."""
    try:
        subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", f"{ref}^{{commit}}"], check=True,
                       capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        return f"no commit {ref!r} in this checkout"
    with tempfile.TemporaryDirectory(prefix="furnace-baseline-") as folder:
        tree = Path(folder) / "tree"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), ref], check=True,
                       capture_output=True)
        try:
            done = subprocess.run([sys.executable, "-c", PROGRAM, FUNNEL, str(fights)], capture_output=True,
                                  text=True, env={"PYTHONPATH": str(tree / "src"), "PATH": "/usr/bin:/bin",
                                                  "FURNACE_CACHE_DIR": str(Path(folder) / "cache")})
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], capture_output=True)
    if done.returncode != 0:
        return f"the engine at {ref} did not run: {done.stderr.strip().splitlines()[-1:]}"
    return float(done.stdout.strip())


def main() -> None:
    quick = "--quick" in sys.argv
    fights = 300 if quick else 2_000
    rate = fights_per_second(fights)
    print(f"engine: {Path(FUNNEL).name}, {fights:,} fights on one core")
    print(f"  {rate:,.0f} fights/s (goal ≥ {FIGHTS_GOAL:,}): {'met' if rate >= FIGHTS_GOAL else 'NOT met'}")
    ref = sys.argv[sys.argv.index("--versus") + 1] if "--versus" in sys.argv else BASELINE
    before = baseline_rate(ref, fights)
    if isinstance(before, str):
        print(f"  the engine before facts: not measured ({before})")
    else:
        print(f"  the engine before facts ({ref}): {before:,.0f} fights/s in the same run; facts: "
              f"{rate / before:.2f}× its rate")
    costs = {n: round_us_per_combatant(n, max(5, (40 if quick else 200) // max(1, n // 4))) for n in SIZES}
    print("a round's cost per combatant:")
    for n, us in costs.items():
        print(f"  {n:>3} against {n:<3} {us:8.1f} µs")
    ratio = costs[SIZES[-1]] / costs[SIZES[0]]
    print(f"  ratio {SIZES[-1]}/{SIZES[0]}: {ratio:.2f}× (goal ≤ {RATIO_GOAL:g}×): "
          f"{'met' if ratio <= RATIO_GOAL else 'NOT met'}")


if __name__ == "__main__":
    main()
