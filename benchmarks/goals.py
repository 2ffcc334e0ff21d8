"""Every goal of issue 27 ("Fast at the table") beside its figure, measured in one run (`make bench` runs it last).

Run: .venv/bin/python benchmarks/goals.py [--quick] [--runs N]

The figures come from the other benchmarks' own functions: the engine's fights per second (`bench_engine`),
`simulate` on one and two workers and a round's cost per combatant (`bench_simulate`), the start-up of the commands
that read no campaign and the campaign reads and writes against the d20 one-liner (`bench_startup`), and `furnace
shell`'s answer to each line (timed here, in process, on a campaign made by the CLI). A figure that cannot be
measured (a function renamed, a missing tool) says why on its line; the others are still printed.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_engine
import bench_simulate
import bench_startup

Row = tuple[str, str, str, bool | None]      # goal, figure, what it is measured against, met (None: not measured)


def _measured(rows: list[Row], goal: str, measure: Callable[[], tuple[str, str, bool]]) -> None:
    try:
        figure, against, met = measure()
    except Exception as exc:      # one benchmark changed or failed: say so, and measure the rest
        rows.append((goal, f"not measured ({type(exc).__name__}: {exc})"[:90], "", None))
        return
    rows.append((goal, figure, against, met))


def engine_rows(quick: bool) -> list[Row]:
    rows: list[Row] = []
    fights = 100 if quick else 2_000
    rate: dict[str, float] = {}

    def engine() -> tuple[str, str, bool]:
        rate["engine"] = bench_engine.fights_per_second(fights)
        pure = bench_engine.pure_rate(fights)        # the same engine, none of its modules compiled
        return (f"{rate['engine']:,.0f} fights/s (pure {pure:,.0f})", "one core, compiled",
                rate["engine"] >= 2_000)

    def one_worker() -> tuple[str, str, bool]:      # measured as the engine is: CPU time, the best of three
        one = bench_simulate.cpu_fights_per_second(fights)
        ratio = one / rate["engine"]
        return f"{ratio:.2f}x ({one:,.0f} fights/s)", "the engine's rate", ratio >= 0.9

    def two_workers() -> tuple[str, str, bool]:     # wall clock, both: what a user waits
        one, two = bench_simulate.fights_per_second(fights, 1), bench_simulate.fights_per_second(fights, 2)
        ratio = two / one
        return f"{ratio:.2f}x ({two:,.0f} fights/s)", "1 worker", ratio >= 1.8

    def rounds() -> tuple[str, str, bool]:
        repeat = 3 if quick else 21
        small = bench_simulate.round_us_per_combatant(4, repeat)
        large = bench_simulate.round_us_per_combatant(256, repeat)
        return f"{large / small:.2f}x ({small:.1f} / {large:.1f} µs)", "4 v 4, per combatant", large / small <= 1.5

    _measured(rows, "engine ≥ 2,000 fights/s (aim 10,000)", engine)
    _measured(rows, "simulate, 1 worker ≥ 0.9x the engine", one_worker)
    _measured(rows, "simulate, 2 workers ≥ 1.8x", two_workers)
    _measured(rows, "a round at 256 v 256 ≤ 1.5x 4 v 4", rounds)
    return rows


def startup_rows(runs: int) -> list[Row]:
    rows: list[Row] = []
    ms: dict[str, float] = {}

    def goal_of(name: str) -> Callable[[], tuple[str, str, bool]]:
        def measure() -> tuple[str, str, bool]:
            if not ms:
                ms.update(bench_startup.startup(runs))
            peer, limit = bench_startup.GOALS[name]
            ratio = ms[name] / ms[peer]
            return f"{ratio:.2f}x ({ms[name]:.0f} ms)", peer, ratio <= limit
        return measure

    for name, (_, limit) in bench_startup.GOALS.items():
        _measured(rows, f"{name.removeprefix('furnace ')} ≤ {limit}x", goal_of(name))
    return rows


def campaign_rows(runs: int) -> list[Row]:
    rows: list[Row] = []
    ms: dict[str, float] = {}

    def goal_of(name: str, limit: float) -> Callable[[], tuple[str, str, bool]]:
        def measure() -> tuple[str, str, bool]:
            if not ms:
                ms.update(bench_startup.campaign_commands(runs))
            ratio = ms[name] / ms["d20 one-liner"]
            return f"{ratio:.2f}x ({ms[name]:.0f} ms)", "d20 one-liner", ratio <= limit
        return measure

    for names, limit, kind in ((bench_startup.READS, bench_startup.READ_GOAL, "read"),
                               (bench_startup.WRITES, bench_startup.WRITE_GOAL, "write")):
        for name in names:
            _measured(rows, f"{kind} `{name}` ≤ {limit:g}x", goal_of(name, limit))
    return rows


SHELL_LINES = ["character list", "campaign show", "damage Wren 1", "heal Wren 1", "clock advance 1 turn",
               "campaign log --since 20"]


def shell_row(runs: int) -> list[Row]:
    """`furnace shell`: each line answered in the one process (its `run_lines`), the median over every line after a
    first pass that loads what the commands use; synchronous=full, the disk's sync inside each write's figure."""
    rows: list[Row] = []

    def measure() -> tuple[str, str, bool]:
        import contextlib
        import io
        import os

        from furnace.cli.app import main
        from furnace.cli.shell import run_lines

        with tempfile.TemporaryDirectory() as home:
            os.environ.update(FURNACE_CONFIG_DIR=home, FURNACE_DATA_DIR=home)
            given = ["--db", str(Path(home) / "campaigns.db")]
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                for args in bench_startup.SETUP[:3]:
                    main([*given, *args])
                given += ["--campaign", "keep"]
                run_lines(SHELL_LINES, given, echo=False, out=lambda _: None)      # the first pass loads
                samples = []
                for _ in range(max(runs, 3)):
                    for line in SHELL_LINES:
                        start = time.perf_counter()
                        run_lines([line], given, echo=False, out=lambda _: None)
                        samples.append((time.perf_counter() - start) * 1000)
        median = statistics.median(samples)
        return f"{median:.1f} ms", f"median of {len(samples)} lines", median <= 20

    _measured(rows, "shell: each command ≤ 20 ms", measure)
    return rows


def main() -> None:
    quick = "--quick" in sys.argv
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 5 if quick else 15
    rows = [*engine_rows(quick), *startup_rows(runs), *campaign_rows(runs), *shell_row(runs)]
    print(f"Issue 27's goals, measured in this run ({runs} interleaved runs of each command)")
    print(f"  {'goal':<42} {'measured':<32} {'against':<22} verdict")
    for goal, figure, against, met in rows:
        verdict = "—" if met is None else "met" if met else "NOT met"
        print(f"  {goal:<42} {figure:<32} {against:<22} {verdict}")


if __name__ == "__main__":
    main()
