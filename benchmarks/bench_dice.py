"""Dice benchmark: Furnace's explained rolls vs avrae's d20 and a plain random.randint loop.

Run: make bench   (or .venv/bin/python benchmarks/bench_dice.py [--quick])

Prints per-roll microseconds and ratios measured in the same run, then the process wall time of
`furnace roll 1d20+3` against `python -c "import d20; print(d20.roll('1d20+3'))"`.
Goals (issues #13, #25): rolling a parsed expression ≥ 10x faster than d20.roll for each expression, d20's
rerolls, explosions, minimums and selectors included, as the median
of five runs (each run times every roller in turn, a tenth of its rolls at a time, so a busy machine slows them
alike); the CLI's wall time
≤ 0.5x of d20's one-liner. The explained roll (+explain: the roll and its rendered line) is shown beside it.
"""

from __future__ import annotations

import math
import random
import shutil
import statistics
import subprocess
import sys
import timeit
from pathlib import Path

import d20

from furnace import dice

# expression → (count, sides, bonus) of the plain randint loop beside it; d20's operators (issue 25) included
EXPRESSIONS = {"1d20+5": (1, 20, 5), "3d6": (3, 6, 0), "4d6kh3": (4, 6, 0), "12d6": (12, 6, 0),
               "4d6rr1": (4, 6, 0), "2d6ro<3": (2, 6, 0), "2d6ra6": (2, 6, 0), "8d6e6": (8, 6, 0), "1d6e6": (1, 6, 0),
               "10d6mi2": (10, 6, 0), "4d6k>4": (4, 6, 0)}


RUNS = 5


def per_call_us(fn: object, number: int) -> float:
    """One run of `number` calls, in microseconds per call."""
    return timeit.timeit(fn, number=number) / number * 1e6  # type: ignore[arg-type]


def plain_loop(rng: random.Random, count: int, sides: int, bonus: int) -> int:
    return sum(rng.randint(1, sides) for _ in range(count)) + bonus


CHUNKS = 10   # each run times the rollers in turn, a tenth of the rolls at a time, so a busy machine slows them alike


def bench_rolls(number: int) -> list[tuple[str, float, float, float, float, float]]:
    """Per expression: the median of five runs of each roller, and the median of the five runs' d20/furnace."""
    rng = random.Random(1)
    d20.roll("1d20")  # warm d20's parse cache, as ours is parsed once
    rows = []
    for text, (count, sides, bonus) in EXPRESSIONS.items():
        expr = dice.parse(text)
        d20.roll(text)
        runs = []
        for _ in range(RUNS):
            timings = [0.0, 0.0, 0.0, 0.0]
            for _chunk in range(CHUNKS):
                timings[0] += per_call_us(lambda: expr.roll(rng), number // CHUNKS) / CHUNKS
                timings[1] += per_call_us(lambda: expr.roll(rng).explain(), number // CHUNKS) / CHUNKS
                timings[2] += per_call_us(lambda: d20.roll(text), number // CHUNKS) / CHUNKS
                timings[3] += per_call_us(lambda: plain_loop(rng, count, sides, bonus), number // CHUNKS) / CHUNKS
            ours, ours_text, theirs, plain = timings
            runs.append((ours, ours_text, theirs, plain, theirs / ours))
        ours, ours_text, theirs, plain, speedup = (statistics.median(column) for column in zip(*runs, strict=True))
        rows.append((text, ours, ours_text, theirs, plain, speedup))
    return rows


def wall_ms(cmd: list[str], runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = timeit.default_timer()
        subprocess.run(cmd, check=True, capture_output=True)
        samples.append((timeit.default_timer() - start) * 1000)
    return statistics.median(samples)


def main() -> None:
    quick = "--quick" in sys.argv
    number = 2_000 if quick else 20_000
    print(f"Rolling parsed expressions ({number} rolls per timing, median of {RUNS} runs), microseconds per roll")
    print(f"{'expression':<10} {'furnace':>9} {'+explain':>9} {'d20.roll':>9} {'randint':>9} "
          f"{'d20/furnace':>12} {'d20/(f+text)':>13} {'furnace/randint':>16}")
    worst = math.inf
    for text, ours, ours_text, theirs, plain, speedup in bench_rolls(number):
        worst = min(worst, speedup)
        print(f"{text:<10} {ours:9.2f} {ours_text:9.2f} {theirs:9.2f} {plain:9.2f} "
              f"{speedup:11.1f}x {theirs / ours_text:12.1f}x {ours / plain:15.2f}x")
    print(f"slowest d20/furnace (median of {RUNS} runs): {worst:.1f}x (goal ≥ 10x)")

    furnace_bin = shutil.which("furnace", path=str(Path(sys.executable).parent))
    if furnace_bin is None:
        print("furnace console script not found next to this Python; skipping wall time")
        return
    runs = 5 if quick else 15
    ours_ms = wall_ms([furnace_bin, "roll", "1d20+3"], runs)
    theirs_ms = wall_ms([sys.executable, "-c", "import d20; print(d20.roll('1d20+3'))"], runs)
    bare_ms = wall_ms([sys.executable, "-c", "pass"], runs)
    print(f"\nProcess wall time, median of {runs} runs")
    print(f"  furnace roll 1d20+3            {ours_ms:7.1f} ms")
    print(f"  python -c 'import d20; roll'   {theirs_ms:7.1f} ms")
    print(f"  python -c pass (baseline)      {bare_ms:7.1f} ms")
    print(f"  ratio furnace/d20: {ours_ms / theirs_ms:.2f} (goal ≤ 0.50)")


if __name__ == "__main__":
    main()
