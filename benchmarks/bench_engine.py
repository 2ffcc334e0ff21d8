"""Engine benchmark: the fight engine alone, on one core, ratios measured in the same run.

Run: .venv/bin/python benchmarks/bench_engine.py [--quick] [--versus REF]

1. Whole fights of examples/funnel-vs-goblins.yaml as `furnace simulate` fights them (`FightFileSource.prepare()`:
   the fight file and characters read once, each fight building its monsters from its seed), in this process:
   fights per second (CPU time, best of three runs). Goal: ≥ 2,000 (aim 10,000).
   Printed beside it: how many of the engine's modules ran compiled (`furnace.speedups`, `make speedups`), and the
   rate of the same engine as pure Python (`FURNACE_PURE=1`, in a subprocess).
2. A round's cost per combatant at 4 against 4, 32 against 32 and 256 against 256 (plain monsters built by
   `play.combatant.monster`, HP high enough that nobody falls, every round a full round of attacks), and the ratio
   256/4. Goal: ≤ 1.5× (a round's cost grows with the number of combatants, not its square).
3. `--versus REF` (default `BASELINE`, the engine of 2026-12-03's start, whose combatants were pydantic models): the
   same fights per second of this checkout's engine and of that commit's (checked out with `git worktree` into a
   temporary folder), each in a subprocess of its own, the two taking turns `TURNS` times (once with `--quick`) so
   that a change in the machine's load falls on both alike; the best rate of each and their ratio (skipped, with a
   line saying why, where git or the commit is missing).
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
BASELINE = "eb35357951a5b9030c84a03c8bb601152b8b79ff"   # the engine of 2026-12-03's start (pydantic combatants)
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


TURNS = 3        # each engine's subprocess runs this many times, the two in turn


def _rate_of(src: Path, fights: int, cache: Path, pure: bool = False) -> float:
    """Fights per second of the engine whose package is in `src`, in a subprocess (PROGRAM's best of three); `pure`:
    its modules run from their Python source, none compiled (`furnace.speedups`)."""
    env = {"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin", "FURNACE_CACHE_DIR": str(cache)}
    if pure:
        env["FURNACE_PURE"] = "1"
    done = subprocess.run([sys.executable, "-c", PROGRAM, FUNNEL, str(fights)], capture_output=True, text=True,
                          env=env)
    if done.returncode != 0:
        raise RuntimeError(" ".join(done.stderr.strip().splitlines()[-1:]))
    return float(done.stdout.strip())


def pure_rate(fights: int) -> float:
    """The same fights per second with every engine module run from its Python source (FURNACE_PURE=1)."""
    with tempfile.TemporaryDirectory(prefix="furnace-pure-") as folder:
        return _rate_of(ROOT / "src", fights, Path(folder), pure=True)


def compiled() -> str:
    """How many of the engine's modules this process runs compiled (`furnace.speedups`, built by `make speedups`)."""
    from furnace import speedups

    used = speedups.in_use()
    return f"{sum(used.values())} of the {len(speedups.ENGINE)} engine modules compiled by Cython"


def versus(ref: str, fights: int, turns: int = TURNS) -> tuple[float, float] | str:
    """(this checkout's, ref's) fights per second, their subprocesses taking turns; or why not measured."""
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
            ours, theirs = 0.0, 0.0
            for _ in range(turns):
                ours = max(ours, _rate_of(ROOT / "src", fights, Path(folder) / "ours"))
                theirs = max(theirs, _rate_of(tree / "src", fights, Path(folder) / "theirs"))
        except RuntimeError as exc:
            return f"an engine did not run: {exc}"
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], capture_output=True)
    return ours, theirs


def main() -> None:
    quick = "--quick" in sys.argv
    fights = 300 if quick else 2_000
    rate = fights_per_second(fights)
    print(f"engine: {Path(FUNNEL).name}, {fights:,} fights on one core ({compiled()})")
    print(f"  {rate:,.0f} fights/s (goal ≥ {FIGHTS_GOAL:,}): {'met' if rate >= FIGHTS_GOAL else 'NOT met'}")
    pure = pure_rate(fights)
    print(f"  the same engine as pure Python (FURNACE_PURE=1, a subprocess): {pure:,.0f} fights/s; "
          f"{rate / pure:.2f}× for the compiled")
    ref = sys.argv[sys.argv.index("--versus") + 1] if "--versus" in sys.argv else BASELINE
    turns = 1 if quick else TURNS
    both = versus(ref, fights, turns)
    if isinstance(both, str):
        print(f"  against {ref[:10]}: not measured ({both})")
    else:
        ours, theirs = both
        print(f"  against {ref[:10]}, the two in subprocesses taking turns ({turns} each): {ours:,.0f} against "
              f"{theirs:,.0f} fights/s, {ours / theirs:.2f}× its rate")
    costs = {n: round_us_per_combatant(n, max(5, (40 if quick else 200) // max(1, n // 4))) for n in SIZES}
    print("a round's cost per combatant:")
    for n, us in costs.items():
        print(f"  {n:>3} against {n:<3} {us:8.1f} µs")
    ratio = costs[SIZES[-1]] / costs[SIZES[0]]
    print(f"  ratio {SIZES[-1]}/{SIZES[0]}: {ratio:.2f}× (goal ≤ {RATIO_GOAL:g}×): "
          f"{'met' if ratio <= RATIO_GOAL else 'NOT met'}")


if __name__ == "__main__":
    main()
