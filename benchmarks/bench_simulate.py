"""Simulation benchmark: fights per second of examples/funnel-vs-goblins.yaml on 1 and 2 worker processes.

Run: .venv/bin/python benchmarks/bench_simulate.py [--quick]
Prints fights/s for each and the ratio 2 workers / 1 worker, measured in the same run (the pool's start-up
of spawned processes is included, as a user's run pays it).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from furnace.play.simulate import FightFileSource, simulate

FUNNEL = str(Path(__file__).resolve().parents[1] / "examples" / "funnel-vs-goblins.yaml")


def rate(fights: int, workers: int) -> float:
    start = time.perf_counter()
    simulate(FightFileSource(FUNNEL), fights, 1, workers=workers)
    return fights / (time.perf_counter() - start)


def main() -> None:
    fights = 300 if "--quick" in sys.argv else 3000
    one, two = rate(fights, 1), rate(fights, 2)
    print(f"{fights} fights of {Path(FUNNEL).name}")
    print(f"  1 worker : {one:8.1f} fights/s")
    print(f"  2 workers: {two:8.1f} fights/s")
    print(f"  ratio 2/1: {two / one:.2f}")


if __name__ == "__main__":
    main()
